//! How uniform is each sampler? Stream boards through mergeable counters, then compare
//! every per-hex frequency with its exact expectation (z-scores) and the whole
//! placement distribution with a chi-square test.

pub use super::counts::{Cells, Counts};
use super::exact::{Expectations, Fraction};
use super::samplers::{Ctx, Sampler};
use crate::board::{Shape, DESERT, HARBOR_NAMES, TERRAIN_NAMES, TOKEN_VALUES};
use ground::shard::{Shard, ShardIndices};
use ground::stats::{self, chi2_sf, pearson};
use ground::Result;

/// One sampler's boards, counted: board i is the board `sampler` draws from item i's
/// stream (counted by `batch::study`; a shard's counts merge into the whole run's).
pub struct SamplerStudy<'a> {
    /// The board, the rules and the samplers' set-up.
    pub ctx: &'a Ctx,
    /// The sampler whose boards are counted.
    pub sampler: Sampler,
    /// The placement cells of the chi-square test (None: rules without a table).
    pub cells: Option<&'a Cells>,
    streams: ground::seed::Streams,
}

impl<'a> SamplerStudy<'a> {
    /// The boards `sampler` draws from the streams of `seed`.
    pub fn new(ctx: &'a Ctx, sampler: Sampler, cells: Option<&'a Cells>, seed: u64) -> Self {
        SamplerStudy {
            ctx,
            sampler,
            cells,
            streams: ground::seed::Streams::new(seed, "catan"),
        }
    }
}

/// Boards per unit of parallel work. Counting boards drawn as sets of places runs at
/// several million boards a second, so a chunk is a few tens of milliseconds; the
/// other samplers look at the stop flag after every board.
pub const CHUNK: u64 = 1 << 16;

impl stats::Study for SamplerStudy<'_> {
    type Counts = Counts;

    fn chunk(&self) -> u64 {
        CHUNK
    }

    fn empty(&self) -> Counts {
        Counts::new(self.ctx.shape, self.cells.map_or(0, Cells::len))
    }

    fn merge(&self, into: &mut Counts, other: Counts) {
        into.merge(&other);
    }

    fn count(&self, i: u64, counts: &mut Counts) -> Result<()> {
        let mut rng = self.streams.item(i);
        let d = match self.ctx.sample(self.sampler, &mut rng) {
            Ok(d) => d,
            // A sampler cut short by a stop request proves nothing about the rules.
            Err(e) => {
                ground::interrupt::check()?;
                return Err(e);
            }
        };
        let cell = self.cells.and_then(|cl| cl.of(self.ctx.shape, &d.layout));
        counts.add(&d.layout, d.attempts, cell);
        Ok(())
    }

    /// Samplers that draw in mask form count a whole chunk there (the same boards).
    fn count_chunk(&self, indices: ShardIndices, counts: &mut Counts) -> Result<()> {
        match self.ctx.mask_plan(self.sampler) {
            Some(plan) => {
                plan.count_into(&self.streams, indices, counts, self.cells);
                Ok(())
            }
            None => {
                for i in indices {
                    ground::interrupt::check()?;
                    self.count(i, counts)?;
                }
                Ok(())
            }
        }
    }
}

/// One row of the per-hex CSV.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FeatureRow {
    /// Seed of the run (the same for every sampler of a study).
    pub seed: u64,
    /// Board name, `base` or `extended`.
    pub board: &'static str,
    /// The rules, as written on the command line (`red-apart,2-12-apart`).
    pub rules: String,
    /// Sampler name.
    pub sampler: &'static str,
    /// Boards drawn by this sampler.
    pub samples: u64,
    /// `hex`, `harbor` or `resource`: what `n` numbers.
    pub place: &'static str,
    /// Hex number (1-based, reading order), harbor frame position (1-based), or
    /// resource (1 wheat, 2 wood, 3 sheep, 4 clay, 5 rock; `x` and `y` are then 0).
    pub n: usize,
    /// Row of the hex or harbor (spec coordinates, top row 0).
    pub x: i32,
    /// Position along the row (spec coordinates).
    pub y: i32,
    /// What was counted there: `desert`, `red`, `token=V`, `terrain=NAME` or `harbor=KIND`.
    pub feature: String,
    /// Boards that had the feature at this place.
    pub observed: u64,
    /// Boards a uniform sampler is expected to give: probability times `samples`.
    pub expected: f64,
    /// Standardised difference (observed - expected) / sd; infinite when the feature is impossible but seen.
    pub z: f64,
}

