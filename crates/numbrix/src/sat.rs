//! The second prover: a position as a satisfiability problem, for the searches the
//! depth-first solver ([`super::solve`]) cannot finish quickly.
//!
//! The depth-first search forgets why a branch died, so on large sparse grids it meets
//! the same local dead end again under every combination of choices elsewhere (a proof
//! on a 16x16 grid with 25 clues takes it millions of nodes). A conflict-driven clause
//! learning solver (batsat, a Rust descendant of MiniSat) writes down every dead end it
//! meets as a new clause and never explores it again; on those positions it needs a
//! few hundred conflicts, milliseconds.
//!
//! The encoding: one variable per (number, cell) pair that the givens allow, the
//! number's "domain": a missing number k between givens a and b may only sit at an
//! empty open cell within distance k - a of a's cell and b - k of b's (with orthogonal
//! moves, of the right chessboard colour too). Clauses say each missing number takes
//! exactly one cell, each empty cell takes exactly one number, and a number's cell
//! touches the cells of the numbers before and after it. With orthogonal moves the
//! path's edges are stated too (see [`Encoding::edge_clauses`]). Every solution of the
//! clauses is a numbering of the open cells 1..=N in which consecutive numbers touch,
//! that is a solution of the puzzle, and every solution of the puzzle satisfies the
//! clauses (the domains only drop cells no solution can use; an edge is true exactly
//! when its cells' numbers are consecutive). A forbidden (cell, number) pair drops
//! that variable; counting to two adds a clause that rules out the first solution.
//!
//! Every solution found is checked cell by cell before it is reported (a failed check
//! reports "unknown", never a count), and the tests compare both provers with brute
//! force on small boards.

use super::bits::{Bits, Geometry};
use super::grid::BLOCKED;
use batsat::{lbool, Callbacks, Lit, SolverInterface, SolverOpts};
use std::cell::Cell;

/// The solver's callbacks: a decision budget and the stop request (Ctrl-C).
struct Limits {
    decisions: Cell<u64>,
    budget: Cell<u64>,
    stopped: Cell<bool>,
}

impl Limits {
    /// At most `budget` decisions.
    fn new(budget: u64) -> Self {
        Limits {
            decisions: Cell::new(0),
            budget: Cell::new(budget),
            stopped: Cell::new(false),
        }
    }

    /// Start counting again, for a search of at most `budget` decisions.
    fn restart(&self, budget: u64) {
        self.decisions.set(0);
        self.budget.set(budget);
        self.stopped.set(false);
    }

    /// Decisions taken since the last start.
    fn decisions(&self) -> u64 {
        self.decisions.get()
    }
}

impl Callbacks for Limits {
    fn stop(&self) -> bool {
        // Called once per decision (and once per restart).
        let d = self.decisions.get() + 1;
        self.decisions.set(d);
        // The stop flag at every decision: one relaxed load, against a decision that
        // can take milliseconds of propagation on a large open grid, where a check only
        // every 1,024 decisions left a stop waiting far too long (measured:
        // docs/performance.md, "Numbrix: SAT stop check").
        if d > self.budget.get() || ground::interrupt::requested() {
            self.stopped.set(true);
        }
        self.stopped.get()
    }
}

/// The solver's settings: MiniSat's, but with a faster variable decay (0.7 against
/// 0.95: the branching follows the latest conflicts more closely), which takes fewer
/// decisions on the hard removal checks than MiniSat's decay or slightly slower ones.
/// Geometric restarts instead of Luby's took fewer decisions still, but their learnt
/// clauses grew the prover's peak memory at its decision limit far more, so Luby's
/// stay (measured: docs/performance.md, "Numbrix: SAT solver settings").
fn solver_opts() -> SolverOpts {
    SolverOpts {
        var_decay: 0.7,
        ..SolverOpts::default()
    }
}

/// What the SAT prover found: solutions up to the number asked for (None: the budget
/// ran out or a stop came first, nothing proved), the first of them, and the work.
pub(crate) struct SatVerdict {
    pub found: Option<u32>,
    pub solution: Option<Vec<u16>>,
    pub decisions: u64,
}

