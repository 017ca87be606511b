//! Statistics state that merges: counters added across threads, shards and runs.
//! Only counts live here, never per-item rows, so memory does not grow with a run.

use std::collections::BTreeMap;

mod ks;
mod study;
pub use ks::{
    kolmogorov_cdf, kolmogorov_sf, ks_statistic_uniform, ks_uniform, max_abs_normal_quantile,
    normal_sf,
};
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

/// ln Gamma(x) for x > 0 (Lanczos approximation, g = 7, nine terms; about 15 digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
        return std::f64::consts::PI.ln()
            - (std::f64::consts::PI * x).sin().ln()
            - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a).
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        // Series for P(a, x).
        let mut sum = 1.0 / a;
        let mut term = sum;
        let mut ap = a;
        for _ in 0..1_000_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).max(0.0)
    } else {
        // Continued fraction for Q(a, x) (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1_000_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

/// P(X >= x) for X chi-square distributed with `df` degrees of freedom.
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    gamma_q(df / 2.0, x / 2.0)
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
    fn gamma_function() {
        assert!((ln_gamma(1.0)).abs() < 1e-12);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
        assert!((ln_gamma(100.5) - 361.435_540_467_777_6).abs() < 1e-9);
    }

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
