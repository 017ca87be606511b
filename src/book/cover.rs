//! The full-wrap paperback cover: back, spine and front on one sheet with bleed on
//! every edge, sized to the interior the same template makes.
//!
//! Geometry (KDP's rules): width = bleed + trim width + spine + trim width + bleed,
//! height = trim height + 2 x bleed, bleed 0.125 in, spine = pages x the paper's
//! thickness a page. Text keeps 0.125 in (3.175 mm) inside the trim and the spine's
//! folds on the front and back; spine text keeps 0.0625 in (1.5875 mm) from each fold
//! (the services' spine rule) and appears only from [`SPINE_TEXT_MIN_PAGES`] pages on.
//! The back keeps a clear 2 x 1.2 in box for the barcode, 0.25 in above the bottom
//! trim and 0.25 in from the spine.

use super::layout::{Sheets, BLEED_MM, MM_PER_IN};
use super::template::{parse_hex_color, Paper, Template};
use super::{pdf, BookOptions, Composed};
use crate::canvas::{cap_height, text_width, wrap, Align, Canvas, Color, Face, Rect, MM_PER_PT};
use crate::{Error, Result};

/// Interiors with fewer pages get no spine text (KDP's rule).
pub const SPINE_TEXT_MIN_PAGES: usize = 80;
/// Text keeps this far inside the trim and the spine's folds on front and back, in mm.
pub const SAFE_MM: f32 = 0.125 * MM_PER_IN;
/// Spine text keeps this far from each fold, in mm.
pub const SPINE_SAFE_MM: f32 = 0.0625 * MM_PER_IN;
/// The barcode box: 2 x 1.2 in, in mm.
pub const BARCODE_MM: (f32, f32) = (2.0 * MM_PER_IN, 1.2 * MM_PER_IN);
/// The barcode box's distance from the bottom trim and from the spine, in mm.
pub const BARCODE_OFFSET_MM: f32 = 0.25 * MM_PER_IN;
/// The design margin of front and back (wider than the safe zone), in mm.
const MARGIN: f32 = 0.375 * MM_PER_IN;
/// The top share of the front that holds the title and subtitle.
const TITLE_SHARE: f32 = 0.31;

/// The spine's width for `pages` interior pages on `paper`, in mm.
pub fn spine_mm(pages: usize, paper: Paper) -> f32 {
    pages as f32 * paper.inches_per_page() * MM_PER_IN
}

/// The cover sheet: panel sizes and where they are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoverGeometry {
    /// Trim width of one panel (the book's trim width), in mm.
    pub trim_w: f32,
    /// Trim height, in mm.
    pub trim_h: f32,
    /// Spine width, in mm.
    pub spine: f32,
}

impl CoverGeometry {
    /// The whole cover's trim width (back + spine + front), in mm.
    pub fn width(&self) -> f32 {
        2.0 * self.trim_w + self.spine
    }
    /// The back panel, in trim coordinates (mm from the cover trim's top-left corner).
    pub fn back(&self) -> Rect {
        Rect::new(0.0, 0.0, self.trim_w, self.trim_h)
    }
    /// The spine.
    pub fn spine_rect(&self) -> Rect {
        Rect::new(self.trim_w, 0.0, self.spine, self.trim_h)
    }
    /// The front panel.
    pub fn front(&self) -> Rect {
        Rect::new(self.trim_w + self.spine, 0.0, self.trim_w, self.trim_h)
    }
    /// The clear box for the barcode on the back.
    pub fn barcode(&self) -> Rect {
        let (w, h) = BARCODE_MM;
        Rect::new(
            self.trim_w - BARCODE_OFFSET_MM - w,
            self.trim_h - BARCODE_OFFSET_MM - h,
            w,
            h,
        )
    }
}

impl Sheets for CoverGeometry {
    fn media(&self) -> (f32, f32) {
        (self.width() + 2.0 * BLEED_MM, self.trim_h + 2.0 * BLEED_MM)
    }
    fn trim_offset(&self, _page: usize) -> (f32, f32) {
        (BLEED_MM, BLEED_MM)
    }
    fn trim_box(&self, _page: usize) -> (f32, f32, f32, f32) {
        (
            BLEED_MM,
            BLEED_MM,
            BLEED_MM + self.width(),
            BLEED_MM + self.trim_h,
        )
    }
    fn has_bleed(&self) -> bool {
        true
    }
}

/// Where the front's drawing goes, in the front panel's own coordinates (mm from its
/// top-left trim corner), for a drawing of `aspect` (width / height).
pub(crate) fn art_box(trim_w: f32, trim_h: f32, aspect: f32) -> Rect {
    let pad = 5.0;
    let region = Rect::new(
        MARGIN + pad,
        trim_h * TITLE_SHARE + pad,
        trim_w - 2.0 * (MARGIN + pad),
        trim_h * (0.86 - TITLE_SHARE) - 2.0 * pad,
    );
    let w = region.w.min(region.h * aspect.max(0.05));
    let h = w / aspect.max(0.05);
    Rect::new(
        region.x + (region.w - w) / 2.0,
        region.y + (region.h - h) / 2.0,
        w,
        h,
    )
}

