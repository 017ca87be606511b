//! The print checks of a book's text: intros, titles and words that must fit their
//! boxes, and every page's content against its live area.

use super::*;

/// Refuse an intro too long for the first page of its section.
pub(crate) fn check_intro(ty: &Type, section: usize, intro: &str, live: Rect) -> Result<()> {
    let room = (live.h - FOOTER_MM - line_h(ty.heading) - 4.0) * MAX_INTRO_SHARE;
    let lines = wrap(intro, ty.body, ty.regular, live.w).len();
    if text_block_h(lines, ty.body) > room {
        let fits = ((room - line_h(ty.body)) / leading(ty.body))
            .floor()
            .max(0.0) as usize
            + 1;
        let words = intro.split_whitespace().count();
        let keep = words * fits / lines.max(1);
        return Err(Error::invalid(format!(
            "section {section}: the intro takes {lines} lines, but at most {fits} fit on the section's first page beside its puzzles: shorten it to about {keep} words (the rules are on the game's \"how to play\" page)"
        )));
    }
    Ok(())
}

/// Lines the title page keeps for what the book holds ("40 puzzles in 2 sections,
/// with answers"), checked before the puzzles exist.
pub(super) const INSIDE_LINES: usize = 2;

/// The most characters a title and subtitle may have together: KDP's limit for a
/// book's title, and far more than a title page shows well.
pub(crate) const MAX_TITLE_CHARS: usize = 200;

/// Refuse a title, subtitle, author or publisher the title page cannot hold, and a
/// section heading wider than its one line: before any puzzle is made, with the
/// size that fits.
pub(crate) fn check_titles(ty: &Type, t: &Template, area: Rect) -> Result<()> {
    let chars = t.title.chars().count() + t.subtitle.chars().count();
    if chars > MAX_TITLE_CHARS {
        return Err(Error::invalid(format!(
            "the title and subtitle have {chars} characters together; a book's title holds at most {MAX_TITLE_CHARS} (KDP's limit): shorten them"
        )));
    }
    let title = typeset(&t.title);
    let size = fit_size(&title, ty.bold, area.w, 30.0, ty.title).max(MIN_TEXT_PT);
    let sub_w = area.w * 0.85;
    for (field, text, size, face, width) in [
        ("title", &t.title, size, ty.bold, area.w),
        (
            "title (on the copyright page)",
            &t.title,
            ty.caption,
            ty.bold,
            area.w,
        ),
        ("subtitle", &t.subtitle, 14.0, ty.regular, sub_w),
        ("author", &t.author, 13.0, ty.regular, area.w),
        ("publisher", &t.publisher, 11.0, ty.regular, area.w),
        ("edition", &t.edition, ty.small, ty.regular, area.w),
        ("copyright", &t.copyright, ty.small, ty.regular, area.w),
    ] {
        check_words_fit(field, &typeset(text), size, face, width)?;
    }
    for (i, s) in t.sections.iter().enumerate() {
        if let Some(intro) = &s.intro {
            let field = format!("intro of section {}", i + 1);
            check_words_fit(&field, &typeset(intro), ty.body, ty.regular, area.w)?;
        }
    }
    let title_h = text_block_h(wrap(&title, size, ty.bold, area.w).len(), size);
    let sub_h = text_block_h(
        wrap(&typeset(&t.subtitle), 14.0, ty.regular, sub_w).len(),
        14.0,
    );
    let top = area.y + area.h * 0.28 + title_h + 11.0 + sub_h + 6.0;
    let bottom = top + text_block_h(INSIDE_LINES, ty.body);
    let publisher_top = area.bottom() - line_h(11.0);
    let publisher_lines = wrap(&typeset(&t.publisher), 11.0, ty.regular, area.w).len();
    if publisher_lines > 1 {
        return Err(Error::invalid(format!(
            "the publisher takes {publisher_lines} lines at 11 pt; the title page has one line for it: shorten it to about {} characters",
            chars_that_fit(&t.publisher, 11.0, ty.regular, area.w)
        )));
    }
    let floor = if t.publisher.is_empty() {
        area.bottom()
    } else {
        publisher_top - 2.0
    };
    let author_top = area.y + area.h * 0.72;
    if !t.author.is_empty() {
        let author_h = text_block_h(
            wrap(&typeset(&t.author), 13.0, ty.regular, area.w).len(),
            13.0,
        );
        if author_top + author_h > floor {
            return Err(Error::invalid(format!(
                "the author takes {:.0} mm at 13 pt, more than the {:.0} mm the title page has for it: shorten it",
                author_h,
                (floor - author_top).max(0.0)
            )));
        }
    }
    let limit = if t.author.is_empty() {
        floor
    } else {
        author_top - 2.0
    };
    if bottom > limit {
        return Err(Error::invalid(format!(
            "the title ({size:.0} pt) and subtitle (14 pt) take {:.0} mm of the title page, which has {:.0} mm for them above the {}: shorten them",
            title_h + sub_h,
            (title_h + sub_h - (bottom - limit)).max(0.0),
            if t.author.is_empty() { "foot of the page" } else { "author" }
        )));
    }
    for (i, s) in t.sections.iter().enumerate() {
        if let Some(h) = &s.heading {
            let heading = typeset(h);
            let w = text_width(&heading, ty.heading, ty.bold);
            if w > area.w {
                return Err(Error::invalid(format!(
                    "section {}: the heading is {w:.0} mm wide at {:.0} pt, but a page's text is {:.0} mm wide: shorten it to about {} characters",
                    i + 1,
                    ty.heading,
                    area.w,
                    chars_that_fit(&heading, ty.heading, ty.bold, area.w)
                )));
            }
        }
    }
    Ok(())
}

