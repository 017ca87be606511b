//! The rules of the print services: file and page limits, bleed, the smallest text and
//! line, image resolution, trim sizes, and the services themselves.

use super::*;

/// The largest file preflight reads.
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// The most pages preflight checks (a book interior has at most about a thousand).
pub const MAX_PAGES: usize = 5_000;
/// KDP's largest manuscript file.
pub(crate) const KDP_MAX_FILE_BYTES: usize = 650 * 1_000_000;

/// Points per inch.
pub(super) const PT: f64 = 72.0;
/// Bleed on the outside, top and bottom edges: 0.125 in.
pub(crate) const BLEED_IN: f64 = 0.125;
/// How far a box edge may be off and still match (0.01 in).
pub(super) const BOX_TOL_IN: f64 = 0.01;
/// How far ink may reach into a margin before it counts (0.005 in, well under a dot).
pub(super) const INK_TOL_IN: f64 = 0.005;
/// Text smaller than this fails (points).
pub const MIN_TEXT_PT: f64 = 7.0;
/// Strokes thinner than this fail (points).
pub(crate) const MIN_LINE_PT: f64 = 0.5;
/// Strokes thinner than this are a warning (points).
pub(crate) const WARN_LINE_PT: f64 = 0.75;
/// Images with fewer pixels per inch on paper than this are a warning.
pub(crate) const MIN_PPI: f64 = 300.0;

/// The trim sizes the services print, width x height in inches.
pub(crate) const TRIM_SIZES: &[(f64, f64)] = &[
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
pub(crate) const CUSTOM_TRIM: ((f64, f64), (f64, f64)) = ((4.0, 8.5), (6.0, 11.69));

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
    pub(crate) fn page_range(self, trim: Option<(f64, f64)>) -> (usize, Option<usize>) {
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
