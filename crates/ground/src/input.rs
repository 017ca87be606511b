//! Reading what users give, with a bound on everything held in memory: whole files
//! (templates, job files, manifests) up to a cap, and streams of records (boards
//! separated by blank lines, JSON Lines) one record at a time, each up to a cap. An
//! input past a cap is an error that says which cap, never an allocation that grows
//! with the input.

use crate::{Error, Result};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Every file this process has read as an input (what it was, its path): no output
/// may be one of them ([`crate::output`] checks each output against this list).
static READ: Mutex<Vec<(String, PathBuf)>> = Mutex::new(Vec::new());

/// Remember that `path` is read as `what` ("the mask file", "the template"), so that
/// no output of this process may replace it.
pub fn note_read(what: &str, path: &Path) {
    let mut v = READ.lock().unwrap_or_else(|p| p.into_inner());
    if !v.iter().any(|(_, p)| p == path) {
        v.push((what.to_string(), path.to_path_buf()));
    }
}

/// The files this process has read as inputs, with what each was.
pub(crate) fn files_read() -> Vec<(String, PathBuf)> {
    READ.lock().unwrap_or_else(|p| p.into_inner()).clone()
}

/// Where an input comes from, for messages ("standard input", "board.txt").
pub fn name_of(file: &str) -> &str {
    if file == "-" {
        "standard input"
    } else {
        file
    }
}

/// Open `file` for reading, `-` meaning standard input.
pub fn open(file: &str) -> Result<Box<dyn BufRead>> {
    if file == "-" {
        return Ok(Box::new(std::io::BufReader::new(std::io::stdin())));
    }
    note_read("an input file", Path::new(file));
    let f = std::fs::File::open(file).map_err(|e| Error::io("cannot read", file, e))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(Error::invalid(format!(
            "{file} is a folder: name a file, or - for standard input"
        )));
    }
    Ok(Box::new(std::io::BufReader::new(f)))
}

/// Read a whole file of at most `max` bytes (a longer one is an error naming the cap).
pub fn read_capped(path: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    note_read(&format!("the {what}"), path);
    let f = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(Error::invalid(format!(
            "{} is a folder, not a {what}",
            path.display()
        )));
    }
    let mut v = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut v)
        .map_err(|e| Error::io("cannot read", path, e))?;
    if v.len() as u64 > max {
        return Err(Error::invalid(format!(
            "{} is larger than {} bytes, the most a {what} may be",
            path.display(),
            max
        )));
    }
    Ok(v)
}

/// The line (counted from 1) that byte `at` of `text` is on; past the end, the last
/// line. Template, job file and TOML error messages all number lines this way.
pub fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A TOML error as one line: "line L: message" (the key is in toml's message).
pub fn toml_error(e: &toml::de::Error, text: &str) -> String {
    let mut msg = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            // toml says "duplicate key" without the key: its span is the key.
            if msg == "duplicate key" {
                if let Some(key) = text.get(span.clone()) {
                    let key = key.trim().trim_matches(['"', '\'']);
                    if !key.is_empty() {
                        msg = format!("duplicate key `{}`", excerpt(key));
                    }
                }
            }
            let line = line_of(text, span.start);
            // A value of the wrong type or out of range: its span is the value; the
            // key is what stands before the `=` ahead of it.
            if msg.starts_with("invalid value") || msg.starts_with("invalid type") {
                if let Some(key) = key_before(text, span.start) {
                    return format!("line {line}: `{key}`: {}", plain_range(&msg));
                }
            }
            format!("line {line}: {msg}")
        }
        None => msg,
    }
}

/// The key whose value starts at byte `at` of a TOML text (`keep = -1`, or `size` in
/// `params = { size = -1 }`), if one stands there.
fn key_before(text: &str, at: usize) -> Option<String> {
    let head = text.get(..at.min(text.len()))?;
    let line_start = head.rfind('\n').map_or(0, |i| i + 1);
    let head = head[line_start..].trim_end();
    let head = head.strip_suffix('=')?.trim_end();
    let key = head
        .rsplit(|c: char| c == '{' || c == ',' || c.is_whitespace())
        .next()?
        .trim_matches(['"', '\'']);
    let ok = !key.is_empty()
        && key.len() <= 64
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    ok.then(|| key.to_string())
}

/// serde's names of integer types in a message, as the ranges they hold.
pub fn plain_range(msg: &str) -> String {
    [
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        (
            "expected u32",
            "expected a whole number from 0 to 4294967295",
        ),
        ("expected u64", "expected a whole number of 0 or more"),
        ("expected usize", "expected a whole number of 0 or more"),
        ("expected i64", "expected a whole number"),
    ]
    .iter()
    .fold(msg.to_string(), |m, (from, to)| m.replace(from, to))
}

