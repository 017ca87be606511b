//! Numbrix: fill an R x C grid with 1..=R*C so that consecutive numbers touch
//! orthogonally (a Hamiltonian path). The rules and what is proved: docs/games/numbrix.md.
//!
//! Generation: a random path by the backbite chain ([`path`]), givens chosen by style
//! while the exact solver ([`solve`]) proves the puzzle has one solution ([`clues`]),
//! then a grade from a human-style solver (`grade`).

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod answer;
pub mod bits;
pub mod clues;
mod draw;
pub(crate) mod grade;
pub mod grid;
pub mod mixing;
pub mod path;
mod sat;
pub mod shape;
pub mod solve;

pub use clues::Style;
pub use grade::Grade;
pub use grid::{Board, Grid, BLOCKED};
pub use shape::{Mask, Moves};
pub use solve::{AnySolver, Count, Prover, Verdict};

use ground::canvas::{Canvas, Rect};
use ground::game::{Game, Motif, Outcome, Present, Rating};
use ground::seed::Rng;
use ground::size::Size;
use ground::{Error, Result};
use serde::{Deserialize, Serialize};

/// Search nodes one uniqueness check may use during generation. A removal check that
/// runs out keeps its clue (the puzzle is then unique but not proven minimal, and its
/// record says `"minimal": false`); running out never counts as unique.
pub const DEFAULT_MAX_NODES: u64 = 1_000_000;

/// Proofs that need far more work than most make the slow tail of generation. So a
/// puzzle is first sought with a short budget, this many nodes per open cell for each
/// solver call: when a removal proof (or a step of the growth) runs past it, that path
/// is dropped and a new one drawn, up to [`SHORT_TRIES`] paths; then one more with the
/// full `max_nodes`. No puzzle changes its proof: every one printed is proved unique
/// and minimal either way. It makes generation faster on 9x9, 16x16 and 20x20 grids,
/// and their slowest puzzles much faster, and this budget was faster than smaller or
/// larger ones; puzzles come out with slightly more clues. Only for the `free` style,
/// on boards of up to [`SHORT_MAX_CELLS`] open cells: `symmetric` puzzles were slower
/// with it (most of their paths are drawn again anyway), `border` ones the same either
/// way (measured: docs/performance.md, "Numbrix: short budget").
pub(crate) const SHORT_NODES_PER_CELL: u64 = 40;

/// The largest boards (open cells) that try short budgets first. On a 30x30 grid
/// nearly every path has a removal proof past the short budget, so the short tries
/// only add to the time; on 20x20 grids they still pay (measured: docs/performance.md,
/// "Numbrix: short budget on large boards").
pub(crate) const SHORT_MAX_CELLS: usize = 400;

/// Paths tried with the short budget ([`SHORT_NODES_PER_CELL`]) before one is given the
/// full budget. About half the 20x20 paths and a third of the 16x16 ones need a
/// longer proof, so all eight do in about one case in 250 at 20x20.
pub(crate) const SHORT_TRIES: usize = 8;

/// Numbrix's parameters: a template's `[numbrix]` keys and `numbrix generate`'s flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct NumbrixParams {
    /// Grid size: N (NxN) or RxC, from 2x2 up to 1,024 cells
    #[arg(long, default_value_t = NumbrixParams::default().size)]
    pub size: Size,
    /// free, symmetric or border
    #[arg(long, default_value = NumbrixParams::default().style.name())]
    pub style: Style,
    /// Keep only easy, medium or hard puzzles
    #[arg(long)]
    pub difficulty: Option<Grade>,
    /// Node budget of each solver call (search nodes, plus the SAT prover's
    /// decisions): a first uniqueness check that runs out rejects the attempt; a
    /// clue-removal check that runs out keeps its clue (the puzzle stays unique, and
    /// its record says "minimal": false)
    #[arg(long, default_value_t = NumbrixParams::default().max_nodes)]
    pub max_nodes: u64,
    /// orthogonal (Numbrix) or king (Hidato: consecutive numbers may also touch
    /// diagonally)
    #[arg(long, default_value = "orthogonal")]
    #[serde(skip_serializing_if = "is_orthogonal")]
    pub moves: Moves,
    /// A built-in shape at --size (the help lists them; its blocked cells are -1 in
    /// records and drawn solid)
    #[arg(long, conflicts_with = "mask", help = shape::shape_help())]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// A mask file: one text row per grid row, '#' blocked and '.' open; the grid
    /// takes the mask's size (in templates and job files: a list of row strings)
    #[arg(long, value_name = "FILE", value_parser = mask_file)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mask: Option<Mask>,
}

