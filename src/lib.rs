//! puzzlebook: seeded, parallel generation of printable puzzle books and board statistics.
//!
//! Floors, from the ground up: [`seed`], [`shard`], [`canvas`], [`stats`] and [`output`] ->
//! [`games`] -> [`batch`] -> [`book`] -> [`jobs`] (job files, parts, merge,
//! manifests). Nothing on a lower floor imports a higher one; [`interrupt`] is read
//! by every floor.

pub mod batch;
pub mod book;
pub mod canvas;
pub mod error;
pub mod games;
pub mod input;
pub mod interrupt;
pub mod jobs;
pub mod limits;
pub mod output;
pub mod progress;
pub mod scheduler;
pub mod seed;
pub mod shard;
pub mod stats;

pub use error::{Error, Result};

/// This build's version (written into part files and manifests).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
