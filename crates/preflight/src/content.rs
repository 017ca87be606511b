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
mod dict;
mod font;
mod geometry;
mod page;
pub(crate) use dict::*;
pub(crate) use font::*;
pub use geometry::*;
pub use page::*;

/// Decoded content bytes one page may have, its forms included (operations are read
/// one at a time, so memory is these bytes and one operation).
pub(crate) const MAX_CONTENT_BYTES: usize = 16 << 20;
/// Operations one page may run, its forms included (a form drawn twice counts twice).
pub(crate) const MAX_OPERATIONS: usize = 4_000_000;
/// How deep Form XObjects may nest.
pub(crate) const MAX_FORM_DEPTH: usize = 12;
/// How deep q may nest.
pub(crate) const MAX_STATE_DEPTH: usize = 256;
/// Marks kept per page (more are merged into the last one's neighbours: see `Page::add`).
pub(crate) const MAX_MARKS: usize = 200_000;

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

/// A problem that stops a page from being read.
#[derive(Debug)]
pub(crate) struct Unreadable(pub String);

/// The interpreter for one page.
pub(crate) struct Interp<'a> {
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
    pub(crate) fn run_page(
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
mod tests;
