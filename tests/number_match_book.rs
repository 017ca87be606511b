//! Number Match in print: the puzzle drawing has room for every add, the answer replays
//! on paper, the worked example is right, and every drawing meets the print rules.

mod common;

use puzzlebook::canvas::{Canvas, Rect};
use puzzlebook::games::number_match::{
    self, paper, Append, Move, NumberMatch, NumberMatchParams, NumberMatchPuzzle, Rules,
};
use puzzlebook::games::Games;
use puzzlebook::games::Present;
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;

fn game(adds: u8) -> NumberMatch {
    NumberMatch::new(NumberMatchParams {
        adds,
        playouts: 50,
        ..NumberMatchParams::default()
    })
    .unwrap()
}

fn puzzles(g: &NumberMatch, n: usize, tag: &str) -> Vec<NumberMatchPuzzle> {
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < n {
        if let Outcome::Accepted(p) = g.generate(&mut item_rng(7, tag, i)) {
            out.push(p);
        }
        i += 1;
        assert!(i < 500, "no boards for {tag}");
    }
    out
}

/// The print rules: ink inside the area, text at least 7 pt, lines at least 0.5 pt.
fn check_print(c: &Canvas, area: Rect, what: &str) {
    common::assert_print_rules(c, area, what);
    assert!(
        c.min_text_pt().is_some() && c.min_line_mm().is_some(),
        "{what}: text and lines are drawn"
    );
}

#[test]
fn drawings_meet_the_print_rules_at_book_sizes() {
    for adds in [1u8, 2, 4] {
        let g = game(adds);
        for (k, p) in puzzles(&g, 3, &format!("nm-print-{adds}"))
            .iter()
            .enumerate()
        {
            for w in [85.0f32, 120.0, 180.0] {
                let area = Rect::new(10.0, 20.0, w, w / g.aspect());
                let mut c = Canvas::new();
                g.draw(p, &mut c, area, false);
                check_print(&c, area, &format!("puzzle adds {adds} #{k} at {w} mm"));
            }
            for w in [56.0f32, 58.0, 60.0] {
                let area = Rect::new(5.0, 7.0, w, w / g.answer_aspect(p));
                let mut c = Canvas::new();
                g.draw_answer(p, &mut c, area);
                check_print(&c, area, &format!("answer adds {adds} #{k} at {w} mm"));
            }
        }
    }
}

#[test]
fn the_example_meets_the_print_rules_on_both_page_sizes() {
    for (w, h) in [(180.0, 160.0), (125.0, 110.0)] {
        let area = Rect::new(15.0, 100.0, w, h);
        let mut c = Canvas::new();
        assert!(game(1).draw_example(&mut c, area));
        check_print(&c, area, &format!("example {w} x {h}"));
    }
}

/// The worked example clears its board with the game's rules, with or without
/// diagonals and with either place for an add.
#[test]
fn the_worked_example_clears_its_board() {
    let moves = number_match::example_moves();
    assert_eq!(moves.len(), number_match::EXAMPLE_STEPS.len());
    for diagonals in [true, false] {
        for append in [Append::AfterLastDigit, Append::AfterLastCell] {
            let rules = Rules {
                cols: number_match::EXAMPLE_COLS,
                diagonals,
                append,
            };
            let used = number_match::replay(&rules, &number_match::EXAMPLE_BOARD, &moves, 1);
            assert_eq!(used.ok(), Some(1), "{diagonals} {append:?}");
            // The lines say row 2 goes and the copies land in row 3.
            let play = paper::play(&rules, &number_match::EXAMPLE_BOARD, &moves);
            assert_eq!(play.rows_used, 3);
            let after_add = &play.pages[4];
            assert_eq!(&after_add[8..10], &[Some(1), Some(8)]);
            assert!(play.pages.last().unwrap().iter().all(|c| *c != Some(1)));
        }
    }
}

