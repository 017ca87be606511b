//! Canvas pages -> PDF bytes with printpdf. Fonts are subset here (only the glyphs the
//! book uses) and embedded; ids are named, and the trailer /ID is a hash of the
//! content, so the same book always gives the same bytes, even within one process.

use super::layout::Sheets;
use super::template::ColorMode;
use crate::canvas::{font_bytes, glyph_id, Canvas, Color, Face, Point, Shape, Stroke};
use crate::{Error, Result};
use printpdf::{
    Color as PdfColor, FontId, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument,
    PdfFontHandle, PdfPage, PdfSaveOptions, Polygon, PolygonRing, Pt, Rgb, TextItem, WindingOrder,
};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hasher;

/// Bezier handle length for a quarter circle.
const KAPPA: f32 = 0.552_284_8;
const PT_PER_MM: f32 = 72.0 / 25.4;

/// FNV-1a, for a content hash that does not depend on the process: the trailer's
/// /ID and the fonts' subset tags (ISO 32000-1, 14.4 and 9.6.4), both of which ask
/// only that different files rarely share a value, not that one cannot be forged.
/// It stays beside `sha2` (which the catalogues and manifests use, where a digest is
/// a promise) because every shape of every page is fed to it as it is written, a
/// byte at a time through `Hasher`, and because the /ID and tags are part of every
/// book's bytes: another hash would change every PDF made so far.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn face_name(face: Face) -> String {
    crate::canvas::font_name(face)
}

/// Subset a bundled face to the characters used; returns the font program.
fn subset_face(face: Face, chars: &BTreeSet<char>) -> Result<Vec<u8>> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{subset, CmapTarget, SubsetProfile};
    let fail = |e: String| Error::Check(format!("cannot subset the {} font: {e}", face_name(face)));
    let bytes = font_bytes(face);
    let font = ReadScope::new(bytes)
        .read::<FontData<'_>>()
        .map_err(|e| fail(e.to_string()))?;
    let provider = font.table_provider(0).map_err(|e| fail(e.to_string()))?;
    let glyphs: BTreeSet<u16> = chars
        .iter()
        .map(|&c| glyph_id(face, c))
        .filter(|&g| g != 0)
        .collect();
    // .notdef first, as subsetting requires.
    let ids: Vec<u16> = std::iter::once(0).chain(glyphs).collect();
    subset(&provider, &ids, &SubsetProfile::Pdf, CmapTarget::Unicode)
        .map_err(|e| fail(e.to_string()))
}

/// A six-letter subset tag derived from the glyph set (ISO 32000-1, 9.6.4).
fn subset_tag(face: Face, chars: &BTreeSet<char>) -> String {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.write(face_name(face).as_bytes());
    for c in chars {
        h.write_u32(*c as u32);
    }
    let mut v = h.finish();
    (0..6)
        .map(|_| {
            let ch = (b'A' + (v % 26) as u8) as char;
            v /= 26;
            ch
        })
        .collect()
}

/// A canvas colour in the book's colour model.
fn paint(c: Color, mode: ColorMode) -> PdfColor {
    let (r, g, b) = (
        f32::from(c.r) / 255.0,
        f32::from(c.g) / 255.0,
        f32::from(c.b) / 255.0,
    );
    match mode {
        ColorMode::Rgb => PdfColor::Rgb(Rgb {
            r,
            g,
            b,
            icc_profile: None,
        }),
        ColorMode::Gray => PdfColor::Greyscale(printpdf::Greyscale {
            percent: round_unit(grey_level(c)),
            icc_profile: None,
        }),
        ColorMode::Cmyk => {
            let (c, m, y, k) = cmyk(c);
            PdfColor::Cmyk(printpdf::Cmyk {
                c: round_unit(c),
                m: round_unit(m),
                y: round_unit(y),
                k: round_unit(k),
                icc_profile: None,
            })
        }
    }
}

/// A colour's grey: its Rec. 709 luminance, 0 (black) to 1 (white).
pub(crate) fn grey_level(c: Color) -> f32 {
    c.luminance() / 255.0
}

