//! The exact Numbrix solver: counts solutions up to two, and PROVES the count.
//!
//! The givens, sorted by value, cut 1..=N into gaps: the missing numbers between two
//! consecutive givens (a closed gap, both ends known), below the smallest given and
//! above the largest (open gaps, one end known). The search extends gaps one number at
//! a time from either end. At every node it picks the gap end with the fewest candidate
//! cells (ties: the gap with fewer missing numbers), so forced moves go first and
//! short gaps before long ones; when the empty cells have fallen apart into several
//! regions, branching choices in the smallest region go first. A candidate for the
//! number after `a` (towards `b`) is an empty neighbour of `a`'s cell within distance
//! `b - a - 1` of `b`'s cell (Manhattan on a full grid with orthogonal moves, moves over
//! the open cells otherwise, see [`Geometry`]). With orthogonal moves parity needs no
//! test per move, since it is checked once for the givens and every step alternates
//! colours; with king moves there is no parity, and the distance and region tests
//! below carry the pruning.
//!
//! After each placement, three checks prune, all on bit sets:
//! - coverage: every empty cell lies in the "ellipse" of some gap (distance to the gap's
//!   low end plus distance to its high end at most the gap's length + 1);
//! - dead ends: an empty cell needs two neighbours that are empty or open gap ends,
//!   unless it can hold 1 or N (which need one); at most that many such cells;
//! - regions: when the empty cells fall apart into several regions, every gap must fit
//!   in one region that touches both its ends, and every region must be fillable by the
//!   gaps that can reach it.
//!
//! Every check is a necessary condition, so no solution is ever pruned. A node budget,
//! if given, ends the search with [`Count::Unknown`], never with "unique"; so does a
//! stop request (Ctrl-C, see [`ground::interrupt`]), looked for every 1,024 nodes.
//!
//! The search forgets why a branch died, so on large sparse grids it meets the same
//! local dead end again under every combination of choices elsewhere. A search that
//! runs past `dfs_first` nodes is handed to the SAT prover (`super::sat`), which
//! learns a clause from every dead end; if that runs past `SAT_MOST` decisions, the
//! search takes it back with what is left of the budget. All three give the same
//! answers ([`Prover`] picks one for the tests that compare them).

use super::bits::{Bits, Geometry};
use super::grid::{Board, Grid, BLOCKED};
use ground::{Error, Result};

/// What the solver proved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// No solution.
    Zero,
    /// Exactly one solution.
    One,
    /// Two or more (the search stopped at the second).
    Many,
    /// The node budget ran out first: nothing is proved.
    Unknown,
}

impl Count {
    /// 0, 1 or 2 (two or more); None when unknown.
    pub fn number(self) -> Option<u8> {
        match self {
            Count::Zero => Some(0),
            Count::One => Some(1),
            Count::Many => Some(2),
            Count::Unknown => None,
        }
    }
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// How many solutions there are: 0, 1, more, or unknown (budget ran out).
    pub count: Count,
    /// The first solution found (all cells filled), when there is one.
    pub solution: Option<Vec<u16>>,
    /// Work done: depth-first search nodes visited, plus the SAT prover's decisions
    /// when it took over.
    pub nodes: u64,
}

const NONE: u16 = u16::MAX;

/// Which prover answers a count (all give the same answers; they differ in speed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prover {
    /// The depth-first search first; the SAT prover when the search runs long (the
    /// default).
    Both,
    /// The depth-first search alone.
    Search,
    /// The SAT prover alone (after the givens' quick distance checks).
    Clauses,
}

/// Nodes the depth-first search may take before the SAT prover takes over, by the
/// grid's cells. Most searches end well within it; the long ones, on large sparse
/// grids, are where clause learning wins by orders of magnitude (see [`super::sat`]).
/// The SAT prover's set-up costs more than a short search, and less as grids grow, so
/// the hand-over comes earlier on larger grids (measured: docs/performance.md,
/// "Numbrix: hand-over to the SAT prover").
fn dfs_first(cells: usize) -> u64 {
    match cells {
        0..=100 => 32_768,
        101..=200 => 1_024,
        _ => 2_048,
    }
}

