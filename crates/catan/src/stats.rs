//! `catan-stats` (`catan stats`): the distribution of each balance measure
//! (`games::catan::balance`) over uniformly drawn valid boards. Boards come from an
//! exact sampler (`direct` or `full-rejection`), board i from item i's own stream (the
//! board `catan generate` makes at index i with the same seed, sampler and rules);
//! their measures go into exact histograms (integer counts), so shards add up to the
//! whole run and a merge writes the same bytes. The CSV holds one row per measure and
//! value, the table on standard output a summary of each measure, and the optional
//! report ([`report`]) one small histogram per measure.

use super::balance::{self, Balance};
use super::board::BoardKind;
use super::rules::Rules;
use crate::sampling::{context, Ctx, Sampler};
use clap::builder::TypedValueParser as _;
use ground::shard::{Shard, ShardIndices};
use ground::statistic::{Runner, StatFile, Statistic, StatsFiles};
use ground::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub mod report;

fn red_apart() -> String {
    "red-apart".into()
}

/// `kind = "catan-stats"`: the options of `catan stats`.
/// The command line's flags are these fields (declared once, here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct CatanStatsSpec {
    /// Boards to draw and measure
    #[arg(long)]
    pub samples: u64,
    /// base (3-4 players) or extended (5-6 players)
    #[serde(default)]
    #[arg(
        long,
        default_value = BoardKind::Base.name(),
        value_parser = clap::builder::PossibleValuesParser::new(["base", "extended"])
            .map(|s| s.parse::<BoardKind>().expect("a listed value"))
    )]
    pub board: BoardKind,
    /// Rules, comma-separated (the help lists every rule), or none
    #[serde(default = "red_apart")]
    #[arg(long, default_value_t = red_apart(), help = crate::rules::rules_help())]
    pub rules: String,
    /// direct or full-rejection, the exact samplers (default: direct where the rules
    /// allow it, else full-rejection)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(long)]
    pub sampler: Option<String>,
    /// In a job file, the PDF report's file name (default: none); the command line's
    /// `--report` takes a path instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(skip)]
    pub report: Option<String>,
}

/// The measures, in CSV and report order: (CSV name, title, unit on the axis).
pub const MEASURES: [(&str, &str, &str); 10] = [
    ("wheat_pips", "Wheat pips", "pips"),
    ("wood_pips", "Wood pips", "pips"),
    ("sheep_pips", "Sheep pips", "pips"),
    ("clay_pips", "Clay pips", "pips"),
    ("rock_pips", "Rock pips", "pips"),
    ("corner_pips_min", "Poorest three-hex corner", "pips"),
    ("corner_pips_max", "Richest three-hex corner", "pips"),
    ("largest_cluster", "Largest one-terrain group", "hexes"),
    (
        "harbor_own_resource",
        "2:1 harbors at their resource",
        "harbors",
    ),
    ("score", "Balance score (lower = fairer)", "score"),
];

/// Index of the score in [`MEASURES`] (the one binned measure).
pub(crate) const SCORE: usize = 9;

/// Bins of the score per unit: bin k holds scores in [k/20, (k+1)/20), i.e. 0.05 wide.
pub(crate) const SCORE_BINS_PER_UNIT: f64 = 20.0;

/// Score bins before the overflow bin: 0 to 2.5 (no board scores 2.5 or more: the
/// score is the standard deviation of five values between 0 and 5 pips per hex).
pub(crate) const SCORE_BINS: usize = 50;

/// The largest value a histogram may hold (a damaged part claiming more is refused;
/// no board reaches it: the extended board's tokens have 140 pips in all).
const MAX_VALUE: usize = 1024;

/// The score in units of 10^-9, as exact integer sums take it.
const SCORE_UNIT: f64 = 1e9;

/// The score's bin: `floor(score * 20)`, at most [`SCORE_BINS`] (the overflow bin).
pub(crate) fn score_bin(score: f64) -> usize {
    ((score * SCORE_BINS_PER_UNIT).floor().max(0.0) as usize).min(SCORE_BINS)
}

