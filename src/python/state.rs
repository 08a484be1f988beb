//! `State`: one position of a game, mutable through `apply`.

use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use super::convert::{action_id, player_index, Int, Seed};
use super::errors::{engine, guard, IllegalActionError};
use super::game::{bytes, Game};
use crate::engine::{Action, DynGame, DynState, Viewer};

/// The viewer `to_svg` was asked for: `None` everything shown, a seat, or `"table"`.
fn viewer(observer: Option<&Bound<'_, PyAny>>, players: usize) -> PyResult<Viewer> {
    let Some(o) = observer else { return Ok(Viewer::All) };
    if let Ok(text) = o.cast::<PyString>() {
        let text = text.to_str()?;
        return if text == "table" {
            Ok(Viewer::Table)
        } else {
            Err(pyo3::exceptions::PyValueError::new_err(format!(
                "invalid request: observer {text:?} is not a seat; pass a seat (0..{}), \"table\" or None",
                players - 1
            )))
        };
    }
    if o.is_instance_of::<pyo3::types::PyBool>() || !o.is_instance_of::<pyo3::types::PyInt>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "observer must be a seat (int), \"table\" or None, not {}",
            o.get_type().name()?
        )));
    }
    Ok(Viewer::Seat(player_index(o.extract::<Int>()?, players)?))
}

/// What `State.__reduce__` returns: the rebuilding function and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (String, Bound<'py, PyBytes>));

/// A position of a game. Build one with `Game.new_state()`.
#[pyclass(module = "tradewinds", name = "State")]
pub struct State {
    game: Arc<dyn DynGame>,
    inner: Box<dyn DynState>,
}

impl State {
    pub(crate) fn wrap(game: Arc<dyn DynGame>, inner: Box<dyn DynState>) -> Self {
        State { game, inner }
    }

    /// The engine's state.
    pub(crate) fn dyn_state(&self) -> &dyn DynState {
        &*self.inner
    }

    fn duplicate(&self) -> PyResult<State> {
        guard(|| Ok(State { game: Arc::clone(&self.game), inner: self.inner.clone_box() }))
    }

    fn players(&self) -> usize {
        self.inner.spec().players
    }

    /// Checks that `action` lies in the action space of this node, so that the game is never
    /// asked to name an action it does not have.
    /// The action ids of this node, in words, and how many there are.
    fn action_space(&self) -> (String, usize) {
        let spec = self.inner.spec();
        if self.inner.is_chance() {
            (format!("{}'s chance outcomes lie in 0..{}", spec.name, spec.max_chance_outcomes), spec.max_chance_outcomes)
        } else {
            (format!("{}'s player actions lie in 0..{}", spec.name, spec.num_distinct_actions), spec.num_distinct_actions)
        }
    }

    fn check_action_range(&self, action: Action) -> PyResult<()> {
        let (what, size) = self.action_space();
        if (action as usize) < size {
            Ok(())
        } else {
            Err(IllegalActionError::new_err(format!("illegal action: {action} is out of range ({what})")))
        }
    }
}

