//! Print-on-demand preflight of every shipped template's book, read from the PDF bytes
//! with lopdf and a small content-stream interpreter of this test's own (not the
//! layout code's numbers): page boxes, page count, the safe area with the gutter for
//! the page count, embedded fonts, the smallest text, the thinnest line, no false
//! PDF/X claim, a reproducible creation date; then what a reader sees: no regeneration
//! facts outside the copyright page, and every puzzle's answer reference round-trips.

use crate::common::*;
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::HashMap;

const PT_PER_IN: f64 = 72.0;
/// 1,700,000,000 s after 1970 is 2023-11-14 22:13:20 UTC.
const EPOCH: &str = "1700000000";
const EPOCH_DATE: &str = "D:20231114221320Z";

/// Build a template's book with the real binary; returns the PDF and stderr.
fn build_book(template: &std::path::Path) -> (Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let res = bin()
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .args([
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&res.stderr).into_owned();
    assert!(res.status.success(), "{}: {err}", template.display());
    (std::fs::read(&out).unwrap(), err)
}

/// [`build_book`], with a failed build as an error line.
fn try_build(template: &std::path::Path) -> Result<Vec<u8>, String> {
    std::panic::catch_unwind(|| build_book(template).0).map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| "build failed".into())
    })
}

fn shipped_templates() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    v.sort();
    assert!(v.len() >= 6, "{v:?}");
    v
}

/// The trim size (points) and bleed a template asks for, read from its TOML.
fn expected_page(template: &std::path::Path) -> ((f64, f64), bool) {
    let t: toml::Table = std::fs::read_to_string(template).unwrap().parse().unwrap();
    let size = t.get("page_size").and_then(|v| v.as_str()).unwrap_or("a4");
    let bleed = t.get("bleed").and_then(|v| v.as_bool()).unwrap_or(false);
    let trim = match size {
        "a4" => (210.0 / 25.4 * 72.0, 297.0 / 25.4 * 72.0),
        "letter" | "8.5x11" => (612.0, 792.0),
        "6x9" => (432.0, 648.0),
        other => panic!("page size {other} not known to this test"),
    };
    (trim, bleed)
}

/// The KDP gutter (inside margin) for a page count, in points.
fn gutter_pt(pages: usize) -> f64 {
    let inches = match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    };
    inches * PT_PER_IN
}

fn nums(o: &Object) -> Vec<f64> {
    o.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap() as f64)
        .collect()
}

fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap(),
        o => o,
    }
}

/// What the interpreter needs of a font: advance widths, ascent and descent (1/1000
/// em), whether its program is embedded, and its ToUnicode map.
struct FontInfo {
    widths: HashMap<u16, f64>,
    default_width: f64,
    ascent: f64,
    descent: f64,
    embedded: bool,
    unicode: HashMap<u16, char>,
}

fn font_info(doc: &Document, font: &Dictionary) -> FontInfo {
    let subtype = font.get(b"Subtype").unwrap().as_name().unwrap().to_vec();
    let (desc_font, widths, default_width) = if subtype == b"Type0" {
        let desc = deref(doc, font.get(b"DescendantFonts").unwrap())
            .as_array()
            .unwrap()[0]
            .clone();
        let d = deref(doc, &desc).as_dict().unwrap().clone();
        let mut widths = HashMap::new();
        if let Ok(w) = d.get(b"W") {
            let w = deref(doc, w).as_array().unwrap();
            let mut i = 0;
            while i < w.len() {
                let first = w[i].as_i64().unwrap();
                match deref(doc, &w[i + 1]) {
                    Object::Array(list) => {
                        for (k, v) in list.iter().enumerate() {
                            widths.insert((first + k as i64) as u16, v.as_float().unwrap() as f64);
                        }
                        i += 2;
                    }
                    last => {
                        let last = last.as_i64().unwrap();
                        let v = w[i + 2].as_float().unwrap() as f64;
                        for c in first..=last {
                            widths.insert(c as u16, v);
                        }
                        i += 3;
                    }
                }
            }
        }
        let dw = d
            .get(b"DW")
            .ok()
            .and_then(|v| v.as_float().ok())
            .map_or(1000.0, f64::from);
        (d, widths, dw)
    } else {
        panic!("only Type0 fonts are expected in our books, found {subtype:?}");
    };
    let fd = deref(doc, desc_font.get(b"FontDescriptor").unwrap())
        .as_dict()
        .unwrap();
    let embedded = [b"FontFile".as_slice(), b"FontFile2", b"FontFile3"]
        .iter()
        .any(|k| fd.get(k).is_ok());
    let unicode = to_unicode(doc, font);
    FontInfo {
        widths,
        default_width,
        ascent: fd.get(b"Ascent").unwrap().as_float().unwrap() as f64,
        descent: fd.get(b"Descent").unwrap().as_float().unwrap() as f64,
        embedded,
        unicode,
    }
}

