//! `flip solve` and `flip analyze`: the answers for given boards, and the analysis as
//! text.

use super::{Analysis, Flip, MoveGrid, Shape, Solution, Solver};
use ground::game::Solve;
use ground::solve::{self, Answer, Item};
use ground::{Error, Result};

/// The options of `flip solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveOptions {
    /// Move shape: block (3x3) or plus (Lights Out cross) [default: block, or what a
    /// JSON record says]
    #[arg(long)]
    pub shape: Option<Shape>,
}

/// The shape and the board of one item: a board in the text format (labels and all),
/// or a JSON record as `flip generate` writes it; the shape is the one its record or
/// header states (block when it states none), which `--shape` must agree with.
fn board_of(options: &SolveOptions, item: &Item) -> Result<(MoveGrid, super::Bits)> {
    let shape = solve::setting(item, options.shape, "shape", Shape::Block, |s| {
        s.name().to_string()
    })?;
    match &item.stated {
        // The record is at most a record's length, so its board is no larger than a
        // board given as text.
        Some(stated) if stated.is_record => {
            let start: Vec<String> = solve::field(&stated.fields, "start")?;
            let (layout, board) = MoveGrid::parse(shape, &start.join("\n"))?;
            // The size the record states must be the size of its board.
            solve::check_stated_size(
                stated,
                layout.rows,
                layout.cols,
                "start board's move centres",
            )?;
            Ok((layout, board))
        }
        _ => MoveGrid::parse(shape, item.text).map_err(|e| match (options.shape, &item.stated) {
            // Plain text of a plus board read as block: say how to read it.
            (None, None) => Error::invalid(format!("{e} (a plus board? give --shape plus)")),
            _ => e,
        }),
    }
}

impl Solve for Flip {
    type Options = SolveOptions;
    const ITEM: &'static str = "board";
    // A refused board among several is named and the rest are answered.
    const READ_AHEAD: bool = true;

    fn answer(options: &SolveOptions, item: &Item, json: bool) -> Result<Answer> {
        let (layout, board) = match board_of(options, item) {
            Ok(board) => board,
            Err(e) => return Ok(item.refused("board", e)),
        };
        let solver = Solver::new(layout);
        Ok(match solver.solve(&board)? {
            Solution::Solved(moves) => {
                let names: Vec<String> = moves.iter().map(|&m| layout.move_name(m)).collect();
                let line = if json {
                    serde_json::json!({"solvable": true, "min_moves": names.len(), "solution": names})
                        .to_string()
                } else if names.is_empty() {
                    "0 moves: already solved".to_string()
                } else {
                    format!(
                        "{} move{}: {}",
                        names.len(),
                        if names.len() == 1 { "" } else { "s" },
                        names.join(" ")
                    )
                };
                Answer::Done(line + "\n")
            }
            Solution::Unsolvable(why) => {
                let line = if json {
                    serde_json::json!({"solvable": false, "reason": why}).to_string()
                } else {
                    format!("cannot be solved: {why}")
                };
                Answer::Failed(line + "\n")
            }
        })
    }

    fn nothing_found(source: &str) -> Error {
        Error::invalid(format!(
            "{source}: no board found; give one line of 'o' and '-' per row"
        ))
    }

    fn failures(_options: &SolveOptions, failed: usize, items: usize) -> Option<String> {
        Some(format!(
            "{failed} of {items} board{} cannot be solved",
            if items == 1 { "" } else { "s" }
        ))
    }
}

/// The analysis of a layout as `flip analyze` prints it.
pub fn analysis_text(a: &Analysis) -> String {
    let injective = a.rank == a.moves;
    let mut s = format!(
        "Flip analysis: {} x {} move centres, {} moves, board {} x {}\n",
        a.rows, a.cols, a.shape, a.board_rows, a.board_cols
    );
    s += &format!("unknowns (moves):             {}\n", a.moves);
    s += &format!("equations (board cells):      {}\n", a.cells);
    s += &format!("rank of the move map:         {}\n", a.rank);
    s += &format!("null space dimension:         {}\n", a.nullity);
    s += &format!(
        "independent invariants:       {} (= {} - {})\n",
        a.invariants, a.cells, a.rank
    );
    s += &format!(
        "single-dot boards reachable from the target: {} of {}: {}\n",
        a.single_dot_reachable,
        a.single_dot_boards,
        a.reachable_cells.join(" ")
    );
    if injective {
        s += "The move map is injective: every board comes from at most one set of moves, so the set \
              that scrambled a board is its only solution and its size is the minimum.\n";
    } else {
        s += &format!(
            "The move map is not injective: each solvable board has 2^{} solving sets; the minimum is \
             found by searching the null space.\n",
            a.nullity
        );
    }
    s
}