/// Decisions the SAT prover may take: its learnt clauses grow with them, about 0.4 KB
/// a decision (a million on a near-empty 16x16 grid: 258 MB peak; on a 23x23 grid with
/// one given, near the variable limit of [`super::sat`]: 414 MB). The hard proofs on
/// 16x16 grids take up to about 130,000, on 30x30 grids about 300,000 (an undecided
/// check keeps its clue and the puzzle is not proved minimal; 250,000 left one clue of
/// a 30x30 puzzle unproved).
const SAT_MOST: u64 = 1_000_000;

/// Nodes between looks at the stop flag (a node is well under a microsecond on 9x9 and
/// a few on the largest grids, so a stop is seen within about a millisecond).
const INTERRUPT_EVERY: u64 = 1024;

#[derive(Clone, Copy, Debug)]
struct Gap {
    /// The highest placed number of the gap's low side (0: open below).
    lo: u16,
    /// The lowest placed number of its high side (N + 1: open above).
    hi: u16,
}

/// A solver for one grid size, with buffers reused across calls. Clones share the
/// grid's precomputed masks.
#[derive(Clone)]
pub struct Solver<const W: usize> {
    g: std::sync::Arc<Geometry<W>>,
    n: usize,
    val: Vec<u16>,
    pos: Vec<u16>,
    empty: Bits<W>,
    gaps: Vec<Gap>,
    nodes: u64,
    budget: u64,
    found: u32,
    aborted: bool,
    first: Option<Vec<u16>>,
    /// Stop after this many solutions.
    stop_at: u32,
    /// Where a known solution puts each number (empty: no hint).
    hint: Vec<u16>,
    /// A (cell, number) pair no solution may use (see [`Solver::other_than`]).
    forbid: Option<(usize, u16)>,
    prover: Prover,
    /// When the empty cells of the position `feasible` last passed fall apart into
    /// several regions: the smallest one, where the search branches first.
    focus: Option<Bits<W>>,
}