/// The lower edge of score bin `k`, as exact decimals ("0.35"; the overflow bin
/// ">=2.50").
pub(crate) fn score_bin_label(k: usize) -> String {
    let hundredths = k * 5;
    let s = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    if k >= SCORE_BINS {
        format!(">={s}")
    } else {
        s
    }
}

/// Mergeable counts of the boards of a run (or a shard): one histogram per measure,
/// and the score's exact sums (in units of 10^-9, rounded per board) for its mean and
/// standard deviation, and its extremes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hists {
    /// Boards counted.
    pub boards: u64,
    /// Per measure ([`MEASURES`] order), boards per value (the score: per bin); each
    /// as long as its largest value seen, plus one.
    pub counts: Vec<Vec<u64>>,
    /// Sum of round(score * 10^9).
    pub score_sum: u128,
    /// Sum of round(score * 10^9)^2.
    pub score_sq_sum: u128,
    /// Smallest round(score * 10^9) (u64::MAX when no board).
    pub score_min: u64,
    /// Largest round(score * 10^9).
    pub score_max: u64,
}

impl Default for Hists {
    fn default() -> Self {
        Hists {
            boards: 0,
            counts: vec![Vec::new(); MEASURES.len()],
            score_sum: 0,
            score_sq_sum: 0,
            score_min: u64::MAX,
            score_max: 0,
        }
    }
}

fn bump(h: &mut Vec<u64>, v: usize, by: u64) {
    if h.len() <= v {
        h.resize(v + 1, 0);
    }
    h[v] += by;
}

impl Hists {
    /// Count one board's measures.
    pub fn add(&mut self, b: &Balance) {
        let p = b.resource_pips.as_array();
        let values = [
            p[0] as usize,
            p[1] as usize,
            p[2] as usize,
            p[3] as usize,
            p[4] as usize,
            b.corner_pips_min as usize,
            b.corner_pips_max as usize,
            b.largest_cluster,
            b.harbor_own_resource,
            score_bin(b.score),
        ];
        for (h, v) in self.counts.iter_mut().zip(values) {
            bump(h, v.min(MAX_VALUE), 1);
        }
        let s = (b.score * SCORE_UNIT).round().max(0.0) as u64;
        self.score_sum += u128::from(s);
        self.score_sq_sum += u128::from(s) * u128::from(s);
        self.score_min = self.score_min.min(s);
        self.score_max = self.score_max.max(s);
        self.boards += 1;
    }

    /// Add `other`'s boards.
    pub fn merge(&mut self, other: &Hists) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            for (v, &c) in b.iter().enumerate() {
                if c > 0 {
                    bump(a, v, c);
                }
            }
        }
        self.boards += other.boards;
        self.score_sum += other.score_sum;
        self.score_sq_sum += other.score_sq_sum;
        self.score_min = self.score_min.min(other.score_min);
        self.score_max = self.score_max.max(other.score_max);
    }

    /// Whether these are the counts of `want` boards, in the shape a run counts.
    pub fn fits(&self, want: u64) -> bool {
        self.boards == want
            && self.counts.len() == MEASURES.len()
            && self.counts.iter().enumerate().all(|(k, h)| {
                let cap = if k == SCORE { SCORE_BINS } else { MAX_VALUE };
                h.len() <= cap + 1
                    && h.iter().try_fold(0u64, |a, &c| a.checked_add(c)) == Some(want)
            })
            && (want == 0 || self.score_min <= self.score_max)
    }
}

/// The boards one exact sampler draws from the streams of a seed, measured: board i
/// is drawn from item i's stream (`seed::Streams`, game `catan`).
pub struct BalanceStudy<'a> {
    ctx: &'a Ctx,
    sampler: Sampler,
    streams: ground::seed::Streams,
}

impl<'a> BalanceStudy<'a> {
    /// The boards `sampler` draws in `ctx` from the streams of `seed`.
    pub fn new(ctx: &'a Ctx, sampler: Sampler, seed: u64) -> Self {
        BalanceStudy {
            ctx,
            sampler,
            streams: ground::seed::Streams::new(seed, "catan"),
        }
    }

