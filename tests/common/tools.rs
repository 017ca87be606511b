//! Tools outside the Rust toolchain that some tests use as independent checkers
//! (poppler, qpdf, ghostscript, img2pdf, Pillow, systemd-analyze, kubernetes-validate,
//! flock), and the one check every such test makes first: [`require`].
//!
//! On a machine without a tool, and with `CI` unset, the test writes one line naming
//! the tool and how to install it, and passes as skipped. Under `CI` (where `.ci/run`
//! installs every tool) a missing tool fails the test. The line goes straight to the
//! process's stderr, past the test harness's capture, so that `cargo test` shows it.
//!
//! [`TOOLS`] is also the list of the tests that need each tool: `tests/tools.rs` prints
//! it for the tools this machine lacks at the end of `cargo test`, and each test binary's
//! `..._skip_without_their_tools` test runs its own listed tests with the tools hidden
//! from the PATH and checks that every one of them skips.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A program some tests need.
pub struct Tool {
    /// The command, as looked up on the PATH.
    pub name: &'static str,
    /// What the tests call it when that says more than the command (a Python with a
    /// module).
    pub label: &'static str,
    /// Arguments of a run that must succeed for the tool to count as present (a Python
    /// module to import); empty: being an executable file on the PATH is enough.
    pub check: &'static [&'static str],
    /// How to install it.
    pub install: &'static str,
    /// The tests that need it: (test binary, test name as the harness names it).
    pub tests: &'static [(&'static str, &'static str)],
}

const CORPUS: (&str, &str) = (
    "cli",
    "preflight_corpus::pdfs_from_other_programs_get_the_verdicts_written_here",
);

pub const PDFTOPPM: Tool = Tool {
    name: "pdftoppm",
    label: "pdftoppm",
    check: &[],
    install: "apt-get install poppler-utils",
    tests: &[("cover", "every_front_reads_as_a_150_px_thumbnail")],
};

pub const PDFTOTEXT: Tool = Tool {
    name: "pdftotext",
    label: "pdftotext",
    check: &[],
    install: "apt-get install poppler-utils",
    tests: &[
        (
            "cli",
            "front_matter::one_game_books_run_easiest_first_with_one_how_to_page_a_game",
        ),
        (
            "cli",
            "front_matter::a_sections_first_page_holds_a_full_page_of_puzzles",
        ),
        ("cover", "every_front_reads_as_a_150_px_thumbnail"),
    ],
};

pub const PDFTOCAIRO: Tool = Tool {
    name: "pdftocairo",
    label: "pdftocairo",
    check: &[],
    install: "apt-get install poppler-utils",
    tests: &[CORPUS],
};

pub const QPDF: Tool = Tool {
    name: "qpdf",
    label: "qpdf",
    check: &[],
    install: "apt-get install qpdf",
    tests: &[CORPUS],
};

pub const GHOSTSCRIPT: Tool = Tool {
    name: "gs",
    label: "gs (ghostscript)",
    check: &[],
    install: "apt-get install ghostscript",
    tests: &[CORPUS],
};

pub const IMG2PDF: Tool = Tool {
    name: "img2pdf",
    label: "img2pdf",
    check: &[],
    install: "apt-get install img2pdf",
    tests: &[CORPUS],
};

pub const PILLOW: Tool = Tool {
    name: "python3",
    label: "python3 with Pillow",
    check: &["-c", "import PIL"],
    install: "apt-get install python3-pil",
    tests: &[CORPUS],
};

pub const SYSTEMD_ANALYZE: Tool = Tool {
    name: "systemd-analyze",
    label: "systemd-analyze",
    check: &[],
    install: "apt-get install systemd",
    tests: &[(
        "cli",
        "deploy::the_systemd_units_pass_systemd_analyze_verify",
    )],
};

pub const KUBERNETES_VALIDATE: Tool = Tool {
    name: "kubernetes-validate",
    label: "kubernetes-validate",
    check: &[],
    install: "pip install kubernetes-validate, in a venv whose bin/ is on the PATH",
    tests: &[
        (
            "cli",
            "deploy::the_kubernetes_cronjob_passes_the_schema_and_its_job_file_runs",
        ),
        (
            "cli",
            "deploy::the_sharded_cronjobs_driver_starts_shards_then_merge_with_one_date",
        ),
    ],
};

