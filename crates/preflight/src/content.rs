//! A content-stream interpreter for preflight: it follows the graphics state (q/Q, cm,
//! w), builds paths, sets text (with glyph widths from the font), draws XObjects (forms
//! recursively, images as the unit square) and inline images, and records what lands
//! on the page: the box of every mark in default user space, the smallest text and the
//! thinnest stroke, the colour spaces painted with and the fonts used.
//!
//! Inputs are untrusted, so everything is bounded: decoded content bytes per page,
//! operations per page, form nesting and graphics-state nesting. Operators with
//! operands of the wrong kind are skipped, as viewers do.

use super::image::{self, Ink};
use lopdf::content::Operation;
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Decoded content bytes one page may have, its forms included (operations are read
/// one at a time, so memory is these bytes and one operation).
pub const MAX_CONTENT_BYTES: usize = 16 << 20;
/// Operations one page may run, its forms included (a form drawn twice counts twice).
pub const MAX_OPERATIONS: usize = 4_000_000;
/// How deep Form XObjects may nest.
pub const MAX_FORM_DEPTH: usize = 12;
/// How deep q may nest.
pub const MAX_STATE_DEPTH: usize = 256;
/// Marks kept per page (more are merged into the last one's neighbours: see `Page::add`).
pub const MAX_MARKS: usize = 200_000;

/// A 2-D affine matrix `[a b c d e f]` as PDF writes it: a point (x, y) maps to
/// (a x + c y + e, b x + d y + f).
pub type Matrix = [f64; 6];

/// The identity matrix.
pub const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `m` then `n`: the matrix that applies `m` first (PDF's `m × n`).
pub fn mul(m: &Matrix, n: &Matrix) -> Matrix {
    [
        m[0] * n[0] + m[1] * n[2],
        m[0] * n[1] + m[1] * n[3],
        m[2] * n[0] + m[3] * n[2],
        m[2] * n[1] + m[3] * n[3],
        m[4] * n[0] + m[5] * n[2] + n[4],
        m[4] * n[1] + m[5] * n[3] + n[5],
    ]
}

/// Where `m` takes the point (x, y).
pub fn apply(m: &Matrix, x: f64, y: f64) -> (f64, f64) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

/// The smallest and largest factor by which `m` stretches a length (its singular values).
pub fn scales(m: &Matrix) -> (f64, f64) {
    let s = m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3];
    let det = m[0] * m[3] - m[1] * m[2];
    let root = (s * s - 4.0 * det * det).max(0.0).sqrt();
    (
        ((s - root) / 2.0).max(0.0).sqrt(),
        ((s + root) / 2.0).sqrt(),
    )
}

/// An axis-aligned box in default user space (points).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x0: f64,
    /// Bottom.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Top.
    pub y1: f64,
}

impl Rect {
    fn point(x: f64, y: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
        }
    }

    fn add(&mut self, x: f64, y: f64) {
        self.x0 = self.x0.min(x);
        self.y0 = self.y0.min(y);
        self.x1 = self.x1.max(x);
        self.y1 = self.y1.max(y);
    }

    /// The box that holds both.
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    /// The box around the image of `self` under `m`.
    pub fn transform(&self, m: &Matrix) -> Rect {
        let (x, y) = apply(m, self.x0, self.y0);
        let mut r = Rect::point(x, y);
        for (px, py) in [(self.x1, self.y0), (self.x0, self.y1), (self.x1, self.y1)] {
            let (x, y) = apply(m, px, py);
            r.add(x, y);
        }
        r
    }

    fn grow(&self, d: f64) -> Rect {
        Rect {
            x0: self.x0 - d,
            y0: self.y0 - d,
            x1: self.x1 + d,
            y1: self.y1 + d,
        }
    }

    fn finite(&self) -> bool {
        self.x0.is_finite() && self.y0.is_finite() && self.x1.is_finite() && self.y1.is_finite()
    }
}

/// What made a mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MarkKind {
    /// Text (visible rendering modes).
    Text,
    /// A filled or stroked path in a colour that is not white.
    Path,
    /// An image or an image mask: the box of its inked pixels.
    Image,
    /// An image whose pixels could not be looked at (why): its whole box.
    Unseen(&'static str),
}

/// One thing on the page and its box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    /// What it is.
    pub kind: MarkKind,
    /// Its box in default user space.
    pub rect: Rect,
}

/// What a font is, as far as preflight cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FontFacts {
    /// The font program is in the file (FontFile, FontFile2 or FontFile3).
    pub embedded: bool,
    /// A Type 3 font (glyphs drawn by content streams).
    pub type3: bool,
}

/// What one page puts on paper.
#[derive(Debug, Default, Clone)]
pub struct Page {
    /// The marks, in drawing order.
    pub marks: Vec<Mark>,
    /// The smallest effective text size, in points.
    pub min_text: Option<f64>,
    /// The thinnest effective stroke width, in points.
    pub min_line: Option<f64>,
    /// The colour spaces painted with ("DeviceRGB", "ICCBased RGB", ...).
    pub spaces: BTreeSet<String>,
    /// The fonts used, by their BaseFont name.
    pub fonts: BTreeMap<String, FontFacts>,
    /// The lowest image resolution on paper, in pixels per inch.
    pub min_ppi: Option<f64>,
}

impl Page {
    fn add(&mut self, kind: MarkKind, rect: Rect) {
        if !rect.finite() {
            return;
        }
        if self.marks.len() >= MAX_MARKS {
            // Keep the bound: fold into the last mark of the same kind (its box grows,
            // which is conservative for the safe-area check).
            if let Some(m) = self.marks.iter_mut().rev().find(|m| m.kind == kind) {
                m.rect = m.rect.union(&rect);
                return;
            }
        }
        self.marks.push(Mark { kind, rect });
    }
}

/// Colour-space family of a colour.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Family {
    Gray,
    Rgb,
    Cmyk,
    /// Separation / DeviceN: all tints 0 is no ink.
    Tint,
    Other,
}

#[derive(Clone, Debug)]
struct Colour {
    family: Family,
    label: String,
    comps: Vec<f64>,
}

impl Colour {
    fn gray() -> Colour {
        Colour {
            family: Family::Gray,
            label: "DeviceGray".into(),
            comps: vec![0.0],
        }
    }

