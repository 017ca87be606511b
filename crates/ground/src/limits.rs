//! The bounds on what a user can ask for, in one place: every numeric flag, template
//! and job value is checked against these before any work starts, so that no input
//! can make the tool allocate without a limit or run past what its arithmetic holds.
//! `docs/limits.md` lists them for users; keep the two in step.

/// Samples in one statistics run (`catan bias --samples`, `--reference-samples`,
/// `catan stats --samples`, `carcassonne stats --samples`, `number-match stats
/// --samples`): 10^15. Counts stay far inside a u64 and the expected counts in an f64
/// stay exact; memory does not depend on it (samples are drawn and counted in fixed-size chunks).
pub const MAX_SAMPLES: u64 = 1_000_000_000_000_000;

/// Check a sample count (`samples`, `reference_samples`): 1 to [`MAX_SAMPLES`];
/// `what` names a sample in the message ("boards per sampler").
pub fn check_samples(name: &'static str, value: u64, what: &str) -> crate::Result<()> {
    if value == 0 {
        return Err(crate::Error::param(
            name,
            format!("is 0: ask for at least 1 of the {what}"),
        ));
    }
    if value > MAX_SAMPLES {
        return Err(crate::Error::param(
            name,
            format!("is {value}: at most {MAX_SAMPLES} (10^15) {what}"),
        ));
    }
    Ok(())
}

/// One record of a `solve`, `score` or `catan balance` input (a board between blank
/// lines, a JSON line): 1 MiB. Inputs are read a record at a time, so an input of any length needs
/// no more memory than this (and what solving one record takes).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// A book template or a job file: 1 MiB.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A `manifest.json`: 16 MiB (a job file of 1 MiB names far fewer outputs than that
/// takes).
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// One line of a part file (a header, a record, a line of counts): 64 MiB.
pub const MAX_PART_LINE_BYTES: usize = 64 << 20;

/// The PDF in a book part: 1 GiB (print-on-demand services take files up to 650 MB).
/// It is streamed, not held in memory.
pub const MAX_BOOK_PART_BYTES: u64 = 1 << 30;

/// Worker threads per core (`-j`): at most 8 per core the machine has; more only
/// adds memory and start-up time, never speed, since every item is CPU work.
pub(crate) const MAX_THREADS_PER_CORE: usize = 8;

/// Address space the process needs before its worker threads: the program, the main
/// thread and its memory arena (measured: a one-thread 16x16 Numbrix run needs about
/// 200 MB of address space, each further thread about 50 to 64 MB).
pub(crate) const BASE_ADDRESS_SPACE: u64 = 160 << 20;

/// Address space each worker thread is given: the C library reserves 64 MB of it
/// for the thread's memory arena, in which the thread's work lives.
pub(crate) const THREAD_ADDRESS_SPACE: u64 = 64 << 20;

/// The least address space puzzlebook runs in with one worker thread. With the C
/// library's arenas capped ([`fit_memory_arenas`]) the books of every template need
/// far less (docs/limits.md has the figures); the floor keeps room for the commands
/// and inputs not measured. Under a lower `ulimit -v` a command would abort at its
/// first allocation that fails, so it is refused at the start instead.
pub(crate) const MIN_ADDRESS_SPACE: u64 = 144 << 20;

/// An error line when an address-space limit (`ulimit -v`) is below
/// `MIN_ADDRESS_SPACE`.
pub fn check_address_space() -> Result<(), String> {
    match address_space_limit() {
        Some(limit) if limit < MIN_ADDRESS_SPACE => Err(format!(
            "the address-space limit (ulimit -v) of {} MB is below the {} MB puzzlebook needs to run: raise it (ulimit -v {} or more)",
            limit >> 20,
            MIN_ADDRESS_SPACE >> 20,
            MIN_ADDRESS_SPACE >> 10
        )),
        _ => Ok(()),
    }
}

/// Under an address-space limit (`ulimit -v`), let the C library keep no more memory
/// arenas than there are worker threads that fit (`threads_that_fit`); call it before
/// any thread starts. Each further arena reserves 64 MB, and making one first maps
/// 128 MB: near `MIN_ADDRESS_SPACE` that map fails, and a thread left without an arena
/// maps a page for every allocation it makes (slow, and then a failed allocation aborts
/// the process). Threads beyond the cap share the arenas there are. Without a limit
/// nothing changes. Returns the cap it set, if any.
pub fn fit_memory_arenas() -> Option<usize> {
    let fit = threads_that_fit(address_space_limit()?);
    set_arena_max(fit).then_some(fit)
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn set_arena_max(arenas: usize) -> bool {
    let arenas = libc::c_int::try_from(arenas).unwrap_or(libc::c_int::MAX);
    // SAFETY: mallopt takes two integers, touches only the allocator's own settings,
    // and M_ARENA_MAX may be set at any time (it bounds arenas made from then on).
    unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn set_arena_max(_arenas: usize) -> bool {
    false
}

/// The process's address-space limit (`ulimit -v`, RLIMIT_AS), if it has one.
pub(crate) fn address_space_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// How many worker threads fit an address-space limit of `limit` bytes (at least 1).
pub(crate) fn threads_that_fit(limit: u64) -> usize {
    (limit.saturating_sub(BASE_ADDRESS_SPACE) / THREAD_ADDRESS_SPACE).max(1) as usize
}

/// The number of worker threads `-j N` asks for (0: one per core), with a note when
/// the request was lowered to `MAX_THREADS_PER_CORE` per core, or to what an
/// address-space limit (`ulimit -v`) leaves room for.
pub fn threads(requested: usize) -> (usize, Option<String>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores.saturating_mul(MAX_THREADS_PER_CORE);
    let (mut n, mut note) = if requested > cap {
        let note = format!(
            "-j {requested} is more than {MAX_THREADS_PER_CORE} threads per core on this machine's {cores} core{}: using {cap}",
            if cores == 1 { "" } else { "s" }
        );
        (cap, Some(note))
    } else {
        (requested, None)
    };
    if let Some(limit) = address_space_limit() {
        let fit = threads_that_fit(limit);
        let asked = if n == 0 { cores } else { n };
        if asked > fit {
            note = Some(format!(
                "the address-space limit (ulimit -v) of {} MB leaves room for {fit} worker thread{} ({} MB each after {} MB for the program): using {fit}",
                limit >> 20,
                if fit == 1 { "" } else { "s" },
                THREAD_ADDRESS_SPACE >> 20,
                BASE_ADDRESS_SPACE >> 20
            ));
            n = fit;
        }
    }
    (n, note)
}

#[cfg(test)]
mod tests {
    #[test]
    fn threads_fit_the_address_space_left_after_the_program() {
        // 400,000 KiB (ulimit -v 400000): 390 MB, 160 for the program, 64 a thread.
        assert_eq!(super::threads_that_fit(400_000 * 1024), 3);
        assert_eq!(super::threads_that_fit(100 << 20), 1);
        assert_eq!(super::threads_that_fit(1 << 40), 16381);
    }
}
