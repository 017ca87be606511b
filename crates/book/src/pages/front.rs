//! The front matter: title page, copyright page (with the command that makes the book
//! again), contents.

use super::*;

/// "22 puzzles and 4 boards in 5 sections, with answers".
pub(super) fn what_is_inside(chapters: &[Chapter], with_answers: bool) -> String {
    let mut by_label: Vec<(&str, usize)> = Vec::new();
    for p in chapters {
        let label = p.items.label();
        match by_label.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += p.items.len(),
            None => by_label.push((label, p.items.len())),
        }
    }
    let things: Vec<String> = by_label
        .iter()
        .map(|(l, n)| format!("{n} {}{}", l.to_lowercase(), if *n == 1 { "" } else { "s" }))
        .collect();
    format!(
        "{} in {} section{}{}",
        things.join(" and "),
        chapters.len(),
        if chapters.len() == 1 { "" } else { "s" },
        if with_answers { ", with answers" } else { "" }
    )
}

pub(super) fn centred_lines(
    c: &mut Canvas,
    area: Rect,
    top: f32,
    size: f32,
    face: Face,
    text: &str,
) -> f32 {
    let mut y = first_baseline(top, size);
    let lines = wrap(text, size, face, area.w);
    for line in &lines {
        c.text(area.center().x, y, size, face, Align::Center, line);
        y += leading(size);
    }
    text_block_h(lines.len(), size)
}

pub(super) fn title_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    book: &BookText<'_>,
    chapters: &[Chapter],
) {
    let t = book.template;
    let title = typeset(&t.title);
    let size = fit_size(&title, ty.bold, area.w, 30.0, ty.title).max(MIN_TEXT_PT);
    let mut y = area.y + area.h * 0.28;
    y += centred_lines(c, area, y, size, ty.bold, &title) + 5.0;
    c.line(
        pt(area.x + area.w * 0.2, y),
        pt(area.right() - area.w * 0.2, y),
        Stroke::new(Color::BLACK, 0.5),
    );
    y += 6.0;
    let inner = Rect::new(area.x + area.w * 0.075, area.y, area.w * 0.85, area.h);
    y += centred_lines(c, inner, y, 14.0, ty.regular, &typeset(&t.subtitle)) + 6.0;
    centred_lines(
        c,
        area,
        y,
        ty.body,
        ty.regular,
        &what_is_inside(chapters, book.with_answers),
    );
    if !t.author.is_empty() {
        centred_lines(
            c,
            area,
            area.y + area.h * 0.72,
            13.0,
            ty.regular,
            &typeset(&t.author),
        );
    }
    if !t.publisher.is_empty() {
        let top = area.bottom() - line_h(11.0);
        centred_lines(c, area, top, 11.0, ty.regular, &typeset(&t.publisher));
    }
}

/// Runs of consecutive numbers: "0–3, 7, 9–10".
pub(super) fn ranges(v: &[u64]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if j > i {
            format!("{}–{}", v[i], v[j])
        } else {
            v[i].to_string()
        });
        i = j + 1;
    }
    out.join(", ")
}

pub(super) fn copyright_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    book: &BookText<'_>,
    chapters: &[Chapter],
) {
    let t = book.template;
    let mut lines = notice_lines(ty, book);
    let mut push = |s: String, face: Face, size: f32| lines.push((s, face, size));
    push(String::new(), ty.regular, ty.small);
    if !t.colophon {
        // The facts to make the book again are the publisher's: beside the PDF. The
        // book is the publisher's too, so the tool is named only in the colophon (the
        // PDF's Producer names it for the print shop).
        push(
            "Every puzzle and board was checked by a second, independent method.".into(),
            ty.regular,
            ty.small,
        );
        let h: f32 = lines
            .iter()
            .map(|(s, f, size)| wrap(s, *size, *f, area.w).len() as f32 * leading(*size))
            .sum();
        draw_lines(c, area, h, &lines);
        return;
    }
    push("How this book was made".into(), ty.bold, ty.small);
    push(
        format!(
            "Every puzzle and board was made, and checked by a second, independent method, with puzzlebook {}. This command makes the book again, page for page:",
            env!("CARGO_PKG_VERSION")
        ),
        ty.regular,
        ty.small,
    );
    let command = remake_command(book.template_name, book.seed, book.volume);
    push(format!("    {command}"), ty.regular, ty.small);
    push(
        "Each section's puzzles are these items of its seed, easiest first:".into(),
        ty.regular,
        ty.small,
    );
    let detail = section_items(chapters);
    // The item lists go only when they fit the page (the command above is enough).
    let measure = |lines: &[(String, Face, f32)]| -> f32 {
        lines
            .iter()
            .map(|(s, f, size)| wrap(s, *size, *f, area.w).len() as f32 * leading(*size))
            .sum()
    };
    let mut all = lines.clone();
    all.extend(detail.into_iter().map(|s| (s, ty.regular, ty.small)));
    let chosen = if measure(&all) <= area.h * 0.9 {
        all
    } else {
        // Too long for the page: the facts file beside the PDF has them all.
        lines.push((
            "(The lists are too long for this page: they are in the file written beside the book, NAME.pdf.json.)".into(),
            ty.regular,
            ty.small,
        ));
        lines
    };
    let h = measure(&chosen);
    draw_lines(c, area, h, &chosen);
}

