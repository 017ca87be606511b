//! A small vector canvas in millimetres. Games draw on it; only `book/` turns it into PDF.
//!
//! Coordinates: origin at the top-left corner of the page's trim box, x to the right,
//! y DOWN (the way people lay out pages). Text sizes are in points; text is measured
//! with the real glyph widths of the bundled DejaVu Sans faces, so centring is exact.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Millimetres per typographic point.
pub const MM_PER_PT: f32 = 25.4 / 72.0;
/// The smallest text a printed page may carry, in points (print-on-demand rule).
pub const MIN_TEXT_PT: f32 = 7.0;
/// The thinnest line a printed page may carry: 0.5 pt, in mm.
pub const MIN_LINE_MM: f32 = 0.5 * MM_PER_PT;

/// A point on the page, in mm from the top-left corner (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Across, from the left edge.
    pub x: f32,
    /// Down, from the top edge.
    pub y: f32,
}

/// The point (x, y).
pub fn pt(x: f32, y: f32) -> Point {
    Point { x, y }
}

/// An axis-aligned box on the page (top-left corner, width, height), in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

impl Rect {
    /// The box with top-left corner (x, y), width w and height h.
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Self {
        Rect { x, y, w, h }
    }
    /// The right edge.
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    /// The bottom edge.
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    /// The middle of the box.
    pub fn center(&self) -> Point {
        pt(self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
    /// The box shrunk by `d` on every side.
    pub fn inset(&self, d: f32) -> Rect {
        Rect::new(
            self.x + d,
            self.y + d,
            (self.w - 2.0 * d).max(0.0),
            (self.h - 2.0 * d).max(0.0),
        )
    }
    /// Split off the top `h` mm: (top part, rest).
    pub fn take_top(&self, h: f32) -> (Rect, Rect) {
        let h = h.min(self.h);
        (
            Rect::new(self.x, self.y, self.w, h),
            Rect::new(self.x, self.y + h, self.w, self.h - h),
        )
    }
    /// Split off the bottom `h` mm: (rest, bottom part).
    pub fn take_bottom(&self, h: f32) -> (Rect, Rect) {
        let h = h.min(self.h);
        (
            Rect::new(self.x, self.y, self.w, self.h - h),
            Rect::new(self.x, self.bottom() - h, self.w, h),
        )
    }
    /// Cell (row, col) of a `rows` x `cols` grid laid over the box.
    pub fn grid_cell(&self, rows: usize, cols: usize, row: usize, col: usize) -> Rect {
        let w = self.w / cols as f32;
        let h = self.h / rows as f32;
        Rect::new(self.x + col as f32 * w, self.y + row as f32 * h, w, h)
    }
}

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    /// Red, 0-255.
    pub r: u8,
    /// Green, 0-255.
    pub g: u8,
    /// Blue, 0-255.
    pub b: u8,
}

impl Color {
    /// The colour's Rec. 709 luminance, 0 (black) to 255 (white).
    pub fn luminance(self) -> f32 {
        0.2126 * f32::from(self.r) + 0.7152 * f32::from(self.g) + 0.0722 * f32::from(self.b)
    }
    /// The colour's grey (its Rec. 709 luminance), as a colour.
    pub(crate) fn to_grey(self) -> Color {
        Color::grey(self.luminance().round().clamp(0.0, 255.0) as u8)
    }
    /// Whether the colour is a grey (red, green and blue equal).
    pub(crate) fn is_grey(self) -> bool {
        self.r == self.g && self.g == self.b
    }
    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// White.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// The colour (r, g, b).
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b }
    }
    /// A grey: r = g = b = v (0 black, 255 white).
    pub const fn grey(v: u8) -> Self {
        Color { r: v, g: v, b: v }
    }
}

/// How a line is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    /// The line's colour.
    pub color: Color,
    /// Line width in mm.
    pub width: f32,
}

impl Stroke {
    /// A line of `color`, `width` mm wide.
    pub fn new(color: Color, width: f32) -> Self {
        Stroke { color, width }
    }
}

