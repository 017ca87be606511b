//! Landscapes the way the real game makes them: the start tile first, then tiles
//! drawn at random from the 72-tile base set; each goes to a legal placement (every
//! touching edge matches; any rotation) chosen uniformly among all legal
//! (square, orientation) pairs, where orientations that look the same count once; a
//! tile that fits nowhere is discarded, as in the game. Stops at `tiles` placed or
//! when the bag is empty.

use super::tiles::{Landscape, Tile, BASE_SET, START};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

/// The bag without the start tile (71 tiles).
pub(crate) fn bag() -> Vec<Tile> {
    let mut v = Vec::with_capacity(71);
    let mut start_taken = false;
    for &(n, t) in &BASE_SET {
        for _ in 0..n {
            if t == START && !start_taken {
                start_taken = true;
                continue;
            }
            v.push(Tile::from_array(t));
        }
    }
    v
}

/// A landscape laid by drawing tiles and placing each where it fits.
pub struct Made {
    /// The landscape laid.
    pub landscape: Landscape,
    /// Tiles drawn that fit nowhere.
    pub discarded: usize,
}

const DR: [isize; 4] = [-1, 0, 1, 0];
const DC: [isize; 4] = [0, 1, 0, -1];

/// Make one landscape of up to `tiles` tiles (1..=72).
pub fn landscape(tiles: usize, rng: &mut impl RngCore) -> Made {
    let side = 2 * tiles + 3;
    let mut grid: Vec<Option<Tile>> = vec![None; side * side];
    let idx = |r: usize, c: usize| r * side + c;
    let centre = side / 2;
    grid[idx(centre, centre)] = Some(Tile::from_array(START));
    let mut frontier: Vec<usize> = Vec::new();
    let mut in_frontier = vec![false; side * side];
    let mut push_neighbours = |grid: &Vec<Option<Tile>>, frontier: &mut Vec<usize>, sq: usize| {
        let (r, c) = (sq / side, sq % side);
        for d in 0..4 {
            let n = idx((r as isize + DR[d]) as usize, (c as isize + DC[d]) as usize);
            if grid[n].is_none() && !in_frontier[n] {
                in_frontier[n] = true;
                frontier.push(n);
            }
        }
    };
    push_neighbours(&grid, &mut frontier, idx(centre, centre));
    let mut bag = bag();
    bag.shuffle(rng);
    let (mut placed, mut discarded) = (1, 0);
    let (mut rmin, mut rmax, mut cmin, mut cmax) = (centre, centre, centre, centre);
    let mut options: Vec<(usize, Tile)> = Vec::new();
    for tile in bag {
        if placed >= tiles {
            break;
        }
        options.clear();
        let orients = tile.orientations();
        for &sq in &frontier {
            if grid[sq].is_some() {
                continue;
            }
            let (r, c) = (sq / side, sq % side);
            let around: [Option<Tile>; 4] = std::array::from_fn(|d| {
                grid[idx((r as isize + DR[d]) as usize, (c as isize + DC[d]) as usize)]
            });
            for &o in &orients {
                if (0..4).all(|d| around[d].is_none_or(|u| u.edges[(d + 2) % 4] == o.edges[d])) {
                    options.push((sq, o));
                }
            }
        }
        if options.is_empty() {
            discarded += 1;
            continue;
        }
        let (sq, o) = options[rng.random_range(0..options.len())];
        grid[sq] = Some(o);
        placed += 1;
        let (r, c) = (sq / side, sq % side);
        rmin = rmin.min(r);
        rmax = rmax.max(r);
        cmin = cmin.min(c);
        cmax = cmax.max(c);
        push_neighbours(&grid, &mut frontier, sq);
        frontier.retain(|&f| grid[f].is_none());
    }
    let (rows, cols) = (rmax - rmin + 1, cmax - cmin + 1);
    let mut squares = Vec::with_capacity(rows * cols);
    for r in rmin..=rmax {
        squares.extend_from_slice(&grid[idx(r, cmin)..=idx(r, cmax)]);
    }
    Made {
        landscape: Landscape {
            rows,
            cols,
            squares,
            shields: Vec::new(),
        },
        discarded,
    }
}
