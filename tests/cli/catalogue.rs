//! Scheduled runs that never print a puzzle twice: a job for three dates, run from
//! another folder, twice each, draws past its catalogue; the test checks with a
//! fingerprint of its own (every rotation and mirror, and numbering backwards,
//! written here apart from the tool's) that no puzzle appears twice, that reruns
//! change nothing, that an interrupted run adds nothing to the catalogue, that a
//! second run is locked out with the retryable status, and that a dry pool says so.

use crate::common::*;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const JOB: &str = r#"seed = "date"
out_dir = "../feed/{date}"
catalogue = "../catalogue.txt"
keep = 5

# 3 x 3 Flip has about a hundred boards up to symmetry: without the catalogue
# three days of 12 would repeat some.
[[output]]
name = "flip-{date}.jsonl"
kind = "items"
game = "flip"
count = 12
params = { size = 3 }

[[output]]
name = "numbrix-{date}.jsonl"
kind = "items"
game = "numbrix"
count = 4
params = { size = "4" }

[[output]]
name = "more-flip.jsonl"
kind = "items"
game = "flip"
count = 6
params = { size = 3 }
"#;

/// The test's own canonical form of a grid: the least of its images under the
/// square's eight symmetries, written as turns (rotate = read columns bottom-up) and a
/// mirror (reverse each row).
fn least_image(grid: Vec<Vec<String>>) -> String {
    fn rotate(g: &[Vec<String>]) -> Vec<Vec<String>> {
        let (h, w) = (g.len(), g[0].len());
        (0..w)
            .map(|c| (0..h).rev().map(|r| g[r][c].clone()).collect())
            .collect()
    }
    let mut images = Vec::new();
    let mut g = grid;
    for _ in 0..4 {
        let mirrored: Vec<Vec<String>> = g
            .iter()
            .map(|row| row.iter().rev().cloned().collect())
            .collect();
        images.push(format!("{g:?}"));
        images.push(format!("{mirrored:?}"));
        g = rotate(&g);
    }
    images.into_iter().min().unwrap()
}

/// A record's puzzle up to symmetry, as the test sees it.
fn fingerprint(record: &Value) -> String {
    match record["game"].as_str().unwrap() {
        "flip" => {
            let grid = record["start"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap().chars().map(String::from).collect())
                .collect();
            format!("flip {}", least_image(grid))
        }
        "numbrix" => {
            let rows: Vec<Vec<i64>> = record["givens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    r.as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_i64().unwrap())
                        .collect()
                })
                .collect();
            let open = rows.iter().flatten().filter(|&&v| v >= 0).count() as i64;
            let as_text = |f: &dyn Fn(i64) -> i64| -> Vec<Vec<String>> {
                rows.iter()
                    .map(|r| {
                        r.iter()
                            .map(|&v| if v > 0 { f(v) } else { v }.to_string())
                            .collect()
                    })
                    .collect()
            };
            let forwards = least_image(as_text(&|v| v));
            let backwards = least_image(as_text(&|v| open + 1 - v));
            format!("numbrix {}", forwards.min(backwards))
        }
        g => panic!("unexpected game {g}"),
    }
}

fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let jobs = dir.path().join("jobs");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&jobs).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(jobs.join("daily.toml"), JOB).unwrap();
    (dir, jobs.join("daily.toml"), elsewhere)
}

