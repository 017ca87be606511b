//! Fixed hexes (`--fix 10=desert,1=wood:6`): some hexes are set by the user and the
//! rest of the board is drawn uniformly among the completions that meet the rules.
//!
//! Drawing the rest uniformly: among the boards that agree with the fixes, every one
//! is equally likely under a uniform draw, so the draw conditioned on the fixes is
//! uniform over them. It is made directly: the deserts not fixed go on hexes whose
//! terrain is free, uniformly; the tokens not fixed are shuffled onto the non-desert
//! hexes whose token is free; the terrains not fixed onto the non-desert hexes whose
//! terrain is free; then the harbors. Whatever the free deserts' places, the number
//! of ways to place the free tokens and terrains is the same (the same counts of
//! pieces and places), so drawing the deserts uniformly first is right. Boards that
//! break a rule are drawn again (rejection), which keeps the draw uniform among the
//! valid completions.

use super::board::{Shape, DESERT, MAX_HEX, TERRAIN_NAMES, TOKEN_VALUES};
use super::rules::Setup;
use ground::{Error, Result};

/// One fixed hex: its terrain, and its token when given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fix {
    /// Hex index (hex number - 1).
    pub hex: u8,
    /// Terrain code (`DESERT` for the desert).
    pub terrain: u8,
    /// Token value, when fixed too (never on a desert).
    pub token: Option<u8>,
}

/// The fixed hexes, by hex; empty when nothing is fixed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Fixes(Vec<Fix>);

/// An error about the parameter `fix`.
fn bad(msg: String) -> Error {
    Error::param("fix", msg)
}

/// Most hexes any board has: a fix list longer than this is refused before parsing on.
const MAX_FIXES: usize = MAX_HEX;

impl std::str::FromStr for Fixes {
    type Err = Error;
    /// "10=desert,1=wood:6" (hex number = terrain, optionally `:token`), or "" /
    /// "none" for no fixes. Hex numbers are checked against a board by
    /// [`Fixes::check`].
    fn from_str(s: &str) -> Result<Self> {
        let mut v: Vec<Fix> = Vec::new();
        let parts: Vec<&str> = s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != "none")
            .collect();
        if parts.len() > MAX_FIXES {
            return Err(bad(format!(
                "fixes {} hexes; a board has at most {MAX_FIXES}",
                parts.len()
            )));
        }
        for p in parts {
            let form = "write HEX=TERRAIN or HEX=TERRAIN:TOKEN, e.g. 10=desert or 1=wood:6";
            let Some((hex, rest)) = p.split_once('=') else {
                return Err(bad(format!("has '{p}': {form}")));
            };
            let n: usize = hex.trim().parse().map_err(|_| {
                bad(format!(
                    "has '{p}', whose hex must be a hex number (1, 2, ...)"
                ))
            })?;
            if n == 0 || n > MAX_HEX {
                return Err(bad(format!("has '{p}': hex {n} is not on any board")));
            }
            let (terrain, token) = match rest.split_once(':') {
                Some((t, k)) => (t.trim(), Some(k.trim())),
                None => (rest.trim(), None),
            };
            let Some(t) = TERRAIN_NAMES.iter().position(|&x| x == terrain) else {
                return Err(bad(format!(
                    "has '{p}', with unknown terrain '{terrain}': use wheat, wood, sheep, clay, rock or desert"
                )));
            };
            let token = match token {
                None => None,
                Some(k) => {
                    let v: u8 = k
                        .parse()
                        .ok()
                        .filter(|v| TOKEN_VALUES.contains(v))
                        .ok_or_else(|| {
                            bad(format!(
                                "has '{p}', with token '{k}': a token is 2, 3, 4, 5, 6, 8, 9, 10, 11 or 12"
                            ))
                        })?;
                    if t == DESERT as usize {
                        return Err(bad(format!("has '{p}': the desert has no number token")));
                    }
                    Some(v)
                }
            };
            if v.iter().any(|f| usize::from(f.hex) == n - 1) {
                return Err(bad(format!("fixes hex {n} twice")));
            }
            v.push(Fix {
                hex: (n - 1) as u8,
                terrain: t as u8,
                token,
            });
        }
        v.sort();
        Ok(Fixes(v))
    }
}

impl std::fmt::Display for Fixes {
    /// The canonical form: by hex number, `N=terrain[:token]`, comma-separated.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|x| {
                let mut s = format!("{}={}", x.hex + 1, TERRAIN_NAMES[usize::from(x.terrain)]);
                if let Some(k) = x.token {
                    s += &format!(":{k}");
                }
                s
            })
            .collect();
        f.write_str(&parts.join(","))
    }
}

impl Fixes {
    /// No hex fixed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The fixed hexes, by hex.
    pub fn list(&self) -> &[Fix] {
        &self.0
    }

