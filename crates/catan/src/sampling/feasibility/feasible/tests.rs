use super::*;
use crate::board::{Shape, EDGE_DIR};
use crate::rules::offenders;
use std::collections::{BTreeSet, HashMap};

/// Corners found from coordinates alone: for two touching hexes, each end of
/// their shared edge is also touched by one more position; it is a corner of three
/// land hexes when that position is land, of two otherwise.
fn corners_by_coordinates(hexes: &[(i32, i32)]) -> BTreeSet<Vec<u8>> {
    let at = |p: (i32, i32)| hexes.iter().position(|&h| h == p);
    let touch = |a: (i32, i32), b: (i32, i32)| EDGE_DIR.contains(&(b.0 - a.0, b.1 - a.1));
    let mut out = BTreeSet::new();
    for (i, &a) in hexes.iter().enumerate() {
        for (j, &b) in hexes.iter().enumerate().skip(i + 1) {
            if !touch(a, b) {
                continue;
            }
            for d in EDGE_DIR {
                let p = (a.0 + d.0, a.1 + d.1);
                if p == b || !touch(p, b) {
                    continue;
                }
                let mut c = vec![i as u8, j as u8];
                if let Some(k) = at(p) {
                    c.push(k as u8);
                }
                c.sort_unstable();
                out.insert(c);
            }
        }
    }
    out
}

#[test]
fn the_boards_corners_match_the_coordinates() {
    for kind in [BoardKind::Base, BoardKind::Extended] {
        let s = kind.shape();
        let mine: BTreeSet<Vec<u8>> = s
            .corners
            .iter()
            .map(|c| {
                let mut c = c.clone();
                c.sort_unstable();
                c
            })
            .collect();
        assert_eq!(mine, corners_by_coordinates(&s.hexes), "{kind:?}");
    }
}

/// A small board for brute force.
fn small(hexes: &[(i32, i32)], deserts: usize, tokens: &[u8], terrains: &[u8]) -> Shape {
    let neighbours = hexes
        .iter()
        .map(|&a| {
            hexes
                .iter()
                .enumerate()
                .filter(|&(_, &b)| EDGE_DIR.contains(&(b.0 - a.0, b.1 - a.1)))
                .fold(0u32, |m, (j, _)| m | 1 << j)
        })
        .collect();
    Shape {
        kind: BoardKind::Base,
        hexes: hexes.to_vec(),
        neighbours,
        corners: corners_by_coordinates(hexes).into_iter().collect(),
        harbors: Vec::new(),
        terrains: terrains.to_vec(),
        deserts,
        tokens: tokens.to_vec(),
        harbor_kinds: Vec::new(),
        harbor_reach: Vec::new(),
    }
}

fn small_boards() -> Vec<Shape> {
    vec![
        // A flower: one hex and its six neighbours.
        small(
            &[(1, 1), (0, 0), (0, 1), (1, 0), (1, 2), (2, 1), (2, 2)],
            1,
            &[2, 5, 6, 8, 8, 12],
            &[0, 0, 1, 1, 2, 2],
        ),
        // Two deserts, two 6s.
        small(
            &[
                (0, 0),
                (0, 1),
                (1, 0),
                (1, 1),
                (1, 2),
                (2, 1),
                (2, 2),
                (2, 3),
            ],
            2,
            &[3, 6, 6, 8, 11, 12],
            &[0, 0, 1, 1, 2, 2],
        ),
        // Rows of 3, 4 and 3, with many equal tokens.
        small(
            &[
                (0, 0),
                (0, 1),
                (0, 2),
                (1, 0),
                (1, 1),
                (1, 2),
                (1, 3),
                (2, 1),
                (2, 2),
                (2, 3),
            ],
            1,
            &[3, 3, 11, 11, 6, 6, 8, 4, 4],
            &[0, 0, 0, 1, 1, 1, 2, 2, 3],
        ),
    ]
}

/// The next arrangement of a multiset in increasing order (false after the last).
fn next_permutation(v: &mut [u8]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len())
        .rev()
        .find(|&j| v[j] > v[i - 1])
        .expect("a larger one");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// What one arrangement of tokens (0: desert) meets: red-apart, 2-12-apart,
/// same-number-apart, and its largest corner sum (by plain sums over corners).
struct Plain {
    deserts: u32,
    red: bool,
    extreme: bool,
    same_number: bool,
    largest: u32,
}

