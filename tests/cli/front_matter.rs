//! Front matter for the reader, facts for the publisher: the copyright page prints a
//! year and no regeneration facts unless `colophon = true`; those facts always go
//! beside the PDF (`FILE.pdf.json`), and the command they give makes the same PDF; a
//! back cover that names a game the book does not hold is a warning.

use crate::common::*;
use serde_json::Value;
use sha2::Digest;
use std::path::Path;

/// A small template (two sections) in `dir`, with `extra` lines at the top.
fn small_template(dir: &Path, extra: &str) -> std::path::PathBuf {
    let t = format!(
        r#"{extra}
title = "Small Book"
author = "A. Writer"
seed = 3

[[section]]
game = "flip"
count = 4
params = {{ size = 4 }}

[[section]]
game = "numbrix"
count = 2
params = {{ size = "5" }}
"#
    );
    let path = dir.join("small.toml");
    std::fs::write(&path, t).unwrap();
    path
}

fn book(dir: &Path, template: &Path, out: &str) -> (String, Vec<u8>) {
    let o = bin()
        .current_dir(dir)
        .args([
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            out,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    (err, std::fs::read(dir.join(out)).unwrap())
}

/// The text of a PDF in `dir`, pages split by form feeds, as pdftotext reads it
/// (poppler-utils, which .ci/run installs).
fn pdf_text(pdftotext: &Path, dir: &Path, file: &str) -> String {
    let out = std::process::Command::new(pdftotext)
        .args(["-enc", "UTF-8", file, "-"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The copyright page: the page whose text holds "©".
fn copyright_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    page_texts(&doc)
        .into_iter()
        .find(|t| t.contains('©'))
        .expect("a page with a copyright line")
}

#[test]
fn the_copyright_page_has_a_year_and_the_facts_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let plain = small_template(dir.path(), "date = \"2025-03-04\"");
    let (_, pdf) = book(dir.path(), &plain, "plain.pdf");
    let text = copyright_text(&pdf);
    assert!(
        text.contains("© 2025 A. Writer. All rights reserved."),
        "{text}"
    );
    assert!(!text.contains("puzzlebook book --template"), "{text}");
    assert!(!text.contains("items"), "{text}");
    // The book is its publisher's: the tool is named only in the colophon.
    assert!(
        text.contains("checked by a second, independent method"),
        "{text}"
    );
    assert!(!text.to_lowercase().contains("puzzlebook"), "{text}");
    let with = small_template(dir.path(), "date = \"2025-03-04\"\ncolophon = true");
    let (_, pdf) = book(dir.path(), &with, "colophon.pdf");
    let text = copyright_text(&pdf);
    assert!(
        text.contains("puzzlebook book --template small.toml --seed 3"),
        "{text}"
    );
    // No date in the template: the year the book is made.
    let undated = small_template(dir.path(), "");
    let (_, pdf) = book(dir.path(), &undated, "undated.pdf");
    let year = String::from_utf8(
        std::process::Command::new("date")
            .args(["-u", "+%Y"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(copyright_text(&pdf).contains(&format!("© {} A. Writer", year.trim())));
}

#[test]
fn the_facts_beside_the_pdf_make_the_same_book_again() {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(dir.path(), "date = \"2025-03-04\"");
    let (log, pdf) = book(dir.path(), &t, "small.pdf");
    assert!(log.contains("small.pdf.json"), "{log}");
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("small.pdf.json")).unwrap())
            .unwrap();
    let digest: String = sha2::Sha256::digest(&pdf)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(facts["pdf_sha256"], digest);
    assert_eq!(facts["seed"], 3);
    assert_eq!(facts["puzzles"], 6);
    let sections = facts["sections"].as_array().unwrap();
    assert_eq!(sections.len(), 2);
    assert_eq!(sections[0]["items"].as_array().unwrap().len(), 4);
    assert_eq!(sections[1]["game"], "numbrix");
    let pages = lopdf::Document::load_mem(&pdf).unwrap().get_pages().len();
    assert_eq!(facts["pages"], pages);
    // The command, run by a shell where the template is, makes the same bytes.
    rerun(dir.path(), facts["command"].as_str().unwrap(), "again.pdf");
    assert_eq!(std::fs::read(dir.path().join("again.pdf")).unwrap(), pdf);
}

/// Run a facts file's command with `sh -c` in `dir` (this build's binary first on the
/// PATH), writing `out`.
fn rerun(dir: &Path, command: &str, out: &str) {
    let bin_dir = assert_cmd::cargo::cargo_bin("puzzlebook")
        .parent()
        .unwrap()
        .to_path_buf();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{command} --out {out}"))
        .current_dir(dir)
        .env_remove("SOURCE_DATE_EPOCH")
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_facts_command_survives_odd_names_and_a_fixed_date() {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(dir.path(), "");
    let odd = dir.path().join("my book's \"x\" $HOME.toml");
    std::fs::rename(&t, &odd).unwrap();
    let o = bin()
        .current_dir(dir.path())
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args([
            "book",
            "--template",
            odd.file_name().unwrap().to_str().unwrap(),
            "--out",
            "odd.pdf",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let facts: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("odd.pdf.json")).unwrap())
            .unwrap();
    let command = facts["command"].as_str().unwrap();
    assert!(
        command.starts_with("SOURCE_DATE_EPOCH=1700000000 puzzlebook book --template '"),
        "{command}"
    );
    rerun(dir.path(), command, "again.pdf");
    assert_eq!(
        std::fs::read(dir.path().join("again.pdf")).unwrap(),
        std::fs::read(dir.path().join("odd.pdf")).unwrap()
    );
    assert!(copyright_text(&std::fs::read(dir.path().join("odd.pdf")).unwrap()).contains("© 2023"));
}

#[test]
fn a_book_to_a_device_name_gets_no_facts_file_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(dir.path(), "");
    let sink = std::fs::File::create(dir.path().join("piped.pdf")).unwrap();
    let _ = std::fs::remove_file("/dev/stdout.json");
    let o = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .current_dir(dir.path())
        .args([
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            "/dev/stdout",
        ])
        .stdout(sink)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(dir.path().join("piped.pdf"))
        .unwrap()
        .starts_with(b"%PDF-"));
    assert!(
        !Path::new("/dev/stdout.json").exists(),
        "a facts file beside /dev/stdout"
    );
    // Into a pipe (this test's capture of standard output) too.
    let o = bin()
        .current_dir(dir.path())
        .args([
            "book",
            "--template",
            t.to_str().unwrap(),
            "--out",
            "/dev/stdout",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.starts_with(b"%PDF-"));
    assert!(!Path::new("/dev/stdout.json").exists());
}

#[test]
fn a_blurb_that_names_a_game_the_book_lacks_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let t = small_template(
        dir.path(),
        "[cover]\nblurb = \"Flip, Numbrix and Number Match puzzles.\"\n",
    );
    // [cover] must follow the top-level keys: rewrite the file in that order.
    let text = std::fs::read_to_string(&t).unwrap();
    let (cover, rest) = text.split_at(text.find("title =").unwrap());
    let (top, sections) = rest.split_at(rest.find("[[section]]").unwrap());
    std::fs::write(&t, format!("{top}{cover}{sections}")).unwrap();
    let (log, _) = book(dir.path(), &t, "b.pdf");
    assert!(
        log.contains("cover.blurb names Number Match, but the book has no Number Match section"),
        "{log}"
    );
    assert!(
        !log.contains("names Flip") && !log.contains("names Numbrix"),
        "{log}"
    );
    // Words, not names: the verb "flip", "number. Match" across a sentence.
    for blurb in [
        "Grab a pencil and flip a page.",
        "Circle a number. Match it with its pair.",
    ] {
        std::fs::write(
            &t,
            format!("title = \"T\"\n[cover]\nblurb = \"{blurb}\"\n[[section]]\ngame = \"numbrix\"\ncount = 2\nparams = {{ size = \"5\" }}\n"),
        )
        .unwrap();
        let (log, _) = book(dir.path(), &t, "w.pdf");
        assert!(!log.contains("cover.blurb names"), "{blurb}: {log}");
    }
    // Hidato is Numbrix with king moves: a book of plain Numbrix does not hold it.
    std::fs::write(
        &t,
        "title = \"T\"\n[cover]\nblurb = \"Hidato puzzles.\"\n[[section]]\ngame = \"numbrix\"\ncount = 2\nparams = { size = \"5\" }\n",
    )
    .unwrap();
    let (log, _) = book(dir.path(), &t, "h.pdf");
    assert!(log.contains("cover.blurb names Hidato"), "{log}");
    // The shipped default book promises only what it holds.
    let o = bin()
        .current_dir(dir.path())
        .args([
            "book",
            "--template",
            template("default.toml").to_str().unwrap(),
            "--out",
            "d.pdf",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(!String::from_utf8_lossy(&o.stderr).contains("cover.blurb names"));
}

#[test]
fn the_template_table_in_books_md_is_what_the_templates_make() {
    let doc = std::fs::read_to_string(root().join("docs/books.md")).unwrap();
    let rows: Vec<(String, u64, u64)> = doc
        .lines()
        .filter(|l| l.starts_with("| `") && l.contains(".toml`"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_string();
            let pages = cells[3].parse().unwrap();
            let puzzles = cells[4]
                .split(|c: char| !c.is_ascii_digit())
                .find(|w| !w.is_empty())
                .unwrap()
                .parse()
                .unwrap();
            (name, pages, puzzles)
        })
        .collect();
    let shipped: Vec<String> = std::fs::read_dir(root().join("templates"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    assert_eq!(rows.len(), shipped.len(), "one row per template: {rows:?}");
    let dir = tempfile::tempdir().unwrap();
    for (name, pages, puzzles) in rows {
        let (log, _) = book(dir.path(), &template(&name), "t.pdf");
        let wrote = log
            .lines()
            .find(|l| l.starts_with("wrote t.pdf:"))
            .unwrap_or_else(|| panic!("{name}: {log}"));
        assert!(
            wrote.contains(&format!(": {pages} pages, {puzzles} items")),
            "{name}: the table says {pages} pages, {puzzles} puzzles; {wrote}"
        );
    }
}

/// Each page's colour operators: (operator, operands) for rg, RG, k, K, g, G, and
/// every line width (w), read from the PDF's content streams.
fn paint_ops(pdf: &[u8]) -> Vec<Vec<(String, Vec<f64>)>> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    doc.get_pages()
        .values()
        .map(|&id| {
            let content = doc.get_and_decode_page_content(id).unwrap();
            content
                .operations
                .iter()
                .filter(|op| {
                    [
                        "rg", "RG", "k", "K", "g", "G", "w", "sc", "SC", "scn", "SCN",
                    ]
                    .contains(&op.operator.as_str())
                })
                .map(|op| {
                    let nums = op
                        .operands
                        .iter()
                        .filter_map(|o| match o {
                            lopdf::Object::Integer(i) => Some(*i as f64),
                            lopdf::Object::Real(r) => Some(f64::from(*r)),
                            _ => None,
                        })
                        .collect();
                    (op.operator.clone(), nums)
                })
                .collect()
        })
        .collect()
}

#[test]
fn shipped_templates_print_without_a_warning_and_their_ink_agrees_with_the_paper() {
    let dir = tempfile::tempdir().unwrap();
    for name in SHIPPED {
        let text = std::fs::read_to_string(template(name)).unwrap();
        let (log, pdf) = book(dir.path(), &template(name), "t.pdf");
        assert!(!log.contains("warning"), "{name}: {log}");
        let pages = paint_ops(&pdf);
        // Every line at least the template's 0.75 pt.
        for (i, ops) in pages.iter().enumerate() {
            for (op, n) in ops.iter().filter(|(op, _)| op == "w") {
                assert!(n[0] >= 0.75 - 1e-6, "{name} page {}: {op} {n:?}", i + 1);
            }
        }
        let gray = text.contains("\ncolor = \"gray\"");
        for (i, ops) in pages.iter().enumerate() {
            for (op, n) in ops.iter().filter(|(op, _)| op != "w") {
                if gray {
                    // Black ink only: grey operators, nothing else.
                    assert!(op == "g" || op == "G", "{name} page {}: {op} {n:?}", i + 1);
                } else {
                    assert!(
                        op == "k" || op == "K" || op == "g" || op == "G",
                        "{name}: {op}"
                    );
                }
            }
        }
        if name == "catan-almanac.toml" {
            // The section for black-and-white printers is black ink only: every CMYK
            // colour on its pages has no cyan, magenta or yellow.
            let doc = lopdf::Document::load_mem(&pdf).unwrap();
            let texts = page_texts(&doc);
            let grey_pages: Vec<usize> = (0..texts.len())
                .filter(|&i| {
                    texts[i].starts_with("Greyscale boards")
                        || texts[i].contains("\nGreyscale boards")
                })
                .collect();
            assert!(!grey_pages.is_empty());
            for &i in &grey_pages {
                for (op, n) in pages[i].iter().filter(|(op, _)| op == "k" || op == "K") {
                    assert!(
                        n[0] == 0.0 && n[1] == 0.0 && n[2] == 0.0,
                        "page {}: {op} {n:?}",
                        i + 1
                    );
                }
            }
        }
    }
}

#[test]
fn a_colour_book_on_black_ink_paper_is_a_warning_and_line_weights_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("c.toml");
    std::fs::write(
        &t,
        "title = \"Boards\"\nauthor = \"A\"\ncolor = \"rgb\"\n[[section]]\ngame = \"catan\"\ncount = 2\n",
    )
    .unwrap();
    let (log, _) = book(dir.path(), &t, "c.pdf");
    assert!(
        log.contains("the pages are in colour, but [cover] paper = \"white\" is black-ink paper"),
        "{log}"
    );
    std::fs::write(
        &t,
        "title = \"Boards\"\nauthor = \"A\"\ncolor = \"gray\"\n[[section]]\ngame = \"catan\"\ncount = 2\n",
    )
    .unwrap();
    let (log, _) = book(dir.path(), &t, "g.pdf");
    assert!(!log.contains("black-ink paper"), "{log}");
    std::fs::write(
        &t,
        "title = \"Boards\"\nmin_line_pt = 0.3\n[[section]]\ngame = \"catan\"\ncount = 2\n",
    )
    .unwrap();
    let o = bin()
        .current_dir(dir.path())
        .args(["book", "--template", "c.toml", "--out", "x.pdf"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("min_line_pt is 0.3"));
}

#[test]
fn a_template_that_sets_no_ink_or_line_width_is_print_safe() {
    // Colour art (Catan's terrains) and thin grid lines (Flip's) in a template that
    // names neither colour nor line width: grey ink, lines of at least 0.75 pt, and
    // neither the book nor its preflight warns.
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("p.toml");
    std::fs::write(
        &t,
        "title = \"Boards\"\nauthor = \"A\"\n[[section]]\ngame = \"catan\"\ncount = 2\n[[section]]\ngame = \"flip\"\ncount = 4\nparams = { size = 8 }\n",
    )
    .unwrap();
    let (log, pdf) = book(dir.path(), &t, "p.pdf");
    // (The book is short, so notes pages are added: that warning is not about ink.)
    assert!(!log.contains("colour") && !log.contains(" pt"), "{log}");
    for (i, ops) in paint_ops(&pdf).iter().enumerate() {
        for (op, n) in ops {
            match op.as_str() {
                "w" => assert!(n[0] >= 0.75 - 1e-6, "page {}: w {n:?}", i + 1),
                _ => assert!(op == "g" || op == "G", "page {}: {op} {n:?}", i + 1),
            }
        }
    }
    let o = bin()
        .current_dir(dir.path())
        .args(["preflight", "p.pdf"])
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{report}");
    assert!(
        report.contains("passes: 0 failures, 0 warnings"),
        "{report}"
    );
}

#[test]
fn a_book_without_a_holder_or_with_a_trademark_in_its_title_is_warned() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("h.toml");
    let body = "[[section]]\ngame = \"flip\"\ncount = 2\n";
    std::fs::write(&t, format!("title = \"Boards\"\n{body}")).unwrap();
    let (log, pdf) = book(dir.path(), &t, "none.pdf");
    assert!(
        log.contains("names no copyright holder") && log.contains("set author = "),
        "{log}"
    );
    assert!(copyright_text(&pdf).contains(". All rights reserved."));
    std::fs::write(
        &t,
        format!("title = \"Boards\"\npublisher = \"Small Press\"\n{body}"),
    )
    .unwrap();
    let (log, pdf) = book(dir.path(), &t, "press.pdf");
    assert!(!log.contains("holder"), "{log}");
    assert!(copyright_text(&pdf).contains("Small Press. All rights reserved."));
    // A trademark in the title or the subtitle, in any case, is named in a warning.
    std::fs::write(
        &t,
        format!(
            "title = \"CATAN Boards\"\nsubtitle = \"Hidato for the road\"\nauthor = \"A\"\n{body}"
        ),
    )
    .unwrap();
    let (log, _) = book(dir.path(), &t, "mark.pdf");
    assert!(log.contains("the title names Catan, a trademark"), "{log}");
    assert!(
        log.contains("the subtitle names Hidato, a trademark"),
        "{log}"
    );
}

#[test]
fn one_game_books_run_easiest_first_with_one_how_to_page_a_game() {
    let Some(tools) = tools::require(&[&tools::PDFTOTEXT]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, howtos) in [
        ("hidato-shapes-6x9.toml", 2), // Hidato and Numbrix
        ("numbrix-6x9.toml", 1),
        ("flip-6x9.toml", 1),
        ("number-match.toml", 1),
    ] {
        book(dir.path(), &template(name), "t.pdf");
        let all = pdf_text(&tools[0], dir.path(), "t.pdf");
        let texts: Vec<&str> = all.split('\u{c}').collect();
        // The stars of every puzzle, in page order, never go down across the book.
        let stars: Vec<usize> = all
            .split("Puzzle ")
            .skip(1)
            .filter_map(|rest| {
                let after = rest.split_once(' ')?.1;
                let s: String = after
                    .chars()
                    .take_while(|c| *c == '★' || *c == '☆')
                    .collect();
                (!s.is_empty()).then(|| s.chars().filter(|c| *c == '★').count())
            })
            .collect();
        assert!(!stars.is_empty(), "{name}");
        assert!(stars.windows(2).all(|w| w[0] <= w[1]), "{name}: {stars:?}");
        let pages = texts
            .iter()
            .filter(|t| t.trim_start().starts_with("How to play"))
            .count();
        assert_eq!(pages, howtos, "{name}: how-to pages");
    }
}

#[test]
fn a_sections_first_page_holds_a_full_page_of_puzzles() {
    let Some(tools) = tools::require(&[&tools::PDFTOTEXT]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // (template, a section's heading, the puzzles its first page must hold)
    for (name, heading, first, per_page) in [
        ("number-match.toml", "Warm-up: two adds", 1, 4),
        ("default.toml", "Flip: warm-up", 1, 2),
        ("carcassonne.toml", "Small landscapes", 1, 2),
    ] {
        book(dir.path(), &template(name), "t.pdf");
        let all = pdf_text(&tools[0], dir.path(), "t.pdf");
        let page = all
            .split('\u{c}')
            .find(|p| p.trim_start().starts_with(heading))
            .unwrap_or_else(|| panic!("{name}: no page opens with {heading}"));
        for k in first..first + per_page {
            assert!(
                page.contains(&format!("Puzzle {k} ")),
                "{name}: puzzle {k} not on the first page of {heading}"
            );
        }
    }
}

#[test]
fn pages_that_outgrow_a_small_page_size_are_a_clear_error_not_a_bug() {
    let dir = tempfile::tempdir().unwrap();
    for (text, says) in [
        (
            "title=\"C\"\npage_size=\"5x8\"\n[[section]]\ngame=\"carcassonne\"\ncount=4\nper_page=1\nparams={ tiles = 50 }\n",
            "mm its drawings need to stay readable",
        ),
        (
            "title=\"C\"\npage_size=\"4x6in\"\nlarge_print=true\n[[section]]\ngame=\"flip\"\ncount=4\nparams={ size = 4 }\n",
            "or turn large_print off",
        ),
    ] {
        std::fs::write(dir.path().join("s.toml"), text).unwrap();
        let o = bin()
            .current_dir(dir.path())
            .args(["book", "--template", "s.toml", "--out", "s.pdf"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says) && err.contains("choose a larger page_size"), "{err}");
        assert!(!err.contains("a bug"), "{err}");
        assert!(!dir.path().join("s.pdf").exists());
    }
}