    /// Ok when the fixes fit `shape`: every hex on the board, and no more of any
    /// terrain or token fixed than the board has. The error names what does not fit.
    pub fn check(&self, shape: &Shape) -> Result<()> {
        for f in &self.0 {
            if usize::from(f.hex) >= shape.len() {
                return Err(bad(format!(
                    "fixes hex {}, but the {} board has hexes 1 to {}",
                    f.hex + 1,
                    shape.kind.name(),
                    shape.len()
                )));
            }
        }
        for (t, name) in TERRAIN_NAMES.iter().enumerate() {
            let fixed = self
                .0
                .iter()
                .filter(|f| usize::from(f.terrain) == t)
                .count();
            let have = shape.terrain_count(t as u8);
            if fixed > have {
                return Err(bad(format!(
                    "fixes {fixed} {name} hexes, but the {} board has {have}",
                    shape.kind.name()
                )));
            }
        }
        for v in TOKEN_VALUES {
            let fixed = self.0.iter().filter(|f| f.token == Some(v)).count();
            let have = shape.token_count(v);
            if fixed > have {
                return Err(bad(format!(
                    "fixes {fixed} tokens {v}, but the {} board has {have}",
                    shape.kind.name()
                )));
            }
        }
        Ok(())
    }

    /// Whether a board agrees with the fixes.
    pub(crate) fn agree(&self, b: &Setup) -> bool {
        self.0.iter().all(|f| {
            let h = usize::from(f.hex);
            b.terrain[h] == f.terrain && f.token.is_none_or(|k| b.token[h] == k)
        })
    }
}

/// What stays free under a set of fixes, ready for drawing: the places and the pieces.
#[derive(Debug, Clone)]
pub struct Free {
    /// The board with the fixed hexes set (terrain `DESERT` and token 0 elsewhere).
    pub base: Setup,
    /// Hexes whose terrain is free (a free desert goes on one of these).
    pub terrain_free: u32,
    /// Hexes whose token is free (unless they turn out a desert).
    pub token_free: u32,
    /// Deserts still to place.
    pub deserts: usize,
    /// Terrain codes still to place, one per free land hex.
    pub terrains: Vec<u8>,
    /// Tokens still to place, one per free token place.
    pub tokens: Vec<u8>,
}

impl Free {
    /// The free places and pieces of `shape` under `fixes` (already checked).
    pub fn new(shape: &Shape, fixes: &Fixes) -> Free {
        let all = ((1u64 << shape.len()) - 1) as u32;
        let mut base = Setup::default();
        let (mut terrain_free, mut token_free) = (all, all);
        let mut terrains = shape.terrains.clone();
        let mut tokens = shape.tokens.clone();
        let mut deserts = shape.deserts;
        for f in fixes.list() {
            let h = usize::from(f.hex);
            base.terrain[h] = f.terrain;
            terrain_free &= !(1 << h);
            if f.terrain == DESERT {
                deserts -= 1;
                token_free &= !(1 << h);
            } else if let Some(i) = terrains.iter().position(|&t| t == f.terrain) {
                terrains.swap_remove(i);
            }
            if let Some(k) = f.token {
                base.token[h] = k;
                token_free &= !(1 << h);
                if let Some(i) = tokens.iter().position(|&t| t == k) {
                    tokens.swap_remove(i);
                }
            }
        }
        terrains.sort_unstable();
        tokens.sort_unstable();
        Free {
            base,
            terrain_free,
            token_free,
            deserts,
            terrains,
            tokens,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::BoardKind;
    use super::*;

    #[test]
    fn parsing_and_canonical_form() {
        let f: Fixes = "1=wood:6, 10=desert".parse().unwrap();
        assert_eq!(f.to_string(), "1=wood:6,10=desert");
        assert!("".parse::<Fixes>().unwrap().is_empty());
        assert!("none".parse::<Fixes>().unwrap().is_empty());
        for (bad, says) in [
            ("10", "HEX=TERRAIN"),
            ("x=wood", "hex number"),
            ("0=wood", "not on any board"),
            ("1=forest", "unknown terrain"),
            ("1=wood:7", "a token is"),
            ("1=desert:6", "no number token"),
            ("1=wood,1=clay", "twice"),
        ] {
            let e = bad.parse::<Fixes>().unwrap_err().as_flag().to_string();
            assert!(e.starts_with("--fix ") && e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn fixes_must_fit_the_board() {
        let base = BoardKind::Base.shape();
        let check = |s: &str| s.parse::<Fixes>().unwrap().check(base);
        assert!(check("10=desert,1=wood:6").is_ok());
        assert!(check("20=wood")
            .unwrap_err()
            .to_string()
            .contains("hexes 1 to 19"));
        assert!(check("1=desert,2=desert")
            .unwrap_err()
            .to_string()
            .contains("2 desert hexes, but the base board has 1"));
        assert!(check("1=rock,2=rock,3=rock,4=rock")
            .unwrap_err()
            .to_string()
            .contains("4 rock hexes"));
        assert!(check("1=wood:2,2=rock:12,3=clay:2")
            .unwrap_err()
            .to_string()
            .contains("2 tokens 2"));
        let ext = BoardKind::Extended.shape();
        assert!("1=desert,2=desert"
            .parse::<Fixes>()
            .unwrap()
            .check(ext)
            .is_ok());
    }

    #[test]
    fn free_pieces_fill_the_free_places() {
        let s = BoardKind::Base.shape();
        let f: Fixes = "1=wood:6,10=desert,5=rock".parse().unwrap();
        let free = Free::new(s, &f);
        assert_eq!(free.deserts, 0);
        assert_eq!(free.terrains.len(), 16);
        assert_eq!(free.tokens.len(), 17);
        // Free terrain places: all but 1, 5, 10; free token places: all but 1 and 10,
        // which with no free desert are exactly the free tokens' places.
        assert_eq!(free.terrain_free.count_ones(), 16);
        assert_eq!(free.token_free.count_ones(), 17);
    }
}