pub const FLOCK: Tool = Tool {
    name: "flock",
    label: "flock",
    check: &[],
    install: "apt-get install util-linux",
    tests: &[(
        "cli",
        "deploy::the_crontab_line_runs_as_cron_runs_it_and_flock_refuses_an_overlap",
    )],
};

/// Every tool a test of the main suite needs.
pub const TOOLS: [&Tool; 10] = [
    &PDFTOPPM,
    &PDFTOTEXT,
    &PDFTOCAIRO,
    &QPDF,
    &GHOSTSCRIPT,
    &IMG2PDF,
    &PILLOW,
    &SYSTEMD_ANALYZE,
    &KUBERNETES_VALIDATE,
    &FLOCK,
];

/// The executable files called `name` in the PATH's folders, in PATH order.
fn on_path(name: &str) -> Vec<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .filter(|p| is_executable(p))
        .collect()
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Where `tool` is: the first of its name on the PATH that passes its check.
pub fn find(tool: &Tool) -> Option<PathBuf> {
    on_path(tool.name).into_iter().find(|p| {
        tool.check.is_empty()
            || Command::new(p)
                .args(tool.check)
                .output()
                .is_ok_and(|o| o.status.success())
    })
}

/// Whether this run is CI's (`CI` set and not empty), where every tool must be here.
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// Write `line` to the process's stderr, past the test harness's capture.
pub fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

/// The first thing a test that needs `tools` does: their paths, in order, when all are
/// here. Else, under CI, the test fails naming what is missing; elsewhere one line says
/// which test skipped for want of which tool and how to install it, and the test
/// returns (passing) when this gives `None`.
pub fn require(tools: &[&Tool]) -> Option<Vec<PathBuf>> {
    let found: Vec<Option<PathBuf>> = tools.iter().map(|t| find(t)).collect();
    let missing: Vec<String> = tools
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_none())
        .map(|(t, _)| format!("{} (to install: {})", t.label, t.install))
        .collect();
    if missing.is_empty() {
        return Some(found.into_iter().flatten().collect());
    }
    let test = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .unwrap_or("a test")
        .to_string();
    assert!(
        !under_ci(),
        "CI must have every checker tool (.ci/run installs them); {test} is missing: {}",
        missing.join(", ")
    );
    say(&format!(
        "skipped: {test} needs {}; README.md, \"The full test suite\", says more",
        missing.join(", ")
    ));
    None
}

/// A folder of links to every program on the PATH except the tools of [`TOOLS`]: a PATH
/// like this machine's without them.
pub fn path_without_tools(dir: &Path) -> std::ffi::OsString {
    let hidden: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    let path = std::env::var_os("PATH").unwrap_or_default();
    for folder in std::env::split_paths(&path) {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(n) = name.to_str() else { continue };
            if hidden.contains(&n) || dir.join(n).exists() || !is_executable(&e.path()) {
                continue;
            }
            let _ = std::os::unix::fs::symlink(e.path(), dir.join(n));
        }
    }
    dir.as_os_str().to_owned()
}

/// Run this test binary's tests that need tools (those [`TOOLS`] lists for `binary`)
/// with the tools hidden from the PATH and `CI` unset; check that each passes and says
/// it skipped, naming its tool. Returns the number of tests so checked.
pub fn check_skips_without_tools(binary: &str) -> usize {
    let mut tests: Vec<(&str, Vec<&str>)> = Vec::new();
    for t in TOOLS {
        for &(b, name) in t.tests {
            if b != binary {
                continue;
            }
            match tests.iter_mut().find(|(n, _)| *n == name) {
                Some((_, tools)) => tools.push(t.label),
                None => tests.push((name, vec![t.label])),
            }
        }
    }
    assert!(!tests.is_empty(), "no test of {binary} needs a tool");
    let farm = tempfile::tempdir().unwrap();
    let path = path_without_tools(farm.path());
    for t in TOOLS {
        assert!(
            !farm.path().join(t.name).exists(),
            "{} is still on the hidden PATH",
            t.name
        );
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(tests.iter().map(|(n, _)| *n))
        .args(["--exact", "--test-threads", "2"])
        .env("PATH", &path)
        .env_remove("CI")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("{} passed", tests.len())),
        "{stdout}"
    );
    for (name, tools) in &tests {
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("skipped: {name} needs ")))
            .unwrap_or_else(|| panic!("{name} did not say it skipped: {stderr}"));
        for label in tools {
            assert!(line.contains(label), "{name} does not name {label}: {line}");
        }
    }
    tests.len()
}
