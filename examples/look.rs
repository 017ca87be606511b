//! Renders every game's drawings at book sizes into one PDF for a person to look at:
//! for each configuration a few puzzles, their solutions and answer-key drawings with
//! the answer line, then the "how to play" worked example at A4 and 6 x 9 sizes.
//!
//!     cargo run --release --example look [OUT.pdf] [GAME]
//!     cargo run --release --example look -- --shapes
//!
//! OUT.pdf defaults to `look.pdf` in the current folder; GAME (flip, numbrix,
//! number_match, catan, carcassonne) keeps only that game. `--shapes` prints Numbrix's
//! built-in shapes at 9 x 9 instead. Nothing here is a test: the tests check the same
//! drawings against the print rules; this is for the eye.

use puzzlebook::batch::{collect, Env, RunOptions};
use puzzlebook::book::render_pages;
use puzzlebook::canvas::{Align, Canvas, Face, Rect};
use puzzlebook::games::carcassonne::Carcassonne;
use puzzlebook::games::catan::Catan;
use puzzlebook::games::flip::Flip;
use puzzlebook::games::number_match::NumberMatch;
use puzzlebook::games::numbrix::shape::SHAPES;
use puzzlebook::games::numbrix::{Mask, Numbrix};
use puzzlebook::games::Present;
use puzzlebook::Result;

/// A game made from its parameters as a template section writes them.
fn game<G: Present>(params: &str) -> Result<G> {
    let params: G::Params =
        toml::from_str(params).map_err(|e| puzzlebook::Error::invalid(format!("{params}: {e}")))?;
    G::new(params)
}

/// A page of `n` puzzles of `g` (puzzle, solution, answer drawing and line each), and
/// a page of its worked example at the two book sizes.
fn pages_of<G: Present>(g: &G, what: &str, n: u64, pages: &mut Vec<Canvas>) -> Result<()> {
    let opts = RunOptions {
        seed: 1,
        env: Env {
            jobs: 0,
            progress: false,
        },
        ..RunOptions::default()
    };
    let (items, _) = collect(g, &opts, n)?;
    let mut c = Canvas::new();
    c.text(10.0, 12.0, 12.0, Face::Bold, Align::Left, what);
    let row_h = 270.0 / n as f32;
    for (k, item) in items.iter().enumerate() {
        let y = 20.0 + k as f32 * row_h;
        let h = row_h - 14.0;
        let w = (h * g.aspect()).min(60.0);
        let p = &item.puzzle;
        g.draw(p, &mut c, Rect::new(10.0, y, w, w / g.aspect()), false);
        g.draw(p, &mut c, Rect::new(75.0, y, w, w / g.aspect()), true);
        let aw = (h * g.answer_aspect(p)).min(60.0);
        g.draw_answer(p, &mut c, Rect::new(140.0, y, aw, aw / g.answer_aspect(p)));
        let line = format!("{} | {}", g.caption(p), g.answer(p));
        let line: String = line.chars().take(110).collect();
        c.text(10.0, y + h + 6.0, 7.0, Face::Regular, Align::Left, &line);
    }
    pages.push(c);
    let mut c = Canvas::new();
    c.text(
        10.0,
        12.0,
        12.0,
        Face::Bold,
        Align::Left,
        &format!("{what}: worked example"),
    );
    g.draw_example(&mut c, Rect::new(15.0, 20.0, 180.0, 150.0));
    g.draw_example(&mut c, Rect::new(15.0, 180.0, 125.0, 110.0));
    pages.push(c);
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--shapes") {
        for name in SHAPES {
            let m = Mask::named(name, 9, 9)?;
            println!("{name}:\n{}\n", m.to_rows().join("\n"));
        }
        return Ok(());
    }
    let out = args.first().map_or("look.pdf", String::as_str).to_string();
    let only = args.get(1).cloned();
    let wants = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut pages = Vec::new();
    if wants("flip") {
        for (what, p) in [
            ("Flip 5 x 5", "size = 5\nmin_moves = 8"),
            (
                "Flip Plus 5 x 5",
                "size = 5\nshape = \"plus\"\nmin_moves = 5",
            ),
        ] {
            pages_of(&game::<Flip>(p)?, what, 3, &mut pages)?;
        }
    }
    if wants("numbrix") {
        for (what, p) in [
            ("Numbrix 9 x 9, easy", "size = 9\ndifficulty = \"easy\""),
            ("Hidato 8 x 8", "size = 8\nmoves = \"king\""),
            ("Numbrix 9 x 9 frame", "size = 9\nshape = \"frame\""),
        ] {
            pages_of(&game::<Numbrix>(p)?, what, 3, &mut pages)?;
        }
    }
    if wants("number_match") {
        for (what, p) in [
            (
                "Number Match, 1 add, new-row",
                "adds = 1\nappend = \"new-row\"",
            ),
            (
                "Number Match, hard, with a spare copy",
                "adds = 1\ndifficulty = \"hard\"\nappend = \"new-row\"",
            ),
        ] {
            pages_of(&game::<NumberMatch>(p)?, what, 3, &mut pages)?;
        }
    }
    if wants("catan") {
        for (what, p) in [
            (
                "Catan base, reds apart",
                "board = \"base\"\nrules = \"red-apart\"",
            ),
            ("Catan greyscale", "board = \"base\"\nstyle = \"greyscale\""),
        ] {
            pages_of(&game::<Catan>(p)?, what, 2, &mut pages)?;
        }
    }
    if wants("carcassonne") {
        for (what, p) in [
            ("Carcassonne, 20 tiles", "tiles = 20"),
            ("Carcassonne, 50 tiles", "tiles = 50"),
        ] {
            pages_of(&game::<Carcassonne>(p)?, what, 2, &mut pages)?;
        }
    }
    let pdf = render_pages("look", (210.0, 297.0), &pages)?;
    std::fs::write(&out, pdf)
        .map_err(|e| puzzlebook::Error::io("cannot write", std::path::Path::new(&out), e))?;
    println!("wrote {out}: {} pages", pages.len());
    Ok(())
}
