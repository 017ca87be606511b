//! Whether a rule set can be met at all, decided exactly before anything is drawn.
//!
//! The rules split in two: the token rules (`red-apart`, `2-12-apart`,
//! `same-number-apart`, `max-pips-per-corner=N`) judge the tokens and where the
//! deserts are (a desert holds no token, so it brings 0 pips to its corners);
//! `same-terrain-apart` judges the terrain, deserts included. The two meet only in
//! the desert hexes, and the harbors meet no rule. So a board exists exactly when
//! some placement of the deserts and tokens meets the token rules and its deserts
//! admit a terrain that meets the terrain rule.
//!
//! Tokens are searched in *pip levels* first: level 0 is the desert, level p the
//! tokens of p pips (the 2s and 12s are exactly the 1-pip tokens and the reds exactly
//! the 5-pip ones, so `2-12-apart` and `red-apart` keep levels 1 and 5 apart, and
//! `same-terrain-apart` keeps level 0 apart). Corner sums only see levels, so a
//! level placement that works is split into values afterwards ([`split`]; with
//! `same-number-apart` equal values must not touch, and the split is a small search
//! of its own), then given a terrain ([`terrain_for`], a search with the five land
//! terrains and their counts, once per desert set).
//!
//! The level search is complete. It branches on the largest piece left: "this hex
//! takes it" or "this hex cannot". What it prunes holds no solution:
//!
//! * a level is allowed on a hex only if pieces of it are left, it keeps the apart
//!   rules with the neighbours placed so far, and every corner of the hex can still
//!   stay within N pips even if its other open hexes get the smallest pieces left;
//! * each piece needs its own hex: per level, and for the pieces of at least p pips
//!   together;
//! * the open hexes need pieces of at most p pips: one for each hex that allows
//!   nothing larger, and for two open hexes of a corner with room for r more pips,
//!   two, one or none depending on whether both, one or neither can take more than p
//!   (counted over disjoint groups of hexes, so the needs add up);
//! * while the branches taken so far are all "cannot" on whole classes of mirror
//!   images, the problem is symmetric, so a hex closed to a piece closes its whole
//!   class (a solution with the piece on a mirror image has a mirror image with the
//!   piece on the hex itself, which the other branch searched).
//!
//! A hex left with one allowed level, or a level with exactly as many allowed hexes
//! as pieces, is filled without branching. Even the worst case over every rule
//! combination is a short search (measured: docs/performance.md, "Catan: feasibility
//! search"). The result per board and rule set is cached for the life of the
//! process, and the board found is checked by the independent verifier
//! (`super::feasible_rules`).

use crate::board::{pips, BoardKind, Shape, DESERT, TOKEN_VALUES};
use crate::rules::{Rule, Rules, Setup};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Pip levels: 0 for the desert, p for a token of p pips (1 to 5).
const LEVELS: usize = 6;
/// Most corners a shape has (the extended board has fewer).
const MAX_CORNERS: usize = 96;
/// An open hex in `level`.
const OPEN: u8 = u8::MAX;

/// The token half of the problem, in pip levels: fixed data.
struct Levels<'a> {
    shape: &'a Shape,
    n: usize,
    count: [u8; LEVELS],
    /// Levels whose hexes must not touch: the deserts (`same-terrain-apart`), the 2s
    /// and 12s (`2-12-apart`, the only 1-pip tokens), the reds (`red-apart`, the only
    /// 5-pip tokens).
    apart: [bool; LEVELS],
    /// `same-number-apart`: within a level, equal values must not touch; the level's
    /// hexes are split into values at the end ([`split`]), and no three of them may
    /// touch each other (two values cannot cover a triangle).
    same_number: bool,
    max_pips: Option<u8>,
    corners_of: Vec<Vec<u8>>,
    /// Pairs of neighbours of each hex that touch each other.
    triangles: Vec<Vec<(u8, u8)>>,
    /// Per hex, its orbit under the board's symmetries (as a mask).
    orbit: Vec<u32>,
    /// Nodes visited (for tests and timings), and the most allowed.
    nodes: u64,
    budget: u64,
}

/// The token half of the problem: the state of one search node.
#[derive(Clone, Copy)]
struct State {
    level: [u8; 32],
    open: u32,
    count: [u8; LEVELS],
    placed: [u32; LEVELS],
    /// Pips placed so far at each corner, and its open hexes.
    sum: [u8; MAX_CORNERS],
    unset: [u8; MAX_CORNERS],
    /// Levels ruled out per hex by earlier branches.
    forbid: [u8; 32],
}