/// At most one of `xs`: pairwise for a few literals, else a sequential counter (one
/// auxiliary variable per literal, 3 clauses each).
fn at_most_one(s: &mut batsat::Solver<Limits>, xs: &[Lit], buf: &mut Vec<Lit>) {
    if xs.len() <= 5 {
        for (i, &a) in xs.iter().enumerate() {
            for &b in &xs[i + 1..] {
                buf.clear();
                buf.extend([!a, !b]);
                s.add_clause_reuse(buf);
            }
        }
        return;
    }
    // aux[i]: one of xs[0..=i] is true.
    let mut prev: Option<Lit> = None;
    for (i, &x) in xs.iter().enumerate() {
        let last = i + 1 == xs.len();
        if let Some(p) = prev {
            buf.clear();
            buf.extend([!x, !p]);
            s.add_clause_reuse(buf);
        }
        if !last {
            let aux = Lit::new(s.new_var(lbool::FALSE, true), true);
            buf.clear();
            buf.extend([!x, aux]);
            s.add_clause_reuse(buf);
            if let Some(p) = prev {
                buf.clear();
                buf.extend([!p, aux]);
                s.add_clause_reuse(buf);
            }
            prev = Some(aux);
        }
    }
}

/// The distance clauses state number k's cell within d steps of number k + d's for d
/// up to this (d = 1 is the links themselves): on the hard removal checks d = 2 made
/// the prover faster and d = 3 gave nothing more. With orthogonal moves the edge and
/// loop clauses now do this work better, and the distance clauses only cost (measured:
/// docs/performance.md, "Numbrix: distance clauses"). So they are stated for king moves
/// only (Hidato, which has no edges).
const LINK_AHEAD: usize = 2;

/// "Number k sits at cell c", as the clauses know it.
#[derive(Clone, Copy)]
enum Holds {
    /// A given: true.
    Yes,
    /// A variable of the encoding.
    If(Lit),
}

/// Count the solutions of `cells` (0 = blank, [`BLOCKED`] or anything on blocked
/// cells; the givens already passed the depth-first solver's checks) up to `stop_at`
/// (1 or 2), never putting `forbid`'s number in its cell, within `budget` decisions.
/// `hint` (number -> cell, or empty) is a known solution the search tries first.
pub(crate) fn count<const W: usize>(
    g: &Geometry<W>,
    cells: &[u16],
    forbid: Option<(usize, u16)>,
    stop_at: u32,
    budget: u64,
    hint: &[u16],
) -> SatVerdict {
    let zero = SatVerdict {
        found: Some(0),
        solution: None,
        decisions: 0,
    };
    let mut s = batsat::Solver::new(solver_opts(), Limits::new(budget));
    let enc = match encode(&mut s, g, cells, forbid, hint) {
        Ok(enc) => enc,
        Err(Short::NoCell) => return zero,
        Err(Short::TooLarge) => {
            return SatVerdict {
                found: None,
                solution: None,
                decisions: 0,
            }
        }
    };
    enc.solutions(&mut s, g, cells, stop_at)
}

