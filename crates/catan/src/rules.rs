//! Placement rules. A board is valid when it meets every chosen rule.

use super::board::{is_extreme, is_red, pips, Shape, DESERT, GENERIC, MAX_HARBOR, MAX_HEX};

/// A full board: terrain and token per hex (index = hex number - 1), harbor kind per
/// frame position. Token 0 means none (the desert).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// Terrain code per hex index; `DESERT` past the board's hexes.
    pub terrain: [u8; MAX_HEX],
    /// Token value per hex index; 0 for a desert and past the board's hexes.
    pub token: [u8; MAX_HEX],
    /// Harbor kind per frame position (0 = 3:1, 1 + terrain code = 2:1).
    pub harbor: [u8; MAX_HARBOR],
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            terrain: [DESERT; MAX_HEX],
            token: [0; MAX_HEX],
            harbor: [0; MAX_HARBOR],
        }
    }
}

/// One placement rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// No two red numbers (6, 8) on neighbouring hexes.
    RedApart,
    /// No two of the 2 and 12 tokens on neighbouring hexes.
    TwoTwelveApart,
    /// No two equal numbers on neighbouring hexes.
    SameNumberApart,
    /// No two equal terrains on neighbouring hexes (deserts included).
    SameTerrainApart,
    /// At every corner, the pips of the hexes meeting there add up to at most N.
    MaxPipsPerCorner(u32),
    /// At every corner where three land hexes meet, their pips add up to at least N
    /// (a desert brings 0).
    MinPipsPerCorner(u32),
    /// No connected group of one land terrain (hexes touching along edges) has more
    /// than N hexes; deserts are not counted.
    MaxCluster(u32),
    /// No resource carries one number twice, and no resource has both a 6 and an 8.
    NumberResourceApart,
    /// Each resource's pips (over its hexes) add up to between A and B.
    ResourcePips(u32, u32),
    /// No land hex at a 2:1 harbor's piers produces that harbor's resource.
    HarborResourceApart,
}

impl Rule {
    /// The rule as written in parameters (`red-apart`, `max-pips-per-corner=12`, ...).
    pub fn name(&self) -> String {
        match self {
            Rule::RedApart => "red-apart".into(),
            Rule::TwoTwelveApart => "2-12-apart".into(),
            Rule::SameNumberApart => "same-number-apart".into(),
            Rule::SameTerrainApart => "same-terrain-apart".into(),
            Rule::MaxPipsPerCorner(n) => format!("max-pips-per-corner={n}"),
            Rule::MinPipsPerCorner(n) => format!("min-pips-per-corner={n}"),
            Rule::MaxCluster(n) => format!("max-cluster={n}"),
            Rule::NumberResourceApart => "number-resource-apart".into(),
            Rule::ResourcePips(a, b) => format!("resource-pips={a}-{b}"),
            Rule::HarborResourceApart => "harbor-resource-apart".into(),
        }
    }

    /// Rules the exhaustive feasibility search decides (see `feasible`); the others
    /// are decided by necessary conditions and a search for a board (see `witness`).
    pub(crate) fn is_searched_exactly(&self) -> bool {
        matches!(
            self,
            Rule::RedApart
                | Rule::TwoTwelveApart
                | Rule::SameNumberApart
                | Rule::SameTerrainApart
                | Rule::MaxPipsPerCorner(_)
        )
    }

    /// Whether the rule looks at the tokens (and the deserts) alone.
    pub(crate) fn tokens_only(&self) -> bool {
        matches!(
            self,
            Rule::RedApart
                | Rule::TwoTwelveApart
                | Rule::SameNumberApart
                | Rule::MaxPipsPerCorner(_)
                | Rule::MinPipsPerCorner(_)
        )
    }

    /// Whether the rule looks at the harbors.
    pub(crate) fn needs_harbors(&self) -> bool {
        matches!(self, Rule::HarborResourceApart)
    }

