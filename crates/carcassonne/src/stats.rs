//! `carcassonne stats`: for each landscape size, the distribution of the score and of
//! the feature counts over many generated landscapes, as mergeable histograms. The CSV
//! is in long form: one row per (size, measure, value) with the number of landscapes.

use super::{generate, score};
use ground::seed::item_rng;
use ground::shard::Shard;
use ground::statistic::{Runner, StatFile, Statistic, StatsFiles};
use ground::stats::Study;
use ground::{Error, Result};
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
        let mut rng = ground::seed::item_rng(5, "summary-test", 0);
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

fn sizes() -> Vec<usize> {
    vec![10, 20, 40, 72]
}

/// `kind = "carcassonne-stats"`: the options of `carcassonne stats`.
/// The command line's flags are these fields (declared once, here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct CarcassonneStatsSpec {
    /// Landscapes per size
    #[arg(long)]
    pub samples: u64,
    /// Landscape sizes in tiles, comma-separated, each 1 to 72
    #[serde(default = "sizes")]
    #[arg(long, value_delimiter = ',', default_values_t = sizes())]
    pub tiles: Vec<usize>,
}

/// What a part of `carcassonne-stats` records: the options and the seed.
#[derive(Serialize, Deserialize)]
pub struct Header {
    seed: u64,
    samples: u64,
    tiles: Vec<usize>,
}

/// `carcassonne-stats`: score and feature histograms, one per landscape size.
pub struct CarcassonneStats {
    spec: CarcassonneStatsSpec,
    seed: u64,
}

impl Statistic for CarcassonneStats {
    const KIND: &'static str = "carcassonne-stats";
    type Spec = CarcassonneStatsSpec;
    type Header = Header;
    type Counts = Vec<Hist>;
    type Totals = Vec<Hist>;

    fn new(spec: &CarcassonneStatsSpec, seed: u64) -> Result<Self> {
        ground::limits::check_samples("samples", spec.samples, "landscapes per size")?;
        if spec.tiles.is_empty() || spec.tiles.iter().any(|t| !(1..=72).contains(t)) {
            return Err(Error::param(
                "tiles",
                "must be landscape sizes of 1 to 72 tiles",
            ));
        }
        // Each size is one set of rows in the CSV: a size twice would write them twice.
        if let Some((_, &t)) = spec
            .tiles
            .iter()
            .enumerate()
            .find(|&(k, t)| spec.tiles[..k].contains(t))
        {
            return Err(Error::param(
                "tiles",
                format!("lists {t} more than once: give each landscape size once"),
            ));
        }
        Ok(CarcassonneStats {
            spec: spec.clone(),
            seed,
        })
    }

    fn header(&self) -> Header {
        Header {
            seed: self.seed,
            samples: self.spec.samples,
            tiles: self.spec.tiles.clone(),
        }
    }

    fn from_header(h: Header) -> Result<Self> {
        let spec = CarcassonneStatsSpec {
            samples: h.samples,
            tiles: h.tiles,
        };
        CarcassonneStats::new(&spec, h.seed)
    }

    fn total(spec: &CarcassonneStatsSpec, shard: Shard) -> u64 {
        shard
            .len(0, spec.samples)
            .saturating_mul(spec.tiles.len() as u64)
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
    ) -> Result<Vec<Hist>> {
        self.spec
            .tiles
            .iter()
            .map(|&tiles| {
                let study = SizeStudy {
                    seed: self.seed,
                    tiles,
                };
                let label = format!("{tiles} tiles");
                run.study(&study, self.spec.samples, shard, progress, &label)
            })
            .collect()
    }

    fn fits(&self, h: &Vec<Hist>, want: u64) -> bool {
        h.len() == self.spec.tiles.len()
            && h.iter().all(|x| {
                x.0.len() == MEASURES.len() && x.0.iter().all(|m| m.iter().sum::<u64>() == want)
            })
    }

    fn merge(&self, into: &mut Vec<Hist>, other: Vec<Hist>) {
        for (a, b) in into.iter_mut().zip(other) {
            a.add_all(b);
        }
    }

    fn finish<R: Runner>(&self, _run: &R, counts: Vec<Hist>) -> Result<Vec<Hist>> {
        Ok(counts)
    }

    /// The long-form CSV of the histograms, one per size of `spec.tiles`.
    fn outputs(&self, hists: &Vec<Hist>, files: &StatsFiles) -> Result<Vec<StatFile>> {
        let mut all = Vec::new();
        for (&t, h) in self.spec.tiles.iter().zip(hists) {
            all.extend(rows(self.seed, t, h));
        }
        Ok(vec![StatFile::csv(&files.out, &all)?])
    }

    /// Per size, the score's mean and percentiles and the mean feature counts.
    fn table(&self, hists: &Vec<Hist>) -> String {
        let mut t = String::from("tiles  landscapes  score: mean  p10  p50  p90   complete cities  roads  monasteries (means)\n");
        for (&tiles, h) in self.spec.tiles.iter().zip(hists) {
            let (mean, p10, p50, p90) = summary(&h.0[0]);
            let m = |k: usize| summary(&h.0[k]).0;
            t += &format!(
                "{tiles:>5}  {:>10}  {mean:>11.2} {p10:>4} {p50:>4} {p90:>4}   {:>15.2} {:>6.2} {:>12.2}\n",
                h.0[0].iter().sum::<u64>(),
                m(1),
                m(3),
                m(5)
            );
        }
        t
    }
}
