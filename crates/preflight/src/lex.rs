//! A content stream read one operation at a time, for preflight.
//!
//! PDF content is untrusted input: this reader holds one operation (its operands and
//! operator) at a time, so memory does not grow with the number of operations, and it
//! never passes over what it cannot read. A token that is no PDF token (a stray `)`,
//! a `{`, a number too large for any reader, an unterminated string, an inline image
//! without its end) stops it with [`Bad`], naming the byte: preflight then fails the
//! page and says that nothing after that byte was checked. (A reader that silently
//! stopped there would pass a page whose ink comes after the bad token.)

use lopdf::content::Operation;
use lopdf::{Dictionary, Object, Stream, StringFormat};

/// The most values (nested ones included) one operation may carry.
pub(crate) const MAX_OPERAND_VALUES: usize = 65_536;
/// How deep arrays and dictionaries may nest in an operand.
pub(crate) const MAX_NESTING: usize = 32;
/// The longest number, name or operator token, in bytes.
const MAX_TOKEN: usize = 256;

/// Why a content stream could not be read on: at which byte, and what was there.
#[derive(Debug, Clone, PartialEq)]
pub struct Bad {
    /// Offset of the token in the decoded content.
    pub at: usize,
    /// What the token is.
    pub what: String,
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "byte {}: {}", self.at, self.what)
    }
}

/// A content stream's bytes, read one operation at a time.
pub(crate) struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    /// Values in the operation being read.
    values: usize,
}

fn is_white(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_white(b) && !is_delimiter(b)
}

/// What an operand token turned out to be.
enum Token {
    Value(Object),
    /// A regular token that is no number or keyword: an operator.
    Operator(String),
    ArrayEnd,
    DictEnd,
}

impl<'a> Lexer<'a> {
    /// Read `data` (decoded content) from its start.
    pub fn new(data: &'a [u8]) -> Self {
        Lexer {
            data,
            pos: 0,
            values: 0,
        }
    }