/// A colour in process inks (each 0 to 1): greys on the black plate alone, so text
/// and lines print with one ink and never out of register.
pub fn cmyk(c: Color) -> (f32, f32, f32, f32) {
    if c.r == c.g && c.g == c.b {
        return (0.0, 0.0, 0.0, 1.0 - f32::from(c.r) / 255.0);
    }
    let (r, g, b) = (
        f32::from(c.r) / 255.0,
        f32::from(c.g) / 255.0,
        f32::from(c.b) / 255.0,
    );
    let k = 1.0 - r.max(g).max(b);
    let d = (1.0 - k).max(1e-6);
    ((1.0 - r - k) / d, (1.0 - g - k) / d, (1.0 - b - k) / d, k)
}

/// Round an ink level to 1/1000 (shorter numbers; far below what prints).
fn round_unit(v: f32) -> f32 {
    (v.clamp(0.0, 1.0) * 1000.0).round() / 1000.0
}

/// Round to 1/100 pt (0.0035 mm, far below what a printer resolves): shorter numbers
/// in the content streams, which compress better.
fn round2(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// Converts canvas coordinates (mm, y down, trim origin) to PDF points on one page.
struct Mapper {
    dx: f32,
    dy: f32,
    media_h: f32,
}

impl Mapper {
    fn point(&self, p: Point) -> printpdf::Point {
        printpdf::Point {
            x: Pt(round2((p.x + self.dx) * PT_PER_MM)),
            y: Pt(round2((self.media_h - (p.y + self.dy)) * PT_PER_MM)),
        }
    }
    fn lp(&self, p: Point, bezier: bool) -> LinePoint {
        LinePoint {
            p: self.point(p),
            bezier,
        }
    }
}

fn set_paint(
    ops: &mut Vec<Op>,
    fill: Option<Color>,
    stroke: Option<Stroke>,
    (mode, min_pt): (ColorMode, f32),
) -> Option<PaintMode> {
    if let Some(c) = fill {
        ops.push(Op::SetFillColor {
            col: paint(c, mode),
        });
    }
    if let Some(s) = stroke {
        ops.push(Op::SetOutlineColor {
            col: paint(s.color, mode),
        });
        ops.push(Op::SetOutlineThickness {
            // Never under the 0.5 pt print minimum (or the template's own), whatever a
            // drawing asked for.
            pt: Pt(round2(s.width.max(crate::canvas::MIN_LINE_MM) * PT_PER_MM).max(min_pt.max(0.5))),
        });
    }
    match (fill.is_some(), stroke.is_some()) {
        (true, true) => Some(PaintMode::FillStroke),
        (true, false) => Some(PaintMode::Fill),
        (false, true) => Some(PaintMode::Stroke),
        (false, false) => None,
    }
}

fn page_ops(
    canvas: &Canvas,
    m: &Mapper,
    fonts: &BTreeMap<Face, FontId>,
    hash: &mut Fnv,
    (mode, min_pt): (ColorMode, f32),
) -> Vec<Op> {
    let mut page = PageOps {
        ops: Vec::with_capacity(canvas.shapes.len() * 4),
        m,
        fonts,
        hash,
        colours: (mode, min_pt),
    };
    for shape in &canvas.shapes {
        match shape {
            Shape::Path {
                points,
                closed,
                fill,
                stroke,
            } => page.path(points, *closed, *fill, *stroke),
            Shape::Circle {
                center,
                radius,
                fill,
                stroke,
            } => page.circle(*center, *radius, *fill, *stroke),
            Shape::Text {
                origin,
                size,
                face,
                color,
                text,
                down,
            } => page.text(*origin, *size, *face, *color, text, *down),
        }
    }
    page.ops
}

/// One page's PDF operations being written, shape by shape, each shape also fed to
/// the content hash.
struct PageOps<'a> {
    ops: Vec<Op>,
    m: &'a Mapper,
    fonts: &'a BTreeMap<Face, FontId>,
    hash: &'a mut Fnv,
    /// The book's colour mode and thinnest line in points.
    colours: (ColorMode, f32),
}

