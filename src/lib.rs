//! puzzlebook: seeded, parallel generation of printable puzzle books and board statistics.
//!
//! Floors, from the ground up: [`error`], [`seed`], [`shard`], [`limits`], [`interrupt`],
//! [`progress`], [`input`], [`output`], [`catalogue`], [`canvas`], [`svg`], [`stats`], [`scheduler`]
//! and [`preflight`] -> [`games`] -> [`batch`] -> [`book`] -> [`jobs`]. A module
//! imports only its own floor and lower ones, and there are no import cycles
//! (`tests/architecture.rs` checks both; ARCHITECTURE.md describes the floors, the
//! data flow and the plug-in points).

// Unsafe code lives in one module only (sampling::direct::deposit, the BMI2 bit
// deposit), which allows it for itself.
#![deny(unsafe_code)]
// ... and says, at every unsafe block, why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
// Every public item says what it is (the public API is the library's contract).
#![deny(missing_docs)]

pub mod book;
pub mod games;
pub mod jobs;
pub mod sampling;

// The floors that are crates of their own (crates/), under the names the modules
// above them have always used.
pub use puzzlebook_ground::{
    batch, canvas, catalogue, chart, error, game, input, interrupt, limits, output, progress,
    scheduler, seed, shard, size, solve, statistic, stats, svg,
};
pub use puzzlebook_preflight as preflight;

pub use error::{Error, Result};

/// This build's version (written into part files and manifests).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