#[test]
fn three_dates_twice_each_from_another_folder_never_repeat_a_puzzle() {
    let (dir, job, elsewhere) = setup();
    let job = job.to_str().unwrap().to_string();
    let catalogue = dir.path().join("catalogue.txt");
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut total = 0;
    for date in ["2026-11-30", "2026-12-01", "2026-12-02"] {
        let (code, log) = run_in(&elsewhere, &["run", &job, "--date", date]);
        assert_eq!(code, Some(0), "{log}");
        assert!(log.contains("3 made"), "{log}");
        let folder = dir.path().join("feed").join(date);
        // Every file but the lock (which names the process that held it last).
        let before: Vec<(String, Vec<u8>)> = files_in(&folder)
            .into_iter()
            .filter(|f| !f.starts_with('.'))
            .map(|f| (f.clone(), std::fs::read(folder.join(&f)).unwrap()))
            .collect();
        let cat_before = std::fs::read(&catalogue).unwrap();
        // The rerun (at another thread count) changes nothing: no file, no catalogue line.
        let (code, log) = run_in(&elsewhere, &["run", &job, "--date", date, "-j", "1"]);
        assert_eq!(code, Some(0), "{log}");
        assert!(log.contains("0 made, 3 up to date"), "{log}");
        assert_eq!(std::fs::read(&catalogue).unwrap(), cat_before, "{date}");
        for (f, bytes) in &before {
            assert_eq!(&std::fs::read(folder.join(f)).unwrap(), bytes, "{date} {f}");
        }
        for name in [
            format!("flip-{date}.jsonl"),
            format!("numbrix-{date}.jsonl"),
            "more-flip.jsonl".to_string(),
        ] {
            for r in records(&folder.join(&name)) {
                total += 1;
                let f = fingerprint(&r);
                let here = format!("{date}/{name}#{}", r["index"]);
                if let Some(first) = seen.insert(f, here.clone()) {
                    panic!("{here} repeats {first}");
                }
            }
        }
        // The index says what the run made, each file checked against the manifest.
        let index: Value =
            serde_json::from_str(&std::fs::read_to_string(folder.join("index.json")).unwrap())
                .unwrap();
        assert_eq!(index["date"], date);
        assert_eq!(index["verified"], true);
        assert_eq!(index["outputs"].as_array().unwrap().len(), 3);
        assert!(std::fs::read_to_string(folder.join("index.md"))
            .unwrap()
            .contains(&format!("for {date}")));
    }
    assert_eq!(total, 3 * (12 + 4 + 6));
    // The catalogue holds each published puzzle once, in lines people can read.
    let text = std::fs::read_to_string(&catalogue).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), total);
    let fps: BTreeSet<&str> = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(fps.len(), total);
    // Five fields: the fifth says who made the entry (16 hex digits, one for each of
    // the job's three outputs).
    assert!(lines.iter().all(|l| l.split('\t').count() == 5), "{text}");
    let makers: BTreeSet<&str> = lines
        .iter()
        .map(|l| l.split('\t').nth(4).unwrap())
        .collect();
    assert!(makers
        .iter()
        .all(|m| m.len() == 16 && m.bytes().all(|b| b.is_ascii_hexdigit())));
    assert_eq!(
        makers.len(),
        3 * 3,
        "one maker per output and date: {makers:?}"
    );
    assert!(text.contains("\tflip\t2026-12-01\tdaily/flip-2026-12-01.jsonl#"));

    // The test's fingerprint has teeth: the same 3 x 3 Flip drawn without a catalogue
    // repeats puzzles within 36 boards.
    let plain = stdout_of(&[
        "flip", "generate", "--size", "3", "--count", "36", "--seed", "1",
    ]);
    let plain: Vec<String> = plain
        .lines()
        .map(|l| fingerprint(&serde_json::from_str(l).unwrap()))
        .collect();
    let distinct: BTreeSet<&String> = plain.iter().collect();
    assert!(distinct.len() < plain.len(), "no repeat in 36 plain boards");
}