fn is_orthogonal(m: &Moves) -> bool {
    *m == Moves::Orthogonal
}

/// `--mask FILE`: the file's mask.
fn mask_file(path: &str) -> Result<Mask> {
    Mask::from_file(std::path::Path::new(path))
}

impl Default for NumbrixParams {
    fn default() -> Self {
        NumbrixParams {
            size: Size { rows: 9, cols: 9 },
            style: Style::Free,
            difficulty: None,
            max_nodes: DEFAULT_MAX_NODES,
            moves: Moves::Orthogonal,
            shape: None,
            mask: None,
        }
    }
}

impl NumbrixParams {
    /// The board's description in messages: "the shape 'heart' at 9x9", "the mask" or
    /// "the 9x9 grid".
    pub(crate) fn board_name(&self) -> String {
        let Size { rows, cols } = self.size;
        match (&self.shape, &self.mask) {
            (Some(name), _) => format!("the shape '{name}' at {rows}x{cols}"),
            (None, Some(m)) => format!("the {}x{} mask", m.rows, m.cols),
            (None, None) => format!("the {rows}x{cols} grid"),
        }
    }

    /// The board these parameters describe: the shape or mask (the mask sets the size;
    /// a `size` other than the default that disagrees with it is an error) and the
    /// moves. Refused, with the reason, when an argument straight from the open cells
    /// shows that no path can cover them (see [`Mask::no_path_reason`]).
    pub fn board(&self) -> Result<Board> {
        let Size { rows, cols } = self.size;
        let mask = match (&self.shape, &self.mask) {
            (Some(_), Some(_)) => {
                return Err(Error::param("shape", "and mask are both given: choose one"))
            }
            (Some(name), None) => {
                grid::check_size(rows, cols)?;
                Mask::named(name, rows, cols)?
            }
            (None, Some(m)) => {
                let default = NumbrixParams::default().size;
                if self.size != default && (m.rows, m.cols) != (rows, cols) {
                    return Err(Error::param(
                        "size",
                        format!(
                            "is {rows}x{cols} but the mask is {}x{}: leave the size out (a mask sets it) or make them agree",
                            m.rows, m.cols
                        ),
                    ));
                }
                m.clone()
            }
            (None, None) => Mask::full(rows, cols),
        };
        grid::check_size(mask.rows, mask.cols)?;
        if let Some(why) = mask.no_path_reason(self.moves) {
            return Err(Error::invalid(format!(
                "{} has no path through all its open cells with {} moves: {why}",
                self.board_name(),
                self.moves
            )));
        }
        Ok(Board {
            mask,
            moves: self.moves,
        })
    }
}

/// Rows of a grid as they appear in records: numbers, 0 for a blank, -1 for a blocked
/// cell.
fn signed_rows<S: serde::Serializer>(
    rows: &[Vec<u16>],
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    signed(rows).serialize(s)
}

/// Rows of cells as records write them: a blocked cell is -1.
fn signed(rows: &[Vec<u16>]) -> Vec<Vec<i32>> {
    rows.iter()
        .map(|r| {
            r.iter()
                .map(|&v| if v == BLOCKED { -1 } else { i32::from(v) })
                .collect()
        })
        .collect()
}

/// A puzzle with its (proved unique) solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumbrixPuzzle {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// How the givens were chosen.
    pub style: Style,
    /// With king moves (Hidato), "king"; left out for orthogonal moves.
    #[serde(skip_serializing_if = "is_orthogonal")]
    pub moves: Moves,
    /// The built-in shape's name, when the grid has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The puzzle, row by row: the given numbers, 0 for a blank, [`BLOCKED`] (-1 in
    /// records) for a blocked cell.
    #[serde(serialize_with = "signed_rows")]
    pub givens: Vec<Vec<u16>>,
    /// The only solution, row by row: every number 1..=N on the N open cells,
    /// [`BLOCKED`] (-1 in records) on blocked ones.
    #[serde(serialize_with = "signed_rows")]
    pub solution: Vec<Vec<u16>>,
    /// How many cells are given.
    pub clues: usize,
    /// The grade the human-style solver gives the puzzle.
    pub difficulty: Grade,
    /// Whether every clue is proven necessary for uniqueness (see [`clues::Selected`]).
    pub minimal: bool,
    /// With `--difficulty easy|medium`: whether every clue is proven necessary for
    /// uniqueness or for that grade; left out without a difficulty cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimal_for_grade: Option<bool>,
}

