//! The rules that tie the tokens to the terrain (`number-resource-apart`,
//! `resource-pips`) judge only which tokens each resource gets. When one layer is
//! unconstrained (any arrangement as good as any other), the share of its
//! arrangements that meet these rules is the same whatever the other layer holds, and
//! it is counted here by sharing the tokens out among the resources: for each resource
//! in turn, every sub-multiset of the tokens left of its size.

use crate::games::catan::board::{is_red, pips, Shape, DESERT, PIP_BINS, TOKEN_VALUES};
use crate::games::catan::rules::{Rule, Rules};
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
        let mut options = Vec::new();
        parts(&left, self.sizes[r], &mut |p| {
            if self.allowed(p) {
                options.push(*p);
            }
        });
        for p in options {
            let mut rest = left;
            for (x, &c) in rest.iter_mut().zip(&p) {
                *x -= c;
            }
            total += Self::arrangements(self.sizes[r], &p) * self.ways(r + 1, rest);
        }
        self.memo.insert((r, left), total);
        total
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
    // Forward weights: ways to share among resources ..r leaving `left`.
    let mut front: HashMap<[u8; 10], u128> = HashMap::from([(all, 1u128)]);
    let mut with = vec![[0u128; 10]; sizes.len()];
    let mut pip = vec![vec![0u128; PIP_BINS]; sizes.len()];
    for r in 0..sizes.len() {
        let mut next: HashMap<[u8; 10], u128> = HashMap::new();
        let mut entries: Vec<([u8; 10], u128)> = front.into_iter().collect();
        entries.sort();
        for (left, f) in entries {
            let mut options = Vec::new();
            parts(&left, sizes[r], &mut |p| {
                if s.allowed(p) {
                    options.push(*p);
                }
            });
            for p in options {
                let mut rest = left;
                for (x, &c) in rest.iter_mut().zip(&p) {
                    *x -= c;
                }
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::catan::board::BoardKind;
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
                let mut b = crate::games::catan::rules::Setup::default();
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
}