/// The copyright page's notice: title, subtitle, copyright line (always with a year),
/// publisher, edition and ISBN, each as (text, face, size).
pub(super) fn notice_lines(ty: &Type, book: &BookText<'_>) -> Vec<(String, Face, f32)> {
    let t = book.template;
    let mut lines: Vec<(String, Face, f32)> = Vec::new();
    let mut push = |s: String, face: Face, size: f32| lines.push((s, face, size));
    push(typeset(&t.title), ty.bold, ty.caption);
    if !t.subtitle.is_empty() {
        push(typeset(&t.subtitle), ty.regular, ty.small);
    }
    push(String::new(), ty.regular, ty.small);
    // The year of the PDF date ("D:YYYY...") the book carries, else this year.
    let year = book
        .date
        .and_then(|d| d.get(2..6))
        .map(str::to_string)
        .unwrap_or_else(|| time::OffsetDateTime::now_utc().year().to_string());
    let holder = if t.author.trim().is_empty() {
        t.publisher.trim()
    } else {
        t.author.trim()
    };
    let copyright = if !t.copyright.is_empty() {
        typeset(&t.copyright)
    } else if !holder.is_empty() {
        format!("© {year} {}. All rights reserved.", typeset(holder))
    } else {
        format!("© {year}. All rights reserved.")
    };
    if !copyright.is_empty() {
        push(copyright, ty.regular, ty.small);
    }
    if !t.publisher.is_empty() {
        push(
            format!("Published by {}", typeset(&t.publisher)),
            ty.regular,
            ty.small,
        );
    }
    if !t.edition.is_empty() {
        push(typeset(&t.edition), ty.regular, ty.small);
    }
    if !t.isbn.is_empty() {
        push(format!("ISBN {}", t.isbn), ty.regular, ty.small);
    }
    lines
}

/// One line a section: its items of its seed, easiest first ("Easy (puzzles 1–34):
/// numbrix size=9, seed 82, items 0–33").
pub(super) fn section_items(chapters: &[Chapter]) -> Vec<String> {
    chapters
        .iter()
        .map(|p| {
            let items: Vec<u64> = p.order.iter().map(|&i| p.items.index(i)).collect();
            let mut sorted = items.clone();
            sorted.sort_unstable();
            format!(
                "{} ({}): {} {}, seed {}, items {}",
                p.heading,
                p.span(),
                p.game,
                p.params,
                p.seed,
                if items == sorted {
                    ranges(&sorted)
                } else {
                    items
                        .iter()
                        .map(u64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            )
        })
        .collect()
}

/// The command that makes the book again, page for page.
pub(crate) fn remake_command(
    template_name: Option<&str>,
    seed: u64,
    volume: Option<u32>,
) -> String {
    // The book's date when it came from the environment: the same bytes need it.
    let mut command = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(v) if !v.trim().is_empty() => format!("SOURCE_DATE_EPOCH={} ", shell_word(v.trim())),
        _ => String::new(),
    };
    command += &match template_name {
        Some(name) => format!(
            "puzzlebook book --template {} --seed {seed}",
            shell_word(name)
        ),
        None => format!("puzzlebook book --seed {seed}"),
    };
    if let Some(v) = volume {
        command += &format!(" --volume {v}");
    }
    command
}

/// A word as a POSIX shell reads it back: as it is when it is plain, else in single
/// quotes (a quote inside written '\'').
pub(super) fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.,/+=:@%".contains(&b));
    if plain {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// Lines of the copyright page, set at the foot of `area` (`h` their height).
pub(super) fn draw_lines(c: &mut Canvas, area: Rect, h: f32, lines: &[(String, Face, f32)]) {
    let mut top = area.bottom() - h;
    for (s, face, size) in lines {
        if s.is_empty() {
            top += leading(*size);
            continue;
        }
        top += paragraph(c, area.x, top, area.w, *size, *face, s) - line_h(*size) + leading(*size);
    }
}

pub(super) fn contents_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    entries: &[(String, usize)],
    first: bool,
) {
    let title = if first {
        "Contents"
    } else {
        "Contents (continued)"
    };
    page_heading(ty, c, area, title);
    let mut y = area.y + line_h(ty.heading) + 8.0 + ASCENT * em(ty.body);
    let dot_w = text_width(". ", ty.body, ty.regular);
    for (heading, page) in entries {
        let num = page.to_string();
        let num_w = text_width(&num, ty.body, ty.regular);
        let room = area.w - num_w - 4.0 * dot_w;
        let mut heading = heading.clone();
        while text_width(&heading, ty.body, ty.regular) > room && heading.pop().is_some() {}
        let head_w = text_width(&heading, ty.body, ty.regular);
        c.text(area.x, y, ty.body, ty.regular, Align::Left, &heading);
        c.text(area.right(), y, ty.body, ty.regular, Align::Right, &num);
        let space = area.w - head_w - num_w - 4.0;
        if space > 2.0 * dot_w {
            let dots = ". ".repeat((space / dot_w) as usize);
            c.text_colored(
                pt(area.right() - num_w - 2.0, y),
                ty.body,
                ty.regular,
                Align::Right,
                GREY,
                dots.trim_end(),
            );
        }
        y += leading(ty.body) * 1.5;
    }
}
