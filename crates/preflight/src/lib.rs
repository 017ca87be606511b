//! Preflight: check any interior PDF against a print-on-demand service's rules (KDP,
//! IngramSpark) before upload. The page boxes, the page count, the ink inside the safe
//! area (measured from the page content by [`content`]), embedded fonts, the smallest
//! text, the thinnest line, the colour spaces and a PDF/X claim are checked; each
//! problem is one line naming the pages it concerns.
//!
//! The input is untrusted: the file, its page count, its decoded content and its
//! nesting are bounded, and a PDF that cannot be read is one error, never a panic.
//!
//! It stands on the ground floor only (errors, bounded input, the stop flag): any
//! PDF, from any tool, can be checked without puzzlebook's games or book.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod content;
pub mod image;
pub mod lex;
pub mod scan;

use content::{Interp, MarkKind, Rect, IDENTITY};
use lopdf::{Dictionary, Document, Object};
use puzzlebook_ground::{Error, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use Severity::{Fail, Warn};

/// The largest file preflight reads.
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// The most pages preflight checks (a book interior has at most about a thousand).
pub const MAX_PAGES: usize = 5_000;
/// KDP's largest manuscript file.
pub const KDP_MAX_FILE_BYTES: usize = 650 * 1_000_000;

/// Points per inch.
const PT: f64 = 72.0;
/// Bleed on the outside, top and bottom edges: 0.125 in.
pub const BLEED_IN: f64 = 0.125;
/// How far a box edge may be off and still match (0.01 in).
const BOX_TOL_IN: f64 = 0.01;
/// How far ink may reach into a margin before it counts (0.005 in, well under a dot).
const INK_TOL_IN: f64 = 0.005;
/// Text smaller than this fails (points).
pub const MIN_TEXT_PT: f64 = 7.0;
/// Strokes thinner than this fail (points).
pub const MIN_LINE_PT: f64 = 0.5;
/// Strokes thinner than this are a warning (points).
pub const WARN_LINE_PT: f64 = 0.75;
/// Images with fewer pixels per inch on paper than this are a warning.
pub const MIN_PPI: f64 = 300.0;

/// The trim sizes the services print, width x height in inches.
pub const TRIM_SIZES: &[(f64, f64)] = &[
    (5.0, 8.0),
    (5.06, 7.81),
    (5.25, 8.0),
    (5.5, 8.5),
    (6.0, 9.0),
    (6.14, 9.21),
    (6.69, 9.61),
    (7.0, 10.0),
    (7.44, 9.69),
    (7.5, 9.25),
    (8.0, 10.0),
    (8.25, 6.0),
    (8.25, 8.25),
    (8.25, 11.0),
    (8.5, 8.5),
    (8.5, 11.0),
    (8.27, 11.69),
    (5.83, 8.27),
];
/// The custom trim range: width 4 to 8.5 in, height 6 to 11.69 in.
pub const CUSTOM_TRIM: ((f64, f64), (f64, f64)) = ((4.0, 8.5), (6.0, 11.69));

/// A print-on-demand service and its interior rules.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Service {
    /// Amazon KDP paperback.
    #[default]
    Kdp,
    /// IngramSpark / Lightning Source.
    Ingram,
}

impl Service {
    /// The service's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Service::Kdp => "KDP",
            Service::Ingram => "IngramSpark",
        }
    }

    /// The page count range, inclusive, for a trim size in inches (KDP's maxima for
    /// black ink on white paper; cream paper and colour allow fewer).
    pub fn page_range(self, trim: Option<(f64, f64)>) -> (usize, Option<usize>) {
        let is = |w: f64, h: f64| {
            trim.is_some_and(|t| (t.0 - w).abs() <= 0.02 && (t.1 - h).abs() <= 0.02)
        };
        match self {
            Service::Kdp if is(8.25, 6.0) || is(8.25, 8.25) => (24, Some(800)),
            Service::Kdp if is(8.5, 8.5) || is(8.5, 11.0) => (24, Some(590)),
            Service::Kdp if is(8.27, 11.69) => (24, Some(780)),
            Service::Kdp => (24, Some(828)),
            Service::Ingram => (18, None),
        }
    }

    /// Inside (gutter) margin and outside/top/bottom margin in inches for a book of
    /// `pages` pages, with or without bleed.
    pub fn margins(self, pages: usize, bleed: bool) -> (f64, f64) {
        match self {
            Service::Ingram => (0.5, 0.5),
            Service::Kdp => {
                let inside = match pages {
                    0..=150 => 0.375,
                    151..=300 => 0.5,
                    301..=500 => 0.625,
                    501..=700 => 0.75,
                    _ => 0.875,
                };
                (inside, if bleed { 0.375 } else { 0.25 })
            }
        }
    }
}

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The service rejects the file (or prints it wrongly).
    Fail,
    /// Worth a look; the service accepts it.
    Warn,
}

/// One problem and the pages it concerns.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    /// Fail or warn.
    pub severity: Severity,
    /// The rule: boxes, pages, safe-area, fonts, text-size, line-width, colour, pdfx, file.
    pub rule: &'static str,
    /// The pages (1-based); empty when the problem is the whole file's.
    pub pages: Vec<u32>,
    /// What is wrong, found vs allowed.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.severity {
            Severity::Fail => "FAIL",
            Severity::Warn => "WARN",
        };
        if self.pages.is_empty() {
            write!(f, "{tag}: {}", self.message)
        } else {
            let word = if self.pages.len() == 1 {
                "page"
            } else {
                "pages"
            };
            write!(
                f,
                "{tag} {word} {}: {}",
                page_list(&self.pages),
                self.message
            )
        }
    }
}

