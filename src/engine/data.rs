//! Component data files, the part every game shares: values marked printed or
//! reconstructed, parsing with errors that name the offending field, and the `data` option
//! (a file path, the file's JSON object, or `null` for the shipped file).

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

/// A game's component data: the shipped file and how a file becomes the game's tables.
pub trait ComponentData: Sized {
    /// The file as written (serde's view of the JSON; errors name the field).
    type File: DeserializeOwned + Serialize + PartialEq;
    /// The shipped file's text.
    const SHIPPED: &'static str;
    /// Validates a parsed file and compiles it into the game's tables; errors name the
    /// offending field ([`EngineError::data`]).
    fn compile(file: Self::File) -> Result<Self>;

    /// Parses and validates a data file's text; errors name the offending field.
    fn from_json_str(text: &str) -> Result<Self> {
        Self::compile(parse_text(text)?)
    }

    /// Parses and validates a data file given as a JSON value.
    fn from_value(value: &Value) -> Result<Self> {
        Self::compile(parse_value(value)?)
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