impl PageOps<'_> {
    /// A polyline, or a polygon when `closed` (nothing when it is not painted).
    fn path(
        &mut self,
        points: &[Point],
        closed: bool,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    ) {
        for p in points {
            self.hash.write_u32(p.x.to_bits());
            self.hash.write_u32(p.y.to_bits());
        }
        let Some(mode) = set_paint(&mut self.ops, fill, stroke, self.colours) else {
            return;
        };
        let m = self.m;
        if closed {
            self.ops.push(Op::DrawPolygon {
                polygon: Polygon {
                    rings: vec![PolygonRing {
                        points: points.iter().map(|&p| m.lp(p, false)).collect(),
                    }],
                    mode,
                    winding_order: WindingOrder::NonZero,
                },
            });
        } else {
            self.ops.push(Op::DrawLine {
                line: Line {
                    points: points.iter().map(|&p| m.lp(p, false)).collect(),
                    is_closed: false,
                },
            });
        }
    }

    /// A circle, as four Bézier quarters (nothing when it is not painted).
    fn circle(&mut self, c: Point, r: f32, fill: Option<Color>, stroke: Option<Stroke>) {
        self.hash.write_u32(c.x.to_bits());
        self.hash.write_u32(c.y.to_bits());
        self.hash.write_u32(r.to_bits());
        let Some(mode) = set_paint(&mut self.ops, fill, stroke, self.colours) else {
            return;
        };
        let k = r * KAPPA;
        let m = self.m;
        let p = |x: f32, y: f32, b: bool| {
            m.lp(
                Point {
                    x: c.x + x,
                    y: c.y + y,
                },
                b,
            )
        };
        let points = vec![
            p(r, 0.0, false),
            p(r, k, true),
            p(k, r, true),
            p(0.0, r, false),
            p(-k, r, true),
            p(-r, k, true),
            p(-r, 0.0, false),
            p(-r, -k, true),
            p(-k, -r, true),
            p(0.0, -r, false),
            p(k, -r, true),
            p(r, -k, true),
            p(r, 0.0, false),
        ];
        self.ops.push(Op::DrawPolygon {
            polygon: Polygon {
                rings: vec![PolygonRing { points }],
                mode,
                winding_order: WindingOrder::NonZero,
            },
        });
    }

    /// One line of text from `origin`, or running down the page when `down`.
    fn text(&mut self, origin: Point, size: f32, face: Face, color: Color, text: &str, down: bool) {
        self.hash.write(text.as_bytes());
        self.hash.write_u32(origin.x.to_bits());
        self.hash.write_u32(origin.y.to_bits());
        if down {
            self.hash.write_u8(1);
        }
        let ops = &mut self.ops;
        ops.push(Op::StartTextSection);
        ops.push(Op::SetFont {
            font: PdfFontHandle::External(self.fonts[&face].clone()),
            size: Pt(size),
        });
        ops.push(Op::SetFillColor {
            col: paint(color, self.colours.0),
        });
        let at = self.m.point(origin);
        if down {
            // Tm = [0 -1 1 0 x y]: the baseline runs down the page, the
            // letters' tops face right.
            ops.push(Op::SetTextMatrix {
                matrix: printpdf::TextMatrix::Raw([0.0, -1.0, 1.0, 0.0, at.x.0, at.y.0]),
            });
        } else {
            ops.push(Op::SetTextCursor { pos: at });
        }
        ops.push(Op::ShowText {
            items: vec![TextItem::Text(text.to_string())],
        });
        ops.push(Op::EndTextSection);
    }
}

/// What the PDF's document information says.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// The document title (the book's title).
    pub title: String,
    /// The document author; empty leaves it out.
    pub author: String,
    /// The document subject; empty leaves it out.
    pub subject: String,
    /// The creation date as a PDF date string ("D:20261124000000Z"), or none.
    pub date: Option<String>,
    /// The colour model every colour is written in.
    pub color: ColorMode,
    /// The thinnest line drawn, in points (at least the 0.5 pt print minimum): the
    /// template's `min_line_pt`, so a book meets a service's stricter figure.
    pub min_line_pt: f32,
}