#[test]
fn an_interrupted_run_adds_nothing_to_the_catalogue_and_its_rerun_finishes_the_same() {
    let (dir, _, _) = setup();
    let jobs = dir.path().join("jobs");
    // A fast output, then a slow one to be stopped in (and, for the rerun, made small).
    let job = |numbrix: u32| {
        format!(
            r#"seed = 5
out_dir = "../slow"
catalogue = "../catalogue.txt"

[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 10
params = {{ size = 3 }}

[[output]]
name = "numbrix.jsonl"
kind = "items"
game = "numbrix"
count = {numbrix}
params = {{ size = "9" }}
"#
        )
    };
    std::fs::write(jobs.join("slow.toml"), job(2000)).unwrap();
    let catalogue = dir.path().join("catalogue.txt");
    std::fs::write(&catalogue, "# started by hand\n").unwrap();
    let before = std::fs::read(&catalogue).unwrap();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .current_dir(&jobs)
        .args(["run", "slow.toml", "-j", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first output to be made, then stop the run.
    let made = dir.path().join("slow").join("flip.jsonl");
    let start = Instant::now();
    while !made.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "flip.jsonl never made"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    assert_eq!(
        std::fs::read(&catalogue).unwrap(),
        before,
        "an interrupted run added to the catalogue"
    );
    let first = std::fs::read(&made).unwrap();
    // The rerun makes only the rest, and then adds everything.
    std::fs::write(jobs.join("slow.toml"), job(3)).unwrap();
    let (code, log) = run_in(&jobs, &["run", "slow.toml"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("up to date: flip.jsonl"), "{log}");
    assert_eq!(std::fs::read(&made).unwrap(), first);
    let text = std::fs::read_to_string(&catalogue).unwrap();
    assert!(text.starts_with("# started by hand\n"));
    assert_eq!(text.lines().filter(|l| l.contains("\tflip\t")).count(), 10);
    assert_eq!(
        text.lines().filter(|l| l.contains("\tnumbrix\t")).count(),
        3
    );
}

#[test]
fn a_second_run_on_one_catalogue_is_refused_with_the_retryable_status() {
    let (dir, job, elsewhere) = setup();
    let lock_path = dir.path().join("catalogue.txt.lock");
    let held = std::fs::File::create(&lock_path).unwrap();
    held.lock().unwrap();
    let (code, log) = run_in(
        &elsewhere,
        &["run", job.to_str().unwrap(), "--date", "2026-12-01"],
    );
    assert_eq!(code, Some(75), "{log}");
    assert!(
        log.contains("another puzzlebook run is drawing from the catalogue"),
        "{log}"
    );
    assert_eq!(log.lines().count(), 2, "{log}"); // the start line and the error
    assert!(!dir.path().join("catalogue.txt").exists());
    drop(held);
    let (code, log) = run_in(
        &elsewhere,
        &["run", job.to_str().unwrap(), "--date", "2026-12-01"],
    );
    assert_eq!(code, Some(0), "{log}");
}

#[test]
fn a_dry_pool_says_so_with_the_counts_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big.toml"),
        r#"out_dir = "out"
catalogue = "catalogue.txt"
[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 500
params = { size = 3 }
"#,
    )
    .unwrap();
    let start = Instant::now();
    let (code, log) = run_in(dir.path(), &["run", "big.toml"]);
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(code, Some(1), "{log}");
    assert!(log.contains("the pool ran dry"), "{log}");
    assert!(
        log.contains("of 500 new puzzles after 26000 draws"),
        "{log}"
    );
    assert!(!dir.path().join("out").join("flip.jsonl").exists());
    assert!(!dir.path().join("catalogue.txt").exists());
}

#[test]
fn catalogues_merge_by_fingerprint_and_bad_lines_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    let f = |n: u8| format!("{:032x}", n);
    std::fs::write(
        &a,
        format!(
            "# a\n{}\tflip\t2026-11-30\tdaily/x#1\n{}\tflip\t-\tdaily/x#2\n",
            f(1),
            f(2)
        ),
    )
    .unwrap();
    std::fs::write(
        &b,
        format!(
            "{}\tflip\t2026-12-01\tother/y#7\n{}\tnumbrix\t-\tbook.toml#1.4\n",
            f(2),
            f(3)
        ),
    )
    .unwrap();
    let out = dir.path().join("all.txt");
    let (code, log) = run_in(
        dir.path(),
        &["catalogue", "merge", "a.txt", "b.txt", "--into", "all.txt"],
    );
    assert_eq!(code, Some(0), "{log}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 3);
    // The first entry of a fingerprint wins.
    assert!(lines.contains(&format!("{}\tflip\t-\tdaily/x#2", f(2)).as_str()));
    // Merging again into one of the inputs changes nothing in what it lists.
    let (code, _) = run_in(
        dir.path(),
        &[
            "catalogue",
            "merge",
            "all.txt",
            "a.txt",
            "--into",
            "all.txt",
        ],
    );
    assert_eq!(code, Some(0));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let (code, log) = run_in(dir.path(), &["catalogue", "count", "all.txt"]);
    assert_eq!(code, Some(0), "{log}");
    std::fs::write(&b, "not a line\n").unwrap();
    fails_with_in(
        dir.path(),
        &["catalogue", "merge", "a.txt", "b.txt", "--into", "c.txt"],
        "b.txt line 1",
    );
    assert!(!dir.path().join("c.txt").exists());
}

fn fails_with_in(dir: &Path, args: &[&str], needle: &str) {
    let (code, log) = run_in(dir, args);
    assert_eq!(code, Some(1), "{log}");
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(log.contains(needle), "{log}");
}

#[test]
fn volume_two_of_a_series_holds_no_puzzle_of_volume_one() {
    let dir = tempfile::tempdir().unwrap();
    let template = std::fs::read_to_string(template("flip-6x9.toml")).unwrap();
    // The same template, drawing from a catalogue beside it.
    let t = format!("catalogue = \"catalogue.txt\"\n{template}");
    std::fs::write(dir.path().join("series.toml"), t).unwrap();
    let mut sets = Vec::new();
    for v in ["1", "2"] {
        let out = format!("vol{v}.pdf");
        let (code, log) = run_in(
            dir.path(),
            &[
                "book",
                "--template",
                "series.toml",
                "--volume",
                v,
                "--out",
                &out,
            ],
        );
        assert_eq!(code, Some(0), "{log}");
        let text = std::fs::read_to_string(dir.path().join("catalogue.txt")).unwrap();
        let fps: BTreeSet<String> = text
            .lines()
            .filter(|l| l.contains(&format!("series.toml/volume-{v}#")))
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
        assert!(!fps.is_empty());
        sets.push(fps);
        let doc = lopdf::Document::load(dir.path().join(&out)).unwrap();
        let pages = page_texts(&doc);
        assert!(
            pages
                .iter()
                .take(3)
                .any(|p| p.contains(&format!("Volume {v}"))),
            "no 'Volume {v}' on the first pages"
        );
    }
    assert!(sets[0].is_disjoint(&sets[1]));
    // Making volume 2 again gives the same book (its own entries are not drawn past).
    let first = std::fs::read(dir.path().join("vol2.pdf")).unwrap();
    let (code, log) = run_in(
        dir.path(),
        &[
            "book",
            "--template",
            "series.toml",
            "--volume",
            "2",
            "--out",
            "again.pdf",
        ],
    );
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(std::fs::read(dir.path().join("again.pdf")).unwrap(), first);
}

/// A job `name` in `dir` drawing from `catalogue.txt`: 3 x 3 Flip with a fixed seed
/// (so two dates draw the same boards unless the catalogue keeps them apart), then
/// `numbrix` 9 x 9 puzzles (many: slow enough to stop the run in).
fn fixed_seed_job(dir: &Path, name: &str, numbrix: u32) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            r#"seed = 77
out_dir = "out/{{date}}"
catalogue = "catalogue.txt"

[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 20
params = {{ size = 3 }}

[[output]]
name = "numbrix.jsonl"
kind = "items"
game = "numbrix"
count = {numbrix}
params = {{ size = "9" }}
"#
        ),
    )
    .unwrap();
    path
}

#[test]
fn an_output_whose_puzzles_were_published_while_its_run_was_stopped_is_made_again() {
    let dir = tempfile::tempdir().unwrap();
    fixed_seed_job(dir.path(), "feed.toml", 2000);
    // Day 1 stops after its Flip output is made: nothing reaches the catalogue yet.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .current_dir(dir.path())
        .args(["run", "feed.toml", "--date", "2026-07-01", "-j", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let made = dir.path().join("out/2026-07-01/flip.jsonl");
    let start = Instant::now();
    while !made.exists() {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    assert_eq!(child.wait().unwrap().code(), Some(143));
    // Day 2 runs whole meanwhile (with fewer Numbrix puzzles) and publishes the same
    // 20 Flip boards, since the seed is fixed.
    fixed_seed_job(dir.path(), "feed.toml", 2);
    let (code, log) = run_in(dir.path(), &["run", "feed.toml", "--date", "2026-07-02"]);
    assert_eq!(code, Some(0), "{log}");
    // Day 1 resumes: its Flip output is made again past them, never published twice.
    let (code, log) = run_in(dir.path(), &["run", "feed.toml", "--date", "2026-07-01"]);
    assert_eq!(code, Some(0), "{log}");
    assert!(
        log.contains("made again: flip.jsonl (20 of its puzzles"),
        "{log}"
    );
    let text = std::fs::read_to_string(dir.path().join("catalogue.txt")).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let fps: BTreeSet<&str> = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(lines.len(), 2 * 22);
    assert_eq!(fps.len(), lines.len(), "a puzzle published twice");
    let mut all = BTreeSet::new();
    for day in ["2026-07-01", "2026-07-02"] {
        for r in records(&dir.path().join(format!("out/{day}/flip.jsonl"))) {
            assert!(
                all.insert(fingerprint(&r)),
                "{day}: a board of the other day"
            );
        }
    }
}

#[test]
fn a_catalogue_path_that_cannot_be_one_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let job = |catalogue: &str| {
        std::fs::write(
            dir.path().join("j.toml"),
            format!(
                "out_dir = \"out/{{date}}\"\ncatalogue = \"{catalogue}\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 2\nparams = {{ size = 4 }}\n"
            ),
        )
        .unwrap();
    };
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    let fifo = dir.path().join("cat.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("real.txt", dir.path().join("link.txt")).unwrap();
    for (catalogue, says) in [
        ("newdir/", "name a file, not a folder"),
        ("adir", "not a regular file"),
        ("cat.fifo", "not a regular file"),
        ("link.txt", "is a symbolic link"),
        ("", "catalogue is empty"),
        // Another spelling of a file the run writes, through a folder that does not exist.
        (
            "nope/../out/2026-02-01/index.md",
            "is also a file the run writes",
        ),
    ] {
        job(catalogue);
        fails_with_in(dir.path(), &["run", "j.toml", "--date", "2026-02-01"], says);
        assert!(
            !dir.path()
                .join("out")
                .join("2026-02-01")
                .join("f.jsonl")
                .exists(),
            "{catalogue}"
        );
    }
    let left: Vec<String> = files_in(dir.path());
    assert!(left.iter().all(|f| !f.ends_with(".lock")), "{left:?}");
    assert!(!dir.path().join("nope").exists());
}

#[test]
fn a_users_index_in_the_output_folder_is_refused_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("site")).unwrap();
    std::fs::write(dir.path().join("site/index.md"), "# My website\n").unwrap();
    std::fs::write(
        dir.path().join("j.toml"),
        "seed = \"date\"\nout_dir = \"site\"\ncatalogue = \"cat.txt\"\n[[output]]\nname = \"flip-{date}.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 2\nparams = { size = 4 }\n",
    )
    .unwrap();
    fails_with_in(
        dir.path(),
        &["run", "j.toml", "--date", "2026-03-04"],
        "index.md was not written by puzzlebook",
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("site/index.md")).unwrap(),
        "# My website\n"
    );
    assert!(!dir.path().join("site/flip-2026-03-04.jsonl").exists());
    // Its own index is replaced on the next date, as it should be.
    std::fs::remove_file(dir.path().join("site/index.md")).unwrap();
    for date in ["2026-03-04", "2026-03-05"] {
        let (code, log) = run_in(dir.path(), &["run", "j.toml", "--date", date]);
        assert_eq!(code, Some(0), "{log}");
    }
}

#[test]
fn a_book_is_never_written_over_its_catalogue_and_volumes_do_not_depend_on_order() {
    let dir = tempfile::tempdir().unwrap();
    let template = std::fs::read_to_string(template("flip-6x9.toml")).unwrap();
    std::fs::write(
        dir.path().join("series.toml"),
        format!("catalogue = \"catalogue.txt\"\n{template}"),
    )
    .unwrap();
    let book = |v: &str, out: &str| {
        run_in(
            dir.path(),
            &[
                "book",
                "--template",
                "series.toml",
                "--volume",
                v,
                "--out",
                out,
            ],
        )
    };
    let (code, log) = book("2", "first-2.pdf");
    assert_eq!(code, Some(0), "{log}");
    let catalogue = std::fs::read(dir.path().join("catalogue.txt")).unwrap();
    for out in ["catalogue.txt", "catalogue.txt.lock"] {
        let (code, log) = book("3", out);
        assert_eq!(code, Some(1), "{out}: {log}");
        assert!(
            log.contains("the template's catalogue") || log.contains("the catalogue's lock"),
            "{log}"
        );
    }
    assert_eq!(
        std::fs::read(dir.path().join("catalogue.txt")).unwrap(),
        catalogue
    );
    // Volume 1 after volume 2, then volume 2 again: the same volume 2, nothing added.
    let (code, log) = book("1", "v1.pdf");
    assert_eq!(code, Some(0), "{log}");
    let (code, log) = book("2", "again-2.pdf");
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("0 puzzles added"), "{log}");
    assert_eq!(
        std::fs::read(dir.path().join("again-2.pdf")).unwrap(),
        std::fs::read(dir.path().join("first-2.pdf")).unwrap()
    );
}

