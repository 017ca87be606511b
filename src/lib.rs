//! puzzlebook: seeded, parallel generation of printable puzzle books and board statistics.
//!
//! The crates it stands on, from the ground up: `puzzlebook-ground` ([`error`],
//! [`seed`], [`shard`], [`limits`], [`interrupt`], [`progress`], [`input`], [`output`],
//! [`catalogue`], [`canvas`], [`svg`], [`stats`], [`scheduler`], the contract of a game
//! [`game`] and [`statistic`], the [`solve`] driver and the pipeline [`batch`]),
//! [`preflight`], and one crate a game (re-exported in [`games`], with the registry).
//! Above them here: [`book`] -> [`jobs`]. A module imports only its own floor and lower
//! ones and there are no import cycles (the crates' dependencies keep the crates so,
//! `tests/architecture.rs` the modules of this one; ARCHITECTURE.md describes the
//! floors, the data flow and the plug-in points).

// No unsafe code here (the only unsafe module of the workspace is Catan's bit deposit,
// `sampling::direct::deposit`, which allows it for itself).
#![deny(unsafe_code)]
// Every public item says what it is (the public API is the library's contract).
#![deny(missing_docs)]

pub mod games;

// The floors that are crates of their own (crates/), under the names the modules
// above them have always used.
pub use puzzlebook_book as book;
pub use puzzlebook_catan::sampling;
pub use puzzlebook_ground::{
    batch, canvas, catalogue, chart, date, error, game, input, interrupt, limits, output, progress,
    scheduler, seed, shard, size, solve, statistic, stats, svg,
};
pub use puzzlebook_jobs as jobs;
pub use puzzlebook_preflight as preflight;

pub use error::{Error, Result};

/// This build's version (written into part files and manifests).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
