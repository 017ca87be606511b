//! `generate`, one for every game: a run of seeded items to records or text, on
//! standard output or in a file, or a part file with `--shard`.

use super::{Ctx, GenFormat, RunArgs};
use puzzlebook::games::Game;
use puzzlebook::{Error, Result};
use std::process::ExitCode;

/// Run a generation and write JSON Lines or text, to stdout or (atomically) a file;
/// with `--shard`, a part file for `puzzlebook merge`.
pub fn generate<G: Game>(game: &G, run: &RunArgs, ctx: Ctx, format: GenFormat) -> Result<ExitCode> {
    use puzzlebook::jobs::make::{self, Dest, Env, ItemFormat};
    if run.count == 0 {
        return Err(Error::invalid("--count is 0: ask for at least 1 item"));
    }
    let dest = match &run.out {
        Some(p) => Dest::File(p.clone()),
        None => Dest::Stdout,
    };
    let format = match format {
        GenFormat::Jsonl => ItemFormat::Jsonl,
        GenFormat::Text => ItemFormat::Text,
    };
    let made = make::items(
        game,
        game.params(),
        run.seed,
        run.first,
        run.count,
        format,
        run.shard.unwrap_or_default(),
        run.shard.map(|_| None),
        &dest,
        &Env {
            jobs: ctx.jobs,
            progress: ctx.progress,
        },
    );
    let (_, summary) = match made {
        // Records already sent to standard output cannot be taken back: say so.
        Err(Error::Interrupted) if dest == Dest::Stdout => {
            eprintln!(
                "error: interrupted: the records already written to standard output are whole and correct; the rest were not made"
            );
            return Ok(ExitCode::from(puzzlebook::interrupt::exit_status()));
        }
        r => r?,
    };
    if ctx.progress || run.out.is_some() {
        eprintln!(
            "{} items in {:.2} s ({:.0}/s), {} attempts{}",
            summary.items,
            summary.elapsed.as_secs_f64(),
            summary.per_second(),
            summary.attempts,
            if summary.rejections.is_empty() {
                String::new()
            } else {
                format!(" (rejected: {})", summary.rejections)
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