/// One row of the summary CSV.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SummaryRow {
    /// Seed of the run (the same for every sampler of a study).
    pub seed: u64,
    /// Board name, `base` or `extended`.
    pub board: &'static str,
    /// The rules, as written on the command line.
    pub rules: String,
    /// Sampler name.
    pub sampler: &'static str,
    /// Boards drawn by this sampler.
    pub samples: u64,
    /// Attempts over all boards (a rejection sampler's discarded boards included).
    pub attempts: u64,
    /// `samples / attempts`: boards kept per attempt.
    pub acceptance_rate: f64,
    /// Exact probability that a uniform board meets the rules, as a fraction; empty when not enumerated.
    pub exact_acceptance: String,
    /// Pearson statistic over the placement cells; `None` when a cell expects fewer than 5 boards.
    pub chi_square: Option<f64>,
    /// Degrees of freedom of `chi_square` (cells used - 1).
    pub df: Option<usize>,
    /// Upper-tail p-value of `chi_square`; 0 when boards broke the rules.
    pub p_value: Option<f64>,
    /// Largest |z| over the per-hex rows with a finite z.
    pub max_abs_z: f64,
    /// Where `max_abs_z` was found: `place n feature` (empty when no row has a finite z).
    pub max_abs_z_at: String,
    /// Where the expectations come from (exact enumeration or a reference run).
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

/// The pip totals resource `r` can have: from its hexes getting the lowest tokens to
/// their getting the highest.
pub(crate) fn resource_support(shape: &Shape, r: usize) -> std::ops::RangeInclusive<usize> {
    let mut p: Vec<usize> = shape
        .tokens
        .iter()
        .map(|&t| crate::board::pips(t) as usize)
        .collect();
    p.sort_unstable();
    let k = shape.terrain_count(r as u8);
    let low: usize = p[..k].iter().sum();
    let high: usize = p[p.len() - k..].iter().sum();
    low..=high.min(super::counts::PIP_BINS - 1)
}

/// The feature rows of one sampler's counts, as they are made.
struct Rows<'a> {
    shape: &'a Shape,
    rules: &'a str,
    sampler: Sampler,
    seed: u64,
    n: u64,
    reference_n: Option<u64>,
    rows: Vec<FeatureRow>,
}

