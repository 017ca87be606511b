//! A stop request (Ctrl-C) reaches the long searches and loops themselves, not only the
//! pipeline between items: once the flag is up, the Number Match exact solver, its Monte
//! Carlo playouts and statistics loop, the Numbrix solver and clue search, and the
//! Carcassonne statistics loop return within milliseconds, their answers "unknown" (or
//! discarded), never a proof.
//!
//! The flag is global to the process, so this file is its own test binary with a
//! single test: nothing else runs beside it.

use puzzlebook::games::carcassonne;
use puzzlebook::games::number_match::{self, montecarlo, Append, Rules, Solver, Verdict};
use puzzlebook::games::numbrix::{self, clues, grid, path::PathSampler, AnySolver};
use puzzlebook::seed::item_rng;
use puzzlebook::shard::Shard;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A Number Match board that no search decides quickly with 3 adds (64 columns).
fn match_board() -> (Rules, Vec<u8>) {
    let rules = Rules {
        cols: 64,
        diagonals: true,
        append: Append::AfterLastDigit,
    };
    (
        rules,
        number_match::rules::parse_board("1234567891234").unwrap(),
    )
}

/// A 22x22 Numbrix grid (a generated puzzle with three givens taken away) that takes
/// the solver millions of nodes.
const HARD_GRID: &str = "\
439 . . . . 462 . . . . . 476 . . . . . . . 298 . .
. . . 445 . . . . . . . . . . . . . . . 323 . .
. . . . . . . . . . . . 479 . . . . 320 . . . .
. . . . 430 449 . . . . . . . 315 . . . . 328 . 334 .
. . . . . . . 452 469 . . . . . . . . 392 . . . .
54 . . . 426 . . . . . . . . . . . 388 . . . . .
. . . . . . 423 404 . . 371 . . 380 . . . . . . . .
. 43 44 . . . . 417 . . . . . 379 . . . . . . . .
. . . 40 . . . 418 . 408 . . . . . . . . . . . .
. . . . 62 . . . . . . . . . . . . 275 . 281 286 .
. . . . . . . . . . . . . . . . . . . . . .
. . 66 83 . 85 . . . 23 . . . . . . . . . . . .
. . . . . . . . . . 363 . 1 . 5 . . . . . . .
. . . . . . . . . . . . 2 . . . . . . . . .
. . 105 . . . 89 . 91 . . . . . . . . . . . . .
. . . . . . . . . . . . . . . . . 11 . . . .
. . 111 . . . . 154 155 . . . . . . . . 214 . 232 . .
. . . . 114 . . . . . . . . 199 . . . . . . . .
127 . . . . 138 . . . . . . . . . . . . . . . .
. . . 117 . . . . . . . . . . . . . . . . . 249
. . . . . . . . . . . . . 178 . 176 223 . . . . .
. . 132 . . . . 145 . . . 171 . . . . . . . . . .
";

fn hard_grid() -> numbrix::Grid {
    grid::parse_grids(HARD_GRID).unwrap().remove(0)
}

/// A count of [`HARD_GRID`] by one prover: the depth-first search alone takes millions
/// of nodes on it (the SAT prover settles it at once).
fn count_hard_grid(prover: numbrix::Prover, budget: u64) -> numbrix::Count {
    let g = hard_grid();
    let mut s = AnySolver::new(g.rows, g.cols);
    s.set_prover(prover);
    s.solve(&g.cells, budget).count
}

/// A count by the SAT prover alone that runs long: a 16x32 grid with only 1 given,
/// where it meets dead end after dead end before finding a path (the search finds one
/// at once).
fn count_open_grid_by_clauses(budget: u64) -> numbrix::Count {
    let mut cells = vec![0u16; 16 * 32];
    cells[0] = 1;
    let mut s = AnySolver::new(16, 32);
    s.set_prover(numbrix::Prover::Clauses);
    s.solve(&cells, budget).count
}

/// A call that must end soon: a thread running `f`, which says whether the answer is
/// the one a stopped call gives (unknown, nothing, or a partial count to discard).
type Check = Box<dyn FnOnce() -> bool + Send>;

/// Start `f` on its own thread; the receiver gets its verdict and when it returned.
fn start(f: Check) -> mpsc::Receiver<(bool, Instant)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stopped_as_expected = f();
        let _ = tx.send((stopped_as_expected, Instant::now()));
    });
    rx
}

/// Wait for a started call: a message if it is still running after `limit`, took
/// longer than `prompt` after `since`, or gave an answer a stopped call cannot give.
fn finished(
    what: &str,
    rx: mpsc::Receiver<(bool, Instant)>,
    since: Instant,
    limit: Duration,
    prompt: Duration,
) -> Option<String> {
    match rx.recv_timeout(limit) {
        Err(_) => Some(format!("{what}: still running {limit:?} after the stop")),
        Ok((false, _)) => Some(format!("{what}: not the answer of a stopped call")),
        Ok((true, at)) => {
            let took = at.saturating_duration_since(since);
            eprintln!("{what}: returned {took:?} after the stop");
            (took >= prompt).then(|| format!("{what}: {took:?} after the stop"))
        }
    }
}

fn match_stats_config(rules: Rules) -> number_match::stats::Config {
    number_match::stats::Config {
        seed: 1,
        length: 27,
        max_adds: 4,
        max_nodes: u64::MAX,
        rules,
        samples: 1_000_000_000_000_000,
        shard: Shard::default(),
        mc_trials: 1_000_000,
        timings: false,
    }
}

