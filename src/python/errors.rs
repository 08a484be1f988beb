//! The Python exception classes and the one mapping from [`EngineError`] to them.
//! Every entry point also runs inside [`guard`], so a Rust panic surfaces as a
//! `RuntimeError` instead of pyo3's `PanicException` (a `BaseException`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::create_exception;

use crate::engine::EngineError;

create_exception!(
    tradewinds,
    TradewindsError,
    PyValueError,
    "Base class of the errors tradewinds raises for bad input (a ValueError)."
);
create_exception!(
    tradewinds,
    OptionError,
    TradewindsError,
    "An unknown game, or a game option (player count, max_turns, data, ...) that is unknown, of the wrong type or out of range."
);
create_exception!(
    tradewinds,
    IllegalActionError,
    TradewindsError,
    "An action that is not legal in the current state; the state is left unchanged."
);
create_exception!(
    tradewinds,
    StateFormatError,
    TradewindsError,
    "A saved state that cannot be loaded (corrupt, truncated, another game, another format version)."
);
create_exception!(
    tradewinds,
    RecordError,
    TradewindsError,
    "A game record that cannot be replayed (corrupt, another format version, a move that is not legal where it stands)."
);
create_exception!(
    tradewinds,
    DataFileError,
    TradewindsError,
    "A component data file that does not validate."
);
create_exception!(
    tradewinds,
    SetupError,
    TradewindsError,
    "A setup description that does not describe a legal position."
);

/// The single place where engine errors become Python exceptions.
pub(crate) fn to_py_err(e: EngineError) -> PyErr {
    let message = e.to_string();
    match e {
        EngineError::UnknownGame { .. } | EngineError::InvalidOption { .. } => OptionError::new_err(message),
        EngineError::InvalidRequest(_) => TradewindsError::new_err(message),
        EngineError::IllegalAction(_) | EngineError::UnknownActionString { .. } => {
            IllegalActionError::new_err(message)
        }
        EngineError::StateFormat(_) => StateFormatError::new_err(message),
        EngineError::Record(_) => RecordError::new_err(message),
        EngineError::DataFile { .. } => DataFileError::new_err(message),
        EngineError::Setup { .. } => SetupError::new_err(message),
        EngineError::Cancelled => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
    }
}

/// Converts an engine result, mapping its error.
pub(crate) fn engine<T>(r: crate::engine::Result<T>) -> PyResult<T> {
    r.map_err(to_py_err)
}

/// A `ValueError` raised while converting an argument (an integer past 64 bits, a NaN),
/// retyped as the error class `E` of what the argument is (`OptionError` for game options,
/// `SetupError` for a setup description). Other errors (`TypeError`, ours) pass unchanged.
pub(crate) fn retyped<E: pyo3::PyTypeInfo>(py: Python<'_>, e: PyErr) -> PyErr {
    if e.is_instance_of::<PyValueError>(py) && !e.is_instance_of::<TradewindsError>(py) {
        PyErr::new::<E, _>(e.value(py).to_string())
    } else {
        e
    }
}

/// The text of a panic payload (the engine's, shared with the test harness).
pub(crate) use crate::engine::panic_message;

/// The `RuntimeError` a caught panic becomes.
pub(crate) fn internal_error(message: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal error in tradewinds: {message} (please report this as a bug)"
    ))
}

/// Guarded calls under way, on any thread.
static GUARDED: AtomicUsize = AtomicUsize::new(0);

/// `catch_unwind` for the guards: a panic caught there becomes a Python exception that carries
/// its message, so the panic hook (installed once, in place of the default one) prints
/// nothing while a guarded call is under way, on its thread or on the threads it started.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.load(Ordering::Acquire) == 0 {
                default(info);
            }
        }));
    });
    GUARDED.fetch_add(1, Ordering::AcqRel);
    let r = catch_unwind(AssertUnwindSafe(f));
    GUARDED.fetch_sub(1, Ordering::AcqRel);
    r
}

/// Runs `f`, turning a panic into `RuntimeError("internal error in tradewinds: ...")`.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match quietly(f) {
        Ok(r) => r,
        Err(payload) => Err(internal_error(&panic_message(&*payload))),
    }
}

/// Runs `f` without the GIL (other Python threads run meanwhile), turning a panic into
/// `RuntimeError("internal error in tradewinds: ...")` once the GIL is back.
pub(crate) fn detached<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| quietly(f).map_err(|payload| panic_message(&*payload)))
        .map_err(|message| internal_error(&message))
}

