//! Does any board meet a rule set? Three engines answer, behind one [`decide`] that
//! words every refusal:
//!
//! - [`feasible`]: an exhaustive search over the rules it covers (placement, corner and
//!   adjacency rules), exact either way;
//! - [`witness`]: necessary conditions that prove no board exists, then a search for a
//!   board, for rules and fixed hexes beyond the exhaustive search;
//! - [`pilot`]: whether a given sampler draws such boards at a usable rate.

pub mod feasible;
pub(crate) mod pilot;
pub(crate) mod witness;

use crate::board::BoardKind;
use crate::fix::Fixes;
use crate::rules::{Rules, Setup};
use crate::{record::check_failed, to_record, verify_record};
use ground::{Error, Result};
use std::sync::OnceLock;

/// Ok when some board of `kind` meets `rules` (decided exactly, once per rule set); the
/// board the search found must pass the independent check [`verify_record`].
pub(crate) fn decide_rules(kind: BoardKind, rules: &Rules) -> Result<()> {
    decide(kind, rules, &Fixes::default())
}

/// [`decide_rules`] with fixed hexes. The exhaustive search decides the rules it
/// covers; beyond them (later rules, fixes) necessary conditions and a search for a
/// board decide (see [`witness`]). Either way the board found must pass
/// [`verify_record`]. Answers are remembered per board, rules and fixes.
pub(crate) fn decide(kind: BoardKind, rules: &Rules, fixes: &Fixes) -> Result<()> {
    // Remembered: yes, or no with the message (an `Error::Invalid`).
    type Key = (BoardKind, Rules, Fixes);
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
    let r = decide_now(kind, rules, fixes);
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

/// Why no board was found: what each engine reports, worded by [`refusal`].
enum NoBoard {
    /// The exhaustive search covers `rules` and found none.
    Exhaustive(Rules),
    /// A necessary condition fails (the witness engine says which).
    Impossible(String),
    /// The search for a board made `moves` changes without finding one.
    NotFound { moves: u64 },
}

/// Every refusal of a rule set (and fixes), in one place.
fn refusal(kind: BoardKind, rules: &Rules, fixes: &Fixes, no: NoBoard) -> Error {
    let board = kind.name();
    let with = if fixes.is_empty() {
        String::new()
    } else {
        format!(" with hexes fixed as {fixes}")
    };
    Error::Invalid(match no {
        NoBoard::Exhaustive(exact) => exhaustive_refusal(kind, &exact),
        NoBoard::Impossible(why) => format!("rules {rules}{with}: {why}"),
        NoBoard::NotFound { moves } => format!(
            "rules {rules}{with}: no {board} board meeting them was found by a search of {moves} changes from {} random boards; \
             such boards are at best very rare and may not exist (the search is not exhaustive for these rules); loosen the rules{}",
            witness::STARTS,
            if fixes.is_empty() { "" } else { " or the fixes" }
        ),
    })
}

/// Why the exhaustive search refuses `rules`: the smallest core of rules that cannot
/// be met together and, with a corner limit, the tightest limit that can.
fn exhaustive_refusal(kind: BoardKind, rules: &Rules) -> String {
    let board = kind.name();
    let mut msg = format!("rules {rules}: no {board} board meets them (exhaustive search)");
    // Drop every rule the others fail without: what is left cannot be met, but
    // without any one of its rules it could.
    let mut core = rules.clone();
    for &r in rules.list() {
        let fewer = core.without(r);
        if feasible::witness(kind, &fewer).is_none() {
            core = fewer;
        }
    }
    if core.list().len() < rules.list().len() {
        if core.list().len() == 1 {
            msg += &format!("; {core} alone cannot be met");
        } else {
            msg += &format!("; {core} together already cannot be met");
        }
    }
    if let Some(n) = rules.max_pips() {
        // A corner holds at most three hexes of 5 pips, so 15 is no limit at all.
        let meets = |m: u32| feasible::witness(kind, &rules.with_max_pips(m)).is_some();
        if let Some(m) = (n + 1..=15).find(|&m| meets(m)) {
            let with = if rules.list().len() > 1 {
                " with the other rules"
            } else {
                ""
            };
            msg += &format!(
                "; the tightest corner limit a {board} board meets{with} is max-pips-per-corner={m}"
            );
        }
    }
    msg
}

/// A board meeting `rules` and keeping `fixes`, from whichever engine covers them.
fn find_board(
    kind: BoardKind,
    rules: &Rules,
    fixes: &Fixes,
) -> std::result::Result<Setup, NoBoard> {
    let exact = rules.searched_exactly();
    let Some(board) = feasible::witness(kind, &exact) else {
        return Err(NoBoard::Exhaustive(exact));
    };
    if exact == *rules && fixes.is_empty() {
        return Ok(board);
    }
    let shape = kind.shape();
    if let Some(why) = witness::impossible(shape, rules, fixes) {
        return Err(NoBoard::Impossible(why));
    }
    let found = witness::search(shape, rules, fixes);
    found.board.ok_or(NoBoard::NotFound { moves: found.moves })
}

fn decide_now(kind: BoardKind, rules: &Rules, fixes: &Fixes) -> Result<()> {
    let shape = kind.shape();
    let w = find_board(kind, rules, fixes).map_err(|no| refusal(kind, rules, fixes, no))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_rules_and_what_can_be_met() {
        let e =
            decide_rules(BoardKind::Base, &"max-pips-per-corner=5".parse().unwrap()).unwrap_err();
        assert!(matches!(e, ground::Error::Invalid(_)));
        assert_eq!(
            e.to_string(),
            "rules max-pips-per-corner=5: no base board meets them (exhaustive search); \
             the tightest corner limit a base board meets is max-pips-per-corner=9"
        );
        let e = decide_rules(
            BoardKind::Extended,
            &"red-apart,same-terrain-apart,max-pips-per-corner=8"
                .parse()
                .unwrap(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("rules red-apart,same-terrain-apart,max-pips-per-corner=8: no extended board meets them (exhaustive search); max-pips-per-corner=8 alone cannot be met"), "{e}");
        assert!(
            e.ends_with("with the other rules is max-pips-per-corner=9"),
            "{e}"
        );
        assert!(decide_rules(BoardKind::Base, &"max-pips-per-corner=9".parse().unwrap()).is_ok());
    }
}
