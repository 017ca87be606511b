//! Writing output files safely.
//!
//! A regular file is written to a temporary name beside it and renamed over it only
//! when complete, so an interrupted run never leaves a truncated file that looks
//! finished. What sits at the path the user named decides how it is written:
//! - nothing, or a regular file: temporary file, then rename (the old file keeps its
//!   content until the new one is complete, and the new one gets the old one's
//!   permissions);
//! - a symbolic link: the file it points to is written that way, and the link stays;
//! - a FIFO or a character device (`/dev/null`, `/dev/stdout`): written into directly,
//!   never replaced (there is nothing to rename over);
//! - a folder, a block device or a socket: refused.
//!
//! Temporary names are `.NAME.tmp-PID-RANDOM`, created with `O_EXCL` (a planted file or
//! symbolic link of that name is never opened) and locked while they are written. A
//! temporary file whose writer died (killed, power cut) holds no lock, and the next
//! write of the same target removes it. Every live temporary file is also listed in
//! this process, so a forced exit ([`remove_unfinished`]) can remove them first.

use crate::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files this process is writing (removed on a forced exit).
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Folders this process created (outermost first), removed again if still empty when
/// the command fails: a refused command leaves no empty folder behind.
static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Create the folder `dir` and any missing folders above it, remembering each one
/// made so that [`remove_created_folders`] can take it back. What the user named as
/// a folder must be one: `/dev/null` or a file is refused with that said.
pub fn create_folder(dir: &Path, what: &str) -> Result<()> {
    check_plain_name(dir, what)?;
    let mut missing = Vec::new();
    let mut p = dir;
    loop {
        match fs::metadata(p) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(Error::invalid(format!(
                    "{what} {} is not a folder{}: name a folder",
                    dir.display(),
                    if p == dir {
                        String::new()
                    } else {
                        format!(" ({} is a file)", p.display())
                    }
                )))
            }
            Err(_) => missing.push(p.to_path_buf()),
        }
        match p.parent() {
            Some(q) if !q.as_os_str().is_empty() => p = q,
            _ => break,
        }
    }
    for m in missing.into_iter().rev() {
        match fs::create_dir(&m) {
            Ok(()) => created().push(m),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && m.is_dir() => {}
            Err(e) => return Err(Error::io("cannot create the folder", &m, e)),
        }
    }
    Ok(())
}

fn created() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    CREATED.lock().unwrap_or_else(|p| p.into_inner())
}

/// Remove the folders this process created that are still empty, innermost first
/// (for a command that failed or was stopped). A folder with anything in it stays.
pub fn remove_created_folders() {
    for d in created().drain(..).rev() {
        // A job run's own lock files, once nobody holds them, do not keep a folder
        // it made.
        if let Ok(rd) = fs::read_dir(&d) {
            for e in rd.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let lock = name == ".puzzlebook.lock"
                    || (name.starts_with(".puzzlebook.shard-") && name.ends_with(".lock"));
                if lock && e.file_type().is_ok_and(|t| t.is_file()) {
                    if let Ok(f) = open_no_follow(&e.path()) {
                        if f.try_lock().is_ok() {
                            let _ = fs::remove_file(e.path());
                        }
                    }
                }
            }
        }
        let _ = fs::remove_dir(d);
    }
}

/// Folders this process owns the names in (a job's output folder and its `parts`),
/// resolved: no link there is followed and only regular files are written.
static OWNED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn owned() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    OWNED.lock().unwrap_or_else(|p| p.into_inner())
}

/// While held, `dir` is a folder whose names this process owns: a symbolic link, a
/// FIFO, a device or a folder at a name written there is refused, never followed or
/// written into (so nothing outside the folder is ever written through it). Dropped,
/// the folder is an ordinary one again.
pub struct OwnedFolder {
    dir: PathBuf,
}

impl Drop for OwnedFolder {
    fn drop(&mut self) {
        let mut v = owned();
        if let Some(i) = v.iter().position(|d| *d == self.dir) {
            v.remove(i);
        }
    }
}

