//! Catan: variable board set-up by rejection sampling, and its bias.
//! The board, the rules and the samplers: docs/games/catan.md.

pub mod ascii;
pub mod balance;
pub mod bias;
pub mod board;
pub mod bounded;
pub mod counts;
pub mod direct;
pub mod draw;
pub mod exact;
pub mod feasible;
pub mod fix;
pub mod pilot;
pub mod report;
pub mod rules;
pub mod sampler;
pub mod witness;

use crate::canvas::{Canvas, Face, Rect};
use crate::games::{Game, Motif, Outcome};
use crate::seed::Rng;
use crate::{Error, Result};
use board::{BoardKind, Shape, DESERT, HARBOR_NAMES, TERRAIN_NAMES};
pub use direct::BitDeposit;
pub use draw::Style;
use exact::{NoTable, PlacementTable};
use rules::{Rules, Setup};
pub use sampler::{set_default_deposit, Sampler};
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
    /// Fixed hexes, comma-separated HEX=TERRAIN[:TOKEN] (e.g. 10=desert,1=wood:6); the rest is drawn uniformly among the valid completions (full-rejection only)
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

/// One hex of a recorded board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HexRecord {
    /// Hex number, 1-based in reading order.
    pub n: usize,
    /// Row (spec coordinates, top row 0).
    pub x: i32,
    /// Position along the row.
    pub y: i32,
    /// Terrain name (`wheat`, ..., `desert`).
    pub terrain: &'static str,
    /// Token value; `None` on a desert.
    pub token: Option<u8>,
}

/// One harbor of a recorded board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HarborRecord {
    /// Row of the harbor's sea hex (spec coordinates).
    pub x: i32,
    /// Position along the row of the sea hex.
    pub y: i32,
    /// Harbor name: `3:1` or the resource of a 2:1 harbor.
    pub kind: &'static str,
    /// The land hexes touching its piers (those sharing the corners the piers point
    /// at), by hex number, ascending.
    pub hexes: Vec<usize>,
}

/// One drawn board, as recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CatanBoard {
    /// Board name, `base` or `extended`.
    pub board: &'static str,
    /// The rules the board was drawn under, as on the command line.
    pub rules: String,
    /// Name of the sampler that drew it.
    pub sampler: &'static str,
    /// The fixed hexes (`--fix`), in canonical form; left out when none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub fix: String,
    /// Attempts it took (1 unless the sampler rejects boards).
    pub attempts: u64,
    /// Every hex, in hex-number order.
    pub hexes: Vec<HexRecord>,
    /// Every harbor, in frame-position order.
    pub harbors: Vec<HarborRecord>,
    #[serde(skip)]
    /// The board in the compact form the samplers and renderers use (not serialised).
    pub layout: Setup,
}

/// A configured Catan generator.
pub struct Catan {
    params: CatanParams,
    ctx: sampler::Ctx,
    /// Why a board was given up on (made, and kept for the rest of the run, the first
    /// time a sampler reaches its cap: the pipeline counts reasons as `&'static str`).
    gave_up: OnceLock<&'static str>,
    /// Balance scores of [`BALANCE_REFERENCE`] uniformly drawn valid boards, sorted:
    /// what a board's score is compared with in books (made on first use).
    reference_scores: OnceLock<Vec<f64>>,
}

/// Boards in the reference a book's balance words compare each board with.
pub const BALANCE_REFERENCE: u64 = 2000;
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
    pub fn ctx(&self) -> &sampler::Ctx {
        &self.ctx
    }

    /// The sampler this generator uses.
    pub fn sampler(&self) -> Sampler {
        self.params.sampler
    }

    /// The same generator with another cap on attempts per board (tests use a small
    /// one to reach it quickly; see [`sampler::MAX_ATTEMPTS`]).
    pub fn with_max_attempts(self, cap: u64) -> Catan {
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

/// A board as recorded.
pub fn to_record(
    s: &'static Shape,
    rules: &str,
    sampler: &'static str,
    layout: Setup,
    attempts: u64,
) -> CatanBoard {
    CatanBoard {
        board: s.kind.name(),
        rules: rules.to_string(),
        sampler,
        fix: String::new(),
        attempts,
        hexes: s
            .hexes
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| HexRecord {
                n: i + 1,
                x,
                y,
                terrain: TERRAIN_NAMES[layout.terrain[i] as usize],
                token: (layout.terrain[i] != DESERT).then_some(layout.token[i]),
            })
            .collect(),
        harbors: s
            .harbors
            .iter()
            .enumerate()
            .map(|(p, h)| HarborRecord {
                x: h.x,
                y: h.y,
                kind: HARBOR_NAMES[layout.harbor[p] as usize],
                hexes: s
                    .harbor_hexes(p)
                    .into_iter()
                    .map(|i| usize::from(i) + 1)
                    .collect(),
            })
            .collect(),
        layout,
    }
}

