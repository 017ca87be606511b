//! Flip ("One Dot"): flip 3x3 blocks until one dot is left in the middle.
//! The rules and what is proved: docs/games/flip.md. Boards are GF(2) bit vectors; a solution is a SET of moves.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod answer;
mod bits;
mod draw;
pub(crate) mod gf2;
pub mod model;
pub mod solve;

pub use bits::Bits;
pub use ground::size::Size;
pub use model::{MoveGrid, Shape};
pub use solve::{analyze, Analysis, Solution, Solver};

use ground::canvas::{Canvas, Rect};
use ground::game::{Game, Motif, Outcome, Present, Rating};
use ground::seed::Rng;
use ground::{Error, Result};
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Start boards made like the original Haskell game's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compat {
    /// The original game's start board: the scramble of `one_dot_scramble`.
    OneDot,
}

impl std::str::FromStr for Compat {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "one-dot" => Ok(Compat::OneDot),
            _ => Err(Error::invalid(format!(
                "unknown compatibility mode '{s}': the only one is one-dot"
            ))),
        }
    }
}

/// Flip's parameters: a template's `[flip]` keys and `flip generate`'s flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct FlipParams {
    /// Move centres per side (I, for an (I+2)x(I+2) board) or RxC
    #[arg(long)]
    pub size: Size,
    /// Move shape: block (3x3) or plus (Lights Out cross)
    #[arg(long, default_value = FlipParams::default().shape.name())]
    pub shape: Shape,
    /// Reproduce the original game's start boards
    #[arg(long, value_name = "one-dot")]
    pub compat: Option<Compat>,
    /// Throw away boards that need fewer moves
    #[arg(long, default_value_t = FlipParams::default().min_moves)]
    pub min_moves: usize,
}

impl Default for FlipParams {
    fn default() -> Self {
        FlipParams {
            size: Size::default(),
            shape: Shape::Block,
            compat: None,
            min_moves: 1,
        }
    }
}

/// A generated board with its proven minimum solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlipPuzzle {
    /// Move centres per side, for a square board (rows and cols are then left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// Rows of move centres, for a board that is not square.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// Columns of move centres, for a board that is not square.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// The move shape (left out when it is `block`).
    #[serde(skip_serializing_if = "is_block")]
    pub shape: Shape,
    /// The compatibility mode the board was made in, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compat: Option<Compat>,
    /// The start board in the text format, one string per board row.
    pub start: Vec<String>,
    /// The fewest moves that solve the board.
    pub min_moves: usize,
    /// One minimum solution in move notation ("c2"), in ascending move order.
    pub solution: Vec<String>,
    /// The start board, one bit per cell in reading order (1: a dot).
    #[serde(skip)]
    pub board: Bits,
    /// The solution as move indices (row-major over move centres), ascending.
    #[serde(skip)]
    pub moves: Vec<usize>,
}

fn is_block(s: &Shape) -> bool {
    *s == Shape::Block
}

/// The original game's start board: x0 = 1, x(k+1) = 2469 x(k) mod 65521; block k
/// (row-major over the i*i centres) is flipped exactly when 2 x(k) > 65521.
pub(crate) fn one_dot_scramble(moves: usize) -> Vec<usize> {
    let mut x: u64 = 1;
    let mut out = Vec::new();
    for k in 0..moves {
        if 2 * x > 65521 {
            out.push(k);
        }
        x = (2469 * x) % 65521;
    }
    out
}

/// A configured Flip game.
pub struct Flip {
    params: FlipParams,
    solver: Solver,
}

impl Flip {
    /// The board geometry of this game.
    pub fn layout(&self) -> &MoveGrid {
        self.solver.layout()
    }

    /// The minimum-move solver for this geometry.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The puzzle for a given start board, solved; None if it cannot be solved.
    pub(crate) fn puzzle_from_board(&self, board: Bits) -> Result<Option<FlipPuzzle>> {
        let moves = match self.solver.solve(&board)? {
            Solution::Solved(m) => m,
            Solution::Unsolvable(_) => return Ok(None),
        };
        let l = self.layout();
        let square = l.rows == l.cols;
        Ok(Some(FlipPuzzle {
            size: square.then_some(l.rows),
            rows: (!square).then_some(l.rows),
            cols: (!square).then_some(l.cols),
            shape: l.shape,
            compat: self.params.compat,
            start: l.rows_text(&board),
            min_moves: moves.len(),
            solution: moves.iter().map(|&m| l.move_name(m)).collect(),
            board,
            moves,
        }))
    }
}

