//! Mixing diagnostics of the Numbrix backbite chain (issue 18, point 5): one long run's
//! autocorrelations, integrated autocorrelation times and effective sample sizes, and
//! the means over independent chains after t moves from the serpentine (the burn-in),
//! against the long-run means. Fixed seeds; single-threaded.
//!
//!     cargo run --release --example numbrix_mixing -- [RxC] [SAMPLES] [CHAINS] [OUT_DIR] [--force]
//!
//! Defaults: 9x9, 400,000 samples N moves apart, 2,000 chains, OUT_DIR `.`; writes
//! `mixing-RxC-acf.csv` (lag in moves, ACF per statistic) and `mixing-RxC-burnin.csv`
//! (t, mean and standard error per statistic), and refuses to overwrite them without
//! `--force`.

use puzzlebook::games::numbrix::mixing::{self, STATS, STAT_NAMES};
use puzzlebook::games::numbrix::path::default_steps;
use puzzlebook::stats::max_abs_normal_quantile;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

const SEED: u64 = 18;

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1)
}

fn write_new(path: &Path, force: bool, text: &str) {
    if path.exists() && !force {
        fail(&format!(
            "{} exists (pass --force to overwrite)",
            path.display()
        ));
    }
    let tmp = path.with_extension("csv.tmp");
    let ok = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .and_then(|_| std::fs::rename(&tmp, path));
    if let Err(e) = ok {
        let _ = std::fs::remove_file(&tmp);
        fail(&format!("cannot write {}: {e}", path.display()));
    }
}

