//! The rules that tie the tokens to the terrain (`number-resource-apart`,
//! `resource-pips`) judge only which tokens each resource gets. When one layer is
//! unconstrained (any arrangement as good as any other), the share of its
//! arrangements that meet these rules is the same whatever the other layer holds, and
//! it is counted here by sharing the tokens out among the resources: for each resource
//! in turn, every sub-multiset of the tokens left of its size.

use crate::board::{is_red, pips, Shape, DESERT, PIP_BINS, TOKEN_VALUES};
use crate::rules::{Rule, Rules};
use crate::sampling::bounded::Draws;
use std::collections::HashMap;

/// Whether the rules tie tokens to terrain.
pub(crate) fn ties(rules: &Rules) -> bool {
    rules
        .list()
        .iter()
        .any(|r| matches!(r, Rule::NumberResourceApart | Rule::ResourcePips(..)))
}

/// The tokens shared out among the resources under the tying rules.
#[derive(Debug, Clone)]
pub(crate) struct Shares {
    /// Arrangements of the tokens on the land hexes, for one fixed arrangement of the
    /// terrain, that meet the rules.
    pub tokens_per_terrain: u128,
    /// Arrangements of the terrain on the land hexes, for one fixed arrangement of the
    /// tokens, that meet the rules.
    pub terrain_per_tokens: u128,
    /// `with[r][k]`: of those token arrangements (times the hexes of resource r), how
    /// many put TOKEN_VALUES[k] on a given hex of resource r, summed over its hexes.
    pub with: Vec<[u128; 10]>,
    /// `pips[r][s]`: of those token arrangements, how many give resource r pips s.
    pub pips: Vec<Vec<u128>>,
    /// The sharing as a walkable table, to draw a share directly.
    pub walk: ShareWalk,
}

/// The sharing of the tokens among the resources, one level per resource, to draw
/// a share (the tokens each resource gets) with probability proportional to its
/// arrangements: uniformly among the token arrangements on a fixed terrain that meet
/// the tying rules, and (the arrangements being a constant multiple of the terrain
/// arrangements with that share on fixed tokens) among the terrain arrangements too.
#[derive(Debug, Clone, Default)]
pub(crate) struct ShareWalk {
    /// `levels[r]`: the states of resource r (level 0 holds the one start).
    levels: Vec<ShareLevel>,
    /// The distinct parts the options take.
    parts: Vec<[u8; 10]>,
}

/// The states of one resource, their options stored flat (a state's options are
/// `first[s]..first[s + 1]`) so that a draw's search reads one short run of memory.
#[derive(Debug, Clone, Default)]
struct ShareLevel {
    /// Per state: the ways to share what it has left among this resource and the
    /// ones after.
    ways: Vec<u64>,
    first: Vec<u32>,
    /// Per option: the running sum of its state's options' weights up to and
    /// including it (a weight: the part's arrangements on the resource's hexes times
    /// the ways on from the next state).
    below: Vec<u64>,
    /// Per option: the part the resource takes (an index into the walk's parts) and
    /// the state of the next resource it leaves.
    part: Vec<u16>,
    next: Vec<u32>,
}

impl ShareWalk {
    /// A share drawn uniformly (one number per resource): `parts[r][k]` copies of
    /// TOKEN_VALUES[k] go to resource r.
    #[inline]
    pub fn draw(&self, draws: &mut Draws) -> [[u8; 10]; DESERT as usize] {
        let mut parts = [[0u8; 10]; DESERT as usize];
        let mut at = 0usize;
        for (level, part) in self.levels.iter().zip(parts.iter_mut()) {
            let (from, to) = (level.first[at] as usize, level.first[at + 1] as usize);
            let i = if to - from == 1 {
                from
            } else {
                let r = draws.below_u128(u128::from(level.ways[at])) as u64;
                from + level.below[from..to].partition_point(|&b| b <= r)
            };
            *part = self.parts[usize::from(level.part[i])];
            at = level.next[i] as usize;
        }
        parts
    }
}

