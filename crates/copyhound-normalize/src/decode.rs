//! Bytes to text: byte-order mark, UTF-16 by its zero bytes, strict UTF-8,
//! then a declared or guessed legacy encoding.
//!
//! The order matters. A BOM is unambiguous; so, nearly, is the zero byte in
//! every other position of UTF-16 text saved without one. Text that is valid
//! UTF-8 is almost never anything else. Text that is nearly valid UTF-8 (a file cut in
//! the middle of a character, one stray byte) stays UTF-8 with the bad bytes
//! replaced, rather than becoming mojibake in a guessed encoding. Only then is
//! the encoding guessed from byte statistics (`chardetng`, the detector of
//! Firefox), which tells Windows-1252 from, say, `Shift_JIS` or KOI8-R.
//!
//! Decoding also rejects binary data: a NUL byte or a high share of control
//! characters.

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// Bytes inspected for the zero-byte pattern of UTF-16 without a BOM.
const UTF16_SAMPLE_BYTES: usize = 4096;

/// Bytes given to the encoding detector.
const DETECTOR_SAMPLE_BYTES: usize = 256 * 1024;

/// ASCII context given to the detector before the first non-ASCII byte.
const DETECTOR_LEAD_BYTES: usize = 64;

/// Bytes inspected for the share of control characters.
const CONTROL_SAMPLE_CHARS: usize = 64 * 1024;

/// Text with more control characters than this share is binary.
const MAX_CONTROL_SHARE: f64 = 0.05;

/// A decoded text, when more than this share of its characters had to be
/// replaced, is not text in any encoding we know…
const MAX_REPLACED_SHARE: f64 = 0.01;

/// …unless it is a handful: a short file cut in the middle of a character
/// is still text.
const ALWAYS_ALLOWED_REPLACEMENTS: usize = 3;

/// Text decoded from bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text. Borrowed from the input exactly when the input was valid
    /// UTF-8 without a BOM, so that offsets into the text are offsets into
    /// the bytes.
    pub text: Cow<'a, str>,
    /// The encoding the bytes were decoded from.
    pub encoding: &'static Encoding,
    /// How the encoding was found.
    pub source: EncodingSource,
    /// Malformed byte sequences replaced by U+FFFD.
    pub replaced: usize,
}

/// How the encoding of a text was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingSource {
    /// A byte-order mark, which was removed from the text.
    ByteOrderMark,
    /// The bytes are valid UTF-8.
    ValidUtf8,
    /// Declared by the document (an HTML `charset`).
    Declared,
    /// Nearly valid UTF-8: a few malformed sequences among many valid ones.
    MostlyUtf8,
    /// Guessed from byte statistics.
    Guessed,
}

/// Why bytes could not be decoded as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The bytes are not text.
    #[error("binary data ({reason})")]
    Binary {
        /// What gave it away.
        reason: String,
    },
    /// Too many malformed sequences for the encoding found.
    #[error("not decodable as {encoding}: {replaced} of {chars} characters are malformed")]
    Undecodable {
        /// The encoding tried.
        encoding: &'static str,
        /// Malformed sequences.
        replaced: usize,
        /// Characters decoded.
        chars: usize,
    },
}

