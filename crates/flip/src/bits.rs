//! A fixed-length bit vector over GF(2): boards, move masks and matrix rows.

/// A fixed number of bits, packed 64 to a word; bits past `len` stay 0.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bits {
    len: usize,
    words: Vec<u64>,
}

impl Bits {
    /// `len` bits, all 0.
    pub fn zeros(len: usize) -> Self {
        Bits {
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// The number of bits (not of ones).
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no bits at all (`len` is 0).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bit `i`; panics if `i` is past the last word.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Set bit `i` to `v`.
    #[inline]
    pub fn set(&mut self, i: usize, v: bool) {
        let m = 1u64 << (i % 64);
        if v {
            self.words[i / 64] |= m;
        } else {
            self.words[i / 64] &= !m;
        }
    }

    /// Flip bit `i`.
    #[inline]
    pub(crate) fn toggle(&mut self, i: usize) {
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// `self ^= other` (GF(2) addition); both have the same length.
    #[inline]
    pub fn xor_assign(&mut self, other: &Bits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a ^= b;
        }
    }

    /// The number of ones.
    pub fn count_ones(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// True when every bit is 0.
    pub(crate) fn is_zero(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Parity of the bitwise AND (the GF(2) dot product).
    pub fn dot(&self, other: &Bits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .fold(0u32, |acc, (a, b)| acc ^ (a & b).count_ones())
            & 1
            == 1
    }

    /// Indices of the set bits, ascending.
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_operations() {
        let mut a = Bits::zeros(130);
        a.set(0, true);
        a.set(64, true);
        a.toggle(129);
        assert_eq!(a.ones().collect::<Vec<_>>(), vec![0, 64, 129]);
        let mut b = a.clone();
        b.set(64, false);
        assert!(!a.dot(&Bits::zeros(130)));
        assert!(a.dot(&b) == (2 % 2 == 1));
        b.xor_assign(&a);
        assert_eq!(b.ones().collect::<Vec<_>>(), vec![64]);
        assert_eq!(a.count_ones(), 3);
    }
}