/// Own the names in the existing folder `dir` (see [`OwnedFolder`]).
pub fn own_folder(dir: &Path) -> Result<OwnedFolder> {
    let dir = fs::canonicalize(dir).map_err(|e| Error::io("cannot open the folder", dir, e))?;
    owned().push(dir.clone());
    Ok(OwnedFolder { dir })
}

/// Whether `path` is a name inside an owned folder.
fn in_owned_folder(path: &Path) -> bool {
    let parent = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let v = owned();
    !v.is_empty() && fs::canonicalize(parent).is_ok_and(|d| v.contains(&d))
}

/// Refuse anything but a regular file (or nothing) at `path`, without following a
/// link there: for the names of a folder puzzlebook owns.
pub fn check_own_name(path: &Path) -> Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io("cannot write to", path, e)),
    };
    let t = meta.file_type();
    if t.is_file() {
        return Ok(());
    }
    let what = if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else {
        "not a regular file (a FIFO, socket or device)"
    };
    Err(Error::invalid(format!(
        "{} is {what}, in an output folder whose names puzzlebook owns: it follows no link and writes only regular files there; remove it and run again",
        path.display()
    )))
}

/// Refuse an output that is a file this process has read as an input; `label` (the
/// flag, "--out ", or nothing) starts the message.
fn check_not_input(label: &str, path: &Path) -> Result<()> {
    for (what, input) in crate::input::files_read() {
        if same_file(path, &input) {
            return Err(Error::invalid(format!(
                "{label}{} is {what}, read by this command: choose another output file",
                path.display()
            )));
        }
    }
    Ok(())
}

fn live() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Remove every temporary file this process has open (for a forced exit, such as a
/// second Ctrl-C, where destructors do not run).
pub fn remove_unfinished() {
    for p in live().drain(..) {
        let _ = fs::remove_file(p);
    }
}

/// What a path the user named as an output is.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    /// A regular file or nothing yet, at this path (symbolic links followed).
    File {
        path: PathBuf,
        permissions: Option<fs::Permissions>,
    },
    /// A FIFO or character device, written into directly.
    Stream(PathBuf),
}

/// Follow symbolic links from `path` to the path that is finally written (which may
/// not exist yet, for a link that points to a new file).
fn follow_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p).map_err(|e| Error::io("cannot read link", &p, e))?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(Error::invalid(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

fn classify(user: &Path) -> Result<Target> {
    if user.as_os_str().is_empty() {
        return Err(Error::invalid("an output path is empty: name a file"));
    }
    check_plain_name(user, "the output")?;
    check_not_input("", user)?;
    if in_owned_folder(user) {
        check_own_name(user)?;
        return Ok(Target::File {
            path: user.to_path_buf(),
            permissions: fs::symlink_metadata(user).ok().map(|m| m.permissions()),
        });
    }
    // A pipe or a device reached through the kernel's own links (/dev/stdout ->
    // /proc/self/fd/1 -> "pipe:[N]", a name no folder holds): written where it is.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if let Ok(m) = fs::metadata(user) {
            let t = m.file_type();
            if t.is_fifo() || t.is_char_device() {
                return Ok(Target::Stream(user.to_path_buf()));
            }
        }
    }
    let path = follow_links(user)?;
    let meta = match fs::symlink_metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Target::File {
                path,
                permissions: None,
            })
        }
        Err(e) => return Err(Error::io("cannot write to", user, e)),
    };
    let t = meta.file_type();
    if t.is_file() {
        return Ok(Target::File {
            path,
            permissions: Some(meta.permissions()),
        });
    }
    if t.is_dir() {
        return Err(Error::invalid(format!(
            "{} is a folder: name a file inside it",
            user.display()
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() || t.is_char_device() {
            return Ok(Target::Stream(path));
        }
    }
    Err(Error::invalid(format!(
        "{} is not a regular file, a FIFO or a character device: name a file",
        user.display()
    )))
}

/// The folder a file is written in, which must exist.
fn folder_of(path: &Path) -> Result<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(Error::invalid(format!(
            "output folder {} does not exist: create it or choose another output path",
            dir.display()
        )));
    }
    Ok(dir)
}

fn file_name(path: &Path) -> Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::invalid(format!("output path {} has no file name", path.display())))
}

