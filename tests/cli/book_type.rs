//! A template's own fonts and large print, checked from the PDF bytes.

use crate::common::*;
use lopdf::Document;

/// (base font name, embedded) of every font in the file.
fn fonts(doc: &Document) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (_, obj) in doc.objects.iter() {
        let Ok(d) = obj.as_dict() else { continue };
        if d.get(b"Type").and_then(|t| t.as_name()).ok() != Some(b"FontDescriptor") {
            continue;
        }
        let name = d
            .get(b"FontName")
            .and_then(|n| n.as_name())
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let embedded = [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
            .iter()
            .any(|k| d.get(k).is_ok());
        out.push((name, embedded));
    }
    out.sort();
    out
}

/// Every text size set with Tf, page by page.
fn text_sizes(doc: &Document) -> Vec<Vec<f32>> {
    doc.get_pages()
        .into_values()
        .map(|p| {
            doc.get_and_decode_page_content(p)
                .unwrap()
                .operations
                .iter()
                .filter(|op| op.operator == "Tf")
                .map(|op| op.operands[1].as_float().unwrap())
                .collect()
        })
        .collect()
}

fn book(dir: &std::path::Path, template: &str) -> std::process::Output {
    let t = dir.join("t.toml");
    std::fs::write(&t, template).unwrap();
    bin()
        .args([
            "-q",
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            dir.join("b.pdf").to_str().unwrap(),
        ])
        .output()
        .unwrap()
}

const SECTIONS: &str = "[[section]]\ngame = \"flip\"\ncount = 4\nparams = { size = 4 }\n[[section]]\ngame = \"numbrix\"\ncount = 2\nparams = { size = 5 }\n";

#[test]
fn a_templates_fonts_are_embedded_and_set_the_books_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("fonts")).unwrap();
    std::fs::write(dir.path().join("fonts/serif.ttf"), dejavu::serif::regular()).unwrap();
    std::fs::write(
        dir.path().join("fonts/serif-bold.ttf"),
        dejavu::serif::bold(),
    )
    .unwrap();
    let out = book(
        dir.path(),
        &format!("title = \"Serif Book\"\nfont = \"fonts/serif.ttf\"\nbold_font = \"fonts/serif-bold.ttf\"\n{SECTIONS}"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = Document::load(dir.path().join("b.pdf")).unwrap();
    let f = fonts(&doc);
    // Subset names: six letters, a plus, the font's own PostScript name.
    let has = |n: &str| {
        f.iter()
            .any(|(name, emb)| *emb && name.ends_with(&format!("+{n}")))
    };
    assert!(has("DejaVuSerif") && has("DejaVuSerif-Bold"), "{f:?}");
    // Drawings keep the bundled face.
    assert!(has("DejaVuSans"), "{f:?}");
    assert!(f.iter().all(|(_, emb)| *emb), "{f:?}");
    // The same template gives the same bytes (the font table is per process).
    let first = std::fs::read(dir.path().join("b.pdf")).unwrap();
    book(
        dir.path(),
        &format!("title = \"Serif Book\"\nfont = \"fonts/serif.ttf\"\nbold_font = \"fonts/serif-bold.ttf\"\n{SECTIONS}"),
    );
    assert_eq!(first, std::fs::read(dir.path().join("b.pdf")).unwrap());
}

#[test]
fn bad_fonts_are_one_clear_error_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("not-a-font.ttf"), b"hello").unwrap();
    std::fs::write(dir.path().join("serif.ttf"), dejavu::serif::regular()).unwrap();
    for (head, needle) in [
        ("font = \"missing.ttf\"", "missing.ttf"),
        (
            "font = \"not-a-font.ttf\"",
            "not a TrueType or OpenType font",
        ),
        // Devanagari is in no DejaVu face: the title would print as empty boxes.
        ("font = \"serif.ttf\"\nsubtitle = \"क ख\"", "U+0915"),
        ("subtitle = \"क ख\"", "U+0915"),
    ] {
        let out = book(dir.path(), &format!("title = \"T\"\n{head}\n{SECTIONS}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{head}: {err}");
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{head}: {err}"
        );
        assert!(!dir.path().join("b.pdf").exists(), "{head}");
    }
}

#[test]
fn large_print_sets_bigger_type_and_fewer_puzzles_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let body = "[[section]]\ngame = \"flip\"\ncount = 40\nper_page = 4\nparams = { size = 5 }\n[[section]]\ngame = \"numbrix\"\ncount = 4\nper_page = 2\nparams = { size = 7 }\n";
    let mut pages = Vec::new();
    let mut sizes = Vec::new();
    for large in [false, true] {
        let out = book(
            dir.path(),
            &format!("title = \"T\"\npage_size = \"6x9\"\nlarge_print = {large}\n{body}"),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc = Document::load(dir.path().join("b.pdf")).unwrap();
        pages.push(doc.get_pages().len());
        sizes.push(text_sizes(&doc));
    }
    let min = |s: &Vec<Vec<f32>>| s.iter().flatten().copied().fold(f32::MAX, f32::min);
    let max = |s: &Vec<Vec<f32>>| s.iter().flatten().copied().fold(0.0, f32::max);
    // The smallest text anywhere in large print is the answer key's floor, 10 pt; body
    // text is 16 pt; headings are larger than the regular book's.
    assert!(min(&sizes[1]) >= 10.0 - 1e-3, "{}", min(&sizes[1]));
    assert!(min(&sizes[0]) < 10.0);
    assert!(sizes[1].iter().flatten().any(|&s| (s - 16.0).abs() < 1e-3));
    assert!(max(&sizes[1]) > max(&sizes[0]));
    // Fewer puzzles a page: more pages (both are padded to at least 24).
    assert!(pages[1] > pages[0], "{pages:?}");
}

#[test]
fn large_print_says_when_a_game_cannot_reach_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = book(
        dir.path(),
        "title = \"T\"\nlarge_print = true\n[[section]]\ngame = \"number_match\"\ncount = 2\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("12 pt large print needs") && err.contains("page_size"),
        "{err}"
    );
}
