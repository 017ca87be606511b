//! Planning and drawing the pages of a book: where everything goes, the page each
//! puzzle and answer lands on, and the drawing of each kind of page.

use super::layout::{best_grid, Geometry};
use super::{typeset, Chapter, HowTo, Template};
use crate::canvas::{
    fit_size, pt, text_width, wrap, Align, Canvas, Color, Face, Rect, Stroke, MIN_LINE_MM,
    MIN_TEXT_PT, MM_PER_PT,
};
use crate::{Error, Result};

/// The book's type: faces and sizes. Large print scales every size by
/// [`LARGE_PRINT_SCALE`] and asks more of the puzzles' drawings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Type {
    /// The face of body text (the template's font, else DejaVu Sans).
    pub regular: Face,
    /// The face of headings and labels.
    pub bold: Face,
    /// The title on the title page (at most; long titles shrink to fit).
    pub title: f32,
    /// Page headings.
    pub heading: f32,
    /// Subheadings.
    pub subhead: f32,
    /// Body text.
    pub body: f32,
    /// Puzzle labels ("Puzzle 12").
    pub label: f32,
    /// Difficulty stars.
    pub stars: f32,
    /// Page references ("Answer: page 40").
    pub refs: f32,
    /// Captions under puzzles.
    pub caption: f32,
    /// Running heads.
    pub head: f32,
    /// Page numbers.
    pub foot: f32,
    /// Answer labels.
    pub answer_label: f32,
    /// Answer text.
    pub answer: f32,
    /// Notes before a section's answers.
    pub note: f32,
    /// Small print (copyright page).
    pub small: f32,
    /// The smallest text a puzzle's drawing may have (7 pt; 12 pt in large print).
    pub min_drawing: f32,
    /// The smallest text an answer's drawing may have (7 pt; 10 pt in large print).
    pub min_answer: f32,
    /// Large print.
    pub large: bool,
}

/// How much larger everything is in a large-print book (10 pt body text becomes 16 pt).
pub(super) const LARGE_PRINT_SCALE: f32 = 1.6;
/// The smallest text in a large-print puzzle's drawing (clues, numbers, labels):
/// with half as many puzzles a page, drawings are about twice as large as in a
/// regular book, where their text may go down to 7 pt.
pub(super) const LARGE_PRINT_MIN_PT: f32 = 12.0;

impl Type {
    /// The type of a book: `large` for large print.
    pub(super) fn new(regular: Face, bold: Face, large: bool) -> Type {
        let k = if large { LARGE_PRINT_SCALE } else { 1.0 };
        Type {
            regular,
            bold,
            title: 34.0 * k,
            heading: 18.0 * k,
            subhead: 12.0 * k,
            body: 10.0 * k,
            label: 10.0 * k,
            stars: 9.0 * k,
            refs: 8.0 * k,
            caption: 9.0 * k,
            head: 8.0 * k,
            foot: 9.0 * k,
            answer_label: 8.0 * k,
            answer: 7.5 * k,
            note: 8.5 * k,
            small: 7.5 * k,
            min_drawing: if large {
                LARGE_PRINT_MIN_PT
            } else {
                MIN_TEXT_PT
            },
            min_answer: if large { 10.0 } else { MIN_TEXT_PT },
            large,
        }
    }
}

impl Default for Type {
    fn default() -> Type {
        Type::new(Face::Regular, Face::Bold, false)
    }
}

/// Stars are drawn in DejaVu Sans, which has ★ and ☆, whatever the book's font.
const STAR_FACE: Face = Face::Regular;
const GREY: Color = Color::grey(90);
const RULE_GREY: Color = Color::grey(150);
/// Height kept at the foot of each page for its number.
const FOOTER_MM: f32 = 8.0;
/// Height kept at the top of a page for its running head.
const HEADER_MM: f32 = 7.0;
/// A section's full pages (all but its last) should use at least this share of the
/// live height; the book warns when a template's per_page leaves them emptier.
pub(super) const MIN_FILL: f32 = 0.70;
/// Space around each drawing's box.
const PAD_MM: f32 = 2.0;
/// Lines of answer text kept free under a tall answer drawing, and the most lines an
/// answer may take (longer ones are cut with "…").
const ANSWER_LINES: usize = 3;
const MAX_ANSWER_LINES: usize = 8;
/// The least a section's first page may shrink its drawings to keep every row of the
/// page under its heading (rather than drop a row).
const FIRST_PAGE_MIN_SCALE: f32 = 0.7;

