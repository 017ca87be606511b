//! What a dated run leaves for people: `index.json` and `index.md` in its folder (the
//! outputs, their files and counts, and whether each file still matches the
//! manifest), and the retention of `keep = N`, which removes older date folders this
//! job made and nothing else.

use super::manifest::{self, Manifest};
use super::{Job, PUBLISHED};
use crate::{Error, Result};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Files of a run folder puzzlebook writes besides the outputs.
const OWN_FILES: &[&str] = &[
    "manifest.json",
    PUBLISHED,
    "index.json",
    "index.md",
    ".puzzlebook.lock",
];

/// Write `index.json` and `index.md` into `dir` from its manifest: every output with
/// its files, sizes, items and whether each file's SHA-256 and size match the
/// manifest now (read back, not assumed). `catalogue`: (the catalogue as the job
/// names it, the puzzles this date published into it). Nothing in it depends on how
/// often the date was run, so a rerun leaves the same bytes.
pub fn write(job: &Job, dir: &Path, catalogue: Option<(&Path, usize)>) -> Result<Value> {
    let m = Manifest::load(&dir.join("manifest.json"))?;
    let mut outputs = Vec::new();
    let mut all_ok = true;
    for o in &job.outputs {
        let entries = m.entries(&o.name);
        let files: Vec<Value> = entries
            .iter()
            .map(|e| {
                let ok = manifest::file_sha256(&dir.join(&e.file))
                    .is_ok_and(|(h, n)| h == e.sha256 && n == e.bytes);
                all_ok &= ok;
                json!({"file": e.file, "bytes": e.bytes, "sha256": e.sha256, "verified": ok})
            })
            .collect();
        all_ok &= !files.is_empty();
        outputs.push(json!({
            "name": o.name,
            "kind": o.spec.kind(),
            "items": entries.first().map_or(0, |e| e.items),
            "seed": entries.first().map(|e| e.seed),
            "files": files,
        }));
    }
    let mut index = json!({
        "tool": "puzzlebook",
        "version": crate::VERSION,
        "job": job.path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "date": job.date,
        "outputs": outputs,
        "verified": all_ok,
    });
    if let Some((path, published)) = catalogue {
        index["catalogue"] = json!({
            "file": path.display().to_string(),
            "published": published,
        });
    }
    let text = serde_json::to_string_pretty(&index).expect("serialises") + "\n";
    crate::output::write_atomic(&dir.join("index.json"), text.as_bytes())?;
    crate::output::write_atomic(&dir.join("index.md"), markdown(&index).as_bytes())?;
    Ok(index)
}

/// The line every `index.md` puzzlebook writes starts its second paragraph with.
const MD_MARK: &str = "Made by puzzlebook ";

/// Refuse to run when the output folder holds an `index.json`, `index.md` or
/// `published.txt` that puzzlebook did not write (the run would replace it): a
/// website's own index, say. Checked before any work.
pub fn check_not_users(job: &Job, dir: &Path) -> Result<()> {
    // Each name, with how to tell a file puzzlebook wrote under it.
    type Ours = fn(&str) -> bool;
    let mut names: Vec<(&str, Ours)> = Vec::new();
    if job.date.is_some() {
        names.push(("index.json", |t| {
            serde_json::from_str::<Value>(t).is_ok_and(|v| v["tool"] == "puzzlebook")
        }));
        names.push(("index.md", |t| t.lines().any(|l| l.starts_with(MD_MARK))));
    }
    if job.catalogue.is_some() {
        names.push((PUBLISHED, |t| t.starts_with(super::PUBLISHED_HEADER)));
    }
    for (name, ours) in names {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        // Read without counting it as an input (the run is about to replace it).
        let text = crate::output::open_regular(&path).ok().and_then(|f| {
            let mut b = Vec::new();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(f, crate::limits::MAX_MANIFEST_BYTES),
                &mut b,
            )
            .ok()?;
            String::from_utf8(b).ok()
        });
        if !text.as_deref().is_some_and(ours) {
            return Err(Error::invalid(format!(
                "{} was not written by puzzlebook, and a run writes that name: move it, or choose another out_dir",
                path.display()
            )));
        }
    }
    Ok(())
}

