//! `copyhound experiment`: the papers' measurements, reproduced. The
//! experiments live in `copyhound-experiment`; this module parses flags.

use anyhow::Result;
use clap::{Args, Subcommand};
use copyhound_experiment::{DensitySettings, Report, density};

/// Experiments.
#[derive(Debug, Subcommand)]
pub enum ExperimentCommand {
    /// Density of every selector on random and low-entropy text, next to the
    /// winnowing paper's figures (§3.1, §5.1).
    Density(DensityArgs),
}

/// Arguments of `copyhound experiment density`.
#[derive(Debug, Args)]
pub struct DensityArgs {
    /// Size of the random text, in MiB (the paper used 8 MB).
    #[arg(long, default_value_t = 8)]
    size_mib: usize,
    /// k-gram length.
    #[arg(short, long, default_value_t = 50)]
    k: usize,
    /// Window size.
    #[arg(short, long, default_value_t = 100)]
    w: usize,
    /// Seed of the hash and of the random text.
    #[arg(long, default_value_t = 2003)]
    seed: u64,
}

/// Runs an experiment and prints its tables.
pub fn run(command: &ExperimentCommand) -> Result<std::process::ExitCode> {
    let report = match command {
        ExperimentCommand::Density(args) => density(&DensitySettings {
            size_mib: args.size_mib,
            k: args.k,
            w: args.w,
            seed: args.seed,
        }),
    };
    print(&report);
    Ok(std::process::ExitCode::SUCCESS)
}

fn print(report: &Report) {
    print!("{report}");
}