/// The PDF date (UTC) of a Unix time in seconds.
pub(crate) fn pdf_date(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "D:{y:04}{m:02}{d:02}{:02}{:02}{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Render pages (page 1 first) into PDF bytes.
pub fn render(meta: &Meta, geometry: &dyn Sheets, pages: &[Canvas]) -> Result<Vec<u8>> {
    let (title, author) = (meta.title.as_str(), meta.author.as_str());
    let mut used = BTreeSet::new();
    for p in pages {
        p.collect_chars(&mut used);
    }
    let mut doc = PdfDocument::new(title);
    doc.metadata.info.author = author.to_string();
    doc.metadata.info.creator = "puzzlebook".into();
    doc.metadata.info.producer = format!("puzzlebook {} (printpdf)", env!("CARGO_PKG_VERSION"));

    let mut fonts = BTreeMap::new();
    let faces: BTreeSet<Face> = used.iter().map(|&(f, _)| f).collect();
    for face in faces {
        let chars: BTreeSet<char> = used
            .iter()
            .filter(|(f, _)| *f == face)
            .map(|&(_, c)| c)
            .collect();
        if chars.is_empty() {
            continue;
        }
        let program = subset_face(face, &chars)?;
        let mut warnings = Vec::new();
        let mut font = ParsedFont::from_bytes(&program, 0, &mut warnings).ok_or_else(|| {
            Error::Check(format!(
                "the subset {} font does not parse",
                face_name(face)
            ))
        })?;
        font.font_name = Some(format!("{}+{}", subset_tag(face, &chars), face_name(face)));
        let id = FontId(format!("F{}", fonts.len() + 1));
        doc.resources
            .fonts
            .map
            .insert(id.clone(), printpdf::PdfFont::new(font));
        fonts.insert(face, id);
    }

    let (media_w, media_h) = geometry.media();
    let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
    hash.write(title.as_bytes());
    let mut pdf_pages = Vec::with_capacity(pages.len());
    for (i, canvas) in pages.iter().enumerate() {
        let (dx, dy) = geometry.trim_offset(i + 1);
        let mapper = Mapper { dx, dy, media_h };
        let ops = page_ops(
            canvas,
            &mapper,
            &fonts,
            &mut hash,
            (meta.color, meta.min_line_pt),
        );
        pdf_pages.push(PdfPage::new(Mm(media_w), Mm(media_h), ops));
    }
    doc.with_pages(pdf_pages);

    let opts = PdfSaveOptions {
        optimize: true,
        subset_fonts: false,
        secure: true,
        image_optimization: None,
    };
    let mut warnings = Vec::new();
    let mut lo = doc.to_lopdf_document(&opts, &mut warnings);
    let id = format!("{:016x}{:016x}", hash.finish(), mix(hash.finish()));
    lo.trailer.set(
        "ID",
        lopdf::Object::Array(vec![
            lopdf::Object::string_literal(id.clone()),
            lopdf::Object::string_literal(id),
        ]),
    );
    set_boxes(&mut lo, geometry)?;
    set_info(&mut lo, meta)?;
    if meta.color == ColorMode::Cmyk {
        set_output_intent(&mut lo)?;
    }
    compress_streams(&mut lo);
    let mut out = Vec::new();
    lo.save_to(&mut out)
        .map_err(|e| Error::Check(format!("cannot serialise the PDF: {e}")))?;
    Ok(out)
}

/// Write each page's boxes in PDF terms ([x0 y0 x1 y1], points, origin bottom-left):
/// the media box is the trimmed page plus bleed on the outside, top and bottom edges;
/// the trim box is the page the reader holds; with bleed, the bleed box is the media
/// box, and without bleed every box is the trim box.
fn set_boxes(doc: &mut lopdf::Document, g: &dyn Sheets) -> Result<()> {
    use lopdf::Object;
    let (media_w, media_h) = g.media();
    let arr = |x0: f32, y0: f32, x1: f32, y1: f32| {
        Object::Array(
            [x0, y0, x1, y1]
                .iter()
                .map(|v| Object::Real(round2(v * PT_PER_MM)))
                .collect(),
        )
    };
    for (number, id) in doc.get_pages() {
        let (x0, y0, x1, y1) = g.trim_box(number as usize);
        let page = doc
            .get_object_mut(id)
            .and_then(|o| o.as_dict_mut())
            .map_err(|e| Error::Check(format!("page {number} of the PDF: {e}")))?;
        page.set("MediaBox", arr(0.0, 0.0, media_w, media_h));
        page.set("TrimBox", arr(x0, y0, x1, y1));
        page.remove(b"CropBox");
        page.remove(b"ArtBox");
        if g.has_bleed() {
            page.set("BleedBox", arr(0.0, 0.0, media_w, media_h));
        } else {
            page.remove(b"BleedBox");
        }
    }
    Ok(())
}

/// A CMYK book names its printing condition: an output intent for CGATS TR 001
/// (SWOP), a characterisation registered at color.org, so no profile is embedded.
/// The file does not claim PDF/X (no GTS_PDFXVersion): that needs a validator's word.
fn set_output_intent(doc: &mut lopdf::Document) -> Result<()> {
    use lopdf::{Dictionary, Object};
    let mut intent = Dictionary::new();
    intent.set("Type", Object::Name(b"OutputIntent".to_vec()));
    intent.set("S", Object::Name(b"GTS_PDFX".to_vec()));
    intent.set(
        "OutputConditionIdentifier",
        Object::string_literal("CGATS TR 001"),
    );
    intent.set(
        "RegistryName",
        Object::string_literal("http://www.color.org"),
    );
    intent.set(
        "Info",
        Object::string_literal("SWOP (Publication) Grade 5 Paper, CMYK"),
    );
    let id = doc.add_object(Object::Dictionary(intent));
    let root = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|e| Error::Check(format!("the PDF has no catalog: {e}")))?;
    let catalog = doc
        .get_object_mut(root)
        .and_then(Object::as_dict_mut)
        .map_err(|e| Error::Check(format!("the PDF's catalog: {e}")))?;
    catalog.set("OutputIntents", Object::Array(vec![Object::Reference(id)]));
    Ok(())
}