/// Build the sampling context, with the placement table when the sampler needs it.
///
/// Every use of Catan rules starts here (generate, books, bias, job files), so this is
/// where rules no board can meet are refused ([`feasible::require`], an exhaustive
/// search whose board is checked by [`verify_record`]) and where a sampler that could
/// not draw such boards in reasonable time is refused ([`pilot::check`]).
pub fn context(kind: BoardKind, rules: &Rules, sampler: Sampler) -> Result<sampler::Ctx> {
    context_with(kind, rules, &fix::Fixes::default(), sampler)
}

/// [`context`] with some hexes fixed (`--fix`): the fixes must fit the board, agree
/// with some board that meets the rules, and be drawn by `full-rejection` (the one
/// sampler that draws the rest uniformly among the valid completions).
pub fn context_with(
    kind: BoardKind,
    rules: &Rules,
    fixes: &fix::Fixes,
    sampler: Sampler,
) -> Result<sampler::Ctx> {
    if !fixes.is_empty() && sampler != Sampler::FullRejection {
        return Err(Error::param(
            "fix",
            format!(
                "needs the full-rejection sampler, which draws the other hexes uniformly among the valid completions; {} cannot",
                sampler.name()
            ),
        ));
    }
    fixes.check(kind.shape())?;
    feasible_with(kind, rules, fixes)?;
    let ctx = table_context(kind, rules, sampler)?.with_fixes(fixes.clone());
    pilot::check(&ctx, sampler)?;
    Ok(ctx)
}

/// Ok when some board of `kind` meets `rules` (decided exactly, once per rule set); the
/// board the search found must pass the independent check [`verify_record`].
pub fn feasible_rules(kind: BoardKind, rules: &Rules) -> Result<()> {
    feasible_with(kind, rules, &fix::Fixes::default())
}

/// [`feasible_rules`] with fixed hexes. The exhaustive search decides the rules it
/// covers; beyond them (later rules, fixes) necessary conditions and a search for a
/// board decide (see [`witness`]). Either way the board found must pass
/// [`verify_record`]. Answers are remembered per board, rules and fixes.
pub fn feasible_with(kind: BoardKind, rules: &Rules, fixes: &fix::Fixes) -> Result<()> {
    // Remembered: yes, or no with the message (an `Error::Invalid`).
    type Key = (BoardKind, Rules, fix::Fixes);
    type Known = std::collections::HashMap<Key, Option<String>>;
    static CACHE: OnceLock<std::sync::Mutex<Known>> = OnceLock::new();
    let key = (kind, rules.clone(), fixes.clone());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(known) = cache.lock().expect("feasibility cache").get(&key) {
        return match known {
            None => Ok(()),
            Some(why) => Err(Error::Invalid(why.clone())),
        };
    }
    let r = decide_feasible(kind, rules, fixes);
    let known = match &r {
        Ok(()) => Some(None),
        Err(Error::Invalid(why)) => Some(Some(why.clone())),
        Err(_) => None,
    };
    if let Some(k) = known {
        cache.lock().expect("feasibility cache").insert(key, k);
    }
    r
}