/// The fingerprints a catalogue file lists (its first field), each line once.
fn catalogue_fingerprints(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect()
}

/// Every record of the JSON Lines files named, by the test's own fingerprint.
fn fingerprints_of(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .flat_map(|f| records(f))
        .map(|r| fingerprint(&r))
        .collect()
}

#[test]
fn two_jobs_of_one_name_sharing_a_catalogue_never_print_the_same_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    // The same job file, word for word, in two folders (two sites' feeds), both
    // called daily.toml, both drawing past one catalogue.
    let job = r#"seed = "date"
out_dir = "feed/{date}"
catalogue = "../catalogue.txt"

[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 12
params = { size = 3 }
"#;
    for site in ["a", "b"] {
        std::fs::create_dir(dir.path().join(site)).unwrap();
        std::fs::write(dir.path().join(site).join("daily.toml"), job).unwrap();
    }
    let mut files = Vec::new();
    for site in ["a", "b", "a", "b"] {
        let (code, log) = run_in(
            &dir.path().join(site),
            &["run", "daily.toml", "--date", "2026-12-01"],
        );
        assert_eq!(code, Some(0), "{site}: {log}");
        files.push(dir.path().join(site).join("feed/2026-12-01/flip.jsonl"));
    }
    // Each site's rerun makes its own puzzles again (a's twice, b's twice).
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        std::fs::read(&files[2]).unwrap()
    );
    assert_eq!(
        std::fs::read(&files[1]).unwrap(),
        std::fs::read(&files[3]).unwrap()
    );
    let fps = fingerprints_of(&files[..2]);
    let distinct: BTreeSet<&String> = fps.iter().collect();
    assert_eq!(distinct.len(), 24, "a and b share puzzles");
    let cat = catalogue_fingerprints(&dir.path().join("catalogue.txt"));
    assert_eq!(cat.len(), 24);
    // The test has teeth: the same job without the catalogue makes a's puzzles.
    let solo = tempfile::tempdir().unwrap();
    std::fs::write(
        solo.path().join("daily.toml"),
        job.replace("catalogue = \"../catalogue.txt\"\n", ""),
    )
    .unwrap();
    let (code, log) = run_in(solo.path(), &["run", "daily.toml", "--date", "2026-12-01"]);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(
        std::fs::read(solo.path().join("feed/2026-12-01/flip.jsonl")).unwrap(),
        std::fs::read(&files[0]).unwrap()
    );
}

