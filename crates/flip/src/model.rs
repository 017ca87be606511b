//! The Flip board: geometry, move shapes, the target, move notation and the text format.

use super::bits::Bits;
use ground::input::shown;
use ground::{Error, Result};
use serde::{Deserialize, Serialize};

/// Column letters of the move notation; one character per column keeps the text
/// format aligned, so the widest board has 52 interior columns.
pub(crate) const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// Fewest move centres per side.
pub const MIN_SIDE: usize = 2;
/// Most move centres per side: one column letter each.
pub(crate) const MAX_SIDE: usize = LETTERS.len();

/// Which cells a move flips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// The 3x3 block of the original game; the board has a one-cell ring outside the
    /// cells a block can be centred on.
    #[default]
    Block,
    /// The plus-shaped cross of Lights Out: the cell and its four neighbours; every
    /// cell of the board can be pressed, and the cross is clipped at the edges.
    Plus,
}

impl Shape {
    /// The shape's name in parameters and records ("block", "plus").
    pub fn name(self) -> &'static str {
        match self {
            Shape::Block => "block",
            Shape::Plus => "plus",
        }
    }

    /// Rows (and columns) of board outside the cells moves are centred on.
    pub fn margin(self) -> usize {
        match self {
            Shape::Block => 1,
            Shape::Plus => 0,
        }
    }
}

impl std::str::FromStr for Shape {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "block" => Ok(Shape::Block),
            "plus" => Ok(Shape::Plus),
            _ => Err(Error::invalid(format!(
                "unknown move shape '{s}': use block or plus"
            ))),
        }
    }
}

/// The geometry of a board: `rows` x `cols` move centres and the move shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveGrid {
    /// Which cells a move flips.
    pub shape: Shape,
    /// Rows of move centres.
    pub rows: usize,
    /// Columns of move centres.
    pub cols: usize,
}

