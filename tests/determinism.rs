//! Same seed, same bytes: many items at one and two threads, and books both across
//! processes and within one. (Every game's items across thread counts, run lengths,
//! starts, seeds and shards: tests/conformance.rs.)

mod common;
use common::*;
use puzzlebook::games::Games;

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
    let t = puzzlebook::book::Template::load::<Games>(&template("default.toml")).unwrap();
    let opts = puzzlebook::book::BookOptions::default();
    let a = puzzlebook::book::build::<Games>(&t, &opts).unwrap();
    let b = puzzlebook::book::build::<Games>(&t, &opts).unwrap();
    assert_eq!(a.pdf, b.pdf);
}
