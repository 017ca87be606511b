//! Exact expectations by enumeration, and the table the `direct` sampler draws from.
//!
//! The placement rules (red-apart, 2-12-apart) depend only on where the deserts, the
//! red tokens and the 2s and 12s lie. Every valid placement extends to the same number
//! of full boards (the other tokens, the terrain and the harbors are unconstrained), so
//! the uniform distribution over valid boards is the uniform distribution over valid
//! placements, completed at random. Enumerating placements therefore gives exact
//! per-hex probabilities and the exact acceptance rate of whole-board rejection.

use crate::board::{is_extreme, is_red, Shape, DESERT, TOKEN_VALUES};
use crate::rules::{independent, Rules};

/// Why there is no placement table for a rule set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoTable {
    /// The rules look at more than where the deserts, reds and 2s and 12s lie.
    #[error(
        "rules {rules} depend on more than the desert, red and 2/12 placement, so they cannot be enumerated"
    )]
    NotPlacement {
        /// The rules asked for.
        rules: Rules,
    },
    /// Enumerating would take more than `MAX_ENUMERATION` steps.
    #[error(
        "enumerating the placements for {rules} on the {board} board takes about {work} steps (limit {MAX_ENUMERATION})"
    )]
    TooLarge {
        /// The rules asked for.
        rules: Rules,
        /// The board's name.
        board: &'static str,
        /// The steps it would take.
        work: u128,
    },
    /// No placement meets the rules: no board can.
    #[error("no board can satisfy {rules} on the {board} board")]
    NoBoard {
        /// The rules asked for.
        rules: Rules,
        /// The board's name.
        board: &'static str,
    },
}

impl From<NoTable> for ground::Error {
    fn from(e: NoTable) -> Self {
        ground::Error::Invalid(e.to_string())
    }
}

/// Enumeration work above which we refuse and fall back to a reference sample.
pub(crate) const MAX_ENUMERATION: u128 = 200_000_000;

