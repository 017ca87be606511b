//! The book engine: a template -> generated sections -> planned, laid-out pages -> PDF.
//!
//! Games are reached only through the [`Present`] trait (and `Game` beneath it), by
//! the registry's visitor, so a new game gets a book section without any change here.
//!
//! A book is: a title page, a copyright page (with how to make the book again), the
//! contents, one "how to play" page per game (rules and a worked example), the
//! sections (each ordered easiest first, every puzzle saying where its answer is),
//! the answer key (sections running on, several answers to a row, each saying its
//! puzzle's page), and notes pages up to the print-on-demand minimum and an even count.
//! Every page is checked before it is written: marks inside the safe area, no text
//! under 7 pt.

#![deny(unsafe_code)]
#![deny(missing_docs)]

// The floors below, under the names the book's modules use.
use ground::{batch, canvas, catalogue, date, game, input, limits, output, seed};
pub use ground::{Error, Result};
use puzzlebook_preflight as preflight;

/// This build's version (printed on the copyright page and in the book's facts).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod cover;
mod cover_art;
pub mod layout;
mod motif;
mod pages;
pub mod pdf;
mod sections;
pub mod template;
pub(crate) mod typeset;
use cover_art::*;
use sections::*;

use crate::batch::{Item, RunOptions};
use crate::canvas::{Canvas, Face, Rect};
use crate::game::{GameVisitor, Motif, Present, Rating, Registry};
use layout::{gutter_mm, Geometry};
use serde::Deserialize;
use std::io::Write;
use std::path::{Path, PathBuf};
pub use template::Template;
use template::MAX_PAGES;
use typeset::typeset;

/// The template shipped with the tool, used when `templates/default.toml` is not there.
pub(crate) const DEFAULT_TEMPLATE: &str = include_str!("../../../templates/default.toml");

/// The fewest pages print-on-demand services print (KDP and IngramSpark paperbacks).
pub(crate) const MIN_PAGES: usize = 24;

/// How to run a book build.
#[derive(Debug, Clone, Default)]
pub struct BookOptions {
    /// Overrides the template's seed.
    pub seed: Option<u64>,
    /// Worker threads for generation and PDF compression, and whether a progress bar
    /// shows while puzzles are generated.
    pub env: batch::Env,
    /// The template's file name as the copyright page should print it in the command
    /// that makes the book again (None: the built-in default, `puzzlebook book`).
    pub template_name: Option<String>,
    /// Draw past these puzzles (a catalogue's, or what a job's earlier outputs
    /// took); every puzzle the book takes is added. None: no catalogue.
    pub fresh: Option<std::sync::Arc<std::sync::Mutex<crate::catalogue::Seen>>>,
    /// Volume N of a series: the puzzles of volumes 1 to N-1 are drawn first (each
    /// section's stream continues where the volume before it stopped) and drawn
    /// past, so no puzzle of an earlier volume comes back. The title page and cover
    /// say "Volume N" (see [`for_volume`]).
    pub volume: Option<u32>,
}

/// The most volumes a series may have.
pub(crate) const MAX_VOLUME: u32 = 1000;

/// The template of volume `n` of a series: its subtitle says "Volume N". Volume 0,
/// or one past `MAX_VOLUME`, is an error.
pub fn for_volume(template: &Template, volume: Option<u32>) -> Result<Template> {
    let mut t = template.clone();
    if let Some(n) = volume {
        if n == 0 || n > MAX_VOLUME {
            return Err(Error::param(
                "volume",
                format!("is {n}: volumes are numbered 1 to {MAX_VOLUME}"),
            ));
        }
        t.subtitle = if t.subtitle.trim().is_empty() {
            format!("Volume {n}")
        } else {
            format!("{}, Volume {n}", t.subtitle.trim_end())
        };
    }
    Ok(t)
}

