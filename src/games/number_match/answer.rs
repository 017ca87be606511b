//! `number-match solve`: decide one given board (solvable with the moves, unsolvable,
//! or unknown) by the exact solver or by random playouts.

use super::{montecarlo, move_records, notation, rules, Append, Move, NumberMatch, Solver};
use crate::games::solve::{Answer, Item};
use crate::games::Solve;
use crate::{Error, Result};

/// Which solver decides a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// The exact search (proves a board unsolvable).
    Exact,
    /// Random playouts (can only find a way).
    MonteCarlo,
}

/// The options of `number-match solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveOptions {
    /// The add limit
    #[arg(long, default_value_t = 4)]
    pub adds: u8,
    /// exact (proves unsolvable) or monte-carlo (the source article's random playouts)
    #[arg(long, value_enum, default_value = "exact")]
    pub solver: Method,
    /// Monte Carlo trials
    #[arg(long, default_value_t = 10_000)]
    pub trials: u64,
    /// Search nodes for the exact solver (running out, or Ctrl-C, is reported as
    /// unknown); memory stays bounded whatever the budget
    #[arg(long, default_value_t = 200_000_000)]
    pub max_nodes: u64,
    /// Seed of the Monte Carlo playouts
    #[arg(long, default_value_t = crate::seed::DEFAULT_SEED)]
    pub seed: u64,
    /// Columns of the board
    #[arg(long, default_value_t = 9)]
    pub columns: usize,
    /// Where adds go: after-last-digit or after-last-cell
    #[arg(long, default_value = Append::AfterLastDigit.name())]
    pub append: Append,
    /// Pairs may not see each other along diagonals (a variant)
    #[arg(long)]
    pub no_diagonals: bool,
}

impl Solve for NumberMatch {
    type Options = SolveOptions;
    const ITEM: &'static str = "board";

    fn answer(o: &SolveOptions, item: &Item, json: bool) -> Result<Answer> {
        NumberMatch::check(o.columns, o.adds)?;
        let rules = rules::Rules {
            cols: o.columns,
            diagonals: !o.no_diagonals,
            append: o.append,
        };
        let board = rules::parse_board(item.text)?;
        if o.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: give the search at least 1 node",
            ));
        }
        if o.trials == 0 {
            return Err(Error::param(
                "trials",
                "is 0: give Monte Carlo at least 1 trial",
            ));
        }
        let adds = o.adds;
        let which = o.solver;
        let started = std::time::Instant::now();
        let (solvable, min_adds, moves, note) = match which {
            Method::Exact => {
                let mut solver = Solver::new(rules);
                match solver.min_adds(&board, adds, o.max_nodes) {
                    Ok(Some((k, m))) => {
                        (Some(true), Some(k), m, format!("{} nodes", solver.nodes()))
                    }
                    Ok(None) => (
                        Some(false),
                        None,
                        Vec::new(),
                        format!("{} nodes", solver.nodes()),
                    ),
                    Err(()) => (None, None, Vec::new(), format!("{} nodes", solver.nodes())),
                }
            }
            Method::MonteCarlo => {
                let mut rng = crate::seed::item_rng(o.seed, "number-match-monte-carlo", 0);
                match montecarlo::solve(&rules, &board, adds, o.trials, &mut rng) {
                    Some((t, m)) => {
                        let used = m.iter().filter(|x| **x == Move::Add).count() as u8;
                        (Some(true), Some(used), m, format!("trial {t}"))
                    }
                    // Monte Carlo proves nothing: failing is "unknown".
                    None => (
                        None,
                        None,
                        Vec::new(),
                        format!("{} trials failed", o.trials),
                    ),
                }
            }
        };
        // A stop (Ctrl-C) ends the search as unknown: say so, not "not decided".
        crate::interrupt::check()?;
        let micros = started.elapsed().as_secs_f64() * 1e6;
        let board_text: String = board
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect();
        let out = if json {
            let v = serde_json::json!({
                "game": "number_match",
                "board": board_text,
                "columns": rules.cols,
                "adds": adds,
                "append": rules.append.name(),
                "solver": if which == Method::Exact { "exact" } else { "monte-carlo" },
                "solvable": solvable,
                "min_adds": if which == Method::Exact { serde_json::json!(min_adds) } else { serde_json::Value::Null },
                "solution": if solvable == Some(true) { serde_json::json!(move_records(&moves)) } else { serde_json::Value::Null },
            });
            v.to_string() + "\n"
        } else {
            let head = match (solvable, which) {
                (Some(true), Method::Exact) => format!(
                    "solvable with {} add(s) at least ({note}, {micros:.0} us)",
                    min_adds.unwrap_or(0)
                ),
                (Some(true), Method::MonteCarlo) => {
                    format!("cleared by random play at {note} ({micros:.0} us)")
                }
                (Some(false), _) => {
                    format!(
                        "UNSOLVABLE with at most {adds} add(s): the search was exhaustive ({note})"
                    )
                }
                (None, Method::Exact) => {
                    format!("unknown: the search stopped at --max-nodes ({note})")
                }
                (None, Method::MonteCarlo) => {
                    format!("unknown: {note} (Monte Carlo cannot prove a board unsolvable)")
                }
            };
            let mut t = format!("{head}\n{}", rules::render(&board, rules.cols));
            if solvable == Some(true) {
                t += &format!("moves: {}\n", notation(&moves, rules.cols));
            }
            t
        };
        // Only the exact solver's "unknown" fails: Monte Carlo never promises an answer.
        Ok(if solvable.is_none() && which == Method::Exact {
            Answer::Failed(out)
        } else {
            Answer::Done(out)
        })
    }

    fn nothing_found(source: &str) -> Error {
        Error::invalid(format!("{source}: no board found"))
    }

    fn failures(o: &SolveOptions, _failed: usize, _items: usize) -> Option<String> {
        Some(format!("not decided within --max-nodes {}", o.max_nodes))
    }
}
