//! Every kind of output, made one way whether it is asked for on the command line or in
//! a job file: whole (the final file) or as one shard's part, and merged from parts
//! into exactly the bytes of a whole run.

use super::part::{self, Header, PartFile};
use crate::batch::{self, Record, RunOptions};
use crate::game::{Game, GameVisitor, Present, Registry};
use crate::output::AtomicFile;
use crate::shard::Shard;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

mod command;
mod items;
mod stats;
pub use command::*;
pub use items::*;
pub use stats::*;

/// An output, as a job file's `[[output]]` table describes it (without `name` and
/// `seed`, which every kind has).
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    /// Generated items as JSON Lines (or text).
    Items(ItemsSpec),
    /// A PDF book from a template.
    Book(BookSpec),
    /// One picture per puzzle and one per solution (SVG, PNG or both), with the
    /// puzzles' JSON records: a daily feed's files.
    Images(ImagesSpec),
    /// A statistics output of a game (see [`crate::statistic`]).
    Statistic(StatSpec),
}

/// How generated items are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ItemFormat {
    /// One JSON record per line (see [`crate::batch::Record`]).
    #[default]
    Jsonl,
    /// The game's text rendering of each item.
    Text,
}

/// `kind = "items"`: a range of generated items of one game.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemsSpec {
    /// The game's name, as on the command line or in templates (either spelling of
    /// `number-match`), kept as the registry spells it.
    pub game: String,
    /// How many items (before sharding).
    pub count: u64,
    /// Index of the first item (default 0), to remake part of a larger run.
    #[serde(default)]
    pub first: u64,
    /// JSON Lines (the default) or text.
    #[serde(default)]
    pub format: ItemFormat,
    /// The game's parameters, as in a book template's section.
    #[serde(default)]
    pub params: toml::Table,
}

/// The most puzzles one `images` output holds (each picture file is held open until
/// all of them are whole, so they appear together).
pub(crate) const MAX_IMAGES: u64 = 100;

/// A picture format of an `images` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// SVG, sized in mm, text as outlines.
    Svg,
    /// PNG at `dpi`.
    Png,
}

fn svg_only() -> Vec<ImageFormat> {
    vec![ImageFormat::Svg]
}
fn default_dpi() -> u32 {
    crate::svg::DEFAULT_DPI
}

/// `kind = "images"`: for each of `count` puzzles, `NAME-K.svg` (and `.png`) and
/// `NAME-K-solution.svg` (for games with solutions), K = 1..count, and `NAME.jsonl`
/// with their records in the same order. The output's name is the files' stem.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImagesSpec {
    /// The game's name.
    pub game: String,
    /// How many puzzles (1 to `MAX_IMAGES`).
    pub count: u64,
    /// Index of the first item drawn (default 0).
    #[serde(default)]
    pub first: u64,
    /// `["svg"]` (the default), `["png"]` or both.
    #[serde(default = "svg_only")]
    pub formats: Vec<ImageFormat>,
    /// Pixels per inch of the PNGs (default 300).
    #[serde(default = "default_dpi")]
    pub dpi: u32,
    /// The game's parameters.
    #[serde(default)]
    pub params: toml::Table,
    /// Whether the game draws solutions (filled in by [`ImagesSpec::files`]'s caller
    /// when the job is loaded).
    #[serde(skip)]
    pub solutions: bool,
}

impl ImagesSpec {
    /// Every file of the output named `stem`: the records, then each puzzle's pictures.
    pub fn files(&self, stem: &str) -> Vec<String> {
        let mut v = vec![format!("{stem}.jsonl")];
        for k in 1..=self.count.min(MAX_IMAGES) {
            v.extend(
                self.pictures(stem, k, self.solutions)
                    .into_iter()
                    .map(|p| p.0),
            );
        }
        v
    }

    /// The picture files of puzzle `k` (1-based), puzzle first, for a game that has
    /// solutions or not.
    pub(crate) fn pictures(
        &self,
        stem: &str,
        k: u64,
        solutions: bool,
    ) -> Vec<(String, ImageFormat, bool)> {
        let mut v = Vec::new();
        for &f in &self.formats {
            let ext = match f {
                ImageFormat::Svg => "svg",
                ImageFormat::Png => "png",
            };
            v.push((format!("{stem}-{k}.{ext}"), f, false));
            if solutions {
                v.push((format!("{stem}-{k}-solution.{ext}"), f, true));
            }
        }
        v
    }
}

