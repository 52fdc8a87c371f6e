//! The statement options of code by name, as a user chooses them: whether
//! dead statements count ([`DeadCode`]), the order statements are compared
//! in ([`StatementOrder`]) and how counted loops are read ([`Loops`]). Each
//! has `ALL`, `name` and a `description` for a command's help, and its
//! default is the measured one (docs/EVALUATION.md).

use super::StatementOptions;

/// Whether dead statements of code count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DeadCode {
    /// Every statement counts.
    Keep,
    /// Statements that cannot change what their function does are left out.
    #[default]
    Drop,
}

impl DeadCode {
    /// Both choices, in the order a command's help lists them.
    pub const ALL: [DeadCode; 2] = [DeadCode::Keep, DeadCode::Drop];

    /// The choice's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DeadCode::Keep => "keep",
            DeadCode::Drop => "drop",
        }
    }

    /// What the choice does, in a command's help.
    pub fn description(self) -> &'static str {
        match self {
            DeadCode::Keep => "Every statement counts",
            DeadCode::Drop => {
                "Statements that cannot change what their function does (locals nothing reads, \
                 assignments to them, loops and branches over them) are left out (Java, C, C++, \
                 C#, Python): inserted dead code hides nothing. The default: it ranks the \
                 labelled code sets as well or better, the AI-obfuscation set far better \
                 (docs/EVALUATION.md)"
            }
        }
    }
}

/// The order statements of code are compared in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StatementOrder {
    /// As written.
    #[default]
    Written,
    /// Statements that do not depend on each other in one canonical order.
    Canonical,
}

impl StatementOrder {
    /// Both choices, in the order a command's help lists them.
    pub const ALL: [StatementOrder; 2] = [StatementOrder::Written, StatementOrder::Canonical];

    /// The choice's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StatementOrder::Written => "written",
            StatementOrder::Canonical => "canonical",
        }
    }

    /// What the choice does, in a command's help.
    pub fn description(self) -> &'static str {
        match self {
            StatementOrder::Written => {
                "As written. The default: the canonical order costs the labelled sets a little \
                 more than it gains (docs/EVALUATION.md)"
            }
            StatementOrder::Canonical => {
                "Statements that do not depend on each other in one canonical order, so that \
                 swapping them changes nothing (Java, C, C++, C#, Python)"
            }
        }
    }
}

/// How counted `for` loops of code are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Loops {
    /// As written.
    Written,
    /// `for (init; cond; step) body` as the `while` loop it equals.
    #[default]
    While,
}

impl Loops {
    /// Both choices, in the order a command's help lists them.
    pub const ALL: [Loops; 2] = [Loops::Written, Loops::While];

    /// The choice's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Loops::Written => "written",
            Loops::While => "while",
        }
    }

    /// What the choice does, in a command's help.
    pub fn description(self) -> &'static str {
        match self {
            Loops::Written => "As written",
            Loops::While => {
                "`for (init; cond; step) body` as the `while` loop it equals, `init; while \
                 (cond) { body step; }` (Java, C, C++, C#): rewriting one as the other hides \
                 nothing. The default: as good or better on every labelled code set averaged \
                 over hash keys (docs/EVALUATION.md)"
            }
        }
    }
}

impl StatementOptions {
    /// The options the three choices make.
    pub fn new(dead_code: DeadCode, order: StatementOrder, loops: Loops) -> Self {
        Self {
            drop_dead_code: dead_code == DeadCode::Drop,
            canonical_order: order == StatementOrder::Canonical,
            while_loops: loops == Loops::While,
        }
    }

    /// The options of the three choices' defaults, the measured ones.
    pub fn measured() -> Self {
        Self::new(
            DeadCode::default(),
            StatementOrder::default(),
            Loops::default(),
        )
    }
}
