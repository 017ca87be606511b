//! Catan's book side: boards and the legend meet the print rules at the sizes books
//! use (both boards, both styles), captions and the set-up page in reader words.

mod common;

use puzzlebook::canvas::{Canvas, Rect};
use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::games::catan::{Catan, CatanBoard, CatanParams, Style};
use puzzlebook::games::Present;
use puzzlebook::games::{Game, Outcome};
use puzzlebook::sampling::Sampler;
use puzzlebook::seed::item_rng;

fn game(board: BoardKind, rules: &str, style: Style) -> Catan {
    Catan::new(CatanParams {
        board,
        sampler: Sampler::Direct,
        rules: rules.into(),
        style,
        ..CatanParams::default()
    })
    .unwrap()
}

fn boards(g: &Catan, n: u64) -> Vec<CatanBoard> {
    (0..n)
        .map(|i| match g.generate(&mut item_rng(3, "catan", i)) {
            Outcome::Accepted(b) => b,
            Outcome::Rejected(why) => panic!("{why}"),
        })
        .collect()
}

/// Every mark inside `area`, no text under 7 pt, no line under 0.5 pt.
fn print_rules(c: &Canvas, area: Rect, what: &str) {
    common::assert_print_rules(c, area, what);
    assert!(
        c.min_text_pt().is_some() && c.min_line_mm().is_some(),
        "{what}: text and lines are drawn"
    );
}

const KINDS: [BoardKind; 2] = [BoardKind::Base, BoardKind::Extended];
const STYLES: [Style; 2] = [Style::Colour, Style::Greyscale];

#[test]
fn boards_meet_the_print_rules_at_book_sizes() {
    for kind in KINDS {
        for style in STYLES {
            let g = game(kind, "red-apart", style);
            for b in boards(&g, 3) {
                // A4: one board 180 mm wide or two of 85 mm; 6 x 9 in: 120 mm.
                for w in [85.0, 90.0, 120.0, 180.0] {
                    for (aw, ah) in [(w, w / g.aspect()), (w, w / g.aspect() * 1.3), (w, w)] {
                        let area = Rect::new(12.0, 30.0, aw, ah);
                        let mut c = Canvas::new();
                        g.draw(&b, &mut c, area, false);
                        print_rules(&c, area, &format!("{kind:?} {style:?} {aw} x {ah}"));
                    }
                }
            }
        }
    }
}

#[test]
fn a_board_drawn_in_a_wider_box_stays_inside_it() {
    // Boxes of another shape than the board: centred, never past the box.
    let g = game(BoardKind::Extended, "red-apart", Style::Colour);
    let b = &boards(&g, 1)[0];
    for (w, h) in [(170.0, 90.0), (100.0, 160.0)] {
        let area = Rect::new(5.0, 5.0, w, h);
        let mut c = Canvas::new();
        g.draw(b, &mut c, area, false);
        print_rules(&c, area, "odd box");
        let ink = c.ink_bounds().unwrap();
        // Centred: the slack is the same on both sides (within a stroke).
        assert!(((ink.x - area.x) - (area.right() - ink.right())).abs() < 0.6);
        assert!(((ink.y - area.y) - (area.bottom() - ink.bottom())).abs() < 0.6);
    }
}