/// Add clues of `solution` (cell -> number, [`BLOCKED`] off the board) to `seeds` (some
/// of its clues, 0 elsewhere) until it is the only solution, within `budget` decisions
/// a step: the givens, or None when a step ran out (or a stop came). Each step asks
/// for a solution other than `solution`; when one is found, `pick` chooses (by index)
/// one of the cells where the two differ, and that cell's clue is added; when none is,
/// the givens are proved unique. Clues are only ever added, so one encoding of the
/// seeds, and every clause the solver learns, serve all the steps (a new clue is a
/// unit clause). The known solution's numbers are tried first, so the other solutions
/// found differ from it locally; each is pushed to `others`.
pub(crate) fn grow<const W: usize>(
    g: &Geometry<W>,
    solution: &[u16],
    seeds: &[u16],
    budget: u64,
    pick: &mut dyn FnMut(usize) -> usize,
    others: &mut Vec<Vec<u16>>,
) -> Option<Vec<u16>> {
    let mut hint = vec![u16::MAX; g.count + 2];
    for c in g.all.iter() {
        hint[solution[c] as usize] = c as u16;
    }
    let mut s = batsat::Solver::new(solver_opts(), Limits::new(budget));
    let enc = encode(&mut s, g, seeds, None, &hint).ok()?;
    let mut givens = seeds.to_vec();
    // Not the known solution: some empty cell holds another number.
    let mut buf: Vec<Lit> = g
        .all
        .iter()
        .filter(|&c| seeds[c] == 0)
        .map(|c| enc.lit(solution[c] as usize, c).map(|x| !x))
        .collect::<Option<_>>()?;
    if !s.add_clause_reuse(&mut buf) {
        return Some(givens);
    }
    let mut differ = Vec::new();
    loop {
        s.cb().restart(budget);
        let r = s.solve_limited(&[]);
        if r == lbool::FALSE {
            return Some(givens);
        }
        if r != lbool::TRUE {
            return None;
        }
        let other = enc.model(&s, g, seeds);
        if !is_path(g, &other, &givens) {
            return None;
        }
        differ.clear();
        differ.extend(g.all.iter().filter(|&c| other[c] != solution[c]));
        let c = *differ.get(pick(differ.len()))?;
        givens[c] = solution[c];
        others.push(other);
        buf.clear();
        buf.push(enc.lit(solution[c] as usize, c)?);
        if !s.add_clause_reuse(&mut buf) {
            return Some(givens);
        }
    }
}

/// `cells` (as for [`count`]) as clauses in `s`: the variables of [`Encoding::new`]
/// and every clause; refused as there, or with [`Short::NoCell`] when the clauses are
/// already unsatisfiable.
fn encode<const W: usize>(
    s: &mut batsat::Solver<Limits>,
    g: &Geometry<W>,
    cells: &[u16],
    forbid: Option<(usize, u16)>,
    hint: &[u16],
) -> Result<Encoding<W>, Short> {
    let enc = Encoding::new(s, g, cells, forbid, hint)?;
    if !enc.number_clauses(s, g)
        || !enc.cell_clauses(s)
        || (g.king() && !enc.distance_clauses(s, g, LINK_AHEAD))
        || (!g.king() && g.count > 1 && !enc.edge_clauses(s, g, hint))
    {
        return Err(Short::NoCell);
    }
    Ok(enc)
}

/// Why a position was not encoded.
enum Short {
    /// A missing number has no cell left, or the clauses are unsatisfiable at once: no
    /// solution.
    NoCell,
    /// More variables than [`MAX_VARIABLES`].
    TooLarge,
}

/// The most variables (number, cell) the prover encodes. Near-empty large grids have
/// hundreds of thousands (a 32x32 grid with one given: 524,000, whose clauses took 435
/// MB before the first decision), and on them clause learning does not help (that grid
/// found no path in a million decisions): the depth-first search alone answers those.
/// The removal checks of a 30x30 puzzle have at most about 13,000.
const MAX_VARIABLES: usize = 150_000;

/// A position as clauses: one variable per (missing number, cell of its domain).
struct Encoding<const W: usize> {
    /// The highest number.
    n: usize,
    /// Where each given number sits (u16::MAX: missing), for 0 to n + 1.
    at: Vec<u16>,
    /// The open cells without a given.
    empty: Bits<W>,
    /// The domain variables of each missing number, as (cell, literal), in number
    /// order: number k's are `vars[start[k]..start[k + 1]]`.
    vars: Vec<(u16, Lit)>,
    start: Vec<usize>,
    /// Each empty cell's variables, as (number, literal), in number order.
    per_cell: Vec<Vec<(u16, Lit)>>,
}

impl<const W: usize> Encoding<W> {
    /// Whether number `k` is given.
    fn given(&self, k: usize) -> bool {
        self.at[k] != u16::MAX
    }

