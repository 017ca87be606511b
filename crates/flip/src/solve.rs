//! Minimum-move solving.
//!
//! Block moves: the map from sets of blocks to boards is injective (the top-left cell of
//! block (r, c) is touched by no block later in row-major order), so scanning the blocks
//! in row-major order and flipping block (r, c) exactly when its top-left cell still
//! differs from the target finds the only solution, in one pass. If the board is not
//! the target after the pass, no solution exists; the mod-3 row/column parity
//! invariants of the spec say why.
//!
//! Other shapes (the plus cross) may have a non-trivial null space, so several sets of
//! moves give the same board; the minimum comes from Gaussian elimination and a search
//! of the null space.

use super::bits::Bits;
use super::gf2::LinearSystem;
use super::model::{MoveGrid, Shape};
use ground::Result;

/// The answer for one start board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solution {
    /// The fewest moves that reach the target (move indices, ascending).
    Solved(Vec<usize>),
    /// No sequence of moves reaches the target; the reason is phrased for a person.
    Unsolvable(String),
}

/// A solver for one board geometry, with its precomputation done once.
#[derive(Debug, Clone)]
pub struct Solver {
    layout: MoveGrid,
    masks: Vec<Bits>,
    /// Needed for shapes whose move map is not triangular.
    system: Option<LinearSystem>,
}

impl Solver {
    /// A solver for `layout`, with the move masks (and for plus moves the elimination) done once.
    pub fn new(layout: MoveGrid) -> Self {
        let masks: Vec<Bits> = (0..layout.moves()).map(|m| layout.move_mask(m)).collect();
        let system = match layout.shape {
            Shape::Block => None,
            Shape::Plus => Some(LinearSystem::new(&masks, layout.cells())),
        };
        Solver {
            layout,
            masks,
            system,
        }
    }

    /// The geometry this solver was built for.
    pub fn layout(&self) -> &MoveGrid {
        &self.layout
    }

    /// The cells flipped by move `m`.
    pub fn mask(&self, m: usize) -> &Bits {
        &self.masks[m]
    }

    /// Apply a set of moves to a board.
    pub fn apply(&self, board: &mut Bits, moves: &[usize]) {
        for &m in moves {
            board.xor_assign(&self.masks[m]);
        }
    }

    /// The fewest moves from `start` to the target, or why there are none.
    pub fn solve(&self, start: &Bits) -> Result<Solution> {
        let mut diff = start.clone();
        diff.xor_assign(&self.layout.target());
        match &self.system {
            None => Ok(self.solve_triangular(diff)),
            Some(system) => Ok(match system.min_weight(&diff)? {
                Some(x) => Solution::Solved(x.ones().collect()),
                None => Solution::Unsolvable(format!(
                    "the board breaks at least one of the {} independent invariants of the {} moves, so no set of moves reaches the target",
                    system.invariant_count(),
                    self.layout.shape.name()
                )),
            }),
        }
    }

    fn solve_triangular(&self, mut diff: Bits) -> Solution {
        let l = &self.layout;
        let mut moves = Vec::new();
        for m in 0..l.moves() {
            let (r, c) = l.move_centre(m);
            if diff.get(l.cell(r - 1, c - 1)) {
                diff.xor_assign(&self.masks[m]);
                moves.push(m);
            }
        }
        if diff.is_zero() {
            Solution::Solved(moves)
        } else {
            Solution::Unsolvable(self.broken_invariant(&diff))
        }
    }

    /// Name a mod-3 parity invariant that `diff` (start xor target, or what is left of
    /// it) breaks. Every block meets each row and column in three consecutive cells,
    /// one in each residue class mod 3, so it changes the three parities together.
    fn broken_invariant(&self, diff: &Bits) -> String {
        let l = &self.layout;
        let (br, bc) = (l.board_rows(), l.board_cols());
        let lines = (0..br)
            .map(|r| {
                (
                    "row",
                    r,
                    (0..bc).map(move |c| (c, l.cell(r, c))).collect::<Vec<_>>(),
                )
            })
            .chain((0..bc).map(|c| ("column", c, (0..br).map(|r| (r, l.cell(r, c))).collect())));
        for (what, i, cells) in lines {
            let mut p = [false; 3];
            for (pos, cell) in cells {
                p[pos % 3] ^= diff.get(cell);
            }
            if p[0] != p[1] || p[1] != p[2] {
                let bit = |b: bool| u8::from(b);
                return format!(
                    "{what} {} of the board (counting the edge from 1) has difference parities {},{},{} in positions 0,1,2 mod 3, but every move changes all three together; no set of moves reaches the target",
                    i + 1,
                    bit(p[0]),
                    bit(p[1]),
                    bit(p[2])
                );
            }
        }
        "the board is not reachable from the target".into()
    }

    /// Dimension of the null space of the move map (0 for the injective block moves).
    pub(crate) fn nullity(&self) -> usize {
        self.system.as_ref().map_or(0, LinearSystem::nullity)
    }

    /// The linear system of the move map (computed on demand for block moves).
    pub(crate) fn system(&self) -> LinearSystem {
        self.system
            .clone()
            .unwrap_or_else(|| LinearSystem::new(&self.masks, self.layout.cells()))
    }
}

/// What `flip analyze` reports about a geometry.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Analysis {
    /// The move shape's name.
    pub shape: &'static str,
    /// Rows of move centres.
    pub rows: usize,
    /// Columns of move centres.
    pub cols: usize,
    /// Rows of board cells.
    pub board_rows: usize,
    /// Columns of board cells.
    pub board_cols: usize,
    /// Possible moves (unknowns of the linear system).
    pub moves: usize,
    /// Cells on the board (equations of the linear system).
    pub cells: usize,
    /// Rank of the move matrix over GF(2).
    pub rank: usize,
    /// Dimension of its null space: independent sets of moves that change nothing.
    pub nullity: usize,
    /// Independent invariants a board must satisfy to be solvable (cells - rank).
    pub invariants: usize,
    /// Boards with exactly one dot: one per cell.
    pub single_dot_boards: usize,
    /// How many of those boards can be solved.
    pub single_dot_reachable: usize,
    /// Their dots' cells, "(row,col)" 0-based, in reading order.
    pub reachable_cells: Vec<String>,
}

/// Rank, null space and invariants of `layout`'s moves, and which single-dot boards are solvable.
pub fn analyze(layout: MoveGrid) -> Analysis {
    let solver = Solver::new(layout);
    let system = solver.system();
    let target = layout.target();
    let mut reachable_cells = Vec::new();
    for r in 0..layout.board_rows() {
        for c in 0..layout.board_cols() {
            let mut d = Bits::zeros(layout.cells());
            d.set(layout.cell(r, c), true);
            d.xor_assign(&target);
            if system.in_image(&d) {
                reachable_cells.push(format!("({r},{c})"));
            }
        }
    }
    Analysis {
        shape: layout.shape.name(),
        rows: layout.rows,
        cols: layout.cols,
        board_rows: layout.board_rows(),
        board_cols: layout.board_cols(),
        moves: layout.moves(),
        cells: layout.cells(),
        rank: system.rank(),
        nullity: system.nullity(),
        invariants: system.invariant_count(),
        single_dot_boards: layout.cells(),
        single_dot_reachable: reachable_cells.len(),
        reachable_cells,
    }
}
