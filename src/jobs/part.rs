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
//! Merging checks that the parts come from the same run (same kind, configuration and
//! tool version), that every shard 0..N-1 is there exactly once, and that each part
//! holds exactly the items its shard should.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

/// The part format this version writes and reads.
pub const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub puzzlebook_part: u32,
    pub version: String,
    pub kind: String,
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
}

impl Header {
    pub fn new(kind: &str, config: Value, shard: crate::batch::Shard) -> Header {
        Header {
            puzzlebook_part: FORMAT,
            version: crate::VERSION.to_string(),
            kind: kind.to_string(),
            config,
            shard: [shard.index, shard.count],
            job_output: None,
            items: None,
            payload_sha256: None,
        }
    }

    pub fn tagged(mut self, tag: Option<&str>) -> Header {
        self.job_output = tag.map(str::to_string);
        self
    }

    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("headers serialise") + "\n"
    }
}

/// An open part: its header and a reader positioned at the payload.
pub struct Part {
    pub path: PathBuf,
    pub header: Header,
    pub reader: std::io::BufReader<std::fs::File>,
}

impl Part {
    pub fn open(path: &Path) -> Result<Part> {
        let file = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
        let mut reader = std::io::BufReader::new(file);
        let not_part = || {
            Error::invalid(format!(
                "{} is not a puzzlebook part file (make parts with --shard K/N)",
                path.display()
            ))
        };
        let mut first = Vec::new();
        reader
            .read_until(b'\n', &mut first)
            .map_err(|e| Error::io("cannot read", path, e))?;
        let v: Value = serde_json::from_slice(&first).map_err(|_| not_part())?;
        if v.get("puzzlebook_part").is_none() {
            return Err(not_part());
        }
        let header: Header = serde_json::from_value(v)
            .map_err(|e| Error::invalid(format!("{}: bad part header: {e}", path.display())))?;
        if header.puzzlebook_part != FORMAT {
            return Err(Error::invalid(format!(
                "{}: part format {} is not the format {FORMAT} this version reads",
                path.display(),
                header.puzzlebook_part
            )));
        }
        Ok(Part {
            path: path.to_path_buf(),
            header,
            reader,
        })
    }

    /// The next payload line, without its newline; None at the end.
    pub fn next_line(&mut self) -> Result<Option<String>> {
        let mut s = String::new();
        let n = self
            .reader
            .read_line(&mut s)
            .map_err(|e| Error::io("cannot read", &self.path, e))?;
        if n == 0 {
            return Ok(None);
        }
        if !s.ends_with('\n') {
            return Err(Error::invalid(format!(
                "{}: the last line is cut off (a truncated part)",
                self.path.display()
            )));
        }
        s.pop();
        Ok(Some(s))
    }

    /// The rest of the payload as bytes, checked against the header's hash.
    pub fn rest(&mut self) -> Result<Vec<u8>> {
        let mut v = Vec::new();
        self.reader
            .read_to_end(&mut v)
            .map_err(|e| Error::io("cannot read", &self.path, e))?;
        let want = self.header.payload_sha256.as_deref().ok_or_else(|| {
            Error::invalid(format!(
                "{}: the part header has no payload hash",
                self.path.display()
            ))
        })?;
        if super::manifest::sha256_hex(&v) != want {
            return Err(Error::invalid(format!(
                "{}: the payload does not match its header's SHA-256 (a cut-off or changed part): make it again",
                self.path.display()
            )));
        }
        Ok(v)
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
pub fn open_all(paths: &[PathBuf]) -> Result<Vec<Part>> {
    if paths.is_empty() {
        return Err(Error::invalid("no part files given to merge"));
    }
    let mut parts = paths
        .iter()
        .map(|p| Part::open(p))
        .collect::<Result<Vec<_>>>()?;
    let first = parts[0].header.clone();
    let name = |p: &Part| p.path.display().to_string();
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
pub fn part_name(dir: &Path, name: &str, shard: crate::batch::Shard) -> PathBuf {
    dir.join(format!("{name}.part-{}-of-{}", shard.index, shard.count))
}
