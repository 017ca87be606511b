//! Exact counts of valid boards, exact probabilities, and uniform boards drawn without
//! rejection, under rules that reach past the placement of the reds and the 2s and 12s.
//!
//! A board is three layers that meet only at the desert: the terrain (with the
//! harbors), and the tokens. Every rule but two looks at one layer: the terrain rules
//! (`same-terrain-apart`, `max-cluster`, `harbor-resource-apart`) at the terrain and
//! harbors, the token rules (`red-apart`, `2-12-apart`, `same-number-apart`, the corner
//! rules) at the tokens. So for each place of the desert, the valid boards are the
//! valid terrain layers times the valid token layers, and each layer is counted by a
//! layered graph ([`dag`]): hexes placed row by row, states that remember only what a
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
pub const REJECT_ABOVE: f64 = 0.04;
/// A free layer tied to the other by rules that keep at least this share of its
/// shuffles is redrawn while they fail rather than drawn from the sharing's walk:
/// the walk reads tables of megabytes and costs several times a shuffle and check a
/// board (measured: docs/performance.md, "Catan: redrawing a tied layer").
pub const SHARE_REDRAW_ABOVE: f64 = 0.25;
/// Graph size below which walks stay in the caches.
pub const CACHED_BYTES: usize = 4 << 20;

/// The two layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    Terrain,
    Tokens,
}

