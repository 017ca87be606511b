//! A Numbrix grid: R x C cells, each 0 (blank), a number 1..=N or [`BLOCKED`], row-major,
//! where N is the number of cells that are not blocked.
//! The text format (`numbrix solve` input): one grid row per line, cells separated by
//! spaces, a number, `.` for a blank or `X` for a blocked cell; grids separated by blank
//! lines. And the board a grid is played on: its open cells and its moves ([`Board`]).

use super::shape::{Mask, Moves};
use ground::{Error, Result};

/// A blocked cell (no number goes there) in a grid's cells; `-1` in records, `X` in text.
pub const BLOCKED: u16 = u16::MAX;

/// Where numbers go and how consecutive numbers touch: the open cells of an R x C grid
/// and the move set (orthogonal for Numbrix, king moves for Hidato).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// The open and blocked cells (and the grid's size).
    pub mask: Mask,
    /// How consecutive numbers may touch.
    pub moves: Moves,
}

impl Board {
    /// A full R x C rectangle with orthogonal moves (classic Numbrix).
    pub fn rect(rows: usize, cols: usize) -> Board {
        Board {
            mask: Mask::full(rows, cols),
            moves: Moves::Orthogonal,
        }
    }

    /// Rows of the grid.
    pub fn rows(&self) -> usize {
        self.mask.rows
    }

    /// Columns of the grid.
    pub fn cols(&self) -> usize {
        self.mask.cols
    }

    /// Cells of the grid, open or blocked.
    pub fn cells(&self) -> usize {
        self.mask.rows * self.mask.cols
    }

    /// Whether cell `c` is open.
    pub fn is_open(&self, c: usize) -> bool {
        self.mask.open[c]
    }

    /// The number of open cells: the largest number of a solution.
    pub fn count(&self) -> usize {
        self.mask.open_count()
    }

    /// True for a full rectangle with orthogonal moves (the fast classic case).
    pub(crate) fn is_plain(&self) -> bool {
        self.moves == Moves::Orthogonal && self.mask.is_full()
    }

    /// Whether cells `a` and `b` touch under the board's moves (from coordinates).
    pub fn touch(&self, a: usize, b: usize) -> bool {
        let cols = self.cols();
        let (dr, dc) = ((a / cols).abs_diff(b / cols), (a % cols).abs_diff(b % cols));
        match self.moves {
            Moves::Orthogonal => dr + dc == 1,
            Moves::King => dr.max(dc) == 1,
        }
    }

    /// Whether open cell `c` is on the board's border: one of the eight cells around it
    /// is off the grid or blocked (on a full rectangle, the outer ring).
    pub fn on_border(&self, c: usize) -> bool {
        let (rows, cols) = (self.rows() as isize, self.cols() as isize);
        let (r, col) = ((c / self.cols()) as isize, (c % self.cols()) as isize);
        (-1..=1).any(|dr| {
            (-1..=1).any(|dc| {
                let (rr, cc) = (r + dr, col + dc);
                rr < 0
                    || cc < 0
                    || rr >= rows
                    || cc >= cols
                    || !self.mask.open[(rr * cols + cc) as usize]
            })
        })
    }

    /// The board a grid is played on: its blocked cells and `moves`.
    pub fn of_grid(grid: &Grid, moves: Moves) -> Board {
        Board {
            mask: Mask {
                rows: grid.rows,
                cols: grid.cols,
                open: grid.cells.iter().map(|&v| v != BLOCKED).collect(),
            },
            moves,
        }
    }
}

pub use super::shape::MAX_CELLS;

/// A grid of numbers, row-major: 0 is a blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// The cells in reading order, 0 for a blank.
    pub cells: Vec<u16>,
}