impl<const W: usize> Solver<W> {
    /// A solver for a full `rows` x `cols` grid with orthogonal moves; panics if it has
    /// more than `Bits::<W>::CAP` cells.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::for_board(&Board::rect(rows, cols))
    }

    /// A solver for a board (open cells and moves); panics if its grid has more than
    /// `Bits::<W>::CAP` cells.
    pub fn for_board(board: &Board) -> Self {
        let g = std::sync::Arc::new(Geometry::for_board(board));
        let n = g.count;
        Solver {
            val: vec![0; g.cells],
            g,
            n,
            pos: vec![NONE; n + 2],
            empty: Bits::empty(),
            gaps: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
            found: 0,
            aborted: false,
            first: None,
            stop_at: 2,
            hint: Vec::new(),
            forbid: None,
            prover: Prover::Both,
            focus: None,
        }
    }

    /// The grid's masks.
    pub fn geometry(&self) -> &Geometry<W> {
        &self.g
    }

    /// Choose the prover (tests compare them; the default is [`Prover::Both`]).
    pub fn set_prover(&mut self, prover: Prover) {
        self.prover = prover;
    }

    /// Whether `cells` has a solution that does NOT put `value` in `cell`: Zero, One
    /// (found one; the search stops at the first) or Unknown. When the givens plus
    /// `value` at `cell` are known to have exactly one solution, Zero proves that
    /// `cells` has exactly one too; this skips the known solution's whole subtree,
    /// which a count to two would walk through.
    ///
    /// `hint`, a known solution (cell -> number), only orders the search: where it can,
    /// the search follows the hint first, so a second solution that differs from it
    /// only locally turns up after few nodes. It changes no answer.
    pub fn other_than(
        &mut self,
        cells: &[u16],
        cell: usize,
        value: u16,
        budget: u64,
        hint: Option<&[u16]>,
    ) -> Verdict {
        self.forbid = Some((cell, value));
        self.set_hint(hint);
        let mut v = self.solve_inner(cells, budget, 1);
        self.forbid = None;
        self.hint.clear();
        if v.count == Count::Many {
            v.count = Count::One;
        }
        v
    }

    /// Where a known solution (cell -> number) puts each number, for the search order.
    fn set_hint(&mut self, hint: Option<&[u16]>) {
        self.hint.clear();
        if let Some(h) = hint {
            self.hint.resize(self.n + 2, NONE);
            for (c, &v) in h.iter().enumerate() {
                if v != BLOCKED && (v as usize) <= self.n {
                    self.hint[v as usize] = c as u16;
                }
            }
        }
    }

    /// Count the solutions of `cells` (0 = blank) up to two. `cells` must be a valid grid
    /// of this solver's size (see [`Grid::validate`]); its blocked cells are the board's
    /// (what `cells` holds there is not read; solutions hold [`BLOCKED`] there).
    pub fn solve(&mut self, cells: &[u16], budget: u64) -> Verdict {
        self.solve_inner(cells, budget, 2)
    }

    /// By default: the depth-first search with at most [`dfs_first`] nodes; if that
    /// does not settle it, the SAT prover with at most [`SAT_MOST`] decisions; if that
    /// does not either, the search again with what is left of the budget (it needs no
    /// memory beyond its state, where the SAT prover's learnt clauses grow).
    fn solve_inner(&mut self, cells: &[u16], budget: u64, stop_at: u32) -> Verdict {
        let first = match self.prover {
            Prover::Both => budget.min(dfs_first(self.g.cells)),
            Prover::Search => budget,
            Prover::Clauses => 0,
        };
        let v = self.dfs(cells, first, stop_at);
        if v.count != Count::Unknown || budget <= v.nodes || ground::interrupt::requested() {
            return v;
        }
        let mut spent = v.nodes;
        let s = super::sat::count(
            &self.g,
            cells,
            self.forbid,
            stop_at,
            (budget - spent).min(SAT_MOST),
            &self.hint,
        );
        spent += s.decisions;
        let count = match s.found {
            None => Count::Unknown,
            Some(0) => Count::Zero,
            Some(1) => Count::One,
            Some(_) => Count::Many,
        };
        if count != Count::Unknown
            || self.prover == Prover::Clauses
            || budget <= spent
            || ground::interrupt::requested()
        {
            return Verdict {
                count,
                solution: s.solution,
                nodes: spent,
            };
        }
        let mut v = self.dfs(cells, budget - spent, stop_at);
        v.nodes += spent;
        v
    }

    /// The depth-first search alone, within `budget` nodes.
    fn dfs(&mut self, cells: &[u16], budget: u64, stop_at: u32) -> Verdict {
        assert_eq!(cells.len(), self.g.cells);
        self.stop_at = stop_at;
        if let Some((cell, value)) = self.forbid {
            if cells[cell] == value {
                return Verdict {
                    count: Count::Zero,
                    solution: None,
                    nodes: 0,
                };
            }
        }
        self.nodes = 0;
        self.budget = budget;
        self.found = 0;
        self.aborted = false;
        self.first = None;
        let open = self.g.all;
        if open.iter().all(|c| cells[c] == 0) {
            // No givens: try every cell for 1 (the search needs one known end).
            let mut with_one = cells.to_vec();
            let mut total = 0u32;
            for c in open.iter() {
                if self.forbid == Some((c, 1)) {
                    continue;
                }
                with_one[c] = 1;
                if self.load(&with_one) {
                    if let Some(one) = self.feasible(None) {
                        self.search(one);
                    }
                }
                with_one[c] = 0;
                total = self.found;
                if self.aborted || total >= self.stop_at {
                    break;
                }
            }
            self.found = total;
        } else if self.load(cells) {
            if let Some(one) = self.feasible(None) {
                self.search(one);
            }
        }
        let count = if self.aborted {
            Count::Unknown
        } else {
            match self.found {
                0 => Count::Zero,
                1 => Count::One,
                _ => Count::Many,
            }
        };
        Verdict {
            count,
            solution: self.first.take(),
            nodes: self.nodes,
        }
    }

    /// Set up the state from the givens; false if two givens can never be joined
    /// (distance, or with orthogonal moves parity), or a number is out of range.
    fn load(&mut self, cells: &[u16]) -> bool {
        let n = self.n;
        self.val.copy_from_slice(cells);
        self.pos.fill(NONE);
        self.empty = Bits::empty();
        for (c, &v) in cells.iter().enumerate() {
            if !self.g.all.get(c) {
                self.val[c] = BLOCKED;
            } else if v == 0 {
                self.empty.set(c);
            } else if v as usize > n {
                return false;
            } else {
                self.pos[v as usize] = c as u16;
            }
        }
        let parity = !self.g.king();
        self.gaps.clear();
        let mut prev = 0u16;
        for v in 1..=n as u16 {
            let p = self.pos[v as usize];
            if p == NONE {
                continue;
            }
            if prev != 0 {
                let d = self.g.dist(self.pos[prev as usize] as usize, p as usize);
                let steps = (v - prev) as usize;
                if d > steps || (parity && (steps - d) % 2 == 1) {
                    return false;
                }
            }
            if v > prev + 1 {
                self.gaps.push(Gap { lo: prev, hi: v });
            }
            prev = v;
        }
        if (prev as usize) < n {
            self.gaps.push(Gap {
                lo: prev,
                hi: n as u16 + 1,
            });
        }
        true
    }

    #[inline]
    fn cell(&self, v: u16) -> usize {
        self.pos[v as usize] as usize
    }

    /// Candidate cells for the next number at one end of a gap.
    #[inline]
    fn candidates(&self, gap: Gap, from_lo: bool) -> Bits<W> {
        let m = (gap.hi - gap.lo - 1) as usize;
        let open_lo = gap.lo == 0;
        let open_hi = gap.hi as usize == self.n + 1;
        let (mut c, v) = if from_lo {
            let mut c = self.g.nbr[self.cell(gap.lo)] & self.empty;
            if !open_hi {
                c &= self.g.ball(self.cell(gap.hi), m);
            }
            (c, gap.lo + 1)
        } else {
            let mut c = self.g.nbr[self.cell(gap.hi)] & self.empty;
            if !open_lo {
                c &= self.g.ball(self.cell(gap.lo), m);
            }
            (c, gap.hi - 1)
        };
        if let Some((cell, value)) = self.forbid {
            if value == v {
                c.clear(cell);
            }
        }
        c
    }

    /// Depth-first search; true when it must stop (two solutions, or out of budget).
    /// `one_region`: the empty cells are known to form a single region.
    fn search(&mut self, one_region: bool) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(INTERRUPT_EVERY) && ground::interrupt::requested())
        {
            self.aborted = true;
            return true;
        }
        // A forced move (one candidate) if there is one; else, when the empty cells
        // have fallen apart, a gap end reaching into the smallest region (a region that
        // cannot be filled is then found out before choices elsewhere multiply the
        // work); then the gap end with the fewest candidates, then the shorter gap.
        let focus = self.focus;
        let mut best: Option<(bool, bool, u32, u16, usize, bool, Bits<W>)> = None;
        'pick: for gi in 0..self.gaps.len() {
            let gap = self.gaps[gi];
            let m = gap.hi - gap.lo - 1;
            if m == 0 {
                continue;
            }
            for from_lo in [true, false] {
                let real = if from_lo {
                    gap.lo != 0
                } else {
                    gap.hi as usize != self.n + 1
                };
                if !real {
                    continue;
                }
                let cand = self.candidates(gap, from_lo);
                let k = cand.count();
                if k == 0 {
                    return false;
                }
                let away = focus.is_some_and(|f| !cand.intersects(&f));
                let key = (k > 1, away, k, m);
                if best.is_none_or(|(b0, b1, b2, b3, ..)| key < (b0, b1, b2, b3)) {
                    best = Some((k > 1, away, k, m, gi, from_lo, cand));
                    if k == 1 {
                        break 'pick;
                    }
                }
            }
        }
        let Some((_, _, _, _, gi, from_lo, cand)) = best else {
            // Every gap is closed: a solution.
            self.found += 1;
            if self.first.is_none() {
                self.first = Some(self.val.clone());
            }
            return self.found >= self.stop_at;
        };
        let gap = self.gaps[gi];
        let v = if from_lo { gap.lo + 1 } else { gap.hi - 1 };
        // The hinted cell first, if it is a candidate.
        let mut order = [usize::MAX; 9];
        let mut k = 0;
        if let Some(&h) = self.hint.get(v as usize) {
            if h != NONE && cand.get(h as usize) {
                order[0] = h as usize;
                k = 1;
            }
        }
        for x in cand.iter() {
            if k == 0 || x != order[0] {
                order[k] = x;
                k += 1;
            }
        }
        for &x in &order[..k] {
            // Still one region unless taking x out may cut the empty cells around it.
            let still_one = one_region && !self.g.may_split(x, &self.empty);
            self.val[x] = v;
            self.pos[v as usize] = x as u16;
            self.empty.clear(x);
            if from_lo {
                self.gaps[gi].lo = v;
            } else {
                self.gaps[gi].hi = v;
            }
            let stop = match self.feasible(still_one.then_some(true)) {
                Some(one) => self.search(one),
                None => false,
            };
            self.gaps[gi] = gap;
            self.empty.set(x);
            self.pos[v as usize] = NONE;
            self.val[x] = 0;
            if stop {
                return true;
            }
        }
        false
    }

    /// The pruning checks (all necessary conditions for a completion). `None` when the
    /// position is dead; otherwise whether the empty cells form one region. `one_region`
    /// is Some(true) when that is already known (then no flood fill is needed).
    fn feasible(&mut self, one_region: Option<bool>) -> Option<bool> {
        let g = &self.g;
        let n = self.n;
        self.focus = None;
        if self.empty.is_empty() {
            return Some(true);
        }
        let mut ends = Bits::<W>::empty();
        let mut cover = Bits::<W>::empty();
        // Cells that may hold 1 or N (the only cells allowed one path neighbour).
        let mut end_ok = Bits::<W>::empty();
        let mut end_slots = 0u32;
        for gap in &self.gaps {
            let m = (gap.hi - gap.lo - 1) as usize;
            if m == 0 {
                continue;
            }
            let open_lo = gap.lo == 0;
            let open_hi = gap.hi as usize == n + 1;
            match (open_lo, open_hi) {
                (false, false) => {
                    let (a, b) = (self.cell(gap.lo), self.cell(gap.hi));
                    ends.set(a);
                    ends.set(b);
                    if !self.empty.and_not(cover).any() {
                        continue; // everything is covered already
                    }
                    cover |= g.ellipse(a, b, m + 1);
                }
                (true, false) => {
                    let b = self.cell(gap.hi);
                    ends.set(b);
                    cover |= g.ball(b, m);
                    // 1 sits m steps below b.
                    end_ok |= g.ball(b, m) & g.colour_at(b, m);
                    end_slots += 1;
                }
                (false, true) => {
                    let a = self.cell(gap.lo);
                    ends.set(a);
                    cover |= g.ball(a, m);
                    end_ok |= g.ball(a, m) & g.colour_at(a, m);
                    end_slots += 1;
                }
                (true, true) => return Some(false),
            }
        }
        if self.empty.and_not(cover).any() {
            return None;
        }
        let avail = self.empty | ends;
        let bad = self.empty.and_not(g.two_neighbours(avail));
        if bad.any()
            && (bad.count() > end_slots
                || bad.and_not(end_ok).any()
                || bad.and_not(g.one_neighbour(avail)).any())
        {
            return None;
        }
        match one_region {
            Some(true) => Some(true),
            _ => self.regions(),
        }
    }

    /// When the empty cells form several regions: every gap fits in a region touching
    /// both its ends, and every region can be filled by the gaps that reach it.
    /// None if that fails; otherwise whether there is just one region.
    fn regions(&mut self) -> Option<bool> {
        const MAX_REGIONS: usize = 16;
        let g = &self.g;
        let seed = Bits::single(self.empty.lowest().expect("not empty"));
        let first = g.flood(seed, self.empty);
        if first == self.empty {
            return Some(true);
        }
        let mut regions = [Bits::<W>::empty(); MAX_REGIONS];
        let mut sizes = [0u32; MAX_REGIONS];
        let mut k = 0;
        let mut rest = self.empty;
        let mut region = first;
        loop {
            if k == MAX_REGIONS {
                return Some(false); // too fragmented to bother; the search will find out
            }
            regions[k] = region;
            sizes[k] = region.count();
            k += 1;
            rest = rest.and_not(region);
            match rest.lowest() {
                None => break,
                Some(c) => region = g.flood(Bits::single(c), rest),
            }
        }
        let mut touch = [Bits::<W>::empty(); MAX_REGIONS];
        for i in 0..k {
            touch[i] = g.one_neighbour(regions[i]);
        }
        let mut capacity = [0u32; MAX_REGIONS];
        let mut forced = [0u32; MAX_REGIONS];
        for gap in &self.gaps {
            let m = (gap.hi - gap.lo - 1) as u32;
            if m == 0 {
                continue;
            }
            let mut eligible = 0u32;
            let mut only = 0;
            for i in 0..k {
                let lo_ok = gap.lo == 0 || touch[i].get(self.cell(gap.lo));
                let hi_ok = gap.hi as usize == self.n + 1 || touch[i].get(self.cell(gap.hi));
                if lo_ok && hi_ok && sizes[i] >= m {
                    eligible += 1;
                    only = i;
                    capacity[i] += m;
                }
            }
            match eligible {
                0 => return None,
                1 => forced[only] += m,
                _ => {}
            }
        }
        let ok = (0..k).all(|i| capacity[i] >= sizes[i] && forced[i] <= sizes[i]);
        if ok {
            let small = (0..k).min_by_key(|&i| sizes[i]).expect("two regions");
            self.focus = Some(regions[small]);
        }
        ok.then_some(false)
    }
}

