//! The plug-in point for statistics: a [`Study`] says how to count one item (or a
//! whole chunk of items) into counts that merge. The pipeline (`batch::study`) owns the
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
