//! Book templates (TOML). Unknown keys are errors, so a typo never silently does nothing.

use crate::game::Registry;
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The most pages a print-on-demand book may have.
pub const MAX_PAGES: usize = 828;

/// A trim size: one of the sizes print-on-demand services list, or a custom one.
///
/// In a template: `page_size = "6x9"` (inches, width first), `"a4"`, `"letter"`, or a
/// custom `"6.14x9.21in"` / `"170x240mm"` (a bare `WxH` is in inches). Custom sizes
/// must lie within 4-8.5 in wide and 6-11.69 in high, the range services print.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageSize {
    /// Trim width, in mm.
    w: f32,
    /// Trim height, in mm.
    h: f32,
    /// The name it was listed under; None for a custom size.
    name: Option<&'static str>,
}

/// The listed trim sizes: name, other names, width and height in mm.
const TRIMS: &[(&str, &[&str], f32, f32)] = &[
    ("5x8", &[], 127.0, 203.2),
    ("5.25x8", &[], 133.35, 203.2),
    ("5.5x8.5", &[], 139.7, 215.9),
    ("6x9", &[], 152.4, 228.6),
    ("7x10", &[], 177.8, 254.0),
    ("8x10", &[], 203.2, 254.0),
    ("8.25x11", &[], 209.55, 279.4),
    ("letter", &["8.5x11"], 215.9, 279.4),
    ("a4", &["A4"], 210.0, 297.0),
    ("a5", &["A5"], 148.0, 210.0),
];

/// The custom range: width 4 to 8.5 in, height 6 to 11.69 in (in mm, with 0.01 in
/// of slack for rounding).
const CUSTOM_W: (f32, f32) = (101.346, 216.154);
const CUSTOM_H: (f32, f32) = (152.146, 297.180);

impl Default for PageSize {
    fn default() -> Self {
        PageSize::A4
    }
}

impl PageSize {
    /// ISO A4, 210 x 297 mm.
    pub(crate) const A4: PageSize = PageSize {
        w: 210.0,
        h: 297.0,
        name: Some("a4"),
    };
    /// The trade size, 6 x 9 in.
    #[cfg(test)]
    pub(crate) const TRADE_6X9: PageSize = PageSize {
        w: 152.4,
        h: 228.6,
        name: Some("6x9"),
    };

    /// Trim width and height, in mm.
    pub fn mm(self) -> (f32, f32) {
        (self.w, self.h)
    }

    /// Trim width and height, in inches.
    pub fn inches(self) -> (f32, f32) {
        (self.w / 25.4, self.h / 25.4)
    }

    /// The names a template may use for a listed size (first: its own name).
    pub fn names() -> impl Iterator<Item = &'static str> {
        TRIMS
            .iter()
            .flat_map(|(n, aka, _, _)| std::iter::once(*n).chain(aka.iter().copied()))
    }

    /// A custom trim of `w` x `h` mm, within the range services print.
    pub fn custom(w: f32, h: f32) -> Result<PageSize> {
        let fits = |v: f32, (lo, hi): (f32, f32)| v.is_finite() && (lo..=hi).contains(&v);
        if !fits(w, CUSTOM_W) || !fits(h, CUSTOM_H) {
            return Err(Error::param(
                "page_size",
                format!(
                    "{} x {} mm ({:.2} x {:.2} in) is outside the custom range of 4 to 8.5 in wide and 6 to 11.69 in high",
                    round_mm(w),
                    round_mm(h),
                    w / 25.4,
                    h / 25.4
                ),
            ));
        }
        Ok(PageSize { w, h, name: None })
    }
}

