//! A canvas as a picture: SVG text and PNG bytes, for `generate --format svg|png`.
//!
//! The SVG is drawn from the same [`Canvas`] the books print, in millimetres (its
//! `width` and `height` are given in mm, its `viewBox` is in mm). Text is not left to
//! the viewer's fonts: every glyph is the outline of the bundled DejaVu Sans face,
//! defined once per file and placed where the canvas put it, so the picture looks the
//! same in every program, with or without the font installed. PNG is that SVG
//! rasterised by resvg on a white background; both are the same bytes for the same
//! canvas (no dates, no system fonts).

use crate::canvas::{self, Canvas, Color, Face, Rect, Shape, Stroke, MIN_TEXT_PT, MM_PER_PT};
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The resolutions `--dpi` accepts, in dots per inch.
pub(crate) const DPI_RANGE: std::ops::RangeInclusive<u32> = 72..=1200;
/// The resolution of a PNG when none is asked for.
pub const DEFAULT_DPI: u32 = 300;
/// The most pixels one PNG may have (width x height): about 160 MB of memory while it
/// is drawn.
pub(crate) const MAX_PIXELS: u64 = 40_000_000;
/// The white space around a drawing, in mm.
pub(crate) const MARGIN_MM: f32 = 2.0;
/// The longer side a drawing starts at when it is sized, in mm.
const START_MM: f32 = 100.0;
/// The longer side a drawing grows to at most, in mm, looking for legible text.
const MAX_MM: f32 = 400.0;

/// One drawing and the box it is shown in.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The drawing.
    pub canvas: Canvas,
    /// What the picture shows, in the canvas's mm: the drawing's area and all its ink,
    /// with `MARGIN_MM` around.
    pub view: Rect,
}

impl Picture {
    /// Draw with `draw(canvas, area)` into an area of width / height `aspect`, as small
    /// as lets its text be at least [`MIN_TEXT_PT`] (the longer side starts at 100 mm
    /// and grows, up to 400 mm).
    pub fn sized(aspect: f32, draw: impl Fn(&mut Canvas, Rect)) -> Picture {
        let aspect = if aspect.is_finite() && aspect > 0.0 {
            aspect
        } else {
            1.0
        };
        let mut long = START_MM;
        loop {
            let (w, h) = if aspect >= 1.0 {
                (long, long / aspect)
            } else {
                (long * aspect, long)
            };
            let area = Rect::new(MARGIN_MM, MARGIN_MM, w, h);
            let mut canvas = Canvas::new();
            draw(&mut canvas, area);
            let legible = canvas.min_text_pt().is_none_or(|s| s >= MIN_TEXT_PT - 1e-3);
            if legible || long * 1.1 > MAX_MM {
                return Picture::around(canvas, area);
            }
            long *= 1.1;
        }
    }

    /// The picture of `canvas` showing `area` and every mark, with a margin.
    pub fn around(canvas: Canvas, area: Rect) -> Picture {
        let (mut x0, mut y0, mut x1, mut y1) = (area.x, area.y, area.right(), area.bottom());
        if let Some(b) = canvas.ink_bounds() {
            x0 = x0.min(b.x);
            y0 = y0.min(b.y);
            x1 = x1.max(b.right());
            y1 = y1.max(b.bottom());
        }
        let view = Rect::new(
            x0 - MARGIN_MM,
            y0 - MARGIN_MM,
            x1 - x0 + 2.0 * MARGIN_MM,
            y1 - y0 + 2.0 * MARGIN_MM,
        );
        Picture { canvas, view }
    }

    /// The width and height in pixels at `dpi` (mm x dpi / 25.4, rounded, at least 1).
    pub fn pixels(&self, dpi: u32) -> (u32, u32) {
        let px = |mm: f32| ((f64::from(mm) * f64::from(dpi) / 25.4).round() as u32).max(1);
        (px(mm3(self.view.w)), px(mm3(self.view.h)))
    }

    /// The picture as an SVG document.
    pub fn svg(&self) -> String {
        to_svg(&self.canvas, self.view)
    }