/// Pages as runs: "3-7, 9" (long lists end with "... (N pages)").
pub fn page_list(pages: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &p in pages {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == p => *hi = p,
            Some((_, hi)) if *hi == p => {}
            _ => runs.push((p, p)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .take(20)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let mut s = text.join(", ");
    if runs.len() > 20 {
        s.push_str(&format!(", ... ({} pages)", pages.len()));
    }
    s
}

/// Inches, with up to three decimals ("0.375 in", "0.5 in").
fn inch(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{} in", if s == "-0" { "0" } else { s })
}

/// "1 page", "24 pages".
fn count(n: usize) -> String {
    format!("{n} page{}", if n == 1 { "" } else { "s" })
}

/// Points, with up to two decimals.
fn pt(x: f64) -> String {
    let s = format!("{x:.2}");
    format!("{} pt", s.trim_end_matches('0').trim_end_matches('.'))
}

/// What preflight found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The service checked against.
    pub service: Service,
    /// Pages in the file.
    pub pages: usize,
    /// Page 1's trim size in inches (width, height).
    pub trim_in: Option<(f64, f64)>,
    /// The bleed of page 1 in inches (0 without bleed).
    pub bleed_in: f64,
    /// Every colour space painted with.
    pub colour_spaces: Vec<String>,
    /// The smallest text size found, in points.
    pub min_text_pt: Option<f64>,
    /// The thinnest stroke found, in points.
    pub min_line_pt: Option<f64>,
    /// The problems, failures first.
    pub problems: Vec<Problem>,
}

impl Report {
    /// Whether a rule fails.
    pub fn failed(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Fail)
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let fails = self
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Fail)
            .count();
        let warns = self.problems.len() - fails;
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let trim = self
            .trim_in
            .map(|(w, h)| {
                let name = match ((w * 100.0).round() as i64, (h * 100.0).round() as i64) {
                    (827, 1169) => " (A4)",
                    (583, 827) => " (A5)",
                    _ => "",
                };
                format!(
                    "trim {} x {}{name}",
                    inch(w).trim_end_matches(" in"),
                    inch(h)
                )
            })
            .unwrap_or_else(|| "no trim size".into());
        let verdict = if fails > 0 { "FAILS" } else { "passes" };
        if self.pages == 0 {
            return format!(
                "{} preflight {verdict}: {}, {} (its pages could not be read)",
                self.service.name(),
                plural(fails, "failure"),
                plural(warns, "warning"),
            );
        }
        format!(
            "{} preflight {verdict}: {}, {} ({}, {trim}, bleed {}; {}, {}; colour: {})",
            self.service.name(),
            plural(fails, "failure"),
            plural(warns, "warning"),
            count(self.pages),
            inch(self.bleed_in),
            self.min_text_pt
                .map_or("no text".into(), |t| format!("text >= {}", pt(t))),
            self.min_line_pt
                .map_or("no strokes".into(), |l| format!("lines >= {}", pt(l))),
            if self.colour_spaces.is_empty() {
                "none".into()
            } else {
                self.colour_spaces.join(", ")
            }
        )
    }
}

/// Problems being gathered: one per (severity, rule, key), with its pages and the
/// worst value found.
#[derive(Default)]
struct Found {
    map: BTreeMap<(Severity, &'static str, String), (BTreeSet<u32>, f64)>,
}

impl Found {
    /// Note `page` (0 for the whole file) under `key`, keeping the lowest `value`.
    fn note(&mut self, sev: Severity, rule: &'static str, key: String, page: u32, value: f64) {
        let e = self
            .map
            .entry((sev, rule, key))
            .or_insert((BTreeSet::new(), f64::INFINITY));
        if page > 0 {
            e.0.insert(page);
        }
        e.1 = e.1.min(value);
    }
}

/// A page's boxes, in default user space.
struct Boxes {
    media: Option<Rect>,
    trim: Option<Rect>,
    art: bool,
    bleed: Option<Rect>,
    crop: Option<Rect>,
}

fn rect(doc: &Document, o: Option<&Object>) -> Option<Rect> {
    let Some(Object::Array(a)) = o else {
        return None;
    };
    let v: Vec<f64> = a
        .iter()
        .filter_map(|x| match content::deref(doc, x) {
            Object::Integer(i) => Some(*i as f64),
            Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
            _ => None,
        })
        .collect();
    if v.len() != 4 || a.len() != 4 {
        return None;
    }
    Some(Rect {
        x0: v[0].min(v[2]),
        y0: v[1].min(v[3]),
        x1: v[0].max(v[2]),
        y1: v[1].max(v[3]),
    })
}

/// `key` of a page or of the nearest Pages node above it that has it.
fn inherited<'a>(doc: &'a Document, page: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    let mut node = page;
    for _ in 0..64 {
        if let Some(o) = content::get(doc, node, key) {
            return Some(o);
        }
        node = content::get(doc, node, b"Parent")?.as_dict().ok()?;
    }
    None
}

fn within(inner: &Rect, outer: &Rect, tol: f64) -> bool {
    inner.x0 >= outer.x0 - tol
        && inner.y0 >= outer.y0 - tol
        && inner.x1 <= outer.x1 + tol
        && inner.y1 <= outer.y1 + tol
}