fn round_mm(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

impl std::str::FromStr for PageSize {
    type Err = Error;

    fn from_str(text: &str) -> Result<PageSize> {
        let t = text.trim();
        if let Some(&(name, _, w, h)) = TRIMS
            .iter()
            .find(|(n, aka, _, _)| *n == t || aka.contains(&t))
        {
            return Ok(PageSize {
                w,
                h,
                name: Some(name),
            });
        }
        let bad = || {
            Error::param(
                "page_size",
                format!(
                    "= {} is not a trim size: use one of {}, or a custom WxH in inches or mm, e.g. \"6.14x9.21in\" or \"170x240mm\"",
                    crate::input::excerpt(text),
                    PageSize::names().collect::<Vec<_>>().join(", ")
                ),
            )
        };
        let lower = t.to_ascii_lowercase();
        let (dims, scale) = if let Some(d) = lower.strip_suffix("mm") {
            (d, 1.0)
        } else if let Some(d) = lower.strip_suffix("in") {
            (d, 25.4)
        } else {
            (lower.as_str(), 25.4)
        };
        let (w, h) = dims.split_once('x').ok_or_else(bad)?;
        let num = |v: &str| v.trim().parse::<f32>().map_err(|_| bad());
        PageSize::custom(num(w)? * scale, num(h)? * scale)
    }
}

impl std::fmt::Display for PageSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.name {
            Some(n) => f.write_str(n),
            None => write!(f, "{}x{}mm", round_mm(self.w), round_mm(self.h)),
        }
    }
}

impl Serialize for PageSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PageSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The print-on-demand service a book is made for (`service = "kdp" | "ingram"`): its
/// margin minimums apply, and `preflight` checks against its rules.
pub use crate::preflight::Service;

/// The smallest outside, top and bottom margin `service` allows, in mm.
pub(crate) fn min_margin_mm(service: Service, bleed: bool) -> f32 {
    (service.margins(0, bleed).1 * 25.4) as f32
}

/// Margins in millimetres. The inside (gutter) margin follows the page count (see
/// `layout::gutter_mm`); `inside` only raises it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Margins {
    /// Top margin, in mm.
    pub top: f32,
    /// Bottom margin, in mm.
    pub bottom: f32,
    /// Outside margin (away from the binding), in mm.
    pub outside: f32,
    /// Smallest inside (gutter) margin, in mm; the page count may need more.
    pub inside: f32,
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            top: 12.7,
            bottom: 12.7,
            outside: 12.7,
            // 0.5 in: clear of the binding with room to spare; the gutter the page
            // count needs wins when it is wider.
            inside: 12.7,
        }
    }
}

/// The colour model of a book's PDF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ColorMode {
    /// RGB colour, as drawn (fine for screens and most print services).
    Rgb,
    /// Shades of grey only, for black-and-white interiors (the default): every colour
    /// becomes its grey (Rec. 709 luminance) and games draw their greyscale styles;
    /// the file holds no RGB colour at all.
    #[default]
    #[serde(alias = "grey")]
    Gray,
    /// CMYK process colour, greys on the black plate only, with an output intent
    /// naming the printing condition (CGATS TR 001, SWOP).
    Cmyk,
}

/// The paper an interior is printed on: it sets the spine's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// White paper, black ink: 0.002252 in a page.
    #[default]
    White,
    /// Cream paper, black ink: 0.0025 in a page.
    Cream,
    /// Colour interiors (premium colour): 0.002347 in a page.
    Color,
}

impl Paper {
    /// The name in templates and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Paper::White => "white",
            Paper::Cream => "cream",
            Paper::Color => "color",
        }
    }

    /// Thickness of one page (one leaf side counted, as KDP counts pages), in inches.
    pub(crate) fn inches_per_page(self) -> f32 {
        match self {
            Paper::White => 0.002252,
            Paper::Cream => 0.0025,
            Paper::Color => 0.002347,
        }
    }
}

/// The full-wrap cover (`[cover]` in a template; see `puzzlebook cover`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CoverSpec {
    /// The back cover's text (a blank line starts a new paragraph).
    pub blurb: String,
    /// The interior's paper (the command line's --paper wins).
    pub paper: Paper,
    /// The pattern behind the title (default: the motif of the game with the most
    /// puzzles in the book; "plain" for none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<crate::game::Motif>,
    /// The background colour, "#RRGGBB" (default: the theme's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// The accent colour of marks and headings, "#RRGGBB" (default: the theme's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accent: Option<String>,
    /// Draw the book's most striking puzzle on the front.
    pub art: bool,
    /// Draw a sample puzzle and "what's inside" on the back.
    pub inside: bool,
}

