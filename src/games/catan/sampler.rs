//! The samplers under study. Each draws one valid board from its own random stream
//! and says how many attempts (whole or partial redraws) it took.

use super::board::{is_red, Shape, DESERT};
use super::bounded;
use super::direct::{BitDeposit, Masks, Plan};
use super::exact::PlacementTable;
use super::fix::{Fixes, Free};
use super::rules::{holds, independent, Rule, Rules, Setup};
use crate::seed::Rng;
use rand::RngCore;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// How a board is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sampler {
    /// Draw the whole board; throw it away if invalid. Uniform over valid boards.
    FullRejection,
    /// The source article: terrain drawn once and kept, tokens redrawn until valid.
    TokenRejection,
    /// The Almanac's repair: place at random, then swap offending pieces away.
    Swap,
    /// Place reds (and 2s and 12s) one at a time on hexes allowed so far.
    Sequential,
    /// Pick a valid placement uniformly from the enumerated table, fill the rest.
    Direct,
    /// What popular web generators do: hex by hex, a random piece from those left,
    /// up to [`RETRIES`] picks per hex; when all break a rule with the pieces placed
    /// so far, start the board again.
    RetryRestart,
    /// Draw N valid boards uniformly (with `direct` where it applies, else
    /// `full-rejection`) and keep the one with the lowest balance score.
    BestOf(u16),
}

/// Every sampler a study runs unless told otherwise, in the order studies report them.
pub const ALL_SAMPLERS: [Sampler; 7] = [
    Sampler::FullRejection,
    Sampler::TokenRejection,
    Sampler::Swap,
    Sampler::Sequential,
    Sampler::Direct,
    Sampler::RetryRestart,
    Sampler::BestOf(10),
];

/// Picks per hex `retry-restart` makes before it starts the board again.
pub const RETRIES: u32 = 3;
/// The largest N of `best-of-N`.
pub const MAX_BEST_OF: u16 = 1000;

impl Sampler {
    /// The sampler's name in parameters and outputs (`best-of-N` with its N).
    pub fn name(self) -> &'static str {
        match self {
            Sampler::FullRejection => "full-rejection",
            Sampler::TokenRejection => "token-rejection",
            Sampler::Swap => "swap",
            Sampler::Sequential => "sequential",
            Sampler::Direct => "direct",
            Sampler::RetryRestart => "retry-restart",
            Sampler::BestOf(n) => best_of_name(n),
        }
    }

    /// Whether the sampler is uniform over valid boards.
    pub fn is_exact(self) -> bool {
        matches!(self, Sampler::FullRejection | Sampler::Direct)
    }
}

/// The name of `best-of-N`, made once per N (N is at most [`MAX_BEST_OF`], so at
/// most that many short names are ever kept).
fn best_of_name(n: u16) -> &'static str {
    static NAMES: OnceLock<std::sync::Mutex<std::collections::HashMap<u16, &'static str>>> =
        OnceLock::new();
    let names = NAMES.get_or_init(Default::default);
    let mut names = names.lock().expect("sampler names");
    names
        .entry(n)
        .or_insert_with(|| Box::leak(format!("best-of-{n}").into_boxed_str()))
}

/// Every sampler's name, "full-rejection, ..., retry-restart or best-of-N", from
/// [`ALL_SAMPLERS`] (the names the parser knows).
pub fn sampler_list() -> String {
    let fixed: Vec<&str> = ALL_SAMPLERS
        .iter()
        .filter(|s| !matches!(s, Sampler::BestOf(_)))
        .map(|s| s.name())
        .collect();
    format!(
        "{} or best-of-N (N from 2 to {MAX_BEST_OF})",
        fixed.join(", ")
    )
}

/// The help of `--sampler`.
pub fn sampler_help() -> String {
    format!("The sampler: {}", sampler_list())
}

/// The help of `--samplers` (and `samplers`): the list, and what runs by default.
pub fn samplers_help() -> String {
    let default: Vec<&str> = ALL_SAMPLERS.iter().map(|s| s.name()).collect();
    format!(
        "Comma-separated samplers from {} (default: all {} of {}; direct only where it applies)",
        sampler_list(),
        ALL_SAMPLERS.len(),
        default.join(", ")
    )
}

impl std::str::FromStr for Sampler {
    type Err = crate::Error;
    /// A sampler by its name. The error names the value, not a parameter: a sampler
    /// is given as `sampler` or in a list of `samplers`.
    fn from_str(s: &str) -> crate::Result<Self> {
        if let Some(n) = s.strip_prefix("best-of-") {
            return match n.parse::<u16>() {
                Ok(n) if (2..=MAX_BEST_OF).contains(&n) => Ok(Sampler::BestOf(n)),
                _ => Err(crate::Error::invalid(format!(
                    "sampler '{s}': N of best-of-N must be a whole number from 2 to {MAX_BEST_OF}"
                ))),
            };
        }
        ALL_SAMPLERS
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                let names = ALL_SAMPLERS.iter().map(|x| x.name()).chain(["best-of-N"]);
                crate::Error::invalid(format!(
                    "unknown sampler '{s}'{}: use {}",
                    crate::input::suggestion(s, names),
                    sampler_list()
                ))
            })
    }
}

impl serde::Serialize for Sampler {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Sampler {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Bounded random integers from 32-bit halves of the generator's output (Lemire's
/// multiply-and-reject: exact, and about one multiplication per draw).
pub struct Draws<'a> {
    rng: &'a mut Rng,
    buf: u64,
    left: u32,
}

impl<'a> Draws<'a> {
    /// Draws from `rng`, starting with no buffered bits.
    pub(crate) fn new(rng: &'a mut Rng) -> Self {
        Draws {
            rng,
            buf: 0,
            left: 0,
        }
    }

