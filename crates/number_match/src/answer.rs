//! `number-match solve`: decide one given board (solvable with the moves, unsolvable,
//! or unknown) by the exact solver or by random playouts.

use super::{montecarlo, move_records, notation, rules, Append, Move, NumberMatch, Solver};
use ground::game::Solve;
use ground::solve::{self, Answer, Item};
use ground::{Error, Result};

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
    /// The add limit [default: 4, or a JSON record's]
    #[arg(long)]
    pub adds: Option<u8>,
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
    #[arg(long, default_value_t = ground::seed::DEFAULT_SEED)]
    pub seed: u64,
    /// Columns of the board [default: a JSON record's, the width of a board's first
    /// row when it is given in rows, else 9]
    #[arg(long)]
    pub columns: Option<usize>,
    /// Where adds go: after-last-digit, after-last-cell or new-row [default: after-last-digit,
    /// or a JSON record's]
    #[arg(long)]
    pub append: Option<Append>,
    /// Pairs may not see each other along diagonals (a variant; a JSON record says
    /// whether it is one)
    #[arg(long)]
    pub no_diagonals: bool,
}

/// One board to decide, with the rules and the add limit it is decided under.
struct Setup {
    board: Vec<u8>,
    rules: rules::Rules,
    adds: u8,
}

/// The board of one item: digits (in rows or on one line, as `number-match generate
/// --format text` or a user writes them), or a JSON record as `generate` writes it.
/// Its columns, append rule and diagonals are the ones its record or header states
/// (the defaults where it states none; for text typed by hand the width of its first
/// row when it has several), which flags must agree with. The add limit is a question
/// asked of the board, not part of it: `--adds` asks another.
fn setup_of(o: &SolveOptions, item: &Item) -> Result<Setup> {
    let record = item.stated.as_ref().filter(|s| s.is_record);
    let board = match record {
        Some(stated) => rules::parse_board(&solve::field::<String>(&stated.fields, "board")?)?,
        None => rules::parse_board(item.text)?,
    };
    let cols = match &item.stated {
        Some(_) => solve::setting(item, o.columns, "columns", 9, |c| c.to_string())?,
        None => {
            let rows: Vec<&str> = item
                .text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let width = (rows.len() > 1).then(|| {
                rows[0]
                    .chars()
                    .filter(|c| !c.is_whitespace() && *c != ',')
                    .count()
            });
            o.columns.or(width).unwrap_or(9)
        }
    };
    let append = solve::setting(item, o.append, "append", Append::AfterLastDigit, |a| {
        a.name().to_string()
    })?;
    let no_diagonals = solve::setting(
        item,
        o.no_diagonals.then_some(true),
        "no_diagonals",
        false,
        |b| b.to_string(),
    )?;
    let adds = match (o.adds, record) {
        (Some(adds), _) => adds,
        (None, Some(stated)) => solve::optional_field::<u8>(&stated.fields, "adds")?.unwrap_or(4),
        (None, None) => 4,
    };
    NumberMatch::check(cols, adds)?;
    NumberMatch::check_growth(board.len(), cols, adds, append).map_err(|_| {
        Error::invalid(format!(
            "the board has {} cells: with append = new-row, {adds} adds and {cols} columns it can \
             grow past the {} cells a move can address: use fewer adds or a shorter board",
            board.len(),
            super::MAX_CELLS
        ))
    })?;
    Ok(Setup {
        board,
        rules: rules::Rules {
            cols,
            diagonals: !no_diagonals,
            append,
        },
        adds,
    })
}

impl Solve for NumberMatch {
    type Options = SolveOptions;
    const ITEM: &'static str = "board";
    // A refused board among several is named and the rest are answered.
    const READ_AHEAD: bool = true;

    fn check(o: &SolveOptions) -> Result<()> {
        if let Some(columns) = o.columns {
            NumberMatch::check(columns, o.adds.unwrap_or(0))?;
        } else if let Some(adds) = o.adds {
            NumberMatch::check(9, adds)?;
        }
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
        Ok(())
    }

    fn answer(o: &SolveOptions, item: &Item, json: bool) -> Result<Answer> {
        let Setup { board, rules, adds } = match setup_of(o, item) {
            Ok(setup) => setup,
            Err(e) if item.source == "the command line" => return Err(e),
            Err(e) => return Ok(item.refused("board", e)),
        };
        let which = o.solver;
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
                let mut rng = ground::seed::item_rng(o.seed, "number-match-monte-carlo", 0);
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
        ground::interrupt::check()?;
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
                    "solvable with {} add(s) at least ({note})",
                    min_adds.unwrap_or(0)
                ),
                (Some(true), Method::MonteCarlo) => {
                    format!("cleared by random play at {note}")
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
            // Boards are separated by blank lines when there are several.
            let gap = if item.index > 0 { "\n" } else { "" };
            let mut t = format!("{gap}{head}\n{}", rules::render(&board, rules.cols));
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

    fn failures(o: &SolveOptions, failed: usize, items: usize) -> Option<String> {
        Some(if items == 1 {
            format!("not decided within --max-nodes {}", o.max_nodes)
        } else {
            format!(
                "{failed} of {items} boards not decided within --max-nodes {}",
                o.max_nodes
            )
        })
    }
}
