//! How even a board is (`catan balance`): the pips of each resource, the pips around
//! corners, the largest group of one terrain, the 2:1 harbors next to their own
//! resource, and one score, lower = fairer. The measures are pure functions of a shape
//! and a layout; `read_board` turns one JSON record into them and [`run`] answers a
//! whole input, a record at a time. The measures and the score: docs/games/catan.md.

use super::board::{pips, BoardKind, Shape, DESERT, GENERIC, HARBOR_NAMES, TERRAIN_NAMES};
use super::board::{ROCK, TOKEN_VALUES};
use super::rules::Setup;
use ground::input::{self, Records};
use ground::limits::MAX_RECORD_BYTES;
use ground::{Error, Result};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};

/// Pips of each resource: the sum of the pips of its hexes' tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ResourcePips {
    /// Fields.
    pub wheat: u32,
    /// Forest.
    pub wood: u32,
    /// Pasture.
    pub sheep: u32,
    /// Hills.
    pub clay: u32,
    /// Mountains.
    pub rock: u32,
}

impl ResourcePips {
    /// The five totals in terrain-code order (wheat, wood, sheep, clay, rock).
    pub fn as_array(&self) -> [u32; 5] {
        [self.wheat, self.wood, self.sheep, self.clay, self.rock]
    }
}

/// Every measure of one board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Balance {
    /// Pips per resource.
    pub resource_pips: ResourcePips,
    /// The smallest sum of pips around a corner where three land hexes meet.
    pub corner_pips_min: u32,
    /// The largest sum of pips around a corner where three land hexes meet.
    pub corner_pips_max: u32,
    /// Hexes in the largest connected group of one terrain (deserts not counted).
    pub largest_cluster: usize,
    /// 2:1 harbors with a hex of their own resource at their piers.
    pub harbor_own_resource: usize,
    /// [`score`]: lower = fairer.
    pub score: f64,
}

/// Pips of the token on hex index `i` (0 on a desert).
fn hex_pips(layout: &Setup, i: usize) -> u32 {
    if layout.terrain[i] == DESERT {
        0
    } else {
        pips(layout.token[i])
    }
}

/// Pips per resource: for each of the five, the sum over its hexes.
pub(crate) fn resource_pips(shape: &Shape, layout: &Setup) -> ResourcePips {
    let mut t = [0u32; 5];
    for i in 0..shape.len() {
        let terrain = layout.terrain[i];
        if terrain <= ROCK {
            t[usize::from(terrain)] += hex_pips(layout, i);
        }
    }
    ResourcePips {
        wheat: t[0],
        wood: t[1],
        sheep: t[2],
        clay: t[3],
        rock: t[4],
    }
}

/// The smallest and largest pip sum over the corners where three land hexes meet.
pub(crate) fn corner_pips(shape: &Shape, layout: &Setup) -> (u32, u32) {
    let sums = shape
        .corners
        .iter()
        .filter(|c| c.len() == 3)
        .map(|c| c.iter().map(|&i| hex_pips(layout, usize::from(i))).sum());
    sums.fold((u32::MAX, 0), |(lo, hi), s: u32| (lo.min(s), hi.max(s)))
}

/// Hexes in the largest connected group of hexes of one terrain (neighbours by the
/// shape's adjacency; deserts are not a terrain here). 0 on an all-desert board.
pub(crate) fn largest_cluster(shape: &Shape, layout: &Setup) -> usize {
    let n = shape.len();
    let mut seen = 0u32;
    let mut best = 0;
    for start in 0..n {
        let t = layout.terrain[start];
        if t == DESERT || seen & (1 << start) != 0 {
            continue;
        }
        // Grow the group from `start` through neighbours of the same terrain.
        let mut group = 1u32 << start;
        let mut frontier = group;
        while frontier != 0 {
            let i = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let mut more = shape.neighbours[i] & !group;
            while more != 0 {
                let j = more.trailing_zeros() as usize;
                more &= more - 1;
                if layout.terrain[j] == t {
                    group |= 1 << j;
                    frontier |= 1 << j;
                }
            }
        }
        seen |= group;
        best = best.max(group.count_ones() as usize);
    }
    best
}