/// The new-row example: it clears with one add under new-row (diagonals on, as
/// its second line says), the add lands in row 3 while row 2 keeps its crossed-out 5
/// at d2, and the last pair runs on in reading order.
#[test]
fn the_new_row_example_starts_its_add_on_a_fresh_row() {
    let moves = number_match::new_row_example_moves();
    assert_eq!(moves.len(), number_match::NEW_ROW_EXAMPLE_STEPS.len());
    let rules = Rules {
        cols: number_match::EXAMPLE_COLS,
        diagonals: true,
        append: Append::NewRow,
    };
    let board = number_match::NEW_ROW_EXAMPLE_BOARD;
    assert_eq!(
        number_match::replay(&rules, &board, &moves, 1).ok(),
        Some(1)
    );
    // Without an add it cannot be cleared (the plain search in the unit tests is the
    // engine's check; here the solver says so for the whole board).
    let mut solver = number_match::Solver::search_only(rules);
    assert!(!matches!(
        solver.solve(&board, 0, u64::MAX),
        number_match::Verdict::Solvable(_)
    ));
    let play = paper::play(&rules, &board, &moves);
    assert_eq!(play.rows_used, 3);
    let after_add = &play.pages[4];
    // Row 2 (cells 4..8): 8, crossed 2, 1, crossed 5; row 3 (cells 8..): 8, 1.
    assert_eq!(&after_add[4..8], &[Some(8), Some(0), Some(1), Some(0)]);
    assert_eq!(&after_add[8..10], &[Some(8), Some(1)]);
    // Under after-last-digit the same play would have written 8 over the crossed 5.
    let old = paper::play(
        &Rules {
            append: Append::AfterLastDigit,
            ..rules
        },
        &board,
        &moves[..4],
    );
    assert_eq!(old.pages[4][7], Some(8));
    // The example page is drawn for a new-row game.
    let g = NumberMatch::new(NumberMatchParams {
        append: Append::NewRow,
        ..NumberMatchParams::default()
    })
    .unwrap();
    let mut c = Canvas::new();
    assert!(g.draw_example(&mut c, Rect::new(15.0, 100.0, 180.0, 160.0)));
    check_print(&c, Rect::new(15.0, 100.0, 180.0, 160.0), "new-row example");
    let texts: Vec<String> = c
        .shapes
        .iter()
        .filter_map(|s| match s {
            puzzlebook::canvas::Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(texts.iter().any(|t| t.contains("fresh row")), "{texts:?}");
}

#[test]
fn how_to_play_is_short_and_in_reader_words() {
    for append in [
        Append::AfterLastDigit,
        Append::AfterLastCell,
        Append::NewRow,
    ] {
        for diagonals in [true, false] {
            let g = NumberMatch::new(NumberMatchParams {
                append,
                diagonals,
                ..NumberMatchParams::default()
            })
            .unwrap();
            let text = g.how_to_play();
            let words = text.split_whitespace().count();
            assert!(words <= 130, "{words} words: {text}");
            assert_eq!(text.contains("diagonal"), diagonals);
        }
    }
    let g = game(1);
    let p = &puzzles(&g, 1, "nm-words")[0];
    assert_eq!(g.caption(p), "Clear the board with at most 1 add");
    let a = g.answer(p);
    assert!(a.contains("pairs") && !a.contains('_'), "{a}");
}

/// An independent model of the paper rules as the "How to play" page states them: the
/// page as rows that never move; crossed-out cells stay, a row with nothing left is
/// gone and skipped, an add is written after the last digit (or last written cell, or
/// from the start of a fresh row) and on in fresh rows; a blank cell counts as crossed
/// out.
#[derive(Clone)]
struct Page {
    cols: usize,
    cells: Vec<Vec<Option<u8>>>,
    gone: Vec<bool>,
    fresh: usize,
}

impl Page {
    fn new(board: &[u8], cols: usize) -> Page {
        let cells: Vec<Vec<Option<u8>>> = board
            .chunks(cols)
            .map(|r| {
                let mut v: Vec<Option<u8>> = r.iter().map(|&d| Some(d)).collect();
                v.resize(cols, None);
                v
            })
            .collect();
        let n = cells.len();
        Page {
            cols,
            cells,
            gone: vec![false; n],
            fresh: n,
        }
    }
    fn live(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&r| !self.gone[r] && r < self.fresh)
            .collect()
    }
    /// Walk from (k, c) in steps of (1 row, dc) over the rows in play; the first digit.
    fn walk(&self, live: &[usize], k: usize, c: usize, dc: isize) -> Option<(usize, usize)> {
        let (mut k, mut c) = (k, c as isize);
        loop {
            k += 1;
            c += dc;
            if k >= live.len() || c < 0 || c >= self.cols as isize {
                return None;
            }
            match self.cells[live[k]][c as usize] {
                // A blank cell (never written: the rest of a row a new-row add left)
                // counts as crossed out, as the how-to says.
                None | Some(0) => continue,
                Some(_) => return Some((k, c as usize)),
            }
        }
    }
    /// Every pair on paper, as (row in play, column) pairs, with diagonals or not.
    fn pairs(&self, diagonals: bool) -> Vec<((usize, usize), (usize, usize))> {
        let live = self.live();
        let mut out = Vec::new();
        let flat: Vec<(usize, usize, u8)> = live
            .iter()
            .enumerate()
            .flat_map(|(k, &r)| {
                self.cells[r]
                    .iter()
                    .enumerate()
                    .filter_map(move |(c, d)| d.filter(|&d| d != 0).map(|d| (k, c, d)))
            })
            .collect();
        for (x, &(k, c, d)) in flat.iter().enumerate() {
            let mut seen = Vec::new();
            if let Some(&(k2, c2, _)) = flat.get(x + 1) {
                seen.push((k2, c2));
            }
            let mut dirs = vec![0isize];
            if diagonals {
                dirs.extend([1, -1]);
            }
            for dc in dirs {
                if let Some(p) = self.walk(&live, k, c, dc) {
                    seen.push(p);
                }
            }
            seen.sort();
            seen.dedup();
            for (k2, c2) in seen {
                let e = self.cells[live[k2]][c2].unwrap();
                if d == e || d + e == 10 {
                    out.push(((k, c), (k2, c2)));
                }
            }
        }
        out.sort();
        out
    }
    fn cross(&mut self, a: (usize, usize), b: (usize, usize)) {
        let live = self.live();
        for (k, c) in [a, b] {
            self.cells[live[k]][c] = Some(0);
        }
        for (k, _) in [a, b] {
            let r = live[k];
            if self.cells[r].iter().all(|x| matches!(x, None | Some(0))) {
                self.gone[r] = true;
            }
        }
    }
    fn add(&mut self, append: Append) {
        let live = self.live();
        let digits: Vec<u8> = live
            .iter()
            .flat_map(|&r| self.cells[r].iter().filter_map(|d| d.filter(|&d| d != 0)))
            .collect();
        let last = *live.last().expect("an add on an empty page");
        let row = &self.cells[last];
        let mut c = match append {
            Append::AfterLastDigit => row.iter().rposition(|d| d.is_some_and(|d| d != 0)),
            Append::AfterLastCell => row.iter().rposition(|d| d.is_some()),
            // A fresh row, whatever is left in the last one.
            Append::NewRow => Some(self.cols - 1),
        }
        .map_or(0, |p| p + 1);
        assert!(
            append == Append::AfterLastCell || c > 0,
            "the last row in play has a digit"
        );
        let mut r = last;
        for d in digits {
            if c == self.cols {
                r = self.fresh;
                self.fresh += 1;
                c = 0;
            }
            if r >= self.cells.len() {
                self.cells.push(vec![None; self.cols]);
                self.gone.push(false);
            }
            self.cells[r][c] = Some(d);
            c += 1;
        }
    }
    /// The rows in play as the game sees them: digit positions only.
    fn digits(&self) -> Vec<Vec<(usize, u8)>> {
        self.live()
            .iter()
            .map(|&r| {
                (0..self.cols)
                    .filter_map(|c| self.cells[r][c].filter(|&d| d != 0).map(|d| (c, d)))
                    .collect()
            })
            .collect()
    }
    fn flat(&self) -> Vec<Option<u8>> {
        self.cells[..self.fresh].iter().flatten().copied().collect()
    }
}

fn engine_rows(b: &[u8], cols: usize) -> Vec<Vec<(usize, u8)>> {
    b.chunks(cols)
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|(_, &d)| d != 0)
                .map(|(c, &d)| (c, d))
                .collect()
        })
        .collect()
}

