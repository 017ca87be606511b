//! The mergeable counts of a bias run: per hex the joint (terrain, token) counters, per
//! harbor position its kind, and boards per chi-square cell. Both the samplers' plain
//! counting (in `bias`) and the direct sampler's fast path fill these.

use super::exact::{extreme_sets, PlacementTable};
use crate::board::{is_red, Shape, DESERT, MAX_HARBOR};
use crate::rules::Setup;
use std::collections::HashMap;

/// Column of each token value in a hex's joint counters: 0 for none (the desert),
/// 1 + its index in TOKEN_VALUES otherwise.
const TOKEN_COLUMN: [u8; 16] = [0, 0, 1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 0, 0, 0];
/// Joint counters per hex: 6 terrains x 11 token columns.
pub(crate) const JOINT: usize = 66;

/// Counts of one sampler's run. Adding two runs' counts gives the counts of both.
/// Per hex the joint (terrain, token) counts are kept, one increment per hex and
/// board; every per-hex frequency of the report is a sum of them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Boards counted.
    pub boards: u64,
    /// Attempts over all counted boards (rejected boards included).
    pub attempts: u64,
    /// hex * 66 + terrain * 11 + token column
    pub joint: Vec<u64>,
    /// harbor position * 6 + kind
    pub harbor: Vec<u64>,
    /// Boards per placement cell (see [`Cells`]).
    pub cells: Vec<u64>,
    /// resource * `PIP_BINS` + its pip total (the pips of the numbers on its hexes).
    pub resource: Vec<u64>,
}

pub(crate) use crate::board::PIP_BINS;
pub use crate::board::RESOURCES;

/// Pips of a token value (0 for none), by value.
const PIPS: [u8; 16] = [0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1, 0, 0, 0];

impl Counts {
    /// Empty counts for a shape, with `cells` placement cells (0 when no chi-square is done).
    pub fn new(shape: &Shape, cells: usize) -> Counts {
        Counts {
            boards: 0,
            attempts: 0,
            joint: vec![0; shape.len() * JOINT],
            harbor: vec![0; shape.harbors.len() * 6],
            cells: vec![0; cells],
            resource: vec![0; RESOURCES * PIP_BINS],
        }
    }

    #[inline]
    /// Count one board that took `attempts` attempts, in placement cell `cell` if it has one.
    pub fn add(&mut self, b: &Setup, attempts: u64, cell: Option<usize>) {
        self.boards += 1;
        self.attempts += attempts;
        // One joint counter per hex: (terrain, token column) within the hex's 66.
        let hexes = self.joint.len() / JOINT;
        for h in 0..hexes {
            let (t, k) = (b.terrain[h & 31] as usize, b.token[h & 31] as usize);
            self.joint[h * JOINT + t * 11 + TOKEN_COLUMN[k & 15] as usize] += 1;
        }
        let harbors = self.harbor.len() / 6;
        for p in 0..harbors {
            self.harbor[p * 6 + b.harbor[p % MAX_HARBOR] as usize] += 1;
        }
        if let Some(c) = cell {
            self.cells[c] += 1;
        }
        let mut pips = [0usize; 8];
        for h in 0..hexes {
            pips[b.terrain[h & 31] as usize & 7] +=
                usize::from(PIPS[b.token[h & 31] as usize & 15]);
        }
        for (r, &p) in pips.iter().take(RESOURCES).enumerate() {
            self.resource[r * PIP_BINS + p.min(PIP_BINS - 1)] += 1;
        }
    }

    /// Whether these counts can be a run of `boards` boards counted like `empty`:
    /// the same vector lengths, every hex and harbor counted once per board, the
    /// placement cells (if any) summing to the boards (checks a part before merging).
    pub fn fits(&self, empty: &Counts, boards: u64) -> bool {
        let per = |v: &[u64], w: usize| v.chunks(w).all(|c| c.iter().sum::<u64>() == boards);
        self.boards == boards
            && self.attempts >= boards
            && self.joint.len() == empty.joint.len()
            && self.harbor.len() == empty.harbor.len()
            && self.cells.len() == empty.cells.len()
            && self.resource.len() == empty.resource.len()
            && per(&self.resource, PIP_BINS)
            && per(&self.joint, JOINT)
            && per(&self.harbor, 6)
            && (self.cells.is_empty() || self.cells.iter().sum::<u64>() == boards)
    }