/// States a level of a layer may hold: about 40 bytes each while it is built.
pub const MAX_STATES: usize = 8_000_000;
/// States all layers of a rule set may hold together (about 1.2 GB and 30 s of
/// counting on the machine of docs/performance.md).
pub const MAX_TOTAL_STATES: usize = 20_000_000;

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
    /// resources (see [`cross::ShareWalk`]), so the tying rules hold at once.
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
pub fn counts_exactly(kind: BoardKind, rules: &Rules) -> bool {
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
    pub fn build_reporting(
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

    /// How the tying rules are met (and so whether the count is exact).
    pub fn tie(&self) -> Tie {
        self.tie
    }

    /// Whether [`Layers::count`] is exact.
    pub fn is_exact(&self) -> bool {
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
    pub fn acceptance(&self) -> Fraction {
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

impl Layers {
    /// Draw one valid board, uniformly (exactly: for [`Tie::RedrawBoard`] too, the
    /// draws that break a tying rule being redrawn whole). Returns the board and the
    /// draws it took (1 unless a tying rule redrew something).
    pub fn draw(&self, draws: &mut Draws) -> (Setup, u64) {
        let mut attempts = 1;
        loop {
            let mut b = self.draw_layers(draws);
            match (self.tie, &self.shares) {
                (Tie::ShareTerrain | Tie::ShareTokens, _) if self.redraw_free => {
                    while !self.ties_hold(&b) {
                        attempts += 1;
                        if self.tie == Tie::ShareTerrain {
                            self.shuffle_terrain(draws, &mut b);
                        } else {
                            self.shuffle_tokens(draws, &mut b);
                        }
                    }
                }
                (Tie::ShareTerrain, Some(s)) => self.share_terrain(draws, &s.walk, &mut b),
                (Tie::ShareTokens, Some(s)) => self.share_tokens(draws, &s.walk, &mut b),
                (Tie::RedrawBoard, _) if !self.ties_hold(&b) => {
                    attempts += 1;
                    continue;
                }
                _ => {}
            }
            return (b, attempts);
        }
    }

    /// The terrain of `b`'s land hexes from a drawn share of its tokens: for each
    /// token value, its hexes shuffled and dealt to the resources in turn, as many as
    /// the share gives each (every terrain arrangement with that share alike).
    fn share_terrain(&self, draws: &mut Draws, walk: &cross::ShareWalk, b: &mut Setup) {
        let parts = walk.draw(draws);
        // The land hexes of each token value, in hex order.
        let mut hexes = [[0u8; 32]; 10];
        let mut m = [0usize; 10];
        let mut land = self.land_mask(b);
        while land != 0 {
            let h = land.trailing_zeros() as usize;
            land &= land - 1;
            let k = usize::from(VALUE_INDEX[usize::from(b.token[h])]);
            hexes[k][m[k]] = h as u8;
            m[k] += 1;
        }
        for (k, hexes) in hexes.iter_mut().enumerate() {
            draws.shuffle32(hexes, m[k], 0, m[k]);
            let mut dealt = 0;
            for (r, part) in parts.iter().enumerate() {
                for &h in &hexes[dealt..dealt + usize::from(part[k])] {
                    b.terrain[usize::from(h)] = r as u8;
                }
                dealt += usize::from(part[k]);
            }
        }
    }

    /// The tokens of `b`'s land hexes from a drawn share: each resource's tokens
    /// shuffled over its hexes.
    fn share_tokens(&self, draws: &mut Draws, walk: &cross::ShareWalk, b: &mut Setup) {
        let parts = walk.draw(draws);
        // The hexes of each resource, in hex order.
        let mut hexes = [[0u8; 32]; DESERT as usize];
        let mut m = [0usize; DESERT as usize];
        let mut land = self.land_mask(b);
        while land != 0 {
            let h = land.trailing_zeros() as usize;
            land &= land - 1;
            let r = usize::from(b.terrain[h]);
            hexes[r][m[r]] = h as u8;
            m[r] += 1;
        }
        for (r, part) in parts.iter().enumerate() {
            let mut tokens = [0u8; 32];
            let mut k = 0;
            for (&c, &v) in part.iter().zip(&TOKEN_VALUES) {
                tokens[k..k + usize::from(c)].fill(v);
                k += usize::from(c);
            }
            draws.shuffle32(&mut tokens, k, 0, k);
            for (&h, &v) in hexes[r][..m[r]].iter().zip(&tokens) {
                b.token[usize::from(h)] = v;
            }
        }
    }

    /// Whether the rules of one layer hold on `b`.
    fn layer_holds(&self, b: &Setup, layer: Layer) -> bool {
        self.rules
            .list()
            .iter()
            .filter(|r| match layer {
                Layer::Tokens => r.tokens_only(),
                Layer::Terrain => matches!(r, Rule::SameTerrainApart | Rule::MaxCluster(_)),
            })
            .all(|&r| crate::rules::holds(self.shape, b, r))
    }

    fn ties_hold(&self, b: &Setup) -> bool {
        self.rules
            .list()
            .iter()
            .filter(|r| matches!(r, Rule::NumberResourceApart | Rule::ResourcePips(..)))
            .all(|&r| crate::rules::holds(self.shape, b, r))
    }

    /// The land hexes of `b` (not the desert), as a mask.
    fn land_mask(&self, b: &Setup) -> u32 {
        let all = ((1u64 << self.shape.len()) - 1) as u32;
        (0..self.shape.len())
            .filter(|&h| b.terrain[h] == DESERT)
            .fold(all, |m, h| m & !(1 << h))
    }

    /// `pieces` shuffled onto the land hexes of `b` (piece k on the k-th), each put
    /// there by `put`.
    #[inline(always)]
    fn shuffle_onto_land(
        &self,
        draws: &mut Draws,
        pieces: &[u8],
        b: &mut Setup,
        put: impl Fn(&mut Setup, usize, u8),
    ) {
        let mut t = [0u8; 32];
        let m = pieces.len();
        t[..m].copy_from_slice(pieces);
        draws.shuffle32(&mut t, m, 0, m);
        let mut land = self.land_mask(b);
        let mut k = 0;
        while land != 0 {
            put(b, land.trailing_zeros() as usize, t[k]);
            k += 1;
            land &= land - 1;
        }
    }

    fn shuffle_terrain(&self, draws: &mut Draws, b: &mut Setup) {
        self.shuffle_onto_land(draws, &self.shape.terrains, b, |b, h, t| b.terrain[h] = t);
    }

    fn shuffle_tokens(&self, draws: &mut Draws, b: &mut Setup) {
        self.shuffle_onto_land(draws, &self.shape.tokens, b, |b, h, v| b.token[h] = v);
    }

    /// One board from the layers' product: a desert place by its weight, each layer's
    /// graph walked from one uniform number, the tokens spread within their classes,
    /// the free layers shuffled, then the board turned to the desert's place.
    fn draw_layers(&self, draws: &mut Draws) -> Setup {
        let total = *self.cumulative.last().expect("a rule set with boards");
        let r = draws.below_u128(total);
        let p = self.cumulative.partition_point(|&c| c <= r);
        let before = if p == 0 { 0 } else { self.cumulative[p - 1] };
        let (i, g) = self.places[p];
        let at = &self.deserts[i];
        let r = r - before;
        let (rt, rk) = (
            (r / u128::from(at.token_paths)) as u64,
            (r % u128::from(at.token_paths)) as u64,
        );
        // Land everywhere but the desert (the terrain layer then overwrites it).
        let mut b = Setup::default();
        b.terrain[..self.shape.len()].fill(0);
        b.terrain[at.hex] = DESERT;
        let mut symbols = [0u8; 32];
        let mut relabels = [0u8; 32];
        match (&at.terrain, self.reject_terrain) {
            (Some(dag), false) => {
                dag.walk(rt, &mut symbols, &mut relabels);
                self.put_terrain(&symbols, &relabels, &mut b);
            }
            (Some(_), true) => loop {
                // Rejection within the layer: uniform among the layer's valid
                // arrangements, which the graph counts.
                self.shuffle_terrain(draws, &mut b);
                if self.layer_holds(&b, Layer::Terrain) {
                    break;
                }
            },
            // A terrain shared from the tokens is drawn after them.
            (None, _) if self.tie == Tie::ShareTerrain && !self.redraw_free => {}
            (None, _) => self.shuffle_terrain(draws, &mut b),
        }
        match (&at.tokens, self.reject_tokens) {
            (Some(dag), false) => {
                dag.walk(rk, &mut symbols, &mut relabels);
                self.put_classes(draws, &self.free_classes, &symbols, &mut b);
            }
            (Some(_), true) => loop {
                match &at.placement {
                    Some(p) => {
                        let r = draws.below_u128(u128::from(p.total())) as u64;
                        p.walk(r, &mut symbols, &mut relabels);
                        self.put_classes(draws, &self.placement_classes, &symbols, &mut b);
                    }
                    None => self.shuffle_tokens(draws, &mut b),
                }
                if self.layer_holds(&b, Layer::Tokens) {
                    break;
                }
            },
            (None, _) if self.tie == Tie::ShareTokens && !self.redraw_free => {}
            (None, _) => self.shuffle_tokens(draws, &mut b),
        }
        if !self.harbors_in_terrain {
            let m = self.shape.harbor_kinds.len();
            let mut h = [0u8; 32];
            h[..m].copy_from_slice(&self.shape.harbor_kinds);
            draws.shuffle32(&mut h, m, 0, m);
            b.harbor[..m].copy_from_slice(&h[..m]);
        }
        if g == 0 {
            return b;
        }
        let mut out = b;
        for (h, &to) in self.symmetries[g].iter().enumerate() {
            out.terrain[to] = b.terrain[h];
            out.token[to] = b.token[h];
        }
        out
    }

    /// The terrain walk onto `b`: each symbol read through the relabellings so far.
    fn put_terrain(&self, symbols: &[u8], relabels: &[u8], b: &mut Setup) {
        // `frame[t]`: the real terrain of the walk's terrain t.
        let mut frame = [0u8, 1, 2, 3, 4, DESERT];
        for (step, item) in self.terrain_order.items.iter().enumerate() {
            let s = symbols[step];
            match *item {
                Item::Hex(h) => b.terrain[h] = frame[s as usize],
                Item::Harbor(p) => b.harbor[p] = if s == 0 { 0 } else { 1 + frame[s as usize - 1] },
            }
            let q = relabels[step];
            if q != 0 {
                // The child is stored relabelled by q; its terrain u is our q^-1(u).
                let perm = &self.relabels[q as usize];
                let mut next = frame;
                for t in 0..5 {
                    next[perm[t] as usize] = frame[t];
                }
                frame = next;
            }
        }
    }

    /// The token classes of a walk onto `b`, each class's tokens shuffled over its hexes.
    fn put_classes(&self, draws: &mut Draws, classes: &[Class], symbols: &[u8], b: &mut Setup) {
        let mut hexes = [[0u8; 32]; 16];
        let mut filled = [0usize; 16];
        for (step, item) in self.token_order.items.iter().enumerate() {
            if let Item::Hex(h) = *item {
                let c = symbols[step] as usize;
                if let Some(v) = self.fixed_tokens[h] {
                    b.token[h] = v;
                } else if c < classes.len() {
                    hexes[c][filled[c]] = h as u8;
                    filled[c] += 1;
                }
            }
        }
        for (c, class) in classes.iter().enumerate() {
            let n = class.tokens.len();
            let mut t = [0u8; 32];
            t[..n].copy_from_slice(&class.tokens);
            if class.tokens.iter().any(|&v| v != class.tokens[0]) {
                draws.shuffle32(&mut t, n, 0, n);
            }
            for k in 0..n {
                b.token[hexes[c][k] as usize] = t[k];
            }
        }
    }
}

/// Per-hex probabilities of one desert place's boards, in its layers' own frame.
struct PlaceProbabilities {
    terrain: Vec<[f64; 6]>,
    token: Vec<[f64; 10]>,
    harbor: Vec<[f64; 6]>,
}

impl Layers {
    /// The exact probabilities of every feature the bias study counts, under the
    /// uniform distribution over valid boards; None when the count is not exact.
    /// Each resource's pips are exact when a layer is unconstrained (or tied by the
    /// sharing); when both layers are constrained they are left out (empty).
    // Index loops read best here: hexes, terrains and tokens index several tables.
    #[allow(clippy::needless_range_loop)]
    pub fn expectations(&self) -> Option<super::exact::Expectations> {
        if !self.is_exact() {
            return None;
        }
        let n = self.shape.len();
        let total = self.count() as f64;
        let mut desert = vec![0.0; n];
        let mut terrain = vec![[0.0; 6]; n];
        let mut token = vec![[0.0; 10]; n];
        let mut harbor = vec![[0.0; 6]; self.shape.harbors.len()];
        let per: Vec<PlaceProbabilities> = self.deserts.iter().map(|a| self.place(a)).collect();
        for &(i, g) in &self.places {
            let w = self.count_at(&self.deserts[i]) as f64 / total;
            let map = &self.symmetries[g];
            let pp = &per[i];
            desert[map[self.deserts[i].hex]] += w;
            for h in 0..n {
                for t in 0..6 {
                    terrain[map[h]][t] += w * pp.terrain[h][t];
                }
                for k in 0..10 {
                    token[map[h]][k] += w * pp.token[h][k];
                }
            }
            for (p, row) in harbor.iter_mut().enumerate() {
                for k in 0..6 {
                    row[k] += w * pp.harbor[p][k];
                }
            }
        }
        let red = token
            .iter()
            .map(|row| {
                TOKEN_VALUES
                    .iter()
                    .zip(row)
                    .filter(|(v, _)| is_red(**v))
                    .map(|(_, p)| p)
                    .sum()
            })
            .collect();
        let resource = match (&self.shares, self.tie) {
            (Some(s), _) => s
                .pips
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|&c| c as f64 / s.tokens_per_terrain as f64)
                        .collect()
                })
                .collect(),
            (None, _)
                if self
                    .deserts
                    .iter()
                    .all(|a| a.terrain.is_none() || a.tokens.is_none()) =>
            {
                super::exact::resource_pips_expectations(self.shape)
            }
            _ => Vec::new(),
        };
        Some(super::exact::Expectations {
            desert,
            red,
            token,
            terrain,
            harbor,
            resource,
            acceptance: Some(self.acceptance()),
            source: format!(
                "exact counts of {} valid boards (terrain and token layers counted per desert place)",
                ground::chart::thousands(self.count())
            ),
            cells: "place of the desert",
        })
    }

    /// Within-class share of each token on a hex not fixed: its free copies over the
    /// class's free tokens.
    fn token_share(&self, class: usize, k: usize) -> f64 {
        let c = &self.free_classes[class];
        if c.tokens.is_empty() {
            return 0.0;
        }
        c.tokens.iter().filter(|&&v| v == TOKEN_VALUES[k]).count() as f64 / c.tokens.len() as f64
    }

    /// The per-hex probabilities of one desert place, in its own frame.
    #[allow(clippy::needless_range_loop)]
    fn place(&self, a: &AtDesert) -> PlaceProbabilities {
        let n = self.shape.len();
        let land = (n - self.shape.deserts) as f64;
        let mut terrain = vec![[0.0; 6]; n];
        let mut token = vec![[0.0; 10]; n];
        let mut harbor = super::exact::harbor_expectations(self.shape);
        // Terrains with the same count are alike when relabelled: share their mass.
        let groups = |p: &mut [f64], offset: usize| {
            // The graph's terrains are relabelled along its paths: spread each
            // terrain's mass evenly over its orbit under the relabellings.
            if self.relabels.len() > 1 {
                let mut out = [0.0; 6];
                for t in 0..5usize {
                    let mut orbit: Vec<usize> =
                        self.relabels.iter().map(|q| q[t] as usize).collect();
                    orbit.sort_unstable();
                    orbit.dedup();
                    out[t] = orbit.iter().map(|&u| p[u + offset]).sum::<f64>() / orbit.len() as f64;
                }
                p[offset..offset + 5].copy_from_slice(&out[..5]);
            }
        };
        match &a.terrain {
            Some(dag) => {
                let m = dag.marginals(6);
                let tot = dag.total() as f64;
                for (step, item) in self.terrain_order.items.iter().enumerate() {
                    let mut row = [0.0; 6];
                    for (k, c) in m[step].iter().enumerate() {
                        row[k] = *c as f64 / tot;
                    }
                    match *item {
                        Item::Hex(h) => {
                            groups(&mut row, 0);
                            terrain[h] = row;
                        }
                        Item::Harbor(p) => {
                            groups(&mut row, 1);
                            harbor[p] = row;
                        }
                    }
                }
            }
            None => {
                for (h, row) in terrain.iter_mut().enumerate() {
                    if h == a.hex {
                        row[DESERT as usize] = 1.0;
                    } else {
                        for t in 0..5u8 {
                            row[t as usize] = self.shape.terrain_count(t) as f64 / land;
                        }
                    }
                }
            }
        }
        match &a.tokens {
            Some(dag) => {
                let m = dag.marginals(self.classes.len() + 1);
                let tot = dag.total() as f64;
                for (step, item) in self.token_order.items.iter().enumerate() {
                    let Item::Hex(h) = *item else { continue };
                    if let Some(v) = self.fixed_tokens[h] {
                        let k = TOKEN_VALUES.iter().position(|&x| x == v).unwrap_or(0);
                        token[h][k] = 1.0;
                        continue;
                    }
                    for (c, &cnt) in m[step].iter().take(self.classes.len()).enumerate() {
                        for k in 0..10 {
                            token[h][k] += cnt as f64 / tot * self.token_share(c, k);
                        }
                    }
                }
            }
            None => {
                for (h, row) in token.iter_mut().enumerate() {
                    if h != a.hex {
                        for (k, &v) in TOKEN_VALUES.iter().enumerate() {
                            row[k] = self.shape.token_count(v) as f64 / land;
                        }
                    }
                }
            }
        }
        self.through_ties(a, &mut terrain, &mut token);
        PlaceProbabilities {
            terrain,
            token,
            harbor,
        }
    }

    /// A tying rule with a free layer: the free layer's piece at a hex depends on the
    /// other layer's piece there, through the sharing.
    #[allow(clippy::needless_range_loop)]
    fn through_ties(&self, a: &AtDesert, terrain: &mut [[f64; 6]], token: &mut [[f64; 10]]) {
        let n = self.shape.len();
        if let Some(s) = &self.shares {
            let u = s.tokens_per_terrain as f64;
            match self.tie {
                Tie::ShareTerrain => {
                    for h in (0..n).filter(|&h| h != a.hex) {
                        let mut row = [0.0; 6];
                        for k in 0..10 {
                            let copies = self.shape.token_count(TOKEN_VALUES[k]) as f64;
                            if copies == 0.0 {
                                continue;
                            }
                            for (r, slot) in row.iter_mut().enumerate().take(RESOURCES) {
                                *slot += token[h][k] * s.with[r][k] as f64 / (u * copies);
                            }
                        }
                        terrain[h] = row;
                    }
                }
                Tie::ShareTokens => {
                    for h in (0..n).filter(|&h| h != a.hex) {
                        let mut row = [0.0; 10];
                        for r in 0..RESOURCES {
                            let size = self.shape.terrain_count(r as u8) as f64;
                            for (k, slot) in row.iter_mut().enumerate() {
                                *slot += terrain[h][r] * s.with[r][k] as f64 / (u * size);
                            }
                        }
                        token[h] = row;
                    }
                }
                _ => {}
            }
        }
    }
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
