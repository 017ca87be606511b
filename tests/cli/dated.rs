//! Runs for a date (`run --date`): a job's seed and names can draw on the date it runs
//! for, the same date makes the same bytes (at any thread count, and a rerun makes
//! nothing), and another date makes other puzzles.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

const JOB: &str = r#"seed = "date"
out_dir = "out/{year}/{date}"

[[output]]
name = "flip-{date}.jsonl"
kind = "items"
game = "flip"
count = 20
params = { size = "6" }

[[output]]
name = "numbrix-{week}.jsonl"
kind = "items"
game = "numbrix"
count = 2
seed = "date+7"
params = { size = "5" }
"#;

fn run(dir: &Path, args: &[&str]) -> String {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn each_date_makes_its_own_outputs_and_a_rerun_makes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("daily.toml"), JOB).unwrap();
    let mut boards: Vec<Vec<String>> = Vec::new();
    for date in ["2026-11-26", "2026-11-27", "2027-01-01"] {
        let log = run(dir.path(), &["run", "daily.toml", "--date", date]);
        assert!(log.contains(&format!("for {date}")), "{log}");
        assert!(log.contains("done: 2 made, 0 up to date"), "{log}");
        let again = run(
            dir.path(),
            &["run", "daily.toml", "--date", date, "-j", "1"],
        );
        assert!(again.contains("done: 0 made, 2 up to date"), "{again}");
        let folder = dir.path().join("out").join(&date[..4]).join(date);
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("manifest.json")).unwrap())
                .unwrap();
        assert_eq!(manifest["date"], date);
        let seed: u64 = date.replace('-', "").parse().unwrap();
        assert_eq!(manifest["seed"], seed);
        let flip = std::fs::read_to_string(folder.join(format!("flip-{date}.jsonl"))).unwrap();
        let records: Vec<Value> = flip
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 20);
        assert!(records.iter().all(|r| r["seed"] == seed));
        boards.push(records.iter().map(|r| r["start"].to_string()).collect());
        // The week's name: 2027-01-01 is in ISO week 53 of 2026.
        let week = if date == "2027-01-01" {
            "2026-W53"
        } else {
            "2026-W48"
        };
        let numbrix =
            std::fs::read_to_string(folder.join(format!("numbrix-{week}.jsonl"))).unwrap();
        let first: Value = serde_json::from_str(numbrix.lines().next().unwrap()).unwrap();
        assert_eq!(first["seed"], 700_000_000 + seed);
        // The same date at another thread count, into another folder: the same bytes.
        let other = dir.path().join(format!("again-{date}"));
        run(
            dir.path(),
            &[
                "run",
                "daily.toml",
                "--date",
                date,
                "-j",
                "2",
                "--out-dir",
                other.to_str().unwrap(),
            ],
        );
        let same = std::fs::read_to_string(other.join(format!("flip-{date}.jsonl"))).unwrap();
        assert_eq!(same, flip);
    }
    // Different dates, different boards.
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        let shared = boards[a].iter().filter(|x| boards[b].contains(x)).count();
        assert_eq!(shared, 0, "dates {a} and {b} share {shared} boards");
    }
}

#[test]
fn bad_dates_and_placeholders_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let job = dir.path().join("daily.toml");
    std::fs::write(&job, JOB).unwrap();
    let job = job.to_str().unwrap();
    // A date that does not parse is a usage error (status 2), like any flag value.
    for date in ["2026-02-29", "26-11-26", "next-week"] {
        let out = bin().args(["run", job, "--date", date]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{date}: {err}");
        assert!(err.contains("write a calendar date as YYYY-MM-DD"), "{err}");
        assert!(err.starts_with("error: "), "{err}");
    }
    std::fs::write(dir.path().join("typo.toml"), JOB.replace("{week}", "{wek}")).unwrap();
    fails_with(
        &[
            "run",
            dir.path().join("typo.toml").to_str().unwrap(),
            "--date",
            "2026-11-26",
        ],
        None,
        "placeholder {wek} (did you mean 'week'?)",
    );
    std::fs::write(
        dir.path().join("seed.toml"),
        JOB.replace("seed = \"date\"", "seed = \"daily\""),
    )
    .unwrap();
    fails_with(
        &["run", dir.path().join("seed.toml").to_str().unwrap()],
        None,
        "is not a seed: write a whole number >= 0, \"date\" or \"date+N\"",
    );
    assert_eq!(
        files_in(dir.path()),
        vec!["daily.toml", "seed.toml", "typo.toml"]
    );
}

#[test]
fn paths_in_a_job_file_are_relative_to_it_and_out_dir_flags_to_the_caller() {
    let root = tempfile::tempdir().unwrap();
    let jobs = root.path().join("srv/jobs");
    std::fs::create_dir_all(jobs.join("templates")).unwrap();
    std::fs::write(
        jobs.join("templates/small.toml"),
        "title = \"Small\"\nseed = 3\n[[section]]\ngame = \"flip\"\ncount = 2\nparams = { size = 4 }\n",
    )
    .unwrap();
    std::fs::write(
        jobs.join("nightly.toml"),
        "seed = \"date\"\nout_dir = \"made/{date}\"\n[[output]]\nname = \"b.pdf\"\nkind = \"book\"\ntemplate = \"templates/small.toml\"\n",
    )
    .unwrap();
    // Run from another folder (as cron does, from $HOME).
    let elsewhere = root.path().join("home");
    std::fs::create_dir(&elsewhere).unwrap();
    let job = jobs.join("nightly.toml");
    run(
        &elsewhere,
        &["run", job.to_str().unwrap(), "--date", "2026-11-26"],
    );
    assert!(jobs.join("made/2026-11-26/b.pdf").exists());
    assert!(
        files_in(&elsewhere).is_empty(),
        "nothing is written where it ran"
    );
    // --out-dir is the caller's path.
    run(
        &elsewhere,
        &[
            "run",
            job.to_str().unwrap(),
            "--date",
            "2026-11-26",
            "--out-dir",
            "mine",
        ],
    );
    assert!(elsewhere.join("mine/b.pdf").exists());
    // The same job run from its own folder by a relative name makes the same bytes:
    // the template's spelling in the job file, not where it was found, is part of
    // the book.
    run(
        &jobs,
        &[
            "run",
            "nightly.toml",
            "--date",
            "2026-11-26",
            "--out-dir",
            "here",
        ],
    );
    assert_eq!(
        std::fs::read(jobs.join("here/b.pdf")).unwrap(),
        std::fs::read(elsewhere.join("mine/b.pdf")).unwrap()
    );
    let entries = |m: &Path| -> Value {
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(m).unwrap()).unwrap();
        for e in v["outputs"].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("seconds");
        }
        v["outputs"].clone()
    };
    assert_eq!(
        entries(&jobs.join("here/manifest.json")),
        entries(&elsewhere.join("mine/manifest.json"))
    );
    // Without out_dir the default output/<job name> is beside the job file too.
    std::fs::write(
        jobs.join("plain.toml"),
        "[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n",
    )
    .unwrap();
    run(
        &elsewhere,
        &["run", jobs.join("plain.toml").to_str().unwrap()],
    );
    assert!(jobs.join("output/plain/f.jsonl").exists());
}
