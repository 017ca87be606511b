//! Tiles in the challenge encoding `[N, E, S, W, cities]` (0 field, 1 road, 2 city;
//! `cities` = separate city areas on the tile), the 19 distinct tiles, rotations, and
//! parsing a landscape with errors that name the row, column and edge.

use ground::input::shown;
use ground::{Error, Result};
use serde_json::Value;

/// Edge value: a field.
pub(crate) const FIELD: u8 = 0;
/// Edge value: a road.
pub(crate) const ROAD: u8 = 1;
/// Edge value: a city.
pub(crate) const CITY: u8 = 2;
/// The edges' names, in the encoding's order.
pub(crate) const EDGE_NAMES: [&str; 4] = ["north", "east", "south", "west"];

/// A tile in one orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    /// North, east, south and west edges: `FIELD`, `ROAD` or `CITY`.
    pub edges: [u8; 4],
    /// Separate city areas on the tile (0 to 2).
    pub cities: u8,
}

/// The 19 distinct tiles, ignoring rotation (the spec's list).
pub(crate) const DISTINCT: [[u8; 5]; 19] = [
    [1, 0, 1, 0, 0],
    [0, 0, 1, 1, 0],
    [2, 1, 1, 1, 1],
    [0, 1, 1, 1, 0],
    [2, 0, 0, 0, 1],
    [2, 2, 0, 2, 1],
    [0, 0, 0, 0, 0],
    [2, 2, 2, 2, 1],
    [2, 2, 0, 0, 1],
    [2, 1, 1, 2, 1],
    [2, 2, 0, 0, 2],
    [0, 0, 1, 0, 0],
    [2, 0, 1, 1, 1],
    [2, 1, 1, 0, 1],
    [0, 2, 0, 2, 1],
    [1, 1, 1, 1, 0],
    [2, 1, 0, 1, 1],
    [2, 2, 1, 2, 1],
    [2, 0, 2, 0, 2],
];

/// The base game's 72 tiles: (count, tile). The start tile is one of the four
/// `[2,1,0,1,1]`.
pub(crate) const BASE_SET: [(u8, [u8; 5]); 19] = [
    (4, [0, 0, 0, 0, 0]),
    (2, [0, 0, 1, 0, 0]),
    (4, [2, 1, 0, 1, 1]),
    (1, [2, 2, 2, 2, 1]),
    (3, [2, 2, 1, 2, 1]),
    (3, [0, 2, 0, 2, 1]),
    (5, [2, 0, 0, 2, 1]),
    (5, [2, 1, 1, 2, 1]),
    (4, [2, 2, 0, 2, 1]),
    (3, [2, 1, 1, 0, 1]),
    (3, [2, 1, 1, 1, 1]),
    (3, [2, 0, 1, 1, 1]),
    (5, [2, 0, 0, 0, 1]),
    (3, [2, 0, 2, 0, 2]),
    (2, [2, 0, 0, 2, 2]),
    (1, [1, 1, 1, 1, 0]),
    (4, [0, 1, 1, 1, 0]),
    (9, [0, 0, 1, 1, 0]),
    (8, [0, 1, 0, 1, 0]),
];

/// The start tile in the challenge encoding.
pub(crate) const START: [u8; 5] = [2, 1, 0, 1, 1];

impl Tile {
    /// A tile from the challenge encoding `[N, E, S, W, cities]`.
    pub(crate) fn from_array(a: [u8; 5]) -> Tile {
        Tile {
            edges: [a[0], a[1], a[2], a[3]],
            cities: a[4],
        }
    }

    /// The tile in the challenge encoding `[N, E, S, W, cities]`.
    pub(crate) fn to_array(self) -> [u8; 5] {
        let e = self.edges;
        [e[0], e[1], e[2], e[3], self.cities]
    }

    /// Turned clockwise by `k` quarter turns: the north edge goes east.
    pub(crate) fn rotated(self, k: usize) -> Tile {
        let mut edges = [0; 4];
        for (d, e) in edges.iter_mut().enumerate() {
            *e = self.edges[(d + 4 - k % 4) % 4];
        }
        Tile {
            edges,
            cities: self.cities,
        }
    }

