//! Does any board meet a rule set? Three engines answer, behind one [`decide`] that
//! words every refusal:
//!
//! - [`feasible`]: an exhaustive search over the rules it covers (placement, corner and
//!   adjacency rules), exact either way;
//! - [`witness`]: necessary conditions that prove no board exists, then a search for a
//!   board, for rules and fixed hexes beyond the exhaustive search;
//! - [`pilot`]: whether a given sampler draws such boards at a usable rate.

pub mod feasible;
pub mod pilot;
pub mod witness;

use crate::games::catan::board::BoardKind;
use crate::games::catan::fix::Fixes;
use crate::games::catan::rules::Rules;
use crate::games::catan::{record::check_failed, to_record, verify_record};
use crate::{Error, Result};
use std::sync::OnceLock;

/// Ok when some board of `kind` meets `rules` (decided exactly, once per rule set); the
/// board the search found must pass the independent check [`verify_record`].
pub fn decide_rules(kind: BoardKind, rules: &Rules) -> Result<()> {
    decide(kind, rules, &Fixes::default())
}

/// [`decide_rules`] with fixed hexes. The exhaustive search decides the rules it
/// covers; beyond them (later rules, fixes) necessary conditions and a search for a
/// board decide (see [`witness`]). Either way the board found must pass
/// [`verify_record`]. Answers are remembered per board, rules and fixes.
pub fn decide(kind: BoardKind, rules: &Rules, fixes: &Fixes) -> Result<()> {
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

fn decide_now(kind: BoardKind, rules: &Rules, fixes: &Fixes) -> Result<()> {
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
