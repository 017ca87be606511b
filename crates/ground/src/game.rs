//! The contract every game meets: [`Game`] (one seeded attempt, its independent check,
//! its drawing and text), the optional [`Solve`] capability, and [`GameVisitor`], what
//! a registry of games runs for a game chosen by name.
//!
//! The pipeline ([`crate::batch`]), the book and the statistics only ever see these
//! traits; the registry that names the games lives above every game, in the binary
//! crate, so no game can see another.

use crate::canvas::{Canvas, Rect};
use crate::seed::Rng;
use crate::solve;
use crate::Result;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The result of one seeded generation attempt.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    /// The attempt produced something worth keeping.
    Accepted(T),
    /// The attempt was thrown away; the reason is counted in the run's statistics.
    Rejected(&'static str),
}

/// A configured game: parameters are validated once in [`Game::new`] (where expensive
/// set-up such as a solver's precomputation happens), then every item is one call of
/// [`Game::generate`] with that item's own random stream.
///
/// A toy game, "Missing digit": three digits and their sum with one digit hidden. The
/// pipeline ([`crate::batch::collect`]) runs it in parallel, verifies every item with
/// [`Game::verify`], and gives the same items at any thread count. Its [`Present`]
/// impl is what a book prints of it.
///
/// ```
/// use puzzlebook_ground::batch::{collect, Env, RunOptions};
/// use puzzlebook_ground::canvas::{Align, Canvas, Face, Rect};
/// use puzzlebook_ground::game::{Game, Outcome, Present};
/// use puzzlebook_ground::seed::Rng;
/// use puzzlebook_ground::{Error, Result};
/// use rand::Rng as _;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Debug, Clone, Serialize, Deserialize)]
/// #[serde(deny_unknown_fields, default)]
/// struct Params {
///     /// The smallest sum kept (easy puzzles are thrown away).
///     min_sum: u32,
/// }
/// impl Default for Params {
///     fn default() -> Self {
///         Params { min_sum: 10 }
///     }
/// }
///
/// #[derive(Serialize)]
/// struct Puzzle {
///     digits: [u32; 3],
///     hidden: usize,
///     sum: u32,
/// }
///
/// struct MissingDigit(Params);
///
/// impl Game for MissingDigit {
///     const NAME: &'static str = "missing_digit";
///     const TITLE: &'static str = "Missing Digit";
///     type Params = Params;
///     type Puzzle = Puzzle;
///
///     fn new(params: Params) -> Result<Self> {
///         if params.min_sum > 27 {
///             return Err(Error::param("min_sum", "is over 27, the most three digits make"));
///         }
///         Ok(MissingDigit(params))
///     }
///     fn params(&self) -> &Params {
///         &self.0
///     }
///     fn generate(&self, rng: &mut Rng) -> Outcome<Puzzle> {
///         let digits = [0; 3].map(|_| rng.random_range(1..=9));
///         let sum = digits.iter().sum();
///         if sum < self.0.min_sum {
///             return Outcome::Rejected("too easy");
///         }
///         Outcome::Accepted(Puzzle { digits, hidden: rng.random_range(0..3), sum })
///     }
///     fn verify(&self, p: &Puzzle) -> Result<()> {
///         if p.digits.iter().sum::<u32>() != p.sum || p.hidden > 2 {
///             return Err(Error::check("the digits do not make the sum"));
///         }
///         Ok(())
///     }
///     fn text(&self, p: &Puzzle) -> String {
///         let shown: Vec<String> = (0..3)
///             .map(|i| if i == p.hidden { "?".into() } else { p.digits[i].to_string() })
///             .collect();
///         format!("{} = {}", shown.join(" + "), p.sum)
///     }
/// }
///
/// impl Present for MissingDigit {
///     fn draw(&self, p: &Puzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
///         let line = if with_solution {
///             format!("{} + {} + {} = {}", p.digits[0], p.digits[1], p.digits[2], p.sum)
///         } else {
///             self.text(p)
///         };
///         let c = area.center();
///         canvas.text(c.x, c.y, 14.0, Face::Regular, Align::Center, &line);
///     }
///     fn caption(&self, _: &Puzzle) -> String {
///         "Find the missing digit".into()
///     }
///     fn answer(&self, p: &Puzzle) -> String {
///         format!("The missing digit is {}", p.digits[p.hidden])
///     }
///     fn how_to_play(&self) -> String {
///         "Three digits from 1 to 9 add up to the sum: find the one that is hidden.".into()
///     }
/// }
///
/// # fn main() -> Result<()> {
/// let game = MissingDigit::new(Params::default())?;
/// let one_thread = RunOptions { seed: 7, env: Env { jobs: 1, progress: false }, ..RunOptions::default() };
/// let two_threads = RunOptions { env: Env { jobs: 2, progress: false }, ..one_thread.clone() };
/// let (items, summary) = collect(&game, &one_thread, 20)?;
/// assert_eq!(items.len(), 20);
/// assert!(items.iter().all(|it| it.puzzle.sum >= 10 && game.verify(&it.puzzle).is_ok()));
/// // The same seed gives the same puzzles at any thread count.
/// let (again, _) = collect(&game, &two_threads, 20)?;
/// let texts = |v: &[puzzlebook_ground::batch::Item<Puzzle>]| {
///     v.iter().map(|it| game.text(&it.puzzle)).collect::<Vec<_>>()
/// };
/// assert_eq!(texts(&items), texts(&again));
/// # let _ = summary;
/// # Ok(())
/// # }
/// ```
pub trait Game: Sized + Sync + Send + 'static {
    /// The name used on the command line, in templates and in records ("flip").
    const NAME: &'static str;
    /// The name printed in books ("Flip").
    const TITLE: &'static str;
    /// Parameters as they appear in a template section or on the command line.
    /// Implementations reject unknown keys (`#[serde(deny_unknown_fields)]`).
    type Params: DeserializeOwned + Serialize + Clone + Default + Send + Sync + std::fmt::Debug;
    /// One generated item, with its solution. Serialised into the item's record.
    type Puzzle: Serialize + Send + Sync;

    /// Validate the parameters and prepare whatever generation needs.
    fn new(params: Self::Params) -> Result<Self>;
    /// The parameters the game was made with (recorded in part files).
    fn params(&self) -> &Self::Params;
    /// One seeded attempt.
    fn generate(&self, rng: &mut Rng) -> Outcome<Self::Puzzle>;
    /// An independent check of a puzzle and its solution (not the generator's own word).
    /// A puzzle that fails is [`crate::Error::Check`], saying what is wrong.
    fn verify(&self, puzzle: &Self::Puzzle) -> Result<()>;
    /// A plain-text rendering for the terminal.
    fn text(&self, puzzle: &Self::Puzzle) -> String;
    /// Read a puzzle back from its JSON record (as `generate` writes it), so that a
    /// record from elsewhere (a part being merged) can be re-checked with
    /// [`Game::verify`]. None: this game's records are not read back.
    fn read_record(&self, _record: &serde_json::Value) -> Option<Result<Self::Puzzle>> {
        None
    }
    /// The settings of this configuration that change what a puzzle is or how it is
    /// scored, where they differ from what `solve` assumes (Flip's `shape=plus`,
    /// Numbrix's `moves=king`, ...): `generate --format text` lists them in each
    /// item's header, so `solve` reads a text item as the puzzle it is. Keys are the
    /// record's field names. Empty: none.
    fn text_settings(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// The puzzle as canonical text: equal for two puzzles exactly when they are the
    /// same puzzle up to the board's symmetries (Flip: rotations and mirrors; Numbrix
    /// and Hidato: those and numbering backwards). A catalogue of published puzzles
    /// keeps its fingerprint ([`crate::catalogue::fingerprint`]). The default is the
    /// whole record, which treats every difference as a new puzzle.
    fn canonical(&self, puzzle: &Self::Puzzle) -> String {
        serde_json::to_string(puzzle).expect("puzzles serialise")
    }
    /// At most this many calls of `generate` per item (a game whose `generate` runs its
    /// own attempt loop says 1).
    fn attempt_budget(&self) -> u64 {
        u64::MAX
    }
}

