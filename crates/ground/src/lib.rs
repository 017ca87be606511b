//! puzzlebook's ground floor: what every floor above stands on and no game owns.
//!
//! [`error`] (typed errors phrased for the person who ran the command), [`seed`] (one
//! seeded generator per item), [`shard`] (which items a shard makes), [`limits`] (the
//! bounds a user can see), [`interrupt`] (the stop flag every long loop checks),
//! [`progress`], [`input`] (bounded reading), [`output`] (atomic writes, seals, names
//! a terminal would act on), [`scheduler`] (array-task environments), [`stats`]
//! (mergeable counters, statistical functions, the `Study` trait), and the
//! drawing: [`canvas`] (one drawing for PDF, SVG and PNG), [`svg`], [`chart`].
//! Nothing here names a game, the book or the jobs: the compiler keeps it so, as this
//! crate depends on none of them.
//!
//! The small functions other crates call in their hot loops (the stop flag, the item
//! seeds, shard indices, the progress count) are `#[inline]`: without it they would
//! not be inlined across the crate boundary, as they were inside the one crate.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod batch;
pub mod canvas;
pub mod catalogue;
pub mod chart;
pub mod date;
pub mod error;
pub mod game;
pub mod input;
pub mod interrupt;
pub mod limits;
pub mod output;
pub mod progress;
pub mod scheduler;
pub mod seed;
pub mod shard;
pub mod size;
pub mod solve;
pub mod statistic;
pub mod stats;
pub mod svg;

pub use error::{Error, Result};