impl NumbrixPuzzle {
    /// The givens in reading order, 0 for a blank.
    pub fn givens_flat(&self) -> Vec<u16> {
        self.givens.concat()
    }
    /// The solution in reading order.
    pub fn solution_flat(&self) -> Vec<u16> {
        self.solution.concat()
    }
}

/// The finer measure inside a grade, from 0 (easiest) to 1: the share of the grid's
/// squares that are still empty when a person has used every technique easier than the
/// puzzle's grade. Easy: the squares without a clue. Medium: the squares the easy
/// techniques cannot fill (route tracing must). Hard: the squares easy and medium
/// techniques together cannot fill (look-ahead must).
pub(crate) fn work_share(solver: &AnySolver, givens: &[u16], grade: Grade) -> f64 {
    let left = match grade {
        Grade::Easy => givens.to_vec(),
        Grade::Medium => solver.human_fill(givens, Grade::Easy),
        Grade::Hard => solver.human_fill(givens, Grade::Medium),
    };
    let open = givens.iter().filter(|&&v| v != grid::BLOCKED).count();
    left.iter().filter(|&&v| v == 0).count() as f64 / open.max(1) as f64
}

/// Star thresholds of [`rating`] on the work share: an easy puzzle with a share of at
/// least `EASY_2` gets 2 stars (else 1), a medium one with at least `MEDIUM_3` gets 3
/// (else 2), a hard one with at least `HARD_5` gets 5 (else 4). On 9 × 9: easy with 14
/// clues or fewer is 2 stars; hard with 10 clues or fewer and almost nothing fillable
/// without look-ahead is 5 stars.
pub(crate) const EASY_2: f64 = 0.825;
/// See [`EASY_2`]: a medium puzzle with at least this work share gets 3 stars.
pub(crate) const MEDIUM_3: f64 = 0.6;
/// See [`EASY_2`]: a hard puzzle with at least this work share gets 5 stars.
pub(crate) const HARD_5: f64 = 0.87;

/// Difficulty on a fixed scale: the score is the grade (easy 0, medium 1, hard 2) plus
/// the `work_share` inside it, so sections sort by grade first; the stars are 1–2 for
/// easy, 2–3 for medium and 4–5 for hard, split by the thresholds above.
pub fn rating(grade: Grade, share: f64) -> Rating {
    let (base, upper, threshold) = match grade {
        Grade::Easy => (0.0, 1, EASY_2),
        Grade::Medium => (1.0, 2, MEDIUM_3),
        Grade::Hard => (2.0, 4, HARD_5),
    };
    Rating {
        score: base + share.clamp(0.0, 1.0) * 0.999,
        stars: upper + u8::from(share >= threshold),
    }
}

/// A configured Numbrix game: its parameters, board, path sampler and solver.
pub struct Numbrix {
    params: NumbrixParams,
    board: Board,
    paths: path::PathSampler,
    /// Cloned per item: the clones share the grid's masks.
    solver: AnySolver,
}

impl Numbrix {
    /// The parameters the game was made with.
    pub fn params(&self) -> &NumbrixParams {
        &self.params
    }

