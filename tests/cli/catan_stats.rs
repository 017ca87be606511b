//! `catan stats`: the distributions of the balance measures over uniform boards, run
//! through the real binary. Shards merge into the whole run's bytes; the thread count
//! changes nothing; the histograms agree with boards made by `catan generate` and
//! measured by `catan balance` (and the resource pips with a count of our own, from
//! the records' tokens); the exact samplers agree with the exact expected pips; and
//! what is not allowed is refused in one line.

use crate::common;
use crate::common::{bin, fails_with};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Run the binary in `dir`; stdout, asserting success.
fn run_in(dir: &Path, args: &[&str]) -> String {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The CSV as (measure, value) -> count, checking its header and that each measure's
/// fractions and cumulative shares fit its counts.
fn histograms(path: &Path) -> BTreeMap<(String, String), u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("measure,value,count,fraction,cumulative")
    );
    let mut h = BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), 5, "{l}");
        h.insert((f[0].to_string(), f[1].to_string()), f[2].parse().unwrap());
    }
    h
}

/// Boards per measure in a histogram.
fn boards_of(h: &BTreeMap<(String, String), u64>, measure: &str) -> u64 {
    h.iter()
        .filter(|((m, _), _)| m == measure)
        .map(|(_, c)| c)
        .sum()
}

/// Mean and variance of an integer measure, from the CSV's counts.
fn moments(h: &BTreeMap<(String, String), u64>, measure: &str) -> (f64, f64) {
    let (mut n, mut s1, mut s2) = (0f64, 0f64, 0f64);
    for ((m, v), &c) in h {
        if m == measure {
            let v: f64 = v.parse().unwrap();
            n += c as f64;
            s1 += v * c as f64;
            s2 += v * v * c as f64;
        }
    }
    let mean = s1 / n;
    (mean, s2 / n - mean * mean)
}

const RESOURCES: [&str; 5] = ["wheat", "wood", "sheep", "clay", "rock"];

/// Pips of a token, by hand: the ways to roll it with two dice.
fn pips(token: u64) -> u64 {
    [0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1][token as usize]
}

#[test]
fn shards_merge_into_the_whole_run_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let common = ["catan", "stats", "--samples", "30001", "--seed", "4"];
    let whole = run_in(
        d,
        &[
            &common[..],
            &["--out", "whole.csv", "--report", "whole.pdf"],
        ]
        .concat(),
    );
    for k in 0..3 {
        let shard = format!("{k}/3");
        let part = format!("p{k}");
        run_in(
            d,
            &[&common[..], &["--shard", &shard, "--out", &part]].concat(),
        );
    }
    // The parts in any order.
    let merged = run_in(
        d,
        &[
            "merge",
            "--out",
            "merged.csv",
            "--report",
            "merged.pdf",
            "p2",
            "p0",
            "p1",
        ],
    );
    assert_eq!(merged, whole, "the tables differ");
    assert!(whole.contains("30,001 boards, base board, rules red-apart, sampler direct, seed 4"));
    for (a, b) in [("whole.csv", "merged.csv"), ("whole.pdf", "merged.pdf")] {
        assert_eq!(
            std::fs::read(d.join(a)).unwrap(),
            std::fs::read(d.join(b)).unwrap(),
            "{a} and {b} differ"
        );
    }
    let h = histograms(&d.join("whole.csv"));
    for m in [
        "wheat_pips",
        "corner_pips_min",
        "largest_cluster",
        "harbor_own_resource",
        "score",
    ] {
        assert_eq!(boards_of(&h, m), 30001, "{m}");
    }
    // The report: two A4 pages.
    let pdf = lopdf::Document::load(d.join("whole.pdf")).unwrap();
    assert_eq!(pdf.get_pages().len(), 2);
}

#[test]
fn one_thread_or_two_give_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = |j: &'static str, out: &'static str| {
        vec![
            "-j",
            j,
            "catan",
            "stats",
            "--samples",
            "40000",
            "--seed",
            "11",
            "--board",
            "extended",
            "--out",
            out,
        ]
    };
    let t1 = run_in(d, &args("1", "j1.csv"));
    let t2 = run_in(d, &args("2", "j2.csv"));
    assert_eq!(t1, t2);
    assert_eq!(
        std::fs::read(d.join("j1.csv")).unwrap(),
        std::fs::read(d.join("j2.csv")).unwrap()
    );
}

