//! Drawing a Flip board: dots as filled circles, dashes as short bars, the edge ring
//! shaded (no block can be centred there), letters above and numbers beside the inner
//! cells; in a solution, the centres of the blocks to flip are circled.

use super::bits::Bits;
use super::model::{Layout, LETTERS};
use crate::canvas::{fit_size, pt, Canvas, Color, Face, Rect, Stroke};

const EDGE_SHADE: Color = Color::grey(228);
const GRID: Color = Color::grey(150);
/// Label room, in cells, above and left of the board.
pub const LABEL_ROOM: f32 = 0.8;
const MOVE_MARK: Color = Color::rgb(200, 30, 30);

pub fn board(canvas: &mut Canvas, area: Rect, l: &Layout, cells: &Bits, moves: Option<&[usize]>) {
    let (br, bc) = (l.board_rows(), l.board_cols());
    // Room for the labels on the top and the left, LABEL_ROOM cells wide.
    let s = (area.w / (bc as f32 + LABEL_ROOM)).min(area.h / (br as f32 + LABEL_ROOM));
    let total_w = s * (bc as f32 + LABEL_ROOM);
    let total_h = s * (br as f32 + LABEL_ROOM);
    // Centre the board itself (the labels hang into the margin on the top and left).
    let x0 = area.x + (area.w - total_w) / 2.0 + s * LABEL_ROOM;
    let y0 = area.y + (area.h - total_h) / 2.0 + s * LABEL_ROOM;
    let cell = |r: usize, c: usize| Rect::new(x0 + c as f32 * s, y0 + r as f32 * s, s, s);
    let k = l.shape.margin();

    // Shade the ring where no move can be centred.
    if k > 0 {
        for r in 0..br {
            for c in 0..bc {
                if r < k || c < k || r >= br - k || c >= bc - k {
                    canvas.rect(cell(r, c), Some(EDGE_SHADE), None);
                }
            }
        }
    }
    // Thin inner lines, thick outer border.
    let thin = Stroke::new(GRID, (s * 0.03).clamp(0.08, 0.25));
    for r in 1..br {
        let y = y0 + r as f32 * s;
        canvas.line(pt(x0, y), pt(x0 + bc as f32 * s, y), thin);
    }
    for c in 1..bc {
        let x = x0 + c as f32 * s;
        canvas.line(pt(x, y0), pt(x, y0 + br as f32 * s), thin);
    }
    let thick = Stroke::new(Color::BLACK, (s * 0.08).clamp(0.3, 0.8));
    canvas.rect(
        Rect::new(x0, y0, bc as f32 * s, br as f32 * s),
        None,
        Some(thick),
    );

    // Labels.
    let label_size = fit_size("00", Face::Regular, s * LABEL_ROOM * 0.85, s * 0.5, 12.0);
    let gap = s * (0.5 + LABEL_ROOM / 2.0);
    for (c, &letter) in LETTERS.iter().enumerate().take(l.cols) {
        let at = cell(0, c + k).center();
        canvas.text_centered(
            pt(at.x, at.y - gap),
            label_size,
            Face::Regular,
            &(letter as char).to_string(),
        );
    }
    for r in 0..l.rows {
        let at = cell(r + k, 0).center();
        canvas.text_centered(
            pt(at.x - gap, at.y),
            label_size,
            Face::Regular,
            &(r + 1).to_string(),
        );
    }

    // Dots and dashes.
    for r in 0..br {
        for c in 0..bc {
            let centre = cell(r, c).center();
            if cells.get(l.cell(r, c)) {
                canvas.circle(centre, s * 0.27, Some(Color::BLACK), None);
            } else {
                let half = s * 0.2;
                canvas.line(
                    pt(centre.x - half, centre.y),
                    pt(centre.x + half, centre.y),
                    Stroke::new(Color::grey(90), (s * 0.07).max(0.15)),
                );
            }
        }
    }

    if let Some(moves) = moves {
        let ring = Stroke::new(MOVE_MARK, (s * 0.08).max(0.2));
        for &m in moves {
            let (r, c) = l.move_centre(m);
            canvas.circle(cell(r, c).center(), s * 0.42, None, Some(ring));
        }
    }
}
