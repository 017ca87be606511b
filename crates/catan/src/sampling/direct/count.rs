//! The fast counting: a drawn board's masks read as bit planes, eight places at a
//! time in the bytes of a 64-bit word, into the bias counters ([`Counts`]).

use super::super::counts::{Cells, Counts, JOINT, PIP_BINS, RESOURCES};
use super::deposit::{dispatch, Deposit, WithDeposit};
use super::{Masks, Plan};
use crate::board::DESERT;
use crate::rules::Setup;
use ground::seed::Streams;

impl Plan {
    /// The board as hex and harbor arrays.
    pub fn layout(&self, m: &Masks) -> Setup {
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
        let mut b = Setup::default();
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
        // Each resource's pips: its hexes against the bit planes of the pips (1, 2, 4).
        let k = &m.token;
        let pip_planes = [
            k[0] | k[2] | k[4] | k[5] | k[7] | k[9],
            k[1] | k[2] | k[7] | k[8],
            k[3] | k[4] | k[5] | k[6],
        ];
        for (r, row) in local.resource.iter_mut().enumerate() {
            let t = m.terrain[r];
            let p = (t & pip_planes[0]).count_ones()
                + 2 * (t & pip_planes[1]).count_ones()
                + 4 * (t & pip_planes[2]).count_ones();
            row[p as usize % PIP_BINS] += 1;
        }
        local.boards += 1;
        local.attempts += m.attempts;
        if local.boards == u32::MAX {
            local.flush(self, counts);
        }
    }

    /// Draw and count the boards `indices` of the run `streams` into `counts`, with
    /// the plan's bit deposit.
    pub(crate) fn count_into(
        &self,
        streams: &Streams,
        indices: impl Iterator<Item = u64>,
        counts: &mut Counts,
        cells: Option<&Cells>,
    ) {
        dispatch(
            self.deposit,
            CountJob {
                plan: self,
                streams,
                indices,
                counts,
                cells,
            },
        )
    }

    /// [`Plan::count_into`] with the given bit deposit.
    #[inline(always)]
    pub(crate) fn count_with<P: Deposit>(
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

/// [`Plan::count_into`]'s work, run with the chosen deposit.
struct CountJob<'a, I> {
    plan: &'a Plan,
    streams: &'a Streams,
    indices: I,
    counts: &'a mut Counts,
    cells: Option<&'a Cells>,
}

impl<I: Iterator<Item = u64>> WithDeposit for CountJob<'_, I> {
    type Output = ();
    #[inline(always)]
    fn run<P: Deposit>(self, p: P) {
        self.plan
            .count_with(p, self.streams, self.indices, self.counts, self.cells)
    }
}

/// Counters of one counting call, shaped so that their indices need no bounds checks
/// (hex < 32, joint column < 128; harbor position < 16, kind < 8).
struct Local {
    joint: Box<[[u32; 128]; 32]>,
    harbor: [[u32; 8]; 16],
    resource: [[u32; PIP_BINS]; RESOURCES],
    boards: u32,
    attempts: u64,
}

impl Local {
    fn new() -> Local {
        Local {
            joint: Box::new([[0; 128]; 32]),
            harbor: [[0; 8]; 16],
            resource: [[0; PIP_BINS]; RESOURCES],
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
        for (r, row) in self.resource.iter_mut().enumerate() {
            for (p, c) in row.iter_mut().enumerate() {
                counts.resource[r * PIP_BINS + p] += u64::from(std::mem::take(c));
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
