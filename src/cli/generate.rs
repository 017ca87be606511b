//! `generate`, one for every game: a run of seeded items to records or text, on
//! standard output or in a file, or a part file with `--shard`; or one picture per
//! puzzle and per solution, SVG or PNG, in a folder.

use super::{Ctx, GenFormat, RunArgs};
use puzzlebook::games::Present;
use puzzlebook::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run a generation and write JSON Lines or text, to stdout or (atomically) a file;
/// with `--shard`, a part file for `puzzlebook merge`.
pub fn generate<G: Present>(
    game: &G,
    run: &RunArgs,
    ctx: Ctx,
    format: GenFormat,
) -> Result<ExitCode> {
    use puzzlebook::jobs::make::{self, Dest, Env, ItemFormat};
    if run.count == 0 {
        return Err(Error::invalid("--count is 0: ask for at least 1 item"));
    }
    if matches!(format, GenFormat::Svg | GenFormat::Png) {
        return images(game, run, ctx, format);
    }
    if run.out_dir.is_some() || run.dpi.is_some() || run.force {
        return Err(Error::invalid(
            "--out-dir, --dpi and --force are for --format svg and png",
        ));
    }
    let dest = match &run.out {
        Some(p) => Dest::File(p.clone()),
        None => Dest::Stdout,
    };
    let format = match format {
        GenFormat::Jsonl => ItemFormat::Jsonl,
        GenFormat::Text => ItemFormat::Text,
        GenFormat::Svg | GenFormat::Png => unreachable!("images are made above"),
    };
    let env = Env {
        jobs: ctx.jobs,
        progress: ctx.progress,
    };
    let items = make::ItemsRun {
        seed: run.seed,
        first: run.first,
        count: run.count,
        format,
        shard: run.shard.unwrap_or_default(),
        // A shard writes a part file, untagged.
        part: run.shard.map(|_| None),
        dest: &dest,
        env: &env,
        fresh: None,
    };
    let made = make::items(game, game.params(), items);
    let (_, summary) = match made {
        // Records already sent to standard output cannot be taken back: say so.
        Err(Error::Interrupted) if dest == Dest::Stdout => {
            eprintln!(
                "error: interrupted: the records already written to standard output are whole and correct; the rest were not made"
            );
            return Ok(ExitCode::from(puzzlebook::interrupt::exit_status()));
        }
        r => r?,
    };
    if ctx.progress || run.out.is_some() {
        eprintln!(
            "{} items in {:.2} s ({}), {} attempts{}",
            summary.items,
            summary.elapsed.as_secs_f64(),
            puzzlebook::progress::rate(summary.items, summary.elapsed.as_secs_f64()),
            summary.attempts,
            if summary.rejections.is_empty() {
                String::new()
            } else {
                format!(" (rejected: {})", summary.rejections)
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The most items one image run may make (each is one or two files in one folder).
const MAX_IMAGE_ITEMS: u64 = 100_000;

/// `generate --format svg|png`: each item of the run drawn by the game (as in the
/// books) into `DIR/<game>-<index>.<ext>` and its solution into
/// `DIR/<game>-<index>-solution.<ext>`, the index zero-padded to the width of the
/// run's last index. All files are written in a temporary folder inside DIR and moved
/// into place only when every one is made; an existing file is never replaced without
/// `--force`.
fn images<G: Present>(game: &G, run: &RunArgs, ctx: Ctx, format: GenFormat) -> Result<ExitCode> {
    use puzzlebook::batch::{self, Env, RunOptions};
    use puzzlebook::svg::{self, Picture};
    let png = matches!(format, GenFormat::Png);
    let ext = if png { "png" } else { "svg" };
    if run.out.is_some() {
        return Err(Error::invalid(format!(
            "--out names one file; --format {ext} writes one file per puzzle: name a folder with --out-dir DIR"
        )));
    }
    let Some(dir) = &run.out_dir else {
        return Err(Error::invalid(format!(
            "--format {ext} writes one file per puzzle: name a folder with --out-dir DIR"
        )));
    };
    let dpi = match (png, run.dpi) {
        (false, Some(_)) => {
            return Err(Error::invalid(
                "--dpi is for --format png (an SVG is sized in mm)",
            ))
        }
        (_, d) => d.unwrap_or(svg::DEFAULT_DPI),
    };
    svg::check_dpi(dpi)?;
    puzzlebook::shard::check_range(run.first, run.count)?;
    let shard = run.shard.unwrap_or_default();
    if shard.len(run.first, run.count) > MAX_IMAGE_ITEMS {
        return Err(Error::invalid(format!(
            "--format {ext} makes at most {MAX_IMAGE_ITEMS} items in one run: ask for fewer with --count, or use --first to make them in several runs"
        )));
    }
    // The file names, in index order.
    let stem = G::NAME.replace('_', "-");
    let width = (run.first + run.count - 1).to_string().len();
    let solutions = game.has_answers();
    let names_of = |index: u64| -> Vec<String> {
        let mut v = vec![format!("{stem}-{index:0width$}.{ext}")];
        if solutions {
            v.push(format!("{stem}-{index:0width$}-solution.{ext}"));
        }
        v
    };
    puzzlebook::output::create_folder(dir, "--out-dir")?;
    if !run.force {
        for i in shard.indices(run.first, run.count) {
            for name in names_of(i) {
                let target = dir.join(&name);
                if fs::symlink_metadata(&target).is_ok() {
                    return Err(Error::invalid(format!(
                        "{} already exists: choose another --out-dir or add --force to replace it",
                        target.display()
                    )));
                }
            }
        }
    }
    let temp = TempDir::create(dir)?;
    let opts = RunOptions {
        seed: run.seed,
        env: Env {
            jobs: ctx.jobs,
            progress: ctx.progress,
        },
        shard,
        first: run.first,
        label: G::NAME.to_string(),
        ..RunOptions::default()
    };
    let picture = |puzzle: &G::Puzzle, with_solution: bool| -> Result<Vec<u8>> {
        let p = Picture::sized(game.aspect(), |canvas, area| {
            game.draw(puzzle, canvas, area, with_solution)
        });
        if png {
            p.png(dpi)
        } else {
            Ok(p.svg().into_bytes())
        }
    };
    // Each picture is written as soon as it is drawn, on the worker thread, so memory
    // holds one picture per thread, not a chunk of them; the order of the files is
    // kept by their names.
    let draw = |item: batch::Item<G::Puzzle>| -> Result<Vec<String>> {
        let names = names_of(item.index);
        for (k, name) in names.iter().enumerate() {
            temp.write(name, &picture(&item.puzzle, k == 1)?)?;
        }
        Ok(names)
    };
    let mut written: Vec<String> = Vec::new();
    let summary = batch::run_map(game, &opts, run.count, draw, |names| {
        written.extend(names);
        Ok(())
    })?;
    temp.move_into_place(&written, run.force)?;
    drop(temp);
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    eprintln!(
        "{} items, {} files in {} ({:.2} s), {} attempts{}",
        summary.items,
        written.len(),
        dir.display(),
        summary.elapsed.as_secs_f64(),
        summary.attempts,
        if summary.rejections.is_empty() {
            String::new()
        } else {
            format!(" (rejected: {})", summary.rejections)
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// A hidden folder inside the output folder where a run's files are written before
/// they are moved into place; removed, with whatever is left in it, when dropped. Its
/// writer holds a lock on a file inside it, so a folder left by a writer that died
/// (killed, out of memory) holds no lock and the next image run in the same output
/// folder removes it.
struct TempDir {
    dir: PathBuf,
    path: PathBuf,
    _lock: fs::File,
}

/// The start of an image run's temporary folder's name.
const IMAGES_TMP: &str = ".puzzlebook-images.tmp-";

/// Remove the temporary folders of image runs in `dir` whose writers are gone.
fn remove_dead_temp_dirs(dir: &Path) {
    let Ok(rd) = fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        if !e.file_name().to_string_lossy().starts_with(IMAGES_TMP) {
            continue;
        }
        // Only real folders (never a link planted under such a name).
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let lock = e.path().join(".lock");
        let held = puzzlebook::jobs::manifest::open_regular(&lock)
            .map(|f| f.try_lock().is_err())
            // No lock file yet: a writer that is just starting (left alone).
            .unwrap_or(true);
        if !held {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

impl TempDir {
    fn create(dir: &Path) -> Result<TempDir> {
        remove_dead_temp_dirs(dir);
        for _ in 0..16 {
            let path = dir.join(format!(
                "{IMAGES_TMP}{}-{:016x}",
                std::process::id(),
                rand::random::<u64>()
            ));
            match fs::create_dir(&path) {
                Ok(()) => {
                    let lock_path = path.join(".lock");
                    let lock = fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&lock_path)
                        .map_err(|e| Error::io("cannot write to", dir, e))?;
                    let _ = lock.try_lock();
                    return Ok(TempDir {
                        dir: dir.to_path_buf(),
                        path,
                        _lock: lock,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io("cannot write to", dir, e)),
            }
        }
        Err(Error::invalid(format!(
            "cannot find a free temporary name in {}",
            dir.display()
        )))
    }

    /// Write one whole file (synced) into the temporary folder.
    fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let target = self.dir.join(name);
        let path = self.path.join(name);
        let mut f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Error::io("cannot write to", &target, e))?;
        f.write_all(bytes)
            .and_then(|_| f.sync_all())
            .map_err(|e| Error::io("cannot write to", &target, e))
    }

    /// Move every file into the output folder. Without `force`, a file that has
    /// appeared there since the check is not replaced: the files already moved are
    /// taken back and the run fails.
    fn move_into_place(&self, names: &[String], force: bool) -> Result<()> {
        let mut moved: Vec<PathBuf> = Vec::with_capacity(names.len());
        let undo = |moved: &[PathBuf]| {
            for p in moved {
                let _ = fs::remove_file(p);
            }
        };
        for name in names {
            let from = self.path.join(name);
            let to = self.dir.join(name);
            if force {
                if let Err(e) = fs::rename(&from, &to) {
                    return Err(Error::io("cannot write", &to, e));
                }
                continue;
            }
            // A hard link never replaces a file (rename would); where the file system
            // has no hard links, check and rename.
            let placed = match fs::hard_link(&from, &to) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
                Err(_) if fs::symlink_metadata(&to).is_ok() => {
                    Err(std::io::Error::from(std::io::ErrorKind::AlreadyExists))
                }
                Err(_) => fs::rename(&from, &to),
            };
            match placed {
                Ok(()) => moved.push(to),
                Err(e) => {
                    undo(&moved);
                    return Err(if e.kind() == std::io::ErrorKind::AlreadyExists {
                        Error::invalid(format!(
                            "{} appeared while the images were made: nothing was written; add --force to replace it",
                            to.display()
                        ))
                    } else {
                        Error::io("cannot write", &to, e)
                    });
                }
            }
        }
        Ok(())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