/// Decodes `bytes`, using the `declared` encoding (an HTML `charset`) when
/// there is no BOM and the bytes are not valid UTF-8.
pub fn decode<'a>(
    bytes: &'a [u8],
    declared: Option<&'static Encoding>,
) -> Result<Decoded<'a>, DecodeError> {
    let decoded = if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        with_replacements(text, encoding, EncodingSource::ByteOrderMark)
    } else {
        if let Some(encoding) = utf16_without_bom(bytes) {
            let (text, _) = encoding.decode_without_bom_handling(bytes);
            let decoded = with_replacements(text, encoding, EncodingSource::Guessed);
            check_decoded(&decoded)?;
            return Ok(decoded);
        }
        // `contains` on bytes is a vectorised search; find the offset only
        // for the message.
        if bytes.contains(&0) {
            let at = bytes.iter().position(|&byte| byte == 0).unwrap_or_default();
            return Err(DecodeError::Binary {
                reason: format!("NUL byte at offset {at}"),
            });
        }
        if let Ok(text) = std::str::from_utf8(bytes) {
            Decoded {
                text: Cow::Borrowed(text),
                encoding: UTF_8,
                source: EncodingSource::ValidUtf8,
                replaced: 0,
            }
        } else if let Some(encoding) = declared.filter(|&encoding| encoding != UTF_8) {
            let (text, _) = encoding.decode_without_bom_handling(bytes);
            with_replacements(text, encoding, EncodingSource::Declared)
        } else if is_mostly_utf8(bytes) {
            let text = String::from_utf8_lossy(bytes);
            with_replacements(text, UTF_8, EncodingSource::MostlyUtf8)
        } else {
            let encoding = guess_legacy_encoding(bytes);
            let (text, _) = encoding.decode_without_bom_handling(bytes);
            with_replacements(text, encoding, EncodingSource::Guessed)
        }
    };
    check_decoded(&decoded)?;
    Ok(decoded)
}

/// UTF-16 without a byte-order mark, recognised by its zero bytes: text in
/// Latin script has a zero high byte in nearly every code unit, so one
/// parity of byte positions is mostly zero and the other almost never.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let sample = &bytes[..bytes.len().min(UTF16_SAMPLE_BYTES) & !1];
    let units = sample.len() / 2;
    if units < 2 || bytes.len() & 1 == 1 {
        return None;
    }
    let zeros_at = |parity: usize| {
        sample
            .iter()
            .skip(parity)
            .step_by(2)
            .filter(|&&byte| byte == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    let mostly = |zeros: usize| zeros * 10 >= units * 4;
    let rarely = |zeros: usize| zeros * 20 <= units;
    if mostly(odd) && rarely(even) {
        Some(UTF_16LE)
    } else if mostly(even) && rarely(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

fn with_replacements<'a>(
    text: Cow<'a, str>,
    encoding: &'static Encoding,
    source: EncodingSource,
) -> Decoded<'a> {
    let replaced = text
        .chars()
        .filter(|&c| c == char::REPLACEMENT_CHARACTER)
        .count();
    Decoded {
        text,
        encoding,
        source,
        replaced,
    }
}

/// Rejects decoded text that is binary or mostly malformed.
fn check_decoded(decoded: &Decoded<'_>) -> Result<(), DecodeError> {
    let text = &decoded.text;
    if let Some(at) = text.find('\0') {
        return Err(DecodeError::Binary {
            reason: format!("NUL character at text offset {at}"),
        });
    }
    let (sampled, controls) = sampled_controls(text, CONTROL_SAMPLE_CHARS);
    if sampled > 0 && controls as f64 > MAX_CONTROL_SHARE * sampled as f64 {
        return Err(DecodeError::Binary {
            reason: format!("{controls} control characters in the first {sampled}"),
        });
    }
    if decoded.replaced > ALWAYS_ALLOWED_REPLACEMENTS {
        let chars = text.chars().count();
        if decoded.replaced as f64 > MAX_REPLACED_SHARE * chars as f64 {
            return Err(DecodeError::Undecodable {
                encoding: decoded.encoding.name(),
                replaced: decoded.replaced,
                chars,
            });
        }
    }
    Ok(())
}

/// The characters among the first `limit` of `text`, and how many of them
/// are binary controls ([`is_binary_control`]).
///
/// Counted on bytes, not decoded characters: every character starts with
/// one byte that is not a continuation byte (`0b10xx_xxxx`), and the binary
/// controls are all ASCII, so each is one byte below 0x80. Both counts are
/// then plain passes over bytes that the compiler vectorises.
fn sampled_controls(text: &str, limit: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    // A text of at most `limit` bytes has at most `limit` characters: all
    // of it is the sample, and its end needs no search.
    let end = if bytes.len() <= limit {
        bytes.len()
    } else {
        text.char_indices()
            .nth(limit)
            .map_or(bytes.len(), |(at, _)| at)
    };
    let sample = &bytes[..end];
    let sampled = sample
        .iter()
        .filter(|&&byte| !is_continuation(byte))
        .count();
    let controls = sample
        .iter()
        .filter(|&&byte| is_binary_control(char::from(byte)))
        .count();
    (sampled, controls)
}

/// Whether a byte continues a multi-byte UTF-8 character.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Control characters that do not occur in text files. Tab, line feed,
/// vertical tab, form feed, carriage return and escape (terminal colours in
/// logs) do.
fn is_binary_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1b}')
        // C1 controls come from legacy encodings' unused bytes; rare, not binary.
        && (c as u32) < 0x80
}

