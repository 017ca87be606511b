//! The exact solver: depth-first search over pair moves and adds, with a table of
//! positions already proved lost, class-parity pruning and move ordering.
//!
//! - Only a digit's class matters for matching ({1,9} {2,8} {3,7} {4,6} {5}), so the
//!   search runs on classes: boards that differ only inside classes are one position.
//! - A pair keeps every class count's parity and an add doubles the counts, so with no
//!   adds left every class count must be even (and stays so): an odd count is lost.
//! - Lost positions are stored with the number of adds they were searched with; a
//!   position lost with k adds left is lost with fewer, so one entry serves both. Keys
//!   are 128-bit hashes of (board length, cells); a false match needs a 2^-128 event
//!   (far below the chance of a hardware fault), so "unsolvable" is exhaustive.
//! - Order: the add first (see the rounds below), then pairs by how close they bring
//!   the reading-order shortcut (below) to applying: the length of the reduced word
//!   after the pair (no add left) or of the reduced word of the board added to itself
//!   (an add left); ties: pairs that leave a row intact first (row removal shifts
//!   diagonals). The first solution found is returned.
//! - A shortcut that finds most solutions at once: read the digits in reading order as
//!   a word whose letters are classes. Pairs next to each other in reading order may
//!   always be removed, and removing such pairs reduces the word like a word in a free
//!   product of groups of order 2 (each class cancels itself), which has one reduced
//!   form whatever the order. An add appends the word to itself. So with reading-order
//!   pairs alone, a board clears with no add iff its reduced word is empty, and with
//!   one add iff the reduced word is a palindrome (then `w w` reduces to nothing). The
//!   search tries this at every position before branching, and when it applies,
//!   plays it out greedily (always the first reading-order pair) to get the moves.
//! - Rounds: first random playouts of the source's Monte Carlo kind (seeded by the
//!   board; a win in a playout is a valid solution, and they find most solutions in
//!   microseconds), then rounds of the search. Nearly all the work of an exhaustive
//!   search is refuting the no-add positions that follow an add, and most add points
//!   can in fact be won, but a depth-first search that spends millions of nodes
//!   refuting the first add points it meets never reaches the good ones. So in round
//!   r the no-add search after each add point gets at most 64 * 8^r nodes; a search
//!   cut short makes its position (and every ancestor) "cut", never "lost", and the
//!   round goes on with the other add points. Lost positions (proved exhaustively)
//!   stay in the table across rounds; cut ones are remembered only within a round.
//!   A round with no cut is exhaustive, so "unsolvable" comes only from such a round,
//!   and the budget grows until one is (or the caller's budget runs out: unknown).
//! - `min_adds` runs the search with 0, 1, 2, ... adds: the first limit that clears
//!   the board is the fewest adds needed, and what earlier limits proved lost is kept.
//! - Bounds: memory does not grow with the node budget (each table keeps at most
//!   `MAX_TABLE_ENTRIES`; past that it stops remembering, which costs time, never
//!   exactness), the path of the search holds at most `MAX_PATH_BYTES` and is at most
//!   [`MAX_DEPTH`] moves deep, and a stop request (Ctrl-C, see [`ground::interrupt`]) is
//!   seen at the next node or playout step. Reaching a path bound or a stop request
//!   ends the call like running out of nodes: [`Verdict::Unknown`], never a proof.

use super::rules::{class, Rules};
use rand::SeedableRng;
use std::collections::HashMap;

/// Most entries in each of the solver's tables (positions proved lost; positions cut
/// short in the current round): 917,504, that is 7/8 of 2^20, what a hash table of 2^20
/// buckets holds before it grows. So the lost table stays within about 35 MB (32-byte
/// entries and a control byte per bucket) and the cut one within 18 MB, whatever
/// `max_nodes` is (searches of the default 2,000,000 nodes stay below it). Past it, new
/// positions are not remembered: the answer is the same, found more slowly.
pub(crate) const MAX_TABLE_ENTRIES: usize = 917_504;

/// Most bytes the search path holds: 64 MiB, counting per level its board (a byte per
/// cell) and its list of pairs (4 bytes each). A path that would hold more ends the
/// call as [`Verdict::Unknown`]. Only paths of thousands of moves through boards of
/// tens of thousands of cells come near it (a board reaches at most
/// [`super::MAX_CELLS`] cells).
pub(crate) const MAX_PATH_BYTES: usize = 64 << 20;

