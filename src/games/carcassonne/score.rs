//! One-player scoring (the spec's rules) with a union-find over the road and city
//! segments of the tiles: a segment is one city area or one road piece of a tile; the
//! segments that meet across touching edges are joined; a feature is complete when
//! none of its edges faces an empty square.

use super::tiles::{Landscape, Tile, CITY, ROAD};
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Part {
    pub count: u32,
    pub points: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Breakdown {
    pub complete_cities: Part,
    pub incomplete_cities: Part,
    pub complete_roads: Part,
    pub incomplete_roads: Part,
    pub complete_monasteries: Part,
    pub incomplete_monasteries: Part,
}

impl Breakdown {
    pub fn total(&self) -> u32 {
        self.parts().iter().map(|(p, ..)| p.points).sum()
    }

    fn parts(&self) -> [(Part, &'static str, &'static str, &'static str); 6] {
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
        ]
    }

    /// The published style: "1 c. city (4), 1 i. city (6), 6 i. roads (10)".
    pub fn text(&self) -> String {
        let parts: Vec<String> = self
            .parts()
            .iter()
            .filter(|(p, ..)| p.count > 0)
            .map(|(p, ci, one, many)| {
                format!(
                    "{} {ci} {} ({})",
                    p.count,
                    if p.count == 1 { one } else { many },
                    p.points
                )
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

/// Score a consistent landscape.
pub fn score(l: &Landscape) -> Breakdown {
    let n = l.squares.len();
    let segs: Vec<Option<Segments>> = l.squares.iter().map(|s| s.map(segments)).collect();
    let node = |sq: usize, local: u8| (sq * 8 + local as usize) as u32;
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
        let (r, c) = ((sq / l.cols) as isize, (sq % l.cols) as isize);
        let around = (-1..=1)
            .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
            .filter(|&(dr, dc)| (dr, dc) != (0, 0) && l.get(r + dr, c + dc).is_some())
            .count() as u32;
        if around == 8 {
            b.complete_monasteries.count += 1;
            b.complete_monasteries.points += 9;
        } else {
            b.incomplete_monasteries.count += 1;
            b.incomplete_monasteries.points += 1 + around;
        }
    }
    b
}
