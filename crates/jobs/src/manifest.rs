//! `manifest.json`: what a job run made, so a re-run can skip what is done and anyone
//! can check the files later (`puzzlebook verify`).

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The contents of `manifest.json`: the job that ran and every file it made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Manifest {
    /// Always `puzzlebook`: the tool that wrote the manifest.
    pub tool: String,
    /// The tool's version (outputs made by another version are made again).
    pub version: String,
    /// The job file, as given on the command line.
    pub job: String,
    /// The job file's absolute path, links resolved (who the job is: retention removes
    /// only date folders whose manifest names this job's path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_path: Option<String>,
    /// SHA-256 of the job file's bytes, in lowercase hex.
    pub job_sha256: String,
    /// The job's master seed (outputs may set their own; see each entry's config).
    pub seed: Option<u64>,
    /// The date the run was for (`run --date`), when the job draws on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// One entry per file, in the order the outputs were made.
    pub outputs: Vec<Entry>,
    /// The manifest's own SHA-256 (see [`crate::output::seal`]), written by
    /// [`Manifest::save`]: retention removes a date folder only when its manifest is
    /// one puzzlebook wrote, unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<String>,
}

/// One file of one output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The output's name in the job file.
    pub output: String,
    /// The output's kind, as in the job file (`items`, `book`, ...).
    pub kind: String,
    /// The file, relative to the manifest's folder.
    pub file: String,
    /// SHA-256 of the file's bytes, in lowercase hex.
    pub sha256: String,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Items (puzzles, records, samples) the output holds.
    pub items: u64,
    /// Wall time to make the output (all its files), in seconds.
    pub seconds: f64,
    /// SHA-256 of the output's configuration (kind, parameters, seed, version): an
    /// entry whose configuration changed is made again.
    pub config_sha256: String,
    /// The master seed the output was made with (its own, the job's, or the default).
    pub seed: u64,
}

pub use crate::output::sha256_hex;

pub(crate) fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

pub use crate::output::open_regular;

/// SHA-256 and size of a regular file (never a link, FIFO or device), read in blocks;
/// a stop asked for meanwhile is [`Error::Interrupted`] (checked every 16 MiB).
pub(crate) fn file_sha256(path: &Path) -> Result<(String, u64)> {
    reader_sha256(open_regular(path)?, path)
}

/// [`file_sha256`] of a file already open (`path` names it in messages).
pub(crate) fn reader_sha256(mut f: std::fs::File, path: &Path) -> Result<(String, u64)> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    for block in 0u64.. {
        if block % 256 == 255 {
            crate::interrupt::check()?;
        }
        let k = f
            .read(&mut buf)
            .map_err(|e| Error::io("cannot read", path, e))?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
        n += k as u64;
    }
    Ok((hex(&h.finalize()), n))
}

impl Manifest {
    /// Read and parse a manifest (a regular file of at most `MAX_MANIFEST_BYTES`).
    pub fn load(path: &Path) -> Result<Manifest> {
        Manifest::load_checked(path).map(|(m, _)| m)
    }

    /// [`Manifest::load`], and whether the manifest carries a valid seal (puzzlebook
    /// wrote it, and nobody changed it since).
    pub(crate) fn load_checked(path: &Path) -> Result<(Manifest, bool)> {
        Manifest::from_file(open_regular(path)?, path)
    }

    /// [`Manifest::load_checked`] of a file already open (`path` names it).
    pub fn from_file(f: std::fs::File, path: &Path) -> Result<(Manifest, bool)> {
        let mut bytes = Vec::new();
        f.take(crate::limits::MAX_MANIFEST_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("cannot read", path, e))?;
        if bytes.len() as u64 > crate::limits::MAX_MANIFEST_BYTES {
            return Err(Error::invalid(format!(
                "{} is larger than {} bytes: not a puzzlebook manifest",
                path.display(),
                crate::limits::MAX_MANIFEST_BYTES
            )));
        }
        let m: Manifest = serde_json::from_slice(&bytes).map_err(|e| {
            Error::invalid(format!(
                "{}: not a puzzlebook manifest: {e}",
                path.display()
            ))
        })?;
        let sealed = std::str::from_utf8(&bytes).is_ok_and(crate::output::seal::json_ok);
        Ok((m, sealed))
    }

    /// Write the manifest as pretty JSON with its seal, atomically (the old one stays
    /// until the new is whole).
    pub(crate) fn save(&self, path: &Path) -> Result<()> {
        let v = serde_json::to_value(self).expect("manifests serialise");
        let text = crate::output::seal::json(v, "seal");
        crate::output::write_atomic(path, text.as_bytes())
    }

    /// The entries of one output.
    pub fn entries(&self, output: &str) -> Vec<&Entry> {
        self.outputs.iter().filter(|e| e.output == output).collect()
    }
}

/// A file name with no folder part: not empty, no separator, not `.` or `..`.
pub(crate) fn plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}

/// What `verify` found for one entry.
pub struct Check {
    /// The file, as found from the manifest's folder.
    pub file: PathBuf,
    /// What is wrong with it (missing, other size or hash); None when it matches.
    pub problem: Option<String>,
}

/// Recompute every file's hash and size.
pub fn verify(path: &Path) -> Result<Vec<Check>> {
    let m = Manifest::load(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for e in &m.outputs {
        let file = dir.join(&e.file);
        // Only plain names of files in the manifest's own folder: a manifest cannot
        // make `verify` read (and tell the size and hash of) anything else.
        if !plain_name(&e.file) {
            out.push(Check {
                file: PathBuf::from(&e.file),
                problem: Some("not a file name in the manifest's folder: refused, not read".into()),
            });
            continue;
        }
        // A link is refused as one, not taken for a missing file.
        let link = std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_symlink());
        let hashed = if link {
            Err(Error::invalid("a link"))
        } else {
            file_sha256(&file)
        };
        let problem = match hashed {
            _ if link => Some("a symbolic link: refused, not followed".to_string()),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            Err(Error::Invalid(_)) => Some(
                "not a regular file (a FIFO, a device or a folder): refused, not read".to_string(),
            ),
            Err(_) => Some("missing or unreadable".to_string()),
            Ok((_, n)) if n != e.bytes => Some(format!("{n} bytes, the manifest says {}", e.bytes)),
            Ok((h, _)) if h != e.sha256 => {
                Some(format!("SHA-256 {h}, the manifest says {}", e.sha256))
            }
            Ok(_) => None,
        };
        out.push(Check { file, problem });
    }
    Ok(out)
}
