//! The progress bar on stderr of `compare` and `dedup`, drawn only on a
//! terminal and without `-q`, and the warnings of a comparison, printed as
//! they come (with `-q` too).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that a comparison or a deduplication reports to.
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
        Self { indicator, shown }
    }

    /// A stage called `name` begins: a bar of `total` steps, or a spinner
    /// when the total is not known.
    fn start(&self, name: &'static str, total: Option<u64>) {
        let template = if total.is_some() {
            "{msg:>10} [{bar:40}] {pos}/{len} ({eta})"
        } else {
            "{msg:>10} {spinner} {pos}"
        };
        self.indicator.set_style(
            ProgressStyle::with_template(template)
                .expect("the template is valid")
                .progress_chars("=> "),
        );
        self.indicator.set_message(name);
        self.indicator.set_length(total.unwrap_or(0));
        self.indicator.set_position(0);
    }

    fn advance(&self, steps: u64) {
        if self.shown {
            self.indicator.inc(steps);
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.indicator.finish_and_clear();
    }
}

impl copyhound_pipeline::Progress for Bar {
    fn start(&self, stage: copyhound_pipeline::Stage, total: u64) {
        Self::start(self, stage.name(), Some(total));
    }

    fn found(&self) {
        if self.shown {
            self.indicator.inc_length(1);
        }
    }

    fn advance(&self, steps: u64) {
        Self::advance(self, steps);
    }

    /// Every warning is printed, with `-q` too: `-q` hides only the bar.
    fn warn(&self, warning: copyhound_pipeline::Warning<'_>) {
        self.indicator.suspend(|| crate::warn(&warning.to_string()));
    }
}

impl copyhound_dedup::Progress for Bar {
    fn start(&self, stage: copyhound_dedup::Stage, total: Option<u64>) {
        Self::start(self, stage.name(), total);
    }

    fn advance(&self, steps: u64) {
        Self::advance(self, steps);
    }
}
