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
//!   happens with probability below 2^-12 here (`GROUP_LIMIT`);
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
//!
//! The parts: `stages` (the choices, their subset tables and the multiply chain),
//! `rejection` (full rejection's red set), `deposit` (the bit deposit, `pdep` or
//! plain code, and the only `unsafe` code), `count` (the fast counting); this module
//! holds the plan and draws a board.

mod count;
mod deposit;
mod rejection;
mod stages;
#[cfg(test)]
mod tests;

pub use deposit::BitDeposit;
pub(crate) use deposit::Deposit;

use super::bounded;
use super::exact::PlacementTable;
use crate::board::{is_extreme, is_red, Shape, DESERT, TOKEN_VALUES};
use crate::rules::independent;
use deposit::{dispatch, WithDeposit};
use ground::seed::Rng;
use rand::RngCore;
use rejection::Rejection;
use stages::{
    fill, Chain, Group, Indices, Space, Stage, Tables, GROUP_LIMIT, MAX_WORDS, TABLE_LIMIT,
};

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
    /// The bit deposit boards are drawn with.
    deposit: BitDeposit,
}

/// Index in TOKEN_VALUES of a token value.
fn token_index(v: u8) -> u8 {
    TOKEN_VALUES
        .iter()
        .position(|&t| t == v)
        .expect("a token value") as u8
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
    pub(crate) fn full_rejection(shape: &'static Shape, table: &PlacementTable) -> Plan {
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
            .filter(|&&v| !(is_red(v) || (two_twelve && is_extreme(v))))
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
        // The product of each group's bounds.
        let mut groups: Vec<u64> = Vec::new();
        for st in stages {
            let b = u64::from(st.bound);
            st.first = match groups.last() {
                Some(product) => product.saturating_mul(b) > GROUP_LIMIT,
                None => true,
            };
            if st.first {
                groups.push(1);
            }
            st.word = (groups.len() - 1) as u8;
            *groups.last_mut().expect("a group") *= b;
        }
        let groups: Vec<Group> = groups.into_iter().map(Group::new).collect();
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
            deposit: BitDeposit::Auto,
        }
    }

    /// The same plan drawing with the bit deposit `deposit` (the same boards).
    pub fn with_deposit(self, deposit: BitDeposit) -> Plan {
        Plan { deposit, ..self }
    }

    /// The bit deposit the plan draws with.
    #[cfg(test)]
    pub(crate) fn deposit(&self) -> BitDeposit {
        self.deposit
    }

    /// How many 64-bit numbers a board takes when nothing is redrawn.
    pub fn words(&self) -> usize {
        self.groups.len()
    }

    /// Draw one board with the plan's bit deposit.
    pub fn draw(&self, rng: &mut Rng) -> Masks {
        dispatch(self.deposit, DrawJob { plan: self, rng })
    }

    /// Draw one board with the given bit deposit (both give the same board).
    #[inline(always)]
    pub(crate) fn draw_with<P: Deposit>(&self, p: P, rng: &mut Rng) -> Masks {
        // Full rejection's red set, when nothing after it can reject the board.
        let given = match &self.rejection {
            Some(r) if self.chained_placement => Some(r.draw(rng)),
            _ => None,
        };
        let mut words = [0; MAX_WORDS];
        for (w, g) in words.iter_mut().zip(&self.groups) {
            *w = loop {
                let x = rng.next_u64();
                if g.accepts(x) {
                    break x;
                }
            };
        }
        let mut chain = Chain {
            words: &words,
            x: 0,
        };
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
}

/// [`Plan::draw`]'s work, run with the chosen deposit.
struct DrawJob<'a> {
    plan: &'a Plan,
    rng: &'a mut Rng,
}

impl WithDeposit for DrawJob<'_> {
    type Output = Masks;
    #[inline(always)]
    fn run<P: Deposit>(self, p: P) -> Masks {
        self.plan.draw_with(p, self.rng)
    }
}

/// Uniform below n (n >= 1) from 64-bit numbers.
#[inline(always)]
fn below(rng: &mut Rng, n: u64) -> u64 {
    let first = rng.next_u64();
    bounded::below::<64>(first, n, || rng.next_u64())
}
