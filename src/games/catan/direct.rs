//! Boards drawn and counted as sets of places: the `direct` sampler, and
//! `full-rejection` under the placement rules (`red-apart`, `2-12-apart`).
//!
//! A board is a sequence of choices of *sets*: the red hexes (from the enumerated
//! table), the deserts, which reds are 6s, which of the other hexes get the 3s, the 4s,
//! ..., which land hexes are wheat, wood, ..., which harbor positions are 3:1, and so
//! on. Each choice is "k of the m places still free", a uniform index below C(m, k). The
//! number of free places at every step is fixed by the board shape, so the whole list of
//! bounds is known in advance, and:
//!
//! * the indices are decoded from a few 64-bit random numbers by a multiply chain
//!   (x*b1 gives the first index in the high word and the rest of x in the low word,
//!   and so on; Brackett-Rozinsky and Lemire, "Batched ranged random integer
//!   generation", 2024). This is exactly Lemire's multiply-and-reject for one number
//!   below the product of the bounds, read in mixed radix, so it is exact: a 64-bit
//!   number is redrawn when the final low word is below 2^64 mod product, which
//!   happens with probability below 2^-12 here ([`GROUP_LIMIT`]);
//! * index r of "k of m" is the r-th k-subset of m bits from a precomputed table,
//!   spread onto the free places by a bit deposit (`pdep`), and taken from the free
//!   set. Choices too large for a table start with single picks ("1 of m"): drawing
//!   some members one at a time and then the rest as a set is still a uniform set.
//!
//! Drawing the sets in any fixed order, each uniform among the places left, gives every
//! arrangement of the multiset the same probability, so given the placement the rest
//! is uniform; the placement itself is drawn uniformly from the enumerated valid ones
//! (weighted by its completions when the rules make those differ). That is the
//! distribution of whole-board rejection, without rejection. Full rejection draws the
//! red set from all sets of that size until one is valid and (with `2-12-apart`) the
//! deserts and 2/12 hexes, rejecting the whole board when the 2s or 12s touch (the
//! stages its rules judge), and fills the rest the same way.
//!
//! The counters read the masks directly: per hex, the joint (terrain, token) counter
//! index is built for eight hexes at a time in the bytes of a 64-bit word.

use super::board::{Shape, DESERT, TOKEN_VALUES};
use super::counts::{Cells, Counts, JOINT};
use super::exact::PlacementTable;
use super::rules::{independent, Layout};
use crate::seed::{Rng, Streams};
use rand::RngCore;

/// Largest subset table (entries); larger choices begin with single picks.
const TABLE_LIMIT: u64 = 4096;
/// Largest product of bounds decoded from one 64-bit number; a redraw of that number
/// has probability below product / 2^64 <= 2^-12.
const GROUP_LIMIT: u64 = 1 << 52;
/// Most 64-bit numbers one board's indices need (checked when a plan is built).
const MAX_WORDS: usize = 8;

/// One choice: `bound` = C(m, k) subsets of the free places, listed from `table` on,
/// deposited into the mask `target`. The index comes from the multiply chain of
/// 64-bit number `word`; `first` marks the first index taken from that number.
#[derive(Debug, Clone, Copy)]
struct Stage {
    bound: u32,
    table: u32,
    target: u8,
    word: u8,
    first: bool,
}

/// The choices within one set of places; what is left after them goes to `last`.
#[derive(Debug, Clone, Default)]
struct Space {
    stages: Vec<Stage>,
    last: u8,
}

/// The product of the bounds decoded from one 64-bit number, and the rejection
/// threshold 2^64 mod product.
#[derive(Debug, Clone, Copy)]
struct Group {
    product: u64,
    threshold: u64,
}

impl Group {
    /// Whether a 64-bit number x is kept: its chain's final low word, which is
    /// x * product mod 2^64, is at least the threshold (Lemire's test).
    #[inline(always)]
    fn accepts(&self, x: u64) -> bool {
        x.wrapping_mul(self.product) >= self.threshold
    }
}

/// Where the stages' indices come from.
trait Indices {
    /// The index of stage `st`, below `st.bound`.
    fn next(&mut self, st: &Stage) -> u32;
}

/// The 64-bit numbers of one board and the one being decoded.
struct Chain {
    words: [u64; MAX_WORDS],
    x: u64,
}

impl Indices for Chain {
    /// The next index of the chain, below `st.bound`.
    #[inline(always)]
    fn next(&mut self, st: &Stage) -> u32 {
        if st.first {
            self.x = self.words[st.word as usize % MAX_WORDS];
        }
        let m = u128::from(self.x) * u128::from(st.bound);
        self.x = m as u64;
        (m >> 64) as u32
    }
}

/// A drawn board as sets of places (bit i = hex i, or harbor position i).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Masks {
    /// Attempts it took (1 for `direct`; red sets drawn for full rejection).
    pub attempts: u64,
    /// Index of the red set in the placement table.
    pub red_set: u32,
    /// Hexes holding each value of TOKEN_VALUES.
    pub token: [u32; 10],
    /// Hexes of each terrain code (DESERT: the deserts).
    pub terrain: [u32; 6],
    /// Harbor positions of each harbor kind.
    pub harbor: [u32; 6],
}

/// Everything fixed about drawing one shape under one placement table.
#[derive(Debug, Clone)]
pub struct Plan {
    n: usize,
    harbors: usize,
    deserts: usize,
    extremes: usize,
    /// The red set index and the deserts come from the multiply chain (every red set
    /// has the same weight and no 2-12 rule); otherwise they are drawn first.
    chained_placement: bool,
    /// Full rejection: the red set is drawn from all sets of that many hexes until
    /// one is valid (then it is not in the chain).
    rejection: Option<Rejection>,
    /// Every red set has the same weight.
    uniform: bool,
    two_twelve: bool,
    red_sets: Vec<u32>,
    /// The chained choice of the red set (bound: how many there are).
    red_stage: Stage,
    cum: Vec<u64>,
    total: u64,
    shape: &'static Shape,
    desert_space: Space,
    red_space: Space,
    extreme_space: Space,
    token_space: Space,
    terrain_space: Space,
    harbor_space: Space,
    groups: Vec<Group>,
    subsets: Vec<u32>,
}

fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Index in TOKEN_VALUES of a token value.
fn token_index(v: u8) -> u8 {
    TOKEN_VALUES
        .iter()
        .position(|&t| t == v)
        .expect("a token value") as u8
}

/// The subset tables, shared by all stages of a plan.
struct Tables {
    subsets: Vec<u32>,
    at: std::collections::HashMap<(usize, usize), u32>,
    /// Largest table; larger choices begin with single picks.
    limit: u64,
}

impl Tables {
    fn new(limit: u64) -> Tables {
        Tables {
            subsets: Vec::new(),
            at: std::collections::HashMap::new(),
            limit,
        }
    }

    /// The stages filling `kinds` (target, count) into as many places as the counts
    /// add up to, in order; the last kind takes what is left.
    fn space(&mut self, kinds: &[(u8, usize)]) -> Space {
        let kinds: Vec<(u8, usize)> = kinds.iter().copied().filter(|k| k.1 > 0).collect();
        let Some((&(last, _), rest)) = kinds.split_last() else {
            return Space::default();
        };
        let mut m: usize = kinds.iter().map(|k| k.1).sum();
        let mut stages = Vec::new();
        for &(target, count) in rest {
            let mut k = count;
            while k > 0 {
                // Single picks until the rest of this kind fits in a table.
                let take = if binom(m as u64, k as u64) <= self.limit {
                    k
                } else {
                    1
                };
                let subsets = &mut self.subsets;
                let table = *self.at.entry((m, take)).or_insert_with(|| {
                    let at = subsets.len() as u32;
                    push_subsets(m, take, subsets);
                    at
                });
                stages.push(Stage {
                    bound: binom(m as u64, take as u64) as u32,
                    table,
                    target,
                    word: 0,
                    first: false,
                });
                m -= take;
                k -= take;
            }
        }
        Space { stages, last }
    }
}

/// Deposit the chosen subsets of `free`, stage by stage (indices from `indices`), into
/// `masks`; what is left goes to the space's last mask.
#[inline(always)]
fn fill<P: Deposit>(
    p: P,
    subsets: &[u32],
    space: &Space,
    mut free: u32,
    indices: &mut impl Indices,
    masks: &mut [u32],
) {
    for st in &space.stages {
        let sub = subsets[(st.table + indices.next(st)) as usize];
        let placed = p.deposit(sub, free);
        free ^= placed;
        masks[st.target as usize] |= placed;
    }
    masks[space.last as usize] |= free;
}

/// How full rejection draws a red set: a uniform index below `bound` into every set of
/// that many hexes, from 16-bit (or, for more than 2^16 sets, 32-bit) pieces of the
/// random numbers by Lemire's multiply-and-reject; `valid[i]` is the set's index in the
/// placement table, or u32::MAX when the rules refuse it.
#[derive(Debug, Clone)]
struct Rejection {
    bound: u32,
    wide: bool,
    threshold: u32,
    valid: Vec<u32>,
}

impl Rejection {
    fn new(shape: &Shape, table: &PlacementTable) -> Rejection {
        // The table lists its red sets in the order the same enumeration gives them,
        // so one walk pairs them up.
        let mut valid = Vec::new();
        let mut next = 0;
        let all = ((1u64 << shape.len()) - 1) as u32;
        super::exact::subsets(all, shape.reds(), &mut |m| {
            if table.red_sets.get(next) == Some(&m) {
                valid.push(next as u32);
                next += 1;
            } else {
                valid.push(u32::MAX);
            }
        });
        assert_eq!(next, table.red_sets.len(), "the table's red sets, in order");
        let bound = valid.len() as u32;
        let wide = valid.len() > 1 << 16;
        let bits = if wide { 32 } else { 16 };
        Rejection {
            bound,
            wide,
            threshold: ((1u64 << bits) % u64::from(bound)) as u32,
            valid,
        }
    }

    /// The index below `bound` that a piece of `bits` random bits gives, or None when
    /// Lemire's test rejects the piece (its low word is below 2^bits mod bound).
    #[inline(always)]
    fn piece(&self, x: u64, bits: u32) -> Option<usize> {
        let m = x * u64::from(self.bound);
        let low = (m & ((1 << bits) - 1)) as u32;
        (low >= self.threshold).then_some((m >> bits) as usize)
    }

    /// A valid red set's table index, and how many sets were drawn to find it. The
    /// loop ends: a plan with rejection exists only for a non-empty table.
    #[inline(always)]
    fn draw(&self, rng: &mut Rng) -> (u32, u64) {
        let (bits, pieces) = if self.wide { (32, 2) } else { (16, 4) };
        let mut attempts = 0;
        loop {
            let mut x = rng.next_u64();
            for _ in 0..pieces {
                let piece = self.piece(x & ((1 << bits) - 1), bits);
                x >>= bits;
                if let Some(i) = piece {
                    attempts += 1;
                    let v = self.valid[i];
                    if v != u32::MAX {
                        return (v, attempts);
                    }
                }
            }
        }
    }
}

impl Plan {
    /// The `direct` sampler: a valid placement drawn from the table, then the rest.
    pub fn direct(shape: &'static Shape, table: &PlacementTable) -> Plan {
        Plan::build(shape, table, None)
    }

    /// Whole-board rejection for the placement rules (the ones the table is built
    /// for): the red set is drawn uniformly from all sets until `red-apart` holds, then
    /// (with `2-12-apart`) the deserts and the 2/12 hexes, a board whose 2s or 12s
    /// touch being one more rejected attempt; these are the stages of a uniform board
    /// that the rules judge (see `Ctx::full_rejection`). The rest as `direct` does.
    pub fn full_rejection(shape: &'static Shape, table: &PlacementTable) -> Plan {
        Plan::build(shape, table, Some(Rejection::new(shape, table)))
    }

