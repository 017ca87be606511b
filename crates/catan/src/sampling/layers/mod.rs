//! Exact counts of valid boards, exact probabilities, and uniform boards drawn without
//! rejection, under rules that reach past the placement of the reds and the 2s and 12s.
//!
//! A board is three layers that meet only at the desert: the terrain (with the
//! harbors), and the tokens. Every rule but two looks at one layer: the terrain rules
//! (`same-terrain-apart`, `max-cluster`, `harbor-resource-apart`) at the terrain and
//! harbors, the token rules (`red-apart`, `2-12-apart`, `same-number-apart`, the corner
//! rules) at the tokens. So for each place of the desert, the valid boards are the
//! valid terrain layers times the valid token layers, and each layer is counted by a
//! layered graph (`dag`): hexes placed row by row, states that remember only what a
//! later hex can still see (the live hexes' pieces, what is left to place, under
//! `max-cluster` the groups), merged when equal.
//!
//! The two rules that tie tokens to terrain (`number-resource-apart`,
//! `resource-pips`) look only at which tokens each resource gets. When one layer is
//! unconstrained they are counted exactly by sharing the tokens out among the resources
//! ([`cross`]). When both layers are constrained too, the count stays out of reach
//! (the states would have to carry both layers and the shares at once); such rule sets
//! are drawn exactly by drawing the two layers and redrawing while a tying rule fails,
//! and their count is reported as the product's count times a measured share.

pub mod count;
pub mod cross;
pub(crate) mod dag;
pub(crate) mod order;
pub mod terrain;
pub mod tokens;

// Drawing boards from the layers, and the exact expectations they give (more `impl
// Layers`).
mod draw;
mod expect;

use self::dag::{Dag, Refused};
use self::order::{row_major, Item, Order};
use self::tokens::Class;
use super::bounded::Draws;
use super::exact::Fraction;
use crate::board::{is_red, BoardKind, Shape, DESERT, RESOURCES, TOKEN_VALUES};
use crate::fix::Fixes;
use crate::rules::{Rule, Rules, Setup};

/// A layer whose rules keep at least this share of its shuffles, and whose graph is
/// larger than [`CACHED_BYTES`], is drawn by shuffling and redrawing: a walk through a
/// graph of hundreds of megabytes misses the cache at every step and costs far more a
/// board than a shuffle and check (measured: docs/performance.md, "Catan: shuffling
/// instead of a large graph's walk").
pub(crate) const REJECT_ABOVE: f64 = 0.04;
/// A free layer tied to the other by rules that keep at least this share of its
/// shuffles is redrawn while they fail rather than drawn from the sharing's walk:
/// the walk reads tables of megabytes and costs several times a shuffle and check a
/// board (measured: docs/performance.md, "Catan: redrawing a tied layer").
pub(crate) const SHARE_REDRAW_ABOVE: f64 = 0.25;
/// Graph size below which walks stay in the caches.
pub(crate) const CACHED_BYTES: usize = 4 << 20;

/// The two layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    Terrain,
    Tokens,
}

/// States a level of a layer may hold: about 40 bytes each while it is built.
pub(crate) const MAX_STATES: usize = 8_000_000;
/// States all layers of a rule set may hold together (about 1.2 GB and 30 s of
/// counting on the machine of docs/performance.md).
pub(crate) const MAX_TOTAL_STATES: usize = 20_000_000;

/// Why a rule set has no exact count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreachable {
    /// Only the base board is counted.
    #[error(
        "exact counts are made for the base board only; the {board} board's layers are too wide"
    )]
    Board {
        /// The board's name.
        board: &'static str,
    },
    /// A layer's graph grew past the limit.
    #[error(
        "the {layer} layer would hold {states} states before step {step} (limit {MAX_STATES})"
    )]
    TooWide {
        /// `terrain` or `token`.
        layer: &'static str,
        /// The step.
        step: usize,
        /// States at that step.
        states: usize,
    },
    /// The layers together grew past the budget.
    #[error("the layers would hold more than {MAX_TOTAL_STATES} states over all desert places (reached at step {step} of a {layer} layer, {states} states in it)")]
    TooMany {
        /// `terrain` or `token`.
        layer: &'static str,
        /// The step.
        step: usize,
        /// States so far.
        states: usize,
    },
    /// A count past 64 bits.
    #[error("a count of the {layer} layer does not fit 64 bits")]
    Overflow {
        /// `terrain` or `token`.
        layer: &'static str,
    },
    /// An allocation failed: the process may not have the memory the count needs.
    #[error("not enough memory: an allocation failed at step {step} of a {layer} layer, with {states} states made (the tightest rule sets take about 1 GB: docs/limits.md)")]
    OutOfMemory {
        /// `terrain` or `token`.
        layer: &'static str,
        /// The step.
        step: usize,
        /// States so far.
        states: usize,
    },
    /// A stop was asked for.
    #[error("stopped")]
    Stopped,
}

