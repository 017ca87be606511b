//! Number Match through the real binary: records per the formats spec with solutions
//! that replay (under a small rules check written here), the exact and Monte Carlo
//! solvers, the statistics CSV, determinism, and bad input.

use crate::common::*;
use serde_json::Value;

/// Replay a record's solution with the rules written out plainly.
fn replay(board: &str, cols: usize, moves: &[Value]) -> usize {
    let mut b: Vec<u8> = board.bytes().map(|c| c - b'0').collect();
    let mut adds = 0;
    for m in moves {
        if m == "add" {
            adds += 1;
            while b.last() == Some(&0) {
                b.pop();
            }
            let digits: Vec<u8> = b.iter().copied().filter(|&x| x != 0).collect();
            b.extend(digits);
            continue;
        }
        let (i, j) = (
            m[0].as_u64().unwrap() as usize,
            m[1].as_u64().unwrap() as usize,
        );
        assert!(i < j && b[i] != 0 && b[j] != 0);
        assert!(b[i] == b[j] || b[i] + b[j] == 10, "{m}: {} {}", b[i], b[j]);
        let between_empty = b[i + 1..j].iter().all(|&x| x == 0);
        let (ri, ci, rj, cj) = (i / cols, i % cols, j / cols, j % cols);
        let line = (ci == cj || rj - ri == ci.abs_diff(cj)) && rj > ri;
        let line_empty = line && {
            let steps = rj - ri;
            (1..steps).all(|s| {
                let c = if cj > ci {
                    ci + s
                } else if cj < ci {
                    ci - s
                } else {
                    ci
                };
                b[(ri + s) * cols + c] == 0
            })
        };
        assert!(between_empty || line_empty, "{m} do not see each other");
        b[i] = 0;
        b[j] = 0;
        let rows: Vec<Vec<u8>> = b
            .chunks(cols)
            .filter(|r| r.iter().any(|&x| x != 0))
            .map(|r| r.to_vec())
            .collect();
        b = rows.concat();
    }
    assert!(b.iter().all(|&x| x == 0), "the board is not cleared");
    adds
}

#[test]
fn generate_records_follow_the_spec_and_replay() {
    let out = stdout_of(&[
        "number-match",
        "generate",
        "--count",
        "30",
        "--adds",
        "1",
        "--seed",
        "5",
    ]);
    for (i, line) in out.lines().enumerate() {
        let r: Value = serde_json::from_str(line).unwrap();
        assert_eq!(r["game"], "number_match");
        assert_eq!(r["index"], i as u64);
        assert_eq!(r["seed"], 5);
        assert_eq!(r["columns"], 9);
        assert_eq!(r["adds"], 1);
        assert_eq!(r["append"], "after-last-digit");
        assert_eq!(r["solvable"], true);
        let board = r["board"].as_str().unwrap();
        assert_eq!(board.len(), 27);
        let used = replay(board, 9, r["solution"].as_array().unwrap());
        assert_eq!(used as u64, r["min_adds"].as_u64().unwrap());
        assert!(["easy", "medium", "hard"].contains(&r["difficulty"].as_str().unwrap()));
    }
    assert_eq!(out.lines().count(), 30);
}

#[test]
fn solve_exact_and_monte_carlo() {
    let board = "271828182845904523536028747".replace('0', "5");
    let exact = stdout_of(&[
        "number-match",
        "solve",
        &board,
        "--adds",
        "1",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&exact).unwrap();
    assert_eq!(r["solvable"], true);
    assert_eq!(r["min_adds"], 1);
    replay(&board, 9, r["solution"].as_array().unwrap());
    let mc = stdout_of(&[
        "number-match",
        "solve",
        &board,
        "--adds",
        "4",
        "--solver",
        "monte-carlo",
        "--format",
        "json",
    ]);
    let r: Value = serde_json::from_str(&mc).unwrap();
    assert_eq!(r["solvable"], true);
    replay(&board, 9, r["solution"].as_array().unwrap());
    // 27 digits always leave an odd class: no add, no clearing; said as a proof.
    let text = stdout_of(&["number-match", "solve", &board, "--adds", "0"]);
    assert!(text.starts_with("UNSOLVABLE"), "{text}");
}

#[test]
fn stats_csv_counts_every_board() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let path = out.to_str().unwrap();
    let args = [
        "number-match",
        "stats",
        "--samples",
        "300",
        "--max-adds",
        "2",
        "--out",
        path,
    ];
    stdout_of(&args);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        &header[..7],
        [
            "seed",
            "length",
            "columns",
            "append",
            "diagonals",
            "adds",
            "boards"
        ]
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), 3);
    let col = |r: &Vec<String>, name: &str| -> u64 {
        r[header.iter().position(|h| *h == name).unwrap()]
            .parse()
            .unwrap()
    };
    let mut min_total = 0;
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(col(r, "adds"), k as u64);
        assert_eq!(
            col(r, "clearable") + col(r, "unsolvable") + col(r, "unknown"),
            300
        );
        min_total += col(r, "min_adds_exactly");
    }
    // No board clears without an add; min_adds counts never exceed the clearable ones.
    assert_eq!(col(&rows[0], "clearable"), 0);
    assert!(min_total <= col(&rows[2], "clearable"));
    // Without --timings the CSV is reproducible, and shards merge back into it byte
    // for byte.
    let part = |k: &str| {
        let f = dir.path().join(format!("p{k}.part"));
        stdout_of(&[
            "number-match",
            "stats",
            "--samples",
            "300",
            "--max-adds",
            "2",
            "--shard",
            &format!("{k}/2"),
            "--out",
            f.to_str().unwrap(),
        ]);
        f.to_str().unwrap().to_string()
    };
    let (a, b) = (part("0"), part("1"));
    let merged = dir.path().join("merged.csv");
    stdout_of(&["merge", "--out", merged.to_str().unwrap(), &b, &a]);
    assert_eq!(std::fs::read_to_string(merged).unwrap(), text);
    assert!(header.contains(&"nodes_p50") && header.contains(&"time_p50_us"));
    assert!(
        rows.iter()
            .all(|r| r[header.iter().position(|h| *h == "time_p50_us").unwrap()].is_empty()),
        "times only with --timings"
    );
}