    /// The board puzzles are made on.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A puzzle for one solution, or why not.
    pub(crate) fn puzzle_for(
        &self,
        solver: &mut AnySolver,
        solution: &[u16],
        rng: &mut Rng,
    ) -> std::result::Result<NumbrixPuzzle, &'static str> {
        let budget = clues::Budget::KeepClue(self.params.max_nodes);
        self.puzzle_within(solver, solution, rng, budget)
            .map_err(|f| f.reason())
    }

    /// [`Numbrix::puzzle_for`] within `budget`.
    fn puzzle_within(
        &self,
        solver: &mut AnySolver,
        solution: &[u16],
        rng: &mut Rng,
        budget: clues::Budget,
    ) -> std::result::Result<NumbrixPuzzle, Miss> {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        let selected = clues::select(
            self.params.style,
            self.params.difficulty,
            solver,
            &self.board,
            solution,
            rng,
            budget,
        )?;
        let givens = selected.givens;
        let difficulty = solver.grade(&givens);
        if self.params.difficulty.is_some_and(|d| d != difficulty) {
            return Err(Miss::Other("another difficulty"));
        }
        let g = Grid {
            rows,
            cols,
            cells: givens,
        };
        Ok(NumbrixPuzzle {
            rows,
            cols,
            moves: self.board.moves,
            shape: self.params.shape.clone(),
            style: self.params.style,
            clues: g.givens(),
            minimal: selected.minimal,
            minimal_for_grade: selected.minimal_for_grade,
            givens: g.to_rows(),
            solution: solution.chunks(cols).map(|r| r.to_vec()).collect(),
            difficulty,
        })
    }
}

/// Why one solution gave no puzzle.
#[derive(Debug)]
enum Miss {
    /// The clue selection failed.
    Clues(clues::Failure),
    /// The puzzle made was not the one asked for.
    Other(&'static str),
}

impl Miss {
    fn reason(self) -> &'static str {
        match self {
            Miss::Clues(f) => f.reason(),
            Miss::Other(why) => why,
        }
    }
}

impl From<clues::Failure> for Miss {
    fn from(f: clues::Failure) -> Self {
        Miss::Clues(f)
    }
}

/// A first path over a shaped board's open cells, for the chains to start from: the
/// exact solver's first solution of the empty grid (deterministic). Refused when the
/// solver proves there is none, or cannot find one within `budget` nodes.
fn start_path(what: &str, board: &Board, solver: &mut AnySolver, budget: u64) -> Result<Vec<u16>> {
    let empty: Vec<u16> = (0..board.cells())
        .map(|c| if board.is_open(c) { 0 } else { BLOCKED })
        .collect();
    let v = solver.solve(&empty, budget);
    let solution = match (v.count, v.solution) {
        (Count::One | Count::Many, Some(s)) => s,
        (Count::Zero, _) => {
            return Err(Error::invalid(format!(
                "{what} has no path through all its {} open cells with {} moves (the exact solver tried every way)",
                board.count(),
                board.moves
            )))
        }
        _ => {
            ground::interrupt::check()?;
            return Err(Error::param(
                "max_nodes",
                format!(
                    "ran out ({budget} nodes) before a first path through the {} open cells of {what} was found; raise it",
                    board.count()
                ),
            ));
        }
    };
    let mut path = vec![0u16; board.count()];
    for (c, &v) in solution.iter().enumerate() {
        if v != BLOCKED {
            path[v as usize - 1] = c as u16;
        }
    }
    Ok(path)
}

