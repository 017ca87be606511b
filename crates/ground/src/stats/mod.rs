//! Statistics state that merges: counters added across threads, shards and runs.
//! Only counts live here, never per-item rows, so memory does not grow with a run.

use std::collections::BTreeMap;

mod ks;
mod study;
pub use ks::{ks_uniform, max_abs_normal_quantile};
pub use study::Study;

/// Counts by label (for example, why generation attempts were rejected).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    counts: BTreeMap<String, u64>,
}

impl Tally {
    /// Add `n` to the count of `label` (a zero `n` leaves no entry).
    pub fn add(&mut self, label: &str, n: u64) {
        if n == 0 {
            return;
        }
        match self.counts.get_mut(label) {
            Some(c) => *c += n,
            None => {
                self.counts.insert(label.to_string(), n);
            }
        }
    }

    /// Add every count of `other` to this tally.
    pub fn merge(&mut self, other: &Tally) {
        for (label, &n) in &other.counts {
            self.add(label, n);
        }
    }

    /// The count of `label` (0 if it was never added).
    pub fn get(&self, label: &str) -> u64 {
        self.counts.get(label).copied().unwrap_or(0)
    }

    /// The sum of all counts.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The labels and their counts, labels in sorted order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.counts.iter().map(|(k, &v)| (k.as_str(), v))
    }

    /// True when nothing has been counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_counts_and_is_order_independent() {
        let mut a = Tally::default();
        a.add("x", 2);
        a.add("y", 1);
        let mut b = Tally::default();
        b.add("y", 4);
        b.add("z", 0);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.get("y"), 5);
        assert_eq!(ab.total(), 7);
        assert_eq!(ab.to_string(), "x: 2, y: 5");
    }
}

/// P(X >= x) for X chi-square distributed with `df` degrees of freedom: the regularised
/// upper incomplete gamma function Q(df / 2, x / 2), from statrs.
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    statrs::function::gamma::gamma_ur(df / 2.0, x / 2.0)
}

/// Pearson's statistic over cells with positive expectation: (chi-square, cells used).
pub fn pearson(observed: &[u64], expected: &[f64]) -> (f64, usize) {
    let mut chi = 0.0;
    let mut cells = 0;
    for (&o, &e) in observed.iter().zip(expected) {
        if e > 0.0 {
            let d = o as f64 - e;
            chi += d * d / e;
            cells += 1;
        }
    }
    (chi, cells)
}

#[cfg(test)]
mod chi_tests {
    use super::*;

    #[test]
    fn chi_square_tail_matches_tables() {
        // Critical values at 5% and 1% from standard tables.
        for (x, df, p) in [
            (3.841_459, 1.0, 0.05),
            (18.307_04, 10.0, 0.05),
            (6.634_897, 1.0, 0.01),
            (124.342_1, 100.0, 0.05),
        ] {
            assert!(
                (chi2_sf(x, df) - p).abs() < 1e-5,
                "df {df}: {}",
                chi2_sf(x, df)
            );
        }
        // Exponential case: df = 2 gives exp(-x/2).
        assert!((chi2_sf(3.0, 2.0) - (-1.5f64).exp()).abs() < 1e-12);
        // Large df: close to normal, P(X >= df) a little under one half.
        let p = chi2_sf(20_000.0, 20_000.0);
        assert!(p > 0.49 && p < 0.5, "{p}");
        assert!(chi2_sf(21_000.0, 20_000.0) < 1e-5);
    }
}
