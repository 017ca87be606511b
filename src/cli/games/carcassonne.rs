//! Carcassonne's commands: `generate`, `score`, and `stats` of its own.

use super::{CsvStatArgs, CsvStatCli, GameCli, RunCommand, SolveCli, Solving};
use crate::cli::{Ctx, GenFormat};
use clap::Subcommand;
use puzzlebook::games::carcassonne::stats::CarcassonneStats;
use puzzlebook::games::carcassonne::{Carcassonne, CarcassonneParams};
use puzzlebook::games::Game;
use puzzlebook::games::Registry;
use puzzlebook::Result;
use std::process::ExitCode;

impl GameCli for Carcassonne {
    const COMMAND: &'static str = "carcassonne";
    const ABOUT: &'static str = "Carcassonne: score one-player landscapes, make real-game ones";
    const GENERATE_ABOUT: &'static str =
        "Landscapes by the real game's placement rules, with their scores";
    const GENERATE_EXAMPLE: &'static str =
        "Example:\n  puzzlebook carcassonne generate --tiles 30 --count 2 --seed 4";
    type GenerateArgs = CarcassonneParams;
    type Format = GenFormat;
    type Solving = Solving<Carcassonne>;
    type Own = CarcassonneCommand;
    fn from_args(params: CarcassonneParams) -> Result<Self> {
        Carcassonne::new(params)
    }
}

impl SolveCli for Carcassonne {
    const SOLVE_NAME: &'static str = "score";
    const SOLVE_ABOUT: &'static str =
        "Score landscapes: one JSON document, or one per line (JSON Lines)";
    const SOLVE_EXAMPLE: &'static str =
        "Example:\n  echo '[[[2,1,1,0,1]]]' | puzzlebook carcassonne score --breakdown";
    const INPUT_HELP: &'static str = "Landscape file, or - for standard input";
}

impl CsvStatCli for CarcassonneStats {
    const DEFAULT_OUT: &'static str = "output/carcassonne-stats.csv";
    const SHARD_HELP: &'static str =
        "Count only the landscapes with index mod N == K, into a part file for `merge`";
}

#[derive(Subcommand)]
pub enum CarcassonneCommand {
    /// Score and feature distributions of generated landscapes, by size (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook carcassonne stats --samples 100000 --tiles 10,20,40,72"
    )]
    Stats(CsvStatArgs<CarcassonneStats>),
}

impl RunCommand for CarcassonneCommand {
    fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode> {
        let CarcassonneCommand::Stats(args) = self;
        args.run(ctx)
    }
}
