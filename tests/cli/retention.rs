//! `keep = N` removes only what puzzlebook made, unchanged: a date folder with a
//! hand-edited output, a person's own index or notes, a file a forged manifest names
//! or a `published.txt` puzzlebook never writes is left whole with a line saying why;
//! `--out-dir` turns retention off; a sharded date's folder (its shard locks, parts)
//! goes like any other.

use crate::common::*;
use std::path::{Path, PathBuf};

const JOB: &str = r#"seed = "date"
out_dir = "../feed/{date}"
keep = 1

[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 3
params = { size = 4 }
"#;

/// A JSON text whose seal (`"puzzlebook-seal:" + 64 hex digits`, the SHA-256 of the
/// text with those digits as zeros) is made right again after an edit: what a forger
/// who read the format would do.
fn reseal(text: &str) -> String {
    let mark = "puzzlebook-seal:";
    let at = text.find(mark).expect("a seal") + mark.len();
    let blank = format!("{}{}{}", &text[..at], "0".repeat(64), &text[at + 64..]);
    format!(
        "{}{}{}",
        &text[..at],
        sha256_hex(blank.as_bytes()),
        &text[at + 64..]
    )
}

/// Add `entry` (changed by `edit`) to the manifest at `mpath`; `seal`: make its seal
/// right again.
fn forge(mpath: &Path, edit: impl Fn(&mut serde_json::Value), seal: bool) {
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(mpath).unwrap()).unwrap();
    let mut entry = m["outputs"][0].clone();
    edit(&mut entry);
    m["outputs"].as_array_mut().unwrap().push(entry);
    let text = serde_json::to_string_pretty(&m).unwrap() + "\n";
    std::fs::write(mpath, if seal { reseal(&text) } else { text }).unwrap();
}

fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = bin().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder with `jobs/daily.toml` (keep = 1); the feed is `feed/DATE`.
fn setup(job: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let jobs = dir.path().join("jobs");
    std::fs::create_dir_all(&jobs).unwrap();
    std::fs::write(jobs.join("daily.toml"), job).unwrap();
    (dir, jobs)
}

fn ok_run(jobs: &Path, args: &[&str]) -> String {
    let (code, log) = run_in(jobs, args);
    assert_eq!(code, Some(0), "{args:?}: {log}");
    log
}

/// Every file under `dir` with its bytes (to see that nothing changed).
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// The line retention writes for a folder it left, if any.
fn left_line<'a>(log: &'a str, folder: &str) -> Option<&'a str> {
    log.lines()
        .find(|l| l.starts_with("left ") && l.contains(folder))
}

