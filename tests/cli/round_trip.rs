//! The real binary, piped into itself: every solve or score command reads what its
//! game's `generate` writes, in each format (text with its `#` headers and printed
//! solutions, JSON Lines), from a pipe and from a file, and answers each item as the
//! generator's record says it should.

use crate::common::*;
use serde_json::Value;

/// `generate` (JSON Lines and text) for `gen`, each fed to `solve` (its args) by a
/// pipe and by a file; returns the generator's records and, per way of feeding, the
/// solver's JSON answers.
fn round_trip(gen: &[&str], solve: &[&str]) -> (Vec<Value>, Vec<(String, Vec<Value>)>) {
    let records: Vec<Value> = stdout_of(gen)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(records.len() >= 2, "{gen:?}");
    let dir = tempfile::tempdir().unwrap();
    let mut answers = Vec::new();
    for format in ["jsonl", "text"] {
        let mut args = gen.to_vec();
        args.extend(["--format", format]);
        let generated = stdout_of(&args);
        if format == "text" {
            assert!(generated.starts_with("# "), "a header: {generated}");
        }
        let file = dir.path().join(format!("items.{format}"));
        std::fs::write(&file, &generated).unwrap();
        let mut by_pipe = solve.to_vec();
        by_pipe.extend(["--format", "json"]);
        let mut by_file = by_pipe.clone();
        by_file.push(file.to_str().unwrap());
        for (way, args, stdin) in [("pipe", by_pipe, Some(&generated)), ("file", by_file, None)] {
            let mut cmd = bin();
            cmd.args(&args);
            if let Some(text) = stdin {
                cmd.write_stdin(text.as_str());
            }
            let out = cmd.output().unwrap();
            assert!(
                out.status.success(),
                "{format} by {way}: {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got: Vec<Value> = String::from_utf8(out.stdout)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(
                got.len(),
                records.len(),
                "{format} by {way}: one answer an item"
            );
            answers.push((format!("{format} by {way}"), got));
        }
    }
    (records, answers)
}

#[test]
fn flip_solve_reads_generate_output() {
    for (gen, solve) in [
        (
            vec![
                "flip", "generate", "--size", "5", "--count", "4", "--seed", "3",
            ],
            vec!["flip", "solve"],
        ),
        (
            vec!["flip", "generate", "--size", "3x5", "--count", "3"],
            vec!["flip", "solve"],
        ),
        // A plus board's text does not say its shape: the flag does.
        (
            vec![
                "flip", "generate", "--size", "4", "--shape", "plus", "--count", "4",
            ],
            vec!["flip", "solve", "--shape", "plus"],
        ),
    ] {
        let (records, answers) = round_trip(&gen, &solve);
        for (way, got) in answers {
            for (r, a) in records.iter().zip(&got) {
                assert_eq!(a["solvable"], true, "{way}");
                assert_eq!(a["min_moves"], r["min_moves"], "{way}: {r}");
                assert_eq!(a["solution"], r["solution"], "{way}: {r}");
            }
        }
    }
}

#[test]
fn a_flip_record_says_its_shape() {
    let plus = stdout_of(&["flip", "generate", "--size", "3", "--shape", "plus"]);
    // Without the flag the record's shape is used ...
    let out = bin()
        .args(["flip", "solve", "--format", "json"])
        .write_stdin(plus.as_str())
        .output()
        .unwrap();
    assert!(out.status.success());
    let record: Value = serde_json::from_str(&plus).unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["min_moves"], record["min_moves"]);
    // ... and a flag that says otherwise is refused, naming both.
    fails_with(
        &["flip", "solve", "--shape", "block"],
        Some(&plus),
        "the record says shape plus, but --shape block was given",
    );
    // A record of another game is named as such.
    let grid = stdout_of(&["numbrix", "generate", "--size", "4"]);
    fails_with(
        &["flip", "solve"],
        Some(&grid),
        "a record of \"numbrix\", not of flip",
    );
}