fn factorial(n: u32) -> u128 {
    (1..=u128::from(n)).product()
}

/// Sub-multisets of `left` (counts per value) of size `size`, as counts per value.
fn parts(left: &[u8; 10], size: u32, f: &mut impl FnMut(&[u8; 10])) {
    fn go(i: usize, left: &[u8; 10], size: u32, cur: &mut [u8; 10], f: &mut impl FnMut(&[u8; 10])) {
        if i == 10 {
            if size == 0 {
                f(cur);
            }
            return;
        }
        let rest: u32 = left[i..].iter().map(|&c| u32::from(c)).sum();
        if rest < size {
            return;
        }
        for take in 0..=u32::from(left[i]).min(size) {
            cur[i] = take as u8;
            go(i + 1, left, size - take, cur, f);
        }
        cur[i] = 0;
    }
    go(0, left, size, &mut [0; 10], f);
}

struct Sharing<'a> {
    sizes: Vec<u32>,
    rules: &'a Rules,
    memo: HashMap<(usize, [u8; 10]), u128>,
}

impl Sharing<'_> {
    fn allowed(&self, part: &[u8; 10]) -> bool {
        let sum: u32 = part
            .iter()
            .zip(TOKEN_VALUES)
            .map(|(&c, v)| u32::from(c) * pips(v))
            .sum();
        self.rules.list().iter().all(|r| match *r {
            Rule::NumberResourceApart => {
                part.iter().all(|&c| c <= 1)
                    && part
                        .iter()
                        .zip(TOKEN_VALUES)
                        .filter(|(_, v)| is_red(*v))
                        .map(|(&c, _)| c)
                        .sum::<u8>()
                        <= 1
            }
            Rule::ResourcePips(lo, hi) => (lo..=hi).contains(&sum),
            _ => true,
        })
    }

    /// Arrangements of `part` on a resource's hexes.
    fn arrangements(size: u32, part: &[u8; 10]) -> u128 {
        factorial(size)
            / part
                .iter()
                .map(|&c| factorial(u32::from(c)))
                .product::<u128>()
    }

    /// Ways to share `left` among resources r.. (arrangements on their hexes).
    fn ways(&mut self, r: usize, left: [u8; 10]) -> u128 {
        if r == self.sizes.len() {
            return u128::from(left.iter().all(|&c| c == 0));
        }
        if let Some(&w) = self.memo.get(&(r, left)) {
            return w;
        }
        let mut total = 0u128;
        for (p, rest) in self.options(&left, self.sizes[r]) {
            total += Self::arrangements(self.sizes[r], &p) * self.ways(r + 1, rest);
        }
        self.memo.insert((r, left), total);
        total
    }

    /// The allowed parts of size `size` from `left`, each with the tokens it leaves.
    fn options(&self, left: &[u8; 10], size: u32) -> Vec<([u8; 10], [u8; 10])> {
        let mut out = Vec::new();
        parts(left, size, &mut |p| {
            if self.allowed(p) {
                let mut rest = *left;
                for (x, &c) in rest.iter_mut().zip(p) {
                    *x -= c;
                }
                out.push((*p, rest));
            }
        });
        out
    }

    /// The walkable table of the sharing from `all`, keeping only states with ways on.
    fn walk(&mut self, all: [u8; 10]) -> ShareWalk {
        let mut walk = ShareWalk::default();
        let mut part_index: HashMap<[u8; 10], u16> = HashMap::new();
        let mut here = vec![all];
        for r in 0..self.sizes.len() {
            let mut next: Vec<[u8; 10]> = Vec::new();
            let mut index: HashMap<[u8; 10], u32> = HashMap::new();
            let mut level = ShareLevel::default();
            for left in &here {
                level.first.push(level.below.len() as u32);
                let mut below = 0u64;
                for (part, rest) in self.options(left, self.sizes[r]) {
                    let on = self.ways(r + 1, rest);
                    if on == 0 {
                        continue;
                    }
                    let w = Self::arrangements(self.sizes[r], &part) * on;
                    below += u64::try_from(w).expect("shares fit in 64 bits");
                    let at = *index.entry(rest).or_insert_with(|| {
                        next.push(rest);
                        (next.len() - 1) as u32
                    });
                    let p = *part_index.entry(part).or_insert_with(|| {
                        walk.parts.push(part);
                        (walk.parts.len() - 1) as u16
                    });
                    level.below.push(below);
                    level.part.push(p);
                    level.next.push(at);
                }
                debug_assert_eq!(u128::from(below), self.ways(r, *left));
                level.ways.push(below);
            }
            level.first.push(level.below.len() as u32);
            walk.levels.push(level);
            here = next;
        }
        walk
    }
}