    #[inline(always)]
    fn next_u16(&mut self) -> u32 {
        if self.left == 0 {
            self.buf = self.rng.next_u64();
            self.left = 4;
        }
        self.left -= 1;
        let v = (self.buf & 0xffff) as u32;
        self.buf >>= 16;
        v
    }

    /// Uniform in 0..n (n >= 1): Lemire's multiply-and-reject on 16-bit pieces of the
    /// generator's output for small n (four draws per 64-bit number), 32-bit otherwise
    /// (two 16-bit pieces, the first one high).
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 0x1_0000 {
            let first = self.next_u16();
            bounded::below::<16>(u64::from(first), u64::from(n), || {
                u64::from(self.next_u16())
            }) as u32
        } else {
            let mut x = || u64::from((self.next_u16() << 16) | self.next_u16());
            let first = x();
            bounded::below::<32>(first, u64::from(n), x) as u32
        }
    }

    /// Fisher-Yates: make `v[from..]` a uniform random permutation, or only its first
    /// `k` places (each uniform among what is left). One 16-bit multiply per place.
    /// The hot paths use [`Draws::shuffle32`]; see docs/performance.md for the
    /// variants that were measured and dropped.
    #[inline(always)]
    pub fn shuffle_prefix<T>(&mut self, v: &mut [T], from: usize, k: usize) {
        let n = v.len();
        for i in from..(from + k).min(n.saturating_sub(1)) {
            let j = i + self.below((n - i) as u32) as usize;
            v.swap(i, j);
        }
    }

    /// [`Draws::shuffle_prefix`] on a 32-slot array holding `n` items: places
    /// `from..end` get uniform picks among `place..n`. Indices are masked (no bounds
    /// checks) and four picks come from each 64-bit number.
    #[inline(always)]
    pub fn shuffle32(&mut self, v: &mut [u8; 32], n: usize, from: usize, end: usize) {
        let end = end.min(n.saturating_sub(1));
        let mut i = from;
        while i < end {
            // Four 16-bit picks from one 64-bit number (exact: each pick is Lemire's
            // multiply-and-reject on its own 16 bits; a rare rejection draws afresh).
            let mut x = self.rng.next_u64();
            for _ in 0..4 {
                if i >= end {
                    break;
                }
                let n_i = (n - i) as u64;
                let j = bounded::below::<16>(x & 0xffff, n_i, || u64::from(self.next_u16()));
                x >>= 16;
                v.swap(i & 31, (i + j as usize) & 31);
                i += 1;
            }
        }
    }

    /// The index of a uniformly chosen set bit of `mask` (mask != 0).
    #[inline(always)]
    pub fn pick_bit(&mut self, mask: u32) -> usize {
        let mut k = self.below(mask.count_ones());
        let mut m = mask;
        while k > 0 {
            m &= m - 1;
            k -= 1;
        }
        m.trailing_zeros() as usize
    }
}

/// A drawn board and the attempts it took.
#[derive(Debug, Clone, Copy)]
pub struct Drawn {
    /// The board.
    pub layout: Setup,
    /// Boards tried to get it (1 for samplers that never reject).
    pub attempts: u64,
}

impl Drawn {
    fn new(layout: Setup, attempts: u64) -> Drawn {
        Drawn { layout, attempts }
    }
}

/// What every sampler needs: the board, the rules, and (for `direct`) the table.
pub struct Ctx {
    /// The board shape.
    pub shape: &'static Shape,
    /// The rules every board must meet.
    pub rules: Rules,
    /// Table of valid red/desert/2-12 placements; `Some` when the rules can be enumerated.
    pub table: Option<PlacementTable>,
    /// The placement table of the rules' placement part alone, when the rules also
    /// have later rules (`direct` then draws from it and checks the rest).
    partial: Option<PlacementTable>,
    /// Fixed hexes and what stays free, when some are fixed (`--fix`).
    fixed: Option<(Fixes, Free)>,
    /// How `direct` draws, built from the table when first needed.
    plan: OnceLock<Option<Plan>>,
    /// How `full-rejection` draws when the rules only keep reds apart (built likewise).
    rejection_plan: OnceLock<Option<Plan>>,
    /// Token values in placement order: reds, then 2s and 12s, then the rest.
    order: [u8; 32],
    reds: usize,
    extremes: usize,
    /// Every set of `reds` hexes, with whether it meets the red rule: whole-board
    /// rejection on the array path draws an index into this list (one random number
    /// per attempt). Made on first use.
    red_subsets: OnceLock<Vec<(u32, bool)>>,
    /// Attempts per board before a sampler gives up, when not the usual
    /// [`MAX_ATTEMPTS`] (or [`MAX_SWAP_ROUNDS`]).
    max_attempts: Option<u64>,
    /// The bit deposit the mask plans draw with.
    deposit: BitDeposit,
}

/// Whether contexts made from now on draw with the plain-code deposit (see
/// [`set_default_deposit`]).
static PLAIN_DEPOSIT: AtomicBool = AtomicBool::new(false);

/// The bit deposit every [`Ctx`] made from now on starts with ([`BitDeposit::Auto`]
/// unless set): for a program that chooses once, at start (the command line does, from
/// `PUZZLEBOOK_PLAIN_DEPOSIT`). Boards and counts are the same either way. One context
/// can be given its own with [`Ctx::with_deposit`].
pub fn set_default_deposit(deposit: BitDeposit) {
    PLAIN_DEPOSIT.store(deposit == BitDeposit::Plain, Ordering::Relaxed);
}

