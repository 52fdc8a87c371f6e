//! The progress bar on stderr: drawn only on a terminal and without `-q`.

use std::io::IsTerminal;

use copyhound_index::{Progress, Stage};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that the comparison stages and the loader report to.
pub struct Bar {
    bar: ProgressBar,
    /// Whether it is drawn: a hidden bar still reads the clock at every
    /// step, and scoring steps once per pair from every thread.
    shown: bool,
}

impl Bar {
    /// A bar on stderr, hidden when `quiet` or stderr is not a terminal.
    pub fn new(quiet: bool) -> Self {
        let shown = !quiet && std::io::stderr().is_terminal();
        let target = if shown {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} ({eta})")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        Self { bar, shown }
    }

    /// Starts a stage of `total` steps named `name`.
    pub fn begin(&self, name: &'static str, total: u64) {
        self.bar.set_message(name);
        self.bar.set_length(total);
        self.bar.set_position(0);
    }

    /// One more step to do, in a stage whose total is not known at its
    /// start.
    pub fn found(&self) {
        if self.shown {
            self.bar.inc_length(1);
        }
    }

    /// One more step done.
    pub fn step(&self) {
        if self.shown {
            self.bar.inc(1);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, stage: Stage, total: u64) {
        let name = match stage {
            Stage::Prepare => "preparing",
            Stage::Index => "indexing",
            Stage::Candidates => "pairing",
            Stage::Score => "scoring",
        };
        self.begin(name, total);
    }

    fn advance(&self, steps: u64) {
        if self.shown {
            self.bar.inc(steps);
        }
    }
}
