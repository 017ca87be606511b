//! The date a run is for (`puzzlebook run JOB --date YYYY-MM-DD`, by default today in
//! UTC): a job can take its seed from it (`seed = "date"`, or `"date+N"` to mix in a
//! number of its own) and name its folder and files by it (`{date}`, `{year}`,
//! `{month}`, `{day}`, `{week}`), so a scheduled run makes something new each day and
//! the same date always makes the same bytes.

use crate::{Error, Result};

/// A calendar date (proleptic Gregorian), year 1 to 9999.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RunDate(time::Date);

/// The placeholders names may hold, for messages.
pub(crate) const PLACEHOLDERS: &str = "{date}, {year}, {month}, {day} or {week}";

/// The most a seed's own number may be in `seed = "date+N"` (so N * 10^8 + YYYYMMDD
/// fits in 64 bits).
pub(crate) const MAX_SEED_SALT: u64 = (u64::MAX - 99_991_231) / 100_000_000;

impl RunDate {
    /// A date written `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Result<RunDate> {
        let bad = || {
            Error::invalid(format!(
                "date {}: write a calendar date as YYYY-MM-DD, year 1 to 9999 (e.g. 2026-11-26)",
                crate::input::shown(text)
            ))
        };
        ground::date::parse_ymd(text).map(RunDate).ok_or_else(bad)
    }

    /// A date as `run --date` takes it: `YYYY-MM-DD`, or `today`, `tomorrow` or
    /// `yesterday` (in UTC, from `today`), so a feed can be made a day ahead.
    pub fn parse_relative(text: &str, today: RunDate) -> Result<RunDate> {
        let days = match text {
            "today" => 0,
            "tomorrow" => 1,
            "yesterday" => -1,
            _ => return RunDate::parse(text),
        };
        today
            .0
            .checked_add(time::Duration::days(days))
            .map(RunDate)
            .ok_or_else(|| Error::invalid(format!("date {text}: outside the years 1 to 9999")))
    }

    /// Today in UTC.
    pub fn today() -> RunDate {
        RunDate(time::OffsetDateTime::now_utc().date())
    }

    /// The date as `YYYY-MM-DD`.
    pub fn iso(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            self.0.year(),
            u8::from(self.0.month()),
            self.0.day()
        )
    }

    /// The date as the number YYYYMMDD: the seed of `seed = "date"`.
    pub fn number(&self) -> u64 {
        let year = u64::try_from(self.0.year()).unwrap_or(0);
        year * 10_000 + u64::from(u8::from(self.0.month())) * 100 + u64::from(self.0.day())
    }

    /// The ISO 8601 week, `YYYY-Www` (the week's year can differ from the date's
    /// around the new year: 2027-01-01 is in 2026-W53).
    pub(crate) fn iso_week(&self) -> String {
        let (year, week, _) = self.0.to_iso_week_date();
        format!("{year:04}-W{week:02}")
    }

    /// `text` with its placeholders filled in: `{date}` 2026-11-26, `{year}` 2026,
    /// `{month}` 11, `{day}` 26, `{week}` 2026-W48. Any other `{...}` is an error.
    pub fn expand(&self, text: &str) -> Result<String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            if after.starts_with('{') {
                return Err(Error::invalid(format!(
                    "{} has '{{{{': a placeholder takes one pair of braces, such as {{date}} (braces cannot be written doubled to mean themselves): use {PLACEHOLDERS}",
                    crate::input::shown(text)
                )));
            }
            let Some(close) = after.find('}') else {
                return Err(Error::invalid(format!(
                    "{} has a '{{' without its '}}': a placeholder is {PLACEHOLDERS}",
                    crate::input::shown(text)
                )));
            };
            let value = match &after[..close] {
                "date" => self.iso(),
                "year" => format!("{:04}", self.0.year()),
                "month" => format!("{:02}", u8::from(self.0.month())),
                "day" => format!("{:02}", self.0.day()),
                "week" => self.iso_week(),
                other => {
                    return Err(Error::invalid(format!(
                        "{} has the placeholder {{{}}}{}: use {PLACEHOLDERS}",
                        crate::input::shown(text),
                        crate::input::excerpt(other),
                        crate::input::suggestion(other, ["date", "year", "month", "day", "week"])
                    )))
                }
            };
            out.push_str(&value);
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }
}

/// A seed as a job file writes it: a number, `"date"` (the run's date as YYYYMMDD) or
/// `"date+N"` (N * 10^8 + YYYYMMDD: the date's seed with a number of the job's own, so
/// two jobs run for one date draw different puzzles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SeedSpec {
    /// This seed, whatever the date.
    Fixed(u64),
    /// From the run's date, with the job's own number (0 for plain `"date"`).
    Date(u64),
}