/// A book laid out on canvases, ready to be written as PDF.
#[derive(Debug, Clone)]
pub struct Composed {
    /// The PDF's document information (title, author, subject, date).
    pub meta: pdf::Meta,
    /// Trim size, bleed and margins shared by every page.
    pub geometry: Geometry,
    /// The pages in print order, front matter first.
    pub pages: Vec<Canvas>,
    /// Puzzles in the book, all sections together.
    pub puzzles: usize,
    /// The book's master seed actually used (the template's or the override).
    pub seed: u64,
    /// Things the user should know (one line each), e.g. notes pages added.
    pub warnings: Vec<String>,
    /// What the cover shows of the book: its art, sample and contents.
    pub cover: cover::CoverFacts,
    /// The faces of the book's own text: (regular, bold).
    pub faces: (Face, Face),
    /// The print service the book is made for (its preflight rules).
    pub service: template::Service,
    /// The puzzles the book took, when it drew past a catalogue or is a volume.
    pub published: Vec<crate::catalogue::Published>,
    /// What the publisher needs to make the book again (see [`Book::facts`]).
    pub facts: serde_json::Value,
}

impl Composed {
    /// Write the pages as PDF.
    /// Write the pages as PDF, then check the bytes as `puzzlebook preflight` would
    /// for the template's service: each problem it finds becomes a warning.
    pub fn render(&self) -> Result<Book> {
        let pdf = pdf::render(&self.meta, &self.geometry, &self.pages)?;
        let report = crate::preflight::check(&pdf, self.service)?;
        // Checked from the bytes: a greyscale book paints in DeviceGray only.
        if self.meta.color == template::ColorMode::Gray
            && report.colour_spaces.iter().any(|c| c != "DeviceGray")
        {
            return Err(Error::check(format!(
                "a greyscale book's PDF paints in {}: this is a bug, please report it",
                report.colour_spaces.join(", ")
            )));
        }
        let mut warnings = self.warnings.clone();
        warnings.extend(
            report
                .problems
                .iter()
                .map(|p| format!("{} preflight: {p}", self.service.name())),
        );
        let mut facts = self.facts.clone();
        facts["pages"] = self.pages.len().into();
        facts["pdf_sha256"] = crate::output::sha256_hex(&pdf).into();
        Ok(Book {
            pdf,
            pages: self.pages.len(),
            puzzles: self.puzzles,
            seed: self.seed,
            warnings,
            published: self.published.clone(),
            facts,
        })
    }
}

/// A finished book.
#[derive(Debug, Clone)]
pub struct Book {
    /// The complete PDF file.
    pub pdf: Vec<u8>,
    /// Pages in the PDF.
    pub pages: usize,
    /// Puzzles in the book, all sections together.
    pub puzzles: usize,
    /// The book's master seed actually used.
    pub seed: u64,
    /// Things the user should know (one line each), e.g. notes pages added.
    pub warnings: Vec<String>,
    /// The puzzles the book took, when it drew past a catalogue or is a volume
    /// (place `S.I`: section S's item I).
    pub published: Vec<crate::catalogue::Published>,
    /// The facts to make the book again, written beside the PDF as `FILE.pdf.json`
    /// ([`facts_path`]): the tool and its version, the command, the template, the
    /// seeds, each section's items in print order, the page count and the PDF's
    /// SHA-256.
    pub facts: serde_json::Value,
}

/// Where a book's facts go: beside the PDF, its name with `.json` added.
pub fn facts_path(pdf: &Path) -> PathBuf {
    let mut name = pdf.as_os_str().to_os_string();
    name.push(".json");
    PathBuf::from(name)
}

/// Write a book and its facts beside it (both appear together). A PDF written to a
/// stream (a pipe, a device) has no facts file.
pub fn write_with_facts(path: &Path, book: &Book) -> Result<Vec<PathBuf>> {
    // A pipe, a device, or a name for one (/dev/stdout, /proc/self/fd/1, even when
    // it leads to a file) gets the PDF only: no facts file beside it.
    let special = path.starts_with("/dev") || path.starts_with("/proc");
    let stream = special || std::fs::metadata(path).is_ok_and(|m| !m.is_file());
    if stream {
        crate::output::write_atomic(path, &book.pdf)?;
        return Ok(vec![path.to_path_buf()]);
    }
    let facts = facts_path(path);
    let mut set = crate::output::FileSet::new();
    set.create(path)?
        .write_all(&book.pdf)
        .map_err(|e| Error::io("cannot write to", path, e))?;
    let text = facts_text(&book.facts);
    set.create(&facts)?
        .write_all(text.as_bytes())
        .map_err(|e| Error::io("cannot write to", &facts, e))?;
    set.commit()?;
    Ok(vec![path.to_path_buf(), facts])
}

