//! The real binary: every command, its output formats, and every bad-input error
//! (one clear line on stderr, status 1; usage errors status 2; no partial files).

use crate::common::*;
use serde_json::Value;

const SPEC_EXAMPLE: &str = "-----\n-ooo- 1\n-o-o- 2\n-ooo- 3\n-----\n abc\n";

#[test]
fn flip_generate_jsonl_records() {
    let out = stdout_of(&[
        "flip", "generate", "--size", "5", "--count", "5", "--seed", "1",
    ]);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    for (i, r) in lines.iter().enumerate() {
        assert_eq!(r["game"], "flip");
        assert_eq!(r["index"], i);
        assert_eq!(r["seed"], 1);
        assert_eq!(r["size"], 5);
        let start = r["start"].as_array().unwrap();
        assert_eq!(start.len(), 7);
        assert!(start.iter().all(|row| row.as_str().unwrap().len() == 7));
        assert_eq!(
            r["min_moves"].as_u64().unwrap() as usize,
            r["solution"].as_array().unwrap().len()
        );
    }
    // Field order of the formats spec.
    let first = out.lines().next().unwrap();
    let keys = [
        "\"game\"",
        "\"index\"",
        "\"seed\"",
        "\"size\"",
        "\"start\"",
        "\"min_moves\"",
        "\"solution\"",
    ];
    let pos: Vec<usize> = keys.iter().map(|k| first.find(k).unwrap()).collect();
    assert!(pos.windows(2).all(|w| w[0] < w[1]), "{first}");
}

#[test]
fn generated_boards_solve_back_through_flip_solve() {
    let out = stdout_of(&[
        "flip", "generate", "--size", "6", "--count", "4", "--seed", "3", "--format", "text",
    ]);
    let boards: Vec<&str> = out.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    assert_eq!(boards.len(), 4);
    for b in boards {
        let (header, board) = b.split_once('\n').unwrap();
        let claimed: usize = header
            .split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let solved = bin()
            .args(["flip", "solve", "-"])
            .write_stdin(board)
            .output()
            .unwrap();
        assert!(solved.status.success());
        let text = String::from_utf8(solved.stdout).unwrap();
        assert!(
            text.starts_with(&format!("{claimed} move")),
            "{header} vs {text}"
        );
    }
}

#[test]
fn flip_solve_the_spec_example() {
    let out = bin()
        .args(["flip", "solve"])
        .write_stdin(SPEC_EXAMPLE)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "1 move: b2\n");
    let out = bin()
        .args(["flip", "solve", "--format", "json"])
        .write_stdin(SPEC_EXAMPLE)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["solvable"], true);
    assert_eq!(v["min_moves"], 1);
    assert_eq!(v["solution"][0], "b2");
}

#[test]
fn flip_solve_reads_files_and_several_boards() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("boards.txt");
    std::fs::write(
        &path,
        format!("{SPEC_EXAMPLE}\n-----\n----- 1\n--o-- 2\n----- 3\n-----\n"),
    )
    .unwrap();
    let out = stdout_of(&["flip", "solve", path.to_str().unwrap()]);
    assert_eq!(out, "1 move: b2\n0 moves: already solved\n");
}

#[test]
fn flip_solve_unsolvable_board_says_why() {
    let board = "-----\n-o--- 1\n----- 2\n--o-- 3\n-----\n";
    let out = bin()
        .args(["flip", "solve"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("cannot be solved: row 2"), "{text}");
    assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
}

#[test]
fn flip_solve_malformed_boards() {
    fails_with(&["flip", "solve"], Some("-----\n-oxo- 1\n-----\n"), "'x'");
    fails_with(
        &["flip", "solve"],
        Some("-----\n-ooo-- 1\n-o-o- 2\n-ooo- 3\n-----\n"),
        "rectangular",
    );
    fails_with(&["flip", "solve"], Some("---\n-o-\n---\n"), "needs 4");
    fails_with(&["flip", "solve"], Some("\n\n"), "no board");
    fails_with(
        &["flip", "solve", "/no/such/board.txt"],
        None,
        "/no/such/board.txt",
    );
    fails_with(
        &["flip", "solve"],
        Some(&SPEC_EXAMPLE.replace(" 2", " 7")),
        "should be 2",
    );
}

#[test]
fn flip_analyze_shows_the_two_claims() {
    let out = stdout_of(&["flip", "analyze", "--size", "5"]);
    assert!(out.contains("rank of the move map:         25"), "{out}");
    assert!(out.contains("independent invariants:       24"), "{out}");
    assert!(out.contains("reachable from the target: 1 of 49"), "{out}");
    for i in 2..=12 {
        let out = stdout_of(&[
            "flip",
            "analyze",
            "--size",
            &i.to_string(),
            "--format",
            "json",
        ]);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["rank"], i * i);
        assert_eq!(v["invariants"], 4 * i + 4);
        assert_eq!(v["single_dot_reachable"], 1);
    }
}

#[test]
fn flip_plus_shape_and_compat() {
    let out = stdout_of(&[
        "flip", "generate", "--size", "4", "--shape", "plus", "--count", "3",
    ]);
    for l in out.lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["shape"], "plus");
        assert_eq!(v["start"].as_array().unwrap().len(), 4);
    }
    let out = stdout_of(&["flip", "generate", "--size", "3", "--compat", "one-dot"]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["compat"], "one-dot");
    assert_eq!(v["solution"], serde_json::json!(["a2", "c2", "a3"]));
}