    /// Board `i` and its measures.
    pub fn measure(&self, i: u64) -> Result<Balance> {
        let mut rng = self.streams.item(i);
        let d = match self.ctx.sample(self.sampler, &mut rng) {
            Ok(d) => d,
            // A sampler cut short by a stop request proves nothing about the rules.
            Err(e) => {
                ground::interrupt::check()?;
                return Err(e);
            }
        };
        Ok(balance::measure(self.ctx.shape, &d.layout))
    }
}

impl ground::stats::Study for BalanceStudy<'_> {
    type Counts = Hists;

    /// Direct boards are drawn and measured in about a microsecond: a chunk is a
    /// few milliseconds.
    fn chunk(&self) -> u64 {
        1 << 13
    }

    fn empty(&self) -> Hists {
        Hists::default()
    }

    fn merge(&self, into: &mut Hists, other: Hists) {
        into.merge(&other);
    }

    fn count(&self, i: u64, counts: &mut Hists) -> Result<()> {
        counts.add(&self.measure(i)?);
        Ok(())
    }

    fn count_chunk(&self, indices: ShardIndices, counts: &mut Hists) -> Result<()> {
        for i in indices {
            ground::interrupt::check()?;
            self.count(i, counts)?;
        }
        Ok(())
    }
}

/// One measure's summary: boards, mean, standard deviation (population), extremes and
/// quantiles (5, 25, 50, 75, 95 %). The score's quantiles are the lower edges of their
/// 0.05 bins; its mean, sd and extremes come from the exact sums (to 10^-9).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The measure's CSV name.
    pub measure: &'static str,
    /// Boards.
    pub boards: u64,
    /// Mean.
    pub mean: f64,
    /// Standard deviation (population).
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The 5, 25, 50, 75 and 95 % quantiles: the smallest value with at least that
    /// share of boards at or below it.
    pub quantiles: [f64; 5],
}

/// The quantiles [`Summary`] gives, in percent.
pub(crate) const QUANTILES: [u64; 5] = [5, 25, 50, 75, 95];

/// A histogram's summary (values are indices; `scale` turns an index into a value).
fn summarise(measure: &'static str, h: &[u64], n: u64, scale: f64) -> Summary {
    let (mut s1, mut s2) = (0u128, 0u128);
    for (v, &c) in h.iter().enumerate() {
        let (v, c) = (v as u128, u128::from(c));
        s1 += v * c;
        s2 += v * v * c;
    }
    let nn = u128::from(n.max(1));
    let mean = s1 as f64 / nn as f64;
    // n * sum v^2 - (sum v)^2 >= 0, exactly.
    let var = (nn * s2 - s1 * s1) as f64 / (nn as f64 * nn as f64);
    let min = h.iter().position(|&c| c > 0).unwrap_or(0);
    let max = h.iter().rposition(|&c| c > 0).unwrap_or(0);
    let quantile = |pct: u64| {
        let mut cum = 0u128;
        for (v, &c) in h.iter().enumerate() {
            cum += u128::from(c);
            if cum * 100 >= u128::from(pct) * u128::from(n) && c > 0 {
                return v;
            }
        }
        max
    };
    Summary {
        measure,
        boards: n,
        mean: mean * scale,
        sd: var.sqrt() * scale,
        min: min as f64 * scale,
        max: max as f64 * scale,
        quantiles: QUANTILES.map(|p| quantile(p) as f64 * scale),
    }
}

/// Every measure's summary.
pub fn summaries(h: &Hists) -> Vec<Summary> {
    let n = h.boards;
    MEASURES
        .iter()
        .zip(&h.counts)
        .enumerate()
        .map(|(k, (&(name, _, _), counts))| {
            if k != SCORE {
                return summarise(name, counts, n, 1.0);
            }
            let mut s = summarise(name, counts, n, 1.0 / SCORE_BINS_PER_UNIT);
            let nf = n.max(1) as f64;
            let mean = h.score_sum as f64 / nf;
            let var = (h.score_sq_sum as f64 / nf - mean * mean).max(0.0);
            s.mean = mean / SCORE_UNIT;
            s.sd = var.sqrt() / SCORE_UNIT;
            if n > 0 {
                s.min = h.score_min as f64 / SCORE_UNIT;
                s.max = h.score_max as f64 / SCORE_UNIT;
            }
            s
        })
        .collect()
}