impl Rows<'_> {
    /// One row: a feature at a place, seen `observed` times where `p` of the boards
    /// are expected.
    fn push(
        &mut self,
        place: &'static str,
        i: usize,
        (x, y): (i32, i32),
        feature: String,
        observed: u64,
        p: f64,
    ) {
        let n = self.n;
        self.rows.push(FeatureRow {
            seed: self.seed,
            board: self.shape.kind.name(),
            rules: self.rules.to_string(),
            sampler: self.sampler.name(),
            samples: n,
            place,
            n: i + 1,
            x,
            y,
            feature,
            observed,
            expected: p * n as f64,
            z: z(observed, n, p, self.reference_n),
        });
    }

    /// Per hex: the desert, red numbers, each token value and each land terrain.
    fn hexes(&mut self, counts: &Counts, exp: &Expectations) {
        for (h, &xy) in self.shape.hexes.iter().enumerate() {
            self.push(
                "hex",
                h,
                xy,
                "desert".into(),
                counts.desert(h),
                exp.desert[h],
            );
            self.push("hex", h, xy, "red".into(), counts.red(h), exp.red[h]);
            for (k, v) in TOKEN_VALUES.iter().enumerate() {
                self.push(
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
                    self.push(
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
    }

    /// Per harbor position: each harbor kind.
    fn harbors(&mut self, counts: &Counts, exp: &Expectations) {
        for (p, hb) in self.shape.harbors.iter().enumerate() {
            for (k, name) in HARBOR_NAMES.iter().enumerate() {
                self.push(
                    "harbor",
                    p,
                    (hb.x, hb.y),
                    format!("harbor={name}"),
                    counts.harbor[p * 6 + k],
                    exp.harbor[p][k],
                );
            }
        }
    }

    /// Each resource's pip total, over the totals its hexes can reach: where the
    /// balance of a board shows (best-of-N chooses on it).
    fn resources(&mut self, counts: &Counts, exp: &Expectations) {
        for (r, name) in TERRAIN_NAMES
            .iter()
            .take(super::counts::RESOURCES)
            .enumerate()
        {
            for k in resource_support(self.shape, r) {
                self.push(
                    "resource",
                    r,
                    (0, 0),
                    format!("{name} pips={k}"),
                    counts.resource[r * super::counts::PIP_BINS + k],
                    exp.resource[r][k],
                );
            }
        }
    }
}

/// What counts are compared against: the expectations, the placement cells of the
/// chi-square test (when there is one), and the reference run's size when the
/// expectations come from one rather than exactly.
#[derive(Clone, Copy)]
pub struct Against<'a> {
    /// Per feature, the expected fractions.
    pub exp: &'a Expectations,
    /// The cells of the placement chi-square test, if any.
    pub cells: Option<&'a Cells>,
    /// Boards in the reference run; None for exact expectations.
    pub reference_n: Option<u64>,
}

/// Compare counts with expectations: the per-hex rows and the summary row.
pub(crate) fn compare(
    shape: &Shape,
    rules: &str,
    sampler: Sampler,
    seed: u64,
    counts: &Counts,
    against: Against<'_>,
) -> (Vec<FeatureRow>, SummaryRow) {
    let Against {
        exp,
        cells,
        reference_n,
    } = against;
    let n = counts.boards;
    let mut made = Rows {
        shape,
        rules,
        sampler,
        seed,
        n,
        reference_n,
        rows: Vec::new(),
    };
    made.hexes(counts, exp);
    made.harbors(counts, exp);
    made.resources(counts, exp);
    let rows = made.rows;
    let worst = worst_feature(&rows);
    let (chi_square, df, p_value) = placement_chi_square(counts, cells);
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

/// The largest |z| of `rows` and where it is ("hex 4 red"); (0, "") when none is finite.
fn worst_feature(rows: &[FeatureRow]) -> (f64, String) {
    rows.iter()
        .filter(|r| r.z.is_finite())
        .max_by(|a, b| a.z.abs().total_cmp(&b.z.abs()))
        .map(|r| (r.z.abs(), format!("{} {} {}", r.place, r.n, r.feature)))
        .unwrap_or((0.0, String::new()))
}

/// Chi-square over the placement cells (statistic, degrees of freedom, p-value), when
/// every cell expects at least 5 boards.
fn placement_chi_square(
    counts: &Counts,
    cells: Option<&Cells>,
) -> (Option<f64>, Option<usize>, Option<f64>) {
    let n = counts.boards;
    match cells {
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
    }
}

/// The exact sampler of the reference run: `direct` where it applies (it draws the
/// placement rules without rejection, so it needs fewer attempts), else
/// `full-rejection`.
pub fn reference_sampler(ctx: &Ctx) -> Sampler {
    if ctx.has_direct() {
        Sampler::Direct
    } else {
        Sampler::FullRejection
    }
}

/// The reference run for rules that cannot be enumerated: boards of the
/// [`reference_sampler`] from their own seed, counted by the caller.
pub(crate) fn reference_study(ctx: &Ctx, seed: u64) -> SamplerStudy<'_> {
    SamplerStudy::new(ctx, reference_sampler(ctx), None, seed)
}

/// Expectations estimated from the counts `c` of a reference run of `samples` boards
/// of `sampler` from `seed` (see `reference_study`). The harbors' are exact (every
/// arrangement equally likely) unless a rule looks at the harbors
/// (`harbor-resource-apart`); then they too come from the run.
pub(crate) fn reference(
    shape: &Shape,
    rules: &crate::rules::Rules,
    sampler: Sampler,
    c: &Counts,
    seed: u64,
    samples: u64,
) -> Expectations {
    let n = samples as f64;
    let f = |v: u64| v as f64 / n;
    Expectations {
        desert: (0..shape.len()).map(|h| f(c.desert(h))).collect(),
        red: (0..shape.len()).map(|h| f(c.red(h))).collect(),
        token: (0..shape.len())
            .map(|h| std::array::from_fn(|k| f(c.token(h, k))))
            .collect(),
        terrain: (0..shape.len())
            .map(|h| std::array::from_fn(|t| f(c.terrain(h, t))))
            .collect(),
        resource: (0..super::counts::RESOURCES)
            .map(|r| {
                (0..super::counts::PIP_BINS)
                    .map(|k| f(c.resource[r * super::counts::PIP_BINS + k]))
                    .collect()
            })
            .collect(),
        harbor: if rules.needs_harbors() {
            (0..shape.harbors.len())
                .map(|p| std::array::from_fn(|k| f(c.harbor[p * 6 + k])))
                .collect()
        } else {
            super::exact::harbor_expectations(shape)
        },
        acceptance: None,
        source: format!(
            "reference run: {}, {samples} boards, seed {seed}",
            sampler.name()
        ),
        cells: "",
    }
}

/// A whole bias study: every sampler, the same seed, the same expectations.
pub struct Study {
    /// Per-hex and per-harbor rows of every sampler, in sampler order.
    pub rows: Vec<FeatureRow>,
    /// One summary row per sampler, in sampler order.
    pub summaries: Vec<SummaryRow>,
    /// Per sampler, the counts (for reports and merging).
    pub counts: Vec<(Sampler, Counts)>,
    /// The expectations every sampler was compared with.
    pub expectations: Expectations,
    /// With replicates, one row per replicate and sampler (replicate 1 is this
    /// study); empty without.
    pub replicates: Vec<ReplicateRow>,
}

/// What a study runs.
#[derive(Debug, Clone)]
pub struct StudyConfig {
    /// Samplers to run, in output order.
    pub samplers: Vec<Sampler>,
    /// Seed shared by every sampler.
    pub seed: u64,
    /// Boards per sampler.
    pub samples: u64,
    /// Which part of the boards this run draws (the whole run when not sharded).
    pub shard: Shard,
    /// Boards in the reference run, for rules that cannot be enumerated.
    pub reference_samples: u64,
}

/// The seed of the reference run of a study from `seed`.
pub(crate) fn reference_seed(seed: u64) -> u64 {
    seed ^ 0x5eed_0f4e_fe2e_c0de
}

/// The cells of the chi-square test: the placement cells of the table, else (rules
/// counted exactly by layers) the desert's hex; None without either.
pub fn cells(ctx: &Ctx) -> Option<Cells> {
    match (&ctx.table, layer_expectations(ctx)) {
        (Some(t), _) => Some(Cells::new(ctx.shape, t)),
        (None, Some(e)) if ctx.shape.deserts == 1 => Some(Cells::deserts(e.desert)),
        _ => None,
    }
}

/// Exact expectations from the counted layers, when the context has them and their
/// count is exact.
pub(crate) fn layer_expectations(ctx: &Ctx) -> Option<Expectations> {
    ctx.layers.as_ref().and_then(|l| l.expectations())
}

/// Whether a study of `ctx` compares with a reference run (no exact expectations).
pub(crate) fn needs_reference(ctx: &Ctx) -> bool {
    ctx.table.is_none() && layer_expectations(ctx).is_none()
}

/// The expectations of a study (exact, or from the reference run, which `count`
/// counts: see `reference_study`), the placement cells of its chi-square test, and
/// the reference run's size (None for exact expectations).
pub fn expectations(
    ctx: &Ctx,
    cfg: &StudyConfig,
    count: impl FnOnce(&SamplerStudy, u64) -> Result<Counts>,
) -> Result<(Expectations, Option<Cells>, Option<u64>)> {
    let shape = ctx.shape;
    if ctx.table.is_none() {
        if let Some(e) = layer_expectations(ctx) {
            return Ok((e, cells(ctx), None));
        }
    }
    Ok(match &ctx.table {
        Some(t) => (
            Expectations::exact(shape, t),
            Some(Cells::new(shape, t)),
            None,
        ),
        None => {
            let seed = reference_seed(cfg.seed);
            let c = count(&reference_study(ctx, seed), cfg.reference_samples)?;
            (
                reference(
                    shape,
                    &ctx.rules,
                    reference_sampler(ctx),
                    &c,
                    seed,
                    cfg.reference_samples,
                ),
                None,
                Some(cfg.reference_samples),
            )
        }
    })
}

/// Per sampler, the rows and the summary of the counts of a study from `seed`,
/// against expectations made by [`expectations`].
pub(crate) fn compare_all(
    ctx: &Ctx,
    seed: u64,
    counts: &[(Sampler, Counts)],
    against: Against<'_>,
) -> (Vec<FeatureRow>, Vec<SummaryRow>) {
    let mut rows = Vec::new();
    let mut summaries = Vec::new();
    let rules = ctx.rules.to_string();
    for (s, c) in counts {
        let (r, summary) = compare(ctx.shape, &rules, *s, seed, c, against);
        rows.extend(r);
        summaries.push(summary);
    }
    (rows, summaries)
}

/// The comparing half: the expectations (exact, or from the reference run, which
/// `count` counts: see `reference_study`) and, per sampler, the rows and the summary
/// for the given (whole-run) counts.
pub fn finish(
    ctx: &Ctx,
    cfg: &StudyConfig,
    counts: Vec<(Sampler, Counts)>,
    count: impl FnOnce(&SamplerStudy, u64) -> Result<Counts>,
) -> Result<Study> {
    let (expectations, cells, reference_n) = expectations(ctx, cfg, count)?;
    let (rows, summaries) = compare_all(
        ctx,
        cfg.seed,
        &counts,
        Against {
            exp: &expectations,
            cells: cells.as_ref(),
            reference_n,
        },
    );
    Ok(Study {
        rows,
        summaries,
        counts,
        expectations,
        replicates: Vec::new(),
    })
}

/// The most replicates a study may ask for (`--replicates`): each is a complete study.
pub(crate) const MAX_REPLICATES: u32 = 1000;

/// The seed of replicate `r` (1-based) of a study from `seed`: replicate 1 is the
/// study itself; the others get seeds mixed from (`seed`, `r`), independent streams.
pub(crate) fn replicate_seed(seed: u64, r: u32) -> u64 {
    if r <= 1 {
        seed
    } else {
        ground::seed::mix64(ground::seed::mix64(seed ^ 0x7265_706c_6963_6174) ^ u64::from(r))
    }
}

/// One row of the replicates CSV: one sampler in one replicate.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReplicateRow {
    /// Replicate number, 1 to R (1 is the study of the per-hex and summary CSVs).
    pub replicate: u32,
    /// The replicate's seed (see `replicate_seed`).
    pub seed: u64,
    /// Sampler name.
    pub sampler: &'static str,
    /// Pearson statistic over the placement cells (empty where there is none).
    pub chi_square: Option<f64>,
    /// Its degrees of freedom.
    pub df: Option<usize>,
    /// Its upper-tail p-value.
    pub p_value: Option<f64>,
    /// Largest |z| over the per-hex rows.
    pub max_abs_z: f64,
}

impl ReplicateRow {
    /// The replicate row of a summary.
    pub fn of(replicate: u32, s: &SummaryRow) -> Self {
        ReplicateRow {
            replicate,
            seed: s.seed,
            sampler: s.sampler,
            chi_square: s.chi_square,
            df: s.df,
            p_value: s.p_value,
            max_abs_z: s.max_abs_z,
        }
    }
}

/// The KS test of one sampler's replicate p-values against the uniform distribution.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KsRow {
    /// Sampler name.
    pub sampler: &'static str,
    /// Replicates run.
    pub replicates: usize,
    /// (D, p-value) of the KS test; None when the sampler has no chi-square p-values.
    pub ks: Option<(f64, f64)>,
    /// The verdict in words.
    pub verdict: String,
}

