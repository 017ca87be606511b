//! Tests of the samplers through the game: every sampler's boards meet their rules,
//! caps, fixed hexes, and the exact expectations' symmetry.

use super::exact::{Expectations, PlacementTable};
use super::{context, Sampler, ALL_SAMPLERS};
use crate::board::{BoardKind, TOKEN_VALUES};
use crate::rules::Rules;
use crate::tests::game;
use crate::{verify_record, Catan, CatanParams};
use ground::game::{Game, Outcome};
use ground::seed::item_rng;
use ground::Error;

#[test]
fn every_board_of_every_sampler_meets_its_rules() {
    let cases = [
        (BoardKind::Base, "red-apart", 20_000),
        (BoardKind::Base, "red-apart,2-12-apart", 2000),
        (BoardKind::Base, "none", 500),
        (BoardKind::Base, "same-number-apart", 300),
        (BoardKind::Base, "red-apart,max-pips-per-corner=11", 300),
        (BoardKind::Extended, "red-apart", 1000),
        (BoardKind::Base, "red-apart,min-pips-per-corner=5", 200),
        (BoardKind::Base, "max-cluster=2,harbor-resource-apart", 200),
        (
            BoardKind::Base,
            "number-resource-apart,resource-pips=8-16",
            200,
        ),
        (
            BoardKind::Extended,
            "red-apart,max-cluster=3,min-pips-per-corner=3",
            100,
        ),
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

/// Fixed hexes, exactly: with all but six hexes fixed, every completion of the rest
/// is enumerated by brute force (every order of the free terrains and tokens, the
/// free desert anywhere free), the valid ones kept by the record check, and the
/// sampler's boards must hit each valid completion equally often (chi-square) and
/// never an invalid one.
#[test]
fn fixed_hexes_draw_the_rest_uniformly_among_valid_completions() {
    use ground::stats::{chi2_sf, pearson};
    use std::collections::{BTreeSet, HashMap};
    let board = BoardKind::Base;
    let shape = board.shape();
    let rules = "min-pips-per-corner=3,number-resource-apart";
    // A reference board meeting the rules; fix every hex but six (the desert among
    // the free ones).
    let reference = game(board, Sampler::FullRejection, rules);
    let Outcome::Accepted(r) = reference.generate(&mut item_rng(77, "catan", 0)) else {
        panic!("no board")
    };
    let desert = r.hexes.iter().position(|h| h.token.is_none()).unwrap();
    let free: Vec<usize> = (0..19)
        .filter(|&h| h == desert || h % 3 == 1)
        .take(6)
        .collect();
    assert!(free.contains(&desert));
    let fixes: Vec<String> = r
        .hexes
        .iter()
        .enumerate()
        .filter(|(h, _)| !free.contains(h))
        .map(|(_, h)| match h.token {
            Some(t) => format!("{}={}:{t}", h.n, h.terrain),
            None => format!("{}={}", h.n, h.terrain),
        })
        .collect();
    let fix = fixes.join(",");
    // Every completion: the free pieces in every order, as (terrain, token) per free hex.
    let pieces: Vec<(&str, Option<u8>)> = free
        .iter()
        .map(|&h| (r.hexes[h].terrain, r.hexes[h].token))
        .collect();
    let terrains: Vec<&str> = pieces.iter().map(|p| p.0).collect();
    let tokens: Vec<u8> = pieces.iter().filter_map(|p| p.1).collect();
    fn orders<T: Clone + Ord>(v: &[T]) -> BTreeSet<Vec<T>> {
        if v.len() <= 1 {
            return BTreeSet::from([v.to_vec()]);
        }
        let mut out = BTreeSet::new();
        for i in 0..v.len() {
            let mut rest = v.to_vec();
            let x = rest.remove(i);
            for mut o in orders(&rest) {
                o.insert(0, x.clone());
                out.insert(o);
            }
        }
        out
    }
    let checked: Rules = rules.parse().unwrap();
    let mut valid: HashMap<Vec<(String, Option<u8>)>, usize> = HashMap::new();
    let mut all = 0;
    for t_order in orders(&terrains) {
        for k_order in orders(&tokens) {
            all += 1;
            let mut rec = r.clone();
            let mut k = k_order.iter();
            for (slot, &h) in free.iter().enumerate() {
                rec.hexes[h].terrain = t_order[slot];
                rec.hexes[h].token = if t_order[slot] == "desert" {
                    None
                } else {
                    k.next().copied()
                };
            }
            // Harbors do not meet these rules: the record's own are kept.
            if verify_record(shape, &checked, &rec).is_ok() {
                let key: Vec<(String, Option<u8>)> = free
                    .iter()
                    .map(|&h| (rec.hexes[h].terrain.to_string(), rec.hexes[h].token))
                    .collect();
                let n = valid.len();
                valid.entry(key).or_insert(n);
            }
        }
    }
    assert!(
        valid.len() >= 20 && valid.len() < all,
        "{} valid of {all}",
        valid.len()
    );
    let g = Catan::new(CatanParams {
        board,
        rules: rules.into(),
        fix: fix.clone(),
        ..CatanParams::default()
    })
    .unwrap();
    let n = 60 * valid.len() as u64;
    let mut counts = vec![0u64; valid.len()];
    for i in 0..n {
        let Outcome::Accepted(b) = g.generate(&mut item_rng(78, "catan", i)) else {
            panic!("no board")
        };
        let key: Vec<(String, Option<u8>)> = free
            .iter()
            .map(|&h| (b.hexes[h].terrain.to_string(), b.hexes[h].token))
            .collect();
        let Some(&cell) = valid.get(&key) else {
            panic!("board {i} is not a valid completion: {key:?}")
        };
        counts[cell] += 1;
        for (h, x) in b
            .hexes
            .iter()
            .enumerate()
            .filter(|(h, _)| !free.contains(h))
        {
            assert_eq!((x.terrain, x.token), (r.hexes[h].terrain, r.hexes[h].token));
        }
    }
    let expect = vec![n as f64 / valid.len() as f64; valid.len()];
    let (chi, cells) = pearson(&counts, &expect);
    let p = chi2_sf(chi, (cells - 1) as f64);
    assert!(p > 1e-4, "chi {chi} over {cells} cells: p = {p}");
}
