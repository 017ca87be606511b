//! `numbrix solve`: the answer for each given grid (how many solutions, and one).

use super::{grid, Count, Grid, Moves, Numbrix};
use ground::game::Solve;
use ground::solve::{self, Answer, Item};
use ground::{Error, Result};

/// The options of `numbrix solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveOptions {
    /// Give up after this many search nodes per grid (about 0.4 µs each on 9x9;
    /// reported as unknown, exit 1, never as unique)
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
    /// orthogonal (Numbrix) or king (Hidato: consecutive numbers may also touch
    /// diagonally) [default: orthogonal, or what a JSON record says]
    #[arg(long)]
    pub moves: Option<Moves>,
}

/// The grid of one item and its moves: a grid in the text format, or a JSON record
/// as `numbrix generate` writes it (its givens: 0 a blank, -1 a blocked cell); the
/// moves are those its record or header states (orthogonal when it states none),
/// which `--moves` must agree with.
fn grid_of(options: &SolveOptions, item: &Item) -> Result<(Grid, Moves)> {
    let moves = solve::setting(item, options.moves, "moves", Moves::Orthogonal, |m| {
        m.name().to_string()
    })?;
    let text = match &item.stated {
        Some(stated) if stated.is_record => {
            // The givens as text rows, read by the one grid parser (which checks them).
            let givens: Vec<Vec<i64>> = solve::field(&stated.fields, "givens")?;
            let mut rows = String::new();
            for row in &givens {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&v| match v {
                        0 => ".".to_string(),
                        -1 => "X".to_string(),
                        v => v.to_string(),
                    })
                    .collect();
                rows += &cells.join(" ");
                rows.push('\n');
            }
            rows
        }
        _ => item.text.to_string(),
    };
    let grid = grid::parse_grid(&text)?;
    if let Some(stated) = item.stated.as_ref().filter(|s| s.is_record) {
        solve::check_stated_size(stated, grid.rows, grid.cols, "givens")?;
    }
    Ok((grid, moves))
}

impl Solve for Numbrix {
    type Options = SolveOptions;
    const ITEM: &'static str = "grid";
    // Text answers are numbered from the first when several grids are given.
    const READ_AHEAD: bool = true;
    // A grid can take long: each answer is seen as soon as it is found.
    const FLUSH_EACH: bool = true;

    // `numbrix generate --format text` prints each solution under its puzzle.
    fn is_item(text: &str) -> bool {
        text.lines().next().map(str::trim) != Some("solution:")
    }

    fn check(options: &SolveOptions) -> Result<()> {
        if options.max_nodes == 0 {
            return Err(Error::param(
                "max_nodes",
                "is 0: give the search at least 1 node",
            ));
        }
        Ok(())
    }

    // "0 solutions" and "2 or more" are answers; only "unknown" is a failure.
    fn answer(options: &SolveOptions, item: &Item, json: bool) -> Result<Answer> {
        let k = item.index;
        let (g, moves) = match grid_of(options, item) {
            Ok(grid) => grid,
            Err(e) => return Ok(item.refused("grid", e)),
        };
        let g = &g;
        let v = super::solve::solve_grid(g, moves, options.max_nodes)?;
        // A search cut short by a stop is a stop, not an "unknown" answer.
        ground::interrupt::check()?;
        let rows = |cells: &[u16]| Grid {
            rows: g.rows,
            cols: g.cols,
            cells: cells.to_vec(),
        };
        let text = if json {
            let solution = v
                .solution
                .as_ref()
                .map(|s| super::signed(&rows(s).to_rows()));
            let mut obj = serde_json::json!({
                "solutions": v.count.number(),
                "solution": solution,
                "nodes": v.nodes,
            });
            if v.count == Count::Unknown {
                obj["unknown"] = serde_json::Value::Bool(true);
            }
            obj.to_string() + "\n"
        } else {
            // Grids are separated by blank lines and numbered when there are several.
            let gap = if k > 0 { "\n" } else { "" };
            let head = if item.many {
                format!("{gap}grid {}: ", k + 1)
            } else {
                gap.to_string()
            };
            match (&v.count, &v.solution) {
                (Count::Zero, _) => format!("{head}0 solutions\n"),
                (Count::One, Some(s)) => {
                    format!("{head}1 solution (unique)\n{}", rows(s).render())
                }
                (Count::Many, Some(s)) => {
                    format!(
                        "{head}2 or more solutions; one of them:\n{}",
                        rows(s).render()
                    )
                }
                _ => format!(
                    "{head}unknown: the search stopped after {} nodes without proving anything\n",
                    v.nodes
                ),
            }
        };
        Ok(if v.count == Count::Unknown {
            Answer::Failed(text)
        } else {
            Answer::Done(text)
        })
    }

    fn nothing_found(source: &str) -> Error {
        Error::invalid(format!(
            "{source}: no grid found; give one row per line, numbers or . for blanks"
        ))
    }

    fn failures(options: &SolveOptions, failed: usize, items: usize) -> Option<String> {
        Some(format!(
            "{failed} of {items} grid(s) not decided within --max-nodes {}",
            options.max_nodes
        ))
    }
}
