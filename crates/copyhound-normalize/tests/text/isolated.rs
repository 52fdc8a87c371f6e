//! The isolated extractor's parent side: every way a child can end becomes
//! a clear error, and a child that does not end is killed at the deadline.
//! Stand-in children are shell scripts; the real one (`copyhound __extract`)
//! is tested through the command line.
#![cfg(unix)]

use std::time::{Duration, Instant};

use copyhound_normalize::extract::ExtractError;
use copyhound_normalize::extract::isolated::IsolatedExtractor;

fn shell(script: &str) -> IsolatedExtractor {
    IsolatedExtractor::new("sh", &["-c", script])
}

fn extract(script: &str, timeout: Duration) -> Result<String, ExtractError> {
    shell(script).extract_pdf(b"%PDF-1.4 not read", timeout, 1 << 20)
}

#[test]
fn a_child_that_never_ends_is_killed_at_the_deadline() {
    let started = Instant::now();
    let error = extract(
        "cat >/dev/null; while :; do :; done",
        Duration::from_secs(1),
    )
    .unwrap_err();
    assert_eq!(error, ExtractError::PdfTimeout(Duration::from_secs(1)));
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_child_over_its_cpu_limit_is_reported_as_such() {
    let error = extract(
        "ulimit -S -t 1; cat >/dev/null; while :; do :; done",
        Duration::from_secs(30),
    )
    .unwrap_err();
    assert!(
        matches!(error, ExtractError::ExtractorCpuLimit { .. }),
        "{error}"
    );
}

#[test]
fn a_child_out_of_memory_is_reported_as_such() {
    let error = extract(
        "cat >/dev/null; echo 'memory allocation of 1048576 bytes failed' >&2; kill -ABRT $$",
        Duration::from_secs(30),
    )
    .unwrap_err();
    assert!(
        matches!(error, ExtractError::ExtractorMemoryLimit { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("MiB of memory"), "{error}");
}

#[test]
fn garbage_and_failures_name_the_problem() {
    let garbage = extract("cat >/dev/null; echo hello", Duration::from_secs(30)).unwrap_err();
    assert!(
        garbage.to_string().contains("unreadable answer"),
        "{garbage}"
    );
    let failed = extract(
        "cat >/dev/null; echo 'it broke' >&2; exit 3",
        Duration::from_secs(30),
    )
    .unwrap_err();
    assert!(failed.to_string().contains("it broke"), "{failed}");
    let missing = IsolatedExtractor::new("/no/such/program", &[])
        .extract_pdf(b"%PDF", Duration::from_secs(5), 1 << 20)
        .unwrap_err();
    assert!(missing.to_string().contains("cannot start"), "{missing}");
}

#[test]
fn a_child_that_ignores_its_input_does_not_block_the_parent() {
    // Eight megabytes do not fit in a pipe: the writer must not wait forever.
    let error = shell("exit 0")
        .extract_pdf(&vec![b' '; 8 << 20], Duration::from_secs(30), 1 << 20)
        .unwrap_err();
    assert!(error.to_string().contains("unreadable answer"), "{error}");
}
