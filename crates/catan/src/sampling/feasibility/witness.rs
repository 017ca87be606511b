//! Whether a board exists under rules the exhaustive search does not cover
//! (`min-pips-per-corner`, `max-cluster`, `number-resource-apart`, `resource-pips`,
//! `harbor-resource-apart`) or with fixed hexes.
//!
//! Three steps, the first two exact:
//!
//! 1. the part of the rules the exhaustive search covers must be met (see
//!    [`super::feasible`]; more rules only remove boards);
//! 2. necessary conditions that give a reason a player can check: the pips a
//!    resource's hexes can carry at the least and the most, how many tokens of one
//!    value (or reds) five resources can hold apart, how many pips a desert's corners
//!    can reach, and fixed hexes that already break a rule between them;
//! 3. a search for a board: a local search (min-conflicts with occasional uphill
//!    moves, restarted from fresh random boards) from fixed random streams, so the
//!    answer is the same on every run. A board it finds is checked by the
//!    independent verifier. When it finds none within its budget, the rules are
//!    refused with a message that says so: such boards are at best very rare (every
//!    sampler would then give up at its cap), but the search does not prove there are
//!    none.

use crate::board::{pips, Shape, DESERT, MAX_HEX, TERRAIN_NAMES};
use crate::fix::{Fix, Fixes, Free};
use crate::rules::{offenders, Rule, Rules, Setup};
use ground::seed::Rng;
use rand::{Rng as _, SeedableRng};

/// Moves the local search makes from one random start before starting again.
pub(crate) const MOVES_PER_START: u32 = 20_000;
/// Random starts the local search makes before it gives up: at most
/// `STARTS * MOVES_PER_START` moves, about a second of work.
pub(crate) const STARTS: u32 = 25;
const SEED: u64 = 0x05ee_d0fb_0a2d;

/// Why no board can meet the rules with the fixes, when a necessary condition fails.
pub(crate) fn impossible(shape: &Shape, rules: &Rules, fixes: &Fixes) -> Option<String> {
    let board = shape.kind.name();
    let resources: Vec<(u8, usize)> = (0..DESERT)
        .map(|t| (t, shape.terrain_count(t)))
        .filter(|&(_, k)| k > 0)
        .collect();
    let mut by_pips: Vec<u32> = shape.tokens.iter().map(|&t| pips(t)).collect();
    by_pips.sort_unstable();
    let total: u32 = by_pips.iter().sum();
    for rule in rules.list() {
        match *rule {
            Rule::ResourcePips(lo, hi) => {
                for &(t, k) in &resources {
                    let least: u32 = by_pips[..k].iter().sum();
                    let most: u32 = by_pips[by_pips.len() - k..].iter().sum();
                    let name = TERRAIN_NAMES[usize::from(t)];
                    if hi < least || lo > most {
                        return Some(format!(
                            "{} cannot be met on the {board} board: {name} has {k} hexes, whose numbers carry {least} to {most} pips",
                            rule.name()
                        ));
                    }
                }
                let r = resources.len() as u32;
                if lo * r > total || hi * r < total {
                    return Some(format!(
                        "{} cannot be met on the {board} board: its tokens carry {total} pips in all, which {r} resources cannot share with each between {lo} and {hi}",
                        rule.name()
                    ));
                }
            }
            Rule::NumberResourceApart => {
                let r = resources.len();
                let reds = shape.reds();
                if reds > r {
                    return Some(format!(
                        "{} cannot be met on the {board} board: it has {reds} red tokens (6s and 8s) and {r} resources, so some resource gets two",
                        rule.name()
                    ));
                }
                if let Some(v) = shape
                    .tokens
                    .iter()
                    .copied()
                    .find(|&v| shape.token_count(v) > r)
                {
                    return Some(format!(
                        "{} cannot be met on the {board} board: it has {} tokens {v} and {r} resources",
                        rule.name(),
                        shape.token_count(v)
                    ));
                }
            }
            Rule::MinPipsPerCorner(n) => {
                // The desert lies on a corner of three land hexes (every hex of both
                // boards does); the other two touch, so with red-apart they hold at
                // most a red and a 5 or 9.
                let on_corner = (0..shape.len()).all(|h| {
                    shape
                        .corners
                        .iter()
                        .any(|c| c.len() == 3 && c.contains(&(h as u8)))
                });
                let cap = if rules.red_apart() { 9 } else { 10 };
                if on_corner && n > cap {
                    return Some(format!(
                        "{} cannot be met on the {board} board: the desert's corners get pips from two tokens only, at most {cap}{}",
                        rule.name(),
                        if cap == 9 { " when reds are apart" } else { "" }
                    ));
                }
            }
            _ => {}
        }
    }
    fixed_clash(shape, rules, fixes)
}

