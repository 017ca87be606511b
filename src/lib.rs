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

pub mod batch;
pub mod book;
pub mod canvas;
pub mod catalogue;
pub mod chart;
pub mod error;
pub mod games;
pub mod input;
pub mod interrupt;
pub mod jobs;
pub mod limits;
pub mod output;
pub mod preflight;
pub mod progress;
pub mod sampling;
pub mod scheduler;
pub mod seed;
pub mod shard;
pub mod stats;
pub mod svg;

pub use error::{Error, Result};

/// This build's version (written into part files and manifests).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
