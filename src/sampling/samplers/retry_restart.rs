//! `retry-restart`: what popular web generators do.

use super::RETRIES;
use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::games::catan::board::{is_red, DESERT};
use crate::games::catan::rules::{Rule, Setup};

/// What popular web generators do: hex by hex, a random piece from those left,
/// up to [`RETRIES`] picks per hex; when all break a rule with the pieces placed
/// so far, start the board again.
pub struct RetryRestart;

impl BoardSampler for RetryRestart {
    fn name(&self) -> &'static str {
        "retry-restart"
    }

    /// Hex by hex in number order, first the terrain (deserts included), then the
    /// harbors, then the tokens: each hex gets a random piece from those left, checked
    /// against the pieces already placed (neighbours for the apart rules, the same
    /// resource for number-resource-apart); after [`RETRIES`] failed picks the board
    /// is started again, and so it is when the finished board breaks a rule no
    /// placement checks (corner and cluster limits, resource pips, harbors). Each
    /// start is one attempt.
    #[inline(always)]
    fn draw(&self, ctx: &Ctx, draws: &mut Draws, budget: &mut Budget) -> Result<Drawn, GaveUp> {
        let n = ctx.n();
        let mut attempt = 0;
        'board: loop {
            budget.spend()?;
            attempt += 1;
            let mut b = Setup::default();
            let mut pool = [0u8; 32];
            let m = ctx.shape.terrains.len();
            pool[..m].copy_from_slice(&ctx.shape.terrains);
            for slot in &mut pool[m..m + ctx.shape.deserts] {
                *slot = DESERT;
            }
            let mut placed = 0u32;
            let terrain_placed = retry_each(draws, &mut pool, n, 0..n, |h, t| {
                let fits = ctx.terrain_fits(&b, placed, h, t);
                if fits {
                    b.terrain[h] = t;
                    placed |= 1 << h;
                }
                fits
            });
            if !terrain_placed {
                continue 'board;
            }
            ctx.put_harbors(draws, &mut b);
            let m = ctx.shape.tokens.len();
            pool[..m].copy_from_slice(&ctx.shape.tokens);
            let land = (0..n)
                .filter(|&h| b.terrain[h] != DESERT)
                .fold(0u32, |a, h| a | 1 << h);
            let mut placed = 0u32;
            let tokens_placed = retry_each(
                draws,
                &mut pool,
                m,
                (0..n).filter(|&h| land >> h & 1 == 1),
                |h, v| {
                    let fits = ctx.token_fits(&b, placed, h, v);
                    if fits {
                        b.token[h] = v;
                        placed |= 1 << h;
                    }
                    fits
                },
            );
            if !tokens_placed {
                continue 'board;
            }
            if ctx.rules.check(ctx.shape, &b) {
                return Ok(Drawn::new(b, attempt));
            }
        }
    }
}

impl Ctx {
    /// Whether terrain `t` on hex `h` keeps the apart rules with the hexes `placed`.
    fn terrain_fits(&self, b: &Setup, placed: u32, h: usize, t: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        let same = (0..self.n()).any(|j| near >> j & 1 == 1 && b.terrain[j] == t);
        !(same
            && (self.rules.has(Rule::SameTerrainApart)
                || (t != DESERT && self.rules.has(Rule::MaxCluster(1)))))
    }
}

impl Ctx {
    /// Whether token `v` on hex `h` keeps the apart rules with the tokens `placed`.
    fn token_fits(&self, b: &Setup, placed: u32, h: usize, v: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        let clash =
            |f: &dyn Fn(u8) -> bool| (0..self.n()).any(|j| near >> j & 1 == 1 && f(b.token[j]));
        if self.rules.red_apart() && is_red(v) && clash(&is_red) {
            return false;
        }
        let extreme = |x: u8| x == 2 || x == 12;
        if self.rules.two_twelve_apart() && extreme(v) && clash(&extreme) {
            return false;
        }
        if self.rules.has(Rule::SameNumberApart) && clash(&|x| x == v) {
            return false;
        }
        if self.rules.has(Rule::NumberResourceApart) {
            let same_resource =
                (0..self.n()).filter(|&j| placed >> j & 1 == 1 && b.terrain[j] == b.terrain[h]);
            for j in same_resource {
                let w = b.token[j];
                if w == v || (is_red(w) && is_red(v)) {
                    return false;
                }
            }
        }
        true
    }
}

/// For each hex of `hexes` in turn, up to [`RETRIES`] random picks from the
/// `left` pieces at the front of `pool`, until `try_put` takes one (it is then moved
/// out of the pool); false as soon as a hex takes none.
fn retry_each(
    draws: &mut Draws,
    pool: &mut [u8; 32],
    mut left: usize,
    hexes: impl Iterator<Item = usize>,
    mut try_put: impl FnMut(usize, u8) -> bool,
) -> bool {
    for h in hexes {
        let taken = (0..RETRIES).any(|_| {
            let k = draws.below(left as u32) as usize;
            let put = try_put(h, pool[k]);
            if put {
                pool.swap(k, left - 1);
                left -= 1;
            }
            put
        });
        if !taken {
            return false;
        }
    }
    true
}