/// The histograms count exactly the boards `catan generate` makes with the same seed,
/// sampler and rules: the measures recounted from `catan balance`'s lines, and the
/// resource pips also from the records' own tokens. Every board's resource pips add
/// up to the pips of all its tokens (58 on the base board; 88 on the extended one:
/// two each of 2 and 12, three each of the other eight values).
#[test]
fn histograms_match_generated_boards_measured_one_by_one() {
    for (board, sampler, rules, count, seed, total) in [
        ("base", "direct", "red-apart", 400, 9, 58),
        (
            "base",
            "full-rejection",
            "red-apart,2-12-apart",
            300,
            10,
            58,
        ),
        ("extended", "direct", "red-apart", 200, 12, 88),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let n = count.to_string();
        let s = seed.to_string();
        let common = [
            "--board",
            board,
            "--sampler",
            sampler,
            "--rules",
            rules,
            "--seed",
            &s,
        ];
        let records = run_in(
            d,
            &[&["catan", "generate", "--count", &n], &common[..]].concat(),
        );
        run_in(
            d,
            &[
                &["catan", "stats", "--samples", &n, "--out", "s.csv"],
                &common[..],
            ]
            .concat(),
        );
        let got = histograms(&d.join("s.csv"));

        // Our own count of the resource pips, from the tokens of each record.
        let mut want: BTreeMap<(String, String), u64> = BTreeMap::new();
        let mut add = |m: &str, v: String| *want.entry((m.to_string(), v)).or_default() += 1;
        for line in records.lines() {
            let r: Value = serde_json::from_str(line).unwrap();
            let mut per = [0u64; 5];
            for hex in r["hexes"].as_array().unwrap() {
                if let Some(t) = hex["token"].as_u64() {
                    let terrain = hex["terrain"].as_str().unwrap();
                    let k = RESOURCES.iter().position(|&x| x == terrain).unwrap();
                    per[k] += pips(t);
                }
            }
            assert_eq!(per.iter().sum::<u64>(), total, "{board}: {line}");
            for (k, p) in per.iter().enumerate() {
                add(&format!("{}_pips", RESOURCES[k]), p.to_string());
            }
        }
        // The other measures, from `catan balance`.
        let out = bin()
            .current_dir(d)
            .args(["catan", "balance"])
            .write_stdin(records.clone())
            .output()
            .unwrap();
        assert!(out.status.success());
        let lines = String::from_utf8(out.stdout).unwrap();
        assert_eq!(lines.lines().count(), count);
        for line in lines.lines() {
            let b: Value = serde_json::from_str(line).unwrap();
            for m in [
                "corner_pips_min",
                "corner_pips_max",
                "largest_cluster",
                "harbor_own_resource",
            ] {
                add(m, b[m].as_u64().unwrap().to_string());
            }
            // The score's exact text, parsed by the standard library; its 0.05 bin,
            // named by its lower edge in hundredths.
            let text = line
                .split("\"score\":")
                .nth(1)
                .unwrap()
                .trim_end_matches('}');
            let score: f64 = text.parse().unwrap();
            let hundredths = (score * 20.0).floor() as u64 * 5;
            add(
                "score",
                format!("{}.{:02}", hundredths / 100, hundredths % 100),
            );
        }
        // The CSV lists every value between each measure's extremes, seen or not.
        let seen: BTreeMap<_, _> = got.into_iter().filter(|(_, c)| *c > 0).collect();
        assert_eq!(seen, want, "{board} {sampler} {rules}");
    }
}

