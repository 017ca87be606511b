//! Fixed-width bit sets over the cells of a grid (row-major, cell = row * cols + col),
//! and the grid's precomputed masks: neighbours, Manhattan balls, colours, columns.
//!
//! `W` 64-bit words hold up to 64 * W cells; the solver is compiled for W = 2 (9x9 and
//! everything up to 128 cells), 4 and 8, so a 9x9 board costs two words per operation.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A set of cells of a grid: bit `cell % 64` of word `cell / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Bits([0; W])
    }
}

impl<const W: usize> Bits<W> {
    /// The most cells a set can hold.
    pub(crate) const CAP: usize = 64 * W;

    /// The empty set.
    #[inline]
    pub fn empty() -> Self {
        Bits([0; W])
    }

    /// The set of cell `i` alone.
    #[inline]
    pub fn single(i: usize) -> Self {
        let mut b = Self::empty();
        b.set(i);
        b
    }

    /// The first `n` bits set.
    pub fn first(n: usize) -> Self {
        let mut b = Self::empty();
        for (w, word) in b.0.iter_mut().enumerate() {
            let lo = w * 64;
            if n >= lo + 64 {
                *word = !0;
            } else if n > lo {
                *word = (1u64 << (n - lo)) - 1;
            }
        }
        b
    }

    /// Whether cell `i` is in the set.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Add cell `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Remove cell `i`.
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// True when no cell is in the set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// True when some cell is in the set.
    #[inline]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    /// The number of cells in the set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells of `self` that are not in `o`.
    #[inline]
    pub(crate) fn and_not(self, o: Self) -> Self {
        let mut r = self;
        for (a, b) in r.0.iter_mut().zip(o.0) {
            *a &= !b;
        }
        r
    }

    /// True when the sets share a cell.
    #[inline]
    pub(crate) fn intersects(&self, o: &Self) -> bool {
        self.0.iter().zip(o.0).any(|(a, b)| a & b != 0)
    }