    /// The picture as a PNG at `dpi`, on white. Refused outside `DPI_RANGE` or over
    /// `MAX_PIXELS`.
    pub fn png(&self, dpi: u32) -> Result<Vec<u8>> {
        check_dpi(dpi)?;
        let (w, h) = self.pixels(dpi);
        if u64::from(w) * u64::from(h) > MAX_PIXELS {
            return Err(Error::invalid(format!(
                "--dpi {dpi} makes a {w} × {h} pixel image, over the limit of {MAX_PIXELS} pixels: ask for a lower --dpi"
            )));
        }
        svg_to_png(&self.svg(), w, h, dpi)
    }
}

/// Refuse a resolution outside `DPI_RANGE`.
pub fn check_dpi(dpi: u32) -> Result<()> {
    if DPI_RANGE.contains(&dpi) {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "--dpi {dpi} is out of range: ask for {} to {}",
            DPI_RANGE.start(),
            DPI_RANGE.end()
        )))
    }
}

/// A length as the SVG writes it (to a thousandth of a mm), so the size in pixels is
/// computed from the same number the file states.
fn mm3(v: f32) -> f32 {
    (v * 1000.0).round() / 1000.0
}

/// `v` with at most three decimals and no trailing zeros.
fn num(out: &mut String, v: f32) {
    let r = (v * 1000.0).round() / 1000.0;
    // Never "-0".
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    out.push_str(s);
}

fn color(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

fn paint(out: &mut String, fill: Option<Color>, stroke: Option<Stroke>) {
    match fill {
        Some(c) => {
            let _ = write!(out, " fill=\"{}\"", color(c));
        }
        None => out.push_str(" fill=\"none\""),
    }
    if let Some(s) = stroke {
        let _ = write!(out, " stroke=\"{}\" stroke-width=\"", color(s.color));
        num(out, s.width);
        // PDF's default mitre limit, so corners look as in the books.
        out.push_str("\" stroke-miterlimit=\"10\"");
    }
}

fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
    s
}

/// The SVG document of `canvas`, showing the box `view` (mm) at its size in mm.
pub(crate) fn to_svg(canvas: &Canvas, view: Rect) -> String {
    let mut b = SvgBody::default();
    for shape in &canvas.shapes {
        match shape {
            Shape::Path {
                points,
                closed,
                fill,
                stroke,
            } => b.path(points, *closed, *fill, *stroke),
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => b.circle(*center, *radius, *fill, *stroke),
            Shape::Text {
                origin,
                size,
                face,
                color: c,
                text,
                down,
            } => b.text(*origin, *size, *face, *c, text, *down),
        }
    }
    let SvgBody { body, glyphs } = b;
    let mut out = String::with_capacity(body.len() + 4096);
    svg_head(&mut out, view);
    if !glyphs.is_empty() {
        glyph_defs(&mut out, &glyphs);
    }
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// The elements of an SVG document being written, shape by shape, and the glyphs
/// its text uses.
#[derive(Default)]
struct SvgBody {
    body: String,
    /// Glyphs used, each defined once: (face, glyph id) -> its id in the file.
    glyphs: BTreeMap<(Face, u16), String>,
}

impl SvgBody {
    /// A polyline, or a polygon when `closed` (nothing without points or paint).
    fn path(
        &mut self,
        points: &[canvas::Point],
        closed: bool,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        if points.is_empty() || (fill.is_none() && stroke.is_none()) {
            return;
        }
        let body = &mut self.body;
        body.push_str("<path d=\"");
        for (i, p) in points.iter().enumerate() {
            body.push(if i == 0 { 'M' } else { 'L' });
            num(body, p.x);
            body.push(' ');
            num(body, p.y);
        }
        if closed {
            body.push('Z');
        }
        body.push('"');
        // An open path is never filled (as in the books).
        paint(body, if closed { fill } else { None }, stroke);
        body.push_str("/>\n");
    }

    /// A circle (nothing without paint).
    fn circle(
        &mut self,
        center: canvas::Point,
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        if fill.is_none() && stroke.is_none() {
            return;
        }
        let body = &mut self.body;
        body.push_str("<circle cx=\"");
        num(body, center.x);
        body.push_str("\" cy=\"");
        num(body, center.y);
        body.push_str("\" r=\"");
        num(body, radius);
        body.push('"');
        paint(body, fill, stroke);
        body.push_str("/>\n");
    }

    /// One line of text from `origin` (turned to run down the page when `down`): a
    /// group of glyph uses, each glyph where the canvas's advance puts it.
    fn text(
        &mut self,
        origin: canvas::Point,
        size: f32,
        face: Face,
        c: Color,
        text: &str,
        down: bool,
    ) {
        let outlines = outlines(face);
        let scale = size * MM_PER_PT / outlines.units_per_em;
        let (body, glyphs) = (&mut self.body, &mut self.glyphs);
        let _ = write!(
            body,
            "<g aria-label=\"{}\" fill=\"{}\"",
            escape(text),
            color(c)
        );
        if down {
            // A spine's line: turned a quarter clockwise about its start.
            body.push_str(" transform=\"rotate(90 ");
            num(body, origin.x);
            body.push(' ');
            num(body, origin.y);
            body.push_str(")\"");
        }
        body.push_str(">\n");
        let mut x = origin.x;
        for ch in text.chars() {
            let gid = canvas::glyph_id(face, ch);
            if outlines.path(gid).is_some() {
                let next = glyphs.len();
                let id = glyphs.entry((face, gid)).or_insert_with(|| match face {
                    Face::Regular => format!("r{next}"),
                    Face::Bold => format!("b{next}"),
                    Face::Loaded(i) => format!("l{i}-{next}"),
                });
                let _ = write!(body, "<use xlink:href=\"#{id}\" transform=\"matrix(");
                num_scale(body, scale);
                body.push_str(" 0 0 ");
                num_scale(body, -scale);
                body.push(' ');
                num(body, x);
                body.push(' ');
                num(body, origin.y);
                body.push_str(")\"/>\n");
            }
            // The canvas's own advance, so every glyph sits where the layout put it.
            x += canvas::text_width(ch.encode_utf8(&mut [0; 4]), size, face);
        }
        body.push_str("</g>\n");
    }
}

/// The XML declaration and the opening `svg` tag: `view`'s size in mm and its box.
fn svg_head(out: &mut String, view: Rect) {
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"",
    );
    num(out, view.w);
    out.push_str("mm\" height=\"");
    num(out, view.h);
    out.push_str("mm\" viewBox=\"");
    for (i, v) in [view.x, view.y, view.w, view.h].into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        num(out, v);
    }
    out.push_str("\">\n");
}

