//! A process-wide count of finished work, for machine-readable progress in unattended
//! runs (`run --json-log` reports it every few seconds). Long loops add to it as they
//! go, the same way they feed their progress bars; it costs one relaxed atomic add
//! per chunk of work.

use std::sync::atomic::{AtomicU64, Ordering};

static DONE: AtomicU64 = AtomicU64::new(0);

/// Count `n` more items (or samples) done.
#[inline]
pub fn add(n: u64) {
    DONE.fetch_add(n, Ordering::Relaxed);
}

/// Items done since the last [`reset`].
#[inline]
pub fn done() -> u64 {
    DONE.load(Ordering::Relaxed)
}

/// Start counting from zero (at the start of each output).
pub fn reset() {
    DONE.store(0, Ordering::Relaxed);
}

/// A rate for people: `count` things in `secs` seconds, as "1234/s", "2.5/s", or, below
/// one a second, "4.2 s each" (never a rate rounded down to "0/s").
pub fn rate(count: u64, secs: f64) -> String {
    if count == 0 {
        return "none made".into();
    }
    let per_second = count as f64 / secs.max(1e-9);
    if per_second >= 10.0 {
        format!("{per_second:.0}/s")
    } else if per_second >= 1.0 {
        format!("{per_second:.1}/s")
    } else {
        format!("{:.1} s each", secs / count as f64)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_below_one_a_second_are_times_each() {
        assert_eq!(super::rate(1234, 1.0), "1234/s");
        assert_eq!(super::rate(5, 2.0), "2.5/s");
        assert_eq!(super::rate(3, 12.6), "4.2 s each");
        assert_eq!(super::rate(1, 116.0), "116.0 s each");
        assert_eq!(super::rate(0, 3.0), "none made");
    }
}