    /// The lowest set bit, if any.
    #[inline]
    pub(crate) fn lowest(&self) -> Option<usize> {
        for (w, &word) in self.0.iter().enumerate() {
            if word != 0 {
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Shift towards higher cell numbers by `k` (< 64 * W).
    #[inline(always)]
    pub(crate) fn shift_up(self, k: usize) -> Self {
        let (ws, bs) = (k / 64, k % 64);
        let mut r = [0u64; W];
        for i in (ws..W).rev() {
            let src = i - ws;
            let mut v = self.0[src] << bs;
            if bs > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bs);
            }
            r[i] = v;
        }
        Bits(r)
    }

    /// Shift towards lower cell numbers by `k` (< 64 * W).
    #[inline(always)]
    pub(crate) fn shift_down(self, k: usize) -> Self {
        let (ws, bs) = (k / 64, k % 64);
        let mut r = [0u64; W];
        for (i, out) in r.iter_mut().enumerate().take(W - ws) {
            let src = i + ws;
            let mut v = self.0[src] >> bs;
            if bs > 0 && src + 1 < W {
                v |= self.0[src + 1] << (64 - bs);
            }
            *out = v;
        }
        Bits(r)
    }

    /// The cells in the set, in ascending order.
    pub fn iter(&self) -> BitIter<W> {
        BitIter {
            words: self.0,
            w: 0,
        }
    }
}

/// Iterator over the cells of a [`Bits`], lowest first.
pub struct BitIter<const W: usize> {
    words: [u64; W],
    w: usize,
}

impl<const W: usize> Iterator for BitIter<W> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.w < W {
            let word = self.words[self.w];
            if word != 0 {
                self.words[self.w] = word & (word - 1);
                return Some(self.w * 64 + word.trailing_zeros() as usize);
            }
            self.w += 1;
        }
        None
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        #[allow(clippy::assign_op_pattern)]
        impl<const W: usize> $tr for Bits<W> {
            type Output = Self;
            #[inline]
            fn $f(self, o: Self) -> Self {
                let mut r = self;
                for (a, b) in r.0.iter_mut().zip(o.0) {
                    *a = *a $op b;
                }
                r
            }
        }
        #[allow(clippy::assign_op_pattern)]
        impl<const W: usize> $tra for Bits<W> {
            #[inline]
            fn $fa(&mut self, o: Self) {
                for (a, b) in self.0.iter_mut().zip(o.0) {
                    *a = *a $op b;
                }
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl<const W: usize> BitXor for Bits<W> {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        let mut r = self;
        for (a, b) in r.0.iter_mut().zip(o.0) {
            *a ^= b;
        }
        r
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let mut r = self;
        for a in r.0.iter_mut() {
            *a = !*a;
        }
        r
    }
}

/// Masks of one board: an R x C grid's open cells under a move set (see
/// [`super::grid::Board`]). Distances, balls and ellipses are in moves between open
/// cells; on a full rectangle with orthogonal moves (the plain case) they come from the
/// coordinates (Manhattan), otherwise from a breadth-first search over the open cells.
#[derive(Clone, Debug)]
pub struct Geometry<const W: usize> {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// Cells of the grid (rows * cols), open or blocked.
    pub cells: usize,
    /// Open cells: the largest number of a solution.
    pub count: usize,
    /// Every open cell.
    pub all: Bits<W>,
    /// King moves: diagonal cells touch too (no colour parity).
    king: bool,
    /// A full rectangle with orthogonal moves: distances by formula.
    plain: bool,
    /// Cells not in the first column / not in the last column.
    not_first_col: Bits<W>,
    not_last_col: Bits<W>,
    /// Open cells whose row + column is even.
    pub even: Bits<W>,
    /// The open neighbours of each cell under the board's moves.
    pub nbr: Vec<Bits<W>>,
    /// The 8 cells around each cell, clockwise from north (u16::MAX off the grid).
    ring: Vec<[u16; 8]>,
    /// Cells in rows 0..=r, and in columns 0..=c.
    rows_upto: Vec<Bits<W>>,
    cols_upto: Vec<Bits<W>>,
    /// `ball[c * stride + d]`: cells within distance d of c (d < stride).
    ball: Vec<Bits<W>>,
    stride: usize,
    /// Distances between open cells, `a * cells + b` (empty in the plain case);
    /// `u16::MAX` when `b` cannot be reached from `a`.
    dist: Vec<u16>,
}

/// The distance reported between cells that cannot reach each other.
pub(crate) const FAR: usize = usize::MAX / 4;

impl<const W: usize> Geometry<W> {
    /// The masks of a full `rows` x `cols` grid with orthogonal moves; panics if it has
    /// more than `Bits::CAP` cells.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::for_board(&super::grid::Board::rect(rows, cols))
    }

