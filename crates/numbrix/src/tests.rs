use super::*;
use ground::seed::item_rng;
use ground::stats::{chi2_sf, pearson};
use std::collections::HashMap;

/// A deliberately plain solver: try every cell for 1, walk to free neighbours, and
/// check each number against the givens. No pruning besides the givens; returns the
/// number of solutions (capped) and the first.
fn brute(rows: usize, cols: usize, givens: &[u16], cap: usize) -> (usize, Option<Vec<u16>>) {
    let n = rows * cols;
    let mut at = vec![usize::MAX; n + 1];
    for (c, &v) in givens.iter().enumerate() {
        if v != 0 {
            at[v as usize] = c;
        }
    }
    /// The search: the grid, its givens and where each given number stands, the grid
    /// so far, and the solutions found (how many, and the first).
    struct Brute<'a> {
        rows: usize,
        cols: usize,
        givens: &'a [u16],
        at: &'a [usize],
        cap: usize,
        grid: Vec<u16>,
        found: (usize, Option<Vec<u16>>),
    }
    impl Brute<'_> {
        /// Place number `k` at cell `c` and go on from there.
        fn step(&mut self, c: usize, k: usize) {
            let (rows, cols) = (self.rows, self.cols);
            let n = rows * cols;
            if self.grid[c] != 0 || (self.givens[c] != 0 && self.givens[c] as usize != k) {
                return;
            }
            if self.at[k] != usize::MAX && self.at[k] != c {
                return;
            }
            self.grid[c] = k as u16;
            if k == n {
                self.found.0 += 1;
                if self.found.1.is_none() {
                    self.found.1 = Some(self.grid.clone());
                }
            } else {
                let (r, col) = (c / cols, c % cols);
                let mut next = Vec::new();
                if r > 0 {
                    next.push(c - cols);
                }
                if r + 1 < rows {
                    next.push(c + cols);
                }
                if col > 0 {
                    next.push(c - 1);
                }
                if col + 1 < cols {
                    next.push(c + 1);
                }
                for d in next {
                    if self.found.0 >= self.cap {
                        break;
                    }
                    self.step(d, k + 1);
                }
            }
            self.grid[c] = 0;
        }
    }
    let mut search = Brute {
        rows,
        cols,
        givens,
        at: &at,
        cap,
        grid: vec![0u16; n],
        found: (0, None),
    };
    for c in 0..n {
        if search.found.0 >= cap {
            break;
        }
        search.step(c, 1);
    }
    search.found
}

/// Every undirected Hamiltonian path of a grid, as a canonical cell sequence.
fn all_paths(rows: usize, cols: usize) -> Vec<Vec<u16>> {
    let n = rows * cols;
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut used = vec![false; n];
    fn go(
        rows: usize,
        cols: usize,
        path: &mut Vec<u16>,
        used: &mut Vec<bool>,
        out: &mut Vec<Vec<u16>>,
    ) {
        let n = rows * cols;
        if path.len() == n {
            let rev: Vec<u16> = path.iter().rev().copied().collect();
            if *path <= rev {
                out.push(path.clone());
            }
            return;
        }
        let c = *path.last().unwrap() as usize;
        let (r, col) = (c / cols, c % cols);
        let cand = [
            (r > 0).then(|| c - cols),
            (r + 1 < rows).then(|| c + cols),
            (col > 0).then(|| c - 1),
            (col + 1 < cols).then(|| c + 1),
        ];
        for d in cand.into_iter().flatten() {
            if !used[d] {
                used[d] = true;
                path.push(d as u16);
                go(rows, cols, path, used, out);
                path.pop();
                used[d] = false;
            }
        }
    }
    for s in 0..n {
        used[s] = true;
        path.push(s as u16);
        go(rows, cols, &mut path, &mut used, &mut out);
        path.pop();
        used[s] = false;
    }
    out
}

fn canonical(path: &[u16]) -> Vec<u16> {
    let rev: Vec<u16> = path.iter().rev().copied().collect();
    if path <= &rev[..] {
        path.to_vec()
    } else {
        rev
    }
}

