//! The one driver of every `solve` and `score` command: items are read one at a time
//! (memory stays that of one item, whatever the input's length), a stop request is
//! looked at before each, every item gets one answer (text or JSON) written as soon
//! as it is found, and failed answers are counted. What an answer says is the game's
//! ([`Solve`]); reading, counting and writing are the same for every game.

use crate::game::{Registry, Solve};
use crate::input::{self, Record, Records};
use crate::limits::MAX_RECORD_BYTES;
use crate::{Error, Result};
use std::io::Write;

/// How a game's solve input is cut into items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// Blocks of lines separated by blank lines (boards, grids).
    Blocks,
    /// One JSON document over several lines (read whole, up to the record cap), or
    /// else JSON Lines: one item per non-blank line.
    JsonDocumentOrLines,
}

/// Where the items come from.
pub enum Source<'a> {
    /// A file name, or `-` for standard input, cut by the game's [`Split`].
    File(&'a str),
    /// An open reader and its name in messages, cut by the game's [`Split`].
    Reader(Box<dyn std::io::BufRead + 'a>, &'a str),
    /// One item given as text (a board on the command line).
    Text(&'a str),
}

/// One item of the input, with where it is.
#[derive(Debug)]
pub struct Item<'a> {
    /// The item's text.
    pub text: &'a str,
    /// The line the item starts on (from 1).
    pub line: usize,
    /// How many items were answered before this one.
    pub index: usize,
    /// Whether the input holds more than this one item (known only when the game
    /// asks for it with [`Solve::READ_AHEAD`]; false otherwise).
    pub many: bool,
    /// The input's name in messages ("standard input" or the file name).
    pub source: &'a str,
    /// What the generator stated about the item (None for text typed by hand).
    pub stated: Option<Stated>,
}

impl Item<'_> {
    /// Refuse this item with `e`, named by its place ("standard input: board 2 (line
    /// 5): ..."), `what` being what one item is called.
    pub fn refused(&self, what: &str, e: impl std::fmt::Display) -> Answer {
        Answer::Refused(format!(
            "{}: {what} {} (line {}): {e}",
            self.source,
            self.index + 1,
            self.line
        ))
    }
}

/// Check the size a record states (`rows` and `cols`, or `size` for a square) against
/// the size of the board it holds (`rows` x `cols` of what `what` names).
pub fn check_stated_size(stated: &Stated, rows: usize, cols: usize, what: &str) -> Result<()> {
    let size = optional_field::<usize>(&stated.fields, "size")?;
    let r = optional_field::<usize>(&stated.fields, "rows")?.or(size);
    let c = optional_field::<usize>(&stated.fields, "cols")?.or(size);
    if r.is_some_and(|r| r != rows) || c.is_some_and(|c| c != cols) {
        return Err(Error::invalid(format!(
            "{} says {} x {}, but its {what} are {rows} x {cols}",
            stated.origin,
            r.unwrap_or(rows),
            c.unwrap_or(cols)
        )));
    }
    Ok(())
}

/// What `generate` stated about an item: its JSON record, or the settings a text
/// item's `#` header lists (those that differ from the defaults, such as
/// `shape=plus`). A setting it leaves out is the default, so a flag is checked
/// against it either way.
#[derive(Debug, Clone, PartialEq)]
pub struct Stated {
    /// The record, or the header's settings as a JSON object.
    pub fields: serde_json::Value,
    /// "the record" or "the header", for messages.
    pub origin: &'static str,
    /// Whether the item is a JSON record (its puzzle is in `fields`).
    pub is_record: bool,
}

