//! Numbrix's book-facing side: print rules of the drawings at the book's sizes, the
//! answer drawing's bold clues and regular written numbers, the rating scale, reader
//! text, and the worked example (one solution by the project's solver and by a plain
//! search here; every step agrees with it).

mod common;

use puzzlebook::canvas::{Canvas, Face, Rect, Shape};
use puzzlebook::games::numbrix::{
    self, AnySolver, Count, Grade, Numbrix, NumbrixParams, NumbrixPuzzle,
};
use puzzlebook::games::Present;
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;

fn game(d: Grade) -> Numbrix {
    Numbrix::new(NumbrixParams {
        difficulty: Some(d),
        ..NumbrixParams::default()
    })
    .unwrap()
}

fn puzzles(g: &Numbrix, n: usize) -> Vec<NumbrixPuzzle> {
    (0..)
        .filter_map(|k| match g.generate(&mut item_rng(11, "numbrix-book", k)) {
            Outcome::Accepted(p) => Some(p),
            Outcome::Rejected(_) => None,
        })
        .take(n)
        .collect()
}

fn check_print(c: &Canvas, area: Rect, what: &str) {
    common::assert_print_rules(c, area, what);
    assert!(
        c.min_text_pt().is_some() && c.min_line_mm().is_some(),
        "{what}: text and lines are drawn"
    );
}

#[test]
fn drawings_meet_the_print_rules_and_answers_tell_clues_from_written_numbers() {
    let g = game(Grade::Easy);
    for p in puzzles(&g, 3) {
        for width in [80.0, 120.0] {
            let area = Rect::new(20.0, 30.0, width, width / g.aspect());
            let mut c = Canvas::new();
            g.draw(&p, &mut c, area, false);
            check_print(&c, area, &format!("puzzle at {width} mm"));
        }
        for width in [55.0, 60.0] {
            let area = Rect::new(10.0, 10.0, width, width / g.answer_aspect(&p));
            let mut c = Canvas::new();
            g.draw_answer(&p, &mut c, area);
            check_print(&c, area, &format!("answer at {width} mm"));
            // Every square has its number: the clues bold, the rest regular.
            let (mut bold, mut regular) = (Vec::new(), Vec::new());
            for s in &c.shapes {
                if let Shape::Text { face, text, .. } = s {
                    let v: u16 = text.parse().unwrap();
                    match face {
                        Face::Bold => bold.push(v),
                        Face::Regular => regular.push(v),
                        Face::Loaded(_) => panic!("a game draws with the bundled faces only"),
                    }
                }
            }
            let mut givens: Vec<u16> = p.givens_flat().into_iter().filter(|&v| v != 0).collect();
            givens.sort_unstable();
            bold.sort_unstable();
            assert_eq!(bold, givens);
            let mut all = [bold, regular].concat();
            all.sort_unstable();
            assert_eq!(all, (1..=81).collect::<Vec<u16>>());
        }
        assert!(g.answer(&p).is_empty());
    }
}

#[test]
fn captions_and_rules_are_reader_words() {
    let g = game(Grade::Easy);
    let p = &puzzles(&g, 1)[0];
    assert_eq!(g.caption(p), "Easy, fill in 1–81");
    let how = g.how_to_play();
    // The how-to page serves every grid of the book (one page a game); the range of
    // each puzzle is in its caption.
    assert!(
        how.contains("from 1 up to the number of light squares"),
        "{how}"
    );
    assert!(how.split_whitespace().count() <= 130, "{how}");
    assert!(!how.contains('\'') && !how.contains(" x "), "{how}");
}

#[test]
fn rating_is_grade_first_then_the_work_left() {
    use numbrix::rating;
    let stars = |g, s| rating(g, s).stars;
    assert_eq!(stars(Grade::Easy, 0.80), 1);
    assert_eq!(stars(Grade::Easy, 0.83), 2);
    assert_eq!(stars(Grade::Medium, 0.5), 2);
    assert_eq!(stars(Grade::Medium, 0.7), 3);
    assert_eq!(stars(Grade::Hard, 0.8), 4);
    assert_eq!(stars(Grade::Hard, 0.89), 5);
    // Every easy puzzle scores below every medium one, and medium below hard.
    assert!(rating(Grade::Easy, 1.0).score < rating(Grade::Medium, 0.0).score);
    assert!(rating(Grade::Medium, 1.0).score < rating(Grade::Hard, 0.0).score);
    // On real puzzles: the easy share is the share of squares without a clue.
    let g = game(Grade::Easy);
    for p in puzzles(&g, 3) {
        let r = g.rating(&p).unwrap();
        let share = (81 - p.clues) as f64 / 81.0;
        assert!((r.score - rating(Grade::Easy, share).score).abs() < 1e-9);
        assert!((1..=2).contains(&r.stars));
    }
    // A medium puzzle: its share is what the easy techniques leave, counted here from
    // the grid they leave.
    let g = game(Grade::Medium);
    let p = &puzzles(&g, 1)[0];
    let solver = AnySolver::new(9, 9);
    let left = solver
        .human_fill(&p.givens_flat(), Grade::Easy)
        .iter()
        .filter(|&&v| v == 0)
        .count();
    assert!(
        left > 0,
        "a medium puzzle needs more than the easy techniques"
    );
    let r = g.rating(p).unwrap();
    assert_eq!(r, rating(Grade::Medium, left as f64 / 81.0));
    assert!((2..=3).contains(&r.stars));
}