/// `kind = "book"`: a PDF book.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookSpec {
    /// The book template (TOML) as the job file names it, relative to the job file's
    /// folder. This spelling (not where it is found) is part of the output's identity
    /// and is printed in the book, so a job makes the same bytes however its own path
    /// was given.
    pub template: PathBuf,
    /// Where the template is read from: `template` beside the job file (set when the
    /// job is loaded; None: `template` as it is).
    #[serde(skip)]
    pub read_from: Option<PathBuf>,
    /// Volume N of a series (see `book --volume`).
    #[serde(default)]
    pub volume: Option<u32>,
}

impl BookSpec {
    /// The template's path to read.
    pub fn template_path(&self) -> &std::path::Path {
        self.read_from.as_deref().unwrap_or(&self.template)
    }
}

/// How to run: the threads and whether to show progress (the pipeline's own options).
pub use crate::batch::Env;

/// Where a file goes: a path (written atomically) or standard output.
#[derive(Debug, Clone, PartialEq)]
pub enum Dest {
    /// Standard output.
    Stdout,
    /// A file, written to a temporary name and renamed into place when complete.
    File(PathBuf),
}

/// An open destination; for a part, every byte also goes into the part's seal and
/// [`Sink::finish`] writes the end line.
pub(crate) struct Sink {
    out: Out,
    seal: Option<part::Seal>,
}

enum Out {
    Stdout(std::io::BufWriter<std::io::StdoutLock<'static>>),
    File(AtomicFile, PathBuf),
}

impl Sink {
    /// Open `dest` for writing (a file is created under a temporary name).
    pub fn open(dest: &Dest) -> Result<Sink> {
        let out = match dest {
            Dest::File(path) => Out::File(AtomicFile::create(path)?, path.clone()),
            Dest::Stdout => Out::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
        };
        Ok(Sink { out, seal: None })
    }

    /// A destination for a part file, ended by its end line.
    pub(crate) fn open_part(dest: &Dest) -> Result<Sink> {
        Ok(Sink {
            seal: Some(part::Seal::new()),
            ..Sink::open(dest)?
        })
    }

    /// Write `bytes` (and add them to the part's seal, if any).
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        if let Some(s) = self.seal.as_mut() {
            s.add(bytes);
        }
        self.raw(bytes)
    }

    fn raw(&mut self, bytes: &[u8]) -> Result<()> {
        match &mut self.out {
            Out::Stdout(w) => w
                .write_all(bytes)
                .map_err(|e| Error::io("cannot write to", "standard output", e)),
            Out::File(f, path) => f
                .write_all(bytes)
                .map_err(|e| Error::io("cannot write to", path.clone(), e)),
        }
    }

    /// Close the destination: the end line of a part, then flush or rename into place.
    pub fn finish(mut self) -> Result<()> {
        if let Some(seal) = self.seal.take() {
            self.raw(seal.end_line().as_bytes())?;
        }
        match self.out {
            Out::Stdout(mut w) => w
                .flush()
                .map_err(|e| Error::io("cannot write to", "standard output", e)),
            Out::File(f, _) => f.commit(),
        }
    }
}

/// What making an output did.
#[derive(Debug, Clone, Default)]
pub struct Made {
    /// Items (or samples) it holds.
    pub items: u64,
    /// Files written (empty when the output went to standard output).
    pub files: Vec<PathBuf>,
    /// Extra words for the log ("27 pages", "rejected: ...").
    pub note: String,
    /// The puzzles it published, when it drew past a catalogue (else empty).
    pub published: Vec<crate::catalogue::Published>,
}

// ---------------------------------------------------------------- merge and make

/// What `merge` made, with the table a statistics kind prints.
pub struct Merged {
    /// What the merged output holds and the files it wrote.
    pub made: Made,
    /// The parts' kind, as a job file names it (`items`, `catan-bias`, ...).
    pub kind: String,
    /// What the command line prints on standard output: the statistics table of a
    /// whole run (empty for items, books and kinds without a table).
    pub table: String,
}

