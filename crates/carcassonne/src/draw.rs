//! Drawing a landscape: tiles on a grid, cities as filled brown areas with a darker
//! wall line, roads as white lines with dark borders, monasteries as a small building,
//! fields green, empty squares blank. Answers mark what is complete: closed cities
//! dark with a heavy black wall, finished roads solid black, surrounded monasteries
//! ringed in black (all readable in greyscale).

use super::score::Marks;
use super::tiles::{Landscape, Tile, CITY, ROAD};
use ground::canvas::{
    cap_height, pt, text_width, Align, Canvas, Color, Face, Point, Rect, Stroke, MIN_LINE_MM,
    MM_PER_PT,
};

const FIELD: Color = Color::rgb(170, 205, 120);
const CITY_FILL: Color = Color::rgb(196, 150, 92);
const CITY_CLOSED: Color = Color::rgb(120, 72, 32);
const WALL: Color = Color::rgb(110, 70, 30);
const ROAD_EDGE: Color = Color::rgb(90, 90, 90);

/// Room kept around the grid, in tile sides (strokes on the outer edges stay inside).
const PAD: f32 = 0.15;

/// Width / height of a landscape drawing.
pub fn aspect(l: &Landscape) -> f32 {
    let (w, h) = units(l);
    w / h
}

/// The drawing's size in tiles (the landscape and its margin).
pub fn units(l: &Landscape) -> (f32, f32) {
    (l.cols as f32 + 2.0 * PAD, l.rows as f32 + 2.0 * PAD)
}

/// A stroke no thinner than the print limit.
fn stroke(color: Color, width: f32) -> Stroke {
    Stroke::new(color, width.max(MIN_LINE_MM))
}

/// The grid's tile side and top-left corner when drawn in `area`.
pub fn grid(area: Rect, l: &Landscape) -> (f32, Point) {
    let s = (area.w / (l.cols as f32 + 2.0 * PAD)).min(area.h / (l.rows as f32 + 2.0 * PAD));
    let x0 = area.x + (area.w - s * l.cols as f32) / 2.0;
    let y0 = area.y + (area.h - s * l.rows as f32) / 2.0;
    (s, pt(x0, y0))
}

/// Draw a landscape; with `marks` (one per square), complete features are marked, and
/// with `labels` each scored feature shows its points.
pub fn landscape(
    canvas: &mut Canvas,
    area: Rect,
    l: &Landscape,
    marks: Option<&[Marks]>,
    labels: &[super::score::Label],
) {
    let (s, o) = grid(area, l);
    for r in 0..l.rows {
        for c in 0..l.cols {
            let cell = Rect::new(o.x + c as f32 * s, o.y + r as f32 * s, s, s);
            let sq = r * l.cols + c;
            match l.squares[sq] {
                Some(t) => {
                    let m = marks.map(|m| m[sq]).unwrap_or_default();
                    tile(canvas, cell, t, m)
                }
                None => canvas.rect(
                    cell.inset(s * 0.04),
                    None,
                    Some(stroke(Color::grey(215), s * 0.01)),
                ),
            }
        }
    }
    // Points: a white disc with the number, just inside the edge the feature
    // reaches (a monastery's in the middle of its square).
    for lb in labels {
        let (r, c) = (lb.square / l.cols, lb.square % l.cols);
        let cell = Rect::new(o.x + c as f32 * s, o.y + r as f32 * s, s, s);
        let (u, v) = match lb.edge {
            Some(0) => (0.5, 0.22),
            Some(1) => (0.78, 0.5),
            Some(2) => (0.5, 0.78),
            Some(_) => (0.22, 0.5),
            // A monastery's points sit in the corner, off its icon.
            None => (0.78, 0.78),
        };
        let centre = at(cell, u, v);
        // A third of a tile across, and never so small that two figures go under
        // 7 pt (on a landscape too wide for the page the discs grow past a third).
        let radius = (s * DISC_SHARE).max(MIN_DISC_MM);
        canvas.circle(
            centre,
            radius,
            Some(Color::WHITE),
            Some(stroke(Color::BLACK, s * 0.02)),
        );
        let text = lb.points.to_string();
        let size = radius * if text.len() > 1 { 1.05 } else { 1.35 } / ground::canvas::MM_PER_PT;
        canvas.text(
            centre.x,
            centre.y + radius * 0.42,
            size,
            ground::canvas::Face::Bold,
            ground::canvas::Align::Center,
            &text,
        );
    }
}

/// A points disc's radius as a share of the tile.
pub(crate) const DISC_SHARE: f32 = 0.17;
/// The smallest disc radius, in mm: two figures at 7 pt (a figure is sized 1.05 x the
/// radius for two digits).
pub(crate) const MIN_DISC_MM: f32 = 7.0 * ground::canvas::MM_PER_PT / 1.05 + 0.01;

