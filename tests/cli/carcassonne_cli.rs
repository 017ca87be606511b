//! Carcassonne through the real binary: the published cases (from tests/cases, copied
//! unchanged from the published test cases), JSON Lines with bad lines among good ones, generated
//! landscapes scored back, and bad input.

use crate::common::*;
use serde_json::Value;

fn cases() -> String {
    std::fs::read_to_string(root().join("tests/cases/carcassonne_public.jsonl")).unwrap()
}

#[test]
fn published_cases_through_score() {
    let out = bin()
        .args(["carcassonne", "score", "--format", "jsonl"])
        .write_stdin(cases())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "two cases are invalid");
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7, "every line answered, the bad ones too");
    let scores: Vec<Option<u64>> = lines.iter().map(|l| l["score"].as_u64()).collect();
    assert_eq!(
        scores,
        [Some(32), Some(33), None, Some(2), None, Some(106), Some(39)]
    );
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("row 3, column 2"));
    assert!(lines[4]["error"]
        .as_str()
        .unwrap()
        .contains("south edge is a road (1)"));
}

#[test]
fn one_landscape_text_with_breakdown() {
    let first = cases().lines().next().unwrap().to_string();
    let v: Value = serde_json::from_str(&first).unwrap();
    let out = bin()
        .args(["carcassonne", "score", "--breakdown"])
        .write_stdin(v["landscape"].to_string())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "32: 1 c. city (4), 1 i. city (6), 6 i. roads (10), 2 i. monasteries (12)\n"
    );
}

#[test]
fn farms_are_an_option_off_by_default() {
    // Two city caps facing each other: one complete city; the grass around it is split
    // by the city into two farms, each touching that complete city (3 points each).
    let two = "[[[0,0,2,0,1]],[[2,0,0,0,1]]]";
    let score = |extra: &[&str]| {
        let mut args = vec!["carcassonne", "score", "--breakdown"];
        args.extend_from_slice(extra);
        let out = bin().args(&args).write_stdin(two).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(score(&[]), "4: 1 c. city (4)\n");
    assert_eq!(score(&["--farms"]), "10: 1 c. city (4), 2 farms (6)\n");
    let json: Value =
        serde_json::from_str(score(&["--farms", "--format", "jsonl"]).trim()).unwrap();
    assert_eq!(json["score"], 10);
    assert_eq!(json["breakdown"]["farms"]["count"], 2);
    assert_eq!(json["breakdown"]["farms"]["points"], 6);
    let plain: Value = serde_json::from_str(score(&["--format", "jsonl"]).trim()).unwrap();
    assert!(plain["breakdown"].get("farms").is_none(), "{plain}");
}

#[test]
fn shields_come_as_a_list_beside_the_landscape() {
    let input = concat!(
        r#"{"landscape": [[[0,0,2,0,1]],[[2,0,0,0,1]]], "shields": [[1, 0]]}"#,
        "\n",
        r#"{"landscape": [[[0,1,0,1,0]]], "shields": [[0, 0]]}"#,
        "\n"
    );
    let out = bin()
        .args(["carcassonne", "score", "--breakdown"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("6: 1 c. city (4), 1 shield (2)"));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("line 2") && err.contains("no single city"),
        "{err}"
    );
}

#[test]
fn generated_landscapes_score_back_the_same() {
    let out = stdout_of(&[
        "carcassonne",
        "generate",
        "--tiles",
        "72",
        "--count",
        "50",
        "--seed",
        "3",
    ]);
    let rescored = bin()
        .args(["carcassonne", "score", "--format", "jsonl"])
        .write_stdin(out.clone())
        .output()
        .unwrap();
    assert!(rescored.status.success());
    for (rec, back) in out
        .lines()
        .zip(String::from_utf8(rescored.stdout).unwrap().lines())
    {
        let (r, b): (Value, Value) = (
            serde_json::from_str(rec).unwrap(),
            serde_json::from_str(back).unwrap(),
        );
        assert_eq!(r["game"], "carcassonne");
        assert_eq!(r["score"], b["score"]);
        assert!(r["tiles"].as_u64().unwrap() <= 72);
        assert!(r["breakdown"]["complete_cities"]["points"].is_u64());
    }
    let a = stdout_of(&[
        "carcassonne",
        "generate",
        "--count",
        "30",
        "--seed",
        "8",
        "-j",
        "1",
    ]);
    let b = stdout_of(&[
        "carcassonne",
        "generate",
        "--count",
        "30",
        "--seed",
        "8",
        "-j",
        "2",
    ]);
    assert_eq!(a, b);
}

#[test]
fn bad_input_is_one_clear_error() {
    let cases = [
        ("[[", "malformed JSON"),
        ("[[[1,0,1,0,3]]]", "city count is 3"),
        ("[[[1,0,5,0,0]]]", "the south edge is 5"),
        ("[[[1,0,1,0]]]", "this one has 4"),
        ("[[[1,0,1,0,0]],[[1,0,1,0,0],[]]]", "ragged landscape: row 2 has 2 squares but row 1 has 1"),
        ("[[[],[]]]", "no tile"),
        ("[]", "no rows"),
        ("[[[1,1,0,0,1]]]", "not one of the 19 tiles"),
        ("[[[1,0,1,0,0],[0,2,0,2,1]]]", "row 1, column 1 ([0][0]) east edge is a field (0) but row 1, column 2 ([0][1]) west edge is a city (2)"),
    ];
    for (input, needle) in cases {
        fails_with(&["carcassonne", "score"], Some(input), needle);
    }
    fails_with(
        &["carcassonne", "generate", "--tiles", "0"],
        None,
        "1 to 72",
    );
    fails_with(
        &["carcassonne", "generate", "--tiles", "73"],
        None,
        "1 to 72",
    );
    fails_with(
        &["carcassonne", "score", "/no/such/file"],
        None,
        "cannot read",
    );
}

#[test]
fn help_shows_examples() {
    for cmd in ["score", "generate"] {
        assert!(stdout_of(&["carcassonne", cmd, "--help"]).contains("Example:"));
    }
}

#[test]
fn stats_csv_has_every_landscape_once_per_measure() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.csv");
    stdout_of(&[
        "carcassonne",
        "stats",
        "--samples",
        "500",
        "--tiles",
        "5,30",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "seed,tiles,samples,measure,value,landscapes"
    );
    let mut sums = std::collections::BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        *sums
            .entry((f[1].to_string(), f[3].to_string()))
            .or_insert(0u64) += f[5].parse::<u64>().unwrap();
    }
    assert_eq!(sums.len(), 2 * 8);
    assert!(sums.values().all(|&n| n == 500), "{sums:?}");
    fails_with(
        &["carcassonne", "stats", "--samples", "0"],
        None,
        "--samples is 0",
    );
    fails_with(
        &["carcassonne", "stats", "--samples", "5", "--tiles", "5,99"],
        None,
        "1 to 72",
    );
}

