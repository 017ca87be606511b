//! The terrain layer: a terrain on every hex (the desert where the board's desert is)
//! and, when `harbor-resource-apart` is among the rules, a kind on every harbor
//! position. States remember the live hexes' terrains and, under `max-cluster=N` with
//! N >= 2, which live hexes share a group and how large it already is.

use super::dag::Spec;
use super::order::{Item, Order, Packed};
use crate::board::{Shape, DESERT, GENERIC};
use crate::rules::{Rule, Rules};

const COUNT_BITS: u32 = 3;
const HARBOR_AT: u32 = 15;
const HARBOR_BITS: u32 = 3;
const SLOTS_AT: u32 = 33;
const SLOT_BITS: u32 = 9;
/// Every terrain code, for a one-choice slice.
static TERRAINS: [u8; 6] = [0, 1, 2, 3, 4, 5];

/// The terrain layer of one desert position.
pub(crate) struct TerrainSpec<'a> {
    shape: &'a Shape,
    order: &'a Order,
    desert: usize,
    /// Terrain fixed per hex (`--fix`), if any.
    fixed: Vec<Option<u8>>,
    counts: [u8; 5],
    /// Whether two neighbouring terrains clash (same-terrain-apart, max-cluster=1).
    clash: [[bool; 6]; 6],
    /// N of max-cluster=N when groups must be tracked (2 <= N < the largest count).
    cluster: Option<u32>,
    /// Harbor kinds available, per kind (0 = 3:1, 1 + terrain).
    kinds: [u8; 6],
    /// Relabellings of the terrains that keep the rules and the counts (terrains with
    /// equal counts swapped; the identity first, alone when some terrain is fixed):
    /// each state is stored as the least of its relabellings.
    pub relabels: Vec<[u8; 6]>,
    /// Whether a later step looks at the live hexes' terrains (some terrain rule).
    remember: bool,
}

/// Every relabelling of the land terrains that keeps each terrain's count (the
/// desert stays), the identity first.
pub(crate) fn relabellings(shape: &Shape) -> Vec<[u8; 6]> {
    let mut out = Vec::new();
    let mut p = [0u8, 1, 2, 3, 4];
    permute(&mut p, 0, &mut |p| {
        if (0..5).all(|t| shape.terrain_count(t as u8) == shape.terrain_count(p[t])) {
            out.push([p[0], p[1], p[2], p[3], p[4], DESERT]);
        }
    });
    out.sort_by_key(|p| *p != [0, 1, 2, 3, 4, DESERT]);
    out
}

/// The relabellings that keep every fixed terrain (`fixed`, per hex) in place.
pub(crate) fn relabellings_keeping(shape: &Shape, fixed: &[Option<u8>]) -> Vec<[u8; 6]> {
    relabellings(shape)
        .into_iter()
        .filter(|p| fixed.iter().flatten().all(|&t| p[t as usize] == t))
        .collect()
}

fn permute(p: &mut [u8; 5], i: usize, f: &mut impl FnMut(&[u8; 5])) {
    if i == p.len() {
        f(p);
        return;
    }
    for j in i..p.len() {
        p.swap(i, j);
        permute(p, i + 1, f);
        p.swap(i, j);
    }
}

/// Whether the rules look at the terrain (or the harbors): otherwise any arrangement
/// of the terrain is as good as any other.
pub(crate) fn constrains(rules: &Rules, shape: &Shape) -> bool {
    rules.list().iter().any(|r| match *r {
        Rule::SameTerrainApart | Rule::HarborResourceApart => true,
        Rule::MaxCluster(n) => (n as usize) < largest(shape),
        _ => false,
    })
}

/// Whether a terrain rule judges neighbouring hexes (same-terrain-apart, max-cluster
/// below the largest count): otherwise only the harbors look back at placed hexes.
pub(crate) fn judges_neighbours(rules: &Rules, shape: &Shape) -> bool {
    rules.list().iter().any(|r| match *r {
        Rule::SameTerrainApart => true,
        Rule::MaxCluster(n) => (n as usize) < largest(shape),
        _ => false,
    })
}

fn largest(shape: &Shape) -> usize {
    (0..DESERT)
        .map(|t| shape.terrain_count(t))
        .max()
        .unwrap_or(0)
}

