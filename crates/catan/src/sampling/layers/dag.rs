//! A layered counting graph: the states of a hex-by-hex placement, merged when they
//! have the same future, with the number of ways to finish from each.
//!
//! A [`Spec`] says how many steps a placement has, its first state and the moves from a
//! state (one symbol each, leading to the next state). [`Dag::build`] expands the states
//! level by level (merging equal states), counts the ways to finish backwards, and drops
//! the states that cannot finish. The result counts the placements exactly, gives the
//! probability of each symbol at each step under the uniform distribution over
//! placements (forward times backward counts), and draws a uniform placement with one
//! random number (walking down, each choice taken with the share of its completions).

use std::collections::HashMap;

/// A placement problem, one symbol per step.
pub(crate) trait Spec {
    /// Number of steps.
    fn steps(&self) -> usize;
    /// The state before the first step.
    fn root(&self) -> u128;
    /// Every move from `key` before step `step`: the symbol, the next state, and the
    /// relabelling that took the next state to its representative (0: none; see
    /// [`Spec::relabel`]). The moves of the last step must all lead to one final state.
    fn moves(&self, step: usize, key: u128, out: &mut Vec<(u8, u128, u8)>);
}

/// One edge: the symbol placed and the state it leads to, with that state's count of
/// completions (so a walk needs no lookup).
#[derive(Debug, Clone, Copy)]
struct Edge {
    count: u64,
    child: u32,
    symbol: u8,
    relabel: u8,
}

/// The states before one step: node i's edges are `edges[start[i]..start[i + 1]]`.
#[derive(Debug, Default)]
struct Level {
    count: Vec<u64>,
    start: Vec<u32>,
    edges: Vec<Edge>,
}

/// A level before counting: per state the start of its edges, and the edges as
/// (symbol, child, relabelling).
type RawLevel = (Vec<u32>, Vec<(u8, u32, u8)>);

/// The counting graph of a [`Spec`].
#[derive(Debug)]
pub(crate) struct Dag {
    levels: Vec<Level>,
    /// The most states any level held while it was built.
    pub widest: usize,
}

/// Why a graph was not built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// A level would hold more than the limit of states.
    TooWide { step: usize, states: usize },
    /// The levels together would hold more than the budget of states.
    TooMany { step: usize, states: usize },
    /// A count does not fit 64 bits.
    Overflow,
    /// An allocation failed (the process may not have the memory the graph needs).
    OutOfMemory { step: usize, states: usize },
    /// A stop was asked for (Ctrl-C, SIGTERM).
    Stopped,
}

/// Room for `more` elements in `v`, or `OutOfMemory` (never an abort).
fn room<T>(v: &mut Vec<T>, more: usize, step: usize, states: usize) -> Result<(), Refused> {
    v.try_reserve(more)
        .map_err(|_| Refused::OutOfMemory { step, states })
}

impl Dag {
    /// Expand, count and prune the placements of `spec`, refusing when a level would
    /// hold more than `limit` states or all levels more than `budget`. Every
    /// allocation is reserved first ([`Refused::OutOfMemory`], never an abort), and a
    /// stop asked for ends it ([`Refused::Stopped`]).
    pub(crate) fn build(spec: &dyn Spec, limit: usize, budget: usize) -> Result<Dag, Refused> {
        let (raw, last, widest, expanded) = Self::expand(spec, limit, budget)?;
        if ground::interrupt::requested() {
            return Err(Refused::Stopped);
        }
        let counts = Self::count_back(&raw, last, expanded)?;
        let levels = Self::prune(&raw, &counts, expanded)?;
        Ok(Dag { levels, widest })
    }

    /// Every level's states and edges, from the root: (levels, states of the last
    /// level, the widest level, states made).
    fn expand(
        spec: &dyn Spec,
        limit: usize,
        budget: usize,
    ) -> Result<(Vec<RawLevel>, usize, usize, usize), Refused> {
        let steps = spec.steps();
        let mut keys: Vec<u128> = vec![spec.root()];
        // Per level, edges as (parent, symbol, child) before counting.
        let mut raw: Vec<RawLevel> = Vec::new();
        room(&mut raw, steps, 0, 0)?;
        let mut widest = 1;
        let mut expanded = 0usize;
        let mut out = Vec::with_capacity(16);
        for step in 0..steps {
            let oom = |states: usize| Refused::OutOfMemory { step, states };
            let mut index: HashMap<u128, u32> = HashMap::new();
            index
                .try_reserve(keys.len().saturating_mul(2))
                .map_err(|_| oom(expanded))?;
            let mut next: Vec<u128> = Vec::new();
            let mut start = Vec::new();
            room(&mut start, keys.len() + 1, step, expanded)?;
            let mut edges = Vec::new();
            for (i, &k) in keys.iter().enumerate() {
                if i % 65_536 == 0 && ground::interrupt::requested() {
                    return Err(Refused::Stopped);
                }
                start.push(edges.len() as u32);
                out.clear();
                spec.moves(step, k, &mut out);
                let made = expanded + next.len();
                room(&mut edges, out.len(), step, made)?;
                for &(sym, child, relabel) in &out {
                    // Room first (a check, while there is spare room), so the insert
                    // below never allocates, and never aborts.
                    let made = expanded + next.len();
                    index.try_reserve(1).map_err(|_| oom(made))?;
                    let id = match index.entry(child) {
                        std::collections::hash_map::Entry::Occupied(o) => *o.get(),
                        std::collections::hash_map::Entry::Vacant(v) => {
                            room(&mut next, 1, step, made)?;
                            next.push(child);
                            *v.insert((next.len() - 1) as u32)
                        }
                    };
                    edges.push((sym, id, relabel));
                }
                if next.len() > limit {
                    return Err(Refused::TooWide {
                        step,
                        states: next.len(),
                    });
                }
            }
            start.push(edges.len() as u32);
            widest = widest.max(next.len());
            expanded += next.len();
            if expanded > budget {
                return Err(Refused::TooMany {
                    step,
                    states: expanded,
                });
            }
            raw.push((start, edges));
            keys = next;
        }
        Ok((raw, keys.len(), widest, expanded))
    }

