//! `best-of-N`: the most balanced of N uniform boards.

use super::{best_of_name, Direct, FullRejection};
use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::rules::Setup;

/// Draw N valid boards uniformly (with `direct` where it applies, else
/// `full-rejection`) and keep the one with the lowest balance score.
pub struct BestOf(pub u16);

impl BoardSampler for BestOf {
    fn name(&self) -> &'static str {
        best_of_name(self.0)
    }

    /// N boards from the exact sampler that applies (`direct`, else
    /// `full-rejection`), the one with the lowest balance score kept (the first on a
    /// tie). Attempts add up over the N.
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let mut best: Option<(f64, Setup)> = None;
        let mut attempts = 0;
        for _ in 0..self.0 {
            let d = if ctx.has_direct() {
                Direct.draw(ctx, draws, budget)?
            } else {
                FullRejection.draw(ctx, draws, budget)?
            };
            attempts += d.attempts;
            let score = crate::balance::score(ctx.shape, &d.layout);
            if best.as_ref().is_none_or(|(s, _)| score < *s) {
                best = Some((score, d.layout));
            }
        }
        let (_, layout) = best.expect("N is at least 2");
        Ok(Drawn::new(layout, attempts))
    }
}