#[test]
fn numbrix_solve_reads_generate_output() {
    for (gen, solve) in [
        (
            vec![
                "numbrix", "generate", "--size", "6", "--count", "3", "--seed", "4",
            ],
            vec!["numbrix", "solve"],
        ),
        (
            vec![
                "numbrix", "generate", "--size", "7", "--shape", "frame", "--count", "2",
            ],
            vec!["numbrix", "solve"],
        ),
        // Hidato text does not say its moves: the flag does (the record does itself).
        (
            vec![
                "numbrix", "generate", "--size", "5", "--moves", "king", "--count", "3",
            ],
            vec!["numbrix", "solve", "--moves", "king"],
        ),
    ] {
        let (records, answers) = round_trip(&gen, &solve);
        for (way, got) in answers {
            for (r, a) in records.iter().zip(&got) {
                assert_eq!(a["solutions"], 1, "{way}: {a}");
                assert_eq!(a["solution"], r["solution"], "{way}");
            }
        }
    }
    // A Hidato record needs no flag.
    let king = stdout_of(&["numbrix", "generate", "--size", "5", "--moves", "king"]);
    let out = bin()
        .args(["numbrix", "solve", "--format", "json"])
        .write_stdin(king.as_str())
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let record: Value = serde_json::from_str(&king).unwrap();
    assert_eq!(answer["solution"], record["solution"]);
}

#[test]
fn number_match_solve_reads_generate_output() {
    for gen in [
        vec![
            "number-match",
            "generate",
            "--count",
            "3",
            "--seed",
            "6",
            "--adds",
            "1",
        ],
        vec![
            "number-match",
            "generate",
            "--count",
            "2",
            "--columns",
            "7",
            "--length",
            "21",
            "--no-diagonals",
            "--append",
            "after-last-cell",
        ],
    ] {
        // The header of the variant's text says its columns, append rule and
        // diagonals, as its record does.
        let text_rules = vec!["number-match", "solve"];
        let (records, answers) = round_trip(&gen, &text_rules);
        for (way, got) in answers {
            for (r, a) in records.iter().zip(&got) {
                assert_eq!(a["board"], r["board"], "{way}");
                assert_eq!(a["columns"], r["columns"], "{way}");
                assert_eq!(a["solvable"], true, "{way}");
                assert_eq!(a["min_adds"], r["min_adds"], "{way}: {a}");
            }
        }
    }
    // With no board argument the boards come from standard input, record by record.
    let records = stdout_of(&["number-match", "generate", "--count", "2", "--seed", "9"]);
    let out = bin()
        .args(["number-match", "solve"])
        .write_stdin(records.as_str())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("solvable with").count(), 2, "{text}");
    // One board on the command line still works.
    let one = stdout_of(&[
        "number-match",
        "solve",
        "1919",
        "--columns",
        "2",
        "--adds",
        "0",
    ]);
    assert!(one.starts_with("solvable with 0 add(s)"), "{one}");
}

#[test]
fn carcassonne_score_reads_generate_output() {
    // The record (its breakdown) and the text header say farms were scored.
    for (gen, score) in [
        (
            vec!["carcassonne", "generate", "--count", "3", "--seed", "2"],
            vec!["carcassonne", "score"],
        ),
        (
            vec!["carcassonne", "generate", "--count", "2", "--farms"],
            vec!["carcassonne", "score"],
        ),
    ] {
        let (records, answers) = round_trip(&gen, &score);
        for (way, got) in answers {
            for (r, a) in records.iter().zip(&got) {
                assert_eq!(a["score"], r["score"], "{way}");
            }
        }
    }
    let farms = stdout_of(&["carcassonne", "generate", "--farms", "--seed", "5"]);
    let record: Value = serde_json::from_str(&farms).unwrap();
    let out = bin()
        .args(["carcassonne", "score", "--format", "jsonl"])
        .write_stdin(farms.as_str())
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["score"], record["score"]);
}

