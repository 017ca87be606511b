//! `puzzlebook preflight` on PDFs built here with lopdf: a clean one passes, and each of
//! the others breaks exactly one rule, which the binary names with the right pages and
//! exit status. Then our own books, and files that are not PDFs at all.

use crate::common::*;
use lopdf::{dictionary, Dictionary, Document, Object, Stream};
use std::collections::BTreeMap;

/// Points per inch.
const IN: f64 = 72.0;

#[derive(Clone, Copy, PartialEq)]
enum FontKind {
    /// A TrueType font with its program (a stand-in stream: preflight only looks for it).
    Embedded,
    /// Helvetica by name only.
    Bare,
    /// A Type 3 font.
    Type3,
    /// A Type0 font whose descendant has no program.
    Type0Bare,
}

/// A test book: every page has a white page-sized background, a line of text and a
/// rule, well inside every service's margins; `extra` adds content to pages (in
/// coordinates from the trim's lower-left corner).
#[derive(Clone)]
struct Book {
    pages: usize,
    /// Trim width and height in points.
    trim: (f64, f64),
    /// Bleed in points on the outside, top and bottom.
    bleed: f64,
    /// MediaBox and TrimBox on the Pages node instead of each page (bleed 0 only).
    inherited_boxes: bool,
    /// Pages (1-based) without a TrimBox.
    no_trim: Vec<usize>,
    extra: BTreeMap<usize, String>,
    font: FontKind,
    /// GTS_PDFXVersion in Info, and whether the catalog has a proper output intent.
    pdfx: Option<(&'static str, bool)>,
    /// A page with an RGB image XObject on it.
    rgb_image: Option<usize>,
}

impl Book {
    fn new(pages: usize) -> Book {
        Book {
            pages,
            trim: (6.0 * IN, 9.0 * IN),
            bleed: 0.0,
            inherited_boxes: false,
            no_trim: vec![],
            extra: BTreeMap::new(),
            font: FontKind::Embedded,
            pdfx: None,
            rgb_image: None,
        }
    }

    fn with(mut self, page: usize, content: &str) -> Book {
        self.extra
            .entry(page)
            .or_default()
            .push_str(&format!("\n{content}\n"));
        self
    }