/// A solver for any supported size, choosing the narrowest bit sets that fit.
#[derive(Clone)]
pub enum AnySolver {
    /// Up to 128 cells.
    W2(Box<Solver<2>>),
    /// Up to 256 cells.
    W4(Box<Solver<4>>),
    /// Up to 512 cells.
    W8(Box<Solver<8>>),
    /// Up to 1,024 cells.
    W16(Box<Solver<16>>),
}

impl AnySolver {
    /// A solver for a full grid with orthogonal moves. Rows and columns must pass
    /// `super::grid::check_size`.
    pub fn new(rows: usize, cols: usize) -> Self {
        Self::for_board(&Board::rect(rows, cols))
    }

    /// A solver for a board; its grid must pass `super::grid::check_size`.
    pub fn for_board(board: &Board) -> Self {
        let n = board.cells();
        if n <= 128 {
            AnySolver::W2(Box::new(Solver::for_board(board)))
        } else if n <= 256 {
            AnySolver::W4(Box::new(Solver::for_board(board)))
        } else if n <= 512 {
            AnySolver::W8(Box::new(Solver::for_board(board)))
        } else {
            AnySolver::W16(Box::new(Solver::for_board(board)))
        }
    }

    /// Count the solutions of `cells` (0 = blank, reading order), up to two, visiting at most `budget` nodes.
    pub fn solve(&mut self, cells: &[u16], budget: u64) -> Verdict {
        match self {
            AnySolver::W2(s) => s.solve(cells, budget),
            AnySolver::W4(s) => s.solve(cells, budget),
            AnySolver::W8(s) => s.solve(cells, budget),
            AnySolver::W16(s) => s.solve(cells, budget),
        }
    }

