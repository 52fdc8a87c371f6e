//! Hostile files through the command line: each is refused with a message
//! naming it, in bounded time and memory, and the rest of the batch goes on
//! (issue #19: the looping PDF, the object-stream bomb).

use std::fs;
use std::time::Duration;

use copyhound_fuzz::hostile;
use predicates::str::contains;

use crate::support::{binary, copyhound, temp_dir, write};

const ESSAY: &str = "Rivers carve valleys over thousands of years, carrying sediment from \
    the mountains down to the plains where it settles into fertile soil for farming.";

/// Before the page-tree check and the isolated extractor, each looping PDF
/// cost the 60 s extraction timeout and left a thread spinning.
#[test]
fn looping_pdfs_are_refused_at_once_and_the_batch_goes_on() {
    let dir = temp_dir();
    write(dir.path(), "loop1.pdf", hostile::looping_page_tree_pdf());
    write(dir.path(), "loop2.pdf", hostile::looping_page_tree_pdf());
    write(dir.path(), "a.txt", ESSAY.as_bytes());
    write(dir.path(), "b.txt", ESSAY.as_bytes());
    copyhound()
        .args(["compare", "-q"])
        .arg(dir.path())
        .timeout(Duration::from_secs(30))
        .assert()
        .stderr(contains("loop1.pdf: corrupt PDF: the page tree loops"))
        .stderr(contains("loop2.pdf"))
        .stdout(contains("a.txt"));
}

/// Runs `command` to its end, sampling its peak resident memory
/// (`VmHWM`) every few milliseconds: the output and the peak in KiB.
#[cfg(target_os = "linux")]
fn run_with_peak_memory(mut command: std::process::Command) -> (std::process::Output, u64) {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let sampler = std::thread::spawn(move || {
        let mut peak = 0;
        while let Ok(text) = fs::read_to_string(&status) {
            let kib = text
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok());
            match kib {
                Some(kib) => peak = kib,
                // A zombie has no memory lines left: it has ended.
                None => break,
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        peak
    });
    let output = child.wait_with_output().unwrap();
    (output, sampler.join().unwrap())
}

/// A 1 MB PDF whose object stream inflates to 1 GiB is refused before
/// anything inflates it: the whole command stays under 200 MB (it once
/// peaked at 1.1 GB, the object stream inflated by the parser).
#[cfg(target_os = "linux")]
#[test]
fn object_stream_bomb_is_refused_before_it_inflates() {
    let dir = temp_dir();
    let bomb = dir.path().join("bomb.pdf");
    fs::write(&bomb, hostile::object_stream_bomb_pdf(1 << 30)).unwrap();
    let mut command = std::process::Command::new(binary());
    command
        .args(["fingerprint", "--max-file-mib", "16"])
        .arg(&bomb);
    let (output, peak_kib) = run_with_peak_memory(command);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bomb.pdf"), "{stderr}");
    assert!(stderr.contains("decompression bomb"), "{stderr}");
    assert!(peak_kib < 200_000, "peak {peak_kib} KiB");
}

/// An 8 MiB one-line Python file would take tree-sitter about 1.9 GB (issue
/// #19, case 5: 4.2 GB at 50 MB): it is refused before the grammar runs,
/// with a message naming the file and the budget.
#[cfg(target_os = "linux")]
#[test]
fn a_file_over_its_memory_budget_is_refused_before_the_front_end_runs() {
    let dir = temp_dir();
    let big = dir.path().join("one-line.py");
    fs::write(&big, hostile::one_line_python(8 << 20)).unwrap();
    let mut command = std::process::Command::new(binary());
    command.arg("fingerprint").arg(&big);
    let (output, peak_kib) = run_with_peak_memory(command);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("one-line.py: too large for the python front-end"),
        "{stderr}"
    );
    assert!(stderr.contains("memory budget of 2048 MiB"), "{stderr}");
    assert!(peak_kib < 300_000, "peak {peak_kib} KiB");
}

/// A file name can hold escape sequences and spreadsheet formulas: the
/// table and the warnings show them escaped, the CSV marks the formula as
/// text, and the JSON keeps the name exactly (it is data there).
#[test]
fn names_cannot_drive_the_terminal_or_a_spreadsheet() {
    let dir = temp_dir();
    let escape = "red\u{1b}[31m.txt";
    let formula = "=HYPERLINK(\"evil\").txt";
    write(dir.path(), escape, ESSAY.as_bytes());
    write(dir.path(), formula, ESSAY.as_bytes());
    write(
        dir.path(),
        "bad\u{1b}]0;title\u{7}.txt",
        [0u8, 159, 146, 150],
    );
    let csv = dir.path().join("out.csv");
    let json = dir.path().join("out.json");
    let output = copyhound()
        .args(["compare", "-q", "--unit", "file"])
        .arg(dir.path())
        .arg("--csv")
        .arg(&csv)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stdout.contains("red\\u{1b}[31m.txt"), "{stdout}");
    assert!(!stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'));
    assert!(stderr.contains("bad\\u{1b}]0;title\\u{7}.txt"), "{stderr}");
    let csv = fs::read_to_string(&csv).unwrap();
    assert!(csv.contains("\"'=HYPERLINK(\"\"evil\"\").txt\""), "{csv}");
    let json = fs::read_to_string(&json).unwrap();
    assert!(json.contains(r#""=HYPERLINK(\"evil\").txt""#), "{json}");
    assert!(json.contains(r"red\u001b[31m.txt"), "{json}");
}
