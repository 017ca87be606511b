//! `catan generate` and `catan bias` through the real binary.

use crate::common::*;
use serde_json::Value;
use std::collections::BTreeMap;

fn fails(args: &[&str], needle: &str) {
    let out = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

/// A second, plain check of a record: the multisets and the red rule by coordinates.
fn check_board(r: &Value) {
    let hexes = r["hexes"].as_array().unwrap();
    assert_eq!(hexes.len(), 19);
    let mut terrain = BTreeMap::new();
    let mut tokens = BTreeMap::new();
    for h in hexes {
        *terrain
            .entry(h["terrain"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
        if let Some(t) = h["token"].as_u64() {
            *tokens.entry(t).or_insert(0) += 1;
        } else {
            assert_eq!(h["terrain"], "desert");
        }
    }
    let want_t: BTreeMap<String, i32> = [
        ("wheat", 4),
        ("wood", 4),
        ("sheep", 4),
        ("clay", 3),
        ("rock", 3),
        ("desert", 1),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), *v))
    .collect();
    assert_eq!(terrain, want_t);
    let want_k: BTreeMap<u64, i32> = [
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 2),
        (6, 2),
        (8, 2),
        (9, 2),
        (10, 2),
        (11, 2),
        (12, 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(tokens, want_k);
    let red: Vec<(i64, i64)> = hexes
        .iter()
        .filter(|h| matches!(h["token"].as_u64(), Some(6) | Some(8)))
        .map(|h| (h["x"].as_i64().unwrap(), h["y"].as_i64().unwrap()))
        .collect();
    for a in &red {
        for b in &red {
            let d = (b.0 - a.0, b.1 - a.1);
            assert!(
                ![(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)].contains(&d),
                "adjacent reds {a:?} {b:?}"
            );
        }
    }
    let mut kinds: Vec<&str> = r["harbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_str().unwrap())
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        ["3:1", "3:1", "3:1", "3:1", "clay", "rock", "sheep", "wheat", "wood"]
    );
}

#[test]
fn generate_records_follow_the_format_and_the_rules() {
    for sampler in [
        "full-rejection",
        "token-rejection",
        "swap",
        "sequential",
        "direct",
    ] {
        let out = stdout_of(&[
            "catan",
            "generate",
            "--count",
            "300",
            "--seed",
            "4",
            "--sampler",
            sampler,
        ]);
        for (i, line) in out.lines().enumerate() {
            let r: Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["game"], "catan");
            assert_eq!(r["index"], i);
            assert_eq!(r["sampler"], sampler);
            assert_eq!(r["hexes"][0]["n"], 1);
            assert_eq!(
                (r["hexes"][18]["x"].as_i64(), r["hexes"][18]["y"].as_i64()),
                (Some(2), Some(2))
            );
            assert_eq!(
                (r["harbors"][0]["x"].as_i64(), r["harbors"][0]["y"].as_i64()),
                (Some(-1), Some(-1))
            );
            check_board(&r);
        }
    }
}

#[test]
fn ascii_format() {
    let out = stdout_of(&["catan", "generate", "--seed", "1", "--format", "ascii"]);
    // The header carries the board's caption, in the words a book prints.
    assert!(out.starts_with("# catan item 0 (seed 1): For 3–4 players. No 6 or 8 next to another."));
    assert_eq!(out.matches("?3:1").count(), 4);
    assert!(out.contains("+-") || out.contains("+"));
}

#[test]
fn bias_writes_both_csvs_and_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bias.csv");
    let pdf = dir.path().join("bias.pdf");
    let out = bin()
        .args([
            "catan",
            "bias",
            "--samples",
            "20000",
            "--seed",
            "3",
            "--out",
            csv.to_str().unwrap(),
            "--report",
            pdf.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "seed,board,rules,sampler,samples,place,n,x,y,feature,observed,expected,z"
    );
    // Seven samplers x (19 hexes x 17 features + 9 harbors x 6 kinds + the pip totals
    // wheat, wood and sheep can have, 6 to 20, and clay and rock, 4 to 15).
    assert_eq!(lines.count(), 7 * (19 * 17 + 9 * 6 + 3 * 15 + 2 * 12));
    let summary = std::fs::read_to_string(dir.path().join("bias.summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 8);
    assert!(summary.starts_with("seed,board,rules,sampler,samples,attempts,acceptance_rate,exact_acceptance,chi_square,df,p_value,max_abs_z"));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("full-rejection") && stdout.contains("sequential"));
}

#[test]
fn bias_is_the_same_at_any_thread_count_and_deposit() {
    let dir = tempfile::tempdir().unwrap();
    // `plain` forces the plain-code bit deposit used on machines without a fast pdep.
    let run = |name: &str, extra: &[&str], plain: bool| {
        let path = dir.path().join(name);
        let mut args = vec![
            "catan",
            "bias",
            "--samples",
            "30000",
            "--samplers",
            "full-rejection,direct,swap",
            "--out",
            path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let mut cmd = bin();
        if plain {
            cmd.env("PUZZLEBOOK_PLAIN_DEPOSIT", "1");
        }
        cmd.args(&args).assert().success();
        std::fs::read_to_string(path).unwrap()
    };
    let one = run("a.csv", &["-j", "1"], false);
    assert_eq!(one, run("b.csv", &["-j", "2"], false));
    assert_eq!(one, run("c.csv", &["-j", "2"], true));
    // Boards themselves too, for both samplers drawn as sets of places.
    for sampler in ["direct", "full-rejection"] {
        let gen = |plain: bool| {
            let mut cmd = bin();
            if plain {
                cmd.env("PUZZLEBOOK_PLAIN_DEPOSIT", "1");
            }
            let args = ["catan", "generate", "--count", "50", "--sampler", sampler];
            cmd.args(args).output().unwrap().stdout
        };
        let fast = gen(false);
        assert_eq!(fast.iter().filter(|&&b| b == b'\n').count(), 50);
        assert_eq!(fast, gen(true), "{sampler}");
    }
}

#[test]
fn bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    let o = out.to_str().unwrap();
    fails(
        &["catan", "generate", "--sampler", "magic"],
        "unknown sampler 'magic'",
    );
    fails(
        &["catan", "generate", "--rules", "blue-apart"],
        "unknown rule 'blue-apart'",
    );
    fails(
        &["catan", "generate", "--rules", "max-pips-per-corner=4"],
        "cannot be met",
    );
    fails(
        &[
            "catan",
            "generate",
            "--sampler",
            "direct",
            "--board",
            "extended",
            "--rules",
            "2-12-apart",
        ],
        "direct sampler cannot be used",
    );
    fails(
        &["catan", "bias", "--samples", "0", "--out", o],
        "--samples is 0",
    );
    fails(
        &[
            "catan",
            "bias",
            "--samples",
            "10",
            "--samplers",
            "full-rejection,nope",
            "--out",
            o,
        ],
        "unknown sampler 'nope'",
    );
    fails(
        &[
            "catan",
            "bias",
            "--samples",
            "10",
            "--out",
            "/no/such/dir/x.csv",
        ],
        "does not exist",
    );
    fails(
        &[
            "catan",
            "bias",
            "--samples",
            "10",
            "--samplers",
            "direct",
            "--board",
            "extended",
            "--rules",
            "2-12-apart",
            "--out",
            o,
        ],
        "direct sampler",
    );
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

/// Fairness rules and fixed hexes through the binary: every record keeps them,
/// recounted here from its hexes; impossible requests are one line each.
#[test]
fn fairness_rules_and_fixed_hexes() {
    let out = bin()
        .args([
            "catan",
            "generate",
            "--count",
            "60",
            "--seed",
            "4",
            "--rules",
            "red-apart,resource-pips=9-15,number-resource-apart",
            "--fix",
            "19=desert,1=wood:6",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dots = |t: u64| match t {
        2 | 12 => 1,
        3 | 11 => 2,
        4 | 10 => 3,
        5 | 9 => 4,
        6 | 8 => 5,
        _ => panic!("token {t}"),
    };
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 60);
    for line in text.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        check_board(&r);
        assert_eq!(r["fix"], "1=wood:6,19=desert");
        let hexes = r["hexes"].as_array().unwrap();
        assert_eq!(hexes[18]["terrain"], "desert");
        assert_eq!(
            (hexes[0]["terrain"].as_str(), hexes[0]["token"].as_u64()),
            (Some("wood"), Some(6))
        );
        let mut by: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
        for h in hexes {
            if let Some(t) = h["token"].as_u64() {
                by.entry(h["terrain"].as_str().unwrap())
                    .or_default()
                    .push(t);
            }
        }
        assert_eq!(by.len(), 5);
        for (res, mut tokens) in by {
            let sum: u32 = tokens.iter().map(|&t| dots(t)).sum();
            assert!((9..=15).contains(&sum), "{res}: {sum} pips");
            tokens.sort_unstable();
            assert!(tokens.windows(2).all(|w| w[0] != w[1]), "{res}: {tokens:?}");
            assert!(
                !(tokens.contains(&6) && tokens.contains(&8)),
                "{res}: {tokens:?}"
            );
        }
    }
    fails(
        &["catan", "generate", "--fix", "1=desert:6"],
        "--fix has '1=desert:6': the desert has no number token",
    );
    fails(
        &["catan", "generate", "--fix", "1=wood:6,2=clay:8"],
        "the fixed hexes 1 and 2 touch and break red-apart",
    );
    fails(
        &[
            "catan",
            "generate",
            "--fix",
            "19=desert",
            "--sampler",
            "swap",
        ],
        "--fix needs the full-rejection or the counted sampler",
    );
    fails(
        &[
            "catan",
            "generate",
            "--board",
            "extended",
            "--rules",
            "number-resource-apart",
        ],
        "6 red tokens (6s and 8s) and 5 resources",
    );
    fails(
        &["catan", "generate", "--rules", "resource-pips=12-14"],
        "58 pips in all",
    );
    fails(
        &["catan", "generate", "--sampler", "best-of-1"],
        "from 2 to 1000",
    );
}

/// `catan count`: exact counts through the binary, and one-line refusals.
#[test]
fn count_prints_exact_fractions_and_refuses_what_it_cannot_count() {
    let run = stdout_of;
    let text = run(&["catan", "count", "--rules", "red-apart"]);
    assert!(text.contains("7/51"), "{text}");
    assert!(
        text.contains("12,686,420,589,312,142,632,960,000,000"),
        "{text}"
    );
    // Every value stands in one column, two spaces at least after the longest label
    // ("layer-valid boards" ran into its number before).
    let aligned = |text: &str| {
        let starts: Vec<usize> = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| {
                let label_end = l.find("  ").unwrap_or(l.len());
                label_end + l[label_end..].len() - l[label_end..].trim_start().len()
            })
            .collect();
        starts.windows(2).all(|w| w[0] == w[1])
    };
    assert!(aligned(&text), "{text}");
    assert!(text.contains("exact               yes"), "{text}");
    // With a fix and no rule every board agreeing with the fix is valid.
    let text = run(&["catan", "count", "--rules", "none", "--fix", "19=desert"]);
    assert!(text.contains("boards with fixes"), "{text}");
    assert!(text.contains("1/1"), "{text}");
    // Both layers constrained and tied: said to be an estimate.
    let text = run(&[
        "catan",
        "count",
        "--rules",
        "red-apart,max-cluster=1,number-resource-apart",
    ]);
    assert!(text.contains("exact               no"), "{text}");
    assert!(text.contains("layer-valid boards  "), "{text}");
    assert!(aligned(&text), "{text}");
    assert!(text.contains("estimate"), "{text}");
    fails(
        &[
            "catan",
            "count",
            "--rules",
            "red-apart",
            "--board",
            "extended",
        ],
        "base board only",
    );
    fails(
        &["catan", "count", "--rules", "same-number-apart"],
        "cannot be counted exactly",
    );
    fails(&["catan", "count", "--rules", "red-apartt"], "unknown rule");
    fails(&["catan", "count", "--fix", "40=wood"], "fix");
}

/// `catan balance` scores only boards made of the game's pieces: 18 rock hexes, 18
/// sixes or two deserts on the base board are refused with what is wrong, never
/// scored ("1.29", "perfectly even").
#[test]
fn balance_refuses_boards_of_pieces_the_game_does_not_have() {
    let record = stdout_of(&["catan", "generate", "--count", "1", "--seed", "1"]);
    let mut board: serde_json::Value = serde_json::from_str(record.trim()).unwrap();
    let hexes = board["hexes"].as_array().unwrap().clone();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut b = board.clone();
        for h in b["hexes"].as_array_mut().unwrap() {
            f(h);
        }
        serde_json::to_string(&b).unwrap() + "\n"
    };
    let all_rock = edit(&|h| {
        if h["terrain"] != "desert" {
            h["terrain"] = "rock".into();
        }
    });
    let all_six = edit(&|h| {
        if h["terrain"] != "desert" {
            h["token"] = 6.into();
        }
    });
    // A second desert where the first wheat hex was.
    let wheat = hexes.iter().position(|h| h["terrain"] == "wheat").unwrap();
    board["hexes"][wheat]["terrain"] = "desert".into();
    board["hexes"][wheat]["token"] = serde_json::Value::Null;
    let two_deserts = serde_json::to_string(&board).unwrap() + "\n";
    for (input, says) in [
        (
            all_rock,
            "the base board has 4 wheat, 4 wood, 4 sheep, 3 clay, 3 rock hexes; the record 0 wheat, 0 wood, 0 sheep, 0 clay, 18 rock",
        ),
        (
            all_six,
            "the base board has 1 2, 2 3, 2 4, 2 5, 2 6, 2 8, 2 9, 2 10, 2 11, 1 12 number tokens; the record 0 2, 0 3, 0 4, 0 5, 18 6",
        ),
        (
            two_deserts,
            "the base board has 4 wheat, 1 desert hexes; the record 3 wheat, 2 desert",
        ),
    ] {
        let out = bin()
            .args(["catan", "balance"])
            .write_stdin(input)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(out.stdout.is_empty(), "scored: {}", String::from_utf8_lossy(&out.stdout));
        assert!(err.contains(says) && err.contains("line 1"), "{err}");
    }
    // The generated board itself is scored.
    let out = bin()
        .args(["catan", "balance"])
        .write_stdin(record)
        .output()
        .unwrap();
    assert!(out.status.success());
}
