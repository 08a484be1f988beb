//! Component data files, the part every game shares: values marked printed or
//! reconstructed, parsing with errors that name the offending field, and the `data` option
//! (a file path, the file's JSON object, or `null` for the shipped file).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::error::{EngineError, Result};
use super::field_errors::{self, FieldError};

/// Where a component value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The rulebook states it.
    Printed,
    /// We chose it, consistent with every number the rulebook shows (the game's doc says how).
    Reconstructed,
}

/// A number of a data file with its source and an optional note.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = r#"a number with its source, {"value": 5, "source": "printed" or "reconstructed"}"#)]
pub struct Sourced {
    pub value: u32,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Declares an object of a data file: serde's view of it, unknown keys refused
/// (`deny_unknown_fields`). The struct's attributes, fields and their attributes are written
/// as usual.
macro_rules! data_struct {
    ($(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }) => {
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $(#[$attr])*
        pub struct $name { $($body)* }
    };
}
pub(crate) use data_struct;

/// Declares an object of a data file ([`data_struct`]) whose every field is a [`Sourced`]
/// number, by the fields' names.
macro_rules! sourced_values {
    ($(#[$attr:meta])* pub struct $name:ident { $($(#[$field_attr:meta])* $field:ident),* $(,)? }) => {
        $crate::engine::data::data_struct! {
            $(#[$attr])*
            pub struct $name { $($(#[$field_attr])* pub $field: $crate::engine::data::Sourced,)* }
        }
    };
}
pub(crate) use sourced_values;

/// Declares a record of a data file ([`data_struct`]) that the rulebook prints or that we
/// reconstructed: the fields given, then its `source` and an optional `note`.
macro_rules! sourced_record {
    ($(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $crate::engine::data::data_struct! {
            $(#[$attr])*
            pub struct $name {
                $($body)*
                pub source: $crate::engine::data::Source,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub note: Option<String>,
            }
        }
    };
}
pub(crate) use sourced_record;

/// Declares a game's whole data file ([`data_struct`]): the header every file starts with
/// (its `format`, the `game` it is for, and an optional `about`), then the game's sections.
macro_rules! data_file {
    ($(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $crate::engine::data::data_struct! {
            $(#[$attr])*
            pub struct $name {
                pub format: u32,
                pub game: String,
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub about: Option<String>,
                $($body)*
            }
        }

        impl $crate::engine::data::DataHeader for $name {
            fn header(&self) -> (u32, &str) {
                (self.format, &self.game)
            }
        }
    };
}
pub(crate) use data_file;

/// A deserialization error, named by the path of the offending field (`(file)` for the
/// whole), in plain words.
fn data_error(e: FieldError) -> EngineError {
    EngineError::data(e.field_or("(file)"), e.message)
}

/// Parses a data file's text into its file type; errors name the field.
pub fn parse_text<F: DeserializeOwned>(text: &str) -> Result<F> {
    field_errors::from_json_str(text).map_err(data_error)
}

/// Parses a data file given as a JSON value; errors name the field.
pub fn parse_value<F: DeserializeOwned>(value: &Value) -> Result<F> {
    field_errors::from_json_value(value).map_err(data_error)
}

/// The header every data file starts with: its `format` and the `game` it is for.
pub trait DataHeader {
    /// The file's `format` and `game`.
    fn header(&self) -> (u32, &str);
}

/// A game's component data: the shipped file and how a file becomes the game's tables.
pub trait ComponentData: Sized {
    /// The file as written (serde's view of the JSON; errors name the field).
    type File: DeserializeOwned + Serialize + PartialEq + DataHeader;
    /// The shipped file's text.
    const SHIPPED: &'static str;
    /// The game the file is for, as the header's `game` names it.
    const GAME: &'static str;
    /// The version of the file format the game reads, as the header's `format` gives it.
    const FORMAT: u32 = 1;
    /// Validates a parsed file whose header has been checked and compiles it into the game's
    /// tables; errors name the offending field ([`EngineError::data`]).
    fn compile(file: Self::File) -> Result<Self>;

    /// Checks a parsed file's header, its `format` and `game`, then compiles it.
    fn from_file(file: Self::File) -> Result<Self> {
        let (format, game) = file.header();
        if format != Self::FORMAT {
            return Err(EngineError::data("format", format!("data format {format} is not supported (expected {})", Self::FORMAT)));
        }
        if game != Self::GAME {
            return Err(EngineError::data("game", format!("this is a data file for {game:?}, not {}", Self::GAME)));
        }
        Self::compile(file)
    }

    /// Parses and validates a data file's text; errors name the offending field.
    fn from_json_str(text: &str) -> Result<Self> {
        Self::from_file(parse_text(text)?)
    }

    /// Parses and validates a data file given as a JSON value.
    fn from_value(value: &Value) -> Result<Self> {
        Self::from_file(parse_value(value)?)
    }

    /// The shipped data.
    fn shipped() -> Self {
        Self::from_json_str(Self::SHIPPED).expect("the shipped data file validates")
    }

    /// The parsed file this data was compiled from.
    fn file(&self) -> &Self::File;

    /// The file as a game's configuration carries it ([`Options::config`]): `None` for the
    /// shipped file.
    ///
    /// [`Options::config`]: crate::engine::options::Options::config
    fn custom_file(&self) -> Option<Value> {
        let shipped = Self::shipped();
        (self.file() != shipped.file()).then(|| serde_json::to_value(self.file()).expect("a data file serializes"))
    }

    /// The data a `data` option names: a file path, the file's JSON object, or `null` for the
    /// shipped file.
    fn from_option(value: &Value) -> Result<Self> {
        match value {
            Value::String(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| EngineError::data("(file)", format!("cannot read {path:?}: {e}")))?;
                Self::from_json_str(&text)
            }
            Value::Object(_) => Self::from_value(value),
            Value::Null => Ok(Self::shipped()),
            _ => Err(EngineError::option("data", "a file path or a JSON object")),
        }
    }
}

impl Sourced {
    /// The value, if it lies in `lo..=hi`; otherwise a data error naming `field`'s value.
    pub fn within(&self, field: &str, lo: u32, hi: u32) -> Result<u32> {
        within(format!("{field}.value"), self.value, lo, hi)
    }
}

/// `value`, if it lies in `lo..=hi`; otherwise a data error at `field` that says so.
pub fn within(field: impl Into<String>, value: u32, lo: u32, hi: u32) -> Result<u32> {
    if value < lo || value > hi {
        Err(EngineError::data(field, format!("{value} is outside {lo}..={hi}")))
    } else {
        Ok(value)
    }
}

/// Reads a table keyed by player count (`{"2": ..., "3": ..., "4": ...}`) at field `section`:
/// every key is one of `counts`, every count has an entry, and `read(field, players, entry)`
/// compiles each entry (`field` is the entry's path, `section.players`).
pub fn per_player_count<E, T>(
    section: &str,
    table: &BTreeMap<String, E>,
    counts: RangeInclusive<usize>,
    mut read: impl FnMut(&str, usize, &E) -> Result<T>,
) -> Result<BTreeMap<usize, T>> {
    let mut out = BTreeMap::new();
    for (key, entry) in table {
        let field = format!("{section}.{key}");
        let Some(players) = counts.clone().find(|p| p.to_string() == *key) else {
            return Err(EngineError::data(field, format!("keys are the player counts {}", quoted_list(counts))));
        };
        out.insert(players, read(&field, players, entry)?);
    }
    for players in counts {
        if !out.contains_key(&players) {
            return Err(EngineError::data(format!("{section}.{players}"), "missing"));
        }
    }
    Ok(out)
}

/// `"2", "3" and "4"`.
fn quoted_list(counts: RangeInclusive<usize>) -> String {
    let quoted: Vec<String> = counts.map(|p| format!("\"{p}\"")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// For `#[serde(skip_serializing_if = "is_zero")]`: a count of 0 is left out of a written file.
pub fn is_zero(v: &u32) -> bool {
    *v == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[allow(dead_code)]
        rules: Rules,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Rules {
        #[allow(dead_code)]
        gold: Sourced,
    }

    #[test]
    fn errors_name_the_offending_field() {
        let bad = r#"{"rules": {"gold": {"value": 3, "source": "guessed"}}}"#;
        match parse_text::<File>(bad) {
            Err(EngineError::DataFile { field, message }) => {
                assert_eq!(field, "rules.gold.source");
                assert!(message.contains("printed") && message.contains("reconstructed"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let missing = serde_json::json!({"rules": {"gold": {"source": "printed"}}});
        assert!(matches!(parse_value::<File>(&missing), Err(EngineError::DataFile { field, .. }) if field == "rules.gold"));
        assert!(matches!(parse_text::<File>("nope"), Err(EngineError::DataFile { field, .. }) if field == "(file)"));
        let ok = r#"{"rules": {"gold": {"value": 3, "source": "reconstructed", "note": "ours"}}}"#;
        assert!(parse_text::<File>(ok).is_ok());
    }

    /// A game's data that is only its header.
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct HeaderOnly {
        format: u32,
        game: String,
    }

    impl DataHeader for HeaderOnly {
        fn header(&self) -> (u32, &str) {
            (self.format, &self.game)
        }
    }

    impl ComponentData for HeaderOnly {
        type File = HeaderOnly;
        const SHIPPED: &'static str = r#"{"format": 1, "game": "toy"}"#;
        const GAME: &'static str = "toy";
        fn compile(file: HeaderOnly) -> Result<HeaderOnly> {
            Ok(file)
        }
        fn file(&self) -> &HeaderOnly {
            self
        }
    }

    fn data_error<T: std::fmt::Debug>(r: Result<T>) -> (String, String) {
        match r {
            Err(EngineError::DataFile { field, message }) => (field, message),
            other => panic!("expected a data-file error, got {other:?}"),
        }
    }

    #[test]
    fn the_header_names_the_format_and_the_game() {
        assert_eq!(HeaderOnly::shipped().game, "toy");
        let (field, message) = data_error(HeaderOnly::from_json_str(r#"{"format": 2, "game": "toy"}"#));
        assert_eq!((field.as_str(), message.as_str()), ("format", "data format 2 is not supported (expected 1)"));
        let (field, message) = data_error(HeaderOnly::from_json_str(r#"{"format": 1, "game": "chess"}"#));
        assert_eq!((field.as_str(), message.as_str()), ("game", r#"this is a data file for "chess", not toy"#));
    }

    fn table(pairs: &[(&str, u32)]) -> BTreeMap<String, u32> {
        pairs.iter().map(|&(k, v)| (k.to_string(), v)).collect()
    }

    #[test]
    fn player_count_tables_have_one_entry_a_count() {
        let read = |field: &str, players: usize, v: &u32| within(field, *v, 1, 10).map(|v| v * players as u32);
        let full = table(&[("2", 5), ("3", 4), ("4", 3)]);
        let got = per_player_count("rounds", &full, 2..=4, read).unwrap();
        assert_eq!(got.into_iter().collect::<Vec<_>>(), vec![(2, 10), (3, 12), (4, 12)]);

        let (field, message) = data_error(per_player_count("rounds", &table(&[("2", 5), ("4", 3)]), 2..=4, read));
        assert_eq!((field.as_str(), message.as_str()), ("rounds.3", "missing"));
        for bad in ["5", "1", "02", " 2", "two", ""] {
            let mut t = full.clone();
            t.insert(bad.to_string(), 5);
            let (field, message) = data_error(per_player_count("rounds", &t, 2..=4, read));
            assert_eq!(field, format!("rounds.{bad}"));
            assert_eq!(message, r#"keys are the player counts "2", "3" and "4""#);
        }
        // The entry's own errors name its field.
        let (field, _) = data_error(per_player_count("rounds", &table(&[("2", 5), ("3", 0), ("4", 3)]), 2..=4, read));
        assert_eq!(field, "rounds.3");
        let (_, message) = data_error(per_player_count("rounds", &table(&[("6", 5)]), 1..=5, read));
        assert_eq!(message, r#"keys are the player counts "1", "2", "3", "4" and "5""#);
        let (_, message) = data_error(per_player_count("solo", &table(&[("2", 5)]), 1..=1, read));
        assert_eq!(message, r#"keys are the player counts "1""#);
    }

    #[test]
    fn errors_speak_of_the_file_not_of_rust_types() {
        // A bare number where a sourced value belongs, and a value out of range.
        let bare = r#"{"rules": {"gold": 7}}"#;
        match parse_text::<File>(bare) {
            Err(EngineError::DataFile { field, message }) => {
                assert_eq!(field, "rules.gold");
                assert!(message.contains(r#"{"value": 5, "source": "printed" or "reconstructed"}"#), "{message}");
                assert!(!message.contains("Sourced") && !message.contains("struct "), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let negative = r#"{"rules": {"gold": {"value": -1, "source": "printed"}}}"#;
        match parse_text::<File>(negative) {
            Err(EngineError::DataFile { field, message }) => {
                assert_eq!(field, "rules.gold.value");
                assert!(message.contains("a whole number (0 or more, below 2^32)"), "{message}");
                assert!(!message.contains("u32") && !message.contains("at line"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
