//! Choosing the givens: start from a full solution and take clues away while the
//! puzzle keeps exactly one solution (each step proved by the solver).
//!
//! - `free`: every cell is a clue at first; clues are tried one at a time and a clue
//!   goes back whenever its removal loses uniqueness. The result is minimal: removing
//!   a clue later can only add solutions, so each clue that went back is still needed.
//!   The next clue tried is the one whose removal would leave the shortest run of
//!   numbers without a given (ties in random order): a proof that a clue can go is
//!   hard when it opens a long free run, so the clues go where they are dense first,
//!   the runs stay even, and the proofs at the sparse end stay short. Against a random
//!   order this is faster and leaves fewer clues (measured: docs/performance.md,
//!   "Numbrix: thinning by shortest run").
//! - `symmetric`: the same in pairs under 180-degree rotation (the centre cell of an odd
//!   grid alone), in random order. A pair may be needed while one of its cells is not;
//!   such puzzles are rejected (a new path is drawn), so every printed symmetric puzzle
//!   is minimal clue by clue as well as pair by pair.
//! - `border`: givens only on the outer ring (on a shaped grid, the open cells that
//!   touch a blocked cell or the grid's edge, see [`Board::on_border`]). If the whole
//!   ring does not pin the path down, the path is rejected and a new one drawn;
//!   otherwise the ring is thinned in random order.
//!
//! On boards of `GROWN_FROM` open cells or more (11x11 and up) with orthogonal moves,
//! `free` starts from fewer clues: every eighth number of the path, then clues added
//! one at a time, each at a cell where some other solution differs from this one, until
//! no other solution is left (see [`AnySolver::grow`]); the clues are then thinned as
//! above. Removing a clue needs a proof that no second solution appeared, and on
//! sparse large grids those proofs are what costs; starting from a unique set near the
//! final size leaves a few dozen of them instead of hundreds. The result is minimal by
//! the same argument. (Minimal Hidato puzzles keep about a third of their cells as
//! clues, so thinning the whole solution is quick, while growing from an eighth with
//! king moves is far slower; measured: docs/performance.md, "Numbrix: Hidato not
//! grown".)
//!
//! 1 and N are clues like any other: kept or removed by the same rule.
//!
//! Every solver call has a node budget ([`Budget`]). Generation first tries a path
//! with a short one and gives it up when any proof runs past it, then draws another
//! path (`super::SHORT_NODES_PER_CELL`); only the last path tried keeps a clue whose
//! proof runs out, and such a puzzle is unique but not called minimal.
//!
//! With a grade cap (`easy` or `medium`, see `super::grade`), a removal must also keep
//! the puzzle solvable by that grade's techniques; the result is then minimal for its
//! grade: no clue can go without losing uniqueness or needing harder techniques. It is
//! called minimal only when, tried again without the cap, no clue can go at all (most
//! easy puzzles keep clues the grade needs and uniqueness does not).
//! (Plain minimal 9x9 puzzles have 7 to 13 clues and are nearly all `hard`, so a
//! filter alone would almost never find an easy one.) Whatever the grader solves is
//! unique, since its deductions are all forced; the solver proves it again anyway.

use super::grade::Grade;
use super::grid::{Board, BLOCKED};
use super::solve::{AnySolver, Count};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

/// Where the givens may be (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// Clues anywhere, thinned to a minimal set.
    #[default]
    Free,
    /// Clues in pairs under 180-degree rotation, minimal clue by clue.
    Symmetric,
    /// Clues only on the outer ring.
    Border,
}

impl Style {
    /// The style's name in parameters and records ("free", "symmetric", "border").
    pub fn name(self) -> &'static str {
        match self {
            Style::Free => "free",
            Style::Symmetric => "symmetric",
            Style::Border => "border",
        }
    }
}

impl std::str::FromStr for Style {
    type Err = ground::Error;
    fn from_str(s: &str) -> ground::Result<Self> {
        [Style::Free, Style::Symmetric, Style::Border]
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| {
                ground::Error::invalid(format!(
                    "unknown style '{s}': choose free, symmetric or border"
                ))
            })
    }
}

/// From this many open cells (11x11) on, with orthogonal moves, `free` clues are grown
/// before they are thinned (see the module notes): from there on, growing clues from
/// the path is faster than thinning the whole solution. On smaller grids growing saves
/// little time and leaves more clues, so they are thinned from the whole solution
/// (measured: docs/performance.md, "Numbrix: clue growth").
pub(crate) const GROWN_FROM: usize = 121;