    fn pdf(&self) -> Vec<u8> {
        let mut doc = Document::with_version("1.4");
        let pages_id = doc.new_object_id();
        let font = self.font(&mut doc);
        let image = doc.add_object(Stream::new(
            dictionary! { "Type" => "XObject", "Subtype" => "Image", "Width" => 1000,
            "Height" => 1000, "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8 },
            vec![200, 0, 0],
        ));
        let (w, h) = self.trim;
        let b = self.bleed;
        let mut kids = Vec::new();
        for p in 1..=self.pages {
            // The trim's lower-left corner in the page: odd pages bleed on the right,
            // even pages on the left.
            let (tx, ty) = if p % 2 == 1 { (0.0, b) } else { (b, b) };
            let mut c = format!(
                "1 0 0 1 {tx} {ty} cm 1 g {} {} {} {} re f\n0 g BT /F1 10 Tf 72 300 Td (Hello) Tj ET\n0 G 1 w 72 200 m 150 200 l S\n",
                -b,
                -b,
                w + 2.0 * b,
                h + 2.0 * b
            );
            if self.rgb_image == Some(p) {
                c.push_str("q 100 0 0 100 100 400 cm /Im Do Q\n");
            }
            if let Some(e) = self.extra.get(&p) {
                c.push_str(e);
            }
            let mut content = Stream::new(dictionary! {}, c.into_bytes());
            content.compress().unwrap();
            let content = doc.add_object(content);
            let mut page = dictionary! {
                "Type" => "Page", "Parent" => pages_id, "Contents" => content,
                "Resources" => dictionary! {
                    "Font" => dictionary! { "F1" => font.clone() },
                    "XObject" => dictionary! { "Im" => image },
                },
            };
            if !self.inherited_boxes {
                let media = [0.0, 0.0, w + b, h + 2.0 * b];
                page.set("MediaBox", boxed(media));
                if !self.no_trim.contains(&p) {
                    page.set("TrimBox", boxed([tx, ty, tx + w, ty + h]));
                }
                if b > 0.0 {
                    page.set("BleedBox", boxed(media));
                }
            }
            kids.push(Object::Reference(doc.add_object(page)));
        }
        let mut pages = dictionary! { "Type" => "Pages", "Kids" => kids,
        "Count" => self.pages as i64 };
        if self.inherited_boxes {
            pages.set("MediaBox", boxed([0.0, 0.0, w, h]));
            pages.set("TrimBox", boxed([0.0, 0.0, w, h]));
        }
        doc.objects.insert(pages_id, Object::Dictionary(pages));
        let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
        if let Some((version, intent)) = self.pdfx {
            let info = doc.add_object(dictionary! {
                "GTS_PDFXVersion" => Object::string_literal(version),
            });
            doc.trailer.set("Info", info);
            if intent {
                let profile = doc.add_object(Stream::new(dictionary! { "N" => 4 }, vec![0; 8]));
                catalog.set(
                    "OutputIntents",
                    vec![Object::Dictionary(dictionary! {
                        "Type" => "OutputIntent", "S" => "GTS_PDFX",
                        "OutputConditionIdentifier" => Object::string_literal("FOGRA39"),
                        "DestOutputProfile" => profile,
                    })],
                );
            }
        }
        let root = doc.add_object(catalog);
        doc.trailer.set("Root", root);
        let mut out = Vec::new();
        doc.save_to(&mut out).unwrap();
        out
    }

    fn font(&self, doc: &mut Document) -> Object {
        let widths: Vec<Object> = (32..127).map(|_| 500.into()).collect();
        let program = doc.add_object(Stream::new(dictionary! {}, vec![0; 16]));
        let mut descriptor = dictionary! { "Type" => "FontDescriptor", "FontName" => "Test",
        "Ascent" => 800, "Descent" => -200, "Flags" => 32 };
        let font: Dictionary = match self.font {
            FontKind::Embedded => {
                descriptor.set("FontFile2", program);
                dictionary! { "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Test",
                "FirstChar" => 32, "Widths" => widths,
                "FontDescriptor" => doc.add_object(descriptor) }
            }
            FontKind::Bare => dictionary! { "Type" => "Font", "Subtype" => "Type1",
            "BaseFont" => "Helvetica" },
            FontKind::Type3 => {
                let glyph = doc.add_object(Stream::new(dictionary! {}, b"500 0 d0".to_vec()));
                dictionary! { "Type" => "Font", "Subtype" => "Type3",
                "FontBBox" => boxed([0.0, -200.0, 500.0, 800.0]),
                "FontMatrix" => vec![0.001.into(), 0.into(), 0.into(), 0.001.into(), 0.into(), 0.into()],
                "CharProcs" => dictionary! { "a" => glyph },
                "Encoding" => dictionary! { "Differences" => vec![32.into(), "a".into()] },
                "FirstChar" => 32, "Widths" => widths, "Name" => "T3" }
            }
            FontKind::Type0Bare => {
                let descriptor = doc.add_object(descriptor);
                let cid = doc.add_object(dictionary! { "Type" => "Font",
                "Subtype" => "CIDFontType2", "BaseFont" => "NoProgram",
                "FontDescriptor" => descriptor, "DW" => 1000 });
                dictionary! { "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "NoProgram",
                "Encoding" => "Identity-H", "DescendantFonts" => vec![cid.into()] }
            }
        };
        doc.add_object(font).into()
    }
}

fn boxed(r: [f64; 4]) -> Vec<Object> {
    r.iter().map(|v| Object::Real(*v as f32)).collect()
}

/// Run preflight on `bytes`; exit status, stdout.
fn preflight(bytes: &[u8], args: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.pdf");
    std::fs::write(&file, bytes).unwrap();
    let mut all = vec!["preflight", file.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = bin().args(&all).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    (out.status.code().unwrap_or(-1), stdout)
}

/// The FAIL and WARN lines.
fn problems(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("FAIL") || l.starts_with("WARN"))
        .collect()
}

/// Exit 1 and exactly one problem line, a FAIL that starts with `start` and contains `has`.
fn fails_one(book: &Book, args: &[&str], start: &str, has: &str) {
    let (code, out) = preflight(&book.pdf(), args);
    let lines = problems(&out);
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), 1, "one problem expected:\n{out}");
    assert!(lines[0].starts_with(start), "{out}");
    assert!(lines[0].contains(has), "{out}");
}

