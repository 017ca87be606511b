//! The board on paper: how many rows a reader needs to play a puzzle with a pencil, and
//! where each cell of the game's board stands on the page during a play.
//!
//! On paper nothing moves. A crossed-out digit stays printed, a row with nothing left
//! stays on the page (the reader treats it as gone), and an add is written by hand into
//! ruled rows under the printed ones. The game's board ([`super::rules`]) is the paper
//! with the gone rows taken out: its rows are the paper rows still in play, in order,
//! each cell in the same column. So a play on paper is the game's play when the reader
//!
//! - skips gone rows when looking for a partner (for a column it changes nothing, since
//!   a gone row holds only crossed-out cells; for a diagonal it does: the diagonal steps
//!   from the row above the gone one straight to the row below it, as in the game, where
//!   the rows close up);
//! - writes an add where the game puts it: straight after the last digit still in play
//!   (over crossed-out cells after it in its row), after the last written cell of the
//!   last row in play, or (`new-row`, the books' rule) from the first column of the
//!   next fresh ruled row, then on in fresh ruled rows, never in a gone row.

use super::rules::{Append, Rules};
use super::solve::Move;

/// Ruled rows printed under the digits so that every play within `adds` adds has room.
///
/// Why it is enough: the digits on the game's board at most double at an add and only
/// fall between adds, so at the i-th add (i = 1, 2, ...) at most `len * 2^(i-1)` digits
/// are copied. The copies first fill the rest of the last row in play (0 or more cells;
/// none under `new-row`) and then fresh rows from their first column, so add i takes at most
/// `ceil(len * 2^(i-1) / cols)` fresh rows, and the sum over the adds bounds every play,
/// whatever the reader crosses out and whatever rows go in between (gone rows are never
/// written in again, which is why the bound counts fresh rows per add rather than the
/// game's cells). When `cols` divides `len` it is exact: adding at once, `adds` times,
/// fills exactly that many rows. Otherwise it is at most `adds` rows more than that
/// play needs (an exhaustive test on tiny boards found no play needing more than that
/// play, but only the bound here is proved).
pub(crate) fn ruled_rows(len: usize, cols: usize, adds: u8) -> usize {
    (1..=adds as u32)
        .map(|i| (len << (i - 1)).div_ceil(cols))
        .sum()
}

/// Rows on the page: the printed digits (the last row possibly short, its blank cells
/// ruled) and the ruled rows under them.
pub fn paper_rows(len: usize, cols: usize, adds: u8) -> usize {
    len.div_ceil(cols) + ruled_rows(len, cols, adds)
}

/// A cell of a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Crossed out before this phase.
    Empty,
    /// A digit, with the number of the pair that crosses it out in this phase (None: it
    /// is still there at the add that ends the phase).
    Digit(u8, Option<u32>),
}

/// The board as it stands at the start of a phase (the start, or just after an add):
/// the rows in play, each with its row number on the page (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phase {
    /// The rows in play, each as (row number on the page, its cells).
    pub rows: Vec<(usize, Vec<Cell>)>,
}

/// A play on paper: the phases, the paper rows it wrote in (printed ones included), and
/// the page before each move and after the last, row after row: `None` a cell never
/// written, `Some(0)` a crossed-out cell, `Some(d)` a digit in play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Play {
    /// The start's phase, then one after each add.
    pub phases: Vec<Phase>,
    /// Paper rows written in, printed ones included.
    pub rows_used: usize,
    /// The page before each move and after the last, row after row.
    pub pages: Vec<Vec<Option<u8>>>,
}

/// Replay `moves` on paper. Pairs are numbered 1, 2, 3, ... across the whole play.
/// Moves must be legal (as [`super::replay`] checks); an illegal pair panics.
pub fn play(rules: &Rules, board: &[u8], moves: &[Move]) -> Play {
    let cols = rules.cols;
    let mut b = board.to_vec();
    // Paper row (0-based) of each row of the game's board.
    let mut phys: Vec<usize> = (0..b.len().div_ceil(cols)).collect();
    let mut fresh = phys.len();
    let mut phases = Vec::new();
    let mut n = 0u32;
    let start = |b: &[u8]| -> (Vec<u8>, Vec<Option<u32>>, Vec<usize>) {
        (b.to_vec(), vec![None; b.len()], (0..b.len()).collect())
    };
    let (mut snap, mut marks, mut ids) = start(&b);
    let mut snap_phys = phys.clone();
    let close = |snap: &[u8], marks: &[Option<u32>], snap_phys: &[usize]| Phase {
        rows: snap
            .chunks(cols)
            .zip(marks.chunks(cols))
            .zip(snap_phys)
            .map(|((cells, marks), &r)| {
                let row = cells
                    .iter()
                    .zip(marks)
                    .map(|(&d, &m)| {
                        if d == 0 {
                            Cell::Empty
                        } else {
                            Cell::Digit(d, m)
                        }
                    })
                    .collect();
                (r + 1, row)
            })
            .collect(),
    };
    let mut pages: Vec<Vec<Option<u8>>> = Vec::new();
    let mut page: Vec<Option<u8>> = Vec::new();
    let write = |page: &mut Vec<Option<u8>>, b: &[u8], phys: &[usize]| {
        for (r, cells) in b.chunks(cols).enumerate() {
            let at = phys[r] * cols;
            if page.len() < at + cols {
                page.resize(at + cols, None);
            }
            for (c, &d) in cells.iter().enumerate() {
                // An empty cell never written in (the rest of a row a new-row add
                // closed) stays blank: only a digit crossed out is a crossed-out cell.
                if d != 0 || page[at + c].is_some() {
                    page[at + c] = Some(d);
                }
            }
        }
    };
    write(&mut page, &b, &phys);
    pages.push(page.clone());
    for m in moves {
        match *m {
            Move::Pair(i, j) => {
                let (i, j) = (i as usize, j as usize);
                n += 1;
                marks[ids[i]] = Some(n);
                marks[ids[j]] = Some(n);
                for k in [i, j] {
                    page[phys[k / cols] * cols + k % cols] = Some(0);
                }
                let mut t = b.clone();
                t[i] = 0;
                t[j] = 0;
                let mut gone: Vec<usize> = vec![i / cols, j / cols];
                gone.sort_unstable();
                gone.dedup();
                gone.retain(|&r| {
                    let end = ((r + 1) * cols).min(t.len());
                    t[r * cols..end].iter().all(|&x| x == 0)
                });
                rules.remove(&mut b, i, j);
                for &r in gone.iter().rev() {
                    let end = ((r + 1) * cols).min(ids.len());
                    ids.drain(r * cols..end);
                    phys.remove(r);
                }
                assert_eq!(ids.len(), b.len(), "row bookkeeping follows the rules");
            }
            Move::Add => {
                phases.push(close(&snap, &marks, &snap_phys));
                let last = match rules.append {
                    Append::AfterLastDigit | Append::NewRow => {
                        b.iter().rposition(|&x| x != 0).map_or(0, |p| p + 1)
                    }
                    Append::AfterLastCell => b.len(),
                };
                rules.add(&mut b);
                let kept = last.div_ceil(cols);
                phys.truncate(kept);
                let new = b.len().div_ceil(cols) - kept;
                phys.extend(fresh..fresh + new);
                fresh += new;
                (snap, marks, ids) = start(&b);
                snap_phys = phys.clone();
            }
        }
        write(&mut page, &b, &phys);
        pages.push(page.clone());
    }
    phases.push(close(&snap, &marks, &snap_phys));
    Play {
        phases,
        rows_used: fresh,
        pages,
    }
}
