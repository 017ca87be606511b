//! `catan-bias`: the sampler-bias study as a statistics output. Each sampler draws
//! its boards; the counts (per hex, per pip bin, per resource) are compared with exact
//! expectations or, for rules that cannot be enumerated, a reference run.

use super::bias;
use super::feasibility;
use super::{context, Ctx, Sampler, ALL_SAMPLERS};
use crate::board::BoardKind;
use crate::rules::Rules;
use clap::builder::TypedValueParser as _;
use ground::shard::Shard;
use ground::statistic::{Runner, StatFile, Statistic, StatsFiles};
use ground::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

fn red_apart() -> String {
    "red-apart".into()
}
fn reference_samples() -> u64 {
    2_000_000
}
fn one() -> u32 {
    1
}

/// `kind = "catan-bias"`: the options of `catan bias`.
/// The command line's flags are these fields (declared once, here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields)]
pub struct BiasSpec {
    /// Boards per sampler
    #[arg(long)]
    pub samples: u64,
    /// Comma-separated samplers (default: all of them; direct only where it applies)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(long, help = super::samplers::samplers_help())]
    pub samplers: Option<String>,
    /// base (3-4 players) or extended (5-6 players)
    #[serde(default)]
    #[arg(
        long,
        default_value = BoardKind::Base.name(),
        value_parser = clap::builder::PossibleValuesParser::new(["base", "extended"])
            .map(|s| s.parse::<BoardKind>().expect("a listed value"))
    )]
    pub board: BoardKind,
    /// Rules, comma-separated (the help lists every rule), or none
    #[serde(default = "red_apart")]
    #[arg(long, default_value_t = red_apart(), help = crate::rules::rules_help())]
    pub rules: String,
    /// Boards in the full-rejection reference run, for rules that cannot be enumerated
    #[serde(default = "reference_samples")]
    #[arg(long, default_value_t = reference_samples())]
    pub reference_samples: u64,
    /// Independent studies, each from its own seed (1 to 1000; replicate 1 is the
    /// study of the CSVs), for a KS test of each sampler's chi-square p-values
    #[serde(default = "one")]
    #[arg(long, default_value_t = one())]
    pub replicates: u32,
    /// In a job file, the summary CSV's file name (default: the output's name ending
    /// .summary.csv); the command line's `--summary` takes a path instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(skip)]
    pub summary: Option<String>,
    /// In a job file, the PDF report's file name (default: none); the command line's
    /// `--report` takes a path instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[arg(skip)]
    pub report: Option<String>,
}

