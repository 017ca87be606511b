//! The book as a PDF reader sees it: it parses, has the planned parts in order, its
//! text has the title and headings, every font is embedded, page boxes follow the
//! template (trim size, bleed), and the copyright page's facts make the puzzles again.

use crate::common::*;
use lopdf::Document;

fn build(template: &std::path::Path, extra: &[&str]) -> (tempfile::TempDir, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.pdf");
    let mut args = vec![
        "book",
        "--template",
        template.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let res = bin().args(&args).output().unwrap();
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    (dir, bytes)
}

fn run_book(template: &std::path::Path, out: &std::path::Path) -> std::process::Output {
    bin()
        .args([
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap()
}

fn box_of(doc: &Document, page: lopdf::ObjectId, key: &[u8]) -> Vec<f32> {
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

#[test]
fn default_book_structure_text_and_fonts() {
    let (_dir, bytes) = build(&template("default.toml"), &[]);
    let doc = Document::load_mem(&bytes).unwrap();
    let texts = page_texts(&doc);
    let n = texts.len();
    assert!(n >= 24 && n.is_multiple_of(2), "{n} pages");
    // Front matter in order: title, copyright, contents, then one "how to play" page
    // per game and rule set (Flip, Flip Plus, Numbrix, Number Match, Catan).
    assert!(texts[0].contains("A Puzzle Sampler"));
    // The copyright page is for readers; the facts to remake the book are beside it.
    assert!(texts[1].contains("All rights reserved"));
    assert!(!texts[1].contains("How this book was made"));
    assert!(texts[2].contains("Contents"));
    let howto: Vec<usize> = (0..n)
        .filter(|&i| texts[i].contains("How to play") && !texts[i].contains("Contents"))
        .filter(|&i| texts[i].trim_start().starts_with("How to play"))
        .collect();
    assert_eq!(howto, vec![3, 4, 5, 6, 7], "how-to pages");
    let all = texts.join("\n");
    for needle in [
        "Flip: warm-up",
        "Flip: the classic 5 × 5",
        "Flip: wide boards",
        "Flip Plus: the Lights Out cross",
        "Puzzle 22",
        "Numbrix",
        "Number Match",
        "Catan set-ups",
        "Board 34",
        "Answers",
        "30 puzzles and 4 boards in 7 sections, with answers",
    ] {
        assert!(all.contains(needle), "missing {needle:?}");
    }
    // Numbered pages carry their number (title and copyright pages do not).
    for (i, t) in texts.iter().enumerate().skip(2) {
        assert!(
            t.split(' ').any(|w| w == (i + 1).to_string()),
            "page {} has no number: {t}",
            i + 1
        );
    }
    // The contents give each section's real first page.
    let contents = &texts[2];
    for heading in ["Flip: warm-up", "Numbrix", "Catan set-ups"] {
        // The section's own entry is the last mention (a how-to entry may come first).
        let after = contents.rsplit(heading).next().unwrap();
        let page: usize = after
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap();
        assert!(
            texts[page - 1].trim_start().starts_with(heading),
            "{heading} listed on page {page}: {}",
            texts[page - 1]
        );
    }

    // Every font is a Type0 font whose descendant has an embedded, subset program.
    let mut fonts = 0;
    for (_, obj) in doc.objects.iter() {
        let Ok(dict) = obj.as_dict() else { continue };
        if dict.get(b"Type").ok().and_then(|t| t.as_name().ok()) != Some(b"Font".as_slice()) {
            continue;
        }
        let subtype = dict.get(b"Subtype").unwrap().as_name().unwrap();
        if subtype == b"Type0" {
            fonts += 1;
            let base =
                String::from_utf8(dict.get(b"BaseFont").unwrap().as_name().unwrap().to_vec())
                    .unwrap();
            assert!(
                base.len() > 7 && base.as_bytes()[6] == b'+',
                "subset tag on {base}"
            );
            continue;
        }
        assert!(
            subtype == b"CIDFontType2",
            "only embedded CID TrueType fonts, found {subtype:?}"
        );
        let desc = doc
            .get_dictionary(dict.get(b"FontDescriptor").unwrap().as_reference().unwrap())
            .unwrap();
        let program = desc.get(b"FontFile2").unwrap().as_reference().unwrap();
        let stream = doc.get_object(program).unwrap().as_stream().unwrap();
        let size = stream.decompressed_content().unwrap().len();
        assert!(
            size > 1000 && size < 200_000,
            "subset font program of {size} bytes"
        );
    }
    assert_eq!(fonts, 2, "regular and bold");
}

#[test]
fn numbrix_book_has_its_three_sections_and_answers() {
    let (_dir, bytes) = build(&template("numbrix-6x9.toml"), &[]);
    let doc = Document::load_mem(&bytes).unwrap();
    let texts = page_texts(&doc);
    let all = texts.join("\n");
    for needle in [
        "Easy (puzzles 1–34)",
        "Medium (puzzles 35–67)",
        "Hard (puzzles 68–100)",
        "Puzzle 100",
        "100 puzzles in 3 sections, with answers",
    ] {
        assert!(all.contains(needle), "missing {needle:?}");
    }
    // Each puzzle once on a puzzle page, its answer once in the key.
    for k in [1, 34, 35, 67, 68, 100] {
        let label = format!("Puzzle {k} ");
        let on_pages = texts.iter().filter(|t| t.contains(&label)).count();
        assert_eq!(on_pages, 2, "puzzle {k}: on {on_pages} pages");
    }
    // 6 x 9 inches with bleed: the trim box is [x0 y0 x1 y1], 432 x 648 pt.
    let (_, first) = doc.get_pages().into_iter().next().unwrap();
    let trim = box_of(&doc, first, b"TrimBox");
    assert!(
        (trim[2] - trim[0] - 432.0).abs() < 0.1 && (trim[3] - trim[1] - 648.0).abs() < 0.1,
        "{trim:?}"
    );
}

#[test]
fn page_sizes_bleed_and_trim() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    std::fs::write(
        &t,
        "title = \"Trade\"\npage_size = \"6x9\"\nbleed = true\n[margins]\noutside = 10.0\ntop = 10.0\nbottom = 10.0\n[[section]]\ngame = \"flip\"\ncount = 3\nparams = { size = 4 }\n",
    )
    .unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    let out = dir2.path().join("book.pdf");
    let res = run_book(&t, &out);
    assert!(
        res.status.success(),
        "{}",
        String::from_utf8_lossy(&res.stderr)
    );
    // A short book is padded to the 24 pages printers need, and says so.
    let err = String::from_utf8_lossy(&res.stderr);
    assert!(
        err.contains("warning:") && err.contains("at least 24"),
        "{err}"
    );
    let doc = Document::load_mem(&std::fs::read(&out).unwrap()).unwrap();
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    assert_eq!(pages.len(), 24);
    assert!(page_texts(&doc)[23].contains("Notes"));
    for (i, &p) in pages.iter().enumerate() {
        let media = box_of(&doc, p, b"MediaBox");
        let trim = box_of(&doc, p, b"TrimBox");
        let bleed = box_of(&doc, p, b"BleedBox");
        // 6.125 x 9.25 in with bleed on the outside, top and bottom.
        assert!(
            (media[2] - 441.0).abs() < 0.1 && (media[3] - 666.0).abs() < 0.1,
            "{media:?}"
        );
        assert_eq!(bleed, media, "page {}", i + 1);
        // The trim box sits on the inside edge: left on odd pages, right on even ones.
        let expected_x = if i % 2 == 0 { 0.0 } else { 9.0 };
        assert!(
            (trim[0] - expected_x).abs() < 0.1
                && (trim[1] - 9.0).abs() < 0.1
                && (trim[2] - (expected_x + 432.0)).abs() < 0.1
                && (trim[3] - 657.0).abs() < 0.1,
            "page {}: {trim:?}",
            i + 1
        );
    }
    // Margins below the bleed minimum are refused, outside, top and bottom alike.
    for (key, value) in [("outside", "7.0"), ("top", "8.0"), ("bottom", "9.0")] {
        std::fs::write(
            &t,
            format!("title = \"Trade\"\npage_size = \"6x9\"\nbleed = true\n[margins]\n{key} = {value}\n[[section]]\ngame = \"flip\"\ncount = 3\n"),
        )
        .unwrap();
        let res = run_book(&t, &dir.path().join("x.pdf"));
        assert_eq!(res.status.code(), Some(1));
        let err = String::from_utf8_lossy(&res.stderr);
        assert!(err.contains("0.375 in") && err.contains(key), "{err}");
    }
}

#[test]
fn too_many_pages_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    std::fs::write(
        &t,
        "title = \"Huge\"\n[[section]]\ngame = \"flip\"\ncount = 900\nparams = { size = 3 }\n",
    )
    .unwrap();
    let res = run_book(&t, &dir.path().join("x.pdf"));
    assert_eq!(res.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&res.stderr).contains("at most 828"));
    assert_eq!(files_in(dir.path()), vec!["t.toml"]);
}

#[test]
fn the_copyright_page_makes_the_puzzles_again() {
    // Section 1 of the default template: flip, size 3, min_moves 3, seed 2026 + 1. The
    // facts beside the PDF list its items easiest first (and, with colophon = true,
    // the copyright page does too); puzzle k's answer in the key is the answer the
    // command line gives for the k-th listed item.
    let dir = tempfile::tempdir().unwrap();
    let colophon = dir.path().join("default.toml");
    std::fs::write(
        &colophon,
        format!(
            "colophon = true\n{}",
            std::fs::read_to_string(template("default.toml")).unwrap()
        ),
    )
    .unwrap();
    let (out_dir, bytes) = build(&colophon, &[]);
    let facts: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.path().join("book.pdf.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        facts["command"],
        "puzzlebook book --template default.toml --seed 2026"
    );
    assert_eq!(facts["sections"][0]["seed"], 2027);
    let items: Vec<usize> = facts["sections"][0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(items.len(), 6);
    let doc = Document::load_mem(&bytes).unwrap();
    let texts = page_texts(&doc);
    assert!(texts[1].contains("puzzlebook book --template default.toml --seed 2026"));
    let line = texts[1]
        .split("Flip: warm-up (puzzles 1–6): flip min_moves=3 size=3, seed 2027, items ")
        .nth(1)
        .expect("section 1's items on the copyright page");
    let printed: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit() && c != '–')
        .filter(|w| !w.is_empty())
        .flat_map(|w| match w.split_once('–') {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect::<Vec<usize>>(),
            None => vec![w.parse().unwrap()],
        })
        .take(6)
        .collect();
    assert_eq!(printed, items, "{line}");
    let cli = stdout_of(&[
        "flip",
        "generate",
        "--size",
        "3",
        "--min-moves",
        "3",
        "--seed",
        "2027",
        "--count",
        "6",
        "--format",
        "jsonl",
    ]);
    let records: Vec<serde_json::Value> = cli
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let key = texts
        .iter()
        .find(|t| t.contains("Flip: warm-up (puzzles 1–6)") && t.contains("Answers"))
        .unwrap();
    for (k, &item) in items.iter().enumerate() {
        let moves = records[item]["min_moves"].as_u64().unwrap();
        // The answer's line under "Puzzle k · page p" starts with its move count.
        let after = key
            .split(&format!("Puzzle {} · page", k + 1))
            .nth(1)
            .unwrap();
        assert!(
            after.contains(&format!("{moves} move")),
            "puzzle {} (item {item}): {moves} moves not in {after:.80}",
            k + 1
        );
    }
    // Easiest first: the proven move counts never fall.
    let counts: Vec<u64> = items
        .iter()
        .map(|&i| records[i]["min_moves"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
}
