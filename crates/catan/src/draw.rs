//! Drawing a board for the book: coloured (or greyscale-friendly) hexes, tokens with
//! their pips (6 and 8 in red), the sea frame and the harbors with their piers.

use super::board::{centre, is_red, pips, BoardKind, DESERT, HARBOR_NAMES, TERRAIN_NAMES};
use super::rules::Setup;
use ground::canvas::{
    cap_height, pt, text_width, Align, Canvas, Color, Face, Point, Rect, Stroke, MIN_LINE_MM,
    MM_PER_PT,
};

/// How terrains are filled in the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    #[default]
    /// Terrain colours (the default).
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

/// Width / height of a board drawing (island, sea frame and harbors).
pub fn aspect(kind: BoardKind) -> f32 {
    let (w, h) = extent(kind);
    w / h
}

/// Lines of words under a board, centred, wrapped to the width, at the largest size
/// from 9 pt down to the 7 pt print floor at which they fit the height (at 7 pt
/// whatever the height).
pub fn words(canvas: &mut Canvas, area: Rect, lines: &[String]) {
    use ground::canvas::{wrap, MIN_TEXT_PT, MM_PER_PT};
    let face = Face::Regular;
    let layout = |size: f32| -> Vec<String> {
        lines
            .iter()
            .flat_map(|l| wrap(l, size, face, area.w))
            .collect()
    };
    let step = |size: f32| size * 1.25 * MM_PER_PT;
    let mut size = 9.0;
    let mut wrapped = layout(size);
    while size > MIN_TEXT_PT && step(size) * wrapped.len() as f32 > area.h {
        size = (size - 0.5f32).max(MIN_TEXT_PT);
        wrapped = layout(size);
    }
    let mut y =
        area.y + (area.h - step(size) * wrapped.len() as f32).max(0.0) / 2.0 + size * MM_PER_PT;
    for l in &wrapped {
        canvas.text(area.center().x, y, size, face, Align::Center, l);
        y += step(size);
    }
}

/// The height [`words`] needs at the 7 pt floor in a box `w` mm wide.
pub(crate) fn words_height(lines: &[String], w: f32) -> f32 {
    use ground::canvas::{wrap, MIN_TEXT_PT, MM_PER_PT};
    let n: usize = lines
        .iter()
        .map(|l| wrap(l, MIN_TEXT_PT, Face::Regular, w).len())
        .sum();
    n as f32 * MIN_TEXT_PT * 1.25 * MM_PER_PT
}

/// How much larger than a land hex the sea hexes are drawn (no gaps between them).
const SEA_GROW: f32 = 1.02;
/// Room kept free on every side of the drawing, in mm (half the widest stroke).
const MARGIN: f32 = 0.4;

/// The sea frame: every position next to the island that is not land.
fn sea_ring(kind: BoardKind) -> Vec<(i32, i32)> {
    let s = kind.shape();
    let mut sea: Vec<(i32, i32)> = Vec::new();
    for &(x, y) in &s.hexes {
        for d in super::board::EDGE_DIR {
            let p = (x + d.0, y + d.1);
            if !s.hexes.contains(&p) && !sea.contains(&p) {
                sea.push(p);
            }
        }
    }
    for h in &s.harbors {
        if !sea.contains(&(h.x, h.y)) {
            sea.push((h.x, h.y));
        }
    }
    sea
}

/// Extent of the drawing in units of the hex circumradius, and the centre of the
/// island's hex positions in the same units (from the extent's top-left corner).
fn frame(kind: BoardKind) -> ((f32, f32), (f32, f32)) {
    let s = kind.shape();
    let r3 = 3f32.sqrt();
    let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    for &(x, y) in sea_ring(kind).iter().chain(&s.hexes) {
        let (cx, cy) = centre(x, y);
        let (cx, cy) = (cx as f32 * r3, cy as f32 * r3);
        x0 = x0.min(cx - r3 / 2.0 * SEA_GROW);
        x1 = x1.max(cx + r3 / 2.0 * SEA_GROW);
        y0 = y0.min(cy - SEA_GROW);
        y1 = y1.max(cy + SEA_GROW);
    }
    ((x1 - x0, y1 - y0), (-x0, -y0))
}

