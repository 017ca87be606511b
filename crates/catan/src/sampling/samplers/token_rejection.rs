//! `token-rejection`: the source article's method.

use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::rules::{holds, Rule, Setup};

/// The source article: terrain drawn once and kept, tokens redrawn until valid.
pub struct TokenRejection;

impl BoardSampler for TokenRejection {
    fn name(&self) -> &'static str {
        "token-rejection"
    }

    /// Terrain (and so the deserts) drawn once and kept; tokens redrawn until valid.
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = ctx.n();
        let d = ctx.shape.deserts;
        let mut attempts = 0;
        let mut b = Setup::default();
        // Terrain first, redrawn only for rules about terrain.
        let mut perm = loop {
            budget.spend()?;
            attempts += 1;
            let mut perm = ctx.identity();
            draws.shuffle_prefix(&mut perm[..n], 0, d);
            ctx.put_terrain(draws, Ctx::mask(&perm[..d]), &mut b);
            if ctx
                .rules
                .list()
                .iter()
                .filter(|r| matches!(r, Rule::SameTerrainApart | Rule::MaxCluster(_)))
                .all(|&r| holds(ctx.shape, &b, r))
            {
                break perm;
            }
        };
        let harbors_first = ctx.rules.needs_harbors();
        loop {
            draws.shuffle_prefix(&mut perm[..n], d, n);
            ctx.put_tokens(&perm[..n], &mut b);
            if harbors_first {
                ctx.put_harbors(draws, &mut b);
            }
            if ctx.rules.check(ctx.shape, &b) {
                if !harbors_first {
                    ctx.put_harbors(draws, &mut b);
                }
                return Ok(Drawn::new(b, attempts));
            }
            budget.spend()?;
            attempts += 1;
        }
    }
}