/// Random plays (and "add at once" plays) on small boards: the paper page and the game
/// stay the same board with the same pairs at every step, the page never needs more
/// rows than the puzzle prints, and the answer's paper replay follows the same page.
#[test]
fn paper_play_is_the_game_and_the_ruled_rows_suffice() {
    use rand::Rng;
    let mut rng = item_rng(11, "nm-paper", 0);
    let mut tight = 0;
    for trial in 0..3000u64 {
        let cols = rng.random_range(2..=9usize);
        let len = rng.random_range(1..=3 * cols);
        let adds = rng.random_range(0..=4u8);
        let diagonals = rng.random_bool(0.7);
        let append = [
            Append::AfterLastDigit,
            Append::AfterLastCell,
            Append::NewRow,
        ][rng.random_range(0..3usize)];
        let rules = Rules {
            cols,
            diagonals,
            append,
        };
        let add_first = trial % 5 == 0;
        let board: Vec<u8> = (0..len).map(|_| rng.random_range(1..=9u8)).collect();
        let mut b = board.clone();
        let mut page = Page::new(&board, cols);
        let mut moves = Vec::new();
        let mut left = adds;
        let mut pairs = Vec::new();
        loop {
            assert_eq!(page.digits(), engine_rows(&b, cols), "trial {trial}");
            rules.moves(&b, &mut pairs);
            let mut want: Vec<_> = pairs
                .iter()
                .map(|&(i, j)| {
                    let (i, j) = (i as usize, j as usize);
                    ((i / cols, i % cols), (j / cols, j % cols))
                })
                .collect();
            want.sort();
            assert_eq!(page.pairs(diagonals), want, "trial {trial}: {board:?}");
            let digits = b.iter().any(|&d| d != 0);
            if !digits {
                break;
            }
            let add = left > 0 && (pairs.is_empty() || add_first || rng.random_bool(0.15));
            if add {
                left -= 1;
                rules.add(&mut b);
                page.add(append);
                moves.push(Move::Add);
            } else if let Some(&(i, j)) = pairs.get(rng.random_range(0..pairs.len().max(1))) {
                let (i, j) = (i as usize, j as usize);
                page.cross((i / cols, i % cols), (j / cols, j % cols));
                rules.remove(&mut b, i, j);
                moves.push(Move::Pair(i as u16, j as u16));
            } else {
                break;
            }
        }
        let printed = paper::paper_rows(len, cols, adds);
        assert!(
            page.fresh <= printed,
            "trial {trial}: the play used {} rows, the page has {printed}",
            page.fresh
        );
        if page.fresh == printed {
            tight += 1;
        }
        if add_first && len % cols == 0 && left == 0 {
            assert_eq!(page.fresh, printed, "adding at once fills every ruled row");
        }
        let play = paper::play(&rules, &board, &moves);
        assert_eq!(play.rows_used, page.fresh, "trial {trial}");
        let last = play.pages.last().unwrap();
        assert_eq!(&last[..], &page.flat()[..], "trial {trial}");
    }
    assert!(tight > 100, "{tight} plays filled the page");
}

