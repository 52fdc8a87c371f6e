//! The progress bar on stderr, drawn only on a terminal and without `-q`,
//! and the warnings of a run, printed as they come (with `-q` too).

use std::io::IsTerminal;

use copyhound_index::Stage as CompareStage;
use copyhound_pipeline::{Progress, Stage, Warning};
use copyhound_report::terminal_safe;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that a comparison reports to.
pub struct Bar {
    indicator: ProgressBar,
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
        let indicator = ProgressBar::with_draw_target(None, target);
        indicator.set_style(
            ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} ({eta})")
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        Self { indicator, shown }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.indicator.finish_and_clear();
    }
}

impl Progress for Bar {
    fn start(&self, stage: Stage, total: u64) {
        let name = match stage {
            Stage::Load => "loading",
            Stage::Hash => "hashing",
            Stage::Compare(CompareStage::Prepare) => "preparing",
            Stage::Compare(CompareStage::Index) => "indexing",
            Stage::Compare(CompareStage::Candidates) => "pairing",
            Stage::Compare(CompareStage::Score) => "scoring",
        };
        self.indicator.set_message(name);
        self.indicator.set_length(total);
        self.indicator.set_position(0);
    }

    fn found(&self) {
        if self.shown {
            self.indicator.inc_length(1);
        }
    }

    fn advance(&self, steps: u64) {
        if self.shown {
            self.indicator.inc(steps);
        }
    }

    /// Every warning is printed, with `-q` too: `-q` hides only the bar.
    fn warn(&self, warning: Warning<'_>) {
        let message = match warning {
            Warning::Read { path, message } => format!("{}: {message}", path.display()),
            Warning::LeftOut(problem) => problem.message.clone(),
            Warning::Layout(message) => message.to_string(),
        };
        self.indicator
            .suspend(|| eprintln!("copyhound: warning: {}", terminal_safe(&message)));
    }
}
