use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What a seal's digest follows.
const MARK: &str = "puzzlebook-seal:";
const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Whether `Ok(false)` came from a stop asked for: the caller says so rather than
/// calling the file someone else's.
pub type Checked = crate::Result<bool>;

/// How a text file's last line wraps its seal (`<!-- ` and ` -->` in Markdown,
/// `# ` and nothing in a catalogue-style list).
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// What comes before the mark.
    pub before: &'static str,
    /// What comes after the digest.
    pub after: &'static str,
}

impl Style {
    /// The length of a seal line, newline included.
    fn line_len(&self) -> usize {
        self.before.len() + MARK.len() + 64 + self.after.len() + 1
    }
}

/// Markdown: an HTML comment, which no viewer shows.
pub const MARKDOWN: Style = Style {
    before: "<!-- ",
    after: " -->",
};
/// A `#` comment line.
pub const HASH_COMMENT: Style = Style {
    before: "# ",
    after: "",
};

/// `body` (ending in a newline) with its seal line after it.
pub fn text(body: &str, style: Style) -> String {
    let digest = super::sha256_hex(body.as_bytes());
    format!("{body}{}{MARK}{digest}{}\n", style.before, style.after)
}

/// Whether the file at `path` (a regular file, read through no link, at most
/// `max` bytes) ends with a valid seal line of `style`; see [`text_reader_ok`].
pub fn text_file_ok(path: &Path, style: Style, max: u64) -> Checked {
    match super::open_regular(path) {
        Ok(f) => text_reader_ok(f, style, max),
        Err(_) => Ok(false),
    }
}

/// Whether the open file `f` (at most `max` bytes) ends with a valid seal line of
/// `style`: its last bytes are exactly a seal line, after a newline or at the
/// start, holding the SHA-256 of every byte before it (read in blocks; memory does
/// not grow with the file). A stop asked for meanwhile is [`crate::Error::Interrupted`].
pub fn text_reader_ok(mut f: std::fs::File, style: Style, max: u64) -> Checked {
    use sha2::Digest;
    let Ok(size) = f.metadata().map(|m| m.len()) else {
        return Ok(false);
    };
    let tail = style.line_len() as u64;
    if size > max || size < tail {
        return Ok(false);
    }
    let body = size - tail;
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut left = body;
    let mut last = b'\n';
    while left > 0 {
        crate::interrupt::check()?;
        let want = buf.len().min(left as usize);
        if f.read_exact(&mut buf[..want]).is_err() {
            return Ok(false);
        }
        h.update(&buf[..want]);
        last = buf[want - 1];
        left -= want as u64;
    }
    let mut seal = vec![0u8; tail as usize];
    if last != b'\n' || f.seek(SeekFrom::Start(body)).is_err() || f.read_exact(&mut seal).is_err() {
        return Ok(false);
    }
    let want = format!(
        "{}{MARK}{}{}\n",
        style.before,
        super::manifest_hex(&h.finalize()),
        style.after
    );
    Ok(seal == want.as_bytes())
}

/// The member a JSON seal is: pretty JSON writes it so at the top level, and a
/// string inside the document cannot hold it unescaped (its quotes would be `\"`).
fn member(key: &str) -> String {
    format!("\"{key}\": \"{MARK}")
}

/// A JSON value as pretty text holding its own seal at `key` (which `value` must
/// hold as a string member of its top level, with any content).
pub fn json(mut value: serde_json::Value, key: &str) -> String {
    value[key] = serde_json::json!(format!("{MARK}{ZEROS}"));
    let blank = serde_json::to_string_pretty(&value).expect("serialises") + "\n";
    let digest = super::sha256_hex(blank.as_bytes());
    let at = blank.find(&member(key)).expect("the seal member") + member(key).len();
    format!("{}{digest}{}", &blank[..at], &blank[at + 64..])
}

/// Whether `text` holds exactly one seal member `"seal": "puzzlebook-seal:HEX"`,
/// valid for the rest of it.
pub fn json_ok(text: &str) -> bool {
    let m = member("seal");
    let mut found = text.match_indices(&m);
    let (Some((at, _)), None) = (found.next(), found.next()) else {
        return false;
    };
    let start = at + m.len();
    let Some(digest) = text.get(start..start + 64) else {
        return false;
    };
    let blank = format!("{}{ZEROS}{}", &text[..start], &text[start + 64..]);
    super::sha256_hex(blank.as_bytes()) == digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seals_hold_for_what_was_written_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("i.md");
        let sealed = text("# a\nline\n", MARKDOWN);
        for (bytes, ok) in [
            (sealed.clone(), true),
            (sealed.replace("line", "Line"), false),
            (sealed.replace('\n', "\r\n"), false),
            (sealed.trim_end().to_string(), false),
            (format!("{sealed}\n"), false),
            ("# mine\n".to_string(), false),
            (text("", MARKDOWN), true),
        ] {
            std::fs::write(&p, &bytes).unwrap();
            assert_eq!(
                text_file_ok(&p, MARKDOWN, 1 << 20).unwrap(),
                ok,
                "{bytes:?}"
            );
        }
        // A name holding the mark does not move the JSON seal.
        let v = serde_json::json!({"job": format!("a\"seal\": \"{MARK}x"), "seal": ""});
        let t = json(v, "seal");
        assert!(json_ok(&t), "{t}");
        assert!(!json_ok(&t.replace("\"job\"", "\"Job\"")));
    }
}
