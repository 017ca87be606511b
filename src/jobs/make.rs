//! Every kind of output, made one way whether it is asked for on the command line or in
//! a job file: whole (the final file) or as one shard's part, and merged from parts
//! into exactly the bytes of a whole run.

use super::part::{self, Header, Part};
use crate::batch::{self, Record, RunOptions, Shard};
use crate::games::{self, Game, GameVisitor};
use crate::output::AtomicFile;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An output, as a job file's `[[output]]` table describes it (without `name` and
/// `seed`, which every kind has).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Spec {
    /// Generated items as JSON Lines (or text).
    Items(ItemsSpec),
    /// A PDF book from a template.
    Book(BookSpec),
    CatanBias(BiasSpec),
    CarcassonneStats(CarcassonneStatsSpec),
    NumberMatchStats(MatchStatsSpec),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ItemFormat {
    #[default]
    Jsonl,
    Text,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemsSpec {
    pub game: String,
    pub count: u64,
    #[serde(default)]
    pub first: u64,
    #[serde(default)]
    pub format: ItemFormat,
    /// The game's parameters, as in a book template's section.
    #[serde(default)]
    pub params: toml::Table,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookSpec {
    pub template: PathBuf,
}

fn base() -> String {
    "base".into()
}
fn red_apart() -> String {
    "red-apart".into()
}
fn reference_samples() -> u64 {
    2_000_000
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BiasSpec {
    pub samples: u64,
    /// Samplers, comma-separated (default: all that apply).
    #[serde(default)]
    pub samplers: Option<String>,
    #[serde(default = "base")]
    pub board: String,
    #[serde(default = "red_apart")]
    pub rules: String,
    #[serde(default = "reference_samples")]
    pub reference_samples: u64,
    /// File name of the summary CSV (default: the output's name ending .summary.csv).
    #[serde(default)]
    pub summary: Option<String>,
    /// File name of a PDF report (default: none).
    #[serde(default)]
    pub report: Option<String>,
}

fn sizes() -> Vec<usize> {
    vec![10, 20, 40, 72]
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarcassonneStatsSpec {
    pub samples: u64,
    #[serde(default = "sizes")]
    pub tiles: Vec<usize>,
}

fn length() -> usize {
    27
}
fn four() -> u8 {
    4
}
fn nine() -> usize {
    9
}
fn max_nodes() -> u64 {
    crate::games::number_match::DEFAULT_MAX_NODES
}
fn after_last_digit() -> String {
    "after-last-digit".into()
}
fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchStatsSpec {
    pub samples: u64,
    #[serde(default = "length")]
    pub length: usize,
    #[serde(default = "four")]
    pub max_adds: u8,
    #[serde(default = "max_nodes")]
    pub max_nodes: u64,
    #[serde(default = "nine")]
    pub columns: usize,
    #[serde(default = "after_last_digit")]
    pub append: String,
    #[serde(default = "yes")]
    pub diagonals: bool,
    #[serde(default)]
    pub monte_carlo_trials: u64,
    /// Wall-clock columns (they differ from run to run; off keeps the CSV reproducible).
    #[serde(default)]
    pub timings: bool,
}

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub jobs: usize,
    pub progress: bool,
}

/// Where a file goes: a path (written atomically) or standard output.
#[derive(Debug, Clone, PartialEq)]
pub enum Dest {
    Stdout,
    File(PathBuf),
}

/// An open destination.
pub enum Sink {
    Stdout(std::io::BufWriter<std::io::StdoutLock<'static>>),
    File(AtomicFile, PathBuf),
}

impl Sink {
    pub fn open(dest: &Dest) -> Result<Sink> {
        Ok(match dest {
            Dest::File(path) => Sink::File(AtomicFile::create(path)?, path.clone()),
            Dest::Stdout => Sink::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
        })
    }

    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Sink::Stdout(w) => w
                .write_all(bytes)
                .map_err(|e| Error::io("cannot write to", "standard output", e)),
            Sink::File(f, path) => f
                .write_all(bytes)
                .map_err(|e| Error::io("cannot write to", path.clone(), e)),
        }
    }

    pub fn finish(self) -> Result<()> {
        match self {
            Sink::Stdout(mut w) => w
                .flush()
                .map_err(|e| Error::io("cannot write to", "standard output", e)),
            Sink::File(f, _) => f.commit(),
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
}

// ---------------------------------------------------------------- items

/// The part-header configuration of an items run.
fn items_config<G: Game>(
    params: &G::Params,
    seed: u64,
    first: u64,
    count: u64,
    format: ItemFormat,
) -> Value {
    json!({
        "game": G::NAME,
        "params": serde_json::to_value(params).expect("parameters serialise"),
        "seed": seed,
        "first": first,
        "count": count,
        "format": format,
    })
}

/// One item as its output text.
fn item_text<G: Game>(
    game: &G,
    item: &batch::Item<G::Puzzle>,
    seed: u64,
    format: ItemFormat,
) -> String {
    match format {
        ItemFormat::Jsonl => {
            let record = Record {
                game: G::NAME,
                index: item.index,
                seed,
                puzzle: &item.puzzle,
            };
            serde_json::to_string(&record).expect("records serialise") + "\n"
        }
        ItemFormat::Text => {
            let answer = game.answer(&item.puzzle);
            let about = if answer.is_empty() {
                game.caption(&item.puzzle)
            } else {
                answer
            };
            format!(
                "# {} item {} (seed {}): {}\n{}\n",
                G::NAME,
                item.index,
                seed,
                about,
                game.text(&item.puzzle)
            )
        }
    }
}

/// Generate items `first .. first + count` of `shard` and write them: the final
/// output when `part` is false, else a part file (header and one line per item).
#[allow(clippy::too_many_arguments)]
pub fn items<G: Game>(
    game: &G,
    params: &G::Params,
    seed: u64,
    first: u64,
    count: u64,
    format: ItemFormat,
    shard: Shard,
    part: Option<Tag>,
    dest: &Dest,
    env: &Env,
) -> Result<(Made, batch::RunSummary)> {
    if count == 0 {
        return Err(Error::invalid("the count is 0: ask for at least 1 item"));
    }
    let opts = RunOptions {
        seed,
        jobs: env.jobs,
        progress: env.progress,
        shard,
        first,
        label: G::NAME.to_string(),
        ..RunOptions::default()
    };
    let mut sink = Sink::open(dest)?;
    if let Some(tag) = part {
        let h = Header::new(
            "items",
            items_config::<G>(params, seed, first, count, format),
            shard,
        )
        .tagged(tag);
        sink.write(h.line().as_bytes())?;
    }
    let to_text = |item: batch::Item<G::Puzzle>| -> Result<String> {
        let text = item_text(game, &item, seed, format);
        Ok(if part.is_some() && format == ItemFormat::Text {
            json!({"index": item.index, "text": text}).to_string() + "\n"
        } else {
            text
        })
    };
    let summary = batch::run_map(game, &opts, count, to_text, |t| sink.write(t.as_bytes()))?;
    sink.finish()?;
    let made = Made {
        items: summary.items,
        files: file_of(dest),
        note: if summary.rejections.is_empty() {
            String::new()
        } else {
            format!("rejected: {}", summary.rejections)
        },
    };
    Ok((made, summary))
}

fn file_of(dest: &Dest) -> Vec<PathBuf> {
    match dest {
        Dest::File(p) => vec![p.clone()],
        Dest::Stdout => Vec::new(),
    }
}

/// Merge items parts: records in index order, exactly as one run writes them.
fn merge_items(parts: &mut [Part], dest: &Dest) -> Result<Made> {
    let cfg = &parts[0].header.config;
    let field = |k: &str| cfg[k].as_u64().ok_or_else(|| bad_config(k));
    let (first, count) = (field("first")?, field("count")?);
    let text = cfg["format"] == "text";
    let n = parts.len() as u64;
    let mut sink = Sink::open(dest)?;
    #[derive(Deserialize)]
    struct Index {
        index: u64,
        #[serde(default)]
        text: String,
    }
    for i in first..first.saturating_add(count) {
        if i % 65536 == 0 {
            crate::interrupt::check()?;
        }
        let p = &mut parts[(i % n) as usize];
        let line = p.next_line()?.ok_or_else(|| {
            Error::invalid(format!(
                "{} ends before item {i}: an incomplete part",
                p.path.display()
            ))
        })?;
        let rec: Index = serde_json::from_str(&line).map_err(|e| {
            Error::invalid(format!(
                "{}: item {i} is not a record: {e}",
                p.path.display()
            ))
        })?;
        if rec.index != i {
            return Err(Error::invalid(format!(
                "{}: expected item {i}, found item {}",
                p.path.display(),
                rec.index
            )));
        }
        if text {
            sink.write(rec.text.as_bytes())?;
        } else {
            sink.write(line.as_bytes())?;
            sink.write(b"\n")?;
        }
    }
    for p in parts.iter_mut() {
        if p.next_line()?.is_some() {
            return Err(Error::invalid(format!(
                "{} holds more items than its run asked for",
                p.path.display()
            )));
        }
    }
    sink.finish()?;
    Ok(Made {
        items: count,
        files: file_of(dest),
        note: String::new(),
    })
}

fn bad_config(k: &str) -> Error {
    Error::invalid(format!("the part header has no valid '{k}'"))
}

/// Make a game from a job file's parameter table, then call back with it.
pub trait WithGame {
    fn with<G: Game>(self, game: G, params: G::Params) -> Result<Made>;
}

struct FromTable<'a, W> {
    params: &'a toml::Table,
    then: W,
}

impl<W: WithGame> GameVisitor for FromTable<'_, W> {
    type Output = Result<Made>;
    fn visit<G: Game>(self) -> Result<Made> {
        let params = G::Params::deserialize(toml::Value::Table(self.params.clone()))
            .map_err(|e| Error::invalid(format!("{} params: {}", G::NAME, e.message().trim())))?;
        let game = G::new(params.clone())?;
        self.then.with(game, params)
    }
}

/// Look the game up by name and build it from a parameter table.
pub fn with_game<W: WithGame>(name: &str, params: &toml::Table, then: W) -> Result<Made> {
    games::visit(name, FromTable { params, then })?
}

/// Write a part (with the job output's tag, if any) rather than the final file.
pub type Tag<'a> = Option<&'a str>;

struct MakeItems<'a> {
    spec: &'a ItemsSpec,
    seed: u64,
    shard: Shard,
    part: Option<Tag<'a>>,
    dest: &'a Dest,
    env: &'a Env,
}

impl WithGame for MakeItems<'_> {
    fn with<G: Game>(self, game: G, params: G::Params) -> Result<Made> {
        let s = self.spec;
        items(
            &game, &params, self.seed, s.first, s.count, s.format, self.shard, self.part,
            self.dest, self.env,
        )
        .map(|(m, _)| m)
    }
}

