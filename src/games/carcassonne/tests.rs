use super::*;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let text = include_str!("../../../tests/cases/carcassonne_public.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn published_cases_score_as_published_or_are_rejected() {
    let mut checked = 0;
    for case in cases() {
        let text = case["landscape"].to_string();
        let got = parse(&text);
        if case["valid"] == true {
            let l = got.unwrap();
            assert_eq!(
                score(&l).total() as u64,
                case["score"].as_u64().unwrap(),
                "case {}",
                case["case"]
            );
        } else {
            let e = got.unwrap_err();
            match case["case"].as_u64() {
                Some(3) => assert!(
                    e.contains("row 3, column 2 ([2][1])")
                        && e.contains("[1, 2, 1, 1, 0]")
                        && e.contains("0 cities"),
                    "{e}"
                ),
                // The spec's "(2,2) south and (3,2) north" are 0-based.
                Some(5) => assert!(
                    e.contains("row 3, column 3 ([2][2]) south edge is a road (1)")
                        && e.contains("row 4, column 3 ([3][2]) north edge is a city (2)"),
                    "{e}"
                ),
                _ => panic!("unexpected invalid case {}", case["case"]),
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}

/// An independent scorer: every tile drawn as a 5x5 picture (by hand, below), the
/// pictures laid side by side, features found by flood fill over the pixels.
mod raster {
    use super::super::tiles::{Landscape, Tile, DISTINCT};

    /// C and c: two different cities of a tile; R: road; #: where roads end; M: monastery.
    const PICTURES: [([u8; 5], [&str; 5]); 19] = [
        (
            [1, 0, 1, 0, 0],
            ["..R..", "..R..", "..R..", "..R..", "..R.."],
        ),
        (
            [0, 0, 1, 1, 0],
            [".....", ".....", "RRR..", "..R..", "..R.."],
        ),
        (
            [2, 1, 1, 1, 1],
            [".CCC.", ".....", "RR#RR", "..R..", "..R.."],
        ),
        (
            [0, 1, 1, 1, 0],
            [".....", ".....", "RR#RR", "..R..", "..R.."],
        ),
        (
            [2, 0, 0, 0, 1],
            [".CCC.", ".....", ".....", ".....", "....."],
        ),
        (
            [2, 2, 0, 2, 1],
            [".CCC.", "CCCCC", "CCCCC", "C...C", "....."],
        ),
        (
            [0, 0, 0, 0, 0],
            [".....", ".....", "..M..", ".....", "....."],
        ),
        (
            [2, 2, 2, 2, 1],
            [".CCC.", "CCCCC", "CCCCC", "CCCCC", ".CCC."],
        ),
        (
            [2, 2, 0, 0, 1],
            [".CCC.", "..CCC", "...CC", "....C", "....."],
        ),
        (
            [2, 1, 1, 2, 1],
            [".CCC.", "CCC..", "CC.RR", "C.RR.", "..R.."],
        ),
        (
            [2, 2, 0, 0, 2],
            [".CCC.", "....c", "....c", "....c", "....."],
        ),
        (
            [0, 0, 1, 0, 0],
            [".....", ".....", "..M..", "..R..", "..R.."],
        ),
        (
            [2, 0, 1, 1, 1],
            [".CCC.", ".....", "RRR..", "..R..", "..R.."],
        ),
        (
            [2, 1, 1, 0, 1],
            [".CCC.", ".....", "..RRR", "..R..", "..R.."],
        ),
        (
            [0, 2, 0, 2, 1],
            [".....", "CCCCC", "CCCCC", "CCCCC", "....."],
        ),
        (
            [1, 1, 1, 1, 0],
            ["..R..", "..R..", "RR#RR", "..R..", "..R.."],
        ),
        (
            [2, 1, 0, 1, 1],
            [".CCC.", ".....", "RRRRR", ".....", "....."],
        ),
        (
            [2, 2, 1, 2, 1],
            [".CCC.", "CCCCC", "CCCCC", "C.#.C", "..R.."],
        ),
        (
            [2, 0, 2, 0, 2],
            [".CCC.", ".....", ".....", ".....", ".ccc."],
        ),
    ];

    fn picture(t: Tile) -> [[u8; 5]; 5] {
        for (i, d) in DISTINCT.iter().enumerate() {
            for k in 0..4 {
                if Tile::from_array(*d).rotated(k) == t {
                    let (arr, rows) = PICTURES[i];
                    assert_eq!(arr, *d);
                    let mut p = [[0u8; 5]; 5];
                    for (r, row) in rows.iter().enumerate() {
                        p[r].copy_from_slice(row.as_bytes());
                    }
                    for _ in 0..k {
                        let old = p;
                        for r in 0..5 {
                            for c in 0..5 {
                                p[r][c] = old[4 - c][r];
                            }
                        }
                    }
                    return p;
                }
            }
        }
        panic!("not a tile: {t:?}")
    }

    pub fn score(l: &Landscape) -> u32 {
        let (h, w) = (l.rows * 5, l.cols * 5);
        let mut px = vec![b' '; h * w];
        for r in 0..l.rows {
            for c in 0..l.cols {
                if let Some(t) = l.squares[r * l.cols + c] {
                    let p = picture(t);
                    for y in 0..5 {
                        for x in 0..5 {
                            px[(r * 5 + y) * w + c * 5 + x] = p[y][x];
                        }
                    }
                }
            }
        }
        let city = |b: u8| b == b'C' || b == b'c';
        let mut seen = vec![false; h * w];
        let mut total = 0;
        for start in 0..h * w {
            let k = px[start];
            if seen[start] || !(city(k) || k == b'R') {
                continue;
            }
            let mut stack = vec![start];
            seen[start] = true;
            let mut tiles = std::collections::BTreeSet::new();
            let mut open = false;
            while let Some(p) = stack.pop() {
                let (y, x) = (p / w, p % w);
                tiles.insert((y / 5, x / 5));
                for (dy, dx) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                    let (ny, nx) = (y as i64 + dy, x as i64 + dx);
                    let same_tile =
                        ny >= 0 && nx >= 0 && (ny as usize / 5, nx as usize / 5) == (y / 5, x / 5);
                    if ny < 0
                        || nx < 0
                        || ny as usize >= h
                        || nx as usize >= w
                        || (!same_tile && px[ny as usize * w + nx as usize] == b' ')
                    {
                        // Off the picture or into an empty square: an open edge, if this
                        // pixel is on the tile's border.
                        if !same_tile {
                            open = true;
                        }
                        continue;
                    }
                    let q = ny as usize * w + nx as usize;
                    let ok = if same_tile {
                        px[q] == px[p]
                    } else {
                        (city(px[p]) && city(px[q])) || (px[p] == b'R' && px[q] == b'R')
                    };
                    if ok && !seen[q] {
                        seen[q] = true;
                        stack.push(q);
                    }
                }
            }
            let n = tiles.len() as u32;
            total += match (city(k), open) {
                (true, false) => 2 * n,
                _ => n,
            };
        }
        // Monasteries: count the eight squares around, directly.
        for r in 0..l.rows as i64 {
            for c in 0..l.cols as i64 {
                if l.get(r as isize, c as isize)
                    .is_some_and(|t| t.is_monastery())
                {
                    let around = (-1..=1i64)
                        .flat_map(|dr| (-1..=1i64).map(move |dc| (dr, dc)))
                        .filter(|&(dr, dc)| {
                            (dr, dc) != (0, 0)
                                && l.get((r + dr) as isize, (c + dc) as isize).is_some()
                        })
                        .count() as u32;
                    total += if around == 8 { 9 } else { 1 + around };
                }
            }
        }
        total
    }
}

#[test]
fn the_raster_scorer_agrees_on_the_published_cases() {
    for case in cases().iter().filter(|c| c["valid"] == true) {
        let l = parse(&case["landscape"].to_string()).unwrap();
        assert_eq!(
            raster::score(&l) as u64,
            case["score"].as_u64().unwrap(),
            "case {}",
            case["case"]
        );
    }
}

#[test]
fn both_scorers_agree_on_thousands_of_generated_landscapes() {
    use crate::seed::item_rng;
    for i in 0..3000u64 {
        let tiles = 1 + (i as usize % 72);
        let made = generate::landscape(tiles, &mut item_rng(1, "carcassonne-test", i));
        let l = &made.landscape;
        l.check_consistent().unwrap();
        assert!(l.squares.iter().flatten().all(|t| t.is_known()));
        assert_eq!(
            score(l).total(),
            raster::score(l),
            "landscape {i}: {}",
            l.to_json()
        );
    }
}

fn rotate(l: &Landscape) -> Landscape {
    // Clockwise: new (r, c) = old (rows - 1 - c, r).
    let (rows, cols) = (l.cols, l.rows);
    let mut squares = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            squares.push(l.squares[(l.rows - 1 - c) * l.cols + r].map(|t| t.rotated(1)));
        }
    }
    Landscape {
        rows,
        cols,
        squares,
    }
}