impl<'a> Levels<'a> {
    fn new(shape: &'a Shape, rules: &Rules) -> Levels<'a> {
        let n = shape.len();
        let mut count = [0u8; LEVELS];
        count[0] = shape.deserts as u8;
        for &v in &shape.tokens {
            count[pips(v) as usize] += 1;
        }
        let mut corners_of = vec![Vec::new(); n];
        for (c, corner) in shape.corners.iter().enumerate() {
            for &h in corner {
                corners_of[h as usize].push(c as u8);
            }
        }
        assert!(shape.corners.len() <= MAX_CORNERS, "room for the corners");
        let triangles = (0..n)
            .map(|h| {
                let nb = shape.neighbours[h];
                let mut v = Vec::new();
                for a in (0..n).filter(|&a| nb >> a & 1 == 1) {
                    for b in (a + 1..n).filter(|&b| nb >> b & 1 == 1) {
                        if shape.neighbours[a] >> b & 1 == 1 {
                            v.push((a as u8, b as u8));
                        }
                    }
                }
                v
            })
            .collect();
        let max_pips = rules.list().iter().find_map(|r| match r {
            // Corners hold at most three hexes of at most 5 pips.
            Rule::MaxPipsPerCorner(m) => Some((*m).min(255) as u8),
            _ => None,
        });
        let mut apart = [false; LEVELS];
        apart[0] = rules.has(Rule::SameTerrainApart);
        // An apart rule's token class is one pip level (the 2s and 12s have 1 pip,
        // the 6s and 8s 5): the search keeps that level apart.
        for class in rules.list().iter().filter_map(Rule::token_class) {
            let level = shape.tokens.iter().find(|&&v| class(v)).map(|&v| pips(v));
            if let Some(level) = level {
                debug_assert!(shape.tokens.iter().all(|&v| class(v) == (pips(v) == level)));
                apart[level as usize] = true;
            }
        }
        Levels {
            shape,
            n,
            count,
            apart,
            same_number: rules.has(Rule::SameNumberApart),
            max_pips,
            corners_of,
            triangles,
            orbit: orbits(shape),
            nodes: 0,
            budget: u64::MAX,
        }
    }

    fn start(&self) -> State {
        let mut s = State {
            level: [OPEN; 32],
            open: ((1u64 << self.n) - 1) as u32,
            count: self.count,
            placed: [0; LEVELS],
            sum: [0; MAX_CORNERS],
            unset: [0; MAX_CORNERS],
            forbid: [0; 32],
        };
        for (c, corner) in self.shape.corners.iter().enumerate() {
            s.unset[c] = corner.len() as u8;
        }
        s
    }

    fn assign(&self, s: &mut State, h: usize, level: usize) {
        s.level[h] = level as u8;
        s.open &= !(1 << h);
        s.count[level] -= 1;
        s.placed[level] |= 1 << h;
        for &c in &self.corners_of[h] {
            s.sum[c as usize] += level as u8;
            s.unset[c as usize] -= 1;
        }
    }

    /// The smallest total of `k` (0, 1 or 2) pieces left in the bag.
    fn least(&self, s: &State) -> [u32; 3] {
        let mut out = [0u32; 3];
        let mut taken = 0;
        for (level, &left) in s.count.iter().enumerate() {
            for _ in 0..left.min(2) {
                if taken < 2 {
                    taken += 1;
                    out[taken] = out[taken - 1] + level as u32;
                }
            }
        }
        out
    }

    /// The levels still allowed on open hex h.
    fn domain(&self, s: &State, h: usize, least: &[u32; 3]) -> u8 {
        let nb = self.shape.neighbours[h];
        let slack = match self.max_pips {
            Some(m) => {
                let mut slack = i64::from(m);
                for &c in &self.corners_of[h] {
                    let c = c as usize;
                    let others = usize::from(s.unset[c] - 1).min(2);
                    let left = i64::from(m) - i64::from(s.sum[c]) - i64::from(least[others]);
                    slack = slack.min(left);
                }
                slack
            }
            None => i64::MAX,
        };
        let mut dom = 0u8;
        for level in 0..LEVELS {
            if s.count[level] == 0 || level as i64 > slack {
                continue;
            }
            if self.apart[level] && s.placed[level] & nb != 0 {
                continue;
            }
            if self.same_number
                && level > 0
                && self.triangles[h]
                    .iter()
                    .any(|&(a, b)| s.placed[level] >> a & 1 == 1 && s.placed[level] >> b & 1 == 1)
            {
                continue;
            }
            dom |= 1 << level;
        }
        dom
    }

    /// Whether the pieces of at most p pips left can meet what the open hexes need,
    /// for every p. Some disjoint groups of open hexes each need a number of such
    /// pieces: two open hexes of a corner with room for r more pips cannot both take
    /// more than p pips when 2 (p + 1) > r; one open hex that allows nothing above p
    /// needs one. The groups are disjoint, so their needs add up.
    fn enough_low_pieces(&self, s: &State, doms: &[u8; 32], least: &[u32; 3]) -> bool {
        let Some(m) = self.max_pips else {
            // Without corner sums only single hexes constrain the low side.
            return self.enough_low_singles(s, doms);
        };
        // The open pairs of corners: their hexes and the room left.
        let mut pairs = [(0u32, 0u32, 0u8, 0u8); MAX_CORNERS];
        let mut np = 0;
        for (c, corner) in self.shape.corners.iter().enumerate() {
            if s.unset[c] != 2 {
                continue;
            }
            let mut pair = [0u8; 2];
            let mut k = 0;
            for &h in corner {
                if s.open >> h & 1 == 1 {
                    pair[k] = h;
                    k += 1;
                }
            }
            let room = u32::from(m).saturating_sub(u32::from(s.sum[c]));
            let top = |h: u8| 7 - doms[h as usize].leading_zeros();
            let mask = (1u32 << pair[0]) | (1u32 << pair[1]);
            pairs[np] = (mask, room, top(pair[0]) as u8, top(pair[1]) as u8);
            np += 1;
        }
        let mut have = 0u32;
        for p in 0..LEVELS as u32 - 1 {
            have += u32::from(s.count[p as usize]);
            let mut used = 0u32;
            let mut need = 0u32;
            for &(mask, room, a, b) in &pairs[..np] {
                if used & mask != 0 {
                    continue;
                }
                // How many of the two can take more than p pips.
                let (a, b) = (u32::from(a) > p, u32::from(b) > p);
                let n = if (p + 1) * 2 <= room && a && b {
                    0
                } else if (p + 1) + least[1] <= room && (a || b) {
                    1
                } else {
                    2
                };
                if n > 0 {
                    need += n;
                    used |= mask;
                }
            }
            let mut open = s.open & !used;
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                if u32::from(doms[h]) >> (p + 1) == 0 {
                    need += 1;
                }
            }
            if need > have {
                return false;
            }
        }
        true
    }

