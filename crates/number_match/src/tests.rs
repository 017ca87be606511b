use super::*;
use ground::seed::item_rng;
use proptest::prelude::*;

/// A second, deliberately plain implementation of the rules, written from the spec
/// without looking at the engine: grid coordinates, explicit line walks.
mod plain {
    pub(crate) fn sees(b: &[u8], cols: usize, diagonals: bool, i: usize, j: usize) -> bool {
        let (i, j) = (i.min(j), i.max(j));
        // Reading order: only empty cells between.
        if b[i + 1..j].iter().all(|&x| x == 0) {
            return true;
        }
        let (ri, ci) = ((i / cols) as i64, (i % cols) as i64);
        let (rj, cj) = ((j / cols) as i64, (j % cols) as i64);
        let (dr, dc) = (rj - ri, cj - ci);
        let straight = dc == 0 || (diagonals && dr == dc.abs());
        if !straight || dr == 0 {
            return false;
        }
        let (sr, sc) = (1, dc.signum());
        let (mut r, mut c) = (ri + sr, ci + sc);
        while (r, c) != (rj, cj) {
            if b[(r * cols as i64 + c) as usize] != 0 {
                return false;
            }
            r += sr;
            c += sc;
        }
        true
    }

    pub fn apply(b: &mut Vec<u8>, cols: usize, i: usize, j: usize) {
        b[i] = 0;
        b[j] = 0;
        let mut rows: Vec<Vec<u8>> = b.chunks(cols).map(|r| r.to_vec()).collect();
        rows.retain(|r| r.iter().any(|&x| x != 0));
        *b = rows.concat();
    }

    /// Where an add writes (the spec's three readings).
    #[derive(Clone, Copy, PartialEq)]
    pub enum Place {
        AfterLastDigit,
        AfterLastCell,
        NewRow,
    }

    pub fn add(b: &mut Vec<u8>, cols: usize, place: Place) {
        let digits: Vec<u8> = b.iter().copied().filter(|&x| x != 0).collect();
        if place != Place::AfterLastCell {
            while b.last() == Some(&0) {
                b.pop();
            }
        }
        if place == Place::NewRow {
            while !b.len().is_multiple_of(cols) {
                b.push(0);
            }
        }
        b.extend(digits);
    }

    /// Exhaustive search, remembering boards already seen lost (exact keys, no
    /// pruning): can `b` be cleared?
    pub(crate) fn clearable(
        b: &[u8],
        cols: usize,
        diagonals: bool,
        adds: u8,
        place: Place,
    ) -> bool {
        search(
            b,
            cols,
            diagonals,
            adds,
            place,
            &mut std::collections::HashSet::new(),
        )
    }

    fn search(
        b: &[u8],
        cols: usize,
        diagonals: bool,
        adds: u8,
        place: Place,
        lost: &mut std::collections::HashSet<(Vec<u8>, u8)>,
    ) -> bool {
        if b.iter().all(|&x| x == 0) {
            return true;
        }
        if lost.contains(&(b.to_vec(), adds)) {
            return false;
        }
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if b[i] != 0
                    && b[j] != 0
                    && (b[i] == b[j] || b[i] + b[j] == 10)
                    && sees(b, cols, diagonals, i, j)
                {
                    let mut c = b.to_vec();
                    apply(&mut c, cols, i, j);
                    if search(&c, cols, diagonals, adds, place, lost) {
                        return true;
                    }
                }
            }
        }
        if adds > 0 {
            let mut c = b.to_vec();
            add(&mut c, cols, place);
            if search(&c, cols, diagonals, adds - 1, place, lost) {
                return true;
            }
        }
        lost.insert((b.to_vec(), adds));
        false
    }
}

/// The plain implementation's reading of an append rule.
fn place(a: Append) -> plain::Place {
    match a {
        Append::AfterLastDigit => plain::Place::AfterLastDigit,
        Append::AfterLastCell => plain::Place::AfterLastCell,
        Append::NewRow => plain::Place::NewRow,
    }
}

fn rules(cols: usize, diagonals: bool, append: Append) -> Rules {
    Rules {
        cols,
        diagonals,
        append,
    }
}

