//! Helpers shared by the integration tests.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub fn bin() -> Command {
    Command::cargo_bin("puzzlebook").expect("binary built")
}

/// The project root (where templates/ lives).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn template(name: &str) -> PathBuf {
    root().join("templates").join(name)
}

/// Files in a directory (to check nothing half-written is left behind).
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Run the binary and return stdout, asserting success.
pub fn stdout_of(args: &[&str]) -> String {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Status 1, exactly one line on stderr containing `needle`, nothing on stdout.
pub fn fails_with(args: &[&str], stdin: Option<&str>, needle: &str) {
    let mut cmd = bin();
    cmd.args(args);
    if let Some(s) = stdin {
        cmd.write_stdin(s);
    }
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(
        err.lines().count(),
        1,
        "{args:?}: one line expected, got: {err}"
    );
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(needle),
        "{args:?}: {err} should mention {needle}"
    );
    assert!(out.stdout.is_empty(), "{args:?}: stdout should be empty");
}