/// The header `generate --format text` writes above an item, "# numbrix item 3 (seed
/// 7; moves=king): ...": the game's name and the settings listed after the seed;
/// None for any other comment.
fn header(line: &str) -> Option<(&str, Vec<(&str, &str)>)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let (game, rest) = rest.split_once(" item ")?;
    let (index, rest) = rest.split_once(" (seed ")?;
    let (inside, _) = rest.split_once("):")?;
    if !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let settings = match inside.split_once("; ") {
        None => Vec::new(),
        Some((_, list)) => list
            .split(", ")
            .filter_map(|kv| kv.split_once('='))
            .collect(),
    };
    Some((game, settings))
}

/// What the generator stated about record `rec` for game `G` (see [`Stated`]); an
/// error for a record or a header of another game, or a record that is no JSON.
fn stated_of<R: Registry, G: Solve>(rec: &Record) -> Result<Option<Stated>> {
    if let Some(record) = record_of::<R, G>(&rec.text) {
        return Ok(Some(Stated {
            fields: record?,
            origin: "the record",
            is_record: true,
        }));
    }
    let Some((game, settings)) = rec.comments.lines().rev().find_map(header) else {
        return Ok(None);
    };
    match R::canonical(game) {
        // A comment that only looks like a header.
        None => return Ok(None),
        Some(known) if known != G::NAME => {
            return Err(Error::invalid(format!(
                "the header says it is an item of {known}, not of {}",
                G::NAME
            )))
        }
        Some(_) => {}
    }
    let mut fields = serde_json::Map::new();
    for (key, value) in settings {
        let value = match value {
            "true" => serde_json::Value::Bool(true),
            "false" => serde_json::Value::Bool(false),
            v => v
                .parse::<u64>()
                .map_or_else(|_| serde_json::Value::String(v.to_string()), Into::into),
        };
        fields.insert(key.to_string(), value);
    }
    Ok(Some(Stated {
        fields: serde_json::Value::Object(fields),
        origin: "the header",
        is_record: false,
    }))
}

/// A setting of the item's puzzle: what the generator stated (or, where it stated
/// the item but left the setting out, `default`), which a flag given must agree
/// with; for text typed by hand, the flag, else `default`. `key` is the record's
/// field (`no_diagonals`), the flag is it with dashes (`--no-diagonals`).
pub fn setting<T: serde::de::DeserializeOwned + PartialEq + Copy>(
    item: &Item,
    flag: Option<T>,
    key: &str,
    default: T,
    word: impl Fn(T) -> String,
) -> Result<T> {
    let Some(stated) = &item.stated else {
        return Ok(flag.unwrap_or(default));
    };
    let value = optional_field::<T>(&stated.fields, key)?.unwrap_or(default);
    match flag {
        Some(f) if f != value => Err(Error::invalid(format!(
            "{} says {key} {}, but --{} {} was given; leave the flag out to use what it says",
            stated.origin,
            word(value),
            key.replace('_', "-"),
            word(f)
        ))),
        _ => Ok(value),
    }
}

/// The answer for one item.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Written as it is; the item is answered.
    Done(String),
    /// Written as it is; the answer counts as a failure (exit status 1).
    Failed(String),
    /// The item is refused with this message: the whole command fails with it when
    /// the input holds this item only, else it goes to standard error and counts as a
    /// failure.
    Refused(String),
    /// Not an item (a block of comments): no answer, not counted.
    Skip,
}

/// What a run answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Items answered.
    pub items: usize,
    /// Answers that failed, refused items included.
    pub failed: usize,
    /// What to say about the failures; None when the answers already said it.
    pub message: Option<String>,
}

