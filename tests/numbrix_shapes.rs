//! Numbrix shapes: mask parsing and its errors, the built-in shapes, and the "no path"
//! reasons checked against an independent search (brute force on every small mask; a
//! Warnsdorff search on every built-in shape at book sizes).

use puzzlebook::games::numbrix::shape::{Mask, Moves, SHAPES};

fn err(text: &str) -> String {
    Mask::parse(text).unwrap_err().to_string()
}

#[test]
fn parse_reads_rows_comments_and_whitespace() {
    let m = Mask::parse("; a comment\n\n  #..#  \n\t....\n; another\n#..#\n\n").unwrap();
    assert_eq!((m.rows, m.cols), (3, 4));
    assert_eq!(m.to_rows(), vec!["#..#", "....", "#..#"]);
    assert_eq!(m.open_count(), 8);
    assert!(!m.is_full());
    assert!(Mask::full(2, 3).is_full());
    assert_eq!(Mask::full(2, 3).open_count(), 6);
    // A one-row strip is legal.
    let strip = Mask::parse("....").unwrap();
    assert_eq!((strip.rows, strip.cols), (1, 4));
    // CRLF line ends.
    assert_eq!(
        Mask::parse("..\r\n#.\r\n").unwrap().to_rows(),
        vec!["..", "#."]
    );
}

#[test]
fn parse_errors_name_line_and_column() {
    assert_eq!(
        err("....\n..x.\n"),
        "mask line 2, column 3: 'x' is not a cell: use # for a blocked cell and . for an open one"
    );
    // Column counts the leading whitespace; a '#' comment is a row of blocked cells,
    // so "# note" fails on the space.
    assert!(err("  ..o\n").starts_with("mask line 1, column 5: 'o'"));
    assert!(err("# note\n....\n").starts_with("mask line 1, column 2: ' '"));
    assert_eq!(
        err("; c\n....\n...\n"),
        "mask line 3 has 3 cells but line 2 has 4: every row needs the same number"
    );
    assert_eq!(
        err("; only a comment\n\n"),
        "mask has no rows: write one line a row, # for a blocked cell and . for an open one"
    );
    assert_eq!(
        err("###\n#.#\n"),
        "mask has 1 open cell: a puzzle needs at least 2 (. marks an open cell)"
    );
    assert_eq!(
        err("###\n"),
        "mask has 0 open cells: a puzzle needs at least 2 (. marks an open cell)"
    );
    // 1,025 cells: the error comes at the 1,025th cell, before the rest is read.
    let big = format!("{}\n", ".".repeat(25)).repeat(41);
    let e = err(&big);
    assert_eq!(
        e,
        "mask line 41, column 25: the mask has more than 1024 cells, the most a grid may have"
    );
    let huge = ".".repeat(10_000);
    assert!(err(&huge).starts_with("mask line 1, column 1025:"));
    assert!(Mask::parse(&format!("{}\n", ".".repeat(16)).repeat(32)).is_ok());
}