/// Deepest search path, in moves: 2,048. A level of the recursive search takes about
/// 400 bytes of stack in a release build, so the deepest path takes under 1 MiB, well
/// inside the 2 MiB stack of a worker thread (tested). A deeper path ends the call as
/// [`Verdict::Unknown`]: random 27-digit boards need under 100 moves, and searches on
/// random 256-digit boards with 8 adds were measured to go about 800 deep; only boards
/// whose adds copy thousands of digits need more.
pub const MAX_DEPTH: usize = 2048;

/// Work allowed per node on ordering its pairs (pairs times cells): past it (boards of
/// thousands of cells with thousands of pairs) the pairs are tried in board order, so
/// one node never takes more than milliseconds.
const ORDER_WORK: usize = 1 << 24;

pub use super::rules::Move;

/// The answer for a board within an add limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Clearable: a solution (pairs and at most the allowed adds).
    Solvable(Vec<Move>),
    /// Proved: no sequence of pairs and at most the allowed adds clears the board.
    Unsolvable,
    /// The node budget ran out.
    Unknown,
}

#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("keys are u128")
    }
    fn write_u128(&mut self, v: u128) {
        self.0 = v as u64;
    }
}

type Table = HashMap<u128, u8, std::hash::BuildHasherDefault<IdHasher>>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum R {
    Win,
    Lost,
    Cut,
}

/// How far the reading-order shortcut is from clearing `b`: the length of the reduced
/// word (no add left) or of the reduced word of the board added to itself. `st` is
/// scratch space for the reduction (it grows to the board's digit count, so no board
/// size can overflow it).
fn heur(b: &[u8], adds: u8, st: &mut Vec<u8>) -> u32 {
    st.clear();
    for &x in b {
        if x == 0 {
            continue;
        }
        if st.last() == Some(&x) {
            st.pop();
        } else {
            st.push(x);
        }
    }
    let n = st.len();
    if adds == 0 {
        return n as u32;
    }
    let mut m = 0;
    while m < n / 2 && st[m] == st[n - 1 - m] {
        m += 1;
    }
    (n - 2 * m) as u32
}

/// Exact search for the fewest adds that clear a board, with tables of lost positions.
pub struct Solver {
    rules: Rules,
    lost: Table,
    nodes: u64,
    budget: u64,
    aborted: bool,
    path: Vec<Move>,
    /// The pairs of every level of the current path, one level after another (a level
    /// pushes its pairs, searches them, and truncates back).
    pairs: Vec<(u16, u16)>,
    /// Bytes held by the current path (boards and pairs), and the bounds on it and on
    /// its depth ([`MAX_PATH_BYTES`] and [`MAX_DEPTH`]; tests lower them).
    path_bytes: usize,
    max_path_bytes: usize,
    max_depth: usize,
    /// Entries each table may hold ([`MAX_TABLE_ENTRIES`]; tests lower it).
    max_table: usize,
    /// Positions whose search was cut short in this round (by the add-point budget).
    cut: std::collections::HashSet<u128, std::hash::BuildHasherDefault<IdHasher>>,
    /// Nodes allowed to each no-add search that follows an add (this round), in the
    /// first round, and the factor from one round to the next.
    add_budget: u64,
    first_add_budget: u64,
    add_budget_growth: u64,
    /// The node count at which the current no-add search stops.
    sub_end: u64,
    /// Random playouts tried before the search.
    playouts: u32,
}

/// Two independent 64-bit hashes of the board.
fn key(b: &[u8]) -> u128 {
    let (mut h1, mut h2) = (
        0x9E37_79B9_7F4A_7C15u64 ^ b.len() as u64,
        0xC2B2_AE3D_27D4_EB4Fu64,
    );
    for chunk in b.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        let x = u64::from_le_bytes(w);
        h1 = (h1 ^ x).wrapping_mul(0xFF51_AFD7_ED55_8CCD).rotate_left(29);
        h2 = (h2.rotate_left(17) ^ x).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    }
    h1 ^= h1 >> 33;
    h1 = h1.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h2 ^= h2 >> 31;
    h2 = h2.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    ((h1 as u128) << 64) | (h2 ^ (h2 >> 32)) as u128
}

/// Random playouts before the search (32 measured best among 0, 4, 16, 24, 32, 48, 64
/// with the add-point rounds below).
pub(crate) const PLAYOUTS: u32 = 32;