type Matrix = [f64; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

fn scale(m: &Matrix) -> f64 {
    (m[0] * m[3] - m[1] * m[2]).abs().sqrt()
}

/// What one page draws, in default user space (points, origin bottom-left of the
/// media box).
#[derive(Default)]
struct PageInk {
    /// x0, y0, x1, y1 of every mark.
    bounds: Option<[f64; 4]>,
    min_text: Option<f64>,
    min_line: Option<f64>,
    text: String,
    unembedded: Vec<String>,
}

impl PageInk {
    fn add(&mut self, x: f64, y: f64) {
        self.bounds = Some(match self.bounds {
            None => [x, y, x, y],
            Some(b) => [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)],
        });
    }
}

fn f(o: &Object) -> f64 {
    o.as_float().unwrap() as f64
}

/// One `Tj`/`TJ`: its glyphs' text and ink (from the font's widths, ascent and
/// descent, under `render`, the text matrix times the CTM); returns its advance.
fn show_text(ink: &mut PageInk, fi: &FontInfo, shown: &Object, size: f64, render: &Matrix) -> f64 {
    let items = match shown {
        Object::Array(v) => v.clone(),
        o => vec![o.clone()],
    };
    let eff = size * scale(render);
    ink.min_text = Some(ink.min_text.map_or(eff, |m: f64| m.min(eff)));
    let mut advance = 0.0;
    for item in items {
        match item {
            Object::String(bytes, _) => {
                for pair in bytes.chunks(2) {
                    let gid = u16::from_be_bytes([pair[0], pair[1]]);
                    let w = fi.widths.get(&gid).copied().unwrap_or(fi.default_width);
                    advance += w / 1000.0 * size;
                    ink.text.push(*fi.unicode.get(&gid).unwrap_or(&'?'));
                }
            }
            o => advance -= o.as_float().unwrap() as f64 / 1000.0 * size,
        }
    }
    ink.text.push(' ');
    for (x, y) in [
        (0.0, fi.descent / 1000.0 * size),
        (advance, fi.ascent / 1000.0 * size),
    ] {
        let (px, py) = apply(render, x, y);
        ink.add(px, py);
    }
    advance
}

fn interpret(doc: &Document, page: ObjectId) -> PageInk {
    let mut fonts: HashMap<Vec<u8>, FontInfo> = HashMap::new();
    for (name, font) in doc.get_page_fonts(page).unwrap() {
        fonts.insert(name, font_info(doc, font));
    }
    let content = doc.get_and_decode_page_content(page).unwrap();
    let mut ink = PageInk::default();
    for (name, font) in &fonts {
        if !font.embedded {
            ink.unembedded
                .push(String::from_utf8_lossy(name).into_owned());
        }
    }
    let mut ctm = IDENTITY;
    let mut stack: Vec<(Matrix, f64)> = Vec::new();
    let mut line_w = 1.0;
    let mut path: Vec<(f64, f64)> = Vec::new();
    let (mut tm, mut tlm) = (IDENTITY, IDENTITY);
    let mut font: Option<Vec<u8>> = None;
    let mut size = 0.0;
    let mut leading = 0.0;
    for op in &content.operations {
        let a = &op.operands;
        match op.operator.as_str() {
            "q" => stack.push((ctm, line_w)),
            "Q" => (ctm, line_w) = stack.pop().unwrap(),
            "cm" => {
                let m = [f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3]), f(&a[4]), f(&a[5])];
                ctm = mul(&m, &ctm);
            }
            "w" => line_w = f(&a[0]),
            "m" | "l" => path.push(apply(&ctm, f(&a[0]), f(&a[1]))),
            "c" => {
                for k in 0..3 {
                    path.push(apply(&ctm, f(&a[2 * k]), f(&a[2 * k + 1])));
                }
            }
            "v" | "y" => {
                for k in 0..2 {
                    path.push(apply(&ctm, f(&a[2 * k]), f(&a[2 * k + 1])));
                }
            }
            "re" => {
                let (x, y, w, h) = (f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3]));
                for (px, py) in [(x, y), (x + w, y), (x + w, y + h), (x, y + h)] {
                    path.push(apply(&ctm, px, py));
                }
            }
            "S" | "s" | "B" | "B*" | "b" | "b*" => {
                let w = line_w * scale(&ctm);
                ink.min_line = Some(ink.min_line.map_or(w, |m: f64| m.min(w)));
                for &(x, y) in &path {
                    ink.add(x - w / 2.0, y - w / 2.0);
                    ink.add(x + w / 2.0, y + w / 2.0);
                }
                path.clear();
            }
            "f" | "F" | "f*" => {
                for &(x, y) in &path {
                    ink.add(x, y);
                }
                path.clear();
            }
            "n" => path.clear(),
            "BT" => {
                tm = IDENTITY;
                tlm = IDENTITY;
            }
            "Tf" => {
                font = Some(a[0].as_name().unwrap().to_vec());
                size = f(&a[1]);
            }
            "TL" => leading = f(&a[0]),
            "Td" | "TD" => {
                if op.operator == "TD" {
                    leading = -f(&a[1]);
                }
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, f(&a[0]), f(&a[1])], &tlm);
                tm = tlm;
            }
            "Tm" => {
                tlm = [f(&a[0]), f(&a[1]), f(&a[2]), f(&a[3]), f(&a[4]), f(&a[5])];
                tm = tlm;
            }
            "T*" => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -leading], &tlm);
                tm = tlm;
            }
            "Tj" | "TJ" => {
                let fi = &fonts[font.as_ref().unwrap()];
                let advance = show_text(&mut ink, fi, &a[0], size, &mul(&tm, &ctm));
                tm = mul(&[1.0, 0.0, 0.0, 1.0, advance, 0.0], &tm);
            }
            _ => {}
        }
    }
    ink
}

