//! Part files: what one shard of a run writes, to be merged with the other shards into
//! exactly the bytes a single run writes.
//!
//! A part is a header line (JSON: format version, tool version, output kind, the
//! run's configuration without the shard, and the shard `[K, N]`), then the payload:
//! - `items`: one line per item, in index order: the JSON Lines record itself, or for
//!   text output `{"index": i, "text": "..."}`;
//! - statistics (`catan-bias`, `carcassonne-stats`, `number-match-stats`): one line of
//!   mergeable counts (sums only, never per-item rows);
//! - `book`: the finished PDF (a book is made whole by one shard; its part is `[0, 1]`).
//!
//! Every part but a book's ends with an end line,
//! `{"puzzlebook_part_end":{"lines":L,"sha256":"..."}}`: the number of lines before it
//! and the SHA-256 of every byte before it, header included. A book part's header
//! carries the SHA-256 of its PDF instead. So a part that was cut off, or changed by
//! so much as one digit, is refused, by `merge` and by a shard run that asks whether
//! its part is already made.
//!
//! Merging checks that the parts come from the same run (same kind, configuration and
//! tool version), that every shard 0..N-1 is there exactly once, and that each part
//! holds exactly the items its shard should.

use crate::limits::{MAX_BOOK_PART_BYTES, MAX_PART_LINE_BYTES};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The part format this version writes and reads (2: with the end line).
pub(crate) const FORMAT: u32 = 2;

/// The start of a part's end line.
const END: &str = "{\"puzzlebook_part_end\":";

/// The running hash of what a part holds before its end line.
#[derive(Clone, Default)]
pub(crate) struct Seal {
    hash: Sha256,
    lines: u64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct EndLine {
    puzzlebook_part_end: End,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(deny_unknown_fields)]
struct End {
    lines: u64,
    sha256: String,
}

impl Seal {
    /// An empty seal: no bytes, no lines.
    pub fn new() -> Seal {
        Seal::default()
    }

    /// Count bytes written to (or read from) the part.
    pub fn add(&mut self, bytes: &[u8]) {
        self.hash.update(bytes);
        self.lines += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    }

    fn end(&self) -> End {
        End {
            lines: self.lines,
            sha256: super::manifest::hex(&self.hash.clone().finalize()),
        }
    }

    /// The end line for what was added so far.
    pub(crate) fn end_line(&self) -> String {
        serde_json::to_string(&EndLine {
            puzzlebook_part_end: self.end(),
        })
        .expect("end lines serialise")
            + "\n"
    }
}

/// A part's first line: what made it, so that only parts of one run merge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The part format version (`FORMAT`).
    pub puzzlebook_part: u32,
    /// The version of the tool that wrote the part (parts of other versions do not merge).
    pub version: String,
    /// The output kind (`items`, `book`, `catan-bias`, ...).
    pub kind: String,
    /// The run's configuration without the shard; parts merge only when it is equal.
    pub config: Value,
    /// `[K, N]`: shard K of N.
    pub shard: [u64; 2],
    /// For parts made by `run JOB --shard`: which job output (its configuration hash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_output: Option<String>,
    /// For a book part: the puzzles in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<u64>,
    /// For a book part: the SHA-256 of the PDF that follows (a cut-off or changed
    /// payload is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload_sha256: Option<String>,
    /// For a book part: the facts written beside the merged PDF (`FILE.pdf.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<Value>,
}

impl Header {
    /// A header for shard `shard` of a run of `kind` with `config` (untagged, no book fields).
    pub fn new(kind: &str, config: Value, shard: crate::shard::Shard) -> Header {
        Header {
            puzzlebook_part: FORMAT,
            version: crate::VERSION.to_string(),
            kind: kind.to_string(),
            config,
            shard: [shard.index, shard.count],
            job_output: None,
            items: None,
            payload_sha256: None,
            facts: None,
        }
    }

    /// The same header recording which job output the part belongs to (None: none).
    pub(crate) fn tagged(mut self, tag: Option<&str>) -> Header {
        self.job_output = tag.map(str::to_string);
        self
    }

    /// The header as one JSON line, newline included.
    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("headers serialise") + "\n"
    }
}

/// An open part: its header and a reader positioned at the payload.
pub struct PartFile {
    /// The part file's path (for messages).
    pub path: PathBuf,
    /// The header, read and checked.
    pub header: Header,
    reader: std::io::BufReader<std::fs::File>,
    seal: Seal,
    /// The end line was read and matched.
    ended: bool,
    buf: Vec<u8>,
}

impl PartFile {
    /// Open a part and read its header (a file that is not a part is refused).
    pub fn open(path: &Path) -> Result<PartFile> {
        let file = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
        PartFile::from_file(file, path)
    }

