//! Flip's book-facing side: print rules of every drawing at the book's sizes, the
//! target mark of boards without a single middle, the rating scale, the answer line and
//! the worked example (checked by replaying its moves cell by cell).

mod common;

use puzzlebook::canvas::{Canvas, Rect, Shape as Mark};
use puzzlebook::games::flip::{
    self, Flip, FlipParams, FlipPuzzle, MoveGrid, Shape, Solution, Solver,
};
use puzzlebook::games::Present;
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;

fn game(size: &str, shape: Shape) -> Flip {
    Flip::new(FlipParams {
        size: size.parse().unwrap(),
        shape,
        ..FlipParams::default()
    })
    .unwrap()
}

fn puzzle(g: &Flip, i: u64) -> FlipPuzzle {
    (i..)
        .find_map(|k| match g.generate(&mut item_rng(7, "flip-book", k)) {
            Outcome::Accepted(p) => Some(p),
            Outcome::Rejected(_) => None,
        })
        .unwrap()
}

/// Ink inside the area, text at least 7 pt, lines at least 0.5 pt.
fn check_print(c: &Canvas, area: Rect, what: &str) {
    common::assert_print_rules(c, area, what);
}

const SIZES: [(&str, Shape); 6] = [
    ("4", Shape::Block),
    ("5", Shape::Block),
    ("8", Shape::Block),
    ("4x7", Shape::Block),
    ("5", Shape::Plus),
    ("4", Shape::Plus),
];

#[test]
fn drawings_meet_the_print_rules_at_book_sizes() {
    for (size, shape) in SIZES {
        let g = game(size, shape);
        let p = puzzle(&g, 0);
        for width in [80.0, 120.0, 170.0] {
            let area = Rect::new(20.0, 30.0, width, width / g.aspect());
            for sol in [false, true] {
                let mut c = Canvas::new();
                g.draw(&p, &mut c, area, sol);
                check_print(
                    &c,
                    area,
                    &format!("{size} {shape:?} at {width} mm, solution {sol}"),
                );
            }
        }
        for width in [55.0, 60.0] {
            let area = Rect::new(10.0, 10.0, width, width / g.answer_aspect(&p));
            let mut c = Canvas::new();
            g.draw_answer(&p, &mut c, area);
            check_print(&c, area, &format!("{size} {shape:?} answer at {width} mm"));
        }
    }
}

