//! One submission checked against an archive (`check_submission`, what the
//! server answers) scores as `compare FILE --against ARCHIVE` does, with
//! passages located on both sides; a zip is one unit; what cannot be
//! checked is refused with a message naming the submission.

use std::io::Write;

use copyhound_pipeline::code_archive::{
    Submission, SubmissionError, SubmissionRequest, check_submission,
};
use copyhound_pipeline::{CompareSettings, Inputs, MaxOccurrences, UnitMode};

use crate::code_archive::{archive_keeping, archive_of, submissions};
use crate::support::{Batch, outcome, report};

fn request() -> SubmissionRequest {
    SubmissionRequest {
        include_text: true,
        ..SubmissionRequest::default()
    }
}

/// The test submissions, their old ones archived (texts kept).
fn archived_submissions() -> (Batch, std::path::PathBuf) {
    let batch = Batch::new();
    submissions(&batch);
    let archive = archive_of(&batch, &batch.path("old"));
    (batch, archive)
}

/// The batch's copy alone, compared against `archive` as `compare
/// new/copy.java --against ARCHIVE` does.
fn copy_against(batch: &Batch, archive: &std::path::Path) -> Inputs {
    Inputs {
        new: vec![batch.path("new/copy.java")],
        against: vec![archive.to_path_buf()],
        unit: UnitMode::File,
        ..Inputs::default()
    }
}

/// The lines `[first, last]` of `text`, joined.
fn lines(text: &str, [first, last]: [u32; 2]) -> String {
    text.lines()
        .skip(first as usize - 1)
        .take((last - first + 1) as usize)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_renamed_copy_scores_as_compare_against_and_its_passages_are_located() {
    let (batch, archive) = archived_submissions();
    let copy = std::fs::read_to_string(batch.path("new/copy.java")).unwrap();

    let submission = Submission {
        name: "uploads/Renamed.java",
        bytes: copy.as_bytes(),
    };
    let result = check_submission(&archive, submission, &request()).unwrap();
    assert_eq!(result.name, "Renamed.java");
    assert_eq!(result.language, "java");
    assert_eq!(result.archived_units, 7);
    assert_eq!(result.files.len(), 1);
    assert_eq!(result.files[0].text.as_deref(), Some(copy.as_str()));
    let best = &result.matches[0];
    assert_eq!(best.unit, "j0.java");
    assert!(
        result
            .matches
            .iter()
            .all(|m| m.unit.rsplit('.').next() == Some("java")),
        "{result:?}"
    );

    // The same file alone, compared against the archive by `compare`.
    let compared = report(&outcome(
        &copy_against(&batch, &archive),
        &CompareSettings::default(),
    ));
    assert_eq!(compared.pairs.len(), result.matches.len());
    for (pair, found) in compared.pairs.iter().zip(&result.matches) {
        // The same computation: the same bits.
        assert_eq!(
            pair.similarity.to_bits(),
            found.similarity.to_bits(),
            "{}",
            found.unit
        );
        assert_eq!(pair.shared_fingerprints, found.shared_fingerprints);
    }
    let pair = &compared.pairs[0];
    let passages = best.passages.as_ref().unwrap();
    assert_eq!(passages.len(), pair.listed_passages().len());

    // Each passage spans as many lines on both sides (the copy keeps the
    // lines), and its bytes are within the texts sent.
    let original = std::fs::read_to_string(batch.path("old/j0.java")).unwrap();
    assert_eq!(best.files[0].name, "j0.java");
    assert_eq!(best.files[0].text.as_deref(), Some(original.as_str()));
    for passage in passages {
        let ours = lines(&copy, passage.query.lines.unwrap());
        let theirs = lines(&original, passage.archived.lines.unwrap());
        assert_eq!(
            ours.lines().count(),
            theirs.lines().count(),
            "{ours}\n~\n{theirs}"
        );
        let [start, end] = passage.archived.bytes;
        assert!(start < end && end <= original.len());
        let [start, end] = passage.query.bytes;
        assert!(start < end && end <= copy.len());
    }
    let fragments = best.fragments.as_ref().unwrap();
    assert_eq!(fragments.len(), pair.listed_fragments().len());

    // Without texts asked for, none is sent.
    let plain = check_submission(&archive, submission, &SubmissionRequest::default()).unwrap();
    assert!(plain.files[0].text.is_none() && plain.matches[0].files[0].text.is_none());
}

/// With an occurrence limit the check scores as `compare --against -m`
/// does with the same limit, and the limit changes what it finds.
#[test]
fn an_occurrence_limit_scores_as_compare_against_with_it() {
    let (batch, archive) = archived_submissions();
    let copy = std::fs::read(batch.path("new/copy.java")).unwrap();
    let submission = Submission {
        name: "copy.java",
        bytes: &copy,
    };
    let limit = MaxOccurrences::Count(2);
    let limited = SubmissionRequest {
        max_occurrences: limit,
        ..SubmissionRequest::default()
    };
    let found = check_submission(&archive, submission, &limited).unwrap();
    let settings = CompareSettings {
        max_occurrences: limit,
        ..CompareSettings::default()
    };
    let compared = report(&outcome(&copy_against(&batch, &archive), &settings));
    let archived = |pair: &copyhound_report::PairReport| {
        let side = if pair.a.path == "copy.java" {
            &pair.b
        } else {
            &pair.a
        };
        (side.path.clone(), pair.similarity.to_bits())
    };
    let found_scores: Vec<(String, u64)> = found
        .matches
        .iter()
        .map(|m| (m.unit.clone(), m.similarity.to_bits()))
        .collect();
    assert!(!found_scores.is_empty());
    assert_eq!(
        found_scores,
        compared.pairs.iter().map(archived).collect::<Vec<_>>()
    );
    let unlimited = check_submission(&archive, submission, &SubmissionRequest::default()).unwrap();
    let similarities = |matches: &[copyhound_pipeline::code_archive::ArchiveMatch]| {
        matches
            .iter()
            .map(|m| m.similarity.to_bits())
            .collect::<Vec<_>>()
    };
    assert_ne!(
        similarities(&found.matches),
        similarities(&unlimited.matches)
    );
}

/// An archive that keeps no texts reads its units' files again; one that
/// is gone is named to the submitter by its unit name, never by where on
/// the server it was added from.
#[test]
fn an_archived_unit_that_cannot_be_read_again_is_named_without_its_path() {
    let batch = Batch::new();
    submissions(&batch);
    let archive = archive_keeping(&batch, &batch.path("old"), false);
    std::fs::remove_file(batch.path("old/j1.java")).unwrap();
    let copy = std::fs::read(batch.path("new/copy.java")).unwrap();
    let submission = Submission {
        name: "Renamed.java",
        bytes: &copy,
    };

    let result = check_submission(&archive, submission, &request()).unwrap();
    assert_eq!(result.matches[0].unit, "j0.java");
    assert_eq!(
        result.warnings,
        ["j1.java (archived): cannot be read again, so it was not compared"]
    );
    let root = batch.path("").display().to_string();
    assert!(!result.warnings.iter().any(|w| w.contains(&root)));
}

#[test]
fn a_zip_is_one_unit_read_as_a_folder() {
    let (batch, archive) = archived_submissions();
    let copy = std::fs::read(batch.path("new/copy.java")).unwrap();
    let fresh = std::fs::read(batch.path("new/fresh.java")).unwrap();
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    // Two folders: given as a path to `compare`, it would be two units.
    for (name, bytes) in [("src/Copy.java", &copy), ("test/Fresh.java", &fresh)] {
        zip.start_file(name, options).unwrap();
        zip.write_all(bytes).unwrap();
    }
    let bytes = zip.finish().unwrap().into_inner();

    let submission = Submission {
        name: "alice.zip",
        bytes: &bytes,
    };
    let result = check_submission(&archive, submission, &request()).unwrap();
    assert_eq!(result.name, "alice.zip");
    let names: Vec<&str> = result.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["alice.zip/src/Copy.java", "alice.zip/test/Fresh.java"]
    );
    // Each archived original is found, its passages in its copy's file.
    for (original, file, document) in [
        ("j0.java", "alice.zip/src/Copy.java", 0),
        ("j3.java", "alice.zip/test/Fresh.java", 1),
    ] {
        let found = result.matches.iter().find(|m| m.unit == original).unwrap();
        let passages = found.passages.as_ref().unwrap();
        assert!(
            passages
                .iter()
                .any(|p| p.query.path == file && p.query.document == document),
            "{original}: {passages:?}"
        );
    }
}

