//! The full-wrap cover, checked from the PDF bytes against KDP's published figures,
//! and the trim sizes a template may ask for.

mod common;
use common::*;
use lopdf::Document;
use puzzlebook::book::cover::{self, CoverGeometry};
use puzzlebook::book::template::{Paper, Template};
use puzzlebook::book::{compose, BookOptions};
use puzzlebook::canvas::{Rect, Shape, MM_PER_PT};

const PT_PER_IN: f32 = 72.0;

fn box_of(doc: &Document, key: &[u8]) -> Vec<f32> {
    let (_, page) = doc.get_pages().into_iter().next().unwrap();
    doc.get_dictionary(page)
        .unwrap()
        .get(key)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_float().unwrap())
        .collect()
}

/// Make the interior and the cover of `template`; (interior pages, cover PDF bytes,
/// stderr of the cover command).
fn interior_and_cover(template: &str, paper: &str) -> (usize, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pdf");
    let cov = dir.path().join("cover.pdf");
    let t = common::template(template);
    stdout_of(&[
        "-q",
        "book",
        "--template",
        t.to_str().unwrap(),
        "--out",
        book.to_str().unwrap(),
    ]);
    let out = bin()
        .args([
            "-q",
            "cover",
            "--template",
            t.to_str().unwrap(),
            "--paper",
            paper,
            "--out",
            cov.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages = Document::load(&book).unwrap().get_pages().len();
    (
        pages,
        std::fs::read(&cov).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether the page's content turns text a quarter (a spine line).
fn has_turned_text(doc: &Document) -> bool {
    let (_, page) = doc.get_pages().into_iter().next().unwrap();
    let content = doc.get_and_decode_page_content(page).unwrap();
    content.operations.iter().any(|op| {
        op.operator == "Tm"
            && op
                .operands
                .iter()
                .take(4)
                .map(|o| o.as_float().unwrap())
                .collect::<Vec<_>>()
                == [0.0, -1.0, 1.0, 0.0]
    })
}

#[test]
fn cover_size_follows_kdp_formula_from_the_interior_page_count() {
    // KDP: width = 0.125 + trim + pages x paper + trim + 0.125 in; height = trim + 0.25 in.
    for (template, paper, per_page, trim_w, trim_h) in [
        ("numbrix-6x9.toml", "cream", 0.0025f32, 6.0f32, 9.0f32),
        ("flip-6x9.toml", "white", 0.002252, 6.0, 9.0),
        ("number-match.toml", "color", 0.002347, 8.2677, 11.6929),
    ] {
        let (pages, pdf, _) = interior_and_cover(template, paper);
        let doc = Document::load_mem(&pdf).unwrap();
        assert_eq!(doc.get_pages().len(), 1, "{template}");
        let want_w = (0.25 + 2.0 * trim_w + pages as f32 * per_page) * PT_PER_IN;
        let want_h = (trim_h + 0.25) * PT_PER_IN;
        let media = box_of(&doc, b"MediaBox");
        assert!(
            (media[2] - want_w).abs() < 0.1 && (media[3] - want_h).abs() < 0.1,
            "{template}: {media:?} vs {want_w} x {want_h}"
        );
        assert_eq!(box_of(&doc, b"BleedBox"), media, "{template}");
        // The trim box is the sheet less 0.125 in on every edge.
        let trim = box_of(&doc, b"TrimBox");
        let b = 0.125 * PT_PER_IN;
        for (got, want) in trim.iter().zip([b, b, want_w - b, want_h - b]) {
            assert!((got - want).abs() < 0.1, "{template}: {trim:?}");
        }
    }
}

#[test]
fn spine_text_only_from_80_pages() {
    let (pages, pdf, _) = interior_and_cover("numbrix-6x9.toml", "white");
    assert!(pages >= 80);
    assert!(has_turned_text(&Document::load_mem(&pdf).unwrap()));
    let (pages, pdf, err) = interior_and_cover("flip-6x9.toml", "white");
    assert!(pages < 80);
    assert!(!has_turned_text(&Document::load_mem(&pdf).unwrap()));
    assert!(err.contains("no spine text"), "{err}");
}

/// The ink box of a text shape, from its origin, size and the measured advance.
fn text_box(s: &Shape) -> Option<Rect> {
    let Shape::Text {
        origin,
        size,
        face,
        text,
        down,
        ..
    } = s
    else {
        return None;
    };
    let w = puzzlebook::canvas::text_width(text, *size, *face);
    let em = size * MM_PER_PT;
    Some(if *down {
        Rect::new(origin.x - 0.236 * em, origin.y, 1.164 * em, w)
    } else {
        Rect::new(origin.x, origin.y - 0.928 * em, w, 1.164 * em)
    })
}

fn inside(r: &Rect, area: &Rect) -> bool {
    r.x >= area.x - 1e-3
        && r.y >= area.y - 1e-3
        && r.right() <= area.right() + 1e-3
        && r.bottom() <= area.bottom() + 1e-3
}

fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
}

#[test]
fn text_keeps_to_the_safe_zones_and_the_barcode_box_stays_clear() {
    let safe = 0.125 * 25.4;
    let spine_safe = 0.0625 * 25.4;
    for name in ["numbrix-6x9.toml", "default.toml", "catan-almanac.toml"] {
        let t = Template::load(&common::template(name)).unwrap();
        let interior = compose(&t, &BookOptions::default()).unwrap();
        let (g, canvas, spine_text, _) = cover::compose(&t, &interior, Paper::White).unwrap();
        let g: CoverGeometry = g;
        let panels = [g.back().inset(safe), g.front().inset(safe)];
        let spine = Rect::new(
            g.trim_w + spine_safe,
            safe,
            g.spine - 2.0 * spine_safe,
            g.trim_h - 2.0 * safe,
        );
        let mut turned = 0;
        for s in &canvas.shapes {
            let Some(b) = text_box(s) else { continue };
            if matches!(s, Shape::Text { down: true, .. }) {
                turned += 1;
                assert!(
                    inside(&b, &spine),
                    "{name}: spine text {b:?} outside {spine:?}"
                );
            } else {
                assert!(
                    panels.iter().any(|p| inside(&b, p)),
                    "{name}: text {s:?} outside the safe zones"
                );
            }
            assert!(
                !overlaps(&b, &g.barcode()),
                "{name}: text on the barcode box"
            );
            assert!(
                canvas.min_text_pt().unwrap() >= 7.0,
                "{name}: text under 7 pt"
            );
        }
        assert_eq!(turned, usize::from(spine_text), "{name}");
        // The barcode box: 2 x 1.2 in, 0.25 in above the bottom trim and from the spine,
        // and the last thing painted there is white.
        let bar = g.barcode();
        assert!((bar.w - 50.8).abs() < 1e-3 && (bar.h - 30.48).abs() < 1e-3);
        assert!((g.trim_w - bar.right() - 6.35).abs() < 1e-3);
        assert!((g.trim_h - bar.bottom() - 6.35).abs() < 1e-3);
        let last = canvas
            .shapes
            .iter()
            .rev()
            .find(|s| {
                let b = match s {
                    Shape::Path { points, .. } => {
                        let xs = points.iter().map(|p| p.x);
                        let ys = points.iter().map(|p| p.y);
                        let (x0, x1) = (
                            xs.clone().fold(f32::MAX, f32::min),
                            xs.fold(f32::MIN, f32::max),
                        );
                        let (y0, y1) = (
                            ys.clone().fold(f32::MAX, f32::min),
                            ys.fold(f32::MIN, f32::max),
                        );
                        Rect::new(x0, y0, x1 - x0, y1 - y0)
                    }
                    Shape::Circle { center, radius, .. } => Rect::new(
                        center.x - radius,
                        center.y - radius,
                        2.0 * radius,
                        2.0 * radius,
                    ),
                    t => text_box(t).unwrap(),
                };
                overlaps(&b, &bar)
            })
            .unwrap();
        assert!(
            matches!(last, Shape::Path { fill: Some(c), .. } if *c == puzzlebook::canvas::Color::WHITE),
            "{name}: {last:?}"
        );
    }
}

#[test]
fn cover_template_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    let out = dir.path().join("c.pdf");
    for (cover, needle) in [
        ("background = \"navy\"", "cover.background"),
        ("paper = \"glossy\"", "glossy"),
        ("colour = \"#000000\"", "colour"),
    ] {
        std::fs::write(
            &t,
            format!("title = \"T\"\n[cover]\n{cover}\n[[section]]\ngame = \"flip\"\ncount = 2\n"),
        )
        .unwrap();
        fails_with(
            &[
                "cover",
                "--template",
                t.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            None,
            needle,
        );
        assert!(!out.exists());
    }
}

#[test]
fn trim_sizes_listed_and_custom() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    let out = dir.path().join("b.pdf");
    for (size, w_in, h_in) in [
        ("5x8", 5.0f32, 8.0f32),
        ("5.25x8", 5.25, 8.0),
        ("5.5x8.5", 5.5, 8.5),
        ("7x10", 7.0, 10.0),
        ("8x10", 8.0, 10.0),
        ("8.25x11", 8.25, 11.0),
        ("8.5x11", 8.5, 11.0),
        ("a5", 148.0 / 25.4, 210.0 / 25.4),
        ("6.14x9.21in", 6.14, 9.21),
        ("170x240mm", 170.0 / 25.4, 240.0 / 25.4),
    ] {
        std::fs::write(
            &t,
            format!("title = \"T\"\npage_size = \"{size}\"\n[[section]]\ngame = \"flip\"\ncount = 2\nparams = {{ size = 4 }}\n"),
        )
        .unwrap();
        stdout_of(&[
            "-q",
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let doc = Document::load(&out).unwrap();
        let trim = box_of(&doc, b"TrimBox");
        assert!(
            (trim[2] - trim[0] - w_in * PT_PER_IN).abs() < 0.1
                && (trim[3] - trim[1] - h_in * PT_PER_IN).abs() < 0.1,
            "{size}: {trim:?}"
        );
    }
    for (size, needle) in [
        ("3x5", "outside the custom range"),
        ("9x12in", "outside the custom range"),
        ("b5", "not a trim size"),
    ] {
        std::fs::write(
            &t,
            format!(
                "title = \"T\"\npage_size = \"{size}\"\n[[section]]\ngame = \"flip\"\ncount = 2\n"
            ),
        )
        .unwrap();
        fails_with(
            &[
                "book",
                "--template",
                t.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
            None,
            needle,
        );
    }
}

#[test]
fn ingram_margins_are_half_an_inch() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    let out = dir.path().join("b.pdf");
    let body = "[[section]]\ngame = \"flip\"\ncount = 2\n";
    // 10 mm passes KDP's 0.25 in but not IngramSpark's 0.5 in.
    std::fs::write(
        &t,
        format!("title = \"T\"\n[margins]\noutside = 10.0\n{body}"),
    )
    .unwrap();
    stdout_of(&[
        "-q",
        "book",
        "--template",
        t.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    std::fs::write(
        &t,
        format!("title = \"T\"\nservice = \"ingram\"\ncolor = \"gray\"\n[margins]\noutside = 10.0\n{body}"),
    )
    .unwrap();
    fails_with(
        &[
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        None,
        "IngramSpark's minimum of 12.7 mm",
    );
    // IngramSpark asks for CMYK or grey: an RGB book for it is refused up front.
    std::fs::write(&t, format!("title = \"T\"\nservice = \"ingram\"\n{body}")).unwrap();
    fails_with(
        &[
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        None,
        "IngramSpark asks for CMYK or grey",
    );
}
