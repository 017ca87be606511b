//! `sequential`: reds (and 2s and 12s) placed one at a time.

use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::rules::Setup;

/// Place reds (and 2s and 12s) one at a time on hexes allowed so far.
pub struct Sequential;

impl BoardSampler for Sequential {
    fn name(&self) -> &'static str {
        "sequential"
    }

    /// Deserts at random; then each red on a random hex not next to a red placed so far
    /// (and each 2 and 12 likewise, with 2-12-apart); the rest at random. A dead end
    /// (no allowed hex left) or a broken late rule starts again.
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = ctx.n();
        let d = ctx.shape.deserts;
        let all = ((1u64 << n) - 1) as u32;
        let mut attempt = 0;
        'attempt: loop {
            budget.spend()?;
            attempt += 1;
            let mut perm = ctx.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, d);
            let mut used = Ctx::mask(&perm[..d]);
            let mut placed = d;
            for (count, apart) in [
                (ctx.reds, ctx.rules.red_apart()),
                (ctx.extremes, ctx.rules.two_twelve_apart()),
            ] {
                let mut group = 0u32;
                for _ in 0..count {
                    let mut allowed = all & !used;
                    if apart {
                        for h in (0..n).filter(|&h| group >> h & 1 == 1) {
                            allowed &= !ctx.shape.neighbours[h];
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
            ctx.put_tokens(&perm[..n], &mut b);
            ctx.put_terrain(draws, Ctx::mask(&perm[..d]), &mut b);
            let harbors_first = ctx.rules.needs_harbors();
            if harbors_first {
                ctx.put_harbors(draws, &mut b);
            }
            if !ctx.rules.check(ctx.shape, &b) {
                continue;
            }
            if !harbors_first {
                ctx.put_harbors(draws, &mut b);
            }
            return Ok(Drawn::new(b, attempt));
        }
    }
}