/// A font face: the bundled DejaVu Sans (what games draw with), or a font a template
/// named, loaded with [`load_font`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// DejaVu Sans.
    Regular,
    /// DejaVu Sans Bold.
    Bold,
    /// A loaded font: its number in this process's font table.
    Loaded(u16),
}

/// Which point of a line of text its anchor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// The anchor is the text's left end.
    Left,
    /// The anchor is the text's middle.
    Center,
    /// The anchor is the text's right end.
    Right,
}

/// One drawing operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A polyline, or a polygon when closed.
    Path {
        /// The corners, in order.
        points: Vec<Point>,
        /// Whether the last point joins the first.
        closed: bool,
        /// The fill, if any (closed paths).
        fill: Option<Color>,
        /// The outline, if any.
        stroke: Option<Stroke>,
    },
    /// A circle.
    Circle {
        /// The centre.
        center: Point,
        /// The radius, in mm.
        radius: f32,
        /// The fill, if any.
        fill: Option<Color>,
        /// The outline, if any.
        stroke: Option<Stroke>,
    },
    /// Text whose baseline starts at `origin` (already aligned: `origin.x` is the left
    /// end), or, when `down`, runs down the page from `origin` (a book spine's text).
    Text {
        /// The start of the baseline.
        origin: Point,
        /// The size in points.
        size: f32,
        /// The face.
        face: Face,
        /// The colour.
        color: Color,
        /// The text (one line).
        text: String,
        /// Turned a quarter clockwise: the baseline runs down the page and the tops of
        /// the letters face right, the way a spine reads with the book face up.
        down: bool,
    },
}

/// The drawing of one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Canvas {
    /// The operations, in drawing order (later ones on top).
    pub shapes: Vec<Shape>,
}

impl Canvas {
    /// Turn every colour of the shapes from `start` on into its grey (a drawing for a
    /// black-and-white printer: no colour reaches the page, whatever it asked for).
    pub fn greyscale_since(&mut self, start: usize) {
        for shape in self.shapes.iter_mut().skip(start) {
            match shape {
                Shape::Path { fill, stroke, .. } | Shape::Circle { fill, stroke, .. } => {
                    if let Some(f) = fill {
                        *f = f.to_grey();
                    }
                    if let Some(s) = stroke {
                        s.color = s.color.to_grey();
                    }
                }
                Shape::Text { color, .. } => *color = color.to_grey(),
            }
        }
    }

    /// Whether any shape from `start` on has a colour that is not a grey.
    pub fn has_colour_since(&self, start: usize) -> bool {
        self.shapes.iter().skip(start).any(|shape| match shape {
            Shape::Path { fill, stroke, .. } | Shape::Circle { fill, stroke, .. } => {
                fill.is_some_and(|f| !f.is_grey()) || stroke.is_some_and(|s| !s.color.is_grey())
            }
            Shape::Text { color, .. } => !color.is_grey(),
        })
    }

    /// How many different colours (not greys) the shapes fill with: how colourful a
    /// drawing is.
    pub fn fill_colours(&self) -> usize {
        let mut seen: Vec<Color> = Vec::new();
        for shape in &self.shapes {
            if let Shape::Path { fill: Some(f), .. } | Shape::Circle { fill: Some(f), .. } = shape {
                if !f.is_grey() && !seen.contains(f) {
                    seen.push(*f);
                }
            }
        }
        seen.len()
    }

    /// An empty page.
    pub fn new() -> Self {
        Canvas::default()
    }

    /// A straight line from a to b.
    pub fn line(&mut self, a: Point, b: Point, stroke: Stroke) {
        self.polyline(vec![a, b], stroke);
    }

    /// An open path through `points`.
    pub fn polyline(&mut self, points: Vec<Point>, stroke: Stroke) {
        self.shapes.push(Shape::Path {
            points,
            closed: false,
            fill: None,
            stroke: Some(stroke),
        });
    }