impl Game for Numbrix {
    /// The givens up to the grid's rotations and mirrors and numbering backwards
    /// (k for N + 1 - k, N the open cells: the path read from its other end), with
    /// the moves: the least of the sixteen images. Blocked cells are `#`.
    fn canonical(&self, p: &NumbrixPuzzle) -> String {
        let n = p.givens.iter().flatten().filter(|&&v| v != BLOCKED).count() as u16;
        let backwards: Vec<Vec<u16>> = p
            .givens
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&v| if v == 0 || v == BLOCKED { v } else { n + 1 - v })
                    .collect()
            })
            .collect();
        let text = |g: &Vec<Vec<u16>>| {
            g.iter()
                .map(|r| {
                    r.iter()
                        .map(|&v| {
                            if v == BLOCKED {
                                "#".to_string()
                            } else {
                                v.to_string()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let best = ground::catalogue::dihedral(&p.givens)
            .iter()
            .chain(ground::catalogue::dihedral(&backwards).iter())
            .map(text)
            .min()
            .unwrap_or_default();
        let moves = if p.moves == Moves::Orthogonal {
            "orthogonal"
        } else {
            "king"
        };
        format!("{moves}|{best}")
    }

    fn params(&self) -> &NumbrixParams {
        &self.params
    }

    const NAME: &'static str = "numbrix";
    const TITLE: &'static str = "Numbrix";
    type Params = NumbrixParams;
    type Puzzle = NumbrixPuzzle;

    fn new(params: NumbrixParams) -> Result<Self> {
        if params.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: the solver needs a budget of at least 1 node",
            ));
        }
        let board = params.board()?;
        let solver = AnySolver::for_board(&board);
        let (rows, cols) = (board.rows(), board.cols());
        let paths = if board.mask.is_full() {
            // The serpentine is a path with either move set.
            let start = path::serpentine(rows, cols);
            path::PathSampler::for_board(&board, start, path::default_steps(rows * cols))
        } else {
            let what = params.board_name();
            let start = start_path(&what, &board, &mut solver.clone(), params.max_nodes)?;
            path::PathSampler::for_board(&board, start, path::default_steps(board.count()))
        };
        Ok(Numbrix {
            paths,
            solver,
            board,
            params,
        })
    }

    fn generate(&self, rng: &mut Rng) -> Outcome<NumbrixPuzzle> {
        let mut solver = self.solver.clone();
        let short = SHORT_NODES_PER_CELL.saturating_mul(self.board.count() as u64);
        let tries_short = self.params.style == Style::Free
            && self.board.count() <= SHORT_MAX_CELLS
            && short < self.params.max_nodes;
        if tries_short {
            for _ in 0..SHORT_TRIES {
                let solution = self.paths.sample_grid(rng);
                let budget = clues::Budget::GiveUp(short);
                match self.puzzle_within(&mut solver, &solution, rng, budget) {
                    Ok(p) => return Outcome::Accepted(p),
                    Err(Miss::Clues(clues::Failure::LongProof)) => {}
                    Err(why) => return Outcome::Rejected(why.reason()),
                }
            }
        }
        let solution = self.paths.sample_grid(rng);
        match self.puzzle_for(&mut solver, &solution, rng) {
            Ok(p) => Outcome::Accepted(p),
            Err(why) => Outcome::Rejected(why),
        }
    }

    fn read_record(&self, record: &serde_json::Value) -> Option<Result<NumbrixPuzzle>> {
        #[derive(Deserialize)]
        struct Fields {
            rows: usize,
            cols: usize,
            style: Style,
            #[serde(default)]
            moves: Moves,
            #[serde(default)]
            shape: Option<String>,
            givens: Vec<Vec<i64>>,
            solution: Vec<Vec<i64>>,
            clues: usize,
            difficulty: Grade,
            minimal: bool,
            #[serde(default)]
            minimal_for_grade: Option<bool>,
        }
        // -1 is a blocked cell; anything else must be a number the grid can hold.
        let cells = |rows: Vec<Vec<i64>>| -> Result<Vec<Vec<u16>>> {
            rows.into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|v| match v {
                            -1 => Ok(BLOCKED),
                            v if (0..i64::from(BLOCKED)).contains(&v) => Ok(v as u16),
                            v => Err(Error::check(format!("{v} is not a cell's number"))),
                        })
                        .collect()
                })
                .collect()
        };
        let read = || -> Result<NumbrixPuzzle> {
            let f = Fields::deserialize(record)
                .map_err(|e| Error::check(format!("not a Numbrix record: {e}")))?;
            Ok(NumbrixPuzzle {
                rows: f.rows,
                cols: f.cols,
                style: f.style,
                moves: f.moves,
                shape: f.shape,
                givens: cells(f.givens)?,
                solution: cells(f.solution)?,
                clues: f.clues,
                difficulty: f.difficulty,
                minimal: f.minimal,
                minimal_for_grade: f.minimal_for_grade,
            })
        };
        Some(read())
    }

    fn verify(&self, p: &NumbrixPuzzle) -> Result<()> {
        let (givens, solution) = (p.givens_flat(), p.solution_flat());
        if p.givens.len() != p.rows || p.givens.iter().any(|r| r.len() != p.cols) {
            return Err(Error::check("givens are not a rows x cols grid"));
        }
        if (p.rows, p.cols) != (self.board.rows(), self.board.cols()) {
            return Err(Error::check("the puzzle's size is not the game's"));
        }
        if p.moves != self.board.moves {
            return Err(Error::check(format!(
                "the puzzle says {} moves, the game {}",
                p.moves, self.board.moves
            )));
        }
        if givens
            .iter()
            .enumerate()
            .any(|(c, &v)| (v == BLOCKED) == self.board.is_open(c))
        {
            return Err(Error::check(
                "the puzzle's blocked cells are not the game's shape",
            ));
        }
        solve::check_board_solution(&self.board, &givens, &solution)?;
        let clues = givens.iter().filter(|&&v| v != 0 && v != BLOCKED).count();
        if clues != p.clues {
            return Err(Error::check(format!(
                "clues says {} but {clues} are given",
                p.clues
            )));
        }
        if p.style == Style::Border
            && givens
                .iter()
                .enumerate()
                .any(|(c, &v)| v != 0 && v != BLOCKED && !self.board.on_border(c))
        {
            return Err(Error::check("a border puzzle has a given inside the ring"));
        }
        let v = self.solver.clone().solve(&givens, u64::MAX);
        if v.count != Count::One || v.solution.as_deref() != Some(&solution[..]) {
            return Err(Error::check(format!(
                "the solver finds {:?}, not this one solution",
                v.count
            )));
        }
        Ok(())
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

    fn text_settings(&self) -> Vec<(&'static str, String)> {
        match self.board.moves {
            Moves::Orthogonal => Vec::new(),
            moves => vec![("moves", moves.name().to_string())],
        }
    }
}