/// Fixed hexes that already break a rule between them: two that touch under an apart
/// rule, two of one resource under `number-resource-apart`, or a resource whose fixed
/// numbers alone carry more pips than `resource-pips` allows.
fn fixed_clash(shape: &Shape, rules: &Rules, fixes: &Fixes) -> Option<String> {
    let f = fixes.list();
    for rule in rules.list() {
        let clash = match *rule {
            Rule::NumberResourceApart => fixed_numbers_on_resource(f, rule),
            Rule::ResourcePips(_, hi) => fixed_resource_pips(f, hi, rule),
            Rule::MaxCluster(n) => fixed_cluster(shape, f, n, rule),
            Rule::MinPipsPerCorner(n) => fixed_corner_too_few(shape, f, n, rule),
            Rule::MaxPipsPerCorner(n) => fixed_corner_too_many(shape, f, n, rule),
            _ => None,
        };
        if clash.is_some() {
            return clash;
        }
    }
    fixed_neighbours_clash(shape, rules, f)
}

/// Two fixed hexes of one resource whose numbers `number-resource-apart` forbids together.
fn fixed_numbers_on_resource(f: &[Fix], rule: &Rule) -> Option<String> {
    for (i, a) in f.iter().enumerate() {
        for c in &f[i + 1..] {
            let (Some(x), Some(y)) = (a.token, c.token) else {
                continue;
            };
            if a.terrain == c.terrain && Rule::numbers_clash_on_resource(x, y) {
                return Some(format!(
                    "the fixed hexes {} and {} are both {} with {x} and {y}, which {} forbids",
                    a.hex + 1,
                    c.hex + 1,
                    TERRAIN_NAMES[usize::from(a.terrain)],
                    rule.name()
                ));
            }
        }
    }
    None
}

/// A resource whose fixed numbers alone carry more than `hi` pips (`resource-pips`).
fn fixed_resource_pips(f: &[Fix], hi: u32, rule: &Rule) -> Option<String> {
    for t in 0..DESERT {
        let fixed: u32 = f
            .iter()
            .filter(|x| x.terrain == t)
            .map(|x| pips(x.token.unwrap_or(0)))
            .sum();
        if fixed > hi {
            return Some(format!(
                "the fixed {} hexes already carry {fixed} pips, more than {} allows",
                TERRAIN_NAMES[usize::from(t)],
                rule.name()
            ));
        }
    }
    None
}

/// Fixed hexes of one terrain side by side that already form a group larger than `n`.
fn fixed_cluster(shape: &Shape, f: &[Fix], n: u32, rule: &Rule) -> Option<String> {
    for t in 0..DESERT {
        let mask = f
            .iter()
            .filter(|x| x.terrain == t)
            .fold(0u32, |m, x| m | 1 << x.hex);
        if let Some(g) = crate::rules::groups(shape, mask).find(|g| g.count_ones() > n) {
            return Some(format!(
                "the fixed hexes {} are {} side by side, a group of {}, larger than {} allows",
                hex_list(g),
                TERRAIN_NAMES[usize::from(t)],
                g.count_ones(),
                rule.name()
            ));
        }
    }
    None
}

/// A corner of three land hexes whose numbers are all fixed (a desert carries none)
/// and carry fewer than `n` pips.
fn fixed_corner_too_few(shape: &Shape, f: &[Fix], n: u32, rule: &Rule) -> Option<String> {
    for c in shape.corners.iter().filter(|c| c.len() == 3) {
        let on: Vec<_> = f.iter().filter(|x| c.contains(&x.hex)).collect();
        let settled = on.len() == 3 && on.iter().all(|x| x.token.is_some() || x.terrain == DESERT);
        let sum: u32 = on.iter().map(|x| pips(x.token.unwrap_or(0))).sum();
        if settled && sum < n {
            let mask = on.iter().fold(0u32, |m, x| m | 1 << x.hex);
            return Some(format!(
                "the fixed hexes {} meet at a corner whose numbers carry {sum} pips, fewer than {} asks",
                hex_list(mask),
                rule.name()
            ));
        }
    }
    None
}

