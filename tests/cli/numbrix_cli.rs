//! Numbrix through the real binary: records per the formats spec, solutions that are
//! Hamiltonian paths through the givens, `numbrix solve` agreeing with `generate`,
//! determinism across threads, and every bad input as one clear error.

use crate::common;
use crate::common::*;
use serde_json::Value;

/// A plain check of a solved grid, from the numbers alone.
fn check_path(rows: usize, cols: usize, givens: &[Vec<u64>], solution: &[Vec<u64>]) {
    let signed = |g: &[Vec<u64>]| -> Vec<Vec<i64>> {
        g.iter()
            .map(|r| r.iter().map(|&v| v as i64).collect())
            .collect()
    };
    assert_eq!((solution.len(), solution[0].len()), (rows, cols));
    check_board_path(&signed(givens), &signed(solution), false);
}

/// A record's rows of numbers (no blocked cells: every entry is 0 or more).
fn grid(v: &Value) -> Vec<Vec<u64>> {
    rows_of(v)
        .into_iter()
        .map(|r| r.into_iter().map(|x| u64::try_from(x).unwrap()).collect())
        .collect()
}

fn as_text(g: &[Vec<u64>]) -> String {
    g.iter()
        .map(|r| {
            r.iter()
                .map(|&v| {
                    if v == 0 {
                        ".".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn generate_records_follow_the_spec_and_solve_back() {
    for style in ["free", "symmetric", "border"] {
        let out = stdout_of(&[
            "numbrix", "generate", "--size", "6x7", "--count", "12", "--seed", "4", "--style",
            style,
        ]);
        let mut inputs = Vec::new();
        let mut solutions = Vec::new();
        for (i, line) in out.lines().enumerate() {
            let r: Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["game"], "numbrix");
            assert_eq!(r["index"], i as u64);
            assert_eq!(r["seed"], 4);
            assert_eq!((r["rows"].as_u64(), r["cols"].as_u64()), (Some(6), Some(7)));
            assert_eq!(r["style"], style);
            let (givens, solution) = (grid(&r["givens"]), grid(&r["solution"]));
            check_path(6, 7, &givens, &solution);
            let clues = givens.iter().flatten().filter(|&&v| v != 0).count();
            assert_eq!(r["clues"], clues as u64);
            assert!(["easy", "medium", "hard"].contains(&r["difficulty"].as_str().unwrap()));
            if style == "border" {
                for (ri, row) in givens.iter().enumerate() {
                    for (ci, &v) in row.iter().enumerate() {
                        let inner = ri > 0 && ci > 0 && ri < 5 && ci < 6;
                        assert!(v == 0 || !inner, "a border given inside");
                    }
                }
            }
            inputs.push(as_text(&givens));
            solutions.push(r["solution"].clone());
        }
        // The solver, from the text format, finds the same single solution.
        let answers = solve_json(&inputs);
        assert_eq!(answers.len(), 12);
        for (a, s) in answers.iter().zip(&solutions) {
            assert_eq!(a["solutions"], 1);
            assert_eq!(&a["solution"], s);
        }
    }
}

#[test]
fn solve_answers_in_text_and_json() {
    let run = |input: &str, json: bool| {
        let mut cmd = bin();
        cmd.args(["numbrix", "solve"]);
        if json {
            cmd.args(["--format", "json"]);
        }
        let out = cmd.write_stdin(input).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // Unique: 1 in a corner of 2x2 and 2 beside it fix the rest.
    let one = run("1 2\n. .\n", false);
    assert!(one.starts_with("1 solution (unique)"), "{one}");
    assert!(one.contains("1 2\n4 3\n"), "{one}");
    let many = run("1 . .\n. . .\n. . 9\n", false);
    assert!(many.starts_with("2 or more solutions"), "{many}");
    let none = run(". 1\n2 4\n", false);
    assert!(none.starts_with("0 solutions"), "{none}");
    let json = run("1 2\n. .\n\n. 1\n2 4\n", true);
    let lines: Vec<Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["solutions"], 1);
    assert_eq!(lines[0]["solution"], serde_json::json!([[1, 2], [4, 3]]));
    assert_eq!(lines[1]["solutions"], 0);
    assert!(lines[1]["solution"].is_null());
}

#[test]
fn same_seed_same_bytes_at_any_thread_count() {
    let args = [
        "numbrix", "generate", "--size", "8", "--count", "40", "--seed", "3", "-q",
    ];
    let one = stdout_of(&[&args[..], &["-j", "1"]].concat());
    let two = stdout_of(&[&args[..], &["-j", "2"]].concat());
    assert_eq!(one.lines().count(), 40);
    assert_eq!(one, two);
    let text = stdout_of(&[&args[..4], &["--count", "1", "--format", "text"]].concat());
    assert!(text.starts_with("# numbrix item 0 (seed 2026): "), "{text}");
    assert!(text.contains("solution:"));
}

#[test]
fn difficulty_filter_keeps_that_grade() {
    for d in ["easy", "medium", "hard"] {
        let out = stdout_of(&[
            "numbrix",
            "generate",
            "--count",
            "5",
            "--seed",
            "8",
            "--difficulty",
            d,
        ]);
        for line in out.lines() {
            let r: Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["difficulty"], d);
            // Kept clues for the grade are said in their own field, never as minimal.
            if d == "hard" {
                assert_eq!(r["minimal"], true);
                assert!(r.get("minimal_for_grade").is_none());
            } else {
                assert_eq!(r["minimal_for_grade"], true);
            }
        }
    }
}

#[test]
fn bad_input_is_one_clear_error() {
    fails_with(&["numbrix", "solve"], Some("1 2\n3\n"), "rectangular");
    fails_with(
        &["numbrix", "solve"],
        Some("1 x\n. .\n"),
        "'x' is not a number",
    );
    fails_with(&["numbrix", "solve"], Some("1 7\n. .\n"), "out of range");
    fails_with(&["numbrix", "solve"], Some("1 1\n. .\n"), "appears twice");
    fails_with(&["numbrix", "solve"], Some("1 2 3\n"), "too small");
    fails_with(&["numbrix", "solve"], Some(""), "no grid");
    // Grids are solved as they are read (memory does not grow with the input): the
    // answer to grid 1 is out before grid 2 is found to be bad.
    let out = bin()
        .args(["numbrix", "solve"])
        .write_stdin("1 2\n. .\n\n1 1\n. .\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("grid 2 (line 4)") && err.contains("appears twice"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("grid 1: "));
    fails_with(&["numbrix", "solve", "/no/such/file"], None, "cannot read");
    let big = vec![vec!["."; 33].join(" "); 33].join("\n");
    fails_with(&["numbrix", "solve"], Some(&big), "at most 1024");
    fails_with(&["numbrix", "generate", "--size", "1x9"], None, "too small");
    fails_with(
        &["numbrix", "generate", "--size", "40"],
        None,
        "at most 1024",
    );
    fails_with(
        &["numbrix", "generate", "--count", "0"],
        None,
        "--count is 0",
    );
    fails_with(
        &["numbrix", "generate", "--max-nodes", "0"],
        None,
        "--max-nodes is 0",
    );
    // A search cut short by --max-nodes says so (never "unique") and exits 1.
    let sparse = format!("{}\n. . . . . . 49", [". . . . . . ."; 6].join("\n"));
    let out = bin()
        .args(["numbrix", "solve", "--max-nodes", "5"])
        .write_stdin(sparse)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("unknown"));
    // Usage errors (clap) exit 2.
    let out = bin()
        .args(["numbrix", "generate", "--style", "wavy"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_shows_examples() {
    for args in [
        ["numbrix", "generate", "--help"],
        ["numbrix", "solve", "--help"],
    ] {
        assert!(stdout_of(&args).contains("Example"));
    }
}

/// A solved grid on a board with blocked cells (-1) and `king` moves or not, checked
/// from the numbers alone. Returns how many steps are diagonal.
fn check_board_path(givens: &[Vec<i64>], solution: &[Vec<i64>], king: bool) -> usize {
    let cells: Vec<(usize, usize, i64, i64)> = solution
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(move |(c, &v)| (r, c, v, givens[r][c]))
        })
        .collect();
    let n = cells.iter().filter(|x| x.2 != -1).count();
    let mut at = vec![None; n + 1];
    for &(r, c, v, g) in &cells {
        if v == -1 {
            assert_eq!(
                g, -1,
                "row {r}, column {c}: blocked in the solution, not in the givens"
            );
            continue;
        }
        assert!(g == 0 || g == v);
        assert!((1..=n as i64).contains(&v));
        assert!(at[v as usize].replace((r, c)).is_none(), "{v} twice");
    }
    let mut diagonal = 0;
    for v in 1..n {
        let ((r1, c1), (r2, c2)) = (at[v].unwrap(), at[v + 1].unwrap());
        let (dr, dc) = (r1.abs_diff(r2), c1.abs_diff(c2));
        if king {
            assert_eq!(dr.max(dc), 1, "{v} and {} apart", v + 1);
        } else {
            assert_eq!(dr + dc, 1, "{v} and {} apart", v + 1);
        }
        diagonal += usize::from(dr == 1 && dc == 1);
    }
    diagonal
}

fn rows_of(v: &Value) -> Vec<Vec<i64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn king_moves_make_hidato_puzzles_that_solve_back() {
    let args = [
        "numbrix", "generate", "--moves", "king", "--size", "7", "--count", "6", "--seed", "4",
    ];
    let out = stdout_of(&args);
    let mut diagonal = 0;
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["moves"], "king");
        assert_eq!(v["minimal"], true);
        diagonal += check_board_path(&rows_of(&v["givens"]), &rows_of(&v["solution"]), true);
    }
    assert!(
        diagonal > 6,
        "king paths step diagonally ({diagonal} diagonal steps)"
    );
    // Orthogonal records keep their old form (no "moves" field).
    assert!(!stdout_of(&["numbrix", "generate", "--count", "1"]).contains("moves"));
    // -j1 and -j2 agree.
    let mut j1 = args.to_vec();
    j1.extend(["-j", "1"]);
    assert_eq!(stdout_of(&j1), out);
    // The text form solves back, uniquely, with king moves; without them it does not.
    let puzzle = stdout_of(&[
        "numbrix", "generate", "--moves", "king", "--size", "7", "--seed", "4", "--format", "text",
    ]);
    let givens = givens_of(&puzzle);
    let solved = stdout_of_input(&["numbrix", "solve", "--moves", "king"], &givens);
    assert!(solved.starts_with("1 solution (unique)"), "{solved}");
    assert!(puzzle.contains(solved.lines().nth(1).unwrap()));
    let plain = stdout_of_input(&["numbrix", "solve"], &givens);
    assert!(
        !plain.starts_with("1 solution (unique)\n") || plain != solved,
        "{plain}"
    );
}

/// The givens of the first puzzle of `generate --format text` output, as solve input.
fn givens_of(text: &str) -> String {
    text.lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `numbrix solve --format json` on grids in the text format: one answer each.
fn solve_json(grids: &[String]) -> Vec<Value> {
    let out = bin()
        .args(["numbrix", "solve", "--format", "json"])
        .write_stdin(grids.join("\n\n") + "\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn stdout_of_input(args: &[&str], input: &str) -> String {
    let out = common::bin()
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn masks_and_shapes_block_cells_in_records_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let mask = dir.path().join("l.txt");
    // An L with a notch: 7 x 6, the top-right 3 x 3 blocked and one inside cell.
    std::fs::write(
        &mask,
        "...###\n...###\n...###\n......\n..#...\n......\n......\n",
    )
    .unwrap();
    let m = mask.to_str().unwrap();
    let out = stdout_of(&[
        "numbrix", "generate", "--mask", m, "--count", "4", "--seed", "2",
    ]);
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!((v["rows"].as_u64(), v["cols"].as_u64()), (Some(7), Some(6)));
        let (g, s) = (rows_of(&v["givens"]), rows_of(&v["solution"]));
        for (r, c) in [(0, 3), (0, 5), (2, 4), (4, 2)] {
            assert_eq!((g[r][c], s[r][c]), (-1, -1), "row {r}, column {c}");
        }
        assert_eq!(s.iter().flatten().filter(|&&x| x == -1).count(), 10);
        check_board_path(&g, &s, false);
        assert_eq!(v["minimal"], true);
    }
    // The text form marks blocked cells X and solves back.
    let text = stdout_of(&[
        "numbrix", "generate", "--mask", m, "--seed", "2", "--format", "text",
    ]);
    let givens = givens_of(&text);
    assert!(givens.contains('X'));
    let solved = stdout_of_input(&["numbrix", "solve"], &givens);
    assert!(solved.starts_with("1 solution (unique)"), "{solved}");
    // A named shape, with king moves, says its name.
    let out = stdout_of(&[
        "numbrix", "generate", "--shape", "heart", "--moves", "king", "--seed", "3",
    ]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["shape"].as_str(), v["moves"].as_str()),
        (Some("heart"), Some("king"))
    );
    check_board_path(&rows_of(&v["givens"]), &rows_of(&v["solution"]), true);
}

#[test]
fn boards_without_a_path_and_bad_masks_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let gen = |extra: &[&str], needle: &str| {
        let mut args = vec!["numbrix", "generate"];
        args.extend_from_slice(extra);
        fails_with(&args, None, needle);
    };
    // A mask file is read while the command line is parsed: its errors come in the
    // command line's form (the first line says it all, exit status 2).
    let bad_value = |extra: &[&str], needle: &str| {
        let mut args = vec!["numbrix", "generate"];
        args.extend_from_slice(extra);
        let out = common::bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.lines().next().unwrap().contains(needle), "{err}");
        assert!(out.stdout.is_empty());
    };
    gen(&["--shape", "diamond"], "25 dark and 16 light");
    gen(
        &["--shape", "blob"],
        "corners, cross, frame, diamond or heart",
    );
    let out = common::bin()
        .args(["numbrix", "generate", "--moves", "rook"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.lines()
            .next()
            .unwrap()
            .contains("choose orthogonal or king"),
        "{err}"
    );
    let bad = write("bad.txt", "..#\n.x.\n");
    bad_value(&["--mask", &bad], "line 2, column 2");
    let split = write("split.txt", "..#..\n..#..\n");
    gen(&["--mask", &split], "separate");
    let missing = dir.path().join("none.txt");
    bad_value(&["--mask", missing.to_str().unwrap()], "none.txt");
    let ok = write("ok.txt", "....\n.#..\n....\n..#.\n");
    gen(&["--mask", &ok, "--size", "12"], "the mask is 4x4");
    // Colour counts balance but the exact search finds no path: the solver says so.
    let stuck = write("stuck.txt", "#.#\n...\n#.#\n");
    let out = common::bin()
        .args(["numbrix", "generate", "--mask", &stuck])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("path"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Large grids: a 12x12 puzzle that says `"minimal": true` are minimal, checked clue by
/// clue from outside: with any one clue blanked, `numbrix solve` (a plain count to
/// two, no hint) finds two or more solutions, and the one it prints is a path through
/// the remaining givens, while the puzzle itself has exactly one. (One puzzle: counting
/// to two on a sparse 12x12 grid can take millions of nodes.)
#[test]
fn minimal_12x12_puzzles_lose_uniqueness_without_any_clue() {
    let out = stdout_of(&[
        "numbrix", "generate", "--size", "12", "--count", "1", "--seed", "1",
    ]);
    // Each grid, and whether it is a whole puzzle (else one clue is blanked).
    let mut grids = Vec::new();
    let mut whole = Vec::new();
    for line in out.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            r["minimal"], true,
            "seed 1 gives proven-minimal 12x12 puzzles"
        );
        let givens = grid(&r["givens"]);
        grids.push(givens.clone());
        whole.push(true);
        for (ri, row) in givens.iter().enumerate() {
            for (ci, &v) in row.iter().enumerate() {
                if v != 0 {
                    let mut without = givens.clone();
                    without[ri][ci] = 0;
                    grids.push(without);
                    whole.push(false);
                }
            }
        }
    }
    assert_eq!(out.lines().count(), 1);
    let input: Vec<String> = grids.iter().map(|g| as_text(g)).collect();
    let answers = solve_json(&input);
    assert_eq!(answers.len(), grids.len());
    let mut blanked = 0;
    for ((a, g), &whole) in answers.iter().zip(&grids).zip(&whole) {
        check_path(12, 12, g, &grid(&a["solution"]));
        if whole {
            assert_eq!(a["solutions"], 1, "the puzzle is unique");
        } else {
            assert_eq!(a["solutions"], 2, "a clue could go");
            blanked += 1;
        }
    }
    assert!(blanked >= 10, "at least ten clues were checked");
}
