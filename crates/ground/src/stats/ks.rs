//! The one-sample Kolmogorov-Smirnov test of uniformity on [0, 1], and the normal tail
//! functions the bias report needs (the largest |z| expected by chance).
//!
//! The distribution of the two-sided statistic D_n is computed exactly by the method of
//! Marsaglia, Tsang and Wang ("Evaluating Kolmogorov's distribution", Journal of
//! Statistical Software 8(18), 2003): a power of a (2k - 1)-square matrix, with the
//! exponent kept apart so that nothing overflows. Far in the tail (n d^2 above 7.24,
//! or above 3.76 for n over 99) their closed approximation is used, as in the paper,
//! except at the very top (d at least 1 - 1/n), where the exact 2 (1 - d)^n is.

/// The KS statistic D_n = sup |F_n(x) - x| of `sample` against the uniform distribution
/// on [0, 1] (values outside [0, 1] are clamped). 0 for an empty sample.
pub(crate) fn ks_statistic_uniform(sample: &[f64]) -> f64 {
    let mut x: Vec<f64> = sample.iter().map(|v| v.clamp(0.0, 1.0)).collect();
    x.sort_by(f64::total_cmp);
    let n = x.len() as f64;
    x.iter()
        .enumerate()
        .map(|(i, &v)| ((i as f64 + 1.0) / n - v).max(v - i as f64 / n))
        .fold(0.0, f64::max)
}

/// P(D_n < d): Kolmogorov's distribution for a sample of `n`, exact (Marsaglia, Tsang
/// and Wang) but for the far upper tail. `n` is at least 1.
#[cfg(test)]
pub(crate) fn kolmogorov_cdf(n: usize, d: f64) -> f64 {
    1.0 - kolmogorov_sf(n, d)
}

/// P(D_n >= d): the p-value of a KS statistic `d` from a sample of `n` (see
/// [`kolmogorov_cdf`]).
pub(crate) fn kolmogorov_sf(n: usize, d: f64) -> f64 {
    let n = n.max(1);
    let nf = n as f64;
    if d.is_nan() || d <= 0.0 {
        return 1.0;
    }
    if d >= 1.0 {
        return 0.0;
    }
    let s = d * d * nf;
    if s > 7.24 || (s > 3.76 && n > 99) {
        if d >= 1.0 - 1.0 / nf {
            // Exact at the top of the range: P(D_n >= d) = 2 (1 - d)^n.
            return (2.0 * (1.0 - d).powi(n.min(i32::MAX as usize) as i32)).min(1.0);
        }
        let p = 2.0 * (-(2.000071 + 0.331 / nf.sqrt() + 1.409 / nf) * s).exp();
        return p.clamp(0.0, 1.0);
    }
    let k = (nf * d) as usize + 1;
    let m = 2 * k - 1;
    let h = k as f64 - nf * d;
    let mut hm = vec![0.0f64; m * m];
    for i in 0..m {
        for j in 0..m {
            if i + 1 >= j {
                hm[i * m + j] = 1.0;
            }
        }
    }
    for i in 0..m {
        hm[i * m] -= h.powi(i as i32 + 1);
        hm[(m - 1) * m + i] -= h.powi((m - i) as i32);
    }
    if 2.0 * h - 1.0 > 0.0 {
        hm[(m - 1) * m] += (2.0 * h - 1.0).powi(m as i32);
    }
    for i in 0..m {
        for j in 0..m {
            if i + 1 > j {
                for g in 1..=(i + 1 - j) {
                    hm[i * m + j] /= g as f64;
                }
            }
        }
    }
    let (q, mut e) = matrix_power(&hm, m, n);
    let mut s = q[(k - 1) * m + k - 1];
    for i in 1..=n {
        s = s * i as f64 / nf;
        if s < 1e-140 {
            s *= 1e140;
            e -= 140;
        }
    }
    let cdf = s * 10f64.powi(e);
    (1.0 - cdf).clamp(0.0, 1.0)
}

fn matrix_mul(a: &[f64], b: &[f64], m: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * m];
    for i in 0..m {
        for k in 0..m {
            let aik = a[i * m + k];
            if aik != 0.0 {
                for j in 0..m {
                    c[i * m + j] += aik * b[k * m + j];
                }
            }
        }
    }
    c
}

