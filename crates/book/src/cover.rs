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
/// Text keeps this far inside the trim and the folds (the services' safe zone), in mm.
const SAFE_MM: f32 = 0.125 * MM_PER_IN;
/// The top share of the front that holds the marks, the title and the subtitle.
const TITLE_SHARE: f32 = 0.31;
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

/// The front's headlines (LARGE PRINT, the count) have capitals this much taller than
/// the least that reads at a thumbnail, so they still read after rounding and blur.
const HEADLINE_OVER: f32 = 1.15;
/// The volume line's capitals, as a share of the headlines'.
const VOLUME_CAP: f32 = 0.9;
/// The level line's capitals (on the count plate), as a share of the headlines'.
const LEVEL_CAP: f32 = 0.5;
/// The largest size of the author's name on the front, in points.
const AUTHOR_PT: f32 = 16.0;
/// The design inset of the white card a drawing sits on, in mm.
const CARD_PAD: f32 = 4.0;

/// The capital height of the front's headlines on a front `trim_w` mm wide: what reads
/// at a `THUMBNAIL_PX` thumbnail, with `HEADLINE_OVER` to spare.
pub(crate) fn headline_cap_mm(trim_w: f32) -> f32 {
    trim_w * THUMBNAIL_CAP_PX / THUMBNAIL_PX * HEADLINE_OVER
}

/// The point size whose capitals are `cap` mm tall.
fn size_for_cap(cap: f32) -> f32 {
    cap / cap_height(1.0)
}

/// What the front carries besides its title and art.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrontParts {
    /// The LARGE PRINT band.
    pub large_print: bool,
    /// The volume's line.
    pub volume: bool,
    /// The count plate.
    pub badge: bool,
    /// The level line on the plate.
    pub level: bool,
    /// The author's line.
    pub author: bool,
}

/// Where the front's parts go, top to bottom, in the front panel's own coordinates
/// (mm from its top-left trim corner). It is planned with the book, so the art is
/// drawn in its own room, and the cover draws the rest into the same plan.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontPlan {
    /// The capital height of the headlines, in mm.
    pub cap: f32,
    /// The LARGE PRINT band (running into the bleed above and to the right) and its
    /// line's baseline.
    pub band: Option<(Rect, f32)>,
    /// The volume line's baseline.
    pub volume: Option<f32>,
    /// The title's and subtitle's room.
    pub title: Rect,
    /// The room the art's card is centred in.
    pub art: Rect,
    /// The count plate's room: the plate is as wide as its text, centred in it.
    pub plate: Option<Rect>,
    /// The author's baseline.
    pub author: Option<f32>,
}

impl FrontPlan {
    /// The plan of a `trim_w` x `trim_h` mm front carrying `parts`.
    pub fn new(trim_w: f32, trim_h: f32, parts: FrontParts) -> FrontPlan {
        let cap = headline_cap_mm(trim_w);
        let width = trim_w - 2.0 * MARGIN;
        let mut y = MARGIN;
        let band = parts.large_print.then(|| {
            // The band's line keeps its ascenders (0.928 em; capitals are 0.729) a
            // millimetre inside the safe zone.
            let pad = 0.55 * cap;
            let base = (pad + cap).max(SAFE_MM + 1.0 + cap * 0.928 / 0.729);
            let bottom = base + pad;
            y = bottom + 4.0;
            (
                Rect::new(0.0, -BLEED_MM, trim_w + BLEED_MM, bottom + BLEED_MM),
                base,
            )
        });
        let volume = parts.volume.then(|| {
            let base = y + VOLUME_CAP * cap;
            y = base + 8.0;
            base
        });
        let title_h = (trim_h * TITLE_SHARE - y).max(trim_h * 0.2);
        let title = Rect::new(MARGIN, y, width, title_h);
        let top = title.bottom() + 3.0;
        let mut bottom = trim_h - MARGIN;
        let author = parts.author.then(|| {
            let base = bottom - 1.0;
            bottom = base - cap_height(AUTHOR_PT) - 5.0;
            base
        });
        let plate = parts.badge.then(|| {
            let pad = 0.45 * cap;
            let level = if parts.level {
                0.4 * cap + LEVEL_CAP * cap
            } else {
                0.0
            };
            let h = 2.0 * pad + cap + level;
            let r = Rect::new(MARGIN, bottom - h, width, h);
            bottom = r.y - 5.0;
            r
        });
        let art = Rect::new(MARGIN, top, width, (bottom - top).max(10.0));
        FrontPlan {
            cap,
            band,
            volume,
            title,
            art,
            plate,
            author,
        }
    }

