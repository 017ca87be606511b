//! Statistics outputs: counts that shards add up, and the CSVs (and report) computed
//! from the totals.

use super::*;

use crate::game::Registry;
pub use crate::statistic::StatsFiles;
use crate::statistic::{StatFile, StatVisitor, Statistic};

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

/// Write a statistic's files all together or none (a report's pages set as a PDF).
fn write_all(outputs: Vec<StatFile>) -> Result<()> {
    let mut set = crate::output::FileSet::new();
    for f in outputs {
        let (path, bytes) = match f {
            StatFile::Csv { path, bytes } => (path, bytes),
            StatFile::Pages {
                path,
                title,
                size,
                pages,
            } => {
                let pdf = crate::book::render_pages(title, size, &pages)?;
                (path, pdf)
            }
        };
        set.create(&path)?
            .write_all(&bytes)
            .map_err(|e| Error::io("cannot write to", &path, e))?;
    }
    set.commit()
}

/// A job file's (or the command line's) statistics output: the kind, as
/// [`Registry::STATISTICS`] spells it, and its options as given, read into the
/// kind's own [`Statistic::Spec`] when it is checked.
#[derive(Debug, Clone, PartialEq)]
pub struct StatSpec {
    /// The kind (`catan-bias`, ...).
    pub kind: &'static str,
    /// Its options: every key of the output but `name`, `kind` and `seed`.
    pub options: Value,
}

impl StatSpec {
    /// The output of kind `S` with options `spec` (the command line's flags).
    pub fn of<S: Statistic>(spec: &S::Spec) -> StatSpec {
        StatSpec {
            kind: S::KIND,
            options: serde_json::to_value(spec).expect("options serialise"),
        }
    }

    /// The options read as `S`'s, or the error a job file's reader shows.
    fn read<S: Statistic>(&self) -> Result<S::Spec> {
        serde_json::from_value(self.options.clone()).map_err(|e| Error::invalid(e.to_string()))
    }

    /// Check the output for `seed`: everything that can be checked before any work.
    pub fn prepare<R: Registry>(&self, seed: u64) -> Result<Box<dyn Prepared>> {
        struct Prepare<'a>(&'a StatSpec, u64);
        impl StatVisitor for Prepare<'_> {
            type Out = Result<Box<dyn Prepared>>;
            fn visit<S: Statistic>(self) -> Self::Out {
                Ok(Box::new(S::new(&self.0.read::<S>()?, self.1)?))
            }
        }
        R::visit_statistic(self.kind, Prepare(self, seed)).expect("a known kind")
    }

    /// Items a run counts in `shard`, for progress reports (None when the options
    /// cannot be read: the check says why).
    pub fn total<R: Registry>(&self, shard: Shard) -> Option<u64> {
        struct Total<'a>(&'a StatSpec, Shard);
        impl StatVisitor for Total<'_> {
            type Out = Option<u64>;
            fn visit<S: Statistic>(self) -> Option<u64> {
                Some(S::total(&self.0.read::<S>().ok()?, self.1))
            }
        }
        R::visit_statistic(self.kind, Total(self, shard)).flatten()
    }

    /// The files of the job output named `out` in the folder `dir`.
    pub fn job_files<R: Registry>(&self, out: PathBuf, dir: &Path) -> StatsFiles {
        struct Files<'a>(&'a StatSpec, PathBuf, &'a Path);
        impl StatVisitor for Files<'_> {
            type Out = StatsFiles;
            fn visit<S: Statistic>(self) -> StatsFiles {
                match self.0.read::<S>() {
                    Ok(spec) => S::job_files(&spec, self.1, self.2),
                    Err(_) => StatsFiles::single(self.1),
                }
            }
        }
        R::visit_statistic(self.kind, Files(self, out, dir)).expect("a known kind")
    }
}

/// A statistics output of any kind, checked and ready to make: what the jobs layer
/// does with a [`Statistic`], without naming its kind.
pub trait Prepared: Sync {
    /// The configuration recorded in part headers.
    fn header(&self) -> Value;
    /// The files a whole run writes, with their defaults filled in.
    fn files(&self, files: &StatsFiles) -> StatsFiles;
    /// Make the output (see `make_statistic`).
    fn make(
        &self,
        shard: Shard,
        target: &Target,
        env: &Env,
        note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(Made, String)>;
    /// Merge parts of this output (see `merge_parts`).
    fn merge(&self, parts: &mut [PartFile], files: &StatsFiles) -> Result<(Made, String)>;
}

impl<S: Statistic> Prepared for S {
    fn header(&self) -> Value {
        serde_json::to_value(Statistic::header(self)).expect("headers serialise")
    }
    fn files(&self, files: &StatsFiles) -> StatsFiles {
        Statistic::files(self, files)
    }
    fn make(
        &self,
        shard: Shard,
        target: &Target,
        env: &Env,
        note: &mut (dyn FnMut(&str) + Send),
    ) -> Result<(Made, String)> {
        make_statistic(self, shard, target, env, note)
    }
    fn merge(&self, parts: &mut [PartFile], files: &StatsFiles) -> Result<(Made, String)> {
        merge_parts(self, parts, files)
    }
}

/// The statistic a part of kind `kind` describes (None: not a statistics kind).
pub(crate) fn from_part<R: Registry>(
    kind: &str,
    config: &Value,
) -> Result<Option<Box<dyn Prepared>>> {
    struct FromHeader<'a>(&'a Value);
    impl StatVisitor for FromHeader<'_> {
        type Out = Result<Box<dyn Prepared>>;
        fn visit<S: Statistic>(self) -> Self::Out {
            let header: S::Header = serde_json::from_value(self.0.clone())
                .map_err(|e| Error::invalid(format!("bad part header: {e}")))?;
            Ok(Box::new(S::from_header(header)?))
        }
    }
    R::visit_statistic(kind, FromHeader(config)).transpose()
}

/// Make a statistics output: the whole run into the files of `Target::Whole`, or
/// the part of `shard`. Gives what was made and the table (empty for a part).
pub(crate) fn make_statistic<S: Statistic>(
    stat: &S,
    shard: Shard,
    target: &Target,
    env: &Env,
    note: &mut (dyn FnMut(&str) + Send),
) -> Result<(Made, String)> {
    let pool = crate::batch::thread_pool(env.jobs)?;
    let run = crate::batch::Pipeline;
    let counts = pool.install(|| stat.count(&run, shard, env.progress, note))?;
    let (files, table) = match target {
        Target::Whole(f) => {
            let files = Statistic::files(stat, f);
            let totals = pool.install(|| stat.finish(&run, counts))?;
            write_all(stat.outputs(&totals, &files)?)?;
            (files.all(), stat.table(&totals))
        }
        Target::Part { path, tag } => {
            let header = Header::new(S::KIND, Prepared::header(stat), shard).tagged(tag.as_deref());
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
pub(crate) fn merge_parts<S: Statistic>(
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
    let files = Statistic::files(stat, files);
    let inputs: Vec<(&str, &Path)> = parts
        .iter()
        .map(|p| ("one of the parts", p.path.as_path()))
        .collect();
    crate::output::check_distinct(&files.named(), &inputs)?;
    let totals = stat.finish(&crate::batch::Pipeline, total)?;
    write_all(stat.outputs(&totals, &files)?)?;
    let made = Made {
        published: Vec::new(),
        items: stat.samples(),
        files: files.all(),
        note: String::new(),
    };
    Ok((made, stat.table(&totals)))
}
