//! One-player scoring (the spec's rules) with a union-find over the road and city
//! segments of the tiles: a segment is one city area or one road piece of a tile; the
//! segments that meet across touching edges are joined; a feature is complete when
//! none of its edges faces an empty square.

use super::tiles::{Landscape, Tile, CITY, ROAD};
use serde::{Deserialize, Serialize};

/// The score of one kind of feature.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Features of this kind (for farms and shields: farms and shields).
    pub count: u32,
    /// Points they score.
    pub points: u32,
}

impl Part {
    /// True when nothing of this kind scored or was counted.
    pub fn is_empty(&self) -> bool {
        self.count == 0 && self.points == 0
    }
}

/// A landscape's score by kind of feature.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Breakdown {
    /// Cities with no open edge.
    pub complete_cities: Part,
    /// Cities with an edge facing an empty square.
    pub incomplete_cities: Part,
    /// Roads with both ends closed.
    pub complete_roads: Part,
    /// Roads with an end facing an empty square.
    pub incomplete_roads: Part,
    /// Monasteries with all eight squares around them filled.
    pub complete_monasteries: Part,
    /// Monasteries with an empty square around them.
    pub incomplete_monasteries: Part,
    /// Farms that border a complete city (only with the farms option).
    #[serde(default, skip_serializing_if = "Part::is_empty")]
    pub farms: Part,
    /// Shields (the full game's option): 2 points each in a complete city, 1 in an
    /// incomplete one, on top of the city's own points.
    #[serde(default, skip_serializing_if = "Part::is_empty")]
    pub shields: Part,
}

impl Breakdown {
    /// The total score: the sum of every part's points.
    pub fn total(&self) -> u32 {
        self.parts().iter().map(|(p, ..)| p.points).sum()
    }

    fn parts(&self) -> [(Part, &'static str, &'static str, &'static str); 8] {
        [
            (self.complete_cities, "c.", "city", "cities"),
            (self.incomplete_cities, "i.", "city", "cities"),
            (self.complete_roads, "c.", "road", "roads"),
            (self.incomplete_roads, "i.", "road", "roads"),
            (self.complete_monasteries, "c.", "monastery", "monasteries"),
            (
                self.incomplete_monasteries,
                "i.",
                "monastery",
                "monasteries",
            ),
            (self.farms, "", "farm", "farms"),
            (self.shields, "", "shield", "shields"),
        ]
    }

    /// The published style: "1 c. city (4), 1 i. city (6), 6 i. roads (10)".
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .parts()
            .iter()
            .filter(|(p, ..)| p.count > 0)
            .map(|(p, ci, one, many)| {
                let what = if p.count == 1 { one } else { many };
                let tag = if ci.is_empty() {
                    String::new()
                } else {
                    format!("{ci} ")
                };
                format!("{} {tag}{what} ({})", p.count, p.points)
            })
            .collect();
        if parts.is_empty() {
            "nothing to score".into()
        } else {
            parts.join(", ")
        }
    }
}

/// Which segment (local index) each edge of a tile belongs to, and each segment's kind.
struct Segments {
    of_edge: [u8; 4],
    kinds: [u8; 8],
    n: u8,
}

const NO_SEGMENT: u8 = u8::MAX;

fn segments(t: Tile) -> Segments {
    let mut s = Segments {
        of_edge: [NO_SEGMENT; 4],
        kinds: [0; 8],
        n: 0,
    };
    let new = |s: &mut Segments, kind: u8| {
        s.kinds[s.n as usize] = kind;
        s.n += 1;
        s.n - 1
    };
    // Cities: one area for all city edges when cities == 1, one per edge when 2.
    let mut shared_city = NO_SEGMENT;
    for d in 0..4 {
        if t.edges[d] == CITY {
            s.of_edge[d] = if t.cities == 1 {
                if shared_city == NO_SEGMENT {
                    shared_city = new(&mut s, CITY);
                }
                shared_city
            } else {
                new(&mut s, CITY)
            };
        }
    }
    // Roads: two road edges are one road through the tile; 1, 3 or 4 end on it.
    let roads = t.count(ROAD);
    let mut through = NO_SEGMENT;
    for d in 0..4 {
        if t.edges[d] == ROAD {
            s.of_edge[d] = if roads == 2 {
                if through == NO_SEGMENT {
                    through = new(&mut s, ROAD);
                }
                through
            } else {
                new(&mut s, ROAD)
            };
        }
    }
    s
}

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