#[test]
fn a_flag_must_agree_with_what_the_generator_stated() {
    // A record or header that leaves a setting out states its default.
    for (gen, solve, says) in [
        (
            vec!["flip", "generate", "--size", "4"],
            vec!["flip", "solve", "--shape", "plus"],
            "says shape block, but --shape plus was given",
        ),
        (
            vec!["numbrix", "generate", "--size", "4"],
            vec!["numbrix", "solve", "--moves", "king"],
            "says moves orthogonal, but --moves king was given",
        ),
        (
            vec!["number-match", "generate", "--length", "18"],
            vec!["number-match", "solve", "--no-diagonals"],
            "says no_diagonals false, but --no-diagonals true was given",
        ),
        (
            vec![
                "number-match",
                "generate",
                "--length",
                "18",
                "--columns",
                "6",
            ],
            vec!["number-match", "solve", "--columns", "9"],
            "says columns 6, but --columns 9 was given",
        ),
    ] {
        for format in ["jsonl", "text"] {
            let mut args = gen.clone();
            args.extend(["--format", format]);
            let items = stdout_of(&args);
            let origin = if format == "text" {
                "the header"
            } else {
                "the record"
            };
            fails_with(&solve, Some(&items), &format!("{origin} {says}"));
        }
    }
    // A text item of another game is named by its header.
    let text = stdout_of(&["numbrix", "generate", "--size", "4", "--format", "text"]);
    // (The puzzle's block, without the solution printed under it.)
    let grid = text.split("\n\n").next().unwrap();
    fails_with(
        &["flip", "solve"],
        Some(grid),
        "the header says it is an item of numbrix, not of flip",
    );
    let record = r#"{"game":"flip","landscape":[[[2,1,1,0,1]]]}"#;
    fails_with(
        &["carcassonne", "score"],
        Some(record),
        "a record of \"flip\", not of carcassonne",
    );
}

#[test]
fn json_answers_keep_one_line_an_item_and_odd_input_is_read() {
    // A refused record among several is an error line in its place.
    let mut records = stdout_of(&["flip", "generate", "--size", "4", "--count", "2"]);
    records.insert_str(0, "{\"game\":\"flip\",\"start\":[\"x\"]}\n");
    let out = bin()
        .args(["flip", "solve", "--format", "json"])
        .write_stdin(records.as_str())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0]["error"]
        .as_str()
        .unwrap()
        .contains("board 1 (line 1)"));
    assert_eq!(lines[1]["solvable"], true);
    // A byte order mark (a file saved by Notepad) and CRLF line ends are read.
    let board = "\u{feff}-----\r\n-ooo-\r\n-o-o-\r\n-ooo-\r\n-----\r\n";
    let out = bin()
        .args(["flip", "solve"])
        .write_stdin(board)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A record written over several lines (pretty-printed) is one item.
    let record = stdout_of(&["numbrix", "generate", "--size", "4"]);
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<Value>(&record).unwrap()).unwrap();
    let out = bin()
        .args(["numbrix", "solve", "--format", "json"])
        .write_stdin(format!("{pretty}\n\n{pretty}\n"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
    // The same boards give the same answer bytes (no clock in them).
    let boards = stdout_of(&[
        "number-match",
        "generate",
        "--count",
        "3",
        "--format",
        "text",
    ]);
    let answer = |_| {
        let out = bin()
            .args(["number-match", "solve"])
            .write_stdin(boards.as_str())
            .output()
            .unwrap();
        out.stdout
    };
    assert_eq!(answer(1), answer(2));
}

#[test]
fn a_record_whose_size_disagrees_with_its_board_is_refused() {
    let record = stdout_of(&["flip", "generate", "--size", "4"]);
    let wrong = record.replace("\"size\":4", "\"size\":5");
    fails_with(
        &["flip", "solve"],
        Some(&wrong),
        "the record says 5 x 5, but its start board's move centres are 4 x 4",
    );
    let record = stdout_of(&["numbrix", "generate", "--size", "4"]);
    let wrong = record.replace("\"rows\":4", "\"rows\":6");
    fails_with(
        &["numbrix", "solve"],
        Some(&wrong),
        "the record says 6 x 4, but its givens are 4 x 4",
    );
}