/// Every solution of a 4 × 4 puzzle, by trying every start square and walking.
fn all_solutions(givens: &[u16]) -> Vec<Vec<u16>> {
    fn walk(at: usize, k: u16, givens: &[u16], grid: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
        if grid[at] != 0 || (givens[at] != 0 && givens[at] != k) {
            return;
        }
        if givens.iter().position(|&v| v == k).is_some_and(|c| c != at) {
            return;
        }
        grid[at] = k;
        if k == 16 {
            out.push(grid.clone());
        } else {
            let (r, c) = (at / 4, at % 4);
            let mut next = Vec::new();
            if r > 0 {
                next.push(at - 4);
            }
            if r < 3 {
                next.push(at + 4);
            }
            if c > 0 {
                next.push(at - 1);
            }
            if c < 3 {
                next.push(at + 1);
            }
            for n in next {
                walk(n, k + 1, givens, grid, out);
            }
        }
        grid[at] = 0;
    }
    let mut out = Vec::new();
    for start in 0..16 {
        walk(start, 1, givens, &mut vec![0; 16], &mut out);
    }
    out
}

#[test]
fn the_worked_example_has_one_solution_and_its_steps_agree() {
    let ex = numbrix::example();
    // The project's solver: exactly one solution, the example's.
    let v = AnySolver::new(4, 4).solve(ex.givens, u64::MAX);
    assert_eq!(v.count, Count::One);
    assert_eq!(v.solution.as_deref(), Some(&ex.solution[..]));
    // A plain search agrees.
    assert_eq!(all_solutions(ex.givens), vec![ex.solution.to_vec()]);
    // The steps write every missing number once, each where the solution has it.
    let mut written: Vec<u16> = ex
        .steps
        .iter()
        .flat_map(|(n, _)| n.iter().copied())
        .collect();
    written.extend(ex.givens.iter().filter(|&&v| v != 0));
    written.sort_unstable();
    assert_eq!(written, (1..=16).collect::<Vec<u16>>());
    // Each step's numbers are forced: with what is known before the step, every
    // solution that still fits puts them in the same squares (there is one solution,
    // so this is the solution's square), and each line names its numbers.
    let mut known = ex.givens.to_vec();
    for (numbers, text) in ex.steps {
        assert_eq!(all_solutions(&known), vec![ex.solution.to_vec()]);
        for &n in numbers {
            assert!(text.contains(&n.to_string()), "{text} should name {n}");
            let c = ex.solution.iter().position(|&v| v == n).unwrap();
            assert_eq!(known[c], 0);
            known[c] = n;
        }
    }
    assert_eq!(known, ex.solution.to_vec());
    // Step 1: 2 is the only square next to both 1 and 3; 8 next to both 7 and 9.
    let nbr = |a: usize, b: usize| a.abs_diff(b) == 4 || (a / 4 == b / 4 && a.abs_diff(b) == 1);
    let at = |v: u16| ex.givens.iter().position(|&x| x == v).unwrap();
    for (lo, hi, mid) in [(1, 3, 2), (7, 9, 8)] {
        let common: Vec<usize> = (0..16)
            .filter(|&c| ex.givens[c] == 0 && nbr(c, at(lo)) && nbr(c, at(hi)))
            .collect();
        assert_eq!(common.len(), 1);
        assert_eq!(ex.solution[common[0]], mid);
    }
}

#[test]
fn the_worked_example_fits_a4_and_6x9() {
    let g = game(Grade::Easy);
    for (w, h) in [(180.0, 160.0), (125.0, 110.0)] {
        let area = Rect::new(15.0, 120.0, w, h);
        let mut c = Canvas::new();
        assert!(g.draw_example(&mut c, area));
        check_print(&c, area, &format!("example in {w} x {h}"));
    }
}
