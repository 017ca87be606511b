//! `number-match stats`: for each add limit 0..=K, how many random boards can be
//! cleared (decided exactly; budget-outs counted as unknown), the distribution of
//! `min_adds`, and how much search deciding took. Counts are sums, so they merge across
//! threads and shards; search nodes (and, with `timings`, wall-clock times) go into
//! quarter-octave buckets (percentiles to within about 9%). Node counts are the same
//! on every run, so the CSV is reproducible byte for byte; times are not, which is why
//! they are opt-in (empty columns otherwise). With
//! `mc_trials` > 0, the source article's Monte Carlo runs on the same boards: how many
//! it clears, how many clearable boards it misses, how many trials it needed.

use super::rules::Rules;
use super::solve::{Solver, Verdict};
use super::{Append, NumberMatch};
use clap::builder::TypedValueParser as _;
use ground::seed::item_rng;
use ground::shard::{Shard, ShardIndices};
use ground::statistic::{Runner, StatFile, Statistic, StatsFiles};
use ground::stats::Study;
use ground::{Error, Result};
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// One statistics run: which boards, which limits, and how hard to search.
pub struct Config {
    /// Master seed; board i is drawn from item i's stream (see [`board`]).
    pub seed: u64,
    /// Digits per board.
    pub length: usize,
    /// The highest add limit studied; limits 0..=max_adds are each decided.
    pub max_adds: u8,
    /// Search-node budget per board and limit; past it the board counts as unknown.
    pub max_nodes: u64,
    /// The rule set the boards are played under.
    pub rules: Rules,
    /// Boards in the whole run (before sharding).
    pub samples: u64,
    /// Which part of the boards this run counts.
    pub shard: Shard,
    /// Monte Carlo trials per board and limit (0: do not run it).
    pub mc_trials: u64,
    /// Also measure wall-clock times (they differ from run to run).
    pub timings: bool,
}

const BUCKETS: usize = 200;
/// Node counts below this are counted exactly, one bucket each (most boards are
/// decided in fewer nodes, so their quantiles are exact).
const EXACT_NODES: usize = 1024;
/// Node buckets: the exact ones, then quarter-octave buckets above them.
const NODE_BUCKETS: usize = EXACT_NODES + BUCKETS;

/// The counts of one add limit over all boards seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Limit {
    /// Boards proved clearable within the limit.
    pub clearable: u64,
    /// Boards proved not clearable within the limit.
    pub unsolvable: u64,
    /// Boards whose search ran out of its node budget.
    pub unknown: u64,
    /// Boards whose fewest adds is exactly this limit.
    pub min_adds: u64,
    /// Search nodes to decide a board: one bucket per count below `EXACT_NODES`,
    /// then quarter-octave buckets (`node_bucket`).
    pub node_buckets: Vec<u64>,
    /// The most search nodes any board took at this limit.
    pub max_nodes: u64,
    /// Wall-clock nanoseconds to decide a board, in quarter-octave buckets (all zero
    /// unless the run measures timings).
    pub time_buckets: Vec<u64>,
    /// The longest time to decide a board, in nanoseconds (0 without timings).
    pub max_ns: u64,
    /// Monte Carlo: boards it cleared, clearable boards it missed, trials used on
    /// the boards it cleared, and its time per board.
    pub mc_cleared: u64,
    /// Monte Carlo: clearable boards it did not clear within its trials.
    pub mc_missed: u64,
    /// Monte Carlo: trials summed over the boards it cleared.
    pub mc_trials_used: u64,
    /// Monte Carlo: nanoseconds per board, in quarter-octave buckets (all zero
    /// unless the run measures timings).
    pub mc_buckets: Vec<u64>,
}

/// The mergeable state of a run: totals per add limit over the boards seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// Boards counted.
    pub boards: u64,
    /// One entry per add limit, index k for limit k.
    pub limits: Vec<Limit>,
}

fn bucket(ns: u64) -> usize {
    (((ns.max(1) as f64).log2() * 4.0) as usize).min(BUCKETS - 1)
}