/// The document information: what the book is, and nothing it is not (no PDF/X key:
/// the file is not PDF/X), dated only when a date is known.
fn set_info(doc: &mut lopdf::Document, meta: &Meta) -> Result<()> {
    use lopdf::{Dictionary, Object};
    let text = |s: &str| Object::String(utf16_text(s), lopdf::StringFormat::Hexadecimal);
    let mut info = Dictionary::new();
    info.set("Title", text(&meta.title));
    if !meta.author.is_empty() {
        info.set("Author", text(&meta.author));
    }
    if !meta.subject.is_empty() {
        info.set("Subject", text(&meta.subject));
    }
    info.set("Creator", text("puzzlebook"));
    info.set(
        "Producer",
        text(&format!(
            "puzzlebook {} (printpdf, lopdf)",
            env!("CARGO_PKG_VERSION")
        )),
    );
    if let Some(d) = &meta.date {
        info.set("CreationDate", Object::string_literal(d.clone()));
        info.set("ModDate", Object::string_literal(d.clone()));
    }
    info.set("Trapped", Object::Name(b"False".to_vec()));
    let id = doc.add_object(Object::Dictionary(info));
    doc.trailer.set("Info", Object::Reference(id));
    // printpdf's own information dictionary (with its empty PDF/X version) goes.
    doc.prune_objects();
    Ok(())
}

/// A PDF text string: plain when it is ASCII, else UTF-16BE with its byte-order mark.
fn utf16_text(s: &str) -> Vec<u8> {
    if s.is_ascii() {
        return s.as_bytes().to_vec();
    }
    let mut v = vec![0xfe, 0xff];
    for u in s.encode_utf16() {
        v.extend_from_slice(&u.to_be_bytes());
    }
    v
}

/// Deflate every uncompressed stream, in parallel. (lopdf's own `compress` runs
/// serially at the slowest level and took half the time of writing a book.)
fn compress_streams(doc: &mut lopdf::Document) {
    use flate2::{write::ZlibEncoder, Compression};
    use rayon::prelude::*;
    use std::io::Write;
    let mut streams: Vec<&mut lopdf::Stream> = doc
        .objects
        .values_mut()
        .filter_map(|o| match o {
            lopdf::Object::Stream(s) if s.allows_compression && s.dict.get(b"Filter").is_err() => {
                Some(s)
            }
            _ => None,
        })
        .collect();
    streams.par_iter_mut().for_each(|s| {
        let mut enc = ZlibEncoder::new(Vec::new(), Compression::new(3));
        if enc.write_all(&s.content).is_ok() {
            if let Ok(packed) = enc.finish() {
                if packed.len() + 19 < s.content.len() {
                    s.dict.set("Filter", "FlateDecode");
                    s.set_content(packed);
                }
            }
        }
    });
}

fn mix(x: u64) -> u64 {
    crate::seed::mix64(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip_and_match_known_days() {
        // 2000-03-01 is day 11,017 (published epoch tables); 1970-01-01 is day 0.
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(pdf_date(0), "D:19700101000000Z");
        // 1,700,000,000 s is 2023-11-14 22:13:20 UTC.
        assert_eq!(pdf_date(1_700_000_000), "D:20231114221320Z");
        for z in (-1000..100_000).step_by(7) {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
    }
}
