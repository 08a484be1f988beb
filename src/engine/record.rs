//! Game records and the readable log, written once for every game.
//!
//! A [`Record`] holds one game: the game and its options, the seed (when the game was started
//! from one), whether chance was resolved from the seed or given move by move, and every move
//! by name, chance outcomes included. [`GameState::record`] writes it; [`GameState::replay`]
//! plays it again, checking every move, to the identical state. The log ([`GameState::log`])
//! replays the same moves from the game's first state and asks the game for a sentence per
//! move ([`crate::engine::Game::describe_move`]), as one seat or a spectator may see it.
//! Nothing here runs unless a record or a log is asked for.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::error::{EngineError, Result};
use super::field_errors;
use super::game::{Action, Game};
use super::state::GameState;

/// The version of the record format, written in every record and checked on load.
pub const RECORD_FORMAT: u32 = 1;

/// One game, move by move (saved as JSON by [`Record::to_json`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// [`RECORD_FORMAT`] when written.
    pub format: u32,
    /// The game's registered name.
    pub game: String,
    /// The game's options (its configuration without the name).
    pub options: Map<String, Value>,
    /// The seed the game was started from, when known.
    #[serde(default)]
    pub seed: Option<u64>,
    /// True when the chance outcomes were given move by move; false when the seed drew them.
    pub explicit_chance: bool,
    /// Every move by name, chance outcomes included, from the game's first state.
    pub moves: Vec<String>,
}

/// The first fields of a record, read before the rest so that another format is named as such.
#[derive(Deserialize)]
struct Header {
    format: u32,
}

/// One line of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    /// The move's number, from 0 (chance outcomes count).
    pub move_number: u64,
    /// Who moved: a seat, or [`super::game::CHANCE`].
    pub actor: i32,
    /// The game's sentence, as the observer may see it.
    pub text: String,
}

fn bad(message: impl Into<String>) -> EngineError {
    EngineError::Record(message.into())
}

impl Record {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serializes")
    }

    /// Reads a record; an error names the offending field in plain words. Never panics.
    pub fn from_json(text: &str) -> Result<Record> {
        let field = |e: field_errors::FieldError| {
            if e.field.is_empty() {
                bad(format!("not a tradewinds game record: {}", e.message))
            } else {
                bad(format!("field `{}`: {}", e.field, e.message))
            }
        };
        let header: Header = field_errors::from_json_str(text).map_err(field)?;
        if header.format != RECORD_FORMAT {
            return Err(bad(format!(
                "it was written in record format version {}, and this build of tradewinds reads version \
                 {RECORD_FORMAT}; replay it with a tradewinds release that reads version {}",
                header.format, header.format
            )));
        }
        field_errors::from_json_str(text).map_err(field)
    }

    /// The game's configuration (`{"game": ..., options...}`), as [`crate::games::load_json`] takes it.
    pub fn config(&self) -> Value {
        let mut config = self.options.clone();
        config.insert("game".into(), Value::from(self.game.clone()));
        Value::Object(config)
    }
}

impl<G: Game> GameState<G> {
    /// Replays this state's history from the game's first state, calling `f(before, action,
    /// after)` for each move. Fails when the history does not lead from the game's first
    /// state to this one (a state set up from a description, or resampled).
    fn walk_history(&self, mut f: impl FnMut(&G::State, Action, &G::State)) -> Result<()> {
        let game = &**self.game();
        let not_from_start = || {
            EngineError::InvalidRequest(
                "this state's history does not start at the beginning of a game (it was set up from a \
                 description or resampled), so it has no record or log"
                    .into(),
            )
        };
        if self.history().len() as u64 != self.move_number() {
            return Err(not_from_start());
        }
        let mut s = game.initial_state();
        let mut legal = Vec::new();
        for &a in self.history() {
            game.legal_actions(&s, &mut legal);
            if legal.binary_search(&a).is_err() {
                return Err(not_from_start());
            }
            let before = s.clone();
            game.apply(&mut s, a);
            f(&before, a, &s);
        }
        if &s != self.inner() {
            return Err(not_from_start());
        }
        Ok(())
    }

