//! Numbrix's commands: `generate` and `solve`.

use super::{GameCli, Nothing, SolveCli, Solving};
use crate::cli::GenFormat;
use puzzlebook::games::numbrix::{Numbrix, NumbrixParams};
use puzzlebook::games::Game;
use puzzlebook::Result;

impl GameCli for Numbrix {
    const COMMAND: &'static str = "numbrix";
    const ABOUT: &'static str = "Numbrix: number paths with exactly one solution";
    const GENERATE_ABOUT: &'static str = "Generate puzzles with proved-unique solutions";
    const GENERATE_EXAMPLE: &'static str = "Example:\n  puzzlebook numbrix generate --size 9 --count 3 --style free --difficulty medium --format text";
    type GenerateArgs = NumbrixParams;
    type Format = GenFormat;
    type Solving = Solving<Numbrix>;
    type Own = Nothing;
    fn from_args(params: NumbrixParams) -> Result<Self> {
        Numbrix::new(params)
    }
}

impl SolveCli for Numbrix {
    const SOLVE_ABOUT: &'static str = "Solve grids: text (one row per line, numbers, . for blanks, X blocked; grids separated by blank lines; `#` lines and `solution:` blocks are passed over) or JSON Lines, as `numbrix generate` writes either";
    const SOLVE_EXAMPLE: &'static str = "Examples:\n  printf '1 . .\\n. . .\\n. . 9\\n' | puzzlebook numbrix solve\n  puzzlebook numbrix generate --count 3 | puzzlebook numbrix solve";
    const INPUT_HELP: &'static str = "Grid file, or - for standard input";
}
