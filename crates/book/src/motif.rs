//! A cover's theme: its colours and the faint pattern behind the title, drawn from
//! the look of the game that fills most of the book.

use crate::canvas::{pt, Canvas, Color, Point, Rect, Stroke};
use crate::game::Motif;
use rand::{Rng as _, SeedableRng};

/// A theme's colours: (background, accent).
pub(crate) fn palette(motif: Motif) -> (Color, Color) {
    match motif {
        Motif::Path => (Color::rgb(0x1d, 0x35, 0x57), Color::rgb(0xf4, 0xa2, 0x61)),
        Motif::Hexes => (Color::rgb(0x0b, 0x4f, 0x6c), Color::rgb(0xf2, 0xcc, 0x8f)),
        Motif::Tiles => (Color::rgb(0x2d, 0x6a, 0x4f), Color::rgb(0xe9, 0xc4, 0x6a)),
        Motif::Digits => (Color::rgb(0x3d, 0x2c, 0x8d), Color::rgb(0xff, 0xb7, 0x03)),
        Motif::Dots => (Color::rgb(0x00, 0x5f, 0x73), Color::rgb(0xee, 0x9b, 0x00)),
        Motif::Grid | Motif::Plain => (Color::rgb(0x1d, 0x35, 0x57), Color::rgb(0xf4, 0xa2, 0x61)),
    }
}

/// How far the pattern's colour is from the background towards the text's: heavy
/// shapes (digits, dots) take less.
pub(crate) fn tint(motif: Motif) -> f32 {
    match motif {
        Motif::Digits | Motif::Dots => 0.075,
        _ => 0.09,
    }
}

/// `a` moved `t` (0 to 1) of the way to `b`.
pub fn mix(a: Color, b: Color, t: f32) -> Color {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color::rgb(m(a.r, b.r), m(a.g, b.g), m(a.b, b.b))
}

/// Draw `motif` over `area` in `tint` (a colour a little off the background), with
/// `cell` mm as its scale; `seed` fixes every random choice.
pub fn draw(c: &mut Canvas, motif: Motif, area: Rect, cell: f32, tint: Color, seed: u64) {
    let mut rng = crate::seed::Rng::seed_from_u64(crate::seed::mix64(seed ^ 0x0c0e_4a27));
    let p = Pattern {
        area,
        cell,
        tint,
        cols: (area.w / cell).ceil() as usize + 1,
        rows: (area.h / cell).ceil() as usize + 1,
        line: Stroke::new(tint, (cell * 0.04).max(0.3)),
    };
    match motif {
        Motif::Plain => {}
        Motif::Grid => p.grid(c),
        Motif::Path => p.path(c, &mut rng),
        Motif::Hexes => p.hexes(c, &mut rng),
        Motif::Tiles => p.tiles(c, &mut rng),
        Motif::Digits => p.digits(c, &mut rng),
        Motif::Dots => p.dots(c, &mut rng),
    }
}

/// A pattern being drawn: its area, its cells of `cell` mm, and its colour.
struct Pattern {
    area: Rect,
    /// The side of a cell, in mm.
    cell: f32,
    tint: Color,
    /// Cells across and down (one more than cover the area).
    cols: usize,
    rows: usize,
    /// The thin line outlines are drawn with.
    line: Stroke,
}

impl Pattern {
    /// The top-left corner of the cell in row `r`, column `col`.
    fn at(&self, r: usize, col: usize) -> Point {
        pt(
            self.area.x + col as f32 * self.cell,
            self.area.y + r as f32 * self.cell,
        )
    }

    /// The centre of the cell at `o` (its top-left corner).
    fn mid(&self, o: Point) -> Point {
        pt(o.x + self.cell / 2.0, o.y + self.cell / 2.0)
    }

    /// A plain grid of cells.
    fn grid(&self, c: &mut Canvas) {
        let (rows, cols) = (self.rows, self.cols);
        for col in 0..=cols {
            c.line(self.at(0, col), self.at(rows, col), self.line);
        }
        for r in 0..=rows {
            c.line(self.at(r, 0), self.at(r, cols), self.line);
        }
    }

    /// A random path through every cell (as a Numbrix answer), its ends marked.
    fn path(&self, c: &mut Canvas, rng: &mut crate::seed::Rng) {
        let cols = self.cols;
        let path = hamiltonian_path(self.rows, cols, rng);
        let centre = |v: usize| self.mid(self.at(v / cols, v % cols));
        let points: Vec<Point> = path.iter().map(|&v| centre(v)).collect();
        c.polyline(points, Stroke::new(self.tint, self.cell * 0.16));
        for end in [path[0], path[path.len() - 1]] {
            c.circle(centre(end), self.cell * 0.22, Some(self.tint), None);
        }
    }

