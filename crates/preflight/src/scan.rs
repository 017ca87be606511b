//! The pre-scan: before lopdf builds a document, walk the raw bytes the way its loader
//! will and count what it would build, refusing a file above the bounds below. This is
//! what keeps preflight's memory and time bounded on any input: lopdf itself parses
//! every object the cross-reference table names (each as often as it is named),
//! decodes every object stream and builds each value as a large enum, with no limit
//! on any of it.
//!
//! The walk mirrors the loader closely enough to be an upper bound: it reads every
//! cross-reference section it can find (the table or stream at `startxref`, every
//! `/Prev`, every `/XRefStm`), and for every distinct (object number, offset) entry it
//! scans the object at that offset as lopdf's parser would, counting values (numbers,
//! names, strings, references, arrays, dictionaries and dictionary keys) and the bytes
//! copied (the object's extent and its stream data). Object streams are decoded (with
//! lopdf's own decoder, under a byte cap) and each object listed in them is counted as
//! often as it is listed. Nothing here allocates more than the caps allow.

use lopdf::{Dictionary, Object, Stream, StringFormat};
use puzzlebook_ground::{Error, Result};
use std::collections::{BTreeSet, HashMap};

/// Cross-reference entries (objects) a file may have.
pub(crate) const MAX_OBJECTS: usize = 500_000;
/// Values lopdf would build over every object, object streams included.
pub(crate) const MAX_VALUES: u64 = 1_500_000;
/// Values in one array or dictionary.
pub(crate) const MAX_CONTAINER: u64 = 262_144;
/// Decoded bytes of every object stream together (each one counts each time lopdf
/// decodes it).
pub(crate) const MAX_OBJSTM_BYTES: u64 = 64 << 20;
/// Decoded bytes of one object or cross-reference stream (lopdf's own limit is set to
/// the same figure).
pub(crate) const MAX_STREAM_BYTES: usize = 16 << 20;
/// Bytes of one predictor row (DecodeParms Columns x Colors x BitsPerComponent / 8).
pub(crate) const MAX_ROW_BYTES: i128 = 16 << 20;
/// Cross-reference sections (a file and its updates).
pub(crate) const MAX_SECTIONS: usize = 1024;
/// Bytes copied or parsed over every object, beyond twice the file's own size: objects
/// overlap or are named more than once only in a hostile file.
pub(crate) const PARSE_SLACK_BYTES: u64 = 16 << 20;
/// lopdf's nesting limit for arrays, dictionaries and literal strings.
const MAX_DEPTH: usize = 100;
/// Values in a trailer or a stream's dictionary that the scan builds to read it.
const MAX_DICT_VALUES: u64 = 10_000;

/// What the scan found (and counted).
#[derive(Debug, Default, Clone)]
pub struct Scan {
    /// A trailer has /Encrypt.
    pub encrypted: bool,
    /// Entries of objects stored in object streams.
    pub compressed: usize,
    /// Cross-reference entries.
    pub objects: usize,
    /// Values lopdf would build.
    pub values: u64,
    /// Bytes parsed or copied.
    pub parsed: u64,
    /// Decoded object-stream bytes.
    pub objstm_bytes: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Entry {
    Normal(u32),
    Compressed(u32),
}

fn too_big(what: String) -> Error {
    Error::invalid(format!(
        "too large to check: {what} (preflight's bound, see docs/limits.md)"
    ))
}

fn unreadable(what: &str) -> Error {
    Error::invalid(format!("not a readable PDF: {what}"))
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0 | 0x0c)
}

fn is_delim(c: u8) -> bool {
    b"()<>[]{}/%".contains(&c)
}

fn is_regular(c: u8) -> bool {
    !is_ws(c) && !is_delim(c)
}