/// The trim of a page without a TrimBox, read from its CropBox or MediaBox (`name`):
/// the box itself, or, when it is a listed trim size plus 0.125 in on the outside
/// edge and 0.25 in of height, that trim with bleed on the outside, top and bottom
/// (page `p` odd is a right-hand page, bleeding on the right). With the warning.
fn trim_from(page: &Rect, name: &str, p: u32) -> (Rect, String) {
    let (w, h) = ((page.x1 - page.x0) / PT, (page.y1 - page.y0) / PT);
    let size = |w: f64, h: f64| format!("{} x {}", inch(w).trim_end_matches(" in"), inch(h));
    let tol = 0.02;
    let with_bleed = TRIM_SIZES.iter().find(|&&(tw, th)| {
        (w - tw - BLEED_IN).abs() <= tol && (h - th - 2.0 * BLEED_IN).abs() <= tol
    });
    if let Some(&(tw, th)) = with_bleed {
        let b = BLEED_IN * PT;
        let (x0, x1) = if p % 2 == 1 {
            (page.x0, page.x1 - b)
        } else {
            (page.x0 + b, page.x1)
        };
        let trim = Rect {
            x0,
            y0: page.y0 + b,
            x1,
            y1: page.y1 - b,
        };
        return (
            trim,
            format!(
                "no TrimBox: the {name}, {}, is read as a {} trim with 0.125 in bleed (add a TrimBox to be sure)",
                size(w, h),
                size(tw, th)
            ),
        );
    }
    (
        *page,
        format!(
            "no TrimBox: the {name}, {}, is taken as the trim (add a TrimBox to be sure)",
            size(w, h)
        ),
    )
}

/// A report for an encrypted file whose pages preflight cannot read (`why`).
fn encrypted_only(service: Service, why: &str) -> Report {
    Report {
        service,
        pages: 0,
        trim_in: None,
        bleed_in: 0.0,
        colour_spaces: Vec::new(),
        min_text_pt: None,
        min_line_pt: None,
        problems: vec![Problem {
            severity: Severity::Fail,
            rule: "file",
            pages: Vec::new(),
            message: format!(
                "the file is encrypted {why}: print services need it unencrypted (nothing else was checked)"
            ),
        }],
    }
}

/// The deepest page tree preflight walks.
pub const MAX_TREE_DEPTH: usize = 256;

/// The pages in order, from the catalog's /Pages down: every Kids entry is one page or
/// one subtree. A node reached twice (a cycle, or a page named twice) is refused, and
/// the walk stops past [`MAX_PAGES`] pages.
fn page_tree(doc: &Document) -> Result<Vec<lopdf::ObjectId>> {
    let Some(root) = doc
        .trailer
        .get(b"Root")
        .ok()
        .map(|o| content::deref(doc, o))
        .and_then(|o| o.as_dict().ok())
    else {
        return Ok(Vec::new());
    };
    let Some(Object::Reference(top)) = root.get(b"Pages").ok() else {
        return Ok(Vec::new());
    };
    let mut walk = Walk {
        seen: HashSet::new(),
        pages: Vec::new(),
        stack: Vec::new(),
    };
    walk.visit(doc, *top)?;
    while let Some(top) = walk.stack.last_mut() {
        let (kids, next) = (top.0, top.1);
        if next >= kids.len() {
            walk.stack.pop();
            continue;
        }
        top.1 += 1;
        if let Object::Reference(id) = &kids[next] {
            walk.visit(doc, *id)?;
        }
    }
    Ok(walk.pages)
}

/// The state of a page-tree walk.
struct Walk<'a> {
    seen: HashSet<lopdf::ObjectId>,
    pages: Vec<lopdf::ObjectId>,
    /// (a Pages node's kids, the next one to visit)
    stack: Vec<(&'a Vec<Object>, usize)>,
}

impl<'a> Walk<'a> {
    fn visit(&mut self, doc: &'a Document, id: lopdf::ObjectId) -> Result<()> {
        let bad = |m: String| Error::invalid(format!("not a readable PDF: {m}"));
        let (seen, stack, pages) = (&mut self.seen, &mut self.stack, &mut self.pages);
        let Ok(node) = doc.get_dictionary(id) else {
            return Ok(()); // a dangling kid: no page
        };
        let kids = match node.get(b"Kids").map(|k| content::deref(doc, k)) {
            Ok(Object::Array(a)) => Some(a),
            _ => None,
        };
        let is_node = match node.get(b"Type").ok().and_then(|t| t.as_name().ok()) {
            Some(t) => t == b"Pages",
            None => kids.is_some(),
        };
        if !seen.insert(id) {
            return Err(bad(if is_node {
                format!(
                    "its page tree has a cycle (node {} {} R is reached twice)",
                    id.0, id.1
                )
            } else {
                format!(
                    "its page tree names page {} {} R more than once (a page appears once)",
                    id.0, id.1
                )
            }));
        }
        if is_node {
            if stack.len() >= MAX_TREE_DEPTH {
                return Err(bad(format!(
                    "its page tree nests deeper than {MAX_TREE_DEPTH}"
                )));
            }
            if let Some(k) = kids {
                stack.push((k, 0));
            }
        } else {
            pages.push(id);
            if pages.len() > MAX_PAGES {
                return Err(Error::invalid(format!(
                    "more than {MAX_PAGES} pages: not a book interior preflight can check"
                )));
            }
        }
        Ok(())
    }
}

/// Check a PDF (its bytes) against `service`'s interior rules. An error means the
/// file could not be read as a PDF at all; everything else is in the report.
///
/// lopdf panics on some malformed input; those panics are caught and become an
/// error or a failed page, but the process's panic hook still sees them (the
/// `preflight` command silences it while it checks).
pub fn check(bytes: &[u8], service: Service) -> Result<Report> {
    // lopdf may panic on some malformed input; that is an unreadable file, not a crash.
    std::panic::catch_unwind(|| check_inner(bytes, service)).unwrap_or_else(|_| {
        Err(Error::invalid(
            "not a readable PDF (the reader failed on malformed data)",
        ))
    })
}

