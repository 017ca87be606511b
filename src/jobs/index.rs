//! What a dated run leaves for people: `index.json` and `index.md` in its folder (the
//! outputs, their files and counts, and whether each file still matches the
//! manifest), and the retention of `keep = N`, which removes older date folders this
//! job made and nothing else.

use super::manifest::{self, Manifest};
use super::{Job, PUBLISHED};
use crate::output::{escaped, escaped_path, seal};
use crate::{Error, Result};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

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
    let text = seal::json(index.clone(), "seal");
    crate::output::write_atomic(&dir.join("index.json"), text.as_bytes())?;
    let md = seal::text(&markdown(&index), seal::MARKDOWN);
    crate::output::write_atomic(&dir.join("index.md"), md.as_bytes())?;
    Ok(index)
}

/// The line every `index.md` puzzlebook writes starts its second paragraph with.
const MD_MARK: &str = "Made by puzzlebook ";

/// Whether the file at `path` is the `index.json` puzzlebook wrote there, unchanged.
pub fn index_json_is_ours(path: &Path) -> bool {
    seal::json_file_ok(path, crate::limits::MAX_MANIFEST_BYTES)
}

/// Whether the file at `path` is the `index.md` puzzlebook wrote there, unchanged.
pub fn index_md_is_ours(path: &Path) -> bool {
    seal::text_file_ok(path, seal::MARKDOWN, crate::limits::MAX_MANIFEST_BYTES)
}

