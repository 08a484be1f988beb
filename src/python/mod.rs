//! The Python bindings (`tradewinds._core`). They only convert values, delegate to the
//! engine, map engine errors to Python exceptions (in `errors`, once) and release the GIL
//! for bulk simulation. No game logic lives here.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use convert::{Int, Seed};

mod agent_stream;
mod convert;
mod errors;
mod game;
mod html;
mod report;
mod state;
mod vector;

use errors::{DataFileError, IllegalActionError, OptionError, RecordError, SetupError, StateFormatError, TradewindsError};
use game::Game;
use report::ScoreReport;
use state::State;

/// Builds game `name` with `options` (a JSON-able dict; None or {} gives the defaults).
#[pyfunction]
#[pyo3(signature = (name, options = None))]
fn load(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    game::load_game(name, options)
}

/// Every configuration of game `name` (each player count, mode, level and board side its
/// rulebook describes), as option dicts: `tw.load(name, **c)` builds each one. An unknown
/// name raises `OptionError` naming the games there are.
#[pyfunction]
fn configurations<'py>(py: Python<'py>, name: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    errors::guard(|| errors::engine(crate::games::options(name)))?;
    crate::games::all_configurations(name)
        .into_iter()
        .map(|m| convert::json_to_py(py, &serde_json::Value::Object(m)))
        .collect()
}

/// The options game `name` declares: for each, a dict with `name`, `allowed` (in words),
/// `default`, `configuration` (whether each value is a configuration of its own) and `doc`.
#[pyfunction]
fn options<'py>(py: Python<'py>, name: &str) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let decls = errors::guard(|| errors::engine(crate::games::options(name)))?;
    decls
        .iter()
        .map(|d| {
            let out = PyDict::new(py);
            out.set_item("name", d.name)?;
            out.set_item("allowed", d.allowed())?;
            out.set_item("default", convert::json_to_py(py, &d.default_value())?)?;
            out.set_item("configuration", d.configuration)?;
            out.set_item("doc", d.doc)?;
            Ok(out)
        })
        .collect()
}

/// The text of the component data file game `name` ships (built into the core), or None for a
/// game without one. An unknown name raises `OptionError` naming the games there are.
#[pyfunction]
fn shipped_data(name: &str) -> PyResult<Option<&'static str>> {
    errors::guard(|| errors::engine(crate::games::options(name)))?;
    Ok(crate::games::data_files().into_iter().find(|&(game, _)| game == name).map(|(_, file)| file.shipped))
}

/// Plays a game record (JSON text from `State.record()`) again: the whole game, or with
/// `moves` its first `moves` moves (chance left explicit, to step through it).
#[pyfunction]
#[pyo3(signature = (record, moves = None))]
fn replay(record: &str, moves: Option<Int>) -> PyResult<State> {
    let moves = moves.map(|m| m.count("moves", "", 0, u32::MAX as u64)).transpose()?;
    let (game, inner) = errors::guard(|| errors::engine(crate::games::replay(record, moves)))?;
    Ok(State::wrap(game, inner))
}

/// The seed of sub-stream `index` of the stream `seed` (SplitMix64 mixing): game `index` of a
/// run seeded `seed` is dealt from `derive_seed(seed, index)`.
#[pyfunction]
#[pyo3(text_signature = "(seed, index)")]
fn derive_seed(seed: Seed, index: Seed) -> u64 {
    crate::engine::rng::derive_seed(seed.0, index.0)
}

/// The built-in agents' specs, as the engine's message for an unknown agent lists them:
/// `"random, greedy, mcts:fast, mcts:strong, mcts[:iterations=N,...]"` with every MCTS parameter.
#[pyfunction]
fn built_in_agents() -> String {
    crate::engine::agents::built_in_agents()
}

/// Builds a game from `Game.config_json()` text (used by pickle).
#[pyfunction]
fn _load_config(config_json: &str) -> PyResult<Game> {
    game::load_config(config_json)
}

/// Rebuilds a pickled state: the game from its configuration, then the state from its bytes.
#[pyfunction]
fn _state_from_bytes(py: Python<'_>, config_json: &str, data: &[u8]) -> PyResult<Py<State>> {
    let g = game::load_config(config_json)?;
    let game = Bound::new(py, g)?;
    let state = game.call_method1("state_from_bytes", (pyo3::types::PyBytes::new(py, data),))?;
    Ok(state.cast_into::<State>()?.unbind())
}

/// Panics inside the same guards every entry point uses (with the GIL held, or released as
/// during a simulation), so the test suite can check that a Rust panic reaches Python as
/// `RuntimeError("internal error in tradewinds: ...")` in this build.
#[pyfunction]
#[pyo3(signature = (message, detach = false))]
fn _check_panic_guard(py: Python<'_>, message: &str, detach: bool) -> PyResult<()> {
    let message = message.to_string();
    if detach {
        errors::detached(py, move || -> () { panic!("{message}") })
    } else {
        errors::guard(move || -> PyResult<()> { panic!("{message}") })
    }
}

/// Rust core of tradewinds: rules-complete engines for nautical trading board games.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TradewindsError", py.get_type::<TradewindsError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("StateFormatError", py.get_type::<StateFormatError>())?;
    m.add("DataFileError", py.get_type::<DataFileError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("CHANCE", crate::engine::CHANCE)?;
    m.add("TERMINAL", crate::engine::TERMINAL)?;
    m.add("GAMES", PyTuple::new(py, crate::games::GAMES.iter().copied())?)?;
    m.add("REGISTERED", PyTuple::new(py, crate::games::registered().collect::<Vec<_>>())?)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<ScoreReport>()?;
    m.add_class::<vector::VectorGame>()?;
    m.add_class::<vector::VectorStep>()?;
    m.add_class::<agent_stream::AgentStream>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(configurations, m)?)?;
    m.add_function(wrap_pyfunction!(options, m)?)?;
    m.add_function(wrap_pyfunction!(shipped_data, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(built_in_agents, m)?)?;
    m.add_function(wrap_pyfunction!(_load_config, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(_check_panic_guard, m)?)?;
    Ok(())
}
