//! `swap`: the Almanac's repair.

use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use super::{MAX_SWAPS, MAX_SWAP_ROUNDS};
use crate::board::DESERT;
use crate::rules::Setup;

/// The Almanac's repair: place at random, then swap offending pieces away.
pub struct Swap;

impl BoardSampler for Swap {
    fn name(&self) -> &'static str {
        "swap"
    }

    fn attempt_unit(&self) -> &'static str {
        "rounds of swaps"
    }

    fn default_cap(&self) -> u64 {
        MAX_SWAP_ROUNDS
    }

    /// Draw a uniform board, then repeatedly swap a randomly chosen offending token (or
    /// terrain) with the one on a random other hex until every rule holds.
    /// Each round (a fresh board and its swaps) is one attempt; the stop flag is looked
    /// at before every round.
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = ctx.n();
        let d = ctx.shape.deserts;
        let mut attempt = 0;
        loop {
            budget.spend()?;
            if attempt > 0 {
                budget.stopped()?;
            }
            attempt += 1;
            let mut perm = ctx.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, n);
            let mut b = Setup::default();
            ctx.put_tokens(&perm[..n], &mut b);
            let deserts = Ctx::mask(&perm[..d]);
            ctx.put_terrain(draws, deserts, &mut b);
            let harbors_first = ctx.rules.needs_harbors();
            if harbors_first {
                ctx.put_harbors(draws, &mut b);
            }
            let mut land = ((1u64 << n) - 1) as u32 & !deserts;
            for _ in 0..MAX_SWAPS {
                let (tok, ter) = ctx.rules.offenders(ctx.shape, &b);
                if tok | ter == 0 {
                    if !harbors_first {
                        ctx.put_harbors(draws, &mut b);
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
}