#[test]
fn same_seed_same_bytes_at_any_thread_count() {
    let args = [
        "number-match",
        "generate",
        "--count",
        "40",
        "--adds",
        "2",
        "--seed",
        "9",
        "-q",
    ];
    assert_eq!(
        stdout_of(&[&args[..], &["-j", "1"]].concat()),
        stdout_of(&[&args[..], &["-j", "2"]].concat())
    );
}

#[test]
fn bad_input_is_one_clear_error() {
    fails_with(&["number-match", "solve", "12a4"], None, "digits 1-9");
    fails_with(&["number-match", "solve", "..."], None, "no digits");
    // Zero budgets are named by their flag.
    let board = "119134781718851455261718224";
    fails_with(
        &["number-match", "solve", board, "--max-nodes", "0"],
        None,
        "--max-nodes is 0",
    );
    fails_with(
        &["number-match", "solve", board, "--trials", "0"],
        None,
        "--trials is 0",
    );
    fails_with(
        &["number-match", "solve", "1234", "--adds", "50"],
        None,
        "at most 8",
    );
    fails_with(
        &["number-match", "solve", "1234", "--columns", "0"],
        None,
        "--columns is 0",
    );
    fails_with(
        &["number-match", "generate", "--columns", "0"],
        None,
        "--columns is 0",
    );
    fails_with(
        &["number-match", "generate", "--length", "0"],
        None,
        "--length is 0",
    );
    // new-row's blank cells could push a board past what a move addresses:
    // 256 * 2^8 + 8 * 63 = 66,040 cells.
    fails_with(
        &[
            "number-match",
            "generate",
            "--length",
            "256",
            "--adds",
            "8",
            "--columns",
            "64",
            "--append",
            "new-row",
        ],
        None,
        "can grow to 66040 cells",
    );
    let long = "5".repeat(256);
    fails_with(
        &[
            "number-match",
            "solve",
            &long,
            "--adds",
            "8",
            "--columns",
            "64",
            "--append",
            "new-row",
        ],
        None,
        "the board has 256 cells: with append = new-row, 8 adds and 64 columns",
    );
    fails_with(
        &["number-match", "generate", "--count", "0"],
        None,
        "--count is 0",
    );
    fails_with(
        &["number-match", "stats", "--samples", "0"],
        None,
        "--samples is 0",
    );
    let out = bin()
        .args(["number-match", "solve", "123", "--append", "sideways"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_shows_examples() {
    for cmd in ["generate", "solve", "stats"] {
        assert!(stdout_of(&["number-match", cmd, "--help"]).contains("Example"));
    }
}

/// Run the binary with a time limit (a hang is killed and fails the caller's checks).
fn run_for(args: &[&str], secs: u64) -> std::process::Output {
    bin()
        .args(args)
        .timeout(std::time::Duration::from_secs(secs))
        .output()
        .unwrap()
}

/// Status 1 within the time limit, one `error:` line containing every needle, and no
/// line longer than `max_len` (nothing long the user typed is echoed back).
fn refused(args: &[&str], needles: &[&str], max_len: usize) {
    let out = run_for(args, 60);
    let err = String::from_utf8_lossy(&out.stderr);
    let shown: Vec<String> = args.iter().map(|a| a.chars().take(40).collect()).collect();
    assert_eq!(out.status.code(), Some(1), "{shown:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{shown:?}: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{shown:?}: {err} should mention {n}");
    }
    assert!(
        err.len() <= max_len,
        "{shown:?}: an error of {} bytes",
        err.len()
    );
    assert!(out.stdout.is_empty());
}

/// `n` random digits 1-9 (a fixed sequence).
fn digits(n: usize, seed: u64) -> String {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (b'1' + ((x >> 33) % 9) as u8) as char
        })
        .collect()
}

