//! puzzlebook: seeded, parallel generation of printable puzzle books and board statistics.
//!
//! Floors, from the ground up: [`seed`], [`canvas`], [`stats`] and [`output`] ->
//! [`games`] -> [`batch`] -> [`book`]. Nothing on a lower floor imports a higher one.

pub mod batch;
pub mod book;
pub mod canvas;
pub mod error;
pub mod games;
pub mod output;
pub mod seed;
pub mod stats;

pub use error::{Error, Result};
