//! Catan: variable board set-up by rejection sampling.
//! The game: the board, its rules, fixed hexes, records and drawings. How boards are
//! drawn (the samplers), whether any board meets a rule set, and the sampler-bias study
//! are the sampler library, [`crate::sampling`]. Rules and samplers: docs/games/catan.md.

// Every public item says what it is (the public API is the crate's contract).
#![deny(missing_docs)]
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub(crate) mod ascii;
pub mod balance;
pub mod board;
pub mod draw;
pub mod fix;
pub mod record;
pub mod rules;
pub mod sampling;
pub mod stats;

use crate::sampling::{Ctx, GaveUp, Sampler};
use board::{BoardKind, Shape, TERRAIN_NAMES};
pub use draw::Style;
use ground::canvas::{Canvas, Face, Rect};
use ground::game::{Game, Motif, Outcome, Present};
use ground::seed::Rng;
use ground::Result;
use record::check_failed;
pub(crate) use record::to_record;
pub use record::{verify_record, CatanBoard};
use rules::{Rules, Setup};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Catan's parameters: a template's `[catan]` keys and `catan generate`'s flags.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(deny_unknown_fields, default)]
pub struct CatanParams {
    /// base (3-4 players) or extended (5-6 players)
    #[arg(long, default_value = CatanParams::default().board.name())]
    pub board: BoardKind,
    /// The sampler (on the command line `--sampler` is read as text and parsed after
    /// clap, so an unknown name is an input error with exit status 1).
    #[arg(skip = CatanParams::default().sampler)]
    pub sampler: Sampler,
    /// Rules, comma-separated (the help lists every rule), or none
    #[arg(long, default_value_t = CatanParams::default().rules, help = rules::rules_help())]
    pub rules: String,
    /// How books draw the board.
    #[arg(skip = CatanParams::default().style)]
    pub style: Style,
    /// Fixed hexes, comma-separated HEX=TERRAIN[:TOKEN] (e.g. 10=desert,1=wood:6); the rest is drawn uniformly among the valid completions (full-rejection or counted)
    // The brackets are the help text's notation for an optional part, not a link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long, default_value = "")]
    #[serde(skip_serializing_if = "String::is_empty")]
    pub fix: String,
    /// Books print each board's balance figures under it, in words (template key
    /// `balance = true`).
    #[arg(skip)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub balance: bool,
}

impl Default for CatanParams {
    fn default() -> Self {
        CatanParams {
            board: BoardKind::Base,
            sampler: Sampler::FullRejection,
            rules: "red-apart".into(),
            style: Style::Colour,
            fix: String::new(),
            balance: false,
        }
    }
}

/// A reason for giving up as the `&'static str` the pipeline counts reasons by, kept
/// once per distinct text for the rest of the process: however many generators are
/// made (a library caller may make one per board), only as many strings are kept as
/// there are configurations (sampler, rules, board, cap) that ever gave up.
fn interned(why: String) -> &'static str {
    static KEPT: OnceLock<std::sync::Mutex<std::collections::BTreeSet<&'static str>>> =
        OnceLock::new();
    let mut kept = KEPT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(&s) = kept.get(why.as_str()) {
        return s;
    }
    let s: &'static str = Box::leak(why.into_boxed_str());
    kept.insert(s);
    s
}

/// A configured Catan generator.
pub struct Catan {
    params: CatanParams,
    ctx: Ctx,
    /// Why a board was given up on (made, and kept for the rest of the run, the first
    /// time a sampler reaches its cap: the pipeline counts reasons as `&'static str`).
    gave_up: OnceLock<&'static str>,
    /// Balance scores of [`BALANCE_REFERENCE`] uniformly drawn valid boards, sorted:
    /// what a board's score is compared with in books (made on first use).
    reference_scores: OnceLock<Vec<f64>>,
}

/// Boards in the reference a book's balance words compare each board with.
pub(crate) const BALANCE_REFERENCE: u64 = 2000;
/// The share of a drawing's height the balance words take, when shown.
const BALANCE_SHARE: f32 = 0.15;
/// The share of a drawing's height a rules sentence too long for the caption takes.
const RULES_SHARE: f32 = 0.07;
/// The widest caption (players and rules) kept on the caption line, in mm at 7 pt:
/// about the text width of the smallest trim a book can have (5 x 8 in); with longer
/// rules the caption names the players and the rules go under the board, where they
/// may wrap.
const CAPTION_MAX_MM: f32 = 100.0;

