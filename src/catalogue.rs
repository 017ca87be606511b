//! Catalogues of published puzzles: canonical fingerprints, the file that lists them,
//! and the set a run draws past.
//!
//! A puzzle's **fingerprint** is the first 128 bits of SHA-256 over its game's name and
//! its canonical text ([`crate::games::Game::canonical`]): the same puzzle up to the
//! board's symmetries gives the same text, so a rotated or mirrored board, or a Numbrix
//! grid numbered backwards, is found in the catalogue as the puzzle it is.
//!
//! A **catalogue** is a text file, one published puzzle a line, four fields split by a
//! tab: fingerprint (32 hex digits), game, the date it was published for (`-` for
//! none) and where (`job/output#index`). Lines starting with `#` are comments. Order
//! does not matter and a fingerprint counts once, so catalogues merge by putting their
//! lines together ([`merge`]). A run holds `CATALOGUE.lock` beside it from the moment
//! it reads the catalogue until it has added what it published, so two runs never
//! draw from one catalogue at once; additions are written to a temporary file and
//! renamed into place, so a reader sees the old catalogue or the new one, never half.

use crate::{Error, Result};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// At most this many entries in a catalogue (about 40 bytes of memory each while a run
/// holds it): ten million, a feed of a thousand puzzles a day for 27 years.
pub const MAX_ENTRIES: usize = 10_000_000;

/// The longest line a catalogue may hold, in bytes.
const MAX_LINE: usize = 4096;

/// What a new catalogue file starts with.
const HEADER: &str = "# puzzlebook catalogue: the puzzles already published, one a line, fields split by tabs:\n# fingerprint (same puzzle up to the board's symmetries), game, date published for, where (job/output#index).\n";

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

impl std::str::FromStr for Fingerprint {
    type Err = ();
    fn from_str(s: &str) -> std::result::Result<Self, ()> {
        if s.len() != 32 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(());
        }
        let mut out = [0u8; 16];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| ())?;
        }
        Ok(Fingerprint(out))
    }
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

/// One line of a catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle's fingerprint.
    pub fingerprint: Fingerprint,
    /// Its game, as [`crate::games::Game::NAME`] spells it.
    pub game: String,
    /// The date it was published for (`YYYY-MM-DD`), or `-`.
    pub date: String,
    /// Where it was published: `job/output#index` (or `book/FILE#index`).
    pub source: String,
}

impl Entry {
    /// The entry as its catalogue line (with the newline).
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\n",
            self.fingerprint, self.game, self.date, self.source
        )
    }

    fn parse(line: &str) -> Option<Entry> {
        let mut f = line.splitn(4, '\t');
        let fingerprint = f.next()?.parse().ok()?;
        let game = f.next()?.to_string();
        let date = f.next()?.to_string();
        let source = f.next()?.to_string();
        let source = source.trim_end().to_string();
        let clean = |s: &str| !s.is_empty() && !s.chars().any(char::is_control);
        // A game as the registry spells it; a date as YYYY-MM-DD (month 1-12, day
        // 1-31) or "-".
        let game_ok = game.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') && !game.is_empty();
        let b = date.as_bytes();
        let num = |r: std::ops::Range<usize>| {
            std::str::from_utf8(&b[r])
                .ok()
                .and_then(|t| t.parse::<u32>().ok())
        };
        let date_ok = date == "-"
            || (b.len() == 10
                && b[4] == b'-'
                && b[7] == b'-'
                && date
                    .bytes()
                    .enumerate()
                    .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
                && num(5..7).is_some_and(|m| (1..=12).contains(&m))
                && num(8..10).is_some_and(|d| (1..=31).contains(&d)));
        (game_ok && date_ok && clean(&source)).then_some(Entry {
            fingerprint,
            game,
            date,
            source,
        })
    }
}