/// The node bucket of `nodes`: the count itself below [`EXACT_NODES`], else a
/// quarter-octave bucket after those.
fn node_bucket(nodes: u64) -> usize {
    match usize::try_from(nodes) {
        Ok(n) if n < EXACT_NODES => n,
        _ => (EXACT_NODES + bucket(nodes)).min(NODE_BUCKETS - 1),
    }
}

fn bucket_upper_us(b: usize) -> f64 {
    let us = 2f64.powf((b + 1) as f64 / 4.0) / 1000.0;
    (us * 1000.0).round() / 1000.0
}

impl Counts {
    /// No boards yet, with limits 0..=max_adds and empty buckets.
    pub fn new(max_adds: u8) -> Self {
        Counts {
            boards: 0,
            limits: (0..=max_adds)
                .map(|_| Limit {
                    node_buckets: vec![0; NODE_BUCKETS],
                    time_buckets: vec![0; BUCKETS],
                    mc_buckets: vec![0; BUCKETS],
                    ..Limit::default()
                })
                .collect(),
        }
    }

    /// Whether these counts can be `boards` boards counted like `empty` (the same
    /// limits and buckets; every board decided or unknown once per limit).
    pub fn fits(&self, empty: &Counts, boards: u64) -> bool {
        self.boards == boards
            && self.limits.len() == empty.limits.len()
            && self.limits.iter().zip(&empty.limits).all(|(l, e)| {
                l.node_buckets.len() == e.node_buckets.len()
                    && l.time_buckets.len() == e.time_buckets.len()
                    && l.mc_buckets.len() == e.mc_buckets.len()
                    && l.clearable + l.unsolvable + l.unknown == boards
                    && l.node_buckets.iter().sum::<u64>() == boards
            })
    }

    /// Add every count of `o` (counts of the same limits and buckets).
    pub fn add_all(&mut self, o: Counts) {
        self.boards += o.boards;
        for (a, b) in self.limits.iter_mut().zip(o.limits) {
            a.clearable += b.clearable;
            a.unsolvable += b.unsolvable;
            a.unknown += b.unknown;
            a.min_adds += b.min_adds;
            a.max_ns = a.max_ns.max(b.max_ns);
            a.max_nodes = a.max_nodes.max(b.max_nodes);
            for (x, y) in a.node_buckets.iter_mut().zip(b.node_buckets) {
                *x += y;
            }
            for (x, y) in a.time_buckets.iter_mut().zip(b.time_buckets) {
                *x += y;
            }
            a.mc_cleared += b.mc_cleared;
            a.mc_missed += b.mc_missed;
            a.mc_trials_used += b.mc_trials_used;
            for (x, y) in a.mc_buckets.iter_mut().zip(b.mc_buckets) {
                *x += y;
            }
        }
    }