    /// Mirrored east-west.
    pub fn mirrored(self) -> Tile {
        let e = self.edges;
        Tile {
            edges: [e[0], e[3], e[2], e[1]],
            cities: self.cities,
        }
    }

    /// Whether this is one of the 19 tiles in some rotation.
    pub(crate) fn is_known(self) -> bool {
        (0..4).any(|k| {
            DISTINCT
                .iter()
                .any(|&d| Tile::from_array(d) == self.rotated(k))
        })
    }

    /// How many edges have `value`.
    pub fn count(self, value: u8) -> usize {
        self.edges.iter().filter(|&&e| e == value).count()
    }

    /// Whether the tile is a monastery: no city edge and at most one road.
    pub(crate) fn is_monastery(self) -> bool {
        self.count(CITY) == 0 && self.count(ROAD) <= 1
    }

    /// The distinct orientations of the tile (1, 2 or 4).
    pub(crate) fn orientations(self) -> Vec<Tile> {
        let mut v: Vec<Tile> = (0..4).map(|k| self.rotated(k)).collect();
        v.sort();
        v.dedup();
        v
    }
}

/// A landscape: rows of squares, `None` for an empty square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landscape {
    /// Rows of squares.
    pub rows: usize,
    /// Columns of squares.
    pub cols: usize,
    /// The squares in reading order, `None` for an empty one.
    pub squares: Vec<Option<Tile>>,
    /// The full game's shields, one flag per square (empty: no shields). Only a tile
    /// whose city edges form one city can carry one; the challenge encoding cannot show
    /// them, so they come as a separate list in the record (see `from_record`).
    pub shields: Vec<bool>,
}

