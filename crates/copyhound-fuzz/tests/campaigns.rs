//! The CI share of fuzzing: every target runs its seeds and a few hundred
//! mutants without a panic or a hang (the watchdog ends the test process
//! on a hang). Long campaigns: `bench/fuzz.sh MINUTES`.

use std::time::Duration;

use copyhound_fuzz::campaign::{Settings, run, targets};

#[test]
fn every_target_survives_a_short_campaign() {
    let findings = tempfile::tempdir().unwrap();
    let settings = Settings {
        duration: Duration::from_secs(20),
        max_inputs: 300,
        hang_limit: Duration::from_secs(30),
        seed: 19,
        findings: findings.path().to_owned(),
    };
    for target in targets() {
        let summary = run(&target, &settings).unwrap();
        assert_eq!(summary.panics, 0, "{summary}");
        assert!(summary.inputs > 0, "{summary}");
    }
}