fn decide_feasible(kind: BoardKind, rules: &Rules, fixes: &fix::Fixes) -> Result<()> {
    let shape = kind.shape();
    let exact = rules.searched_exactly();
    feasible::require(kind, &exact)?;
    let w = if exact == *rules && fixes.is_empty() {
        feasible::witness(kind, rules).expect("require found a board")
    } else {
        let with = if fixes.is_empty() {
            String::new()
        } else {
            format!(" with hexes fixed as {fixes}")
        };
        if let Some(why) = witness::impossible(shape, rules, fixes) {
            return Err(Error::Invalid(format!("rules {rules}{with}: {why}")));
        }
        let found = witness::search(shape, rules, fixes);
        match found.board {
            Some(b) => b,
            None => {
                return Err(Error::Invalid(format!(
                    "rules {rules}{with}: no {} board meeting them was found by a search of {} changes from {} random boards; \
                     such boards are at best very rare and may not exist (the search is not exhaustive for these rules); loosen the rules{}",
                    kind.name(),
                    found.moves,
                    witness::STARTS,
                    if fixes.is_empty() { "" } else { " or the fixes" }
                )))
            }
        }
    };
    let record = to_record(shape, &rules.to_string(), "search", w, 0);
    let agrees = fixes.agree(&w);
    verify_record(shape, rules, &record)
        .and_then(|()| {
            if agrees {
                Ok(())
            } else {
                check_failed("it does not keep the fixed hexes")
            }
        })
        .map_err(|why| {
            Error::Check(format!(
                "the board the feasibility search found for rules {rules} on the {} board fails its independent check: {why}; this is a bug, please report it",
                kind.name()
            ))
        })
}