struct Check;
impl WithGame for Check {
    fn with<G: Game>(self, _game: G, _params: G::Params) -> Result<Made> {
        Ok(Made::default())
    }
}

// ---------------------------------------------------------------- books

fn book_config(spec: &BookSpec, seed: Option<u64>) -> Result<(Value, crate::book::Template)> {
    let text = std::fs::read(&spec.template).map_err(|e| Error::Template {
        path: spec.template.clone(),
        message: format!("cannot read it: {e}"),
    })?;
    let template = crate::book::Template::load(&spec.template)?;
    Ok((
        json!({
            "template": spec.template.display().to_string(),
            "template_sha256": super::manifest::sha256_hex(&text),
            "seed": seed,
        }),
        template,
    ))
}

fn book(
    spec: &BookSpec,
    seed: Option<u64>,
    part: Option<Tag>,
    dest: &Dest,
    env: &Env,
) -> Result<Made> {
    let (config, template) = book_config(spec, seed)?;
    let built = crate::book::build(
        &template,
        &crate::book::BookOptions {
            seed,
            jobs: env.jobs,
            progress: env.progress,
        },
    )?;
    let mut sink = Sink::open(dest)?;
    if let Some(tag) = part {
        let mut h = Header::new("book", config, Shard::default()).tagged(tag);
        h.items = Some(built.puzzles as u64);
        sink.write(h.line().as_bytes())?;
    }
    sink.write(&built.pdf)?;
    sink.finish()?;
    Ok(Made {
        items: built.puzzles as u64,
        files: file_of(dest),
        note: format!("{} pages", built.pages),
    })
}

