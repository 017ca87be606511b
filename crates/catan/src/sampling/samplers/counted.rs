//! `counted`: boards drawn from the exact counts of the rule set's layers (see
//! [`crate::sampling::layers`]): a desert place by its number of valid boards, then
//! each layer's valid arrangement uniformly. No whole board is rejected unless both
//! layers have rules and a rule ties tokens to terrain.

use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};

/// Draw from the counted layers.
pub struct Counted;

impl BoardSampler for Counted {
    fn name(&self) -> &'static str {
        "counted"
    }

    /// One board from the layers `context` counted (it refuses `counted` where the
    /// layers cannot be counted). Attempts are the redraws the tying rules made.
    #[inline]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let layers = ctx
            .layers
            .as_ref()
            .expect("the counted sampler has its layers");
        budget.spend()?;
        let (layout, attempts) = layers.draw(draws);
        Ok(Drawn::new(layout, attempts))
    }
}