    /// See [`Solver::set_prover`].
    pub fn set_prover(&mut self, prover: Prover) {
        match self {
            AnySolver::W2(s) => s.set_prover(prover),
            AnySolver::W4(s) => s.set_prover(prover),
            AnySolver::W8(s) => s.set_prover(prover),
            AnySolver::W16(s) => s.set_prover(prover),
        }
    }

    /// See [`Solver::other_than`].
    pub fn other_than(
        &mut self,
        cells: &[u16],
        cell: usize,
        value: u16,
        budget: u64,
        hint: Option<&[u16]>,
    ) -> Verdict {
        match self {
            AnySolver::W2(s) => s.other_than(cells, cell, value, budget, hint),
            AnySolver::W4(s) => s.other_than(cells, cell, value, budget, hint),
            AnySolver::W8(s) => s.other_than(cells, cell, value, budget, hint),
            AnySolver::W16(s) => s.other_than(cells, cell, value, budget, hint),
        }
    }

    /// See `super::sat::grow`: each step within `budget` decisions and the SAT
    /// prover's limit (`SAT_MOST`).
    pub fn grow(
        &self,
        solution: &[u16],
        seeds: &[u16],
        budget: u64,
        pick: &mut dyn FnMut(usize) -> usize,
        others: &mut Vec<Vec<u16>>,
    ) -> Option<Vec<u16>> {
        let most = budget.min(SAT_MOST);
        match self {
            AnySolver::W2(s) => super::sat::grow(s.geometry(), solution, seeds, most, pick, others),
            AnySolver::W4(s) => super::sat::grow(s.geometry(), solution, seeds, most, pick, others),
            AnySolver::W8(s) => super::sat::grow(s.geometry(), solution, seeds, most, pick, others),
            AnySolver::W16(s) => {
                super::sat::grow(s.geometry(), solution, seeds, most, pick, others)
            }
        }
    }