/// Calls already running when the stop comes.
fn running_checks() -> Vec<(&'static str, Check)> {
    vec![
        (
            "running: number match exact solver",
            Box::new(|| {
                let (rules, board) = match_board();
                Solver::new(rules).solve(&board, 3, 1_000_000_000) == Verdict::Unknown
            }),
        ),
        (
            "running: number match stats",
            Box::new(|| {
                let (rules, _) = match_board();
                puzzlebook::batch::study(
                    &match_stats_config(rules),
                    1_000_000_000_000_000,
                    Shard::default(),
                    false,
                    "",
                )
                .is_err()
            }),
        ),
        (
            "running: numbrix solver (search)",
            Box::new(|| {
                count_hard_grid(numbrix::Prover::Search, 1_000_000_000) == numbrix::Count::Unknown
            }),
        ),
        (
            "running: numbrix solver (SAT)",
            Box::new(|| count_open_grid_by_clauses(u64::MAX) == numbrix::Count::Unknown),
        ),
        (
            "running: carcassonne stats",
            Box::new(|| {
                let study = carcassonne::stats::SizeStudy { seed: 3, tiles: 72 };
                let h = puzzlebook::batch::study(
                    &study,
                    1_000_000_000_000_000,
                    Shard::default(),
                    false,
                    "",
                );
                h.is_err()
            }),
        ),
    ]
}

/// Calls that start after the stop.
fn after_checks() -> Vec<(&'static str, Check)> {
    vec![
        (
            "after: number match exact solver",
            Box::new(|| {
                let (rules, board) = match_board();
                let mut s = Solver::new(rules);
                s.solve(&board, 3, 1_000_000_000) == Verdict::Unknown && s.nodes() < 1_000_000
            }),
        ),
        (
            "after: number match min_adds",
            Box::new(|| {
                let (rules, board) = match_board();
                Solver::new(rules).min_adds(&board, 8, u64::MAX) == Err(())
            }),
        ),
        (
            "after: number match monte carlo, 10^12 trials",
            Box::new(|| {
                let (rules, board) = match_board();
                let mut rng = item_rng(1, "stop", 0);
                montecarlo::solve(&rules, &board, 3, 1_000_000_000_000, &mut rng).is_none()
            }),
        ),
        (
            "after: number match win rate, 10^12 playouts",
            Box::new(|| {
                let (rules, board) = match_board();
                let mut rng = item_rng(1, "stop", 1);
                montecarlo::win_rate(&rules, &board, 3, 1_000_000_000_000, &mut rng) == 0.0
            }),
        ),
        (
            "after: number match stats, 10^15 boards",
            Box::new(|| {
                let (rules, _) = match_board();
                puzzlebook::batch::study(
                    &match_stats_config(rules),
                    1_000_000_000_000_000,
                    Shard::default(),
                    false,
                    "",
                )
                .is_err()
            }),
        ),
        (
            "after: numbrix solver",
            Box::new(|| {
                let v = numbrix::solve::solve_grid(
                    &hard_grid(),
                    numbrix::Moves::Orthogonal,
                    1_000_000_000,
                )
                .unwrap();
                v.count == numbrix::Count::Unknown && v.nodes < 1_000_000
            }),
        ),
        (
            // Minutes of solver calls on a 22x22 path without a stop.
            "after: numbrix clue search",
            Box::new(|| {
                let mut rng = item_rng(2, "stop", 0);
                let solution = PathSampler::new(22, 22).sample_grid(&mut rng);
                let mut solver = AnySolver::new(22, 22);
                let r = clues::select(
                    clues::Style::Free,
                    None,
                    &mut solver,
                    &numbrix::Board::rect(22, 22),
                    &solution,
                    &mut rng,
                    clues::Budget::KeepClue(u64::MAX),
                );
                matches!(r, Err(clues::Failure::Budget))
            }),
        ),
        (
            "after: carcassonne stats, 10^15 landscapes",
            Box::new(|| {
                let study = carcassonne::stats::SizeStudy { seed: 1, tiles: 72 };
                let h = puzzlebook::batch::study(
                    &study,
                    1_000_000_000_000_000,
                    Shard::default(),
                    false,
                    "",
                );
                h.is_err()
            }),
        ),
    ]
}

#[test]
fn long_searches_stop_within_milliseconds_of_a_stop_request() {
    // A generous limit for a call that should stop (CI machines stall), and the most
    // time a call may take after the stop for the test to pass.
    let limit = Duration::from_secs(20);
    let prompt = Duration::from_millis(500);

    // Before the stop: both searches are long. Neither is decided within a budget that
    // takes a good fraction of a second, so the budgets below (1,000 to 5,000 times
    // larger) are many minutes of work.
    let (v, nodes, before) = {
        let t = Instant::now();
        let (rules, board) = match_board();
        let mut s = Solver::new(rules);
        let v = s.solve(&board, 3, 1_000_000);
        (v, s.nodes(), t.elapsed())
    };
    assert_eq!(v, Verdict::Unknown);
    assert!(nodes > 1_000_000);
    eprintln!("before the stop: number match, 1,000,000 nodes undecided in {before:?}");
    let t = Instant::now();
    let v = count_hard_grid(numbrix::Prover::Search, 200_000);
    assert_eq!(v, numbrix::Count::Unknown);
    eprintln!(
        "before the stop: numbrix, 200,000 nodes undecided in {:?}",
        t.elapsed()
    );

    let mut failures = Vec::new();

    let running = running_checks();
    let running: Vec<_> = running.into_iter().map(|(w, f)| (w, start(f))).collect();
    std::thread::sleep(Duration::from_millis(300));
    puzzlebook::interrupt::request();
    let asked = Instant::now();
    for (what, rx) in running {
        failures.extend(finished(what, rx, asked, limit, prompt));
    }

    let after = after_checks();
    for (what, f) in after {
        let t = Instant::now();
        failures.extend(finished(what, start(f), t, limit, prompt));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
