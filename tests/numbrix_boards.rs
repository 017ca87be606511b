//! Numbrix on other boards: king moves (Hidato) and shaped grids (blocked cells).
//! The exact solver, the backbite sampler and generation are checked against a plain
//! brute force written here from the coordinates (not from the library's masks).

mod common;

use puzzlebook::games::numbrix::{
    self, path::PathSampler, solve, AnySolver, Board, Count, Mask, Moves, Numbrix, NumbrixParams,
    Prover, BLOCKED,
};
use puzzlebook::games::Game;
use puzzlebook::games::Games;
use puzzlebook::seed::item_rng;
use puzzlebook::stats::{chi2_sf, pearson};
use rand::Rng as _;
use std::collections::HashMap;

/// A board from text rows: '.' open, '#' blocked.
fn board(rows: &[&str], moves: Moves) -> Board {
    Board {
        mask: Mask {
            rows: rows.len(),
            cols: rows[0].len(),
            open: rows
                .iter()
                .flat_map(|r| r.chars().map(|c| c == '.'))
                .collect(),
        },
        moves,
    }
}

/// The open cells next to `c`, from coordinates.
fn neighbours(b: &Board, c: usize) -> Vec<usize> {
    let (rows, cols) = (b.mask.rows as isize, b.mask.cols as isize);
    let (r, col) = ((c as isize) / cols, (c as isize) % cols);
    let mut out = Vec::new();
    for dr in -1..=1isize {
        for dc in -1..=1isize {
            let diagonal = dr != 0 && dc != 0;
            if (dr == 0 && dc == 0) || (diagonal && b.moves == Moves::Orthogonal) {
                continue;
            }
            let (rr, cc) = (r + dr, col + dc);
            if rr >= 0 && cc >= 0 && rr < rows && cc < cols {
                let d = (rr * cols + cc) as usize;
                if b.mask.open[d] {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// Every directed Hamiltonian path over the open cells (cells in path order).
fn all_paths(b: &Board) -> Vec<Vec<u16>> {
    let open: Vec<usize> = (0..b.mask.open.len()).filter(|&c| b.mask.open[c]).collect();
    let mut out = Vec::new();
    fn go(b: &Board, n: usize, path: &mut Vec<u16>, used: &mut [bool], out: &mut Vec<Vec<u16>>) {
        if path.len() == n {
            out.push(path.clone());
            return;
        }
        for d in neighbours(b, *path.last().unwrap() as usize) {
            if !used[d] {
                used[d] = true;
                path.push(d as u16);
                go(b, n, path, used, out);
                path.pop();
                used[d] = false;
            }
        }
    }
    let mut used = vec![false; b.mask.open.len()];
    for &s in &open {
        used[s] = true;
        go(b, open.len(), &mut vec![s as u16], &mut used, &mut out);
        used[s] = false;
    }
    out
}

/// Solutions of `givens` (0 blank) on board `b` by brute force: how many (up to `cap`).
fn brute_count(b: &Board, givens: &[u16], cap: usize) -> usize {
    let n = b.mask.open.iter().filter(|&&o| o).count();
    let mut at = vec![usize::MAX; n + 1];
    for (c, &v) in givens.iter().enumerate() {
        if v != 0 && v != BLOCKED {
            at[v as usize] = c;
        }
    }
    /// The count's fixed inputs (board, givens, cap) and its state (grid so far, found).
    struct Brute<'a> {
        b: &'a Board,
        n: usize,
        givens: &'a [u16],
        at: &'a [usize],
        cap: usize,
        grid: Vec<u16>,
        found: usize,
    }
    impl Brute<'_> {
        /// Place number `k` at cell `c` and go on from there.
        fn step(&mut self, c: usize, k: usize) {
            let clash = self.grid[c] != 0 || (self.givens[c] != 0 && self.givens[c] as usize != k);
            if clash || (self.at[k] != usize::MAX && self.at[k] != c) {
                return;
            }
            self.grid[c] = k as u16;
            if k == self.n {
                self.found += 1;
            } else {
                for d in neighbours(self.b, c) {
                    if self.found >= self.cap {
                        break;
                    }
                    self.step(d, k + 1);
                }
            }
            self.grid[c] = 0;
        }
    }
    let grid: Vec<u16> = b
        .mask
        .open
        .iter()
        .map(|&o| if o { 0 } else { BLOCKED })
        .collect();
    let mut brute = Brute {
        b,
        n,
        givens,
        at: &at,
        cap,
        grid,
        found: 0,
    };
    for c in (0..brute.grid.len()).filter(|&c| b.mask.open[c]) {
        if brute.found >= cap {
            break;
        }
        brute.step(c, 1);
    }
    brute.found
}

fn cells_of(path: &[u16], b: &Board) -> Vec<u16> {
    let mut cells: Vec<u16> = b
        .mask
        .open
        .iter()
        .map(|&o| if o { 0 } else { BLOCKED })
        .collect();
    for (k, &c) in path.iter().enumerate() {
        cells[c as usize] = k as u16 + 1;
    }
    cells
}

fn small_boards() -> Vec<(&'static str, Board)> {
    vec![
        ("king 3x3", board(&["...", "...", "..."], Moves::King)),
        ("king 2x4", board(&["....", "...."], Moves::King)),
        (
            "king 3x4 shaped",
            board(&["#...", "....", "...#"], Moves::King),
        ),
        (
            "orthogonal 4x4 shaped",
            board(&["....", ".#..", "....", "..#."], Moves::Orthogonal),
        ),
        (
            "orthogonal 3x5 ring",
            board(&[".....", ".#.#.", "....."], Moves::Orthogonal),
        ),
        (
            "king 4x4 shaped",
            board(&["#..#", "....", "....", "#..#"], Moves::King),
        ),
    ]
}

#[test]
fn enumeration_counts_match_known_values() {
    // Facts a reader can check by hand: a 2x2 king board is a complete graph on 4
    // cells (4! = 24 directed paths); an orthogonal 2x3 has 8 undirected (16 directed)
    // paths.
    assert_eq!(all_paths(&board(&["..", ".."], Moves::King)).len(), 24);
    assert_eq!(
        all_paths(&board(&["...", "..."], Moves::Orthogonal)).len(),
        16
    );
    // With the top middle blocked, one way round (two directions).
    assert_eq!(
        all_paths(&board(&[".#.", "..."], Moves::Orthogonal)).len(),
        2
    );
}

#[test]
fn the_solver_agrees_with_brute_force_on_small_boards() {
    for prover in [Prover::Both, Prover::Search, Prover::Clauses] {
        agrees_with_brute_force(prover);
    }
}

/// Givens from `solution`: each open cell's number kept with chance 1 in `keep`.
fn some_givens(solution: &[u16], keep: usize, rng: &mut impl rand::Rng) -> Vec<u16> {
    solution
        .iter()
        .map(|&v| {
            if v == BLOCKED || rng.random_range(0..keep) == 0 {
                v
            } else {
                0
            }
        })
        .collect()
}

/// One prover's counts against brute force on random givens of every small board.
fn agrees_with_brute_force(prover: Prover) {
    let mut rng = item_rng(5, "numbrix-boards", 0);
    let mut seen = [0usize; 3];
    for (name, b) in small_boards() {
        let paths = all_paths(&b);
        assert!(!paths.is_empty(), "{name}");
        let mut solver = AnySolver::for_board(&b);
        solver.set_prover(prover);
        for t in 0..120 {
            let path = &paths[rng.random_range(0..paths.len())];
            let solution = cells_of(path, &b);
            let mut givens = some_givens(&solution, 2 + t % 5, &mut rng);
            if t % 3 == 0 {
                // Some with no solution: swap two open cells' contents.
                let open: Vec<usize> = (0..givens.len()).filter(|&c| b.mask.open[c]).collect();
                let (x, y) = (
                    open[rng.random_range(0..open.len())],
                    open[rng.random_range(0..open.len())],
                );
                givens.swap(x, y);
            }
            let count = brute_count(&b, &givens, 2);
            let v = solver.solve(&givens, u64::MAX);
            assert_eq!(
                v.count.number(),
                Some(count as u8),
                "{prover:?} {name}: {givens:?}"
            );
            seen[count] += 1;
            if let Some(s) = &v.solution {
                solve::check_board_solution(&b, &givens, s).unwrap();
            }
        }
    }
    assert!(
        seen.iter().all(|&k| k > 40),
        "each answer is exercised: {seen:?}"
    );
}

/// The removal check ("is there a solution without this clue's number in its cell?")
/// as the clause prover answers it, with the known solution as its hint, against brute
/// force: orthogonal boards, where its clauses include the path's edges.
#[test]
fn the_clause_prover_agrees_with_brute_force_on_removal_checks() {
    let boards = [
        board(&["....", "....", "....", "...."], Moves::Orthogonal),
        board(&[".....", ".....", ".....", "....."], Moves::Orthogonal),
        board(&["....", ".#..", "....", "..#."], Moves::Orthogonal),
        board(&[".....", ".#.#.", "....."], Moves::Orthogonal),
        board(&["#...#", ".....", ".....", "#...."], Moves::Orthogonal),
    ];
    let mut rng = item_rng(11, "numbrix-removal", 0);
    let mut seen = [0usize; 3];
    for b in &boards {
        let paths: Vec<Vec<u16>> = all_paths(b).iter().map(|p| cells_of(p, b)).collect();
        let mut solver = AnySolver::for_board(b);
        solver.set_prover(Prover::Clauses);
        for t in 0..150 {
            let solution = &paths[rng.random_range(0..paths.len())];
            let mut cells = some_givens(solution, 2 + t % 4, &mut rng);
            let given: Vec<usize> = (0..cells.len())
                .filter(|&c| cells[c] != 0 && cells[c] != BLOCKED)
                .collect();
            if given.is_empty() {
                continue;
            }
            let c = given[rng.random_range(0..given.len())];
            let v = std::mem::replace(&mut cells[c], 0);
            let fits =
                |p: &Vec<u16>| p[c] != v && cells.iter().zip(p).all(|(&g, &x)| g == 0 || g == x);
            let want = paths.iter().filter(|p| fits(p)).count().min(2);
            let got = solver.other_than(&cells, c, v, u64::MAX, Some(solution));
            // The check stops at the first other solution: One for one or more.
            assert_eq!(
                got.count.number(),
                Some(u8::from(want > 0)),
                "{cells:?} without {v} at {c}"
            );
            if let Some(other) = &got.solution {
                assert!(fits(other), "{other:?} keeps the givens and moves {v}");
                solve::check_board_solution(b, &cells, other).unwrap();
            }
            seen[want] += 1;
        }
    }
    assert!(
        seen.iter().all(|&k| k > 40),
        "each answer is exercised: {seen:?}"
    );
}

#[test]
fn king_solutions_use_diagonals_and_orthogonal_ones_do_not() {
    // 1 and 2 touch only diagonally: a king board allows it, an orthogonal one cannot.
    let g = [1, 0, 0, 2];
    let king = board(&["..", ".."], Moves::King);
    let orth = board(&["..", ".."], Moves::Orthogonal);
    assert_ne!(
        AnySolver::for_board(&king).solve(&g, u64::MAX).count,
        Count::Zero
    );
    assert_eq!(
        AnySolver::for_board(&orth).solve(&g, u64::MAX).count,
        Count::Zero
    );
    // The independent check agrees.
    let diagonal_step = [1, 3, 4, 2];
    assert!(solve::check_board_solution(&king, &[0; 4], &diagonal_step).is_ok());
    assert!(solve::check_board_solution(&orth, &[0; 4], &diagonal_step).is_err());
}

/// The paths one backbite move (or a reversal) leads to from `p`, from coordinates:
/// an end jumps to a neighbour that is not its path neighbour, and the stretch between
/// is reversed.
fn moves_from(b: &Board, p: &[u16]) -> Vec<Vec<u16>> {
    let mut out = vec![p.iter().rev().copied().collect::<Vec<u16>>()];
    for front in [true, false] {
        let q: Vec<u16> = if front {
            p.to_vec()
        } else {
            p.iter().rev().copied().collect()
        };
        for w in neighbours(b, q[0] as usize) {
            let i = q.iter().position(|&c| c as usize == w).unwrap();
            if i == 1 {
                continue;
            }
            let mut r: Vec<u16> = q[..i].iter().rev().copied().collect();
            r.extend_from_slice(&q[i..]);
            if !front {
                r.reverse();
            }
            out.push(r);
        }
    }
    out
}

/// The paths the chain can reach from `start`: a search over backbite moves.
fn class_of(b: &Board, start: &[u16]) -> Vec<Vec<u16>> {
    let mut seen = std::collections::HashSet::from([start.to_vec()]);
    let mut todo = vec![start.to_vec()];
    while let Some(p) = todo.pop() {
        for q in moves_from(b, &p) {
            if seen.insert(q.clone()) {
                todo.push(q);
            }
        }
    }
    let mut class: Vec<Vec<u16>> = seen.into_iter().collect();
    class.sort();
    class
}

/// Draw `per_path` times as many paths as the start's class has from the sampler, and
/// return the chi-square p-value against uniform over the class, with the counts.
fn draws(b: &Board, start: &[u16], per_path: usize, steps: u64) -> (f64, Vec<u64>) {
    let class = class_of(b, start);
    let index: HashMap<Vec<u16>, usize> = class
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
    let sampler = PathSampler::for_board(b, start.to_vec(), steps);
    let mut rng = item_rng(9, "numbrix-board-paths", class.len() as u64);
    let mut counts = vec![0u64; class.len()];
    for _ in 0..class.len() * per_path {
        let p = sampler.sample(&mut rng);
        counts[*index.get(&p).expect("a path of the start's class")] += 1;
    }
    let expect = vec![per_path as f64; class.len()];
    let (chi, cells) = pearson(&counts, &expect);
    (chi2_sf(chi, (cells - 1) as f64), counts)
}

#[test]
fn backbite_is_uniform_over_what_it_reaches_and_reaches_every_king_path() {
    // (The king 4x4 board has 36,592 paths: too many to draw each 20 times here.)
    for (name, b) in small_boards().into_iter().take(5) {
        let paths = all_paths(&b);
        // Start from a path that is not the first listed: any valid path works.
        let start = &paths[paths.len() / 2];
        let class = class_of(&b, start).len();
        if b.moves == Moves::King {
            // King moves: one class, so the chain is uniform over every path.
            assert_eq!(class, paths.len(), "{name}");
        }
        let per_path = (40_000 / class).clamp(20, 400);
        let (p, counts) = draws(&b, start, per_path, numbrix::path::default_steps(b.count()));
        assert!(p > 1e-4, "{name}: {class} paths, p = {p:.2e}");
        assert!(counts.iter().all(|&c| c > 0), "{name}: a path never drawn");
    }
    // Holes can split the paths into classes the chain cannot cross: on this board the
    // 14 paths fall into two classes (8 and 6, reversals included).
    let (_, b) = &small_boards()[3];
    let paths = all_paths(b);
    let mut sizes: Vec<usize> = Vec::new();
    let mut left: std::collections::HashSet<Vec<u16>> = paths.into_iter().collect();
    while let Some(p) = left.iter().next().cloned() {
        let class = class_of(b, &p);
        sizes.push(class.len());
        for q in class {
            left.remove(&q);
        }
    }
    sizes.sort();
    assert_eq!(sizes, [6, 8]);
}

#[test]
fn a_chain_that_is_too_short_is_caught() {
    // The same test has power: 3 moves from one start is far from uniform.
    let (_, b) = &small_boards()[0];
    let start = all_paths(b)[0].clone();
    let (p, _) = draws(b, &start, 30, 3);
    assert!(p < 1e-10, "p = {p:.2e}");
}

fn params(moves: Moves, mask: Option<&[&str]>) -> NumbrixParams {
    NumbrixParams {
        moves,
        mask: mask.map(|rows| board(rows, moves).mask),
        ..NumbrixParams::default()
    }
}

#[test]
fn generated_puzzles_on_small_boards_are_unique_and_minimal_by_brute_force() {
    let shapes: [(Moves, &[&str]); 3] = [
        (Moves::King, &["....", "....", "...."]),
        (Moves::King, &["#...", "....", "...#"]),
        (Moves::Orthogonal, &["....", ".#..", "....", "....", ".#.."]),
    ];
    for (moves, rows) in shapes {
        let game = Numbrix::new(params(moves, Some(rows))).unwrap();
        let b = game.board().clone();
        let mut made = 0;
        for i in 0..40 {
            let mut rng = item_rng(3, "numbrix-small-boards", i);
            let puzzlebook::games::Outcome::Accepted(p) = game.generate(&mut rng) else {
                continue;
            };
            made += 1;
            game.verify(&p).unwrap();
            let givens = p.givens_flat();
            assert_eq!(brute_count(&b, &givens, 2), 1, "{rows:?}: unique");
            assert!(p.minimal);
            for c in (0..givens.len()).filter(|&c| givens[c] != 0 && givens[c] != BLOCKED) {
                let mut fewer = givens.clone();
                fewer[c] = 0;
                assert_eq!(
                    brute_count(&b, &fewer, 2),
                    2,
                    "{rows:?}: clue {c} is needed"
                );
            }
        }
        assert!(made >= 30, "{rows:?}: {made} of 40");
    }
}

#[test]
fn king_and_shaped_9x9_puzzles_verify_and_keep_their_blocks() {
    let cross: Vec<String> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| {
                    if !(2..=6).contains(&r) && !(2..=6).contains(&c) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let cross: Vec<&str> = cross.iter().map(|s| s.as_str()).collect();
    for (moves, mask) in [
        (Moves::King, None),
        (Moves::Orthogonal, Some(&cross[..])),
        (Moves::King, Some(&cross[..])),
    ] {
        let game = Numbrix::new(params(moves, mask)).unwrap();
        for i in 0..6 {
            let mut rng = item_rng(8, "numbrix-9x9-boards", i);
            let puzzlebook::games::Outcome::Accepted(p) = game.generate(&mut rng) else {
                continue;
            };
            game.verify(&p).unwrap();
            let g = p.givens_flat();
            for (c, &v) in g.iter().enumerate() {
                assert_eq!(v == BLOCKED, !game.board().is_open(c));
            }
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(
                json.contains("-1"),
                mask.is_some(),
                "blocked cells are -1 in records"
            );
            assert_eq!(json.contains(r#""moves":"king""#), moves == Moves::King);
            let mut solver = AnySolver::for_board(game.board());
            assert_eq!(solver.solve(&g, u64::MAX).count, Count::One);
        }
    }
}

#[test]
fn the_hidato_worked_example_is_unique_and_each_step_is_forced() {
    let ex = numbrix::hidato_example();
    let b = board(&["....", "....", "....", "...."], Moves::King);
    assert_eq!(brute_count(&b, ex.givens, 2), 1);
    let v = AnySolver::for_board(&b).solve(ex.givens, u64::MAX);
    assert_eq!(v.solution.as_deref(), Some(&ex.solution[..]));
    solve::check_board_solution(&b, ex.givens, ex.solution).unwrap();
    // The path really uses diagonals (else it would be a Numbrix example).
    let orth = board(&["....", "....", "....", "...."], Moves::Orthogonal);
    assert!(solve::check_board_solution(&orth, ex.givens, ex.solution).is_err());
    // "x goes between a and b" and "x must touch a and b": with what is known before
    // the step, exactly one free square touches both, and it is x's.
    let between = |known: &[u16], lo: u16, hi: u16| -> Vec<usize> {
        let at = |v: u16| known.iter().position(|&x| x == v).unwrap();
        let (a, c) = (neighbours(&b, at(lo)), neighbours(&b, at(hi)));
        a.into_iter()
            .filter(|x| known[*x] == 0 && c.contains(x))
            .collect()
    };
    let mut known = ex.givens.to_vec();
    let claims: [&[(u16, u16, u16)]; 4] =
        [&[(1, 3, 2)], &[(11, 13, 12)], &[(7, 9, 8)], &[(5, 7, 6)]];
    for ((numbers, text), claim) in ex.steps.iter().zip(claims) {
        for &(lo, hi, mid) in claim {
            let common = between(&known, lo, hi);
            assert_eq!(common.len(), 1, "{text}");
            assert_eq!(ex.solution[common[0]], mid, "{text}");
        }
        for &n in *numbers {
            assert!(text.contains(&n.to_string()), "{text} should name {n}");
            let c = ex.solution.iter().position(|&v| v == n).unwrap();
            known[c] = n;
        }
    }
    assert_eq!(known, ex.solution.to_vec());
}

/// The shaped worked example (for a grid with dark squares): one solution on its own
/// board, found by brute force and by the solver; every step's claim holds with what
/// is known before it ("one free square beside it" or "between"), each line names
/// its numbers, and the steps write every number once.
#[test]
fn the_shaped_worked_examples_are_unique_and_each_step_is_forced() {
    for (ex, moves) in [
        (numbrix::shaped_example(), Moves::Orthogonal),
        (numbrix::shaped_hidato_example(), Moves::King),
    ] {
        shaped_example_holds(&ex, moves);
    }
    // The Hidato one really steps diagonally.
    let ex = numbrix::shaped_hidato_example();
    let rows = ["#...", ".#..", "....", "...."];
    let mark = |v: &[u16]| -> Vec<u16> {
        v.iter()
            .enumerate()
            .map(|(c, &x)| if ex.blocked.contains(&c) { BLOCKED } else { x })
            .collect()
    };
    assert!(solve::check_board_solution(
        &board(&rows, Moves::Orthogonal),
        &mark(ex.givens),
        &mark(ex.solution)
    )
    .is_err());
}

fn shaped_example_holds(ex: &numbrix::Example, moves: Moves) {
    let rows: Vec<String> = (0..4)
        .map(|r| {
            (0..4)
                .map(|c| {
                    if ex.blocked.contains(&(r * 4 + c)) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let b = board(&rows, moves);
    assert!(!ex.blocked.is_empty(), "a shaped example has dark squares");
    let mark = |v: &[u16]| -> Vec<u16> {
        v.iter()
            .enumerate()
            .map(|(c, &x)| if ex.blocked.contains(&c) { BLOCKED } else { x })
            .collect()
    };
    let (givens, solution) = (mark(ex.givens), mark(ex.solution));
    assert_eq!(brute_count(&b, &givens, 2), 1);
    let v = AnySolver::for_board(&b).solve(&givens, u64::MAX);
    assert_eq!(v.count, Count::One);
    assert_eq!(v.solution.as_deref(), Some(&solution[..]));
    solve::check_board_solution(&b, &givens, &solution).unwrap();
    let n = b.mask.open.iter().filter(|&&o| o).count() as u16;
    assert!(ex.start.contains(&format!("1–{n}")), "{}", ex.start);
    // Each number the steps write is forced by a stated reason.
    let mut known = givens.clone();
    for &(numbers, text) in &ex.steps {
        let free = |known: &[u16], c: usize| -> Vec<usize> {
            neighbours(&b, c)
                .into_iter()
                .filter(|&x| known[x] == 0)
                .collect()
        };
        let at = |known: &[u16], v: u16| known.iter().position(|&x| x == v);
        for &k in numbers {
            assert!(text.contains(&k.to_string()), "{text} should name {k}");
            let cell = solution.iter().position(|&v| v == k).unwrap();
            assert_eq!(known[cell], 0);
            // Either k - 1 is placed (with k - 2 placed, or k - 1 = 1) and has one free
            // square beside it; or k + 1 likewise from above; or k - 1 and k + 1 are
            // placed and share exactly one free square; or it is the last square.
            let one_free_after = at(&known, k - 1).is_some_and(|p| {
                (k == 2 || at(&known, k - 2).is_some()) && free(&known, p) == vec![cell]
            });
            let one_free_before = k < n
                && at(&known, k + 1).is_some_and(|p| {
                    (k + 1 == n || at(&known, k + 2).is_some()) && free(&known, p) == vec![cell]
                });
            let between = k < n
                && match (at(&known, k - 1), at(&known, k + 1)) {
                    (Some(a), Some(c)) => {
                        let fa = free(&known, a);
                        let common: Vec<usize> = free(&known, c)
                            .into_iter()
                            .filter(|x| fa.contains(x))
                            .collect();
                        common == vec![cell]
                    }
                    _ => false,
                };
            let last = known.iter().filter(|&&x| x == 0).count() == 1;
            assert!(
                one_free_after || one_free_before || between || last,
                "{k} is not forced as \"{text}\" says"
            );
        }
        for &k in numbers.iter() {
            let cell = solution.iter().position(|&v| v == k).unwrap();
            known[cell] = k;
        }
    }
    assert_eq!(known, solution);
}

/// A "how to play" page shared by square and shaped sections draws the shaped example
/// (its first line tells of the dark squares); a book of square grids only, the square
/// one.
#[test]
fn how_to_pages_show_a_shaped_example_when_the_book_has_shaped_grids() {
    use puzzlebook::book::template::Template;
    use puzzlebook::book::{compose, BookOptions};
    use puzzlebook::canvas::Shape;
    let texts = |name: &str, title: &str| -> Vec<String> {
        let t = Template::load::<Games>(&common::template(name)).unwrap();
        let b = compose::<Games>(&t, &BookOptions::default()).unwrap();
        b.pages
            .iter()
            .filter(|p| {
                p.shapes
                    .iter()
                    .any(|s| matches!(s, Shape::Text { text, .. } if text.starts_with(title)))
            })
            .flat_map(|p| p.shapes.iter())
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let first_words = |s: &str| s.split_whitespace().take(6).collect::<Vec<_>>().join(" ");
    let shaped = first_words(numbrix::shaped_example().start);
    let square = first_words(numbrix::example().start);
    let joined = |v: Vec<String>| v.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
    let hidato_book = joined(texts("hidato-shapes-6x9.toml", "How to play Numbrix"));
    assert!(hidato_book.contains(&shaped), "{hidato_book}");
    let numbrix_book = joined(texts("numbrix-6x9.toml", "How to play Numbrix"));
    assert!(numbrix_book.contains(&square) && !numbrix_book.contains(&shaped));
    // The Hidato page: its first section is square, a later one (hearts) shaped.
    let shaped_king = first_words(numbrix::shaped_hidato_example().start);
    let hidato_page = joined(texts("hidato-shapes-6x9.toml", "How to play Hidato"));
    assert!(hidato_page.contains(&shaped_king), "{hidato_page}");
}