/// Answer every item of `source` with game `G`, writing the answers to `out` and
/// refusals of single items among several to `err`. A record or header naming another
/// game of the registry `R` is refused.
pub fn run<R: Registry, G: Solve>(
    options: &G::Options,
    source: Source<'_>,
    json: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Report> {
    G::check(options)?;
    let (name, mut items) = open_items::<G>(source)?;
    if G::SPLIT == Split::JsonDocumentOrLines {
        items.join_document(&name, G::ITEM)?;
    }
    let mut sink = Sink {
        out: std::io::BufWriter::new(out),
        err,
        flush_each: G::FLUSH_EACH,
        failed: 0,
        refused: 0,
    };
    let mut index = 0;
    // Records that are no item of their own (a solution printed under its puzzle)
    // are passed over before they can count.
    let mut next_item = || -> Result<Option<Record>> {
        loop {
            match items.next()? {
                Some(rec) if !G::is_item(&rec.text) => continue,
                rec => return Ok(rec),
            }
        }
    };
    let mut next = if G::READ_AHEAD { next_item()? } else { None };
    loop {
        let rec = if G::READ_AHEAD {
            next.take()
        } else {
            next_item()?
        };
        let Some(rec) = rec else { break };
        crate::interrupt::check()?;
        if G::READ_AHEAD {
            next = next_item()?;
        }
        let many = index > 0 || next.is_some();
        let mut item = Item {
            text: &rec.text,
            line: rec.line,
            index,
            many,
            source: &name,
            stated: None,
        };
        let answer = match stated_of::<R, G>(&rec) {
            Ok(stated) => {
                item.stated = stated;
                <G as Solve>::answer(options, &item, json)?
            }
            Err(e) => item.refused(G::ITEM, e),
        };
        if sink.answer(answer, many, json)? {
            index += 1;
        }
    }
    sink.out.flush().map_err(stdout_error)?;
    if index == 0 {
        return Err(G::nothing_found(&name));
    }
    let (failed, refused) = (sink.failed, sink.refused);
    Ok(Report {
        items: index,
        failed,
        // Refused items have said why on standard error; the summary is of the answers
        // that failed.
        message: (failed > refused)
            .then(|| G::failures(options, failed - refused, index))
            .flatten(),
    })
}

/// The items of `source`, cut by game `G`'s [`Split`], and the input's name in
/// messages.
fn open_items<G: Solve>(source: Source<'_>) -> Result<(String, Items<'_>)> {
    let (reader, name) = match source {
        Source::File(file) => (input::open(file)?, input::name_of(file).to_string()),
        Source::Reader(reader, name) => (reader, name.to_string()),
        Source::Text(text) => {
            return Ok((
                "the command line".to_string(),
                Items::One(Some(Record {
                    text: text.to_string(),
                    line: 1,
                    comments: String::new(),
                })),
            ))
        }
    };
    let records = match G::SPLIT {
        Split::Blocks => Records::blocks(reader, &name, MAX_RECORD_BYTES),
        Split::JsonDocumentOrLines => Records::lines(reader, &name, MAX_RECORD_BYTES),
    }
    .generated_items();
    let items = Items::File {
        records,
        pending: None,
        done: false,
    };
    Ok((name, items))
}

/// A failure to write to standard output.
fn stdout_error(e: std::io::Error) -> Error {
    Error::io("cannot write to", "standard output", e)
}

/// Where a run's answers go, and how many failed.
struct Sink<'w> {
    out: std::io::BufWriter<&'w mut dyn Write>,
    err: &'w mut dyn Write,
    /// Flush after every answer (the game's [`Solve::FLUSH_EACH`]).
    flush_each: bool,
    /// Answers that failed, refused items included.
    failed: usize,
    /// Items refused.
    refused: usize,
}