#[test]
fn the_legend_meets_the_print_rules_on_both_page_sizes() {
    for style in STYLES {
        let g = game(BoardKind::Base, "red-apart", style);
        for (w, h) in [(180.0, 160.0), (125.0, 110.0)] {
            let area = Rect::new(15.0, 120.0, w, h);
            let mut c = Canvas::new();
            assert!(g.draw_example(&mut c, area));
            print_rules(&c, area, &format!("legend {style:?} {w} x {h}"));
            let text: String = c
                .shapes
                .iter()
                .filter_map(|s| match s {
                    puzzlebook::canvas::Shape::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ");
            for word in ["8", "2:1", "sheep", "harbor", "dots", "desert"] {
                assert!(text.contains(word), "legend lacks {word}: {text}");
            }
        }
    }
}

#[test]
fn captions_name_every_rule_in_words() {
    let cases = [
        (
            BoardKind::Base,
            "red-apart,2-12-apart",
            "For 3–4 players. No 6 or 8 next to another; no 2 or 12 next to another.",
        ),
        (
            BoardKind::Extended,
            "red-apart",
            "For 5–6 players. No 6 or 8 next to another.",
        ),
        (
            BoardKind::Base,
            "none",
            "For 3–4 players. Any layout: no placement rules.",
        ),
        (
            BoardKind::Base,
            "same-number-apart,same-terrain-apart",
            // Too wide for a 5 x 8 in caption line at 7 pt: under the board instead.
            "For 3–4 players.",
        ),
        (
            BoardKind::Base,
            "red-apart,max-pips-per-corner=12",
            "For 3–4 players.",
        ),
        // Too long for the caption line: the rules go under the board.
        (
            BoardKind::Base,
            "red-apart,number-resource-apart,harbor-resource-apart,min-pips-per-corner=4",
            "For 3–4 players.",
        ),
    ];
    for (kind, rules, want) in cases {
        let g = Catan::new(CatanParams {
            board: kind,
            sampler: Sampler::FullRejection,
            rules: rules.into(),
            style: Style::Colour,
            ..CatanParams::default()
        })
        .unwrap();
        let b = &boards(&g, 1)[0];
        let caption = g.caption(b);
        assert_eq!(caption, want);
        // Rules left out of the caption are printed under the board.
        assert_eq!(g.rules_below(), caption.ends_with("players."), "{rules}");
        for bad in ["attempt", "direct", "rejection", "-apart", " x ", "-"] {
            assert!(!caption.contains(bad), "{caption}");
        }
        let how = g.how_to_play();
        assert!(how.split_whitespace().count() <= 130, "{how}");
        assert!(how.contains("harbor") && !how.contains("-apart"), "{how}");
        assert!(!g.has_answers());
        assert!(g.rating(b).is_none());
    }
}

/// Boards with their balance words: the figures a player reads are those of the board
/// (recounted here from the record's hexes), the rules too long for the caption are
/// printed with them, and everything keeps the print rules at the book sizes.
#[test]
fn balance_words_tell_the_boards_own_figures() {
    let rules = "red-apart,number-resource-apart,harbor-resource-apart,min-pips-per-corner=4";
    let g = Catan::new(CatanParams {
        board: BoardKind::Base,
        rules: rules.into(),
        balance: true,
        ..CatanParams::default()
    })
    .unwrap();
    assert!(g.rules_below());
    let dots = |t: Option<u8>| match t {
        Some(2 | 12) => 1,
        Some(3 | 11) => 2,
        Some(4 | 10) => 3,
        Some(5 | 9) => 4,
        Some(6 | 8) => 5,
        _ => 0,
    };
    let mut percents = Vec::new();
    for b in boards(&g, 12) {
        let words = g.balance_words(&b);
        assert_eq!(words.len(), 3, "{words:?}");
        let per: Vec<String> = ["wheat", "wood", "sheep", "clay", "rock"]
            .iter()
            .map(|r| {
                let sum: u32 = b
                    .hexes
                    .iter()
                    .filter(|h| h.terrain == *r)
                    .map(|h| dots(h.token))
                    .sum();
                format!("{r} {sum}")
            })
            .collect();
        assert_eq!(
            words[0],
            format!("Dots on each resource’s numbers: {}.", per.join(", "))
        );
        // Every corner has at least 4 dots under this rule set.
        let low: u32 = words[1]
            .strip_prefix("Corners of three land hexes: ")
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(low >= 4, "{}", words[1]);
        assert!(words[2].starts_with("No 2:1 harbor is beside its own resource."));
        let pct: u32 = words[2]
            .split("than on ")
            .nth(1)
            .and_then(|s| s.split('%').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(pct <= 100);
        percents.push(pct);
        for w in [85.0, 120.0, 180.0] {
            let area = Rect::new(12.0, 30.0, w, w / g.aspect());
            let mut c = Canvas::new();
            g.draw(&b, &mut c, area, false);
            print_rules(&c, area, &format!("balance words at {w} mm"));
        }
    }
    // The percentages rank boards among uniform ones: not all the same.
    percents.sort_unstable();
    assert!(percents[0] < percents[11], "{percents:?}");
}
