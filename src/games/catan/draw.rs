//! Drawing a board for the book: coloured (or greyscale-friendly) hexes, tokens with
//! their pips (6 and 8 in red), the sea frame and the harbors with their piers.

use super::board::{centre, pips, BoardKind, DESERT, HARBOR_NAMES, TERRAIN_NAMES};
use super::rules::Layout;
use crate::canvas::{pt, Align, Canvas, Color, Face, Point, Rect, Stroke, MM_PER_PT};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    #[default]
    Colour,
    /// Grey fills told apart by their labels, for black-and-white printing.
    Greyscale,
}

const COLOURS: [Color; 6] = [
    Color::rgb(233, 196, 84),  // wheat
    Color::rgb(46, 112, 58),   // wood
    Color::rgb(150, 201, 96),  // sheep
    Color::rgb(190, 92, 52),   // clay
    Color::rgb(132, 136, 148), // rock
    Color::rgb(228, 212, 168), // desert
];
const GREYS: [Color; 6] = [
    Color::grey(235),
    Color::grey(150),
    Color::grey(205),
    Color::grey(120),
    Color::grey(175),
    Color::grey(250),
];
const SEA: Color = Color::rgb(168, 205, 232);
const RED: Color = Color::rgb(200, 24, 24);

/// Width / height of a board drawing (island plus the harbor ring).
pub fn aspect(kind: BoardKind) -> f32 {
    let (w, h) = extent(kind);
    w / h
}

/// Extent in units of the hex circumradius.
fn extent(kind: BoardKind) -> (f32, f32) {
    let s = kind.shape();
    let r3 = 3f32.sqrt();
    let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    for &(x, y) in s
        .harbors
        .iter()
        .map(|h| (h.x, h.y))
        .collect::<Vec<_>>()
        .iter()
        .chain(&s.hexes)
    {
        let (cx, cy) = centre(x, y);
        let (cx, cy) = (cx as f32 * r3, cy as f32 * r3);
        x0 = x0.min(cx - r3 / 2.0);
        x1 = x1.max(cx + r3 / 2.0);
        y0 = y0.min(cy - 1.0);
        y1 = y1.max(cy + 1.0);
    }
    (x1 - x0, y1 - y0)
}

/// The corners of a pointy-topped hexagon of circumradius r around c.
pub fn hexagon(c: Point, r: f32) -> Vec<Point> {
    (0..6)
        .map(|k| {
            let a = std::f32::consts::PI / 2.0 + k as f32 * std::f32::consts::PI / 3.0;
            pt(c.x + r * a.cos(), c.y + r * a.sin())
        })
        .collect()
}

/// Corner k of the spec (0 bottom, 1 lower right, ... 5 lower left); y grows downwards.
fn corner(c: Point, r: f32, k: u8) -> Point {
    let a = std::f32::consts::PI / 2.0 - f32::from(k) * std::f32::consts::PI / 3.0;
    pt(c.x + r * a.cos(), c.y + r * a.sin())
}

