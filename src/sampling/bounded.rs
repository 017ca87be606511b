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
pub fn piece<const BITS: u32>(x: u64, n: u64) -> Option<u64> {
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
pub fn piece_with<const BITS: u32>(x: u64, n: u64, threshold: u64) -> Option<u64> {
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
