//! The bias report: for each sampler, hex maps coloured by how far each hex's observed
//! frequency sits from its exact expectation (z-score), with the numbers on the hexes,
//! beside the summary table. Drawn on canvases; the book engine writes the PDF.

use super::bias::{FeatureRow, Study, SummaryRow};
use super::board::{centre, Shape};
use super::draw::hexagon;
use crate::canvas::{pt, wrap, Align, Canvas, Color, Face, Rect, Stroke, MM_PER_PT};

/// A4 portrait, in mm.
pub const PAGE: (f32, f32) = (210.0, 297.0);
const MARGIN: f32 = 14.0;
/// |z| at which the colour saturates.
const Z_FULL: f64 = 10.0;

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

/// One map: the hexes of `shape` coloured by the z of `feature` for `sampler`.
fn map(c: &mut Canvas, area: Rect, shape: &Shape, rows: &[&FeatureRow], title: &str, sub: &str) {
    c.text(area.x, area.y + 4.0, 9.0, Face::Bold, Align::Left, title);
    c.text_colored(
        area.x,
        area.y + 8.5,
        7.0,
        Face::Regular,
        Align::Left,
        Color::grey(80),
        sub,
    );
    let body = Rect::new(area.x, area.y + 11.0, area.w, area.h - 11.0);
    let r3 = 3f32.sqrt();
    let pts: Vec<(f32, f32)> = shape
        .hexes
        .iter()
        .map(|&(x, y)| {
            let (cx, cy) = centre(x, y);
            (cx as f32 * r3, cy as f32 * r3)
        })
        .collect();
    let (x0, x1) = pts
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = pts
        .iter()
        .fold((f32::MAX, f32::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let r = (body.w / (x1 - x0 + r3)).min(body.h / (y1 - y0 + 2.0));
    let mid = body.center();
    let (cx0, cy0) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    for (h, &(px, py)) in pts.iter().enumerate() {
        let Some(row) = rows.iter().find(|row| row.n == h + 1) else {
            continue;
        };
        let c0 = pt(mid.x + (px - cx0) * r, mid.y + (py - cy0) * r);
        c.polygon(
            hexagon(c0, r * 0.98),
            Some(colour(row.z)),
            Some(Stroke::new(Color::grey(90), 0.2)),
        );
        let size = (r * 0.42 / MM_PER_PT).min(9.0);
        c.text(
            c0.x,
            c0.y + size * MM_PER_PT * 0.1,
            size,
            Face::Bold,
            Align::Center,
            &format!("{:+.1}", row.z),
        );
        let rel = if row.expected > 0.0 {
            row.observed as f64 / row.expected - 1.0
        } else {
            0.0
        };
        c.text(
            c0.x,
            c0.y + r * 0.5,
            size * 0.7,
            Face::Regular,
            Align::Center,
            &format!("{:+.1}%", rel * 100.0),
        );
    }
}

fn fmt_p(p: Option<f64>) -> String {
    match p {
        None => "n/a".into(),
        Some(p) if p < 1e-300 => "< 1e-300".into(),
        Some(p) if p < 0.001 => format!("{p:.1e}"),
        Some(p) => format!("{p:.3}"),
    }
}

fn summary_table(c: &mut Canvas, x: f32, mut y: f32, w: f32, rows: &[SummaryRow]) -> f32 {
    let cols = [
        ("sampler", 0.0),
        ("acceptance", 0.2),
        ("chi-square (df)", 0.34),
        ("p-value", 0.56),
        ("max |z|", 0.68),
        ("where", 0.78),
    ];
    for (name, at) in cols {
        c.text(x + w * at, y, 8.0, Face::Bold, Align::Left, name);
    }
    c.line(
        pt(x, y + 1.5),
        pt(x + w, y + 1.5),
        Stroke::new(Color::grey(60), 0.3),
    );
    y += 6.0;
    for s in rows {
        let chi = match (s.chi_square, s.df) {
            (Some(v), Some(d)) => format!("{v:.0} ({d})"),
            _ => "n/a".into(),
        };
        let cells = [
            s.sampler.to_string(),
            format!("{:.4}", s.acceptance_rate),
            chi,
            fmt_p(s.p_value),
            format!("{:.1}", s.max_abs_z),
            s.max_abs_z_at.clone(),
        ];
        for ((_, at), text) in cols.iter().zip(cells) {
            c.text(x + w * at, y, 8.0, Face::Regular, Align::Left, &text);
        }
        y += 5.0;
    }
    y
}

fn legend(c: &mut Canvas, x: f32, y: f32, w: f32) {
    let steps = 21;
    for k in 0..steps {
        let z = -Z_FULL + 2.0 * Z_FULL * k as f64 / (steps - 1) as f64;
        let sw = w / steps as f32;
        c.rect(
            Rect::new(x + k as f32 * sw, y, sw, 4.0),
            Some(colour(z)),
            None,
        );
    }
    c.rect(
        Rect::new(x, y, w, 4.0),
        None,
        Some(Stroke::new(Color::grey(90), 0.2)),
    );
    c.text(
        x,
        y + 8.0,
        7.0,
        Face::Regular,
        Align::Left,
        "z <= -10 (fewer than expected)",
    );
    c.text(x + w / 2.0, y + 8.0, 7.0, Face::Regular, Align::Center, "0");
    c.text(
        x + w,
        y + 8.0,
        7.0,
        Face::Regular,
        Align::Right,
        "z >= +10 (more than expected)",
    );
}

/// The report pages.
pub fn pages(shape: &Shape, study: &Study, seed: u64) -> Vec<Canvas> {
    let w = PAGE.0 - 2.0 * MARGIN;
    let mut out = Vec::new();
    let samplers: Vec<&SummaryRow> = study.summaries.iter().collect();
    let first = samplers
        .first()
        .map(|s| (s.samples, s.rules.clone()))
        .unwrap_or_default();
    for (page, feature, what) in [
        (0, "red", "Red numbers (6 and 8)"),
        (1, "desert", "The desert"),
        (2, "token=6", "The 6s"),
    ] {
        let mut c = Canvas::new();
        let mut y = MARGIN + 6.0;
        if page == 0 {
            c.text(
                MARGIN,
                y,
                16.0,
                Face::Bold,
                Align::Left,
                "Catan board sampling: bias report",
            );
            y += 7.0;
            let sub = format!(
                "{} board, rules {}, {} boards per sampler, seed {}. Expectations: {}.",
                shape.kind.name(),
                first.1,
                first.0,
                seed,
                study.expectations.source
            );
            for line in wrap(&sub, 8.5, Face::Regular, w) {
                c.text(MARGIN, y, 8.5, Face::Regular, Align::Left, &line);
                y += 4.2;
            }
            y += 4.0;
            y = summary_table(&mut c, MARGIN, y, w, &study.summaries) + 2.0;
            let explain = "Each hex shows z = (observed - expected) / standard deviation for how often that hex gets the feature, \
                with the relative difference below it. Expectations are exact (uniform over every valid board). An unbiased \
                sampler shows pale hexes with |z| mostly under 3; deep red or blue marks a hex the sampler favours or avoids. \
                The chi-square compares how often each valid (red set, desert) placement occurs with its exact probability. \
                Board i of every sampler starts from the same random stream, so samplers that place the desert the same \
                way show identical desert maps.";
            for line in wrap(explain, 8.0, Face::Regular, w) {
                c.text(MARGIN, y, 8.0, Face::Regular, Align::Left, &line);
                y += 4.0;
            }
            y += 2.0;
        } else {
            c.text(
                MARGIN,
                y,
                13.0,
                Face::Bold,
                Align::Left,
                &format!("Bias report: {}", what.to_lowercase()),
            );
            y += 8.0;
        }
        legend(&mut c, MARGIN + w * 0.15, y, w * 0.7);
        y += 13.0;
        c.text(MARGIN, y, 11.0, Face::Bold, Align::Left, what);
        y += 3.0;
        let area = Rect::new(MARGIN, y, w, PAGE.1 - MARGIN - y);
        let cols = 2;
        let rows_n = samplers.len().div_ceil(cols).max(1);
        for (k, s) in samplers.iter().enumerate() {
            let cell = area.grid_cell(rows_n, cols, k / cols, k % cols).inset(2.0);
            let rows: Vec<&FeatureRow> = study
                .rows
                .iter()
                .filter(|r| r.sampler == s.sampler && r.place == "hex" && r.feature == feature)
                .collect();
            let sub = format!(
                "p = {}, max |z| = {:.1} ({})",
                fmt_p(s.p_value),
                s.max_abs_z,
                s.max_abs_z_at
            );
            map(&mut c, cell, shape, &rows, s.sampler, &sub);
        }
        out.push(c);
    }
    out
}