    /// Each state's number of ways to finish, counted backwards from the `last` final
    /// states (each finishes in one way).
    fn count_back(
        raw: &[RawLevel],
        last: usize,
        expanded: usize,
    ) -> Result<Vec<Vec<u64>>, Refused> {
        let steps = raw.len();
        // Counts backwards; every final state finishes in one way.
        let mut counts: Vec<Vec<u64>> = vec![Vec::new(); steps + 1];
        room(&mut counts[steps], last, steps, expanded)?;
        counts[steps].resize(last, 1);
        for step in (0..steps).rev() {
            let (start, edges) = &raw[step];
            let below = &counts[step + 1];
            let mut c = Vec::new();
            room(&mut c, start.len() - 1, step, expanded)?;
            for w in start.windows(2) {
                let mut sum = 0u64;
                for &(_, child, _) in &edges[w[0] as usize..w[1] as usize] {
                    sum = sum
                        .checked_add(below[child as usize])
                        .ok_or(Refused::Overflow)?;
                }
                c.push(sum);
            }
            counts[step] = c;
        }
        Ok(counts)
    }

    /// The levels with only the states that finish, renumbered level by level.
    fn prune(
        raw: &[RawLevel],
        counts: &[Vec<u64>],
        expanded: usize,
    ) -> Result<Vec<Level>, Refused> {
        let steps = raw.len();
        // Keep only the states that finish; renumber them level by level.
        let mut levels = Vec::with_capacity(steps + 1);
        let mut keep: Vec<Vec<u32>> = Vec::new();
        room(&mut keep, counts.len(), 0, expanded)?;
        for c in counts {
            let mut k = Vec::new();
            room(&mut k, c.len(), 0, expanded)?;
            let mut n = 0u32;
            k.extend(c.iter().map(|&x| {
                if x == 0 {
                    u32::MAX
                } else {
                    n += 1;
                    n - 1
                }
            }));
            keep.push(k);
        }
        for step in 0..steps {
            if ground::interrupt::requested() {
                return Err(Refused::Stopped);
            }
            let (start, edges) = &raw[step];
            let mut level = Level::default();
            room(&mut level.count, start.len(), step, expanded)?;
            room(&mut level.start, start.len(), step, expanded)?;
            room(&mut level.edges, edges.len(), step, expanded)?;
            for (node, w) in start.windows(2).enumerate() {
                if keep[step][node] == u32::MAX {
                    continue;
                }
                level.count.push(counts[step][node]);
                level.start.push(level.edges.len() as u32);
                for &(symbol, child, relabel) in &edges[w[0] as usize..w[1] as usize] {
                    let c = counts[step + 1][child as usize];
                    if c > 0 {
                        level.edges.push(Edge {
                            count: c,
                            child: keep[step + 1][child as usize],
                            symbol,
                            relabel,
                        });
                    }
                }
            }
            level.start.push(level.edges.len() as u32);
            level.count.shrink_to_fit();
            level.start.shrink_to_fit();
            level.edges.shrink_to_fit();
            levels.push(level);
        }
        let mut last = Vec::new();
        room(&mut last, counts[steps].len(), steps, expanded)?;
        last.extend(counts[steps].iter().copied().filter(|&c| c > 0));
        levels.push(Level {
            count: last,
            start: Vec::new(),
            edges: Vec::new(),
        });
        Ok(levels)
    }

    /// The number of placements (0 when none).
    pub(crate) fn total(&self) -> u64 {
        self.levels[0].count.first().copied().unwrap_or(0)
    }

    /// States kept over all levels.
    pub(crate) fn states(&self) -> usize {
        self.levels.iter().map(|l| l.count.len()).sum()
    }

