//! Catalogues of published puzzles: canonical fingerprints, the file that lists them,
//! and the set a run draws past.
//!
//! A puzzle's **fingerprint** is the first 128 bits of SHA-256 over its game's name and
//! its canonical text ([`crate::game::Game::canonical`]): the same puzzle up to the
//! board's symmetries gives the same text, so a rotated or mirrored board, or a Numbrix
//! grid numbered backwards, is found in the catalogue as the puzzle it is.
//!
//! A **catalogue** is a text file, one published puzzle a line, fields split by a tab:
//! fingerprint (32 hex digits), game, the date it was published for (`-` for none),
//! where (`job/output#index`) and who made it ([`Maker`]: 16 hex digits; entries of
//! earlier versions have four fields and name nobody). Lines starting with `#` are
//! comments. Order does not matter and a fingerprint counts once, so catalogues merge
//! by putting their lines together ([`merge`]). A run holds `CATALOGUE.lock` beside it
//! from the moment it reads the catalogue until it has added what it published, so two
//! runs never draw from one catalogue at once, and removes it when it lets go;
//! additions are written to a temporary file and renamed into place, so a reader sees
//! the old catalogue or the new one, never half.

use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// At most this many entries in a catalogue: ten million, a feed of a thousand puzzles
/// a day for 27 years. A run holds 16 bytes of memory per entry (160 MB at the bound);
/// `catalogue merge` and `catalogue count` about 30 (docs/limits.md has the figures).
pub(crate) const MAX_ENTRIES: usize = 10_000_000;

/// The longest line a catalogue may hold, in bytes (comments included).
pub(crate) const MAX_LINE: usize = 1024;

/// The longest place (`job/output#index`) an entry may name, in bytes.
pub(crate) const MAX_PLACE: usize = 512;

/// The shortest entry line there can be (fingerprint, a four-letter game, `-`, a
/// one-byte place, tabs and newline): what a file's size says about its entries.
const MIN_LINE: u64 = 32 + 1 + 4 + 1 + 1 + 1 + 1 + 1;

/// What a new catalogue file starts with.
const HEADER: &str = "# puzzlebook catalogue: the puzzles already published, one a line, fields split by tabs:\n# fingerprint (same puzzle up to the board's symmetries), game, date published for, where (job/output#index), and who made it (a digest of the job or template, its path and seed).\n";

/// A puzzle's canonical fingerprint (128 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub [u8; 16]);

impl std::fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// `s` as `N` bytes written in hex (2 N lowercase or uppercase hex digits).
fn from_hex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != 2 * N || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

impl std::str::FromStr for Fingerprint {
    type Err = ();
    fn from_str(s: &str) -> std::result::Result<Self, ()> {
        from_hex(s).map(Fingerprint).ok_or(())
    }
}

/// Who made an entry: the first 64 bits of SHA-256 over what makes a job's output or
/// a template's book what it is (see [`maker`]). A run's own entries from an earlier
/// attempt are told by it, so two jobs or templates that share a file name never take
/// each other's puzzles for their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Maker(pub [u8; 8]);

impl std::fmt::Display for Maker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// The maker digest of `parts` (each part ends with a newline in the digest, so no
/// two lists of parts give the same bytes).
pub fn maker(parts: &[&str]) -> Maker {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(b"\n");
    }
    let d = h.finalize();
    let mut out = [0u8; 8];
    out.copy_from_slice(&d[..8]);
    Maker(out)
}

/// The fingerprint of a puzzle of `game` whose canonical text is `canonical`.
pub fn fingerprint(game: &str, canonical: &str) -> Fingerprint {
    let mut h = Sha256::new();
    h.update(game.as_bytes());
    h.update(b"\n");
    h.update(canonical.as_bytes());
    let d = h.finalize();
    let mut out = [0u8; 16];
    out.copy_from_slice(&d[..16]);
    Fingerprint(out)
}