/// Every play (all orders of pairs and adds) on tiny boards stays within the printed
/// rows, and adding at once reaches them when the columns divide the length.
#[test]
fn every_play_on_tiny_boards_fits_the_ruled_rows() {
    use rand::Rng;
    fn most_rows(rules: &Rules, b: &[u8], page: &Page, adds: u8, nodes: &mut u32) -> usize {
        *nodes += 1;
        let mut best = page.fresh;
        let mut pairs = Vec::new();
        rules.moves(b, &mut pairs);
        for &(i, j) in &pairs {
            let (i, j) = (i as usize, j as usize);
            let (mut b2, mut p2) = (b.to_vec(), page.clone());
            p2.cross(
                (i / rules.cols, i % rules.cols),
                (j / rules.cols, j % rules.cols),
            );
            rules.remove(&mut b2, i, j);
            best = best.max(most_rows(rules, &b2, &p2, adds, nodes));
        }
        if adds > 0 && b.iter().any(|&d| d != 0) {
            let (mut b2, mut p2) = (b.to_vec(), page.clone());
            rules.add(&mut b2);
            p2.add(rules.append);
            best = best.max(most_rows(rules, &b2, &p2, adds - 1, nodes));
        }
        best
    }
    let mut rng = item_rng(12, "nm-tiny", 0);
    for t in 0..60 {
        let cols = rng.random_range(2..=3usize);
        let len = rng.random_range(2..=4usize);
        let adds = rng.random_range(1..=2u8);
        let append = [Append::AfterLastDigit, Append::AfterLastCell][t % 2];
        let rules = Rules {
            cols,
            diagonals: t % 3 != 0,
            append,
        };
        let board: Vec<u8> = (0..len).map(|_| rng.random_range(1..=9u8)).collect();
        let mut nodes = 0;
        let most = most_rows(&rules, &board, &Page::new(&board, cols), adds, &mut nodes);
        let printed = paper::paper_rows(len, cols, adds);
        assert!(
            most <= printed,
            "{board:?} {cols} {adds}: {most} > {printed}"
        );
        if len % cols == 0 {
            assert_eq!(most, printed, "{board:?} {cols} {adds}");
        }
    }
}

