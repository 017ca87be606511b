//! Batch runs through the real binary: job files, shards and their merge (byte for
//! byte against a single run, for every output kind and N = 1, 2, 7), manifests,
//! idempotent re-runs, a killed run resumed, Ctrl-C, logs, and bad input.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A job with every output kind, small enough to run many times.
fn job_text(out_dir: &Path, book_template: &Path) -> String {
    format!(
        r#"
seed = 11
out_dir = "{}"

[[output]]
name = "numbrix.jsonl"
kind = "items"
game = "numbrix"
count = 15
params = {{ size = "5" }}

[[output]]
name = "flip.txt"
kind = "items"
game = "flip"
count = 9
format = "text"
seed = 3
params = {{ size = "4" }}

[[output]]
name = "book.pdf"
kind = "book"
template = "{}"

[[output]]
name = "bias.csv"
kind = "catan-bias"
samples = 20000
samplers = "full-rejection,sequential,direct"
report = "bias.pdf"

[[output]]
name = "carcassonne.csv"
kind = "carcassonne-stats"
samples = 300
tiles = [5, 30]

[[output]]
name = "number-match.csv"
kind = "number-match-stats"
samples = 120
max_adds = 1
"#,
        out_dir.display(),
        book_template.display()
    )
}

fn small_template(dir: &Path) -> PathBuf {
    let t = dir.join("small.toml");
    std::fs::write(
        &t,
        r#"
title = "Small"
seed = 5
[[section]]
game = "flip"
count = 4
per_page = 2
params = { size = 4 }
"#,
    )
    .unwrap();
    t
}

struct Setup {
    dir: tempfile::TempDir,
    job: PathBuf,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(dir.path());
    let job = dir.path().join("job.toml");
    std::fs::write(&job, job_text(&dir.path().join("whole"), &t)).unwrap();
    Setup { dir, job }
}

