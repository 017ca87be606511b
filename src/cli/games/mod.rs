//! Every game's commands, from one generic command ([`GameCommand`]): `generate` for
//! every game, `solve` (or `score`) for every game that answers, and what a game has
//! of its own (Catan's `bias`, Flip's `analyze`, ...). What a game adds here is an
//! implementation of [`GameCli`] (its help and its own commands, a file a game) and
//! its line in [`game_commands!`]'s list.

mod carcassonne;
mod catan;
mod flip;
mod number_match;
mod numbrix;

use super::generate::generate;
use super::solve::solve;
use super::stats::single_csv;
use super::{Ctx, GenFormat, RunArgs, SolveFormat};
use clap::{Args, FromArgMatches, Subcommand, ValueEnum};
use puzzlebook::games::solve::Source;
use puzzlebook::games::statistic::Statistic;
use puzzlebook::games::{Present, Registry, Solve};
use puzzlebook::jobs::make::{Spec, StatSpec};
use puzzlebook::shard::Shard;
use puzzlebook::{Error, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// What the command line knows of a game beyond the library's traits: the words of
/// its commands, the flags of its `generate`, and its commands of its own.
pub trait GameCli: Present {
    /// The command's name (`puzzlebook NAME ...`).
    const COMMAND: &'static str;
    /// Another spelling accepted for it (the game's registry name, if it differs).
    const ALIAS: Option<&'static str> = None;
    /// One line on the game, in `puzzlebook --help`.
    const ABOUT: &'static str;
    /// One line on what `generate` makes.
    const GENERATE_ABOUT: &'static str;
    /// `generate`'s example, under its help.
    const GENERATE_EXAMPLE: &'static str;
    /// `generate`'s flags that make the game: its `Params`, or more (Catan's sampler).
    type GenerateArgs: Args + FromArgMatches;
    /// The values of `generate --format`: [`GenFormat`], or the game's own names.
    type Format: ValueEnum + Clone + Send + Sync + 'static + Into<GenFormat>;
    /// `solve`/`score` ([`Solving`]), or [`Nothing`] for a game that does not answer.
    type Solving: Subcommand + RunCommand;
    /// The game's commands of its own, or [`Nothing`].
    type Own: Subcommand + RunCommand;
    /// The game `generate`'s flags describe.
    fn from_args(args: Self::GenerateArgs) -> Result<Self>;
}

/// A game that answers: the words of its `solve` command.
pub trait SolveCli: GameCli + Solve {
    /// The command's name: `solve`, or `score` for a game whose answer is a score.
    const SOLVE_NAME: &'static str = "solve";
    /// One line (or a few) on what it reads and answers.
    const SOLVE_ABOUT: &'static str;
    /// Its examples, under its help.
    const SOLVE_EXAMPLE: &'static str;
    /// The input's name in the usage line.
    const INPUT_NAME: &'static str = "FILE";
    /// The input's help.
    const INPUT_HELP: &'static str;
    /// Where the input named on the command line is read from: a file (or `-`), or a
    /// game's own reading of the text itself (Number Match's digits).
    fn source(input: &str) -> Result<Source<'_>> {
        Ok(Source::File(input))
    }
}

/// A parsed command that runs (its game's registry given, for reading records).
pub trait RunCommand {
    fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode>;
}

/// `puzzlebook GAME ...`: the commands every game has, then its own.
#[derive(Subcommand)]
pub enum GameCommand<G: GameCli> {
    #[command(about = G::GENERATE_ABOUT, after_help = G::GENERATE_EXAMPLE)]
    Generate(GenerateArgs<G>),
    #[command(flatten)]
    Solve(G::Solving),
    #[command(flatten)]
    Own(G::Own),
}

impl<G: GameCli> RunCommand for GameCommand<G> {
    fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode> {
        match self {
            GameCommand::Generate(args) => generate(
                &G::from_args(args.game).map_err(Error::as_flag)?,
                &args.run,
                ctx,
                args.format.into(),
            ),
            GameCommand::Solve(cmd) => cmd.run::<R>(ctx),
            GameCommand::Own(cmd) => cmd.run::<R>(ctx),
        }
    }
}