fn random_board(rng: &mut ground::seed::Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.random_range(1..=9)).collect()
}

#[test]
fn engine_and_plain_rules_agree_on_visibility() {
    let mut rng = item_rng(1, "nm-sees", 0);
    for t in 0..3000 {
        let cols = 3 + t % 7;
        let mut b = random_board(&mut rng, 10 + t % 30);
        for x in b.iter_mut() {
            if rng.random_range(0..3) == 0 {
                *x = 0;
            }
        }
        let r = rules(cols, t % 2 == 0, Append::AfterLastDigit);
        for i in 0..b.len() {
            for j in i + 1..b.len() {
                if b[i] != 0 && b[j] != 0 {
                    assert_eq!(
                        r.sees(&b, i, j),
                        plain::sees(&b, cols, r.diagonals, i, j),
                        "{b:?} cols {cols} ({i},{j})"
                    );
                }
            }
        }
    }
}

#[test]
fn solutions_replay_under_the_plain_rules() {
    // Every solution the exact solver emits, on hundreds of seeded boards, replayed by
    // the second implementation.
    for (n, adds, append) in [
        (27, 4, Append::AfterLastDigit),
        (27, 1, Append::AfterLastDigit),
        (27, 4, Append::AfterLastCell),
        (18, 2, Append::AfterLastCell),
        (27, 1, Append::NewRow),
        (27, 3, Append::NewRow),
    ] {
        let r = rules(9, true, append);
        // Half the boards through the search alone, half with the playouts first.
        let mut solver = Solver::new(r);
        let mut search = Solver::search_only(r);
        let mut solved = 0;
        for i in 0..150 {
            let b = random_board(&mut item_rng(2, "nm-replay", i), n);
            let s = if i % 2 == 0 { &mut solver } else { &mut search };
            s.reset();
            if let Verdict::Solvable(moves) = s.solve(&b, adds, 5_000_000) {
                solved += 1;
                let mut cur = b.clone();
                let mut used = 0;
                for m in &moves {
                    match *m {
                        Move::Add => {
                            used += 1;
                            plain::add(&mut cur, 9, place(append));
                        }
                        Move::Pair(a, c) => {
                            let (a, c) = (a as usize, c as usize);
                            assert!(cur[a] != 0 && cur[c] != 0);
                            assert!(rules::matches(cur[a], cur[c]));
                            assert!(plain::sees(&cur, 9, true, a, c), "{b:?}: {m:?}");
                            plain::apply(&mut cur, 9, a, c);
                        }
                    }
                }
                assert!(used <= adds);
                assert!(cur.iter().all(|&x| x == 0), "{b:?} not cleared");
            }
        }
        assert!(solved > 50, "{n} digits, {adds} adds: only {solved} solved");
    }
}

#[test]
fn verdicts_match_a_plain_exhaustive_search_on_small_boards() {
    // 12- to 18-digit boards with 0 or 1 add, including unsolvable ones.
    let mut counts = [0usize; 2];
    for i in 0..200u64 {
        let mut rng = item_rng(3, "nm-exhaustive", i);
        let n = 12 + (i as usize % 4) * 2;
        let b = random_board(&mut rng, n);
        let adds = (i % 2) as u8;
        let diagonals = i % 3 != 0;
        let append = match i % 5 {
            0 => Append::AfterLastCell,
            1 | 2 => Append::NewRow,
            _ => Append::AfterLastDigit,
        };
        let mut solver = Solver::search_only(rules(6, diagonals, append));
        let got = solver.solve(&b, adds, u64::MAX);
        let want = plain::clearable(&b, 6, diagonals, adds, place(append));
        assert_ne!(got, Verdict::Unknown);
        assert_eq!(
            matches!(got, Verdict::Solvable(_)),
            want,
            "{b:?} adds {adds}"
        );
        counts[want as usize] += 1;
    }
    assert!(
        counts[0] > 20 && counts[1] > 20,
        "both answers exercised: {counts:?}"
    );
}