fn extent(kind: BoardKind) -> (f32, f32) {
    frame(kind).0
}

/// The corners of a pointy-topped hexagon of circumradius r around c.
pub(crate) fn hexagon(c: Point, r: f32) -> Vec<Point> {
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

fn stroke(color: Color, width: f32) -> Stroke {
    Stroke::new(color, width.max(MIN_LINE_MM))
}

/// Text sizes for a board whose hexes have circumradius `r` (mm): the largest that fit,
/// at most 11 pt. Below 7 pt the drawing is too small to print (the book grows it).
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Terrain names on the hexes.
    pub label: f32,
    /// The harbor's two lines ("2:1" over "sheep").
    pub harbor: f32,
}

/// The widest of the terrain names, in mm at 1 pt.
fn widest(words: &[&str], face: Face) -> f32 {
    words
        .iter()
        .map(|w| text_width(w, 1.0, face))
        .fold(0.0, f32::max)
}

/// Font sizes (pt) of the labels on a hex of radius `r` mm, capped at 11 pt.
fn sizes(r: f32) -> Sizes {
    let label = (1.45 * r / widest(&TERRAIN_NAMES, Face::Regular)).min(11.0);
    let rates = widest(&["2:1", "3:1"], Face::Bold);
    let words = widest(
        &["any", "wheat", "wood", "sheep", "clay", "rock"],
        Face::Regular,
    );
    let harbor = (1.36 * r / rates.max(words)).min(11.0);
    Sizes { label, harbor }
}

/// Draw a whole board (hexes, tokens, harbors) fitted into `area`.
pub(crate) fn board(canvas: &mut Canvas, area: Rect, kind: BoardKind, b: &Setup, style: Style) {
    let s = kind.shape();
    let ((ew, eh), (ox, oy)) = frame(kind);
    let inner = area.inset(MARGIN);
    let r = (inner.w / ew).min(inner.h / eh);
    let r3 = 3f32.sqrt();
    // The drawing's top-left corner, centring it in the area.
    let left = area.x + (area.w - ew * r) / 2.0;
    let top = area.y + (area.h - eh * r) / 2.0;
    let at = |x: i32, y: i32| {
        let (cx, cy) = centre(x, y);
        pt(
            left + (ox + cx as f32 * r3) * r,
            top + (oy + cy as f32 * r3) * r,
        )
    };
    let size = sizes(r);
    // Sea behind the island and the harbor ring.
    if style == Style::Colour {
        for (x, y) in sea_ring(kind) {
            canvas.polygon(hexagon(at(x, y), r * SEA_GROW), Some(SEA), None);
        }
    }
    for (i, &(x, y)) in s.hexes.iter().enumerate() {
        land_hex(canvas, at(x, y), r, b.terrain[i], b.token[i], style, size);
    }
    for (p, h) in s.harbors.iter().enumerate() {
        harbor(
            canvas,
            at(h.x, h.y),
            r,
            b.harbor[p],
            [h.piers.0, h.piers.1],
            size,
        );
    }
}

/// One land hex: its terrain (colour, or grey with a pattern), its name, and its
/// number token.
pub(crate) fn land_hex(
    canvas: &mut Canvas,
    c: Point,
    r: f32,
    terrain: u8,
    token: u8,
    style: Style,
    size: Sizes,
) {
    let t = terrain as usize;
    let fills = if style == Style::Colour {
        COLOURS
    } else {
        GREYS
    };
    let edge = stroke(Color::grey(40), (r * 0.04).min(0.6));
    canvas.polygon(hexagon(c, r), Some(fills[t]), Some(edge));
    // Every hex carries its terrain's name, in colour too: a reader who cannot tell
    // the greens apart, or a black-and-white print, still reads the board.
    let labelled = true;
    let tr = r * 0.4;
    // With a name on the hex, the name sits on the middle line and the token below it.
    let (label_base, token_c) = match (labelled, token) {
        (true, 0) => (c.y + cap_height(size.label) / 2.0, c),
        (true, _) => (c.y - r * 0.12, pt(c.x, c.y + r * 0.42)),
        (false, _) => (c.y, c),
    };
    if style == Style::Greyscale {
        let label = labelled.then(|| {
            let w = text_width(TERRAIN_NAMES[t], size.label, Face::Regular);
            Rect::new(
                c.x - w / 2.0,
                label_base - cap_height(size.label),
                w,
                cap_height(size.label) * 1.35,
            )
        });
        pattern(
            canvas,
            c,
            r,
            terrain,
            (token != 0).then_some((token_c, tr)),
            label,
        );
    }
    if labelled {
        canvas.text(
            c.x,
            label_base,
            size.label,
            Face::Regular,
            Align::Center,
            TERRAIN_NAMES[t],
        );
    }
    if token != 0 {
        number_token(canvas, token_c, tr, token);
    }
}