impl Unreachable {
    /// As the crate's error: a stop is [`ground::Error::Interrupted`]; the rest say
    /// `what` could not be done, and why.
    pub fn into_error(self, what: impl std::fmt::Display) -> ground::Error {
        match self {
            Unreachable::Stopped => ground::Error::Interrupted,
            e => ground::Error::invalid(format!("{what}: {e}")),
        }
    }
}

/// What the fixes pin: per hex its terrain and token class, and the desert's hex.
struct Pins {
    terrain: Vec<Option<u8>>,
    class: Vec<Option<u8>>,
    desert: Option<usize>,
}

impl Pins {
    fn of(fixes: &Fixes, classes: &[Class], n: usize) -> Pins {
        let mut p = Pins {
            terrain: vec![None; n],
            class: vec![None; n],
            desert: None,
        };
        for f in fixes.list() {
            let h = f.hex as usize;
            if f.terrain == DESERT {
                p.desert = Some(h);
            } else {
                p.terrain[h] = Some(f.terrain);
            }
            if let Some(v) = f.token {
                p.class[h] = classes
                    .iter()
                    .position(|c| c.tokens.contains(&v))
                    .map(|i| i as u8);
            }
        }
        p
    }

    /// Whether the desert may lie on hex `d`.
    fn allows_desert(&self, d: usize) -> bool {
        self.desert.is_none_or(|h| h == d) && self.terrain[d].is_none() && self.class[d].is_none()
    }
}

/// The layers of one desert position.
#[derive(Debug)]
struct AtDesert {
    hex: usize,
    /// None: the terrain is unconstrained (drawn by a shuffle).
    terrain: Option<Dag>,
    /// None: the tokens are unconstrained.
    tokens: Option<Dag>,
    /// Layer-graph paths (1 for an unconstrained layer): the desert's weight.
    terrain_paths: u64,
    token_paths: u64,
    /// The token graph of the placement rules alone, when the tokens are drawn by
    /// walking it and redrawing while another token rule fails.
    placement: Option<Dag>,
}

/// The index in TOKEN_VALUES of each token value (0 for values that are not tokens).
const VALUE_INDEX: [u8; 13] = {
    let mut t = [0u8; 13];
    let mut k = 0;
    while k < TOKEN_VALUES.len() {
        t[TOKEN_VALUES[k] as usize] = k as u8;
        k += 1;
    }
    t
};

/// How the tying rules are met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tie {
    /// No tying rule.
    None,
    /// The terrain is unconstrained: it is drawn by sharing the tokens among the
    /// resources (see `cross::ShareWalk`), so the tying rules hold at once.
    ShareTerrain,
    /// The tokens are unconstrained: they are drawn by sharing them among the
    /// resources.
    ShareTokens,
    /// Both layers are constrained: the board is redrawn (the count is not exact).
    RedrawBoard,
}

impl Tie {
    /// How `rules` are met when the terrain (the tokens) is free of rules or not.
    fn of(rules: &Rules, terrain_free: bool, token_free: bool) -> Tie {
        match (cross::ties(rules), terrain_free, token_free) {
            (false, _, _) => Tie::None,
            (true, true, _) => Tie::ShareTerrain,
            (true, false, true) => Tie::ShareTokens,
            (true, false, false) => Tie::RedrawBoard,
        }
    }
}

