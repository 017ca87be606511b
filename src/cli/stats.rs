//! The statistics commands (`catan bias`, `catan stats`, `carcassonne stats`,
//! `number-match stats`):
//! flags into a spec, then the one library path for whole runs and shards alike.

use clap::Args;
use puzzlebook::batch::Env;
use puzzlebook::games::catan::stats::{CatanStats, CatanStatsSpec};
use puzzlebook::games::Games;
use puzzlebook::jobs::make::{Spec, StatSpec, StatsCommand, StatsFiles};
use puzzlebook::sampling::bias_stat::{BiasSpec, CatanBias};
use puzzlebook::shard::Shard;
use puzzlebook::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `catan bias`: the study's parameters, and where its files go.
#[derive(Args)]
pub struct BiasArgs {
    #[command(flatten)]
    spec: BiasSpec,
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
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
    let cmd = StatsCommand::prepare::<Games>(spec, seed, shard).map_err(Error::as_flag)?;
    super::say(&cmd.run(&files, &env, |l| eprintln!("{l}"))?)?;
    Ok(ExitCode::SUCCESS)
}

/// `carcassonne stats` or `number-match stats`: one CSV at `out` (default `default`),
/// no progress bar.
pub fn single_csv(
    spec: Spec,
    default: &str,
    seed: u64,
    out: &Path,
    shard: Option<Shard>,
    jobs: usize,
) -> Result<ExitCode> {
    let out = stats_out(out, default, shard)?;
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
    if is_default {
        puzzlebook::output::create_folder(Path::new("output"), "the default output folder")?;
    }
    Ok(match shard {
        Some(s) if is_default => {
            PathBuf::from(format!("{default}.part-{}-of-{}", s.index, s.count))
        }
        _ => out.to_path_buf(),
    })
}

/// `catan bias`: per-hex statistics of the samplers, whole or one shard.
pub fn catan_bias(args: BiasArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let spec = Spec::Statistic(StatSpec::of::<CatanBias>(&args.spec));
    let out = stats_out(&args.out, "output/catan-bias.csv", args.shard)?;
    let files = StatsFiles {
        out,
        summary: args.summary,
        report: args.report,
        replicates: None,
    };
    let env = Env {
        jobs,
        progress: show_progress,
    };
    run_stats(spec, args.seed, args.shard, files, env)
}

/// `catan stats`: the distributions' parameters, and where its files go.
#[derive(Args)]
pub struct CatanStatsArgs {
    #[command(flatten)]
    spec: CatanStatsSpec,
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
    /// The histograms' CSV
    #[arg(long, default_value = "output/catan-stats.csv")]
    out: PathBuf,
    /// Draw the histograms as a PDF report
    #[arg(long)]
    report: Option<PathBuf>,
    /// Count only the boards with index mod N == K, into a part file for `merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

/// `catan stats`: histograms of the balance measures of uniform boards, whole or one
/// shard.
pub fn catan_stats(args: CatanStatsArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let spec = Spec::Statistic(StatSpec::of::<CatanStats>(&args.spec));
    let out = stats_out(&args.out, "output/catan-stats.csv", args.shard)?;
    let files = StatsFiles {
        out,
        summary: None,
        report: args.report,
        replicates: None,
    };
    let env = Env {
        jobs,
        progress: show_progress,
    };
    run_stats(spec, args.seed, args.shard, files, env)
}
