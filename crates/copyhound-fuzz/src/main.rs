//! `copyhound-fuzz [--seconds N] [--inputs N] [--seed N] [--findings DIR]
//! [TARGET…]`: runs a campaign per target (every target when none is
//! named) and prints one summary line each; exits 1 when any input
//! panicked, 3 when one hung. `copyhound-fuzz --write-inputs DIR N` writes
//! the seeds and N mutants of them as files instead.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use copyhound_fuzz::campaign::{Settings, find_target, run, targets};

fn main() -> ExitCode {
    let mut settings = Settings {
        duration: Duration::from_secs(60),
        max_inputs: u64::MAX,
        hang_limit: Duration::from_secs(20),
        seed: 0x5eed,
        findings: PathBuf::from("fuzz-findings"),
    };
    let mut names = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |what: &str| {
            args.next()
                .unwrap_or_else(|| usage(&format!("{arg} needs {what}")))
        };
        match arg.as_str() {
            "--seconds" => {
                settings.duration = Duration::from_secs(number(&value("seconds")));
            }
            "--inputs" => settings.max_inputs = number(&value("a count")),
            "--seed" => settings.seed = number(&value("a number")),
            "--hang-seconds" => {
                settings.hang_limit = Duration::from_secs(number(&value("seconds")));
            }
            "--findings" => settings.findings = PathBuf::from(value("a folder")),
            "--write-inputs" => {
                let dir = PathBuf::from(value("a folder"));
                let count = number(&value("a count"));
                return write_inputs(&dir, count as usize, settings.seed);
            }
            "--list" => {
                for target in targets() {
                    println!("{}", target.name);
                }
                return ExitCode::SUCCESS;
            }
            name if !name.starts_with('-') => names.push(name.to_owned()),
            other => usage(&format!("unknown option {other}")),
        }
    }
    let chosen: Vec<_> = if names.is_empty() {
        targets()
    } else {
        names
            .iter()
            .map(|name| find_target(name).unwrap_or_else(|| usage(&format!("no target {name}"))))
            .collect()
    };
    let mut panics = 0;
    for target in &chosen {
        match run(target, &settings) {
            Ok(summary) => {
                println!("{summary}");
                panics += summary.panics;
            }
            Err(error) => {
                eprintln!("copyhound-fuzz: {}: {error}", settings.findings.display());
                return ExitCode::from(2);
            }
        }
    }
    if panics > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn write_inputs(dir: &std::path::Path, count: usize, seed: u64) -> ExitCode {
    let written = std::fs::create_dir_all(dir).and_then(|()| {
        for (name, bytes) in copyhound_fuzz::campaign::mutants(count, seed) {
            std::fs::write(dir.join(name), bytes)?;
        }
        Ok(())
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("copyhound-fuzz: {}: {error}", dir.display());
            ExitCode::from(2)
        }
    }
}

fn number(text: &str) -> u64 {
    text.parse()
        .unwrap_or_else(|_| usage(&format!("{text:?} is not a number")))
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "copyhound-fuzz: {problem}\nusage: copyhound-fuzz [--seconds N] [--inputs N] [--seed N] \
         [--hang-seconds N] [--findings DIR] [--list] [TARGET...]"
    );
    std::process::exit(2)
}