/// The context and the samplers that will run (`direct` only where it applies,
/// unless asked for by name, which is then an error where it cannot run).
///
/// Everything is checked here, before any work: the sample counts (at most
/// [`ground::limits::MAX_SAMPLES`]), that some board meets the rules (an exhaustive
/// search), and that every sampler that will run, and `full-rejection` for the
/// reference run of rules without exact expectations, can draw such boards at a
/// usable rate (see `sampling::feasibility::pilot`).
pub fn setup(spec: &BiasSpec) -> Result<(Ctx, Vec<Sampler>)> {
    ground::limits::check_samples("samples", spec.samples, "boards per sampler")?;
    ground::limits::check_samples(
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
    ground::limits::check_samples(
        "samples",
        spec.samples.saturating_mul(u64::from(spec.replicates)),
        "boards per sampler over all replicates",
    )?;
    let kind = spec.board;
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
    feasibility::decide_rules(kind, &rules)?;
    let counted = samplers.contains(&Sampler::Counted);
    let mut ctx = match context(kind, &rules, Sampler::Direct) {
        Ok(ctx) => ctx,
        Err(e) if explicit && samplers.contains(&Sampler::Direct) => return Err(e),
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        // Rules counted exactly by layers need no reference run; else (no table for
        // direct) a reference run, if needed, is of full-rejection.
        Err(_) => match crate::sampling::layers::counts_exactly(kind, &rules)
            .then(|| context(kind, &rules, Sampler::Counted))
        {
            Some(Ok(ctx)) => ctx,
            _ => context(kind, &rules, Sampler::FullRejection).map_err(|e| match e {
            Error::Invalid(m) if !samplers.contains(&Sampler::FullRejection) => {
                Error::Invalid(format!(
                    "the reference run (full-rejection boards, for rules without exact expectations) cannot be made: {m}"
                ))
            }
            e => e,
        })?,
        },
    };
    // Beyond the placement rules, the counted layers give exact expectations (and
    // draw for `counted`); where they cannot be counted, a reference run stands in.
    if ctx.layers.is_none() && (ctx.table.is_none() || counted) {
        match super::counted_layers(kind, &rules, &Default::default()) {
            Ok(l) => ctx.layers = Some(std::sync::Arc::new(l)),
            Err(e) if counted => return Err(e),
            Err(_) => {}
        }
    }
    let samplers: Vec<Sampler> = samplers
        .into_iter()
        .filter(|&s| s != Sampler::Direct || ctx.has_direct())
        .collect();
    for &s in &samplers {
        feasibility::pilot::check(&ctx, s)?;
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
pub fn count<R: Runner>(
    run: &R,
    ctx: &Ctx,
    sampler: Sampler,
    cells: Option<&bias::Cells>,
    seed: u64,
    samples: u64,
    shard: Shard,
) -> Result<bias::Counts> {
    let study = bias::SamplerStudy::new(ctx, sampler, cells, seed);
    run.study(&study, samples, shard, false, "")
}

/// The counting half of a study, on the current rayon pool: per sampler, the
/// counts of this shard's boards (with a progress bar per sampler when
/// `show_progress`), `done(sampler, counts, seconds)` called as each finishes.
/// Counts from shards of the same study add up to the counts of the whole run.
pub(crate) fn count_samplers<R: Runner>(
    run: &R,
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
        let counts = run.study(&study, cfg.samples, cfg.shard, show_progress, s.name())?;
        done(s, &counts, started.elapsed().as_secs_f64());
        all.push((s, counts));
    }
    Ok(all)
}

/// The comparing half (with the reference run, for rules without exact
/// expectations, counted on the current rayon pool).
pub fn finish<R: Runner>(
    run: &R,
    ctx: &Ctx,
    cfg: &bias::StudyConfig,
    counts: Vec<(Sampler, bias::Counts)>,
) -> Result<bias::Study> {
    bias::finish(ctx, cfg, counts, |study, samples| {
        run.study(study, samples, Shard::default(), false, "")
    })
}

/// A whole study: `count_samplers`, then [`finish`].
pub fn study<R: Runner>(
    run: &R,
    ctx: &Ctx,
    cfg: &bias::StudyConfig,
    show_progress: bool,
    done: impl FnMut(Sampler, &bias::Counts, f64),
) -> Result<bias::Study> {
    let counts = count_samplers(run, ctx, cfg, show_progress, done)?;
    finish(run, ctx, cfg, counts)
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
    fn replicates<R: Runner>(
        &self,
        run: &R,
        cfg: &bias::StudyConfig,
        study: &bias::Study,
    ) -> Result<Vec<bias::ReplicateRow>> {
        let cells = bias::cells(&self.ctx);
        let reference_n = bias::needs_reference(&self.ctx).then_some(self.spec.reference_samples);
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
            let counts = count_samplers(run, &self.ctx, &cfg_r, false, |_, _, _| {})?;
            let (_, summaries) = bias::compare_all(
                &self.ctx,
                seed,
                &counts,
                bias::Against {
                    exp: &study.expectations,
                    cells: cells.as_ref(),
                    reference_n,
                },
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

/// What a part of `catan-bias` records: the seed, the options and the samplers that
/// ran.
#[derive(Serialize, Deserialize)]
pub struct Header {
    seed: u64,
    samples: u64,
    board: BoardKind,
    rules: String,
    samplers: String,
    reference_samples: u64,
}

/// One sampler's counts under its name: a part's payload is a list of these.
#[derive(Serialize, Deserialize)]
pub struct Counted {
    sampler: String,
    counts: bias::Counts,
}

impl Statistic for CatanBias {
    const KIND: &'static str = "catan-bias";
    type Spec = BiasSpec;
    type Header = Header;
    type Counts = Vec<Counted>;
    type Totals = bias::Study;

    fn new(spec: &BiasSpec, seed: u64) -> Result<Self> {
        let (ctx, samplers) = setup(spec)?;
        Ok(CatanBias {
            spec: spec.clone(),
            seed,
            ctx,
            samplers,
        })
    }

    fn header(&self) -> Header {
        let names: Vec<&str> = self.samplers.iter().map(|s| s.name()).collect();
        let spec = &self.spec;
        Header {
            seed: self.seed,
            samples: spec.samples,
            board: spec.board,
            rules: spec.rules.clone(),
            samplers: names.join(","),
            reference_samples: spec.reference_samples,
        }
    }

    fn from_header(h: Header) -> Result<Self> {
        let spec = BiasSpec {
            samples: h.samples,
            samplers: Some(h.samplers),
            board: h.board,
            rules: h.rules,
            reference_samples: h.reference_samples,
            replicates: 1,
            summary: None,
            report: None,
        };
        CatanBias::new(&spec, h.seed)
    }

    /// Per sampler that will run: 1 when the set-up fails (it is reported when
    /// the output is checked).
    fn total(spec: &BiasSpec, shard: Shard) -> u64 {
        let samplers = setup(spec).map_or(1, |(_, s)| s.len()) as u64;
        shard.len(0, spec.samples).saturating_mul(samplers)
    }

    /// A job file names the summary (default: beside the CSV) and the report.
    fn job_files(spec: &BiasSpec, out: PathBuf, dir: &Path) -> StatsFiles {
        StatsFiles {
            summary: spec.summary.as_ref().map(|s| dir.join(s)),
            report: spec.report.as_ref().map(|s| dir.join(s)),
            ..StatsFiles::single(out)
        }
        .with_default_summary()
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
    fn count<R: Runner>(
        &self,
        run: &R,
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
        if bias::needs_reference(ctx) {
            note(&format!(
                "note: rules {} cannot be enumerated on the {} board; expectations come from a reference run of {} {} boards{}",
                ctx.rules,
                ctx.shape.kind.name(),
                self.spec.reference_samples,
                bias::reference_sampler(ctx).name(),
                if ctx.has_direct() { "" } else { ", and direct is skipped" }
            ));
        }
        let config = self.config(shard);
        let counts = count_samplers(run, &self.ctx, &config, progress, |s, c, secs| {
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
    fn finish<R: Runner>(&self, run: &R, counts: Vec<Counted>) -> Result<bias::Study> {
        let counts = self
            .samplers
            .iter()
            .zip(counts)
            .map(|(&s, c)| (s, c.counts))
            .collect();
        let cfg = self.config(Shard::default());
        let mut study = finish(run, &self.ctx, &cfg, counts)?;
        if self.spec.replicates > 1 {
            study.replicates = self.replicates(run, &cfg, &study)?;
        }
        Ok(study)
    }

    /// The per-hex CSV, the summary CSV, the replicates CSV and the report (the
    /// caller writes them all together or none: never a new CSV beside the old
    /// summary of another run).
    fn outputs(&self, study: &bias::Study, files: &StatsFiles) -> Result<Vec<StatFile>> {
        let mut v = vec![StatFile::csv(&files.out, &study.rows)?];
        if let Some(summary) = &files.summary {
            v.push(StatFile::csv(summary, &study.summaries)?);
        }
        if let Some(path) = &files.replicates {
            v.push(StatFile::csv(path, &study.replicates)?);
        }
        if let Some(path) = &files.report {
            v.push(StatFile::Pages {
                path: path.clone(),
                title: "Catan bias report",
                size: super::report::PAGE,
                pages: super::report::pages(self.ctx.shape, study, self.seed),
            });
        }
        Ok(v)
    }

    /// One line per sampler; with replicates, the KS test of each sampler's
    /// chi-square p-values.
    fn table(&self, study: &bias::Study) -> String {
        use super::report::{acceptance_cell, attempts_per_board, p_cell, p_equals, thousands};
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