/// The index as a short Markdown page.
fn markdown(index: &Value) -> String {
    let job = index["job"].as_str().unwrap_or("job");
    let mut s = match index["date"].as_str() {
        Some(d) => format!("# {job} for {d}\n\n"),
        None => format!("# {job}\n\n"),
    };
    s += &format!(
        "{MD_MARK}{}. Every file {} the manifest (SHA-256 and size, read back after the run).\n\n",
        index["version"].as_str().unwrap_or(""),
        if index["verified"] == true {
            "matches"
        } else {
            "is listed below with whether it matches"
        }
    );
    s += "| output | kind | items | file | bytes | verified |\n|---|---|---:|---|---:|---|\n";
    for o in index["outputs"].as_array().into_iter().flatten() {
        for f in o["files"].as_array().into_iter().flatten() {
            s += &format!(
                "| {} | {} | {} | [{}]({}) | {} | {} |\n",
                md_cell(o["name"].as_str().unwrap_or("")),
                o["kind"].as_str().unwrap_or(""),
                o["items"],
                md_cell(f["file"].as_str().unwrap_or("")),
                f["file"].as_str().unwrap_or("").replace(' ', "%20"),
                f["bytes"],
                if f["verified"] == true { "yes" } else { "NO" }
            );
        }
    }
    if let Some(c) = index.get("catalogue") {
        s += &format!(
            "\nCatalogue `{}`: holds the {} puzzles published here (`published.txt`); none was published before.\n",
            c["file"].as_str().unwrap_or(""),
            c["published"]
        );
    }
    s
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}

/// What retention did.
#[derive(Debug, Default)]
pub struct Retained {
    /// Date folders removed.
    pub removed: Vec<PathBuf>,
    /// Date folders that would have gone but hold files puzzlebook did not make (or
    /// are in use): left as they are.
    pub kept: Vec<(PathBuf, String)>,
}

/// `keep = N`: of the folders beside `dir` that this job made for a date (a manifest
/// of this job's name with a date, in a folder named as `out_dir` names that date's),
/// keep the newest `keep` (the current run's always among them) and remove the rest.
/// Only files puzzlebook made there are removed (each output's files as the manifest
/// lists them, the manifest, index and lock files, the parts); a folder holding
/// anything else is left with those files and said so.
pub fn retain(job: &Job, dir: &Path, pattern: &str, keep: u32) -> Result<Retained> {
    let mut done = Retained::default();
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem = |p: &str| {
        Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    };
    let mine = stem(&job.path.to_string_lossy());
    let mut found: Vec<(super::date::RunDate, PathBuf, Manifest)> = Vec::new();
    let rd = std::fs::read_dir(&parent).map_err(|e| Error::io("cannot list", &parent, e))?;
    for e in rd.flatten() {
        // Folders only, never through a link.
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = e.path();
        let Ok(m) = Manifest::load(&path.join("manifest.json")) else {
            continue;
        };
        let Some(date) = m
            .date
            .as_deref()
            .and_then(|d| super::date::RunDate::parse(d).ok())
        else {
            continue;
        };
        let named = date.expand(pattern).ok();
        if m.tool != "puzzlebook"
            || stem(&m.job) != mine
            || named.as_deref() != Some(&*e.file_name().to_string_lossy())
        {
            continue;
        }
        found.push((date, path, m));
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    let current = std::fs::canonicalize(dir).ok();
    let mut kept = 0u32;
    for (_, path, m) in found {
        let is_current = std::fs::canonicalize(&path).ok() == current;
        if is_current || kept < keep {
            kept += 1;
            continue;
        }
        match remove_run_folder(&path, &m) {
            Ok(None) => done.removed.push(path),
            Ok(Some(why)) => done.kept.push((path, why)),
            Err(e) => done.kept.push((path, e.to_string())),
        }
    }
    Ok(done)
}

/// Remove what puzzlebook made in one run folder, then the folder if nothing else is
/// left. Some(reason): the folder was left.
fn remove_run_folder(path: &Path, m: &Manifest) -> Result<Option<String>> {
    // A run using the folder now holds its lock: leave the folder alone.
    let lock = path.join(".puzzlebook.lock");
    let _held = match crate::output::open_regular(&lock) {
        Ok(f) if f.try_lock().is_err() => return Ok(Some("a run is using it".into())),
        held => held.ok(),
    };
    let mut names: Vec<String> = m.outputs.iter().map(|e| e.file.clone()).collect();
    names.extend(OWN_FILES.iter().map(|s| s.to_string()));
    for name in &names {
        // Only plain names inside the folder, only regular files (never a link's target).
        if name.contains(['/', '\\']) || name.starts_with("..") {
            continue;
        }
        let p = path.join(name);
        if std::fs::symlink_metadata(&p).is_ok_and(|md| md.is_file()) {
            std::fs::remove_file(&p).map_err(|e| Error::io("cannot remove", &p, e))?;
        }
    }
    let parts = path.join("parts");
    if std::fs::symlink_metadata(&parts).is_ok_and(|md| md.is_dir()) {
        if let Ok(rd) = std::fs::read_dir(&parts) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                let ours = m
                    .outputs
                    .iter()
                    .any(|o| n.starts_with(&format!("{}.part-", o.output)))
                    || (n.starts_with(".puzzlebook.shard-") && n.ends_with(".lock"));
                if ours && e.file_type().is_ok_and(|t| t.is_file()) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        let _ = std::fs::remove_dir(&parts);
    }
    match std::fs::remove_dir(path) {
        Ok(()) => Ok(None),
        Err(_) => Ok(Some(
            "it holds files puzzlebook did not make: they were left, with the folder".into(),
        )),
    }
}
