//! The bounds on what a user can ask for, in one place: every numeric flag, template
//! and job value is checked against these before any work starts, so that no input
//! can make the tool allocate without a limit or run past what its arithmetic holds.
//! `docs/limits.md` lists them for users; keep the two in step.

/// Samples in one statistics run (`catan bias --samples`, `--reference-samples`,
/// `carcassonne stats --samples`, `number-match stats --samples`): 10^15. Counts stay
/// far inside a u64 and the expected counts in an f64 stay exact; memory does not
/// depend on it (samples are drawn and counted in fixed-size chunks).
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;
