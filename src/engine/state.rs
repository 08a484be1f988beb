//! `GameState`: a game's state plus the bookkeeping every game shares — the seeded RNG that
//! resolves chance, the move history, checked play and (de)serialization.
//! The game's own `apply` is OpenSpiel's `DoApplyAction`; `GameState::apply` is `ApplyAction`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::agents::{choose, AgentScratch, AgentSpec};
use super::error::{EngineError, Result};
use super::field_errors::{self, plain_words, FieldError};
use super::game::{Action, Actor, Game};
use super::options::OptionKind;
use super::report::{ScoreRecord, ScoreReport};
use super::rng::{rng_from_seed, Rng};
use super::svg::Viewer;

pub struct GameState<G: Game> {
    game: Arc<G>,
    inner: G::State,
    rng: Rng,
    /// The seed the game was started from, while known (a game from [`GameState::new`]; not
    /// one set up, resampled or loaded): game records carry it.
    seed: Option<u64>,
    explicit_chance: bool,
    history: Vec<Action>,
    move_number: u64,
    scratch: Vec<Action>,
    /// `scratch` holds the legal actions of the current position.
    legal_valid: bool,
}

impl<G: Game> Clone for GameState<G> {
    fn clone(&self) -> Self {
        GameState {
            game: Arc::clone(&self.game),
            inner: self.inner.clone(),
            rng: self.rng.clone(),
            seed: self.seed,
            explicit_chance: self.explicit_chance,
            history: self.history.clone(),
            move_number: self.move_number,
            scratch: Vec::with_capacity(self.scratch.capacity()),
            legal_valid: false,
        }
    }
}

impl<G: Game> PartialEq for GameState<G> {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
            && self.rng == other.rng
            && self.explicit_chance == other.explicit_chance
            && self.history == other.history
            && self.move_number == other.move_number
    }
}

impl<G: Game> std::fmt::Debug for GameState<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameState")
            .field("game", &self.game.spec().name)
            .field("inner", &self.inner)
            .field("move_number", &self.move_number)
            .finish()
    }
}

/// The least and the greatest value of each entry of `game`'s observation tensor.
pub fn observation_bounds<G: Game>(game: &G) -> (Vec<f32>, Vec<f32>) {
    let layout = game.observation_layout();
    (layout.low, layout.high)
}

#[derive(Serialize, Deserialize)]
struct Saved<S> {
    format: u32,
    game: String,
    /// The game's configuration as JSON text (kept as text so the compact binary form works).
    config: String,
    explicit_chance: bool,
    rng: Rng,
    history: Vec<Action>,
    move_number: u64,
    state: S,
}

#[derive(Deserialize)]
struct SavedHeader {
    format: u32,
    game: String,
}

/// An action name without its closing note in parentheses ("place-whale:Fernwick" of
/// "place-whale:Fernwick (green, coal)"), which [`GameState::string_to_action`] reads as the
/// same move where that leaves one legal action; `None` for a name without one.
pub fn without_closing_note(name: &str) -> Option<&str> {
    let n = name.strip_suffix(')')?;
    n.rfind(" (").map(|i| name[..i].trim_end())
}

impl<G: Game> GameState<G> {
    /// A new game from `seed`. Unless `explicit_chance`, chance nodes are resolved at once
    /// from the state's RNG, so the caller only ever sees decision and terminal nodes.
    pub fn new(game: Arc<G>, seed: u64, explicit_chance: bool) -> Self {
        let inner = game.initial_state();
        let mut s = Self::unresolved(game, inner, rng_from_seed(seed), explicit_chance);
        s.seed = Some(seed);
        s.resolve_chance();
        s
    }

    /// Wraps a game state built elsewhere (a setup description, a resample).
    pub fn from_parts(game: Arc<G>, inner: G::State, rng: Rng, explicit_chance: bool) -> Self {
        let mut s = Self::unresolved(game, inner, rng, explicit_chance);
        s.resolve_chance();
        s
    }

