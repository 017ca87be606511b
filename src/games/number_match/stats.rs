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
use crate::seed::item_rng;
use crate::shard::{Shard, ShardIndices};
use crate::stats::Study;
use crate::Result;
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
    /// Search nodes to decide a board (quarter-octave buckets) and the most seen.
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
                    node_buckets: vec![0; BUCKETS],
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
    pub fn add_board(
        &mut self,
        board: &[u8],
        cfg: &Config,
        solver: &mut Solver,
        rng: &mut crate::seed::Rng,
    ) {
        self.boards += 1;
        // min_adds is known when every lower limit was proved unsolvable.
        let mut lower_all_unsolvable = true;
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
            lim.node_buckets[bucket(nodes)] += 1;
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
                    None if matches!(v, Verdict::Solvable(_)) => lim.mc_missed += 1,
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
                }
                Verdict::Unsolvable => lim.unsolvable += 1,
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
    let mut rng = item_rng(seed, <super::NumberMatch as crate::games::Game>::NAME, i);
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
            crate::interrupt::check()?;
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

/// A time quantile in microseconds (the bucket's upper bound).
fn percentile(buckets: &[u64], q: f64) -> Option<f64> {
    quantile_bucket(buckets, q).map(bucket_upper_us)
}

/// A node-count quantile (the bucket's upper bound, rounded up).
fn node_percentile(buckets: &[u64], q: f64) -> u64 {
    quantile_bucket(buckets, q).map_or(0, |b| 2f64.powf((b + 1) as f64 / 4.0).ceil() as u64)
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
            nodes_p50: node_percentile(&l.node_buckets, 0.5),
            nodes_p90: node_percentile(&l.node_buckets, 0.9),
            nodes_p99: node_percentile(&l.node_buckets, 0.99),
            nodes_max: l.max_nodes,
            time_p50_us: percentile(&l.time_buckets, 0.5),
            time_p90_us: percentile(&l.time_buckets, 0.9),
            time_p99_us: percentile(&l.time_buckets, 0.99),
            time_max_us: cfg.timings.then(|| (l.max_ns as f64).round() / 1000.0),
            mc_trials: cfg.mc_trials,
            mc_cleared: l.mc_cleared,
            mc_missed: l.mc_missed,
            mc_mean_trials: if l.mc_cleared == 0 {
                0.0
            } else {
                (l.mc_trials_used as f64 / l.mc_cleared as f64 * 100.0).round() / 100.0
            },
            mc_time_p50_us: percentile(&l.mc_buckets, 0.5),
            mc_time_p99_us: percentile(&l.mc_buckets, 0.99),
        })
        .collect()
}