/// Read every entry of a catalogue file in order, passing each to `each` (at most
/// [`MAX_ENTRIES`]; a bad line is an error naming it). A missing file has none.
fn read_entries(path: &Path, mut each: impl FnMut(Entry) -> Result<()>) -> Result<usize> {
    check_path(path)?;
    let file = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        _ => crate::output::open_regular(path)?,
    };
    let mut r = std::io::BufReader::new(file);
    let mut buf = Vec::new();
    let mut n = 0usize;
    let bad = |line: usize, why: &str| {
        Error::invalid(format!("catalogue {} line {line}: {why}", path.display()))
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
            Err(_) => return Err(bad(line_no, "longer than 4096 bytes")),
        }
        let text = std::str::from_utf8(&buf).map_err(|_| bad(line_no, "not UTF-8 text"))?;
        let text = text.trim_end_matches(['\n', '\r']);
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if text.trim().is_empty() || text.starts_with('#') {
            continue;
        }
        let entry = Entry::parse(text).ok_or_else(|| {
            bad(
                line_no,
                "not a catalogue line (fingerprint, game, date, where; split by tabs)",
            )
        })?;
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

/// A catalogue opened by a run: locked, read, and ready to take what the run publishes.
pub struct Catalogue {
    path: PathBuf,
    /// Every fingerprint in the file, and whether it is one of this run's own
    /// (published earlier by the same job for the same date, which a rerun makes again).
    known: HashMap<Fingerprint, bool>,
    /// Entries by game, for messages.
    by_game: HashMap<String, u64>,
    _lock: std::fs::File,
}

impl Catalogue {
    /// Lock and read the catalogue at `path` (a missing file is an empty catalogue).
    /// Entries for which `own` is true are this run's own from an earlier attempt:
    /// they are not drawn past (so a rerun makes the same puzzles again), and they are
    /// not added twice. Another run holding the catalogue is [`Error::Busy`].
    pub fn open(path: &Path, own: impl Fn(&Entry) -> bool) -> Result<Catalogue> {
        check_path(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::output::create_folder(dir, "the catalogue's folder")?;
        }
        let lock = lock_beside(path)?;
        let mut known = HashMap::new();
        let mut by_game: HashMap<String, u64> = HashMap::new();
        read_entries(path, |e| {
            let mine = own(&e);
            let slot = known.entry(e.fingerprint).or_insert(mine);
            *slot &= mine;
            *by_game.entry(e.game).or_default() += 1;
            Ok(())
        })?;
        Ok(Catalogue {
            path: path.to_path_buf(),
            known,
            by_game,
            _lock: lock,
        })
    }

    /// The catalogue's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The fingerprints a run must draw past: every entry but the run's own.
    pub fn seen(&self) -> Seen {
        Seen {
            set: self
                .known
                .iter()
                .filter(|(_, own)| !**own)
                .map(|(f, _)| *f)
                .collect(),
        }
    }

    /// Entries of `game` in the catalogue.
    pub fn count(&self, game: &str) -> u64 {
        self.by_game.get(game).copied().unwrap_or(0)
    }

