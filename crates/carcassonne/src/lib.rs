//! Carcassonne, one player: score landscapes in the code-golf challenge's encoding,
//! and make landscapes by the real game's placement rules. The rules and the
//! encoding: docs/games/carcassonne.md.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod answer;
pub mod generate;
pub mod score;
pub mod stats;
pub mod tiles;

pub use score::{score, Breakdown};
pub use tiles::{parse, Landscape, Tile};

#[cfg(test)]
mod tests;

use ground::canvas::{Canvas, Rect};
use ground::game::{Game, Motif, Outcome, Present, Rating};
use ground::seed::Rng;
use ground::{Error, Result};
use serde::{Deserialize, Serialize};

mod draw;

/// Carcassonne's parameters: a template's `[carcassonne]` keys and `carcassonne
/// generate`'s flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct CarcassonneParams {
    /// Tiles per landscape (1-72, the start tile included)
    #[arg(long, default_value_t = CarcassonneParams::default().tiles)]
    pub tiles: usize,
    /// Score farms too (full game)
    #[arg(long)]
    pub farms: bool,
}

impl Default for CarcassonneParams {
    fn default() -> Self {
        CarcassonneParams {
            tiles: 20,
            farms: false,
        }
    }
}

/// A landscape laid by the one-player rules, with its score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarcassonnePuzzle {
    /// The landscape in the challenge encoding: rows of squares, `[]` or `[N, E, S, W, cities]`.
    pub landscape: serde_json::Value,
    /// Tiles on the landscape, the start tile included.
    pub tiles: usize,
    /// Tiles drawn that fit nowhere.
    pub discarded: usize,
    /// The landscape's score: the sum of the breakdown's points.
    pub score: u32,
    /// The score by kind of feature.
    pub breakdown: Breakdown,
    /// The breakdown as one line of text for people.
    pub breakdown_text: String,
    /// The landscape itself.
    #[serde(skip)]
    pub map: Landscape,
}

/// A configured Carcassonne game.
pub struct Carcassonne {
    params: CarcassonneParams,
}

impl Game for Carcassonne {
    /// The landscape as laid (a turned landscape counts as another).
    fn canonical(&self, p: &CarcassonnePuzzle) -> String {
        p.landscape.to_string()
    }

    fn params(&self) -> &CarcassonneParams {
        &self.params
    }

    const NAME: &'static str = "carcassonne";
    const TITLE: &'static str = "Carcassonne";
    type Params = CarcassonneParams;
    type Puzzle = CarcassonnePuzzle;

    fn new(params: CarcassonneParams) -> Result<Self> {
        if !(1..=72).contains(&params.tiles) {
            return Err(Error::param(
                "tiles",
                format!(
                    "is {}: a landscape has 1 to 72 tiles (the base game has 72)",
                    params.tiles
                ),
            ));
        }
        Ok(Carcassonne { params })
    }

    fn generate(&self, rng: &mut Rng) -> Outcome<CarcassonnePuzzle> {
        let made = generate::landscape(self.params.tiles, rng);
        let b = score::score_with(&made.landscape, self.params.farms);
        Outcome::Accepted(CarcassonnePuzzle {
            landscape: made.landscape.to_json(),
            tiles: made.landscape.tiles(),
            discarded: made.discarded,
            score: b.total(),
            breakdown_text: b.text(),
            breakdown: b,
            map: made.landscape,
        })
    }

    fn read_record(&self, record: &serde_json::Value) -> Option<Result<CarcassonnePuzzle>> {
        #[derive(Deserialize)]
        struct Fields {
            landscape: serde_json::Value,
            tiles: usize,
            discarded: usize,
            score: u32,
            breakdown: score::Breakdown,
            breakdown_text: String,
        }
        let read = || -> Result<CarcassonnePuzzle> {
            let f = Fields::deserialize(record)
                .map_err(|e| Error::check(format!("not a Carcassonne record: {e}")))?;
            let map = tiles::from_value(&f.landscape).map_err(|e| Error::check(e.to_string()))?;
            Ok(CarcassonnePuzzle {
                landscape: f.landscape,
                tiles: f.tiles,
                discarded: f.discarded,
                score: f.score,
                breakdown: f.breakdown,
                breakdown_text: f.breakdown_text,
                map,
            })
        };
        Some(read())
    }

