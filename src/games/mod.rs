//! The registry: the one place where games are joined to the engine.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::engine::{DynGame, EngineError, Handle, Result};

pub mod north_wind;

/// The games present, by name.
pub const GAMES: &[&str] = &["north-wind"];

/// Builds game `name` from its options (a JSON object; `{}` gives the defaults).
pub fn load(name: &str, options: &Map<String, Value>) -> Result<Arc<dyn DynGame>> {
    match name {
        "north-wind" => Ok(Arc::new(Handle(Arc::new(north_wind::NorthWind::new(options)?)))),
        _ => Err(EngineError::UnknownGame { name: name.to_string(), available: GAMES.join(", ") }),
    }
}

/// Builds a game from `{"game": name, ...options}` (the form [`DynGame::config`] returns).
pub fn load_json(config: &Value) -> Result<Arc<dyn DynGame>> {
    let obj = config
        .as_object()
        .ok_or_else(|| EngineError::option("config", "a game configuration must be a JSON object"))?;
    let name = obj
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| EngineError::option("game", "the configuration names no game"))?;
    let mut options = obj.clone();
    options.remove("game");
    load(name, &options)
}

/// Every configuration (player count and mode) a game must pass the conformance suite in.
pub fn all_configurations(name: &str) -> Vec<Map<String, Value>> {
    match name {
        "north-wind" => north_wind::NorthWind::all_configurations(),
        _ => Vec::new(),
    }
}

/// A game with a component data file: its name, the shipped file's text and the parser of
/// the file's text (the path the `data` option takes when given a file name).
pub struct DataFileKind {
    pub game: &'static str,
    pub shipped: &'static str,
    pub parse_text: fn(&str) -> Result<()>,
}

/// The games that read a component data file (the fuzz targets mutate each). A new game
/// with a data file adds a row.
pub const DATA_FILES: &[DataFileKind] = &[DataFileKind {
    game: "north-wind",
    shipped: north_wind::data::DEFAULT_DATA,
    parse_text: |text| north_wind::Data::from_json_str(text).map(|_| ()),
}];
