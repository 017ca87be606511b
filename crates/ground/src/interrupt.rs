//! Stopping cleanly on Ctrl-C (SIGINT), SIGTERM or SIGHUP: the first signal asks all
//! work to stop; long loops look at the flag between items, between attempts and
//! inside long searches (every thousand nodes or so), so a stop takes well under a
//! second. They return [`crate::Error::Interrupted`], unfinished files are dropped
//! (never renamed into place), and the binary exits with 128 + the signal's number
//! (130 for SIGINT, 143 for SIGTERM). The binary installs the handler; the library
//! only reads the flag.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static STOP: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// SIGINT's number, the signal assumed when a stop is asked for without one.
pub const SIGINT: i32 = 2;

/// Ask running work to stop (as after Ctrl-C).
pub fn request() {
    request_by(SIGINT);
}

/// Ask running work to stop because of signal `signal`.
pub fn request_by(signal: i32) {
    let _ = SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    STOP.store(true, Ordering::SeqCst);
}

/// True once a stop was requested; long loops poll this and wind down.
#[inline]
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The signal that asked for the stop (SIGINT when none was named; 0 before any).
pub fn signal() -> i32 {
    SIGNAL.load(Ordering::SeqCst)
}

/// The exit status after a stop: 128 + the signal's number.
pub fn exit_status() -> u8 {
    let s = match signal() {
        0 => SIGINT,
        s => s,
    };
    u8::try_from(128 + s).unwrap_or(130)
}

/// `Err(Interrupted)` once a stop was asked for.
#[inline]
pub fn check() -> crate::Result<()> {
    if requested() {
        Err(crate::Error::Interrupted)
    } else {
        Ok(())
    }
}
