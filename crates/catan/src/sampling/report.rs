//! The bias report: a summary table (counts, attempts, exact acceptance, chi-square),
//! then for each sampler hex maps coloured by how far each hex's observed frequency
//! sits from its expectation (z-score), a map of its worst feature, a histogram of its
//! z values against the largest |z| expected by chance, and with replicates the ECDF of
//! its chi-square p-values. Any number of samplers, six to a page. Drawn on canvases;
//! the book engine writes the PDF.

use super::bias::{self, FeatureRow, KsRow, ReplicateRow, Study, SummaryRow};
use crate::board::{centre, Shape};
use crate::draw::hexagon;
use ground::canvas::{pt, wrap, Align, Canvas, Color, Face, Rect, Stroke, MM_PER_PT};
use ground::chart::{self, Plot};
use ground::stats::max_abs_normal_quantile;

/// A4 portrait, in mm.
pub(crate) const PAGE: (f32, f32) = (210.0, 297.0);
const MARGIN: f32 = 14.0;
/// |z| at which the colour saturates.
const Z_FULL: f64 = 5.0;
/// Panels (maps, histograms, ECDFs) per page: two columns of three.
const PER_PAGE: usize = 6;
const COLS: usize = 2;

pub use ground::chart::thousands;

/// A p-value for a table column: `0.747`, `2.6e-15`, `< 1e-300` (too small for a
/// double), `0 (broke rules)` when boards fell outside every valid placement, `n/a`
/// without a chi-square.
pub(crate) fn p_cell(s: &SummaryRow) -> String {
    match (s.p_value, s.chi_square) {
        (None, _) => "n/a".into(),
        (Some(_), Some(c)) if c.is_infinite() => "0 (broke rules)".into(),
        (Some(p), _) => p_number(p),
    }
}

/// A p-value as a phrase: `p = 0.747`, `p < 1e-300`, `p = 0 (boards broke the
/// rules)`, or `no chi-square`.
pub(crate) fn p_phrase(s: &SummaryRow) -> String {
    match (s.p_value, s.chi_square) {
        (None, _) => "no chi-square".into(),
        (Some(_), Some(c)) if c.is_infinite() => "p = 0 (boards broke the rules)".into(),
        (Some(p), _) => p_equals(p),
    }
}

/// `p = 0.747`, `p = 2.6e-15` or `p < 1e-300`.
pub(crate) fn p_equals(p: f64) -> String {
    let t = p_number(p);
    if t.starts_with('<') {
        format!("p {t}")
    } else {
        format!("p = {t}")
    }
}

fn p_number(p: f64) -> String {
    if p < 1e-300 {
        "< 1e-300".into()
    } else if p < 0.001 {
        format!("{p:.1e}")
    } else {
        format!("{p:.3}")
    }
}

/// Observed acceptance beside the exact one: `0.1366 (exact 0.1373)`, or `1 (none
/// rejected)` for a sampler that keeps every attempt.
pub(crate) fn acceptance_cell(s: &SummaryRow, exact: Option<f64>) -> String {
    if s.attempts == s.samples {
        return "1 (none rejected)".into();
    }
    match exact {
        Some(e) => format!("{:.4} (exact {e:.4})", s.acceptance_rate),
        None => format!("{:.4}", s.acceptance_rate),
    }
}

/// Attempts per board kept.
pub(crate) fn attempts_per_board(s: &SummaryRow) -> f64 {
    s.attempts as f64 / s.samples.max(1) as f64
}

/// Diverging colour: blue below expectation, white at it, red above.
fn colour(z: f64) -> Color {
    let t = (z.abs() / Z_FULL).min(1.0) as f32;
    let mix = |a: f32, b: f32| (a + (b - a) * t).round() as u8;
    if z >= 0.0 {
        Color::rgb(255, mix(255.0, 40.0), mix(255.0, 40.0))
    } else {
        Color::rgb(mix(255.0, 40.0), mix(255.0, 90.0), 255)
    }
}