    /// Add another run's counts (same shape and cells) to these.
    pub fn merge(&mut self, o: &Counts) {
        self.boards += o.boards;
        self.attempts += o.attempts;
        for (a, b) in [
            (&mut self.joint, &o.joint),
            (&mut self.harbor, &o.harbor),
            (&mut self.cells, &o.cells),
            (&mut self.resource, &o.resource),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    fn hex(&self, h: usize) -> &[u64] {
        &self.joint[h * JOINT..(h + 1) * JOINT]
    }

    /// Boards with hex h a desert.
    pub(crate) fn desert(&self, h: usize) -> u64 {
        self.hex(h)[DESERT as usize * 11..(DESERT as usize + 1) * 11]
            .iter()
            .sum()
    }

    /// Boards with `TOKEN_VALUES[k]` on hex h.
    pub fn token(&self, h: usize, k: usize) -> u64 {
        (0..6).map(|t| self.hex(h)[t * 11 + 1 + k]).sum()
    }

    /// Boards with a 6 or an 8 on hex h.
    pub fn red(&self, h: usize) -> u64 {
        self.token(h, 4) + self.token(h, 5)
    }

    /// Boards with terrain t on hex h.
    pub fn terrain(&self, h: usize, t: usize) -> u64 {
        self.hex(h)[t * 11..(t + 1) * 11].iter().sum()
    }
}

/// The chi-square cells: every valid placement of the reds (and, on a board with one
/// desert, the desert), with its exact probability.
pub struct Cells {
    index: CellIndex,
    per_red_set: usize,
    /// Exact probability of each cell under a uniform draw of valid boards; sums to 1.
    pub probability: Vec<f64>,
}

enum CellIndex {
    /// red mask -> red set index + 1 (0: not a valid set), for boards of up to 20 hexes.
    Dense(Vec<u32>),
    Sparse(HashMap<u32, u32>),
    /// One cell per desert hex (rules counted by layers: the chi-square judges where
    /// the desert goes).
    Desert,
}

impl Cells {
    /// The cells of a shape, from its enumerated placement table.
    pub fn new(shape: &Shape, table: &PlacementTable) -> Cells {
        let n = shape.len();
        let index = if n <= 20 {
            let mut v = vec![0u32; 1 << n];
            for (i, &r) in table.red_sets.iter().enumerate() {
                v[r as usize] = i as u32 + 1;
            }
            CellIndex::Dense(v)
        } else {
            CellIndex::Sparse(
                table
                    .red_sets
                    .iter()
                    .enumerate()
                    .map(|(i, &r)| (r, i as u32 + 1))
                    .collect(),
            )
        };
        let all = ((1u64 << n) - 1) as u32;
        let total = table.total as f64;
        let (per_red_set, probability) = if shape.deserts == 1 {
            let extremes = shape.token_count(2) + shape.token_count(12);
            let two_twelve = table.two_twelve();
            let mut p = Vec::with_capacity(table.red_sets.len() * n);
            for &r in &table.red_sets {
                for d in 0..n {
                    let w = if r >> d & 1 == 1 {
                        0
                    } else if two_twelve {
                        extreme_sets(shape, all & !r & !(1 << d), extremes, true)
                    } else {
                        1
                    };
                    p.push(w as f64 / total);
                }
            }
            (n, p)
        } else {
            (1, table.weights.iter().map(|&w| w as f64 / total).collect())
        };
        Cells {
            index,
            per_red_set,
            probability,
        }
    }

    /// One cell per hex, holding the desert, with the exact probability of each (a
    /// board with one desert).
    pub(crate) fn deserts(probability: Vec<f64>) -> Cells {
        Cells {
            index: CellIndex::Desert,
            per_red_set: 1,
            probability,
        }
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.probability.len()
    }

    /// Whether there are no cells.
    pub fn is_empty(&self) -> bool {
        self.probability.is_empty()
    }

    /// The cell of a valid placement: the red set's index in the table and the deserts.
    #[inline(always)]
    pub(crate) fn of_placement(&self, red_set: u32, deserts: u32) -> usize {
        let base = red_set as usize * self.per_red_set;
        if self.per_red_set == 1 {
            base
        } else {
            base + deserts.trailing_zeros() as usize
        }
    }

    /// The cell of a board, or None when its placement is not a valid one.
    #[inline]
    pub fn of(&self, shape: &Shape, b: &Setup) -> Option<usize> {
        let (mut reds, mut deserts) = (0u32, 0u32);
        for h in 0..shape.len() {
            if is_red(b.token[h]) {
                reds |= 1 << h;
            }
            if b.terrain[h] == DESERT {
                deserts |= 1 << h;
            }
        }
        let idx = match &self.index {
            CellIndex::Dense(v) => v[reds as usize],
            CellIndex::Sparse(m) => m.get(&reds).copied().unwrap_or(0),
            CellIndex::Desert => {
                return (deserts.count_ones() == 1).then(|| deserts.trailing_zeros() as usize)
            }
        };
        (idx != 0).then(|| self.of_placement(idx - 1, deserts))
    }
}