/// How a game presents its puzzles in a book (and in pictures): drawings, captions,
/// answers, ratings, the "how to play" page and what the cover takes from it. The book
/// sees a game through this trait and [`Game`]; the pipeline through [`Game`] alone.
pub trait Present: Game {
    /// Draw the puzzle (or its solution) into `area` of a page, keeping its ink inside
    /// `area`: the answer key may hand a shorter box than [`Present::aspect`] gives when
    /// that fits one more row a page, and a book whose ink leaves its page's margins is
    /// refused.
    fn draw(&self, puzzle: &Self::Puzzle, canvas: &mut Canvas, area: Rect, with_solution: bool);
    /// Width / height of a drawing, so page layouts can size their boxes.
    fn aspect(&self) -> f32 {
        1.0
    }
    /// Draw the puzzle as a cover shows it (the front's art, the back's sample): the
    /// puzzle alone, without the play aids a page gives it (Number Match's spare
    /// copy), inside `area`. The default is [`Present::draw`] without the solution.
    fn draw_cover(&self, puzzle: &Self::Puzzle, canvas: &mut Canvas, area: Rect) {
        self.draw(puzzle, canvas, area, false);
    }
    /// Width / height of [`Present::draw_cover`]'s drawing.
    fn cover_aspect(&self) -> f32 {
        self.aspect()
    }
    /// One short line printed with the puzzle in a book ("Solve in 11 moves").
    fn caption(&self, puzzle: &Self::Puzzle) -> String;
    /// One short line printed with the solution in the answer key.
    fn answer(&self, puzzle: &Self::Puzzle) -> String;
    /// How to play, in plain words for players (used when a section gives no intro).
    fn how_to_play(&self) -> String;
    /// Adjust `params` for a greyscale book so the drawings read without colour (Catan
    /// switches to its greyscale style, which names every terrain). The default keeps
    /// them: the PDF writer turns every colour into its grey, and a game whose colours
    /// only help (never carry meaning alone) needs nothing more.
    fn for_greyscale(_params: &mut Self::Params) {}
    /// Every name [`Present::title`] gives for some configuration (Numbrix: "Numbrix"
    /// and "Hidato"): what a book's cover text may name this game by.
    const TITLES: &'static [&'static str] = &[Self::TITLE];
    /// The names of this game that are registered trademarks of others ("Catan"): a
    /// print service may refuse a book whose title or subtitle holds one, so `book`
    /// warns. Empty for a game whose names anyone may use.
    const TRADEMARKS: &'static [&'static str] = &[];
    /// The name printed in books for this configuration (Numbrix with king moves is
    /// "Hidato"); [`Game::TITLE`] unless a game says otherwise.
    fn title(&self) -> &'static str {
        Self::TITLE
    }
    /// What one item is called in a book ("Puzzle", "Board").
    fn label(&self) -> &'static str {
        "Puzzle"
    }
    /// The size of this configuration's puzzles in a few words for a book's back
    /// cover ("9 × 9", "30 tiles"). None: the cover names no size.
    fn size_label(&self) -> Option<String> {
        None
    }
    /// The pattern a book's cover draws behind its title when this game fills most
    /// of the book.
    fn motif(&self) -> Motif {
        Motif::Grid
    }
    /// Whether books print an answer key for this game.
    fn has_answers(&self) -> bool {
        true
    }
    /// How hard the puzzle is by the game's own measure (books order each section by
    /// `score`, easiest first, and print the stars). None: the game does not rate.
    fn rating(&self, _puzzle: &Self::Puzzle) -> Option<Rating> {
        None
    }
    /// The answer drawing's natural size (width, height) in the game's own units (a
    /// Carcassonne tile), when answers of different sizes should share one scale: the
    /// answer key then draws a section's answers at one size per unit. None: each
    /// answer is fitted to its box on its own.
    fn answer_units(&self, _puzzle: &Self::Puzzle) -> Option<(f32, f32)> {
        None
    }
    /// With [`Present::answer_units`]: the size of a unit, in mm, at which an answer reads
    /// comfortably; a section is drawn at least this large where the page allows, and
    /// the drawing itself must stay legible when the page allows less. 0: the book
    /// finds the smallest legible size by drawing.
    fn answer_unit_mm(&self) -> f32 {
        0.0
    }
    /// Width / height of this puzzle's drawn solution in the answer key.
    fn answer_aspect(&self, _puzzle: &Self::Puzzle) -> f32 {
        self.aspect()
    }
    /// Draw the solution for the answer key (small: several to a page). Text at least
    /// [`crate::canvas::MIN_TEXT_PT`] when the area allows; the book picks the size.
    fn draw_answer(&self, puzzle: &Self::Puzzle, canvas: &mut Canvas, area: Rect) {
        self.draw(puzzle, canvas, area, true);
    }
    /// Printed once above this game's answers in a section's key (e.g. what the
    /// abbreviations in the answers mean).
    fn answer_note(&self) -> Option<String> {
        None
    }
    /// A small worked example for the "how to play" page: a tiny puzzle solved step by
    /// step, drawn inside `area` (text at least `MIN_TEXT_PT`). False: none.
    fn draw_example(&self, _canvas: &mut Canvas, _area: Rect) -> bool {
        false
    }
    /// How much of the rules this configuration's worked example shows, when sections
    /// share a "how to play" page: the page draws the example of the section with the
    /// highest (a shaped grid's example, with dark squares, over a square one's).
    fn example_detail(&self) -> u8 {
        0
    }
}

