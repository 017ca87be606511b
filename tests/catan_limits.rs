//! Catan rule sets that no board meets, samplers that cannot draw boards under a
//! rule set, and bounds on the bias sample counts, through the library.

use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::games::catan::{verify_record, Catan, CatanParams};
use puzzlebook::games::{Game, Outcome};
use puzzlebook::limits::MAX_SAMPLES;
use puzzlebook::sampling::bias_stat::{self as catan_bias, BiasSpec};
use puzzlebook::sampling::ALL_SAMPLERS;
use puzzlebook::sampling::{context, Sampler};
use puzzlebook::seed::item_rng;
use puzzlebook::Error;
use std::time::{Duration, Instant};

fn catan(board: BoardKind, sampler: Sampler, rules: &str) -> puzzlebook::Result<Catan> {
    Catan::new(CatanParams {
        board,
        sampler,
        rules: rules.into(),
        ..CatanParams::default()
    })
}

fn bias_spec(board: &str, rules: &str, samplers: Option<&str>) -> BiasSpec {
    BiasSpec {
        samples: 1000,
        samplers: samplers.map(str::to_string),
        board: board.parse().unwrap(),
        rules: rules.into(),
        reference_samples: 1000,
        replicates: 1,
        summary: None,
        report: None,
    }
}

/// Rule sets no board meets (found by the exhaustive search; the brute force and the
/// plain search in `feasible.rs` confirm the thresholds independently).
const INFEASIBLE: &[(BoardKind, &str)] = &[
    (BoardKind::Base, "max-pips-per-corner=5"),
    (BoardKind::Base, "max-pips-per-corner=7"),
    (BoardKind::Base, "max-pips-per-corner=8"),
    (
        BoardKind::Base,
        "red-apart,same-number-apart,max-pips-per-corner=8",
    ),
    (BoardKind::Base, "same-terrain-apart,max-pips-per-corner=6"),
    (BoardKind::Extended, "max-pips-per-corner=5"),
    (BoardKind::Extended, "max-pips-per-corner=8"),
    (
        BoardKind::Extended,
        "2-12-apart,same-number-apart,same-terrain-apart,max-pips-per-corner=8",
    ),
];

#[test]
fn rules_no_board_meets_are_refused_at_once_whatever_the_sampler() {
    for &(board, rules) in INFEASIBLE {
        let want = format!(
            "rules {rules}: no {} board meets them (exhaustive search)",
            board.name()
        );
        for sampler in ALL_SAMPLERS {
            let started = Instant::now();
            let e = match catan(board, sampler, rules) {
                Ok(_) => panic!("{rules} on {board:?} with {sampler:?} was accepted"),
                Err(e) => e.to_string(),
            };
            assert!(started.elapsed() < Duration::from_secs(1), "{rules}");
            assert!(e.starts_with(&want), "{e}");
            assert!(e.contains("max-pips-per-corner=9"), "{e}");
            assert!(context(board, &rules.parse().unwrap(), sampler).is_err());
        }
        // Bias runs refuse them too, with every sampler or with some.
        for samplers in [None, Some("swap"), Some("direct")] {
            let e = catan_bias::setup(&bias_spec(board.name(), rules, samplers))
                .err()
                .unwrap_or_else(|| panic!("bias {rules} {samplers:?} was accepted"))
                .to_string();
            assert!(e.starts_with(&want), "{e}");
        }
    }
}

