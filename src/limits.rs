//! The bounds on what a user can ask for, in one place: every numeric flag, template
//! and job value is checked against these before any work starts, so that no input
//! can make the tool allocate without a limit or run past what its arithmetic holds.
//! `docs/limits.md` lists them for users; keep the two in step.

/// Samples in one statistics run (`catan bias --samples`, `--reference-samples`,
/// `catan stats --samples`, `carcassonne stats --samples`, `number-match stats
/// --samples`): 10^15. Counts stay far inside a u64 and the expected counts in an f64
/// stay exact; memory does not depend on it (samples are drawn and counted in fixed-size chunks).
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;

/// Check a sample count (`samples`, `reference_samples`): 1 to [`MAX_SAMPLES`];
/// `what` names a sample in the message ("boards per sampler").
pub fn check_samples(name: &'static str, value: u64, what: &str) -> crate::Result<()> {
    if value == 0 {
        return Err(crate::Error::param(
            name,
            format!("is 0: ask for at least 1 of the {what}"),
        ));
    }
    if value > MAX_SAMPLES {
        return Err(crate::Error::param(
            name,
            format!("is {value}: at most {MAX_SAMPLES} (10^15) {what}"),
        ));
    }
    Ok(())
}

/// One record of a `solve`, `score` or `catan balance` input (a board between blank
/// lines, a JSON line): 1 MiB. Inputs are read a record at a time, so an input of any length needs
/// no more memory than this (and what solving one record takes).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// A book template or a job file: 1 MiB.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A `manifest.json`: 16 MiB (a job file of 1 MiB names far fewer outputs than that
/// takes).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// One line of a part file (a header, a record, a line of counts): 64 MiB.
pub const MAX_PART_LINE_BYTES: usize = 64 << 20;

/// The PDF in a book part: 1 GiB (print-on-demand services take files up to 650 MB).
/// It is streamed, not held in memory.
pub const MAX_BOOK_PART_BYTES: u64 = 1 << 30;

/// Worker threads per core (`-j`): at most 8 per core the machine has; more only
/// adds memory and start-up time, never speed, since every item is CPU work.
pub const MAX_THREADS_PER_CORE: usize = 8;

/// The number of worker threads `-j N` asks for (0: one per core), with a note when
/// the request was lowered to [`MAX_THREADS_PER_CORE`] per core.
pub fn threads(requested: usize) -> (usize, Option<String>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores.saturating_mul(MAX_THREADS_PER_CORE);
    if requested > cap {
        let note = format!(
            "-j {requested} is more than {MAX_THREADS_PER_CORE} threads per core on this machine's {cores} core{}: using {cap}",
            if cores == 1 { "" } else { "s" }
        );
        (cap, Some(note))
    } else {
        (requested, None)
    }
}
