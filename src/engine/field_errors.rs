//! Reading JSON a user wrote or kept (component data files, saved states, setup descriptions)
//! with errors in the game's words: the path of the offending field (`rules.starting_gold`,
//! `state.ships[0].gold`) and a message in plain words. Serde speaks of Rust types
//! (`expected u16`, `expected struct Sourced`, `invalid type: map`); [`plain_words`]
//! translates them, in this one place, for every reader of such files.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A value that does not deserialize: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The path of the offending field (`rules.gold.source`, `ships[1].goods[2]`); empty for
    /// the whole document (a syntax error, or a document of the wrong kind).
    pub field: String,
    /// What is wrong, in plain words.
    pub message: String,
}

impl FieldError {
    /// The field's path, or `whole` for an error about the whole document.
    pub fn field_or(&self, whole: &str) -> String {
        if self.field.is_empty() {
            whole.to_string()
        } else {
            self.field.clone()
        }
    }
}

fn field_error(e: serde_path_to_error::Error<serde_json::Error>) -> FieldError {
    let path = e.path().to_string();
    let inner = e.into_inner();
    // serde_path_to_error says "." for the whole document and "?" where it lost its place.
    let field = if path == "." || path == "?" { String::new() } else { path };
    let message = match inner.classify() {
        // A value of the wrong type or range: the field names where, so the position in the
        // text (which serde_json appends) is left out.
        serde_json::error::Category::Data if !field.is_empty() => {
            let text = inner.to_string();
            let at = format!(" at line {} column {}", inner.line(), inner.column());
            plain_words(text.strip_suffix(&at).unwrap_or(&text))
        }
        // Syntax errors and early ends: the line and column are the only way to find them.
        _ => plain_words(&inner.to_string()),
    };
    FieldError { field, message }
}

/// Parses JSON text into `T`; an error names the offending field in plain words.
pub fn from_json_str<T: DeserializeOwned>(text: &str) -> Result<T, FieldError> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut *de).map_err(field_error)?;
    de.end().map_err(|e| FieldError { field: String::new(), message: plain_words(&e.to_string()) })?;
    Ok(value)
}

/// Converts a JSON value into `T`; an error names the offending field in plain words.
pub fn from_json_value<T: DeserializeOwned>(value: &Value) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(value).map_err(field_error)
}

/// The field names of struct `T`, as serde reads them (for naming a field of a format that
/// keeps no names, such as the binary saved state).
pub fn struct_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    use serde::de::{self, Visitor};

    #[derive(Debug)]
    struct Stop;
    impl std::fmt::Display for Stop {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("stop")
        }
    }
    impl std::error::Error for Stop {}
    impl de::Error for Stop {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Stop
        }
    }
    struct Names<'a>(&'a mut Option<&'static [&'static str]>);
    impl<'de> de::Deserializer<'de> for Names<'_> {
        type Error = Stop;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
            Err(Stop)
        }
        fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, fields: &'static [&'static str], _: V) -> Result<V::Value, Stop> {
            *self.0 = Some(fields);
            Err(Stop)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut names = None;
    let _ = T::deserialize(Names(&mut names));
    names
}