/// The growth's seeds are every this-many-th number of the path (16x16: 32 clues).
/// Seeds spread along the path leave no long run without a clue, so the growth adds
/// few and the set grown is even: faster than a random eighth of the cells. The share
/// was chosen among every 6th to 12th number (measured: docs/performance.md, "Numbrix:
/// growth seeds").
const SEED_SHARE: usize = 8;

/// Why a solution did not give a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Border style: the full ring allows more than one path.
    BorderNotUnique,
    /// Symmetric style: some single clue could go.
    NotMinimal,
    /// The solver's node budget ran out on the first uniqueness check (border style),
    /// or a stop was requested (Ctrl-C): the search cannot go on.
    Budget,
    /// With [`Budget::GiveUp`]: a proof ran out of its budget.
    LongProof,
}

/// Each solver call's node budget (search nodes, plus the SAT prover's decisions) in a
/// selection, and what a removal proof that runs out of it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// The clue stays: the puzzle is still unique, but not proved minimal.
    KeepClue(u64),
    /// The selection ends with [`Failure::LongProof`], for another path to be tried
    /// (so does a step of the growth).
    GiveUp(u64),
}

impl Budget {
    /// The nodes each call may take.
    pub fn nodes(self) -> u64 {
        match self {
            Budget::KeepClue(n) | Budget::GiveUp(n) => n,
        }
    }
}

impl Failure {
    /// Why the attempt failed, phrased for a person.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Failure::BorderNotUnique => "the border does not pin down the path",
            Failure::NotMinimal => "a symmetric clue set that is not minimal",
            Failure::Budget => "the solver's node budget ran out",
            Failure::LongProof => "a proof ran past its short budget",
        }
    }
}

struct Remover<'a> {
    solver: &'a mut AnySolver,
    solution: &'a [u16],
    givens: Vec<u16>,
    budget: Budget,
    cap: Option<Grade>,
    /// Some removal check ran out of budget (its clue stayed): not proven minimal.
    undecided: bool,
    /// Solutions other than `solution` met so far (at most [`OTHERS_KEPT`]): one that
    /// keeps every given but a clue, and differs there, shows that clue is needed
    /// without a search (givens are only ever taken away, so it stays a witness).
    others: Vec<Vec<u16>>,
}

/// The most other solutions a selection keeps as witnesses.
const OTHERS_KEPT: usize = 64;

