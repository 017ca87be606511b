//! Fuzzing the parsers of what users hand the tool besides puzzles: book templates,
//! job files and part files. Arbitrary bytes, and real files with random changes,
//! must give an answer or one clear error line: never a panic, a hang or an
//! allocation that grows with a number in the input. A fixed number of cases each,
//! so the whole file runs in seconds in `cargo test --release`.

mod common;
use common::*;
use proptest::prelude::*;
use puzzlebook::book::Template;
use puzzlebook::games::Games;
use puzzlebook::jobs::make::{merge, StatsFiles};
use puzzlebook::jobs::Job;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// An error is one line of text.
fn one_line(e: &impl std::fmt::Display) -> bool {
    !e.to_string().contains('\n')
}

/// Numbers where bugs live: zero, one, huge, negative, not numbers at all.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("-1".to_string()),
        Just("18446744073709551615".to_string()),
        Just("9223372036854775807".to_string()),
        Just("1e308".to_string()),
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("\"7\"".to_string()),
        (0u64..100).prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
    ]
}

fn game() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("flip"),
        Just("catan"),
        Just("numbrix"),
        Just("number_match"),
        Just("carcassonne"),
        Just("chess"),
    ]
}

/// A template with random values where the real ones go.
fn near_template() -> impl Strategy<Value = String> {
    (
        game(),
        number(),
        number(),
        number(),
        number(),
        prop_oneof![Just("a4"), Just("6x9"), Just("letter"), Just("a5")],
        any::<bool>(),
    )
        .prop_map(|(g, count, per_page, top, ans, size, bleed)| {
            format!(
                "title = \"T\"\npage_size = \"{size}\"\nbleed = {bleed}\n[margins]\ntop = {top}\n[answers]\ncolumns = {ans}\n[[section]]\ngame = \"{g}\"\ncount = {count}\nper_page = {per_page}\n"
            )
        })
}

/// A job file with random values where the real ones go.
fn near_job() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            Just("items"),
            Just("book"),
            Just("catan-bias"),
            Just("carcassonne-stats"),
            Just("number-match-stats"),
            Just("cake")
        ],
        game(),
        number(),
        number(),
        number(),
        prop_oneof![Just("f.jsonl"), Just("../x"), Just(".hidden"), Just("manifest.json"), Just("")],
    )
        .prop_map(|(kind, g, count, first, seed, name)| {
            format!(
                "seed = {seed}\n[[output]]\nname = \"{name}\"\nkind = \"{kind}\"\ngame = \"{g}\"\ncount = {count}\nfirst = {first}\nsamples = {count}\ntemplate = \"nowhere.toml\"\n"
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn templates_of_arbitrary_text_give_an_answer(text in "\\PC{0,400}") {
        if let Err(e) = Template::parse::<Games>(&text) {
            prop_assert!(one_line(&e), "{e}");
        }
    }

    #[test]
    fn templates_with_odd_numbers_give_an_answer(text in near_template()) {
        match Template::parse::<Games>(&text) {
            Err(e) => prop_assert!(one_line(&e), "{e}"),
            // What parses is within the bounds a book can be made from.
            Ok(t) => {
                for s in &t.sections {
                    prop_assert!(s.count >= 1 && s.count <= 828 * 12);
                    prop_assert!((1..=12).contains(&s.per_page));
                }
                prop_assert!(t.margins.top.is_finite());
                prop_assert!(t.answers.columns.is_none_or(|c| (1..=4).contains(&c)));
            }
        }
    }

    #[test]
    fn job_files_give_an_answer(text in prop_oneof![near_job(), "\\PC{0,300}"]) {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("job.toml");
        std::fs::write(&path, &text).unwrap();
        if let Err(e) = Job::load::<Games>(&path) {
            prop_assert!(one_line(&e), "{e}");
        }
    }

    #[test]
    fn job_files_of_arbitrary_bytes_give_an_answer(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("job.toml");
        std::fs::write(&path, &bytes).unwrap();
        if let Err(e) = Job::load::<Games>(&path) {
            prop_assert!(one_line(&e), "{e}");
        }
    }
}

/// Real parts of every kind, made once by the binary: (kind, bytes).
fn real_parts() -> &'static Vec<(&'static str, Vec<u8>)> {
    static PARTS: OnceLock<Vec<(&'static str, Vec<u8>)>> = OnceLock::new();
    PARTS.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let make = |kind: &'static str, args: &[&str]| {
            let out = d.path().join(kind);
            let mut all: Vec<&str> = args.to_vec();
            all.extend(["--shard", "0/1", "--out", out.to_str().unwrap()]);
            let o = bin().args(&all).output().unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            (kind, std::fs::read(&out).unwrap())
        };
        vec![
            make(
                "items",
                &["flip", "generate", "--size", "4", "--count", "3"],
            ),
            make(
                "catan-bias",
                &[
                    "catan",
                    "bias",
                    "--samples",
                    "300",
                    "--samplers",
                    "direct,swap",
                ],
            ),
            make(
                "carcassonne-stats",
                &["carcassonne", "stats", "--samples", "20", "--tiles", "5,9"],
            ),
            make(
                "number-match-stats",
                &["number-match", "stats", "--samples", "5", "--length", "9"],
            ),
        ]
    })
}