#[test]
fn a_clean_book_passes_both_services() {
    for service in ["kdp", "ingram"] {
        let (code, out) = preflight(&Book::new(24).pdf(), &["--service", service]);
        assert_eq!(code, 0, "{out}");
        assert!(problems(&out).is_empty(), "{out}");
        assert!(out.contains("preflight passes: 0 failures, 0 warnings (24 pages, trim 6 x 9 in"));
    }
    // Boxes inherited from the Pages node count.
    let mut b = Book::new(24);
    b.inherited_boxes = true;
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    // A bleed book whose background art runs off the trim into the bleed.
    let mut b = Book::new(24);
    b.bleed = 9.0;
    let b = b
        .with(3, "0.2 g -9 -9 200 100 re f")
        .with(4, "0 0 1 0 k -9 600 441 57 re f");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("bleed 0.125 in"), "{out}");
}

/// Exit 0 and exactly one problem line, a WARN that starts with `start` and contains `has`.
fn warns_one(book: &Book, args: &[&str], start: &str, has: &str) -> String {
    let (code, out) = preflight(&book.pdf(), args);
    let lines = problems(&out);
    assert_eq!(code, 0, "{out}");
    assert_eq!(lines.len(), 1, "one problem expected:\n{out}");
    assert!(lines[0].starts_with(start), "{out}");
    assert!(lines[0].contains(has), "{out}");
    out
}

#[test]
fn without_a_trim_box_the_media_box_is_the_trim_with_a_warning() {
    // What word processors and cairo write: no TrimBox. The MediaBox is the trim.
    let mut b = Book::new(24);
    b.no_trim = vec![3, 4, 5, 9];
    warns_one(
        &b,
        &[],
        "WARN pages 3-5, 9: ",
        "no TrimBox: the MediaBox, 6 x 9 in, is taken as the trim",
    );
    // Text 10 pt from the edge of such a page is still outside the safe area.
    let b = b.with(4, "BT /F1 10 Tf 72 630 Td (Top) Tj ET");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL page 4: text outside the safe area on the top edge"),
        "{out}"
    );
    // 6.125 x 9.25 in is 6 x 9 with bleed on the outside, top and bottom: read so, and
    // the background running into the bleed is bleed art, not a safe-area failure.
    let mut b = Book::new(24).with(3, "0.2 g -9 -9 200 100 re f");
    b.bleed = 9.0;
    b.no_trim = (1..=24).collect();
    let out = warns_one(
        &b,
        &[],
        "WARN pages 1-24: ",
        "no TrimBox: the MediaBox, 6.125 x 9.25 in, is read as a 6 x 9 in trim with 0.125 in bleed",
    );
    assert!(out.contains("trim 6 x 9 in, bleed 0.125 in"), "{out}");
    // A MediaBox of no listed size plus bleed is taken as it is: 6.3 x 9.25 in is a
    // custom trim (a second warning), never a bleed read into it.
    let mut b = Book::new(24);
    b.trim = (6.3 * IN, 9.25 * IN);
    b.no_trim = (1..=24).collect();
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "WARN pages 1-24: no TrimBox: the MediaBox, 6.3 x 9.25 in, is taken as the trim"
        ),
        "{out}"
    );
    assert!(out.contains("trim 6.3 x 9.25 in is a custom size"), "{out}");
}

#[test]
fn trim_sizes_outside_the_range_fail_and_custom_ones_warn() {
    let mut b = Book::new(24);
    b.trim = (3.0 * IN, 5.0 * IN);
    fails_one(
        &b,
        &[],
        "FAIL: ",
        "trim 3 x 5 in is outside the printable range",
    );
    b.trim = (7.0 * IN, 7.0 * IN);
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        problems(&out)[0].starts_with("WARN: trim 7 x 7 in is a custom size"),
        "{out}"
    );
}

#[test]
fn bleed_must_be_none_or_an_eighth_inch() {
    let mut b = Book::new(24);
    b.bleed = 0.2 * IN;
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 1, "{out}");
    for side in ["outside", "top", "bottom"] {
        assert!(
            out.contains(&format!(
                "FAIL pages 1-24: bleed on the {side} edge is not 0 or 0.125 in: found 0.2 in"
            )),
            "{out}"
        );
    }
}

