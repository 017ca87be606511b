//! The commands around the games: `book`, `run` (job files), `merge` and `verify`.

use clap::Args;
use puzzlebook::batch::Env;
use puzzlebook::book::{self, BookOptions};
use puzzlebook::catalogue::{Catalogue, Maker};
use puzzlebook::games::Games;
use puzzlebook::output::{self, write_atomic};
use puzzlebook::shard::Shard;
use puzzlebook::{Error, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct RunJobArgs {
    /// The job file (TOML)
    job: PathBuf,
    /// Output folder (default: the job's out_dir, else output/<job name>)
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Make only shard K of N: part files in <out_dir>/parts
    #[arg(long, value_name = "K/N", conflicts_with_all = ["shard_from_env", "merge"])]
    shard: Option<Shard>,
    /// Take the shard from the scheduler: PUZZLEBOOK_SHARD=K/N, Slurm's
    /// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, or Kubernetes'
    /// JOB_COMPLETION_INDEX with PUZZLEBOOK_SHARD_COUNT
    #[arg(long, conflicts_with = "merge")]
    shard_from_env: bool,
    /// Merge the shards' parts into the outputs and write the manifest
    #[arg(long)]
    merge: bool,
    /// Make every output again, even those the manifest lists as made
    #[arg(long)]
    force: bool,
    /// Log events as JSON lines on standard error
    #[arg(long)]
    json_log: bool,
    /// The date the run is for, YYYY-MM-DD, or today, tomorrow or yesterday (default:
    /// today in UTC): a job's seed = "date" and its {date}, {year}, {month}, {day} and
    /// {week} draw on it. Give it to every shard and to the merge of one run
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_run_date)]
    date: Option<puzzlebook::jobs::date::RunDate>,
}

#[derive(Args)]
pub struct MergeArgs {
    /// The merged output
    #[arg(long)]
    out: PathBuf,
    /// For Catan bias parts: the summary CSV (default: beside --out, ending .summary.csv)
    #[arg(long)]
    summary: Option<PathBuf>,
    /// For Catan bias parts: also draw the heat-map report (PDF); for Catan stats
    /// parts, the histograms
    #[arg(long)]
    report: Option<PathBuf>,
    /// The part files, in any order
    #[arg(required = true)]
    parts: Vec<PathBuf>,
}

#[derive(Args)]
pub struct BookArgs {
    /// Book template (TOML); default templates/default.toml
    #[arg(long)]
    template: Option<PathBuf>,
    /// Master seed (overrides the template's)
    #[arg(long)]
    seed: Option<u64>,
    /// Output PDF
    #[arg(long, default_value = "output/book.pdf")]
    out: PathBuf,
    /// Volume N of a series: no puzzle of volumes 1 to N-1, and "Volume N" on the
    /// title page
    #[arg(long, value_name = "N")]
    volume: Option<u32>,
}

/// What `book` and `cover` share before making anything: the template (loaded and
/// checked), the output checked apart from it and writable (its default folder
/// created), and the build options.
fn book_inputs(
    template: Option<&Path>,
    seed: Option<u64>,
    out: &Path,
    default_out: &str,
    (jobs, progress): (usize, bool),
    volume: Option<u32>,
) -> Result<(book::Template, BookOptions)> {
    let loaded = book::load_template::<Games>(template)?;
    book::for_volume(&loaded, volume).map_err(Error::as_flag)?;
    let template_path = template.unwrap_or(Path::new("templates/default.toml"));
    let fonts = loaded.input_files();
    let mut inputs: Vec<(&str, &Path)> = vec![("the template", template_path)];
    inputs.extend(fonts.iter().map(|(what, p)| (*what, p.as_path())));
    output::check_distinct(
        &[
            ("--out", out),
            ("the book's facts file", &book::facts_path(out)),
        ],
        &inputs,
    )?;
    if out == Path::new(default_out) {
        output::create_folder(Path::new("output"), "the default output folder")?;
    }
    // Fail on an unwritable path before making anything.
    output::check_writable(out)?;
    let opts = BookOptions {
        seed,
        env: Env { jobs, progress },
        template_name: template
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned()),
        fresh: None,
        volume,
    };
    Ok((loaded, opts))
}

