//! `preflight`: check an interior PDF against a print service's rules and print one
//! line per problem, then a summary.

use clap::Args;
use puzzlebook::preflight::{self, Service};
use puzzlebook::{Error, Result};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// The flags of `preflight`.
#[derive(Args)]
pub struct PreflightArgs {
    /// The interior PDF to check (any PDF, not only puzzlebook's)
    file: PathBuf,
    /// Whose rules to check against
    #[arg(long, value_enum, default_value = "kdp")]
    service: Service,
    /// Print the report as JSON instead of lines
    #[arg(long)]
    json: bool,
}

/// Check the file; exit 0 when nothing fails (warnings allowed), 1 when something does.
pub fn preflight_cmd(args: PreflightArgs) -> Result<ExitCode> {
    let io = |source| Error::Io {
        action: "cannot read",
        path: args.file.clone(),
        source,
    };
    let file = std::fs::File::open(&args.file).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(preflight::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > preflight::MAX_FILE_BYTES {
        return Err(Error::invalid(format!(
            "{}: larger than {} MB, more than preflight reads",
            args.file.display(),
            preflight::MAX_FILE_BYTES >> 20
        )));
    }
    // A reader panic on malformed input becomes an error line; keep the default
    // hook's message about it off the terminal.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let report = preflight::check(&bytes, args.service);
    std::panic::set_hook(hook);
    let report = report.map_err(|e| Error::invalid(format!("{}: {e}", args.file.display())))?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| Error::invalid(e.to_string()))?
        );
    } else {
        for p in &report.problems {
            println!("{p}");
        }
        println!("{}", report.summary());
    }
    Ok(if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