    /// Number `k`'s domain variables, as (cell, literal).
    fn dom(&self, k: usize) -> &[(u16, Lit)] {
        &self.vars[self.start[k]..self.start[k + 1]]
    }

    /// The variable of number `k` (1..=n, not given) at `cell`, if its domain holds it.
    fn lit(&self, k: usize, cell: usize) -> Option<Lit> {
        let dom = self.dom(k);
        dom.binary_search_by_key(&(cell as u16), |&(q, _)| q)
            .ok()
            .map(|i| dom[i].1)
    }

    /// The numbers the model of `s` puts on the cells, over the givens of `cells`
    /// ([`BLOCKED`] off the board; a number without a cell leaves a 0).
    fn model(&self, s: &batsat::Solver<Limits>, g: &Geometry<W>, cells: &[u16]) -> Vec<u16> {
        let mut grid: Vec<u16> = (0..g.cells)
            .map(|c| if g.all.get(c) { cells[c] } else { BLOCKED })
            .collect();
        for k in 1..=self.n {
            for &(q, x) in self.dom(k) {
                if s.value_lit(x) == lbool::TRUE {
                    grid[q as usize] = k as u16;
                }
            }
        }
        grid
    }

    /// The givens of `cells` and a variable in `s` for each missing number at each
    /// cell its domain allows (never `forbid`'s number in its cell; `hint`'s cell
    /// tried first); refused when a missing number has no cell left, or when the
    /// domains hold more than [`MAX_VARIABLES`] variables.
    fn new(
        s: &mut batsat::Solver<Limits>,
        g: &Geometry<W>,
        cells: &[u16],
        forbid: Option<(usize, u16)>,
        hint: &[u16],
    ) -> Result<Self, Short> {
        let n = g.count;
        let mut at = vec![u16::MAX; n + 2];
        let mut empty = g.all;
        for c in g.all.iter() {
            let v = cells[c];
            if v != 0 && v != BLOCKED && (v as usize) <= n {
                at[v as usize] = c as u16;
                empty.clear(c);
            }
        }
        let given = |k: usize| at[k] != u16::MAX;
        let mut start = vec![0usize; n + 2];
        let mut vars: Vec<(u16, Lit)> = Vec::new();
        let mut per_cell: Vec<Vec<(u16, Lit)>> = vec![Vec::new(); g.cells];
        let mut below = 0usize; // the largest given number so far (0: none)
        let mut next = vec![0usize; n + 2]; // the smallest given number above k (n + 1: none)
        let mut above = n + 1;
        for k in (1..=n).rev() {
            next[k] = above;
            if given(k) {
                above = k;
            }
        }
        let mut doms = vec![Bits::<W>::empty(); n + 2];
        let mut total = 0usize;
        let mut gap = (usize::MAX, usize::MAX);
        let (mut from_lo, mut from_hi): (Vec<Bits<W>>, Vec<Bits<W>>) = (Vec::new(), Vec::new());
        for k in 1..=n {
            if given(k) {
                below = k;
                continue;
            }
            let mut dom = empty;
            let b = next[k];
            if gap != (below, b) {
                // Cells reachable within d steps through empty cells, from each end.
                gap = (below, b);
                let reach = |from: usize, steps: usize| {
                    let mut r = vec![Bits::<W>::single(from)];
                    for _ in 0..steps {
                        let last = *r.last().expect("a first step");
                        r.push(last | (g.dilate(last) & empty));
                    }
                    r
                };
                let len = if b <= n { b - below } else { n + 1 - below };
                from_lo = if below != 0 {
                    reach(at[below] as usize, len)
                } else {
                    Vec::new()
                };
                from_hi = if b <= n {
                    reach(at[b] as usize, b - below.max(1) + 1)
                } else {
                    Vec::new()
                };
            }
            if below != 0 {
                let a = at[below] as usize;
                dom &= g.ball(a, k - below) & g.colour_at(a, k - below);
                dom &= from_lo[k - below];
            }
            if b <= n {
                let p = at[b] as usize;
                dom &= g.ball(p, b - k) & g.colour_at(p, b - k);
                dom &= from_hi[b - k];
            }
            if let Some((c, v)) = forbid {
                if v as usize == k {
                    dom.clear(c);
                }
            }
            if dom.is_empty() {
                return Err(Short::NoCell);
            }
            total += dom.count() as usize;
            doms[k] = dom;
        }
        if total > MAX_VARIABLES {
            return Err(Short::TooLarge);
        }
        for k in 1..=n {
            start[k] = vars.len();
            if given(k) {
                continue;
            }
            let preferred = hint.get(k).copied();
            for q in doms[k].iter() {
                let phase = if preferred == Some(q as u16) {
                    lbool::TRUE
                } else {
                    lbool::FALSE
                };
                let x = Lit::new(s.new_var(phase, true), true);
                vars.push((q as u16, x));
                per_cell[q].push((k as u16, x));
            }
        }
        start[n + 1] = vars.len();
        Ok(Encoding {
            n,
            at,
            empty,
            vars,
            start,
            per_cell,
        })
    }

