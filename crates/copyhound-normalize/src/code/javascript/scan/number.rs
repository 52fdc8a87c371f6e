//! JavaScript's numbers as the grammar's lexer cuts them.

use crate::code::lexer::digits_len;

/// The length of the number at the start of `rest`: the longest match of
/// the grammar's `number` (hex, octal, binary, decimal with fraction and
/// exponent, big integers with `n`).
pub(super) fn number_len(rest: &[u8]) -> usize {
    let digits = |at: usize, digit: fn(&u8) -> bool| digits_len(rest, at, digit);
    let bigint = |end: usize| end + usize::from(rest.get(end) == Some(&b'n'));
    let radix = match rest.get(..2) {
        Some(b"0x" | b"0X") => Some(digits(2, u8::is_ascii_hexdigit)),
        Some(b"0b" | b"0B") => Some(digits(2, |b| matches!(b, b'0' | b'1'))),
        Some(b"0o" | b"0O") => Some(digits(2, |b| (b'0'..=b'7').contains(b))),
        _ => None,
    };
    if let Some(end) = radix.filter(|&end| end > 2) {
        return bigint(end);
    }
    let decimal = |at: usize| digits(at, u8::is_ascii_digit);
    let whole = decimal(0);
    // `0`, or an optional `0`, a non-zero digit and more digits: the part
    // a fraction or an exponent may follow.
    let integer = if rest.first() == Some(&b'0') {
        if rest.get(1).is_some_and(|b| (b'1'..=b'9').contains(b)) {
            let end = if rest.get(2) == Some(&b'_') { 3 } else { 2 };
            let more = decimal(end);
            if more > end { more } else { 2 }
        } else {
            1
        }
    } else {
        whole
    };
    let exponent = |at: usize| -> usize {
        if !matches!(rest.get(at), Some(b'e' | b'E')) {
            return at;
        }
        let sign = usize::from(matches!(rest.get(at + 1), Some(b'+' | b'-')));
        let end = decimal(at + 1 + sign);
        if end > at + 1 + sign { end } else { at }
    };
    let mut best = bigint(whole);
    if integer > 0 && rest.get(integer) == Some(&b'.') {
        let fraction = decimal(integer + 1);
        best = best.max(exponent(fraction));
    } else if whole == 0 && rest.first() == Some(&b'.') {
        let fraction = decimal(1);
        if fraction > 1 {
            best = best.max(exponent(fraction));
        }
    }
    if integer > 0 {
        best = best.max(exponent(integer));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::number_len;

    #[test]
    fn numbers_are_the_longest_match() {
        for (text, len) in [
            ("0x1F_n", 4),
            ("10n", 3),
            (".5e-3", 5),
            ("0o17", 4),
            ("0b1_0", 5),
            ("1_000.5", 7),
            ("0123", 4),
            ("08.5", 4),
            ("1.", 2),
            ("1e3", 3),
            ("1e", 1),
            ("0.5", 3),
            ("00.5", 2),
        ] {
            assert_eq!(number_len(text.as_bytes()), len, "{text}");
        }
    }
}