/// Score a consistent landscape by the spec's rules (no farms).
pub fn score(l: &Landscape) -> Breakdown {
    score_with(l, false)
}

/// The segments of every square joined into features (union-find), and which segment
/// ends at an empty square.
struct Joined {
    segs: Vec<Option<Segments>>,
    parent: Vec<u32>,
    open: Vec<bool>,
}

fn node(sq: usize, local: u8) -> u32 {
    (sq * 8 + local as usize) as u32
}

fn join(l: &Landscape) -> Joined {
    let n = l.squares.len();
    let segs: Vec<Option<Segments>> = l.squares.iter().map(|s| s.map(segments)).collect();
    let mut parent: Vec<u32> = (0..(n * 8) as u32).collect();
    let mut open = vec![false; n * 8];
    const DR: [isize; 4] = [-1, 0, 1, 0];
    const DC: [isize; 4] = [0, 1, 0, -1];
    for sq in 0..n {
        let Some(s) = &segs[sq] else { continue };
        let (r, c) = ((sq / l.cols) as isize, (sq % l.cols) as isize);
        for d in 0..4 {
            let local = s.of_edge[d];
            if local == NO_SEGMENT {
                continue;
            }
            let (nr, nc) = (r + DR[d], c + DC[d]);
            match l.get(nr, nc) {
                None => open[node(sq, local) as usize] = true,
                Some(_) if d == 1 || d == 2 => {
                    let other = nr as usize * l.cols + nc as usize;
                    let their = segs[other].as_ref().expect("a tile").of_edge[(d + 2) % 4];
                    let (a, b) = (
                        find(&mut parent, node(sq, local)),
                        find(&mut parent, node(other, their)),
                    );
                    parent[a as usize] = b;
                }
                Some(_) => {}
            }
        }
    }
    Joined { segs, parent, open }
}

/// What the answer drawing marks as complete on one square.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    /// Edge d (N, E, S, W) is part of a city that is closed.
    pub closed_city: [bool; 4],
    /// Edge d is part of a road that is finished at both ends.
    pub finished_road: [bool; 4],
    /// The square holds a monastery with all eight squares around it filled.
    pub surrounded_monastery: bool,
}

/// Per square, which of its features are complete (empty squares: no marks).
pub fn marks(l: &Landscape) -> Vec<Marks> {
    let mut j = join(l);
    let n = l.squares.len();
    let mut feature_open = vec![false; n * 8];
    for sq in 0..n {
        let Some(s) = &j.segs[sq] else { continue };
        for local in 0..s.n {
            let root = find(&mut j.parent, node(sq, local));
            feature_open[root as usize] |= j.open[node(sq, local) as usize];
        }
    }
    let mut out = vec![Marks::default(); n];
    for sq in 0..n {
        let (Some(t), Some(s)) = (l.squares[sq], &j.segs[sq]) else {
            continue;
        };
        for d in 0..4 {
            let local = s.of_edge[d];
            if local == NO_SEGMENT {
                continue;
            }
            let complete = !feature_open[find(&mut j.parent, node(sq, local)) as usize];
            if t.edges[d] == CITY {
                out[sq].closed_city[d] = complete;
            } else {
                out[sq].finished_road[d] = complete;
            }
        }
        if t.is_monastery() {
            out[sq].surrounded_monastery = neighbours(l, sq) == 8;
        }
    }
    out
}

/// The squares around `sq` (of its eight) that hold a tile.
fn neighbours(l: &Landscape, sq: usize) -> u32 {
    let (r, c) = ((sq / l.cols) as isize, (sq % l.cols) as isize);
    (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
        .filter(|&(dr, dc)| (dr, dc) != (0, 0) && l.get(r + dr, c + dc).is_some())
        .count() as u32
}

/// Where an answer drawing writes the points of one scored feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    /// The square the label sits on.
    pub square: usize,
    /// The edge (N, E, S, W) of that square the feature reaches, the label set just
    /// inside it; None: the square's centre (a monastery).
    pub edge: Option<usize>,
    /// The feature's points by the one-player rules (shields included, farms not).
    pub points: u32,
}