#[test]
fn what_cannot_be_checked_is_refused_naming_the_submission() {
    let (_batch, archive) = archived_submissions();
    let check = |name: &str, bytes: &[u8]| {
        check_submission(&archive, Submission { name, bytes }, &request()).unwrap_err()
    };
    let message = |error: &SubmissionError| {
        let text = error.to_string();
        assert!(!text.contains("copyhound-submission-"), "{text}");
        text
    };

    let empty = check("Empty.java", b" \n\t\n");
    assert!(matches!(empty, SubmissionError::Empty(_)), "{empty:?}");
    assert_eq!(message(&empty), "Empty.java: the file is empty");

    let binary = check("Main.java", b"\x00\x01\x02binary\x00\xff\xfe\x00");
    assert!(
        matches!(binary, SubmissionError::Unreadable { .. }),
        "{binary:?}"
    );
    assert!(message(&binary).starts_with("Main.java: cannot be read: "));

    let corrupt = check("bob.zip", b"PK\x03\x04 this is not really a zip file");
    assert!(
        matches!(corrupt, SubmissionError::Unreadable { .. }),
        "{corrupt:?}"
    );
    assert!(message(&corrupt).contains("bob.zip"), "{corrupt}");

    let unknown = check(
        "notes.xyz",
        b"Some words that are not code in any language the front-end knows.\n",
    );
    assert!(
        matches!(unknown, SubmissionError::NoUnitOfItsLanguage { .. }),
        "{unknown:?}"
    );
    assert_eq!(
        message(&unknown),
        "notes.xyz: read as text, and the archive holds no text unit (c: 3, java: 7, python: 3); upload a file whose extension names its language"
    );
}
