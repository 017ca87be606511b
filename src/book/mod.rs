//! The book engine: a template -> generated sections -> laid-out pages -> PDF.
//!
//! Games are reached only through the [`Game`] trait (via the registry's visitor), so
//! a new game gets a book section without any change here.

pub mod layout;
pub mod pdf;
pub mod template;

use crate::batch::{self, Item, RunOptions};
use crate::canvas::{
    cap_height, fit_size, pt, wrap, Align, Canvas, Color, Face, Rect, Stroke, MM_PER_PT,
};
use crate::games::{self, Game, GameVisitor};
use crate::{Error, Result};
use layout::{best_grid, Geometry, MAX_PAGES};
use serde::Deserialize;
use std::path::Path;
pub use template::Template;

/// The template shipped with the tool, used when `templates/default.toml` is not there.
pub const DEFAULT_TEMPLATE: &str = include_str!("../../templates/default.toml");

/// How to run a book build.
#[derive(Debug, Clone, Default)]
pub struct BookOptions {
    /// Overrides the template's seed.
    pub seed: Option<u64>,
    pub jobs: usize,
    pub progress: bool,
}

/// A book laid out on canvases, ready to be written as PDF.
#[derive(Debug, Clone)]
pub struct Composed {
    pub title: String,
    pub author: String,
    pub geometry: Geometry,
    pub pages: Vec<Canvas>,
    pub puzzles: usize,
    pub seed: u64,
}

impl Composed {
    /// Write the pages as PDF.
    pub fn render(&self) -> Result<Book> {
        Ok(Book {
            pdf: pdf::render(&self.title, &self.author, &self.geometry, &self.pages)?,
            pages: self.pages.len(),
            puzzles: self.puzzles,
            seed: self.seed,
        })
    }
}

/// A finished book.
#[derive(Debug, Clone)]
pub struct Book {
    pub pdf: Vec<u8>,
    pub pages: usize,
    pub puzzles: usize,
    pub seed: u64,
}

/// A generated section, with the game's type erased for layout.
trait SectionItems {
    fn len(&self) -> usize;
    fn aspect(&self) -> f32;
    fn draw(&self, i: usize, canvas: &mut Canvas, area: Rect, with_solution: bool);
    fn caption(&self, i: usize) -> String;
    fn answer(&self, i: usize) -> String;
    fn how_to_play(&self) -> String;
    fn has_answers(&self) -> bool;
    fn label(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn index(&self, i: usize) -> u64;
}

struct Generated<G: Game> {
    game: G,
    items: Vec<Item<G::Puzzle>>,
}

impl<G: Game> SectionItems for Generated<G> {
    fn len(&self) -> usize {
        self.items.len()
    }
    fn aspect(&self) -> f32 {
        self.game.aspect()
    }
    fn draw(&self, i: usize, canvas: &mut Canvas, area: Rect, with_solution: bool) {
        self.game
            .draw(&self.items[i].puzzle, canvas, area, with_solution);
    }
    fn caption(&self, i: usize) -> String {
        self.game.caption(&self.items[i].puzzle)
    }
    fn answer(&self, i: usize) -> String {
        self.game.answer(&self.items[i].puzzle)
    }
    fn how_to_play(&self) -> String {
        self.game.how_to_play()
    }
    fn has_answers(&self) -> bool {
        self.game.has_answers()
    }
    fn label(&self) -> &'static str {
        self.game.label()
    }
    fn title(&self) -> &'static str {
        G::TITLE
    }
    fn index(&self, i: usize) -> u64 {
        self.items[i].index
    }
}

struct BuildSection<'a> {
    number: usize,
    section: &'a template::Section,
    run: RunOptions,
}

impl GameVisitor for BuildSection<'_> {
    type Output = Result<Box<dyn SectionItems>>;
    fn visit<G: Game>(self) -> Self::Output {
        let s = self.section;
        let where_ = format!("section {} ({})", self.number, s.game);
        let params = G::Params::deserialize(toml::Value::Table(s.params.clone()))
            .map_err(|e| Error::invalid(format!("{where_} params: {}", e.message().trim())))?;
        let game = G::new(params).map_err(|e| Error::invalid(format!("{where_}: {e}")))?;
        let (items, _) = batch::collect(&game, &self.run, s.count as u64)?;
        Ok(Box::new(Generated { game, items }))
    }
}

