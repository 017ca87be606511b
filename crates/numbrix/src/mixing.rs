//! Mixing diagnostics for the backbite chain ([`super::path`]) on grids too large to
//! list every path: path statistics along one long run, their autocorrelation against
//! the lag in moves, the integrated autocorrelation time (Sokal's automatic window, with
//! batch means as a cross-check), the effective sample size, and the burn-in: the means
//! over many independent chains after `t` moves from the serpentine start, the way
//! every puzzle draws its path, against the long-run (stationary) means.
//! `examples/numbrix_mixing.rs` runs it; docs/games/numbrix.md ("Mixing at 9x9") has
//! the figures.

use super::path::PathSampler;
use ground::seed::{item_rng, Rng};
use rand::RngCore;

/// How many statistics [`path_stats`] measures.
pub const STATS: usize = 5;

/// The statistics' names, in [`path_stats`]' order (CSV column stems).
pub const STAT_NAMES: [&str; STATS] = [
    "turns",
    "horizontal",
    "end_distance",
    "ends_on_border",
    "centre_offset",
];

/// The statistics of one path (cells in path order) of a `rows` x `cols` grid:
/// - `turns`: cells where the path bends (the cells before and after it are in
///   neither the same row nor the same column); the cells where it goes straight on
///   are the other `N - 2 - turns`, so they are not a separate statistic;
/// - `horizontal`: path edges joining two cells of one row (the serpentine start has
///   the most possible, `R (C - 1)`);
/// - `end_distance`: the Manhattan distance between the two ends;
/// - `ends_on_border`: how many of the two ends lie on the grid's border (0, 1, 2);
/// - `centre_offset`: how far the centre cell (row `R/2`, column `C/2`) is along the
///   path from its middle, `|position - (N - 1)/2|` (0 on the serpentine of odd grids).
///
/// All five are the same for a path and its reverse.
pub fn path_stats(rows: usize, cols: usize, path: &[u16]) -> [f64; STATS] {
    let n = path.len();
    let rc = |c: u16| ((c as usize / cols) as i64, (c as usize % cols) as i64);
    let mut turns = 0u32;
    let mut horizontal = 0u32;
    for w in path.windows(2) {
        if rc(w[0]).0 == rc(w[1]).0 {
            horizontal += 1;
        }
    }
    for w in path.windows(3) {
        let (a, c) = (rc(w[0]), rc(w[2]));
        if a.0 != c.0 && a.1 != c.1 {
            turns += 1;
        }
    }
    let (a, b) = (rc(path[0]), rc(path[n - 1]));
    let end_distance = (a.0 - b.0).abs() + (a.1 - b.1).abs();
    let border = |(r, c): (i64, i64)| {
        u32::from(r == 0 || c == 0 || r == rows as i64 - 1 || c == cols as i64 - 1)
    };
    let centre = ((rows / 2) * cols + cols / 2) as u16;
    let pos = path.iter().position(|&c| c == centre).unwrap_or(0);
    [
        f64::from(turns),
        f64::from(horizontal),
        end_distance as f64,
        f64::from(border(a) + border(b)),
        (pos as f64 - (n as f64 - 1.0) / 2.0).abs(),
    ]
}

/// One backbite chain from the serpentine, drawing its moves from its own stream the
/// way [`PathSampler::sample`] does (21 moves of 3 bits from each 64-bit word), so that
/// `t` moves here are the first `t` moves of a puzzle's path (before its final coin
/// flip of direction, which no statistic here sees).
pub struct Chain {
    sampler: PathSampler,
    rows: usize,
    cols: usize,
    path: Vec<u16>,
    at: Vec<u16>,
    rng: Rng,
    bits: u64,
    left: u32,
    moves: u64,
}

