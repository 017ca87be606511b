//! What a person (or another job) put where puzzlebook writes is theirs: a file named
//! like a temporary one, a file at a catalogue's lock path, a date folder that is a
//! link, a folder another job made, a catalogue with two names, an existing file
//! given to `catalogue merge --into`. Each is refused with one line or left alone,
//! and a refused run leaves nothing of its own behind. A book's template edited
//! between two runs makes a new book, not a reprint of the first.

use crate::common::*;
use std::path::{Path, PathBuf};

fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let (code, log) = run_in(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {log}");
    log
}

/// A failing run: its exit status and its one `error:` line.
fn error_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let (code, log) = run_in(dir, args);
    assert_ne!(code, Some(0), "{args:?} passed: {log}");
    let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{args:?}: {log}");
    (code, errors[0].to_string())
}

/// A dated job `jobs/NAME.toml` writing `feed/{date}` with a catalogue.
fn daily(dir: &Path, name: &str, seed: u32, catalogue: &str) -> PathBuf {
    let jobs = dir.join("jobs");
    std::fs::create_dir_all(&jobs).unwrap();
    let path = jobs.join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            r#"seed = "date+{seed}"
out_dir = "../feed/{{date}}"
catalogue = "{catalogue}"
keep = 1

[[output]]
name = "flip-{{date}}"
kind = "items"
game = "flip"
count = 5
params = {{ size = 4, min_moves = 5 }}
"#
        ),
    )
    .unwrap();
    jobs
}

/// Every entry under `dir`, with the SHA-256 of each file's bytes (of a link's target
/// for a link; empty for a folder).
fn tree(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let kind = e.file_type().unwrap();
            if kind.is_dir() {
                stack.push(p.clone());
                out.push((p, String::new()));
            } else if kind.is_symlink() {
                let to = std::fs::read_link(&p).unwrap();
                out.push((p, sha256_hex(to.as_os_str().as_encoded_bytes())));
            } else {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p, sha256_hex(&bytes)));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn files_named_like_temporaries_are_not_taken_for_ones() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../feed/catalogue.txt");
    ok_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
    let old = dir.path().join("feed/2026-01-01");
    // Names that look like a writer's leftovers, but not exactly the names one makes.
    std::fs::write(old.join(".index.md.tmp-notes"), "my notes\n").unwrap();
    std::fs::write(old.join(".flip-2026-01-01.tmp-12-0123"), "mine\n").unwrap();
    std::fs::create_dir(old.join("parts")).unwrap();
    std::fs::write(old.join("parts/.backup.tmp-mine"), "my backup\n").unwrap();
    let before = tree(&old);
    let log = ok_in(&jobs, &["run", "daily.toml", "--date", "2026-01-02"]);
    assert_eq!(tree(&old), before, "{log}");
    let left = log
        .lines()
        .find(|l| l.starts_with("left ") && l.contains("2026-01-01"))
        .unwrap_or_else(|| panic!("no line for the folder left: {log}"));
    for name in [
        ".index.md.tmp-notes",
        ".flip-2026-01-01.tmp-12-0123",
        "parts/.backup.tmp-mine",
    ] {
        assert!(
            left.contains(&format!("{name} (not a file puzzlebook made)")),
            "{left}"
        );
    }
    assert!(left.ends_with("nothing was removed"), "{left}");
}