    /// The class of tokens an apart rule keeps off neighbouring hexes (`red-apart`:
    /// the 6s and 8s; `2-12-apart`: the 2s and 12s); None for other rules. The one
    /// statement of these two rules: the clash of two tokens, the offender masks, the
    /// samplers' stages and the feasibility search's pip levels all come from it.
    #[inline]
    pub(crate) fn token_class(&self) -> Option<fn(u8) -> bool> {
        match self {
            Rule::RedApart => Some(is_red),
            Rule::TwoTwelveApart => Some(is_extreme),
            _ => None,
        }
    }

    /// Whether two neighbouring hexes carrying tokens `x` and `y` break the rule (0 is
    /// no token and never clashes); false for rules that do not judge neighbouring
    /// tokens.
    #[inline]
    pub(crate) fn tokens_clash(&self, x: u8, y: u8) -> bool {
        match self {
            Rule::SameNumberApart => x != 0 && x == y,
            r => r.token_class().is_some_and(|c| c(x) && c(y)),
        }
    }

    /// Whether two neighbouring hexes of terrains `s` and `t` break the rule:
    /// `same-terrain-apart` (deserts included) and `max-cluster=1` (land only); false
    /// for rules that do not judge neighbouring terrains.
    #[inline]
    pub(crate) fn terrains_clash(&self, s: u8, t: u8) -> bool {
        match self {
            Rule::SameTerrainApart => s == t,
            Rule::MaxCluster(1) => s == t && s != DESERT,
            _ => false,
        }
    }

    /// Whether two hexes of one resource carrying tokens `x` and `y` break
    /// `number-resource-apart` (one number twice, or a 6 and an 8).
    #[inline]
    pub(crate) fn numbers_clash_on_resource(x: u8, y: u8) -> bool {
        x == y || (is_red(x) && is_red(y))
    }

    /// Rules that depend only on where the deserts, the reds and the 2s and 12s are:
    /// exact expectations come from enumerating those placements.
    pub(crate) fn is_placement_rule(&self) -> bool {
        matches!(self, Rule::RedApart | Rule::TwoTwelveApart)
    }
}

/// The chosen rules, sorted and without repeats.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rules(Vec<Rule>);

impl Default for Rules {
    fn default() -> Self {
        Rules(vec![Rule::RedApart])
    }
}

impl std::str::FromStr for Rules {
    type Err = ground::Error;
    /// "red-apart,2-12-apart,max-pips-per-corner=12", or "none"; a bad rule is an
    /// error about the parameter `rules`.
    fn from_str(s: &str) -> ground::Result<Self> {
        let mut rules = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if part == "none" {
                continue;
            }
            rules.push(parse_rule(part)?);
        }
        rules.sort();
        rules.dedup();
        for w in rules.windows(2) {
            if std::mem::discriminant(&w[0]) == std::mem::discriminant(&w[1]) {
                return Err(bad(format!(
                    "has both {} and {}: give each rule once",
                    w[0].name(),
                    w[1].name()
                )));
            }
        }
        Ok(Rules(rules))
    }
}

/// Every rule as parameters write it: its name and the value it takes ("" for none,
/// "N" a whole number, "A-B" a range). The parser knows a rule by this table, and
/// the help and the errors list it, so all three name the same rules.
pub(crate) const RULE_FORMS: [(&str, &str); 10] = [
    ("red-apart", ""),
    ("2-12-apart", ""),
    ("same-number-apart", ""),
    ("same-terrain-apart", ""),
    ("max-pips-per-corner", "N"),
    ("min-pips-per-corner", "N"),
    ("max-cluster", "N"),
    ("number-resource-apart", ""),
    ("resource-pips", "A-B"),
    ("harbor-resource-apart", ""),
];

/// Every rule's written form, "red-apart, ..., max-cluster=N, ... or none".
pub(crate) fn rule_list() -> String {
    let forms: Vec<String> = RULE_FORMS
        .iter()
        .map(|(name, value)| match *value {
            "" => name.to_string(),
            v => format!("{name}={v}"),
        })
        .collect();
    format!("{} or none", forms.join(", "))
}

