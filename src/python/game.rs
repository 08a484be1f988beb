//! `Game`: a configured game (player count, options, component data). Immutable.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyTuple};

use super::convert::{json_to_py, py_to_json, Int, Seed};
use super::errors::{engine, guard, internal_error, panic_message, quietly, retyped, OptionError, SetupError, TradewindsError};
use super::state::State;
use crate::engine::{DynGame, DynState, Progress};

/// What `Game.observation_bounds` returns: the least and the greatest values.
type Bounds<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>);

/// A configured game: build one with `tradewinds.load(name, **options)`.
#[pyclass(frozen, module = "tradewinds", name = "Game")]
pub struct Game {
    pub(crate) inner: Arc<dyn DynGame>,
    /// The configuration as canonical JSON text (what `config_json()` returns).
    pub(crate) config: String,
}

impl Game {
    /// Wraps a game; its configuration is computed once, here (the game's code runs, so guarded).
    pub(crate) fn wrap(inner: Arc<dyn DynGame>) -> PyResult<Self> {
        let config = guard(|| Ok(inner.config().to_string()))?;
        Ok(Game { inner, config })
    }

    /// The configuration as a JSON value (parsed from the stored text: no game code runs).
    fn config_value(&self) -> PyResult<serde_json::Value> {
        serde_json::from_str(&self.config)
            .map_err(|e| super::errors::internal_error(&format!("game configuration is not JSON: {e}")))
    }

    fn state(&self, inner: Box<dyn DynState>) -> State {
        State::wrap(Arc::clone(&self.inner), inner)
    }
}

