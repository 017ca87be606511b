//! Statistics outputs: counts that shards add up, and the CSVs (and report) computed
//! from the totals.

use super::*;
use serde::de::DeserializeOwned;

/// Where a statistics output's files go: the main CSV, and for Catan the summary CSV
/// and an optional report.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsFiles {
    /// The main CSV (for Catan, the per-hex one).
    pub out: PathBuf,
    /// Catan only: the summary CSV (see [`StatsFiles::with_default_summary`]).
    pub summary: Option<PathBuf>,
    /// Catan only: the PDF report (None: no report).
    pub report: Option<PathBuf>,
    /// Catan with replicates only: the replicates CSV (filled in beside `out`,
    /// ending `.replicates.csv`).
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

    /// A Catan bias run's files: without a summary path, the summary goes beside
    /// `out`, ending `.summary.csv` (the one place this default lives).
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

pub(super) fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    csv_file(path, rows)?.commit()
}

/// A CSV written to its temporary file, not yet in place.
pub(super) fn csv_file<T: Serialize>(path: &Path, rows: &[T]) -> Result<AtomicFile> {
    let file = AtomicFile::create(path)?;
    let mut w = csv::Writer::from_writer(file);
    for r in rows {
        w.serialize(r)
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?;
    }
    w.into_inner()
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))
}

/// The shard a part says it holds.
fn shard_of(p: &PartFile) -> Shard {
    Shard {
        index: p.header.shard[0],
        count: p.header.shard[1],
    }
}

fn bad_counts(p: &PartFile, want: u64) -> Error {
    Error::invalid(format!(
        "{}: its counts do not fit its header (expected {want} samples in the shape this run counts): a damaged part; make it again",
        p.path.display()
    ))
}

pub(super) fn write_part(path: &Path, header: &Header, state: &impl Serialize) -> Result<()> {
    let mut sink = Sink::open_part(&Dest::File(path.to_path_buf()))?;
    sink.write(header.line().as_bytes())?;
    sink.write((serde_json::to_string(state).expect("counts serialise") + "\n").as_bytes())?;
    sink.finish()
}

// ---------------------------------------------------------------- the plug-in point

/// A statistics output: the plug-in point for a kind of statistics, above the counting
/// plug-in [`crate::stats::Study`]. A kind says what its parameters are (its spec,
/// recorded in part headers), how to count one shard (through `batch::study`, one or
/// more studies), how counts merge, and how the totals become files and a table.
///
/// Everything else is done once for every kind by [`make_statistic`] and [`merge_parts`]: the
/// thread pool, whole runs and part files, checking and adding up parts, writing the
/// files all together or not at all.
pub trait Statistic: Sized + Sync {
    /// The kind's name in job files and part headers (`catan-bias`, ...).
    const KIND: &'static str;
    /// Mergeable counts of one shard: a part file's payload.
    type Counts: Serialize + DeserializeOwned + Send;
    /// What the whole run's counts become (the counts themselves, or a comparison
    /// with expectations).
    type Totals: Send;