    /// See `super::grade::fill`.
    pub fn human_fill(&self, givens: &[u16], level: super::grade::Grade) -> Vec<u16> {
        match self {
            AnySolver::W2(s) => super::grade::fill(s.geometry(), givens, level),
            AnySolver::W4(s) => super::grade::fill(s.geometry(), givens, level),
            AnySolver::W8(s) => super::grade::fill(s.geometry(), givens, level),
            AnySolver::W16(s) => super::grade::fill(s.geometry(), givens, level),
        }
    }

    /// The grade of a puzzle with one solution (see [`super::grade`]).
    pub(crate) fn grade(&self, givens: &[u16]) -> super::grade::Grade {
        match self {
            AnySolver::W2(s) => super::grade::grade(s.geometry(), givens),
            AnySolver::W4(s) => super::grade::grade(s.geometry(), givens),
            AnySolver::W8(s) => super::grade::grade(s.geometry(), givens),
            AnySolver::W16(s) => super::grade::grade(s.geometry(), givens),
        }
    }
}

/// Validate a grid and count its solutions (up to two) with an optional node budget; the
/// grid's blocked cells (`X`) are the board's, and `moves` says how numbers touch.
pub fn solve_grid(grid: &Grid, moves: super::shape::Moves, budget: u64) -> Result<Verdict> {
    grid.validate()?;
    Ok(AnySolver::for_board(&Board::of_grid(grid, moves)).solve(&grid.cells, budget))
}

