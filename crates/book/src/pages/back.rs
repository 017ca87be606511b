//! The answer pages and the notes pages.

use super::*;

pub(super) fn answer_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    blocks: &[Block],
    chapters: &[Chapter],
    plan: &Plan,
) {
    let mut top = area.y + HEADER_MM;
    for block in blocks {
        match block {
            Block::Title => {
                page_heading(ty, c, area, "Answers");
                top = area.y + line_h(ty.heading) + 5.0;
            }
            Block::Section { chapter } => {
                let p = &chapters[*chapter];
                let head = format!("{} ({})", p.heading, p.span());
                subheading(ty, c, area, top, &head);
                top += line_h(ty.subhead) + 3.0;
                if let Some(note) = p.items.answer_note() {
                    top += paragraph(c, area.x, top, area.w, ty.note, ty.regular, &typeset(&note))
                        + 2.0;
                }
            }
            Block::Row {
                chapter,
                first,
                n,
                height,
            } => {
                let p = &chapters[*chapter];
                let cols = plan.answer_cols[*chapter];
                let col_w = area.w / cols.max(1) as f32;
                let scale = plan.answer_scale[*chapter];
                let mut x = area.x;
                for slot in 0..*n {
                    let k = first + slot;
                    let item = p.order[k];
                    let box_w = match scale {
                        Some(s) => scaled_box_w(p, item, s),
                        None => col_w,
                    };
                    let b = Rect::new(x, top, box_w, *height).inset(PAD_MM);
                    x += box_w;
                    let label = format!(
                        "{} {} · page {}",
                        p.items.label(),
                        p.number_of(k),
                        plan.puzzle_page[*chapter][k]
                    );
                    // Narrow columns (large print) shrink a long label to fit.
                    let size =
                        fit_size(&label, ty.bold, b.w, 100.0, ty.answer_label).max(ty.min_answer);
                    c.text(
                        b.x,
                        first_baseline(b.y, ty.answer_label),
                        size,
                        ty.bold,
                        Align::Left,
                        &label,
                    );
                    let (dw, dh) = match (scale, p.items.answer_units(item)) {
                        (Some(s), Some((uw, uh))) => (uw * s, uh * s),
                        _ => answer_size(p, item, b.w, plan.answer_max_h[*chapter]),
                    };
                    let drawing = Rect::new(b.x, b.y + answer_label_h(ty), dw, dh);
                    p.items.draw_answer(item, c, drawing);
                    let lines = answer_lines(ty, p, item, b.w);
                    let mut y = first_baseline(drawing.bottom() + 1.0, ty.answer);
                    for line in lines {
                        c.text(b.x, y, ty.answer, ty.regular, Align::Left, &line);
                        y += leading(ty.answer);
                    }
                }
                top += height;
            }
        }
    }
}

pub(super) fn notes_page(ty: &Type, c: &mut Canvas, area: Rect) {
    page_heading(ty, c, area, "Notes");
    let mut y = area.y + line_h(ty.heading) + 12.0;
    let rule = Stroke::new(RULE_GREY, MIN_LINE_MM);
    while y < area.bottom() - 4.0 {
        // Inset by the line width: a stroke's ends count as ink.
        c.line(
            pt(area.x + rule.width, y),
            pt(area.right() - rule.width, y),
            rule,
        );
        y += 9.0;
    }
}
