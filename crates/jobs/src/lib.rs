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

#![deny(unsafe_code)]
#![deny(missing_docs)]

// The floors below, under the names the jobs' modules use.
use ground::{
    batch, catalogue, game, input, interrupt, limits, output, progress, seed, shard, statistic, svg,
};
pub use ground::{Error, Result};
use puzzlebook_book as book;

/// This build's version (written into part files and manifests).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod date;
mod file;
pub mod index;
mod lock;
mod log;
pub mod make;
pub mod manifest;
pub mod part;
mod pool;
pub mod retain;
pub use file::*;
pub use lock::*;
pub use log::*;
pub(crate) use pool::*;

use crate::game::Registry;
use crate::shard::Shard;
use make::{Env, Made, Spec, StatsFiles, Target};
use manifest::{Entry, Manifest};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

/// Remove temporary files an earlier, killed run may have left for these files (a
/// temporary file a live writer holds is left alone).
fn clean_stale(dir: &Path, files: &[String]) {
    for f in files {
        crate::output::remove_stale(dir, f);
    }
}

fn up_to_date<R: Registry>(m: &Manifest, o: &Output, dir: &Path) -> bool {
    let entries = m.entries(&o.name);
    let files = o.files::<R>();
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
pub fn run<R: Registry>(job: &Job, opts: &RunOptions) -> Result<RunReport> {
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
    let own = own_names::<R>(job, &dir, opts.shard)?;
    check_inputs::<R>(job, &dir, &own)?;
    let mut lock = lock(&dir, opts.shard)?;
    check_not_anothers(job, &dir, opts.force)?;
    // Files of these names that puzzlebook did not write are the user's: refused,
    // never replaced.
    if opts.shard.is_none() {
        index::check_not_users::<R>(job, &dir)?;
    }
    let log = Log { style: opts.log };
    log_start(&log, job, opts, &dir);
    let started = Instant::now();
    let report = match opts.shard {
        Some(shard) => run_shard::<R>(job, opts, &dir, shard, &log)?,
        None => run_whole::<R>(job, opts, &dir, &log)?,
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
            retain_dates::<R>(job, &dir, pattern, keep, &log)?;
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
fn own_names<R: Registry>(job: &Job, dir: &Path, shard: Option<Shard>) -> Result<Vec<PathBuf>> {
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
        own.extend(o.files::<R>().iter().map(|f| dir.join(f)));
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
fn check_inputs<R: Registry>(job: &Job, dir: &Path, own: &[PathBuf]) -> Result<()> {
    let inputs = job.input_files::<R>()?;
    let inputs: Vec<(&str, &Path)> = inputs
        .iter()
        .map(|(w, p)| (w.as_str(), p.as_path()))
        .collect();
    for o in &job.outputs {
        for f in o.files::<R>() {
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
fn retain_dates<R: Registry>(
    job: &Job,
    dir: &Path,
    pattern: &str,
    keep: u32,
    log: &Log,
) -> Result<()> {
    let r = retain::retain::<R>(job, dir, pattern, keep)?;
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

fn run_whole<R: Registry>(
    job: &Job,
    opts: &RunOptions,
    dir: &Path,
    log: &Log,
) -> Result<RunReport> {
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
        Some(path) => Some(Pool::open::<R>(job, path, dir)?),
        None => None,
    };
    for o in &job.outputs {
        crate::interrupt::check()?;
        let skip = can_skip::<R>(&m, o, dir, pool.as_ref(), opts.force, log);
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
        clean_stale(dir, &o.files::<R>());
        let t = Instant::now();
        let _ticker = log.ticker(&o.name, || o.spec.total::<R>(Shard::default()));
        let made = make_whole::<R>(job, opts, dir, o, pool.as_mut())?;
        let secs = t.elapsed().as_secs_f64();
        let bytes = record_made::<R>(&mut m, job, o, dir, &made, secs)?;
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
fn can_skip<R: Registry>(
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
    if taken_meanwhile > 0 && up_to_date::<R>(m, o, dir) {
        log.event(
            format!(
                "made again: {} ({taken_meanwhile} of its puzzles were published by another run since it was made)",
                o.name
            ),
            json!({"event": "published_meanwhile", "output": o.name, "puzzles": taken_meanwhile}),
        );
    }
    !force && up_to_date::<R>(m, o, dir) && recorded && taken_meanwhile == 0
}

/// Make one output of a whole run, or of a merge from the shards' parts; an output
/// that publishes draws past the pool and records what it published there.
fn make_whole<R: Registry>(
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
        make::merge::<R>(&parts, &o.target::<R>(dir))?.made
    } else {
        // Outputs drawn past a catalogue are made whole, by the merge of a
        // sharded run too: only one run can choose them in order.
        o.spec.make::<R>(
            o.seed,
            Shard::default(),
            &Target::Whole(o.target::<R>(dir)),
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
fn record_made<R: Registry>(
    m: &mut Manifest,
    job: &Job,
    o: &Output,
    dir: &Path,
    made: &Made,
    secs: f64,
) -> Result<u64> {
    m.outputs.retain(|e| e.output != o.name);
    let mut bytes = 0;
    for f in o.files::<R>() {
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
            seed: o.effective_seed::<R>(),
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

fn run_shard<R: Registry>(
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
        let _ticker = log.ticker(&o.name, || o.spec.total::<R>(my_shard));
        let made = o.spec.make::<R>(
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