    fn build(shape: &'static Shape, table: &PlacementTable, rejection: Option<Rejection>) -> Plan {
        let n = shape.len();
        let mut tables = Tables::new(TABLE_LIMIT);
        let count_of = |v: u8| shape.token_count(v);
        let reds = shape.reds();
        let extremes = count_of(2) + count_of(12);
        let two_twelve = table.two_twelve();
        // Without 2-12-apart every valid red set has the same number of completions,
        // and nothing after the red set can reject a board.
        let chained_placement = !two_twelve && (rejection.is_some() || table.is_uniform());
        let mut red_stage = Stage {
            bound: table.red_sets.len() as u32,
            table: 0,
            target: 0,
            word: 0,
            first: false,
        };
        // Deserts among the non-red hexes (only when chained; mask 1 is never read).
        let mut desert_space = if chained_placement {
            tables.space(&[(0, shape.deserts), (1, n - reds - shape.deserts)])
        } else {
            Space::default()
        };
        let mut red_space =
            tables.space(&[(token_index(6), count_of(6)), (token_index(8), count_of(8))]);
        let mut extreme_space = if two_twelve {
            tables.space(&[
                (token_index(2), count_of(2)),
                (token_index(12), count_of(12)),
            ])
        } else {
            Space::default()
        };
        let others: Vec<(u8, usize)> = TOKEN_VALUES
            .iter()
            .filter(|&&v| v != 6 && v != 8 && !(two_twelve && (v == 2 || v == 12)))
            .map(|&v| (token_index(v), count_of(v)))
            .collect();
        let mut token_space = tables.space(&others);
        let terrains: Vec<(u8, usize)> = (0..DESERT).map(|t| (t, shape.terrain_count(t))).collect();
        let mut terrain_space = tables.space(&terrains);
        let harbor_kinds: Vec<(u8, usize)> = (0..6u8)
            .map(|k| (k, shape.harbor_kinds.iter().filter(|&&x| x == k).count()))
            .collect();
        let mut harbor_space = tables.space(&harbor_kinds);
        // Every index in the order it is used; pack them into groups whose product of
        // bounds stays below the limit, and tell each stage where its index comes from.
        let mut stages: Vec<&mut Stage> = Vec::new();
        if chained_placement && rejection.is_none() {
            stages.push(&mut red_stage);
        }
        for sp in [
            &mut desert_space,
            &mut red_space,
            &mut extreme_space,
            &mut token_space,
            &mut terrain_space,
            &mut harbor_space,
        ] {
            stages.extend(sp.stages.iter_mut());
        }
        let mut groups: Vec<Group> = Vec::new();
        for st in stages {
            let b = u64::from(st.bound);
            st.first = match groups.last() {
                Some(g) => g.product.saturating_mul(b) > GROUP_LIMIT,
                None => true,
            };
            if st.first {
                groups.push(Group {
                    product: 1,
                    threshold: 0,
                });
            }
            st.word = (groups.len() - 1) as u8;
            let g = groups.last_mut().expect("a group");
            g.product *= b;
            g.threshold = threshold::<64>(g.product);
        }
        assert!(groups.len() <= MAX_WORDS, "too many choices for one board");
        let subsets = tables.subsets;
        Plan {
            red_stage,
            n,
            harbors: shape.harbors.len(),
            deserts: shape.deserts,
            extremes,
            chained_placement,
            rejection,
            uniform: table.is_uniform(),
            two_twelve,
            red_sets: table.red_sets.clone(),
            cum: table
                .weights
                .iter()
                .scan(0u64, |s, &w| {
                    *s += w;
                    Some(*s)
                })
                .collect(),
            total: table.total,
            shape,
            desert_space,
            red_space,
            extreme_space,
            token_space,
            terrain_space,
            harbor_space,
            groups,
            subsets,
        }
    }

    /// How many 64-bit numbers a board takes when nothing is redrawn.
    pub fn words(&self) -> usize {
        self.groups.len()
    }

