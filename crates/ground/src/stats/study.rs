//! The plug-in point for statistics: a [`Study`] says how to count one item (or a
//! whole chunk of items) into counts that merge. The pipeline (`batch::study`, in the
//! crate above this one) owns the
//! parallel fan-out, the chunking, the stop requests and the progress; the game that
//! implements a study never sees a thread.
//!
//! Counts are integer sums (or maxima), so they come out the same in any order, at any
//! thread count, and from any split into shards: counts of shards merge into the
//! counts of the whole run, which is what makes part files possible.

use crate::shard::ShardIndices;
use crate::Result;
use serde::{de::DeserializeOwned, Serialize};

/// A statistic over the items of a run: empty counts, how one item adds to them, and
/// how two sets of counts merge.
///
/// A study of two dice over 60,000 seeded throws. The pipeline (`batch::study`) counts
/// the items of a shard in chunks, in parallel, and merges the counts; counting a
/// shard's items in one chunk here gives the same counts. They are the same at any
/// thread count and from any split into shards, because each throw draws from its own
/// stream ([`crate::seed::item_rng`]) and counts add.
///
/// ```
/// use puzzlebook_ground::{seed::item_rng, shard::Shard, stats::Study, Result};
/// use rand::Rng;
///
/// /// How often each total of two dice comes up.
/// struct TwoDice;
///
/// impl Study for TwoDice {
///     type Counts = Vec<u64>; // index: the total, 0 to 12
///     fn empty(&self) -> Vec<u64> {
///         vec![0; 13]
///     }
///     fn merge(&self, into: &mut Vec<u64>, other: Vec<u64>) {
///         for (a, b) in into.iter_mut().zip(other) {
///             *a += b;
///         }
///     }
///     fn count(&self, index: u64, counts: &mut Vec<u64>) -> Result<()> {
///         let mut rng = item_rng(1, "two-dice", index);
///         let total = rng.random_range(1..=6) + rng.random_range(1..=6);
///         counts[total] += 1;
///         Ok(())
///     }
/// }
///
/// # fn main() -> Result<()> {
/// // The counts of one shard of 60,000 throws.
/// let shard = |shard: Shard| -> Result<Vec<u64>> {
///     let mut counts = TwoDice.empty();
///     TwoDice.count_chunk(shard.indices(0, 60_000), &mut counts)?;
///     Ok(counts)
/// };
/// let all = shard(Shard::default())?;
/// assert_eq!(all.iter().sum::<u64>(), 60_000);
/// // Seven is the likeliest total (1 in 6), two and twelve the rarest (1 in 36).
/// assert!(all[7] > all[6] && all[7] > all[8] && all[2] < all[3]);
/// // Two shards of the run, merged, are the whole run.
/// let mut halves = TwoDice.empty();
/// for index in 0..2 {
///     TwoDice.merge(&mut halves, shard(Shard { index, count: 2 })?);
/// }
/// assert_eq!(halves, all);
/// # Ok(())
/// # }
/// ```
pub trait Study: Sync {
    /// Mergeable counts; a shard's counts are written into its part file (as JSON)
    /// and read back to be merged.
    type Counts: Send + Serialize + DeserializeOwned;

    /// Items counted per unit of parallel work: large enough that a chunk is well
    /// above the cost of scheduling it, small enough to stop and report promptly.
    fn chunk(&self) -> u64 {
        4096
    }

    /// Counts of no item.
    fn empty(&self) -> Self::Counts;

    /// Add `other` to `into`.
    fn merge(&self, into: &mut Self::Counts, other: Self::Counts);

    /// Count item `index` into `counts`.
    fn count(&self, index: u64, counts: &mut Self::Counts) -> Result<()>;

    /// Count every item of `indices` into `counts` (a chunk of one shard). The default
    /// counts them one at a time, looking for a stop request before each; a study with
    /// a faster way to count a whole chunk overrides it.
    fn count_chunk(&self, indices: ShardIndices, counts: &mut Self::Counts) -> Result<()> {
        for i in indices {
            crate::interrupt::check()?;
            self.count(i, counts)?;
        }
        Ok(())
    }
}