impl Default for CoverSpec {
    fn default() -> Self {
        CoverSpec {
            blurb: String::new(),
            paper: Paper::White,
            theme: None,
            background: None,
            accent: None,
            art: true,
            inside: true,
        }
    }
}

/// A colour written "#RRGGBB".
pub(crate) fn parse_hex_color(s: &str) -> Option<(u8, u8, u8)> {
    let h = s.strip_prefix('#')?;
    if h.len() != 6 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = |i: usize| u8::from_str_radix(&h[i..i + 2], 16).ok();
    Some((v(0)?, v(2)?, v(4)?))
}

/// Where the answer key goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerPlacement {
    /// All answers at the end of the book.
    #[default]
    End,
    /// No answer key.
    None,
}

/// The answer key's placement and layout (`[answers]` in a template).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnswerKey {
    /// Where the answers go (default: at the end).
    pub placement: AnswerPlacement,
    /// Answers side by side in a row; by default as many as stay legible (at most 4).
    pub columns: Option<usize>,
    /// No longer used (answers run on in rows, sections one after another); accepted
    /// so older templates still load, with a warning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_page: Option<usize>,
}

/// The line of a template's text that names section `i`'s game (read again, spans
/// kept, only to word an error).
fn section_game_line(text: &str, i: usize) -> Option<usize> {
    #[derive(Deserialize)]
    struct Spans {
        section: Vec<SectionSpan>,
    }
    #[derive(Deserialize)]
    struct SectionSpan {
        game: toml::Spanned<String>,
    }
    let spans: Spans = toml::from_str(text).ok()?;
    Some(crate::input::line_of(
        text,
        spans.section.get(i)?.game.span().start,
    ))
}

/// Most answers side by side.
pub(crate) const MAX_ANSWER_COLUMNS: usize = 4;

/// One `[[section]]` of a template: puzzles of one game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// A game name ("flip", ...; `number_match` or `number-match`), kept as the
    /// registry spells it once the template is read ([`Template::parse`]).
    pub game: String,
    /// Defaults to the game's title.
    pub heading: Option<String>,
    /// How to play, for players; defaults to the game's own text.
    pub intro: Option<String>,
    /// Puzzles in the section.
    pub count: usize,
    /// Puzzles on each page (default 1, at most `MAX_PER_PAGE`).
    #[serde(default = "one")]
    pub per_page: usize,
    /// The section's master seed; defaults to the book seed plus the section number.
    pub seed: Option<u64>,
    /// The game's parameters, checked by the game (unknown keys are errors there too).
    #[serde(default)]
    pub params: toml::Table,
}

fn one() -> usize {
    1
}

