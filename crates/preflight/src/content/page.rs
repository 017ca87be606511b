//! What one page's content paints: its marks (by kind, with their boxes), the fonts
//! used and the smallest text and thinnest line.

use super::*;

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
    pub(super) fn add(&mut self, kind: MarkKind, rect: Rect) {
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
