//! How full rejection draws a red set in mask form: from all sets of that many
//! hexes, until the rules accept one.

use super::super::bounded;
use super::super::exact::{subsets, PlacementTable};
use crate::board::Shape;
use ground::seed::Rng;
use rand::RngCore;

/// How full rejection draws a red set: a uniform index below `bound` into every set of
/// that many hexes, from 16-bit (or, for more than 2^16 sets, 32-bit) pieces of the
/// random numbers by Lemire's multiply-and-reject ([`bounded::piece_with`]);
/// `valid[i]` is the set's index in the placement table, or u32::MAX when the rules refuse it.
#[derive(Debug, Clone)]
pub(super) struct Rejection {
    pub(super) bound: u32,
    pub(super) wide: bool,
    /// 2^16 (or 2^32) mod bound: Lemire's threshold, worked out once.
    threshold: u64,
    pub(super) valid: Vec<u32>,
}

impl Rejection {
    pub(super) fn new(shape: &Shape, table: &PlacementTable) -> Rejection {
        // The table lists its red sets in the order the same enumeration gives them,
        // so one walk pairs them up.
        let mut valid = Vec::new();
        let mut next = 0;
        let all = ((1u64 << shape.len()) - 1) as u32;
        subsets(all, shape.reds(), &mut |m| {
            if table.red_sets.get(next) == Some(&m) {
                valid.push(next as u32);
                next += 1;
            } else {
                valid.push(u32::MAX);
            }
        });
        assert_eq!(next, table.red_sets.len(), "the table's red sets, in order");
        let bound = valid.len() as u64;
        let wide = bound > 1 << 16;
        Rejection {
            bound: bound as u32,
            wide,
            threshold: if wide {
                bounded::threshold::<32>(bound)
            } else {
                bounded::threshold::<16>(bound)
            },
            valid,
        }
    }

    /// A valid red set's table index, and how many sets were drawn to find it. The
    /// loop ends: a plan with rejection exists only for a non-empty table.
    #[inline(always)]
    pub(super) fn draw(&self, rng: &mut Rng) -> (u32, u64) {
        if self.wide {
            self.draw_in::<32, 2>(rng)
        } else {
            self.draw_in::<16, 4>(rng)
        }
    }

    /// [`Rejection::draw`] from PIECES pieces of BITS bits of each 64-bit number, lowest
    /// first; a piece Lemire's test rejects is skipped (not an attempt).
    #[inline(always)]
    fn draw_in<const BITS: u32, const PIECES: usize>(&self, rng: &mut Rng) -> (u32, u64) {
        let mut attempts = 0;
        loop {
            let mut x = rng.next_u64();
            for _ in 0..PIECES {
                let piece = bounded::piece_with::<BITS>(
                    x & ((1 << BITS) - 1),
                    u64::from(self.bound),
                    self.threshold,
                );
                x >>= BITS;
                if let Some(i) = piece {
                    attempts += 1;
                    let v = self.valid[i as usize];
                    if v != u32::MAX {
                        return (v, attempts);
                    }
                }
            }
        }
    }
}
