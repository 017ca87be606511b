//! Number Match: clear a board of digits by removing pairs that are equal or sum to
//! 10 and can see each other, with a few "adds". Rules: docs/games/number-match.md.
//!
//! Generation draws random boards and keeps those the exact solver ([`solve`]) can
//! clear within the add limit, with the fewest adds (`min_adds`) and a solution; the
//! grade comes from the share of random playouts ([`montecarlo`]) that win.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod answer;
mod draw;
pub mod montecarlo;
pub mod paper;
pub mod rules;
pub mod solve;
pub mod stats;

pub use draw::{notation, SPARE_TITLE};
pub use rules::{Append, Rules};
pub use solve::{Move, Solver, Verdict};

use ground::canvas::{Canvas, Rect};
use ground::game::{Game, Motif, Outcome, Present};
use ground::seed::Rng;
use ground::{Error, Result};
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Most adds a board may allow (a 27-digit board can reach 27 * 2^8 cells).
pub(crate) const MAX_ADDS: u8 = 8;
/// Most cells on a start board: `length` of `generate` and `stats` (CLI, templates, job
/// files) and the board given to `solve` (digits and `.` cells together): 256.
///
/// Why: an add copies every remaining digit, so with pairs removed or not it at most
/// doubles the cells (with after-last-cell too: the cells so far plus at most as many
/// digits). After `MAX_ADDS` adds a board of 256 cells holds at most 256 * 2^8 =
/// 65,536 cells ([`MAX_CELLS`]), the most that the u16 cell indices of a [`Move`] (and
/// of the records' `[a, b]` pairs) can address. The solver's memory does not grow
/// with it beyond fixed bounds (see `solve::MAX_TABLE_ENTRIES` and
/// `solve::MAX_PATH_BYTES`).
pub const MAX_LENGTH: usize = 256;
/// Most cells a board can reach within the limits: [`MAX_LENGTH`] doubled `MAX_ADDS`
/// times (65,536).
pub const MAX_CELLS: usize = MAX_LENGTH << MAX_ADDS;
const _: () = assert!(MAX_CELLS - 1 <= u16::MAX as usize);
/// Search nodes per board during generation (a board that runs out is rejected).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// Number Match's parameters: a template's `[number_match]` keys and `number-match
/// generate`'s flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct NumberMatchParams {
    /// Columns of the board
    #[arg(long, default_value_t = NumberMatchParams::default().columns)]
    pub columns: usize,
    /// Digits on the start board (1 to 256: each add can double a board, and 256 * 2^8
    /// cells is what a move's cell index holds)
    #[arg(long, default_value_t = NumberMatchParams::default().length)]
    pub length: usize,
    /// The add limit
    #[arg(long, default_value_t = NumberMatchParams::default().adds)]
    pub adds: u8,
    /// Where adds go: after-last-digit, after-last-cell or new-row
    #[arg(long, default_value = NumberMatchParams::default().append.name())]
    pub append: Append,
    /// Whether pairs may see each other along diagonals (flag: `--no-diagonals`, a
    /// variant where they may not)
    #[arg(long = "no-diagonals", action = clap::ArgAction::SetFalse, help = "Pairs may not see each other along diagonals (a variant)")]
    pub diagonals: bool,
    /// Random playouts per board for the grade.
    #[arg(skip = NumberMatchParams::default().playouts)]
    pub playouts: u64,
    /// Keep only easy, medium or hard boards (by the share of random playouts that win)
    #[arg(long)]
    pub difficulty: Option<Difficulty>,
    /// Search nodes per board (a board that runs out is skipped, never printed)
    #[arg(long, default_value_t = NumberMatchParams::default().max_nodes)]
    pub max_nodes: u64,
}