fn every_arrangement(shape: &Shape) -> Vec<Plain> {
    let mut pieces: Vec<u8> = shape.tokens.clone();
    pieces.extend(std::iter::repeat_n(0, shape.deserts));
    pieces.sort_unstable();
    let mut out = Vec::new();
    loop {
        let mut b = Setup::default();
        let mut deserts = 0;
        for (h, &t) in pieces.iter().enumerate() {
            b.token[h] = t;
            b.terrain[h] = if t == 0 { DESERT } else { 0 };
            if t == 0 {
                deserts |= 1 << h;
            }
        }
        let holds = |r: Rule| offenders(shape, &b, r) == (0, 0);
        let largest = shape
            .corners
            .iter()
            .map(|c| c.iter().map(|&h| pips(pieces[h as usize])).sum::<u32>())
            .max()
            .unwrap_or(0);
        out.push(Plain {
            deserts,
            red: holds(Rule::RedApart),
            extreme: holds(Rule::TwoTwelveApart),
            same_number: holds(Rule::SameNumberApart),
            largest,
        });
        if !next_permutation(&mut pieces) {
            return out;
        }
    }
}

/// Whether some terrain on the land hexes (not `deserts`) meets same-terrain-apart,
/// by trying every arrangement.
fn terrain_exists(shape: &Shape, deserts: u32) -> bool {
    let mut t = shape.terrains.clone();
    t.sort_unstable();
    loop {
        let mut b = Setup::default();
        let mut k = 0;
        for h in 0..shape.len() {
            if deserts >> h & 1 == 0 {
                b.terrain[h] = t[k];
                k += 1;
            }
        }
        if offenders(shape, &b, Rule::SameTerrainApart) == (0, 0) {
            return true;
        }
        if !next_permutation(&mut t) {
            return false;
        }
    }
}

fn rule_sets() -> Vec<Rules> {
    let mut v = Vec::new();
    for bits in 0..16u32 {
        for n in std::iter::once(None).chain((5..=15).map(Some)) {
            let mut r: Vec<String> = [
                "red-apart",
                "2-12-apart",
                "same-number-apart",
                "same-terrain-apart",
            ]
            .iter()
            .enumerate()
            .filter(|(i, _)| bits >> i & 1 == 1)
            .map(|(_, s)| s.to_string())
            .collect();
            r.extend(n.map(|n| format!("max-pips-per-corner={n}")));
            v.push(r.join(",").parse().unwrap());
        }
    }
    v
}

fn meets(p: &Plain, rules: &Rules, terrain: bool) -> bool {
    (!rules.has(Rule::RedApart) || p.red)
        && (!rules.has(Rule::TwoTwelveApart) || p.extreme)
        && (!rules.has(Rule::SameNumberApart) || p.same_number)
        && (!rules.has(Rule::SameTerrainApart) || terrain)
        && rules.max_pips().is_none_or(|n| p.largest <= n)
}

#[test]
fn the_search_agrees_with_brute_force_on_small_boards() {
    for shape in small_boards() {
        let all = every_arrangement(&shape);
        let mut terrain: HashMap<u32, bool> = HashMap::new();
        for p in &all {
            terrain
                .entry(p.deserts)
                .or_insert_with(|| terrain_exists(&shape, p.deserts));
        }
        let (mut yes, mut no) = (0, 0);
        for rules in rule_sets() {
            let apart = rules.has(Rule::SameTerrainApart);
            let brute = all.iter().any(|p| meets(p, &rules, terrain[&p.deserts]));
            let o = search(&shape, &rules);
            assert!(o.complete);
            assert_eq!(o.witness.is_some(), brute, "{} hexes, {rules}", shape.len());
            if let Some(w) = o.witness {
                assert!(rules.check(&shape, &w), "{rules}: the witness breaks them");
                yes += 1;
            } else {
                no += 1;
            }
            // With the deserts fixed (what the trap check searches), per desert set.
            for d in terrain.keys().filter(|&&d| !apart || terrain[&d]) {
                let brute = all
                    .iter()
                    .any(|p| p.deserts == *d && meets(p, &rules, true));
                let fixed = search_with(&shape, &rules, Some(*d), u64::MAX);
                assert_eq!(fixed.witness.is_some(), brute, "deserts {d:b}, {rules}");
            }
        }
        // Both answers occur, so the comparison means something.
        assert!(yes > 0 && no > 0, "{yes} feasible, {no} not");
    }
}

#[test]
fn every_rule_set_on_both_boards_is_decided_and_its_board_verifies() {
    for kind in [BoardKind::Base, BoardKind::Extended] {
        let shape = kind.shape();
        for rules in rule_sets() {
            let o = search(shape, &rules);
            assert!(o.complete);
            // On both boards every combination is met from a corner limit of 9 on,
            // and none below.
            let expected = rules.max_pips().is_none_or(|n| n >= 9);
            assert_eq!(o.witness.is_some(), expected, "{kind:?} {rules}");
            if let Some(w) = o.witness {
                let r = crate::to_record(shape, &rules.to_string(), "search", w, 0);
                crate::verify_record(shape, &rules, &r)
                    .unwrap_or_else(|e| panic!("{kind:?} {rules}: {e}"));
            }
        }
    }
}

