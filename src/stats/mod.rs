//! Statistics state that merges: counters added across threads, shards and runs.
//! Only counts live here, never per-item rows, so memory does not grow with a run.

use std::collections::BTreeMap;

/// Counts by label (for example, why generation attempts were rejected).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    counts: BTreeMap<String, u64>,
}

impl Tally {
    pub fn add(&mut self, label: &str, n: u64) {
        if n == 0 {
            return;
        }
        match self.counts.get_mut(label) {
            Some(c) => *c += n,
            None => {
                self.counts.insert(label.to_string(), n);
            }
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        for (label, &n) in &other.counts {
            self.add(label, n);
        }
    }

    pub fn get(&self, label: &str) -> u64 {
        self.counts.get(label).copied().unwrap_or(0)
    }

    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.counts.iter().map(|(k, &v)| (k.as_str(), v))
    }

    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_counts_and_is_order_independent() {
        let mut a = Tally::default();
        a.add("x", 2);
        a.add("y", 1);
        let mut b = Tally::default();
        b.add("y", 4);
        b.add("z", 0);
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.get("y"), 5);
        assert_eq!(ab.total(), 7);
        assert_eq!(ab.to_string(), "x: 2, y: 5");
    }
}
