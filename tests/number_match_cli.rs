//! Number Match through the real binary: records per the formats spec with solutions
//! that replay (under a small rules check written here), the exact and Monte Carlo
//! solvers, the statistics CSV, determinism, and bad input.

mod common;
use common::*;
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
        assert!(stdout_of(&["number-match", cmd, "--help"]).contains("Example:"));
    }
}