#[test]
fn boards_longer_than_the_bound_are_refused_before_any_work() {
    // These panicked (a fixed 512-slot array in the solver, `capacity overflow`) or
    // tried to allocate 10 GB.
    let long = digits(513, 1);
    refused(
        &["number-match", "solve", &long, "--adds", "1"],
        &["513 cells", "at most 256"],
        200,
    );
    // (One argument holds at most 128 KiB on Linux.)
    let huge = digits(100_000, 2);
    refused(
        &["number-match", "solve", &huge],
        &["100000 cells", "at most 256"],
        200,
    );
    for length in ["18446744073709551615", "10000000000", "257"] {
        let needle = format!("--length is {length}");
        refused(
            &[
                "number-match",
                "stats",
                "--samples",
                "1",
                "--length",
                length,
                "--out",
                "/dev/null",
            ],
            &[&needle, "at most 256"],
            400,
        );
        refused(
            &["number-match", "generate", "--length", length],
            &[&needle, "at most 256"],
            400,
        );
    }
}

#[test]
fn long_boards_with_eight_adds_run_without_panicking() {
    // `stats --length 200 --max-adds 8 --no-diagonals` panicked as soon as a searched
    // board passed 512 digits; a 256-digit board (the bound) solves or says unknown.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let res = run_for(
        &[
            "number-match",
            "stats",
            "--samples",
            "2",
            "--length",
            "200",
            "--max-adds",
            "8",
            "--no-diagonals",
            "--max-nodes",
            "2000",
            "--out",
            out.to_str().unwrap(),
        ],
        120,
    );
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 10);
    let board = digits(256, 3);
    for extra in [
        &["--columns", "9"][..],
        &["--columns", "64", "--no-diagonals"],
    ] {
        let res = run_for(
            &[
                &[
                    "number-match",
                    "solve",
                    &board,
                    "--adds",
                    "8",
                    "--max-nodes",
                    "5000",
                ][..],
                extra,
            ]
            .concat(),
            120,
        );
        let err = String::from_utf8_lossy(&res.stderr);
        assert!(
            res.status.success() || err.contains("not decided within --max-nodes"),
            "{err}"
        );
    }
}

#[test]
fn zero_is_not_an_empty_cell() {
    // `0` used to be read as an empty cell without a word.
    refused(
        &["number-match", "solve", "1230456"],
        &["character 4 is '0'", "digits are 1-9", "."],
        200,
    );
    // `.` is the empty cell.
    let out = stdout_of(&["number-match", "solve", "55.55", "--adds", "0"]);
    assert!(out.starts_with("solvable"), "{out}");
}

#[test]
fn job_files_and_templates_check_the_length_too() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("job.toml");
    std::fs::write(
        &job,
        "seed = 1\n\n[[output]]\nname = \"s.csv\"\nkind = \"number-match-stats\"\nsamples = 1\nlength = 100000\n",
    )
    .unwrap();
    let out = run_for(
        &[
            "run",
            job.to_str().unwrap(),
            "--out-dir",
            dir.path().to_str().unwrap(),
        ],
        60,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("length is 100000") && err.contains("at most 256"),
        "{err}"
    );
    let template = dir.path().join("t.toml");
    std::fs::write(
        &template,
        "title = \"t\"\n\n[[section]]\ngame = \"number_match\"\ncount = 1\nparams = { length = 300 }\n",
    )
    .unwrap();
    let out = run_for(
        &[
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            dir.path().join("t.pdf").to_str().unwrap(),
        ],
        60,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("length is 300") && err.contains("at most 256"),
        "{err}"
    );
}

#[test]
fn ctrl_c_stops_a_long_solve_at_once() {
    // This board takes minutes to go through the default 200,000,000 nodes; the
    // search used to go on after Ctrl-C until then.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .args([
            "number-match",
            "solve",
            "1234567891234",
            "--columns",
            "64",
            "--adds",
            "3",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(child.try_wait().unwrap().is_none(), "still searching");
    // The shell's built-in kill: no procps needed.
    std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    let asked = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if asked.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let took = asked.elapsed();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{err}");
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(out.stdout.is_empty(), "no verdict is printed");
}
