//! A toy game added the way ARCHITECTURE.md's "Adding a game" says, to show the steps
//! are all there is: its types (here, where a real game has its crate), its line in a
//! registry (`registry!`), its [`GameCli`] impl and its line in `game_commands!`.
//! Its command then generates and its name makes a book, with no other file touched.

use super::*;
use clap::Parser;
use puzzlebook::canvas::{Align, Canvas, Face, Rect};
use puzzlebook::games::{Game, Outcome};
use puzzlebook::seed::Rng;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// "Missing Digit": three digits from 1 to 9 and their sum, one digit hidden.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields, default)]
pub struct ToyParams {
    /// The smallest sum kept
    #[arg(long, default_value_t = 10)]
    min_sum: u32,
}

impl Default for ToyParams {
    fn default() -> Self {
        ToyParams { min_sum: 10 }
    }
}

#[derive(Serialize)]
pub struct ToyPuzzle {
    digits: [u32; 3],
    hidden: usize,
    sum: u32,
}

pub struct MissingDigit(ToyParams);

impl Game for MissingDigit {
    const NAME: &'static str = "missing_digit";
    const TITLE: &'static str = "Missing Digit";
    type Params = ToyParams;
    type Puzzle = ToyPuzzle;

    fn new(params: ToyParams) -> Result<Self> {
        if params.min_sum > 27 {
            return Err(Error::param(
                "min_sum",
                "is over 27, the most three digits make",
            ));
        }
        Ok(MissingDigit(params))
    }
    fn params(&self) -> &ToyParams {
        &self.0
    }
    fn generate(&self, rng: &mut Rng) -> Outcome<ToyPuzzle> {
        let digits = [0; 3].map(|_| rng.random_range(1..=9));
        let sum = digits.iter().sum();
        if sum < self.0.min_sum {
            return Outcome::Rejected("too easy");
        }
        Outcome::Accepted(ToyPuzzle {
            digits,
            hidden: rng.random_range(0..3),
            sum,
        })
    }
    fn verify(&self, p: &ToyPuzzle) -> Result<()> {
        if p.digits.iter().sum::<u32>() != p.sum || p.hidden > 2 {
            return Err(Error::check("the digits do not make the sum"));
        }
        Ok(())
    }
    fn text(&self, p: &ToyPuzzle) -> String {
        let shown: Vec<String> = (0..3)
            .map(|i| {
                if i == p.hidden {
                    "?".into()
                } else {
                    p.digits[i].to_string()
                }
            })
            .collect();
        format!("{} = {}", shown.join(" + "), p.sum)
    }
}

impl Present for MissingDigit {
    fn draw(&self, p: &ToyPuzzle, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        let line = if with_solution {
            format!(
                "{} + {} + {} = {}",
                p.digits[0], p.digits[1], p.digits[2], p.sum
            )
        } else {
            self.text(p)
        };
        // Inside `area`, whatever its size: 14 pt where it has room, smaller in a narrow
        // column or a short row of the answer key (the book refuses text under 7 pt).
        let c = area.center();
        let across = area.w / puzzlebook::canvas::text_width(&line, 1.0, Face::Regular);
        let size = (area.h / puzzlebook::canvas::MM_PER_PT * 0.7)
            .min(across)
            .clamp(7.0, 14.0);
        canvas.text(c.x, c.y, size, Face::Regular, Align::Center, &line);
    }
    fn caption(&self, _: &ToyPuzzle) -> String {
        "Find the missing digit".into()
    }
    fn answer(&self, p: &ToyPuzzle) -> String {
        format!("The missing digit is {}", p.digits[p.hidden])
    }
    fn how_to_play(&self) -> String {
        "Three digits from 1 to 9 add up to the sum: find the one that is hidden.".into()
    }
}

// Step 2: its line in a registry (the program's is `Games`, in src/games/mod.rs); a
// real game stands beside it to show the toy is one of several.
puzzlebook::registry! {
    ToyGames;
    games:
        MissingDigit,
        puzzlebook::games::numbrix::Numbrix,
    ;
    statistics:
}