#[test]
fn enumeration_counts_match_the_literature() {
    // 4x4 has 276 undirected Hamiltonian paths (OEIS A096969 lists 552 directed).
    assert_eq!(all_paths(4, 4).len(), 276);
    assert_eq!(all_paths(2, 2).len(), 4);
    assert_eq!(all_paths(3, 3).len(), 20);
}

/// Draw `per_path` times as many paths as `rows x cols` has, count each undirected
/// path, and return the chi-square p-value against uniform, the counts, and how many
/// came out in canonical direction.
fn path_draws(
    sampler: &path::PathSampler,
    rows: usize,
    cols: usize,
    per_path: usize,
    stream: &str,
) -> (f64, Vec<u64>, u64) {
    let paths = all_paths(rows, cols);
    let index: HashMap<Vec<u16>, usize> = paths
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
    let mut rng = item_rng(7, stream, (rows * 100 + cols) as u64);
    let mut counts = vec![0u64; paths.len()];
    let mut forward = 0u64;
    for _ in 0..paths.len() * per_path {
        let p = sampler.sample(&mut rng);
        let key = canonical(&p);
        forward += (key == p) as u64;
        counts[*index.get(&key).expect("a valid Hamiltonian path")] += 1;
    }
    let expect = vec![per_path as f64; paths.len()];
    let (chi, cells) = pearson(&counts, &expect);
    (chi2_sf(chi, (cells - 1) as f64), counts, forward)
}

#[test]
fn backbite_paths_are_uniform_on_small_grids() {
    for (rows, cols, per_path) in [(4usize, 4usize, 60usize), (3, 4, 200), (4, 5, 25)] {
        let sampler = path::PathSampler::new(rows, cols);
        let (p, counts, forward) = path_draws(&sampler, rows, cols, per_path, "numbrix-paths");
        assert!(p > 1e-4, "{rows}x{cols}: p = {p:.2e}");
        assert!(
            counts.iter().all(|&c| c > 0),
            "{rows}x{cols}: some path never drawn"
        );
        // Direction: half the paths come out in canonical order (binomial, 5 sigma).
        let samples = counts.iter().sum::<u64>() as f64;
        assert!((forward as f64 - samples / 2.0).abs() < 5.0 * (samples / 4.0).sqrt());
    }
}

#[test]
fn a_biased_chain_is_caught_by_the_same_test() {
    // The test above has power: with too few moves from the serpentine, the draw is
    // far from uniform and the same chi-square rejects it.
    let sampler = path::PathSampler::with_steps(4, 4, 6);
    let (p, _, _) = path_draws(&sampler, 4, 4, 60, "numbrix-paths-short");
    assert!(p < 1e-10, "p = {p:.2e}");
}

fn random_givens(rng: &mut ground::seed::Rng, solution: &[u16], keep_in: u64) -> Vec<u16> {
    use rand::Rng as _;
    solution
        .iter()
        .map(|&v| {
            if rng.random_range(0..keep_in) == 0 {
                v
            } else {
                0
            }
        })
        .collect()
}

#[test]
fn solver_agrees_with_brute_force_on_small_grids() {
    use rand::Rng as _;
    let mut rng = item_rng(11, "numbrix-solver", 0);
    let mut seen = [0usize; 3];
    for (rows, cols) in [(2, 2), (2, 5), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5)] {
        let sampler = path::PathSampler::new(rows, cols);
        let mut solver = AnySolver::new(rows, cols);
        for t in 0..150 {
            let solution = sampler.sample_grid(&mut rng);
            let mut givens = random_givens(&mut rng, &solution, 2 + t % 5);
            if t % 7 == 0 {
                // Some puzzles with no solution: move one given elsewhere.
                let n = givens.len();
                let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                givens.swap(a, b);
            }
            let (count, first) = brute(rows, cols, &givens, 2);
            let v = solver.solve(&givens, u64::MAX);
            assert_eq!(
                v.count.number(),
                Some(count.min(2) as u8),
                "{rows}x{cols} {givens:?}"
            );
            seen[count.min(2)] += 1;
            if count == 1 {
                assert_eq!(v.solution, first);
            }
            if let Some(s) = &v.solution {
                solve::check_solution(rows, cols, &givens, s).unwrap();
            }
        }
    }
    assert!(
        seen.iter().all(|&k| k > 50),
        "each answer is exercised: {seen:?}"
    );
}