/// The help of a `--rules` flag (and `rules` key), from `RULE_FORMS`.
pub fn rules_help() -> String {
    format!("Rules, comma-separated: {}", rule_list())
}

/// An error about the parameter `rules`.
fn bad(msg: String) -> ground::Error {
    ground::Error::param("rules", msg)
}

/// The whole number after `name=` in rule `p`.
fn number(p: &str, name: &str, what: &str) -> ground::Result<u32> {
    p[name.len() + 1..].parse().map_err(|_| {
        bad(format!(
            "has rule '{p}', whose {what} must be a whole number from 0 to 4294967295"
        ))
    })
}

/// One rule from its written form.
fn parse_rule(p: &str) -> ground::Result<Rule> {
    let (name, has_value) = match p.split_once('=') {
        Some((n, _)) => (n, true),
        None => (p, false),
    };
    let Some(&(_, form)) = RULE_FORMS.iter().find(|(known, _)| *known == name) else {
        return Err(bad(format!(
            "has an unknown rule '{p}'{}: use {}",
            ground::input::suggestion(name, RULE_FORMS.iter().map(|(n, _)| *n)),
            rule_list()
        )));
    };
    let needs_value = !form.is_empty();
    if needs_value && !has_value {
        return Err(bad(format!(
            "has rule '{p}' without its limit: write {name}={form}"
        )));
    }
    let rule = match (name, has_value) {
        ("red-apart", false) => Rule::RedApart,
        ("2-12-apart", false) => Rule::TwoTwelveApart,
        ("same-number-apart", false) => Rule::SameNumberApart,
        ("same-terrain-apart", false) => Rule::SameTerrainApart,
        ("number-resource-apart", false) => Rule::NumberResourceApart,
        ("harbor-resource-apart", false) => Rule::HarborResourceApart,
        ("max-pips-per-corner", true) => {
            let n = number(p, name, "N")?;
            if n < 5 {
                return Err(bad(format!("has rule '{p}', which cannot be met by any board: a 6 or an 8 alone brings 5 pips to each of its corners")));
            }
            Rule::MaxPipsPerCorner(n)
        }
        ("min-pips-per-corner", true) => {
            let n = number(p, name, "N")?;
            if n > 15 {
                return Err(bad(format!("has rule '{p}', which cannot be met by any board: three tokens bring at most 15 pips to a corner")));
            }
            Rule::MinPipsPerCorner(n)
        }
        ("max-cluster", true) => {
            let n = number(p, name, "N")?;
            if n == 0 {
                return Err(bad(format!("has rule '{p}', which cannot be met by any board: a hex alone is a group of 1, so N must be at least 1")));
            }
            Rule::MaxCluster(n)
        }
        ("resource-pips", true) => {
            let range = &p[name.len() + 1..];
            let parsed = range
                .split_once('-')
                .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
            let Some((a, b)) = parsed else {
                return Err(bad(format!(
                    "has rule '{p}', whose range must be two whole numbers A-B (e.g. resource-pips=6-16)"
                )));
            };
            if a > b {
                return Err(bad(format!(
                    "has rule '{p}', whose range is empty: A must not be above B"
                )));
            }
            Rule::ResourcePips(a, b)
        }
        (n, true) if !needs_value => {
            return Err(bad(format!("has rule '{p}', but {n} takes no value")))
        }
        // Every name of the table has its arm above (a test checks it).
        _ => {
            return Err(bad(format!(
                "has an unknown rule '{p}': use {}",
                rule_list()
            )))
        }
    };
    Ok(rule)
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<String> = self.0.iter().map(Rule::name).collect();
        f.write_str(&names.join(","))
    }
}