/// Under uniform boards every non-desert hex carries 58/18 pips on average (the
/// terrains are exchangeable among them), so a resource with h hexes averages
/// 58 h / 18 pips: wheat, wood and sheep 4 hexes, clay and rock 3. Both exact samplers
/// must agree with that (|z| < 5 for each resource: a false alarm about 3e-6), and with
/// each other on every measure.
#[test]
fn exact_samplers_give_the_expected_pips_and_agree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n = 60_000f64;
    let mut runs = Vec::new();
    for (sampler, seed) in [("direct", "21"), ("full-rejection", "22")] {
        let out = format!("{sampler}.csv");
        let table = run_in(
            d,
            &[
                "catan",
                "stats",
                "--samples",
                "60000",
                "--sampler",
                sampler,
                "--seed",
                seed,
                "--out",
                &out,
            ],
        );
        assert!(table.contains(&format!("sampler {sampler}")), "{table}");
        runs.push(histograms(&d.join(out)));
    }
    for h in &runs {
        for (r, hexes) in RESOURCES.iter().zip([4.0, 4.0, 4.0, 3.0, 3.0]) {
            let (mean, var) = moments(h, &format!("{r}_pips"));
            let expected = 58.0 * hexes / 18.0;
            let z = (mean - expected) / (var / n).sqrt();
            assert!(
                z.abs() < 5.0,
                "{r}: mean {mean}, expected {expected}, z {z}"
            );
        }
    }
    for m in [
        "wheat_pips",
        "clay_pips",
        "corner_pips_min",
        "corner_pips_max",
        "largest_cluster",
        "harbor_own_resource",
    ] {
        let (a, va) = moments(&runs[0], m);
        let (b, vb) = moments(&runs[1], m);
        let z = (a - b) / ((va + vb) / n).sqrt();
        assert!(z.abs() < 5.0, "{m}: direct {a}, full-rejection {b}, z {z}");
    }
}

#[test]
fn full_rejection_is_used_where_direct_does_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args([
            "catan",
            "stats",
            "--samples",
            "200",
            "--board",
            "extended",
            "--rules",
            "red-apart,2-12-apart",
            "--out",
            "s.csv",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("full-rejection (exact; direct does not apply"),
        "{err}"
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("sampler full-rejection"), "{table}");
}

#[test]
fn refusals_are_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.csv");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["--samples", "10", "--sampler", "token-rejection"],
            "--sampler token-rejection does not draw valid boards uniformly",
        ),
        (
            vec!["--samples", "10", "--sampler", "swap"],
            "--sampler swap does not draw",
        ),
        (
            vec!["--samples", "10", "--sampler", "best"],
            "unknown sampler",
        ),
        (vec!["--samples", "0"], "--samples is 0"),
        (
            vec!["--samples", "1000000000000000000"],
            "--samples is 1000000000000000000",
        ),
        (
            vec!["--samples", "10", "--rules", "max-pips-per-corner=3"],
            "cannot be met by any board",
        ),
        (
            vec!["--samples", "10", "--shard", "0/2", "--report", "r.pdf"],
            "give them to `puzzlebook merge`",
        ),
    ] {
        let all = [&["catan", "stats", "--out", out][..], &args[..]].concat();
        fails_with(&all, None, needle);
        assert!(common::files_in(dir.path()).is_empty(), "{all:?}");
    }
}

/// `kind = "catan-stats"` in a job file: whole, and as two shards merged by `run
/// --merge`, the same CSV and report as the command line's whole run.
#[test]
fn job_files_make_the_same_files_whole_or_sharded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_in(
        d,
        &[
            "catan",
            "stats",
            "--samples",
            "5000",
            "--seed",
            "3",
            "--rules",
            "none",
            "--out",
            "cli.csv",
            "--report",
            "cli.pdf",
        ],
    );
    for (out_dir, shards) in [("whole", 0), ("sharded", 2)] {
        let job = format!(
            "seed = 3\nout_dir = \"{out_dir}\"\n\n[[output]]\nname = \"s.csv\"\nkind = \"catan-stats\"\nsamples = 5000\nrules = \"none\"\nreport = \"s.pdf\"\n"
        );
        let path = d.join(format!("{out_dir}.toml"));
        std::fs::write(&path, job).unwrap();
        let path = path.to_str().unwrap();
        if shards == 0 {
            run_in(d, &["run", path]);
        } else {
            for k in 0..shards {
                run_in(d, &["run", path, "--shard", &format!("{k}/{shards}")]);
            }
            run_in(d, &["run", path, "--merge"]);
        }
        for (a, b) in [("cli.csv", "s.csv"), ("cli.pdf", "s.pdf")] {
            assert_eq!(
                std::fs::read(d.join(a)).unwrap(),
                std::fs::read(d.join(out_dir).join(b)).unwrap(),
                "{out_dir}: {b}"
            );
        }
    }
}