    /// The masks of a board; panics if its grid has more than `Bits::CAP` cells.
    pub fn for_board(board: &super::grid::Board) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let cells = rows * cols;
        assert!(cells <= Bits::<W>::CAP, "grid too large for {W} words");
        let mut all = Bits::empty();
        for c in (0..cells).filter(|&c| board.is_open(c)) {
            all.set(c);
        }
        let mut g = Geometry {
            rows,
            cols,
            cells,
            count: board.count(),
            all,
            king: board.moves == super::shape::Moves::King,
            plain: board.is_plain(),
            not_first_col: Bits::empty(),
            not_last_col: Bits::empty(),
            even: Bits::empty(),
            nbr: Vec::with_capacity(cells),
            ring: Vec::with_capacity(cells),
            rows_upto: Vec::new(),
            cols_upto: Vec::new(),
            ball: Vec::new(),
            stride: rows + cols - 1,
            dist: Vec::new(),
        };
        for c in 0..cells {
            let (r, col) = (c / cols, c % cols);
            if col > 0 {
                g.not_first_col.set(c);
            }
            if col + 1 < cols {
                g.not_last_col.set(c);
            }
            if (r + col) % 2 == 0 && all.get(c) {
                g.even.set(c);
            }
        }
        for c in 0..cells {
            let around = g.dilate(Bits::single(c)).and_not(Bits::single(c)) & all;
            g.nbr.push(if all.get(c) { around } else { Bits::empty() });
        }
        for c in 0..cells {
            let (r, col) = ((c / cols) as isize, (c % cols) as isize);
            let at = |dr: isize, dc: isize| {
                let (rr, cc) = (r + dr, col + dc);
                if rr < 0 || cc < 0 || rr >= rows as isize || cc >= cols as isize {
                    u16::MAX
                } else {
                    (rr as usize * cols + cc as usize) as u16
                }
            };
            g.ring.push([
                at(-1, 0),
                at(-1, 1),
                at(0, 1),
                at(1, 1),
                at(1, 0),
                at(1, -1),
                at(0, -1),
                at(-1, -1),
            ]);
        }
        g.rows_upto = (0..rows).map(|r| Bits::first((r + 1) * cols)).collect();
        g.cols_upto = (0..cols)
            .map(|k| {
                let mut b = Bits::empty();
                for c in 0..cells {
                    if c % cols <= k {
                        b.set(c);
                    }
                }
                b
            })
            .collect();
        if !g.plain {
            g.dist = g.bfs_distances();
            let far = g.dist.iter().filter(|&&d| d != u16::MAX).max();
            g.stride = far.map_or(1, |&d| d as usize + 1);
        }
        g.ball = vec![Bits::empty(); cells * g.stride];
        for c in (0..cells).filter(|&c| all.get(c)) {
            for e in (0..cells).filter(|&e| all.get(e)) {
                let d = g.dist(c, e);
                for dd in d.min(g.stride)..g.stride {
                    g.ball[c * g.stride + dd].set(e);
                }
            }
        }
        g
    }

    /// Moves between every pair of open cells, by breadth-first search.
    fn bfs_distances(&self) -> Vec<u16> {
        let n = self.cells;
        let mut dist = vec![u16::MAX; n * n];
        let mut queue = Vec::with_capacity(n);
        for a in (0..n).filter(|&a| self.all.get(a)) {
            let row = &mut dist[a * n..(a + 1) * n];
            row[a] = 0;
            queue.clear();
            queue.push(a);
            let mut head = 0;
            while head < queue.len() {
                let x = queue[head];
                head += 1;
                for y in self.nbr[x].iter() {
                    if row[y] == u16::MAX {
                        row[y] = row[x] + 1;
                        queue.push(y);
                    }
                }
            }
        }
        dist
    }

    /// Whether diagonal cells touch (king moves).
    pub fn king(&self) -> bool {
        self.king
    }

    /// The fewest moves from open cell `a` to open cell `b` over open cells (Manhattan
    /// distance on a plain board); `FAR` when there is no way.
    #[inline]
    pub fn dist(&self, a: usize, b: usize) -> usize {
        if self.plain {
            let (ra, ca) = (a / self.cols, a % self.cols);
            let (rb, cb) = (b / self.cols, b % self.cols);
            ra.abs_diff(rb) + ca.abs_diff(cb)
        } else {
            self.table_dist(a, b)
        }
    }

    /// [`Geometry::dist`] off the plain board, from the table.
    #[inline(never)]
    fn table_dist(&self, a: usize, b: usize) -> usize {
        match self.dist[a * self.cells + b] {
            u16::MAX => FAR,
            d => d as usize,
        }
    }

    /// Open cells within distance `d` of `c` (all open cells when `d` is large).
    #[inline]
    pub(crate) fn ball(&self, c: usize, d: usize) -> Bits<W> {
        if d >= self.stride {
            self.all
        } else {
            self.ball[c * self.stride + d]
        }
    }