impl Landscape {
    /// The tile at (r, c); None for an empty square or one off the landscape.
    pub fn get(&self, r: isize, c: isize) -> Option<Tile> {
        if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
            None
        } else {
            self.squares[r as usize * self.cols + c as usize]
        }
    }

    /// Whether square `sq` (reading order) carries a shield.
    pub(crate) fn has_shield(&self, sq: usize) -> bool {
        self.shields.get(sq).copied().unwrap_or(false)
    }

    /// The shielded squares as 0-based `[row, column]` pairs, in reading order.
    pub fn shield_list(&self) -> Vec<[usize; 2]> {
        (0..self.squares.len())
            .filter(|&sq| self.has_shield(sq))
            .map(|sq| [sq / self.cols, sq % self.cols])
            .collect()
    }

    /// Tiles on the landscape.
    pub fn tiles(&self) -> usize {
        self.squares.iter().filter(|s| s.is_some()).count()
    }

    /// The challenge encoding.
    pub fn to_json(&self) -> Value {
        Value::Array(
            self.squares
                .chunks(self.cols)
                .map(|row| {
                    Value::Array(
                        row.iter()
                            .map(|s| match s {
                                None => Value::Array(vec![]),
                                Some(t) => serde_json::json!(t.to_array()),
                            })
                            .collect(),
                    )
                })
                .collect(),
        )
    }

    /// Check that touching edges agree; the first disagreement, named.
    pub(crate) fn check_consistent(&self) -> Result<()> {
        for r in 0..self.rows {
            for c in 0..self.cols {
                let Some(t) = self.squares[r * self.cols + c] else {
                    continue;
                };
                // East and south neighbours.
                for (dir, dr, dc) in [(1usize, 0isize, 1isize), (2, 1, 0)] {
                    if let Some(u) = self.get(r as isize + dr, c as isize + dc) {
                        let (a, b) = (t.edges[dir], u.edges[(dir + 2) % 4]);
                        if a != b {
                            return Err(Error::invalid(format!(
                                "inconsistent landscape: {} {} edge is {} but {} {} edge is {}",
                                at(r, c),
                                EDGE_NAMES[dir],
                                edge_word(a),
                                at(r + dr as usize, c + dc as usize),
                                EDGE_NAMES[(dir + 2) % 4],
                                edge_word(b)
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// A square named for people (1-based) and for programs (0-based JSON indices).
pub fn at(r: usize, c: usize) -> String {
    format!("row {}, column {} ([{r}][{c}])", r + 1, c + 1)
}

/// An edge value for people: "a road (1)".
pub(crate) fn edge_word(v: u8) -> &'static str {
    match v {
        FIELD => "a field (0)",
        ROAD => "a road (1)",
        _ => "a city (2)",
    }
}

/// Parse and validate a landscape from JSON text.
pub fn parse(text: &str) -> Result<Landscape> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| Error::invalid(format!("malformed JSON: {e}")))?;
    from_value(&v)
}

/// A JSON value from the input, for an error message (cut like [`shown`]).
fn shown_value(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() <= 20 {
        text
    } else {
        shown(&text)
    }
}

/// The keys a record object may have: the landscape and its shields (read); what
/// `carcassonne generate` writes beside them, and what the published test cases
/// (`tests/cases/carcassonne_public.jsonl`) carry (both read past). Any other key is
/// refused, so that a misspelt one (`"sheilds"`) is not silently ignored.
pub(crate) const RECORD_KEYS: [&str; 14] = [
    "landscape",
    "shields",
    // carcassonne generate
    "game",
    "index",
    "seed",
    "tiles",
    "discarded",
    "score",
    "breakdown",
    "breakdown_text",
    // the published cases
    "case",
    "published_score",
    "valid",
    "why",
];

/// One record (see [`from_record`]) from JSON text. Unlike a parse to a
/// `serde_json::Value`, which keeps the last of two equal keys, a key that appears twice
/// in an object (at any depth) is refused, named.
pub fn parse_record(text: &str) -> Result<Landscape> {
    from_record(&read_json(text).map_err(json_error)?)
}

fn json_error(e: serde_json::Error) -> Error {
    if e.is_data() {
        Error::invalid(e.to_string()) // ours: a key twice (serde_json adds where)
    } else {
        Error::invalid(format!("malformed JSON: {e}"))
    }
}

/// One whole JSON document as a `Value`, refusing a key twice in any object.
fn read_json(text: &str) -> serde_json::Result<Value> {
    use serde::de::Deserializer as _;
    let mut de = serde_json::Deserializer::from_str(text);
    let v = de.deserialize_any(NoDuplicateKeys)?;
    de.end()?;
    Ok(v)
}

/// Builds a `Value` like its own `Deserialize` does, but sees every key of an object,
/// so it can refuse one that comes twice. (Depth is bounded by serde_json's recursion
/// limit.)
struct NoDuplicateKeys;

impl<'de> serde::de::DeserializeSeed<'de> for NoDuplicateKeys {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(NoDuplicateKeys)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut obj = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if obj.contains_key(&key) {
                return Err(serde::de::Error::custom(format!(
                    "the key {} appears twice in one object",
                    shown(&key)
                )));
            }
            let v = map.next_value_seed(NoDuplicateKeys)?;
            obj.insert(key, v);
        }
        Ok(Value::Object(obj))
    }
}

/// A landscape from the challenge encoding, checked (errors name row, column and edge).
pub fn from_value(v: &Value) -> Result<Landscape> {
    let rows = v
        .as_array()
        .ok_or_else(|| Error::invalid("a landscape is a JSON array of rows"))?;
    if rows.is_empty() {
        return Err(Error::invalid("the landscape has no rows"));
    }
    let mut squares = Vec::new();
    let mut cols = None;
    for (r, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| Error::invalid(format!("row {} is not an array of squares", r + 1)))?;
        match cols {
            None => cols = Some(row.len()),
            Some(n) if n != row.len() => {
                return Err(Error::invalid(format!(
                    "ragged landscape: row {} has {} squares but row 1 has {n}",
                    r + 1,
                    row.len()
                )))
            }
            _ => {}
        }
        for (c, sq) in row.iter().enumerate() {
            let at = at(r, c);
            let sq = sq.as_array().ok_or_else(|| {
                Error::invalid(format!("{at}: a square is [] or [N, E, S, W, cities]"))
            })?;
            if sq.is_empty() {
                squares.push(None);
                continue;
            }
            if sq.len() != 5 {
                return Err(Error::invalid(format!(
                    "{at}: a tile has 5 numbers [N, E, S, W, cities], this one has {}",
                    sq.len()
                )));
            }
            let mut a = [0u8; 5];
            for (k, x) in sq.iter().enumerate() {
                let n = x.as_u64().filter(|&n| n <= 2).ok_or_else(|| {
                    let x = shown_value(x);
                    Error::invalid(if k < 4 {
                        format!(
                            "{at}: the {} edge is {x}; edges are 0 (field), 1 (road) or 2 (city)",
                            EDGE_NAMES[k]
                        )
                    } else {
                        format!("{at}: the city count is {x}; it is 0, 1 or 2")
                    })
                })?;
                a[k] = n as u8;
            }
            let t = Tile::from_array(a);
            if !t.is_known() {
                let why = if t.count(CITY) > 0 && t.cities == 0 {
                    " (a city edge but 0 cities)"
                } else if t.count(CITY) == 0 && t.cities > 0 {
                    " (no city edge but a city)"
                } else {
                    ""
                };
                return Err(Error::invalid(format!(
                    "{at}: {a:?} is not one of the 19 tiles in any rotation{why}"
                )));
            }
            squares.push(Some(t));
        }
    }
    let cols = cols.unwrap_or(0);
    let l = Landscape {
        rows: rows.len(),
        cols,
        squares,
        shields: Vec::new(),
    };
    if l.tiles() == 0 {
        return Err(Error::invalid("the landscape has no tile"));
    }
    l.check_consistent()?;
    Ok(l)
}

/// A landscape from a record: either the bare challenge array, or an object with a
/// `landscape` array and, optionally, `shields`: a list of 0-based `[row, column]`
/// squares whose tile carries a shield (the full game's option; the encoding itself has
/// no way to mark one). The other keys a generated record has (its score, seed...,
/// see `RECORD_KEYS`) are read past; any other key is an error that names it. (A
/// key given twice cannot be seen in a `Value`: read text with [`parse_record`].)
pub fn from_record(v: &Value) -> Result<Landscape> {
    let Some(obj) = v.as_object() else {
        return from_value(v);
    };
    if let Some(key) = obj.keys().find(|k| !RECORD_KEYS.contains(&k.as_str())) {
        return Err(Error::invalid(format!(
            "unknown key {} in the record: a record has \"landscape\", optionally \"shields\", \
             and the other keys of a `carcassonne generate` record or a published case",
            shown(key)
        )));
    }
    let mut l = from_value(
        obj.get("landscape")
            .ok_or_else(|| Error::invalid("a record object needs a \"landscape\" array"))?,
    )?;
    let Some(list) = obj.get("shields") else {
        return Ok(l);
    };
    let list = list.as_array().ok_or_else(|| {
        Error::invalid("\"shields\" is a list of [row, column] squares (0-based)")
    })?;
    l.shields = vec![false; l.squares.len()];
    for item in list {
        let rc: Vec<u64> = item
            .as_array()
            .filter(|a| a.len() == 2)
            .and_then(|a| a.iter().map(|x| x.as_u64()).collect())
            .ok_or_else(|| {
                Error::invalid(format!(
                    "shield {} is not a [row, column] pair (0-based)",
                    shown_value(item)
                ))
            })?;
        let (r, c) = (rc[0] as usize, rc[1] as usize);
        if r >= l.rows || c >= l.cols {
            return Err(Error::invalid(format!(
                "shield [{r}, {c}] is outside the {}x{} landscape",
                l.rows, l.cols
            )));
        }
        let sq = r * l.cols + c;
        match l.squares[sq] {
            None => {
                return Err(Error::invalid(format!(
                    "shield at {}: the square is empty",
                    at(r, c)
                )))
            }
            Some(t) if t.count(CITY) == 0 || t.cities != 1 => {
                return Err(Error::invalid(format!(
                    "shield at {}: {:?} has no single city to carry it",
                    at(r, c),
                    t.to_array()
                )))
            }
            Some(_) if l.shields[sq] => {
                return Err(Error::invalid(format!(
                    "shield at {} is listed twice",
                    at(r, c)
                )))
            }
            Some(_) => l.shields[sq] = true,
        }
    }
    Ok(l)
}
