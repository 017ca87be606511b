use super::*;
use ground::seed::item_rng;
use std::collections::HashMap;

/// Every board reachable from the target by some set of moves, with the fewest moves
/// that reach it, by trying all 2^(moves) sets (a deliberately simple second method).
fn brute_force(l: &MoveGrid) -> HashMap<Vec<bool>, u32> {
    let mut best: HashMap<Vec<bool>, u32> = HashMap::new();
    let n = l.moves();
    for set in 0u32..(1u32 << n) {
        let mut cells = vec![false; l.cells()];
        let (tr, tc) = l.target_cell();
        cells[l.cell(tr, tc)] = true;
        for m in 0..n {
            if set >> m & 1 == 1 {
                for (r, c) in l.move_cells(m) {
                    cells[l.cell(r, c)] ^= true;
                }
            }
        }
        let w = set.count_ones();
        best.entry(cells)
            .and_modify(|b| *b = (*b).min(w))
            .or_insert(w);
    }
    best
}

fn to_bits(cells: &[bool]) -> Bits {
    let mut b = Bits::zeros(cells.len());
    for (i, &v) in cells.iter().enumerate() {
        b.set(i, v);
    }
    b
}

fn check_against_brute_force(l: MoveGrid) {
    let best = brute_force(&l);
    let solver = Solver::new(l);
    if l.shape == Shape::Block {
        // Injective: every set of blocks gives a different board.
        assert_eq!(best.len(), 1 << l.moves(), "{l:?}");
    }
    for (cells, &min) in &best {
        let start = to_bits(cells);
        let Solution::Solved(moves) = solver.solve(&start).unwrap() else {
            panic!("{l:?}: reachable board called unsolvable");
        };
        assert_eq!(moves.len() as u32, min, "{l:?}");
        let mut b = start.clone();
        solver.apply(&mut b, &moves);
        assert_eq!(b, l.target());
    }
}

#[test]
fn block_minimum_matches_brute_force_up_to_4x4() {
    for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)] {
        check_against_brute_force(MoveGrid::new(Shape::Block, r, c).unwrap());
    }
}

#[test]
fn plus_minimum_matches_brute_force_including_singular_4x4() {
    for (r, c) in [(2, 2), (3, 3), (2, 5), (4, 4)] {
        check_against_brute_force(MoveGrid::new(Shape::Plus, r, c).unwrap());
    }
    // 4x4 Lights Out is the classic singular case: the search must really be needed.
    assert_eq!(
        Solver::new(MoveGrid::new(Shape::Plus, 4, 4).unwrap()).nullity(),
        4
    );
}

#[test]
fn unreachable_boards_are_called_unsolvable() {
    for shape in [Shape::Block, Shape::Plus] {
        let l = MoveGrid::new(shape, 3, 3).unwrap();
        let best = brute_force(&l);
        let solver = Solver::new(l);
        let mut rng = item_rng(9, "test", 0);
        for _ in 0..300 {
            let cells: Vec<bool> = (0..l.cells()).map(|_| rng.random()).collect();
            let verdict = solver.solve(&to_bits(&cells)).unwrap();
            match (best.get(&cells), verdict) {
                (Some(&min), Solution::Solved(m)) => assert_eq!(m.len() as u32, min),
                (None, Solution::Unsolvable(why)) => assert!(!why.is_empty()),
                (expected, got) => panic!("{shape:?}: brute force {expected:?}, solver {got:?}"),
            }
        }
    }
}

#[test]
fn rank_and_single_dot_claims_of_the_spec() {
    for i in [2, 3, 5, 9, 16] {
        let a = analyze(MoveGrid::new(Shape::Block, i, i).unwrap());
        assert_eq!(a.rank, i * i, "injective for i = {i}");
        assert_eq!(a.invariants, 4 * i + 4);
        assert_eq!(a.single_dot_reachable, 1, "only the target for i = {i}");
    }
    // Lights Out 5x5 has a null space of dimension 2.
    assert_eq!(
        analyze(MoveGrid::new(Shape::Plus, 5, 5).unwrap()).nullity,
        2
    );
}

