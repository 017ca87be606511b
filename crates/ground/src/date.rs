//! Calendar dates as users and files write them, `YYYY-MM-DD`: one reader for a job's
//! `--date`, a template's `date` and a catalogue entry's date.

/// The day `text` names, written `YYYY-MM-DD`: four, two and two ASCII digits (no sign,
/// no spaces), year 1 to 9999, and a day the (proleptic Gregorian) calendar has. None
/// for anything else.
pub fn parse_ymd(text: &str) -> Option<time::Date> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u16> {
        b[r].iter().try_fold(0u16, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0'))
        })
    };
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    if year == 0 {
        return None;
    }
    let month = time::Month::try_from(u8::try_from(month).ok()?).ok()?;
    time::Date::from_calendar_date(i32::from(year), month, u8::try_from(day).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leap_days_follow_the_gregorian_rule() {
        assert!(parse_ymd("2024-02-29").is_some());
        assert!(parse_ymd("2000-02-29").is_some());
        assert!(parse_ymd("2023-02-29").is_none());
        assert!(parse_ymd("1900-02-29").is_none());
        assert!(parse_ymd("2026-04-31").is_none());
        assert!(parse_ymd("2026-12-31").is_some());
    }

    #[test]
    fn only_the_one_spelling_is_a_date() {
        for bad in [
            "2026-1-05",
            "2026-01-5",
            "26-01-05",
            "2026/01/05",
            "2026-01-05 ",
            " 2026-01-05",
            "2026-+1-05",
            "2026-01-+5",
            "+026-01-05",
            "0000-01-01",
            "2026-00-10",
            "2026-13-01",
            "2026-01-00",
            "2026-01-32",
            "",
            "2026-01-0x",
            "２０２６-01-05",
        ] {
            assert!(parse_ymd(bad).is_none(), "{bad:?}");
        }
        let d = parse_ymd("0001-01-01").unwrap();
        assert_eq!((d.year(), u8::from(d.month()), d.day()), (1, 1, 1));
        let d = parse_ymd("9999-12-31").unwrap();
        assert_eq!((d.year(), u8::from(d.month()), d.day()), (9999, 12, 31));
    }

    #[test]
    fn a_400_year_cycle_has_146097_days() {
        // The Gregorian calendar repeats every 400 years, which hold 146,097 days
        // (97 leap years): count the strings that parse among every year, month 00-13
        // and day 00-32 of one cycle.
        let mut days = 0;
        for y in 2000..2400 {
            for m in 0..14 {
                for d in 0..33 {
                    days += usize::from(parse_ymd(&format!("{y:04}-{m:02}-{d:02}")).is_some());
                }
            }
        }
        assert_eq!(days, 146_097);
    }
}