/// The bit deposit a new [`Ctx`] starts with.
pub fn default_deposit() -> BitDeposit {
    if PLAIN_DEPOSIT.load(Ordering::Relaxed) {
        BitDeposit::Plain
    } else {
        BitDeposit::Auto
    }
}

/// The most attempts a rejection sampler (`full-rejection`, `token-rejection`,
/// `sequential`) makes for one board before it gives up with an error that names the
/// sampler and the rules: 50,000,000 (the limit was already there, without a useful
/// message). An attempt is one drawn (whole or partial) board, as the `attempts`
/// field of a record counts them.
///
/// Attempts are counted, never timed, so a run gives up at the same board on every
/// machine and at any thread count. An attempt takes from about 10 ns (a red set
/// refused by `red-apart`) to about 1 µs (a whole board checked against late rules), so
/// a board gives up after at most about a minute. The slowest rule sets that work
/// (measured: `red-apart,max-pips-per-corner=10` on the extended board, and
/// `same-terrain-apart,max-pips-per-corner=10` on the base board, with
/// `full-rejection`) need about 3 to 4 million attempts a board on average, so the
/// chance that a board reaches the cap is below e^-12 even there.
pub const MAX_ATTEMPTS: u64 = 50_000_000;
/// The most rounds the `swap` sampler starts for one board (each a fresh board and up
/// to 10,000 swaps, as its `attempts` count them): 100,000, about 10^9 swaps or a few
/// minutes of work. Swap is the one sampler that finds boards under the tightest corner
/// limit of the base board (`max-pips-per-corner=9`), at about 6,000 rounds a board
/// (some seconds each), so its cap is counted in rounds and set well above that.
pub const MAX_SWAP_ROUNDS: u64 = 100_000;
/// How often (in attempts) a sampler's loop looks whether a stop was requested: a few
/// milliseconds of work at most. `swap` looks after every round of swaps.
pub const POLL_EVERY: u32 = 4096;
const MAX_SWAPS: u32 = 10_000;

/// Why a sampler returned without a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaveUp {
    /// It made its allowed number of attempts.
    Cap,
    /// A stop was requested ([`crate::interrupt`]), or the caller's cancel flag was set.
    Interrupted,
}

/// The attempts left for one board, and the countdown to the next look at the stop
/// flag (and at the caller's cancel flag, if any).
struct Budget<'a> {
    left: u64,
    poll: u32,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Budget<'a> {
    fn new(cap: u64, cancel: Option<&'a AtomicBool>) -> Budget<'a> {
        Budget {
            left: cap,
            poll: POLL_EVERY,
            cancel,
        }
    }

    /// Count one attempt; Err when none is left, or (looked at every [`POLL_EVERY`]
    /// attempts) a stop was requested.
    #[inline(always)]
    fn spend(&mut self) -> Result<(), GaveUp> {
        if self.left == 0 {
            return Err(GaveUp::Cap);
        }
        self.left -= 1;
        self.poll -= 1;
        if self.poll == 0 {
            self.poll = POLL_EVERY;
            self.stopped()?;
        }
        Ok(())
    }

    /// Err when a stop was requested or the caller cancelled.
    fn stopped(&self) -> Result<(), GaveUp> {
        let cancelled = self.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled || crate::interrupt::requested() {
            Err(GaveUp::Interrupted)
        } else {
            Ok(())
        }
    }
}

impl Ctx {
    /// A context for a shape and rules (`table` is required by the `direct` sampler).
    pub fn new(shape: &'static Shape, rules: Rules, table: Option<PlacementTable>) -> Ctx {
        let mut order: Vec<u8> = shape
            .tokens
            .iter()
            .copied()
            .filter(|&t| is_red(t))
            .collect();
        order.sort_unstable();
        let reds = order.len();
        let mut ext: Vec<u8> = shape
            .tokens
            .iter()
            .copied()
            .filter(|&t| t == 2 || t == 12)
            .collect();
        ext.sort_unstable();
        let extremes = ext.len();
        order.extend(ext);
        order.extend(
            shape
                .tokens
                .iter()
                .copied()
                .filter(|&t| !is_red(t) && t != 2 && t != 12),
        );
        let order = {
            let mut a = [0u8; 32];
            a[..order.len()].copy_from_slice(&order);
            a
        };
        Ctx {
            shape,
            rules,
            partial: None,
            fixed: None,
            plan: OnceLock::new(),
            rejection_plan: OnceLock::new(),
            table,
            order,
            reds,
            extremes,
            red_subsets: OnceLock::new(),
            max_attempts: None,
            deposit: default_deposit(),
        }
    }

    /// The same context with the placement table of the rules' placement part, for
    /// `direct` under rules that also judge more than the placement (`table` is then
    /// None): it draws a valid placement from this table, fills the rest, and redraws
    /// while a later rule fails.
    pub fn with_partial_table(mut self, partial: PlacementTable) -> Ctx {
        self.partial = Some(partial);
        self.plan = OnceLock::new();
        self
    }

    /// The same context with hexes fixed (already checked against the shape): only
    /// `full-rejection` draws with fixes (see [`Ctx::fixed_rejection`]).
    pub fn with_fixes(mut self, fixes: Fixes) -> Ctx {
        self.fixed = (!fixes.is_empty()).then(|| {
            let free = Free::new(self.shape, &fixes);
            (fixes, free)
        });
        self
    }

