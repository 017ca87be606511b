//! Shaped Numbrix grids: which cells are open ([`Mask`]), how consecutive numbers may
//! touch ([`Moves`]), the built-in shapes ([`SHAPES`]) and the checks that prove a shape
//! has no path at all ([`Mask::no_path_reason`]).
//!
//! A mask file is text: one grid row a line, `#` a blocked cell and `.` an open one;
//! whitespace around a row and blank lines are ignored, and a line starting with `;` is a
//! comment (`#` cannot start a comment: it is a blocked cell).

use ground::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Grids larger than this are refused (the solver's widest bit set holds 1,024 cells).
pub const MAX_CELLS: usize = 1024;

/// The largest mask file read: a 1,024-cell mask with generous comments fits many times.
pub(crate) const MAX_MASK_BYTES: u64 = 64 * 1024;

/// How consecutive numbers may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Moves {
    /// Up, down, left or right (Numbrix).
    #[default]
    Orthogonal,
    /// Also diagonally, like a chess king (Hidato).
    King,
}

impl Moves {
    /// Both move sets.
    pub const ALL: [Moves; 2] = [Moves::Orthogonal, Moves::King];

    /// The name used in templates and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Moves::Orthogonal => "orthogonal",
            Moves::King => "king",
        }
    }

    /// The steps (row, column) a number may take to the next one.
    pub fn steps(self) -> &'static [(isize, isize)] {
        match self {
            Moves::Orthogonal => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
            Moves::King => &[
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ],
        }
    }
}

impl std::str::FromStr for Moves {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Moves::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                Error::invalid(format!("unknown moves '{s}': choose orthogonal or king"))
            })
    }
}

impl std::fmt::Display for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which cells of an R x C grid are open (true) or blocked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mask {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// One flag a cell, row-major: true for an open cell.
    pub open: Vec<bool>,
}

/// The built-in shapes, by name (see [`Mask::named`]).
pub const SHAPES: &[&str] = &["corners", "cross", "frame", "diamond", "heart"];

/// The built-in shapes as help and errors list them ("corners, ... or heart").
pub(crate) fn shape_list() -> String {
    and_list(&SHAPES.iter().map(|s| s.to_string()).collect::<Vec<_>>()).replace(" and ", " or ")
}

/// The help of `--shape`, from [`SHAPES`] (the names the parser knows).
pub(crate) fn shape_help() -> String {
    format!(
        "A built-in shape at --size: {} (its blocked cells are -1 in records and drawn solid)",
        shape_list()
    )
}

/// The smallest side each shape can be drawn at (same order as [`SHAPES`]).
const MIN_SIDE: &[usize] = &[6, 6, 6, 6, 7];

/// "row R, column C" (1-based) for a cell index.
fn cell_name(cols: usize, i: usize) -> String {
    format!("row {}, column {}", i / cols + 1, i % cols + 1)
}