#[test]
fn empty_grids_and_impossible_givens() {
    let mut s = AnySolver::new(3, 3);
    let v = s.solve(&[0; 9], u64::MAX);
    assert_eq!(v.count, Count::Many);
    solve::check_solution(3, 3, &[0; 9], &v.solution.unwrap()).unwrap();
    // 1 and 2 far apart: distance.
    let mut g = vec![0u16; 9];
    g[0] = 1;
    g[8] = 2;
    assert_eq!(s.solve(&g, u64::MAX).count, Count::Zero);
    // 1 and 4 on the same colour: parity.
    let mut g = vec![0u16; 9];
    g[0] = 1;
    g[2] = 4;
    assert_eq!(s.solve(&g, u64::MAX).count, Count::Zero);
    // A 3x3 path must start and end on the majority colour (corners and centre).
    let mut g = vec![0u16; 9];
    g[1] = 1;
    assert_eq!(s.solve(&g, u64::MAX).count, Count::Zero);
    // A budget that runs out is Unknown, never One.
    let mut s = AnySolver::new(7, 7);
    assert_eq!(s.solve(&[0; 49], 3).count, Count::Unknown);
}

fn check_minimal(game: &Numbrix, p: &NumbrixPuzzle) {
    let mut solver = AnySolver::new(p.rows, p.cols);
    let mut givens = p.givens_flat();
    for c in 0..givens.len() {
        if givens[c] == 0 {
            continue;
        }
        let v = std::mem::replace(&mut givens[c], 0);
        assert_eq!(
            solver.solve(&givens, u64::MAX).count,
            Count::Many,
            "{:?} puzzle stays unique without the {v} at cell {c}",
            game.params.style
        );
        givens[c] = v;
    }
}

#[test]
fn generated_puzzles_are_unique_and_minimal_and_agree_with_brute_force() {
    for style in [Style::Free, Style::Symmetric, Style::Border] {
        for (rows, cols, count) in [(4, 4, 60), (4, 5, 60), (5, 5, 60)] {
            let game = Numbrix::new(NumbrixParams {
                size: Size { rows, cols },
                style,
                ..NumbrixParams::default()
            })
            .unwrap();
            let mut made = 0;
            for i in 0..count * 20 {
                let mut rng = item_rng(3, "numbrix-gen-test", i);
                let Outcome::Accepted(p) = game.generate(&mut rng) else {
                    continue;
                };
                game.verify(&p).unwrap();
                let (k, first) = brute(rows, cols, &p.givens_flat(), 2);
                assert_eq!(k, 1, "{style:?} {rows}x{cols}: brute force finds {k}");
                assert_eq!(first.unwrap(), p.solution_flat());
                assert!(p.minimal);
                if style != Style::Border {
                    check_minimal(&game, &p);
                }
                made += 1;
                if made == count {
                    break;
                }
            }
            assert_eq!(made, count, "{style:?} {rows}x{cols}: too many rejections");
        }
    }
}