    /// Where the front's drawing goes, for a drawing of `aspect` (width / height):
    /// as large as its room allows with its card around it, centred.
    pub(crate) fn art_box(&self, aspect: f32) -> Rect {
        let region = self.art.inset(CARD_PAD + 1.0);
        fit_centred(region, aspect)
    }
}

/// The largest box of `aspect` in `region`, centred in it.
fn fit_centred(region: Rect, aspect: f32) -> Rect {
    let aspect = aspect.max(0.05);
    let w = region.w.min(region.h * aspect).max(1.0);
    let h = w / aspect;
    Rect::new(
        region.x + (region.w - w) / 2.0,
        region.y + (region.h - h) / 2.0,
        w,
        h,
    )
}

/// The heights the back's sample is drawn at, as shares of the back's height above
/// the barcode: the cover keeps the largest that leaves room for the text above it.
pub(crate) const SAMPLE_SHARES: [f32; 9] = [0.85, 0.78, 0.71, 0.64, 0.57, 0.50, 0.44, 0.38, 0.32];

/// Where the back's sample goes, in the back panel's coordinates, for a drawing of
/// `aspect` at `share` of the height above the barcode: centred across the back,
/// its card just above the barcode box.
pub(crate) fn sample_box(trim_w: f32, trim_h: f32, aspect: f32, share: f32) -> Rect {
    let bottom = trim_h - BARCODE_OFFSET_MM - BARCODE_MM.1 - 6.0 - CARD_PAD;
    let max_h = ((bottom - MARGIN) * share).max(1.0);
    let max_w = trim_w - 2.0 * (MARGIN + CARD_PAD);
    let aspect = aspect.max(0.05);
    let w = max_w.min(max_h * aspect).max(1.0);
    let h = w / aspect;
    Rect::new((trim_w - w) / 2.0, bottom - h, w, h)
}

/// The front's count plate: "150 PUZZLES" and "EASY TO EXPERT · WITH SOLUTIONS".
#[derive(Debug, Clone, PartialEq)]
pub struct Badge {
    /// How many of the book's commonest item ("150 PUZZLES").
    pub count: String,
    /// Their levels and whether the book solves them all, when it says either.
    pub level: Option<String>,
}

/// The words for 1 to 5 stars, on the front.
pub(crate) const LEVEL_WORDS: [&str; 5] = ["EASY", "MEDIUM", "HARD", "VERY HARD", "EXPERT"];

impl Badge {
    /// The plate for `count` items called `label` ("Puzzle"), rated from `lowest` to
    /// `highest` stars (None: unrated), every one answered in the book or not.
    pub fn new(count: usize, label: &str, stars: Option<(u8, u8)>, solved: bool) -> Badge {
        let label = label.to_uppercase();
        let count = if count == 1 {
            format!("1 {label}")
        } else {
            format!("{count} {label}S")
        };
        let word = |s: u8| LEVEL_WORDS[usize::from(s.clamp(1, 5)) - 1];
        let mut parts = Vec::new();
        if let Some((lo, hi)) = stars {
            parts.push(if word(lo) == word(hi) {
                word(lo).to_string()
            } else {
                format!("{} TO {}", word(lo), word(hi))
            });
        }
        if solved {
            parts.push("WITH SOLUTIONS".to_string());
        }
        Badge {
            count,
            level: (!parts.is_empty()).then(|| parts.join(" · ")),
        }
    }
}