fn heading(c: &mut Canvas, area: Rect, title: &str, sub: &str) -> Rect {
    c.text(area.x, area.y + 4.0, 9.0, Face::Bold, Align::Left, title);
    let mut y = area.y + 8.5;
    for line in wrap(sub, 7.0, Face::Regular, area.w) {
        c.text_colored(
            pt(area.x, y),
            7.0,
            Face::Regular,
            Align::Left,
            Color::grey(80),
            &line,
        );
        y += 3.3;
    }
    let top = y - 0.5;
    Rect::new(area.x, top, area.w, area.bottom() - top)
}

/// One map: the hexes of `shape` coloured by the z of the rows (hex rows are numbered
/// by hex, harbor rows by harbor position; harbors are drawn as discs in the sea).
fn map(c: &mut Canvas, area: Rect, shape: &Shape, rows: &[&FeatureRow], title: &str, sub: &str) {
    let body = heading(c, area, title, sub);
    let harbors = rows.iter().any(|r| r.place == "harbor");
    let r3 = 3f32.sqrt();
    let at = |x: i32, y: i32| {
        let (cx, cy) = centre(x, y);
        (cx as f32 * r3, cy as f32 * r3)
    };
    let pts: Vec<(f32, f32)> = shape.hexes.iter().map(|&(x, y)| at(x, y)).collect();
    let sea: Vec<(f32, f32)> = shape.harbors.iter().map(|h| at(h.x, h.y)).collect();
    let all: Vec<(f32, f32)> = if harbors {
        pts.iter().chain(&sea).copied().collect()
    } else {
        pts.clone()
    };
    let (x0, x1) = all
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = all
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let r = (body.w / (x1 - x0 + r3)).min(body.h / (y1 - y0 + 2.0));
    let mid = body.center();
    let (cx0, cy0) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let place = |(px, py): (f32, f32)| pt(mid.x + (px - cx0) * r, mid.y + (py - cy0) * r);
    let size = (r * 0.42 / MM_PER_PT).min(9.0);
    let small = (size * 0.62).max(5.0);
    for (h, &p) in pts.iter().enumerate() {
        let c0 = place(p);
        let row = rows.iter().find(|row| row.place == "hex" && row.n == h + 1);
        c.polygon(
            hexagon(c0, r * 0.98),
            Some(row.map_or(Color::grey(235), |row| colour(row.z))),
            Some(Stroke::new(Color::grey(90), 0.2)),
        );
        // The hex number, small, in the hex's top corner, clear of the z below.
        c.text_colored(
            pt(c0.x, c0.y - r * 0.52),
            small,
            Face::Regular,
            Align::Center,
            Color::grey(70),
            &format!("{}", h + 1),
        );
        let Some(row) = row else { continue };
        c.text(
            c0.x,
            c0.y + size * MM_PER_PT * 0.1,
            size,
            Face::Bold,
            Align::Center,
            &format!("{:+.1}", row.z),
        );
        c.text(
            c0.x,
            c0.y + r * 0.5,
            small,
            Face::Regular,
            Align::Center,
            &relative(row),
        );
    }
    if harbors {
        for (k, &p) in sea.iter().enumerate() {
            let c0 = place(p);
            let row = rows
                .iter()
                .find(|row| row.place == "harbor" && row.n == k + 1);
            c.circle(
                c0,
                r * 0.55,
                Some(row.map_or(Color::grey(235), |row| colour(row.z))),
                Some(Stroke::new(Color::grey(60), 0.3)),
            );
            c.text_colored(
                pt(c0.x, c0.y - r * 0.22),
                small,
                Face::Regular,
                Align::Center,
                Color::grey(70),
                &format!("H{}", k + 1),
            );
            if let Some(row) = row {
                c.text(
                    c0.x,
                    c0.y + r * 0.2,
                    small,
                    Face::Bold,
                    Align::Center,
                    &format!("{:+.1}", row.z),
                );
            }
        }
    }
}

fn relative(row: &FeatureRow) -> String {
    let rel = if row.expected > 0.0 {
        row.observed as f64 / row.expected - 1.0
    } else {
        0.0
    };
    format!("{:+.1}%", rel * 100.0)
}