/// Whether the layers of `rules` on `kind` (no fixes) give an exact count, short of a
/// layer growing past its limit: decided by the kinds of rules alone, without counting.
pub(crate) fn counts_exactly(kind: BoardKind, rules: &Rules) -> bool {
    let shape = kind.shape();
    kind == BoardKind::Base
        && Tie::of(
            rules,
            !terrain::constrains(rules, shape),
            !tokens::constrains(rules),
        ) != Tie::RedrawBoard
}

/// The counted layers of a rule set on a board: exact counts, probabilities, draws.
#[derive(Debug)]
pub struct Layers {
    shape: &'static Shape,
    rules: Rules,
    classes: Vec<Class>,
    /// The classes' tokens less the fixed ones: what is spread over a class's hexes.
    free_classes: Vec<Class>,
    /// The token fixed on each hex, if any.
    fixed_tokens: Vec<Option<u8>>,
    /// The token classes of the placement rules alone (for [`AtDesert::placement`]).
    placement_classes: Vec<Class>,
    /// Arrangements of the tokens within their classes.
    class_factor: u128,
    terrain_order: Order,
    token_order: Order,
    /// The layers of each desert place built (one per class of places alike under
    /// the board's symmetries, when nothing breaks them).
    deserts: Vec<AtDesert>,
    /// Every desert place: (its layers in `deserts`, the symmetry taking their hexes
    /// to this place's).
    places: Vec<(usize, usize)>,
    /// Symmetries of the board as hex maps (the identity first).
    symmetries: Vec<Vec<usize>>,
    /// Running sum of the places' weights (terrain paths times token paths).
    cumulative: Vec<u128>,
    /// Relabellings of the terrain layer's states (identity first).
    relabels: Vec<[u8; 6]>,
    tie: Tie,
    shares: Option<cross::Shares>,
    /// Meet the tying rules by redrawing the free layer while they fail (see
    /// [`SHARE_REDRAW_ABOVE`]) rather than by drawing a share.
    redraw_free: bool,
    harbors_in_terrain: bool,
    /// Draw the terrain (the tokens) by shuffling and redrawing while a rule of the
    /// layer fails, rather than by walking its graph: chosen when the layer's graph is
    /// too large to stay in the processor's caches and its rules keep enough
    /// shuffles (see [`REJECT_ABOVE`]).
    reject_terrain: bool,
    reject_tokens: bool,
    /// States over both layers and every desert.
    pub states: usize,
    /// Bytes the graphs take.
    pub bytes: usize,
    /// The most states one level held while it was built.
    pub widest: usize,
}

/// Arrangements of the tokens within their classes.
fn class_factor(classes: &[Class]) -> u128 {
    classes
        .iter()
        .map(|c| {
            let mut values = c.tokens.clone();
            values.dedup();
            arrangements(
                values
                    .iter()
                    .map(|v| c.tokens.iter().filter(|&x| x == v).count()),
            )
        })
        .product()
}

fn factorial(n: u32) -> u128 {
    (1..=u128::from(n)).product()
}

/// Arrangements of a multiset with these counts.
fn arrangements(counts: impl Iterator<Item = usize>) -> u128 {
    let (mut n, mut d) = (0u32, 1u128);
    for c in counts {
        n += c as u32;
        d *= factorial(c as u32);
    }
    factorial(n) / d
}

impl Layers {
    /// Count the layers of `rules` on `kind` with `fixes`.
    pub fn build(kind: BoardKind, rules: &Rules, fixes: &Fixes) -> Result<Layers, Unreachable> {
        Self::build_reporting(kind, rules, fixes, &mut |_, _| {})
    }

