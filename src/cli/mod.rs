//! The subcommands: parse the command line, call the library, print what it returns.
//! Nothing here computes: games, statistics and jobs live in the library.

mod games;
mod generate;
mod jobs;
mod preflight;
mod solve;
mod stats;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use games::RunCommand;
use puzzlebook::shard::Shard;
use puzzlebook::Result;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Set when events go to standard error as JSON (`run --json-log`), so the stop
/// notice is JSON too.
pub static JSON_LOG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

// The command line: global flags and the subcommand. (A plain comment on purpose: a
// doc comment here would become clap's help text.)
#[derive(Parser)]
#[command(
    name = "puzzlebook",
    version = env!("PUZZLEBOOK_VERSION"),
    about = "Seeded, parallel generation of printable puzzle books and board statistics"
)]
pub struct Cli {
    /// Worker threads (default: one per core)
    #[arg(
        short = 'j',
        long = "jobs",
        global = true,
        default_value_t = 0,
        hide_default_value = true
    )]
    jobs: usize,
    /// No progress bar (it is also off when stderr is not a terminal)
    #[arg(short = 'q', long = "quiet", global = true)]
    quiet: bool,
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Make a PDF puzzle book from a template
    #[command(
        after_help = "Example:\n  puzzlebook book --template templates/default.toml --seed 7 --out output/book.pdf"
    )]
    Book(jobs::BookArgs),
    /// Make the full-wrap paperback cover for the book a template makes
    #[command(
        after_help = "Example:\n  puzzlebook cover --template templates/numbrix-6x9.toml --paper cream --out output/cover.pdf"
    )]
    Cover(jobs::CoverArgs),
    /// Every game's commands (games/mod.rs: one line a game).
    #[command(flatten)]
    Game(games::GameCommands),
    /// Make every output a job file names; skip what is made; shards and their merge
    #[command(
        after_help = "Examples:\n  puzzlebook run examples/nightly.toml\n  puzzlebook run examples/nightly.toml --shard 0/4   (then 1/4, 2/4, 3/4, anywhere)\n  puzzlebook run examples/nightly.toml --merge\n  SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=4 puzzlebook run JOB.toml --shard-from-env"
    )]
    Run(jobs::RunJobArgs),
    /// Combine the part files of a sharded run into the single-run output
    #[command(
        after_help = "Example:\n  puzzlebook merge --out output/numbrix.jsonl output/numbrix.part-*"
    )]
    Merge(jobs::MergeArgs),
    /// Check the files of a manifest against their recorded SHA-256 and size
    #[command(after_help = "Example:\n  puzzlebook verify output/nightly/manifest.json")]
    Verify { manifest: PathBuf },
    /// Catalogues of published puzzles: merge them (from shards, machines, series) or count them
    #[command(subcommand)]
    Catalogue(jobs::CatalogueCommand),
    /// Print a shell completion script (install lines in the README)
    #[command(
        after_help = "Examples:\n  puzzlebook completions bash > ~/.local/share/bash-completion/completions/puzzlebook\n  puzzlebook completions zsh > ~/.zfunc/_puzzlebook      (with fpath+=~/.zfunc in ~/.zshrc)\n  puzzlebook completions fish > ~/.config/fish/completions/puzzlebook.fish"
    )]
    Completions {
        /// bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of puzzlebook or of one of its commands
    #[command(
        after_help = "Examples:\n  puzzlebook man > ~/.local/share/man/man1/puzzlebook.1 && man puzzlebook\n  puzzlebook man flip generate | man -l -"
    )]
    Man {
        /// The command whose page to print (none: puzzlebook's own page)
        command: Vec<String>,
    },
    /// Check an interior PDF against a print service's rules (boxes, margins, fonts, ...)
    #[command(
        after_help = "Examples:\n  puzzlebook preflight output/book.pdf\n  puzzlebook preflight output/book.pdf --service ingram --json\n\nExit status: 0 nothing fails (warnings allowed), 1 something fails or the file cannot be read, 2 usage."
    )]
    Preflight(preflight::PreflightArgs),
}