#[test]
fn graded_puzzles_have_their_grade_and_no_clue_to_spare() {
    for want in Grade::ALL {
        let game = Numbrix::new(NumbrixParams {
            size: Size { rows: 7, cols: 7 },
            difficulty: Some(want),
            ..NumbrixParams::default()
        })
        .unwrap();
        let mut solver = AnySolver::new(7, 7);
        let mut made = 0;
        let mut spare_for_uniqueness = 0;
        for i in 0..400 {
            let Outcome::Accepted(p) = game.generate(&mut item_rng(5, "numbrix-grade", i)) else {
                continue;
            };
            game.verify(&p).unwrap();
            assert_eq!(p.difficulty, want);
            // Below hard the grade may keep clues: the record says which it proved.
            assert_eq!(p.minimal_for_grade, (want < Grade::Hard).then_some(true));
            if p.minimal {
                check_minimal(&game, &p);
            } else {
                assert!(want < Grade::Hard, "{want}: not minimal");
                spare_for_uniqueness += 1;
            }
            assert_eq!(solver.grade(&p.givens_flat()), want);
            // Every clue is needed: for uniqueness, or (below hard) for the grade.
            let mut givens = p.givens_flat();
            for c in 0..givens.len() {
                if givens[c] == 0 {
                    continue;
                }
                let v = std::mem::replace(&mut givens[c], 0);
                let unique = solver.solve(&givens, u64::MAX).count == Count::One;
                assert!(
                    !unique || (want < Grade::Hard && solver.grade(&givens) > want),
                    "{want}: the {v} can go"
                );
                givens[c] = v;
            }
            made += 1;
            if made == 40 {
                break;
            }
        }
        assert_eq!(made, 40, "{want}: too few puzzles in 400 attempts");
        // Easy 7x7 puzzles keep clues for their grade that uniqueness does not need.
        if want == Grade::Easy {
            assert!(spare_for_uniqueness > 0, "no easy puzzle kept a spare clue");
        }
    }
}

#[test]
fn the_grader_only_places_forced_numbers() {
    // On puzzles it finishes, the grader's grid is the solution; easy puzzles are
    // finished without route tracing, medium ones need it.
    let game = Numbrix::new(NumbrixParams::default()).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..60 {
        let Outcome::Accepted(p) = game.generate(&mut item_rng(9, "numbrix-grader", i)) else {
            continue;
        };
        let mut givens = p.givens_flat();
        // Top up with clues: more puzzles become easy or medium.
        clues::add_clues(
            &mut givens,
            &p.solution_flat(),
            10 + (i as usize % 4) * 6,
            &mut item_rng(9, "top-up", i),
        );
        let solver = AnySolver::new(9, 9);
        let g = solver.grade(&givens);
        *seen.entry(g).or_insert(0) += 1;
        if g < Grade::Hard {
            let filled = solver.human_fill(&givens, g);
            assert_eq!(filled, p.solution_flat());
        }
    }
    assert!(seen.len() == 3, "all three grades occur: {seen:?}");
}

#[test]
fn paths_are_hamiltonian_on_every_shape() {
    for (rows, cols) in [
        (2, 2),
        (2, 9),
        (9, 2),
        (5, 8),
        (9, 9),
        (16, 16),
        (12, 20),
        (22, 22),
    ] {
        let sampler = path::PathSampler::new(rows, cols);
        for i in 0..3 {
            let grid = sampler.sample_grid(&mut item_rng(1, "numbrix-shapes", i));
            solve::check_solution(rows, cols, &vec![0; rows * cols], &grid).unwrap();
        }
    }
}

/// Growing clues from random seeds ends at a set that brute force finds unique, holds
/// every seed, and gives only the solution's numbers.
#[test]
fn grown_clues_are_unique_by_brute_force_and_keep_the_seeds() {
    use rand::Rng as _;
    let mut rng = item_rng(5, "numbrix-grow", 0);
    let mut added = 0usize;
    for (rows, cols) in [(3, 4), (4, 4), (4, 5), (5, 5)] {
        let sampler = path::PathSampler::new(rows, cols);
        let solver = AnySolver::new(rows, cols);
        for t in 0..60 {
            let solution = sampler.sample_grid(&mut rng);
            let seeds = random_givens(&mut rng, &solution, 3 + t % 4);
            let mut pick = |len: usize| rng.random_range(0..len);
            let grown = solver
                .grow(&solution, &seeds, u64::MAX, &mut pick, &mut Vec::new())
                .expect("small grids grow within the budget");
            for c in 0..solution.len() {
                assert!(grown[c] == 0 || grown[c] == solution[c], "{grown:?}");
                assert!(seeds[c] == 0 || grown[c] == seeds[c], "a seed is lost");
            }
            let (k, first) = brute(rows, cols, &grown, 2);
            assert_eq!(k, 1, "{rows}x{cols} {grown:?}: brute force finds {k}");
            assert_eq!(first.as_deref(), Some(&solution[..]));
            added += grown.iter().zip(&seeds).filter(|(g, s)| g != s).count();
        }
    }
    assert!(added > 100, "the growth adds clues: {added}");
}

