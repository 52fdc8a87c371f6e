//! Archives as submissions: a `.zip`, `.tar` or `.tar.gz` is one unit (an
//! export of student folders, one unit per folder), its files read through
//! the same front-ends as files on disk and named `alice.zip/src/Main.java`
//! in every output; hostile archives (names that climb out, bombs, nested
//! archives) are refused within limits, with a problem naming the archive
//! and the entry. Every archive is made by the test.

use std::fs;
use std::io::Write;
use std::path::Path;

use copyhound_fuzz::hostile::zip;
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::support::{copyhound, temp_dir, write};

/// A Java class long enough to be compared, its names made from `name`.
fn java(name: &str) -> String {
    format!(
        "public class {name} {{\n    static int total(int[] values) {{\n        int sum = 0;\n        for (int i = 0; i < values.length; i++) {{\n            if (values[i] > 0) {{\n                sum += values[i] * 2;\n            }}\n        }}\n        return sum;\n    }}\n    public static void main(String[] args) {{\n        int[] data = {{3, 1, 4, 1, 5, 9, 2, 6}};\n        System.out.println(\"{name}: \" + total(data));\n    }}\n}}\n"
    )
}

/// Java that shares nothing with [`java`].
fn other_java() -> String {
    "import java.util.*;\nclass Queue2 {\n    private final List<String> items = new ArrayList<>();\n    void push(String s) { items.add(s.trim().toLowerCase()); }\n    String pop() { return items.isEmpty() ? null : items.remove(items.size() - 1); }\n    boolean empty() { return items.isEmpty(); }\n    int size() { while (items.contains(\"\")) { items.remove(\"\"); } return items.size(); }\n}\n".into()
}

/// A gzip-compressed tar archive of `entries`.
fn tar_gz(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::default()));
    for (name, bytes) in entries {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, name, *bytes).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// `copyhound compare -q … --json DIR/r.json`: the report and the command's
/// stderr and exit code.
fn compare_json(dir: &Path, args: &[&Path]) -> (serde_json::Value, String, i32) {
    let json = dir.join("r.json");
    let output = copyhound()
        .arg("compare")
        .arg("-q")
        .args(args)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(json.is_file(), "no report: {stderr}");
    let report = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    (report, stderr, output.status.code().unwrap())
}

/// The unit paths of a report, and its pairs as `(a, b, similarity)`.
fn units_and_pairs(report: &serde_json::Value) -> (Vec<String>, Vec<(String, String, f64)>) {
    let units = report["units"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["path"].as_str().unwrap().to_string())
        .collect();
    let pairs = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["a"]["path"].as_str().unwrap().to_string(),
                p["b"]["path"].as_str().unwrap().to_string(),
                p["similarity"].as_f64().unwrap(),
            )
        })
        .collect();
    (units, pairs)
}

fn problem_messages(report: &serde_json::Value) -> Vec<String> {
    report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["message"].as_str().unwrap().to_string())
        .collect()
}

/// A folder of zips, one per student: each zip is one unit named after
/// it, the copied pair ranks first, its files are named inside the zip in
/// the JSON, and the HTML pair view shows their text.
#[test]
fn a_zip_is_one_submission() {
    let dir = temp_dir();
    let subs = dir.path().join("subs");
    let copied = java("Main");
    let alice = zip(&[
        ("src/Main.java", copied.as_bytes()),
        ("README.txt", b"my work"),
        ("__MACOSX/src/._Main.java", b"\0\x05\x16\x07 resource fork"),
    ]);
    write(&subs, "alice.zip", alice);
    write(&subs, "bob.zip", zip(&[("Main.java", copied.as_bytes())]));
    write(
        &subs,
        "carol.zip",
        zip(&[("src/Queue2.java", other_java().as_bytes())]),
    );
    let html = dir.path().join("r.html");
    let (report, stderr, code) = compare_json(dir.path(), &[&subs, Path::new("--report"), &html]);
    let (units, pairs) = units_and_pairs(&report);
    assert_eq!(units, ["alice.zip", "bob.zip", "carol.zip"], "{stderr}");
    assert_eq!(
        (pairs[0].0.as_str(), pairs[0].1.as_str()),
        ("alice.zip", "bob.zip")
    );
    assert!(pairs[0].2 > 0.9, "{pairs:?}");
    assert!(pairs.iter().skip(1).all(|p| p.2 < 0.2), "{pairs:?}");
    let documents: Vec<&str> = report["units"][0]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(documents, ["alice.zip/src/Main.java"]);
    assert_eq!(code, 0, "{stderr}");
    // The texts are embedded compressed; the pipeline's tests read them
    // again from the archives.
    let page = fs::read_to_string(&html).unwrap();
    assert!(page.contains("alice.zip/src/Main.java"));
}

