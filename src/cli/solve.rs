//! `solve` and `score`, one for every game that can answer ([`Solve`]): the library
//! reads, answers and counts; this prints and maps the outcome to an exit status.

use super::SolveFormat;
use puzzlebook::games::solve::{self, Source};
use puzzlebook::games::{Registry, Solve};
use puzzlebook::{Error, Result};
use std::process::ExitCode;

/// Answer every item of `source` with game `G` on standard output (records of the
/// games of `R` recognised).
pub fn solve<R: Registry, G: Solve>(
    options: &G::Options,
    source: Source<'_>,
    format: SolveFormat,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr();
    let json = format == SolveFormat::Json;
    let report =
        solve::run::<R, G>(options, source, json, &mut out, &mut err).map_err(Error::as_flag)?;
    match report.message {
        _ if report.failed == 0 => Ok(ExitCode::SUCCESS),
        Some(message) => Err(Error::Check(message)),
        // The answers already said what failed: exit 1 without repeating it.
        None => Ok(ExitCode::from(1)),
    }
}
