//! Timing distribution of the Numbrix uniqueness proof on published-style 9x9 puzzles
//! (minimal puzzles topped up with random clues to 16, 20, 24 and 28 givens), one core.
//!
//!     cargo run --release --example numbrix_timing [PUZZLES_PER_CLUE_COUNT]

use puzzlebook::games::numbrix::{clues, AnySolver, Count, Numbrix, NumbrixParams};
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;
use std::time::Instant;

fn main() {
    let per: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let game = Numbrix::new(NumbrixParams::default()).unwrap();
    let mut solver = AnySolver::new(9, 9);
    println!("givens  puzzles  mean_us  median_us  p99_us  worst_us  mean_nodes  worst_nodes");
    let mut all = Vec::new();
    for target in [16usize, 20, 24, 28] {
        let mut times = Vec::new();
        let mut nodes = Vec::new();
        for i in 0..per {
            let mut rng = item_rng(target as u64, "numbrix-timing", i);
            let Outcome::Accepted(p) = game.generate(&mut rng) else {
                continue;
            };
            let mut givens = p.givens_flat();
            clues::add_clues(&mut givens, &p.solution_flat(), target, &mut rng);
            let t = Instant::now();
            let v = solver.solve(&givens, u64::MAX);
            let dt = t.elapsed().as_secs_f64() * 1e6;
            assert_eq!(v.count, Count::One);
            times.push(dt);
            nodes.push(v.nodes);
        }
        times.sort_by(f64::total_cmp);
        let q = |f: f64| times[((times.len() - 1) as f64 * f).round() as usize];
        println!(
            "{target:>6}  {:>7}  {:>7.1}  {:>9.1}  {:>6.1}  {:>8.1}  {:>10.1}  {:>11}",
            times.len(),
            times.iter().sum::<f64>() / times.len() as f64,
            q(0.5),
            q(0.99),
            times[times.len() - 1],
            nodes.iter().sum::<u64>() as f64 / nodes.len() as f64,
            nodes.iter().max().unwrap()
        );
        all.extend(times);
    }
    all.sort_by(f64::total_cmp);
    println!(
        "all 16-28: {} puzzles, mean {:.1} us, median {:.1} us, p99 {:.1} us, worst {:.1} us",
        all.len(),
        all.iter().sum::<f64>() / all.len() as f64,
        all[all.len() / 2],
        all[(all.len() - 1) * 99 / 100],
        all[all.len() - 1]
    );
}