    fn white(&self) -> bool {
        let c = &self.comps;
        match self.family {
            Family::Gray => c.len() == 1 && c[0] >= 0.999,
            Family::Rgb => c.len() == 3 && c.iter().all(|v| *v >= 0.999),
            Family::Cmyk => c.len() == 4 && c.iter().all(|v| *v <= 0.001),
            Family::Tint => !c.is_empty() && c.iter().all(|v| *v <= 0.001),
            Family::Other => false,
        }
    }
}

#[derive(Clone)]
struct Gs {
    ctm: Matrix,
    line_width: f64,
    fill: Colour,
    stroke: Colour,
    char_spacing: f64,
    word_spacing: f64,
    h_scale: f64,
    leading: f64,
    rise: f64,
    render: i64,
    font: Option<std::rc::Rc<Font>>,
    font_size: f64,
}

/// The glyph metrics preflight needs from a font.
#[derive(Debug)]
pub(crate) struct Font {
    name: String,
    facts: FontFacts,
    /// Two-byte codes (a Type0 font).
    two_byte: bool,
    /// Simple fonts: widths from `first` on.
    first: u32,
    widths: Vec<f64>,
    /// Type0: (low, high, width) runs, sorted.
    runs: Vec<(u32, u32, f64)>,
    /// The width of a code with none given.
    default_width: f64,
    /// Glyph space to text space (0.001 except for Type 3).
    scale: f64,
    ascent: f64,
    descent: f64,
}

impl Font {
    fn width(&self, code: u32) -> f64 {
        if self.two_byte {
            let i = self.runs.partition_point(|r| r.1 < code);
            match self.runs.get(i) {
                Some(r) if r.0 <= code => r.2,
                _ => self.default_width,
            }
        } else {
            code.checked_sub(self.first)
                .and_then(|i| self.widths.get(i as usize))
                .copied()
                .unwrap_or(self.default_width)
        }
    }

    /// The codes of a string.
    fn codes(&self, s: &[u8]) -> Vec<u32> {
        if self.two_byte {
            s.chunks(2)
                .map(|c| c.iter().fold(0u32, |a, b| (a << 8) | u32::from(*b)))
                .collect()
        } else {
            s.iter().map(|b| u32::from(*b)).collect()
        }
    }
}

fn num(o: &Object) -> Option<f64> {
    match o {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
    }
}

/// `o` with references followed (Null when a reference leads nowhere).
pub(crate) fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    static NULL: Object = Object::Null;
    doc.dereference(o).map(|(_, o)| o).unwrap_or(&NULL)
}

/// `dict[key]` with references followed.
pub(crate) fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key)
        .ok()
        .map(|o| deref(doc, o))
        .filter(|o| !matches!(o, Object::Null))
}

fn get_num(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<f64> {
    get(doc, dict, key).and_then(num)
}

fn numbers(doc: &Document, o: Option<&Object>) -> Vec<f64> {
    match o {
        Some(Object::Array(a)) => a
            .iter()
            .take(64)
            .filter_map(|x| num(deref(doc, x)))
            .collect(),
        _ => Vec::new(),
    }
}

fn embedded(doc: &Document, descriptor: Option<&Dictionary>) -> bool {
    descriptor.is_some_and(|d| {
        [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
            .iter()
            .any(|k| matches!(get(doc, d, k), Some(Object::Stream(_))))
    })
}

/// Read the metrics of a font dictionary.
pub(crate) fn read_font(doc: &Document, font: &Dictionary, key: &[u8]) -> Font {
    let name_of = |d: &Dictionary| {
        get(doc, d, b"BaseFont")
            .and_then(|o| o.as_name().ok())
            .map(|n| String::from_utf8_lossy(n).into_owned())
    };
    let subtype = get(doc, font, b"Subtype")
        .and_then(|o| o.as_name().ok())
        .unwrap_or(b"");
    let mut name = name_of(font).unwrap_or_else(|| String::from_utf8_lossy(key).into_owned());
    if name.len() > 80 {
        name = name.chars().take(80).collect();
    }
    let type3 = subtype == b"Type3";
    let two_byte = subtype == b"Type0";
    let mut f = Font {
        name,
        facts: FontFacts {
            embedded: false,
            type3,
        },
        two_byte,
        first: 0,
        widths: Vec::new(),
        runs: Vec::new(),
        default_width: 1000.0,
        scale: 0.001,
        ascent: 1000.0,
        descent: -300.0,
    };
    let Some(body) = font_body(doc, font, two_byte) else {
        return f;
    };
    let descriptor = get(doc, body, b"FontDescriptor").and_then(|o| o.as_dict().ok());
    f.facts.embedded = type3 || embedded(doc, descriptor);
    if type3 {
        let fm = numbers(doc, get(doc, font, b"FontMatrix"));
        if fm.len() == 6 && fm[0] != 0.0 {
            f.scale = fm[0].abs();
        }
    }
    f.read_extent(doc, body, descriptor);
    if two_byte {
        f.default_width = get_num(doc, body, b"DW").unwrap_or(1000.0);
        if let Some(Object::Array(w)) = get(doc, body, b"W") {
            f.runs = cid_widths(doc, w);
        }
    } else {
        f.first = get_num(doc, body, b"FirstChar")
            .filter(|c| *c >= 0.0 && *c < 65_536.0)
            .unwrap_or(0.0) as u32;
        f.widths = numbers_long(doc, get(doc, body, b"Widths"));
    }
    f
}

/// The dictionary of a font that holds its widths and descriptor: the font itself,
/// or a Type0 (`two_byte`) font's first descendant.
fn font_body<'a>(
    doc: &'a Document,
    font: &'a Dictionary,
    two_byte: bool,
) -> Option<&'a Dictionary> {
    if two_byte {
        match get(doc, font, b"DescendantFonts") {
            Some(Object::Array(a)) => a
                .first()
                .map(|d| deref(doc, d))
                .and_then(|d| d.as_dict().ok()),
            _ => None,
        }
    } else {
        Some(font)
    }
}