    /// The log of the game so far, one sentence a move, chance outcomes included, as seat
    /// `observer` may see it (`None`: a spectator who sees everything).
    pub fn log(&self, observer: Option<usize>) -> Result<Vec<LogEntry>> {
        if let Some(p) = observer {
            let n = self.game().spec().players;
            if p >= n {
                return Err(EngineError::InvalidRequest(format!(
                    "player {p} is out of range: this game has players 0..{}",
                    n - 1
                )));
            }
        }
        let game = &**self.game();
        let mut out = Vec::with_capacity(self.history().len());
        self.walk_history(|before, a, after| {
            out.push(LogEntry {
                move_number: out.len() as u64,
                actor: game.actor(before).as_i32(),
                text: game.log_sentence(before, a, after, observer),
            })
        })?;
        Ok(out)
    }

    /// The record of the game so far.
    pub fn record(&self) -> Result<Record> {
        let game = &**self.game();
        let mut moves = Vec::with_capacity(self.history().len());
        self.walk_history(|before, a, _| moves.push(game.action_to_string(before, a)))?;
        let mut options = match game.config() {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        options.remove("game");
        Ok(Record {
            format: RECORD_FORMAT,
            game: game.spec().name.to_string(),
            options,
            seed: self.seed(),
            explicit_chance: self.explicit_chance(),
            moves,
        })
    }

    /// Plays `record` (a record of this game) again, checking every move. With `moves`, only
    /// its first `moves` moves, with chance left explicit (to step through it). Otherwise the
    /// whole record, to the state it was written from: identical when the record has its seed;
    /// without one the replayed state continues with explicit chance.
    pub fn replay(game: Arc<G>, record: &Record, moves: Option<usize>) -> Result<Self> {
        if record.game != game.spec().name {
            return Err(bad(format!("it is a record of game {:?}, not {:?}", record.game, game.spec().name)));
        }
        let total = record.moves.len();
        let upto = moves.unwrap_or(total);
        if upto > total {
            return Err(bad(format!("it holds {total} moves, not {upto}")));
        }
        if total > game.spec().max_game_length {
            return Err(bad(format!(
                "it holds {total} moves, more than any game lasts ({} moves)",
                game.spec().max_game_length
            )));
        }
        let seed = record.seed.unwrap_or(0);
        let mut shadow = GameState::new(Arc::clone(&game), seed, true);
        let mut chance = Vec::with_capacity(upto);
        for (i, name) in record.moves[..upto].iter().enumerate() {
            if shadow.is_terminal() {
                return Err(bad(format!("move {i} ({name:?}) comes after the end of the game")));
            }
            let a = shadow.string_to_action(name).map_err(|e| {
                let why = match e {
                    EngineError::UnknownActionString { message, .. } => message,
                    other => other.to_string(),
                };
                bad(format!("move {i} ({name:?}) is not legal there: {why}"))
            })?;
            chance.push(shadow.is_chance());
            shadow.apply_unchecked(a);
        }
        if moves.is_some() || record.explicit_chance || record.seed.is_none() {
            return Ok(shadow);
        }
        // Chance from the seed: play the decisions and check that the seed draws the recorded outcomes.
        let wanted = shadow.history();
        let mut state = GameState::new(game, seed, false);
        for (i, (&a, &is_chance)) in wanted.iter().zip(&chance).enumerate() {
            if state.history().len() > i {
                if state.history()[i] != a {
                    return Err(bad(format!(
                        "move {i} ({:?}) is not the chance outcome that seed {seed} draws there",
                        record.moves[i]
                    )));
                }
            } else if is_chance {
                return Err(bad(format!("move {i} is a chance outcome, yet chance was drawn from the seed")));
            } else {
                state.apply_unchecked(a);
            }
        }
        if state.history().len() != wanted.len() {
            return Err(bad("it stops before chance outcomes that the seed draws"));
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::prelude::*;
    use crate::engine::toy::Race;

    fn race() -> Arc<Race> {
        Arc::new(Race::new(7))
    }

    fn played(seed: u64, explicit: bool, moves: usize) -> GameState<Race> {
        let mut s = GameState::new(race(), seed, explicit);
        let mut rng = crate::engine::rng::rng_from_seed(seed);
        while !s.is_terminal() && (s.move_number() as usize) < moves {
            let legal = s.legal_actions();
            s.apply(legal[crate::engine::rng::below(&mut rng, legal.len() as u32) as usize]).unwrap();
        }
        s
    }

    #[test]
    fn a_record_replays_to_the_identical_state_and_log() {
        for explicit in [false, true] {
            let s = played(5, explicit, 100);
            let record = Record::from_json(&s.record().unwrap().to_json()).unwrap();
            assert_eq!(record.moves.len(), s.history().len());
            let again = GameState::replay(race(), &record, None).unwrap();
            assert_eq!(again, s);
            assert_eq!(again.log(None).unwrap(), s.log(None).unwrap());
            // A prefix rests where the game was after that many moves, chance explicit.
            let three = GameState::replay(race(), &record, Some(3)).unwrap();
            assert_eq!(three.history(), &s.history()[..3]);
        }
    }

    #[test]
    fn the_log_has_a_sentence_per_move_and_names_chance() {
        let s = played(2, false, 100);
        let log = s.log(None).unwrap();
        assert_eq!(log.len(), s.history().len());
        assert!(log.iter().any(|e| e.actor == crate::engine::CHANCE && e.text.starts_with("Chance: coin")));
        // The move that ends the game closes with its result.
        let last = &log.last().unwrap().text;
        let winner = s.winners()[0];
        assert!(last.ends_with(&format!("The game is over: P0 0, P1 0; won by P{winner}.")), "{last}");
        assert!(s.log(Some(2)).is_err());
    }

    #[test]
    fn bad_records_are_typed_errors_that_say_what_is_wrong() {
        let s = played(5, false, 100);
        let good: Value = serde_json::from_str(&s.record().unwrap().to_json()).unwrap();
        let check = |edit: &dyn Fn(&mut Value), needle: &str| {
            let mut v = good.clone();
            edit(&mut v);
            let err = Record::from_json(&v.to_string()).and_then(|r| GameState::replay(race(), &r, None)).unwrap_err();
            assert!(matches!(err, EngineError::Record(_)), "{err:?}");
            assert!(err.to_string().contains(needle), "{err} lacks {needle:?}");
        };
        check(&|v| v["format"] = 99.into(), "record format version 99");
        check(&|v| v["moves"][0] = "add 7".into(), "move 0 (\"add 7\") is not legal there");
        check(&|v| v["moves"] = serde_json::json!(7), "field `moves`");
        check(&|v| v["extra"] = 1.into(), "unknown field");
        check(&|v| v["seed"] = 6.into(), "is not the chance outcome that seed 6 draws");
        check(&|v| v["game"] = "other".into(), "not \"race\"");
        check(&|v| v["moves"].as_array_mut().unwrap().push("add 1".into()), "after the end of the game");
        assert!(matches!(Record::from_json("[1,"), Err(EngineError::Record(_))));
        // Cut just before a chance outcome (the race's coin follows every move).
        check(&|v| v["moves"].as_array_mut().unwrap().truncate(1), "stops before chance outcomes that the seed draws");
    }

    #[test]
    fn a_set_up_state_has_no_record() {
        let game = race();
        let s = GameState::from_parts(Arc::clone(&game), game.initial_state(), crate::engine::rng::rng_from_seed(1), false);
        assert!(s.record().is_ok(), "the first state is the beginning");
        let mut other = s.clone();
        other.apply(0).unwrap();
        let moved = GameState::from_parts(game, other.inner().clone(), crate::engine::rng::rng_from_seed(1), false);
        assert!(moved.record().is_err());
        assert!(moved.log(None).is_err());
    }
}
