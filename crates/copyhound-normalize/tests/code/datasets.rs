//! Real student code from the evaluation datasets in `shared/datasets`
//! (never copied into the repository): every C and Java file must go
//! through the front-end with its invariants intact. Skipped, with a
//! message, where the datasets are absent.

use std::path::{Path, PathBuf};

use copyhound_normalize::code::{CodeOptions, Language};

use super::support::check_invariants;

/// `shared/` sits beside the work tree; `COPYHOUND_DATASETS` overrides.
pub fn datasets_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("COPYHOUND_DATASETS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/datasets"),
        PathBuf::from,
    );
    dir.is_dir().then_some(dir)
}

pub fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn dataset_sources_keep_the_invariants() {
    let Some(root) = datasets_dir() else {
        eprintln!("skipped: no shared/datasets folder (set COPYHOUND_DATASETS)");
        return;
    };
    let mut checked = 0;
    for dataset in ["soco-train-c", "conplag-train", "irplag-open"] {
        let mut files = Vec::new();
        files_under(&root.join(dataset).join("files"), &mut files);
        files.sort();
        for path in files {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let Some(lang) = Language::detect(&path, &text) else {
                continue;
            };
            assert!(
                matches!(lang, Language::C | Language::Java),
                "{}",
                path.display()
            );
            let doc = check_invariants(lang, &text, &CodeOptions::default());
            assert!(
                !doc.is_empty() || text.trim().is_empty(),
                "{}",
                path.display()
            );
            checked += 1;
        }
    }
    eprintln!("checked {checked} files");
}