impl Font {
    /// Set the ascent, descent and missing width from the font's descriptor, else
    /// from its FontBBox (the body's, else the descriptor's).
    fn read_extent(&mut self, doc: &Document, body: &Dictionary, descriptor: Option<&Dictionary>) {
        let bbox = numbers(doc, get(doc, body, b"FontBBox"))
            .into_iter()
            .chain(std::iter::empty())
            .collect::<Vec<_>>();
        let bbox = if bbox.len() == 4 {
            bbox
        } else {
            descriptor
                .map(|d| numbers(doc, get(doc, d, b"FontBBox")))
                .unwrap_or_default()
        };
        if let Some(d) = descriptor {
            if let Some(a) = get_num(doc, d, b"Ascent").filter(|a| *a > 0.0) {
                self.ascent = a;
            } else if bbox.len() == 4 && bbox[3] > 0.0 {
                self.ascent = bbox[3];
            }
            if let Some(a) = get_num(doc, d, b"Descent").filter(|a| *a < 0.0) {
                self.descent = a;
            } else if bbox.len() == 4 && bbox[1] < 0.0 {
                self.descent = bbox[1];
            }
            if let Some(w) = get_num(doc, d, b"MissingWidth").filter(|w| *w > 0.0) {
                self.default_width = w;
            }
        } else if bbox.len() == 4 {
            self.ascent = bbox[3].max(0.0);
            self.descent = bbox[1].min(0.0);
        }
    }
}

/// The (low, high, width) runs of a CIDFont's W array, sorted by their low code.
fn cid_widths(doc: &Document, w: &[Object]) -> Vec<(u32, u32, f64)> {
    let mut runs = Vec::new();
    let w: Vec<&Object> = w.iter().take(200_000).map(|o| deref(doc, o)).collect();
    let mut i = 0;
    while i + 1 < w.len() {
        let Some(c) = num(w[i]).filter(|c| *c >= 0.0) else {
            break;
        };
        let c = c as u32;
        match w[i + 1] {
            Object::Array(ws) => {
                for (k, x) in ws.iter().take(65_536).enumerate() {
                    if let Some(x) = num(deref(doc, x)) {
                        let code = c.saturating_add(k as u32);
                        runs.push((code, code, x));
                    }
                }
                i += 2;
            }
            o => {
                let (Some(hi), Some(x)) = (num(o), w.get(i + 2).and_then(|o| num(o))) else {
                    break;
                };
                if hi >= c as f64 {
                    runs.push((c, hi.min(u32::MAX as f64) as u32, x));
                }
                i += 3;
            }
        }
    }
    runs.sort_by_key(|r| r.0);
    runs
}

fn numbers_long(doc: &Document, o: Option<&Object>) -> Vec<f64> {
    match o {
        Some(Object::Array(a)) => a
            .iter()
            .take(65_536)
            .map(|x| num(deref(doc, x)).unwrap_or(0.0))
            .collect(),
        _ => Vec::new(),
    }
}

/// A problem that stops a page from being read.
#[derive(Debug)]
pub struct Unreadable(pub String);

/// The interpreter for one page.
pub struct Interp<'a> {
    doc: &'a Document,
    gs: Gs,
    stack: Vec<Gs>,
    path: Option<Rect>,
    tm: Matrix,
    tlm: Matrix,
    bytes: usize,
    ops: usize,
    fonts: HashMap<ObjectId, std::rc::Rc<Font>>,
    /// Forms decoded on this page.
    forms: HashMap<ObjectId, std::rc::Rc<Vec<u8>>>,
    /// What the page puts on paper.
    pub page: Page,
    /// Images decoded so far (pass it from page to page to decode each image once).
    pub images: image::Cache,
}

impl<'a> Interp<'a> {
    /// An interpreter with `ctm` as the starting matrix (the identity for a page).
    pub fn new(doc: &'a Document, ctm: Matrix) -> Self {
        Interp {
            doc,
            gs: Gs {
                ctm,
                line_width: 1.0,
                fill: Colour::gray(),
                stroke: Colour::gray(),
                char_spacing: 0.0,
                word_spacing: 0.0,
                h_scale: 1.0,
                leading: 0.0,
                rise: 0.0,
                render: 0,
                font: None,
                font_size: 0.0,
            },
            stack: Vec::new(),
            path: None,
            tm: IDENTITY,
            tlm: IDENTITY,
            bytes: 0,
            ops: 0,
            fonts: HashMap::new(),
            forms: HashMap::new(),
            page: Page::default(),
            images: image::Cache::default(),
        }
    }