    fn enough_low_singles(&self, s: &State, doms: &[u8; 32]) -> bool {
        let mut have = 0u32;
        for p in 0..LEVELS - 1 {
            have += u32::from(s.count[p]);
            let mut need = 0u32;
            let mut open = s.open;
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                if doms[h] >> (p + 1) == 0 {
                    need += 1;
                }
            }
            if need > have {
                return false;
            }
        }
        true
    }

    /// The hex to try a big piece on first: the one with the fewest corners (the coast,
    /// where big pieces do least harm), the lowest number among equals.
    fn pick(&self, allowed: u32) -> usize {
        let mut best = (usize::MAX, 0);
        let mut m = allowed;
        while m != 0 {
            let h = m.trailing_zeros() as usize;
            m &= m - 1;
            let k = self.corners_of[h].len();
            if k < best.0 {
                best = (k, h);
            }
        }
        best.1
    }

    /// Depth-first search from `s`; `leaf` judges each complete placement (true: keep
    /// it and stop). Returns the kept placement.
    ///
    /// `symmetric` says that the node's set of solutions is closed under the board's
    /// symmetries (true at the root, and after closing whole orbits): then a hex closed
    /// to a piece closes its whole orbit, since a solution with the piece on a mirror
    /// image of the hex has a mirror image with the piece on the hex itself, which the
    /// other branch searched.
    fn search(
        &mut self,
        s: &State,
        symmetric: bool,
        leaf: &mut impl FnMut(&State) -> bool,
    ) -> Option<State> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let mut s = *s;
        // Propagate: assign every hex left with one level, until none is.
        let (allow, doms) = loop {
            let least = self.least(&s);
            let mut allow = [0u32; LEVELS];
            let mut doms = [0u8; 32];
            let mut forced = None;
            let mut open = s.open;
            while open != 0 {
                let h = open.trailing_zeros() as usize;
                open &= open - 1;
                let dom = self.domain(&s, h, &least) & !s.forbid[h];
                if dom == 0 {
                    return None;
                }
                for (l, a) in allow.iter_mut().enumerate() {
                    if dom >> l & 1 == 1 {
                        *a |= 1 << h;
                    }
                }
                doms[h] = dom;
                if dom.count_ones() == 1 && forced.is_none() {
                    forced = Some((h, dom.trailing_zeros() as usize));
                }
            }
            // Each piece needs its own hex: per level, and the pieces of at least p
            // pips need as many hexes that allow one.
            let (mut hexes, mut pieces) = (0u32, 0u32);
            for l in (0..LEVELS).rev() {
                if allow[l].count_ones() < u32::from(s.count[l]) {
                    return None;
                }
                hexes |= allow[l];
                pieces += u32::from(s.count[l]);
                if hexes.count_ones() < pieces {
                    return None;
                }
            }
            if !self.enough_low_pieces(&s, &doms, &least) {
                return None;
            }
            // A level with exactly as many hexes as pieces fills them all.
            if forced.is_none() {
                forced = (0..LEVELS)
                    .rev()
                    .find(|&l| s.count[l] > 0 && allow[l].count_ones() == u32::from(s.count[l]))
                    .map(|l| (allow[l].trailing_zeros() as usize, l));
            }
            match forced {
                Some((h, l)) => self.assign(&mut s, h, l),
                None => break (allow, doms),
            }
            if s.open == 0 {
                return leaf(&s).then_some(s);
            }
        };
        let _ = doms;
        // Branch on the largest piece left: the first hex that allows it takes it, or
        // is closed to it.
        let l = (0..LEVELS)
            .rev()
            .find(|&l| s.count[l] > 0)
            .expect("pieces left");
        let h = self.pick(allow[l]);
        let mut take = s;
        self.assign(&mut take, h, l);
        if let Some(found) = self.search(&take, false, leaf) {
            return Some(found);
        }
        let closed = if symmetric { self.orbit[h] } else { 1 << h };
        let mut m = closed;
        while m != 0 {
            s.forbid[m.trailing_zeros() as usize] |= 1 << l;
            m &= m - 1;
        }
        self.search(&s, symmetric, leaf)
    }
}

