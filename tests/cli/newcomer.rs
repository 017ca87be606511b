//! The real binary as a newcomer meets it: the version names its commit, shell
//! completions and manual pages come from the command tree, help lists every name the
//! parsers accept, both spellings of a two-word game work everywhere, and mistakes get
//! a "did you mean".

use crate::common::*;

/// Every Catan rule the parser accepts, written with a value a board can meet. Kept
/// here by hand (not read from the code) so a rule the help leaves out is caught.
const RULES: [&str; 10] = [
    "red-apart",
    "2-12-apart",
    "same-number-apart",
    "same-terrain-apart",
    "max-pips-per-corner=12",
    "min-pips-per-corner=3",
    "max-cluster=3",
    "number-resource-apart",
    "resource-pips=6-16",
    "harbor-resource-apart",
];

/// Every Catan sampler the parser accepts (best-of-N as best-of-3).
const SAMPLERS: [&str; 7] = [
    "full-rejection",
    "token-rejection",
    "swap",
    "sequential",
    "direct",
    "retry-restart",
    "best-of-3",
];

/// The name a help text shows for a written rule or sampler (`max-cluster=N`,
/// `best-of-N`).
fn as_listed(written: &str) -> String {
    if let Some((name, value)) = written.split_once('=') {
        let form = if value.contains('-') { "A-B" } else { "N" };
        format!("{name}={form}")
    } else if written.starts_with("best-of-") {
        "best-of-N".to_string()
    } else {
        written.to_string()
    }
}

#[test]
fn catan_help_lists_every_rule_and_sampler_the_parser_accepts() {
    for cmd in ["generate", "bias", "stats"] {
        let help = stdout_of(&["catan", cmd, "--help"]);
        for rule in RULES {
            assert!(
                help.contains(&as_listed(rule)),
                "catan {cmd} --help: {rule}"
            );
        }
        if cmd != "stats" {
            for sampler in SAMPLERS {
                assert!(
                    help.contains(&as_listed(sampler)),
                    "catan {cmd} --help: {sampler}"
                );
            }
        }
        assert!(!help.contains("all five"), "catan {cmd} --help");
    }
    // ... and every one of them is accepted.
    for rule in RULES {
        stdout_of(&[
            "catan",
            "generate",
            "--rules",
            rule,
            "--count",
            "1",
            "--sampler",
            "direct",
        ]);
    }
    for sampler in SAMPLERS {
        stdout_of(&["catan", "generate", "--sampler", sampler, "--count", "1"]);
    }
}

#[test]
fn misspelled_names_get_a_did_you_mean() {
    fails_with(
        &["catan", "generate", "--rules", "red-apart,max-clusters=2"],
        None,
        "(did you mean 'max-cluster'?)",
    );
    fails_with(
        &["catan", "generate", "--sampler", "sequentail"],
        None,
        "(did you mean 'sequential'?)",
    );
    fails_with(&["man", "numbrx"], None, "(did you mean 'numbrix'?)");
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("t.toml");
    std::fs::write(
        &template,
        "title = \"T\"\n[[section]]\ngame = \"numbrixx\"\ncount = 1\n",
    )
    .unwrap();
    fails_with(
        &[
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            dir.path().join("b.pdf").to_str().unwrap(),
        ],
        None,
        "(did you mean 'numbrix'?)",
    );
}