/// The optional capability of answering for given items: solve a board, score a
/// landscape (`puzzlebook <game> solve` or `score`). The driver, [`solve::run`], reads
/// the items, checks for a stop before each, writes the answers and counts failures;
/// the game says what one answer is.
pub trait Solve: Game {
    /// The options of one run (the command's flags).
    type Options;
    /// What one item is called in messages ("board", "grid", "landscape").
    const ITEM: &'static str;
    /// How a file or standard input is cut into items.
    const SPLIT: solve::Split = solve::Split::Blocks;
    /// Whether answers need to know if more items follow ([`solve::Item::many`]): the
    /// next item is then read before this one is answered.
    const READ_AHEAD: bool = false;
    /// Whether each answer is written out as soon as it is found (answers that can
    /// take long); otherwise they are buffered.
    const FLUSH_EACH: bool = false;
    /// Refuse bad options before any input is read.
    fn check(_options: &Self::Options) -> Result<()> {
        Ok(())
    }
    /// Whether a record of the input is an item to answer; false for what `generate`
    /// prints beside an item (a solution block), which is passed over.
    fn is_item(_text: &str) -> bool {
        true
    }
    /// The answer for one item, as text or as one JSON document (with its newline).
    /// An error ends the run.
    fn answer(options: &Self::Options, item: &solve::Item, json: bool) -> Result<solve::Answer>;
    /// The error when the input (`source`) holds no item.
    fn nothing_found(source: &str) -> crate::Error;
    /// What to say when `failed` of `items` answers failed (None: the answers said it).
    fn failures(options: &Self::Options, failed: usize, items: usize) -> Option<String>;
}