/// The book title of Numbrix with king moves.
const HIDATO: &str = "Hidato";

impl Present for Numbrix {
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
        self.board.cols() as f32 / self.board.rows() as f32
    }
    /// With king moves the puzzle is Hidato, and books call it so.
    const TITLES: &'static [&'static str] = &[Self::TITLE, HIDATO];
    /// Both names are trademarks of their owners; "number path" and "Hidoku" are the
    /// names anyone may use.
    const TRADEMARKS: &'static [&'static str] = &[Self::TITLE, HIDATO];
    fn title(&self) -> &'static str {
        match self.board.moves {
            Moves::Orthogonal => Self::TITLE,
            Moves::King => HIDATO,
        }
    }
    fn caption(&self, p: &NumbrixPuzzle) -> String {
        let mut g = p.difficulty.name().to_string();
        g[..1].make_ascii_uppercase();
        let n = p.givens.iter().flatten().filter(|&&v| v != BLOCKED).count();
        format!("{g}, fill in 1–{n}")
    }
    fn answer(&self, _p: &NumbrixPuzzle) -> String {
        String::new()
    }
    fn answer_note(&self) -> Option<String> {
        Some("Clues are in bold on grey squares.".into())
    }
    fn draw_answer(&self, p: &NumbrixPuzzle, canvas: &mut Canvas, area: Rect) {
        let cells: Vec<draw::Cell> = p
            .givens_flat()
            .iter()
            .zip(p.solution_flat())
            .map(|(&g, v)| {
                if g == BLOCKED {
                    draw::Cell::Blocked
                } else if g != 0 {
                    draw::Cell::Shaded(g, true)
                } else {
                    draw::Cell::Filled(v)
                }
            })
            .collect();
        draw::cells(canvas, area, p.rows, p.cols, &cells);
    }
    fn answer_aspect(&self, _p: &NumbrixPuzzle) -> f32 {
        self.aspect()
    }
    fn example_detail(&self) -> u8 {
        u8::from(!self.board.mask.is_full())
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        let shaped = !self.board.mask.is_full();
        let ex = match (self.board.moves, shaped) {
            (Moves::Orthogonal, false) => example(),
            (Moves::Orthogonal, true) => shaped_example(),
            (Moves::King, false) => hidato_example(),
            (Moves::King, true) => shaped_hidato_example(),
        };
        let cell = |c: usize, v: u16| {
            if ex.blocked.contains(&c) {
                draw::Cell::Blocked
            } else {
                given_cell(v)
            }
        };
        let mut panels = vec![(
            ex.givens
                .iter()
                .enumerate()
                .map(|(c, &v)| cell(c, v))
                .collect(),
            ex.start.to_string(),
        )];
        let mut known: Vec<u16> = ex.givens.to_vec();
        for (numbers, text) in ex.steps {
            let now: Vec<draw::Cell> = known
                .iter()
                .zip(ex.givens)
                .enumerate()
                .map(|(c, (&k, &g))| {
                    let new = ex.solution[c];
                    if ex.blocked.contains(&c) {
                        draw::Cell::Blocked
                    } else if g != 0 {
                        draw::Cell::Given(g)
                    } else if numbers.contains(&new) {
                        draw::Cell::Shaded(new, false)
                    } else if k != 0 {
                        draw::Cell::Filled(k)
                    } else {
                        draw::Cell::Empty
                    }
                })
                .collect();
            for (c, &v) in ex.solution.iter().enumerate() {
                if numbers.contains(&v) {
                    known[c] = v;
                }
            }
            panels.push((now, text.to_string()));
        }
        draw::steps(canvas, area, EXAMPLE_SIDE, EXAMPLE_SIDE, &panels)
    }
    fn rating(&self, p: &NumbrixPuzzle) -> Option<Rating> {
        let share = work_share(&self.solver, &p.givens_flat(), p.difficulty);
        Some(rating(p.difficulty, share))
    }
    fn size_label(&self) -> Option<String> {
        Some(match &self.params.shape {
            Some(shape) => format!("{} × {} {shape}", self.board.rows(), self.board.cols()),
            None => format!("{} × {}", self.board.rows(), self.board.cols()),
        })
    }
    fn motif(&self) -> Motif {
        Motif::Path
    }
    fn how_to_play(&self) -> String {
        let touch = match self.board.moves {
            Moves::Orthogonal => "up, down, left or right, never diagonally",
            Moves::King => {
                "up, down, left, right or diagonally (on any of the eight squares around it)"
            }
        };
        let gap = match self.board.moves {
            Moves::Orthogonal => {
                "if 5 and 7 are printed with one square between them, 6 goes there"
            }
            Moves::King => "if 5 and 7 share just one free neighbouring square, 6 goes there",
        };
        // The same words for every grid of these moves (its size and shape are on its
        // page), so a book has one "how to play" page per game.
        format!(
            "Write a number in every empty square so that the numbers from 1 up to the number of light squares make one path: \
             each number sits next to the one before it, {touch}. \
             Dark squares, where a grid has them, are not part of it: no number goes there and the path goes around them. \
             The printed numbers are clues, already in their places, and each puzzle has exactly one solution. \
             Start where a gap is short: {gap}. \
             A number squeezed between clues, or a square that only one number can reach, is the next to write."
        )
    }
}

