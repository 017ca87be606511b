//! Helpers shared by the integration tests.
#![allow(dead_code)]

#[path = "tools.rs"]
pub mod tools;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub fn bin() -> Command {
    Command::cargo_bin("puzzlebook").expect("binary built")
}

/// The project root (where templates/ lives).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The templates the project ships (`templates/*.toml`).
pub const SHIPPED: [&str; 10] = [
    "carcassonne.toml",
    "catan-almanac.toml",
    "default.toml",
    "flip-6x9.toml",
    "hidato-large-print.toml",
    "hidato-shapes-6x9.toml",
    "number-match.toml",
    "number-paths-travel.toml",
    "numbrix-6x9.toml",
    "numbrix-large-print.toml",
];

pub fn template(name: &str) -> PathBuf {
    root().join("templates").join(name)
}

/// Files in a directory (to check nothing half-written is left behind).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Run the binary and return stdout, asserting success.
pub fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Status 1, exactly one line on stderr containing `needle`, nothing on stdout.
pub fn fails_with(args: &[&str], stdin: Option<&str>, needle: &str) {
    let mut cmd = bin();
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one line expected, got: {err}"
    );
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(needle),
        "{args:?}: {err} should mention {needle}"
    );
    assert!(out.stdout.is_empty(), "{args:?}: stdout should be empty");
}

/// The print rules on one drawing: every mark inside `area`, no text under 7 pt and no
/// line under 0.5 pt (of what it draws).
pub fn assert_print_rules(
    c: &puzzlebook::canvas::Canvas,
    area: puzzlebook::canvas::Rect,
    what: &str,
) {
    use puzzlebook::canvas::{MIN_LINE_MM, MIN_TEXT_PT};
    let ink = c.ink_bounds().expect("something is drawn");
    let eps = 1e-3;
    assert!(
        ink.x >= area.x - eps
            && ink.y >= area.y - eps
            && ink.right() <= area.right() + eps
            && ink.bottom() <= area.bottom() + eps,
        "{what}: ink {ink:?} outside {area:?}"
    );
    if let Some(t) = c.min_text_pt() {
        assert!(t >= MIN_TEXT_PT - 1e-4, "{what}: text of {t} pt");
    }
    if let Some(w) = c.min_line_mm() {
        assert!(w >= MIN_LINE_MM - 1e-6, "{what}: line of {w} mm");
    }
}

/// A font's /ToUnicode CMap as glyph id -> character (its bfchar entries; a small
/// decoder of our own, independent of the writer). Empty when the font has none.
pub fn to_unicode(
    doc: &lopdf::Document,
    font: &lopdf::Dictionary,
) -> std::collections::HashMap<u16, char> {
    let mut map = std::collections::HashMap::new();
    let Ok(stream) = font
        .get(b"ToUnicode")
        .and_then(|o| o.as_reference())
        .and_then(|r| doc.get_object(r))
        .and_then(|o| o.as_stream())
    else {
        return map;
    };
    let content = String::from_utf8_lossy(&stream.decompressed_content().unwrap()).into_owned();
    for section in content.split("beginbfchar").skip(1) {
        let body = section.split("endbfchar").next().unwrap();
        let hex: Vec<&str> = body
            .split(['<', '>'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        for pair in hex.chunks(2) {
            if let [g, u] = pair {
                let gid = u16::from_str_radix(g, 16).unwrap();
                let cp = u32::from_str_radix(u, 16).unwrap();
                map.insert(gid, char::from_u32(cp).unwrap_or('?'));
            }
        }
    }
    map
}

/// Decode the text of every page through each font's /ToUnicode CMap (a small
/// decoder of our own, independent of the writer).
pub fn page_texts(doc: &lopdf::Document) -> Vec<String> {
    texts_where(doc, |_| true)
}

/// The text of every page set turned a quarter, reading down (a cover's spine: its
/// text matrix is [0 -1 1 0 x y]).
pub fn turned_texts(doc: &lopdf::Document) -> Vec<String> {
    texts_where(doc, |m| m == [0.0, -1.0, 1.0, 0.0])
}

/// The text of every page shown under a text matrix whose first four numbers
/// `keep` takes.
fn texts_where(doc: &lopdf::Document, keep: impl Fn([f32; 4]) -> bool) -> Vec<String> {
    use std::collections::HashMap;
    let mut texts = Vec::new();
    for (_, page_id) in doc.get_pages() {
        let fonts = doc.get_page_fonts(page_id).unwrap();
        let mut maps: HashMap<Vec<u8>, HashMap<u16, char>> = HashMap::new();
        for (name, font) in &fonts {
            maps.insert(name.clone(), to_unicode(doc, font));
        }
        let content = doc.get_and_decode_page_content(page_id).unwrap();
        let mut text = String::new();
        let mut current: Vec<u8> = Vec::new();
        let mut kept = keep([1.0, 0.0, 0.0, 1.0]);
        for op in content.operations {
            match op.operator.as_str() {
                "Tf" => current = op.operands[0].as_name().unwrap().to_vec(),
                "BT" => kept = keep([1.0, 0.0, 0.0, 1.0]),
                "Tm" => {
                    let m: Vec<f32> = op
                        .operands
                        .iter()
                        .take(4)
                        .map(|o| o.as_float().unwrap())
                        .collect();
                    kept = keep([m[0], m[1], m[2], m[3]]);
                }
                "Tj" | "TJ" if !kept => {}
                "Tj" | "TJ" => {
                    let items = match &op.operands[0] {
                        lopdf::Object::Array(a) => a.clone(),
                        o => vec![o.clone()],
                    };
                    for item in items {
                        if let lopdf::Object::String(bytes, _) = item {
                            for pair in bytes.chunks(2) {
                                let gid = u16::from_be_bytes([pair[0], pair[1]]);
                                text.push(*maps[&current].get(&gid).unwrap_or(&'?'));
                            }
                        }
                    }
                    text.push(' ');
                }
                _ => {}
            }
        }
        texts.push(text);
    }
    texts
}

/// SHA-256 of `bytes` as 64 lowercase hex digits (sha2, as a second reading of a
/// manifest's digests).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