    /// Cells `x` with `dist(a, x) + dist(x, b) <= len`: the "ellipse" of a and b. On a
    /// plain board, inside the bounding box of a and b the sum is `dist(a, b)`; every
    /// step outside the box adds 2, so the ellipse is the box grown by
    /// `(len - dist(a, b)) / 2`. Otherwise it is the union over k of the balls of radius
    /// k around a and `len - k` around b.
    #[inline]
    pub(crate) fn ellipse(&self, a: usize, b: usize, len: usize) -> Bits<W> {
        let d = self.dist(a, b);
        if len < d {
            return Bits::empty();
        }
        if !self.plain {
            return self.ellipse_by_balls(a, b, len);
        }
        let slack = (len - d) / 2;
        let (ra, ca, rb, cb) = (a / self.cols, a % self.cols, b / self.cols, b % self.cols);
        let (r0, r1, c0, c1) = (ra.min(rb), ra.max(rb), ca.min(cb), ca.max(cb));
        let mut out = Bits::empty();
        for dr in 0..=slack {
            let dc = slack - dr;
            out |= self.rows_between(r0.saturating_sub(dr), r1 + dr)
                & self.cols_between(c0.saturating_sub(dc), c1 + dc);
            if r0 < dr && r1 + dr >= self.rows - 1 {
                break; // all rows already: wider rows add nothing
            }
        }
        out
    }

    /// [`Geometry::ellipse`] off the plain board: a union of ball intersections.
    #[inline(never)]
    fn ellipse_by_balls(&self, a: usize, b: usize, len: usize) -> Bits<W> {
        let top = self.stride - 1;
        if len >= 2 * top {
            return self.all;
        }
        let mut out = Bits::empty();
        for k in len.saturating_sub(top)..=len.min(top) {
            out |= self.ball(a, k) & self.ball(b, len - k);
        }
        out
    }

    #[inline]
    fn rows_between(&self, lo: usize, hi: usize) -> Bits<W> {
        let top = self.rows_upto[hi.min(self.rows - 1)];
        if lo == 0 {
            top
        } else {
            top.and_not(self.rows_upto[lo - 1])
        }
    }

    #[inline]
    fn cols_between(&self, lo: usize, hi: usize) -> Bits<W> {
        let right = self.cols_upto[hi.min(self.cols - 1)];
        if lo == 0 {
            right
        } else {
            right.and_not(self.cols_upto[lo - 1])
        }
    }

    /// Open cells of the colour a cell must have to be `k` steps away from `c`: with
    /// orthogonal moves every step changes the chessboard colour; with king moves there
    /// is no such rule (every open cell).
    #[inline]
    pub(crate) fn colour_at(&self, c: usize, k: usize) -> Bits<W> {
        if self.king {
            return self.all;
        }
        let c_even = self.even.get(c);
        if c_even == k.is_multiple_of(2) {
            self.even
        } else {
            self.all.and_not(self.even)
        }
    }

    /// The four shifted copies of `s` (left, right, up, down neighbours of its cells).
    #[inline(always)]
    pub(crate) fn shifts(&self, s: Bits<W>) -> [Bits<W>; 4] {
        [
            s.shift_up(1) & self.not_first_col,
            s.shift_down(1) & self.not_last_col,
            s.shift_up(self.cols) & self.all,
            s.shift_down(self.cols),
        ]
    }

    /// The four diagonal copies of `s` (cells with an up-left, up-right, down-right,
    /// down-left neighbour in `s`).
    #[inline(always)]
    pub(crate) fn diagonal_shifts(&self, s: Bits<W>) -> [Bits<W>; 4] {
        let c = self.cols;
        [
            s.shift_up(c + 1) & self.not_first_col & self.all,
            s.shift_up(c - 1) & self.not_last_col & self.all,
            s.shift_down(c + 1) & self.not_last_col,
            s.shift_down(c - 1) & self.not_first_col,
        ]
    }