    /// Add `entries` that are not in the catalogue yet: the file is written whole to a
    /// temporary file beside it and renamed into place. Returns how many were added
    /// (none: the file is not touched).
    pub fn add(&mut self, entries: &[Entry]) -> Result<usize> {
        let mut new: Vec<&Entry> = Vec::new();
        let mut fresh = std::collections::HashSet::new();
        for e in entries {
            if !self.known.contains_key(&e.fingerprint) && fresh.insert(e.fingerprint) {
                new.push(e);
            }
        }
        if new.is_empty() {
            return Ok(0);
        }
        if self.known.len() + new.len() > MAX_ENTRIES {
            return Err(Error::invalid(format!(
                "catalogue {} would hold more than {MAX_ENTRIES} entries: start a new one",
                self.path.display()
            )));
        }
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
        for e in &new {
            self.known.insert(e.fingerprint, true);
            *self.by_game.entry(e.game.clone()).or_default() += 1;
        }
        Ok(new.len())
    }
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
/// empty, ending in a separator, a folder, a link, a device or a FIFO.
pub fn check_path(path: &Path) -> Result<()> {
    let text = path.as_os_str().to_string_lossy();
    if text.is_empty() {
        return Err(Error::invalid("the catalogue's path is empty: name a file"));
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
        _ => Ok(()),
    }
}

/// Take `PATH.lock` beside the catalogue, without waiting.
fn lock_beside(path: &Path) -> Result<std::fs::File> {
    check_path(path)?;
    let lock_path = lock_path(path);
    let mut o = std::fs::OpenOptions::new();
    o.create(true).truncate(false).read(true).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = o
        .open(&lock_path)
        .map_err(|e| Error::io("cannot create", &lock_path, e))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Error::invalid(format!(
            "{} is not a regular file",
            lock_path.display()
        )));
    }
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::Busy(format!(
            "another puzzlebook run is drawing from the catalogue {} (it holds {}): try again when it is done",
            path.display(),
            lock_path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::io("cannot lock", &lock_path, e)),
    }
}

/// Fingerprints to draw past: a catalogue's, then each puzzle a run has taken.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    set: std::collections::HashSet<Fingerprint>,
}

impl Seen {
    /// Whether `f` was seen; if not, it is now (true: a new puzzle).
    pub fn take(&mut self, f: Fingerprint) -> bool {
        self.set.insert(f)
    }
    /// Whether `f` was seen.
    pub fn contains(&self, f: &Fingerprint) -> bool {
        self.set.contains(f)
    }
    /// How many fingerprints.
    pub fn len(&self) -> usize {
        self.set.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// One puzzle an output published: its game, fingerprint and place in the output
/// (`12`: item 12; `2.5`: section 2's item 5 in a book).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The game, as [`crate::games::Game::NAME`] spells it.
    pub game: &'static str,
    /// The puzzle's fingerprint.
    pub fingerprint: Fingerprint,
    /// Where in the output it is.
    pub place: String,
}

/// The puzzles a run took past a catalogue ([`crate::batch::Taken`]: fingerprint and
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

/// Merge catalogues: every entry of `inputs`, each fingerprint once (its first
/// entry), written to `into` atomically (which may be one of the inputs). Returns the
/// entries written.
pub fn merge(inputs: &[PathBuf], into: &Path) -> Result<usize> {
    let _lock = lock_beside(into)?;
    let mut seen = std::collections::HashSet::new();
    let mut lines: Vec<String> = Vec::new();
    for p in inputs {
        if !p.exists() {
            return Err(Error::invalid(format!(
                "catalogue {} does not exist",
                p.display()
            )));
        }
        read_entries(p, |e| {
            if seen.insert(e.fingerprint) {
                if lines.len() >= MAX_ENTRIES {
                    return Err(Error::invalid(format!(
                        "the merged catalogue would hold more than {MAX_ENTRIES} entries"
                    )));
                }
                lines.push(e.line());
            }
            Ok(())
        })?;
    }
    let mut out = crate::output::AtomicFile::create(into)?;
    let w = |e: std::io::Error| Error::io("cannot write to", into, e);
    out.write_all(HEADER.as_bytes()).map_err(w)?;
    for l in &lines {
        out.write_all(l.as_bytes()).map_err(w)?;
    }
    out.commit()?;
    Ok(lines.len())
}

/// Every entry of a catalogue file (for `catalogue list` and tests).
pub fn entries(path: &Path) -> Result<Vec<Entry>> {
    let mut v = Vec::new();
    read_entries(path, |e| {
        v.push(e);
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
        let e = Entry {
            fingerprint: f,
            game: "flip".into(),
            date: "2026-11-26".into(),
            source: "daily/flip.jsonl#3".into(),
        };
        assert_eq!(Entry::parse(e.line().trim_end()), Some(e));
        assert_ne!(fingerprint("flip", "x"), fingerprint("numbrix", "x"));
    }
}
