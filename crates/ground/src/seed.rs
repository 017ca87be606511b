//! Seeds: every item of a run gets its own random stream derived from
//! (master seed, game name, item index), so the output never depends on how items are
//! scheduled across threads or shards, and item i of a short run equals item i of a long one.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random number generator every game receives.
pub type Rng = Xoshiro256PlusPlus;

/// The master seed used when the user gives none (documented in docs/guide.md).
pub const DEFAULT_SEED: u64 = 2026;

/// SplitMix64's output function: a bijective mixer with good avalanche.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// FNV-1a of the game name, so that two games with the same seed and index draw
/// unrelated streams.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The streams of one run (master seed and game): the part of the derivation that
/// does not depend on the item is done once.
#[derive(Debug, Clone, Copy)]
pub struct Streams {
    base: u64,
}

impl Streams {
    /// The streams of `game`'s items under the master seed.
    #[inline]
    pub fn new(master: u64, game: &str) -> Streams {
        // Chain the inputs through the mixer; each step is a bijection of the previous
        // state plus the next input, so distinct triples give distinct keys in practice.
        Streams {
            base: mix64(mix64(master) ^ name_hash(game)),
        }
    }

    /// The independent stream of item `index`.
    #[inline]
    pub fn item(&self, index: u64) -> Rng {
        let key = mix64(self.base.wrapping_add(index.wrapping_mul(GOLDEN_GAMMA)));
        // Expand the key into Xoshiro's 256-bit state with the SplitMix64 sequence.
        let mut state = [0u8; 32];
        let mut s = key;
        for chunk in state.chunks_exact_mut(8) {
            s = s.wrapping_add(GOLDEN_GAMMA);
            chunk.copy_from_slice(&mix64(s).to_le_bytes());
        }
        Rng::from_seed(state)
    }
}

/// The independent stream of item `index` of `game` in a run with `master` seed.
///
/// Every item draws from its own stream, so item 7 is the same whether it is made
/// first or last, alone or among a million, on one thread or many:
///
/// ```
/// use puzzlebook_ground::seed::item_rng;
/// use rand::Rng;
///
/// let roll = |index| item_rng(2026, "dice", index).random_range(1..=6u8);
/// // The same (seed, game, index) always draws the same.
/// assert_eq!(roll(7), roll(7));
/// // Another game with the same seed and index draws from an unrelated stream.
/// let mut a = item_rng(2026, "dice", 7);
/// let mut b = item_rng(2026, "coins", 7);
/// assert_ne!(a.random::<u64>(), b.random::<u64>());
/// ```
#[inline]
pub fn item_rng(master: u64, game: &str, index: u64) -> Rng {
    Streams::new(master, game).item(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: u64 = item_rng(1, "flip", 0).random();
        let b: u64 = item_rng(1, "flip", 0).random();
        assert_eq!(a, b);
        let others = [
            item_rng(1, "flip", 1).random::<u64>(),
            item_rng(2, "flip", 0).random::<u64>(),
            item_rng(1, "catan", 0).random::<u64>(),
        ];
        assert!(others.iter().all(|&o| o != a));
    }

    #[test]
    fn neighbouring_indices_look_independent() {
        // Bits of the first draw of consecutive items should be balanced.
        let ones: u32 = (0..4096)
            .map(|i| item_rng(7, "flip", i).random::<u64>().count_ones())
            .sum();
        let mean = f64::from(ones) / 4096.0;
        assert!((mean - 32.0).abs() < 0.5, "mean popcount {mean}");
    }
}
