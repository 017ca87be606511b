//! Drawing a Number Match board for paper play: the digits in a grid with column
//! letters and row numbers and ruled rows under them for the adds; the answer as the
//! board at the start and after each add, each digit marked with its move's number.

use super::paper::{self, Cell, Phase};
use super::solve::Move;
use ground::canvas::{fit_size, pt, Align, Canvas, Color, Face, Rect, Stroke};

/// Width of the row-number strip and height of the column-letter strip, in cells.
const LABEL: f32 = 1.0;
/// Space between two blocks of rows, in cells.
const GAP: f32 = 0.6;
/// Height of a phase's heading line and the space after a phase, in cells (answers).
const HEAD: f32 = 0.8;
const AFTER: f32 = 0.35;
/// Space marking rows that have gone between two shown rows, in cells (answers).
const SKIP: f32 = 0.3;

/// A column's name: `a`-`z`, then `A`-`Z`, then (boards of 53 to 64 columns) `za`-`zl`.
/// A name is letters and a cell's name adds the row's digits, so `za1b2` reads one
/// way only. (Past 52 columns the single letters used to run on into `[`, `\`, ...
/// and then `a`-`f` again, naming two columns alike.)
pub(crate) fn column_name(c: usize) -> String {
    match c {
        0..26 => ((b'a' + c as u8) as char).to_string(),
        26..52 => ((b'A' + (c - 26) as u8) as char).to_string(),
        _ => format!("z{}", (b'a' + ((c - 52) % 26) as u8) as char),
    }
}

/// A cell as a player names it: column name and row number, rows as they stand.
pub fn cell_name(i: usize, cols: usize) -> String {
    format!("{}{}", column_name(i % cols), i / cols + 1)
}