/// A list in words: "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Mask {
    /// Every cell open.
    pub fn full(rows: usize, cols: usize) -> Mask {
        Mask {
            rows,
            cols,
            open: vec![true; rows * cols],
        }
    }

    /// True when no cell is blocked.
    pub fn is_full(&self) -> bool {
        self.open.iter().all(|&o| o)
    }

    /// The number of open cells.
    pub fn open_count(&self) -> usize {
        self.open.iter().filter(|&&o| o).count()
    }

    /// Text rows: `#` blocked, `.` open; whitespace around a row and blank lines are
    /// ignored; lines starting with `;` are comments. Errors name the line and column.
    /// A single row or column is allowed (a strip); at most [`MAX_CELLS`] cells and at
    /// least 2 open ones.
    pub fn parse(text: &str) -> Result<Mask> {
        let rows = text.lines().enumerate().filter_map(|(n, line)| {
            let lead = line.chars().count() - line.trim_start().chars().count();
            let row = line.trim();
            (!row.is_empty() && !row.starts_with(';'))
                .then(|| (format!("line {}", n + 1), lead, row))
        });
        Mask::from_labelled(rows)
    }

    /// Build a mask from rows of `#`/`.`, each with the label errors use for it and the
    /// number of characters before it on its line (for column numbers).
    fn from_labelled<'a>(rows: impl Iterator<Item = (String, usize, &'a str)>) -> Result<Mask> {
        let mut open = Vec::new();
        let mut width: Option<(usize, String)> = None;
        let mut count = 0;
        for (label, lead, row) in rows {
            let mut n = 0;
            for (k, ch) in row.chars().enumerate() {
                let at = || format!("{label}, column {}", lead + k + 1);
                match ch {
                    '#' => open.push(false),
                    '.' => open.push(true),
                    _ => {
                        return Err(Error::param(
                            "mask",
                            format!(
                                "{}: '{}' is not a cell: use # for a blocked cell and . for an open one",
                                at(),
                                ch.escape_default()
                            ),
                        ))
                    }
                }
                n += 1;
                if open.len() > MAX_CELLS {
                    return Err(Error::param(
                        "mask",
                        format!("{}: the mask has more than {MAX_CELLS} cells, the most a grid may have", at()),
                    ));
                }
            }
            match &width {
                None => width = Some((n, label)),
                Some((w, first)) if *w != n => {
                    return Err(Error::param(
                        "mask",
                        format!("{label} has {n} cells but {first} has {w}: every row needs the same number"),
                    ))
                }
                Some(_) => {}
            }
            count += 1;
        }
        let Some((cols, _)) = width else {
            return Err(Error::param(
                "mask",
                "has no rows: write one line a row, # for a blocked cell and . for an open one",
            ));
        };
        let mask = Mask {
            rows: count,
            cols,
            open,
        };
        let n = mask.open_count();
        if n < 2 {
            return Err(Error::param(
                "mask",
                format!(
                    "has {n} open cell{}: a puzzle needs at least 2 (. marks an open cell)",
                    if n == 1 { "" } else { "s" }
                ),
            ));
        }
        Ok(mask)
    }

    /// Read and parse a mask file of at most `MAX_MASK_BYTES`; errors name the file.
    pub fn from_file(path: &Path) -> Result<Mask> {
        let bytes = ground::input::read_capped(path, MAX_MASK_BYTES, "mask file")?;
        let text = std::str::from_utf8(&bytes).map_err(|e| {
            Error::invalid(format!(
                "{}: not text (invalid UTF-8 at byte {})",
                path.display(),
                e.valid_up_to()
            ))
        })?;
        Mask::parse(text).map_err(|e| Error::invalid(format!("{}: {e}", path.display())))
    }

    /// The rows as text (`#` blocked, `.` open), one string a row.
    pub fn to_rows(&self) -> Vec<String> {
        if self.cols == 0 {
            return vec![String::new(); self.rows];
        }
        self.open
            .chunks(self.cols)
            .map(|r| r.iter().map(|&o| if o { '.' } else { '#' }).collect())
            .collect()
    }

    /// A built-in shape ([`SHAPES`]) drawn at this size; each is defined for any size from
    /// its smallest (6 or 7 on each side) up to [`MAX_CELLS`] cells.
    pub fn named(name: &str, rows: usize, cols: usize) -> Result<Mask> {
        let Some(k) = SHAPES.iter().position(|&s| s == name) else {
            return Err(Error::param(
                "shape",
                format!(
                    "'{}' is unknown{}: choose {}",
                    ground::input::excerpt(name),
                    ground::input::suggestion(name, SHAPES.iter().copied()),
                    shape_list()
                ),
            ));
        };
        let min = MIN_SIDE[k];
        if rows < min || cols < min {
            return Err(Error::param(
                "shape",
                format!("{name} needs at least {min}x{min} cells to look like one; {rows}x{cols} is too small"),
            ));
        }
        if rows * cols > MAX_CELLS {
            return Err(Error::param(
                "shape",
                format!(
                    "{name} at {rows}x{cols} has {} cells; a grid may have at most {MAX_CELLS}",
                    rows * cols
                ),
            ));
        }
        let (r, c) = (rows as i64, cols as i64);
        let side = r.min(c);
        let cell: Box<dyn Fn(i64, i64) -> bool> = match name {
            // Square notches of even side at the corners (even: as many dark as light cells cut).
            "corners" => {
                let k = 2 * (side / 8).max(1);
                Box::new(move |i, j| {
                    let corner_row = i < k || i >= r - k;
                    let corner_col = j < k || j >= c - k;
                    !(corner_row && corner_col)
                })
            }
            // A plus sign: about a third of each side cut at the corners. When both sides
            // and both cuts are odd, the cut across is made a cell wider (or narrower if the
            // upright arm would get thinner than 3), so each cut has as many dark as light
            // cells: a path with orthogonal moves needs the colours balanced.
            "cross" => {
                let (a, mut b) = (r / 3, c / 3);
                if r % 2 == 1 && c % 2 == 1 && a % 2 == 1 && b % 2 == 1 {
                    b = if c - 2 * (b + 1) >= 3 { b + 1 } else { b - 1 };
                }
                Box::new(move |i, j| {
                    let cut_row = i < a || i >= r - a;
                    let cut_col = j < b || j >= c - b;
                    !(cut_row && cut_col)
                })
            }
            // A border about a third of the shorter side thick, the centre blocked.
            "frame" => {
                let t = ((side + 1) / 3).max(2);
                Box::new(move |i, j| i < t || i >= r - t || j < t || j >= c - t)
            }
            // |dx| + |dy| <= 1 from the centre, in units of half a side (doubled: integers).
            "diamond" => Box::new(move |i, j| {
                let dy = (2 * i + 1 - r).abs();
                let dx = (2 * j + 1 - c).abs();
                dy * c + dx * r <= r * c + r.max(c) / 2
            }),
            // The classic heart curve (x^2 + y^2 - 1)^3 <= x^2 y^3, fitted to the grid.
            _ => Box::new(move |i, j| {
                let x = ((2 * j + 1 - c) as f64 / c as f64) * 1.2;
                let y = -((2 * i + 1 - r) as f64 / r as f64) * 1.15 + 0.1;
                let q = x * x + y * y - 1.0;
                q * q * q <= x * x * y * y * y
            }),
        };
        let open = (0..r)
            .flat_map(|i| (0..c).map(move |j| (i, j)))
            .map(|(i, j)| cell(i, j))
            .collect();
        Ok(Mask { rows, cols, open })
    }

    /// The open neighbours of each cell under `moves` (empty for blocked cells).
    fn neighbours(&self, moves: Moves) -> Vec<Vec<usize>> {
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        (0..self.open.len())
            .map(|i| {
                if !self.open[i] {
                    return Vec::new();
                }
                let (r, c) = ((i / self.cols) as isize, (i % self.cols) as isize);
                moves
                    .steps()
                    .iter()
                    .filter_map(|&(dr, dc)| {
                        let (nr, nc) = (r + dr, c + dc);
                        let inside = (0..rows).contains(&nr) && (0..cols).contains(&nc);
                        let j = (nr * cols + nc) as usize;
                        (inside && self.open[j]).then_some(j)
                    })
                    .collect()
            })
            .collect()
    }

    /// Necessary conditions for a path through every open cell, checked straight from the
    /// mask: `None` when none fails (a path may exist; only a search can tell), else the
    /// reason in a puzzle maker's words, naming cells as "row R, column C".
    pub fn no_path_reason(&self, moves: Moves) -> Option<String> {
        if self.cols == 0 || self.open.len() != self.rows * self.cols {
            return Some(format!(
                "the mask has {} cells but a {}x{} grid has {}",
                self.open.len(),
                self.rows,
                self.cols,
                self.rows * self.cols
            ));
        }
        let cells: Vec<usize> = (0..self.open.len()).filter(|&i| self.open[i]).collect();
        if cells.is_empty() {
            return Some("no cell is open".into());
        }
        if cells.len() == 1 {
            return None;
        }
        let adj = self.neighbours(moves);
        // 1. One region.
        if let Some(reason) = self.regions_reason(&adj, &cells) {
            return Some(reason);
        }
        // 2. Colours (orthogonal moves always change the chessboard colour).
        if moves == Moves::Orthogonal {
            if let Some(reason) = self.colours_reason(&cells) {
                return Some(reason);
            }
        }
        // 3. Dead ends: a cell with one open neighbour must be an end of the path.
        let dead: Vec<usize> = cells
            .iter()
            .copied()
            .filter(|&i| adj[i].len() == 1)
            .collect();
        if let Some(reason) = self.dead_ends_reason(&dead) {
            return Some(reason);
        }
        // 4. Cut cells. A path through a cell joins at most two parts, one on each side;
        //    so with two parts each holds one end of the path, and (orthogonal) the part's
        //    path ends next to the cut cell, on the other colour.
        // Places that must each hold an end: dead ends and the parts beside cut cells.
        let mut end_sets: Vec<(Vec<usize>, String)> = dead
            .iter()
            .map(|&i| {
                (
                    vec![i],
                    format!("{} (only one open neighbour)", self.cell_name(i)),
                )
            })
            .collect();
        for &v in &cells {
            let parts = components(&adj, &cells, Some(v));
            if let Some(reason) = self.cut_reason(v, &parts, moves) {
                return Some(reason);
            }
            if parts.len() == 2 {
                for p in parts {
                    let label = format!(
                        "the part with {} beyond {}",
                        self.cell_name(p[0]),
                        self.cell_name(v)
                    );
                    end_sets.push((p, label));
                }
            }
        }
        self.three_ends_reason(end_sets)
    }

    /// Cell `i` named as "row R, column C".
    fn cell_name(&self, i: usize) -> String {
        cell_name(self.cols, i)
    }

    /// Whether cell `i` is dark on a chessboard whose first cell is dark.
    fn dark(&self, i: usize) -> bool {
        (i / self.cols + i % self.cols).is_multiple_of(2)
    }

    /// Why the open `cells` cannot all be on one path when they fall into separate
    /// regions; None when they are one.
    fn regions_reason(&self, adj: &[Vec<usize>], cells: &[usize]) -> Option<String> {
        let parts = components(adj, cells, None);
        if parts.len() <= 1 {
            return None;
        }
        let firsts: Vec<String> = parts.iter().take(3).map(|p| self.cell_name(p[0])).collect();
        let more = if parts.len() > 3 { " and more" } else { "" };
        Some(format!(
            "the open cells fall into {} separate regions ({}{more}), but a path joins them all",
            parts.len(),
            and_list(&firsts)
        ))
    }

    /// With orthogonal moves a path alternates colours: why it cannot when the dark
    /// and light open `cells` differ by more than one; None when they do not.
    fn colours_reason(&self, cells: &[usize]) -> Option<String> {
        let d = cells.iter().filter(|&&i| self.dark(i)).count();
        let l = cells.len() - d;
        (d.abs_diff(l) > 1).then(|| {
            format!(
                "colouring the cells like a chessboard (row 1, column 1 dark) gives {d} dark and {l} light open cells; a path alternates colours, so the counts may differ by at most 1"
            )
        })
    }

    /// Why a path cannot have more than two `dead` ends (cells with one open
    /// neighbour); None for two or fewer.
    fn dead_ends_reason(&self, dead: &[usize]) -> Option<String> {
        if dead.len() <= 2 {
            return None;
        }
        let shown: Vec<String> = dead.iter().take(3).map(|&i| self.cell_name(i)).collect();
        let more = if dead.len() > 3 { ", ..." } else { "" };
        Some(format!(
            "{} open cells ({}{more}) have only one open neighbour, but a path has only two ends",
            dead.len(),
            shown.join("; ")
        ))
    }

    /// Why no path passes through cut cell `v`, whose blocking leaves `parts`: it
    /// would join three or more, or (orthogonal moves) a part's colours cannot end
    /// next to it; None when neither.
    fn cut_reason(&self, v: usize, parts: &[Vec<usize>], moves: Moves) -> Option<String> {
        if parts.len() >= 3 {
            let firsts: Vec<String> = parts.iter().take(3).map(|p| self.cell_name(p[0])).collect();
            return Some(format!(
                "blocking {} would split the open cells into {} parts ({}{}), but a path through one cell joins at most 2",
                self.cell_name(v),
                parts.len(),
                and_list(&firsts),
                if parts.len() > 3 { " and more" } else { "" }
            ));
        }
        if parts.len() == 2 && moves == Moves::Orthogonal {
            for p in parts {
                let same = p.iter().filter(|&&i| self.dark(i) == self.dark(v)).count();
                let other = p.len() - same;
                if other != same && other != same + 1 {
                    return Some(format!(
                        "the path must pass through {v_name}, covering the part with {p_name} ({n} cells) on one side of it; that part's path ends next to {v_name}, on the other chessboard colour, so the part needs as many cells of that colour as of {v_name}'s colour or one more, but it has {other} and {same}",
                        v_name = self.cell_name(v),
                        p_name = self.cell_name(p[0]),
                        n = p.len()
                    ));
                }
            }
        }
        None
    }

    /// Three places that each need an end of the path and share no cell would need
    /// three ends: why, when `end_sets` (smallest first) has three; None otherwise.
    fn three_ends_reason(&self, mut end_sets: Vec<(Vec<usize>, String)>) -> Option<String> {
        end_sets.sort_by_key(|(s, _)| s.len());
        let mut used = vec![false; self.open.len()];
        let mut chosen: Vec<&str> = Vec::new();
        for (set, label) in &end_sets {
            if set.iter().all(|&i| !used[i]) {
                set.iter().for_each(|&i| used[i] = true);
                chosen.push(label);
                if chosen.len() == 3 {
                    return Some(format!(
                        "a path would need an end in each of 3 places that share no cell: {}; but it has only two ends",
                        chosen.join("; ")
                    ));
                }
            }
        }
        None
    }
}