#[test]
fn rows_and_serde_round_trip() {
    let text = "#..#\n....\n.##.\n";
    let m = Mask::parse(text).unwrap();
    assert_eq!(Mask::parse(&m.to_rows().join("\n")).unwrap(), m);
    let json = serde_json::to_string(&m).unwrap();
    assert_eq!(json, r##"["#..#","....",".##."]"##);
    assert_eq!(serde_json::from_str::<Mask>(&json).unwrap(), m);
    for name in SHAPES {
        let m = Mask::named(name, 9, 11).unwrap();
        let back: Mask = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(back, m);
        assert_eq!(Mask::parse(&m.to_rows().join("\n")).unwrap(), m);
    }
    let e = serde_json::from_str::<Mask>(r#"["..", ".x"]"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("mask row 2, column 2: 'x' is not a cell"), "{e}");
    let e = serde_json::from_str::<Mask>(r#"["...", ".."]"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("row 2 has 2 cells but row 1 has 3"), "{e}");
    let e = serde_json::from_str::<Mask>("[]").unwrap_err().to_string();
    assert!(e.contains("mask has no rows"), "{e}");
    // Moves serialize by name.
    assert_eq!(serde_json::to_string(&Moves::King).unwrap(), r#""king""#);
    assert_eq!(
        serde_json::from_str::<Moves>(r#""orthogonal""#).unwrap(),
        Moves::Orthogonal
    );
    assert_eq!(Moves::default(), Moves::Orthogonal);
}

#[test]
fn from_file_is_bounded_and_names_the_file() {
    let dir = std::env::temp_dir().join(format!("pb-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "; heart-ish\n.#.\n...\n").unwrap();
    assert_eq!(
        Mask::from_file(&good).unwrap().to_rows(),
        vec![".#.", "..."]
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "..\n.?\n").unwrap();
    let e = Mask::from_file(&bad).unwrap_err().to_string();
    assert!(e.starts_with(&bad.display().to_string()), "{e}");
    assert!(e.contains("line 2, column 2: '?'"), "{e}");
    let big = dir.join("big.txt");
    std::fs::write(&big, format!("; {}\n", "x".repeat(70_000))).unwrap();
    let e = Mask::from_file(&big).unwrap_err().to_string();
    assert!(e.contains("larger than 65536 bytes"), "{e}");
    let bin = dir.join("bin.txt");
    std::fs::write(&bin, [b'.', b'.', 0xff, b'\n']).unwrap();
    let e = Mask::from_file(&bin).unwrap_err().to_string();
    assert!(e.contains("not text"), "{e}");
    let e = Mask::from_file(&dir.join("missing.txt"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.txt"), "{e}");
    let e = Mask::from_file(&dir).unwrap_err().to_string();
    assert!(e.contains("folder"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn named_shape_errors() {
    let e = Mask::named("blob", 9, 9).unwrap_err().to_string();
    assert_eq!(
        e,
        "shape 'blob' is unknown: choose corners, cross, frame, diamond or heart"
    );
    let e = Mask::named("heart", 6, 9).unwrap_err().to_string();
    assert_eq!(
        e,
        "shape heart needs at least 7x7 cells to look like one; 6x9 is too small"
    );
    assert!(Mask::named("frame", 5, 5).is_err());
    assert!(Mask::named("frame", 6, 6).is_ok());
    let e = Mask::named("frame", 30, 35).unwrap_err().to_string();
    assert!(e.contains("1050 cells") && e.contains("1024"), "{e}");
    for name in SHAPES {
        for (r, c) in [(9, 9), (8, 12), (22, 23), (32, 32)] {
            let m = Mask::named(name, r, c).unwrap();
            assert_eq!((m.rows, m.cols, m.open.len()), (r, c, r * c));
            // Every shape is symmetric left to right and leaves most cells open.
            for row in m.to_rows() {
                assert_eq!(row, row.chars().rev().collect::<String>(), "{name}");
            }
            assert!(m.open_count() * 2 > r * c, "{name} {r}x{c}");
            assert!(!m.is_full(), "{name}");
        }
    }
}

/// Open neighbours under `moves`, written out plainly (not via the library).
fn adjacency(m: &Mask, moves: Moves) -> Vec<Vec<usize>> {
    let n = m.rows * m.cols;
    (0..n)
        .map(|i| {
            let (r, c) = ((i / m.cols) as i64, (i % m.cols) as i64);
            let mut v = Vec::new();
            if !m.open[i] {
                return v;
            }
            for j in 0..n {
                let (r2, c2) = ((j / m.cols) as i64, (j % m.cols) as i64);
                let (dr, dc) = ((r - r2).abs(), (c - c2).abs());
                let touch = match moves {
                    Moves::Orthogonal => dr + dc == 1,
                    Moves::King => dr.max(dc) == 1,
                };
                if touch && m.open[j] {
                    v.push(j);
                }
            }
            v
        })
        .collect()
}

/// Hamiltonian paths over the open cells, each counted once per direction (plain DFS).
fn count_paths(adj: &[Vec<usize>], open: &[bool]) -> u64 {
    fn go(adj: &[Vec<usize>], seen: &mut [bool], at: usize, left: usize) -> u64 {
        if left == 0 {
            return 1;
        }
        let mut n = 0;
        for &j in &adj[at] {
            if !seen[j] {
                seen[j] = true;
                n += go(adj, seen, j, left - 1);
                seen[j] = false;
            }
        }
        n
    }
    let total = open.iter().filter(|&&o| o).count();
    let mut seen = vec![false; open.len()];
    let mut n = 0;
    for s in (0..open.len()).filter(|&i| open[i]) {
        seen[s] = true;
        n += go(adj, &mut seen, s, total - 1);
        seen[s] = false;
    }
    n
}

#[test]
fn no_path_reasons_are_sound_on_every_small_mask() {
    let mut report = Vec::new();
    for (rows, cols) in [(2, 3), (3, 3), (3, 4), (2, 6), (4, 4)] {
        for moves in Moves::ALL {
            let (mut said, mut none_zero, mut none_some, mut masks) = (0, 0, 0, 0);
            for bits in 0u32..(1 << (rows * cols)) {
                if bits.count_ones() < 2 {
                    continue;
                }
                let open: Vec<bool> = (0..rows * cols).map(|i| bits >> i & 1 == 1).collect();
                let m = Mask { rows, cols, open };
                masks += 1;
                let reason = m.no_path_reason(moves);
                let paths = count_paths(&adjacency(&m, moves), &m.open);
                match (&reason, paths) {
                    (Some(r), p) if p > 0 => panic!(
                        "{moves} {rows}x{cols} {:?}: says \"{r}\" but {p} paths exist",
                        m.to_rows()
                    ),
                    (Some(r), _) => {
                        said += 1;
                        assert!(!r.contains('\n') && r.len() < 400, "{r}");
                    }
                    (None, 0) => none_zero += 1,
                    (None, _) => none_some += 1,
                }
            }
            report.push(format!(
                "{rows}x{cols} {moves}: {masks} masks, {said} with a reason, {none_some} with a path, {none_zero} without a path and no reason"
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn no_path_reasons_read_well() {
    let m = |t: &str| Mask::parse(t).unwrap();
    let o = Moves::Orthogonal;
    let r = m("..#..\n..#..\n").no_path_reason(o).unwrap();
    assert_eq!(
        r,
        "the open cells fall into 2 separate regions (row 1, column 1 and row 1, column 4), but a path joins them all"
    );
    // Diagonal touching joins them for a king.
    assert!(m(".#\n#.\n").no_path_reason(Moves::King).is_none());
    assert!(m(".#\n#.\n")
        .no_path_reason(o)
        .unwrap()
        .contains("2 separate regions"));
    let r = Mask::named("diamond", 9, 9)
        .unwrap()
        .no_path_reason(o)
        .unwrap();
    assert!(
        r.starts_with("colouring the cells like a chessboard"),
        "{r}"
    );
    let r = m("..#..\n..#..\n##.##\n..#..\n..#..\n")
        .no_path_reason(Moves::King)
        .unwrap();
    assert!(
        r.starts_with("blocking row 3, column 3 would split the open cells into 4 parts"),
        "{r}"
    );
    assert!(m(".#.\n...\n.#.\n").no_path_reason(Moves::King).is_none());
    let r = m("#.#\n...\n#.#\n").no_path_reason(o).unwrap();
    assert!(r.starts_with("colouring"), "{r}");
    let r = m(".##.\n....\n.##.\n").no_path_reason(o).unwrap();
    assert!(r.contains("have only one open neighbour"), "{r}");
    assert!(Mask::full(5, 5).no_path_reason(o).is_none());
    assert!(Mask::full(1, 7).no_path_reason(o).is_none());
    // Not from parse: inconsistent sizes and empty masks give a reason, never a panic.
    let bad = Mask {
        rows: 3,
        cols: 3,
        open: vec![true; 4],
    };
    assert!(bad.no_path_reason(o).is_some());
    let empty = Mask {
        rows: 0,
        cols: 0,
        open: vec![],
    };
    assert!(empty.no_path_reason(o).is_some());
}

/// A path through every open cell: Warnsdorff order (fewest onward moves first) with
/// the two-ends prune, at most `cap` steps in all. Some(true) found, Some(false)
/// none exists, None: gave up.
fn search(m: &Mask, moves: Moves, cap: u64) -> Option<bool> {
    let adj = adjacency(m, moves);
    let total = m.open_count();
    let n = m.open.len();
    /// The search's fixed inputs (moves, open cells, cap) and its state (visited, degrees, steps).
    struct Walk<'a> {
        adj: &'a [Vec<usize>],
        open: &'a [bool],
        deg: Vec<usize>,
        seen: Vec<bool>,
        steps: u64,
        cap: u64,
    }
    impl Walk<'_> {
        /// Go on from cell `at` with `left` cells still to visit.
        fn go(&mut self, at: usize, left: usize) -> Option<bool> {
            let adj = self.adj;
            if left == 0 {
                return Some(true);
            }
            self.steps += 1;
            if self.steps > self.cap {
                return None;
            }
            // Unvisited cells with at most one unvisited neighbour can only be the next cell
            // or the last one.
            if left >= 2 {
                let mut ends = 0;
                let mut ends_next_to_at = 0;
                for u in 0..self.seen.len() {
                    if self.seen[u] || !self.open[u] {
                        continue;
                    }
                    if self.deg[u] == 0 {
                        return Some(false);
                    }
                    if self.deg[u] == 1 {
                        ends += 1;
                        ends_next_to_at += usize::from(adj[at].contains(&u));
                    }
                }
                if ends > 2 || (ends == 2 && ends_next_to_at == 0) {
                    return Some(false);
                }
                // The cells left must hang together.
                let first = adj[at].iter().copied().find(|&j| !self.seen[j]);
                let Some(first) = first else {
                    return Some(false);
                };
                let mut mark = vec![false; self.seen.len()];
                mark[first] = true;
                let mut stack = vec![first];
                let mut reached = 1;
                while let Some(u) = stack.pop() {
                    for &k in &adj[u] {
                        if !self.seen[k] && !mark[k] {
                            mark[k] = true;
                            reached += 1;
                            stack.push(k);
                        }
                    }
                }
                if reached != left {
                    return Some(false);
                }
            }
            let mut next: Vec<usize> = adj[at].iter().copied().filter(|&j| !self.seen[j]).collect();
            next.sort_by_key(|&j| self.deg[j]);
            for j in next {
                self.seen[j] = true;
                adj[j].iter().for_each(|&k| self.deg[k] -= 1);
                let r = self.go(j, left - 1);
                adj[j].iter().for_each(|&k| self.deg[k] += 1);
                self.seen[j] = false;
                match r {
                    Some(false) => {}
                    other => return other,
                }
            }
            Some(false)
        }
    }
    let mut walk = Walk {
        adj: &adj,
        open: &m.open,
        deg: adj.iter().map(Vec::len).collect(),
        seen: vec![false; n],
        steps: 0,
        cap,
    };
    let mut starts: Vec<usize> = (0..n).filter(|&i| m.open[i]).collect();
    starts.sort_by_key(|&i| adj[i].len());
    let mut gave_up = false;
    for s in starts {
        walk.seen[s] = true;
        adj[s].iter().for_each(|&k| walk.deg[k] -= 1);
        let r = walk.go(s, total - 1);
        adj[s].iter().for_each(|&k| walk.deg[k] += 1);
        walk.seen[s] = false;
        match r {
            Some(true) => return Some(true),
            None => {
                gave_up = true;
                break;
            }
            Some(false) => {}
        }
    }
    if gave_up {
        None
    } else {
        Some(false)
    }
}

#[test]
fn search_agrees_with_brute_force_on_small_masks() {
    // The helper search is itself checked against plain counting.
    for bits in 0u32..(1 << 12) {
        if bits.count_ones() < 2 {
            continue;
        }
        let open: Vec<bool> = (0..12).map(|i| bits >> i & 1 == 1).collect();
        let m = Mask {
            rows: 3,
            cols: 4,
            open,
        };
        for moves in Moves::ALL {
            let exists = count_paths(&adjacency(&m, moves), &m.open) > 0;
            assert_eq!(
                search(&m, moves, u64::MAX),
                Some(exists),
                "{:?}",
                m.to_rows()
            );
        }
    }
}

/// The sizes the built-in shapes are checked at.
fn shape_sizes() -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = (7..=16).map(|n| (n, n)).collect();
    v.extend([
        (8, 10),
        (10, 8),
        (9, 12),
        (12, 9),
        (7, 11),
        (11, 14),
        (16, 20),
    ]);
    v
}

/// What the docs promise for a built-in shape at a size.
#[derive(Debug, PartialEq)]
enum Expect {
    /// A path exists (the search must find one).
    Path,
    /// No path: a reason, or the search proves it by running out of moves.
    NoPath,
    /// Not promised (orthogonal hearts, rectangular diamonds): reported, not asserted.
    Unpromised,
}

/// Where the built-in shapes have paths: every shape with king moves; corners, cross and
/// frame with orthogonal moves too; an orthogonal diamond has a path at even square sizes
/// and none when both sides are odd (other rectangles: not promised); an orthogonal heart
/// is not promised (it fails on the chessboard colours at many sizes).
fn expected(name: &str, rows: usize, cols: usize, moves: Moves) -> Expect {
    match (name, moves) {
        (_, Moves::King) | ("corners" | "cross" | "frame", _) => Expect::Path,
        ("diamond", _) if rows == cols && rows.is_multiple_of(2) => Expect::Path,
        ("diamond", _) if rows % 2 == 1 && cols % 2 == 1 => Expect::NoPath,
        _ => Expect::Unpromised,
    }
}

#[test]
fn built_in_shapes_have_paths_where_no_reason_is_given() {
    let mut table = Vec::new();
    let mut wrong = Vec::new();
    for name in SHAPES {
        for (rows, cols) in shape_sizes() {
            let m = Mask::named(name, rows, cols).unwrap();
            for moves in Moves::ALL {
                let reason = m.no_path_reason(moves);
                let found = match &reason {
                    Some(_) => Some(false),
                    None => search(&m, moves, 5_000_000),
                };
                if reason.is_none() && found == Some(false) {
                    table.push(format!(
                        "{name} {rows}x{cols} {moves}: no reason given, the search finds no path"
                    ));
                }
                if let Some(r) = &reason {
                    table.push(format!("{name} {rows}x{cols} {moves}: {r}"));
                }
                let exp = expected(name, rows, cols, moves);
                let ok = match exp {
                    Expect::Path => found == Some(true),
                    Expect::NoPath => found == Some(false),
                    Expect::Unpromised => {
                        table.push(format!("{name} {rows}x{cols} {moves}: found {found:?}"));
                        true
                    }
                };
                if !ok {
                    wrong.push(format!(
                        "{name} {rows}x{cols} {moves}: expected {exp:?}, search says {found:?}\n{}",
                        m.to_rows().join("\n")
                    ));
                }
            }
        }
    }
    eprintln!("{}", table.join("\n"));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The generator's own first path (the solver's first solution of the empty board,
/// within the default node budget) exists on every built-in shape at 16x16 where a path
/// is promised, and on the 16x16 heart. Before the SAT prover's edge clauses the
/// orthogonal 16x16 diamond and heart ran out of a million nodes.
#[test]
fn the_generator_starts_on_every_promised_16x16_shape() {
    use puzzlebook::games::numbrix::{Numbrix, NumbrixParams};
    use puzzlebook::games::size::Size;
    use puzzlebook::games::Game;
    for name in SHAPES {
        for moves in Moves::ALL {
            if expected(name, 16, 16, moves) != Expect::Path && *name != "heart" {
                continue;
            }
            let params = NumbrixParams {
                size: Size { rows: 16, cols: 16 },
                shape: Some(name.to_string()),
                moves,
                ..NumbrixParams::default()
            };
            if let Err(e) = Numbrix::new(params) {
                panic!("{name} 16x16 {moves}: {e}");
            }
        }
    }
}
