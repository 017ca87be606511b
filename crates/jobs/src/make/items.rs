//! Items outputs (JSON Lines or text) and books: made whole, as parts, and merged.

use super::*;
use crate::game::Registry;

/// The part-header configuration of an items run: what parts must share to merge.
#[derive(Serialize, Deserialize)]
struct ItemsHeader {
    /// The game, as the registry spells it.
    game: String,
    /// Its parameters, read back by the game's own `Params`.
    params: Value,
    seed: u64,
    first: u64,
    count: u64,
    format: ItemFormat,
}

/// The part-header configuration of an items run.
fn items_config<G: Game>(
    params: &G::Params,
    seed: u64,
    first: u64,
    count: u64,
    format: ItemFormat,
) -> Value {
    let header = ItemsHeader {
        game: G::NAME.to_string(),
        params: serde_json::to_value(params).expect("parameters serialise"),
        seed,
        first,
        count,
        format,
    };
    serde_json::to_value(header).expect("headers serialise")
}

/// One item as its output text.
fn item_text<G: Present>(
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
            // Settings other than the defaults follow the seed, for `solve` to read.
            let settings: Vec<String> = game
                .text_settings()
                .into_iter()
                .map(|(key, value)| format!("{key}={value}"))
                .collect();
            let stated = if settings.is_empty() {
                String::new()
            } else {
                format!("; {}", settings.join(", "))
            };
            format!(
                "# {} item {} (seed {seed}{stated}): {}\n{}\n",
                G::NAME,
                item.index,
                about,
                game.text(&item.puzzle)
            )
        }
    }
}

/// One run of items for [`items`]: which items, in what format, to where.
pub struct ItemsRun<'a> {
    /// The run's master seed.
    pub seed: u64,
    /// The first item's index.
    pub first: u64,
    /// How many items, from `first` on.
    pub count: u64,
    /// JSON Lines or text.
    pub format: ItemFormat,
    /// Which of the items this process makes.
    pub shard: Shard,
    /// Some: write a part file (header and one line per item), with the job output's
    /// tag if it has one; None: the final output.
    pub part: Option<Tag<'a>>,
    /// A file, or standard output.
    pub dest: &'a Dest,
    /// Threads and progress.
    pub env: &'a Env,
    /// The puzzles published already, to draw past (a catalogue's, or earlier volumes').
    pub fresh: Option<&'a mut crate::catalogue::Seen>,
}

/// Generate the items of `run` with `game` (made from `params`) and write them.
pub fn items<G: Present>(
    game: &G,
    params: &G::Params,
    run: ItemsRun<'_>,
) -> Result<(Made, batch::RunSummary)> {
    let ItemsRun {
        seed,
        first,
        count,
        format,
        shard,
        part,
        dest,
        env,
        fresh,
    } = run;
    if count == 0 {
        return Err(Error::invalid("the count is 0: ask for at least 1 item"));
    }
    crate::shard::check_range(first, count)?;
    let opts = RunOptions {
        seed,
        env: env.clone(),
        shard,
        first,
        label: G::NAME.to_string(),
        ..RunOptions::default()
    };
    let mut sink = match part {
        Some(_) => Sink::open_part(dest)?,
        None => Sink::open(dest)?,
    };
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
    let write = |t: String| sink.write(t.as_bytes());
    let (summary, published) = match fresh {
        None => (
            batch::run_map(game, &opts, count, to_text, write)?,
            Vec::new(),
        ),
        Some(seen) => {
            let (summary, taken) = batch::run_map_fresh(game, &opts, count, seen, to_text, write)?;
            let published = crate::catalogue::published(G::NAME, taken, |i| i.to_string());
            (summary, published)
        }
    };
    sink.finish()?;
    let made = Made {
        published,
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

pub(super) fn file_of(dest: &Dest) -> Vec<PathBuf> {
    match dest {
        Dest::File(p) => vec![p.clone()],
        Dest::Stdout => Vec::new(),
    }
}

/// Merge items parts: records in index order, exactly as one run writes them.
pub(super) fn merge_items<R: Registry>(parts: &mut [PartFile], dest: &Dest) -> Result<Made> {
    let cfg: ItemsHeader = serde_json::from_value(parts[0].header.config.clone())
        .map_err(|e| Error::invalid(format!("bad part header: {e}")))?;
    R::visit(
        &cfg.game.clone(),
        MergeItems {
            parts,
            dest,
            cfg: &cfg,
        },
    )?
}

/// Merge items parts of one game: every JSON record is read back and re-checked with
/// the game's independent check before anything is written (a part whose checksum
/// was recomputed after an edit still cannot slip a wrong record through).
struct MergeItems<'a> {
    parts: &'a mut [PartFile],
    dest: &'a Dest,
    cfg: &'a ItemsHeader,
}

impl GameVisitor for MergeItems<'_> {
    type Output = Result<Made>;
    fn visit<G: Present>(self) -> Result<Made> {
        let (parts, dest, cfg) = (self.parts, self.dest, self.cfg);
        let params = G::Params::deserialize(&cfg.params)
            .map_err(|e| Error::invalid(format!("the part header's params: {e}")))?;
        let game = G::new(params)?;
        let (first, count) = (cfg.first, cfg.count);
        crate::shard::check_range(first, count)?;
        let text = cfg.format == ItemFormat::Text;
        let n = parts.len() as u64;
        let mut sink = Sink::open(dest)?;
        #[derive(Deserialize)]
        struct Index {
            index: u64,
            #[serde(default)]
            text: String,
        }
        for i in (0..count).map(|k| first + k) {
            if i % 4096 == 0 {
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
                let value: Value = serde_json::from_str(&line)
                    .map_err(|e| Error::invalid(format!("{}: item {i}: {e}", p.path.display())))?;
                if let Some(puzzle) = game.read_record(&value) {
                    puzzle.and_then(|q| game.verify(&q)).map_err(|e| {
                        Error::invalid(format!(
                            "{}: item {i} fails the game's check ({e}): a changed part; make it again",
                            p.path.display()
                        ))
                    })?;
                }
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
            published: Vec::new(),
            items: count,
            files: file_of(dest),
            note: String::new(),
        })
    }
}