fn check_inner(bytes: &[u8], service: Service) -> Result<Report> {
    let (doc, encrypted, page_ids) = match open(bytes, service)? {
        Opened::Pages(doc, encrypted, page_ids) => (doc, encrypted, page_ids),
        Opened::Locked(report) => return Ok(report),
    };
    let n = page_ids.len();
    let mut found = Found::default();
    note_file(&mut found, service, bytes.len(), encrypted);
    let boxes = read_boxes(&doc, &page_ids)?;
    let (geometry, trims) = check_boxes(&boxes, &mut found);
    let first = geometry.iter().flatten().next().copied();
    if let Some(first) = first {
        check_trim_sizes(&geometry, first, &mut found);
    }
    check_page_count(service, n, first, &mut found);
    let book_bleed = first.is_some_and(|g| g.2 > 0.0);
    let margins = service.margins(n, book_bleed);
    let painted = check_content(
        &doc, &page_ids, &trims, &geometry, service, margins, &mut found,
    )?;
    note_rgb(&painted, service, &mut found);
    check_pdfx(&doc, &boxes, &painted.rgb_pages, &mut found);
    Ok(Report {
        service,
        pages: n,
        trim_in: first.map(|g| (g.0, g.1)),
        bleed_in: first.map_or(0.0, |g| g.2),
        colour_spaces: painted.spaces.into_iter().collect(),
        min_text_pt: painted.min_text,
        min_line_pt: painted.min_line,
        problems: worded(found, service, book_bleed),
    })
}

/// What opening a file gave.
enum Opened {
    /// The document (boxed: it is large), whether it is encrypted, and its pages in
    /// order.
    Pages(Box<Document>, bool, Vec<lopdf::ObjectId>),
    /// The report for an encrypted file whose pages cannot be read.
    Locked(Report),
}

/// Open `bytes` as a PDF within the bounds: its pages, or the report of an encrypted
/// file whose pages preflight cannot read; an error when it is not a readable PDF.
fn open(bytes: &[u8], service: Service) -> Result<Opened> {
    if !bytes.starts_with(b"%PDF-")
        && !bytes[..bytes.len().min(1024)]
            .windows(5)
            .any(|w| w == b"%PDF-")
    {
        return Err(Error::invalid("not a PDF (no %PDF- header)"));
    }
    // Count what lopdf would build, and refuse a file past the bounds, before it
    // builds anything.
    let scanned = scan::scan(bytes)?;
    if scanned.encrypted && scanned.compressed > 0 {
        return Ok(Opened::Locked(encrypted_only(
            service,
            "and keeps objects in object streams, which preflight does not decrypt",
        )));
    }
    let options = lopdf::LoadOptions {
        max_decompressed_size: Some(scan::MAX_STREAM_BYTES),
        ..Default::default()
    };
    let locked = "and needs a password to open";
    let doc = match Document::load_mem_with_options(bytes, options) {
        Ok(d) => d,
        Err(_) if scanned.encrypted => return Ok(Opened::Locked(encrypted_only(service, locked))),
        Err(e) => return Err(Error::invalid(format!("not a readable PDF: {e}"))),
    };
    let page_ids = match page_tree(&doc) {
        Ok(p) if !p.is_empty() => p,
        _ if scanned.encrypted => return Ok(Opened::Locked(encrypted_only(service, locked))),
        Ok(_) => return Err(Error::invalid("not a readable PDF: it has no pages")),
        Err(e) => return Err(e),
    };
    Ok(Opened::Pages(Box::new(doc), scanned.encrypted, page_ids))
}

/// Note the whole file's problems: too large for KDP, or encrypted.
fn note_file(found: &mut Found, service: Service, len: usize, encrypted: bool) {
    if service == Service::Kdp && len > KDP_MAX_FILE_BYTES {
        found.note(
            Fail,
            "file",
            format!(
                "the file is {} MB, KDP takes at most 650 MB",
                len / 1_000_000
            ),
            0,
            0.0,
        );
    }
    if encrypted {
        found.note(
            Fail,
            "file",
            "the file is encrypted (secured, though it opens without a password): print services need it unencrypted".into(),
            0,
            0.0,
        );
    }
}

/// Every page's boxes, inherited from the page tree where the page has none.
fn read_boxes(doc: &Document, page_ids: &[lopdf::ObjectId]) -> Result<Vec<Boxes>> {
    let mut boxes = Vec::with_capacity(page_ids.len());
    for (i, &id) in page_ids.iter().enumerate() {
        let p = (i + 1) as u32;
        let Ok(page) = doc.get_dictionary(id) else {
            return Err(Error::invalid(format!("page {p} is not a dictionary")));
        };
        let b = Boxes {
            media: rect(doc, inherited(doc, page, b"MediaBox")),
            crop: rect(doc, inherited(doc, page, b"CropBox")),
            trim: rect(doc, inherited(doc, page, b"TrimBox")),
            art: rect(doc, inherited(doc, page, b"ArtBox")).is_some(),
            bleed: rect(doc, inherited(doc, page, b"BleedBox")),
        };
        boxes.push(b);
    }
    Ok(boxes)
}

/// A page's trim width, trim height and bleed, in inches.
type Geometry = (f64, f64, f64);