impl Catan {
    /// The board as drawn in its style's colours (see [`Game::draw`]).
    fn draw_in_colour(&self, b: &CatanBoard, canvas: &mut Canvas, area: Rect) {
        let share = self.words_share();
        let board_area = if share > 0.0 {
            let mut lines = Vec::new();
            if self.rules_below() {
                lines.push(rules_sentence(&self.ctx.rules));
            }
            if self.params.balance {
                lines.extend(self.balance_words(b));
            }
            // The words' share of the height, or what they need at 7 pt in a narrow
            // box (the board is then drawn smaller), up to half the box.
            let words_h = (area.h * share)
                .max(draw::words_height(&lines, area.w))
                .min(area.h / 2.0);
            let h = area.h - words_h;
            draw::words(
                canvas,
                Rect::new(area.x, area.y + h, area.w, words_h),
                &lines,
            );
            Rect::new(area.x, area.y, area.w, h)
        } else {
            area
        };
        draw::board(
            canvas,
            board_area,
            self.params.board,
            &b.layout,
            self.params.style,
        );
    }

    /// The board shape this generator draws on.
    pub fn shape(&self) -> &'static Shape {
        self.ctx.shape
    }

    /// The sampler context: shape, rules and placement table.
    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// The sampler this generator uses.
    pub fn sampler(&self) -> Sampler {
        self.params.sampler
    }

    /// The same generator with another cap on attempts per board (tests use a small
    /// one to reach it quickly; see [`sampling::MAX_ATTEMPTS`]).
    #[cfg(test)]
    pub(crate) fn with_max_attempts(self, cap: u64) -> Catan {
        Catan {
            ctx: self.ctx.with_max_attempts(cap),
            ..self
        }
    }

    /// The record of a drawn layout, with the attempts it took.
    pub fn record(&self, layout: Setup, attempts: u64) -> CatanBoard {
        let mut r = to_record(
            self.shape(),
            &self.ctx.rules.to_string(),
            self.params.sampler.name(),
            layout,
            attempts,
        );
        r.fix = self.ctx.fixes().to_string();
        r
    }
}

impl Game for Catan {
    /// The layout itself (board, hexes, harbors), not how it was drawn (sampler,
    /// attempts, rules). A turned or mirrored layout counts as another board.
    fn canonical(&self, b: &CatanBoard) -> String {
        serde_json::to_string(&(b.board, &b.hexes, &b.harbors)).expect("serialises")
    }

    fn params(&self) -> &CatanParams {
        &self.params
    }

    const NAME: &'static str = "catan";
    const TITLE: &'static str = "Catan boards";
    type Params = CatanParams;
    type Puzzle = CatanBoard;

    fn new(params: CatanParams) -> Result<Self> {
        let rules: Rules = params.rules.parse()?;
        let fixes: fix::Fixes = params.fix.parse()?;
        let ctx = sampling::context_with(params.board, &rules, &fixes, params.sampler)?;
        Ok(Catan {
            params,
            ctx,
            gave_up: OnceLock::new(),
            reference_scores: OnceLock::new(),
        })
    }

    /// The sampler's own loop is the attempt budget; the pipeline does not retry.
    fn attempt_budget(&self) -> u64 {
        1
    }

    /// One board from the sampler's own attempt loop. A stop request ends it early
    /// with no board (rejected as "interrupted"); so does the cap on attempts
    /// (`sampling::MAX_ATTEMPTS`, `sampling::MAX_SWAP_ROUNDS`), with the reason
    /// naming the sampler and the rules.
    fn generate(&self, rng: &mut Rng) -> Outcome<CatanBoard> {
        let sampler = self.params.sampler;
        match self
            .ctx
            .sample_within(sampler, rng, self.ctx.cap(sampler), None)
        {
            Ok(d) => Outcome::Accepted(self.record(d.layout, d.attempts)),
            Err(GaveUp::Interrupted) => Outcome::Rejected("interrupted"),
            Err(why) => Outcome::Rejected(
                self.gave_up
                    .get_or_init(|| interned(self.ctx.gave_up(sampler, why))),
            ),
        }
    }