/// The centre of every filled square in a drawing.
fn filled_squares(c: &Canvas) -> Vec<(f32, f32, f32, f32)> {
    c.shapes
        .iter()
        .filter_map(|s| match s {
            Mark::Path {
                points,
                closed: true,
                stroke,
                ..
            } if points.len() == 4 => {
                let cx = points.iter().map(|p| p.x).sum::<f32>() / 4.0;
                let cy = points.iter().map(|p| p.y).sum::<f32>() / 4.0;
                let w = stroke.map_or(0.0, |k| k.width);
                Some((cx, cy, w, points[1].x - points[0].x))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_target_is_framed_exactly_on_boards_without_a_single_middle() {
    for (size, shape) in SIZES {
        let g = game(size, shape);
        let l = *g.layout();
        let p = puzzle(&g, 1);
        let even = l.board_rows().is_multiple_of(2) || l.board_cols().is_multiple_of(2);
        // The board's cell size and corner, from the outer border (the widest square).
        let area = Rect::new(0.0, 0.0, 100.0, 100.0 / g.aspect());
        for drawing in 0..3 {
            let mut c = Canvas::new();
            match drawing {
                0 => g.draw(&p, &mut c, area, false),
                1 => g.draw(&p, &mut c, area, true),
                _ => g.draw_answer(&p, &mut c, area),
            }
            let frames: Vec<(f32, f32, f32, f32)> = filled_squares(&c)
                .into_iter()
                .filter(|&(_, _, w, _)| w > 0.0)
                .collect();
            // The outer border is one stroked square; the target frame the other.
            assert_eq!(frames.len(), if even { 2 } else { 1 }, "{size} {shape:?}");
            if even {
                let border = frames[0];
                let frame = frames[1];
                // The border is centred on the board; the target cell, counted from
                // 0, is (rows div 2, cols div 2), right of and below the middle.
                let s = border.3 / l.board_cols() as f32;
                let (tr, tc) = l.target_cell();
                let dx = (frame.0 - border.0) / s + l.board_cols() as f32 / 2.0 - 0.5;
                let dy = (frame.1 - border.1) / s + l.board_rows() as f32 / 2.0 - 0.5;
                assert!((dx - tc as f32).abs() < 1e-3, "column {dx} vs {tc}");
                assert!((dy - tr as f32).abs() < 1e-3, "row {dy} vs {tr}");
                assert!(frame.2 > border.2, "the frame is bolder than the border");
            }
        }
    }
    assert!(Flip::new(FlipParams::default())
        .unwrap()
        .how_to_play()
        .contains("even side there is no single middle"));
}

#[test]
fn rating_follows_the_fewest_moves_on_a_fixed_scale() {
    let stars: Vec<u8> = (0..=30).map(|m| flip::rating(m, 25).stars).collect();
    for (m, &s) in stars.iter().enumerate() {
        let want = match m {
            0..=4 => 1,
            5..=8 => 2,
            9..=13 => 3,
            14..=20 => 4,
            _ => 5,
        };
        assert_eq!(s, want, "{m} moves");
    }
    // More moves is harder; at equal moves the bigger board is.
    assert!(flip::rating(9, 16).score > flip::rating(8, 64).score);
    assert!(flip::rating(9, 64).score > flip::rating(9, 16).score);
    let g = game("5", Shape::Block);
    for i in 0..20 {
        let p = puzzle(&g, i);
        let r = g.rating(&p).unwrap();
        assert_eq!(r, flip::rating(p.min_moves, 25));
    }
}

#[test]
fn answers_name_the_printed_labels() {
    let g = game("4x7", Shape::Block);
    let l = *g.layout();
    for i in 0..20 {
        let p = puzzle(&g, i);
        let a = g.answer(&p);
        assert!(a.starts_with(&format!("{} move", p.min_moves)), "{a}");
        if a.len() <= flip::ANSWER_MAX_CHARS && p.min_moves > 0 && !a.contains("filled") {
            // Each named move: a column letter printed above, a row number beside.
            let names: Vec<&str> = a.split(": ").nth(1).unwrap().split(' ').collect();
            assert_eq!(names.len(), p.min_moves);
            for n in names {
                let col = n.as_bytes()[0];
                assert!((b'a'..b'a' + l.cols as u8).contains(&col), "{n}");
                let row: usize = n[1..].parse().unwrap();
                assert!((1..=l.rows).contains(&row), "{n}");
            }
        }
        assert!(a.chars().count() <= flip::ANSWER_MAX_CHARS, "{a}");
    }
    for (size, shape) in SIZES {
        let g = game(size, shape);
        let caption = g.caption(&puzzle(&g, 2));
        assert!(caption.starts_with("Solve in "), "{caption}");
        let how = g.how_to_play();
        assert!(how.split_whitespace().count() <= 130, "{how}");
        assert!(!how.contains(" x ") && !how.contains('\''), "{how}");
    }
}

#[test]
fn the_worked_example_is_right_and_minimal() {
    for shape in [Shape::Block, Shape::Plus] {
        let ex = flip::example(shape);
        let l: MoveGrid = ex.layout;
        // Replay the moves cell by cell from the start board.
        let solver = Solver::new(l);
        let mut board = ex.start(&solver);
        let mut cells = vec![false; l.cells()];
        for (i, c) in cells.iter_mut().enumerate() {
            *c = board.get(i);
        }
        for &m in &ex.moves {
            for (r, c) in l.move_cells(m) {
                cells[l.cell(r, c)] ^= true;
            }
        }
        let (tr, tc) = l.target_cell();
        for (i, &c) in cells.iter().enumerate() {
            assert_eq!(
                c,
                i == l.cell(tr, tc),
                "{shape:?}: cell {i} after the moves"
            );
        }
        // Two is the fewest: the solver's minimum, and no single move does it.
        match solver.solve(&board).unwrap() {
            Solution::Solved(m) => assert_eq!(m.len(), 2, "{shape:?}"),
            Solution::Unsolvable(why) => panic!("{why}"),
        }
        for m in 0..l.moves() {
            let mut b = board.clone();
            solver.apply(&mut b, &[m]);
            assert_ne!(b, l.target());
        }
        // The lines name the moves the example makes.
        for (i, &m) in ex.moves.iter().enumerate() {
            assert!(
                ex.lines[i + 1].contains(&l.move_name(m)),
                "{}",
                ex.lines[i + 1]
            );
        }
        solver.apply(&mut board, &ex.moves);
        assert_eq!(board, l.target());
    }
}

#[test]
fn the_worked_example_fits_a4_and_6x9() {
    for shape in [Shape::Block, Shape::Plus] {
        let g = game("5", shape);
        for (w, h) in [(180.0, 160.0), (125.0, 110.0), (125.0, 60.0)] {
            let area = Rect::new(15.0, 120.0, w, h);
            let mut c = Canvas::new();
            assert!(g.draw_example(&mut c, area));
            check_print(&c, area, &format!("{shape:?} example in {w} x {h}"));
        }
    }
}
