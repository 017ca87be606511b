//! The tests that run the real binary (and read what it writes), one module a topic,
//! built as one test binary so they compile and link once. Tests that change the
//! process's own state (the stop flag) or call the library in-process stay in test
//! binaries of their own. Run one module with `cargo test --release --test cli
//! reliability::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/rawpdf.rs"]
mod rawpdf;

mod batch;
mod book_color;
mod book_pdf;
mod book_print;
mod book_type;
mod carcassonne_cli;
mod catalogue;
mod catan_cli;
mod catan_limits_cli;
mod catan_report;
mod catan_stats;
mod commands;
mod dated;
mod deploy;
mod front_matter;
mod messages;
mod newcomer;
mod number_match_cli;
mod numbrix_cli;
mod planted;
mod preflight;
mod preflight_corpus;
mod preflight_images;
mod preflight_input;
mod reliability;
mod retention;
mod round_trip;
mod svg;
mod tools;