const TABLE_COLS: [(&str, f32); 9] = [
    ("sampler", 0.0),
    ("boards", 0.125),
    ("attempts", 0.21),
    ("att./board", 0.3),
    ("acceptance", 0.39),
    ("chi-square (df)", 0.57),
    ("p-value", 0.695),
    ("max |z|", 0.78),
    ("where", 0.845),
];

fn summary_table(
    c: &mut Canvas,
    x: f32,
    mut y: f32,
    w: f32,
    rows: &[SummaryRow],
    exact: Option<f64>,
) -> f32 {
    for (name, at) in TABLE_COLS {
        c.text(x + w * at, y, 7.0, Face::Bold, Align::Left, name);
    }
    c.line(
        pt(x, y + 1.5),
        pt(x + w, y + 1.5),
        Stroke::new(Color::grey(60), 0.3),
    );
    y += 5.5;
    for s in rows {
        let chi = match (s.chi_square, s.df) {
            (Some(v), Some(d)) if v.is_finite() => {
                format!("{} ({})", thousands(v.round() as u64), thousands(d as u64))
            }
            (Some(_), Some(d)) => format!("infinite ({})", thousands(d as u64)),
            _ => "n/a".into(),
        };
        let cells = [
            s.sampler.to_string(),
            thousands(s.samples),
            thousands(s.attempts),
            format!("{:.2}", attempts_per_board(s)),
            acceptance_cell(s, exact),
            chi,
            p_cell(s),
            format!("{:.1}", s.max_abs_z),
            s.max_abs_z_at.clone(),
        ];
        for ((_, at), text) in TABLE_COLS.iter().zip(cells) {
            c.text(x + w * at, y, 7.0, Face::Regular, Align::Left, &text);
        }
        y += 4.5;
    }
    y
}

/// The colour scale, with ticks at -3, -2, 0, +2 and +3.
fn legend(c: &mut Canvas, x: f32, y: f32, w: f32) {
    let steps = 41;
    let sw = w / steps as f32;
    for k in 0..steps {
        let z = -Z_FULL + 2.0 * Z_FULL * (k as f64 + 0.5) / steps as f64;
        c.rect(
            Rect::new(x + k as f32 * sw, y, sw + 0.05, 4.0),
            Some(colour(z)),
            None,
        );
    }
    c.rect(
        Rect::new(x, y, w, 4.0),
        None,
        Some(Stroke::new(Color::grey(90), 0.2)),
    );
    let at = |z: f64| x + w * ((z + Z_FULL) / (2.0 * Z_FULL)) as f32;
    for (z, label) in [
        (-3.0, "-3"),
        (-2.0, "-2"),
        (0.0, "0"),
        (2.0, "+2"),
        (3.0, "+3"),
    ] {
        let tx = at(z);
        c.line(
            pt(tx, y + 4.0),
            pt(tx, y + 5.5),
            Stroke::new(Color::grey(40), 0.3),
        );
        c.text(tx, y + 8.3, 7.0, Face::Regular, Align::Center, label);
    }
    c.text(x, y + 8.3, 7.0, Face::Regular, Align::Left, "<= -5");
    c.text(x + w, y + 8.3, 7.0, Face::Regular, Align::Right, ">= +5");
    c.text(
        x,
        y + 11.8,
        6.5,
        Face::Regular,
        Align::Left,
        "z: fewer than expected",
    );
    c.text(
        x + w,
        y + 11.8,
        6.5,
        Face::Regular,
        Align::Right,
        "more than expected",
    );
}

/// The z values of a sampler's rows that can vary (expectation strictly between 0
/// and every board), finite ones only.
fn z_values<'a>(study: &'a Study, sampler: &str) -> Vec<&'a FeatureRow> {
    study
        .rows
        .iter()
        .filter(|r| {
            r.sampler == sampler
                && r.z.is_finite()
                && r.expected > 0.0
                && r.expected < r.samples as f64
        })
        .collect()
}

/// The median and 95% quantile of max |z| over `k` independent standard normals.
pub(crate) fn chance_max(k: usize) -> (f64, f64) {
    (
        max_abs_normal_quantile(k, 0.5),
        max_abs_normal_quantile(k, 0.95),
    )
}

