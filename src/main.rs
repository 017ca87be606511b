//! The command line: parse, call the library, print, map errors to exit codes
//! (0 success, 1 invalid input or a failed check, 2 usage errors from clap).

use clap::{Args, Parser, Subcommand, ValueEnum};
use puzzlebook::batch::{self, Shard};
use puzzlebook::book::{self, BookOptions};
use puzzlebook::games::carcassonne::{self, Carcassonne, CarcassonneParams};
use puzzlebook::games::catan::{board::BoardKind, Catan, CatanParams, Sampler};
use puzzlebook::games::flip::{self, Compat, Flip, FlipParams, Layout, Shape, Size, Solution};
use puzzlebook::games::number_match::{self, Append, Difficulty, NumberMatch, NumberMatchParams};
use puzzlebook::games::numbrix::{self, Grade, Numbrix, NumbrixParams, Style};
use puzzlebook::games::Game;
use puzzlebook::limits::MAX_RECORD_BYTES;
use puzzlebook::output::{self, write_atomic};
use puzzlebook::{input, Error, Result};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "puzzlebook",
    version,
    about = "Seeded, parallel generation of printable puzzle books and board statistics"
)]
struct Cli {
    /// Worker threads (default: one per core)
    #[arg(
        short = 'j',
        long = "jobs",
        global = true,
        default_value_t = 0,
        hide_default_value = true
    )]
    jobs: usize,
    /// No progress bar (it is also off when stderr is not a terminal)
    #[arg(short = 'q', long = "quiet", global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Make a PDF puzzle book from a template
    #[command(
        after_help = "Example:\n  puzzlebook book --template templates/default.toml --seed 7 --out output/book.pdf"
    )]
    Book(BookArgs),
    /// Flip ("One Dot"): flip 3x3 blocks down to a single dot
    #[command(subcommand)]
    Flip(FlipCommand),
    /// Catan: board set-ups by rejection sampling, and how biased each sampler is
    #[command(subcommand)]
    Catan(CatanCommand),
    /// Numbrix: number paths with exactly one solution
    #[command(subcommand)]
    Numbrix(NumbrixCommand),
    /// Number Match: boards that can be cleared, with a solution to replay
    #[command(subcommand, name = "number-match")]
    NumberMatch(NumberMatchCommand),
    /// Carcassonne: score one-player landscapes, make real-game ones
    #[command(subcommand)]
    Carcassonne(CarcassonneCommand),
    /// Make every output a job file names; skip what is made; shards and their merge
    #[command(
        after_help = "Examples:\n  puzzlebook run examples/nightly.toml\n  puzzlebook run examples/nightly.toml --shard 0/4   (then 1/4, 2/4, 3/4, anywhere)\n  puzzlebook run examples/nightly.toml --merge\n  SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=4 puzzlebook run JOB.toml --shard-from-env"
    )]
    Run(RunJobArgs),
    /// Combine the part files of a sharded run into the single-run output
    #[command(
        after_help = "Example:\n  puzzlebook merge --out output/numbrix.jsonl output/numbrix.part-*"
    )]
    Merge(MergeArgs),
    /// Check the files of a manifest against their recorded SHA-256 and size
    #[command(after_help = "Example:\n  puzzlebook verify output/nightly/manifest.json")]
    Verify { manifest: PathBuf },
}

#[derive(Args)]
struct RunJobArgs {
    /// The job file (TOML)
    job: PathBuf,
    /// Output folder (default: the job's out_dir, else output/<job name>)
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Make only shard K of N: part files in <out_dir>/parts
    #[arg(long, value_name = "K/N", conflicts_with_all = ["shard_from_env", "merge"])]
    shard: Option<Shard>,
    /// Take the shard from the scheduler: PUZZLEBOOK_SHARD=K/N, Slurm's
    /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or Kubernetes'
    /// JOB_COMPLETION_INDEX with PUZZLEBOOK_SHARD_COUNT
    #[arg(long, conflicts_with = "merge")]
    shard_from_env: bool,
    /// Merge the shards' parts into the outputs and write the manifest
    #[arg(long)]
    merge: bool,
    /// Make every output again, even those the manifest lists as made
    #[arg(long)]
    force: bool,
    /// Log events as JSON lines on standard error
    #[arg(long)]
    json_log: bool,
}

#[derive(Args)]
struct MergeArgs {
    /// The merged output
    #[arg(long)]
    out: PathBuf,
    /// For Catan bias parts: the summary CSV (default: beside --out, ending .summary.csv)
    #[arg(long)]
    summary: Option<PathBuf>,
    /// For Catan bias parts: also draw the heat-map report (PDF)
    #[arg(long)]
    report: Option<PathBuf>,
    /// The part files, in any order
    #[arg(required = true)]
    parts: Vec<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum ScoreFormat {
    Text,
    Jsonl,
}

#[derive(Subcommand)]
enum CarcassonneCommand {
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
        /// Also give the breakdown ("1 c. city (4), 6 i. roads (10), ...")
        #[arg(long)]
        breakdown: bool,
        /// Score farms too (full game: 3 points per complete city a field touches)
        #[arg(long)]
        farms: bool,
    },
    /// Score and feature distributions of generated landscapes, by size (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook carcassonne stats --samples 100000 --tiles 10,20,40,72"
    )]
    Stats {
        #[arg(long)]
        samples: u64,
        /// Landscape sizes, comma-separated (1-72 tiles each)
        #[arg(long, default_value = "10,20,40,72")]
        tiles: String,
        #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
        seed: u64,
        #[arg(long, default_value = "output/carcassonne-stats.csv")]
        out: PathBuf,
        /// Count only the landscapes with index mod N == K, into a part file for `merge`
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
    },
    /// Landscapes by the real game's placement rules, with their scores
    #[command(
        after_help = "Example:\n  puzzlebook carcassonne generate --tiles 30 --count 2 --seed 4"
    )]
    Generate {
        /// Tiles per landscape (1-72, the start tile included)
        #[arg(long, default_value_t = 20)]
        tiles: usize,
        /// Score farms too (full game)
        #[arg(long)]
        farms: bool,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
}