impl Remover<'_> {
    /// A stop request (Ctrl-C) ends the selection like a budget that ran out: the
    /// solver's checks would all answer unknown from now on.
    fn stop_requested() -> Result<(), Failure> {
        if ground::interrupt::requested() {
            Err(Failure::Budget)
        } else {
            Ok(())
        }
    }

    /// Whether the current givens have exactly one solution.
    fn unique(&mut self) -> Result<bool, Failure> {
        match self.solver.solve(&self.givens, self.budget.nodes()).count {
            Count::One => Ok(true),
            Count::Many | Count::Zero => Ok(false),
            Count::Unknown => Err(Failure::Budget),
        }
    }

    /// Remove the cells of `group` if the puzzle stays unique; put them back otherwise.
    /// The current givens must have exactly one solution. Then a second solution
    /// without the group must differ from the first in one of the group's cells, so one
    /// search per cell for a solution that avoids that cell's number decides it (and
    /// skips the known solution's subtree).
    fn try_remove(&mut self, group: &[usize]) -> Result<bool, Failure> {
        Self::stop_requested()?;
        let saved: Vec<u16> = group.iter().map(|&c| self.givens[c]).collect();
        for &c in group {
            self.givens[c] = 0;
        }
        let mut unique = self.within_cap();
        for (&c, &v) in group.iter().zip(&saved).filter(|_| unique) {
            if self.witnessed(c, v) {
                unique = false;
                break;
            }
            match self.other_than(c, v) {
                Count::Zero => {}
                Count::Unknown => {
                    // Not proven either way: the clue stays, the puzzle stays unique.
                    self.ran_out()?;
                    unique = false;
                    break;
                }
                _ => {
                    unique = false;
                    break;
                }
            }
        }
        if !unique {
            for (&c, v) in group.iter().zip(saved) {
                self.givens[c] = v;
            }
        }
        Ok(unique)
    }

    /// Whether a known other solution keeps every current given and differs at `c`
    /// (whose clue `v` is taken away).
    fn witnessed(&self, c: usize, v: u16) -> bool {
        self.others.iter().any(|t| {
            t[c] != v
                && self
                    .givens
                    .iter()
                    .zip(t)
                    .all(|(&g, &x)| !is_given(g) || g == x)
        })
    }

    /// The solver's check for a solution of the givens without `v` at `c`; one it
    /// finds is kept as a witness.
    fn other_than(&mut self, c: usize, v: u16) -> Count {
        let verdict =
            self.solver
                .other_than(&self.givens, c, v, self.budget.nodes(), Some(self.solution));
        if let (Count::One, Some(t)) = (verdict.count, verdict.solution) {
            if self.others.len() < OTHERS_KEPT {
                self.others.push(t);
            }
        }
        verdict.count
    }

    /// Replace the givens (the whole solution) by a smaller unique set: every
    /// [`SEED_SHARE`]th number of the path (from a random offset) as seeds, grown until
    /// unique; `order` (the shuffled open cells) becomes the grown clues in a new
    /// random order. When a step of the growth runs out of budget nothing changes, or
    /// with [`Budget::GiveUp`] the selection ends.
    fn grow(&mut self, order: &mut Vec<usize>, rng: &mut impl RngCore) -> Result<(), Failure> {
        let offset = rng.random_range(0..SEED_SHARE as u16);
        let seeds: Vec<u16> = self
            .solution
            .iter()
            .map(|&v| match v {
                BLOCKED => BLOCKED,
                v if v % SEED_SHARE as u16 == offset => v,
                _ => 0,
            })
            .collect();
        let mut pick = |len: usize| rng.random_range(0..len.max(1));
        match self.solver.grow(
            self.solution,
            &seeds,
            self.budget.nodes(),
            &mut pick,
            &mut self.others,
        ) {
            Some(grown) => {
                self.givens = grown;
                self.others.truncate(OTHERS_KEPT);
                order.retain(|&c| is_given(self.givens[c]));
                order.shuffle(rng);
                Ok(())
            }
            None if matches!(self.budget, Budget::GiveUp(_)) => Err(Failure::LongProof),
            None => Ok(()),
        }
    }

    /// Try to remove each clue of `order` once (see [`try_remove`](Self::try_remove)):
    /// next always the one whose removal would leave the shortest run of numbers
    /// without a given, counted from the given below it to the given above it (from 0
    /// or to N + 1 at the ends, where a run counts double); ties in `order`'s order.
    /// Taking clues out where they are dense first keeps the runs even, so the proofs
    /// at the sparse end are short (see the module notes).
    fn thin(&mut self, order: &[usize]) -> Result<(), Failure> {
        let top = self.solution.iter().filter(|&&v| v != BLOCKED).count() + 1;
        // The given numbers as a list linked both ways, 0 and N + 1 at its ends:
        // below[v] and above[v] are the givens next to v.
        let (mut below, mut above) = (vec![0usize; top + 1], vec![top; top + 1]);
        let mut given = vec![false; top + 1];
        for &v in self.givens.iter().filter(|&&v| is_given(v)) {
            given[usize::from(v)] = true;
        }
        let mut last = 0;
        for v in 1..top {
            if given[v] {
                below[v] = last;
                above[last] = v;
                last = v;
            }
        }
        above[last] = top;
        let run = |v: usize, below: &[usize], above: &[usize]| {
            let end = below[v] == 0 || above[v] == top;
            (above[v] - below[v]) << usize::from(end)
        };
        let mut left = order.to_vec();
        while !left.is_empty() {
            let next = (0..left.len())
                .min_by_key(|&j| run(usize::from(self.givens[left[j]]), &below, &above))
                .expect("a clue left to try");
            let c = left.remove(next);
            let v = usize::from(self.givens[c]);
            if self.try_remove(&[c])? {
                above[below[v]] = above[v];
                below[above[v]] = below[v];
            }
        }
        Ok(())
    }

    /// A removal check ran out of budget: its clue stays and the puzzle is not proved
    /// minimal, or the selection gives up.
    fn ran_out(&mut self) -> Result<(), Failure> {
        match self.budget {
            Budget::KeepClue(_) => {
                self.undecided = true;
                Ok(())
            }
            Budget::GiveUp(_) => Err(Failure::LongProof),
        }
    }

    /// Whether the current givens stay within the grade cap (always, without one).
    fn within_cap(&self) -> bool {
        match self.cap {
            Some(cap) if cap < Grade::Hard => self.solver.grade(&self.givens) <= cap,
            _ => true,
        }
    }

    /// Whether one clue could go (the current givens being unique).
    fn removable(&mut self, c: usize) -> Result<bool, Failure> {
        Self::stop_requested()?;
        let v = std::mem::replace(&mut self.givens[c], 0);
        if !self.within_cap() || self.witnessed(c, v) {
            self.givens[c] = v;
            return Ok(false);
        }
        let verdict = self.other_than(c, v);
        self.givens[c] = v;
        match verdict {
            Count::Zero => Ok(true),
            Count::Unknown => {
                self.ran_out()?;
                Ok(false)
            }
            _ => Ok(false),
        }
    }
}

