use super::tiles::CITY;
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
            let e = got.unwrap_err().to_string();
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
            // Shields (an option): count the shielded tiles this city covers.
            let shields = if city(k) {
                tiles
                    .iter()
                    .filter(|&&(r, c)| l.has_shield(r * l.cols + c))
                    .count() as u32
            } else {
                0
            };
            total += match (city(k), open) {
                (true, false) => 2 * (n + shields),
                (true, true) => n + shields,
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
    use ground::seed::item_rng;
    for i in 0..3000u64 {
        let tiles = 1 + (i as usize % 72);
        let made = generate::landscape(tiles, &mut item_rng(1, "carcassonne-test", i));
        let mut l = made.landscape;
        // Every other landscape gets shields on some of its single-city tiles.
        if i % 2 == 1 {
            l.shields = (0..l.squares.len())
                .map(|sq| {
                    l.squares[sq].is_some_and(|t| t.cities == 1 && t.count(CITY) > 0)
                        && (sq as u64 * 7 + i).is_multiple_of(3)
                })
                .collect();
        }
        let l = &l;
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

#[test]
fn the_solution_pictures_points_add_up_to_the_independent_score() {
    use ground::seed::item_rng;
    for i in 0..2000u64 {
        let tiles = 1 + (i as usize % 72);
        let mut l = generate::landscape(tiles, &mut item_rng(2, "carcassonne-labels", i)).landscape;
        if i % 2 == 1 {
            l.shields = (0..l.squares.len())
                .map(|sq| {
                    l.squares[sq].is_some_and(|t| t.cities == 1 && t.count(CITY) > 0)
                        && (sq as u64 * 5 + i).is_multiple_of(2)
                })
                .collect();
        }
        let labels = score::labels(&l);
        let sum: u32 = labels.iter().map(|lb| lb.points).sum();
        // The raster scorer is a second, plain implementation of the rules.
        assert_eq!(sum, raster::score(&l), "landscape {i}: {}", l.to_json());
        let b = score(&l);
        let features = b.complete_cities.count
            + b.incomplete_cities.count
            + b.complete_roads.count
            + b.incomplete_roads.count
            + b.complete_monasteries.count
            + b.incomplete_monasteries.count;
        assert_eq!(
            labels.len() as u32,
            features,
            "landscape {i}: one label a feature"
        );
        for lb in &labels {
            let t = l.squares[lb.square].expect("a label on a tile");
            match lb.edge {
                Some(d) => assert_ne!(t.edges[d], super::tiles::FIELD, "landscape {i}"),
                None => assert!(t.is_monastery(), "landscape {i}"),
            }
        }
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
    let shields = if l.shields.is_empty() {
        Vec::new()
    } else {
        (0..rows * cols)
            .map(|i| l.has_shield((l.rows - 1 - i % cols) * l.cols + i / cols))
            .collect()
    };
    Landscape {
        rows,
        cols,
        squares,
        shields,
    }
}

fn mirror(l: &Landscape) -> Landscape {
    let mut squares = Vec::with_capacity(l.squares.len());
    for r in 0..l.rows {
        for c in (0..l.cols).rev() {
            squares.push(l.squares[r * l.cols + c].map(|t| t.mirrored()));
        }
    }
    let shields = if l.shields.is_empty() {
        Vec::new()
    } else {
        (0..l.squares.len())
            .map(|i| l.has_shield(i / l.cols * l.cols + (l.cols - 1 - i % l.cols)))
            .collect()
    };
    Landscape {
        rows: l.rows,
        cols: l.cols,
        squares,
        shields,
    }
}

proptest::proptest! {
    #[test]
    fn turning_or_mirroring_keeps_the_score(seed in 0u64..100_000, tiles in 1usize..=72) {
        let l = generate::landscape(tiles, &mut ground::seed::item_rng(seed, "carcassonne-prop", 0)).landscape;
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
        let mut rng_a = ground::seed::item_rng(seed, "carcassonne-mono", 0);
        let mut rng_b = ground::seed::item_rng(seed, "carcassonne-mono", 0);
        let small = generate::landscape(tiles - 1, &mut rng_a).landscape;
        let big = generate::landscape(tiles, &mut rng_b).landscape;
        let m = |b: &Breakdown| b.complete_monasteries.points + b.incomplete_monasteries.points;
        let (s, g) = (score(&small), score(&big));
        proptest::prop_assert!(m(&g) >= m(&s), "{} -> {}", m(&s), m(&g));
    }
}

fn land(rows: &str) -> Landscape {
    parse(rows).unwrap()
}

#[test]
fn farms_score_three_per_complete_city_they_touch() {
    // An open city: no farm points.
    let b = score::score_with(&land("[[[2,0,0,0,1]]]"), true);
    assert_eq!(b.farms, score::Part::default());
    // A city closed by two caps: the field above and the field below are separate
    // farms (the city lies between), each touching the one complete city.
    let b = score::score_with(&land("[[[0,0,2,0,1]],[[2,0,0,0,1]]]"), true);
    assert_eq!(b.complete_cities.points, 4);
    assert_eq!(
        b.farms,
        score::Part {
            count: 2,
            points: 6
        }
    );
    assert_eq!(b.text(), "1 c. city (4), 2 farms (6)");
    // A road under the city cuts the lower tile's field: only the strip between the
    // road and the wall touches the city, the part beyond the road does not; the
    // lower field of the road tile joins the farm of the tile below.
    let b = score::score_with(&land("[[[0,0,2,0,1]],[[2,1,0,1,1]],[[0,0,0,0,0]]]"), true);
    assert_eq!(
        b.farms,
        score::Part {
            count: 2,
            points: 6
        }
    );
    // A band city across a tile separates north and south fields; both touch it.
    let g = score::field_groups(Tile::from_array([0, 2, 0, 2, 1]));
    assert_ne!(g[0], g[4]);
    assert_eq!((g[0], g[4]), (g[1], g[5]));
    // Two caps: one field between them.
    let g = score::field_groups(Tile::from_array([2, 0, 2, 0, 2]));
    assert!(g[2] != u8::MAX && g[2] == g[7]);
    // A road through: two fields; a crossing: four; a road end: one.
    let distinct = |t: [u8; 5]| {
        let mut v: Vec<u8> = score::field_groups(Tile::from_array(t))
            .into_iter()
            .filter(|&x| x != u8::MAX)
            .collect();
        v.sort();
        v.dedup();
        v.len()
    };
    assert_eq!(distinct([1, 0, 1, 0, 0]), 2);
    assert_eq!(distinct([1, 1, 1, 1, 0]), 4);
    assert_eq!(distinct([0, 1, 1, 1, 0]), 3);
    assert_eq!(distinct([0, 0, 1, 0, 0]), 1);
    // City N and W, road E to S: the strip inside the curve touches the city, the
    // corner outside it is a second field.
    assert_eq!(distinct([2, 1, 1, 2, 1]), 2);
    // Off by default.
    let first = cases()[0]["landscape"].to_string();
    assert_eq!(score(&land(&first)).farms, score::Part::default());
}

proptest::proptest! {
    #[test]
    fn farms_do_not_change_when_turned_or_mirrored(seed in 0u64..100_000, tiles in 1usize..=72) {
        let l = generate::landscape(tiles, &mut ground::seed::item_rng(seed, "carcassonne-farms", 0)).landscape;
        let s = score::score_with(&l, true);
        proptest::prop_assert_eq!(score::score_with(&rotate(&l), true), s);
        proptest::prop_assert_eq!(score::score_with(&mirror(&l), true), s);
        // Farms only add points.
        proptest::prop_assert_eq!(s.total() - s.farms.points, score(&l).total());
    }
}

#[test]
fn shields_add_two_in_a_complete_city_and_one_in_an_open_one() {
    let rec = |shields: &str| {
        let v: Value = serde_json::from_str(&format!(
            r#"{{"landscape": [[[0,0,2,0,1]],[[2,0,0,0,1]]], "shields": {shields}}}"#
        ))
        .unwrap();
        crate::tiles::from_record(&v)
    };
    let none = score(&rec("[]").unwrap());
    assert_eq!(none.total(), 4);
    assert_eq!(none.text(), "1 c. city (4)");
    let one = score(&rec("[[1, 0]]").unwrap());
    assert_eq!(one.total(), 6);
    assert_eq!(one.text(), "1 c. city (4), 1 shield (2)");
    // An open city: one point per tile and one per shield.
    let v: Value =
        serde_json::from_str(r#"{"landscape": [[[2,0,0,0,1]]], "shields": [[0, 0]]}"#).unwrap();
    let open = score(&crate::tiles::from_record(&v).unwrap());
    assert_eq!(open.text(), "1 i. city (1), 1 shield (1)");
    // Bad shield lists are named.
    for (bad, says) in [
        ("[[2, 0]]", "outside the 2x1 landscape"),
        ("[[0, 0], [0, 0]]", "listed twice"),
        ("[[0]]", "not a [row, column] pair"),
        ("{}", "list of [row, column]"),
    ] {
        let e = rec(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    let v: Value =
        serde_json::from_str(r#"{"landscape": [[[0,1,0,1,0]]], "shields": [[0, 0]]}"#).unwrap();
    let e = crate::tiles::from_record(&v).unwrap_err().to_string();
    assert!(e.contains("no single city"), "{e}");
    let v: Value =
        serde_json::from_str(r#"{"landscape": [[[2,0,2,0,2]]], "shields": [[0, 0]]}"#).unwrap();
    assert!(crate::tiles::from_record(&v).is_err());
}

proptest::proptest! {
    #[test]
    fn shields_only_add_and_turn_with_the_landscape(seed in 0u64..100_000, tiles in 1usize..=72, pick in 0u64..5) {
        let mut l = generate::landscape(tiles, &mut ground::seed::item_rng(seed, "carcassonne-shields", 0)).landscape;
        let plain = score(&l);
        l.shields = (0..l.squares.len())
            .map(|sq| l.squares[sq].is_some_and(|t| t.cities == 1 && t.count(CITY) > 0) && (sq as u64 + pick).is_multiple_of(4))
            .collect();
        let s = score(&l);
        proptest::prop_assert_eq!(s.total() - s.shields.points, plain.total());
        proptest::prop_assert_eq!(s.shields.count as usize, l.shield_list().len());
        proptest::prop_assert_eq!(score(&rotate(&l)), s);
        proptest::prop_assert_eq!(score(&mirror(&l)), s);
    }
}

#[test]
fn records_refuse_unknown_and_repeated_keys_by_name() {
    use crate::tiles::{parse_record, RECORD_KEYS};
    let land = "[[[0,0,2,0,1]],[[2,0,0,0,1]]]";
    // A misspelt key used to be read past: the shields were lost without a word.
    let e = parse_record(&format!(r#"{{"landscape": {land}, "sheilds": [[1, 0]]}}"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("unknown key \"sheilds\""), "{e}");
    // So did a second "landscape" (a Value keeps the last one).
    let e = parse_record(&format!(
        r#"{{"landscape": {land}, "landscape": [[[1,0,1,0,0]]]}}"#
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("\"landscape\" appears twice"), "{e}");
    let e = parse_record(&format!(
        r#"{{"landscape": {land}, "shields": [[1, 0]], "shields": []}}"#
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("\"shields\" appears twice"), "{e}");
    // Repeated keys deeper down (a record's breakdown) are refused too.
    let e = parse_record(&format!(
        r#"{{"landscape": {land}, "breakdown": {{"a": 1, "a": 2}}}}"#
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("\"a\" appears twice"), "{e}");
    // A long key is cut in the message.
    let long = "k".repeat(10_000);
    let e = parse_record(&format!(r#"{{"landscape": {land}, "{long}": 1}}"#))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 250 && e.contains("10000 characters"), "{e}");
    // Every key of a generated record or a published case is known, and such a record
    // scores back.
    let rec = serde_json::json!({
        "game": "carcassonne", "index": 0, "seed": 1, "landscape": serde_json::from_str::<Value>(land).unwrap(),
        "tiles": 2, "discarded": 0, "score": 4, "breakdown": {}, "breakdown_text": "",
        "shields": [[1, 0]], "case": 1, "published_score": 6, "valid": true, "why": "",
    });
    assert_eq!(rec.as_object().unwrap().len(), RECORD_KEYS.len());
    for case in cases() {
        match parse_record(&case.to_string()) {
            Ok(_) => assert_eq!(case["valid"], true),
            Err(e) => assert!(
                case["valid"] == false && !e.to_string().contains("key"),
                "{e}"
            ),
        }
    }
    assert_eq!(score(&parse_record(&rec.to_string()).unwrap()).total(), 6);
    // Bare landscapes, malformed JSON, and JSON Lines with a bad line among good ones.
    assert_eq!(parse_record(land).unwrap().tiles(), 2);
    assert!(parse_record("[[")
        .unwrap_err()
        .to_string()
        .starts_with("malformed JSON"));
    // One document over several lines is one record, repeated keys and all.
    let doc = format!("{{\n\"landscape\": {land},\n\"landscape\": {land}\n}}");
    assert!(parse_record(&doc)
        .unwrap_err()
        .to_string()
        .contains("appears twice"));
}

#[test]
fn long_values_are_cut_in_messages() {
    let big = "9".repeat(5000);
    let e = parse(&format!("[[[1,0,\"{big}\",0,0]]]"))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 200 && e.contains("characters"), "{e}");
    let v: Value = serde_json::from_str(&format!(
        r#"{{"landscape": [[[2,0,0,0,1]]], "shields": [["{big}"]]}}"#
    ))
    .unwrap();
    let e = crate::tiles::from_record(&v).unwrap_err().to_string();
    assert!(e.len() < 200 && e.contains("characters"), "{e}");
}