impl Chain {
    /// A chain on `rows` x `cols` at the serpentine, moving by `rng`.
    pub fn new(rows: usize, cols: usize, rng: Rng) -> Chain {
        let sampler = PathSampler::new(rows, cols);
        let path = sampler.serpentine();
        let mut at = vec![0u16; path.len()];
        for (i, &c) in path.iter().enumerate() {
            at[c as usize] = i as u16;
        }
        Chain {
            sampler,
            rows,
            cols,
            path,
            at,
            rng,
            bits: 0,
            left: 0,
            moves: 0,
        }
    }

    /// Make `moves` more backbite moves.
    pub fn run(&mut self, moves: u64) {
        for _ in 0..moves {
            if self.left == 0 {
                self.bits = self.rng.next_u64();
                self.left = 21;
            }
            let mv = (self.bits & 7) as u8;
            self.bits >>= 3;
            self.left -= 1;
            self.sampler.backbite(&mut self.path, &mut self.at, mv);
        }
        self.moves += moves;
    }

    /// The moves made so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The current path, cells in path order.
    pub fn path(&self) -> &[u16] {
        &self.path
    }

    /// The statistics of the current path ([`path_stats`]).
    pub fn stats(&self) -> [f64; STATS] {
        path_stats(self.rows, self.cols, &self.path)
    }
}

/// One long run: `burn_in` moves from the serpentine, then `samples` records of the
/// statistics, `thin` moves apart. Returns one series per statistic.
pub fn long_run(
    rows: usize,
    cols: usize,
    burn_in: u64,
    samples: usize,
    thin: u64,
    seed: u64,
) -> Vec<Vec<f64>> {
    let mut chain = Chain::new(rows, cols, item_rng(seed, "numbrix-mixing-long", 0));
    chain.run(burn_in);
    let mut series: Vec<Vec<f64>> = (0..STATS)
        .map(|_| Vec::with_capacity(samples.min(1 << 24)))
        .collect();
    for _ in 0..samples {
        chain.run(thin);
        for (s, v) in series.iter_mut().zip(chain.stats()) {
            s.push(v);
        }
    }
    series
}

/// The mean and the (biased, divide-by-n) variance of `x`.
pub(crate) fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len().max(1) as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / n;
    (m, v)
}

/// The autocorrelation function of `x` at lags `0..=max_lag` (in samples): the
/// standard estimator `sum (x_i - m)(x_{i+k} - m) / n`, divided by the lag-0 value.
/// A constant series gives 1 at lag 0 and 0 after it.
pub fn acf(x: &[f64], max_lag: usize) -> Vec<f64> {
    let n = x.len();
    let (m, _) = mean_var(x);
    let d: Vec<f64> = x.iter().map(|a| a - m).collect();
    let c0: f64 = d.iter().map(|a| a * a).sum();
    (0..=max_lag.min(n.saturating_sub(1)))
        .map(|k| {
            if c0 == 0.0 {
                return if k == 0 { 1.0 } else { 0.0 };
            }
            d[..n - k]
                .iter()
                .zip(&d[k..])
                .map(|(a, b)| a * b)
                .sum::<f64>()
                / c0
        })
        .collect()
}

/// The integrated autocorrelation time from an autocorrelation function `rho`
/// (`rho[0] = 1`) by Sokal's automatic window: `tau(W) = 1 + 2 sum_{k=1..W} rho[k]`
/// at the smallest `W` with `W >= c tau(W)`. Returns `(tau, W)`, in samples, or `None`
/// when `rho` is too short for the window to close (run longer or raise the lag).
pub fn sokal_tau(rho: &[f64], c: f64) -> Option<(f64, usize)> {
    let mut tau = 1.0;
    for (w, r) in rho.iter().enumerate().skip(1) {
        tau += 2.0 * r;
        if w as f64 >= c * tau {
            return Some((tau, w));
        }
    }
    None
}