/// The eight images of a rectangular grid under the square's symmetries (rotations by
/// 0, 90, 180 and 270 degrees, each with and without a mirror); a grid that is not
/// square turns into its transpose's shape under a quarter turn.
pub fn dihedral<T: Clone>(grid: &[Vec<T>]) -> Vec<Vec<Vec<T>>> {
    let rows = grid.len();
    let cols = grid.first().map_or(0, Vec::len);
    let at = |r: usize, c: usize| grid[r][c].clone();
    let mut out = Vec::with_capacity(8);
    for k in 0..8 {
        // Image (i, j) of each transform, read from the original.
        let (h, w) = if k % 2 == 0 {
            (rows, cols)
        } else {
            (cols, rows)
        };
        let img: Vec<Vec<T>> = (0..h)
            .map(|i| {
                (0..w)
                    .map(|j| match k {
                        0 => at(i, j),
                        1 => at(rows - 1 - j, i), // quarter turn clockwise
                        2 => at(rows - 1 - i, cols - 1 - j), // half turn
                        3 => at(j, cols - 1 - i), // quarter turn anticlockwise
                        4 => at(i, cols - 1 - j), // mirror left-right
                        5 => at(j, i),            // transpose
                        6 => at(rows - 1 - i, j), // mirror top-bottom
                        _ => at(rows - 1 - j, cols - 1 - i), // anti-transpose
                    })
                    .collect()
            })
            .collect();
        out.push(img);
    }
    out
}

/// One entry of a catalogue, owned (to be written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle's fingerprint.
    pub fingerprint: Fingerprint,
    /// Its game, as [`crate::game::Game::NAME`] spells it.
    pub game: &'static str,
    /// The date it was published for (`YYYY-MM-DD`), or `-`.
    pub date: String,
    /// Where it was published: `job/output#index` (or `book/FILE#index`).
    pub source: String,
    /// Who made it (entries of older versions name nobody).
    pub maker: Option<Maker>,
}

impl Entry {
    /// The entry as its catalogue line (with the newline).
    pub fn line(&self) -> String {
        self.as_line().text()
    }

    fn as_line(&self) -> Line<'_> {
        Line {
            fingerprint: self.fingerprint,
            game: self.game,
            date: &self.date,
            source: &self.source,
            maker: self.maker,
        }
    }
}

/// One entry as read from a catalogue line (borrowing the line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// The puzzle's fingerprint.
    pub fingerprint: Fingerprint,
    /// Its game, one of the names the reader was given.
    pub game: &'static str,
    /// The date it was published for, or `-`.
    pub date: &'a str,
    /// Where it was published.
    pub source: &'a str,
    /// Who made it.
    pub maker: Option<Maker>,
}

impl Line<'_> {
    /// The entry, owned.
    pub fn to_entry(&self) -> Entry {
        Entry {
            fingerprint: self.fingerprint,
            game: self.game,
            date: self.date.to_string(),
            source: self.source.to_string(),
            maker: self.maker,
        }
    }

    /// The catalogue line (with the newline).
    pub fn text(&self) -> String {
        let mut s = format!(
            "{}\t{}\t{}\t{}",
            self.fingerprint, self.game, self.date, self.source
        );
        if let Some(m) = self.maker {
            s += &format!("\t{m}");
        }
        s.push('\n');
        s
    }

    /// Read a line (no newline): four or five fields split by tabs, each checked.
    /// `games`: the game names there are.
    pub fn read<'a>(
        text: &'a str,
        games: &[&'static str],
    ) -> std::result::Result<Line<'a>, String> {
        Line::parse(text, games)
    }

    fn parse<'a>(text: &'a str, games: &[&'static str]) -> std::result::Result<Line<'a>, String> {
        let fields: Vec<&str> = text.splitn(6, '\t').collect();
        if !(4..=5).contains(&fields.len()) {
            return Err(
                "not a catalogue line (fingerprint, game, date, where, and who made it; split by tabs)"
                    .into(),
            );
        }
        let fingerprint = fields[0].parse().map_err(|_| {
            format!(
                "'{}' is not a fingerprint (32 hex digits)",
                shown(fields[0])
            )
        })?;
        let game = games
            .iter()
            .copied()
            .find(|g| *g == fields[1])
            .ok_or_else(|| {
                format!(
                    "'{}' is not a game puzzlebook makes ({})",
                    shown(fields[1]),
                    games.join(", ")
                )
            })?;
        let date = fields[2];
        if !date_ok(date) {
            return Err(format!("'{}' is not a date (YYYY-MM-DD) or -", shown(date)));
        }
        let source = fields[3].trim_end();
        if source.is_empty() || source.chars().any(char::is_control) {
            return Err("the place (job/output#index) is empty or holds control characters".into());
        }
        if source.len() > MAX_PLACE {
            return Err(format!("the place is longer than {MAX_PLACE} bytes"));
        }
        let maker = match fields.get(4) {
            None => None,
            Some(m) => Some(Maker(from_hex(m.trim_end()).ok_or_else(|| {
                format!("'{}' is not who made it (16 hex digits)", shown(m))
            })?)),
        };
        Ok(Line {
            fingerprint,
            game,
            date,
            source,
            maker,
        })
    }
}