/// True when no two hexes of `mask` are neighbours.
#[inline]
pub(crate) fn independent(shape: &Shape, mut mask: u32) -> bool {
    let all = mask;
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        if shape.neighbours[i] & all != 0 {
            return false;
        }
        mask &= mask - 1;
    }
    true
}

impl Rules {
    /// The rules, sorted and without duplicates.
    pub fn list(&self) -> &[Rule] {
        &self.0
    }

    /// Whether `r` is one of these rules.
    pub fn has(&self, r: Rule) -> bool {
        self.0.contains(&r)
    }

    /// These rules without `r`.
    pub fn without(&self, r: Rule) -> Rules {
        Rules(self.0.iter().copied().filter(|&x| x != r).collect())
    }

    /// These rules with `max-pips-per-corner=n` instead of any other corner limit.
    pub(crate) fn with_max_pips(&self, n: u32) -> Rules {
        let mut v: Vec<Rule> = self
            .0
            .iter()
            .copied()
            .filter(|r| !matches!(r, Rule::MaxPipsPerCorner(_)))
            .collect();
        v.push(Rule::MaxPipsPerCorner(n));
        v.sort();
        Rules(v)
    }

    /// The corner limit N of `max-pips-per-corner=N`, if the rules have one.
    pub(crate) fn max_pips(&self) -> Option<u32> {
        self.0.iter().find_map(|r| match r {
            Rule::MaxPipsPerCorner(n) => Some(*n),
            _ => None,
        })
    }

    /// Whether reds must be apart.
    pub(crate) fn red_apart(&self) -> bool {
        self.has(Rule::RedApart)
    }

    /// Whether 2s and 12s must be apart.
    pub(crate) fn two_twelve_apart(&self) -> bool {
        self.has(Rule::TwoTwelveApart)
    }

    /// Every rule depends only on the desert, red and 2/12 placement.
    pub(crate) fn placement_only(&self) -> bool {
        self.0.iter().all(Rule::is_placement_rule)
    }

    /// The rules that the placement stage does not check.
    pub(crate) fn late(&self) -> impl Iterator<Item = &Rule> {
        self.0.iter().filter(|r| !r.is_placement_rule())
    }

    /// Check every rule on a full board.
    pub fn check(&self, shape: &Shape, b: &Setup) -> bool {
        self.0.iter().all(|r| holds(shape, b, *r))
    }

    /// Check only the rules the placement stage does not.
    pub(crate) fn check_late(&self, shape: &Shape, b: &Setup) -> bool {
        self.late().all(|r| holds(shape, b, *r))
    }

    /// Whether some rule looks at the harbors (samplers then draw the harbors before
    /// checking the board).
    pub(crate) fn needs_harbors(&self) -> bool {
        self.0.iter().any(Rule::needs_harbors)
    }

    /// The rules the exhaustive feasibility search decides.
    pub(crate) fn searched_exactly(&self) -> Rules {
        Rules(
            self.0
                .iter()
                .copied()
                .filter(Rule::is_searched_exactly)
                .collect(),
        )
    }

    /// The placement rules alone (`red-apart`, `2-12-apart`): what the placement
    /// table is enumerated for.
    pub fn placement(&self) -> Rules {
        Rules(
            self.0
                .iter()
                .copied()
                .filter(Rule::is_placement_rule)
                .collect(),
        )
    }

    /// Hexes that break some rule: (token offenders, terrain offenders) as bitmasks.
    pub(crate) fn offenders(&self, shape: &Shape, b: &Setup) -> (u32, u32) {
        self.0.iter().fold((0, 0), |(t, g), r| {
            let (t2, g2) = offenders(shape, b, *r);
            (t | t2, g | g2)
        })
    }
}

/// The hexes of each land terrain, as bitmasks (index = terrain code).
fn terrain_masks(shape: &Shape, b: &Setup) -> [u32; DESERT as usize] {
    let mut m = [0u32; DESERT as usize];
    for i in 0..shape.len() {
        if let Some(x) = m.get_mut(usize::from(b.terrain[i])) {
            *x |= 1 << i;
        }
    }
    m
}