/// One row of the CSV: a measure's value (the score: its bin's lower edge), the
/// boards with it, their share and the share at or below it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The measure's name ([`MEASURES`]).
    pub measure: &'static str,
    /// The value (the score: the lower edge of its 0.05 bin).
    pub value: String,
    /// Boards with this value.
    pub count: u64,
    /// count / boards, 8 decimals.
    pub fraction: String,
    /// Share of boards at or below this value, 8 decimals.
    pub cumulative: String,
}

/// The CSV's rows: per measure, every value from its smallest to its largest seen.
pub fn rows(h: &Hists) -> Vec<Row> {
    let n = h.boards.max(1) as f64;
    let mut out = Vec::new();
    for (k, (&(name, _, _), counts)) in MEASURES.iter().zip(&h.counts).enumerate() {
        let (Some(lo), Some(hi)) = (
            counts.iter().position(|&c| c > 0),
            counts.iter().rposition(|&c| c > 0),
        ) else {
            continue;
        };
        let mut cum = counts[..lo].iter().sum::<u64>();
        for (v, &c) in counts.iter().enumerate().take(hi + 1).skip(lo) {
            cum += c;
            out.push(Row {
                measure: name,
                value: if k == SCORE {
                    score_bin_label(v)
                } else {
                    v.to_string()
                },
                count: c,
                fraction: format!("{:.8}", c as f64 / n),
                cumulative: format!("{:.8}", cum as f64 / n),
            });
        }
    }
    out
}

/// The summary as a table for the terminal.
pub fn table(head: &str, sums: &[Summary]) -> String {
    let mut t = format!("{head}\n");
    t += "measure                  mean       sd      min     p5    p25    p50    p75    p95      max\n";
    for s in sums {
        let score = s.measure == MEASURES[SCORE].0;
        let q = |v: f64| {
            if score {
                format!("{v:.2}")
            } else {
                format!("{v:.0}")
            }
        };
        let (min, max) = if score {
            (format!("{:.3}", s.min), format!("{:.3}", s.max))
        } else {
            (q(s.min), q(s.max))
        };
        t += &format!(
            "{:<20} {:>8.3} {:>8.3} {:>8} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8}\n",
            s.measure,
            s.mean,
            s.sd,
            min,
            q(s.quantiles[0]),
            q(s.quantiles[1]),
            q(s.quantiles[2]),
            q(s.quantiles[3]),
            q(s.quantiles[4]),
            max
        );
    }
    t += "(score quantiles: the lower edge of their 0.05 bin; its mean, sd, min and max are exact)\n";
    t
}

/// The context and the exact sampler a spec asks for: `direct` or `full-rejection`
/// when named (any other sampler is refused: its boards are not uniform), else
/// `direct` where the rules allow it and `full-rejection` where they do not.
pub fn setup(spec: &CatanStatsSpec) -> Result<(Ctx, Sampler)> {
    ground::limits::check_samples("samples", spec.samples, "boards")?;
    let kind = spec.board;
    let rules: Rules = spec.rules.parse()?;
    match spec.sampler.as_deref() {
        Some(name) => {
            let s: Sampler = name.parse()?;
            if !matches!(s, Sampler::Direct | Sampler::FullRejection) {
                return Err(Error::param(
                    "sampler",
                    format!(
                        "{} does not draw valid boards uniformly: the distributions need direct or full-rejection",
                        s.name()
                    ),
                ));
            }
            Ok((context(kind, &rules, s)?, s))
        }
        None => {
            // Rules no board meets are refused whatever the sampler.
            crate::sampling::feasibility::decide_rules(kind, &rules)?;
            match context(kind, &rules, Sampler::Direct) {
                Ok(ctx) => Ok((ctx, Sampler::Direct)),
                Err(Error::Interrupted) => Err(Error::Interrupted),
                Err(_) => Ok((
                    context(kind, &rules, Sampler::FullRejection)?,
                    Sampler::FullRejection,
                )),
            }
        }
    }
}

