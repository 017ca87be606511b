//! The statistics commands (`catan bias`, `carcassonne stats`, `number-match stats`),
//! whole or one shard, made one way: [`StatsCommand`].

use super::*;
use crate::games::catan::{sampler::Ctx, Sampler};

/// A statistics output checked and ready to run, for the command line: the one path
/// for whole runs and shards alike.
///
/// The CLI builds the [`Spec`] from its flags, then:
///
/// ```text
/// let cmd = StatsCommand::prepare(spec, seed, shard).map_err(Error::as_flag)?;
/// let out = stats_out(&out, DEFAULT, shard)?;            // the CLI's default paths
/// let files = StatsFiles { out, summary, report };
/// let table = cmd.run(&files, &env, |line| eprintln!("{line}"))?;
/// print!("{table}");
/// ```
///
/// Everything that can be checked (parameters, rules, the samplers' set-up) is checked
/// by [`StatsCommand::prepare`], before any file is touched; [`StatsCommand::run`]
/// gives the lines for standard error as they happen (notes, per-sampler timings,
/// "wrote ...") and returns the table for standard output (empty for Number Match).
pub struct StatsCommand {
    spec: Spec,
    seed: u64,
    shard: Option<Shard>,
    bias: Option<(Ctx, Vec<Sampler>)>,
}

impl StatsCommand {
    /// Check `spec` (a statistics kind) for `seed` and `shard` (None: the whole run).
    pub fn prepare(spec: Spec, seed: u64, shard: Option<Shard>) -> Result<StatsCommand> {
        let bias = match &spec {
            Spec::CatanBias(b) => Some(catan_bias::setup(b)?),
            Spec::CarcassonneStats(c) => {
                carcassonne_stats::config(c, seed)?;
                None
            }
            Spec::NumberMatchStats(m) => {
                match_stats::config(m, seed, shard.unwrap_or_default())?;
                None
            }
            Spec::Items(_) | Spec::Book(_) => {
                return Err(Error::invalid(format!(
                    "{} is not a statistics output",
                    spec.kind()
                )))
            }
        };
        Ok(StatsCommand {
            spec,
            seed,
            shard,
            bias,
        })
    }

    /// Run it: the whole output into `files` (Catan's summary defaults to beside
    /// `files.out`), or with a shard, the part file at `files.out`. `note` gets each
    /// line for standard error; the result is the table for standard output.
    pub fn run(
        &self,
        files: &StatsFiles,
        env: &Env,
        mut note: impl FnMut(&str) + Send,
    ) -> Result<String> {
        let out = &files.out;
        if let Some(shard) = self.shard {
            if let Spec::CatanBias(_) = self.spec {
                if files.report.is_some() || files.summary.is_some() {
                    return Err(Error::invalid(
                        "--summary and --report are made when the parts are merged: give them to `puzzlebook merge`",
                    ));
                }
            }
            let started = std::time::Instant::now();
            if !matches!(self.spec, Spec::CarcassonneStats(_)) {
                crate::output::check_writable(out)?;
            }
            let target = Target::Part {
                path: out.clone(),
                tag: None,
            };
            let made = self.make(shard, &target, env)?;
            note(&match self.spec {
                Spec::NumberMatchStats(_) => boards_line(&made, started, out),
                _ => format!("wrote part {shard} to {}", out.display()),
            });
            return Ok(String::new());
        }
        let whole = Shard::default();
        match &self.spec {
            Spec::CarcassonneStats(c) => {
                // Fail on an unwritable path before the long run.
                crate::output::check_writable(out)?;
                let started = std::time::Instant::now();
                let hists = crate::batch::thread_pool(env.jobs)?
                    .install(|| carcassonne_stats::count(c, self.seed, whole))?;
                carcassonne_stats::write(c, self.seed, &hists, out)?;
                note(&format!(
                    "wrote {} in {:.2} s",
                    out.display(),
                    started.elapsed().as_secs_f64()
                ));
                Ok(carcassonne_stats::table(c, &hists))
            }
            Spec::NumberMatchStats(_) => {
                let started = std::time::Instant::now();
                crate::output::check_writable(out)?;
                let target = Target::Whole(StatsFiles::single(out.clone()));
                let made = self.make(whole, &target, env)?;
                note(&boards_line(&made, started, out));
                Ok(String::new())
            }
            Spec::CatanBias(b) => {
                let (ctx, samplers) = self.bias.as_ref().expect("prepared");
                if ctx.table.is_none() {
                    note(&format!(
                        "note: rules {} cannot be enumerated on the {} board; expectations come from a reference run of {} full-rejection boards, and direct is skipped",
                        ctx.rules,
                        ctx.shape.kind.name(),
                        b.reference_samples
                    ));
                }
                let files = files.clone().with_default_summary();
                crate::output::check_distinct(&files.named(), &[])?;
                // Fail on an unwritable path before the long run.
                for f in files.all() {
                    crate::output::check_writable(&f)?;
                }
                let cfg = catan_bias::study_config(b, samplers.clone(), self.seed, whole);
                let study = crate::batch::thread_pool(env.jobs)?.install(|| {
                    catan_bias::study(ctx, &cfg, env.progress, |s, c, secs| {
                        note(&format!(
                            "{}: {} boards, {} attempts in {:.2} s ({:.2} M boards/s)",
                            s.name(),
                            c.boards,
                            c.attempts,
                            secs,
                            c.boards as f64 / secs.max(1e-9) / 1e6
                        ))
                    })
                })?;
                catan_bias::write(ctx, &study, self.seed, &files)?;
                Ok(catan_bias::table(&study))
            }
            Spec::Items(_) | Spec::Book(_) => unreachable!("prepare takes statistics only"),
        }
    }

    fn make(&self, shard: Shard, target: &Target, env: &Env) -> Result<Made> {
        match (&self.spec, &self.bias) {
            (Spec::CatanBias(b), Some((ctx, samplers))) => {
                catan_bias::make(b, ctx, samplers.clone(), self.seed, shard, target, env)
            }
            (spec, _) => spec.make(Some(self.seed), shard, target, env),
        }
    }
}

fn boards_line(made: &Made, started: std::time::Instant, out: &Path) -> String {
    format!(
        "{} boards in {:.2} s ({:.0} boards/s); wrote {}",
        made.items,
        started.elapsed().as_secs_f64(),
        made.items as f64 / started.elapsed().as_secs_f64().max(1e-9),
        out.display()
    )
}
