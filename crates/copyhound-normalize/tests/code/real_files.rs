//! Real source files found on the machine — a language's standard
//! library, installed packages — read by the language's own lexer and by
//! its grammar. Each folder can be named by an environment variable; the
//! tests skip, with a message, where none is found.

use std::path::{Path, PathBuf};
use std::process::Command;

use copyhound_normalize::code::{Language, tokenize_with_own_lexer};

use super::datasets::files_under;
use super::support::{first_difference, grammar_tokens};

/// The folder `variable` names, or else the first of `defaults` that
/// exists.
pub fn sources_dir(variable: &str, defaults: &[PathBuf]) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(variable) {
        return Some(PathBuf::from(dir));
    }
    defaults.iter().find(|dir| dir.is_dir()).cloned()
}

/// What a command prints on one line, if it runs.
pub fn command_line(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
}

/// The files under `dir` whose names end with one of `extensions`, in
/// name order, leaving out folders named in `skipped`.
pub fn source_files(dir: &Path, extensions: &[&str], skipped: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_under(dir, &mut files);
    files.retain(|path| {
        let name = path.to_string_lossy();
        extensions.iter().any(|ext| name.ends_with(ext))
            && !path
                .components()
                .any(|part| skipped.iter().any(|skip| part.as_os_str() == *skip))
    });
    files.sort();
    files
}

/// Whether `lang`'s grammar finds a syntax error in `text`.
pub fn grammar_finds_error(lang: Language, text: &str) -> bool {
    let language: tree_sitter::Language = match lang {
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        _ => unreachable!("no real-file test for {lang}"),
    };
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&language)
        .expect("bundled grammars use a supported ABI version");
    parser
        .parse(text, None)
        .is_none_or(|tree| tree.root_node().has_error())
}

/// What reading some files both ways found.
#[derive(Default)]
struct Tally {
    checked: usize,
    left_to_grammar: Vec<String>,
    /// Files the grammar reads without an error that the lexer reads
    /// differently: none may be.
    differing: Vec<String>,
    /// Files the grammar finds a syntax error in that the lexer read
    /// itself: the tree walker hands the error's region to the table
    /// lexer, so these may differ there.
    differing_with_errors: Vec<String>,
}

/// Reads `files` in `lang` with the lexer and with the grammar, with and
/// without `drop_imports`, on all cores.
fn tally(lang: Language, files: &[PathBuf]) -> Tally {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| scope.spawn(move || tally_part(lang, part)))
            .collect();
        let mut total = Tally::default();
        for handle in handles {
            let part = handle.join().expect("a reading thread panicked");
            total.checked += part.checked;
            total.left_to_grammar.extend(part.left_to_grammar);
            total.differing.extend(part.differing);
            total
                .differing_with_errors
                .extend(part.differing_with_errors);
        }
        total
    })
}

fn tally_part(lang: Language, files: &[PathBuf]) -> Tally {
    let mut tally = Tally::default();
    for path in files {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        tally.checked += 1;
        for drop_imports in [false, true] {
            let Some(lexer) = tokenize_with_own_lexer(lang, &text, drop_imports) else {
                let error = grammar_finds_error(lang, &text);
                tally.left_to_grammar.push(format!(
                    "{}{}",
                    path.display(),
                    if error {
                        ""
                    } else {
                        " (the grammar finds no error)"
                    }
                ));
                break;
            };
            let grammar = grammar_tokens(lang, &text, drop_imports);
            if let Some(difference) = first_difference(&text, &lexer, &grammar) {
                let line = format!(
                    "{} (drop_imports {drop_imports}): {difference}",
                    path.display()
                );
                if grammar_finds_error(lang, &text) {
                    tally.differing_with_errors.push(line);
                } else {
                    tally.differing.push(line);
                }
                break;
            }
        }
    }
    tally
}

/// Asserts that `lang`'s lexer reads every one of `files` that the
/// grammar reads without error as the grammar does, and leaves to the
/// grammar only files it finds an error in (any file, if
/// `leaves_valid_files`: a lexer that also leaves what it cannot tell);
/// prints the counts, and the files with errors that read differently.
pub fn assert_files_read_as_grammar(
    lang: Language,
    what: &str,
    files: &[PathBuf],
    leaves_valid_files: bool,
) {
    let tally = tally(lang, files);
    eprintln!(
        "{what}: {} {lang} files, {} left to the grammar, {} differ, {} with syntax errors differ",
        tally.checked,
        tally.left_to_grammar.len(),
        tally.differing.len(),
        tally.differing_with_errors.len(),
    );
    let lines = tally.left_to_grammar.iter().chain(&tally.differing);
    for line in lines.chain(&tally.differing_with_errors).take(40) {
        eprintln!("{line}");
    }
    assert!(tally.differing.is_empty(), "some files read differently");
    assert!(
        leaves_valid_files
            || tally
                .left_to_grammar
                .iter()
                .all(|line| !line.ends_with("finds no error)")),
        "the lexer left files without errors to the grammar"
    );
}