impl Default for NumberMatchParams {
    fn default() -> Self {
        NumberMatchParams {
            columns: 9,
            length: 27,
            adds: 4,
            append: Append::AfterLastDigit,
            diagonals: true,
            playouts: 200,
            difficulty: None,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// Grade by how often random play wins: easy at least half the time, medium at least
/// one in ten, hard less.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Random play wins at least half the time.
    Easy,
    /// Random play wins at least one time in ten.
    Medium,
    /// Random play wins less than one time in ten.
    Hard,
}

impl Difficulty {
    /// The grade of a board that random play clears with this share of playouts (0 to 1).
    pub fn of(win_rate: f64) -> Self {
        if win_rate >= 0.5 {
            Difficulty::Easy
        } else if win_rate >= 0.1 {
            Difficulty::Medium
        } else {
            Difficulty::Hard
        }
    }
    /// The grade's name in parameters and records ("easy", "medium", "hard").
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

impl std::str::FromStr for Difficulty {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "unknown difficulty {}: choose easy, medium or hard",
                    ground::input::shown(s)
                ))
            })
    }
}

/// A move in records: `"add"` or `[a, b]`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum MoveRecord {
    /// An add: always `"add"`.
    Add(&'static str),
    /// A pair: its two cells, flat indices into the board before the move.
    Pair([u16; 2]),
}

/// The moves as records write them.
pub(crate) fn move_records(moves: &[Move]) -> Vec<MoveRecord> {
    moves
        .iter()
        .map(|m| match *m {
            Move::Add => MoveRecord::Add("add"),
            Move::Pair(a, b) => MoveRecord::Pair([a, b]),
        })
        .collect()
}

/// A generated board with its proved fewest adds, a solution and its grade.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NumberMatchPuzzle {
    /// The start board: one digit 1-9 per cell in reading order.
    pub board: String,
    /// Cells per row.
    pub columns: usize,
    /// The add limit the board was made for.
    pub adds: u8,
    /// Where "add" puts the copied digits.
    pub append: Append,
    /// True when pairs may not see each other along diagonals (left out when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_diagonals: bool,
    /// Whether the board can be cleared within the add limit (true for every generated board).
    pub solvable: bool,
    /// The fewest adds that clear the board.
    pub min_adds: u8,
    /// A solution with `min_adds` adds, as records write moves.
    pub solution: Vec<MoveRecord>,
    /// Share of random playouts that cleared the board (0 to 1).
    pub playout_win_rate: f64,
    /// The grade from `playout_win_rate`.
    pub difficulty: Difficulty,
    /// The solution's moves.
    #[serde(skip)]
    pub moves: Vec<Move>,
}

impl NumberMatchPuzzle {
    /// The start board's digits, one per cell.
    pub fn digits(&self) -> Vec<u8> {
        self.board.bytes().map(|c| c - b'0').collect()
    }
}

/// A configured Number Match game.
pub struct NumberMatch {
    params: NumberMatchParams,
    rules: Rules,
}

impl NumberMatch {
    /// The rules the game's boards are played by.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Check parameters shared by the CLI and templates.
    pub fn check(columns: usize, adds: u8) -> Result<()> {
        NumberMatch::check_named(columns, adds, "adds")
    }

    /// [`NumberMatch::check`] where the add limit is the parameter `adds_name`
    /// (`max_adds` in `number-match stats`), so an error names it as the user wrote it.
    pub(crate) fn check_named(columns: usize, adds: u8, adds_name: &'static str) -> Result<()> {
        if columns == 0 {
            return Err(Error::param(
                "columns",
                "is 0: a board needs at least 1 column",
            ));
        }
        if columns > 64 {
            return Err(Error::param(
                "columns",
                format!("is {columns}: too many, at most 64"),
            ));
        }
        if adds > MAX_ADDS {
            return Err(Error::param(
                adds_name,
                format!("is {adds}: too many, at most {MAX_ADDS} (each add doubles the board)"),
            ));
        }
        Ok(())
    }