    /// Decide one board at every limit, each with a fresh solver (so each time is
    /// the time to decide that limit alone).
    pub(crate) fn add_board(
        &mut self,
        board: &[u8],
        cfg: &Config,
        solver: &mut Solver,
        rng: &mut ground::seed::Rng,
    ) {
        self.boards += 1;
        // min_adds is known when every lower limit was proved unsolvable.
        let mut lower_all_unsolvable = true;
        // A board cleared within a lower limit is clearable within every higher one,
        // even where that limit's own search runs out of nodes.
        let mut cleared_below = false;
        for (k, lim) in self.limits.iter_mut().enumerate() {
            solver.reset();
            let t = cfg.timings.then(std::time::Instant::now);
            let v = solver.solve(board, k as u8, cfg.max_nodes);
            if let Some(t) = t {
                let ns = t.elapsed().as_nanos() as u64;
                lim.time_buckets[bucket(ns)] += 1;
                lim.max_ns = lim.max_ns.max(ns);
            }
            let nodes = solver.nodes();
            lim.node_buckets[node_bucket(nodes)] += 1;
            lim.max_nodes = lim.max_nodes.max(nodes);
            if cfg.mc_trials > 0 {
                let t = cfg.timings.then(std::time::Instant::now);
                let mc = super::montecarlo::solve(&cfg.rules, board, k as u8, cfg.mc_trials, rng);
                if let Some(t) = t {
                    lim.mc_buckets[bucket(t.elapsed().as_nanos() as u64)] += 1;
                }
                match mc {
                    Some((trials, _)) => {
                        lim.mc_cleared += 1;
                        lim.mc_trials_used += trials;
                    }
                    None if cleared_below || matches!(v, Verdict::Solvable(_)) => {
                        lim.mc_missed += 1
                    }
                    None => {}
                }
            }
            match v {
                Verdict::Solvable(_) => {
                    lim.clearable += 1;
                    if lower_all_unsolvable {
                        lim.min_adds += 1;
                    }
                    lower_all_unsolvable = false;
                    cleared_below = true;
                }
                Verdict::Unsolvable => lim.unsolvable += 1,
                Verdict::Unknown if cleared_below => lim.clearable += 1,
                Verdict::Unknown => {
                    lim.unknown += 1;
                    lower_all_unsolvable = false;
                }
            }
        }
    }
}

/// The boards of a run: board i is the first `length` digits of item i's stream, the
/// same boards `number-match generate` draws.
pub fn board(seed: u64, length: usize, i: u64) -> Vec<u8> {
    let mut rng = item_rng(seed, <super::NumberMatch as ground::game::Game>::NAME, i);
    (0..length).map(|_| rng.random_range(1..=9)).collect()
}

/// Counted by `batch::study` over `cfg.samples` boards of `cfg.shard`: board i as
/// [`board`] draws it, its Monte Carlo trials from a stream of their own.
impl Study for Config {
    type Counts = Counts;

    fn chunk(&self) -> u64 {
        // Each board can take a while (up to max_nodes per limit).
        1024
    }

    fn empty(&self) -> Counts {
        Counts::new(self.max_adds)
    }

    fn merge(&self, into: &mut Counts, other: Counts) {
        into.add_all(other);
    }

    fn count(&self, i: u64, counts: &mut Counts) -> Result<()> {
        self.count_chunk(Shard::default().indices(i, 1), counts)
    }

    /// One solver for the whole chunk (its tables are reused from board to board).
    fn count_chunk(&self, indices: ShardIndices, counts: &mut Counts) -> Result<()> {
        let mut solver = Solver::new(self.rules);
        for i in indices {
            // Look for a stop request before each board (the solvers also see it
            // within a node, and a board they gave up on is never counted).
            ground::interrupt::check()?;
            let mut rng = item_rng(self.seed, "number_match-stats-monte-carlo", i);
            counts.add_board(
                &board(self.seed, self.length, i),
                self,
                &mut solver,
                &mut rng,
            );
        }
        Ok(())
    }
}

/// One CSV row: the results at one add limit over all the boards counted.
#[derive(Serialize)]
pub(crate) struct Row {
    pub seed: u64,
    pub length: usize,
    pub columns: usize,
    pub append: &'static str,
    pub diagonals: bool,
    pub adds: usize,
    pub boards: u64,
    pub clearable: u64,
    pub unsolvable: u64,
    pub unknown: u64,
    pub clearable_share: f64,
    pub min_adds_exactly: u64,
    pub nodes_p50: u64,
    pub nodes_p90: u64,
    pub nodes_p99: u64,
    pub nodes_max: u64,
    pub time_p50_us: Option<f64>,
    pub time_p90_us: Option<f64>,
    pub time_p99_us: Option<f64>,
    pub time_max_us: Option<f64>,
    pub mc_trials: u64,
    pub mc_cleared: u64,
    pub mc_missed: u64,
    pub mc_mean_trials: f64,
    pub mc_time_p50_us: Option<f64>,
    pub mc_time_p99_us: Option<f64>,
}

