//! Deciding at set-up whether a sampler can draw boards under a rule set, so that a
//! hopeless choice is refused before a run instead of hours into it.
//!
//! [`super::feasible`] has already shown that some board meets the rules; here the
//! question is whether this sampler will find one within its cap per board
//! ([`crate::sampling::samplers::MAX_ATTEMPTS`], [`crate::sampling::samplers::MAX_SWAP_ROUNDS`] for
//! `swap`):
//!
//! * `direct` draws a valid board in one attempt under the placement rules: always
//!   fine (under later rules it redraws, and is piloted like the others);
//! * `full-rejection` under the placement rules has its exact acceptance rate from
//!   the placement table: refused only if a board would need more than a fiftieth of
//!   the cap on average (none of today's rules comes close);
//! * `token-rejection` keeps the terrain it drew and redraws only the tokens, so a
//!   desert set that admits no tokens under the rules traps it for good: such a set
//!   is looked for exactly ([`desert_trap`], an exhaustive search, tens of
//!   milliseconds) and the sampler refused when there is one;
//! * otherwise a pilot runs the sampler itself on [`PILOT_STREAMS`] fixed random
//!   streams that share one board's cap between them, and stops as soon as any of
//!   them finds a board. If none does, the sampler is refused: attempts are
//!   independent, so this is exactly as likely as its first board giving up at the
//!   cap, and a rule set whose boards fail at the cap is not one that works. A
//!   sampler that works costs the time of about one board at set-up; a hopeless one
//!   the time of one capped board (seconds for most; up to a few minutes for `swap`,
//!   the slowest per attempt) instead of a whole run.
//!
//! The pilot is deterministic (fixed streams, counted attempts): the same rules and
//! sampler always get the same answer, on any machine and at any thread count (the
//! answer is "some stream found a board", which does not depend on which stream found
//! it first). Answers are remembered per board, rule set and sampler for the life of
//! the process.

use super::feasible::{desert_trap, Trap};
use crate::board::BoardKind;
use crate::fix::Fixes;
use crate::rules::Rules;
use crate::sampling::samplers::{Ctx, GaveUp, Sampler};
use ground::{Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

/// Independent random streams of the pilot; they share one board's cap.
pub(crate) const PILOT_STREAMS: u64 = 16;
/// The master seed of the pilot's streams.
const PILOT_SEED: u64 = 0x9106_7e57_ca7a_4e11;
/// Search nodes allowed for looking for a desert set that traps `token-rejection`
/// (every rule set measured needs fewer than 60,000; beyond the budget the pilot and
/// the attempt cap still apply).
const TRAP_BUDGET: u64 = 2_000_000;

/// Ok when `sampler` can draw boards under the context's rules at a usable rate;
/// otherwise an error that names the sampler and the rules and says what to do.
pub fn check(ctx: &Ctx, sampler: Sampler) -> Result<()> {
    type Key = (BoardKind, Rules, Fixes, Sampler);
    static CACHE: OnceLock<Mutex<HashMap<Key, Verdict>>> = OnceLock::new();
    let key = (ctx.shape.kind, ctx.rules.clone(), ctx.fixes(), sampler);
    let cache = CACHE.get_or_init(Default::default);
    let known = cache.lock().expect("pilot cache").get(&key).cloned();
    let verdict = match known {
        Some(v) => v,
        None => {
            let v = decide(ctx, sampler)?;
            cache.lock().expect("pilot cache").insert(key, v.clone());
            v
        }
    };
    match verdict {
        Verdict::Usable => Ok(()),
        Verdict::Refused(why) => Err(Error::Invalid(why)),
    }
}

/// What the pilot decided about a sampler under a rule set.
#[derive(Debug, Clone)]
enum Verdict {
    /// It draws boards at a usable rate.
    Usable,
    /// It does not; the message names the sampler and the rules and says what to do.
    Refused(String),
}

/// The answer of [`check`], uncached; Err(Interrupted) when a stop was requested.
fn decide(ctx: &Ctx, sampler: Sampler) -> Result<Verdict> {
    let kind = ctx.shape.kind;
    let head = || {
        format!(
            "sampler {} cannot draw boards meeting rules {} on the {} board",
            sampler.name(),
            ctx.rules,
            kind.name()
        )
    };
    if sampler == Sampler::Direct && ctx.table.is_some() {
        return Ok(Verdict::Usable);
    }
    if let (Some(_), Some(table), true) =
        (ctx.mask_plan(sampler), &ctx.table, ctx.fixes().is_empty())
    {
        let a = table.acceptance(ctx.shape);
        let refused = a.value() * (ctx.cap(sampler) as f64) < 50.0;
        return Ok(if refused {
            Verdict::Refused(format!(
                "{}: its exact acceptance is {a}, about one board in {:.0} attempts; {}",
                head(),
                1.0 / a.value(),
                ctx.advice(sampler)
            ))
        } else {
            Verdict::Usable
        });
    }
    if sampler == Sampler::TokenRejection {
        if let Trap::Found(d) = desert_trap(kind, &ctx.rules, TRAP_BUDGET) {
            let hexes: Vec<String> = (0..ctx.shape.len())
                .filter(|&h| d >> h & 1 == 1)
                .map(|h| (h + 1).to_string())
                .collect();
            return Ok(Verdict::Refused(format!(
                "{}: with the desert on hex {} no tokens meet the rules (exhaustive search), and it keeps \
                 the terrain it drew, so it would never finish such a board; {}, or use a sampler that \
                 redraws the terrain (full-rejection, sequential or swap)",
                head(),
                hexes.join(" and "),
                ctx.advice(sampler)
            )));
        }
    }
    let cap = ctx.cap(sampler);
    let per_stream = cap.div_ceil(PILOT_STREAMS);
    let streams = ground::seed::Streams::new(PILOT_SEED, "catan-pilot");
    let found = AtomicBool::new(false);
    let outcomes: Vec<std::result::Result<(), GaveUp>> = (0..PILOT_STREAMS)
        .into_par_iter()
        .map(|j| {
            if found.load(Ordering::Relaxed) {
                return Err(GaveUp::Interrupted);
            }
            let r = ctx.sample_within(sampler, &mut streams.item(j), per_stream, Some(&found));
            if r.is_ok() {
                found.store(true, Ordering::Relaxed);
            }
            r.map(|_| ())
        })
        .collect();
    if outcomes.iter().any(std::result::Result::is_ok) {
        return Ok(Verdict::Usable);
    }
    if ground::interrupt::requested() {
        return Err(Error::Interrupted);
    }
    let unit = if sampler == Sampler::Swap {
        "rounds of swaps"
    } else {
        "attempts"
    };
    Ok(Verdict::Refused(format!(
        "{}: it found none in {} {unit} at set-up ({PILOT_STREAMS} random streams), as many as the cap \
         allows one board ({}), so its boards would give up at the cap; {}",
        head(),
        per_stream * PILOT_STREAMS,
        if sampler == Sampler::Swap {
            "MAX_SWAP_ROUNDS"
        } else {
            "MAX_ATTEMPTS"
        },
        ctx.advice(sampler)
    )))
}