/// `generate`'s flags: the game's, the output format, the run's.
#[derive(Args)]
pub struct GenerateArgs<G: GameCli> {
    #[command(flatten)]
    pub game: G::GenerateArgs,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: G::Format,
    #[command(flatten)]
    pub run: RunArgs,
}

/// `solve` (or `score`): the one command of a game that answers.
#[derive(Subcommand)]
pub enum Solving<G: SolveCli>
where
    G::Options: Args + FromArgMatches,
{
    #[command(name = G::SOLVE_NAME, about = G::SOLVE_ABOUT, after_help = G::SOLVE_EXAMPLE)]
    Solve(SolveArgs<G>),
}

/// `solve`'s input, options and format.
#[derive(Args)]
pub struct SolveArgs<G: SolveCli>
where
    G::Options: Args + FromArgMatches,
{
    #[arg(default_value = "-", value_name = G::INPUT_NAME, help = G::INPUT_HELP)]
    input: String,
    #[arg(long, value_enum, default_value = "text")]
    format: SolveFormat,
    #[command(flatten)]
    options: G::Options,
}

impl<G: SolveCli> RunCommand for Solving<G>
where
    G::Options: Args + FromArgMatches,
{
    fn run<R: Registry>(self, _: Ctx) -> Result<ExitCode> {
        let Solving::Solve(args) = self;
        let source = G::source(&args.input)?;
        solve::<R, G>(&args.options, source, args.format)
    }
}

/// No commands: a game that does not answer, or has no commands of its own.
#[derive(Subcommand)]
pub enum Nothing {}

impl RunCommand for Nothing {
    fn run<R: Registry>(self, _: Ctx) -> Result<ExitCode> {
        match self {}
    }
}

/// A kind of statistics with a command of its own writing one CSV
/// (`number-match stats`, `carcassonne stats`).
pub trait CsvStatCli: Statistic
where
    Self::Spec: Args + FromArgMatches,
{
    /// Where the CSV goes by default (its folder, `output`, is made if missing).
    const DEFAULT_OUT: &'static str;
    /// What one item counted is, for `--shard`'s help (`boards`, `landscapes`).
    const SHARD_HELP: &'static str;
}

/// `stats`: a kind of statistics' flags, its seed, its CSV, its shard.
#[derive(Args)]
pub struct CsvStatArgs<K: CsvStatCli>
where
    K::Spec: Args + FromArgMatches,
{
    #[command(flatten)]
    spec: K::Spec,
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
    #[arg(long, default_value = K::DEFAULT_OUT)]
    out: PathBuf,
    #[arg(long, value_name = "K/N", help = K::SHARD_HELP)]
    shard: Option<Shard>,
}

impl<K: CsvStatCli> CsvStatArgs<K>
where
    K::Spec: Args + FromArgMatches,
{
    fn run(self, ctx: Ctx) -> Result<ExitCode> {
        single_csv(
            Spec::Statistic(StatSpec::of::<K>(&self.spec)),
            K::DEFAULT_OUT,
            self.seed,
            &self.out,
            self.shard,
            ctx.jobs,
        )
    }
}

/// The one list of the command line's games, a line each (`Variant(GameType)`, in the
/// order `--help` lists them): it makes [`GameCommands`], flattened into the top
/// command, and its dispatch.
macro_rules! game_commands {
    ($name:ident: $($variant:ident($game:ty),)*) => {
        #[derive(Subcommand)]
        pub enum $name {
            $(
                #[command(
                    subcommand,
                    name = <$game as GameCli>::COMMAND,
                    about = <$game as GameCli>::ABOUT,
                    aliases = <$game as GameCli>::ALIAS,
                )]
                $variant(GameCommand<$game>),
            )*
        }

        impl RunCommand for $name {
            fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode> {
                match self {
                    $($name::$variant(cmd) => cmd.run::<R>(ctx),)*
                }
            }
        }
    };
}

