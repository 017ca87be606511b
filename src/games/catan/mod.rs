//! Catan: variable board set-up by rejection sampling, and its bias.
//! See `shared/specs/catan.md`.
pub mod board;
pub mod exact;
pub mod rules;
pub mod sampler;
