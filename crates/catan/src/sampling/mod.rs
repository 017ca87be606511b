//! The Catan sampler library: how boards are drawn, whether any board meets a rule set,
//! and how uniform each sampler really is.
//!
//! - [`samplers`]: the `BoardSampler` interface, one type per sampler, and the
//!   context ([`Ctx`]) they share (the board, the rules, the placement tables).
//! - [`direct`], [`exact`], [`counts`], `bounded`: the exact placement tables and the
//!   table-driven draws.
//! - `feasibility`: does any board meet the rules (`feasibility::decide`), and can a
//!   sampler draw such boards at a usable rate.
//! - [`bias`] and [`report`]: the sampler-bias study against exact expectations.
//!
//! The game ([`crate`]) draws through [`context`] and [`Ctx::sample`].

pub mod bias;
pub mod bias_stat;
pub(crate) mod bounded;
pub mod counts;
pub mod direct;
pub mod exact;
pub(crate) mod feasibility;
pub mod layers;
pub mod report;
pub mod samplers;

use crate::board::BoardKind;
use crate::fix;
use crate::rules::Rules;
pub use direct::BitDeposit;
use exact::{NoTable, PlacementTable};
use feasibility::pilot;
use ground::{Error, Result};
pub(crate) use samplers::GaveUp;
pub use samplers::{set_default_deposit, Ctx, Drawn, Sampler, ALL_SAMPLERS};

/// Build the sampling context, with the placement table when the sampler needs it.
///
/// Every use of Catan rules starts here (generate, books, bias, job files), so this is
/// where rules no board can meet are refused (`feasibility::decide`: an exhaustive
/// search or a search for a board, whose board is checked by
/// [`crate::verify_record`]) and where a sampler that could
/// not draw such boards in reasonable time is refused (`pilot::check`).
pub fn context(kind: BoardKind, rules: &Rules, sampler: Sampler) -> Result<Ctx> {
    context_with(kind, rules, &fix::Fixes::default(), sampler)
}

/// [`context`] with some hexes fixed (`--fix`): the fixes must fit the board, agree
/// with some board that meets the rules, and be drawn by `full-rejection` (the one
/// sampler that draws the rest uniformly among the valid completions).
pub fn context_with(
    kind: BoardKind,
    rules: &Rules,
    fixes: &fix::Fixes,
    sampler: Sampler,
) -> Result<Ctx> {
    if !fixes.is_empty() && !matches!(sampler, Sampler::FullRejection | Sampler::Counted) {
        return Err(Error::param(
            "fix",
            format!(
                "needs the full-rejection or the counted sampler, which draw the other hexes uniformly among the valid completions; {} cannot",
                sampler.name()
            ),
        ));
    }
    fixes.check(kind.shape())?;
    feasibility::decide(kind, rules, fixes)?;
    let mut ctx = table_context(kind, rules, sampler)?.with_fixes(fixes.clone());
    if sampler == Sampler::Counted {
        ctx.layers = Some(std::sync::Arc::new(counted_layers(kind, rules, fixes)?));
    }
    pilot::check(&ctx, sampler)?;
    Ok(ctx)
}

/// The counted layers of a rule set, or why the `counted` sampler cannot draw.
pub(crate) fn counted_layers(
    kind: BoardKind,
    rules: &Rules,
    fixes: &fix::Fixes,
) -> Result<layers::Layers> {
    let l = layers::Layers::build(kind, rules, fixes)
        .map_err(|e| e.into_error("the counted sampler cannot be used"))?;
    if l.count() == 0 {
        return Err(Error::invalid(format!(
            "no board can satisfy {rules} on the {} board",
            kind.name()
        )));
    }
    Ok(l)
}

/// [`context`] without the set-up checks.
fn table_context(kind: BoardKind, rules: &Rules, sampler: Sampler) -> Result<Ctx> {
    let shape = kind.shape();
    let table = match PlacementTable::build(shape, rules) {
        Ok(t) => Some(t),
        // A placement rule set nobody can meet is an error whatever the sampler.
        Err(e @ NoTable::NoBoard { .. }) => return Err(e.into()),
        Err(e @ NoTable::TooLarge { .. }) if sampler == Sampler::Direct => {
            return Err(Error::invalid(format!(
                "the direct sampler cannot be used: {e}"
            )))
        }
        Err(_) => None,
    };
    let ctx = Ctx::new(shape, rules.clone(), table);
    if ctx.table.is_some() || sampler != Sampler::Direct {
        return Ok(ctx);
    }
    // Later rules: direct draws the placement part exactly and checks the rest.
    match PlacementTable::build(shape, &rules.placement()) {
        Ok(t) => Ok(ctx.with_partial_table(t)),
        Err(e) => Err(Error::invalid(format!(
            "the direct sampler cannot be used: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests;