impl Grid {
    /// A grid of blanks.
    pub fn blank(rows: usize, cols: usize) -> Self {
        Grid {
            rows,
            cols,
            cells: vec![0; rows * cols],
        }
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True when the grid has no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Number of given numbers (cells neither blank nor blocked).
    pub fn givens(&self) -> usize {
        self.cells
            .iter()
            .filter(|&&v| v != 0 && v != BLOCKED)
            .count()
    }

    /// Number of cells that are not blocked: the largest number.
    pub fn open(&self) -> usize {
        self.cells.iter().filter(|&&v| v != BLOCKED).count()
    }

    /// Check the size and the numbers (range, repeats). Messages name the cell.
    pub fn validate(&self) -> Result<()> {
        check_size(self.rows, self.cols)?;
        if self.cells.len() != self.rows * self.cols {
            return Err(Error::invalid(format!(
                "the grid has {} cells, not {} x {}",
                self.cells.len(),
                self.rows,
                self.cols
            )));
        }
        let n = self.open();
        if n < 2 {
            return Err(Error::invalid(format!(
                "the grid has {n} open cell{}: a path needs at least 2",
                if n == 1 { "" } else { "s" }
            )));
        }
        let blocked = self.cells.len() - n;
        let mut seen = vec![usize::MAX; n + 1];
        for (i, &v) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.cols + 1, i % self.cols + 1);
            if v == 0 || v == BLOCKED {
                continue;
            }
            if v as usize > n {
                let holds = if blocked == 0 {
                    format!("a {}x{} grid holds 1 to {n}", self.rows, self.cols)
                } else {
                    format!("{n} open cells hold 1 to {n}")
                };
                return Err(Error::invalid(format!(
                    "row {r}, column {c}: {v} is out of range ({holds})"
                )));
            }
            let prev = seen[v as usize];
            if prev != usize::MAX {
                return Err(Error::invalid(format!(
                    "{v} appears twice: row {}, column {} and row {r}, column {c}",
                    prev / self.cols + 1,
                    prev % self.cols + 1
                )));
            }
            seen[v as usize] = i;
        }
        Ok(())
    }

    /// The grid as rows of numbers (0 = blank, [`BLOCKED`] blocked).
    pub fn to_rows(&self) -> Vec<Vec<u16>> {
        self.cells.chunks(self.cols).map(|r| r.to_vec()).collect()
    }

    /// A grid from rows of numbers (0 = blank), as in the JSON records; the rows must be equally long.
    pub(crate) fn from_rows(rows: &[Vec<u16>]) -> Result<Self> {
        let cols = rows.first().map_or(0, |r| r.len());
        if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != cols) {
            return Err(Error::invalid(format!(
                "row {} has {} cells but row 1 has {cols}: grids must be rectangular",
                i + 1,
                r.len()
            )));
        }
        let g = Grid {
            rows: rows.len(),
            cols,
            cells: rows.concat(),
        };
        g.validate()?;
        Ok(g)
    }

    /// Text rows, numbers right-aligned, `.` for blanks, `X` for blocked cells.
    pub fn render(&self) -> String {
        let width = self.open().to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(self.cols) {
            let cells: Vec<String> = row
                .iter()
                .map(|&v| {
                    if v == 0 {
                        format!("{:>width$}", ".")
                    } else if v == BLOCKED {
                        format!("{:>width$}", "X")
                    } else {
                        format!("{v:>width$}")
                    }
                })
                .collect();
            s.push_str(&cells.join(" "));
            s.push('\n');
        }
        s
    }
}

/// Check a grid size: at least 2x2 and at most `MAX_CELLS` cells.
pub(crate) fn check_size(rows: usize, cols: usize) -> Result<()> {
    if rows < 2 || cols < 2 {
        return Err(Error::invalid(format!(
            "a {rows}x{cols} grid is too small: Numbrix needs at least 2x2"
        )));
    }
    if rows * cols > MAX_CELLS {
        return Err(Error::invalid(format!(
            "a {rows}x{cols} grid has {} cells; the solver handles at most {MAX_CELLS} (32x32 or an equal area)",
            rows * cols
        )));
    }
    Ok(())
}

