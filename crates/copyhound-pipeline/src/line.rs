//! A line of text a command prints, and where it goes: the libraries
//! format what the command line shows, and the command line only writes
//! each line to its stream.

/// A line of text for the command line, and the stream it goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The command's output, on standard output.
    Out(String),
    /// What the user may like to know (how much a listing left out), on
    /// standard error; a quiet run leaves it out.
    Note(String),
    /// Something the user should know that did not stop the command, on
    /// standard error as a warning.
    Warning(String),
    /// What failed, on standard error; the exit status says so.
    Error(String),
}

/// An error and its causes in one line, each said once: a cause whose words
/// the text already holds (an error that quotes its source) is not repeated.
pub fn error_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = String::new();
    let mut cause = Some(error);
    while let Some(error) = cause {
        let said = error.to_string();
        if !text.contains(&said) {
            text.push_str(if text.is_empty() { "" } else { ": " });
            text.push_str(&said);
        }
        cause = error.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[derive(Debug, thiserror::Error)]
    enum Failure {
        #[error("archive.redb: cannot use the file: {0}")]
        Quoting(#[source] std::io::Error),
        #[error("archive.redb: cannot use the file")]
        Silent(#[source] std::io::Error),
    }

    #[test]
    fn each_cause_is_said_once() {
        let cause = || std::io::Error::other("truncated");
        let expected = "archive.redb: cannot use the file: truncated";
        assert_eq!(error_text(&Failure::Quoting(cause())), expected);
        assert_eq!(error_text(&Failure::Silent(cause())), expected);
    }
}