#[test]
fn samplers_that_cannot_draw_such_boards_are_refused_at_set_up() {
    // Token-rejection keeps its terrain: with the desert on the coast no tokens fit
    // a corner limit of 9 (decided by the exhaustive search, at once).
    for board in [BoardKind::Base, BoardKind::Extended] {
        let started = Instant::now();
        let e = catan(board, Sampler::TokenRejection, "max-pips-per-corner=9")
            .err()
            .expect("refused")
            .to_string();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(
            e.starts_with(&format!(
                "sampler token-rejection cannot draw boards meeting rules max-pips-per-corner=9 on the {} board: with the desert on hex",
                board.name()
            )),
            "{e}"
        );
    }
    // Whole-board rejection finds no such board in a whole board's cap of attempts
    // (the pilot: cheap attempts here, as red-apart refuses most red sets at once).
    let started = Instant::now();
    let rules = "red-apart,max-pips-per-corner=9";
    let e = catan(BoardKind::Base, Sampler::FullRejection, rules)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(
        e.starts_with(&format!(
            "sampler full-rejection cannot draw boards meeting rules {rules} on the base board: it found none in 50000000 attempts"
        )),
        "{e}"
    );
    assert!(e.contains("loosen the rules"), "{e}");
    // The same for a bias run that would use it, also only for its reference run.
    let e = catan_bias::setup(&bias_spec("base", rules, Some("full-rejection")))
        .err()
        .expect("refused")
        .to_string();
    assert!(e.starts_with("sampler full-rejection cannot draw"), "{e}");
    // Its reference run is of direct, which draws the reds apart without rejection
    // and so finds these boards: a study of swap alone can be made.
    let (ctx, samplers) = catan_bias::setup(&bias_spec("base", rules, Some("swap"))).unwrap();
    assert_eq!(samplers, [Sampler::Swap]);
    assert_eq!(
        puzzlebook::sampling::bias::reference_sampler(&ctx),
        Sampler::Direct
    );
}

#[test]
fn rule_sets_that_work_are_not_refused() {
    // The slowest ones measured keep working: full-rejection takes up to ~9 million
    // (cheap) attempts a board on the extended board here.
    for (board, sampler, rules) in [
        (
            BoardKind::Extended,
            Sampler::FullRejection,
            "red-apart,max-pips-per-corner=10",
        ),
        (
            BoardKind::Base,
            Sampler::TokenRejection,
            "max-pips-per-corner=10",
        ),
        (
            BoardKind::Base,
            Sampler::Sequential,
            "red-apart,same-number-apart,max-pips-per-corner=10",
        ),
        (
            BoardKind::Base,
            Sampler::FullRejection,
            "same-terrain-apart",
        ),
        (
            BoardKind::Extended,
            Sampler::Swap,
            "same-number-apart,same-terrain-apart",
        ),
    ] {
        let g = catan(board, sampler, rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
        for i in 0..2 {
            let Outcome::Accepted(b) = g.generate(&mut item_rng(7, "catan", i)) else {
                panic!("{rules} {sampler:?}")
            };
            g.verify(&b).unwrap();
        }
    }
}

#[test]
fn the_tightest_corner_limits_give_boards_that_pass_the_verifier() {
    // Base: 9 is the tightest limit any board meets (8 is refused above), and the
    // swap sampler reaches it; a seed that finds its board in a few hundred rounds.
    let g = catan(BoardKind::Base, Sampler::Swap, "max-pips-per-corner=9").unwrap();
    let Outcome::Accepted(b) = g.generate(&mut item_rng(1, "catan", 1)) else {
        panic!("no board")
    };
    g.verify(&b).unwrap();
    verify_record(g.shape(), &"max-pips-per-corner=9".parse().unwrap(), &b).unwrap();
    // Extended: 9 is met by some board but by none that a sampler finds in its cap
    // (token-rejection is refused above); 10 is drawn by whole-board rejection.
    let g = catan(
        BoardKind::Extended,
        Sampler::FullRejection,
        "max-pips-per-corner=10",
    )
    .unwrap();
    for i in 0..3 {
        let Outcome::Accepted(b) = g.generate(&mut item_rng(1, "catan", i)) else {
            panic!("no board")
        };
        g.verify(&b).unwrap();
    }
}

#[test]
fn bias_sample_counts_are_bounded_before_any_work() {
    let mut spec = bias_spec("base", "red-apart", Some("direct"));
    spec.samples = MAX_SAMPLES + 1;
    match catan_bias::setup(&spec) {
        Err(Error::Param { name, problem }) => {
            assert_eq!(name, "samples");
            assert!(
                problem.starts_with("is 1000000000000001: at most"),
                "{problem}"
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
    spec.samples = u64::MAX;
    assert!(catan_bias::setup(&spec).is_err());
    spec.samples = MAX_SAMPLES;
    assert!(catan_bias::setup(&spec).is_ok());
    spec.reference_samples = u64::MAX;
    match catan_bias::setup(&spec) {
        Err(Error::Param { name, .. }) => assert_eq!(name, "reference_samples"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
