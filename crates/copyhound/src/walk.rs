//! How the commands that read folders walk them: one set of options for
//! `compare`, `db add` and `db search`, so that each walks alike.

use clap::Args;
use copyhound_pipeline::WalkFilter;

/// The options of a walk over the paths given.
#[derive(Debug, Args)]
pub struct WalkArgs {
    /// Do not honour .gitignore and .ignore files.
    #[arg(long)]
    no_ignore: bool,
    /// Follow symbolic links (each real file is read once); without it, a
    /// link is said as a problem and not read.
    #[arg(long)]
    follow_links: bool,
}

impl WalkArgs {
    /// The walk these options ask for, keeping only files that match
    /// `include` (all when empty) and none that match `exclude`.
    pub fn filter(&self, include: &[String], exclude: &[String]) -> WalkFilter {
        WalkFilter {
            include: include.to_vec(),
            exclude: exclude.to_vec(),
            honour_ignore_files: !self.no_ignore,
            follow_links: self.follow_links,
            ..WalkFilter::default()
        }
    }
}
