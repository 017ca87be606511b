//! The source article's Monte Carlo method, as a baseline: play random legal pairs;
//! add only when no pair is left; a trial fails when the adds are used up with digits
//! left and no pair. Repeat up to N trials. It can find solutions but never prove a
//! board unsolvable, and it cannot find solutions that need an early add.
//!
//! A stop request (Ctrl-C, see [`ground::interrupt`]) is seen at the next step of a
//! playout: the playout fails and no further playout starts, so a stopped call
//! proves nothing and its result is discarded by the caller.

use super::rules::{Move, Rules};
use rand::{Rng, RngCore};

/// One random playout; the moves if it clears the board.
pub fn playout(rules: &Rules, board: &[u8], adds: u8, rng: &mut impl RngCore) -> Option<Vec<Move>> {
    let mut b = board.to_vec();
    let mut moves = Vec::new();
    let mut pairs = Vec::new();
    let mut left = adds;
    loop {
        if b.iter().all(|&x| x == 0) {
            return Some(moves);
        }
        if ground::interrupt::requested() {
            return None;
        }
        rules.moves(&b, &mut pairs);
        if pairs.is_empty() {
            if left == 0 {
                return None;
            }
            left -= 1;
            rules.add(&mut b);
            moves.push(Move::Add);
            continue;
        }
        let (i, j) = pairs[rng.random_range(0..pairs.len())];
        rules.remove(&mut b, i as usize, j as usize);
        moves.push(Move::Pair(i, j));
    }
}

/// Up to `trials` playouts; the trial number (from 1) and moves of the first win.
pub fn solve(
    rules: &Rules,
    board: &[u8],
    adds: u8,
    trials: u64,
    rng: &mut impl RngCore,
) -> Option<(u64, Vec<Move>)> {
    for t in 1..=trials {
        if ground::interrupt::requested() {
            return None;
        }
        if let Some(m) = playout(rules, board, adds, rng) {
            return Some((t, m));
        }
    }
    None
}

/// The share of `n` playouts that clear the board.
pub fn win_rate(rules: &Rules, board: &[u8], adds: u8, n: u64, rng: &mut impl RngCore) -> f64 {
    let mut wins = 0u64;
    for _ in 0..n {
        if ground::interrupt::requested() {
            break;
        }
        wins += u64::from(playout(rules, board, adds, rng).is_some());
    }
    wins as f64 / n.max(1) as f64
}
