//! The how-to-play pages and the puzzle pages.

use super::*;

pub(super) fn howto_page(ty: &Type, c: &mut Canvas, area: Rect, h: &HowTo, chapters: &[Chapter]) {
    let title = format!("How to play {}", h.title);
    let size = fit_size(&title, ty.bold, area.w, 20.0, ty.heading).max(MIN_TEXT_PT);
    c.text(
        area.x,
        first_baseline(area.y, size),
        size,
        ty.bold,
        Align::Left,
        &title,
    );
    let mut top = area.y + line_h(size) + 4.0;
    top += paragraph(c, area.x, top, area.w, ty.body, ty.regular, &h.text) + 6.0;
    let label = "A worked example";
    let (_, rest) = area.take_top(top - area.y + line_h(ty.subhead) + 3.0);
    if rest.h < 30.0 {
        return;
    }
    let mut example = Canvas::new();
    // An example too small to read at this book's sizes (large print) is left out.
    if chapters[h.example].items.draw_example(&mut example, rest)
        && example
            .min_text_pt()
            .is_none_or(|s| s >= ty.min_drawing - 1e-3)
    {
        subheading(ty, c, area, top, label);
        // Right under its label: a game centres its example in the space it is given,
        // which on a tall page leaves a gap above it.
        if let Some(b) = example.ink_bounds() {
            example.translate(0.0, (rest.y + 2.0 - b.y).min(0.0));
        }
        c.shapes.extend(example.shapes);
    }
}

/// The box of puzzle slot `slot` on a page of a section.
pub(super) fn slot_box(s: &SectionLayout, grid_top: f32, x: f32, slot: usize, opens: bool) -> Rect {
    let (r, col) = (slot / s.cols, slot % s.cols);
    let h = if opens { s.first_box_h } else { s.box_h };
    Rect::new(
        x + col as f32 * s.box_w,
        grid_top + r as f32 * h,
        s.box_w,
        h,
    )
}

/// Within a box, the largest drawing of the given aspect with a strip of `top_h` above
/// it and `bottom_h` below, the group centred: (top strip, drawing, bottom strip).
pub(super) fn place(b: Rect, aspect: f32, top_h: f32, bottom_h: f32) -> (Rect, Rect, Rect) {
    let avail_h = (b.h - top_h - bottom_h).max(1.0);
    let w = b.w.min(avail_h * aspect);
    let h = w / aspect;
    let x = b.x + (b.w - w) / 2.0;
    let y = b.y + (b.h - (top_h + h + bottom_h)) / 2.0;
    (
        Rect::new(x, y, w, top_h),
        Rect::new(x, y + top_h, w, h),
        Rect::new(x, y + top_h + h, w, bottom_h),
    )
}

pub(super) fn stars(n: u8) -> String {
    let n = usize::from(n.clamp(1, 5));
    format!("{}{}", "★".repeat(n), "☆".repeat(5 - n))
}

/// Which puzzles a puzzle page holds: `n` of section `chapter`'s (its index among the
/// chapters), from its puzzle `first` on; `opens` when the page opens the section (with
/// its heading, intro and pointers).
#[derive(Clone, Copy)]
pub(super) struct PageRun {
    pub(super) chapter: usize,
    pub(super) first: usize,
    pub(super) n: usize,
    pub(super) opens: bool,
}

pub(super) fn puzzle_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    chapters: &[Chapter],
    run: PageRun,
    plan: &Plan,
) {
    let PageRun {
        chapter: p,
        first,
        n,
        opens,
    } = run;
    let chapter = &chapters[p];
    let s = &plan.sections[p];
    let grid_top = if opens {
        page_heading(ty, c, area, &chapter.heading);
        let mut top = area.y + line_h(ty.heading) + 3.0;
        if let Some(intro) = &chapter.intro {
            top += paragraph(c, area.x, top, area.w, ty.body, ty.regular, intro) + 2.0;
        }
        let mut pointer = format!("How to play: page {}", plan.howto_pages[chapter.howto]);
        if chapter.items.has_answers() && plan.answer_page[p].first().is_some_and(|&a| a > 0) {
            pointer += &format!(". Answers from page {}.", plan.answer_page[p][0]);
        }
        c.text_colored(
            pt(area.x, first_baseline(top, ty.refs)),
            ty.refs,
            ty.regular,
            Align::Left,
            GREY,
            &pointer,
        );
        area.y + s.header
    } else {
        // Later pages: the same boxes, from the top of the room under the running
        // head, as on the first page (a section's pages align alike).
        area.y + HEADER_MM
    };
    for slot in 0..n {
        let k = first + slot;
        let item = chapter.order[k];
        let b = slot_box(s, grid_top, area.x, slot, opens).inset(PAD_MM);
        let (label, drawing, caption) =
            place(b, chapter.items.aspect(), label_h(ty), caption_h(ty));
        let base = label.bottom() - 1.5 - DESCENT * em(ty.label);
        let name = format!("{} {}", chapter.items.label(), chapter.number_of(k));
        c.text(label.x, base, ty.label, ty.bold, Align::Left, &name);
        let mut right = label.right();
        if chapter.items.has_answers() {
            let page = plan.answer_page[p][k];
            if page > 0 {
                let long = format!("Answer on page {page}");
                let short = format!("Answer p. {page}");
                let name_w = text_width(&name, ty.label, ty.bold) + 2.0;
                let text = if text_width(&long, ty.refs, ty.regular) + name_w + 16.0 < label.w {
                    long
                } else {
                    short
                };
                c.text_colored(
                    pt(right, base),
                    ty.refs,
                    ty.regular,
                    Align::Right,
                    GREY,
                    &text,
                );
                right -= text_width(&text, ty.refs, ty.regular) + 3.0;
            }
        }
        if let Some(r) = chapter.items.rating(item) {
            let st = stars(r.stars);
            let x = label.x + text_width(&name, ty.label, ty.bold) + 2.5;
            if x + text_width(&st, ty.stars, STAR_FACE) <= right {
                c.text(x, base, ty.stars, STAR_FACE, Align::Left, &st);
            }
        }
        chapter.items.draw(item, c, drawing);
        let text = typeset(&chapter.items.caption(item));
        let size = fit_size(&text, ty.regular, caption.w, 100.0, ty.caption).max(MIN_TEXT_PT);
        c.text(
            caption.center().x,
            first_baseline(caption.y + 1.0, size),
            size,
            ty.regular,
            Align::Center,
            &text,
        );
    }
}
