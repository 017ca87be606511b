//! Statistics outputs: counts that shards add up, and the CSVs (and report) computed
//! from the totals.

use super::*;

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
}

impl StatsFiles {
    /// Just the main CSV `out`.
    pub fn single(out: PathBuf) -> Self {
        StatsFiles {
            out,
            summary: None,
            report: None,
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
        v
    }

    /// Every file these describe.
    pub fn all(&self) -> Vec<PathBuf> {
        let mut v = vec![self.out.clone()];
        v.extend(self.summary.clone());
        v.extend(self.report.clone());
        v
    }
}

pub(super) fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    csv_file(path, rows)?.commit()
}

/// A CSV written to its temporary file, not yet in place.
fn csv_file<T: Serialize>(path: &Path, rows: &[T]) -> Result<AtomicFile> {
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

/// Carcassonne statistics: histograms per landscape size.
pub(crate) mod carcassonne_stats {
    use super::*;
    use crate::games::carcassonne::stats::{self, Hist};

    /// Check `spec`; the configuration recorded in a part's header.
    pub fn config(spec: &CarcassonneStatsSpec, seed: u64) -> Result<Value> {
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
        Ok(json!({"seed": seed, "samples": spec.samples, "tiles": spec.tiles}))
    }

    /// The histograms of this shard, one per landscape size, counted on the current
    /// rayon pool.
    pub fn count(spec: &CarcassonneStatsSpec, seed: u64, shard: Shard) -> Result<Vec<Hist>> {
        spec.tiles
            .iter()
            .map(|&tiles| {
                let study = stats::SizeStudy { seed, tiles };
                crate::batch::study(&study, spec.samples, shard, false, "")
            })
            .collect()
    }

    /// The table `carcassonne stats` prints: per size, the score's mean and
    /// percentiles and the mean feature counts.
    pub fn table(spec: &CarcassonneStatsSpec, hists: &[Hist]) -> String {
        let mut t = String::from("tiles  landscapes  score: mean  p10  p50  p90   complete cities  roads  monasteries (means)\n");
        for (&tiles, h) in spec.tiles.iter().zip(hists) {
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

    /// Write the long-form CSV of the histograms, one per size of `spec.tiles`, to `out`.
    pub fn write(spec: &CarcassonneStatsSpec, seed: u64, hists: &[Hist], out: &Path) -> Result<()> {
        let mut rows = Vec::new();
        for (&t, h) in spec.tiles.iter().zip(hists) {
            rows.extend(stats::rows(seed, t, h));
        }
        write_csv(out, &rows)
    }

    pub(in crate::jobs) fn merge(parts: &mut [PartFile], files: &StatsFiles) -> Result<Made> {
        let cfg = parts[0].header.config.clone();
        let spec = CarcassonneStatsSpec {
            samples: cfg["samples"]
                .as_u64()
                .ok_or_else(|| bad_config("samples"))?,
            tiles: serde_json::from_value(cfg["tiles"].clone()).map_err(|_| bad_config("tiles"))?,
        };
        let seed = cfg["seed"].as_u64().ok_or_else(|| bad_config("seed"))?;
        let mut total: Vec<Hist> = vec![Hist::new(); spec.tiles.len()];
        for p in parts.iter_mut() {
            let h: Vec<Hist> = p.state()?;
            let want = shard_of(p).len(0, spec.samples);
            let fits = h.len() == total.len()
                && h.iter().all(|x| {
                    x.0.len() == stats::MEASURES.len()
                        && x.0.iter().all(|m| m.iter().sum::<u64>() == want)
                });
            if !fits {
                return Err(bad_counts(p, want));
            }
            total = total.into_iter().zip(h).map(|(a, b)| a.merge(b)).collect();
        }
        write(&spec, seed, &total, &files.out)?;
        Ok(Made {
            items: spec.samples,
            files: vec![files.out.clone()],
            note: String::new(),
        })
    }
}

/// Number Match statistics: counts per add limit.
pub(crate) mod match_stats {
    use super::*;
    use crate::games::number_match::{self, stats, Append, NumberMatch};

    /// Check `spec`; the run's configuration for the boards of `shard`.
    pub fn config(spec: &MatchStatsSpec, seed: u64, shard: Shard) -> Result<stats::Config> {
        crate::limits::check_samples("samples", spec.samples, "boards")?;
        NumberMatch::check_length(spec.length)?;
        if spec.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: give the search at least 1 node",
            ));
        }
        NumberMatch::check(spec.columns, spec.max_adds)?;
        let append: Append = spec.append.parse()?;
        Ok(stats::Config {
            seed,
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

    /// The configuration recorded in a part's header (what parts must share to merge).
    pub fn header_config(spec: &MatchStatsSpec, seed: u64) -> Value {
        json!({
            "seed": seed, "samples": spec.samples, "length": spec.length,
            "max_adds": spec.max_adds, "max_nodes": spec.max_nodes, "columns": spec.columns,
            "append": spec.append, "diagonals": spec.diagonals,
            "monte_carlo_trials": spec.monte_carlo_trials, "timings": spec.timings,
        })
    }

    /// The counts of `cfg.shard`'s boards, counted on the current rayon pool.
    pub fn count(cfg: &stats::Config) -> Result<stats::Counts> {
        crate::batch::study(cfg, cfg.samples, cfg.shard, false, "")
    }

    pub(in crate::jobs) fn merge(parts: &mut [PartFile], files: &StatsFiles) -> Result<Made> {
        let spec = from_header(&parts[0].header.config)?;
        let seed = parts[0].header.config["seed"]
            .as_u64()
            .ok_or_else(|| bad_config("seed"))?;
        let cfg = config(&spec, seed, Shard::default())?;
        let mut total = stats::Counts::new(spec.max_adds);
        for p in parts.iter_mut() {
            let c: stats::Counts = p.state()?;
            let want = shard_of(p).len(0, spec.samples);
            if !c.fits(&total, want) {
                return Err(bad_counts(p, want));
            }
            total = total.merge(c);
        }
        write_csv(&files.out, &stats::rows(&cfg, &total))?;
        Ok(Made {
            items: total.boards,
            files: vec![files.out.clone()],
            note: String::new(),
        })
    }

    fn from_header(v: &Value) -> Result<MatchStatsSpec> {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("seed");
        }
        serde_json::from_value(v).map_err(|e| Error::invalid(format!("bad part header: {e}")))
    }
}

/// Catan bias: counts per sampler.
pub mod catan_bias {
    use super::*;
    use crate::games::catan::{
        bias,
        board::BoardKind,
        context,
        rules::Rules,
        sampler::{Ctx, ALL_SAMPLERS},
        Sampler,
    };

    /// The context and the samplers that will run (`direct` only where it applies,
    /// unless asked for by name, which is then an error where it cannot run).
    ///
    /// Everything is checked here, before any work: the sample counts (at most
    /// [`crate::limits::MAX_SAMPLES`]), that some board meets the rules (an exhaustive
    /// search), and that every sampler that will run, and `full-rejection` for the
    /// reference run of rules without exact expectations, can draw such boards at a
    /// usable rate (see `games::catan::pilot`).
    pub fn setup(spec: &BiasSpec) -> Result<(crate::games::catan::sampler::Ctx, Vec<Sampler>)> {
        crate::limits::check_samples("samples", spec.samples, "boards per sampler")?;
        crate::limits::check_samples(
            "reference_samples",
            spec.reference_samples,
            "boards of the reference run",
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
        crate::games::catan::feasible_rules(kind, &rules)?;
        let ctx = match context(kind, &rules, Sampler::Direct) {
            Ok(ctx) => ctx,
            Err(e) if explicit && samplers.contains(&Sampler::Direct) => return Err(e),
            Err(Error::Interrupted) => return Err(Error::Interrupted),
            // No table: the expectations come from a full-rejection reference run.
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
            .filter(|&s| s != Sampler::Direct || ctx.table.is_some())
            .collect();
        for &s in &samplers {
            crate::games::catan::pilot::check(&ctx, s)?;
        }
        Ok((ctx, samplers))
    }

    /// Make a study with the context and samplers of [`setup`]: whole into the
    /// files of `target`, or this shard's part.
    pub fn make(
        spec: &BiasSpec,
        ctx: &Ctx,
        samplers: Vec<Sampler>,
        seed: u64,
        shard: Shard,
        target: &Target,
        env: &Env,
    ) -> Result<Made> {
        let config = header_config(spec, &samplers, seed);
        let cfg = study_config(spec, samplers, seed, shard);
        let pool = crate::batch::thread_pool(env.jobs)?;
        let counts = pool.install(|| count_samplers(ctx, &cfg, env.progress, |_, _, _| {}))?;
        match target {
            Target::Whole(f) => {
                let study = pool.install(|| finish(ctx, &cfg, counts))?;
                write(ctx, &study, seed, f)?;
            }
            Target::Part { path, tag } => write_part(
                path,
                &Header::new("catan-bias", config, shard).tagged(tag.as_deref()),
                &state(&counts),
            )?,
        }
        Ok(Made {
            items: shard.len(0, spec.samples),
            files: target.files(),
            note: String::new(),
        })
    }

    /// The table `catan bias` and `merge` print: one line per sampler.
    pub fn table(study: &bias::Study) -> String {
        let mut t = String::from("sampler          samples     acceptance  chi-square (df)         p-value    max |z| (where)\n");
        for s in &study.summaries {
            let chi = match (s.chi_square, s.df) {
                (Some(c), Some(d)) => format!("{c:.1} ({d})"),
                _ => "n/a".into(),
            };
            let p = s.p_value.map_or("n/a".into(), |p| format!("{p:.3e}"));
            t += &format!(
                "{:<16} {:>10}  {:>10.5}  {:<22}  {:>9}  {:.2} ({})\n",
                s.sampler, s.samples, s.acceptance_rate, chi, p, s.max_abs_z, s.max_abs_z_at
            );
        }
        t
    }

    /// The configuration recorded in a part's header (what parts must share to merge).
    pub(crate) fn header_config(spec: &BiasSpec, samplers: &[Sampler], seed: u64) -> Value {
        let names: Vec<&str> = samplers.iter().map(|s| s.name()).collect();
        json!({
            "seed": seed, "samples": spec.samples, "board": spec.board, "rules": spec.rules,
            "samplers": names.join(","), "reference_samples": spec.reference_samples,
        })
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

    #[derive(Serialize, Deserialize)]
    struct Counted {
        sampler: String,
        counts: bias::Counts,
    }

    /// A part's payload: each sampler's counts under its name.
    fn state(counts: &[(Sampler, bias::Counts)]) -> impl Serialize {
        counts
            .iter()
            .map(|(s, c)| Counted {
                sampler: s.name().to_string(),
                counts: c.clone(),
            })
            .collect::<Vec<_>>()
    }

    /// Write the CSVs (and report) of a finished study; `files` as made by
    /// [`StatsFiles::with_default_summary`].
    pub fn write(
        ctx: &crate::games::catan::sampler::Ctx,
        study: &bias::Study,
        seed: u64,
        files: &StatsFiles,
    ) -> Result<()> {
        // All files appear together or not at all: never a new CSV beside the old
        // summary of another run.
        let mut set = crate::output::FileSet::new();
        set.push(csv_file(&files.out, &study.rows)?);
        if let Some(summary) = &files.summary {
            set.push(csv_file(summary, &study.summaries)?);
        }
        if let Some(path) = &files.report {
            let pages = crate::games::catan::report::pages(ctx.shape, study, seed);
            let pdf = crate::book::render_pages(
                "Catan bias report",
                crate::games::catan::report::PAGE,
                &pages,
            )?;
            set.create(path)?
                .write_all(&pdf)
                .map_err(|e| Error::io("cannot write to", path, e))?;
        }
        set.commit()
    }

    pub(in crate::jobs) fn merge(
        parts: &mut [PartFile],
        files: &StatsFiles,
    ) -> Result<(Made, bias::Study)> {
        let cfg = parts[0].header.config.clone();
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
            summary: None,
            report: None,
        };
        let seed = cfg["seed"].as_u64().ok_or_else(|| bad_config("seed"))?;
        let (ctx, samplers) = setup(&spec)?;
        let mut total: Option<Vec<(Sampler, bias::Counts)>> = None;
        for p in parts.iter_mut() {
            let got: Vec<Counted> = p.state()?;
            let got: Vec<(Sampler, bias::Counts)> = got
                .into_iter()
                .map(|c| Ok((c.sampler.parse::<Sampler>()?, c.counts)))
                .collect::<Result<_>>()?;
            if got.iter().map(|g| g.0).collect::<Vec<_>>() != samplers {
                return Err(Error::invalid(format!(
                    "{}: its samplers do not match its header",
                    p.path.display()
                )));
            }
            let want = shard_of(p).len(0, spec.samples);
            let empty = bias::Counts::new(
                ctx.shape,
                ctx.table
                    .as_ref()
                    .map_or(0, |t| bias::Cells::new(ctx.shape, t).len()),
            );
            if !got.iter().all(|(_, c)| c.fits(&empty, want)) {
                return Err(bad_counts(p, want));
            }
            total = Some(match total {
                None => got,
                Some(mut t) => {
                    for (a, b) in t.iter_mut().zip(&got) {
                        a.1.merge(&b.1);
                    }
                    t
                }
            });
        }
        let cfg = study_config(&spec, samplers, seed, Shard::default());
        let study = finish(&ctx, &cfg, total.unwrap_or_default())?;
        let files = files.clone().with_default_summary();
        let named = files.named();
        let inputs: Vec<(&str, &Path)> = parts
            .iter()
            .map(|p| ("one of the parts", p.path.as_path()))
            .collect();
        crate::output::check_distinct(&named, &inputs)?;
        write(&ctx, &study, seed, &files)?;
        Ok((
            Made {
                items: spec.samples,
                files: files.all(),
                note: String::new(),
            },
            study,
        ))
    }
}