/// The bucket holding quantile `q` (None when the buckets are empty).
fn quantile_bucket(buckets: &[u64], q: f64) -> Option<usize> {
    let total: u64 = buckets.iter().sum();
    let want = (total as f64 * q).ceil().max(1.0) as u64;
    let mut seen = 0;
    for (b, &n) in buckets.iter().enumerate() {
        seen += n;
        if seen >= want {
            return Some(b);
        }
    }
    None
}

/// A time quantile in microseconds: the upper bound of its quarter-octave bucket, but
/// never above the largest time seen (`max_us`).
fn percentile(buckets: &[u64], q: f64, max_us: f64) -> Option<f64> {
    quantile_bucket(buckets, q).map(|b| bucket_upper_us(b).min(max_us))
}

/// A node-count quantile: exact below [`EXACT_NODES`]; above, the upper bound of its
/// quarter-octave bucket (less than 19% above the true quantile), but never above
/// the most nodes seen (`max`).
fn node_percentile(buckets: &[u64], q: f64, max: u64) -> u64 {
    match quantile_bucket(buckets, q) {
        None => 0,
        Some(b) if b < EXACT_NODES => b as u64,
        Some(b) => {
            let upper = 2f64.powf((b - EXACT_NODES + 1) as f64 / 4.0).ceil() as u64;
            upper.min(max)
        }
    }
}

/// Nanoseconds as microseconds to the nanosecond, as the CSV writes them.
fn max_us(ns: u64) -> f64 {
    (ns as f64).round() / 1000.0
}

/// The CSV rows of a run, one per add limit in increasing order.
pub(crate) fn rows(cfg: &Config, c: &Counts) -> Vec<Row> {
    c.limits
        .iter()
        .enumerate()
        .map(|(k, l)| Row {
            seed: cfg.seed,
            length: cfg.length,
            columns: cfg.rules.cols,
            append: cfg.rules.append.name(),
            diagonals: cfg.rules.diagonals,
            adds: k,
            boards: c.boards,
            clearable: l.clearable,
            unsolvable: l.unsolvable,
            unknown: l.unknown,
            clearable_share: l.clearable as f64 / c.boards.max(1) as f64,
            min_adds_exactly: l.min_adds,
            nodes_p50: node_percentile(&l.node_buckets, 0.5, l.max_nodes),
            nodes_p90: node_percentile(&l.node_buckets, 0.9, l.max_nodes),
            nodes_p99: node_percentile(&l.node_buckets, 0.99, l.max_nodes),
            nodes_max: l.max_nodes,
            time_p50_us: percentile(&l.time_buckets, 0.5, max_us(l.max_ns)),
            time_p90_us: percentile(&l.time_buckets, 0.9, max_us(l.max_ns)),
            time_p99_us: percentile(&l.time_buckets, 0.99, max_us(l.max_ns)),
            time_max_us: cfg.timings.then(|| max_us(l.max_ns)),
            mc_trials: cfg.mc_trials,
            mc_cleared: l.mc_cleared,
            mc_missed: l.mc_missed,
            mc_mean_trials: if l.mc_cleared == 0 {
                0.0
            } else {
                (l.mc_trials_used as f64 / l.mc_cleared as f64 * 100.0).round() / 100.0
            },
            mc_time_p50_us: percentile(&l.mc_buckets, 0.5, f64::INFINITY),
            mc_time_p99_us: percentile(&l.mc_buckets, 0.99, f64::INFINITY),
        })
        .collect()
}

#[cfg(test)]
mod quantile_tests {
    use super::*;
    use rand::Rng;