    /// A closed path through `points`, filled and/or outlined.
    pub fn polygon(&mut self, points: Vec<Point>, fill: Option<Color>, stroke: Option<Stroke>) {
        self.shapes.push(Shape::Path {
            points,
            closed: true,
            fill,
            stroke,
        });
    }

    /// The box `r`, filled and/or outlined.
    pub fn rect(&mut self, r: Rect, fill: Option<Color>, stroke: Option<Stroke>) {
        let pts = vec![
            pt(r.x, r.y),
            pt(r.right(), r.y),
            pt(r.right(), r.bottom()),
            pt(r.x, r.bottom()),
        ];
        self.polygon(pts, fill, stroke);
    }

    /// A circle, filled and/or outlined.
    pub fn circle(
        &mut self,
        center: Point,
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        self.shapes.push(Shape::Circle {
            center,
            radius,
            fill,
            stroke,
        });
    }

    /// Text with its baseline at `y`, anchored at `x` by `align`.
    pub fn text(&mut self, x: f32, y: f32, size: f32, face: Face, align: Align, text: &str) {
        self.text_colored(pt(x, y), size, face, align, Color::BLACK, text);
    }

    /// Text like [`Canvas::text`], in `color`, with its baseline at `at.y`, anchored
    /// at `at.x` by `align`.
    pub fn text_colored(
        &mut self,
        at: Point,
        size: f32,
        face: Face,
        align: Align,
        color: Color,
        text: &str,
    ) {
        if text.is_empty() {
            return;
        }
        let Point { x, y } = at;
        let w = text_width(text, size, face);
        let left = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        self.shapes.push(Shape::Text {
            origin: pt(left, y),
            size,
            face,
            color,
            text: text.to_string(),
            down: false,
        });
    }

    /// One line of text reading top to bottom (turned a quarter clockwise), centred on
    /// `c` both along the line and across it (by its cap height): a spine's title.
    pub fn text_down(&mut self, c: Point, size: f32, face: Face, color: Color, text: &str) {
        if text.is_empty() {
            return;
        }
        let w = text_width(text, size, face);
        self.shapes.push(Shape::Text {
            origin: pt(c.x - cap_height(size) / 2.0, c.y - w / 2.0),
            size,
            face,
            color,
            text: text.to_string(),
            down: true,
        });
    }

    /// Move every shape by (dx, dy) mm.
    pub fn translate(&mut self, dx: f32, dy: f32) {
        let mv = |p: &mut Point| {
            p.x += dx;
            p.y += dy;
        };
        for s in &mut self.shapes {
            match s {
                Shape::Path { points, .. } => points.iter_mut().for_each(mv),
                Shape::Circle { center, .. } => mv(center),
                Shape::Text { origin, .. } => mv(origin),
            }
        }
    }

    /// Text centred horizontally and vertically (by its cap height) on a point.
    pub fn text_centered(&mut self, c: Point, size: f32, face: Face, text: &str) {
        self.text(
            c.x,
            c.y + cap_height(size) / 2.0,
            size,
            face,
            Align::Center,
            text,
        );
    }

    /// Wrap `text` to `width` mm and draw it from the top of `area`; returns the height used.
    pub fn paragraph(&mut self, area: Rect, size: f32, face: Face, text: &str) -> f32 {
        let leading = size * MM_PER_PT * 1.35;
        let mut y = area.y + size * MM_PER_PT;
        for line in wrap(text, size, face, area.w) {
            if y > area.bottom() {
                break;
            }
            self.text(area.x, y, size, face, Align::Left, &line);
            y += leading;
        }
        y - area.y - size * MM_PER_PT + leading * 0.35
    }

