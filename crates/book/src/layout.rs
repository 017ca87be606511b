//! Page geometry: trim sizes, bleed, mirrored margins with the gutter chosen by page
//! count (print-on-demand rules), and grids of equal boxes for puzzles.

use super::template::{Margins, PageSize};
use crate::canvas::Rect;

/// Millimetres in one inch.
pub(crate) const MM_PER_IN: f32 = 25.4;
/// Bleed added to the outside, top and bottom edges.
pub(crate) const BLEED_MM: f32 = 0.125 * MM_PER_IN;

/// The inside (gutter) margin for a book of `pages` pages, in mm.
pub(crate) fn gutter_mm(pages: usize) -> f32 {
    // The services' table (KDP's, which IngramSpark's 0.5 in never exceeds below 151
    // pages), kept once, with the checker that measures it.
    let (inches, _) = crate::preflight::Service::Kdp.margins(pages, false);
    inches as f32 * MM_PER_IN
}

/// Where things go on the pages of one book.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// Trimmed page width, in mm.
    pub trim_w: f32,
    /// Trimmed page height, in mm.
    pub trim_h: f32,
    /// Bleed beyond the trim on the outside, top and bottom edges, in mm (0 without bleed).
    pub bleed: f32,
    /// Top margin, in mm from the trim.
    pub top: f32,
    /// Bottom margin, in mm from the trim.
    pub bottom: f32,
    /// Outside margin (away from the binding), in mm from the trim.
    pub outside: f32,
    /// Inside (gutter) margin: the template's, raised to what `pages` needs, in mm.
    pub inside: f32,
}

impl Geometry {
    /// The geometry of a book of `pages` pages of trim `size`, with or without bleed.
    pub fn new(size: PageSize, bleed: bool, margins: &Margins, pages: usize) -> Geometry {
        let (trim_w, trim_h) = size.mm();
        Geometry {
            trim_w,
            trim_h,
            bleed: if bleed { BLEED_MM } else { 0.0 },
            top: margins.top,
            bottom: margins.bottom,
            outside: margins.outside,
            inside: gutter_mm(pages).max(margins.inside),
        }
    }

    /// Odd pages (1, 3, ...) are right-hand pages: their inside edge is on the left.
    pub(crate) fn is_recto(page: usize) -> bool {
        page % 2 == 1
    }

    /// The live area of page `page` (1-based), in trim coordinates (mm from the top-left
    /// corner of the trimmed page).
    pub fn live(&self, page: usize) -> Rect {
        let (left, right) = if Geometry::is_recto(page) {
            (self.inside, self.outside)
        } else {
            (self.outside, self.inside)
        };
        Rect::new(
            left,
            self.top,
            self.trim_w - left - right,
            self.trim_h - self.top - self.bottom,
        )
    }

    /// Media size including bleed (outside, top and bottom edges only).
    pub fn media(&self) -> (f32, f32) {
        (self.trim_w + self.bleed, self.trim_h + 2.0 * self.bleed)
    }

    /// Offset of the trim box inside the media box: (from the left, from the top).
    pub(crate) fn trim_offset(&self, page: usize) -> (f32, f32) {
        let x = if Geometry::is_recto(page) {
            0.0
        } else {
            self.bleed
        };
        (x, self.bleed)
    }
}

/// How each page sits on its sheet, for the PDF writer: the media size, where the
/// trimmed page is, and whether the rest is bleed.
pub trait Sheets {
    /// Media width and height, in mm.
    fn media(&self) -> (f32, f32);
    /// Offset of page `page`'s trim box (1-based) from the media's top-left corner, in
    /// mm: where canvas coordinates start.
    fn trim_offset(&self, page: usize) -> (f32, f32);
    /// Page `page`'s trim box in PDF terms: (x0, y0, x1, y1) in mm from the media's
    /// bottom-left corner.
    fn trim_box(&self, page: usize) -> (f32, f32, f32, f32);
    /// Whether the media beyond the trim is bleed (the bleed box is then the media box).
    fn has_bleed(&self) -> bool;
}

impl Sheets for Geometry {
    fn media(&self) -> (f32, f32) {
        Geometry::media(self)
    }
    fn trim_offset(&self, page: usize) -> (f32, f32) {
        Geometry::trim_offset(self, page)
    }
    fn trim_box(&self, page: usize) -> (f32, f32, f32, f32) {
        let (dx, _) = Geometry::trim_offset(self, page);
        (dx, self.bleed, dx + self.trim_w, self.bleed + self.trim_h)
    }
    fn has_bleed(&self) -> bool {
        self.bleed > 0.0
    }
}

/// Choose rows x columns for `n` boxes of a given aspect (width / height) in `area`,
/// making each drawing as large as possible; `extra_h` is the height each box needs
/// besides its drawing (label and caption).
pub(crate) fn best_grid(n: usize, area: Rect, aspect: f32, extra_h: f32) -> (usize, usize) {
    let mut best = (n, 1, -1.0f32);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        let bw = area.w / cols as f32;
        let bh = area.h / rows as f32 - extra_h;
        if bh <= 0.0 {
            continue;
        }
        // Drawing size: the largest box of this aspect that fits.
        let w = bw.min(bh * aspect);
        if w > best.2 + 1e-3 {
            best = (rows, cols, w);
        }
    }
    (best.0, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gutter_follows_the_print_on_demand_table() {
        assert_eq!(gutter_mm(24), 0.375 * 25.4);
        assert_eq!(gutter_mm(150), 0.375 * 25.4);
        assert_eq!(gutter_mm(151), 0.5 * 25.4);
        assert_eq!(gutter_mm(500), 0.625 * 25.4);
        assert_eq!(gutter_mm(701), 0.875 * 25.4);
    }

    #[test]
    fn margins_mirror() {
        // 100 pages: gutter 0.375 in, outside 0.5 in.
        let m = Margins {
            inside: 0.0,
            ..Margins::default()
        };
        let g = Geometry::new(PageSize::TRADE_6X9, false, &m, 100);
        let odd = g.live(1);
        let even = g.live(2);
        assert!((odd.x - 9.525).abs() < 1e-4, "recto inside is on the left");
        assert!((even.x - 12.7).abs() < 1e-4 && (even.right() - (152.4 - 9.525)).abs() < 1e-4);
        assert!((odd.w - even.w).abs() < 1e-4);
        // The default inside margin, 0.5 in, is wider than 100 pages need.
        let g = Geometry::new(PageSize::TRADE_6X9, false, &Margins::default(), 100);
        assert!((g.live(1).x - 12.7).abs() < 1e-4);
        // 400 pages need 0.625 in: the gutter wins.
        let g = Geometry::new(PageSize::TRADE_6X9, false, &Margins::default(), 400);
        assert!((g.live(1).x - 15.875).abs() < 1e-4);
    }

    #[test]
    fn grids_fill_the_page() {
        let a = Rect::new(0.0, 0.0, 180.0, 250.0);
        assert_eq!(best_grid(1, a, 1.0, 10.0), (1, 1));
        assert_eq!(best_grid(2, a, 1.0, 10.0), (2, 1));
        assert_eq!(best_grid(4, a, 1.0, 10.0), (2, 2));
        assert_eq!(best_grid(6, a, 1.0, 10.0), (3, 2));
    }
}
