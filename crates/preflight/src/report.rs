//! What preflight reports: problems (severity, rule, pages, worst value) and the report
//! of a whole file.

use super::*;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The service rejects the file (or prints it wrongly).
    Fail,
    /// Worth a look; the service accepts it.
    Warn,
}

/// One problem and the pages it concerns.
#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    /// Fail or warn.
    pub severity: Severity,
    /// The rule: boxes, pages, safe-area, fonts, text-size, line-width, colour, pdfx, file.
    pub rule: &'static str,
    /// The pages (1-based); empty when the problem is the whole file's.
    pub pages: Vec<u32>,
    /// What is wrong, found vs allowed.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.severity {
            Severity::Fail => "FAIL",
            Severity::Warn => "WARN",
        };
        if self.pages.is_empty() {
            write!(f, "{tag}: {}", self.message)
        } else {
            let word = if self.pages.len() == 1 {
                "page"
            } else {
                "pages"
            };
            write!(
                f,
                "{tag} {word} {}: {}",
                page_list(&self.pages),
                self.message
            )
        }
    }
}

/// Pages as runs: "3-7, 9" (long lists end with "... (N pages)").
pub(crate) fn page_list(pages: &[u32]) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &p in pages {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == p => *hi = p,
            Some((_, hi)) if *hi == p => {}
            _ => runs.push((p, p)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .take(20)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    let mut s = text.join(", ");
    if runs.len() > 20 {
        s.push_str(&format!(", ... ({} pages)", pages.len()));
    }
    s
}

/// Inches, with up to three decimals ("0.375 in", "0.5 in").
pub(super) fn inch(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{} in", if s == "-0" { "0" } else { s })
}

/// "1 page", "24 pages".
pub(super) fn count(n: usize) -> String {
    format!("{n} page{}", if n == 1 { "" } else { "s" })
}

/// Points, with up to two decimals.
pub(super) fn pt(x: f64) -> String {
    let s = format!("{x:.2}");
    format!("{} pt", s.trim_end_matches('0').trim_end_matches('.'))
}

/// What preflight found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The service checked against.
    pub service: Service,
    /// Pages in the file.
    pub pages: usize,
    /// Page 1's trim size in inches (width, height).
    pub trim_in: Option<(f64, f64)>,
    /// The bleed of page 1 in inches (0 without bleed).
    pub bleed_in: f64,
    /// Every colour space painted with.
    pub colour_spaces: Vec<String>,
    /// The smallest text size found, in points.
    pub min_text_pt: Option<f64>,
    /// The thinnest stroke found, in points.
    pub min_line_pt: Option<f64>,
    /// The problems, failures first.
    pub problems: Vec<Problem>,
}

impl Report {
    /// Whether a rule fails.
    pub fn failed(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Fail)
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let fails = self
            .problems
            .iter()
            .filter(|p| p.severity == Severity::Fail)
            .count();
        let warns = self.problems.len() - fails;
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let trim = self
            .trim_in
            .map(|(w, h)| {
                let name = match ((w * 100.0).round() as i64, (h * 100.0).round() as i64) {
                    (827, 1169) => " (A4)",
                    (583, 827) => " (A5)",
                    _ => "",
                };
                format!(
                    "trim {} x {}{name}",
                    inch(w).trim_end_matches(" in"),
                    inch(h)
                )
            })
            .unwrap_or_else(|| "no trim size".into());
        let verdict = if fails > 0 { "FAILS" } else { "passes" };
        if self.pages == 0 {
            return format!(
                "{} preflight {verdict}: {}, {} (its pages could not be read)",
                self.service.name(),
                plural(fails, "failure"),
                plural(warns, "warning"),
            );
        }
        format!(
            "{} preflight {verdict}: {}, {} ({}, {trim}, bleed {}; {}, {}; colour: {})",
            self.service.name(),
            plural(fails, "failure"),
            plural(warns, "warning"),
            count(self.pages),
            inch(self.bleed_in),
            self.min_text_pt
                .map_or("no text".into(), |t| format!("text >= {}", pt(t))),
            self.min_line_pt
                .map_or("no strokes".into(), |l| format!("lines >= {}", pt(l))),
            if self.colour_spaces.is_empty() {
                "none".into()
            } else {
                self.colour_spaces.join(", ")
            }
        )
    }
}

/// The problems found, worded, in the order of their (severity, rule, key).
pub(super) fn worded(found: Found, service: Service, book_bleed: bool) -> Vec<Problem> {
    let mut problems = Vec::new();
    for ((severity, rule, key), (pages, value)) in found.map {
        let message = match rule {
            "safe-area" => safe_area_message(&key, value, book_bleed),
            "text-size" => format!(
                "{key}: smallest {}, needs at least {}",
                pt(value),
                pt(MIN_TEXT_PT)
            ),
            "line-width" => format!(
                "{key}: thinnest {}, needs at least {}",
                pt(value),
                pt(if severity == Fail {
                    MIN_LINE_PT
                } else {
                    WARN_LINE_PT
                })
            ),
            "images" => format!(
                "{key}: lowest {} ppi, {} asks for at least 300",
                value.round(),
                service.name()
            ),
            "boxes" if key.starts_with("bleed on") => {
                format!("{key}: found {}", inch(value))
            }
            _ => key,
        };
        problems.push(Problem {
            severity,
            rule,
            pages: pages.into_iter().collect(),
            message,
        });
    }
    problems
}

/// A safe-area problem's message: `key` is "what|side|need" and `value` the worst
/// distance from the trim, in inches (negative past it).
pub(super) fn safe_area_message(key: &str, value: f64, book_bleed: bool) -> String {
    let mut parts = key.split('|');
    let what = parts.next().unwrap_or("ink");
    let side = parts.next().unwrap_or("");
    let need: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let found = if value < 0.0 {
        format!("{} past the trim", inch(-value))
    } else {
        format!("{} from the trim", inch(value))
    };
    let bleed_note = if what == "ink" && book_bleed {
        " (and does not run off into the bleed)"
    } else {
        ""
    };
    match what.strip_prefix("unseen:") {
        Some(why) => format!(
            "an image whose pixels preflight cannot see ({why}) covers the safe area on the {side} edge: its box is {found}, needs at least {}; check by eye that it is white there",
            inch(need)
        ),
        None => format!(
            "{what} outside the safe area on the {side} edge{bleed_note}: {found}, needs at least {}",
            inch(need)
        ),
    }
}