/// Fixed numbers meeting at one corner that already carry more than `n` pips.
fn fixed_corner_too_many(shape: &Shape, f: &[Fix], n: u32, rule: &Rule) -> Option<String> {
    for c in &shape.corners {
        let on: Vec<_> = f
            .iter()
            .filter(|x| c.contains(&x.hex) && x.token.is_some())
            .collect();
        let sum: u32 = on.iter().map(|x| pips(x.token.unwrap_or(0))).sum();
        if sum > n {
            let mask = on.iter().fold(0u32, |m, x| m | 1 << x.hex);
            return Some(format!(
                "the fixed hexes {} meet at a corner whose numbers carry {sum} pips, more than {} allows",
                hex_list(mask),
                rule.name()
            ));
        }
    }
    None
}

/// Two touching fixed hexes whose tokens or terrains break an apart rule.
fn fixed_neighbours_clash(shape: &Shape, rules: &Rules, f: &[Fix]) -> Option<String> {
    for (i, a) in f.iter().enumerate() {
        for c in &f[i + 1..] {
            if shape.neighbours[usize::from(a.hex)] >> c.hex & 1 == 0 {
                continue;
            }
            for rule in rules.list() {
                let tokens = match (a.token, c.token) {
                    (Some(x), Some(y)) => rule.tokens_clash(x, y),
                    _ => false,
                };
                let broken = tokens || rule.terrains_clash(a.terrain, c.terrain);
                if broken {
                    return Some(format!(
                        "the fixed hexes {} and {} touch and break {}",
                        a.hex + 1,
                        c.hex + 1,
                        rule.name()
                    ));
                }
            }
        }
    }
    None
}

/// Hexes of a mask as the user numbers them: "1, 2 and 3".
fn hex_list(mask: u32) -> String {
    let v: Vec<String> = (0..32)
        .filter(|h| mask >> h & 1 == 1)
        .map(|h| (h + 1).to_string())
        .collect();
    match v.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => v.join(""),
    }
}

/// How far a board is from meeting the rules: offending pieces summed over the rules.
fn cost(shape: &Shape, rules: &Rules, b: &Setup) -> u32 {
    rules
        .list()
        .iter()
        .map(|&r| {
            let (t, g) = offenders(shape, b, r);
            t.count_ones() + g.count_ones()
        })
        .sum()
}

/// A random completion of the fixes.
fn start(shape: &Shape, free: &Free, rng: &mut Rng) -> Setup {
    let mut b = free.base;
    let mut avail = free.terrain_free;
    let mut deserts = 0u32;
    for _ in 0..free.deserts {
        let h = nth_bit(avail, rng.random_range(0..avail.count_ones()));
        avail &= !(1 << h);
        deserts |= 1 << h;
        b.terrain[h] = DESERT;
        b.token[h] = 0;
    }
    let fill = |places: u32, pieces: &[u8], rng: &mut Rng, to: &mut [u8; MAX_HEX]| {
        let mut v = pieces.to_vec();
        for i in (1..v.len()).rev() {
            v.swap(i, rng.random_range(0..=i));
        }
        let mut m = places;
        for x in v {
            to[m.trailing_zeros() as usize] = x;
            m &= m - 1;
        }
    };
    fill(free.token_free & !deserts, &free.tokens, rng, &mut b.token);
    fill(
        free.terrain_free & !deserts,
        &free.terrains,
        rng,
        &mut b.terrain,
    );
    let k = shape.harbor_kinds.len();
    let mut h = shape.harbor_kinds.clone();
    for i in (1..k).rev() {
        h.swap(i, rng.random_range(0..=i));
    }
    b.harbor[..k].copy_from_slice(&h);
    b
}

fn nth_bit(mut m: u32, k: u32) -> usize {
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros() as usize
}