    /// The fixed hexes (empty when none).
    pub fn fixes(&self) -> Fixes {
        self.fixed.as_ref().map(|f| f.0.clone()).unwrap_or_default()
    }

    /// Whether the `direct` sampler can draw under these rules.
    pub fn has_direct(&self) -> bool {
        self.table.is_some() || self.partial.is_some()
    }

    /// The same context drawing with the bit deposit `deposit` (the same boards).
    pub fn with_deposit(mut self, deposit: BitDeposit) -> Ctx {
        self.deposit = deposit;
        self.plan = OnceLock::new();
        self.rejection_plan = OnceLock::new();
        self
    }

    /// The bit deposit this context's mask plans draw with.
    pub fn deposit(&self) -> BitDeposit {
        self.deposit
    }

    fn n(&self) -> usize {
        self.shape.len()
    }

    /// The direct sampler's plan (when the rules, or their placement part, can be
    /// enumerated).
    pub fn plan(&self) -> Option<&Plan> {
        self.plan
            .get_or_init(|| {
                self.table
                    .as_ref()
                    .or(self.partial.as_ref())
                    .map(|t| Plan::direct(self.shape, t).with_deposit(self.deposit))
            })
            .as_ref()
    }

    /// How `sampler` draws in mask form, when it does (`direct` and `full-rejection`
    /// under placement rules, the ones the table is built for).
    pub fn mask_plan(&self, sampler: Sampler) -> Option<&Plan> {
        match sampler {
            Sampler::Direct if self.table.is_some() => self.plan(),
            Sampler::FullRejection => self
                .rejection_plan
                .get_or_init(|| {
                    let t = self.table.as_ref()?;
                    Some(Plan::full_rejection(self.shape, t).with_deposit(self.deposit))
                })
                .as_ref(),
            _ => None,
        }
    }

    /// Tokens onto the non-desert hexes of `perm[deserts..]` in placement order.
    #[inline(always)]
    fn put_tokens(&self, perm: &[u8], b: &mut Setup) {
        let d = self.shape.deserts;
        for (k, &h) in perm[d..].iter().enumerate() {
            b.token[h as usize & 31] = self.order[k & 31];
        }
        for &h in &perm[..d] {
            b.token[h as usize] = 0;
        }
    }

    #[inline(always)]
    fn put_terrain(&self, draws: &mut Draws, desert_mask: u32, b: &mut Setup) {
        let mut t = [0u8; 32];
        let m = self.shape.terrains.len();
        t[..m].copy_from_slice(&self.shape.terrains);
        draws.shuffle32(&mut t, m, 0, m);
        let all = ((1u64 << self.n()) - 1) as u32;
        let mut land = all & !desert_mask;
        let mut k = 0;
        while land != 0 {
            b.terrain[land.trailing_zeros() as usize & 31] = t[k & 31];
            k += 1;
            land &= land - 1;
        }
        let mut d = desert_mask;
        while d != 0 {
            b.terrain[d.trailing_zeros() as usize & 31] = DESERT;
            d &= d - 1;
        }
    }

    #[inline(always)]
    fn put_harbors(&self, draws: &mut Draws, b: &mut Setup) {
        let m = self.shape.harbor_kinds.len();
        let mut h = [0u8; 32];
        h[..m].copy_from_slice(&self.shape.harbor_kinds);
        draws.shuffle32(&mut h, m, 0, m);
        b.harbor[..m].copy_from_slice(&h[..m]);
    }

    fn identity(&self) -> [u8; 32] {
        let mut p = [0u8; 32];
        for (i, v) in p.iter_mut().enumerate() {
            *v = i as u8;
        }
        p
    }

    fn mask(perm: &[u8]) -> u32 {
        perm.iter().fold(0, |m, &h| m | 1 << h)
    }

    /// Draw one board with `sampler`; Err if it gave up: [`crate::Error::Interrupted`]
    /// when a stop was requested, otherwise [`crate::Error::Generation`] with a message
    /// naming the sampler, the rules and what to do.
    #[inline(always)]
    pub fn sample(&self, sampler: Sampler, rng: &mut Rng) -> crate::Result<Drawn> {
        self.sample_within(sampler, rng, self.cap(sampler), None)
            .map_err(|g| match g {
                GaveUp::Interrupted => crate::Error::Interrupted,
                GaveUp::Cap => crate::Error::Generation(self.gave_up(sampler, g)),
            })
    }

    /// Draw one board with `sampler` in at most `cap` attempts (rounds for `swap`),
    /// giving up early when a stop is requested or `cancel` is set.
    #[inline(always)]
    pub fn sample_within(
        &self,
        sampler: Sampler,
        rng: &mut Rng,
        cap: u64,
        cancel: Option<&AtomicBool>,
    ) -> Result<Drawn, GaveUp> {
        let mut draws = Draws::new(rng);
        let mut budget = Budget::new(cap, cancel);
        if let Some((_, free)) = &self.fixed {
            return self.fixed_rejection(free, &mut draws, &mut budget);
        }
        match sampler {
            Sampler::FullRejection => self.full_rejection(&mut draws, &mut budget),
            Sampler::TokenRejection => self.token_rejection(&mut draws, &mut budget),
            Sampler::Swap => self.swap(&mut draws, &mut budget),
            Sampler::Sequential => self.sequential(&mut draws, &mut budget),
            Sampler::Direct => self.direct(&mut draws, &mut budget),
            Sampler::RetryRestart => self.retry_restart(&mut draws, &mut budget),
            Sampler::BestOf(n) => self.best_of(n, &mut draws, &mut budget),
        }
    }

