//! Board shapes: hex coordinates and numbering, neighbour bitmasks, corners, harbor
//! positions, and the terrain / token / harbor multisets.
//!
//! Coordinates follow the spec: x is the row (top row 0), y runs along the row; hex
//! (x, y) is drawn at column y - x/2, so (x+1, y) is down-left and (x+1, y+1) down-right.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Room per board for hex arrays: the largest board has 30 hexes; 32 lets hot loops
/// index with `& 31` and no bounds checks.
pub(crate) const MAX_HEX: usize = 32;
/// Room per board for harbor arrays: the most frame positions any board has.
pub(crate) const MAX_HARBOR: usize = 11;

/// Terrain code of fields (wheat). Terrain codes follow the order of the formats spec.
pub(crate) const WHEAT: u8 = 0;
/// Terrain code of forest (wood).
pub(crate) const WOOD: u8 = 1;
/// Terrain code of pasture (sheep).
pub(crate) const SHEEP: u8 = 2;
/// Terrain code of hills (clay).
pub(crate) const CLAY: u8 = 3;
/// Terrain code of mountains (rock).
pub(crate) const ROCK: u8 = 4;
/// Terrain code of the desert (no token).
pub(crate) const DESERT: u8 = 5;
/// Terrain names, indexed by terrain code.
pub(crate) const TERRAIN_NAMES: [&str; 6] = ["wheat", "wood", "sheep", "clay", "rock", "desert"];
/// Harbor kinds: 0 is the generic 3:1, 1 + terrain code a 2:1 harbor of that resource.
pub(crate) const GENERIC: u8 = 0;
/// Harbor names, indexed by harbor kind.
pub(crate) const HARBOR_NAMES: [&str; 6] = ["3:1", "wheat", "wood", "sheep", "clay", "rock"];
/// Pip totals a resource's counters hold: 0 to 31 (six hexes of 5 pips at most).
pub(crate) const PIP_BINS: usize = 32;
/// Land resources (every terrain but the desert).
pub const RESOURCES: usize = DESERT as usize;
/// Token values in the order used by counters and CSVs.
pub(crate) const TOKEN_VALUES: [u8; 10] = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];

/// Ways to roll a number with two dice.
pub fn pips(token: u8) -> u32 {
    match token {
        2 | 12 => 1,
        3 | 11 => 2,
        4 | 10 => 3,
        5 | 9 => 4,
        6 | 8 => 5,
        _ => 0,
    }
}

/// Whether a token is red (6 or 8): the class `red-apart` keeps apart.
#[inline]
pub(crate) fn is_red(token: u8) -> bool {
    token == 6 || token == 8
}

/// Whether a token is a 2 or a 12: the class `2-12-apart` keeps apart.
#[inline]
pub(crate) fn is_extreme(token: u8) -> bool {
    token == 2 || token == 12
}

/// Corner numbers of the spec: 0 bottom, 1 lower right, 2 upper right, 3 top,
/// 4 upper left, 5 lower left. The edge between corners k and k+1 faces the neighbour
/// in direction EDGE_DIR[k].
pub(crate) const EDGE_DIR: [(i32, i32); 6] = [(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)];

/// A harbor frame position: the sea hex it sits on and its two piers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Harbor {
    /// Row of the sea hex (spec coordinates, may lie outside the land, e.g. -1).
    pub x: i32,
    /// Position along the row of the sea hex.
    pub y: i32,
    /// The two corners (0-5, numbered as for `EDGE_DIR`) its piers point at; consecutive.
    pub piers: (u8, u8),
}

/// Which board.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum BoardKind {
    /// 19 hexes for 3-4 players.
    #[default]
    Base,
    /// 30 hexes for 5-6 players.
    Extended,
}

