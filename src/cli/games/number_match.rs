//! Number Match's commands: `generate`, `solve` (of digits or a file), and `stats` of
//! its own.

use super::{CsvStatArgs, CsvStatCli, GameCli, RunCommand, SolveCli, Solving};
use crate::cli::{Ctx, GenFormat};
use clap::Subcommand;
use puzzlebook::games::number_match::stats::MatchStats;
use puzzlebook::games::number_match::{NumberMatch, NumberMatchParams};
use puzzlebook::games::solve::Source;
use puzzlebook::games::Game;
use puzzlebook::games::Registry;
use puzzlebook::{Error, Result};
use std::process::ExitCode;

impl GameCli for NumberMatch {
    const COMMAND: &'static str = "number-match";
    const ALIAS: Option<&'static str> = Some("number_match");
    const ABOUT: &'static str =
        "Number Match: boards that can be cleared, with a solution to replay";
    const GENERATE_ABOUT: &'static str =
        "Random boards that can be cleared within the add limit, with a solution";
    const GENERATE_EXAMPLE: &'static str =
        "Example:\n  puzzlebook number-match generate --count 3 --adds 1 --format text";
    type GenerateArgs = NumberMatchParams;
    type Format = GenFormat;
    type Solving = Solving<NumberMatch>;
    type Own = NumberMatchCommand;
    fn from_args(params: NumberMatchParams) -> Result<Self> {
        NumberMatch::new(params)
    }
}

impl SolveCli for NumberMatch {
    const SOLVE_ABOUT: &'static str = "Decide boards: solvable (with the moves) or unsolvable";
    const SOLVE_EXAMPLE: &'static str = "Examples:\n  puzzlebook number-match solve 119134781718851455261718224 --adds 1\n  puzzlebook number-match generate --count 3 | puzzlebook number-match solve";
    const INPUT_NAME: &'static str = "BOARD";
    const INPUT_HELP: &'static str = "One board (digits 1-9 in reading order, . for an empty cell; spaces, commas and newlines between them are ignored; at most 256 cells), or a file of boards as `generate` writes them (text or JSON Lines), or - for standard input (write ./NAME for a file whose name is all digits)";

    /// Digits, dots, spaces and commas only: a board; else a file, unless no such file
    /// exists and the text is mostly digits (a board with a typo, which is better told
    /// what is wrong with it than that no file has its name).
    fn source(board: &str) -> Result<Source<'_>> {
        if board.is_empty() {
            return Err(Error::invalid(
                "no board given: give its digits, a file, or - for standard input",
            ));
        }
        let board_char = |c: char| c.is_ascii_digit() || c == '.' || c == ',' || c.is_whitespace();
        let digits = board.chars().filter(char::is_ascii_digit).count();
        let is_board = board.chars().all(board_char)
            || (board != "-"
                && !board.contains('/')
                && 2 * digits >= board.chars().count()
                && !std::path::Path::new(board).exists());
        Ok(if is_board {
            Source::Text(board)
        } else {
            Source::File(board)
        })
    }
}

impl CsvStatCli for MatchStats {
    const DEFAULT_OUT: &'static str = "output/number-match-stats.csv";
    const SHARD_HELP: &'static str =
        "Count only the boards with index mod N == K, into a part file for `merge`";
}

#[derive(Subcommand)]
pub enum NumberMatchCommand {
    /// How many random boards can be cleared, by add limit (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook number-match stats --samples 10000 --out output/number-match-stats.csv"
    )]
    Stats(CsvStatArgs<MatchStats>),
}

impl RunCommand for NumberMatchCommand {
    fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode> {
        let NumberMatchCommand::Stats(args) = self;
        args.run(ctx)
    }
}
