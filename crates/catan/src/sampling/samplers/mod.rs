//! The samplers under study. Each draws one valid board from its own random stream
//! and says how many attempts (whole or partial redraws) it took.

use super::direct::{BitDeposit, Masks, Plan};
use super::exact::PlacementTable;
use crate::board::{is_extreme, is_red, Shape, DESERT};
use crate::fix::{Fixes, Free};
use crate::rules::{Rules, Setup};

mod best_of;
mod counted;
mod direct;
mod full_rejection;
mod retry_restart;
mod sequential;
mod swap;
mod token_rejection;
pub use best_of::BestOf;
pub use direct::Direct;
pub use full_rejection::FullRejection;
pub use retry_restart::RetryRestart;
pub use sequential::Sequential;
pub use swap::Swap;
pub use token_rejection::TokenRejection;

/// One way of drawing a board: the plug-in point of the sampler library, one type per
/// sampler (as `rand` has one type per distribution). A sampler draws one board under
/// the context's rules within the attempts its budget allows; the context ([`Ctx`])
/// holds what samplers share (the board, the rules, the placement tables and plans).
/// The name users give a sampler by is a [`Sampler`].
pub(crate) trait BoardSampler: Sync {
    /// The sampler's name in parameters and outputs.
    fn name(&self) -> &'static str;
    /// What one attempt is called in messages.
    fn attempt_unit(&self) -> &'static str {
        "attempts"
    }
    /// The most attempts it makes for one board unless told otherwise.
    fn default_cap(&self) -> u64 {
        MAX_ATTEMPTS
    }
    /// How it draws in mask form, when it does (the form the bias study counts in).
    fn mask_plan<'a>(&self, _ctx: &'a Ctx) -> Option<&'a Plan> {
        None
    }
    /// Draw one board, spending one unit of `budget` per attempt.
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp>;
}
use ground::seed::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// A sampler by name: what parameters, records and studies name; its behaviour is
/// its `BoardSampler` (`Sampler::board_sampler`).
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
    /// up to `RETRIES` picks per hex; when all break a rule with the pieces placed
    /// so far, start the board again.
    RetryRestart,
    /// Draw N valid boards uniformly (with `direct` where it applies, else
    /// `full-rejection`) and keep the one with the lowest balance score.
    BestOf(u16),
    /// Draw from the exact counts of the rules' terrain and token layers.
    Counted,
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

/// Samplers a study runs only when named.
pub(crate) const NAMED_SAMPLERS: [Sampler; 1] = [Sampler::Counted];

/// Picks per hex `retry-restart` makes before it starts the board again.
pub(crate) const RETRIES: u32 = 3;
/// The largest N of `best-of-N`.
pub(crate) const MAX_BEST_OF: u16 = 1000;