/// The share of a section's first page an intro may take.
const MAX_INTRO_SHARE: f32 = 0.35;
/// DejaVu Sans: ascender and descender, in em (its hhea table).
const ASCENT: f32 = 0.928;
const DESCENT: f32 = 0.236;

fn em(size: f32) -> f32 {
    size * MM_PER_PT
}

/// The baseline that puts text's ascenders at `top`.
fn first_baseline(top: f32, size: f32) -> f32 {
    top + ASCENT * em(size)
}

/// Height of one line of text at `size`, from ascender to descender.
fn line_h(size: f32) -> f32 {
    (ASCENT + DESCENT) * em(size)
}

fn leading(size: f32) -> f32 {
    em(size) * 1.35
}

/// Height of `lines` lines of wrapped text.
fn text_block_h(lines: usize, size: f32) -> f32 {
    if lines == 0 {
        0.0
    } else {
        line_h(size) + (lines - 1) as f32 * leading(size)
    }
}

/// A page's heading, its ascenders at the top of `area`.
fn page_heading(ty: &Type, c: &mut Canvas, area: Rect, text: &str) {
    c.text(
        area.x,
        first_baseline(area.y, ty.heading),
        ty.heading,
        ty.bold,
        Align::Left,
        text,
    );
}

/// A bold subheading at the left of `area`, its first line's top at `top`.
fn subheading(ty: &Type, c: &mut Canvas, area: Rect, top: f32, text: &str) {
    c.text(
        area.x,
        first_baseline(top, ty.subhead),
        ty.subhead,
        ty.bold,
        Align::Left,
        text,
    );
}

/// Draw wrapped lines from `top`; returns the height used.
fn paragraph(c: &mut Canvas, x: f32, top: f32, w: f32, size: f32, face: Face, text: &str) -> f32 {
    let lines = wrap(text, size, face, w);
    let mut y = first_baseline(top, size);
    for line in &lines {
        c.text(x, y, size, face, Align::Left, line);
        y += leading(size);
    }
    text_block_h(lines.len(), size)
}

/// What each page is.
pub(super) enum Kind {
    Title,
    Copyright,
    Contents {
        first: usize,
        n: usize,
    },
    HowTo(usize),
    /// Puzzles `first..first + n` of a section; `opens`: its first page.
    Puzzles {
        chapter: usize,
        first: usize,
        n: usize,
        opens: bool,
    },
    Answers(Vec<Block>),
    Notes,
}

/// A band of an answer page.
pub(super) enum Block {
    /// The "Answers" heading.
    Title,
    /// A section's heading in the key, with its game's note.
    Section { chapter: usize },
    /// Answers `first..first + n` of a section, side by side.
    Row {
        chapter: usize,
        first: usize,
        n: usize,
        height: f32,
    },
}

/// Where a section's puzzles go: the same box on every page. The first page holds the
/// heading and intro and as many rows of boxes as fit under them (none, for a large
/// puzzle under a long intro: the page then opens the section).
pub(super) struct SectionLayout {
    /// Height of the first page's heading, intro and pointer lines.
    header: f32,
    cols: usize,
    box_w: f32,
    box_h: f32,
    /// The box height on the section's first page: `box_h`, or less so that every row
    /// fits under the heading and intro (drawings shrunk, never by more than
    /// [`FIRST_PAGE_MIN_SCALE`], and never below the drawing text minimum).
    first_box_h: f32,
    /// Puzzles a page: the template's, or in large print the most (at most half the
    /// template's) whose drawings keep their text at the large-print minimum.
    per_page: usize,
}

