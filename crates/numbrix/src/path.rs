//! Random Hamiltonian paths of a board (the R x C grid graph, or its open cells, with
//! orthogonal or king moves) by the backbite chain.
//!
//! A move picks one of the two ends and one of the four compass directions, each with
//! probability 1/8. If the neighbour that way is off the grid or is the end's own path
//! neighbour, nothing happens; otherwise the path is cut next to that neighbour and the
//! stretch between the end and the cut is reversed, so the end joins the neighbour and
//! the cell next to the cut becomes the new end. Every move has the reverse move with
//! the same probability (1/8), so the chain is symmetric and its stationary distribution
//! is uniform over directed paths. (Choosing uniformly among the end's actual
//! neighbours instead would weight a path by the product of its ends' degrees, and a
//! chain that always moves the same end does not reach every path.)
//!
//! Start: the serpentine (boustrophedon) path. Steps: `10 * N * ln(N)^2` for N cells
//! (about 15,600 on 9x9), the order the literature gives for mixing; the tests check the
//! result against the exact uniform distribution where all paths can be listed.

use super::grid::{Board, BLOCKED};
use super::shape::Moves;
use rand::RngCore;

const OFF: u16 = u16::MAX;

/// Draws random Hamiltonian paths of a board by backbite moves.
pub struct PathSampler {
    rows: usize,
    cols: usize,
    /// Neighbour in each direction (left, right, up, down, then with king moves up-left,
    /// up-right, down-left, down-right), OFF outside the grid or on a blocked cell.
    nbr: Vec<[u16; 8]>,
    /// Directions a move picks from: 4 (orthogonal) or 8 (king).
    dirs: u8,
    /// The path every chain starts from (cells in path order).
    start: Vec<u16>,
    steps: u64,
}

/// The serpentine path of a full `rows` x `cols` grid: row 0 left to right, row 1 right
/// to left, ... (a path with orthogonal and with king moves).
pub fn serpentine(rows: usize, cols: usize) -> Vec<u16> {
    let mut p = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for k in 0..cols {
            let c = if r % 2 == 0 { k } else { cols - 1 - k };
            p.push((r * cols + c) as u16);
        }
    }
    p
}

/// The number of backbite moves for `n` cells.
pub fn default_steps(n: usize) -> u64 {
    let ln = (n.max(2) as f64).ln();
    (10.0 * n as f64 * ln * ln).ceil() as u64
}

impl PathSampler {
    /// A sampler for a full `rows` x `cols` grid with orthogonal moves, making
    /// `default_steps` moves per path from the serpentine.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::with_steps(rows, cols, default_steps(rows * cols))
    }

    /// A sampler for a full `rows` x `cols` grid with orthogonal moves, making `steps`
    /// backbite moves per path.
    pub fn with_steps(rows: usize, cols: usize, steps: u64) -> Self {
        Self::for_board(&Board::rect(rows, cols), serpentine(rows, cols), steps)
    }

    /// A sampler for a board, starting every chain from `start` (a Hamiltonian path of
    /// its open cells, cells in path order) and making `steps` moves per path. With king
    /// moves a move picks one of 16 (end, direction) pairs, each with probability 1/16;
    /// the chain stays symmetric, so uniform over the paths it can reach.
    pub fn for_board(board: &Board, start: Vec<u16>, steps: u64) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let at = |r: isize, c: isize| {
            if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
                OFF
            } else {
                let i = r as usize * cols + c as usize;
                if board.is_open(i) {
                    i as u16
                } else {
                    OFF
                }
            }
        };
        let nbr = (0..rows * cols)
            .map(|i| {
                let (r, c) = ((i / cols) as isize, (i % cols) as isize);
                [
                    at(r, c - 1),
                    at(r, c + 1),
                    at(r - 1, c),
                    at(r + 1, c),
                    at(r - 1, c - 1),
                    at(r - 1, c + 1),
                    at(r + 1, c - 1),
                    at(r + 1, c + 1),
                ]
            })
            .collect();
        PathSampler {
            rows,
            cols,
            nbr,
            dirs: if board.moves == Moves::King { 8 } else { 4 },
            start,
            steps,
        }
    }

    /// The serpentine path of this sampler's grid (see [`serpentine`]).
    pub fn serpentine(&self) -> Vec<u16> {
        serpentine(self.rows, self.cols)
    }

    /// A random directed path: the cells in path order.
    pub fn sample(&self, rng: &mut impl RngCore) -> Vec<u16> {
        let mut path = self.start.clone();
        let mut at = vec![0u16; self.rows * self.cols];
        for (i, &c) in path.iter().enumerate() {
            at[c as usize] = i as u16;
        }
        // 3 bits a move (21 from each word) with 4 directions, 4 bits (16) with 8.
        let (width, per_word) = if self.dirs == 4 { (3, 21) } else { (4, 16) };
        let mask = (1u64 << width) - 1;
        let mut bits = 0u64;
        let mut left = 0;
        for _ in 0..self.steps {
            if left == 0 {
                bits = rng.next_u64();
                left = per_word;
            }
            let mv = (bits & mask) as u8;
            bits >>= width;
            left -= 1;
            self.backbite(&mut path, &mut at, mv);
        }
        if rng.next_u64() & 1 == 1 {
            path.reverse();
        }
        path
    }

    /// One backbite move on `path` (cells in path order) with `at` its inverse (cell ->
    /// position): with D directions (4, or 8 with king moves), `mv` in 0..2D, below D
    /// the front end `path[0]`, from D the back end, and `mv % D` the direction (left,
    /// right, up, down, up-left, up-right, down-left, down-right). A move off the grid,
    /// onto a blocked cell or onto the end's own path neighbour leaves the path as it
    /// is. [`PathSampler::sample`] makes its moves with this; the mixing diagnostics
    /// (`mixing`) run it for long chains.
    #[inline]
    pub(crate) fn backbite(&self, path: &mut [u16], at: &mut [u16], mv: u8) {
        let n = path.len();
        let dir = (mv & (self.dirs - 1)) as usize;
        if mv < self.dirs {
            // Front end path[0].
            let w = self.nbr[path[0] as usize][dir];
            if w == OFF {
                return;
            }
            let i = at[w as usize] as usize;
            if i == 1 {
                return;
            }
            path[..i].reverse();
            for (k, &c) in path[..i].iter().enumerate() {
                at[c as usize] = k as u16;
            }
        } else {
            // Back end path[n - 1].
            let w = self.nbr[path[n - 1] as usize][dir];
            if w == OFF {
                return;
            }
            let j = at[w as usize] as usize;
            if j == n - 2 {
                return;
            }
            path[j + 1..].reverse();
            for (k, &c) in path[j + 1..].iter().enumerate() {
                at[c as usize] = (j + 1 + k) as u16;
            }
        }
    }

    /// A random solved grid: cell -> number 1..=N ([`BLOCKED`] on blocked cells).
    pub fn sample_grid(&self, rng: &mut impl RngCore) -> Vec<u16> {
        let path = self.sample(rng);
        let mut cells = vec![BLOCKED; self.rows * self.cols];
        for (k, &c) in path.iter().enumerate() {
            cells[c as usize] = k as u16 + 1;
        }
        cells
    }
}
