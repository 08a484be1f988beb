//! `VectorGame`: many games of one configuration stepped together (`crate::engine::vector`).
//! The bindings own the numpy arrays the engine writes into and hand them to it, as slices,
//! with the GIL released; nothing here decides anything about the games.

use std::sync::Arc;

use numpy::{IxDyn, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PySlice, PyString, PyTuple};

use super::convert::{player_index, Int, Seed};
use super::errors::{detached, engine, guard, IllegalActionError, OptionError, TradewindsError};
use super::game::{load_game, Game};
use super::state::State;
use crate::engine::vector::{VectorOutputs, MAX_GAMES};
use crate::engine::{AgentSpec, DynGame, DynVector, VectorConfig};

/// `num_games` independent games of one configuration, held in Rust and stepped together:
/// one call plays a decision in every game, with the GIL released.
///
/// ``VectorGame(game, num_games, *, seed=0, agents=None, auto_reset=True,
/// explicit_chance=False, threads=0, legal="mask", **options)``: ``game`` is a game's name (its options,
/// such as ``players=3``, follow as keywords, as for ``tradewinds.load``) or a ``Game``.
///
/// Seats. ``agents`` gives seats to built-in agents, which then play inside each call:
/// ``{1: "greedy", 2: "mcts:iterations=100"}``, or a list with one entry per seat, ``None``
/// for the seats the caller plays. Between calls every game waits for one of the caller's
/// seats (``current_player``), for a chance outcome with ``explicit_chance=True``
/// (``current_player == CHANCE``; see ``chance_outcomes()``), or, with ``auto_reset=False``,
/// at its end (``TERMINAL``) until ``reset(games=...)``.
///
/// Seeds. Game ``i``'s ``e``-th episode (from 0) is seeded from ``seed``, ``i`` and ``e``
/// alone (``game_seed(i, e)`` is its chance seed): results never depend on the thread count
/// or on the number of games beside it.
///
/// Legal actions. ``legal`` says which forms each call writes: ``"mask"``
/// (``legal_action_mask()``), ``"actions"`` (``legal_actions()``: every game's action ids in
/// one flat array, with per-game offsets) or ``"both"``.
///
/// Arrays and aliasing. ``current_player`` (N,) int32, ``legal_action_mask()`` (N, A) bool,
/// ``legal_actions()`` (N + 1,) int64 offsets and int32 action ids,
/// ``returns`` (N, players) float64, ``terminated`` and ``truncated`` (N,) bool,
/// ``chance_outcomes()`` (N, C) float64 and ``observation_tensor(seat)`` (N, *shape)
/// float32 are arrays owned by this object, returned themselves, not copies: every ``step``
/// and ``reset`` overwrites all but the observations in place, and ``observation_tensor(seat)``
/// overwrites its own array for that seat each time it is called. Copy what you keep across calls
/// (``np.copy``, ``torch.tensor``); ``torch.from_numpy`` and ``np.asarray`` views see every
/// later call. The engine never reads them back, so writing into them changes no game. Do
/// not read or write them from another thread while a call runs.
#[pyclass(module = "tradewinds", name = "VectorGame")]
pub struct VectorGame {
    game: Arc<dyn DynGame>,
    inner: Box<dyn DynVector>,
    /// The last actions, as the engine reads them.
    actions: Vec<i64>,
    /// Which games a `reset(games=...)` restarts.
    restart: Vec<bool>,
    /// Scratch for the indices of the games that ended in a step (kept for its capacity).
    ended: Vec<i64>,
    current_player: Py<PyArray1<i32>>,
    legal_mask: Py<PyArray2<bool>>,
    /// `num_games + 1` offsets into `legal_actions` (empty without the lists).
    legal_offsets: Py<PyArray1<i64>>,
    /// Room for `num_distinct_actions` ids per game, filled from the start.
    legal_actions: Py<PyArray1<i32>>,
    returns: Py<PyArray2<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    chance: Py<PyArray2<f64>>,
    /// The observation arrays: `[0]` for the seats to act, `[1 + p]` for seat `p`; made on
    /// first use.
    observations: Vec<Option<Py<PyArrayDyn<f32>>>>,
}