#[test]
fn number_match_has_one_name_in_both_spellings() {
    // The command line takes either.
    let dashed = stdout_of(&["number-match", "generate", "--count", "1", "--seed", "4"]);
    let underscored = stdout_of(&["number_match", "generate", "--count", "1", "--seed", "4"]);
    assert_eq!(dashed, underscored);
    // A template takes either, and both make the same book (one file, rewritten, so
    // the command the book records is the same too).
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("boards.toml");
    let mut pdfs = Vec::new();
    for (k, name) in ["number_match", "number-match"].into_iter().enumerate() {
        std::fs::write(
            &template,
            format!("title = \"Boards\"\nseed = 3\n[[section]]\ngame = \"{name}\"\ncount = 2\n[section.params]\nlength = 18\n"),
        )
        .unwrap();
        let out = dir.path().join(format!("{k}.pdf"));
        bin()
            .args([
                "book",
                "--template",
                template.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .assert()
            .success();
        pdfs.push(std::fs::read(&out).unwrap());
    }
    assert!(pdfs[0] == pdfs[1], "the two spellings made different books");
    // A job file takes either, for items and for the statistics kind.
    let job = dir.path().join("job.toml");
    std::fs::write(
        &job,
        format!(
            "out_dir = \"{}\"\nseed = 1\n[[output]]\nname = \"a.jsonl\"\nkind = \"items\"\ngame = \"number-match\"\ncount = 2\n\n[[output]]\nname = \"s.csv\"\nkind = \"number_match_stats\"\nsamples = 20\n",
            dir.path().join("out").display()
        ),
    )
    .unwrap();
    bin()
        .args(["run", job.to_str().unwrap()])
        .assert()
        .success();
    let items = std::fs::read_to_string(dir.path().join("out/a.jsonl")).unwrap();
    assert_eq!(items.lines().count(), 2);
    assert!(items.starts_with("{\"game\":\"number_match\""), "{items}");
}

#[test]
fn a_single_section_table_says_to_write_two_brackets() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("t.toml");
    std::fs::write(
        &template,
        "title = \"T\"\n[section]\ngame = \"flip\"\ncount = 1\n",
    )
    .unwrap();
    fails_with(
        &[
            "book",
            "--template",
            template.to_str().unwrap(),
            "--out",
            dir.path().join("b.pdf").to_str().unwrap(),
        ],
        None,
        "write each section as a [[section]] table",
    );
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let version = stdout_of(&["--version"]);
    let package = env!("CARGO_PKG_VERSION");
    assert!(
        version.starts_with(&format!("puzzlebook {package}")),
        "{version}"
    );
    // Built from a git checkout (as here, where git answers), it names the commit.
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output();
    if let Ok(head) = head {
        if head.status.success() {
            let head = String::from_utf8(head.stdout).unwrap();
            assert!(
                version.contains(&format!("(commit {}", head.trim())),
                "{version} vs {head}"
            );
        }
    }
}

#[test]
fn completions_and_manual_pages_come_from_the_command_tree() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(&["completions", shell]);
        // Every game and its subcommands are completed.
        for word in [
            "flip",
            "numbrix",
            "number-match",
            "carcassonne",
            "catan",
            "generate",
            "solve",
            "preflight",
        ] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    // bash accepts its script.
    let script = stdout_of(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzlebook.bash");
    std::fs::write(&file, script).unwrap();
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .status();
    if let Ok(status) = checked {
        assert!(status.success(), "bash -n refuses the completion script");
    }
    // A shell it does not know is a usage error (status 2) that lists the shells.
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("zsh"));

    let page = stdout_of(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH puzzlebook 1"),
        "{page}"
    );
    assert!(page.contains(".TH puzzlebook 1"));
    for sub in ["book", "run", "numbrix", "completions", "man"] {
        assert!(page.contains(sub), "{sub}");
    }
    let page = stdout_of(&["man", "flip", "generate"]);
    assert!(page.contains(".TH puzzlebook-flip-generate 1"), "{page}");
    assert!(page.contains("\\-\\-size"), "every flag: {page}");
    fails_with(
        &["man", "flip", "genrate"],
        None,
        "(did you mean 'generate'?)",
    );
}