/// Cuts what an error message quotes of a user's input (a text between `"` or `` ` ``) to
/// [`QUOTE_CHARS`] characters and "…": a megabyte of bad input is not echoed back.
pub fn cut_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' && c != '`' {
            continue;
        }
        let mut kept = 0usize;
        let mut escaped = false;
        let mut cut = false;
        let mut closed = false;
        for d in chars.by_ref() {
            if d == c && !escaped {
                closed = true;
                break;
            }
            escaped = !escaped && d == '\\';
            if kept < QUOTE_CHARS {
                out.push(d);
                kept += 1;
            } else {
                cut = true;
            }
        }
        if cut {
            out.push('…');
        }
        if closed {
            out.push(c);
        }
    }
    out
}

/// The most characters of a user's input that an error message quotes.
pub const QUOTE_CHARS: usize = 80;

/// What serde expects, in plain words: `u16` becomes "a whole number from 0 to 65535",
/// `struct Sourced` "an object", `a sequence` "a list".
fn plain_expected(expected: &str) -> String {
    let range = |lo: i128, hi: i128| format!("a whole number from {lo} to {hi}");
    match expected {
        "u8" => range(0, u8::MAX as i128),
        "u16" => range(0, u16::MAX as i128),
        // The widest counts' limits are the type's, not the game's: said as a power of two.
        "u32" => "a whole number (0 or more, below 2^32)".to_string(),
        "u64" | "usize" => "a whole number (0 or more, below 2^64)".to_string(),
        "u128" => "a whole number (0 or more, below 2^128)".to_string(),
        "i8" => range(i8::MIN as i128, i8::MAX as i128),
        "i16" => range(i16::MIN as i128, i16::MAX as i128),
        "i32" => range(i32::MIN as i128, i32::MAX as i128),
        "i64" | "isize" => range(i64::MIN as i128, i64::MAX as i128),
        "f32" | "f64" => "a number".to_string(),
        "a sequence" => "a list".to_string(),
        "a map" => "an object".to_string(),
        "unit" => "null".to_string(),
        "option" => "a value or null".to_string(),
        "a borrowed string" => "a string".to_string(),
        _ => {
            if expected.starts_with("struct ") || expected.starts_with("struct variant ") {
                "an object".to_string()
            } else if expected.starts_with("tuple struct ") || expected.starts_with("tuple variant ") {
                "a list".to_string()
            } else if expected.starts_with("enum ") {
                "one of its names".to_string()
            } else if let Some(n) = expected.strip_prefix("a tuple of size ") {
                format!("a list of {n} items")
            } else if let Some(n) = expected.strip_prefix("an array of length ") {
                format!("a list of {n} items")
            } else {
                expected.to_string()
            }
        }
    }
}

/// What serde found instead, in plain words: `map` becomes "an object", `sequence` "a list".
fn plain_unexpected(found: &str) -> String {
    match found {
        "map" => "an object".to_string(),
        "sequence" => "a list".to_string(),
        "unit value" => "null".to_string(),
        "Option value" => "a value".to_string(),
        "newtype struct" | "unit struct" => "a value".to_string(),
        _ => {
            if let Some(rest) = found.strip_prefix("floating point ") {
                format!("number {rest}")
            } else {
                found.to_string()
            }
        }
    }
}

/// Translates a serde error message into plain words (see the module documentation). Messages
/// with no Rust words pass through unchanged.
pub fn plain_words(message: &str) -> String {
    cut_quotes(&plain_types(message))
}

fn plain_types(message: &str) -> String {
    for kind in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(kind) {
            if let Some((found, expected)) = rest.split_once(", expected ") {
                let (expected, tail) = split_position(expected);
                return format!("{kind}{}, expected {}{tail}", plain_unexpected(found), plain_expected(expected));
            }
        }
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        if let Some((n, expected)) = rest.split_once(", expected ") {
            let (expected, tail) = split_position(expected);
            return format!("invalid length {n}, expected {}{tail}", plain_expected(expected));
        }
    }
    message.to_string()
}

/// `("u16", " at line 1 column 9")` from `"u16 at line 1 column 9"`.
fn split_position(text: &str) -> (&str, &str) {
    match text.find(" at line ") {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Ship {
        gold: u16,
        goods: [u8; 2],
        crew: Vec<u32>,
        cargo: Cargo,
        speed: f64,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Cargo {
        count: u32,
    }

    fn error(text: &str) -> FieldError {
        from_json_str::<Ship>(text).unwrap_err()
    }

    const OK: &str = r#"{"gold": 1, "goods": [1, 2], "crew": [3], "cargo": {"count": 1}, "speed": 1.5}"#;

    #[test]
    fn errors_name_the_field_and_no_rust_type() {
        assert!(from_json_str::<Ship>(OK).is_ok());
        let cases = [
            (OK.replace(r#""gold": 1"#, r#""gold": -5"#), "gold", "invalid value: integer `-5`, expected a whole number from 0 to 65535"),
            (OK.replace(r#""gold": 1"#, r#""gold": 70000"#), "gold", "expected a whole number from 0 to 65535"),
            (OK.replace("[1, 2]", "[1]"), "goods", "invalid length 1, expected a list of 2 items"),
            (OK.replace("[1, 2]", "[1, 300]"), "goods[1]", "expected a whole number from 0 to 255"),
            (OK.replace("[3]", "{}"), "crew", "invalid type: an object, expected a list"),
            (OK.replace(r#"{"count": 1}"#, "7"), "cargo", "invalid type: integer `7`, expected an object"),
            (OK.replace("1.5", "\"fast\""), "speed", "invalid type: string \"fast\", expected a number"),
            (OK.replace(r#""count": 1"#, r#""count": 1.5"#), "cargo.count", "invalid type: number `1.5`, expected a whole number (0 or more, below 2^32)"),
        ];
        for (text, field, message) in cases {
            let e = error(&text);
            assert_eq!(e.field, field, "{text}");
            assert!(e.message.contains(message), "{text}: {}", e.message);
            for rust in ["u8", "u16", "u32", "struct ", "sequence", "map", "at line"] {
                assert!(!e.message.contains(rust), "{text}: {}", e.message);
            }
        }
    }

    #[test]
    fn syntax_errors_keep_their_position_and_name_no_field() {
        let e = error("{\"gold\": 1,");
        assert_eq!(e.field_or("(file)"), "(file)");
        assert!(e.message.contains("line 1"), "{}", e.message);
        let e = from_json_str::<Ship>(&format!("{OK} trailing")).unwrap_err();
        assert_eq!(e.field, "");
        assert!(e.message.contains("trailing characters"), "{}", e.message);
    }

    #[test]
    fn plain_words_leave_plain_messages_alone() {
        assert_eq!(plain_words("missing field `gold`"), "missing field `gold`");
        assert_eq!(plain_words("unknown variant `x`, expected `a` or `b`"), "unknown variant `x`, expected `a` or `b`");
        assert_eq!(plain_words("invalid type: map, expected u8 at line 3 column 4"),
                   "invalid type: an object, expected a whole number from 0 to 255 at line 3 column 4");
        assert_eq!(plain_words("invalid type: null, expected enum Source"), "invalid type: null, expected one of its names");
    }
}