/// One random move that keeps the fixes and the multisets: swap two free tokens, two
/// free terrains (tokens stay), a free desert with a free land hex (its token moves
/// to where the desert was), or two harbors.
fn propose(shape: &Shape, free: &Free, b: &mut Setup, hot: u32, rng: &mut Rng) {
    let n = shape.len();
    let pick = |m: u32, rng: &mut Rng| -> Option<usize> {
        (m != 0).then(|| nth_bit(m, rng.random_range(0..m.count_ones())))
    };
    let land = (0..n).fold(0u32, |m, h| {
        if b.terrain[h] != DESERT {
            m | 1 << h
        } else {
            m
        }
    });
    // Prefer moving an offending piece: it is the one that must change.
    let first = |m: u32, rng: &mut Rng| {
        if m & hot != 0 && rng.random_bool(0.8) {
            pick(m & hot, rng)
        } else {
            pick(m, rng)
        }
    };
    match rng.random_range(0..8u32) {
        0..=3 => {
            let m = free.token_free & land;
            if let Some(a) = first(m, rng) {
                if let Some(c) = pick(m & !(1 << a), rng) {
                    b.token.swap(a, c);
                }
            }
        }
        4..=5 => {
            let m = free.terrain_free & land;
            if let Some(a) = first(m, rng) {
                if let Some(c) = pick(m & !(1 << a), rng) {
                    b.terrain.swap(a, c);
                }
            }
        }
        6 => {
            let d = pick(free.terrain_free & !land, rng);
            let h = pick(free.terrain_free & free.token_free & land, rng);
            if let (Some(d), Some(h)) = (d, h) {
                b.terrain.swap(d, h);
                b.token.swap(d, h);
            }
        }
        _ => {
            let k = shape.harbor_kinds.len();
            if k > 1 {
                let a = rng.random_range(0..k);
                let c = rng.random_range(0..k);
                b.harbor.swap(a, c);
            }
        }
    }
}

/// What the local search found: a board, and the moves it made.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    /// A board meeting the rules with the fixes, if one was found.
    pub board: Option<Setup>,
    /// Moves made.
    pub moves: u64,
}