#[derive(Args)]
struct MatchRules {
    /// Columns of the board
    #[arg(long, default_value_t = 9)]
    columns: usize,
    /// Where adds go: after-last-digit or after-last-cell
    #[arg(long, default_value = "after-last-digit")]
    append: Append,
    /// Pairs may not see each other along diagonals (a variant)
    #[arg(long)]
    no_diagonals: bool,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum MatchSolver {
    Exact,
    MonteCarlo,
}

#[derive(Subcommand)]
enum NumberMatchCommand {
    /// Random boards that can be cleared within the add limit, with a solution
    #[command(
        after_help = "Example:\n  puzzlebook number-match generate --count 3 --adds 1 --format text"
    )]
    Generate {
        /// The add limit
        #[arg(long, default_value_t = 4)]
        adds: u8,
        /// Digits on the start board (1 to 256: each add can double a board, and 256 * 2^8
        /// cells is what a move's cell index holds)
        #[arg(long, default_value_t = 27)]
        length: usize,
        /// Keep only easy, medium or hard boards (by the share of random playouts that win)
        #[arg(long)]
        difficulty: Option<Difficulty>,
        /// Search nodes per board (a board that runs out is skipped, never printed)
        #[arg(long, default_value_t = number_match::DEFAULT_MAX_NODES)]
        max_nodes: u64,
        #[command(flatten)]
        rules: MatchRules,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Decide one board: solvable (with the moves) or unsolvable
    #[command(
        after_help = "Example:\n  puzzlebook number-match solve 271828182845904523536028747 --adds 1"
    )]
    Solve {
        /// The board: digits 1-9 in reading order, . for an empty cell (0 is refused);
        /// spaces, commas and newlines between them are ignored; at most 256 cells
        digits: String,
        /// The add limit
        #[arg(long, default_value_t = 4)]
        adds: u8,
        /// exact (proves unsolvable) or monte-carlo (the source article's random playouts)
        #[arg(long, value_enum, default_value = "exact")]
        solver: MatchSolver,
        /// Monte Carlo trials
        #[arg(long, default_value_t = 10_000)]
        trials: u64,
        /// Search nodes for the exact solver (running out, or Ctrl-C, is reported as
        /// unknown); memory stays bounded whatever the budget
        #[arg(long, default_value_t = 200_000_000)]
        max_nodes: u64,
        #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
        seed: u64,
        #[command(flatten)]
        rules: MatchRules,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
    /// How many random boards can be cleared, by add limit (CSV)
    #[command(
        after_help = "Example:\n  puzzlebook number-match stats --samples 10000 --out output/number-match-stats.csv"
    )]
    Stats {
        /// Random boards
        #[arg(long)]
        samples: u64,
        #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
        seed: u64,
        /// Digits on each board (1 to 256)
        #[arg(long, default_value_t = 27)]
        length: usize,
        /// The highest add limit to examine
        #[arg(long, default_value_t = 4)]
        max_adds: u8,
        /// Search nodes per board and limit (running out counts as unknown)
        #[arg(long, default_value_t = number_match::DEFAULT_MAX_NODES)]
        max_nodes: u64,
        #[command(flatten)]
        rules: MatchRules,
        #[arg(long, default_value = "output/number-match-stats.csv")]
        out: PathBuf,
        /// Count only the boards with index mod N == K, into a part file for `merge`
        #[arg(long, value_name = "K/N")]
        shard: Option<Shard>,
        /// Also run Monte Carlo with this many trials per board and limit, to compare
        #[arg(long, default_value_t = 0)]
        monte_carlo_trials: u64,
        /// Add wall-clock time columns (they differ from run to run; without them the
        /// CSV is the same on every run)
        #[arg(long)]
        timings: bool,
    },
}

#[derive(Subcommand)]
enum NumbrixCommand {
    /// Generate puzzles with proved-unique solutions
    #[command(
        after_help = "Example:\n  puzzlebook numbrix generate --size 9 --count 3 --style free --difficulty medium --format text"
    )]
    Generate {
        /// Grid size: N (NxN) or RxC, from 2x2 up to 512 cells
        #[arg(long, default_value = "9")]
        size: Size,
        /// free, symmetric or border
        #[arg(long, default_value = "free")]
        style: Style,
        /// Keep only easy, medium or hard puzzles
        #[arg(long)]
        difficulty: Option<Grade>,
        /// Node budget of each solver call: a first uniqueness check that runs out
        /// rejects the attempt; a clue-removal check that runs out keeps its clue (the
        /// puzzle stays unique, and its record says "minimal": false)
        #[arg(long, default_value_t = numbrix::DEFAULT_MAX_NODES)]
        max_nodes: u64,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Solve grids (one row per line, numbers or . for blanks; grids separated by blank lines)
    #[command(
        after_help = "Example:\n  printf '1 . .\\n. . .\\n. . 9\\n' | puzzlebook numbrix solve"
    )]
    Solve {
        /// Grid file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
        /// Give up after this many search nodes per grid (about 0.4 µs each on 9x9;
        /// reported as unknown, exit 1, never as unique)
        #[arg(long, default_value_t = 100_000_000)]
        max_nodes: u64,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum CatanFormat {
    Jsonl,
    Ascii,
}

#[derive(Args)]
struct CatanArgs {
    /// base (3-4 players) or extended (5-6 players)
    #[arg(long, default_value = "base")]
    board: BoardKind,
    /// Rules, comma-separated: red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N, or none
    #[arg(long, default_value = "red-apart")]
    rules: String,
}

#[derive(Subcommand)]
enum CatanCommand {
    /// Draw boards that meet the rules
    #[command(
        after_help = "Example:\n  puzzlebook catan generate --count 2 --seed 1 --format ascii"
    )]
    Generate {
        /// full-rejection, token-rejection, swap, sequential or direct
        #[arg(long, default_value = "full-rejection")]
        sampler: String,
        #[command(flatten)]
        catan: CatanArgs,
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
}

#[derive(Args)]
struct BiasArgs {
    /// Boards per sampler
    #[arg(long)]
    samples: u64,
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
    /// Comma-separated samplers (default: all five; direct only where it applies)
    #[arg(long)]
    samplers: Option<String>,
    #[command(flatten)]
    catan: CatanArgs,
    /// Per-hex CSV
    #[arg(long, default_value = "output/catan-bias.csv")]
    out: PathBuf,
    /// Summary CSV (default: beside --out, ending .summary.csv)
    #[arg(long)]
    summary: Option<PathBuf>,
    /// Draw the heat-map report as PDF
    #[arg(long)]
    report: Option<PathBuf>,
    /// Count only the boards with index mod N == K, into a part file for `merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Boards in the full-rejection reference run, for rules that cannot be enumerated
    #[arg(long, default_value_t = 2_000_000)]
    reference_samples: u64,
}

