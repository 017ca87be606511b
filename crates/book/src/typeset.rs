//! Typographic punctuation for the text a reader sees: "9 x 9" becomes "9 × 9", a
//! range "2-12" takes an en dash, a spaced hyphen becomes a spaced en dash, and
//! straight quotes turn into curly ones. Only reader text goes through here; command
//! lines (on the colophon) keep their plain characters.

/// The text with typographic punctuation.
pub(crate) fn typeset(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        // The character before `prev` and after `next`, for "9 x 9".
        let prev2 = i.checked_sub(2).map(|j| chars[j]);
        let next2 = chars.get(i + 2).copied();
        let out_c = match c {
            // 4x7 and 9 x 9 (a lone x between numbers).
            'x' if (digit(prev) && digit(next))
                || (prev == Some(' ') && next == Some(' ') && digit(prev2) && digit(next2)) =>
            {
                '×'
            }
            // 2-12: a range.
            '-' if digit(prev) && digit(next) => '–',
            // "word - word": a spaced en dash.
            '-' if prev == Some(' ') && next == Some(' ') => '–',
            '"' => {
                if opens(prev) {
                    '“'
                } else {
                    '”'
                }
            }
            '\'' => {
                if opens(prev) {
                    '‘'
                } else {
                    '’'
                }
            }
            c => c,
        };
        out.push(out_c);
    }
    out
}

/// Whether a quote after `prev` opens (at the start, after a space or an opening bracket).
fn opens(prev: Option<char>) -> bool {
    match prev {
        None => true,
        Some(p) => p.is_whitespace() || matches!(p, '(' | '[' | '{' | '“' | '‘' | '–' | '—'),
    }
}

#[cfg(test)]
mod tests {
    use super::typeset;

    #[test]
    fn dimensions_ranges_and_quotes() {
        assert_eq!(typeset("9 x 9 and 4x7"), "9 × 9 and 4×7");
        assert_eq!(typeset("pips 2-12, 6-8"), "pips 2–12, 6–8");
        assert_eq!(typeset("Small - then big"), "Small – then big");
        assert_eq!(
            typeset("Press \"Add\" when it's stuck ('rare')"),
            "Press “Add” when it’s stuck (‘rare’)"
        );
    }

    #[test]
    fn words_stay_as_they_are() {
        for s in ["extra large", "red-apart", "x marks", "max-pips 5", "3 x"] {
            assert_eq!(typeset(s), s);
        }
    }
}