/// A number token: the number (6 and 8 in red, bold) and one dot per way to roll it.
fn number_token(canvas: &mut Canvas, c: Point, tr: f32, token: u8) {
    canvas.circle(
        c,
        tr,
        Some(Color::rgb(250, 244, 225)),
        Some(stroke(Color::grey(60), tr * 0.05)),
    );
    let red = is_red(token);
    let colour = if red { RED } else { Color::BLACK };
    let size = tr * 1.15 / MM_PER_PT;
    let face = if red { Face::Bold } else { Face::Regular };
    canvas.text_colored(
        pt(c.x, c.y + tr * 0.25),
        size,
        face,
        Align::Center,
        colour,
        &token.to_string(),
    );
    let p = pips(token);
    let dot = tr * 0.09;
    let gap = dot * 2.6;
    for k in 0..p {
        let dx = (k as f32 - (p as f32 - 1.0) / 2.0) * gap;
        canvas.circle(pt(c.x + dx, c.y + tr * 0.58), dot, Some(colour), None);
    }
}

/// A harbor on its sea hex: a white disc with the rate over the resource, and two
/// piers to the corners of the land that use it.
pub(crate) fn harbor(canvas: &mut Canvas, c: Point, r: f32, kind: u8, piers: [u8; 2], size: Sizes) {
    let pier = stroke(Color::rgb(120, 80, 40), r * 0.09);
    for k in piers {
        let end = corner(c, r, k);
        // The stroke's half width stays inside the hex (its ends are the hex corners).
        let end = pt(c.x + (end.x - c.x) * 0.96, c.y + (end.y - c.y) * 0.96);
        canvas.line(c, end, pier);
    }
    let kind = kind as usize;
    let (top, bottom) = if kind == 0 {
        ("3:1", "any")
    } else {
        ("2:1", HARBOR_NAMES[kind])
    };
    // The disc just holds the two lines (the piers show around it), within the hex.
    let w = text_width(top, size.harbor, Face::Bold).max(text_width(
        bottom,
        size.harbor,
        Face::Regular,
    ));
    let h = cap_height(size.harbor) * 2.9;
    let disc = ((w / 2.0).hypot(h / 2.0) * 1.05).clamp(r * 0.45, r * 0.8);
    canvas.circle(
        c,
        disc,
        Some(Color::WHITE),
        Some(stroke(Color::grey(60), r * 0.03)),
    );
    let cap = cap_height(size.harbor);
    let gap = cap * 0.45;
    canvas.text(
        c.x,
        c.y - gap / 2.0,
        size.harbor,
        Face::Bold,
        Align::Center,
        top,
    );
    canvas.text(
        c.x,
        c.y + gap / 2.0 + cap,
        size.harbor,
        Face::Regular,
        Align::Center,
        bottom,
    );
}