/// The whole book, planned.
pub(super) struct Plan {
    pub kinds: Vec<Kind>,
    /// Pages before the notes added to reach the minimum and an even count.
    pub content_pages: usize,
    contents: Vec<(String, usize)>,
    howto_pages: Vec<usize>,
    section_pages: Vec<usize>,
    /// [section][k]: the page of the section's k-th puzzle (and of its answer, 0: none).
    puzzle_page: Vec<Vec<usize>>,
    answer_page: Vec<Vec<usize>>,
    sections: Vec<SectionLayout>,
    answer_cols: Vec<usize>,
    /// [section]: the tallest an answer drawing may be.
    answer_max_h: Vec<f32>,
    /// [section]: the one scale (mm a unit) its answers are drawn at, for a game that
    /// gives their sizes in units; None: each fitted to its column.
    answer_scale: Vec<Option<f32>>,
    answers_page: usize,
    /// Sections whose full pages would use less than [`MIN_FILL`] of the height.
    pub fill_notes: Vec<String>,
}

fn label_h(ty: &Type) -> f32 {
    line_h(ty.label) + 1.5
}
fn caption_h(ty: &Type) -> f32 {
    line_h(ty.caption) + 1.5
}
fn answer_label_h(ty: &Type) -> f32 {
    line_h(ty.answer_label) + 1.0
}

/// The height a section's first page needs above its puzzles.
fn section_header_h(ty: &Type, chapter: &Chapter, w: f32) -> f32 {
    let mut h = line_h(ty.heading) + 3.0;
    if let Some(intro) = &chapter.intro {
        h += text_block_h(wrap(intro, ty.body, ty.regular, w).len(), ty.body) + 2.0;
    }
    h + line_h(ty.refs) + 3.0
}

