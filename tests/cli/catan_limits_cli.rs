//! Impossible and hopeless Catan rule sets, and bias sample counts, through the real
//! binary: refused at once with one line naming the rule, the sampler or the flag,
//! in `catan generate`, `catan bias`, books and job files. Every run has a timeout, so
//! a binary that would run on forever fails the test instead of hanging it.

use crate::common::*;
use std::time::{Duration, Instant};

/// Status 1 within `secs` seconds, one line on stderr that contains every needle.
fn refused_within(secs: u64, args: &[&str], needles: &[&str]) {
    let started = Instant::now();
    let out = bin()
        .args(args)
        .timeout(Duration::from_secs(secs))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} after {:?}: {err}",
        started.elapsed()
    );
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {err} should mention {n}");
    }
}

#[test]
fn rules_no_board_meets_are_refused_by_generate_and_bias() {
    for (board, rules) in [
        ("base", "max-pips-per-corner=5"),
        ("base", "red-apart,max-pips-per-corner=8"),
        ("extended", "max-pips-per-corner=8"),
    ] {
        let want = format!("rules {rules}: no {board} board meets them (exhaustive search)");
        for sampler in ["full-rejection", "token-rejection", "swap", "sequential"] {
            refused_within(
                5,
                &[
                    "catan",
                    "generate",
                    "--board",
                    board,
                    "--rules",
                    rules,
                    "--sampler",
                    sampler,
                ],
                &[&want],
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b.csv");
        refused_within(
            5,
            &[
                "catan",
                "bias",
                "--samples",
                "1000",
                "--board",
                board,
                "--rules",
                rules,
                "--out",
                out.to_str().unwrap(),
            ],
            &[&want],
        );
        assert_eq!(files_in(dir.path()), Vec::<String>::new());
    }
}

#[test]
fn books_and_job_files_refuse_them_too() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    std::fs::write(
        &t,
        r#"
title = "Impossible"
seed = 5
[[section]]
game = "catan"
count = 2
params = { board = "base", rules = "max-pips-per-corner=5" }
"#,
    )
    .unwrap();
    let pdf = dir.path().join("book.pdf");
    refused_within(
        5,
        &[
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            pdf.to_str().unwrap(),
        ],
        &["rules max-pips-per-corner=5: no base board meets them"],
    );
    for output in [
        "name = \"c.jsonl\"\nkind = \"items\"\ngame = \"catan\"\ncount = 2\nparams = { rules = \"max-pips-per-corner=6\" }",
        "name = \"b.csv\"\nkind = \"catan-bias\"\nsamples = 1000\nrules = \"max-pips-per-corner=6\"",
    ] {
        let out_dir = dir.path().join("out");
        let job = dir.path().join("job.toml");
        std::fs::write(
            &job,
            format!("out_dir = \"{}\"\n[[output]]\n{output}\n", out_dir.display()),
        )
        .unwrap();
        let started = Instant::now();
        let out = bin()
            .args(["run", job.to_str().unwrap()])
            .timeout(Duration::from_secs(5))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{output}: {err}");
        assert!(out.status.code().is_some(), "{output}: timed out after {:?}", started.elapsed());
        assert!(
            err.contains("rules max-pips-per-corner=6: no base board meets them"),
            "{output}: {err}"
        );
    }
}

#[test]
fn hopeless_samplers_are_refused_at_set_up() {
    // token-rejection is trapped by coastal deserts under a corner limit of 9: decided
    // by the exhaustive search at once. (Before, it drew until its cap, for every item.)
    refused_within(
        5,
        &[
            "catan",
            "generate",
            "--rules",
            "max-pips-per-corner=9",
            "--sampler",
            "token-rejection",
        ],
        &[
            "sampler token-rejection cannot draw boards meeting rules max-pips-per-corner=9 on the base board",
            "with the desert on hex",
        ],
    );
    // Full-rejection finds no board in a whole board's cap: refused after the pilot.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.csv");
    refused_within(
        60,
        &[
            "catan",
            "bias",
            "--samples",
            "1000",
            "--samplers",
            "full-rejection",
            "--rules",
            "red-apart,max-pips-per-corner=9",
            "--out",
            out.to_str().unwrap(),
        ],
        &[
            "sampler full-rejection cannot draw boards meeting rules red-apart,max-pips-per-corner=9 on the base board",
            "loosen the rules",
        ],
    );
}

#[test]
fn bias_sample_counts_beyond_the_limit_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.csv");
    let o = out.to_str().unwrap();
    refused_within(
        10,
        &[
            "catan",
            "bias",
            "--samples",
            "1000000000000001",
            "--samplers",
            "direct",
            "--out",
            o,
        ],
        &["--samples is 1000000000000001: at most 1000000000000000"],
    );
    refused_within(
        10,
        &[
            "catan",
            "bias",
            "--samples",
            "10000000000000000000",
            "--out",
            o,
        ],
        &["--samples is 10000000000000000000"],
    );
    refused_within(
        10,
        &[
            "catan",
            "bias",
            "--samples",
            "1000",
            "--rules",
            "same-number-apart",
            "--reference-samples",
            "18446744073709551615",
            "--out",
            o,
        ],
        &["--reference-samples is 18446744073709551615"],
    );
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[test]
fn bias_memory_does_not_grow_with_the_sample_count() {
    // With 600 MB of address space, 10^13 samples used to abort (a list of 150
    // million chunk indices came first); now counting starts and runs on.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b.csv");
    let bin = assert_cmd::cargo::cargo_bin("puzzlebook");
    let script = format!(
        "ulimit -v 600000; exec {} -q catan bias --samples 10000000000000 --samplers direct --out {}",
        bin.display(),
        out.display()
    );
    let mut child = std::process::Command::new("bash")
        .args(["-c", &script])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    let status = child.try_wait().unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        status.is_none(),
        "the run ended early: {status:?}, stderr: {}",
        {
            let mut s = String::new();
            use std::io::Read;
            let _ = child.stderr.take().unwrap().read_to_string(&mut s);
            s
        }
    );
}

#[test]
fn fixed_hexes_that_alone_break_a_rule_are_named_not_searched_for() {
    // Hexes 1, 2 and 3 are the top row: three rock side by side.
    refused_within(
        10,
        &[
            "catan",
            "generate",
            "--count",
            "1",
            "--fix",
            "1=rock:2,2=rock:12,3=rock:3",
            "--rules",
            "max-cluster=2",
        ],
        &[
            "the fixed hexes 1, 2 and 3",
            "rock side by side",
            "max-cluster=2",
        ],
    );
}
