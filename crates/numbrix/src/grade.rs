//! Difficulty by the solving a person does, not by search effort.
//!
//! A human-style solver keeps, for every missing number k, the cells where k can still
//! go: empty cells within reach of the nearest placed numbers below and above k
//! (distance in moves at most the difference, with the right parity for orthogonal
//! moves; next to k-1 or k+1 when those are placed). It then applies, until nothing changes:
//! - easy techniques: a number with one possible cell; a cell with one possible number;
//! - the medium technique, route tracing: for a gap of up to `ROUTE_MAX` missing
//!   numbers, list every route through empty cells from one end to the other (at most
//!   `ROUTE_CAP`); a number can only go where some route puts it, so its possible
//!   cells shrink to those, and a number every route puts in the same cell is placed.
//!
//! `easy`: the easy techniques finish the puzzle. `medium`: route tracing is needed.
//! `hard`: neither finishes it; a person needs look-ahead (trying a number and
//! following it to a contradiction). Every deduction is sound, so on a puzzle with one
//! solution the grader only ever places the right numbers.

use super::bits::{Bits, Geometry};
use serde::{Deserialize, Serialize};

/// Longest gap (missing numbers) that route tracing works on.
pub(crate) const ROUTE_MAX: usize = 12;
/// Most routes route tracing lists for one gap; more and the gap is left alone.
pub(crate) const ROUTE_CAP: usize = 4096;

/// How hard a puzzle is for a person (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The easy techniques finish it.
    Easy,
    /// Route tracing is needed.
    Medium,
    /// Look-ahead is needed.
    Hard,
}

impl Grade {
    /// Every grade, easiest first.
    pub const ALL: [Grade; 3] = [Grade::Easy, Grade::Medium, Grade::Hard];

    /// The grade's name in parameters and records ("easy", "medium", "hard").
    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
        }
    }
}

impl std::fmt::Display for Grade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Grade {
    type Err = ground::Error;
    fn from_str(s: &str) -> ground::Result<Self> {
        Grade::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                ground::Error::invalid(format!(
                    "unknown difficulty '{s}': choose easy, medium or hard"
                ))
            })
    }
}

struct Human<'a, const W: usize> {
    g: &'a Geometry<W>,
    n: usize,
    val: Vec<u16>,
    pos: Vec<Option<usize>>,
    empty: Bits<W>,
    /// What route tracing has ruled out, per number.
    allowed: Vec<Bits<W>>,
}

impl<'a, const W: usize> Human<'a, W> {
    fn new(g: &'a Geometry<W>, givens: &[u16]) -> Self {
        let n = g.count;
        let mut h = Human {
            g,
            n,
            val: givens.to_vec(),
            pos: vec![None; n + 2],
            empty: Bits::empty(),
            allowed: vec![g.all; n + 2],
        };
        for (c, &v) in givens.iter().enumerate() {
            if !g.all.get(c) {
                h.val[c] = super::grid::BLOCKED;
            } else if v == 0 {
                h.empty.set(c);
            } else {
                h.pos[v as usize] = Some(c);
            }
        }
        h
    }

    fn place(&mut self, k: usize, c: usize) {
        self.val[c] = k as u16;
        self.pos[k] = Some(c);
        self.empty.clear(c);
    }

    /// Possible cells of every missing number (index k; placed numbers get empty sets).
    fn candidates(&self) -> Vec<Bits<W>> {
        let (g, n) = (self.g, self.n);
        let mut next_above = vec![None; n + 2];
        let mut above = None;
        for k in (1..=n).rev() {
            next_above[k] = above;
            if let Some(c) = self.pos[k] {
                above = Some((k, c));
            }
        }
        let mut below: Option<(usize, usize)> = None;
        let mut cand = vec![Bits::empty(); n + 2];
        for k in 1..=n {
            if let Some(c) = self.pos[k] {
                below = Some((k, c));
                continue;
            }
            let mut s = self.empty & self.allowed[k];
            if let Some((a, c)) = below {
                s &= g.ball(c, k - a) & g.colour_at(c, k - a);
            }
            if let Some((b, c)) = next_above[k] {
                s &= g.ball(c, b - k) & g.colour_at(c, b - k);
            }
            cand[k] = s;
        }
        cand
    }

