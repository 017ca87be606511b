//! Each game's subcommands: its parameters come from the library (`Params` derive
//! clap's `Args`), and every command hands over to a generic driver.

use super::generate::generate;
use super::solve::solve;
use super::stats::{self, BiasArgs, CatanStatsArgs};
use super::{Ctx, GenFormat, RunArgs, SolveFormat};
use clap::{Subcommand, ValueEnum};
use puzzlebook::games::carcassonne::stats::{CarcassonneStats, CarcassonneStatsSpec};
use puzzlebook::games::carcassonne::{self, Carcassonne, CarcassonneParams};
use puzzlebook::games::catan::{balance, Catan, CatanParams};
use puzzlebook::games::flip::{self, Flip, FlipParams, MoveGrid, Shape, Size};
use puzzlebook::games::number_match::stats::{MatchStats, MatchStatsSpec};
use puzzlebook::games::number_match::{self, NumberMatch, NumberMatchParams};
use puzzlebook::games::numbrix::{self, Numbrix, NumbrixParams};
use puzzlebook::games::solve::Source;
use puzzlebook::games::Game;
use puzzlebook::input;
use puzzlebook::jobs::make::{Spec, StatSpec};
use puzzlebook::sampling::Sampler;
use puzzlebook::{Error, Result};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum FlipCommand {
    /// Generate boards with their proven minimum solutions
    #[command(
        after_help = "Example:\n  puzzlebook flip generate --size 5 --count 3 --seed 1 --format text"
    )]
    Generate {
        #[command(flatten)]
        params: FlipParams,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Solve boards: the text format (several separated by blank lines; `#` lines are
    /// comments) or JSON Lines, as `flip generate` writes either
    #[command(
        after_help = "Examples:\n  printf -- '-----\\n-ooo- 1\\n-o-o- 2\\n-ooo- 3\\n-----\\n abc\\n' | puzzlebook flip solve\n  puzzlebook flip generate --count 3 | puzzlebook flip solve"
    )]
    Solve {
        /// Board file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        #[command(flatten)]
        options: flip::answer::SolveOptions,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
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

/// `puzzlebook flip ...`: run the chosen subcommand (generate, solve, analyze).
pub fn flip(cmd: FlipCommand, ctx: Ctx) -> Result<ExitCode> {
    match cmd {
        FlipCommand::Generate {
            params,
            format,
            run,
        } => generate(
            &Flip::new(params).map_err(Error::as_flag)?,
            &run,
            ctx,
            format,
        ),
        FlipCommand::Solve {
            file,
            options,
            format,
        } => solve::<Flip>(&options, Source::File(&file), format),
        FlipCommand::Analyze {
            size,
            shape,
            format,
        } => {
            let layout = MoveGrid::new(shape, size.rows, size.cols)?;
            let a = flip::analyze(layout);
            match format {
                SolveFormat::Json => {
                    super::say(&(serde_json::to_string(&a).expect("serialisable") + "\n"))?
                }
                SolveFormat::Text => super::say(&flip::answer::analysis_text(&a))?,
            }
            Ok(ExitCode::SUCCESS)
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
    /// Draw boards that meet the rules
    #[command(
        after_help = "Example:\n  puzzlebook catan generate --count 2 --seed 1 --format ascii"
    )]
    Generate {
        // Read as text and parsed here: an unknown sampler is an input error (exit 1).
        #[arg(long, default_value = CatanParams::default().sampler.name(), help = puzzlebook::sampling::samplers::sampler_help())]
        sampler: String,
        #[command(flatten)]
        params: CatanParams,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: CatanFormat,
        #[command(flatten)]
        run: RunArgs,
    },
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

/// `puzzlebook catan ...`: run the chosen subcommand (generate, bias, balance, stats).
pub fn catan(cmd: CatanCommand, ctx: Ctx) -> Result<ExitCode> {
    match cmd {
        CatanCommand::Generate {
            sampler,
            params,
            format,
            run,
        } => {
            let params = CatanParams {
                sampler: sampler.parse::<Sampler>()?,
                ..params
            };
            let format = match format {
                CatanFormat::Jsonl => GenFormat::Jsonl,
                CatanFormat::Ascii => GenFormat::Text,
                CatanFormat::Svg => GenFormat::Svg,
                CatanFormat::Png => GenFormat::Png,
            };
            generate(
                &Catan::new(params).map_err(Error::as_flag)?,
                &run,
                ctx,
                format,
            )
        }
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

#[derive(Subcommand)]
pub enum NumbrixCommand {
    /// Generate puzzles with proved-unique solutions
    #[command(
        after_help = "Example:\n  puzzlebook numbrix generate --size 9 --count 3 --style free --difficulty medium --format text"
    )]
    Generate {
        #[command(flatten)]
        params: NumbrixParams,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Solve grids: text (one row per line, numbers, . for blanks, X blocked; grids
    /// separated by blank lines; `#` lines and `solution:` blocks are passed over) or
    /// JSON Lines, as `numbrix generate` writes either
    #[command(
        after_help = "Examples:\n  printf '1 . .\\n. . .\\n. . 9\\n' | puzzlebook numbrix solve\n  puzzlebook numbrix generate --count 3 | puzzlebook numbrix solve"
    )]
    Solve {
        /// Grid file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
        #[command(flatten)]
        options: numbrix::answer::SolveOptions,
    },
}

/// `puzzlebook numbrix ...`: run the chosen subcommand (generate, solve).
pub fn numbrix(cmd: NumbrixCommand, ctx: Ctx) -> Result<ExitCode> {
    match cmd {
        NumbrixCommand::Generate {
            params,
            format,
            run,
        } => generate(
            &Numbrix::new(params).map_err(Error::as_flag)?,
            &run,
            ctx,
            format,
        ),
        NumbrixCommand::Solve {
            file,
            format,
            options,
        } => solve::<Numbrix>(&options, Source::File(&file), format),
    }
}

#[derive(Subcommand)]
pub enum NumberMatchCommand {
    /// Random boards that can be cleared within the add limit, with a solution
    #[command(
        after_help = "Example:\n  puzzlebook number-match generate --count 3 --adds 1 --format text"
    )]
    Generate {
        #[command(flatten)]
        params: NumberMatchParams,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Decide boards: solvable (with the moves) or unsolvable
    #[command(
        after_help = "Examples:\n  puzzlebook number-match solve 119134781718851455261718224 --adds 1\n  puzzlebook number-match generate --count 3 | puzzlebook number-match solve"
    )]
    Solve {
        /// One board (digits 1-9 in reading order, . for an empty cell; spaces, commas
        /// and newlines between them are ignored; at most 256 cells), or a file of
        /// boards as `generate` writes them (text or JSON Lines), or - for standard
        /// input (write ./NAME for a file whose name is all digits)
        #[arg(default_value = "-")]
        board: String,
        #[command(flatten)]
        options: number_match::answer::SolveOptions,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
    /// How many random boards can be cleared, by add limit (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook number-match stats --samples 10000 --out output/number-match-stats.csv"
    )]
    Stats {
        #[command(flatten)]
        spec: MatchStatsSpec,
        #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
        seed: u64,
        #[arg(long, default_value = "output/number-match-stats.csv")]
        out: PathBuf,
        /// Count only the boards with index mod N == K, into a part file for `merge`
        #[arg(long, value_name = "K/N")]
        shard: Option<puzzlebook::shard::Shard>,
    },
}