/// One section, generated, with what the pages need to say about it.
struct Part {
    heading: String,
    intro: String,
    per_page: usize,
    seed: u64,
    game: String,
    params: String,
    first_number: usize,
    items: Box<dyn SectionItems>,
}

enum PageKind {
    Title,
    Contents { first_line: usize, lines: usize },
    Puzzles { part: usize, first: usize, n: usize },
    Answers { part: usize, first: usize, n: usize },
}

const HEADING_PT: f32 = 18.0;
const BODY_PT: f32 = 10.0;
const LABEL_PT: f32 = 10.0;
const CAPTION_PT: f32 = 9.0;
const FOOT_PT: f32 = 9.0;
const SMALL_PT: f32 = 6.5;
const GREY: Color = Color::grey(110);
/// Height kept at the foot of each page for its number.
const FOOTER_MM: f32 = 8.0;

fn params_inline(t: &toml::Table) -> String {
    t.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Build a book from a template.
pub fn build(template: &Template, opts: &BookOptions) -> Result<Book> {
    // Everything, the PDF writer's compression included, runs on a pool of `jobs` threads.
    batch::thread_pool(opts.jobs)?.install(|| compose(template, opts)?.render())
}

/// Generate every section and lay out every page.
pub fn compose(template: &Template, opts: &BookOptions) -> Result<Composed> {
    let seed = opts
        .seed
        .or(template.seed)
        .unwrap_or(crate::seed::DEFAULT_SEED);
    // An intro must leave room for its section's first puzzles: checked before any
    // puzzle is made (a default intro, the game's own few lines, always does).
    let probe = Geometry::new(template.page_size, template.bleed, &template.margins, 0);
    for (i, s) in template.sections.iter().enumerate() {
        if let Some(intro) = &s.intro {
            check_intro(i + 1, intro, probe.live(1))?;
        }
    }
    let mut parts = Vec::new();
    let mut number = 1;
    for (i, s) in template.sections.iter().enumerate() {
        let section_seed = s.seed.unwrap_or_else(|| seed.wrapping_add(i as u64 + 1));
        let heading = s.heading.clone();
        let run = RunOptions {
            seed: section_seed,
            jobs: opts.jobs,
            progress: opts.progress,
            label: format!("section {} ({})", i + 1, s.game),
            ..RunOptions::default()
        };
        let items = games::visit(
            &s.game,
            BuildSection {
                number: i + 1,
                section: s,
                run,
            },
        )
        .map_err(|e| match e {
            Error::Invalid(m) if m.starts_with("unknown game") => {
                Error::invalid(format!("section {}: {m}", i + 1))
            }
            e => e,
        })??;
        parts.push(Part {
            heading: heading.unwrap_or_else(|| items.title().to_string()),
            intro: s.intro.clone().unwrap_or_else(|| items.how_to_play()),
            per_page: s.per_page,
            seed: section_seed,
            game: s.game.clone(),
            params: params_inline(&s.params),
            first_number: number,
            items,
        });
        number += s.count;
    }
    let puzzles = number - 1;

    // Plan the pages (the gutter depends on the page count, the page count does not
    // depend on the gutter).
    let with_answers = template.answers.placement == template::AnswerPlacement::End
        && parts.iter().any(|p| p.items.has_answers());
    let contents_lines = parts.len() + usize::from(with_answers);
    let line_h = BODY_PT * MM_PER_PT * 2.0;
    let per_contents_page =
        (((probe.live(1).h - FOOTER_MM - 25.0) / line_h).floor() as usize).max(1);
    let mut plan = vec![PageKind::Title];
    for first_line in (0..contents_lines).step_by(per_contents_page) {
        plan.push(PageKind::Contents {
            first_line,
            lines: per_contents_page.min(contents_lines - first_line),
        });
    }
    let mut section_pages = Vec::new();
    for (p, part) in parts.iter().enumerate() {
        section_pages.push(plan.len() + 1);
        for first in (0..part.items.len()).step_by(part.per_page) {
            let n = part.per_page.min(part.items.len() - first);
            plan.push(PageKind::Puzzles { part: p, first, n });
        }
    }
    let answers_page = plan.len() + 1;
    if with_answers {
        let per = template.answers.per_page;
        for (p, part) in parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.items.has_answers())
        {
            for first in (0..part.items.len()).step_by(per) {
                let n = per.min(part.items.len() - first);
                plan.push(PageKind::Answers { part: p, first, n });
            }
        }
    }
    if plan.len() > MAX_PAGES {
        return Err(Error::invalid(format!(
            "the book would have {} pages; print-on-demand allows at most {MAX_PAGES}: lower the counts or raise per_page",
            plan.len()
        )));
    }
    let geometry = Geometry::new(
        template.page_size,
        template.bleed,
        &template.margins,
        plan.len(),
    );

    let mut contents: Vec<(String, usize)> = parts
        .iter()
        .zip(&section_pages)
        .map(|(p, &page)| (p.heading.clone(), page))
        .collect();
    if with_answers {
        contents.push(("Answers".into(), answers_page));
    }

    let pages: Vec<Canvas> = plan
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let page = i + 1;
            let live = geometry.live(page);
            let (body, foot) = live.take_bottom(FOOTER_MM);
            let mut c = Canvas::new();
            match *kind {
                PageKind::Title => title_page(
                    &mut c,
                    body,
                    template,
                    &what_is_inside(&parts, with_answers),
                    seed,
                ),
                PageKind::Contents { first_line, lines } => contents_page(
                    &mut c,
                    body,
                    &contents[first_line..first_line + lines],
                    first_line == 0,
                ),
                PageKind::Puzzles { part, first, n } => {
                    puzzle_page(&mut c, body, &parts[part], first, n)
                }
                PageKind::Answers { part, first, n } => answer_page(
                    &mut c,
                    body,
                    &parts[part],
                    first,
                    n,
                    template.answers.per_page,
                ),
            }
            c.text(
                foot.center().x,
                foot.bottom() - 1.0,
                FOOT_PT,
                Face::Regular,
                Align::Center,
                &page.to_string(),
            );
            c
        })
        .collect();
    Ok(Composed {
        title: template.title.clone(),
        author: template.author.clone(),
        geometry,
        pages,
        puzzles,
        seed,
    })
}

