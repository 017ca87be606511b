//! `keep = N`: the retention of a dated job's folders. After a whole run, the job's
//! date folders beyond the newest N are removed, each only when every name in it is
//! puzzlebook's own and unchanged; anything else leaves the folder whole, said so.
//!
//! Everything here goes through handles of the folders looked at (`openat`, `unlinkat`,
//! never following a link): a folder renamed or swapped for a link while retention
//! works on it is never followed, so nothing outside the folders it checked is read
//! or removed.

use super::index::{self, OwnName};
use super::manifest::{self, Manifest};
use super::Job;
use crate::game::Registry;
use crate::output::escaped;
use crate::{Error, Result};
use rustix::fd::OwnedFd;
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// What retention did.
#[derive(Debug, Default)]
pub struct Retained {
    /// Date folders removed.
    pub removed: Vec<PathBuf>,
    /// Date folders that would have gone but hold files puzzlebook did not make, files
    /// changed since it made them, or are in use: left whole, with why.
    pub kept: Vec<(PathBuf, String)>,
}

/// Files an operating system's file browser leaves in folders it shows (view
/// settings, thumbnails): not anyone's work, so they do not keep a folder.
const LITTER: [&str; 2] = [".DS_Store", "Thumbs.db"];

/// An open folder, read and changed only through its handle.
struct Folder {
    fd: OwnedFd,
    /// Its path, for messages.
    shown: PathBuf,
}

impl Folder {
    /// Open the folder at `path` (following links on the way, as the user named it).
    fn open(path: &Path) -> std::io::Result<Folder> {
        let fd = rustix::fs::open(
            path,
            OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Folder {
            fd,
            shown: path.to_path_buf(),
        })
    }

    /// The folder `name` inside this one, never through a link.
    fn sub(&self, name: &OsStr) -> std::io::Result<Folder> {
        let fd = rustix::fs::openat(
            &self.fd,
            name,
            OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Folder {
            fd,
            shown: self.shown.join(name),
        })
    }

    /// (device, inode) of this folder.
    fn id(&self) -> Option<(u64, u64)> {
        rustix::fs::fstat(&self.fd)
            .ok()
            .map(|s| (s.st_dev, s.st_ino))
    }

    /// What `name` is here, without following a link.
    fn kind(&self, name: &OsStr) -> Option<FileType> {
        rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|s| FileType::from_raw_mode(s.st_mode))
    }

    /// The regular file `name` here, open for reading (never through a link, never
    /// blocking on a FIFO).
    fn file(&self, name: &str) -> Option<std::fs::File> {
        let fd = rustix::fs::openat(
            &self.fd,
            name,
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        let f = std::fs::File::from(fd);
        f.metadata().is_ok_and(|m| m.is_file()).then_some(f)
    }

    /// The names in this folder (not `.` and `..`).
    fn names(&self) -> Result<Vec<std::ffi::OsString>> {
        let dir = rustix::fs::Dir::read_from(&self.fd)
            .map_err(|e| Error::io("cannot list", &self.shown, e.into()))?;
        let mut out = Vec::new();
        for e in dir {
            let e = e.map_err(|e| Error::io("cannot list", &self.shown, e.into()))?;
            let n = OsStr::from_bytes(e.file_name().to_bytes());
            if n != "." && n != ".." {
                out.push(n.to_os_string());
            }
        }
        Ok(out)
    }

    fn remove_file(&self, name: &OsStr) -> Result<()> {
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())
            .map_err(|e| Error::io("cannot remove", self.shown.join(name), e.into()))
    }

    fn remove_dir(&self, name: &OsStr) -> std::io::Result<()> {
        rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR).map_err(Into::into)
    }
}