impl<'a> TerrainSpec<'a> {
    /// The layer for `rules` with the desert on hex `desert` and terrains fixed by
    /// `fixed` (None where free).
    pub(crate) fn new(
        shape: &'a Shape,
        order: &'a Order,
        rules: &Rules,
        desert: usize,
        fixed: Vec<Option<u8>>,
    ) -> Self {
        let mut clash = [[false; 6]; 6];
        for (s, row) in clash.iter_mut().enumerate() {
            for (t, c) in row.iter_mut().enumerate() {
                *c = rules
                    .list()
                    .iter()
                    .any(|r| r.terrains_clash(s as u8, t as u8));
            }
        }
        let cluster = rules.list().iter().find_map(|r| match *r {
            Rule::MaxCluster(n) if n >= 2 && (n as usize) < largest(shape) => Some(n),
            _ => None,
        });
        let mut counts = [0u8; 5];
        for (t, c) in counts.iter_mut().enumerate() {
            *c = shape.terrain_count(t as u8) as u8;
        }
        let mut kinds = [0u8; 6];
        for &k in &shape.harbor_kinds {
            kinds[k as usize] += 1;
        }
        let relabels = relabellings_keeping(shape, &fixed);
        TerrainSpec {
            shape,
            order,
            desert,
            fixed,
            counts,
            clash,
            cluster,
            kinds,
            relabels,
            remember: clash.iter().flatten().any(|&c| c)
                || cluster.is_some()
                || rules.has(Rule::HarborResourceApart),
        }
    }

    /// The least relabelling of `key` and which relabelling gave it.
    fn least(&self, key: u128) -> (u128, u8) {
        let k = Packed(key);
        let mut best = (key, 0u8);
        for (i, p) in self.relabels.iter().enumerate().skip(1) {
            let mut r = Packed(k.0 & !((1u128 << SLOTS_AT) - 1));
            // The 3:1 harbors keep their count; the 2:1 kinds follow their terrain.
            r.set(HARBOR_AT, HARBOR_BITS, k.get(HARBOR_AT, HARBOR_BITS));
            for t in 0..5u32 {
                let to = u32::from(p[t as usize]);
                r.set(
                    COUNT_BITS * to,
                    COUNT_BITS,
                    k.get(COUNT_BITS * t, COUNT_BITS),
                );
                let (from_at, to_at) = (
                    HARBOR_AT + HARBOR_BITS * (t + 1),
                    HARBOR_AT + HARBOR_BITS * (to + 1),
                );
                r.set(to_at, HARBOR_BITS, k.get(from_at, HARBOR_BITS));
            }
            let mut s = 0;
            loop {
                let at = SLOTS_AT + SLOT_BITS * s;
                if at + SLOT_BITS > 128 {
                    break;
                }
                let v = k.get(at, SLOT_BITS);
                let t = v & 7;
                let t2 = if t < 5 { u32::from(p[t as usize]) } else { t };
                r.set(at, SLOT_BITS, (v & !7) | t2);
                s += 1;
            }
            if r.0 < best.0 {
                best = (r.0, i as u8);
            }
        }
        best
    }

    fn slot(key: Packed, s: usize) -> (u32, u32, u32) {
        let v = key.get(SLOTS_AT + SLOT_BITS * s as u32, SLOT_BITS);
        (v & 7, v >> 3 & 7, v >> 6)
    }

    /// The next state: counts and harbors from `key`, slots for `next` live hexes from
    /// `value(hex)` = (terrain, group label, size), labels renumbered in slot order.
    /// Under max-cluster=2 no label is kept: a hex joining two live hexes of one group
    /// of 2 (or of two groups) makes more than 2 either way.
    fn repack(
        &self,
        key: Packed,
        next: &[usize],
        labelled: bool,
        value: impl Fn(usize) -> (u32, u32, u32),
    ) -> u128 {
        let mut out = Packed(key.0 & ((1u128 << SLOTS_AT) - 1));
        if !self.remember {
            return out.0;
        }
        let mut seen = [u32::MAX; 8];
        let mut labels = 0;
        for (s, &h) in next.iter().enumerate() {
            let (t, label, size) = value(h);
            let canon = if size == 0 || !labelled {
                0
            } else {
                let l = label as usize & 7;
                if seen[l] == u32::MAX {
                    seen[l] = labels;
                    labels += 1;
                }
                seen[l]
            };
            out.set(
                SLOTS_AT + SLOT_BITS * s as u32,
                SLOT_BITS,
                t | canon << 3 | size << 6,
            );
        }
        out.0
    }

