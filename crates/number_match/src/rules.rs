//! The rules engine: a board is its cells in reading order (0 = empty, 1-9 a digit),
//! `cols` to a row, the last row possibly short. Rules: docs/games/number-match.md.

use ground::input::shown;
use ground::{Error, Result};
use serde::{Deserialize, Serialize};

/// Where "add" puts the copied digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Append {
    /// Straight after the last remaining digit (emptied cells after it are reused).
    #[default]
    AfterLastDigit,
    /// After the last cell, emptied cells at the end included (the article's solver).
    AfterLastCell,
    /// On a new row: the row of the last remaining digit is closed (its cells after
    /// that digit stay empty) and the copies start at the first column of the next
    /// row. On paper every add starts on a fresh ruled row, never over crossed-out
    /// printed digits.
    NewRow,
}

impl Append {
    /// The rule's name in parameters and records ("after-last-digit", ...).
    pub fn name(self) -> &'static str {
        match self {
            Append::AfterLastDigit => "after-last-digit",
            Append::AfterLastCell => "after-last-cell",
            Append::NewRow => "new-row",
        }
    }
}

impl std::str::FromStr for Append {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "after-last-digit" => Ok(Append::AfterLastDigit),
            "after-last-cell" => Ok(Append::AfterLastCell),
            "new-row" => Ok(Append::NewRow),
            _ => Err(Error::invalid(format!(
                "unknown append rule {}: choose after-last-digit, after-last-cell or new-row",
                shown(s)
            ))),
        }
    }
}

/// Whether two digits make a pair: equal, or summing to 10.
#[inline]
pub fn matches(a: u8, b: u8) -> bool {
    a == b || a + b == 10
}

/// The class of a digit: pairs are exactly two digits of one class
/// ({1,9} -> 1, {2,8} -> 2, {3,7} -> 3, {4,6} -> 4, {5} -> 5).
#[inline]
pub fn class(d: u8) -> u8 {
    d.min(10 - d)
}

/// The rules a board is played by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// Cells per row.
    pub cols: usize,
    /// Whether pairs may see each other along diagonals.
    pub diagonals: bool,
    /// Where "add" puts the copied digits.
    pub append: Append,
}

impl Rules {
    /// The digit cells after `i` that `i` sees (up to four: next in reading order,
    /// below in its column, and down the two diagonals), each with only empty cells
    /// between. Every visible pair (i, j), i < j, is found from i.
    #[inline]
    pub(crate) fn partners(&self, b: &[u8], i: usize, out: &mut [usize; 4]) -> usize {
        let n = b.len();
        let cols = self.cols;
        let mut k = 0;
        // Reading order (also the same row, and the wrap to the next row).
        let mut j = i + 1;
        while j < n && b[j] == 0 {
            j += 1;
        }
        if j < n {
            out[k] = j;
            k += 1;
        }
        // Down the column.
        let mut j = i + cols;
        while j < n && b[j] == 0 {
            j += cols;
        }
        if j < n && !out[..k].contains(&j) {
            out[k] = j;
            k += 1;
        }
        if self.diagonals {
            let c = i % cols;
            // Down-right.
            let (mut j, mut cc) = (i + cols + 1, c + 1);
            while cc < cols && j < n && b[j] == 0 {
                j += cols + 1;
                cc += 1;
            }
            if cc < cols && j < n && !out[..k].contains(&j) {
                out[k] = j;
                k += 1;
            }
            // Down-left.
            if c > 0 {
                let (mut j, mut cc) = (i + cols - 1, c - 1);
                loop {
                    if j >= n {
                        break;
                    }
                    if b[j] != 0 {
                        if !out[..k].contains(&j) {
                            out[k] = j;
                            k += 1;
                        }
                        break;
                    }
                    if cc == 0 {
                        break;
                    }
                    j += cols - 1;
                    cc -= 1;
                }
            }
        }
        k
    }

    /// Every legal pair (i < j): digits that match and see each other.
    pub fn moves(&self, b: &[u8], out: &mut Vec<(u16, u16)>) {
        out.clear();
        self.push_moves(b, out);
    }

