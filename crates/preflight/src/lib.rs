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

mod boxes;
pub mod content;
pub mod image;
pub(crate) mod lex;
mod paint;
mod pdfx;
mod report;
mod rules;
pub mod scan;
use boxes::*;
pub(crate) use paint::*;
use pdfx::*;
pub use report::*;
pub use rules::*;

use content::{Interp, MarkKind, Rect, IDENTITY};
use lopdf::{Dictionary, Document, Object};
use puzzlebook_ground::{Error, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;
use Severity::{Fail, Warn};

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
pub(crate) const MAX_TREE_DEPTH: usize = 256;

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
