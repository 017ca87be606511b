//! The PDF/X claim: an output intent and the boxes it needs.

use super::*;

/// Check a PDF/X claim (the Info dictionary's GTS_PDFXVersion): a version, an output
/// intent, a TrimBox or ArtBox on every page and, for X-1a, no RGB.
pub(super) fn check_pdfx(
    doc: &Document,
    boxes: &[Boxes],
    rgb_pages: &BTreeSet<u32>,
    found: &mut Found,
) {
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
pub(super) fn has_pdfx_intent(doc: &Document) -> bool {
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
