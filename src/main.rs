//! The command line: parse, call the library, print, map errors to exit codes. The
//! subcommands are in [`cli`]; this file holds the process: signals and exit codes.
//!
//! Exit statuses, for people and for schedulers (docs/failure-behaviour.md):
//! - 0: done.
//! - 1: bad configuration, bad input or a failed check: running again changes
//!   nothing until the job, template or input is fixed.
//! - 2: a command line clap cannot parse (a usage error).
//! - 75 (`EX_TEMPFAIL`): try again later: another run holds the output folder or the
//!   catalogue, or the file system failed in a way that passes (full, busy).
//! - 128 + N: stopped by signal N (130 for Ctrl-C, 143 for SIGTERM); a rerun resumes.

mod cli;

use puzzlebook::Error;
use std::process::ExitCode;

/// Seconds a stop may take before the process ends at once anyway (its temporary files
/// removed first): every loop looks at the stop flag far more often than this.
const STOP_GRACE_SECONDS: u64 = 5;

/// The exit status of a failure that may pass if the command is run again later
/// (sysexits' `EX_TEMPFAIL`).
const RETRY_LATER: u8 = 75;

/// SIGINT, SIGTERM and SIGHUP: the first asks the work to stop at its next check
/// (unfinished files are dropped, never renamed into place; exit 128 + signal); a
/// second one, or a stop that takes longer than the grace period, removes this
/// process's temporary files and exits at once.
fn install_stop_handler() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if puzzlebook::interrupt::requested() {
                puzzlebook::output::remove_unfinished();
                puzzlebook::output::remove_created_folders();
                std::process::exit(128 + sig);
            }
            let name = match sig {
                SIGINT => "SIGINT",
                SIGTERM => "SIGTERM",
                _ => "SIGHUP",
            };
            if cli::JSON_LOG.load(std::sync::atomic::Ordering::Relaxed) {
                eprintln!(
                    "{}",
                    serde_json::json!({"event": "stopping", "signal": name})
                );
            } else {
                eprintln!("{name}: stopping (send it again to stop at once)");
            }
            puzzlebook::interrupt::request_by(sig);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_secs(STOP_GRACE_SECONDS));
                puzzlebook::output::remove_unfinished();
                puzzlebook::output::remove_created_folders();
                std::process::exit(128 + sig);
            });
        }
    });
}

/// A write to a closed pipe (`puzzlebook ... | head -1`) ends the process quietly
/// wherever it happens: commands report it as an error `main` takes for success, and
/// this hook catches any write that would panic instead (its temporary files removed).
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("Broken pipe") {
            puzzlebook::output::remove_unfinished();
            std::process::exit(0);
        }
        default(info)
    }));
}

fn main() -> ExitCode {
    // Before any thread starts (the stop handler's, the workers').
    puzzlebook::limits::fit_memory_arenas();
    quiet_on_closed_pipe();
    let cli = cli::parse();
    install_stop_handler();
    let result = cli::run(cli);
    if !matches!(result, Ok(ExitCode::SUCCESS)) {
        // A refused or failed command leaves no folder it made and left empty.
        puzzlebook::output::remove_created_folders();
    }
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(Error::Interrupted) => {
            eprintln!("error: {}", Error::Interrupted);
            ExitCode::from(puzzlebook::interrupt::exit_status())
        }
        Err(e) if e.is_retryable() => {
            eprintln!(
                "error: {}",
                puzzlebook::input::escape_controls(&e.to_string())
            );
            ExitCode::from(RETRY_LATER)
        }
        Err(e) => {
            // Messages quote user input: control characters never reach the terminal raw.
            eprintln!(
                "error: {}",
                puzzlebook::input::escape_controls(&e.to_string())
            );
            ExitCode::from(1)
        }
    }
}

fn is_broken_pipe(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
}
