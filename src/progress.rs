//! A process-wide count of finished work, for machine-readable progress in unattended
//! runs (`run --json-log` reports it every few seconds). Long loops add to it as they
//! go, the same way they feed their progress bars; it costs one relaxed atomic add
//! per chunk of work.

use std::sync::atomic::{AtomicU64, Ordering};

static DONE: AtomicU64 = AtomicU64::new(0);

/// Count `n` more items (or samples) done.
pub fn add(n: u64) {
    DONE.fetch_add(n, Ordering::Relaxed);
}

/// Items done since the last [`reset`].
pub fn done() -> u64 {
    DONE.load(Ordering::Relaxed)
}

/// Start counting from zero (at the start of each output).
pub fn reset() {
    DONE.store(0, Ordering::Relaxed);
}