    /// The statistic a part header's configuration describes, checked like a new one.
    fn from_header(config: &Value) -> Result<Self>;
    /// The configuration recorded in part headers: what parts must share to merge.
    fn header(&self) -> Value;
    /// Items a whole run counts (per sampler or per size, for kinds with several).
    fn samples(&self) -> u64;
    /// The files a whole run writes, with their defaults filled in.
    fn files(&self, files: &StatsFiles) -> StatsFiles {
        files.clone()
    }
    /// Count the items of `shard` on the current rayon pool (with progress bars when
    /// `progress`), giving lines for standard error to `note`.
    fn count(
        &self,
        shard: Shard,
        progress: bool,
        note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<Self::Counts>;
    /// Whether a part's counts are `want` items in the shape this run counts.
    fn fits(&self, counts: &Self::Counts, want: u64) -> bool;
    /// Add `other` to `into`.
    fn merge(&self, into: &mut Self::Counts, other: Self::Counts);
    /// The whole run's counts made into results (on the current rayon pool).
    fn finish(&self, counts: Self::Counts) -> Result<Self::Totals>;
    /// Write the results into `files` (as given by [`Statistic::files`]): all of them
    /// or none.
    fn write(&self, totals: &Self::Totals, files: &StatsFiles) -> Result<()>;
    /// The table for standard output (empty when the kind has none).
    fn table(&self, totals: &Self::Totals) -> String;
}

/// A statistics output checked and ready to make: one value per kind.
pub enum Prepared {
    /// `catan-bias` (boxed: its sampling context is large).
    CatanBias(Box<catan_bias::CatanBias>),
    /// `carcassonne-stats`.
    CarcassonneStats(carcassonne_stats::CarcassonneStats),
    /// `number-match-stats`.
    NumberMatchStats(match_stats::MatchStats),
    /// `catan-stats` (boxed: its sampling context is large).
    CatanStats(Box<super::catan_stats::CatanStats>),
}

/// Something to do with a statistic of any kind (see [`Prepared::visit`]).
pub trait StatVisitor {
    /// What it gives.
    type Out;
    /// Do it with `stat`.
    fn visit<S: Statistic>(self, stat: &S) -> Result<Self::Out>;
}

impl Prepared {
    /// Check a statistics `spec` for `seed` (everything that can be checked before any
    /// work). None when `spec` is not a statistics kind.
    pub fn new(spec: &Spec, seed: u64) -> Result<Option<Prepared>> {
        Ok(Some(match spec {
            Spec::CatanBias(b) => {
                Prepared::CatanBias(Box::new(catan_bias::CatanBias::new(b, seed)?))
            }
            Spec::CarcassonneStats(c) => {
                Prepared::CarcassonneStats(carcassonne_stats::CarcassonneStats::new(c, seed)?)
            }
            Spec::NumberMatchStats(m) => {
                Prepared::NumberMatchStats(match_stats::MatchStats::new(m, seed)?)
            }
            Spec::CatanStats(c) => {
                Prepared::CatanStats(Box::new(super::catan_stats::CatanStats::new(c, seed)?))
            }
            Spec::Items(_) | Spec::Book(_) | Spec::Images(_) => return Ok(None),
        }))
    }

    /// The statistic of a part of kind `kind` (None: not a statistics kind).
    pub fn from_part(kind: &str, config: &Value) -> Result<Option<Prepared>> {
        use super::catan_stats::CatanStats as S;
        use carcassonne_stats::CarcassonneStats as C;
        use catan_bias::CatanBias as B;
        use match_stats::MatchStats as M;
        Ok(Some(match kind {
            B::KIND => Prepared::CatanBias(Box::new(B::from_header(config)?)),
            C::KIND => Prepared::CarcassonneStats(C::from_header(config)?),
            M::KIND => Prepared::NumberMatchStats(M::from_header(config)?),
            S::KIND => Prepared::CatanStats(Box::new(S::from_header(config)?)),
            _ => return Ok(None),
        }))
    }

