//! The `catan stats` report: one small histogram per balance measure (the share of
//! boards at each value, the mean marked), then the summary table and what the
//! measures are. Drawn on canvases; the book engine writes the PDF.

use super::{score_bin_label, Hists, Summary, MEASURES, SCORE, SCORE_BINS_PER_UNIT};
use crate::board::Shape;
use ground::canvas::{pt, wrap, Align, Canvas, Color, Face, Rect, Stroke};
use ground::chart::{self, Plot};

/// A4 portrait, in mm.
pub(crate) const PAGE: (f32, f32) = (210.0, 297.0);
const MARGIN: f32 = 14.0;
const BAR: Color = Color::rgb(70, 110, 170);
const MEAN: Color = Color::rgb(200, 40, 40);

/// What the report is of.
pub struct Info {
    /// One line: boards, board, rules, sampler, seed.
    pub title: String,
    /// The board's shape.
    pub shape: &'static Shape,
}

fn fmt_pct(v: f64) -> String {
    if v >= 10.0 || v == 0.0 {
        format!("{v:.0}%")
    } else if v >= 1.0 {
        format!("{v:.1}%")
    } else {
        format!("{v:.2}%")
    }
}

/// One histogram in `area`: measure `k`'s counts from its smallest to largest value.
fn histogram(c: &mut Canvas, area: Rect, k: usize, counts: &[u64], boards: u64, s: &Summary) {
    let (_, title, unit) = MEASURES[k];
    let score = k == SCORE;
    c.text(area.x, area.y + 3.5, 8.5, Face::Bold, Align::Left, title);
    let stats = if score {
        format!("mean {:.3}, sd {:.3}", s.mean, s.sd)
    } else {
        format!("mean {:.2}, sd {:.2}", s.mean, s.sd)
    };
    c.text_colored(
        pt(area.right(), area.y + 3.5),
        7.0,
        Face::Regular,
        Align::Right,
        MEAN,
        &stats,
    );
    let plot = Plot::new(Rect::new(
        area.x + 11.0,
        area.y + 8.5,
        area.w - 13.0,
        area.h - 8.5 - 10.0,
    ));
    let p = plot.area;
    let (Some(lo), Some(hi)) = (
        counts.iter().position(|&c| c > 0),
        counts.iter().rposition(|&c| c > 0),
    ) else {
        let (x, y) = (p.center().x, p.center().y);
        c.text(x, y, 7.0, Face::Regular, Align::Center, "no boards");
        return;
    };
    // Integer measures: one bar per value, centred on it, one empty slot each side.
    // The score: one bar per 0.05 bin, between its edges.
    let (first, last) = if score {
        (lo, hi + 1)
    } else {
        (lo.saturating_sub(1), hi + 1)
    };
    let slots = (last - first) as f32 + if score { 0.0 } else { 1.0 };
    let slot = p.w / slots.max(1.0);
    let n = boards.max(1) as f64;
    let top_share = counts[lo..=hi].iter().copied().max().unwrap_or(0) as f64 / n * 100.0;
    let ymax = chart::nice(top_share.max(1e-6));
    let y_of = |pct: f64| p.bottom() - (pct / ymax) as f32 * p.h;
    shares_axis(c, &plot, ymax, y_of);
    for (v, &cnt) in counts.iter().enumerate().take(hi + 1).skip(lo) {
        if cnt == 0 {
            continue;
        }
        let x0 = p.x + (v - first) as f32 * slot + if score { 0.0 } else { slot * 0.5 };
        let (bx, bw) = if score {
            (x0 + slot * 0.06, slot * 0.88)
        } else {
            (x0 - slot * 0.42, slot * 0.84)
        };
        plot.bar(c, bx, bw, y_of(cnt as f64 / n * 100.0), BAR, None);
    }
    let axis = Stroke::new(Color::grey(60), 0.25);
    plot.left(c, axis);
    plot.floor(c, axis);
    let x_at = |v: f64| p.x + (v - first as f64) as f32 * slot;
    // x ticks: about six labels.
    let step = chart::nice(((last - first) as f64 / 6.0).max(1.0)) as usize;
    let mut v = first.div_ceil(step) * step;
    while v <= last {
        let (x, label) = if score {
            (x_at(v as f64), score_bin_label(v))
        } else {
            (x_at(v as f64 + 0.5), v.to_string())
        };
        if x <= p.right() + 0.01 {
            plot.x_tick(c, x, &label, 7.0, axis);
        }
        v += step;
    }
    // The mean.
    let mean_x = if score {
        x_at(s.mean * SCORE_BINS_PER_UNIT)
    } else {
        x_at(s.mean + 0.5)
    };
    plot.vline(c, mean_x, Stroke::new(MEAN, 0.3));
    let xlabel = if score {
        "score (bins of 0.05)".to_string()
    } else {
        unit.to_string()
    };
    let (x, y) = (p.center().x, p.bottom() + 8.2);
    c.text(x, y, 7.0, Face::Regular, Align::Center, &xlabel);
    plot.y_label(c, p.y - 1.6, "boards", 7.0);
}

/// The y axis of shares of boards: grid lines and labels at 0, half and the top.
fn shares_axis(c: &mut Canvas, plot: &Plot, ymax: f64, y_of: impl Fn(f64) -> f32) {
    let grid = Stroke::new(Color::grey(205), 0.2);
    for f in [0.0, 0.5, 1.0] {
        let y = y_of(ymax * f);
        if f > 0.0 {
            plot.hline(c, y, grid);
        }
        plot.y_label(c, y + 1.0, &fmt_pct(ymax * f), 7.0);
    }
}

