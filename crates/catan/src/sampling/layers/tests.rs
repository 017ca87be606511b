//! The counts against independent checks: listing every board where most hexes are
//! fixed, the placement table's enumeration, monotonicity, whole-board rejection, and
//! the counted sampler's boards against the exact probabilities.

use super::*;
use crate::board::TERRAIN_NAMES;
use crate::rules::holds;
use crate::sampling::exact::{Expectations, PlacementTable};
use ground::seed::item_rng;
use rand::seq::SliceRandom;

fn rules(s: &str) -> Rules {
    s.parse().unwrap()
}

fn layers(r: &str) -> Layers {
    Layers::build(BoardKind::Base, &rules(r), &Fixes::default()).unwrap()
}

/// Every distinct arrangement of a multiset, in order.
fn arrangements_of(items: &[u8], f: &mut impl FnMut(&[u8])) {
    fn go(left: &mut Vec<(u8, usize)>, cur: &mut Vec<u8>, n: usize, f: &mut impl FnMut(&[u8])) {
        if cur.len() == n {
            f(cur);
            return;
        }
        for i in 0..left.len() {
            if left[i].1 == 0 {
                continue;
            }
            left[i].1 -= 1;
            cur.push(left[i].0);
            go(left, cur, n, f);
            cur.pop();
            left[i].1 += 1;
        }
    }
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    let mut left: Vec<(u8, usize)> = Vec::new();
    for v in sorted {
        match left.last_mut() {
            Some((u, c)) if *u == v => *c += 1,
            _ => left.push((v, 1)),
        }
    }
    go(&mut left, &mut Vec::new(), items.len(), f);
}

/// Fixes pinning every hex of `b` but those in `free` (the desert always pinned).
fn fixes_of(b: &Setup, free: &[usize]) -> Fixes {
    let parts: Vec<String> = (0..19)
        .filter(|h| !free.contains(h))
        .map(|h| {
            let name = TERRAIN_NAMES[b.terrain[h] as usize];
            if b.terrain[h] == DESERT {
                format!("{}={name}", h + 1)
            } else {
                format!("{}={name}:{}", h + 1, b.token[h])
            }
        })
        .collect();
    parts.join(",").parse().unwrap()
}

/// Boards agreeing with `b` off `free` that meet `r`, by listing every arrangement
/// of the free hexes' terrains, tokens and (when a rule looks at them) harbors.
fn brute_force(b: &Setup, free: &[usize], r: &Rules) -> u128 {
    let shape = BoardKind::Base.shape();
    let terrains: Vec<u8> = free.iter().map(|&h| b.terrain[h]).collect();
    let tokens: Vec<u8> = free.iter().map(|&h| b.token[h]).collect();
    let mut harbor_layouts: Vec<Vec<u8>> = Vec::new();
    if r.needs_harbors() {
        arrangements_of(&shape.harbor_kinds, &mut |h| {
            harbor_layouts.push(h.to_vec())
        });
    }
    let mut valid = 0u128;
    let mut board = *b;
    arrangements_of(&terrains, &mut |ts| {
        for (&h, &t) in free.iter().zip(ts) {
            board.terrain[h] = t;
        }
        arrangements_of(&tokens, &mut |ks| {
            for (&h, &k) in free.iter().zip(ks) {
                board.token[h] = k;
            }
            if harbor_layouts.is_empty() {
                if r.check(shape, &board) {
                    valid += 15_120;
                }
            } else {
                for h in &harbor_layouts {
                    board.harbor[..9].copy_from_slice(h);
                    if r.check(shape, &board) {
                        valid += 1;
                    }
                }
            }
        });
    });
    valid
}

#[test]
fn counts_with_most_hexes_fixed_agree_with_listing_every_board() {
    let cases = [
        ("red-apart", 5),
        ("red-apart,2-12-apart", 5),
        ("same-number-apart", 5),
        ("same-terrain-apart", 5),
        ("max-cluster=2", 5),
        ("max-cluster=3", 5),
        ("min-pips-per-corner=5", 5),
        ("max-pips-per-corner=11", 5),
        ("red-apart,min-pips-per-corner=5,max-cluster=2", 5),
        ("harbor-resource-apart", 3),
        ("harbor-resource-apart,max-cluster=2,red-apart", 3),
    ];
    let shape = BoardKind::Base.shape();
    for (i, (r, k)) in cases.into_iter().enumerate() {
        let rl = rules(r);
        // A valid board to pin: drawn with every hex fixed free (the rules'
        // feasibility aside, full rejection would do; the counted layers are quick).
        let mut rng = item_rng(11, "layers-brute", i as u64);
        let b = loop {
            let mut t: Vec<u8> = shape.terrains.clone();
            t.push(DESERT);
            t.shuffle(&mut rng);
            let mut tok = shape.tokens.clone();
            tok.shuffle(&mut rng);
            let mut h = shape.harbor_kinds.clone();
            h.shuffle(&mut rng);
            let mut b = Setup::default();
            let mut it = tok.into_iter();
            for (x, &tt) in t.iter().enumerate() {
                b.terrain[x] = tt;
                b.token[x] = if tt == DESERT { 0 } else { it.next().unwrap() };
            }
            b.harbor[..9].copy_from_slice(&h);
            if rl.check(shape, &b) {
                break b;
            }
        };
        let land: Vec<usize> = (0..19).filter(|&h| b.terrain[h] != DESERT).collect();
        let mut free = land.clone();
        free.shuffle(&mut rng);
        free.truncate(k);
        free.sort_unstable();
        let fixes = fixes_of(&b, &free);
        let l = Layers::build(BoardKind::Base, &rl, &fixes).unwrap();
        assert!(l.is_exact());
        let want = brute_force(&b, &free, &rl);
        assert!(want > 0, "{r}: the pinned board itself is valid");
        assert_eq!(l.count(), want, "{r} with hexes {free:?} free");
    }
}