    /// The q quantile of `values` by a sort: the smallest value with at least a
    /// share q of the values at or below it.
    fn by_sort(values: &[u64], q: f64) -> u64 {
        let mut v = values.to_vec();
        v.sort_unstable();
        let k = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len());
        v[k - 1]
    }

    #[test]
    fn node_quantiles_agree_with_a_sort() {
        let mut rng = ground::seed::item_rng(11, "quantile-test", 0);
        // Node counts spread over six decades, many of them 0 or tiny, as searches give.
        for (trial, n) in [1usize, 2, 3, 10, 97, 1000, 20_000].into_iter().enumerate() {
            let values: Vec<u64> = (0..n)
                .map(|_| match rng.random_range(0..4) {
                    0 => 0,
                    1 => rng.random_range(0..50),
                    2 => rng.random_range(0..2000),
                    _ => 10f64.powf(rng.random_range(0.0..6.0)) as u64,
                })
                .collect();
            let mut buckets = vec![0u64; NODE_BUCKETS];
            for &v in &values {
                buckets[node_bucket(v)] += 1;
            }
            let max = *values.iter().max().unwrap();
            for q in [0.01, 0.5, 0.9, 0.99, 1.0] {
                let exact = by_sort(&values, q);
                let got = node_percentile(&buckets, q, max);
                assert!(got <= max, "trial {trial} q {q}: {got} above the max {max}");
                if exact < EXACT_NODES as u64 {
                    assert_eq!(got, exact, "trial {trial} q {q}");
                } else {
                    // Within its quarter-octave bucket: under 19% (2^0.25) above.
                    assert!(got >= exact, "trial {trial} q {q}: {got} < {exact}");
                    assert!(
                        (got as f64) < exact as f64 * 1.19 + 1.0,
                        "trial {trial} q {q}: {got} vs {exact}"
                    );
                }
            }
        }
        // Every board decided without a node: every quantile is 0, as is the max.
        let mut buckets = vec![0u64; NODE_BUCKETS];
        buckets[node_bucket(0)] = 5;
        assert_eq!(node_percentile(&buckets, 0.5, 0), 0);
    }
}

fn length() -> usize {
    27
}
fn four() -> u8 {
    4
}
fn nine() -> usize {
    9
}
fn max_nodes() -> u64 {
    super::DEFAULT_MAX_NODES
}
fn yes() -> bool {
    true
}

/// `kind = "number-match-stats"`: the options of `number-match stats`.
/// The command line's flags are these fields (declared once, here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct MatchStatsSpec {
    /// Random boards
    #[arg(long)]
    pub samples: u64,
    /// Digits on each board (1 to 256)
    #[serde(default = "length")]
    #[arg(long, default_value_t = length())]
    pub length: usize,
    /// The highest add limit to examine (limits 0 to it are each decided)
    #[serde(default = "four")]
    #[arg(long, default_value_t = four())]
    pub max_adds: u8,
    /// Search nodes per board and limit (running out counts as unknown)
    #[serde(default = "max_nodes")]
    #[arg(long, default_value_t = max_nodes())]
    pub max_nodes: u64,
    /// Columns of the board
    #[serde(default = "nine")]
    #[arg(long, default_value_t = nine())]
    pub columns: usize,
    /// Where adds go: after-last-digit, after-last-cell or new-row
    #[serde(default)]
    #[arg(
        long,
        default_value = "after-last-digit",
        value_parser = clap::builder::PossibleValuesParser::new(["after-last-digit", "after-last-cell", "new-row"])
            .map(|s| s.parse::<Append>().expect("a listed value"))
    )]
    pub append: Append,
    /// Whether pairs may see each other along diagonals (on the command line,
    /// `--no-diagonals` turns it off)
    #[serde(default = "yes")]
    #[arg(
        long = "no-diagonals",
        action = clap::ArgAction::SetFalse,
        help = "Pairs may not see each other along diagonals (a variant)"
    )]
    pub diagonals: bool,
    /// Also run Monte Carlo with this many trials per board and limit, to compare
    #[serde(default)]
    #[arg(long, default_value_t = 0)]
    pub monte_carlo_trials: u64,
    /// Add wall-clock time columns (they differ from run to run; without them the
    /// CSV is the same on every run)
    #[serde(default)]
    #[arg(long)]
    pub timings: bool,
}

