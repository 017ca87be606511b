//! Drawing a Numbrix grid: thin cell lines inside a thick border, the givens in large
//! bold numbers; in a full solution, the filled numbers in a lighter regular face over a
//! faint line that traces the path from 1 to N. The compact answer drops the path and
//! shades the givens' squares, with the givens bold and the filled numbers regular, all
//! black for greyscale print. The worked example shades the numbers a step writes.

use ground::canvas::{cap_height, fit_size, pt, wrap, Align, Canvas, Color, Face, Rect, Stroke};
use ground::canvas::{MIN_LINE_MM, MIN_TEXT_PT, MM_PER_PT};

use super::grid::BLOCKED;

const GRID: Color = Color::grey(140);
const PATH: Color = Color::rgb(190, 215, 240);
const FILLED: Color = Color::rgb(40, 80, 150);
/// The shade of the givens' squares in the answer and of new numbers in the example.
const SHADE: Color = Color::grey(215);
/// The fill of a blocked cell: solid, dark enough to read as "not a square" in
/// greyscale, light enough that the grid lines around it stay visible.
const BLOCK: Color = Color::grey(70);
/// The widest outer border, in mm (kept inside the area).
const BORDER_MAX: f32 = 0.9;

/// How one square is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A blocked cell: solid, no number.
    Blocked,
    /// A printed clue: bold.
    Given(u16),
    /// A number written in: regular.
    Filled(u16),
    /// A number written in and shaded (the example's new numbers, or the answer's
    /// givens when `Shaded(v, true)`: bold).
    Shaded(u16, bool),
}

/// Cell size and top-left corner of the grid inside `area`.
fn geometry(area: Rect, rows: usize, cols: usize) -> (f32, f32, f32) {
    let area = area.inset(BORDER_MAX / 2.0);
    let s = (area.w / cols as f32).min(area.h / rows as f32);
    let x0 = area.x + (area.w - s * cols as f32) / 2.0;
    let y0 = area.y + (area.h - s * rows as f32) / 2.0;
    (s, x0, y0)
}

fn lines(canvas: &mut Canvas, s: f32, x0: f32, y0: f32, rows: usize, cols: usize) {
    let thin = Stroke::new(GRID, (s * 0.02).clamp(MIN_LINE_MM, 0.25));
    for r in 1..rows {
        let y = y0 + r as f32 * s;
        canvas.line(pt(x0, y), pt(x0 + cols as f32 * s, y), thin);
    }
    for c in 1..cols {
        let x = x0 + c as f32 * s;
        canvas.line(pt(x, y0), pt(x, y0 + rows as f32 * s), thin);
    }
    canvas.rect(
        Rect::new(x0, y0, cols as f32 * s, rows as f32 * s),
        None,
        Some(Stroke::new(
            Color::BLACK,
            (s * 0.06).clamp(0.35, BORDER_MAX),
        )),
    );
}

/// Fill the blocked cells (those `blocked` says) solid.
fn blocks(
    canvas: &mut Canvas,
    s: f32,
    x0: f32,
    y0: f32,
    cols: usize,
    blocked: impl Iterator<Item = bool>,
) {
    for (c, b) in blocked.enumerate() {
        if b {
            let r = Rect::new(x0 + (c % cols) as f32 * s, y0 + (c / cols) as f32 * s, s, s);
            canvas.rect(r, Some(BLOCK), None);
        }
    }
}

/// The size of every number on a grid of cell size `s` whose largest number is `n`,
/// fitted to the widest number.
fn number_size(s: f32, n: usize) -> f32 {
    let widest = n.to_string();
    fit_size(&widest, Face::Bold, s * 0.78, s * 0.62, 28.0)
}

