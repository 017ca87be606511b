//! Carcassonne's book side: print rules of every drawing at the sizes books use, the
//! worked example proved by the scorer, answers in reader words, the fixed star scale.

mod common;

use puzzlebook::canvas::{Canvas, Rect};
use puzzlebook::games::carcassonne::{
    self, score, Carcassonne, CarcassonneParams, CarcassonnePuzzle, Landscape,
};
use puzzlebook::games::Games;
use puzzlebook::games::Present;
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::item_rng;

fn game(tiles: usize, farms: bool) -> Carcassonne {
    Carcassonne::new(CarcassonneParams { tiles, farms }).unwrap()
}

fn puzzle(g: &Carcassonne, index: u64) -> CarcassonnePuzzle {
    match g.generate(&mut item_rng(7, "carcassonne", index)) {
        Outcome::Accepted(p) => p,
        Outcome::Rejected(why) => panic!("rejected: {why}"),
    }
}

/// Every mark inside `area`, no text under 7 pt, no line under 0.5 pt.
fn print_rules(c: &Canvas, area: Rect, what: &str) {
    common::assert_print_rules(c, area, what);
}

#[test]
fn puzzles_and_answers_meet_the_print_rules_at_book_sizes() {
    for tiles in [1, 5, 20, 40, 72] {
        let g = game(tiles, false);
        for index in 0..4 {
            let p = puzzle(&g, index);
            for w in [80.0, 120.0, 170.0] {
                let area = Rect::new(15.0, 20.0, w, w / g.aspect());
                let mut c = Canvas::new();
                g.draw(&p, &mut c, area, false);
                print_rules(&c, area, &format!("{tiles} tiles, puzzle {w} mm"));
            }
            // Answers are drawn at one tile size a section, the smallest that keeps
            // the points' figures at 7 pt: 14 mm a tile (a disc is a third of a tile
            // across, a two-digit figure a little over its radius), and larger.
            let (uw, uh) = g.answer_units(&p).expect("answers in tiles");
            assert!((uw / uh - g.answer_aspect(&p)).abs() < 1e-4);
            for tile in [14.0, 20.0] {
                let area = Rect::new(10.0, 12.0, uw * tile, uh * tile);
                let mut c = Canvas::new();
                g.draw_answer(&p, &mut c, area);
                print_rules(
                    &c,
                    area,
                    &format!("{tiles} tiles, answer at {tile} mm a tile"),
                );
            }
        }
    }
}

#[test]
fn the_example_meets_the_print_rules_on_both_page_sizes() {
    let g = game(20, false);
    for (w, h) in [(180.0, 160.0), (125.0, 110.0)] {
        let area = Rect::new(15.0, 120.0, w, h);
        let mut c = Canvas::new();
        assert!(g.draw_example(&mut c, area));
        print_rules(&c, area, &format!("example {w} x {h}"));
        assert!(
            c.min_text_pt().unwrap() >= 8.0,
            "example text is comfortable"
        );
    }
}

#[test]
fn the_example_scores_as_its_lines_say() {
    // By hand: five tiles in two rows, the top right square empty.
    //   (1,1) city cap south, (2,1) city north+east, (2,2) city west: one city over
    //   3 tiles with no open edge: 2 x 3 = 6 points.
    //   (2,3) city cap north, facing the empty square: open, 1 tile: 1 point.
    //   Road: from the monastery (1,2) south to (2,2), east to (2,3), south off the
    //   landscape: 3 tiles, open: 3 points (never finished: one end is open).
    //   Monastery (1,2): tiles around it at (1,1), (2,1), (2,2), (2,3): 1 + 4 = 5.
    //   Total 6 + 1 + 3 + 5 = 15.
    let l = carcassonne::example_landscape();
    let b = score(&l);
    assert_eq!((b.complete_cities.count, b.complete_cities.points), (1, 6));
    assert_eq!(
        (b.incomplete_cities.count, b.incomplete_cities.points),
        (1, 1)
    );
    assert_eq!((b.complete_roads.count, b.incomplete_roads.count), (0, 1));
    assert_eq!(b.incomplete_roads.points, 3);
    assert_eq!(
        (
            b.incomplete_monasteries.count,
            b.incomplete_monasteries.points
        ),
        (1, 5)
    );
    assert_eq!(b.complete_monasteries.count, 0);
    assert_eq!(b.total(), 15);
    // The printed lines carry exactly these numbers.
    let lines = carcassonne::example_lines();
    let points: Vec<u32> = lines
        .iter()
        .map(|(_, t)| {
            let words: Vec<&str> = t.split_whitespace().collect();
            words[words.len() - 2].parse().unwrap()
        })
        .collect();
    assert_eq!(points, vec![6, 1, 3, 5, 15]);
    assert_eq!(points[..4].iter().sum::<u32>(), points[4]);
    // And the answer drawing marks the closed city only.
    let m = score::marks(&l);
    let closed: Vec<(usize, usize)> = (0..m.len())
        .flat_map(|sq| (0..4).map(move |d| (sq, d)))
        .filter(|&(sq, d)| m[sq].closed_city[d])
        .collect();
    assert_eq!(closed, vec![(0, 2), (3, 0), (3, 1), (4, 3)]);
    assert!(m
        .iter()
        .all(|k| !k.surrounded_monastery && k.finished_road == [false; 4]));
}

