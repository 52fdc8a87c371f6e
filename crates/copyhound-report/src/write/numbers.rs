//! Numbers appended to a buffer as the standard formatter writes them,
//! without its cost: a CSV report can have millions of rows,
//! and `format!("{x:.6}")` finds the exact decimal expansion of every
//! share, where scaling by 10⁶ and rounding is enough unless the share
//! lies within rounding error of a half.

use std::io::Write;

/// Digits after the point of a share.
const SHARE_DECIMALS: usize = 6;

/// `10^SHARE_DECIMALS`.
const SHARE_SCALE: u64 = 1_000_000;

/// Shares below this take the fast path; `x · 10⁶` then stays below
/// 2³⁰, where the product is off by at most 2⁻²⁴ (half a unit in its
/// last place), far less than [`HALF_MARGIN`].
const FAST_LIMIT: f64 = 1000.0;

/// Scaled shares whose fraction is this close to a half may round either
/// way: the standard formatter decides them from the exact value.
const HALF_MARGIN: f64 = 1e-6;

/// Appends `x` as `format!("{x:.6}")` writes it.
pub(crate) fn push_share(text: &mut Vec<u8>, x: f64) {
    match scaled_share(x) {
        Some(units) => {
            // Fixed-size copies: no call to memcpy.
            let fraction = (units % SHARE_SCALE) as usize;
            let mut decimals = [0; SHARE_DECIMALS];
            decimals[..2].copy_from_slice(digit_pair(fraction / 10_000));
            decimals[2..4].copy_from_slice(digit_pair(fraction / 100 % 100));
            decimals[4..].copy_from_slice(digit_pair(fraction % 100));
            let whole = units / SHARE_SCALE;
            if whole < 10 {
                // Nearly every share is one digit before the point: the
                // whole field is one copy.
                let mut field = [b'.'; SHARE_DECIMALS + 2];
                field[0] = b'0' + whole as u8;
                field[2..].copy_from_slice(&decimals);
                text.extend_from_slice(&field);
            } else {
                push_digits(text, whole);
                text.push(b'.');
                text.extend_from_slice(&decimals);
            }
        }
        None => write!(text, "{x:.SHARE_DECIMALS$}").expect("writing to a vector"),
    }
}

/// Appends `n` as `n.to_string()` writes it.
pub(crate) fn push_count(text: &mut Vec<u8>, n: usize) {
    push_digits(text, n as u64);
}

/// `x · 10⁶` rounded to the nearest integer, when that is sure to be what
/// the standard formatter rounds it to: `x` is not negative (nor `-0.0`),
/// is below [`FAST_LIMIT`] and is not within rounding error of a half.
fn scaled_share(x: f64) -> Option<u64> {
    if !(x.is_sign_positive() && x < FAST_LIMIT) {
        return None;
    }
    let scaled = x * SHARE_SCALE as f64;
    // Below 2³⁰ and not negative: the cast is the floor, and the float of
    // it exact (without SSE4.1, `f64::floor` is a call into libm).
    let whole = scaled as u64;
    // Exact: `whole` is 0 or within a factor of two of `scaled`.
    let fraction = scaled - whole as f64;
    if (fraction - 0.5).abs() <= HALF_MARGIN {
        return None;
    }
    Some(whole + u64::from(fraction > 0.5))
}

/// The two digits of `n` below 100.
fn digit_pair(n: usize) -> &'static [u8] {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    &PAIRS[2 * n..2 * n + 2]
}

/// Appends the decimal digits of `n`, two at a time.
fn push_digits(text: &mut Vec<u8>, mut n: u64) {
    let mut digits = [b'0'; 20];
    let mut start = digits.len();
    while n >= 10 {
        start -= 2;
        digits[start..start + 2].copy_from_slice(digit_pair((n % 100) as usize));
        n /= 100;
    }
    if n > 0 {
        start -= 1;
        digits[start] = b'0' + n as u8;
    }
    // Zero has one digit.
    text.extend_from_slice(&digits[start.min(digits.len() - 1)..]);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn share(x: f64) -> String {
        let mut text = Vec::new();
        push_share(&mut text, x);
        String::from_utf8(text).unwrap()
    }

    /// The `steps`-th float after (or before, when negative) `x`.
    fn nudged(x: f64, steps: i64) -> f64 {
        f64::from_bits(x.to_bits().saturating_add_signed(steps))
    }

    #[test]
    fn shares_at_the_edges_are_as_the_standard_formatter_writes_them() {
        let cases = [
            0.0,
            -0.0,
            1.0,
            0.5,
            // Exact halves of a millionth: 7812.5, 2.5 and 0.5 millionths.
            1.0 / 128.0,
            5.0 / 2_097_152.0,
            0.000_000_5,
            0.999_999_5,
            0.999_999_499_999,
            999.999_999_5,
            FAST_LIMIT,
            f64::MIN_POSITIVE,
            f64::EPSILON,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.25,
            1e300,
        ];
        for x in cases {
            assert_eq!(share(x), format!("{x:.6}"), "{x:e}");
        }
    }

    #[test]
    fn only_halves_negatives_and_large_or_odd_values_take_the_slow_path() {
        assert_eq!(scaled_share(0.25), Some(250_000));
        assert_eq!(scaled_share(1.0 / 3.0), Some(333_333));
        assert_eq!(scaled_share(2.0 / 3.0), Some(666_667));
        assert_eq!(scaled_share(1.0), Some(1_000_000));
        assert_eq!(scaled_share(0.0), Some(0));
        for x in [
            1.0 / 128.0,
            -0.0,
            -0.25,
            FAST_LIMIT,
            f64::NAN,
            f64::INFINITY,
        ] {
            assert_eq!(scaled_share(x), None, "{x}");
        }
    }

    proptest! {
        #[test]
        fn any_share_is_as_the_standard_formatter_writes_it(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assert_eq!(share(x), format!("{x:.6}"));
        }

        #[test]
        fn ratios_are_as_the_standard_formatter_writes_them(
            part in 0_u32..=1_000_000,
            extra in 0_u32..=1_000_000,
        ) {
            let x = f64::from(part) / f64::from(part + extra).max(1.0);
            prop_assert_eq!(share(x), format!("{x:.6}"));
        }

        #[test]
        fn shares_near_halves_and_whole_millionths_are_as_the_standard_formatter_writes_them(
            halves in 0_u64..4_000_000_000,
            steps in -3_i64..=3,
        ) {
            let x = nudged(halves as f64 / 2e6, steps);
            prop_assert_eq!(share(x), format!("{x:.6}"));
        }

        #[test]
        fn dyadic_shares_are_as_the_standard_formatter_writes_them(
            numerator in 0_u64..(1 << 40),
            exponent in 0_i32..60,
        ) {
            let x = numerator as f64 / 2_f64.powi(exponent);
            prop_assert_eq!(share(x), format!("{x:.6}"));
        }

        #[test]
        fn counts_are_as_display_writes_them(n in any::<usize>(), digits in 0_u32..20) {
            // Short numbers as often as long ones.
            let n = n % 10_usize.pow(digits).max(1);
            let mut text = b"x".to_vec();
            push_count(&mut text, n);
            prop_assert_eq!(text, format!("x{n}").into_bytes());
        }
    }
}