/// A line too long to hold.
#[derive(Debug)]
pub struct TooLong;

/// Read one line (with its `\n`, if any) into `buf`, which is cleared first; at most
/// `max` bytes are kept, and a longer line is `Ok(Err(TooLong))` (the rest of it is
/// not read). `Ok(Ok(0))` at the end of the input.
pub fn read_line_capped(
    r: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Result<usize, TooLong>> {
    buf.clear();
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(Ok(buf.len()));
        }
        let (take, done) = match memchr(b'\n', chunk) {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() + take > max {
            return Ok(Err(TooLong));
        }
        buf.extend_from_slice(&chunk[..take]);
        r.consume(take);
        if done {
            return Ok(Ok(buf.len()));
        }
    }
}

fn memchr(b: u8, s: &[u8]) -> Option<usize> {
    s.iter().position(|&x| x == b)
}

/// A user's token for an error message: as it is (quoted) when short, otherwise its
/// first 20 characters and its length, so an error stays one readable line whatever
/// the input.
pub fn shown(s: &str) -> String {
    const KEEP: usize = 20;
    let n = s.chars().count();
    if n <= KEEP {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(KEEP).collect();
        format!("{head:?}... ({n} characters)")
    }
}

/// The name among `known` that `given` most likely meant (a typo, another case, a
/// word left out), for an error's "did you mean"; None when none is close.
pub(crate) fn did_you_mean<'a>(
    given: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let given = given.to_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(&given, &k.to_lowercase()), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// " (did you mean 'x'?)" when `given` looks like a misspelling of one of `known`,
/// else nothing: for the end of an error about an unknown name.
pub fn suggestion<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(given, known).map_or(String::new(), |k| format!(" (did you mean '{k}'?)"))
}

/// `s` with control characters (a NUL, an escape, a new line) written as escapes, so
/// that a message quoting a user's text never sends them raw to a terminal.
pub fn escape_controls(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A user's text cut for a message: at most 40 characters, with the length when cut,
/// and control characters (a NUL, an escape, a new line) written as escapes, never
/// sent raw to the terminal.
pub fn excerpt(s: &str) -> String {
    let n = s.chars().count();
    let (head, cut) = if n <= 40 {
        (s.to_string(), false)
    } else {
        (s.chars().take(32).collect::<String>(), true)
    };
    let mut out = escape_controls(&head);
    if cut {
        out.push_str(&format!("... ({n} characters)"));
    }
    out
}

/// Records of a text input, one at a time: blocks of lines separated by blank lines
/// (boards), or single non-blank lines (JSON Lines). Each record is at most `max`
/// bytes; memory is that, whatever the input's length.
pub struct Records<'a> {
    reader: Box<dyn BufRead + 'a>,
    name: String,
    max: usize,
    blocks: bool,
    /// Items as generators write them: `#` lines are comments (kept beside the next
    /// record), and a JSON object is a record of its own even among blocks.
    items: bool,
    /// A line read but not yet used (it starts the next record), with its number.
    pending: Option<(String, usize)>,
    /// Comment lines seen since the last record (items mode).
    comments: String,
    line: usize,
    buf: Vec<u8>,
}

/// One record: its text and the line it starts on (from 1).
pub struct Record {
    /// The record's lines, each ending in `\n` (line endings normalised).
    pub text: String,
    /// The line the record starts on, from 1.
    pub line: usize,
    /// The comment lines (`#` first, each ending in `\n`) read since the record
    /// before it, such as the header `generate --format text` writes above an item;
    /// empty unless read as `Records::generated_items`.
    pub comments: String,
}

/// How deep a JSON text read so far is nested, strings and escapes minded, to tell
/// where an object written over several lines ends.
#[derive(Default)]
struct JsonDepth {
    depth: i64,
    in_string: bool,
    escaped: bool,
    opened: bool,
}

impl JsonDepth {
    fn feed(&mut self, text: &str) {
        for c in text.chars() {
            if self.in_string {
                match c {
                    _ if self.escaped => self.escaped = false,
                    '\\' => self.escaped = true,
                    '"' => self.in_string = false,
                    _ => {}
                }
            } else {
                match c {
                    '"' => self.in_string = true,
                    '{' | '[' => {
                        self.depth += 1;
                        self.opened = true;
                    }
                    '}' | ']' => self.depth -= 1,
                    _ => {}
                }
            }
        }
    }

    fn closed(&self) -> bool {
        self.opened && self.depth <= 0
    }
}

impl<'a> Records<'a> {
    /// Blocks separated by blank lines.
    pub fn blocks(reader: Box<dyn BufRead + 'a>, name: &str, max: usize) -> Self {
        Records::new(reader, name, max, true)
    }

    /// Non-blank lines.
    pub fn lines(reader: Box<dyn BufRead + 'a>, name: &str, max: usize) -> Self {
        Records::new(reader, name, max, false)
    }