/// What one `VectorGame.step` reported.
#[pyclass(frozen, module = "tradewinds", name = "VectorStep")]
pub struct VectorStep {
    finished: Py<PyArray1<i64>>,
    returns: Py<PyArray2<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
}

#[pymethods]
impl VectorStep {
    /// The indices of the games that ended in this step (a new int64 array): with
    /// ``auto_reset``, they already play their next episode.
    #[getter]
    fn finished<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.finished.bind(py).clone()
    }
    /// (N, players) float64: the final returns of the games that ended in this step, zero
    /// for the others (the VectorGame's own array, overwritten by the next call).
    #[getter]
    fn returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.returns.bind(py).clone()
    }
    /// (N,) bool: the games that ended by their rules in this step (the VectorGame's array).
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    /// (N,) bool: the games cut off at their move bound in this step (the VectorGame's array).
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    fn __repr__(&self, py: Python<'_>) -> String {
        format!("<tradewinds.VectorStep finished={}>", self.finished.bind(py).len())
    }
}

/// The seat → agent table from `agents=`: a dict `{seat: spec}` or a list with one entry per
/// seat (`None` for the caller's seats).
fn agent_table(agents: Option<&Bound<'_, PyAny>>, players: usize) -> PyResult<Vec<Option<AgentSpec>>> {
    let mut table: Vec<Option<AgentSpec>> = vec![None; players];
    let Some(agents) = agents.filter(|a| !a.is_none()) else {
        return Ok(table);
    };
    let parse = |spec: &Bound<'_, PyAny>| -> PyResult<Option<AgentSpec>> {
        if spec.is_none() {
            return Ok(None);
        }
        let text = spec.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err("an agent is a spec string (\"random\", \"greedy\", \"mcts:iterations=200\") or None")
        })?;
        Ok(Some(engine(text.to_str()?.parse())?))
    };
    if let Ok(d) = agents.cast::<PyDict>() {
        for (seat, spec) in d.iter() {
            let seat = player_index(seat.extract::<Int>()?, players)?;
            table[seat] = parse(&spec)?;
        }
    } else if agents.cast::<PyList>().is_ok() || agents.cast::<PyTuple>().is_ok() {
        let list: Vec<Bound<'_, PyAny>> = agents.extract()?;
        if list.len() != players {
            return Err(OptionError::new_err(format!(
                "invalid option \"agents\": {} entries for {players} seats: give one per seat (None for the seats you \
                 play), or a dict {{seat: agent}}",
                list.len()
            )));
        }
        for (seat, spec) in list.iter().enumerate() {
            table[seat] = parse(spec)?;
        }
    } else {
        return Err(PyTypeError::new_err(
            "agents must be a dict {seat: agent spec} or a list with one agent spec or None per seat",
        ));
    }
    Ok(table)
}

/// The kind letter of a numpy array's dtype and its item size.
fn dtype_of(array: &Bound<'_, PyAny>) -> PyResult<(String, usize, String)> {
    let dtype = array.getattr("dtype")?;
    Ok((dtype.getattr("kind")?.extract()?, dtype.getattr("itemsize")?.extract()?, dtype.str()?.to_string()))
}

/// `obj` as a one-dimensional numpy array of `n` values, or a `TradewindsError` naming `what`.
fn one_per_game<'py>(obj: &Bound<'py, PyAny>, n: usize, what: &str) -> PyResult<Bound<'py, PyAny>> {
    let array = obj.py().import("numpy")?.call_method1("asarray", (obj,))?;
    let shape = array.getattr("shape")?;
    if shape.extract::<Vec<usize>>()? != [n] {
        return Err(TradewindsError::new_err(format!(
            "{what} must have shape ({n},), one per game, not {}",
            shape.repr()?
        )));
    }
    Ok(array)
}