/// The `defs` with the outline of every glyph used, in the order of their ids.
fn glyph_defs(out: &mut String, glyphs: &BTreeMap<(Face, u16), String>) {
    // Glyph outlines of DejaVu Sans (font units, y up); licence: the DejaVu fonts
    // licence (Bitstream Vera), which lets them be embedded and redistributed.
    out.push_str("<defs>\n");
    let mut by_id: Vec<(&String, Face, u16)> =
        glyphs.iter().map(|((f, g), id)| (id, *f, *g)).collect();
    by_id.sort_by_key(|(id, ..)| id[1..].parse::<usize>().unwrap_or(0));
    for (id, face, gid) in by_id {
        let d = outlines(face).path(gid).unwrap_or_default();
        let _ = writeln!(out, "<path id=\"{id}\" d=\"{d}\"/>");
    }
    out.push_str("</defs>\n");
}

/// A glyph scale factor: small numbers, so more decimals than mm lengths.
fn num_scale(out: &mut String, v: f32) {
    let s = format!("{v:.7}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    out.push_str(if s == "-0" { "0" } else { s });
}

/// Glyph outlines of one face as SVG path data, made once per glyph.
struct Outlines {
    face: ttf_parser::Face<'static>,
    units_per_em: f32,
    paths: std::sync::Mutex<BTreeMap<u16, Option<String>>>,
}

impl Outlines {
    fn path(&self, gid: u16) -> Option<String> {
        let mut paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        paths
            .entry(gid)
            .or_insert_with(|| {
                let mut b = PathData(String::new());
                self.face.outline_glyph(ttf_parser::GlyphId(gid), &mut b)?;
                Some(b.0).filter(|d| !d.is_empty())
            })
            .clone()
    }
}

fn outlines(face: Face) -> &'static Outlines {
    static REGULAR: OnceLock<Outlines> = OnceLock::new();
    static BOLD: OnceLock<Outlines> = OnceLock::new();
    let cell = match face {
        Face::Regular => &REGULAR,
        Face::Bold => &BOLD,
        Face::Loaded(i) => return loaded_outlines(i),
    };
    cell.get_or_init(|| {
        let f = ttf_parser::Face::parse(canvas::font_bytes(face), 0).expect("bundled font parses");
        Outlines {
            units_per_em: f32::from(f.units_per_em()),
            face: f,
            paths: std::sync::Mutex::new(BTreeMap::new()),
        }
    })
}