/// `game_fields!`'s callback for Python: one `#[pymethods]` block with the hand-written
/// methods given first and then, for each listed field of the game's spec, a property of the
/// same name and doc that returns it (a field read: no game code runs, so nothing to guard).
macro_rules! py_game {
    (
        { $($hand:tt)* }
        fields { $( $(#[doc = $doc:literal])* $field:ident: $ty:ty => $py:literal; )* }
    ) => {
        #[pymethods]
        impl Game {
            $($hand)*
            $(
                $(#[doc = $doc])*
                #[getter]
                #[allow(clippy::clone_on_copy)]
                fn $field(&self) -> $ty {
                    self.inner.spec().$field.clone()
                }
            )*
        }
    };
}

crate::engine::dynamic::game_fields! {
    py_game
    // `Game`'s hand-written members (docs/engine-contract.md, section 12, says why each is).
    {
        /// How to play, on one page, for someone without the rulebook.
        #[getter]
        fn how_to_play(&self) -> PyResult<&'static str> {
            engine(crate::games::how_to_play(self.inner.spec().name))
        }

        /// A glossary of the action names and of the notation in the text renderings.
        #[getter]
        fn notation(&self) -> PyResult<&'static str> {
            engine(crate::games::notation(self.inner.spec().name))
        }

        /// The game's full title ("North Wind").
        #[getter]
        fn title(&self) -> PyResult<&'static str> {
            engine(crate::games::title(self.inner.spec().name))
        }
        /// The version of this game's saved-state format.
        #[getter]
        fn state_format(&self) -> u32 {
            self.inner.state_format()
        }
        /// The options the game was built from (its configuration without the game name).
        #[getter]
        fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let mut config = self.config_value()?;
            if let Some(obj) = config.as_object_mut() {
                obj.remove("game");
            }
            json_to_py(py, &config)
        }
        #[getter]
        fn observation_tensor_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, self.inner.spec().observation_tensor_shape.iter().copied())
        }

        /// The least and the greatest value each entry of the observation tensor can take, as two
        /// flat float32 arrays: finite bounds that hold in every position, for every observer.
        fn observation_bounds<'py>(&self, py: Python<'py>) -> PyResult<Bounds<'py>> {
            let (low, high) = guard(|| Ok(self.inner.observation_bounds()))?;
            Ok((PyArray1::from_vec(py, low), PyArray1::from_vec(py, high)))
        }

        /// The observation tensor's fields in order, as `(name, start, size)`: the values
        /// `tensor[start:start + size]` are field `name`, described in the game's page of the docs.
        fn observation_fields(&self) -> PyResult<Vec<(&'static str, usize, usize)>> {
            guard(|| Ok(self.inner.observation_layout().fields.iter().map(|f| (f.name, f.start, f.size)).collect()))
        }

        /// A new game from `seed`. Unless `explicit_chance`, chance is resolved from the
        /// state's own seeded generator, so the state is never a chance node.
        #[pyo3(signature = (seed = Seed(0), explicit_chance = false), text_signature = "(self, seed=0, explicit_chance=False)")]
        fn new_state(&self, seed: Seed, explicit_chance: bool) -> PyResult<State> {
            guard(|| Ok(self.state(self.inner.new_state(seed.0, explicit_chance))))
        }

        /// A position built from a game-specific description (a JSON-able dict); each game's
        /// format is in the project's docs/setup.md. `SetupError` names a field that is wrong.
        #[pyo3(signature = (description, seed = Seed(0), explicit_chance = false), text_signature = "(self, description, seed=0, explicit_chance=False)")]
        fn setup(&self, description: &Bound<'_, PyAny>, seed: Seed, explicit_chance: bool) -> PyResult<State> {
            let description = py_to_json(description, "description").map_err(|e| retyped::<SetupError>(description.py(), e))?;
            guard(|| Ok(self.state(engine(self.inner.setup(&description, seed.0, explicit_chance))?)))
        }

        /// Loads a state saved with `State.to_json()`.
        fn state_from_json(&self, text: &str) -> PyResult<State> {
            guard(|| Ok(self.state(engine(self.inner.state_from_json(text))?)))
        }

        /// Loads a state saved with `State.to_bytes()`.
        fn state_from_bytes(&self, data: &[u8]) -> PyResult<State> {
            guard(|| Ok(self.state(engine(self.inner.state_from_bytes(data))?)))
        }

        /// The configuration as JSON text: `{"game": name, ...options}`.
        fn config_json(&self) -> String {
            self.config.clone()
        }

        /// Game `index` of the bulk run `simulate(..., seed=seed, agents=agents)` played again,
        /// move for move, as a state with its history: its `record()` and `log()` tell that game.
        /// Nothing is kept during the run; choose the games afterwards from its results.
        #[pyo3(signature = (index, seed = Seed(0), agents = None), text_signature = "(self, index, seed=0, agents=None)")]
        fn replay_game(&self, py: Python<'_>, index: Seed, seed: Seed, agents: Option<Vec<String>>) -> PyResult<State> {
            let specs: Vec<crate::engine::AgentSpec> = match &agents {
                None => Vec::new(),
                Some(list) => list.iter().map(|a| engine(a.parse())).collect::<PyResult<_>>()?,
            };
            let inner = Arc::clone(&self.inner);
            let state = super::errors::detached(py, || inner.replay_game(&specs, seed.0, index.0))?;
            Ok(self.state(state))
        }

        /// Plays games `first .. first + games` on `threads` threads (0 = all cores), without
        /// the GIL; seat p is played by built-in agent `agents[p]` (all random when None). Game
        /// `i` depends only on `seed` and `i`, never on threads or on how a run is split.
        /// `progress(n)` is called on the calling thread with the number of games finished since
        /// its last call (at most every 50 ms); returning False stops the run (KeyboardInterrupt).
        /// Ctrl-C stops it too.
        /// With `metrics`, each game's design metrics are measured too (the arrays `turns`,
        /// `lead_changes`, `lead_from`, `drama`, `legal_moves` and `branching`; without, they
        /// hold -1, or 0 for the last two), from the game's evaluation at every
        /// `metrics_every`-th decision; the games are the same either way.
        #[pyo3(signature = (games, seed = Seed(0), threads = Int(0), progress = None, agents = None, first = Seed(0), metrics = false, metrics_every = Int(crate::engine::metrics::EVALUATE_EVERY as i128)), text_signature = "(self, games, seed=0, threads=0, progress=None, agents=None, first=0, metrics=False, metrics_every=64)")]
        #[allow(clippy::too_many_arguments)]
        fn simulate<'py>(
            &self,
            py: Python<'py>,
            games: Int,
            seed: Seed,
            threads: Int,
            progress: Option<Bound<'py, PyAny>>,
            agents: Option<Vec<String>>,
            first: Seed,
            metrics: bool,
            metrics_every: Int,
        ) -> PyResult<Bound<'py, PyDict>> {
            let every = metrics_every.count("metrics_every", "", 1, u32::MAX as u64)? as u64;
            let games = games.count("games", "", 0, u32::MAX as u64)?;
            let threads = threads.count("threads", " (0 = all cores)", 0, 4096)?;
            let specs: Vec<crate::engine::AgentSpec> = match &agents {
                None => Vec::new(),
                Some(list) => list.iter().map(|a| engine(a.parse())).collect::<PyResult<_>>()?,
            };
            let callback = progress.filter(|p| !p.is_none());
            let inner = Arc::clone(&self.inner);
            let outcome = watched(py, callback.as_ref(), |report| {
                inner.simulate_measured(&specs, first.0, games, seed.0, threads, metrics.then_some(every), Some(report))
            })?;
            let result = engine(outcome)?;
            guard(|| {
                let players = result.players;
                let categories = result.categories.len();
                let d = PyDict::new(py);
                d.set_item("game", &result.game)?;
                d.set_item("games", result.games)?;
                d.set_item("players", players)?;
                d.set_item("seed", result.seed)?;
                d.set_item("threads", result.threads)?;
                d.set_item("first", result.first)?;
                d.set_item("agents", result.agents.clone())?;
                d.set_item("elapsed_seconds", result.elapsed_seconds)?;
                d.set_item("categories", result.categories.clone())?;
                d.set_item("opponents", result.opponents.clone())?;
                d.set_item("tiers", result.tiers.clone())?;
                let g = result.games;
                let opponents = result.opponents.len();
                d.set_item("scores", PyArray1::from_vec(py, result.scores).reshape([g, players])?)?;
                d.set_item("winners", PyArray1::from_vec(py, result.winners).reshape([g, players])?)?;
                d.set_item("moves", PyArray1::from_vec(py, result.moves))?;
                d.set_item("decisions", PyArray1::from_vec(py, result.decisions))?;
                d.set_item("truncated", PyArray1::from_vec(py, result.truncated))?;
                d.set_item(
                    "category_points",
                    PyArray1::from_vec(py, result.category_points).reshape([g, players, categories])?,
                )?;
                d.set_item("opponent_scores", PyArray1::from_vec(py, result.opponent_scores).reshape([g, opponents])?)?;
                d.set_item("opponent_wins", PyArray1::from_vec(py, result.opponent_wins).reshape([g, opponents])?)?;
                d.set_item("tier", PyArray1::from_vec(py, result.tier))?;
                d.set_item("metrics", result.metrics)?;
                d.set_item("turns", PyArray1::from_vec(py, result.turns))?;
                d.set_item("lead_changes", PyArray1::from_vec(py, result.lead_changes))?;
                d.set_item("lead_from", PyArray1::from_vec(py, result.lead_from))?;
                d.set_item("drama", PyArray1::from_vec(py, result.drama))?;
                d.set_item("legal_moves", PyArray1::from_vec(py, result.legal_moves))?;
                d.set_item(
                    "branching",
                    PyArray1::from_vec(py, result.branching).reshape([g, crate::engine::metrics::BRANCHING_BINS])?,
                )?;
                Ok(d)
            })
        }

        /// Pickles as `_load_config(config_json)`.
        fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
            let f = py.import("tradewinds._core")?.getattr("_load_config")?;
            Ok((f, (self.config.clone(),)))
        }

        fn __eq__(&self, other: &Self) -> bool {
            self.config == other.config
        }

        fn __hash__(&self) -> u64 {
            let mut h = DefaultHasher::new();
            self.config.hash(&mut h);
            h.finish()
        }

        fn __repr__(&self) -> PyResult<String> {
            let mut parts = vec![self.inner.spec().name.to_string()];
            if let Some(obj) = self.config_value()?.as_object() {
                for (k, v) in obj {
                    if k == "game" {
                        continue;
                    }
                    let shown = if v.is_object() || v.is_array() {
                        "{...}".to_string()
                    } else {
                        v.to_string()
                    };
                    parts.push(format!("{k}={shown}"));
                }
            }
            Ok(format!("<tradewinds.Game {}>", parts.join(" ")))
        }
    }
}

