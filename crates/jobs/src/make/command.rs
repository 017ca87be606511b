//! The statistics commands (`catan bias`, `carcassonne stats`, `number-match stats`),
//! whole or one shard, made one way: [`StatsCommand`].

use super::*;

/// A statistics output checked and ready to run, for the command line: the one path
/// for whole runs and shards alike.
///
/// The CLI builds the [`Spec`] from its flags, then:
///
/// ```text
/// let cmd = StatsCommand::prepare(spec, seed, shard).map_err(Error::as_flag)?;
/// let out = stats_out(&out, DEFAULT, shard)?;            // the CLI's default paths
/// let files = StatsFiles { out, summary, report, replicates: None };
/// let table = cmd.run(&files, &env, |line| eprintln!("{line}"))?;
/// print!("{table}");
/// ```
///
/// Everything that can be checked (parameters, rules, the samplers' set-up) is checked
/// by [`StatsCommand::prepare`], before any file is touched; [`StatsCommand::run`]
/// gives the lines for standard error as they happen (notes, per-sampler timings,
/// "wrote ...") and returns the table for standard output (empty for Number Match).
pub struct StatsCommand {
    stat: Box<dyn Prepared>,
    shard: Option<Shard>,
}

impl StatsCommand {
    /// Check `spec` (a statistics kind) for `seed` and `shard` (None: the whole run).
    pub fn prepare<R: Registry>(
        spec: Spec,
        seed: u64,
        shard: Option<Shard>,
    ) -> Result<StatsCommand> {
        let Spec::Statistic(stat) = &spec else {
            return Err(Error::invalid(format!(
                "{} is not a statistics output",
                spec.kind()
            )));
        };
        Ok(StatsCommand {
            stat: stat.prepare::<R>(seed)?,
            shard,
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
        Run {
            files,
            env,
            shard: self.shard,
            note: &mut note,
        }
        .run(self.stat.as_ref())
    }
}

struct Run<'a> {
    files: &'a StatsFiles,
    env: &'a Env,
    shard: Option<Shard>,
    note: &'a mut (dyn FnMut(&str) + Send),
}

impl Run<'_> {
    fn run(self, stat: &dyn Prepared) -> Result<String> {
        let started = std::time::Instant::now();
        let (target, files) = match self.shard {
            Some(_) if self.files.summary.is_some() || self.files.report.is_some() => {
                return Err(Error::invalid(
                    "--summary and --report are made when the parts are merged: give them to `puzzlebook merge`",
                ))
            }
            Some(_) => {
                let target = Target::Part {
                    path: self.files.out.clone(),
                    tag: None,
                };
                (target, StatsFiles::single(self.files.out.clone()))
            }
            None => {
                let files = stat.files(self.files);
                (Target::Whole(files.clone()), files)
            }
        };
        crate::output::check_distinct(&files.named(), &[])?;
        // Fail on an unwritable path before the long run.
        for f in files.all() {
            crate::output::check_writable(&f)?;
        }
        let shard = self.shard.unwrap_or_default();
        let (made, table) = stat.make(shard, &target, self.env, self.note)?;
        let wrote: Vec<String> = made.files.iter().map(|f| f.display().to_string()).collect();
        let what = match self.shard {
            Some(s) => format!("part {s} to "),
            None => String::new(),
        };
        (self.note)(&format!(
            "wrote {what}{} in {:.2} s",
            wrote.join(", "),
            started.elapsed().as_secs_f64()
        ));
        Ok(table)
    }
}