/// `a^n` as (matrix, decimal exponent): the true power is matrix * 10^exponent.
fn matrix_power(a: &[f64], m: usize, n: usize) -> (Vec<f64>, i32) {
    if n == 1 {
        return (a.to_vec(), 0);
    }
    let (v, ev) = matrix_power(a, m, n / 2);
    let b = matrix_mul(&v, &v, m);
    let eb = 2 * ev;
    let (mut v, mut e) = if n.is_multiple_of(2) {
        (b, eb)
    } else {
        (matrix_mul(a, &b, m), eb)
    };
    if v[(m / 2) * m + m / 2] > 1e140 {
        for x in &mut v {
            *x *= 1e-140;
        }
        e += 140;
    }
    (v, e)
}

/// The one-sample KS test of `sample` against the uniform distribution on [0, 1]:
/// (D, p-value). None for an empty sample.
pub fn ks_uniform(sample: &[f64]) -> Option<(f64, f64)> {
    if sample.is_empty() {
        return None;
    }
    let d = ks_statistic_uniform(sample);
    Some((d, kolmogorov_sf(sample.len(), d)))
}

/// P(Z >= x) for a standard normal Z: erfc(x / sqrt 2) / 2 from statrs, accurate far in
/// the tail.
pub(crate) fn normal_sf(x: f64) -> f64 {
    0.5 * statrs::function::erf::erfc(x / std::f64::consts::SQRT_2)
}