    /// Check a start board's length (`length` in templates, job files and `stats`; the
    /// CLI names it `--length`): 1 to [`MAX_LENGTH`] cells.
    pub(crate) fn check_length(length: usize) -> Result<()> {
        if length == 0 {
            return Err(Error::param(
                "length",
                "is 0: a board needs at least 1 digit",
            ));
        }
        if length > MAX_LENGTH {
            return Err(Error::param(
                "length",
                format!(
                    "is {length}: a start board has at most {MAX_LENGTH} cells (each add can \
                     double it, and {MAX_LENGTH} * 2^{MAX_ADDS} = {MAX_CELLS} cells is what a \
                     move's cell index can address)"
                ),
            ));
        }
        Ok(())
    }
}

impl NumberMatch {
    /// Check that a board of `length` cells stays addressable through `adds` adds.
    /// Digits at most double at an add; under `new-row` an add may also leave up to
    /// `columns - 1` blank cells to close a row, so after k adds a board has at most
    /// `length * 2^k + k * (columns - 1)` cells, which must stay within [`MAX_CELLS`]
    /// (the other rules stay within `length * 2^k`, which [`MAX_LENGTH`] and
    /// [`MAX_ADDS`] already bound).
    pub(crate) fn check_growth(
        length: usize,
        columns: usize,
        adds: u8,
        append: Append,
    ) -> Result<()> {
        if append != Append::NewRow {
            return Ok(());
        }
        let most = (length << adds) + usize::from(adds) * columns.saturating_sub(1);
        if most > MAX_CELLS {
            return Err(Error::param(
                "length",
                format!(
                    "is {length}: with append = new-row, {adds} adds and {columns} columns a board \
                     can grow to {most} cells, more than the {MAX_CELLS} a move can address: \
                     use fewer adds or a shorter board"
                ),
            ));
        }
        Ok(())
    }
}

/// Replay `moves` on `board` with the rules; Ok(adds used) if they clear it.
pub fn replay(rules: &Rules, board: &[u8], moves: &[Move], adds: u8) -> Result<u8> {
    let mut b = board.to_vec();
    let mut used = 0u8;
    for (k, m) in moves.iter().enumerate() {
        match *m {
            Move::Add => {
                used += 1;
                if used > adds {
                    return Err(Error::check(format!(
                        "move {}: more than {adds} adds",
                        k + 1
                    )));
                }
                rules.add(&mut b);
            }
            Move::Pair(i, j) => {
                let (i, j) = (i as usize, j as usize);
                if i >= b.len() || j >= b.len() || i == j || b[i] == 0 || b[j] == 0 {
                    return Err(Error::check(format!(
                        "move {}: ({i}, {j}) is not a pair of digits",
                        k + 1
                    )));
                }
                if !rules::matches(b[i], b[j]) {
                    return Err(Error::check(format!(
                        "move {}: {} and {} do not match",
                        k + 1,
                        b[i],
                        b[j]
                    )));
                }
                if !rules.sees(&b, i, j) {
                    return Err(Error::check(format!(
                        "move {}: cells {i} and {j} do not see each other",
                        k + 1
                    )));
                }
                rules.remove(&mut b, i, j);
            }
        }
    }
    if b.iter().any(|&x| x != 0) {
        return Err(Error::check("the moves leave digits on the board"));
    }
    Ok(used)
}

impl Game for NumberMatch {
    /// The board as it is read, with what changes play (cells a row, where adds go,
    /// diagonals): a board read in another order plays differently, so there are no
    /// symmetries to divide out.
    fn canonical(&self, p: &NumberMatchPuzzle) -> String {
        format!(
            "{}|{}|{}|{}",
            p.columns,
            serde_json::to_string(&p.append).expect("serialises"),
            p.no_diagonals,
            p.board
        )
    }

    fn params(&self) -> &NumberMatchParams {
        &self.params
    }

    const NAME: &'static str = "number_match";
    const TITLE: &'static str = "Number Match";
    type Params = NumberMatchParams;
    type Puzzle = NumberMatchPuzzle;

