//! The full-wrap paperback cover: back, spine and front on one sheet with bleed on
//! every edge, sized to the interior the same template makes.
//!
//! Geometry (KDP's rules): width = bleed + trim width + spine + trim width + bleed,
//! height = trim height + 2 x bleed, bleed 0.125 in, spine = pages x the paper's
//! thickness a page. Text keeps 0.125 in (3.175 mm) inside the trim and the spine's
//! folds on the front and back; spine text keeps 0.0625 in (1.5875 mm) from each fold
//! (the services' spine rule) and appears only from `SPINE_TEXT_MIN_PAGES` pages on.
//! The back keeps a clear 2 x 1.2 in box for the barcode, 0.25 in above the bottom
//! trim and 0.25 in from the spine.

use super::layout::{Sheets, BLEED_MM, MM_PER_IN};
use super::motif;
use super::template::{parse_hex_color, Paper, Template};
use super::{pdf, BookOptions, Composed};
use crate::canvas::{
    cap_height, pt, text_width, wrap, Align, Canvas, Color, Face, Rect, MM_PER_PT,
};
use crate::game::Registry;
use crate::{Error, Result};

/// Interiors with fewer pages get no spine text (KDP's rule).
pub(crate) const SPINE_TEXT_MIN_PAGES: usize = 80;
/// Spine text keeps this far from each fold, in mm.
pub(crate) const SPINE_SAFE_MM: f32 = 0.0625 * MM_PER_IN;
/// The barcode box: 2 x 1.2 in, in mm.
pub(crate) const BARCODE_MM: (f32, f32) = (2.0 * MM_PER_IN, 1.2 * MM_PER_IN);
/// The barcode box's distance from the bottom trim and from the spine, in mm.
pub(crate) const BARCODE_OFFSET_MM: f32 = 0.25 * MM_PER_IN;
/// The design margin of front and back (wider than the safe zone), in mm.
const MARGIN: f32 = 0.375 * MM_PER_IN;
/// The top share of the front that holds the title and subtitle.
const TITLE_SHARE: f32 = 0.31;
/// The back's text keeps above this share of its height; the sample puzzle and the
/// barcode go below.
const BACK_SPLIT: f32 = 0.56;
/// A cover must sell as a thumbnail: at 150 px wide, the title's capitals must be
/// at least this many pixels tall to read.
pub(crate) const THUMBNAIL_CAP_PX: f32 = 7.0;
/// The thumbnail width the title is checked at, in pixels.
pub(crate) const THUMBNAIL_PX: f32 = 150.0;

