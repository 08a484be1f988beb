//! Declared game options: each game lists its options once (name, kind, range or choices,
//! default), and [`Options::parse`] validates what a caller gave against that list, so every
//! game's `tw.load` errors name the option and what is allowed, in the same words.

use std::marker::PhantomData;

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

/// The value an option of a kind holds, as [`Options::get`] reads it: each kind of [`Opt`] is
/// a type, so reading an option as another kind does not compile.
pub trait Kind {
    type Value<'a>;
    fn read(value: &Value) -> Self::Value<'_>;
}

/// An integer option ([`OptionKind::Int`]).
pub struct Int;
/// A choice among names ([`OptionKind::Choice`]).
pub struct Choice;
/// A boolean option ([`OptionKind::Bool`]).
pub struct Flag;
/// The component data file ([`OptionKind::Data`]).
pub struct DataFile;

impl Kind for Int {
    type Value<'a> = i64;
    fn read(value: &Value) -> i64 {
        value.as_i64().expect("an integer option holds an integer")
    }
}

impl Kind for Choice {
    type Value<'a> = &'a str;
    fn read(value: &Value) -> &str {
        value.as_str().expect("a choice option holds a name")
    }
}

impl Kind for Flag {
    type Value<'a> = bool;
    fn read(value: &Value) -> bool {
        value.as_bool().expect("a boolean option holds a boolean")
    }
}

impl Kind for DataFile {
    type Value<'a> = &'a Value;
    fn read(value: &Value) -> &Value {
        value
    }
}

/// A game's option, declared once as a constant of its kind: the game lists its declaration
/// (`PLAYERS.decl`) in [`crate::engine::GameDefinition::OPTIONS`] and reads its value with
/// `options.get(&PLAYERS)`, so a misspelt name does not compile and the value has its type.
#[derive(Debug, Clone, Copy)]
pub struct Opt<K> {
    pub decl: OptionDecl,
    kind: PhantomData<K>,
}

impl<K> Opt<K> {
    const fn of(name: &'static str, kind: OptionKind) -> Self {
        Opt { decl: OptionDecl { name, kind, configuration: false, doc: "" }, kind: PhantomData }
    }

    /// Each value of the option is a configuration of its own, which the shared checks play
    /// ([`configurations`]).
    pub const fn configuration(mut self) -> Self {
        self.decl.configuration = true;
        self
    }

    /// What the option changes, in one line for people.
    pub const fn doc(mut self, doc: &'static str) -> Self {
        self.decl.doc = doc;
        self
    }
}

impl Opt<Int> {
    /// An integer in `min..=max`.
    pub const fn int(name: &'static str, min: i64, max: i64, default: i64) -> Self {
        Self::of(name, OptionKind::Int { min, max, default })
    }

    /// The move bound (`max_turns`): turns after which a game is cut off as truncated.
    pub const fn max_turns(default: u32) -> Self {
        Self::int("max_turns", 1, 100_000, default as i64)
            .doc("turns after which a game is cut off as truncated, with no winner")
    }
}

impl Opt<Choice> {
    /// One of `values`.
    pub const fn choice(name: &'static str, values: &'static [&'static str], default: &'static str) -> Self {
        Self::of(name, OptionKind::Choice { values, default })
    }
}

impl Opt<Flag> {
    /// `true` or `false`.
    pub const fn flag(name: &'static str, default: bool) -> Self {
        Self::of(name, OptionKind::Bool { default })
    }
}

impl Opt<DataFile> {
    /// The component data file (`data`), for games that have one.
    pub const DATA: Self = Self::of("data", OptionKind::Data).doc("the component data file");
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

    /// The value of option `option`, of its kind's type.
    pub fn get<K: Kind>(&self, option: &Opt<K>) -> K::Value<'_> {
        let name = option.decl.name;
        K::read(self.values.get(name).unwrap_or_else(|| panic!("option {name:?} is not among the game's OPTIONS")))
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

    const PLAYERS: Opt<Int> = Opt::int("players", 1, 3, 2).configuration().doc("1 to 3 seats");
    const MODE: Opt<Choice> = Opt::choice("mode", &["base", "solo"], "base").configuration();
    const FAST: Opt<Flag> = Opt::flag("fast", false);
    const DECLS: &[OptionDecl] = &[PLAYERS.decl, MODE.decl, FAST.decl, Opt::DATA.decl];

    fn given(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn defaults_fill_what_is_not_given() {
        let o = Options::parse("g", DECLS, &given(json!({"mode": "solo"}))).unwrap();
        assert_eq!((o.get(&PLAYERS), o.get(&MODE), o.get(&FAST)), (2, "solo", false));
        assert_eq!(o.get(&Opt::DATA), &Value::Null);
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