    /// The same context with another cap on attempts per board, for every sampler
    /// (tests use a small one to reach it quickly).
    pub fn with_max_attempts(mut self, cap: u64) -> Ctx {
        self.max_attempts = Some(cap);
        self
    }

    /// The attempts (rounds for `swap`) `sampler` may make for one board:
    /// [`MAX_ATTEMPTS`] or [`MAX_SWAP_ROUNDS`].
    pub fn cap(&self, sampler: Sampler) -> u64 {
        match (self.max_attempts, sampler) {
            (Some(cap), _) => cap,
            (None, Sampler::Swap) => MAX_SWAP_ROUNDS,
            (None, _) => MAX_ATTEMPTS,
        }
    }

    /// What the user reads when `sampler` gave up on a board.
    pub fn gave_up(&self, sampler: Sampler, why: GaveUp) -> String {
        match why {
            GaveUp::Interrupted => "interrupted".to_string(),
            GaveUp::Cap => format!(
                "sampler {} found no board meeting rules {} on the {} board in {} {} (the cap per board): \
                 such boards are too rare for it; {}",
                sampler.name(),
                self.rules,
                self.shape.kind.name(),
                self.cap(sampler),
                if sampler == Sampler::Swap { "rounds of swaps" } else { "attempts" },
                self.advice(sampler)
            ),
        }
    }

    /// What to try instead of `sampler` under these rules.
    pub fn advice(&self, sampler: Sampler) -> String {
        if self.table.is_some() && sampler != Sampler::Direct {
            return "use the direct sampler, which draws valid boards without rejection".into();
        }
        if self.partial.is_some() && sampler != Sampler::Direct {
            return "use the direct sampler, which draws the placement rules without rejection \
                    and so needs fewer attempts, or loosen the rules"
                .into();
        }
        match self.rules.max_pips() {
            Some(n) => {
                format!("loosen the rules (a larger max-pips-per-corner than {n}, or fewer rules)")
            }
            None => "loosen the rules (fewer of them)".into(),
        }
    }

    /// Whole-board rejection, drawn in stages and stopped as soon as a stage breaks a
    /// rule. Why this is exactly whole-board rejection: in a uniform random board the
    /// set of red hexes is a uniform random set of `reds` hexes; given it, the deserts
    /// are uniform among the other hexes, then the 2s and 12s among what is left, then
    /// everything else. Drawing the stages in that order is therefore drawing one
    /// uniform board, and since each placement rule depends only on stages already
    /// drawn, stopping early rejects exactly the boards that drawing to the end and
    /// checking would reject (attempt counts included). An accepted board is uniform
    /// among valid boards; only the work of drawing the rest of rejected boards is saved.
    ///
    /// Under placement rules only (`red-apart`, `2-12-apart`) the stages a rule judges
    /// are drawn this way in mask form and the rest by the same stages as `direct`
    /// (see `direct.rs`); other rules take the array path below.
    #[inline(always)]
    fn full_rejection(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        if let Some(plan) = self.mask_plan(Sampler::FullRejection) {
            return Ok(Self::drawn(plan, plan.draw(draws.rng)));
        }
        let red_subsets = self.red_subsets.get_or_init(|| {
            let mut v = Vec::new();
            super::exact::subsets(((1u64 << self.n()) - 1) as u32, self.reds, &mut |m| {
                v.push((m, !self.rules.red_apart() || independent(self.shape, m)));
            });
            v
        });
        let count = red_subsets.len() as u32;
        let mut attempt = 0;
        loop {
            budget.spend()?;
            attempt += 1;
            let (reds, ok) = red_subsets[draws.below(count) as usize];
            if !ok {
                continue;
            }
            if let Some(mut drawn) = self.complete(draws, reds) {
                drawn.attempts = attempt;
                return Ok(drawn);
            }
        }
    }

    /// Whole-board rejection with some hexes fixed: the free deserts, tokens and
    /// terrains drawn uniformly onto their free places (why this is uniform among the
    /// completions: see `fix.rs`), the board drawn again while it breaks a rule. Rules
    /// about tokens alone are checked before the terrain is drawn (stopping early
    /// rejects the same boards). Every sampler draws this way with fixes; `context`
    /// allows only `full-rejection`, the one it is exactly.
    fn fixed_rejection(
        &self,
        free: &Free,
        draws: &mut Draws,
        budget: &mut Budget,
    ) -> Result<Drawn, GaveUp> {
        let mut attempt = 0;
        loop {
            budget.spend()?;
            attempt += 1;
            let mut b = free.base;
            let mut avail = free.terrain_free;
            let mut deserts = 0u32;
            for _ in 0..free.deserts {
                let h = draws.pick_bit(avail);
                avail &= !(1 << h);
                deserts |= 1 << h;
                b.terrain[h] = DESERT;
            }
            let put = |draws: &mut Draws, places: u32, pieces: &[u8], to: &mut [u8; 32]| {
                let k = pieces.len();
                let mut v = [0u8; 32];
                v[..k].copy_from_slice(pieces);
                draws.shuffle32(&mut v, k, 0, k);
                let mut m = places;
                for &x in &v[..k] {
                    to[m.trailing_zeros() as usize & 31] = x;
                    m &= m - 1;
                }
            };
            put(
                draws,
                free.token_free & !deserts,
                &free.tokens,
                &mut b.token,
            );
            let tokens_ok = self
                .rules
                .list()
                .iter()
                .filter(|r| r.tokens_only())
                .all(|&r| holds(self.shape, &b, r));
            if !tokens_ok {
                continue;
            }
            put(
                draws,
                free.terrain_free & !deserts,
                &free.terrains,
                &mut b.terrain,
            );
            self.put_harbors(draws, &mut b);
            let rest_ok = self
                .rules
                .list()
                .iter()
                .filter(|r| !r.tokens_only())
                .all(|&r| holds(self.shape, &b, r));
            if rest_ok {
                return Ok(Drawn::new(b, attempt));
            }
        }
    }

