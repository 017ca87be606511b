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
pub mod pilot;
pub mod report;
pub mod rules;
pub mod sampler;

use crate::canvas::{Canvas, Rect};
use crate::games::{Game, Outcome};
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
    /// Rules, comma-separated: red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N, or none
    #[arg(long, default_value_t = CatanParams::default().rules)]
    pub rules: String,
    /// How books draw the board.
    #[arg(skip = CatanParams::default().style)]
    pub style: Style,
}

impl Default for CatanParams {
    fn default() -> Self {
        CatanParams {
            board: BoardKind::Base,
            sampler: Sampler::FullRejection,
            rules: "red-apart".into(),
            style: Style::Colour,
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
}

impl Catan {
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
        to_record(
            self.shape(),
            &self.ctx.rules.to_string(),
            self.params.sampler.name(),
            layout,
            attempts,
        )
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
    feasible_rules(kind, rules)?;
    let ctx = table_context(kind, rules, sampler)?;
    pilot::check(&ctx, sampler)?;
    Ok(ctx)
}

/// Ok when some board of `kind` meets `rules` (decided exactly, once per rule set); the
/// board the search found must pass the independent check [`verify_record`].
pub fn feasible_rules(kind: BoardKind, rules: &Rules) -> Result<()> {
    feasible::require(kind, rules)?;
    let w = feasible::witness(kind, rules).expect("require found a board");
    let shape = kind.shape();
    let record = to_record(shape, &rules.to_string(), "search", w, 0);
    verify_record(shape, rules, &record).map_err(|why| {
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
        Err(e) if sampler == Sampler::Direct => {
            return Err(Error::invalid(format!(
                "the direct sampler cannot be used: {e}"
            )))
        }
        Err(_) => None,
    };
    Ok(sampler::Ctx::new(shape, rules.clone(), table))
}

impl Game for Catan {
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
        let ctx = context(params.board, &rules, params.sampler)?;
        Ok(Catan {
            params,
            ctx,
            gave_up: OnceLock::new(),
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
            .map_err(|e| crate::Error::Check(e.to_string()))
    }

    fn draw(&self, b: &CatanBoard, canvas: &mut Canvas, area: Rect, _with_solution: bool) {
        draw::board(
            canvas,
            area,
            self.params.board,
            &b.layout,
            self.params.style,
        );
    }

    fn aspect(&self) -> f32 {
        draw::aspect(self.params.board)
    }

    fn text(&self, b: &CatanBoard) -> String {
        ascii::render(self.shape(), &b.layout)
    }

    fn caption(&self, _b: &CatanBoard) -> String {
        format!(
            "For {} players. {}",
            players(self.params.board),
            rules_sentence(&self.ctx.rules)
        )
    }

    fn draw_example(&self, canvas: &mut Canvas, area: Rect) -> bool {
        draw::legend(canvas, area, self.params.style);
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
        for (i, a) in hx.iter().enumerate() {
            for c in hx[i + 1..].iter().filter(|c| touch(a, c)) {
                let broken = match rule {
                    rules::Rule::RedApart => {
                        matches!(a.token, Some(6) | Some(8)) && matches!(c.token, Some(6) | Some(8))
                    }
                    rules::Rule::TwoTwelveApart => {
                        matches!(a.token, Some(2) | Some(12))
                            && matches!(c.token, Some(2) | Some(12))
                    }
                    rules::Rule::SameNumberApart => a.token.is_some() && a.token == c.token,
                    rules::Rule::SameTerrainApart => a.terrain == c.terrain,
                    rules::Rule::MaxPipsPerCorner(n) => {
                        // A touching pair is a corner, or lies inside a triangle whose sum is larger.
                        pip(a) + pip(c) > *n
                            || hx.iter().any(|d| {
                                touch(a, d) && touch(c, d) && pip(a) + pip(c) + pip(d) > *n
                            })
                    }
                };
                if broken {
                    return check_failed(format!(
                        "hexes {} and {} break {}",
                        a.n,
                        c.n,
                        rule.name()
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