/// "22 puzzles and 4 boards in 5 sections, with answers".
fn what_is_inside(parts: &[Part], with_answers: bool) -> String {
    let mut by_label: Vec<(&str, usize)> = Vec::new();
    for p in parts {
        let label = p.items.label();
        match by_label.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += p.items.len(),
            None => by_label.push((label, p.items.len())),
        }
    }
    let things: Vec<String> = by_label
        .iter()
        .map(|(l, n)| format!("{n} {}{}", l.to_lowercase(), if *n == 1 { "" } else { "s" }))
        .collect();
    format!(
        "{} in {} section{}{}",
        things.join(" and "),
        parts.len(),
        if parts.len() == 1 { "" } else { "s" },
        if with_answers { ", with answers" } else { "" }
    )
}

fn title_page(c: &mut Canvas, area: Rect, t: &Template, what: &str, seed: u64) {
    let size = fit_size(&t.title, Face::Bold, area.w, 30.0, 34.0);
    let y = area.y + area.h * 0.32;
    c.text(
        area.center().x,
        y,
        size,
        Face::Bold,
        Align::Center,
        &t.title,
    );
    let rule_y = y + 6.0;
    c.line(
        pt(area.x + area.w * 0.2, rule_y),
        pt(area.right() - area.w * 0.2, rule_y),
        Stroke::new(Color::BLACK, 0.5),
    );
    let mut y = rule_y + 10.0;
    for line in wrap(&t.subtitle, 14.0, Face::Regular, area.w * 0.85) {
        c.text(
            area.center().x,
            y,
            14.0,
            Face::Regular,
            Align::Center,
            &line,
        );
        y += 14.0 * MM_PER_PT * 1.4;
    }
    c.text(
        area.center().x,
        y + 6.0,
        BODY_PT,
        Face::Regular,
        Align::Center,
        what,
    );
    if !t.author.is_empty() {
        c.text(
            area.center().x,
            area.y + area.h * 0.75,
            12.0,
            Face::Regular,
            Align::Center,
            &t.author,
        );
    }
    let foot = format!(
        "Seed {seed}. Made with puzzlebook {}.",
        env!("CARGO_PKG_VERSION")
    );
    c.text_colored(
        area.center().x,
        area.bottom() - 2.0,
        SMALL_PT + 1.5,
        Face::Regular,
        Align::Center,
        GREY,
        &foot,
    );
}