/// The `q` quantile of max |Z_i| over `k` independent standard normals: the x with
/// 1 - (1 - 2 P(Z >= x))^k = 1 - q, that is P(max |Z_i| < x) = q. Solved by bisection;
/// 0 when `k` is 0.
pub fn max_abs_normal_quantile(k: usize, q: f64) -> f64 {
    if k == 0 || q <= 0.0 {
        return 0.0;
    }
    // Each |Z_i| must stay under x with probability q^(1/k); its two-sided tail is
    // 1 - q^(1/k), computed without cancellation.
    let tail = -((q.ln() / k as f64).exp_m1());
    let (mut lo, mut hi) = (0.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if 2.0 * normal_sf(mid) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistic_by_hand() {
        // One point at 0.3: F_n jumps to 1 at 0.3, so D = max(0.3, 0.7) = 0.7.
        assert!((ks_statistic_uniform(&[0.3]) - 0.7).abs() < 1e-15);
        // 0.1 and 0.9 (either order): D = max(0.5 - 0.1, 0.9 - 0.5, 1 - 0.9, 0.1) = 0.4.
        assert!((ks_statistic_uniform(&[0.9, 0.1]) - 0.4).abs() < 1e-15);
        // Every value 0: D = 1.
        assert!((ks_statistic_uniform(&[0.0, 0.0, 0.0]) - 1.0).abs() < 1e-15);
        assert!(ks_uniform(&[]).is_none());
    }

    #[test]
    fn small_samples_match_closed_forms() {
        // n = 1: D = max(U, 1 - U), so P(D < d) = 2d - 1 on [1/2, 1].
        for d in [0.55, 0.7, 0.95] {
            assert!(
                (kolmogorov_cdf(1, d) - (2.0 * d - 1.0)).abs() < 1e-12,
                "{d}"
            );
        }
        // n = 2: P(D < d) = 2 (2d - 1/2)^2 on [1/4, 1/2] and 1 - 2 (1 - d)^2 on [1/2, 1]
        // (Durbin's closed forms at the two ends of the range).
        for d in [0.3, 0.4, 0.45] {
            let want = 2.0 * (2.0 * d - 0.5f64).powi(2);
            assert!((kolmogorov_cdf(2, d) - want).abs() < 1e-12, "{d}");
        }
        for d in [0.6f64, 0.8] {
            let want = 1.0 - 2.0 * (1.0 - d).powi(2);
            assert!((kolmogorov_cdf(2, d) - want).abs() < 1e-12, "{d}");
        }
        // General n: P(D_n < d) = n! (2d - 1/n)^n on [1/(2n), 1/n] and
        // 1 - 2 (1 - d)^n on [1 - 1/n, 1].
        let n = 5;
        let d = 0.15;
        let want = 120.0 * (2.0 * d - 0.2f64).powi(5);
        assert!((kolmogorov_cdf(n, d) - want).abs() < 1e-12);
        let d = 0.85;
        assert!((kolmogorov_cdf(n, d) - (1.0 - 2.0 * 0.15f64.powi(5))).abs() < 1e-12);
        // Far in the tail, at the top of the range (d >= 1 - 1/n): 2 (1 - d)^n, here
        // 2 * 0.005^100 = 2 * 5^100 * 1e-300 with 5^100 = 7.888609052210118e69.
        let got = kolmogorov_sf(100, 0.995);
        assert!(
            (got / 1.577_721_810_442_023_6e-230 - 1.0).abs() < 1e-9,
            "{got}"
        );
        assert_eq!(kolmogorov_sf(3, 0.0), 1.0);
        assert_eq!(kolmogorov_sf(3, 1.0), 0.0);
        assert_eq!(kolmogorov_sf(3, 0.1), 1.0);
    }

    #[test]
    fn published_values() {
        // Marsaglia, Tsang and Wang (2003), section 4: K(10, 0.274) = 0.6284796154565043.
        assert!((kolmogorov_cdf(10, 0.274) - 0.628_479_615_456_504_3).abs() < 1e-12);
        // Large n approaches Kolmogorov's limit: P(sqrt(n) D >= 1.3581) = 0.05 and
        // P(sqrt(n) D >= 1.6276) = 0.01 (standard tables); at n = 1000 the exact tail is
        // a little smaller.
        let n = 1000;
        for (c, p) in [(1.3581, 0.05), (1.6276, 0.01)] {
            let got = kolmogorov_sf(n, c / (n as f64).sqrt());
            assert!(got < p && got > 0.9 * p, "{c}: {got}");
        }
        // The usual table's 5% critical values for small n: D = 0.409 at n = 10 and
        // 0.294 at n = 20 (two-sided, Miller 1956).
        assert!((kolmogorov_sf(10, 0.409) - 0.05).abs() < 0.002);
        assert!((kolmogorov_sf(20, 0.294) - 0.05).abs() < 0.002);
    }

    #[test]
    fn uniform_samples_give_roughly_uniform_p_values() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(17);
        let trials = 2000;
        let mut ps = Vec::with_capacity(trials);
        for t in 0..trials {
            let n = 5 + t % 60;
            let sample: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
            ps.push(ks_uniform(&sample).unwrap().1);
        }
        // About 5% and 50% of the p-values fall under 0.05 and 0.5 (binomial sd
        // about 0.5% and 1.1% at 2000 trials; the bounds are 4 sd wide).
        let under = |x: f64| ps.iter().filter(|&&p| p < x).count() as f64 / trials as f64;
        assert!((under(0.05) - 0.05).abs() < 0.02, "{}", under(0.05));
        assert!((under(0.5) - 0.5).abs() < 0.045, "{}", under(0.5));
        // And the p-values themselves pass the test (at the 0.1% level).
        assert!(ks_uniform(&ps).unwrap().1 > 1e-3);
        // A sample from Beta(2, 1) (square roots of uniforms) fails at n = 200.
        let skewed: Vec<f64> = (0..200).map(|_| rng.random::<f64>().sqrt()).collect();
        assert!(ks_uniform(&skewed).unwrap().1 < 1e-6);
    }

    #[test]
    fn normal_tails_and_max_quantiles() {
        assert!((normal_sf(1.959_963_985) - 0.025).abs() < 1e-9);
        assert!((normal_sf(0.0) - 0.5).abs() < 1e-15);
        // P(Z >= 5) = 2.866515718791939e-7.
        assert!((normal_sf(5.0) / 2.866_515_718_791_939e-7 - 1.0).abs() < 1e-9);
        // One normal: the 95% quantile of |Z| is 1.96.
        assert!((max_abs_normal_quantile(1, 0.95) - 1.959_964).abs() < 1e-5);
        // K normals: check the defining equation directly.
        for k in [10usize, 380, 5000] {
            for q in [0.5, 0.95] {
                let x = max_abs_normal_quantile(k, q);
                let got = (1.0 - 2.0 * normal_sf(x)).powi(k as i32);
                assert!((got - q).abs() < 1e-9, "{k} {q}: {x} gives {got}");
            }
        }
        // With 380 features the 95% quantile is about 3.8 (0.05 / 380 two-sided).
        let x = max_abs_normal_quantile(380, 0.95);
        assert!(x > 3.75 && x < 3.9, "{x}");
    }
}
