//! The contract every registered game meets, checked for each name in
//! `puzzlebook::games::NAMES` (so a new game is covered as soon as it is registered):
//!
//! - items generate with small parameters, and the game's own `verify` accepts each;
//! - a record carries the common fields (game, index, seed) and the game's own;
//! - one worker thread and two give the same bytes (library and binary);
//! - shards 0/3, 1/3 and 2/3 merged are byte for byte the whole run;
//! - `first = K, count = 1` regenerates item K exactly, a shorter run is a prefix of a
//!   longer one, and another seed gives other items;
//! - the binary writes the records the library makes.
//!
//! The binary is driven through job files (`puzzlebook run`), whose `params` are the keys
//! of templates, so one job text serves every game.

mod common;
use common::*;
use puzzlebook::batch::{self, Record, RunOptions};
use puzzlebook::games::{self, GameVisitor, Present};
use std::path::Path;

/// Small, fast parameters for each game, as a job file's or a template's `params`. A
/// registered game missing here fails the test: add a line for it.
const SMALL: &[(&str, &str)] = &[
    ("flip", "{ size = 4 }"),
    ("catan", "{}"),
    ("numbrix", "{ size = 5 }"),
    ("number_match", "{ adds = 1, playouts = 20 }"),
    ("carcassonne", "{ tiles = 8 }"),
];

/// Items per run: enough for every shard of three to hold two.
const COUNT: u64 = 6;
/// The item `first` regenerates.
const K: u64 = 4;
const SEED: u64 = 7;

fn small(name: &str) -> &'static str {
    SMALL
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, p)| *p)
        .unwrap_or_else(|| {
            panic!(
                "game '{name}' is registered but has no small parameters in tests/conformance.rs \
                 (SMALL): add a line for it so the conformance test covers it"
            )
        })
}

/// The parameters as the library reads them (the same text a job file carries).
fn params_table(name: &str) -> toml::Table {
    let doc: toml::Table = toml::from_str(&format!("params = {}", small(name)))
        .unwrap_or_else(|e| panic!("{name}: SMALL parameters are not TOML: {e}"));
    match doc.get("params") {
        Some(toml::Value::Table(t)) => t.clone(),
        other => panic!("{name}: SMALL parameters are not a table: {other:?}"),
    }
}

fn run_opts(jobs: usize) -> RunOptions {
    RunOptions {
        seed: SEED,
        env: batch::Env {
            jobs,
            progress: false,
        },
        ..RunOptions::default()
    }
}

/// The library's side of the contract for one game; returns the JSON Lines the whole
/// run is expected to write.
struct Library {
    name: &'static str,
}

impl GameVisitor for Library {
    type Output = String;

    fn visit<G: Present>(self) -> String {
        let name = self.name;
        assert_eq!(G::NAME, name, "the registry maps '{name}' to another game");
        let params: G::Params = toml::Value::Table(params_table(name))
            .try_into()
            .unwrap_or_else(|e| panic!("{name}: SMALL parameters do not parse: {e}"));
        let game = G::new(params).unwrap_or_else(|e| panic!("{name}: new: {e}"));
        let mut by_jobs = Vec::new();
        for jobs in [1, 2] {
            let (items, summary) = batch::collect(&game, &run_opts(jobs), COUNT)
                .unwrap_or_else(|e| panic!("{name}: generate with -j {jobs}: {e}"));
            assert_eq!(summary.items, COUNT, "{name}");
            let mut lines = String::new();
            for (i, item) in items.iter().enumerate() {
                assert_eq!(item.index, i as u64, "{name}: items come in index order");
                game.verify(&item.puzzle)
                    .unwrap_or_else(|e| panic!("{name} item {i}: verify refuses it: {e}"));
                let record = Record {
                    game: G::NAME,
                    index: item.index,
                    seed: SEED,
                    puzzle: &item.puzzle,
                };
                check_fields(name, i as u64, &record);
                lines += &(serde_json::to_string(&record).unwrap() + "\n");
            }
            by_jobs.push(lines);
        }
        assert!(
            by_jobs[0] == by_jobs[1],
            "{name}: -j 1 and -j 2 give different records"
        );
        let whole = by_jobs.swap_remove(0);
        // Item i depends on the seed and i only: not on the run's length or start.
        let lines = |opts: &RunOptions, count: u64| -> Vec<String> {
            let (items, _) = batch::collect(&game, opts, count)
                .unwrap_or_else(|e| panic!("{name}: generate: {e}"));
            items
                .iter()
                .map(|item| {
                    let record = Record {
                        game: G::NAME,
                        index: item.index,
                        seed: opts.seed,
                        puzzle: &item.puzzle,
                    };
                    serde_json::to_string(&record).unwrap() + "\n"
                })
                .collect()
        };
        let short = lines(&run_opts(2), 3).concat();
        assert!(
            whole.starts_with(&short),
            "{name}: a shorter run is not a prefix"
        );
        let from_k = RunOptions {
            first: K,
            ..run_opts(2)
        };
        assert_eq!(
            lines(&from_k, 1).concat(),
            whole.lines().nth(K as usize).unwrap().to_string() + "\n",
            "{name}: first = {K}, count = 1 is not item {K}"
        );
        // The seed matters.
        let other = RunOptions {
            seed: SEED + 1,
            ..run_opts(2)
        };
        let other = lines(&other, COUNT);
        assert!(
            other.iter().zip(whole.lines()).any(|(a, b)| {
                let a: serde_json::Value = serde_json::from_str(a).unwrap();
                let b: serde_json::Value = serde_json::from_str(b).unwrap();
                let fields = |v: &serde_json::Value| {
                    let mut v = v.clone();
                    v.as_object_mut().unwrap().remove("seed");
                    v
                };
                fields(&a) != fields(&b)
            }),
            "{name}: seeds {SEED} and {} give the same items",
            SEED + 1
        );
        whole
    }
}