/// `puzzlebook number-match ...`: run the chosen subcommand (generate, solve, stats).
pub fn number_match(cmd: NumberMatchCommand, ctx: Ctx) -> Result<ExitCode> {
    match cmd {
        NumberMatchCommand::Generate {
            params,
            format,
            run,
        } => generate(
            &NumberMatch::new(params).map_err(Error::as_flag)?,
            &run,
            ctx,
            format,
        ),
        NumberMatchCommand::Solve {
            board,
            options,
            format,
        } => {
            if board.is_empty() {
                return Err(Error::invalid(
                    "no board given: give its digits, a file, or - for standard input",
                ));
            }
            // Digits, dots, spaces and commas only: a board; else a file, unless no
            // such file exists and the text is mostly digits (a board with a typo,
            // which is better told what is wrong with it than that no file has its name).
            let board_char =
                |c: char| c.is_ascii_digit() || c == '.' || c == ',' || c.is_whitespace();
            let digits = board.chars().filter(char::is_ascii_digit).count();
            let is_board = board.chars().all(board_char)
                || (board != "-"
                    && !board.contains('/')
                    && 2 * digits >= board.chars().count()
                    && !std::path::Path::new(&board).exists());
            let source = if is_board {
                Source::Text(&board)
            } else {
                Source::File(&board)
            };
            solve::<NumberMatch>(&options, source, format)
        }
        NumberMatchCommand::Stats {
            spec,
            seed,
            out,
            shard,
        } => stats::single_csv(
            Spec::Statistic(StatSpec::of::<MatchStats>(&spec)),
            "output/number-match-stats.csv",
            seed,
            &out,
            shard,
            ctx.jobs,
        ),
    }
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum ScoreFormat {
    Text,
    /// One JSON document a landscape, a line each (also spelled json)
    #[value(alias = "json")]
    Jsonl,
}

#[derive(Subcommand)]
pub enum CarcassonneCommand {
    /// Score landscapes: one JSON document, or one per line (JSON Lines)
    #[command(
        after_help = "Example:\n  echo '[[[2,1,1,0,1]]]' | puzzlebook carcassonne score --breakdown"
    )]
    Score {
        /// Landscape file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ScoreFormat,
        #[command(flatten)]
        options: carcassonne::answer::ScoreOptions,
    },
    /// Score and feature distributions of generated landscapes, by size (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook carcassonne stats --samples 100000 --tiles 10,20,40,72"
    )]
    Stats {
        #[command(flatten)]
        spec: CarcassonneStatsSpec,
        #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
        seed: u64,
        #[arg(long, default_value = "output/carcassonne-stats.csv")]
        out: PathBuf,
        /// Count only the landscapes with index mod N == K, into a part file for `merge`
        #[arg(long, value_name = "K/N")]
        shard: Option<puzzlebook::shard::Shard>,
    },
    /// Landscapes by the real game's placement rules, with their scores
    #[command(
        after_help = "Example:\n  puzzlebook carcassonne generate --tiles 30 --count 2 --seed 4"
    )]
    Generate {
        #[command(flatten)]
        params: CarcassonneParams,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
}

