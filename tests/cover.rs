//! The full-wrap cover, checked from the PDF bytes against KDP's published figures,
//! and the trim sizes a template may ask for.

mod common;
use common::*;
use lopdf::Document;
use puzzlebook::book::cover::{self, CoverGeometry};
use puzzlebook::book::template::{Paper, Template};
use puzzlebook::book::{compose, BookOptions};
use puzzlebook::canvas::{Rect, Shape, MM_PER_PT};
use puzzlebook::games::Games;

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
    // Every shipped template (each theme), and one as a large-print second volume
    // (the marks' band across the top of the front).
    let mut cases: Vec<(String, Template, BookOptions)> = SHIPPED
        .iter()
        .map(|n| {
            let t = Template::load::<Games>(&common::template(n)).unwrap();
            (n.to_string(), t, BookOptions::default())
        })
        .collect();
    let mut big = Template::load::<Games>(&common::template("numbrix-6x9.toml")).unwrap();
    big.large_print = true;
    cases.push((
        "numbrix-6x9.toml, large print, volume 2".into(),
        big,
        BookOptions {
            volume: Some(2),
            ..BookOptions::default()
        },
    ));
    for (name, t, opts) in &cases {
        let interior = compose::<Games>(t, opts).unwrap();
        let (g, canvas, spine_text, _) = cover::compose(t, &interior, Paper::White).unwrap();
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
        ("accent = \"#12345\"", "cover.accent"),
        ("theme = \"waves\"", "waves"),
        (
            "blurb = \"Visit https://www.example.com/a-very-long-path/that-goes-on-and-on/and-on-and-on-without-a-single-space/anywhere/at-all-really\"",
            "cover.blurb has a word of",
        ),
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
    std::fs::write(
        &t,
        format!("title = \"T\"\nservice = \"ingram\"\ncolor = \"rgb\"\n{body}"),
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
        "IngramSpark asks for CMYK or grey",
    );
}

/// The numbers drawn as text on a canvas, in drawing order.
fn numbers_of(c: &puzzlebook::canvas::Canvas) -> Vec<u32> {
    c.shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text { text, .. } => text.parse().ok(),
            _ => None,
        })
        .collect()
}