fn mirror(l: &Landscape) -> Landscape {
    let mut squares = Vec::with_capacity(l.squares.len());
    for r in 0..l.rows {
        for c in (0..l.cols).rev() {
            squares.push(l.squares[r * l.cols + c].map(|t| t.mirrored()));
        }
    }
    Landscape {
        rows: l.rows,
        cols: l.cols,
        squares,
    }
}

proptest::proptest! {
    #[test]
    fn turning_or_mirroring_keeps_the_score(seed in 0u64..100_000, tiles in 1usize..=72) {
        let l = generate::landscape(tiles, &mut crate::seed::item_rng(seed, "carcassonne-prop", 0)).landscape;
        let s = score(&l);
        let mut t = l.clone();
        for _ in 0..4 {
            t = rotate(&t);
            t.check_consistent().unwrap();
            proptest::prop_assert_eq!(score(&t), s);
        }
        proptest::prop_assert_eq!(t, l.clone());
        let m = mirror(&l);
        m.check_consistent().unwrap();
        proptest::prop_assert!(m.squares.iter().flatten().all(|t| t.is_known()));
        proptest::prop_assert_eq!(score(&m), s);
    }

    #[test]
    fn adding_a_tile_never_lowers_a_monastery(seed in 0u64..100_000, tiles in 2usize..=72) {
        // Landscapes grow tile by tile from the same draw: monastery points never fall.
        let mut rng_a = crate::seed::item_rng(seed, "carcassonne-mono", 0);
        let mut rng_b = crate::seed::item_rng(seed, "carcassonne-mono", 0);
        let small = generate::landscape(tiles - 1, &mut rng_a).landscape;
        let big = generate::landscape(tiles, &mut rng_b).landscape;
        let m = |b: &Breakdown| b.complete_monasteries.points + b.incomplete_monasteries.points;
        let (s, g) = (score(&small), score(&big));
        proptest::prop_assert!(m(&g) >= m(&s), "{} -> {}", m(&s), m(&g));
    }
}