/// Check every page's boxes: each page's geometry (none when its trim cannot be
/// measured) and the trim it is measured against (its TrimBox, else the one read from
/// its CropBox or MediaBox).
fn check_boxes(boxes: &[Boxes], found: &mut Found) -> (Vec<Option<Geometry>>, Vec<Option<Rect>>) {
    let mut geometry = Vec::with_capacity(boxes.len());
    let mut trims = Vec::with_capacity(boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        let (g, trim) = page_boxes(b, (i + 1) as u32, found);
        geometry.push(g);
        trims.push(trim);
    }
    (geometry, trims)
}

/// Check page `p`'s boxes: its geometry and the trim it is measured against.
fn page_boxes(b: &Boxes, p: u32, found: &mut Found) -> (Option<Geometry>, Option<Rect>) {
    let Some(media) = b.media else {
        found.note(Fail, "boxes", "no MediaBox (required)".into(), p, 0.0);
        return (None, b.trim.or(b.crop));
    };
    let crop = b.crop.unwrap_or(media);
    let trim = match b.trim {
        Some(t) => t,
        None => {
            let (t, what) = trim_from(
                &crop,
                if b.crop.is_some() {
                    "CropBox"
                } else {
                    "MediaBox"
                },
                p,
            );
            found.note(Warn, "boxes", what, p, 0.0);
            t
        }
    };
    let (tw, th) = ((trim.x1 - trim.x0) / PT, (trim.y1 - trim.y0) / PT);
    if tw <= 0.0 || th <= 0.0 {
        found.note(Fail, "boxes", "the TrimBox has no area".into(), p, 0.0);
        return (None, Some(trim));
    }
    let tol = BOX_TOL_IN * PT;
    if !within(&trim, &media, tol) {
        found.note(
            Fail,
            "boxes",
            "the TrimBox reaches outside the MediaBox".into(),
            p,
            0.0,
        );
    }
    if let Some(bl) = b.bleed {
        if !within(&trim, &bl, tol) {
            found.note(
                Fail,
                "boxes",
                "the BleedBox does not contain the TrimBox".into(),
                p,
                0.0,
            );
        }
        if !within(&bl, &media, tol) {
            found.note(
                Fail,
                "boxes",
                "the BleedBox reaches outside the MediaBox".into(),
                p,
                0.0,
            );
        }
    }
    let bleed = bleed_of(&trim, &b.bleed.unwrap_or(crop), p, found);
    (Some((tw, th, bleed)), Some(trim))
}

/// Page `p`'s bleed in inches, 0.125 or 0, from its trim and bleed box; an edge whose
/// bleed is neither is noted.
fn bleed_of(trim: &Rect, bleed_box: &Rect, p: u32, found: &mut Found) -> f64 {
    // Odd pages are right-hand pages: the outside edge is the right one.
    let outside = if p % 2 == 1 {
        bleed_box.x1 - trim.x1
    } else {
        trim.x0 - bleed_box.x0
    };
    let sides = [
        ("outside", outside),
        ("top", bleed_box.y1 - trim.y1),
        ("bottom", trim.y0 - bleed_box.y0),
    ];
    let mut bleed = 0.0_f64;
    for (side, d) in sides {
        let d = d / PT;
        if (d).abs() > BOX_TOL_IN && (d - BLEED_IN).abs() > BOX_TOL_IN {
            found.note(
                Fail,
                "boxes",
                format!("bleed on the {side} edge is not 0 or 0.125 in"),
                p,
                d,
            );
        }
        bleed = bleed.max(d);
    }
    if (bleed - BLEED_IN).abs() <= BOX_TOL_IN {
        BLEED_IN
    } else {
        0.0
    }
}

/// Check that every page has the first page's trim and bleed, and that the trim is
/// one the services print.
fn check_trim_sizes(geometry: &[Option<Geometry>], first: Geometry, found: &mut Found) {
    let (w0, h0, b0) = first;
    for (i, g) in geometry.iter().enumerate() {
        if let Some((w, h, b)) = g {
            let p = (i + 1) as u32;
            if (w - w0).abs() > BOX_TOL_IN || (h - h0).abs() > BOX_TOL_IN {
                found.note(
                    Fail,
                    "boxes",
                    format!(
                        "trim size differs from the first page's {} x {}",
                        inch(w0).trim_end_matches(" in"),
                        inch(h0)
                    ),
                    p,
                    0.0,
                );
            }
            if (b - b0).abs() > BOX_TOL_IN {
                found.note(
                    Fail,
                    "boxes",
                    format!("bleed differs from the first page's {}", inch(b0)),
                    p,
                    0.0,
                );
            }
        }
    }
    let tol = 0.02;
    let listed = TRIM_SIZES
        .iter()
        .any(|&(w, h)| (w - w0).abs() <= tol && (h - h0).abs() <= tol);
    if !listed {
        let ((wl, wh), (hl, hh)) = CUSTOM_TRIM;
        let custom = w0 >= wl - tol && w0 <= wh + tol && h0 >= hl - tol && h0 <= hh + tol;
        let size = format!("{} x {}", inch(w0).trim_end_matches(" in"), inch(h0));
        if custom {
            found.note(
                Warn,
                "boxes",
                format!("trim {size} is a custom size (not a standard trim; fewer distribution channels)"),
                0,
                0.0,
            );
        } else {
            found.note(
                Fail,
                "boxes",
                format!("trim {size} is outside the printable range 4-8.5 x 6-11.69 in"),
                0,
                0.0,
            );
        }
    }
}