/// Is the feature on edge `d` of square `sq` next to an empty square or the rim?
fn faces_nothing(l: &Landscape, sq: usize, d: usize) -> bool {
    let (r, c) = ((sq / l.cols) as isize, (sq % l.cols) as isize);
    let (dr, dc) = [(-1, 0), (0, 1), (1, 0), (0, -1)][d];
    l.get(r + dr, c + dc).is_none()
}

#[test]
fn marks_agree_with_the_score() {
    let g = game(72, false);
    for index in 0..40 {
        let p = puzzle(&g, index);
        let l = &p.map;
        let m = score::marks(l);
        let b = &p.breakdown;
        for (sq, k) in m.iter().enumerate() {
            for d in 0..4 {
                if k.closed_city[d] || k.finished_road[d] {
                    assert!(!faces_nothing(l, sq, d), "marked edge faces nothing");
                }
            }
        }
        let surrounded = m.iter().filter(|k| k.surrounded_monastery).count() as u32;
        assert_eq!(surrounded, b.complete_monasteries.count);
        assert_eq!(
            m.iter().any(|k| k.closed_city.contains(&true)),
            b.complete_cities.count > 0
        );
        assert_eq!(
            m.iter().any(|k| k.finished_road.contains(&true)),
            b.complete_roads.count > 0
        );
    }
}

#[test]
fn answers_and_captions_are_in_reader_words() {
    let l = carcassonne::example_landscape();
    assert_eq!(
        carcassonne::answer_line(&score(&l)),
        "15 points: cities 7 (1 of 2 closed), road 3 (not finished), monastery 5 (not surrounded)"
    );
    for farms in [false, true] {
        let g = game(30, farms);
        for index in 0..20 {
            let p = puzzle(&g, index);
            let a = g.answer(&p);
            assert!(a.starts_with(&format!("{} points", p.score)), "{a}");
            assert!(!a.contains(" c. ") && !a.contains(" i. "), "{a}");
            let c = g.caption(&p);
            assert_eq!(c, format!("{} tiles: what does it score?", p.tiles));
        }
        assert!(g.how_to_play().split_whitespace().count() <= 130);
        let one = game(1, farms);
        assert_eq!(one.caption(&puzzle(&one, 0)), "1 tile: what does it score?");
        assert!(g.answer_note().unwrap().contains("closed city"));
    }
}

#[test]
fn stars_follow_the_fixed_scale() {
    let mut by_tiles = Vec::new();
    for tiles in [3, 10, 20, 35, 55, 72] {
        let g = game(tiles, false);
        let mut stars = Vec::new();
        for index in 0..30 {
            let p = puzzle(&g, index);
            let r = g.rating(&p).unwrap();
            let again = g.rating(&p).unwrap();
            assert_eq!(r, again);
            let want = match r.score {
                s if s < 35.0 => 1,
                s if s < 70.0 => 2,
                s if s < 120.0 => 3,
                s if s < 180.0 => 4,
                _ => 5,
            };
            assert_eq!(r.stars, want);
            stars.push(r.stars);
        }
        stars.sort();
        by_tiles.push((tiles, stars[stars.len() / 2], r_mean(&g)));
    }
    eprintln!("{by_tiles:?}");
    // More tiles never make the median easier.
    assert!(
        by_tiles.windows(2).all(|w| w[0].1 <= w[1].1),
        "{by_tiles:?}"
    );
    // The scale as documented: the median landscape of 10, 20, 35, 55 and 72 tiles
    // gets 1, 2, 3, 4 and 5 stars.
    let medians: Vec<u8> = by_tiles.iter().map(|t| t.1).collect();
    assert_eq!(medians, vec![1, 1, 2, 3, 4, 5], "{by_tiles:?}");
}