/// The outlines of a font a template loaded (kept for the process, like the font);
/// DejaVu Sans's if its outlines cannot be read.
fn loaded_outlines(i: u16) -> &'static Outlines {
    static LOADED: OnceLock<std::sync::Mutex<BTreeMap<u16, &'static Outlines>>> = OnceLock::new();
    let mut table = LOADED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(o) = table.get(&i) {
        return o;
    }
    let Ok(f) = ttf_parser::Face::parse(canvas::font_bytes(Face::Loaded(i)), 0) else {
        return outlines(Face::Regular);
    };
    // Kept for the process, as the face itself is: one per loaded face, so at most
    // MAX_LOADED_FONTS.
    let o: &'static Outlines = Box::leak(Box::new(Outlines {
        units_per_em: f32::from(f.units_per_em()),
        face: f,
        paths: std::sync::Mutex::new(BTreeMap::new()),
    }));
    table.insert(i, o);
    o
}

/// Collects a glyph outline as SVG path data.
struct PathData(String);

impl PathData {
    fn cmd(&mut self, c: char, pts: &[f32]) {
        self.0.push(c);
        for (i, v) in pts.iter().enumerate() {
            if i > 0 {
                self.0.push(' ');
            }
            num(&mut self.0, *v);
        }
    }
}

impl ttf_parser::OutlineBuilder for PathData {
    fn move_to(&mut self, x: f32, y: f32) {
        self.cmd('M', &[x, y]);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.cmd('L', &[x, y]);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.cmd('Q', &[x1, y1, x, y]);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.cmd('C', &[x1, y1, x2, y2, x, y]);
    }
    fn close(&mut self) {
        self.0.push('Z');
    }
}

/// Pixel buffers larger than this are rasterised one at a time in the whole process
/// (smaller ones in parallel): however many threads draw, at most one large image is
/// in memory at once.
pub(crate) const LARGE_IMAGE_BYTES: u64 = 16 << 20;