fn page_number(c: &mut Canvas, k: usize, of: usize) {
    c.text(
        PAGE.0 / 2.0,
        PAGE.1 - MARGIN + 4.0,
        7.5,
        Face::Regular,
        Align::Center,
        &format!("page {k} of {of}"),
    );
}

fn summary_table(c: &mut Canvas, x: f32, mut y: f32, w: f32, sums: &[Summary]) -> f32 {
    let cols = [
        ("measure", 0.0, Align::Left),
        ("mean", 0.37, Align::Right),
        ("sd", 0.46, Align::Right),
        ("min", 0.54, Align::Right),
        ("p5", 0.62, Align::Right),
        ("p25", 0.69, Align::Right),
        ("median", 0.78, Align::Right),
        ("p75", 0.85, Align::Right),
        ("p95", 0.92, Align::Right),
        ("max", 1.0, Align::Right),
    ];
    for (name, at, align) in cols {
        c.text(x + w * at, y, 8.0, Face::Bold, align, name);
    }
    c.line(
        pt(x, y + 1.5),
        pt(x + w, y + 1.5),
        Stroke::new(Color::grey(60), 0.3),
    );
    y += 6.0;
    for (k, s) in sums.iter().enumerate() {
        let score = k == SCORE;
        let q = |v: f64| {
            if score {
                format!("{v:.2}")
            } else {
                format!("{v:.0}")
            }
        };
        let ext = |v: f64| if score { format!("{v:.3}") } else { q(v) };
        let cells = [
            MEASURES[k].1.to_string(),
            if score {
                format!("{:.3}", s.mean)
            } else {
                format!("{:.2}", s.mean)
            },
            if score {
                format!("{:.3}", s.sd)
            } else {
                format!("{:.2}", s.sd)
            },
            ext(s.min),
            q(s.quantiles[0]),
            q(s.quantiles[1]),
            q(s.quantiles[2]),
            q(s.quantiles[3]),
            q(s.quantiles[4]),
            ext(s.max),
        ];
        for ((_, at, align), text) in cols.iter().zip(cells) {
            c.text(x + w * at, y, 8.0, Face::Regular, *align, &text);
        }
        y += 5.0;
    }
    y
}

/// The report's pages: the histograms, then the summary table and what it means.
pub fn pages(info: &Info, h: &Hists, sums: &[Summary]) -> Vec<Canvas> {
    let w = PAGE.0 - 2.0 * MARGIN;
    let mut first = Canvas::new();
    let mut y = MARGIN + 6.0;
    first.text(
        MARGIN,
        y,
        16.0,
        Face::Bold,
        Align::Left,
        "Catan boards: how balanced are uniform boards?",
    );
    y += 7.0;
    let sub = format!(
        "{}. Each panel: the share of boards at each value of one measure; the red line is the mean.",
        info.title
    );
    for line in wrap(&sub, 8.5, Face::Regular, w) {
        first.text(MARGIN, y, 8.5, Face::Regular, Align::Left, &line);
        y += 4.2;
    }
    y += 2.0;
    let area = Rect::new(MARGIN, y, w, PAGE.1 - MARGIN - 4.0 - y);
    let cols = 2;
    let rows = MEASURES.len().div_ceil(cols);
    for (k, s) in sums.iter().enumerate() {
        let cell = area.grid_cell(rows, cols, k / cols, k % cols).inset(2.5);
        histogram(&mut first, cell, k, &h.counts[k], h.boards, s);
    }
    page_number(&mut first, 1, 2);

    let mut second = Canvas::new();
    let mut y = MARGIN + 6.0;
    second.text(
        MARGIN,
        y,
        13.0,
        Face::Bold,
        Align::Left,
        "The measures, summarised",
    );
    y += 6.0;
    for line in wrap(&info.title, 8.5, Face::Regular, w) {
        second.text(MARGIN, y, 8.5, Face::Regular, Align::Left, &line);
        y += 4.2;
    }
    y += 4.0;
    y = summary_table(&mut second, MARGIN, y, w, sums) + 4.0;
    let explain = format!(
        "Every board is drawn by an exact sampler, so each valid board of the {} board under these rules is equally likely, \
         and each measure's histogram is its exact count over the boards drawn. Resource pips: the sum of the pips of a \
         resource's tokens (2 and 12 have 1, 3 and 11 have 2, ..., 6 and 8 have 5). Corners: over the corners where three \
         land hexes meet, the smallest and the largest sum of their pips (the desert 0). Largest group: the hexes in the \
         largest connected group of one terrain (deserts not counted). Harbors: the 2:1 harbors with a hex of their own \
         resource at their piers. Score, lower = fairer: the standard deviation over the five resources of each resource's \
         pips per hex; it is counted in bins of 0.05, so its quantiles are the lower edges of their bins, while its mean, \
         standard deviation, minimum and maximum are exact. Quantiles: the smallest value with at least that share of \
         boards at or below it.",
        info.shape.kind.name()
    );
    for line in wrap(&explain, 8.0, Face::Regular, w) {
        second.text(MARGIN, y, 8.0, Face::Regular, Align::Left, &line);
        y += 4.0;
    }
    page_number(&mut second, 2, 2);
    vec![first, second]
}