/// Share the tokens of `shape` among its resources under `rules`.
pub(crate) fn shares(shape: &Shape, rules: &Rules) -> Shares {
    let sizes: Vec<u32> = (0..DESERT).map(|t| shape.terrain_count(t) as u32).collect();
    let mut all = [0u8; 10];
    for (c, &v) in all.iter_mut().zip(&TOKEN_VALUES) {
        *c = shape.token_count(v) as u8;
    }
    let mut s = Sharing {
        sizes: sizes.clone(),
        rules,
        memo: HashMap::new(),
    };
    let total = s.ways(0, all);
    let walk = s.walk(all);
    // Forward weights: ways to share among resources ..r leaving `left`.
    let mut front: HashMap<[u8; 10], u128> = HashMap::from([(all, 1u128)]);
    let mut with = vec![[0u128; 10]; sizes.len()];
    let mut pip = vec![vec![0u128; PIP_BINS]; sizes.len()];
    for r in 0..sizes.len() {
        let mut next: HashMap<[u8; 10], u128> = HashMap::new();
        let mut entries: Vec<([u8; 10], u128)> = front.into_iter().collect();
        entries.sort();
        for (left, f) in entries {
            for (p, rest) in s.options(&left, sizes[r]) {
                let here = f * Sharing::arrangements(sizes[r], &p);
                let w = here * s.ways(r + 1, rest);
                if w == 0 {
                    continue;
                }
                for (k, &c) in p.iter().enumerate() {
                    with[r][k] += w * u128::from(c);
                }
                let sum: u32 = p
                    .iter()
                    .zip(TOKEN_VALUES)
                    .map(|(&c, v)| u32::from(c) * pips(v))
                    .sum();
                pip[r][(sum as usize).min(PIP_BINS - 1)] += w;
                *next.entry(rest).or_insert(0) += here;
            }
        }
        front = next;
    }
    let terrain_arr: u128 =
        factorial(sizes.iter().sum()) / sizes.iter().map(|&n| factorial(n)).product::<u128>();
    let token_arr: u128 = factorial(sizes.iter().sum())
        / all
            .iter()
            .map(|&c| factorial(u32::from(c)))
            .product::<u128>();
    // total * terrain_arr = valid (terrain, token) pairs = terrain_per_tokens * token_arr.
    let pairs = total * terrain_arr;
    Shares {
        tokens_per_terrain: total,
        terrain_per_tokens: pairs / token_arr,
        with,
        pips: pip,
        walk,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// Without tying rules every arrangement counts.
    #[test]
    fn no_rule_keeps_every_arrangement() {
        let shape = BoardKind::Base.shape();
        let s = shares(shape, &"none".parse().unwrap());
        // 18! / 2^8 token arrangements, 18! / (4!^3 3!^2) terrain arrangements.
        assert_eq!(s.tokens_per_terrain, 6_402_373_705_728_000 / 256);
        assert_eq!(
            s.terrain_per_tokens,
            6_402_373_705_728_000 / (24 * 24 * 24 * 6 * 6)
        );
    }

    /// The share agrees with shuffling the tokens over a fixed terrain many times.
    #[test]
    fn the_share_agrees_with_random_arrangements() {
        let shape = BoardKind::Base.shape();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for rules in ["number-resource-apart", "resource-pips=9-16"] {
            let rules: Rules = rules.parse().unwrap();
            let s = shares(shape, &rules);
            let all = 6_402_373_705_728_000u128 / 256;
            let p = s.tokens_per_terrain as f64 / all as f64;
            let terrain: Vec<u8> = shape.terrains.clone();
            let mut tokens = shape.tokens.clone();
            let n = 200_000;
            let mut hits = 0;
            for _ in 0..n {
                tokens.shuffle(&mut rng);
                let mut b = crate::rules::Setup::default();
                b.terrain[..18].copy_from_slice(&terrain);
                b.token[..18].copy_from_slice(&tokens);
                b.terrain[18] = DESERT;
                if rules.check(shape, &b) {
                    hits += 1;
                }
            }
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            let seen = hits as f64 / n as f64;
            assert!((seen - p).abs() < 5.0 * sd, "{rules}: {seen} vs {p}");
        }
    }

    /// Shares drawn from the walk are distributed as the shares of token shuffles on a
    /// fixed terrain that the rules (checked on the whole board) keep: every resource's
    /// count of every token value and its pips, two samples compared.
    #[test]
    fn drawn_shares_match_the_shares_rejection_keeps() {
        let shape = BoardKind::Base.shape();
        let n = 100_000usize;
        for (i, rules) in [
            "number-resource-apart",
            "resource-pips=9-16",
            "number-resource-apart,resource-pips=8-15",
        ]
        .into_iter()
        .enumerate()
        {
            let rules: Rules = rules.parse().unwrap();
            let walk = shares(shape, &rules).walk;
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11 + i as u64);
            // Features: (resource, value, copies) and (resource, pips), counted.
            let mut drawn: HashMap<(usize, usize, u8), u64> = HashMap::new();
            let mut kept: HashMap<(usize, usize, u8), u64> = HashMap::new();
            let tally = |m: &mut HashMap<(usize, usize, u8), u64>, parts: &[[u8; 10]]| {
                for (r, part) in parts.iter().enumerate() {
                    let mut sum = 0;
                    for (k, &c) in part.iter().enumerate() {
                        *m.entry((r, k, c)).or_insert(0) += 1;
                        sum += u32::from(c) * pips(TOKEN_VALUES[k]);
                    }
                    *m.entry((r, 10, sum as u8)).or_insert(0) += 1;
                }
            };
            {
                let mut draws = Draws::new(&mut rng);
                for _ in 0..n {
                    let parts = walk.draw(&mut draws);
                    tally(&mut drawn, &parts);
                }
            }
            let terrain: Vec<u8> = shape.terrains.clone();
            let mut tokens = shape.tokens.clone();
            let mut got = 0;
            while got < n {
                tokens.shuffle(&mut rng);
                let mut b = crate::rules::Setup::default();
                b.terrain[..18].copy_from_slice(&terrain);
                b.token[..18].copy_from_slice(&tokens);
                b.terrain[18] = DESERT;
                if !rules.check(shape, &b) {
                    continue;
                }
                got += 1;
                let mut parts = [[0u8; 10]; DESERT as usize];
                for h in 0..18 {
                    let k = TOKEN_VALUES.iter().position(|&v| v == b.token[h]).unwrap();
                    parts[b.terrain[h] as usize][k] += 1;
                }
                tally(&mut kept, &parts);
            }
            // About 300 features: under equal distributions the largest |z| passes 5
            // with probability below 1e-4.
            let nf = n as f64;
            for key in drawn.keys().chain(kept.keys()) {
                let a = drawn.get(key).copied().unwrap_or(0) as f64;
                let b = kept.get(key).copied().unwrap_or(0) as f64;
                let p = (a + b) / (2.0 * nf);
                let z = (a - b) / (nf * p * (1.0 - p) * 2.0).sqrt().max(1e-9);
                assert!(z.abs() < 5.0, "{rules} {key:?}: drawn {a}, kept {b}");
            }
        }
    }
}