impl Sink<'_> {
    /// Write `text` to standard output.
    fn write(&mut self, text: &str) -> Result<()> {
        self.out.write_all(text.as_bytes()).map_err(stdout_error)?;
        if self.flush_each {
            self.out.flush().map_err(stdout_error)?;
        }
        Ok(())
    }

    /// Write one item's answer and count it; whether it was an item (a skipped block
    /// is not). The refusal of the input's only item (not `many`) is the run's error;
    /// among several, it goes to standard error (and, in `json`, a line of its own).
    fn answer(&mut self, answer: Answer, many: bool, json: bool) -> Result<bool> {
        match answer {
            Answer::Done(text) => self.write(&text)?,
            Answer::Failed(text) => {
                self.failed += 1;
                self.write(&text)?;
            }
            Answer::Refused(message) if !many => return Err(Error::invalid(message)),
            Answer::Refused(message) => {
                self.failed += 1;
                self.refused += 1;
                // JSON answers keep one line an item: the refusal is one too.
                if json {
                    self.write(&(serde_json::json!({ "error": message }).to_string() + "\n"))?;
                }
                // The answers so far come first.
                self.out.flush().map_err(stdout_error)?;
                writeln!(self.err, "error: {message}")
                    .map_err(|e| Error::io("cannot write to", "standard error", e))?;
            }
            Answer::Skip => return Ok(false),
        }
        Ok(true)
    }
}

/// The JSON record in `text` when the item is one (a line `generate` wrote, which
/// starts with `{`), checked to be a record of game `G`; None when the item is text.
pub(crate) fn record_of<R: Registry, G: Solve>(text: &str) -> Option<Result<serde_json::Value>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let read = || -> Result<serde_json::Value> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::invalid(format!("not a JSON record: {e}")))?;
        match v.get("game").and_then(|g| g.as_str()) {
            Some(game) if R::canonical(game) != Some(G::NAME) => Err(Error::invalid(format!(
                "a record of {}, not of {}",
                crate::input::shown(game),
                G::NAME
            ))),
            _ => Ok(v),
        }
    };
    Some(read())
}

/// A field of a record read as `T`, or the error naming it.
pub fn field<T: serde::de::DeserializeOwned>(record: &serde_json::Value, key: &str) -> Result<T> {
    let v = record
        .get(key)
        .ok_or_else(|| Error::invalid(format!("the record has no \"{key}\"")))?;
    T::deserialize(v).map_err(|e| Error::invalid(format!("the record's \"{key}\" {e}")))
}

/// A field a record may leave out (its default), read as `T`.
pub fn optional_field<T: serde::de::DeserializeOwned>(
    record: &serde_json::Value,
    key: &str,
) -> Result<Option<T>> {
    match record.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(_) => field(record, key).map(Some),
    }
}

/// The records of an input, one at a time.
enum Items<'a> {
    File {
        records: Records<'a>,
        /// A record already read, given out next.
        pending: Option<Record>,
        /// Whether the records are all read (the input was one whole document).
        done: bool,
    },
    One(Option<Record>),
}

impl Items<'_> {
    fn next(&mut self) -> Result<Option<Record>> {
        match self {
            Items::File {
                records,
                pending,
                done,
            } => match pending.take() {
                Some(rec) => Ok(Some(rec)),
                None if *done => Ok(None),
                None => records.next_record(),
            },
            Items::One(rec) => Ok(rec.take()),
        }
    }

    /// One JSON document over several lines (its first line is incomplete JSON) is
    /// read whole up to the record cap and becomes the only item; JSON Lines stay one
    /// item per line.
    fn join_document(&mut self, name: &str, item: &str) -> Result<()> {
        let Items::File {
            records,
            pending,
            done,
        } = self
        else {
            return Ok(());
        };
        let Some(first) = records.next_record()? else {
            return Ok(());
        };
        let incomplete =
            matches!(serde_json::from_str::<serde_json::Value>(&first.text), Err(e) if e.is_eof());
        if !incomplete {
            *pending = Some(first);
            return Ok(());
        }
        let mut text = first.text;
        while let Some(r) = records.next_record()? {
            if text.len() + r.text.len() > MAX_RECORD_BYTES {
                return Err(Error::invalid(format!(
                    "{name}: the {item} is longer than {MAX_RECORD_BYTES} bytes, the most one may be"
                )));
            }
            text.push_str(&r.text);
        }
        *pending = Some(Record {
            text,
            line: first.line,
            comments: first.comments,
        });
        *done = true;
        Ok(())
    }
}