/// Past whitespace and comments.
fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    loop {
        while i < buf.len() && is_ws(buf[i]) {
            i += 1;
        }
        if i < buf.len() && buf[i] == b'%' {
            while i < buf.len() && buf[i] != b'\n' && buf[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        return i;
    }
}

/// The end of a run of regular characters.
fn regular_end(buf: &[u8], mut i: usize) -> usize {
    while i < buf.len() && is_regular(buf[i]) {
        i += 1;
    }
    i
}

/// An unsigned integer token at `i`: (value, end).
fn uint(buf: &[u8], i: usize) -> Option<(u64, usize)> {
    let mut j = i;
    let mut v: u64 = 0;
    while j < buf.len() && buf[j].is_ascii_digit() {
        v = v.checked_mul(10)?.checked_add(u64::from(buf[j] - b'0'))?;
        j += 1;
    }
    (j > i).then_some((v, j))
}

fn starts(buf: &[u8], i: usize, word: &[u8]) -> bool {
    buf.get(i..i + word.len()) == Some(word)
}

/// A number token: an optional sign, digits and at most one point, some digit.
fn is_number(t: &[u8]) -> bool {
    let t = t
        .strip_prefix(b"+")
        .or_else(|| t.strip_prefix(b"-"))
        .unwrap_or(t);
    t.iter().any(u8::is_ascii_digit)
        && t.iter().all(|c| c.is_ascii_digit() || *c == b'.')
        && t.iter().filter(|c| **c == b'.').count() <= 1
}

/// The end of a literal string starting at `i` (on its '('), or None when it is
/// unbalanced or nests deeper than lopdf reads.
fn literal_end(buf: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = i;
    while j < buf.len() {
        match buf[j] {
            b'\\' => j += 1,
            b'(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return None;
                }
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// The end of a hexadecimal string at `i` (on its '<').
fn hex_end(buf: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < buf.len() && (is_ws(buf[j]) || buf[j].is_ascii_hexdigit()) {
        j += 1;
    }
    (j < buf.len() && buf[j] == b'>').then_some(j + 1)
}

/// The end of a reference "N G R" whose first number is `buf[i..e]`.
fn reference_end(buf: &[u8], i: usize, e: usize) -> Option<usize> {
    if !buf[i..e].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (_, ge) = uint(buf, skip_ws(buf, e))?;
    let r = skip_ws(buf, ge);
    (ge > e && buf.get(r) == Some(&b'R') && !buf.get(r + 1).is_some_and(|c| is_regular(*c)))
        .then_some(r + 1)
}

/// Counts values without building them.
struct Counter {
    values: u64,
}

impl Counter {
    fn one(&mut self) -> Result<()> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err(too_big(format!("more than {MAX_VALUES} PDF values")));
        }
        Ok(())
    }

    /// Count the value at `i`; its end, or None where lopdf's parser would stop (what
    /// was counted up to there stays counted: lopdf built it before giving up).
    fn value(&mut self, buf: &[u8], i: usize, depth: usize) -> Result<Option<usize>> {
        if depth > MAX_DEPTH || i >= buf.len() {
            return Ok(None);
        }
        let dict = starts(buf, i, b"<<");
        match buf[i] {
            b'[' | b'<' if buf[i] == b'[' || dict => {
                self.one()?;
                let close: &[u8] = if dict { b">>" } else { b"]" };
                let mut j = skip_ws(buf, i + if dict { 2 } else { 1 });
                let mut n: u64 = 0;
                loop {
                    if j >= buf.len() {
                        return Ok(None);
                    }
                    if starts(buf, j, close) {
                        return Ok(Some(j + close.len()));
                    }
                    if dict {
                        if buf[j] != b'/' {
                            return Ok(None);
                        }
                        self.one()?;
                        j = skip_ws(buf, regular_end(buf, j + 1));
                    }
                    match self.value(buf, j, depth + 1)? {
                        Some(e) => j = skip_ws(buf, e),
                        None => return Ok(None),
                    }
                    n += 1;
                    if n > MAX_CONTAINER {
                        let what = if dict { "a dictionary" } else { "an array" };
                        return Err(too_big(format!(
                            "{what} of more than {MAX_CONTAINER} entries"
                        )));
                    }
                }
            }
            b'<' => {
                self.one()?;
                Ok(hex_end(buf, i))
            }
            b'(' => {
                self.one()?;
                Ok(literal_end(buf, i))
            }
            b'/' => {
                self.one()?;
                Ok(Some(regular_end(buf, i + 1)))
            }
            c if is_regular(c) => {
                let e = regular_end(buf, i);
                let t = &buf[i..e];
                if is_number(t) || matches!(t, b"true" | b"false" | b"null" | b"R") {
                    self.one()?;
                    Ok(Some(reference_end(buf, i, e).unwrap_or(e)))
                } else {
                    Ok(None)
                }
            }
            _ => Ok(None),
        }
    }
}

/// Build the value at `i` (for trailers and stream dictionaries, after counting them).
fn build(buf: &[u8], i: usize, depth: usize) -> Option<(Object, usize)> {
    if depth > MAX_DEPTH || i >= buf.len() {
        return None;
    }
    if starts(buf, i, b"<<") {
        let mut d = Dictionary::new();
        let mut j = skip_ws(buf, i + 2);
        loop {
            if starts(buf, j, b">>") {
                return Some((Object::Dictionary(d), j + 2));
            }
            if buf.get(j) != Some(&b'/') {
                return None;
            }
            let ke = regular_end(buf, j + 1);
            let key = name_bytes(&buf[j + 1..ke]);
            let (v, e) = build(buf, skip_ws(buf, ke), depth + 1)?;
            d.set(key, v);
            j = skip_ws(buf, e);
        }
    }
    match buf[i] {
        b'[' => {
            let mut a = Vec::new();
            let mut j = skip_ws(buf, i + 1);
            loop {
                if buf.get(j) == Some(&b']') {
                    return Some((Object::Array(a), j + 1));
                }
                let (v, e) = build(buf, j, depth + 1)?;
                a.push(v);
                j = skip_ws(buf, e);
            }
        }
        b'<' => {
            let e = hex_end(buf, i)?;
            let digits: Vec<u8> = buf[i + 1..e - 1]
                .iter()
                .filter(|c| c.is_ascii_hexdigit())
                .map(|c| (*c as char).to_digit(16).unwrap_or(0) as u8)
                .collect();
            let bytes = digits
                .chunks(2)
                .map(|p| (p[0] << 4) | p.get(1).copied().unwrap_or(0))
                .collect();
            Some((Object::String(bytes, StringFormat::Hexadecimal), e))
        }
        b'(' => {
            let e = literal_end(buf, i)?;
            Some((
                Object::String(buf[i + 1..e - 1].to_vec(), StringFormat::Literal),
                e,
            ))
        }
        b'/' => {
            let e = regular_end(buf, i + 1);
            Some((Object::Name(name_bytes(&buf[i + 1..e])), e))
        }
        c if is_regular(c) => {
            let e = regular_end(buf, i);
            let t = &buf[i..e];
            match t {
                b"true" => return Some((Object::Boolean(true), e)),
                b"false" => return Some((Object::Boolean(false), e)),
                b"null" => return Some((Object::Null, e)),
                _ => {}
            }
            if !is_number(t) {
                return None;
            }
            let s = std::str::from_utf8(t).ok()?;
            if !t.contains(&b'.') {
                if let Some(r) = reference_end(buf, i, e) {
                    let (g, _) = uint(buf, skip_ws(buf, e))?;
                    let (Ok(n), Ok(g)) = (s.parse::<u32>(), u16::try_from(g)) else {
                        return None;
                    };
                    return Some((Object::Reference((n, g)), r));
                }
                return Some((Object::Integer(s.parse().ok()?), e));
            }
            Some((Object::Real(s.parse().ok()?), e))
        }
        _ => None,
    }
}

/// A name's bytes with #xx escapes decoded.
fn name_bytes(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'#' && k + 2 < raw.len() {
            if let Some(b) = std::str::from_utf8(&raw[k + 1..(k + 3).min(raw.len())])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(b);
                k += 3;
                continue;
            }
        }
        out.push(raw[k]);
        k += 1;
    }
    out
}