/// Check that `solution` is a Hamiltonian path of a full grid with orthogonal moves,
/// numbered 1..=N, that agrees with `givens` (see [`check_board_solution`]).
pub fn check_solution(rows: usize, cols: usize, givens: &[u16], solution: &[u16]) -> Result<()> {
    check_board_solution(&Board::rect(rows, cols), givens, solution)
}

/// Check that `solution` is a Hamiltonian path over the board's open cells numbered
/// 1..=N (N open cells) that agrees with `givens`, with [`BLOCKED`] on exactly the
/// blocked cells of both, straight from the coordinates (used by verify and the tests).
pub fn check_board_solution(board: &Board, givens: &[u16], solution: &[u16]) -> Result<()> {
    let cells = board.cells();
    let n = board.count();
    if givens.len() != cells || solution.len() != cells {
        return Err(Error::check(format!("expected {cells} cells")));
    }
    let mut at = vec![usize::MAX; n + 1];
    for (i, &v) in solution.iter().enumerate() {
        if !board.is_open(i) {
            if v != BLOCKED || givens[i] != BLOCKED {
                return Err(Error::check(format!(
                    "cell {i} is blocked but holds a number"
                )));
            }
            continue;
        }
        if v == 0 || v as usize > n {
            return Err(Error::check(format!("cell {i} holds {v}, outside 1..={n}")));
        }
        if at[v as usize] != usize::MAX {
            return Err(Error::check(format!("{v} appears twice")));
        }
        at[v as usize] = i;
        if givens[i] != 0 && givens[i] != v {
            return Err(Error::check(format!(
                "cell {i} is given as {} but solved as {v}",
                givens[i]
            )));
        }
    }
    for v in 1..n {
        if !board.touch(at[v], at[v + 1]) {
            return Err(Error::check(format!(
                "{v} and {} are not neighbours",
                v + 1
            )));
        }
    }
    Ok(())
}
