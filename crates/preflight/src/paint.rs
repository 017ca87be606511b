//! What a file's content paints: ink inside the safe area, fonts embedded, text sizes,
//! line widths and colour spaces, with shared content run once.

use super::*;

/// What the pages put on paper, across the book.
#[derive(Default)]
pub(super) struct Painted {
    /// Every colour space painted with.
    pub(super) spaces: BTreeSet<String>,
    /// The smallest text size, in points.
    pub(super) min_text: Option<f64>,
    /// The thinnest stroke, in points.
    pub(super) min_line: Option<f64>,
    /// The pages that paint in an RGB space.
    pub(super) rgb_pages: BTreeSet<u32>,
}

/// Marks of pages kept at once for the other pages that share their content (about
/// 48 bytes each).
pub(super) const MAX_SHARED_MARKS: usize = 1_000_000;

/// Operations the pages of one document may run in all (each content stream shared
/// by several pages counted once): a bound on preflight's work, with its own line.
pub(crate) const MAX_DOCUMENT_OPERATIONS: usize = 40_000_000;

/// The content streams a page draws (its /Contents, when they are indirect objects)
/// and the resources they draw with: pages with the same put the same marks on paper.
pub(super) type ContentKey = (Vec<lopdf::ObjectId>, usize);

pub(super) fn content_key(
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
pub(super) fn check_content(
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
    pub(super) fn add(&mut self, pg: &content::Page, p: u32, service: Service, found: &mut Found) {
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
pub(super) fn check_fonts(pg: &content::Page, p: u32, found: &mut Found) {
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
pub(super) fn check_safe_area(
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
pub(super) fn note_rgb(painted: &Painted, service: Service, found: &mut Found) {
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