/// The front's puzzle is the book's hardest by the stars printed inside: find the
/// interior page whose puzzle has the art's givens and read its stars from the page.
#[test]
fn front_art_is_a_hardest_puzzle_of_the_book() {
    for name in [
        "numbrix-6x9.toml",
        "hidato-shapes-6x9.toml",
        "number-match.toml",
    ] {
        let t = Template::load::<Games>(&common::template(name)).unwrap();
        let interior = compose::<Games>(&t, &BookOptions::default()).unwrap();
        let art = interior.cover.art.as_ref().expect("art");
        let page_stars = |p: &puzzlebook::canvas::Canvas| {
            p.shapes
                .iter()
                .filter_map(|s| match s {
                    Shape::Text { text, .. } if text.contains('★') => {
                        Some(text.chars().filter(|&c| c == '★').count())
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let most = interior
            .pages
            .iter()
            .flat_map(page_stars)
            .max()
            .expect("stars inside");
        let want = {
            let mut v = numbers_of(art);
            v.sort_unstable();
            v
        };
        assert!(
            want.len() >= 5,
            "{name}: the art has {} numbers",
            want.len()
        );
        // The page that holds every one of the art's numbers (with their counts).
        let holds = |p: &puzzlebook::canvas::Canvas| {
            let mut have = numbers_of(p);
            want.iter().all(|n| match have.iter().position(|h| h == n) {
                Some(k) => {
                    have.swap_remove(k);
                    true
                }
                None => false,
            })
        };
        let pages: Vec<usize> = (0..interior.pages.len())
            .filter(|&i| !page_stars(&interior.pages[i]).is_empty() && holds(&interior.pages[i]))
            .collect();
        assert!(
            !pages.is_empty(),
            "{name}: no page holds the front's puzzle"
        );
        assert!(
            pages
                .iter()
                .any(|&i| page_stars(&interior.pages[i]).contains(&most)),
            "{name}: the front's puzzle is on pages {pages:?}, none at the book's most stars ({most})"
        );
    }
}

/// Unrated games (Catan): the front shows a colour board, not the greyscale section's.
#[test]
fn unrated_front_art_is_in_colour() {
    let t = Template::load::<Games>(&common::template("catan-almanac.toml")).unwrap();
    let interior = compose::<Games>(&t, &BookOptions::default()).unwrap();
    let art = interior.cover.art.as_ref().expect("art");
    assert!(art.fill_colours() >= 5, "{} colours", art.fill_colours());
}

/// Sum of the numbers `N` written "N <game>" in `text` for each game name.
fn counted(text: &str, games: &[&str]) -> usize {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut total = 0;
    for w in 0..words.len().saturating_sub(1) {
        if let Ok(n) = words[w].parse::<usize>() {
            let rest = words[w + 1..].join(" ");
            if games.iter().any(|g| rest.starts_with(g)) {
                total += n;
            }
        }
    }
    total
}

/// The back says what is inside: the counts add up to the template's sections (read
/// from its TOML here), the stars to the rated games' counts, the pages to the
/// interior's, and the answers are promised only when the book has them.
#[test]
fn back_cover_says_whats_inside() {
    let games = [
        "Flip",
        "Numbrix",
        "Hidato",
        "Number Match",
        "Catan",
        "Carcassonne",
    ];
    for name in SHIPPED {
        let path = common::template(name);
        let raw: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let sections = raw["section"].as_array().unwrap();
        let count = |filter: &dyn Fn(&str) -> bool| -> usize {
            sections
                .iter()
                .filter(|s| filter(s["game"].as_str().unwrap()))
                .map(|s| s["count"].as_integer().unwrap() as usize)
                .sum()
        };
        let total = count(&|_| true);
        let rated = count(&|g| g != "catan");
        let t = Template::load::<Games>(&path).unwrap();
        let made = cover::build::<Games>(&t, &BookOptions::default(), None).unwrap();
        let doc = Document::load_mem(&made.pdf).unwrap();
        let text = page_texts(&doc).join(" ");
        let inside = text
            .split("What’s inside")
            .nth(1)
            .unwrap_or_else(|| panic!("{name}: no \"What’s inside\" in {text}"));
        // Up to the pages line, "172 pages." or "172 pages in large print." (the
        // spine and the sample follow).
        let pages = inside.find(" pages").expect("a pages line");
        let end = pages + inside[pages..].find('.').expect("a pages sentence") + 1;
        let (inside, after) = inside.split_at(end);
        assert_eq!(counted(inside, &games), total, "{name}: {inside}");
        // "★★ 4": the number after each run of stars.
        let words: Vec<&str> = inside.split_whitespace().collect();
        let starred: usize = words
            .windows(2)
            .filter(|w| !w[0].is_empty() && w[0].chars().all(|c| c == '★'))
            .map(|w| w[1].parse::<usize>().unwrap())
            .sum();
        assert_eq!(starred, rated, "{name}: {inside}");
        let large = raw.get("large_print").and_then(|v| v.as_bool()) == Some(true);
        let print = if large { " in large print" } else { "" };
        assert!(
            inside.contains(&format!("{} pages{print}.", made.interior_pages)),
            "{name}: {inside}"
        );
        let catan_only = rated == 0;
        assert_eq!(
            after
                .trim_start()
                .starts_with("Answers to every puzzle at the back."),
            !catan_only && count(&|g| g == "catan") == 0,
            "{name}: {inside}"
        );
        assert!(text.contains("from inside"), "{name}: no sample caption");
        // A cover shows the puzzle, never a play aid (Number Match's spare copy).
        assert!(
            !text.contains("Spare copy"),
            "{name}: a spare copy on the cover"
        );
        // The front's marks, only for the books that have them.
        assert_eq!(text.contains("LARGE PRINT"), large, "{name}");
        assert!(
            !text.contains("VOLUME"),
            "{name}: a volume only by --volume"
        );
    }
}

#[test]
fn large_print_and_volume_are_marked_on_the_front() {
    let mut t = Template::load::<Games>(&common::template("flip-6x9.toml")).unwrap();
    t.large_print = true;
    let opts = BookOptions {
        volume: Some(3),
        ..BookOptions::default()
    };
    let made = cover::build::<Games>(&t, &opts, None).unwrap();
    let text = page_texts(&Document::load_mem(&made.pdf).unwrap())
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // Each on its own line, in that order, before the title.
    let title = t.title.split_whitespace().collect::<Vec<_>>().join(" ");
    let marks = text.find("LARGE PRINT VOLUME 3").expect(&text);
    assert!(text[marks..].contains(&title), "{text}");
    assert!(!text.contains("LARGE PRINT ·"), "{text}");
    // The subtitle is the template's own: the volume is the mark's, not repeated.
    assert!(!text.contains(", Volume 3"), "{text}");
}

/// Each volume's spine names its volume (and the book's own spine names none), so a
/// row of a series on a shelf tells its volumes apart.
#[test]
fn the_spine_names_the_volume() {
    let t = Template::load::<Games>(&common::template("numbrix-large-print.toml")).unwrap();
    let spine_of = |volume: Option<u32>| {
        let opts = BookOptions {
            volume,
            ..BookOptions::default()
        };
        let made = cover::build::<Games>(&t, &opts, None).unwrap();
        assert!(made.spine_text, "{:?}", made.warnings);
        let doc = Document::load_mem(&made.pdf).unwrap();
        common::turned_texts(&doc)
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (one, two, three) = (spine_of(None), spine_of(Some(2)), spine_of(Some(3)));
    assert_eq!(
        one,
        format!("{} · {}", t.title, t.author),
        "the spine of a book that is no volume"
    );
    assert_eq!(two, format!("{} · Volume 2 · {}", t.title, t.author));
    assert_eq!(three, format!("{} · Volume 3 · {}", t.title, t.author));
}

/// The words of a one-page PDF and their boxes in points from the sheet's top-left
/// corner, as poppler's pdftotext reads them (`-bbox`).
fn words_with_boxes(pdftotext: &std::path::Path, pdf: &std::path::Path) -> Vec<(String, [f32; 4])> {
    let out = std::process::Command::new(pdftotext)
        .arg("-bbox")
        .arg(pdf)
        .arg("-")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = String::from_utf8(out.stdout).unwrap();
    let attr = |line: &str, key: &str| -> f32 {
        let at = line.find(&format!("{key}=\"")).unwrap() + key.len() + 2;
        line[at..].split('"').next().unwrap().parse().unwrap()
    };
    html.lines()
        .filter(|l| l.trim_start().starts_with("<word "))
        .map(|l| {
            let text = l.split('>').nth(1).unwrap().split('<').next().unwrap();
            let text = text.replace("&amp;", "&").replace("&#39;", "'");
            let b = [
                attr(l, "xMin"),
                attr(l, "yMin"),
                attr(l, "xMax"),
                attr(l, "yMax"),
            ];
            (text, b)
        })
        .collect()
}

/// WCAG relative luminance of an sRGB pixel.
fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    let lin = |v: u8| {
        let c = f64::from(v) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// A rendered page: width, height and RGB bytes.
struct Picture {
    w: usize,
    h: usize,
    rgb: Vec<u8>,
}

impl Picture {
    fn at(&self, x: usize, y: usize) -> (u8, u8, u8) {
        let k = (y * self.w + x) * 3;
        (self.rgb[k], self.rgb[k + 1], self.rgb[k + 2])
    }
    /// In the pixel box `b` (x0, y0, x1, y1): the commonest colour (the ground the
    /// text stands on), the tallest run of rows holding ink (pixels at 3:1 or more
    /// against the ground), and the best contrast of any pixel with the ground.
    fn legibility(&self, b: [usize; 4]) -> ((u8, u8, u8), usize, f64) {
        let [x0, y0, x1, y1] = [b[0], b[1], b[2].min(self.w), b[3].min(self.h)];
        let mut freq = std::collections::HashMap::new();
        for y in y0..y1 {
            for x in x0..x1 {
                *freq.entry(self.at(x, y)).or_insert(0usize) += 1;
            }
        }
        let ground = *freq.iter().max_by_key(|(_, n)| **n).unwrap().0;
        let (mut run, mut tallest, mut best) = (0, 0, 1.0f64);
        for y in y0..y1 {
            let inked: Vec<f64> = (x0..x1)
                .map(|x| contrast(self.at(x, y), ground))
                .filter(|&c| c >= 3.0)
                .collect();
            if inked.len() >= 2 {
                run += 1;
                tallest = tallest.max(run);
                best = inked.iter().copied().fold(best, f64::max);
            } else {
                run = 0;
            }
        }
        (ground, tallest, best)
    }
}

/// Each shipped cover rendered by poppler at 150 px across its front, with its words
/// found by pdftotext: on the front, the title's lines, the count plate ("150
/// PUZZLES", the count read from the template's sections here) and, on a large-print
/// book, LARGE PRINT each stand at least 7 px tall with a contrast of 4.5:1 or more
/// against what they stand on; the themes give the shipped books different colours.
/// poppler-utils comes from Debian (`.ci/run` installs it); without it the test says
/// so and passes, unless CI is set.
#[test]
fn every_front_reads_as_a_150_px_thumbnail() {
    let Some(tools) =
        common::tools::require(&[&common::tools::PDFTOPPM, &common::tools::PDFTOTEXT])
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut grounds = std::collections::BTreeSet::new();
    for name in SHIPPED {
        let path = common::template(name);
        let raw: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let t = Template::load::<Games>(&path).unwrap();
        let made = cover::build::<Games>(&t, &BookOptions::default(), None).unwrap();
        let g = made.geometry;
        let pdf = dir.path().join("c.pdf");
        std::fs::write(&pdf, &made.pdf).unwrap();
        let dpi = 150.0 / (g.trim_w / 25.4);
        let out = std::process::Command::new(&tools[0])
            .args(["-png", "-singlefile", "-r", &format!("{dpi:.4}")])
            .arg(&pdf)
            .arg(dir.path().join("c"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let png = std::fs::File::open(dir.path().join("c.png")).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(png))
            .read_info()
            .unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgb).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb, "{name}");
        let picture = Picture {
            w: info.width as usize,
            h: info.height as usize,
            rgb,
        };
        // The front panel, in points from the sheet's left edge.
        let bleed_pt = 0.125 * 72.0;
        let front_x = bleed_pt + (g.trim_w + g.spine) / 25.4 * 72.0;
        let words: Vec<(String, [f32; 4])> = words_with_boxes(&tools[1], &pdf)
            .into_iter()
            .filter(|(_, b)| b[0] >= front_x)
            .collect();
        let px = |v: f32| (v / 72.0 * dpi).round().max(0.0) as usize;
        // The union box, in pixels, of the front's words in `wanted` (a run of them).
        let mut check = |what: &str, wanted: &[&str]| {
            let mut rows: Vec<[f32; 4]> = Vec::new();
            let mut at = 0;
            for (w, b) in &words {
                if at < wanted.len() && w == wanted[at] {
                    at += 1;
                    // Words on one line share their top; a new top starts a line.
                    match rows.last_mut() {
                        Some(r) if (r[1] - b[1]).abs() < 1.0 => {
                            r[0] = r[0].min(b[0]);
                            r[2] = r[2].max(b[2]);
                            r[3] = r[3].max(b[3]);
                        }
                        _ => rows.push(*b),
                    }
                } else if at < wanted.len() {
                    at = 0;
                    rows.clear();
                }
            }
            assert_eq!(
                at,
                wanted.len(),
                "{name}: no {wanted:?} on the front: {words:?}"
            );
            for r in rows {
                let b = [px(r[0]), px(r[1]), px(r[2]) + 1, px(r[3]) + 1];
                let (ground, tallest, best) = picture.legibility(b);
                assert!(
                    tallest >= 7,
                    "{name}: the {what}'s line is {tallest} px tall at 150 px across"
                );
                assert!(
                    best >= 4.5,
                    "{name}: the {what} has contrast {best:.2} on {ground:?}"
                );
                if what == "title" {
                    grounds.insert(ground);
                }
            }
        };
        let title = t.title.replace('\'', "’");
        check("title", &title.split_whitespace().collect::<Vec<_>>());
        // The count of the commonest kind of item: boards (Catan) or puzzles.
        let sections = raw["section"].as_array().unwrap();
        let count = |boards: bool| -> usize {
            sections
                .iter()
                .filter(|s| (s["game"].as_str().unwrap() == "catan") == boards)
                .map(|s| s["count"].as_integer().unwrap() as usize)
                .sum()
        };
        let (puzzles, boards) = (count(false), count(true));
        let plate = if puzzles >= boards {
            format!("{puzzles} PUZZLES")
        } else {
            format!("{boards} BOARDS")
        };
        check("count plate", &plate.split(' ').collect::<Vec<_>>());
        if raw.get("large_print").and_then(|v| v.as_bool()) == Some(true) {
            check("large-print band", &["LARGE", "PRINT"]);
        }
    }
    assert!(
        grounds.len() >= 5,
        "the shipped covers share their colours: {grounds:?}"
    );
}

/// A book of one puzzle has it on the front and says why the back has no sample.
#[test]
fn a_back_without_a_sample_says_why() {
    let mut t = Template::load::<Games>(&common::template("numbrix-6x9.toml")).unwrap();
    t.sections.truncate(1);
    t.sections[0].count = 1;
    let made = cover::build::<Games>(&t, &BookOptions::default(), None).unwrap();
    assert!(
        made.warnings
            .iter()
            .any(|w| w.contains("no sample puzzle: the book's one puzzle is on the front")),
        "{:?}",
        made.warnings
    );
}

#[test]
fn the_tests_that_need_a_tool_skip_without_their_tools() {
    assert_eq!(common::tools::check_skips_without_tools("cover"), 1);
}