pub fn board(canvas: &mut Canvas, area: Rect, kind: BoardKind, b: &Layout, style: Style) {
    let s = kind.shape();
    let (ew, eh) = extent(kind);
    let r = (area.w / ew).min(area.h / eh);
    let r3 = 3f32.sqrt();
    // Centre of the island in units, to centre the drawing.
    let (mut sx, mut sy) = (0.0, 0.0);
    for &(x, y) in &s.hexes {
        let (cx, cy) = centre(x, y);
        sx += cx as f32;
        sy += cy as f32;
    }
    let n = s.hexes.len() as f32;
    let mid = area.center();
    let at = |x: i32, y: i32| {
        let (cx, cy) = centre(x, y);
        pt(
            mid.x + (cx as f32 - sx / n) * r3 * r,
            mid.y + (cy as f32 - sy / n) * r3 * r,
        )
    };
    let fills = if style == Style::Colour {
        COLOURS
    } else {
        GREYS
    };
    // Sea behind the island and the harbor ring.
    if style == Style::Colour {
        for h in &s.harbors {
            canvas.polygon(hexagon(at(h.x, h.y), r * 1.02), Some(SEA), None);
        }
        for &(x, y) in &s.hexes {
            for d in super::board::EDGE_DIR {
                canvas.polygon(hexagon(at(x + d.0, y + d.1), r * 1.02), Some(SEA), None);
            }
        }
    }
    let edge = Stroke::new(Color::grey(40), (r * 0.04).clamp(0.2, 0.6));
    for (i, &(x, y)) in s.hexes.iter().enumerate() {
        let c = at(x, y);
        let t = b.terrain[i] as usize;
        canvas.polygon(hexagon(c, r), Some(fills[t]), Some(edge));
        if style == Style::Greyscale {
            pattern(canvas, c, r, t as u8);
        }
        if style == Style::Greyscale || t == DESERT as usize {
            let size = (r * 0.55 / MM_PER_PT).min(9.0);
            canvas.text(
                c.x,
                c.y - r * 0.55,
                size,
                Face::Regular,
                Align::Center,
                TERRAIN_NAMES[t],
            );
        }
        let token = b.token[i];
        if token == 0 {
            continue;
        }
        let tr = r * 0.36;
        canvas.circle(
            c,
            tr,
            Some(Color::rgb(250, 244, 225)),
            Some(Stroke::new(Color::grey(60), (r * 0.02).max(0.15))),
        );
        let red = token == 6 || token == 8;
        let colour = if red { RED } else { Color::BLACK };
        let size = tr * 1.05 / MM_PER_PT;
        let face = if red { Face::Bold } else { Face::Regular };
        canvas.text_colored(
            c.x,
            c.y + tr * 0.2,
            size,
            face,
            Align::Center,
            colour,
            &token.to_string(),
        );
        // Pips: one dot per way to roll the number.
        let p = pips(token);
        let dot = tr * 0.09;
        let gap = dot * 2.6;
        for k in 0..p {
            let dx = (k as f32 - (p as f32 - 1.0) / 2.0) * gap;
            canvas.circle(pt(c.x + dx, c.y + tr * 0.55), dot, Some(colour), None);
        }
    }
    for (p, h) in s.harbors.iter().enumerate() {
        let c = at(h.x, h.y);
        let pier = Stroke::new(Color::rgb(120, 80, 40), (r * 0.09).max(0.3));
        for k in [h.piers.0, h.piers.1] {
            let end = corner(c, r, k);
            canvas.line(
                pt(c.x + (end.x - c.x) * 0.35, c.y + (end.y - c.y) * 0.35),
                end,
                pier,
            );
        }
        canvas.circle(
            c,
            r * 0.36,
            Some(Color::WHITE),
            Some(Stroke::new(Color::grey(60), (r * 0.03).max(0.15))),
        );
        let kind = b.harbor[p] as usize;
        let size = (r * 0.28 / MM_PER_PT).min(8.0);
        let (top, bottom) = if kind == 0 {
            ("3:1", "any")
        } else {
            ("2:1", HARBOR_NAMES[kind])
        };
        canvas.text(c.x, c.y - r * 0.02, size, Face::Bold, Align::Center, top);
        canvas.text(
            c.x,
            c.y + r * 0.24,
            size * 0.85,
            Face::Regular,
            Align::Center,
            bottom,
        );
    }
}

/// Small marks that tell terrains apart without colour: wheat strokes, wood trees,
/// sheep rings, clay bricks, rock peaks; placed on a grid inside the hex, around the
/// token and the label.
fn pattern(canvas: &mut Canvas, c: Point, r: f32, terrain: u8) {
    if terrain == DESERT {
        return;
    }
    let ink = Stroke::new(Color::grey(30), (r * 0.035).max(0.12));
    let step = r * 0.3;
    let s = step * 0.3;
    for i in -3i32..=3 {
        for j in -3i32..=3 {
            let p = pt(
                c.x + (i as f32 + if j % 2 == 0 { 0.0 } else { 0.5 }) * step,
                c.y + j as f32 * step * 0.87,
            );
            let (dx, dy) = (p.x - c.x, p.y - c.y);
            let d = (dx * dx + dy * dy).sqrt();
            // Inside the hex's inscribed circle, clear of the token and the label.
            if d > r * 0.78 || d < r * 0.45 || (dy < -r * 0.35 && dx.abs() < r * 0.5) {
                continue;
            }
            match terrain {
                0 => canvas.line(pt(p.x - s, p.y + s), pt(p.x + s, p.y - s), ink),
                1 => canvas.polygon(
                    vec![
                        pt(p.x, p.y - s),
                        pt(p.x + s * 0.8, p.y + s),
                        pt(p.x - s * 0.8, p.y + s),
                    ],
                    Some(Color::grey(40)),
                    None,
                ),
                2 => canvas.circle(p, s * 0.6, None, Some(ink)),
                3 => canvas.rect(
                    Rect::new(p.x - s, p.y - s * 0.5, 2.0 * s, s),
                    None,
                    Some(ink),
                ),
                _ => canvas.polyline(
                    vec![
                        pt(p.x - s, p.y + s * 0.6),
                        pt(p.x, p.y - s * 0.6),
                        pt(p.x + s, p.y + s * 0.6),
                    ],
                    ink,
                ),
            }
        }
    }
}
