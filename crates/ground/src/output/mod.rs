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
/// `create_temp` makes: `.NAME.tmp-PID-RANDOM`, PID a process id and RANDOM 16 hex
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
mod tests;

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
pub(crate) fn check_plain_name(path: &Path, what: &str) -> Result<()> {
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
pub mod seal;

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
