//! Planning and drawing the pages of a book: where everything goes, the page each
//! puzzle and answer lands on, and the drawing of each kind of page.

use super::layout::{best_grid, Geometry};
use super::{typeset, Chapter, HowTo, Template};
use crate::canvas::{
    fit_size, pt, text_width, wrap, Align, Canvas, Color, Face, Rect, Stroke, MIN_LINE_MM,
    MIN_TEXT_PT, MM_PER_PT,
};
use crate::{Error, Result};
mod answers;
mod back;
mod check;
mod draw;
mod front;
mod plan;
mod puzzles;
use answers::*;
use back::*;
pub(crate) use check::*;
pub(crate) use draw::*;
pub(crate) use front::*;
pub(crate) use plan::*;
use puzzles::*;

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
