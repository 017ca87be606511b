//! Stopping cleanly on Ctrl-C: the first signal asks long loops to stop at their next
//! check (between chunks of items, between outputs); they return
//! [`crate::Error::Interrupted`], unfinished files are dropped (never renamed into
//! place), and the binary exits with status 130. The binary installs the handler;
//! the library only reads the flag.

use std::sync::atomic::{AtomicBool, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);

/// Ask running work to stop.
pub fn request() {
    STOP.store(true, Ordering::SeqCst);
}

pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once a stop was asked for.
pub fn check() -> crate::Result<()> {
    if requested() {
        Err(crate::Error::Interrupted)
    } else {
        Ok(())
    }
}