impl SeedSpec {
    /// A seed from its TOML value; `what` names it in errors.
    pub(crate) fn from_toml(value: &toml::Value, what: &str) -> Result<SeedSpec> {
        let bad = || {
            Error::invalid(format!(
                "{what} {value} is not a seed: write a whole number >= 0, \"date\" or \"date+N\" (N from 0 to {MAX_SEED_SALT})"
            ))
        };
        match value {
            toml::Value::Integer(n) => u64::try_from(*n).map(SeedSpec::Fixed).map_err(|_| bad()),
            toml::Value::String(s) if s == "date" => Ok(SeedSpec::Date(0)),
            toml::Value::String(s) => {
                let n = s
                    .strip_prefix("date+")
                    .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    .and_then(|n| n.parse::<u64>().ok())
                    .filter(|&n| n <= MAX_SEED_SALT)
                    .ok_or_else(bad)?;
                Ok(SeedSpec::Date(n))
            }
            _ => Err(bad()),
        }
    }

    /// The seed for a run on `date`.
    pub fn seed(self, date: RunDate) -> u64 {
        match self {
            SeedSpec::Fixed(n) => n,
            SeedSpec::Date(n) => n * 100_000_000 + date.number(),
        }
    }

    /// Whether the seed depends on the date.
    pub(crate) fn is_dated(self) -> bool {
        matches!(self, SeedSpec::Date(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_dates_count_from_today() {
        let d = RunDate::parse("2026-12-31").unwrap();
        let r = |t| RunDate::parse_relative(t, d).unwrap().iso();
        assert_eq!(r("today"), "2026-12-31");
        assert_eq!(r("tomorrow"), "2027-01-01");
        assert_eq!(r("yesterday"), "2026-12-30");
        assert_eq!(r("2026-02-03"), "2026-02-03");
        assert!(RunDate::parse_relative("next week", d).is_err());
        let last = RunDate::parse("9999-12-31").unwrap();
        assert!(RunDate::parse_relative("tomorrow", last).is_err());
    }

    #[test]
    fn dates_parse_strictly_and_name_their_week() {
        let d = RunDate::parse("2026-11-26").unwrap();
        assert_eq!(
            (d.iso(), d.number(), d.iso_week()),
            ("2026-11-26".into(), 20261126, "2026-W48".into())
        );
        // Weeks by ISO 8601: the first Thursday's week is week 1.
        assert_eq!(RunDate::parse("2027-01-01").unwrap().iso_week(), "2026-W53");
        assert_eq!(RunDate::parse("2024-12-30").unwrap().iso_week(), "2025-W01");
        assert_eq!(RunDate::parse("2024-02-29").unwrap().number(), 20240229);
        for bad in [
            "2026-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-11-26",
            "2026/11/26",
            "0000-01-01",
            "2026-11-26x",
            "",
            "+026-11-26",
        ] {
            assert!(RunDate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn placeholders_expand_and_unknown_ones_are_refused() {
        let d = RunDate::parse("2026-03-05").unwrap();
        assert_eq!(
            d.expand("out/{year}/{month}/{date}").unwrap(),
            "out/2026/03/2026-03-05"
        );
        assert_eq!(
            d.expand("puzzles-{week}-{day}.jsonl").unwrap(),
            "puzzles-2026-W10-05.jsonl"
        );
        assert_eq!(d.expand("plain").unwrap(), "plain");
        let e = d.expand("x-{dat}").unwrap_err().to_string();
        assert!(
            e.contains("{dat}") && e.contains("did you mean 'date'"),
            "{e}"
        );
        assert!(d.expand("x-{date").is_err());
    }

    #[test]
    fn seeds_from_dates_differ_by_date_and_by_salt() {
        let a = RunDate::parse("2026-11-26").unwrap();
        let b = RunDate::parse("2026-11-27").unwrap();
        let v = |s: &str| SeedSpec::from_toml(&toml::Value::String(s.into()), "seed").unwrap();
        assert_eq!(v("date").seed(a), 20261126);
        assert_eq!(v("date+7").seed(a), 720261126);
        assert_ne!(v("date").seed(a), v("date").seed(b));
        assert_eq!(
            SeedSpec::from_toml(&toml::Value::Integer(5), "seed")
                .unwrap()
                .seed(a),
            5
        );
        let max = format!("date+{MAX_SEED_SALT}");
        assert!(v(&max).seed(RunDate::parse("9999-12-31").unwrap()) > 0);
        for bad in ["date+", "date+x", "tomorrow", "date-1"] {
            assert!(
                SeedSpec::from_toml(&toml::Value::String(bad.into()), "seed").is_err(),
                "{bad}"
            );
        }
        assert!(SeedSpec::from_toml(&toml::Value::Integer(-1), "seed").is_err());
        let over = format!("date+{}", MAX_SEED_SALT + 1);
        assert!(SeedSpec::from_toml(&toml::Value::String(over), "seed").is_err());
    }
}