    /// [`Layers::build`], calling `tick(done, total)` as each desert place's layers
    /// are counted (for a progress bar).
    pub(crate) fn build_reporting(
        kind: BoardKind,
        rules: &Rules,
        fixes: &Fixes,
        tick: &mut dyn FnMut(usize, usize),
    ) -> Result<Layers, Unreachable> {
        if kind != BoardKind::Base {
            return Err(Unreachable::Board { board: kind.name() });
        }
        let shape = kind.shape();
        let n = shape.len();
        let fixed_token = fixes.list().iter().any(|f| f.token.is_some());
        let fixed_land = fixes.list().iter().any(|f| f.terrain != DESERT);
        let terrain_free = !terrain::constrains(rules, shape) && !fixed_land;
        let token_free = !tokens::constrains(rules) && !fixed_token;
        let classes = tokens::classes(shape, rules, false);
        // A fixed token pins its class on its hex; the class's other tokens are spread
        // over its other hexes.
        let mut fixed_tokens = vec![None; n];
        let mut free_classes = classes.clone();
        for f in fixes.list() {
            if let Some(v) = f.token {
                fixed_tokens[f.hex as usize] = Some(v);
                for c in &mut free_classes {
                    if let Some(i) = c.tokens.iter().position(|&x| x == v) {
                        c.tokens.remove(i);
                        break;
                    }
                }
            }
        }
        let class_factor = class_factor(&free_classes);
        let harbors_in_terrain = rules.has(Rule::HarborResourceApart);
        let tie = Tie::of(rules, terrain_free, token_free);
        let pins = Pins::of(fixes, &classes, n);
        let mut l = Layers {
            shape,
            rules: rules.clone(),
            classes,
            free_classes,
            fixed_tokens,
            placement_classes: Vec::new(),
            class_factor,
            terrain_order: Order::new(
                shape,
                &row_major(shape),
                harbors_in_terrain,
                terrain::judges_neighbours(rules, shape),
            ),
            token_order: Order::new(shape, &row_major(shape), false, true),
            deserts: Vec::new(),
            places: Vec::new(),
            // Under the board's rotations and reflections every rule but the harbor
            // rule is kept, so desert places alike share their layers (unless fixes
            // pin hexes).
            symmetries: if fixes.is_empty() && !harbors_in_terrain {
                board_symmetries(shape)
            } else {
                vec![(0..n).collect()]
            },
            cumulative: Vec::new(),
            relabels: terrain::relabellings_keeping(shape, &pins.terrain),
            tie,
            shares: cross::ties(rules).then(|| cross::shares(shape, rules)),
            redraw_free: false,
            harbors_in_terrain,
            reject_terrain: false,
            reject_tokens: false,
            states: 0,
            bytes: 0,
            widest: 0,
        };
        l.count_places(&pins, terrain_free, token_free, tick)?;
        if let Some(s) = &l.shares {
            l.redraw_free =
                s.tokens_per_terrain as f64 / l.free_tokens() as f64 >= SHARE_REDRAW_ABOVE;
        }
        l.choose_draws(terrain_free, token_free, fixes.is_empty());
        Ok(l)
    }

    /// Count the layers of every desert place the fixes allow (once per class of
    /// places alike), with the running sum of their weights.
    fn count_places(
        &mut self,
        pins: &Pins,
        terrain_free: bool,
        token_free: bool,
        tick: &mut dyn FnMut(usize, usize),
    ) -> Result<(), Unreachable> {
        let (shape, n) = (self.shape, self.shape.len());
        let least = |d: usize| {
            self.symmetries
                .iter()
                .enumerate()
                .filter_map(|(g, map)| (0..n).find(|&r| map[r] == d).map(|r| (g, r)))
                .min_by_key(|&(g, r)| (r, g))
                .expect("the identity maps d to d")
        };
        let mut reps: Vec<usize> = (0..n)
            .filter(|&d| pins.allows_desert(d))
            .map(|d| least(d).1)
            .collect();
        reps.sort_unstable();
        reps.dedup();
        tick(0, reps.len());
        let mut deserts: Vec<AtDesert> = Vec::new();
        let mut places = Vec::new();
        for d in (0..n).filter(|&d| pins.allows_desert(d)) {
            // The least place alike, and a symmetry from it to d.
            let (g, rep) = least(d);
            if let Some(i) = deserts.iter().position(|a| a.hex == rep) {
                places.push((i, g));
                continue;
            }
            let terrain = if terrain_free {
                None
            } else {
                let spec = terrain::TerrainSpec::new(
                    shape,
                    &self.terrain_order,
                    &self.rules,
                    rep,
                    pins.terrain.clone(),
                );
                Some(
                    Dag::build(
                        &spec,
                        MAX_STATES,
                        MAX_TOTAL_STATES.saturating_sub(self.states),
                    )
                    .map_err(|e| refused("terrain", e))?,
                )
            };
            let tokens = if token_free {
                None
            } else {
                let spec = tokens::TokenSpec::new(
                    shape,
                    &self.token_order,
                    &self.rules,
                    &self.classes,
                    rep,
                    pins.class.clone(),
                );
                Some(
                    Dag::build(
                        &spec,
                        MAX_STATES,
                        MAX_TOTAL_STATES.saturating_sub(self.states),
                    )
                    .map_err(|e| refused("token", e))?,
                )
            };
            for g in terrain.iter().chain(tokens.iter()) {
                self.states += g.states();
                self.bytes += g.bytes();
                self.widest = self.widest.max(g.widest);
            }
            deserts.push(AtDesert {
                hex: rep,
                terrain_paths: terrain.as_ref().map_or(1, Dag::total),
                token_paths: tokens.as_ref().map_or(1, Dag::total),
                terrain,
                tokens,
                placement: None,
            });
            places.push((deserts.len() - 1, g));
            tick(deserts.len(), reps.len());
        }
        let mut sum = 0u128;
        self.cumulative = places
            .iter()
            .map(|&(i, _)| {
                let d: &AtDesert = &deserts[i];
                sum += u128::from(d.terrain_paths) * u128::from(d.token_paths);
                sum
            })
            .collect();
        self.deserts = deserts;
        self.places = places;
        Ok(())
    }

