//! The book as a PDF reader sees it: it parses, has the planned page count, its text
//! has the title and headings, every font is embedded, and page boxes follow the
//! template (trim size, bleed).

mod common;
use common::*;
use lopdf::{Document, Object};

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

/// Decode the text of every page through each font's /ToUnicode CMap (a small
/// decoder of our own, independent of the writer).
fn page_texts(doc: &Document) -> Vec<String> {
    use std::collections::HashMap;
    let mut texts = Vec::new();
    for (_, page_id) in doc.get_pages() {
        let fonts = doc.get_page_fonts(page_id).unwrap();
        let mut maps: HashMap<Vec<u8>, HashMap<u16, char>> = HashMap::new();
        for (name, font) in &fonts {
            let mut map = HashMap::new();
            if let Ok(Object::Reference(r)) = font.get(b"ToUnicode") {
                let stream = doc.get_object(*r).unwrap().as_stream().unwrap();
                let content =
                    String::from_utf8_lossy(&stream.decompressed_content().unwrap()).into_owned();
                // bfchar entries: <gid> <unicode>
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
                            map.insert(gid, char::from_u32(cp).unwrap());
                        }
                    }
                }
            }
            maps.insert(name.clone(), map);
        }
        let content = doc.get_and_decode_page_content(page_id).unwrap();
        let mut text = String::new();
        let mut current: Vec<u8> = Vec::new();
        for op in content.operations {
            match op.operator.as_str() {
                "Tf" => current = op.operands[0].as_name().unwrap().to_vec(),
                "Tj" | "TJ" => {
                    let items = match &op.operands[0] {
                        Object::Array(a) => a.clone(),
                        o => vec![o.clone()],
                    };
                    for item in items {
                        if let Object::String(bytes, _) = item {
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
    // Planned pages: title, contents, 3+4+2+2 Flip pages, 2 Numbrix pages, 1 Number
    // Match page, 4 Catan pages, then 1+2+1+1+1+1 answer pages (Catan boards have no
    // answers).
    assert_eq!(doc.get_pages().len(), 27);

    let texts = page_texts(&doc);
    let all = texts.join("\n");
    for needle in [
        "Puzzlebook Sampler",
        "Contents",
        "Flip: warm-up",
        "Flip: the classic 5 x 5",
        "Flip: wide boards",
        "Flip Plus: the Lights Out cross",
        "Answers: Flip: warm-up",
        "Puzzle 22",
        "Numbrix",
        "Answers: Numbrix",
        "Number Match",
        "Answers: Number Match",
        "Catan set-ups",
        "Board 34",
        "30 puzzles and 4 boards in 7 sections, with answers",
    ] {
        assert!(all.contains(needle), "missing {needle:?}");
    }
    // Page numbers on every page.
    for (i, t) in texts.iter().enumerate() {
        assert!(
            t.split(' ').any(|w| w == (i + 1).to_string()),
            "page {} has no number: {t}",
            i + 1
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
    let all = page_texts(&doc).join("\n");
    for needle in [
        "Numbrix",
        "Easy",
        "Medium",
        "Hard",
        "Puzzle 100",
        "Answers: Easy",
        "Answers: Hard",
        "100 puzzles in 3 sections, with answers",
    ] {
        assert!(all.contains(needle), "missing {needle:?}");
    }
    // Captions carry the grade of every puzzle: 34 easy, 33 medium, 33 hard.
    assert_eq!(all.matches("Easy, ").count(), 34);
    assert_eq!(all.matches("Medium, ").count(), 33);
    assert_eq!(all.matches("Hard, ").count(), 33);
    // 6 x 9 inches with bleed: the trim box is 432 x 648 pt.
    let (_, first) = doc.get_pages().into_iter().next().unwrap();
    let trim = box_of(&doc, first, b"TrimBox");
    assert!(
        (trim[2] - 432.0).abs() < 0.1 && (trim[3] - 648.0).abs() < 0.1,
        "{trim:?}"
    );
}

#[test]
fn page_sizes_bleed_and_trim() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("t.toml");
    std::fs::write(
        &t,
        "title = \"Trade\"\npage_size = \"6x9\"\nbleed = true\n[margins]\noutside = 10.0\n[[section]]\ngame = \"flip\"\ncount = 3\nparams = { size = 4 }\n",
    )
    .unwrap();
    let (_d, bytes) = build(&t, &[]);
    let doc = Document::load_mem(&bytes).unwrap();
    let pages: Vec<_> = doc.get_pages().into_values().collect();
    // title, contents, 3 puzzles, 1 answer page
    assert_eq!(pages.len(), 6);
    for (i, &p) in pages.iter().enumerate() {
        let media = box_of(&doc, p, b"MediaBox");
        let trim = box_of(&doc, p, b"TrimBox");
        // 6.125 x 9.25 in with bleed on the outside, top and bottom.
        assert!(
            (media[2] - 441.0).abs() < 0.1 && (media[3] - 666.0).abs() < 0.1,
            "{media:?}"
        );
        assert!(
            (trim[2] - 432.0).abs() < 0.1 && (trim[3] - 648.0).abs() < 0.1,
            "{trim:?}"
        );
        // The trim box sits on the inside edge: left on odd pages, right on even ones.
        let expected_x = if i % 2 == 0 { 0.0 } else { 9.0 };
        assert!(
            (trim[0] - expected_x).abs() < 0.1,
            "page {}: {trim:?}",
            i + 1
        );
    }
    // Outside margin below the bleed minimum is refused.
    std::fs::write(
        &t,
        "title = \"Trade\"\npage_size = \"6x9\"\nbleed = true\n[margins]\noutside = 7.0\n[[section]]\ngame = \"flip\"\ncount = 3\n",
    )
    .unwrap();
    let res = run_book(&t, &dir.path().join("x.pdf"));
    assert_eq!(res.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&res.stderr).contains("0.375 in"));
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
fn answer_key_regenerates_from_the_printed_seed_and_item() {
    // Section 1 of the default template: flip, size 3, min_moves 3, seed 2026 + 1.
    let (_dir, bytes) = build(&template("default.toml"), &[]);
    let doc = Document::load_mem(&bytes).unwrap();
    let texts = page_texts(&doc);
    let answers = texts
        .iter()
        .find(|t| t.contains("Answers: Flip: warm-up"))
        .unwrap();
    assert!(answers.contains("seed=2027"), "{answers}");
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
        "text",
    ]);
    for (item, header) in cli.lines().filter(|l| l.starts_with('#')).enumerate() {
        let answer = header.split_once("): ").unwrap().1;
        assert!(
            answers.contains(answer),
            "item {item}: {answer} not in {answers}"
        );
        assert!(answers.contains(&format!("item {item}")));
    }
}
