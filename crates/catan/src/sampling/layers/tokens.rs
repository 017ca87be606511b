//! The token layer: a token class on every land hex (none on the desert). Tokens that
//! no rule tells apart share a class (under `red-apart` alone: the reds and the rest;
//! under a corner rule: the five pip levels), and the layer places classes; the
//! numbers within a class are then spread over its hexes, every arrangement equally
//! often. States remember the live hexes' classes.

use super::dag::Spec;
use super::order::{Order, Packed};
use crate::board::{is_extreme, is_red, pips, Shape, TOKEN_VALUES};
use crate::rules::{Rule, Rules};

const COUNT_BITS: u32 = 5;
const SLOTS_AT: u32 = 50;
const SLOT_BITS: u32 = 4;

/// Tokens the rules cannot tell apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Class {
    /// The tokens of the class, one entry per token (a value twice if it has two).
    pub tokens: Vec<u8>,
    /// Pips of each of its tokens.
    pub pips: u32,
    /// Whether they are red (6, 8).
    pub red: bool,
    /// Whether they are 2s and 12s.
    pub extreme: bool,
}

/// Whether the rules look at the tokens: otherwise any arrangement of the tokens on
/// the land hexes is as good as any other.
pub(crate) fn constrains(rules: &Rules) -> bool {
    rules.list().iter().any(|r| match *r {
        Rule::MinPipsPerCorner(n) => n > 0,
        _ => r.tokens_only(),
    })
}

/// The token classes of `rules` on `shape`: values with the same pips (under a corner
/// rule), redness (red-apart), 2/12-ness (2-12-apart) and, when `numbers` (same-number
/// apart, or a fixed token), the same value, share a class.
pub(crate) fn classes(shape: &Shape, rules: &Rules, numbers: bool) -> Vec<Class> {
    let corner = rules
        .list()
        .iter()
        .any(|r| matches!(r, Rule::MaxPipsPerCorner(_) | Rule::MinPipsPerCorner(_)));
    let numbers = numbers || rules.has(Rule::SameNumberApart);
    let key = |v: u8| {
        (
            if corner { pips(v) } else { 0 },
            rules.red_apart() && is_red(v),
            rules.two_twelve_apart() && is_extreme(v),
            if numbers { v } else { 0 },
        )
    };
    let mut out: Vec<(_, Class)> = Vec::new();
    for &v in &TOKEN_VALUES {
        let n = shape.token_count(v);
        if n == 0 {
            continue;
        }
        let k = key(v);
        let i = match out.iter().position(|(kk, _)| *kk == k) {
            Some(i) => i,
            None => {
                out.push((
                    k,
                    Class {
                        tokens: Vec::new(),
                        pips: pips(v),
                        red: is_red(v),
                        extreme: is_extreme(v),
                    },
                ));
                out.len() - 1
            }
        };
        out[i].1.tokens.extend(std::iter::repeat_n(v, n));
    }
    out.into_iter().map(|(_, c)| c).collect()
}

/// A corner completed by a hex: the slots of its other hexes and whether three land
/// hexes meet there.
#[derive(Debug, Clone)]
struct Corner {
    slots: Vec<usize>,
    three: bool,
}

/// The token layer of one desert position.
pub(crate) struct TokenSpec<'a> {
    neighbours: &'a [u32],
    order: &'a Order,
    desert: usize,
    /// The class forced on each hex (a fixed token), if any.
    fixed: Vec<Option<u8>>,
    classes: &'a [Class],
    /// Whether two neighbouring classes clash.
    clash: Vec<Vec<bool>>,
    /// Per step, the corners its hex completes.
    corners: Vec<Vec<Corner>>,
    max_pips: Option<u32>,
    min_pips: Option<u32>,
    /// Whether a later step looks at the live hexes' classes (some token rule).
    remember: bool,
}