/// A record has game, index and seed, then every field of the game's puzzle.
fn check_fields<P: serde::Serialize>(name: &str, index: u64, record: &Record<P>) {
    let v = serde_json::to_value(record).unwrap();
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{name}: a record is a JSON object"));
    assert_eq!(obj["game"], name, "{name}: record game");
    assert_eq!(obj["index"], index, "{name}: record index");
    assert_eq!(obj["seed"], SEED, "{name}: record seed");
    let own = serde_json::to_value(record.puzzle).unwrap();
    let own = own
        .as_object()
        .unwrap_or_else(|| panic!("{name}: the puzzle serialises as an object of fields"));
    assert!(!own.is_empty(), "{name}: the puzzle has no fields");
    for (key, value) in own {
        assert!(
            !["game", "index", "seed"].contains(&key.as_str()),
            "{name}: the puzzle's field '{key}' clashes with a common field"
        );
        assert_eq!(obj.get(key), Some(value), "{name}: record field '{key}'");
    }
}

fn job_text(name: &str) -> String {
    let params = small(name);
    format!(
        r#"seed = {SEED}

[[output]]
name = "whole.jsonl"
kind = "items"
game = "{name}"
count = {COUNT}
params = {params}

[[output]]
name = "one.jsonl"
kind = "items"
game = "{name}"
first = {K}
count = 1
params = {params}
"#
    )
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The binary's side of the contract for one game, against the library's records.
fn binary(name: &str, expected: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let job = d.join("job.toml");
    std::fs::write(&job, job_text(name)).unwrap();
    let out = |sub: &str| d.join(sub);
    for jobs in ["1", "2"] {
        stdout_of(&["run", p(&job), "-q", "-j", jobs, "--out-dir", p(&out(jobs))]);
    }
    let whole = read(&out("1").join("whole.jsonl"));
    assert_eq!(whole.lines().count() as u64, COUNT, "{name}");
    assert!(
        whole == read(&out("2").join("whole.jsonl")),
        "{name}: run -j 1 and -j 2 write different records"
    );
    assert!(
        whole == expected,
        "{name}: the binary's records differ from the library's"
    );
    for k in 0..3 {
        let shard = format!("{k}/3");
        stdout_of(&[
            "run",
            p(&job),
            "-q",
            "--shard",
            &shard,
            "--out-dir",
            p(&out("sharded")),
        ]);
    }
    stdout_of(&[
        "run",
        p(&job),
        "-q",
        "--merge",
        "--out-dir",
        p(&out("sharded")),
    ]);
    for file in ["whole.jsonl", "one.jsonl"] {
        assert!(
            read(&out("1").join(file)) == read(&out("sharded").join(file)),
            "{name}: shards 0/3, 1/3, 2/3 merged differ from the whole run ({file})"
        );
    }
    let one = read(&out("1").join("one.jsonl"));
    let k = whole.lines().nth(K as usize).unwrap().to_string() + "\n";
    assert!(
        one == k,
        "{name}: first = {K}, count = 1 is not item {K}:\n{one}\n{k}"
    );
}

#[test]
fn every_registered_game_meets_the_contract() {
    for (name, _) in SMALL {
        assert!(
            games::NAMES.contains(name),
            "tests/conformance.rs (SMALL) names '{name}', which is not a registered game"
        );
    }
    for &name in games::NAMES {
        small(name); // a clear failure before any work when the table misses a game
        let expected = games::visit(name, Library { name }).unwrap();
        binary(name, &expected);
    }
}

#[test]
fn a_game_missing_from_the_table_fails_clearly() {
    let e = std::panic::catch_unwind(|| small("chess")).unwrap_err();
    let message = e.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("'chess'") && message.contains("add a line"),
        "{message}"
    );
}