/// A book template: front matter, page setup, answer key and sections (TOML).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// The book's title, on the cover page and in the PDF's information.
    pub title: String,
    /// A line under the title; empty leaves it out.
    #[serde(default)]
    pub subtitle: String,
    /// The author, on the title and copyright pages; empty leaves it out.
    #[serde(default)]
    pub author: String,
    /// The copyright page: publisher, edition ("First edition"), ISBN (checked), a
    /// copyright line (default "© YEAR AUTHOR. All rights reserved." when both are
    /// known) and the book's date, YYYY-MM-DD (the PDF's creation date unless
    /// SOURCE_DATE_EPOCH is set).
    #[serde(default)]
    pub publisher: String,
    /// The edition line of the copyright page, e.g. "First edition".
    #[serde(default)]
    pub edition: String,
    /// The ISBN, checked when given; empty leaves it out.
    #[serde(default)]
    pub isbn: String,
    /// The copyright line; empty uses "© YEAR AUTHOR. All rights reserved." (the
    /// year of `date`, of SOURCE_DATE_EPOCH, or the current one; the publisher when
    /// there is no author).
    #[serde(default)]
    pub copyright: String,
    /// Print how the book was made (the command, each section's seed and items) on the
    /// copyright page. Off by default: those facts are for the publisher and always
    /// go beside the PDF, in `FILE.pdf.json`.
    #[serde(default)]
    pub colophon: bool,
    /// The thinnest line the book draws, in points: 0.5 (the print minimum) to 2;
    /// default 0.75, KDP's guidance. Grid lines drawn thinner are thickened to this.
    #[serde(default = "three_quarter_point")]
    pub min_line_pt: f32,
    /// The book's date, YYYY-MM-DD: the copyright page's and the PDF's (SOURCE_DATE_EPOCH wins there).
    #[serde(default)]
    pub date: Option<String>,
    /// Trim size (default A4): a listed size or a custom one (see [`PageSize`]).
    #[serde(default)]
    pub page_size: PageSize,
    /// A TrueType or OpenType font file for the book's own text (headings, captions,
    /// instructions, page numbers, the cover), relative to the template's folder;
    /// default DejaVu Sans. Puzzle drawings keep DejaVu Sans.
    #[serde(default)]
    pub font: Option<PathBuf>,
    /// The bold face's file (default: `font` itself, or DejaVu Sans Bold).
    #[serde(default)]
    pub bold_font: Option<PathBuf>,
    /// Large print: every text size 1.6 times larger (16 pt body), half as many
    /// puzzles a page, and puzzle drawings with text of at least 14 pt.
    #[serde(default)]
    pub large_print: bool,
    /// The folder relative paths are read from (the template's own); not a key.
    #[serde(skip)]
    pub base_dir: Option<PathBuf>,
    /// The colour model (default grey, for black-and-white interiors, the cheapest
    /// and most common print; "cmyk" or "rgb" for colour).
    #[serde(default)]
    pub color: ColorMode,
    /// The print-on-demand service the book is made for (default KDP): its margin
    /// minimums apply.
    #[serde(default)]
    pub service: Service,
    /// Bleed adds 0.125 in to the outside, top and bottom edges.
    #[serde(default)]
    pub bleed: bool,
    /// The book's master seed (the command line's --seed wins).
    pub seed: Option<u64>,
    /// A catalogue of puzzles already published (a text file, relative to the
    /// template's folder): `puzzlebook book` draws past them and adds the book's own
    /// once the PDF is whole (see `puzzlebook::catalogue`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub catalogue: Option<PathBuf>,
    /// Page margins (defaults 12.7 mm).
    #[serde(default)]
    pub margins: Margins,
    /// The answer key (default: at the end).
    #[serde(default)]
    pub answers: AnswerKey,
    /// The full-wrap cover: blurb, paper, background.
    #[serde(default)]
    pub cover: CoverSpec,
    /// The sections in book order; at least one.
    #[serde(rename = "section")]
    pub sections: Vec<Section>,
}

/// The longest back-cover text, in characters.
pub(crate) const MAX_BLURB_CHARS: usize = 1500;

/// Largest puzzles-per-page a section may ask for.
pub(crate) const MAX_PER_PAGE: usize = 12;