fn int_of(o: Option<&Object>) -> Option<i64> {
    match o {
        Some(Object::Integer(i)) => Some(*i),
        _ => None,
    }
}

/// Refuse a stream whose predictor rows would be too large to allocate.
pub(crate) fn check_decode_parms(dict: &Dictionary) -> Result<()> {
    let parms: Vec<&Dictionary> = match dict.get(b"DecodeParms").or_else(|_| dict.get(b"DP")) {
        Ok(Object::Dictionary(d)) => vec![d],
        Ok(Object::Array(a)) => a.iter().filter_map(|o| o.as_dict().ok()).collect(),
        _ => vec![],
    };
    for p in parms {
        let get = |k: &[u8]| int_of(p.get(k).ok()).unwrap_or(1).max(1) as i128;
        let row = get(b"Columns") * get(b"Colors") * get(b"BitsPerComponent").max(8) / 8;
        if row > MAX_ROW_BYTES {
            return Err(too_big(format!(
                "a stream's predictor rows of {row} bytes (at most {MAX_ROW_BYTES})"
            )));
        }
    }
    Ok(())
}

/// A stream found at an offset: its dictionary and its data's range.
struct Found {
    dict: Dictionary,
    data: std::ops::Range<usize>,
}

/// The scan's state.
struct Scanner<'a> {
    buf: &'a [u8],
    counter: Counter,
    parsed: u64,
    parsed_cap: u64,
    objstm: u64,
    entries: BTreeSet<(u32, Entry)>,
    /// Per-offset cost of an indirect object: (values, bytes), and its stream.
    cache: HashMap<u32, (u64, u64, bool)>,
}

