//! Job files and batch runs: `puzzlebook run JOB.toml` makes every output a job file
//! names (books, JSON Lines sets, statistics), records each in `manifest.json`, skips
//! what is already made, and can run as shards on a scheduler with a merge at the end.
//!
//! A job file:
//! ```toml
//! seed = 2026                  # master seed (an output may set its own)
//! out_dir = "output/nightly"   # where the outputs go (the command line can override)
//!
//! [[output]]
//! name = "numbrix.jsonl"       # a file name inside out_dir
//! kind = "items"               # items, book, catan-bias, carcassonne-stats, number-match-stats,
//!                               # catan-stats
//! game = "numbrix"
//! count = 200
//! params = { size = "9", style = "free" }
//! ```
//! Paths in a job file (`out_dir`, templates, and the default `output/<job name>`) are
//! relative to the job file's folder, so `puzzlebook run /srv/jobs/nightly.toml` works
//! from any folder; `--out-dir` on the command line is relative to the current folder,
//! like every path on the command line. A scheduled job can draw from the date it runs for
//! (`run --date`, by default today in UTC): `seed = "date"` (or `"date+N"`) and the
//! placeholders `{date}`, `{year}`, `{month}`, `{day}` and `{week}` in `out_dir` and
//! output names ([`date`]).

pub mod date;
pub mod index;
pub mod make;
pub mod manifest;
pub mod part;
pub mod retain;

use crate::shard::Shard;
use crate::{Error, Result};
use make::{Env, Made, Spec, StatsFiles, Target};
use manifest::{Entry, Manifest};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JobFile {
    seed: Option<toml::Value>,
    out_dir: Option<String>,
    catalogue: Option<String>,
    keep: Option<u32>,
    #[serde(default)]
    output: Vec<toml::Spanned<toml::Table>>,
}

/// A loaded, checked job.
#[derive(Debug, Clone)]
pub struct Job {
    /// The job file, as given on the command line.
    pub path: PathBuf,
    /// The job file's absolute path, links resolved: with the configuration, who the
    /// job is (its catalogue entries and date folders are told by it, never by the
    /// file name alone).
    pub canonical: PathBuf,
    /// SHA-256 of the job file's bytes, in lowercase hex (recorded in the manifest).
    pub sha256: String,
    /// The job file's master seed (None: each output's own, else its template's or the default).
    pub seed: Option<u64>,
    /// The output folder: the file's `out_dir`, else `output/<job file stem>`, both
    /// relative to the job file's folder.
    pub out_dir: PathBuf,
    /// The date the run is for, `YYYY-MM-DD`, when the job draws on it (a seed from
    /// the date, or a placeholder in `out_dir` or a name); recorded in the manifest.
    pub date: Option<String>,
    /// The outputs, in the job file's order (their files never collide).
    pub outputs: Vec<Output>,
    /// The catalogue of published puzzles the job's items and books draw past and
    /// add to (`catalogue = "PATH"`, relative to the job file).
    pub catalogue: Option<PathBuf>,
    /// The catalogue as the job file spells it (for the index, which is the same
    /// from whatever folder the job is run).
    pub catalogue_named: Option<String>,
    /// Keep this many date folders (`keep = N`): after a whole run, older folders
    /// this job made for other dates are removed (see [`retain::retain`]).
    pub keep: Option<u32>,
    /// The last part of `out_dir` as the job file writes it, when that part names the
    /// date (`{date}`, ...) and the parts before it do not: the date folders of
    /// this job are the folders beside the output folder named like it.
    pub date_folder: Option<String>,
}

/// One output of a job.
#[derive(Debug, Clone)]
pub struct Output {
    /// The file name inside the output folder (no folders, not hidden).
    pub name: String,
    /// The output's own seed, else the job's (None: the template's or the default).
    pub seed: Option<u64>,
    /// What to make, with its checked parameters.
    pub spec: Spec,
    /// SHA-256 of kind, configuration and tool version: what makes the output what it is.
    pub config_sha256: String,
}

impl Output {
    /// The files this output writes, relative to the output folder: its name, and
    /// the other files its kind's options name (a summary CSV, a report).
    pub fn files(&self) -> Vec<String> {
        match &self.spec {
            Spec::Images(i) => return i.files(&self.name),
            // The PDF, and beside it the facts to make it again.
            Spec::Book(_) => return vec![self.name.clone(), format!("{}.json", self.name)],
            _ => {}
        }
        self.target(Path::new(""))
            .all()
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .collect()
    }

    fn target(&self, dir: &Path) -> StatsFiles {
        match &self.spec {
            Spec::Statistic(s) => s.job_files(dir.join(&self.name), dir),
            _ => StatsFiles::single(dir.join(&self.name)),
        }
    }

    fn effective_seed(&self) -> u64 {
        match (&self.spec, self.seed) {
            (_, Some(s)) => s,
            (Spec::Book(b), None) => crate::book::Template::load(b.template_path())
                .ok()
                .and_then(|t| t.seed)
                .unwrap_or(crate::seed::DEFAULT_SEED),
            _ => crate::seed::DEFAULT_SEED,
        }
    }
}

/// Names in an output folder that puzzlebook keeps for itself.
const RESERVED: &[&str] = &[
    "manifest.json",
    "parts",
    PUBLISHED,
    "index.json",
    "index.md",
];

fn file_name_ok(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.chars().any(char::is_control)
        && !name.contains(['/', '\\'])
        && !RESERVED.contains(&name)
}

impl Job {
    /// Every file the job reads, with what it is: the job file, each book's template
    /// and the fonts the template names.
    pub fn input_files(&self) -> Result<Vec<(String, PathBuf)>> {
        let mut v = vec![("the job file".to_string(), self.path.clone())];
        for o in &self.outputs {
            if let Spec::Book(b) = &o.spec {
                v.push((
                    format!("the template of '{}'", o.name),
                    b.template_path().to_path_buf(),
                ));
                let t = crate::book::Template::load(b.template_path())?;
                for (what, p) in t.input_files() {
                    v.push((format!("{what} (output '{}')", o.name), p));
                }
            }
        }
        Ok(v)
    }

    /// Read and check a job file for a run today (UTC); see [`Job::load_for`].
    pub fn load(path: &Path) -> Result<Job> {
        Job::load_for(path, date::RunDate::today())
    }