/// [`context`] without the set-up checks.
fn table_context(kind: BoardKind, rules: &Rules, sampler: Sampler) -> Result<sampler::Ctx> {
    let shape = kind.shape();
    let table = match PlacementTable::build(shape, rules) {
        Ok(t) => Some(t),
        // A placement rule set nobody can meet is an error whatever the sampler.
        Err(e @ NoTable::NoBoard { .. }) => return Err(e.into()),
        Err(e @ NoTable::TooLarge { .. }) if sampler == Sampler::Direct => {
            return Err(Error::invalid(format!(
                "the direct sampler cannot be used: {e}"
            )))
        }
        Err(_) => None,
    };
    let ctx = sampler::Ctx::new(shape, rules.clone(), table);
    if ctx.table.is_some() || sampler != Sampler::Direct {
        return Ok(ctx);
    }
    // Later rules: direct draws the placement part exactly and checks the rest.
    match PlacementTable::build(shape, &rules.placement()) {
        Ok(t) => Ok(ctx.with_partial_table(t)),
        Err(e) => Err(Error::invalid(format!(
            "the direct sampler cannot be used: {e}"
        ))),
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

    /// Terrain colours carry the board's meaning: a grey book draws every terrain
    /// named, with no sea colour and no red numbers.
    fn for_greyscale(params: &mut CatanParams) {
        params.style = Style::Greyscale;
    }

    const NAME: &'static str = "catan";
    const TITLE: &'static str = "Catan boards";
    type Params = CatanParams;
    type Puzzle = CatanBoard;

    fn new(params: CatanParams) -> Result<Self> {
        let rules: Rules = params.rules.parse()?;
        let fixes: fix::Fixes = params.fix.parse()?;
        let ctx = context_with(params.board, &rules, &fixes, params.sampler)?;
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
    /// ([`sampler::MAX_ATTEMPTS`], [`sampler::MAX_SWAP_ROUNDS`]), with the reason
    /// naming the sampler and the rules.
    fn generate(&self, rng: &mut Rng) -> Outcome<CatanBoard> {
        let sampler = self.params.sampler;
        match self
            .ctx
            .sample_within(sampler, rng, self.ctx.cap(sampler), None)
        {
            Ok(d) => Outcome::Accepted(self.record(d.layout, d.attempts)),
            Err(sampler::GaveUp::Interrupted) => Outcome::Rejected("interrupted"),
            Err(why) => Outcome::Rejected(self.gave_up.get_or_init(|| {
                // One short string per generator that ever gives up.
                Box::leak(self.ctx.gave_up(sampler, why).into_boxed_str())
            })),
        }
    }

    fn verify(&self, b: &CatanBoard) -> Result<()> {
        verify_record(self.shape(), &self.ctx.rules, b)
            .map_err(|e| crate::Error::Check(e.to_string()))?;
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

    fn text(&self, b: &CatanBoard) -> String {
        ascii::render(self.shape(), &b.layout)
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
        crate::canvas::text_width(&caption, crate::canvas::MIN_TEXT_PT, Face::Regular)
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
                    let mut rng = crate::seed::item_rng(BALANCE_REFERENCE, "catan-balance", i);
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
pub fn rule_phrase(rule: &rules::Rule) -> String {
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
pub fn rules_sentence(rules: &Rules) -> String {
    let phrases: Vec<String> = rules.list().iter().map(rule_phrase).collect();
    if phrases.is_empty() {
        return "Any layout: no placement rules.".into();
    }
    let text = phrases.join("; ");
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().to_string());
    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
}

/// A failed check of a recorded board ([`Error::Check`]).
fn check_failed(why: impl Into<String>) -> Result<()> {
    Err(Error::Check(why.into()))
}

/// An independent check of a recorded board: the multisets, each harbor's `hexes` (land
/// hexes by coordinates around its sea hex), and every rule recomputed from the
/// coordinates (neighbours by coordinate differences, corners as triangles of
/// mutually touching hexes and as touching pairs), not from the shape's bitmasks.
pub fn verify_record(shape: &Shape, rules: &Rules, b: &CatanBoard) -> Result<()> {
    use std::collections::BTreeMap;
    if b.hexes.len() != shape.len() || b.harbors.len() != shape.harbors.len() {
        return check_failed("wrong number of hexes or harbors");
    }
    let count = |it: &mut dyn Iterator<Item = String>| {
        let mut m = BTreeMap::new();
        for k in it {
            *m.entry(k).or_insert(0) += 1;
        }
        m
    };
    let want_terrain = count(
        &mut shape
            .terrains
            .iter()
            .map(|&t| TERRAIN_NAMES[t as usize].to_string())
            .chain(std::iter::repeat_n("desert".to_string(), shape.deserts)),
    );
    let got_terrain = count(&mut b.hexes.iter().map(|h| h.terrain.to_string()));
    if want_terrain != got_terrain {
        return check_failed(format!(
            "terrain multiset {got_terrain:?} should be {want_terrain:?}"
        ));
    }
    let want_tokens = count(&mut shape.tokens.iter().map(|t| t.to_string()));
    let got_tokens = count(
        &mut b
            .hexes
            .iter()
            .filter_map(|h| h.token.map(|t| t.to_string())),
    );
    if want_tokens != got_tokens {
        return check_failed(format!(
            "token multiset {got_tokens:?} should be {want_tokens:?}"
        ));
    }
    if b.hexes
        .iter()
        .any(|h| (h.terrain == "desert") != h.token.is_none())
    {
        return check_failed("a desert has a token, or a land hex has none");
    }
    let want_h = count(
        &mut shape
            .harbor_kinds
            .iter()
            .map(|&k| HARBOR_NAMES[k as usize].to_string()),
    );
    let got_h = count(&mut b.harbors.iter().map(|h| h.kind.to_string()));
    if want_h != got_h {
        return check_failed(format!("harbor kinds {got_h:?} should be {want_h:?}"));
    }
    let touch = |a: &HexRecord, c: &HexRecord| {
        matches!(
            (c.x - a.x, c.y - a.y),
            (-1, -1) | (-1, 0) | (0, -1) | (0, 1) | (1, 0) | (1, 1)
        )
    };
    // Each harbor's hexes: land hexes touching its sea hex, ascending, that are one
    // hex H (the one across its pier edge) and those of the sea hex's land neighbours
    // that touch H (the piers' corners are shared with exactly these).
    for (p, h) in b.harbors.iter().enumerate() {
        let sea = HexRecord {
            n: 0,
            x: h.x,
            y: h.y,
            terrain: "sea",
            token: None,
        };
        let land: Vec<&HexRecord> = b.hexes.iter().filter(|c| touch(&sea, c)).collect();
        let fits = land.iter().any(|across| {
            let want: Vec<usize> = land
                .iter()
                .filter(|c| c.n == across.n || touch(across, c))
                .map(|c| c.n)
                .collect();
            want == h.hexes
        });
        if !fits || !h.hexes.windows(2).all(|w| w[0] < w[1]) {
            return check_failed(format!(
                "harbor {} lists hexes {:?}, not the land hexes at its piers",
                p + 1,
                h.hexes
            ));
        }
    }
    let pip = |h: &HexRecord| board::pips(h.token.unwrap_or(0));
    let hx = &b.hexes;
    for rule in rules.list() {
        let pairwise = |broken: &dyn Fn(&HexRecord, &HexRecord) -> bool| -> Result<()> {
            for (i, a) in hx.iter().enumerate() {
                for c in hx[i + 1..].iter().filter(|c| touch(a, c)) {
                    if broken(a, c) {
                        return check_failed(format!(
                            "hexes {} and {} break {}",
                            a.n,
                            c.n,
                            rule.name()
                        ));
                    }
                }
            }
            Ok(())
        };
        let red = |h: &HexRecord| matches!(h.token, Some(6) | Some(8));
        let extreme = |h: &HexRecord| matches!(h.token, Some(2) | Some(12));
        // Three mutually touching hexes: a corner where three land hexes meet.
        let triangles = || {
            let mut v = Vec::new();
            for (i, a) in hx.iter().enumerate() {
                for (j, c) in hx.iter().enumerate().skip(i + 1) {
                    for d in hx.iter().skip(j + 1) {
                        if touch(a, c) && touch(a, d) && touch(c, d) {
                            v.push([a, c, d]);
                        }
                    }
                }
            }
            v
        };
        // Per resource (terrain name, deserts left out): its hexes.
        let by_resource = || {
            let mut m: BTreeMap<&str, Vec<&HexRecord>> = BTreeMap::new();
            for h in hx.iter().filter(|h| h.terrain != "desert") {
                m.entry(h.terrain).or_default().push(h);
            }
            m
        };
        match rule {
            rules::Rule::RedApart => pairwise(&|a, c| red(a) && red(c))?,
            rules::Rule::TwoTwelveApart => pairwise(&|a, c| extreme(a) && extreme(c))?,
            rules::Rule::SameNumberApart => {
                pairwise(&|a, c| a.token.is_some() && a.token == c.token)?
            }
            rules::Rule::SameTerrainApart => pairwise(&|a, c| a.terrain == c.terrain)?,
            rules::Rule::MaxPipsPerCorner(n) => pairwise(&|a, c| {
                // A touching pair is a corner, or lies inside a triangle whose sum is larger.
                pip(a) + pip(c) > *n
                    || hx
                        .iter()
                        .any(|d| touch(a, d) && touch(c, d) && pip(a) + pip(c) + pip(d) > *n)
            })?,
            rules::Rule::MinPipsPerCorner(n) => {
                for t in triangles() {
                    let sum: u32 = t.iter().map(|h| pip(h)).sum();
                    if sum < *n {
                        return check_failed(format!(
                            "the corner of hexes {}, {} and {} has {sum} pips, below {}",
                            t[0].n,
                            t[1].n,
                            t[2].n,
                            rule.name()
                        ));
                    }
                }
            }
            rules::Rule::MaxCluster(n) => {
                // Flood fill over touching hexes of one land terrain.
                let mut seen = vec![false; hx.len()];
                for start in 0..hx.len() {
                    if seen[start] || hx[start].terrain == "desert" {
                        continue;
                    }
                    seen[start] = true;
                    let (mut stack, mut size) = (vec![start], 0u32);
                    while let Some(i) = stack.pop() {
                        size += 1;
                        for j in 0..hx.len() {
                            if !seen[j] && hx[j].terrain == hx[i].terrain && touch(&hx[i], &hx[j]) {
                                seen[j] = true;
                                stack.push(j);
                            }
                        }
                    }
                    if size > *n {
                        return check_failed(format!(
                            "hex {} is in a group of {size} {} hexes, more than {}",
                            hx[start].n,
                            hx[start].terrain,
                            rule.name()
                        ));
                    }
                }
            }
            rules::Rule::NumberResourceApart => {
                for (resource, hexes) in by_resource() {
                    let mut tokens: Vec<u8> = hexes.iter().filter_map(|h| h.token).collect();
                    tokens.sort_unstable();
                    let twice = tokens.windows(2).any(|w| w[0] == w[1]);
                    if twice || (tokens.contains(&6) && tokens.contains(&8)) {
                        return check_failed(format!(
                            "{resource} has numbers {tokens:?}, which break {}",
                            rule.name()
                        ));
                    }
                }
            }
            rules::Rule::ResourcePips(lo, hi) => {
                for (resource, hexes) in by_resource() {
                    let sum: u32 = hexes.iter().map(|h| pip(h)).sum();
                    if sum < *lo || sum > *hi {
                        return check_failed(format!(
                            "{resource} has {sum} pips, outside {}",
                            rule.name()
                        ));
                    }
                }
            }
            rules::Rule::HarborResourceApart => {
                for (p, h) in b.harbors.iter().enumerate() {
                    if let Some(c) = h
                        .hexes
                        .iter()
                        .find(|&&n| hx.iter().any(|c| c.n == n && c.terrain == h.kind))
                    {
                        return check_failed(format!(
                            "harbor {} ({}) touches hex {c}, a {} hex, against {}",
                            p + 1,
                            h.kind,
                            h.kind,
                            rule.name()
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
