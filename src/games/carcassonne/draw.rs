//! Drawing a landscape: tiles on a grid, cities as filled brown areas with a darker
//! wall line, roads as white lines with dark borders, monasteries as a small building,
//! fields green, empty squares blank.

use super::tiles::{Landscape, Tile, CITY, ROAD};
use crate::canvas::{pt, Canvas, Color, Point, Rect, Stroke};

const FIELD: Color = Color::rgb(170, 205, 120);
const CITY_FILL: Color = Color::rgb(196, 150, 92);
const WALL: Color = Color::rgb(110, 70, 30);
const ROAD_EDGE: Color = Color::rgb(90, 90, 90);

pub fn landscape(canvas: &mut Canvas, area: Rect, l: &Landscape) {
    let s = (area.w / l.cols as f32).min(area.h / l.rows as f32);
    let x0 = area.x + (area.w - s * l.cols as f32) / 2.0;
    let y0 = area.y + (area.h - s * l.rows as f32) / 2.0;
    for r in 0..l.rows {
        for c in 0..l.cols {
            let cell = Rect::new(x0 + c as f32 * s, y0 + r as f32 * s, s, s);
            match l.squares[r * l.cols + c] {
                Some(t) => tile(canvas, cell, t),
                None => canvas.rect(
                    cell.inset(s * 0.02),
                    None,
                    Some(Stroke::new(Color::grey(220), 0.1)),
                ),
            }
        }
    }
}

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

fn tile(canvas: &mut Canvas, cell: Rect, t: Tile) {
    canvas.rect(cell, Some(FIELD), Some(Stroke::new(Color::grey(80), 0.15)));
    let wall = Stroke::new(WALL, (cell.w * 0.03).max(0.2));
    let city_edges: Vec<usize> = (0..4).filter(|&d| t.edges[d] == CITY).collect();
    if t.cities == 1 && city_edges.len() >= 2 {
        // One city over all its edges: a polygon through the city edges' corners
        // and, between them, a point pulled towards the centre.
        let mut pts = Vec::new();
        for d in 0..4 {
            let ((u0, v0), (u1, v1)) = edge_ends(d);
            if t.edges[d] == CITY {
                pts.push(at(cell, u0, v0));
                pts.push(at(cell, u1, v1));
            } else {
                let (mu, mv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
                pts.push(at(cell, 0.5 + (mu - 0.5) * 0.3, 0.5 + (mv - 0.5) * 0.3));
            }
        }
        if city_edges.len() == 4 {
            canvas.rect(cell, Some(CITY_FILL), Some(wall));
        } else {
            canvas.polygon(pts, Some(CITY_FILL), Some(wall));
        }
    } else {
        // Each city edge its own cap.
        for &d in &city_edges {
            let ((u0, v0), (u1, v1)) = edge_ends(d);
            let (mu, mv) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
            let tip = at(cell, 0.5 + (mu - 0.5) * 0.35, 0.5 + (mv - 0.5) * 0.35);
            canvas.polygon(
                vec![at(cell, u0, v0), at(cell, u1, v1), tip],
                Some(CITY_FILL),
                Some(wall),
            );
        }
    }
    // Roads: to the centre; two roads join there, others end at a small square.
    let roads: Vec<usize> = (0..4).filter(|&d| t.edges[d] == ROAD).collect();
    let mid = |d: usize| {
        let ((u0, v0), (u1, v1)) = edge_ends(d);
        at(cell, (u0 + u1) / 2.0, (v0 + v1) / 2.0)
    };
    let centre = cell.center();
    let outer = Stroke::new(ROAD_EDGE, cell.w * 0.13);
    let inner = Stroke::new(Color::WHITE, cell.w * 0.08);
    for stroke in [outer, inner] {
        for &d in &roads {
            canvas.line(mid(d), centre, stroke);
        }
    }
    if roads.len() != 2 && !roads.is_empty() && !t.is_monastery() {
        let k = cell.w * 0.09;
        canvas.rect(
            Rect::new(centre.x - k, centre.y - k, 2.0 * k, 2.0 * k),
            Some(Color::grey(60)),
            None,
        );
    }
    if t.is_monastery() {
        let w = cell.w * 0.34;
        let body = Rect::new(centre.x - w / 2.0, centre.y - w * 0.3, w, w * 0.7);
        canvas.rect(
            body,
            Some(Color::rgb(220, 60, 50)),
            Some(Stroke::new(Color::grey(40), 0.2)),
        );
        canvas.polygon(
            vec![
                pt(body.x - w * 0.1, body.y),
                pt(centre.x, body.y - w * 0.45),
                pt(body.right() + w * 0.1, body.y),
            ],
            Some(Color::rgb(150, 40, 30)),
            Some(Stroke::new(Color::grey(40), 0.2)),
        );
    }
}