/// The catalogue a template names (relative to the template's folder), locked and
/// read, with the source its book's entries carry (`TEMPLATE[/volume-N]`) and who
/// makes them. The book's own entries from an earlier run are not drawn past, so
/// making the same book again gives the same pages.
fn template_catalogue(
    template: &book::Template,
    template_path: Option<&Path>,
    seed: Option<u64>,
    volume: Option<u32>,
) -> Result<Option<(Catalogue, String, Maker)>> {
    let Some(named) = &template.catalogue else {
        return Ok(None);
    };
    let path = match template_path.and_then(Path::parent) {
        Some(dir) if named.is_relative() => dir.join(named),
        _ => named.clone(),
    };
    let shown_path = template_path.unwrap_or(Path::new("templates/default.toml"));
    let name = shown_path
        .file_name()
        .map_or("default.toml".into(), |n| n.to_string_lossy().into_owned());
    let source = match volume {
        Some(v) => format!("{name}/volume-{v}"),
        None => name.clone(),
    };
    // Who makes the book: the template (its absolute path, not its name: two
    // templates called book.toml are two books), the seed and its sections' puzzles
    // (below); for a volume the series
    // (every volume of it: volume N draws volumes 1 to N-1 itself, so any volume comes
    // out the same whichever were made before it). Its own entries are not drawn past.
    let canonical = std::fs::canonicalize(shown_path)
        .map_err(|e| Error::io("cannot read the template", shown_path, e))?;
    let seed = seed
        .or(template.seed)
        .unwrap_or(puzzlebook::seed::DEFAULT_SEED)
        .to_string();
    // What makes the puzzles: each section's game, count, seed and parameters (not
    // its heading or intro: a book whose words were mended is the same book, its own
    // entries its own; a book with other sections draws past its first edition).
    let puzzles: Vec<serde_json::Value> = template
        .sections
        .iter()
        .map(|s| {
            serde_json::json!({"game": s.game, "count": s.count, "seed": s.seed,
                               "params": serde_json::to_value(&s.params).unwrap_or_default()})
        })
        .collect();
    let puzzles = serde_json::Value::Array(puzzles).to_string();
    let what = if volume.is_some() { "series" } else { "book" };
    let maker =
        puzzlebook::catalogue::maker(&[what, &canonical.to_string_lossy(), &seed, &puzzles]);
    let cat = Catalogue::open(&path, puzzlebook::games::NAMES, |e| e.maker == Some(maker))?;
    let adding: u64 = template.sections.iter().map(|s| s.count as u64).sum();
    cat.check_room(adding)?;
    Ok(Some((cat, source, maker)))
}

/// Add what a book published to its catalogue (after the PDF is whole).
fn publish(
    cat: &mut Catalogue,
    (source, maker): (&str, Maker),
    date: &str,
    published: &[puzzlebook::catalogue::Published],
) -> Result<()> {
    let entries: Vec<_> = published
        .iter()
        .map(|p| puzzlebook::catalogue::Entry {
            fingerprint: p.fingerprint,
            game: p.game,
            date: date.to_string(),
            source: format!("{source}#{}", p.place),
            maker: Some(maker),
        })
        .collect();
    let added = cat.add(&entries)?;
    eprintln!(
        "catalogue {}: {added} puzzles added ({} already there)",
        output::escaped_path(cat.path()),
        entries.len() - added
    );
    Ok(())
}