/// Everything a printer's preflight would check of one interior, as a list of problems.
fn preflight(template: &std::path::Path, bytes: &[u8]) -> (Vec<String>, Vec<PageInk>) {
    let doc = Document::load_mem(bytes).unwrap();
    let ((trim_w, trim_h), bleed) = expected_page(template);
    let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
    let n = pages.len();
    let mut problems = Vec::new();
    if n < 24 || !n.is_multiple_of(2) {
        problems.push(format!(
            "{n} pages: at least 24 and an even count are needed"
        ));
    }
    // No PDF/X claim unless it is PDF/X (we never make PDF/X): no version key, no
    // output intent.
    let info = deref(&doc, doc.trailer.get(b"Info").unwrap())
        .as_dict()
        .unwrap();
    if info.get(b"GTS_PDFXVersion").is_ok() {
        problems.push("the information dictionary claims PDF/X".into());
    }
    // An output intent names the printing condition of a CMYK book (and claims no
    // PDF/X); any other book has none.
    let catalog = doc.catalog().unwrap();
    let cmyk = std::fs::read_to_string(template)
        .unwrap()
        .lines()
        .any(|l| l.starts_with("color = \"cmyk\""));
    if catalog.get(b"OutputIntents").is_ok() != cmyk {
        problems.push(format!(
            "an output intent in a book whose colour is {}",
            if cmyk { "cmyk, missing" } else { "not cmyk" }
        ));
    }
    match info.get(b"CreationDate") {
        Ok(Object::String(s, _)) if s.as_slice() == EPOCH_DATE.as_bytes() => {}
        other => problems.push(format!("CreationDate is {other:?}, not {EPOCH_DATE}")),
    }
    let edge = if bleed { 0.375 } else { 0.25 } * PT_PER_IN;
    let gutter = gutter_pt(n);
    let bleed_pt = if bleed { 0.125 * PT_PER_IN } else { 0.0 };
    let mut inks = Vec::new();
    for (i, &id) in pages.iter().enumerate() {
        let page = i + 1;
        let dict = doc.get_dictionary(id).unwrap();
        let media = nums(dict.get(b"MediaBox").unwrap());
        let trim = dict.get(b"TrimBox").map(nums).unwrap_or(media.clone());
        // A real box [x0 y0 x1 y1] of the trim size, inside the media box.
        let (tw, th) = (trim[2] - trim[0], trim[3] - trim[1]);
        if (tw - trim_w).abs() > 0.05 || (th - trim_h).abs() > 0.05 {
            problems.push(format!(
                "page {page}: trim {tw:.2} x {th:.2} pt, not {trim_w:.2} x {trim_h:.2}"
            ));
        }
        if trim[0] < media[0] - 0.01
            || trim[1] < media[1] - 0.01
            || trim[2] > media[2] + 0.01
            || trim[3] > media[3] + 0.01
        {
            problems.push(format!(
                "page {page}: trim box {trim:?} outside media box {media:?}"
            ));
        }
        let recto = page % 2 == 1;
        if bleed {
            match dict.get(b"BleedBox").map(nums) {
                Ok(b) => {
                    // Bleed on the outside, top and bottom; the binding edge is the trim's.
                    let (left, right) = if recto {
                        (0.0, bleed_pt)
                    } else {
                        (bleed_pt, 0.0)
                    };
                    let want = [
                        trim[0] - left,
                        trim[1] - bleed_pt,
                        trim[2] + right,
                        trim[3] + bleed_pt,
                    ];
                    if b.iter().zip(&want).any(|(x, y)| (x - y).abs() > 0.05) {
                        problems.push(format!("page {page}: bleed box {b:?}, expected {want:?}"));
                    }
                }
                Err(_) => problems.push(format!("page {page}: no BleedBox on a bleed book")),
            }
        }
        let ink = interpret(&doc, id);
        if !ink.unembedded.is_empty() {
            problems.push(format!(
                "page {page}: fonts not embedded: {:?}",
                ink.unembedded
            ));
        }
        if let Some(s) = ink.min_text {
            if s < 7.0 - 1e-3 {
                problems.push(format!("page {page}: text of {s:.2} pt"));
            }
        }
        if let Some(w) = ink.min_line {
            if w < 0.5 - 1e-3 {
                problems.push(format!("page {page}: a line of {w:.3} pt"));
            }
        }
        if let Some(b) = ink.bounds {
            // Distances from each trim edge; the binding edge is the left of a recto.
            let left = b[0] - trim[0];
            let right = trim[2] - b[2];
            let bottom = b[1] - trim[1];
            let top = trim[3] - b[3];
            let (need_l, need_r) = if recto {
                (gutter, edge)
            } else {
                (edge, gutter)
            };
            for (what, have, need) in [
                ("left", left, need_l),
                ("right", right, need_r),
                ("bottom", bottom, edge),
                ("top", top, edge),
            ] {
                if have < need - 0.01 {
                    problems.push(format!(
                        "page {page}: ink {have:.2} pt from the {what} edge, the safe area needs {need:.2}"
                    ));
                }
            }
        }
        inks.push(ink);
    }
    (problems, inks)
}