#[test]
fn retention_removes_only_what_puzzlebook_made_and_leaves_the_rest_whole() {
    let (dir, jobs) = setup(JOB);
    let feed = dir.path().join("feed");
    // Seven dates; retention (keep = 1) runs after each, so keep a copy of each folder
    // and put the copies back before the last run, each altered in its own way.
    let dates = [
        "2026-11-01",
        "2026-11-02",
        "2026-11-03",
        "2026-11-04",
        "2026-11-05",
        "2026-11-06",
        "2026-11-07",
    ];
    let saved = dir.path().join("saved");
    std::fs::create_dir(&saved).unwrap();
    for d in dates {
        ok_run(&jobs, &["run", "daily.toml", "--date", d]);
        let from = feed.join(d);
        let to = saved.join(d);
        std::fs::create_dir(&to).unwrap();
        for e in std::fs::read_dir(&from).unwrap().flatten() {
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    // Only the newest is left by retention itself.
    assert_eq!(files_in(&feed), ["2026-11-07"]);
    for d in &dates[..6] {
        std::fs::rename(saved.join(d), feed.join(d)).unwrap();
    }
    let at = |d: &str, f: &str| feed.join(d).join(f);
    // 11-01: an output edited by hand.
    let mut edited = std::fs::read(at("2026-11-01", "flip.jsonl")).unwrap();
    edited.extend_from_slice(b"{\"my\": \"note\"}\n");
    std::fs::write(at("2026-11-01", "flip.jsonl"), edited).unwrap();
    // 11-02: the person's own index.md (no mark at all), and their index.json.
    std::fs::write(at("2026-11-02", "index.md"), "# My feed\n").unwrap();
    std::fs::write(at("2026-11-02", "index.json"), "{\"mine\": true}\n").unwrap();
    // 11-03: a published.txt, which this job (no catalogue) never writes.
    std::fs::write(at("2026-11-03", "published.txt"), "my list\n").unwrap();
    // 11-04: a manifest edited to name the person's thesis, its SHA-256 and size
    // right: the manifest no longer carries its seal.
    let thesis = b"Chapter 1\n".to_vec();
    std::fs::write(at("2026-11-04", "thesis.docx"), &thesis).unwrap();
    forge(
        &at("2026-11-04", "manifest.json"),
        |e| {
            e["file"] = "thesis.docx".into();
            e["sha256"] = sha256_hex(&thesis).into();
            e["bytes"] = thesis.len().into();
        },
        false,
    );
    // 11-06: a forged manifest with its seal made right, naming another file with a
    // digest that is not its own.
    std::fs::write(at("2026-11-06", "thesis2.docx"), &thesis).unwrap();
    forge(
        &at("2026-11-06", "manifest.json"),
        |e| {
            e["file"] = "thesis2.docx".into();
            e["bytes"] = thesis.len().into();
        },
        true,
    );
    // 11-05: the person's notes beside the outputs.
    std::fs::write(at("2026-11-05", "notes.txt"), "to do\n").unwrap();
    // 11-07: nothing changed: it goes.
    let before: Vec<_> = dates[..6]
        .iter()
        .map(|d| (d, snapshot(&feed.join(d))))
        .collect();
    let log = ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-08"]);
    assert!(!feed.join("2026-11-07").exists(), "{log}");
    assert!(
        log.contains("removed ") && log.contains("2026-11-07"),
        "{log}"
    );
    for (d, snap) in before {
        assert!(feed.join(d).is_dir(), "{d} removed: {log}");
        assert_eq!(snapshot(&feed.join(d)), snap, "{d} changed: {log}");
    }
    let why = |d: &str| left_line(&log, d).unwrap_or_else(|| panic!("no line for {d}: {log}"));
    assert!(why("2026-11-01").contains("flip.jsonl (changed since puzzlebook made it)"));
    assert!(why("2026-11-02").contains("index.md (not written by puzzlebook"));
    assert!(why("2026-11-02").contains("index.json (not written by puzzlebook"));
    assert!(why("2026-11-03").contains("published.txt (not written by puzzlebook"));
    assert!(why("2026-11-04")
        .contains("manifest.json was changed since puzzlebook wrote it (its seal does not hold)"));
    assert!(why("2026-11-06").contains("thesis2.docx (changed since puzzlebook made it)"));
    assert!(why("2026-11-05").contains("notes.txt (not a file puzzlebook made)"));
    for d in ["2026-11-01", "2026-11-04", "2026-11-05", "2026-11-06"] {
        assert!(why(d).ends_with("nothing was removed"), "{}", why(d));
    }
}

#[test]
fn a_folder_whose_manifest_names_a_file_outside_it_is_left_whole() {
    let (dir, jobs) = setup(JOB);
    let feed = dir.path().join("feed");
    ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-01"]);
    let old = feed.join("2026-11-01");
    // The manifest, sealed again, names ../outside.txt; that file has what the entry
    // says.
    let outside = feed.join("outside.txt");
    std::fs::write(&outside, b"x").unwrap();
    forge(
        &old.join("manifest.json"),
        |e| {
            e["file"] = "../outside.txt".into();
            e["sha256"] = sha256_hex(b"x").into();
            e["bytes"] = 1.into();
        },
        true,
    );
    let snap = snapshot(&old);
    let log = ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-02"]);
    assert_eq!(snapshot(&old), snap, "{log}");
    assert!(outside.exists());
    assert!(left_line(&log, "2026-11-01")
        .is_some_and(|l| l.contains("names a file outside the folder")));
}

#[test]
fn out_dir_on_the_command_line_turns_retention_off_and_says_so() {
    let (dir, jobs) = setup(JOB);
    let feed = dir.path().join("feed");
    let archive = dir.path().join("archive");
    std::fs::create_dir(&archive).unwrap();
    // Backups: the feed's folders for two dates, copied into archive/ by the person.
    for d in ["2026-11-01", "2026-11-02"] {
        ok_run(&jobs, &["run", "daily.toml", "--date", d]);
        std::fs::create_dir(archive.join(d)).unwrap();
        for e in std::fs::read_dir(feed.join(d)).unwrap().flatten() {
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), archive.join(d).join(e.file_name())).unwrap();
            }
        }
    }
    let snap = snapshot(&archive);
    let log = ok_run(
        &jobs,
        &[
            "run",
            "daily.toml",
            "--date",
            "2026-11-03",
            "--out-dir",
            archive.join("scratch").to_str().unwrap(),
        ],
    );
    assert!(
        log.contains("keep = 1: nothing removed, as --out-dir names the output folder"),
        "{log}"
    );
    let after: Vec<_> = snapshot(&archive)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(archive.join("scratch")))
        .collect();
    assert_eq!(after, snap, "{log}");
    // The job's own feed is untouched too.
    assert_eq!(files_in(&feed), ["2026-11-02"]);
}

