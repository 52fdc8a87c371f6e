//! The settings an archive is made with, kept in it as `name=value` lines:
//! how its files are read and which fingerprints are taken. Every batch
//! checked against the archive is read and fingerprinted with them.

use std::fmt::Write;

use copyhound_normalize::TextMode;
use copyhound_normalize::code::{Level, StatementOptions};

use crate::{FrontEndChoice, PipelineError, Selection, SelectorName};

/// How an archive reads and fingerprints units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchiveSettings {
    /// The front-end; only what changes symbols is kept (not the size
    /// limits or the isolation of extraction, which are the caller's).
    pub front_end: FrontEndChoice,
    /// The fingerprint selection.
    pub selection: Selection,
}

fn optional<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "default".into(), |v| v.to_string())
}

impl ArchiveSettings {
    /// The settings as `name=value` lines, in a fixed order.
    pub fn to_text(&self) -> String {
        let choice = &self.front_end;
        let selection = &self.selection;
        let statements = choice.statements;
        [
            ("lang", choice.lang.clone().unwrap_or_else(|| "auto".into())),
            ("level", choice.level.name().into()),
            ("text_mode", choice.text_mode.name().into()),
            ("drop_imports", choice.drop_imports.to_string()),
            ("drop_dead_code", statements.drop_dead_code.to_string()),
            ("canonical_order", statements.canonical_order.to_string()),
            ("while_loops", statements.while_loops.to_string()),
            ("selector", selection.selector.name().into()),
            ("k", optional(selection.k)),
            ("w", optional(selection.w)),
            ("seed", selection.seed.to_string()),
            ("p", optional(selection.p)),
            ("n", selection.n.to_string()),
        ]
        .iter()
        .fold(String::new(), |mut text, (name, value)| {
            writeln!(text, "{name}={value}").expect("writing to a string cannot fail");
            text
        })
    }

    /// The settings of [`to_text`](Self::to_text)'s lines; `defaults`
    /// gives what the lines do not keep, but notebooks' markdown is never
    /// read. An unknown name or value is an error naming the line.
    pub fn parse(text: &str, defaults: &FrontEndChoice) -> Result<Self, PipelineError> {
        let mut settings = Self {
            front_end: FrontEndChoice {
                // An archive keeps the units of code, never their
                // notebooks' markdown.
                notebook_markdown: false,
                ..defaults.clone()
            },
            selection: Selection::default(),
        };
        for line in text.lines().filter(|l| !l.is_empty()) {
            settings
                .set(line)
                .ok_or_else(|| PipelineError::ArchiveSettings(line.to_string()))?;
        }
        Ok(settings)
    }

    fn set(&mut self, line: &str) -> Option<()> {
        let (name, value) = line.split_once('=')?;
        let flag = || value.parse::<bool>().ok();
        let number = || value.parse::<u64>().ok();
        let optional_number = || match value {
            "default" => Some(None),
            v => v.parse::<usize>().ok().map(Some),
        };
        let choice = &mut self.front_end;
        let selection = &mut self.selection;
        let statements: &mut StatementOptions = &mut choice.statements;
        match name {
            "lang" => choice.lang = (value != "auto").then(|| value.to_string()),
            "level" => choice.level = Level::from_name(value)?,
            "text_mode" => choice.text_mode = TextMode::from_name(value)?,
            "drop_imports" => choice.drop_imports = flag()?,
            "drop_dead_code" => statements.drop_dead_code = flag()?,
            "canonical_order" => statements.canonical_order = flag()?,
            "while_loops" => statements.while_loops = flag()?,
            "selector" => selection.selector = SelectorName::from_name(value)?,
            "k" => selection.k = optional_number()?,
            "w" => selection.w = optional_number()?,
            "seed" => selection.seed = number()?,
            "p" => selection.p = optional_number()?.map(|p| p as u64),
            "n" => selection.n = usize::try_from(number()?).ok()?,
            _ => return None,
        }
        Some(())
    }