/// `state_methods!`'s callback for Python: one `#[pymethods]` block with the hand-written
/// methods given first and then, for each listed method, a method of the same name and doc that
/// calls `DynState`'s inside [`guard`] (but for an `unguarded` one) and, for a fallible one, maps
/// its error with [`engine`].
macro_rules! py_state {
    (
        { $($hand:tt)* }
        getters { $( $(#[doc = $gdoc:literal])* fn $g:ident(&self) -> $gret:ty => $gpy:literal; )* }
        unguarded { $( $(#[doc = $udoc:literal])* fn $u:ident(&self) -> $uret:ty => $upy:literal; )* }
        methods { $( $(#[doc = $mdoc:literal])* fn $m:ident(&self $(, $ma:ident: $mat:ty => $mapy:literal)*) -> $mret:ty => $mpy:literal; )* }
        fallible { $( $(#[doc = $fdoc:literal])* fn $f:ident(&self $(, $fa:ident: $fat:ty => $fapy:literal)*) -> Result<$fret:ty> => $fpy:literal; )* }
    ) => {
        #[pymethods]
        impl State {
            $($hand)*
            $(
                $(#[doc = $gdoc])*
                #[getter]
                fn $g(&self) -> PyResult<$gret> {
                    guard(|| Ok(self.inner.$g()))
                }
            )*
            $(
                $(#[doc = $udoc])*
                #[getter]
                fn $u(&self) -> $uret {
                    self.inner.$u()
                }
            )*
            $(
                $(#[doc = $mdoc])*
                fn $m(&self $(, $ma: $mat)*) -> PyResult<$mret> {
                    guard(|| Ok(self.inner.$m($($ma),*)))
                }
            )*
            $(
                $(#[doc = $fdoc])*
                fn $f(&self $(, $fa: $fat)*) -> PyResult<$fret> {
                    guard(|| engine(self.inner.$f($($fa),*)))
                }
            )*
        }
    };
}

crate::engine::dynamic::state_methods! {
    py_state
    // `State`'s hand-written members (docs/engine-contract.md, section 12, says why each is).
    {
        /// The game this state belongs to.
        #[getter]
        fn game(&self) -> PyResult<Game> {
            Game::wrap(Arc::clone(&self.game))
        }

        /// The sorted legal actions (the chance outcomes at a chance node; empty at the end).
        fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyList>> {
            let inner = &mut self.inner;
            let legal = guard(|| Ok(inner.legal_actions_cached()))?;
            pyo3::types::PyList::new(py, legal)
        }

        /// A boolean mask over `range(num_distinct_actions)` (all False at chance and terminal nodes).
        fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
            let mask = guard(|| Ok(self.inner.legal_action_mask()))?;
            Ok(PyArray1::from_vec(py, mask))
        }

        /// A new state: this one after `action` (an id or a name), as search code expects; this
        /// state is unchanged. Raises `IllegalActionError` when the action is not legal.
        fn child(&self, action: &Bound<'_, PyAny>) -> PyResult<State> {
            let mut next = self.duplicate()?;
            next.apply(action)?;
            Ok(next)
        }

        /// Applies an action id or an action's name. Raises `IllegalActionError`, leaving the
        /// state unchanged, when it is not legal.
        fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
            let action = if let Ok(Ok(a)) = action.cast_exact::<pyo3::types::PyInt>().map(|i| i.extract::<Action>()) {
                a
            } else if let Ok(text) = action.cast::<PyString>() {
                let text = text.to_str()?;
                guard(|| engine(self.inner.string_to_action(text)))?
            } else {
                action_id(action, &self.action_space().0)?
            };
            guard(|| engine(self.inner.apply(action)))
        }

        /// The name of `action` in this state; with `observer`, the move as that seat sees it
        /// (another seat's secret choice is not named).
        #[pyo3(signature = (action, observer = None))]
        fn action_to_string(&self, action: &Bound<'_, PyAny>, observer: Option<Int>) -> PyResult<String> {
            let action = action_id(action, &self.action_space().0)?;
            self.check_action_range(action)?;
            match observer {
                None => guard(|| Ok(self.inner.action_to_string(action))),
                Some(p) => {
                    let p = player_index(p, self.players())?;
                    guard(|| engine(self.inner.action_string_for(action, p)))
                }
            }
        }

        /// An independent copy.
        fn clone(&self) -> PyResult<State> {
            self.duplicate()
        }
        fn __copy__(&self) -> PyResult<State> {
            self.duplicate()
        }
        fn __deepcopy__(&self, memo: &Bound<'_, PyAny>) -> PyResult<State> {
            let _ = memo; // nothing inside a state is shared with other Python objects
            self.duplicate()
        }

        /// The numbers of the score report, as `Game.simulate` records each game: a dict of
        /// `points` (a row per seat, a value per category), `totals` (the scores), `winners`,
        /// `opponent_totals` (in the order of `Game.opponents`), `opponent_winners` (their
        /// indices) and `tier` (the tier reached, an index into `Game.tiers`, or None).
        fn score_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            let record = guard(|| Ok(self.inner.score_record()))?;
            let categories = record.points.len() / record.totals.len().max(1);
            let points: Vec<&[f64]> = (0..record.totals.len())
                .map(|p| &record.points[p * categories..(p + 1) * categories])
                .collect();
            let d = PyDict::new(py);
            d.set_item("points", points)?;
            d.set_item("totals", &record.totals)?;
            d.set_item("winners", &record.winners)?;
            d.set_item("opponent_totals", &record.opponent_totals)?;
            d.set_item("opponent_winners", &record.opponent_winners)?;
            d.set_item("tier", record.tier)?;
            Ok(d)
        }

        /// What `player` may know, as text.
        fn observation_string(&self, player: Int) -> PyResult<String> {
            let player = player_index(player, self.players())?;
            guard(|| engine(self.inner.observation_string(player)))
        }

        /// What `player` may know, as a float32 array of shape `Game.observation_tensor_shape`.
        fn observation_tensor<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
            let player = player_index(player, self.players())?;
            let data = guard(|| engine(self.inner.observation_tensor(player)))?;
            let shape = self.inner.spec().observation_tensor_shape.clone();
            Ok(PyArray1::from_vec(py, data).reshape(shape)?.into_any())
        }

        /// A state consistent with everything `player` has seen, its hidden parts drawn from `seed`.
        #[pyo3(signature = (player, seed = Seed(0)), text_signature = "(self, player, seed=0)")]
        fn resample(&self, player: Int, seed: Seed) -> PyResult<State> {
            let player = player_index(player, self.players())?;
            let inner = guard(|| engine(self.inner.resample(player, seed.0)))?;
            Ok(State::wrap(Arc::clone(&self.game), inner))
        }

        /// The action built-in agent `agent` ("random", "greedy", "mcts:iterations=200,...")
        /// picks for the player to move; `seed` drives its randomness.
        #[pyo3(signature = (agent, seed = Seed(0)), text_signature = "(self, agent, seed=0)")]
        fn agent_action(&self, py: Python<'_>, agent: &str, seed: Seed) -> PyResult<u32> {
            let spec: crate::engine::AgentSpec = engine(agent.parse())?;
            let inner = &self.inner;
            engine(crate::python::errors::detached(py, || inner.agent_action(&spec, seed.0))?)
        }

        /// The game so far as a record (JSON text): the game and its options, the seed, and every
        /// move by name, chance outcomes included. `tradewinds.replay(record)` plays it again to
        /// this state. Raises `TradewindsError` for a state set up from a description or resampled
        /// (its history does not start at the beginning of a game).
        fn record(&self) -> PyResult<String> {
            guard(|| engine(self.inner.record()).map(|r| r.to_json()))
        }

        /// The log of the game so far: one `(move_number, player, text)` per move, chance outcomes
        /// included (player `CHANCE`), each text a sentence a person at the table understands.
        /// With `observer`, as that seat may see it (what is hidden from it stays hidden); without,
        /// as a spectator who sees everything.
        #[pyo3(signature = (observer = None))]
        fn log(&self, observer: Option<Int>) -> PyResult<Vec<(u64, i32, String)>> {
            let observer = observer.map(|p| player_index(p, self.players())).transpose()?;
            let entries = guard(|| engine(self.inner.log(observer)))?;
            Ok(entries.into_iter().map(|e| (e.move_number, e.actor, e.text)).collect())
        }

        /// The state in a compact binary form (load it with `Game.state_from_bytes`).
        fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
            let data = guard(|| Ok(self.inner.to_bytes()))?;
            Ok(bytes(py, &data))
        }

        /// Pickles as `_state_from_bytes(game_config_json, to_bytes())`.
        fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
            let f = py.import("tradewinds._core")?.getattr("_state_from_bytes")?;
            let config = guard(|| Ok(self.game.config().to_string()))?;
            let data = guard(|| Ok(self.inner.to_bytes()))?;
            Ok((f, (config, bytes(py, &data))))
        }

        /// The table as every player at it sees it: public information only.
        fn __str__(&self) -> PyResult<String> {
            guard(|| Ok(self.inner.public_string()))
        }

        /// The text of view `name` (one of `views()`): with `observer`, as that seat may see it;
        /// without, as a spectator who sees everything. Raises `TradewindsError` for a name the
        /// game does not have.
        #[pyo3(signature = (name, observer = None))]
        fn view(&self, name: &str, observer: Option<Int>) -> PyResult<String> {
            let observer = observer.map(|p| player_index(p, self.players())).transpose()?;
            guard(|| engine(self.inner.view(name, observer)))
        }

        /// The table as a picture (an SVG document). `observer`: `None` (the default) shows
        /// everything, hidden cards included, as `render()` does; a seat shows what that seat may
        /// know (what is hidden from it is drawn face down); `"table"` shows what every player at
        /// the table sees, as `str(state)` and the notebook views do. Raises `ValueError` for a
        /// seat out of range or another string, `TypeError` for anything else.
        #[pyo3(signature = (observer = None))]
        fn to_svg(&self, observer: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
            let viewer = viewer(observer, self.players())?;
            guard(|| engine(self.inner.svg(viewer)))
        }

        /// The table as every player at it sees it, as a picture for notebooks (`to_svg("table")`:
        /// no hidden card shown).
        fn _repr_svg_(&self) -> PyResult<String> {
            guard(|| engine(self.inner.svg(Viewer::Table)))
        }

        /// The table as every player at it sees it, as HTML for notebooks: the picture, the table
        /// as text and, at the end, the score table.
        fn _repr_html_(&self) -> PyResult<String> {
            guard(|| {
                let spec = self.inner.spec();
                let who = match self.inner.current_player() {
                    crate::engine::CHANCE => "chance".to_string(),
                    crate::engine::TERMINAL => "the game is over".to_string(),
                    p => format!("P{p} to act"),
                };
                let title = engine(crate::games::title(spec.name))?;
                let report = self.inner.is_terminal().then(|| self.inner.score_report());
                let picture = engine(self.inner.svg(Viewer::Table))?;
                Ok(super::html::state(title, spec.players, self.inner.move_number(), &who, &picture, &self.inner.public_string(), report.as_ref()))
            })
        }

        fn __repr__(&self) -> PyResult<String> {
            guard(|| {
                let spec = self.inner.spec();
                let who = match self.inner.current_player() {
                    crate::engine::CHANCE => "chance".to_string(),
                    crate::engine::TERMINAL => "terminal".to_string(),
                    p => format!("player {p} to act"),
                };
                Ok(format!(
                    "<tradewinds.State {} players={} move={} {who}>",
                    spec.name,
                    spec.players,
                    self.inner.move_number()
                ))
            })
        }

        fn __eq__(&self, other: &Self) -> PyResult<bool> {
            guard(|| Ok(self.inner.equals(&*other.inner)))
        }

        #[classattr]
        const __hash__: Option<Py<PyAny>> = None;
    }
}