fn given_cell(v: u16) -> draw::Cell {
    if v == 0 {
        draw::Cell::Empty
    } else {
        draw::Cell::Given(v)
    }
}

/// Rows and columns of the worked example.
pub(crate) const EXAMPLE_SIDE: usize = 4;

/// The worked example of the "How to play" page: a 4 × 4 puzzle, its solution, and the
/// steps that solve it (the numbers each step writes, and its line of text).
pub struct Example {
    /// The example's givens in reading order, 0 for a blank (and a blocked cell).
    pub givens: &'static [u16; 16],
    /// The cells that are not part of the grid (dark squares), in reading order.
    pub blocked: &'static [usize],
    /// The example's solution in reading order.
    pub solution: &'static [u16; 16],
    /// The line of text under the start grid.
    pub start: &'static str,
    /// Each step: the numbers it writes and its line of text.
    pub steps: [(&'static [u16], &'static str); 4],
}

/// The worked example of the "How to play" page for king moves (Hidato): a 4 × 4
/// puzzle whose path steps diagonally twice (4 to 5 and 10 to 11).
pub fn hidato_example() -> Example {
    Example {
        #[rustfmt::skip]
        givens: &[
            1, 0, 0, 7,
            16, 3, 5, 0,
            0, 0, 10, 0,
            0, 13, 0, 0,
        ],
        #[rustfmt::skip]
        solution: &[
            1, 2, 6, 7,
            16, 3, 5, 8,
            15, 4, 10, 9,
            14, 13, 12, 11,
        ],
        blocked: &[],
        start: "Fill in 1–16; numbers may touch diagonally. The bold numbers are the clues.",
        steps: [
            (
                &[2, 11],
                "2 must touch 1 and 3: one free square does. The bottom-right corner can only hold 11 (9 is too far from 7, 12 from 13).",
            ),
            (
                &[9, 12, 14],
                "12 goes between 11 and 13. 9 must be two moves from 7: only the square right of 10 is. The bottom-left corner is too far from 16 for 15: it takes 14.",
            ),
            (
                &[8, 15],
                "8 goes between 7 and 9. The left square between 14 and 16 is too far from 5 for 4: it holds 15.",
            ),
            (
                &[4, 6],
                "6 must touch 5 and 7: the last top square. 4 takes the last one, between 3 and 5. Solved!",
            ),
        ],
    }
}

