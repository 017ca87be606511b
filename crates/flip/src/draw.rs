//! Drawing a Flip board: dots as filled circles, dashes as short bars, the edge ring
//! shaded (no block can be centred there), letters above and numbers beside the inner
//! cells. On a board with an even number of rows or columns there is no single middle
//! cell, so the target cell gets a bold square frame. In a full solution the centres of
//! the blocks to flip are circled; the compact answer leaves out the dots and dashes and
//! fills the centres of the blocks to flip.

use super::bits::Bits;
use super::model::{MoveGrid, LETTERS};
use ground::canvas::{
    cap_height, fit_size, pt, wrap, Canvas, Color, Face, Rect, Stroke, MM_PER_PT,
};
use ground::canvas::{Align, MIN_LINE_MM, MIN_TEXT_PT};

/// The widest outer border, in mm.
const BORDER_MAX: f32 = 0.8;
const EDGE_SHADE: Color = Color::grey(228);
const GRID: Color = Color::grey(150);
/// Label room, in cells, above and left of the board.
pub(crate) const LABEL_ROOM: f32 = 0.8;
const MOVE_MARK: Color = Color::rgb(200, 30, 30);
/// The fill of a block centre in the compact answer (dark enough for greyscale print).
const ANSWER_FILL: Color = Color::grey(70);
/// The outline of the block just flipped in the worked example.
const BLOCK_OUTLINE: Color = Color::grey(60);

/// What to draw on the board besides its grid and labels.
#[derive(Default)]
pub struct Marks<'a> {
    /// Dots and dashes (None: leave the cells blank).
    pub cells: Option<&'a Bits>,
    /// Move centres to circle (full solution).
    pub circled: &'a [usize],
    /// Move centres to fill (compact answer).
    pub filled: &'a [usize],
    /// A move whose cells get a bold outline (worked example).
    pub outlined: Option<usize>,
}

/// Whether the board has no single middle cell, so its target is marked.
pub(crate) fn target_marked(l: &MoveGrid) -> bool {
    l.board_rows().is_multiple_of(2) || l.board_cols().is_multiple_of(2)
}

/// The cell size and top-left corner of the board inside `area`.
fn geometry(area: Rect, l: &MoveGrid) -> (f32, f32, f32) {
    // Keep the outer border's half width inside the area.
    let area = area.inset(BORDER_MAX / 2.0);
    let (br, bc) = (l.board_rows(), l.board_cols());
    let s = (area.w / (bc as f32 + LABEL_ROOM)).min(area.h / (br as f32 + LABEL_ROOM));
    let total_w = s * (bc as f32 + LABEL_ROOM);
    let total_h = s * (br as f32 + LABEL_ROOM);
    // Centre the board and its labels together (labels on the top and the left).
    let x0 = area.x + (area.w - total_w) / 2.0 + s * LABEL_ROOM;
    let y0 = area.y + (area.h - total_h) / 2.0 + s * LABEL_ROOM;
    (s, x0, y0)
}

pub fn board(canvas: &mut Canvas, area: Rect, l: &MoveGrid, cells: &Bits, moves: Option<&[usize]>) {
    draw(
        canvas,
        area,
        l,
        &Marks {
            cells: Some(cells),
            circled: moves.unwrap_or(&[]),
            ..Marks::default()
        },
    );
}

/// The compact answer: the board's grid and labels with the block centres filled.
pub fn answer(canvas: &mut Canvas, area: Rect, l: &MoveGrid, moves: &[usize]) {
    draw(
        canvas,
        area,
        l,
        &Marks {
            filled: moves,
            ..Marks::default()
        },
    );
}

