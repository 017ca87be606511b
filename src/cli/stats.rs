//! The statistics commands, as they are: `catan bias`, `carcassonne stats` and
//! `number-match stats`.

use clap::Args;
use puzzlebook::batch;
use puzzlebook::games::carcassonne;
use puzzlebook::games::catan::{board::BoardKind, Sampler};
use puzzlebook::games::number_match::Append;
use puzzlebook::output;
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

pub fn carcassonne_stats(
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

pub fn catan_bias(args: BiasArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
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

pub fn print_bias_table(study: &puzzlebook::games::catan::bias::Study) {
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