#[test]
fn page_counts_follow_each_service() {
    fails_one(&Book::new(20), &[], "FAIL: ", "20 pages, KDP allows 24-828");
    fails_one(
        &Book::new(16),
        &["--service", "ingram"],
        "FAIL: ",
        "16 pages, IngramSpark allows at least 18",
    );
    // 600 pages of 8.5 x 11: under 828 but over KDP's 590 for that trim.
    let mut b = Book::new(600);
    b.trim = (8.5 * IN, 11.0 * IN);
    fails_one(&b, &[], "FAIL: ", "600 pages, KDP allows 24-590");
    // Odd: KDP adds a page (a warning), IngramSpark refuses.
    let (code, out) = preflight(&Book::new(25).pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("WARN: 25 pages is odd"), "{out}");
    fails_one(
        &Book::new(25),
        &["--service", "ingram"],
        "FAIL: ",
        "25 pages is odd",
    );
}

#[test]
fn ink_and_text_in_the_margins_fail_on_the_right_side() {
    // Page 7 is a right-hand page: its gutter is on the left. 20 pt = 0.278 in < 0.375.
    let b = Book::new(24).with(7, "BT /F1 10 Tf 20 300 Td (Gutter) Tj ET");
    fails_one(
        &b,
        &[],
        "FAIL page 7: ",
        "text outside the safe area on the inside (gutter) edge: 0.278 in from the trim, needs at least 0.375 in",
    );
    // Page 8 is a left-hand page: its outside edge is on the left. A box 10 pt in.
    let b = Book::new(24).with(8, "0 g 10 300 20 20 re f");
    fails_one(
        &b,
        &[],
        "FAIL page 8: ",
        "ink outside the safe area on the outside edge: 0.139 in from the trim, needs at least 0.25 in",
    );
    // Ink past the trim of a book without bleed is outside too.
    let b = Book::new(24).with(2, "0 g 100 640 20 20 re f");
    fails_one(
        &b,
        &[],
        "FAIL page 2: ",
        "ink outside the safe area on the top edge: 0.167 in past the trim",
    );
    // IngramSpark's 0.5 in: text 30 pt (0.417 in) from the top passes KDP, not Ingram.
    let b = Book::new(24).with(11, "BT /F1 10 Tf 100 610 Td (Top) Tj ET");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    fails_one(
        &b,
        &["--service", "ingram"],
        "FAIL page 11: ",
        "on the top edge",
    );
    // Text may not run into the bleed even in a bleed book.
    let mut b = Book::new(24).with(5, "BT /F1 10 Tf 400 300 Td (Bleed) Tj ET");
    b.bleed = 9.0;
    fails_one(
        &b,
        &[],
        "FAIL page 5: ",
        "text outside the safe area on the outside edge",
    );
}

#[test]
fn the_gutter_grows_with_the_page_count() {
    // 0.45 in from the gutter: enough for 24-150 pages (0.375), not for 151-300 (0.5).
    let text = format!("BT /F1 10 Tf {} 300 Td (Hi) Tj ET", 0.45 * IN);
    let (code, out) = preflight(&Book::new(150).with(3, &text).pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    fails_one(
        &Book::new(160).with(3, &text),
        &[],
        "FAIL page 3: ",
        "inside (gutter) edge: 0.45 in from the trim, needs at least 0.5 in",
    );
}

#[test]
fn fonts_must_be_embedded_and_type3_warns() {
    let mut b = Book::new(24);
    b.font = FontKind::Bare;
    fails_one(
        &b,
        &[],
        "FAIL pages 1-24: ",
        "font Helvetica is not embedded",
    );
    b.font = FontKind::Type0Bare;
    fails_one(
        &b,
        &[],
        "FAIL pages 1-24: ",
        "font NoProgram is not embedded",
    );
    b.font = FontKind::Type3;
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("WARN pages 1-24: font"), "{out}");
    assert!(out.contains("Type 3"), "{out}");
}

#[test]
fn small_text_fails_with_its_effective_size() {
    let b = Book::new(24).with(2, "BT /F1 6 Tf 72 400 Td (Small) Tj ET");
    fails_one(
        &b,
        &[],
        "FAIL page 2: ",
        "text smaller than 7 pt: smallest 6 pt",
    );
    // 12 pt under a text matrix that halves it is 6 pt; under a CTM that doubles a
    // 4 pt font it is 8 pt, which passes.
    let b = Book::new(24)
        .with(3, "BT /F1 12 Tf 0.5 0 0 0.5 72 400 Tm (Half) Tj ET")
        .with(4, "q 2 0 0 2 0 0 cm BT /F1 4 Tf 40 200 Td (Twice) Tj ET Q");
    fails_one(&b, &[], "FAIL page 3: ", "smallest 6 pt");
}

