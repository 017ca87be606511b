//! `retry-restart`: what popular web generators do.

use super::RETRIES;
use super::{BoardSampler, Budget, Ctx, Drawn, Draws, GaveUp};
use crate::board::DESERT;
use crate::rules::{Rule, Setup};

/// What popular web generators do: hex by hex, a random piece from those left,
/// up to `RETRIES` picks per hex; when all break a rule with the pieces placed
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

/// Whether some hex of `mask` makes `clash` true.
#[inline(always)]
fn any_of(mut mask: u32, mut clash: impl FnMut(usize) -> bool) -> bool {
    while mask != 0 {
        if clash(mask.trailing_zeros() as usize) {
            return true;
        }
        mask &= mask - 1;
    }
    false
}

impl Ctx {
    /// Whether terrain `t` on hex `h` keeps the apart rules with the hexes `placed`.
    /// A rule judges `t` at all only if `t` clashes with itself (every apart rule's
    /// clash is "both in its class" or "equal"), so the neighbours are read only then.
    #[inline]
    fn terrain_fits(&self, b: &Setup, placed: u32, h: usize, t: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        !self
            .rules
            .list()
            .iter()
            .any(|r| r.terrains_clash(t, t) && any_of(near, |j| r.terrains_clash(t, b.terrain[j])))
    }

    /// Whether token `v` on hex `h` keeps the apart rules with the tokens `placed`
    /// (neighbours read only for the rules that judge `v`, as for terrains), and
    /// number-resource-apart with the tokens placed on its resource.
    #[inline]
    fn token_fits(&self, b: &Setup, placed: u32, h: usize, v: u8) -> bool {
        let near = self.shape.neighbours[h] & placed;
        let apart = self
            .rules
            .list()
            .iter()
            .any(|r| r.tokens_clash(v, v) && any_of(near, |j| r.tokens_clash(v, b.token[j])));
        if apart {
            return false;
        }
        if self.rules.has(Rule::NumberResourceApart) {
            let same_resource = (0..self.n())
                .filter(|&j| placed >> j & 1 == 1 && b.terrain[j] == b.terrain[h])
                .fold(0u32, |m, j| m | 1 << j);
            let clash = |j: usize| Rule::numbers_clash_on_resource(b.token[j], v);
            return !any_of(same_resource, clash);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardKind;
    use crate::rules::tests::random_board;
    use crate::rules::{holds, Rules};
    use rand::SeedableRng;

    #[test]
    fn placing_hex_by_hex_agrees_with_checking_the_whole_board() {
        // What retry-restart checks as it places each piece (against the pieces
        // placed so far) must, over a whole board placed in hex order, be exactly the
        // apart rules checked on the finished board.
        let mut rng = ground::seed::Rng::seed_from_u64(5);
        // (Number-resource-apart cannot be met on the extended board: its six red
        // tokens share five resources.)
        let cases = [
            (BoardKind::Base, "red-apart,2-12-apart,same-number-apart"),
            (BoardKind::Base, "same-terrain-apart"),
            (BoardKind::Base, "number-resource-apart"),
            (BoardKind::Base, "max-cluster=1"),
            (
                BoardKind::Extended,
                "red-apart,2-12-apart,same-number-apart",
            ),
            (BoardKind::Extended, "max-cluster=1"),
        ];
        for (kind, rules) in cases {
            let rules: Rules = rules.parse().unwrap();
            let ctx = Ctx::new(kind.shape(), rules.clone(), None);
            let n = ctx.shape.len();
            let (mut met, mut broken) = (0, 0);
            for k in 0..1000 {
                // Shuffled boards mostly break the rules; whole boards drawn until
                // they meet them (full-rejection) do.
                let b = if k % 100 == 0 {
                    let full = super::super::Sampler::FullRejection;
                    ctx.sample(full, &mut rng).unwrap().layout
                } else {
                    random_board(ctx.shape, &mut rng)
                };
                let terrain_ok =
                    (0..n).all(|h| ctx.terrain_fits(&b, (1u32 << h) - 1, h, b.terrain[h]));
                let land = |h: usize| b.terrain[h] != DESERT;
                let tokens_ok = (0..n).filter(|&h| land(h)).all(|h| {
                    let before = (0..h).filter(|&j| land(j)).fold(0u32, |m, j| m | 1 << j);
                    ctx.token_fits(&b, before, h, b.token[h])
                });
                let whole = rules.list().iter().all(|&r| holds(ctx.shape, &b, r));
                assert_eq!(terrain_ok && tokens_ok, whole, "{rules} {b:?}");
                if whole {
                    met += 1;
                } else {
                    broken += 1;
                }
            }
            assert!(met > 0 && broken > 0, "{rules}: {met} met, {broken} broken");
        }
    }
}
