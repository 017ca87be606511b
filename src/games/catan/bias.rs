//! How uniform is each sampler? Stream boards through mergeable counters, then compare
//! every per-hex frequency with its exact expectation (z-scores) and the whole
//! placement distribution with a chi-square test.

use super::board::{Shape, DESERT, HARBOR_NAMES, TERRAIN_NAMES, TOKEN_VALUES};
pub use super::counts::{Cells, Counts};
use super::exact::{Expectations, Fraction};
use super::sampler::{Ctx, Sampler};
use crate::shard::Shard;
use crate::stats::{chi2_sf, pearson};
use rayon::prelude::*;

/// Run `sampler` for the boards of this shard among `0..samples`, counting.
pub fn count(
    ctx: &Ctx,
    sampler: Sampler,
    cells: Option<&Cells>,
    seed: u64,
    samples: u64,
    shard: Shard,
) -> Result<Counts, String> {
    count_with_progress(
        ctx,
        sampler,
        cells,
        seed,
        samples,
        shard,
        &indicatif::ProgressBar::hidden(),
    )
}

/// Boards per unit of parallel work in [`count_with_progress`]. Counting boards drawn
/// as sets of places runs at several million boards a second, so a chunk is a few tens
/// of milliseconds; the other samplers look at the stop flag after every board.
pub const CHUNK: u64 = 1 << 16;

/// [`count`], advancing `bar` as chunks of boards finish.
///
/// The chunks are walked lazily (a parallel range, not a list of them), so memory does
/// not depend on `samples`; the counts are sums, so they are the same in any order and
/// at any thread count. A stop request ends the run within about a chunk of the fast
/// samplers, or one board of the others, with Err("interrupted") and no counts.
pub fn count_with_progress(
    ctx: &Ctx,
    sampler: Sampler,
    cells: Option<&Cells>,
    seed: u64,
    samples: u64,
    shard: Shard,
    bar: &indicatif::ProgressBar,
) -> Result<Counts, String> {
    let shape = ctx.shape;
    let ncells = cells.map_or(0, Cells::len);
    let streams = crate::seed::Streams::new(seed, "catan");
    let stop = || crate::interrupt::requested();
    (0..samples.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if stop() {
                return Err("interrupted".to_string());
            }
            let mut counts = Counts::new(shape, ncells);
            let end = ((c + 1) * CHUNK).min(samples);
            let indices = shard.indices(c * CHUNK, end - c * CHUNK);
            match ctx.mask_plan(sampler) {
                // Samplers that draw in mask form count there (the same boards).
                Some(plan) => plan.count_into(&streams, indices, &mut counts, cells),
                None => {
                    for i in indices {
                        if stop() {
                            return Err("interrupted".to_string());
                        }
                        let mut rng = streams.item(i);
                        let d = ctx.sample(sampler, &mut rng).map_err(|e| match e {
                            crate::Error::Interrupted => "interrupted".to_string(),
                            e => e.to_string(),
                        })?;
                        let cell = cells.and_then(|cl| cl.of(shape, &d.layout));
                        counts.add(&d.layout, d.attempts, cell);
                    }
                }
            }
            bar.inc(end - c * CHUNK);
            crate::progress::add(shard.len(c * CHUNK, end - c * CHUNK));
            Ok(counts)
        })
        .try_reduce(
            || Counts::new(shape, ncells),
            |mut a, b| {
                a.merge(&b);
                Ok(a)
            },
        )
}

/// One row of the per-hex CSV.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FeatureRow {
    pub seed: u64,
    pub board: &'static str,
    pub rules: String,
    pub sampler: &'static str,
    pub samples: u64,
    pub place: &'static str,
    pub n: usize,
    pub x: i32,
    pub y: i32,
    pub feature: String,
    pub observed: u64,
    pub expected: f64,
    pub z: f64,
}

/// One row of the summary CSV.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SummaryRow {
    pub seed: u64,
    pub board: &'static str,
    pub rules: String,
    pub sampler: &'static str,
    pub samples: u64,
    pub attempts: u64,
    pub acceptance_rate: f64,
    pub exact_acceptance: String,
    pub chi_square: Option<f64>,
    pub df: Option<usize>,
    pub p_value: Option<f64>,
    pub max_abs_z: f64,
    pub max_abs_z_at: String,
    pub expectations: String,
}