/// A finished cover.
#[derive(Debug, Clone)]
pub struct Cover {
    /// The one-page PDF.
    pub pdf: Vec<u8>,
    /// The sheet's geometry.
    pub geometry: CoverGeometry,
    /// Pages of the interior it wraps.
    pub interior_pages: usize,
    /// The paper the spine was sized for.
    pub paper: Paper,
    /// Whether the spine carries text.
    pub spine_text: bool,
    /// Things the user should know (one line each).
    pub warnings: Vec<String>,
}

/// Make the cover for the interior `template` makes with `opts`; `paper` overrides
/// the template's.
pub fn build(template: &Template, opts: &BookOptions, paper: Option<Paper>) -> Result<Cover> {
    let composed =
        crate::batch::thread_pool(opts.env.jobs)?.install(|| super::compose(template, opts))?;
    let volume_template = super::for_volume(template, opts.volume)?;
    let template = &volume_template;
    let paper = paper.unwrap_or(template.cover.paper);
    let (geometry, canvas, spine_text, warnings) = compose(template, &composed, paper)?;
    // A cover prints in colour even on a black-ink interior: a greyscale book's cover
    // is written in process colour.
    let color = match composed.meta.color {
        super::template::ColorMode::Gray => super::template::ColorMode::Cmyk,
        c => c,
    };
    let meta = pdf::Meta {
        title: format!("{} (cover)", composed.meta.title),
        color,
        ..composed.meta.clone()
    };
    Ok(Cover {
        pdf: pdf::render(&meta, &geometry, &[canvas])?,
        geometry,
        interior_pages: composed.pages.len(),
        paper,
        spine_text,
        warnings,
    })
}

/// Lay out the cover of `interior` on one canvas (trim coordinates of the whole
/// sheet; the background runs into the bleed).
pub fn compose(
    template: &Template,
    interior: &Composed,
    paper: Paper,
) -> Result<(CoverGeometry, Canvas, bool, Vec<String>)> {
    let pages = interior.pages.len();
    let g = CoverGeometry {
        trim_w: interior.geometry.trim_w,
        trim_h: interior.geometry.trim_h,
        spine: spine_mm(pages, paper),
    };
    let (r, gr, b) = parse_hex_color(&template.cover.background)
        .ok_or_else(|| Error::param("cover.background", "is not a colour: write \"#RRGGBB\""))?;
    let background = Color::rgb(r, gr, b);
    // Light text on a dark background, dark text on a light one.
    let lum = 0.2126 * f32::from(r) + 0.7152 * f32::from(gr) + 0.0722 * f32::from(b);
    let ink = if lum < 140.0 {
        Color::WHITE
    } else {
        Color::BLACK
    };
    let mut c = Canvas::new();
    c.rect(
        Rect::new(
            -BLEED_MM,
            -BLEED_MM,
            g.width() + 2.0 * BLEED_MM,
            g.trim_h + 2.0 * BLEED_MM,
        ),
        Some(background),
        None,
    );
    let mut warnings = Vec::new();
    let faces = interior.faces;
    front(&mut c, template, interior, &g, ink)?;
    back(&mut c, template, &g, ink, faces)?;
    let spine_text = spine(&mut c, template, &g, pages, ink, faces, &mut warnings);
    Ok((g, c, spine_text, warnings))
}

/// Lines of `text` wrapped to `width` at the largest size from `max` down to `min`
/// points that keeps to `max_lines` lines and `max_h` mm; None if even `min` does not.
fn fit_lines(
    text: &str,
    face: Face,
    width: f32,
    max_h: f32,
    max_lines: usize,
    (min, max): (f32, f32),
) -> Option<(f32, Vec<String>)> {
    let mut size = max;
    while size >= min {
        let lines = wrap(text, size, face, width);
        let h = lines.len() as f32 * size * MM_PER_PT * 1.2;
        let widest = lines
            .iter()
            .map(|l| text_width(l, size, face))
            .fold(0.0, f32::max);
        if lines.len() <= max_lines && h <= max_h && widest <= width {
            return Some((size, lines));
        }
        size -= 0.5;
    }
    None
}