/// Choose givens for `solution` (cell -> number, [`BLOCKED`] on the board's blocked
/// cells) in the given style, harder than `cap` never (see the module notes). `solver`
/// must be the board's.
pub fn select(
    style: Style,
    cap: Option<Grade>,
    solver: &mut AnySolver,
    board: &Board,
    solution: &[u16],
    rng: &mut impl RngCore,
    budget: Budget,
) -> Result<Selected, Failure> {
    let n = board.cells();
    let open = |c: usize| board.is_open(c);
    let mut r = Remover {
        solver,
        solution,
        givens: solution.to_vec(),
        budget,
        cap,
        undecided: false,
        others: Vec::new(),
    };
    match style {
        Style::Free => {
            let mut order: Vec<usize> = (0..n).filter(|&c| open(c)).collect();
            order.shuffle(rng);
            let orthogonal = board.moves == super::shape::Moves::Orthogonal;
            if orthogonal && order.len() >= GROWN_FROM && cap.is_none_or(|c| c >= Grade::Hard) {
                r.grow(&mut order, rng)?;
            }
            r.thin(&order)?;
        }
        Style::Symmetric => {
            // A cell whose twin is blocked goes alone.
            let mut order: Vec<usize> = (0..n)
                .filter(|&c| open(c) && (c <= n - 1 - c || !open(n - 1 - c)))
                .collect();
            order.shuffle(rng);
            for c in order {
                let twin = n - 1 - c;
                if twin == c || !open(twin) {
                    r.try_remove(&[c])?;
                } else {
                    r.try_remove(&[c, twin])?;
                }
            }
            for c in 0..n {
                if is_given(r.givens[c]) && r.removable(c)? {
                    return Err(Failure::NotMinimal);
                }
            }
        }
        Style::Border => {
            let ring = |c: usize| board.on_border(c);
            for c in 0..n {
                if open(c) && !ring(c) {
                    r.givens[c] = 0;
                }
            }
            if !r.unique()? || !r.within_cap() {
                return Err(Failure::BorderNotUnique);
            }
            let mut order: Vec<usize> = (0..n).filter(|&c| open(c) && ring(c)).collect();
            order.shuffle(rng);
            for c in order {
                r.try_remove(&[c])?;
            }
        }
    }
    // With a grade cap a clue may have stayed because the grade needed it: minimal
    // means needed for uniqueness, so every given is tried again without the cap.
    let capped = cap.is_some_and(|c| c < Grade::Hard);
    let minimal_for_grade = capped.then_some(!r.undecided);
    let mut minimal = !r.undecided;
    if capped && minimal {
        r.cap = None;
        for c in 0..n {
            if is_given(r.givens[c]) && r.removable(c)? {
                minimal = false;
                break;
            }
        }
        minimal &= !r.undecided;
    }
    Ok(Selected {
        givens: r.givens,
        minimal,
        minimal_for_grade,
    })
}

/// Whether a cell's value is a clue (not blank, not blocked).
fn is_given(v: u16) -> bool {
    v != 0 && v != BLOCKED
}

/// Chosen givens (proved to have one solution).
pub struct Selected {
    /// The givens in reading order, 0 for a blank.
    pub givens: Vec<u16>,
    /// Every clue was proved necessary for uniqueness: without any one of them the
    /// puzzle has more than one solution. False when some removal check ran out of its
    /// node budget and its clue was kept (seen on large sparse grids, never on 9x9 in
    /// our runs), and when a grade cap kept a clue that uniqueness alone does not need.
    pub minimal: bool,
    /// With a grade cap (`easy`, `medium`): every clue was proved necessary for
    /// uniqueness or for the grade (without it the puzzle has more solutions or needs
    /// harder techniques). None without a cap.
    pub minimal_for_grade: Option<bool>,
}

/// Add clues from `solution` in random order until `target` cells are given (a unique
/// puzzle stays unique). Used to make published-style puzzles (16-28 givens on 9x9)
/// from minimal ones, for benchmarks and tests.
pub fn add_clues(givens: &mut [u16], solution: &[u16], target: usize, rng: &mut impl RngCore) {
    let mut blanks: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] == 0).collect();
    blanks.shuffle(rng);
    let have = givens.iter().filter(|&&v| is_given(v)).count();
    for &c in blanks.iter().take(target.saturating_sub(have)) {
        givens[c] = solution[c];
    }
}