/// How many 2:1 harbors have a hex of their own resource among the land hexes at
/// their piers (`Shape::harbor_hexes`, kept as masks in [`Shape::harbor_reach`]).
pub(crate) fn harbor_own_resource(shape: &Shape, layout: &Setup) -> usize {
    (0..shape.harbors.len())
        .filter(|&p| {
            let kind = layout.harbor[p];
            let mut reach = shape.harbor_reach[p];
            let mut own = false;
            while reach != 0 && kind != GENERIC {
                own |= layout.terrain[reach.trailing_zeros() as usize] == kind - 1;
                reach &= reach - 1;
            }
            own
        })
        .count()
}

/// The balance score, lower = fairer: the standard deviation (population, over the
/// five resources) of each resource's pips per hex, its pip total divided by its
/// number of hexes (a resource with no hex counts as 0). 0 when every resource's hexes
/// are equally productive on average; a board that gives one resource all the good
/// numbers scores high.
pub fn score(shape: &Shape, layout: &Setup) -> f64 {
    let totals = resource_pips(shape, layout).as_array();
    let mut per_hex = [0f64; 5];
    for (r, slot) in per_hex.iter_mut().enumerate() {
        let hexes = (0..shape.len())
            .filter(|&i| usize::from(layout.terrain[i]) == r)
            .count();
        if hexes > 0 {
            *slot = f64::from(totals[r]) / hexes as f64;
        }
    }
    let mean = per_hex.iter().sum::<f64>() / 5.0;
    (per_hex.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 5.0).sqrt()
}

/// Every measure of a board.
pub fn measure(shape: &Shape, layout: &Setup) -> Balance {
    let (corner_pips_min, corner_pips_max) = corner_pips(shape, layout);
    Balance {
        resource_pips: resource_pips(shape, layout),
        corner_pips_min,
        corner_pips_max,
        largest_cluster: largest_cluster(shape, layout),
        harbor_own_resource: harbor_own_resource(shape, layout),
        score: score(shape, layout),
    }
}

/// One output line: the record's index and its measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct BalanceLine {
    /// The record's own `index` (as `generate` wrote it); for a record without one,
    /// its place among the input's records, from 0.
    pub index: u64,
    /// Its measures.
    #[serde(flatten)]
    pub balance: Balance,
}

#[derive(Deserialize)]
struct InHex {
    n: usize,
    x: i32,
    y: i32,
    terrain: String,
    token: Option<u8>,
}

#[derive(Deserialize)]
struct InHarbor {
    x: i32,
    y: i32,
    kind: String,
    #[serde(default)]
    hexes: Option<Vec<usize>>,
}

#[derive(Deserialize)]
struct GameOnly {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    index: Option<u64>,
}

#[derive(Deserialize)]
struct InBoard {
    board: String,
    hexes: Vec<InHex>,
    harbors: Vec<InHarbor>,
}

/// A Catan record (one JSON object, as `catan generate` writes) as its shape and
/// layout. Other fields are ignored; the hexes and harbors must be the board's own, in
/// order (numbers and coordinates), with known terrains, tokens (none on a desert) and
/// harbor kinds, and a harbor's `hexes`, when given, must be the ones at its piers.
/// The pieces must be the board kind's: its terrain hexes (deserts included), number
/// tokens and harbors, each as many times as the game has them; a board of 18 rock
/// hexes or 18 sixes is refused, never scored.
pub(crate) fn read_board(text: &str) -> Result<(&'static Shape, Setup)> {
    let b = parse_board(text)?;
    let shape = board_shape(&b)?;
    let mut layout = Setup::default();
    for (i, h) in b.hexes.iter().enumerate() {
        read_hex(shape, i, h, &mut layout)?;
    }
    for (p, h) in b.harbors.iter().enumerate() {
        read_harbor(shape, p, h, &mut layout)?;
    }
    check_pieces(shape, &layout)?;
    Ok((shape, layout))
}