/// Small marks that tell terrains apart without colour: wheat strokes, wood trees,
/// sheep rings, clay bricks, rock peaks; placed on a grid inside the hex, clear of the
/// token (centre and radius) and the name (its box).
fn pattern(
    canvas: &mut Canvas,
    c: Point,
    r: f32,
    terrain: u8,
    token: Option<(Point, f32)>,
    label: Option<Rect>,
) {
    if terrain == DESERT {
        return;
    }
    let ink = stroke(Color::grey(30), r * 0.035);
    let step = r * 0.3;
    let s = step * 0.3;
    for i in -4i32..=4 {
        for j in -4i32..=4 {
            let p = pt(
                c.x + (i as f32 + if j % 2 == 0 { 0.0 } else { 0.5 }) * step,
                c.y + j as f32 * step * 0.87,
            );
            let (dx, dy) = (p.x - c.x, p.y - c.y);
            if (dx * dx + dy * dy).sqrt() > r * 0.8 {
                continue;
            }
            if let Some((tc, tr)) = token {
                let (ex, ey) = (p.x - tc.x, p.y - tc.y);
                if (ex * ex + ey * ey).sqrt() < tr + s * 1.5 {
                    continue;
                }
            }
            if let Some(b) = label {
                let m = s * 1.4;
                if p.x > b.x - m && p.x < b.right() + m && p.y > b.y - m && p.y < b.bottom() + m {
                    continue;
                }
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

/// The key for the "How to play" page: a land hex with its number token, a harbor with
/// its rate and piers, and the six terrains, each with a few words.
pub(crate) fn legend(canvas: &mut Canvas, area: Rect, style: Style) {
    let text_pt = (area.w / 125.0 * 9.5).clamp(7.5, 10.5);
    let r = (area.h * 0.13).min(area.w * 0.1).min(14.0);
    let pic_w = 2.0 * r;
    let col = Rect::new(
        area.x + pic_w + r * 0.6,
        area.y,
        area.w - pic_w - r * 0.6,
        area.h,
    );
    let hex_text = format!(
        "A wheat hex with its number token: when the dice roll 8, it yields wheat. The dots \
         count the ways two dice make the number: 5 for 6 and 8 ({}, the most likely), down \
         to 1 for 2 and 12.",
        if style == Style::Colour {
            "in red"
        } else {
            "in bold"
        }
    );
    let harbor_text = "A harbor: a settlement on either pier’s corner trades there. \
                       2:1 sheep: 2 sheep for any 1 resource. 3:1 any: 3 of one resource \
                       for any 1.";
    let mut y = area.y;
    // The land hex.
    let block = |canvas: &mut Canvas, y: f32, text: &str| {
        let h = canvas.paragraph(
            Rect::new(col.x, y, col.w, area.bottom() - y),
            text_pt,
            Face::Regular,
            text,
        );
        h.max(2.0 * r)
    };
    let size = sizes(r);
    let h = block(canvas, y + r * 0.2, &hex_text);
    land_hex(canvas, pt(area.x + r, y + r * 1.05), r, 0, 8, style, size);
    y += h + r * 0.5;
    // The harbor on its sea hex, piers towards the land up and to the right.
    let c = pt(area.x + r, y + r * 1.05);
    let sea = if style == Style::Colour {
        (Some(SEA), None)
    } else {
        (None, Some(stroke(Color::grey(120), r * 0.02)))
    };
    canvas.polygon(hexagon(c, r), sea.0, sea.1);
    harbor(canvas, c, r, 3, [2, 3], size);
    let h = block(canvas, y + r * 0.2, harbor_text);
    y += h + r * 0.5;
    // The six terrains in a row, named (under the hex when the hex has no name on it).
    let n = TERRAIN_NAMES.len() as f32;
    let rs = (area.w / n / 2.0 * 0.8).min(r * 0.8);
    let name_pt = text_pt.min(sizes(rs).label.max(7.0));
    for (t, name) in TERRAIN_NAMES.iter().enumerate() {
        let cx = area.x + area.w / n * (t as f32 + 0.5);
        let c = pt(cx, y + rs);
        land_hex(canvas, c, rs, t as u8, 0, style, sizes(rs));
        let named = style == Style::Greyscale || t as u8 == DESERT;
        if !named {
            canvas.text(
                cx,
                y + 2.0 * rs + name_pt * MM_PER_PT * 1.1,
                name_pt,
                Face::Regular,
                Align::Center,
                name,
            );
        }
    }
}
