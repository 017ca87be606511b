//! Lemire's bounded draw, the one way every Catan sampler turns random bits into a
//! uniform integer below a bound ("Fast random integer generation in an interval",
//! 2019).
//!
//! A piece x of `BITS` uniform bits times the bound n is a number of `BITS + log2 n`
//! bits: its high part, x * n >> BITS, is the drawn integer, and its low `BITS` bits
//! decide whether the piece is kept. Exactly 2^BITS mod n of the low words are too
//! small and give a biased share, so pieces whose low word is below that threshold are
//! thrown away and the next piece is used. The threshold takes a division, so it is
//! only worked out when the low word is below n (it is always smaller than n): rare for
//! small bounds.
//!
//! Callers choose the piece size (16, 32 or 64 bits) and where the next piece comes
//! from; the pieces used, and so the generator's stream, are exactly those of the
//! multiply-and-reject written out by hand.

use ground::seed::Rng;
use rand::RngCore;

/// 2^BITS mod n (for 1 <= n <= 2^BITS): products whose low word is below it are
/// rejected.
#[inline(always)]
pub fn threshold<const BITS: u32>(n: u64) -> u64 {
    debug_assert!(n >= 1 && (BITS == 64 || n <= 1 << (BITS % 64)));
    let max = if BITS == 64 {
        u64::MAX
    } else {
        (1u64 << (BITS % 64)) - 1
    };
    // (2^BITS - n) mod n, computed without overflow.
    (max - (n - 1)) % n
}

/// One piece `x` (below 2^BITS) tried against the bound `n` (1 <= n <= 2^BITS): the
/// integer below n it gives, or None when Lemire's test rejects it.
#[inline(always)]
pub(crate) fn piece<const BITS: u32>(x: u64, n: u64) -> Option<u64> {
    if BITS <= 32 {
        // x * n < 2^64: one 64-bit multiplication.
        let m = x * n;
        let low = m & ((1u64 << (BITS % 64)) - 1);
        if low < n && low < threshold::<BITS>(n) {
            return None;
        }
        Some(m >> (BITS % 64))
    } else {
        let m = u128::from(x) * u128::from(n);
        let low = (m as u64) & (u64::MAX >> (64 - BITS));
        if low < n && low < threshold::<BITS>(n) {
            return None;
        }
        Some((m >> BITS) as u64)
    }
}

/// [`piece`] for a bound used many times, with its [`threshold`] worked out once: the
/// same pieces kept, the same integers given, one comparison each.
#[inline(always)]
pub(crate) fn piece_with<const BITS: u32>(x: u64, n: u64, threshold: u64) -> Option<u64> {
    let m = u128::from(x) * u128::from(n);
    let low = (m as u64) & (u64::MAX >> (64 - BITS));
    (low >= threshold).then_some((m >> BITS) as u64)
}

/// A uniform integer below `n` (1 <= n <= 2^BITS): the piece `first`, then as many
/// pieces from `more` as Lemire's test rejects.
#[inline(always)]
pub fn below<const BITS: u32>(first: u64, n: u64, mut more: impl FnMut() -> u64) -> u64 {
    let mut x = first;
    loop {
        if let Some(v) = piece::<BITS>(x, n) {
            return v;
        }
        x = more();
    }
}

/// Bounded random integers from 32-bit halves of the generator's output (Lemire's
/// multiply-and-reject: exact, and about one multiplication per draw).
pub struct Draws<'a> {
    pub(crate) rng: &'a mut Rng,
    buf: u64,
    left: u32,
}

impl<'a> Draws<'a> {
    /// Draws from `rng`, starting with no buffered bits.
    pub(crate) fn new(rng: &'a mut Rng) -> Self {
        Draws {
            rng,
            buf: 0,
            left: 0,
        }
    }

    /// A uniform number below `n` (n >= 1) of up to 128 bits: the low bits of fresh
    /// 64-bit outputs, redrawn while not below `n` (fewer than two draws on average).
    #[inline]
    pub(crate) fn below_u128(&mut self, n: u128) -> u128 {
        let bits = 128 - (n - 1).leading_zeros();
        loop {
            let hi = if bits > 64 { self.rng.next_u64() } else { 0 };
            let lo = self.rng.next_u64();
            let x = (u128::from(hi) << 64 | u128::from(lo)) & (u128::MAX >> (128 - bits.max(1)));
            if x < n {
                return x;
            }
        }
    }

    #[inline(always)]
    fn next_u16(&mut self) -> u32 {
        if self.left == 0 {
            self.buf = self.rng.next_u64();
            self.left = 4;
        }
        self.left -= 1;
        let v = (self.buf & 0xffff) as u32;
        self.buf >>= 16;
        v
    }