impl<'a> TokenSpec<'a> {
    /// The layer for `rules` with the desert on hex `desert`, tokens in `classes`, and
    /// the class fixed on some hexes.
    pub(crate) fn new(
        shape: &'a Shape,
        order: &'a Order,
        rules: &Rules,
        classes: &'a [Class],
        desert: usize,
        fixed: Vec<Option<u8>>,
    ) -> Self {
        let token = |c: &Class| c.tokens[0];
        let clash: Vec<Vec<bool>> = classes
            .iter()
            .map(|a| {
                classes
                    .iter()
                    .map(|b| {
                        rules.list().iter().any(|r| match r {
                            // Equal values clash only within one single-value class.
                            Rule::SameNumberApart => {
                                a == b && a.tokens.iter().all(|&v| v == a.tokens[0])
                            }
                            _ => r.tokens_clash(token(a), token(b)),
                        })
                    })
                    .collect()
            })
            .collect();
        let corners = order
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let super::order::Item::Hex(h) = *it else {
                    return Vec::new();
                };
                shape
                    .corners
                    .iter()
                    .filter(|c| {
                        c.contains(&(h as u8))
                            && c.iter()
                                .all(|&g| g as usize == h || order.step_of[g as usize] < i)
                    })
                    .map(|c| Corner {
                        slots: c
                            .iter()
                            .filter(|&&g| g as usize != h)
                            .map(|&g| order.slot(i, g as usize).expect("a corner's hexes touch"))
                            .collect(),
                        three: c.len() == 3,
                    })
                    .collect()
            })
            .collect();
        let max_pips = rules.max_pips();
        let min_pips = rules.list().iter().find_map(|r| match r {
            Rule::MinPipsPerCorner(n) if *n > 0 => Some(*n),
            _ => None,
        });
        let remember =
            max_pips.is_some() || min_pips.is_some() || clash.iter().flatten().any(|&c: &bool| c);
        TokenSpec {
            remember,
            neighbours: &shape.neighbours,
            order,
            desert,
            fixed,
            classes,
            clash,
            corners,
            max_pips,
            min_pips,
        }
    }

    /// The symbol of the desert (no token).
    pub(crate) fn none(&self) -> u8 {
        self.classes.len() as u8
    }

    fn pips_of(&self, symbol: u32) -> u32 {
        self.classes.get(symbol as usize).map_or(0, |c| c.pips)
    }
}

impl Spec for TokenSpec<'_> {
    fn steps(&self) -> usize {
        self.order.steps()
    }

    fn root(&self) -> u128 {
        let mut k = Packed(0);
        for (i, c) in self.classes.iter().enumerate() {
            k.set(COUNT_BITS * i as u32, COUNT_BITS, c.tokens.len() as u32);
        }
        k.0
    }

    fn moves(&self, step: usize, key: u128, out: &mut Vec<(u8, u128, u8)>) {
        let super::order::Item::Hex(h) = self.order.items[step] else {
            unreachable!("the token layer places hexes only");
        };
        let key = Packed(key);
        let live = &self.order.live[step];
        let next = &self.order.live[step + 1];
        let slot = |s: usize| key.get(SLOTS_AT + SLOT_BITS * s as u32, SLOT_BITS);
        let none = u32::from(self.none());
        let (first, end) = if h == self.desert {
            (self.none(), self.none() + 1)
        } else if let Some(c) = self.fixed[h] {
            (c, c + 1)
        } else {
            (0, self.none())
        };
        'choice: for c in first..end {
            let ci = u32::from(c);
            if ci != none && key.get(COUNT_BITS * ci, COUNT_BITS) == 0 {
                continue;
            }
            if ci != none {
                for (s, &g) in live.iter().enumerate() {
                    let other = slot(s);
                    if self.order_touches(h, g)
                        && other != none
                        && self.clash[c as usize][other as usize]
                    {
                        continue 'choice;
                    }
                }
            }
            for corner in &self.corners[step] {
                let sum = self.pips_of(ci)
                    + corner
                        .slots
                        .iter()
                        .map(|&s| self.pips_of(slot(s)))
                        .sum::<u32>();
                if self.max_pips.is_some_and(|n| sum > n)
                    || (corner.three && self.min_pips.is_some_and(|n| sum < n))
                {
                    continue 'choice;
                }
            }
            let mut k = Packed(key.0 & ((1u128 << SLOTS_AT) - 1));
            if ci != none {
                let at = COUNT_BITS * ci;
                k.set(at, COUNT_BITS, k.get(at, COUNT_BITS) - 1);
            }
            for (s, &g) in next.iter().enumerate().filter(|_| self.remember) {
                let v = if g == h {
                    ci
                } else {
                    slot(
                        self.order
                            .slot(step, g)
                            .expect("a live hex was live before"),
                    )
                };
                k.set(SLOTS_AT + SLOT_BITS * s as u32, SLOT_BITS, v);
            }
            out.push((c, k.0, 0));
        }
    }
}

impl TokenSpec<'_> {
    fn order_touches(&self, h: usize, g: usize) -> bool {
        self.neighbours[h] >> g & 1 == 1
    }
}