#[test]
fn thin_lines_fail_and_hairlines_too() {
    let b = Book::new(24).with(9, "0 G 0.3 w 72 100 m 200 100 l S");
    fails_one(
        &b,
        &[],
        "FAIL page 9: ",
        "lines thinner than 0.5 pt: thinnest 0.3 pt",
    );
    let b = Book::new(24).with(10, "0 G 0 w 72 100 m 200 100 l S");
    fails_one(&b, &[], "FAIL page 10: ", "thinnest 0 pt");
    // 1 pt under a CTM that scales by 0.6: 0.6 pt, a warning.
    let b = Book::new(24).with(12, "q 0.6 0 0 0.6 100 100 cm 0 G 1 w 0 0 m 200 0 l S Q");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("WARN page 12: lines thinner than 0.75 pt"),
        "{out}"
    );
    assert!(out.contains("thinnest 0.6 pt"), "{out}");
    // Each message is worded for the service checked: no "KDP's figure" for IngramSpark.
    let (code, out) = preflight(&b.pdf(), &["--service", "ingram"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("WARN page 12: lines thinner than 0.75 pt (IngramSpark states no figure; thinner lines may print faintly): thinnest 0.6 pt"),
        "{out}"
    );
    assert!(!out.contains("KDP"), "{out}");
}

#[test]
fn rgb_warns_for_kdp_and_fails_for_ingram() {
    let b = Book::new(24).with(4, "1 0 0 rg 72 500 50 50 re f");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("WARN page 4: RGB colour (DeviceRGB)"), "{out}");
    fails_one(&b, &["--service", "ingram"], "FAIL page 4: ", "RGB colour");
    let mut b = Book::new(24);
    b.rgb_image = Some(6);
    let (_, out) = preflight(&b.pdf(), &[]);
    assert!(!out.contains("IngramSpark"), "{out}");
    fails_one(
        &b,
        &["--service", "ingram"],
        "FAIL page 6: ",
        "RGB colour (DeviceRGB)",
    );
    // A 1-pixel grey inline image over 100 pt is under 300 pixels per inch: a warning.
    let b = Book::new(24).with(
        7,
        "q 100 0 0 100 100 400 cm BI /W 1 /H 1 /BPC 8 /CS /DeviceGray ID x EI Q",
    );
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("WARN page 7: images under 300 pixels per inch on paper: lowest 1 ppi"),
        "{out}"
    );
    // White RGB (a page background) paints nothing and is not reported.
    let b = Book::new(24).with(4, "1 1 1 rg 0 0 432 648 re f");
    let (code, out) = preflight(&b.pdf(), &["--service", "ingram"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_false_pdfx_claim_fails() {
    let mut b = Book::new(24);
    b.pdfx = Some(("PDF/X-1a:2001", false));
    fails_one(
        &b,
        &[],
        "FAIL: ",
        "claims PDF/X-1a:2001 but has no GTS_PDFX output intent",
    );
    b.pdfx = Some(("PDF/X-1a:2001", true));
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    // X-1a with RGB: the claim fails (and KDP warns about the RGB itself).
    let b = b.with(5, "0 0 1 rg 72 500 50 50 re f");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL page 5: claims PDF/X-1a:2001 but uses RGB"),
        "{out}"
    );
    // An empty GTS_PDFXVersion is a malformed claim, said so (not "claims  but").
    let mut b = Book::new(24);
    b.pdfx = Some(("", true));
    fails_one(
        &b,
        &[],
        "FAIL: ",
        "GTS_PDFXVersion is empty: a malformed PDF/X claim",
    );
    b.pdfx = Some(("", false));
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "FAIL: claims PDF/X (with an empty version) but has no GTS_PDFX output intent"
        ),
        "{out}"
    );
    assert!(!out.contains("claims  but"), "{out}");
}