    /// Uniform in 0..n (n >= 1): Lemire's multiply-and-reject on 16-bit pieces of the
    /// generator's output for small n (four draws per 64-bit number), 32-bit otherwise
    /// (two 16-bit pieces, the first one high).
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 0x1_0000 {
            let first = self.next_u16();
            below::<16>(u64::from(first), u64::from(n), || {
                u64::from(self.next_u16())
            }) as u32
        } else {
            let mut x = || u64::from((self.next_u16() << 16) | self.next_u16());
            let first = x();
            below::<32>(first, u64::from(n), x) as u32
        }
    }

    /// Fisher-Yates: make `v[from..]` a uniform random permutation, or only its first
    /// `k` places (each uniform among what is left). One 16-bit multiply per place.
    /// The hot paths use [`Draws::shuffle32`]; see docs/performance.md for the
    /// variants that were measured and dropped.
    #[inline(always)]
    pub(crate) fn shuffle_prefix<T>(&mut self, v: &mut [T], from: usize, k: usize) {
        let n = v.len();
        for i in from..(from + k).min(n.saturating_sub(1)) {
            let j = i + self.below((n - i) as u32) as usize;
            v.swap(i, j);
        }
    }

    /// [`Draws::shuffle_prefix`] on a 32-slot array holding `n` items: places
    /// `from..end` get uniform picks among `place..n`. Indices are masked (no bounds
    /// checks) and four picks come from each 64-bit number.
    #[inline(always)]
    pub(crate) fn shuffle32(&mut self, v: &mut [u8; 32], n: usize, from: usize, end: usize) {
        let end = end.min(n.saturating_sub(1));
        let mut i = from;
        while i < end {
            // Four 16-bit picks from one 64-bit number (exact: each pick is Lemire's
            // multiply-and-reject on its own 16 bits; a rare rejection draws afresh).
            let mut x = self.rng.next_u64();
            for _ in 0..4 {
                if i >= end {
                    break;
                }
                let n_i = (n - i) as u64;
                let j = below::<16>(x & 0xffff, n_i, || u64::from(self.next_u16()));
                x >>= 16;
                v.swap(i & 31, (i + j as usize) & 31);
                i += 1;
            }
        }
    }

    /// The index of a uniformly chosen set bit of `mask` (mask != 0).
    #[inline(always)]
    pub(crate) fn pick_bit(&mut self, mask: u32) -> usize {
        let mut k = self.below(mask.count_ones());
        let mut m = mask;
        while k > 0 {
            m &= m - 1;
            k -= 1;
        }
        m.trailing_zeros() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Over every piece of 12 and 16 bits, each integer below n is given equally
    /// often (2^BITS div n times), and exactly 2^BITS mod n pieces are rejected.
    #[test]
    fn pieces_are_exactly_uniform() {
        fn check<const BITS: u32>(n: u64) {
            let mut seen = vec![0u64; n as usize];
            let mut rejected = 0;
            for x in 0..1u64 << BITS {
                let p = piece::<BITS>(x, n);
                assert_eq!(piece_with::<BITS>(x, n, threshold::<BITS>(n)), p);
                match p {
                    Some(v) => seen[v as usize] += 1,
                    None => rejected += 1,
                }
            }
            assert_eq!(rejected, (1u64 << BITS) % n, "n = {n}");
            assert!(seen.iter().all(|&c| c == (1u64 << BITS) / n), "n = {n}");
        }
        for n in [1, 2, 3, 7, 30, 100, 1000, 4095, 4096] {
            check::<12>(n);
        }
        for n in [1, 3, 19, 3876, 50_000, 65_535, 65_536] {
            check::<16>(n);
        }
    }

    /// The threshold is 2^BITS mod n, also at the ends of the range.
    #[test]
    fn thresholds() {
        for n in [1u64, 2, 3, 5, 3876, 65_535, 65_536] {
            assert_eq!(threshold::<16>(n), (1 << 16) % n);
        }
        for n in [1u64, 3, 593_775, u32::MAX as u64, 1 << 32] {
            assert_eq!(threshold::<32>(n), (1 << 32) % n);
        }
        for n in [1u64, 3, 1 << 52, u64::MAX, (1 << 63) + 1] {
            assert_eq!(
                u128::from(threshold::<64>(n)),
                (1u128 << 64) % u128::from(n)
            );
        }
    }

    /// 64-bit pieces: kept exactly when x * n mod 2^64 is at least the threshold,
    /// checked on pieces made to land just above and below it.
    #[test]
    fn wide_pieces_follow_the_threshold() {
        for n in [3u64, 532 * 15 * 6, (1 << 52) - 7, u64::MAX / 3] {
            let t = threshold::<64>(n);
            for j in 0..1000u64 {
                let k = u128::from(j.wrapping_mul(0x9e37_79b9_7f4a_7c15) % n);
                for x in [
                    ((k << 64) / u128::from(n)) as u64,
                    ((k << 64) / u128::from(n)) as u64 + 1,
                ] {
                    let m = u128::from(x) * u128::from(n);
                    let want = (m as u64 >= t).then_some((m >> 64) as u64);
                    assert_eq!(piece::<64>(x, n), want, "n = {n}, x = {x}");
                }
            }
        }
    }

    /// A rejected piece is followed by the next ones, in order, and nothing else.
    #[test]
    fn rejections_take_the_next_pieces() {
        // 16-bit pieces against n = 3876: 2^16 mod 3876 = 3520, so x = 0
        // and x = 17 (low word 356) are rejected.
        let mut next = [0u64, 17, 40_000].into_iter();
        let v = below::<16>(next.next().unwrap(), 3876, || next.next().unwrap());
        assert_eq!(v, (40_000 * 3876) >> 16);
        assert_eq!(next.next(), None);
    }
}