    /// `s` and every cell next to it (diagonally too with king moves).
    #[inline(always)]
    pub(crate) fn dilate(&self, s: Bits<W>) -> Bits<W> {
        s | self.one_neighbour(s)
    }

    /// Cells with at least two neighbours in `s`.
    #[inline(always)]
    pub(crate) fn two_neighbours(&self, s: Bits<W>) -> Bits<W> {
        if self.king {
            return self.two_neighbours_king(s);
        }
        let [a, b, c, d] = self.shifts(s);
        ((a | b) & (c | d)) | (a & b) | (c & d)
    }

    #[inline(never)]
    fn two_neighbours_king(&self, s: Bits<W>) -> Bits<W> {
        let [a, b, c, d] = self.shifts(s);
        let [e, f, g, h] = self.diagonal_shifts(s);
        let (orth, diag) = (a | b | c | d, e | f | g | h);
        ((a | b) & (c | d))
            | (a & b)
            | (c & d)
            | ((e | f) & (g | h))
            | (e & f)
            | (g & h)
            | (orth & diag)
    }

    /// Cells with at least one neighbour in `s`.
    #[inline(always)]
    pub(crate) fn one_neighbour(&self, s: Bits<W>) -> Bits<W> {
        if self.king {
            return self.one_neighbour_king(s);
        }
        let [a, b, c, d] = self.shifts(s);
        a | b | c | d
    }

    #[inline(never)]
    fn one_neighbour_king(&self, s: Bits<W>) -> Bits<W> {
        let [a, b, c, d] = self.shifts(s);
        let [e, f, g, h] = self.diagonal_shifts(s);
        a | b | c | d | e | f | g | h
    }

    /// Whether taking cell `c` out of the set `s` may split the part of `s` around it:
    /// false when `c`'s neighbours in `s` are joined to each other through the eight
    /// cells around `c` (then every path through `c` has a way round it).
    #[inline]
    pub(crate) fn may_split(&self, c: usize, s: &Bits<W>) -> bool {
        let mut mask = 0usize;
        for (i, &d) in self.ring[c].iter().enumerate() {
            if d != u16::MAX && s.get(d as usize) {
                mask |= 1 << i;
            }
        }
        if self.king {
            KING_SPLITS[mask]
        } else {
            SPLITS[mask]
        }
    }

    /// The connected part of `within` that contains `seed`.
    #[inline]
    pub(crate) fn flood(&self, seed: Bits<W>, within: Bits<W>) -> Bits<W> {
        let mut cur = seed & within;
        loop {
            let next = self.dilate(cur) & within;
            if next == cur {
                return cur;
            }
            cur = next;
        }
    }
}

/// For each pattern of the eight cells around a cell (bit i = position i clockwise
/// from north, even positions orthogonal): whether the orthogonal cells in the pattern
/// fall into more than one run around the ring. Adjacent ring positions touch.
const SPLITS: [bool; 256] = {
    let mut t = [false; 256];
    let mut m = 0;
    while m < 256 {
        // Runs of set bits around the cycle that contain an orthogonal position.
        let mut runs = 0;
        let mut i = 0;
        while i < 8 {
            let prev = (i + 7) % 8;
            let starts = (m >> i) & 1 == 1 && ((m >> prev) & 1 == 0 || m == 255);
            if starts && (m != 255 || i == 0) {
                let mut j = i;
                let mut orth = false;
                let mut steps = 0;
                while (m >> j) & 1 == 1 && steps < 8 {
                    if j % 2 == 0 {
                        orth = true;
                    }
                    j = (j + 1) % 8;
                    steps += 1;
                }
                if orth {
                    runs += 1;
                }
            }
            i += 1;
        }
        t[m] = runs > 1;
        m += 1;
    }
    t
};