/// The facts as their file holds them: pretty JSON, one newline at the end.
pub fn facts_text(facts: &serde_json::Value) -> String {
    serde_json::to_string_pretty(facts).expect("serialises") + "\n"
}

/// One section of the template, generated and ordered: a chapter of the book, with
/// what its pages need to say about it.
struct Chapter {
    /// 1-based, as the template counts its sections.
    number: usize,
    heading: String,
    intro: Option<String>,
    per_page: usize,
    seed: u64,
    game: String,
    params: String,
    /// The number printed on the section's first puzzle.
    first_number: usize,
    /// Puzzle k of the section (easiest first) is item `order[k]` of the generation.
    order: Vec<usize>,
    /// Which "how to play" page explains this section's game.
    howto: usize,
    items: Box<dyn SectionItems>,
}

impl Chapter {
    fn number_of(&self, k: usize) -> usize {
        self.first_number + k
    }

    /// "puzzles 7–14" (or "puzzle 7", "boards 1–4").
    fn span(&self) -> String {
        let label = self.items.label().to_lowercase();
        match self.items.len() {
            1 => format!("{label} {}", self.first_number),
            n => format!("{label}s {}–{}", self.first_number, self.number_of(n - 1)),
        }
    }
}

/// A "how to play" page: one per game and rule set in the book.
struct HowTo {
    title: String,
    text: String,
    /// The first section with this page (it names the page when two rule sets of a
    /// game share a title).
    chapter: usize,
    /// The section whose game draws the worked example: of the sections sharing the
    /// page, the first whose example shows most (`Game::example_detail`: a shaped
    /// grid's example over a square one's).
    example: usize,
    /// How much that section's example shows.
    detail: u8,
}