/// Whether pip levels (the desert as 0) can be laid on the base board with every
/// corner at most `n`: a plain depth-first search over the hexes in row order,
/// stopping a branch only when a corner already holds more than `n` pips.
fn plain_levels_fit(n: u32) -> bool {
    let shape = BoardKind::Base.shape();
    let mut order: Vec<usize> = (0..shape.len()).collect();
    order.sort_by_key(|&h| shape.hexes[h]);
    let corners = corners_by_coordinates(&shape.hexes);
    let mut count = [0u32; 6];
    count[0] = shape.deserts as u32;
    for &t in &shape.tokens {
        count[pips(t) as usize] += 1;
    }
    fn go(
        k: usize,
        order: &[usize],
        corners: &BTreeSet<Vec<u8>>,
        count: &mut [u32; 6],
        level: &mut [Option<u32>; 19],
        n: u32,
    ) -> bool {
        if k == order.len() {
            return true;
        }
        let h = order[k];
        for l in 0..6 {
            if count[l] == 0 {
                continue;
            }
            level[h] = Some(l as u32);
            let fine = corners.iter().filter(|c| c.contains(&(h as u8))).all(|c| {
                c.iter()
                    .map(|&x| level[x as usize].unwrap_or(0))
                    .sum::<u32>()
                    <= n
            });
            if fine {
                count[l] -= 1;
                let found = go(k + 1, order, corners, count, level, n);
                count[l] += 1;
                if found {
                    return true;
                }
            }
            level[h] = None;
        }
        false
    }
    go(0, &order, &corners, &mut count, &mut [None; 19], n)
}

#[test]
fn a_plain_search_agrees_at_the_base_boards_threshold() {
    assert!(plain_levels_fit(9));
    assert!(!plain_levels_fit(8));
}

/// The strictest rule set a board meets: the apart rules it keeps and its largest
/// corner sum as the corner limit.
fn strictest(shape: &Shape, b: &Setup) -> Rules {
    let mut names: Vec<String> = [
        Rule::RedApart,
        Rule::TwoTwelveApart,
        Rule::SameNumberApart,
        Rule::SameTerrainApart,
    ]
    .iter()
    .filter(|&&r| offenders(shape, b, r) == (0, 0))
    .map(|r| r.name())
    .collect();
    let largest = corners_by_coordinates(&shape.hexes)
        .iter()
        .map(|c| c.iter().map(|&h| pips(b.token[h as usize])).sum::<u32>())
        .max()
        .unwrap();
    names.push(format!("max-pips-per-corner={largest}"));
    names.join(",").parse().unwrap()
}

#[test]
fn boards_the_samplers_draw_are_never_called_impossible() {
    use crate::sampling::samplers::{Ctx, Sampler};
    use ground::seed::item_rng;
    let mut checked = 0;
    for kind in [BoardKind::Base, BoardKind::Extended] {
        let shape = kind.shape();
        let mut seen = std::collections::HashSet::new();
        for (rules, sampler, n) in [
            ("none", Sampler::FullRejection, 20_000),
            (
                "same-number-apart,max-pips-per-corner=11",
                Sampler::Swap,
                300,
            ),
            (
                "red-apart,same-terrain-apart,max-pips-per-corner=11",
                Sampler::Swap,
                300,
            ),
        ] {
            let ctx = Ctx::new(shape, rules.parse().unwrap(), None);
            for i in 0..n {
                let d = ctx.sample(sampler, &mut item_rng(4, "catan", i)).unwrap();
                let r = strictest(shape, &d.layout);
                if seen.insert(r.to_string()) {
                    assert!(
                        witness(kind, &r).is_some(),
                        "{kind:?}: a {sampler:?} board meets {r}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 40, "{checked} rule sets checked");
}

#[test]
fn symmetries_of_the_boards() {
    assert_eq!(symmetries(BoardKind::Base.shape()).len(), 12);
    assert_eq!(symmetries(BoardKind::Extended.shape()).len(), 4);
}

#[test]
fn traps_for_token_rejection() {
    // At the tightest limit the desert must be on one of the four kinds of places.
    let shape = BoardKind::Base.shape();
    let r: Rules = "max-pips-per-corner=9".parse().unwrap();
    let Trap::Found(d) = desert_trap(BoardKind::Base, &r, u64::MAX) else {
        panic!("a trap at 9")
    };
    let fits: Vec<usize> = (0..19)
        .filter(|&h| {
            search_with(shape, &r, Some(1 << h), u64::MAX)
                .witness
                .is_some()
        })
        .collect();
    assert!(!fits.contains(&(d.trailing_zeros() as usize)));
    assert_eq!(fits.len(), 6, "one class of six mirror images: {fits:?}");
    let r: Rules = "max-pips-per-corner=10".parse().unwrap();
    assert_eq!(desert_trap(BoardKind::Base, &r, u64::MAX), Trap::None);
    assert_eq!(desert_trap(BoardKind::Base, &r, 1), Trap::Unknown);
}