#[derive(Args)]
struct BookArgs {
    /// Book template (TOML); default templates/default.toml
    #[arg(long)]
    template: Option<PathBuf>,
    /// Master seed (overrides the template's)
    #[arg(long)]
    seed: Option<u64>,
    /// Output PDF
    #[arg(long, default_value = "output/book.pdf")]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum GenFormat {
    Jsonl,
    Text,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum SolveFormat {
    Text,
    Json,
}

#[derive(Args)]
struct RunArgs {
    /// How many items
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Master seed
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
    /// Index of the first item (to regenerate one item of a larger run)
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Make only the items with index mod N == K, as a part file for `merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Write here instead of standard output
    #[arg(long)]
    out: Option<PathBuf>,
}

#[derive(Subcommand)]
enum FlipCommand {
    /// Generate boards with their proven minimum solutions
    #[command(
        after_help = "Example:\n  puzzlebook flip generate --size 5 --count 3 --seed 1 --format text"
    )]
    Generate {
        /// Move centres per side (I, for an (I+2)x(I+2) board) or RxC
        #[arg(long)]
        size: Size,
        /// Reproduce the original game's start boards
        #[arg(long, value_name = "one-dot")]
        compat: Option<Compat>,
        /// Move shape: block (3x3) or plus (Lights Out cross)
        #[arg(long, default_value = "block")]
        shape: Shape,
        /// Throw away boards that need fewer moves
        #[arg(long, default_value_t = 1)]
        min_moves: usize,
        #[arg(long, value_enum, default_value = "jsonl")]
        format: GenFormat,
        #[command(flatten)]
        run: RunArgs,
    },
    /// Solve boards in the text format (several may be separated by blank lines)
    #[command(
        after_help = "Example:\n  printf -- '-----\\n-ooo- 1\\n-o-o- 2\\n-ooo- 3\\n-----\\n abc\\n' | puzzlebook flip solve"
    )]
    Solve {
        /// Board file, or - for standard input
        #[arg(default_value = "-")]
        file: String,
        #[arg(long, default_value = "block")]
        shape: Shape,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
    /// Show the rank of the move map and which single-dot boards are reachable
    #[command(after_help = "Example:\n  puzzlebook flip analyze --size 5")]
    Analyze {
        #[arg(long)]
        size: Size,
        #[arg(long, default_value = "block")]
        shape: Shape,
        #[arg(long, value_enum, default_value = "text")]
        format: SolveFormat,
    },
}

/// Set when events go to standard error as JSON (`run --json-log`), so the stop
/// notice is JSON too.
static JSON_LOG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Seconds a stop may take before the process ends at once anyway (its temporary files
/// removed first): every loop looks at the stop flag far more often than this.
const STOP_GRACE_SECONDS: u64 = 5;

/// SIGINT, SIGTERM and SIGHUP: the first asks the work to stop at its next check
/// (unfinished files are dropped, never renamed into place; exit 128 + signal); a
/// second one, or a stop that takes longer than the grace period, removes this
/// process's temporary files and exits at once.
fn install_stop_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if puzzlebook::interrupt::requested() {
                puzzlebook::output::remove_unfinished();
                std::process::exit(128 + sig);
            }
            let name = match sig {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            if JSON_LOG.load(std::sync::atomic::Ordering::Relaxed) {
                eprintln!(
                    "{}",
                    serde_json::json!({"event": "stopping", "signal": name})
                );
            } else {
                eprintln!("{name}: stopping (send it again to stop at once)");
            }
            puzzlebook::interrupt::request_by(sig);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_secs(STOP_GRACE_SECONDS));
                puzzlebook::output::remove_unfinished();
                std::process::exit(128 + sig);
            });
        }
    });
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    install_stop_handler();
    // PUZZLEBOOK_PLAIN_DEPOSIT=1: Catan's mask samplers use the plain-code bit deposit.
    puzzlebook::games::catan::set_default_deposit(
        puzzlebook::games::catan::BitDeposit::from_plain_setting(
            std::env::var_os("PUZZLEBOOK_PLAIN_DEPOSIT").as_deref(),
        ),
    );
    match run(cli) {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(Error::Interrupted) => {
            eprintln!("error: {}", Error::Interrupted);
            ExitCode::from(puzzlebook::interrupt::exit_status())
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}

fn is_broken_pipe(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}

fn progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

fn run(mut cli: Cli) -> Result<ExitCode> {
    let show_progress = progress(cli.quiet);
    let (jobs, note) = puzzlebook::limits::threads(cli.jobs);
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    cli.jobs = jobs;
    match cli.command {
        Command::Book(args) => book_cmd(args, cli.jobs, show_progress),
        Command::Run(args) => run_job(args, cli.jobs, show_progress),
        Command::Merge(args) => merge_cmd(args),
        Command::Verify { manifest } => verify_cmd(&manifest),
        Command::Flip(FlipCommand::Generate {
            size,
            compat,
            shape,
            min_moves,
            format,
            run,
        }) => {
            let game = Flip::new(FlipParams {
                size,
                shape,
                compat,
                min_moves,
            })
            .map_err(Error::as_flag)?;
            generate(&game, &run, cli.jobs, show_progress, format)
        }
        Command::Flip(FlipCommand::Solve {
            file,
            shape,
            format,
        }) => flip_solve(&file, shape, format),
        Command::Catan(CatanCommand::Generate {
            sampler,
            catan,
            format,
            run,
        }) => {
            let game = Catan::new(CatanParams {
                board: catan.board,
                sampler: sampler.parse::<Sampler>()?,
                rules: catan.rules,
                ..CatanParams::default()
            })
            .map_err(Error::as_flag)?;
            let format = match format {
                CatanFormat::Jsonl => GenFormat::Jsonl,
                CatanFormat::Ascii => GenFormat::Text,
            };
            generate(&game, &run, cli.jobs, show_progress, format)
        }
        Command::Catan(CatanCommand::Bias(args)) => catan_bias(args, cli.jobs, show_progress),
        Command::Numbrix(NumbrixCommand::Generate {
            size,
            style,
            difficulty,
            max_nodes,
            format,
            run,
        }) => {
            let game = Numbrix::new(NumbrixParams {
                size,
                style,
                difficulty,
                max_nodes,
            })
            .map_err(Error::as_flag)?;
            generate(&game, &run, cli.jobs, show_progress, format)
        }
        Command::NumberMatch(NumberMatchCommand::Generate {
            adds,
            length,
            difficulty,
            max_nodes,
            rules,
            format,
            run,
        }) => {
            let game = NumberMatch::new(NumberMatchParams {
                columns: rules.columns,
                length,
                adds,
                append: rules.append,
                diagonals: !rules.no_diagonals,
                difficulty,
                max_nodes,
                ..NumberMatchParams::default()
            })
            .map_err(Error::as_flag)?;
            generate(&game, &run, cli.jobs, show_progress, format)
        }
        Command::NumberMatch(NumberMatchCommand::Solve {
            digits,
            adds,
            solver,
            trials,
            max_nodes,
            seed,
            rules,
            format,
        }) => match_solve(
            &digits, adds, solver, trials, max_nodes, seed, &rules, format,
        ),
        Command::NumberMatch(NumberMatchCommand::Stats {
            samples,
            seed,
            length,
            max_adds,
            max_nodes,
            rules,
            out,
            shard,
            monte_carlo_trials,
            timings,
        }) => match_stats(
            monte_carlo_trials,
            samples,
            seed,
            length,
            max_adds,
            max_nodes,
            &rules,
            &out,
            shard,
            timings,
            cli.jobs,
        ),
        Command::Carcassonne(CarcassonneCommand::Score {
            file,
            format,
            breakdown,
            farms,
        }) => carcassonne_score(&file, format, breakdown, farms),
        Command::Carcassonne(CarcassonneCommand::Stats {
            samples,
            tiles,
            seed,
            out,
            shard,
        }) => carcassonne_stats(samples, &tiles, seed, &out, shard, cli.jobs),
        Command::Carcassonne(CarcassonneCommand::Generate {
            tiles,
            farms,
            format,
            run,
        }) => {
            let game =
                Carcassonne::new(CarcassonneParams { tiles, farms }).map_err(Error::as_flag)?;
            generate(&game, &run, cli.jobs, show_progress, format)
        }
        Command::Numbrix(NumbrixCommand::Solve {
            file,
            format,
            max_nodes,
        }) => numbrix_solve(&file, format, max_nodes),
        Command::Flip(FlipCommand::Analyze {
            size,
            shape,
            format,
        }) => {
            let layout = Layout::new(shape, size.rows, size.cols).map_err(Error::Invalid)?;
            let a = flip::analyze(layout);
            match format {
                SolveFormat::Json => {
                    println!("{}", serde_json::to_string(&a).expect("serialisable"))
                }
                SolveFormat::Text => print!("{}", analysis_text(&a)),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn book_cmd(args: BookArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let template = book::load_template(args.template.as_deref())?;
    let template_path = args
        .template
        .clone()
        .unwrap_or_else(|| PathBuf::from("templates/default.toml"));
    output::check_distinct(&[("--out", &args.out)], &[("the template", &template_path)])?;
    let default_out = args.out == Path::new("output/book.pdf");
    if default_out && !Path::new("output").exists() {
        std::fs::create_dir_all("output").map_err(|e| Error::io("cannot create", "output", e))?;
    }
    // Fail on an unwritable path before making the book.
    output::check_writable(&args.out)?;
    let built = book::build(
        &template,
        &BookOptions {
            seed: args.seed,
            jobs,
            progress: show_progress,
            template_name: args
                .template
                .as_deref()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned()),
        },
    )?;
    write_atomic(&args.out, &built.pdf)?;
    for w in &built.warnings {
        eprintln!("warning: {w}");
    }
    eprintln!(
        "wrote {}: {} pages, {} items, seed {}, {} KB in {:.2} s",
        args.out.display(),
        built.pages,
        built.puzzles,
        built.seed,
        built.pdf.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Run a generation and write JSON Lines or text, to stdout or (atomically) a file;
/// with `--shard`, a part file for `puzzlebook merge`.
fn generate<G: Game>(
    game: &G,
    run: &RunArgs,
    jobs: usize,
    show_progress: bool,
    format: GenFormat,
) -> Result<ExitCode> {
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
            jobs,
            progress: show_progress,
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
    if show_progress || run.out.is_some() {
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

/// The records of a solve/score input, one at a time (bounded memory).
fn records<'a>(file: &str, blocks: bool) -> Result<input::Records<'a>> {
    let reader = input::open(file)?;
    let name = input::name_of(file);
    Ok(if blocks {
        input::Records::blocks(reader, name, MAX_RECORD_BYTES)
    } else {
        input::Records::lines(reader, name, MAX_RECORD_BYTES)
    })
}

fn stdout_error(e: std::io::Error) -> Error {
    Error::io("cannot write to", "standard output", e)
}

fn flip_solve(file: &str, shape: Shape, format: SolveFormat) -> Result<ExitCode> {
    let name = input::name_of(file);
    let mut boards = records(file, true)?;
    let (mut count, mut unsolvable) = (0usize, 0usize);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Boards are solved as they are read: memory stays that of one board.
    while let Some(rec) = boards.next_record()? {
        puzzlebook::interrupt::check()?;
        count += 1;
        let (layout, board) = Layout::parse(shape, &rec.text).map_err(|e| {
            Error::invalid(format!("{name}: board {count} (line {}): {e}", rec.line))
        })?;
        let solver = flip::Solver::new(layout);
        let line = match solver.solve(&board).map_err(Error::Invalid)? {
            Solution::Solved(moves) => {
                let names: Vec<String> = moves.iter().map(|&m| layout.move_name(m)).collect();
                match format {
                    SolveFormat::Text if names.is_empty() => "0 moves: already solved".to_string(),
                    SolveFormat::Text => format!("{} move{}: {}", names.len(), if names.len() == 1 { "" } else { "s" }, names.join(" ")),
                    SolveFormat::Json => serde_json::json!({"solvable": true, "min_moves": names.len(), "solution": names}).to_string(),
                }
            }
            Solution::Unsolvable(why) => {
                unsolvable += 1;
                match format {
                    SolveFormat::Text => format!("cannot be solved: {why}"),
                    SolveFormat::Json => {
                        serde_json::json!({"solvable": false, "reason": why}).to_string()
                    }
                }
            }
        };
        writeln!(out, "{line}").map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    if count == 0 {
        return Err(Error::invalid(format!(
            "{name}: no board found; give one line of 'o' and '-' per row"
        )));
    }
    if unsolvable > 0 {
        return Err(Error::Check(format!(
            "{unsolvable} of {count} board{} cannot be solved",
            if count == 1 { "" } else { "s" }
        )));
    }
    Ok(ExitCode::SUCCESS)
}

fn numbrix_solve(file: &str, format: SolveFormat, budget: u64) -> Result<ExitCode> {
    use numbrix::{grid, Count, Grid};
    let name = input::name_of(file);
    if budget == 0 {
        return Err(Error::invalid(
            "--max-nodes is 0: give the search at least 1 node",
        ));
    }
    let mut blocks = records(file, true)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // "0 solutions" and "2 or more" are answers (exit 0); only "unknown" is a failure.
    let mut unknown = 0;
    // Grids are solved as they are read (memory stays that of one grid); the text
    // output separates grids by blank lines and numbers them from the second on, as
    // a whole input of several grids would be.
    let mut k = 0usize;
    let mut next = blocks.next_record()?;
    while let Some(rec) = next.take() {
        puzzlebook::interrupt::check()?;
        // One record read ahead: whether more grids follow decides the numbering.
        next = blocks.next_record()?;
        if rec.text.lines().all(|l| l.trim().starts_with('#')) {
            continue;
        }
        let grids = grid::parse_grids(&rec.text).map_err(|e| {
            Error::invalid(format!("{name}: grid {} (line {}): {e}", k + 1, rec.line))
        })?;
        let Some(g) = grids.first() else {
            continue;
        };
        let many = k > 0 || next.is_some();
        let v = numbrix::solve::solve_grid(g, budget).map_err(Error::Invalid)?;
        // A search cut short by a stop is a stop, not an "unknown" answer.
        puzzlebook::interrupt::check()?;
        let rows = |cells: &[u16]| Grid {
            rows: g.rows,
            cols: g.cols,
            cells: cells.to_vec(),
        };
        let text = match format {
            SolveFormat::Json => {
                let solution = v.solution.as_ref().map(|s| rows(s).to_rows());
                let mut obj = serde_json::json!({
                    "solutions": v.count.number(),
                    "solution": solution,
                    "nodes": v.nodes,
                });
                if v.count == Count::Unknown {
                    obj["unknown"] = serde_json::Value::Bool(true);
                }
                obj.to_string() + "\n"
            }
            SolveFormat::Text => {
                let head = if many {
                    format!("grid {}: ", k + 1)
                } else {
                    String::new()
                };
                match (&v.count, &v.solution) {
                    (Count::Zero, _) => format!("{head}0 solutions\n"),
                    (Count::One, Some(s)) => format!("{head}1 solution (unique)\n{}", rows(s).render()),
                    (Count::Many, Some(s)) => format!("{head}2 or more solutions; one of them:\n{}", rows(s).render()),
                    _ => format!("{head}unknown: the search stopped after {} nodes without proving anything\n", v.nodes),
                }
            }
        };
        if v.count == Count::Unknown {
            unknown += 1;
        }
        if format == SolveFormat::Text && k > 0 {
            writeln!(out).map_err(stdout_error)?;
        }
        write!(out, "{text}").map_err(stdout_error)?;
        // Each answer is seen as soon as it is found.
        out.flush().map_err(stdout_error)?;
        k += 1;
    }
    out.flush().map_err(stdout_error)?;
    if k == 0 {
        return Err(Error::invalid(format!(
            "{name}: no grid found; give one row per line, numbers or . for blanks"
        )));
    }
    if unknown > 0 {
        return Err(Error::Check(format!(
            "{unknown} of {k} grid(s) not decided within --max-nodes {budget}"
        )));
    }
    Ok(ExitCode::SUCCESS)
}

/// One landscape from JSON text: a landscape, or a record with a "landscape" field
/// (such as `carcassonne generate` output).
/// A key given twice or a key a record does not have is refused, named.
fn landscape_of(text: &str) -> Result<carcassonne::Landscape, String> {
    carcassonne::tiles::parse_record(text)
}

fn carcassonne_stats(
    samples: u64,
    tiles: &str,
    seed: u64,
    out: &Path,
    shard: Option<Shard>,
    jobs: usize,
) -> Result<ExitCode> {
    use carcassonne::stats;
    use puzzlebook::jobs::make::{carcassonne_stats as cs, CarcassonneStatsSpec, Target};
    let sizes: Vec<usize> = tiles
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=72).contains(n))
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "--tiles {}: sizes are 1 to 72 tiles, comma-separated",
                        carcassonne::tiles::shown(t)
                    ))
                })
        })
        .collect::<Result<_>>()?;
    let spec = CarcassonneStatsSpec {
        samples,
        tiles: sizes,
    };
    cs::config(&spec, seed).map_err(Error::as_flag)?;
    let out = stats_out(out, "output/carcassonne-stats.csv", shard)?;
    if let Some(shard) = shard {
        let target = Target::Part {
            path: out.clone(),
            tag: None,
        };
        let spec = puzzlebook::jobs::make::Spec::CarcassonneStats(spec);
        batch::thread_pool(jobs)?
            .install(|| spec.make(Some(seed), shard, &target, &Default::default()))?;
        eprintln!("wrote part {shard} to {}", out.display());
        return Ok(ExitCode::SUCCESS);
    }
    // Fail on an unwritable path before the long run.
    output::check_writable(&out)?;
    let started = std::time::Instant::now();
    let hists = batch::thread_pool(jobs)?.install(|| cs::count(&spec, seed, Shard::default()))?;
    println!("tiles  landscapes  score: mean  p10  p50  p90   complete cities  roads  monasteries (means)");
    for (&t, h) in spec.tiles.iter().zip(&hists) {
        let (mean, p10, p50, p90) = stats::summary(&h.0[0]);
        let m = |k: usize| stats::summary(&h.0[k]).0;
        println!(
            "{t:>5}  {:>10}  {mean:>11.2} {p10:>4} {p50:>4} {p90:>4}   {:>15.2} {:>6.2} {:>12.2}",
            h.0[0].iter().sum::<u64>(),
            m(1),
            m(3),
            m(5)
        );
    }
    cs::write(&spec, seed, &hists, &out)?;
    eprintln!(
        "wrote {} in {:.2} s",
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// The file a statistics command writes: with `--shard K/N` and the default path, the
/// part file beside it (`...csv.part-K-of-N`). The default output folder is created.
fn stats_out(out: &Path, default: &str, shard: Option<Shard>) -> Result<PathBuf> {
    let is_default = out == Path::new(default);
    if is_default && !Path::new("output").exists() {
        std::fs::create_dir_all("output").map_err(|e| Error::io("cannot create", "output", e))?;
    }
    Ok(match shard {
        Some(s) if is_default => {
            PathBuf::from(format!("{default}.part-{}-of-{}", s.index, s.count))
        }
        _ => out.to_path_buf(),
    })
}

fn carcassonne_score(
    file: &str,
    format: ScoreFormat,
    breakdown: bool,
    farms: bool,
) -> Result<ExitCode> {
    let name = input::name_of(file);
    let mut lines = records(file, false)?;
    let Some(first) = lines.next_record()? else {
        return Err(Error::invalid(format!(
            "{name}: no landscape (give a JSON array of rows of squares)"
        )));
    };
    // One JSON document over several lines (its first line is incomplete JSON), read
    // whole up to the record cap; otherwise JSON Lines, scored as they are read.
    let incomplete =
        matches!(serde_json::from_str::<serde_json::Value>(&first.text), Err(e) if e.is_eof());
    let mut single = None;
    if incomplete {
        let mut text = first.text.clone();
        while let Some(r) = lines.next_record()? {
            if text.len() + r.text.len() > MAX_RECORD_BYTES {
                return Err(Error::invalid(format!(
                    "{name}: the landscape is longer than {MAX_RECORD_BYTES} bytes, the most one may be"
                )));
            }
            text.push_str(&r.text);
        }
        single = Some(input::Record {
            text,
            line: first.line,
        });
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut bad, mut k) = (0, 0usize);
    let mut next = Some(single.unwrap_or(first));
    while let Some(rec) = next.take() {
        puzzlebook::interrupt::check()?;
        next = if incomplete {
            None
        } else {
            lines.next_record()?
        };
        let many = k > 0 || next.is_some();
        k += 1;
        let parsed = landscape_of(&rec.text);
        let where_ = if many {
            format!("line {}: ", rec.line)
        } else {
            String::new()
        };
        let text = match (parsed, format) {
            (Ok(l), ScoreFormat::Jsonl) => {
                let b = carcassonne::score::score_with(&l, farms);
                let mut v = serde_json::json!({"score": b.total()});
                if breakdown {
                    v["breakdown"] = serde_json::json!(b);
                    v["breakdown_text"] = serde_json::json!(b.text());
                }
                v.to_string() + "\n"
            }
            (Ok(l), ScoreFormat::Text) => {
                let b = carcassonne::score::score_with(&l, farms);
                if breakdown {
                    format!("{}: {}\n", b.total(), b.text())
                } else {
                    format!("{}\n", b.total())
                }
            }
            (Err(e), ScoreFormat::Jsonl) => {
                bad += 1;
                serde_json::json!({"error": format!("{where_}{e}")}).to_string() + "\n"
            }
            (Err(e), ScoreFormat::Text) => {
                bad += 1;
                if !many {
                    return Err(Error::invalid(format!("{name}: {e}")));
                }
                out.flush().map_err(stdout_error)?;
                eprintln!("error: {name}: {where_}{e}");
                continue;
            }
        };
        out.write_all(text.as_bytes()).map_err(stdout_error)?;
    }
    out.flush().map_err(stdout_error)?;
    if bad > 0 {
        // The errors are already written, one per landscape (a single bad landscape
        // in text mode returned its error above); exit 1 without repeating them.
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn match_rules(r: &MatchRules, adds: u8) -> Result<number_match::Rules> {
    NumberMatch::check(r.columns, adds).map_err(Error::as_flag)?;
    Ok(number_match::Rules {
        cols: r.columns,
        diagonals: !r.no_diagonals,
        append: r.append,
    })
}

#[allow(clippy::too_many_arguments)]
fn match_solve(
    digits: &str,
    adds: u8,
    which: MatchSolver,
    trials: u64,
    max_nodes: u64,
    seed: u64,
    r: &MatchRules,
    format: SolveFormat,
) -> Result<ExitCode> {
    use number_match::{montecarlo, move_records, rules::parse_board, Solver};
    let rules = match_rules(r, adds)?;
    let board = parse_board(digits).map_err(Error::Invalid)?;
    if max_nodes == 0 || trials == 0 {
        return Err(Error::invalid(
            "--max-nodes and --trials must be at least 1",
        ));
    }
    let started = std::time::Instant::now();
    // (solvable: Some(bool) or None for unknown, min_adds, moves, extra)
    let (solvable, min_adds, moves, note) = match which {
        MatchSolver::Exact => {
            let mut solver = Solver::new(rules);
            match solver.min_adds(&board, adds, max_nodes) {
                Ok(Some((k, m))) => (Some(true), Some(k), m, format!("{} nodes", solver.nodes())),
                Ok(None) => (
                    Some(false),
                    None,
                    Vec::new(),
                    format!("{} nodes", solver.nodes()),
                ),
                Err(()) => (None, None, Vec::new(), format!("{} nodes", solver.nodes())),
            }
        }
        MatchSolver::MonteCarlo => {
            let mut rng = puzzlebook::seed::item_rng(seed, "number-match-monte-carlo", 0);
            match montecarlo::solve(&rules, &board, adds, trials, &mut rng) {
                Some((t, m)) => {
                    let used = m.iter().filter(|x| **x == number_match::Move::Add).count() as u8;
                    (Some(true), Some(used), m, format!("trial {t}"))
                }
                // Monte Carlo proves nothing: failing is "unknown".
                None => (None, None, Vec::new(), format!("{trials} trials failed")),
            }
        }
    };
    // A stop (Ctrl-C) ends the search as unknown: say so, not "not decided".
    puzzlebook::interrupt::check()?;
    let micros = started.elapsed().as_secs_f64() * 1e6;
    let board_text: String = board
        .iter()
        .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
        .collect();
    let out = match format {
        SolveFormat::Json => {
            let v = serde_json::json!({
                "game": "number_match",
                "board": board_text,
                "columns": rules.cols,
                "adds": adds,
                "append": rules.append.name(),
                "solver": if which == MatchSolver::Exact { "exact" } else { "monte-carlo" },
                "solvable": solvable,
                "min_adds": if which == MatchSolver::Exact { serde_json::json!(min_adds) } else { serde_json::Value::Null },
                "solution": if solvable == Some(true) { serde_json::json!(move_records(&moves)) } else { serde_json::Value::Null },
            });
            v.to_string() + "\n"
        }
        SolveFormat::Text => {
            let head = match (solvable, which) {
                (Some(true), MatchSolver::Exact) => format!(
                    "solvable with {} add(s) at least ({note}, {micros:.0} us)",
                    min_adds.unwrap_or(0)
                ),
                (Some(true), MatchSolver::MonteCarlo) => {
                    format!("cleared by random play at {note} ({micros:.0} us)")
                }
                (Some(false), _) => {
                    format!(
                        "UNSOLVABLE with at most {adds} add(s): the search was exhaustive ({note})"
                    )
                }
                (None, MatchSolver::Exact) => {
                    format!("unknown: the search stopped at --max-nodes ({note})")
                }
                (None, MatchSolver::MonteCarlo) => {
                    format!("unknown: {note} (Monte Carlo cannot prove a board unsolvable)")
                }
            };
            let mut t = format!(
                "{head}\n{}",
                number_match::rules::render(&board, rules.cols)
            );
            if solvable == Some(true) {
                t += &format!("moves: {}\n", number_match::notation(&moves, rules.cols));
            }
            t
        }
    };
    print!("{out}");
    if solvable.is_none() && which == MatchSolver::Exact {
        return Err(Error::Check(format!(
            "not decided within --max-nodes {max_nodes}"
        )));
    }
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
fn match_stats(
    mc_trials: u64,
    samples: u64,
    seed: u64,
    length: usize,
    max_adds: u8,
    max_nodes: u64,
    r: &MatchRules,
    out: &Path,
    shard: Option<Shard>,
    timings: bool,
    jobs: usize,
) -> Result<ExitCode> {
    use puzzlebook::jobs::make::{match_stats as ms, MatchStatsSpec, Spec, Target};
    let spec = MatchStatsSpec {
        samples,
        length,
        max_adds,
        max_nodes,
        columns: r.columns,
        append: r.append.name().to_string(),
        diagonals: !r.no_diagonals,
        monte_carlo_trials: mc_trials,
        timings,
    };
    let cfg = ms::config(&spec, seed, shard.unwrap_or_default()).map_err(Error::as_flag)?;
    let out = stats_out(out, "output/number-match-stats.csv", shard)?;
    let started = std::time::Instant::now();
    let spec = Spec::NumberMatchStats(spec);
    let target = match shard {
        Some(_) => Target::Part {
            path: out.clone(),
            tag: None,
        },
        None => Target::Whole(puzzlebook::jobs::make::StatsFiles::single(out.clone())),
    };
    // Fail on an unwritable path before the long run.
    output::check_writable(&out)?;
    let env = puzzlebook::jobs::make::Env {
        jobs,
        progress: false,
    };
    let made = spec.make(Some(seed), cfg.shard, &target, &env)?;
    eprintln!(
        "{} boards in {:.2} s ({:.0} boards/s); wrote {}",
        made.items,
        started.elapsed().as_secs_f64(),
        made.items as f64 / started.elapsed().as_secs_f64().max(1e-9),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn analysis_text(a: &flip::Analysis) -> String {
    let injective = a.rank == a.moves;
    let mut s = format!(
        "Flip analysis: {} x {} move centres, {} moves, board {} x {}\n",
        a.rows, a.cols, a.shape, a.board_rows, a.board_cols
    );
    s += &format!("unknowns (moves):             {}\n", a.moves);
    s += &format!("equations (board cells):      {}\n", a.cells);
    s += &format!("rank of the move map:         {}\n", a.rank);
    s += &format!("null space dimension:         {}\n", a.nullity);
    s += &format!(
        "independent invariants:       {} (= {} - {})\n",
        a.invariants, a.cells, a.rank
    );
    s += &format!(
        "single-dot boards reachable from the target: {} of {}: {}\n",
        a.single_dot_reachable,
        a.single_dot_boards,
        a.reachable_cells.join(" ")
    );
    if injective {
        s += "The move map is injective: every board comes from at most one set of moves, so the set \
              that scrambled a board is its only solution and its size is the minimum.\n";
    } else {
        s += &format!(
            "The move map is not injective: each solvable board has 2^{} solving sets; the minimum is \
             found by searching the null space.\n",
            a.nullity
        );
    }
    s
}

fn catan_bias(args: BiasArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    use puzzlebook::games::catan::bias;
    use puzzlebook::jobs::make::{catan_bias as cb, BiasSpec, StatsFiles};
    let spec = BiasSpec {
        samples: args.samples,
        samplers: args.samplers.clone(),
        board: args.catan.board.name().to_string(),
        rules: args.catan.rules.clone(),
        reference_samples: args.reference_samples,
        summary: None,
        report: None,
    };
    let (ctx, samplers) = cb::setup(&spec).map_err(Error::as_flag)?;
    let out = stats_out(&args.out, "output/catan-bias.csv", args.shard)?;
    if let Some(shard) = args.shard {
        if args.report.is_some() || args.summary.is_some() {
            return Err(Error::invalid(
                "--summary and --report are made when the parts are merged: give them to `puzzlebook merge`",
            ));
        }
        output::check_writable(&out)?;
        let target = puzzlebook::jobs::make::Target::Part {
            path: out.clone(),
            tag: None,
        };
        let env = puzzlebook::jobs::make::Env {
            jobs,
            progress: show_progress,
        };
        puzzlebook::jobs::make::Spec::CatanBias(spec).make(
            Some(args.seed),
            shard,
            &target,
            &env,
        )?;
        eprintln!("wrote part {shard} to {}", out.display());
        return Ok(ExitCode::SUCCESS);
    }
    if ctx.table.is_none() {
        eprintln!(
            "note: rules {} cannot be enumerated on the {} board; expectations come from a reference run of {} full-rejection boards, and direct is skipped",
            ctx.rules,
            args.catan.board.name(),
            args.reference_samples
        );
    }
    let files = StatsFiles {
        out: out.clone(),
        summary: args.summary.clone(),
        report: args.report.clone(),
    }
    .with_default_summary();
    output::check_distinct(&files.named(), &[])?;
    // Fail on an unwritable path before the long run.
    for f in files.all() {
        output::check_writable(&f)?;
    }
    let cfg = cb::study_config(&spec, samplers, args.seed, Shard::default(), show_progress);
    let study = batch::thread_pool(jobs)?
        .install(|| {
            bias::study(&ctx, &cfg, |s: Sampler, c: &bias::Counts, secs: f64| {
                eprintln!(
                    "{}: {} boards, {} attempts in {:.2} s ({:.2} M boards/s)",
                    s.name(),
                    c.boards,
                    c.attempts,
                    secs,
                    c.boards as f64 / secs.max(1e-9) / 1e6
                );
            })
        })
        .map_err(puzzlebook::jobs::make::stop_or)?;
    cb::write(&ctx, &study, args.seed, &files)?;
    print_bias_table(&study);
    Ok(ExitCode::SUCCESS)
}

fn print_bias_table(study: &puzzlebook::games::catan::bias::Study) {
    println!("sampler          samples     acceptance  chi-square (df)         p-value    max |z| (where)");
    for s in &study.summaries {
        let chi = match (s.chi_square, s.df) {
            (Some(c), Some(d)) => format!("{c:.1} ({d})"),
            _ => "n/a".into(),
        };
        let p = s.p_value.map_or("n/a".into(), |p| format!("{p:.3e}"));
        println!(
            "{:<16} {:>10}  {:>10.5}  {:<22}  {:>9}  {:.2} ({})",
            s.sampler, s.samples, s.acceptance_rate, chi, p, s.max_abs_z, s.max_abs_z_at
        );
    }
}

/// The shard a scheduler gives this task.
fn shard_from_env() -> Result<Shard> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    let num = |k: &str, v: String| {
        v.trim()
            .parse::<u64>()
            .map_err(|_| Error::invalid(format!("{k}={v} is not a whole number")))
    };
    if let Some(v) = var("PUZZLEBOOK_SHARD") {
        return v
            .parse()
            .map_err(|e| Error::invalid(format!("PUZZLEBOOK_SHARD: {e}")));
    }
    let (index, count) = if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
        // The array must be 0..N-1 with step 1, so task id = shard and count = N.
        let id = num("SLURM_ARRAY_TASK_ID", id)?;
        let min = var("SLURM_ARRAY_TASK_MIN")
            .map(|v| num("SLURM_ARRAY_TASK_MIN", v))
            .transpose()?;
        let max = var("SLURM_ARRAY_TASK_MAX")
            .map(|v| num("SLURM_ARRAY_TASK_MAX", v))
            .transpose()?;
        let count = var("SLURM_ARRAY_TASK_COUNT")
            .map(|v| num("SLURM_ARRAY_TASK_COUNT", v))
            .transpose()?;
        if let Some(lo) = min.filter(|&lo| lo != 0) {
            return Err(Error::invalid(format!(
                "the Slurm array starts at {lo}: submit it as --array=0-(N-1)"
            )));
        }
        let count = match (count, max) {
            (Some(c), Some(hi)) if c != hi.saturating_add(1) => {
                return Err(Error::invalid(format!(
                    "the Slurm array has {c} tasks but ends at {hi}: submit it as --array=0-(N-1) without a step"
                )))
            }
            (Some(c), _) => c,
            (None, Some(hi)) => hi.saturating_add(1),
            (None, None) => {
                return Err(Error::invalid(
                    "SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT (or _MIN and _MAX)",
                ))
            }
        };
        (id, count)
    } else if let Some(id) = var("JOB_COMPLETION_INDEX") {
        let count = var("PUZZLEBOOK_SHARD_COUNT").ok_or_else(|| {
            Error::invalid(
                "JOB_COMPLETION_INDEX is set but PUZZLEBOOK_SHARD_COUNT is not: set it to the Job's completions",
            )
        })?;
        (
            num("JOB_COMPLETION_INDEX", id)?,
            num("PUZZLEBOOK_SHARD_COUNT", count)?,
        )
    } else {
        return Err(Error::invalid(
            "--shard-from-env: none of PUZZLEBOOK_SHARD, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX is set",
        ));
    };
    format!("{index}/{count}")
        .parse()
        .map_err(|e| Error::invalid(format!("the scheduler's shard: {e}")))
}

fn run_job(args: RunJobArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    use puzzlebook::jobs::{self, LogStyle};
    let json_log = args.json_log;
    JSON_LOG.store(json_log, std::sync::atomic::Ordering::Relaxed);
    let run = || -> Result<()> {
        let shard = if args.shard_from_env {
            Some(shard_from_env()?)
        } else {
            args.shard
        };
        let job = jobs::Job::load(&args.job)?;
        let opts = jobs::RunOptions {
            out_dir: args.out_dir,
            shard,
            merge: args.merge,
            force: args.force,
            env: puzzlebook::jobs::make::Env {
                jobs,
                progress: show_progress && !json_log,
            },
            log: if json_log {
                LogStyle::Json
            } else {
                LogStyle::Text
            },
        };
        jobs::run(&job, &opts).map(|_| ())
    };
    match run() {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // With --json-log every error is an event too (and the only line), from a bad
        // job file to an interrupted run.
        Err(e) if json_log => {
            eprintln!(
                "{}",
                serde_json::json!({"event": "error", "message": e.to_string()})
            );
            Ok(ExitCode::from(if matches!(e, Error::Interrupted) {
                puzzlebook::interrupt::exit_status()
            } else {
                1
            }))
        }
        Err(e) => Err(e),
    }
}

fn merge_cmd(args: MergeArgs) -> Result<ExitCode> {
    use puzzlebook::jobs::make::{self, StatsFiles};
    // Outputs must be distinct files, none of them a part (compared as files, not as
    // spellings). The default summary only applies to Catan bias parts, whose kind
    // is known once they are open: `merge` checks that one against the rest.
    let outs: Vec<(&str, &Path)> = [
        ("--out", Some(args.out.as_path())),
        ("--summary", args.summary.as_deref()),
        ("--report", args.report.as_deref()),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.map(|p| (n, p)))
    .collect();
    let inputs: Vec<(&str, &Path)> = args
        .parts
        .iter()
        .map(|p| ("one of the parts", p.as_path()))
        .collect();
    output::check_distinct(&outs, &inputs)?;
    for (_, o) in &outs {
        // Fail on an unwritable path before writing anything.
        output::check_writable(o)?;
    }
    let started = std::time::Instant::now();
    let files = StatsFiles {
        out: args.out.clone(),
        summary: args.summary.clone(),
        report: args.report.clone(),
    };
    let merged = make::merge(&args.parts, &files)?;
    if let Some(study) = &merged.study {
        print_bias_table(study);
    } else if args.summary.is_some() || args.report.is_some() {
        eprintln!("note: --summary and --report apply to Catan bias parts only");
    }
    eprintln!(
        "merged {} parts ({}, {} items) into {} in {:.2} s",
        args.parts.len(),
        merged.kind,
        merged.made.items,
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn verify_cmd(manifest: &Path) -> Result<ExitCode> {
    let checks = puzzlebook::jobs::manifest::verify(manifest)?;
    let bad: Vec<_> = checks.iter().filter(|c| c.problem.is_some()).collect();
    for c in &checks {
        match &c.problem {
            None => println!("ok       {}", c.file.display()),
            Some(p) => println!("MISMATCH {}: {p}", c.file.display()),
        }
    }
    if !bad.is_empty() {
        return Err(Error::Check(format!(
            "{} of {} files do not match {}",
            bad.len(),
            checks.len(),
            manifest.display()
        )));
    }
    eprintln!("all {} files match {}", checks.len(), manifest.display());
    Ok(ExitCode::SUCCESS)
}