/// Check the page count `n` against the service's range for the trim, and that it is even.
fn check_page_count(service: Service, n: usize, first: Option<Geometry>, found: &mut Found) {
    let (lo, hi) = service.page_range(first.map(|g| (g.0, g.1)));
    if n < lo || hi.is_some_and(|h| n > h) {
        let allowed = match hi {
            Some(h) => format!("{lo}-{h}"),
            None => format!("at least {lo}"),
        };
        found.note(
            Fail,
            "pages",
            format!("{}, {} allows {allowed}", count(n), service.name()),
            0,
            0.0,
        );
    }
    if n % 2 == 1 {
        let (sev, what) = match service {
            Service::Kdp => (Warn, "KDP rounds it up with a blank page"),
            Service::Ingram => (Fail, "IngramSpark needs an even count"),
        };
        found.note(sev, "pages", format!("{} is odd: {what}", count(n)), 0, 0.0);
    }
}

/// What the pages put on paper, across the book.
#[derive(Default)]
struct Painted {
    /// Every colour space painted with.
    spaces: BTreeSet<String>,
    /// The smallest text size, in points.
    min_text: Option<f64>,
    /// The thinnest stroke, in points.
    min_line: Option<f64>,
    /// The pages that paint in an RGB space.
    rgb_pages: BTreeSet<u32>,
}

/// Marks of pages kept at once for the other pages that share their content (about
/// 48 bytes each).
const MAX_SHARED_MARKS: usize = 1_000_000;

/// Operations the pages of one document may run in all (each content stream shared
/// by several pages counted once): a bound on preflight's work, with its own line.
pub const MAX_DOCUMENT_OPERATIONS: usize = 40_000_000;

/// The content streams a page draws (its /Contents, when they are indirect objects)
/// and the resources they draw with: pages with the same put the same marks on paper.
type ContentKey = (Vec<lopdf::ObjectId>, usize);