    /// Per layer, whether to draw by shuffling and redrawing rather than walking the
    /// graph: when the graph is too large for the caches and the layer's rules keep
    /// at least [`REJECT_ABOVE`] of the shuffles at every desert place.
    fn choose_draws(&mut self, terrain_free: bool, token_free: bool, unfixed: bool) {
        let shape = self.shape;
        let share = |paths: &dyn Fn(&AtDesert) -> u128, free: u128| {
            self.deserts
                .iter()
                .map(|a| paths(a) as f64 / free as f64)
                .fold(f64::INFINITY, f64::min)
        };
        let big = |layer: &dyn Fn(&AtDesert) -> Option<&Dag>| {
            self.deserts
                .iter()
                .filter_map(layer)
                .map(Dag::bytes)
                .sum::<usize>()
                > CACHED_BYTES
        };
        let (free_t, free_k) = (self.free_terrain(), self.free_tokens());
        let factor = self.class_factor;
        self.reject_terrain = !terrain_free
            && unfixed
            && !self.harbors_in_terrain
            && big(&|a| a.terrain.as_ref())
            && share(&|a| u128::from(a.terrain_paths), free_t) >= REJECT_ABOVE;
        let big_tokens = big(&|a| a.tokens.as_ref());
        let share_tokens = share(&|a| u128::from(a.token_paths) * factor, free_k);
        self.reject_tokens = !token_free && unfixed && big_tokens && share_tokens >= REJECT_ABOVE;
        // Rejection from the placement rules' own graph (small, walked in the caches)
        // keeps more draws than rejection from shuffles.
        let placement = self.rules.placement();
        if !token_free && unfixed && big_tokens && !placement.list().is_empty() {
            self.placement_classes = tokens::classes(shape, &placement, false);
            let none = vec![None; shape.len()];
            let mut kept = f64::INFINITY;
            for i in 0..self.deserts.len() {
                let spec = tokens::TokenSpec::new(
                    shape,
                    &self.token_order,
                    &placement,
                    &self.placement_classes,
                    self.deserts[i].hex,
                    none.clone(),
                );
                let Ok(dag) = Dag::build(&spec, MAX_STATES, MAX_TOTAL_STATES) else {
                    return;
                };
                let pfactor = class_factor(&self.placement_classes);
                let a = &self.deserts[i];
                kept = kept.min(
                    (u128::from(a.token_paths) * factor) as f64
                        / (u128::from(dag.total()) * pfactor) as f64,
                );
                self.deserts[i].placement = Some(dag);
            }
            if kept >= REJECT_ABOVE && kept > share_tokens {
                self.reject_tokens = true;
            } else {
                for a in &mut self.deserts {
                    a.placement = None;
                }
            }
        }
    }

    /// Whether [`Layers::count`] is exact.
    pub(crate) fn is_exact(&self) -> bool {
        self.tie != Tie::RedrawBoard
    }

