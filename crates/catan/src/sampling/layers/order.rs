//! The order in which a layer places its pieces, and which placed hexes a later step
//! still looks at (the live hexes a state must remember).

use crate::board::Shape;

/// One step of a layer: a hex gets its piece, or a harbor position gets its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Item {
    /// Hex index.
    Hex(usize),
    /// Harbor position.
    Harbor(usize),
}

/// Steps in order and, before each step, the placed hexes some later step looks at.
#[derive(Debug, Clone)]
pub(crate) struct Order {
    /// The steps.
    pub items: Vec<Item>,
    /// Step at which each hex is placed.
    pub step_of: Vec<usize>,
    /// `live[i]`: hexes placed before step i that a step at or after i looks at, in
    /// the order they were placed (their slot in a state). `live[steps]` is empty.
    pub live: Vec<Vec<usize>>,
}

/// Hexes row by row (top row first, left to right): a row's hexes touch only their own
/// row and the rows next to it, so at most about a row and a half are live.
pub(crate) fn row_major(shape: &Shape) -> Vec<usize> {
    let mut v: Vec<usize> = (0..shape.len()).collect();
    v.sort_by_key(|&i| shape.hexes[i]);
    v
}

impl Order {
    /// The hexes in `hexes` order, each harbor of `harbors` placed right after the last
    /// hex its piers reach. A later hex looks at its placed neighbours (when
    /// `neighbours`: some rule judges neighbouring pieces); a harbor at the hexes at its
    /// piers.
    pub(crate) fn new(shape: &Shape, hexes: &[usize], harbors: bool, neighbours: bool) -> Order {
        let mut items = Vec::new();
        let mut step_of = vec![usize::MAX; shape.len()];
        let mut placed = 0u32;
        let mut harbor_done = vec![false; shape.harbors.len()];
        let mut place_harbors = |placed: u32, items: &mut Vec<Item>| {
            if !harbors {
                return;
            }
            for (p, &reach) in shape.harbor_reach.iter().enumerate() {
                if !harbor_done[p] && reach & !placed == 0 {
                    harbor_done[p] = true;
                    items.push(Item::Harbor(p));
                }
            }
        };
        place_harbors(placed, &mut items);
        for &h in hexes {
            step_of[h] = items.len();
            items.push(Item::Hex(h));
            placed |= 1 << h;
            place_harbors(placed, &mut items);
        }
        for (i, it) in items.iter().enumerate() {
            if let Item::Hex(h) = it {
                step_of[*h] = i;
            }
        }
        let looks_at = |item: &Item, h: usize| match *item {
            Item::Hex(g) => neighbours && shape.neighbours[g] >> h & 1 == 1,
            Item::Harbor(p) => shape.harbor_reach[p] >> h & 1 == 1,
        };
        let live = (0..=items.len())
            .map(|i| {
                hexes
                    .iter()
                    .copied()
                    .filter(|&h| step_of[h] < i && items[i..].iter().any(|it| looks_at(it, h)))
                    .collect()
            })
            .collect();
        Order {
            items,
            step_of,
            live,
        }
    }

    /// Number of steps.
    pub(crate) fn steps(&self) -> usize {
        self.items.len()
    }

    /// The slot of hex `h` among the live hexes before step `i`.
    pub(crate) fn slot(&self, i: usize, h: usize) -> Option<usize> {
        self.live[i].iter().position(|&g| g == h)
    }
}

/// Fixed-width fields packed into a u128 state key.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Packed(pub u128);

impl Packed {
    #[inline]
    pub(crate) fn get(self, at: u32, bits: u32) -> u32 {
        ((self.0 >> at) & ((1u128 << bits) - 1)) as u32
    }
    #[inline]
    pub(crate) fn set(&mut self, at: u32, bits: u32, v: u32) {
        debug_assert!(u128::from(v) < 1u128 << bits);
        self.0 &= !(((1u128 << bits) - 1) << at);
        self.0 |= u128::from(v) << at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;

    #[test]
    fn every_hex_is_placed_once_and_few_are_live() {
        let shape = BoardKind::Base.shape();
        for harbors in [false, true] {
            let o = Order::new(shape, &row_major(shape), harbors, true);
            let hexes = o.items.iter().filter(|i| matches!(i, Item::Hex(_))).count();
            assert_eq!(hexes, 19);
            let ports = o.steps() - hexes;
            assert_eq!(ports, if harbors { 9 } else { 0 });
            assert!(o.live.iter().all(|l| l.len() <= 7), "{:?}", o.live);
            assert!(o.live[o.steps()].is_empty());
            // A hex is live exactly while a neighbour is still to come.
            for (i, l) in o.live.iter().enumerate() {
                for &h in l {
                    assert!(o.step_of[h] < i);
                }
            }
        }
    }
}