/// A small book template of 3 x 3 Flip (a pool of about a hundred boards), drawing
/// past `catalogue`.
fn flip_template(catalogue: &str, count: u32) -> String {
    format!(
        r#"catalogue = "{catalogue}"
title = "Small Flip"
author = "A. Writer"
seed = 3

[[section]]
game = "flip"
count = {count}
params = {{ size = 3 }}
"#
    )
}

/// (added, already there) from a book's catalogue line.
fn added(log: &str) -> (usize, usize) {
    let line = log
        .lines()
        .find(|l| l.contains("puzzles added"))
        .unwrap_or_else(|| panic!("no catalogue line: {log}"));
    let n = |after: &str| -> usize {
        line.split(after)
            .next()
            .unwrap()
            .split_whitespace()
            .last()
            .unwrap()
            .trim_start_matches('(')
            .parse()
            .unwrap()
    };
    (n(" puzzles added"), n(" already there"))
}

#[test]
fn two_templates_of_one_name_sharing_a_catalogue_print_two_books() {
    let dir = tempfile::tempdir().unwrap();
    for shelf in ["x", "y"] {
        std::fs::create_dir(dir.path().join(shelf)).unwrap();
        std::fs::write(
            dir.path().join(shelf).join("book.toml"),
            flip_template("../catalogue.txt", 12),
        )
        .unwrap();
    }
    for (shelf, again) in [("x", false), ("y", false), ("x", true)] {
        let (code, log) = run_in(
            &dir.path().join(shelf),
            &["book", "--template", "book.toml", "--out", "b.pdf"],
        );
        assert_eq!(code, Some(0), "{shelf}: {log}");
        // x's book made again adds nothing: its own puzzles, the same pages.
        let want = if again { (0, 12) } else { (12, 0) };
        assert_eq!(added(&log), want, "{shelf}: {log}");
    }
    let cat = catalogue_fingerprints(&dir.path().join("catalogue.txt"));
    let distinct: BTreeSet<&String> = cat.iter().collect();
    assert_eq!((cat.len(), distinct.len()), (24, 24));
}