/// `puzzlebook book`: make a PDF book from a template (templates/default.toml by default).
pub fn book_cmd(args: BookArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let (template, mut opts) = book_inputs(
        args.template.as_deref(),
        args.seed,
        &args.out,
        "output/book.pdf",
        (jobs, show_progress),
        args.volume,
    )?;
    let mut catalogue =
        template_catalogue(&template, args.template.as_deref(), args.seed, args.volume)?;
    if let Some((cat, _, _)) = &catalogue {
        let lock = puzzlebook::catalogue::lock_path(cat.path());
        output::check_distinct(
            &[
                ("--out", &args.out),
                ("the book's facts file", &book::facts_path(&args.out)),
            ],
            &[
                ("the template's catalogue", cat.path()),
                ("the catalogue's lock", &lock),
            ],
        )?;
        opts.fresh = Some(std::sync::Arc::new(std::sync::Mutex::new(cat.seen())));
    }
    let built = book::build::<Games>(&template, &opts)?;
    // A stop asked for while the book was laid out: nothing is written.
    puzzlebook::interrupt::check()?;
    let written = book::write_with_facts(&args.out, &built)?;
    if let Some((cat, source, maker)) = &mut catalogue {
        let date = template.date.clone().unwrap_or_else(|| "-".into());
        publish(cat, (source, *maker), &date, &built.published)?;
    }
    for w in &built.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(facts) = written.get(1) {
        eprintln!("wrote {} (how to make the book again)", facts.display());
    }
    eprintln!(
        "wrote {}: {} pages, {} items, seed {}, {} KB in {:.2} s",
        args.out.display(),
        built.pages,
        built.puzzles,
        built.seed,
        built.pdf.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
pub struct CoverArgs {
    /// Book template (TOML); default templates/default.toml
    #[arg(long)]
    template: Option<PathBuf>,
    /// Master seed (overrides the template's); give the one the interior was made with
    #[arg(long)]
    seed: Option<u64>,
    /// The interior's paper, which sets the spine width (default: the template's
    /// [cover] paper, else white)
    #[arg(long, value_enum)]
    paper: Option<book::template::Paper>,
    /// Output PDF
    #[arg(long, default_value = "output/cover.pdf")]
    out: PathBuf,
    /// Volume N of a series (as the interior was made): "Volume N" on the front
    #[arg(long, value_name = "N")]
    volume: Option<u32>,
}

/// `puzzlebook cover`: the full-wrap cover for the interior the same template makes.
pub fn cover_cmd(args: CoverArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let (template, mut opts) = book_inputs(
        args.template.as_deref(),
        args.seed,
        &args.out,
        "output/cover.pdf",
        (jobs, show_progress),
        args.volume,
    )?;
    // The front shows the interior's first puzzle: drawn past the same catalogue.
    if let Some((cat, _, _)) =
        template_catalogue(&template, args.template.as_deref(), args.seed, args.volume)?
    {
        opts.fresh = Some(std::sync::Arc::new(std::sync::Mutex::new(cat.seen())));
    }
    let cover = book::cover::build::<Games>(&template, &opts, args.paper)?;
    puzzlebook::interrupt::check()?;
    write_atomic(&args.out, &cover.pdf)?;
    for w in &cover.warnings {
        eprintln!("note: {w}");
    }
    let g = &cover.geometry;
    let (mw, mh) = puzzlebook::book::layout::Sheets::media(g);
    eprintln!(
        "wrote {}: cover for {} pages on {} paper, spine {:.3} in ({:.2} mm), sheet {:.3} x {:.3} in with bleed, in {:.2} s",
        args.out.display(),
        cover.interior_pages,
        cover.paper.name(),
        g.spine / 25.4,
        g.spine,
        mw / 25.4,
        mh / 25.4,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `--date`: a date, or today, tomorrow or yesterday (a usage error otherwise).
fn parse_run_date(text: &str) -> std::result::Result<puzzlebook::jobs::date::RunDate, String> {
    use puzzlebook::jobs::date::RunDate;
    RunDate::parse_relative(text, RunDate::today()).map_err(|e| e.to_string())
}

/// `puzzlebook run JOB.toml`: make a job's outputs (whole, one shard, or the merge).
pub fn run_job(args: RunJobArgs, jobs: usize, show_progress: bool) -> Result<ExitCode> {
    use puzzlebook::jobs::{self, LogStyle};
    let json_log = args.json_log;
    super::JSON_LOG.store(json_log, std::sync::atomic::Ordering::Relaxed);
    let run = || -> Result<()> {
        let shard = if args.shard_from_env {
            Some(puzzlebook::scheduler::shard_from(|k| {
                std::env::var(k).ok()
            })?)
        } else {
            args.shard
        };
        let run_date = args.date.unwrap_or_else(jobs::date::RunDate::today);
        let job = jobs::Job::load_for::<Games>(&args.job, run_date)?;
        let opts = jobs::RunOptions {
            out_dir: args.out_dir,
            shard,
            merge: args.merge,
            force: args.force,
            env: puzzlebook::jobs::make::Env {
                jobs,
                progress: show_progress && !json_log,
            },
            log: if json_log {
                LogStyle::Json
            } else {
                LogStyle::Text
            },
        };
        jobs::run::<Games>(&job, &opts).map(|_| ())
    };
    match run() {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // With --json-log every error is an event too (and the only line), from a bad
        // job file to an interrupted run.
        Err(e) if json_log => {
            eprintln!(
                "{}",
                serde_json::json!({"event": "error", "message": e.to_string()})
            );
            Ok(ExitCode::from(if matches!(e, Error::Interrupted) {
                puzzlebook::interrupt::exit_status()
            } else if e.is_retryable() {
                75
            } else {
                1
            }))
        }
        Err(e) => Err(e),
    }
}

/// `puzzlebook merge`: merge shards' part files into the output(s) of a whole run.
pub fn merge_cmd(args: MergeArgs) -> Result<ExitCode> {
    use puzzlebook::jobs::make::{self, StatsFiles};
    // Outputs must be distinct files, none of them a part (compared as files, not as
    // spellings). The default summary only applies to Catan bias parts, whose kind
    // is known once they are open: `merge` checks that one against the rest.
    let outs: Vec<(&str, &Path)> = [
        ("--out", Some(args.out.as_path())),
        ("--summary", args.summary.as_deref()),
        ("--report", args.report.as_deref()),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.map(|p| (n, p)))
    .collect();
    let inputs: Vec<(&str, &Path)> = args
        .parts
        .iter()
        .map(|p| ("one of the parts", p.as_path()))
        .collect();
    output::check_distinct(&outs, &inputs)?;
    for (_, o) in &outs {
        // Fail on an unwritable path before writing anything.
        output::check_writable(o)?;
    }
    let started = std::time::Instant::now();
    let files = StatsFiles {
        out: args.out.clone(),
        summary: args.summary.clone(),
        report: args.report.clone(),
        replicates: None,
    };
    let merged = make::merge::<Games>(&args.parts, &files)?;
    super::say(&merged.table)?;
    if merged.kind == "catan-stats" && args.summary.is_some() {
        eprintln!("note: --summary applies to Catan bias parts only");
    } else if !merged.kind.starts_with("catan-")
        && (args.summary.is_some() || args.report.is_some())
    {
        eprintln!("note: --summary and --report apply to Catan bias and stats parts only");
    }
    eprintln!(
        "merged {} parts ({}, {} items) into {} in {:.2} s",
        args.parts.len(),
        merged.kind,
        merged.made.items,
        args.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `puzzlebook verify`: check a manifest's files; an error if any does not match.
pub fn verify_cmd(manifest: &Path) -> Result<ExitCode> {
    let checks = puzzlebook::jobs::manifest::verify(manifest)?;
    let bad: Vec<_> = checks.iter().filter(|c| c.problem.is_some()).collect();
    for c in &checks {
        match &c.problem {
            None => super::say(&format!("ok       {}\n", output::escaped_path(&c.file)))?,
            Some(p) => {
                // A manifest's names are untrusted: cut, control characters escaped.
                // The manifest's folder as given, then its entry cut (a long entry
                // may be one name or many short ones).
                let shown = c.file.display().to_string();
                let folder = manifest
                    .parent()
                    .map(|d| d.display().to_string())
                    .filter(|d| !d.is_empty() && shown.starts_with(d.as_str()));
                let name = match folder {
                    Some(d) => format!(
                        "{d}/{}",
                        puzzlebook::input::excerpt(shown[d.len()..].trim_start_matches('/'))
                    ),
                    None => puzzlebook::input::excerpt(&shown),
                };
                super::say(&format!("MISMATCH {name}: {p}\n"))?
            }
        }
    }
    if !bad.is_empty() {
        return Err(Error::Check(format!(
            "{} of {} files do not match {}",
            bad.len(),
            checks.len(),
            output::escaped_path(manifest)
        )));
    }
    eprintln!(
        "all {} files match {}",
        checks.len(),
        output::escaped_path(manifest)
    );
    Ok(ExitCode::SUCCESS)
}

/// `puzzlebook catalogue ...`.
#[derive(clap::Subcommand)]
pub enum CatalogueCommand {
    /// Put catalogues together: every puzzle once (its first entry), written atomically
    #[command(
        after_help = "Example:\n  puzzlebook catalogue merge node1/catalogue.txt node2/catalogue.txt --into catalogue.txt"
    )]
    Merge {
        /// The catalogues to merge (the file --into names may be one of them)
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The merged catalogue (replaced atomically when it exists)
        #[arg(long)]
        into: PathBuf,
    },
    /// Count a catalogue's puzzles by game and by date
    #[command(after_help = "Example:\n  puzzlebook catalogue count catalogue.txt")]
    Count {
        /// The catalogue
        catalogue: PathBuf,
    },
}

/// `puzzlebook catalogue merge|count`.
pub fn catalogue_cmd(c: CatalogueCommand) -> Result<ExitCode> {
    use puzzlebook::catalogue;
    match c {
        CatalogueCommand::Merge { inputs, into } => {
            let n = catalogue::merge(&inputs, &into, puzzlebook::games::NAMES)?;
            eprintln!("wrote {}: {n} puzzles", output::escaped_path(&into));
        }
        CatalogueCommand::Count { catalogue: path } => {
            if !path.exists() {
                return Err(Error::invalid(format!(
                    "catalogue {} does not exist",
                    output::escaped_path(&path)
                )));
            }
            // A fingerprint counts once, as when a run draws past the catalogue.
            let c = catalogue::count(&path, puzzlebook::games::NAMES)?;
            println!("{} puzzles in {}", c.total, output::escaped_path(&path));
            for (g, n) in c.by_game {
                println!("  {g}: {n}");
            }
            if let Some((a, b, n)) = c.dates {
                println!("  dates {a} to {b} ({n} dates)");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