/// Held while a large image is rasterised and encoded.
static LARGE_IMAGE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Rasterise an SVG document to a `w` x `h` PNG on white. The pixel buffer is
/// reserved first, so a machine or a limit (`ulimit -v`) without room for it is an
/// error naming the image's size, not an abort; the PNG is encoded straight from the
/// pixels (opaque, so no copy is needed to undo premultiplied alpha).
fn svg_to_png(svg: &str, w: u32, h: u32, dpi: u32) -> Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| Error::invalid(format!("cannot read the drawing as SVG: {e}")))?;
    let bytes = u64::from(w) * u64::from(h) * 4;
    let _one_at_a_time =
        (bytes > LARGE_IMAGE_BYTES).then(|| LARGE_IMAGE.lock().unwrap_or_else(|p| p.into_inner()));
    let no_room = || {
        Error::invalid(format!(
            "not enough memory for a {w} × {h} pixel image ({} MB): ask for a lower --dpi",
            bytes.div_ceil(1 << 20)
        ))
    };
    let mut data: Vec<u8> = Vec::new();
    data.try_reserve_exact(bytes as usize)
        .map_err(|_| no_room())?;
    data.resize(bytes as usize, 0);
    let size = tiny_skia::IntSize::from_wh(w, h)
        .ok_or_else(|| Error::invalid(format!("cannot make a {w} × {h} pixel image")))?;
    let mut pixmap = tiny_skia::Pixmap::from_vec(data, size)
        .ok_or_else(|| Error::invalid(format!("cannot make a {w} × {h} pixel image")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let tree_size = tree.size();
    let transform = tiny_skia::Transform::from_scale(
        w as f32 / tree_size.width(),
        h as f32 / tree_size.height(),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    let encode = || -> std::result::Result<Vec<u8>, png::EncodingError> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // The resolution (pHYs, pixels per metre), so a layout program places the
        // picture at its size in mm rather than at 72 or 96 dpi.
        let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
        let mut writer = encoder.write_header()?;
        // Every pixel is opaque (the page is filled white first), so premultiplied
        // and straight alpha are the same bytes.
        writer.write_image_data(pixmap.data())?;
        writer.finish()?;
        Ok(out)
    };
    encode().map_err(|e| Error::invalid(format!("cannot encode the PNG: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::{pt, Align};

    /// The pHYs chunk of PNG bytes, read by hand: (x, y pixels per unit, unit).
    fn phys(png: &[u8]) -> Option<(u32, u32, u8)> {
        let mut i = 8;
        while i + 8 <= png.len() {
            let len = u32::from_be_bytes(png[i..i + 4].try_into().unwrap()) as usize;
            if &png[i + 4..i + 8] == b"pHYs" {
                let d = &png[i + 8..i + 8 + len];
                let n = |k: usize| u32::from_be_bytes(d[k..k + 4].try_into().unwrap());
                return Some((n(0), n(4), d[8]));
            }
            i += 12 + len;
        }
        None
    }

    #[test]
    fn pngs_say_their_resolution() {
        // 300 dpi is 300 / 2.54 cm = 11811.02 pixels per metre; 96 dpi 3779.5 -> 3780.
        let p = sample();
        assert_eq!(phys(&p.png(300).unwrap()), Some((11811, 11811, 1)));
        assert_eq!(phys(&p.png(96).unwrap()), Some((3780, 3780, 1)));
    }

    fn sample() -> Picture {
        Picture::sized(2.0, |c, a| {
            c.rect(a.inset(1.0), None, Some(Stroke::new(Color::BLACK, 0.3)));
            c.circle(a.center(), 5.0, Some(Color::grey(200)), None);
            c.text(
                a.x + 2.0,
                a.y + 10.0,
                12.0,
                Face::Bold,
                Align::Left,
                "A&B <7>",
            );
            c.line(
                pt(a.x + 1.0, a.y + 1.0),
                pt(a.right() - 1.0, a.bottom() - 1.0),
                Stroke::new(Color::BLACK, 0.5),
            );
        })
    }

    #[test]
    fn svg_is_sized_in_mm_and_holds_the_glyphs() {
        let p = sample();
        let svg = p.svg();
        assert!(svg.contains("width=\"104mm\" height=\"54mm\" viewBox=\"0 0 104 54\""));
        assert!(svg.contains("aria-label=\"A&amp;B &lt;7&gt;\""));
        // A, &, B, <, 7, > defined once each; the space has no outline.
        assert_eq!(svg.matches("<path id=").count(), 6);
        assert_eq!(svg.matches("<use ").count(), 6);
        assert!(!svg.contains("<text"));
    }

    #[test]
    fn png_has_the_size_asked_for() {
        let p = sample();
        let png = p.png(96).unwrap();
        let pix = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((pix.width(), pix.height()), (393, 204));
        assert!(pix.pixels().iter().any(|c| c.red() < 128));
        assert_eq!(png, p.png(96).unwrap());
        assert!(p.png(71).is_err() && p.png(1201).is_err());
    }

    #[test]
    fn glyphs_are_the_ones_the_canvas_measures() {
        // The canvas finds glyphs through the PDF library's reading of the font, the
        // outlines come from ttf-parser's: both must name the same glyph.
        for face in [Face::Regular, Face::Bold] {
            let f = ttf_parser::Face::parse(canvas::font_bytes(face), 0).unwrap();
            for c in "09AZaz×–“”’★·:?".chars() {
                let want = f.glyph_index(c).map(|g| g.0);
                assert_eq!(Some(canvas::glyph_id(face, c)), want, "{face:?} {c}");
                assert!(outlines(face).path(canvas::glyph_id(face, c)).is_some());
            }
        }
    }

    #[test]
    fn huge_images_are_refused() {
        let p = Picture::around(Canvas::new(), Rect::new(0.0, 0.0, 200.0, 200.0));
        // 204 mm at 1200 dpi: 9638 pixels a side, 93 million in all.
        let e = p.png(1200).unwrap_err().to_string();
        assert!(e.contains("over the limit"), "{e}");
        assert!(p.png(600).is_ok());
    }

    #[test]
    fn small_text_makes_the_picture_grow() {
        let p = Picture::sized(1.0, |c, a| {
            c.text(a.x, a.y + 5.0, a.w / 20.0, Face::Regular, Align::Left, "x");
        });
        assert!(p.canvas.min_text_pt().unwrap() >= MIN_TEXT_PT - 1e-3);
    }
}
