//! A run's log on standard error: one line an event, or a ticker of progress.

use super::*;

/// How progress is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogStyle {
    /// One line per event on standard error.
    #[default]
    Text,
    /// One JSON object per event on standard error.
    Json,
}

/// Where a run's events go (standard error, in the chosen style).
pub(super) struct Log {
    pub(super) style: LogStyle,
}

/// Progress events of one output while it is being made (JSON log only): every
/// few seconds `{"event":"progress","output":...,"done":N,"total":T}` from
/// [`crate::progress`]. Stops when dropped.
pub(crate) struct Ticker {
    pub(super) stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Seconds between progress events (PUZZLEBOOK_PROGRESS_SECONDS overrides the 10).
pub(super) fn progress_interval() -> std::time::Duration {
    let secs = std::env::var("PUZZLEBOOK_PROGRESS_SECONDS")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|&s| s > 0.0 && s < 1e6)
        .unwrap_or(10.0);
    std::time::Duration::from_secs_f64(secs)
}

impl Log {
    /// Start progress events for `output` (None in text mode: lines per output only).
    pub(super) fn ticker(
        &self,
        output: &str,
        total: impl FnOnce() -> Option<u64>,
    ) -> Option<Ticker> {
        if self.style != LogStyle::Json {
            return None;
        }
        let total = total();
        crate::progress::reset();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (flag, name, every) = (stop.clone(), output.to_string(), progress_interval());
        let started = Instant::now();
        let thread = std::thread::spawn(move || loop {
            std::thread::park_timeout(every);
            if flag.load(std::sync::atomic::Ordering::SeqCst) {
                return;
            }
            let done = crate::progress::done();
            let secs = started.elapsed().as_secs_f64();
            eprintln!(
                "{}",
                json!({"event": "progress", "output": name, "done": done, "total": total,
                       "seconds": secs, "per_second": done as f64 / secs.max(1e-9)})
            );
        });
        Some(Ticker {
            stop,
            thread: Some(thread),
        })
    }

    pub(super) fn event(&self, text: String, v: Value) {
        match self.style {
            LogStyle::Text => eprintln!("{text}"),
            LogStyle::Json => eprintln!("{v}"),
        }
    }
}
