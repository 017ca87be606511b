//! Property tests for Flip through the public API.

use proptest::prelude::*;
use puzzlebook::games::flip::{Bits, MoveGrid, Shape, Solution, Solver};

fn layout() -> impl Strategy<Value = MoveGrid> {
    (
        2usize..=12,
        2usize..=12,
        prop_oneof![Just(Shape::Block), Just(Shape::Plus)],
    )
        .prop_map(|(r, c, s)| MoveGrid::new(s, r, c).unwrap())
}

fn scrambled() -> impl Strategy<Value = (MoveGrid, Vec<usize>)> {
    layout().prop_flat_map(|l| {
        (
            Just(l),
            proptest::collection::vec(0..l.moves(), 0..3 * l.moves()),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any sequence of moves (repeats allowed, any order) gives a board the solver
    /// solves with at most as many distinct moves, and its answer reaches the target.
    #[test]
    fn solver_reaches_the_target((l, seq) in scrambled()) {
        let solver = Solver::new(l);
        let mut board = l.target();
        for &m in &seq {
            board.xor_assign(solver.mask(m));
        }
        // Moves made twice cancel: the set that matters is the odd-count moves.
        let mut odd = vec![false; l.moves()];
        for &m in &seq { odd[m] ^= true; }
        let set: Vec<usize> = (0..l.moves()).filter(|&m| odd[m]).collect();
        match solver.solve(&board) {
            Ok(Solution::Solved(moves)) => {
                prop_assert!(moves.len() <= set.len());
                if l.shape == Shape::Block {
                    // Injective: the scramble set is the only solution.
                    prop_assert_eq!(&moves, &set);
                }
                let mut b = board.clone();
                solver.apply(&mut b, &moves);
                prop_assert_eq!(b, l.target());
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    /// Moves commute: applying a set in any order gives the same board.
    #[test]
    fn moves_commute((l, seq) in scrambled()) {
        let solver = Solver::new(l);
        let mut a = Bits::zeros(l.cells());
        for &m in &seq { a.xor_assign(solver.mask(m)); }
        let mut b = Bits::zeros(l.cells());
        for &m in seq.iter().rev() { b.xor_assign(solver.mask(m)); }
        prop_assert_eq!(a, b);
    }

    /// The labelled text format round-trips every board.
    #[test]
    fn text_round_trips((l, seq) in scrambled()) {
        let solver = Solver::new(l);
        let mut board = l.target();
        for &m in &seq { board.xor_assign(solver.mask(m)); }
        let text = l.render(&board);
        let (l2, b2) = MoveGrid::parse(l.shape, &text).unwrap();
        prop_assert_eq!(l2, l);
        prop_assert_eq!(&b2, &board);
        // Labels are optional on input.
        let bare = l.rows_text(&board).join("\n");
        prop_assert_eq!(MoveGrid::parse(l.shape, &bare).unwrap().1, board);
    }

    /// The parser never panics on arbitrary text.
    #[test]
    fn parser_never_panics(text in "[o\\- a-z0-9\\n]{0,80}") {
        let _ = MoveGrid::parse(Shape::Block, &text);
        let _ = MoveGrid::parse(Shape::Plus, &text);
    }
}