// An example reads as one script, top to bottom (the library, the binary and the
// tests are held to clippy::too_many_lines).
#[allow(clippy::too_many_lines)]
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let force = args.iter().any(|a| a == "--force");
    args.retain(|a| a != "--force");
    let size = args.first().map(String::as_str).unwrap_or("9x9");
    let (rows, cols) = match size.split_once('x') {
        Some((r, c)) => (r.parse().ok(), c.parse().ok()),
        None => (size.parse().ok(), size.parse().ok()),
    };
    let (Some(rows), Some(cols)) = (rows, cols) else {
        fail(&format!("bad size {size:?} (want N or RxC)"))
    };
    let n: usize = rows * cols;
    if rows < 2 || cols < 2 || n > 512 {
        fail("size must be at least 2x2 and at most 512 cells");
    }
    let num = |i: usize, default: u64, max: u64| -> u64 {
        match args.get(i) {
            None => default,
            Some(s) => match s.replace(['_', ','], "").parse::<u64>() {
                Ok(v) if (1..=max).contains(&v) => v,
                _ => fail(&format!("bad number {s:?} (1 to {max})")),
            },
        }
    };
    let samples = num(1, 400_000, 10_000_000) as usize;
    let chains = num(2, 2_000, 1_000_000);
    let out = PathBuf::from(args.get(3).map(String::as_str).unwrap_or("."));
    if !out.is_dir() {
        fail(&format!("{} is not a directory", out.display()));
    }
    let acf_path = out.join(format!("mixing-{rows}x{cols}-acf.csv"));
    let start_path = out.join(format!("mixing-{rows}x{cols}-burnin.csv"));
    for p in [&acf_path, &start_path] {
        if p.exists() && !force {
            fail(&format!(
                "{} exists (pass --force to overwrite)",
                p.display()
            ));
        }
    }
    let thin = n as u64;
    let default = default_steps(n);

    // Long run: burn in for 10x the default, then SAMPLES records N moves apart.
    let t0 = Instant::now();
    let series = mixing::long_run(rows, cols, 10 * default, samples, thin, SEED);
    let run_s = t0.elapsed().as_secs_f64();
    let max_lag = (samples / 20).clamp(1, 1000);
    let rhos: Vec<Vec<f64>> = series.iter().map(|x| mixing::acf(x, max_lag)).collect();
    let sums: Vec<mixing::Summary> = (0..STATS)
        .map(|s| mixing::summarize(STAT_NAMES[s], &series[s], &rhos[s], 6.0))
        .collect();
    let acf_s = t0.elapsed().as_secs_f64() - run_s;

    // From the fixed start: checkpoints up to 4x the default.
    let mut checkpoints: Vec<u64> = vec![0];
    let mut t = (n as u64).max(8);
    while t < 4 * default {
        checkpoints.push(t);
        t *= 2;
    }
    checkpoints.extend([default / 2, default, 2 * default, 4 * default]);
    checkpoints.sort_unstable();
    checkpoints.dedup();
    let t1 = Instant::now();
    let starts = mixing::from_start(rows, cols, chains, &checkpoints, SEED);
    let start_s = t1.elapsed().as_secs_f64();

    let mut acf_csv = String::from("lag_moves");
    for name in STAT_NAMES {
        acf_csv += &format!(",acf_{name}");
    }
    acf_csv += "\n";
    for k in 0..=max_lag.min(samples - 1) {
        acf_csv += &format!("{}", k as u64 * thin);
        for r in &rhos {
            acf_csv += &format!(",{:.6}", r[k]);
        }
        acf_csv += "\n";
    }
    let mut start_csv = String::from("t");
    for name in STAT_NAMES {
        start_csv += &format!(",mean_{name},se_{name}");
    }
    start_csv += "\n";
    for st in &starts {
        start_csv += &format!("{}", st.t);
        for s in 0..STATS {
            start_csv += &format!(",{:.6},{:.6}", st.mean[s], st.se[s]);
        }
        start_csv += "\n";
    }
    // Also the long-run means as the last row, t = "inf".
    start_csv += "inf";
    for s in &sums {
        start_csv += &format!(",{:.6},{:.6}", s.mean, s.mean_se);
    }
    start_csv += "\n";
    write_new(&acf_path, force, &acf_csv);
    write_new(&start_path, force, &start_csv);

    println!(
        "{rows}x{cols}: N = {n}, default {default} moves; long run {} moves ({samples} samples {thin} apart) \
         after {} burn-in, {run_s:.1} s, ACF {acf_s:.1} s; {chains} chains to {} moves, {start_s:.1} s",
        samples as u64 * thin,
        10 * default,
        4 * default
    );
    println!(
        "{:<15} {:>8} {:>7} {:>11} {:>9} {:>12} {:>9} {:>10}",
        "statistic", "mean", "sd", "tau_moves", "+-", "tau_batch", "window", "ESS"
    );
    for s in &sums {
        let tau = s.tau.unwrap_or(f64::NAN) * thin as f64;
        println!(
            "{:<15} {:>8.3} {:>7.3} {:>11.0} {:>9.0} {:>12.0} {:>9} {:>10.0}",
            s.name,
            s.mean,
            s.sd,
            tau,
            s.tau_se * thin as f64,
            s.tau_batch * thin as f64,
            s.window as u64 * thin,
            s.ess
        );
    }
    println!("\nfrom the serpentine: (mean - long-run mean) / sd, and z = that difference / its standard error");
    print!("{:>8}", "t");
    for name in STAT_NAMES {
        print!(" {:>20}", name);
    }
    println!();
    // The family-wise 1% bound on max |z| over every (t, statistic) pair, had every
    // checkpoint been stationary.
    let crit = max_abs_normal_quantile(STATS * starts.len(), 0.99);
    let mut burn_in = None;
    let mut later = Vec::new();
    for st in &starts {
        print!("{:>8}", st.t);
        let mut ok = true;
        for (s, sum) in sums.iter().enumerate() {
            let d = st.mean[s] - sum.mean;
            let z = d / (st.se[s].powi(2) + sum.mean_se.powi(2)).sqrt();
            if z.abs() >= crit && burn_in.is_some() {
                later.push(format!("t = {} {} z = {z:+.1}", st.t, sum.name));
            }
            ok &= z.abs() < crit;
            print!(" {:>+10.3} z {:>+7.1}", d / sum.sd, z);
        }
        println!();
        if ok && burn_in.is_none() {
            burn_in = Some(st.t);
        }
    }
    let tau_max = sums
        .iter()
        .map(|s| s.tau.unwrap_or(f64::INFINITY) * thin as f64)
        .fold(0.0, f64::max);
    match burn_in {
        Some(b) => println!(
            "\nburn-in: every mean first within {crit:.2} standard errors of the long run at t = {b}; \
             slowest tau = {tau_max:.0} moves; default {default} = {:.1} tau",
            default as f64 / tau_max
        ),
        None => println!(
            "\nburn-in: no checkpoint has every mean within {crit:.2} standard errors of the long run; slowest tau = {tau_max:.0} moves"
        ),
    }
    if !later.is_empty() {
        println!(
            "  later means beyond {crit:.2} standard errors (chance, or a slow mode): {}",
            later.join("; ")
        );
    }
    println!("wrote {} and {}", acf_path.display(), start_path.display());
}