/// Look for a board meeting `rules` with `fixes` (already checked against `shape`).
pub fn search(shape: &Shape, rules: &Rules, fixes: &Fixes) -> Found {
    let free = Free::new(shape, fixes);
    let mut moves = 0u64;
    for s in 0..STARTS {
        let mut rng = Rng::seed_from_u64(SEED ^ u64::from(s).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut b = start(shape, &free, &mut rng);
        let mut c = cost(shape, rules, &b);
        for _ in 0..MOVES_PER_START {
            if c == 0 {
                return Found {
                    board: Some(b),
                    moves,
                };
            }
            moves += 1;
            let hot = rules.offenders(shape, &b);
            let mut next = b;
            propose(shape, &free, &mut next, hot.0 | hot.1, &mut rng);
            let c2 = cost(shape, rules, &next);
            // Downhill or level always; uphill now and then, to leave a local minimum.
            if c2 <= c || rng.random_bool(0.02) {
                b = next;
                c = c2;
            }
        }
        if c == 0 {
            return Found {
                board: Some(b),
                moves,
            };
        }
    }
    Found { board: None, moves }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;

    fn rules(s: &str) -> Rules {
        s.parse().unwrap()
    }

    #[test]
    fn fixed_hexes_that_alone_break_a_cluster_or_corner_rule_are_named() {
        let base = BoardKind::Base.shape();
        // A corner of three land hexes, its hexes numbered as users number them.
        let c = base.corners.iter().find(|c| c.len() == 3).unwrap();
        let (a, b, d) = (c[0] + 1, c[1] + 1, c[2] + 1);
        let fixes: Fixes = format!("{a}=wood:6,{b}=rock:5,{d}=clay:9").parse().unwrap();
        // 5 + 4 + 4 = 13 pips at the corner.
        let e = impossible(base, &rules("max-pips-per-corner=12"), &fixes).unwrap();
        assert!(
            e.contains("13 pips") && e.contains(&format!("{a}, {b} and {d}")),
            "{e}"
        );
        assert!(impossible(base, &rules("max-pips-per-corner=13"), &fixes).is_none());
        // 1 + 1 + 2 = 4 pips: a corner below min-pips-per-corner=5.
        let low: Fixes = format!("{a}=wood:2,{b}=rock:12,{d}=clay:3")
            .parse()
            .unwrap();
        let e = impossible(base, &rules("min-pips-per-corner=5"), &low).unwrap();
        assert!(e.contains("4 pips") && e.contains("fewer than"), "{e}");
        assert!(impossible(base, &rules("min-pips-per-corner=4"), &low).is_none());
        // With one number left free the corner is not settled.
        let open: Fixes = format!("{a}=wood:2,{b}=rock:12,{d}=clay").parse().unwrap();
        assert!(impossible(base, &rules("min-pips-per-corner=5"), &open).is_none());
        // The same three hexes all rock: a group of 3 (they touch pairwise).
        let fixes: Fixes = format!("{a}=rock:6,{b}=rock:5,{d}=rock:9").parse().unwrap();
        let e = impossible(base, &rules("max-cluster=2"), &fixes).unwrap();
        assert!(e.contains("a group of 3") && e.contains("rock"), "{e}");
        assert!(impossible(base, &rules("max-cluster=3"), &fixes).is_none());
    }

    #[test]
    fn necessary_conditions_name_the_reason() {
        let base = BoardKind::Base.shape();
        let none = Fixes::default();
        // Clay and rock have 3 hexes: at most 5+5+5 = 15 pips (three of the four
        // reds), at least 1+1+2 = 4 (the 2, the 12 and a 3 or 11).
        let e = impossible(base, &rules("resource-pips=16-20"), &none).unwrap();
        assert!(
            e.contains("clay has 3 hexes") && e.contains("4 to 15"),
            "{e}"
        );
        // 58 pips over 5 resources: 12 each is 60.
        let e = impossible(base, &rules("resource-pips=12-14"), &none).unwrap();
        assert!(e.contains("58 pips"), "{e}");
        assert!(impossible(base, &rules("resource-pips=9-16"), &none).is_none());
        let ext = BoardKind::Extended.shape();
        let e = impossible(ext, &rules("number-resource-apart"), &none).unwrap();
        assert!(e.contains("6 red tokens"), "{e}");
        assert!(impossible(base, &rules("number-resource-apart"), &none).is_none());
        let e = impossible(base, &rules("red-apart,min-pips-per-corner=10"), &none).unwrap();
        assert!(e.contains("at most 9"), "{e}");
        let e = impossible(base, &rules("min-pips-per-corner=11"), &none).unwrap();
        assert!(e.contains("at most 10"), "{e}");
        let f: Fixes = "1=wood:6,2=clay:8".parse().unwrap();
        let e = impossible(base, &rules("red-apart"), &f).unwrap();
        assert!(e.contains("fixed hexes 1 and 2"), "{e}");
        let f: Fixes = "1=clay:6,5=clay:8".parse().unwrap();
        let e = impossible(base, &rules("number-resource-apart"), &f).unwrap();
        assert!(e.contains("both clay with 6 and 8"), "{e}");
        let f: Fixes = "1=rock:6,5=rock:8,9=rock:5".parse().unwrap();
        let e = impossible(base, &rules("resource-pips=4-12"), &f).unwrap();
        assert!(e.contains("fixed rock hexes already carry 14 pips"), "{e}");
    }

    #[test]
    fn the_search_finds_boards_that_verify() {
        let base = BoardKind::Base.shape();
        for (r, f) in [
            ("red-apart,min-pips-per-corner=4", ""),
            ("max-cluster=1,harbor-resource-apart", ""),
            ("number-resource-apart,resource-pips=9-14", ""),
            ("red-apart", "10=desert,1=wood:6"),
        ] {
            let (r, f): (Rules, Fixes) = (rules(r), f.parse().unwrap());
            let found = search(base, &r, &f).board.expect("a board");
            assert!(r.check(base, &found), "{r}");
            assert!(f.agree(&found), "{f}");
            let mut t: Vec<u8> = found.terrain[..19].to_vec();
            t.sort_unstable();
            let mut want = base.terrains.clone();
            want.push(DESERT);
            want.sort_unstable();
            assert_eq!(t, want);
        }
    }
}