    /// Call `v` with the statistic.
    pub fn visit<V: StatVisitor>(&self, v: V) -> Result<V::Out> {
        match self {
            Prepared::CatanBias(s) => v.visit(s.as_ref()),
            Prepared::CarcassonneStats(s) => v.visit(s),
            Prepared::NumberMatchStats(s) => v.visit(s),
            Prepared::CatanStats(s) => v.visit(s.as_ref()),
        }
    }
}

/// Make a statistics output: the whole run into the files of `Target::Whole`, or
/// the part of `shard`. Gives what was made and the table (empty for a part).
pub fn make_statistic<S: Statistic>(
    stat: &S,
    shard: Shard,
    target: &Target,
    env: &Env,
    note: &mut (dyn FnMut(&str) + Send),
) -> Result<(Made, String)> {
    let pool = crate::batch::thread_pool(env.jobs)?;
    let counts = pool.install(|| stat.count(shard, env.progress, note))?;
    let (files, table) = match target {
        Target::Whole(f) => {
            let files = stat.files(f);
            let totals = pool.install(|| stat.finish(counts))?;
            stat.write(&totals, &files)?;
            (files.all(), stat.table(&totals))
        }
        Target::Part { path, tag } => {
            let header = Header::new(S::KIND, stat.header(), shard).tagged(tag.as_deref());
            write_part(path, &header, &counts)?;
            (vec![path.clone()], String::new())
        }
    };
    let made = Made {
        published: Vec::new(),
        items: shard.len(0, stat.samples()),
        files,
        note: String::new(),
    };
    Ok((made, table))
}

/// Merge statistics parts (checked to be the shards of one run) into the files of a
/// whole run: the same bytes a whole run writes. Gives what was made and the table.
pub(in crate::jobs) fn merge_parts<S: Statistic>(
    stat: &S,
    parts: &mut [PartFile],
    files: &StatsFiles,
) -> Result<(Made, String)> {
    let mut total: Option<S::Counts> = None;
    for p in parts.iter_mut() {
        let c: S::Counts = p.state()?;
        let want = shard_of(p).len(0, stat.samples());
        if !stat.fits(&c, want) {
            return Err(bad_counts(p, want));
        }
        match &mut total {
            None => total = Some(c),
            Some(t) => stat.merge(t, c),
        }
    }
    let total = total.ok_or_else(|| Error::invalid("no parts to merge"))?;
    let files = stat.files(files);
    let inputs: Vec<(&str, &Path)> = parts
        .iter()
        .map(|p| ("one of the parts", p.path.as_path()))
        .collect();
    crate::output::check_distinct(&files.named(), &inputs)?;
    let totals = stat.finish(total)?;
    stat.write(&totals, &files)?;
    let made = Made {
        published: Vec::new(),
        items: stat.samples(),
        files: files.all(),
        note: String::new(),
    };
    Ok((made, stat.table(&totals)))
}

/// Carcassonne statistics: histograms per landscape size.
pub mod carcassonne_stats {
    use super::*;
    use crate::games::carcassonne::stats::{self, Hist};

    /// `carcassonne-stats`: score and feature histograms, one per landscape size.
    pub struct CarcassonneStats {
        spec: CarcassonneStatsSpec,
        seed: u64,
    }

    impl CarcassonneStats {
        /// Check `spec` for `seed`.
        pub fn new(spec: &CarcassonneStatsSpec, seed: u64) -> Result<Self> {
            crate::limits::check_samples("samples", spec.samples, "landscapes per size")?;
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
    }

    impl Statistic for CarcassonneStats {
        const KIND: &'static str = "carcassonne-stats";
        type Counts = Vec<Hist>;
        type Totals = Vec<Hist>;

        fn from_header(cfg: &Value) -> Result<Self> {
            let spec = CarcassonneStatsSpec {
                samples: cfg["samples"]
                    .as_u64()
                    .ok_or_else(|| bad_config("samples"))?,
                tiles: serde_json::from_value(cfg["tiles"].clone())
                    .map_err(|_| bad_config("tiles"))?,
            };
            let seed = cfg["seed"].as_u64().ok_or_else(|| bad_config("seed"))?;
            CarcassonneStats::new(&spec, seed)
        }

        fn header(&self) -> Value {
            json!({"seed": self.seed, "samples": self.spec.samples, "tiles": self.spec.tiles})
        }

        fn samples(&self) -> u64 {
            self.spec.samples
        }

        fn count(
            &self,
            shard: Shard,
            progress: bool,
            _note: &mut (dyn FnMut(&str) + Send),
        ) -> Result<Vec<Hist>> {
            self.spec
                .tiles
                .iter()
                .map(|&tiles| {
                    let study = stats::SizeStudy {
                        seed: self.seed,
                        tiles,
                    };
                    let label = format!("{tiles} tiles");
                    crate::batch::study(&study, self.spec.samples, shard, progress, &label)
                })
                .collect()
        }

        fn fits(&self, h: &Vec<Hist>, want: u64) -> bool {
            h.len() == self.spec.tiles.len()
                && h.iter().all(|x| {
                    x.0.len() == stats::MEASURES.len()
                        && x.0.iter().all(|m| m.iter().sum::<u64>() == want)
                })
        }

        fn merge(&self, into: &mut Vec<Hist>, other: Vec<Hist>) {
            for (a, b) in into.iter_mut().zip(other) {
                a.add_all(b);
            }
        }

        fn finish(&self, counts: Vec<Hist>) -> Result<Vec<Hist>> {
            Ok(counts)
        }

        /// The long-form CSV of the histograms, one per size of `spec.tiles`.
        fn write(&self, hists: &Vec<Hist>, files: &StatsFiles) -> Result<()> {
            let mut rows = Vec::new();
            for (&t, h) in self.spec.tiles.iter().zip(hists) {
                rows.extend(stats::rows(self.seed, t, h));
            }
            write_csv(&files.out, &rows)
        }