    /// Given the red set: the deserts uniform among the other hexes, the reds in random
    /// order (which are 6s and which 8s), the 2s and 12s uniform among what is left
    /// (None if they break 2-12-apart), then everything else; None if a late rule fails.
    #[inline(always)]
    fn complete(&self, draws: &mut Draws, reds: u32) -> Option<Drawn> {
        let n = self.n();
        let d = self.shape.deserts;
        let (r, x) = (self.reds, self.extremes);
        let mut perm = [0u8; 32];
        let mut free = (((1u64 << n) - 1) as u32) & !reds;
        for slot in perm.iter_mut().take(d) {
            let h = draws.pick_bit(free);
            *slot = h as u8;
            free &= !(1 << h);
        }
        let mut m = reds;
        for slot in perm[d..d + r].iter_mut() {
            *slot = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        draws.shuffle_prefix(&mut perm[d..d + r], 0, r);
        let mut m = free;
        for slot in perm[d + r..n].iter_mut() {
            *slot = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        draws.shuffle32(&mut perm, n, d + r, d + r + x);
        if self.rules.two_twelve_apart()
            && !independent(self.shape, Self::mask(&perm[d + r..d + r + x]))
        {
            return None;
        }
        draws.shuffle32(&mut perm, n, d + r + x, n);
        let mut b = Setup::default();
        self.put_tokens(&perm[..n], &mut b);
        let deserts = Self::mask(&perm[..d]);
        self.put_terrain(draws, deserts, &mut b);
        let harbors_first = self.rules.needs_harbors();
        if harbors_first {
            self.put_harbors(draws, &mut b);
        }
        if !self.rules.check_late(self.shape, &b) {
            return None;
        }
        if !harbors_first {
            self.put_harbors(draws, &mut b);
        }
        Some(Drawn::new(b, 1))
    }

    /// Terrain (and so the deserts) drawn once and kept; tokens redrawn until valid.
    fn token_rejection(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = self.n();
        let d = self.shape.deserts;
        let mut attempts = 0;
        let mut b = Setup::default();
        // Terrain first, redrawn only for rules about terrain.
        let mut perm = loop {
            budget.spend()?;
            attempts += 1;
            let mut perm = self.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, d);
            self.put_terrain(draws, Self::mask(&perm[..d]), &mut b);
            if self
                .rules
                .list()
                .iter()
                .filter(|r| matches!(r, Rule::SameTerrainApart | Rule::MaxCluster(_)))
                .all(|&r| holds(self.shape, &b, r))
            {
                break perm;
            }
        };
        let harbors_first = self.rules.needs_harbors();
        loop {
            draws.shuffle_prefix(&mut perm[..n], d, n);
            self.put_tokens(&perm[..n], &mut b);
            if harbors_first {
                self.put_harbors(draws, &mut b);
            }
            if self.rules.check(self.shape, &b) {
                if !harbors_first {
                    self.put_harbors(draws, &mut b);
                }
                return Ok(Drawn::new(b, attempts));
            }
            budget.spend()?;
            attempts += 1;
        }
    }

    /// Draw a uniform board, then repeatedly swap a randomly chosen offending token (or
    /// terrain) with the one on a random other hex until every rule holds.
    /// Each round (a fresh board and its swaps) is one attempt; the stop flag is looked
    /// at before every round.
    fn swap(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = self.n();
        let d = self.shape.deserts;
        let mut attempt = 0;
        loop {
            budget.spend()?;
            if attempt > 0 {
                budget.stopped()?;
            }
            attempt += 1;
            let mut perm = self.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, n);
            let mut b = Setup::default();
            self.put_tokens(&perm[..n], &mut b);
            let deserts = Self::mask(&perm[..d]);
            self.put_terrain(draws, deserts, &mut b);
            let harbors_first = self.rules.needs_harbors();
            if harbors_first {
                self.put_harbors(draws, &mut b);
            }
            let mut land = ((1u64 << n) - 1) as u32 & !deserts;
            for _ in 0..MAX_SWAPS {
                let (tok, ter) = self.rules.offenders(self.shape, &b);
                if tok | ter == 0 {
                    if !harbors_first {
                        self.put_harbors(draws, &mut b);
                    }
                    return Ok(Drawn::new(b, attempt));
                }
                let h = draws.pick_bit(tok | ter);
                if tok >> h & 1 == 1 {
                    let other = draws.pick_bit(land & !(1 << h));
                    b.token.swap(h, other);
                } else {
                    let other = draws.pick_bit(((1u64 << n) - 1) as u32 & !(1 << h));
                    b.terrain.swap(h, other);
                    // Tokens follow the desert: the desert never holds one.
                    if b.terrain[h] == DESERT || b.terrain[other] == DESERT {
                        b.token.swap(h, other);
                        for x in [h, other] {
                            land = land & !(1 << x) | u32::from(b.terrain[x] != DESERT) << x;
                        }
                    }
                }
            }
        }
    }