/// `catan-stats`: histograms of the balance measures of uniformly drawn boards.
pub struct CatanStats {
    spec: CatanStatsSpec,
    seed: u64,
    ctx: Ctx,
    sampler: Sampler,
}

/// What a whole run's counts become: the counts and each measure's summary.
pub struct Totals {
    /// The counts.
    pub hists: Hists,
    /// Per measure, in [`MEASURES`] order.
    pub summaries: Vec<Summary>,
}

/// What a part of `catan-stats` records: the seed, the options and the sampler.
#[derive(Serialize, Deserialize)]
pub struct Header {
    seed: u64,
    samples: u64,
    board: BoardKind,
    rules: String,
    sampler: String,
}

impl CatanStats {
    /// The sampler that draws the boards.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// What was counted, in one line: boards, board, rules, sampler, seed.
    pub(crate) fn describe(&self, boards: u64) -> String {
        format!(
            "{} boards, {} board, rules {}, sampler {}, seed {}",
            ground::chart::thousands(boards),
            self.ctx.shape.kind.name(),
            self.ctx.rules,
            self.sampler.name(),
            self.seed
        )
    }
}

impl Statistic for CatanStats {
    const KIND: &'static str = "catan-stats";
    type Spec = CatanStatsSpec;
    type Header = Header;
    type Counts = Hists;
    type Totals = Totals;

    fn new(spec: &CatanStatsSpec, seed: u64) -> Result<Self> {
        let (ctx, sampler) = setup(spec)?;
        Ok(CatanStats {
            spec: spec.clone(),
            seed,
            ctx,
            sampler,
        })
    }

    fn header(&self) -> Header {
        let spec = &self.spec;
        Header {
            seed: self.seed,
            samples: spec.samples,
            board: spec.board,
            rules: spec.rules.clone(),
            sampler: self.sampler.name().to_string(),
        }
    }

    fn from_header(h: Header) -> Result<Self> {
        let spec = CatanStatsSpec {
            samples: h.samples,
            board: h.board,
            rules: h.rules,
            sampler: Some(h.sampler),
            report: None,
        };
        CatanStats::new(&spec, h.seed)
    }

    fn total(spec: &CatanStatsSpec, shard: Shard) -> u64 {
        shard.len(0, spec.samples)
    }

    /// A job file names the report.
    fn job_files(spec: &CatanStatsSpec, out: PathBuf, dir: &Path) -> StatsFiles {
        StatsFiles {
            report: spec.report.as_ref().map(|s| dir.join(s)),
            ..StatsFiles::single(out)
        }
    }

    fn samples(&self) -> u64 {
        self.spec.samples
    }

