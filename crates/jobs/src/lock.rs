//! The run lock: one run at a time in a job's folder (or one a shard), through lock
//! files that are only ever ours.

use super::*;

/// Open (creating it) a lock file inside the job's folder: never through a link,
/// never blocking on a FIFO, and only a regular file.
pub(super) fn open_lock_file(path: &Path) -> Result<(std::fs::File, bool)> {
    crate::output::check_own_name(path)?;
    let open = |create_new: bool| {
        let mut o = std::fs::OpenOptions::new();
        if create_new {
            o.create_new(true);
        }
        o.read(true).write(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        o.open(path)
    };
    let (f, created) = match open(true) {
        Ok(f) => (f, true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => (
            open(false).map_err(|e| Error::io("cannot open", path, e))?,
            false,
        ),
        Err(e) => return Err(Error::io("cannot create", path, e)),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // A hard link planted at a lock's name would let the holder's note land in
        // a file outside the folder.
        if f.metadata().is_ok_and(|m| m.nlink() > 1) {
            return Err(Error::invalid(format!(
                "{} has other hard links, in an output folder whose names puzzlebook owns: remove it and run again",
                path.display()
            )));
        }
    }
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Error::invalid(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok((f, created))
}

/// (device, inode) of a file.
pub(super) fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// A lock a run holds: the file, its path, and whether this run created it (a run
/// that fails removes the lock files it created, so a refused run leaves none).
pub struct Held {
    pub(super) file: std::fs::File,
    pub(super) path: PathBuf,
    pub(super) created: bool,
}

/// The locks of one run; dropped unreleased (the run failed), the lock files it
/// created are removed while still held, when they are still the files it locked.
pub(crate) struct RunLock {
    pub(super) held: Vec<Held>,
    pub(super) keep: bool,
}

impl RunLock {
    /// The run went through: its lock files stay (they are reused by the next run).
    pub(super) fn keep(&mut self) {
        self.keep = true;
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        for h in self.held.iter().rev().filter(|h| h.created) {
            let ours = h
                .file
                .metadata()
                .ok()
                .zip(std::fs::symlink_metadata(&h.path).ok());
            if ours.is_some_and(|(a, b)| file_id(&a) == file_id(&b)) {
                let _ = std::fs::remove_file(&h.path);
            }
        }
    }
}

/// Take the lock at `path` (shared or exclusive) without waiting; an exclusive holder
/// writes `note` into it. `busy` words the refusal, given who holds the lock.
pub(super) fn take_lock(
    path: &Path,
    shared: bool,
    note: &str,
    busy: impl Fn(Option<String>) -> String,
) -> Result<Held> {
    // A lock file removed by a failed run between our open and our lock would leave
    // us holding a file no longer there: after locking, the path must still be the
    // file locked, else try again.
    for _ in 0..8 {
        let (f, created) = open_lock_file(path)?;
        let got = if shared {
            f.try_lock_shared()
        } else {
            f.try_lock()
        };
        match got {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(Error::Busy(busy(holder(path)))),
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io("cannot lock", path, e)),
        }
        let same = f.metadata().ok().zip(std::fs::symlink_metadata(path).ok());
        if same.is_none_or(|(a, b)| file_id(&a) != file_id(&b)) {
            continue;
        }
        if shared {
            // Shared holders are many: the lock names none of them.
            let _ = f.set_len(0);
        } else {
            record_holder(&f, note);
        }
        return Ok(Held {
            file: f,
            path: path.to_path_buf(),
            created,
        });
    }
    Err(Error::Busy(busy(None)))
}

/// Write this process's id into a lock file it holds exclusively, so that a run
/// refused by the lock can name who holds it (best effort).
pub(super) fn record_holder(f: &std::fs::File, what: &str) {
    use std::io::{Seek, Write};
    let mut f = f;
    let _ = f.set_len(0);
    let _ = f.seek(std::io::SeekFrom::Start(0));
    let _ = writeln!(f, "process {} ({what})", std::process::id());
}

/// Who holds a lock, as its holder wrote it ("process 123 (shard 0/2)"), if known.
pub(super) fn holder(path: &Path) -> Option<String> {
    let f = crate::manifest::open_regular(path).ok()?;
    let mut s = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(f, 200), &mut s).ok()?;
    let s = s.trim();
    (!s.is_empty() && s.starts_with("process ")).then(|| s.to_string())
}

/// Keep two runs from writing one folder at once: a whole run or a merge holds an
/// exclusive lock on `DIR/.puzzlebook.lock`, shard runs (which write only their own
/// parts) a shared one, and each shard run also an exclusive lock on
/// `DIR/.puzzlebook.shard-K-of-N.lock`, so the same shard is never made twice at once
/// (a retried array task). The operating system drops a lock when the process ends,
/// however it ends.
pub(super) fn lock(dir: &Path, shard: Option<Shard>) -> Result<RunLock> {
    let mut run = RunLock {
        held: Vec::new(),
        keep: false,
    };
    run.held.push(take_lock(
        &dir.join(".puzzlebook.lock"),
        shard.is_some(),
        "a whole run or a merge",
        |who| {
            format!(
                "another puzzlebook run is using {} ({}): wait for it to finish",
                dir.display(),
                who.unwrap_or_else(|| "shard runs".into())
            )
        },
    )?);
    if let Some(s) = shard {
        let path = dir.join(format!(".puzzlebook.shard-{}-of-{}.lock", s.index, s.count));
        run.held
            .push(take_lock(&path, false, &format!("shard {s}"), |who| {
                format!(
                "shard {s} of this job is already being made in {} by {}: wait for it to finish",
                dir.display(),
                who.unwrap_or_else(|| "another run".into())
            )
            })?);
    }
    Ok(run)
}