/// The no-add search after each add point gets this many nodes in the first round,
/// and this many times more in each next round (measured: 64 and 8 against 16-128
/// and 4).
const FIRST_ADD_BUDGET: u64 = 64;
const ADD_BUDGET_GROWTH: u64 = 8;

impl Solver {
    /// A solver that searches at once, without the random playouts (for tests that
    /// exercise the search itself).
    pub fn search_only(rules: Rules) -> Self {
        Solver {
            playouts: 0,
            ..Solver::new(rules)
        }
    }

    /// A solver for `rules` that tries `PLAYOUTS` random playouts before searching.
    pub fn new(rules: Rules) -> Self {
        Solver {
            rules,
            lost: Table::default(),
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            path: Vec::new(),
            pairs: Vec::new(),
            path_bytes: 0,
            max_path_bytes: MAX_PATH_BYTES,
            max_depth: MAX_DEPTH,
            max_table: MAX_TABLE_ENTRIES,
            cut: Default::default(),
            add_budget: u64::MAX,
            first_add_budget: FIRST_ADD_BUDGET,
            add_budget_growth: ADD_BUDGET_GROWTH,
            sub_end: u64::MAX,
            playouts: PLAYOUTS,
        }
    }

    /// The same solver with other add-point budgets (tests: tiny budgets make many
    /// rounds and many cut searches).
    #[cfg(test)]
    pub(crate) fn with_add_budgets(self, first: u64, growth: u64) -> Self {
        assert!(first >= 1 && growth >= 2);
        Solver {
            first_add_budget: first,
            add_budget_growth: growth,
            ..self
        }
    }

    /// The same solver with lower bounds on the search path (tests: reach them on small
    /// boards).
    #[cfg(test)]
    pub(crate) fn with_path_bounds(self, depth: usize, bytes: usize) -> Self {
        Solver {
            max_depth: depth.min(MAX_DEPTH),
            max_path_bytes: bytes.min(MAX_PATH_BYTES),
            ..self
        }
    }

    /// The same solver with smaller tables (tests: fill them on small boards).
    #[cfg(test)]
    pub(crate) fn with_table_entries(self, entries: usize) -> Self {
        Solver {
            max_table: entries.min(MAX_TABLE_ENTRIES),
            ..self
        }
    }

    /// Entries in the tables of positions lost and cut (tests).
    #[cfg(test)]
    pub(crate) fn table_entries(&self) -> (usize, usize) {
        (self.lost.len(), self.cut.len())
    }

    /// Search nodes the last `solve` call visited.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forget the positions proved lost (between boards).
    pub fn reset(&mut self) {
        self.lost.clear();
        self.cut.clear();
        self.nodes = 0;
    }

    /// Can `board` (digits) be cleared with at most `adds` adds? `budget` bounds the
    /// nodes of this call.
    pub fn solve(&mut self, board: &[u8], adds: u8, budget: u64) -> Verdict {
        self.budget = self.nodes.saturating_add(budget);
        self.aborted = false;
        self.path.clear();
        self.pairs.clear();
        self.path_bytes = 0;
        let classes: Vec<u8> = board
            .iter()
            .map(|&d| if d == 0 { 0 } else { class(d) })
            .collect();
        // A few random playouts first (seeded by the board, so the answer is
        // reproducible): they find most solutions in microseconds, and the search
        // below is then needed only for the boards they miss and for proofs.
        // With no add left, an odd class count is lost at once (see above).
        let mut counts = [0u32; 6];
        for &c in &classes {
            counts[c as usize] += 1;
        }
        if adds == 0 && counts[1..].iter().any(|n| n % 2 == 1) {
            self.nodes += 1;
            return Verdict::Unsolvable;
        }
        // Playouts, then rounds of the search with a growing budget per add point (see
        // the module notes). A round cut short loses nothing: the positions it proved
        // lost stay in the table, so the next round skips them.
        let limit = self.budget;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(key(&classes) as u64);
        // With two or more adds the add-point budget guards only the last add's
        // search, so the playouts carry more of the load there (64 rather than 32).
        let playouts = if adds >= 2 {
            self.playouts.saturating_mul(2)
        } else {
            self.playouts
        };
        for _ in 0..playouts {
            if let Some(moves) = super::montecarlo::playout(&self.rules, &classes, adds, &mut rng) {
                return Verdict::Solvable(moves);
            }
        }
        let mut l = self.first_add_budget;
        loop {
            self.add_budget = l;
            self.sub_end = u64::MAX;
            self.cut.clear();
            self.budget = limit;
            self.aborted = false;
            self.path.clear();
            match self.dfs(&classes, adds, 0) {
                R::Win => {
                    self.path.reverse();
                    return Verdict::Solvable(std::mem::take(&mut self.path));
                }
                R::Lost => return Verdict::Unsolvable,
                R::Cut => {}
            }
            if self.aborted {
                break;
            }
            l = l.saturating_mul(self.add_budget_growth);
        }
        Verdict::Unknown
    }