/// One label for every city, road and monastery, with its points: the same points
/// [`score`] adds up. Each feature's label sits on its first square (in reading order),
/// at the first edge (N, E, S, W) the feature reaches there.
pub fn labels(l: &Landscape) -> Vec<Label> {
    let n = l.squares.len();
    let Joined {
        segs,
        mut parent,
        open,
    } = join(l);
    // Per feature root: open?, its squares (distinct), its first (square, edge).
    let mut feature_open = vec![false; n * 8];
    let mut squares: Vec<Vec<usize>> = vec![Vec::new(); n * 8];
    let mut anchor: Vec<Option<(usize, usize)>> = vec![None; n * 8];
    let mut kind = vec![0u8; n * 8];
    for sq in 0..n {
        let Some(s) = &segs[sq] else { continue };
        for local in 0..s.n {
            let root = find(&mut parent, node(sq, local)) as usize;
            feature_open[root] |= open[node(sq, local) as usize];
            kind[root] = s.kinds[local as usize];
            if squares[root].last() != Some(&sq) {
                squares[root].push(sq);
            }
            if anchor[root].is_none() {
                if let Some(d) = (0..4).find(|&d| s.of_edge[d] == local) {
                    anchor[root] = Some((sq, d));
                }
            }
        }
    }
    let mut out = Vec::new();
    for root in 0..n * 8 {
        let (Some((square, edge)), false) = (anchor[root], squares[root].is_empty()) else {
            continue;
        };
        let tiles = squares[root].len() as u32;
        let complete = !feature_open[root];
        let points = if kind[root] == CITY {
            let shields = squares[root].iter().filter(|&&sq| l.has_shield(sq)).count() as u32;
            if complete {
                2 * tiles + 2 * shields
            } else {
                tiles + shields
            }
        } else {
            tiles
        };
        out.push(Label {
            square,
            edge: Some(edge),
            points,
        });
    }
    for sq in 0..n {
        let Some(t) = l.squares[sq] else { continue };
        if !t.is_monastery() {
            continue;
        }
        let around = neighbours(l, sq);
        out.push(Label {
            square: sq,
            edge: None,
            points: if around == 8 { 9 } else { 1 + around },
        });
    }
    out.sort_by_key(|lb| (lb.square, lb.edge.map_or(4, |e| e)));
    out
}

/// Score with or without the full game's farms: every field area (farm) scores 3 points
/// for each complete city it borders.
pub fn score_with(l: &Landscape, farms: bool) -> Breakdown {
    let n = l.squares.len();
    let Joined {
        segs,
        mut parent,
        open,
    } = join(l);
    // Per feature: kind, open, and the distinct tiles it covers.
    let mut members: Vec<(u32, usize)> = Vec::new();
    let mut feature_open = vec![false; n * 8];
    let mut kind = vec![0u8; n * 8];
    for sq in 0..n {
        let Some(s) = &segs[sq] else { continue };
        for local in 0..s.n {
            let root = find(&mut parent, node(sq, local));
            members.push((root, sq));
            feature_open[root as usize] |= open[node(sq, local) as usize];
            kind[root as usize] = s.kinds[local as usize];
        }
    }
    members.sort_unstable();
    members.dedup();
    let mut b = Breakdown::default();
    let mut i = 0;
    while i < members.len() {
        let root = members[i].0;
        let mut j = i;
        while j < members.len() && members[j].0 == root {
            j += 1;
        }
        let tiles = (j - i) as u32;
        let complete = !feature_open[root as usize];
        if kind[root as usize] == CITY {
            let shields = members[i..j]
                .iter()
                .filter(|&&(_, sq)| l.has_shield(sq))
                .count() as u32;
            b.shields.count += shields;
            b.shields.points += shields * if complete { 2 } else { 1 };
        }
        let part = match (kind[root as usize], complete) {
            (CITY, true) => (&mut b.complete_cities, 2 * tiles),
            (CITY, false) => (&mut b.incomplete_cities, tiles),
            (_, true) => (&mut b.complete_roads, tiles),
            (_, false) => (&mut b.incomplete_roads, tiles),
        };
        part.0.count += 1;
        part.0.points += part.1;
        i = j;
    }
    for sq in 0..n {
        let Some(t) = l.squares[sq] else { continue };
        if !t.is_monastery() {
            continue;
        }
        let around = neighbours(l, sq);
        if around == 8 {
            b.complete_monasteries.count += 1;
            b.complete_monasteries.points += 9;
        } else {
            b.incomplete_monasteries.count += 1;
            b.incomplete_monasteries.points += 1 + around;
        }
    }
    if farms {
        b.farms = farm_points(l, &segs, &mut parent, &feature_open, &kind);
    }
    b
}