#[test]
fn a_volume_made_with_another_seed_reprints_no_puzzle_of_the_series() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("series.toml"),
        flip_template("catalogue.txt", 8),
    )
    .unwrap();
    let book = |args: &[&str]| {
        let mut all = vec!["book", "--template", "series.toml", "--out", "v.pdf"];
        all.extend_from_slice(args);
        let (code, log) = run_in(dir.path(), &all);
        assert_eq!(code, Some(0), "{args:?}: {log}");
        log
    };
    for v in ["1", "2", "3", "4", "5"] {
        assert_eq!(added(&book(&["--volume", v])), (8, 0), "volume {v}");
    }
    // Volume 1 of another series (seed 5): none of the 40 puzzles published.
    assert_eq!(added(&book(&["--volume", "1", "--seed", "5"])), (8, 0));
    // Volume 3 of the first series again: its own puzzles, nothing added.
    assert_eq!(added(&book(&["--volume", "3"])), (0, 8));
    let cat = catalogue_fingerprints(&dir.path().join("catalogue.txt"));
    let distinct: BTreeSet<&String> = cat.iter().collect();
    assert_eq!((cat.len(), distinct.len()), (48, 48));
}

#[test]
fn catalogue_lines_are_bounded_and_their_games_are_the_registrys() {
    let dir = tempfile::tempdir().unwrap();
    let f = |n: u32| format!("{:032x}", n);
    // A line as long as the old bound allowed (4 KB): refused by merge, count and run
    // with the line named.
    let long = format!("{}\tflip\t-\t{}\n", f(1), "p".repeat(4000));
    std::fs::write(dir.path().join("long.txt"), &long).unwrap();
    // Any lowercase word as a game: refused, naming the games there are.
    let odd = format!("{}\tchess\t-\tdaily/x#1\n", f(2));
    std::fs::write(dir.path().join("odd.txt"), &odd).unwrap();
    for (file, says) in [
        ("long.txt", "long.txt line 1: longer than 1024 bytes"),
        ("odd.txt", "odd.txt line 1: 'chess' is not a game puzzlebook makes (flip, catan, numbrix, number_match, carcassonne)"),
    ] {
        fails_with_in(dir.path(), &["catalogue", "count", file], says);
        fails_with_in(
            dir.path(),
            &["catalogue", "merge", file, "--into", "m.txt"],
            says,
        );
        std::fs::write(
            dir.path().join("j.toml"),
            format!("out_dir = \"out\"\ncatalogue = \"{file}\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 2\nparams = {{ size = 4 }}\n"),
        )
        .unwrap();
        // A run says where it starts, then the error.
        let (code, log) = run_in(dir.path(), &["run", "j.toml"]);
        assert_eq!((code, log.lines().count()), (Some(1), 2), "{log}");
        assert!(log.lines().nth(1).unwrap().contains(says), "{log}");
        assert!(!dir.path().join("out/f.jsonl").exists());
    }
    // A place of 512 bytes is the longest an entry may name.
    let place = format!("{}\tflip\t-\t{}\n", f(3), "p".repeat(513));
    std::fs::write(dir.path().join("place.txt"), place).unwrap();
    fails_with_in(
        dir.path(),
        &["catalogue", "count", "place.txt"],
        "the place is longer than 512 bytes",
    );
    assert!(!dir.path().join("m.txt").exists());
    let left = files_in(dir.path());
    assert!(left.iter().all(|f| !f.ends_with(".lock")), "{left:?}");
}