    /// The fewest adds that clear the board (up to `max_adds`), with that solution;
    /// None if it cannot be cleared within `max_adds`; Err(()) if the budget ran out.
    #[allow(clippy::result_unit_err)]
    pub fn min_adds(
        &mut self,
        board: &[u8],
        max_adds: u8,
        budget: u64,
    ) -> Result<Option<(u8, Vec<Move>)>, ()> {
        let start = self.nodes;
        // Odd class counts need at least one add.
        let mut counts = [0u32; 6];
        for &d in board.iter().filter(|&&d| d != 0) {
            counts[class(d) as usize] += 1;
        }
        let first = if counts.iter().any(|c| c % 2 == 1) {
            1
        } else {
            0
        };
        for k in first..=max_adds {
            let left = budget.saturating_sub(self.nodes - start);
            match self.solve(board, k, left) {
                Verdict::Solvable(m) => return Ok(Some((k, m))),
                Verdict::Unknown => return Err(()),
                Verdict::Unsolvable => {}
            }
        }
        Ok(None)
    }

    /// The reading-order shortcut (see the module notes): the moves, if it clears `b`.
    fn reading_order_win(&self, b: &[u8], adds: u8) -> Option<Vec<Move>> {
        let mut stack: Vec<u8> = Vec::with_capacity(b.len());
        for &x in b.iter().filter(|&&x| x != 0) {
            if stack.last() == Some(&x) {
                stack.pop();
            } else {
                stack.push(x);
            }
        }
        let palindrome = stack.iter().eq(stack.iter().rev());
        if !(stack.is_empty() || (adds > 0 && palindrome)) {
            return None;
        }
        // Play it out: always the first pair of neighbours in reading order. No pair
        // lies before the digit in front of the last pair removed (`from`): removing a
        // pair (and rows that empty) changes nothing before it, so each scan starts
        // there.
        let mut board = b.to_vec();
        let mut moves = Vec::new();
        let mut added = false;
        let mut from = 0;
        loop {
            if ground::interrupt::requested() {
                return None; // the search sees the stop at its next node
            }
            let mut prev: Option<usize> = None;
            let mut before_prev: Option<usize> = None;
            let mut found = None;
            for (i, &x) in board.iter().enumerate().skip(from) {
                if x == 0 {
                    continue;
                }
                if let Some(p) = prev {
                    if board[p] == x {
                        found = Some((p, i));
                        break;
                    }
                }
                before_prev = prev;
                prev = Some(i);
            }
            match found {
                Some((i, j)) => {
                    moves.push(Move::Pair(i as u16, j as u16));
                    self.rules.remove(&mut board, i, j);
                    from = before_prev.unwrap_or(0);
                }
                None if board.iter().all(|&x| x == 0) => return Some(moves),
                None if !added && adds > 0 => {
                    added = true;
                    moves.push(Move::Add);
                    self.rules.add(&mut board);
                    from = 0;
                }
                None => unreachable!("the reduced word said this clears"),
            }
        }
    }

    /// The add from `b` (with `adds` left), and the search after it.
    fn try_add(&mut self, b: &[u8], adds: u8, depth: usize) -> R {
        let mut child = b.to_vec();
        self.rules.add(&mut child);
        let saved = self.sub_end;
        if adds == 1 {
            self.sub_end = self.nodes.saturating_add(self.add_budget);
        }
        let r = self.dfs(&child, adds - 1, depth + 1);
        self.sub_end = saved;
        if r == R::Win {
            self.path.push(Move::Add);
        }
        r
    }