/// One resource's pip totals: the observed share of boards as bars (coloured by z),
/// the expected share as a black tick on each.
fn resource_bars(c: &mut Canvas, area: Rect, rows: &[&FeatureRow], title: &str, sub: &str) {
    let body = heading(c, area, title, sub).inset(1.0);
    let plot = Rect::new(body.x + 4.0, body.y + 2.0, body.w - 8.0, body.h - 10.0);
    let n = rows.first().map_or(1, |r| r.samples.max(1)) as f64;
    let top = rows
        .iter()
        .map(|r| (r.observed as f64).max(r.expected) / n)
        .fold(1e-9, f64::max)
        * 1.1;
    let w = plot.w / rows.len().max(1) as f32;
    let sy = |f: f64| plot.bottom() - plot.h * (f / top) as f32;
    for (i, r) in rows.iter().enumerate() {
        let x = plot.x + w * i as f32;
        let f = r.observed as f64 / n;
        let fill = if r.z.is_finite() {
            colour(r.z)
        } else {
            colour(Z_FULL)
        };
        c.rect(
            Rect::new(x + w * 0.1, sy(f), w * 0.8, plot.bottom() - sy(f)),
            Some(fill),
            Some(Stroke::new(Color::grey(110), 0.15)),
        );
        let e = sy(r.expected / n);
        c.line(pt(x, e), pt(x + w, e), Stroke::new(Color::grey(0), 0.5));
        let k = r.feature.rsplit('=').next().unwrap_or("");
        if rows.len() <= 20 || i % 2 == 0 {
            c.text(
                x + w / 2.0,
                plot.bottom() + 3.5,
                6.0,
                Face::Regular,
                Align::Center,
                k,
            );
        }
    }
    c.line(
        pt(plot.x, plot.bottom()),
        pt(plot.right(), plot.bottom()),
        Stroke::new(Color::grey(40), 0.3),
    );
    c.text(
        plot.center().x,
        plot.bottom() + 7.5,
        6.0,
        Face::Regular,
        Align::Center,
        "pips of the resource (bars: observed share of boards; black ticks: expected)",
    );
}

