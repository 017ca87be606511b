//! Carcassonne, one player: score landscapes in the code-golf challenge's encoding,
//! and make landscapes by the real game's placement rules. See
//! `shared/specs/carcassonne.md`.

pub mod generate;
pub mod score;
pub mod stats;
pub mod tiles;

pub use score::{score, Breakdown};
pub use tiles::{parse, Landscape, Tile};

#[cfg(test)]
mod tests;

use crate::canvas::{Canvas, Rect};
use crate::games::{Game, Outcome};
use crate::seed::Rng;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};

mod draw;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CarcassonneParams {
    /// Stop after this many tiles (1 to 72, the start tile included).
    pub tiles: usize,
    /// Score farms too (the full game's rule; off by default).
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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarcassonnePuzzle {
    pub landscape: serde_json::Value,
    pub tiles: usize,
    pub discarded: usize,
    pub score: u32,
    pub breakdown: Breakdown,
    pub breakdown_text: String,
    #[serde(skip)]
    pub map: Landscape,
}

pub struct Carcassonne {
    params: CarcassonneParams,
}

impl Game for Carcassonne {
    fn params(&self) -> &CarcassonneParams {
        &self.params
    }

    const NAME: &'static str = "carcassonne";
    const TITLE: &'static str = "Carcassonne";
    type Params = CarcassonneParams;
    type Puzzle = CarcassonnePuzzle;

    fn new(params: CarcassonneParams) -> Result<Self> {
        if !(1..=72).contains(&params.tiles) {
            return Err(Error::invalid(format!(
                "tiles is {}: a landscape has 1 to 72 tiles (the base game has 72)",
                params.tiles
            )));
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

    fn verify(&self, p: &CarcassonnePuzzle) -> Result<(), String> {
        // Re-read the record's own JSON: valid tiles, consistent, same score.
        let l = tiles::from_value(&p.landscape)?;
        let b = score::score_with(&l, self.params.farms);
        if b.total() != p.score || b != p.breakdown {
            return Err(format!(
                "the landscape scores {}, the record says {}",
                b.total(),
                p.score
            ));
        }
        if l.tiles() != p.tiles {
            return Err("tile count differs".into());
        }
        Ok(())
    }

    fn draw(&self, p: &CarcassonnePuzzle, canvas: &mut Canvas, area: Rect, _with_solution: bool) {
        draw::landscape(canvas, area, &p.map);
    }

    fn aspect(&self) -> f32 {
        1.0
    }

    fn text(&self, p: &CarcassonnePuzzle) -> String {
        p.landscape.to_string() + "\n"
    }

    fn caption(&self, p: &CarcassonnePuzzle) -> String {
        format!("{} tiles: what does it score?", p.tiles)
    }

    fn answer(&self, p: &CarcassonnePuzzle) -> String {
        format!("{} points: {}", p.score, p.breakdown_text)
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
         counts once per feature. What does each landscape score?")
    }
}