/// The point at fraction (u, v) of a cell (0..1 each, v down).
fn at(cell: Rect, u: f32, v: f32) -> Point {
    pt(cell.x + u * cell.w, cell.y + v * cell.h)
}

/// Corner fractions of edge d (N, E, S, W): start and end, clockwise.
fn edge_ends(d: usize) -> ((f32, f32), (f32, f32)) {
    match d {
        0 => ((0.0, 0.0), (1.0, 0.0)),
        1 => ((1.0, 0.0), (1.0, 1.0)),
        2 => ((1.0, 1.0), (0.0, 1.0)),
        _ => ((0.0, 1.0), (0.0, 0.0)),
    }
}

/// One tile in `cell`: its field, cities, roads and monastery, with `m`'s marks.
fn tile(canvas: &mut Canvas, cell: Rect, t: Tile, m: Marks) {
    canvas.rect(
        cell,
        Some(FIELD),
        Some(stroke(Color::grey(80), cell.w * 0.01)),
    );
    let city_edges: Vec<usize> = (0..4).filter(|&d| t.edges[d] == CITY).collect();
    if t.cities == 1 && city_edges.len() >= 2 {
        one_city(
            canvas,
            cell,
            t,
            m.closed_city[city_edges[0]],
            city_edges.len(),
        );
    } else {
        // Each city edge its own cap.
        for &d in &city_edges {
            let ((u0, v0), (u1, v1)) = edge_ends(d);
            let (mu, mv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
            let tip = at(cell, 0.5 + (mu - 0.5) * 0.35, 0.5 + (mv - 0.5) * 0.35);
            let (a, b) = (at(cell, u0, v0), at(cell, u1, v1));
            let closed = m.closed_city[d];
            canvas.polygon(vec![a, b, tip], city_fill(closed), None);
            canvas.polyline(vec![b, tip, a], city_wall(cell, closed));
        }
    }
    roads(canvas, cell, t, m);
    if t.is_monastery() {
        monastery(canvas, cell, m.surrounded_monastery);
    }
}

/// A city's wall: heavy black when `closed`, else thin brown.
fn city_wall(cell: Rect, closed: bool) -> Stroke {
    if closed {
        stroke(Color::BLACK, (cell.w * 0.08).max(0.35))
    } else {
        stroke(WALL, cell.w * 0.03)
    }
}

/// A city's fill: dark when `closed`.
fn city_fill(closed: bool) -> Option<Color> {
    Some(if closed { CITY_CLOSED } else { CITY_FILL })
}

/// One city over all of tile `t`'s city edges (`edges` of them): a polygon through
/// the city edges' corners and, between them, a point pulled towards the centre,
/// walled where it does not run on across a tile edge.
fn one_city(canvas: &mut Canvas, cell: Rect, t: Tile, closed: bool, edges: usize) {
    // `on_edge[i]`: the side from point i to point i + 1 lies on a tile edge (no
    // wall there: the city goes on across it).
    let (mut pts, mut on_edge) = (Vec::new(), Vec::new());
    for d in 0..4 {
        let ((u0, v0), (u1, v1)) = edge_ends(d);
        if t.edges[d] == CITY {
            pts.push(at(cell, u0, v0));
            pts.push(at(cell, u1, v1));
            on_edge.extend([true, false]);
        } else {
            let (mu, mv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
            pts.push(at(cell, 0.5 + (mu - 0.5) * 0.3, 0.5 + (mv - 0.5) * 0.3));
            on_edge.push(false);
        }
    }
    canvas.polygon(pts.clone(), city_fill(closed), None);
    if edges < 4 {
        // The walls: the runs of sides between tile edges, each one polyline.
        let n = pts.len();
        let first = on_edge.iter().position(|&e| e).expect("a city edge");
        let mut run = vec![pts[(first + 1) % n]];
        for k in 1..=n {
            let i = (first + k) % n;
            if on_edge[i] {
                if run.len() > 1 {
                    canvas.polyline(std::mem::take(&mut run), city_wall(cell, closed));
                }
                run = vec![pts[(i + 1) % n]];
            } else {
                run.push(pts[(i + 1) % n]);
            }
        }
    }
}

/// Roads: to the centre; two roads join there, others end at a small square.
/// Finished roads (in `m`) are solid black.
fn roads(canvas: &mut Canvas, cell: Rect, t: Tile, m: Marks) {
    let roads: Vec<usize> = (0..4).filter(|&d| t.edges[d] == ROAD).collect();
    let mid = |d: usize| {
        let ((u0, v0), (u1, v1)) = edge_ends(d);
        at(cell, (u0 + u1) / 2.0, (v0 + v1) / 2.0)
    };
    let centre = cell.center();
    let outer = stroke(ROAD_EDGE, cell.w * 0.13);
    for &d in &roads {
        canvas.line(mid(d), centre, outer);
    }
    for &d in &roads {
        let inner = if m.finished_road[d] {
            Color::BLACK
        } else {
            Color::WHITE
        };
        canvas.line(mid(d), centre, stroke(inner, cell.w * 0.08));
    }
    if roads.len() != 2 && !roads.is_empty() && !t.is_monastery() {
        let k = cell.w * 0.09;
        canvas.rect(
            Rect::new(centre.x - k, centre.y - k, 2.0 * k, 2.0 * k),
            Some(Color::grey(60)),
            None,
        );
    }
}

/// A monastery: a small building at the centre, ringed in black when `surrounded`.
fn monastery(canvas: &mut Canvas, cell: Rect, surrounded: bool) {
    let centre = cell.center();
    let w = cell.w * 0.34;
    let body = Rect::new(centre.x - w / 2.0, centre.y - w * 0.3, w, w * 0.7);
    canvas.rect(
        body,
        Some(Color::rgb(220, 60, 50)),
        Some(stroke(Color::grey(40), cell.w * 0.01)),
    );
    canvas.polygon(
        vec![
            pt(body.x - w * 0.1, body.y),
            pt(centre.x, body.y - w * 0.45),
            pt(body.right() + w * 0.1, body.y),
        ],
        Some(Color::rgb(150, 40, 30)),
        Some(stroke(Color::grey(40), cell.w * 0.01)),
    );
    if surrounded {
        canvas.circle(
            pt(centre.x, centre.y - w * 0.05),
            w * 0.95,
            None,
            Some(stroke(Color::BLACK, (cell.w * 0.07).max(0.35))),
        );
    }
}

/// A lettered marker (white disc, black ring, bold letter) centred on `c`.
fn marker(canvas: &mut Canvas, c: Point, radius: f32, letter: &str) {
    canvas.circle(
        c,
        radius,
        Some(Color::WHITE),
        Some(stroke(Color::BLACK, radius * 0.12)),
    );
    let size = radius * 1.3 / MM_PER_PT;
    canvas.text_centered(c, size, Face::Bold, letter);
}

/// The worked example: the landscape with lettered features (`labels`: letter and
/// position in tile units from the grid's top-left corner), then one line per step
/// (`lines`: the letter, or "" for none, and the text).
pub fn example(
    canvas: &mut Canvas,
    area: Rect,
    l: &Landscape,
    labels: &[(&str, (f32, f32))],
    lines: &[(&str, String)],
) {
    // Text as large as the width allows (at most 11 pt), one line per step.
    let gap_pt = 1.9; // marker width before the text, in ems
    let widest = lines
        .iter()
        .map(|(l, t)| text_width(t, 1.0, face_of(l)) + gap_pt * MM_PER_PT)
        .fold(0.0, f32::max);
    let size = (area.w / widest).min(11.0);
    let lead = size * MM_PER_PT * 1.55;
    let text_h = lead * lines.len() as f32;
    let (top, rest) = area.take_top((area.h - text_h - lead * 0.5).max(0.0));
    // The landscape: tiles at most 24 mm.
    let side = (top.w / (l.cols as f32 + 2.0 * PAD))
        .min(top.h / (l.rows as f32 + 2.0 * PAD))
        .min(24.0);
    let box_w = side * (l.cols as f32 + 2.0 * PAD);
    let box_h = side * (l.rows as f32 + 2.0 * PAD);
    let land = Rect::new(top.x + (top.w - box_w) / 2.0, top.y, box_w, box_h);
    let m = super::score::marks(l);
    landscape(canvas, land, l, Some(&m), &[]);
    let (s, o) = grid(land, l);
    let radius = (s * 0.16).max(size * MM_PER_PT * 0.62);
    for (letter, (u, v)) in labels {
        marker(canvas, pt(o.x + u * s, o.y + v * s), radius, letter);
    }
    // The steps, under the drawing.
    let y0 = land.bottom() + lead * 0.5;
    let y0 = y0.min(rest.y + lead * 0.5);
    for (k, (letter, text)) in lines.iter().enumerate() {
        let base = y0 + lead * (k as f32 + 0.75);
        let x = area.x + (area.w - widest * size) / 2.0;
        if !letter.is_empty() {
            let r = size * MM_PER_PT * 0.62;
            marker(canvas, pt(x + r, base - cap_height(size) / 2.0), r, letter);
        }
        let face = face_of(letter);
        canvas.text(
            x + gap_pt * size * MM_PER_PT,
            base,
            size,
            face,
            Align::Left,
            text,
        );
    }
}

/// Step lines are regular; the closing line (no letter) is bold.
fn face_of(letter: &str) -> Face {
    if letter.is_empty() {
        Face::Bold
    } else {
        Face::Regular
    }
}