fn histogram(c: &mut Canvas, area: Rect, sampler: &str, zs: &[f64], observed_max: f64) {
    let k = zs.len();
    let (m50, m95) = chance_max(k);
    let sub = format!(
        "{} features. Max |z| by chance (independent features, approx.): median {m50:.2}, 95% {m95:.2}. Observed {observed_max:.2}",
        thousands(k as u64)
    );
    let body = heading(c, area, sampler, &sub).inset(1.0);
    let plot = Plot::new(Rect::new(
        body.x + 8.0,
        body.y + 2.0,
        body.w - 10.0,
        body.h - 10.0,
    ));
    let p = plot.area;
    let span = zs
        .iter()
        .fold(4.5f64, |a, z| a.max(z.abs() + 0.5))
        .min(60.0)
        .ceil();
    let bins = 40usize;
    let width = 2.0 * span / bins as f64;
    let counts = chart::bin_symmetric(zs, span, bins);
    // The normal density, scaled to the same counts.
    let dens =
        |z: f64| k as f64 * width * (-z * z / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let top = counts
        .iter()
        .map(|&n| n as f64)
        .fold(dens(0.0), f64::max)
        .max(1.0)
        * 1.08;
    let sx = |z: f64| p.x + p.w * ((z + span) / (2.0 * span)) as f32;
    let sy = |n: f64| p.bottom() - p.h * (n / top) as f32;
    for (b, &n) in counts.iter().enumerate() {
        if n > 0 {
            let z0 = -span + b as f64 * width;
            let (xa, xb) = (sx(z0), sx(z0 + width));
            let edge = Stroke::new(Color::grey(110), 0.15);
            plot.bar(c, xa, xb - xa, sy(n as f64), Color::grey(190), Some(edge));
        }
    }
    let curve: Vec<_> = (0..=200)
        .map(|i| {
            let z = -span + 2.0 * span * i as f64 / 200.0;
            pt(sx(z), sy(dens(z)))
        })
        .collect();
    c.polyline(curve, Stroke::new(NORMAL, 0.35));
    for (m, col) in [(m50, MEDIAN_MAX), (m95, TOP_MAX)] {
        for z in [-m, m] {
            plot.vline(c, sx(z), Stroke::new(col, 0.4));
        }
    }
    let axis = Stroke::new(Color::grey(40), 0.3);
    plot.floor(c, axis);
    let step = if span <= 8.0 {
        2.0
    } else if span <= 20.0 {
        5.0
    } else {
        10.0
    };
    let mut t = -(span / step).floor() * step;
    while t <= span + 1e-9 {
        let label = format!("{t:+.0}").replace("+0", "0");
        plot.x_tick(c, sx(t), &label, 6.0, axis);
        t += step;
    }
    c.text(
        p.right(),
        p.bottom() + 7.5,
        6.0,
        Face::Regular,
        Align::Right,
        "z",
    );
    let key = [
        (2.5, NORMAL, "normal curve"),
        (5.5, MEDIAN_MAX, "median max |z|"),
        (8.5, TOP_MAX, "95% max |z|"),
    ];
    for (dy, colour, words) in key {
        c.text_colored(
            pt(p.x, p.y + dy),
            6.0,
            Face::Regular,
            Align::Left,
            colour,
            words,
        );
    }
}

/// The normal curve's colour in the histograms of z.
const NORMAL: Color = Color::rgb(30, 90, 200);
/// The colour of the median of the largest |z| by chance.
const MEDIAN_MAX: Color = Color::rgb(230, 150, 0);
/// The colour of the 95% quantile of the largest |z| by chance.
const TOP_MAX: Color = Color::rgb(200, 30, 30);

fn ecdf(c: &mut Canvas, area: Rect, ks: &KsRow, rows: &[&ReplicateRow]) {
    let sub = match ks.ks {
        Some((d, p)) => format!(
            "{} replicates; KS D = {d:.3}, {}: {}",
            thousands(ks.replicates as u64),
            p_equals(p),
            ks.verdict
        ),
        None => format!(
            "{} replicates; {}",
            thousands(ks.replicates as u64),
            ks.verdict
        ),
    };
    let body = heading(c, area, ks.sampler, &sub).inset(1.0);
    let side = (body.w - 12.0).min(body.h - 9.0).max(10.0);
    let plot = Rect::new(body.x + 8.0, body.y + 1.5, side, side);
    c.rect(plot, None, Some(Stroke::new(Color::grey(60), 0.3)));
    let sx = |v: f64| plot.x + plot.w * v as f32;
    let sy = |v: f64| plot.bottom() - plot.h * v as f32;
    c.line(
        pt(sx(0.0), sy(0.0)),
        pt(sx(1.0), sy(1.0)),
        Stroke::new(Color::grey(150), 0.3),
    );
    for v in [0.0, 0.5, 1.0] {
        let label = format!("{v}");
        c.text(
            sx(v),
            plot.bottom() + 3.8,
            6.0,
            Face::Regular,
            Align::Center,
            &label,
        );
        c.text(
            plot.x - 1.2,
            sy(v) + 0.8,
            6.0,
            Face::Regular,
            Align::Right,
            &label,
        );
    }
    c.text(
        plot.right(),
        plot.bottom() + 7.0,
        6.0,
        Face::Regular,
        Align::Right,
        "chi-square p-value",
    );
    let mut ps: Vec<f64> = rows.iter().filter_map(|r| r.p_value).collect();
    if ps.is_empty() {
        return;
    }
    ps.sort_by(f64::total_cmp);
    let n = ps.len() as f64;
    let mut line = vec![pt(sx(0.0), sy(0.0))];
    for (i, &p) in ps.iter().enumerate() {
        line.push(pt(sx(p), sy(i as f64 / n)));
        line.push(pt(sx(p), sy((i + 1) as f64 / n)));
    }
    line.push(pt(sx(1.0), sy(1.0)));
    c.polyline(line, Stroke::new(Color::rgb(200, 30, 30), 0.45));
}

/// Lay out one panel per sampler, six to a page, under a page title.
fn panel_pages<T>(
    out: &mut Vec<Canvas>,
    title: &str,
    note: &str,
    items: &[T],
    mut draw: impl FnMut(&mut Canvas, Rect, &T),
) {
    let w = PAGE.0 - 2.0 * MARGIN;
    for (page, chunk) in items.chunks(PER_PAGE).enumerate() {
        let mut c = Canvas::new();
        let mut y = MARGIN + 6.0;
        let t = if page == 0 {
            title.to_string()
        } else {
            format!("{title} (continued)")
        };
        c.text(MARGIN, y, 13.0, Face::Bold, Align::Left, &t);
        y += 6.0;
        for line in wrap(note, 8.0, Face::Regular, w) {
            c.text(MARGIN, y, 8.0, Face::Regular, Align::Left, &line);
            y += 4.0;
        }
        y += 1.0;
        let area = Rect::new(MARGIN, y, w, PAGE.1 - MARGIN - 6.0 - y);
        let rows_n = PER_PAGE / COLS;
        for (k, item) in chunk.iter().enumerate() {
            let cell = area.grid_cell(rows_n, COLS, k / COLS, k % COLS).inset(2.0);
            draw(&mut c, cell, item);
        }
        out.push(c);
    }
}

/// The report pages, each numbered "page i of n".
pub fn pages(shape: &Shape, study: &Study, seed: u64) -> Vec<Canvas> {
    let samplers: Vec<&SummaryRow> = study.summaries.iter().collect();
    let mut out = vec![first_page(shape, study, seed)];
    feature_map_pages(&mut out, shape, study, &samplers);
    worst_feature_pages(&mut out, shape, study, &samplers);
    histogram_pages(&mut out, study, &samplers);
    if !study.replicates.is_empty() {
        replicate_pages(&mut out, study);
    }
    number_pages(&mut out);
    out
}

/// Page 1: what was run, the table, how to read the rest.
fn first_page(shape: &Shape, study: &Study, seed: u64) -> Canvas {
    let w = PAGE.0 - 2.0 * MARGIN;
    let exact = study.expectations.acceptance.map(|f| f.value());
    let (samples, rules) = study
        .summaries
        .first()
        .map(|s| (s.samples, s.rules.clone()))
        .unwrap_or_default();
    let mut c = Canvas::new();
    let mut y = MARGIN + 6.0;
    c.text(
        MARGIN,
        y,
        16.0,
        Face::Bold,
        Align::Left,
        "Catan board sampling: bias report",
    );
    y += 7.0;
    let acceptance = match study.expectations.acceptance {
        Some(f) => format!(
            " Exact acceptance of a uniform random board: {f} = {:.4}.",
            f.value()
        ),
        None => String::new(),
    };
    let sub = format!(
        "{} board, rules {}, {} boards per sampler, seed {}. Expectations: {}.{acceptance}",
        shape.kind.name(),
        rules,
        thousands(samples),
        seed,
        study.expectations.source
    );
    for line in wrap(&sub, 8.5, Face::Regular, w) {
        c.text(MARGIN, y, 8.5, Face::Regular, Align::Left, &line);
        y += 4.2;
    }
    y += 4.0;
    y = summary_table(&mut c, MARGIN, y, w, &study.summaries, exact) + 2.0;
    if !study.replicates.is_empty() {
        y = replicates_table(&mut c, y, w, study);
    }
    let cells = if study.expectations.cells.is_empty() {
        "valid (red set, desert) placement".to_string()
    } else {
        study.expectations.cells.to_string()
    };
    let judges = if cells.ends_with("of the desert") {
        "where the desert goes"
    } else {
        "where the deserts and reds go"
    };
    let explain = format!("Attempts count every board drawn, the ones a rejection sampler threw away included; acceptance \
        is boards kept per attempt, beside the exact probability that a uniform board meets the rules (full rejection's \
        acceptance; a sampler that redraws only part of a board, like token-rejection, need not match it). The maps show, \
        on each hex (numbered small at its top), z = (observed - expected) / standard deviation for how often that hex \
        gets the feature, with the relative difference below it. An unbiased sampler shows pale hexes with |z| mostly \
        under 3; deep red or blue marks a hex the sampler favours or avoids. The chi-square compares how often each \
        {cells} occurs with its exact probability; p-value 0 (broke rules) means some boards \
        fell outside every valid placement, and it judges only {judges}: each resource's pip \
        total is a feature too (exact under the placement rules), where a sampler that picks balanced boards \
        (best-of-N) shows its bias. Each sampler's worst feature (largest |z|) has its own map, and the \
        histograms set the z values against the largest |z| chance alone would give. Board i of every sampler starts \
        from the same random stream, so samplers that place the desert the same way show identical desert maps.");
    for line in wrap(&explain, 8.0, Face::Regular, w) {
        c.text(MARGIN, y, 8.0, Face::Regular, Align::Left, &line);
        y += 4.0;
    }
    y += 4.0;
    c.text(MARGIN, y, 9.0, Face::Bold, Align::Left, "Colour scale");
    legend(&mut c, MARGIN + w * 0.15, y + 3.0, w * 0.7);
    c
}

/// The replicates' table under the summary table, from `y`; gives the next `y`.
fn replicates_table(c: &mut Canvas, mut y: f32, w: f32, study: &Study) -> f32 {
    y += 3.0;
    let r = study
        .replicates
        .iter()
        .map(|r| r.replicate)
        .max()
        .unwrap_or(0);
    c.text(
        MARGIN,
        y,
        9.0,
        Face::Bold,
        Align::Left,
        &format!(
            "Replicates: {} studies, each from its own seed; KS test of each sampler's chi-square p-values",
            thousands(u64::from(r))
        ),
    );
    y += 5.5;
    let cols = [
        ("sampler", 0.0),
        ("replicates", 0.125),
        ("KS D", 0.22),
        ("KS p", 0.3),
        ("verdict", 0.42),
    ];
    for (name, at) in cols {
        c.text(MARGIN + w * at, y, 7.0, Face::Bold, Align::Left, name);
    }
    c.line(
        pt(MARGIN, y + 1.5),
        pt(MARGIN + w, y + 1.5),
        Stroke::new(Color::grey(60), 0.3),
    );
    y += 5.5;
    for k in bias::ks_rows(&study.replicates) {
        let (d, p) = match k.ks {
            Some((d, p)) => (format!("{d:.3}"), p_equals(p)),
            None => ("n/a".into(), "n/a".into()),
        };
        let cells = [
            k.sampler.to_string(),
            thousands(k.replicates as u64),
            d,
            p,
            k.verdict.clone(),
        ];
        for ((_, at), text) in cols.iter().zip(cells) {
            c.text(MARGIN + w * at, y, 7.0, Face::Regular, Align::Left, &text);
        }
        y += 4.5;
    }
    y += 2.0;
    y
}

/// Maps of the same feature for every sampler.
fn feature_map_pages(
    out: &mut Vec<Canvas>,
    shape: &Shape,
    study: &Study,
    samplers: &[&SummaryRow],
) {
    for (feature, what) in [
        ("red", "Red numbers (6 and 8)"),
        ("desert", "The desert"),
        ("token=6", "The 6s"),
    ] {
        panel_pages(
            out,
            what,
            &format!("z of feature {feature} on each hex, per sampler."),
            samplers,
            |c, cell, s| {
                let rows: Vec<&FeatureRow> = study
                    .rows
                    .iter()
                    .filter(|r| r.sampler == s.sampler && r.place == "hex" && r.feature == feature)
                    .collect();
                let sub = format!(
                    "{}, max |z| = {:.1} ({})",
                    p_phrase(s),
                    s.max_abs_z,
                    s.max_abs_z_at
                );
                map(c, cell, shape, &rows, s.sampler, &sub);
            },
        );
    }
}

/// Each sampler's worst feature, whatever it is.
fn worst_feature_pages(
    out: &mut Vec<Canvas>,
    shape: &Shape,
    study: &Study,
    samplers: &[&SummaryRow],
) {
    panel_pages(
        out,
        "The worst feature of each sampler",
        "For each sampler, the map of the feature with the largest |z| anywhere (a harbor feature is drawn on the harbors, H1, H2, ...; a resource's pip total as that resource's whole distribution).",
        samplers,
        |c, cell, s| worst_panel(c, cell, shape, study, s),
    );
}

/// The panel of sampler `s`'s worst feature: a map, or a resource's pip totals.
fn worst_panel(c: &mut Canvas, cell: Rect, shape: &Shape, study: &Study, s: &SummaryRow) {
    let worst = study
        .rows
        .iter()
        .filter(|r| r.sampler == s.sampler && r.z.is_finite())
        .max_by(|a, b| a.z.abs().total_cmp(&b.z.abs()));
    match worst {
        Some(wr) => {
            let rows: Vec<&FeatureRow> = study
                .rows
                .iter()
                .filter(|r| {
                    r.sampler == s.sampler && r.place == wr.place && r.feature == wr.feature
                })
                .collect();
            let title = format!("{}: {}", s.sampler, wr.feature);
            let sub = format!(
                "worst at {} {}: z = {:+.1}, observed {} against {:.1} expected",
                wr.place,
                wr.n,
                wr.z,
                thousands(wr.observed),
                wr.expected
            );
            if wr.place == "resource" {
                // Every pip total of that resource, not only the worst one.
                let name = wr.feature.split(' ').next().unwrap_or("");
                let all: Vec<&FeatureRow> = study
                    .rows
                    .iter()
                    .filter(|r| {
                        r.sampler == s.sampler
                            && r.place == "resource"
                            && r.feature.split(' ').next() == Some(name)
                    })
                    .collect();
                resource_bars(c, cell, &all, &title, &sub);
            } else {
                map(c, cell, shape, &rows, &title, &sub);
            }
        }
        None => {
            heading(c, cell, s.sampler, "no feature with a finite z");
        }
    }
}

/// Histograms of z, one per sampler.
fn histogram_pages(out: &mut Vec<Canvas>, study: &Study, samplers: &[&SummaryRow]) {
    panel_pages(
        out,
        "Distribution of z",
        "Histogram of every feature's z per sampler, with the standard normal curve an unbiased sampler would follow, \
         and lines at +-the median and +-the 95% quantile of the largest |z| among that many independent standard \
         normals (1 - (1 - 2(1 - Phi(x)))^K = q). The features are correlated, so these lines are an approximation.",
        samplers,
        |c, cell, s| {
            let zs: Vec<f64> = z_values(study, s.sampler).iter().map(|r| r.z).collect();
            histogram(c, cell, s.sampler, &zs, s.max_abs_z);
        },
    );
}

/// Replicates: the ECDF of each sampler's chi-square p-values.
fn replicate_pages(out: &mut Vec<Canvas>, study: &Study) {
    let ks = bias::ks_rows(&study.replicates);
    panel_pages(
        out,
        "Replicates: are the chi-square p-values uniform?",
        &format!(
            "Each replicate is a complete study from its own seed. For an unbiased sampler its chi-square p-values \
             are uniform on [0, 1], so their empirical distribution function (red) follows the diagonal; the \
             Kolmogorov-Smirnov test measures the largest gap D. Verdicts: KS p < {} not uniform, < {} doubtful.",
            bias::KS_REJECT,
            bias::KS_DOUBT
        ),
        &ks,
        |c, cell, k| {
            let rows: Vec<&ReplicateRow> = study
                .replicates
                .iter()
                .filter(|r| r.sampler == k.sampler)
                .collect();
            ecdf(c, cell, k, &rows);
        },
    );
}

/// "page i of n" under every page.
fn number_pages(out: &mut [Canvas]) {
    let n = out.len();
    for (i, c) in out.iter_mut().enumerate() {
        c.text_colored(
            pt(PAGE.0 / 2.0, PAGE.1 - 7.0),
            7.5,
            Face::Regular,
            Align::Center,
            Color::grey(60),
            &format!("page {} of {}", i + 1, n),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u64), "999");
        assert_eq!(thousands(1000u64), "1,000");
        assert_eq!(thousands(1_000_000u64), "1,000,000");
        assert_eq!(thousands(12_345_678u64), "12,345,678");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn p_values_in_words() {
        assert_eq!(p_equals(0.5), "p = 0.500");
        assert_eq!(p_equals(0.0), "p < 1e-300");
        assert_eq!(p_equals(2.5e-15), "p = 2.5e-15");
    }
}