fn content_key(
    page: &lopdf::Dictionary,
    resources: Option<&lopdf::Dictionary>,
) -> Option<ContentKey> {
    let ids = match page.get(b"Contents").ok()? {
        lopdf::Object::Reference(id) => vec![*id],
        lopdf::Object::Array(a) => a
            .iter()
            .map(|o| o.as_reference().ok())
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    let res = resources.map_or(0, |r| r as *const lopdf::Dictionary as usize);
    Some((ids, res))
}

/// Run every page's content and check its ink against the safe area (`margins`,
/// inside and outside, in inches), its text, lines, images and fonts. Content shared
/// by several pages is run once; past [`MAX_DOCUMENT_OPERATIONS`] the pages left are
/// failed as not checked. A stop asked for ends it with [`Error::Interrupted`].
fn check_content(
    doc: &Document,
    page_ids: &[lopdf::ObjectId],
    trims: &[Option<Rect>],
    geometry: &[Option<Geometry>],
    service: Service,
    margins: (f64, f64),
    found: &mut Found,
) -> Result<Painted> {
    let mut painted = Painted::default();
    let mut images = image::Cache::default();
    let mut pages = Vec::with_capacity(page_ids.len());
    for (i, &id) in page_ids.iter().enumerate() {
        let page = doc
            .get_dictionary(id)
            .map_err(|_| Error::invalid(format!("page {} is not a dictionary", i + 1)))?;
        let resources = inherited(doc, page, b"Resources").and_then(|o| o.as_dict().ok());
        pages.push((page, resources, content_key(page, resources)));
    }
    // Pages left per key: a key's result is kept for its next page, and let go after
    // its last (at most MAX_SHARED_MARKS marks kept at once; past that a page's
    // content is run again).
    let mut left: HashMap<&ContentKey, usize> = HashMap::new();
    for (_, _, k) in &pages {
        if let Some(k) = k {
            *left.entry(k).or_default() += 1;
        }
    }
    let mut shared: HashMap<&ContentKey, (content::Page, Option<String>)> = HashMap::new();
    let mut kept_marks = 0usize;
    let mut operations = 0usize;
    for (i, (&id, (_, resources, key))) in page_ids.iter().zip(&pages).enumerate() {
        puzzlebook_ground::interrupt::check()?;
        let p = (i + 1) as u32;
        let still = match key.as_ref().and_then(|k| left.get_mut(k)) {
            Some(n) => {
                *n -= 1;
                *n
            }
            None => 0,
        };
        let known = key.as_ref().and_then(|k| {
            if still == 0 {
                let hit = shared.remove(k);
                if let Some((pg, _)) = &hit {
                    kept_marks -= pg.marks.len();
                }
                hit
            } else {
                shared.get(k).cloned()
            }
        });
        let (pg, problem) = match known {
            Some(hit) => hit,
            None if operations > MAX_DOCUMENT_OPERATIONS => {
                found.note(
                    Fail,
                    "content",
                    format!("not checked: the pages before it run more than {MAX_DOCUMENT_OPERATIONS} operations in all, the most preflight runs in one file"),
                    p,
                    0.0,
                );
                continue;
            }
            None => {
                let mut interp = Interp::new(doc, IDENTITY);
                interp.images = std::mem::take(&mut images);
                let run = interp.run_page(id, *resources);
                images = std::mem::take(&mut interp.images);
                operations += interp.operations();
                puzzlebook_ground::interrupt::check()?;
                let problem = run.err().map(|e| e.0);
                let pg = interp.page;
                if let Some(k) = key.as_ref().filter(|_| still > 0) {
                    if kept_marks + pg.marks.len() <= MAX_SHARED_MARKS {
                        kept_marks += pg.marks.len();
                        shared.insert(k, (pg.clone(), problem.clone()));
                    }
                }
                (pg, problem)
            }
        };
        if let Some(e) = problem {
            found.note(
                Fail,
                "content",
                format!("the page cannot be checked: {e}"),
                p,
                0.0,
            );
        }
        painted.add(&pg, p, service, found);
        check_fonts(&pg, p, found);
        let Some(trim) = trims[i] else {
            continue;
        };
        let bleed = geometry[i].is_some_and(|g| g.2 > 0.0);
        check_safe_area(&pg.marks, &trim, bleed, p, margins, found);
    }
    Ok(painted)
}

impl Painted {
    /// Add page `p`'s text sizes, line widths and colour spaces, noting text too
    /// small, lines too thin and images of too few pixels per inch.
    fn add(&mut self, pg: &content::Page, p: u32, service: Service, found: &mut Found) {
        if let Some(t) = pg.min_text {
            self.min_text = Some(self.min_text.map_or(t, |m: f64| m.min(t)));
            if t < MIN_TEXT_PT {
                found.note(Fail, "text-size", "text smaller than 7 pt".into(), p, t);
            }
        }
        if let Some(w) = pg.min_line {
            self.min_line = Some(self.min_line.map_or(w, |m: f64| m.min(w)));
            if w < MIN_LINE_PT {
                found.note(Fail, "line-width", "lines thinner than 0.5 pt".into(), p, w);
            } else if w < WARN_LINE_PT {
                let why = match service {
                    Service::Kdp => "KDP's figure, from a secondary source",
                    Service::Ingram => {
                        "IngramSpark states no figure; thinner lines may print faintly"
                    }
                };
                found.note(
                    Warn,
                    "line-width",
                    format!("lines thinner than 0.75 pt ({why})"),
                    p,
                    w,
                );
            }
        }
        if let Some(ppi) = pg.min_ppi.filter(|p| *p < MIN_PPI - 0.5) {
            found.note(
                Warn,
                "images",
                "images under 300 pixels per inch on paper".into(),
                p,
                ppi,
            );
        }
        for s in &pg.spaces {
            if s.contains("RGB") {
                self.rgb_pages.insert(p);
            }
            self.spaces.insert(s.clone());
        }
    }
}

/// Note page `p`'s fonts that are not embedded (a failure) or are Type 3 (a warning).
fn check_fonts(pg: &content::Page, p: u32, found: &mut Found) {
    for (name, facts) in &pg.fonts {
        if !facts.embedded {
            found.note(
                Fail,
                "fonts",
                format!("font {name} is not embedded"),
                p,
                0.0,
            );
        } else if facts.type3 {
            found.note(
                Warn,
                "fonts",
                format!("font {name} is a Type 3 font (no hinting; poor at small sizes)"),
                p,
                0.0,
            );
        }
    }
}

/// Check that page `p`'s marks keep the (inside, outside) `margins`, in inches, from
/// its `trim`; on a page with `bleed`, art that runs off the trim is bleed art.
fn check_safe_area(
    marks: &[content::Mark],
    trim: &Rect,
    bleed: bool,
    p: u32,
    (inside_m, outer_m): (f64, f64),
    found: &mut Found,
) {
    let ink_tol = INK_TOL_IN * PT;
    for m in marks {
        let r = m.rect;
        let (left, right) = (r.x0 - trim.x0, trim.x1 - r.x1);
        let (inside, outside) = if p % 2 == 1 {
            (left, right)
        } else {
            (right, left)
        };
        let top = trim.y1 - r.y1;
        let bottom = r.y0 - trim.y0;
        if m.kind != MarkKind::Text && bleed && [outside, top, bottom].iter().any(|d| *d < -ink_tol)
        {
            continue; // bleed art: it runs off the trim into the bleed
        }
        let (sev, what) = match m.kind {
            MarkKind::Text => (Fail, "text".to_string()),
            // Ink preflight could not see is worth a look, never a failure.
            MarkKind::Unseen(why) => (Warn, format!("unseen:{why}")),
            _ => (Fail, "ink".to_string()),
        };
        for (side, d, need) in [
            ("inside (gutter)", inside, inside_m),
            ("outside", outside, outer_m),
            ("top", top, outer_m),
            ("bottom", bottom, outer_m),
        ] {
            if d < need * PT - ink_tol {
                found.note(sev, "safe-area", format!("{what}|{side}|{need}"), p, d / PT);
            }
        }
    }
}

/// Note every page painted in RGB: a warning for KDP, a failure for IngramSpark.
fn note_rgb(painted: &Painted, service: Service, found: &mut Found) {
    if painted.rgb_pages.is_empty() {
        return;
    }
    let rgb: Vec<&str> = painted
        .spaces
        .iter()
        .filter(|s| s.contains("RGB"))
        .map(String::as_str)
        .collect();
    let (sev, what) = match service {
        Service::Kdp => (Warn, "KDP converts it; greys and blacks may shift"),
        Service::Ingram => (Fail, "IngramSpark asks for CMYK or grey"),
    };
    for p in &painted.rgb_pages {
        found.note(
            sev,
            "colour",
            format!("RGB colour ({}): {what}", rgb.join(", ")),
            *p,
            0.0,
        );
    }
}

/// Check a PDF/X claim (the Info dictionary's GTS_PDFXVersion): a version, an output
/// intent, a TrimBox or ArtBox on every page and, for X-1a, no RGB.
fn check_pdfx(doc: &Document, boxes: &[Boxes], rgb_pages: &BTreeSet<u32>, found: &mut Found) {
    let info = doc
        .trailer
        .get(b"Info")
        .ok()
        .map(|o| content::deref(doc, o))
        .and_then(|o| o.as_dict().ok());
    let pdfx = info
        .and_then(|d| content::get(doc, d, b"GTS_PDFXVersion"))
        .and_then(|o| o.as_str().ok())
        .map(|s| String::from_utf8_lossy(&s[..s.len().min(40)]).into_owned());
    let Some(version) = pdfx else {
        return;
    };
    let version = if version.trim().is_empty() {
        found.note(
            Fail,
            "pdfx",
            "GTS_PDFXVersion is empty: a malformed PDF/X claim (name a version, or remove the key)"
                .into(),
            0,
            0.0,
        );
        "PDF/X (with an empty version)".to_string()
    } else {
        version
    };
    if !has_pdfx_intent(doc) {
        found.note(
            Fail,
            "pdfx",
            format!("claims {version} but has no GTS_PDFX output intent with a profile or registered condition"),
            0,
            0.0,
        );
    }
    for (i, b) in boxes.iter().enumerate() {
        if b.trim.is_none() && !b.art {
            found.note(
                Fail,
                "pdfx",
                format!("claims {version} but the page has neither TrimBox nor ArtBox"),
                (i + 1) as u32,
                0.0,
            );
        }
    }
    if version.contains("X-1") {
        for p in rgb_pages {
            found.note(
                Fail,
                "pdfx",
                format!("claims {version} but uses RGB (X-1a allows CMYK, grey and spot only)"),
                *p,
                0.0,
            );
        }
    }
}

/// Whether the catalog has a GTS_PDFX output intent with a destination profile or a
/// registered output condition (among its first 64).
fn has_pdfx_intent(doc: &Document) -> bool {
    let catalog = doc.catalog().ok();
    catalog
        .and_then(|c| content::get(doc, c, b"OutputIntents"))
        .and_then(|o| o.as_array().ok())
        .is_some_and(|a| {
            a.iter().take(64).any(|i| {
                let Ok(d) = content::deref(doc, i).as_dict() else {
                    return false;
                };
                let s = content::get(doc, d, b"S").and_then(|o| o.as_name().ok());
                let profile = matches!(
                    content::get(doc, d, b"DestOutputProfile"),
                    Some(Object::Stream(_))
                );
                let registered = content::get(doc, d, b"OutputConditionIdentifier")
                    .and_then(|o| o.as_str().ok())
                    .is_some_and(|s| !s.is_empty())
                    && content::get(doc, d, b"RegistryName").is_some();
                s == Some(b"GTS_PDFX") && (profile || registered)
            })
        })
}

/// The problems found, worded, in the order of their (severity, rule, key).
fn worded(found: Found, service: Service, book_bleed: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    for ((severity, rule, key), (pages, value)) in found.map {
        let message = match rule {
            "safe-area" => safe_area_message(&key, value, book_bleed),
            "text-size" => format!(
                "{key}: smallest {}, needs at least {}",
                pt(value),
                pt(MIN_TEXT_PT)
            ),
            "line-width" => format!(
                "{key}: thinnest {}, needs at least {}",
                pt(value),
                pt(if severity == Fail {
                    MIN_LINE_PT
                } else {
                    WARN_LINE_PT
                })
            ),
            "images" => format!(
                "{key}: lowest {} ppi, {} asks for at least 300",
                value.round(),
                service.name()
            ),
            "boxes" if key.starts_with("bleed on") => {
                format!("{key}: found {}", inch(value))
            }
            _ => key,
        };
        problems.push(Problem {
            severity,
            rule,
            pages: pages.into_iter().collect(),
            message,
        });
    }
    problems
}

/// A safe-area problem's message: `key` is "what|side|need" and `value` the worst
/// distance from the trim, in inches (negative past it).
fn safe_area_message(key: &str, value: f64, book_bleed: bool) -> String {
    let mut parts = key.split('|');
    let what = parts.next().unwrap_or("ink");
    let side = parts.next().unwrap_or("");
    let need: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let found = if value < 0.0 {
        format!("{} past the trim", inch(-value))
    } else {
        format!("{} from the trim", inch(value))
    };
    let bleed_note = if what == "ink" && book_bleed {
        " (and does not run off into the bleed)"
    } else {
        ""
    };
    match what.strip_prefix("unseen:") {
        Some(why) => format!(
            "an image whose pixels preflight cannot see ({why}) covers the safe area on the {side} edge: its box is {found}, needs at least {}; check by eye that it is white there",
            inch(need)
        ),
        None => format!(
            "{what} outside the safe area on the {side} edge{bleed_note}: {found}, needs at least {}",
            inch(need)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_lists_compress_runs() {
        assert_eq!(page_list(&[3, 4, 5, 6, 7, 9]), "3-7, 9");
        assert_eq!(page_list(&[1]), "1");
        let many: Vec<u32> = (1..=100).step_by(2).collect();
        assert!(page_list(&many).ends_with("... (50 pages)"));
    }

    #[test]
    fn kdp_gutter_grows_with_the_page_count() {
        assert_eq!(Service::Kdp.margins(24, false), (0.375, 0.25));
        assert_eq!(Service::Kdp.margins(151, true), (0.5, 0.375));
        assert_eq!(Service::Kdp.margins(828, false).0, 0.875);
        assert_eq!(Service::Ingram.margins(500, true), (0.5, 0.5));
        assert_eq!(Service::Kdp.page_range(Some((8.5, 11.0))), (24, Some(590)));
        assert_eq!(Service::Kdp.page_range(Some((6.0, 9.0))), (24, Some(828)));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [
            &b""[..],
            b"hello",
            b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n",
        ] {
            assert!(check(bytes, Service::Kdp).is_err());
        }
    }

    #[test]
    fn inches_print_short() {
        assert_eq!(inch(0.375), "0.375 in");
        assert_eq!(inch(0.5), "0.5 in");
        assert_eq!(inch(6.0), "6 in");
    }
}