#[test]
fn json_reports_the_same_problems() {
    let b = Book::new(24).with(9, "0 G 0.3 w 72 100 m 200 100 l S");
    let (code, out) = preflight(&b.pdf(), &["--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pages"], 24);
    assert_eq!(v["service"], "kdp");
    let p = &v["problems"][0];
    assert_eq!(p["severity"], "fail");
    assert_eq!(p["rule"], "line-width");
    assert_eq!(p["pages"], serde_json::json!([9]));
}

#[test]
fn files_that_are_not_pdfs_are_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.pdf");
    std::fs::write(&text, "just some text\n").unwrap();
    fails_with(&["preflight", text.to_str().unwrap()], None, "not a PDF");
    // A PDF cut in half, and one with its bytes scrambled in the middle.
    let good = Book::new(24).pdf();
    let half = dir.path().join("half.pdf");
    std::fs::write(&half, &good[..good.len() / 2]).unwrap();
    let out = bin()
        .args(["preflight", half.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).lines().count() <= 1,
        "{out:?}"
    );
    for seed in 0..20u64 {
        let mut bad = good.clone();
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % bad.len();
            bad[i] = (x >> 32) as u8;
        }
        let f = dir.path().join(format!("bad{seed}.pdf"));
        std::fs::write(&f, &bad).unwrap();
        let out = bin()
            .args(["preflight", f.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "seed {seed}: {out:?}"
        );
        assert!(
            err.lines().count() <= 1 && !err.contains("panicked"),
            "seed {seed}: {err}"
        );
    }
    fails_with(
        &["preflight", "/no/such/file.pdf"],
        None,
        "cannot read /no/such/file.pdf",
    );
    // Usage errors are status 2.
    let out = bin().args(["preflight"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin()
        .args(["preflight", text.to_str().unwrap(), "--service", "lulu"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_page_that_cannot_be_checked_fails_and_names_itself() {
    // An inline image without a colour space (which made lopdf's content parser
    // panic): read, and its box warned of as pixels preflight cannot see.
    let b = Book::new(24).with(3, "BI /W 1 /H 1 /BPC 8 ID x EI");
    let (code, out) = preflight(&b.pdf(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        problems(&out).iter().any(|l| l.starts_with(
            "WARN page 3: an image whose pixels preflight cannot see (no colour space)"
        )),
        "{out}"
    );
    // A stray ')' before the ink: the page fails, naming the byte, never passes by
    // silence (everything after such a token was dropped before).
    let b = Book::new(24).with(3, ") 0 0 432 648 re f");
    fails_one(
        &b,
        &[],
        "FAIL page 3: ",
        "the page cannot be checked: its content cannot be read past byte",
    );
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("inline.pdf");
    std::fs::write(&f, b.pdf()).unwrap();
    let out = bin()
        .args(["preflight", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.stderr.is_empty(), "{out:?}");
    // A page whose content decompresses past 16 MB (from a few KB of file).
    let bomb = "0 0 m\n".repeat(3 << 20);
    let b = Book::new(24).with(4, &bomb);
    let bytes = b.pdf();
    assert!(bytes.len() < 200_000, "{}", bytes.len());
    let (code, out) = preflight(&bytes, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL page 4: the page cannot be checked: its content cannot be read"),
        "{out}"
    );
    // q nested past the bound.
    let b = Book::new(24).with(6, &"q ".repeat(300));
    fails_one(
        &b,
        &[],
        "FAIL page 6: ",
        "graphics states nest deeper than 256",
    );
}

/// Our own books: the default A4 template and the 6 x 9 bleed template. Their reports
/// are printed (run with --nocapture to read them); KDP must pass.
#[test]
fn our_books() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["default.toml", "flip-6x9.toml"] {
        let out = dir.path().join(format!("{name}.pdf"));
        let res = bin()
            .args([
                "book",
                "--template",
                template(name).to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            res.status.success(),
            "{}",
            String::from_utf8_lossy(&res.stderr)
        );
        let bytes = std::fs::read(&out).unwrap();
        for service in ["kdp", "ingram"] {
            let (code, report) = preflight(&bytes, &["--service", service]);
            println!("{name} --service {service}: exit {code}\n{report}");
            if service == "kdp" {
                assert_eq!(code, 0, "{name}: {report}");
            }
            assert!(
                report.lines().last().unwrap().contains("preflight"),
                "{report}"
            );
        }
    }
}
