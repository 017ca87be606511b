//! How a section's answers are sized and laid out: the lines under each, one scale for
//! a section, rows of answers in columns.

use super::*;

/// The answer text under an answer, as it will be drawn.
pub(super) fn answer_lines(ty: &Type, chapter: &Chapter, item: usize, w: f32) -> Vec<String> {
    let text = typeset(&chapter.items.answer(item));
    if text.is_empty() {
        return Vec::new();
    }
    let mut lines = wrap(&text, ty.answer, ty.regular, w);
    if lines.len() > MAX_ANSWER_LINES {
        lines.truncate(MAX_ANSWER_LINES);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    lines
}

/// Whether every answer of a section stays legible (text >= 7 pt) drawn `w` mm wide.
pub(super) fn answers_legible(ty: &Type, chapter: &Chapter, w: f32, max_h: f32) -> bool {
    (0..chapter.items.len()).all(|i| {
        let (dw, dh) = answer_size(chapter, i, w, max_h);
        let area = Rect::new(0.0, 0.0, dw, dh);
        let mut c = Canvas::new();
        chapter.items.draw_answer(i, &mut c, area);
        c.min_text_pt().is_none_or(|s| s >= ty.min_answer - 1e-3)
    })
}

/// The drawing size of answer `i` in a column `w` wide, at most `max_h` tall.
pub(super) fn answer_size(chapter: &Chapter, i: usize, w: f32, max_h: f32) -> (f32, f32) {
    let aspect = chapter.items.answer_aspect(i).max(1e-3);
    let h = (w / aspect).min(max_h);
    (h * aspect, h)
}

/// A section's answers `cols` to a row in columns `col_w` wide (drawings at most
/// `max_h` tall): each row as (first answer, how many, height).
pub(super) fn column_rows(
    ty: &Type,
    chapter: &Chapter,
    cols: usize,
    col_w: f32,
    max_h: f32,
) -> Vec<(usize, usize, f32)> {
    (0..chapter.items.len())
        .step_by(cols.max(1))
        .map(|first| {
            let n = cols.min(chapter.items.len() - first);
            let ks = first..first + n;
            let draw_h = ks
                .clone()
                .map(|k| answer_size(chapter, chapter.order[k], col_w, max_h).1)
                .fold(0.0f32, f32::max);
            let lines = ks
                .map(|k| answer_lines(ty, chapter, chapter.order[k], col_w).len())
                .max()
                .unwrap_or(0);
            (first, n, answer_row_h(ty, draw_h, lines))
        })
        .collect()
}

/// A row of answers' height: label, the tallest drawing, the most lines of answer text,
/// and the padding around.
pub(super) fn answer_row_h(ty: &Type, draw_h: f32, lines: usize) -> f32 {
    answer_label_h(ty) + draw_h + text_block_h(lines, ty.answer) + 1.0 + 2.0 * PAD_MM
}

/// The narrowest an answer's box is drawn at one scale (room for its text), in mm.
pub(super) const MIN_SCALED_ANSWER_W: f32 = 45.0;

/// At one scale `s` (mm a unit), the width of answer `i`'s box (padding included).
pub(super) fn scaled_box_w(chapter: &Chapter, i: usize, s: f32) -> f32 {
    let (uw, _) = chapter.items.answer_units(i).unwrap_or((1.0, 1.0));
    (uw * s).max(MIN_SCALED_ANSWER_W) + 2.0 * PAD_MM
}

/// A section's answers at one scale `s`, packed into rows across `width`: each row as
/// (first answer, how many, height).
pub(super) fn scaled_rows(
    ty: &Type,
    chapter: &Chapter,
    s: f32,
    width: f32,
) -> Vec<(usize, usize, f32)> {
    let mut rows = Vec::new();
    let n = chapter.items.len();
    let mut first = 0;
    while first < n {
        let mut used = 0.0;
        let mut k = first;
        while k < n {
            let w = scaled_box_w(chapter, chapter.order[k], s);
            if k > first && used + w > width + 1e-3 {
                break;
            }
            used += w;
            k += 1;
        }
        let (mut draw_h, mut lines) = (0.0f32, 0usize);
        for j in first..k {
            let item = chapter.order[j];
            let (_, uh) = chapter.items.answer_units(item).unwrap_or((1.0, 1.0));
            draw_h = draw_h.max(uh * s);
            let text_w = scaled_box_w(chapter, item, s) - 2.0 * PAD_MM;
            lines = lines.max(answer_lines(ty, chapter, item, text_w).len());
        }
        rows.push((first, k - first, answer_row_h(ty, draw_h, lines)));
        first = k;
    }
    rows
}

/// The scale (mm a unit) of a section whose game gives its answers in units: the
/// game's comfortable unit size (`Game::answer_unit_mm`) or else the smallest at which
/// every answer's text stays legible, then as much larger as keeps
/// the section on as many pages of `avail` mm (so pages fill rather than grow in
/// number), and never so large that an answer outgrows the page.
pub(super) fn answer_scale(ty: &Type, chapter: &Chapter, width: f32, avail: f32) -> Result<f32> {
    let n = chapter.items.len();
    let units: Vec<(f32, f32)> = (0..n)
        .map(|i| chapter.items.answer_units(i).unwrap_or((1.0, 1.0)))
        .collect();
    let text_room = text_block_h(ANSWER_LINES, ty.answer) + 1.0;
    let tallest_room = avail - answer_label_h(ty) - text_room - 2.0 * PAD_MM;
    let largest = units
        .iter()
        .map(|&(uw, uh)| ((width - 2.0 * PAD_MM) / uw.max(1e-3)).min(tallest_room / uh.max(1e-3)))
        .fold(f32::INFINITY, f32::min)
        .max(0.1);
    let legible = |s: f32| {
        (0..n).all(|i| {
            let (uw, uh) = units[i];
            let mut c = Canvas::new();
            chapter
                .items
                .draw_answer(i, &mut c, Rect::new(0.0, 0.0, uw * s, uh * s));
            c.min_text_pt().is_none_or(|t| t >= ty.min_answer - 1e-3)
        })
    };
    let comfortable = chapter.items.answer_unit_mm();
    if comfortable > 0.0 && largest < MIN_UNIT_SHARE * comfortable {
        return Err(Error::invalid(format!(
            "section {} ({}): its largest answer fits this page only at {largest:.1} mm a unit, under the {:.1} mm its drawings need to stay readable: choose a larger page_size",
            chapter.number,
            chapter.game,
            MIN_UNIT_SHARE * comfortable
        )));
    }
    let hi = if comfortable > 0.0 {
        // The game's own comfortable size, or less where the page allows less (its
        // drawing keeps its text legible then; the page check makes sure).
        comfortable.min(largest)
    } else if !legible(largest) {
        // Not even the largest keeps the text legible: the page check names it.
        return Ok(largest);
    } else {
        // The smallest legible scale, to a tenth of a millimetre.
        let (mut lo, mut hi) = (0.0f32, largest);
        while hi - lo > 0.1 {
            let mid = (lo + hi) / 2.0;
            if legible(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    };
    let pages = |s: f32| {
        let h: f32 = scaled_rows(ty, chapter, s, width).iter().map(|r| r.2).sum();
        (h / avail).ceil()
    };
    let at_least = pages(hi);
    let mut s = hi;
    while s * 1.05 <= largest && pages(s * 1.05) <= at_least {
        s *= 1.05;
    }
    Ok(s)
}

/// A section drawn at one scale may go down to this share of its game's comfortable
/// unit size when a drawing is too wide for the page; below it, the page is too small.
pub(super) const MIN_UNIT_SHARE: f32 = 0.7;

pub(super) fn within(b: Rect, area: Rect) -> bool {
    const EPS: f32 = 0.05;
    b.x >= area.x - EPS
        && b.y >= area.y - EPS
        && b.right() <= area.right() + EPS
        && b.bottom() <= area.bottom() + EPS
}