    /// The smallest text size on the canvas, in points (None: no text).
    pub fn min_text_pt(&self) -> Option<f32> {
        self.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { size, .. } => Some(*size),
                _ => None,
            })
            .reduce(f32::min)
    }

    /// The thinnest stroke on the canvas, in mm (None: nothing stroked).
    pub fn min_line_mm(&self) -> Option<f32> {
        self.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Path { stroke, .. } | Shape::Circle { stroke, .. } => {
                    stroke.map(|k| k.width)
                }
                _ => None,
            })
            .reduce(f32::min)
    }

    /// The box holding every mark on the canvas (strokes by half their width, text by
    /// its advance width, ascender and descender), or None for an empty canvas.
    pub fn ink_bounds(&self) -> Option<Rect> {
        let mut b: Option<(f32, f32, f32, f32)> = None;
        let mut add = |x0: f32, y0: f32, x1: f32, y1: f32| {
            b = Some(match b {
                None => (x0, y0, x1, y1),
                Some((a, c, d, e)) => (a.min(x0), c.min(y0), d.max(x1), e.max(y1)),
            });
        };
        for s in &self.shapes {
            match s {
                Shape::Path { points, stroke, .. } => {
                    let h = stroke.map_or(0.0, |k| k.width / 2.0);
                    for p in points {
                        add(p.x - h, p.y - h, p.x + h, p.y + h);
                    }
                }
                Shape::Circle {
                    center,
                    radius,
                    stroke,
                    ..
                } => {
                    let r = radius + stroke.map_or(0.0, |k| k.width / 2.0);
                    add(center.x - r, center.y - r, center.x + r, center.y + r);
                }
                Shape::Text {
                    origin,
                    size,
                    face,
                    text,
                    down,
                    ..
                } => {
                    let w = text_width(text, *size, *face);
                    let em = size * MM_PER_PT;
                    // DejaVu Sans: ascender 0.928 em, descender 0.236 em.
                    if *down {
                        add(
                            origin.x - 0.236 * em,
                            origin.y,
                            origin.x + 0.928 * em,
                            origin.y + w,
                        );
                    } else {
                        add(
                            origin.x,
                            origin.y - 0.928 * em,
                            origin.x + w,
                            origin.y + 0.236 * em,
                        );
                    }
                }
            }
        }
        b.map(|(x0, y0, x1, y1)| Rect::new(x0, y0, x1 - x0, y1 - y0))
    }

    /// Every character drawn on the canvas (for font subsetting).
    pub fn collect_chars(&self, into: &mut BTreeSet<(Face, char)>) {
        for s in &self.shapes {
            if let Shape::Text { face, text, .. } = s {
                into.extend(text.chars().map(|c| (*face, c)));
            }
        }
    }
}

/// Break text into lines no wider than `width` mm (on spaces; a long word stays whole).
pub fn wrap(text: &str, size: f32, face: Face, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        // A no-break space (U+00A0) joins its neighbours into one word.
        for word in para
            .split(|c: char| c.is_whitespace() && c != '\u{a0}')
            .filter(|w| !w.is_empty())
        {
            let candidate = if line.is_empty() {
                word.to_string()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && text_width(&candidate, size, face) > width {
                lines.push(std::mem::replace(&mut line, word.to_string()));
            } else {
                line = candidate;
            }
        }
        lines.push(line);
    }
    lines
}

/// Glyph metrics of one face, read from the bundled font.
pub(crate) struct Metrics {
    units_per_em: f32,
    advance: std::collections::HashMap<char, u16>,
    glyph: std::collections::HashMap<char, u16>,
    fallback: u16,
}

impl Metrics {
    /// The metrics of a TrueType or OpenType font program (None: it does not parse).
    fn parse(bytes: &[u8]) -> Option<Metrics> {
        let mut warnings = Vec::new();
        let font = printpdf::ParsedFont::from_bytes(bytes, 0, &mut warnings)?;
        let advance = font
            .codepoint_to_glyph
            .iter()
            .filter_map(|(&cp, gid)| Some((char::from_u32(cp)?, *font.glyph_widths.get(gid)?)))
            .collect();
        let glyph = font
            .codepoint_to_glyph
            .iter()
            .filter_map(|(&cp, &gid)| Some((char::from_u32(cp)?, gid)))
            .collect();
        (font.units_per_em > 0).then(|| Metrics {
            units_per_em: f32::from(font.units_per_em),
            advance,
            glyph,
            fallback: font.glyph_widths.get(&0).copied().unwrap_or(0),
        })
    }

