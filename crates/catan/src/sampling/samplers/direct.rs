//! `direct`: a valid placement drawn from the enumerated table, the rest filled in.

use super::super::direct::Plan;
use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};

/// Pick a valid placement uniformly from the enumerated table, fill the rest.
pub struct Direct;

impl BoardSampler for Direct {
    fn name(&self) -> &'static str {
        "direct"
    }

    /// With the whole rules' table, the plan it draws with.
    fn mask_plan<'a>(&self, ctx: &'a Ctx) -> Option<&'a Plan> {
        ctx.table.as_ref()?;
        ctx.plan()
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
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        // `context` refuses the direct sampler without a table, so there is a plan.
        let plan = ctx
            .plan()
            .expect("the direct sampler has its placement table");
        if ctx.table.is_some() {
            return Ok(Ctx::drawn(plan, plan.draw(draws.rng)));
        }
        let mut attempts = 0;
        loop {
            budget.spend()?;
            attempts += 1;
            let layout = plan.layout(&plan.draw(draws.rng));
            if ctx.rules.check_late(ctx.shape, &layout) {
                return Ok(Drawn::new(layout, attempts));
            }
        }
    }
}
