//! `manifest.json`: what a job run made, so a re-run can skip what is done and anyone
//! can check the files later (`puzzlebook verify`).

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub tool: String,
    pub version: String,
    /// The job file as given, and the SHA-256 of its bytes.
    pub job: String,
    pub job_sha256: String,
    /// The job's master seed (outputs may set their own; see each entry's config).
    pub seed: Option<u64>,
    pub outputs: Vec<Entry>,
}

/// One file of one output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The output's name in the job file.
    pub output: String,
    pub kind: String,
    /// The file, relative to the manifest's folder.
    pub file: String,
    pub sha256: String,
    pub bytes: u64,
    /// Items (puzzles, records, samples) the output holds.
    pub items: u64,
    /// Wall time to make the output (all its files), in seconds.
    pub seconds: f64,
    /// SHA-256 of the output's configuration (kind, parameters, seed, version): an
    /// entry whose configuration changed is made again.
    pub config_sha256: String,
    pub seed: u64,
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(d: &[u8]) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 and size of a file, read in blocks.
pub fn file_sha256(path: &Path) -> Result<(String, u64)> {
    let mut f = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    loop {
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
    pub fn load(path: &Path) -> Result<Manifest> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io("cannot read", path, e))?;
        serde_json::from_str(&text).map_err(|e| {
            Error::invalid(format!(
                "{}: not a puzzlebook manifest: {e}",
                path.display()
            ))
        })
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self).expect("manifests serialise") + "\n";
        crate::output::write_atomic(path, text.as_bytes())
    }

    /// The entries of one output.
    pub fn entries(&self, output: &str) -> Vec<&Entry> {
        self.outputs.iter().filter(|e| e.output == output).collect()
    }
}

/// What `verify` found for one entry.
pub struct Check {
    pub file: PathBuf,
    pub problem: Option<String>,
}

/// Recompute every file's hash and size.
pub fn verify(path: &Path) -> Result<Vec<Check>> {
    let m = Manifest::load(path)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for e in &m.outputs {
        let file = dir.join(&e.file);
        let problem = match file_sha256(&file) {
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
