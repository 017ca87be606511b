//! Shards: part `index` of `count` of a run, the items whose index i has
//! i mod count == index. Every floor that splits work uses these (games' statistics,
//! the pipeline, part files), so they sit below the games.

use crate::{Error, Result};

/// Part `index` of `count`: the items whose index i has i mod count == index.
///
/// Written `K/N` on the command line (`--shard 1/3`). The shards of a run cover its
/// items once each:
///
/// ```
/// use puzzlebook_ground::shard::Shard;
///
/// let second: Shard = "1/3".parse()?;
/// assert_eq!(second.indices(0, 10).collect::<Vec<_>>(), [1, 4, 7]);
/// assert_eq!(second.len(0, 10), 3);
/// // Together the three parts are every item, each once.
/// let mut all: Vec<u64> = (0..3)
///     .flat_map(|index| Shard { index, count: 3 }.indices(0, 10))
///     .collect();
/// all.sort_unstable();
/// assert_eq!(all, (0..10).collect::<Vec<_>>());
/// // A part past the count is a clear error.
/// assert!("3/3".parse::<Shard>().is_err());
/// # Ok::<(), puzzlebook_ground::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which part this is, from 0 to `count - 1`.
    pub index: u64,
    /// How many parts the run is cut into (at least 1).
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = || {
            Error::invalid(format!(
                "shard '{s}' should be K/N with 0 <= K < N, like 0/4"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The first index of this shard at or after `first` (None past the end of u64).
    fn start(&self, first: u64) -> Option<u64> {
        let offset = (self.index as u128 + self.count as u128 - (first % self.count) as u128)
            % self.count as u128;
        first.checked_add(offset as u64)
    }

    /// The indices of this shard among `first .. first + count` (callers make sure
    /// that the last one, `first + count - 1`, fits in a u64; see [`check_range`]).
    #[inline]
    pub fn indices(&self, first: u64, count: u64) -> ShardIndices {
        let last = count.checked_sub(1).and_then(|c| first.checked_add(c));
        ShardIndices {
            next: last.and(self.start(first)),
            last: last.unwrap_or(0),
            step: self.count,
        }
    }

    /// How many indices [`Shard::indices`] gives, without walking them.
    #[inline]
    pub fn len(&self, first: u64, count: u64) -> u64 {
        let last = count.checked_sub(1).and_then(|c| first.checked_add(c));
        match (self.start(first), last) {
            (Some(start), Some(last)) if start <= last => (last - start) / self.count + 1,
            _ => 0,
        }
    }
}

/// The indices of one shard, in increasing order (the last index of a u64 included).
#[derive(Debug, Clone)]
pub struct ShardIndices {
    next: Option<u64>,
    last: u64,
    step: u64,
}

impl Iterator for ShardIndices {
    type Item = u64;
    #[inline]
    fn next(&mut self) -> Option<u64> {
        let i = self.next.filter(|&i| i <= self.last)?;
        self.next = i.checked_add(self.step);
        Some(i)
    }
}

/// Item indices `first ..= first + count - 1` must fit in a u64 (the last index,
/// 2^64 - 1, included).
pub fn check_range(first: u64, count: u64) -> Result<()> {
    match first.checked_add(count.saturating_sub(1)) {
        Some(_) => Ok(()),
        None => Err(Error::invalid(format!(
            "first {first} and count {count} go past the last index, 2^64 - 1: the last item would be {first} + {count} - 1"
        ))),
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_indices() {
        for n in 1..=7u64 {
            let mut all: Vec<u64> = (0..n)
                .flat_map(|k| {
                    Shard { index: k, count: n }
                        .indices(5, 40)
                        .collect::<Vec<_>>()
                })
                .collect();
            all.sort_unstable();
            assert_eq!(all, (5..45).collect::<Vec<_>>());
            for k in 0..n {
                let s = Shard { index: k, count: n };
                assert_eq!(s.len(5, 40), s.indices(5, 40).count() as u64);
                assert_eq!(s.len(5, 0), 0);
                assert!(Shard { index: k, count: n }
                    .indices(5, 40)
                    .all(|i| i % n == k));
            }
        }
        // The last index of a u64 is an index like any other.
        let whole = Shard::default();
        assert_eq!(whole.indices(u64::MAX, 1).collect::<Vec<_>>(), [u64::MAX]);
        assert_eq!(whole.len(u64::MAX, 1), 1);
        assert_eq!(
            whole.indices(u64::MAX - 2, 3).collect::<Vec<_>>(),
            [u64::MAX - 2, u64::MAX - 1, u64::MAX]
        );
        let odd = Shard { index: 1, count: 2 };
        assert_eq!(
            odd.indices(u64::MAX - 3, 4).collect::<Vec<_>>(),
            [u64::MAX - 2, u64::MAX]
        );
        assert_eq!(odd.len(u64::MAX - 3, 4), 2);
        assert!(check_range(u64::MAX, 1).is_ok());
        assert!(check_range(u64::MAX, 2).is_err());
        assert_eq!(whole.indices(7, 0).count(), 0);
        assert!("3/2".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
        assert_eq!(
            "1/3".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 3 }
        );
    }
}