/// The symmetries of a board: permutations of its hexes that keep which hexes touch
/// and which form corners (found by search, so nothing is assumed about the shape).
pub(crate) fn symmetries(shape: &Shape) -> Vec<Vec<u8>> {
    let n = shape.len();
    let mut corners: Vec<Vec<u8>> = shape
        .corners
        .iter()
        .map(|c| {
            let mut c = c.clone();
            c.sort_unstable();
            c
        })
        .collect();
    corners.sort();
    let mut out = Vec::new();
    let mut map = vec![u8::MAX; n];
    fn go(shape: &Shape, i: usize, map: &mut Vec<u8>, used: u32, out: &mut Vec<Vec<u8>>) {
        let n = shape.len();
        if i == n {
            out.push(map.clone());
            return;
        }
        for j in 0..n {
            if used >> j & 1 == 1
                || shape.neighbours[i].count_ones() != shape.neighbours[j].count_ones()
            {
                continue;
            }
            // Touching pairs among the hexes mapped so far must stay touching, and
            // only those.
            let fits = (0..i).all(|k| {
                let a = shape.neighbours[i] >> k & 1 == 1;
                let b = shape.neighbours[j] >> map[k] & 1 == 1;
                a == b
            });
            if fits {
                map[i] = j as u8;
                go(shape, i + 1, map, used | 1 << j, out);
                map[i] = u8::MAX;
            }
        }
    }
    go(shape, 0, &mut map, 0, &mut out);
    out.retain(|g| {
        let mut image: Vec<Vec<u8>> = shape
            .corners
            .iter()
            .map(|c| {
                let mut c: Vec<u8> = c.iter().map(|&h| g[h as usize]).collect();
                c.sort_unstable();
                c
            })
            .collect();
        image.sort();
        image == corners
    });
    out
}

/// Per hex, the mask of its images under the board's symmetries (found once for each
/// of the two boards; other shapes, made by tests, each time).
fn orbits(shape: &Shape) -> Vec<u32> {
    static BASE: OnceLock<Vec<u32>> = OnceLock::new();
    static EXTENDED: OnceLock<Vec<u32>> = OnceLock::new();
    let find = || {
        let gs = symmetries(shape);
        (0..shape.len())
            .map(|h| gs.iter().fold(0u32, |m, g| m | 1 << g[h]))
            .collect::<Vec<u32>>()
    };
    if !std::ptr::eq(shape, shape.kind.shape()) {
        return find();
    }
    let cell = match shape.kind {
        BoardKind::Base => &BASE,
        BoardKind::Extended => &EXTENDED,
    };
    cell.get_or_init(find).clone()
}