/// Merge parts into the final output(s).
pub fn merge<R: Registry>(paths: &[PathBuf], files: &StatsFiles) -> Result<Merged> {
    let mut parts = part::open_all(paths)?;
    let kind = parts[0].header.kind.clone();
    let dest = Dest::File(files.out.clone());
    let (made, table) = match kind.as_str() {
        "items" => (merge_items::<R>(&mut parts, &dest)?, String::new()),
        "book" => {
            // The PDF and, when the part carries them, its facts: appearing together.
            let mut set = crate::output::FileSet::new();
            parts[0].copy_payload(set.create(&files.out)?)?;
            let mut written = vec![files.out.clone()];
            if let Some(facts) = parts[0].header.facts.clone() {
                let path = crate::book::facts_path(&files.out);
                let text = crate::book::facts_text(&facts);
                set.create(&path)?
                    .write_all(text.as_bytes())
                    .map_err(|e| Error::io("cannot write to", &path, e))?;
                written.push(path);
            }
            set.commit()?;
            let made = Made {
                published: Vec::new(),
                items: parts[0].header.items.unwrap_or(0),
                files: written,
                note: String::new(),
            };
            (made, String::new())
        }
        other => {
            let config = parts[0].header.config.clone();
            let Some(stat) = from_part::<R>(other, &config)? else {
                return Err(Error::invalid(format!(
                    "{}: unknown part kind '{other}'",
                    parts[0].path.display()
                )));
            };
            stat.merge(&mut parts, files)?
        }
    };
    Ok(Merged { made, kind, table })
}

/// An output's `game` as `R` spells it, or the line its reader shows.
fn game_of<R: Registry>(name: &str) -> std::result::Result<String, String> {
    R::game(name)
        .map(str::to_string)
        .map_err(|e| format!("`game`: {e}"))
}

impl Spec {
    /// The output a job file's `[[output]]` table describes (without `name` and
    /// `seed`): `kind` picks items, book, images or a game's statistics.
    pub(crate) fn from_table<R: Registry>(mut t: toml::Table) -> std::result::Result<Spec, String> {
        let kind = match t.get("kind") {
            Some(toml::Value::String(k)) => k.clone(),
            Some(_) => return Err("kind must be a string, such as \"items\"".into()),
            None => return Err("missing field `kind`".into()),
        };
        if let Some(stat) = R::statistic_kind(&kind) {
            t.remove("kind");
            let options = serde_json::to_value(&t).map_err(|e| e.to_string())?;
            return Ok(Spec::Statistic(StatSpec {
                kind: stat,
                options,
            }));
        }
        let mut kinds = vec!["items", "book", "images"];
        kinds.extend(R::STATISTICS);
        t.remove("kind");
        // Each kind's own table, read with the path of a wrong value kept (`count`,
        // `formats[0]`), so the message names the key.
        fn read<T: serde::de::DeserializeOwned>(
            t: toml::Table,
            kind: &str,
        ) -> std::result::Result<T, String> {
            serde_path_to_error::deserialize(toml::Value::Table(t)).map_err(
                |e: serde_path_to_error::Error<toml::de::Error>| {
                    let path = e.path().to_string();
                    let m = crate::input::plain_range(e.inner().message().trim());
                    let variant = m.split_once("unknown variant `").map(|(_, r)| r);
                    match variant.and_then(|r| r.split_once('`')) {
                        // The one enumeration among the kinds' own keys.
                        Some((v, _)) if kind == "images" => format!(
                            "formats: '{}' is not a picture format: use \"svg\", \"png\" or both",
                            crate::input::excerpt(v)
                        ),
                        _ if path.is_empty() || path == "." || m.starts_with("unknown field") => m,
                        _ => format!("`{path}`: {m}"),
                    }
                },
            )
        }
        match kind.as_str() {
            "items" => read(t, &kind).and_then(|mut s: ItemsSpec| {
                s.game = game_of::<R>(&s.game)?;
                Ok(Spec::Items(s))
            }),
            "book" => read(t, &kind).map(Spec::Book),
            "images" => read(t, &kind).and_then(|mut s: ImagesSpec| {
                s.game = game_of::<R>(&s.game)?;
                Ok(Spec::Images(s))
            }),
            _ => Err(format!(
                "unknown kind `{}`: use one of {}",
                crate::input::excerpt(&kind),
                kinds.join(", ")
            )),
        }
    }