    /// Read and check a job file for a run on `run_date`: unknown keys, bad names,
    /// conflicting outputs, missing templates, unknown games and bad parameters are
    /// errors before anything runs. Seeds and names that draw on the date are filled
    /// in here.
    pub fn load_for(path: &Path, run_date: date::RunDate) -> Result<Job> {
        let l = Loader {
            path,
            run_date,
            dated: std::cell::Cell::new(false),
        };
        let (bytes, text) = l.read()?;
        let file = l.parse(&text)?;
        if file.output.is_empty() {
            return Err(l.bad("no [[output]] tables: name at least one output".into()));
        }
        if file.keep == Some(0) {
            return Err(l.bad(
                "keep = 0 would remove the run it makes: keep at least 1 date folder".into(),
            ));
        }
        let job_seed = match &file.seed {
            None => None,
            Some(v) => Some(l.seed(v).map_err(|e| l.bad(e))?),
        };
        let outputs = l.outputs(&text, file.output, job_seed, file.catalogue.as_deref())?;
        let (out_dir, date_folder) = l.out_dir(file.out_dir.as_deref(), file.keep)?;
        let catalogue = l.catalogue(file.catalogue.as_deref())?;
        let canonical =
            std::fs::canonicalize(path).map_err(|e| Error::io("cannot read job file", path, e))?;
        Ok(Job {
            path: path.to_path_buf(),
            canonical,
            sha256: manifest::sha256_hex(&bytes),
            seed: job_seed,
            out_dir,
            date: l.dated.get().then(|| run_date.iso()),
            outputs,
            catalogue,
            catalogue_named: file
                .catalogue
                .as_deref()
                .map(|c| run_date.expand(c).unwrap_or_else(|_| c.to_string())),
            keep: file.keep,
            date_folder,
        })
    }
}

/// The loading of one job file: where it is, the date it runs for, and whether
/// anything read so far draws on that date.
struct Loader<'a> {
    path: &'a Path,
    run_date: date::RunDate,
    dated: std::cell::Cell<bool>,
}

impl Loader<'_> {
    /// An error in the job file, naming it.
    fn bad(&self, m: String) -> Error {
        Error::invalid(format!("job {}: {m}", self.path.display()))
    }

    /// An error in the output named `name`, whose table starts on `line`.
    fn at(&self, line: usize, name: &str, m: String) -> Error {
        let shown = crate::input::excerpt(name);
        self.bad(format!("line {line}: output '{shown}': {m}"))
    }

    /// Note that what was just read draws on the date (when `dated`).
    fn draws_on_date(&self, dated: bool) {
        self.dated.set(self.dated.get() | dated);
    }

    /// A path the job file names, relative to the job file's folder.
    fn near_job(&self, p: &Path) -> PathBuf {
        if p.is_relative() {
            self.path.parent().unwrap_or(Path::new("")).join(p)
        } else {
            p.to_path_buf()
        }
    }

    /// The job file's bytes, and the same as text.
    fn read(&self) -> Result<(Vec<u8>, String)> {
        let path = self.path;
        let bytes = crate::input::read_capped(path, crate::limits::MAX_CONFIG_BYTES, "job file")
            .map_err(|e| match e {
                Error::Io { source, .. } => Error::io("cannot read job file", path, source),
                e => e,
            })?;
        let text =
            String::from_utf8(bytes.clone()).map_err(|_| self.bad("not UTF-8 text".into()))?;
        Ok((bytes, text))
    }

    /// The job file's text as TOML, in the shape of a job file.
    fn parse(&self, text: &str) -> Result<JobFile> {
        toml::from_str(text).map_err(|e| {
            let m = crate::input::toml_error(&e, text);
            // `[output]` (one table) where `[[output]]` (a list of them) is meant.
            let single = toml::from_str::<toml::Table>(text)
                .ok()
                .is_some_and(|t| t.get("output").is_some_and(toml::Value::is_table));
            if single {
                self.bad(format!("{m}: write each output as an [[output]] table"))
            } else {
                self.bad(m)
            }
        })
    }

    /// A seed as the job file writes it (a number, `"date"` or `"date+N"`), for the
    /// run's date.
    fn seed(&self, v: &toml::Value) -> std::result::Result<u64, String> {
        let spec = date::SeedSpec::from_toml(v, "seed").map_err(|e| e.to_string())?;
        self.draws_on_date(spec.is_dated());
        Ok(spec.seed(self.run_date))
    }

    /// Every `[[output]]` table, checked, in order; no two may write one file.
    fn outputs(
        &self,
        text: &str,
        tables: Vec<toml::Spanned<toml::Table>>,
        job_seed: Option<u64>,
        catalogue: Option<&str>,
    ) -> Result<Vec<Output>> {
        let mut outputs: Vec<Output> = Vec::new();
        let mut written: Vec<(String, String)> = Vec::new();
        for (i, spanned) in tables.into_iter().enumerate() {
            // Errors inside an [[output]] table name the line the table starts on.
            let start = spanned.span().start.min(text.len());
            let line = text.as_bytes()[..start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            let o = self.output(i, line, spanned.into_inner(), job_seed, catalogue)?;
            for f in o.files() {
                if !file_name_ok(&f) {
                    return Err(self.at(line, &o.name, format!("'{f}' is not a plain file name")));
                }
                if let Some((other, _)) = written.iter().find(|(_, g)| *g == f) {
                    return Err(self.bad(format!(
                        "conflicting outputs: '{other}' and '{}' both write {f}",
                        o.name
                    )));
                }
                written.push((o.name.clone(), f));
            }
            outputs.push(o);
        }
        Ok(outputs)
    }

    /// The `i`th `[[output]]` table, starting on `line`: its name, seed and checked
    /// configuration.
    fn output(
        &self,
        i: usize,
        line: usize,
        mut t: toml::Table,
        job_seed: Option<u64>,
        catalogue: Option<&str>,
    ) -> Result<Output> {
        let name = self.output_name(t.remove("name"), i, line)?;
        let at = |m: String| self.at(line, &name, m);
        if !file_name_ok(&name) {
            return Err(at(format!(
                "the name is a file name inside out_dir: no folders, not hidden, no control characters, and none of the names puzzlebook keeps for itself ({})",
                RESERVED.join(", ")
            )));
        }
        let seed = match t.remove("seed") {
            None => job_seed,
            Some(v) => Some(self.seed(&v).map_err(at)?),
        };
        let mut spec = Spec::from_table(t).map_err(at)?;
        if let Spec::Book(b) = &mut spec {
            self.place_template(b, catalogue).map_err(at)?;
        }
        let mut config = spec.check(seed).map_err(|e| at(e.to_string()))?;
        if let Spec::Images(i) = &mut spec {
            i.solutions = config["solutions"] == true;
        }
        if let (Some(c), true) = (catalogue, spec.publishes()) {
            // Drawn past a catalogue: other puzzles than without one.
            config["catalogue"] = json!(c);
        }
        let config_sha256 = manifest::sha256_hex(
            json!({"kind": spec.kind(), "version": crate::VERSION, "config": config})
                .to_string()
                .as_bytes(),
        );
        Ok(Output {
            name,
            seed,
            spec,
            config_sha256,
        })
    }

    /// The `name` of the `i`th output, with the date filled in.
    fn output_name(&self, v: Option<toml::Value>, i: usize, line: usize) -> Result<String> {
        match v {
            Some(toml::Value::String(s)) => {
                let named = self.run_date.expand(&s).map_err(|e| {
                    self.bad(format!("line {line}: output {}: the name {e}", i + 1))
                })?;
                self.draws_on_date(named != s);
                Ok(named)
            }
            _ => Err(self.bad(format!(
                "line {line}: output {} has no name = \"FILE\"",
                i + 1
            ))),
        }
    }

    /// A book's template, read relative to the job file; its template may not name a
    /// catalogue the job file does not.
    fn place_template(
        &self,
        b: &mut make::BookSpec,
        catalogue: Option<&str>,
    ) -> std::result::Result<(), String> {
        b.read_from = Some(self.near_job(&b.template));
        let named = crate::book::Template::load(b.template_path())
            .ok()
            .and_then(|t| t.catalogue);
        if named.is_some() && catalogue.is_none() {
            return Err(format!(
                "its template names a catalogue ({}); a job draws from the catalogue its job file names: add catalogue = \"PATH\" to the job",
                named.unwrap_or_default().display()
            ));
        }
        Ok(())
    }

    /// The output folder (`out_dir` with the date filled in, else
    /// `output/<job file stem>`) and the date folder pattern (see [`Job::date_folder`]);
    /// `keep` needs the date in the last folder of `out_dir`.
    fn out_dir(
        &self,
        out_dir: Option<&str>,
        keep: Option<u32>,
    ) -> Result<(PathBuf, Option<String>)> {
        let stem = self
            .path
            .file_stem()
            .map_or("job".into(), |s| s.to_string_lossy().into_owned());
        let mut dir_dated = false;
        let date_folder = out_dir.and_then(|d| {
            let d = d.trim_end_matches('/');
            let (head, last) = d.rsplit_once('/').unwrap_or(("", d));
            let plain = |s: &str| self.run_date.expand(s).is_ok_and(|e| e == s);
            (plain(head) && !plain(last)).then(|| last.to_string())
        });
        if let Some(d) = out_dir.filter(|d| d.chars().any(char::is_control)) {
            return Err(self.bad(format!(
                "out_dir {} has control characters in its name (shown escaped): choose a name without them",
                crate::output::escaped(d)
            )));
        }
        let dir = match out_dir {
            Some(dir) => {
                let expanded = self
                    .run_date
                    .expand(dir)
                    .map_err(|e| self.bad(format!("out_dir {e}")))?;
                dir_dated = expanded != dir;
                self.draws_on_date(dir_dated);
                self.near_job(Path::new(&expanded))
            }
            None => self.near_job(&Path::new("output").join(stem)),
        };
        if keep.is_some() && !dir_dated {
            return Err(self.bad(
                "keep = N removes older date folders, but out_dir has no {date} (or {year}, {month}, {day}, {week}): put one in out_dir".into(),
            ));
        }
        if keep.is_some() && date_folder.is_none() {
            return Err(self.bad(
                "keep = N needs the date in the last folder of out_dir only (e.g. out_dir = \"../feed/{date}\")".into(),
            ));
        }
        Ok((dir, date_folder))
    }

    /// The catalogue's path (`catalogue`, with the date filled in, relative to the job
    /// file's folder), checked.
    fn catalogue(&self, c: Option<&str>) -> Result<Option<PathBuf>> {
        let Some(c) = c else {
            return Ok(None);
        };
        let expanded = self
            .run_date
            .expand(c)
            .map_err(|e| self.bad(format!("catalogue {e}")))?;
        if expanded.is_empty() {
            return Err(self.bad("catalogue is empty: name a file".into()));
        }
        if expanded.ends_with('/') {
            return Err(self.bad(format!("catalogue {expanded}: name a file, not a folder")));
        }
        let path = crate::catalogue::normalize(&self.near_job(Path::new(&expanded)));
        crate::catalogue::check_path(&path).map_err(|e| self.bad(e.to_string()))?;
        Ok(Some(path))
    }
}