/// Token values for the hexes of each level (`placed[p]`: the hexes of p pips), with
/// equal values apart when `apart`: a value per hex (0 on deserts), or None. An
/// exhaustive search per level (a level holds at most six hexes).
fn split(shape: &Shape, placed: &[u32; LEVELS], apart: bool) -> Option<[u8; 32]> {
    let mut token = [0u8; 32];
    for (level, &hexes) in placed.iter().enumerate().skip(1) {
        let mut values: Vec<(u8, usize)> = TOKEN_VALUES
            .iter()
            .filter(|&&v| pips(v) as usize == level)
            .map(|&v| (v, shape.token_count(v)))
            .filter(|&(_, c)| c > 0)
            .collect();
        let cells: Vec<usize> = (0..shape.len()).filter(|&h| hexes >> h & 1 == 1).collect();
        fn go(
            shape: &Shape,
            apart: bool,
            cells: &[usize],
            values: &mut [(u8, usize)],
            token: &mut [u8; 32],
        ) -> bool {
            let Some((&h, rest)) = cells.split_first() else {
                return true;
            };
            for k in 0..values.len() {
                let (v, left) = values[k];
                let clash =
                    (0..shape.len()).any(|j| shape.neighbours[h] >> j & 1 == 1 && token[j] == v);
                if left == 0 || (apart && clash) {
                    continue;
                }
                values[k].1 -= 1;
                token[h] = v;
                if go(shape, apart, rest, values, token) {
                    return true;
                }
                token[h] = 0;
                values[k].1 += 1;
            }
            false
        }
        if !go(shape, apart, &cells, &mut values, &mut token) {
            return None;
        }
    }
    Some(token)
}

/// Terrain for the land hexes (every hex not in `deserts`) meeting
/// `same-terrain-apart` when `apart`; None when there is none.
fn terrain_for(shape: &Shape, deserts: u32, apart: bool) -> Option<[u8; 32]> {
    let n = shape.len();
    let mut count = [0u8; DESERT as usize];
    for &t in &shape.terrains {
        count[t as usize] += 1;
    }
    let mut val = [DESERT; 32];
    let land = ((1u64 << n) - 1) as u32 & !deserts;
    if apart && !crate::rules::independent(shape, deserts) {
        return None;
    }
    fn go(
        shape: &Shape,
        apart: bool,
        open: u32,
        count: &mut [u8; DESERT as usize],
        placed: &mut [u32; DESERT as usize],
        val: &mut [u8; 32],
    ) -> bool {
        if open == 0 {
            return true;
        }
        let mut best = (u32::MAX, 0usize, 0u8);
        let mut allow = [0u32; DESERT as usize];
        let mut rest = open;
        while rest != 0 {
            let h = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let nb = shape.neighbours[h];
            let mut dom = 0u8;
            for t in 0..DESERT as usize {
                if count[t] > 0 && !(apart && placed[t] & nb != 0) {
                    dom |= 1 << t;
                    allow[t] |= 1 << h;
                }
            }
            if dom == 0 {
                return false;
            }
            if dom.count_ones() < best.0 {
                best = (dom.count_ones(), h, dom);
            }
        }
        if (0..DESERT as usize).any(|t| allow[t].count_ones() < u32::from(count[t])) {
            return false;
        }
        let (_, h, dom) = best;
        for t in 0..DESERT as usize {
            if dom >> t & 1 == 1 {
                count[t] -= 1;
                placed[t] |= 1 << h;
                val[h] = t as u8;
                if go(shape, apart, open & !(1 << h), count, placed, val) {
                    return true;
                }
                count[t] += 1;
                placed[t] &= !(1 << h);
            }
        }
        val[h] = DESERT;
        false
    }
    let mut placed = [0u32; DESERT as usize];
    go(shape, apart, land, &mut count, &mut placed, &mut val).then_some(val)
}

/// What the search found for one board and rule set.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// A board meeting every rule, or None when there is none (or, with a budget, when
    /// none was found within it: see `complete`).
    pub witness: Option<Setup>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Whether the search finished within its budget (always, without one).
    pub complete: bool,
}

/// Search for a board meeting `rules` (uncached, without a budget).
pub fn search(shape: &Shape, rules: &Rules) -> Outcome {
    search_with(shape, rules, None, u64::MAX)
}

