//! The last word of `cargo test`: which checker tools this machine lacks, and so which
//! tests only said they skipped (`tests/common/tools.rs` lists them), with how to
//! install each. Runs after the other test binaries (cargo runs them by name), so its
//! lines stand near the end of the output.

mod common;
use common::tools::{find, say, under_ci, TOOLS};

#[test]
fn optional_tools_summary() {
    let missing: Vec<_> = TOOLS.iter().filter(|t| find(t).is_none()).collect();
    if missing.is_empty() {
        say("checker tools: all here; the tests that use them ran in full");
        return;
    }
    assert!(
        !under_ci(),
        "CI must have every checker tool (.ci/run installs them)"
    );
    let mut lines = vec![format!(
        "checker tools: {} of {} missing, so these tests skipped their checks \
         (README.md, \"The full test suite\", says how to get them all):",
        missing.len(),
        TOOLS.len()
    )];
    for t in missing {
        let tests: Vec<String> = t
            .tests
            .iter()
            .map(|(bin, name)| format!("--test {bin} {name}"))
            .collect();
        lines.push(format!(
            "  {} (to install: {}): {}",
            t.label,
            t.install,
            tests.join("; ")
        ));
    }
    say(&lines.join("\n"));
}