    /// Run a page: its content streams with its resources.
    pub fn run_page(
        &mut self,
        page_id: ObjectId,
        resources: Option<&'a Dictionary>,
    ) -> Result<(), Unreadable> {
        // Each content stream decoded within the page's budget; one whose filter cannot
        // be decoded fails the page as that (its raw bytes are not content to read).
        let mut data = Vec::new();
        for id in self.doc.get_page_contents(page_id) {
            let Ok(stream) = self.doc.get_object(id).and_then(Object::as_stream) else {
                continue;
            };
            let budget = MAX_CONTENT_BYTES.saturating_sub(data.len());
            match stream.decompressed_content_with_limit(budget) {
                Ok(d) => data.extend_from_slice(&d),
                Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded {
                    ..
                })) => {
                    return Err(Unreadable(format!(
                        "its content cannot be read: it decodes past {} MB",
                        MAX_CONTENT_BYTES >> 20
                    )))
                }
                Err(e) => {
                    return Err(Unreadable(format!(
                    "its content stream {} {} R cannot be decoded ({e}): nothing in it was checked",
                    id.0, id.1
                )))
                }
            }
            data.push(b'\n');
        }
        self.bytes = data.len();
        self.run(&data, resources, 0)
    }

    /// Run a content stream's bytes with `resources`, at form depth `depth`, one
    /// operation at a time (memory does not grow with their number). A token that
    /// cannot be read stops the page there, said so: what follows is not checked.
    pub fn run(
        &mut self,
        data: &[u8],
        resources: Option<&'a Dictionary>,
        depth: usize,
    ) -> Result<(), Unreadable> {
        let mut lexer = super::lex::Lexer::new(data);
        let mut op = Operation::new("", Vec::new());
        loop {
            let more = lexer.next(&mut op).map_err(|e| {
                Unreadable(format!(
                    "its content cannot be read past {} ({}): nothing after it was checked",
                    if depth == 0 {
                        format!("byte {}", e.at)
                    } else {
                        format!("byte {} of a form it draws", e.at)
                    },
                    e.what
                ))
            })?;
            if !more {
                return Ok(());
            }
            self.ops += 1;
            if self.ops > MAX_OPERATIONS {
                return Err(Unreadable(format!(
                    "its content has more than {MAX_OPERATIONS} operations"
                )));
            }
            if self.ops.is_multiple_of(65_536) && puzzlebook_ground::interrupt::requested() {
                return Err(Unreadable("stopped".into()));
            }
            self.op(&op, resources, depth)?;
        }
    }

    /// Operations run so far (forms included).
    pub fn operations(&self) -> usize {
        self.ops
    }

    fn nums(ops: &[Object], n: usize) -> Option<Vec<f64>> {
        if ops.len() < n {
            return None;
        }
        ops[ops.len() - n..].iter().map(num).collect()
    }

    fn add_point(&mut self, x: f64, y: f64) {
        let (x, y) = apply(&self.gs.ctm, x, y);
        match &mut self.path {
            Some(r) => r.add(x, y),
            None => self.path = Some(Rect::point(x, y)),
        }
    }

    fn paint(&mut self, fill: bool, stroke: bool) {
        let Some(r) = self.path.take() else {
            return;
        };
        if fill && !self.gs.fill.white() {
            self.page.spaces.insert(self.gs.fill.label.clone());
            self.page.add(MarkKind::Path, r);
        }
        if stroke && !self.gs.stroke.white() {
            let (lo, hi) = scales(&self.gs.ctm);
            let w = self.gs.line_width.abs();
            let eff = w * lo;
            self.page.min_line = Some(self.page.min_line.map_or(eff, |m| m.min(eff)));
            self.page.spaces.insert(self.gs.stroke.label.clone());
            // Half the width on each side (exact for butt caps and for the corners of
            // rectangles; long miters at sharp angles can reach further).
            self.page.add(MarkKind::Path, r.grow(w * hi * 0.5));
        }
    }

    fn resource<'r>(
        &self,
        resources: Option<&'r Dictionary>,
        kind: &[u8],
        name: &[u8],
    ) -> Option<&'r Object>
    where
        'a: 'r,
    {
        let res = resources?;
        let dict = get(self.doc, res, kind)?.as_dict().ok()?;
        dict.get(name).ok()
    }

    /// The colour space an object names: (family, label, components).
    fn space(
        &self,
        o: &Object,
        resources: Option<&'a Dictionary>,
        depth: usize,
    ) -> (Family, String, usize) {
        let o = deref(self.doc, o);
        let unknown = (Family::Other, "unknown".to_string(), 1);
        if depth > 4 {
            return unknown;
        }
        match o {
            Object::Name(n) => match n.as_slice() {
                b"DeviceGray" | b"G" => (Family::Gray, "DeviceGray".into(), 1),
                b"DeviceRGB" | b"RGB" => (Family::Rgb, "DeviceRGB".into(), 3),
                b"DeviceCMYK" | b"CMYK" => (Family::Cmyk, "DeviceCMYK".into(), 4),
                b"Pattern" => (Family::Other, "Pattern".into(), 0),
                other => match self.resource(resources, b"ColorSpace", other) {
                    Some(cs) => self.space(cs, None, depth + 1),
                    None => unknown,
                },
            },
            Object::Array(a) => {
                let head = a.first().map(|h| deref(self.doc, h));
                match head.and_then(|h| h.as_name().ok()).unwrap_or(b"") {
                    b"ICCBased" => {
                        let n = a
                            .get(1)
                            .map(|s| deref(self.doc, s))
                            .and_then(|s| s.as_stream().ok())
                            .and_then(|s| get_num(self.doc, &s.dict, b"N"))
                            .unwrap_or(0.0);
                        match n as i64 {
                            1 => (Family::Gray, "ICCBased Gray".into(), 1),
                            3 => (Family::Rgb, "ICCBased RGB".into(), 3),
                            4 => (Family::Cmyk, "ICCBased CMYK".into(), 4),
                            _ => (Family::Other, "ICCBased".into(), 1),
                        }
                    }
                    b"CalRGB" => (Family::Rgb, "CalRGB".into(), 3),
                    b"CalGray" => (Family::Gray, "CalGray".into(), 1),
                    b"Lab" => (Family::Other, "Lab".into(), 3),
                    b"Separation" => (Family::Tint, "Separation".into(), 1),
                    b"DeviceN" => {
                        let n = a
                            .get(1)
                            .map(|x| deref(self.doc, x))
                            .and_then(|x| x.as_array().ok())
                            .map_or(1, |x| x.len().clamp(1, 32));
                        (Family::Tint, "DeviceN".into(), n)
                    }
                    b"Indexed" | b"I" => {
                        // An index is never "white" as such: treat it as ink.
                        let label = match a.get(1).map(|b| self.space(b, resources, depth + 1)) {
                            Some((_, l, _)) => format!("Indexed {l}"),
                            None => "Indexed".into(),
                        };
                        (Family::Other, label, 1)
                    }
                    b"Pattern" => (Family::Other, "Pattern".into(), 0),
                    _ => unknown,
                }
            }
            _ => unknown,
        }
    }

    fn set_space(&mut self, stroke: bool, o: &Object, resources: Option<&'a Dictionary>) {
        let (family, label, n) = self.space(o, resources, 0);
        let comps = match family {
            Family::Cmyk => vec![0.0, 0.0, 0.0, 1.0],
            Family::Tint => vec![1.0; n],
            _ => vec![0.0; n],
        };
        let c = Colour {
            family,
            label,
            comps,
        };
        if stroke {
            self.gs.stroke = c;
        } else {
            self.gs.fill = c;
        }
    }

    fn set_comps(&mut self, stroke: bool, ops: &[Object]) {
        let comps: Vec<f64> = ops.iter().take(32).filter_map(num).collect();
        let c = if stroke {
            &mut self.gs.stroke
        } else {
            &mut self.gs.fill
        };
        if !comps.is_empty() {
            c.comps = comps;
        }
    }

    fn set_device(&mut self, stroke: bool, family: Family, label: &str, ops: &[Object], n: usize) {
        let Some(comps) = Self::nums(ops, n) else {
            return;
        };
        let c = Colour {
            family,
            label: label.into(),
            comps,
        };
        if stroke {
            self.gs.stroke = c;
        } else {
            self.gs.fill = c;
        }
    }

    fn set_font(&mut self, name: &[u8], size: f64, resources: Option<&'a Dictionary>) {
        self.gs.font_size = size;
        let Some(obj) = self.resource(resources, b"Font", name) else {
            self.gs.font = None;
            return;
        };
        let id = obj.as_reference().ok();
        if let Some(f) = id.and_then(|id| self.fonts.get(&id)) {
            self.gs.font = Some(f.clone());
            return;
        }
        let Ok(dict) = deref(self.doc, obj).as_dict() else {
            self.gs.font = None;
            return;
        };
        let f = std::rc::Rc::new(read_font(self.doc, dict, name));
        if let Some(id) = id {
            self.fonts.insert(id, f.clone());
        }
        self.gs.font = Some(f);
    }

    /// Show a TJ array (or one string): the box of its glyphs is a text mark and the
    /// text matrix moves on.
    fn show(&mut self, items: &[Object]) {
        let size = self.gs.font_size;
        let th = self.gs.h_scale;
        let font = self.gs.font.clone();
        let (asc, desc, scale) = match &font {
            Some(f) => (f.ascent, f.descent, f.scale),
            None => (1000.0, -300.0, 0.001),
        };
        let mut x = 0.0_f64;
        let mut bounds: Option<(f64, f64)> = None;
        let mut any = false;
        for item in items {
            match item {
                Object::String(s, _) => {
                    let codes = match &font {
                        Some(f) => f.codes(s),
                        None => s.iter().map(|b| u32::from(*b)).collect(),
                    };
                    for code in codes {
                        any = true;
                        let w = font.as_ref().map_or(1000.0, |f| f.width(code)) * scale;
                        let glyph = w * size * th;
                        let space = !font.as_ref().is_some_and(|f| f.two_byte) && code == 32;
                        if !space {
                            let (a, b) = (x.min(x + glyph), x.max(x + glyph));
                            bounds = Some(bounds.map_or((a, b), |(lo, hi)| (lo.min(a), hi.max(b))));
                        }
                        let tw = if space { self.gs.word_spacing } else { 0.0 };
                        x += (w * size + self.gs.char_spacing + tw) * th;
                    }
                }
                o => {
                    if let Some(n) = num(o) {
                        x -= n / 1000.0 * size * th;
                    }
                }
            }
        }
        if !any {
            return;
        }
        let trm = mul(&self.tm, &self.gs.ctm);
        let visible = !matches!(self.gs.render, 3 | 7);
        if visible {
            let eff = size.abs() * (trm[2] * trm[2] + trm[3] * trm[3]).sqrt();
            self.page.min_text = Some(self.page.min_text.map_or(eff, |m| m.min(eff)));
            if let Some(f) = &font {
                self.page.fonts.insert(f.name.clone(), f.facts.clone());
            }
            let label = if matches!(self.gs.render, 1 | 5) {
                self.gs.stroke.label.clone()
            } else {
                self.gs.fill.label.clone()
            };
            self.page.spaces.insert(label);
            if let Some((lo, hi)) = bounds {
                let (y0, y1) = (desc * scale * size, asc * scale * size);
                let r = Rect {
                    x0: lo,
                    y0: y0.min(y1) + self.gs.rise,
                    x1: hi,
                    y1: y0.max(y1) + self.gs.rise,
                };
                self.page.add(MarkKind::Text, r.transform(&trm));
            }
        }
        self.tm = mul(&[1.0, 0.0, 0.0, 1.0, x, 0.0], &self.tm);
    }

    fn next_line(&mut self, tx: f64, ty: f64) {
        self.tlm = mul(&[1.0, 0.0, 0.0, 1.0, tx, ty], &self.tlm);
        self.tm = self.tlm;
    }

    /// An image (or inline image) with its dictionary and its ink in the unit square,
    /// which the CTM takes onto the page.
    fn image(&mut self, dict: &Dictionary, resources: Option<&'a Dictionary>, ink: Ink) {
        let unit = |x0, y0, x1, y1| Rect { x0, y0, x1, y1 }.transform(&self.gs.ctm);
        let (kind, r) = match ink {
            Ink::Blank => (None, unit(0.0, 0.0, 1.0, 1.0)),
            Ink::Box(x0, y0, x1, y1) => (Some(MarkKind::Image), unit(x0, y0, x1, y1)),
            Ink::Unseen(why) => (Some(MarkKind::Unseen(why)), unit(0.0, 0.0, 1.0, 1.0)),
        };
        let mask = get(self.doc, dict, b"ImageMask")
            .or_else(|| get(self.doc, dict, b"IM"))
            .and_then(|o| o.as_bool().ok())
            .unwrap_or(false);
        // Pixels per inch on paper, along each side of the image.
        let px = |k: &[u8], short: &[u8]| {
            get(self.doc, dict, k)
                .or_else(|| get(self.doc, dict, short))
                .and_then(num)
        };
        let ctm = self.gs.ctm;
        let sides = [
            (px(b"Width", b"W"), ctm[0].hypot(ctm[1])),
            (px(b"Height", b"H"), ctm[2].hypot(ctm[3])),
        ];
        for (pixels, length) in sides {
            if let Some(pixels) = pixels.filter(|p| *p > 0.0) {
                if length > 0.0 {
                    let ppi = pixels / (length / 72.0);
                    self.page.min_ppi = Some(self.page.min_ppi.map_or(ppi, |m| m.min(ppi)));
                }
            }
        }
        if mask {
            if self.gs.fill.white() {
                return;
            }
            self.page.spaces.insert(self.gs.fill.label.clone());
        } else {
            let cs = dict.get(b"ColorSpace").or_else(|_| dict.get(b"CS")).ok();
            let label = match cs {
                Some(cs) => self.space(cs, resources, 0).1,
                None => "unknown (an image without a colour space)".into(),
            };
            self.page.spaces.insert(label);
        }
        if let Some(kind) = kind {
            self.page.add(kind, r);
        }
    }

    /// The ink of an image XObject, decoded once per object.
    fn xobject_ink(&mut self, obj: &Object, stream: &lopdf::Stream) -> Ink {
        let id = obj.as_reference().ok();
        if let Some(i) = id.and_then(|id| self.images.done.get(&id)) {
            return *i;
        }
        let ink = image::ink(self.doc, stream, &mut self.images);
        if let Some(id) = id {
            self.images.done.insert(id, ink);
        }
        ink
    }

    fn xobject(
        &mut self,
        name: &[u8],
        resources: Option<&'a Dictionary>,
        depth: usize,
    ) -> Result<(), Unreadable> {
        let Some(obj) = self.resource(resources, b"XObject", name) else {
            return Ok(());
        };
        let Ok(stream) = deref(self.doc, obj).as_stream() else {
            return Ok(());
        };
        let subtype = get(self.doc, &stream.dict, b"Subtype").and_then(|o| o.as_name().ok());
        match subtype {
            Some(b"Image") => {
                let ink = self.xobject_ink(obj, stream);
                self.image(&stream.dict, resources, ink)
            }
            Some(b"Form") => {
                if depth + 1 > MAX_FORM_DEPTH {
                    return Err(Unreadable(format!(
                        "its forms nest deeper than {MAX_FORM_DEPTH}"
                    )));
                }
                // Each form decoded once a page: a form drawn many times costs its
                // operations, not a decoding each time.
                let id = obj.as_reference().ok();
                let data = match id.and_then(|id| self.forms.get(&id)) {
                    Some(d) => d.clone(),
                    None => {
                        let budget = MAX_CONTENT_BYTES.saturating_sub(self.bytes);
                        let d = stream.get_plain_content_with_limit(budget).map_err(|_| {
                            Unreadable(format!(
                                "a form cannot be decoded within {} MB of content",
                                MAX_CONTENT_BYTES >> 20
                            ))
                        })?;
                        self.bytes += d.len();
                        let d = std::rc::Rc::new(d);
                        if let Some(id) = id {
                            self.forms.insert(id, d.clone());
                        }
                        d
                    }
                };
                let m = numbers(self.doc, get(self.doc, &stream.dict, b"Matrix"));
                let m: Matrix = if m.len() == 6 {
                    [m[0], m[1], m[2], m[3], m[4], m[5]]
                } else {
                    IDENTITY
                };
                let res = get(self.doc, &stream.dict, b"Resources")
                    .and_then(|o| o.as_dict().ok())
                    .or(resources);
                let saved = (
                    self.gs.clone(),
                    self.stack.len(),
                    self.path.take(),
                    self.tm,
                    self.tlm,
                );
                self.gs.ctm = mul(&m, &self.gs.ctm);
                let result = self.run(&data, res, depth + 1);
                self.gs = saved.0;
                self.stack.truncate(saved.1);
                self.path = saved.2;
                self.tm = saved.3;
                self.tlm = saved.4;
                result?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Run one operator, handing it to the function for its family.
    fn op(
        &mut self,
        op: &Operation,
        resources: Option<&'a Dictionary>,
        depth: usize,
    ) -> Result<(), Unreadable> {
        let o = &op.operands;
        let name = op.operator.as_str();
        match name {
            "q" | "Q" | "cm" | "w" => self.state_op(name, o)?,
            "m" | "l" | "c" | "v" | "y" | "re" | "h" => self.path_op(name, o),
            "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" | "n" => self.paint_op(name),
            "BT" | "ET" | "Tf" | "Tc" | "Tw" | "Tz" | "TL" | "Ts" | "Tr" => {
                self.text_state_op(name, o, resources)
            }
            "Td" | "TD" | "Tm" | "T*" => self.text_position_op(name, o),
            "Tj" | "'" | "\"" | "TJ" => self.text_show_op(name, o),
            "Do" => {
                if let Some(Object::Name(n)) = o.last() {
                    let n = n.clone();
                    self.xobject(&n, resources, depth)?;
                }
            }
            "BI" => self.inline_image(o, resources),
            "g" | "G" | "rg" | "RG" | "k" | "K" | "cs" | "CS" | "sc" | "scn" | "SC" | "SCN" => {
                self.colour_op(name, o, resources)
            }
            _ => {}
        }
        Ok(())
    }

    /// The graphics-state operators: q, Q, cm and w.
    fn state_op(&mut self, name: &str, o: &[Object]) -> Result<(), Unreadable> {
        match name {
            "q" => {
                if self.stack.len() >= MAX_STATE_DEPTH {
                    return Err(Unreadable(format!(
                        "its graphics states nest deeper than {MAX_STATE_DEPTH}"
                    )));
                }
                self.stack.push(self.gs.clone());
            }
            "Q" => {
                if let Some(gs) = self.stack.pop() {
                    self.gs = gs;
                }
            }
            "cm" => {
                if let Some(v) = Self::nums(o, 6) {
                    let m = [v[0], v[1], v[2], v[3], v[4], v[5]];
                    self.gs.ctm = mul(&m, &self.gs.ctm);
                }
            }
            "w" => {
                if let Some(v) = Self::nums(o, 1) {
                    self.gs.line_width = v[0];
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The path-construction operators: m, l, c, v, y, re and h.
    fn path_op(&mut self, name: &str, o: &[Object]) {
        match name {
            "m" | "l" => {
                if let Some(v) = Self::nums(o, 2) {
                    self.add_point(v[0], v[1]);
                }
            }
            "c" => {
                if let Some(v) = Self::nums(o, 6) {
                    for p in v.chunks(2) {
                        self.add_point(p[0], p[1]);
                    }
                }
            }
            "v" | "y" => {
                if let Some(v) = Self::nums(o, 4) {
                    for p in v.chunks(2) {
                        self.add_point(p[0], p[1]);
                    }
                }
            }
            "re" => {
                if let Some(v) = Self::nums(o, 4) {
                    self.add_point(v[0], v[1]);
                    self.add_point(v[0] + v[2], v[1] + v[3]);
                    self.add_point(v[0] + v[2], v[1]);
                    self.add_point(v[0], v[1] + v[3]);
                }
            }
            _ => {}
        }
    }

    /// The path-painting operators: stroke, fill, both, or end the path (n).
    fn paint_op(&mut self, name: &str) {
        match name {
            "S" | "s" => self.paint(false, true),
            "f" | "F" | "f*" => self.paint(true, false),
            "B" | "B*" | "b" | "b*" => self.paint(true, true),
            "n" => self.path = None,
            _ => {}
        }
    }

    /// The text-object and text-state operators: BT, ET, Tf, Tc, Tw, Tz, TL, Ts and Tr.
    fn text_state_op(&mut self, name: &str, o: &[Object], resources: Option<&'a Dictionary>) {
        if name == "BT" {
            self.tm = IDENTITY;
            self.tlm = IDENTITY;
            return;
        }
        if name == "Tf" {
            if let (Some(Object::Name(n)), Some(s)) = (o.first(), o.get(1).and_then(num)) {
                let n = n.clone();
                self.set_font(&n, s, resources);
            }
            return;
        }
        let Some(v) = Self::nums(o, 1) else {
            return;
        };
        match name {
            "Tc" => self.gs.char_spacing = v[0],
            "Tw" => self.gs.word_spacing = v[0],
            "Tz" => self.gs.h_scale = v[0] / 100.0,
            "TL" => self.gs.leading = v[0],
            "Ts" => self.gs.rise = v[0],
            "Tr" => self.gs.render = v[0] as i64,
            _ => {}
        }
    }

    /// The text-positioning operators: Td, TD, Tm and T*.
    fn text_position_op(&mut self, name: &str, o: &[Object]) {
        match name {
            "Td" => {
                if let Some(v) = Self::nums(o, 2) {
                    self.next_line(v[0], v[1]);
                }
            }
            "TD" => {
                if let Some(v) = Self::nums(o, 2) {
                    self.gs.leading = -v[1];
                    self.next_line(v[0], v[1]);
                }
            }
            "Tm" => {
                if let Some(v) = Self::nums(o, 6) {
                    self.tlm = [v[0], v[1], v[2], v[3], v[4], v[5]];
                    self.tm = self.tlm;
                }
            }
            "T*" => self.next_line(0.0, -self.gs.leading),
            _ => {}
        }
    }

    /// The text-showing operators: Tj, ' and " (one string, the last two on a new
    /// line) and TJ (an array).
    fn text_show_op(&mut self, name: &str, o: &[Object]) {
        match name {
            "TJ" => {
                if let Some(Object::Array(a)) = o.last() {
                    self.show(a);
                }
                return;
            }
            "\"" => {
                if o.len() >= 3 {
                    if let (Some(aw), Some(ac)) = (num(&o[o.len() - 3]), num(&o[o.len() - 2])) {
                        self.gs.word_spacing = aw;
                        self.gs.char_spacing = ac;
                    }
                }
                self.next_line(0.0, -self.gs.leading);
            }
            "'" => self.next_line(0.0, -self.gs.leading),
            _ => {}
        }
        if let Some(s @ Object::String(..)) = o.last() {
            self.show(std::slice::from_ref(s));
        }
    }

    /// An inline image (BI): its ink, or an unseen mark under the CTM when it could
    /// not be read.
    fn inline_image(&mut self, o: &[Object], resources: Option<&'a Dictionary>) {
        match o.first() {
            Some(Object::Stream(s)) => {
                let full = lopdf::Stream::new(image::expand_inline(&s.dict), s.content.clone());
                let ink = image::ink(self.doc, &full, &mut self.images);
                self.image(&s.dict, resources, ink)
            }
            // Not one the reader could take apart: still there, under the CTM.
            _ => self.image(
                &Dictionary::new(),
                resources,
                Ink::Unseen("an inline image that cannot be read"),
            ),
        }
    }

    /// The colour operators: device colours (g, rg, k and their stroking forms),
    /// colour spaces (cs, CS) and components (sc, scn, SC, SCN).
    fn colour_op(&mut self, name: &str, o: &[Object], resources: Option<&'a Dictionary>) {
        match name {
            "g" => self.set_device(false, Family::Gray, "DeviceGray", o, 1),
            "G" => self.set_device(true, Family::Gray, "DeviceGray", o, 1),
            "rg" => self.set_device(false, Family::Rgb, "DeviceRGB", o, 3),
            "RG" => self.set_device(true, Family::Rgb, "DeviceRGB", o, 3),
            "k" => self.set_device(false, Family::Cmyk, "DeviceCMYK", o, 4),
            "K" => self.set_device(true, Family::Cmyk, "DeviceCMYK", o, 4),
            "cs" | "CS" => {
                if let Some(n) = o.last() {
                    self.set_space(name == "CS", n, resources);
                }
            }
            "sc" | "scn" => self.set_comps(false, o),
            "SC" | "SCN" => self.set_comps(true, o),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{dictionary, Stream};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    fn run(doc: &Document, content: &str, resources: Option<&Dictionary>) -> Page {
        let mut i = Interp::new(doc, IDENTITY);
        i.run(content.as_bytes(), resources, 0).unwrap();
        i.page
    }

    #[test]
    fn ctm_concatenates_and_q_restores() {
        let doc = Document::with_version("1.5");
        // Scale 2 then move by (10, 20): the unit rectangle (1,1)-(2,2) goes to (12,22)-(14,24).
        let p = run(&doc, "q 2 0 0 2 10 20 cm 1 1 1 1 re f Q 0 0 5 5 re f", None);
        assert_eq!(p.marks.len(), 2);
        let r = p.marks[0].rect;
        assert!(close(r.x0, 12.0) && close(r.y0, 22.0) && close(r.x1, 14.0) && close(r.y1, 24.0));
        let r = p.marks[1].rect;
        assert!(
            close(r.x1, 5.0) && close(r.y1, 5.0),
            "Q restored the identity"
        );
    }

    #[test]
    fn line_width_scales_with_the_ctm_and_white_is_not_ink() {
        let doc = Document::with_version("1.5");
        let p = run(&doc, "0.5 0 0 2 0 0 cm 1.2 w 0 0 m 10 0 l S", None);
        // The thinnest rendered width is 1.2 x the smaller scale 0.5.
        assert!(close(p.min_line.unwrap(), 0.6));
        let p = run(
            &doc,
            "1 g 0 0 100 100 re f 1 1 1 RG 0.1 w 0 0 m 9 9 l S",
            None,
        );
        assert!(p.marks.is_empty() && p.min_line.is_none());
        let p = run(&doc, "0 0 0 0 k 0 0 100 100 re f", None);
        assert!(p.marks.is_empty());
    }

    fn font_doc() -> (Document, Dictionary) {
        let mut doc = Document::with_version("1.5");
        // Widths: 'A' (65) is 500 units, 'B' 250; ascent 800, descent -200.
        let desc = doc.add_object(dictionary! {
            "Type" => "FontDescriptor", "Ascent" => 800, "Descent" => -200,
            "FontFile2" => doc_stream(),
        });
        let font = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Test",
            "FirstChar" => 65, "Widths" => vec![500.into(), 250.into()],
            "FontDescriptor" => desc,
        });
        let res = dictionary! { "Font" => dictionary! { "F1" => font } };
        (doc, res)
    }

    fn doc_stream() -> Object {
        Object::Stream(Stream::new(dictionary! {}, vec![0u8; 4]))
    }

    #[test]
    fn text_extents_come_from_the_widths() {
        let (doc, res) = font_doc();
        // 10 pt at (100, 200), scaled by 2 in the CTM: "AB" is (500 + 250)/1000 x 10 =
        // 7.5 text units wide, 2 (descent) below and 8 (ascent) above the baseline.
        let p = run(
            &doc,
            "2 0 0 2 0 0 cm BT /F1 10 Tf 100 200 Td (AB) Tj ET",
            Some(&res),
        );
        let r = p.marks[0].rect;
        assert_eq!(p.marks[0].kind, MarkKind::Text);
        assert!(close(r.x0, 200.0) && close(r.x1, 215.0), "{r:?}");
        assert!(close(r.y0, 396.0) && close(r.y1, 416.0), "{r:?}");
        assert!(close(p.min_text.unwrap(), 20.0));
        assert_eq!(
            p.fonts.get("Test"),
            Some(&FontFacts {
                embedded: true,
                type3: false
            })
        );
        // TJ moves by -n/1000 x size: "A" then 500 units back then "B": B starts at 0.
        let p = run(&doc, "BT /F1 10 Tf 0 0 Td [(A) 500 (B)] TJ ET", Some(&res));
        let r = p.marks[0].rect;
        assert!(close(r.x0, 0.0) && close(r.x1, 5.0), "{r:?}");
        // The text matrix scales the size: 3 Tf under a Tm of 2 is 6 pt.
        let p = run(&doc, "BT /F1 3 Tf 2 0 0 2 0 0 Tm (A) Tj ET", Some(&res));
        assert!(close(p.min_text.unwrap(), 6.0));
        // Invisible text (Tr 3) is not ink.
        let p = run(&doc, "BT 3 Tr /F1 3 Tf (A) Tj ET", Some(&res));
        assert!(p.marks.is_empty() && p.min_text.is_none());
    }

    #[test]
    fn nested_forms_compose_their_matrices() {
        let mut doc = Document::with_version("1.5");
        let inner = doc.add_object(Stream::new(
            dictionary! { "Type" => "XObject", "Subtype" => "Form",
            "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()],
            "Matrix" => vec![1.into(), 0.into(), 0.into(), 1.into(), 5.into(), 0.into()] },
            b"0 0 1 1 re f".to_vec(),
        ));
        let outer = doc.add_object(Stream::new(
            dictionary! { "Type" => "XObject", "Subtype" => "Form",
            "Matrix" => vec![3.into(), 0.into(), 0.into(), 3.into(), 0.into(), 0.into()],
            "Resources" => dictionary! { "XObject" => dictionary! { "I" => inner } } },
            b"/I Do".to_vec(),
        ));
        let res = dictionary! { "XObject" => dictionary! { "O" => outer } };
        // Page CTM moves by (100, 0); outer scales by 3; inner moves by 5 first:
        // the unit square -> (5..6) x3 -> (15..18) +100 -> (115..118).
        let p = run(&doc, "1 0 0 1 100 0 cm /O Do 0 0 1 1 re f", Some(&res));
        let r = p.marks[0].rect;
        assert!(
            close(r.x0, 115.0) && close(r.x1, 118.0) && close(r.y1, 3.0),
            "{r:?}"
        );
        // The form's matrix does not leak out.
        let r = p.marks[1].rect;
        assert!(close(r.x0, 100.0) && close(r.x1, 101.0));
    }

    #[test]
    fn a_form_that_draws_itself_stops_at_the_depth_bound() {
        let mut doc = Document::with_version("1.5");
        let id = doc.new_object_id();
        let form = Stream::new(
            dictionary! { "Subtype" => "Form",
            "Resources" => dictionary! { "XObject" => dictionary! { "X" => id } } },
            b"/X Do /X Do".to_vec(),
        );
        doc.objects.insert(id, Object::Stream(form));
        let res = dictionary! { "XObject" => dictionary! { "X" => id } };
        let mut i = Interp::new(&doc, IDENTITY);
        let e = i.run(b"/X Do", Some(&res), 0).unwrap_err();
        assert!(e.0.contains("nest deeper"), "{}", e.0);
    }

    #[test]
    fn images_are_the_unit_square_and_report_their_space() {
        let mut doc = Document::with_version("1.5");
        let img = doc.add_object(Stream::new(
            dictionary! { "Subtype" => "Image", "Width" => 1, "Height" => 1,
            "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8 },
            vec![0, 0, 0],
        ));
        let res = dictionary! { "XObject" => dictionary! { "Im" => img } };
        let p = run(&doc, "72 0 0 36 10 10 cm /Im Do", Some(&res));
        let r = p.marks[0].rect;
        assert!(close(r.x0, 10.0) && close(r.x1, 82.0) && close(r.y1, 46.0));
        assert!(p.spaces.contains("DeviceRGB"));
        // One pixel across 72 pt (1 in) and 36 pt (0.5 in): 1 and 2 pixels per inch.
        assert!(close(p.min_ppi.unwrap(), 1.0));
        let p = run(&doc, "BI /W 1 /H 1 /BPC 8 /CS /DeviceGray ID x EI\n", None);
        assert_eq!(p.marks.len(), 1);
        assert!(p.spaces.contains("DeviceGray"));
        // One lopdf cannot parse (an abbreviated colour space) still counts as a mark.
        let p = run(
            &doc,
            "2 0 0 2 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /G ID x EI\n",
            None,
        );
        assert_eq!(p.marks.len(), 1);
        assert!(close(p.marks[0].rect.x1, 2.0));
    }

    #[test]
    fn scales_are_singular_values() {
        let (lo, hi) = scales(&[0.0, 2.0, -3.0, 0.0, 0.0, 0.0]);
        assert!(close(lo, 2.0) && close(hi, 3.0));
    }
}