/// Refuse to run when the output folder holds an `index.json`, `index.md` or
/// `published.txt` that puzzlebook did not write, or that was changed since (the run
/// would replace it): a website's own index, say. Each file puzzlebook writes under
/// those names carries a seal over its bytes ([`seal`]); a phrase inside is not
/// enough. Checked before any work.
pub fn check_not_users(job: &Job, dir: &Path) -> Result<()> {
    // Each name, with how to tell the file puzzlebook wrote under it.
    type Ours = fn(&Path) -> bool;
    let mut names: Vec<(&str, Ours)> = Vec::new();
    if job.date.is_some() {
        names.push(("index.json", index_json_is_ours));
        names.push(("index.md", index_md_is_ours));
    }
    if job.catalogue.is_some() {
        names.push((PUBLISHED, super::published_is_ours));
    }
    for (name, ours) in names {
        let path = dir.join(name);
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        if !ours(&path) {
            return Err(Error::invalid(format!(
                "{} was not written by puzzlebook (or was changed since), and a run writes that name: move it, or choose another out_dir",
                escaped_path(&path)
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
    /// Date folders that would have gone but hold files puzzlebook did not make, files
    /// changed since it made them, or are in use: left whole, with why.
    pub kept: Vec<(PathBuf, String)>,
}

/// `keep = N`: of the folders beside `dir` that this job made for a date (a manifest
/// naming this job's path, with a date, in a folder named as `out_dir` names that
/// date's), keep the newest `keep` (the current run's always among them) and remove
/// the rest. A folder is removed only when every name in it is a file puzzlebook made
/// there and still holds what it made: each output's files with the manifest's
/// SHA-256 and size, the index files and `published.txt` with their seals, its own
/// lock files and the parts of this job's outputs. Anything else leaves the folder
/// whole, said so.
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
    let me = job.canonical.display().to_string();
    // (date, folder, manifest, made by an older version that does not name the job)
    let mut found: Vec<(super::date::RunDate, PathBuf, Manifest, bool)> = Vec::new();
    let rd = std::fs::read_dir(&parent).map_err(|e| Error::io("cannot list", &parent, e))?;
    for e in rd.flatten() {
        crate::interrupt::check()?;
        // Folders only, never through a link.
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let path = e.path();
        let Ok((m, sealed)) = Manifest::load_checked(&path.join("manifest.json")) else {
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
        if m.tool != "puzzlebook" || named.as_deref() != Some(&*e.file_name().to_string_lossy()) {
            continue;
        }
        // Another job's folder is none of this one's business; a manifest that does
        // not say whose it is, or was changed, keeps its folder.
        let legacy = match &m.job_path {
            Some(p) if *p == me => !sealed,
            Some(_) => continue,
            None if stem(&m.job) == mine => true,
            None => continue,
        };
        found.push((date, path, m, legacy));
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    let current = std::fs::canonicalize(dir).ok();
    let mut kept = 0u32;
    for (_, path, m, legacy) in found {
        let is_current = std::fs::canonicalize(&path).ok() == current;
        if is_current || kept < keep {
            kept += 1;
            continue;
        }
        if legacy {
            done.kept.push((
                path,
                "its manifest.json is not one this version of puzzlebook wrote, unchanged (an earlier version's, or edited), so what it lists cannot be trusted (remove the folder by hand if it is this job's); nothing was removed".into(),
            ));
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

/// Whether `name` is one of the lock files a run keeps in its output folder.
fn is_lock_name(name: &str) -> bool {
    name == ".puzzlebook.lock"
        || name
            .strip_prefix(".puzzlebook.shard-")
            .and_then(|r| r.strip_suffix(".lock"))
            .and_then(|r| r.split_once("-of-"))
            .is_some_and(|(k, n)| k.parse::<u64>().is_ok() && n.parse::<u64>().is_ok())
}

/// A lock file puzzlebook keeps: a small regular file, empty or naming its last
/// holder ("process 123 (...)"), that no run holds now (`held`: this process holds it
/// already). Returns it held, or why not.
fn own_lock(p: &Path, held: bool) -> std::result::Result<std::fs::File, &'static str> {
    let f = crate::output::open_regular(p).map_err(|_| "not a regular file")?;
    let mut text = String::new();
    let small = f.metadata().is_ok_and(|m| m.len() <= 256)
        && std::io::Read::read_to_string(&mut std::io::Read::take(&f, 257), &mut text).is_ok();
    let one_line = text.is_empty()
        || (text.starts_with("process ") && text.ends_with('\n') && text.lines().count() == 1);
    if !small || !one_line {
        return Err("not a lock file puzzlebook wrote");
    }
    if !held {
        f.try_lock().map_err(|_| "a run is using it")?;
    }
    Ok(f)
}

/// Whether `name` is a temporary file an interrupted write of one of `names` left
/// (`.NAME.tmp-PID-RANDOM`), no longer being written.
fn stale_temp(dir: &Path, name: &str, names: &[&str]) -> bool {
    let Some((target, _)) = name.strip_prefix('.').and_then(|n| n.rsplit_once(".tmp-")) else {
        return false;
    };
    names.contains(&target)
        && crate::output::open_regular(&dir.join(name)).is_ok_and(|f| f.try_lock().is_ok())
}

/// What retention may remove in a run folder: the files (manifest last), or a line
/// naming the files that keep the folder.
struct Plan {
    files: Vec<PathBuf>,
    parts: Option<PathBuf>,
    locks: Vec<std::fs::File>,
    foreign: Vec<String>,
}

impl Plan {
    fn refuse(&mut self, name: &str, why: &str) {
        self.foreign.push(format!("{} ({why})", escaped(name)));
    }
}

/// Look at every name in the run folder `path` (manifest `m`): which are puzzlebook's
/// own, unchanged, and which are not.
fn plan_removal(path: &Path, m: &Manifest) -> Result<Plan> {
    let mut plan = Plan {
        files: Vec::new(),
        parts: None,
        locks: Vec::new(),
        foreign: Vec::new(),
    };
    let own_names: Vec<&str> = m
        .outputs
        .iter()
        .map(|e| e.file.as_str())
        .chain(["manifest.json", "index.json", "index.md", PUBLISHED])
        .collect();
    if m.outputs.iter().any(|e| !manifest::plain_name(&e.file)) {
        plan.refuse("manifest.json", "it names a file outside the folder");
    }
    let rd = std::fs::read_dir(path).map_err(|e| Error::io("cannot list", path, e))?;
    for e in rd.flatten() {
        crate::interrupt::check()?;
        let name = e.file_name().to_string_lossy().into_owned();
        let p = e.path();
        let regular = e.file_type().is_ok_and(|t| t.is_file());
        if name == "parts" && e.file_type().is_ok_and(|t| t.is_dir()) {
            plan_parts(&p, m, &mut plan)?;
            continue;
        }
        if !regular {
            plan.refuse(&name, "not a regular file");
            continue;
        }
        let listed: Vec<&manifest::Entry> = m.outputs.iter().filter(|o| o.file == name).collect();
        let ok = match name.as_str() {
            "manifest.json" => Ok(()),
            "index.json" if index_json_is_ours(&p) => Ok(()),
            "index.md" if index_md_is_ours(&p) => Ok(()),
            PUBLISHED if super::published_is_ours(&p) => Ok(()),
            "index.json" | "index.md" | PUBLISHED => {
                Err("not written by puzzlebook, or changed since")
            }
            n if is_lock_name(n) => {
                own_lock(&p, n == ".puzzlebook.lock").map(|f| plan.locks.push(f))
            }
            n if stale_temp(path, n, &own_names) => Ok(()),
            _ if !listed.is_empty() => {
                if listed.iter().any(|o| manifest_matches(&p, o)) {
                    Ok(())
                } else {
                    Err("changed since puzzlebook made it")
                }
            }
            _ => Err("not a file puzzlebook made"),
        };
        match ok {
            Ok(()) if name != "manifest.json" => plan.files.push(p),
            Ok(()) => {}
            Err(why) => plan.refuse(&name, why),
        }
    }
    Ok(plan)
}

/// Whether the file at `p` still has the manifest entry's SHA-256 and size.
fn manifest_matches(p: &Path, e: &manifest::Entry) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|md| md.len() == e.bytes)
        && manifest::file_sha256(p).is_ok_and(|(h, n)| h == e.sha256 && n == e.bytes)
}

/// The `parts` folder of a run folder: its part files of this manifest's outputs
/// (whole, unchanged: their end lines match, and made for an output's configuration),
/// shard locks and stale temporary files are puzzlebook's.
fn plan_parts(dir: &Path, m: &Manifest, plan: &mut Plan) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io("cannot list", dir, e))?;
    let mut files = Vec::new();
    for e in rd.flatten() {
        crate::interrupt::check()?;
        let name = e.file_name().to_string_lossy().into_owned();
        let shown = format!("parts/{name}");
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            plan.refuse(&shown, "not a regular file");
            continue;
        }
        let p = e.path();
        let part_of = m
            .outputs
            .iter()
            .find(|o| name.starts_with(&format!("{}.part-", o.output)));
        let ok = if is_lock_name(&name) {
            own_lock(&p, false).map(|f| plan.locks.push(f))
        } else if part_of.is_some() {
            let whole = super::part::PartFile::open(&p).is_ok_and(|mut f| {
                f.header
                    .job_output
                    .as_deref()
                    .is_some_and(|c| m.outputs.iter().any(|e| e.config_sha256 == c))
                    && f.check_whole().is_ok()
            });
            if whole {
                Ok(())
            } else {
                Err("a part that is cut off or changed, or made for another configuration")
            }
        } else if name.starts_with('.') && name.contains(".tmp-") {
            // A temporary part file an interrupted shard left.
            let live = crate::output::open_regular(&p).map_or(true, |f| f.try_lock().is_err());
            if live {
                Err("a file being written")
            } else {
                Ok(())
            }
        } else {
            Err("not a file puzzlebook made")
        };
        match ok {
            Ok(()) => files.push(p),
            Err(why) => plan.refuse(&shown, why),
        }
    }
    plan.files.extend(files);
    plan.parts = Some(dir.to_path_buf());
    Ok(())
}

/// Remove what puzzlebook made in one run folder and the folder, when everything in
/// it is puzzlebook's own and unchanged. Some(reason): the folder was left whole.
fn remove_run_folder(path: &Path, m: &Manifest) -> Result<Option<String>> {
    // A run using the folder now holds its lock: leave the folder alone.
    let lock = path.join(".puzzlebook.lock");
    let _held = match crate::output::open_regular(&lock) {
        Ok(f) if f.try_lock().is_err() => return Ok(Some("a run is using it".into())),
        held => held.ok(),
    };
    let plan = plan_removal(path, m)?;
    if !plan.foreign.is_empty() {
        let n = plan.foreign.len();
        let mut names: Vec<String> = plan.foreign.into_iter().take(5).collect();
        if n > 5 {
            names.push(format!("and {} more", n - 5));
        }
        return Ok(Some(format!(
            "it holds what puzzlebook did not make there, or changed since: {}; nothing was removed",
            names.join(", ")
        )));
    }
    for f in &plan.files {
        crate::interrupt::check()?;
        // The outputs again, just before each goes: still what the manifest says.
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
        let entry = m.outputs.iter().find(|e| Some(&e.file) == name.as_ref());
        let in_parts = f.parent() != Some(path);
        if let (Some(e), false) = (entry, in_parts) {
            if !manifest_matches(f, e) {
                return Ok(Some(format!(
                    "{} changed while retention looked at it; it and what is left of the folder stay",
                    escaped(&e.file)
                )));
            }
        }
        std::fs::remove_file(f).map_err(|e| Error::io("cannot remove", f, e))?;
    }
    if let Some(parts) = &plan.parts {
        let _ = std::fs::remove_dir(parts);
    }
    let mpath = path.join("manifest.json");
    std::fs::remove_file(&mpath).map_err(|e| Error::io("cannot remove", &mpath, e))?;
    drop(plan.locks);
    match std::fs::remove_dir(path) {
        Ok(()) => Ok(None),
        Err(_) => Ok(Some(
            "something appeared in it while retention removed its files: the folder stays".into(),
        )),
    }
}