fn z(observed: u64, n: u64, p: f64, reference_n: Option<u64>) -> f64 {
    let n = n as f64;
    let mut var = n * p * (1.0 - p);
    if let Some(m) = reference_n {
        // The expectation itself is an estimate from m boards.
        var += n * n * p * (1.0 - p) / m as f64;
    }
    if var <= 0.0 {
        return if (observed as f64 - n * p).abs() < 1e-9 {
            0.0
        } else {
            f64::INFINITY
        };
    }
    (observed as f64 - n * p) / var.sqrt()
}

/// Compare counts with expectations: the per-hex rows and the summary row.
#[allow(clippy::too_many_arguments)]
pub fn compare(
    shape: &Shape,
    rules: &str,
    sampler: Sampler,
    seed: u64,
    counts: &Counts,
    exp: &Expectations,
    cells: Option<&Cells>,
    reference_n: Option<u64>,
) -> (Vec<FeatureRow>, SummaryRow) {
    let n = counts.boards;
    let mut rows = Vec::new();
    let mut push = |place: &'static str,
                    i: usize,
                    (x, y): (i32, i32),
                    feature: String,
                    observed: u64,
                    p: f64| {
        rows.push(FeatureRow {
            seed,
            board: shape.kind.name(),
            rules: rules.to_string(),
            sampler: sampler.name(),
            samples: n,
            place,
            n: i + 1,
            x,
            y,
            feature,
            observed,
            expected: p * n as f64,
            z: z(observed, n, p, reference_n),
        });
    };
    for (h, &xy) in shape.hexes.iter().enumerate() {
        push(
            "hex",
            h,
            xy,
            "desert".into(),
            counts.desert(h),
            exp.desert[h],
        );
        push("hex", h, xy, "red".into(), counts.red(h), exp.red[h]);
        for (k, v) in TOKEN_VALUES.iter().enumerate() {
            push(
                "hex",
                h,
                xy,
                format!("token={v}"),
                counts.token(h, k),
                exp.token[h][k],
            );
        }
        for (t, name) in TERRAIN_NAMES.iter().enumerate() {
            if t as u8 != DESERT {
                push(
                    "hex",
                    h,
                    xy,
                    format!("terrain={name}"),
                    counts.terrain(h, t),
                    exp.terrain[h][t],
                );
            }
        }
    }
    for (p, hb) in shape.harbors.iter().enumerate() {
        for (k, name) in HARBOR_NAMES.iter().enumerate() {
            push(
                "harbor",
                p,
                (hb.x, hb.y),
                format!("harbor={name}"),
                counts.harbor[p * 6 + k],
                exp.harbor[p][k],
            );
        }
    }
    let worst = rows
        .iter()
        .filter(|r| r.z.is_finite())
        .max_by(|a, b| a.z.abs().total_cmp(&b.z.abs()))
        .map(|r| (r.z.abs(), format!("{} {} {}", r.place, r.n, r.feature)))
        .unwrap_or((0.0, String::new()));
    // Chi-square over the placement cells, when every cell expects at least 5 boards.
    let (chi_square, df, p_value) = match cells {
        Some(c) if !c.is_empty() => {
            let expected: Vec<f64> = c.probability.iter().map(|p| p * n as f64).collect();
            let min = expected
                .iter()
                .copied()
                .filter(|&e| e > 0.0)
                .fold(f64::MAX, f64::min);
            if min >= 5.0 {
                let (chi, used) = pearson(&counts.cells, &expected);
                // Boards outside every valid cell (a sampler that breaks the rules) add
                // an infinite term: report them as p = 0.
                let outside = n - counts.cells.iter().sum::<u64>();
                let chi = if outside > 0 { f64::INFINITY } else { chi };
                (
                    Some(chi),
                    Some(used - 1),
                    Some(if chi.is_finite() {
                        chi2_sf(chi, (used - 1) as f64)
                    } else {
                        0.0
                    }),
                )
            } else {
                (None, None, None)
            }
        }
        _ => (None, None, None),
    };
    let summary = SummaryRow {
        seed,
        board: shape.kind.name(),
        rules: rules.to_string(),
        sampler: sampler.name(),
        samples: n,
        attempts: counts.attempts,
        acceptance_rate: n as f64 / counts.attempts.max(1) as f64,
        exact_acceptance: exp
            .acceptance
            .map(|f: Fraction| f.to_string())
            .unwrap_or_default(),
        chi_square,
        df,
        p_value,
        max_abs_z: worst.0,
        max_abs_z_at: worst.1,
        expectations: exp.source.clone(),
    };
    (rows, summary)
}

