//! Declared game options: each game lists its options once (name, kind, range or choices,
//! default), and [`Options::parse`] validates what a caller gave against that list, so every
//! game's `tw.load` errors name the option and what is allowed, in the same words.

use serde_json::{Map, Value};

use super::error::{EngineError, Result};

/// What values an option takes, and its default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Int { min: i64, max: i64, default: i64 },
    /// One of a list of names.
    Choice { values: &'static [&'static str], default: &'static str },
    /// `true` or `false`.
    Bool { default: bool },
    /// A component data file: a path, the file's JSON object, or `null` for the shipped file.
    Data,
}

/// One option a game takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OptionDecl {
    pub name: &'static str,
    pub kind: OptionKind,
    /// Whether each value of the option is a configuration of its own (player counts, modes,
    /// levels, board sides): [`configurations`] plays every combination of these.
    pub configuration: bool,
    /// One line for people: what the option changes.
    pub doc: &'static str,
}

impl OptionDecl {
    /// The component data file (`data`), for games that have one.
    pub const DATA: OptionDecl =
        OptionDecl { name: "data", kind: OptionKind::Data, configuration: false, doc: "the component data file" };

    /// The move bound (`max_turns`): turns after which a game is cut off as truncated.
    pub const fn max_turns(default: u32) -> OptionDecl {
        OptionDecl {
            name: "max_turns",
            kind: OptionKind::Int { min: 1, max: 100_000, default: default as i64 },
            configuration: false,
            doc: "turns after which a game is cut off as truncated, with no winner",
        }
    }

    /// What the option allows, for error messages and listings.
    pub fn allowed(&self) -> String {
        match self.kind {
            OptionKind::Int { min, max, default } => format!("an integer in {min}..={max}; default {default}"),
            OptionKind::Choice { values, default } => {
                let list: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                format!("one of {}; default {default:?}", list.join(", "))
            }
            OptionKind::Bool { default } => format!("true or false; default {default}"),
            OptionKind::Data => "a data file's path or its JSON object; default the shipped file".into(),
        }
    }

    /// The default as JSON (`null` for the shipped data file).
    pub fn default_value(&self) -> Value {
        match self.kind {
            OptionKind::Int { default, .. } => Value::from(default),
            OptionKind::Choice { default, .. } => Value::from(default),
            OptionKind::Bool { default } => Value::from(default),
            OptionKind::Data => Value::Null,
        }
    }

    /// The value given, checked; `Err` says what is allowed.
    fn check(&self, value: &Value) -> std::result::Result<Value, String> {
        let ok = match self.kind {
            OptionKind::Int { min, max, .. } => value.as_i64().is_some_and(|n| (min..=max).contains(&n)),
            OptionKind::Choice { values, .. } => value.as_str().is_some_and(|s| values.contains(&s)),
            OptionKind::Bool { .. } => value.is_boolean(),
            OptionKind::Data => matches!(value, Value::Null | Value::String(_) | Value::Object(_)),
        };
        if ok {
            Ok(value.clone())
        } else {
            Err(format!("{value} is not allowed: {} ({})", self.allowed(), self.doc))
        }
    }

    /// Every value of a configuration option (the data option has none).
    fn values(&self) -> Vec<Value> {
        match self.kind {
            OptionKind::Int { min, max, .. } => (min..=max).map(Value::from).collect(),
            OptionKind::Choice { values, .. } => values.iter().map(|&v| Value::from(v)).collect(),
            OptionKind::Bool { .. } => vec![Value::from(false), Value::from(true)],
            OptionKind::Data => Vec::new(),
        }
    }
}

/// Every option of a game with its value: the given ones checked, the others at their defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    values: Map<String, Value>,
}

/// The list of a game's options, as error messages show it.
pub fn describe(decls: &[OptionDecl]) -> String {
    let parts: Vec<String> = decls.iter().map(|d| format!("{} ({})", d.name, d.allowed())).collect();
    parts.join(", ")
}

impl Options {
    /// Checks `given` against the game's declared options: an unknown name or a value out of
    /// range is an `InvalidOption` error naming the option and what is allowed.
    pub fn parse(game: &str, decls: &[OptionDecl], given: &Map<String, Value>) -> Result<Options> {
        for key in given.keys() {
            if !decls.iter().any(|d| d.name == key) {
                return Err(EngineError::option(
                    key.as_str(),
                    format!("unknown option for {game}; allowed options: {}", describe(decls)),
                ));
            }
        }
        let mut values = Map::new();
        for d in decls {
            let value = match given.get(d.name) {
                Some(v) => d.check(v).map_err(|m| EngineError::option(d.name, m))?,
                None => d.default_value(),
            };
            values.insert(d.name.to_string(), value);
        }
        Ok(Options { values })
    }