/// Copies `array` into `out` when it is a one-dimensional numpy array of `T` with `n` values;
/// false otherwise. A value beyond `i64` (which no action id reaches) is an
/// `IllegalActionError` that names it as given.
fn copy_ints<T>(obj: &Bound<'_, PyAny>, n: usize, out: &mut Vec<i64>) -> PyResult<bool>
where
    T: numpy::Element + Copy + std::fmt::Display,
    i64: TryFrom<T>,
{
    let Ok(a) = obj.cast::<PyArray1<T>>() else {
        return Ok(false);
    };
    if a.len() != n {
        return Ok(false);
    }
    let view = a.try_readonly().map_err(|e| TradewindsError::new_err(format!("actions: {e}")))?;
    let mut beyond: Option<(usize, String)> = None;
    let mut convert = |k: usize, x: T| {
        i64::try_from(x).unwrap_or_else(|_| {
            beyond.get_or_insert((k, x.to_string()));
            -2
        })
    };
    match view.as_slice() {
        Ok(s) => out.extend(s.iter().enumerate().map(|(k, &x)| convert(k, x))),
        Err(_) => out.extend(view.as_array().iter().enumerate().map(|(k, &x)| convert(k, x))),
    }
    if let Some((k, x)) = beyond {
        return Err(IllegalActionError::new_err(format!(
            "illegal action: game {k}: {x} is not an action id (-1 leaves a game as it is)"
        )));
    }
    Ok(true)
}

/// Copies the actions into `out` (one `i64` per game). Any integer array (or list) of shape
/// `(n,)` is accepted; other dtypes are a `TypeError`, other shapes a `TradewindsError`.
fn read_actions(obj: &Bound<'_, PyAny>, n: usize, out: &mut Vec<i64>) -> PyResult<()> {
    out.clear();
    // Numpy integer arrays of the right shape are read directly, whatever their width.
    if copy_ints::<i64>(obj, n, out)?
        || copy_ints::<i32>(obj, n, out)?
        || copy_ints::<u16>(obj, n, out)?
        || copy_ints::<u8>(obj, n, out)?
        || copy_ints::<u32>(obj, n, out)?
        || copy_ints::<u64>(obj, n, out)?
        || copy_ints::<i16>(obj, n, out)?
        || copy_ints::<i8>(obj, n, out)?
    {
        return Ok(());
    }
    let array = one_per_game(obj, n, "actions")?;
    let (kind, _, name) = dtype_of(&array)?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers (one action id per game), not an array of dtype {name}"
        )));
    }
    // Another integer array (a list of ints, a non-native byte order): as native 64-bit values.
    let copied = if kind == "u" {
        copy_ints::<u64>(&array.call_method1("astype", ("uint64",))?, n, out)?
    } else {
        copy_ints::<i64>(&array.call_method1("astype", ("int64",))?, n, out)?
    };
    if !copied {
        return Err(TradewindsError::new_err("actions: cannot read them as 64-bit integers"));
    }
    Ok(())
}

/// The engine's outputs over the numpy arrays: borrows them for writing, runs `f` with the
/// GIL released, and returns its result.
macro_rules! with_outputs {
    ($self:ident, $py:ident, |$inner:ident, $out:ident, $actions:ident, $restart:ident| $body:expr) => {{
        let VectorGame {
            inner,
            actions,
            restart,
            current_player,
            legal_mask,
            legal_offsets,
            legal_actions,
            returns,
            terminated,
            truncated,
            chance,
            ..
        } = $self;
        let $actions: &[i64] = &actions[..];
        let $restart: &[bool] = &restart[..];
        let mut cp = writable(current_player.bind($py))?;
        let mut lm = writable(legal_mask.bind($py))?;
        let mut lo = writable(legal_offsets.bind($py))?;
        let mut la = writable(legal_actions.bind($py))?;
        let mut re = writable(returns.bind($py))?;
        let mut te = writable(terminated.bind($py))?;
        let mut tr = writable(truncated.bind($py))?;
        let mut ch = writable(chance.bind($py))?;
        let $out = VectorOutputs {
            current_player: slice(&mut cp)?,
            legal_mask: slice(&mut lm)?,
            legal_offsets: slice(&mut lo)?,
            legal_actions: slice(&mut la)?,
            returns: slice(&mut re)?,
            terminated: slice(&mut te)?,
            truncated: slice(&mut tr)?,
            chance_probabilities: slice(&mut ch)?,
        };
        let $inner: &mut dyn DynVector = &mut **inner;
        detached($py, move || $body)?
    }};
}

