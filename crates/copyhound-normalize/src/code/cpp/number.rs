//! The C++ grammar's number literal.

/// The length of the C++ grammar's number literal at the start of
/// `bytes` (a digit, or `.` and a digit): the longest of its integer
/// readings with their suffix and its floating readings with theirs,
/// digits separated by `'`.
pub(super) fn number_len(bytes: &[u8]) -> usize {
    let digits = |at: usize, digit: fn(u8) -> bool| {
        let mut at = at;
        if !bytes.get(at).is_some_and(|&b| digit(b)) {
            return None;
        }
        while at < bytes.len() && digit(bytes[at]) {
            at += 1;
            if bytes.get(at) == Some(&b'\'') && bytes.get(at + 1).is_some_and(|&b| digit(b)) {
                at += 1;
            }
        }
        Some(at)
    };
    let decimal = |b: u8| b.is_ascii_digit();
    let hex = |b: u8| b.is_ascii_hexdigit();
    let prefixed = |at: usize, lower: u8| {
        bytes.get(at) == Some(&b'0')
            && bytes
                .get(at + 1)
                .is_some_and(|b| b.to_ascii_lowercase() == lower)
    };
    let exponent = |at: usize, marker: u8| -> Option<usize> {
        if bytes
            .get(at)
            .is_none_or(|b| b.to_ascii_lowercase() != marker)
        {
            return None;
        }
        let signed = usize::from(bytes.get(at + 1).is_some_and(|b| b"+-".contains(b)));
        digits(at + 1 + signed, decimal)
    };
    let mut longest = 0;
    // Integers, then their suffix.
    let integer = if prefixed(0, b'b') {
        digits(2, |b| b == b'0' || b == b'1')
    } else if prefixed(0, b'x') {
        digits(2, hex)
    } else if bytes.first() == Some(&b'0') {
        digits(0, |b| (b'0'..=b'7').contains(&b))
    } else {
        digits(0, decimal)
    };
    if let Some(end) = integer {
        longest = end + integer_suffix_len(&bytes[end..]);
    }
    // Decimal floating literals: digits and an exponent, digits and a
    // point, or a point and digits.
    let mut floats = Vec::new();
    if let Some(whole) = digits(0, decimal) {
        floats.extend(exponent(whole, b'e'));
        if bytes.get(whole) == Some(&b'.') {
            let fraction = digits(whole + 1, decimal).unwrap_or(whole + 1);
            floats.push(exponent(fraction, b'e').unwrap_or(fraction));
        }
    } else if bytes.first() == Some(&b'.')
        && let Some(fraction) = digits(1, decimal)
    {
        floats.push(exponent(fraction, b'e').unwrap_or(fraction));
    }
    // Hexadecimal floating literals need their binary exponent.
    if prefixed(0, b'x') {
        let mantissa = match digits(2, hex) {
            Some(whole) if bytes.get(whole) == Some(&b'.') => {
                Some(digits(whole + 1, hex).unwrap_or(whole + 1))
            }
            Some(whole) => Some(whole),
            None if bytes.get(2) == Some(&b'.') => digits(3, hex),
            None => None,
        };
        floats.extend(mantissa.and_then(|end| exponent(end, b'p')));
    }
    for end in floats {
        longest = longest.max(end + float_suffix_len(&bytes[end..]));
    }
    longest.max(1)
}

/// The longest match of `(ll|LL)[uU]?|[uU](ll|LL)?|[uU][lL]?|[uU][zZ]?|
/// [lL][uU]?|[zZ][uU]?` at the start of `bytes`.
fn integer_suffix_len(bytes: &[u8]) -> usize {
    let is = |at: usize, set: &[u8]| bytes.get(at).is_some_and(|b| set.contains(b));
    let long_long = |at: usize| {
        (bytes.get(at..at + 2) == Some(b"ll") || bytes.get(at..at + 2) == Some(b"LL")).then_some(2)
    };
    if let Some(len) = long_long(0) {
        return len + usize::from(is(len, b"uU"));
    }
    if is(0, b"uU") {
        if let Some(len) = long_long(1) {
            return 1 + len;
        }
        return 1 + usize::from(is(1, b"lLzZ"));
    }
    if is(0, b"lLzZ") {
        return 1 + usize::from(is(1, b"uU"));
    }
    0
}

/// The longest match of `[fF](16|32|64|128)?|[lL]|bf16|BF16` at the start
/// of `bytes`.
fn float_suffix_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(b"bf16") || bytes.starts_with(b"BF16") {
        return 4;
    }
    match bytes.first() {
        Some(b'f' | b'F') => {
            let rest = &bytes[1..];
            1 + [&b"128"[..], b"16", b"32", b"64"]
                .iter()
                .find(|width| rest.starts_with(width))
                .map_or(0, |width| width.len())
        }
        Some(b'l' | b'L') => 1,
        _ => 0,
    }
}