fn params_inline(t: &toml::Table) -> String {
    t.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Build a book from a template.
pub fn build<R: Registry>(template: &Template, opts: &BookOptions) -> Result<Book> {
    // Everything, the PDF writer's compression included, runs on a pool of `jobs` threads.
    batch::thread_pool(opts.env.jobs)?.install(|| compose::<R>(template, opts)?.render())
}

/// The creation date the PDF carries: SOURCE_DATE_EPOCH when set (reproducible
/// builds), else the template's `date`, else none (a PDF may omit it).
fn creation_date(template: &Template) -> Result<Option<String>> {
    if let Some(v) = std::env::var_os("SOURCE_DATE_EPOCH") {
        let s = v.to_string_lossy();
        let secs: i64 = s.trim().parse().map_err(|_| {
            Error::invalid(format!(
                "SOURCE_DATE_EPOCH = {} is not a number of seconds since 1970",
                crate::input::excerpt(&s)
            ))
        })?;
        if !(0..=253_402_300_799).contains(&secs) {
            return Err(Error::invalid(format!(
                "SOURCE_DATE_EPOCH = {secs} is outside the years 1970 to 9999"
            )));
        }
        return Ok(Some(pdf::pdf_date(secs)));
    }
    Ok(template
        .date
        .as_deref()
        .and_then(template::parse_date)
        .map(|(y, m, d)| pdf::pdf_date(pdf::days_from_civil(y, m, d) * 86_400)))
}

/// Generate every section and lay out every page.
pub fn compose<R: Registry>(template: &Template, opts: &BookOptions) -> Result<Composed> {
    let volume_template = for_volume(template, opts.volume)?;
    let template = &volume_template;
    let seed = opts
        .seed
        .or(template.seed)
        .unwrap_or(crate::seed::DEFAULT_SEED);
    let date = creation_date(template)?;
    let ty = book_type(template)?;
    check_text_fits(&ty, template)?;
    let Sections {
        chapters,
        mut howtos,
        published,
        puzzles,
    } = generate::<R>(template, opts, seed)?;
    name_howtos(&mut howtos, &chapters);
    let with_answers = template.answers.placement == template::AnswerPlacement::End
        && chapters.iter().any(|p| p.items.has_answers());
    let (geometry, plan) = plan_pages(&ty, template, &chapters, &howtos, with_answers)?;
    let held: Vec<&str> = chapters.iter().map(|c| c.items.title()).collect();
    let mut warnings = template.warnings(&game_titles::<R>(), &held, &game_trademarks::<R>());
    warnings.extend(plan.fill_notes.iter().cloned());
    if plan.content_pages < MIN_PAGES {
        warnings.push(format!(
            "the template makes {} pages; print-on-demand services print at least {MIN_PAGES}, so {} notes page{} {} added at the end (add puzzles to use them)",
            plan.content_pages,
            plan.kinds.len() - plan.content_pages,
            if plan.kinds.len() - plan.content_pages == 1 { "" } else { "s" },
            if plan.kinds.len() - plan.content_pages == 1 { "was" } else { "were" },
        ));
    }
    let facts = book_facts(template, opts, seed, puzzles, &chapters);
    let book = pages::BookText {
        template,
        seed,
        template_name: opts.template_name.as_deref(),
        volume: opts.volume,
        with_answers,
        date: date.as_deref(),
    };
    let canvases = pages::draw_all(&ty, &book, &chapters, &howtos, &geometry, &plan);
    // Ink must agree with the paper: colour on black-ink paper prints in black ink
    // (a greyscale book's colours are turned to grey when written, so it never does).
    let paper = template.cover.paper;
    if template.color != template::ColorMode::Gray
        && paper != template::Paper::Color
        && canvases.iter().any(|c| c.has_colour_since(0))
    {
        warnings.push(format!(
            "the pages are in colour, but [cover] paper = \"{}\" is black-ink paper, so they would print in black ink: set paper = \"color\" for a colour interior, or color = \"gray\"",
            paper.name()
        ));
    }
    let cover = cover_facts(template, &chapters, with_answers, opts.volume);
    pages::check_pages(&ty, &canvases, &geometry, &plan, &chapters)?;
    check_glyphs(&ty, &canvases)?;
    Ok(Composed {
        meta: pdf::Meta {
            title: typeset(&template.title),
            author: typeset(&template.author),
            subject: typeset(&template.subtitle),
            date,
            color: template.color,
            min_line_pt: template.min_line_pt,
        },
        geometry,
        pages: canvases,
        puzzles,
        seed,
        warnings,
        cover,
        faces: (ty.regular, ty.bold),
        service: template.service,
        published,
        facts,
    })
}

/// Check, before any puzzle is made, that the titles, headings and intros fit.
fn check_text_fits(ty: &pages::Type, template: &Template) -> Result<()> {
    // An intro must leave room for its section's puzzles: checked before any puzzle
    // is made.
    let probe = Geometry::new(template.page_size, template.bleed, &template.margins, 0);
    // So must the titles and headings, measured on the narrowest page a book of any
    // length gets (the gutter grows with the page count).
    let narrowest = Geometry::new(
        template.page_size,
        template.bleed,
        &template.margins,
        template::MAX_PAGES,
    );
    pages::check_titles(ty, template, narrowest.live(1))?;
    for (i, s) in template.sections.iter().enumerate() {
        if let Some(intro) = &s.intro {
            pages::check_intro(ty, i + 1, &typeset(intro), probe.live(1))?;
        }
    }
    Ok(())
}

/// Plan the pages and the geometry they are laid out in. The gutter depends on the
/// page count and the page count on the live width: plan with the gutter of the
/// pages planned so far until it needs no wider gutter (a gutter wider than the count
/// needs is allowed; a narrower one is not).
fn plan_pages(
    ty: &pages::Type,
    template: &Template,
    chapters: &[Chapter],
    howtos: &[HowTo],
    with_answers: bool,
) -> Result<(Geometry, pages::Plan)> {
    let mut planned_for = 0;
    loop {
        let g = Geometry::new(
            template.page_size,
            template.bleed,
            &template.margins,
            planned_for,
        );
        let plan = pages::plan(ty, template, chapters, howtos, &g, with_answers)?;
        let n = plan.kinds.len();
        if n > MAX_PAGES {
            return Err(Error::invalid(format!(
                "the book would have {n} pages; print-on-demand allows at most {MAX_PAGES}: lower the counts or raise per_page"
            )));
        }
        if gutter_mm(n) <= g.inside + 1e-3 {
            return Ok((g, plan));
        }
        planned_for = n;
    }
}

/// What the publisher needs to make the book again: the tool, the command, the
/// template, the seeds and each section's items in print order.
fn book_facts(
    template: &Template,
    opts: &BookOptions,
    seed: u64,
    puzzles: usize,
    chapters: &[Chapter],
) -> serde_json::Value {
    serde_json::json!({
        "tool": "puzzlebook",
        "version": crate::VERSION,
        "command": pages::remake_command(opts.template_name.as_deref(), seed, opts.volume),
        "template": opts.template_name,
        "seed": seed,
        "volume": opts.volume,
        "title": template.title,
        "puzzles": puzzles,
        "sections": chapters.iter().map(|ch| serde_json::json!({
            "section": ch.number,
            "heading": ch.heading,
            "game": ch.game,
            "params": ch.params,
            "seed": ch.seed,
            "first_number": ch.first_number,
            "items": ch.order.iter().map(|&i| ch.items.index(i)).collect::<Vec<u64>>(),
        })).collect::<Vec<_>>(),
    })
}

/// The book's type: the template's fonts (loaded and embedded) or DejaVu Sans, and
/// large print.
fn book_type(template: &Template) -> Result<pages::Type> {
    let load = |p: &Path| -> Result<Face> {
        let path = template.resolve(p);
        let bytes = crate::input::read_capped(&path, crate::canvas::MAX_FONT_BYTES as u64, "font")
            .map_err(|e| match e {
                Error::Io { source, .. } => {
                    Error::invalid(format!("font {}: cannot read it: {source}", path.display()))
                }
                e => e,
            })?;
        crate::canvas::load_font(&bytes, &path.display().to_string())
    };
    let regular = match &template.font {
        Some(p) => load(p)?,
        None => Face::Regular,
    };
    let bold = match (&template.bold_font, &template.font) {
        (Some(b), _) => load(b)?,
        (None, Some(_)) => regular,
        (None, None) => Face::Bold,
    };
    Ok(pages::Type::new(regular, bold, template.large_print))
}

/// Every character set in a face must be in it (the template's fonts and the bundled
/// DejaVu Sans alike): a missing glyph would print as an empty box.
fn check_glyphs(ty: &pages::Type, pages: &[Canvas]) -> Result<()> {
    check_glyphs_of((ty.regular, ty.bold), pages)
}

/// [`check_glyphs`] for the book's (regular, bold) faces.
pub(crate) fn check_glyphs_of((regular, _): (Face, Face), pages: &[Canvas]) -> Result<()> {
    let mut used = std::collections::BTreeSet::new();
    for p in pages {
        p.collect_chars(&mut used);
    }
    for face in used
        .iter()
        .map(|&(f, _)| f)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let text: String = used
            .iter()
            .filter(|(f, _)| *f == face)
            .map(|&(_, c)| c)
            .collect();
        let missing = crate::canvas::missing_glyphs(face, &text);
        if !missing.is_empty() {
            let which = match face {
                Face::Loaded(_) if face == regular => "font",
                Face::Loaded(_) => "bold_font",
                _ => "text",
            };
            return Err(Error::param(
                which,
                format!(
                    "{} has no glyph for {} (used in the book's text): choose a font that has them",
                    crate::canvas::font_name(face),
                    missing
                        .iter()
                        .take(12)
                        .map(|c| format!("“{}” (U+{:04X})", c.escape_debug(), *c as u32))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Write free-form pages (reports) of `size` mm, without bleed or mirrored margins.
pub fn render_pages(title: &str, size: (f32, f32), pages: &[Canvas]) -> Result<Vec<u8>> {
    let geometry = Geometry {
        trim_w: size.0,
        trim_h: size.1,
        bleed: 0.0,
        top: 0.0,
        bottom: 0.0,
        outside: 0.0,
        inside: 0.0,
    };
    let meta = pdf::Meta {
        title: title.to_string(),
        ..pdf::Meta::default()
    };
    pdf::render(&meta, &geometry, pages)
}

/// Load the template at `path`, or the shipped default when `path` is None.
pub fn load_template<R: Registry>(path: Option<&Path>) -> Result<Template> {
    match path {
        Some(p) => Template::load::<R>(p),
        None => {
            let local = Path::new("templates/default.toml");
            if local.is_file() {
                Template::load::<R>(local)
            } else {
                Template::parse::<R>(DEFAULT_TEMPLATE).map_err(|e| Error::Template {
                    path: "(built-in default)".into(),
                    message: e.to_string(),
                })
            }
        }
    }
}