/// How progress is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogStyle {
    /// One line per event on standard error.
    #[default]
    Text,
    /// One JSON object per event on standard error.
    Json,
}

/// Where a run's events go (standard error, in the chosen style).
struct Log {
    style: LogStyle,
}

/// Progress events of one output while it is being made (JSON log only): every
/// few seconds `{"event":"progress","output":...,"done":N,"total":T}` from
/// [`crate::progress`]. Stops when dropped.
pub struct Ticker {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Seconds between progress events (PUZZLEBOOK_PROGRESS_SECONDS overrides the 10).
fn progress_interval() -> std::time::Duration {
    let secs = std::env::var("PUZZLEBOOK_PROGRESS_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&s| s > 0.0 && s < 1e6)
        .unwrap_or(10.0);
    std::time::Duration::from_secs_f64(secs)
}

impl Log {
    /// Start progress events for `output` (None in text mode: lines per output only).
    fn ticker(&self, output: &str, total: impl FnOnce() -> Option<u64>) -> Option<Ticker> {
        if self.style != LogStyle::Json {
            return None;
        }
        let total = total();
        crate::progress::reset();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (flag, name, every) = (stop.clone(), output.to_string(), progress_interval());
        let started = Instant::now();
        let thread = std::thread::spawn(move || loop {
            std::thread::park_timeout(every);
            if flag.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
            let done = crate::progress::done();
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "{}",
                json!({"event": "progress", "output": name, "done": done, "total": total,
                       "seconds": secs, "per_second": done as f64 / secs.max(1e-9)})
            );
        });
        Some(Ticker {
            stop,
            thread: Some(thread),
        })
    }

    fn event(&self, text: String, v: Value) {
        match self.style {
            LogStyle::Text => eprintln!("{text}"),
            LogStyle::Json => eprintln!("{v}"),
        }
    }
}

/// How to run a job.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Output folder overriding the job's `out_dir`.
    pub out_dir: Option<PathBuf>,
    /// Make only this shard's parts.
    pub shard: Option<Shard>,
    /// Merge the shards' parts into the outputs.
    pub merge: bool,
    /// Make every output again even when the manifest says it is made.
    pub force: bool,
    /// Threads and progress bar for the work inside each output.
    pub env: Env,
    /// How events are written to standard error.
    pub log: LogStyle,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    /// Outputs made (or, for a shard run, whose parts were made) by this run.
    pub made: usize,
    /// Outputs left alone because the manifest already lists them as made.
    pub skipped: usize,
    /// The output folder the run wrote to.
    pub out_dir: PathBuf,
    /// The catalogue a whole run drew from: (path, puzzles added, already there).
    pub catalogue: Option<(PathBuf, usize, usize)>,
}