impl MoveGrid {
    /// A layout, checked: `rows` and `cols` from `MIN_SIDE` to `MAX_SIDE`.
    pub fn new(shape: Shape, rows: usize, cols: usize) -> Result<Self> {
        for (what, n) in [("rows", rows), ("columns", cols)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
                return Err(Error::invalid(format!(
                    "a Flip board needs {MIN_SIDE} to {MAX_SIDE} {what} of move centres, not {n}"
                )));
            }
        }
        Ok(MoveGrid { shape, rows, cols })
    }

    /// Rows of board cells: move centres plus the shape's margin on both sides.
    pub fn board_rows(&self) -> usize {
        self.rows + 2 * self.shape.margin()
    }

    /// Columns of board cells: move centres plus the shape's margin on both sides.
    pub fn board_cols(&self) -> usize {
        self.cols + 2 * self.shape.margin()
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.board_rows() * self.board_cols()
    }

    /// Possible moves: one per move centre.
    pub fn moves(&self) -> usize {
        self.rows * self.cols
    }

    /// Index of board cell (r, c) in reading order.
    #[inline]
    pub fn cell(&self, r: usize, c: usize) -> usize {
        r * self.board_cols() + c
    }

    /// Board cell (row, col) of the centre of move m (row-major over move centres).
    pub(crate) fn move_centre(&self, m: usize) -> (usize, usize) {
        let k = self.shape.margin();
        (m / self.cols + k, m % self.cols + k)
    }

    /// The cells flipped by move m.
    pub fn move_cells(&self, m: usize) -> impl Iterator<Item = (usize, usize)> {
        const BLOCK: [(isize, isize); 9] = [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 0),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ];
        const PLUS: [(isize, isize); 5] = [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)];
        let (r, c) = self.move_centre(m);
        let (br, bc) = (self.board_rows() as isize, self.board_cols() as isize);
        let offsets: &'static [(isize, isize)] = match self.shape {
            Shape::Block => &BLOCK,
            Shape::Plus => &PLUS,
        };
        offsets
            .iter()
            .map(move |&(dr, dc)| (r as isize + dr, c as isize + dc))
            .filter(move |&(r, c)| r >= 0 && c >= 0 && r < br && c < bc)
            .map(|(r, c)| (r as usize, c as usize))
    }

    /// The cells flipped by move `m`, as a board.
    pub(crate) fn move_mask(&self, m: usize) -> Bits {
        let mut b = Bits::zeros(self.cells());
        for (r, c) in self.move_cells(m) {
            b.set(self.cell(r, c), true);
        }
        b
    }

    /// The target cell: the middle of the board (for an even side, the lower-right of
    /// the central 2x2), 0-based (z, z) with z = side div 2.
    pub fn target_cell(&self) -> (usize, usize) {
        (self.board_rows() / 2, self.board_cols() / 2)
    }

    /// The solved board: only the target cell set.
    pub fn target(&self) -> Bits {
        let mut b = Bits::zeros(self.cells());
        let (r, c) = self.target_cell();
        b.set(self.cell(r, c), true);
        b
    }

    /// "c2": the column letter and 1-based row number of a move's centre.
    pub fn move_name(&self, m: usize) -> String {
        format!("{}{}", LETTERS[m % self.cols] as char, m / self.cols + 1)
    }

    /// Move index of a move in notation ("c2"); an error names what is wrong.
    pub(crate) fn parse_move(&self, s: &str) -> Result<usize> {
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(|| Error::invalid("empty move"))?;
        let col = LETTERS
            .iter()
            .position(|&l| l as char == letter)
            .filter(|&c| c < self.cols)
            .ok_or_else(|| {
                Error::invalid(format!(
                    "move {}: column '{letter}' is not one of the board's columns",
                    shown(s)
                ))
            })?;
        let row: usize = chars
            .as_str()
            .parse()
            .ok()
            .filter(|&r| (1..=self.rows).contains(&r))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "move {}: the row must be a number from 1 to {}",
                    shown(s),
                    self.rows
                ))
            })?;
        Ok((row - 1) * self.cols + col)
    }

    /// The board as text rows of `o` and `-` (no labels): the record format.
    pub fn rows_text(&self, board: &Bits) -> Vec<String> {
        (0..self.board_rows())
            .map(|r| {
                (0..self.board_cols())
                    .map(|c| if board.get(self.cell(r, c)) { 'o' } else { '-' })
                    .collect()
            })
            .collect()
    }

    /// The labelled text rendering of the spec: interior rows end with a space and their
    /// number; a last line of the margin's spaces and the column letters.
    pub fn render(&self, board: &Bits) -> String {
        let k = self.shape.margin();
        let mut out = String::new();
        for (r, row) in self.rows_text(board).into_iter().enumerate() {
            out.push_str(&row);
            if r >= k && r < k + self.rows {
                out.push_str(&format!(" {}", r - k + 1));
            }
            out.push('\n');
        }
        out.push_str(&" ".repeat(k));
        out.push_str(std::str::from_utf8(&LETTERS[..self.cols]).expect("ascii"));
        out.push('\n');
        out
    }

    /// Read a board in the text format (labels optional but checked when present).
    pub fn parse(shape: Shape, text: &str) -> Result<(MoveGrid, Bits)> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        let mut cell_rows: Vec<(usize, &str, Option<&str>)> = Vec::new();
        let mut letters: Option<&str> = None;
        for (i, line) in lines.iter().enumerate() {
            let n = i + 1;
            let trimmed = line.trim_start();
            if i == lines.len() - 1
                && trimmed.starts_with('a')
                && trimmed.bytes().all(|b| b.is_ascii_alphabetic())
            {
                letters = Some(trimmed);
                continue;
            }
            let (cells, label) = match line.split_once(' ') {
                Some((cells, label)) => (cells, Some(label.trim())),
                None => (*line, None),
            };
            if let Some(bad) = cells.chars().find(|&ch| ch != 'o' && ch != '-') {
                return Err(Error::invalid(format!(
                    "line {n}: '{bad}' is not a dot 'o' or a dash '-'"
                )));
            }
            cell_rows.push((n, cells, label));
        }
        let Some(&(_, first, _)) = cell_rows.first() else {
            return Err(Error::invalid(
                "the board is empty: give one line of 'o' and '-' per row",
            ));
        };
        let width = first.len();
        for &(n, cells, _) in &cell_rows {
            if cells.len() != width {
                return Err(Error::invalid(format!(
                    "line {n} has {} cells but the first row has {width}: a board must be rectangular",
                    cells.len()
                )));
            }
        }
        let k = shape.margin();
        let inner = |n: usize, what: &str| -> Result<usize> {
            n.checked_sub(2 * k)
                .filter(|&i| (MIN_SIDE..=MAX_SIDE).contains(&i))
                .ok_or_else(|| {
                    Error::invalid(format!(
                        "the board has {n} {what}; with {} moves it needs {} to {}",
                        shape.name(),
                        MIN_SIDE + 2 * k,
                        MAX_SIDE + 2 * k
                    ))
                })
        };
        let layout = MoveGrid {
            shape,
            rows: inner(cell_rows.len(), "rows")?,
            cols: inner(width, "columns")?,
        };
        let labelled = cell_rows.iter().any(|&(_, _, label)| label.is_some());
        for (r, &(n, _, label)) in cell_rows.iter().enumerate() {
            let interior = r >= k && r < k + layout.rows;
            match label {
                None if labelled && interior => {
                    return Err(Error::invalid(format!(
                        "line {n}: inner row {} has no row number while other rows have one",
                        r - k + 1
                    )))
                }
                None => {}
                Some(l) if interior && l.parse::<usize>().ok() == Some(r - k + 1) => {}
                Some(l) if interior => {
                    return Err(Error::invalid(format!(
                        "line {n}: row label {} should be {}",
                        shown(l),
                        r - k + 1
                    )))
                }
                Some(l) => {
                    return Err(Error::invalid(format!(
                        "line {n}: the edge row has a label {}; only inner rows are numbered",
                        shown(l)
                    )))
                }
            }
        }
        if let Some(l) = letters {
            let expected = std::str::from_utf8(&LETTERS[..layout.cols]).expect("ascii");
            if l != expected {
                return Err(Error::invalid(format!(
                    "the column letters {} should be '{expected}'",
                    shown(l)
                )));
            }
        }
        let mut board = Bits::zeros(layout.cells());
        for (r, &(_, cells, _)) in cell_rows.iter().enumerate() {
            for (c, ch) in cells.chars().enumerate() {
                board.set(layout.cell(r, c), ch == 'o');
            }
        }
        Ok((layout, board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_round_trips() {
        let text = "-----\n-ooo- 1\n-o-o- 2\n-ooo- 3\n-----\n abc\n";
        let (layout, board) = MoveGrid::parse(Shape::Block, text).unwrap();
        assert_eq!((layout.rows, layout.cols), (3, 3));
        assert_eq!(layout.render(&board), text);
        // The example is the target flipped by the centre block b2.
        let mut t = layout.target();
        t.xor_assign(&layout.move_mask(layout.parse_move("b2").unwrap()));
        assert_eq!(t, board);
    }

    #[test]
    fn target_is_the_middle() {
        let l = MoveGrid::new(Shape::Block, 5, 5).unwrap();
        assert_eq!(l.target_cell(), (3, 3));
        let l = MoveGrid::new(Shape::Block, 4, 4).unwrap();
        assert_eq!(l.target_cell(), (3, 3));
    }

    #[test]
    fn notation() {
        let l = MoveGrid::new(Shape::Block, 3, 30).unwrap();
        for m in 0..l.moves() {
            assert_eq!(l.parse_move(&l.move_name(m)).unwrap(), m);
        }
        assert!(l.parse_move("a4").is_err());
        assert!(l.parse_move("Z1").is_err());
    }

    #[test]
    fn malformed_boards_are_rejected() {
        assert!(MoveGrid::parse(Shape::Block, "").is_err());
        assert!(MoveGrid::parse(Shape::Block, "----\n-o-\n----\n----")
            .unwrap_err()
            .to_string()
            .contains("rectangular"));
        assert!(MoveGrid::parse(Shape::Block, "---\n-x-\n---")
            .unwrap_err()
            .to_string()
            .contains("'x'"));
        assert!(MoveGrid::parse(Shape::Block, "---\n-o-\n---")
            .unwrap_err()
            .to_string()
            .contains("needs 4"));
        assert!(MoveGrid::parse(Shape::Block, "----\n---- 2\n---- 2\n----")
            .unwrap_err()
            .to_string()
            .contains("should be 1"));
    }
}
