//! Placement rules. A board is valid when it meets every chosen rule.

use super::board::{is_red, pips, Shape, DESERT, MAX_HARBOR, MAX_HEX};

/// A full board: terrain and token per hex (index = hex number - 1), harbor kind per
/// frame position. Token 0 means none (the desert).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// Terrain code per hex index; [`DESERT`] past the board's hexes.
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
        }
    }

    /// Rules that depend only on where the deserts, the reds and the 2s and 12s are:
    /// exact expectations come from enumerating those placements.
    pub fn is_placement_rule(&self) -> bool {
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
    type Err = crate::Error;
    /// "red-apart,2-12-apart,max-pips-per-corner=12", or "none"; a bad rule is an
    /// error about the parameter `rules`.
    fn from_str(s: &str) -> crate::Result<Self> {
        let mut rules = Vec::new();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let rule = match part {
                "none" => continue,
                "red-apart" => Rule::RedApart,
                "2-12-apart" => Rule::TwoTwelveApart,
                "same-number-apart" => Rule::SameNumberApart,
                "same-terrain-apart" => Rule::SameTerrainApart,
                p if p.starts_with("max-pips-per-corner=") => {
                    let n: u32 = p["max-pips-per-corner=".len()..]
                        .parse()
                        .map_err(|_| {
                            crate::Error::param(
                                "rules",
                                format!("has rule '{p}', whose N must be a whole number"),
                            )
                        })?;
                    if n < 5 {
                        return Err(crate::Error::param(
                            "rules",
                            format!("has rule '{p}', which cannot be met by any board: a 6 or an 8 alone brings 5 pips to each of its corners"),
                        ));
                    }
                    Rule::MaxPipsPerCorner(n)
                }
                p => {
                    return Err(crate::Error::param(
                        "rules",
                        format!("has an unknown rule '{p}': use red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N or none"),
                    ))
                }
            };
            rules.push(rule);
        }
        rules.sort();
        rules.dedup();
        Ok(Rules(rules))
    }
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
pub fn independent(shape: &Shape, mut mask: u32) -> bool {
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
    pub fn with_max_pips(&self, n: u32) -> Rules {
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
    pub fn max_pips(&self) -> Option<u32> {
        self.0.iter().find_map(|r| match r {
            Rule::MaxPipsPerCorner(n) => Some(*n),
            _ => None,
        })
    }

    /// Whether reds must be apart.
    pub fn red_apart(&self) -> bool {
        self.has(Rule::RedApart)
    }

    /// Whether 2s and 12s must be apart.
    pub fn two_twelve_apart(&self) -> bool {
        self.has(Rule::TwoTwelveApart)
    }

    /// Every rule depends only on the desert, red and 2/12 placement.
    pub fn placement_only(&self) -> bool {
        self.0.iter().all(Rule::is_placement_rule)
    }

    /// The rules that the placement stage does not check.
    pub fn late(&self) -> impl Iterator<Item = &Rule> {
        self.0.iter().filter(|r| !r.is_placement_rule())
    }

    /// Check every rule on a full board.
    pub fn check(&self, shape: &Shape, b: &Setup) -> bool {
        self.0.iter().all(|r| offenders(shape, b, *r) == (0, 0))
    }

    /// Check only the rules the placement stage does not.
    pub fn check_late(&self, shape: &Shape, b: &Setup) -> bool {
        self.late().all(|r| offenders(shape, b, *r) == (0, 0))
    }

    /// Hexes that break some rule: (token offenders, terrain offenders) as bitmasks.
    pub fn offenders(&self, shape: &Shape, b: &Setup) -> (u32, u32) {
        self.0.iter().fold((0, 0), |(t, g), r| {
            let (t2, g2) = offenders(shape, b, *r);
            (t | t2, g | g2)
        })
    }
}

fn mask_where(shape: &Shape, f: impl Fn(usize) -> bool) -> u32 {
    (0..shape.len())
        .filter(|&i| f(i))
        .fold(0, |m, i| m | 1 << i)
}

/// Hexes in `mask` with a neighbour in `mask`.
fn touching(shape: &Shape, mask: u32) -> u32 {
    mask_where(shape, |i| {
        mask >> i & 1 == 1 && shape.neighbours[i] & mask != 0
    })
}

/// The hexes that break one rule: (token offenders, terrain offenders).
pub fn offenders(shape: &Shape, b: &Setup, rule: Rule) -> (u32, u32) {
    match rule {
        Rule::RedApart => (
            touching(shape, mask_where(shape, |i| is_red(b.token[i]))),
            0,
        ),
        Rule::TwoTwelveApart => (
            touching(
                shape,
                mask_where(shape, |i| b.token[i] == 2 || b.token[i] == 12),
            ),
            0,
        ),
        Rule::SameNumberApart => {
            let m = mask_where(shape, |i| {
                b.token[i] != 0
                    && (0..shape.len())
                        .any(|j| shape.neighbours[i] >> j & 1 == 1 && b.token[j] == b.token[i])
            });
            (m, 0)
        }
        Rule::SameTerrainApart => {
            let m = mask_where(shape, |i| {
                (0..shape.len())
                    .any(|j| shape.neighbours[i] >> j & 1 == 1 && b.terrain[j] == b.terrain[i])
            });
            (0, m)
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing() {
        let r: Rules = "2-12-apart, red-apart,red-apart".parse().unwrap();
        assert_eq!(r.to_string(), "red-apart,2-12-apart");
        assert_eq!("none".parse::<Rules>().unwrap().to_string(), "none");
        let e = "blue-apart".parse::<Rules>().unwrap_err();
        assert!(
            matches!(e, crate::Error::Param { name: "rules", .. }),
            "{e}"
        );
        assert_eq!(
            e.as_flag().to_string(),
            "--rules has an unknown rule 'blue-apart': use red-apart, 2-12-apart, same-number-apart, same-terrain-apart, max-pips-per-corner=N or none"
        );
        assert!("max-pips-per-corner=3"
            .parse::<Rules>()
            .unwrap_err()
            .to_string()
            .contains("cannot be met"));
        assert!("max-pips-per-corner=x".parse::<Rules>().is_err());
    }
}