#[test]
fn stars_follow_a_fixed_scale() {
    use number_match::{stars, Difficulty};
    let cases = [
        (1.0, 1),
        (0.5, 1),
        (0.49, 2),
        (0.25, 2),
        (0.24, 3),
        (0.1, 3),
        (0.099, 4),
        (0.03, 4),
        (0.029, 5),
        (0.0, 5),
    ];
    for (w, s) in cases {
        assert_eq!(stars(w), s, "{w}");
        let range = match Difficulty::of(w) {
            Difficulty::Easy => 1..=1,
            Difficulty::Medium => 2..=3,
            Difficulty::Hard => 4..=5,
        };
        assert!(range.contains(&s), "{w}");
    }
    let g = game(1);
    for p in puzzles(&g, 4, "nm-stars") {
        let r = g.rating(&p).unwrap();
        assert_eq!(r.stars, stars(p.playout_win_rate));
        assert!((r.score - (1.0 - p.playout_win_rate)).abs() < 1e-12);
    }
}

/// Hard boards carry a spare copy of the start beside them: every printed digit twice
/// (read from the drawing's text, against the puzzle's own digits), under the spare's
/// words; medium boards once, without them. In the shipped book, every board of the
/// hard section has its spare and no other board does.
#[test]
fn hard_boards_have_a_spare_copy_of_the_start() {
    use puzzlebook::canvas::Shape;
    let digits_drawn = |c: &Canvas| -> Vec<u8> {
        let mut v: Vec<u8> = c
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, size, .. } if *size > 0.0 => {
                    let mut ch = text.chars();
                    match (ch.next(), ch.next()) {
                        (Some(d @ '1'..='9'), None) => Some(d as u8 - b'0'),
                        _ => None,
                    }
                }
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v
    };
    for (difficulty, spare) in [
        (number_match::Difficulty::Hard, true),
        (number_match::Difficulty::Medium, false),
    ] {
        let g = NumberMatch::new(NumberMatchParams {
            adds: 1,
            difficulty: Some(difficulty),
            append: Append::NewRow,
            playouts: 50,
            ..NumberMatchParams::default()
        })
        .unwrap();
        let p = &puzzles(&g, 1, "nm-spare")[0];
        let area = Rect::new(15.0, 20.0, 180.0, 180.0 / g.aspect());
        let mut c = Canvas::new();
        g.draw(p, &mut c, area, false);
        check_print(&c, area, &format!("{difficulty:?}"));
        let mut want: Vec<u8> = p.digits().iter().copied().filter(|&d| d != 0).collect();
        if spare {
            want.extend(want.clone());
        }
        want.sort_unstable();
        // Row numbers 1-9 are drawn as text too: take them out of what was drawn.
        let mut drawn = digits_drawn(&c);
        let rows = paper::paper_rows(p.digits().len(), 9, 1);
        for _copy in 0..if spare { 2 } else { 1 } {
            for r in 1..=rows.min(9) {
                let k = drawn
                    .iter()
                    .position(|&d| d == r as u8)
                    .expect("row number");
                drawn.remove(k);
            }
        }
        assert_eq!(drawn, want, "{difficulty:?}");
        let has_words = c
            .shapes
            .iter()
            .any(|s| matches!(s, Shape::Text { text, .. } if text == number_match::SPARE_TITLE));
        assert_eq!(has_words, spare, "{difficulty:?}");
    }
    // The shipped book: one spare a hard board, and only there.
    let t =
        puzzlebook::book::template::Template::load::<Games>(&common::template("number-match.toml"))
            .unwrap();
    let hard: usize = t
        .sections
        .iter()
        .filter(|s| s.params.get("difficulty").and_then(|v| v.as_str()) == Some("hard"))
        .map(|s| s.count)
        .sum();
    assert!(hard > 0);
    let book =
        puzzlebook::book::compose::<Games>(&t, &puzzlebook::book::BookOptions::default()).unwrap();
    let spares = book
        .pages
        .iter()
        .flat_map(|p| p.shapes.iter())
        .filter(|s| matches!(s, Shape::Text { text, .. } if text == number_match::SPARE_TITLE))
        .count();
    assert_eq!(spares, hard);
}

