//! Catan's commands: `generate` (with its sampler), and `bias`, `balance`, `stats`
//! and `count` of its own.

use super::{GameCli, Nothing, RunCommand};
use crate::cli::stats::{self, BiasArgs, CatanStatsArgs};
use crate::cli::{Ctx, GenFormat};
use clap::{Args, Subcommand, ValueEnum};
use puzzlebook::games::catan::{balance, Catan, CatanParams};
use puzzlebook::games::Game;
use puzzlebook::games::Registry;
use puzzlebook::input;
use puzzlebook::sampling::Sampler;
use puzzlebook::Result;
use std::process::ExitCode;

impl GameCli for Catan {
    const COMMAND: &'static str = "catan";
    const ABOUT: &'static str =
        "Catan: board set-ups by rejection sampling, and how biased each sampler is";
    const GENERATE_ABOUT: &'static str = "Draw boards that meet the rules";
    const GENERATE_EXAMPLE: &'static str =
        "Example:\n  puzzlebook catan generate --count 2 --seed 1 --format ascii";
    type GenerateArgs = CatanGenerateArgs;
    type Format = CatanFormat;
    type Solving = Nothing;
    type Own = CatanCommand;
    fn from_args(args: CatanGenerateArgs) -> Result<Self> {
        Catan::new(CatanParams {
            sampler: args.sampler.parse::<Sampler>()?,
            ..args.params
        })
    }
}

/// `catan generate`'s flags: the sampler, then the parameters.
#[derive(Args)]
pub struct CatanGenerateArgs {
    // Read as text and parsed here: an unknown sampler is an input error (exit 1).
    #[arg(long, default_value = CatanParams::default().sampler.name(), help = puzzlebook::sampling::samplers::sampler_help())]
    pub sampler: String,
    #[command(flatten)]
    pub params: CatanParams,
}

impl From<CatanFormat> for GenFormat {
    fn from(format: CatanFormat) -> GenFormat {
        match format {
            CatanFormat::Jsonl => GenFormat::Jsonl,
            CatanFormat::Ascii => GenFormat::Text,
            CatanFormat::Svg => GenFormat::Svg,
            CatanFormat::Png => GenFormat::Png,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum CatanFormat {
    /// One JSON record per board, a line each
    Jsonl,
    /// Each board drawn in text for the terminal
    Ascii,
    /// One SVG file per board, in --out-dir
    Svg,
    /// One PNG file per board, in --out-dir, at --dpi
    Png,
}

#[derive(Subcommand)]
pub enum CatanCommand {
    /// Measure each sampler against the exact expectations (CSV, optional PDF report)
    #[command(
        after_help = "Example:\n  puzzlebook catan bias --samples 1000000 --out output/catan-bias.csv --report output/catan-bias.pdf"
    )]
    Bias(BiasArgs),
    /// How even each recorded board is: pips, corners, clusters, harbors, one score
    #[command(after_help = BALANCE_HELP)]
    Balance {
        /// Catan records (JSON Lines, as catan generate writes them), or - for standard input
        #[arg(default_value = "-")]
        file: String,
    },
    /// The distribution of each balance measure over uniform boards (CSV, optional PDF report)
    #[command(after_help = STATS_HELP)]
    Stats(CatanStatsArgs),
    /// Count the valid boards of a rule set exactly, with the exact acceptance of full rejection
    #[command(after_help = COUNT_HELP)]
    Count {
        /// Rules, comma-separated (the help lists every rule), or none
        #[arg(long, default_value_t = CatanParams::default().rules, help = puzzlebook::games::catan::rules::rules_help())]
        rules: String,
        /// base (3-4 players); the extended board is not counted
        #[arg(long, default_value = "base")]
        board: String,
        /// Fixed hexes, comma-separated HEX=TERRAIN[:TOKEN]: boards agreeing with them are counted
        #[arg(long, default_value = "")]
        fix: String,
    },
}

const COUNT_HELP: &str = "\
Counts every board (terrain, tokens, harbors) that meets the rules, and prints the count,
the share of all boards it is (the exact acceptance of full rejection, as a fraction) and
how it was counted. The terrain and the tokens are counted as two layers that meet at the
desert; number-resource-apart and resource-pips, which tie tokens to terrain, are counted
exactly when one layer has no rule, and estimated (and said so) when both have rules.
Rule sets whose layers grow too large are refused with the reason. See docs/games/catan.md.

Example:
  puzzlebook catan count --rules red-apart,min-pips-per-corner=5";

const STATS_HELP: &str = "\
Draws --samples boards with an exact sampler (direct where the rules allow it, else
full-rejection; the sampler used is named on standard error and in the table) and counts
each balance measure of `catan balance` exactly: one CSV row per measure and value
(count, fraction, cumulative), the score in bins of 0.05. Prints a summary table (mean,
sd, min, quantiles, max). With --shard K/N it writes a part file; `puzzlebook merge`
adds the parts up into the same bytes as one whole run.

Example:
  puzzlebook catan stats --samples 100000 --out output/catan-stats.csv --report output/catan-stats.pdf";

const BALANCE_HELP: &str = "\
Prints one JSON line per board: index (its place in the input, from 0), resource_pips
(per resource, the sum of its tokens' pips: 2 and 12 have 1, 3 and 11 have 2, ..., 6 and
8 have 5), corner_pips_min and corner_pips_max (over corners where three land hexes
meet, the sum of their pips, the desert 0), largest_cluster (hexes in the largest
connected group of one terrain, deserts not counted), harbor_own_resource (2:1 harbors
with a hex of their own resource at their piers) and score.

score, lower = fairer: the standard deviation (over the five resources) of each
resource's pips per hex, i.e. its pip total divided by its number of hexes. 0 means
every resource's hexes roll equally often on average.

Example:
  puzzlebook catan generate --count 3 | puzzlebook catan balance";

impl RunCommand for CatanCommand {
    fn run<R: Registry>(self, ctx: Ctx) -> Result<ExitCode> {
        match self {
            CatanCommand::Bias(args) => stats::catan_bias(args, ctx.jobs, ctx.progress),
            CatanCommand::Stats(args) => stats::catan_stats(args, ctx.jobs, ctx.progress),
            CatanCommand::Count { rules, board, fix } => {
                let kind: puzzlebook::games::catan::board::BoardKind = board.parse()?;
                let rules: puzzlebook::games::catan::rules::Rules = rules.parse()?;
                let fixes: puzzlebook::games::catan::fix::Fixes = fix.parse()?;
                // A bar over the desert places (counting takes up to about 30 s).
                let bar = if ctx.progress {
                    indicatif::ProgressBar::with_draw_target(
                        None,
                        indicatif::ProgressDrawTarget::stderr(),
                    )
                } else {
                    indicatif::ProgressBar::hidden()
                };
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "counting desert places [{bar:32}] {pos}/{len} elapsed {elapsed}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                let text = puzzlebook::sampling::layers::count::report(
                    kind,
                    &rules,
                    &fixes,
                    &mut |done, total| {
                        bar.set_length(total as u64);
                        bar.set_position(done as u64);
                    },
                );
                bar.finish_and_clear();
                print!("{}", text?);
                Ok(ExitCode::SUCCESS)
            }
            CatanCommand::Balance { file } => {
                let reader = input::open(&file)?;
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::new(stdout.lock());
                balance::run(reader, input::name_of(&file), &mut out)?;
                Ok(ExitCode::SUCCESS)
            }
        }
    }
}