/// Include globs choose files inside archives, and never leave an
/// archive itself out.
#[test]
fn include_globs_choose_files_inside_archives() {
    let dir = temp_dir();
    let subs = dir.path().join("subs");
    let copied = java("Main");
    let entries: [(&str, &[u8]); 2] = [("Main.java", copied.as_bytes()), ("notes.txt", b"hello")];
    write(&subs, "alice.zip", zip(&entries));
    write(&subs, "bob.zip", zip(&entries));
    let (report, stderr, _) = compare_json(dir.path(), &[&subs, Path::new("--include=*.java")]);
    let documents: Vec<&str> = report["units"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|u| u["documents"].as_array().unwrap())
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        documents,
        ["alice.zip/Main.java", "bob.zip/Main.java"],
        "{stderr}"
    );
}

/// An export of a learning platform: one zip whose top level holds only
/// folders is one unit per folder; `--unit file` makes every file a unit.
#[test]
fn a_zip_of_student_folders_is_one_unit_per_folder() {
    let dir = temp_dir();
    let copied = java("Main");
    let export = write(
        dir.path(),
        "export.zip",
        zip(&[
            ("alice/Main.java", copied.as_bytes()),
            ("alice/Util.java", other_java().as_bytes()),
            ("bob/src/Main.java", copied.as_bytes()),
            ("carol/Solution.java", java("Solution").as_bytes()),
        ]),
    );
    let (report, stderr, _) = compare_json(dir.path(), &[&export]);
    let (units, pairs) = units_and_pairs(&report);
    assert_eq!(
        units,
        ["export.zip/alice", "export.zip/bob", "export.zip/carol"],
        "{stderr}"
    );
    assert_eq!(
        (pairs[0].0.as_str(), pairs[0].1.as_str()),
        ("export.zip/alice", "export.zip/bob")
    );
    let (report, _, _) = compare_json(dir.path(), &[&export, Path::new("--unit=file")]);
    let (units, _) = units_and_pairs(&report);
    assert_eq!(units.len(), 4, "{units:?}");
    assert!(units.contains(&"export.zip/bob/src/Main.java".to_string()));
}

/// `.tar.gz` and `.tgz` archives given as paths are units too.
#[test]
fn tar_gz_archives_are_submissions() {
    let dir = temp_dir();
    let copied = java("Main");
    let a = write(
        dir.path(),
        "alice.tar.gz",
        tar_gz(&[("alice/src/Main.java", copied.as_bytes())]),
    );
    let b = write(
        dir.path(),
        "bob.tgz",
        tar_gz(&[("Main.java", copied.as_bytes())]),
    );
    let c = write(
        dir.path(),
        "carol.tar.gz",
        tar_gz(&[("Queue2.java", other_java().as_bytes())]),
    );
    let (report, stderr, code) = compare_json(dir.path(), &[&a, &b, &c]);
    let (units, pairs) = units_and_pairs(&report);
    assert_eq!(
        units,
        ["alice.tar.gz", "bob.tgz", "carol.tar.gz"],
        "{stderr}"
    );
    assert_eq!(
        (pairs[0].0.as_str(), pairs[0].1.as_str()),
        ("alice.tar.gz", "bob.tgz")
    );
    assert!(pairs[0].2 > 0.9, "{pairs:?}");
    assert_eq!(code, 0, "{stderr}");
}

