//! The Catan bias report and replicate mode, read back from the files the binary
//! writes: the PDF's text through lopdf (page numbers, p-values, separators), the
//! CSVs (plain numbers), the replicates CSV and the KS verdicts (checked against a KS
//! statistic computed here, independently, from that CSV).

use crate::common;
use crate::common::{bin, fails_with};
use lopdf::Document;
use std::path::Path;

/// Each page's text, decoded through the fonts' /ToUnicode maps.
fn page_texts(pdf: &Path) -> Vec<String> {
    common::page_texts(&Document::load(pdf).unwrap())
}

/// Run `catan bias` into `dir` with `extra` flags; stdout.
fn bias(dir: &Path, extra: &[&str]) -> String {
    let out = dir.join("bias.csv");
    let mut args = vec![
        "catan",
        "bias",
        "--samples",
        "200000",
        "--samplers",
        "full-rejection,direct,sequential",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let o = bin().args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// KS statistic against the uniform distribution, by brute force: the largest gap
/// between the ECDF and the diagonal just before and at every sample point.
fn ks_d(ps: &[f64]) -> f64 {
    let n = ps.len() as f64;
    let mut d: f64 = 0.0;
    for &x in ps {
        let below = ps.iter().filter(|&&p| p < x).count() as f64 / n;
        let at = ps.iter().filter(|&&p| p <= x).count() as f64 / n;
        d = d.max((x - below).abs()).max((at - x).abs());
    }
    d
}

#[test]
fn report_and_replicates_from_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("bias.pdf");
    let table = bias(
        dir.path(),
        &["--replicates", "12", "--report", pdf.to_str().unwrap()],
    );

    // The printed table: separators, tiny p-values written out, KS verdicts.
    assert!(table.contains("200,000"), "{table}");
    assert!(table.contains("exact 0.1373"), "{table}");
    assert!(!table.contains("e0 ") && !table.contains("= <"), "{table}");
    let line = |name: &str, from: usize| {
        table
            .lines()
            .skip(from)
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {table}"))
            .to_string()
    };
    assert!(line("sequential", 0).contains("< 1e-300"), "{table}");
    let ks_at = table.lines().position(|l| l.contains("KS D")).unwrap();
    for name in ["full-rejection", "direct"] {
        let l = line(name, ks_at);
        assert!(
            l.contains("placement: no evidence of bias (the cells only; see max |z|)"),
            "{l}"
        );
        assert!(l.contains("12"), "{l}");
    }
    assert!(
        line("sequential", ks_at).contains("placement biased: the sampler is not uniform"),
        "{table}"
    );

    // The replicates CSV: one row per replicate and sampler; replicate 1 is the run.
    let text = std::fs::read_to_string(dir.path().join("bias.replicates.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "replicate,seed,sampler,chi_square,df,p_value,max_abs_z"
    );
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 36);
    let mut seeds = std::collections::BTreeSet::new();
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (k / 3 + 1).to_string());
        if r[0] == "1" {
            assert_eq!(r[1], "5");
        }
        seeds.insert(r[1].clone());
        let p: f64 = r[5].parse().unwrap();
        assert!((0.0..=1.0).contains(&p));
    }
    assert_eq!(seeds.len(), 12, "each replicate has its own seed");
    // Replicate 1's p-values are the summary's.
    let summary = std::fs::read_to_string(dir.path().join("bias.summary.csv")).unwrap();
    for r in rows.iter().filter(|r| r[0] == "1") {
        let s = summary.lines().find(|l| l.contains(&r[2])).unwrap();
        assert!(s.contains(&r[5]), "{s} / {r:?}");
        // CSVs keep plain numbers.
        assert!(s.contains(",200000,"), "{s}");
    }
    // The KS D printed for each sampler is the one of its p-values in the CSV.
    for name in ["full-rejection", "direct", "sequential"] {
        let ps: Vec<f64> = rows
            .iter()
            .filter(|r| r[2] == name)
            .map(|r| r[5].parse().unwrap())
            .collect();
        let d = format!("{:.4}", ks_d(&ps));
        assert!(line(name, ks_at).contains(&d), "{name}: D {d}: {table}");
    }

    // The PDF: numbered pages, the p-value text, separators, the replicate page.
    let pages = page_texts(&pdf);
    let n = pages.len();
    assert!(n >= 7, "{n} pages");
    for (i, t) in pages.iter().enumerate() {
        assert!(
            t.contains(&format!("page {} of {n}", i + 1)),
            "page {}: {t}",
            i + 1
        );
        assert!(!t.contains("= <"), "page {}: {t}", i + 1);
    }
    let all = pages.concat();
    assert!(pages[0].contains("200,000"), "{}", pages[0]);
    assert!(pages[0].contains("7/51"), "{}", pages[0]);
    assert!(pages[0].contains("< 1e-300"), "{}", pages[0]);
    assert!(all.contains("p < 1e-300"), "map subtitles");
    assert!(all.contains("The worst feature of each sampler"));
    assert!(all.contains("Distribution of z"));
    assert!(all.contains("Replicates: are the chi-square p-values uniform?"));
    assert!(all.contains("placement biased: the sampler is not uniform"));
    // The legend's ticks.
    for tick in ["-3", "-2", "+2", "+3"] {
        assert!(pages[0].contains(&format!(" {tick} ")), "{tick}");
    }
}

#[test]
fn replicates_are_the_same_at_any_thread_count() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let ta = bias(a.path(), &["--replicates", "3", "-j", "1"]);
    let tb = bias(b.path(), &["--replicates", "3", "-j", "2"]);
    assert_eq!(ta, tb);
    let read = |d: &Path| std::fs::read(d.join("bias.replicates.csv")).unwrap();
    assert_eq!(read(a.path()), read(b.path()));
}

#[test]
fn replicates_are_bounded_and_refused_with_shards() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    let o = out.to_str().unwrap();
    let base = ["catan", "bias", "--samples", "1000", "--out", o];
    for (extra, needle) in [
        (vec!["--replicates", "0"], "1 to 1000"),
        (vec!["--replicates", "1001"], "1 to 1000"),
        (vec!["--replicates", "2", "--shard", "0/2"], "--shard"),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        fails_with(&args, None, needle);
    }
    assert!(common::files_in(dir.path()).is_empty());
}

#[test]
fn job_files_take_replicates() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let job = dir.path().join("job.toml");
    std::fs::write(
        &job,
        format!(
            "seed = 3\nout_dir = \"{}\"\n[[output]]\nname = \"bias.csv\"\nkind = \"catan-bias\"\nsamples = 1000\nsamplers = \"full-rejection\"\nreplicates = 4\n",
            out_dir.display()
        ),
    )
    .unwrap();
    bin()
        .args(["run", job.to_str().unwrap()])
        .assert()
        .success();
    let text = std::fs::read_to_string(out_dir.join("bias.replicates.csv")).unwrap();
    // 1000 boards are too few for a chi-square: the rows say so with empty cells.
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(text
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("1,3,full-rejection,,,,"));
}