/// What every command may use: worker threads and whether to draw progress.
#[derive(Clone, Copy)]
pub struct Ctx {
    /// Worker threads (resolved: at least 1).
    pub jobs: usize,
    /// Whether to draw a progress bar.
    pub progress: bool,
}

/// The output format of `generate`.
#[derive(Clone, Copy, ValueEnum)]
pub enum GenFormat {
    /// One JSON record per item, a line each
    Jsonl,
    /// Each item as text for the terminal
    Text,
    /// One SVG file per puzzle and per solution, in --out-dir
    Svg,
    /// One PNG file per puzzle and per solution, in --out-dir, at --dpi
    Png,
}

/// The output format of `solve` and `analyze`.
#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum SolveFormat {
    Text,
    /// One JSON document an item, a line each (also spelled jsonl)
    #[value(alias = "jsonl")]
    Json,
}

/// The run flags of every `generate`.
#[derive(Args)]
pub struct RunArgs {
    /// How many items
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Master seed
    #[arg(long, default_value_t = puzzlebook::seed::DEFAULT_SEED)]
    seed: u64,
    /// Index of the first item (to regenerate one item of a larger run)
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Make only the items with index mod N == K, as a part file for `merge` (with
    /// --format svg or png, only their image files)
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Write here instead of standard output
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folder for the files of --format svg or png (created if missing)
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
    /// Resolution of --format png, 72 to 1200 dots per inch [default: 300]; an image
    /// may have at most 40 million pixels
    #[arg(long)]
    dpi: Option<u32>,
    /// Replace image files that already exist in --out-dir
    #[arg(long)]
    force: bool,
}

/// The command line, parsed. A usage error is printed as clap words it (exit status
/// 2), except that a value it echoes is cut to a short excerpt: a huge argument
/// cannot flood the terminal.
pub fn parse() -> Cli {
    // A control character in an argument would reach the terminal raw in clap's
    // usage errors (which quote the value) and make a name no one can type: refused
    // first, with the value escaped.
    for (i, arg) in std::env::args_os().enumerate().skip(1) {
        let arg = arg.to_string_lossy();
        if arg.chars().any(char::is_control) {
            eprintln!(
                "error: argument {i} ('{}') holds a control character: arguments may not hold them",
                puzzlebook::input::excerpt(&puzzlebook::input::escape_controls(&arg))
            );
            // Bad input (1), as the same name refused in a job file is.
            std::process::exit(1);
        }
    }
    match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            let text = e.to_string();
            if text.lines().all(|l| l.len() <= MAX_ECHO_LINE) {
                e.exit()
            }
            eprint!("{}", shorten_echoes(&text));
            std::process::exit(e.exit_code())
        }
    }
}

/// Lines of a usage error longer than this have their quoted values cut.
const MAX_ECHO_LINE: usize = 200;

/// `text` with every single-quoted value longer than an excerpt cut to one
/// ([`puzzlebook::input::excerpt`]), on the lines longer than [`MAX_ECHO_LINE`]; a
/// line still too long after that is cut at that length.
fn shorten_echoes(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.len() <= MAX_ECHO_LINE {
            out.push_str(line);
            continue;
        }
        let mut short = String::new();
        for (i, part) in line.split('\'').enumerate() {
            if i > 0 {
                short.push('\'');
            }
            // Odd parts are inside quotes.
            if i % 2 == 1 {
                short.push_str(&puzzlebook::input::excerpt(part));
            } else {
                short.push_str(part);
            }
        }
        if short.len() > MAX_ECHO_LINE {
            let cut: String = short.chars().take(MAX_ECHO_LINE).collect();
            short = format!("{cut}...\n");
        }
        out.push_str(&short);
    }
    out
}