/// Whether invalid UTF-8 is damaged UTF-8 rather than another encoding:
/// many valid multi-byte characters, few malformed sequences. Legacy
/// encodings almost never form valid multi-byte UTF-8 by chance.
fn is_mostly_utf8(bytes: &[u8]) -> bool {
    let mut malformed = 0usize;
    let mut multibyte = 0usize;
    for chunk in bytes.utf8_chunks() {
        multibyte += chunk.valid().chars().filter(|c| !c.is_ascii()).count();
        malformed += usize::from(!chunk.invalid().is_empty());
    }
    multibyte >= 10 * malformed
}

/// Guesses the encoding from a sample starting shortly before the first
/// non-ASCII byte: ASCII says nothing about a legacy encoding, and the
/// detector is slow (a few MB/s), so it sees at most
/// [`DETECTOR_SAMPLE_BYTES`].
fn guess_legacy_encoding(bytes: &[u8]) -> &'static Encoding {
    let first_non_ascii = bytes.iter().position(|byte| !byte.is_ascii()).unwrap_or(0);
    // All bytes before the first non-ASCII one are ASCII characters, so the
    // sample never starts inside a multi-byte character.
    let start = first_non_ascii.saturating_sub(DETECTOR_LEAD_BYTES);
    let end = bytes.len().min(start + DETECTOR_SAMPLE_BYTES);
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(&bytes[start..end], end == bytes.len());
    detector.guess(None, Utf8Detection::Deny)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: &[u8]) -> Decoded<'_> {
        decode(bytes, None).expect("decodes")
    }

    #[test]
    fn valid_utf8_is_borrowed() {
        let result = decoded("naïve\r\n".as_bytes());
        assert!(matches!(result.text, Cow::Borrowed("naïve\r\n")));
        assert_eq!(result.source, EncodingSource::ValidUtf8);
    }

    #[test]
    fn utf8_bom_is_removed() {
        let result = decoded(b"\xEF\xBB\xBFhi");
        assert_eq!(result.text, "hi");
        assert_eq!(result.encoding, UTF_8);
        assert_eq!(result.source, EncodingSource::ByteOrderMark);
    }

    #[test]
    fn utf16_with_bom_both_endians() {
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("Grüße".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("Grüße".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decoded(&le).text, "Grüße");
        assert_eq!(decoded(&le).encoding.name(), "UTF-16LE");
        assert_eq!(decoded(&be).text, "Grüße");
        assert_eq!(decoded(&be).encoding.name(), "UTF-16BE");
    }

    #[test]
    fn utf16_without_bom_is_recognised() {
        let text = "Plain English with one ü.\r\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, name) in [(le, "UTF-16LE"), (be, "UTF-16BE")] {
            let result = decoded(&bytes);
            assert_eq!(result.text, text);
            assert_eq!(result.encoding.name(), name);
            assert_eq!(result.source, EncodingSource::Guessed);
        }
    }

    #[test]
    fn binary_with_alternating_zeros_is_still_binary() {
        // Little-endian 16-bit integers 1, 2, 3…: zero high bytes, but the
        // "characters" are control codes.
        let bytes: Vec<u8> = (1..2000u16)
            .flat_map(|n| (n % 31 + 1).to_le_bytes())
            .collect();
        assert!(matches!(
            decode(&bytes, None),
            Err(DecodeError::Binary { .. })
        ));
    }

    #[test]
    fn windows_1252_is_guessed() {
        // "It’s a café" with a curly apostrophe (0x92) and é (0xE9).
        let result = decoded(b"It\x92s a caf\xE9, isn\x92t it? The caf\xE9 is open.");
        assert_eq!(result.text, "It’s a café, isn’t it? The café is open.");
        assert_eq!(result.encoding.name(), "windows-1252");
        assert_eq!(result.source, EncodingSource::Guessed);
    }

    #[test]
    fn encoding_is_guessed_from_text_far_into_the_file() {
        // KOI8-R Cyrillic after a megabyte of ASCII.
        let mut bytes = b"plain ascii line\n".repeat(1 << 16);
        let (russian, _, _) = encoding_rs::KOI8_R.encode("Привет, как дела? Всё хорошо, спасибо. ");
        bytes.extend(russian.repeat(20).iter());
        let result = decoded(&bytes);
        // KOI8-U, a superset, decodes Russian the same.
        assert!(
            result.encoding.name().starts_with("KOI8"),
            "{}",
            result.encoding.name()
        );
        assert!(result.text.ends_with("Всё хорошо, спасибо. "));
    }

    #[test]
    fn utf8_cut_mid_character_stays_utf8() {
        let mut bytes = "ééééééééééé".as_bytes().to_vec();
        bytes.pop();
        let result = decoded(&bytes);
        assert_eq!(result.encoding, UTF_8);
        assert_eq!(result.source, EncodingSource::MostlyUtf8);
        assert_eq!(result.replaced, 1);
        assert!(result.text.starts_with("éééééééééé"));
    }

    #[test]
    fn declared_encoding_wins_over_guessing() {
        let koi8 = encoding_rs::Encoding::for_label(b"koi8-r").unwrap();
        let result = decode(b"caf\xE9", Some(koi8)).unwrap();
        assert_eq!(result.encoding, koi8);
        assert_eq!(result.source, EncodingSource::Declared);
    }

    #[test]
    fn nul_bytes_are_binary() {
        let error = decode(b"ELF\x02\x01\x00\x00", None).unwrap_err();
        assert_eq!(
            error,
            DecodeError::Binary {
                reason: "NUL byte at offset 5".into()
            }
        );
    }

    #[test]
    fn control_characters_are_binary() {
        let bytes: Vec<u8> = (0..1000u32)
            .map(|i| if i % 5 == 0 { 0x01 } else { b'a' })
            .collect();
        assert!(matches!(
            decode(&bytes, None),
            Err(DecodeError::Binary { .. })
        ));
    }

    proptest::proptest! {
        #[test]
        fn controls_counted_on_bytes_are_those_counted_on_characters(
            text in "[a\\x00-\\x1f\\x7f\\u{80}-\\u{9f}é€😀\\t\\n ]{0,80}",
            limit in 0usize..100,
        ) {
            let (sampled, controls) = text
                .chars()
                .take(limit)
                .fold((0usize, 0usize), |(sampled, controls), c| {
                    (sampled + 1, controls + usize::from(is_binary_control(c)))
                });
            proptest::prop_assert_eq!(sampled_controls(&text, limit), (sampled, controls));
        }
    }

    #[test]
    fn utf16_with_bom_and_lone_surrogates_is_undecodable() {
        let mut bytes = vec![0xFF, 0xFE];
        for _ in 0..10 {
            bytes.extend_from_slice(&0xD800u16.to_le_bytes());
            bytes.extend_from_slice(&u16::from(b'a').to_le_bytes());
        }
        assert!(matches!(
            decode(&bytes, None),
            Err(DecodeError::Undecodable {
                encoding: "UTF-16LE",
                replaced: 10,
                ..
            })
        ));
    }
}