/// How many of each value `values` holds, for values below `n`.
fn tally(values: impl Iterator<Item = u8>, n: usize) -> Vec<usize> {
    let mut t = vec![0; n];
    for v in values {
        if let Some(slot) = t.get_mut(usize::from(v)) {
            *slot += 1;
        }
    }
    t
}

/// Refuse a layout whose terrains, tokens or harbors are not the board kind's pieces,
/// naming every kind that differs ("the base board has 4 wheat, 3 rock hexes; the
/// record 0 wheat, 18 rock").
fn check_pieces(shape: &Shape, layout: &Setup) -> Result<()> {
    let n = shape.len();
    let h = shape.harbors.len();
    let mut want_terrain = tally(shape.terrains.iter().copied(), TERRAIN_NAMES.len());
    want_terrain[usize::from(DESERT)] = shape.deserts;
    let got_terrain = tally(layout.terrain[..n].iter().copied(), TERRAIN_NAMES.len());
    let want_token = tally(shape.tokens.iter().copied(), 13);
    let got_token = tally(layout.token[..n].iter().copied().filter(|&t| t > 0), 13);
    let token_names: Vec<String> = (0..13).map(|v| v.to_string()).collect();
    let token_names: Vec<&str> = token_names.iter().map(String::as_str).collect();
    let want_harbor = tally(shape.harbor_kinds.iter().copied(), HARBOR_NAMES.len());
    let got_harbor = tally(layout.harbor[..h].iter().copied(), HARBOR_NAMES.len());
    for (what, names, want, got) in [
        ("hexes", &TERRAIN_NAMES[..], want_terrain, got_terrain),
        ("number tokens", &token_names[..], want_token, got_token),
        ("harbors", &HARBOR_NAMES[..], want_harbor, got_harbor),
    ] {
        let differ: Vec<usize> = (0..names.len()).filter(|&k| want[k] != got[k]).collect();
        if differ.is_empty() {
            continue;
        }
        let list = |counts: &[usize]| {
            differ
                .iter()
                .map(|&k| format!("{} {}", counts[k], names[k]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(Error::invalid(format!(
            "the {} board has {} {what}; the record {}: not the game's pieces",
            shape.kind.name(),
            list(&want),
            list(&got)
        )));
    }
    Ok(())
}

/// The record's board, hexes and harbors as JSON; another game's record is refused.
fn parse_board(text: &str) -> Result<InBoard> {
    // serde's message without its "at line 1 column C": the line is the input's.
    let bad = |e: serde_json::Error| {
        let msg = e.to_string();
        let msg = msg
            .split(" at line ")
            .next()
            .unwrap_or_default()
            .to_string();
        Error::invalid(format!("not a Catan record: {msg} (column {})", e.column()))
    };
    // The game first, so another game's record is named as such.
    let game: GameOnly = serde_json::from_str(text).map_err(bad)?;
    if let Some(g) = &game.game {
        if g != "catan" {
            return Err(Error::invalid(format!(
                "a record of game {}, not catan",
                input::shown(g)
            )));
        }
    }
    serde_json::from_str(text).map_err(bad)
}

/// The shape the record names, which must have as many hexes and harbors as the record.
fn board_shape(b: &InBoard) -> Result<&'static Shape> {
    let kind: BoardKind = b.board.parse().map_err(|_| {
        Error::invalid(format!(
            "board {} is neither base nor extended",
            input::shown(&b.board)
        ))
    })?;
    let shape = kind.shape();
    if b.hexes.len() != shape.len() || b.harbors.len() != shape.harbors.len() {
        return Err(Error::invalid(format!(
            "the {} board has {} hexes and {} harbors, the record {} and {}",
            kind.name(),
            shape.len(),
            shape.harbors.len(),
            b.hexes.len(),
            b.harbors.len()
        )));
    }
    Ok(shape)
}

/// Hex `i` of the record into the layout: its number and coordinates must be the
/// shape's, its terrain known, and it has a token exactly when it is no desert.
fn read_hex(shape: &Shape, i: usize, h: &InHex, layout: &mut Setup) -> Result<()> {
    let (x, y) = shape.hexes[i];
    if h.n != i + 1 || (h.x, h.y) != (x, y) {
        return Err(Error::invalid(format!(
            "hex {} should be number {} at x {x}, y {y}, not number {} at x {}, y {}",
            i + 1,
            i + 1,
            h.n,
            h.x,
            h.y
        )));
    }
    let terrain = TERRAIN_NAMES
        .iter()
        .position(|&t| t == h.terrain)
        .ok_or_else(|| {
            Error::invalid(format!(
                "hex {}: unknown terrain {}",
                h.n,
                input::shown(&h.terrain)
            ))
        })?;
    match (terrain as u8 == DESERT, h.token) {
        (true, None) => {}
        (true, Some(_)) => {
            return Err(Error::invalid(format!(
                "hex {}: a desert has no token",
                h.n
            )))
        }
        (false, Some(t)) if TOKEN_VALUES.contains(&t) => layout.token[i] = t,
        (false, Some(t)) => {
            return Err(Error::invalid(format!(
                "hex {}: there is no token {t}",
                h.n
            )))
        }
        (false, None) => {
            return Err(Error::invalid(format!(
                "hex {}: a {} hex needs a token",
                h.n, h.terrain
            )))
        }
    }
    layout.terrain[i] = terrain as u8;
    Ok(())
}

/// Harbor `p` of the record into the layout: at the shape's sea hex, of a known
/// kind, and its `hexes`, when given, the ones at its piers.
fn read_harbor(shape: &Shape, p: usize, h: &InHarbor, layout: &mut Setup) -> Result<()> {
    let at = shape.harbors[p];
    if (h.x, h.y) != (at.x, at.y) {
        return Err(Error::invalid(format!(
            "harbor {} should be at x {}, y {}, not x {}, y {}",
            p + 1,
            at.x,
            at.y,
            h.x,
            h.y
        )));
    }
    let kind = HARBOR_NAMES
        .iter()
        .position(|&k| k == h.kind)
        .ok_or_else(|| {
            Error::invalid(format!(
                "harbor {}: unknown kind {}",
                p + 1,
                input::shown(&h.kind)
            ))
        })?;
    layout.harbor[p] = kind as u8;
    if let Some(given) = &h.hexes {
        let want: Vec<usize> = shape
            .harbor_hexes(p)
            .iter()
            .map(|&i| usize::from(i) + 1)
            .collect();
        if *given != want {
            return Err(Error::invalid(format!(
                "harbor {}: its piers touch hexes {want:?}, not {given:?}",
                p + 1
            )));
        }
    }
    Ok(())
}

/// Measure every record of `reader` (JSON Lines, blank lines skipped, each line at
/// most [`MAX_RECORD_BYTES`]; memory is one line whatever the input's length) and
/// write one JSON line per record to `out`, each as soon as it is measured. A bad
/// record stops the run with one error naming the input and its line. Returns how
/// many records were measured.
pub fn run(reader: Box<dyn BufRead + '_>, name: &str, out: &mut dyn Write) -> Result<usize> {
    let mut records = Records::lines(reader, name, MAX_RECORD_BYTES);
    let stdout_error = |e| Error::io("cannot write to", "standard output", e);
    let mut index = 0;
    while let Some(rec) = records.next_record()? {
        ground::interrupt::check()?;
        let (shape, layout) = read_board(&rec.text).map_err(|why| {
            let why = match why {
                Error::Invalid(m) => m,
                e => e.to_string(),
            };
            Error::invalid(format!("{name}: line {}: {why}", rec.line))
        })?;
        let own = serde_json::from_str::<GameOnly>(&rec.text)
            .ok()
            .and_then(|g| g.index);
        let line = BalanceLine {
            index: own.unwrap_or(index as u64),
            balance: measure(shape, &layout),
        };
        let mut text = serde_json::to_string(&line).expect("serialisable");
        text.push('\n');
        out.write_all(text.as_bytes()).map_err(stdout_error)?;
        index += 1;
    }
    out.flush().map_err(stdout_error)?;
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::super::board::{CLAY, SHEEP, WHEAT, WOOD};
    use super::*;

    /// A base layout from terrain and token lists in hex-number order (token 0 on the
    /// desert) and harbor kinds in position order.
    fn base(terrain: [u8; 19], token: [u8; 19], harbor: [u8; 9]) -> Setup {
        let mut s = Setup::default();
        s.terrain[..19].copy_from_slice(&terrain);
        s.token[..19].copy_from_slice(&token);
        s.harbor[..9].copy_from_slice(&harbor);
        s
    }

    const W: u8 = WHEAT;
    const F: u8 = WOOD;
    const S: u8 = SHEEP;
    const C: u8 = CLAY;
    const R: u8 = ROCK;
    const D: u8 = DESERT;

    /// Hexes 1-4 (the left column's top three and hex 4 below them) are wood, hex 12
    /// and hex 13 too: hex 1 (0,0) touches 2 (1,0), 12 (0,1), 13 (1,1); 2 touches 3
    /// (2,0); 3 touches 4 (3,1). So the wood group 1-2-3-4-12-13 has six hexes.
    fn hand_board() -> Setup {
        base(
            //1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
            [F, F, F, F, W, S, W, S, C, R, W, F, F, S, C, R, W, S, D],
            [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 3, 4, 5, 6, 8, 9, 10, 11, 0],
            [0, 2, 0, 1, 0, 3, 0, 4, 5],
        )
    }

    /// The hand-checked board with the base game's pieces (hexes 12 and 13 clay and
    /// rock instead of wood), for what reads records.
    fn real_board() -> Setup {
        let mut b = hand_board();
        b.terrain[11] = C;
        b.terrain[12] = R;
        b
    }

    #[test]
    fn a_hand_checked_board() {
        let shape = BoardKind::Base.shape();
        let b = hand_board();
        let m = measure(shape, &b);
        // Wood: hexes 1,2,3,4,12,13 with 2,3,4,5,4,5 -> 1+2+3+4+3+4 = 17.
        // Wheat: 5,7,11,17 with 6,9,3,10 -> 5+4+2+3 = 14. Sheep: 6,8,14,18 with
        // 8,10,6,11 -> 5+3+5+2 = 15. Clay: 9,15 with 11,8 -> 2+5 = 7. Rock: 10,16 with
        // 12,9 -> 1+4 = 5.
        assert_eq!(
            m.resource_pips,
            ResourcePips {
                wheat: 14,
                wood: 17,
                sheep: 15,
                clay: 7,
                rock: 5
            }
        );
        assert_eq!(m.largest_cluster, 6);
        // Corners of three land hexes: the smallest sum is 5, around 17-18-19 (10, 11,
        // desert: 3 + 2 + 0) and 10-11-18 (12, 3, 11: 1 + 2 + 2); the low hexes' other
        // corners (1-2-13: 7, 10-17-18: 6, 9-10-17: 6, ...) are larger.
        assert_eq!(m.corner_pips_min, 5);
        // The largest: hexes 6 (8: 5), 15 (8: 5) and 5 (6: 5) meet? 5 (4,2), 6 (4,3),
        // 15 (3,2) are mutually touching: 15 pips.
        assert_eq!(m.corner_pips_max, 15);
        // Harbor 2 (wood) touches hexes 2 and 3, wood: yes. Harbor 4 (wheat) touches
        // hex 5, wheat: yes. Harbor 6 (sheep) touches 7, 8: 8 is sheep: yes. Harbor 8
        // (clay) touches 10, 11: rock, wheat: no. Harbor 9 (rock) touches 11, 12: no.
        assert_eq!(m.harbor_own_resource, 3);
        // Pips per hex: wheat 14/4, wood 17/6, sheep 15/4, clay 7/2, rock 5/2.
        let v = [3.5, 17.0 / 6.0, 3.75, 3.5, 2.5];
        let mean = v.iter().sum::<f64>() / 5.0;
        let sd = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 5.0).sqrt();
        assert!((m.score - sd).abs() < 1e-12, "{} {sd}", m.score);
    }

    #[test]
    fn harbor_positions_of_the_hand_board() {
        let shape = BoardKind::Base.shape();
        let at = |p: usize| shape.harbor_hexes(p);
        assert_eq!(at(1), [1, 2]);
        assert_eq!(at(3), [4]);
        assert_eq!(at(5), [6, 7]);
        assert_eq!(at(7), [9, 10]);
        assert_eq!(at(8), [10, 11]);
    }

    #[test]
    fn an_even_board_scores_zero_and_a_lopsided_one_more() {
        let shape = BoardKind::Base.shape();
        // Every resource's hexes average the same pips: impossible with the real
        // tokens, so give every hex a 6 (5 pips) and the desert none.
        let mut even = hand_board();
        for i in 0..18 {
            even.token[i] = 6;
        }
        assert_eq!(score(shape, &even), 0.0);
        assert_eq!(corner_pips(shape, &even).1, 15);
        assert!(score(shape, &hand_board()) > 0.0);
    }

    #[test]
    fn records_are_read_back_and_bad_ones_refused() {
        let shape = BoardKind::Base.shape();
        let rec = super::super::to_record(shape, "none", "test", real_board(), 1);
        let text = serde_json::to_string(&rec).unwrap();
        let (s, layout) = read_board(&text).unwrap();
        assert_eq!(s.kind, BoardKind::Base);
        assert_eq!(layout, real_board());
        for (from, to, needle) in [
            ("\"board\":\"base\"", "\"board\":\"huge\"", "neither base"),
            (
                "\"terrain\":\"wood\"",
                "\"terrain\":\"lava\"",
                "unknown terrain",
            ),
            ("\"token\":2", "\"token\":7", "no token 7"),
            ("\"token\":null", "\"token\":5", "desert has no token"),
            ("\"hexes\":[2,3]", "\"hexes\":[2]", "touch hexes [2, 3]"),
            ("\"kind\":\"wood\"", "\"kind\":\"gold\"", "unknown kind"),
            ("\"n\":1,", "\"n\":9,", "should be number 1"),
            // Pieces the game does not have: a fifth clay hex, a third 3, a sixth 2:1.
            (
                "\"terrain\":\"wood\"",
                "\"terrain\":\"clay\"",
                "the base board has 4 wood, 3 clay hexes; the record 3 wood, 4 clay",
            ),
            (
                "\"token\":2",
                "\"token\":3",
                "has 1 2, 2 3 number tokens; the record 0 2, 3 3",
            ),
            (
                "\"kind\":\"3:1\"",
                "\"kind\":\"rock\"",
                "has 4 3:1, 1 rock harbors; the record 3 3:1, 2 rock",
            ),
        ] {
            assert!(text.contains(from), "{from}");
            let bad = text.replacen(from, to, 1);
            let e = read_board(&bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{to}: {e}");
        }
        assert!(read_board("{")
            .unwrap_err()
            .to_string()
            .contains("not a Catan record"));
        assert!(read_board("[1]").is_err());
    }

    #[test]
    fn run_names_the_line_of_a_bad_record() {
        let shape = BoardKind::Base.shape();
        let rec = super::super::to_record(shape, "none", "test", real_board(), 1);
        let good = serde_json::to_string(&rec).unwrap();
        let input = format!("{good}\n\n{good}\n");
        let mut out = Vec::new();
        let n = run(
            Box::new(std::io::Cursor::new(input.into_bytes())),
            "in",
            &mut out,
        )
        .unwrap();
        assert_eq!(n, 2);
        let text = String::from_utf8(out).unwrap();
        assert!(text
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("{\"index\":1,\"resource_pips\":{\"wheat\":14,"));
        let input = format!("{good}\n{{\"board\":\"base\"}}\n");
        let e = run(
            Box::new(std::io::Cursor::new(input.into_bytes())),
            "in",
            &mut Vec::new(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("in: line 2: not a Catan record"), "{e}");
    }
}