// ---------------------------------------------------------------- statistics

/// Where a statistics output's files go: the main CSV, and for Catan the summary CSV
/// and an optional report.
#[derive(Debug, Clone, PartialEq)]
pub struct StatsFiles {
    pub out: PathBuf,
    pub summary: Option<PathBuf>,
    pub report: Option<PathBuf>,
}

impl StatsFiles {
    pub fn single(out: PathBuf) -> Self {
        StatsFiles {
            out,
            summary: None,
            report: None,
        }
    }
}

fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<()> {
    let file = AtomicFile::create(path)?;
    let mut w = csv::Writer::from_writer(file);
    for r in rows {
        w.serialize(r)
            .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?;
    }
    w.into_inner()
        .map_err(|e| Error::invalid(format!("cannot write {}: {e}", path.display())))?
        .commit()
}

fn write_part(path: &Path, header: &Header, state: &impl Serialize) -> Result<()> {
    let mut f = AtomicFile::create(path)?;
    let body = header.line() + &serde_json::to_string(state).expect("counts serialise") + "\n";
    f.write_all(body.as_bytes())
        .map_err(|e| Error::io("cannot write", path, e))?;
    f.commit()
}

/// Carcassonne statistics: histograms per landscape size.
pub mod carcassonne_stats {
    use super::*;
    use crate::games::carcassonne::stats::{self, Hist};