fn writable<'py, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &Bound<'py, numpy::PyArray<T, D>>,
) -> PyResult<numpy::PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|e| {
        TradewindsError::new_err(format!(
            "cannot write into the VectorGame's arrays ({e}): they must stay writeable and not be passed back in"
        ))
    })
}

fn slice<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a mut numpy::PyReadwriteArray<'_, T, D>,
) -> PyResult<&'a mut [T]> {
    array
        .as_slice_mut()
        .map_err(|e| TradewindsError::new_err(format!("the VectorGame's arrays must stay contiguous: {e}")))
}

impl VectorGame {
    fn observation_shape(&self, n: usize) -> Vec<usize> {
        std::iter::once(n).chain(self.inner.spec().observation_tensor_shape.iter().copied()).collect()
    }
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(
        signature = (game, num_games, *, seed = Seed(0), agents = None, auto_reset = true, explicit_chance = false, threads = Int(0), legal = "mask", **options),
        text_signature = "(game, num_games, *, seed=0, agents=None, auto_reset=True, explicit_chance=False, threads=0, legal='mask', **options)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_games: Int,
        seed: Seed,
        agents: Option<&Bound<'_, PyAny>>,
        auto_reset: bool,
        explicit_chance: bool,
        threads: Int,
        legal: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game: Arc<dyn DynGame> = if let Ok(g) = game.cast::<Game>() {
            if options.is_some_and(|o| !o.is_empty()) {
                return Err(OptionError::new_err(
                    "invalid option: options configure a game given by name; this Game is configured already",
                ));
            }
            Arc::clone(&g.get().inner)
        } else if let Ok(name) = game.cast::<PyString>() {
            load_game(name.to_str()?, options)?.inner
        } else {
            return Err(PyTypeError::new_err("game must be a game's name (str) or a tradewinds.Game"));
        };
        let num_games = num_games.count("num_games", "", 1, MAX_GAMES as u64)?;
        let threads = threads.count("threads", " (0 = all cores, 1 = the calling thread)", 0, 4096)?;
        let spec = game.spec().clone();
        let agents = agent_table(agents, spec.players)?;
        let legal = engine(legal.parse())?;
        let config = VectorConfig { num_games, seed: seed.0, agents, auto_reset, explicit_chance, threads, legal };
        let built = Arc::clone(&game);
        let inner = detached(py, move || built.vector(config))?;
        let inner = engine(inner)?;
        let n = inner.num_games();
        let sizes = inner.row_sizes();
        let mut v = VectorGame {
            game,
            actions: Vec::with_capacity(n),
            restart: vec![false; n],
            ended: Vec::with_capacity(n),
            current_player: PyArray1::<i32>::zeros(py, n, false).unbind(),
            legal_mask: PyArray2::<bool>::zeros(py, [n, sizes.legal_mask], false).unbind(),
            legal_offsets: PyArray1::<i64>::zeros(py, if sizes.legal_actions > 0 { n + 1 } else { 0 }, false).unbind(),
            legal_actions: PyArray1::<i32>::zeros(py, n * sizes.legal_actions, false).unbind(),
            returns: PyArray2::<f64>::zeros(py, [n, sizes.players], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            chance: PyArray2::<f64>::zeros(py, [n, sizes.chance], false).unbind(),
            observations: (0..=spec.players).map(|_| None).collect(),
            inner,
        };
        let s = &mut v;
        engine(with_outputs!(s, py, |inner, out, _actions, _restart| inner.write(out)))?;
        Ok(v)
    }

    /// The game every game of the batch is a game of.
    #[getter]
    fn game(&self) -> PyResult<Game> {
        Game::wrap(Arc::clone(&self.game))
    }
    /// N, the number of games.
    #[getter]
    fn num_games(&self) -> usize {
        self.inner.num_games()
    }
    fn __len__(&self) -> usize {
        self.inner.num_games()
    }
    /// Seats per game.
    #[getter]
    fn players(&self) -> usize {
        self.inner.spec().players
    }
    /// The seats the caller plays (the others are played by built-in agents).
    #[getter]
    fn seats(&self) -> Vec<usize> {
        self.inner.agents().iter().enumerate().filter(|(_, a)| a.is_none()).map(|(p, _)| p).collect()
    }
    /// The built-in agent of each seat played inside the calls, `{seat: spec}`.
    #[getter]
    fn agents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (p, a) in self.inner.agents().iter().enumerate() {
            if let Some(a) = a {
                d.set_item(p, a.to_string())?;
            }
        }
        Ok(d)
    }
    /// The master seed (the last one given to the constructor or to `reset`).
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }
    /// Whether a game that ends starts its next episode in the same call.
    #[getter]
    fn auto_reset(&self) -> bool {
        self.inner.auto_reset()
    }
    /// Whether chance nodes are left to the caller.
    #[getter]
    fn explicit_chance(&self) -> bool {
        self.inner.explicit_chance()
    }
    /// Which forms of the legal actions each call writes: "mask", "actions" or "both".
    #[getter]
    fn legal(&self) -> String {
        self.inner.legal().to_string()
    }
    /// The threads a large batch is spread over (1: the calling thread only).
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// (N,) int32: the seat to act in each game; `CHANCE` at an explicit chance node,
    /// `TERMINAL` for a finished game that waits for a reset. Overwritten by every call.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.current_player.bind(py).clone()
    }
    /// (N, players) float64: the final returns of the games that ended in the last step
    /// (zero for the others). Overwritten by every call.
    #[getter]
    fn returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        self.returns.bind(py).clone()
    }
    /// (N,) bool: the games that ended by their rules in the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }
    /// (N,) bool: the games cut off at their move bound in the last step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }
    /// (N,) int64: the episode each game is in (0 for its first game); a new array.
    #[getter]
    fn episode<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut e = vec![0u64; self.inner.num_games()];
        guard(|| {
            self.inner.episodes(&mut e);
            Ok(())
        })?;
        Ok(PyArray1::from_vec(py, e.into_iter().map(|x| x as i64).collect()))
    }

    /// (N, num_distinct_actions) bool: the legal actions of the seat to act in each game (all
    /// False at chance nodes and ends). The VectorGame's own array, overwritten by every call.
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        if !self.inner.legal().mask() {
            return Err(TradewindsError::new_err(
                "this VectorGame writes no mask (legal=\"actions\"): read legal_actions(), or build it with legal=\"mask\" \
                 or legal=\"both\"",
            ));
        }
        Ok(self.legal_mask.bind(py).clone())
    }

    /// ``(offsets, actions)``: the legal actions of the seat to act in every game, as
    /// compressed sparse rows. ``offsets`` (N + 1,) int64; game ``i``'s action ids, in
    /// increasing order, are ``actions[offsets[i]:offsets[i + 1]]`` (none at chance nodes and
    /// ends), and ``actions`` (int32) holds ``offsets[N]`` ids. ``offsets`` is the
    /// VectorGame's own array and ``actions`` a view of its own array of ids, both overwritten
    /// by every call; ``actions`` has the length of the call it was read after, so read them
    /// again after each call.
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if !self.inner.legal().actions() {
            return Err(TradewindsError::new_err(
                "this VectorGame writes no action lists (legal=\"mask\"): read legal_action_mask(), or build it with \
                 legal=\"actions\" or legal=\"both\"",
            ));
        }
        let offsets = self.legal_offsets.bind(py);
        let total = *offsets.readonly().as_slice()?.last().unwrap_or(&0);
        let actions = self.legal_actions.bind(py).get_item(PySlice::new(py, 0, total as isize, 1))?;
        PyTuple::new(py, [offsets.as_any().clone(), actions])
    }

    /// (N, max_chance_outcomes) float64 with ``explicit_chance=True``: each game's chance
    /// outcome probabilities where it waits at a chance node (zero rows elsewhere). The
    /// VectorGame's own array, overwritten by every call.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        if !self.inner.explicit_chance() {
            return Err(TradewindsError::new_err(
                "chance is resolved inside the calls; build the VectorGame with explicit_chance=True to see chance nodes",
            ));
        }
        Ok(self.chance.bind(py).clone())
    }

    /// (N, *observation_tensor_shape) float32: each game's observation tensor for `seat`, or
    /// with None for the seat to act (zero rows at chance nodes and ends). Written into `out`
    /// when given (a C-contiguous float32 array of that shape), else into the VectorGame's own
    /// array for that seat, the same object at every call, overwritten by each such call.
    #[pyo3(signature = (seat = None, out = None))]
    fn observation_tensor<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<Int>,
        out: Option<Bound<'py, PyArrayDyn<f32>>>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let players = self.inner.spec().players;
        let seat = seat.map(|s| player_index(s, players)).transpose()?;
        let n = self.inner.num_games();
        let shape = self.observation_shape(n);
        let target = match out {
            Some(array) => {
                if array.shape() != shape.as_slice() {
                    return Err(TradewindsError::new_err(format!(
                        "out must have shape {:?} (games, *observation_tensor_shape), not {:?}",
                        shape,
                        array.shape()
                    )));
                }
                array
            }
            None => {
                let slot = &mut self.observations[seat.map_or(0, |p| p + 1)];
                slot.get_or_insert_with(|| PyArrayDyn::<f32>::zeros(py, IxDyn(&shape), false).unbind()).bind(py).clone()
            }
        };
        {
            let mut guard_rw = target.try_readwrite().map_err(|e| {
                TradewindsError::new_err(format!("cannot write the observations into this array: {e}"))
            })?;
            let values = guard_rw.as_slice_mut().map_err(|e| {
                TradewindsError::new_err(format!("the observation array must be C-contiguous: {e}"))
            })?;
            let inner = &*self.inner;
            engine(detached(py, move || inner.observe(seat, values))?)?;
        }
        Ok(target)
    }

    /// Plays ``actions[i]`` (an action id, or -1 to leave game ``i`` as it is) in every game
    /// ``i``, then plays each game on (agents' seats, chance, restarts) to where the caller
    /// acts next. ``actions``: (N,) integers (any integer dtype). The whole batch is checked
    /// first: an illegal action in any game raises ``IllegalActionError`` naming the first
    /// such game, and changes no game. Runs without the GIL.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<VectorStep> {
        let n = self.inner.num_games();
        read_actions(actions, n, &mut self.actions)?;
        let s = &mut *self;
        let result = with_outputs!(s, py, |inner, out, actions, _restart| inner.step(actions, out));
        let count = engine(result)?;
        let mut ended = std::mem::take(&mut self.ended);
        ended.clear();
        if count > 0 {
            let te = self.terminated.bind(py).readonly();
            let tr = self.truncated.bind(py).readonly();
            let (te, tr) = (te.as_slice()?, tr.as_slice()?);
            ended.extend((0..n).filter(|&i| te[i] || tr[i]).map(|i| i as i64));
        }
        let finished = PyArray1::from_slice(py, &ended).unbind();
        self.ended = ended;
        Ok(VectorStep {
            finished,
            returns: self.returns.clone_ref(py),
            terminated: self.terminated.clone_ref(py),
            truncated: self.truncated.clone_ref(py),
        })
    }

    /// Restarts games. With ``seed``, every game starts over from its first episode under
    /// that master seed (``reset(seed=s)`` on a VectorGame built with ``seed=s`` replays its
    /// games). Without, every game starts its next episode, or only those ``games`` selects
    /// (an (N,) bool mask or a list of indices). The arrays are rewritten; the returns and
    /// flags of restarted games are cleared.
    #[pyo3(signature = (seed = None, games = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<Seed>, games: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let n = self.inner.num_games();
        let games = games.filter(|g| !g.is_none());
        match (seed, games) {
            (Some(_), Some(_)) => Err(TradewindsError::new_err(
                "reset(seed=...) restarts every game from its first episode; reset(games=...) restarts some games with \
                 their next episode: give one or the other",
            )),
            (_, Some(games)) => {
                self.restart.fill(false);
                let array = py.import("numpy")?.call_method1("asarray", (games,))?;
                let (kind, _, name) = dtype_of(&array)?;
                match kind.as_str() {
                    "b" => {
                        let array = one_per_game(games, n, "a mask of games")?.cast_into::<PyArray1<bool>>()?;
                        for (r, &m) in self.restart.iter_mut().zip(array.readonly().as_array().iter()) {
                            *r = m;
                        }
                    }
                    "i" | "u" => {
                        let shape: Vec<usize> = array.getattr("shape")?.extract()?;
                        if shape.len() != 1 {
                            return Err(TradewindsError::new_err(format!(
                                "games must be a list of game indices or an ({n},) bool mask, not shape {shape:?}"
                            )));
                        }
                        let indices: Vec<i128> = array.call_method0("tolist")?.extract()?;
                        for i in indices {
                            if i < 0 || i >= n as i128 {
                                return Err(TradewindsError::new_err(format!(
                                    "game {i} is out of range: this VectorGame holds games 0..{}",
                                    n - 1
                                )));
                            }
                            self.restart[i as usize] = true;
                        }
                    }
                    _ => {
                        return Err(PyTypeError::new_err(format!(
                            "games must be game indices or a bool mask, not an array of dtype {name}"
                        )))
                    }
                }
                let s = &mut *self;
                engine(with_outputs!(s, py, |inner, out, _actions, restart| inner.reset_games(restart, out)))
            }
            (seed, None) => {
                let seed = seed.map(|s| s.0);
                let s = &mut *self;
                engine(with_outputs!(s, py, |inner, out, _actions, _restart| inner.reset(seed, out)))
            }
        }
    }

    /// Game ``index`` as a ``State`` of its own (a copy: acting on it changes nothing here).
    /// It starts with an empty history and draws the chance this game would draw.
    fn state(&self, index: Int) -> PyResult<State> {
        let n = self.inner.num_games();
        if index.0 < 0 || index.0 >= n as i128 {
            return Err(TradewindsError::new_err(format!(
                "game {} is out of range: this VectorGame holds games 0..{}",
                index.0,
                n - 1
            )));
        }
        let inner = guard(|| engine(self.inner.state(index.0 as usize)))?;
        Ok(State::wrap(Arc::clone(&self.game), inner))
    }

    /// The chance seed of game ``index``'s ``episode`` (its current one by default): with no
    /// agent seats, ``game.new_state(seed)`` given the same actions plays the same game.
    #[pyo3(signature = (index, episode = None))]
    fn game_seed(&self, index: Int, episode: Option<Seed>) -> PyResult<u64> {
        let n = self.inner.num_games();
        if index.0 < 0 || index.0 >= n as i128 {
            return Err(TradewindsError::new_err(format!(
                "game {} is out of range: this VectorGame holds games 0..{}",
                index.0,
                n - 1
            )));
        }
        let i = index.0 as usize;
        let episode = match episode {
            Some(e) => e.0,
            None => {
                let mut e = vec![0u64; n];
                self.inner.episodes(&mut e);
                e[i]
            }
        };
        Ok(self.inner.game_seed(i, episode))
    }

    fn __repr__(&self) -> String {
        let spec = self.inner.spec();
        let agents: Vec<String> = self
            .inner
            .agents()
            .iter()
            .enumerate()
            .filter_map(|(p, a)| a.as_ref().map(|a| format!("{p}:{a}")))
            .collect();
        format!(
            "<tradewinds.VectorGame {} players={} num_games={} seats={:?}{}>",
            spec.name,
            spec.players,
            self.inner.num_games(),
            self.seats(),
            if agents.is_empty() { String::new() } else { format!(" agents={{{}}}", agents.join(", ")) }
        )
    }
}