    fn bad(&self, at: usize, what: impl Into<String>) -> Bad {
        Bad {
            at,
            what: what.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// Pass over white space and comments.
    fn skip_white(&mut self) {
        while let Some(b) = self.peek() {
            if is_white(b) {
                self.pos += 1;
            } else if b == b'%' {
                while self.peek().is_some_and(|c| c != b'\n' && c != b'\r') {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    /// The next operation into `op` (its operands and operator); false at the end.
    /// Operands left without an operator at the end are ignored, as readers do.
    pub fn next(&mut self, op: &mut Operation) -> Result<bool, Bad> {
        op.operands.clear();
        op.operator.clear();
        self.values = 0;
        loop {
            self.skip_white();
            if self.pos >= self.data.len() {
                return Ok(false);
            }
            let at = self.pos;
            match self.token(0)? {
                Token::Value(v) => {
                    if op.operands.len() >= MAX_OPERAND_VALUES {
                        return Err(self.bad(
                            at,
                            format!("more than {MAX_OPERAND_VALUES} operands before an operator"),
                        ));
                    }
                    op.operands.push(v);
                }
                Token::Operator(name) if name == "BI" => {
                    let image = self.inline_image(at)?;
                    op.operands.clear();
                    op.operands.push(image);
                    op.operator.push_str("BI");
                    return Ok(true);
                }
                Token::Operator(name) => {
                    op.operator = name;
                    return Ok(true);
                }
                Token::ArrayEnd => return Err(self.bad(at, "a ']' that closes no array")),
                Token::DictEnd => return Err(self.bad(at, "a '>>' that closes no dictionary")),
            }
        }
    }

    /// One token (a value, an operator, or the end of an array or dictionary), the
    /// white space before it passed over; `depth` is the nesting it stands in.
    fn token(&mut self, depth: usize) -> Result<Token, Bad> {
        self.skip_white();
        let at = self.pos;
        let Some(b) = self.peek() else {
            return Err(self.bad(at, "the content ends inside an array or dictionary"));
        };
        self.values += 1;
        if self.values > MAX_OPERAND_VALUES {
            return Err(self.bad(
                at,
                format!("an operation with more than {MAX_OPERAND_VALUES} values"),
            ));
        }
        match b {
            b'(' => self.literal_string(at).map(Token::Value),
            b'<' if self.data.get(at + 1) == Some(&b'<') => {
                self.pos += 2;
                self.dictionary(at, depth + 1).map(Token::Value)
            }
            b'<' => self.hex_string(at).map(Token::Value),
            b'>' if self.data.get(at + 1) == Some(&b'>') => {
                self.pos += 2;
                Ok(Token::DictEnd)
            }
            b'[' => {
                self.pos += 1;
                self.array(at, depth + 1).map(Token::Value)
            }
            b']' => {
                self.pos += 1;
                Ok(Token::ArrayEnd)
            }
            b'/' => {
                self.pos += 1;
                self.name(at).map(|n| Token::Value(Object::Name(n)))
            }
            b')' => Err(self.bad(at, "a ')' that closes no string")),
            b'>' => Err(self.bad(at, "a '>' that closes nothing")),
            b'{' | b'}' => Err(self.bad(
                at,
                format!("'{}', which content streams do not have", b as char),
            )),
            _ => self.regular(at),
        }
    }

    /// A regular token: a number, `true`, `false`, `null`, or an operator.
    fn regular(&mut self, at: usize) -> Result<Token, Bad> {
        while self.peek().is_some_and(is_regular) {
            self.pos += 1;
        }
        let raw = &self.data[at..self.pos];
        if raw.len() > MAX_TOKEN {
            return Err(self.bad(at, format!("a token of more than {MAX_TOKEN} bytes")));
        }
        let text = String::from_utf8_lossy(raw);
        match &*text {
            "true" => return Ok(Token::Value(Object::Boolean(true))),
            "false" => return Ok(Token::Value(Object::Boolean(false))),
            "null" => return Ok(Token::Value(Object::Null)),
            _ => {}
        }
        let first = raw[0];
        if first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.') {
            return self.number(at, &text).map(Token::Value);
        }
        // Any other run of regular characters is a keyword: an operator (one this
        // reader does not know, such as those between BX and EX, does nothing).
        Ok(Token::Operator(text.into_owned()))
    }

    /// A number: an integer (a real when it does not fit 64 bits, as readers take it)
    /// or a real; one beyond what any reader holds is refused.
    fn number(&self, at: usize, text: &str) -> Result<Object, Bad> {
        let digits = text.trim_start_matches(['+', '-']);
        let well_formed = !digits.is_empty()
            && digits.bytes().filter(|&c| c == b'.').count() <= 1
            && digits.bytes().all(|c| c.is_ascii_digit() || c == b'.')
            && digits != ".";
        if !well_formed {
            return Err(self.bad(
                at,
                format!(
                    "'{}', which is not a number",
                    puzzlebook_ground::input::excerpt(text)
                ),
            ));
        }
        if !text.contains('.') {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Object::Integer(i));
            }
        }
        // lopdf keeps reals as f32: past its range a value is no longer the number.
        let v: f64 = text.parse().map_err(|_| {
            self.bad(
                at,
                format!(
                    "'{}', which is not a number",
                    puzzlebook_ground::input::excerpt(text)
                ),
            )
        })?;
        if !v.is_finite() || v.abs() > f64::from(f32::MAX) {
            return Err(self.bad(
                at,
                format!(
                    "the number {}, beyond what a PDF reader holds",
                    puzzlebook_ground::input::excerpt(text)
                ),
            ));
        }
        Ok(Object::Real(v as f32))
    }

    /// A name after its `/`, with `#xx` escapes.
    fn name(&mut self, at: usize) -> Result<Vec<u8>, Bad> {
        let start = self.pos;
        while self.peek().is_some_and(is_regular) {
            self.pos += 1;
        }
        let raw = &self.data[start..self.pos];
        if raw.len() > MAX_TOKEN {
            return Err(self.bad(at, format!("a name of more than {MAX_TOKEN} bytes")));
        }
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            // `#xx` is the byte xx; a `#` without two hex digits stays itself, as
            // readers take it.
            let hex = (raw[i] == b'#')
                .then(|| raw.get(i + 1..i + 3))
                .flatten()
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(b) => {
                    out.push(b);
                    i += 3;
                }
                None => {
                    out.push(raw[i]);
                    i += 1;
                }
            }
        }
        let _ = at;
        Ok(out)
    }

    /// A literal string from its `(`: balanced parentheses, backslash escapes.
    fn literal_string(&mut self, at: usize) -> Result<Object, Bad> {
        self.pos += 1;
        let mut out = Vec::new();
        let mut depth = 1usize;
        loop {
            let Some(b) = self.peek() else {
                return Err(self.bad(at, "a string that never ends (no closing ')')"));
            };
            self.pos += 1;
            match b {
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(Object::String(out, StringFormat::Literal));
                    }
                    out.push(b);
                }
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.bad(at, "a string that never ends (no closing ')')"));
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push(v as u8);
                        }
                        // A backslash before a line end joins the lines.
                        b'\r' => {
                            if self.peek() == Some(b'\n') {
                                self.pos += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                _ => out.push(b),
            }
        }
    }

    /// A hex string from its `<`.
    fn hex_string(&mut self, at: usize) -> Result<Object, Bad> {
        self.pos += 1;
        let mut digits = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.bad(at, "a hex string that never ends (no closing '>')"));
            };
            self.pos += 1;
            match b {
                b'>' => break,
                c if c.is_ascii_hexdigit() => digits.push(c),
                c if is_white(c) => {}
                _ => return Err(self.bad(at, "a hex string with a character that is no hex digit")),
            }
        }
        if digits.len() % 2 == 1 {
            digits.push(b'0');
        }
        let bytes = digits
            .chunks(2)
            .map(|p| {
                let h = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                h(p[0]) * 16 + h(p[1])
            })
            .collect();
        Ok(Object::String(bytes, StringFormat::Hexadecimal))
    }

    /// An array after its `[`.
    fn array(&mut self, at: usize, depth: usize) -> Result<Object, Bad> {
        if depth > MAX_NESTING {
            return Err(self.bad(at, format!("arrays nested deeper than {MAX_NESTING}")));
        }
        let mut items = Vec::new();
        loop {
            self.skip_white();
            if self.pos >= self.data.len() {
                return Err(self.bad(at, "an array that never ends (no closing ']')"));
            }
            let item_at = self.pos;
            match self.token(depth)? {
                Token::Value(v) => items.push(v),
                Token::ArrayEnd => return Ok(Object::Array(items)),
                Token::DictEnd => {
                    return Err(self.bad(item_at, "a '>>' inside an array"));
                }
                Token::Operator(name) => {
                    return Err(self.bad(
                        item_at,
                        format!(
                            "the operator {} inside an array",
                            puzzlebook_ground::input::excerpt(&name)
                        ),
                    ))
                }
            }
        }
    }

    /// A dictionary after its `<<`.
    fn dictionary(&mut self, at: usize, depth: usize) -> Result<Object, Bad> {
        if depth > MAX_NESTING {
            return Err(self.bad(at, format!("dictionaries nested deeper than {MAX_NESTING}")));
        }
        let mut d = Dictionary::new();
        loop {
            self.skip_white();
            if self.pos >= self.data.len() {
                return Err(self.bad(at, "a dictionary that never ends (no closing '>>')"));
            }
            let key_at = self.pos;
            let key = match self.token(depth)? {
                Token::DictEnd => return Ok(Object::Dictionary(d)),
                Token::Value(Object::Name(n)) => n,
                _ => return Err(self.bad(key_at, "a dictionary key that is not a name")),
            };
            self.skip_white();
            let value_at = self.pos;
            match self.token(depth)? {
                Token::Value(v) => d.set(key, v),
                _ => return Err(self.bad(value_at, "a dictionary key without its value")),
            }
        }
    }

    /// An inline image after its `BI`: its keys and values up to `ID`, then its data
    /// up to `EI`, as one stream.
    fn inline_image(&mut self, at: usize) -> Result<Object, Bad> {
        let mut d = Dictionary::new();
        loop {
            self.skip_white();
            if self.pos >= self.data.len() {
                return Err(self.bad(at, "an inline image without ID"));
            }
            let key_at = self.pos;
            let key = match self.token(1)? {
                Token::Operator(op) if op == "ID" => break,
                Token::Value(Object::Name(n)) => n,
                _ => return Err(self.bad(key_at, "an inline image key that is not a name")),
            };
            let value_at = self.pos;
            match self.token(1)? {
                Token::Value(v) => d.set(key, v),
                _ => return Err(self.bad(value_at, "an inline image key without its value")),
            }
        }
        // One white-space byte after ID, then the data.
        if self.peek().is_some_and(is_white) {
            self.pos += 1;
        }
        let start = self.pos;
        let end = self
            .inline_end(&d, start)
            .ok_or_else(|| self.bad(at, "an inline image without EI"))?;
        let content = self.data[start..end].to_vec();
        // Past the white space and the EI.
        self.pos = end;
        while self.peek().is_some_and(is_white) {
            self.pos += 1;
        }
        self.pos += 2;
        Ok(Object::Stream(Stream::new(d, content)))
    }

    /// Where an inline image's data ends (its EI follows, after white space): by its
    /// stated length (`/L`), by its size when it has no filter, at the end mark of an
    /// ASCIIHex (`>`) or ASCII85 (`~>`) filter, else at the first `EI` that stands as
    /// a token (white space or a delimiter before it, white space, a delimiter or the
    /// end after it) and is followed by what reads as content.
    fn inline_end(&self, d: &Dictionary, start: usize) -> Option<usize> {
        let known = d
            .get(b"L")
            .or_else(|_| d.get(b"Length"))
            .ok()
            .and_then(|o| o.as_i64().ok())
            .and_then(|n| usize::try_from(n).ok())
            .or_else(|| self.inline_length(d));
        if let Some(n) = known {
            let e = start.saturating_add(n);
            if e <= self.data.len() && self.ei_at(e) {
                return Some(e);
            }
        }
        let filter = d
            .get(b"F")
            .or_else(|_| d.get(b"Filter"))
            .ok()
            .and_then(|f| match f {
                Object::Name(n) => Some(n.clone()),
                Object::Array(a) => a.first().and_then(|o| o.as_name().ok()).map(<[u8]>::to_vec),
                _ => None,
            });
        let mark: Option<&[u8]> = match filter.as_deref() {
            Some(b"AHx" | b"ASCIIHexDecode") => Some(b">"),
            Some(b"A85" | b"ASCII85Decode") => Some(b"~>"),
            _ => None,
        };
        if let Some(mark) = mark {
            let rest = &self.data[start..];
            if let Some(i) = rest.windows(mark.len()).position(|w| w == mark) {
                let e = start + i + mark.len();
                if self.ei_at(e) {
                    return Some(e);
                }
            }
        }
        self.find_ei(start)
    }

    /// The data's length when the image says it plainly (no filter, a device colour
    /// space or a mask, its size and depth).
    fn inline_length(&self, d: &Dictionary) -> Option<usize> {
        let get = |a: &[u8], b: &[u8]| d.get(a).or_else(|_| d.get(b)).ok();
        if get(b"F", b"Filter").is_some() {
            return None;
        }
        let int = |o: Option<&Object>| o.and_then(|o| o.as_i64().ok()).filter(|&v| v > 0);
        let w = int(get(b"W", b"Width"))? as usize;
        let h = int(get(b"H", b"Height"))? as usize;
        let mask = matches!(get(b"IM", b"ImageMask"), Some(Object::Boolean(true)));
        let bpc = if mask {
            1
        } else {
            int(get(b"BPC", b"BitsPerComponent"))? as usize
        };
        let comps = if mask {
            1
        } else {
            match get(b"CS", b"ColorSpace")?.as_name().ok()? {
                b"G" | b"DeviceGray" | b"I" | b"Indexed" => 1,
                b"RGB" | b"DeviceRGB" => 3,
                b"CMYK" | b"DeviceCMYK" => 4,
                _ => return None,
            }
        };
        w.checked_mul(comps)?
            .checked_mul(bpc)?
            .div_ceil(8)
            .checked_mul(h)
    }

    /// Whether `EI` follows `at` after white space, then white space, a delimiter or
    /// the end.
    fn ei_at(&self, at: usize) -> bool {
        let mut i = at;
        while self.data.get(i).is_some_and(|&b| is_white(b)) {
            i += 1;
        }
        self.data.get(i..i + 2) == Some(b"EI")
            && self.data.get(i + 2).is_none_or(|&b| !is_regular(b))
    }

    /// The end of an inline image's data found by looking for `EI` as a token (white
    /// space or a delimiter before it) followed by what reads as content; one pass
    /// over the data.
    fn find_ei(&self, start: usize) -> Option<usize> {
        let data = self.data;
        let mut i = start;
        while i + 1 < data.len() {
            if i.is_multiple_of(1 << 20) && puzzlebook_ground::interrupt::requested() {
                return None;
            }
            if data[i] == b'E' && data[i + 1] == b'I' {
                let before = if i == start {
                    true
                } else {
                    !is_regular(data[i - 1])
                };
                let after_ok = data.get(i + 2).is_none_or(|&b| !is_regular(b));
                if before && after_ok && self.reads_on(i + 2) {
                    // The data ends before the white space ahead of the EI.
                    let mut e = i;
                    while e > start && is_white(data[e - 1]) {
                        e -= 1;
                    }
                    return Some(e);
                }
            }
            i += 1;
        }
        None
    }

    /// Whether the bytes from `at` read as content: the next operation or two lex
    /// (within a few hundred bytes), or the content ends.
    fn reads_on(&self, at: usize) -> bool {
        let end = (at + 256).min(self.data.len());
        let window = &self.data[at..end];
        let mut l = Lexer::new(window);
        let mut op = Operation::new("", Vec::new());
        for _ in 0..2 {
            match l.next(&mut op) {
                Ok(true) => {}
                Ok(false) => return true,
                // Cut off by the window: as good as read.
                Err(e) => return end < self.data.len() && e.at + 64 > window.len(),
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(text: &str) -> Result<Vec<(String, Vec<Object>)>, Bad> {
        let mut l = Lexer::new(text.as_bytes());
        let mut op = Operation::new("", vec![]);
        let mut out = Vec::new();
        while l.next(&mut op)? {
            out.push((op.operator.clone(), op.operands.clone()));
        }
        Ok(out)
    }

    #[test]
    fn operations_come_one_at_a_time_with_their_operands() {
        let got =
            ops("q 1 0 0 1 72.5 -3 cm /F1 12 Tf [(a\\)b) -250 <41 42>] TJ % note\nQ").unwrap();
        assert_eq!(got.len(), 5);
        assert_eq!(got[4].0, "Q");
        assert_eq!(got[0].0, "q");
        assert_eq!(got[1].0, "cm");
        assert_eq!(got[1].1[4], Object::Real(72.5));
        assert_eq!(got[1].1[5], Object::Integer(-3));
        assert_eq!(
            got[2],
            (
                "Tf".into(),
                vec![Object::Name(b"F1".to_vec()), Object::Integer(12)]
            )
        );
        let Object::Array(items) = &got[3].1[0] else {
            panic!("{:?}", got[3])
        };
        assert_eq!(
            items[0],
            Object::String(b"a)b".to_vec(), StringFormat::Literal)
        );
        assert_eq!(
            items[2],
            Object::String(b"AB".to_vec(), StringFormat::Hexadecimal)
        );
        assert_eq!(got[3].0, "TJ");
    }

    #[test]
    fn a_number_too_long_for_64_bits_is_a_real_and_one_past_any_reader_is_refused() {
        let got = ops("12345678901234567890123 0 0 1 re f").unwrap();
        assert_eq!(got[0].0, "re");
        assert!(matches!(got[0].1[0], Object::Real(r) if r > 1.2e22));
        assert_eq!(got[1].0, "f");
        let e = ops(&format!("1{} 0 m", "0".repeat(40))).unwrap_err();
        assert!(e.what.contains("beyond what a PDF reader holds"), "{e}");
        assert_eq!(e.at, 0);
    }

    #[test]
    fn stray_and_unclosed_tokens_stop_the_reader_at_their_byte() {
        for (text, at, what) in [
            ("q ) 0 0 432 648 re f", 2, "a ')' that closes no string"),
            ("0 0 m ] l", 6, "a ']' that closes no array"),
            ("{ 1 } f", 0, "which content streams do not have"),
            ("(never ends", 0, "never ends"),
            ("[1 2", 0, "an array that never ends"),
            ("<< /A 1 f", 8, "a dictionary key that is not a name"),
            ("<< /A 1", 0, "a dictionary that never ends"),
            ("<4G> Tj", 0, "no hex digit"),
            ("1.2.3 0 m", 0, "not a number"),
            ("BI /W 1 /H 1 ID x", 0, "an inline image without EI"),
            ("[1 m]", 3, "the operator m inside an array"),
        ] {
            let e = ops(text).unwrap_err();
            assert_eq!(e.at, at, "{text}: {e}");
            assert!(e.what.contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn inline_images_are_read_by_their_length_or_their_ei() {
        // 2 x 2 grey, 8 bits: four bytes of data, one of them the letters EI.
        let text = b"q BI /W 2 /H 2 /BPC 8 /CS /G ID E I\x00 EI Q";
        let mut l = Lexer::new(text);
        let mut op = Operation::new("", vec![]);
        assert!(l.next(&mut op).unwrap());
        assert_eq!(op.operator, "q");
        assert!(l.next(&mut op).unwrap());
        assert_eq!(op.operator, "BI");
        let Object::Stream(s) = &op.operands[0] else {
            panic!("{op:?}")
        };
        assert_eq!(s.content, b"E I\x00");
        assert!(l.next(&mut op).unwrap());
        assert_eq!(op.operator, "Q");
        // With a filter the data runs to the EI.
        let text = b"BI /W 2 /H 2 /BPC 8 /CS /G /F /AHx ID 00ff00ff> EI f";
        let got = ops(std::str::from_utf8(text).unwrap()).unwrap();
        assert_eq!(got[0].0, "BI");
        assert_eq!(got[1].0, "f");
    }

    #[test]
    fn one_operation_holds_a_bounded_number_of_values() {
        let text = format!("[{}] TJ", "0 ".repeat(MAX_OPERAND_VALUES + 1));
        let e = ops(&text).unwrap_err();
        assert!(e.what.contains("more than 65536 values"), "{e}");
        let text = format!("{}] TJ", "[".repeat(MAX_NESTING + 1));
        assert!(ops(&text).unwrap_err().what.contains("nested deeper"));
    }

    #[test]
    fn inline_images_end_where_their_filter_says_and_in_one_pass() {
        // ASCIIHex and ASCII85 data end at their marks, with EI right after them.
        for text in [
            "BI /W 2 /H 2 /BPC 8 /CS /G /F /AHx ID 00ff00ff>EI f",
            "BI /W 2 /H 2 /BPC 8 /CS /G /F /A85 ID !<<*\"~>EI f",
            "BI /W 1 /H 1 /BPC 8 /CS /G /L 1 ID xEI f",
        ] {
            let got = ops(text).unwrap();
            assert_eq!(got.len(), 2, "{text}: {got:?}");
            assert_eq!(
                (got[0].0.as_str(), got[1].0.as_str()),
                ("BI", "f"),
                "{text}"
            );
        }
        // Data holding "EI" that does not stand as a token, or is not followed by
        // content, is data.
        let got = ops("BI /W 9 /H 9 /BPC 8 /CS /RGB /F /Fl ID zEIz ) EI ( EI f").unwrap();
        let Object::Stream(s) = &got[0].1[0] else {
            panic!("{got:?}")
        };
        assert_eq!(s.content, b"zEIz ) EI (");
        assert_eq!(got[1].0, "f");
        // A megabyte of white space after ID: one pass, not a pass per byte.
        let text = format!(
            "BI /W 1 /H 1 /BPC 8 /CS /RGB /F /Fl ID{} EI f",
            " ".repeat(1 << 20)
        );
        let t = std::time::Instant::now();
        assert_eq!(ops(&text).unwrap().len(), 2);
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn unknown_operators_and_odd_names_are_read_as_readers_read_them() {
        let got = ops("BX 1 2 my.op EX /A#zz Tf").unwrap();
        let names: Vec<&str> = got.iter().map(|o| o.0.as_str()).collect();
        assert_eq!(names, ["BX", "my.op", "EX", "Tf"]);
        assert_eq!(got[3].1[0], Object::Name(b"A#zz".to_vec()));
    }
}