fn contents_page(c: &mut Canvas, area: Rect, entries: &[(String, usize)], first: bool) {
    let title = if first {
        "Contents"
    } else {
        "Contents (continued)"
    };
    c.text(
        area.x,
        area.y + cap_height(HEADING_PT) + 2.0,
        HEADING_PT,
        Face::Bold,
        Align::Left,
        title,
    );
    let mut y = area.y + 25.0;
    let line_h = BODY_PT * MM_PER_PT * 2.0;
    for (heading, page) in entries {
        let num = page.to_string();
        let num_w = crate::canvas::text_width(&num, BODY_PT, Face::Regular);
        let head_w = crate::canvas::text_width(heading, BODY_PT, Face::Regular);
        c.text(area.x, y, BODY_PT, Face::Regular, Align::Left, heading);
        c.text(area.right(), y, BODY_PT, Face::Regular, Align::Right, &num);
        // Dot leaders between the heading and its page number.
        let dot_w = crate::canvas::text_width(". ", BODY_PT, Face::Regular);
        let space = area.w - head_w - num_w - 4.0;
        if space > dot_w {
            let dots = ". ".repeat((space / dot_w) as usize);
            c.text_colored(
                area.right() - num_w - 2.0,
                y,
                BODY_PT,
                Face::Regular,
                Align::Right,
                GREY,
                dots.trim_end(),
            );
        }
        y += line_h;
    }
}

/// Within a box, the largest drawing of the given aspect with a strip of `top_h` above
/// it and `bottom_h` below, the group centred: (top strip, drawing, bottom strip).
fn place(b: Rect, aspect: f32, top_h: f32, bottom_h: f32) -> (Rect, Rect, Rect) {
    let avail_h = (b.h - top_h - bottom_h).max(1.0);
    let w = b.w.min(avail_h * aspect);
    let h = w / aspect;
    let x = b.x + (b.w - w) / 2.0;
    let y = b.y + (b.h - (top_h + h + bottom_h)) / 2.0;
    (
        Rect::new(x, y, w, top_h),
        Rect::new(x, y + top_h, w, h),
        Rect::new(x, y + top_h + h, w, bottom_h),
    )
}

/// Lay `n` boxes over `area` and return them in reading order.
fn boxes(area: Rect, n: usize, slots: usize, aspect: f32, extra_h: f32) -> Vec<Rect> {
    let (rows, cols) = best_grid(slots, area, aspect, extra_h);
    (0..n)
        .map(|i| area.grid_cell(rows, cols, i / cols, i % cols))
        .collect()
}

/// The share of a section's first page an intro may take (the rest is its puzzles').
const MAX_INTRO_SHARE: f32 = 0.5;

/// Refuse an intro too long for the first page of its section: drawn, it would be cut
/// off and leave the page's puzzles no room.
fn check_intro(section: usize, intro: &str, live: Rect) -> Result<()> {
    let (body, _) = live.take_bottom(FOOTER_MM);
    let room = (body.h - cap_height(HEADING_PT) - 4.0) * MAX_INTRO_SHARE;
    let lines = crate::canvas::wrap(intro, BODY_PT, Face::Regular, body.w).len();
    let leading = BODY_PT * MM_PER_PT * 1.35;
    let fits = (room / leading).floor().max(1.0) as usize;
    if lines > fits {
        let words = intro.split_whitespace().count();
        let keep = words * fits / lines.max(1);
        return Err(Error::invalid(format!(
            "section {section}: the intro takes {lines} lines, but at most {fits} fit on the section's first page beside its puzzles: shorten it to about {keep} words"
        )));
    }
    Ok(())
}