fn r_mean(g: &Carcassonne) -> f64 {
    (0..30)
        .map(|i| g.rating(&puzzle(g, i)).unwrap().score)
        .sum::<f64>()
        / 30.0
}

/// The shipped book's answer key, read from its composed pages: every scored feature
/// shows its points in a disc (on each page the discs add up to the totals the answer
/// lines state), the discs' figures are at least 7 pt, and each section is drawn at one
/// scale (a disc's radius is a fixed share of the tile, so one section, one radius).
#[test]
fn answer_key_labels_every_feature_at_one_scale_a_section() {
    use puzzlebook::book::template::Template;
    use puzzlebook::book::{compose, BookOptions};
    use puzzlebook::canvas::{Color, Shape};
    let t = Template::load::<Games>(&common::template("carcassonne.toml")).unwrap();
    let b = compose::<Games>(&t, &BookOptions::default()).unwrap();
    let texts = |c: &Canvas| -> Vec<String> {
        c.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect()
    };
    let start = b
        .pages
        .iter()
        .position(|p| texts(p).iter().any(|t| t.contains("(puzzles ")))
        .expect("an answer key");
    let mut radii: Vec<f32> = Vec::new();
    let mut answers = 0;
    for (i, p) in b.pages.iter().enumerate().skip(start) {
        let t = texts(p);
        // "24 points: cities 10 (...)" lines state each answer's total.
        let stated: u32 = t
            .iter()
            .filter_map(|l| l.split_once(" points"))
            .filter_map(|(n, _)| n.parse::<u32>().ok())
            .sum();
        answers += t.iter().filter(|l| l.contains(" points")).count();
        // Discs: white circles with a black outline, each with its number in it.
        let discs: Vec<(f32, f32, f32)> = p
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Circle {
                    center,
                    radius,
                    fill: Some(f),
                    stroke: Some(_),
                } if *f == Color::WHITE => Some((center.x, center.y, *radius)),
                _ => None,
            })
            .collect();
        let mut shown = 0;
        for &(x, y, r) in &discs {
            let inside = p.shapes.iter().find_map(|s| match s {
                Shape::Text {
                    origin, size, text, ..
                } if (origin.y - y).abs() < r
                    && origin.x >= x - r
                    && origin.x <= x + r
                    && text.parse::<u32>().is_ok() =>
                {
                    Some((*size, text.parse::<u32>().unwrap()))
                }
                _ => None,
            });
            let (size, n) =
                inside.unwrap_or_else(|| panic!("page {}: a disc with no number", i + 1));
            assert!(size >= 7.0 - 1e-3, "page {}: a {size} pt figure", i + 1);
            shown += n;
            if !radii.iter().any(|q| (q - r).abs() < 1e-3) {
                radii.push(r);
            }
        }
        assert_eq!(
            shown,
            stated,
            "page {}: discs {shown}, answer lines {stated}",
            i + 1
        );
    }
    assert_eq!(answers, 26, "every answer read");
    let sections = t.sections.len();
    assert!(
        radii.len() <= sections,
        "{} disc sizes for {sections} sections: {radii:?}",
        radii.len()
    );
}

/// The shipped template builds for other seeds and later volumes too: a 50-tile
/// landscape too wide for 14 mm tiles on A4 is drawn smaller with its discs kept at
/// 7 pt (seeds 1 and 12 and volume 2 failed before).
#[test]
fn the_shipped_book_builds_for_other_seeds_and_volumes() {
    use puzzlebook::book::template::Template;
    use puzzlebook::book::{compose, BookOptions};
    let t = Template::load::<Games>(&common::template("carcassonne.toml")).unwrap();
    for (seed, volume) in [
        (Some(1), None),
        (Some(12), None),
        (None, Some(2)),
        (Some(5), Some(3)),
    ] {
        let opts = BookOptions {
            seed,
            volume,
            ..BookOptions::default()
        };
        let b = compose::<Games>(&t, &opts)
            .unwrap_or_else(|e| panic!("seed {seed:?} volume {volume:?}: {e}"));
        for p in &b.pages {
            assert!(p.min_text_pt().is_none_or(|t| t >= 7.0 - 1e-3));
        }
    }
}
