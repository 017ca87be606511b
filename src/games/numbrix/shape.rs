//! Shapes (placeholder, replaced by the full module): the move set and the open cells.

use serde::{Deserialize, Serialize};

/// How consecutive numbers may touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Moves {
    /// Up, down, left or right (Numbrix).
    #[default]
    Orthogonal,
    /// Also diagonally (Hidato).
    King,
}

impl Moves {
    /// The name in parameters and records.
    pub fn name(self) -> &'static str {
        match self {
            Moves::Orthogonal => "orthogonal",
            Moves::King => "king",
        }
    }
}

impl std::fmt::Display for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Moves {
    type Err = crate::Error;
    fn from_str(s: &str) -> crate::Result<Self> {
        match s {
            "orthogonal" => Ok(Moves::Orthogonal),
            "king" => Ok(Moves::King),
            _ => Err(crate::Error::invalid(format!(
                "unknown moves '{s}': choose orthogonal or king"
            ))),
        }
    }
}

/// Which cells of an R x C grid are open (true) or blocked.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mask {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Row-major: true for an open cell.
    pub open: Vec<bool>,
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
}

impl Mask {
    /// Parse text rows ('#' blocked, '.' open).
    pub fn parse(text: &str) -> crate::Result<Mask> {
        let rows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let cols = rows.first().map_or(0, |r| r.len());
        let mut open = Vec::new();
        for r in &rows {
            if r.len() != cols {
                return Err(crate::Error::invalid("ragged mask"));
            }
            for ch in r.chars() {
                open.push(match ch {
                    '.' => true,
                    '#' => false,
                    _ => return Err(crate::Error::invalid("bad mask character")),
                });
            }
        }
        Ok(Mask {
            rows: rows.len(),
            cols,
            open,
        })
    }
    /// Read a mask file.
    pub fn from_file(path: &std::path::Path) -> crate::Result<Mask> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| crate::Error::invalid(format!("{}: {e}", path.display())))?;
        Self::parse(&text)
    }
    /// The rows as text.
    pub fn to_rows(&self) -> Vec<String> {
        self.open
            .chunks(self.cols)
            .map(|r| r.iter().map(|&o| if o { '.' } else { '#' }).collect())
            .collect()
    }
    /// A built-in shape.
    pub fn named(name: &str, rows: usize, cols: usize) -> crate::Result<Mask> {
        let mut m = Mask::full(rows, cols);
        match name {
            "cross" => {
                let (h, w) = (rows / 3, cols / 3);
                for r in 0..rows {
                    for c in 0..cols {
                        let edge_r = r < h || r >= rows - h;
                        let edge_c = c < w || c >= cols - w;
                        if edge_r && edge_c {
                            m.open[r * cols + c] = false;
                        }
                    }
                }
                Ok(m)
            }
            _ => Err(crate::Error::invalid(format!("unknown shape '{name}'"))),
        }
    }
    /// Why no path can cover the open cells, when a simple argument shows it.
    pub fn no_path_reason(&self, _moves: Moves) -> Option<String> {
        None
    }
}

impl Serialize for Mask {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_rows().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Mask {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let rows = Vec::<String>::deserialize(d)?;
        Mask::parse(&rows.join("\n")).map_err(serde::de::Error::custom)
    }
}
