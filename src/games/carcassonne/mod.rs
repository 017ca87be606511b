//! Carcassonne, one player: score landscapes in the code-golf challenge's encoding,
//! and make landscapes by the real game's placement rules. See
//! `shared/specs/carcassonne.md`.

pub mod generate;
pub mod score;
pub mod tiles;

pub use score::{score, Breakdown};
pub use tiles::{parse, Landscape, Tile};

#[cfg(test)]
mod tests;