impl<'a> Scanner<'a> {
    fn parse_bytes(&mut self, n: u64) -> Result<()> {
        self.parsed += n;
        if self.parsed > self.parsed_cap {
            return Err(too_big(format!(
                "its objects take more than {} MB to parse (twice the file, plus {} MB; \
                 objects that overlap or are listed many times)",
                self.parsed_cap >> 20,
                PARSE_SLACK_BYTES >> 20
            )));
        }
        Ok(())
    }

    fn add_entry(&mut self, id: u32, e: Entry) -> Result<()> {
        self.entries.insert((id, e));
        if self.entries.len() > MAX_OBJECTS {
            return Err(too_big(format!("more than {MAX_OBJECTS} objects")));
        }
        Ok(())
    }

    /// The "N G obj" header at `off`: where the object's value starts.
    fn header(&self, off: usize) -> Option<usize> {
        let i = skip_ws(self.buf, off);
        let (_, e) = uint(self.buf, i)?;
        let (_, e) = uint(self.buf, skip_ws(self.buf, e))?;
        let i = skip_ws(self.buf, e);
        starts(self.buf, i, b"obj").then(|| skip_ws(self.buf, i + 3))
    }

    /// Count the indirect object at `off` (values and bytes), and return its stream's
    /// dictionary and data when it is a stream with a readable length.
    fn object(&mut self, off: usize, depth: usize) -> Result<Option<Found>> {
        let buf = self.buf;
        let Some(start) = self.header(off) else {
            return Ok(None);
        };
        let before = self.counter.values;
        let Some(end) = self.counter.value(buf, start, 0)? else {
            // lopdf gives up here; what it parsed so far is transient but was parsed.
            self.parse_bytes((buf.len().min(start + 1) - off) as u64)?;
            return Ok(None);
        };
        self.parse_bytes((end - off) as u64)?;
        let s = skip_ws(buf, end);
        if !starts(buf, start, b"<<") || !starts(buf, s, b"stream") {
            return Ok(None);
        }
        if self.counter.values - before > MAX_DICT_VALUES {
            return Err(too_big(format!(
                "a stream dictionary of more than {MAX_DICT_VALUES} values"
            )));
        }
        let Some((Object::Dictionary(dict), _)) = build(buf, start, 0) else {
            return Ok(None);
        };
        check_decode_parms(&dict)?;
        // lopdf: "stream", optional spaces, one end of line, then the data.
        let mut d = s + 6;
        while d < buf.len() && (buf[d] == b' ' || buf[d] == b'\t') {
            d += 1;
        }
        if starts(buf, d, b"\r\n") {
            d += 2;
        } else if d < buf.len() && (buf[d] == b'\n' || buf[d] == b'\r') {
            d += 1;
        }
        let length = match dict.get(b"Length") {
            Ok(Object::Integer(n)) => Some(*n),
            Ok(Object::Reference(id)) if depth < 8 => self.length_of(id.0, depth + 1)?,
            _ => None,
        };
        let data = match length {
            Some(n) if n >= 0 && (n as u64) <= (buf.len() - d.min(buf.len())) as u64 => {
                d..d + n as usize
            }
            // lopdf copies nothing it cannot place (or places it later by the same
            // length); charge the rest of the file, the most it could copy.
            _ => d.min(buf.len())..buf.len(),
        };
        self.parse_bytes(data.len() as u64)?;
        Ok(Some(Found { dict, data }))
    }