/// [`search`] with the deserts fixed to `deserts` when given, stopping after
/// `budget` nodes.
fn search_with(shape: &Shape, rules: &Rules, deserts: Option<u32>, budget: u64) -> Outcome {
    let mut t = Levels::new(shape, rules);
    t.budget = budget;
    let mut start = t.start();
    if let Some(d) = deserts {
        let mut m = d;
        while m != 0 {
            let h = m.trailing_zeros() as usize;
            m &= m - 1;
            t.assign(&mut start, h, 0);
        }
    }
    let apart = rules.has(Rule::SameTerrainApart);
    let same_number = rules.has(Rule::SameNumberApart);
    let mut terrains: HashMap<u32, Option<[u8; 32]>> = HashMap::new();
    let mut tokens = [0u8; 32];
    // Fixed deserts are not symmetric in general.
    let symmetric = deserts.is_none();
    let found = t.search(&start, symmetric, &mut |s| {
        let Some(tok) = split(shape, &s.placed, same_number) else {
            return false;
        };
        tokens = tok;
        terrains
            .entry(s.placed[0])
            .or_insert_with(|| terrain_for(shape, s.placed[0], apart))
            .is_some()
    });
    let witness = found.map(|s| {
        let terrain = terrains[&s.placed[0]].expect("kept only with a terrain");
        let mut b = Setup::default();
        let n = shape.len();
        b.terrain[..n].copy_from_slice(&terrain[..n]);
        b.token[..n].copy_from_slice(&tokens[..n]);
        b.harbor[..shape.harbor_kinds.len()].copy_from_slice(&shape.harbor_kinds);
        b
    });
    Outcome {
        witness,
        complete: t.nodes <= t.budget,
        nodes: t.nodes.min(t.budget),
    }
}

/// Whether some desert set with a terrain that meets `rules` has no tokens that do:
/// a sampler that keeps the terrain it drew (`token-rejection`) can never finish a
/// board with such deserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trap {
    /// Such a desert set (a mask of hexes).
    Found(u32),
    /// Every desert set with a terrain has tokens too.
    None,
    /// Not decided within the node budget.
    Unknown,
}

/// Look for a [`Trap`], spending at most `budget` search nodes in all. Desert sets
/// are tried one per class of mirror images, those touching fewest corners first (a
/// desert on the coast relieves the fewest corners, so it is the likeliest trap).
pub(crate) fn desert_trap(kind: BoardKind, rules: &Rules, budget: u64) -> Trap {
    let shape = kind.shape();
    let gs = symmetries(shape);
    let apart = rules.has(Rule::SameTerrainApart);
    let image = |g: &Vec<u8>, m: u32| {
        (0..shape.len())
            .filter(|&h| m >> h & 1 == 1)
            .fold(0u32, |acc, h| acc | 1 << g[h])
    };
    let mut classes = Vec::new();
    crate::sampling::exact::subsets(
        ((1u64 << shape.len()) - 1) as u32,
        shape.deserts,
        &mut |d| {
            // One per class: the smallest mask among its images.
            if gs.iter().all(|g| image(g, d) >= d) && terrain_for(shape, d, apart).is_some() {
                classes.push(d);
            }
        },
    );
    let corners = |d: u32| -> usize {
        (0..shape.len())
            .filter(|&h| d >> h & 1 == 1)
            .map(|h| {
                shape
                    .corners
                    .iter()
                    .filter(|c| c.contains(&(h as u8)))
                    .count()
            })
            .sum()
    };
    classes.sort_by_key(|&d| (corners(d), d));
    let mut left = budget;
    for d in classes {
        let o = search_with(shape, rules, Some(d), left);
        if !o.complete {
            return Trap::Unknown;
        }
        if o.witness.is_none() {
            return Trap::Found(d);
        }
        left -= o.nodes;
    }
    Trap::None
}

/// A board meeting `rules` on `kind`, or None when no board does: decided once per
/// board and rule set, then remembered.
pub(crate) fn witness(kind: BoardKind, rules: &Rules) -> Option<Setup> {
    type Cache = Mutex<HashMap<(BoardKind, Rules), Option<Setup>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(w) = cache.lock().expect("cache").get(&(kind, rules.clone())) {
        return *w;
    }
    let w = search(kind.shape(), rules).witness;
    cache
        .lock()
        .expect("cache")
        .insert((kind, rules.clone()), w);
    w
}

#[cfg(test)]
mod tests;
