//! Drawing a Number Match board: digits in a grid with column letters and row numbers;
//! in a solution, the moves below the grid in the compact notation.

use super::solve::Move;
use crate::canvas::{fit_size, pt, wrap, Align, Canvas, Color, Face, Rect, Stroke};

/// Rows' worth of height kept under the grid for the move list.
pub const TEXT_ROWS: f32 = 3.0;

/// A column's name: `a`-`z`, then `A`-`Z`, then (boards of 53 to 64 columns) `za`-`zl`.
/// A name is letters and a cell's name adds the row's digits, so `za1b2` reads one
/// way only. (Past 52 columns the single letters used to run on into `[`, `\`, ...
/// and then `a`-`f` again, naming two columns alike.)
pub fn column_name(c: usize) -> String {
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

pub fn board(canvas: &mut Canvas, area: Rect, digits: &[u8], cols: usize, moves: Option<&[Move]>) {
    let rows = digits.len().div_ceil(cols);
    let label = 0.6;
    let s = (area.w / (cols as f32 + label)).min(area.h / (rows as f32 + label + TEXT_ROWS));
    let x0 = area.x + (area.w - s * (cols as f32 + label)) / 2.0 + s * label;
    let y0 = area.y + s * label;
    let thin = Stroke::new(Color::grey(150), (s * 0.03).clamp(0.1, 0.25));
    for (i, &d) in digits.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let cell = Rect::new(x0 + c as f32 * s, y0 + r as f32 * s, s, s);
        canvas.rect(cell, None, Some(thin));
        if d != 0 {
            let size = fit_size("8", Face::Bold, s * 0.6, s * 0.62, 24.0);
            canvas.text_centered(cell.center(), size, Face::Bold, &d.to_string());
        }
    }
    let lsize = fit_size("00", Face::Regular, s * label * 0.9, s * 0.45, 9.0);
    for c in 0..cols {
        let at = pt(x0 + (c as f32 + 0.5) * s, y0 - s * label / 2.0);
        canvas.text_centered(at, lsize, Face::Regular, &column_name(c));
    }
    for r in 0..rows {
        let at = pt(x0 - s * label / 2.0, y0 + (r as f32 + 0.5) * s);
        canvas.text_centered(at, lsize, Face::Regular, &(r + 1).to_string());
    }
    if let Some(moves) = moves {
        let text_area = Rect::new(
            area.x,
            y0 + rows as f32 * s + s * 0.3,
            area.w,
            area.bottom() - (y0 + rows as f32 * s + s * 0.3),
        );
        let text = notation(moves, cols);
        // The largest size (up to 8 pt) at which the list fits the space.
        let mut size = 8.0;
        loop {
            let lines = wrap(&text, size, Face::Regular, text_area.w);
            let h = lines.len() as f32 * size * crate::canvas::MM_PER_PT * 1.25;
            if h <= text_area.h || size <= 4.0 {
                let mut y = text_area.y + size * crate::canvas::MM_PER_PT;
                for line in lines {
                    canvas.text(text_area.x, y, size, Face::Regular, Align::Left, &line);
                    y += size * crate::canvas::MM_PER_PT * 1.25;
                }
                break;
            }
            size -= 0.5;
        }
    }
}