/// `puzzlebook carcassonne ...`: run the chosen subcommand (generate, score, stats).
pub fn carcassonne(cmd: CarcassonneCommand, ctx: Ctx) -> Result<ExitCode> {
    match cmd {
        CarcassonneCommand::Score {
            file,
            format,
            options,
        } => {
            let format = match format {
                ScoreFormat::Text => SolveFormat::Text,
                ScoreFormat::Jsonl => SolveFormat::Json,
            };
            solve::<Carcassonne>(&options, Source::File(&file), format)
        }
        CarcassonneCommand::Stats {
            spec,
            seed,
            out,
            shard,
        } => stats::single_csv(
            Spec::Statistic(StatSpec::of::<CarcassonneStats>(&spec)),
            "output/carcassonne-stats.csv",
            seed,
            &out,
            shard,
            ctx.jobs,
        ),
        CarcassonneCommand::Generate {
            params,
            format,
            run,
        } => generate(
            &Carcassonne::new(params).map_err(Error::as_flag)?,
            &run,
            ctx,
            format,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

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
            Command::Flip(FlipCommand::Generate { params, .. }) => {
                assert_eq!(params, FlipParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["catan", "generate"]) {
            Command::Catan(CatanCommand::Generate {
                sampler, params, ..
            }) => {
                assert_eq!(sampler, CatanParams::default().sampler.name());
                assert_eq!(params, CatanParams::default());
            }
            _ => unreachable!(),
        }
        match parse(&["numbrix", "generate"]) {
            Command::Numbrix(NumbrixCommand::Generate { params, .. }) => {
                assert_eq!(params, NumbrixParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["number-match", "generate"]) {
            Command::NumberMatch(NumberMatchCommand::Generate { params, .. }) => {
                assert_eq!(params, NumberMatchParams::default())
            }
            _ => unreachable!(),
        }
        match parse(&["carcassonne", "generate"]) {
            Command::Carcassonne(CarcassonneCommand::Generate { params, .. }) => {
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
            Command::NumberMatch(NumberMatchCommand::Generate { params, .. }) => {
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
            Command::Flip(FlipCommand::Generate { params, .. }) => assert_eq!(
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