/// Open (creating it) a lock file inside the job's folder: never through a link,
/// never blocking on a FIFO, and only a regular file.
fn open_lock_file(path: &Path) -> Result<(std::fs::File, bool)> {
    crate::output::check_own_name(path)?;
    let open = |create_new: bool| {
        let mut o = std::fs::OpenOptions::new();
        if create_new {
            o.create_new(true);
        }
        o.read(true).write(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
        }
        o.open(path)
    };
    let (f, created) = match open(true) {
        Ok(f) => (f, true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => (
            open(false).map_err(|e| Error::io("cannot open", path, e))?,
            false,
        ),
        Err(e) => return Err(Error::io("cannot create", path, e)),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // A hard link planted at a lock's name would let the holder's note land in
        // a file outside the folder.
        if f.metadata().is_ok_and(|m| m.nlink() > 1) {
            return Err(Error::invalid(format!(
                "{} has other hard links, in an output folder whose names puzzlebook owns: remove it and run again",
                path.display()
            )));
        }
    }
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return Err(Error::invalid(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok((f, created))
}

/// (device, inode) of a file.
fn file_id(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

/// A lock a run holds: the file, its path, and whether this run created it (a run
/// that fails removes the lock files it created, so a refused run leaves none).
pub struct Held {
    file: std::fs::File,
    path: PathBuf,
    created: bool,
}

/// The locks of one run; dropped unreleased (the run failed), the lock files it
/// created are removed while still held, when they are still the files it locked.
pub struct RunLock {
    held: Vec<Held>,
    keep: bool,
}

impl RunLock {
    /// The run went through: its lock files stay (they are reused by the next run).
    fn keep(&mut self) {
        self.keep = true;
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if self.keep {
            return;
        }
        for h in self.held.iter().rev().filter(|h| h.created) {
            let ours = h
                .file
                .metadata()
                .ok()
                .zip(std::fs::symlink_metadata(&h.path).ok());
            if ours.is_some_and(|(a, b)| file_id(&a) == file_id(&b)) {
                let _ = std::fs::remove_file(&h.path);
            }
        }
    }
}

/// Take the lock at `path` (shared or exclusive) without waiting; an exclusive holder
/// writes `note` into it. `busy` words the refusal, given who holds the lock.
fn take_lock(
    path: &Path,
    shared: bool,
    note: &str,
    busy: impl Fn(Option<String>) -> String,
) -> Result<Held> {
    // A lock file removed by a failed run between our open and our lock would leave
    // us holding a file no longer there: after locking, the path must still be the
    // file locked, else try again.
    for _ in 0..8 {
        let (f, created) = open_lock_file(path)?;
        let got = if shared {
            f.try_lock_shared()
        } else {
            f.try_lock()
        };
        match got {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(Error::Busy(busy(holder(path)))),
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io("cannot lock", path, e)),
        }
        let same = f.metadata().ok().zip(std::fs::symlink_metadata(path).ok());
        if same.is_none_or(|(a, b)| file_id(&a) != file_id(&b)) {
            continue;
        }
        if shared {
            // Shared holders are many: the lock names none of them.
            let _ = f.set_len(0);
        } else {
            record_holder(&f, note);
        }
        return Ok(Held {
            file: f,
            path: path.to_path_buf(),
            created,
        });
    }
    Err(Error::Busy(busy(None)))
}

/// Write this process's id into a lock file it holds exclusively, so that a run
/// refused by the lock can name who holds it (best effort).
fn record_holder(f: &std::fs::File, what: &str) {
    use std::io::{Seek, Write};
    let mut f = f;
    let _ = f.set_len(0);
    let _ = f.seek(std::io::SeekFrom::Start(0));
    let _ = writeln!(f, "process {} ({what})", std::process::id());
}

/// Who holds a lock, as its holder wrote it ("process 123 (shard 0/2)"), if known.
fn holder(path: &Path) -> Option<String> {
    let f = crate::jobs::manifest::open_regular(path).ok()?;
    let mut s = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(f, 200), &mut s).ok()?;
    let s = s.trim();
    (!s.is_empty() && s.starts_with("process ")).then(|| s.to_string())
}

/// Keep two runs from writing one folder at once: a whole run or a merge holds an
/// exclusive lock on `DIR/.puzzlebook.lock`, shard runs (which write only their own
/// parts) a shared one, and each shard run also an exclusive lock on
/// `DIR/.puzzlebook.shard-K-of-N.lock`, so the same shard is never made twice at once
/// (a retried array task). The operating system drops a lock when the process ends,
/// however it ends.
fn lock(dir: &Path, shard: Option<Shard>) -> Result<RunLock> {
    let mut run = RunLock {
        held: Vec::new(),
        keep: false,
    };
    run.held.push(take_lock(
        &dir.join(".puzzlebook.lock"),
        shard.is_some(),
        "a whole run or a merge",
        |who| {
            format!(
                "another puzzlebook run is using {} ({}): wait for it to finish",
                dir.display(),
                who.unwrap_or_else(|| "shard runs".into())
            )
        },
    )?);
    if let Some(s) = shard {
        let path = dir.join(format!(".puzzlebook.shard-{}-of-{}.lock", s.index, s.count));
        run.held
            .push(take_lock(&path, false, &format!("shard {s}"), |who| {
                format!(
                "shard {s} of this job is already being made in {} by {}: wait for it to finish",
                dir.display(),
                who.unwrap_or_else(|| "another run".into())
            )
            })?);
    }
    Ok(run)
}

/// Remove temporary files an earlier, killed run may have left for these files (a
/// temporary file a live writer holds is left alone).
fn clean_stale(dir: &Path, files: &[String]) {
    for f in files {
        crate::output::remove_stale(dir, f);
    }
}

fn up_to_date(m: &Manifest, o: &Output, dir: &Path) -> bool {
    let entries = m.entries(&o.name);
    let files = o.files();
    entries.len() == files.len()
        && files.iter().all(|f| {
            entries.iter().any(|e| {
                e.file == *f
                    && e.config_sha256 == o.config_sha256
                    && manifest::file_sha256(&dir.join(f))
                        .is_ok_and(|(h, n)| h == e.sha256 && n == e.bytes)
            })
        })
}

/// Run a job: whole, one shard, or the merge of the shards.
pub fn run(job: &Job, opts: &RunOptions) -> Result<RunReport> {
    let dir = opts.out_dir.clone().unwrap_or_else(|| job.out_dir.clone());
    // A date folder is one the job makes: a link planted at its name would send the
    // run's files elsewhere.
    if opts.out_dir.is_none()
        && job.date_folder.is_some()
        && std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(Error::invalid(format!(
            "{} is a symbolic link: a date folder the job makes must be a real folder; remove the link, or name the folder with --out-dir",
            crate::output::escaped_path(&dir)
        )));
    }
    let (_owned, _owned_parts) = own_folders(&dir, opts.shard)?;
    let own = own_names(job, &dir, opts.shard)?;
    check_inputs(job, &dir, &own)?;
    let mut lock = lock(&dir, opts.shard)?;
    check_not_anothers(job, &dir, opts.force)?;
    // Files of these names that puzzlebook did not write are the user's: refused,
    // never replaced.
    if opts.shard.is_none() {
        index::check_not_users(job, &dir)?;
    }
    let log = Log { style: opts.log };
    log_start(&log, job, opts, &dir);
    let started = Instant::now();
    let report = match opts.shard {
        Some(shard) => run_shard(job, opts, &dir, shard, &log)?,
        None => run_whole(job, opts, &dir, &log)?,
    };
    if opts.shard.is_none() && job.date.is_some() {
        write_index(job, &dir, &report)?;
    }
    if let (None, Some(keep), Some(pattern)) = (opts.shard, job.keep, &job.date_folder) {
        if opts.out_dir.is_some() {
            // The folder named on the command line is not the job's out_dir: its
            // neighbours are none of this job's date folders.
            log.event(
                format!("keep = {keep}: nothing removed, as --out-dir names the output folder (retention looks only beside the job's own out_dir)"),
                json!({"event": "retention_off", "keep": keep, "reason": "--out-dir"}),
            );
        } else {
            retain_dates(job, &dir, pattern, keep, &log)?;
        }
    }
    lock.keep();
    log.event(
        format!(
            "done: {} made, {} up to date, in {:.2} s",
            report.made,
            report.skipped,
            started.elapsed().as_secs_f64()
        ),
        json!({"event": "done", "made": report.made, "up_to_date": report.skipped,
               "seconds": started.elapsed().as_secs_f64()}),
    );
    Ok(report)
}

/// Refuse a folder another job's run made (its manifest names another job file),
/// unless `force`: its outputs would be replaced by this job's.
fn check_not_anothers(job: &Job, dir: &Path, force: bool) -> Result<()> {
    let Ok((m, _)) = Manifest::load_checked(&dir.join("manifest.json")) else {
        return Ok(());
    };
    match &m.job_path {
        Some(p) if *p != job.canonical.display().to_string() && !force => {
            Err(Error::invalid(format!(
                "{} holds the outputs of another job ({}): choose another out_dir, or run with --force to make this job's outputs there instead",
                crate::output::escaped_path(dir),
                crate::output::escaped(p)
            )))
        }
        _ => Ok(()),
    }
}

/// Create the output folder (and for a shard run its parts folder) and own the
/// names in both while the run lasts; a file or a link where a folder goes is refused.
fn own_folders(
    dir: &Path,
    shard: Option<Shard>,
) -> Result<(
    crate::output::OwnedFolder,
    Option<crate::output::OwnedFolder>,
)> {
    if dir.exists() && !dir.is_dir() {
        return Err(Error::invalid(format!(
            "the output folder {} is a file: name a folder (out_dir in the job, or --out-dir)",
            dir.display()
        )));
    }
    crate::output::create_folder(dir, "the output folder")?;
    // Inside the output folder puzzlebook owns the names: a link, FIFO or device at
    // any name it writes is refused before any work, and never followed later.
    let parts_dir = dir.join("parts");
    match std::fs::symlink_metadata(&parts_dir) {
        Ok(m) if !m.is_dir() => {
            return Err(Error::invalid(format!(
                "{} is not a folder (a link or a file), in an output folder whose names puzzlebook owns: remove it and run again",
                parts_dir.display()
            )))
        }
        _ => {}
    }
    let owned = crate::output::own_folder(dir)?;
    if shard.is_some() {
        crate::output::create_folder(&parts_dir, "the parts folder")?;
    }
    let owned_parts = if parts_dir.is_dir() {
        Some(crate::output::own_folder(&parts_dir)?)
    } else {
        None
    };
    Ok((owned, owned_parts))
}

/// Every name in the output folder the run may write (its own files, the outputs
/// and, for a shard run, their parts), each checked to be no link, FIFO or device.
fn own_names(job: &Job, dir: &Path, shard: Option<Shard>) -> Result<Vec<PathBuf>> {
    let parts_dir = dir.join("parts");
    let mut own: Vec<PathBuf> = [
        "manifest.json",
        ".puzzlebook.lock",
        PUBLISHED,
        "index.json",
        "index.md",
    ]
    .iter()
    .map(|n| dir.join(n))
    .collect();
    for o in &job.outputs {
        own.extend(o.files().iter().map(|f| dir.join(f)));
        if let Some(s) = shard {
            // A shard's part, or a whole book's (the shards take turns at books).
            own.push(part::part_name(&parts_dir, &o.name, s));
            own.push(part::part_name(&parts_dir, &o.name, Shard::default()));
        }
    }
    for p in &own {
        crate::output::check_own_name(p)?;
    }
    Ok(own)
}

/// No output may be an input of the whole job: the job file, any book's template
/// or the fonts it names; the catalogue (read and written) is neither an input nor
/// any of the files `own` the run writes.
fn check_inputs(job: &Job, dir: &Path, own: &[PathBuf]) -> Result<()> {
    let inputs = job.input_files()?;
    let inputs: Vec<(&str, &Path)> = inputs
        .iter()
        .map(|(w, p)| (w.as_str(), p.as_path()))
        .collect();
    for o in &job.outputs {
        for f in o.files() {
            crate::output::check_distinct(&[(&o.name, &dir.join(&f))], &inputs)?;
        }
    }
    crate::output::check_distinct(&[("manifest.json", &dir.join("manifest.json"))], &inputs)?;
    if let Some(cat) = &job.catalogue {
        crate::output::check_distinct(&[("the catalogue", cat)], &inputs)?;
        let lock = crate::catalogue::lock_path(cat);
        for p in own {
            for (what, c) in [
                ("the catalogue", cat.as_path()),
                ("the catalogue's lock", &lock),
            ] {
                if crate::output::same_file(c, p) || c == p.as_path() {
                    return Err(Error::invalid(format!(
                        "{what} {} is also a file the run writes ({}): name another catalogue",
                        c.display(),
                        p.display()
                    )));
                }
            }
        }
    }
    Ok(())
}

/// Log the start of a run: the job, its date, the output folder and the mode.
fn log_start(log: &Log, job: &Job, opts: &RunOptions, dir: &Path) {
    let what = match (opts.shard, opts.merge) {
        (Some(s), _) => format!("shard {s}"),
        (None, true) => "merge of the shards".into(),
        (None, false) => "whole run".into(),
    };
    let for_date = job
        .date
        .as_ref()
        .map_or(String::new(), |d| format!(" for {d}"));
    let mut start = json!({"event": "start", "job": job.path.display().to_string(), "outputs": job.outputs.len(),
               "out_dir": dir.display().to_string(), "mode": what, "version": crate::VERSION});
    if let Some(d) = &job.date {
        start["date"] = json!(d);
    }
    log.event(
        format!(
            "job {}{for_date}: {} outputs into {} ({what})",
            job.path.display(),
            job.outputs.len(),
            dir.display()
        ),
        start,
    );
}

/// Write the index of a dated job's run, and refuse the run when a file no longer
/// matches the manifest just written.
fn write_index(job: &Job, dir: &Path, report: &RunReport) -> Result<()> {
    let cat = report
        .catalogue
        .as_ref()
        .zip(job.catalogue_named.as_deref())
        .map(|((_, a, t), named)| (Path::new(named), *a + *t));
    let index = index::write(job, dir, cat)?;
    if index["verified"] != true {
        return Err(Error::check(format!(
            "{}: a file does not match the manifest just written (see index.md): another process changed it; run again",
            dir.display()
        )));
    }
    Ok(())
}

/// Keep `keep` date folders of the job (named like `pattern`), and log what was
/// removed and what was left.
fn retain_dates(job: &Job, dir: &Path, pattern: &str, keep: u32, log: &Log) -> Result<()> {
    let r = retain::retain(job, dir, pattern, keep)?;
    for p in &r.removed {
        log.event(
            format!("removed {} (keep = {keep})", crate::output::escaped_path(p)),
            json!({"event": "removed", "folder": p.display().to_string(), "keep": keep}),
        );
    }
    for (p, why) in &r.kept {
        log.event(
            format!("left {}: {why}", crate::output::escaped_path(p)),
            json!({"event": "left", "folder": p.display().to_string(), "reason": why}),
        );
    }
    Ok(())
}

fn log_made(log: &Log, name: &str, kind: &str, made: &Made, secs: f64, bytes: u64) {
    let rate = made.items as f64 / secs.max(1e-9);
    let note = if made.note.is_empty() {
        String::new()
    } else {
        format!(", {}", made.note)
    };
    log.event(
        format!(
            "made {name}: {} items in {secs:.2} s ({}), {} KB{note}",
            made.items,
            crate::progress::rate(made.items, secs),
            bytes.div_ceil(1024)
        ),
        json!({"event": "made", "output": name, "kind": kind, "items": made.items,
               "seconds": secs, "per_second": rate, "bytes": bytes,
               "files": made.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>()}),
    );
}

fn run_whole(job: &Job, opts: &RunOptions, dir: &Path, log: &Log) -> Result<RunReport> {
    let mpath = dir.join("manifest.json");
    let mut m = whole_manifest(job, &mpath);
    let mut report = RunReport {
        out_dir: dir.to_path_buf(),
        ..RunReport::default()
    };
    // Drawing past a catalogue: this job's entries for this date are its own (a rerun
    // makes them again); every output's puzzles are kept in published.txt until the
    // whole run is done, and only then added to the catalogue.
    let mut pool = match &job.catalogue {
        Some(path) => Some(Pool::open(job, path, dir)?),
        None => None,
    };
    for o in &job.outputs {
        crate::interrupt::check()?;
        let skip = can_skip(&m, o, dir, pool.as_ref(), opts.force, log);
        // The up-to-date check hashes the files (a large one for a while): a stop
        // asked for meanwhile ends the run here.
        crate::interrupt::check()?;
        if skip {
            if let Some(p) = pool.as_mut().filter(|_| o.spec.publishes()) {
                p.draw_past(o);
            }
            report.skipped += 1;
            log.event(
                format!("up to date: {}", o.name),
                json!({"event": "up_to_date", "output": o.name}),
            );
            continue;
        }
        clean_stale(dir, &o.files());
        let t = Instant::now();
        let _ticker = log.ticker(&o.name, || o.spec.total(Shard::default()));
        let made = make_whole(job, opts, dir, o, pool.as_mut())?;
        let secs = t.elapsed().as_secs_f64();
        let bytes = record_made(&mut m, job, o, dir, &made, secs)?;
        m.save(&mpath)?;
        report.made += 1;
        log_made(log, &o.name, o.spec.kind(), &made, secs, bytes);
    }
    m.save(&mpath)?;
    if let Some(p) = pool.as_mut() {
        commit_pool(p, &mut report, log)?;
    }
    Ok(report)
}

/// The manifest a whole run starts from: the one at `mpath` when this version wrote
/// it (else an empty one), naming this job, with entries of this job's outputs only.
fn whole_manifest(job: &Job, mpath: &Path) -> Manifest {
    let mut m = Manifest::load(mpath)
        .ok()
        .filter(|m| m.version == crate::VERSION)
        .unwrap_or(Manifest {
            tool: "puzzlebook".into(),
            version: crate::VERSION.into(),
            job: String::new(),
            job_path: None,
            job_sha256: String::new(),
            seed: None,
            date: None,
            outputs: Vec::new(),
            seal: None,
        });
    m.job = job.path.display().to_string();
    m.job_path = Some(job.canonical.display().to_string());
    m.job_sha256 = job.sha256.clone();
    m.seed = job.seed;
    m.date = job.date.clone();
    m.outputs
        .retain(|e| job.outputs.iter().any(|o| o.name == e.output));
    m
}

/// Whether a whole run leaves an output as it is (unless `force`d): it is up to date
/// and, drawn past a catalogue, published.txt holds its puzzles and no other run has
/// published any of them since (which is logged: the output is made again).
fn can_skip(
    m: &Manifest,
    o: &Output,
    dir: &Path,
    pool: Option<&Pool>,
    force: bool,
    log: &Log,
) -> bool {
    let drawn = pool.filter(|_| o.spec.publishes());
    let recorded = drawn.is_none_or(|p| p.holds(o, m.entries(&o.name).first().map(|e| e.items)));
    // An output made by a run that stopped before adding to the catalogue: if
    // another run published any of its puzzles meanwhile, it is made again.
    let taken_meanwhile = drawn.map_or(0, |p| p.collisions(o));
    if taken_meanwhile > 0 && up_to_date(m, o, dir) {
        log.event(
            format!(
                "made again: {} ({taken_meanwhile} of its puzzles were published by another run since it was made)",
                o.name
            ),
            json!({"event": "published_meanwhile", "output": o.name, "puzzles": taken_meanwhile}),
        );
    }
    !force && up_to_date(m, o, dir) && recorded && taken_meanwhile == 0
}

/// Make one output of a whole run, or of a merge from the shards' parts; an output
/// that publishes draws past the pool and records what it published there.
fn make_whole(
    job: &Job,
    opts: &RunOptions,
    dir: &Path,
    o: &Output,
    pool: Option<&mut Pool>,
) -> Result<Made> {
    let publishing = pool.is_some() && o.spec.publishes();
    let mut pool = pool.filter(|_| publishing);
    let made = if opts.merge && !whole_only(job, o) {
        let parts = find_parts(&dir.join("parts"), o)?;
        make::merge(&parts, &o.target(dir))?.made
    } else {
        // Outputs drawn past a catalogue are made whole, by the merge of a
        // sharded run too: only one run can choose them in order.
        o.spec.make(
            o.seed,
            Shard::default(),
            &Target::Whole(o.target(dir)),
            &opts.env,
            pool.as_mut().map(|p| &mut p.seen),
        )?
    };
    if let Some(p) = pool {
        p.record(o, &made.published)?;
    }
    Ok(made)
}

/// Replace an output's manifest entries with one per file it wrote (entries in job
/// order, so the manifest reads like the job file); returns the bytes written.
fn record_made(
    m: &mut Manifest,
    job: &Job,
    o: &Output,
    dir: &Path,
    made: &Made,
    secs: f64,
) -> Result<u64> {
    m.outputs.retain(|e| e.output != o.name);
    let mut bytes = 0;
    for f in o.files() {
        let (sha256, n) = manifest::file_sha256(&dir.join(&f))?;
        bytes += n;
        m.outputs.push(Entry {
            output: o.name.clone(),
            kind: o.spec.kind().into(),
            file: f,
            sha256,
            bytes: n,
            items: made.items,
            seconds: (secs * 1000.0).round() / 1000.0,
            config_sha256: o.config_sha256.clone(),
            seed: o.effective_seed(),
        });
    }
    m.outputs
        .sort_by_key(|e| job.outputs.iter().position(|o| o.name == e.output));
    Ok(bytes)
}

/// Add what a whole run published to its catalogue, and log how many were added.
fn commit_pool(p: &mut Pool, report: &mut RunReport, log: &Log) -> Result<()> {
    let (added, there) = p.commit()?;
    report.catalogue = Some((p.catalogue.path().to_path_buf(), added, there));
    log.event(
        format!(
            "catalogue {}: {added} puzzles added, {there} already there",
            p.catalogue.path().display()
        ),
        json!({"event": "catalogue", "catalogue": p.catalogue.path().display().to_string(),
               "added": added, "already_there": there}),
    );
    Ok(())
}

/// Whether an output is made whole even in a sharded run (by its merge): puzzles
/// drawn past a catalogue (chosen in order) and pictures (a file each).
fn whole_only(job: &Job, o: &Output) -> bool {
    (job.catalogue.is_some() && o.spec.publishes()) || matches!(o.spec, Spec::Images(_))
}

/// A whole run's draw from its job's catalogue: the catalogue (locked), the
/// fingerprints to draw past, and what each output published (`published.txt` in the
/// output folder, sealed, kept until the whole run is done).
struct Pool {
    catalogue: crate::catalogue::Catalogue,
    seen: crate::catalogue::Seen,
    /// `published.txt`.
    path: PathBuf,
    /// Its entries, in job order.
    entries: Vec<crate::catalogue::Entry>,
    /// `JOB-STEM/`: where this job's entries say they come from (for people).
    prefix: String,
    /// Who made each publishing output's entries (see [`Output::maker`]).
    makers: Vec<(String, crate::catalogue::Maker)>,
    date: String,
}

impl Output {
    /// Who makes this output's puzzles, as its catalogue entries say: the job file
    /// (its absolute path), the output's name and its configuration (kind, parameters,
    /// seed, version). Two jobs of one file name, or one job whose output changed, never
    /// take each other's entries for their own.
    fn maker(&self, job: &Job) -> crate::catalogue::Maker {
        crate::catalogue::maker(&[
            "job",
            &job.canonical.to_string_lossy(),
            &self.name,
            &self.config_sha256,
        ])
    }
}

impl Pool {
    fn open(job: &Job, path: &Path, dir: &Path) -> Result<Pool> {
        let stem = job
            .path
            .file_stem()
            .map_or("job".into(), |s| s.to_string_lossy().into_owned());
        let prefix = format!("{stem}/");
        let date = job.date.clone().unwrap_or_else(|| "-".into());
        let makers: Vec<(String, crate::catalogue::Maker)> = job
            .outputs
            .iter()
            .filter(|o| o.spec.publishes())
            .map(|o| (o.name.clone(), o.maker(job)))
            .collect();
        let ours = |date_of: &str, maker: Option<crate::catalogue::Maker>| {
            date_of == date && maker.is_some_and(|m| makers.iter().any(|(_, k)| *k == m))
        };
        let catalogue = crate::catalogue::Catalogue::open(path, crate::games::NAMES, |e| {
            ours(e.date, e.maker)
        })?;
        let adding: u64 = job.outputs.iter().map(|o| o.spec.publishes_at_most()).sum();
        catalogue.check_room(adding)?;
        let seen = catalogue.seen();
        let published = dir.join(PUBLISHED);
        // What an earlier, unfinished run of this date recorded (outputs of the job
        // only, at most what they publish), when puzzlebook wrote it.
        let mut entries = Vec::new();
        if published.exists() && published_is_ours(&published)? {
            let mut kept = 0u64;
            crate::catalogue::read_lines(&published, crate::games::NAMES, |e| {
                if ours(e.date, e.maker) && kept < adding {
                    kept += 1;
                    entries.push(e.to_entry());
                }
                Ok(())
            })
            .ok();
        }
        Ok(Pool {
            catalogue,
            seen,
            path: published,
            entries,
            prefix,
            makers,
            date,
        })
    }

    fn maker_of(&self, o: &Output) -> Option<crate::catalogue::Maker> {
        self.makers.iter().find(|(n, _)| *n == o.name).map(|m| m.1)
    }

    fn mine<'a>(&'a self, o: &Output) -> impl Iterator<Item = &'a crate::catalogue::Entry> {
        let maker = self.maker_of(o);
        self.entries
            .iter()
            .filter(move |e| maker.is_some() && e.maker == maker)
    }

    /// Whether published.txt holds the `items` puzzles of a made output.
    fn holds(&self, o: &Output, items: Option<u64>) -> bool {
        items.is_some_and(|n| self.mine(o).count() as u64 == n)
    }

    /// How many of an output's recorded puzzles are now taken: published by another
    /// run, or by an earlier output of this one.
    fn collisions(&self, o: &Output) -> usize {
        self.mine(o)
            .filter(|e| self.seen.contains(&e.fingerprint))
            .count()
    }

    /// An output already made: later outputs draw past its puzzles.
    fn draw_past(&mut self, o: &Output) {
        let fs: Vec<_> = self.mine(o).map(|e| e.fingerprint).collect();
        for f in fs {
            self.seen.take(f);
        }
    }

    /// Record what an output published (published.txt is rewritten whole, sealed).
    fn record(&mut self, o: &Output, published: &[crate::catalogue::Published]) -> Result<()> {
        let maker = self.maker_of(o);
        self.entries.retain(|e| e.maker != maker || maker.is_none());
        let own = format!("{}{}#", self.prefix, o.name);
        self.entries
            .extend(published.iter().map(|p| crate::catalogue::Entry {
                fingerprint: p.fingerprint,
                game: p.game,
                date: self.date.clone(),
                source: format!("{own}{}", p.place),
                maker,
            }));
        let mut text = String::from(PUBLISHED_HEADER);
        for e in &self.entries {
            text += &e.line();
        }
        let sealed = crate::output::seal::text(&text, crate::output::seal::HASH_COMMENT);
        crate::output::write_atomic(&self.path, sealed.as_bytes())
    }

    /// Add everything the run published to the catalogue: (added, already there).
    fn commit(&mut self) -> Result<(usize, usize)> {
        let added = self.catalogue.add(&self.entries)?;
        Ok((added, self.entries.len() - added))
    }
}