/// `keep = N`: of the folders beside `dir` that this job made for a date (a manifest
/// naming this job's path, or from an earlier version this job's file name, with a
/// date, in a folder named as `out_dir` names that date's), keep the newest `keep`
/// (the current run's always among them) and remove the rest. A folder is removed
/// only when every name in it is a file puzzlebook made there and still holds what it
/// made: each output's files with the manifest's SHA-256 and size, the index files and
/// `published.txt` with their seals (or, an earlier version's, exactly what it wrote),
/// its own lock files and the parts of this job's outputs. Anything else leaves the
/// folder whole, said so.
pub fn retain<R: Registry>(job: &Job, dir: &Path, pattern: &str, keep: u32) -> Result<Retained> {
    let mut done = Retained::default();
    let parent_path = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let parent =
        Folder::open(&parent_path).map_err(|e| Error::io("cannot list", &parent_path, e))?;
    let stem = |p: &str| {
        Path::new(p)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
    };
    let mine = stem(&job.path.to_string_lossy());
    let me = job.canonical.display().to_string();
    let current = Folder::open(dir).ok().and_then(|f| f.id());
    struct Found {
        date: super::date::RunDate,
        folder: Folder,
        name: std::ffi::OsString,
        manifest: Manifest,
        /// Why it may not be looked into, if so.
        untrusted: Option<String>,
    }
    let mut found: Vec<Found> = Vec::new();
    for name in parent.names()? {
        crate::interrupt::check()?;
        // Folders only, never through a link.
        let Ok(folder) = parent.sub(&name) else {
            continue;
        };
        let Some((m, sealed)) = folder
            .file("manifest.json")
            .and_then(|f| Manifest::from_file(f, &folder.shown.join("manifest.json")).ok())
        else {
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
        if m.tool != "puzzlebook" || named.as_deref().map(OsStr::new) != Some(name.as_os_str()) {
            continue;
        }
        // Another job's folder is none of this one's business; a manifest that was
        // changed keeps its folder.
        let untrusted = match &m.job_path {
            Some(p) if *p == me && sealed => None,
            Some(p) if *p == me => Some(
                "its manifest.json was changed since puzzlebook wrote it (its seal does not hold), so what it lists cannot be trusted (remove the folder by hand if it is this job's); nothing was removed".to_string(),
            ),
            Some(p) if stem(p) == mine && !Path::new(p).exists() => Some(format!(
                "its manifest names the job file {}, which is no longer there (was this job moved? remove the folder by hand if it is this job's); nothing was removed",
                escaped(p)
            )),
            Some(_) => continue,
            None if index::is_legacy(&m) && stem(&m.job) == mine => None,
            None => continue,
        };
        found.push(Found {
            date,
            folder,
            name,
            manifest: m,
            untrusted,
        });
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.date));
    let mut kept = 0u32;
    for f in found {
        let is_current = f.folder.id().is_some() && f.folder.id() == current;
        if is_current || kept < keep {
            kept += 1;
            continue;
        }
        let path = f.folder.shown.clone();
        if let Some(why) = f.untrusted {
            done.kept.push((path, why));
            continue;
        }
        match remove_run_folder::<R>(&parent, &f.name, &f.folder, &f.manifest) {
            Ok(None) => done.removed.push(path),
            Ok(Some(why)) => done.kept.push((path, why)),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
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
fn own_lock(f: std::fs::File, held: bool) -> std::result::Result<std::fs::File, &'static str> {
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

/// Whether `name` is a temporary file an interrupted write of one of `names` left,
/// named exactly as puzzlebook names them (`.NAME.tmp-PID-RANDOM`: a process id, 16
/// hex digits), and no longer being written.
fn stale_temp(folder: &Folder, name: &str, names: &[&str]) -> bool {
    crate::output::temp_target(name).is_some_and(|target| names.contains(&target))
        && folder.file(name).is_some_and(|f| f.try_lock().is_ok())
}

/// What retention may remove in a run folder: the names (the manifest last), or the
/// names that keep the folder.
struct Plan {
    files: Vec<std::ffi::OsString>,
    parts: Option<(Folder, Vec<std::ffi::OsString>)>,
    locks: Vec<std::fs::File>,
    foreign: Vec<String>,
}

impl Plan {
    fn refuse(&mut self, name: &str, why: &str) {
        self.foreign.push(format!("{} ({why})", escaped(name)));
    }
}

/// Look at every name in the run folder (manifest `m`; `held`: this process holds its
/// `.puzzlebook.lock`): which are puzzlebook's own, unchanged, and which are not.
fn plan_removal<R: Registry>(folder: &Folder, m: &Manifest, held: bool) -> Result<Plan> {
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
        .chain(["manifest.json", "index.json", "index.md", super::PUBLISHED])
        .collect();
    if m.outputs.iter().any(|e| !manifest::plain_name(&e.file)) {
        plan.refuse("manifest.json", "it names a file outside the folder");
    }
    let sibling = |n: &str| folder.file(n);
    let mut index_ok = false;
    for os_name in folder.names()? {
        crate::interrupt::check()?;
        let name = os_name.to_string_lossy().into_owned();
        let kind = folder.kind(&os_name);
        if name == "parts" && kind.is_some_and(FileType::is_dir) {
            plan_parts(folder, m, &mut plan)?;
            continue;
        }
        let file = match kind {
            Some(FileType::RegularFile) => folder.file(&name),
            _ => None,
        };
        let Some(file) = file else {
            plan.refuse(&name, "not a regular file");
            continue;
        };
        let ok = if name == "manifest.json" {
            Ok(())
        } else if let Some(which) = OwnName::of(&name) {
            if index::is_own::<R>(which, file, Some(m), &sibling)? {
                Ok(())
            } else {
                Err("not written by puzzlebook, or changed since")
            }
        } else if is_lock_name(&name) {
            let held = held && name == ".puzzlebook.lock";
            own_lock(file, held).map(|f| plan.locks.push(f))
        } else if stale_temp(folder, &name, &own_names) || LITTER.contains(&name.as_str()) {
            Ok(())
        } else if m.outputs.iter().any(|e| e.file == name) {
            if m.outputs
                .iter()
                .any(|e| e.file == name && matches(file.try_clone().ok(), e))
            {
                Ok(())
            } else {
                Err("changed since puzzlebook made it")
            }
        } else {
            Err("not a file puzzlebook made")
        };
        if ok.is_ok() && name == "index.json" {
            index_ok = true;
        }
        match ok {
            Ok(()) if name != "manifest.json" => plan.files.push(os_name),
            Ok(()) => {}
            Err(why) => plan.refuse(&name, why),
        }
    }
    // An earlier version's manifest has no seal: only the index.json that version
    // wrote from it, exactly, vouches for it (every dated run wrote one), so a
    // manifest written or edited by hand never has a file removed.
    if index::is_legacy(m) && !index_ok {
        plan.refuse(
            "manifest.json",
            "an earlier version's manifest without the index.json it wrote beside it",
        );
    }
    Ok(plan)
}

/// Whether the open file still has the manifest entry's SHA-256 and size.
fn matches(f: Option<std::fs::File>, e: &manifest::Entry) -> bool {
    f.is_some_and(|f| {
        f.metadata().is_ok_and(|md| md.len() == e.bytes)
            && manifest::reader_sha256(f, Path::new(&e.file))
                .is_ok_and(|(h, n)| h == e.sha256 && n == e.bytes)
    })
}

/// The `parts` folder of a run folder: its part files of this manifest's outputs
/// (whole, unchanged: their end lines match, and made for an output's configuration),
/// shard locks and stale temporary files are puzzlebook's.
fn plan_parts(folder: &Folder, m: &Manifest, plan: &mut Plan) -> Result<()> {
    let parts = folder
        .sub(OsStr::new("parts"))
        .map_err(|e| Error::io("cannot list", folder.shown.join("parts"), e))?;
    let mut files = Vec::new();
    for os_name in parts.names()? {
        crate::interrupt::check()?;
        let name = os_name.to_string_lossy().into_owned();
        let shown = format!("parts/{name}");
        let file = match parts.kind(&os_name) {
            Some(FileType::RegularFile) => parts.file(&name),
            _ => None,
        };
        let Some(file) = file else {
            plan.refuse(&shown, "not a regular file");
            continue;
        };
        let part_of = m
            .outputs
            .iter()
            .any(|o| name.starts_with(&format!("{}.part-", o.output)));
        let ok = if is_lock_name(&name) {
            own_lock(file, false).map(|f| plan.locks.push(f))
        } else if part_of {
            let whole = super::part::PartFile::from_file(file, &parts.shown.join(&name)).is_ok_and(
                |mut f| {
                    f.header
                        .job_output
                        .as_deref()
                        .is_some_and(|c| m.outputs.iter().any(|e| e.config_sha256 == c))
                        && f.check_whole().is_ok()
                },
            );
            if whole {
                Ok(())
            } else {
                Err("a part that is cut off or changed, or made for another configuration")
            }
        } else if crate::output::temp_target(&name).is_some() {
            // A temporary part file an interrupted shard left.
            if file.try_lock().is_ok() {
                Ok(())
            } else {
                Err("a file being written")
            }
        } else {
            Err("not a file puzzlebook made")
        };
        match ok {
            Ok(()) => files.push(os_name),
            Err(why) => plan.refuse(&shown, why),
        }
    }
    plan.parts = Some((parts, files));
    Ok(())
}

/// Remove what puzzlebook made in the run folder `name` of `parent` (open as
/// `folder`) and the folder, when everything in it is puzzlebook's own and unchanged.
/// Some(reason): the folder was left whole.
fn remove_run_folder<R: Registry>(
    parent: &Folder,
    name: &OsStr,
    folder: &Folder,
    m: &Manifest,
) -> Result<Option<String>> {
    // A run using the folder now holds its lock: leave the folder alone.
    let held = match folder.file(".puzzlebook.lock") {
        Some(f) if f.try_lock().is_err() => return Ok(Some("a run is using it".into())),
        held => held,
    };
    let plan = plan_removal::<R>(folder, m, held.is_some())?;
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
        let n = f.to_string_lossy();
        if let Some(e) = m.outputs.iter().find(|e| e.file == n) {
            if !matches(folder.file(&n), e) {
                return Ok(Some(format!(
                    "{} changed while retention looked at it; it and what is left of the folder stay",
                    escaped(&e.file)
                )));
            }
        }
        folder.remove_file(f)?;
    }
    if let Some((parts, files)) = &plan.parts {
        for f in files {
            parts.remove_file(f)?;
        }
        let _ = folder.remove_dir(OsStr::new("parts"));
    }
    folder.remove_file(OsStr::new("manifest.json"))?;
    drop(plan.locks);
    drop(held);
    // The folder itself, only while the name still holds the folder looked into.
    let same = rustix::fs::statat(&parent.fd, name, AtFlags::SYMLINK_NOFOLLOW)
        .ok()
        .map(|s| (s.st_dev, s.st_ino));
    if same.is_none() || same != folder.id() || parent.remove_dir(name).is_err() {
        return Ok(Some(
            "something appeared in it, or took its place, while retention removed its files: the folder stays".into(),
        ));
    }
    Ok(None)
}