#[test]
fn a_file_at_the_catalogues_lock_path_is_the_users_and_stays() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../feed/catalogue.txt");
    let feed = dir.path().join("feed");
    std::fs::create_dir(&feed).unwrap();
    std::fs::write(feed.join("catalogue.txt.lock"), "my notes about locking\n").unwrap();
    let (code, line) = error_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
    assert_eq!(code, Some(1));
    assert!(line.contains("catalogue.txt.lock"), "{line}");
    assert_eq!(
        std::fs::read_to_string(feed.join("catalogue.txt.lock")).unwrap(),
        "my notes about locking\n"
    );
    assert_eq!(files_in(&feed), ["catalogue.txt.lock"], "{line}");

    // A link there is refused too, and the file it points at is untouched.
    std::fs::remove_file(feed.join("catalogue.txt.lock")).unwrap();
    std::fs::write(dir.path().join("victim"), "keep\n").unwrap();
    std::os::unix::fs::symlink("../victim", feed.join("catalogue.txt.lock")).unwrap();
    let (_, line) = error_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
    assert!(line.contains("link"), "{line}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("victim")).unwrap(),
        "keep\n"
    );
    assert!(std::fs::symlink_metadata(feed.join("catalogue.txt.lock")).is_ok());
}

#[test]
fn a_catalogue_with_two_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "catalogue.txt");
    daily(dir.path(), "other", 2, "second.txt");
    std::fs::write(jobs.join("catalogue.txt"), "").unwrap();
    std::fs::hard_link(jobs.join("catalogue.txt"), jobs.join("second.txt")).unwrap();
    for job in ["daily.toml", "other.toml"] {
        let (code, line) = error_in(&jobs, &["run", job, "--date", "2026-01-01"]);
        assert_eq!(code, Some(1));
        assert!(line.contains("has other hard links"), "{line}");
    }
    assert!(!dir.path().join("feed").exists());
    assert_eq!(std::fs::read(jobs.join("catalogue.txt")).unwrap(), b"");
}

#[test]
fn a_catalogue_named_like_the_run_lock_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../feed/{date}/.puzzlebook");
    for _ in 0..2 {
        let (code, line) = error_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
        // Not the "another run holds it" status (75): retrying would never help.
        assert_eq!(code, Some(1), "{line}");
        assert!(line.contains("name another catalogue"), "{line}");
    }
}

#[test]
fn a_refused_run_leaves_no_lock_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../feed/catalogue.txt");
    let site = jobs.join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(site.join("index.md"), "# my site\n").unwrap();
    let (code, line) = error_in(
        &jobs,
        &[
            "run",
            "daily.toml",
            "--date",
            "2026-01-01",
            "--out-dir",
            "site",
        ],
    );
    assert_eq!(code, Some(1));
    assert!(
        line.contains("index.md was not written by puzzlebook"),
        "{line}"
    );
    assert_eq!(files_in(&site), ["index.md"]);
    assert_eq!(
        std::fs::read_to_string(site.join("index.md")).unwrap(),
        "# my site\n"
    );
}

#[test]
fn a_date_folder_that_is_a_link_is_refused_and_its_target_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../feed/catalogue.txt");
    let feed = dir.path().join("feed");
    let victim = dir.path().join("victim");
    std::fs::create_dir_all(&feed).unwrap();
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("manifest.json"), "{\"mine\": 1}\n").unwrap();
    std::os::unix::fs::symlink("../victim", feed.join("2026-01-01")).unwrap();
    let before = tree(&victim);
    let (code, line) = error_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
    assert_eq!(code, Some(1));
    assert!(line.contains("link"), "{line}");
    assert_eq!(tree(&victim), before);
}

#[test]
fn another_jobs_folder_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    // Two copies of one job in two folders, writing the same feed folder.
    let jobs = daily(dir.path(), "daily", 1, "../feed/catalogue.txt");
    for copy in ["A", "B"] {
        let d = dir.path().join(copy);
        std::fs::create_dir(&d).unwrap();
        std::fs::copy(jobs.join("daily.toml"), d.join("daily.toml")).unwrap();
    }
    ok_in(
        &dir.path().join("A"),
        &["run", "daily.toml", "--date", "2026-01-01"],
    );
    let out = dir.path().join("feed/2026-01-01");
    // The run lock (its note names the process holding it) aside, nothing changes.
    let outputs = |d: &Path| {
        let mut t = tree(d);
        t.retain(|(p, _)| !p.ends_with(".puzzlebook.lock"));
        t
    };
    let before = outputs(&out);
    let (code, line) = error_in(
        &dir.path().join("B"),
        &["run", "daily.toml", "--date", "2026-01-01"],
    );
    assert_eq!(code, Some(1));
    assert!(line.contains("holds the outputs of another job"), "{line}");
    assert!(line.contains("--force"), "{line}");
    assert_eq!(outputs(&out), before);
    // Asked for, it is done: the manifest then names the second job.
    ok_in(
        &dir.path().join("B"),
        &["run", "daily.toml", "--date", "2026-01-01", "--force"],
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("/B/daily.toml"), "{manifest}");
}

