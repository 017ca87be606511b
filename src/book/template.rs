//! Book templates (TOML). Unknown keys are errors, so a typo never silently does nothing.

use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Trim sizes in millimetres.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PageSize {
    #[default]
    #[serde(rename = "a4", alias = "A4")]
    A4,
    /// US Letter, also accepted as "8.5x11" (the same trim).
    #[serde(rename = "letter", alias = "8.5x11")]
    Letter,
    /// The print-on-demand trade size, 6 x 9 in.
    #[serde(rename = "6x9")]
    Trade6x9,
}

impl PageSize {
    pub fn mm(self) -> (f32, f32) {
        match self {
            PageSize::A4 => (210.0, 297.0),
            PageSize::Letter => (215.9, 279.4),
            PageSize::Trade6x9 => (152.4, 228.6),
        }
    }
}

/// Margins in millimetres. The inside (gutter) margin follows the page count (see
/// `layout::gutter_mm`); `inside` only raises it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Margins {
    pub top: f32,
    pub bottom: f32,
    pub outside: f32,
    pub inside: f32,
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            top: 12.7,
            bottom: 12.7,
            outside: 12.7,
            inside: 0.0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerPlacement {
    /// All answers at the end of the book.
    #[default]
    End,
    /// No answer key.
    None,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AnswerKey {
    pub placement: AnswerPlacement,
    /// Solutions per answer page.
    pub per_page: usize,
}

impl Default for AnswerKey {
    fn default() -> Self {
        AnswerKey {
            placement: AnswerPlacement::End,
            per_page: 6,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// A game name ("flip", ...).
    pub game: String,
    /// Defaults to the game's title.
    pub heading: Option<String>,
    /// How to play, for players; defaults to the game's own text.
    pub intro: Option<String>,
    pub count: usize,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    pub title: String,
    #[serde(default)]
    pub subtitle: String,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub page_size: PageSize,
    /// Bleed adds 0.125 in to the outside, top and bottom edges.
    #[serde(default)]
    pub bleed: bool,
    /// The book's master seed (the command line's --seed wins).
    pub seed: Option<u64>,
    #[serde(default)]
    pub margins: Margins,
    #[serde(default)]
    pub answers: AnswerKey,
    #[serde(rename = "section")]
    pub sections: Vec<Section>,
}

/// Largest puzzles-per-page a section may ask for.
pub const MAX_PER_PAGE: usize = 12;

impl Template {
    /// Read and check a template file; every error is one line naming the file.
    pub fn load(path: &Path) -> Result<Template> {
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
        Template::parse(&text).map_err(|message| Error::Template {
            path: path.to_path_buf(),
            message,
        })
    }

    pub fn parse(text: &str) -> Result<Template, String> {
        let t: Template = toml::from_str(text).map_err(|e| crate::input::toml_error(&e, text))?;
        t.check()?;
        Ok(t)
    }

    fn check(&self) -> Result<(), String> {
        if self.sections.is_empty() {
            return Err("it has no [[section]]: add at least one".into());
        }
        for (i, s) in self.sections.iter().enumerate() {
            let name = format!("section {} ({})", i + 1, s.game);
            if s.count == 0 {
                return Err(format!(
                    "{name}: count is 0; a section needs at least 1 puzzle"
                ));
            }
            if !(1..=MAX_PER_PAGE).contains(&s.per_page) {
                return Err(format!(
                    "{name}: per_page must be 1 to {MAX_PER_PAGE}, not {}",
                    s.per_page
                ));
            }
        }
        if !(1..=MAX_PER_PAGE).contains(&self.answers.per_page) {
            return Err(format!("answers.per_page must be 1 to {MAX_PER_PAGE}"));
        }
        // Bound the counts before anything is generated: the puzzle pages alone (a
        // title page and the answers come on top) must fit a printed book.
        let max = super::layout::MAX_PAGES;
        let mut pages = 1usize;
        for s in &self.sections {
            pages = pages.saturating_add(s.count.div_ceil(s.per_page));
        }
        if pages > max {
            return Err(format!(
                "the sections' counts need at least {pages} pages; print-on-demand allows at most {max}: lower the counts or raise per_page"
            ));
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
                return Err(format!(
                    "margins.{what} = {v} mm is outside 0 to {} mm",
                    w.min(h) / 4.0
                ));
            }
        }
        let min_outside = if self.bleed { 9.525 } else { 6.35 };
        if m.outside < min_outside {
            return Err(format!(
                "margins.outside = {} mm is below the print-on-demand minimum of {min_outside} mm ({} in)",
                m.outside,
                if self.bleed { "0.375" } else { "0.25" }
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 2\n";

    #[test]
    fn minimal_template_gets_defaults() {
        let t = Template::parse(MINIMAL).unwrap();
        assert_eq!(t.page_size, PageSize::A4);
        assert_eq!(t.sections[0].per_page, 1);
        assert_eq!(t.answers.per_page, 6);
    }

    #[test]
    fn errors_are_one_line_and_name_the_problem() {
        let e = Template::parse(&format!("titel = \"x\"\n{MINIMAL}")).unwrap_err();
        assert!(e.starts_with("line 1:") && e.contains("titel"), "{e}");
        assert!(!e.contains('\n'));
        let e = Template::parse(&MINIMAL.replace("count = 2", "count = 0")).unwrap_err();
        assert!(e.contains("count is 0"), "{e}");
        let e = Template::parse(&format!("page_size = \"a5\"\n{MINIMAL}")).unwrap_err();
        assert!(e.contains("a5") || e.contains("variant"), "{e}");
        assert!(Template::parse("title = \"T\"\nsection = []\n")
            .unwrap_err()
            .contains("no [[section]]"));
        let e = Template::parse(&format!("{MINIMAL}per_page = 40\n")).unwrap_err();
        assert!(e.contains("per_page"), "{e}");
        // A count far past any book is refused here, before a puzzle is made.
        let huge = MINIMAL.replace("count = 2", "count = 18446744073709551615");
        let e = Template::parse(&huge).unwrap_err();
        assert!(e.contains("at most 828"), "{e}");
    }
}
