//! The two Numbrix provers (depth-first search, and SAT with clause learning) must give
//! the same counts; brute force checks both on small boards (`numbrix_boards.rs`).
//! Here they are compared with each other on the removal checks that make real 9x9
//! puzzles, and large puzzles made with the SAT prover's help are checked by the
//! search alone.

use puzzlebook::games::numbrix::{solve, AnySolver, Count, Numbrix, NumbrixParams, Prover};
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;

fn game(size: usize) -> Numbrix {
    let mut params = NumbrixParams::default();
    params.size.rows = size;
    params.size.cols = size;
    Numbrix::new(params).expect("valid parameters")
}

/// Accepted puzzles of `game` for items 0.. of `seed`.
fn puzzles(game: &Numbrix, seed: u64, count: usize) -> Vec<(Vec<u16>, Vec<u16>, bool)> {
    let mut out = Vec::new();
    let mut item = 0;
    while out.len() < count {
        let mut rng = item_rng(seed, "numbrix", item);
        item += 1;
        if let Outcome::Accepted(p) = game.generate(&mut rng) {
            out.push((p.givens_flat(), p.solution_flat(), p.minimal));
        }
    }
    out
}

#[test]
fn both_provers_agree_on_every_removal_check_of_9x9_puzzles() {
    let g = game(9);
    let mut search = AnySolver::new(9, 9);
    search.set_prover(Prover::Search);
    let mut clauses = AnySolver::new(9, 9);
    clauses.set_prover(Prover::Clauses);
    let mut answers = [0usize; 3];
    for (givens, solution, minimal) in puzzles(&g, 41, 25) {
        assert!(minimal);
        for s in [&mut search, &mut clauses] {
            let v = s.solve(&givens, u64::MAX);
            assert_eq!(v.count, Count::One);
            assert_eq!(v.solution.as_deref(), Some(&solution[..]));
        }
        // Every clue out in turn (a second solution must exist: minimal), and every
        // blank given its number (still one solution), and pairs of clues out.
        for c in 0..81 {
            let mut cells = givens.clone();
            let v = solution[c];
            cells[c] = if givens[c] == 0 { v } else { 0 };
            let a = search.other_than(&cells, c, v, u64::MAX, None);
            let b = clauses.other_than(&cells, c, v, u64::MAX, None);
            assert_eq!(a.count, b.count, "cell {c} of {givens:?}");
            let want = if givens[c] == 0 {
                Count::Zero
            } else {
                Count::One
            };
            assert_eq!(b.count, want);
            if let Some(s) = &b.solution {
                solve::check_solution(9, 9, &cells, s).unwrap();
                assert_ne!(s[c], v);
            }
            let d = (c * 7 + 3) % 81;
            if givens[c] != 0 && givens[d] != 0 && d != c {
                cells[d] = 0;
                let a = search.solve(&cells, u64::MAX).count;
                let b = clauses.solve(&cells, u64::MAX).count;
                assert_eq!(a, b);
                answers[a.number().unwrap() as usize] += 1;
            }
        }
    }
    assert!(answers[2] > 20, "pairs out exercise 'many': {answers:?}");
}

#[test]
fn the_search_alone_confirms_12x12_puzzles_made_with_clause_learning() {
    let g = game(12);
    let mut search = AnySolver::new(12, 12);
    search.set_prover(Prover::Search);
    for (givens, solution, minimal) in puzzles(&g, 1, 3) {
        assert!(minimal, "every clue proved necessary");
        let v = search.solve(&givens, u64::MAX);
        assert_eq!(v.count, Count::One);
        assert_eq!(v.solution.as_deref(), Some(&solution[..]));
    }
}

#[test]
fn a_16x16_puzzle_is_minimal_with_a_checked_second_solution_for_every_clue() {
    let g = game(16);
    let mut solver = AnySolver::new(16, 16);
    for (givens, solution, minimal) in puzzles(&g, 3, 1) {
        assert!(minimal);
        for c in (0..256).filter(|&c| givens[c] != 0) {
            let mut cells = givens.clone();
            cells[c] = 0;
            let v = solver.other_than(&cells, c, solution[c], u64::MAX, Some(&solution));
            assert_eq!(v.count, Count::One, "clue at {c}");
            let other = v.solution.expect("a second solution");
            solve::check_solution(16, 16, &cells, &other).unwrap();
            assert_ne!(other, solution);
        }
    }
}