// Step 3: its command's words.
impl GameCli for MissingDigit {
    const COMMAND: &'static str = "missing-digit";
    const ALIAS: Option<&'static str> = Some("missing_digit");
    const ABOUT: &'static str = "Missing Digit: find the hidden digit of a sum";
    const GENERATE_ABOUT: &'static str = "Generate sums with one digit hidden";
    const GENERATE_EXAMPLE: &'static str =
        "Example:\n  puzzlebook missing-digit generate --count 3";
    type GenerateArgs = ToyParams;
    type Format = GenFormat;
    type Solving = Nothing;
    type Own = Nothing;
    fn from_args(params: ToyParams) -> Result<Self> {
        MissingDigit::new(params)
    }
}

// Step 4: its line in the command line's list.
game_commands! {
    ToyCommands:
        MissingDigit(MissingDigit),
        Numbrix(puzzlebook::games::numbrix::Numbrix),
}

#[derive(Parser)]
struct ToyCli {
    #[command(subcommand)]
    command: ToyCommands,
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("puzzlebook-toy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_toy_game_generates_through_its_command() {
    let dir = temp_dir("generate");
    let out = dir.join("sums.jsonl");
    let cli = ToyCli::try_parse_from([
        "puzzlebook",
        "missing-digit",
        "generate",
        "--count",
        "5",
        "--min-sum",
        "20",
        "--out",
        out.to_str().unwrap(),
    ])
    .unwrap();
    let code = cli
        .command
        .run::<ToyGames>(Ctx {
            jobs: 1,
            progress: false,
        })
        .unwrap();
    assert_eq!(code, ExitCode::SUCCESS);
    let text = std::fs::read_to_string(&out).unwrap();
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 5);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["game"], "missing_digit");
        assert_eq!(r["index"], i as u64);
        // Checked here, not by the game's own verify: three digits 1..=9, their sum,
        // at least the flag's 20, and a hidden place among the three.
        let digits: Vec<u64> = r["digits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_u64().unwrap())
            .collect();
        assert_eq!(digits.len(), 3);
        assert!(digits.iter().all(|d| (1..=9).contains(d)), "{r}");
        let sum = r["sum"].as_u64().unwrap();
        assert_eq!(digits.iter().sum::<u64>(), sum);
        assert!(sum >= 20, "--min-sum 20 reached the game: {r}");
        assert!(r["hidden"].as_u64().unwrap() < 3);
    }
    // The flag's bound is checked by the game, as a flag's error.
    let cli =
        ToyCli::try_parse_from(["puzzlebook", "missing-digit", "generate", "--min-sum", "28"])
            .unwrap();
    let err = cli
        .command
        .run::<ToyGames>(Ctx {
            jobs: 1,
            progress: false,
        })
        .unwrap_err();
    assert!(err.to_string().contains("min-sum"), "{err}");
    // The real game beside it still answers to its own command.
    assert!(ToyCli::try_parse_from(["puzzlebook", "numbrix", "generate", "--size", "5"]).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_toy_game_makes_a_book_by_its_name() {
    use puzzlebook::book::{build, template::Template, BookOptions};
    let text =
        "title = \"Sums\"\n\n[[section]]\ngame = \"missing_digit\"\ncount = 6\n[section.params]\nmin_sum = 15\n";
    let template = Template::parse::<ToyGames>(text).unwrap();
    let book = build::<ToyGames>(&template, &BookOptions::default()).unwrap();
    assert_eq!(book.puzzles, 6);
    assert!(
        Template::parse::<puzzlebook::games::Games>(text).is_err(),
        "the program's registry has no toy"
    );
    // A key the toy's parameters do not have is the book's error, as for any game.
    let bad = text.replace("min_sum = 15", "max_sum = 15");
    let err = Template::parse::<ToyGames>(&bad)
        .and_then(|t| build::<ToyGames>(&t, &BookOptions::default()).map(|_| ()))
        .unwrap_err();
    assert!(err.to_string().contains("max_sum"), "{err}");
}