/// Entries whose names climb out of the archive or are absolute are
/// refused with a problem naming the archive and the entry; the rest of
/// the archive is read, and the exit status says something was not.
#[test]
fn names_that_climb_out_of_an_archive_are_refused() {
    let dir = temp_dir();
    let subs = dir.path().join("subs");
    let copied = java("Main");
    write(
        &subs,
        "evil.zip",
        zip(&[
            ("../../escape/Main.java", copied.as_bytes()),
            ("/etc/cron.d/Main.java", copied.as_bytes()),
            ("ok/Main.java", copied.as_bytes()),
        ]),
    );
    write(&subs, "bob.zip", zip(&[("Main.java", copied.as_bytes())]));
    let (report, stderr, code) = compare_json(dir.path(), &[&subs]);
    let (units, pairs) = units_and_pairs(&report);
    assert_eq!(units, ["bob.zip", "evil.zip"], "{stderr}");
    assert_eq!(pairs.len(), 1);
    let messages = problem_messages(&report);
    for entry in ["../../escape/Main.java", "/etc/cron.d/Main.java"] {
        let expected = format!(
            "evil.zip: entry \"{entry}\" refused: its name climbs out of the archive (`..`) or is absolute"
        );
        assert!(
            messages.iter().any(|m| m.ends_with(&expected)),
            "{expected} in {messages:?}"
        );
        assert!(stderr.contains(&expected), "{stderr}");
    }
    assert_eq!(code, 1);
    assert!(!dir.path().join("escape").exists());
}

/// A zip entry of 20 MB of zeros (a thousandfold expansion) and a tar.gz
/// of the same are refused before they are inflated; an archive inside an
/// archive is listed, not expanded.
#[test]
fn bombs_are_refused_and_nested_archives_are_not_expanded() {
    let dir = temp_dir();
    let subs = dir.path().join("subs");
    let copied = java("Main");
    let zeros = vec![0u8; 20 << 20];
    write(
        &subs,
        "alice.zip",
        zip(&[("Main.java", copied.as_bytes()), ("data.txt", &zeros)]),
    );
    write(&subs, "bob.tar.gz", tar_gz(&[("data.txt", &zeros)]));
    let inner = zip(&[("Main.java", copied.as_bytes())]);
    write(
        &subs,
        "carol.zip",
        zip(&[("Main.java", copied.as_bytes()), ("old/inner.zip", &inner)]),
    );
    let (report, stderr, code) = compare_json(dir.path(), &[&subs]);
    let (units, pairs) = units_and_pairs(&report);
    assert_eq!(units, ["alice.zip", "carol.zip"], "{stderr}");
    assert_eq!(pairs.len(), 1);
    let messages = problem_messages(&report);
    let has = |needle: &str| messages.iter().any(|m| m.contains(needle));
    assert!(
        has("alice.zip: entry \"data.txt\" refused: expands "),
        "{messages:?}"
    );
    assert!(
        has("bob.tar.gz: archive refused: expands past "),
        "{messages:?}"
    );
    assert!(
        has(
            "carol.zip: entry \"old/inner.zip\" skipped: an archive inside the archive, not expanded"
        ),
        "{messages:?}"
    );
    assert_eq!(code, 1);
}

/// A file that is not the archive its name says is a problem naming it.
#[test]
fn a_damaged_archive_is_a_problem_naming_it() {
    let dir = temp_dir();
    let subs = dir.path().join("subs");
    let copied = java("Main");
    write(&subs, "a/Main.java", &copied);
    write(&subs, "b/Main.java", &copied);
    let mut broken = fs::File::create(subs.join("c.zip")).unwrap();
    broken.write_all(b"PK\x03\x04 not really").unwrap();
    let (report, _, code) = compare_json(dir.path(), &[&subs]);
    let messages = problem_messages(&report);
    assert!(
        messages
            .iter()
            .any(|m| m.contains("c.zip: archive refused: not a readable zip archive")),
        "{messages:?}"
    );
    assert_eq!(code, 1);
}