/// Builds a `Game` from JSON-able options.
pub(crate) fn load_game(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let map = match options {
        Some(d) => super::convert::py_dict_to_map(d, "options").map_err(|e| retyped::<OptionError>(d.py(), e))?,
        None => serde_json::Map::new(),
    };
    Game::wrap(guard(|| engine(crate::games::load(name, &map)))?)
}

/// Builds a `Game` from `config_json()` text.
pub(crate) fn load_config(config_json: &str) -> PyResult<Game> {
    let value: serde_json::Value = serde_json::from_str(config_json).map_err(|e| {
        OptionError::new_err(format!("not a tradewinds game configuration: {e}"))
    })?;
    Game::wrap(guard(|| engine(crate::games::load_json(&value)))?)
}

/// `bytes` from a Rust byte vector.
pub(crate) fn bytes<'py>(py: Python<'py>, data: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, data)
}

/// How often the thread that called a long run wakes to look for Ctrl-C and report progress.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a helper thread while the calling thread waits without the GIL, waking every
/// `POLL` to run Python's signal handlers (which run only on the main thread, so a run started
/// there stops at Ctrl-C) and to pass `callback` the games finished since its last call. The
/// first exception (from a signal handler or the callback), or the callback returning False,
/// stops the work (`work`'s progress function then returns false) and is raised once it ended.
fn watched<T: Send>(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Progress<'_>) -> T + Send,
) -> PyResult<T> {
    let finished = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let report = |n: usize| -> bool {
        finished.fetch_add(n, Ordering::AcqRel);
        !stop.load(Ordering::Acquire)
    };
    let caller = std::thread::current();
    let mut failure: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        let helper = std::thread::Builder::new()
            .name("tradewinds-simulate".into())
            .spawn_scoped(scope, || {
                let r = quietly(|| work(&report));
                done.store(true, Ordering::Release);
                caller.unpark();
                r
            })
            .map_err(|e| TradewindsError::new_err(format!("cannot start the simulation's thread: {e}")))?;
        loop {
            py.detach(|| {
                if !done.load(Ordering::Acquire) {
                    std::thread::park_timeout(POLL);
                }
            });
            let over = done.load(Ordering::Acquire);
            if failure.is_none() {
                let n = finished.swap(0, Ordering::AcqRel);
                let go_on = py.check_signals().and_then(|()| match callback {
                    Some(cb) if n > 0 => cb.call1((n,)).map(|r| !r.is(PyBool::new(py, false))),
                    _ => Ok(true),
                });
                let stopped = match go_on {
                    Ok(true) => None,
                    Ok(false) => Some(PyKeyboardInterrupt::new_err("simulation stopped by its progress callback")),
                    Err(e) => Some(e),
                };
                if stopped.is_some() {
                    failure = stopped;
                    stop.store(true, Ordering::Release);
                }
            }
            if over {
                break;
            }
        }
        PyResult::Ok(helper.join())
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(payload)) | Err(payload) => Err(internal_error(&panic_message(&*payload))),
    }
}