    /// [`PartFile::open`] of a file already open (`path` names it in messages).
    pub fn from_file(file: std::fs::File, path: &Path) -> Result<PartFile> {
        let mut reader = std::io::BufReader::new(file);
        let not_part = || {
            Error::invalid(format!(
                "{} is not a puzzlebook part file (make parts with --shard K/N)",
                path.display()
            ))
        };
        let mut first = Vec::new();
        let got = crate::input::read_line_capped(&mut reader, &mut first, MAX_PART_LINE_BYTES)
            .map_err(|e| Error::io("cannot read", path, e))?;
        if got.is_err() || !first.ends_with(b"\n") {
            return Err(not_part());
        }
        let v: Value = serde_json::from_slice(&first).map_err(|_| not_part())?;
        if v.get("puzzlebook_part").is_none() {
            return Err(not_part());
        }
        if v["puzzlebook_part"] != FORMAT {
            return Err(Error::invalid(format!(
                "{}: part format {} is not the format {FORMAT} this version reads: make the parts again with this version",
                path.display(),
                v["puzzlebook_part"]
            )));
        }
        let header: Header = serde_json::from_value(v)
            .map_err(|e| Error::invalid(format!("{}: bad part header: {e}", path.display())))?;
        let mut seal = Seal::new();
        seal.add(&first);
        Ok(PartFile {
            path: path.to_path_buf(),
            header,
            reader,
            seal,
            ended: false,
            buf: Vec::new(),
        })
    }

    fn damaged(&self, what: &str) -> Error {
        Error::invalid(format!(
            "{}: {what}: a cut-off or changed part; make it again",
            self.path.display()
        ))
    }

    /// The next payload line, without its newline; None after the end line, which
    /// must be there and match everything before it.
    pub fn next_line(&mut self) -> Result<Option<String>> {
        if self.ended {
            return Ok(None);
        }
        let got =
            crate::input::read_line_capped(&mut self.reader, &mut self.buf, MAX_PART_LINE_BYTES)
                .map_err(|e| Error::io("cannot read", &self.path, e))?;
        let n = match got {
            Ok(n) => n,
            Err(_) => {
                return Err(self.damaged(&format!(
                    "a line is longer than {MAX_PART_LINE_BYTES} bytes"
                )))
            }
        };
        if n == 0 {
            return Err(self.damaged("it ends without its end line"));
        }
        if !self.buf.ends_with(b"\n") {
            return Err(self.damaged("the last line is cut off"));
        }
        if self.buf.starts_with(END.as_bytes()) {
            let end: EndLine = serde_json::from_slice(&self.buf)
                .map_err(|_| self.damaged("its end line is not one"))?;
            if end.puzzlebook_part_end != self.seal.end() {
                return Err(self.damaged("its content does not match the SHA-256 in its end line"));
            }
            let mut more = [0u8; 1];
            if self
                .reader
                .read(&mut more)
                .map_err(|e| Error::io("cannot read", &self.path, e))?
                > 0
            {
                return Err(self.damaged("there is more after its end line"));
            }
            self.ended = true;
            return Ok(None);
        }
        self.seal.add(&self.buf);
        self.buf.pop();
        let line = String::from_utf8(std::mem::take(&mut self.buf))
            .map_err(|_| self.damaged("a line is not UTF-8 text"))?;
        Ok(Some(line))
    }

    /// Copy the PDF of a book part to `to`, checking it against the header's hash
    /// (streamed: memory does not grow with the PDF).
    pub(crate) fn copy_payload(&mut self, to: &mut dyn Write) -> Result<u64> {
        let want = self.header.payload_sha256.clone().ok_or_else(|| {
            Error::invalid(format!(
                "{}: the part header has no payload hash",
                self.path.display()
            ))
        })?;
        let mut h = Sha256::new();
        let mut buf = vec![0u8; 1 << 16];
        let mut n = 0u64;
        loop {
            let k = self
                .reader
                .read(&mut buf)
                .map_err(|e| Error::io("cannot read", &self.path, e))?;
            if k == 0 {
                break;
            }
            n += k as u64;
            if n > MAX_BOOK_PART_BYTES {
                return Err(self.damaged(&format!(
                    "its PDF is larger than {MAX_BOOK_PART_BYTES} bytes"
                )));
            }
            h.update(&buf[..k]);
            to.write_all(&buf[..k])
                .map_err(|e| Error::io("cannot write", "the merged book", e))?;
        }
        if super::manifest::hex(&h.finalize()) != want {
            return Err(self.damaged("its PDF does not match its header's SHA-256"));
        }
        self.ended = true;
        Ok(n)
    }

    /// Read the whole part and check it (its end line, or a book's PDF hash).
    pub(crate) fn check_whole(&mut self) -> Result<()> {
        if self.header.kind == "book" {
            self.copy_payload(&mut std::io::sink()).map(|_| ())
        } else {
            while self.next_line()?.is_some() {}
            Ok(())
        }
    }

