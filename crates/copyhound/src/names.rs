//! Clap parsers over the libraries' own names (`ALL`, `name`, and a
//! description for the help), so that each name is written once, where
//! its value is defined.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use copyhound_db::Mode;
use copyhound_normalize::TextMode;
use copyhound_normalize::code::Level;
use copyhound_pipeline::{SelectorName, UnitMode, Weighting};

/// A value a user chooses by its name.
pub trait Named: Copy + Send + Sync + 'static {
    /// Every value, in the order the help lists them.
    const ALL: &'static [Self];
    /// Its name on the command line.
    fn name(self) -> &'static str;
    /// Its line in the help.
    fn description(self) -> &'static str;
}

macro_rules! named {
    ($($value:ty),*) => {$(
        impl Named for $value {
            const ALL: &'static [Self] = &<$value>::ALL;
            fn name(self) -> &'static str {
                <$value>::name(self)
            }
            fn description(self) -> &'static str {
                <$value>::description(self)
            }
        }
    )*};
}

named!(Level, Mode, SelectorName, TextMode, UnitMode, Weighting);

/// The parser of `T`'s names.
pub fn parser<T: Named>() -> impl TypedValueParser<Value = T> {
    let values = T::ALL
        .iter()
        .map(|value| PossibleValue::new(value.name()).help(value.description()));
    PossibleValuesParser::new(values).map(|name| {
        *T::ALL
            .iter()
            .find(|value| value.name() == name)
            .expect("clap checked the name")
    })
}