/// What a part of `number-match-stats` records: the seed and every option.
#[derive(Serialize, Deserialize)]
pub struct Header {
    seed: u64,
    #[serde(flatten)]
    spec: MatchStatsSpec,
}

/// `number-match-stats`: clearable boards and search effort per add limit.
pub struct MatchStats {
    spec: MatchStatsSpec,
    seed: u64,
}

impl MatchStats {
    /// The study of the boards of `shard`.
    fn config(&self, shard: Shard) -> Result<Config> {
        let spec = &self.spec;
        ground::limits::check_samples("samples", spec.samples, "boards")?;
        NumberMatch::check_length(spec.length)?;
        if spec.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: give the search at least 1 node",
            ));
        }
        NumberMatch::check_named(spec.columns, spec.max_adds, "max_adds")?;
        NumberMatch::check_growth(spec.length, spec.columns, spec.max_adds, spec.append)?;
        Ok(Config {
            seed: self.seed,
            length: spec.length,
            max_adds: spec.max_adds,
            max_nodes: spec.max_nodes,
            rules: Rules {
                cols: spec.columns,
                diagonals: spec.diagonals,
                append: spec.append,
            },
            samples: spec.samples,
            shard,
            mc_trials: spec.monte_carlo_trials,
            timings: spec.timings,
        })
    }
}

impl Statistic for MatchStats {
    const KIND: &'static str = "number-match-stats";
    type Spec = MatchStatsSpec;
    type Header = Header;
    type Counts = Counts;
    type Totals = Counts;

    fn new(spec: &MatchStatsSpec, seed: u64) -> Result<Self> {
        let stat = MatchStats {
            spec: spec.clone(),
            seed,
        };
        stat.config(Shard::default())?;
        Ok(stat)
    }

    fn header(&self) -> Header {
        Header {
            seed: self.seed,
            spec: self.spec.clone(),
        }
    }

    fn from_header(h: Header) -> Result<Self> {
        MatchStats::new(&h.spec, h.seed)
    }

    fn total(spec: &MatchStatsSpec, shard: Shard) -> u64 {
        shard.len(0, spec.samples)
    }

    fn samples(&self) -> u64 {
        self.spec.samples
    }

    fn count<R: Runner>(
        &self,
        run: &R,
        shard: Shard,
        progress: bool,
        _note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Counts> {
        let cfg = self.config(shard)?;
        run.study(&cfg, cfg.samples, shard, progress, "boards")
    }

    fn fits(&self, c: &Counts, want: u64) -> bool {
        c.fits(&Counts::new(self.spec.max_adds), want)
    }

    fn merge(&self, into: &mut Counts, other: Counts) {
        into.add_all(other);
    }

    fn finish<R: Runner>(&self, _run: &R, counts: Counts) -> Result<Counts> {
        Ok(counts)
    }

    fn outputs(&self, counts: &Counts, files: &StatsFiles) -> Result<Vec<StatFile>> {
        let cfg = self.config(Shard::default())?;
        Ok(vec![StatFile::csv(&files.out, &rows(&cfg, counts))?])
    }

    /// Per add limit: how many boards can be cleared, and the search it took.
    fn table(&self, counts: &Counts) -> String {
        let Ok(cfg) = self.config(Shard::default()) else {
            return String::new();
        };
        let mut t = String::from(
            "adds  boards  clearable  share    unsolvable  unknown  fewest adds here   nodes: p50      p90      p99      max\n",
        );
        for r in rows(&cfg, counts) {
            t += &format!(
                "{:>4}  {:>6}  {:>9}  {:>6.2}%  {:>10}  {:>7}  {:>16}   {:>10} {:>8} {:>8} {:>8}\n",
                r.adds,
                r.boards,
                r.clearable,
                100.0 * r.clearable_share,
                r.unsolvable,
                r.unknown,
                r.min_adds_exactly,
                r.nodes_p50,
                r.nodes_p90,
                r.nodes_p99,
                r.nodes_max
            );
        }
        t
    }
}