/// The integrated autocorrelation time by batch means: `x` cut into `batches` equal
/// batches (the remainder dropped), `tau = b var(batch means) / var(x)` for batches of
/// length `b`. Unbiased only when `b` is many times tau.
pub(crate) fn batch_means_tau(x: &[f64], batches: usize) -> f64 {
    let b = x.len() / batches.max(1);
    if b == 0 {
        return f64::NAN;
    }
    let x = &x[..b * batches];
    let (_, v) = mean_var(x);
    let means: Vec<f64> = x
        .chunks_exact(b)
        .map(|c| c.iter().sum::<f64>() / b as f64)
        .collect();
    let n = means.len() as f64;
    let mm = means.iter().sum::<f64>() / n;
    let vb = means.iter().map(|a| (a - mm) * (a - mm)).sum::<f64>() / (n - 1.0);
    b as f64 * vb / v
}

/// What one statistic's long run says.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The statistic's name.
    pub name: &'static str,
    /// Its long-run mean.
    pub mean: f64,
    /// Its long-run standard deviation.
    pub sd: f64,
    /// The integrated autocorrelation time in samples (Sokal), if the window closed.
    pub tau: Option<f64>,
    /// Sokal's window in samples.
    pub window: usize,
    /// The estimate's standard error (Madras-Sokal: `tau sqrt(2 (2W + 1) / n)`).
    pub tau_se: f64,
    /// The batch-means estimate of tau in samples (200 batches).
    pub tau_batch: f64,
    /// The effective sample size, samples / tau.
    pub ess: f64,
    /// The standard error of the long-run mean, `sd sqrt(tau / n)`.
    pub mean_se: f64,
}

/// The summary of one series: mean, sd, tau (Sokal, window constant `c`; batch means),
/// ESS. `rho` is the series' autocorrelation function.
pub fn summarize(name: &'static str, x: &[f64], rho: &[f64], c: f64) -> Summary {
    let n = x.len() as f64;
    let (mean, var) = mean_var(x);
    let (tau, window) = match sokal_tau(rho, c) {
        Some((t, w)) => (Some(t), w),
        None => (None, rho.len().saturating_sub(1)),
    };
    let t = tau.unwrap_or(f64::NAN).max(1.0);
    Summary {
        name,
        mean,
        sd: var.sqrt(),
        tau,
        window,
        tau_se: t * (2.0 * (2.0 * window as f64 + 1.0) / n).sqrt(),
        tau_batch: batch_means_tau(x, 200),
        ess: n / t,
        mean_se: (var * t / n).sqrt(),
    }
}

/// The means of the statistics after `t` moves from the serpentine, over independent
/// chains.
#[derive(Debug, Clone, PartialEq)]
pub struct FromStart {
    /// Moves made.
    pub t: u64,
    /// The mean of each statistic over the chains.
    pub mean: [f64; STATS],
    /// Its standard error (chains are independent: sd / sqrt(chains)).
    pub se: [f64; STATS],
}

/// `chains` independent chains (chain j draws from stream j of `seed`), each observed
/// at every checkpoint (ascending move counts): the mean and standard error of each
/// statistic at each checkpoint.
pub fn from_start(
    rows: usize,
    cols: usize,
    chains: u64,
    checkpoints: &[u64],
    seed: u64,
) -> Vec<FromStart> {
    let k = checkpoints.len();
    let mut sum = vec![[0.0f64; STATS]; k];
    let mut sq = vec![[0.0f64; STATS]; k];
    for j in 0..chains {
        let mut chain = Chain::new(rows, cols, item_rng(seed, "numbrix-mixing-start", j));
        for (i, &t) in checkpoints.iter().enumerate() {
            chain.run(t.saturating_sub(chain.moves()));
            for (s, v) in chain.stats().into_iter().enumerate() {
                sum[i][s] += v;
                sq[i][s] += v * v;
            }
        }
    }
    let n = chains.max(1) as f64;
    checkpoints
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let mut mean = [0.0; STATS];
            let mut se = [0.0; STATS];
            for s in 0..STATS {
                mean[s] = sum[i][s] / n;
                let var = (sq[i][s] / n - mean[s] * mean[s]).max(0.0) * n / (n - 1.0).max(1.0);
                se[s] = (var / n).sqrt();
            }
            FromStart { t, mean, se }
        })
        .collect()
}