/// The connected parts of the open `cells` (without `skip`), each as a sorted list of
/// cells, ordered by their first cell.
fn components(adj: &[Vec<usize>], cells: &[usize], skip: Option<usize>) -> Vec<Vec<usize>> {
    let mut seen = vec![false; adj.len()];
    if let Some(s) = skip {
        seen[s] = true;
    }
    let mut parts = Vec::new();
    for &start in cells {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut part = vec![start];
        let mut k = 0;
        while k < part.len() {
            for &j in &adj[part[k]] {
                if !seen[j] {
                    seen[j] = true;
                    part.push(j);
                }
            }
            k += 1;
        }
        part.sort_unstable();
        parts.push(part);
    }
    parts
}

impl Serialize for Mask {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.to_rows().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Mask {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let rows = Vec::<String>::deserialize(d)?;
        let labelled = rows.iter().enumerate().map(|(n, row)| {
            let lead = row.chars().count() - row.trim_start().chars().count();
            (format!("row {}", n + 1), lead, row.trim())
        });
        Mask::from_labelled(labelled).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_names_round_trip() {
        for m in Moves::ALL {
            assert_eq!(m.name().parse::<Moves>().unwrap(), m);
            assert_eq!(m.to_string(), m.name());
        }
        let e = "diagonal".parse::<Moves>().unwrap_err().to_string();
        assert!(e.contains("orthogonal") && e.contains("king"), "{e}");
    }
}