    /// Deserts at random; then each red on a random hex not next to a red placed so far
    /// (and each 2 and 12 likewise, with 2-12-apart); the rest at random. A dead end
    /// (no allowed hex left) or a broken late rule starts again.
    fn sequential(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = self.n();
        let d = self.shape.deserts;
        let all = ((1u64 << n) - 1) as u32;
        let mut attempt = 0;
        'attempt: loop {
            budget.spend()?;
            attempt += 1;
            let mut perm = self.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, d);
            let mut used = Self::mask(&perm[..d]);
            let mut placed = d;
            for (count, apart) in [
                (self.reds, self.rules.red_apart()),
                (self.extremes, self.rules.two_twelve_apart()),
            ] {
                let mut group = 0u32;
                for _ in 0..count {
                    let mut allowed = all & !used;
                    if apart {
                        for h in (0..n).filter(|&h| group >> h & 1 == 1) {
                            allowed &= !self.shape.neighbours[h];
                        }
                    }
                    if allowed == 0 {
                        continue 'attempt;
                    }
                    let h = draws.pick_bit(allowed) as u8;
                    let pos = perm[..n].iter().position(|&p| p == h).expect("present");
                    perm.swap(placed, pos);
                    placed += 1;
                    group |= 1 << h;
                    used |= 1 << h;
                }
            }
            draws.shuffle_prefix(&mut perm[..n], placed, n);
            let mut b = Setup::default();
            self.put_tokens(&perm[..n], &mut b);
            self.put_terrain(draws, Self::mask(&perm[..d]), &mut b);
            let harbors_first = self.rules.needs_harbors();
            if harbors_first {
                self.put_harbors(draws, &mut b);
            }
            if !self.rules.check(self.shape, &b) {
                continue;
            }
            if !harbors_first {
                self.put_harbors(draws, &mut b);
            }
            return Ok(Drawn::new(b, attempt));
        }
    }

    /// A placement drawn uniformly from the enumerated valid ones (see `exact`), then the
    /// rest at random, all as sets of places (see `direct`). One attempt, no rejection
    /// of whole boards.
    ///
    /// Under rules that judge more than the placement, the placement comes from the
    /// table of the placement rules alone, so a drawn board is uniform among boards
    /// meeting those; it is redrawn while a later rule fails, which leaves it uniform
    /// among boards meeting all the rules (rejection within a uniform family). Each
    /// draw is one attempt.
    fn direct(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        // `context` refuses the direct sampler without a table, so there is a plan.
        let plan = self
            .plan()
            .expect("the direct sampler has its placement table");
        if self.table.is_some() {
            return Ok(Self::drawn(plan, plan.draw(draws.rng)));
        }
        let mut attempts = 0;
        loop {
            budget.spend()?;
            attempts += 1;
            let layout = plan.layout(&plan.draw(draws.rng));
            if self.rules.check_late(self.shape, &layout) {
                return Ok(Drawn::new(layout, attempts));
            }
        }
    }

    /// Hex by hex in number order, first the terrain (deserts included), then the
    /// harbors, then the tokens: each hex gets a random piece from those left, checked
    /// against the pieces already placed (neighbours for the apart rules, the same
    /// resource for number-resource-apart); after [`RETRIES`] failed picks the board
    /// is started again, and so it is when the finished board breaks a rule no
    /// placement checks (corner and cluster limits, resource pips, harbors). Each
    /// start is one attempt.
    fn retry_restart(&self, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = self.n();
        let mut attempt = 0;
        'board: loop {
            budget.spend()?;
            attempt += 1;
            let mut b = Setup::default();
            let mut pool = [0u8; 32];
            let m = self.shape.terrains.len();
            pool[..m].copy_from_slice(&self.shape.terrains);
            for slot in &mut pool[m..m + self.shape.deserts] {
                *slot = DESERT;
            }
            let mut placed = 0u32;
            let terrain_placed = retry_each(draws, &mut pool, n, 0..n, |h, t| {
                let fits = self.terrain_fits(&b, placed, h, t);
                if fits {
                    b.terrain[h] = t;
                    placed |= 1 << h;
                }
                fits
            });
            if !terrain_placed {
                continue 'board;
            }
            self.put_harbors(draws, &mut b);
            let m = self.shape.tokens.len();
            pool[..m].copy_from_slice(&self.shape.tokens);
            let land = (0..n)
                .filter(|&h| b.terrain[h] != DESERT)
                .fold(0u32, |a, h| a | 1 << h);
            let mut placed = 0u32;
            let tokens_placed = retry_each(
                draws,
                &mut pool,
                m,
                (0..n).filter(|&h| land >> h & 1 == 1),
                |h, v| {
                    let fits = self.token_fits(&b, placed, h, v);
                    if fits {
                        b.token[h] = v;
                        placed |= 1 << h;
                    }
                    fits
                },
            );
            if !tokens_placed {
                continue 'board;
            }
            if self.rules.check(self.shape, &b) {
                return Ok(Drawn::new(b, attempt));
            }
        }
    }

    /// Whether terrain `t` on hex `h` keeps the apart rules with the hexes `placed`.
    fn terrain_fits(&self, b: &Setup, placed: u32, h: usize, t: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        let same = (0..self.n()).any(|j| near >> j & 1 == 1 && b.terrain[j] == t);
        !(same
            && (self.rules.has(Rule::SameTerrainApart)
                || (t != DESERT && self.rules.has(Rule::MaxCluster(1)))))
    }

    /// Whether token `v` on hex `h` keeps the apart rules with the tokens `placed`.
    fn token_fits(&self, b: &Setup, placed: u32, h: usize, v: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        let clash =
            |f: &dyn Fn(u8) -> bool| (0..self.n()).any(|j| near >> j & 1 == 1 && f(b.token[j]));
        if self.rules.red_apart() && is_red(v) && clash(&is_red) {
            return false;
        }
        let extreme = |x: u8| x == 2 || x == 12;
        if self.rules.two_twelve_apart() && extreme(v) && clash(&extreme) {
            return false;
        }
        if self.rules.has(Rule::SameNumberApart) && clash(&|x| x == v) {
            return false;
        }
        if self.rules.has(Rule::NumberResourceApart) {
            let same_resource =
                (0..self.n()).filter(|&j| placed >> j & 1 == 1 && b.terrain[j] == b.terrain[h]);
            for j in same_resource {
                let w = b.token[j];
                if w == v || (is_red(w) && is_red(v)) {
                    return false;
                }
            }
        }
        true
    }

    /// N boards from the exact sampler that applies (`direct`, else
    /// `full-rejection`), the one with the lowest balance score kept (the first on a
    /// tie). Attempts add up over the N.
    fn best_of(&self, n: u16, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let mut best: Option<(f64, Setup)> = None;
        let mut attempts = 0;
        for _ in 0..n {
            let d = if self.has_direct() {
                self.direct(draws, budget)?
            } else {
                self.full_rejection(draws, budget)?
            };
            attempts += d.attempts;
            let score = super::balance::score(self.shape, &d.layout);
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, d.layout));
            }
        }
        let (_, layout) = best.expect("N is at least 2");
        Ok(Drawn::new(layout, attempts))
    }

    fn drawn(plan: &Plan, m: Masks) -> Drawn {
        Drawn::new(plan.layout(&m), m.attempts)
    }
}