impl Game for Flip {
    fn params(&self) -> &FlipParams {
        &self.params
    }

    const NAME: &'static str = "flip";
    const TITLE: &'static str = "Flip";
    type Params = FlipParams;
    type Puzzle = FlipPuzzle;

    fn new(params: FlipParams) -> Result<Self> {
        let layout = MoveGrid::new(params.shape, params.size.rows, params.size.cols)?;
        if params.compat.is_some() && (params.shape != Shape::Block || layout.rows != layout.cols) {
            return Err(Error::param(
                "compat",
                "is one-dot, which needs square boards of block moves (shape block and one number as the size)",
            ));
        }
        if params.min_moves > layout.moves() {
            return Err(Error::param(
                "min_moves",
                format!(
                    "{} is more than the {} possible moves of a {} board",
                    params.min_moves,
                    layout.moves(),
                    params.size
                ),
            ));
        }
        let solver = Solver::new(layout);
        // Solving plus boards searches the null space; refuse sizes where that explodes.
        if solver.nullity() > gf2::MAX_NULLITY {
            return Err(Error::invalid(format!(
                "plus moves on a {} board have a null space of dimension {}: too large to prove minimum solutions; choose another size",
                params.size,
                solver.nullity()
            )));
        }
        Ok(Flip { solver, params })
    }

    fn generate(&self, rng: &mut Rng) -> Outcome<FlipPuzzle> {
        let l = *self.layout();
        let scramble: Vec<usize> = match self.params.compat {
            Some(Compat::OneDot) => one_dot_scramble(l.moves()),
            None => (0..l.moves()).filter(|_| rng.random::<bool>()).collect(),
        };
        let mut board = l.target();
        self.solver.apply(&mut board, &scramble);
        match self.puzzle_from_board(board) {
            Ok(Some(p)) if p.min_moves >= self.params.min_moves => Outcome::Accepted(p),
            Ok(Some(_)) => Outcome::Rejected("fewer moves than min_moves"),
            // A scramble of moves is always solvable; reaching here would be a bug,
            // which verify() in the pipeline would also catch.
            _ => Outcome::Rejected("unsolvable scramble"),
        }
    }

    /// The start board up to rotations and mirrors (both move shapes are symmetric,
    /// so the turned board takes the same number of moves): the least of its eight
    /// images, with the shape. The compatibility mode only says how the board was
    /// drawn, so it is left out.
    fn canonical(&self, p: &FlipPuzzle) -> String {
        let grid: Vec<Vec<char>> = p.start.iter().map(|r| r.chars().collect()).collect();
        let best = ground::catalogue::dihedral(&grid)
            .into_iter()
            .map(|g| {
                g.iter()
                    .map(|r| r.iter().collect::<String>())
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .min()
            .unwrap_or_default();
        format!("{}|{best}", p.shape.name())
    }

    fn verify(&self, p: &FlipPuzzle) -> Result<()> {
        let l = self.layout();
        // Rebuild the start board from its text rows and replay the moves from their
        // names, cell by cell, without the solver's masks.
        if p.start.len() != l.board_rows() || p.start.iter().any(|row| row.len() != l.board_cols())
        {
            return Err(Error::check("start board has the wrong size"));
        }
        let mut board = Bits::zeros(l.cells());
        for (r, row) in p.start.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                match ch {
                    b'o' => board.set(l.cell(r, c), true),
                    b'-' => {}
                    _ => return Err(Error::check(format!("start row {r} has '{}'", ch as char))),
                }
            }
        }
        let mut seen = vec![false; l.moves()];
        for name in &p.solution {
            let m = l
                .parse_move(name)
                .map_err(|e| Error::check(e.to_string()))?;
            if std::mem::replace(&mut seen[m], true) {
                return Err(Error::check(format!(
                    "the solution repeats {name} (two equal moves cancel)"
                )));
            }
            for (r, c) in l.move_cells(m) {
                board.toggle(l.cell(r, c));
            }
        }
        if board != l.target() {
            return Err(Error::check("the solution does not reach the target"));
        }
        if p.solution.len() != p.min_moves {
            return Err(Error::check(format!(
                "min_moves is {} but the solution has {} moves",
                p.min_moves,
                p.solution.len()
            )));
        }
        Ok(())
    }