    fn verify(&self, b: &CatanBoard) -> Result<()> {
        verify_record(self.shape(), &self.ctx.rules, b)
            .map_err(|e| ground::Error::Check(e.to_string()))?;
        // The fixed hexes, read from the record's own names.
        for f in self.ctx.fixes().list() {
            let h = &b.hexes[usize::from(f.hex)];
            let terrain = TERRAIN_NAMES[usize::from(f.terrain)];
            if h.terrain != terrain || f.token.is_some_and(|k| h.token != Some(k)) {
                return check_failed(format!("hex {} does not keep its fixed {terrain}", h.n));
            }
        }
        Ok(())
    }

    fn text(&self, b: &CatanBoard) -> String {
        ascii::render(self.shape(), &b.layout)
    }
}

impl Present for Catan {
    /// Catan (and The Settlers of Catan) is a trademark of Catan GmbH.
    const TRADEMARKS: &'static [&'static str] = &["Catan"];
    /// Terrain colours carry the board's meaning: a grey book draws every terrain
    /// named, with no sea colour and no red numbers.
    fn for_greyscale(params: &mut CatanParams) {
        params.style = Style::Greyscale;
    }
    fn draw(&self, b: &CatanBoard, canvas: &mut Canvas, area: Rect, _with_solution: bool) {
        let start = canvas.shapes.len();
        self.draw_in_colour(b, canvas, area);
        // The greyscale style is for black-and-white printers: no colour at all (the
        // 6 and 8 stand out by their bold face and five pips).
        if self.params.style == Style::Greyscale {
            canvas.greyscale_since(start);
        }
    }
    fn aspect(&self) -> f32 {
        draw::aspect(self.params.board) * (1.0 - self.words_share())
    }
    /// The players, and the rules when they fit on the caption's one line (otherwise
    /// they are printed under the board, see [`Catan::rules_below`]).
    fn caption(&self, _b: &CatanBoard) -> String {
        let players = players(self.params.board);
        if self.rules_below() {
            format!("For {players} players.")
        } else {
            format!("For {players} players. {}", rules_sentence(&self.ctx.rules))
        }
    }
    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        let start = canvas.shapes.len();
        draw::legend(canvas, area, self.params.style);
        if self.params.style == Style::Greyscale {
            canvas.greyscale_since(start);
        }
        true
    }
    fn answer(&self, _b: &CatanBoard) -> String {
        String::new()
    }
    fn has_answers(&self) -> bool {
        false
    }
    fn label(&self) -> &'static str {
        "Board"
    }
    fn size_label(&self) -> Option<String> {
        Some(match self.params.board {
            BoardKind::Base => "3–4 players".to_string(),
            BoardKind::Extended => "5–6 players".to_string(),
        })
    }
    fn motif(&self) -> Motif {
        Motif::Hexes
    }
    fn how_to_play(&self) -> String {
        // The same words for every board and rule set, so a book needs one page: the
        // players and the rules of each board are printed under it.
        "Each page is a ready-made board: for the 3–4 player game (19 land hexes) or the \
         5–6 player extension (30), as printed under it. To set up, lay the terrain hexes \
         as drawn, row by row, and put each number token on its hex; the desert has none \
         (the robber starts there). Set the sea frame around the island and each harbor \
         where drawn, its two piers pointing at the corners that trade there. Every board \
         was picked at random among the layouts that keep the rules printed under it."
            .into()
    }
}

impl Catan {
    /// Whether the rules sentence is too long for the caption line and is printed
    /// under the board instead.
    pub fn rules_below(&self) -> bool {
        let caption = format!(
            "For {} players. {}",
            players(self.params.board),
            rules_sentence(&self.ctx.rules)
        );
        ground::canvas::text_width(&caption, ground::canvas::MIN_TEXT_PT, Face::Regular)
            > CAPTION_MAX_MM
    }

    /// The share of each drawing's height the words under the board take (0 when
    /// there are none).
    fn words_share(&self) -> f32 {
        let mut share = 0.0;
        if self.params.balance {
            share += BALANCE_SHARE;
        }
        if self.rules_below() {
            share += RULES_SHARE;
        }
        share
    }