    /// Pointy-top hexagons, one in five filled.
    fn hexes(&self, c: &mut Canvas, rng: &mut crate::seed::Rng) {
        let area = self.area;
        // Pointy-top hexagons of radius r, rows offset by half a hexagon.
        let r = self.cell / 3f32.sqrt();
        let (dx, dy) = (self.cell, 1.5 * r);
        let hex_rows = (area.h / dy).ceil() as usize + 2;
        let hex_cols = (area.w / dx).ceil() as usize + 2;
        for hr in 0..hex_rows {
            for hc in 0..hex_cols {
                let shift = if hr % 2 == 1 { dx / 2.0 } else { 0.0 };
                let cx = area.x + hc as f32 * dx - shift;
                let cy = area.y + hr as f32 * dy - r / 2.0;
                let points: Vec<Point> = (0..6)
                    .map(|k| {
                        let a = std::f32::consts::PI / 3.0 * k as f32 + std::f32::consts::PI / 6.0;
                        pt(cx + 0.94 * r * a.cos(), cy + 0.94 * r * a.sin())
                    })
                    .collect();
                // One hexagon in five is filled, the rest outlined.
                if rng.random_range(0..5) == 0 {
                    c.polygon(points, Some(self.tint), None);
                } else {
                    c.polygon(points, None, Some(self.line));
                }
            }
        }
    }

    /// Square tiles, each with a road, a city's wall or a monastery.
    fn tiles(&self, c: &mut Canvas, rng: &mut crate::seed::Rng) {
        let road = Stroke::new(self.tint, self.cell * 0.08);
        for r in 0..self.rows {
            for col in 0..self.cols {
                self.tile(c, self.at(r, col), road, rng);
            }
        }
    }

    /// One tile at `o` (its top-left corner), its road drawn with `road`.
    fn tile(&self, c: &mut Canvas, o: Point, road: Stroke, rng: &mut crate::seed::Rng) {
        let (cell, tint) = (self.cell, self.tint);
        c.rect(Rect::new(o.x, o.y, cell, cell), None, Some(self.line));
        let mid = self.mid(o);
        let edge = |k: usize| match k {
            0 => pt(o.x + cell / 2.0, o.y),
            1 => pt(o.x + cell, o.y + cell / 2.0),
            2 => pt(o.x + cell / 2.0, o.y + cell),
            _ => pt(o.x, o.y + cell / 2.0),
        };
        match rng.random_range(0..4) {
            // A road through the tile.
            0 | 1 => {
                let a = rng.random_range(0..4usize);
                let b = (a + rng.random_range(1..4usize)) % 4;
                c.polyline(vec![edge(a), mid, edge(b)], road);
            }
            // A city's wall along one edge.
            2 => {
                let corners = [
                    pt(o.x, o.y),
                    pt(o.x + cell, o.y),
                    pt(o.x + cell, o.y + cell),
                    pt(o.x, o.y + cell),
                ];
                let k = rng.random_range(0..4usize);
                let (a, b) = (corners[k], corners[(k + 1) % 4]);
                let inward = pt(
                    (a.x + b.x) / 2.0 + (mid.x - (a.x + b.x) / 2.0) * 0.6,
                    (a.y + b.y) / 2.0 + (mid.y - (a.y + b.y) / 2.0) * 0.6,
                );
                c.polygon(vec![a, b, inward], Some(tint), None);
            }
            // A monastery.
            _ => c.rect(
                Rect::new(
                    mid.x - cell * 0.14,
                    mid.y - cell * 0.14,
                    cell * 0.28,
                    cell * 0.28,
                ),
                Some(tint),
                None,
            ),
        }
    }

    /// Digits drawn as strokes (pattern, not text), now and then a matched pair
    /// crossed out as a player would.
    fn digits(&self, c: &mut Canvas, rng: &mut crate::seed::Rng) {
        let (cell, cols) = (self.cell, self.cols);
        let pen = Stroke::new(self.tint, cell * 0.07);
        for r in 0..self.rows {
            let mut col = 0;
            while col < cols {
                let d: u8 = rng.random_range(1..10);
                digit(c, self.at(r, col), cell, d, pen);
                if col + 1 < cols && rng.random_range(0..6) == 0 {
                    let pair = if rng.random_bool(0.5) { d } else { 10 - d };
                    digit(c, self.at(r, col + 1), cell, pair, pen);
                    let (a, b) = (self.at(r, col), self.at(r, col + 1));
                    c.line(
                        pt(a.x + cell * 0.15, a.y + cell * 0.85),
                        pt(b.x + cell * 0.85, b.y + cell * 0.15),
                        pen,
                    );
                    col += 1;
                }
                col += 1;
            }
        }
    }