/// Refuse text with a word too long for its line (wrapping breaks only between
/// words): `field` names it in the message.
pub(super) fn check_words_fit(
    field: &str,
    text: &str,
    size: f32,
    face: Face,
    width: f32,
) -> Result<()> {
    for line in wrap(text, size, face, width) {
        let w = text_width(&line, size, face);
        if w > width + 0.01 {
            let word = line
                .split_whitespace()
                .max_by_key(|x| x.chars().count())
                .unwrap_or("");
            return Err(Error::invalid(format!(
                "the {field} has a word of {} characters that is {w:.0} mm wide at {size:.1} pt, but its line is {width:.0} mm: break it with spaces or shorten it to about {} characters",
                word.chars().count(),
                chars_that_fit(word, size, face, width)
            )));
        }
    }
    Ok(())
}

/// About how many characters of `text` fit `width` at `size`.
pub(super) fn chars_that_fit(text: &str, size: f32, face: Face, width: f32) -> usize {
    let n = text.chars().count().max(1);
    let w = text_width(text, size, face).max(1e-6);
    ((n as f32) * width / w).floor() as usize
}

/// Check every page before it is written: every mark inside the page's safe area (its
/// live area), no text under 7 pt. A game's drawing too small to read names its
/// section and what to change.
pub(crate) fn check_pages(
    ty: &Type,
    canvases: &[Canvas],
    g: &Geometry,
    plan: &Plan,
    chapters: &[Chapter],
) -> Result<()> {
    for (i, (c, kind)) in canvases.iter().zip(&plan.kinds).enumerate() {
        let page = i + 1;
        if let Some(size) = c.min_text_pt() {
            let (min, what) = match kind {
                Kind::Puzzles { .. } => (ty.min_drawing, "its drawings' text"),
                Kind::Answers(_) => (ty.min_answer, "the answer key's text"),
                _ => (MIN_TEXT_PT, "text"),
            };
            let needs = if ty.large && min > MIN_TEXT_PT {
                format!("the {min} pt large print needs")
            } else {
                format!("the {min} pt that print needs")
            };
            if size < min - 1e-3 {
                return Err(match kind {
                    Kind::Puzzles { chapter, .. } => {
                        let p = &chapters[*chapter];
                        let per_page = plan.sections[*chapter].per_page;
                        let fix = if per_page > 1 {
                            "lower per_page"
                        } else if ty.large {
                            "its drawings cannot reach that on this page size: choose a larger page_size or turn large_print off"
                        } else {
                            "choose a larger page_size"
                        };
                        Error::invalid(format!(
                            "section {} ({}): at per_page = {per_page} {what} is {size:.1} pt (page {page}), under {needs}: {fix}",
                            p.number, p.game
                        ))
                    }
                    Kind::Answers(blocks) => {
                        // A section drawn at one scale has no columns to lower: its
                        // answers are as large as the page lets them be.
                        let scaled = blocks.iter().find_map(|b| match b {
                            Block::Row { chapter, .. } if plan.answer_scale[*chapter].is_some() => {
                                Some(&chapters[*chapter])
                            }
                            _ => None,
                        });
                        match scaled {
                            Some(p) => Error::invalid(format!(
                                "section {} ({}): {what} is {size:.1} pt on page {page}, under {needs}, even with its largest answer across the page: choose a larger page_size",
                                p.number, p.game
                            )),
                            None => Error::invalid(format!(
                                "{what} is {size:.1} pt on page {page}, under {needs}: set answers.columns lower"
                            )),
                        }
                    }
                    _ => Error::Check(format!(
                        "page {page} has text of {size:.1} pt, under the 7 pt print minimum (a bug)"
                    )),
                });
            }
        }
        if let Some(b) = c.ink_bounds() {
            let live = g.live(page);
            // Pages whose text runs as long as it needs (how to play, the answer key)
            // can outgrow a small page: that is the template's to change.
            let large = if ty.large {
                " or turn large_print off"
            } else {
                ""
            };
            let too_small = |what: String, fix: &str| {
                Error::invalid(format!(
                    "{what} (page {page}) runs {:.1} mm past the safe area of this page size: {fix}{large}",
                    (b.bottom() - live.bottom())
                        .max(b.right() - live.right())
                        .max(live.x - b.x)
                        .max(live.y - b.y)
                        .max(0.1)
                ))
            };
            match kind {
                Kind::HowTo(_) if !within(b, live) => {
                    return Err(too_small(
                        "a \"how to play\" page".into(),
                        "choose a larger page_size",
                    ));
                }
                Kind::Answers(_) if !within(b, live) => {
                    return Err(too_small(
                        "the answer key".into(),
                        "choose a larger page_size, or put fewer puzzles in a section",
                    ));
                }
                _ => {}
            }
            if !within(b, live) {
                return Err(Error::Check(format!(
                    "page {page} draws outside its safe area ({:.1}..{:.1} x {:.1}..{:.1} mm, safe {:.1}..{:.1} x {:.1}..{:.1}): a bug",
                    b.x,
                    b.right(),
                    b.y,
                    b.bottom(),
                    live.x,
                    live.right(),
                    live.y,
                    live.bottom()
                )));
            }
        }
    }
    let _ = plan.section_pages.len();
    Ok(())
}