/// How hard one puzzle is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// Orders a section: lower is easier. Ties keep the generation order.
    pub score: f64,
    /// 1 (easiest) to 5, on a scale fixed by the game (the same puzzle gets the same
    /// stars in every book).
    pub stars: u8,
}

/// A cover's background pattern, drawn faintly from the game's own look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Motif {
    /// Square grid lines.
    Grid,
    /// A random path through every cell of a grid (Numbrix, Hidato).
    Path,
    /// A hexagon tiling (Catan).
    Hexes,
    /// Square tiles with roads and city walls (Carcassonne).
    Tiles,
    /// Rows of digits, some pairs crossed out (Number Match).
    Digits,
    /// Dots, filled and open (Flip).
    Dots,
    /// No pattern: the background colour alone.
    Plain,
}

impl Motif {
    /// Every motif, in the order the docs list them.
    pub const ALL: [Motif; 7] = [
        Motif::Grid,
        Motif::Path,
        Motif::Hexes,
        Motif::Tiles,
        Motif::Digits,
        Motif::Dots,
        Motif::Plain,
    ];
}

/// Something to do with a game chosen by name at run time (the registry's visitor).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Do the work for game `G` (the registry calls this with the named game).
    fn visit<G: Present>(self) -> Self::Output;
}

/// The games and kinds of statistics a program knows, chosen by name at run time.
///
/// The binary crate implements it once, with one line a game; the floors below it (the
/// solve driver here, the book, the jobs) take it as a type parameter and so never name
/// a game themselves.
pub trait Registry: 'static {
    /// Every game's name as [`Game::NAME`] spells it, in the order books and help list
    /// them.
    const GAMES: &'static [&'static str];
    /// Every kind of statistics output as [`Statistic::KIND`](crate::statistic::Statistic::KIND)
    /// spells it.
    const STATISTICS: &'static [&'static str];

    /// Run `visitor` with the game called `name` (either spelling, see
    /// [`Registry::canonical`]); an unknown name is [`crate::Error::UnknownGame`].
    fn visit<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output>;

    /// Run `visitor` with the kind of statistics called `kind` (either spelling, see
    /// [`Registry::statistic_kind`]); None when no kind has that name.
    fn visit_statistic<V: crate::statistic::StatVisitor>(kind: &str, visitor: V) -> Option<V::Out>;

    /// The game's name as [`Game::NAME`] spells it, for either spelling of a name of two
    /// words (`number_match` or `number-match`, as the command line writes it); None for
    /// no game.
    fn canonical(name: &str) -> Option<&'static str> {
        Self::GAMES
            .iter()
            .copied()
            .find(|known| *known == name || known.replace('_', "-") == name)
    }

    /// The game's name as [`Game::NAME`] spells it (either spelling, as
    /// [`Registry::canonical`]), or [`crate::Error::UnknownGame`] naming the games there
    /// are (the name given shortened and escaped for the message).
    fn game(name: &str) -> Result<&'static str> {
        Self::canonical(name).ok_or_else(|| crate::Error::UnknownGame {
            name: crate::input::excerpt(name),
            known: Self::GAMES,
        })
    }

    /// The kind of statistics called `kind` (also spelled with `_` for `-`), as
    /// [`Registry::STATISTICS`] spells it; None when no kind has that name.
    fn statistic_kind(kind: &str) -> Option<&'static str> {
        Self::STATISTICS
            .iter()
            .copied()
            .find(|k| *k == kind || k.replace('-', "_") == kind)
    }
}