/// Above the growth threshold the free style grows clues before thinning them: the
/// puzzles are still unique (counted to two from scratch) and minimal (each clue's
/// removal lets a second solution in).
#[test]
fn grown_then_thinned_puzzles_are_unique_and_minimal() {
    let side = (1..).find(|s| s * s >= clues::GROWN_FROM).unwrap();
    let game = Numbrix::new(NumbrixParams {
        size: Size {
            rows: side,
            cols: side,
        },
        ..NumbrixParams::default()
    })
    .unwrap();
    for i in 0..2 {
        let mut rng = item_rng(8, "numbrix-grown", i);
        let Outcome::Accepted(p) = game.generate(&mut rng) else {
            panic!("a free puzzle is always made");
        };
        game.verify(&p).unwrap();
        assert!(p.minimal);
        check_minimal(&game, &p);
    }
}

/// A removal proof that runs past its budget: with `GiveUp` the selection ends (for
/// generation to draw another path), with `KeepClue` the clue stays and the puzzle,
/// still unique, is not called minimal; with room enough the same path gives a
/// minimal puzzle.
#[test]
fn a_proof_past_its_budget_drops_the_path_or_keeps_the_clue() {
    let board = Board::rect(12, 12);
    let sampler = path::PathSampler::new(12, 12);
    let mut seen_long = 0;
    for i in 0..40 {
        let mut rng = item_rng(21, "numbrix-budget", i);
        let solution = sampler.sample_grid(&mut rng);
        let select = |budget| {
            let mut solver = AnySolver::new(12, 12);
            let mut rng = item_rng(22, "numbrix-budget", i);
            clues::select(
                Style::Free,
                None,
                &mut solver,
                &board,
                &solution,
                &mut rng,
                budget,
            )
        };
        let tight = 300;
        let Err(clues::Failure::LongProof) = select(clues::Budget::GiveUp(tight)) else {
            continue;
        };
        seen_long += 1;
        let kept = select(clues::Budget::KeepClue(tight)).expect("a unique set");
        assert!(!kept.minimal, "a clue kept unproved is not minimal");
        let v = AnySolver::new(12, 12).solve(&kept.givens, u64::MAX);
        assert_eq!(v.solution.as_deref(), Some(&solution[..]));
        assert_eq!(v.count, Count::One);
        let roomy = select(clues::Budget::GiveUp(u64::MAX)).expect("proofs finish");
        assert!(roomy.minimal);
    }
    assert!(seen_long >= 5, "tight budgets run out: {seen_long} of 40");
}

/// With a node budget no larger than the short one, generation skips the short tries:
/// an item is the first path's puzzle within the user's budget, as before.
#[test]
fn a_small_node_budget_skips_the_short_tries() {
    let max_nodes = SHORT_NODES_PER_CELL * 144;
    let game = Numbrix::new(NumbrixParams {
        size: Size { rows: 12, cols: 12 },
        max_nodes,
        ..NumbrixParams::default()
    })
    .unwrap();
    for i in 0..4 {
        let mut rng = item_rng(23, "numbrix-budget", i);
        let Outcome::Accepted(made) = game.generate(&mut rng.clone()) else {
            panic!("a free puzzle is always made");
        };
        let solution = game.paths.sample_grid(&mut rng);
        let mut solver = AnySolver::new(12, 12);
        let direct = game.puzzle_for(&mut solver, &solution, &mut rng).unwrap();
        assert_eq!(made.givens, direct.givens);
    }
}
