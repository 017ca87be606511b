//! One clear line for each bad input a hostile audit tried (issue 46): names with
//! control characters refused and never printed raw, the key of a TOML value of the
//! wrong type named, a picture format named as such, a Numbrix given out of range,
//! a grid error said once, doubled braces in a date pattern, and `catan count`'s
//! table in one column.

use crate::common::*;
use std::path::Path;

fn run_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut cmd = bin();
    cmd.current_dir(dir).args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Exit 1 with exactly one line on stderr, holding `needle`, and no raw control
/// character anywhere in what was printed.
fn one_line(dir: &Path, args: &[&str], stdin: Option<&str>, needle: &str) -> String {
    let (code, out, err) = run_in(dir, args, stdin);
    assert_eq!(code, Some(1), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
    for text in [&out, &err] {
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "raw control character: {text:?}"
        );
    }
    err
}

const ITEMS: &str =
    "[[output]]\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n";

#[test]
fn names_with_control_characters_are_refused_and_never_printed_raw() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // BEL in an output's name, ESC in out_dir (as TOML escapes).
    std::fs::write(
        d.join("bel.toml"),
        format!("out_dir = \"out\"\n{ITEMS}name = \"a\\u0007.jsonl\"\n"),
    )
    .unwrap();
    one_line(d, &["run", "bel.toml"], None, "no control characters");
    std::fs::write(
        d.join("esc.toml"),
        format!("out_dir = \"out\\u001b[31m\"\n{ITEMS}name = \"a.jsonl\"\n"),
    )
    .unwrap();
    one_line(
        d,
        &["run", "esc.toml"],
        None,
        "out_dir out\\u{1b}[31m has control characters",
    );
    std::fs::write(
        d.join("ok.toml"),
        format!("out_dir = \"out\"\n{ITEMS}name = \"a.jsonl\"\n"),
    )
    .unwrap();
    one_line(
        d,
        &["run", "ok.toml", "--out-dir", "x\u{1b}]0;owned\u{7}"],
        None,
        "argument 4 ('x\\u{1b}]0;owned\\u{7}') holds a control character",
    );
    one_line(
        d,
        &["flip", "generate", "--size", "3", "--out", "f\u{7}.jsonl"],
        None,
        "holds a control character",
    );
    one_line(
        d,
        &["catalogue", "merge", "ok.toml", "--into", "c\u{1b}.txt"],
        None,
        "holds a control character",
    );
    // Nothing was made under any of those names.
    assert!(std::fs::read_dir(d).unwrap().flatten().all(|e| !e
        .file_name()
        .to_string_lossy()
        .chars()
        .any(char::is_control)));
    // A manifest naming a file with ESC in its name (forged; the file exists with
    // that name and content): verify shows the name escaped.
    let (code, _, err) = run_in(d, &["run", "ok.toml"], None);
    assert_eq!(code, Some(0), "{err}");
    let odd = "evil\u{1b}[2J.txt";
    std::fs::write(d.join("out").join(odd), b"x").unwrap();
    let mpath = d.join("out/manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&mpath).unwrap()).unwrap();
    let mut e = m["outputs"][0].clone();
    e["file"] = odd.into();
    e["sha256"] = sha256_hex(b"x").into();
    e["bytes"] = 1.into();
    m["outputs"].as_array_mut().unwrap().push(e);
    std::fs::write(&mpath, serde_json::to_string(&m).unwrap()).unwrap();
    let (code, out, err) = run_in(d, &["verify", "out/manifest.json"], None);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("evil\\u{1b}[2J.txt"), "{out}");
    assert!(
        !out.contains('\u{1b}') && !err.contains('\u{1b}'),
        "{out:?}"
    );
}

#[test]
fn wrong_values_name_their_key_and_what_was_meant() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("keep.toml"),
        format!("out_dir = \"out/{{date}}\"\nkeep = -1\n{ITEMS}name = \"a.jsonl\"\n"),
    )
    .unwrap();
    one_line(
        d,
        &["run", "keep.toml"],
        None,
        "line 2: `keep`: invalid value: integer `-1`, expected a whole number from 0 to 4294967295",
    );
    std::fs::write(
        d.join("count.toml"),
        "out_dir = \"out\"\n[[output]]\nname = \"a.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = \"ten\"\n",
    )
    .unwrap();
    one_line(
        d,
        &["run", "count.toml"],
        None,
        "output 'a.jsonl': `count`: invalid type: string \"ten\"",
    );
    std::fs::write(
        d.join("jpg.toml"),
        "out_dir = \"out\"\n[[output]]\nname = \"pics\"\nkind = \"images\"\ngame = \"flip\"\ncount = 2\nformats = [\"jpg\"]\n",
    )
    .unwrap();
    let err = one_line(
        d,
        &["run", "jpg.toml"],
        None,
        "formats: 'jpg' is not a picture format: use \"svg\", \"png\" or both",
    );
    assert!(!err.contains("unknown kind"), "{err}");
    std::fs::write(
        d.join("braces.toml"),
        format!("out_dir = \"out/{{{{date}}}}\"\n{ITEMS}name = \"a.jsonl\"\n"),
    )
    .unwrap();
    let err = one_line(
        d,
        &["run", "braces.toml"],
        None,
        "has '{{': a placeholder takes one pair of braces, such as {date}",
    );
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn numbrix_grids_out_of_range_are_said_once_with_the_row() {
    let dir = tempfile::tempdir().unwrap();
    let err = one_line(
        dir.path(),
        &["numbrix", "solve"],
        Some(". . .\n1000000000 . .\n. . 9\n"),
        "standard input: grid 1 (line 1): row 2: '1000000000' is out of range",
    );
    assert!(!err.contains("is not a number"), "{err}");
    // A ragged grid: one place, not "grid 1 (line 1): grid 1 (from line 1)".
    let err = one_line(
        dir.path(),
        &["numbrix", "solve"],
        Some("1 . .\n. .\n. . 9\n"),
        "grid 1 (line 1): row 2 has 2 cells but row 1 has 3",
    );
    assert_eq!(err.matches("grid 1").count(), 1, "{err}");
}
