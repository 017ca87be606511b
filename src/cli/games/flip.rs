//! Flip's commands: `generate`, `solve`, and `analyze` of its own.

use super::{GameCli, RunCommand, SolveCli, Solving};
use crate::cli::{Ctx, GenFormat, SolveFormat};
use clap::Subcommand;
use puzzlebook::games::flip::{self, Flip, FlipParams, MoveGrid, Shape, Size};
use puzzlebook::games::Game;
use puzzlebook::games::Registry;
use puzzlebook::Result;
use std::process::ExitCode;

impl GameCli for Flip {
    const COMMAND: &'static str = "flip";
    const ABOUT: &'static str = "Flip (\"One Dot\"): flip 3x3 blocks down to a single dot";
    const GENERATE_ABOUT: &'static str = "Generate boards with their proven minimum solutions";
    const GENERATE_EXAMPLE: &'static str =
        "Example:\n  puzzlebook flip generate --size 5 --count 3 --seed 1 --format text";
    type GenerateArgs = FlipParams;
    type Format = GenFormat;
    type Solving = Solving<Flip>;
    type Own = FlipCommand;
    fn from_args(params: FlipParams) -> Result<Self> {
        Flip::new(params)
    }
}

impl SolveCli for Flip {
    const SOLVE_ABOUT: &'static str = "Solve boards: the text format (several separated by blank lines; `#` lines are comments) or JSON Lines, as `flip generate` writes either";
    const SOLVE_EXAMPLE: &'static str = "Examples:\n  printf -- '-----\\n-ooo- 1\\n-o-o- 2\\n-ooo- 3\\n-----\\n abc\\n' | puzzlebook flip solve\n  puzzlebook flip generate --count 3 | puzzlebook flip solve";
    const INPUT_HELP: &'static str = "Board file, or - for standard input";
}

#[derive(Subcommand)]
pub enum FlipCommand {
    /// Show the rank of the move map and which single-dot boards are reachable
    #[command(after_help = "Example:\n  puzzlebook flip analyze --size 5")]
    Analyze {
        #[arg(long)]
        size: Size,
        #[arg(long, default_value = Shape::Block.name())]
        shape: Shape,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
}

impl RunCommand for FlipCommand {
    fn run<R: Registry>(self, _: Ctx) -> Result<ExitCode> {
        let FlipCommand::Analyze {
            size,
            shape,
            format,
        } = self;
        let a = flip::analyze(MoveGrid::new(shape, size.rows, size.cols)?);
        match format {
            SolveFormat::Json => {
                crate::cli::say(&(serde_json::to_string(&a).expect("serialisable") + "\n"))?
            }
            SolveFormat::Text => crate::cli::say(&flip::answer::analysis_text(&a))?,
        }
        Ok(ExitCode::SUCCESS)
    }
}