    fn read_record(&self, record: &serde_json::Value) -> Option<Result<FlipPuzzle>> {
        #[derive(Deserialize)]
        struct Fields {
            start: Vec<String>,
            min_moves: usize,
            solution: Vec<String>,
        }
        let read = || -> Result<FlipPuzzle> {
            let f = Fields::deserialize(record)
                .map_err(|e| Error::check(format!("not a Flip record: {e}")))?;
            let l = self.layout();
            if f.start.len() != l.board_rows()
                || f.start.iter().any(|row| row.len() != l.board_cols())
            {
                return Err(Error::check("start board has the wrong size"));
            }
            let mut board = Bits::zeros(l.cells());
            for (r, row) in f.start.iter().enumerate() {
                for (c, ch) in row.bytes().enumerate() {
                    board.set(l.cell(r, c), ch == b'o');
                }
            }
            // Unknown names are kept for verify to refuse; their indices are not needed.
            let moves = f
                .solution
                .iter()
                .filter_map(|n| l.parse_move(n).ok())
                .collect();
            // min_moves claims a minimum: the solver proves what it is (on plus
            // boards several solutions of different lengths exist).
            match self.solver().solve(&board)? {
                solve::Solution::Solved(best) if best.len() != f.min_moves => {
                    return Err(Error::check(format!(
                        "min_moves is {} but the fewest moves are {}",
                        f.min_moves,
                        best.len()
                    )))
                }
                solve::Solution::Solved(_) => {}
                solve::Solution::Unsolvable(why) => return Err(Error::check(why)),
            }
            let square = l.rows == l.cols;
            Ok(FlipPuzzle {
                size: square.then_some(l.rows),
                rows: (!square).then_some(l.rows),
                cols: (!square).then_some(l.cols),
                shape: l.shape,
                compat: self.params.compat,
                start: f.start,
                min_moves: f.min_moves,
                solution: f.solution,
                board,
                moves,
            })
        };
        Some(read())
    }

    fn text(&self, p: &FlipPuzzle) -> String {
        self.layout().render(&p.board)
    }

    fn text_settings(&self) -> Vec<(&'static str, String)> {
        match self.layout().shape {
            Shape::Block => Vec::new(),
            shape => vec![("shape", shape.name().to_string())],
        }
    }
}

impl Present for Flip {
    fn draw(&self, p: &FlipPuzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        draw::board(
            canvas,
            area,
            self.layout(),
            &p.board,
            with_solution.then_some(&p.moves[..]),
        );
    }
    fn aspect(&self) -> f32 {
        let l = self.layout();
        (l.board_cols() as f32 + draw::LABEL_ROOM) / (l.board_rows() as f32 + draw::LABEL_ROOM)
    }
    fn caption(&self, p: &FlipPuzzle) -> String {
        let n = p.min_moves;
        format!("Solve in {n} move{}", if n == 1 { "" } else { "s" })
    }
    fn answer(&self, p: &FlipPuzzle) -> String {
        answer_line(&p.solution)
    }
    fn answer_note(&self) -> Option<String> {
        Some(match self.layout().shape {
            Shape::Block => "The filled squares are the centres of the blocks to flip; the letter and number of each are listed under the board.".into(),
            Shape::Plus => "The filled squares are the cells to press; their letters and numbers are listed under the board.".into(),
        })
    }
    fn rating(&self, p: &FlipPuzzle) -> Option<Rating> {
        Some(rating(p.min_moves, self.layout().moves()))
    }
    fn draw_answer(&self, p: &FlipPuzzle, canvas: &mut Canvas, area: Rect) {
        draw::answer(canvas, area, self.layout(), &p.moves);
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        let ex = example(self.layout().shape);
        let solver = Solver::new(ex.layout);
        let mut board = ex.start(&solver);
        let mut steps = vec![draw::Step {
            board: board.clone(),
            marks: draw::Marks::default(),
            text: ex.lines[0].to_string(),
        }];
        for (i, &m) in ex.moves.iter().enumerate() {
            solver.apply(&mut board, &[m]);
            steps.push(draw::Step {
                board: board.clone(),
                marks: draw::Marks {
                    outlined: Some(m),
                    ..draw::Marks::default()
                },
                text: ex.lines[i + 1].to_string(),
            });
        }
        draw::steps(canvas, area, &ex.layout, &steps)
    }
    fn size_label(&self) -> Option<String> {
        Some(format!(
            "{} × {}",
            self.params.size.rows, self.params.size.cols
        ))
    }
    fn motif(&self) -> Motif {
        Motif::Dots
    }
    fn how_to_play(&self) -> String {
        match self.layout().shape {
            Shape::Block => "Each move flips a 3 × 3 block of nine cells: every dot becomes a dash and every dash a dot. \
                A block is named by its centre, which must be one of the inner cells, the ones with a letter above and a number beside. \
                Flip blocks until a single dot is left in the very middle of the board. \
                On a board with an even side there is no single middle: the bold square marks the target cell. \
                The order of your moves does not matter, and flipping a block twice undoes it. \
                The line under each board gives the fewest moves that do it."
                .into(),
            Shape::Plus => "Each move presses one cell and flips it and its four neighbours (up, down, left and right): \
                every dot becomes a dash and every dash a dot. Any cell may be pressed, even on the edge. \
                Press cells until a single dot is left in the very middle of the board. \
                On a board with an even side there is no single middle: the bold square marks the target cell. \
                The order of your moves does not matter, and the line under each board gives the fewest moves that do it."
                .into(),
        }
    }
}