/// The moves compactly: `a1b1` for a pair, `+` for an add.
pub fn notation(moves: &[Move], cols: usize) -> String {
    moves
        .iter()
        .map(|m| match *m {
            Move::Add => "+".to_string(),
            Move::Pair(a, b) => format!(
                "{}{}",
                cell_name(a as usize, cols),
                cell_name(b as usize, cols)
            ),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the page's rows are laid out: in `blocks` side by side of `per` rows each (the
/// last possibly shorter), read like a newspaper: the top row of a block follows the
/// bottom row of the block to its left. One block up to 3 rows per column (27 rows
/// for 9 columns), so a board stays about as tall as a page at a width where a cell
/// takes handwriting.
pub fn blocks(rows: usize, cols: usize) -> (usize, usize) {
    let max = (3 * cols).max(4);
    let blocks = rows.div_ceil(max).max(1);
    (blocks, rows.div_ceil(blocks))
}

/// Space between the board and its spare copy, in cells.
const SPARE_GAP: f32 = 1.2;
/// Height of the line over the spare copy, in cells.
const SPARE_HEAD: f32 = 0.8;

/// Width and height of one copy of the board, in cells.
fn copy_size(len: usize, cols: usize, adds: u8) -> (f32, f32) {
    let rows = paper::paper_rows(len, cols, adds);
    let (nb, per) = blocks(rows, cols);
    (
        nb as f32 * (cols as f32 + LABEL) + (nb - 1) as f32 * GAP,
        LABEL + per as f32,
    )
}

/// Width and height of the puzzle drawing, in cells: the board, and with `spare` a
/// second copy beside it under a line that says what it is for.
fn paper_size(len: usize, cols: usize, adds: u8, spare: bool) -> (f32, f32) {
    let (w, h) = copy_size(len, cols, adds);
    if spare {
        (2.0 * w + SPARE_GAP, SPARE_HEAD + h)
    } else {
        (w, h)
    }
}

/// Width / height of the puzzle drawing.
pub(crate) fn paper_aspect(len: usize, cols: usize, adds: u8, spare: bool) -> f32 {
    let (w, h) = paper_size(len, cols, adds, spare);
    w / h
}

/// The words over a spare copy.
pub const SPARE_TITLE: &str = "Spare copy: start again here";

fn grid_stroke(s: f32) -> Stroke {
    Stroke::new(Color::grey(110), (s * 0.03).clamp(0.2, 0.3))
}

fn label_size(s: f32) -> f32 {
    fit_size("00", Face::Regular, s * LABEL * 0.85, s * 0.65, 10.0)
}

/// The puzzle for paper play: the digits, then blank ruled cells for every cell the
/// adds can need ([`paper::ruled_rows`]), column letters over each block, a row number
/// before every row; with `spare`, a second copy to the right, for a fresh start.
pub fn paper(canvas: &mut Canvas, area: Rect, digits: &[u8], cols: usize, adds: u8, spare: bool) {
    // Room for half the widest line around the edge.
    let area = area.inset(0.3);
    let (w, h) = paper_size(digits.len(), cols, adds, spare);
    let s = (area.w / w).min(area.h / h);
    let x0 = area.x + (area.w - s * w) / 2.0;
    let top = area.y + (area.h - s * h) / 2.0;
    if !spare {
        copy(canvas, x0, top, s, digits, cols, adds);
        return;
    }
    let (cw, _) = copy_size(digits.len(), cols, adds);
    let y = top + s * SPARE_HEAD;
    copy(canvas, x0, y, s, digits, cols, adds);
    let sx = x0 + (cw + SPARE_GAP) * s;
    copy(canvas, sx, y, s, digits, cols, adds);
    let size = fit_size(
        SPARE_TITLE,
        Face::Regular,
        cw * s,
        s * SPARE_HEAD * 0.8,
        10.0,
    );
    canvas.text(
        sx + s * LABEL,
        top + s * SPARE_HEAD * 0.7,
        size,
        Face::Regular,
        Align::Left,
        SPARE_TITLE,
    );
}

/// One copy of the board with its top-left corner (labels included) at (x0, top), `s`
/// mm a cell.
fn copy(canvas: &mut Canvas, x0: f32, top: f32, s: f32, digits: &[u8], cols: usize, adds: u8) {
    let rows = paper::paper_rows(digits.len(), cols, adds);
    let (nb, per) = blocks(rows, cols);
    let y0 = top + s * LABEL;
    let thin = grid_stroke(s);
    let dsize = fit_size("8", Face::Bold, s * 0.65, s * 0.65, 26.0);
    let lsize = label_size(s);
    for b in 0..nb {
        let bx = x0 + b as f32 * (cols as f32 + LABEL + GAP) * s + s * LABEL;
        for c in 0..cols {
            let at = pt(bx + (c as f32 + 0.5) * s, y0 - s * LABEL / 2.0);
            canvas.text_centered(at, lsize, Face::Regular, &column_name(c));
        }
        for k in 0..per {
            let r = b * per + k;
            if r >= rows {
                break;
            }
            let y = y0 + k as f32 * s;
            let at = pt(bx - s * LABEL / 2.0, y + s / 2.0);
            canvas.text_centered(at, lsize, Face::Regular, &(r + 1).to_string());
            for c in 0..cols {
                let cell = Rect::new(bx + c as f32 * s, y, s, s);
                canvas.rect(cell, None, Some(thin));
                if let Some(&d) = digits.get(r * cols + c) {
                    if d != 0 {
                        canvas.text_centered(cell.center(), dsize, Face::Bold, &d.to_string());
                    }
                }
            }
        }
        // The printed digits end with a firmer line, so the ruled part reads as room
        // for writing.
        let printed = digits.len().div_ceil(cols);
        if printed > b * per && printed < (b + 1) * per {
            let y = y0 + (printed - b * per) as f32 * s;
            let firm = Stroke::new(Color::BLACK, (s * 0.05).clamp(0.3, 0.5));
            let full = digits.len() % cols;
            if full == 0 {
                canvas.line(pt(bx, y), pt(bx + cols as f32 * s, y), firm);
            } else {
                let xm = bx + full as f32 * s;
                canvas.polyline(
                    vec![
                        pt(bx, y),
                        pt(xm, y),
                        pt(xm, y - s),
                        pt(bx + cols as f32 * s, y - s),
                    ],
                    firm,
                );
            }
        }
    }
}

/// Height of the answer drawing, in cells.
fn answer_height(phases: &[Phase]) -> f32 {
    phases
        .iter()
        .map(|ph| {
            let skips = ph.rows.windows(2).filter(|w| w[1].0 != w[0].0 + 1).count();
            HEAD + ph.rows.len() as f32 + skips as f32 * SKIP
        })
        .sum::<f32>()
        + AFTER * (phases.len() - 1) as f32
}

/// Width / height of the answer drawing.
pub fn answer_aspect(phases: &[Phase], cols: usize) -> f32 {
    (cols as f32 + LABEL) / answer_height(phases).max(1.0)
}

/// The heading of phase `k`.
pub(crate) fn phase_title(k: usize) -> String {
    if k == 0 {
        "Start".into()
    } else {
        format!("After add {k}")
    }
}

/// The answer: each phase's board (rows in play, numbered as on the page), a crossed
/// cell with its digit small at the top left and its move's number in bold, a digit
/// still there at the add large and ringed, cells crossed out before shaded.
pub fn answer(canvas: &mut Canvas, area: Rect, phases: &[Phase], cols: usize) {
    // Room for half the widest line around the edge.
    let area = area.inset(0.3);
    let w = cols as f32 + LABEL;
    let h = answer_height(phases);
    let s = (area.w / w).min(area.h / h);
    let x0 = area.x + (area.w - s * w) / 2.0 + s * LABEL;
    let mut y = area.y + (area.h - s * h) / 2.0;
    let thin = grid_stroke(s);
    let most = phases
        .iter()
        .flat_map(|ph| ph.rows.iter().flat_map(|r| r.1.iter()))
        .filter_map(|c| match c {
            Cell::Digit(_, Some(n)) => Some(*n),
            _ => None,
        })
        .max()
        .unwrap_or(1);
    let widest = "8".repeat(most.to_string().len());
    let nsize = fit_size(&widest, Face::Bold, s * 0.9, s * 0.5, 14.0);
    let small = fit_size("8", Face::Regular, s * 0.4, s * 0.45, 10.0);
    let big = fit_size("8", Face::Bold, s * 0.5, s * 0.5, 20.0);
    let lsize = label_size(s);
    let hsize = fit_size(
        "After add 8",
        Face::Bold,
        w * s * 0.9,
        s * HEAD * 0.75,
        10.0,
    );
    for (k, ph) in phases.iter().enumerate() {
        canvas.text(
            x0 - s * LABEL,
            y + s * HEAD * 0.72,
            hsize,
            Face::Bold,
            Align::Left,
            &phase_title(k),
        );
        y += s * HEAD;
        let mut prev: Option<usize> = None;
        for (r, cells) in &ph.rows {
            if prev.is_some_and(|p| *r != p + 1) {
                y += s * SKIP;
            }
            prev = Some(*r);
            canvas.text_centered(
                pt(x0 - s * LABEL / 2.0, y + s / 2.0),
                lsize,
                Face::Regular,
                &r.to_string(),
            );
            for (c, cell) in cells.iter().enumerate() {
                let rect = Rect::new(x0 + c as f32 * s, y, s, s);
                match *cell {
                    Cell::Empty => canvas.rect(rect, Some(Color::grey(215)), Some(thin)),
                    Cell::Digit(d, None) => {
                        // Still there at the add: ringed, so it is never read as a
                        // move number.
                        canvas.rect(rect, None, Some(thin));
                        canvas.text_centered(rect.center(), big, Face::Bold, &d.to_string());
                        canvas.circle(
                            rect.center(),
                            s * 0.4,
                            None,
                            Some(Stroke::new(Color::BLACK, (s * 0.04).clamp(0.2, 0.4))),
                        );
                    }
                    Cell::Digit(d, Some(n)) => {
                        canvas.rect(rect, None, Some(thin));
                        canvas.text_colored(
                            pt(
                                rect.x + s * 0.08,
                                rect.y + s * 0.08 + ground::canvas::cap_height(small),
                            ),
                            small,
                            Face::Regular,
                            Align::Left,
                            Color::grey(90),
                            &d.to_string(),
                        );
                        canvas.text(
                            rect.right() - s * 0.1,
                            rect.bottom() - s * 0.1,
                            nsize,
                            Face::Bold,
                            Align::Right,
                            &n.to_string(),
                        );
                    }
                }
            }
            y += s;
        }
        y += s * AFTER;
    }
}

/// The worked example: one small drawing per move of `play` (the page before a pair,
/// its two cells ringed; the page after an add, the copies ringed), each with its line
/// of `steps` under it, in 2 or 3 columns, whichever gives the larger cells.
pub fn example(canvas: &mut Canvas, area: Rect, play: &paper::Play, cols: usize, steps: &[&str]) {
    // Room for half the widest line around the edge.
    let area = area.inset(0.3);
    let n = steps.len();
    let rows = play.rows_used;
    let text_pt = 8.0;
    let lead = text_pt * ground::canvas::MM_PER_PT * 1.3;
    let gap = 4.0;
    let layout = |per_row: usize| {
        let pw = (area.w - gap * (per_row - 1) as f32) / per_row as f32;
        let lines = steps
            .iter()
            .map(|t| ground::canvas::wrap(&format!("{}. {t}", n), text_pt, Face::Regular, pw).len())
            .max()
            .unwrap_or(1);
        let panel_rows = n.div_ceil(per_row);
        let ph = (area.h - gap * (panel_rows - 1) as f32) / panel_rows as f32;
        let board_h = ph - lines as f32 * lead - 1.5;
        let s = (pw / (cols as f32 + LABEL)).min(board_h / rows as f32);
        (s, pw, ph)
    };
    let per_row = if layout(3).0 >= layout(2).0 { 3 } else { 2 };
    let (s, pw, ph) = layout(per_row);
    let thin = grid_stroke(s);
    let dsize = fit_size("8", Face::Bold, s * 0.6, s * 0.6, 18.0);
    let lsize = label_size(s);
    for (k, step) in steps.iter().enumerate() {
        let px = area.x + (k % per_row) as f32 * (pw + gap);
        let py = area.y + (k / per_row) as f32 * (ph + gap);
        let before = &play.pages[k];
        let after = &play.pages[k + 1];
        let added = after.len() > before.len()
            || after
                .iter()
                .zip(before)
                .any(|(a, b)| a.is_some_and(|d| d != 0) && a != b);
        let page = if added { after } else { before };
        let ring = |i: usize| {
            let (b, a) = (
                before.get(i).copied().flatten(),
                after.get(i).copied().flatten(),
            );
            if added {
                a.is_some_and(|d| d != 0) && a != b
            } else {
                b.is_some_and(|d| d != 0) && a == Some(0)
            }
        };
        let bw = s * (cols as f32 + LABEL);
        let x0 = px + (pw - bw) / 2.0 + s * LABEL;
        for r in 0..rows {
            let y = py + r as f32 * s;
            canvas.text_centered(
                pt(x0 - s * LABEL / 2.0, y + s / 2.0),
                lsize,
                Face::Regular,
                &(r + 1).to_string(),
            );
            for c in 0..cols {
                let i = r * cols + c;
                let rect = Rect::new(x0 + c as f32 * s, y, s, s);
                let row = |c: usize| page.get(r * cols + c).copied().flatten();
                let gone = (0..cols).any(|c| row(c) == Some(0))
                    && (0..cols).all(|c| matches!(row(c), Some(0) | None));
                match page.get(i).copied().flatten() {
                    Some(0) => {
                        // A crossed-out digit, as a pencil leaves it: struck through.
                        let fill = gone.then_some(Color::grey(225));
                        canvas.rect(rect, fill, Some(thin));
                        let was = play.pages[..=k]
                            .iter()
                            .rev()
                            .find_map(|pg| pg.get(i).copied().flatten().filter(|&d| d != 0));
                        if let Some(d) = was {
                            let at = rect.center();
                            canvas.text_colored(
                                pt(at.x, at.y + ground::canvas::cap_height(dsize) / 2.0),
                                dsize,
                                Face::Bold,
                                Align::Center,
                                Color::grey(150),
                                &d.to_string(),
                            );
                            canvas.line(
                                pt(rect.x + s * 0.22, rect.bottom() - s * 0.22),
                                pt(rect.right() - s * 0.22, rect.y + s * 0.22),
                                Stroke::new(Color::BLACK, (s * 0.04).clamp(0.25, 0.5)),
                            );
                        }
                    }
                    Some(d) => {
                        canvas.rect(rect, None, Some(thin));
                        canvas.text_centered(rect.center(), dsize, Face::Bold, &d.to_string());
                    }
                    None => canvas.rect(rect, None, Some(thin)),
                }
                if ring(i) {
                    canvas.circle(
                        rect.center(),
                        s * 0.4,
                        None,
                        Some(Stroke::new(Color::BLACK, (s * 0.05).clamp(0.3, 0.6))),
                    );
                }
            }
        }
        let mut y = py + rows as f32 * s + 1.5 + text_pt * ground::canvas::MM_PER_PT;
        for line in ground::canvas::wrap(&format!("{}. {step}", k + 1), text_pt, Face::Regular, pw)
        {
            canvas.text(px, y, text_pt, Face::Regular, Align::Left, &line);
            y += lead;
        }
    }
}
