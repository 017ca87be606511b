//! `preflight`: check an interior PDF against a print service's rules and print one
//! line per problem, then a summary.

use clap::Args;
use puzzlebook::preflight::{self, Service};
use puzzlebook::{output, Error, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
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

/// What a path that is not a regular file is, for the error line.
fn kind_of(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Open `path` for reading only if it is a regular file. A symbolic link the user
/// named is followed (they chose it), but a FIFO, device, socket or folder is refused
/// with one line; the file is opened without blocking, so a FIFO swapped in after the
/// first look cannot hang the check either (the second look is on the open file).
fn open_regular(path: &Path) -> Result<std::fs::File> {
    let io = |e| Error::io("cannot read", path, e);
    let refuse = |t| {
        Error::invalid(format!(
            "{} is {}: preflight reads only regular files",
            path.display(),
            kind_of(t)
        ))
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(refuse(meta.file_type()));
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK);
    }
    let f = o.open(path).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(refuse(meta.file_type()));
    }
    Ok(f)
}

/// Write the report to standard output in one go. A closed pipe (`| head`) comes back
/// as an I/O error of kind BrokenPipe, which `main` turns into a quiet exit.
fn emit(text: &str) -> Result<()> {
    let out = std::io::stdout();
    let mut out = out.lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("cannot write", "standard output", e))
}

/// Check the file; exit 0 when nothing fails (warnings allowed), 1 when something does.
pub fn preflight_cmd(args: PreflightArgs) -> Result<ExitCode> {
    let io = |source| Error::Io {
        action: "cannot read",
        path: args.file.clone(),
        source,
    };
    let file = open_regular(&args.file)?;
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
    drop(bytes);
    let report = report.map_err(|e| match e {
        // A stop is a stop (its own exit status), not a problem with the file.
        Error::Interrupted => Error::Interrupted,
        e => Error::invalid(format!("{}: {e}", output::escaped_path(&args.file))),
    })?;
    let mut text = String::new();
    if args.json {
        text.push_str(
            &serde_json::to_string_pretty(&report).map_err(|e| Error::invalid(e.to_string()))?,
        );
        text.push('\n');
    } else {
        for p in &report.problems {
            text.push_str(&format!("{p}\n"));
        }
        text.push_str(&report.summary());
        text.push('\n');
    }
    emit(&text)?;
    Ok(if report.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