/// The answer line: the moves by the letter and number printed on the board, or just
/// the count when the list would not fit two short lines.
pub fn answer_line(solution: &[String]) -> String {
    match solution.len() {
        0 => "Already solved: no moves".into(),
        1 => format!("1 move: {}", solution[0]),
        n => {
            let line = format!("{n} moves: {}", solution.join(" "));
            if line.chars().count() <= ANSWER_MAX_CHARS {
                line
            } else {
                format!("{n} moves: the filled squares")
            }
        }
    }
}

/// The longest answer line that lists every move (two lines of a narrow answer column).
pub const ANSWER_MAX_CHARS: usize = 64;

/// Star thresholds of [`rating`]: the fewest moves needed for 2, 3, 4 and 5 stars.
pub(crate) const STAR_MOVES: [usize; 4] = [5, 9, 14, 21];

/// Difficulty on a fixed scale: the score is the proven fewest moves, with the number
/// of possible moves (board size) as a fraction that breaks ties; the stars come from
/// the fewest moves alone: 1 star for 1–4 moves, 2 for 5–8, 3 for 9–13, 4 for 14–20
/// and 5 for 21 or more.
pub fn rating(min_moves: usize, possible_moves: usize) -> Rating {
    let stars = 1 + STAR_MOVES.iter().filter(|&&t| min_moves >= t).count() as u8;
    Rating {
        score: min_moves as f64 + possible_moves as f64 / 10_000.0,
        stars,
    }
}

/// The worked example of the "How to play" page: a tiny board solved in two moves.
pub struct Example {
    /// The example's board geometry.
    pub layout: MoveGrid,
    /// The moves, in the order the example makes them.
    pub moves: [usize; 2],
    /// One line for the start and one for each move.
    pub lines: [&'static str; 3],
}

impl Example {
    /// The start board: the target with the example's moves made on it.
    pub fn start(&self, solver: &Solver) -> Bits {
        let mut b = self.layout.target();
        solver.apply(&mut b, &self.moves);
        b
    }
}

/// The example for a move shape.
pub fn example(shape: Shape) -> Example {
    match shape {
        // A 4 × 4 board (2 × 2 block centres): even, so its target is framed.
        Shape::Block => Example {
            layout: MoveGrid::new(Shape::Block, 2, 2).expect("valid size"),
            moves: [0, 3],
            lines: [
                "Start: the square marks the target",
                "Flip the block at a1",
                "Flip the block at b2: solved in 2 moves",
            ],
        },
        // A 3 × 3 board of plus moves: the middle is the target.
        Shape::Plus => Example {
            layout: MoveGrid::new(Shape::Plus, 3, 3).expect("valid size"),
            moves: [0, 8],
            lines: [
                "Start: the target is the middle",
                "Press a1",
                "Press c3: solved in 2 moves",
            ],
        },
    }
}

#[cfg(test)]
mod tests;
