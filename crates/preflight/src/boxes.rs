//! Page boxes: reading them (inherited through the page tree), the trim and bleed they
//! give, and their checks.

use super::*;

/// A page's boxes, in default user space.
pub(super) struct Boxes {
    pub(super) media: Option<Rect>,
    pub(super) trim: Option<Rect>,
    pub(super) art: bool,
    pub(super) bleed: Option<Rect>,
    pub(super) crop: Option<Rect>,
}

pub(super) fn rect(doc: &Document, o: Option<&Object>) -> Option<Rect> {
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
pub(super) fn inherited<'a>(
    doc: &'a Document,
    page: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Object> {
    let mut node = page;
    for _ in 0..64 {
        if let Some(o) = content::get(doc, node, key) {
            return Some(o);
        }
        node = content::get(doc, node, b"Parent")?.as_dict().ok()?;
    }
    None
}

pub(super) fn within(inner: &Rect, outer: &Rect, tol: f64) -> bool {
    inner.x0 >= outer.x0 - tol
        && inner.y0 >= outer.y0 - tol
        && inner.x1 <= outer.x1 + tol
        && inner.y1 <= outer.y1 + tol
}

/// The trim of a page without a TrimBox, read from its CropBox or MediaBox (`name`):
/// the box itself, or, when it is a listed trim size plus 0.125 in on the outside
/// edge and 0.25 in of height, that trim with bleed on the outside, top and bottom
/// (page `p` odd is a right-hand page, bleeding on the right). With the warning.
pub(super) fn trim_from(page: &Rect, name: &str, p: u32) -> (Rect, String) {
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

/// Every page's boxes, inherited from the page tree where the page has none.
pub(super) fn read_boxes(doc: &Document, page_ids: &[lopdf::ObjectId]) -> Result<Vec<Boxes>> {
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
pub(super) type Geometry = (f64, f64, f64);

/// Check every page's boxes: each page's geometry (none when its trim cannot be
/// measured) and the trim it is measured against (its TrimBox, else the one read from
/// its CropBox or MediaBox).
pub(super) fn check_boxes(
    boxes: &[Boxes],
    found: &mut Found,
) -> (Vec<Option<Geometry>>, Vec<Option<Rect>>) {
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
pub(super) fn page_boxes(b: &Boxes, p: u32, found: &mut Found) -> (Option<Geometry>, Option<Rect>) {
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
pub(super) fn bleed_of(trim: &Rect, bleed_box: &Rect, p: u32, found: &mut Found) -> f64 {
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
pub(super) fn check_trim_sizes(geometry: &[Option<Geometry>], first: Geometry, found: &mut Found) {
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
pub(super) fn check_page_count(
    service: Service,
    n: usize,
    first: Option<Geometry>,
    found: &mut Found,
) {
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
