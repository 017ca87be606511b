//! Same seed, same bytes: at any thread count, across run lengths, across shards,
//! and for books both across processes and within one.

mod common;
use common::*;

#[test]
fn jsonl_is_identical_at_one_and_two_threads() {
    let args = [
        "flip", "generate", "--size", "9", "--count", "3000", "--seed", "11", "-q",
    ];
    let one = stdout_of(&[&args[..], &["-j", "1"]].concat());
    let two = stdout_of(&[&args[..], &["-j", "2"]].concat());
    assert_eq!(one.lines().count(), 3000);
    assert_eq!(one, two);
}

#[test]
fn item_i_does_not_depend_on_run_length_or_start() {
    let short = stdout_of(&[
        "flip", "generate", "--size", "7", "--count", "10", "--seed", "5",
    ]);
    let long = stdout_of(&[
        "flip", "generate", "--size", "7", "--count", "20", "--seed", "5",
    ]);
    assert!(long.starts_with(&short));
    let one = stdout_of(&[
        "flip", "generate", "--size", "7", "--count", "1", "--first", "13", "--seed", "5",
    ]);
    assert_eq!(
        one.as_str(),
        long.lines().nth(13).unwrap().to_owned() + "\n"
    );
}

#[test]
fn shards_merge_back_into_the_single_run() {
    let full = stdout_of(&[
        "flip", "generate", "--size", "4", "--count", "23", "--seed", "2",
    ]);
    for n in [2usize, 7] {
        let mut lines: Vec<(u64, String)> = Vec::new();
        for k in 0..n {
            let part = stdout_of(&[
                "flip",
                "generate",
                "--size",
                "4",
                "--count",
                "23",
                "--seed",
                "2",
                "--shard",
                &format!("{k}/{n}"),
            ]);
            let mut it = part.lines();
            let header: serde_json::Value = serde_json::from_str(it.next().unwrap()).unwrap();
            assert_eq!(header["shard"], serde_json::json!([k, n]));
            // The last line ends the part (its line count and checksum).
            let body: Vec<&str> = it.collect();
            let (end, body) = body.split_last().unwrap();
            assert!(end.starts_with("{\"puzzlebook_part_end\":"), "{end}");
            for &l in body {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                assert_eq!(v["index"].as_u64().unwrap() % n as u64, k as u64);
                lines.push((v["index"].as_u64().unwrap(), l.to_string()));
            }
        }
        lines.sort();
        let merged: String = lines.into_iter().map(|(_, l)| l + "\n").collect();
        assert_eq!(merged, full, "n = {n}");
    }
}

#[test]
fn seeds_matter() {
    let a = stdout_of(&[
        "flip", "generate", "--size", "6", "--count", "5", "--seed", "1",
    ]);
    let b = stdout_of(&[
        "flip", "generate", "--size", "6", "--count", "5", "--seed", "2",
    ]);
    assert_ne!(a, b);
}

#[test]
fn book_bytes_are_identical_at_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let mut pdfs = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("book-{jobs}.pdf"));
        let res = bin()
            .args([
                "book",
                "--template",
                template("default.toml").to_str().unwrap(),
                "-j",
                jobs,
                "--seed",
                "99",
            ])
            .args(["--out", out.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(res.status.success());
        pdfs.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(pdfs[0], pdfs[1]);
    let other = dir.path().join("other.pdf");
    bin()
        .args([
            "book",
            "--template",
            template("default.toml").to_str().unwrap(),
            "--seed",
            "100",
        ])
        .args(["--out", other.to_str().unwrap()])
        .assert()
        .success();
    assert_ne!(
        std::fs::read(&other).unwrap(),
        pdfs[0],
        "the seed changes the book"
    );
}

#[test]
fn book_bytes_are_identical_within_one_process() {
    let t = puzzlebook::book::Template::load(&template("default.toml")).unwrap();
    let opts = puzzlebook::book::BookOptions::default();
    let a = puzzlebook::book::build(&t, &opts).unwrap();
    let b = puzzlebook::book::build(&t, &opts).unwrap();
    assert_eq!(a.pdf, b.pdf);
}