    /// What in `front_end` and `selection`, as a user chose them, differs
    /// both from these settings and from the defaults (a choice left at its
    /// default takes the archive's): one line per setting, naming its
    /// option.
    pub fn conflicts(&self, front_end: &FrontEndChoice, selection: &Selection) -> Vec<String> {
        let default_front_end = FrontEndChoice::default();
        let default_selection = Selection::default();
        let mut conflicts = Vec::new();
        let mut check = |option: &str, chosen: String, default: String, archived: String| {
            if chosen != default && chosen != archived {
                conflicts.push(format!(
                    "{option} {chosen}: the archive was made with {archived}"
                ));
            }
        };
        let lang = |c: &FrontEndChoice| c.lang.clone().unwrap_or_else(|| "auto".into());
        let (ours, theirs, default) = (front_end, &self.front_end, &default_front_end);
        check("--lang", lang(ours), lang(default), lang(theirs));
        let level = |c: &FrontEndChoice| c.level.name().to_string();
        check("--level", level(ours), level(default), level(theirs));
        let text_mode = |c: &FrontEndChoice| c.text_mode.name().to_string();
        check(
            "--text-mode",
            text_mode(ours),
            text_mode(default),
            text_mode(theirs),
        );
        let imports = |c: &FrontEndChoice| c.drop_imports.to_string();
        check(
            "--drop-imports",
            imports(ours),
            imports(default),
            imports(theirs),
        );
        let markdown = |c: &FrontEndChoice| c.notebook_markdown.to_string();
        check(
            "--notebook-markdown",
            markdown(ours),
            markdown(default),
            markdown(theirs),
        );
        let statements = |c: &FrontEndChoice| format!("{:?}", c.statements);
        check(
            "--dead-code/--statement-order/--loops",
            statements(ours),
            statements(default),
            statements(theirs),
        );
        let (ours, theirs, default) = (selection, &self.selection, &default_selection);
        let selector = |s: &Selection| s.selector.name().to_string();
        check(
            "--selector",
            selector(ours),
            selector(default),
            selector(theirs),
        );
        check(
            "-k",
            optional(ours.k),
            optional(default.k),
            optional(theirs.k),
        );
        check(
            "-w",
            optional(ours.w),
            optional(default.w),
            optional(theirs.w),
        );
        check(
            "--seed",
            ours.seed.to_string(),
            default.seed.to_string(),
            theirs.seed.to_string(),
        );
        check(
            "-p",
            optional(ours.p),
            optional(default.p),
            optional(theirs.p),
        );
        check(
            "-n",
            ours.n.to_string(),
            default.n.to_string(),
            theirs.n.to_string(),
        );
        conflicts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_back_as_written() {
        let settings = ArchiveSettings {
            front_end: FrontEndChoice {
                lang: Some("java".into()),
                level: Level::Abstract,
                drop_imports: true,
                ..FrontEndChoice::default()
            },
            selection: Selection {
                selector: SelectorName::Winnow,
                k: Some(12),
                seed: 99,
                ..Selection::default()
            },
        };
        let text = settings.to_text();
        let read = ArchiveSettings::parse(&text, &FrontEndChoice::default()).unwrap();
        assert_eq!(read, settings);
        let error = ArchiveSettings::parse("k=twelve\n", &FrontEndChoice::default()).unwrap_err();
        assert!(error.to_string().contains("k=twelve"), "{error}");
    }

    #[test]
    fn only_a_chosen_setting_other_than_the_archives_conflicts() {
        let settings = ArchiveSettings {
            front_end: FrontEndChoice::default(),
            selection: Selection {
                k: Some(12),
                ..Selection::default()
            },
        };
        let defaults = (FrontEndChoice::default(), Selection::default());
        assert!(settings.conflicts(&defaults.0, &defaults.1).is_empty());
        let same_k = Selection {
            k: Some(12),
            ..Selection::default()
        };
        assert!(settings.conflicts(&defaults.0, &same_k).is_empty());
        let other = Selection {
            k: Some(9),
            seed: 4,
            ..Selection::default()
        };
        assert_eq!(
            settings.conflicts(&defaults.0, &other),
            [
                "-k 9: the archive was made with 12",
                "--seed 4: the archive was made with 0"
            ]
        );
    }

    #[test]
    fn notebooks_markdown_conflicts_with_every_archive() {
        let asked = FrontEndChoice {
            notebook_markdown: true,
            ..FrontEndChoice::default()
        };
        let text = ArchiveSettings {
            front_end: FrontEndChoice::default(),
            selection: Selection::default(),
        }
        .to_text();
        let settings = ArchiveSettings::parse(&text, &asked).unwrap();
        assert_eq!(
            settings.conflicts(&asked, &Selection::default()),
            ["--notebook-markdown true: the archive was made with false"]
        );
    }
}