/// Draw the board `l` in `area`: its shaded edge, grid and labels, with `marks`.
pub fn draw(canvas: &mut Canvas, area: Rect, l: &MoveGrid, marks: &Marks) {
    let (s, x0, y0) = geometry(area, l);
    let b = Board { l, s, x0, y0 };
    b.shade_edge(canvas);
    for &m in marks.filled {
        let (r, c) = l.move_centre(m);
        canvas.rect(b.cell(r, c).inset(s * 0.14), Some(ANSWER_FILL), None);
    }
    b.lines(canvas);
    b.labels(canvas);
    if let Some(cells) = marks.cells {
        b.dots_and_dashes(canvas, cells);
    }
    // The target of a board without a single middle: a bold square just inside the cell.
    if target_marked(l) {
        let (r, c) = l.target_cell();
        let w = (s * 0.1).max(MIN_LINE_MM * 2.0);
        canvas.rect(
            b.cell(r, c).inset(w / 2.0 + s * 0.03),
            None,
            Some(Stroke::new(Color::BLACK, w)),
        );
    }
    if let Some(m) = marks.outlined {
        b.outline_move(canvas, m);
    }
    let ring = Stroke::new(MOVE_MARK, (s * 0.08).max(MIN_LINE_MM));
    for &m in marks.circled {
        let (r, c) = l.move_centre(m);
        canvas.circle(b.cell(r, c).center(), s * 0.42, None, Some(ring));
    }
}

/// A board placed in its area: cells of `s` mm from the top-left corner (`x0`, `y0`).
struct Board<'a> {
    l: &'a MoveGrid,
    s: f32,
    x0: f32,
    y0: f32,
}

impl Board<'_> {
    /// The square of the cell in board row `r`, column `c`.
    fn cell(&self, r: usize, c: usize) -> Rect {
        let s = self.s;
        Rect::new(self.x0 + c as f32 * s, self.y0 + r as f32 * s, s, s)
    }

    /// Shade the ring where no move can be centred.
    fn shade_edge(&self, canvas: &mut Canvas) {
        let (br, bc) = (self.l.board_rows(), self.l.board_cols());
        let k = self.l.shape.margin();
        if k > 0 {
            for r in 0..br {
                for c in 0..bc {
                    if r < k || c < k || r >= br - k || c >= bc - k {
                        canvas.rect(self.cell(r, c), Some(EDGE_SHADE), None);
                    }
                }
            }
        }
    }

    /// Thin inner lines, thick outer border.
    fn lines(&self, canvas: &mut Canvas) {
        let (br, bc) = (self.l.board_rows(), self.l.board_cols());
        let (s, x0, y0) = (self.s, self.x0, self.y0);
        let thin = Stroke::new(GRID, (s * 0.03).clamp(MIN_LINE_MM, 0.25));
        for r in 1..br {
            let y = y0 + r as f32 * s;
            canvas.line(pt(x0, y), pt(x0 + bc as f32 * s, y), thin);
        }
        for c in 1..bc {
            let x = x0 + c as f32 * s;
            canvas.line(pt(x, y0), pt(x, y0 + br as f32 * s), thin);
        }
        let thick = Stroke::new(Color::BLACK, (s * 0.08).clamp(0.3, BORDER_MAX));
        canvas.rect(
            Rect::new(x0, y0, bc as f32 * s, br as f32 * s),
            None,
            Some(thick),
        );
    }

    /// Labels: letters over the inner columns, numbers beside the inner rows.
    fn labels(&self, canvas: &mut Canvas) {
        let (l, s) = (self.l, self.s);
        let k = l.shape.margin();
        let label_size = fit_size("00", Face::Regular, s * LABEL_ROOM * 0.85, s * 0.5, 12.0);
        let gap = s * (0.5 + LABEL_ROOM / 2.0);
        for (c, &letter) in LETTERS.iter().enumerate().take(l.cols) {
            let at = self.cell(0, c + k).center();
            canvas.text_centered(
                pt(at.x, at.y - gap),
                label_size,
                Face::Regular,
                &(letter as char).to_string(),
            );
        }
        for r in 0..l.rows {
            let at = self.cell(r + k, 0).center();
            canvas.text_centered(
                pt(at.x - gap, at.y),
                label_size,
                Face::Regular,
                &(r + 1).to_string(),
            );
        }
    }

    /// A dot on every cell of `cells`, a dash on every other cell.
    fn dots_and_dashes(&self, canvas: &mut Canvas, cells: &Bits) {
        let (l, s) = (self.l, self.s);
        for r in 0..l.board_rows() {
            for c in 0..l.board_cols() {
                let centre = self.cell(r, c).center();
                if cells.get(l.cell(r, c)) {
                    canvas.circle(centre, s * 0.27, Some(Color::BLACK), None);
                } else {
                    let half = s * 0.2;
                    canvas.line(
                        pt(centre.x - half, centre.y),
                        pt(centre.x + half, centre.y),
                        Stroke::new(Color::grey(90), (s * 0.07).max(MIN_LINE_MM)),
                    );
                }
            }
        }
    }

    /// Outline every cell edge of move `m`'s shape that borders a cell outside it.
    fn outline_move(&self, canvas: &mut Canvas, m: usize) {
        let cs: Vec<(usize, usize)> = self.l.move_cells(m).collect();
        let w = (self.s * 0.07).clamp(MIN_LINE_MM * 2.0, BORDER_MAX);
        let stroke = Stroke::new(BLOCK_OUTLINE, w);
        let inside =
            |r: isize, c: isize| cs.iter().any(|&(a, b)| a as isize == r && b as isize == c);
        for &(r, c) in &cs {
            let b = self.cell(r, c);
            let (ri, ci) = (r as isize, c as isize);
            if !inside(ri - 1, ci) {
                canvas.line(pt(b.x, b.y), pt(b.right(), b.y), stroke);
            }
            if !inside(ri + 1, ci) {
                canvas.line(pt(b.x, b.bottom()), pt(b.right(), b.bottom()), stroke);
            }
            if !inside(ri, ci - 1) {
                canvas.line(pt(b.x, b.y), pt(b.x, b.bottom()), stroke);
            }
            if !inside(ri, ci + 1) {
                canvas.line(pt(b.right(), b.y), pt(b.right(), b.bottom()), stroke);
            }
        }
    }
}