#[test]
fn add_point_rounds_match_a_plain_exhaustive_search() {
    // The add-point budgets cut searches short and retry them in later rounds; a cut
    // must never turn into "lost". Thousands of small boards (10-16 digits, 0-2 adds,
    // both append readings, with and without diagonals), each decided with the
    // default budgets and with tiny ones (1, doubling: many rounds, many cuts), against
    // the plain exhaustive search.
    let mut counts = [0usize; 2];
    for i in 0..3000u64 {
        let mut rng = item_rng(5, "nm-add-rounds", i);
        let n = 10 + (i as usize % 4) * 2;
        let b = random_board(&mut rng, n);
        let adds = if n <= 12 {
            (i % 3) as u8
        } else {
            (i % 2) as u8
        };
        let diagonals = i % 3 != 0;
        let append = match i % 5 {
            0 => Append::AfterLastCell,
            1 | 2 => Append::NewRow,
            _ => Append::AfterLastDigit,
        };
        let cols = 4 + (i as usize % 3);
        let r = rules(cols, diagonals, append);
        let want = plain::clearable(&b, cols, diagonals, adds, place(append));
        for mut solver in [
            Solver::search_only(r),
            Solver::search_only(r).with_add_budgets(1, 2),
            Solver::new(r).with_add_budgets(1, 2),
        ] {
            let got = solver.solve(&b, adds, u64::MAX);
            assert_ne!(got, Verdict::Unknown);
            assert_eq!(
                matches!(got, Verdict::Solvable(_)),
                want,
                "{b:?} cols {cols} adds {adds}"
            );
            if let Verdict::Solvable(moves) = got {
                let mut cur = b.clone();
                for m in &moves {
                    match *m {
                        Move::Add => plain::add(&mut cur, cols, place(append)),
                        Move::Pair(a, c) => {
                            let (a, c) = (a as usize, c as usize);
                            assert!(cur[a] != 0 && rules::matches(cur[a], cur[c]));
                            assert!(plain::sees(&cur, cols, diagonals, a, c), "{b:?}: {m:?}");
                            plain::apply(&mut cur, cols, a, c);
                        }
                    }
                }
                assert!(moves.iter().filter(|m| **m == Move::Add).count() <= adds as usize);
                assert!(cur.iter().all(|&x| x == 0), "{b:?} not cleared");
            }
        }
        counts[want as usize] += 1;
    }
    assert!(
        counts[0] > 300 && counts[1] > 300,
        "both answers exercised: {counts:?}"
    );
}

#[test]
fn min_adds_is_the_first_limit_that_works() {
    let r = rules(9, true, Append::AfterLastDigit);
    let mut solver = Solver::new(r);
    for i in 0..100 {
        let b = random_board(&mut item_rng(4, "nm-min", i), 27);
        solver.reset();
        let Ok(Some((k, moves))) = solver.min_adds(&b, 4, 10_000_000) else {
            continue;
        };
        assert_eq!(replay(&r, &b, &moves, k).ok(), Some(k));
        assert!(k >= 1, "27 digits always have an odd class count");
        let mut fresh = Solver::new(r);
        assert_eq!(fresh.solve(&b, k - 1, 10_000_000), Verdict::Unsolvable);
    }
}

#[test]
fn monte_carlo_wins_replay_and_never_beat_the_exact_solver() {
    let r = rules(9, true, Append::AfterLastDigit);
    let mut solver = Solver::new(r);
    let mut rng = item_rng(5, "nm-mc", 0);
    for i in 0..100 {
        let b = random_board(&mut item_rng(5, "nm-mc-board", i), 27);
        solver.reset();
        let exact = solver.solve(&b, 1, 10_000_000);
        if let Some((_, moves)) = montecarlo::solve(&r, &b, 1, 50, &mut rng) {
            assert!(replay(&r, &b, &moves, 1).is_ok());
            assert!(
                matches!(exact, Verdict::Solvable(_)),
                "MC cleared what the solver calls lost"
            );
        }
    }
}

#[test]
fn the_game_verifies_its_boards() {
    let game = NumberMatch::new(NumberMatchParams {
        adds: 1,
        ..NumberMatchParams::default()
    })
    .unwrap();
    for i in 0..40 {
        if let Outcome::Accepted(p) = game.generate(&mut item_rng(6, "nm-game", i)) {
            game.verify(&p).unwrap();
            assert_eq!(p.min_adds, 1);
        }
    }
}