    fn new(params: NumberMatchParams) -> Result<Self> {
        Self::check(params.columns, params.adds)?;
        Self::check_length(params.length)?;
        Self::check_growth(params.length, params.columns, params.adds, params.append)?;
        if params.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: give the search at least 1 node",
            ));
        }
        Ok(NumberMatch {
            rules: Rules {
                cols: params.columns,
                diagonals: params.diagonals,
                append: params.append,
            },
            params,
        })
    }

    fn generate(&self, rng: &mut Rng) -> Outcome<NumberMatchPuzzle> {
        let p = &self.params;
        let board: Vec<u8> = (0..p.length).map(|_| rng.random_range(1..=9)).collect();
        let mut solver = Solver::new(self.rules);
        let (min_adds, moves) = match solver.min_adds(&board, p.adds, p.max_nodes) {
            Ok(Some(found)) => found,
            Ok(None) => return Outcome::Rejected("cannot be cleared within the add limit"),
            Err(()) => return Outcome::Rejected("the solver's node budget ran out"),
        };
        let win = montecarlo::win_rate(&self.rules, &board, p.adds, p.playouts, rng);
        let difficulty = Difficulty::of(win);
        if p.difficulty.is_some_and(|d| d != difficulty) {
            return Outcome::Rejected("another difficulty");
        }
        Outcome::Accepted(NumberMatchPuzzle {
            board: board.iter().map(|d| (b'0' + d) as char).collect(),
            columns: p.columns,
            adds: p.adds,
            append: p.append,
            no_diagonals: !p.diagonals,
            solvable: true,
            min_adds,
            solution: move_records(&moves),
            playout_win_rate: win,
            difficulty,
            moves,
        })
    }

    fn verify(&self, p: &NumberMatchPuzzle) -> Result<()> {
        let used = replay(&self.rules, &p.digits(), &p.moves, p.adds)?;
        if used != p.min_adds {
            return Err(Error::check(format!(
                "the solution uses {used} adds, min_adds says {}",
                p.min_adds
            )));
        }
        Ok(())
    }

    fn text(&self, p: &NumberMatchPuzzle) -> String {
        rules::render(&p.digits(), p.columns)
    }

    /// The rules for a player with a pencil, worded so that paper play is the game's
    /// play (see [`paper`]): gone rows are skipped (on diagonals too, where it matters),
    /// and an add is written where this game's append rule puts it.
    fn text_settings(&self) -> Vec<(&'static str, String)> {
        let p = &self.params;
        let mut settings = Vec::new();
        if p.columns != 9 {
            settings.push(("columns", p.columns.to_string()));
        }
        if p.append != Append::AfterLastDigit {
            settings.push(("append", p.append.name().to_string()));
        }
        if !p.diagonals {
            settings.push(("no_diagonals", "true".to_string()));
        }
        settings
    }
}