    fn new(reader: Box<dyn BufRead + 'a>, name: &str, max: usize, blocks: bool) -> Self {
        Records {
            reader,
            name: name.to_string(),
            max,
            blocks,
            items: false,
            pending: None,
            comments: String::new(),
            line: 0,
            buf: Vec::new(),
        }
    }

    /// Read the way `generate` writes items: comment lines (`#` first) are kept
    /// apart, beside the record that follows them ([`Record::comments`]); in blocks
    /// a JSON object (a line starting with `{`, over as many lines as it takes) is
    /// one record by itself, so text boards with their headers and JSON records read
    /// alike.
    pub(crate) fn generated_items(mut self) -> Self {
        self.items = true;
        self
    }

    /// The next line without its line ending, and its number; None at the end. A
    /// byte order mark at the start of the input is dropped.
    fn next_line(&mut self) -> Result<Option<(String, usize)>> {
        if let Some(pending) = self.pending.take() {
            return Ok(Some(pending));
        }
        let got = read_line_capped(&mut *self.reader, &mut self.buf, self.max)
            .map_err(|e| Error::io("cannot read", self.name.as_str(), e))?;
        match got {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(TooLong) => return Err(self.too_long(self.line + 1)),
        }
        self.line += 1;
        let line = std::str::from_utf8(&self.buf).map_err(|_| {
            Error::invalid(format!(
                "{}: line {} is not UTF-8 text",
                self.name, self.line
            ))
        })?;
        let line = if self.line == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        Ok(Some((
            line.trim_end_matches(['\n', '\r']).to_string(),
            self.line,
        )))
    }

    fn record(&mut self, text: String, line: usize) -> Record {
        Record {
            text,
            line,
            comments: std::mem::take(&mut self.comments),
        }
    }

    /// The next record, None at the end.
    pub fn next_record(&mut self) -> Result<Option<Record>> {
        let mut text = String::new();
        let mut start = 0;
        // A JSON object read over several lines (items mode, blocks): its depth.
        let mut json: Option<JsonDepth> = None;
        loop {
            let Some((line, number)) = self.next_line()? else {
                return Ok((!text.is_empty()).then(|| self.record(text, start)));
            };
            let blank = line.trim().is_empty();
            if let Some(depth) = json.as_mut() {
                // An object ends where its braces close (or, unfinished, at a blank
                // line, so one bad record does not swallow the rest).
                if blank {
                    return Ok(Some(self.record(text, start)));
                }
                if text.len() + line.len() + 1 > self.max {
                    return Err(self.too_long(start));
                }
                depth.feed(&line);
                text.push_str(&line);
                text.push('\n');
                if depth.closed() {
                    return Ok(Some(self.record(text, start)));
                }
                continue;
            }
            if blank {
                if !text.is_empty() {
                    return Ok(Some(self.record(text, start)));
                }
                continue;
            }
            if self.items && line.trim_start().starts_with('#') {
                if self.comments.len() + line.len() + 1 > self.max {
                    return Err(self.too_long(number));
                }
                self.comments.push_str(&line);
                self.comments.push('\n');
                continue;
            }
            let opens_object = self.items && self.blocks && line.trim_start().starts_with('{');
            if opens_object && !text.is_empty() {
                // The block ends here; the object is the next record.
                self.pending = Some((line, number));
                return Ok(Some(self.record(text, start)));
            }
            if text.is_empty() {
                start = number;
            }
            if text.len() + line.len() + 1 > self.max {
                return Err(self.too_long(start));
            }
            text.push_str(&line);
            text.push('\n');
            if opens_object {
                let mut depth = JsonDepth::default();
                depth.feed(&line);
                if depth.closed() {
                    return Ok(Some(self.record(text, start)));
                }
                json = Some(depth);
                continue;
            }
            if !self.blocks {
                return Ok(Some(self.record(text, start)));
            }
        }
    }