/// The connected groups (along edges) of the hexes in `mask`, as bitmasks.
pub fn groups(shape: &Shape, mut mask: u32) -> impl Iterator<Item = u32> + '_ {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let mut group = mask & mask.wrapping_neg();
        loop {
            let mut grown = group;
            let mut m = group;
            while m != 0 {
                grown |= shape.neighbours[m.trailing_zeros() as usize] & mask;
                m &= m - 1;
            }
            if grown == group {
                break;
            }
            group = grown;
        }
        mask &= !group;
        Some(group)
    })
}

/// Pips per land terrain (index = terrain code).
fn resource_pips(shape: &Shape, b: &Setup) -> [u32; DESERT as usize] {
    let mut p = [0u32; DESERT as usize];
    for i in 0..shape.len() {
        if let Some(x) = p.get_mut(usize::from(b.terrain[i])) {
            *x += pips(b.token[i]);
        }
    }
    p
}

/// Per land terrain, the token values it carries as bits (bit v = value v) and the
/// hexes that repeat a value or pair a 6 with an 8 there.
fn number_clashes(shape: &Shape, b: &Setup) -> u32 {
    let mut seen = [0u16; DESERT as usize];
    let mut twice = [0u16; DESERT as usize];
    for i in 0..shape.len() {
        let t = usize::from(b.terrain[i]);
        if t < DESERT as usize {
            let bit = 1u16 << b.token[i];
            twice[t] |= seen[t] & bit;
            seen[t] |= bit;
        }
    }
    let reds = (0..16u8)
        .filter(|&v| is_red(v))
        .fold(0u16, |m, v| m | 1 << v);
    mask_where(shape, |i| {
        let t = usize::from(b.terrain[i]);
        t < DESERT as usize
            && (twice[t] >> b.token[i] & 1 == 1 || (seen[t] & reds == reds && is_red(b.token[i])))
    })
}

/// The land hexes at a 2:1 harbor's piers that produce its resource.
fn harbor_clashes(shape: &Shape, b: &Setup) -> u32 {
    let mut m = 0u32;
    for (p, hexes) in shape.harbor_reach.iter().enumerate() {
        let kind = b.harbor[p];
        if kind != GENERIC {
            let resource = kind - 1;
            m |= hexes & mask_where(shape, |i| b.terrain[i] == resource);
        }
    }
    m
}

/// Whether a full board meets one rule (the same verdict as `offenders` being
/// empty, without building the masks where a count is enough).
#[inline]
pub fn holds(shape: &Shape, b: &Setup, rule: Rule) -> bool {
    match rule {
        Rule::MinPipsPerCorner(n) => shape
            .corners
            .iter()
            .all(|c| c.len() < 3 || c.iter().map(|&h| pips(b.token[h as usize])).sum::<u32>() >= n),
        // Groups of at most two are the hexes with at most one neighbour alike (a
        // connected group of three has a hex with two): a count per hex, no search.
        Rule::MaxCluster(n) if n <= 2 => terrain_masks(shape, b).iter().all(|&m| {
            let mut left = m;
            while left != 0 {
                let i = left.trailing_zeros() as usize;
                left &= left - 1;
                if (shape.neighbours[i] & m).count_ones() >= n {
                    return false;
                }
            }
            true
        }),
        Rule::MaxCluster(n) => terrain_masks(shape, b)
            .iter()
            .all(|&m| m.count_ones() <= n || groups(shape, m).all(|g| g.count_ones() <= n)),
        Rule::ResourcePips(lo, hi) => resource_pips(shape, b)
            .iter()
            .all(|p| (lo..=hi).contains(p)),
        Rule::HarborResourceApart => harbor_clashes(shape, b) == 0,
        _ => offenders(shape, b, rule) == (0, 0),
    }
}

