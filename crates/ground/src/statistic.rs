//! Statistics as a game capability: a game (or its library) says what one kind of
//! statistics counts and what the totals become; the jobs layer runs every kind the
//! same way (whole runs, shards, part files, merging, writing all files or none).
//!
//! A kind is a type implementing [`Statistic`], listed by
//! [`crate::game::Registry::visit_statistic`]. It counts through a [`Runner`] (the pipeline's
//! `batch::study` in practice: the game never sees a thread) and gives its results as
//! [`StatFile`]s, which the caller writes together.

use crate::canvas::Canvas;
use crate::shard::Shard;
use crate::stats::Study;
use crate::{Error, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Runs a [`Study`] over the items of a shard: what a [`Statistic`] counts with.
pub trait Runner: Sync {
    /// The merged counts of `study` over the items of `shard` among `0..samples`
    /// (with a progress bar labelled `label` when `progress`).
    fn study<S: Study>(
        &self,
        study: &S,
        samples: u64,
        shard: Shard,
        progress: bool,
        label: &str,
    ) -> Result<S::Counts>;
}

/// Where a statistics output's files go: the main CSV, and for some kinds a summary
/// CSV, a report and a replicates CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsFiles {
    /// The main CSV (for Catan bias, the per-hex one).
    pub out: PathBuf,
    /// The summary CSV, for kinds that write one (see [`StatsFiles::with_default_summary`]).
    pub summary: Option<PathBuf>,
    /// The PDF report (None: no report).
    pub report: Option<PathBuf>,
    /// The replicates CSV, for kinds that write one.
    pub replicates: Option<PathBuf>,
}

impl StatsFiles {
    /// Just the main CSV `out`.
    pub fn single(out: PathBuf) -> Self {
        StatsFiles {
            out,
            summary: None,
            report: None,
            replicates: None,
        }
    }

    /// Without a summary path, the summary goes beside `out`, ending `.summary.csv`
    /// (the one place this default lives).
    pub fn with_default_summary(mut self) -> Self {
        if self.summary.is_none() {
            self.summary = Some(self.out.with_extension("summary.csv"));
        }
        self
    }

    /// The files with the flags that name them, for collision checks.
    pub fn named(&self) -> Vec<(&'static str, &Path)> {
        let mut v = vec![("--out", self.out.as_path())];
        v.extend(self.summary.as_deref().map(|p| ("--summary", p)));
        v.extend(self.report.as_deref().map(|p| ("--report", p)));
        v.extend(
            self.replicates
                .as_deref()
                .map(|p| ("the replicates CSV (beside --out)", p)),
        );
        v
    }

    /// Every file these describe.
    pub fn all(&self) -> Vec<PathBuf> {
        let mut v = vec![self.out.clone()];
        v.extend(self.summary.clone());
        v.extend(self.report.clone());
        v.extend(self.replicates.clone());
        v
    }
}

/// One file of a statistic's results, made but not yet written.
pub enum StatFile {
    /// A CSV's bytes.
    Csv {
        /// Where it goes.
        path: PathBuf,
        /// Its bytes.
        bytes: Vec<u8>,
    },
    /// A report: pages to set as a PDF.
    Pages {
        /// Where it goes.
        path: PathBuf,
        /// The PDF's title.
        title: &'static str,
        /// The page size in mm.
        size: (f32, f32),
        /// The pages.
        pages: Vec<Canvas>,
    },
}

impl StatFile {
    /// The CSV of `rows` (a header line from the first row's field names) for `path`.
    pub fn csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<StatFile> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let bad = |e: &dyn std::fmt::Display| {
            Error::invalid(format!("cannot write {}: {e}", path.display()))
        };
        for r in rows {
            w.serialize(r).map_err(|e| bad(&e))?;
        }
        let bytes = w.into_inner().map_err(|e| bad(&e))?;
        Ok(StatFile::Csv {
            path: path.to_path_buf(),
            bytes,
        })
    }
}