/// Make a game from a job file's parameter table, then call back with it.
pub(crate) trait WithGame {
    /// Go on with `game` and its parameters, checked and ready to use.
    fn with<G: Present>(self, game: G, params: G::Params) -> Result<Made>;
}

struct FromTable<'a, W> {
    params: &'a toml::Table,
    then: W,
}

impl<W: WithGame> GameVisitor for FromTable<'_, W> {
    type Output = Result<Made>;
    fn visit<G: Present>(self) -> Result<Made> {
        let params = G::Params::deserialize(toml::Value::Table(self.params.clone()))
            .map_err(|e| Error::invalid(format!("{} params: {}", G::NAME, e.message().trim())))?;
        let game = G::new(params.clone())?;
        self.then.with(game, params)
    }
}

/// Look the game up by name and build it from a parameter table.
pub(crate) fn with_game<R: Registry, W: WithGame>(
    name: &str,
    params: &toml::Table,
    then: W,
) -> Result<Made> {
    R::visit(name, FromTable { params, then })?
}

/// Write a part (with the job output's tag, if any) rather than the final file.
pub(crate) type Tag<'a> = Option<&'a str>;

pub(super) struct MakeItems<'a> {
    pub(super) spec: &'a ItemsSpec,
    pub(super) seed: u64,
    pub(super) shard: Shard,
    pub(super) part: Option<Tag<'a>>,
    pub(super) dest: &'a Dest,
    pub(super) env: &'a Env,
    pub(super) fresh: Option<&'a mut crate::catalogue::Seen>,
}

impl WithGame for MakeItems<'_> {
    fn with<G: Present>(self, game: G, params: G::Params) -> Result<Made> {
        let s = self.spec;
        let run = ItemsRun {
            seed: self.seed,
            first: s.first,
            count: s.count,
            format: s.format,
            shard: self.shard,
            part: self.part,
            dest: self.dest,
            env: self.env,
            fresh: self.fresh,
        };
        items(&game, &params, run).map(|(m, _)| m)
    }
}

/// Build the game (checking its parameters) and keep the configuration a part header
/// of this run would carry: the parameters as the game reads them, defaults filled in
/// (so `size = 4` and `size = "4"` are one output).
pub(super) struct Check<'a> {
    pub(super) spec: &'a ItemsSpec,
    pub(super) seed: u64,
    pub(super) config: &'a std::cell::RefCell<Value>,
}

impl WithGame for Check<'_> {
    fn with<G: Present>(self, _game: G, params: G::Params) -> Result<Made> {
        let s = self.spec;
        *self.config.borrow_mut() =
            items_config::<G>(&params, self.seed, s.first, s.count, s.format);
        Ok(Made::default())
    }
}

pub(super) fn book_config<R: Registry>(
    spec: &BookSpec,
    seed: Option<u64>,
) -> Result<(Value, crate::book::Template)> {
    let template = crate::book::Template::load::<R>(spec.template_path())?;
    let text = crate::input::read_capped(
        spec.template_path(),
        crate::limits::MAX_CONFIG_BYTES,
        "template",
    )?;
    crate::book::for_volume(&template, spec.volume)?;
    let mut config = json!({
        "template": spec.template.display().to_string(),
        "template_sha256": crate::manifest::sha256_hex(&text),
        "seed": seed,
    });
    if let Some(v) = spec.volume {
        config["volume"] = json!(v);
    }
    Ok((config, template))
}