    fn width_em(&self, text: &str) -> f32 {
        let units: u32 = text
            .chars()
            .map(|c| u32::from(*self.advance.get(&c).unwrap_or(&self.fallback)))
            .sum();
        units as f32 / self.units_per_em
    }
}

/// The raw bytes of a face (DejaVu Sans, from the `dejavu` crate; licence in
/// crates/book/src/fonts/DejaVu-LICENSE.txt).
pub fn font_bytes(face: Face) -> &'static [u8] {
    match face {
        Face::Regular => dejavu::sans::regular(),
        Face::Bold => dejavu::sans::bold(),
        Face::Loaded(i) => loaded(i).bytes,
    }
}

/// The face's PostScript-style name, for the PDF (a loaded font's own name, made safe).
pub fn font_name(face: Face) -> String {
    match face {
        Face::Regular => "DejaVuSans".into(),
        Face::Bold => "DejaVuSans-Bold".into(),
        Face::Loaded(i) => loaded(i).name.clone(),
    }
}

fn metrics(face: Face) -> &'static Metrics {
    static REGULAR: OnceLock<Metrics> = OnceLock::new();
    static BOLD: OnceLock<Metrics> = OnceLock::new();
    let cell = match face {
        Face::Regular => &REGULAR,
        Face::Bold => &BOLD,
        Face::Loaded(i) => return &loaded(i).metrics,
    };
    cell.get_or_init(|| Metrics::parse(font_bytes(face)).expect("the bundled font parses"))
}

/// A font loaded from a file: its program, name and metrics, kept for the process.
struct LoadedFont {
    bytes: &'static [u8],
    name: String,
    metrics: Metrics,
}

/// The most distinct fonts one process loads (each is kept until it ends).
pub(crate) const MAX_LOADED_FONTS: usize = 16;
/// The largest font file accepted, in bytes.
pub const MAX_FONT_BYTES: usize = 32 << 20;

fn font_table() -> &'static std::sync::Mutex<Vec<&'static LoadedFont>> {
    static TABLE: OnceLock<std::sync::Mutex<Vec<&'static LoadedFont>>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

fn loaded(i: u16) -> &'static LoadedFont {
    let table = font_table().lock().unwrap_or_else(|e| e.into_inner());
    table[usize::from(i)]
}

/// Load a TrueType or OpenType font program (the same bytes give the same face, so a
/// font named by many books is loaded once). `name` says where it came from, for
/// errors. At most `MAX_LOADED_FONTS` distinct fonts a process.
pub fn load_font(bytes: &[u8], name: &str) -> crate::Result<Face> {
    let bad = |why: &str| crate::Error::invalid(format!("font {name}: {why}"));
    if bytes.len() > MAX_FONT_BYTES {
        return Err(bad(&format!(
            "{} bytes is more than the {MAX_FONT_BYTES} a font may have",
            bytes.len()
        )));
    }
    let mut table = font_table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = table.iter().position(|f| f.bytes == bytes) {
        return Ok(Face::Loaded(i as u16));
    }
    if table.len() >= MAX_LOADED_FONTS {
        return Err(bad(&format!(
            "one run loads at most {MAX_LOADED_FONTS} different fonts"
        )));
    }
    let metrics = Metrics::parse(bytes)
        .ok_or_else(|| bad("not a TrueType or OpenType font this program can read"))?;
    if metrics.glyph.get(&'a').is_none_or(|&g| g == 0) {
        return Err(bad("it has no Latin letters"));
    }
    let ps_name = postscript_name(bytes).unwrap_or_default();
    let mut clean: String = ps_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(40)
        .collect();
    if clean.is_empty() {
        clean = format!("Font{}", table.len() + 1);
    }
    // Kept for the rest of the process (a `Face` is a plain index every canvas may
    // hold, and a loaded face is asked for again by path, above): at most
    // MAX_LOADED_FONTS of them, each at most MAX_FONT_BYTES, ever.
    let font = LoadedFont {
        bytes: Box::leak(bytes.to_vec().into_boxed_slice()),
        name: clean,
        metrics,
    };
    table.push(Box::leak(Box::new(font)));
    Ok(Face::Loaded((table.len() - 1) as u16))
}

