//! ASCII rendering in the spirit of the source article: pointy-topped hexes filled with
//! terrain symbols, the token in a small hole in the middle, harbors out at sea with
//! their piers. Neighbouring hexes share walls and corners.

use super::board::{Shape, DESERT};
use super::rules::Setup;

/// Terrain symbols of the article: wheat, wood, sheep, clay, rock, desert.
pub(crate) const SYMBOLS: [char; 6] = ['/', '#', '"', '.', '^', ' '];

struct Grid {
    cells: Vec<Vec<char>>,
}

impl Grid {
    fn put(&mut self, line: i32, col: i32, ch: char) {
        if line >= 0 && col >= 0 {
            if let Some(c) = self
                .cells
                .get_mut(line as usize)
                .and_then(|r| r.get_mut(col as usize))
            {
                *c = ch;
            }
        }
    }
    fn text(&mut self, line: i32, col: i32, s: &str) {
        for (k, ch) in s.chars().enumerate() {
            self.put(line, col + k as i32, ch);
        }
    }
}

/// Character position of the centre of hex (x, y): 6 lines per row, 8 columns per hex.
fn centre(x: i32, y: i32) -> (i32, i32) {
    (6 * x, 4 * (2 * y - x))
}

/// Offsets (line, col) of corner k (0 bottom, 1 lower right, ... 5 lower left).
const CORNERS: [(i32, i32); 6] = [(4, 0), (2, 4), (-2, 4), (-4, 0), (-2, -4), (2, -4)];

/// The board as ASCII art, one line per text row, each ending in a newline.
pub(crate) fn render(shape: &Shape, b: &Setup) -> String {
    let mut points: Vec<(i32, i32)> = shape.hexes.iter().map(|&(x, y)| centre(x, y)).collect();
    points.extend(shape.harbors.iter().map(|h| centre(h.x, h.y)));
    let min_line = points.iter().map(|p| p.0).min().unwrap_or(0) - 4;
    let min_col = points.iter().map(|p| p.1).min().unwrap_or(0) - 5;
    let max_line = points.iter().map(|p| p.0).max().unwrap_or(0) + 4;
    let max_col = points.iter().map(|p| p.1).max().unwrap_or(0) + 5;
    let mut g = Grid {
        cells: vec![
            vec![' '; (max_col - min_col + 1) as usize];
            (max_line - min_line + 1) as usize
        ],
    };
    for (i, &(x, y)) in shape.hexes.iter().enumerate() {
        let (l, c) = centre(x, y);
        let (l, c) = (l - min_line, c - min_col);
        let sym = SYMBOLS[b.terrain[i] as usize];
        // Interior.
        for (dl, half) in [(-3, 1), (-2, 3), (-1, 3), (0, 3), (1, 3), (2, 3), (3, 1)] {
            for dc in -half..=half {
                g.put(l + dl, c + dc, sym);
            }
        }
        // Walls, slopes and corners.
        for dl in -1..=1 {
            g.put(l + dl, c - 4, '|');
            g.put(l + dl, c + 4, '|');
        }
        g.put(l - 3, c - 2, '/');
        g.put(l - 3, c + 2, '\\');
        g.put(l + 3, c - 2, '\\');
        g.put(l + 3, c + 2, '/');
        for (dl, dc) in CORNERS {
            g.put(l + dl, c + dc, '+');
        }
        // The token in a hole.
        if b.terrain[i] != DESERT {
            g.text(l, c - 2, &format!(" {:^3} ", b.token[i]));
        }
    }
    for (p, h) in shape.harbors.iter().enumerate() {
        let (l, c) = centre(h.x, h.y);
        let (l, c) = (l - min_line, c - min_col);
        let label = match b.harbor[p] {
            0 => "?3:1".to_string(),
            k => format!("{}2:1", SYMBOLS[(k - 1) as usize]),
        };
        g.text(l, c - 2, &label);
        for k in [h.piers.0, h.piers.1] {
            let (dl, dc) = CORNERS[k as usize];
            g.put(l + dl / 2, c + dc / 2, ':');
        }
    }
    let lines: Vec<String> = g
        .cells
        .into_iter()
        .map(|row| row.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let last = lines.iter().rposition(|l| !l.is_empty()).unwrap_or(0);
    lines[first..=last]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect()
}