fn front(
    c: &mut Canvas,
    t: &Template,
    interior: &Composed,
    g: &CoverGeometry,
    ink: Color,
) -> Result<()> {
    let (regular, bold) = interior.faces;
    let f = g.front();
    let inner = Rect::new(
        f.x + MARGIN,
        f.y + MARGIN,
        f.w - 2.0 * MARGIN,
        f.h - 2.0 * MARGIN,
    );
    // Title and subtitle in the top part, above the drawing.
    let title_h = g.trim_h * TITLE_SHARE - MARGIN - 2.0;
    let title = super::typeset::typeset(&t.title);
    let subtitle = super::typeset::typeset(&t.subtitle);
    let sub_h = if subtitle.is_empty() { 0.0 } else { 16.0 };
    let (size, lines) = fit_lines(&title, bold, inner.w, title_h - sub_h, 4, (14.0, 40.0))
        .ok_or_else(|| {
            Error::param(
                "title",
                "is too long for the front cover: shorten it (it must fit in 4 lines at 14 pt)",
            )
        })?;
    let cx = inner.center().x;
    let mut y = inner.y + size * MM_PER_PT;
    for l in &lines {
        c.text_colored(cx, y, size, bold, Align::Center, ink, l);
        y += size * MM_PER_PT * 1.2;
    }
    if !subtitle.is_empty() {
        let (s, sl) = fit_lines(&subtitle, regular, inner.w, sub_h, 2, (9.0, 14.0))
            .ok_or_else(|| Error::param("subtitle", "is too long for the front cover"))?;
        y += 1.0;
        for l in &sl {
            c.text_colored(cx, y, s, regular, Align::Center, ink, l);
            y += s * MM_PER_PT * 1.2;
        }
    }
    // The book's own first puzzle, on a white card.
    if let Some(art) = interior.cover_art.as_ref().filter(|_| t.cover.art) {
        let mut art = art.clone();
        if let Some(b) = art.ink_bounds() {
            c.rect(
                Rect::new(f.x + b.x - 4.0, b.y - 4.0, b.w + 8.0, b.h + 8.0),
                Some(Color::WHITE),
                None,
            );
        }
        art.translate(f.x, f.y);
        c.shapes.extend(art.shapes);
    }
    // The author at the foot.
    let author = super::typeset::typeset(&t.author);
    if !author.is_empty() {
        let size = fit_size_line(&author, bold, inner.w, 16.0)
            .ok_or_else(|| Error::param("author", "is too long for one line on the front cover"))?;
        c.text_colored(
            cx,
            inner.bottom() - 2.0,
            size,
            bold,
            Align::Center,
            ink,
            &author,
        );
    }
    Ok(())
}

/// The largest size up to `max` (and at least 9 pt) at which `text` fits in `width`.
fn fit_size_line(text: &str, face: Face, width: f32, max: f32) -> Option<f32> {
    let size = (width / text_width(text, 1.0, face).max(1e-6)).min(max);
    (size >= 9.0).then_some(size)
}

fn back(
    c: &mut Canvas,
    t: &Template,
    g: &CoverGeometry,
    ink: Color,
    (regular, _): (Face, Face),
) -> Result<()> {
    let b = g.back();
    let inner = Rect::new(
        b.x + MARGIN,
        b.y + MARGIN,
        b.w - 2.0 * MARGIN,
        b.h - 2.0 * MARGIN,
    );
    let bar = g.barcode();
    let blurb = super::typeset::typeset(&t.cover.blurb);
    if !blurb.is_empty() {
        // Above the barcode box, with room to spare.
        let room = bar.y - 6.0 - inner.y;
        let (size, lines) = fit_lines(&blurb, regular, inner.w, room, usize::MAX, (9.0, 12.0))
            .ok_or_else(|| {
                Error::param(
                    "cover.blurb",
                    "is too long for the back cover at 9 pt: shorten it",
                )
            })?;
        let mut y = inner.y + size * MM_PER_PT;
        for l in &lines {
            c.text_colored(inner.x, y, size, regular, Align::Left, ink, l);
            y += size * MM_PER_PT * 1.2;
        }
    }
    // The barcode's clear box: white, nothing on it.
    c.rect(bar, Some(Color::WHITE), None);
    Ok(())
}

/// Spine text (title, and author when there is one) when the interior has enough
/// pages and the spine is wide enough for 7 pt; whether it was drawn.
fn spine(
    c: &mut Canvas,
    t: &Template,
    g: &CoverGeometry,
    pages: usize,
    ink: Color,
    (_, bold): (Face, Face),
    warnings: &mut Vec<String>,
) -> bool {
    if pages < SPINE_TEXT_MIN_PAGES {
        warnings.push(format!(
            "no spine text: the interior has {pages} pages and spine text needs at least {SPINE_TEXT_MIN_PAGES}"
        ));
        return false;
    }
    let title = super::typeset::typeset(&t.title);
    let author = super::typeset::typeset(&t.author);
    let text = if author.is_empty() {
        title
    } else {
        format!("{title}  ·  {author}")
    };
    let s = g.spine_rect();
    // Across the spine the line takes its ascender plus descender (1.164 em).
    let across = (s.w - 2.0 * SPINE_SAFE_MM) / (1.164 * MM_PER_PT);
    let along = (s.h - 2.0 * MARGIN) / text_width(&text, 1.0, bold).max(1e-6);
    let size = across.min(along).min(14.0);
    if size < crate::canvas::MIN_TEXT_PT {
        warnings.push(format!(
            "no spine text: a {:.1} mm spine holds text under 7 pt",
            s.w
        ));
        return false;
    }
    // Centre the line's ink (ascender to descender) on the spine, not its cap height.
    let mid = s.center();
    let em = size * MM_PER_PT;
    let shift = (0.928 - 0.236) / 2.0 * em - cap_height(size) / 2.0;
    c.text_down(
        crate::canvas::pt(mid.x - shift, mid.y),
        size,
        bold,
        ink,
        &text,
    );
    true
}
