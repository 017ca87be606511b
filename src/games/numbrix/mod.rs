//! Numbrix: fill an R x C grid with 1..=R*C so that consecutive numbers touch
//! orthogonally (a Hamiltonian path). See `shared/specs/numbrix.md`.
//!
//! Generation: a random path by the backbite chain ([`path`]), givens chosen by style
//! while the exact solver ([`solve`]) proves the puzzle has one solution ([`clues`]),
//! then a grade from a human-style solver ([`grade`]).

pub mod bits;
pub mod clues;
mod draw;
pub mod grade;
pub mod grid;
pub mod path;
pub mod solve;

pub use clues::Style;
pub use grade::Grade;
pub use grid::Grid;
pub use solve::{AnySolver, Count, Verdict};

use crate::canvas::{Canvas, Rect};
use crate::games::size::Size;
use crate::games::{Game, Outcome};
use crate::seed::Rng;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

/// Search nodes one uniqueness check may use during generation. A removal check that
/// runs out keeps its clue (the puzzle is then unique but not proven minimal, and its
/// record says `"minimal": false`); running out never counts as unique.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NumbrixParams {
    /// `9` or `"RxC"`.
    pub size: Size,
    /// free, symmetric or border.
    pub style: Style,
    /// Keep only puzzles of this grade.
    pub difficulty: Option<Grade>,
    /// Node budget of each solver call: a first uniqueness check that runs out rejects
    /// the attempt; a clue-removal check that runs out keeps its clue (not proved
    /// minimal).
    pub max_nodes: u64,
}

impl Default for NumbrixParams {
    fn default() -> Self {
        NumbrixParams {
            size: Size { rows: 9, cols: 9 },
            style: Style::Free,
            difficulty: None,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// A puzzle with its (proved unique) solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumbrixPuzzle {
    pub rows: usize,
    pub cols: usize,
    pub style: Style,
    pub givens: Vec<Vec<u16>>,
    pub solution: Vec<Vec<u16>>,
    pub clues: usize,
    pub difficulty: Grade,
    /// Whether every clue is proven necessary (see [`clues::Selected`]).
    pub minimal: bool,
}

impl NumbrixPuzzle {
    pub fn givens_flat(&self) -> Vec<u16> {
        self.givens.concat()
    }
    pub fn solution_flat(&self) -> Vec<u16> {
        self.solution.concat()
    }
}

pub struct Numbrix {
    params: NumbrixParams,
    paths: path::PathSampler,
    /// Cloned per item: the clones share the grid's masks.
    solver: AnySolver,
}

impl Numbrix {
    pub fn params(&self) -> &NumbrixParams {
        &self.params
    }

    /// A puzzle for one solution, or why not.
    pub fn puzzle_for(
        &self,
        solver: &mut AnySolver,
        solution: &[u16],
        rng: &mut Rng,
    ) -> std::result::Result<NumbrixPuzzle, &'static str> {
        let Size { rows, cols } = self.params.size;
        let selected = clues::select(
            self.params.style,
            self.params.difficulty,
            solver,
            rows,
            cols,
            solution,
            rng,
            self.params.max_nodes,
        )
        .map_err(|f| f.reason())?;
        let givens = selected.givens;
        let difficulty = solver.grade(&givens);
        if self.params.difficulty.is_some_and(|d| d != difficulty) {
            return Err("another difficulty");
        }
        let g = Grid {
            rows,
            cols,
            cells: givens,
        };
        Ok(NumbrixPuzzle {
            rows,
            cols,
            style: self.params.style,
            clues: g.givens(),
            minimal: selected.minimal,
            givens: g.to_rows(),
            solution: solution.chunks(cols).map(|r| r.to_vec()).collect(),
            difficulty,
        })
    }
}

impl Game for Numbrix {
    fn params(&self) -> &NumbrixParams {
        &self.params
    }

    const NAME: &'static str = "numbrix";
    const TITLE: &'static str = "Numbrix";
    type Params = NumbrixParams;
    type Puzzle = NumbrixPuzzle;

    fn new(params: NumbrixParams) -> Result<Self> {
        let Size { rows, cols } = params.size;
        grid::check_size(rows, cols).map_err(Error::Invalid)?;
        if params.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: the solver needs a budget of at least 1 node",
            ));
        }
        Ok(Numbrix {
            paths: path::PathSampler::new(rows, cols),
            solver: AnySolver::new(rows, cols),
            params,
        })
    }

    fn generate(&self, rng: &mut Rng) -> Outcome<NumbrixPuzzle> {
        let solution = self.paths.sample_grid(rng);
        let mut solver = self.solver.clone();
        match self.puzzle_for(&mut solver, &solution, rng) {
            Ok(p) => Outcome::Accepted(p),
            Err(why) => Outcome::Rejected(why),
        }
    }

    fn verify(&self, p: &NumbrixPuzzle) -> Result<(), String> {
        let (givens, solution) = (p.givens_flat(), p.solution_flat());
        if p.givens.len() != p.rows || p.givens.iter().any(|r| r.len() != p.cols) {
            return Err("givens are not a rows x cols grid".into());
        }
        solve::check_solution(p.rows, p.cols, &givens, &solution)?;
        let clues = givens.iter().filter(|&&v| v != 0).count();
        if clues != p.clues {
            return Err(format!("clues says {} but {clues} are given", p.clues));
        }
        if p.style == Style::Border
            && givens.iter().enumerate().any(|(c, &v)| {
                let (r, col) = (c / p.cols, c % p.cols);
                v != 0 && r > 0 && col > 0 && r + 1 < p.rows && col + 1 < p.cols
            })
        {
            return Err("a border puzzle has a given inside the ring".into());
        }
        if (p.rows, p.cols) != (self.params.size.rows, self.params.size.cols) {
            return Err("the puzzle's size is not the game's".into());
        }
        let v = self.solver.clone().solve(&givens, u64::MAX);
        if v.count != Count::One || v.solution.as_deref() != Some(&solution[..]) {
            return Err(format!(
                "the solver finds {:?}, not this one solution",
                v.count
            ));
        }
        Ok(())
    }

    fn draw(&self, p: &NumbrixPuzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        let solution = p.solution_flat();
        draw::grid(
            canvas,
            area,
            p.rows,
            p.cols,
            &p.givens_flat(),
            with_solution.then_some(&solution[..]),
        );
    }

    fn aspect(&self) -> f32 {
        self.params.size.cols as f32 / self.params.size.rows as f32
    }

    fn text(&self, p: &NumbrixPuzzle) -> String {
        let g = |cells: Vec<u16>| {
            Grid {
                rows: p.rows,
                cols: p.cols,
                cells,
            }
            .render()
        };
        format!(
            "{}\nsolution:\n{}",
            g(p.givens_flat()),
            g(p.solution_flat())
        )
    }

    fn caption(&self, p: &NumbrixPuzzle) -> String {
        let grade = p.difficulty.name();
        let mut g = grade.to_string();
        g[..1].make_ascii_uppercase();
        format!("{g}, {} clues", p.clues)
    }

    fn answer(&self, _p: &NumbrixPuzzle) -> String {
        String::new()
    }

    fn how_to_play(&self) -> String {
        let Size { rows, cols } = self.params.size;
        format!(
            "Fill every square with a number from 1 to {} so that the numbers run in order, \
             each one next to the one before it: up, down, left or right, never diagonally. \
             The numbers already printed are part of the path, and each puzzle has exactly one solution.",
            rows * cols
        )
    }
}

#[cfg(test)]
mod tests;