/// Field areas of a tile: eight ports around it, two per edge, clockwise from the
/// west half of the north edge (port 2d is the first half of edge d going clockwise,
/// 2d+1 the second). Returns the field group of each port (u8::MAX: not a field).
///
/// Ports of a city edge are not fields. A road cuts the ring between its edge's two
/// halves when the tile has two or more road edges (a road through the tile, or roads
/// meeting at a crossing); a single road ends on the tile and the field goes round it.
/// A city that is one area over several separate runs of edges (a band across the
/// tile) cuts the ring at each run; a city cap over one run does not (the field goes
/// round it, between its wall and any road).
pub(crate) fn field_groups(t: Tile) -> [u8; 8] {
    let roads = t.count(ROAD);
    let city_edges: Vec<usize> = (0..4).filter(|&d| t.edges[d] == CITY).collect();
    let runs = (0..4)
        .filter(|&d| t.edges[d] == CITY && t.edges[(d + 3) % 4] != CITY)
        .count();
    let band = t.cities == 1 && runs >= 2;
    // cut_after[p]: the ring is cut between port p and port p + 1.
    let mut cut_after = [false; 8];
    for d in 0..4 {
        if t.edges[d] == ROAD && roads >= 2 {
            cut_after[2 * d] = true;
        }
        if band && t.edges[d] == CITY {
            cut_after[2 * d + 1] = true;
            cut_after[(2 * d + 7) % 8] = true;
        }
    }
    let is_field = |p: usize| t.edges[p / 2] != CITY;
    let mut group = [u8::MAX; 8];
    if city_edges.len() == 4 {
        return group;
    }
    // Walk the ring from just after a cut (or from 0 if there is none).
    let start = (0..8).find(|&p| cut_after[p]).map_or(0, |p| (p + 1) % 8);
    let mut g = 0u8;
    for k in 0..8 {
        let p = (start + k) % 8;
        if is_field(p) {
            group[p] = g;
        }
        if cut_after[p] {
            g += 1;
        }
    }
    group
}

fn farm_points(
    l: &Landscape,
    segs: &[Option<Segments>],
    parent: &mut [u32],
    feature_open: &[bool],
    kind: &[u8],
) -> Part {
    let n = l.squares.len();
    let groups: Vec<[u8; 8]> = l
        .squares
        .iter()
        .map(|s| s.map_or([u8::MAX; 8], field_groups))
        .collect();
    let fnode = |sq: usize, g: u8| (sq * 8 + g as usize) as u32;
    let mut fparent: Vec<u32> = (0..(n * 8) as u32).collect();
    // Join field groups across edges: port 2d+i meets the neighbour's port
    // 2(d+2)+(1-i) (the same half of the shared edge, seen from the other side).
    for sq in 0..n {
        if l.squares[sq].is_none() {
            continue;
        }
        let (r, c) = ((sq / l.cols) as isize, (sq % l.cols) as isize);
        for (d, dr, dc) in [(1usize, 0isize, 1isize), (2, 1, 0)] {
            if l.get(r + dr, c + dc).is_none() {
                continue;
            }
            let other = (r + dr) as usize * l.cols + (c + dc) as usize;
            for i in 0..2 {
                let (a, b) = (
                    groups[sq][2 * d + i],
                    groups[other][2 * ((d + 2) % 4) + 1 - i],
                );
                if a != u8::MAX && b != u8::MAX {
                    let (x, y) = (
                        find(&mut fparent, fnode(sq, a)),
                        find(&mut fparent, fnode(other, b)),
                    );
                    fparent[x as usize] = y;
                }
            }
        }
    }
    // Which complete cities each farm borders: on a tile, a city segment borders the
    // field groups of the ports just before and just after each run of its edges.
    let mut borders: Vec<(u32, u32)> = Vec::new();
    for sq in 0..n {
        let (Some(t), Some(s)) = (l.squares[sq], &segs[sq]) else {
            continue;
        };
        for d in 0..4 {
            if t.edges[d] != CITY {
                continue;
            }
            let city = find(parent, (sq * 8 + s.of_edge[d] as usize) as u32);
            if kind[city as usize] != CITY || feature_open[city as usize] {
                continue;
            }
            for p in [(2 * d + 7) % 8, (2 * d + 2) % 8] {
                let g = groups[sq][p];
                if g != u8::MAX {
                    borders.push((find(&mut fparent, fnode(sq, g)), city));
                }
            }
        }
    }
    borders.sort_unstable();
    borders.dedup();
    let mut part = Part::default();
    let mut farms: Vec<u32> = borders.iter().map(|&(f, _)| f).collect();
    farms.dedup();
    part.count = farms.len() as u32;
    part.points = 3 * borders.len() as u32;
    part
}