impl BoardKind {
    /// The board's name in parameters and outputs: `base` or `extended`.
    pub fn name(self) -> &'static str {
        match self {
            BoardKind::Base => "base",
            BoardKind::Extended => "extended",
        }
    }

    /// The board's shape, built once per kind.
    pub fn shape(self) -> &'static Shape {
        static BASE: OnceLock<Shape> = OnceLock::new();
        static EXT: OnceLock<Shape> = OnceLock::new();
        match self {
            BoardKind::Base => BASE.get_or_init(|| Shape::build(self)),
            BoardKind::Extended => EXT.get_or_init(|| Shape::build(self)),
        }
    }
}

impl std::str::FromStr for BoardKind {
    type Err = ground::Error;
    /// "base" (or "3-4") or "extended" (or "5-6"); anything else is an error
    /// about the parameter `board`.
    fn from_str(s: &str) -> ground::Result<Self> {
        match s {
            "base" | "3-4" => Ok(BoardKind::Base),
            "extended" | "5-6" => Ok(BoardKind::Extended),
            _ => Err(ground::Error::param(
                "board",
                format!("'{s}' is unknown: use base (3-4 players) or extended (5-6 players)"),
            )),
        }
    }
}

/// Everything fixed about a board shape. Hex index i is hex number n = i + 1.
#[derive(Debug, Clone)]
pub struct Shape {
    /// Which board this is.
    pub kind: BoardKind,
    /// Spec coordinates (x, y) per hex index, in reading order (index = hex number - 1).
    pub hexes: Vec<(i32, i32)>,
    /// Bit j of `neighbours[i]` is set when hexes i and j touch.
    pub neighbours: Vec<u32>,
    /// Land hexes meeting at each corner where two or three land hexes meet.
    pub corners: Vec<Vec<u8>>,
    /// Harbor frame positions, in the order harbor kinds are stored in a layout.
    pub harbors: Vec<Harbor>,
    /// Non-desert terrain codes, one per non-desert hex.
    pub terrains: Vec<u8>,
    /// How many desert hexes (1 on the base board, 2 on the extended one).
    pub deserts: usize,
    /// Tokens, one per non-desert hex.
    pub tokens: Vec<u8>,
    /// Harbor kinds, one per harbor position.
    pub harbor_kinds: Vec<u8>,
    /// Per harbor position, the land hexes at its piers as a bitmask (see
    /// `Shape::harbor_hexes`).
    pub harbor_reach: Vec<u32>,
}

fn rows(kind: BoardKind) -> Vec<(i32, i32)> {
    match kind {
        BoardKind::Base => vec![(0, 2), (0, 3), (0, 4), (1, 4), (2, 4)],
        BoardKind::Extended => vec![(0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (3, 5)],
    }
}

/// Drawing position of a hex centre in units of the hex width (x right, y down).
pub fn centre(x: i32, y: i32) -> (f64, f64) {
    (
        f64::from(y) - f64::from(x) / 2.0,
        f64::from(x) * 3f64.sqrt() / 2.0,
    )
}

fn is_neighbour(a: (i32, i32), b: (i32, i32)) -> bool {
    EDGE_DIR.contains(&(b.0 - a.0, b.1 - a.1))
}

/// Order hexes as the spec numbers them: the outer ring counter-clockwise from the
/// north-west corner (down the left side first), then the next ring, and so on.
fn spiral(cells: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut left: Vec<(i32, i32)> = cells.to_vec();
    let mut order = Vec::new();
    while !left.is_empty() {
        let ring: Vec<(i32, i32)> = left
            .iter()
            .copied()
            .filter(|&h| left.iter().filter(|&&o| is_neighbour(h, o)).count() < 6)
            .collect();
        // Walk the ring: start at the north-west corner, first step down-left.
        let start = *ring.iter().min().expect("non-empty ring");
        let mut walk = vec![start];
        let mut prev_dir = 5usize; // pretend we arrived heading down-left
        while walk.len() < ring.len() {
            let cur = *walk.last().unwrap();
            // Prefer turning so the ring's outside stays on the right-hand side.
            let dirs = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];
            let mut found = None;
            for k in 0..6 {
                let d = dirs[(prev_dir + 5 + k) % 6];
                let next = (cur.0 + d.0, cur.1 + d.1);
                if ring.contains(&next) && !walk.contains(&next) {
                    found = Some(((prev_dir + 5 + k) % 6, next));
                    break;
                }
            }
            let (d, next) = found.expect("ring is connected");
            prev_dir = d;
            walk.push(next);
        }
        left.retain(|h| !walk.contains(h));
        order.extend(walk);
    }
    order
}