pub fn grid(
    canvas: &mut Canvas,
    area: Rect,
    rows: usize,
    cols: usize,
    givens: &[u16],
    solution: Option<&[u16]>,
) {
    let (s, x0, y0) = geometry(area, rows, cols);
    let centre = |c: usize| {
        pt(
            x0 + (c % cols) as f32 * s + s / 2.0,
            y0 + (c / cols) as f32 * s + s / 2.0,
        )
    };
    let n = givens.iter().filter(|&&v| v != BLOCKED).count();
    blocks(
        canvas,
        s,
        x0,
        y0,
        cols,
        givens.iter().map(|&v| v == BLOCKED),
    );

    if let Some(sol) = solution {
        let mut order = vec![0usize; n];
        for (c, &v) in sol.iter().enumerate() {
            if v != BLOCKED {
                order[v as usize - 1] = c;
            }
        }
        canvas.polyline(
            order.iter().map(|&c| centre(c)).collect(),
            Stroke::new(PATH, (s * 0.12).max(0.3)),
        );
    }
    lines(canvas, s, x0, y0, rows, cols);

    let size = number_size(s, n);
    for c in 0..rows * cols {
        let p = centre(c);
        let y = p.y + cap_height(size) / 2.0;
        if givens[c] == BLOCKED {
            continue;
        }
        if givens[c] != 0 {
            canvas.text(
                p.x,
                y,
                size,
                Face::Bold,
                Align::Center,
                &givens[c].to_string(),
            );
        } else if let Some(sol) = solution {
            canvas.text_colored(
                pt(p.x, y),
                size * 0.9,
                Face::Regular,
                Align::Center,
                FILLED,
                &sol[c].to_string(),
            );
        }
    }
}

/// A grid of `cells` (row-major) in black: bold givens, regular written numbers,
/// shaded squares where asked.
pub fn cells(canvas: &mut Canvas, area: Rect, rows: usize, cols: usize, cells: &[Cell]) {
    let (s, x0, y0) = geometry(area, rows, cols);
    for (c, cell) in cells.iter().enumerate() {
        if let Cell::Shaded(..) = cell {
            let r = Rect::new(x0 + (c % cols) as f32 * s, y0 + (c / cols) as f32 * s, s, s);
            canvas.rect(r, Some(SHADE), None);
        }
    }
    blocks(
        canvas,
        s,
        x0,
        y0,
        cols,
        cells.iter().map(|c| *c == Cell::Blocked),
    );
    lines(canvas, s, x0, y0, rows, cols);
    let n = cells.iter().filter(|c| **c != Cell::Blocked).count();
    let size = number_size(s, n);
    for (c, cell) in cells.iter().enumerate() {
        let (v, face) = match *cell {
            Cell::Empty | Cell::Blocked => continue,
            Cell::Given(v) | Cell::Shaded(v, true) => (v, Face::Bold),
            Cell::Filled(v) | Cell::Shaded(v, false) => (v, Face::Regular),
        };
        let p = pt(
            x0 + (c % cols) as f32 * s + s / 2.0,
            y0 + (c / cols) as f32 * s + s / 2.0,
        );
        canvas.text(
            p.x,
            p.y + cap_height(size) / 2.0,
            size,
            face,
            Align::Center,
            &v.to_string(),
        );
    }
}

/// The worked example: each grid with its line of text beside it, one step a row,
/// as large as `area` allows. False if the text would be under 7 pt.
pub fn steps(
    canvas: &mut Canvas,
    area: Rect,
    rows: usize,
    cols: usize,
    steps: &[(Vec<Cell>, String)],
) -> bool {
    let n = steps.len() as f32;
    let gap = (area.h * 0.03).clamp(1.0, 4.0);
    let row_h = (area.h - gap * (n - 1.0)) / n;
    // The grid takes the row's height (at most a third of the width); the text the rest.
    let grid_h = row_h.min(area.w / 3.0);
    let grid_w = grid_h * cols as f32 / rows as f32;
    let text_x = area.x + grid_w + (area.w * 0.04).min(6.0);
    let text_w = area.right() - text_x;
    // The largest text size (7 to 11 pt) whose lines fit beside the grid.
    let fits = |size: f32| {
        steps.iter().all(|(_, t)| {
            wrap(t, size, Face::Regular, text_w).len() as f32 * size * MM_PER_PT * 1.3 <= row_h
        })
    };
    let mut size = 11.0f32;
    while size > MIN_TEXT_PT && !fits(size) {
        size -= 0.5;
    }
    if !fits(size) || text_w <= 0.0 {
        return false;
    }
    for (i, (grid, text)) in steps.iter().enumerate() {
        let y = area.y + i as f32 * (row_h + gap);
        cells(
            canvas,
            Rect::new(area.x, y + (row_h - grid_h) / 2.0, grid_w, grid_h),
            rows,
            cols,
            grid,
        );
        let lines = wrap(text, size, Face::Regular, text_w);
        let lead = size * MM_PER_PT * 1.3;
        let block = lines.len() as f32 * lead;
        let mut base = y + (row_h - block) / 2.0 + size * MM_PER_PT;
        for line in lines {
            canvas.text(text_x, base, size, Face::Regular, Align::Left, &line);
            base += lead;
        }
    }
    true
}
