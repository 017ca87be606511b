//! Histograms on a canvas: the parts every chart of the reports shares (the plot box,
//! bars standing on its floor, the x axis with its ticks and labels, vertical marks,
//! y grid lines), so each report only says what it plots. Positions are in mm; each
//! chart maps its own values to mm.

use crate::canvas::{pt, Align, Canvas, Color, Face, Rect, Stroke};

/// How long a tick below the x axis is, in mm.
pub(crate) const TICK: f32 = 1.2;
/// How far below the axis a tick's label sits (its baseline), in mm.
pub(crate) const TICK_LABEL: f32 = 4.2;

/// The plot box of one chart: bars stand on its bottom edge.
#[derive(Debug, Clone, Copy)]
pub struct Plot {
    /// The box, in mm.
    pub area: Rect,
}

impl Plot {
    /// A plot in `area`.
    pub fn new(area: Rect) -> Plot {
        Plot { area }
    }

    /// A bar from `x` (its left edge) `w` wide, up to the height `top` (all in mm).
    pub fn bar(&self, c: &mut Canvas, x: f32, w: f32, top: f32, fill: Color, edge: Option<Stroke>) {
        let floor = self.area.bottom();
        c.rect(Rect::new(x, top, w, floor - top), Some(fill), edge);
    }

    /// A vertical line across the whole plot at `x`.
    pub fn vline(&self, c: &mut Canvas, x: f32, stroke: Stroke) {
        c.line(pt(x, self.area.y), pt(x, self.area.bottom()), stroke);
    }

    /// A horizontal grid line across the whole plot at height `y`.
    pub fn hline(&self, c: &mut Canvas, y: f32, stroke: Stroke) {
        c.line(pt(self.area.x, y), pt(self.area.right(), y), stroke);
    }

    /// The floor of the plot: the x axis line.
    pub fn floor(&self, c: &mut Canvas, stroke: Stroke) {
        let y = self.area.bottom();
        c.line(pt(self.area.x, y), pt(self.area.right(), y), stroke);
    }

    /// The left side of the plot: the y axis line.
    pub fn left(&self, c: &mut Canvas, stroke: Stroke) {
        c.line(
            pt(self.area.x, self.area.y),
            pt(self.area.x, self.area.bottom()),
            stroke,
        );
    }

    /// A tick under the axis at `x` with its label centred below it, at `size` pt.
    pub fn x_tick(&self, c: &mut Canvas, x: f32, label: &str, size: f32, stroke: Stroke) {
        let y = self.area.bottom();
        c.line(pt(x, y), pt(x, y + TICK), stroke);
        c.text(x, y + TICK_LABEL, size, Face::Regular, Align::Center, label);
    }

    /// A label left of the y axis, its baseline at `y`, at `size` pt.
    pub fn y_label(&self, c: &mut Canvas, y: f32, label: &str, size: f32) {
        c.text(
            self.area.x - TICK,
            y,
            size,
            Face::Regular,
            Align::Right,
            label,
        );
    }
}

/// `n` with a comma every three digits (1,000,000), as counts read on charts and
/// in tables.
pub fn thousands(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// The smallest of 1, 2 and 5 times a power of ten at or above `x` (x > 0): a step
/// between ticks or a top for an axis that reads easily.
pub fn nice(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|&v| v >= x * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// Counts of `values` in `bins` equal bins from `-span` to `span` (values outside go to
/// the end bins).
pub fn bin_symmetric(values: &[f64], span: f64, bins: usize) -> Vec<u64> {
    let width = 2.0 * span / bins as f64;
    let mut counts = vec![0u64; bins];
    for &z in values {
        let b = (((z + span) / width).floor().max(0.0) as usize).min(bins - 1);
        counts[b] += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps_are_one_two_or_five_times_a_power_of_ten() {
        for (x, want) in [
            (0.7, 1.0),
            (1.0, 1.0),
            (1.1, 2.0),
            (3.0, 5.0),
            (7.0, 10.0),
            (23.0, 50.0),
        ] {
            assert_eq!(nice(x), want, "{x}");
        }
    }

    #[test]
    fn thousands_grouped_by_commas() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(30001u64), "30,001");
        assert_eq!(thousands(1_000_000u64), "1,000,000");
    }

    #[test]
    fn symmetric_bins_count_every_value_once() {
        let v = [-10.0, -1.5, -0.1, 0.0, 0.1, 1.9, 2.0, 99.0];
        let c = bin_symmetric(&v, 2.0, 4);
        assert_eq!(c, vec![2, 1, 2, 3]);
        assert_eq!(c.iter().sum::<u64>(), v.len() as u64);
    }
}