    /// Draw one board (dispatching on the CPU's bit-deposit instruction).
    pub fn draw(&self, rng: &mut Rng) -> Masks {
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = Bmi2::detect() {
            // SAFETY: `b` exists only when the CPU has BMI2.
            return unsafe { self.draw_bmi2(b, rng) };
        }
        self.draw_with(Soft, rng)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    fn draw_bmi2(&self, b: Bmi2, rng: &mut Rng) -> Masks {
        self.draw_with(b, rng)
    }

    /// Draw one board with the given bit deposit (both give the same board).
    #[inline(always)]
    pub fn draw_with<P: Deposit>(&self, p: P, rng: &mut Rng) -> Masks {
        // Full rejection's red set, when nothing after it can reject the board.
        let given = match &self.rejection {
            Some(r) if self.chained_placement => Some(r.draw(rng)),
            _ => None,
        };
        let mut chain = Chain {
            words: [0; MAX_WORDS],
            x: 0,
        };
        for (w, g) in chain.words.iter_mut().zip(&self.groups) {
            *w = loop {
                let x = rng.next_u64();
                if g.accepts(x) {
                    break x;
                }
            };
        }
        self.fill_board(p, rng, &mut chain, given)
    }

    /// The board from its stage indices (`indices`) and, for full rejection, the red
    /// set already drawn with its attempt count.
    #[inline(always)]
    fn fill_board<P: Deposit>(
        &self,
        p: P,
        rng: &mut Rng,
        chain: &mut impl Indices,
        given: Option<(u32, u64)>,
    ) -> Masks {
        let all = ((1u64 << self.n) - 1) as u32;
        let mut m = Masks::default();
        let (red_set, reds, deserts, extremes, attempts) = if self.chained_placement {
            let idx = given.map_or_else(|| chain.next(&self.red_stage), |g| g.0);
            let reds = self.red_sets[idx as usize];
            let mut d = [0u32; 2];
            fill(
                p,
                &self.subsets,
                &self.desert_space,
                all & !reds,
                chain,
                &mut d,
            );
            (idx, reds, d[0], 0, given.map_or(1, |g| g.1))
        } else {
            self.placement(p, rng)
        };
        m.attempts = attempts;
        m.red_set = red_set;
        fill(p, &self.subsets, &self.red_space, reds, chain, &mut m.token);
        if self.two_twelve {
            fill(
                p,
                &self.subsets,
                &self.extreme_space,
                extremes,
                chain,
                &mut m.token,
            );
        }
        let land = all & !deserts;
        let others = land & !reds & !extremes;
        fill(
            p,
            &self.subsets,
            &self.token_space,
            others,
            chain,
            &mut m.token,
        );
        fill(
            p,
            &self.subsets,
            &self.terrain_space,
            land,
            chain,
            &mut m.terrain,
        );
        m.terrain[DESERT as usize] = deserts;
        let harbors = ((1u64 << self.harbors) - 1) as u32;
        fill(
            p,
            &self.subsets,
            &self.harbor_space,
            harbors,
            chain,
            &mut m.harbor,
        );
        m
    }

    /// The placement when it is not chained (with 2-12-apart): returns the red set's
    /// table index, the red set, the deserts, the 2/12 hexes and the attempts.
    ///
    /// `direct`: a red set with probability proportional to its completions, then the
    /// deserts and the 2/12 hexes uniformly among the other hexes, both redrawn until
    /// the 2s and 12s are apart: a uniform valid completion of that red set.
    /// Full rejection: a red set by rejection, then deserts and 2/12 hexes uniformly
    /// once; 2s or 12s side by side reject the whole board (one more attempt), as
    /// drawing the whole board and checking it would.
    fn placement<P: Deposit>(&self, p: P, rng: &mut Rng) -> (u32, u32, u32, u32, u64) {
        let all = ((1u64 << self.n) - 1) as u32;
        let mut attempts = 0;
        loop {
            let idx = match &self.rejection {
                Some(r) => {
                    let (idx, a) = r.draw(rng);
                    attempts += a;
                    idx as usize
                }
                None if self.uniform => below(rng, self.red_sets.len() as u64) as usize,
                None => {
                    let k = below(rng, self.total);
                    self.cum.partition_point(|&c| c <= k)
                }
            };
            let reds = self.red_sets[idx];
            loop {
                let mut free = all & !reds;
                let deserts = self.pick(p, rng, &mut free, self.deserts);
                let extremes = if self.two_twelve {
                    self.pick(p, rng, &mut free, self.extremes)
                } else {
                    0
                };
                if !self.two_twelve || independent(self.shape, extremes) {
                    return (idx as u32, reds, deserts, extremes, attempts.max(1));
                }
                if self.rejection.is_some() {
                    break;
                }
            }
        }
    }

    /// `k` places of `free` chosen one at a time, uniformly; taken from `free`.
    fn pick<P: Deposit>(&self, p: P, rng: &mut Rng, free: &mut u32, k: usize) -> u32 {
        let mut set = 0;
        for _ in 0..k {
            let r = below(rng, u64::from(free.count_ones()));
            let bit = p.deposit(1 << r, *free);
            set |= bit;
            *free ^= bit;
        }
        set
    }

    /// The board as hex and harbor arrays.
    pub fn layout(&self, m: &Masks) -> Layout {
        // Whole words of eight places, then the board's places copied out.
        let planes = m.planes();
        let k = &m.token;
        // Bit planes of the token value itself (2 = 0b0010, ..., 12 = 0b1100).
        let value = [
            k[1] | k[3] | k[6] | k[8],
            k[0] | k[1] | k[4] | k[7] | k[8],
            k[2] | k[3] | k[4] | k[9],
            k[5] | k[6] | k[7] | k[8] | k[9],
        ];
        let (mut terrain, mut token) = ([0u8; 32], [0u8; 32]);
        for c in 0..self.n.div_ceil(8).min(4) {
            let at = 8 * c..8 * c + 8;
            terrain[at.clone()].copy_from_slice(&bytes(&planes.terrain, c).to_le_bytes());
            token[at].copy_from_slice(&bytes(&value, c).to_le_bytes());
        }
        let mut b = Layout::default();
        b.terrain[..self.n].copy_from_slice(&terrain[..self.n]);
        b.token[..self.n].copy_from_slice(&token[..self.n]);
        let mut harbor = [0u8; 16];
        harbor[..8].copy_from_slice(&bytes(&planes.harbor, 0).to_le_bytes());
        harbor[8..].copy_from_slice(&bytes(&planes.harbor, 1).to_le_bytes());
        let len = b.harbor.len();
        b.harbor.copy_from_slice(&harbor[..len]);
        b
    }

    /// Count one board: per hex its joint (terrain, token) counter, per harbor position
    /// its kind, and its placement cell.
    #[inline(always)]
    fn count(
        &self,
        m: &Masks,
        (n, harbors): (usize, usize),
        local: &mut Local,
        cells: Option<&Cells>,
        counts: &mut Counts,
    ) {
        // For eight hexes at a time, the bytes 11 * terrain + column: at most 65, so
        // bytes never carry into each other.
        let planes = m.planes();
        for c in 0..n.div_ceil(8) {
            let mut idx = bytes(&planes.terrain, c) * 11 + bytes(&planes.column, c);
            for h in 8 * c..(8 * c + 8).min(n) {
                local.joint[h % 32][(idx & 0x7f) as usize] += 1;
                idx >>= 8;
            }
        }
        for c in 0..harbors.div_ceil(8) {
            let mut kind = bytes(&planes.harbor, c);
            for p in 8 * c..(8 * c + 8).min(harbors) {
                local.harbor[p % 16][(kind & 7) as usize] += 1;
                kind >>= 8;
            }
        }
        if let Some(cells) = cells {
            counts.cells[cells.of_placement(m.red_set, m.terrain[DESERT as usize])] += 1;
        }
        local.boards += 1;
        local.attempts += m.attempts;
        if local.boards == u32::MAX {
            local.flush(self, counts);
        }
    }

    /// Draw and count the boards `indices` of the run `streams` into `counts`.
    pub fn count_into(
        &self,
        streams: &Streams,
        indices: impl Iterator<Item = u64>,
        counts: &mut Counts,
        cells: Option<&Cells>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = Bmi2::detect() {
            // SAFETY: `b` exists only when the CPU has BMI2.
            return unsafe { self.count_bmi2(b, streams, indices, counts, cells) };
        }
        self.count_with(Soft, streams, indices, counts, cells)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,popcnt")]
    fn count_bmi2(
        &self,
        b: Bmi2,
        streams: &Streams,
        indices: impl Iterator<Item = u64>,
        counts: &mut Counts,
        cells: Option<&Cells>,
    ) {
        self.count_with(b, streams, indices, counts, cells)
    }

    /// [`Plan::count_into`] with the given bit deposit.
    #[inline(always)]
    pub fn count_with<P: Deposit>(
        &self,
        p: P,
        streams: &Streams,
        indices: impl Iterator<Item = u64>,
        counts: &mut Counts,
        cells: Option<&Cells>,
    ) {
        let mut local = Local::new();
        // The two shapes with their sizes as constants, so the counting loops unroll.
        match (self.n, self.harbors) {
            (19, 9) => self.each::<P, 19, 9>(p, streams, indices, &mut local, cells, counts),
            (30, 11) => self.each::<P, 30, 11>(p, streams, indices, &mut local, cells, counts),
            _ => self.each::<P, 0, 0>(p, streams, indices, &mut local, cells, counts),
        }
        local.flush(self, counts);
    }

    /// The counting loop; N and H are the hex and harbor counts, or 0 for "the plan's".
    #[inline(always)]
    fn each<P: Deposit, const N: usize, const H: usize>(
        &self,
        p: P,
        streams: &Streams,
        indices: impl Iterator<Item = u64>,
        local: &mut Local,
        cells: Option<&Cells>,
        counts: &mut Counts,
    ) {
        let sizes = if N == 0 {
            (self.n, self.harbors)
        } else {
            (N, H)
        };
        for i in indices {
            let m = self.draw_with(p, &mut streams.item(i));
            self.count(&m, sizes, local, cells, counts);
        }
    }
}

/// Counters of one counting call, shaped so that their indices need no bounds checks
/// (hex < 32, joint column < 128; harbor position < 16, kind < 8).
struct Local {
    joint: Box<[[u32; 128]; 32]>,
    harbor: [[u32; 8]; 16],
    boards: u32,
    attempts: u64,
}

impl Local {
    fn new() -> Local {
        Local {
            joint: Box::new([[0; 128]; 32]),
            harbor: [[0; 8]; 16],
            boards: 0,
            attempts: 0,
        }
    }

    /// Add into `counts` and start again from zero.
    fn flush(&mut self, plan: &Plan, counts: &mut Counts) {
        for (h, row) in self.joint.iter_mut().take(plan.n).enumerate() {
            for (j, c) in row.iter_mut().take(JOINT).enumerate() {
                counts.joint[h * JOINT + j] += u64::from(std::mem::take(c));
            }
        }
        for (p, row) in self.harbor.iter_mut().take(plan.harbors).enumerate() {
            for (k, c) in row.iter_mut().take(6).enumerate() {
                counts.harbor[p * 6 + k] += u64::from(std::mem::take(c));
            }
        }
        counts.boards += u64::from(std::mem::take(&mut self.boards));
        counts.attempts += std::mem::take(&mut self.attempts);
    }
}

/// Byte i of SPREAD[b] is bit i of b.
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b] |= ((b as u64 >> i) & 1) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    t
};