proptest! {
    #[test]
    fn pairs_keep_class_parities_and_adds_double(
        digits in proptest::collection::vec(1u8..=9, 4..60),
        cols in 2usize..12,
        pick in 0usize..1000,
    ) {
        let r = rules(cols, true, Append::AfterLastDigit);
        let counts = |b: &[u8]| {
            let mut c = [0u32; 6];
            for &d in b.iter().filter(|&&d| d != 0) {
                c[rules::class(d) as usize] += 1;
            }
            c
        };
        let mut b = digits.clone();
        let mut moves = Vec::new();
        r.moves(&b, &mut moves);
        if !moves.is_empty() {
            let (i, j) = moves[pick % moves.len()];
            let before = counts(&b);
            let rows_before = b.len().div_ceil(cols);
            r.remove(&mut b, i as usize, j as usize);
            let after = counts(&b);
            for k in 1..6 {
                prop_assert_eq!(before[k] % 2, after[k] % 2);
            }
            // Rows that empty disappear: no row of the board is all empty.
            prop_assert!(b.chunks(cols).all(|row| row.iter().any(|&x| x != 0)));
            prop_assert!(b.len().div_ceil(cols) <= rows_before);
        }
        let before = counts(&b);
        r.add(&mut b);
        let after = counts(&b);
        for k in 1..6 {
            prop_assert_eq!(after[k], 2 * before[k]);
        }
    }
}

/// Replay `moves` on `b` with the plain rules; whether they clear it within `adds`.
fn plain_replay(b: &[u8], r: &Rules, moves: &[Move], adds: u8) -> bool {
    let mut cur = b.to_vec();
    let mut used = 0;
    for m in moves {
        match *m {
            Move::Add => {
                used += 1;
                plain::add(&mut cur, r.cols, place(r.append));
            }
            Move::Pair(a, c) => {
                let (a, c) = (a as usize, c as usize);
                if a >= cur.len() || c >= cur.len() || cur[a] == 0 || cur[c] == 0 {
                    return false;
                }
                if !rules::matches(cur[a], cur[c]) || !plain::sees(&cur, r.cols, r.diagonals, a, c)
                {
                    return false;
                }
                plain::apply(&mut cur, r.cols, a, c);
            }
        }
    }
    used <= adds && cur.iter().all(|&x| x == 0)
}

#[test]
fn boards_at_the_length_bound_with_every_add_do_not_panic() {
    // The search used a fixed 512-slot stack for its move ordering, so any board that
    // grew past 512 digits (a 513-digit board, or 200 digits after two adds) panicked.
    // Boards of MAX_LENGTH digits with MAX_ADDS adds reach tens of thousands of cells;
    // a small budget keeps this quick, and whatever is found must replay.
    let variants = [
        rules(9, true, Append::AfterLastDigit),
        rules(9, false, Append::AfterLastCell),
        rules(64, false, Append::AfterLastDigit),
        rules(1, false, Append::AfterLastCell),
    ];
    for (v, r) in variants.into_iter().enumerate() {
        for i in 0..2 {
            let b = random_board(&mut item_rng(7, "nm-long", (v * 2 + i) as u64), MAX_LENGTH);
            let mut solver = Solver::new(r);
            for adds in [1, MAX_ADDS] {
                solver.reset();
                if let Verdict::Solvable(moves) = solver.solve(&b, adds, 3_000) {
                    assert!(plain_replay(&b, &r, &moves, adds), "variant {v}");
                }
                let mut rng = item_rng(7, "nm-long-mc", i as u64);
                if let Some((_, moves)) = montecarlo::solve(&r, &b, adds, 3, &mut rng) {
                    assert!(plain_replay(&b, &r, &moves, adds), "variant {v}");
                }
            }
        }
    }
    // A board that never has a pair doubles with every add: 256 * 2^8 = 65,536 cells,
    // every cell index still a u16.
    let stuck: Vec<u8> = (0..MAX_LENGTH).map(|i| [1, 2, 3][i % 3]).collect();
    let r = rules(64, false, Append::AfterLastCell);
    let mut b = stuck.clone();
    for _ in 0..MAX_ADDS {
        r.add(&mut b);
    }
    assert_eq!(b.len(), MAX_CELLS);
    let mut solver = Solver::new(r);
    let v = solver.solve(&stuck, MAX_ADDS, 20_000);
    if let Verdict::Solvable(moves) = v {
        assert!(plain_replay(&stuck, &r, &moves, MAX_ADDS));
    }
}