/// One panel of the worked example: a board with its marks and one line of text.
pub struct Step<'a> {
    pub board: Bits,
    pub marks: Marks<'a>,
    pub text: String,
}

/// Draw the steps side by side, each board over its line of text, as large as `area`
/// allows (text at least 7 pt). False if the area is too small for that.
pub fn steps(canvas: &mut Canvas, area: Rect, l: &MoveGrid, steps: &[Step]) -> bool {
    let n = steps.len() as f32;
    let gap = (area.w * 0.04).min(8.0);
    let panel_w = (area.w - gap * (n - 1.0)) / n;
    // The largest text size (7 to 10 pt) whose wrapped lines leave a board at least as
    // tall as it can be wide.
    let aspect = (l.board_cols() as f32 + LABEL_ROOM) / (l.board_rows() as f32 + LABEL_ROOM);
    let board_h = (panel_w / aspect).min(area.h * 0.75);
    let mut size = 10.0f32;
    let lines = |size: f32| {
        steps
            .iter()
            .map(|st| wrap(&st.text, size, Face::Regular, panel_w).len())
            .max()
            .unwrap_or(0) as f32
    };
    let text_h = |size: f32| lines(size) * size * MM_PER_PT * 1.3 + 2.0;
    while size > MIN_TEXT_PT && board_h + text_h(size) > area.h {
        size -= 0.5;
    }
    let board_h = board_h.min(area.h - text_h(size));
    if board_h <= 0.0 {
        return false;
    }
    let total_h = board_h + text_h(size);
    let top = area.y + (area.h - total_h) / 2.0;
    for (i, st) in steps.iter().enumerate() {
        let x = area.x + i as f32 * (panel_w + gap);
        let marks = Marks {
            cells: Some(&st.board),
            circled: st.marks.circled,
            filled: st.marks.filled,
            outlined: st.marks.outlined,
        };
        draw(canvas, Rect::new(x, top, panel_w, board_h), l, &marks);
        let mut y = top + board_h + 2.0 + cap_height(size);
        for line in wrap(&st.text, size, Face::Regular, panel_w) {
            canvas.text(
                x + panel_w / 2.0,
                y,
                size,
                Face::Regular,
                Align::Center,
                &line,
            );
            y += size * MM_PER_PT * 1.3;
        }
    }
    true
}