    fn dfs(&mut self, b: &[u8], adds: u8, depth: usize) -> R {
        self.nodes += 1;
        if self.nodes > self.budget || ground::interrupt::requested() {
            self.aborted = true;
            return R::Cut;
        }
        if adds == 0 && self.nodes > self.sub_end {
            return R::Cut;
        }
        let mut counts = [0u32; 6];
        for &x in b {
            counts[x as usize] += 1;
        }
        let digits: u32 = counts[1..].iter().sum();
        if digits == 0 {
            return R::Win;
        }
        if adds == 0 && counts[1..].iter().any(|c| c % 2 == 1) {
            return R::Lost;
        }
        let k = key(b);
        if self.lost.get(&k).is_some_and(|&a| a >= adds) {
            return R::Lost;
        }
        let ck = k ^ adds as u128;
        if self.cut.contains(&ck) {
            return R::Cut;
        }
        if let Some(moves) = self.reading_order_win(b, adds) {
            self.path.extend(moves.into_iter().rev());
            return R::Win;
        }
        // Going on from here holds this board until the level is done.
        if depth >= self.max_depth || self.path_bytes + b.len() > self.max_path_bytes {
            self.aborted = true;
            return R::Cut;
        }
        self.path_bytes += b.len();
        let result = self.expand(b, adds, depth);
        self.path_bytes -= b.len();
        match result {
            R::Lost => {
                if let Some(a) = self.lost.get_mut(&k) {
                    *a = (*a).max(adds);
                } else if self.lost.len() < self.max_table {
                    self.lost.insert(k, adds);
                }
            }
            R::Cut if !self.aborted && self.cut.len() < self.max_table => {
                self.cut.insert(ck);
            }
            _ => {}
        }
        result
    }

    /// The moves from `b`: the add and the pairs, in the order of the module notes.
    /// (Inlined into `dfs`: one stack frame per level of the search.)
    #[inline(always)]
    fn expand(&mut self, b: &[u8], adds: u8, depth: usize) -> R {
        let mut any_cut = false;
        // With one add left, the add first (its no-add search limited to this round's
        // add budget); with more, after the pairs, so the board does not double many
        // times before any pair is tried.
        if adds == 1 {
            match self.try_add(b, adds, depth) {
                R::Win => return R::Win,
                R::Cut if self.aborted => return R::Cut,
                R::Cut => any_cut = true,
                R::Lost => {}
            }
        }
        let start = self.pairs.len();
        self.rules.push_moves(b, &mut self.pairs);
        let end = self.pairs.len();
        let held = (end - start) * std::mem::size_of::<(u16, u16)>();
        if self.path_bytes + held > self.max_path_bytes {
            self.pairs.truncate(start);
            self.aborted = true;
            return R::Cut;
        }
        self.path_bytes += held;
        if (end - start).saturating_mul(b.len()) <= ORDER_WORK {
            let cols = self.rules.cols;
            let empties_row = |i: u16, j: u16| {
                let row_empty_without = |r: usize| {
                    let s = r * cols;
                    let e = (s + cols).min(b.len());
                    (s..e).all(|c| b[c] == 0 || c == i as usize || c == j as usize)
                };
                row_empty_without(i as usize / cols) || row_empty_without(j as usize / cols)
            };
            let rules = self.rules;
            let (mut c, mut st) = (Vec::with_capacity(b.len()), Vec::new());
            self.pairs[start..end].sort_by_cached_key(|&(i, j)| {
                c.clear();
                c.extend_from_slice(b);
                rules.remove(&mut c, i as usize, j as usize);
                (heur(&c, adds, &mut st), empties_row(i, j))
            });
        }
        let mut result = R::Lost;
        for m in start..end {
            let (i, j) = self.pairs[m];
            let mut child = b.to_vec();
            self.rules.remove(&mut child, i as usize, j as usize);
            match self.dfs(&child, adds, depth + 1) {
                R::Win => {
                    self.path.push(Move::Pair(i, j));
                    result = R::Win;
                    break;
                }
                R::Cut => {
                    if self.aborted {
                        result = R::Cut;
                        break;
                    }
                    any_cut = true;
                }
                R::Lost => {}
            }
        }
        self.pairs.truncate(start);
        self.path_bytes -= held;
        if adds >= 2 && result == R::Lost {
            match self.try_add(b, adds, depth) {
                R::Win => return R::Win,
                R::Cut => {
                    if self.aborted {
                        return R::Cut;
                    }
                    any_cut = true;
                }
                R::Lost => {}
            }
        }
        if result == R::Lost && any_cut {
            result = R::Cut;
        }
        result
    }
}
