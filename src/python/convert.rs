//! Conversions between Python objects and the engine's plain values (JSON, seeds, actions,
//! player indices). Nothing here knows about any game.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

use super::errors::IllegalActionError;
use crate::engine::Action;

/// A seed: any Python integer in `[0, 2**64 - 1]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyFloat>() {
            return Err(PyTypeError::new_err(format!(
                "a seed must be an integer in [0, 2**64 - 1], not a float ({})",
                obj.repr()?
            )));
        }
        match obj.extract::<u64>() {
            Ok(v) => Ok(Seed(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(PyValueError::new_err(
                format!("seed {} is out of range: a seed must be an integer in [0, 2**64 - 1]", obj.repr()?),
            )),
            Err(e) => Err(e),
        }
    }
}

/// An integer argument of any size (beyond 128 bits it saturates), so that the callee can
/// name the argument and its range in a `ValueError` instead of pyo3's `OverflowError`.
pub(crate) struct Int(pub i128);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i128>() {
            Ok(v) => Ok(Int(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Int(if obj.lt(0)? { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

impl Int {
    /// The value as a count in `min..=max`, or a `ValueError` naming `what` and the bound it
    /// breaks (`hint` says what the values mean).
    pub(crate) fn count(&self, what: &str, hint: &str, min: u64, max: u64) -> PyResult<usize> {
        let got = match self.0 {
            i128::MIN => "a larger negative number than any count".to_string(),
            i128::MAX => "a number larger than any count".to_string(),
            v => v.to_string(),
        };
        if self.0 < min as i128 {
            return Err(PyValueError::new_err(format!("{what} must be at least {min}{hint}, got {got}")));
        }
        if self.0 > max as i128 {
            return Err(PyValueError::new_err(format!("{what} must be at most {max}{hint}, got {got}")));
        }
        Ok(self.0 as usize)
    }
}

/// Converts a player index; a negative or huge index is a `ValueError` naming the range.
pub(crate) fn player_index(player: Int, players: usize) -> PyResult<usize> {
    let player = player.0;
    if player < 0 || player >= players as i128 {
        return Err(PyValueError::new_err(format!(
            "invalid request: player {player} is out of range: this game has players 0..{}",
            players.saturating_sub(1)
        )));
    }
    Ok(player as usize)
}

/// Converts a Python integer to an action id; one outside the action id range is an
/// `IllegalActionError` (it cannot be legal anywhere) that names `space`, the game's action
/// range in words.
pub(crate) fn action_id(obj: &Bound<'_, PyAny>, space: &str) -> PyResult<Action> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(format!(
            "an action must be an int (an action id) or a str (an action's name), not {}",
            obj.get_type().name()?
        )));
    }
    match obj.extract::<i64>() {
        Ok(v) if (0..=u32::MAX as i64).contains(&v) => Ok(v as Action),
        Ok(v) => Err(IllegalActionError::new_err(format!("illegal action: {v} is out of range ({space})"))),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(IllegalActionError::new_err(format!(
            "illegal action: {} is out of range ({space})",
            crate::engine::error::cut(&obj.repr()?.to_string())
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "an action must be an int (an action id) or a str (an action's name), not {}",
            obj.get_type().name()?
        ))),
    }
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// The deepest nesting of lists and dicts a value passed to tradewinds may have (serde_json's
/// own limit for JSON text): deeper ones are refused before the conversion's recursion could
/// exhaust the stack.
pub(crate) const MAX_DEPTH: usize = 128;

/// Converts a JSON-able Python value (None, bool, int, float, str, list, tuple, dict with
/// str keys, os.PathLike) to JSON. `path` names the value in error messages.
pub(crate) fn py_to_json(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<Value> {
    to_json(obj, path, 0)
}

fn too_deep(path: &str) -> PyErr {
    PyValueError::new_err(format!(
        "{}: lists and dicts are nested more than {MAX_DEPTH} deep",
        crate::engine::error::cut(path)
    ))
}

fn to_json(obj: &Bound<'_, PyAny>, path: &str, depth: usize) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = obj.extract::<u64>() {
            return Ok(Value::from(v));
        }
        return Err(PyValueError::new_err(format!(
            "{path}: the integer {} does not fit in 64 bits",
            obj.repr()?
        )));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            PyValueError::new_err(format!("{path}: {v} is not a finite number"))
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_string()));
    }
    let nested = obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    if nested && depth >= MAX_DEPTH {
        return Err(too_deep(path));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return Ok(Value::Object(dict_to_map(d, path, depth + 1)?));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut out = Vec::with_capacity(l.len());
        for (i, item) in l.iter().enumerate() {
            out.push(to_json(&item, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let mut out = Vec::with_capacity(t.len());
        for (i, item) in t.iter().enumerate() {
            out.push(to_json(&item, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    if obj.hasattr("__fspath__")? {
        let p = obj.py().import("os")?.call_method1("fspath", (obj,))?;
        if let Ok(s) = p.cast::<PyString>() {
            return Ok(Value::String(s.to_str()?.to_string()));
        }
        return Err(PyTypeError::new_err(format!("{path}: a path must be a str path, not bytes")));
    }
    Err(PyTypeError::new_err(format!(
        "{path}: a value of type {} cannot be passed to tradewinds (use None, bool, int, float, str, \
         list, dict or a path)",
        type_name(obj)
    )))
}

/// Converts a dict with str keys to a JSON object.
pub(crate) fn py_dict_to_map(d: &Bound<'_, PyDict>, path: &str) -> PyResult<Map<String, Value>> {
    dict_to_map(d, path, 1)
}

fn dict_to_map(d: &Bound<'_, PyDict>, path: &str, depth: usize) -> PyResult<Map<String, Value>> {
    let mut map = Map::new();
    for (k, v) in d.iter() {
        let key = match k.cast::<PyString>() {
            Ok(s) => s.to_str()?.to_string(),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "{path}: keys must be str, not {}",
                    type_name(&k)
                )))
            }
        };
        let sub = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
        let value = to_json(&v, &sub, depth)?;
        map.insert(key, value);
    }
    Ok(map)
}

/// Converts JSON to plain Python objects (dicts, lists, str, int, float, bool, None).
pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let d = PyDict::new(py);
            for (k, item) in map {
                d.set_item(k, json_to_py(py, item)?)?;
            }
            d.into_any()
        }
    })
}