use puzzlebook::games::{carcassonne::Carcassonne, catan::Catan, flip::Flip};
use puzzlebook::games::{number_match::NumberMatch, numbrix::Numbrix};

game_commands! {
    GameCommands:
        Flip(Flip),
        Catan(Catan),
        Numbrix(Numbrix),
        NumberMatch(NumberMatch),
        Carcassonne(Carcassonne),
}

#[cfg(test)]
mod toy;

#[cfg(test)]
mod tests {
    use super::catan::CatanGenerateArgs;
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;
    use puzzlebook::games::catan::CatanParams;
    use puzzlebook::games::flip::{self, FlipParams, Shape, Size};
    use puzzlebook::games::number_match::{self, NumberMatchParams};
    use puzzlebook::games::{carcassonne::CarcassonneParams, numbrix::NumbrixParams};

    fn parse(args: &[&str]) -> Command {
        let mut all = vec!["puzzlebook"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).unwrap().command
    }

    /// Every game's `generate` without flags (Flip needs `--size`, which has no
    /// default on the command line) gives the same parameters as a template section
    /// without keys: the defaults are declared once.
    #[test]
    fn clap_defaults_are_the_params_defaults() {
        let size = FlipParams::default().size.to_string();
        match parse(&["flip", "generate", "--size", &size]) {
            Command::Game(GameCommands::Flip(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => {
                assert_eq!(params, FlipParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["catan", "generate"]) {
            Command::Game(GameCommands::Catan(GameCommand::Generate(GenerateArgs {
                game: CatanGenerateArgs { sampler, params },
                ..
            }))) => {
                assert_eq!(sampler, CatanParams::default().sampler.name());
                assert_eq!(params, CatanParams::default());
            }
            _ => unreachable!(),
        }
        match parse(&["numbrix", "generate"]) {
            Command::Game(GameCommands::Numbrix(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => {
                assert_eq!(params, NumbrixParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["number-match", "generate"]) {
            Command::Game(GameCommands::NumberMatch(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => {
                assert_eq!(params, NumberMatchParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["carcassonne", "generate"]) {
            Command::Game(GameCommands::Carcassonne(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => {
                assert_eq!(params, CarcassonneParams::default())
            }
            _ => unreachable!(),
        }
    }

    /// The flags keep their spellings: each one given reaches its parameter.
    #[test]
    fn flags_reach_their_parameters() {
        match parse(&[
            "number-match",
            "generate",
            "--columns",
            "7",
            "--length",
            "21",
            "--adds",
            "2",
            "--append",
            "after-last-cell",
            "--no-diagonals",
            "--difficulty",
            "easy",
            "--max-nodes",
            "5",
        ]) {
            Command::Game(GameCommands::NumberMatch(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => {
                assert_eq!(
                    params,
                    NumberMatchParams {
                        columns: 7,
                        length: 21,
                        adds: 2,
                        append: number_match::Append::AfterLastCell,
                        diagonals: false,
                        difficulty: Some(number_match::Difficulty::Easy),
                        max_nodes: 5,
                        ..NumberMatchParams::default()
                    }
                )
            }
            _ => unreachable!(),
        }
        match parse(&[
            "flip",
            "generate",
            "--size",
            "3x5",
            "--shape",
            "plus",
            "--compat",
            "one-dot",
            "--min-moves",
            "4",
        ]) {
            Command::Game(GameCommands::Flip(GameCommand::Generate(GenerateArgs {
                game: params,
                ..
            }))) => assert_eq!(
                params,
                FlipParams {
                    size: Size { rows: 3, cols: 5 },
                    shape: Shape::Plus,
                    compat: Some(flip::Compat::OneDot),
                    min_moves: 4,
                }
            ),
            _ => unreachable!(),
        }
    }
}
