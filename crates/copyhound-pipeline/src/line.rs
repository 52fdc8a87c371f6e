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