    fn free_terrain(&self) -> u128 {
        arrangements((0..DESERT).map(|t| self.shape.terrain_count(t)))
    }

    fn free_tokens(&self) -> u128 {
        arrangements(TOKEN_VALUES.iter().map(|&v| self.shape.token_count(v)))
    }

    /// Arrangements of the harbor kinds on their positions.
    fn harbor_arrangements(&self) -> u128 {
        let mut k = [0usize; 6];
        for &h in &self.shape.harbor_kinds {
            k[h as usize] += 1;
        }
        arrangements(k.into_iter())
    }

    /// The harbors' factor of a count: 1 when the terrain layer places them.
    fn harbor_factor(&self) -> u128 {
        if self.harbors_in_terrain {
            1
        } else {
            self.harbor_arrangements()
        }
    }

    /// Valid boards with the desert on `d` (for [`Tie::RedrawBoard`]: boards whose
    /// layers meet their own rules, the tying rules aside).
    fn count_at(&self, d: &AtDesert) -> u128 {
        let terrain = match &d.terrain {
            Some(g) => u128::from(g.total()),
            None => self.free_terrain(),
        };
        let tokens = match &d.tokens {
            Some(g) => u128::from(g.total()) * self.class_factor,
            None => self.free_tokens(),
        };
        let h = self.harbor_factor();
        match (self.tie, &self.shares) {
            (Tie::ShareTerrain, Some(s)) => tokens * s.terrain_per_tokens * h,
            (Tie::ShareTokens, Some(s)) => terrain * h * s.tokens_per_terrain,
            _ => terrain * h * tokens,
        }
    }

    /// Valid boards: exact unless both layers are constrained and a tying rule is
    /// among the rules (then the count of boards whose layers meet their own rules).
    pub fn count(&self) -> u128 {
        self.places
            .iter()
            .map(|&(i, _)| self.count_at(&self.deserts[i]))
            .sum()
    }

    /// Every board of the shape (the fixes aside).
    pub fn boards(&self) -> u128 {
        self.shape.len() as u128
            * self.free_terrain()
            * self.free_tokens()
            * self.harbor_arrangements()
    }

    /// The exact acceptance of whole-board rejection: valid boards over all boards.
    pub(crate) fn acceptance(&self) -> Fraction {
        Fraction::new(self.count(), self.boards())
    }
}

/// The rotations and reflections of the board, as maps of hex indices (identity
/// first): in the spec's coordinates relative to the centre, turning by a sixth maps
/// (a, b) to (a - b, a) and swapping a and b reflects.
pub(crate) fn board_symmetries(shape: &Shape) -> Vec<Vec<usize>> {
    let n = shape.len();
    let (sx, sy) = shape
        .hexes
        .iter()
        .fold((0, 0), |(x, y), &(a, b)| (x + a, y + b));
    let (cx, cy) = (sx / n as i32, sy / n as i32);
    let index = |p: (i32, i32)| shape.hexes.iter().position(|&h| h == (p.0 + cx, p.1 + cy));
    let mut out = Vec::new();
    for reflect in [false, true] {
        for turns in 0..6 {
            let map: Option<Vec<usize>> = shape
                .hexes
                .iter()
                .map(|&(x, y)| {
                    let (mut a, mut b) = (x - cx, y - cy);
                    if reflect {
                        std::mem::swap(&mut a, &mut b);
                    }
                    for _ in 0..turns {
                        (a, b) = (a - b, a);
                    }
                    index((a, b))
                })
                .collect();
            if let Some(m) = map {
                out.push(m);
            }
        }
    }
    out
}

fn refused(layer: &'static str, e: Refused) -> Unreachable {
    match e {
        Refused::TooWide { step, states } => Unreachable::TooWide {
            layer,
            step,
            states,
        },
        Refused::TooMany { step, states } => Unreachable::TooMany {
            layer,
            step,
            states,
        },
        Refused::Overflow => Unreachable::Overflow { layer },
        Refused::OutOfMemory { step, states } => Unreachable::OutOfMemory {
            layer,
            step,
            states,
        },
        Refused::Stopped => Unreachable::Stopped,
    }
}

#[cfg(test)]
mod tests;
