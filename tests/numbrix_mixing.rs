//! The Numbrix mixing diagnostics (`games::numbrix::mixing`, issue 18 point 5): the
//! autocorrelation and tau estimators on hand-computed cases and on an AR(1) series with
//! known answers, the path statistics on hand-drawn paths, the long-run means against
//! exact means over every path of 5x5, and the production sampler's paths after the
//! default number of moves against the long-run means at 9x9. Fixed seeds throughout.

use puzzlebook::games::numbrix::mixing::{self, STATS};
use puzzlebook::games::numbrix::path::PathSampler;
use puzzlebook::seed::item_rng;
use rand::Rng as _;

/// The statistics again, written differently: edge directions instead of row/column
/// comparisons of cells two apart, and the centre's position by a scan.
fn stats_by_directions(rows: usize, cols: usize, path: &[u16]) -> [f64; STATS] {
    let n = path.len();
    let dir: Vec<i64> = path
        .windows(2)
        .map(|w| i64::from(w[1]) - i64::from(w[0]))
        .collect();
    let turns = dir.windows(2).filter(|d| d[0] != d[1]).count();
    let horizontal = dir.iter().filter(|d| d.abs() == 1).count();
    let (r0, c0) = (path[0] as usize / cols, path[0] as usize % cols);
    let (r1, c1) = (path[n - 1] as usize / cols, path[n - 1] as usize % cols);
    let on_border =
        |r: usize, c: usize| (r.is_multiple_of(rows - 1) || c.is_multiple_of(cols - 1)) as usize;
    let mut pos = 0;
    for (i, &c) in path.iter().enumerate() {
        if c as usize == (rows / 2) * cols + cols / 2 {
            pos = i;
        }
    }
    [
        turns as f64,
        horizontal as f64,
        (r0.abs_diff(r1) + c0.abs_diff(c1)) as f64,
        (on_border(r0, c0) + on_border(r1, c1)) as f64,
        (2.0 * pos as f64 - (n - 1) as f64).abs() / 2.0,
    ]
}

#[test]
fn acf_and_sokal_tau_on_hand_computed_cases() {
    // x = 1, 2, 3, 4: deviations -1.5, -0.5, 0.5, 1.5; c0 = 5, c1 = 1.25, c2 = -1.5,
    // c3 = -2.25.
    let r = mixing::acf(&[1.0, 2.0, 3.0, 4.0], 3);
    for (a, b) in r.iter().zip([1.0, 0.25, -0.3, -0.45]) {
        assert!((a - b).abs() < 1e-12, "{r:?}");
    }
    // rho = 1, 0.5, 0, 0, ...: tau(W) = 2 for W >= 1, the window closes at W = 12
    // when c = 6.
    let mut rho = vec![0.0; 40];
    rho[0] = 1.0;
    rho[1] = 0.5;
    assert_eq!(mixing::sokal_tau(&rho, 6.0), Some((2.0, 12)));
    assert_eq!(mixing::sokal_tau(&rho[..12], 6.0), None);
    // White noise has tau 1; a constant series counts as uncorrelated.
    assert_eq!(mixing::acf(&[3.0; 5], 2), vec![1.0, 0.0, 0.0]);
}