impl Present for NumberMatch {
    fn draw(&self, p: &NumberMatchPuzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        if with_solution {
            self.draw_answer(p, canvas, area);
        } else {
            draw::paper(canvas, area, &p.digits(), p.columns, p.adds, self.spare());
        }
    }
    /// The digits and the ruled rows every play within the adds can need
    /// (`paper::ruled_rows`), in blocks side by side when they are many
    /// (`draw::blocks`).
    fn aspect(&self) -> f32 {
        let p = &self.params;
        draw::paper_aspect(p.length, p.columns, p.adds, self.spare())
    }
    /// The board and its ruled rows, never the spare copy: a cover shows the puzzle.
    fn draw_cover(&self, p: &NumberMatchPuzzle, canvas: &mut Canvas, area: Rect) {
        draw::paper(canvas, area, &p.digits(), p.columns, p.adds, false);
    }
    fn cover_aspect(&self) -> f32 {
        let p = &self.params;
        draw::paper_aspect(p.length, p.columns, p.adds, false)
    }
    fn caption(&self, p: &NumberMatchPuzzle) -> String {
        match p.adds {
            0 => "Clear the board without adding".into(),
            1 => "Clear the board with at most 1 add".into(),
            n => format!("Clear the board with at most {n} adds"),
        }
    }
    fn answer(&self, p: &NumberMatchPuzzle) -> String {
        let pairs = p.moves.iter().filter(|m| **m != Move::Add).count();
        match p.min_adds {
            0 => format!("{pairs} pairs, no add"),
            1 => format!("{pairs} pairs, 1 add"),
            n => format!("{pairs} pairs, {n} adds"),
        }
    }
    /// Stars from the share of random plays that clear the board (measured with the
    /// puzzle's add limit when it was made, so the limit is counted in):
    /// ★ at least 1 in 2, ★★ 1 in 4 to 1 in 2, ★★★ 1 in 10 to 1 in 4, ★★★★ 3 in 100
    /// to 1 in 10, ★★★★★ under 3 in 100. Easy is ★, medium ★★–★★★, hard ★★★★–★★★★★.
    /// The score is the share of random plays that fail.
    fn rating(&self, p: &NumberMatchPuzzle) -> Option<ground::game::Rating> {
        Some(ground::game::Rating {
            score: 1.0 - p.playout_win_rate,
            stars: stars(p.playout_win_rate),
        })
    }
    fn answer_aspect(&self, p: &NumberMatchPuzzle) -> f32 {
        draw::answer_aspect(&self.paper_play(p).phases, p.columns)
    }
    fn draw_answer(&self, p: &NumberMatchPuzzle, canvas: &mut Canvas, area: Rect) {
        draw::answer(canvas, area, &self.paper_play(p).phases, p.columns);
    }
    fn answer_note(&self) -> Option<String> {
        Some(
            "Each answer shows the board at the start and after each add, with the rows numbered \
             as on your page (a jump in the numbers is where rows have gone). In a cell: the digit, \
             small, and in bold the number of the move that crosses it out. The pairs are numbered \
             1, 2, 3, … in the order played, both digits of a pair carrying the same number. A ringed \
             digit is still there at the next add, and is copied. Shaded cells were \
             crossed out before."
                .into(),
        )
    }
    fn size_label(&self) -> Option<String> {
        Some(format!("{} digits", self.params.length))
    }
    fn motif(&self) -> Motif {
        Motif::Digits
    }
    fn how_to_play(&self) -> String {
        let (lines, diag_gone) = if self.params.diagonals {
            ("a row, a column or a diagonal", " (also along diagonals)")
        } else {
            ("a row or a column", "")
        };
        let add = match self.params.append {
            Append::AfterLastDigit => {
                "straight after the last digit still in play (over crossed-out cells there, so \
                 cross out lightly)"
            }
            Append::AfterLastCell => "after the last cell written in the last row still in play",
            Append::NewRow => {
                "into the ruled rows, starting every add on a fresh row (blank cells left at \
                 the end of the row before count as crossed out)"
            }
        };
        let then = if self.params.append == Append::NewRow {
            ", never into a gone row"
        } else {
            ", then on into the ruled rows, never into a gone row"
        };
        format!(
            "Cross out two digits that are equal (3 and 3) or add up to 10 (2 and 8) and see each \
             other: in line along {lines}, or one after the other in reading order (the end of a \
             row runs on to the start of the next), with nothing but crossed-out cells between. \
             A row with nothing left is gone: skip it, so the rows above and below it touch\
             {diag_gone}. Stuck? Add: copy the digits still in play, in reading order, \
             {add}{then}. Clear the board within the adds allowed."
        )
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        let rules = Rules {
            cols: EXAMPLE_COLS,
            diagonals: self.params.diagonals,
            append: self.params.append,
        };
        let (board, moves, steps) = example_for(self.params.append);
        let play = paper::play(&rules, board, &moves);
        draw::example(canvas, area, &play, EXAMPLE_COLS, steps);
        true
    }
}