/// Write `text` to standard output. A closed pipe (`... | head -1`) is an error the
/// process ends on quietly (see `main`), never a panic.
/// The manual page (roff) of the command at `path` (empty: puzzlebook itself), from
/// the clap tree, so it says what `--help` says.
fn man_page(path: &[String]) -> Result<String> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut at = &cmd;
    for (i, name) in path.iter().enumerate() {
        let Some(sub) = at.find_subcommand(name) else {
            let known: Vec<&str> = at.get_subcommands().map(|c| c.get_name()).collect();
            let parent = if i == 0 {
                "puzzlebook".to_string()
            } else {
                format!("puzzlebook {}", path[..i].join(" "))
            };
            return Err(puzzlebook::Error::invalid(if known.is_empty() {
                format!(
                    "{parent} has no commands: give `puzzlebook man {}`",
                    path[..i].join(" ")
                )
            } else {
                format!(
                    "{parent} has no command '{}'{}: choose one of {}",
                    puzzlebook::input::excerpt(name),
                    puzzlebook::input::suggestion(name, known.iter().copied()),
                    known.join(", ")
                )
            }));
        };
        at = sub;
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(at.clone())
        .source(format!("puzzlebook {}", env!("PUZZLEBOOK_VERSION")))
        .manual("puzzlebook manual")
        .render(&mut page)
        .map_err(|e| puzzlebook::Error::io("cannot write", "the manual page", e))?;
    Ok(String::from_utf8_lossy(&page).into_owned())
}

pub fn say(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| puzzlebook::Error::io("cannot write to", "standard output", e))
}

/// Run the parsed command.
pub fn run(cli: Cli) -> Result<ExitCode> {
    let progress = !cli.quiet && std::io::stderr().is_terminal();
    puzzlebook::limits::check_address_space().map_err(puzzlebook::Error::Invalid)?;
    let (jobs, note) = puzzlebook::limits::threads(cli.jobs);
    if let Some(note) = note {
        eprintln!("note: {note}");
    }
    let ctx = Ctx { jobs, progress };
    // PUZZLEBOOK_PLAIN_DEPOSIT=1: Catan's mask samplers use the plain-code bit deposit
    // (same boards; for machines without a fast one, and to test both paths).
    puzzlebook::sampling::set_default_deposit(
        puzzlebook::sampling::BitDeposit::from_plain_setting(
            std::env::var_os("PUZZLEBOOK_PLAIN_DEPOSIT").as_deref(),
        ),
    );
    match cli.command {
        Command::Book(args) => jobs::book_cmd(args, ctx.jobs, ctx.progress),
        Command::Cover(args) => jobs::cover_cmd(args, ctx.jobs, ctx.progress),
        Command::Run(args) => jobs::run_job(args, ctx.jobs, ctx.progress),
        Command::Merge(args) => jobs::merge_cmd(args),
        Command::Verify { manifest } => jobs::verify_cmd(&manifest),
        Command::Catalogue(c) => jobs::catalogue_cmd(c),
        Command::Preflight(args) => preflight::preflight_cmd(args),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "puzzlebook", &mut script);
            say(&String::from_utf8_lossy(&script))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { command } => {
            say(&man_page(&command)?)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Game(cmd) => cmd.run::<puzzlebook::games::Games>(ctx),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_echoed_values_are_cut() {
        let huge = "9".repeat(100_000);
        let text = format!(
            "error: invalid value '{huge}' for '--size <SIZE>': size '{huge}' is not a number\n\nFor more information, try '--help'.\n"
        );
        let short = shorten_echoes(&text);
        assert!(short.len() < 300, "{short}");
        assert!(short.contains("(100000 characters)"), "{short}");
        assert!(short.contains("for '--size <SIZE>': size '"), "{short}");
        assert!(short.ends_with("\n\nFor more information, try '--help'.\n"));
        // Short messages are left as they are.
        let ok = "error: invalid value 'x' for '--size <SIZE>'\n";
        assert_eq!(shorten_echoes(ok), ok);
    }

    #[test]
    fn a_huge_argument_gives_a_short_error() {
        let huge = "7".repeat(50_000);
        let e = Cli::try_parse_from(["puzzlebook", "flip", "generate", "--size", &huge])
            .err()
            .unwrap();
        assert!(e.to_string().len() > 50_000);
        assert!(shorten_echoes(&e.to_string()).len() < 1000);
    }
}