    fn too_long(&self, line: usize) -> Error {
        Error::invalid(format!(
            "{}: the {} at line {line} is longer than {} bytes, the most one may be",
            self.name,
            if self.blocks { "block" } else { "line" },
            self.max
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_counts_from_one_and_stops_at_the_end() {
        let text = "a = 1\nb = 2\n\nc";
        assert_eq!(line_of(text, 0), 1);
        assert_eq!(line_of(text, 5), 1, "the newline ends line 1");
        assert_eq!(line_of(text, 6), 2);
        assert_eq!(line_of(text, 13), 4);
        assert_eq!(line_of(text, 1000), 4, "past the end: the last line");
        assert_eq!(line_of("", 3), 1);
    }

    fn recs(text: &'static str, blocks: bool, max: usize) -> Result<Vec<(String, usize)>> {
        let r: Box<dyn BufRead> = Box::new(std::io::Cursor::new(text.as_bytes()));
        let mut it = if blocks {
            Records::blocks(r, "in", max)
        } else {
            Records::lines(r, "in", max)
        };
        let mut v = Vec::new();
        while let Some(r) = it.next_record()? {
            v.push((r.text, r.line));
        }
        Ok(v)
    }

    #[test]
    fn blocks_and_lines_with_their_line_numbers() {
        let v = recs("\n\na\nb\n\n \nc\r\n", true, 100).unwrap();
        assert_eq!(v, [("a\nb\n".to_string(), 3), ("c\n".to_string(), 7)]);
        let v = recs("x\n\ny", false, 100).unwrap();
        assert_eq!(v, [("x\n".to_string(), 1), ("y\n".to_string(), 3)]);
        assert!(recs("", true, 10).unwrap().is_empty());
    }

    #[test]
    fn generated_items_keep_comments_apart_and_split_json_from_blocks() {
        let text = "\u{feff}# item 0\nab\ncd\n\n# item 1\nef\n{\"a\":1}\n{\"b\":\n [2,\n \"}\"]}\n\n  # x\ngh\n{\"c\":\n\nij\n";
        let r: Box<dyn BufRead> = Box::new(std::io::Cursor::new(text.as_bytes()));
        let mut it = Records::blocks(r, "in", 100).generated_items();
        let mut v = Vec::new();
        while let Some(r) = it.next_record().unwrap() {
            v.push((r.text, r.line, r.comments));
        }
        let want = [
            // The byte order mark is dropped; the header goes beside its item.
            ("ab\ncd\n", 2, "# item 0\n"),
            ("ef\n", 6, "# item 1\n"),
            ("{\"a\":1}\n", 7, ""),
            // An object over several lines is one record (a brace in a string is text).
            ("{\"b\":\n [2,\n \"}\"]}\n", 8, ""),
            ("gh\n", 13, "  # x\n"),
            // An unfinished object ends at a blank line; what follows is read on.
            ("{\"c\":\n", 14, ""),
            ("ij\n", 16, ""),
        ];
        let want: Vec<(String, usize, String)> = want
            .iter()
            .map(|(t, l, c)| (t.to_string(), *l, c.to_string()))
            .collect();
        assert_eq!(v, want);
        // Lines mode keeps comments apart too (a header above a JSON landscape).
        let r: Box<dyn BufRead> = Box::new(std::io::Cursor::new(&b"# h\n[1]\n"[..]));
        let mut it = Records::lines(r, "in", 100).generated_items();
        let first = it.next_record().unwrap().unwrap();
        assert_eq!(
            (first.text.as_str(), first.comments.as_str()),
            ("[1]\n", "# h\n")
        );
        assert!(it.next_record().unwrap().is_none());
    }

    #[test]
    fn records_past_the_cap_are_errors_not_allocations() {
        let e = recs("aaaa\nbbbb\ncccc\n", true, 12)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("block at line 1") && e.contains("12 bytes"),
            "{e}"
        );
        let e = recs("ok\nfar too long\n", false, 8)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("line at line 2"), "{e}");
        // An endless line is cut at the cap.
        let endless: Box<dyn BufRead> = Box::new(std::io::BufReader::new(std::io::repeat(b'y')));
        let e = Records::lines(endless, "yes", 1 << 16)
            .next_record()
            .err()
            .unwrap();
        assert!(e.to_string().contains("longer than 65536"), "{e}");
    }

    #[test]
    fn suggestions_name_the_closest_known_word() {
        let known = [
            "red-apart",
            "2-12-apart",
            "same-number-apart",
            "max-cluster",
        ];
        assert_eq!(did_you_mean("red-appart", known), Some("red-apart"));
        assert_eq!(did_you_mean("Max-Clusters", known), Some("max-cluster"));
        assert_eq!(
            did_you_mean("same-numbers-apart", known),
            Some("same-number-apart")
        );
        assert_eq!(did_you_mean("harbor", known), None);
        assert_eq!(suggestion("zzz", known), "");
        assert_eq!(
            suggestion("red-aprt", known),
            " (did you mean 'red-apart'?)"
        );
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abc"), "abc");
        let long = "9".repeat(100_000_000);
        let e = excerpt(&long);
        assert!(e.len() < 80 && e.contains("100000000 characters"), "{e}");
    }

    #[test]
    fn whole_files_are_capped() {
        let e = read_capped(Path::new("/dev/zero"), 1024, "template")
            .unwrap_err()
            .to_string();
        assert!(e.contains("larger than 1024 bytes"), "{e}");
        let e = read_capped(Path::new("/"), 1024, "template")
            .unwrap_err()
            .to_string();
        assert!(e.contains("folder"), "{e}");
    }
}