    /// The payload of a statistics part: one JSON value.
    pub fn state<T: serde::de::DeserializeOwned>(&mut self) -> Result<T> {
        let line = self.next_line()?.ok_or_else(|| {
            Error::invalid(format!("{}: the part has no counts", self.path.display()))
        })?;
        if self.next_line()?.is_some() {
            return Err(Error::invalid(format!(
                "{}: more than one line of counts",
                self.path.display()
            )));
        }
        serde_json::from_str(&line)
            .map_err(|e| Error::invalid(format!("{}: bad counts: {e}", self.path.display())))
    }
}

/// Open parts and check that they make one whole run; sorted by shard.
pub(crate) fn open_all(paths: &[PathBuf]) -> Result<Vec<PartFile>> {
    if paths.is_empty() {
        return Err(Error::invalid("no part files given to merge"));
    }
    // The parts being merged are inputs: no output of this process may replace one.
    for p in paths {
        crate::input::note_read("one of the parts", p);
    }
    let mut parts = paths
        .iter()
        .map(|p| PartFile::open(p))
        .collect::<Result<Vec<_>>>()?;
    let first = parts[0].header.clone();
    let name = |p: &PartFile| p.path.display().to_string();
    for p in &parts[1..] {
        let h = &p.header;
        if h.version != first.version {
            return Err(Error::invalid(format!(
                "parts from different versions: {} was made by puzzlebook {}, {} by {}",
                name(p),
                h.version,
                name(&parts[0]),
                first.version
            )));
        }
        if h.kind != first.kind {
            return Err(Error::invalid(format!(
                "parts of different outputs: {} is {}, {} is {}",
                name(p),
                h.kind,
                name(&parts[0]),
                first.kind
            )));
        }
        if h.job_output != first.job_output {
            return Err(Error::invalid(format!(
                "parts from different runs: {} and {} were made for different job outputs (or one by a job, one by a command)",
                name(p),
                name(&parts[0])
            )));
        }
        if h.config != first.config {
            return Err(Error::invalid(format!(
                "parts from different runs: {} has {} but {} has {}",
                name(p),
                difference(&h.config, &first.config),
                name(&parts[0]),
                difference(&first.config, &h.config)
            )));
        }
        if h.shard[1] != first.shard[1] {
            return Err(Error::invalid(format!(
                "parts cut differently: {} is shard {}/{}, {} is shard {}/{}",
                name(p),
                h.shard[0],
                h.shard[1],
                name(&parts[0]),
                first.shard[0],
                first.shard[1]
            )));
        }
    }
    if first.version != crate::VERSION {
        return Err(Error::invalid(format!(
            "the parts were made by puzzlebook {}; this is {}: merge them with the version that made them",
            first.version,
            crate::VERSION
        )));
    }
    for p in &parts {
        let [k, n] = p.header.shard;
        if n == 0 || k >= n {
            return Err(Error::invalid(format!(
                "{}: shard {k}/{n} is not a shard (K/N with K < N)",
                name(p)
            )));
        }
    }
    parts.sort_by_key(|p| p.header.shard[0]);
    let n = first.shard[1];
    for w in parts.windows(2) {
        if w[0].header.shard[0] == w[1].header.shard[0] {
            return Err(Error::invalid(format!(
                "shard {}/{n} is given twice: {} and {}",
                w[0].header.shard[0],
                name(&w[0]),
                name(&w[1])
            )));
        }
    }
    if (parts.len() as u64) < n {
        // The shards are distinct and below n, so some are missing; name the first few.
        let have: Vec<u64> = parts.iter().map(|p| p.header.shard[0]).collect();
        let missing: Vec<String> = (0..n)
            .filter(|k| !have.contains(k))
            .take(8)
            .map(|k| format!("{k}/{n}"))
            .collect();
        let count = n - parts.len() as u64;
        return Err(Error::invalid(format!(
            "missing part{} {}{} (have {} of {n})",
            if count == 1 { "" } else { "s" },
            missing.join(", "),
            if count > 8 { ", ..." } else { "" },
            parts.len()
        )));
    }
    Ok(parts)
}

/// The first key where two configurations differ, as `key = value` (for messages).
fn difference(a: &Value, b: &Value) -> String {
    if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
        for (k, v) in a {
            if b.get(k) != Some(v) {
                return format!("{k} = {v}");
            }
        }
    }
    a.to_string()
}

/// The part file of shard K/N of the output `name` in `dir`.
pub(crate) fn part_name(dir: &Path, name: &str, shard: crate::shard::Shard) -> PathBuf {
    dir.join(format!("{name}.part-{}-of-{}", shard.index, shard.count))
}