    fn unresolved(game: Arc<G>, inner: G::State, rng: Rng, explicit_chance: bool) -> Self {
        GameState {
            game,
            inner,
            rng,
            seed: None,
            explicit_chance,
            history: Vec::new(),
            move_number: 0,
            scratch: Vec::with_capacity(64),
            legal_valid: false,
        }
    }

    /// The seed the game was started from, while known: for a game from [`GameState::new`]
    /// (and its copies and continuations), not for one set up, resampled or loaded.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    pub fn game(&self) -> &Arc<G> {
        &self.game
    }
    pub fn inner(&self) -> &G::State {
        &self.inner
    }
    pub fn explicit_chance(&self) -> bool {
        self.explicit_chance
    }
    pub fn actor(&self) -> Actor {
        self.game.actor(&self.inner)
    }
    pub fn current_player(&self) -> i32 {
        self.actor().as_i32()
    }
    pub fn is_terminal(&self) -> bool {
        self.actor() == Actor::Terminal
    }
    pub fn is_chance(&self) -> bool {
        self.actor() == Actor::Chance
    }
    pub fn is_truncated(&self) -> bool {
        self.game.is_truncated(&self.inner)
    }
    /// Whether the decision here is secret from the other seats (see
    /// [`Game::decision_is_secret`]).
    pub fn decision_is_secret(&self) -> bool {
        self.game.decision_is_secret(&self.inner)
    }
    pub fn move_number(&self) -> u64 {
        self.move_number
    }
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::new();
        self.game.legal_actions(&self.inner, &mut v);
        v
    }

    /// The legal-action mask over the player action space (all false at chance and terminal nodes).
    pub fn legal_action_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.game.spec().num_distinct_actions];
        if let Actor::Player(_) = self.actor() {
            for a in self.legal_actions() {
                mask[a as usize] = true;
            }
        }
        mask
    }

    pub fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let mut v = Vec::new();
        if self.is_chance() {
            self.game.chance_outcomes(&self.inner, &mut v);
        }
        v
    }

    /// The legal actions, computed once per position and kept until the next move.
    pub fn legal_actions_cached(&mut self) -> &[Action] {
        if !self.legal_valid {
            self.game.legal_actions(&self.inner, &mut self.scratch);
            self.legal_valid = true;
        }
        &self.scratch
    }

    fn is_legal(&mut self, action: Action) -> bool {
        self.legal_actions_cached().binary_search(&action).is_ok()
    }

    /// Checked play: an illegal action is an error and leaves the state exactly as it was.
    pub fn apply(&mut self, action: Action) -> Result<()> {
        match self.actor() {
            Actor::Terminal => {
                return Err(EngineError::IllegalAction(format!(
                    "action {action}: the game is over"
                )))
            }
            Actor::Chance if !self.is_legal(action) => {
                return Err(EngineError::IllegalAction(format!(
                    "{action} is not a chance outcome of this chance node"
                )))
            }
            Actor::Player(p) if !self.is_legal(action) => {
                let name = if (action as usize) < self.game.spec().num_distinct_actions {
                    format!(" ({})", self.game.action_to_string(&self.inner, action))
                } else {
                    String::new()
                };
                return Err(EngineError::IllegalAction(format!(
                    "action {action}{name} is not legal for player {p} now"
                )));
            }
            _ => {}
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Unchecked play for callers that took the action from `legal_actions`.
    pub fn apply_unchecked(&mut self, action: Action) {
        self.legal_valid = false;
        self.game.apply(&mut self.inner, action);
        self.history.push(action);
        self.move_number += 1;
        self.resolve_chance();
    }

    fn resolve_chance(&mut self) {
        if self.explicit_chance {
            return;
        }
        while self.game.actor(&self.inner) == Actor::Chance {
            let a = self.game.sample_chance(&self.inner, &mut self.rng);
            self.game.apply(&mut self.inner, a);
            self.history.push(a);
            self.move_number += 1;
        }
    }

    pub fn action_to_string(&self, action: Action) -> String {
        self.game.action_to_string(&self.inner, action)
    }

    /// The move as seat `observer` sees it: hidden from it when it is another seat's secret.
    pub fn action_string_for(&self, action: Action, observer: usize) -> Result<String> {
        self.check_player(observer)?;
        Ok(self.game.action_string_for(&self.inner, action, observer))
    }

    /// The legal action whose string is `text` (exact match, or ignoring case and surrounding spaces).
    pub fn string_to_action(&self, text: &str) -> Result<Action> {
        let legal = self.legal_actions();
        let wanted = text.trim();
        for &a in &legal {
            if self.game.action_to_string(&self.inner, a) == wanted {
                return Ok(a);
            }
        }
        for &a in &legal {
            if self.game.action_to_string(&self.inner, a).eq_ignore_ascii_case(wanted) {
                return Ok(a);
            }
        }
        // A name's closing note in parentheses may be left out ("place-whale:Fernwick" for
        // "place-whale:Fernwick (green, coal)"), where that leaves one legal action.
        let mut bare = legal.iter().filter(|&&a| {
            let name = self.game.action_to_string(&self.inner, a);
            without_closing_note(&name).is_some_and(|n| n.eq_ignore_ascii_case(wanted))
        });
        if let (Some(&a), None) = (bare.next(), bare.next()) {
            return Ok(a);
        }
        let names: Vec<String> =
            legal.iter().take(40).map(|&a| self.game.action_to_string(&self.inner, a)).collect();
        Err(EngineError::UnknownActionString {
            text: text.to_string(),
            message: if names.is_empty() {
                "no action is legal here".into()
            } else {
                format!("legal here: {}", names.join(", "))
            },
        })
    }

    pub fn scores(&self) -> Vec<f64> {
        let mut v = vec![0.0; self.game.spec().players];
        self.game.scores(&self.inner, &mut v);
        v
    }
    pub fn returns(&self) -> Vec<f64> {
        let mut v = vec![0.0; self.game.spec().players];
        self.game.returns(&self.inner, &mut v);
        v
    }
    pub fn winners(&self) -> Vec<usize> {
        self.game.winners(&self.inner)
    }
    pub fn score_report(&self) -> ScoreReport {
        self.game.score_report(&self.inner)
    }
    pub fn score_record(&self) -> ScoreRecord {
        let mut record = ScoreRecord::default();
        self.game.score_record(&self.inner, &mut record);
        record
    }

    fn check_player(&self, player: usize) -> Result<()> {
        let n = self.game.spec().players;
        if player >= n {
            return Err(EngineError::InvalidRequest(format!(
                "player {player} is out of range: this game has players 0..{}",
                n - 1
            )));
        }
        Ok(())
    }

    pub fn observation_string(&self, player: usize) -> Result<String> {
        self.check_player(player)?;
        Ok(self.game.text(&self.inner, Viewer::Seat(player)))
    }

    pub fn observation_tensor(&self, player: usize) -> Result<Vec<f32>> {
        self.check_player(player)?;
        let len: usize = self.game.spec().observation_tensor_shape.iter().product();
        let mut v = vec![0.0; len];
        self.game.observation_tensor(&self.inner, player, &mut v);
        Ok(v)
    }

    /// The least and the greatest value of each entry of the observation tensor (see
    /// [`crate::engine::View::observation`]).
    pub fn observation_bounds(&self) -> (Vec<f32>, Vec<f32>) {
        observation_bounds(&*self.game)
    }

    /// A state consistent with what `player` has seen, its hidden parts drawn afresh from `seed`.
    /// The resampled state has its own RNG (from `seed`) and an empty history: the true history
    /// would reveal what `player` may not know. Its move number is kept.
    pub fn resample(&self, player: usize, seed: u64) -> Result<Self> {
        self.check_player(player)?;
        let mut rng = rng_from_seed(seed);
        let inner = self.game.resample(&self.inner, player, &mut rng);
        let mut s = GameState {
            game: Arc::clone(&self.game),
            inner,
            rng,
            seed: None,
            explicit_chance: self.explicit_chance,
            history: Vec::new(),
            move_number: self.move_number,
            scratch: Vec::with_capacity(64),
            legal_valid: false,
        };
        s.resolve_chance();
        Ok(s)
    }

    /// The action a built-in agent picks for the player to move; its randomness comes from
    /// `seed` (the state's own RNG is not touched).
    pub fn agent_action(&self, agent: &AgentSpec, seed: u64) -> Result<Action> {
        match self.actor() {
            Actor::Player(p) => Ok(choose(agent, &*self.game, &self.inner, p, &mut rng_from_seed(seed),
                &mut AgentScratch::default())),
            Actor::Chance => Err(EngineError::InvalidRequest("no agent acts at a chance node".into())),
            Actor::Terminal => Err(EngineError::InvalidRequest("the game is over".into())),
        }
    }

    /// The whole table, hidden cards included (see [`crate::engine::View::text`]).
    pub fn render(&self) -> String {
        self.game.text(&self.inner, Viewer::All)
    }

    /// The table as every player at it sees it: the public information only.
    pub fn public_string(&self) -> String {
        self.game.text(&self.inner, Viewer::Table)
    }

    /// The table as an SVG picture for `viewer` (see [`crate::engine::Draw`]); a seat out of
    /// range is refused.
    pub fn svg(&self, viewer: Viewer) -> Result<String> {
        if let Viewer::Seat(p) = viewer {
            self.check_player(p)?;
        }
        Ok(self.game.svg(&self.inner, viewer))
    }

    /// The game's named views and what each shows (see [`crate::engine::View::views`]).
    pub fn views(&self) -> &'static [(&'static str, &'static str)] {
        self.game.views()
    }

    /// View `name` as seat `observer` (or, with `None`, a spectator) may see it.
    pub fn view(&self, name: &str, observer: Option<usize>) -> Result<String> {
        if let Some(p) = observer {
            self.check_player(p)?;
        }
        self.game.view(&self.inner, name, observer).ok_or_else(|| {
            let names: Vec<&str> = self.views().iter().map(|&(n, _)| n).collect();
            EngineError::InvalidRequest(if names.is_empty() {
                format!("{} has no view named {name:?}: it has no views", self.game.spec().name)
            } else {
                format!("{} has no view named {name:?}; its views: {}", self.game.spec().name, names.join(", "))
            })
        })
    }

    /// A 64-bit fingerprint of the position, for transposition tables: equal for states of
    /// the same game whose game state is equal (the board, hands, decks in their order, whose
    /// turn it is, the turn counter: everything the rules look at), however they were reached.
    /// The history, the move number and the generator that resolves implicit chance are not
    /// part of it, nor are the game's options beyond what the state holds (keep one game's
    /// states in a table). It is the same in every process and on every platform, for a given
    /// [`Game::STATE_FORMAT`].
    pub fn fingerprint(&self) -> u64 {
        let bytes = postcard::to_stdvec(&self.inner).expect("a state always serializes");
        stable_hash(&[self.game.spec().name.as_bytes(), &G::STATE_FORMAT.to_le_bytes(), &bytes])
    }

    fn saved(&self) -> Saved<&G::State> {
        Saved {
            format: G::STATE_FORMAT,
            game: self.game.spec().name.to_string(),
            config: self.game.config().to_string(),
            explicit_chance: self.explicit_chance,
            rng: self.rng.clone(),
            history: self.history.clone(),
            move_number: self.move_number,
            state: &self.inner,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.saved()).expect("a state always serializes")
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = b"TWS".to_vec();
        out.extend_from_slice(&G::STATE_FORMAT.to_le_bytes());
        out.extend(postcard::to_stdvec(&self.saved()).expect("a state always serializes"));
        out
    }

    /// A saved state's header fits `ours`: the same game, saved in its current format version.
    fn check_header(ours: &G, format: u32, game: &str) -> Result<()> {
        if game != ours.spec().name {
            return Err(EngineError::StateFormat(format!(
                "it is a state of game {game:?}, not {:?}",
                ours.spec().name
            )));
        }
        if format != G::STATE_FORMAT {
            return Err(EngineError::StateFormat(format!(
                "it was saved in {game} state format version {format}, and this build of tradewinds reads \
                 version {}; load it with a tradewinds release that reads version {format}",
                G::STATE_FORMAT
            )));
        }
        Ok(())
    }

    fn from_saved(game: &Arc<G>, mut saved: Saved<G::State>) -> Result<Self> {
        // xoshiro's one forbidden state: from all zeros it draws zeros for ever, and a chance
        // draw that rejects a zero draw would never end.
        if serde_json::to_value(&saved.rng).ok() == Some(serde_json::json!({"s": [0, 0, 0, 0]})) {
            return Err(EngineError::StateFormat(
                "field `rng.s`: the random-number state is all zeros, which the generator can never leave".into(),
            ));
        }
        let ours = game.config();
        let mut theirs: serde_json::Value = serde_json::from_str(&saved.config)
            .map_err(|e| EngineError::StateFormat(format!("its game configuration is corrupt: {}", plain_words(&e.to_string()))))?;
        // An option the game took up after the state was saved has its default there.
        if let Some(m) = theirs.as_object_mut() {
            for d in game.spec().options.iter().filter(|d| d.kind != OptionKind::Data) {
                m.entry(d.name).or_insert_with(|| d.default_value());
            }
        }
        if theirs != ours {
            return Err(EngineError::StateFormat(format!(
                "it belongs to a game with other options ({}) than this one",
                describe_config_difference(&theirs, &ours)
            )));
        }
        game.validate_state(&saved.state)
            .map_err(|e| {
                let why = match e {
                    EngineError::StateFormat(why) => why,
                    other => other.to_string(),
                };
                EngineError::StateFormat(format!("the state is inconsistent: {why}"))
            })?;
        game.restore(&mut saved.state);
        if saved.move_number < saved.history.len() as u64 {
            return Err(EngineError::StateFormat(
                "its move number is smaller than its history".into(),
            ));
        }
        if saved.move_number > game.spec().max_game_length as u64 {
            return Err(EngineError::StateFormat(format!(
                "its move number {} is past the game's bound of {} moves",
                saved.move_number,
                game.spec().max_game_length
            )));
        }
        if !saved.explicit_chance && game.actor(&saved.state) == Actor::Chance {
            return Err(EngineError::StateFormat(
                "it resolves chance automatically yet rests at a chance node".into(),
            ));
        }
        Ok(GameState {
            game: Arc::clone(game),
            inner: saved.state,
            rng: saved.rng,
            seed: None,
            explicit_chance: saved.explicit_chance,
            history: saved.history,
            move_number: saved.move_number,
            scratch: Vec::with_capacity(64),
            legal_valid: false,
        })
    }

    /// Loads a state saved with [`GameState::to_json`] by this game; never panics.
    pub fn from_json(game: &Arc<G>, text: &str) -> Result<Self> {
        let saved: Saved<G::State> = match field_errors::from_json_str(text) {
            Ok(saved) => saved,
            Err(e) => {
                // The header is checked first: a text that is not a saved state, or is another
                // game's or another format's, is named as such rather than as corrupt.
                let header: SavedHeader = field_errors::from_json_str(text)
                    .map_err(|e| EngineError::StateFormat(format!("not a saved tradewinds state: {}", field_message(e))))?;
                Self::check_header(game, header.format, &header.game)?;
                return Err(EngineError::StateFormat(format!("corrupt saved state: {}", field_message(e))));
            }
        };
        Self::check_header(game, saved.format, &saved.game)?;
        // Keys the state does not have are refused, as in data files and setup descriptions:
        // the text read and the state written back have the same keys.
        let given: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| EngineError::StateFormat(format!("corrupt saved state: {}", plain_words(&e.to_string()))))?;
        let known = serde_json::to_value(&saved).expect("a state always serializes");
        if let Some(field) = unknown_key(&given, &known) {
            return Err(EngineError::StateFormat(format!(
                "corrupt saved state: field `{field}`: unknown field; a saved {} state has no such field",
                game.spec().name
            )));
        }
        Self::from_saved(game, saved)
    }

    /// Loads a state saved with [`GameState::to_bytes`] by this game; never panics.
    pub fn from_bytes(game: &Arc<G>, bytes: &[u8]) -> Result<Self> {
        if bytes.len() < 7 || &bytes[..3] != b"TWS" {
            return Err(EngineError::StateFormat("not a saved tradewinds state (bad magic)".into()));
        }
        let format = u32::from_le_bytes([bytes[3], bytes[4], bytes[5], bytes[6]]);
        // The saved game's name leads the body in every format version: check it before the
        // version, so another game's state is named as such.
        let named = postcard::take_from_bytes::<SavedHeader>(&bytes[7..]).ok().map(|(h, _)| h.game);
        Self::check_header(game, format, named.as_deref().unwrap_or(game.spec().name))?;
        let saved: Saved<G::State> =
            serde_path_to_error::deserialize(&mut postcard::Deserializer::from_bytes(&bytes[7..]))
                .map_err(|e| EngineError::StateFormat(format!("corrupt saved state: {}", binary_message::<G::State>(e))))?;
        Self::check_header(game, saved.format, &saved.game)?;
        Self::from_saved(game, saved)
    }
}

