//! A drawn board as recorded (JSON Lines), and the independent check of a record.

use super::board::{self, Shape, DESERT, HARBOR_NAMES, TERRAIN_NAMES};
use super::rules::{self, Rules, Setup};
use ground::{Error, Result};
use serde::Serialize;
use std::collections::BTreeMap;

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

/// A board as recorded.
pub(crate) fn to_record(
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

/// A failed check of a recorded board ([`Error::Check`]).
pub(crate) fn check_failed(why: impl Into<String>) -> Result<()> {
    Err(Error::Check(why.into()))
}

/// An independent check of a recorded board: the multisets, each harbor's `hexes` (land
/// hexes by coordinates around its sea hex), and every rule recomputed from the
/// coordinates (neighbours by coordinate differences, corners as triangles of
/// mutually touching hexes and as touching pairs), not from the shape's bitmasks.
pub fn verify_record(shape: &Shape, rules: &Rules, b: &CatanBoard) -> Result<()> {
    if b.hexes.len() != shape.len() || b.harbors.len() != shape.harbors.len() {
        return check_failed("wrong number of hexes or harbors");
    }
    check_multisets(shape, b)?;
    check_harbor_hexes(b)?;
    for rule in rules.list() {
        check_rule(rule, b)?;
    }
    Ok(())
}

/// How many times each name occurs.
fn multiset(it: impl Iterator<Item = String>) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for k in it {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

/// The record's terrains, tokens (one on each land hex, none on a desert) and harbor
/// kinds are the shape's multisets.
fn check_multisets(shape: &Shape, b: &CatanBoard) -> Result<()> {
    let want_terrain = multiset(
        shape
            .terrains
            .iter()
            .map(|&t| TERRAIN_NAMES[t as usize].to_string())
            .chain(std::iter::repeat_n("desert".to_string(), shape.deserts)),
    );
    let got_terrain = multiset(b.hexes.iter().map(|h| h.terrain.to_string()));
    if want_terrain != got_terrain {
        return check_failed(format!(
            "terrain multiset {got_terrain:?} should be {want_terrain:?}"
        ));
    }
    let want_tokens = multiset(shape.tokens.iter().map(|t| t.to_string()));
    let got_tokens = multiset(
        b.hexes
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
    let want_h = multiset(
        shape
            .harbor_kinds
            .iter()
            .map(|&k| HARBOR_NAMES[k as usize].to_string()),
    );
    let got_h = multiset(b.harbors.iter().map(|h| h.kind.to_string()));
    if want_h != got_h {
        return check_failed(format!("harbor kinds {got_h:?} should be {want_h:?}"));
    }
    Ok(())
}

/// Whether two hexes touch, by the difference of their coordinates.
fn touch(a: &HexRecord, c: &HexRecord) -> bool {
    matches!(
        (c.x - a.x, c.y - a.y),
        (-1, -1) | (-1, 0) | (0, -1) | (0, 1) | (1, 0) | (1, 1)
    )
}

/// Each harbor's hexes: land hexes touching its sea hex, ascending, that are one
/// hex H (the one across its pier edge) and those of the sea hex's land neighbours
/// that touch H (the piers' corners are shared with exactly these).
fn check_harbor_hexes(b: &CatanBoard) -> Result<()> {
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
    Ok(())
}

/// Pips of a hex's token (none on a desert).
fn pip(h: &HexRecord) -> u32 {
    board::pips(h.token.unwrap_or(0))
}

/// Whether a hex has a red number (6 or 8).
fn red(h: &HexRecord) -> bool {
    matches!(h.token, Some(6) | Some(8))
}

/// Whether a hex has a 2 or a 12.
fn extreme(h: &HexRecord) -> bool {
    matches!(h.token, Some(2) | Some(12))
}

/// One rule, recomputed from the record's coordinates.
fn check_rule(rule: &rules::Rule, b: &CatanBoard) -> Result<()> {
    let hx = &b.hexes;
    match rule {
        rules::Rule::RedApart => check_pairs(hx, rule, &|a, c| red(a) && red(c)),
        rules::Rule::TwoTwelveApart => check_pairs(hx, rule, &|a, c| extreme(a) && extreme(c)),
        rules::Rule::SameNumberApart => {
            check_pairs(hx, rule, &|a, c| a.token.is_some() && a.token == c.token)
        }
        rules::Rule::SameTerrainApart => check_pairs(hx, rule, &|a, c| a.terrain == c.terrain),
        rules::Rule::MaxPipsPerCorner(n) => check_pairs(hx, rule, &|a, c| {
            // A touching pair is a corner, or lies inside a triangle whose sum is larger.
            pip(a) + pip(c) > *n
                || hx
                    .iter()
                    .any(|d| touch(a, d) && touch(c, d) && pip(a) + pip(c) + pip(d) > *n)
        }),
        rules::Rule::MinPipsPerCorner(n) => check_corner_minimum(hx, *n, rule),
        rules::Rule::MaxCluster(n) => check_clusters(hx, *n, rule),
        rules::Rule::NumberResourceApart => check_numbers_per_resource(hx, rule),
        rules::Rule::ResourcePips(lo, hi) => check_resource_pips(hx, *lo, *hi, rule),
        rules::Rule::HarborResourceApart => check_harbor_resources(b, rule),
    }
}

/// No two touching hexes are `broken` together under `rule`.
fn check_pairs(
    hx: &[HexRecord],
    rule: &rules::Rule,
    broken: &dyn Fn(&HexRecord, &HexRecord) -> bool,
) -> Result<()> {
    for (i, a) in hx.iter().enumerate() {
        for c in hx[i + 1..].iter().filter(|c| touch(a, c)) {
            if broken(a, c) {
                return check_failed(format!("hexes {} and {} break {}", a.n, c.n, rule.name()));
            }
        }
    }
    Ok(())
}

/// Three mutually touching hexes: every corner where three land hexes meet.
fn triangles(hx: &[HexRecord]) -> Vec<[&HexRecord; 3]> {
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
}

/// Every corner of three land hexes carries at least `n` pips.
fn check_corner_minimum(hx: &[HexRecord], n: u32, rule: &rules::Rule) -> Result<()> {
    for t in triangles(hx) {
        let sum: u32 = t.iter().map(|h| pip(h)).sum();
        if sum < n {
            return check_failed(format!(
                "the corner of hexes {}, {} and {} has {sum} pips, below {}",
                t[0].n,
                t[1].n,
                t[2].n,
                rule.name()
            ));
        }
    }
    Ok(())
}

/// No group of touching hexes of one land terrain is larger than `n` (a flood fill).
fn check_clusters(hx: &[HexRecord], n: u32, rule: &rules::Rule) -> Result<()> {
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
        if size > n {
            return check_failed(format!(
                "hex {} is in a group of {size} {} hexes, more than {}",
                hx[start].n,
                hx[start].terrain,
                rule.name()
            ));
        }
    }
    Ok(())
}

/// Per resource (terrain name, deserts left out): its hexes.
fn by_resource(hx: &[HexRecord]) -> BTreeMap<&str, Vec<&HexRecord>> {
    let mut m: BTreeMap<&str, Vec<&HexRecord>> = BTreeMap::new();
    for h in hx.iter().filter(|h| h.terrain != "desert") {
        m.entry(h.terrain).or_default().push(h);
    }
    m
}

/// No resource has one number twice, or both a 6 and an 8.
fn check_numbers_per_resource(hx: &[HexRecord], rule: &rules::Rule) -> Result<()> {
    for (resource, hexes) in by_resource(hx) {
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
    Ok(())
}

/// Every resource's hexes carry between `lo` and `hi` pips.
fn check_resource_pips(hx: &[HexRecord], lo: u32, hi: u32, rule: &rules::Rule) -> Result<()> {
    for (resource, hexes) in by_resource(hx) {
        let sum: u32 = hexes.iter().map(|h| pip(h)).sum();
        if sum < lo || sum > hi {
            return check_failed(format!(
                "{resource} has {sum} pips, outside {}",
                rule.name()
            ));
        }
    }
    Ok(())
}

/// No 2:1 harbor touches a hex of its own resource.
fn check_harbor_resources(b: &CatanBoard, rule: &rules::Rule) -> Result<()> {
    let hx = &b.hexes;
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
    Ok(())
}