impl Shape {
    fn build(kind: BoardKind) -> Shape {
        let mut cells = Vec::new();
        for (x, (y0, y1)) in rows(kind).into_iter().enumerate() {
            for y in y0..=y1 {
                cells.push((x as i32, y));
            }
        }
        let hexes = spiral(&cells);
        let neighbours = hexes
            .iter()
            .map(|&a| {
                hexes
                    .iter()
                    .enumerate()
                    .filter(|&(_, &b)| is_neighbour(a, b))
                    .fold(0u32, |m, (j, _)| m | 1 << j)
            })
            .collect();
        // Corners: three mutually touching hexes, or two touching hexes on the coast.
        let mut corner_map: BTreeMap<(i64, i64), Vec<u8>> = BTreeMap::new();
        for (i, &(x, y)) in hexes.iter().enumerate() {
            let (cx, cy) = centre(x, y);
            for k in 0..6 {
                let a = std::f64::consts::PI / 2.0 + f64::from(k) * std::f64::consts::PI / 3.0;
                let r = 1.0 / 3f64.sqrt();
                let key = (
                    ((cx + r * a.cos()) * 1000.0).round() as i64,
                    ((cy + r * a.sin()) * 1000.0).round() as i64,
                );
                corner_map.entry(key).or_default().push(i as u8);
            }
        }
        let corners = corner_map.into_values().filter(|v| v.len() >= 2).collect();
        let harbors = harbor_positions(kind, &hexes);
        let (terrains, deserts, tokens, harbor_kinds) = match kind {
            BoardKind::Base => (
                multiset(&[(WHEAT, 4), (WOOD, 4), (SHEEP, 4), (CLAY, 3), (ROCK, 3)]),
                1,
                multiset(&[
                    (2, 1),
                    (3, 2),
                    (4, 2),
                    (5, 2),
                    (6, 2),
                    (8, 2),
                    (9, 2),
                    (10, 2),
                    (11, 2),
                    (12, 1),
                ]),
                multiset(&[(GENERIC, 4), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]),
            ),
            BoardKind::Extended => (
                multiset(&[(WHEAT, 6), (WOOD, 6), (SHEEP, 6), (CLAY, 5), (ROCK, 5)]),
                2,
                multiset(&[
                    (2, 2),
                    (3, 3),
                    (4, 3),
                    (5, 3),
                    (6, 3),
                    (8, 3),
                    (9, 3),
                    (10, 3),
                    (11, 3),
                    (12, 2),
                ]),
                multiset(&[(GENERIC, 5), (1, 1), (2, 1), (3, 2), (4, 1), (5, 1)]),
            ),
        };
        let mut shape = Shape {
            kind,
            hexes,
            neighbours,
            corners,
            harbors,
            terrains,
            deserts,
            tokens,
            harbor_kinds,
            harbor_reach: Vec::new(),
        };
        shape.harbor_reach = (0..shape.harbors.len())
            .map(|p| shape.harbor_hexes(p).iter().fold(0u32, |m, &h| m | 1 << h))
            .collect();
        shape
    }

    /// Number of land hexes (19 on the base board, 30 on the extended one).
    pub fn len(&self) -> usize {
        self.hexes.len()
    }

    /// Whether the shape has no hexes (never true for a real board).
    pub fn is_empty(&self) -> bool {
        self.hexes.is_empty()
    }

    /// How many tokens of a value the board has.
    pub(crate) fn token_count(&self, v: u8) -> usize {
        self.tokens.iter().filter(|&&t| t == v).count()
    }