    /// Each missing number takes exactly one cell, which touches the cells of the
    /// numbers before and after it; false when that is already unsatisfiable.
    fn number_clauses(&self, s: &mut batsat::Solver<Limits>, g: &Geometry<W>) -> bool {
        let n = self.n;
        let mut buf = Vec::new();
        let mut lits = Vec::new();
        // Literal of number k at each cell, for the number being linked to.
        let mut lit_at: Vec<Option<Lit>> = vec![None; g.cells];
        for k in 1..=n {
            if self.given(k) {
                continue;
            }
            lits.clear();
            lits.extend(self.dom(k).iter().map(|&(_, x)| x));
            buf.clone_from(&lits);
            if !s.add_clause_reuse(&mut buf) {
                return false;
            }
            at_most_one(s, &lits, &mut buf);
            // k's cell touches k - 1's and k + 1's (a given neighbour is in the domain).
            for k2 in [k - 1, k + 1] {
                if k2 == 0 || k2 > n || self.given(k2) {
                    continue;
                }
                for &(q, y) in self.dom(k2) {
                    lit_at[q as usize] = Some(y);
                }
                for &(q, x) in self.dom(k) {
                    buf.clear();
                    buf.push(!x);
                    buf.extend(g.nbr[q as usize].iter().filter_map(|c| lit_at[c]));
                    if !s.add_clause_reuse(&mut buf) {
                        return false;
                    }
                }
                for &(q, _) in self.dom(k2) {
                    lit_at[q as usize] = None;
                }
            }
        }
        true
    }