/// Boards long enough to be set in blocks (4 adds) get no spare copy: it would halve
/// their cells.
#[test]
fn long_hard_boards_have_no_spare_copy() {
    let g = NumberMatch::new(NumberMatchParams {
        adds: 4,
        difficulty: Some(number_match::Difficulty::Hard),
        append: Append::NewRow,
        ..NumberMatchParams::default()
    })
    .unwrap();
    assert!(!g.spare());
    let one_add = NumberMatch::new(NumberMatchParams {
        adds: 1,
        difficulty: Some(number_match::Difficulty::Hard),
        ..NumberMatchParams::default()
    })
    .unwrap();
    assert!(one_add.spare());
}

/// Two rule sets of Number Match in one book, both headed with the game's name: their
/// "how to play" pages have different titles.
#[test]
fn two_rule_sets_get_two_named_how_to_pages() {
    use puzzlebook::book::template::Template;
    use puzzlebook::book::{compose, BookOptions};
    use puzzlebook::canvas::Shape;
    let t = Template::parse::<Games>(
        "title = \"T\"\n[[section]]\ngame = \"number_match\"\ncount = 2\nper_page = 2\nparams = { adds = 1, append = \"new-row\" }\n[[section]]\ngame = \"number_match\"\ncount = 2\nper_page = 2\nparams = { adds = 1 }\n",
    )
    .unwrap();
    let b = compose::<Games>(&t, &BookOptions::default()).unwrap();
    let mut titles: Vec<String> = b
        .pages
        .iter()
        .flat_map(|p| p.shapes.iter())
        .filter_map(|s| match s {
            Shape::Text { text, .. } if text.starts_with("How to play Number Match") => {
                Some(text.clone())
            }
            _ => None,
        })
        .collect();
    titles.sort();
    titles.dedup();
    assert_eq!(
        titles,
        [
            "How to play Number Match",
            "How to play Number Match (section 2)"
        ],
        "{titles:?}"
    );
}