#[test]
fn generated_puzzles_verify_and_are_minimal_at_every_size() {
    for (size, shape) in [
        (2, Shape::Block),
        (9, Shape::Block),
        (32, Shape::Block),
        (5, Shape::Plus),
        (9, Shape::Plus),
    ] {
        let params = FlipParams {
            size: Size {
                rows: size,
                cols: size,
            },
            shape,
            ..FlipParams::default()
        };
        let game = Flip::new(params).unwrap();
        for i in 0..20 {
            let Outcome::Accepted(p) = game.generate(&mut item_rng(3, "flip", i)) else {
                continue;
            };
            game.verify(&p).unwrap();
            assert_eq!(p.start.len(), size + 2 * shape.margin());
            let (_, parsed) = MoveGrid::parse(shape, &game.text(&p)).unwrap();
            assert_eq!(parsed, p.board, "text round trip");
        }
    }
}

#[test]
fn rectangles_work() {
    let game = Flip::new(FlipParams {
        size: "3x7".parse().unwrap(),
        ..FlipParams::default()
    })
    .unwrap();
    let Outcome::Accepted(p) = game.generate(&mut item_rng(1, "flip", 0)) else {
        panic!()
    };
    assert_eq!(p.start.len(), 5);
    assert!(p.start.iter().all(|r| r.len() == 9));
    game.verify(&p).unwrap();
}

#[test]
fn one_dot_compat_reproduces_the_lcg() {
    // Worked by hand (and in Python): x = 1, 2469, 2508, 33278, ... ; for 3x3 the blocks
    // at k = 3, 5, 6 are flipped.
    assert_eq!(one_dot_scramble(9), vec![3, 5, 6]);
    assert_eq!(
        one_dot_scramble(25),
        vec![3, 5, 6, 9, 12, 17, 18, 20, 21, 23, 24]
    );
    let game = Flip::new(FlipParams {
        size: Size { rows: 3, cols: 3 },
        compat: Some(Compat::OneDot),
        ..FlipParams::default()
    })
    .unwrap();
    let Outcome::Accepted(p) = game.generate(&mut item_rng(1, "flip", 0)) else {
        panic!()
    };
    assert_eq!(p.solution, vec!["a2", "c2", "a3"]);
    assert_eq!(p.min_moves, 3);
}

#[test]
fn bad_parameters_are_refused() {
    for size in [0, 1, 53] {
        let r = Flip::new(FlipParams {
            size: Size {
                rows: size,
                cols: size,
            },
            ..FlipParams::default()
        });
        assert!(r.is_err(), "size {size}");
    }
    assert!(Flip::new(FlipParams {
        shape: Shape::Plus,
        compat: Some(Compat::OneDot),
        ..FlipParams::default()
    })
    .is_err());
}

#[test]
fn a_record_read_back_must_claim_the_proven_minimum() {
    // Plus boards have several solutions of different lengths: a record may carry a
    // valid but longer one and claim its length as the minimum.
    let game = Flip::new(FlipParams {
        size: Size { rows: 4, cols: 4 },
        shape: Shape::Plus,
        ..FlipParams::default()
    })
    .unwrap();
    let l = game.layout();
    let p = (0..50)
        .find_map(|i| match game.generate(&mut item_rng(7, "flip", i)) {
            Outcome::Accepted(p) => Some(p),
            _ => None,
        })
        .unwrap();
    let record = serde_json::to_value(&p).unwrap();
    let back = game.read_record(&record).unwrap().unwrap();
    assert_eq!(back.board, p.board);
    assert_eq!(back.moves, p.moves);
    game.verify(&back).unwrap();
    // Every set of presses that clears the board, by brute force over all 2^16.
    let longer = (0u32..1 << l.moves())
        .map(|set| {
            (0..l.moves())
                .filter(|m| set >> m & 1 == 1)
                .collect::<Vec<_>>()
        })
        .find(|moves| {
            let mut b = p.board.clone();
            game.solver().apply(&mut b, moves);
            b == l.target() && moves.len() > p.min_moves
        })
        .expect("a plus board has longer solutions");
    let mut forged = record.clone();
    forged["min_moves"] = longer.len().into();
    forged["solution"] = longer
        .iter()
        .map(|&m| l.move_name(m))
        .collect::<Vec<_>>()
        .into();
    // The forged record is self-consistent, so verify alone would pass it...
    let mut consistent = back.clone();
    consistent.min_moves = longer.len();
    consistent.solution = longer.iter().map(|&m| l.move_name(m)).collect();
    game.verify(&consistent).unwrap();
    // ...but reading it back proves the real minimum.
    let e = game.read_record(&forged).unwrap().unwrap_err().to_string();
    assert!(
        e.contains(&format!("the fewest moves are {}", p.min_moves)),
        "{e}"
    );
}
