//! Typed errors. The binary prints `Display` as one line and exits with a status that
//! tells a scheduler what to do (see `main.rs`: 1 fix the configuration or input, 75
//! try again later, 128 + N stopped by signal N).

use std::path::PathBuf;

/// Everything that can go wrong in the library, phrased for the person who ran it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Parameters or input data that cannot be used; the message names the problem and the fix.
    #[error("{0}")]
    Invalid(String),
    /// A parameter with a value that cannot be used, named as in job files and
    /// templates (`max_nodes is 0: ...`); the command line names it as its flag
    /// (`--max-nodes is 0: ...`, see [`Error::as_flag`]).
    #[error("{name} {problem}")]
    Param {
        /// The parameter's name as in job files and templates (`max_nodes`).
        name: &'static str,
        /// What is wrong and how to fix it; follows the name ("is 0: ...").
        problem: String,
    },
    /// A game name that is not registered (a template section, a job file, the command line).
    #[error("unknown game '{name}'{}: choose one of {}", crate::input::suggestion(name, known.iter().copied()), known.join(", "))]
    UnknownGame {
        /// The name as given.
        name: String,
        /// The registered names, in the registry's order.
        known: &'static [&'static str],
    },
    /// A template file that could not be read or understood.
    #[error("template {path}: {message}")]
    Template {
        /// The template file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A file system operation failed.
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done, phrased to precede the path ("cannot read").
        action: &'static str,
        /// The file or folder it was done to.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Generation gave up on an item (every attempt was rejected).
    #[error("{0}")]
    Generation(String),
    /// A check on produced data failed (a solution that does not verify, an unsolvable board).
    #[error("{0}")]
    Check(String),
    /// Another run holds what this one needs (a job's output folder, a catalogue):
    /// nothing was done, and the same command can be tried again later.
    #[error("{0}")]
    Busy(String),
    /// Stopped by Ctrl-C (or another stop request) before the work was done; nothing
    /// unfinished was left under a real output name.
    #[error(
        "interrupted: nothing unfinished was kept (no output, no temporary file); run the same command again to finish"
    )]
    Interrupted,
}

impl Error {
    /// Unusable parameters or input data ([`Error::Invalid`]).
    pub fn invalid(message: impl Into<String>) -> Self {
        Error::Invalid(message.into())
    }

    /// A failed check on produced data ([`Error::Check`]).
    pub fn check(message: impl Into<String>) -> Self {
        Error::Check(message.into())
    }

    /// A bad parameter value: `problem` follows the name ("is 0: ask for at least 1").
    pub fn param(name: &'static str, problem: impl Into<String>) -> Self {
        Error::Param {
            name,
            problem: problem.into(),
        }
    }

    /// The error as the command line says it: a parameter named as its flag.
    pub fn as_flag(self) -> Self {
        match self {
            Error::Param { name, problem } => {
                Error::Invalid(format!("--{} {problem}", name.replace('_', "-")))
            }
            e => e,
        }
    }

    /// Whether trying the same command again later may succeed without changing
    /// anything: another run held a lock, or the file system failed in a way that
    /// passes (full, busy, timed out). Bad configuration, bad input and failed checks
    /// are not retryable. (A stop, [`Error::Interrupted`], has its own exit status.)
    pub fn is_retryable(&self) -> bool {
        use std::io::ErrorKind as K;
        match self {
            Error::Busy(_) => true,
            Error::Io { source, .. } => {
                matches!(
                    source.kind(),
                    K::StorageFull
                        | K::QuotaExceeded
                        | K::ResourceBusy
                        | K::TimedOut
                        | K::WouldBlock
                        | K::Interrupted
                        | K::OutOfMemory
                        | K::StaleNetworkFileHandle
                        | K::ConnectionReset
                        | K::ConnectionAborted
                        | K::BrokenPipe
                        | K::UnexpectedEof
                ) || matches!(source.raw_os_error(), Some(libc::EIO) | Some(libc::EAGAIN))
            }
            _ => false,
        }
    }

    /// A failed file operation ([`Error::Io`]): `action` ("cannot read") on `path`.
    pub fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// The library's result type: `Error` unless said otherwise.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_named_as_fields_or_as_flags() {
        let e = || Error::param("max_nodes", "is 0: give the search at least 1 node");
        assert_eq!(
            e().to_string(),
            "max_nodes is 0: give the search at least 1 node"
        );
        assert_eq!(
            e().as_flag().to_string(),
            "--max-nodes is 0: give the search at least 1 node"
        );
        assert_eq!(Error::invalid("x").as_flag().to_string(), "x");
    }
}