/// Run the binary; return (status code, stderr).
fn run(args: &[&str]) -> (i32, String) {
    let out = bin().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn ok(args: &[&str]) -> String {
    let (code, err) = run(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    err
}

/// A job file beside `out_dir` with one output (the TOML lines of its table).
fn one_output_job(out_dir: &Path, output: &str) -> PathBuf {
    let job = out_dir.with_extension("toml");
    let text = format!(
        "out_dir = \"{}\"\n[[output]]\n{output}\n",
        out_dir.display()
    );
    std::fs::write(&job, text).unwrap();
    job
}

/// Run every shard K/N of a job into `dir`.
fn shard_all(job: &Path, dir: &Path, n: u64) {
    for k in 0..n {
        ok(&[
            "run",
            p(job),
            "--out-dir",
            p(dir),
            "--shard",
            &format!("{k}/{n}"),
        ]);
    }
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The finished files of a folder (not the manifest, parts or hidden files).
fn outputs(dir: &Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|f| f != "manifest.json" && f != "parts" && !f.starts_with('.'))
        .collect()
}

fn same_files(a: &Path, b: &Path) {
    let (fa, fb) = (outputs(a), outputs(b));
    assert_eq!(fa, fb);
    for f in fa {
        assert!(
            std::fs::read(a.join(&f)).unwrap() == std::fs::read(b.join(&f)).unwrap(),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn every_output_kind_merges_back_byte_for_byte() {
    let s = setup();
    let whole = s.dir.path().join("whole");
    ok(&["run", p(&s.job)]);
    assert_eq!(
        outputs(&whole),
        [
            "bias.csv",
            "bias.pdf",
            "bias.summary.csv",
            "book.pdf",
            "book.pdf.json",
            "carcassonne.csv",
            "flip.txt",
            "number-match.csv",
            "numbrix.jsonl"
        ]
    );
    for n in [1u64, 2, 7] {
        let d = s.dir.path().join(format!("n{n}"));
        shard_all(&s.job, &d, n);
        // Nothing final before the merge: only parts.
        assert!(outputs(&d).is_empty(), "{:?}", outputs(&d));
        ok(&["run", p(&s.job), "--out-dir", p(&d), "--merge"]);
        same_files(&whole, &d);
        ok(&["verify", p(&d.join("manifest.json"))]);
    }
}

#[test]
fn shards_of_commands_merge_like_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = d.join("whole.jsonl");
    ok(&[
        "numbrix",
        "generate",
        "--size",
        "5",
        "--count",
        "11",
        "--seed",
        "4",
        "--out",
        p(&whole),
    ]);
    let parts: Vec<String> = (0..7)
        .map(|k| {
            let f = d.join(format!("part{k}"));
            ok(&[
                "numbrix",
                "generate",
                "--size",
                "5",
                "--count",
                "11",
                "--seed",
                "4",
                "--shard",
                &format!("{k}/7"),
                "--out",
                p(&f),
            ]);
            p(&f).to_string()
        })
        .collect();
    let merged = d.join("merged.jsonl");
    let mut args = vec!["merge", "--out", p(&merged)];
    args.extend(parts.iter().rev().map(String::as_str));
    ok(&args);
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap()
    );

    // Carcassonne statistics: the default part name sits beside the CSV.
    let cs = d.join("cs.csv");
    ok(&[
        "carcassonne",
        "stats",
        "--samples",
        "200",
        "--tiles",
        "8",
        "--out",
        p(&cs),
    ]);
    let cparts: Vec<String> = (0..2)
        .map(|k| {
            let f = d.join(format!("cs{k}.part"));
            ok(&[
                "carcassonne",
                "stats",
                "--samples",
                "200",
                "--tiles",
                "8",
                "--shard",
                &format!("{k}/2"),
                "--out",
                p(&f),
            ]);
            p(&f).to_string()
        })
        .collect();
    let csm = d.join("csm.csv");
    ok(&["merge", "--out", p(&csm), &cparts[0], &cparts[1]]);
    assert_eq!(std::fs::read(&cs).unwrap(), std::fs::read(&csm).unwrap());
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_second_run_does_nothing_and_a_changed_output_is_made_again() {
    let s = setup();
    let whole = s.dir.path().join("whole");
    ok(&["run", p(&s.job)]);
    let m = manifest(&whole);
    assert_eq!(m["tool"], "puzzlebook");
    assert_eq!(m["seed"], 11);
    assert_eq!(
        m["outputs"].as_array().unwrap().len(),
        9,
        "one entry per file (the book's facts beside it)"
    );
    for e in m["outputs"].as_array().unwrap() {
        assert_eq!(e["sha256"].as_str().unwrap().len(), 64);
        assert!(e["bytes"].as_u64().unwrap() > 0);
        assert!(e["items"].as_u64().unwrap() > 0);
        assert!(e["seconds"].as_f64().is_some());
    }
    let flip = m["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["output"] == "flip.txt")
        .unwrap();
    assert_eq!(flip["seed"], 3, "the output's own seed");
    let before = std::fs::metadata(whole.join("numbrix.jsonl"))
        .unwrap()
        .modified()
        .unwrap();
    let err = ok(&["run", p(&s.job)]);
    assert!(err.contains("done: 0 made, 6 up to date"), "{err}");
    let after = std::fs::metadata(whole.join("numbrix.jsonl"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "not rewritten");
    // Change one output: only it is made again.
    let text = std::fs::read_to_string(&s.job)
        .unwrap()
        .replace("count = 15", "count = 16");
    std::fs::write(&s.job, text).unwrap();
    let err = ok(&["run", p(&s.job)]);
    assert!(err.contains("made numbrix.jsonl: 16 items"), "{err}");
    assert!(err.contains("done: 1 made, 5 up to date"), "{err}");
    // A file changed by hand is noticed and made again.
    std::fs::write(whole.join("carcassonne.csv"), "tampered").unwrap();
    let (code, out) = {
        let o = bin()
            .args(["verify", p(&whole.join("manifest.json"))])
            .output()
            .unwrap();
        (o.status.code(), String::from_utf8(o.stdout).unwrap())
    };
    assert_eq!(code, Some(1));
    assert!(
        out.contains("MISMATCH") && out.contains("carcassonne.csv"),
        "{out}"
    );
    let err = ok(&["run", p(&s.job)]);
    assert!(err.contains("made carcassonne.csv"), "{err}");
    ok(&["verify", p(&whole.join("manifest.json"))]);
}

/// A job slow enough to stop in the middle.
fn slow_job(dir: &Path, out: &Path) -> PathBuf {
    let job = dir.join("slow.toml");
    std::fs::write(
        &job,
        format!(
            r#"
out_dir = "{}"
seed = 9
[[output]]
name = "a.jsonl"
kind = "items"
game = "flip"
count = 50
params = {{ size = "4" }}
[[output]]
name = "big.csv"
kind = "catan-bias"
samples = 40000000
samplers = "full-rejection"
[[output]]
name = "c.jsonl"
kind = "items"
game = "numbrix"
count = 20
params = {{ size = "5" }}
"#,
            out.display()
        ),
    )
    .unwrap();
    job
}

/// Every file not hidden is either the manifest or listed in it with its hash.
fn nothing_half_written(dir: &Path) {
    let listed: Vec<String> = std::fs::read_to_string(dir.join("manifest.json"))
        .ok()
        .map(|t| {
            let m: Value = serde_json::from_str(&t).unwrap();
            m["outputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["file"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default();
    for f in outputs(dir) {
        assert!(
            listed.contains(&f),
            "{f} looks finished but is not in the manifest"
        );
    }
}

fn wait_for_manifest(dir: &Path, child: &mut std::process::Child) {
    for _ in 0..600 {
        if dir.join("manifest.json").exists() || child.try_wait().unwrap().is_some() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_killed_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let cut = dir.path().join("cut");
    let job = slow_job(dir.path(), &whole);
    ok(&["run", p(&job)]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .args(["run", p(&job), "--out-dir", p(&cut)])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_manifest(&cut, &mut child);
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    nothing_half_written(&cut);
    let err = ok(&["run", p(&job), "--out-dir", p(&cut)]);
    assert!(err.contains("up to date: a.jsonl"), "{err}");
    same_files(&whole, &cut);
    assert!(
        files_in(&cut).iter().all(|f| !f.contains(".tmp-")),
        "temporary files are cleaned up: {:?}",
        files_in(&cut)
    );
}

#[test]
fn ctrl_c_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let job = slow_job(dir.path(), &out);
    // Ten times the boards: far too long to finish before the signal.
    let text = std::fs::read_to_string(&job)
        .unwrap()
        .replace("40000000", "400000000");
    std::fs::write(&job, text).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .args(["run", p(&job)])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = child;
    wait_for_manifest(&out, &mut child);
    std::thread::sleep(std::time::Duration::from_millis(300));
    // The shell's built-in kill: no procps needed.
    std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8(done.stderr).unwrap();
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    nothing_half_written(&out);
    assert!(
        files_in(&out).iter().all(|f| !f.contains(".tmp-")),
        "{:?}",
        files_in(&out)
    );
}

#[test]
fn logs_are_lines_or_json() {
    let s = setup();
    let err = ok(&["run", p(&s.job)]);
    let made: Vec<&str> = err.lines().filter(|l| l.starts_with("made ")).collect();
    assert_eq!(made.len(), 6, "{err}");
    assert!(made[0].contains("numbrix.jsonl: 15 items in") && made[0].contains("/s)"));
    let err = ok(&["run", p(&s.job), "--force", "--json-log"]);
    let events: Vec<Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events[0]["event"], "start");
    assert_eq!(events.last().unwrap()["event"], "done");
    let made: Vec<&Value> = events.iter().filter(|e| e["event"] == "made").collect();
    assert_eq!(made.len(), 6);
    assert_eq!(made[0]["output"], "numbrix.jsonl");
    assert_eq!(made[0]["items"], 15);
    assert!(made[0]["per_second"].as_f64().unwrap() > 0.0);
    // An error is an event too, and the only line.
    let (code, err) = run(&[
        "run",
        p(&s.job),
        "--json-log",
        "--merge",
        "--out-dir",
        p(&s.dir.path().join("none")),
    ]);
    assert_eq!(code, 1);
    let last: Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(last["event"], "error");
    assert!(last["message"]
        .as_str()
        .unwrap()
        .contains("run the shards first"));
    assert!(
        err.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok()),
        "{err}"
    );
}

#[test]
fn the_shard_comes_from_the_scheduler() {
    let s = setup();
    let d = s.dir.path().join("env");
    let envs: [&[(&str, &str)]; 2] = [
        &[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "2"),
        ],
        &[
            ("JOB_COMPLETION_INDEX", "1"),
            ("PUZZLEBOOK_SHARD_COUNT", "2"),
        ],
    ];
    for vars in envs {
        let out = bin()
            .args(["run", p(&s.job), "--out-dir", p(&d), "--shard-from-env"])
            .envs(vars.iter().copied())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    ok(&["run", p(&s.job), "--out-dir", p(&d), "--merge"]);
    ok(&["run", p(&s.job)]);
    same_files(&s.dir.path().join("whole"), &d);
    let out = bin()
        .args(["run", p(&s.job), "--shard-from-env"])
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("PUZZLEBOOK_SHARD_COUNT"));
}

/// A part's text with its end line written anew (lines and SHA-256 of all before it),
/// computed here independently of the tool's writer.
fn reseal(text: &str) -> String {
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let lines = text.matches('\n').count();
    format!("{text}{{\"puzzlebook_part_end\":{{\"lines\":{lines},\"sha256\":\"{hash}\"}}}}\n")
}

fn fails(args: &[&str], says: &str) {
    let (code, err) = run(args);
    assert_eq!(code, 1, "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(says), "{args:?}: expected '{says}' in: {err}");
}

#[test]
fn bad_job_files_are_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(dir.path());
    let good = job_text(&dir.path().join("out"), &t);
    let cases: Vec<(String, &str)> = vec![
        (
            good.replace("seed = 11", "seed = 11\ncolour = \"red\""),
            "unknown field `colour`",
        ),
        (
            good.replace("count = 15", "count = 15\ncont = 3"),
            "unknown field `cont`",
        ),
        (
            good.replace(&t.display().to_string(), "/nope/missing.toml"),
            "missing.toml",
        ),
        (
            good.replace("name = \"flip.txt\"", "name = \"numbrix.jsonl\""),
            "conflicting outputs",
        ),
        (
            good.replace("report = \"bias.pdf\"", "report = \"book.pdf\""),
            "conflicting outputs",
        ),
        (
            good.replace("game = \"flip\"", "game = \"chess\""),
            "unknown game 'chess'",
        ),
        (
            good.replace("kind = \"book\"", "kind = \"poster\""),
            "poster",
        ),
        (
            good.replace("name = \"flip.txt\"", "name = \"../flip.txt\""),
            "file name",
        ),
        // A job file names the field as written there, not as a flag.
        (
            good.replace("samples = 300", "samples = 0"),
            ": samples is 0",
        ),
        ("seed = 1\n".into(), "no [[output]]"),
        // One [output] table where a list of [[output]] tables is meant.
        (
            "seed = 1\n[output]\nname = \"a.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\n"
                .into(),
            "write each output as an [[output]] table",
        ),
    ];
    for (text, says) in cases {
        let job = dir.path().join("bad.toml");
        std::fs::write(&job, &text).unwrap();
        fails(&["run", p(&job)], says);
        assert!(
            !dir.path().join("out").exists(),
            "nothing made for a bad job ({says})"
        );
    }
    let job = dir.path().join("good.toml");
    std::fs::write(&job, &good).unwrap();
    let (code, _) = run(&["run", p(&job), "--shard", "3/2"]);
    assert_eq!(code, 2, "clap rejects the shard spec");
    fails(
        &["run", p(&dir.path().join("none.toml"))],
        "cannot read job file",
    );
    let (code, err) = run(&["run", p(&job), "--merge"]);
    assert_eq!(code, 1);
    assert!(
        err.lines().last().unwrap().contains("run the shards first"),
        "{err}"
    );
}

#[test]
fn bad_merges_are_one_clear_error_and_overwrite_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let part = |seed: &str, shard: &str, name: &str| {
        let f = d.join(name);
        ok(&[
            "flip",
            "generate",
            "--size",
            "4",
            "--count",
            "6",
            "--seed",
            seed,
            "--shard",
            shard,
            "--out",
            p(&f),
        ]);
        p(&f).to_string()
    };
    let a0 = part("1", "0/2", "a0");
    let a1 = part("1", "1/2", "a1");
    let b1 = part("2", "1/2", "b1");
    let c1 = part("1", "1/3", "c1");
    let out = d.join("merged.jsonl");
    std::fs::write(&out, "keep me").unwrap();
    let o = p(&out);
    fails(&["merge", "--out", o, &a0, &b1], "seed = 2");
    fails(&["merge", "--out", o, &a0], "missing part 1/2");
    fails(&["merge", "--out", o, &a0, &a1, &a1], "given twice");
    fails(&["merge", "--out", o, &a0, &c1], "cut differently");
    // A part from another version.
    let text = std::fs::read_to_string(&a1).unwrap().replacen(
        &format!("\"version\":\"{}\"", env!("CARGO_PKG_VERSION")),
        "\"version\":\"0.0.1\"",
        1,
    );
    let old = d.join("old");
    std::fs::write(&old, text).unwrap();
    fails(&["merge", "--out", o, &a0, p(&old)], "different versions");
    // A truncated part and a file that is not a part.
    let full = std::fs::read_to_string(&a1).unwrap();
    let cut = d.join("cut");
    std::fs::write(&cut, &full[..full.len() - 10]).unwrap();
    fails(&["merge", "--out", o, &a0, p(&cut)], "cut off");
    fails(&["merge", "--out", o, o], "is one of the parts");
    let plain = d.join("plain.jsonl");
    std::fs::write(&plain, "{\"game\":\"flip\"}\n").unwrap();
    fails(
        &["merge", "--out", o, p(&plain)],
        "not a puzzlebook part file",
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me");
    ok(&["merge", "--out", o, &a1, &a0]);
    assert!(files_in(d).iter().all(|f| !f.contains(".tmp-")));
}

#[test]
fn a_second_run_on_the_same_folder_is_refused_while_the_first_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let job = slow_job(dir.path(), &out);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .args(["run", p(&job)])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for_manifest(&out, &mut child);
    if child.try_wait().unwrap().is_none() {
        // Refused with the status that tells a scheduler to try again later.
        let (code, err) = run(&["run", p(&job)]);
        assert_eq!(code, 75, "{err}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains("another puzzlebook run is using"), "{err}");
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn damaged_or_stray_parts_are_refused_not_merged() {
    let s = setup();
    let d = s.dir.path().join("sh");
    shard_all(&s.job, &d, 2);
    let parts = d.join("parts");
    // A cut-off book part: the merge refuses it, and a shard run makes it again.
    let book = parts.join("book.pdf.part-0-of-1");
    let bytes = std::fs::read(&book).unwrap();
    std::fs::write(&book, &bytes[..bytes.len() - 100]).unwrap();
    let (code, err) = run(&["run", p(&s.job), "--out-dir", p(&d), "--merge"]);
    assert_eq!(code, 1);
    assert!(err.contains("does not match its header's SHA-256"), "{err}");
    assert!(!d.join("book.pdf").exists());
    let err = ok(&["run", p(&s.job), "--out-dir", p(&d), "--shard", "0/2"]);
    assert!(err.contains("made book.pdf"), "{err}");
    // Counts that do not fit their header: an error, not a panic.
    let bias = parts.join("bias.csv.part-1-of-2");
    let text = std::fs::read_to_string(&bias).unwrap();
    let (head, body) = text.split_once('\n').unwrap();
    let mut counts: Value = serde_json::from_str(body.lines().next().unwrap()).unwrap();
    counts[0]["counts"]["joint"] = serde_json::json!([]);
    let tampered = s.dir.path().join("tampered");
    // Changed counts under the old end line: refused by the part's checksum.
    let end = body.lines().nth(1).unwrap();
    std::fs::write(&tampered, format!("{head}\n{counts}\n{end}\n")).unwrap();
    let p0 = parts.join("bias.csv.part-0-of-2");
    let x = s.dir.path().join("x.csv");
    fails(
        &["merge", "--out", p(&x), p(&p0), p(&tampered)],
        "does not match the SHA-256 in its end line",
    );
    // The same counts sealed anew (as a buggy or hostile writer could): still refused,
    // now because they do not fit their header.
    std::fs::write(&tampered, reseal(&format!("{head}\n{counts}\n"))).unwrap();
    fails(
        &[
            "merge",
            "--out",
            p(&s.dir.path().join("x.csv")),
            p(&p0),
            p(&tampered),
        ],
        "do not fit",
    );
    // A header claiming a shard that does not exist.
    let stray = s.dir.path().join("stray");
    std::fs::write(
        &stray,
        text.replacen("\"shard\":[1,2]", "\"shard\":[7,2]", 1),
    )
    .unwrap();
    fails(
        &[
            "merge",
            "--out",
            p(&s.dir.path().join("x.csv")),
            p(&p0),
            p(&stray),
        ],
        "not a shard",
    );
    // The intact parts still merge into the single run.
    ok(&["run", p(&s.job), "--out-dir", p(&d), "--merge"]);
    ok(&["run", p(&s.job)]);
    same_files(&s.dir.path().join("whole"), &d);
}

#[test]
fn an_old_set_of_parts_does_not_confuse_the_merge() {
    let s = setup();
    let d = s.dir.path().join("sh");
    shard_all(&s.job, &d, 3);
    // A second, incomplete cut: the complete set of 3 is merged.
    ok(&["run", p(&s.job), "--out-dir", p(&d), "--shard", "1/2"]);
    ok(&["run", p(&s.job), "--out-dir", p(&d), "--merge"]);
    ok(&["run", p(&s.job)]);
    same_files(&s.dir.path().join("whole"), &d);
    // Two complete sets: say so rather than guess.
    ok(&["run", p(&s.job), "--out-dir", p(&d), "--shard", "0/2"]);
    let (code, err) = run(&["run", p(&s.job), "--out-dir", p(&d), "--merge", "--force"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("complete sets of parts cut into 2 and 3"),
        "{err}"
    );
}

#[test]
fn items_from_a_later_first_index_shard_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let job = one_output_job(
        &dir.path().join("whole"),
        "name = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\nfirst = 13\ncount = 17\nparams = { size = 4 }",
    );
    ok(&["run", p(&job)]);
    let d = dir.path().join("sh");
    shard_all(&job, &d, 5);
    ok(&["run", p(&job), "--out-dir", p(&d), "--merge"]);
    same_files(&dir.path().join("whole"), &d);
    let text = std::fs::read_to_string(d.join("f.jsonl")).unwrap();
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["index"], 13);
    assert_eq!(text.lines().count(), 17);
}

#[test]
fn a_slurm_array_must_start_at_zero() {
    let s = setup();
    let out = bin()
        .args(["run", p(&s.job), "--shard-from-env"])
        .envs([
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--array=0-(N-1)"));
}

#[test]
fn json_progress_comes_while_an_output_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let job = one_output_job(
        &dir.path().join("out"),
        "name = \"b.csv\"\nkind = \"catan-bias\"\nsamples = 3000000\nsamplers = \"full-rejection\"",
    );
    let out = bin()
        .args(["run", p(&job), "--json-log"])
        .env("PUZZLEBOOK_PROGRESS_SECONDS", "0.02")
        .output()
        .unwrap();
    assert!(out.status.success());
    let events: Vec<Value> = String::from_utf8(out.stderr)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let progress: Vec<&Value> = events.iter().filter(|e| e["event"] == "progress").collect();
    assert!(!progress.is_empty(), "{events:?}");
    for e in &progress {
        assert_eq!(e["output"], "b.csv");
        assert_eq!(e["total"], 3_000_000);
        assert!(e["done"].as_u64().unwrap() <= 3_000_000);
    }
    assert_eq!(events.last().unwrap()["event"], "done");
}