/// Refuse an intro too long for the first page of its section.
pub(super) fn check_intro(ty: &Type, section: usize, intro: &str, live: Rect) -> Result<()> {
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
const INSIDE_LINES: usize = 2;

/// The most characters a title and subtitle may have together: KDP's limit for a
/// book's title, and far more than a title page shows well.
pub const MAX_TITLE_CHARS: usize = 200;

/// Refuse a title, subtitle, author or publisher the title page cannot hold, and a
/// section heading wider than its one line: before any puzzle is made, with the
/// size that fits.
pub(super) fn check_titles(ty: &Type, t: &Template, area: Rect) -> Result<()> {
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
fn check_words_fit(field: &str, text: &str, size: f32, face: Face, width: f32) -> Result<()> {
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
fn chars_that_fit(text: &str, size: f32, face: Face, width: f32) -> usize {
    let n = text.chars().count().max(1);
    let w = text_width(text, size, face).max(1e-6);
    ((n as f32) * width / w).floor() as usize
}

/// The answer text under an answer, as it will be drawn.
fn answer_lines(ty: &Type, chapter: &Chapter, item: usize, w: f32) -> Vec<String> {
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
fn answers_legible(ty: &Type, chapter: &Chapter, w: f32, max_h: f32) -> bool {
    (0..chapter.items.len()).all(|i| {
        let (dw, dh) = answer_size(chapter, i, w, max_h);
        let area = Rect::new(0.0, 0.0, dw, dh);
        let mut c = Canvas::new();
        chapter.items.draw_answer(i, &mut c, area);
        c.min_text_pt().is_none_or(|s| s >= ty.min_answer - 1e-3)
    })
}

/// The drawing size of answer `i` in a column `w` wide, at most `max_h` tall.
fn answer_size(chapter: &Chapter, i: usize, w: f32, max_h: f32) -> (f32, f32) {
    let aspect = chapter.items.answer_aspect(i).max(1e-3);
    let h = (w / aspect).min(max_h);
    (h * aspect, h)
}

/// A section's answers `cols` to a row in columns `col_w` wide (drawings at most
/// `max_h` tall): each row as (first answer, how many, height).
fn column_rows(
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
fn answer_row_h(ty: &Type, draw_h: f32, lines: usize) -> f32 {
    answer_label_h(ty) + draw_h + text_block_h(lines, ty.answer) + 1.0 + 2.0 * PAD_MM
}

/// The narrowest an answer's box is drawn at one scale (room for its text), in mm.
const MIN_SCALED_ANSWER_W: f32 = 45.0;

/// At one scale `s` (mm a unit), the width of answer `i`'s box (padding included).
fn scaled_box_w(chapter: &Chapter, i: usize, s: f32) -> f32 {
    let (uw, _) = chapter.items.answer_units(i).unwrap_or((1.0, 1.0));
    (uw * s).max(MIN_SCALED_ANSWER_W) + 2.0 * PAD_MM
}

/// A section's answers at one scale `s`, packed into rows across `width`: each row as
/// (first answer, how many, height).
fn scaled_rows(ty: &Type, chapter: &Chapter, s: f32, width: f32) -> Vec<(usize, usize, f32)> {
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
fn answer_scale(ty: &Type, chapter: &Chapter, width: f32, avail: f32) -> Result<f32> {
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
const MIN_UNIT_SHARE: f32 = 0.7;

fn within(b: Rect, area: Rect) -> bool {
    const EPS: f32 = 0.05;
    b.x >= area.x - EPS
        && b.y >= area.y - EPS
        && b.right() <= area.right() + EPS
        && b.bottom() <= area.bottom() + EPS
}

/// Plan every page for one page geometry.
pub(super) fn plan(
    ty: &Type,
    template: &Template,
    chapters: &[Chapter],
    howtos: &[HowTo],
    g: &Geometry,
    with_answers: bool,
) -> Result<Plan> {
    let live = g.live(1);
    let body_h = live.h - FOOTER_MM;
    let mut kinds = vec![Kind::Title, Kind::Copyright];

    // Contents: how-to pages, sections, answers.
    let entries = howtos.len() + chapters.len() + usize::from(with_answers);
    let contents_line = leading(ty.body) * 1.5;
    let per_contents =
        (((body_h - line_h(ty.heading) - 8.0) / contents_line).floor() as usize).max(1);
    for first in (0..entries).step_by(per_contents) {
        kinds.push(Kind::Contents {
            first,
            n: per_contents.min(entries - first),
        });
    }
    let mut howto_pages = Vec::new();
    for h in 0..howtos.len() {
        howto_pages.push(kinds.len() + 1);
        kinds.push(Kind::HowTo(h));
    }

    let SectionPages {
        sections,
        section_pages,
        puzzle_page,
        fill_notes,
    } = plan_sections(ty, chapters, live, body_h, &mut kinds);

    // The answer key: sections run on, answers in rows.
    let answers_page = kinds.len() + 1;
    let key = if with_answers {
        plan_answers(ty, template, chapters, live, body_h, &mut kinds)?
    } else {
        AnswerKey::none(chapters)
    };

    let content_pages = kinds.len();
    let target = content_pages.max(super::MIN_PAGES).next_multiple_of(2);
    while kinds.len() < target {
        kinds.push(Kind::Notes);
    }

    let mut contents: Vec<(String, usize)> = howtos
        .iter()
        .zip(&howto_pages)
        .map(|(h, &page)| (format!("How to play {}", h.title), page))
        .collect();
    contents.extend(
        chapters
            .iter()
            .zip(&section_pages)
            .map(|(p, &page)| (p.heading.clone(), page)),
    );
    if with_answers {
        contents.push(("Answers".into(), answers_page));
    }
    Ok(Plan {
        kinds,
        content_pages,
        contents,
        howto_pages,
        section_pages,
        puzzle_page,
        answer_page: key.page,
        sections,
        answer_cols: key.cols,
        answer_max_h: key.max_h,
        answer_scale: key.scale,
        answers_page,
        fill_notes,
    })
}

/// The sections' pages, as planned.
struct SectionPages {
    sections: Vec<SectionLayout>,
    /// [section]: its first page.
    section_pages: Vec<usize>,
    /// [section][k]: the page of its k-th puzzle.
    puzzle_page: Vec<Vec<usize>>,
    /// Sections whose full pages would use less than [`MIN_FILL`] of the height.
    fill_notes: Vec<String>,
}

/// Plan every section's puzzle pages onto `kinds`: the same box on every page, as many
/// rows as fit under the first page's heading (drawn a little smaller rather than
/// dropping a row), and a note for a section whose full pages would be thin.
fn plan_sections(
    ty: &Type,
    chapters: &[Chapter],
    live: Rect,
    body_h: f32,
    kinds: &mut Vec<Kind>,
) -> SectionPages {
    let mut sections = Vec::new();
    let mut section_pages = Vec::new();
    let mut puzzle_page = Vec::new();
    let mut fill_notes = Vec::new();
    for (p, chapter) in chapters.iter().enumerate() {
        let header = section_header_h(ty, chapter, live.w).max(HEADER_MM);
        let tiling = Tiling {
            grid: Rect::new(0.0, 0.0, live.w, body_h - HEADER_MM),
            extra: label_h(ty) + caption_h(ty) + 2.0 * PAD_MM,
            aspect: chapter.items.aspect(),
        };
        let per_page = if ty.large {
            tiling.large_print_per_page(ty, chapter)
        } else {
            chapter.per_page
        };
        let layout = tiling.layout(per_page);
        fill_notes.extend(tiling.fill_note(chapter, per_page, live.h));
        let (first_rows, first_box_h) = tiling.first_page(ty, chapter, body_h - header, &layout);
        let first_slots = (first_rows * layout.cols).min(per_page);
        sections.push(SectionLayout {
            header,
            cols: layout.cols,
            box_w: layout.box_w,
            box_h: layout.box_h,
            first_box_h,
            per_page,
        });
        section_pages.push(kinds.len() + 1);
        puzzle_page.push(place_puzzles(
            kinds,
            p,
            chapter.items.len(),
            first_slots,
            per_page,
        ));
    }
    SectionPages {
        sections,
        section_pages,
        puzzle_page,
        fill_notes,
    }
}

/// How a section's puzzles tile the page under its header: the grid they fill, the
/// height a box needs besides its drawing, and the drawings' aspect.
struct Tiling {
    grid: Rect,
    extra: f32,
    aspect: f32,
}

/// A section's boxes at some number of puzzles a page.
struct BoxLayout {
    rows: usize,
    cols: usize,
    box_w: f32,
    /// The drawing's width in its box.
    draw_w: f32,
    box_h: f32,
}

impl Tiling {
    /// The boxes for `per_page` puzzles a page.
    fn layout(&self, per_page: usize) -> BoxLayout {
        let (grid, aspect, extra) = (self.grid, self.aspect, self.extra);
        let (rows, cols) = best_grid(per_page, grid, aspect, extra);
        // Each box as tall as its drawing needs (a wide drawing in one row does
        // not need the whole page), so the first page fits what it can at the
        // same size.
        let box_w = grid.w / cols as f32;
        let draw_w = (box_w - 2.0 * PAD_MM)
            .min((grid.h / rows as f32 - extra) * aspect)
            .max(1.0);
        let box_h = (draw_w / aspect + extra).min(grid.h / rows as f32);
        BoxLayout {
            rows,
            cols,
            box_w,
            draw_w,
            box_h,
        }
    }

    /// Whether every puzzle of `chapter` drawn `draw_w` wide keeps its text at the
    /// book's smallest drawing size.
    fn legible(&self, ty: &Type, chapter: &Chapter, draw_w: f32) -> bool {
        let area = Rect::new(0.0, 0.0, draw_w, draw_w / self.aspect);
        (0..chapter.items.len()).all(|i| {
            let mut c = Canvas::new();
            chapter.items.draw(i, &mut c, area);
            c.min_text_pt().is_none_or(|s| s >= ty.min_drawing - 1e-3)
        })
    }

    /// Large print: fewer a page than the section asks until every drawing's text
    /// reaches the large-print size (at least one).
    fn large_print_per_page(&self, ty: &Type, chapter: &Chapter) -> usize {
        let mut per_page = chapter.per_page;
        while per_page > 1 {
            if self.legible(ty, chapter, self.layout(per_page).draw_w) {
                break;
            }
            per_page -= 1;
        }
        per_page
    }

    /// How much of the live height (`live_h`) a full page of `n` puzzles uses.
    fn fill(&self, n: usize, live_h: f32) -> f32 {
        let l = self.layout(n);
        (HEADER_MM + l.rows as f32 * l.box_h) / live_h
    }

    /// A full page of the section (one that is not its last) should use at least
    /// MIN_FILL of the live height; when it would not, a note naming the per_page that
    /// does.
    fn fill_note(&self, chapter: &Chapter, per_page: usize, live_h: f32) -> Option<String> {
        let fill = self.fill(per_page, live_h);
        let thin = chapter.items.len() > per_page && fill < MIN_FILL;
        if !thin {
            return None;
        }
        let better = (per_page + 1..=crate::book::template::MAX_PER_PAGE)
            .find(|&n| self.fill(n, live_h) >= MIN_FILL);
        Some(format!(
            "section {} ({}): a full page of its puzzles uses {:.0}% of the page's height{}",
            chapter.number,
            chapter.heading,
            100.0 * fill,
            match better {
                Some(n) => format!(
                    "; per_page = {n} fills {:.0}%",
                    100.0 * self.fill(n, live_h)
                ),
                None => String::new(),
            }
        ))
    }

    /// The rows on the section's first page, `room` mm under its header, and their
    /// box height: as many as fit, or every row of a full page drawn a little smaller
    /// when the drawings stay legible (a first page that drops a row looks half empty).
    fn first_page(&self, ty: &Type, chapter: &Chapter, room: f32, l: &BoxLayout) -> (usize, f32) {
        // Rows under the first page's header; a whisker of rounding is not a row lost.
        let first_rows = ((room / l.box_h) + 1e-3).floor().max(0.0) as usize;
        let needed = l.rows.min(chapter.items.len().div_ceil(l.cols));
        if first_rows < needed {
            let h = room / needed as f32;
            let scale = (h - self.extra) / (l.box_h - self.extra);
            let small_w = l.draw_w * scale;
            if scale >= FIRST_PAGE_MIN_SCALE && self.legible(ty, chapter, small_w) {
                return (needed, h);
            }
        }
        (first_rows, l.box_h)
    }
}

/// Add the pages of chapter `p`'s `count` puzzles to `kinds`: `first_slots` on its
/// opening page (which opens even with none), `per_page` on each after. Each
/// puzzle's page.
fn place_puzzles(
    kinds: &mut Vec<Kind>,
    p: usize,
    count: usize,
    first_slots: usize,
    per_page: usize,
) -> Vec<usize> {
    let mut pages = Vec::new();
    let mut first = 0;
    let mut opens = true;
    while opens || first < count {
        let slots = if opens { first_slots } else { per_page };
        let n = slots.min(count - first);
        pages.extend(std::iter::repeat_n(kinds.len() + 1, n));
        kinds.push(Kind::Puzzles {
            chapter: p,
            first,
            n,
            opens,
        });
        first += n;
        opens = false;
    }
    pages
}

/// The answer key as planned: for each section, each answer's page, the columns and
/// tallest drawing of a section laid out in columns, and the one scale of a section
/// drawn at one scale.
struct AnswerKey {
    page: Vec<Vec<usize>>,
    cols: Vec<usize>,
    max_h: Vec<f32>,
    scale: Vec<Option<f32>>,
}

impl AnswerKey {
    /// No answer key.
    fn none(chapters: &[Chapter]) -> AnswerKey {
        AnswerKey {
            page: chapters.iter().map(|p| vec![0; p.items.len()]).collect(),
            cols: vec![0; chapters.len()],
            max_h: vec![0.0; chapters.len()],
            scale: vec![None; chapters.len()],
        }
    }
}

/// Plan the answer key's pages onto `kinds`: sections run on one after another, their
/// answers in rows (in columns, or packed by width at one scale).
fn plan_answers(
    ty: &Type,
    template: &Template,
    chapters: &[Chapter],
    live: Rect,
    body_h: f32,
    kinds: &mut Vec<Kind>,
) -> Result<AnswerKey> {
    let mut key = AnswerKey::none(chapters);
    let avail = body_h - HEADER_MM;
    let mut blocks = vec![Block::Title];
    let mut used = line_h(ty.heading) + 5.0;
    let flush = |blocks: &mut Vec<Block>, kinds: &mut Vec<Kind>| {
        kinds.push(Kind::Answers(std::mem::take(blocks)));
    };
    for (p, chapter) in chapters.iter().enumerate() {
        if !chapter.items.has_answers() {
            continue;
        }
        let section_h = answer_section_h(ty, chapter, live.w);
        let text_room = text_block_h(ANSWER_LINES, ty.answer) + 1.0;
        let max_draw_h = avail - section_h - answer_label_h(ty) - text_room - 2.0 * PAD_MM;
        let scaled = template.answers.columns.is_none()
            && (0..chapter.items.len()).all(|i| chapter.items.answer_units(i).is_some());
        // The section's rows of answers: (first, how many, height).
        let rows: Vec<(usize, usize, f32)> = if scaled {
            // One scale for the section, answers packed into rows by their width.
            let s = answer_scale(ty, chapter, live.w, avail - section_h)?;
            key.scale[p] = Some(s);
            scaled_rows(ty, chapter, s, live.w)
        } else {
            let cols = template.answers.columns.unwrap_or_else(|| {
                (1..=super::template::MAX_ANSWER_COLUMNS)
                    .rev()
                    .find(|&c| {
                        answers_legible(ty, chapter, live.w / c as f32 - 2.0 * PAD_MM, max_draw_h)
                    })
                    .unwrap_or(1)
            });
            key.cols[p] = cols;
            key.max_h[p] = max_draw_h;
            column_rows(
                ty,
                chapter,
                cols,
                live.w / cols as f32 - 2.0 * PAD_MM,
                max_draw_h,
            )
        };
        let mut first_row = true;
        for (first, n, height) in rows {
            let need = height + if first_row { section_h } else { 0.0 };
            if used + need > avail && !blocks.is_empty() {
                flush(&mut blocks, kinds);
                used = 0.0;
            }
            if first_row {
                blocks.push(Block::Section { chapter: p });
                used += section_h;
                first_row = false;
            }
            for slot in &mut key.page[p][first..first + n] {
                *slot = kinds.len() + 1;
            }
            blocks.push(Block::Row {
                chapter: p,
                first,
                n,
                height,
            });
            used += height;
        }
    }
    if !blocks.is_empty() {
        flush(&mut blocks, kinds);
    }
    Ok(key)
}

/// Height of a section's heading (and its game's note) in the answer key.
fn answer_section_h(ty: &Type, chapter: &Chapter, w: f32) -> f32 {
    let mut h = line_h(ty.subhead) + 3.0;
    if let Some(note) = chapter.items.answer_note() {
        let lines = wrap(&typeset(&note), ty.note, ty.regular, w).len();
        h += text_block_h(lines, ty.note) + 2.0;
    }
    h
}

/// What the pages print about the book as a whole.
pub(super) struct BookText<'a> {
    pub template: &'a Template,
    pub seed: u64,
    pub template_name: Option<&'a str>,
    /// The volume of a series, if the book is one.
    pub volume: Option<u32>,
    pub with_answers: bool,
    /// The PDF creation date, when the book has one.
    pub date: Option<&'a str>,
}

/// Draw every page.
pub(super) fn draw_all(
    ty: &Type,
    book: &BookText<'_>,
    chapters: &[Chapter],
    howtos: &[HowTo],
    g: &Geometry,
    plan: &Plan,
) -> Vec<Canvas> {
    use rayon::prelude::*;
    plan.kinds
        .par_iter()
        .enumerate()
        .map(|(i, kind)| {
            let page = i + 1;
            let live = g.live(page);
            let (body, foot) = live.take_bottom(FOOTER_MM);
            let mut c = Canvas::new();
            let mut head = None;
            let mut numbered = true;
            match kind {
                Kind::Title => {
                    title_page(ty, &mut c, body, book, chapters);
                    numbered = false;
                }
                Kind::Copyright => {
                    copyright_page(ty, &mut c, body, book, chapters);
                    numbered = false;
                }
                Kind::Contents { first, n } => contents_page(
                    ty,
                    &mut c,
                    body,
                    &plan.contents[*first..first + n],
                    *first == 0,
                ),
                Kind::HowTo(h) => howto_page(ty, &mut c, body, &howtos[*h], chapters),
                Kind::Puzzles {
                    chapter,
                    first,
                    n,
                    opens,
                } => {
                    if !opens {
                        head = Some(chapters[*chapter].heading.as_str());
                    }
                    puzzle_page(
                        ty,
                        &mut c,
                        body,
                        &chapters[*chapter],
                        *chapter,
                        *first,
                        *n,
                        *opens,
                        plan,
                    );
                }
                Kind::Answers(blocks) => {
                    if page != plan.answers_page {
                        head = Some("Answers");
                    }
                    answer_page(ty, &mut c, body, blocks, chapters, plan);
                }
                Kind::Notes => notes_page(ty, &mut c, body),
            }
            let recto = Geometry::is_recto(page);
            let (x, align) = if recto {
                (live.right(), Align::Right)
            } else {
                (live.x, Align::Left)
            };
            if let Some(h) = head {
                c.text_colored(
                    x,
                    first_baseline(live.y, ty.head),
                    ty.head,
                    ty.regular,
                    align,
                    GREY,
                    h,
                );
            }
            if numbered {
                c.text(
                    x,
                    foot.bottom() - DESCENT * em(ty.foot),
                    ty.foot,
                    ty.regular,
                    align,
                    &page.to_string(),
                );
            }
            c
        })
        .collect()
}

/// "22 puzzles and 4 boards in 5 sections, with answers".
fn what_is_inside(chapters: &[Chapter], with_answers: bool) -> String {
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

fn centred_lines(c: &mut Canvas, area: Rect, top: f32, size: f32, face: Face, text: &str) -> f32 {
    let mut y = first_baseline(top, size);
    let lines = wrap(text, size, face, area.w);
    for line in &lines {
        c.text(area.center().x, y, size, face, Align::Center, line);
        y += leading(size);
    }
    text_block_h(lines.len(), size)
}

fn title_page(ty: &Type, c: &mut Canvas, area: Rect, book: &BookText<'_>, chapters: &[Chapter]) {
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
fn ranges(v: &[u64]) -> String {
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

fn copyright_page(
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
        // The facts to make the book again are the publisher's: beside the PDF.
        push(
            format!(
                "Every puzzle and board was made, and checked by a second, independent method, with puzzlebook {}.",
                env!("CARGO_PKG_VERSION")
            ),
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
fn notice_lines(ty: &Type, book: &BookText<'_>) -> Vec<(String, Face, f32)> {
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
fn section_items(chapters: &[Chapter]) -> Vec<String> {
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
pub(super) fn remake_command(
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
fn shell_word(w: &str) -> String {
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
fn draw_lines(c: &mut Canvas, area: Rect, h: f32, lines: &[(String, Face, f32)]) {
    let mut top = area.bottom() - h;
    for (s, face, size) in lines {
        if s.is_empty() {
            top += leading(*size);
            continue;
        }
        top += paragraph(c, area.x, top, area.w, *size, *face, s) - line_h(*size) + leading(*size);
    }
}

fn contents_page(ty: &Type, c: &mut Canvas, area: Rect, entries: &[(String, usize)], first: bool) {
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
                area.right() - num_w - 2.0,
                y,
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

fn howto_page(ty: &Type, c: &mut Canvas, area: Rect, h: &HowTo, chapters: &[Chapter]) {
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
fn slot_box(s: &SectionLayout, grid_top: f32, x: f32, slot: usize, opens: bool) -> Rect {
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
fn place(b: Rect, aspect: f32, top_h: f32, bottom_h: f32) -> (Rect, Rect, Rect) {
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

fn stars(n: u8) -> String {
    let n = usize::from(n.clamp(1, 5));
    format!("{}{}", "★".repeat(n), "☆".repeat(5 - n))
}

#[allow(clippy::too_many_arguments)]
fn puzzle_page(
    ty: &Type,
    c: &mut Canvas,
    area: Rect,
    chapter: &Chapter,
    p: usize,
    first: usize,
    n: usize,
    opens: bool,
    plan: &Plan,
) {
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
            area.x,
            first_baseline(top, ty.refs),
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
                c.text_colored(right, base, ty.refs, ty.regular, Align::Right, GREY, &text);
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

fn answer_page(
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

fn notes_page(ty: &Type, c: &mut Canvas, area: Rect) {
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

/// Check every page before it is written: every mark inside the page's safe area (its
/// live area), no text under 7 pt. A game's drawing too small to read names its
/// section and what to change.
pub(super) fn check_pages(
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
                    (b.bottom() - live.bottom()).max(b.right() - live.right()).max(0.1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_join_runs() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0–3, 7, 9–10");
        assert_eq!(ranges(&[5]), "5");
    }

    #[test]
    fn stars_have_five_places() {
        assert_eq!(stars(2), "★★☆☆☆");
        assert_eq!(stars(9), "★★★★★");
        assert!(crate::canvas::glyph_id(Face::Regular, '★') != 0);
        assert!(crate::canvas::glyph_id(Face::Regular, '☆') != 0);
    }
}
