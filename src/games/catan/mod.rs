//! Catan: variable board set-up by rejection sampling, and its bias.
pub mod board;