    /// A dot in every cell, one in three filled, the rest rings.
    fn dots(&self, c: &mut Canvas, rng: &mut crate::seed::Rng) {
        let ring = Stroke::new(self.tint, self.cell * 0.07);
        for r in 0..self.rows {
            for col in 0..self.cols {
                let mid = self.mid(self.at(r, col));
                if rng.random_range(0..3) == 0 {
                    c.circle(mid, self.cell * 0.3, Some(self.tint), None);
                } else {
                    c.circle(mid, self.cell * 0.27, None, Some(ring));
                }
            }
        }
    }
}

/// The digit `d` (1 to 9) as seven-segment strokes in the cell at `o`.
fn digit(c: &mut Canvas, o: Point, cell: f32, d: u8, pen: Stroke) {
    // Segments a (top), b (top right), c (bottom right), d (bottom), e (bottom left),
    // f (top left), g (middle), as bits 0 to 6.
    const SEGMENTS: [u8; 10] = [
        0b011_1111, 0b000_0110, 0b101_1011, 0b100_1111, 0b110_0110, 0b110_1101, 0b111_1101,
        0b000_0111, 0b111_1111, 0b110_1111,
    ];
    let (l, r) = (o.x + cell * 0.32, o.x + cell * 0.68);
    let (t, m, b) = (o.y + cell * 0.2, o.y + cell * 0.5, o.y + cell * 0.8);
    let ends = [
        (pt(l, t), pt(r, t)),
        (pt(r, t), pt(r, m)),
        (pt(r, m), pt(r, b)),
        (pt(l, b), pt(r, b)),
        (pt(l, m), pt(l, b)),
        (pt(l, t), pt(l, m)),
        (pt(l, m), pt(r, m)),
    ];
    for (k, (a, e)) in ends.into_iter().enumerate() {
        if SEGMENTS[usize::from(d % 10)] >> k & 1 == 1 {
            c.line(a, e, pen);
        }
    }
}

/// A random path through every cell of a `rows` x `cols` grid (cells numbered row by
/// row): a serpentine reshaped by backbite moves, each of which joins an end of the
/// path to a neighbouring cell and reverses the loop that makes.
pub(crate) fn hamiltonian_path(rows: usize, cols: usize, rng: &mut crate::seed::Rng) -> Vec<usize> {
    let n = rows * cols;
    let mut path: Vec<usize> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| r * cols + if r % 2 == 0 { c } else { cols - 1 - c }))
        .collect();
    if n < 3 {
        return path;
    }
    let mut pos = vec![0usize; n];
    for (i, &v) in path.iter().enumerate() {
        pos[v] = i;
    }
    for _ in 0..n * 30 {
        // Backbite from the tail (the head's moves are the reversed path's).
        if rng.random_bool(0.5) {
            path.reverse();
            for (i, &v) in path.iter().enumerate() {
                pos[v] = i;
            }
        }
        let end = path[n - 1];
        let (r, c) = (end / cols, end % cols);
        let nbrs = [
            (r > 0).then(|| end - cols),
            (r + 1 < rows).then(|| end + cols),
            (c > 0).then(|| end - 1),
            (c + 1 < cols).then(|| end + 1),
        ];
        let Some(v) = nbrs[rng.random_range(0..4)] else {
            continue;
        };
        let j = pos[v];
        if j == n - 2 {
            continue;
        }
        path[j + 1..].reverse();
        for (i, &v) in path.iter().enumerate().skip(j + 1) {
            pos[v] = i;
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell once, each step to a side neighbour: checked directly, not by the
    /// moves that made it.
    #[test]
    fn backbite_paths_visit_every_cell_once_by_side_steps() {
        for (rows, cols, seed) in [(1, 1, 0), (1, 5, 1), (2, 2, 2), (7, 9, 3), (16, 23, 4)] {
            let mut rng = crate::seed::Rng::seed_from_u64(seed);
            let p = hamiltonian_path(rows, cols, &mut rng);
            let mut seen = vec![false; rows * cols];
            for &v in &p {
                assert!(!seen[v], "{rows}x{cols}: cell {v} twice");
                seen[v] = true;
            }
            assert!(seen.iter().all(|&s| s));
            for w in p.windows(2) {
                let (a, b) = (w[0], w[1]);
                let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
                assert_eq!(ra.abs_diff(rb) + ca.abs_diff(cb), 1, "{a} -> {b}");
            }
        }
    }

    #[test]
    fn backbite_moves_away_from_the_serpentine() {
        let mut rng = crate::seed::Rng::seed_from_u64(9);
        let p = hamiltonian_path(8, 8, &mut rng);
        let serpentine = hamiltonian_path(8, 8, &mut crate::seed::Rng::seed_from_u64(9));
        assert_eq!(p, serpentine, "the same seed draws the same path");
        let turns = p
            .windows(3)
            .filter(|w| w[1] as isize - w[0] as isize != w[2] as isize - w[1] as isize)
            .count();
        // A serpentine on 8 x 8 turns 14 times; a mixed path turns far more often.
        assert!(turns > 25, "only {turns} turns");
    }
}