/// The back's sample puzzle: its caption, and the drawing at each height of
/// `SAMPLE_SHARES` whose text stays legible, largest first.
#[derive(Debug, Clone)]
pub struct Sample {
    /// "Puzzle 75, from inside".
    pub caption: String,
    /// The drawings, in back panel coordinates, largest first.
    pub drawings: Vec<Canvas>,
}

/// What the cover shows of the book (made with the interior).
#[derive(Debug, Clone)]
pub struct CoverFacts {
    /// The pattern and palette.
    pub theme: crate::game::Motif,
    /// Where the front's parts go.
    pub front: FrontPlan,
    /// The front's puzzle, drawn in the plan's `art_box` (front panel coordinates).
    pub art: Option<Canvas>,
    /// The front's count plate.
    pub badge: Option<Badge>,
    /// The back's sample puzzle.
    pub sample: Option<Sample>,
    /// Why there is no sample, when there is none.
    pub sample_note: Option<String>,
    /// What's inside, one entry a game.
    pub inside: Vec<Inside>,
    /// The answers line, when the book has an answer key.
    pub answers: Option<String>,
    /// A large-print book: marked on the front and the back.
    pub large_print: bool,
    /// Volume N of a series: marked on the front and the spine.
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
    let style = Style {
        background,
        ink,
        accent,
        faces,
    };
    front(&mut c, template, interior, &g, &style, &mut warnings)?;
    back(&mut c, template, interior, &g, &style, &mut warnings)?;
    let spine_text = spine(
        &mut c,
        template,
        facts.volume,
        &g,
        pages,
        &style,
        &mut warnings,
    );
    super::check_glyphs_of(faces, std::slice::from_ref(&c))?;
    Ok((g, c, spine_text, warnings))
}

/// The cover's colours and faces.
struct Style {
    background: Color,
    ink: Color,
    accent: Color,
    faces: (Face, Face),
}