#[test]
fn the_book_template_builds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.pdf");
    let res = bin()
        .args([
            "book",
            "--template",
            template("carcassonne.toml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let doc = lopdf::Document::load(&out).unwrap();
    assert_eq!(doc.get_pages().len(), 40);
}

#[test]
fn stats_refuse_a_size_listed_twice() {
    // `--tiles 10,10` used to write every row of size 10 twice.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.csv");
    fails_with(
        &[
            "carcassonne",
            "stats",
            "--samples",
            "5",
            "--tiles",
            "10,20,10",
            "--out",
            out.to_str().unwrap(),
        ],
        None,
        "--tiles lists 10 more than once",
    );
    assert!(!out.exists());
    // The same check in a job file.
    let job = dir.path().join("job.toml");
    std::fs::write(
        &job,
        "seed = 1\n\n[[output]]\nname = \"c.csv\"\nkind = \"carcassonne-stats\"\nsamples = 5\ntiles = [5, 5]\n",
    )
    .unwrap();
    let res = bin()
        .args(["run", job.to_str().unwrap()])
        .args(["--out-dir", dir.path().to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(1), "{err}");
    assert!(err.contains("tiles lists 5 more than once"), "{err}");
    // A long bad size is cut in the message.
    let long = "7".repeat(5000);
    let res = bin()
        .args(["carcassonne", "stats", "--samples", "5", "--tiles", &long])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    // Sizes are numbers parsed with the flag (a usage error, exit 2, like every other
    // number flag), and the echoed value is cut.
    let err = String::from_utf8_lossy(&res.stderr);
    assert_eq!(res.status.code(), Some(2), "{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.len() < 200 && first.contains("5000 characters"),
        "{err}"
    );
    assert!(first.contains("--tiles"), "{err}");
}

#[test]
fn score_refuses_unknown_record_keys_by_name() {
    // A misspelt key was read past: these shields were silently not scored.
    let rec = r#"{"landscape": [[[0,0,2,0,1]],[[2,0,0,0,1]]], "sheilds": [[1, 0]]}"#;
    fails_with(
        &["carcassonne", "score"],
        Some(rec),
        "unknown key \"sheilds\"",
    );
    // In JSON Lines each record is judged alone: the good ones still score.
    let good = r#"{"landscape": [[[0,0,2,0,1]],[[2,0,0,0,1]]], "shields": [[1, 0]]}"#;
    let res = bin()
        .args(["carcassonne", "score", "--format", "jsonl"])
        .write_stdin(format!("{good}\n{rec}\n"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(1));
    let out = String::from_utf8(res.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], r#"{"score":6}"#);
    assert!(
        lines[1].contains("line 2") && lines[1].contains("unknown key \\\"sheilds\\\""),
        "{out}"
    );
}

#[test]
fn solution_pictures_show_the_points_of_every_feature() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("svg");
    let o = bin()
        .args([
            "carcassonne",
            "generate",
            "--count",
            "6",
            "--format",
            "svg",
            "--out-dir",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for i in 0..6 {
        let puzzle = std::fs::read_to_string(out.join(format!("carcassonne-{i}.svg"))).unwrap();
        let solution =
            std::fs::read_to_string(out.join(format!("carcassonne-{i}-solution.svg"))).unwrap();
        assert_ne!(
            puzzle, solution,
            "item {i}: the solution picture is the puzzle"
        );
        // Every feature's points: one white disc each, none on the puzzle.
        let discs = |s: &str| s.matches("fill=\"#ffffff\"").count();
        assert!(discs(&solution) > discs(&puzzle), "item {i}");
    }
}
