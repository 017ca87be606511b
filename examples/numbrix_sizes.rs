//! Minimal Numbrix puzzles of three sizes timed in one process, one core: how many
//! times longer a 12x12 and a 16x16 puzzle takes than a 9x9 one (issue 18 asks for at
//! most 150x at 16x16), and how many came out not proven minimal (a removal check ran
//! out of its node budget, so its clue stayed). Each time includes the independent
//! check every run makes of every item (`Game::verify`: a full count to two).
//!
//!     cargo run --release --example numbrix_sizes [N_9x9] [N_12x12] [N_16x16] [MAX_NODES] [SEEDS]
//!
//! SEEDS is a comma-separated list (default 1); each size makes its N puzzles under
//! every seed. Items are drawn exactly as `numbrix generate --seed S --size S -j1`
//! draws them, so the puzzles are the ones that command prints. Besides the mean, each
//! line shows the slowest puzzle and its ratio to the mean (the tail).

use puzzlebook::games::numbrix::{Numbrix, NumbrixParams};
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;
use std::time::Instant;

fn main() {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let counts = [(9usize, arg(1, 40)), (12, arg(2, 8)), (16, arg(3, 2))];
    let max_nodes = arg(4, NumbrixParams::default().max_nodes);
    let seeds: Vec<u64> = std::env::args()
        .nth(5)
        .map(|s| s.split(',').map(|x| x.parse().expect("a seed")).collect())
        .unwrap_or_else(|| vec![1]);
    println!(
        "size  puzzles  attempts  mean_s    ratio_to_9x9  not_minimal  mean_clues  slowest_s  slowest/mean  (seed, item)"
    );
    let mut base = None;
    for (size, want) in counts {
        if want == 0 {
            continue;
        }
        let mut params = NumbrixParams {
            max_nodes,
            ..NumbrixParams::default()
        };
        params.size.rows = size;
        params.size.cols = size;
        let game = Numbrix::new(params).expect("valid parameters");
        let (mut done, mut tries, mut not_minimal, mut clues) = (0u64, 0u64, 0u64, 0usize);
        let mut slowest = (0.0f64, 0u64, 0u64);
        let t = Instant::now();
        for &seed in &seeds {
            let mut got = 0;
            let mut attempts = 0u64;
            while got < want {
                let mut rng = item_rng(seed, Numbrix::NAME, attempts);
                attempts += 1;
                let one = Instant::now();
                if let Outcome::Accepted(p) = game.generate(&mut rng) {
                    // A book run checks every item again, independently: count that too.
                    game.verify(&p)
                        .expect("a generated puzzle passes its check");
                    got += 1;
                    not_minimal += u64::from(!p.minimal);
                    clues += p.clues;
                }
                let took = one.elapsed().as_secs_f64();
                if took > slowest.0 {
                    slowest = (took, seed, attempts - 1);
                }
            }
            done += got;
            tries += attempts;
        }
        let attempts = tries;
        let mean = t.elapsed().as_secs_f64() / done as f64;
        let base_mean = *base.get_or_insert(mean);
        println!(
            "{size:>4}  {done:>7}  {attempts:>8}  {mean:<8.4}  {:>12.1}  {not_minimal:>11}  {:>10.1}  {:>9.3}  {:>12.1}  ({}, {})",
            mean / base_mean,
            clues as f64 / done as f64,
            slowest.0,
            slowest.0 / mean,
            slowest.1,
            slowest.2
        );
    }
}