    fn verify(&self, p: &CarcassonnePuzzle) -> Result<()> {
        // Re-read the record's own JSON: valid tiles, consistent, same score.
        let l = tiles::from_value(&p.landscape).map_err(|e| Error::check(e.to_string()))?;
        let b = score::score_with(&l, self.params.farms);
        if b.total() != p.score || b != p.breakdown {
            return Err(Error::check(format!(
                "the landscape scores {}, the record says {}",
                b.total(),
                p.score
            )));
        }
        if l.tiles() != p.tiles {
            return Err(Error::check("tile count differs"));
        }
        Ok(())
    }

    fn text(&self, p: &CarcassonnePuzzle) -> String {
        p.landscape.to_string() + "\n"
    }

    fn text_settings(&self) -> Vec<(&'static str, String)> {
        if self.params.farms {
            vec![("farms", "true".to_string())]
        } else {
            Vec::new()
        }
    }
}

impl Present for Carcassonne {
    /// Carcassonne is a trademark of Hans im Glück.
    const TRADEMARKS: &'static [&'static str] = &["Carcassonne"];
    fn draw(&self, p: &CarcassonnePuzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        // A solution picture (`generate --format svg|png`) shows the scoring: complete
        // features marked and every feature's points.
        let marks = with_solution.then(|| score::marks(&p.map));
        let labels = if with_solution {
            score::labels(&p.map)
        } else {
            Vec::new()
        };
        draw::landscape(canvas, area, &p.map, marks.as_deref(), &labels);
    }
    fn answer_aspect(&self, p: &CarcassonnePuzzle) -> f32 {
        draw::aspect(&p.map)
    }
    /// In tiles: a section's answers share one tile size.
    fn answer_units(&self, p: &CarcassonnePuzzle) -> Option<(f32, f32)> {
        Some(draw::units(&p.map))
    }
    /// The tile at which a disc is a third of a tile across and its figures 7 pt.
    fn answer_unit_mm(&self) -> f32 {
        draw::MIN_DISC_MM / draw::DISC_SHARE
    }
    /// The answer key's drawing: complete features marked and every scored feature's
    /// points in a disc (the book keeps them at 7 pt or more by drawing fewer answers
    /// to a row).
    fn draw_answer(&self, p: &CarcassonnePuzzle, canvas: &mut Canvas, area: Rect) {
        self.draw(p, canvas, area, true);
    }
    fn answer_note(&self) -> Option<String> {
        Some(
            "In the drawings, what is complete is marked: a closed city is dark with a heavy \
             black wall, a finished road is solid black, and a surrounded monastery has a black \
             ring."
                .into(),
        )
    }
    /// See [`rate`].
    fn rating(&self, p: &CarcassonnePuzzle) -> Option<Rating> {
        Some(rate(&p.map, &p.breakdown))
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        let l = example_landscape();
        draw::example(canvas, area, &l, &EXAMPLE_LABELS, &example_lines());
        true
    }
    fn aspect(&self) -> f32 {
        1.0
    }
    fn caption(&self, p: &CarcassonnePuzzle) -> String {
        let unit = if p.tiles == 1 { "tile" } else { "tiles" };
        format!("{} {unit}: what does it score?", p.tiles)
    }
    fn answer(&self, p: &CarcassonnePuzzle) -> String {
        answer_line(&p.breakdown)
    }
    fn size_label(&self) -> Option<String> {
        Some(format!("{} tiles", self.params.tiles))
    }
    fn motif(&self) -> Motif {
        Motif::Tiles
    }
    fn how_to_play(&self) -> String {
        let farms = if self.params.farms {
            " Farms count too: each field area scores 3 points for every complete city it touches."
        } else {
            ""
        };
        format!("{}{farms}", "One player owns every road, city and monastery. A city scores 2 points per tile when it is closed \
         (no open edge) and 1 per tile when it is not; a road scores 1 per tile, finished or not; a monastery \
         scores 1 plus 1 for each of the eight squares around it that holds a tile (9 when surrounded). A tile \
         counts once per feature. These landscapes have no pennants (shields). What does each landscape score?")
    }
}