/// For each hex of `hexes` in turn, up to [`RETRIES`] random picks from the
/// `left` pieces at the front of `pool`, until `try_put` takes one (it is then moved
/// out of the pool); false as soon as a hex takes none.
fn retry_each(
    draws: &mut Draws,
    pool: &mut [u8; 32],
    mut left: usize,
    hexes: impl Iterator<Item = usize>,
    mut try_put: impl FnMut(usize, u8) -> bool,
) -> bool {
    for h in hexes {
        let taken = (0..RETRIES).any(|_| {
            let k = draws.below(left as u32) as usize;
            let put = try_put(h, pool[k]);
            if put {
                pool.swap(k, left - 1);
                left -= 1;
            }
            put
        });
        if !taken {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::item_rng;
    use crate::stats::{chi2_sf, pearson};

    #[test]
    fn shuffles_are_uniform_permutations() {
        // All 120 orders of 5 items, and the position of each item in 19.
        let mut rng = item_rng(1, "test", 0);
        let mut d = Draws::new(&mut rng);
        let mut seen = std::collections::HashMap::new();
        let mut seen32 = std::collections::HashMap::new();
        let mut pos = vec![0u64; 19 * 19];
        let n = 240_000;
        for _ in 0..n {
            let mut v = [0u8, 1, 2, 3, 4];
            d.shuffle_prefix(&mut v, 0, 5);
            *seen.entry(v).or_insert(0u64) += 1;
            let mut v32 = [0u8; 32];
            for (i, x) in v32.iter_mut().take(5).enumerate() {
                *x = i as u8;
            }
            d.shuffle32(&mut v32, 5, 0, 5);
            *seen32.entry(v32).or_insert(0u64) += 1;
            let mut w = [0u8; 32];
            for (i, x) in w.iter_mut().enumerate() {
                *x = i as u8;
            }
            d.shuffle32(&mut w, 19, 0, 19);
            for (p, &x) in w[..19].iter().enumerate() {
                pos[x as usize * 19 + p] += 1;
            }
            assert!(w[19..]
                .iter()
                .enumerate()
                .all(|(i, &x)| x as usize == 19 + i));
        }
        for orders in [
            seen.values().copied().collect::<Vec<u64>>(),
            seen32.values().copied().collect(),
        ] {
            assert_eq!(orders.len(), 120);
            let (chi, cells) = pearson(&orders, &vec![n as f64 / 120.0; 120]);
            assert!(chi2_sf(chi, (cells - 1) as f64) > 1e-4, "orders: chi {chi}");
        }
        // Each row of the position table is one multinomial over 19 places.
        for x in 0..19 {
            let (chi, _) = pearson(&pos[x * 19..(x + 1) * 19], &[n as f64 / 19.0; 19]);
            assert!(chi2_sf(chi, 18.0) > 1e-5, "item {x}: chi {chi}");
        }
    }

    #[test]
    fn bounded_draws_are_uniform() {
        let mut rng = item_rng(2, "test", 0);
        let mut d = Draws::new(&mut rng);
        for m in [3u32, 7, 30, 3876, 100_000] {
            let cells = m.min(1000) as usize;
            let mut c = vec![0u64; cells];
            let n = 200 * cells as u64;
            for _ in 0..n {
                let v = d.below(m);
                assert!(v < m);
                c[(v as u64 * cells as u64 / m as u64) as usize] += 1;
            }
            let e: Vec<f64> = (0..cells)
                .map(|i| {
                    let lo = (i as u64 * m as u64).div_ceil(cells as u64);
                    let hi = ((i as u64 + 1) * m as u64).div_ceil(cells as u64);
                    (hi - lo) as f64 / m as f64 * n as f64
                })
                .collect();
            let (chi, used) = pearson(&c, &e);
            assert!(chi2_sf(chi, (used - 1) as f64) > 1e-5, "m = {m}: chi {chi}");
        }
    }
}