    pub fn config(spec: &CarcassonneStatsSpec, seed: u64) -> Result<Value> {
        if spec.samples == 0 {
            return Err(Error::invalid("samples is 0: ask for at least 1 landscape"));
        }
        if spec.tiles.is_empty() || spec.tiles.iter().any(|t| !(1..=72).contains(t)) {
            return Err(Error::invalid(
                "tiles: give landscape sizes of 1 to 72 tiles",
            ));
        }
        Ok(json!({"seed": seed, "samples": spec.samples, "tiles": spec.tiles}))
    }

    pub fn count(spec: &CarcassonneStatsSpec, seed: u64, shard: Shard) -> Result<Vec<Hist>> {
        let h = spec
            .tiles
            .iter()
            .map(|&t| stats::run(seed, t, spec.samples, shard))
            .collect();
        crate::interrupt::check()?;
        Ok(h)
    }

    pub fn write(spec: &CarcassonneStatsSpec, seed: u64, hists: &[Hist], out: &Path) -> Result<()> {
        let mut rows = Vec::new();
        for (&t, h) in spec.tiles.iter().zip(hists) {
            rows.extend(stats::rows(seed, t, h));
        }
        write_csv(out, &rows)
    }

    pub(super) fn merge(parts: &mut [Part], files: &StatsFiles) -> Result<Made> {
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
            if h.len() != total.len() {
                return Err(Error::invalid(format!(
                    "{}: wrong number of sizes",
                    p.path.display()
                )));
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
pub mod match_stats {
    use super::*;
    use crate::games::number_match::{self, stats, Append, NumberMatch};

    pub fn config(spec: &MatchStatsSpec, seed: u64, shard: Shard) -> Result<stats::Config> {
        if spec.samples == 0 {
            return Err(Error::invalid("samples is 0: ask for at least 1 board"));
        }
        if spec.length == 0 {
            return Err(Error::invalid(
                "length is 0: a board needs at least 1 digit",
            ));
        }
        if spec.max_nodes == 0 {
            return Err(Error::invalid(
                "max_nodes is 0: give the search at least 1 node",
            ));
        }
        NumberMatch::check(spec.columns, spec.max_adds)?;
        let append: Append = spec.append.parse().map_err(Error::Invalid)?;
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

    pub fn header_config(spec: &MatchStatsSpec, seed: u64) -> Value {
        json!({
            "seed": seed, "samples": spec.samples, "length": spec.length,
            "max_adds": spec.max_adds, "max_nodes": spec.max_nodes, "columns": spec.columns,
            "append": spec.append, "diagonals": spec.diagonals,
            "monte_carlo_trials": spec.monte_carlo_trials, "timings": spec.timings,
        })
    }

    pub fn count(cfg: &stats::Config) -> Result<stats::Counts> {
        let c = stats::run(cfg);
        crate::interrupt::check()?;
        Ok(c)
    }

    pub(super) fn merge(parts: &mut [Part], files: &StatsFiles) -> Result<Made> {
        let spec = from_header(&parts[0].header.config)?;
        let seed = parts[0].header.config["seed"]
            .as_u64()
            .ok_or_else(|| bad_config("seed"))?;
        let cfg = config(&spec, seed, Shard::default())?;
        let mut total = stats::Counts::new(spec.max_adds);
        for p in parts.iter_mut() {
            total = total.merge(p.state()?);
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
        bias, board::BoardKind, context, rules::Rules, sampler::ALL_SAMPLERS, Sampler,
    };

    /// The context and the samplers that will run (`direct` only where it applies,
    /// unless asked for by name, which is then an error where it cannot run).
    pub fn setup(spec: &BiasSpec) -> Result<(crate::games::catan::sampler::Ctx, Vec<Sampler>)> {
        if spec.samples == 0 {
            return Err(Error::invalid(
                "samples is 0: ask for at least 1 board per sampler",
            ));
        }
        let kind: BoardKind = spec.board.parse().map_err(Error::Invalid)?;
        let rules: Rules = spec.rules.parse().map_err(Error::Invalid)?;
        let explicit = spec.samplers.is_some();
        let samplers: Vec<Sampler> = match &spec.samplers {
            Some(list) => list
                .split(',')
                .map(|s| s.trim().parse::<Sampler>())
                .collect::<Result<_, _>>()
                .map_err(Error::Invalid)?,
            None => ALL_SAMPLERS.to_vec(),
        };
        let ctx = match context(kind, &rules, Sampler::Direct) {
            Ok(ctx) => ctx,
            Err(e) if explicit && samplers.contains(&Sampler::Direct) => return Err(e),
            Err(_) => context(kind, &rules, Sampler::FullRejection)?,
        };
        let samplers = samplers
            .into_iter()
            .filter(|&s| s != Sampler::Direct || ctx.table.is_some())
            .collect();
        Ok((ctx, samplers))
    }

    pub fn header_config(spec: &BiasSpec, samplers: &[Sampler], seed: u64) -> Value {
        let names: Vec<&str> = samplers.iter().map(|s| s.name()).collect();
        json!({
            "seed": seed, "samples": spec.samples, "board": spec.board, "rules": spec.rules,
            "samplers": names.join(","), "reference_samples": spec.reference_samples,
        })
    }

    pub fn study_config(
        spec: &BiasSpec,
        samplers: Vec<Sampler>,
        seed: u64,
        shard: Shard,
        bar: bool,
    ) -> bias::StudyConfig {
        bias::StudyConfig {
            samplers,
            seed,
            samples: spec.samples,
            shard,
            reference_samples: spec.reference_samples,
            progress_bar: bar,
        }
    }

    #[derive(Serialize, Deserialize)]
    struct Counted {
        sampler: String,
        counts: bias::Counts,
    }

    pub fn state(counts: &[(Sampler, bias::Counts)]) -> impl Serialize {
        counts
            .iter()
            .map(|(s, c)| Counted {
                sampler: s.name().to_string(),
                counts: c.clone(),
            })
            .collect::<Vec<_>>()
    }

    /// Write the CSVs (and report) of a finished study.
    pub fn write(
        ctx: &crate::games::catan::sampler::Ctx,
        study: &bias::Study,
        seed: u64,
        files: &StatsFiles,
    ) -> Result<()> {
        write_csv(&files.out, &study.rows)?;
        let summary = files
            .summary
            .clone()
            .unwrap_or_else(|| files.out.with_extension("summary.csv"));
        write_csv(&summary, &study.summaries)?;
        if let Some(path) = &files.report {
            let pages = crate::games::catan::report::pages(ctx.shape, study, seed);
            let pdf = crate::book::render_pages(
                "Catan bias report",
                crate::games::catan::report::PAGE,
                &pages,
            )?;
            crate::output::write_atomic(path, &pdf)?;
        }
        Ok(())
    }

    pub fn files_written(files: &StatsFiles) -> Vec<PathBuf> {
        let mut v = vec![
            files.out.clone(),
            files
                .summary
                .clone()
                .unwrap_or_else(|| files.out.with_extension("summary.csv")),
        ];
        v.extend(files.report.clone());
        v
    }

    pub(super) fn merge(parts: &mut [Part], files: &StatsFiles) -> Result<(Made, bias::Study)> {
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
                .map(|c| {
                    Ok((
                        c.sampler.parse::<Sampler>().map_err(Error::Invalid)?,
                        c.counts,
                    ))
                })
                .collect::<Result<_>>()?;
            if got.iter().map(|g| g.0).collect::<Vec<_>>() != samplers {
                return Err(Error::invalid(format!(
                    "{}: its samplers do not match its header",
                    p.path.display()
                )));
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
        let cfg = study_config(&spec, samplers, seed, Shard::default(), false);
        let study = bias::finish(&ctx, &cfg, total.unwrap_or_default()).map_err(Error::Invalid)?;
        write(&ctx, &study, seed, files)?;
        Ok((
            Made {
                items: spec.samples,
                files: files_written(files),
                note: String::new(),
            },
            study,
        ))
    }
}

// ---------------------------------------------------------------- merge and make

/// What `merge` made, with the study for a Catan bias run (for the console table).
pub struct Merged {
    pub made: Made,
    pub kind: String,
    pub study: Option<crate::games::catan::bias::Study>,
}

/// Merge parts into the final output(s).
pub fn merge(paths: &[PathBuf], files: &StatsFiles) -> Result<Merged> {
    let mut parts = part::open_all(paths)?;
    let kind = parts[0].header.kind.clone();
    let dest = Dest::File(files.out.clone());
    let mut study = None;
    let made = match kind.as_str() {
        "items" => merge_items(&mut parts, &dest)?,
        "book" => {
            let pdf = parts[0].rest()?;
            crate::output::write_atomic(&files.out, &pdf)?;
            Made {
                items: parts[0].header.items.unwrap_or(0),
                files: vec![files.out.clone()],
                note: String::new(),
            }
        }
        "carcassonne-stats" => carcassonne_stats::merge(&mut parts, files)?,
        "number-match-stats" => match_stats::merge(&mut parts, files)?,
        "catan-bias" => {
            let (m, s) = catan_bias::merge(&mut parts, files)?;
            study = Some(s);
            m
        }
        other => {
            return Err(Error::invalid(format!(
                "{}: unknown part kind '{other}'",
                parts[0].path.display()
            )))
        }
    };
    Ok(Merged { made, kind, study })
}

impl Spec {
    pub fn kind(&self) -> &'static str {
        match self {
            Spec::Items(_) => "items",
            Spec::Book(_) => "book",
            Spec::CatanBias(_) => "catan-bias",
            Spec::CarcassonneStats(_) => "carcassonne-stats",
            Spec::NumberMatchStats(_) => "number-match-stats",
        }
    }

    /// Check everything that can be checked before running (game, parameters,
    /// template, rules, counts) and give the configuration that identifies the output.
    pub fn check(&self, seed: Option<u64>) -> Result<Value> {
        let s = seed.unwrap_or(crate::seed::DEFAULT_SEED);
        Ok(match self {
            Spec::Items(i) => {
                if i.count == 0 {
                    return Err(Error::invalid("count is 0: ask for at least 1 item"));
                }
                with_game(&i.game, &i.params, Check)?;
                json!({"game": i.game, "params": i.params, "seed": s, "first": i.first,
                       "count": i.count, "format": i.format})
            }
            Spec::Book(b) => book_config(b, seed)?.0,
            Spec::CatanBias(b) => {
                let (_, samplers) = catan_bias::setup(b)?;
                let mut v = catan_bias::header_config(b, &samplers, s);
                v["summary"] = json!(b.summary);
                v["report"] = json!(b.report);
                v
            }
            Spec::CarcassonneStats(c) => carcassonne_stats::config(c, s)?,
            Spec::NumberMatchStats(m) => {
                match_stats::config(m, s, Shard::default())?;
                match_stats::header_config(m, s)
            }
        })
    }

    /// Make the output: whole into `files`, or (with `part`) this shard's part at
    /// `part_path`.
    pub fn make(
        &self,
        seed: Option<u64>,
        shard: Shard,
        target: &Target,
        env: &Env,
    ) -> Result<Made> {
        let s = seed.unwrap_or(crate::seed::DEFAULT_SEED);
        let (part, dest) = match target {
            Target::Whole(f) => (None, Dest::File(f.out.clone())),
            Target::Part { path, tag } => (Some(tag.as_deref()), Dest::File(path.clone())),
        };
        match self {
            Spec::Items(i) => with_game(
                &i.game,
                &i.params,
                MakeItems {
                    spec: i,
                    seed: s,
                    shard,
                    part,
                    dest: &dest,
                    env,
                },
            ),
            Spec::Book(b) => book(b, seed, part, &dest, env),
            Spec::CarcassonneStats(c) => {
                let config = carcassonne_stats::config(c, s)?;
                let hists = carcassonne_stats::count(c, s, shard)?;
                match target {
                    Target::Whole(f) => carcassonne_stats::write(c, s, &hists, &f.out)?,
                    Target::Part { path, tag } => write_part(
                        path,
                        &Header::new(self.kind(), config, shard).tagged(tag.as_deref()),
                        &hists,
                    )?,
                }
                Ok(Made {
                    items: shard.len(0, c.samples),
                    files: target.files(),
                    note: String::new(),
                })
            }
            Spec::NumberMatchStats(m) => {
                let cfg = match_stats::config(m, s, shard)?;
                let counts =
                    crate::batch::thread_pool(env.jobs)?.install(|| match_stats::count(&cfg))?;
                match target {
                    Target::Whole(f) => write_csv(&f.out, &stats_rows(&cfg, &counts))?,
                    Target::Part { path, tag } => write_part(
                        path,
                        &Header::new(self.kind(), match_stats::header_config(m, s), shard)
                            .tagged(tag.as_deref()),
                        &counts,
                    )?,
                }
                Ok(Made {
                    items: counts.boards,
                    files: target.files(),
                    note: String::new(),
                })
            }
            Spec::CatanBias(b) => {
                let (ctx, samplers) = catan_bias::setup(b)?;
                let config = catan_bias::header_config(b, &samplers, s);
                let cfg = catan_bias::study_config(b, samplers, s, shard, env.progress);
                let counts = crate::batch::thread_pool(env.jobs)?
                    .install(|| crate::games::catan::bias::count_samplers(&ctx, &cfg, |_, _, _| {}))
                    .map_err(stop_or)?;
                match target {
                    Target::Whole(f) => {
                        let study = crate::games::catan::bias::finish(&ctx, &cfg, counts)
                            .map_err(Error::Invalid)?;
                        catan_bias::write(&ctx, &study, s, f)?;
                    }
                    Target::Part { path, tag } => write_part(
                        path,
                        &Header::new(self.kind(), config, shard).tagged(tag.as_deref()),
                        &catan_bias::state(&counts),
                    )?,
                }
                Ok(Made {
                    items: shard.len(0, b.samples),
                    files: target.files(),
                    note: String::new(),
                })
            }
        }
    }
}

fn stats_rows(
    cfg: &crate::games::number_match::stats::Config,
    c: &crate::games::number_match::stats::Counts,
) -> Vec<crate::games::number_match::stats::Row> {
    crate::games::number_match::stats::rows(cfg, c)
}

/// A library error string, or Interrupted when a stop was asked for.
pub fn stop_or(e: String) -> Error {
    if crate::interrupt::requested() {
        Error::Interrupted
    } else {
        Error::Invalid(e)
    }
}

/// Where `Spec::make` writes.
#[derive(Debug, Clone)]
pub enum Target {
    Whole(StatsFiles),
    Part { path: PathBuf, tag: Option<String> },
}

impl Target {
    fn files(&self) -> Vec<PathBuf> {
        match self {
            Target::Whole(f) => {
                let mut v = vec![f.out.clone()];
                v.extend(f.summary.clone());
                v.extend(f.report.clone());
                v
            }
            Target::Part { path, .. } => vec![path.clone()],
        }
    }
}
