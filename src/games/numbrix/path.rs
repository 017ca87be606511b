//! Random Hamiltonian paths of the R x C grid graph by the backbite chain.
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

use rand::RngCore;

const OFF: u16 = u16::MAX;

/// Draws random Hamiltonian paths of a grid by backbite moves.
pub struct PathSampler {
    rows: usize,
    cols: usize,
    /// Neighbour in each direction (left, right, up, down), OFF outside the grid.
    nbr: Vec<[u16; 4]>,
    steps: u64,
}

/// The number of backbite moves for `n` cells.
pub fn default_steps(n: usize) -> u64 {
    let ln = (n.max(2) as f64).ln();
    (10.0 * n as f64 * ln * ln).ceil() as u64
}

impl PathSampler {
    /// A sampler for `rows` x `cols` making `default_steps` moves per path.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::with_steps(rows, cols, default_steps(rows * cols))
    }

    /// A sampler for `rows` x `cols` making `steps` backbite moves per path.
    pub fn with_steps(rows: usize, cols: usize, steps: u64) -> Self {
        let at = |r: isize, c: isize| {
            if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
                OFF
            } else {
                (r as usize * cols + c as usize) as u16
            }
        };
        let nbr = (0..rows * cols)
            .map(|i| {
                let (r, c) = ((i / cols) as isize, (i % cols) as isize);
                [at(r, c - 1), at(r, c + 1), at(r - 1, c), at(r + 1, c)]
            })
            .collect();
        PathSampler {
            rows,
            cols,
            nbr,
            steps,
        }
    }

    /// The serpentine path: row 0 left to right, row 1 right to left, ...
    pub fn serpentine(&self) -> Vec<u16> {
        let mut p = Vec::with_capacity(self.rows * self.cols);
        for r in 0..self.rows {
            for k in 0..self.cols {
                let c = if r % 2 == 0 { k } else { self.cols - 1 - k };
                p.push((r * self.cols + c) as u16);
            }
        }
        p
    }

    /// A random directed path: the cells in path order.
    pub fn sample(&self, rng: &mut impl RngCore) -> Vec<u16> {
        let mut path = self.serpentine();
        let n = path.len();
        let mut at = vec![0u16; n];
        for (i, &c) in path.iter().enumerate() {
            at[c as usize] = i as u16;
        }
        let mut bits = 0u64;
        let mut left = 0;
        for _ in 0..self.steps {
            if left == 0 {
                bits = rng.next_u64();
                left = 21;
            }
            let mv = (bits & 7) as u8;
            bits >>= 3;
            left -= 1;
            self.backbite(&mut path, &mut at, mv);
        }
        if rng.next_u64() & 1 == 1 {
            path.reverse();
        }
        path
    }

    /// One backbite move on `path` (cells in path order) with `at` its inverse (cell ->
    /// position): `mv` in 0..8, 0-3 the front end `path[0]`, 4-7 the back end, and
    /// `mv & 3` the direction (left, right, up, down). A move off the grid or onto the
    /// end's own path neighbour leaves the path as it is. [`PathSampler::sample`] makes
    /// its moves with this; the mixing diagnostics (`mixing`) run it for long chains.
    #[inline]
    pub fn backbite(&self, path: &mut [u16], at: &mut [u16], mv: u8) {
        let n = path.len();
        let dir = (mv & 3) as usize;
        if mv < 4 {
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

    /// A random solved grid: cell -> number 1..=N.
    pub fn sample_grid(&self, rng: &mut impl RngCore) -> Vec<u16> {
        let path = self.sample(rng);
        let mut cells = vec![0u16; path.len()];
        for (k, &c) in path.iter().enumerate() {
            cells[c as usize] = k as u16 + 1;
        }
        cells
    }
}
