//! The words of the registered games, gathered from the games themselves so that a new
//! game's vocabulary is fuzzed as soon as it is registered: the names of the legal actions
//! met in a few seeded random games of every configuration (whole, and split into words), the
//! keys and text values of the saved states of those games (phases, modes), and the keys and
//! text values of the shipped component data files (names of cards, ports, goods, sources).
//! The mutators put these words where a game reads text (action names, saved-state and data
//! file strings and keys), where a random byte string is seldom recognised.
//!
//! Built once, at first use, and deterministic: fixed seeds, a sorted list.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;

use super::configurations::registry;
use super::invariants::random_legal;
use crate::engine::rng::{derive_seed, rng_from_seed};

/// Text that tends to break parsers whatever the game: empty and blank text, a NUL, non-ASCII
/// letters, JSON literals.
const GENERIC: &[&str] = &["", " ", "\u{0}", "é", "🦀", "null", "true", "1", "-1"];

/// Seeded random games played in each configuration.
const GAMES_PER_CONFIGURATION: u64 = 2;
/// Most moves of one of those games.
const MOVES_PER_GAME: usize = 1500;
/// Every how many moves (and at the end) the saved state's text is gathered.
const SAVE_EVERY: usize = 20;
/// Longer text is not a word (a saved configuration, a rules note).
const MAX_WORD_CHARS: usize = 64;

/// The words, sorted and distinct (never empty: it holds a few strings that break parsers
/// whatever the game).
pub fn vocabulary() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(gather)
}

/// The seed of game `g` of configuration `i` of the registry.
fn game_seed(i: usize, g: u64) -> u64 {
    derive_seed(0x0011_A5E5 + i as u64, g)
}

fn gather() -> Vec<String> {
    let mut words: BTreeSet<String> = GENERIC.iter().map(|w| w.to_string()).collect();
    words.extend(crate::games::registered().map(str::to_string));
    for (i, entry) in registry().iter().enumerate() {
        for g in 0..GAMES_PER_CONFIGURATION {
            let seed = game_seed(i, g);
            let mut state = entry.game.new_state(seed, g % 2 == 0);
            let mut rng = rng_from_seed(seed);
            for step in 0..MOVES_PER_GAME {
                for a in state.legal_actions() {
                    add_name(&state.action_to_string(a), &mut words);
                }
                if step % SAVE_EVERY == 0 {
                    add_json_text(&state.to_json(), &mut words);
                }
                let Some(a) = random_legal(&*state, &mut rng) else { break };
                state.apply(a).expect("a legal action is accepted");
            }
            add_json_text(&state.to_json(), &mut words);
        }
    }
    for (_, data_file) in crate::games::data_files() {
        add_json_text(data_file.shipped, &mut words);
    }
    words.into_iter().collect()
}

fn add_word(word: &str, words: &mut BTreeSet<String>) {
    if !word.is_empty() && word.chars().count() <= MAX_WORD_CHARS && !words.contains(word) {
        words.insert(word.to_string());
    }
}

/// An action name, its blank-separated tokens, and the pieces of those between punctuation
/// (`sail:Northcape` gives `sail` and `Northcape`; hyphens and underscores join a word).
fn add_name(name: &str, words: &mut BTreeSet<String>) {
    add_word(name, words);
    for token in name.split_whitespace() {
        add_word(token, words);
        for piece in token.split(|c: char| c.is_ascii_punctuation() && c != '-' && c != '_') {
            add_word(piece, words);
        }
    }
}

/// The keys and text values of a JSON document (nothing if it is not JSON).
fn add_json_text(text: &str, words: &mut BTreeSet<String>) {
    fn walk(v: &Value, words: &mut BTreeSet<String>) {
        match v {
            Value::String(s) => add_word(s, words),
            Value::Array(a) => a.iter().for_each(|x| walk(x, words)),
            Value::Object(o) => {
                for (k, x) in o {
                    add_word(k, words);
                    walk(x, words);
                }
            }
            _ => {}
        }
    }
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        walk(&v, words);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_holds_the_words_of_every_registered_game() {
        let words = vocabulary();
        assert!(words.windows(2).all(|w| w[0] < w[1]), "not sorted and distinct");
        let has = |w: &str| words.binary_search_by(|x| x.as_str().cmp(w)).is_ok();
        for g in GENERIC {
            assert!(has(g), "{g:?}");
        }
        for (i, entry) in registry().iter().enumerate() {
            assert!(has(entry.name), "{}", entry.name);
            let state = entry.game.new_state(game_seed(i, 1), false);
            for a in state.legal_actions() {
                let name = state.action_to_string(a);
                assert!(has(&name), "{}: {name:?}", entry.name);
                for token in name.split_whitespace() {
                    assert!(has(token), "{}: {token:?} of {name:?}", entry.name);
                }
            }
        }
        for (name, data_file) in crate::games::data_files() {
            let shipped: Value = serde_json::from_str(data_file.shipped).unwrap();
            let key = shipped.as_object().and_then(|o| o.keys().next()).expect("a data file is a JSON object");
            assert!(has(key), "{name}: {key:?}");
        }
        // Deterministic: gathering again gives the same words.
        assert_eq!(gather(), words);
    }

    #[test]
    fn names_are_split_into_words() {
        let mut words = BTreeSet::new();
        add_name("raise-flag:blue now", &mut words);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(words, ["blue", "now", "raise-flag", "raise-flag:blue", "raise-flag:blue now"]);
    }
}