    /// The balance figures of a board in a player's words, one sentence per line.
    pub fn balance_words(&self, b: &CatanBoard) -> Vec<String> {
        let shape = self.shape();
        let m = balance::measure(shape, &b.layout);
        let p = m.resource_pips.as_array();
        let names = ["wheat", "wood", "sheep", "clay", "rock"];
        let per: Vec<String> = names
            .iter()
            .zip(p)
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let harbors = match m.harbor_own_resource {
            0 => "No 2:1 harbor is beside its own resource.".to_string(),
            1 => "One 2:1 harbor is beside its own resource.".to_string(),
            k => format!("{k} of the 2:1 harbors are beside their own resource."),
        };
        let scores = self.reference_scores();
        let more_even = scores.iter().filter(|&&s| s > m.score).count();
        let percent = more_even * 100 / scores.len().max(1);
        vec![
            format!("Dots on each resource’s numbers: {}.", per.join(", ")),
            format!(
                "Corners of three land hexes: {} to {} dots. Largest group of one terrain: {} {}.",
                m.corner_pips_min,
                m.corner_pips_max,
                m.largest_cluster,
                if m.largest_cluster == 1 {
                    "hex"
                } else {
                    "hexes"
                }
            ),
            format!("{harbors} Resources more even than on {percent}% of boards with these rules."),
        ]
    }

    /// The sorted balance scores of [`BALANCE_REFERENCE`] boards drawn uniformly
    /// under this generator's rules and fixes (by `direct` where it applies, else
    /// `full-rejection`), from fixed streams: the same on every run.
    fn reference_scores(&self) -> &[f64] {
        self.reference_scores.get_or_init(|| {
            let sampler = if self.ctx.fixes().is_empty() && self.ctx.has_direct() {
                Sampler::Direct
            } else {
                Sampler::FullRejection
            };
            let mut v: Vec<f64> = (0..BALANCE_REFERENCE)
                .filter_map(|i| {
                    let mut rng = ground::seed::item_rng(BALANCE_REFERENCE, "catan-balance", i);
                    self.ctx
                        .sample(sampler, &mut rng)
                        .ok()
                        .map(|d| balance::score(self.shape(), &d.layout))
                })
                .collect();
            v.sort_by(f64::total_cmp);
            v
        })
    }
}

/// "3–4" or "5–6".
fn players(kind: BoardKind) -> &'static str {
    match kind {
        BoardKind::Base => "3–4",
        BoardKind::Extended => "5–6",
    }
}

/// A placement rule in reader words.
pub(crate) fn rule_phrase(rule: &rules::Rule) -> String {
    match rule {
        rules::Rule::RedApart => "no 6 or 8 next to another".into(),
        rules::Rule::TwoTwelveApart => "no 2 or 12 next to another".into(),
        rules::Rule::SameNumberApart => "no number next to the same number".into(),
        rules::Rule::SameTerrainApart => "no terrain next to the same terrain".into(),
        rules::Rule::MaxPipsPerCorner(n) => {
            format!("at most {n} dots on the tokens around any corner")
        }
        rules::Rule::MinPipsPerCorner(n) => {
            format!("at least {n} dots around every corner where three land hexes meet")
        }
        rules::Rule::MaxCluster(1) => "no two hexes of one terrain side by side".into(),
        rules::Rule::MaxCluster(n) => {
            format!("no more than {n} hexes of one terrain in a connected group")
        }
        rules::Rule::NumberResourceApart => {
            "no resource has one number twice, or both a 6 and an 8".into()
        }
        rules::Rule::ResourcePips(a, b) => {
            format!("every resource has {a} to {b} dots on its numbers in all")
        }
        rules::Rule::HarborResourceApart => {
            "no 2:1 harbor touches a hex of its own resource".into()
        }
    }
}

/// The rules as one sentence: "No 6 or 8 next to another; no 2 or 12 next to another."
pub(crate) fn rules_sentence(rules: &Rules) -> String {
    let phrases: Vec<String> = rules.list().iter().map(rule_phrase).collect();
    if phrases.is_empty() {
        return "Any layout: no placement rules.".into();
    }
    let text = phrases.join("; ");
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().to_string());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

#[cfg(test)]
pub(crate) mod tests;
