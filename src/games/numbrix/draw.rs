//! Drawing a Numbrix grid: thin cell lines inside a thick border, the givens in large
//! bold numbers; in a solution, the filled numbers in a lighter regular face over a
//! faint line that traces the path from 1 to N.

use crate::canvas::{fit_size, pt, Canvas, Color, Face, Rect, Stroke};

const GRID: Color = Color::grey(140);
const PATH: Color = Color::rgb(190, 215, 240);
const FILLED: Color = Color::rgb(40, 80, 150);

pub fn grid(
    canvas: &mut Canvas,
    area: Rect,
    rows: usize,
    cols: usize,
    givens: &[u16],
    solution: Option<&[u16]>,
) {
    let s = (area.w / cols as f32).min(area.h / rows as f32);
    let x0 = area.x + (area.w - s * cols as f32) / 2.0;
    let y0 = area.y + (area.h - s * rows as f32) / 2.0;
    let centre = |c: usize| {
        pt(
            x0 + (c % cols) as f32 * s + s / 2.0,
            y0 + (c / cols) as f32 * s + s / 2.0,
        )
    };

    if let Some(sol) = solution {
        let mut order = vec![0usize; sol.len()];
        for (c, &v) in sol.iter().enumerate() {
            order[v as usize - 1] = c;
        }
        canvas.polyline(
            order.iter().map(|&c| centre(c)).collect(),
            Stroke::new(PATH, (s * 0.12).max(0.3)),
        );
    }
    let thin = Stroke::new(GRID, (s * 0.02).clamp(0.1, 0.25));
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
        Some(Stroke::new(Color::BLACK, (s * 0.06).clamp(0.35, 0.9))),
    );

    // One size for every number, fitted to the widest one.
    let widest = (rows * cols).to_string();
    let size = fit_size(&widest, Face::Bold, s * 0.78, s * 0.62, 28.0);
    for c in 0..rows * cols {
        let p = centre(c);
        let y = p.y + crate::canvas::cap_height(size) / 2.0;
        if givens[c] != 0 {
            canvas.text(
                p.x,
                y,
                size,
                Face::Bold,
                crate::canvas::Align::Center,
                &givens[c].to_string(),
            );
        } else if let Some(sol) = solution {
            canvas.text_colored(
                p.x,
                y,
                size * 0.9,
                Face::Regular,
                crate::canvas::Align::Center,
                FILLED,
                &sol[c].to_string(),
            );
        }
    }
}
