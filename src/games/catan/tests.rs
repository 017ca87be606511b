use super::board::{BoardKind, TOKEN_VALUES};
use super::exact::{Expectations, PlacementTable};
use super::sampler::ALL_SAMPLERS;
use super::*;
use crate::seed::item_rng;

fn game(board: BoardKind, sampler: Sampler, rules: &str) -> Catan {
    Catan::new(CatanParams {
        board,
        sampler,
        rules: rules.into(),
        ..CatanParams::default()
    })
    .unwrap()
}

#[test]
fn every_board_of_every_sampler_meets_its_rules() {
    let cases = [
        (BoardKind::Base, "red-apart", 20_000),
        (BoardKind::Base, "red-apart,2-12-apart", 2000),
        (BoardKind::Base, "none", 500),
        (BoardKind::Base, "same-number-apart", 300),
        (BoardKind::Base, "red-apart,max-pips-per-corner=11", 300),
        (BoardKind::Extended, "red-apart", 1000),
    ];
    for (board, rules, n) in cases {
        for sampler in ALL_SAMPLERS {
            let Ok(g) = Catan::new(CatanParams {
                board,
                sampler,
                rules: rules.into(),
                ..CatanParams::default()
            }) else {
                assert_eq!(
                    sampler,
                    Sampler::Direct,
                    "{rules}: only direct may be unavailable"
                );
                continue;
            };
            for i in 0..n {
                let Outcome::Accepted(b) = g.generate(&mut item_rng(5, "catan", i)) else {
                    panic!("{rules} {sampler:?}: gave up")
                };
                g.verify(&b)
                    .unwrap_or_else(|e| panic!("{rules} {sampler:?} board {i}: {e}"));
                assert!(b.attempts >= 1);
            }
        }
    }
}

#[test]
fn same_terrain_apart_is_met() {
    let g = game(
        BoardKind::Base,
        Sampler::FullRejection,
        "same-terrain-apart",
    );
    for i in 0..20 {
        let Outcome::Accepted(b) = g.generate(&mut item_rng(5, "catan", i)) else {
            panic!()
        };
        g.verify(&b).unwrap();
    }
}

#[test]
fn the_verifier_catches_broken_boards() {
    let g = game(BoardKind::Base, Sampler::FullRejection, "red-apart");
    let Outcome::Accepted(mut b) = g.generate(&mut item_rng(1, "catan", 0)) else {
        panic!()
    };
    // Put two reds next to each other by swapping tokens between neighbours.
    let shape = g.shape();
    let red = (0..19)
        .find(|&i| matches!(b.hexes[i].token, Some(6) | Some(8)))
        .unwrap();
    let nb = (0..19)
        .find(|&j| {
            shape.neighbours[red] >> j & 1 == 1
                && b.hexes[j].token.is_some()
                && !matches!(b.hexes[j].token, Some(6) | Some(8))
        })
        .unwrap();
    let other_red = (0..19)
        .find(|&k| k != red && matches!(b.hexes[k].token, Some(6) | Some(8)))
        .unwrap();
    let (t1, t2) = (b.hexes[nb].token, b.hexes[other_red].token);
    b.hexes[nb].token = t2;
    b.hexes[other_red].token = t1;
    assert!(g.verify(&b).unwrap_err().to_string().contains("red-apart"));
    b.hexes[0].terrain = "desert";
    assert!(g.verify(&b).is_err());
    // A harbor listing other hexes than its piers touch.
    let Outcome::Accepted(mut b) = g.generate(&mut item_rng(1, "catan", 0)) else {
        panic!()
    };
    assert_eq!(b.harbors[1].hexes, [2, 3]);
    g.verify(&b).unwrap();
    for wrong in [vec![2], vec![3, 2], vec![2, 3, 4], vec![], vec![1, 2, 3]] {
        b.harbors[1].hexes = wrong.clone();
        let e = g.verify(&b).unwrap_err().to_string();
        assert!(e.contains("harbor 2 lists hexes"), "{wrong:?}: {e}");
    }
}