    fn get(&self, name: &str) -> &Value {
        self.values.get(name).unwrap_or_else(|| panic!("option {name:?} is not declared"))
    }

    /// An integer option's value.
    pub fn int(&self, name: &str) -> i64 {
        self.get(name).as_i64().expect("an integer option holds an integer")
    }

    /// A choice option's value.
    pub fn choice(&self, name: &str) -> &str {
        self.get(name).as_str().expect("a choice option holds a name")
    }

    /// A boolean option's value.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name).as_bool().expect("a boolean option holds a boolean")
    }

    /// The game's configuration as saved states and records carry it: the game's name, every
    /// option but the data file, and `data`, the file itself, when it is not the shipped one.
    pub fn config(&self, game: &str, custom_data: Option<&Value>) -> Value {
        let mut m: Map<String, Value> = self.values.iter().filter(|(k, _)| *k != "data").map(|(k, v)| (k.clone(), v.clone())).collect();
        m.insert("game".into(), Value::from(game));
        if let Some(d) = custom_data {
            m.insert("data".into(), d.clone());
        }
        Value::Object(m)
    }

    /// A data option's value as given (`null` for the shipped file).
    pub fn data(&self, name: &str) -> &Value {
        self.get(name)
    }
}

/// Every combination of the values of the configuration options (the others at their
/// defaults) that `accepts` takes: the configurations a game must pass in.
pub fn configurations(decls: &[OptionDecl], accepts: impl Fn(&Map<String, Value>) -> bool) -> Vec<Map<String, Value>> {
    let mut out = vec![Map::new()];
    for d in decls.iter().filter(|d| d.configuration) {
        let mut next = Vec::new();
        for partial in &out {
            for v in d.values() {
                let mut m = partial.clone();
                m.insert(d.name.to_string(), v);
                next.push(m);
            }
        }
        out = next;
    }
    out.retain(|m| accepts(m));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DECLS: &[OptionDecl] = &[
        OptionDecl { name: "players", kind: OptionKind::Int { min: 1, max: 3, default: 2 }, configuration: true, doc: "1 to 3 seats" },
        OptionDecl { name: "mode", kind: OptionKind::Choice { values: &["base", "solo"], default: "base" }, configuration: true, doc: "" },
        OptionDecl { name: "fast", kind: OptionKind::Bool { default: false }, configuration: false, doc: "" },
        OptionDecl { name: "data", kind: OptionKind::Data, configuration: false, doc: "" },
    ];

    fn given(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn defaults_fill_what_is_not_given() {
        let o = Options::parse("g", DECLS, &given(json!({"mode": "solo"}))).unwrap();
        assert_eq!((o.int("players"), o.choice("mode"), o.flag("fast")), (2, "solo", false));
        assert_eq!(o.data("data"), &Value::Null);
    }

    #[test]
    fn errors_name_the_option_and_what_is_allowed() {
        match Options::parse("g", DECLS, &given(json!({"colour": 1}))) {
            Err(EngineError::InvalidOption { option, message }) => {
                assert_eq!(option, "colour");
                assert!(message.contains("allowed options: players (an integer in 1..=3; default 2), mode (one of \"base\", \"solo\""), "{message}");
            }
            other => panic!("{other:?}"),
        }
        for (key, bad) in [("players", json!(0)), ("players", json!(4)), ("players", json!("2")), ("players", json!(1.5)),
                           ("mode", json!("Solo")), ("fast", json!(1)), ("data", json!(3))] {
            match Options::parse("g", DECLS, &given(json!({ key: bad.clone() }))) {
                Err(EngineError::InvalidOption { option, message }) => {
                    assert_eq!(option, key);
                    assert!(message.starts_with(&format!("{bad} is not allowed: ")), "{message}");
                    if key == "players" {
                        assert!(message.ends_with("an integer in 1..=3; default 2 (1 to 3 seats)"), "{message}");
                    }
                }
                other => panic!("{key}={bad}: {other:?}"),
            }
        }
        // The boundaries are allowed.
        for n in [1, 3] {
            assert!(Options::parse("g", DECLS, &given(json!({"players": n}))).is_ok());
        }
    }

    #[test]
    fn configurations_are_every_accepted_combination_of_the_configuration_options() {
        let all = configurations(DECLS, |m| !(m["mode"] == "solo" && m["players"] != 1));
        let pairs: Vec<(i64, &str)> = all.iter().map(|m| (m["players"].as_i64().unwrap(), m["mode"].as_str().unwrap())).collect();
        assert_eq!(pairs, vec![(1, "base"), (1, "solo"), (2, "base"), (3, "base")]);
        assert!(all.iter().all(|m| m.len() == 2), "only configuration options are set");
    }
}
