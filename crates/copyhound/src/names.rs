//! Clap parsers over the libraries' own names (`ALL`, `name`, and a
//! description for the help), so that each name is written once, where
//! its value is defined: `value_parser = names!(Level)`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// The parser of a library type's names, from its `ALL`, `name` and
/// `description`.
macro_rules! names {
    ($value:ty) => {
        $crate::names::parser(&<$value>::ALL, <$value>::name, <$value>::description)
    };
}
pub(crate) use names;

/// The parser of the names of `all`, each with its description.
pub fn parser<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    description: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T> {
    let values = all
        .iter()
        .map(move |&value| PossibleValue::new(name(value)).help(description(value)));
    PossibleValuesParser::new(values).map(move |given| {
        *all.iter()
            .find(|&&value| name(value) == given)
            .expect("clap checked the name")
    })
}
