//! Text made safe to print on a terminal. A file name may hold any byte
//! but `/` and NUL: an escape sequence in one can move the cursor, rewrite
//! the table above it or retitle the window, and a bidirectional override
//! can show a name other than the one on disk. Such characters are printed
//! as Rust escapes (`\u{1b}`), so a name is shown as it is, visibly.

use std::borrow::Cow;

/// `text` with every control character (C0, DEL, C1) and every
/// bidirectional formatting character written as `\u{…}`. Text without
/// them, nearly all, is borrowed as it is.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            safe.extend(c.escape_unicode());
        } else {
            safe.push(c);
        }
    }
    Cow::Owned(safe)
}

/// Whether `c` changes what a terminal shows rather than being shown.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Arabic letter mark, left-to-right and right-to-left marks,
            // embeddings and overrides, isolates.
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(
            terminal_safe("alice/Main.java"),
            Cow::Borrowed("alice/Main.java")
        ));
        assert!(matches!(terminal_safe("école/naïve ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn escapes_and_overrides_are_shown_not_obeyed() {
        assert_eq!(
            terminal_safe("a\u{1b}[2Jb\tc\nd\u{7f}e\u{9b}f"),
            "a\\u{1b}[2Jb\\u{9}c\\u{a}d\\u{7f}e\\u{9b}f"
        );
        assert_eq!(
            terminal_safe("invoice\u{202e}fdp.exe"),
            "invoice\\u{202e}fdp.exe"
        );
    }
}