#[test]
fn every_template_passes_a_print_on_demand_preflight() {
    let mut failures = Vec::new();
    for t in shipped_templates() {
        let bytes = match try_build(&t) {
            Ok(b) => b,
            Err(e) => {
                failures.push(e.trim().to_string());
                continue;
            }
        };
        let (problems, inks) = preflight(&t, &bytes);
        // What was measured, for the log (cargo test -- --nocapture).
        let min = |f: &dyn Fn(&PageInk) -> Option<f64>| {
            inks.iter().filter_map(f).fold(f64::INFINITY, f64::min)
        };
        eprintln!(
            "{}: {} pages, smallest text {:.2} pt, thinnest line {:.2} pt, {} problems",
            t.file_name().unwrap().to_string_lossy(),
            inks.len(),
            min(&|i| i.min_text),
            min(&|i| i.min_line),
            problems.len()
        );
        for p in problems.iter().take(8) {
            failures.push(format!("{}: {p}", t.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn readers_see_reader_text_and_references_that_round_trip() {
    for t in shipped_templates() {
        let name = t.file_name().unwrap().to_string_lossy().into_owned();
        let (bytes, _) = build_book(&t);
        let (_, inks) = preflight(&t, &bytes);
        // Regeneration facts only on the copyright page (page 2).
        for (i, ink) in inks.iter().enumerate().filter(|(i, _)| *i != 1) {
            for debug in [
                "seed",
                "item ",
                "attempt",
                "=",
                "sampler",
                "red-apart",
                "params",
            ] {
                assert!(
                    !ink.text.contains(debug),
                    "{name} page {}: {debug:?} in {}",
                    i + 1,
                    ink.text
                );
            }
        }
        // The copyright page has its year and leaves the publisher's facts out.
        assert!(inks[1].text.contains("©"), "{name}");
        assert!(
            !inks[1].text.contains("puzzlebook book --template"),
            "{name}"
        );
        // Every "Puzzle N ... Answer on page P": page P has "Puzzle N · page Q" where
        // Q is the page puzzle N is on.
        let mut checked = 0;
        for (i, ink) in inks.iter().enumerate() {
            let words: Vec<&str> = ink.text.split_whitespace().collect();
            for w in words.windows(6) {
                // "Answer on page P", or "Answer p. P" where the label is narrow.
                let target = match (w[2], w[3], w[4]) {
                    ("Answer", "on", "page") => w[5].parse::<usize>().ok(),
                    ("Answer", "p.", p) => p.parse().ok(),
                    _ => None,
                };
                if let Some(p) = target {
                    let (label, n) = (w[0], w[1]);
                    let answer = &inks[p - 1].text;
                    let want = format!("{label} {n} · page {}", i + 1);
                    assert!(
                        answer.contains(&want),
                        "{name}: {want:?} not on page {p}: {answer}"
                    );
                    checked += 1;
                }
            }
        }
        let answered = !name.starts_with("catan");
        assert_eq!(
            answered,
            checked > 0,
            "{name}: {checked} references checked"
        );
    }
}

#[test]
fn creation_date_follows_source_date_epoch_and_bytes_stay_deterministic() {
    let t = template("default.toml");
    let run = |epoch: Option<&str>, jobs: &str| {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("b.pdf");
        let mut cmd = bin();
        cmd.env_remove("SOURCE_DATE_EPOCH");
        if let Some(e) = epoch {
            cmd.env("SOURCE_DATE_EPOCH", e);
        }
        let res = cmd
            .args([
                "--jobs",
                jobs,
                "book",
                "--template",
                t.to_str().unwrap(),
                "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        (
            res.status.code(),
            std::fs::read(&out).ok(),
            String::from_utf8_lossy(&res.stderr).into_owned(),
        )
    };
    let (_, a, _) = run(Some(EPOCH), "1");
    let (_, b, _) = run(Some(EPOCH), "2");
    assert!(
        a.is_some() && a == b,
        "same epoch, 1 and 2 threads: same bytes"
    );
    let doc = Document::load_mem(a.as_ref().unwrap()).unwrap();
    let info = deref(&doc, doc.trailer.get(b"Info").unwrap())
        .as_dict()
        .unwrap();
    assert_eq!(
        info.get(b"CreationDate").unwrap().as_str().unwrap(),
        EPOCH_DATE.as_bytes()
    );
    // Without it and without a template date: no date at all, never 1970.
    let (_, c, _) = run(None, "2");
    let doc = Document::load_mem(c.as_ref().unwrap()).unwrap();
    let info = deref(&doc, doc.trailer.get(b"Info").unwrap())
        .as_dict()
        .unwrap();
    assert!(info.get(b"CreationDate").is_err());
    // A malformed value is refused (reproducible-builds rule), nothing written.
    let (code, d, err) = run(Some("yesterday"), "2");
    assert_eq!(code, Some(1));
    assert!(d.is_none());
    assert!(err.contains("SOURCE_DATE_EPOCH"), "{err}");
}

#[test]
fn the_preflight_catches_each_broken_rule() {
    // Break a good book in one way per rule and check the checker names each one: the
    // tests above prove nothing if the checker cannot see a problem.
    let t = template("flip-6x9.toml");
    let (bytes, _) = build_book(&t);
    let (clean, _) = preflight(&t, &bytes);
    assert!(clean.is_empty(), "{clean:?}");
    let mut doc = Document::load_mem(&bytes).unwrap();
    let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
    // Page 1: the old [x y width height] trim box mistake.
    doc.get_object_mut(pages[0])
        .unwrap()
        .as_dict_mut()
        .unwrap()
        .set(
            "TrimBox",
            Object::Array(vec![0.into(), 9.into(), 432.into(), 639.into()]),
        );
    // Page 3: 5 pt text and a 0.2 pt line 10 pt from the binding edge.
    let font = doc
        .get_page_fonts(pages[2])
        .unwrap()
        .into_keys()
        .next()
        .unwrap();
    let font = String::from_utf8(font).unwrap();
    let extra = format!("BT /{font} 5 Tf 100 300 Td <0011> Tj ET 0.2 w 10 100 m 10 200 l S");
    doc.add_to_page_content(
        pages[2],
        lopdf::content::Content::decode(extra.as_bytes()).unwrap(),
    )
    .unwrap();
    // A PDF/X claim in the information dictionary.
    let info = doc.trailer.get(b"Info").unwrap().as_reference().unwrap();
    doc.get_object_mut(info)
        .unwrap()
        .as_dict_mut()
        .unwrap()
        .set("GTS_PDFXVersion", Object::string_literal("PDF/X-1:2001"));
    // Drop the last page: an odd count.
    let n = pages.len();
    doc.delete_pages(&[n as u32]);
    let mut broken = Vec::new();
    doc.save_to(&mut broken).unwrap();
    let (problems, _) = preflight(&t, &broken);
    let all = problems.join("\n");
    let odd = format!("{} pages", n - 1);
    for want in [
        odd.as_str(),
        "page 1: trim 432.00 x 630.00",
        "page 3: text of 5.00 pt",
        "page 3: a line of 0.200 pt",
        "page 3: ink",
        "claims PDF/X",
    ] {
        assert!(all.contains(want), "{want:?} not in:\n{all}");
    }
}