/// Open a file of ours for locking or reading without following a link and without
/// blocking on a FIFO.
fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    let mut o = fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    o.open(path)
}

/// Remove temporary files of `name` in `dir` that no running writer holds (left by a
/// writer that was killed). Only regular files are touched; links are left alone.
pub fn remove_stale(dir: &Path, name: &str) {
    let Ok(rd) = fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        // Only names made exactly as temporary names are (never a user's file that
        // merely starts like one).
        if temp_target(&e.file_name().to_string_lossy()) != Some(name) {
            continue;
        }
        let path = e.path();
        let regular = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        if !regular {
            continue;
        }
        if let Ok(f) = open_no_follow(&path) {
            if f.try_lock().is_ok() {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// The target a temporary file's name is for, when the name is exactly one
/// [`create_temp`] makes: `.NAME.tmp-PID-RANDOM`, PID a process id and RANDOM 16 hex
/// digits.
pub fn temp_target(file_name: &str) -> Option<&str> {
    let rest = file_name.strip_prefix('.')?;
    let (target, tail) = rest.rsplit_once(".tmp-")?;
    let (pid, random) = tail.split_once('-')?;
    let ok = !target.is_empty()
        && !pid.is_empty()
        && pid.len() <= 10
        && pid.bytes().all(|b| b.is_ascii_digit())
        && random.len() == 16
        && random
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    ok.then_some(target)
}

/// Create a new temporary file beside `target`, locked, and listed as live.
fn create_temp(dir: &Path, name: &str) -> Result<(PathBuf, fs::File)> {
    for _ in 0..16 {
        let temp = dir.join(format!(
            ".{name}.tmp-{}-{:016x}",
            std::process::id(),
            rand::random::<u64>()
        ));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
        {
            Ok(file) => {
                // Held until the file is renamed or removed: a temporary file nobody
                // holds is a dead writer's.
                let _ = file.try_lock();
                live().push(temp.clone());
                return Ok((temp, file));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(Error::io("cannot write to", dir, e)),
        }
    }
    Err(Error::invalid(format!(
        "cannot find a free temporary name for {name} in {}",
        dir.display()
    )))
}

fn forget(temp: &Path) {
    live().retain(|p| p != temp);
}

/// Check, before a long run, that `target` can be written (the folder exists and takes
/// new files, the path is not a folder or device). Nothing is left behind.
pub fn check_writable(target: &Path) -> Result<()> {
    match classify(target)? {
        Target::Stream(_) => Ok(()),
        Target::File { path, .. } => {
            let dir = folder_of(&path)?;
            let (temp, file) = create_temp(&dir, &file_name(&path)?)?;
            drop(file);
            let _ = fs::remove_file(&temp);
            forget(&temp);
            Ok(())
        }
    }
}

/// A file being written; it appears under its real name only on [`AtomicFile::commit`].
/// Dropped without commit, the temporary file is removed.
pub struct AtomicFile {
    /// The path the user named (for messages).
    shown: PathBuf,
    kind: Kind,
    file: Option<std::io::BufWriter<fs::File>>,
}

enum Kind {
    Temp {
        target: PathBuf,
        temp: PathBuf,
        permissions: Option<fs::Permissions>,
    },
    Stream,
}

impl AtomicFile {
    /// Start writing `target`: to a temporary file beside it, or straight to it when it is a pipe or a device.
    pub fn create(target: &Path) -> Result<Self> {
        let (kind, file) = match classify(target)? {
            Target::Stream(path) => {
                let file = fs::OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| Error::io("cannot write to", target, e))?;
                (Kind::Stream, file)
            }
            Target::File { path, permissions } => {
                let dir = folder_of(&path)?;
                let name = file_name(&path)?;
                remove_stale(&dir, &name);
                let (temp, file) = create_temp(&dir, &name)?;
                let kind = Kind::Temp {
                    target: path,
                    temp,
                    permissions,
                };
                (kind, file)
            }
        };
        Ok(AtomicFile {
            shown: target.to_path_buf(),
            kind,
            file: Some(std::io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Finish: flush, sync, and rename into place (a stream is only flushed). A failed
    /// rename removes the temporary file.
    pub fn commit(mut self) -> Result<()> {
        let Some(w) = self.file.take() else {
            return Ok(());
        };
        let file = match w.into_inner() {
            Ok(f) => f,
            Err(e) => {
                let err = Error::io("cannot write to", &self.shown, e.into_error());
                self.discard();
                return Err(err);
            }
        };
        let Kind::Temp {
            target,
            temp,
            permissions,
        } = &self.kind
        else {
            return Ok(());
        };
        let finish = || -> std::io::Result<()> {
            file.sync_all()?;
            if let Some(p) = permissions {
                file.set_permissions(p.clone())?;
            }
            fs::rename(temp, target)
        };
        let done = finish();
        drop(file);
        forget(temp);
        match done {
            Ok(()) => {
                // Make the rename itself durable (best effort: not every file system
                // lets a folder be synced).
                if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
                    if let Ok(d) = fs::File::open(dir) {
                        let _ = d.sync_all();
                    }
                }
                Ok(())
            }
            Err(e) => {
                let _ = fs::remove_file(temp);
                Err(Error::io("cannot write", &self.shown, e))
            }
        }
    }

    fn discard(&mut self) {
        self.file = None;
        if let Kind::Temp { temp, .. } = &self.kind {
            let _ = fs::remove_file(temp);
            forget(temp);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.file.as_mut() {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("the output is already finished")),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.is_some() {
            self.discard();
        }
    }
}

/// Write a whole buffer to `target` atomically.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = AtomicFile::create(target)?;
    f.write_all(bytes)
        .map_err(|e| Error::io("cannot write to", target, e))?;
    f.commit()
}

/// Several files that appear together: each is written to its temporary name, and
/// only when all are complete are they renamed into place, so a failure while
/// writing any of them leaves every old file as it was (never a new CSV beside an old
/// summary of another run).
#[derive(Default)]
pub struct FileSet {
    files: Vec<AtomicFile>,
}

impl FileSet {
    /// An empty set.
    pub fn new() -> Self {
        FileSet::default()
    }

    /// Start a file; write into the returned handle.
    pub fn create(&mut self, target: &Path) -> Result<&mut AtomicFile> {
        self.files.push(AtomicFile::create(target)?);
        Ok(self.files.last_mut().expect("just pushed"))
    }

    /// Add a file written elsewhere.
    pub fn push(&mut self, file: AtomicFile) {
        self.files.push(file);
    }

    /// Rename every file into place (after flushing and syncing them all).
    pub fn commit(self) -> Result<()> {
        let mut ready = Vec::with_capacity(self.files.len());
        for mut f in self.files {
            if let Some(w) = f.file.as_mut() {
                if let Err(e) = w.flush().and_then(|_| w.get_ref().sync_all()) {
                    return Err(Error::io("cannot write to", &f.shown, e));
                }
            }
            ready.push(f);
        }
        for f in ready {
            f.commit()?;
        }
        Ok(())
    }
}

/// Whether two paths name the same file: the same file on disk when both exist (links
/// and spellings resolved), else the same resolved folder and name. Character devices
/// (`/dev/null`) are never "the same" as anything: writing one twice harms nothing.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| -> Option<PathBuf> {
        let p = follow_links(p).ok()?;
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(dir).ok()?.join(p.file_name()?))
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            if x.file_type().is_char_device() {
                return false;
            }
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Refuse outputs that are the same file as each other or as an input: each output is
/// (what the user calls it, the path), e.g. `("--summary", path)`; each input is (what
/// it is, the path), e.g. `("the template", path)`, `("one of the parts", path)`.
pub fn check_distinct(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<()> {
    for (i, (name, path)) in outputs.iter().enumerate() {
        for (other, opath) in &outputs[..i] {
            if same_file(path, opath) {
                return Err(Error::invalid(format!(
                    "{name} {} is the same file as {other}: give each output its own file",
                    path.display()
                )));
            }
        }
        for (input, ipath) in inputs {
            if same_file(path, ipath) {
                return Err(Error::invalid(format!(
                    "{name} {} is {input}: choose another output file",
                    path.display()
                )));
            }
        }
        check_not_input(&format!("{name} "), path)?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn names(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_symlink_target_is_written_through_and_kept() {
        let d = dir();
        let real = d.path().join("real.txt");
        fs::write(&real, "old").unwrap();
        let link = d.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(names(d.path()), ["link.txt", "real.txt"]);
    }

    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        let d = dir();
        let fifo = d.path().join("pipe");
        // mkfifo(1), so that the crate's only unsafe code stays in Catan's bit deposit.
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
        };
        write_atomic(&fifo, b"through the pipe").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe");
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn dev_null_stays_a_device() {
        write_atomic(Path::new("/dev/null"), b"x").unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn folders_are_refused() {
        let d = dir();
        let e = write_atomic(d.path(), b"x").unwrap_err().to_string();
        assert!(e.contains("is a folder"), "{e}");
    }

    #[test]
    fn temp_names_are_unpredictable_and_planted_links_are_not_followed() {
        let d = dir();
        let outside = dir();
        // Plant links under every name the old scheme would use.
        let victim = outside.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let planted = d
            .path()
            .join(format!(".out.txt.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let mut f = AtomicFile::create(&d.path().join("out.txt")).unwrap();
        f.write_all(b"data").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(
            fs::read_to_string(d.path().join("out.txt")).unwrap(),
            "data"
        );
        // The planted link is not ours to remove.
        assert!(fs::symlink_metadata(&planted).is_ok());
    }

    #[test]
    fn dropped_and_stale_temporaries_are_removed_live_ones_kept() {
        let d = dir();
        let target = d.path().join("a.csv");
        drop(AtomicFile::create(&target).unwrap());
        assert!(names(d.path()).is_empty());
        // A dead writer's leftover (nobody holds its lock) goes on the next write;
        // a live writer's stays.
        fs::write(d.path().join(".a.csv.tmp-999999-0123456789abcdef"), "half").unwrap();
        let live_one = AtomicFile::create(&target).unwrap();
        assert_eq!(names(d.path()).len(), 1, "{:?}", names(d.path()));
        let other = AtomicFile::create(&target).unwrap();
        assert_eq!(names(d.path()).len(), 2);
        drop(live_one);
        drop(other);
        assert!(names(d.path()).is_empty());
    }

    #[test]
    fn permissions_of_a_replaced_file_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir();
        let p = d.path().join("x");
        fs::write(&p, "old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[test]
    fn a_file_set_appears_whole_or_not_at_all() {
        let d = dir();
        let (a, b) = (d.path().join("a.csv"), d.path().join("b.csv"));
        fs::write(&a, "old a").unwrap();
        fs::write(&b, "old b").unwrap();
        {
            let mut set = FileSet::new();
            set.create(&a).unwrap().write_all(b"new a").unwrap();
            set.create(&b).unwrap().write_all(b"new b").unwrap();
            // Dropped before commit (as when a later write fails): nothing changes.
        }
        assert_eq!(fs::read_to_string(&a).unwrap(), "old a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "old b");
        let mut set = FileSet::new();
        set.create(&a).unwrap().write_all(b"new a").unwrap();
        set.create(&b).unwrap().write_all(b"new b").unwrap();
        set.commit().unwrap();
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(names(d.path()), ["a.csv", "b.csv"]);
    }

    #[test]
    fn same_file_sees_through_spellings_and_links() {
        let d = dir();
        let a = d.path().join("a.csv");
        assert!(same_file(&a, &d.path().join(".").join("a.csv")));
        fs::write(&a, "").unwrap();
        let l = d.path().join("l.csv");
        std::os::unix::fs::symlink(&a, &l).unwrap();
        assert!(same_file(&a, &l));
        assert!(!same_file(&a, &d.path().join("b.csv")));
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
        let e = check_distinct(&[("--out", &a), ("--summary", &l)], &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--summary") && e.contains("same file as --out"),
            "{e}"
        );
    }
}

/// Open a file only if it is a regular file, without following a symbolic link at
/// its name and without blocking on a FIFO.
pub fn open_regular(path: &Path) -> Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = o
        .open(path)
        .map_err(|e| Error::io("cannot read", path, e))?;
    let m = f
        .metadata()
        .map_err(|e| Error::io("cannot read", path, e))?;
    if !m.is_file() {
        return Err(Error::invalid(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok(f)
}

/// Refuse a path with control characters (ESC, BEL, a newline...) in it, before
/// anything is made under it: such a name would reach terminals and logs raw.
/// `what` names the path in the message.
pub fn check_plain_name(path: &Path, what: &str) -> Result<()> {
    let text = path.to_string_lossy();
    if text.chars().any(char::is_control) {
        return Err(Error::invalid(format!(
            "{what} {} has control characters in its name (shown escaped): choose a name without them",
            escaped(&text)
        )));
    }
    Ok(())
}

/// `s` as it may be shown on a terminal: control characters (ESC, BEL, a newline...)
/// written as escapes, so a name read from a file or a job never reaches the terminal
/// raw ([`crate::input::escape_controls`]).
pub fn escaped(s: &str) -> String {
    crate::input::escape_controls(s)
}

/// A path as it may be shown on a terminal (see [`escaped`]).
pub fn escaped_path(p: &Path) -> String {
    escaped(&p.to_string_lossy())
}

/// Seals: how puzzlebook knows a file at one of the names it writes in an output folder
/// (`index.md`, `index.json`, `published.txt`) is the one it wrote, unchanged. A text
/// file ends with one line holding the SHA-256 of every byte before it; a JSON file
/// holds its own SHA-256, taken with the digest written as 64 zeros. A file a person
/// wrote, or changed by so much as a byte, carries no valid seal: retention keeps it
/// and a run refuses to replace it.
pub mod seal {
    use std::io::{Read, Seek, SeekFrom};
    use std::path::Path;

    /// What a seal's digest follows.
    const MARK: &str = "puzzlebook-seal:";
    const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

    /// Whether `Ok(false)` came from a stop asked for: the caller says so rather than
    /// calling the file someone else's.
    pub type Checked = crate::Result<bool>;

    /// How a text file's last line wraps its seal (`<!-- ` and ` -->` in Markdown,
    /// `# ` and nothing in a catalogue-style list).
    #[derive(Clone, Copy, Debug)]
    pub struct Style {
        /// What comes before the mark.
        pub before: &'static str,
        /// What comes after the digest.
        pub after: &'static str,
    }

    impl Style {
        /// The length of a seal line, newline included.
        fn line_len(&self) -> usize {
            self.before.len() + MARK.len() + 64 + self.after.len() + 1
        }
    }

    /// Markdown: an HTML comment, which no viewer shows.
    pub const MARKDOWN: Style = Style {
        before: "<!-- ",
        after: " -->",
    };
    /// A `#` comment line.
    pub const HASH_COMMENT: Style = Style {
        before: "# ",
        after: "",
    };

    /// `body` (ending in a newline) with its seal line after it.
    pub fn text(body: &str, style: Style) -> String {
        let digest = super::sha256_hex(body.as_bytes());
        format!("{body}{}{MARK}{digest}{}\n", style.before, style.after)
    }

    /// Whether the file at `path` (a regular file, read through no link, at most
    /// `max` bytes) ends with a valid seal line of `style`; see [`text_reader_ok`].
    pub fn text_file_ok(path: &Path, style: Style, max: u64) -> Checked {
        match super::open_regular(path) {
            Ok(f) => text_reader_ok(f, style, max),
            Err(_) => Ok(false),
        }
    }

    /// Whether the open file `f` (at most `max` bytes) ends with a valid seal line of
    /// `style`: its last bytes are exactly a seal line, after a newline or at the
    /// start, holding the SHA-256 of every byte before it (read in blocks; memory does
    /// not grow with the file). A stop asked for meanwhile is [`crate::Error::Interrupted`].
    pub fn text_reader_ok(mut f: std::fs::File, style: Style, max: u64) -> Checked {
        use sha2::Digest;
        let Ok(size) = f.metadata().map(|m| m.len()) else {
            return Ok(false);
        };
        let tail = style.line_len() as u64;
        if size > max || size < tail {
            return Ok(false);
        }
        let body = size - tail;
        let mut h = sha2::Sha256::new();
        let mut buf = vec![0u8; 1 << 16];
        let mut left = body;
        let mut last = b'\n';
        while left > 0 {
            crate::interrupt::check()?;
            let want = buf.len().min(left as usize);
            if f.read_exact(&mut buf[..want]).is_err() {
                return Ok(false);
            }
            h.update(&buf[..want]);
            last = buf[want - 1];
            left -= want as u64;
        }
        let mut seal = vec![0u8; tail as usize];
        if last != b'\n'
            || f.seek(SeekFrom::Start(body)).is_err()
            || f.read_exact(&mut seal).is_err()
        {
            return Ok(false);
        }
        let want = format!(
            "{}{MARK}{}{}\n",
            style.before,
            super::manifest_hex(&h.finalize()),
            style.after
        );
        Ok(seal == want.as_bytes())
    }

    /// The member a JSON seal is: pretty JSON writes it so at the top level, and a
    /// string inside the document cannot hold it unescaped (its quotes would be `\"`).
    fn member(key: &str) -> String {
        format!("\"{key}\": \"{MARK}")
    }

    /// A JSON value as pretty text holding its own seal at `key` (which `value` must
    /// hold as a string member of its top level, with any content).
    pub fn json(mut value: serde_json::Value, key: &str) -> String {
        value[key] = serde_json::json!(format!("{MARK}{ZEROS}"));
        let blank = serde_json::to_string_pretty(&value).expect("serialises") + "\n";
        let digest = super::sha256_hex(blank.as_bytes());
        let at = blank.find(&member(key)).expect("the seal member") + member(key).len();
        format!("{}{digest}{}", &blank[..at], &blank[at + 64..])
    }

    /// Whether the JSON file at `path` (at most `max` bytes) holds a valid seal at
    /// `"seal"`.
    pub fn json_file_ok(path: &Path, max: u64) -> bool {
        super::open_regular(path).is_ok_and(|f| json_reader_ok(f, max))
    }

    /// [`json_file_ok`] of an open file.
    pub fn json_reader_ok(f: std::fs::File, max: u64) -> bool {
        let mut bytes = Vec::new();
        if f.take(max + 1).read_to_end(&mut bytes).is_err() || bytes.len() as u64 > max {
            return false;
        }
        String::from_utf8(bytes).is_ok_and(|t| json_ok(&t))
    }

    /// Whether `text` holds exactly one seal member `"seal": "puzzlebook-seal:HEX"`,
    /// valid for the rest of it.
    pub fn json_ok(text: &str) -> bool {
        let m = member("seal");
        let mut found = text.match_indices(&m);
        let (Some((at, _)), None) = (found.next(), found.next()) else {
            return false;
        };
        let start = at + m.len();
        let Some(digest) = text.get(start..start + 64) else {
            return false;
        };
        let blank = format!("{}{ZEROS}{}", &text[..start], &text[start + 64..]);
        super::sha256_hex(blank.as_bytes()) == digest
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn seals_hold_for_what_was_written_and_nothing_else() {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("i.md");
            let sealed = text("# a\nline\n", MARKDOWN);
            for (bytes, ok) in [
                (sealed.clone(), true),
                (sealed.replace("line", "Line"), false),
                (sealed.replace('\n', "\r\n"), false),
                (sealed.trim_end().to_string(), false),
                (format!("{sealed}\n"), false),
                ("# mine\n".to_string(), false),
                (text("", MARKDOWN), true),
            ] {
                std::fs::write(&p, &bytes).unwrap();
                assert_eq!(
                    text_file_ok(&p, MARKDOWN, 1 << 20).unwrap(),
                    ok,
                    "{bytes:?}"
                );
            }
            // A name holding the mark does not move the JSON seal.
            let v = serde_json::json!({"job": format!("a\"seal\": \"{MARK}x"), "seal": ""});
            let t = json(v, "seal");
            assert!(json_ok(&t), "{t}");
            assert!(!json_ok(&t.replace("\"job\"", "\"Job\"")));
        }
    }
}

/// Bytes as lowercase hex.
fn manifest_hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
