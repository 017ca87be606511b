//! Tests of the game's own parts: the record check, the text, the rules against the
//! record check. The samplers' tests are in `sampling`.

use super::board::BoardKind;
use super::*;
use ground::seed::item_rng;

/// A Catan generator of `board`, `sampler` and `rules` (tests here and in `sampling`).
pub(crate) fn game(board: BoardKind, sampler: Sampler, rules: &str) -> Catan {
    Catan::new(CatanParams {
        board,
        sampler,
        rules: rules.into(),
        ..CatanParams::default()
    })
    .unwrap()
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

/// The new rules' verdicts three ways on random boards: `holds`, the offender masks,
/// and the record check from coordinates (`verify_record`), for several limits.
#[test]
fn rule_checks_agree_with_the_record_check() {
    use super::rules::{holds, offenders};
    let rule_sets = [
        "min-pips-per-corner=3",
        "min-pips-per-corner=5",
        "max-cluster=1",
        "max-cluster=2",
        "max-cluster=3",
        "number-resource-apart",
        "resource-pips=9-16",
        "resource-pips=6-13",
        "harbor-resource-apart",
    ];
    for board in [BoardKind::Base, BoardKind::Extended] {
        let g = game(board, Sampler::FullRejection, "none");
        let shape = board.shape();
        let mut seen = [[0u32; 2]; 9];
        for i in 0..4000 {
            let Outcome::Accepted(b) = g.generate(&mut item_rng(9, "catan", i)) else {
                panic!("no board")
            };
            for (k, r) in rule_sets.iter().enumerate() {
                let rules: Rules = r.parse().unwrap();
                let rule = rules.list()[0];
                let fast = holds(shape, &b.layout, rule);
                let masks = offenders(shape, &b.layout, rule) == (0, 0);
                let slow = verify_record(shape, &rules, &b).is_ok();
                assert_eq!(fast, slow, "{r} board {i}");
                assert_eq!(masks, slow, "{r} board {i}");
                seen[k][usize::from(slow)] += 1;
            }
        }
        // Each rule both held and failed on some board of the base board (the checks
        // were exercised); on the 5-6 board some never hold on random boards
        // (number-resource-apart cannot: six reds, five resources).
        for (k, r) in rule_sets.iter().enumerate() {
            assert!(seen[k][0] > 0, "{r} never failed on {board:?}");
            assert!(
                board == BoardKind::Extended || seen[k][1] > 0,
                "{r} never held"
            );
        }
    }
}

/// A reason given up for is kept once per distinct text, however many generators
/// make it: the same text gives the same string, a new text a new one.
#[test]
fn reasons_given_up_for_are_kept_once_per_text() {
    let a = super::interned("sampler x found no board (test)".to_string());
    let b = super::interned("sampler x found no board (test)".to_string());
    let c = super::interned("sampler y found no board (test)".to_string());
    assert!(std::ptr::eq(a, b), "equal texts share one string");
    assert!(!std::ptr::eq(a, c));
    assert_eq!(c, "sampler y found no board (test)");
}