    fn hex_moves(&self, step: usize, h: usize, key: Packed, out: &mut Vec<(u8, u128, u8)>) {
        let live = &self.order.live[step];
        let next = &self.order.live[step + 1];
        let choices: &[u8] = if h == self.desert {
            &[DESERT]
        } else if let Some(t) = self.fixed[h] {
            std::slice::from_ref(&TERRAINS[t as usize])
        } else {
            &[0, 1, 2, 3, 4]
        };
        'choice: for &t in choices {
            if t != DESERT && key.get(COUNT_BITS * u32::from(t), COUNT_BITS) == 0 {
                continue;
            }
            // Neighbouring clashes, and the groups this hex joins: by label when groups
            // are labelled, else each touching hex counts as its own group.
            let labelled = self.cluster.is_some_and(|n| n >= 3);
            let mut joined = 0u8; // bit per label
            let mut joined_slots = 0u32;
            let mut size = 1;
            for (s, &g) in live.iter().enumerate() {
                if self.shape.neighbours[h] >> g & 1 == 0 {
                    continue;
                }
                let (u, label, sz) = Self::slot(key, s);
                if self.clash[t as usize][u as usize] {
                    continue 'choice;
                }
                if self.cluster.is_some() && t != DESERT && u == u32::from(t) {
                    if !labelled || joined >> label & 1 == 0 {
                        size += sz;
                    }
                    joined |= 1 << label;
                    joined_slots |= 1 << s;
                }
            }
            if let Some(n) = self.cluster {
                if t != DESERT && size > n {
                    continue;
                }
            }
            let mut k = key;
            if t != DESERT {
                let at = COUNT_BITS * u32::from(t);
                k.set(at, COUNT_BITS, k.get(at, COUNT_BITS) - 1);
            }
            let tracked = self.cluster.is_some() && t != DESERT;
            let fresh = 7; // a label no canonical state uses (at most 7 slots have one)
            let next_key = self.repack(k, next, labelled, |g| {
                if g == h {
                    return (u32::from(t), fresh, if tracked { size } else { 0 });
                }
                let s = self
                    .order
                    .slot(step, g)
                    .expect("a live hex was live before");
                let (u, label, sz) = Self::slot(key, s);
                let with = if labelled {
                    joined >> label & 1 == 1
                } else {
                    joined_slots >> s & 1 == 1
                };
                if sz > 0 && with {
                    (u, fresh, size)
                } else {
                    (u, label, sz)
                }
            });
            let (least, relabel) = self.least(next_key);
            out.push((t, least, relabel));
        }
    }

    fn harbor_moves(&self, step: usize, p: usize, key: Packed, out: &mut Vec<(u8, u128, u8)>) {
        let live = &self.order.live[step];
        let next = &self.order.live[step + 1];
        let reach = self.shape.harbor_reach[p];
        for kind in 0..6u8 {
            let at = HARBOR_AT + HARBOR_BITS * u32::from(kind);
            let used = key.get(at, HARBOR_BITS);
            if used >= u32::from(self.kinds[kind as usize]) {
                continue;
            }
            if kind != GENERIC {
                let resource = u32::from(kind - 1);
                let touches = live
                    .iter()
                    .enumerate()
                    .any(|(s, &g)| reach >> g & 1 == 1 && Self::slot(key, s).0 == resource);
                if touches {
                    continue;
                }
            }
            let mut k = key;
            k.set(at, HARBOR_BITS, used + 1);
            let next_key = self.repack(k, next, true, |g| {
                let s = self
                    .order
                    .slot(step, g)
                    .expect("a live hex was live before");
                Self::slot(key, s)
            });
            let (least, relabel) = self.least(next_key);
            out.push((kind, least, relabel));
        }
    }
}

impl Spec for TerrainSpec<'_> {
    fn steps(&self) -> usize {
        self.order.steps()
    }

    fn root(&self) -> u128 {
        let mut k = Packed(0);
        for (t, &c) in self.counts.iter().enumerate() {
            k.set(COUNT_BITS * t as u32, COUNT_BITS, u32::from(c));
        }
        k.0
    }

    fn moves(&self, step: usize, key: u128, out: &mut Vec<(u8, u128, u8)>) {
        match self.order.items[step] {
            Item::Hex(h) => self.hex_moves(step, h, Packed(key), out),
            Item::Harbor(p) => self.harbor_moves(step, p, Packed(key), out),
        }
    }
}