#[test]
fn placement_rules_agree_with_the_placement_table() {
    let shape = BoardKind::Base.shape();
    for r in ["none", "red-apart", "red-apart,2-12-apart", "2-12-apart"] {
        let l = layers(r);
        let table = PlacementTable::build(shape, &rules(r)).unwrap();
        assert_eq!(l.acceptance(), table.acceptance(shape), "{r}");
        let a = l.expectations().unwrap();
        let b = Expectations::exact(shape, &table);
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        for h in 0..19 {
            assert!(close(a.desert[h], b.desert[h]), "{r} desert {h}");
            assert!(close(a.red[h], b.red[h]), "{r} red {h}");
            for k in 0..10 {
                assert!(close(a.token[h][k], b.token[h][k]), "{r} token {h} {k}");
            }
            for t in 0..6 {
                assert!(
                    close(a.terrain[h][t], b.terrain[h][t]),
                    "{r} terrain {h} {t}"
                );
            }
        }
        assert_eq!(a.resource.len(), b.resource.len());
        for (x, y) in a.resource.iter().flatten().zip(b.resource.iter().flatten()) {
            assert!(close(*x, *y));
        }
    }
    // The spec's figures.
    assert_eq!(layers("red-apart").acceptance(), Fraction::new(7, 51));
    assert_eq!(
        layers("red-apart,2-12-apart").acceptance(),
        Fraction::new(7033, 67830)
    );
}

#[test]
fn tightening_a_rule_never_adds_boards() {
    let chains: [&[&str]; 4] = [
        &[
            "min-pips-per-corner=3",
            "min-pips-per-corner=5",
            "min-pips-per-corner=6",
            "min-pips-per-corner=7",
        ],
        &[
            "max-pips-per-corner=13",
            "max-pips-per-corner=12",
            "max-pips-per-corner=11",
            "max-pips-per-corner=10",
        ],
        &[
            "none",
            "red-apart",
            "red-apart,2-12-apart",
            "red-apart,2-12-apart,min-pips-per-corner=5",
        ],
        &[
            "resource-pips=6-20",
            "resource-pips=8-17",
            "resource-pips=9-16",
            "resource-pips=10-14",
        ],
    ];
    for chain in chains {
        let counts: Vec<u128> = chain.iter().map(|r| layers(r).count()).collect();
        for w in counts.windows(2) {
            assert!(w[1] <= w[0], "{chain:?}: {counts:?}");
        }
        assert!(
            counts[0] > counts[counts.len() - 1],
            "{chain:?}: {counts:?}"
        );
    }
    // max-cluster=1 and same-terrain-apart are one rule on a board with one desert.
    assert_eq!(
        layers("max-cluster=1").count(),
        layers("same-terrain-apart").count()
    );
    // Boards meeting both of two rules are at least those meeting each, less all:
    // |A and B| >= |A| + |B| - |all| (inclusion-exclusion), and at most either.
    let all = layers("none").count();
    for (a, b) in [
        ("red-apart", "min-pips-per-corner=5"),
        ("2-12-apart", "max-pips-per-corner=11"),
        ("red-apart", "number-resource-apart"),
        ("min-pips-per-corner=5", "resource-pips=9-16"),
    ] {
        let (ca, cb) = (layers(a).count(), layers(b).count());
        let both = layers(&format!("{a},{b}")).count();
        assert!(both + all >= ca + cb, "{a} & {b}");
        assert!(both <= ca.min(cb), "{a} & {b}");
    }
}

/// A uniformly random board of the base board (every arrangement equally likely).
fn random_board(rng: &mut ground::seed::Rng) -> Setup {
    crate::rules::tests::random_board(BoardKind::Base.shape(), rng)
}