/// FNV-1a over the parts (each followed by its length, so that parts cannot run into each
/// other), then the SplitMix64 finaliser to spread the bits: fixed by this code, never by the
/// platform or the Rust release (unlike `std`'s hashers).
fn stable_hash(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |byte: u8| {
        h ^= byte as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for part in parts {
        part.iter().for_each(|&b| eat(b));
        (part.len() as u64).to_le_bytes().iter().for_each(|&b| eat(b));
    }
    let mut z = h;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A saved state's field error as `field `state.ships[0].gold`: ...` (or the message alone
/// when it is about the whole text).
fn field_message(e: FieldError) -> String {
    if e.field.is_empty() {
        e.message
    } else {
        format!("field `{}`: {}", e.field, e.message)
    }
}

/// The path of the first key of `given` (a saved state as read) that `known` (the same state
/// written back) lacks, as `state.ships[0].cargo`. The path is written only once such a key is
/// found: a state that loads costs one walk over its keys.
fn unknown_key(given: &serde_json::Value, known: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match (given, known) {
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| match b.get(k) {
            None => Some(k.clone()),
            Some(w) => unknown_key(v, w).map(|rest| path_of(k, &rest)),
        }),
        (Value::Array(a), Value::Array(b)) => {
            a.iter().zip(b).enumerate().find_map(|(i, (v, w))| unknown_key(v, w).map(|rest| path_of(&format!("[{i}]"), &rest)))
        }
        _ => None,
    }
}

/// `head` followed by the path `rest` below it: `ships` and `[0].cargo` give `ships[0].cargo`,
/// `state` and `ships` give `state.ships`.
fn path_of(head: &str, rest: &str) -> String {
    if rest.starts_with('[') {
        format!("{head}{rest}")
    } else {
        format!("{head}.{rest}")
    }
}

/// A binary saved state's decoding error in our words: the field it stopped at (a field of
/// the saved state, and of the game state within it) and what was wrong with its bytes.
fn binary_message<S: serde::de::DeserializeOwned>(e: serde_path_to_error::Error<postcard::Error>) -> String {
    use serde_path_to_error::Segment;
    const SAVED: [&str; 8] = ["format", "game", "config", "explicit_chance", "rng", "history", "move_number", "state"];
    let mut segments = e.path().iter();
    let mut field = match segments.next() {
        Some(Segment::Seq { index }) if *index < SAVED.len() => SAVED[*index].to_string(),
        _ => String::new(),
    };
    if field == "state" {
        if let (Some(Segment::Seq { index }), Some(names)) = (segments.next(), field_errors::struct_fields::<S>()) {
            if let Some(name) = names.get(*index) {
                field = format!("state.{name}");
            }
        }
    }
    use postcard::Error as P;
    let what = match e.into_inner() {
        P::DeserializeUnexpectedEnd => "the saved bytes end before it does (cut short)",
        P::DeserializeBadVarint => "a number in it is corrupt (its encoding runs on past any number's length)",
        P::DeserializeBadBool => "a yes/no value in it is neither",
        P::DeserializeBadChar | P::DeserializeBadUtf8 => "a text in it is not valid UTF-8",
        P::DeserializeBadOption => "an optional value in it is corrupt",
        P::DeserializeBadEnum => "a choice in it names none of its possible values",
        P::SerdeDeCustom => "a value in it is out of range or corrupt",
        _ => "its bytes are corrupt",
    };
    if field.is_empty() {
        format!("the saved bytes are corrupt: {what}")
    } else {
        format!("field `{field}`: {what}")
    }
}

fn describe_config_difference(theirs: &serde_json::Value, ours: &serde_json::Value) -> String {
    if let (Some(a), Some(b)) = (theirs.as_object(), ours.as_object()) {
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort();
        keys.dedup();
        let diff: Vec<String> = keys
            .into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .map(|k| match (a.get(k), b.get(k)) {
                (Some(x), Some(y)) if !x.is_object() && !y.is_object() => {
                    format!("{k}: saved {x}, this game {y}")
                }
                _ => format!("{k} differs"),
            })
            .collect();
        return diff.join("; ");
    }
    "configuration differs".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::toy::{Race, RaceState};

    fn race() -> Arc<Race> {
        Arc::new(Race::new(6))
    }

    #[test]
    fn equal_states_have_equal_fingerprints_and_the_history_is_not_part_of_it() {
        let game = race();
        let mut a = GameState::new(Arc::clone(&game), 3, false);
        a.apply(0).unwrap();
        let b = a.clone();
        assert_eq!(a, b);
        assert_eq!(a.fingerprint(), b.fingerprint());
        let loaded = GameState::from_json(&game, &a.to_json()).unwrap();
        assert_eq!(loaded.fingerprint(), a.fingerprint());
        // The same position with another history (here none) and another generator.
        let mut saved: serde_json::Value = serde_json::from_str(&a.to_json()).unwrap();
        saved["history"] = serde_json::json!([]);
        let other = GameState::from_json(&game, &saved.to_string()).unwrap();
        let mut other = GameState::from_parts(Arc::clone(&game), other.inner().clone(), rng_from_seed(99), false);
        assert_ne!(other, a);
        assert_eq!(other.fingerprint(), a.fingerprint());
        // Another position has another fingerprint.
        let before = other.fingerprint();
        other.apply(other.legal_actions()[0]).unwrap();
        assert_ne!(other.fingerprint(), before);
    }

    #[test]
    fn fingerprints_do_not_depend_on_the_process_or_the_platform() {
        // Pinned: a change here changes every fingerprint users may have stored.
        let fresh = GameState::new(race(), 0, true);
        assert_eq!(fresh.fingerprint(), 0x904a_4c93_0143_dabc, "{:#x}", fresh.fingerprint());
    }

    #[test]
    fn an_all_zero_random_number_state_is_refused_from_json_and_bytes() {
        let game = race();
        let state = GameState::new(Arc::clone(&game), 1, false);
        let mut saved: serde_json::Value = serde_json::from_str(&state.to_json()).unwrap();
        saved["rng"] = serde_json::json!({"s": [0, 0, 0, 0]});
        let message = GameState::from_json(&game, &saved.to_string()).unwrap_err().to_string();
        assert!(message.contains("field `rng.s`") && message.contains("all zeros"), "{message}");
        let zero: Saved<RaceState> = serde_json::from_value(saved).unwrap();
        let mut bytes = b"TWS".to_vec();
        bytes.extend_from_slice(&<Race as crate::engine::game::Rules>::STATE_FORMAT.to_le_bytes());
        bytes.extend(postcard::to_stdvec(&zero).unwrap());
        let message = GameState::from_bytes(&game, &bytes).unwrap_err().to_string();
        assert!(message.contains("field `rng.s`") && message.contains("all zeros"), "{message}");
    }

    #[test]
    fn unknown_keys_of_a_saved_state_are_refused_by_name() {
        let game = race();
        let state = GameState::new(Arc::clone(&game), 1, false);
        let clean: serde_json::Value = serde_json::from_str(&state.to_json()).unwrap();
        let mut top = clean.clone();
        top["comment"] = serde_json::json!("hello");
        let message = GameState::from_json(&game, &top.to_string()).unwrap_err().to_string();
        assert!(message.contains("field `comment`: unknown field"), "{message}");
        let mut inner = clean.clone();
        inner["state"]["extra"] = serde_json::json!(1);
        let message = GameState::from_json(&game, &inner.to_string()).unwrap_err().to_string();
        assert!(message.contains("field `state.extra`: unknown field"), "{message}");
        assert!(GameState::from_json(&game, &clean.to_string()).is_ok());
    }

    #[test]
    fn an_unknown_key_is_named_by_its_whole_path() {
        use serde_json::json;
        let known = json!({"a": [{"x": 1}, {"x": 1}], "b": {"c": [[1], [{}]]}});
        assert_eq!(unknown_key(&known, &known), None);
        let given = json!({"a": [{"x": 1}, {"x": 1, "y": 2}], "b": {"c": [[1], [{}]]}});
        assert_eq!(unknown_key(&given, &known).as_deref(), Some("a[1].y"));
        let given = json!({"a": [{"x": 1}, {"x": 1}], "b": {"c": [[1], [{"z": 0}]]}});
        assert_eq!(unknown_key(&given, &known).as_deref(), Some("b.c[1][0].z"));
        let given = json!({"a": [], "b": {}, "d": 1});
        assert_eq!(unknown_key(&given, &known).as_deref(), Some("d"));
    }

    #[test]
    fn corrupt_binary_states_are_told_in_our_words_naming_the_field() {
        let game = race();
        let mut state = GameState::new(Arc::clone(&game), 1, false);
        state.apply(0).unwrap();
        let bytes = state.to_bytes();
        let cut = GameState::from_bytes(&game, &bytes[..bytes.len() - 1]).unwrap_err().to_string();
        assert!(cut.contains("cut short") && cut.contains("field `state"), "{cut}");
        // A run of bytes with the continuation bit set where the game's name's length is.
        let mut varint = bytes[..8].to_vec();
        varint.extend([0xff; 12]);
        let bad = GameState::from_bytes(&game, &varint).unwrap_err().to_string();
        assert!(bad.contains("a number in it is corrupt"), "{bad}");
        for message in [cut, bad] {
            for raw in ["Serde", "varint", "usize", "Hit the end"] {
                assert!(!message.contains(raw), "{message}");
            }
        }
    }

    #[test]
    fn saved_state_errors_name_the_field_in_plain_words() {
        let game = race();
        let state = GameState::new(Arc::clone(&game), 1, false);
        let mut saved: serde_json::Value = serde_json::from_str(&state.to_json()).unwrap();
        saved["state"]["count"] = serde_json::json!(-5);
        let message = GameState::from_json(&game, &saved.to_string()).unwrap_err().to_string();
        assert!(message.contains("field `state.count`"), "{message}");
        assert!(message.contains("expected a whole number (0 or more, below 2^32)"), "{message}");
        assert!(!message.contains("u32") && !message.contains("at line"), "{message}");
        saved["state"]["count"] = serde_json::json!(1);
        saved["history"] = serde_json::json!({"a": 1});
        let message = GameState::from_json(&game, &saved.to_string()).unwrap_err().to_string();
        assert!(message.contains("field `history`: invalid type: an object, expected a list"), "{message}");
    }
}