/// A part's text with its end line written anew, so that a change reaches the
/// checks behind the checksum (as a buggy or hostile writer's part would).
fn reseal(bytes: &[u8]) -> Vec<u8> {
    use sha2::Digest;
    let text = String::from_utf8_lossy(bytes);
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with("{\"puzzlebook_part_end\""))
        .map(|l| format!("{l}\n"))
        .collect();
    let hash: String = sha2::Sha256::digest(body.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let lines = body.matches('\n').count();
    format!("{body}{{\"puzzlebook_part_end\":{{\"lines\":{lines},\"sha256\":\"{hash}\"}}}}\n")
        .into_bytes()
}

fn try_merge(dir: &Path, bytes: &[u8]) -> Result<(), String> {
    let part: PathBuf = dir.join("p");
    std::fs::write(&part, bytes).unwrap();
    let files = StatsFiles::single(dir.join("out"));
    merge::<Games>(&[part], &files)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn parts_of_arbitrary_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let d = tempfile::tempdir().unwrap();
        if let Err(e) = try_merge(d.path(), &bytes) {
            prop_assert!(one_line(&e), "{e}");
        }
    }

    /// Any change to a real part is caught by its checksum, and the same change
    /// resealed gives a clean error or a merge (of what the part now says), never a
    /// panic.
    #[test]
    fn changed_parts_are_caught(which in 0usize..4, at in any::<prop::sample::Index>(), to in any::<u8>(),
                                digits in "[0-9]{1,20}") {
        let (kind, orig) = &real_parts()[which];
        let d = tempfile::tempdir().unwrap();
        let mut changed = orig.clone();
        let i = at.index(changed.len());
        if changed[i] == to {
            return Ok(());
        }
        changed[i] = to;
        let e = try_merge(d.path(), &changed).expect_err("a changed part must not merge");
        prop_assert!(one_line(&e), "{kind}: {e}");
        // Numbers replaced by other (possibly huge) numbers, sealed anew.
        let text = String::from_utf8_lossy(orig).into_owned();
        let j = at.index(text.len());
        let start = text[..j].rfind(|c: char| !c.is_ascii_digit()).map_or(0, |k| k + 1);
        if text[j..].starts_with(|c: char| c.is_ascii_digit()) && start < j + 1 {
            let end = j + text[j..].find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len() - j);
            let renumbered = format!("{}{digits}{}", &text[..start], &text[end..]);
            if let Err(e) = try_merge(d.path(), &reseal(renumbered.as_bytes())) {
                prop_assert!(one_line(&e), "{kind}: {e}");
            }
        }
    }
}

#[test]
fn real_parts_merge_as_they_are() {
    for (kind, bytes) in real_parts() {
        let d = tempfile::tempdir().unwrap();
        try_merge(d.path(), bytes).unwrap_or_else(|e| panic!("{kind}: {e}"));
        // And resealing an unchanged part changes nothing.
        assert_eq!(&reseal(bytes), bytes, "{kind}");
    }
}