/// KS p-value under which the replicate p-values are called not uniform.
pub(crate) const KS_REJECT: f64 = 0.001;
/// KS p-value under which they are called doubtful.
pub(crate) const KS_DOUBT: f64 = 0.05;

/// Per sampler (in order of first appearance), the KS test of its replicates'
/// chi-square p-values. The chi-square is over the placement cells (where the deserts
/// and reds go), so the verdict says so: a sampler can place them uniformly and still
/// be biased elsewhere (`best-of-N`, in the resources' pips), which max |z| shows. A sampler with any replicate without a chi-square is not tested.
pub(crate) fn ks_rows(rows: &[ReplicateRow]) -> Vec<KsRow> {
    let mut names: Vec<&'static str> = Vec::new();
    for r in rows {
        if !names.contains(&r.sampler) {
            names.push(r.sampler);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let mine: Vec<&ReplicateRow> = rows.iter().filter(|r| r.sampler == name).collect();
            let ps: Option<Vec<f64>> = mine.iter().map(|r| r.p_value).collect();
            let ks = ps.as_deref().and_then(stats::ks_uniform);
            let verdict = match ks {
                None => "not tested: no chi-square (the rules cannot be enumerated, or cells expect fewer than 5 boards)".to_string(),
                Some((_, p)) if p < KS_REJECT => "placement biased: the sampler is not uniform".to_string(),
                Some((_, p)) if p < KS_DOUBT => "placement doubtful: weak evidence against uniform p-values".to_string(),
                Some(_) => "placement: no evidence of bias (the cells only; see max |z|)".to_string(),
            };
            KsRow {
                sampler: name,
                replicates: mine.len(),
                ks,
                verdict,
            }
        })
        .collect()
}