    /// The kind's name in job files, manifests and part headers (`items`, `book`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Spec::Items(_) => "items",
            Spec::Book(_) => "book",
            Spec::Images(_) => "images",
            Spec::Statistic(s) => s.kind,
        }
    }

    /// Whether the output publishes puzzles (items, books), which a job's catalogue
    /// applies to; statistics do not.
    pub(crate) fn publishes(&self) -> bool {
        matches!(self, Spec::Items(_) | Spec::Book(_) | Spec::Images(_))
    }

    /// The most puzzles this output can add to a catalogue (its count; a book's
    /// sections' counts), checked against the catalogue's room before any work.
    pub(crate) fn publishes_at_most<R: Registry>(&self) -> u64 {
        match self {
            Spec::Items(i) => i.count,
            Spec::Images(i) => i.count,
            Spec::Book(b) => crate::book::Template::load::<R>(b.template_path())
                .map_or(0, |t| t.sections.iter().map(|s| s.count as u64).sum()),
            Spec::Statistic(_) => 0,
        }
    }

    /// Items (or samples) this output makes for `shard`, for progress reports (None
    /// for a book, whose sections count for themselves).
    pub fn total<R: Registry>(&self, shard: Shard) -> Option<u64> {
        match self {
            Spec::Items(i) => Some(shard.len(i.first, i.count)),
            Spec::Images(i) => Some(i.count),
            Spec::Book(_) => None,
            Spec::Statistic(s) => s.total::<R>(shard),
        }
    }

    /// Check everything that can be checked before running (game, parameters,
    /// template, rules, counts) and give the configuration that identifies the output.
    pub fn check<R: Registry>(&self, seed: Option<u64>) -> Result<Value> {
        let s = seed.unwrap_or(crate::seed::DEFAULT_SEED);
        Ok(match self {
            Spec::Items(i) => {
                if i.count == 0 {
                    return Err(Error::invalid("count is 0: ask for at least 1 item"));
                }
                crate::shard::check_range(i.first, i.count)?;
                let config = std::cell::RefCell::new(Value::Null);
                with_game::<R, _>(
                    &i.game,
                    &i.params,
                    Check {
                        spec: i,
                        seed: s,
                        config: &config,
                    },
                )?;
                config.into_inner()
            }
            Spec::Book(b) => book_config::<R>(b, seed)?.0,
            Spec::Images(i) => {
                if i.count == 0 || i.count > MAX_IMAGES {
                    return Err(Error::invalid(format!(
                        "count is {}: an images output holds 1 to {MAX_IMAGES} puzzles",
                        i.count
                    )));
                }
                if (1..i.formats.len()).any(|k| i.formats[..k].contains(&i.formats[k])) {
                    return Err(Error::invalid("formats names a format twice"));
                }
                if i.formats.is_empty() {
                    return Err(Error::invalid(
                        "formats is empty: name \"svg\", \"png\" or both",
                    ));
                }
                crate::svg::check_dpi(i.dpi)?;
                crate::shard::check_range(i.first, i.count)?;
                let config = std::cell::RefCell::new(Value::Null);
                with_game::<R, _>(
                    &i.game,
                    &i.params,
                    CheckImages {
                        spec: i,
                        seed: s,
                        config: &config,
                    },
                )?;
                config.into_inner()
            }
            Spec::Statistic(stat) => stat.prepare::<R>(s)?.header(),
        })
    }

    /// Make the output: whole into `files`, or (with `part`) this shard's part at
    /// `part_path`. With `fresh`, items and books draw past those puzzles (a
    /// catalogue's, and what earlier outputs took) and say what they published.
    pub fn make<R: Registry>(
        &self,
        seed: Option<u64>,
        shard: Shard,
        target: &Target,
        env: &Env,
        fresh: Option<&mut crate::catalogue::Seen>,
    ) -> Result<Made> {
        let s = seed.unwrap_or(crate::seed::DEFAULT_SEED);
        let (part, dest) = match target {
            Target::Whole(f) => (None, Dest::File(f.out.clone())),
            Target::Part { path, tag } => (Some(tag.as_deref()), Dest::File(path.clone())),
        };
        match self {
            Spec::Items(i) => with_game::<R, _>(
                &i.game,
                &i.params,
                MakeItems {
                    spec: i,
                    seed: s,
                    shard,
                    part,
                    dest: &dest,
                    env,
                    fresh,
                },
            ),
            Spec::Book(b) => book::<R>(b, seed, part, &dest, env, fresh),
            Spec::Images(i) => {
                let Target::Whole(files) = target else {
                    return Err(Error::invalid(
                        "an images output is made whole, not in shards",
                    ));
                };
                with_game::<R, _>(
                    &i.game,
                    &i.params,
                    MakeImages {
                        spec: i,
                        seed: s,
                        stem: &files.out,
                        env,
                        fresh,
                    },
                )
            }
            Spec::Statistic(stat) => Ok(stat
                .prepare::<R>(s)?
                .make(shard, target, env, &mut |_| {})?
                .0),
        }
    }
}

/// Where `Spec::make` writes.
#[derive(Debug, Clone)]
pub enum Target {
    /// The final files of a whole run.
    Whole(StatsFiles),
    /// A shard's part file, with an optional tag recorded in its header.
    Part {
        /// The part file.
        path: PathBuf,
        /// The job output it belongs to (its configuration hash), recorded in the
        /// header; None when made from the command line.
        tag: Option<String>,
    },
}