impl Template {
    /// Read and check a template file; every error is one line naming the file.
    pub fn load<R: Registry>(path: &Path) -> Result<Template> {
        let bytes =
            crate::input::read_capped(path, crate::limits::MAX_CONFIG_BYTES, "template").map_err(
                |e| {
                    let hint = match &e {
                        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                            " (give an existing file with --template; the shipped ones are in templates/)"
                        }
                        _ => "",
                    };
                    let e = match e {
                        Error::Io { source, .. } => source.to_string(),
                        e => e.to_string(),
                    };
                    Error::Template {
                        path: path.to_path_buf(),
                        message: format!("cannot read it: {e}{hint}"),
                    }
                },
            )?;
        let text = String::from_utf8(bytes).map_err(|_| Error::Template {
            path: path.to_path_buf(),
            message: "it is not UTF-8 text".into(),
        })?;
        let mut t = Template::parse::<R>(&text).map_err(|e| Error::Template {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        t.base_dir = path.parent().map(Path::to_path_buf);
        Ok(t)
    }

    /// The files the template names (its fonts), as read from its own folder, each
    /// with what it is: inputs no output may replace.
    pub fn input_files(&self) -> Vec<(&'static str, PathBuf)> {
        let mut v = Vec::new();
        if let Some(f) = &self.font {
            v.push(("the template's font", self.resolve(f)));
        }
        if let Some(f) = &self.bold_font {
            v.push(("the template's bold_font", self.resolve(f)));
        }
        v
    }

    /// A path the template names, as read from its own folder.
    pub fn resolve(&self, p: &Path) -> PathBuf {
        match &self.base_dir {
            Some(d) if p.is_relative() => d.join(p),
            _ => p.to_path_buf(),
        }
    }

    /// Parse and check a template from TOML text; each section's game is one of `R`'s,
    /// its name kept as `R` spells it.
    pub fn parse<R: Registry>(text: &str) -> Result<Template> {
        let mut t: Template = toml::from_str(text).map_err(|e| {
            let m = crate::input::toml_error(&e, text);
            // `[section]` (one table) where `[[section]]` (a list of them) is meant.
            let single = toml::from_str::<toml::Table>(text)
                .ok()
                .is_some_and(|t| t.get("section").is_some_and(toml::Value::is_table));
            Error::invalid(if single {
                format!("{m}: write each section as a [[section]] table (two brackets)")
            } else {
                m
            })
        })?;
        t.name_games::<R>(text)?;
        t.check()?;
        Ok(t)
    }

    /// Each section's game as `R` spells it; an unknown one is an error naming the
    /// line its name is on.
    fn name_games<R: Registry>(&mut self, text: &str) -> Result<()> {
        for (i, s) in self.sections.iter_mut().enumerate() {
            match R::game(&s.game) {
                Ok(known) => s.game = known.to_string(),
                Err(e) => {
                    return Err(Error::invalid(match section_game_line(text, i) {
                        Some(line) => format!("line {line}: {e}"),
                        None => e.to_string(),
                    }))
                }
            }
        }
        Ok(())
    }

    fn check(&self) -> Result<()> {
        if self.sections.is_empty() {
            return Err(Error::invalid("it has no [[section]]: add at least one"));
        }
        if !(0.5..=2.0).contains(&self.min_line_pt) {
            return Err(Error::invalid(format!(
                "min_line_pt is {}: give 0.5 (the print minimum) to 2 points",
                self.min_line_pt
            )));
        }
        for (i, s) in self.sections.iter().enumerate() {
            let name = format!("section {} ({})", i + 1, s.game);
            if s.count == 0 {
                return Err(Error::invalid(format!(
                    "{name}: count is 0; a section needs at least 1 puzzle"
                )));
            }
            if !(1..=MAX_PER_PAGE).contains(&s.per_page) {
                return Err(Error::invalid(format!(
                    "{name}: per_page must be 1 to {MAX_PER_PAGE}, not {}",
                    s.per_page
                )));
            }
        }
        if let Some(c) = self.answers.columns {
            if !(1..=MAX_ANSWER_COLUMNS).contains(&c) {
                return Err(Error::invalid(format!(
                    "answers.columns must be 1 to {MAX_ANSWER_COLUMNS}, not {c}"
                )));
            }
        }
        if !self.isbn.is_empty() {
            check_isbn(&self.isbn)?;
        }
        for (key, value) in [
            ("background", &self.cover.background),
            ("accent", &self.cover.accent),
        ] {
            if let Some(v) = value.as_deref().filter(|v| parse_hex_color(v).is_none()) {
                return Err(Error::invalid(format!(
                    "cover.{key} = {} is not a colour: write \"#RRGGBB\", e.g. \"#1d3557\"",
                    crate::input::shown(v)
                )));
            }
        }
        if self.cover.blurb.chars().count() > MAX_BLURB_CHARS {
            return Err(Error::invalid(format!(
                "cover.blurb has {} characters; a back cover holds at most {MAX_BLURB_CHARS}",
                self.cover.blurb.chars().count()
            )));
        }
        if let Some(d) = &self.date {
            parse_date(d).ok_or_else(|| {
                Error::invalid(format!(
                    "date = {} is not a date: write YYYY-MM-DD, e.g. \"2026-11-24\"",
                    crate::input::excerpt(d)
                ))
            })?;
        }
        // Bound the counts before anything is generated: the puzzle pages alone (a
        // title page and the answers come on top) must fit a printed book.
        let max = MAX_PAGES;
        let mut pages = 1usize;
        for s in &self.sections {
            pages = pages.saturating_add(s.count.div_ceil(s.per_page));
        }
        if pages > max {
            return Err(Error::invalid(format!(
                "the sections' counts need at least {pages} pages; print-on-demand allows at most {max}: lower the counts or raise per_page"
            )));
        }
        let m = &self.margins;
        let (w, h) = self.page_size.mm();
        for (what, v) in [
            ("top", m.top),
            ("bottom", m.bottom),
            ("outside", m.outside),
            ("inside", m.inside),
        ] {
            if !(0.0..=w.min(h) / 4.0).contains(&v) {
                return Err(Error::invalid(format!(
                    "margins.{what} = {v} mm is outside 0 to {} mm",
                    w.min(h) / 4.0
                )));
            }
        }
        if self.service == Service::Ingram && self.color == ColorMode::Rgb {
            return Err(Error::invalid(
                "service = \"ingram\" with RGB colour: IngramSpark asks for CMYK or grey; set color = \"gray\" (black-and-white interiors) or \"cmyk\"",
            ));
        }
        let min = min_margin_mm(self.service, self.bleed);
        let sides: &[(&str, f32)] = match self.service {
            Service::Kdp => &[("outside", m.outside), ("top", m.top), ("bottom", m.bottom)],
            Service::Ingram => &[
                ("outside", m.outside),
                ("top", m.top),
                ("bottom", m.bottom),
                ("inside", m.inside),
            ],
        };
        for &(what, v) in sides {
            if v < min {
                return Err(Error::invalid(format!(
                    "margins.{what} = {v} mm is below {}'s minimum of {min} mm ({} in{})",
                    self.service.name(),
                    min / 25.4,
                    if self.bleed && self.service == Service::Kdp {
                        " with bleed"
                    } else {
                        ""
                    }
                )));
            }
        }
        Ok(())
    }

    /// What a user should know about a template that loads (one line each). `titles`
    /// are the names books give the games (each game's [`Present::TITLES`], in
    /// registry order), `held` the titles of this book's sections, `trademarks` the
    /// games' names that belong to others ([`Present::TRADEMARKS`]).
    ///
    /// [`Present::TITLES`]: crate::game::Present::TITLES
    /// [`Present::TRADEMARKS`]: crate::game::Present::TRADEMARKS
    pub fn warnings(&self, titles: &[&str], held: &[&str], trademarks: &[&str]) -> Vec<String> {
        let mut w = Vec::new();
        if self.author.trim().is_empty()
            && self.publisher.trim().is_empty()
            && self.copyright.trim().is_empty()
        {
            w.push(
                "the book names no copyright holder (its copyright page says only \"© YEAR. All rights reserved.\"): set author = \"...\" or publisher = \"...\" in the template"
                    .to_string(),
            );
        }
        for (key, text) in [("title", &self.title), ("subtitle", &self.subtitle)] {
            if let Some(mark) = trademarks.iter().find(|m| names_word(text, m)) {
                w.push(format!(
                    "the {key} names {mark}, a trademark of others: print services (KDP among them) may refuse a book whose title or subtitle holds one; name the kind of puzzle instead (see docs/books.md)"
                ));
            }
        }
        if self.answers.per_page.is_some() {
            w.push(
                "answers.per_page is no longer used: answers run on in rows (set answers.columns to choose how many side by side)"
                    .to_string(),
            );
        }
        // A back cover must not promise a game the book does not hold: a game's name
        // as a name (capitalized, its words side by side), not the verb "flip".
        let blurb = &self.cover.blurb;
        let words: Vec<&str> = blurb.split_whitespace().collect();
        let named = |title: &str| {
            let t: Vec<&str> = title.split(' ').collect();
            words.windows(t.len()).any(|w| {
                w.iter().zip(&t).enumerate().all(|(i, (word, want))| {
                    // Letters of the word (punctuation may follow only the last).
                    let core = word.trim_start_matches(|c: char| !c.is_alphanumeric());
                    let core = if i + 1 == t.len() {
                        core.trim_end_matches(|c: char| !c.is_alphanumeric())
                    } else {
                        core
                    };
                    core == *want
                })
            })
        };
        for title in titles {
            let holds = held.contains(title);
            if named(title) && !holds {
                w.push(format!(
                    "cover.blurb names {title}, but the book has no {title} section: change the blurb or add the section"
                ));
            }
        }
        w
    }
}

/// KDP's thinnest line, the default.
fn three_quarter_point() -> f32 {
    0.75
}

/// Whether `text` holds `word` as a word of its own, in any case ("CATAN's" holds
/// "Catan"; "Catanzaro" does not).
fn names_word(text: &str, word: &str) -> bool {
    let text = text.to_lowercase();
    let word = word.to_lowercase();
    text.match_indices(&word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// A date written YYYY-MM-DD (see [`crate::date::parse_ymd`]), from 1970 on (a PDF's
/// creation date), as (year, month, day).
pub(crate) fn parse_date(s: &str) -> Option<(i64, u32, u32)> {
    let d = crate::date::parse_ymd(s).filter(|d| d.year() >= 1970)?;
    Some((
        i64::from(d.year()),
        u32::from(u8::from(d.month())),
        u32::from(d.day()),
    ))
}

/// Check an ISBN-10 or ISBN-13 (hyphens and spaces allowed) by its check digit.
pub(crate) fn check_isbn(isbn: &str) -> Result<()> {
    let digits: Vec<char> = isbn.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let bad = |why: &str| {
        Err(Error::param(
            "isbn",
            format!("= {} {why}", crate::input::excerpt(isbn)),
        ))
    };
    match digits.len() {
        13 => {
            let Some(v) = digits
                .iter()
                .map(|c| c.to_digit(10))
                .collect::<Option<Vec<u32>>>()
            else {
                return bad("has a character that is not a digit");
            };
            let sum: u32 = v
                .iter()
                .enumerate()
                .map(|(i, d)| if i % 2 == 0 { *d } else { 3 * d })
                .sum();
            if !sum.is_multiple_of(10) {
                return bad("fails its check digit (ISBN-13)");
            }
        }
        10 => {
            let mut sum = 0;
            for (i, c) in digits.iter().enumerate() {
                let d = match c {
                    'X' | 'x' if i == 9 => 10,
                    c => match c.to_digit(10) {
                        Some(d) => d,
                        None => return bad("has a character that is not a digit"),
                    },
                };
                sum += (10 - i as u32) * d;
            }
            if !sum.is_multiple_of(11) {
                return bad("fails its check digit (ISBN-10)");
            }
        }
        _ => return bad("is not 10 or 13 digits long"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registry of names alone: a template is read knowing only which games exist.
    struct Names;
    impl Registry for Names {
        const GAMES: &'static [&'static str] = &["flip", "number_match"];
        const STATISTICS: &'static [&'static str] = &[];
        fn visit<V: crate::game::GameVisitor>(name: &str, _: V) -> Result<V::Output> {
            Self::game(name).and(Err(Error::invalid("no game is built in these tests")))
        }
        fn visit_statistic<V: ground::statistic::StatVisitor>(_: &str, _: V) -> Option<V::Out> {
            None
        }
    }

    #[test]
    fn game_names_are_kept_as_the_registry_spells_them_and_unknown_ones_name_their_line() {
        let t = Template::parse::<Names>(&MINIMAL.replace("flip", "number-match")).unwrap();
        assert_eq!(t.sections[0].game, "number_match");
        let text = format!("{MINIMAL}\n[[section]]\ncount = 1\ngame = \"chess\"\n");
        let e = Template::parse::<Names>(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("line 8: unknown game 'chess'") && e.contains("flip, number_match"),
            "{e}"
        );
    }

    const MINIMAL: &str = "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 2\n";

    #[test]
    fn minimal_template_gets_defaults() {
        let t = Template::parse::<Names>(MINIMAL).unwrap();
        assert_eq!(t.page_size, PageSize::A4);
        assert_eq!(t.sections[0].per_page, 1);
        assert_eq!(t.answers.columns, None);
    }

    #[test]
    fn isbns_and_dates_are_checked() {
        // The worked examples of the ISBN standard's check digits, 13 and 10 digits.
        assert!(check_isbn("978-0-306-40615-7").is_ok());
        assert!(check_isbn("0-306-40615-2").is_ok());
        assert!(check_isbn("978-0-306-40615-6")
            .unwrap_err()
            .to_string()
            .contains("check digit"));
        assert!(check_isbn("0-306-40615-3")
            .unwrap_err()
            .to_string()
            .contains("check digit"));
        assert!(check_isbn("12345")
            .unwrap_err()
            .to_string()
            .contains("10 or 13"));
        assert_eq!(parse_date("2024-02-29"), Some((2024, 2, 29)));
        assert_eq!(parse_date("2023-02-29"), None);
        assert_eq!(parse_date("2026-1-5"), None);
        let e = Template::parse::<Names>(&format!("isbn = \"978-0-306-40615-6\"\n{MINIMAL}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("isbn"), "{e}");
        let t = Template::parse::<Names>(&format!(
            "author = \"A\"\n{MINIMAL}[answers]\nper_page = 6\n"
        ));
        assert_eq!(t.unwrap().warnings(&[], &[], &[]).len(), 1);
    }

    #[test]
    fn a_book_without_a_holder_or_with_a_trademark_in_its_title_is_warned() {
        let warn = |head: &str| {
            Template::parse::<Names>(&format!("{head}\n{MINIMAL}"))
                .unwrap()
                .warnings(&[], &[], &["Catan", "Hidato"])
        };
        let w = warn("");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].contains("author = ") && w[0].contains("publisher = "),
            "{w:?}"
        );
        // Any one of the three names the holder.
        for head in [
            "author = \"A. Writer\"",
            "publisher = \"P Press\"",
            "copyright = \"© 2026 X\"",
        ] {
            assert!(warn(head).is_empty(), "{head}: {:?}", warn(head));
        }
        let marked = |title: &str, subtitle: &str| {
            let mut t = Template::parse::<Names>(&format!("author = \"A\"\n{MINIMAL}")).unwrap();
            t.title = title.to_string();
            t.subtitle = subtitle.to_string();
            t.warnings(&[], &[], &["Catan", "Hidato"])
        };
        assert!(marked("Number Paths", "Hidoku for travellers").is_empty());
        assert!(marked("Catanzaro Walks", "").is_empty());
        let w = marked("The CATAN'S Almanac", "");
        assert!(w.len() == 1 && w[0].contains("title names Catan"), "{w:?}");
        let w = marked("Paths", "Hidato, large print");
        assert!(
            w.len() == 1 && w[0].contains("subtitle names Hidato"),
            "{w:?}"
        );
    }

    #[test]
    fn a_template_that_sets_no_ink_or_line_width_is_print_safe() {
        let t = Template::parse::<Names>(MINIMAL).unwrap();
        assert_eq!(t.color, ColorMode::Gray);
        assert_eq!(t.min_line_pt, 0.75);
    }

    #[test]
    fn errors_are_one_line_and_name_the_problem() {
        let e = Template::parse::<Names>(&format!("titel = \"x\"\n{MINIMAL}"))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("line 1:") && e.contains("titel"), "{e}");
        assert!(!e.contains('\n'));
        let e = Template::parse::<Names>(&MINIMAL.replace("count = 2", "count = 0"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("count is 0"), "{e}");
        let e = Template::parse::<Names>(&format!("page_size = \"b5\"\n{MINIMAL}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("b5") && e.contains("6.14x9.21in"), "{e}");
        let e = Template::parse::<Names>(&format!("page_size = \"3x5\"\n{MINIMAL}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside the custom range"), "{e}");
        assert!(Template::parse::<Names>("title = \"T\"\nsection = []\n")
            .unwrap_err()
            .to_string()
            .contains("no [[section]]"));
        let e = Template::parse::<Names>(&format!("{MINIMAL}per_page = 40\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("per_page"), "{e}");
        // A count far past any book is refused here, before a puzzle is made.
        let huge = MINIMAL.replace("count = 2", "count = 18446744073709551615");
        let e = Template::parse::<Names>(&huge).unwrap_err().to_string();
        assert!(e.contains("at most 828"), "{e}");
    }
}