#[test]
fn an_index_with_the_words_of_a_puzzlebook_index_is_still_the_users() {
    let (dir, jobs) = setup(JOB);
    let site = dir.path().join("feed").join("2026-11-01");
    std::fs::create_dir_all(&site).unwrap();
    let mine = "# daily for 2026-11-01\n\nMade by puzzlebook 0.1.0. Every file matches the manifest.\n\nMy own words.\n";
    std::fs::write(site.join("index.md"), mine).unwrap();
    let (code, log) = run_in(&jobs, &["run", "daily.toml", "--date", "2026-11-01"]);
    assert_eq!(code, Some(1), "{log}");
    assert!(
        log.contains("index.md was not written by puzzlebook"),
        "{log}"
    );
    assert_eq!(
        std::fs::read_to_string(site.join("index.md")).unwrap(),
        mine
    );
    // A copy of puzzlebook's own index, changed by one byte, is the user's too.
    std::fs::remove_file(site.join("index.md")).unwrap();
    ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-01"]);
    let ours = std::fs::read_to_string(site.join("index.md")).unwrap();
    let changed = ours.replacen("daily", "Daily", 1);
    std::fs::write(site.join("index.md"), &changed).unwrap();
    let (code, log) = run_in(
        &jobs,
        &["run", "daily.toml", "--date", "2026-11-01", "--force"],
    );
    assert_eq!(code, Some(1), "{log}");
    assert_eq!(
        std::fs::read_to_string(site.join("index.md")).unwrap(),
        changed
    );
    // Its own, unchanged, is replaced by a rerun as before.
    std::fs::write(site.join("index.md"), &ours).unwrap();
    ok_run(
        &jobs,
        &["run", "daily.toml", "--date", "2026-11-01", "--force"],
    );
}

#[test]
fn a_sharded_dates_folder_goes_like_any_other() {
    let (dir, jobs) = setup(JOB);
    let feed = dir.path().join("feed");
    for shard in ["0/2", "1/2"] {
        ok_run(
            &jobs,
            &[
                "run",
                "daily.toml",
                "--date",
                "2026-11-01",
                "--shard",
                shard,
            ],
        );
    }
    ok_run(
        &jobs,
        &["run", "daily.toml", "--date", "2026-11-01", "--merge"],
    );
    let names = files_in(&feed.join("2026-11-01"));
    assert!(
        names.iter().any(|n| n.starts_with(".puzzlebook.shard-")),
        "{names:?}"
    );
    assert!(names.contains(&"parts".to_string()), "{names:?}");
    let log = ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-02"]);
    assert!(!feed.join("2026-11-01").exists(), "{log}");
    assert!(left_line(&log, "2026-11-01").is_none(), "{log}");
}

/// The job the folder in `tests/data/earlier-version-folder` was made by (version
/// 0.1.0 before seals, `run daily.toml --date 2026-11-01`; its lock file left out).
const EARLIER_JOB: &str = r#"seed = "date"
out_dir = "../feed/{date}"
catalogue = "../feed/catalogue.txt"
keep = 1

[[output]]
name = "flip.jsonl"
kind = "items"
game = "flip"
count = 3
params = { size = 4 }
"#;

#[test]
fn an_earlier_versions_folder_goes_only_while_its_index_vouches_for_it() {
    let fixture = root().join("tests/data/earlier-version-folder");
    // (what to do to the folder, whether retention may remove it, what the line says)
    type Change = fn(&Path);
    let cases: [(&str, Change, Option<&str>); 4] = [
        ("as that version left it", |_| {}, None),
        (
            "its index.json gone",
            |d| std::fs::remove_file(d.join("index.json")).unwrap(),
            Some("an earlier version's manifest without the index.json it wrote beside it"),
        ),
        (
            "its index.md edited",
            |d| {
                let mut t = std::fs::read_to_string(d.join("index.md")).unwrap();
                t.push_str("My note.\n");
                std::fs::write(d.join("index.md"), t).unwrap();
            },
            Some("index.md (not written by puzzlebook, or changed since)"),
        ),
        (
            "its manifest edited to list the person's file, with its digest",
            |d| {
                let thesis = b"Chapter 1\n";
                std::fs::write(d.join("thesis.docx"), thesis).unwrap();
                let path = d.join("manifest.json");
                let mut m: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let mut e = m["outputs"][0].clone();
                e["file"] = "thesis.docx".into();
                e["sha256"] = sha256_hex(thesis).into();
                e["bytes"] = thesis.len().into();
                m["outputs"].as_array_mut().unwrap().push(e);
                std::fs::write(&path, serde_json::to_string_pretty(&m).unwrap()).unwrap();
            },
            Some("index.json (not written by puzzlebook, or changed since)"),
        ),
    ];
    for (what, change, kept) in cases {
        let (dir, jobs) = setup(EARLIER_JOB);
        let old = dir.path().join("feed/2026-11-01");
        std::fs::create_dir_all(&old).unwrap();
        for e in std::fs::read_dir(&fixture).unwrap().flatten() {
            std::fs::copy(e.path(), old.join(e.file_name())).unwrap();
        }
        change(&old);
        let before = snapshot(&old);
        let log = ok_run(&jobs, &["run", "daily.toml", "--date", "2026-11-02"]);
        match kept {
            None => {
                assert!(!old.exists(), "{what}: {log}");
                assert!(
                    log.contains("removed ") && log.contains("2026-11-01"),
                    "{what}: {log}"
                );
            }
            Some(why) => {
                assert_eq!(snapshot(&old), before, "{what}: {log}");
                let line = left_line(&log, "2026-11-01")
                    .unwrap_or_else(|| panic!("{what}: no line: {log}"));
                assert!(line.contains(why), "{what}: {line}");
            }
        }
    }
}