/// The answer in words: "34 points: cities 20 (1 of 5 closed), roads 8 (2 of 7
/// finished), monasteries 6 (0 of 2 surrounded)".
pub fn answer_line(b: &Breakdown) -> String {
    let mut parts = Vec::new();
    let mut kind = |done: score::Part, open: score::Part, one: &str, many: &str, word: &str| {
        let n = done.count + open.count;
        let points = done.points + open.points;
        match n {
            0 => {}
            1 => {
                let state = if done.count == 1 {
                    word.to_string()
                } else {
                    format!("not {word}")
                };
                parts.push(format!("{one} {points} ({state})"));
            }
            _ => parts.push(format!("{many} {points} ({} of {n} {word})", done.count)),
        }
    };
    kind(
        b.complete_cities,
        b.incomplete_cities,
        "city",
        "cities",
        "closed",
    );
    kind(
        b.complete_roads,
        b.incomplete_roads,
        "road",
        "roads",
        "finished",
    );
    kind(
        b.complete_monasteries,
        b.incomplete_monasteries,
        "monastery",
        "monasteries",
        "surrounded",
    );
    if b.farms.count > 0 {
        parts.push(format!("farms {}", b.farms.points));
    }
    if b.shields.count > 0 {
        parts.push(format!("shields {}", b.shields.points));
    }
    let total = b.total();
    let unit = if total == 1 { "point" } else { "points" };
    if parts.is_empty() {
        format!("{total} {unit}")
    } else {
        format!("{total} {unit}: {}", parts.join(", "))
    }
}

/// Difficulty: what a reader has to trace and count. The score is the number of tiles
/// plus twice the number of features (cities, roads and monasteries, each one to follow
/// to its ends and decide complete or not). Stars on a fixed scale: under 35 one star,
/// under 70 two, under 120 three, under 180 four, else five (measured on generated
/// landscapes, the median 10-tile one gets 1 star, 20 tiles 2, 35 tiles 3, 55 tiles 4,
/// the full 72 tiles 5).
pub fn rate(l: &Landscape, b: &Breakdown) -> Rating {
    let features = b.complete_cities.count
        + b.incomplete_cities.count
        + b.complete_roads.count
        + b.incomplete_roads.count
        + b.complete_monasteries.count
        + b.incomplete_monasteries.count;
    let score = l.tiles() as f64 + 2.0 * f64::from(features);
    let stars = match score {
        s if s < 35.0 => 1,
        s if s < 70.0 => 2,
        s if s < 120.0 => 3,
        s if s < 180.0 => 4,
        _ => 5,
    };
    Rating { score, stars }
}

/// The worked example: five tiles in two rows (JSON rows of the challenge encoding).
pub(crate) const EXAMPLE: &str =
    "[[[0,0,2,0,1],[0,0,1,0,0],[]],[[2,2,0,0,1],[1,1,0,2,1],[2,0,1,1,1]]]";

/// Where the example's letters go (tile units from the grid's top-left corner).
const EXAMPLE_LABELS: [(&str, (f32, f32)); 4] = [
    ("A", (0.5, 1.0)),
    ("B", (2.5, 1.13)),
    ("C", (2.5, 1.78)),
    ("D", (1.22, 0.78)),
];

/// The landscape of the worked example.
pub fn example_landscape() -> Landscape {
    parse(EXAMPLE).expect("the example landscape is valid")
}

/// The example's steps, one feature a line (proved by the scorer in the tests).
pub fn example_lines() -> Vec<(&'static str, String)> {
    vec![
        ("A", "The big city: 3 tiles, closed: 6 points".into()),
        ("B", "The small city: 1 tile, open: 1 point".into()),
        ("C", "The road: 3 tiles, open at one end: 3 points".into()),
        ("D", "The monastery: 1 + 4 tiles around it: 5 points".into()),
        ("", "Total: 15 points".into()),
    ]
}