    /// How many hexes of a terrain code the board has (deserts included).
    pub(crate) fn terrain_count(&self, t: u8) -> usize {
        if t == DESERT {
            self.deserts
        } else {
            self.terrains.iter().filter(|&&x| x == t).count()
        }
    }

    /// The land hexes that touch harbor position `p`'s piers, as hex indices in
    /// ascending order: the land hexes sharing either corner its piers point at. Corner
    /// k of a hex is shared by the neighbours across the edges k-1..k and k..k+1, so
    /// piers (k, k+1) reach the neighbours in directions k-1, k and k+1.
    pub(crate) fn harbor_hexes(&self, p: usize) -> Vec<u8> {
        let h = self.harbors[p];
        let k = usize::from(h.piers.0);
        let mut v: Vec<u8> = [(k + 5) % 6, k, (k + 1) % 6]
            .into_iter()
            .filter_map(|d| {
                let at = (h.x + EDGE_DIR[d].0, h.y + EDGE_DIR[d].1);
                self.hexes.iter().position(|&c| c == at).map(|i| i as u8)
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// How many red tokens (6s and 8s) the board has.
    pub(crate) fn reds(&self) -> usize {
        self.tokens.iter().filter(|&&t| is_red(t)).count()
    }
}

fn multiset(counts: &[(u8, usize)]) -> Vec<u8> {
    counts
        .iter()
        .flat_map(|&(v, n)| std::iter::repeat_n(v, n))
        .collect()
}

/// Harbor frame positions. The base board uses the spec's nine; the extended board puts
/// one on every other sea hex counter-clockwise from the north-west corner (as the base
/// board's nine do), with its piers on the edge facing its first land neighbour
/// clockwise from the top.
fn harbor_positions(kind: BoardKind, hexes: &[(i32, i32)]) -> Vec<Harbor> {
    match kind {
        BoardKind::Base => [
            (-1, -1, 0, 1),
            (1, -1, 1, 2),
            (3, 0, 1, 2),
            (5, 2, 2, 3),
            (5, 4, 3, 4),
            (4, 5, 3, 4),
            (2, 5, 4, 5),
            (0, 3, 5, 0),
            (-1, 1, 5, 0),
        ]
        .iter()
        .map(|&(x, y, a, b)| Harbor {
            x,
            y,
            piers: (a, b),
        })
        .collect(),
        BoardKind::Extended => {
            let land = |h: &(i32, i32)| hexes.contains(h);
            let mut sea: Vec<(i32, i32)> = Vec::new();
            for &(x, y) in hexes {
                for d in EDGE_DIR {
                    let s = (x + d.0, y + d.1);
                    if !land(&s) && !sea.contains(&s) {
                        sea.push(s);
                    }
                }
            }
            let ring = spiral(&{
                // The sea ring plus the island, so the spiral's first ring is the sea.
                let mut all = sea.clone();
                all.extend_from_slice(hexes);
                all
            });
            let sea_ring: Vec<(i32, i32)> = ring.into_iter().take(sea.len()).collect();
            sea_ring
                .iter()
                .step_by(2)
                .map(|&(x, y)| {
                    // Edge k faces EDGE_DIR[k]; clockwise from the top: k = 2, 1, 0, 5, 4, 3.
                    let k = [2usize, 1, 0, 5, 4, 3]
                        .into_iter()
                        .find(|&k| land(&(x + EDGE_DIR[k].0, y + EDGE_DIR[k].1)))
                        .expect("a sea hex touches land");
                    Harbor {
                        x,
                        y,
                        piers: (k as u8, ((k + 1) % 6) as u8),
                    }
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_numbering_matches_the_spec() {
        let s = BoardKind::Base.shape();
        let spec = [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 1),
            (4, 2),
            (4, 3),
            (4, 4),
            (3, 4),
            (2, 4),
            (1, 3),
            (0, 2),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 2),
            (3, 3),
            (2, 3),
            (1, 2),
            (2, 2),
        ];
        assert_eq!(s.hexes, spec);
        assert_eq!(
            s.neighbours.iter().map(|m| m.count_ones()).sum::<u32>(),
            2 * 42
        );
        assert_eq!(
            s.neighbours[18].count_ones(),
            6,
            "the centre has six neighbours"
        );
    }

    #[test]
    fn multisets_and_sizes() {
        for kind in [BoardKind::Base, BoardKind::Extended] {
            let s = kind.shape();
            assert_eq!(s.terrains.len() + s.deserts, s.len());
            assert_eq!(s.tokens.len(), s.terrains.len());
            assert_eq!(s.harbor_kinds.len(), s.harbors.len());
        }
        let e = BoardKind::Extended.shape();
        assert_eq!(
            (e.len(), e.tokens.len(), e.deserts, e.harbors.len()),
            (30, 28, 2, 11)
        );
        assert_eq!(BoardKind::Base.shape().reds(), 4);
        assert_eq!(e.reds(), 6);
    }

    #[test]
    fn extended_harbors_touch_the_island_through_their_piers() {
        for kind in [BoardKind::Base, BoardKind::Extended] {
            let s = kind.shape();
            for h in &s.harbors {
                assert!(!s.hexes.contains(&(h.x, h.y)));
                let k = h.piers.0 as usize;
                assert_eq!((k + 1) % 6, h.piers.1 as usize);
                let d = EDGE_DIR[k];
                assert!(s.hexes.contains(&(h.x + d.0, h.y + d.1)), "{kind:?} {h:?}");
            }
        }
    }

    /// The land hexes at each harbor's piers, found again in pixel space: a pier points
    /// at a corner of the sea hex (corner k at 90 - 60k degrees from the centre, y
    /// down, one corner radius away), and a land hex touches it when its centre is a
    /// corner radius from that point.
    #[test]
    fn harbor_hexes_match_the_pixel_geometry() {
        let r = 1.0 / 3f64.sqrt();
        for kind in [BoardKind::Base, BoardKind::Extended] {
            let s = kind.shape();
            for (p, h) in s.harbors.iter().enumerate() {
                let (cx, cy) = centre(h.x, h.y);
                let mut want = Vec::new();
                for k in [h.piers.0, h.piers.1] {
                    let a = (90.0 - 60.0 * f64::from(k)).to_radians();
                    let (px, py) = (cx + r * a.cos(), cy + r * a.sin());
                    for (i, &(x, y)) in s.hexes.iter().enumerate() {
                        let (hx, hy) = centre(x, y);
                        if ((hx - px).hypot(hy - py) - r).abs() < 1e-9 && !want.contains(&i) {
                            want.push(i);
                        }
                    }
                }
                want.sort_unstable();
                let got: Vec<usize> = s.harbor_hexes(p).iter().map(|&i| usize::from(i)).collect();
                assert_eq!(got, want, "{kind:?} harbor {p} {h:?}");
                assert!(!got.is_empty() && got.len() <= 3, "{kind:?} {h:?}");
            }
        }
        // By hand: the first base harbor (-1, -1) points at hex 1's top corners only;
        // the one at (1, -1), left of hex 2, at hex 2 and, by its lower corner, hex 3.
        let b = BoardKind::Base.shape();
        assert_eq!(b.harbor_hexes(0), [0]);
        assert_eq!(b.harbor_hexes(1), [1, 2]);
    }

    #[test]
    fn corners() {
        let s = BoardKind::Base.shape();
        // 54 corners: 24 where three land hexes meet, 12 coastal ones with two
        // (and 18 with one, not kept): 24*3 + 12*2 + 18 = 19*6.
        assert_eq!(s.corners.iter().filter(|c| c.len() == 3).count(), 24);
        assert_eq!(s.corners.iter().filter(|c| c.len() == 2).count(), 12);
    }
}
