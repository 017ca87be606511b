//! Fuzzing the game parsers with arbitrary text and with near-valid input (valid input
//! with one thing wrong): they never panic, their errors are one line (and, for Number
//! Match and Carcassonne, short: nothing long the user wrote is echoed), each call
//! takes well under a second, and whatever they accept is usable (solved, scored or
//! rendered without a panic). A fixed number of cases keeps the whole file to a few
//! seconds in `cargo test --release`.

use proptest::prelude::*;
use puzzlebook::games::carcassonne::{self, tiles, Landscape};
use puzzlebook::games::flip::{MoveGrid, Shape};
use puzzlebook::games::number_match::{self, rules::parse_board, Append, Rules, Solver, Verdict};
use puzzlebook::games::numbrix::{self, grid::parse_grids};
use std::time::{Duration, Instant};

/// Most time one call may take.
const SLOW: Duration = Duration::from_millis(500);
/// Longest error of the parsers that cut what they echo.
const LONG: usize = 300;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Run `f`, checking its time.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    assert!(t.elapsed() < SLOW, "{what}: {:?}", t.elapsed());
    r
}

/// Run `check` on `cases` values of `strategy` (shrinking a failure to a small case);
/// how many it accepted (the near-valid strategies must produce some valid input).
fn fuzz<S: Strategy>(
    strategy: S,
    check: impl Fn(S::Value) -> Result<bool, TestCaseError>,
) -> usize {
    let accepted = std::cell::Cell::new(0);
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let result = runner.run(&strategy, |v| {
        if check(v)? {
            accepted.set(accepted.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    accepted.get()
}

fn one_line(e: &impl std::fmt::Display) -> bool {
    let e = e.to_string();
    !e.is_empty() && !e.contains('\n')
}

/// One line, and short whatever the input's length.
fn one_short_line(e: &impl std::fmt::Display) -> bool {
    one_line(e) && e.to_string().len() <= LONG
}

/// Arbitrary text: any characters, or bytes read as text the way the binary reads
/// input (invalid UTF-8 replaced).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        proptest::collection::vec(any::<u8>(), 0..400)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

// ---- Number Match ----

/// Near-valid boards: digits, dots and separators, short or around the length bound,
/// and now and then one `0` or one other character put in.
fn match_board_text() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        20 => (1u8..=9).prop_map(|d| (b'0' + d) as char),
        3 => Just('.'),
        2 => Just(' '),
        1 => Just(','),
        1 => Just('\n'),
    ];
    let cells = prop_oneof![
        proptest::collection::vec(cell.clone(), 0..60),
        proptest::collection::vec(cell, 220..340),
    ];
    (cells, 0u8..4, any::<usize>(), any::<char>()).prop_map(|(mut cells, twist, at, c)| {
        let at = at % (cells.len() + 1);
        match twist {
            1 => cells.insert(at, '0'),
            2 => cells.insert(at, c),
            _ => {}
        }
        cells.into_iter().collect()
    })
}

fn check_match_board(text: &str, cols: usize, adds: u8) -> Result<bool, TestCaseError> {
    let parsed = timed("parse_board", || parse_board(text));
    let accepted = parsed.is_ok();
    match parsed {
        Ok(b) => {
            prop_assert!(!b.is_empty() && b.len() <= number_match::MAX_LENGTH);
            prop_assert!(!text.contains('0'), "0 is not a cell: {text:?}");
            prop_assert!(b.iter().all(|&d| d <= 9) && b.iter().any(|&d| d != 0));
            // Whatever parses can be searched (a small budget) and what is found replays.
            let rules = Rules {
                cols,
                diagonals: cols.is_multiple_of(2),
                append: if adds.is_multiple_of(2) {
                    Append::AfterLastDigit
                } else {
                    Append::AfterLastCell
                },
            };
            let v = timed("solve", || Solver::new(rules).solve(&b, adds, 300));
            if let Verdict::Solvable(moves) = v {
                prop_assert!(number_match::replay(&rules, &b, &moves, adds).is_ok());
            }
        }
        Err(e) => {
            prop_assert!(one_short_line(&e), "{e}");
        }
    }
    Ok(accepted)
}

#[test]
fn number_match_boards_from_any_text() {
    fuzz(text(), |s| check_match_board(&s, 9, 1));
}

#[test]
fn number_match_boards_near_valid() {
    let strategy = (match_board_text(), 1usize..=64, 0u8..=3);
    let accepted = fuzz(strategy, |(s, cols, adds)| {
        check_match_board(&s, cols, adds)
    });
    assert!(accepted > 100, "{accepted}");
}

// ---- Carcassonne ----

/// What to do to a valid landscape or record.
#[derive(Debug, Clone)]
enum Twist {
    None,
    /// A record with shields at these squares (some off the board, some on fields).
    Shields(Vec<(u8, u8)>),
    /// One number of one tile replaced by this JSON.
    Number(usize, &'static str),
    /// One square dropped (a ragged row) or doubled.
    Square(usize, bool),
    /// A record with this extra key (a known one given twice, an unknown one...).
    Key(&'static str),
    /// The text cut after this many bytes.
    Cut(usize),
    /// Several lines (JSON Lines), some with a twist of their own.
    Lines(u8),
}

fn twist() -> impl Strategy<Value = Twist> {
    prop_oneof![
        Just(Twist::None),
        proptest::collection::vec((0u8..6, 0u8..6), 0..4).prop_map(Twist::Shields),
        (
            any::<usize>(),
            prop_oneof![
                Just("3"),
                Just("-1"),
                Just("1.5"),
                Just("\"2\""),
                Just("null"),
                Just("[]"),
                Just("99999999999999999999"),
                Just("{}")
            ]
        )
            .prop_map(|(at, v)| Twist::Number(at, v)),
        (any::<usize>(), any::<bool>()).prop_map(|(at, twice)| Twist::Square(at, twice)),
        prop_oneof![
            Just("landscape"),
            Just("shields"),
            Just("sheilds"),
            Just("score"),
            Just("x"),
            Just("a very long key that goes on and on and on and on and on and on"),
        ]
        .prop_map(Twist::Key),
        any::<usize>().prop_map(Twist::Cut),
        (1u8..5).prop_map(Twist::Lines),
    ]
}

/// A generated landscape (1 to 72 tiles) as JSON text, with a twist.
fn twisted(seed: u64, tiles_n: usize, t: &Twist) -> String {
    let made = carcassonne::generate::landscape(
        tiles_n,
        &mut puzzlebook::seed::item_rng(seed, "fuzz-carcassonne", 0),
    );
    let mut value = made.landscape.to_json();
    let land = value.to_string();
    let rows = value.as_array_mut().unwrap();
    match t {
        Twist::None => land,
        Twist::Shields(list) => {
            let list: Vec<String> = list.iter().map(|(r, c)| format!("[{r},{c}]")).collect();
            format!(r#"{{"landscape":{land},"shields":[{}]}}"#, list.join(","))
        }
        Twist::Number(at, v) => {
            // The at-th number of the tiles.
            let mut spots = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, sq) in row.as_array().unwrap().iter().enumerate() {
                    for k in 0..sq.as_array().unwrap().len() {
                        spots.push((r, c, k));
                    }
                }
            }
            let (r, c, k) = spots[at % spots.len()];
            rows[r][c][k] = serde_json::from_str(v).unwrap();
            value.to_string()
        }
        Twist::Square(at, twice) => {
            let r = at % rows.len();
            let row = rows[r].as_array_mut().unwrap();
            let c = at / 7 % row.len();
            if *twice {
                let sq = row[c].clone();
                row.insert(c, sq);
            } else {
                row.remove(c);
            }
            value.to_string()
        }
        Twist::Key(k) => format!(r#"{{"landscape":{land},"{k}":[]}}"#),
        Twist::Cut(at) => land[..at % (land.len() + 1)].to_string(),
        Twist::Lines(n) => {
            let mut lines = vec![land.clone()];
            for k in 0..*n {
                lines.push(match k % 3 {
                    0 => format!(r#"{{"landscape":{land},"game":"carcassonne","index":{k}}}"#),
                    1 => format!(r#"{{"landscape":{land},"landscape":{land}}}"#),
                    _ => land[..land.len() / 2].to_string(),
                });
            }
            lines.join("\n")
        }
    }
}

fn check_carcassonne(text: &str) -> Result<bool, TestCaseError> {
    let use_it = |l: &Landscape| {
        let plain = carcassonne::score(l);
        let farms = carcassonne::score::score_with(l, true);
        assert!(farms.total() >= plain.total());
        l.to_json();
        l.shield_list();
    };
    let mut accepted = false;
    match timed("parse", || tiles::parse(text)) {
        Ok(l) => timed("score", || use_it(&l)),
        Err(e) => prop_assert!(one_short_line(&e), "{e}"),
    }
    match timed("parse_record", || tiles::parse_record(text)) {
        Ok(l) => {
            accepted = true;
            timed("score", || use_it(&l))
        }
        Err(e) => prop_assert!(one_short_line(&e), "{e}"),
    }
    // The Value path (what `carcassonne score` reads today) agrees on what it accepts.
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        match timed("from_record", || tiles::from_record(&v)) {
            Ok(l) => timed("score", || use_it(&l)),
            Err(e) => prop_assert!(one_short_line(&e), "{e}"),
        }
    }
    Ok(accepted)
}

#[test]
fn carcassonne_landscapes_from_any_text() {
    fuzz(text(), |s| check_carcassonne(&s));
}

#[test]
fn carcassonne_landscapes_near_valid() {
    let accepted = fuzz((0u64..1000, 1usize..=72, twist()), |(seed, n, t)| {
        let text = twisted(seed, n, &t);
        let accepted = check_carcassonne(&text)?;
        match t {
            Twist::None => prop_assert!(accepted),
            // A key beside the landscape: known ones are read (or read past), a second
            // "landscape" and unknown keys are refused by name.
            Twist::Key(k) => {
                let e = tiles::parse_record(&text)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                let head: String = k.chars().take(10).collect();
                match k {
                    "score" | "shields" => prop_assert!(e.is_empty(), "{e}"),
                    "landscape" => prop_assert!(e.contains("\"landscape\" appears twice"), "{e}"),
                    _ => prop_assert!(e.contains("unknown key") && e.contains(&head), "{e}"),
                }
            }
            _ => {}
        }
        Ok(accepted)
    });
    assert!(accepted > 100, "{accepted}");
}

// ---- Numbrix ----

/// Near-valid grids: a rectangle of numbers and blanks, sometimes with one thing
/// wrong (a short row, a number out of range or given twice, a stray token), sometimes
/// followed by a second grid.
fn numbrix_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![1usize..8, 1usize..25],
        prop_oneof![1usize..8, 1usize..25],
        proptest::collection::vec(any::<u16>(), 64),
        0u8..8,
        any::<u16>(),
    )
        .prop_map(|(rows, cols, picks, twist, x)| {
            let n = rows * cols;
            // Givens: numbers 1..=n, each at most once (a pick that is taken is blank).
            let mut used = vec![false; n + 1];
            let mut cells: Vec<String> = (0..n)
                .map(|i| {
                    let v = picks[i % 64] as usize % (2 * n) + 1;
                    if v <= n && !used[v] {
                        used[v] = true;
                        v.to_string()
                    } else {
                        ".".to_string()
                    }
                })
                .collect();
            let at = x as usize % n;
            match twist {
                1 => cells[at] = (n + 1 + x as usize % 5).to_string(),
                2 => {
                    cells[at] = cells
                        .iter()
                        .find(|c| *c != ".")
                        .cloned()
                        .unwrap_or("1".into())
                }
                3 => cells[at] = ["x", "-3", "1e3", "0x1", "99999999"][x as usize % 5].to_string(),
                // Blocked cells (a shaped grid): the numbers may now be out of range.
                6 => {
                    cells[at] = "X".into();
                    cells[(at * 7 + 3) % n] = "-1".into();
                }
                _ => {}
            }
            let mut text: String = cells
                .chunks(cols)
                .enumerate()
                .map(|(r, row)| {
                    let row = if twist == 4 && r == at % rows {
                        &row[1..]
                    } else {
                        row
                    };
                    row.join(" ") + "\n"
                })
                .collect();
            if twist == 5 {
                text = format!("# a comment\n{text}\n. 1\n2 .\n");
            }
            text
        })
}

fn check_numbrix(text: &str) -> Result<bool, TestCaseError> {
    let parsed = timed("parse_grids", || parse_grids(text));
    let accepted = parsed.is_ok();
    match parsed {
        Ok(grids) => {
            for g in grids {
                prop_assert!(g.validate().is_ok());
                for moves in [numbrix::Moves::Orthogonal, numbrix::Moves::King] {
                    let v = timed("solve", || numbrix::solve::solve_grid(&g, moves, 2_000));
                    let v = v.map_err(|e| TestCaseError::fail(e.to_string()))?;
                    if let Some(sol) = v.solution {
                        let board = numbrix::Board::of_grid(&g, moves);
                        prop_assert!(
                            numbrix::solve::check_board_solution(&board, &g.cells, &sol).is_ok()
                        );
                    }
                }
            }
        }
        Err(e) => prop_assert!(one_line(&e), "{e}"),
    }
    Ok(accepted)
}

#[test]
fn numbrix_grids_from_any_text() {
    fuzz(text(), |s| check_numbrix(&s));
}

#[test]
fn numbrix_grids_near_valid() {
    let accepted = fuzz(numbrix_text(), |s| check_numbrix(&s));
    assert!(accepted > 20, "{accepted}");
}

// ---- Flip ----

/// Near-valid boards: rows of `o` and `-`, row labels right or wrong, a letter line.
fn flip_text() -> impl Strategy<Value = String> {
    (
        1usize..10,
        1usize..10,
        proptest::collection::vec(any::<bool>(), 100),
        0u8..4,
        0u8..3,
        any::<char>(),
    )
        .prop_map(|(rows, cols, cells, labels, letters, stray)| {
            let mut out = String::new();
            for r in 0..rows {
                let w = if labels == 3 && r == 1 {
                    cols + 1
                } else {
                    cols
                };
                for c in 0..w {
                    out.push(if cells[(r * 10 + c) % 100] { 'o' } else { '-' });
                }
                match labels {
                    1 if r > 0 && r + 1 < rows => out.push_str(&format!(" {r}")),
                    2 => out.push_str(&format!(" {}", r + 7)),
                    _ => {}
                }
                out.push('\n');
            }
            match letters {
                1 => out.push_str(&format!(
                    " {}\n",
                    &"abcdefghijklmnopqrstuvwxyz"[..cols.saturating_sub(2).max(1)]
                )),
                2 => out.push(stray),
                _ => {}
            }
            out
        })
}

fn check_flip(text: &str) -> Result<bool, TestCaseError> {
    let mut accepted = false;
    for shape in [Shape::Block, Shape::Plus] {
        match timed("MoveGrid::parse", || MoveGrid::parse(shape, text)) {
            Ok((layout, board)) => {
                accepted = true;
                // What parses renders back to text that parses to the same board.
                let again = MoveGrid::parse(shape, &layout.render(&board));
                prop_assert_eq!(again.ok(), Some((layout, board)));
            }
            Err(e) => prop_assert!(one_line(&e), "{e}"),
        }
    }
    Ok(accepted)
}

#[test]
fn flip_boards_from_any_text() {
    fuzz(text(), |s| check_flip(&s));
}

#[test]
fn flip_boards_near_valid() {
    let accepted = fuzz(flip_text(), |s| check_flip(&s));
    assert!(accepted > 100, "{accepted}");
}