fn mask_where(shape: &Shape, f: impl Fn(usize) -> bool) -> u32 {
    (0..shape.len())
        .filter(|&i| f(i))
        .fold(0, |m, i| m | 1 << i)
}

/// Hexes with a neighbour `j` such that `clash(i, j)`.
#[inline]
fn clashing(shape: &Shape, clash: impl Fn(usize, usize) -> bool) -> u32 {
    mask_where(shape, |i| {
        (0..shape.len()).any(|j| shape.neighbours[i] >> j & 1 == 1 && clash(i, j))
    })
}

/// Hexes in `mask` with a neighbour in `mask`.
fn touching(shape: &Shape, mask: u32) -> u32 {
    mask_where(shape, |i| {
        mask >> i & 1 == 1 && shape.neighbours[i] & mask != 0
    })
}

/// The hexes that break one rule: (token offenders, terrain offenders).
pub(crate) fn offenders(shape: &Shape, b: &Setup, rule: Rule) -> (u32, u32) {
    match rule {
        Rule::RedApart | Rule::TwoTwelveApart => {
            let class = rule.token_class().expect("an apart rule's class");
            (touching(shape, mask_where(shape, |i| class(b.token[i]))), 0)
        }
        Rule::SameNumberApart => {
            let clash =
                |i: usize, j: usize| Rule::SameNumberApart.tokens_clash(b.token[i], b.token[j]);
            (clashing(shape, clash), 0)
        }
        Rule::SameTerrainApart => {
            let clash = |i: usize, j: usize| {
                Rule::SameTerrainApart.terrains_clash(b.terrain[i], b.terrain[j])
            };
            (0, clashing(shape, clash))
        }
        Rule::MaxPipsPerCorner(n) => {
            let mut m = 0u32;
            for corner in &shape.corners {
                let sum: u32 = corner.iter().map(|&h| pips(b.token[h as usize])).sum();
                if sum > n {
                    for &h in corner {
                        if b.token[h as usize] != 0 {
                            m |= 1 << h;
                        }
                    }
                }
            }
            (m, 0)
        }
        Rule::MinPipsPerCorner(n) => {
            // The tokens of a corner short of pips, and a desert there (moving it
            // frees the corner for a token).
            let (mut t, mut g) = (0u32, 0u32);
            for corner in shape.corners.iter().filter(|c| c.len() == 3) {
                let sum: u32 = corner.iter().map(|&h| pips(b.token[h as usize])).sum();
                if sum < n {
                    for &h in corner {
                        if b.terrain[h as usize] == DESERT {
                            g |= 1 << h;
                        } else {
                            t |= 1 << h;
                        }
                    }
                }
            }
            (t, g)
        }
        Rule::MaxCluster(n) => {
            let m = terrain_masks(shape, b)
                .iter()
                .flat_map(|&m| groups(shape, m))
                .filter(|g| g.count_ones() > n)
                .fold(0, |a, g| a | g);
            (0, m)
        }
        Rule::NumberResourceApart => (number_clashes(shape, b), 0),
        Rule::ResourcePips(lo, hi) => {
            let p = resource_pips(shape, b);
            let m = mask_where(shape, |i| {
                p.get(usize::from(b.terrain[i]))
                    .is_some_and(|x| !(lo..=hi).contains(x))
            });
            (m, 0)
        }
        Rule::HarborResourceApart => (0, harbor_clashes(shape, b)),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::BoardKind;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    /// A uniformly shuffled board of `shape`: terrains (deserts included) over the
    /// hexes, tokens over the land, harbors over the frame.
    pub(crate) fn random_board(shape: &Shape, rng: &mut ground::seed::Rng) -> Setup {
        let mut b = Setup::default();
        let mut terrains = shape.terrains.clone();
        terrains.extend(std::iter::repeat_n(DESERT, shape.deserts));
        terrains.shuffle(rng);
        b.terrain[..shape.len()].copy_from_slice(&terrains);
        let mut tokens = shape.tokens.clone();
        tokens.shuffle(rng);
        let land = (0..shape.len()).filter(|&h| b.terrain[h] != DESERT);
        for (h, t) in land.zip(tokens) {
            b.token[h] = t;
        }
        let mut harbors = shape.harbor_kinds.clone();
        harbors.shuffle(rng);
        b.harbor[..harbors.len()].copy_from_slice(&harbors);
        b
    }

    /// One rule of every kind, with limits that random boards both meet and break.
    fn every_rule() -> Vec<Rule> {
        vec![
            Rule::RedApart,
            Rule::TwoTwelveApart,
            Rule::SameNumberApart,
            Rule::SameTerrainApart,
            Rule::MaxPipsPerCorner(11),
            Rule::MinPipsPerCorner(5),
            Rule::MaxCluster(1),
            Rule::MaxCluster(2),
            Rule::NumberResourceApart,
            Rule::ResourcePips(8, 14),
            Rule::HarborResourceApart,
        ]
    }

    /// The hexes with a neighbour `j` such that `clash(i, j)`, by brute force over
    /// pairs of hexes (neighbours read from the shape's adjacency, both ways).
    fn pairwise(shape: &Shape, clash: impl Fn(usize, usize) -> bool) -> u32 {
        let mut m = 0u32;
        for i in 0..shape.len() {
            for j in 0..shape.len() {
                let near = shape.neighbours[i] >> j & 1 == 1 || shape.neighbours[j] >> i & 1 == 1;
                if i != j && near && clash(i, j) {
                    m |= 1 << i;
                }
            }
        }
        m
    }

    #[test]
    fn every_derived_form_agrees_with_the_rules_own_predicates_on_random_boards() {
        let mut rng = ground::seed::Rng::seed_from_u64(31);
        let mut broken = [0usize; 11];
        for kind in [BoardKind::Base, BoardKind::Extended] {
            let shape = kind.shape();
            for _ in 0..3000 {
                let b = random_board(shape, &mut rng);
                for (k, r) in every_rule().into_iter().enumerate() {
                    let (tok, ter) = offenders(shape, &b, r);
                    // The verdict and the offenders say the same.
                    assert_eq!(holds(shape, &b, r), tok | ter == 0, "{r:?}");
                    broken[k] += usize::from(tok | ter != 0);
                    // Apart rules: the masks (a token class's touching hexes, the
                    // groups of max-cluster=1) are the pairs the predicates name.
                    let by_tokens = pairwise(shape, |i, j| r.tokens_clash(b.token[i], b.token[j]));
                    let by_terrain =
                        pairwise(shape, |i, j| r.terrains_clash(b.terrain[i], b.terrain[j]));
                    if matches!(
                        r,
                        Rule::RedApart | Rule::TwoTwelveApart | Rule::SameNumberApart
                    ) {
                        assert_eq!((tok, ter), (by_tokens, 0), "{r:?}");
                    }
                    if matches!(r, Rule::SameTerrainApart | Rule::MaxCluster(1)) {
                        assert_eq!((tok, ter), (0, by_terrain), "{r:?}");
                    }
                    if r == Rule::NumberResourceApart {
                        let same = |i: usize, j: usize| {
                            i != j
                                && b.terrain[i] == b.terrain[j]
                                && b.terrain[i] != DESERT
                                && Rule::numbers_clash_on_resource(b.token[i], b.token[j])
                        };
                        let want = (0..shape.len())
                            .filter(|&i| (0..shape.len()).any(|j| same(i, j)))
                            .fold(0u32, |m, i| m | 1 << i);
                        assert_eq!((tok, ter), (want, 0));
                    }
                }
                // A rule list checks what its rules check, one by one.
                let all = Rules(every_rule());
                let each = every_rule().iter().all(|&r| holds(shape, &b, r));
                assert_eq!(all.check(shape, &b), each);
            }
        }
        // Every rule was both met and broken, so each comparison above was tried both ways.
        for (k, r) in every_rule().into_iter().enumerate() {
            assert!(
                broken[k] > 0 && broken[k] < 6000,
                "{r:?} broken {} times",
                broken[k]
            );
        }
    }

    #[test]
    fn the_token_classes_are_the_six_and_eight_and_the_two_and_twelve() {
        // Written out here, apart from the code, from the rules of the game.
        let red: Vec<u8> = (0..=12)
            .filter(|&v| Rule::RedApart.token_class().unwrap()(v))
            .collect();
        let extreme: Vec<u8> = (0..=12)
            .filter(|&v| Rule::TwoTwelveApart.token_class().unwrap()(v))
            .collect();
        assert_eq!((red, extreme), (vec![6, 8], vec![2, 12]));
        assert!(
            Rule::SameNumberApart.tokens_clash(5, 5) && !Rule::SameNumberApart.tokens_clash(0, 0)
        );
        assert!(
            Rule::MaxCluster(1).terrains_clash(2, 2)
                && !Rule::MaxCluster(1).terrains_clash(DESERT, DESERT)
        );
        assert!(Rule::SameTerrainApart.terrains_clash(DESERT, DESERT));
        assert!(Rule::numbers_clash_on_resource(6, 8) && !Rule::numbers_clash_on_resource(5, 9));
        assert!(
            Rule::MaxCluster(2).token_class().is_none()
                && !Rule::MaxCluster(2).terrains_clash(1, 1)
        );
    }

    #[test]
    fn parsing() {
        let r: Rules = "2-12-apart, red-apart,red-apart".parse().unwrap();
        assert_eq!(r.to_string(), "red-apart,2-12-apart");
        assert_eq!("none".parse::<Rules>().unwrap().to_string(), "none");
        let e = "purple-together".parse::<Rules>().unwrap_err();
        assert!(
            matches!(e, ground::Error::Param { name: "rules", .. }),
            "{e}"
        );
        assert_eq!(
            e.as_flag().to_string(),
            "--rules has an unknown rule 'purple-together': use red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N, min-pips-per-corner=N, max-cluster=N, number-resource-apart, resource-pips=A-B, harbor-resource-apart or none"
        );
        // A near miss says which rule was meant.
        let e = "max-clusters=2".parse::<Rules>().unwrap_err().to_string();
        assert!(
            e.contains("unknown rule 'max-clusters=2' (did you mean 'max-cluster'?)"),
            "{e}"
        );
        // Every rule of the table parses with a value of its form.
        for (name, form) in RULE_FORMS {
            let written = match form {
                "" => name.to_string(),
                "N" => format!("{name}=7"),
                _ => format!("{name}=6-16"),
            };
            let r: Rules = written.parse().unwrap();
            assert_eq!(r.to_string(), written);
        }
        let r: Rules = "harbor-resource-apart,resource-pips=9-16,max-cluster=2,min-pips-per-corner=4,number-resource-apart"
            .parse()
            .unwrap();
        assert_eq!(
            r.to_string(),
            "min-pips-per-corner=4,max-cluster=2,number-resource-apart,resource-pips=9-16,harbor-resource-apart"
        );
        assert_eq!(r.to_string().parse::<Rules>().unwrap(), r);
        for (bad, says) in [
            ("max-cluster=0", "at least 1"),
            ("min-pips-per-corner=16", "at most 15"),
            ("resource-pips=9", "A-B"),
            ("resource-pips=16-9", "empty"),
            ("resource-pips", "without its limit"),
            ("red-apart=3", "takes no value"),
            (
                "max-pips-per-corner=10,max-pips-per-corner=12",
                "give each rule once",
            ),
        ] {
            let e = bad.parse::<Rules>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!("max-pips-per-corner=3"
            .parse::<Rules>()
            .unwrap_err()
            .to_string()
            .contains("cannot be met"));
        assert!("max-pips-per-corner=x".parse::<Rules>().is_err());
    }
}