/// The WCAG contrast ratio of two colours (1 to 21).
fn contrast(a: Color, b: Color) -> f32 {
    let lum = |c: Color| {
        let lin = |v: u8| {
            let v = f32::from(v) / 255.0;
            if v <= 0.040_45 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

impl Style {
    /// The accent colour for text on the background when it reads (4.5:1), else the
    /// ink.
    fn accent_text(&self) -> Color {
        if contrast(self.accent, self.background) >= 4.5 {
            self.accent
        } else {
            self.ink
        }
    }
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

/// The count plate, in the accent colour, in `room` of the front `f`: "150
/// PUZZLES" over the levels, as wide as they are.
fn count_plate(
    c: &mut Canvas,
    cap: f32,
    room: Rect,
    badge: &Badge,
    f: Rect,
    st: &Style,
) -> Result<()> {
    let (_, bold) = st.faces;
    let headline = size_for_cap(cap);
    let cx = f.center().x;
    let pad = 0.45 * cap;
    let inner = room.w - 2.0 * pad;
    let size = fit_size_line(&badge.count, bold, inner, headline)
        .ok_or_else(|| Error::param("sections", "make a count too long for the front"))?;
    let level = badge
        .level
        .as_ref()
        .and_then(|l| fit_size_line(l, bold, inner, size_for_cap(LEVEL_CAP * cap)).map(|s| (l, s)));
    let text_w = level
        .map_or(0.0, |(l, s)| text_width(l, s, bold))
        .max(text_width(&badge.count, size, bold));
    let w = (text_w + 2.0 * pad).min(room.w);
    let plate = Rect::new(f.x + room.x + (room.w - w) / 2.0, f.y + room.y, w, room.h);
    c.rect(plate, Some(st.accent), None);
    let base = plate.y + pad + cap;
    c.text_colored(
        pt(cx, base),
        size,
        bold,
        Align::Center,
        st.on_accent(),
        &badge.count,
    );
    if let Some((l, s)) = level {
        let base = base + 0.4 * cap + LEVEL_CAP * cap;
        c.text_colored(pt(cx, base), s, bold, Align::Center, st.on_accent(), l);
    }
    Ok(())
}

/// LARGE PRINT at headline size on an accent band across the top of the front `f`,
/// and the volume on its own line.
fn front_marks(c: &mut Canvas, facts: &CoverFacts, f: Rect, st: &Style) -> Result<()> {
    let (_, bold) = st.faces;
    let plan = &facts.front;
    let width = f.w - 2.0 * MARGIN;
    let cx = f.center().x;
    let headline = size_for_cap(plan.cap);
    // LARGE PRINT at headline size on an accent band across the top.
    if let Some((band, base)) = plan.band {
        c.rect(
            Rect::new(f.x + band.x, f.y + band.y, band.w, band.h),
            Some(st.accent),
            None,
        );
        let text = "LARGE PRINT";
        let size = fit_size_line(text, bold, width, headline)
            .ok_or_else(|| Error::param("large_print", "leaves no room on the front"))?;
        c.text_colored(
            pt(cx, base),
            size,
            bold,
            Align::Center,
            st.on_accent(),
            text,
        );
    }
    // The volume on its own line.
    if let (Some(base), Some(v)) = (plan.volume, facts.volume) {
        let text = format!("VOLUME {v}");
        let size = fit_size_line(&text, bold, width, size_for_cap(VOLUME_CAP * plan.cap))
            .ok_or_else(|| Error::param("volume", "is too long for one line on the front"))?;
        c.text_colored(
            pt(cx, base),
            size,
            bold,
            Align::Center,
            st.accent_text(),
            &text,
        );
    }
    Ok(())
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
    let facts = &interior.cover;
    let plan = &facts.front;
    let f = g.front();
    let width = f.w - 2.0 * MARGIN;
    let cx = f.center().x;
    front_marks(c, facts, f, st)?;
    // Title (large and heavy) and subtitle, above the drawing.
    let room = plan.title;
    let title = super::typeset::typeset(&t.title);
    let subtitle = super::typeset::typeset(&t.subtitle);
    let sub_h = if subtitle.is_empty() { 0.0 } else { 17.0 };
    let max_pt = (g.trim_w * 0.42).clamp(40.0, 80.0);
    let (size, lines) = fit_lines(
        &title,
        bold,
        room.w,
        room.h - sub_h - 2.0,
        4,
        (14.0, max_pt),
    )
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
    let mut y = f.y + room.y + cap_height(size);
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
        let (s, sl) = fit_lines(&subtitle, regular, room.w, sub_h - 5.0, 2, (9.0, 14.0))
            .ok_or_else(|| Error::param("subtitle", "is too long for the front cover"))?;
        let mut y = rule_y + 4.0 + cap_height(s);
        for l in &sl {
            c.text_colored(pt(cx, y), s, regular, Align::Center, st.ink, l);
            y += s * MM_PER_PT * 1.2;
        }
    }
    // The book's most striking puzzle, on a white card.
    if let Some(art) = facts.art.as_ref().filter(|_| t.cover.art) {
        let mut art = art.clone();
        if let Some(b) = art.ink_bounds() {
            c.rect(
                Rect::new(
                    f.x + b.x - CARD_PAD,
                    b.y - CARD_PAD,
                    b.w + 2.0 * CARD_PAD,
                    b.h + 2.0 * CARD_PAD,
                ),
                Some(Color::WHITE),
                None,
            );
        }
        art.translate(f.x, f.y);
        c.shapes.extend(art.shapes);
    }
    if let (Some(room), Some(badge)) = (plan.plate, facts.badge.as_ref()) {
        count_plate(c, plan.cap, room, badge, f, st)?;
    }
    // The author at the foot.
    let author = super::typeset::typeset(&t.author);
    if let (Some(base), false) = (plan.author, author.is_empty()) {
        let size = fit_size_line(&author, bold, width, AUTHOR_PT)
            .ok_or_else(|| Error::param("author", "is too long for one line on the front cover"))?;
        c.text_colored(
            pt(cx, f.y + base),
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
    /// A bullet point starts here.
    bullet: bool,
}

/// How far bullet points' text is indented, in ems of the text's size.
const BULLET_INDENT_EM: f32 = 1.3;

/// The back's text as lines at `size` points, wrapped to `width`; and their height.
/// The blurb's paragraphs, then "What's inside" as bullet points: each game's count
/// and sizes with its stars, the pages, the answers.
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
    let mut push = |text: &str, face, scale, color, indent: f32, gap, bullet| {
        let lines = wrap(text, size * scale, face, width - indent);
        for (k, l) in lines.into_iter().enumerate() {
            out.push(BackLine {
                text: l,
                face,
                scale,
                color,
                indent,
                gap: if k == 0 { gap } else { 0.0 },
                bullet: bullet && k == 0,
            });
        }
    };
    for (k, para) in blurb.split("\n\n").enumerate() {
        let gap = if k == 0 { 0.0 } else { 0.6 };
        push(para.trim(), regular, 1.0, st.ink, 0.0, gap, false);
    }
    if with_inside && !facts.inside.is_empty() {
        let indent = BULLET_INDENT_EM * size * MM_PER_PT;
        push("What’s inside", bold, 1.15, st.accent, 0.0, 1.0, false);
        for e in &facts.inside {
            push(&e.line(), bold, 1.0, st.ink, indent, 0.4, true);
            if let Some(d) = e.difficulty() {
                push(&d, STAR_FACE, 0.9, st.ink, indent, 0.0, false);
            }
        }
        let pages = interior.pages.len();
        let print = if facts.large_print {
            " in large print"
        } else {
            ""
        };
        let last = match &facts.answers {
            Some(a) => format!("{pages} pages{print}. {a}."),
            None => format!("{pages} pages{print}."),
        };
        push(&last, regular, 1.0, st.ink, indent, 0.4, true);
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

/// The sample's caption size on the back, in points.
const CAPTION_PT: f32 = 10.0;
/// The back's text is set at the largest size that fits from 12 pt on a 6 in wide
/// back (up to 15 pt on a wider one) down; it goes down to this share of that to keep
/// a sample larger, and to 9 pt before it drops the sample.
const BACK_PREFERRED: f32 = 0.875;

/// The largest size of the back's text on a back `trim_w` mm wide, in points.
fn back_max_pt(trim_w: f32) -> f32 {
    12.0 * (trim_w / (6.0 * MM_PER_IN)).clamp(1.0, 1.25)
}

/// The back's sample `art` (drawn in back panel coordinates) on its white card with
/// its `caption`, moved right by `dx` and up by `lift`.
fn back_sample(c: &mut Canvas, art: &Canvas, caption: &str, dx: f32, lift: f32, st: &Style) {
    let (regular, _) = st.faces;
    let mut art = art.clone();
    art.translate(dx, -lift);
    if let Some(bx) = art.ink_bounds() {
        let card = Rect::new(
            bx.x - CARD_PAD,
            bx.y - CARD_PAD,
            bx.w + 2.0 * CARD_PAD,
            bx.h + 2.0 * CARD_PAD,
        );
        c.rect(card, Some(Color::WHITE), None);
        c.text_colored(
            pt(card.x, card.y - 2.5),
            CAPTION_PT,
            regular,
            Align::Left,
            st.ink,
            caption,
        );
    }
    c.shapes.extend(art.shapes);
}

/// The title as the back's headline (in up to 4 lines, as on the front), over an
/// accent rule; where the text below it starts.
fn back_headline(c: &mut Canvas, t: &Template, g: &CoverGeometry, st: &Style) -> Result<f32> {
    let (_, bold) = st.faces;
    let b = g.back();
    let left = b.x + MARGIN;
    let title = super::typeset::typeset(&t.title);
    let max_pt = (g.trim_w * 0.13).clamp(16.0, 30.0);
    let (head, head_lines) = fit_lines(
        &title,
        bold,
        b.w - 2.0 * MARGIN,
        g.trim_h * 0.2,
        4,
        (12.0, max_pt),
    )
    .ok_or_else(|| Error::param("title", "is too long for the back cover"))?;
    let mut y = b.y + MARGIN + cap_height(head);
    for l in &head_lines {
        c.text_colored(pt(left, y), head, bold, Align::Left, st.ink, l);
        y += head * MM_PER_PT * 1.2;
    }
    let rule_y = y - head * MM_PER_PT * 1.2 + 0.3 * head * MM_PER_PT + 1.5;
    c.rect(Rect::new(left, rule_y, 36.0, 1.2), Some(st.accent), None);
    Ok(rule_y + 1.2 + 5.0)
}

fn back(
    c: &mut Canvas,
    t: &Template,
    interior: &Composed,
    g: &CoverGeometry,
    st: &Style,
    warnings: &mut Vec<String>,
) -> Result<()> {
    let b = g.back();
    let width = b.w - 2.0 * MARGIN;
    let left = b.x + MARGIN;
    let bar = g.barcode();
    let text_top = back_headline(c, t, g, st)?;
    let blurb = super::typeset::typeset(&t.cover.blurb);
    let with_inside = t.cover.inside;
    let sample = interior.cover.sample.as_ref().filter(|_| with_inside);
    if let Some(note) = interior.cover.sample_note.as_ref().filter(|_| with_inside) {
        warnings.push(note.clone());
    }
    let lines_at = |size: f32| back_lines(interior, &blurb, with_inside, st, width, size);
    let fits_across = |size: f32, lines: &[(f32, BackLine)]| {
        lines
            .iter()
            .all(|(_, l)| text_width(&l.text, size * l.scale, l.face) <= width - l.indent + 1e-3)
    };
    // A word wider than the back at the smallest size cannot be set: say so.
    let (smallest, _) = lines_at(9.0);
    if let Some((_, l)) = smallest
        .iter()
        .find(|(_, l)| text_width(&l.text, 9.0 * l.scale, l.face) > width - l.indent + 1e-3)
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
    // The largest size from the back's largest down to `min` at which the text fits
    // in `room`.
    let largest = back_max_pt(g.trim_w);
    let fit = |room: f32, min: f32| {
        let mut size = largest;
        while size >= min - 1e-3 {
            let (lines, h) = lines_at(size);
            if h <= room && fits_across(size, &lines) {
                return Some((size, lines, h));
            }
            size -= 0.5;
        }
        None
    };
    // Where a drawing's caption starts: the text must end above it.
    let caption_top = |art: &Canvas| {
        art.ink_bounds()
            .map(|bx| bx.y - CARD_PAD - 2.5 - cap_height(CAPTION_PT) - 5.0)
    };
    let candidates: Vec<&Canvas> = sample
        .map(|s| s.drawings.iter().collect())
        .unwrap_or_default();
    // The largest sample above which the text fits at a comfortable size, else at
    // the smallest; else no sample.
    let chosen = [(largest * BACK_PREFERRED).max(9.0), 9.0]
        .iter()
        .find_map(|&min| {
            candidates.iter().find_map(|art| {
                let top = caption_top(art)?;
                fit(top - text_top, min).map(|fitted| (fitted, Some((*art, top))))
            })
        });
    let ((size, lines, text_h), drawn) = match chosen {
        Some(found) => found,
        None => {
            let fitted = fit(bar.y - 6.0 - text_top, 9.0).ok_or_else(|| {
                Error::param(
                    "cover.blurb",
                    "is too long for the back cover at 9 pt: shorten it (or set inside = false in [cover])",
                )
            })?;
            if sample.is_some() {
                warnings.push(
                    "the back cover has no sample puzzle: the blurb and what's inside fill it (shorten the blurb to make room)"
                        .to_string(),
                );
            }
            (fitted, None)
        }
    };
    for (y, l) in &lines {
        let x = left + l.indent;
        let ls = size * l.scale;
        if l.bullet {
            let r = 0.2 * ls * MM_PER_PT;
            c.circle(
                pt(
                    left + 0.35 * ls * MM_PER_PT,
                    text_top + y - cap_height(ls) / 2.0,
                ),
                r,
                Some(st.accent),
                None,
            );
        }
        c.text_colored(
            pt(x, text_top + y),
            ls,
            l.face,
            Align::Left,
            l.color,
            &l.text,
        );
    }
    if let (Some((art, top)), Some(s)) = (drawn, sample) {
        // Up into the middle of the room the text leaves.
        let lift = ((top - (text_top + text_h)) / 2.0).max(0.0);
        back_sample(c, art, &s.caption, b.x, lift, st);
    }
    // The barcode's clear box: white, nothing on it.
    c.rect(bar, Some(Color::WHITE), None);
    Ok(())
}

/// Spine text (title, the volume and the author, when there are) when the interior
/// has enough pages and the spine is wide enough for 7 pt; whether it was drawn.
fn spine(
    c: &mut Canvas,
    t: &Template,
    volume: Option<u32>,
    g: &CoverGeometry,
    pages: usize,
    st: &Style,
    warnings: &mut Vec<String>,
) -> bool {
    let (ink, (_, bold)) = (st.ink, st.faces);
    if pages < SPINE_TEXT_MIN_PAGES {
        warnings.push(format!(
            "no spine text: the interior has {pages} pages and spine text needs at least {SPINE_TEXT_MIN_PAGES}"
        ));
        return false;
    }
    let mut parts = vec![super::typeset::typeset(&t.title)];
    if let Some(v) = volume {
        parts.push(format!("Volume {v}"));
    }
    let author = super::typeset::typeset(&t.author);
    if !author.is_empty() {
        parts.push(author);
    }
    let text = parts.join("  ·  ");
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
    fn the_plate_names_the_levels_in_words_and_solutions_only_when_solved() {
        let b = Badge::new(150, "Puzzle", Some((1, 5)), true);
        assert_eq!(b.count, "150 PUZZLES");
        assert_eq!(b.level.as_deref(), Some("EASY TO EXPERT · WITH SOLUTIONS"));
        let b = Badge::new(40, "Board", None, false);
        assert_eq!((b.count.as_str(), b.level), ("40 BOARDS", None));
        let b = Badge::new(1, "Puzzle", Some((4, 4)), false);
        assert_eq!(b.count, "1 PUZZLE");
        assert_eq!(b.level.as_deref(), Some("VERY HARD"));
        let b = Badge::new(26, "Puzzle", Some((2, 3)), true);
        assert_eq!(b.level.as_deref(), Some("MEDIUM TO HARD · WITH SOLUTIONS"));
    }

    #[test]
    fn the_front_plan_keeps_its_parts_in_order_and_apart() {
        let all = FrontParts {
            large_print: true,
            volume: true,
            badge: true,
            level: true,
            author: true,
        };
        for (w, h) in [
            (127.0, 203.2),
            (152.4, 228.6),
            (215.9, 279.4),
            (210.0, 297.0),
        ] {
            let p = FrontPlan::new(w, h, all);
            let (band, _) = p.band.unwrap();
            let plate = p.plate.unwrap();
            assert!(band.bottom() < p.volume.unwrap() - p.cap * VOLUME_CAP);
            assert!(p.volume.unwrap() < p.title.y);
            assert!(p.title.bottom() < p.art.y);
            assert!(p.art.bottom() < plate.y);
            assert!(plate.bottom() < p.author.unwrap() - cap_height(AUTHOR_PT));
            assert!(p.author.unwrap() <= h - MARGIN);
            // The art keeps at least a third of the front's height.
            assert!(p.art.h > h / 3.0, "{w} x {h}: art {:.1} mm", p.art.h);
        }
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