/// C(n, k), the number of k-subsets of n things (0 when k > n).
pub(crate) fn binom(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// Call `f` with every k-subset of the set bits of `mask`.
pub(crate) fn subsets(mask: u32, k: usize, f: &mut impl FnMut(u32)) {
    fn go(rest: u32, k: usize, acc: u32, f: &mut impl FnMut(u32)) {
        if k == 0 {
            f(acc);
            return;
        }
        if (rest.count_ones() as usize) < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, f);
        go(rest & !low, k, acc, f);
    }
    go(mask, k, 0, f);
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A fraction in lowest terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fraction {
    /// Numerator.
    pub num: u128,
    /// Denominator (positive).
    pub den: u128,
}

impl Fraction {
    /// `num / den` reduced to lowest terms.
    pub(crate) fn new(num: u128, den: u128) -> Self {
        let g = gcd(num, den).max(1);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }
    /// The fraction as a float.
    pub fn value(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// Sizes of the placement stages of a shape.
#[derive(Debug, Clone, Copy)]
struct Stages {
    n: usize,
    deserts: usize,
    reds: usize,
    extremes: usize,
}

impl Stages {
    fn of(shape: &Shape) -> Stages {
        Stages {
            n: shape.len(),
            deserts: shape.deserts,
            reds: shape.reds(),
            extremes: shape.token_count(2) + shape.token_count(12),
        }
    }
    fn all(&self) -> u32 {
        ((1u64 << self.n) - 1) as u32
    }
}

/// The valid red sets with, for each, how many valid (deserts, 2s and 12s) completions
/// it has; drawing a red set with that weight and then a completion uniformly is a
/// uniform draw of a valid placement.
#[derive(Debug, Clone)]
pub struct PlacementTable {
    two_twelve: bool,
    /// The valid red sets, as bitmasks of hex indices.
    pub red_sets: Vec<u32>,
    /// `weight[i]` = completions of `red_sets[i]`.
    pub weights: Vec<u64>,
    /// Sum of `weights`: valid placements of reds, deserts, 2s and 12s.
    pub total: u64,
    /// Every red set has the same weight (draw its index directly).
    uniform: bool,
}

/// Valid 2/12 placements (as sets) inside `free`: independent sets when the rule is on.
pub(crate) fn extreme_sets(shape: &Shape, free: u32, k: usize, apart: bool) -> u64 {
    if !apart {
        return binom(free.count_ones() as usize, k) as u64;
    }
    let mut c = 0u64;
    subsets(free, k, &mut |s| {
        if independent(shape, s) {
            c += 1;
        }
    });
    c
}

impl PlacementTable {
    /// Enumerate; Err when the rules are not placement rules, the work is too large,
    /// or no placement meets them.
    pub fn build(shape: &Shape, rules: &Rules) -> Result<PlacementTable, NoTable> {
        if !rules.placement_only() {
            return Err(NoTable::NotPlacement {
                rules: rules.clone(),
            });
        }
        let st = Stages::of(shape);
        let red_candidates = binom(st.n, st.reds);
        let work = if rules.two_twelve_apart() {
            red_candidates
                * binom(st.n - st.reds, st.deserts)
                * binom(st.n - st.reds - st.deserts, st.extremes)
        } else {
            red_candidates
        };
        if work > MAX_ENUMERATION {
            return Err(NoTable::TooLarge {
                rules: rules.clone(),
                board: shape.kind.name(),
                work,
            });
        }
        let mut red_sets = Vec::new();
        let mut weights = Vec::new();
        subsets(st.all(), st.reds, &mut |r| {
            if rules.red_apart() && !independent(shape, r) {
                return;
            }
            let free = st.all() & !r;
            let w = if rules.two_twelve_apart() {
                let mut w = 0u64;
                subsets(free, st.deserts, &mut |d| {
                    w += extreme_sets(shape, free & !d, st.extremes, true);
                });
                w
            } else {
                binom(free.count_ones() as usize, st.deserts) as u64
            };
            if w > 0 {
                red_sets.push(r);
                weights.push(w);
            }
        });
        if red_sets.is_empty() {
            return Err(NoTable::NoBoard {
                rules: rules.clone(),
                board: shape.kind.name(),
            });
        }
        let total = weights.iter().sum();
        let uniform = weights.iter().all(|&w| w == weights[0]);
        Ok(PlacementTable {
            uniform,
            two_twelve: rules.two_twelve_apart(),
            red_sets,
            weights,
            total,
        })
    }

    /// Whether every red set has the same weight.
    pub(crate) fn is_uniform(&self) -> bool {
        self.uniform
    }

    /// Whether the 2-12-apart rule shaped this table.
    pub(crate) fn two_twelve(&self) -> bool {
        self.two_twelve
    }

    /// The exact acceptance rate of whole-board rejection.
    pub(crate) fn acceptance(&self, shape: &Shape) -> Fraction {
        let st = Stages::of(shape);
        let mut all = binom(st.n, st.reds) * binom(st.n - st.reds, st.deserts);
        if self.two_twelve {
            all *= binom(st.n - st.reds - st.deserts, st.extremes);
        }
        Fraction::new(u128::from(self.total), all)
    }
}

/// Add `w` to every entry whose bit is set in `mask`.
fn add_mask(counts: &mut [u128], mask: u32, w: u128) {
    for (h, c) in counts.iter_mut().enumerate() {
        if mask >> h & 1 == 1 {
            *c += w;
        }
    }
}

/// Per-hex probabilities under the uniform distribution over valid boards.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectations {
    /// P(hex h is a desert).
    pub desert: Vec<f64>,
    /// P(hex h holds a 6 or an 8).
    pub red: Vec<f64>,
    /// P(hex h holds `TOKEN_VALUES[k]`).
    pub token: Vec<[f64; 10]>,
    /// P(hex h has terrain t), t in TERRAIN_NAMES order.
    pub terrain: Vec<[f64; 6]>,
    /// P(harbor position p has kind k), k in HARBOR_NAMES order.
    pub harbor: Vec<[f64; 6]>,
    /// P(resource r's pips add up to k), r in TERRAIN_NAMES order (land only), k below
    /// `crate::board::PIP_BINS`.
    pub resource: Vec<Vec<f64>>,
    /// Exact acceptance of whole-board rejection, when enumerated.
    pub acceptance: Option<Fraction>,
    /// Where the numbers come from.
    pub source: String,
    /// What the chi-square's cells are, in words (empty: no chi-square).
    pub cells: &'static str,
}

impl Expectations {
    /// Exact, from the placement table.
    pub fn exact(shape: &Shape, table: &PlacementTable) -> Expectations {
        let st = Stages::of(shape);
        let n = st.n;
        let mut desert = vec![0u128; n];
        let mut red = vec![0u128; n];
        let mut two_or_twelve = vec![0u128; n];
        let total = u128::from(table.total);
        for (&r, &w) in table.red_sets.iter().zip(&table.weights) {
            add_mask(&mut red, r, u128::from(w));
            let free = st.all() & !r;
            if table.two_twelve {
                subsets(free, st.deserts, &mut |d| {
                    let rest = free & !d;
                    let nd = extreme_sets(shape, rest, st.extremes, true) as u128;
                    add_mask(&mut desert, d, nd);
                    subsets(rest, st.extremes, &mut |x| {
                        if independent(shape, x) {
                            add_mask(&mut two_or_twelve, x, 1);
                        }
                    });
                });
            } else {
                // Each non-red hex is a desert in C(m-1, d-1) of the C(m, d) desert choices.
                let m = free.count_ones() as usize;
                let per = binom(m - 1, st.deserts - 1);
                add_mask(&mut desert, free, per);
            }
        }
        let p = |c: u128| c as f64 / total as f64;
        let others =
            (st.n - st.deserts - st.reds - if table.two_twelve { st.extremes } else { 0 }) as f64;
        let land = (st.n - st.deserts) as f64;
        let mut token = vec![[0.0; 10]; n];
        let mut terrain = vec![[0.0; 6]; n];
        for h in 0..n {
            let (pd, pr, px) = (p(desert[h]), p(red[h]), p(two_or_twelve[h]));
            for (k, &v) in TOKEN_VALUES.iter().enumerate() {
                let c = shape.token_count(v) as f64;
                token[h][k] = if is_red(v) {
                    pr * c / st.reds as f64
                } else if table.two_twelve && is_extreme(v) {
                    px * c / st.extremes as f64
                } else {
                    (1.0 - pd - pr - px) * c / others
                };
            }
            for (t, slot) in terrain[h].iter_mut().enumerate() {
                *slot = if t as u8 == DESERT {
                    pd
                } else {
                    (1.0 - pd) * shape.terrain_count(t as u8) as f64 / land
                };
            }
        }
        Expectations {
            desert: desert.into_iter().map(p).collect(),
            red: red.into_iter().map(p).collect(),
            token,
            terrain,
            harbor: harbor_expectations(shape),
            resource: resource_pips_expectations(shape),
            acceptance: Some(table.acceptance(shape)),
            source: format!("exact enumeration of {} valid placements", table.total),
            cells: "valid (red set, desert) placement",
        }
    }
}

/// The distribution of each resource's pip total when the terrain of the land hexes is
/// shuffled independently of the tokens (so under the placement rules, which look at
/// the tokens and the deserts only): a resource with k hexes gets the tokens of a
/// uniformly random k of the land hexes, so its pips are the sum over a uniform
/// k-subset of the tokens, counted here over every subset.
pub(crate) fn resource_pips_expectations(shape: &Shape) -> Vec<Vec<f64>> {
    use crate::board::pips;
    use crate::board::PIP_BINS;
    let tokens: Vec<u32> = shape.tokens.iter().map(|&t| pips(t)).collect();
    let all = ((1u64 << tokens.len()) - 1) as u32;
    (0..DESERT)
        .map(|t| {
            let k = shape.terrain_count(t);
            let mut ways = vec![0u64; PIP_BINS];
            subsets(all, k, &mut |m| {
                let sum: u32 = (0..tokens.len())
                    .filter(|&i| m >> i & 1 == 1)
                    .map(|i| tokens[i])
                    .sum();
                ways[(sum as usize).min(PIP_BINS - 1)] += 1;
            });
            let total: u64 = ways.iter().sum();
            ways.iter().map(|&w| w as f64 / total as f64).collect()
        })
        .collect()
}

/// Harbor kinds are shuffled independently of everything else.
pub(crate) fn harbor_expectations(shape: &Shape) -> Vec<[f64; 6]> {
    let m = shape.harbor_kinds.len() as f64;
    let mut row = [0.0; 6];
    for &k in &shape.harbor_kinds {
        row[k as usize] += 1.0 / m;
    }
    vec![row; shape.harbors.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;

    fn table(kind: BoardKind, rules: &str) -> (PlacementTable, Fraction) {
        let shape = kind.shape();
        let t = PlacementTable::build(shape, &rules.parse().unwrap()).unwrap();
        let a = t.acceptance(shape);
        (t, a)
    }

    #[test]
    fn acceptance_rates_of_the_spec() {
        let (t, a) = table(BoardKind::Base, "red-apart");
        assert_eq!(a, Fraction::new(7, 51));
        assert_eq!(t.red_sets.len(), 532, "independent red sets of the spec");
        assert_eq!(
            table(BoardKind::Base, "red-apart,2-12-apart").1,
            Fraction::new(7033, 67830)
        );
        assert_eq!(
            table(BoardKind::Extended, "red-apart").1,
            Fraction::new(21473, 593775)
        );
        assert_eq!(table(BoardKind::Base, "none").1, Fraction::new(1, 1));
    }

    #[test]
    fn expectations_are_distributions() {
        for rules in ["red-apart", "red-apart,2-12-apart", "none"] {
            let shape = BoardKind::Base.shape();
            let r: Rules = rules.parse().unwrap();
            let t = PlacementTable::build(shape, &r).unwrap();
            let e = Expectations::exact(shape, &t);
            let sum = |v: &[f64]| v.iter().sum::<f64>();
            assert!((sum(&e.desert) - 1.0).abs() < 1e-12);
            assert!((sum(&e.red) - 4.0).abs() < 1e-12);
            for h in 0..19 {
                let tokens: f64 = e.token[h].iter().sum();
                assert!(
                    (tokens + e.desert[h] - 1.0).abs() < 1e-12,
                    "{rules} hex {h}"
                );
                assert!((e.terrain[h].iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
            for (k, &v) in TOKEN_VALUES.iter().enumerate() {
                let total: f64 = e.token.iter().map(|t| t[k]).sum();
                assert!(
                    (total - shape.token_count(v) as f64).abs() < 1e-9,
                    "{rules} token {v}"
                );
            }
        }
    }

    #[test]
    fn unsatisfiable_and_too_large_rule_sets_are_refused() {
        let shape = BoardKind::Extended.shape();
        let e = PlacementTable::build(shape, &"red-apart,2-12-apart".parse().unwrap()).unwrap_err();
        assert!(matches!(e, NoTable::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("limit"), "{e}");
        let e = PlacementTable::build(
            BoardKind::Base.shape(),
            &"same-number-apart".parse().unwrap(),
        )
        .unwrap_err();
        assert!(matches!(e, NoTable::NotPlacement { .. }), "{e}");
        assert!(e.to_string().contains("cannot be enumerated"), "{e}");
    }

    #[test]
    fn resource_pips_by_hand() {
        use crate::board::BoardKind;
        let e = resource_pips_expectations(BoardKind::Base.shape());
        // Wheat has 4 of the 18 land hexes: all four reds (20 pips) in 1 of C(18,4) =
        // 3060 ways; 6 pips (the least) takes the 2, the 12 and two of the four 2-pip
        // tokens (3, 3, 11, 11): C(4,2) = 6 ways.
        assert!((e[0][20] - 1.0 / 3060.0).abs() < 1e-15);
        assert!((e[0][6] - 6.0 / 3060.0).abs() < 1e-15);
        assert_eq!(e[0][5], 0.0);
        // Clay has 3: 15 pips needs three of the four reds, C(4,3) = 4 of C(18,3) = 816.
        assert!((e[3][15] - 4.0 / 816.0).abs() < 1e-15);
        // The mean is k times the mean pips of a token, 58/18.
        for (r, k) in [(0, 4.0), (3, 3.0)] {
            let mean: f64 = e[r].iter().enumerate().map(|(p, f)| p as f64 * f).sum();
            assert!((mean - k * 58.0 / 18.0).abs() < 1e-12, "{mean}");
            assert!((e[r].iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
    }
}
