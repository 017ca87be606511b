//! `color = "gray" | "cmyk"` in a template, checked from the PDF's content streams:
//! a grey book holds no RGB (or CMYK) colour at all; a CMYK book holds no RGB, prints
//! black text on the black plate alone, and names its printing condition in an output
//! intent without claiming PDF/X.

use crate::common::*;
use lopdf::{Document, Object};

/// Every page's decoded content operations: (operator, numeric operands).
fn operations(doc: &Document) -> Vec<(String, Vec<f32>)> {
    let mut ops = Vec::new();
    for (_, page) in doc.get_pages() {
        for op in doc.get_and_decode_page_content(page).unwrap().operations {
            let nums = op
                .operands
                .iter()
                .filter_map(|o| o.as_float().ok())
                .collect();
            ops.push((op.operator, nums));
        }
    }
    ops
}

/// The default template (all five games) with `color = MODE`; the book's and the
/// cover's PDFs.
fn book_and_cover(mode: &str) -> (Document, Document) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(template("default.toml")).unwrap();
    let t = dir.path().join("t.toml");
    // The template's own colour mode replaced by `mode`.
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("color ="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&t, format!("color = \"{mode}\"\n{text}")).unwrap();
    let (book, cover) = (dir.path().join("b.pdf"), dir.path().join("c.pdf"));
    for (cmd, out) in [("book", &book), ("cover", &cover)] {
        stdout_of(&[
            "-q",
            cmd,
            "--template",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
    }
    (
        Document::load(&book).unwrap(),
        Document::load(&cover).unwrap(),
    )
}

const RGB_OPS: [&str; 6] = ["rg", "RG", "sc", "SC", "scn", "SCN"];

fn no_rgb_anywhere(doc: &Document, what: &str) {
    let ops = operations(doc);
    assert!(!ops.is_empty(), "{what}: no content");
    for (op, _) in &ops {
        assert!(
            !RGB_OPS.contains(&op.as_str()),
            "{what}: colour operator {op}"
        );
    }
    // No RGB colour space or image anywhere in the file either.
    for (_, obj) in doc.objects.iter() {
        let dict = match obj {
            Object::Dictionary(d) => d,
            Object::Stream(s) => &s.dict,
            _ => continue,
        };
        for (_, v) in dict.iter() {
            if let Ok(name) = v.as_name() {
                assert_ne!(name, b"DeviceRGB", "{what}: a DeviceRGB colour space");
            }
        }
    }
}

#[test]
fn grey_books_hold_no_rgb_or_cmyk_and_their_covers_print_in_process_colour() {
    let (book, cover) = book_and_cover("gray");
    // A cover prints in colour even for a black-ink interior: a grey book's cover is
    // CMYK (never RGB), with its coloured background.
    no_rgb_anywhere(&cover, "grey book's cover");
    let cover_ops = operations(&cover);
    assert!(
        cover_ops
            .iter()
            .any(|(op, n)| op == "k" && n.len() == 4 && (n[0] > 0.0 || n[1] > 0.0 || n[2] > 0.0)),
        "the cover of a grey book has no process colour"
    );
    for (doc, what) in [(&book, "grey book")] {
        no_rgb_anywhere(doc, what);
        let ops = operations(doc);
        assert!(ops.iter().all(|(op, _)| op != "k" && op != "K"), "{what}");
        assert!(
            ops.iter().any(|(op, _)| op == "g"),
            "{what}: no grey fill at all"
        );
        // Grey levels are levels: 0 to 1.
        for (op, n) in &ops {
            if op == "g" || op == "G" {
                assert!(
                    n.len() == 1 && (0.0..=1.0).contains(&n[0]),
                    "{what}: {op} {n:?}"
                );
            }
        }
    }
}

#[test]
fn cmyk_books_print_black_on_the_black_plate_and_name_their_condition() {
    let (book, cover) = book_and_cover("cmyk");
    for (doc, what) in [(&book, "cmyk book"), (&cover, "cmyk cover")] {
        no_rgb_anywhere(doc, what);
        // The output intent: GTS_PDFX subtype, a registered condition, no PDF/X claim.
        let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
        let catalog = doc.get_dictionary(root).unwrap();
        let intents = catalog.get(b"OutputIntents").unwrap().as_array().unwrap();
        let intent = doc
            .get_dictionary(intents[0].as_reference().unwrap())
            .unwrap();
        assert_eq!(intent.get(b"S").unwrap().as_name().unwrap(), b"GTS_PDFX");
        assert!(intent.get(b"OutputConditionIdentifier").is_ok());
        if let Ok(info) = doc.trailer.get(b"Info").and_then(Object::as_reference) {
            assert!(doc
                .get_dictionary(info)
                .unwrap()
                .get(b"GTS_PDFXVersion")
                .is_err());
        }
    }
    // Greys (black text and lines first) use the black plate alone: no colour mixes
    // equal cyan, magenta and yellow; and text is mostly pure black.
    let mut fill = Vec::new();
    let (mut runs, mut black) = (0, 0);
    for (op, n) in operations(&book) {
        match op.as_str() {
            "k" | "K" => {
                assert_eq!(n.len(), 4, "{op} {n:?}");
                assert!(
                    !(n[0] > 0.0 && n[0] == n[1] && n[1] == n[2]),
                    "a grey mixed from four inks: {op} {n:?}"
                );
                if op == "k" {
                    fill = n;
                }
            }
            "Tj" | "TJ" => {
                runs += 1;
                black += usize::from(fill == [0.0, 0.0, 0.0, 1.0]);
            }
            _ => {}
        }
    }
    assert!(
        runs > 100 && black * 2 > runs,
        "{black} of {runs} text runs in black"
    );
}

/// Each page's operations without the colour ones.
fn drawing(doc: &Document) -> Vec<Vec<(String, Vec<f32>)>> {
    doc.get_pages()
        .into_values()
        .map(|page| {
            doc.get_and_decode_page_content(page)
                .unwrap()
                .operations
                .into_iter()
                .filter(|op| !["rg", "RG", "g", "G", "k", "K"].contains(&op.operator.as_str()))
                .map(|op| {
                    let n = op
                        .operands
                        .iter()
                        .filter_map(|o| o.as_float().ok())
                        .collect();
                    (op.operator, n)
                })
                .collect()
        })
        .collect()
}

#[test]
fn colour_mode_changes_only_the_colours_of_games_without_a_grey_style() {
    // Four games whose colours only help: in grey and CMYK the drawing is the same,
    // operator for operator; only the colour operators differ.
    let dir = tempfile::tempdir().unwrap();
    let body = "[[section]]\ngame = \"flip\"\ncount = 3\nparams = { size = 4 }\n[[section]]\ngame = \"numbrix\"\ncount = 2\nparams = { size = 5 }\n[[section]]\ngame = \"number_match\"\ncount = 2\n[[section]]\ngame = \"carcassonne\"\ncount = 2\n";
    let mut docs = Vec::new();
    for mode in ["rgb", "gray", "cmyk", "gray"] {
        let t = dir.path().join(format!("{mode}.toml"));
        std::fs::write(&t, format!("title = \"T\"\ncolor = \"{mode}\"\n{body}")).unwrap();
        let out = dir.path().join(format!("{mode}.pdf"));
        stdout_of(&[
            "-q",
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        docs.push(std::fs::read(&out).unwrap());
    }
    // The same template makes the same bytes.
    assert_eq!(docs[1], docs[3]);
    let rgb = drawing(&Document::load_mem(&docs[0]).unwrap());
    for d in &docs[1..3] {
        assert_eq!(drawing(&Document::load_mem(d).unwrap()), rgb);
    }
}