#[test]
fn bad_sizes_and_counts() {
    fails_with(&["flip", "generate", "--size", "0"], None, "2 to 52");
    fails_with(&["flip", "generate", "--size", "1"], None, "2 to 52");
    fails_with(
        &["flip", "generate", "--size", "5", "--count", "0"],
        None,
        "--count is 0",
    );
    fails_with(&["flip", "analyze", "--size", "1"], None, "2 to 52");
    fails_with(
        &[
            "flip", "generate", "--size", "3", "--shape", "plus", "--compat", "one-dot",
        ],
        None,
        "one-dot",
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["flip", "generate"],
        vec!["flip", "generate", "--size", "five"],
        vec!["flip", "generate", "--size", "5", "--format", "xml"],
        vec!["flip", "generate", "--size", "5", "--shard", "3/2"],
        vec!["nonsense"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// Clap echoes a bad value in its message; a huge one is cut to an excerpt so it cannot
/// flood the terminal (still a usage error, status 2).
#[test]
fn a_huge_bad_value_gives_a_short_usage_error() {
    let huge = "9".repeat(100_000);
    for args in [
        vec!["flip", "generate", "--size", huge.as_str()],
        vec!["numbrix", "generate", "--count", huge.as_str()],
        vec!["flip", huge.as_str()],
    ] {
        let out = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.len() < 1000, "{} bytes", err.len());
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains("(100000 characters)"), "{err}");
    }
}

#[test]
fn help_shows_an_example_for_every_command() {
    for args in [
        vec!["book", "--help"],
        vec!["flip", "generate", "--help"],
        vec!["flip", "solve", "--help"],
        vec!["flip", "analyze", "--help"],
    ] {
        let out = stdout_of(&args);
        assert!(
            out.contains("Example:") || out.contains("Examples:"),
            "{args:?}"
        );
    }
}

#[test]
fn generate_out_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flip.jsonl");
    let out = bin()
        .args([
            "flip",
            "generate",
            "--size",
            "4",
            "--count",
            "50",
            "--out",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 50);
    assert_eq!(files_in(dir.path()), vec!["flip.jsonl"]);
}

#[test]
fn book_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let out_s = out.to_str().unwrap();
    // Missing template.
    fails_with(
        &[
            "book",
            "--template",
            "/no/such/template.toml",
            "--out",
            out_s,
        ],
        None,
        "/no/such/template.toml",
    );
    // Unknown key.
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "title = \"T\"\ncolour = \"red\"\n[[section]]\ngame = \"flip\"\ncount = 1\n",
    )
    .unwrap();
    fails_with(
        &["book", "--template", bad.to_str().unwrap(), "--out", out_s],
        None,
        "colour",
    );
    // Unknown game parameter.
    std::fs::write(
        &bad,
        "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 1\nparams = { sise = 5 }\n",
    )
    .unwrap();
    fails_with(
        &["book", "--template", bad.to_str().unwrap(), "--out", out_s],
        None,
        "sise",
    );
    // Zero puzzles.
    std::fs::write(
        &bad,
        "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 0\n",
    )
    .unwrap();
    fails_with(
        &["book", "--template", bad.to_str().unwrap(), "--out", out_s],
        None,
        "count is 0",
    );
    // A bad size in a later section: nothing is written.
    std::fs::write(
        &bad,
        "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 2\n[[section]]\ngame = \"flip\"\ncount = 1\nparams = { size = 1 }\n",
    )
    .unwrap();
    fails_with(
        &["book", "--template", bad.to_str().unwrap(), "--out", out_s],
        None,
        "section 2",
    );
    // Unknown game.
    std::fs::write(
        &bad,
        "title = \"T\"\n[[section]]\ngame = \"chess\"\ncount = 1\n",
    )
    .unwrap();
    fails_with(
        &["book", "--template", bad.to_str().unwrap(), "--out", out_s],
        None,
        "unknown game 'chess'",
    );
    assert_eq!(files_in(dir.path()), vec!["bad.toml"], "no partial output");
}

#[test]
fn unwritable_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing").join("book.pdf");
    fails_with(
        &["book", "--out", missing.to_str().unwrap()],
        None,
        "does not exist",
    );
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("book.pdf");
    fails_with(
        &["book", "--out", under_file.to_str().unwrap()],
        None,
        "a-file",
    );
    let jsonl = dir.path().join("missing").join("x.jsonl");
    fails_with(
        &[
            "flip",
            "generate",
            "--size",
            "4",
            "--out",
            jsonl.to_str().unwrap(),
        ],
        None,
        "does not exist",
    );
    assert_eq!(files_in(dir.path()), vec!["a-file"]);
}

#[test]
fn book_default_run_writes_the_pdf() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let res = bin()
        .current_dir(root())
        .args(["book", "--out", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let err = String::from_utf8(res.stderr).unwrap();
    assert!(err.contains("pages") && err.contains("items"), "{err}");
    assert!(std::fs::read(&out).unwrap().starts_with(b"%PDF-"));
}