#[test]
fn merge_into_an_existing_file_it_was_not_given_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = daily(dir.path(), "daily", 1, "../catalogue.txt");
    ok_in(&jobs, &["run", "daily.toml", "--date", "2026-01-01"]);
    let cat = dir.path().join("catalogue.txt");
    let before = std::fs::read(&cat).unwrap();
    let other = dir.path().join("node2.txt");
    std::fs::write(
        &other,
        "5b1e0c00000000000000000000009f2b\tflip\t2026-11-27\tnode2/flip#4\t3f0c9a1e77b2d405\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a catalogue\n").unwrap();
    for into in ["catalogue.txt", "notes.txt"] {
        let (code, line) = error_in(
            dir.path(),
            &["catalogue", "merge", "node2.txt", "--into", into],
        );
        assert_eq!(code, Some(1));
        assert!(
            line.contains(&format!(
                "{into} exists and is not among the catalogues merged"
            )),
            "{line}"
        );
    }
    assert_eq!(std::fs::read(&cat).unwrap(), before);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(),
        "not a catalogue\n"
    );
    // Named among the inputs, it is merged into: its entries and the other's.
    let log = ok_in(
        dir.path(),
        &[
            "catalogue",
            "merge",
            "catalogue.txt",
            "node2.txt",
            "--into",
            "catalogue.txt",
        ],
    );
    let entries = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .count()
    };
    assert_eq!(
        entries(&std::fs::read(&cat).unwrap()),
        entries(&before) + 1,
        "{log}"
    );
}

fn flip_book(dir: &Path, count: u32) {
    std::fs::write(
        dir.join("book.toml"),
        format!(
            r#"title = "Flip test"
author = "me"
page_size = "6x9"
seed = 9
catalogue = "cat.txt"

[[section]]
game = "flip"
heading = "Small"
count = {count}
per_page = 2
params = {{ size = 5, min_moves = 5 }}
"#
        ),
    )
    .unwrap();
}

fn catalogue_line(log: &str) -> &str {
    log.lines()
        .find(|l| l.starts_with("catalogue "))
        .unwrap_or_else(|| panic!("no catalogue line: {log}"))
}

#[test]
fn a_template_edited_between_runs_makes_a_new_book_not_a_reprint() {
    let dir = tempfile::tempdir().unwrap();
    flip_book(dir.path(), 20);
    let book = ["book", "--template", "book.toml", "--out"];
    let log = ok_in(dir.path(), &[&book[..], &["b1.pdf"]].concat());
    assert!(
        catalogue_line(&log).contains("20 puzzles added (0 already there)"),
        "{log}"
    );
    // The same template again is the same book: its puzzles are its own.
    let log = ok_in(dir.path(), &[&book[..], &["again.pdf"]].concat());
    assert!(
        catalogue_line(&log).contains("0 puzzles added (20 already there)"),
        "{log}"
    );
    assert_eq!(
        std::fs::read(dir.path().join("b1.pdf")).unwrap(),
        std::fs::read(dir.path().join("again.pdf")).unwrap()
    );
    // Edited (fewer puzzles, same seed): another book, whose puzzles are all new.
    flip_book(dir.path(), 10);
    let log = ok_in(dir.path(), &[&book[..], &["b2.pdf"]].concat());
    assert!(
        catalogue_line(&log).contains("10 puzzles added (0 already there)"),
        "{log}"
    );
}
