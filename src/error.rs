//! Typed errors. The binary prints `Display` as one line and exits with status 1.

use std::path::PathBuf;

/// Everything that can go wrong in the library, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Parameters or input data that cannot be used; the message names the problem and the fix.
    #[error("{0}")]
    Invalid(String),
    /// A template file that could not be read or understood.
    #[error("template {path}: {message}")]
    Template { path: PathBuf, message: String },
    /// A file system operation failed.
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Generation gave up on an item (every attempt was rejected).
    #[error("{0}")]
    Generation(String),
    /// A check on produced data failed (a solution that does not verify, an unsolvable board).
    #[error("{0}")]
    Check(String),
    /// Stopped by Ctrl-C (or another stop request) before the work was done; nothing
    /// unfinished was left under a real output name.
    #[error(
        "interrupted: unfinished outputs were discarded; run the same command again to finish"
    )]
    Interrupted,
}

impl Error {
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid(message.into())
    }

    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