/// A board's codes as bit planes (bit b of a place's code is bit `place` of plane b):
/// terrain code, token column (1 + index in TOKEN_VALUES, 0 for none), harbor kind.
struct Planes {
    terrain: [u32; 3],
    column: [u32; 4],
    harbor: [u32; 3],
}

impl Masks {
    #[inline(always)]
    fn planes(&self) -> Planes {
        let (t, k, h) = (&self.terrain, &self.token, &self.harbor);
        Planes {
            terrain: [t[1] | t[3] | t[5], t[2] | t[3], t[4] | t[5]],
            column: [
                k[0] | k[2] | k[4] | k[6] | k[8],
                k[1] | k[2] | k[5] | k[6] | k[9],
                k[3] | k[4] | k[5] | k[6],
                k[7] | k[8] | k[9],
            ],
            harbor: [h[1] | h[3] | h[5], h[2] | h[3], h[4] | h[5]],
        }
    }
}

/// The codes of places 8c..8c+8 as the bytes of a word (byte i: place 8c + i).
#[inline(always)]
fn bytes<const K: usize>(planes: &[u32; K], c: usize) -> u64 {
    let mut v = 0;
    for (b, &plane) in planes.iter().enumerate() {
        v |= SPREAD[((plane >> (8 * (c % 4))) & 0xff) as usize] << b;
    }
    v
}

/// Every k-subset of m bits, in increasing order (Gosper's next-subset step).
fn push_subsets(m: usize, k: usize, out: &mut Vec<u32>) {
    if k == 0 {
        out.push(0);
        return;
    }
    let end = 1u64 << m;
    let mut v = (1u64 << k) - 1;
    while v < end {
        out.push(v as u32);
        let c = v & v.wrapping_neg();
        let r = v + c;
        v = (((r ^ v) >> 2) / c) | r;
    }
}

/// Decode one number x below 2^BITS into indices below `bounds` (mixed radix, most
/// significant first) by the multiply chain; returns the final low word, which must be
/// at least [`threshold`] of the product for the draw to be accepted.
#[inline(always)]
pub fn decode<const BITS: u32>(mut x: u64, bounds: &[u32], out: &mut [u32]) -> u64 {
    let mask = if BITS == 64 {
        u64::MAX
    } else {
        (1u64 << BITS) - 1
    };
    for (slot, &b) in out.iter_mut().zip(bounds) {
        let m = u128::from(x) * u128::from(b);
        *slot = (m >> BITS) as u32;
        x = (m as u64) & mask;
    }
    x
}

/// 2^BITS mod product: low words below it are rejected (Lemire's threshold).
pub fn threshold<const BITS: u32>(product: u64) -> u64 {
    ((1u128 << BITS) % u128::from(product)) as u64
}