pub(super) fn book<R: Registry>(
    spec: &BookSpec,
    seed: Option<u64>,
    part: Option<Tag>,
    dest: &Dest,
    env: &Env,
    fresh: Option<&mut crate::catalogue::Seen>,
) -> Result<Made> {
    let (config, template) = book_config::<R>(spec, seed)?;
    // The book takes the set and gives it back with its own puzzles added.
    let shared = fresh
        .as_ref()
        .map(|_| std::sync::Arc::new(std::sync::Mutex::new(Default::default())));
    let mut fresh = fresh;
    if let (Some(seen), Some(s)) = (fresh.as_mut(), &shared) {
        *s.lock().unwrap_or_else(|p| p.into_inner()) = std::mem::take(*seen);
    }
    let built = crate::book::build::<R>(
        &template,
        &crate::book::BookOptions {
            seed,
            env: env.clone(),
            template_name: spec
                .template
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            fresh: shared.clone(),
            volume: spec.volume,
        },
    );
    if let (Some(seen), Some(s)) = (fresh, &shared) {
        *seen = std::mem::take(&mut *s.lock().unwrap_or_else(|p| p.into_inner()));
    }
    let built = built?;
    let files = match (part, dest) {
        (Some(tag), _) => {
            let mut sink = Sink::open(dest)?;
            let mut h = Header::new("book", config, Shard::default()).tagged(tag);
            h.items = Some(built.puzzles as u64);
            h.payload_sha256 = Some(crate::manifest::sha256_hex(&built.pdf));
            h.facts = Some(built.facts.clone());
            sink.write(h.line().as_bytes())?;
            sink.write(&built.pdf)?;
            sink.finish()?;
            file_of(dest)
        }
        (None, Dest::File(path)) => crate::book::write_with_facts(path, &built)?,
        (None, Dest::Stdout) => {
            let mut sink = Sink::open(dest)?;
            sink.write(&built.pdf)?;
            sink.finish()?;
            Vec::new()
        }
    };
    Ok(Made {
        published: built.published,
        items: built.puzzles as u64,
        files,
        note: std::iter::once(format!("{} pages", built.pages))
            .chain(built.warnings.iter().map(|w| format!("warning: {w}")))
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// The configuration of an images output (its identity).
pub(super) struct CheckImages<'a> {
    pub(super) spec: &'a ImagesSpec,
    pub(super) seed: u64,
    pub(super) config: &'a std::cell::RefCell<Value>,
}

impl WithGame for CheckImages<'_> {
    fn with<G: Present>(self, game: G, params: G::Params) -> Result<Made> {
        let s = self.spec;
        let mut c = items_config::<G>(&params, self.seed, s.first, s.count, ItemFormat::Jsonl);
        c["formats"] = json!(s.formats);
        c["dpi"] = json!(s.dpi);
        c["solutions"] = json!(game.has_answers());
        *self.config.borrow_mut() = c;
        Ok(Made::default())
    }
}

/// Make an images output: the puzzles (past `fresh`, if given), then every picture and
/// the records, all appearing together once whole.
pub(super) struct MakeImages<'a> {
    pub(super) spec: &'a ImagesSpec,
    pub(super) seed: u64,
    /// The output folder joined with the output's name: the files' stem.
    pub(super) stem: &'a Path,
    pub(super) env: &'a Env,
    pub(super) fresh: Option<&'a mut crate::catalogue::Seen>,
}

impl WithGame for MakeImages<'_> {
    fn with<G: Present>(self, game: G, _params: G::Params) -> Result<Made> {
        use crate::svg::Picture;
        let s = self.spec;
        let opts = RunOptions {
            seed: self.seed,
            env: self.env.clone(),
            first: s.first,
            label: G::NAME.to_string(),
            ..RunOptions::default()
        };
        let (items, published) = match self.fresh {
            None => (batch::collect(&game, &opts, s.count)?.0, Vec::new()),
            Some(seen) => {
                let (items, taken) = batch::collect_fresh(&game, &opts, s.count, seen)?;
                let published = crate::catalogue::published(G::NAME, taken, |i| i.to_string());
                (items, published)
            }
        };
        let dir = self.stem.parent().unwrap_or(Path::new(""));
        let stem = self
            .stem
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let mut set = crate::output::FileSet::new();
        let mut files = Vec::new();
        let records = dir.join(format!("{stem}.jsonl"));
        {
            let f = set.create(&records)?;
            for item in &items {
                f.write_all(item_text(&game, item, self.seed, ItemFormat::Jsonl).as_bytes())
                    .map_err(|e| Error::io("cannot write to", &records, e))?;
            }
        }
        files.push(records);
        for (k, item) in items.iter().enumerate() {
            crate::interrupt::check()?;
            for (name, format, solution) in s.pictures(&stem, k as u64 + 1, game.has_answers()) {
                let p = Picture::sized(game.aspect(), |canvas, area| {
                    game.draw(&item.puzzle, canvas, area, solution)
                });
                let bytes = match format {
                    ImageFormat::Svg => p.svg().into_bytes(),
                    ImageFormat::Png => p.png(s.dpi)?,
                };
                let path = dir.join(&name);
                set.create(&path)?
                    .write_all(&bytes)
                    .map_err(|e| Error::io("cannot write to", &path, e))?;
                files.push(path);
            }
        }
        set.commit()?;
        Ok(Made {
            items: items.len() as u64,
            files,
            note: String::new(),
            published,
        })
    }
}