    /// The integer object `id` holds (a stream's /Length), as lopdf would read it.
    fn length_of(&mut self, id: u32, depth: usize) -> Result<Option<i64>> {
        let found: Vec<Entry> = self
            .entries
            .range((id, Entry::Normal(0))..=(id, Entry::Compressed(u32::MAX)))
            .map(|e| e.1)
            .collect();
        for e in found {
            match e {
                Entry::Normal(off) => {
                    if let Some(s) = self.header(off as usize) {
                        let e = regular_end(self.buf, s);
                        if let Some(n) = std::str::from_utf8(&self.buf[s..e])
                            .ok()
                            .and_then(|t| t.parse::<i64>().ok())
                        {
                            return Ok(Some(n));
                        }
                    }
                }
                Entry::Compressed(container) => {
                    // lopdf decodes the whole container to read this one number.
                    let Some((data, list)) = self.objstm_of(container, depth)? else {
                        continue;
                    };
                    for (n, at) in list {
                        if n == id {
                            let s = skip_ws(&data, at);
                            let e = regular_end(&data, s);
                            return Ok(std::str::from_utf8(&data[s..e])
                                .ok()
                                .and_then(|t| t.parse::<i64>().ok()));
                        }
                    }
                }
            }
        }
        Ok(None)
    }

    /// Decode the object stream object `container` (charged to the object-stream
    /// bytes) and list its (object number, offset) pairs.
    #[allow(clippy::type_complexity)]
    fn objstm_of(
        &mut self,
        container: u32,
        depth: usize,
    ) -> Result<Option<(Vec<u8>, Vec<(u32, usize)>)>> {
        let offsets: Vec<u32> = self
            .entries
            .range((container, Entry::Normal(0))..(container, Entry::Compressed(0)))
            .filter_map(|e| match e.1 {
                Entry::Normal(o) => Some(o),
                Entry::Compressed(_) => None,
            })
            .collect();
        for off in offsets {
            if let Some(f) = self.object(off as usize, depth)? {
                return self.decode_objstm(&f);
            }
        }
        Ok(None)
    }

    /// Decode an object stream the way lopdf does and list its pairs.
    #[allow(clippy::type_complexity)]
    fn decode_objstm(&mut self, f: &Found) -> Result<Option<(Vec<u8>, Vec<(u32, usize)>)>> {
        let stream = Stream::new(f.dict.clone(), self.buf[f.data.clone()].to_vec());
        let Ok(data) = stream.get_plain_content_with_limit(MAX_STREAM_BYTES) else {
            return Ok(None);
        };
        self.objstm += data.len() as u64;
        if self.objstm > MAX_OBJSTM_BYTES {
            return Err(too_big(format!(
                "object streams that decode to more than {} MB",
                MAX_OBJSTM_BYTES >> 20
            )));
        }
        let Some(first) = int_of(f.dict.get(b"First").ok()).and_then(|n| usize::try_from(n).ok())
        else {
            return Ok(None);
        };
        let Some(index) = data.get(..first) else {
            return Ok(None);
        };
        let Ok(index) = std::str::from_utf8(index) else {
            return Ok(None);
        };
        let numbers: Vec<Option<u32>> = index
            .split_ascii_whitespace()
            .map(|n| n.parse().ok())
            .collect();
        // lopdf holds these numbers while it parses.
        for _ in 0..numbers.len() / 4 {
            self.counter.one()?;
        }
        let pairs = numbers
            .chunks_exact(2)
            .filter_map(|p| Some((p[0]?, first.checked_add(p[1]? as usize)?)))
            .filter(|p| p.1 < data.len())
            .collect();
        Ok(Some((data, pairs)))
    }

    /// Count an object stream's objects, each as often as it is listed.
    fn count_objstm(&mut self, f: &Found) -> Result<()> {
        let Some((data, pairs)) = self.decode_objstm(f)? else {
            return Ok(());
        };
        let mut seen: HashMap<usize, u64> = HashMap::new();
        for (_, at) in pairs {
            let s = skip_ws(&data, at);
            if let Some(v) = seen.get(&s) {
                self.counter.values += v;
                if self.counter.values > MAX_VALUES {
                    return Err(too_big(format!("more than {MAX_VALUES} PDF values")));
                }
                continue;
            }
            let before = self.counter.values;
            if let Some(e) = self.counter.value(&data, s, 0)? {
                self.parse_bytes((e - s) as u64)?;
            }
            seen.insert(s, self.counter.values - before);
        }
        Ok(())
    }
}

/// Where lopdf's `startxref` points.
fn startxref(buf: &[u8]) -> Option<usize> {
    let tail = buf.len().saturating_sub(1024);
    let at = buf[tail..].windows(9).rposition(|w| w == b"startxref")? + tail;
    let (n, _) = uint(buf, skip_ws(buf, at + 9))?;
    usize::try_from(n).ok()
}