    /// Number k's cell lies within distance d of number k + d's (implied by the links,
    /// stated for d = 2..=most so that propagation sees it at once).
    fn distance_clauses(
        &self,
        s: &mut batsat::Solver<Limits>,
        g: &Geometry<W>,
        most: usize,
    ) -> bool {
        let n = self.n;
        let mut buf = Vec::new();
        for d in 2..=most {
            for k in 1..=n {
                if self.given(k) {
                    continue;
                }
                for k2 in [k.wrapping_sub(d), k + d] {
                    if k2 == 0 || k2 > n || self.given(k2) {
                        continue;
                    }
                    for &(q, x) in self.dom(k) {
                        let near = g.ball(q as usize, d);
                        buf.clear();
                        buf.push(!x);
                        buf.extend(
                            self.dom(k2)
                                .iter()
                                .filter(|(q2, _)| near.get(*q2 as usize))
                                .map(|&(_, y)| y),
                        );
                        if !s.add_clause_reuse(&mut buf) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// The path's links once more, as edges: a variable for each pair of touching open
    /// cells, true when their numbers are consecutive; every cell has two such edges,
    /// the cells of 1 and of the highest number one. This is implied by the number
    /// clauses, but it lets propagation see the path's shape before its numbers: a
    /// cell with two open neighbours left links to both, a cell with two links taken
    /// refuses the rest, whatever numbers they turn out to be, where the number
    /// clauses only conclude this number by number. It shortens the proofs that make
    /// the slow tail. Orthogonal moves only: with king moves (eight neighbours) it made
    /// Hidato slower (measured: docs/performance.md, "Numbrix: edge clauses").
    fn edge_clauses(&self, s: &mut batsat::Solver<Limits>, g: &Geometry<W>, hint: &[u16]) -> bool {
        // The hint's number at each cell, to try its edges first.
        let mut hinted = vec![0usize; g.cells];
        for (k, &c) in hint.iter().enumerate() {
            if let Some(h) = hinted.get_mut(c as usize) {
                *h = k;
            }
        }
        // The numbers each cell may hold, in order: its given, or its variables.
        let mut table: Vec<Vec<(usize, Holds)>> = self
            .per_cell
            .iter()
            .map(|xs| {
                xs.iter()
                    .map(|&(k, x)| (k as usize, Holds::If(x)))
                    .collect()
            })
            .collect();
        for k in (1..=self.n).filter(|&k| self.given(k)) {
            table[self.at[k] as usize] = vec![(k, Holds::Yes)];
        }
        // The edge from each cell to the cell right of it, and below it (with one
        // column, the cell below counts as the next: `right`).
        let (mut right, mut down) = (vec![None; g.cells], vec![None; g.cells]);
        let mut buf = Vec::new();
        for a in g.all.iter() {
            for b in g.nbr[a].iter().filter(|&b| b > a) {
                let linked = hinted[a].min(hinted[b]) != 0 && hinted[a].abs_diff(hinted[b]) == 1;
                let phase = if linked { lbool::TRUE } else { lbool::FALSE };
                let e = Lit::new(s.new_var(phase, true), true);
                if b == a + 1 {
                    right[a] = Some(e);
                } else {
                    down[a] = Some(e);
                }
                if !link_clauses(s, e, &table[a], &table[b], &mut buf)
                    || !link_clauses(s, e, &table[b], &table[a], &mut buf)
                {
                    return false;
                }
            }
        }
        // A cell's edges, in the order they were made: up, left, right, down.
        let mut edges = Vec::with_capacity(4);
        let before = |v: &[Option<Lit>], c: usize, by: usize| c.checked_sub(by).and_then(|p| v[p]);
        g.all.iter().all(|c| {
            edges.clear();
            edges.extend(
                [
                    before(&down, c, g.cols),
                    before(&right, c, 1),
                    right[c],
                    down[c],
                ]
                .into_iter()
                .flatten(),
            );
            degree_clauses(s, &edges, &table[c], self.n, &mut buf)
        }) && cycle_clauses(s, g, &right, &down, &mut buf)
    }

    /// Each empty cell takes exactly one number; false when that is already
    /// unsatisfiable.
    fn cell_clauses(&self, s: &mut batsat::Solver<Limits>) -> bool {
        let mut buf = Vec::new();
        let mut xs = Vec::new();
        for c in self.empty.iter() {
            xs.clear();
            xs.extend(self.per_cell[c].iter().map(|&(_, x)| x));
            buf.clone_from(&xs);
            if !s.add_clause_reuse(&mut buf) {
                return false;
            }
            at_most_one(s, &xs, &mut buf);
        }
        true
    }

    /// Solve up to `stop_at` solutions, each checked to be a path through `cells`
    /// and then ruled out; unknown when the budget or a stop ends the search, or a
    /// solution fails its check.
    fn solutions(
        &self,
        s: &mut batsat::Solver<Limits>,
        g: &Geometry<W>,
        cells: &[u16],
        stop_at: u32,
    ) -> SatVerdict {
        let unknown = |decisions| SatVerdict {
            found: None,
            solution: None,
            decisions,
        };
        let mut buf = Vec::new();
        let mut found = 0u32;
        let mut first = None;
        loop {
            match s.solve_limited(&[]) {
                r if r == lbool::TRUE => {}
                r if r == lbool::FALSE => break,
                _ => return unknown(s.cb().decisions()),
            }
            // The model's numbers (a number left without a cell leaves a 0, which the
            // path check refuses), and the clause that rules it out next time.
            let grid = self.model(s, g, cells);
            buf.clear();
            buf.extend(
                self.vars
                    .iter()
                    .filter(|&&(_, x)| s.value_lit(x) == lbool::TRUE)
                    .map(|&(_, x)| !x),
            );
            if !is_path(g, &grid, cells) {
                return unknown(s.cb().decisions());
            }
            found += 1;
            first.get_or_insert(grid);
            if found >= stop_at || !s.add_clause_reuse(&mut buf) {
                break;
            }
        }
        SatVerdict {
            found: Some(found),
            solution: first,
            decisions: s.cb().decisions(),
        }
    }
}

/// The clauses tying edge `e` between cells a and b to their numbers (`from`: what a
/// may hold, `to`: what b may hold, both in number order): a holding k and b holding
/// k + 1 make the edge; the edge and a holding k make b hold k - 1 or k + 1. False
/// when that is already unsatisfiable.
fn link_clauses(
    s: &mut batsat::Solver<Limits>,
    e: Lit,
    from: &[(usize, Holds)],
    to: &[(usize, Holds)],
    buf: &mut Vec<Lit>,
) -> bool {
    let find = |k: usize| {
        to.binary_search_by_key(&k, |&(k2, _)| k2)
            .ok()
            .map(|i| to[i].1)
    };
    let not = |h: Holds, buf: &mut Vec<Lit>| {
        if let Holds::If(x) = h {
            buf.push(!x);
        }
    };
    for &(k, x) in from {
        if let Some(y) = find(k + 1) {
            buf.clear();
            buf.push(e);
            not(x, buf);
            not(y, buf);
            if !s.add_clause_reuse(buf) {
                return false;
            }
        }
        buf.clear();
        buf.push(!e);
        not(x, buf);
        let mut sure = false;
        for y in [k.checked_sub(1).and_then(find), find(k + 1)]
            .into_iter()
            .flatten()
        {
            match y {
                Holds::Yes => sure = true,
                Holds::If(y) => buf.push(y),
            }
        }
        if !sure && !s.add_clause_reuse(buf) {
            return false;
        }
    }
    true
}

/// The clauses on a cell's `edges`: two of them, or one when the cell holds 1 or `n`
/// (`holds`: the numbers it may hold, as for [`link_clauses`]); false when that is
/// already unsatisfiable. A cell has at most eight edges, so the clauses list the
/// subsets: any three hold a false edge (at most two), any two a false one at an end
/// (at most one); all but any one hold a true edge (at least two) unless at an end,
/// and some edge is true.
fn degree_clauses(
    s: &mut batsat::Solver<Limits>,
    edges: &[Lit],
    holds: &[(usize, Holds)],
    n: usize,
    buf: &mut Vec<Lit>,
) -> bool {
    let mut end = Vec::new();
    let mut surely_end = false;
    for &(_, h) in holds.iter().filter(|&&(k, _)| k == 1 || k == n) {
        match h {
            Holds::Yes => surely_end = true,
            Holds::If(x) => end.push(x),
        }
    }
    let mut add = |buf: &mut Vec<Lit>| s.add_clause_reuse(buf);
    buf.clear();
    buf.extend_from_slice(edges);
    if !add(buf) {
        return false;
    }
    let m = edges.len();
    for i in 0..m {
        for j in i + 1..m {
            for l in j + 1..m {
                buf.clear();
                buf.extend([!edges[i], !edges[j], !edges[l]]);
                if !add(buf) {
                    return false;
                }
            }
            // At an end, at most one.
            if surely_end {
                buf.clear();
                buf.extend([!edges[i], !edges[j]]);
                if !add(buf) {
                    return false;
                }
            }
            for &x in &end {
                buf.clear();
                buf.extend([!x, !edges[i], !edges[j]]);
                if !add(buf) {
                    return false;
                }
            }
        }
        // Not at an end: at least two.
        if !surely_end {
            buf.clear();
            buf.extend(end.iter().copied());
            buf.extend((0..m).filter(|&j| j != i).map(|j| edges[j]));
            if !add(buf) {
                return false;
            }
        }
    }
    true
}

/// No short cycle of edges: around each 2x2 block of open cells, and each 2x3 and 3x2
/// block, some edge is false (a path never closes a loop). Like the edge clauses this
/// is implied by the numbers, and like them it lets propagation see it at once: the
/// hard removal checks take fewer decisions and whole runs are faster, the 16x16
/// diamond the exception. Cycles of up to 8 or 10 edges took fewer decisions still but
/// cost more to add (measured: docs/performance.md, "Numbrix: no short cycles").
/// `right[c]` and `down[c]` are the edges from cell c to its right and lower
/// neighbours; false when the clauses are already unsatisfiable.
fn cycle_clauses<const W: usize>(
    s: &mut batsat::Solver<Limits>,
    g: &Geometry<W>,
    right: &[Option<Lit>],
    down: &[Option<Lit>],
    buf: &mut Vec<Lit>,
) -> bool {
    let cols = g.cols;
    let (r, d) = (|c: usize| right[c], |c: usize| down[c]);
    // The loop around a block, unless an edge of it is missing (a blocked cell).
    let mut no_loop = |around: &[Option<Lit>], buf: &mut Vec<Lit>| {
        buf.clear();
        for e in around {
            match e {
                Some(e) => buf.push(!*e),
                None => return true,
            }
        }
        s.add_clause_reuse(buf)
    };
    for a in g.all.iter() {
        let (row, col) = (a / cols, a % cols);
        if row + 1 >= g.rows || col + 1 >= cols {
            continue;
        }
        let below = a + cols;
        if !no_loop(&[r(a), d(a + 1), r(below), d(a)], buf) {
            return false;
        }
        if col + 2 < cols
            && !no_loop(
                &[r(a), r(a + 1), d(a + 2), r(below + 1), r(below), d(a)],
                buf,
            )
        {
            return false;
        }
        let low = below + cols;
        if row + 2 < g.rows
            && !no_loop(&[d(a), d(below), r(low), d(below + 1), d(a + 1), r(a)], buf)
        {
            return false;
        }
    }
    true
}

/// Whether `grid` numbers every open cell 1..=N once, keeps the givens of `cells`, and
/// puts consecutive numbers on touching cells.
fn is_path<const W: usize>(g: &Geometry<W>, grid: &[u16], cells: &[u16]) -> bool {
    let n = g.count;
    let mut at = vec![usize::MAX; n + 1];
    for c in g.all.iter() {
        let v = grid[c] as usize;
        if v == 0 || v > n || at[v] != usize::MAX {
            return false;
        }
        if cells[c] != 0 && cells[c] != BLOCKED && cells[c] as usize != v {
            return false;
        }
        at[v] = c;
    }
    (1..n).all(|v| g.nbr[at[v]].get(at[v + 1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{AnySolver, Count};

    /// A near-empty 32x32 grid (524,000 variables) is not encoded: no decision is
    /// taken and nothing is proved, so the solver's search answers it; a small grid
    /// is encoded and counted.
    #[test]
    fn positions_past_the_variable_limit_are_left_to_the_search() {
        let g = Geometry::<16>::new(32, 32);
        let mut cells = vec![0u16; 32 * 32];
        cells[0] = 1;
        let v = count(&g, &cells, None, 2, 1_000_000, &[]);
        assert!(v.found.is_none() && v.decisions == 0);
        assert_eq!(
            AnySolver::new(32, 32).solve(&cells, 1_000_000).count,
            Count::Many
        );
        let g = Geometry::<1>::new(6, 6);
        let mut cells = vec![0u16; 36];
        cells[0] = 1;
        assert_eq!(count(&g, &cells, None, 2, 1_000_000, &[]).found, Some(2));
    }
}