/// Expectations estimated from a large full-rejection run, for rules that cannot be
/// enumerated.
pub fn reference(ctx: &Ctx, seed: u64, samples: u64) -> Result<Expectations, String> {
    let shape = ctx.shape;
    let c = count(
        ctx,
        Sampler::FullRejection,
        None,
        seed,
        samples,
        Shard::default(),
    )?;
    let n = samples as f64;
    let f = |v: u64| v as f64 / n;
    Ok(Expectations {
        desert: (0..shape.len()).map(|h| f(c.desert(h))).collect(),
        red: (0..shape.len()).map(|h| f(c.red(h))).collect(),
        token: (0..shape.len())
            .map(|h| std::array::from_fn(|k| f(c.token(h, k))))
            .collect(),
        terrain: (0..shape.len())
            .map(|h| std::array::from_fn(|t| f(c.terrain(h, t))))
            .collect(),
        harbor: super::exact::harbor_expectations(shape),
        acceptance: None,
        source: format!("reference run: full-rejection, {samples} boards, seed {seed}"),
    })
}

/// A whole bias study: every sampler, the same seed, the same expectations.
pub struct Study {
    pub rows: Vec<FeatureRow>,
    pub summaries: Vec<SummaryRow>,
    /// Per sampler, the counts (for reports and merging).
    pub counts: Vec<(Sampler, Counts)>,
    pub expectations: Expectations,
}

/// What a study runs.
#[derive(Debug, Clone)]
pub struct StudyConfig {
    pub samplers: Vec<Sampler>,
    pub seed: u64,
    /// Boards per sampler.
    pub samples: u64,
    pub shard: Shard,
    /// Boards in the reference run, for rules that cannot be enumerated.
    pub reference_samples: u64,
    /// Show a progress bar per sampler.
    pub progress_bar: bool,
}

/// Run the study. The samplers must be available for the rules (see [`super::context`]).
pub fn study(
    ctx: &Ctx,
    cfg: &StudyConfig,
    progress: impl FnMut(Sampler, &Counts, f64),
) -> Result<Study, String> {
    let counts = count_samplers(ctx, cfg, progress)?;
    finish(ctx, cfg, counts)
}

/// The counting half of a study: per sampler, the counts of this shard's boards.
/// Counts from shards of the same study add up ([`Counts::merge`]) to the counts of
/// the whole run.
pub fn count_samplers(
    ctx: &Ctx,
    cfg: &StudyConfig,
    mut progress: impl FnMut(Sampler, &Counts, f64),
) -> Result<Vec<(Sampler, Counts)>, String> {
    let cells = ctx.table.as_ref().map(|t| Cells::new(ctx.shape, t));
    let mut all = Vec::new();
    for &s in &cfg.samplers {
        let started = std::time::Instant::now();
        let bar = if cfg.progress_bar {
            let bar = indicatif::ProgressBar::new(cfg.samples);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{prefix} [{bar:32}] {human_pos}/{human_len} eta {eta}",
                )
                .expect("valid template")
                .progress_chars("=> "),
            );
            bar.set_prefix(s.name());
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let counts = count_with_progress(
            ctx,
            s,
            cells.as_ref(),
            cfg.seed,
            cfg.samples,
            cfg.shard,
            &bar,
        )?;
        bar.finish_and_clear();
        progress(s, &counts, started.elapsed().as_secs_f64());
        all.push((s, counts));
    }
    Ok(all)
}

/// The comparing half: the expectations (exact, or from the reference run) and, per
/// sampler, the rows and the summary for the given (whole-run) counts.
pub fn finish(
    ctx: &Ctx,
    cfg: &StudyConfig,
    counts: Vec<(Sampler, Counts)>,
) -> Result<Study, String> {
    let shape = ctx.shape;
    let (expectations, cells, reference_n) = match &ctx.table {
        Some(t) => (
            Expectations::exact(shape, t),
            Some(Cells::new(shape, t)),
            None,
        ),
        None => (
            reference(ctx, cfg.seed ^ 0x5eed_0f4e_fe2e_c0de, cfg.reference_samples)?,
            None,
            Some(cfg.reference_samples),
        ),
    };
    let mut rows = Vec::new();
    let mut summaries = Vec::new();
    for (s, c) in &counts {
        let (r, summary) = compare(
            shape,
            &ctx.rules.to_string(),
            *s,
            cfg.seed,
            c,
            &expectations,
            cells.as_ref(),
            reference_n,
        );
        rows.extend(r);
        summaries.push(summary);
    }
    Ok(Study {
        rows,
        summaries,
        counts,
        expectations,
    })
}