#[test]
fn whole_board_rejection_keeps_the_exact_share() {
    // 2 million uniform boards per rule set: the share kept agrees with the exact
    // acceptance within 4.5 standard errors.
    let shape = BoardKind::Base.shape();
    for (i, r) in [
        "min-pips-per-corner=5",
        "red-apart,number-resource-apart",
        "resource-pips=9-16",
        "max-pips-per-corner=11,2-12-apart",
        "harbor-resource-apart",
    ]
    .into_iter()
    .enumerate()
    {
        let rl = rules(r);
        let p = layers(r).acceptance().value();
        let n = 2_000_000u64;
        let mut rng = item_rng(5, "layers-accept", i as u64);
        let kept = (0..n)
            .filter(|_| rl.check(shape, &random_board(&mut rng)))
            .count() as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        let z = (kept / n as f64 - p) / se;
        assert!(z.abs() < 4.5, "{r}: kept {kept} of {n}, exact {p}, z = {z}");
    }
}

#[allow(clippy::needless_range_loop)]
/// Draw `n` boards with the counted layers; every board must be valid and whole;
/// return the largest |z| over every hex's terrain, token and desert frequencies
/// against the exact probabilities.
fn worst_z(r: &str, n: u64, seed: u64) -> f64 {
    worst_z_fixed(r, "", n, seed)
}

/// [`worst_z`] with fixed hexes: every board must also agree with the fixes.
#[allow(clippy::needless_range_loop)]
fn worst_z_fixed(r: &str, fix: &str, n: u64, seed: u64) -> f64 {
    let shape = BoardKind::Base.shape();
    let rl = rules(r);
    let fixes: Fixes = fix.parse().unwrap();
    let l = Layers::build(BoardKind::Base, &rl, &fixes).unwrap();
    let exp = l.expectations().unwrap();
    let mut rng = item_rng(seed, "layers-draw", 0);
    let mut draws = Draws::new(&mut rng);
    let mut terrain = vec![[0u64; 6]; 19];
    let mut token = vec![[0u64; 10]; 19];
    for _ in 0..n {
        let (b, _) = l.draw(&mut draws);
        assert!(rl.check(shape, &b), "{r}: {b:?}");
        assert!(fixes.agree(&b), "{r} {fix}: {b:?}");
        let mut t: Vec<u8> = b.terrain[..19].to_vec();
        t.sort_unstable();
        let mut want: Vec<u8> = shape.terrains.clone();
        want.push(DESERT);
        want.sort_unstable();
        assert_eq!(t, want, "{r}: terrain pieces");
        let mut k: Vec<u8> = b.token[..19].iter().copied().filter(|&v| v != 0).collect();
        k.sort_unstable();
        let mut want = shape.tokens.clone();
        want.sort_unstable();
        assert_eq!(k, want, "{r}: tokens");
        for h in 0..19 {
            terrain[h][b.terrain[h] as usize] += 1;
            if let Some(i) = TOKEN_VALUES.iter().position(|&v| v == b.token[h]) {
                token[h][i] += 1;
            }
        }
    }
    let z = |seen: u64, p: f64| {
        if p <= 0.0 {
            return if seen == 0 { 0.0 } else { f64::INFINITY };
        }
        (seen as f64 - p * n as f64) / (n as f64 * p * (1.0 - p)).sqrt().max(1e-12)
    };
    let mut worst: f64 = 0.0;
    for h in 0..19 {
        for t in 0..6 {
            worst = worst.max(z(terrain[h][t], exp.terrain[h][t]).abs());
        }
        for k in 0..10 {
            worst = worst.max(z(token[h][k], exp.token[h][k]).abs());
        }
    }
    worst
}

#[test]
fn counted_boards_match_the_exact_probabilities() {
    // About 300 features per rule set: under uniform draws the largest |z| exceeds
    // 5 with probability below 1e-4.
    for (i, r) in [
        "red-apart,2-12-apart",
        "same-terrain-apart",
        "min-pips-per-corner=5",
        // Tokens from the placement rules' graph, redrawn while the corner rule fails.
        "red-apart,min-pips-per-corner=5",
        "number-resource-apart",
        "red-apart,resource-pips=9-16",
        "max-pips-per-corner=11,same-terrain-apart",
        // Terrain by rejection within its layer, tokens redrawn for the tie.
        "max-cluster=2,number-resource-apart",
    ]
    .into_iter()
    .enumerate()
    {
        let w = worst_z(r, 200_000, i as u64);
        assert!(w < 5.0, "{r}: largest |z| {w}");
    }
}

#[test]
fn counted_boards_with_fixes_match_the_exact_probabilities() {
    for (i, (r, fix)) in [
        ("red-apart,min-pips-per-corner=5", "19=desert,1=wood:6"),
        ("max-cluster=2,red-apart", "19=desert,5=sheep:8,13=sheep"),
    ]
    .into_iter()
    .enumerate()
    {
        let w = worst_z_fixed(r, fix, 200_000, 40 + i as u64);
        assert!(w < 5.0, "{r} {fix}: largest |z| {w}");
    }
}