impl Sampler {
    /// The sampler's name in parameters and outputs (`best-of-N` with its N).
    pub fn name(self) -> &'static str {
        self.board_sampler().name()
    }

    /// The sampler itself. `best-of-N` is made once per N (N is at most
    /// [`MAX_BEST_OF`], so at most that many are ever kept).
    pub(crate) fn board_sampler(self) -> &'static dyn BoardSampler {
        match self {
            Sampler::FullRejection => &FullRejection,
            Sampler::TokenRejection => &TokenRejection,
            Sampler::Swap => &Swap,
            Sampler::Sequential => &Sequential,
            Sampler::Direct => &Direct,
            Sampler::RetryRestart => &RetryRestart,
            Sampler::Counted => &counted::Counted,
            Sampler::BestOf(n) => {
                // One per N, kept for the process (a `&'static dyn` is what every
                // sampler is): at most MAX_BEST_OF, each two bytes.
                type Made = std::collections::HashMap<u16, &'static BestOf>;
                static MADE: OnceLock<std::sync::Mutex<Made>> = OnceLock::new();
                let mut made = MADE.get_or_init(Default::default).lock().expect("samplers");
                *made
                    .entry(n)
                    .or_insert_with(|| Box::leak(Box::new(BestOf(n))))
            }
        }
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
pub(crate) fn sampler_list() -> String {
    let fixed: Vec<&str> = ALL_SAMPLERS
        .iter()
        .chain(&NAMED_SAMPLERS)
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
pub(crate) fn samplers_help() -> String {
    let default: Vec<&str> = ALL_SAMPLERS.iter().map(|s| s.name()).collect();
    format!(
        "Comma-separated samplers from {} (default: all {} of {}; direct only where it applies)",
        sampler_list(),
        ALL_SAMPLERS.len(),
        default.join(", ")
    )
}

impl std::str::FromStr for Sampler {
    type Err = ground::Error;
    /// A sampler by its name. The error names the value, not a parameter: a sampler
    /// is given as `sampler` or in a list of `samplers`.
    fn from_str(s: &str) -> ground::Result<Self> {
        if let Some(n) = s.strip_prefix("best-of-") {
            return match n.parse::<u16>() {
                Ok(n) if (2..=MAX_BEST_OF).contains(&n) => Ok(Sampler::BestOf(n)),
                _ => Err(ground::Error::invalid(format!(
                    "sampler '{s}': N of best-of-N must be a whole number from 2 to {MAX_BEST_OF}"
                ))),
            };
        }
        ALL_SAMPLERS
            .into_iter()
            .chain(NAMED_SAMPLERS)
            .find(|x| x.name() == s)
            .ok_or_else(|| {
                let names = ALL_SAMPLERS
                    .iter()
                    .chain(&NAMED_SAMPLERS)
                    .map(|x| x.name())
                    .chain(["best-of-N"]);
                ground::Error::invalid(format!(
                    "unknown sampler '{s}'{}: use {}",
                    ground::input::suggestion(s, names),
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

pub use super::bounded::Draws;

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
    /// The counted layers, for the `counted` sampler.
    pub layers: Option<std::sync::Arc<crate::sampling::layers::Layers>>,
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
pub(crate) fn default_deposit() -> BitDeposit {
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
/// machine and at any thread count. From the time an attempt takes (a red set refused
/// by `red-apart` the quickest, a whole board checked against late rules the slowest),
/// a board gives up after at most about a minute; and the slowest rule sets that work
/// need so many fewer attempts a board on average that the chance that a board
/// reaches the cap is below e^-12 even for them (measured: docs/performance.md,
/// "Catan: attempt cap").
pub(crate) const MAX_ATTEMPTS: u64 = 50_000_000;
/// The most rounds the `swap` sampler starts for one board (each a fresh board and up
/// to 10,000 swaps, as its `attempts` count them): 100,000, about 10^9 swaps or a few
/// minutes of work. Swap is the one sampler that finds boards under the tightest corner
/// limit of the base board (`max-pips-per-corner=9`), at about 6,000 rounds a board
/// (some seconds each), so its cap is counted in rounds and set well above that.
pub(crate) const MAX_SWAP_ROUNDS: u64 = 100_000;
/// How often (in attempts) a sampler's loop looks whether a stop was requested: a few
/// milliseconds of work at most. `swap` looks after every round of swaps.
pub(crate) const POLL_EVERY: u32 = 4096;
const MAX_SWAPS: u32 = 10_000;

/// Why a sampler returned without a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GaveUp {
    /// It made its allowed number of attempts.
    Cap,
    /// A stop was requested ([`ground::interrupt`]), or the caller's cancel flag was set.
    Interrupted,
}

/// The attempts left for one board, and the countdown to the next look at the stop
/// flag (and at the caller's cancel flag, if any).
pub struct Budget<'a> {
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
        if cancelled || ground::interrupt::requested() {
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
            .filter(|&t| is_extreme(t))
            .collect();
        ext.sort_unstable();
        let extremes = ext.len();
        order.extend(ext);
        order.extend(
            shape
                .tokens
                .iter()
                .copied()
                .filter(|&t| !is_red(t) && !is_extreme(t)),
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
            layers: None,
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
    pub(crate) fn with_partial_table(mut self, partial: PlacementTable) -> Ctx {
        self.partial = Some(partial);
        self.plan = OnceLock::new();
        self
    }

    /// The same context with hexes fixed (already checked against the shape): only
    /// `full-rejection` draws with fixes (see [`Ctx::fixed_rejection`]).
    pub(crate) fn with_fixes(mut self, fixes: Fixes) -> Ctx {
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
    #[cfg(test)]
    pub(crate) fn deposit(&self) -> BitDeposit {
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
    pub(crate) fn mask_plan(&self, sampler: Sampler) -> Option<&Plan> {
        sampler.board_sampler().mask_plan(self)
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

    /// Draw one board with `sampler`; Err if it gave up: [`ground::Error::Interrupted`]
    /// when a stop was requested, otherwise [`ground::Error::Generation`] with a message
    /// naming the sampler, the rules and what to do.
    #[inline(always)]
    pub fn sample(&self, sampler: Sampler, rng: &mut Rng) -> ground::Result<Drawn> {
        self.sample_within(sampler, rng, self.cap(sampler), None)
            .map_err(|g| match g {
                GaveUp::Interrupted => ground::Error::Interrupted,
                GaveUp::Cap => ground::Error::Generation(self.gave_up(sampler, g)),
            })
    }

    /// Draw one board with `sampler` in at most `cap` attempts (rounds for `swap`),
    /// giving up early when a stop is requested or `cancel` is set.
    #[inline(always)]
    pub(crate) fn sample_within(
        &self,
        sampler: Sampler,
        rng: &mut Rng,
        cap: u64,
        cancel: Option<&AtomicBool>,
    ) -> Result<Drawn, GaveUp> {
        let mut draws = Draws::new(rng);
        let mut budget = Budget::new(cap, cancel);
        if let Some((_, free)) = &self.fixed {
            if sampler != Sampler::Counted {
                return self.fixed_rejection(free, &mut draws, &mut budget);
            }
        }
        // The default sampler is called directly, so it inlines here: through the
        // trait object, full-rejection under late rules was slower; the others lose
        // nothing measurable (measured: docs/performance.md, "Catan: full-rejection
        // called directly").
        if sampler == Sampler::FullRejection {
            return FullRejection.draw(self, &mut draws, &mut budget);
        }
        sampler.board_sampler().draw(self, &mut draws, &mut budget)
    }

    /// The same context with another cap on attempts per board, for every sampler
    /// (tests use a small one to reach it quickly).
    #[cfg(test)]
    pub(crate) fn with_max_attempts(mut self, cap: u64) -> Ctx {
        self.max_attempts = Some(cap);
        self
    }

    /// The attempts (rounds for `swap`) `sampler` may make for one board:
    /// `MAX_ATTEMPTS` or `MAX_SWAP_ROUNDS`.
    pub fn cap(&self, sampler: Sampler) -> u64 {
        self.max_attempts
            .unwrap_or_else(|| sampler.board_sampler().default_cap())
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
                sampler.board_sampler().attempt_unit(),
                self.advice(sampler)
            ),
        }
    }

    /// What to try instead of `sampler` under these rules.
    pub(crate) fn advice(&self, sampler: Sampler) -> String {
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

    fn drawn(plan: &Plan, m: Masks) -> Drawn {
        Drawn::new(plan.layout(&m), m.attempts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ground::seed::item_rng;
    use ground::stats::{chi2_sf, pearson};

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
