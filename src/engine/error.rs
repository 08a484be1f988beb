//! The typed errors of the engine. Every fallible entry point returns one of these;
//! the Python bindings map each variant to one Python exception class, in one place.

use std::any::Any;

use thiserror::Error;

use super::field_errors::cut_quotes;

/// Everything that can go wrong when a caller talks to the engine.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The game name is not one of [`crate::games::GAMES`].
    #[error("unknown game {}; available games: {available}", quote(name))]
    UnknownGame { name: String, available: String },
    /// A game option is unknown, of the wrong type or out of range.
    #[error("invalid option {}: {}", quote(option), cut_quotes(message))]
    InvalidOption { option: String, message: String },
    /// An action that is not legal in the current state (the state is unchanged).
    #[error("illegal action: {}", cut_quotes(.0))]
    IllegalAction(String),
    /// A string that names no legal action in the current state.
    #[error("unknown action string {}: {}", quote(text), cut_quotes(message))]
    UnknownActionString { text: String, message: String },
    /// A saved state that cannot be loaded (corrupt, truncated, other game, other version).
    #[error("cannot load saved state: {}", cut_quotes(.0))]
    StateFormat(String),
    /// A game record that cannot be replayed (corrupt, another format version, a move that is
    /// not legal where it stands, chance outcomes the seed does not draw).
    #[error("cannot replay game record: {}", cut_quotes(.0))]
    Record(String),
    /// A component data file that does not validate; `field` names the offending field.
    #[error("invalid data file: field `{}`: {}", cut(field), cut_quotes(message))]
    DataFile { field: String, message: String },
    /// A setup description that does not describe a legal position.
    #[error("invalid setup description: field `{}`: {}", cut(field), cut_quotes(message))]
    Setup { field: String, message: String },
    /// A request that does not make sense in the current state (for example a player index out of range).
    #[error("invalid request: {}", cut_quotes(.0))]
    InvalidRequest(String),
    /// A bulk simulation stopped by its progress callback (for example on Ctrl-C).
    #[error("simulation cancelled")]
    Cancelled,
}

pub type Result<T, E = EngineError> = std::result::Result<T, E>;

/// A user's text as an error message quotes it: cut to its first
/// [`QUOTE_CHARS`](super::field_errors::QUOTE_CHARS) characters and "…".
pub fn cut(text: &str) -> String {
    match text.char_indices().nth(super::field_errors::QUOTE_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

fn quote(text: &str) -> String {
    format!("{:?}", cut(text))
}

impl EngineError {
    pub fn option(option: impl Into<String>, message: impl Into<String>) -> Self {
        EngineError::InvalidOption { option: option.into(), message: message.into() }
    }
    pub fn data(field: impl Into<String>, message: impl Into<String>) -> Self {
        EngineError::DataFile { field: field.into(), message: message.into() }
    }
    pub fn setup(field: impl Into<String>, message: impl Into<String>) -> Self {
        EngineError::Setup { field: field.into(), message: message.into() }
    }
}

/// The text of a panic payload (what `panic!` was given), for reports of a caught panic.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::panic_message;

    #[test]
    fn panic_messages_are_read_from_str_and_string_payloads() {
        let payload = std::panic::catch_unwind(|| panic!("a plain message")).unwrap_err();
        assert_eq!(panic_message(&*payload), "a plain message");
        let payload = std::panic::catch_unwind(|| panic!("formatted {}", 7)).unwrap_err();
        assert_eq!(panic_message(&*payload), "formatted 7");
        let payload = std::panic::catch_unwind(|| std::panic::panic_any(7u8)).unwrap_err();
        assert_eq!(panic_message(&*payload), "unknown panic");
    }
}
