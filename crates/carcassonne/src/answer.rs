//! `carcassonne score`: the score of each given landscape (one JSON document, or one
//! per line), with its breakdown if asked.

use super::{score, tiles, Carcassonne, Landscape};
use ground::game::Solve;
use ground::solve::{Answer, Item, Split};
use ground::{Error, Result};

/// The options of `carcassonne score`.
#[derive(Debug, Clone, clap::Args)]
pub struct ScoreOptions {
    /// Also give the breakdown ("1 c. city (4), 6 i. roads (10), ...")
    #[arg(long)]
    pub breakdown: bool,
    /// Score farms too (full game: 3 points per complete city a field touches); a
    /// record made with --farms is always scored with them
    #[arg(long)]
    pub farms: bool,
}

/// One landscape from JSON text: a landscape, or a record with a "landscape" field
/// (such as `carcassonne generate` output). A key given twice or a key a record does
/// not have is refused, named.
pub(crate) fn landscape_of(text: &str) -> ground::Result<Landscape> {
    tiles::parse_record(text)
}

/// Whether the generator scored this landscape with farms: a record's breakdown has
/// them, or a text item's header says `farms=true`.
fn stated_farms(item: &Item) -> bool {
    match &item.stated {
        Some(stated) if stated.is_record => stated
            .fields
            .get("breakdown")
            .and_then(|b| b.get("farms"))
            .is_some(),
        Some(stated) => stated.fields.get("farms") == Some(&serde_json::Value::Bool(true)),
        None => false,
    }
}

impl Solve for Carcassonne {
    type Options = ScoreOptions;
    const ITEM: &'static str = "landscape";
    const SPLIT: Split = Split::JsonDocumentOrLines;
    // Errors name the line of a landscape when there are several.
    const READ_AHEAD: bool = true;

    fn answer(options: &ScoreOptions, item: &Item, json: bool) -> Result<Answer> {
        let where_ = if item.many {
            format!("line {}: ", item.line)
        } else {
            String::new()
        };
        let l = match landscape_of(item.text) {
            Ok(l) => l,
            Err(e) if json => {
                return Ok(Answer::Failed(
                    serde_json::json!({"error": format!("{where_}{e}")}).to_string() + "\n",
                ))
            }
            Err(e) => return Ok(Answer::Refused(format!("{}: {where_}{e}", item.source))),
        };
        // A landscape made with farms scored is scored so again; --farms asks how
        // any other would score with them (a question, like number-match's --adds).
        let farms = options.farms || stated_farms(item);
        let b = score::score_with(&l, farms);
        Ok(Answer::Done(if json {
            let mut v = serde_json::json!({"score": b.total()});
            if options.breakdown {
                v["breakdown"] = serde_json::json!(b);
                v["breakdown_text"] = serde_json::json!(b.text());
            }
            v.to_string() + "\n"
        } else if options.breakdown {
            format!("{}: {}\n", b.total(), b.text())
        } else {
            format!("{}\n", b.total())
        }))
    }

    fn nothing_found(source: &str) -> Error {
        Error::invalid(format!(
            "{source}: no landscape (give a JSON array of rows of squares)"
        ))
    }

    // Each failed landscape has its error already, in the output or on standard error.
    fn failures(_options: &ScoreOptions, _failed: usize, _items: usize) -> Option<String> {
        None
    }
}