/// Whether `published.txt` at `path` is one this version wrote, unchanged (its seal).
pub fn published_is_ours(path: &Path) -> Result<bool> {
    crate::output::seal::text_file_ok(
        path,
        crate::output::seal::HASH_COMMENT,
        index::MAX_PUBLISHED_BYTES,
    )
}

/// The first line of `published.txt`.
pub const PUBLISHED_HEADER: &str = "# The puzzles this run published, as the catalogue lists them (added to it once every output is made).\n";

/// The file in an output folder that lists what a run drawing past a catalogue
/// published.
pub const PUBLISHED: &str = "published.txt";

/// The parts of one output made by `run --shard` for this configuration: one complete
/// set (shards 0..N-1 of one N). Files that are not parts of this output are ignored;
/// sets of another N left by an earlier run are ignored when one set is complete.
fn find_parts(parts_dir: &Path, o: &Output) -> Result<Vec<PathBuf>> {
    let prefix = format!("{}.part-", o.name);
    let mut by_n: std::collections::BTreeMap<u64, Vec<(u64, PathBuf)>> = Default::default();
    if let Ok(rd) = std::fs::read_dir(parts_dir) {
        for e in rd.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            // Only regular files: a FIFO or device planted here is never opened.
            let regular = e.file_type().is_ok_and(|t| t.is_file());
            if !(regular && n.starts_with(&prefix) && n.contains("-of-")) {
                continue;
            }
            if let Ok(p) = part::PartFile::open(&e.path()) {
                if p.header.job_output.as_deref() == Some(&o.config_sha256) {
                    let [k, count] = p.header.shard;
                    by_n.entry(count).or_default().push((k, e.path()));
                }
            }
        }
    }
    let complete: Vec<u64> = by_n
        .iter()
        .filter(|(n, v)| {
            let mut ks: Vec<u64> = v.iter().map(|x| x.0).collect();
            ks.sort_unstable();
            ks.dedup();
            ks.len() as u64 == **n && ks.iter().enumerate().all(|(i, &k)| i as u64 == k)
        })
        .map(|(n, _)| *n)
        .collect();
    if by_n.is_empty() {
        return Err(Error::invalid(format!(
            "no parts of '{}' for this job in {}: run the shards first (run JOB --shard K/N)",
            o.name,
            parts_dir.display()
        )));
    }
    let chosen = match complete.as_slice() {
        [n] => *n,
        // None complete: merge the largest set, and let the merge name what is missing.
        [] => *by_n
            .iter()
            .max_by_key(|(_, v)| v.len())
            .map(|(n, _)| n)
            .expect("not empty"),
        many => {
            return Err(Error::invalid(format!(
                "'{}' has complete sets of parts cut into {} shards in {}: delete the set you do not want",
                o.name,
                many.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" and "),
                parts_dir.display()
            )))
        }
    };
    let mut v: Vec<PathBuf> = by_n
        .remove(&chosen)
        .unwrap_or_default()
        .into_iter()
        .map(|x| x.1)
        .collect();
    v.sort();
    Ok(v)
}