#[test]
fn a_biased_draw_is_caught() {
    // The check above would see a sampler that ignores the layers' weights: boards
    // of the placement rules drawn with every desert place equally likely are not
    // uniform under red-apart (a central desert leaves more room for the reds).
    let l = layers("red-apart");
    let exp = l.expectations().unwrap();
    let centre = (0..19)
        .max_by(|&a, &b| exp.desert[a].total_cmp(&exp.desert[b]))
        .unwrap();
    let uniform = 1.0 / 19.0;
    let n = 200_000f64;
    let z = (uniform - exp.desert[centre]) * n / (n * exp.desert[centre]).sqrt();
    assert!(z.abs() > 5.0, "a uniform desert would pass: z = {z}");
}

#[test]
fn unreachable_rule_sets_say_why() {
    let e = Layers::build(BoardKind::Extended, &rules("red-apart"), &Fixes::default()).unwrap_err();
    assert!(e.to_string().contains("base board only"), "{e}");
    let l = layers("red-apart,min-pips-per-corner=5,number-resource-apart,max-cluster=1");
    assert!(!l.is_exact());
    assert!(l.expectations().is_none());
}

#[test]
fn each_layer_rule_is_judged_by_its_layer() {
    // The layer split is sound only if every rule but the tying ones looks at one
    // layer: shuffling the other layer never changes its verdict.
    let shape = BoardKind::Base.shape();
    let mut rng = item_rng(3, "layers-split", 0);
    for r in [
        "red-apart",
        "2-12-apart",
        "same-number-apart",
        "max-pips-per-corner=11",
        "min-pips-per-corner=6",
        "same-terrain-apart",
        "max-cluster=2",
    ] {
        let rule = rules(r).list()[0];
        let terrain_rule = !tokens::constrains(&rules(r));
        for _ in 0..2000 {
            let b = random_board(&mut rng);
            let mut c = random_board(&mut rng);
            // c keeps b's desert and one layer of b.
            let d = (0..19).find(|&h| b.terrain[h] == DESERT).unwrap();
            let dc = (0..19).find(|&h| c.terrain[h] == DESERT).unwrap();
            c.terrain.swap(d, dc);
            c.token.swap(d, dc);
            if terrain_rule {
                c.terrain = b.terrain;
            } else {
                c.token = b.token;
            }
            assert_eq!(holds(shape, &b, rule), holds(shape, &c, rule), "{r}");
        }
    }
}

#[test]
fn relabelling_and_the_board_symmetries_do_not_change_counts() {
    // The terrain graph stored as least relabellings counts what the plain graph
    // counts (the 3:1 harbors included), and desert places alike under the board's
    // symmetries have equal counts.
    let shape = BoardKind::Base.shape();
    for r in [
        "same-terrain-apart",
        "same-terrain-apart,harbor-resource-apart",
    ] {
        let rl = rules(r);
        let harbors = rl.has(Rule::HarborResourceApart);
        let order = Order::new(shape, &row_major(shape), harbors, true);
        let mut per_desert = Vec::new();
        let places: &[usize] = if harbors { &[0, 18] } else { &[0, 1, 12, 18] };
        for &d in places {
            let spec = terrain::TerrainSpec::new(shape, &order, &rl, d, vec![None; 19]);
            assert!(spec.relabels.len() > 1);
            let least = Dag::build(&spec, MAX_STATES, usize::MAX);
            let mut plain = terrain::TerrainSpec::new(shape, &order, &rl, d, vec![None; 19]);
            plain.relabels.truncate(1);
            let plain = Dag::build(&plain, MAX_STATES, usize::MAX);
            let (a, b) = (least.unwrap(), plain.unwrap());
            assert_eq!(a.total(), b.total(), "{r}, desert on {d}");
            assert!(a.states() < b.states(), "{r}: relabelling merges states");
            per_desert.push((d, a.total()));
        }
        if !harbors {
            // Hexes 1 and 2 (corner, edge of the coast), 13 (inner ring), 19 (centre):
            // every coast corner counts alike.
            let l = layers(r);
            let sym = board_symmetries(shape);
            assert_eq!(sym.len(), 12);
            for &(d, c) in &per_desert {
                for map in &sym {
                    let e = map[d];
                    let spec = terrain::TerrainSpec::new(shape, &order, &rl, e, vec![None; 19]);
                    assert_eq!(
                        Dag::build(&spec, MAX_STATES, usize::MAX).unwrap().total(),
                        c,
                        "{r}: {d} -> {e}"
                    );
                }
            }
            assert!(l.count() > 0);
        }
    }
}