/// The spine's width for `pages` interior pages on `paper`, in mm.
pub(crate) fn spine_mm(pages: usize, paper: Paper) -> f32 {
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
    pub(crate) fn spine_rect(&self) -> Rect {
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

/// Where the back's sample puzzle goes, in the back panel's coordinates, for a
/// drawing of `aspect`: below the text, left of the barcode box.
pub(crate) fn sample_box(trim_w: f32, trim_h: f32, aspect: f32) -> Rect {
    let region = sample_region(trim_w, trim_h);
    let w = region.w.min(region.h * aspect.max(0.05));
    let h = w / aspect.max(0.05);
    // Against the region's left and bottom, next to the barcode.
    Rect::new(region.x, region.bottom() - h, w, h)
}

/// The room the sample puzzle may take on the back (card padding and caption
/// included outside it).
fn sample_region(trim_w: f32, trim_h: f32) -> Rect {
    let pad = 4.0;
    let caption = 7.0;
    let left = MARGIN + pad;
    let right = trim_w - BARCODE_OFFSET_MM - BARCODE_MM.0 - 6.0 - pad;
    let top = trim_h * BACK_SPLIT + pad + caption;
    let bottom = trim_h - MARGIN - pad;
    Rect::new(left, top, (right - left).max(1.0), (bottom - top).max(1.0))
}

/// What the cover shows of the book (made with the interior).
#[derive(Debug, Clone)]
pub struct CoverFacts {
    /// The pattern and palette.
    pub theme: crate::game::Motif,
    /// The front's puzzle, drawn in `art_box` (front panel coordinates).
    pub art: Option<Canvas>,
    /// The back's sample puzzle, drawn in `sample_box`, and its caption.
    pub sample: Option<(Canvas, String)>,
    /// Why there is no sample, when there is none.
    pub sample_note: Option<String>,
    /// What's inside, one entry a game.
    pub inside: Vec<Inside>,
    /// The answers line, when the book has an answer key.
    pub answers: Option<String>,
    /// A large-print book: marked on the front.
    pub large_print: bool,
    /// Volume N of a series: marked on the front.
    pub volume: Option<u32>,
}

/// One game's line in "what's inside".
#[derive(Debug, Clone, PartialEq)]
pub struct Inside {
    /// The game's name in books ("Numbrix").
    pub title: String,
    /// What one item is called ("Puzzle").
    pub label: String,
    /// How many the book holds.
    pub count: usize,
    /// Their sizes, in book order, each once.
    pub sizes: Vec<String>,
    /// How many at 1 to 5 stars (all zero: the game does not rate).
    pub stars: [usize; 5],
}

impl Inside {
    /// "22 Flip puzzles: 3 × 3, 5 × 5 and 4 × 7", "26 Carcassonne puzzles: 12, 25 and
    /// 50 tiles".
    pub fn line(&self) -> String {
        let label = self.label.to_lowercase();
        let plural = if self.count == 1 {
            label
        } else {
            format!("{label}s")
        };
        let title_l = self.title.to_lowercase();
        let label_s = format!("{}s", self.label.to_lowercase());
        let mut s = if title_l.ends_with(&label_s) {
            // "Catan boards": the title names the items; one is "1 Catan board".
            let title = if self.count == 1 {
                self.title[..self.title.len() - 1].to_string()
            } else {
                self.title.clone()
            };
            format!("{} {title}", self.count)
        } else {
            format!("{} {} {plural}", self.count, self.title)
        };
        if !self.sizes.is_empty() {
            s.push_str(": ");
            // A size is never broken across lines ("3 × 8").
            s.push_str(&sizes_text(&self.sizes).replace(" × ", "\u{a0}×\u{a0}"));
        }
        s
    }
    /// "★ 6 · ★★ 10 · ★★★ 6", or None for a game without ratings.
    pub fn difficulty(&self) -> Option<String> {
        let parts: Vec<String> = (0..5)
            .filter(|&k| self.stars[k] > 0)
            .map(|k| format!("{} {}", "★".repeat(k + 1), self.stars[k]))
            .collect();
        (!parts.is_empty()).then(|| parts.join("  ·  "))
    }
}

/// Sizes joined: "12, 25 and 50 tiles" when they share their last word, else each
/// whole ("3 × 3, 5 × 5 and 4 × 7").
fn sizes_text(sizes: &[String]) -> String {
    let split: Vec<Option<(&str, &str)>> = sizes.iter().map(|s| s.rsplit_once(' ')).collect();
    if sizes.len() > 1 {
        if let Some(Some((_, unit))) = split.first() {
            let shared = split.iter().all(|p| {
                p.is_some_and(|(n, u)| u == *unit && n.chars().all(|c| c.is_ascii_digit()))
            });
            if shared {
                let numbers: Vec<String> =
                    split.iter().flatten().map(|(n, _)| n.to_string()).collect();
                return format!("{} {unit}", join_and(&numbers));
            }
        }
    }
    join_and(sizes)
}

/// "a", "a and b", "a, b and c".
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
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
pub fn build<R: Registry>(
    template: &Template,
    opts: &BookOptions,
    paper: Option<Paper>,
) -> Result<Cover> {
    let composed = crate::batch::thread_pool(opts.env.jobs)?
        .install(|| super::compose::<R>(template, opts))?;
    // The volume is the front's mark: the subtitle stays the template's own.
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
    let facts = &interior.cover;
    let (theme_bg, theme_accent) = motif::palette(facts.theme);
    let colour = |key: &'static str, v: &Option<String>, default: Color| -> Result<Color> {
        match v {
            None => Ok(default),
            Some(v) => parse_hex_color(v)
                .map(|(r, g, b)| Color::rgb(r, g, b))
                .ok_or_else(|| Error::param(key, "is not a colour: write \"#RRGGBB\"")),
        }
    };
    let background = colour("cover.background", &template.cover.background, theme_bg)?;
    let accent = colour("cover.accent", &template.cover.accent, theme_accent)?;
    // Light text on a dark background, dark text on a light one.
    let ink = if background.luminance() < 140.0 {
        Color::WHITE
    } else {
        Color::BLACK
    };
    let mut c = Canvas::new();
    let sheet = Rect::new(
        -BLEED_MM,
        -BLEED_MM,
        g.width() + 2.0 * BLEED_MM,
        g.trim_h + 2.0 * BLEED_MM,
    );
    c.rect(sheet, Some(background), None);
    motif::draw(
        &mut c,
        facts.theme,
        sheet,
        g.trim_w / 9.0,
        motif::mix(background, ink, motif::tint(facts.theme)),
        interior.seed,
    );
    let mut warnings = Vec::new();
    let faces = interior.faces;
    let style = Style { ink, accent, faces };
    front(&mut c, template, interior, &g, &style, &mut warnings)?;
    back(&mut c, template, interior, &g, &style, &mut warnings)?;
    let spine_text = spine(&mut c, template, &g, pages, ink, faces, &mut warnings);
    super::check_glyphs_of(faces, std::slice::from_ref(&c))?;
    Ok((g, c, spine_text, warnings))
}

/// The cover's colours and faces.
struct Style {
    ink: Color,
    accent: Color,
    faces: (Face, Face),
}

impl Style {
    /// Text on the accent colour: black or white, whichever reads.
    fn on_accent(&self) -> Color {
        if self.accent.luminance() < 140.0 {
            Color::WHITE
        } else {
            Color::BLACK
        }
    }
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

/// The front's marks, in the order they are printed: "LARGE PRINT", "VOLUME 2".
fn marks(facts: &CoverFacts) -> Vec<String> {
    let mut m = Vec::new();
    if facts.large_print {
        m.push("LARGE PRINT".to_string());
    }
    if let Some(v) = facts.volume {
        m.push(format!("VOLUME {v}"));
    }
    m
}

fn front(
    c: &mut Canvas,
    t: &Template,
    interior: &Composed,
    g: &CoverGeometry,
    st: &Style,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let (regular, bold) = st.faces;
    let f = g.front();
    let mut inner = Rect::new(
        f.x + MARGIN,
        f.y + MARGIN,
        f.w - 2.0 * MARGIN,
        f.h - 2.0 * MARGIN,
    );
    let cx = inner.center().x;
    // Large print and volume: a band across the top, running into the bleed.
    let marks = marks(&interior.cover);
    if !marks.is_empty() {
        let text = marks.join("  ·  ");
        let band_h = MARGIN + 9.0;
        c.rect(
            Rect::new(f.x, -BLEED_MM, f.w + BLEED_MM, band_h + BLEED_MM),
            Some(st.accent),
            None,
        );
        let size = fit_size_line(&text, bold, inner.w, 15.0).ok_or_else(|| {
            Error::param("volume", "makes the front's mark too long for one line")
        })?;
        c.text_colored(
            pt(cx, band_h - 3.0),
            size,
            bold,
            Align::Center,
            st.on_accent(),
            &text,
        );
        inner.y = band_h + 4.0;
        inner.h = f.bottom() - MARGIN - inner.y;
    }
    // Title (large and heavy) and subtitle in the top part, above the drawing.
    let title_h = g.trim_h * TITLE_SHARE - inner.y - 2.0;
    let title = super::typeset::typeset(&t.title);
    let subtitle = super::typeset::typeset(&t.subtitle);
    let sub_h = if subtitle.is_empty() { 0.0 } else { 17.0 };
    let max_pt = (g.trim_w * 0.42).clamp(40.0, 80.0);
    let (size, lines) = fit_lines(&title, bold, inner.w, title_h - sub_h, 4, (14.0, max_pt))
        .ok_or_else(|| {
            Error::param(
                "title",
                "is too long for the front cover: shorten it (it must fit in 4 lines at 14 pt)",
            )
        })?;
    let cap_px = cap_height(size) / g.trim_w * THUMBNAIL_PX;
    if cap_px < THUMBNAIL_CAP_PX {
        warnings.push(format!(
            "the title will not read as a {THUMBNAIL_PX:.0} px thumbnail: its capitals are {cap_px:.1} px tall (at least {THUMBNAIL_CAP_PX:.0} reads): shorten the title"
        ));
    }
    let mut y = inner.y + cap_height(size);
    for l in &lines {
        c.text_colored(pt(cx, y), size, bold, Align::Center, st.ink, l);
        y += size * MM_PER_PT * 1.2;
    }
    // An accent rule between title and subtitle, below the title's descenders.
    let rule_y = y - size * MM_PER_PT * 1.2 + 0.3 * size * MM_PER_PT + 1.5;
    c.rect(
        Rect::new(cx - 18.0, rule_y, 36.0, 1.2),
        Some(st.accent),
        None,
    );
    if !subtitle.is_empty() {
        let (s, sl) = fit_lines(&subtitle, regular, inner.w, sub_h - 5.0, 2, (9.0, 14.0))
            .ok_or_else(|| Error::param("subtitle", "is too long for the front cover"))?;
        let mut y = rule_y + 4.0 + cap_height(s);
        for l in &sl {
            c.text_colored(pt(cx, y), s, regular, Align::Center, st.ink, l);
            y += s * MM_PER_PT * 1.2;
        }
    }
    // The book's most striking puzzle, on a white card.
    if let Some(art) = interior.cover.art.as_ref().filter(|_| t.cover.art) {
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
            pt(cx, inner.bottom() - 2.0),
            size,
            bold,
            Align::Center,
            st.ink,
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

/// One line of the back's text: its face, size factor, colour and indent.
struct BackLine {
    text: String,
    face: Face,
    scale: f32,
    color: Color,
    indent: f32,
    /// Space before it, in lines.
    gap: f32,
}

/// The back's text as lines at `size` points, wrapped to `width`; and their height.
fn back_lines(
    interior: &Composed,
    blurb: &str,
    with_inside: bool,
    st: &Style,
    width: f32,
    size: f32,
) -> (Vec<(f32, BackLine)>, f32) {
    let (regular, bold) = st.faces;
    let facts = &interior.cover;
    let mut out: Vec<BackLine> = Vec::new();
    let mut push = |text: &str, face, scale, color, indent: f32, gap| {
        let lines = wrap(text, size * scale, face, width - indent);
        for (k, l) in lines.into_iter().enumerate() {
            out.push(BackLine {
                text: l,
                face,
                scale,
                color,
                indent,
                gap: if k == 0 { gap } else { 0.0 },
            });
        }
    };
    for (k, para) in blurb.split("\n\n").enumerate() {
        push(
            para.trim(),
            regular,
            1.0,
            st.ink,
            0.0,
            if k == 0 { 0.0 } else { 0.6 },
        );
    }
    if with_inside && !facts.inside.is_empty() {
        push("What’s inside", bold, 1.1, st.accent, 0.0, 1.0);
        for e in &facts.inside {
            push(&e.line(), bold, 0.95, st.ink, 0.0, 0.35);
            if let Some(d) = e.difficulty() {
                push(&d, STAR_FACE, 0.85, st.ink, 4.0, 0.0);
            }
        }
        let pages = interior.pages.len();
        let last = match &facts.answers {
            Some(a) => format!("{pages} pages. {a}."),
            None => format!("{pages} pages."),
        };
        push(&last, regular, 0.95, st.ink, 0.0, 0.5);
    }
    let mut y = 0.0;
    let placed = out
        .into_iter()
        .map(|l| {
            let lh = size * l.scale * MM_PER_PT * 1.25;
            y += l.gap * size * MM_PER_PT * 1.25 + lh;
            (y - lh + cap_height(size * l.scale), l)
        })
        .collect();
    (placed, y)
}

/// The face the difficulty stars are set in (DejaVu Sans has ★ whatever the book's
/// font), as inside the book.
const STAR_FACE: Face = Face::Regular;

fn back(
    c: &mut Canvas,
    t: &Template,
    interior: &Composed,
    g: &CoverGeometry,
    st: &Style,
    warnings: &mut Vec<String>,
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
    let with_inside = t.cover.inside;
    let sample = interior.cover.sample.as_ref().filter(|_| with_inside);
    if let Some(note) = interior.cover.sample_note.as_ref().filter(|_| with_inside) {
        warnings.push(note.clone());
    }
    // The text's room: above the sample when there is one, else above the barcode.
    let room_with_sample = g.trim_h * BACK_SPLIT - inner.y;
    let room_alone = bar.y - 6.0 - inner.y;
    let lines_at = |size: f32| back_lines(interior, &blurb, with_inside, st, inner.w, size);
    let fits_across = |size: f32, lines: &[(f32, BackLine)]| {
        lines
            .iter()
            .all(|(_, l)| text_width(&l.text, size * l.scale, l.face) <= inner.w - l.indent + 1e-3)
    };
    // A word wider than the back at the smallest size cannot be set: say so.
    let (smallest, _) = lines_at(9.0);
    if let Some((_, l)) = smallest
        .iter()
        .find(|(_, l)| text_width(&l.text, 9.0 * l.scale, l.face) > inner.w - l.indent + 1e-3)
    {
        let word = l
            .text
            .split_whitespace()
            .max_by(|a, b| text_width(a, 9.0, l.face).total_cmp(&text_width(b, 9.0, l.face)))
            .unwrap_or(&l.text);
        return Err(Error::param(
            "cover.blurb",
            format!(
                "has a word of {} characters that is wider than the back cover at 9 pt: break it with spaces or shorten it",
                word.chars().count()
            ),
        ));
    }
    let fit = |room: f32| {
        let mut size = 12.0;
        while size >= 9.0 {
            let (lines, h) = lines_at(size);
            if h <= room && fits_across(size, &lines) {
                return Some((size, lines));
            }
            size -= 0.5;
        }
        None
    };
    let ((size, lines), sample) = match (sample, fit(room_with_sample)) {
        (Some(s), Some(fitted)) => (fitted, Some(s)),
        (s, _) => {
            let fitted = fit(room_alone).ok_or_else(|| {
                Error::param(
                    "cover.blurb",
                    "is too long for the back cover at 9 pt: shorten it (or set inside = false in [cover])",
                )
            })?;
            if s.is_some() {
                warnings.push(
                    "the back cover has no sample puzzle: the blurb and what's inside fill it (shorten the blurb to make room)"
                        .to_string(),
                );
            }
            (fitted, None)
        }
    };
    for (y, l) in &lines {
        c.text_colored(
            pt(inner.x + l.indent, inner.y + y),
            size * l.scale,
            l.face,
            Align::Left,
            l.color,
            &l.text,
        );
    }
    if let Some((art, caption)) = sample {
        if let Some(bx) = art.ink_bounds() {
            let card = Rect::new(b.x + bx.x - 4.0, bx.y - 4.0, bx.w + 8.0, bx.h + 8.0);
            c.rect(card, Some(Color::WHITE), None);
            let (regular, _) = st.faces;
            c.text_colored(
                pt(card.x, card.y - 2.5),
                9.0,
                regular,
                Align::Left,
                st.ink,
                caption,
            );
        }
        let mut art = art.clone();
        art.translate(b.x, b.y);
        c.shapes.extend(art.shapes);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(sizes: &[&str]) -> Inside {
        Inside {
            title: "Carcassonne".into(),
            label: "Puzzle".into(),
            count: 26,
            sizes: sizes.iter().map(|s| s.to_string()).collect(),
            stars: [0; 5],
        }
    }

    #[test]
    fn sizes_share_their_unit_once() {
        assert_eq!(
            inside(&["12 tiles", "25 tiles", "50 tiles"]).line(),
            "26 Carcassonne puzzles: 12, 25 and 50 tiles"
        );
        assert_eq!(
            inside(&["3 × 3", "5 × 5", "4 × 7"]).line(),
            "26 Carcassonne puzzles: 3\u{a0}×\u{a0}3, 5\u{a0}×\u{a0}5 and 4\u{a0}×\u{a0}7"
        );
        assert_eq!(
            inside(&["9 × 9 frame", "9 × 9 heart"]).line(),
            "26 Carcassonne puzzles: 9\u{a0}×\u{a0}9 frame and 9\u{a0}×\u{a0}9 heart"
        );
        assert_eq!(
            inside(&["27 digits"]).line(),
            "26 Carcassonne puzzles: 27 digits"
        );
        let mut one = inside(&[]);
        one.count = 1;
        assert_eq!(one.line(), "1 Carcassonne puzzle");
    }

    #[test]
    fn a_title_that_names_the_label_is_not_repeated() {
        let e = Inside {
            title: "Catan boards".into(),
            label: "Board".into(),
            count: 4,
            sizes: vec!["3–4 players".into()],
            stars: [0; 5],
        };
        assert_eq!(e.line(), "4 Catan boards: 3–4 players");
        let mut single = e.clone();
        single.count = 1;
        assert_eq!(single.line(), "1 Catan board: 3–4 players");
        assert_eq!(e.difficulty(), None);
        let mut rated = e.clone();
        rated.stars = [2, 0, 1, 0, 0];
        assert_eq!(rated.difficulty().as_deref(), Some("★ 2  ·  ★★★ 1"));
    }
}