#[test]
fn a_run_that_could_overfill_its_catalogue_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    // More puzzles than a catalogue holds (10,000,000): refused at once, not after
    // hours of generation.
    std::fs::write(
        dir.path().join("huge.toml"),
        "out_dir = \"out\"\ncatalogue = \"cat.txt\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 10000001\nparams = { size = 8 }\n",
    )
    .unwrap();
    let start = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .current_dir(dir.path())
        .args(["run", "huge.toml"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("still running after 20 s: the bound was not checked first");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("this run may add 10000001: more than the 10000000 a catalogue holds"),
        "{err}"
    );
    assert!(!dir.path().join("out/f.jsonl").exists());
    assert!(!dir.path().join("cat.txt").exists());
    assert!(!dir.path().join("cat.txt.lock").exists());
}

#[test]
fn failed_runs_and_refused_merges_leave_no_lock_or_folder_behind() {
    let dir = tempfile::tempdir().unwrap();
    // A run whose pool runs dry, drawing from a catalogue in folders that do not
    // exist yet: they are gone again, with the lock, when it fails.
    std::fs::write(
        dir.path().join("dry.toml"),
        "out_dir = \"out\"\ncatalogue = \"cats/2026/cat.txt\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 500\nparams = { size = 3 }\n",
    )
    .unwrap();
    let (code, log) = run_in(dir.path(), &["run", "dry.toml"]);
    assert_eq!(code, Some(1), "{log}");
    assert!(log.contains("the pool ran dry"), "{log}");
    assert!(
        !dir.path().join("cats").exists(),
        "{:?}",
        files_in(dir.path())
    );
    // A successful run leaves the catalogue and no lock beside it.
    std::fs::write(
        dir.path().join("ok.toml"),
        "out_dir = \"out\"\ncatalogue = \"cats/2026/cat.txt\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 5\nparams = { size = 3 }\n",
    )
    .unwrap();
    let (code, log) = run_in(dir.path(), &["run", "ok.toml"]);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(files_in(&dir.path().join("cats/2026")), ["cat.txt"]);
    // A refused merge leaves no INTO.lock.
    std::fs::write(dir.path().join("bad.txt"), "not a line\n").unwrap();
    fails_with_in(
        dir.path(),
        &["catalogue", "merge", "bad.txt", "--into", "into.txt"],
        "bad.txt line 1",
    );
    assert!(!dir.path().join("into.txt").exists());
    assert!(!dir.path().join("into.txt.lock").exists());
    // Nor does a successful one.
    let (code, log) = run_in(
        dir.path(),
        &[
            "catalogue",
            "merge",
            "cats/2026/cat.txt",
            "--into",
            "into.txt",
        ],
    );
    assert_eq!(code, Some(0), "{log}");
    assert!(!dir.path().join("into.txt.lock").exists());
}