/// One row of cells as text (`.` a blank, `X` or `-1` a blocked cell, numbers the
/// givens); errors name the row, counted from 1 in its grid.
fn parse_row(line: &str, row: usize) -> Result<Vec<u16>> {
    line.split_whitespace()
        .map(|tok| match tok {
            "." | "_" | "-" => Ok(0),
            "X" | "-1" => Ok(BLOCKED),
            _ => tok.parse::<u16>().ok().filter(|&v| v != BLOCKED).ok_or_else(|| {
                let digits = tok.strip_prefix('-').unwrap_or(tok);
                let what = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    format!("is out of range: a given is a number from 1 to the grid's open cells (at most {MAX_CELLS})")
                } else {
                    "is not a number, '.' or 'X' (cells are numbers, . for a blank or X for a blocked cell, separated by spaces)".to_string()
                };
                Error::invalid(format!(
                    "row {row}: '{}' {what}",
                    ground::input::excerpt(tok)
                ))
            }),
        })
        .collect()
}

/// The grids of `text`: blocks of rows split by blank lines (lines starting with `#`
/// are comments), each with the line it starts on.
fn blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut out: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            open = false;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if !open {
            out.push((i + 1, Vec::new()));
            open = true;
        }
        out.last_mut().expect("pushed").1.push(line);
    }
    out
}

/// Parse one grid (one item of `numbrix solve`, which names the item and its line):
/// errors name the row.
pub(crate) fn parse_grid(text: &str) -> Result<Grid> {
    let mut b = blocks(text);
    match b.len() {
        0 => Err(Error::invalid(
            "no grid in the input (one row per line, cells separated by spaces)",
        )),
        1 => {
            let (_, lines) = b.swap_remove(0);
            let rows = lines
                .iter()
                .enumerate()
                .map(|(r, l)| parse_row(l, r + 1))
                .collect::<Result<Vec<_>>>()?;
            Grid::from_rows(&rows)
        }
        n => Err(Error::invalid(format!(
            "{n} grids where one was expected (a blank line splits grids)"
        ))),
    }
}

/// Parse one or more grids (separated by blank lines). Errors name the grid, the
/// line it starts on and the row.
pub fn parse_grids(text: &str) -> Result<Vec<Grid>> {
    let b = blocks(text);
    if b.is_empty() {
        return Err(Error::invalid(
            "no grid in the input (one row per line, cells separated by spaces)",
        ));
    }
    b.iter()
        .enumerate()
        .map(|(k, (first_line, lines))| {
            let rows = lines
                .iter()
                .enumerate()
                .map(|(r, l)| parse_row(l, r + 1))
                .collect::<Result<Vec<_>>>();
            rows.and_then(|rows| Grid::from_rows(&rows)).map_err(|e| {
                Error::invalid(format!("grid {} (from line {first_line}): {e}", k + 1))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_render_round_trip() {
        let text = "1 2 .\n. . .\n9 . 7\n\n. 4\n1 .\n";
        let grids = parse_grids(text).unwrap();
        assert_eq!(grids.len(), 2);
        assert_eq!(grids[0].cells, vec![1, 2, 0, 0, 0, 0, 9, 0, 7]);
        assert_eq!(grids[1].render(), ". 4\n1 .\n");
        assert_eq!(parse_grids(&grids[0].render()).unwrap()[0], grids[0]);
    }

    #[test]
    fn bad_grids_are_named() {
        for (text, needle) in [
            ("1 2\n3\n", "rectangular"),
            ("1 x\n. .\n", "'x' is not a number"),
            ("1 5\n. .\n", "out of range"),
            ("1 1\n. .\n", "appears twice"),
            ("1\n", "too small"),
            ("", "no grid"),
            ("0 0\n0 0\n\n1 2 3\n", "grid 2"),
        ] {
            let e = parse_grids(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text:?}: {e}");
        }
        assert!(check_size(33, 32)
            .unwrap_err()
            .to_string()
            .contains("at most 1024"));
        assert!(check_size(32, 32).is_ok());
        assert!(check_size(16, 16).is_ok());
    }
}
