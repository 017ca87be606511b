//! A Numbrix grid: R x C cells, each 0 (blank) or a number 1..=R*C, row-major.
//! The text format (`numbrix solve` input): one grid row per line, cells separated by
//! spaces, a number or `.` for a blank; grids separated by blank lines.

use crate::{Error, Result};

/// Grids larger than this are refused (the solver's widest bit set holds 512 cells).
pub const MAX_CELLS: usize = 512;

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

    /// Number of non-blank cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
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
        let n = self.cells.len();
        let mut seen = vec![usize::MAX; n + 1];
        for (i, &v) in self.cells.iter().enumerate() {
            let (r, c) = (i / self.cols + 1, i % self.cols + 1);
            if v == 0 {
                continue;
            }
            if v as usize > n {
                return Err(Error::invalid(format!(
                    "row {r}, column {c}: {v} is out of range (a {}x{} grid holds 1 to {n})",
                    self.rows, self.cols
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

    /// The grid as rows of numbers (0 = blank), as in the JSON records.
    pub fn to_rows(&self) -> Vec<Vec<u16>> {
        self.cells.chunks(self.cols).map(|r| r.to_vec()).collect()
    }

    /// A grid from rows of numbers (0 = blank), as in the JSON records; the rows must be equally long.
    pub fn from_rows(rows: &[Vec<u16>]) -> Result<Self> {
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

    /// Text rows, numbers right-aligned, `.` for blanks.
    pub fn render(&self) -> String {
        let width = self.len().to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(self.cols) {
            let cells: Vec<String> = row
                .iter()
                .map(|&v| {
                    if v == 0 {
                        format!("{:>width$}", ".")
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
pub fn check_size(rows: usize, cols: usize) -> Result<()> {
    if rows < 2 || cols < 2 {
        return Err(Error::invalid(format!(
            "a {rows}x{cols} grid is too small: Numbrix needs at least 2x2"
        )));
    }
    if rows * cols > MAX_CELLS {
        return Err(Error::invalid(format!(
            "a {rows}x{cols} grid has {} cells; the solver handles at most {MAX_CELLS} (22x22 or an equal area)",
            rows * cols
        )));
    }
    Ok(())
}

/// Parse one or more grids (separated by blank lines). Errors name the grid and line.
pub fn parse_grids(text: &str) -> Result<Vec<Grid>> {
    let mut grids = Vec::new();
    let mut rows: Vec<Vec<u16>> = Vec::new();
    let mut first_line = 0;
    let finish = |rows: &mut Vec<Vec<u16>>, grids: &mut Vec<Grid>, first_line: usize| {
        if rows.is_empty() {
            return Ok(());
        }
        let g = Grid::from_rows(rows).map_err(|e| {
            Error::invalid(format!(
                "grid {} (from line {first_line}): {e}",
                grids.len() + 1
            ))
        })?;
        grids.push(g);
        rows.clear();
        Ok::<(), Error>(())
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            finish(&mut rows, &mut grids, first_line)?;
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        if rows.is_empty() {
            first_line = i + 1;
        }
        let mut row = Vec::new();
        for tok in line.split_whitespace() {
            let v = match tok {
                "." | "_" | "-" => 0,
                _ => tok.parse::<u16>().map_err(|_| {
                    Error::invalid(format!(
                        "line {}: '{}' is not a number or '.' (cells are numbers or . for a blank, separated by spaces)",
                        i + 1,
                        crate::input::excerpt(tok)
                    ))
                })?,
            };
            row.push(v);
        }
        rows.push(row);
    }
    finish(&mut rows, &mut grids, first_line)?;
    if grids.is_empty() {
        return Err(Error::invalid(
            "no grid in the input (one row per line, cells separated by spaces)",
        ));
    }
    Ok(grids)
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
        assert!(check_size(23, 23)
            .unwrap_err()
            .to_string()
            .contains("at most"));
        assert!(check_size(16, 16).is_ok());
    }
}
