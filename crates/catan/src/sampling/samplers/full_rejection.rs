//! `full-rejection`: whole boards drawn until one meets the rules (uniform over valid
//! boards), drawn in stages so that a rejected board stops early.

use super::super::direct::Plan;
use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::board::DESERT;
use crate::fix::Free;
use crate::rules::{holds, independent, Setup};

/// Draw the whole board; throw it away if invalid. Uniform over valid boards.
pub struct FullRejection;

impl BoardSampler for FullRejection {
    fn name(&self) -> &'static str {
        "full-rejection"
    }

    /// Under placement rules only, the mask form of `direct`'s stages (see `direct`).
    fn mask_plan<'a>(&self, ctx: &'a Ctx) -> Option<&'a Plan> {
        ctx.rejection_plan
            .get_or_init(|| {
                let t = ctx.table.as_ref()?;
                Some(Plan::full_rejection(ctx.shape, t).with_deposit(ctx.deposit))
            })
            .as_ref()
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
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        if let Some(plan) = self.mask_plan(ctx) {
            return Ok(Ctx::drawn(plan, plan.draw(draws.rng)));
        }
        let red_subsets = ctx.red_subsets.get_or_init(|| {
            let mut v = Vec::new();
            crate::sampling::exact::subsets(((1u64 << ctx.n()) - 1) as u32, ctx.reds, &mut |m| {
                v.push((m, !ctx.rules.red_apart() || independent(ctx.shape, m)));
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
            if let Some(mut drawn) = ctx.complete(draws, reds) {
                drawn.attempts = attempt;
                return Ok(drawn);
            }
        }
    }
}

impl Ctx {
    /// Whole-board rejection with some hexes fixed: the free deserts, tokens and
    /// terrains drawn uniformly onto their free places (why this is uniform among the
    /// completions: see `fix.rs`), the board drawn again while it breaks a rule. Rules
    /// about tokens alone are checked before the terrain is drawn (stopping early
    /// rejects the same boards). Every sampler draws this way with fixes; `context`
    /// allows only `full-rejection`, the one it is exactly.
    pub(super) fn fixed_rejection(
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
}

impl Ctx {
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
}
