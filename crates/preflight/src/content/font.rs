//! Fonts as content sets text with them: embedded or not, and the glyph widths that
//! size each string.

use super::*;

/// The glyph metrics preflight needs from a font.
#[derive(Debug)]
pub(crate) struct Font {
    pub(crate) name: String,
    pub(crate) facts: FontFacts,
    /// Two-byte codes (a Type0 font).
    pub(crate) two_byte: bool,
    /// Simple fonts: widths from `first` on.
    pub(crate) first: u32,
    pub(crate) widths: Vec<f64>,
    /// Type0: (low, high, width) runs, sorted.
    pub(crate) runs: Vec<(u32, u32, f64)>,
    /// The width of a code with none given.
    pub(crate) default_width: f64,
    /// Glyph space to text space (0.001 except for Type 3).
    pub(crate) scale: f64,
    pub(crate) ascent: f64,
    pub(crate) descent: f64,
}

impl Font {
    pub(super) fn width(&self, code: u32) -> f64 {
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
    pub(super) fn codes(&self, s: &[u8]) -> Vec<u32> {
        if self.two_byte {
            s.chunks(2)
                .map(|c| c.iter().fold(0u32, |a, b| (a << 8) | u32::from(*b)))
                .collect()
        } else {
            s.iter().map(|b| u32::from(*b)).collect()
        }
    }
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
pub(super) fn font_body<'a>(
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
    pub(super) fn read_extent(
        &mut self,
        doc: &Document,
        body: &Dictionary,
        descriptor: Option<&Dictionary>,
    ) {
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
pub(super) fn cid_widths(doc: &Document, w: &[Object]) -> Vec<(u32, u32, f64)> {
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

pub(super) fn numbers_long(doc: &Document, o: Option<&Object>) -> Vec<f64> {
    match o {
        Some(Object::Array(a)) => a
            .iter()
            .take(65_536)
            .map(|x| num(deref(doc, x)).unwrap_or(0.0))
            .collect(),
        _ => Vec::new(),
    }
}