fn run_shard(
    job: &Job,
    opts: &RunOptions,
    dir: &Path,
    shard: Shard,
    log: &Log,
) -> Result<RunReport> {
    let parts_dir = dir.join("parts");
    let mut report = RunReport {
        out_dir: dir.to_path_buf(),
        ..RunReport::default()
    };
    let mut books = 0u64;
    for o in &job.outputs {
        crate::interrupt::check()?;
        if whole_only(job, o) {
            // Chosen in order past the catalogue, or many files: the merge makes it whole.
            log.event(
                format!("left to the merge: {} (drawn past the catalogue)", o.name),
                json!({"event": "left_to_merge", "output": o.name}),
            );
            continue;
        }
        // A book is one PDF: the shards take turns making whole books.
        let my_shard = if matches!(o.spec, Spec::Book(_)) {
            let owner = books % shard.count;
            books += 1;
            if owner != shard.index {
                continue;
            }
            Shard::default()
        } else {
            shard
        };
        let path = part::part_name(&parts_dir, &o.name, my_shard);
        // Made only if the whole part is there and unchanged (its end line matches).
        let done = part::PartFile::open(&path).is_ok_and(|mut p| {
            p.header.job_output.as_deref() == Some(&o.config_sha256)
                && p.header.shard == [my_shard.index, my_shard.count]
                && p.check_whole().is_ok()
        });
        if done && !opts.force {
            report.skipped += 1;
            log.event(
                format!("up to date: {}", path.display()),
                json!({"event": "up_to_date", "output": o.name, "part": path.display().to_string()}),
            );
            continue;
        }
        clean_stale(
            &parts_dir,
            &[path.file_name().unwrap().to_string_lossy().into_owned()],
        );
        let t = Instant::now();
        let _ticker = log.ticker(&o.name, || o.spec.total(my_shard));
        let made = o.spec.make(
            o.seed,
            my_shard,
            &Target::Part {
                path: path.clone(),
                tag: Some(o.config_sha256.clone()),
            },
            &opts.env,
            None,
        )?;
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        report.made += 1;
        log_made(
            log,
            &o.name,
            o.spec.kind(),
            &made,
            t.elapsed().as_secs_f64(),
            bytes,
        );
    }
    Ok(report)
}