#[test]
fn exact_expectations_are_symmetric_where_the_board_is() {
    // Hexes related by the board's 180-degree rotation have the same probabilities.
    let shape = BoardKind::Base.shape();
    let rules: Rules = "red-apart".parse().unwrap();
    let e = Expectations::exact(shape, &PlacementTable::build(shape, &rules).unwrap());
    let idx = |x: i32, y: i32| shape.hexes.iter().position(|&h| h == (x, y)).unwrap();
    for &(x, y) in &shape.hexes {
        let (i, j) = (idx(x, y), idx(4 - x, 4 - y));
        assert!((e.red[i] - e.red[j]).abs() < 1e-12);
        assert!((e.desert[i] - e.desert[j]).abs() < 1e-12);
    }
    // Reds avoid the crowded centre: the centre is red less often than a corner.
    assert!(e.red[18] < e.red[0]);
    let _ = TOKEN_VALUES;
}

#[test]
fn ascii_shows_every_token_and_harbor() {
    let g = game(BoardKind::Base, Sampler::FullRejection, "red-apart");
    let Outcome::Accepted(b) = g.generate(&mut item_rng(2, "catan", 0)) else {
        panic!()
    };
    let art = g.text(&b);
    assert_eq!(art.matches("3:1").count(), 4);
    assert_eq!(art.matches("2:1").count(), 5);
    let numbers: usize = art
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty() && *w != "3" && *w != "2" && *w != "1")
        .count();
    assert!(numbers >= 10, "{art}");
}

#[test]
fn a_sampler_at_its_cap_says_which_sampler_and_rules_and_what_to_do() {
    // Boards meeting same-terrain-apart take about 2,300 attempts; allow 3.
    for sampler in [
        Sampler::FullRejection,
        Sampler::TokenRejection,
        Sampler::Sequential,
    ] {
        let g = game(BoardKind::Base, sampler, "same-terrain-apart").with_max_attempts(3);
        let mut refused = 0;
        for i in 0..20 {
            match g.generate(&mut item_rng(9, "catan", i)) {
                Outcome::Accepted(b) => {
                    assert!(b.attempts <= 3);
                    g.verify(&b).unwrap();
                }
                Outcome::Rejected(why) => {
                    refused += 1;
                    assert_eq!(
                        why,
                        format!(
                            "sampler {} found no board meeting rules same-terrain-apart on the base board \
                             in 3 attempts (the cap per board): such boards are too rare for it; \
                             loosen the rules (fewer of them)",
                            sampler.name()
                        )
                    );
                    // Counted, not timed: the same item gives up again.
                    assert_eq!(
                        g.generate(&mut item_rng(9, "catan", i)),
                        Outcome::Rejected(why)
                    );
                }
            }
        }
        assert!(refused >= 15, "{sampler:?}: {refused}");
    }
    // The library call says the same, and suggests `direct` where it applies.
    let ctx = context(
        BoardKind::Base,
        &"red-apart".parse().unwrap(),
        Sampler::Swap,
    )
    .unwrap()
    .with_max_attempts(0);
    let e = ctx
        .sample(Sampler::Swap, &mut item_rng(1, "catan", 0))
        .unwrap_err();
    assert!(matches!(e, Error::Generation(_)), "{e}");
    let e = e.to_string();
    assert!(e.starts_with("sampler swap found no board meeting rules red-apart on the base board in 0 rounds of swaps"), "{e}");
    assert!(
        e.ends_with("use the direct sampler, which draws valid boards without rejection"),
        "{e}"
    );
}

#[test]
fn caps_leave_the_boards_as_they_were() {
    // The attempt budget only counts: every board below the cap is the one drawn before.
    let rules = "same-number-apart,max-pips-per-corner=11";
    for sampler in [
        Sampler::FullRejection,
        Sampler::TokenRejection,
        Sampler::Swap,
        Sampler::Sequential,
    ] {
        let g = game(BoardKind::Base, sampler, rules);
        for i in 0..30 {
            let Outcome::Accepted(a) = g.generate(&mut item_rng(3, "catan", i)) else {
                panic!("{sampler:?}")
            };
            let small = game(BoardKind::Base, sampler, rules).with_max_attempts(a.attempts);
            let Outcome::Accepted(b) = small.generate(&mut item_rng(3, "catan", i)) else {
                panic!("{sampler:?}: the cap cut a board that fits under it")
            };
            assert_eq!(a, b);
        }
    }
}
