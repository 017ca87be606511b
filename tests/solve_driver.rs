//! The solve driver (`games::solve`) run on real games: one answer an item,
//! failures counted, options checked first, comment blocks and multi-line documents.

use puzzlebook::games::solve::{run, Report, Source};
use puzzlebook::games::{carcassonne, flip, numbrix, Games, Solve};
use puzzlebook::Result;

/// The output, standard error and report (or error) of a run over `input`.
fn run_on<G: Solve>(
    options: &G::Options,
    input: &str,
    json: bool,
) -> (String, String, Result<Report>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let source = Source::Reader(Box::new(input.as_bytes()), "input");
    let report = run::<Games, G>(options, source, json, &mut out, &mut err);
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
        report,
    )
}

#[test]
fn every_item_gets_one_answer_and_failures_are_counted() {
    let shape = flip::answer::SolveOptions {
        shape: Some(flip::Shape::Block),
    };
    let boards = "-----\n-ooo-\n-o-o-\n-ooo-\n-----\n\n-----\n-o---\n-----\n--o--\n-----\n";
    let (out, err, report) = run_on::<flip::Flip>(&shape, boards, false);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().nth(1).unwrap().starts_with("cannot be solved"));
    assert_eq!(err, "");
    let report = report.unwrap();
    assert_eq!((report.items, report.failed), (2, 1));
    assert_eq!(
        report.message.as_deref(),
        Some("1 of 2 boards cannot be solved")
    );
    // Nothing to answer is an error naming the input.
    let (_, _, report) = run_on::<flip::Flip>(&shape, "\n\n", false);
    assert!(report
        .unwrap_err()
        .to_string()
        .starts_with("input: no board found"));
}

#[test]
fn options_are_checked_before_reading() {
    let options = numbrix::answer::SolveOptions {
        max_nodes: 0,
        moves: Some(numbrix::Moves::Orthogonal),
    };
    let (_, _, report) = run_on::<numbrix::Numbrix>(&options, "", false);
    assert_eq!(
        report.unwrap_err().as_flag().to_string(),
        "--max-nodes is 0: give the search at least 1 node"
    );
}

#[test]
fn comment_blocks_are_skipped_and_several_items_are_numbered() {
    let options = numbrix::answer::SolveOptions {
        max_nodes: 1000,
        moves: Some(numbrix::Moves::Orthogonal),
    };
    let grids = "# a comment\n\n1 . .\n. . .\n. . 9\n\n1 2\n4 3\n";
    let (out, _, report) = run_on::<numbrix::Numbrix>(&options, grids, false);
    assert!(out.starts_with("grid 1: "), "{out}");
    assert!(out.contains("\n\ngrid 2: "), "{out}");
    assert_eq!(report.unwrap().items, 2);
}

#[test]
fn a_document_over_several_lines_is_one_item() {
    let options = carcassonne::answer::ScoreOptions {
        breakdown: false,
        farms: false,
    };
    let (out, _, report) =
        run_on::<carcassonne::Carcassonne>(&options, "[[[2,1,1,0,1]]\n]\n", false);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(report.unwrap().items, 1);
    // Among several lines a bad one goes to standard error, named by its line.
    let lines = "[[[2,1,1,0,1]]]\n[[[9]]]\n";
    let (out, err, report) = run_on::<carcassonne::Carcassonne>(&options, lines, false);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(err.starts_with("error: input: line 2: "), "{err}");
    let report = report.unwrap();
    assert_eq!((report.items, report.failed, report.message), (2, 1, None));
    // Alone, it is the run's error.
    let (_, _, report) = run_on::<carcassonne::Carcassonne>(&options, "[[[9]]]\n", false);
    assert!(report.unwrap_err().to_string().starts_with("input: "));
}