    /// Bytes the kept graph takes.
    pub(crate) fn bytes(&self) -> usize {
        self.levels
            .iter()
            .map(|l| {
                l.count.len() * 8 + l.start.len() * 4 + l.edges.len() * std::mem::size_of::<Edge>()
            })
            .sum()
    }

    /// Per step, how many placements put each symbol there (`symbols` columns).
    pub(crate) fn marginals(&self, symbols: usize) -> Vec<Vec<u128>> {
        let steps = self.levels.len() - 1;
        let mut out = vec![vec![0u128; symbols]; steps];
        if self.total() == 0 {
            return out;
        }
        let mut fwd: Vec<u128> = vec![1];
        for (step, level) in self.levels[..steps].iter().enumerate() {
            let mut next = vec![0u128; self.levels[step + 1].count.len()];
            for (node, &f) in fwd.iter().enumerate() {
                let (a, b) = (level.start[node] as usize, level.start[node + 1] as usize);
                for e in &level.edges[a..b] {
                    out[step][e.symbol as usize] += f * u128::from(e.count);
                    next[e.child as usize] += f;
                }
            }
            fwd = next;
        }
        out
    }

    /// The placement numbered `r` (0 <= r < total): its symbols and relabellings into
    /// `symbols` and `relabels` by step, from the walk that takes, at each state, the
    /// edge whose share of completions holds `r`. Uniform `r` gives a uniform placement.
    #[inline]
    pub(crate) fn walk(&self, mut r: u64, symbols: &mut [u8], relabels: &mut [u8]) {
        let mut node = 0usize;
        for (step, level) in self.levels[..self.levels.len() - 1].iter().enumerate() {
            let a = level.start[node] as usize;
            let b = level.start[node + 1] as usize;
            let mut pick = b - 1;
            for (i, e) in level.edges[a..b].iter().enumerate() {
                if r < e.count {
                    pick = a + i;
                    break;
                }
                r -= e.count;
            }
            let e = level.edges[pick];
            symbols[step] = e.symbol;
            relabels[step] = e.relabel;
            node = e.child as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words over {0, 1, 2} of length n with no two equal neighbours and at most
    /// `ones` ones: state = (last symbol + 1, ones used).
    struct Words {
        n: usize,
        ones: u32,
    }

    impl Spec for Words {
        fn steps(&self) -> usize {
            self.n
        }
        fn root(&self) -> u128 {
            0
        }
        fn moves(&self, step: usize, key: u128, out: &mut Vec<(u8, u128, u8)>) {
            let (last, used) = ((key & 0xff) as u8, (key >> 8) as u32);
            for s in 0..3u8 {
                if last == s + 1 {
                    continue;
                }
                let u = used + u32::from(s == 1);
                if u > self.ones {
                    continue;
                }
                // The final state is one (all equal at the end).
                let next = if step + 1 == self.n {
                    u128::MAX
                } else {
                    u128::from(s + 1) | u128::from(u) << 8
                };
                out.push((s, next, 0));
            }
        }
    }

    fn brute(n: usize, ones: u32) -> Vec<Vec<u8>> {
        let mut all = Vec::new();
        for code in 0..3usize.pow(n as u32) {
            let w: Vec<u8> = (0..n)
                .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
                .collect();
            let ok = w.windows(2).all(|p| p[0] != p[1])
                && w.iter().filter(|&&s| s == 1).count() as u32 <= ones;
            if ok {
                all.push(w);
            }
        }
        all
    }

    #[test]
    fn counts_marginals_and_walks_agree_with_listing_every_word() {
        for (n, ones) in [(1, 0), (4, 1), (7, 2), (8, 8)] {
            let dag = Dag::build(&Words { n, ones }, 1000, usize::MAX).unwrap();
            let words = brute(n, ones);
            assert_eq!(dag.total() as usize, words.len(), "n={n} ones={ones}");
            // Walk r = 0.. total - 1 lists every word once, in order.
            let mut walked: Vec<Vec<u8>> = (0..dag.total())
                .map(|r| {
                    let mut w = vec![0u8; n];
                    dag.walk(r, &mut w, &mut vec![0u8; n]);
                    w
                })
                .collect();
            walked.sort();
            let mut sorted = words.clone();
            sorted.sort();
            assert_eq!(walked, sorted);
            let m = dag.marginals(3);
            for step in 0..n {
                for s in 0..3u8 {
                    let want = words.iter().filter(|w| w[step] == s).count() as u128;
                    assert_eq!(m[step][s as usize], want);
                }
            }
        }
    }

    #[test]
    fn a_level_wider_than_the_limit_is_refused() {
        let e = Dag::build(&Words { n: 9, ones: 9 }, 3, usize::MAX).unwrap_err();
        assert!(matches!(e, Refused::TooWide { .. }));
        let e = Dag::build(&Words { n: 9, ones: 9 }, 1000, 20).unwrap_err();
        assert!(matches!(e, Refused::TooMany { .. }));
        assert!(Dag::build(&Words { n: 9, ones: 9 }, 1000, 1000).is_ok());
    }
}
