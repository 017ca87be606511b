//! The tests of this binary that need a tool outside the Rust toolchain skip, saying
//! so, on a machine without it (`common::tools`).

use crate::common::tools;

#[test]
fn the_tests_that_need_a_tool_skip_without_their_tools() {
    assert_eq!(tools::check_skips_without_tools("cli"), 7);
}