#[test]
fn path_bounds_end_a_search_as_unknown_never_as_a_proof() {
    // With the bounds on the search path lowered to something small boards reach, a
    // search that meets them answers Unknown; every other answer is the exact one.
    let mut unknown = 0;
    for i in 0..300u64 {
        let mut rng = item_rng(8, "nm-path-bounds", i);
        let n = 10 + (i as usize % 4) * 2;
        let b = random_board(&mut rng, n);
        let adds = (i % 3) as u8;
        let r = rules(4 + i as usize % 3, i % 2 == 0, Append::AfterLastDigit);
        let want = plain::clearable(&b, r.cols, r.diagonals, adds, place(r.append));
        for mut solver in [
            Solver::search_only(r).with_path_bounds(3, usize::MAX),
            Solver::search_only(r).with_path_bounds(usize::MAX, 40),
            Solver::new(r).with_path_bounds(2, 60),
        ] {
            match solver.solve(&b, adds, u64::MAX) {
                Verdict::Unknown => unknown += 1,
                Verdict::Unsolvable => assert!(!want, "{b:?} adds {adds}"),
                Verdict::Solvable(moves) => {
                    assert!(want);
                    assert!(plain_replay(&b, &r, &moves, adds), "{b:?}");
                }
            }
        }
    }
    assert!(unknown > 50, "the bounds were reached: {unknown}");
}

#[test]
fn full_tables_cost_time_never_answers() {
    // Tables that stop growing at a handful of entries still give the exact verdicts
    // (small boards: without its tables the search is exponential).
    let mut full = 0;
    for i in 0..300u64 {
        let mut rng = item_rng(9, "nm-tables", i);
        let n = 10 + (i as usize % 3) * 2;
        let b = random_board(&mut rng, n);
        let adds = (i % 2) as u8;
        let r = rules(5, i % 3 != 0, Append::AfterLastDigit);
        let want = plain::clearable(&b, 5, r.diagonals, adds, place(r.append));
        let mut solver = Solver::search_only(r).with_table_entries(8);
        let got = solver.solve(&b, adds, u64::MAX);
        assert_eq!(matches!(got, Verdict::Solvable(_)), want, "{b:?}");
        assert_ne!(got, Verdict::Unknown);
        let (lost, cut) = solver.table_entries();
        assert!(lost <= 8 && cut <= 8, "{lost} {cut}");
        full += usize::from(lost == 8);
    }
    assert!(full > 30, "the bound was reached: {full}");
}

#[test]
fn boards_are_digits_one_to_nine_and_dots_within_the_length_bound() {
    assert_eq!(
        rules::parse_board("1.2 3,4\n5").unwrap(),
        [1, 0, 2, 3, 4, 5]
    );
    let e = rules::parse_board("1203").unwrap_err().to_string();
    assert!(
        e.contains("character 3 is '0'") && e.contains(". for an empty cell"),
        "{e}"
    );
    let e = rules::parse_board("12\u{1b}3").unwrap_err().to_string();
    assert!(
        e.contains("'\\u{1b}'"),
        "control characters are escaped: {e}"
    );
    let at_bound = "5".repeat(MAX_LENGTH);
    assert_eq!(rules::parse_board(&at_bound).unwrap().len(), MAX_LENGTH);
    let e = rules::parse_board(&format!("{at_bound}."))
        .unwrap_err()
        .to_string();
    assert!(e.contains("257 cells") && e.contains("at most 256"), "{e}");
    // A huge board is refused without being echoed.
    let e = rules::parse_board(&"7".repeat(1_000_000))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 120 && e.contains("1000000 cells"), "{e}");
    let e = "x".repeat(5000).parse::<Append>().unwrap_err().to_string();
    assert!(e.len() < 150 && e.contains("5000 characters"), "{e}");
    let e = "y"
        .repeat(5000)
        .parse::<Difficulty>()
        .unwrap_err()
        .to_string();
    assert!(e.len() < 150 && e.contains("5000 characters"), "{e}");
}