/// A kind of statistics output: the plug-in point for statistics, above the counting
/// plug-in [`Study`]. A kind says what its options are, what parts must share to merge
/// (its header), how to count one shard (one or more studies through a [`Runner`]),
/// how counts merge, and what the totals become: files and a table.
///
/// Everything else is done once for every kind by the jobs layer: the thread pool,
/// whole runs and part files, checking and adding up parts, writing the files all
/// together or not at all.
///
/// A kind with one CSV of its counts:
///
/// ```
/// use puzzlebook_ground::statistic::{Runner, StatFile, Statistic, StatsFiles};
/// use puzzlebook_ground::shard::Shard;
/// use puzzlebook_ground::stats::Study;
/// use puzzlebook_ground::Result;
/// use serde::{Deserialize, Serialize};
///
/// /// Counts of the last digit of each item index.
/// struct LastDigit;
///
/// impl Study for LastDigit {
///     type Counts = Vec<u64>;
///     fn empty(&self) -> Vec<u64> {
///         vec![0; 10]
///     }
///     fn count(&self, index: u64, c: &mut Vec<u64>) -> Result<()> {
///         c[(index % 10) as usize] += 1;
///         Ok(())
///     }
///     fn merge(&self, into: &mut Vec<u64>, other: Vec<u64>) {
///         into.iter_mut().zip(other).for_each(|(a, b)| *a += b);
///     }
/// }
///
/// #[derive(Clone, Serialize, Deserialize)]
/// struct Options {
///     samples: u64,
/// }
///
/// struct Digits(Options);
///
/// #[derive(Serialize)]
/// struct Row {
///     digit: usize,
///     count: u64,
/// }
///
/// impl Statistic for Digits {
///     const KIND: &'static str = "digits";
///     type Spec = Options;
///     type Header = Options;
///     type Counts = Vec<u64>;
///     type Totals = Vec<u64>;
///     fn new(spec: &Options, _seed: u64) -> Result<Self> {
///         Ok(Digits(spec.clone()))
///     }
///     fn header(&self) -> Options {
///         self.0.clone()
///     }
///     fn from_header(h: Options) -> Result<Self> {
///         Ok(Digits(h))
///     }
///     fn total(spec: &Options, shard: Shard) -> u64 {
///         shard.len(0, spec.samples)
///     }
///     fn samples(&self) -> u64 {
///         self.0.samples
///     }
///     fn count<R: Runner>(
///         &self,
///         run: &R,
///         shard: Shard,
///         progress: bool,
///         _note: &mut (dyn FnMut(&str) + Send),
///     ) -> Result<Vec<u64>> {
///         run.study(&LastDigit, self.0.samples, shard, progress, "items")
///     }
///     fn fits(&self, c: &Vec<u64>, want: u64) -> bool {
///         c.len() == 10 && c.iter().sum::<u64>() == want
///     }
///     fn merge(&self, into: &mut Vec<u64>, other: Vec<u64>) {
///         LastDigit.merge(into, other)
///     }
///     fn finish<R: Runner>(&self, _run: &R, c: Vec<u64>) -> Result<Vec<u64>> {
///         Ok(c)
///     }
///     fn outputs(&self, c: &Vec<u64>, files: &StatsFiles) -> Result<Vec<StatFile>> {
///         let rows: Vec<Row> = c.iter().enumerate().map(|(digit, &count)| Row { digit, count }).collect();
///         Ok(vec![StatFile::csv(&files.out, &rows)?])
///     }
///     fn table(&self, c: &Vec<u64>) -> String {
///         format!("{c:?}\n")
///     }
/// }
///
/// # fn main() -> Result<()> {
/// // Counted on the pipeline's pool: two shards add up to the whole run.
/// let stat = Digits::new(&Options { samples: 25 }, 1)?;
/// let run = puzzlebook_ground::batch::Pipeline;
/// let mut half = stat.count(&run, Shard { index: 0, count: 2 }, false, &mut |_| {})?;
/// let other = stat.count(&run, Shard { index: 1, count: 2 }, false, &mut |_| {})?;
/// stat.merge(&mut half, other);
/// assert!(stat.fits(&half, 25));
/// assert_eq!(half[4], 3); // 4, 14 and 24
/// # Ok(())
/// # }
/// ```
pub trait Statistic: Sized + Sync + 'static {
    /// The kind's name in job files and part headers (`catan-bias`, ...).
    const KIND: &'static str;
    /// Its options: a job file's `[[output]]` keys (besides `name`, `kind` and `seed`)
    /// and the command line's flags.
    type Spec: Serialize + DeserializeOwned + Clone;
    /// What part headers record: what parts must share to merge.
    type Header: Serialize + DeserializeOwned;
    /// Mergeable counts of one shard: a part file's payload.
    type Counts: Serialize + DeserializeOwned + Send;
    /// What the whole run's counts become (the counts themselves, or a comparison
    /// with expectations).
    type Totals: Send;

    /// Check `spec` for `seed` (everything that can be checked before any work).
    fn new(spec: &Self::Spec, seed: u64) -> Result<Self>;
    /// The configuration recorded in part headers.
    fn header(&self) -> Self::Header;
    /// The statistic a part header describes, checked like a new one.
    fn from_header(header: Self::Header) -> Result<Self>;
    /// Items a run of `spec` counts in `shard`, for progress reports (without the
    /// checks of [`Statistic::new`]).
    fn total(spec: &Self::Spec, shard: Shard) -> u64;
    /// The files of a job output named `out` (with `dir` the output folder): the
    /// extra files its options name. Just `out` unless the kind writes more.
    fn job_files(_spec: &Self::Spec, out: PathBuf, _dir: &Path) -> StatsFiles {
        StatsFiles::single(out)
    }
    /// Items a whole run counts (per sampler or per size, for kinds with several).
    fn samples(&self) -> u64;
    /// The files a whole run writes, with their defaults filled in.
    fn files(&self, files: &StatsFiles) -> StatsFiles {
        files.clone()
    }
    /// Count the items of `shard` with `run` (with progress bars when `progress`),
    /// giving lines for standard error to `note`.
    fn count<R: Runner>(
        &self,
        run: &R,
        shard: Shard,
        progress: bool,
        note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Self::Counts>;
    /// Whether a part's counts are `want` items in the shape this run counts.
    fn fits(&self, counts: &Self::Counts, want: u64) -> bool;
    /// Add `other` to `into`.
    fn merge(&self, into: &mut Self::Counts, other: Self::Counts);
    /// The whole run's counts made into results (counting more with `run` if need be).
    fn finish<R: Runner>(&self, run: &R, counts: Self::Counts) -> Result<Self::Totals>;
    /// The results as files, for `files` (as given by [`Statistic::files`]).
    fn outputs(&self, totals: &Self::Totals, files: &StatsFiles) -> Result<Vec<StatFile>>;
    /// The table for standard output (empty when the kind has none).
    fn table(&self, totals: &Self::Totals) -> String;
}

/// Something to do with a kind of statistics (see [`crate::game::Registry::visit_statistic`]).
pub trait StatVisitor {
    /// What it gives.
    type Out;
    /// Do it with the kind `S`.
    fn visit<S: Statistic>(self) -> Self::Out;
}