#[test]
fn every_stats_command_prints_its_table() {
    let dir = tempfile::tempdir().unwrap();
    for (args, heading) in [
        (
            vec![
                "number-match",
                "stats",
                "--samples",
                "300",
                "--max-adds",
                "1",
            ],
            "clearable",
        ),
        (
            vec!["carcassonne", "stats", "--samples", "200"],
            "landscapes",
        ),
        (vec!["catan", "stats", "--samples", "2000"], "measure"),
        (vec!["catan", "bias", "--samples", "2000"], "sampler"),
    ] {
        let out = dir.path().join(format!("{}-{}.csv", args[0], args[1]));
        let mut all = args.clone();
        all.extend(["--out", out.to_str().unwrap()]);
        let table = stdout_of(&all);
        assert!(table.contains(heading), "{args:?}: {table}");
        assert!(table.lines().count() >= 2, "{args:?}: {table}");
    }
}

#[test]
fn numbrix_help_lists_every_shape_the_parser_accepts() {
    let help = stdout_of(&["numbrix", "generate", "--help"]);
    for shape in ["corners", "cross", "frame", "diamond", "heart"] {
        assert!(help.contains(shape), "{shape}");
        stdout_of(&[
            "numbrix", "generate", "--shape", shape, "--size", "7", "--moves", "king", "--count",
            "1",
        ]);
    }
    fails_with(
        &["numbrix", "generate", "--shape", "hearts", "--size", "7"],
        None,
        "(did you mean 'heart'?)",
    );
}

#[test]
fn each_command_has_its_own_summary() {
    let help = stdout_of(&["--help"]);
    let summary = |cmd: &str| {
        help.lines()
            .find(|l| l.trim_start().starts_with(&format!("{cmd} ")))
            .unwrap_or_else(|| panic!("{cmd} missing: {help}"))
            .to_string()
    };
    assert!(
        summary("completions").contains("shell completion"),
        "{help}"
    );
    assert!(!summary("completions").contains("PDF"), "{help}");
    assert!(
        summary("preflight").contains("Check an interior PDF"),
        "{help}"
    );
    assert!(summary("man").contains("manual page"), "{help}");
}

/// The README's "wrote ..." lines are what the tool prints today: for each, the book
/// it names (the default one, or the `--template` of the `puzzlebook book` line above
/// it) is made again and its pages, items, seed and size compared. Only the time is
/// the reader's machine's own.
#[test]
fn the_readmes_wrote_lines_are_what_the_books_make() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("wrote output/") else {
            continue;
        };
        let claim = line[at..].trim_end_matches('`');
        let Some((file, rest)) = claim["wrote ".len()..].split_once(": ") else {
            continue;
        };
        if !file.ends_with(".pdf") {
            continue;
        }
        // The template: the `--template` of the nearest `book` command above, else
        // the default.
        let template = lines[..i]
            .iter()
            .rev()
            .take(3)
            .find_map(|l| {
                let l = l.strip_prefix("$ puzzlebook book ")?;
                let mut w = l.split_whitespace();
                w.position(|x| x == "--template")?;
                w.next()
            })
            .unwrap_or("templates/default.toml");
        let out = dir.path().join("b.pdf");
        let _ = std::fs::remove_file(&out);
        let o = bin()
            .args(["book", "--template"])
            .arg(root().join(template))
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let wrote = err
            .lines()
            .find(|l| l.starts_with("wrote ") && l.contains(".pdf: "))
            .unwrap_or_else(|| panic!("{template}: {err}"));
        let made = wrote.split_once(".pdf: ").unwrap().1;
        // "P pages, I items, seed S, K KB in T s": all but the time, and the size to a
        // kilobyte (the copyright year and the PDF's date are the day's).
        let facts = |s: &str| -> (String, i64) {
            let s = s.split(" in ").next().unwrap();
            let (head, kb) = s.rsplit_once(", ").unwrap();
            (
                head.to_string(),
                kb.trim_end_matches(" KB").parse().unwrap(),
            )
        };
        let (said, said_kb) = facts(rest);
        let (now, now_kb) = facts(made);
        assert!(
            said == now && (said_kb - now_kb).abs() <= 1,
            "README line {} ({template}) says: {rest}; the tool now prints: {made}",
            i + 1
        );
        checked += 1;
    }
    assert!(checked >= 3, "the README's wrote lines were not found");
}