/// The same for king moves: all eight cells around a cell are its neighbours, and two
/// of them touch when they are next to each other around the ring, or when both are
/// orthogonal positions two apart (north and east touch diagonally; north-east and
/// south-east do not). True when the cells in the pattern fall into more than one group
/// under that touching.
const KING_SPLITS: [bool; 256] = {
    let mut t = [false; 256];
    let mut m = 0;
    while m < 256 {
        // Label groups by repeated spreading from the lowest unlabelled cell.
        let mut seen = 0usize;
        let mut groups = 0;
        let mut i = 0;
        while i < 8 {
            if (m >> i) & 1 == 1 && (seen >> i) & 1 == 0 {
                groups += 1;
                let mut group = 1usize << i;
                loop {
                    let mut grown = group;
                    let mut j = 0;
                    while j < 8 {
                        if (group >> j) & 1 == 1 {
                            grown |= 1 << ((j + 1) % 8);
                            grown |= 1 << ((j + 7) % 8);
                            if j % 2 == 0 {
                                grown |= 1 << ((j + 2) % 8);
                                grown |= 1 << ((j + 6) % 8);
                            }
                        }
                        j += 1;
                    }
                    grown &= m;
                    if grown == group {
                        break;
                    }
                    group = grown;
                }
                seen |= group;
            }
            i += 1;
        }
        t[m] = groups > 1;
        m += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words() {
        let mut b = Bits::<4>::empty();
        b.set(63);
        b.set(130);
        let l = b.shift_up(9);
        assert!(l.get(72) && l.get(139) && l.count() == 2);
        let r = l.shift_down(9);
        assert_eq!(r, b);
        assert_eq!(Bits::<4>::single(200).shift_up(64).lowest(), None);
        assert_eq!(Bits::<2>::single(5).shift_down(6), Bits::empty());
        assert_eq!(Bits::<2>::first(81).count(), 81);
        assert_eq!(Bits::<2>::first(128).count(), 128);
        assert_eq!(Bits::<2>::first(0).count(), 0);
    }

    #[test]
    fn may_split_agrees_with_flood_fill() {
        // On a 3x3 grid the centre's ring is every other cell: check all 256 patterns.
        let g = Geometry::<2>::new(3, 3);
        for m in 0..256usize {
            let mut s = Bits::<2>::single(4);
            for (i, &d) in g.ring[4].iter().enumerate() {
                if m >> i & 1 == 1 {
                    s.set(d as usize);
                }
            }
            let rest = s.and_not(Bits::single(4));
            let orth = rest & g.nbr[4];
            let joined = orth
                .lowest()
                .is_none_or(|c| (g.flood(Bits::single(c), rest) & orth) == orth);
            assert_eq!(g.may_split(4, &s), !joined, "pattern {m:08b}");
        }
    }

    #[test]
    fn neighbours_and_balls_match_coordinates() {
        for (r, c) in [(9, 9), (4, 7), (2, 2), (16, 16), (3, 40)] {
            let g = Geometry::<8>::new(r, c);
            for a in 0..g.cells {
                let expect: Vec<usize> = (0..g.cells).filter(|&b| g.dist(a, b) == 1).collect();
                assert_eq!(g.nbr[a].iter().collect::<Vec<_>>(), expect);
                for d in 0..4 {
                    let expect: Vec<usize> = (0..g.cells).filter(|&b| g.dist(a, b) <= d).collect();
                    assert_eq!(g.ball(a, d).iter().collect::<Vec<_>>(), expect);
                }
            }
            for a in (0..g.cells).step_by(3) {
                for b in (0..g.cells).step_by(5) {
                    for len in [0, 1, 2, 5, 9] {
                        let expect: Vec<usize> = (0..g.cells)
                            .filter(|&x| g.dist(a, x) + g.dist(x, b) <= len)
                            .collect();
                        assert_eq!(g.ellipse(a, b, len).iter().collect::<Vec<_>>(), expect);
                    }
                }
            }
            let two = g.two_neighbours(g.all);
            assert_eq!(
                two, g.all,
                "every cell of a {r}x{c} grid has two neighbours"
            );
        }
    }
}