fn puzzle_page(c: &mut Canvas, area: Rect, part: &Part, first: usize, n: usize) {
    let mut body = area;
    if first == 0 {
        c.text(
            area.x,
            area.y + cap_height(HEADING_PT),
            HEADING_PT,
            Face::Bold,
            Align::Left,
            &part.heading,
        );
        let (_, rest) = area.take_top(cap_height(HEADING_PT) + 4.0);
        let used = c.paragraph(rest, BODY_PT, Face::Regular, &part.intro);
        body = rest.take_top(used + 4.0).1;
    } else {
        c.text_colored(
            area.x,
            area.y + cap_height(8.0),
            8.0,
            Face::Regular,
            Align::Left,
            GREY,
            &part.heading,
        );
        body = body.take_top(cap_height(8.0) + 4.0).1;
    }
    let label_h = LABEL_PT * MM_PER_PT * 1.6;
    let caption_h = CAPTION_PT * MM_PER_PT * 1.8;
    for (k, b) in boxes(
        body,
        n,
        part.per_page,
        part.items.aspect(),
        label_h + caption_h + 4.0,
    )
    .into_iter()
    .enumerate()
    {
        let i = first + k;
        let (label, drawing, caption) =
            place(b.inset(2.0), part.items.aspect(), label_h, caption_h);
        let number = part.first_number + i;
        c.text(
            label.x,
            label.bottom() - 1.0,
            LABEL_PT,
            Face::Bold,
            Align::Left,
            &format!("{} {number}", part.items.label()),
        );
        part.items.draw(i, c, drawing, false);
        c.text(
            caption.center().x,
            caption.y + cap_height(CAPTION_PT) + 1.0,
            CAPTION_PT,
            Face::Regular,
            Align::Center,
            &part.items.caption(i),
        );
    }
}

fn answer_page(c: &mut Canvas, area: Rect, part: &Part, first: usize, n: usize, slots: usize) {
    let title = format!("Answers: {}", part.heading);
    c.text(
        area.x,
        area.y + cap_height(14.0),
        14.0,
        Face::Bold,
        Align::Left,
        &title,
    );
    let note = format!("{} {} seed={}", part.game, part.params, part.seed);
    c.text_colored(
        area.right(),
        area.y + cap_height(14.0),
        SMALL_PT,
        Face::Regular,
        Align::Right,
        GREY,
        &note,
    );
    let body = area.take_top(cap_height(14.0) + 5.0).1;
    let label_h = LABEL_PT * MM_PER_PT * 1.5;
    let text_h = 8.0 * MM_PER_PT * 2.9 + SMALL_PT * MM_PER_PT * 1.4;
    for (k, b) in boxes(body, n, slots, part.items.aspect(), label_h + text_h + 3.0)
        .into_iter()
        .enumerate()
    {
        let i = first + k;
        let (label, drawing, text) = place(b.inset(2.0), part.items.aspect(), label_h, text_h);
        c.text(
            label.x,
            label.bottom() - 1.0,
            LABEL_PT,
            Face::Bold,
            Align::Left,
            &format!("{}", part.first_number + i),
        );
        part.items.draw(i, c, drawing, true);
        let mut y = text.y + cap_height(8.0) + 1.0;
        for line in wrap(&part.items.answer(i), 8.0, Face::Regular, text.w)
            .into_iter()
            .take(2)
        {
            c.text(text.center().x, y, 8.0, Face::Regular, Align::Center, &line);
            y += 8.0 * MM_PER_PT * 1.3;
        }
        let regen = format!("item {}", part.items.index(i));
        c.text_colored(
            text.center().x,
            text.bottom() - 0.5,
            SMALL_PT,
            Face::Regular,
            Align::Center,
            GREY,
            &regen,
        );
    }
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
    pdf::render(title, "", &geometry, pages)
}

/// Load the template at `path`, or the shipped default when `path` is None.
pub fn load_template(path: Option<&Path>) -> Result<Template> {
    match path {
        Some(p) => Template::load(p),
        None => {
            let local = Path::new("templates/default.toml");
            if local.is_file() {
                Template::load(local)
            } else {
                Template::parse(DEFAULT_TEMPLATE).map_err(|message| Error::Template {
                    path: "(built-in default)".into(),
                    message,
                })
            }
        }
    }
}