/// The font's PostScript name (its name table's id 6), if it has one.
fn postscript_name(bytes: &[u8]) -> Option<String> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::tables::{FontTableProvider, NameTable};
    let font = ReadScope::new(bytes).read::<FontData<'_>>().ok()?;
    let provider = font.table_provider(0).ok()?;
    let data = provider.read_table_data(allsorts::tag::NAME).ok()?;
    let table = ReadScope::new(&data).read::<NameTable<'_>>().ok()?;
    table.string_for_id(NameTable::POSTSCRIPT_NAME)
}

/// The characters of `text` that `face` has no glyph for.
pub fn missing_glyphs(face: Face, text: &str) -> Vec<char> {
    let m = metrics(face);
    let mut v: Vec<char> = text
        .chars()
        .filter(|c| !c.is_whitespace() && m.glyph.get(c).is_none_or(|&g| g == 0))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The glyph id of `c` in the bundled face (0, the missing-glyph box, if it has none).
pub fn glyph_id(face: Face, c: char) -> u16 {
    metrics(face).glyph.get(&c).copied().unwrap_or(0)
}

/// Width of `text` in mm at `size` points.
pub fn text_width(text: &str, size: f32, face: Face) -> f32 {
    metrics(face).width_em(text) * size * MM_PER_PT
}

/// Height of capital letters in mm at `size` points (DejaVu Sans: 0.729 em).
pub fn cap_height(size: f32) -> f32 {
    0.729 * size * MM_PER_PT
}

/// The largest font size (pt) at which `text` fits in `w` x `h` mm, capped at `max`.
pub fn fit_size(text: &str, face: Face, w: f32, h: f32, max: f32) -> f32 {
    let per_pt_w = text_width(text, 1.0, face).max(1e-6);
    let by_w = w / per_pt_w;
    let by_h = h / (MM_PER_PT * 1.0);
    by_w.min(by_h).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_font() {
        let w1 = text_width("i", 10.0, Face::Regular);
        let wm = text_width("M", 10.0, Face::Regular);
        assert!(wm > 2.0 * w1, "M {wm} vs i {w1}");
        assert!(text_width("MM", 10.0, Face::Bold) > text_width("MM", 10.0, Face::Regular));
        assert!(
            (text_width("ab", 20.0, Face::Regular) - 2.0 * text_width("ab", 10.0, Face::Regular))
                .abs()
                < 1e-4
        );
    }

    #[test]
    fn centred_text_is_centred() {
        let mut c = Canvas::new();
        c.text(50.0, 10.0, 12.0, Face::Regular, Align::Center, "Hello");
        let Shape::Text { origin, .. } = &c.shapes[0] else {
            panic!()
        };
        let w = text_width("Hello", 12.0, Face::Regular);
        assert!((origin.x + w / 2.0 - 50.0).abs() < 1e-4);
    }

    #[test]
    fn a_no_break_space_keeps_its_words_together() {
        let lines = wrap("ab 3\u{a0}×\u{a0}8 cd", 10.0, Face::Regular, 1.0);
        assert_eq!(lines, vec!["ab", "3\u{a0}×\u{a0}8", "cd"]);
    }

    #[test]
    fn wrapping_respects_width() {
        let text = "the quick brown fox jumps over the lazy dog ".repeat(5);
        for line in wrap(&text, 10.0, Face::Regular, 60.0) {
            assert!(text_width(&line, 10.0, Face::Regular) <= 60.0 || !line.contains(' '));
        }
    }
}