    /// The boards of `shard`, with a line naming the sampler first and one of the
    /// speed at the end.
    fn count<R: Runner>(
        &self,
        run: &R,
        shard: Shard,
        progress: bool,
        note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Hists> {
        let how = match (self.sampler, self.spec.sampler.is_some()) {
            (Sampler::Direct, _) => "direct (exact: every valid board equally likely)",
            (_, true) => "full-rejection (exact: every valid board equally likely)",
            (_, false) => "full-rejection (exact; direct does not apply to these rules)",
        };
        note(&format!("sampler: {how}"));
        let started = std::time::Instant::now();
        let study = BalanceStudy::new(&self.ctx, self.sampler, self.seed);
        let h = run.study(&study, self.spec.samples, shard, progress, "boards")?;
        let secs = started.elapsed().as_secs_f64();
        note(&format!(
            "{} boards measured in {secs:.2} s ({})",
            h.boards,
            ground::progress::rate(h.boards, secs)
        ));
        Ok(h)
    }

    /// No summary CSV: the summary is the table (a `--summary` given to `merge` is
    /// left out, with a note).
    fn files(&self, files: &StatsFiles) -> StatsFiles {
        StatsFiles {
            summary: None,
            ..files.clone()
        }
    }

    fn fits(&self, counts: &Hists, want: u64) -> bool {
        counts.fits(want)
    }

    fn merge(&self, into: &mut Hists, other: Hists) {
        into.merge(&other);
    }

    fn finish<R: Runner>(&self, _run: &R, hists: Hists) -> Result<Totals> {
        let summaries = summaries(&hists);
        Ok(Totals { hists, summaries })
    }

    /// The CSV and the report (written both or neither).
    fn outputs(&self, t: &Totals, files: &StatsFiles) -> Result<Vec<StatFile>> {
        let mut v = vec![StatFile::csv(&files.out, &rows(&t.hists))?];
        if let Some(path) = &files.report {
            let info = report::Info {
                title: self.describe(t.hists.boards),
                shape: self.ctx.shape,
            };
            v.push(StatFile::Pages {
                path: path.clone(),
                title: "Catan balance distributions",
                size: report::PAGE,
                pages: report::pages(&info, &t.hists, &t.summaries),
            });
        }
        Ok(v)
    }

    fn table(&self, t: &Totals) -> String {
        table(&self.describe(t.hists.boards), &t.summaries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_agree_with_a_sort() {
        use rand::Rng;
        let mut rng = ground::seed::item_rng(8, "catan-summary-test", 0);
        for n in [1usize, 3, 20, 21, 399, 4000] {
            let values: Vec<usize> = (0..n).map(|_| rng.random_range(0..40)).collect();
            let mut h = vec![0u64; 40];
            for &v in &values {
                h[v] += 1;
            }
            let mut sorted = values.clone();
            sorted.sort_unstable();
            let by_sort = |pct: u64| {
                let k = ((n as f64 * pct as f64 / 100.0).ceil() as usize).clamp(1, n);
                sorted[k - 1] as f64
            };
            let s = summarise("test", &h, n as u64, 1.0);
            assert_eq!(s.quantiles, QUANTILES.map(by_sort), "n = {n}");
            assert_eq!((s.min, s.max), (sorted[0] as f64, sorted[n - 1] as f64));
        }
    }

    #[test]
    fn score_bins_and_labels() {
        assert_eq!(score_bin(0.0), 0);
        assert_eq!(score_bin(0.049), 0);
        assert_eq!(score_bin(0.051), 1);
        assert_eq!(score_bin(2.49), 49);
        assert_eq!(score_bin(7.0), SCORE_BINS);
        assert_eq!(score_bin_label(0), "0.00");
        assert_eq!(score_bin_label(7), "0.35");
        assert_eq!(score_bin_label(21), "1.05");
        assert_eq!(score_bin_label(SCORE_BINS), ">=2.50");
    }

    /// A histogram of 1, 2, 2, 3 (by hand: mean 2, population sd sqrt(1/2), median 2,
    /// p95 3).
    #[test]
    fn summary_by_hand() {
        let s = summarise("x", &[0, 1, 2, 1], 4, 1.0);
        assert_eq!(s.mean, 2.0);
        assert!((s.sd - 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!((s.min, s.max), (1.0, 3.0));
        // p75: 3 of the 4 boards (75 %) are at or below 2.
        assert_eq!(s.quantiles, [1.0, 1.0, 2.0, 2.0, 3.0]);
    }

    #[test]
    fn counts_survive_json_and_merge_in_any_order() {
        let mut a = Hists::default();
        let mut b = Hists::default();
        let shape = BoardKind::Base.shape();
        let rules: Rules = "red-apart".parse().unwrap();
        let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
        let study = BalanceStudy::new(&ctx, Sampler::Direct, 3);
        for i in 0..200 {
            let m = study.measure(i).unwrap();
            assert_eq!(m.resource_pips.as_array().iter().sum::<u32>(), 58);
            if i % 3 == 0 { &mut a } else { &mut b }.add(&m);
        }
        let _ = shape;
        let back: Hists = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!(back, a);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(rows(&ab), rows(&ba));
        assert!(ab.fits(200) && !ab.fits(199));
    }
}