    /// [`Rules::moves`], appended to `out` (which keeps what it held). Cell indices are
    /// u16: a board holds at most [`super::MAX_CELLS`] cells.
    pub(crate) fn push_moves(&self, b: &[u8], out: &mut Vec<(u16, u16)>) {
        debug_assert!(b.len() <= super::MAX_CELLS);
        let mut p = [0usize; 4];
        for i in 0..b.len() {
            if b[i] == 0 {
                continue;
            }
            let k = self.partners(b, i, &mut p);
            for &j in &p[..k] {
                if matches(b[i], b[j]) {
                    out.push((i as u16, j as u16));
                }
            }
        }
    }

    /// Whether cells i and j (both digits) see each other.
    pub(crate) fn sees(&self, b: &[u8], i: usize, j: usize) -> bool {
        let (i, j) = (i.min(j), i.max(j));
        let mut p = [0usize; 4];
        let k = self.partners(b, i, &mut p);
        p[..k].contains(&j)
    }

    /// Remove the pair (i, j) and any row that becomes empty.
    pub fn remove(&self, b: &mut Vec<u8>, i: usize, j: usize) {
        b[i] = 0;
        b[j] = 0;
        let (lo, hi) = (i.min(j), i.max(j));
        let (rl, rh) = (lo / self.cols, hi / self.cols);
        self.drop_row_if_empty(b, rh);
        if rl != rh {
            self.drop_row_if_empty(b, rl);
        }
    }

    fn drop_row_if_empty(&self, b: &mut Vec<u8>, r: usize) {
        let start = r * self.cols;
        let end = (start + self.cols).min(b.len());
        if b[start..end].iter().all(|&x| x == 0) {
            b.drain(start..end);
        }
    }

    /// Copy every remaining digit, in reading order, onto the end of the board.
    pub fn add(&self, b: &mut Vec<u8>) {
        let digits: Vec<u8> = b.iter().copied().filter(|&x| x != 0).collect();
        if matches!(self.append, Append::AfterLastDigit | Append::NewRow) {
            let last = b.iter().rposition(|&x| x != 0).map_or(0, |p| p + 1);
            b.truncate(last);
        }
        if self.append == Append::NewRow {
            b.resize(b.len().div_ceil(self.cols) * self.cols, 0);
        }
        b.extend_from_slice(&digits);
    }
}

/// Parse a board of digits 1-9 (`.` for an empty cell; spaces, commas and newlines
/// between them are ignored), of at most [`super::MAX_LENGTH`] cells.
pub fn parse_board(s: &str) -> Result<Vec<u8>> {
    let mut b = Vec::new();
    for (k, ch) in s.chars().enumerate() {
        match ch {
            '1'..='9' => b.push(ch as u8 - b'0'),
            '.' => b.push(0),
            '0' => {
                return Err(Error::invalid(format!(
                    "character {} is '0': digits are 1-9 (write . for an empty cell)",
                    k + 1
                )))
            }
            c if c.is_whitespace() || c == ',' => {}
            c => {
                return Err(Error::invalid(format!(
                    "character {} is {c:?}: a board is digits 1-9 (and . for an empty cell)",
                    k + 1
                )))
            }
        }
        if b.len() > super::MAX_LENGTH {
            let cells = s.chars().filter(|c| matches!(c, '0'..='9' | '.')).count();
            return Err(Error::invalid(format!(
                "the board has {cells} cells: a board has at most {} (digits and . together)",
                super::MAX_LENGTH
            )));
        }
    }
    if !b.iter().any(|&x| x != 0) {
        return Err(Error::invalid("the board has no digits"));
    }
    Ok(b)
}

/// The board as text rows of `cols` digits (`.` for empty).
pub fn render(b: &[u8], cols: usize) -> String {
    let mut s = String::new();
    for row in b.chunks(cols) {
        for &x in row {
            s.push(if x == 0 { '.' } else { (b'0' + x) as char });
        }
        s.push('\n');
    }
    s
}

/// One move: remove the pair of cells (flat indices into the board BEFORE the move),
/// or add. It lives with the rules (not the solver) so that the solver and the Monte
/// Carlo baseline, which both make moves, depend on the rules and not on each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// Remove the digits in these two cells.
    Pair(u16, u16),
    /// Copy the remaining digits after the board's end (see [`Append`]).
    Add,
}