/// Uniform below n (n >= 1) from 64-bit numbers, by multiply-and-reject.
fn below(rng: &mut Rng, n: u64) -> u64 {
    let t = threshold::<64>(n);
    loop {
        let m = u128::from(rng.next_u64()) * u128::from(n);
        if m as u64 >= t {
            return (m >> 64) as u64;
        }
    }
}

/// Parallel bit deposit: the low bits of `src` go, in order, to the set bits of `mask`.
pub trait Deposit: Copy {
    fn deposit(self, src: u32, mask: u32) -> u32;
}

/// Bit deposit in plain code, one bit of the mask at a time.
#[derive(Debug, Clone, Copy)]
pub struct Soft;

impl Deposit for Soft {
    /// A byte of the mask at a time: a byte with c set bits takes the next c bits of
    /// `src`, spread by a 256 x 256 table (counts from a table too: without the POPCNT
    /// instruction `count_ones` is a long sequence).
    #[inline(always)]
    fn deposit(self, mut src: u32, mask: u32) -> u32 {
        let mut out = 0;
        for shift in [0, 8, 16, 24] {
            let byte = ((mask >> shift) & 0xff) as usize;
            out |= u32::from(DEPOSIT8[byte][(src & 0xff) as usize]) << shift;
            src >>= ONES8[byte];
        }
        out
    }
}

/// Set bits of each byte.
static ONES8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u32).count_ones() as u8;
        b += 1;
    }
    t
};

/// DEPOSIT8[mask][src]: the low bits of `src` placed on the set bits of an 8-bit mask
/// (the bits of `src` beyond the mask's count are ignored).
static DEPOSIT8: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut src = 0;
        while src < 256 {
            let (mut out, mut s, mut bit) = (0u8, src, 0);
            while bit < 8 {
                if mask >> bit & 1 == 1 {
                    out |= ((s & 1) << bit) as u8;
                    s >>= 1;
                }
                bit += 1;
            }
            t[mask][src] = out;
            src += 1;
        }
        mask += 1;
    }
    t
};

/// The `pdep` instruction. A value exists only on a CPU with BMI2 (and POPCNT) where
/// `pdep` is fast (AMD processors before Zen 3 run it in microcode, slower than [`Soft`]).
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy)]
pub struct Bmi2(());

#[cfg(target_arch = "x86_64")]
impl Bmi2 {
    pub fn detect() -> Option<Bmi2> {
        use std::sync::OnceLock;
        static FAST: OnceLock<bool> = OnceLock::new();
        let fast = *FAST.get_or_init(|| {
            // PUZZLEBOOK_PLAIN_DEPOSIT=1 forces the plain-code path (same output; for
            // tests and for measuring what machines without fast pdep get).
            let plain = std::env::var_os("PUZZLEBOOK_PLAIN_DEPOSIT")
                .is_some_and(|v| !v.is_empty() && v != "0");
            let features =
                std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("popcnt");
            if plain || !features {
                return false;
            }
            // SAFETY: leaves 0 (vendor) and 1 (family) exist on every x86-64 processor
            // (`__cpuid` is a safe function in recent Rust, unsafe in older releases).
            #[allow(unused_unsafe)]
            let (vendor, info) =
                unsafe { (std::arch::x86_64::__cpuid(0), std::arch::x86_64::__cpuid(1)) };
            let name = (vendor.ebx, vendor.edx, vendor.ecx);
            // "AuthenticAMD", and "HygonGenuine" (a Zen 1 core).
            let amd = name == (0x6874_7541, 0x6974_6e65, 0x444d_4163)
                || name == (0x6f67_7948, 0x6e65_476e, 0x656e_6975);
            let base = (info.eax >> 8) & 0xf;
            let family = if base == 0xf {
                base + ((info.eax >> 20) & 0xff)
            } else {
                base
            };
            !(amd && family < 0x19)
        });
        fast.then_some(Bmi2(()))
    }
}