#[test]
fn a_million_entry_catalogue_is_read_in_bounded_memory() {
    use std::io::Write;
    // A million entries (about 88 MB, four fields as earlier versions wrote them):
    // a run drawing past it, `catalogue count` and `catalogue merge` each fit 144 MB
    // of address space, the least puzzlebook runs in (a run holds 16 bytes an entry,
    // count and merge about 30; the earlier reader needed more than 150 MB here and
    // aborted).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.txt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let games = ["flip", "numbrix", "number_match", "carcassonne", "catan"];
    for i in 0..1_000_000u64 {
        let g = games[(i % 5) as usize];
        writeln!(
            f,
            "{:016x}{:016x}\t{g}\t2026-{:02}-{:02}\tdaily/{g}.jsonl#{i}",
            i.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            i,
            1 + i % 12,
            1 + i % 28
        )
        .unwrap();
    }
    drop(f);
    std::fs::write(
        dir.path().join("j.toml"),
        "out_dir = \"out\"\ncatalogue = \"big.txt\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 10\nparams = { size = 6 }\n",
    )
    .unwrap();
    let exe = assert_cmd::cargo::cargo_bin("puzzlebook");
    for args in [
        "-j 1 run j.toml",
        "catalogue count big.txt",
        "catalogue merge big.txt --into merged.txt",
    ] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 147456 && exec '{}' {args}",
                exe.display()
            ))
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(
        catalogue_fingerprints(&dir.path().join("merged.txt")).len(),
        1_000_010
    );
}