/// Scan `bytes` (a whole file) and refuse it if lopdf would build more than the
/// bounds allow. Errors are one-line messages.
pub fn scan(bytes: &[u8]) -> Result<Scan> {
    // lopdf reads from the header on: every offset is counted from there.
    let skip = bytes.windows(5).position(|w| w == b"%PDF-").unwrap_or(0);
    let buf = &bytes[skip..];
    let mut s = Scanner {
        buf,
        counter: Counter { values: 0 },
        parsed: 0,
        parsed_cap: 2 * buf.len() as u64 + PARSE_SLACK_BYTES,
        objstm: 0,
        entries: BTreeSet::new(),
        cache: HashMap::new(),
    };
    let Some(start) = startxref(buf) else {
        return Err(unreadable(
            "no startxref (its cross-reference table cannot be found)",
        ));
    };
    let mut out = Scan::default();
    // Every section: the one at startxref, then /Prev and /XRefStm, each once.
    let mut todo = vec![start];
    let mut done = BTreeSet::new();
    let mut sections = 0;
    while let Some(at) = todo.pop() {
        if at >= buf.len() || !done.insert(at) {
            continue;
        }
        sections += 1;
        if sections > MAX_SECTIONS {
            return Err(too_big(format!(
                "more than {MAX_SECTIONS} cross-reference sections"
            )));
        }
        let trailer = if starts(buf, skip_ws(buf, at), b"xref") {
            xref_table(&mut s, skip_ws(buf, at) + 4)?
        } else {
            xref_stream(&mut s, at)?
        };
        let Some(trailer) = trailer else {
            if sections == 1 {
                return Err(unreadable("its cross-reference table cannot be read"));
            }
            continue;
        };
        if trailer.has(b"Encrypt") {
            out.encrypted = true;
        }
        for key in [&b"Prev"[..], b"XRefStm"] {
            if let Some(n) = int_of(trailer.get(key).ok()).and_then(|n| usize::try_from(n).ok()) {
                todo.push(n);
            }
        }
    }
    out.objects = s.entries.len();
    out.compressed = s
        .entries
        .iter()
        .filter(|e| matches!(e.1, Entry::Compressed(_)))
        .count();
    // Every object lopdf parses, each time it is named.
    let normal: Vec<(u32, u32)> = s
        .entries
        .iter()
        .filter_map(|&(id, e)| match e {
            Entry::Normal(o) => Some((id, o)),
            Entry::Compressed(_) => None,
        })
        .collect();
    for (_, off) in normal {
        if let Some(&(values, bytes, _)) = s.cache.get(&off) {
            s.counter.values += values;
            if s.counter.values > MAX_VALUES {
                return Err(too_big(format!("more than {MAX_VALUES} PDF values")));
            }
            s.parse_bytes(bytes)?;
            continue;
        }
        let (v0, p0) = (s.counter.values, s.parsed);
        let found = s.object(off as usize, 0)?;
        if out.encrypted {
            // lopdf first copies each object's bytes up to its "endobj".
            let from = off as usize;
            let limit = (s.parsed_cap - s.parsed) as usize;
            let end = buf[from.min(buf.len())..]
                .windows(6)
                .take(limit.saturating_add(1))
                .position(|w| w == b"endobj")
                .map_or(buf.len(), |p| from + p + 6);
            s.parse_bytes((end.saturating_sub(from)) as u64)?;
        }
        let objstm = found
            .as_ref()
            .is_some_and(|f| matches!(f.dict.get(b"Type"), Ok(Object::Name(n)) if n == b"ObjStm"));
        if let (Some(f), true, false) = (&found, objstm, out.encrypted) {
            s.count_objstm(f)?;
        }
        s.cache
            .insert(off, (s.counter.values - v0, s.parsed - p0, objstm));
    }
    out.values = s.counter.values;
    out.parsed = s.parsed;
    out.objstm_bytes = s.objstm;
    Ok(out)
}

