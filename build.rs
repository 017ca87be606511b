//! Names the commit the tool is built from, for `puzzlebook --version`: the
//! `PUZZLEBOOK_VERSION` it sets is "0.1.0 (commit 1a2b3c4d5e6f, 2026-11-26)" when
//! the sources are a git checkout, and the bare version otherwise (a packaged
//! source, or no git on the machine). Records and manifests keep the bare version.

use std::process::Command;

/// What `git args...` prints in the package's folder, trimmed; None when git is
/// missing or fails (not a checkout).
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    println!("cargo:rerun-if-changed=build.rs");
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    let full = match &commit {
        Some(commit) => {
            // Build again when HEAD moves: HEAD itself (a checkout), the branch it
            // names (a commit) and packed-refs (a fetch or gc).
            let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                watch.push(branch);
            }
            for name in watch {
                if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
                    if std::path::Path::new(&path).exists() {
                        println!("cargo:rerun-if-changed={path}");
                    }
                }
            }
            match git(&["show", "-s", "--format=%cs", "HEAD"]) {
                Some(date) => format!("{version} (commit {commit}, {date})"),
                None => format!("{version} (commit {commit})"),
            }
        }
        None => version.to_string(),
    };
    println!("cargo:rustc-env=PUZZLEBOOK_VERSION={full}");
}