/// The worked example of the "How to play" page.
pub fn example() -> Example {
    Example {
        #[rustfmt::skip]
        givens: &[
            1, 0, 3, 0,
            0, 0, 12, 0,
            0, 0, 0, 0,
            16, 9, 0, 7,
        ],
        #[rustfmt::skip]
        solution: &[
            1, 2, 3, 4,
            14, 13, 12, 5,
            15, 10, 11, 6,
            16, 9, 8, 7,
        ],
        blocked: &[],
        start: "Fill in 1–16. The bold numbers are the clues.",
        steps: [
            (&[2, 8], "2 must go between 1 and 3; 8 between 7 and 9."),
            (
                &[4, 5, 6],
                "From 3 to 7 is four steps, and 12 blocks the way down: 4, 5 and 6 run down the right edge.",
            ),
            (
                &[10, 15],
                "16 has one free square beside it, so 15 goes there; 9 has one too, so 10 goes there.",
            ),
            (
                &[11, 13, 14],
                "14 must touch 15, and 13 must touch 14 and 12; 11 takes the last square. Solved!",
            ),
        ],
    }
}

/// The worked example for a shaped grid: a 4 × 4 grid with two dark squares (a
/// corner and one inside) that the path of 1 to 14 goes around.
pub fn shaped_example() -> Example {
    Example {
        #[rustfmt::skip]
        givens: &[
            0, 1, 0, 0,
            9, 8, 0, 0,
            0, 0, 0, 0,
            11, 0, 0, 0,
        ],
        blocked: &[0, 6],
        #[rustfmt::skip]
        solution: &[
            0, 1, 2, 3,
            9, 8, 0, 4,
            10, 7, 6, 5,
            11, 12, 13, 14,
        ],
        start: "Fill in 1–14 on the light squares; the dark squares are not part of the grid. The bold numbers are the clues.",
        steps: [
            (
                &[2, 10],
                "1 has one free square beside it, so 2 goes there; 10 goes between 9 and 11.",
            ),
            (
                &[3, 7, 12],
                "2, 8 and 11 each have one free square left beside them (a dark square does not count): 3, 7 and 12 go there.",
            ),
            (
                &[4, 6, 13],
                "Again 3, 7 and 12 each have one free square beside them: 4, 6 and 13.",
            ),
            (
                &[5, 14],
                "5 goes between 4 and 6, and 14 takes the last square. Solved!",
            ),
        ],
    }
}

/// The worked example for a shaped Hidato grid: two dark squares (a corner and one
/// inside), a path of 1 to 14 that steps diagonally past them.
pub fn shaped_hidato_example() -> Example {
    Example {
        #[rustfmt::skip]
        givens: &[
            0, 1, 0, 0,
            8, 0, 4, 0,
            0, 0, 6, 13,
            0, 11, 0, 0,
        ],
        blocked: &[0, 5],
        #[rustfmt::skip]
        solution: &[
            0, 1, 2, 3,
            8, 0, 4, 5,
            9, 7, 6, 13,
            10, 11, 12, 14,
        ],
        start: "Fill in 1–14 on the light squares; numbers may touch diagonally; the dark squares are not part of the grid. The bold numbers are the clues.",
        steps: [
            (
                &[2, 7],
                "1 has one free square beside it, so 2 goes there. 7 goes between 6 and 8.",
            ),
            (
                &[5, 12],
                "5 goes between 4 and 6, and 12 between 11 and 13: diagonal steps count.",
            ),
            (
                &[9, 3],
                "8 has one free square left beside it: 9. 3 goes between 2 and 4.",
            ),
            (
                &[10, 14],
                "10 goes between 9 and 11, and 14 takes the last square. Solved!",
            ),
        ],
    }
}

#[cfg(test)]
mod tests;