/// Read a cross-reference table after its "xref" keyword; its trailer.
fn xref_table(s: &mut Scanner, mut i: usize) -> Result<Option<Dictionary>> {
    let buf = s.buf;
    loop {
        i = skip_ws(buf, i);
        if starts(buf, i, b"trailer") {
            let t = skip_ws(buf, i + 7);
            return trailer_at(s, t);
        }
        let Some((first, e)) = uint(buf, i) else {
            return Ok(None);
        };
        let Some((_, e)) = uint(buf, skip_ws(buf, e)) else {
            return Ok(None);
        };
        i = e;
        let mut index: u64 = 0;
        loop {
            let j = skip_ws(buf, i);
            let Some((off, e)) = uint(buf, j) else { break };
            let Some((generation, e)) = uint(buf, skip_ws(buf, e)) else {
                break;
            };
            let k = skip_ws(buf, e);
            let kind = buf.get(k).copied();
            if !matches!(kind, Some(b'n' | b'f')) || buf.get(k + 1).is_some_and(|c| is_regular(*c))
            {
                break;
            }
            i = k + 1;
            let id = first.saturating_add(index);
            index += 1;
            if kind == Some(b'n') && generation <= u64::from(u16::MAX) {
                if let (Ok(id), Ok(off)) = (u32::try_from(id), u32::try_from(off)) {
                    s.add_entry(id, Entry::Normal(off))?;
                }
            } else {
                // lopdf keeps free entries only while it reads the section.
                s.counter.one()?;
            }
        }
    }
}

/// Count and build the trailer dictionary at `i`.
fn trailer_at(s: &mut Scanner, i: usize) -> Result<Option<Dictionary>> {
    let before = s.counter.values;
    if s.counter.value(s.buf, i, 0)?.is_none() {
        return Ok(None);
    }
    if s.counter.values - before > MAX_DICT_VALUES {
        return Err(too_big(format!(
            "a trailer of more than {MAX_DICT_VALUES} values"
        )));
    }
    Ok(match build(s.buf, i, 0) {
        Some((Object::Dictionary(d), _)) => Some(d),
        _ => None,
    })
}

/// Read a cross-reference stream at `at`; its dictionary (the trailer).
fn xref_stream(s: &mut Scanner, at: usize) -> Result<Option<Dictionary>> {
    let Some(f) = s.object(at, 8)? else {
        return Ok(None);
    };
    // lopdf cannot follow references this early: only a direct /Length is read.
    if !matches!(f.dict.get(b"Length"), Ok(Object::Integer(_))) {
        return Ok(None);
    }
    let widths: Vec<i64> = match f.dict.get(b"W") {
        Ok(Object::Array(a)) => a.iter().filter_map(|o| int_of(Some(o))).collect(),
        _ => return Ok(None),
    };
    if widths.len() < 3 || widths.iter().any(|w| !(0..=8).contains(w)) {
        return Ok(None);
    }
    let size = int_of(f.dict.get(b"Size").ok()).unwrap_or(0);
    let index: Vec<i64> = match f.dict.get(b"Index") {
        Ok(Object::Array(a)) => a.iter().filter_map(|o| int_of(Some(o))).collect(),
        _ => vec![0, size],
    };
    let total: i128 = index.chunks_exact(2).map(|p| i128::from(p[1].max(0))).sum();
    if total > MAX_OBJECTS as i128 {
        return Err(too_big(format!(
            "a cross-reference stream of {total} entries (at most {MAX_OBJECTS})"
        )));
    }
    let stream = Stream::new(f.dict.clone(), s.buf[f.data.clone()].to_vec());
    let data = match stream.get_plain_content_with_limit(MAX_STREAM_BYTES) {
        Ok(d) => d,
        Err(_) => return Ok(None),
    };
    let w = [widths[0] as usize, widths[1] as usize, widths[2] as usize];
    let row = w[0] + w[1] + w[2];
    let field = |bytes: &[u8]| bytes.iter().fold(0u64, |a, b| (a << 8) | u64::from(*b));
    let mut pos = 0usize;
    for p in index.chunks_exact(2) {
        for j in 0..p[1].max(0) {
            if pos + row > data.len() {
                return Ok(Some(f.dict));
            }
            let r = &data[pos..pos + row];
            pos += row;
            let kind = if w[0] == 0 { 1 } else { field(&r[..w[0]]) };
            let f2 = field(&r[w[0]..w[0] + w[1]]);
            let Ok(id) = u32::try_from(p[0].saturating_add(j)) else {
                continue;
            };
            match (kind, u32::try_from(f2)) {
                (1, Ok(off)) => s.add_entry(id, Entry::Normal(off))?,
                (2, Ok(c)) => s.add_entry(id, Entry::Compressed(c))?,
                _ => s.counter.one()?,
            }
        }
    }
    Ok(Some(f.dict))
}