#[cfg(target_arch = "x86_64")]
impl Deposit for Bmi2 {
    #[inline(always)]
    fn deposit(self, src: u32, mask: u32) -> u32 {
        // SAFETY: a Bmi2 value exists only when the CPU has BMI2 (see `detect`).
        unsafe { std::arch::x86_64::_pdep_u32(src, mask) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set bits of a mask, lowest first.
    pub(super) fn bits(mut m: u32) -> impl Iterator<Item = usize> {
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                i
            })
        })
    }

    /// The board as arrays, read straight off the masks (independent of the planes).
    fn simple_layout(m: &Masks) -> Layout {
        let mut b = Layout::default();
        for (t, &mask) in m.terrain.iter().enumerate() {
            bits(mask).for_each(|h| b.terrain[h] = t as u8);
        }
        for (k, &mask) in m.token.iter().enumerate() {
            bits(mask).for_each(|h| b.token[h] = TOKEN_VALUES[k]);
        }
        for (k, &mask) in m.harbor.iter().enumerate() {
            bits(mask).for_each(|p| b.harbor[p] = k as u8);
        }
        b
    }

    #[test]
    fn subset_tables_list_every_k_subset_once() {
        for m in 0..=12usize {
            for k in 0..=m {
                let mut v = Vec::new();
                push_subsets(m, k, &mut v);
                assert_eq!(v.len() as u64, binom(m as u64, k as u64), "C({m},{k})");
                assert!(v
                    .iter()
                    .all(|&s| s.count_ones() as usize == k && s >> m == 0));
                assert!(v.windows(2).all(|w| w[0] < w[1]), "distinct, increasing");
            }
        }
    }

    #[test]
    fn software_deposit_matches_its_definition() {
        let mut rng = crate::seed::item_rng(3, "test", 0);
        for _ in 0..20_000 {
            let (src, mask) = (rng.next_u32(), rng.next_u32() >> (rng.next_u32() % 32));
            // Definition: the i-th lowest set bit of mask gets bit i of src.
            let mut want = 0;
            for (i, b) in bits(mask).enumerate() {
                want |= ((src >> i) & 1) << b;
            }
            assert_eq!(Soft.deposit(src, mask), want);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                // SAFETY: checked just above.
                let hw = unsafe { std::arch::x86_64::_pdep_u32(src, mask) };
                assert_eq!(hw, want);
            }
        }
    }

    /// Stage indices given in order (to enumerate every tuple of them).
    struct Given<'a>(&'a [u32], usize);

    impl Indices for Given<'_> {
        fn next(&mut self, st: &Stage) -> u32 {
            let r = self.0[self.1];
            assert!(r < st.bound);
            self.1 += 1;
            r
        }
    }

    /// Every tuple of stage indices, for 3 + 2 + 2 items of three kinds on 7 places
    /// scattered in a 19-bit mask, under table limits that force single picks, mixed
    /// stages and whole tables: each of the 210 arrangements comes out equally often.
    #[test]
    fn stages_give_every_arrangement_equally_often() {
        let free = 0b100_1010_0010_0101_0001u32;
        assert_eq!(free.count_ones(), 7);
        for limit in [1, 6, 20, 4096] {
            let mut t = Tables::new(limit);
            let sp = t.space(&[(0, 3), (1, 2), (2, 2)]);
            let bounds: Vec<u32> = sp.stages.iter().map(|s| s.bound).collect();
            let total: u64 = bounds.iter().map(|&b| u64::from(b)).product();
            let mut seen = std::collections::HashMap::new();
            let mut tuple = vec![0u32; bounds.len()];
            for _ in 0..total {
                let mut masks = [0u32; 3];
                fill(
                    Soft,
                    &t.subsets,
                    &sp,
                    free,
                    &mut Given(&tuple, 0),
                    &mut masks,
                );
                #[cfg(target_arch = "x86_64")]
                if let Some(b) = Bmi2::detect() {
                    let mut hw = [0u32; 3];
                    fill(b, &t.subsets, &sp, free, &mut Given(&tuple, 0), &mut hw);
                    assert_eq!(hw, masks);
                }
                let sizes = masks.map(u32::count_ones);
                assert_eq!(sizes, [3, 2, 2]);
                assert_eq!(masks[0] | masks[1] | masks[2], free);
                *seen.entry(masks).or_insert(0u64) += 1;
                // Next tuple (odometer, last index fastest).
                for (r, &b) in tuple.iter_mut().zip(&bounds).rev() {
                    *r += 1;
                    if *r < b {
                        break;
                    }
                    *r = 0;
                }
            }
            assert_eq!(seen.len(), 210, "limit {limit}");
            assert!(
                seen.values().all(|&c| c == total / 210),
                "limit {limit}: {bounds:?}"
            );
        }
    }

    /// Full rejection's red-set index from a 16-bit piece: over all 2^16 pieces every
    /// index is accepted equally often, and the valid sets are the table's.
    #[test]
    fn rejection_pieces_are_exactly_uniform() {
        use crate::games::catan::board::BoardKind;
        use crate::games::catan::{context, rules::Rules, Sampler};
        let rules: Rules = "red-apart".parse().unwrap();
        let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
        let r = Rejection::new(ctx.shape, ctx.table.as_ref().unwrap());
        assert_eq!((r.bound, r.wide), (3876, false));
        assert_eq!(r.valid.iter().filter(|&&v| v != u32::MAX).count(), 532);
        let mut seen = vec![0u32; 3876];
        for x in 0..1u64 << 16 {
            if let Some(i) = r.piece(x, 16) {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 65536 / 3876), "{:?}", &seen[..8]);
        let wide = Rejection::new(
            BoardKind::Extended.shape(),
            context(BoardKind::Extended, &rules, Sampler::Direct)
                .unwrap()
                .table
                .as_ref()
                .unwrap(),
        );
        assert_eq!((wide.bound, wide.wide), (593_775, true));
        assert_eq!(wide.threshold, ((1u64 << 32) % 593_775) as u32);
    }

    /// The stages whose indices come from the chain, in the order a board uses them.
    fn chained_stages(plan: &Plan) -> Vec<Stage> {
        let mut v = Vec::new();
        if plan.chained_placement && plan.rejection.is_none() {
            v.push(plan.red_stage);
        }
        if plan.chained_placement {
            v.extend(&plan.desert_space.stages);
        }
        v.extend(&plan.red_space.stages);
        if plan.two_twelve {
            v.extend(&plan.extreme_space.stages);
        }
        for sp in [&plan.token_space, &plan.terrain_space, &plan.harbor_space] {
            v.extend(&sp.stages);
        }
        v
    }

    /// The plan's bookkeeping against the plain decoder: its stages, in the order a
    /// board uses them, fall into groups with the plan's products and thresholds; a
    /// number is kept exactly when `decode` says Lemire's test passes (also for numbers
    /// made to land near the threshold); and a board built from indices decoded that
    /// way equals the one `draw_with` draws.
    #[test]
    fn draws_agree_with_the_plain_decoder() {
        use crate::games::catan::board::BoardKind;
        use crate::games::catan::{context, rules::Rules, Sampler};
        let (mut kept, mut dropped) = (0, 0);
        for (kind, rules) in [
            (BoardKind::Base, "red-apart"),
            (BoardKind::Base, "none"),
            (BoardKind::Base, "red-apart,2-12-apart"),
            (BoardKind::Extended, "red-apart"),
        ] {
            let rules: Rules = rules.parse().unwrap();
            let ctx = context(kind, &rules, Sampler::Direct).unwrap();
            for sampler in [Sampler::Direct, Sampler::FullRejection] {
                let Some(plan) = ctx.mask_plan(sampler) else {
                    continue;
                };
                let mut groups: Vec<Vec<u32>> = Vec::new();
                for st in chained_stages(plan) {
                    if st.first {
                        groups.push(Vec::new());
                    }
                    groups.last_mut().expect("a first stage").push(st.bound);
                    assert_eq!(usize::from(st.word), groups.len() - 1);
                }
                assert_eq!(groups.len(), plan.groups.len(), "{rules} {sampler:?}");
                let products: Vec<u64> = groups
                    .iter()
                    .map(|b| b.iter().map(|&x| u64::from(x)).product())
                    .collect();
                for ((bounds, &product), g) in groups.iter().zip(&products).zip(&plan.groups) {
                    assert_eq!(
                        (g.product, g.threshold),
                        (product, threshold::<64>(product))
                    );
                    let mut out = vec![0u32; bounds.len()];
                    for j in 0..2000u64 {
                        // x * product lands just above a multiple of 2^64.
                        let k = u128::from(j.wrapping_mul(0x9e37_79b9_7f4a_7c15) % product);
                        let x = ((k << 64) / u128::from(product)) as u64 + 1;
                        let keep = decode::<64>(x, bounds, &mut out) >= threshold::<64>(product);
                        assert_eq!(g.accepts(x), keep);
                        if keep {
                            kept += 1;
                        } else {
                            dropped += 1;
                        }
                    }
                }
                let streams = Streams::new(11, "catan");
                for i in 0..2000 {
                    let mut rng = streams.item(i);
                    let given = match &plan.rejection {
                        Some(r) if plan.chained_placement => Some(r.draw(&mut rng)),
                        _ => None,
                    };
                    let mut indices = Vec::new();
                    for (bounds, &product) in groups.iter().zip(&products) {
                        let mut out = vec![0u32; bounds.len()];
                        while decode::<64>(rng.next_u64(), bounds, &mut out)
                            < threshold::<64>(product)
                        {}
                        indices.extend(out);
                    }
                    let reference = plan.fill_board(Soft, &mut rng, &mut Given(&indices, 0), given);
                    assert_eq!(plan.draw_with(Soft, &mut streams.item(i)), reference);
                }
            }
        }
        assert!(
            kept > 1000 && dropped > 1000,
            "both outcomes: {kept} / {dropped}"
        );
    }

    /// The fast counters give exactly the counts of drawing each board as a layout
    /// and counting it plainly (cell found from the layout), with either deposit.
    #[test]
    fn counting_masks_equals_counting_the_boards() {
        use crate::games::catan::board::BoardKind;
        use crate::games::catan::{context, rules::Rules, Sampler};
        for (kind, rules, words) in [
            (BoardKind::Base, "red-apart", 2),
            (BoardKind::Base, "none", 2),
            (BoardKind::Base, "red-apart,2-12-apart", 2),
            (BoardKind::Base, "2-12-apart", 2),
            (BoardKind::Extended, "red-apart", 4),
            (BoardKind::Extended, "none", 4),
        ] {
            let rules: Rules = rules.parse().unwrap();
            let ctx = context(kind, &rules, Sampler::Direct).unwrap();
            assert_eq!(
                ctx.plan().unwrap().words(),
                words,
                "{rules}: numbers per board"
            );
            for sampler in [Sampler::Direct, Sampler::FullRejection] {
                let plan = ctx.mask_plan(sampler).unwrap();
                let cells = Cells::new(ctx.shape, ctx.table.as_ref().unwrap());
                let streams = Streams::new(9, "catan");
                let empty = Counts::new(ctx.shape, cells.len());
                let mut fast = empty.clone();
                plan.count_into(&streams, 0..4000, &mut fast, Some(&cells));
                let mut soft = empty.clone();
                plan.count_with(Soft, &streams, 0..4000, &mut soft, Some(&cells));
                let mut plain = empty.clone();
                for i in 0..4000 {
                    let d = ctx.sample(sampler, &mut streams.item(i)).unwrap();
                    let (a, b) = (&mut streams.item(i), &mut streams.item(i));
                    let m = plan.draw(b);
                    assert_eq!(plan.draw_with(Soft, a), m);
                    assert_eq!(d.layout, simple_layout(&m));
                    let cell = cells.of(ctx.shape, &d.layout);
                    assert!(cell.is_some(), "{rules}: board {i} has a valid placement");
                    plain.add(&d.layout, d.attempts, cell);
                }
                assert_eq!(fast, plain, "{rules} {sampler:?}");
                assert_eq!(soft, plain, "{rules} {sampler:?}");
                assert!(fast.fits(&empty, 4000));
                if sampler == Sampler::FullRejection && rules.red_apart() {
                    assert!(fast.attempts > 4000 * 5, "{rules}: about 51/7 sets a board");
                }
            }
        }
    }

    /// The multiply chain with rejection is exact: over every x below 2^BITS, each
    /// tuple of indices is accepted the same number of times (checked exhaustively on
    /// 12-bit numbers, where the same arithmetic runs as on 64-bit ones).
    #[test]
    fn multiply_chain_is_exactly_uniform() {
        const BITS: u32 = 12;
        for bounds in [
            vec![3u32, 5, 7],
            vec![6, 13],
            vec![2; 12],
            vec![4095],
            vec![31, 33, 4],
            vec![1, 17, 1, 9],
            vec![15, 6, 14, 3],
        ] {
            let product: u64 = bounds.iter().map(|&b| u64::from(b)).product();
            let t = threshold::<BITS>(product);
            let mut seen = std::collections::HashMap::new();
            let mut out = vec![0u32; bounds.len()];
            for x in 0..1u64 << BITS {
                if decode::<BITS>(x, &bounds, &mut out) >= t {
                    assert!(out.iter().zip(&bounds).all(|(o, b)| o < b));
                    *seen.entry(out.clone()).or_insert(0u64) += 1;
                }
            }
            assert_eq!(seen.len() as u64, product, "{bounds:?}: every tuple");
            let first = *seen.values().next().unwrap();
            assert!(
                seen.values().all(|&c| c == first),
                "{bounds:?}: equal counts"
            );
            assert_eq!(first, (1u64 << BITS) / product);
        }
        // On 64-bit numbers the final low word is x * product mod 2^64, which is what
        // the sampler tests (one multiplication) before decoding.
        let mut rng = crate::seed::item_rng(4, "test", 0);
        let bounds = [532u32, 15, 6, 14, 78, 55, 36, 21, 10, 3];
        let product: u64 = bounds.iter().map(|&b| u64::from(b)).product();
        let mut out = [0u32; 10];
        for _ in 0..10_000 {
            let x = rng.next_u64();
            assert_eq!(decode::<64>(x, &bounds, &mut out), x.wrapping_mul(product));
        }
    }
}