#[test]
fn length_is_checked_against_its_bound_everywhere() {
    for length in [0, MAX_LENGTH + 1, 10_000_000_000, usize::MAX] {
        let e = NumberMatch::check_length(length).unwrap_err().to_string();
        assert!(e.starts_with(&format!("length is {length}")), "{e}");
        let params = NumberMatchParams {
            length,
            ..NumberMatchParams::default()
        };
        assert!(NumberMatch::new(params).is_err());
    }
    NumberMatch::check_length(MAX_LENGTH).unwrap();
    let game = NumberMatch::new(NumberMatchParams {
        length: MAX_LENGTH,
        adds: 1,
        max_nodes: 20_000,
        ..NumberMatchParams::default()
    })
    .unwrap();
    for i in 0..3 {
        if let Outcome::Accepted(p) = game.generate(&mut item_rng(10, "nm-long-game", i)) {
            game.verify(&p).unwrap();
        }
    }
}

#[test]
fn every_column_of_a_64_column_board_has_its_own_name() {
    // Past 52 columns the names ran on into `[`, `\`, ... and then `a`-`f` again, so
    // the answer key named column 58 like column 0.
    let cols = 64;
    let names: Vec<String> = (0..cols)
        .map(|c| notation(&[Move::Pair(c as u16, (c + cols) as u16)], cols))
        .collect();
    for (c, n) in names.iter().enumerate() {
        // "<column>1<column>2": letters, then the row.
        let letters: String = n
            .chars()
            .take_while(|ch| ch.is_ascii_alphabetic())
            .collect();
        assert!(!letters.is_empty(), "{n}");
        assert_eq!(*n, format!("{letters}1{letters}2"), "column {c}");
    }
    let mut distinct = names.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), cols, "{names:?}");
    assert_eq!(names[0], "a1a2");
    assert_eq!(names[51], "Z1Z2");
    assert_eq!(names[63], "zl1zl2");
}

/// A board whose search goes `half` moves deep with one pair at each level: `1 2`, a
/// word and its mirror (`3 4 3 4 ... 4 3 4 3`), `1 2`, one column. Only the middle pair
/// ever matches, and after `half` of them `1 2 1 2` is stuck: unsolvable, with even
/// class counts and a reduced word that is not empty, so only the search can say so.
fn deep_board(half: usize) -> Vec<u8> {
    let word: Vec<u8> = (0..half).map(|i| [3, 4][i % 2]).collect();
    let mut b = vec![1, 2];
    b.extend(&word);
    b.extend(word.iter().rev());
    b.extend([1, 2]);
    b
}

#[test]
fn the_deepest_search_fits_a_worker_stack_and_deeper_is_unknown() {
    // A worker thread has 2 MiB of stack; a debug build's frames are far larger, so
    // there the check is only that the bound holds.
    let stack = if cfg!(debug_assertions) {
        256 << 20
    } else {
        2 << 20
    };
    let run = |half: usize| {
        std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || {
                let mut s = Solver::search_only(rules(1, true, Append::AfterLastDigit));
                s.solve(&deep_board(half), 0, u64::MAX)
            })
            .unwrap()
            .join()
            .unwrap()
    };
    assert_eq!(run(solve::MAX_DEPTH - 8), Verdict::Unsolvable);
    assert_eq!(run(solve::MAX_DEPTH + 8), Verdict::Unknown);
    let small = deep_board(30);
    assert!(!plain::clearable(
        &small,
        1,
        true,
        0,
        plain::Place::AfterLastDigit
    ));
    assert_eq!(
        Solver::search_only(rules(1, true, Append::AfterLastDigit)).solve(&small, 0, u64::MAX),
        Verdict::Unsolvable
    );
}