    /// Apply the easy techniques once; true if something was placed.
    fn singles(&mut self) -> bool {
        let cand = self.candidates();
        let mut once = Bits::<W>::empty();
        let mut twice = Bits::<W>::empty();
        for (k, s) in cand.iter().enumerate().take(self.n + 1).skip(1) {
            if self.pos[k].is_some() {
                continue;
            }
            if s.count() == 1 {
                let c = s.lowest().expect("one cell");
                self.place(k, c);
                return true;
            }
            twice |= once & *s;
            once |= *s;
        }
        let lone = once.and_not(twice) & self.empty;
        if let Some(c) = lone.lowest() {
            let k = (1..=self.n)
                .find(|&k| self.pos[k].is_none() && cand[k].get(c))
                .expect("a cell seen once has its number");
            self.place(k, c);
            return true;
        }
        false
    }

    /// Route tracing on short gaps; true if some number's possible cells shrank.
    fn routes(&mut self) -> bool {
        let cand = self.candidates();
        let mut changed = false;
        let mut lo = None;
        for k in 1..=self.n + 1 {
            let here = if k <= self.n { self.pos[k] } else { None };
            if k > self.n || here.is_some() {
                if let (Some((a, ca)), Some(cb)) = (lo, here) {
                    let m = k - a - 1;
                    if (1..=ROUTE_MAX).contains(&m) {
                        changed |= self.trace(a, ca, k, cb, &cand);
                    }
                }
                lo = here.map(|c| (k, c));
            }
        }
        changed
    }

    /// List the routes of the gap between `a` (at `ca`) and `b` (at `cb`).
    fn trace(&mut self, a: usize, ca: usize, b: usize, cb: usize, cand: &[Bits<W>]) -> bool {
        let m = b - a - 1;
        let mut gap = Gap {
            a,
            b,
            cb,
            cand,
            route: vec![0usize; m],
            union: vec![Bits::<W>::empty(); m],
            count: 0,
        };
        let ok = self.walk(&mut gap, ca, 0, Bits::empty());
        let Gap { union, count, .. } = gap;
        if !ok || count == 0 {
            return false;
        }
        let mut changed = false;
        for (i, u) in union.iter().enumerate() {
            let k = a + 1 + i;
            let now = self.allowed[k] & *u;
            if (cand[k] & now) != cand[k] {
                changed = true;
            }
            self.allowed[k] = now;
        }
        changed
    }

    /// Extend the routes of `gap` from cell `at`, its `depth`-th number placed (the
    /// cells `used` taken): false once the gap has more than [`ROUTE_CAP`] routes.
    fn walk(&self, gap: &mut Gap<'_, W>, at: usize, depth: usize, used: Bits<W>) -> bool {
        if depth == gap.b - gap.a - 1 {
            if self.g.nbr[at].get(gap.cb) {
                gap.count += 1;
                if gap.count > ROUTE_CAP {
                    return false;
                }
                for (u, &c) in gap.union.iter_mut().zip(gap.route.iter()) {
                    u.set(c);
                }
            }
            return true;
        }
        let k = gap.a + 1 + depth;
        let next = self.g.nbr[at] & gap.cand[k] & self.empty;
        for c in next.and_not(used).iter() {
            gap.route[depth] = c;
            let mut u = used;
            u.set(c);
            if !self.walk(gap, c, depth + 1, u) {
                return false;
            }
        }
        true
    }
}

/// One gap's route search (see `Human::trace`): the numbers `a` and `b` placed at
/// either end (`b` at cell `cb`), each number's candidate cells, the route so far,
/// the union of the cells each number takes over the routes found, and their count.
struct Gap<'a, const W: usize> {
    a: usize,
    b: usize,
    cb: usize,
    cand: &'a [Bits<W>],
    route: Vec<usize>,
    union: Vec<Bits<W>>,
    count: usize,
}

/// The grid after a person using the techniques up to `level` (easy, or easy and
/// medium) has placed every number they can.
pub fn fill<const W: usize>(g: &Geometry<W>, givens: &[u16], level: Grade) -> Vec<u16> {
    let mut h = Human::new(g, givens);
    loop {
        while h.singles() {}
        if level == Grade::Easy || h.empty.is_empty() || !h.routes() {
            return h.val;
        }
    }
}

/// Grade a puzzle that has exactly one solution.
pub(crate) fn grade<const W: usize>(g: &Geometry<W>, givens: &[u16]) -> Grade {
    let mut h = Human::new(g, givens);
    while h.singles() {}
    if h.empty.is_empty() {
        return Grade::Easy;
    }
    loop {
        while h.singles() {}
        if h.empty.is_empty() {
            return Grade::Medium;
        }
        if !h.routes() {
            return Grade::Hard;
        }
    }
}