#[test]
fn ar1_has_the_known_acf_and_tau() {
    // x_t = phi x_{t-1} + e_t: rho_k = phi^k, tau = (1 + phi) / (1 - phi) = 9.
    let phi: f64 = 0.8;
    let n = 400_000;
    let mut rng = item_rng(1, "ar1", 0);
    let mut x = Vec::with_capacity(n);
    // Start from the stationary distribution: var = 1 / (1 - phi^2).
    let gauss = |rng: &mut puzzlebook::seed::Rng| {
        let u: f64 = 1.0 - rng.random::<f64>();
        let v: f64 = rng.random::<f64>();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let mut a = gauss(&mut rng) / (1.0 - phi * phi).sqrt();
    for _ in 0..n {
        x.push(a);
        a = phi * a + gauss(&mut rng);
    }
    let rho = mixing::acf(&x, 200);
    // The ACF estimate's standard error here is about
    // sqrt((1 + phi^2) / (1 - phi^2) / n) = 0.0034 at every lag.
    for (k, r) in rho.iter().enumerate().take(30) {
        assert!((r - phi.powi(k as i32)).abs() < 0.02, "rho[{k}] = {r}");
    }
    let s = mixing::summarize("ar1", &x, &rho, 6.0);
    let tau = s.tau.expect("window closes");
    // Madras-Sokal: relative standard error sqrt(2 (2W + 1) / n), about 2.4% here.
    assert!((tau - 9.0).abs() < 0.1 * 9.0, "Sokal tau {tau}");
    assert!(s.tau_se / tau < 0.04, "{s:?}");
    // Batch means (200 batches): relative standard error about sqrt(2 / 199) = 10%.
    assert!((s.tau_batch - 9.0).abs() < 0.35 * 9.0, "{s:?}");
    assert!(
        (s.ess - n as f64 / 9.0).abs() < 0.1 * n as f64 / 9.0,
        "{s:?}"
    );
}

#[test]
fn path_statistics_of_hand_drawn_paths() {
    // 3x3 serpentine 0 1 2 / 5 4 3 / 6 7 8 and the spiral 0 1 2 5 8 7 6 3 4.
    let serp = [0u16, 1, 2, 5, 4, 3, 6, 7, 8];
    assert_eq!(mixing::path_stats(3, 3, &serp), [4.0, 6.0, 4.0, 2.0, 0.0]);
    let spiral = [0u16, 1, 2, 5, 8, 7, 6, 3, 4];
    assert_eq!(mixing::path_stats(3, 3, &spiral), [4.0, 5.0, 2.0, 1.0, 4.0]);
    // Every statistic is the same for the reverse path, and the second way agrees.
    let s = PathSampler::new(6, 7);
    for i in 0..200 {
        let p = s.sample(&mut item_rng(3, "stats", i));
        let mut q = p.clone();
        q.reverse();
        let a = mixing::path_stats(6, 7, &p);
        assert_eq!(a, mixing::path_stats(6, 7, &q));
        assert_eq!(a, stats_by_directions(6, 7, &p));
    }
}

/// Every directed Hamiltonian path of the grid, by depth-first search.
fn all_directed_paths(rows: usize, cols: usize, f: &mut impl FnMut(&[u16])) {
    fn go(
        rows: usize,
        cols: usize,
        p: &mut Vec<u16>,
        used: &mut [bool],
        f: &mut impl FnMut(&[u16]),
    ) {
        if p.len() == rows * cols {
            f(p);
            return;
        }
        let c = *p.last().unwrap() as usize;
        let (r, k) = (c / cols, c % cols);
        let mut next = Vec::new();
        if k > 0 {
            next.push(c - 1);
        }
        if k + 1 < cols {
            next.push(c + 1);
        }
        if r > 0 {
            next.push(c - cols);
        }
        if r + 1 < rows {
            next.push(c + cols);
        }
        for d in next {
            if !used[d] {
                used[d] = true;
                p.push(d as u16);
                go(rows, cols, p, used, f);
                p.pop();
                used[d] = false;
            }
        }
    }
    let mut used = vec![false; rows * cols];
    for s in 0..rows * cols {
        used[s] = true;
        go(rows, cols, &mut vec![s as u16], &mut used, f);
        used[s] = false;
    }
}

#[test]
fn long_run_means_match_exact_means_over_every_5x5_path() {
    let mut count = 0u64;
    let mut sum = [0.0f64; STATS];
    all_directed_paths(5, 5, &mut |p| {
        count += 1;
        for (s, v) in sum.iter_mut().zip(stats_by_directions(5, 5, p)) {
            *s += v;
        }
    });
    // 4,324 undirected Hamiltonian paths of 5x5 (OEIS A096969), each both ways.
    assert_eq!(count, 2 * 4324);
    let series = mixing::long_run(5, 5, 10_000, 200_000, 25, 7);
    for s in 0..STATS {
        let rho = mixing::acf(&series[s], 400);
        let sum_s = mixing::summarize(mixing::STAT_NAMES[s], &series[s], &rho, 6.0);
        let exact = sum[s] / count as f64;
        let z = (sum_s.mean - exact) / sum_s.mean_se;
        assert!(z.abs() < 4.0, "{sum_s:?} exact mean {exact}, z = {z:.2}");
    }
}

/// The largest |z| over the statistics between `k` paths from `sampler` and the long
/// run's means.
fn max_z_against(sampler: &PathSampler, k: u64, long: &[mixing::Summary]) -> f64 {
    let mut sum = [0.0f64; STATS];
    let mut sq = [0.0f64; STATS];
    for i in 0..k {
        let p = sampler.sample(&mut item_rng(12, "mixing-default", i));
        for (s, v) in stats_by_directions(9, 9, &p).into_iter().enumerate() {
            sum[s] += v;
            sq[s] += v * v;
        }
    }
    let mut worst = 0.0f64;
    for (s, l) in long.iter().enumerate() {
        let mean = sum[s] / k as f64;
        let se = ((sq[s] / k as f64 - mean * mean) / (k - 1) as f64).sqrt();
        let z = (mean - l.mean) / (se * se + l.mean_se * l.mean_se).sqrt();
        worst = worst.max(z.abs());
    }
    worst
}

#[test]
fn default_moves_reach_the_long_run_means_at_9x9() {
    // The production sampler (serpentine start, default 10 N ln(N)^2 moves, final coin
    // flip) against a long run of the chain after a burn-in of 10x the default.
    let series = mixing::long_run(9, 9, 160_000, 200_000, 81, 11);
    let long: Vec<mixing::Summary> = (0..STATS)
        .map(|s| {
            let rho = mixing::acf(&series[s], 200);
            mixing::summarize(mixing::STAT_NAMES[s], &series[s], &rho, 6.0)
        })
        .collect();
    let z = max_z_against(&PathSampler::new(9, 9), 3000, &long);
    assert!(z < 4.0, "default moves: max |z| = {z:.2}");
    // The check has power: after 324 moves (2% of the default; the serpentine's
    // horizontal edges are still 1.2 sd too many on average) it fails by far.
    let z = max_z_against(&PathSampler::with_steps(9, 9, 324), 3000, &long);
    assert!(z > 20.0, "324 moves: max |z| = {z:.2}");
    // And the serpentine itself, t = 0 of from_start, has no spread.
    let start = mixing::from_start(9, 9, 4, &[0], 1);
    assert_eq!(start[0].se, [0.0; STATS]);
    assert_eq!(
        start[0].mean,
        mixing::path_stats(9, 9, &PathSampler::new(9, 9).serpentine())
    );
}
