//! The choices a board is made of, as stages: which subset tables they read, which
//! 64-bit number of the multiply chain gives each index, and how a stage's subset is
//! put onto the free places.

use super::super::bounded;
use super::super::exact::binom;
use super::deposit::Deposit;

/// Largest subset table (entries); larger choices begin with single picks.
pub(super) const TABLE_LIMIT: u64 = 4096;
/// Largest product of bounds decoded from one 64-bit number; a redraw of that number
/// has probability below product / 2^64 <= 2^-12.
pub(super) const GROUP_LIMIT: u64 = 1 << 52;
/// Most 64-bit numbers one board's indices need (checked when a plan is built).
pub(super) const MAX_WORDS: usize = 8;

/// One choice: `bound` = C(m, k) subsets of the free places, listed from `table` on,
/// deposited into the mask `target`. The index comes from the multiply chain of
/// 64-bit number `word`; `first` marks the first index taken from that number.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stage {
    pub(super) bound: u32,
    pub(super) table: u32,
    pub(super) target: u8,
    pub(super) word: u8,
    pub(super) first: bool,
}

/// The choices within one set of places; what is left after them goes to `last`.
#[derive(Debug, Clone, Default)]
pub(super) struct Space {
    pub(super) stages: Vec<Stage>,
    pub(super) last: u8,
}

/// The product of the bounds decoded from one 64-bit number, and Lemire's threshold
/// for it (2^64 mod product, worked out once when the plan is built).
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    pub(super) product: u64,
    threshold: u64,
}

impl Group {
    /// The group of the bounds whose product is `product` (a product of 0, an empty
    /// placement table, keeps every number, as [`bounded::piece`] does).
    pub(super) fn new(product: u64) -> Group {
        Group {
            product,
            threshold: bounded::threshold::<64>(product.max(1)),
        }
    }

    /// Whether a 64-bit number x is kept: its chain's final low word, which is
    /// x * product mod 2^64, passes Lemire's test (the chain is the mixed-radix
    /// reading of the one bounded draw below the product). The same test as
    /// [`bounded::piece`], with the threshold at hand: one multiplication and one
    /// comparison per number.
    #[inline(always)]
    pub(super) fn accepts(&self, x: u64) -> bool {
        bounded::piece_with::<64>(x, self.product, self.threshold).is_some()
    }
}

/// Where the stages' indices come from.
pub(super) trait Indices {
    /// The index of stage `st`, below `st.bound`.
    fn next(&mut self, st: &Stage) -> u32;
}

/// The 64-bit numbers of one board (borrowed) and the one being decoded. Only a
/// pointer and a number, so that the number being decoded stays in a register
/// between the stages instead of going through memory.
pub(super) struct Chain<'a> {
    pub(super) words: &'a [u64; MAX_WORDS],
    pub(super) x: u64,
}

impl Indices for Chain<'_> {
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

/// The subset tables, shared by all stages of a plan.
pub(super) struct Tables {
    pub(super) subsets: Vec<u32>,
    at: std::collections::HashMap<(usize, usize), u32>,
    /// Largest table; larger choices begin with single picks.
    limit: u64,
}

impl Tables {
    pub(super) fn new(limit: u64) -> Tables {
        Tables {
            subsets: Vec::new(),
            at: std::collections::HashMap::new(),
            limit,
        }
    }

    /// The stages filling `kinds` (target, count) into as many places as the counts
    /// add up to, in order; the last kind takes what is left.
    pub(super) fn space(&mut self, kinds: &[(u8, usize)]) -> Space {
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
                let take = if binom(m, k) <= u128::from(self.limit) {
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
                    bound: binom(m, take) as u32,
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
pub(super) fn fill<P: Deposit>(
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

/// Every k-subset of m bits, in increasing order (Gosper's next-subset step).
pub(super) fn push_subsets(m: usize, k: usize, out: &mut Vec<u32>) {
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
/// at least the threshold (2^BITS mod product, [`bounded::threshold`]) for the draw to
/// be accepted.
#[inline(always)]
#[cfg(test)]
pub(super) fn decode<const BITS: u32>(mut x: u64, bounds: &[u32], out: &mut [u32]) -> u64 {
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