        /// Per size, the score's mean and percentiles and the mean feature counts.
        fn table(&self, hists: &Vec<Hist>) -> String {
            let mut t = String::from("tiles  landscapes  score: mean  p10  p50  p90   complete cities  roads  monasteries (means)\n");
            for (&tiles, h) in self.spec.tiles.iter().zip(hists) {
                let (mean, p10, p50, p90) = stats::summary(&h.0[0]);
                let m = |k: usize| stats::summary(&h.0[k]).0;
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
}

/// Number Match statistics: counts per add limit.
pub mod match_stats {
    use super::*;
    use crate::games::number_match::{self, stats, Append, NumberMatch};

    /// `number-match-stats`: clearable boards and search effort per add limit.
    pub struct MatchStats {
        spec: MatchStatsSpec,
        seed: u64,
    }

    impl MatchStats {
        /// Check `spec` for `seed`.
        pub fn new(spec: &MatchStatsSpec, seed: u64) -> Result<Self> {
            let stat = MatchStats {
                spec: spec.clone(),
                seed,
            };
            stat.config(Shard::default())?;
            Ok(stat)
        }

        /// The study of the boards of `shard`.
        fn config(&self, shard: Shard) -> Result<stats::Config> {
            let spec = &self.spec;
            crate::limits::check_samples("samples", spec.samples, "boards")?;
            NumberMatch::check_length(spec.length)?;
            if spec.max_nodes == 0 {
                return Err(Error::param(
                    "max_nodes",
                    "is 0: give the search at least 1 node",
                ));
            }
            NumberMatch::check_named(spec.columns, spec.max_adds, "max_adds")?;
            let append: Append = spec.append.parse()?;
            NumberMatch::check_growth(spec.length, spec.columns, spec.max_adds, append)?;
            Ok(stats::Config {
                seed: self.seed,
                length: spec.length,
                max_adds: spec.max_adds,
                max_nodes: spec.max_nodes,
                rules: number_match::Rules {
                    cols: spec.columns,
                    diagonals: spec.diagonals,
                    append,
                },
                samples: spec.samples,
                shard,
                mc_trials: spec.monte_carlo_trials,
                timings: spec.timings,
            })
        }
    }

    impl Statistic for MatchStats {
        const KIND: &'static str = "number-match-stats";
        type Counts = stats::Counts;
        type Totals = stats::Counts;

        fn from_header(v: &Value) -> Result<Self> {
            let seed = v["seed"].as_u64().ok_or_else(|| bad_config("seed"))?;
            let mut v = v.clone();
            if let Some(o) = v.as_object_mut() {
                o.remove("seed");
            }
            let spec: MatchStatsSpec = serde_json::from_value(v)
                .map_err(|e| Error::invalid(format!("bad part header: {e}")))?;
            MatchStats::new(&spec, seed)
        }

        fn header(&self) -> Value {
            let spec = &self.spec;
            json!({
                "seed": self.seed, "samples": spec.samples, "length": spec.length,
                "max_adds": spec.max_adds, "max_nodes": spec.max_nodes, "columns": spec.columns,
                "append": spec.append, "diagonals": spec.diagonals,
                "monte_carlo_trials": spec.monte_carlo_trials, "timings": spec.timings,
            })
        }

        fn samples(&self) -> u64 {
            self.spec.samples
        }

        fn count(
            &self,
            shard: Shard,
            progress: bool,
            _note: &mut (dyn FnMut(&str) + Send),
        ) -> Result<stats::Counts> {
            let cfg = self.config(shard)?;
            crate::batch::study(&cfg, cfg.samples, shard, progress, "boards")
        }

        fn fits(&self, c: &stats::Counts, want: u64) -> bool {
            c.fits(&stats::Counts::new(self.spec.max_adds), want)
        }

        fn merge(&self, into: &mut stats::Counts, other: stats::Counts) {
            into.add_all(other);
        }

        fn finish(&self, counts: stats::Counts) -> Result<stats::Counts> {
            Ok(counts)
        }

        fn write(&self, counts: &stats::Counts, files: &StatsFiles) -> Result<()> {
            let cfg = self.config(Shard::default())?;
            write_csv(&files.out, &stats::rows(&cfg, counts))
        }

        /// Per add limit: how many boards can be cleared, and the search it took.
        fn table(&self, counts: &stats::Counts) -> String {
            let Ok(cfg) = self.config(Shard::default()) else {
                return String::new();
            };
            let mut t = String::from(
                "adds  boards  clearable  share    unsolvable  unknown  fewest adds here   nodes: p50      p90      p99      max\n",
            );
            for r in stats::rows(&cfg, counts) {
                t += &format!(
                    "{:>4}  {:>6}  {:>9}  {:>6.2}%  {:>10}  {:>7}  {:>16}   {:>10} {:>8} {:>8} {:>8}\n",
                    r.adds,
                    r.boards,
                    r.clearable,
                    100.0 * r.clearable_share,
                    r.unsolvable,
                    r.unknown,
                    r.min_adds_exactly,
                    r.nodes_p50,
                    r.nodes_p90,
                    r.nodes_p99,
                    r.nodes_max
                );
            }
            t
        }
    }
}

/// Catan bias: counts per sampler.
pub mod catan_bias {
    use super::*;
    use crate::games::catan::{board::BoardKind, rules::Rules};
    use crate::sampling::{bias, context, Ctx, Sampler, ALL_SAMPLERS};

    /// The context and the samplers that will run (`direct` only where it applies,
    /// unless asked for by name, which is then an error where it cannot run).
    ///
    /// Everything is checked here, before any work: the sample counts (at most
    /// [`crate::limits::MAX_SAMPLES`]), that some board meets the rules (an exhaustive
    /// search), and that every sampler that will run, and `full-rejection` for the
    /// reference run of rules without exact expectations, can draw such boards at a
    /// usable rate (see `sampling::feasibility::pilot`).
    pub fn setup(spec: &BiasSpec) -> Result<(crate::sampling::samplers::Ctx, Vec<Sampler>)> {
        crate::limits::check_samples("samples", spec.samples, "boards per sampler")?;
        crate::limits::check_samples(
            "reference_samples",
            spec.reference_samples,
            "boards of the reference run",
        )?;
        if spec.replicates == 0 || spec.replicates > bias::MAX_REPLICATES {
            return Err(Error::param(
                "replicates",
                format!(
                    "is {}: give 1 to {} replicates",
                    spec.replicates,
                    bias::MAX_REPLICATES
                ),
            ));
        }
        crate::limits::check_samples(
            "samples",
            spec.samples.saturating_mul(u64::from(spec.replicates)),
            "boards per sampler over all replicates",
        )?;
        let kind: BoardKind = spec.board.parse()?;
        let rules: Rules = spec.rules.parse()?;
        let explicit = spec.samplers.is_some();
        let samplers: Vec<Sampler> = match &spec.samplers {
            Some(list) => list
                .split(',')
                .map(|s| s.trim().parse::<Sampler>())
                .collect::<Result<_, _>>()?,
            None => ALL_SAMPLERS.to_vec(),
        };
        // Rules no board meets are refused whatever the samplers.
        crate::sampling::feasibility::decide_rules(kind, &rules)?;
        let ctx = match context(kind, &rules, Sampler::Direct) {
            Ok(ctx) => ctx,
            Err(e) if explicit && samplers.contains(&Sampler::Direct) => return Err(e),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            // No table for direct: a reference run, if needed, is of full-rejection.
            Err(_) => context(kind, &rules, Sampler::FullRejection).map_err(|e| match e {
                Error::Invalid(m) if !samplers.contains(&Sampler::FullRejection) => {
                    Error::Invalid(format!(
                        "the reference run (full-rejection boards, for rules without exact expectations) cannot be made: {m}"
                    ))
                }
                e => e,
            })?,
        };
        let samplers: Vec<Sampler> = samplers
            .into_iter()
            .filter(|&s| s != Sampler::Direct || ctx.has_direct())
            .collect();
        for &s in &samplers {
            crate::sampling::feasibility::pilot::check(&ctx, s)?;
        }
        Ok((ctx, samplers))
    }

    /// The study of `spec`'s boards in `shard`, for the samplers [`setup`] chose.
    pub(crate) fn study_config(
        spec: &BiasSpec,
        samplers: Vec<Sampler>,
        seed: u64,
        shard: Shard,
    ) -> bias::StudyConfig {
        bias::StudyConfig {
            samplers,
            seed,
            samples: spec.samples,
            shard,
            reference_samples: spec.reference_samples,
        }
    }

    /// One sampler's counts of the boards of `shard` among `0..samples`, on the
    /// current rayon pool.
    pub fn count(
        ctx: &Ctx,
        sampler: Sampler,
        cells: Option<&bias::Cells>,
        seed: u64,
        samples: u64,
        shard: Shard,
    ) -> Result<bias::Counts> {
        let study = bias::SamplerStudy::new(ctx, sampler, cells, seed);
        crate::batch::study(&study, samples, shard, false, "")
    }

    /// The counting half of a study, on the current rayon pool: per sampler, the
    /// counts of this shard's boards (with a progress bar per sampler when
    /// `show_progress`), `done(sampler, counts, seconds)` called as each finishes.
    /// Counts from shards of the same study add up to the counts of the whole run.
    pub fn count_samplers(
        ctx: &Ctx,
        cfg: &bias::StudyConfig,
        show_progress: bool,
        mut done: impl FnMut(Sampler, &bias::Counts, f64),
    ) -> Result<Vec<(Sampler, bias::Counts)>> {
        let cells = bias::cells(ctx);
        let mut all = Vec::new();
        for &s in &cfg.samplers {
            let started = std::time::Instant::now();
            let study = bias::SamplerStudy::new(ctx, s, cells.as_ref(), cfg.seed);
            let counts =
                crate::batch::study(&study, cfg.samples, cfg.shard, show_progress, s.name())?;
            done(s, &counts, started.elapsed().as_secs_f64());
            all.push((s, counts));
        }
        Ok(all)
    }

    /// The comparing half (with the reference run, for rules without exact
    /// expectations, counted on the current rayon pool).
    pub fn finish(
        ctx: &Ctx,
        cfg: &bias::StudyConfig,
        counts: Vec<(Sampler, bias::Counts)>,
    ) -> Result<bias::Study> {
        bias::finish(ctx, cfg, counts, |study, samples| {
            crate::batch::study(study, samples, Shard::default(), false, "")
        })
    }

    /// A whole study: [`count_samplers`], then [`finish`].
    pub fn study(
        ctx: &Ctx,
        cfg: &bias::StudyConfig,
        show_progress: bool,
        done: impl FnMut(Sampler, &bias::Counts, f64),
    ) -> Result<bias::Study> {
        let counts = count_samplers(ctx, cfg, show_progress, done)?;
        finish(ctx, cfg, counts)
    }

    /// `catan-bias`: per-hex statistics of the samplers against exact expectations
    /// (or a reference run), with the context and samplers [`setup`] chose.
    pub struct CatanBias {
        spec: BiasSpec,
        seed: u64,
        ctx: Ctx,
        samplers: Vec<Sampler>,
    }

    impl CatanBias {
        /// Check `spec` for `seed` (see [`setup`]).
        pub fn new(spec: &BiasSpec, seed: u64) -> Result<Self> {
            let (ctx, samplers) = setup(spec)?;
            Ok(CatanBias {
                spec: spec.clone(),
                seed,
                ctx,
                samplers,
            })
        }

        /// The samplers that will run, in output order.
        pub fn samplers(&self) -> &[Sampler] {
            &self.samplers
        }

        fn config(&self, shard: Shard) -> bias::StudyConfig {
            study_config(&self.spec, self.samplers.clone(), self.seed, shard)
        }

        /// Replicates 2 to R, each a complete study from its own seed (counted on the
        /// current rayon pool) compared with the expectations of the main study, plus
        /// replicate 1 (`study` itself): one row per replicate and sampler.
        fn replicates(
            &self,
            cfg: &bias::StudyConfig,
            study: &bias::Study,
        ) -> Result<Vec<bias::ReplicateRow>> {
            let cells = bias::cells(&self.ctx);
            let reference_n = self
                .ctx
                .table
                .is_none()
                .then_some(self.spec.reference_samples);
            let mut rows: Vec<bias::ReplicateRow> = study
                .summaries
                .iter()
                .map(|s| bias::ReplicateRow::of(1, s))
                .collect();
            for r in 2..=self.spec.replicates {
                let seed = bias::replicate_seed(self.seed, r);
                let cfg_r = bias::StudyConfig {
                    seed,
                    ..cfg.clone()
                };
                let counts = count_samplers(&self.ctx, &cfg_r, false, |_, _, _| {})?;
                let (_, summaries) = bias::compare_all(
                    &self.ctx,
                    seed,
                    &counts,
                    (&study.expectations, cells.as_ref(), reference_n),
                );
                rows.extend(summaries.iter().map(|s| bias::ReplicateRow::of(r, s)));
            }
            Ok(rows)
        }

        /// Counts of no board, in this run's shape.
        fn empty(&self) -> bias::Counts {
            bias::Counts::new(
                self.ctx.shape,
                bias::cells(&self.ctx).map_or(0, |c| c.len()),
            )
        }
    }

    /// One sampler's counts under its name: a part's payload is a list of these.
    #[derive(Serialize, Deserialize)]
    pub struct Counted {
        sampler: String,
        counts: bias::Counts,
    }

    impl Statistic for CatanBias {
        const KIND: &'static str = "catan-bias";
        type Counts = Vec<Counted>;
        type Totals = bias::Study;

        fn from_header(cfg: &Value) -> Result<Self> {
            let s = |k: &str| {
                cfg[k]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad_config(k))
            };
            let spec = BiasSpec {
                samples: cfg["samples"]
                    .as_u64()
                    .ok_or_else(|| bad_config("samples"))?,
                samplers: Some(s("samplers")?),
                board: s("board")?,
                rules: s("rules")?,
                reference_samples: cfg["reference_samples"]
                    .as_u64()
                    .ok_or_else(|| bad_config("reference_samples"))?,
                replicates: 1,
                summary: None,
                report: None,
            };
            let seed = cfg["seed"].as_u64().ok_or_else(|| bad_config("seed"))?;
            CatanBias::new(&spec, seed)
        }

        fn header(&self) -> Value {
            let names: Vec<&str> = self.samplers.iter().map(|s| s.name()).collect();
            let spec = &self.spec;
            json!({
                "seed": self.seed, "samples": spec.samples, "board": spec.board,
                "rules": spec.rules, "samplers": names.join(","),
                "reference_samples": spec.reference_samples,
            })
        }

        fn samples(&self) -> u64 {
            self.spec.samples
        }

        /// Without a summary path, the summary goes beside the per-hex CSV; with
        /// replicates, their CSV too (ending `.replicates.csv`).
        fn files(&self, files: &StatsFiles) -> StatsFiles {
            let mut f = files.clone().with_default_summary();
            if self.spec.replicates > 1 && f.replicates.is_none() {
                f.replicates = Some(f.out.with_extension("replicates.csv"));
            }
            f
        }

        /// Each sampler in turn, with a line of its speed as it finishes.
        fn count(
            &self,
            shard: Shard,
            progress: bool,
            note: &mut (dyn FnMut(&str) + Send),
        ) -> Result<Vec<Counted>> {
            let ctx = &self.ctx;
            if self.spec.replicates > 1 && shard.count > 1 {
                return Err(Error::invalid(
                    "replicates (--replicates) cannot be combined with shards (--shard): each replicate is a complete study; run replicates whole, with more threads (-j) if need be",
                ));
            }
            if ctx.table.is_none() {
                note(&format!(
                    "note: rules {} cannot be enumerated on the {} board; expectations come from a reference run of {} {} boards{}",
                    ctx.rules,
                    ctx.shape.kind.name(),
                    self.spec.reference_samples,
                    crate::sampling::bias::reference_sampler(ctx).name(),
                    if ctx.has_direct() { "" } else { ", and direct is skipped" }
                ));
            }
            let counts = count_samplers(&self.ctx, &self.config(shard), progress, |s, c, secs| {
                note(&format!(
                    "{}: {} boards, {} attempts in {:.2} s ({:.2} M boards/s)",
                    s.name(),
                    c.boards,
                    c.attempts,
                    secs,
                    c.boards as f64 / secs.max(1e-9) / 1e6
                ))
            })?;
            Ok(counts
                .into_iter()
                .map(|(s, counts)| Counted {
                    sampler: s.name().to_string(),
                    counts,
                })
                .collect())
        }

        /// The same samplers, in the same order, each with `want` boards.
        fn fits(&self, counts: &Vec<Counted>, want: u64) -> bool {
            let empty = self.empty();
            counts.len() == self.samplers.len()
                && counts
                    .iter()
                    .zip(&self.samplers)
                    .all(|(c, s)| c.sampler == s.name() && c.counts.fits(&empty, want))
        }

        fn merge(&self, into: &mut Vec<Counted>, other: Vec<Counted>) {
            for (a, b) in into.iter_mut().zip(&other) {
                a.counts.merge(&b.counts);
            }
        }

        /// The comparison with the expectations (counting the reference run first,
        /// for rules without exact expectations).
        fn finish(&self, counts: Vec<Counted>) -> Result<bias::Study> {
            let counts = self
                .samplers
                .iter()
                .zip(counts)
                .map(|(&s, c)| (s, c.counts))
                .collect();
            let cfg = self.config(Shard::default());
            let mut study = finish(&self.ctx, &cfg, counts)?;
            if self.spec.replicates > 1 {
                study.replicates = self.replicates(&cfg, &study)?;
            }
            Ok(study)
        }

        /// The per-hex CSV, the summary CSV and the report, all together or none:
        /// never a new CSV beside the old summary of another run.
        fn write(&self, study: &bias::Study, files: &StatsFiles) -> Result<()> {
            let mut set = crate::output::FileSet::new();
            set.push(csv_file(&files.out, &study.rows)?);
            if let Some(summary) = &files.summary {
                set.push(csv_file(summary, &study.summaries)?);
            }
            if let Some(path) = &files.replicates {
                set.push(csv_file(path, &study.replicates)?);
            }
            if let Some(path) = &files.report {
                let pages = crate::sampling::report::pages(self.ctx.shape, study, self.seed);
                let pdf = crate::book::render_pages(
                    "Catan bias report",
                    crate::sampling::report::PAGE,
                    &pages,
                )?;
                set.create(path)?
                    .write_all(&pdf)
                    .map_err(|e| Error::io("cannot write to", path, e))?;
            }
            set.commit()
        }

        /// One line per sampler; with replicates, the KS test of each sampler's
        /// chi-square p-values.
        fn table(&self, study: &bias::Study) -> String {
            use crate::sampling::report::{
                acceptance_cell, attempts_per_board, p_cell, p_equals, thousands,
            };
            let exact = study.expectations.acceptance.map(|f| f.value());
            let mut t = format!(
                "{:<16} {:>13} {:>15} {:>10}  {:<26} {:<18} {:>15}  max |z| (where)\n",
                "sampler",
                "samples",
                "attempts",
                "att./board",
                "acceptance",
                "chi-square (df)",
                "p-value"
            );
            for s in &study.summaries {
                let chi = match (s.chi_square, s.df) {
                    (Some(c), Some(d)) => format!("{c:.1} ({})", thousands(d as u64)),
                    _ => "n/a".into(),
                };
                t += &format!(
                    "{:<16} {:>13} {:>15} {:>10.2}  {:<26} {:<18} {:>15}  {:.2} ({})\n",
                    s.sampler,
                    thousands(s.samples),
                    thousands(s.attempts),
                    attempts_per_board(s),
                    acceptance_cell(s, exact),
                    chi,
                    p_cell(s),
                    s.max_abs_z,
                    s.max_abs_z_at
                );
            }
            if !study.replicates.is_empty() {
                t += &format!(
                    "\n{:<16} {:>10} {:>8}  {:<14}  verdict\n",
                    "sampler", "replicates", "KS D", "KS p"
                );
                for k in bias::ks_rows(&study.replicates) {
                    let (d, p) = match k.ks {
                        Some((d, p)) => (format!("{d:.4}"), p_equals(p)),
                        None => ("n/a".into(), "n/a".into()),
                    };
                    t += &format!(
                        "{:<16} {:>10} {:>8}  {:<14}  {}\n",
                        k.sampler,
                        thousands(k.replicates as u64),
                        d,
                        p,
                        k.verdict
                    );
                }
            }
            t
        }
    }
}