impl NumberMatch {
    /// Whether puzzles are drawn with a spare copy of the start beside them: hard
    /// boards (`difficulty = "hard"`), which readers often start again, when the
    /// board is one block of rows (a board long enough to be set in blocks side by
    /// side, as with 4 adds, would halve its cells below handwriting size).
    pub fn spare(&self) -> bool {
        let p = &self.params;
        let rows = paper::paper_rows(p.length, p.columns, p.adds);
        p.difficulty == Some(Difficulty::Hard) && draw::blocks(rows, p.columns).0 == 1
    }

    /// The solution played on paper.
    pub(crate) fn paper_play(&self, p: &NumberMatchPuzzle) -> paper::Play {
        let rules = Rules {
            cols: p.columns,
            diagonals: !p.no_diagonals,
            append: p.append,
        };
        paper::play(&rules, &p.digits(), &p.moves)
    }
}

/// Stars (1–5) for the share of random plays that clear a board (see `rating`).
pub fn stars(win_rate: f64) -> u8 {
    match win_rate {
        w if w >= 0.5 => 1,
        w if w >= 0.25 => 2,
        w if w >= 0.1 => 3,
        w if w >= 0.03 => 4,
        _ => 5,
    }
}

/// The worked example: two rows of four, cleared with one add (proved by a test).
pub const EXAMPLE_COLS: usize = 4;
/// The worked example's board: two rows of [`EXAMPLE_COLS`] digits.
pub const EXAMPLE_BOARD: [u8; 8] = [1, 6, 7, 8, 5, 4, 3, 5];
/// The example's moves: pairs as cells of the game's board before the move.
pub fn example_moves() -> Vec<Move> {
    vec![
        Move::Pair(1, 5),
        Move::Pair(2, 6),
        Move::Pair(4, 7),
        Move::Add,
        Move::Pair(0, 4),
        Move::Pair(3, 5),
    ]
}
/// One line per move of the example.
pub const EXAMPLE_STEPS: [&str; 6] = [
    "6 and 4 add up to 10 and touch: cross them out.",
    "7 and 3 too.",
    "5 and 5 see each other across crossed-out cells. Row 2 is now empty: it is gone.",
    "Stuck: add. 1 and 8 are copied after the last digit, skipping gone row 2.",
    "1 and 1 share a column: the gone row between does not count.",
    "8 runs on to 8 in reading order. The board is clear.",
];

/// The worked example under `new-row`, where the add's fresh row matters: the last
/// digit in play is not at the end of its row when the board is stuck.
pub const NEW_ROW_EXAMPLE_BOARD: [u8; 8] = [8, 2, 2, 5, 8, 2, 1, 5];
/// Its moves: pairs as cells of the game's board before the move.
pub fn new_row_example_moves() -> Vec<Move> {
    vec![
        Move::Pair(0, 1),
        Move::Pair(2, 5),
        Move::Pair(3, 7),
        Move::Add,
        Move::Pair(0, 4),
        Move::Pair(2, 5),
    ]
}
/// Its lines.
pub const NEW_ROW_EXAMPLE_STEPS: [&str; 6] = [
    "8 and 2 add up to 10 and touch: cross them out.",
    "2 and 2 see each other along a diagonal.",
    "5 and 5 share a column. Row 1 is now empty: it is gone.",
    "Stuck: add. 8 and 1 are copied on a fresh row, row 3, not over the crossed-out 5.",
    "8 and 8 share a column.",
    "1 runs on to 1 in reading order past crossed-out cells. The board is clear.",
];

/// The worked example for an append rule: (board, moves, one line a move).
pub(crate) fn example_for(append: Append) -> (&'static [u8], Vec<Move>, &'static [&'static str]) {
    match append {
        Append::NewRow => (
            &NEW_ROW_EXAMPLE_BOARD,
            new_row_example_moves(),
            &NEW_ROW_EXAMPLE_STEPS,
        ),
        _ => (&EXAMPLE_BOARD, example_moves(), &EXAMPLE_STEPS),
    }
}

#[cfg(test)]
mod tests;
