//! The statistics commands (`catan bias`, `carcassonne stats`, `number-match stats`):
//! flags into a spec, then the one library path for whole runs and shards alike.

use clap::Args;
use puzzlebook::batch::Env;
use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::games::number_match::Append;
use puzzlebook::jobs::make::{
    BiasSpec, CarcassonneStatsSpec, MatchStatsSpec, Spec, StatsCommand, StatsFiles,
};
use puzzlebook::shard::Shard;
use puzzlebook::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct MatchRules {
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

#[derive(Args)]
pub struct CatanArgs {
    /// base (3-4 players) or extended (5-6 players)
    #[arg(long, default_value = "base")]
    board: BoardKind,
    /// Rules, comma-separated: red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N, or none
    #[arg(long, default_value = "red-apart")]
    rules: String,
}

#[derive(Args)]
pub struct BiasArgs {
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

/// A statistics command through the one library path (`StatsCommand`), whole or one
/// shard: checks first, then the run; stderr lines as they come, the table on stdout.
fn run_stats(
    spec: Spec,
    seed: u64,
    shard: Option<Shard>,
    files: StatsFiles,
    env: Env,
) -> Result<ExitCode> {
    let cmd = StatsCommand::prepare(spec, seed, shard).map_err(Error::as_flag)?;
    print!("{}", cmd.run(&files, &env, |l| eprintln!("{l}"))?);
    Ok(ExitCode::SUCCESS)
}

/// `carcassonne stats`: histograms per landscape size, whole or one shard.
pub fn carcassonne_stats(
    samples: u64,
    tiles: &str,
    seed: u64,
    out: &Path,
    shard: Option<Shard>,
    jobs: usize,
) -> Result<ExitCode> {
    let tiles: Vec<usize> = tiles
        .split(',')
        .map(|t| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=72).contains(n))
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "--tiles {}: sizes are 1 to 72 tiles, comma-separated",
                        puzzlebook::input::shown(t)
                    ))
                })
        })
        .collect::<Result<_>>()?;
    let spec = Spec::CarcassonneStats(CarcassonneStatsSpec { samples, tiles });
    let out = stats_out(out, "output/carcassonne-stats.csv", shard)?;
    let env = Env {
        jobs,
        progress: false,
    };
    run_stats(spec, seed, shard, StatsFiles::single(out), env)
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

/// `number-match stats`: clearable boards and search effort per add limit.
#[allow(clippy::too_many_arguments)]
pub fn match_stats(
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
    let spec = Spec::NumberMatchStats(MatchStatsSpec {
        samples,
        length,
        max_adds,
        max_nodes,
        columns: r.columns,
        append: r.append.name().to_string(),
        diagonals: !r.no_diagonals,
        monte_carlo_trials: mc_trials,
        timings,
    });
    let out = stats_out(out, "output/number-match-stats.csv", shard)?;
    let env = Env {
        jobs,
        progress: false,
    };
    run_stats(spec, seed, shard, StatsFiles::single(out), env)
}

/// `catan bias`: per-hex statistics of the samplers, whole or one shard.
pub fn catan_bias(args: BiasArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let spec = Spec::CatanBias(BiasSpec {
        samples: args.samples,
        samplers: args.samplers.clone(),
        board: args.catan.board.name().to_string(),
        rules: args.catan.rules.clone(),
        reference_samples: args.reference_samples,
        summary: None,
        report: None,
    });
    let out = stats_out(&args.out, "output/catan-bias.csv", args.shard)?;
    let files = StatsFiles {
        out,
        summary: args.summary,
        report: args.report,
    };
    let env = Env {
        jobs,
        progress: show_progress,
    };
    run_stats(spec, args.seed, args.shard, files, env)
}