/// A field as a message shows it: its first 40 characters, control characters escaped.
fn shown(s: &str) -> String {
    let cut: String = s.chars().take(40).collect();
    let mut out = crate::output::escaped(&cut);
    if s.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

/// A date as YYYY-MM-DD (a day the calendar has), or `-`.
fn date_ok(date: &str) -> bool {
    date == "-" || crate::date::parse_ymd(date).is_some()
}

/// Read every entry of a catalogue file in order, passing each to `each` (at most
/// `MAX_ENTRIES` entries of at most `MAX_LINE` bytes, games among `games`; a bad
/// line is an error naming it). A missing file has none. Returns the entries read.
pub fn read_lines(
    path: &Path,
    games: &[&'static str],
    mut each: impl FnMut(Line<'_>) -> Result<()>,
) -> Result<usize> {
    check_path(path)?;
    let file = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        _ => crate::output::open_regular(path)?,
    };
    let mut r = std::io::BufReader::with_capacity(1 << 16, file);
    let mut buf = Vec::with_capacity(MAX_LINE);
    let mut n = 0usize;
    let bad = |line: usize, why: &str| {
        Error::invalid(format!(
            "catalogue {} line {line}: {why}",
            crate::output::escaped_path(path)
        ))
    };
    for line_no in 1.. {
        if line_no % 65_536 == 0 {
            crate::interrupt::check()?;
        }
        let got = crate::input::read_line_capped(&mut r, &mut buf, MAX_LINE)
            .map_err(|e| Error::io("cannot read", path, e))?;
        match got {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => return Err(bad(line_no, &format!("longer than {MAX_LINE} bytes"))),
        }
        let text = std::str::from_utf8(&buf).map_err(|_| bad(line_no, "not UTF-8 text"))?;
        let text = text.trim_end_matches(['\n', '\r']);
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        let entry = Line::parse(text, games).map_err(|why| bad(line_no, &why))?;
        n += 1;
        if n > MAX_ENTRIES {
            return Err(bad(
                line_no,
                &format!("more than {MAX_ENTRIES} entries: split the catalogue"),
            ));
        }
        each(entry)?;
    }
    Ok(n)
}

/// About how many entries the files at `paths` hold (their sizes over the length of
/// their first lines), at most [`MAX_ENTRIES`]: room reserved up front, so a set of
/// them never grows by doubling (when it must grow, it still can).
fn most_entries(paths: &[&Path]) -> usize {
    let mut total = 0u64;
    for p in paths {
        let Ok(f) = crate::output::open_regular(p) else {
            continue;
        };
        let size = f.metadata().map_or(0, |m| m.len());
        let mut head = Vec::new();
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(f, 1 << 16), &mut head);
        let lines = head.iter().filter(|&&b| b == b'\n').count() as u64;
        let per_line = (head.len() as u64)
            .checked_div(lines)
            .map_or(MIN_LINE, |n| n.max(MIN_LINE));
        // A tenth more than the first lines say, for shorter lines further on.
        total += size / per_line + size / per_line / 10;
    }
    total.min(MAX_ENTRIES as u64) as usize
}

/// A catalogue opened by a run: locked, read, and ready to take what the run publishes.
pub struct Catalogue {
    path: PathBuf,
    /// Every fingerprint the run draws past (one with an entry that is not the run's
    /// own), sorted.
    drawn: Arc<Vec<Fingerprint>>,
    /// Fingerprints every entry of which is the run's own (published earlier by the
    /// same job or template, which a rerun makes again), sorted.
    own: Vec<Fingerprint>,
    /// What this run added.
    added: HashSet<Fingerprint>,
    _lock: Lock,
}

impl Catalogue {
    /// Lock and read the catalogue at `path` (a missing file is an empty catalogue);
    /// `games` are the game names there are. Entries for which `own` is true are this
    /// run's own from an earlier attempt: they are not drawn past (so a rerun makes the
    /// same puzzles again), and they are not added twice. Another run holding the
    /// catalogue is [`Error::Busy`].
    pub fn open(
        path: &Path,
        games: &[&'static str],
        own: impl Fn(&Line<'_>) -> bool,
    ) -> Result<Catalogue> {
        check_path(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::output::create_folder(dir, "the catalogue's folder")?;
        }
        let lock = Lock::beside(path)?;
        let mut drawn: Vec<Fingerprint> = Vec::new();
        let mut mine: Vec<Fingerprint> = Vec::new();
        read_entries_into(path, games, &own, &mut drawn, &mut mine)?;
        drawn.sort_unstable();
        drawn.dedup();
        drawn.shrink_to_fit();
        mine.sort_unstable();
        mine.dedup();
        mine.retain(|f| drawn.binary_search(f).is_err());
        mine.shrink_to_fit();
        Ok(Catalogue {
            path: path.to_path_buf(),
            drawn: Arc::new(drawn),
            own: mine,
            added: HashSet::new(),
            _lock: lock,
        })
    }

    /// The catalogue's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The distinct puzzles it holds (with what this run added).
    pub fn len(&self) -> usize {
        self.drawn.len() + self.own.len() + self.added.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Refuse, before any work, a run that may add `adding` puzzles to a catalogue
    /// that has room for fewer.
    pub fn check_room(&self, adding: u64) -> Result<()> {
        let room = MAX_ENTRIES.saturating_sub(self.len()) as u64;
        if adding > room {
            return Err(Error::invalid(format!(
                "catalogue {} holds {} puzzles and this run may add {adding}: more than the {MAX_ENTRIES} a catalogue holds; start a new catalogue",
                crate::output::escaped_path(&self.path),
                self.len()
            )));
        }
        Ok(())
    }

    /// The fingerprints a run must draw past: every entry but the run's own.
    pub fn seen(&self) -> Seen {
        Seen {
            base: self.drawn.clone(),
            new: HashSet::new(),
        }
    }

    fn holds(&self, f: &Fingerprint) -> bool {
        self.drawn.binary_search(f).is_ok()
            || self.own.binary_search(f).is_ok()
            || self.added.contains(f)
    }

    /// Add `entries` that are not in the catalogue yet: the file is written whole to a
    /// temporary file beside it and renamed into place. Returns how many were added
    /// (none: the file is not touched).
    pub fn add(&mut self, entries: &[Entry]) -> Result<usize> {
        let mut new: Vec<&Entry> = Vec::new();
        let mut fresh = HashSet::new();
        for e in entries {
            if !self.holds(&e.fingerprint) && fresh.insert(e.fingerprint) {
                new.push(e);
            }
        }
        if new.is_empty() {
            return Ok(0);
        }
        self.check_room(new.len() as u64)?;
        let mut out = crate::output::AtomicFile::create(&self.path)?;
        let w = |e: std::io::Error| Error::io("cannot write to", &self.path, e);
        match crate::output::open_regular(&self.path) {
            Ok(old) => {
                let mut old = std::io::BufReader::new(old);
                std::io::copy(&mut old, &mut out).map_err(w)?;
                // A file that does not end in a newline gets one before the new lines.
                if !ends_with_newline(&self.path)? {
                    out.write_all(b"\n").map_err(w)?;
                }
            }
            Err(_) if !self.path.exists() => out.write_all(HEADER.as_bytes()).map_err(w)?,
            Err(e) => return Err(e),
        }
        for e in &new {
            out.write_all(e.line().as_bytes()).map_err(w)?;
        }
        out.commit()?;
        self.added.extend(new.iter().map(|e| e.fingerprint));
        Ok(new.len())
    }
}

/// Read a catalogue's fingerprints: those with an entry `own` says is not the run's
/// into `drawn`, the rest into `mine` (about 16 bytes each).
fn read_entries_into(
    path: &Path,
    games: &[&'static str],
    own: &impl Fn(&Line<'_>) -> bool,
    drawn: &mut Vec<Fingerprint>,
    mine: &mut Vec<Fingerprint>,
) -> Result<()> {
    read_lines(path, games, |e| {
        let v = if own(&e) { &mut *mine } else { &mut *drawn };
        v.try_reserve(1).map_err(|_| {
            Error::invalid(format!(
                "catalogue {}: not enough memory to hold its entries (16 bytes each)",
                crate::output::escaped_path(path)
            ))
        })?;
        v.push(e.fingerprint);
        Ok(())
    })?;
    Ok(())
}

fn ends_with_newline(path: &Path) -> Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = crate::output::open_regular(path)?;
    let len = f
        .metadata()
        .map_err(|e| Error::io("cannot read", path, e))?
        .len();
    if len == 0 {
        return Ok(true);
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::End(-1))
        .and_then(|_| f.read_exact(&mut last))
        .map_err(|e| Error::io("cannot read", path, e))?;
    Ok(last[0] == b'\n')
}

/// `path` with `.` and `name/..` taken out by their spelling (a folder that does not
/// exist yet cannot be resolved on disk), so two spellings of one file compare equal.
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    let p: PathBuf = out.iter().collect();
    if p.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        p
    }
}

/// The lock file beside a catalogue: `PATH.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Refuse a catalogue path that cannot be one, before anything is created beside it:
/// empty, ending in a separator, a folder, a link, a device or a FIFO, or a name with
/// control characters.
pub fn check_path(path: &Path) -> Result<()> {
    let text = path.as_os_str().to_string_lossy();
    if text.is_empty() {
        return Err(Error::invalid("the catalogue's path is empty: name a file"));
    }
    if text.chars().any(char::is_control) {
        return Err(Error::invalid(format!(
            "catalogue {}: the name holds control characters",
            crate::output::escaped(&text)
        )));
    }
    if text.ends_with('/') || path.file_name().is_none() {
        return Err(Error::invalid(format!(
            "catalogue {}: name a file, not a folder",
            path.display()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(Error::invalid(format!(
            "catalogue {} is a symbolic link: name the file itself",
            path.display()
        ))),
        Ok(m) if !m.is_file() => Err(Error::invalid(format!(
            "catalogue {} is not a regular file (a folder, a device or a FIFO)",
            path.display()
        ))),
        Ok(m) if std::os::unix::fs::MetadataExt::nlink(&m) > 1 => Err(Error::invalid(format!(
            "catalogue {} has other hard links: a catalogue is replaced whole when it grows, which would split them, so each name would miss the other's puzzles; keep one file and name it from every job",
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// What a catalogue's lock file holds: it tells puzzlebook's lock from a file someone
/// else keeps at that name.
const LOCK_NOTE: &str = "puzzlebook: the lock of the catalogue beside it\n";

/// `PATH.lock` beside a catalogue, held (exclusively) while a run or a merge uses the
/// catalogue, and removed when it is let go: nothing is left beside the catalogue
/// once the command ends, however it fails (only a killed process leaves one, which
/// the next command takes over).
///
/// A command that opened the lock file just before its holder removed it would hold a
/// lock on a file no longer there: after taking the lock, the file at the path must be
/// the one locked, else it tries again.
struct Lock {
    file: std::fs::File,
    path: PathBuf,
}

#[cfg(unix)]
fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

impl Lock {
    /// Take `PATH.lock` beside the catalogue at `path`, without waiting.
    fn beside(path: &Path) -> Result<Lock> {
        check_path(path)?;
        let lock_path = lock_path(path);
        for _ in 0..8 {
            let mut o = std::fs::OpenOptions::new();
            o.create(true).truncate(false).read(true).write(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
            }
            let f = o.open(&lock_path).map_err(|e| {
                if e.raw_os_error() == Some(libc::ELOOP) {
                    Error::invalid(format!(
                        "{} is a symbolic link, at the name of the catalogue's lock: remove it",
                        lock_path.display()
                    ))
                } else {
                    Error::io("cannot create", &lock_path, e)
                }
            })?;
            let meta = f
                .metadata()
                .map_err(|e| Error::io("cannot read", &lock_path, e))?;
            if !meta.is_file() || std::os::unix::fs::MetadataExt::nlink(&meta) > 1 {
                return Err(Error::invalid(format!(
                    "{} is not a lock puzzlebook made (not a regular file, or it has other hard links): move it",
                    lock_path.display()
                )));
            }
            match f.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(Error::Busy(format!(
                        "another puzzlebook run is drawing from the catalogue {} (it holds {}): try again when it is done",
                        path.display(),
                        lock_path.display()
                    )))
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(Error::io("cannot lock", &lock_path, e))
                }
            }
            // Still the file at the path (its holder did not remove it meanwhile)?
            let same =
                std::fs::symlink_metadata(&lock_path).is_ok_and(|m| file_id(&m) == file_id(&meta));
            if same {
                // A file someone else keeps at this name is theirs: never taken over,
                // never removed.
                let mut text = Vec::new();
                let read = std::io::Read::read_to_end(
                    &mut std::io::Read::take(&f, LOCK_NOTE.len() as u64 + 1),
                    &mut text,
                );
                if read.is_err() || !(text.is_empty() || text == LOCK_NOTE.as_bytes()) {
                    return Err(Error::invalid(format!(
                        "{} is not a lock puzzlebook made (it holds something else): move it, or name another catalogue",
                        lock_path.display()
                    )));
                }
                if text.is_empty() {
                    let _ = std::io::Write::write_all(&mut &f, LOCK_NOTE.as_bytes());
                }
                return Ok(Lock {
                    file: f,
                    path: lock_path,
                });
            }
        }
        Err(Error::Busy(format!(
            "the lock {} beside the catalogue keeps changing: another run is using it; try again",
            lock_path.display()
        )))
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Remove the lock file while it is still held, and only if it is still ours.
        let ours = self
            .file
            .metadata()
            .ok()
            .zip(std::fs::symlink_metadata(&self.path).ok());
        if ours.is_some_and(|(a, b)| file_id(&a) == file_id(&b)) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Fingerprints to draw past: a catalogue's (shared, sorted), then each puzzle a run
/// has taken.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    base: Arc<Vec<Fingerprint>>,
    new: HashSet<Fingerprint>,
}

impl Seen {
    /// Whether `f` was seen; if not, it is now (true: a new puzzle).
    pub fn take(&mut self, f: Fingerprint) -> bool {
        self.base.binary_search(&f).is_err() && self.new.insert(f)
    }
    /// Whether `f` was seen.
    pub fn contains(&self, f: &Fingerprint) -> bool {
        self.base.binary_search(f).is_ok() || self.new.contains(f)
    }
    /// How many fingerprints.
    pub fn len(&self) -> usize {
        self.base.len() + self.new.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One puzzle an output published: its game, fingerprint and place in the output
/// (`12`: item 12; `2.5`: section 2's item 5 in a book).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The game, as [`crate::game::Game::NAME`] spells it.
    pub game: &'static str,
    /// The puzzle's fingerprint.
    pub fingerprint: Fingerprint,
    /// Where in the output it is.
    pub place: String,
}

/// The puzzles a run took past a catalogue (`crate::batch::Taken`: fingerprint and
/// item index), as published by an output of `game`; `place` names an item's place
/// from its index.
pub fn published(
    game: &'static str,
    taken: Vec<(Fingerprint, u64)>,
    place: impl Fn(u64) -> String,
) -> Vec<Published> {
    taken
        .into_iter()
        .map(|(fingerprint, index)| Published {
            game,
            fingerprint,
            place: place(index),
        })
        .collect()
}

/// A set of fingerprints with room for `n` reserved up front (no growth, so no
/// moment holding the old table and the new).
fn fingerprint_set(n: usize, what: &Path) -> Result<HashSet<Fingerprint>> {
    let mut set = HashSet::new();
    set.try_reserve(n).map_err(|_| {
        Error::invalid(format!(
            "{} (with the others read with it): not enough memory to hold {n} fingerprints",
            crate::output::escaped_path(what)
        ))
    })?;
    Ok(set)
}

/// Merge catalogues: every entry of `inputs`, each fingerprint once (its first
/// entry), written to `into` atomically (which may be one of the inputs), line by
/// line as read. Returns the entries written.
pub fn merge(inputs: &[PathBuf], into: &Path, games: &[&'static str]) -> Result<usize> {
    for p in inputs {
        check_path(p)?;
        if !p.exists() {
            return Err(Error::invalid(format!(
                "catalogue {} does not exist",
                p.display()
            )));
        }
    }
    // The catalogue merged into keeps its entries only when it is merged too: a
    // catalogue replaced by others would forget what it held, and its puzzles would
    // be published again.
    if into.exists() && !inputs.iter().any(|p| crate::output::same_file(p, into)) {
        return Err(Error::invalid(format!(
            "{} exists and is not among the catalogues merged: name it among them to keep its puzzles (catalogue merge A B {} --into {}), or choose a new file",
            into.display(),
            into.display(),
            into.display()
        )));
    }
    let _lock = Lock::beside(into)?;
    let paths: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let mut seen = fingerprint_set(most_entries(&paths), paths[0])?;
    let mut out = crate::output::AtomicFile::create(into)?;
    let w = |e: std::io::Error| Error::io("cannot write to", into, e);
    out.write_all(HEADER.as_bytes()).map_err(w)?;
    for p in inputs {
        read_lines(p, games, |e| {
            if seen.contains(&e.fingerprint) {
                return Ok(());
            }
            if seen.len() >= MAX_ENTRIES {
                return Err(Error::invalid(format!(
                    "the merged catalogue would hold more than {MAX_ENTRIES} entries"
                )));
            }
            seen.insert(e.fingerprint);
            out.write_all(e.text().as_bytes()).map_err(w)
        })?;
    }
    out.commit()?;
    Ok(seen.len())
}

/// What `catalogue count` says of a catalogue.
#[derive(Debug, Default)]
pub struct Counts {
    /// Distinct puzzles.
    pub total: u64,
    /// Distinct puzzles by game, in the order of the names given.
    pub by_game: Vec<(&'static str, u64)>,
    /// The first and last dates entries were published for, and how many dates.
    pub dates: Option<(String, String, usize)>,
}

/// Count a catalogue's distinct puzzles by game, and the dates its entries name,
/// reading it line by line.
pub fn count(path: &Path, games: &[&'static str]) -> Result<Counts> {
    let mut seen = fingerprint_set(most_entries(&[path]), path)?;
    let mut by_game: Vec<(&'static str, u64)> = games.iter().map(|g| (*g, 0)).collect();
    // Dates as YYYYMMDD numbers: at most one per day of 10,000 years.
    let mut dates = std::collections::BTreeSet::new();
    read_lines(path, games, |e| {
        if e.date != "-" {
            if let Ok(d) = e.date.replace('-', "").parse::<u32>() {
                dates.insert(d);
            }
        }
        if seen.insert(e.fingerprint) {
            if let Some(slot) = by_game.iter_mut().find(|(g, _)| *g == e.game) {
                slot.1 += 1;
            }
        }
        Ok(())
    })?;
    let iso = |d: u32| format!("{:04}-{:02}-{:02}", d / 10_000, d / 100 % 100, d % 100);
    Ok(Counts {
        total: seen.len() as u64,
        by_game: by_game.into_iter().filter(|(_, n)| *n > 0).collect(),
        dates: match (dates.first(), dates.last()) {
            (Some(&a), Some(&b)) => Some((iso(a), iso(b), dates.len())),
            _ => None,
        },
    })
}

/// Every entry of a catalogue file, in memory (at most `MAX_ENTRIES`; for small
/// files such as a run's `published.txt`, and tests).
pub fn entries(path: &Path, games: &[&'static str]) -> Result<Vec<Entry>> {
    let mut v = Vec::new();
    read_lines(path, games, |e| {
        v.push(e.to_entry());
        Ok(())
    })?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_images_are_the_squares_symmetries() {
        let g = vec![vec![1, 2, 3], vec![4, 5, 6]];
        let imgs = dihedral(&g);
        assert_eq!(imgs.len(), 8);
        assert_eq!(imgs[0], g);
        assert_eq!(imgs[1], vec![vec![4, 1], vec![5, 2], vec![6, 3]]);
        assert_eq!(imgs[2], vec![vec![6, 5, 4], vec![3, 2, 1]]);
        assert_eq!(imgs[3], vec![vec![3, 6], vec![2, 5], vec![1, 4]]);
        assert_eq!(imgs[4], vec![vec![3, 2, 1], vec![6, 5, 4]]);
        assert_eq!(imgs[5], vec![vec![1, 4], vec![2, 5], vec![3, 6]]);
        assert_eq!(imgs[6], vec![vec![4, 5, 6], vec![1, 2, 3]]);
        assert_eq!(imgs[7], vec![vec![6, 3], vec![5, 2], vec![4, 1]]);
        // All distinct for a grid with no symmetry of its own.
        for a in 0..8 {
            for b in a + 1..8 {
                assert_ne!(imgs[a], imgs[b]);
            }
        }
    }

    #[test]
    fn paths_are_normalized_by_their_spelling() {
        assert_eq!(
            normalize(Path::new("a/nope/../b/./c.txt")),
            PathBuf::from("a/b/c.txt")
        );
        assert_eq!(
            normalize(Path::new("../x/../c.txt")),
            PathBuf::from("../c.txt")
        );
        assert_eq!(normalize(Path::new("/a/../c.txt")), PathBuf::from("/c.txt"));
    }

    #[test]
    fn fingerprints_read_back_and_lines_round_trip() {
        let f = fingerprint("flip", "x");
        assert_eq!(f.to_string().parse::<Fingerprint>(), Ok(f));
        assert!("xyz".parse::<Fingerprint>().is_err());
        let mut e = Entry {
            fingerprint: f,
            game: "flip",
            date: "2026-11-26".into(),
            source: "daily/flip.jsonl#3".into(),
            maker: None,
        };
        let games = ["flip", "numbrix"];
        assert_eq!(
            Line::parse(e.line().trim_end(), &games).map(|l| l.to_entry()),
            Ok(e.clone())
        );
        e.maker = Some(maker(&["job", "/srv/daily.toml"]));
        assert_eq!(e.line().matches('\t').count(), 4);
        assert_eq!(
            Line::parse(e.line().trim_end(), &games).map(|l| l.to_entry()),
            Ok(e.clone())
        );
        let other = e.line().replace("\tflip\t", "\tchess\t");
        assert!(Line::parse(other.trim_end(), &games)
            .unwrap_err()
            .contains("'chess' is not a game"));
        assert_ne!(fingerprint("flip", "x"), fingerprint("numbrix", "x"));
    }
}
