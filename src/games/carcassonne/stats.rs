//! `carcassonne stats`: for each landscape size, the distribution of the score and of
//! the feature counts over many generated landscapes, as mergeable histograms. The CSV
//! is in long form: one row per (size, measure, value) with the number of landscapes.

use super::{generate, score};
use crate::seed::item_rng;
use crate::stats::Study;
use crate::Result;
use serde::{Deserialize, Serialize};

/// The measures, in the order of [`Hist`]'s histograms and of the CSV's `measure`
/// column: the score, the feature counts by kind, and the tiles discarded.
pub const MEASURES: [&str; 8] = [
    "score",
    "complete_cities",
    "incomplete_cities",
    "complete_roads",
    "incomplete_roads",
    "complete_monasteries",
    "incomplete_monasteries",
    "discarded",
];

/// Histograms per measure (value -> landscapes).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Hist(pub Vec<Vec<u64>>);

impl Hist {
    /// One empty histogram per measure of [`MEASURES`].
    pub fn new() -> Self {
        Hist(vec![Vec::new(); MEASURES.len()])
    }
    fn add(&mut self, m: usize, v: u32) {
        let h = &mut self.0[m];
        if h.len() <= v as usize {
            h.resize(v as usize + 1, 0);
        }
        h[v as usize] += 1;
    }
    /// Add every count of `o` (histograms of the same measures).
    pub fn add_all(&mut self, o: Hist) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }
}

/// The study of one landscape size: landscape i is the one
/// `carcassonne generate --tiles T` makes as item i (counted by `batch::study`).
#[derive(Debug, Clone, Copy)]
pub struct SizeStudy {
    /// The run's seed.
    pub seed: u64,
    /// Tiles per landscape.
    pub tiles: usize,
}

impl Study for SizeStudy {
    type Counts = Hist;

    fn empty(&self) -> Hist {
        Hist::new()
    }

    fn merge(&self, into: &mut Hist, other: Hist) {
        into.add_all(other);
    }

    fn count(&self, i: u64, h: &mut Hist) -> Result<()> {
        let made = generate::landscape(self.tiles, &mut item_rng(self.seed, "carcassonne", i));
        let b = score(&made.landscape);
        let vals = [
            b.total(),
            b.complete_cities.count,
            b.incomplete_cities.count,
            b.complete_roads.count,
            b.incomplete_roads.count,
            b.complete_monasteries.count,
            b.incomplete_monasteries.count,
            made.discarded as u32,
        ];
        for (m, v) in vals.into_iter().enumerate() {
            h.add(m, v);
        }
        Ok(())
    }
}

/// One CSV row: how many landscapes of one size had `value` for one measure.
#[derive(Serialize)]
pub(crate) struct Row {
    pub seed: u64,
    pub tiles: usize,
    pub samples: u64,
    pub measure: &'static str,
    pub value: usize,
    pub landscapes: u64,
}

/// The CSV rows of one size's histograms: measures in [`MEASURES`] order, values
/// ascending, values no landscape had left out.
pub(crate) fn rows(seed: u64, tiles: usize, h: &Hist) -> Vec<Row> {
    let samples: u64 = h.0[0].iter().sum();
    let mut out = Vec::new();
    for (m, hist) in h.0.iter().enumerate() {
        for (value, &n) in hist.iter().enumerate().filter(|(_, &n)| n > 0) {
            out.push(Row {
                seed,
                tiles,
                samples,
                measure: MEASURES[m],
                value,
                landscapes: n,
            });
        }
    }
    out
}

/// Mean and the 10th, 50th and 90th percentiles of one measure.
pub fn summary(hist: &[u64]) -> (f64, usize, usize, usize) {
    let n: u64 = hist.iter().sum();
    let mean = hist
        .iter()
        .enumerate()
        .map(|(v, &c)| v as f64 * c as f64)
        .sum::<f64>()
        / n.max(1) as f64;
    let q = |f: f64| {
        let want = ((n as f64) * f).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (v, &c) in hist.iter().enumerate() {
            seen += c;
            if seen >= want {
                return v;
            }
        }
        0
    };
    (mean, q(0.1), q(0.5), q(0.9))
}

#[cfg(test)]
mod summary_tests {
    use super::summary;
    use rand::Rng;

    #[test]
    fn percentiles_agree_with_a_sort() {
        let mut rng = crate::seed::item_rng(5, "summary-test", 0);
        for n in [1usize, 2, 9, 10, 11, 101, 5000] {
            let values: Vec<usize> = (0..n).map(|_| rng.random_range(0..120)).collect();
            let mut hist = vec![0u64; 120];
            for &v in &values {
                hist[v] += 1;
            }
            let mut sorted = values.clone();
            sorted.sort_unstable();
            // The smallest value with at least a share q of the values at or below it.
            let by_sort = |q: f64| sorted[((n as f64 * q).ceil() as usize).clamp(1, n) - 1];
            let (mean, p10, p50, p90) = summary(&hist);
            assert_eq!(
                (p10, p50, p90),
                (by_sort(0.1), by_sort(0.5), by_sort(0.9)),
                "n = {n}"
            );
            let exact_mean = values.iter().sum::<usize>() as f64 / n as f64;
            assert!((mean - exact_mean).abs() < 1e-9, "n = {n}");
        }
    }
}
