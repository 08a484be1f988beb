//! Mutations of fuzz material: byte-level edits of any byte string, and structural edits of
//! a JSON value (saved states, data files) that replace numbers by nearby or extreme ones,
//! change types, and add or remove keys and elements. Strings put in come from the
//! registered games' [`vocabulary`](super::vocabulary) or from the input itself.

use serde_json::{Map, Value};

use super::input::FuzzInput;
use super::vocabulary::vocabulary;

/// Numbers that tend to break validation: limits of the integer types, and off-by-one.
const INTERESTING: &[i128] = &[
    0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, 127, 128, 254, 255, 256, 1000,
    32767, 32768, 65535, 65536, 2147483647, 2147483648, 4294967295, 4294967296,
    9007199254740993, 9223372036854775807, 18446744073709551615, 18446744073709551616, -1, -2, -128,
    -32768, -2147483648, -9223372036854775808,
];

fn interesting_number(input: &mut FuzzInput<'_>, old: Option<&serde_json::Number>) -> Value {
    match input.u8() % 8 {
        // Near the old value.
        0..=2 => {
            let base = old.and_then(|n| n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))).unwrap_or(0);
            let delta = (input.u8() % 5) as i128 - 2;
            let delta = if delta == 0 { 1 } else { delta };
            number(base + delta)
        }
        3..=5 => number(INTERESTING[input.below(INTERESTING.len())]),
        6 => number(input.u32() as i128),
        _ => match input.u8() % 4 {
            0 => serde_json::json!(0.5),
            1 => serde_json::json!(-0.0),
            2 => serde_json::json!(1e300),
            _ => serde_json::json!(3.0),
        },
    }
}

/// `v` as a JSON number (past 64 bits, as JSON text allows).
pub(crate) fn number(v: i128) -> Value {
    if let Ok(x) = i64::try_from(v) {
        Value::from(x)
    } else if let Ok(x) = u64::try_from(v) {
        Value::from(x)
    } else {
        // Past 64 bits: JSON allows it; serde_json reads it as a float.
        serde_json::from_str(&v.to_string()).unwrap_or(Value::Null)
    }
}

/// Text for a string or key of a mutated document, or for an action name: a word of the
/// registered games' [`vocabulary`] (half the time), or up to 11 bytes of the input.
pub fn fuzz_string(input: &mut FuzzInput<'_>) -> String {
    if input.bool() {
        let words = vocabulary();
        words[input.below(words.len())].clone()
    } else {
        let n = input.below(12);
        String::from_utf8_lossy(input.take(n)).into_owned()
    }
}

/// Applies one structural mutation to a JSON value, at a node chosen by the input: a
/// number replaced by a nearby or extreme one, a value's type changed, a key removed or
/// added, an array element removed, duplicated or added.
pub fn mutate_json(value: &mut Value, input: &mut FuzzInput<'_>) {
    // Walk down to a node: at each level, stop here or descend into a child.
    let mut node = value;
    loop {
        let len = match node {
            Value::Array(a) => a.len(),
            Value::Object(o) => o.len(),
            _ => 0,
        };
        if len == 0 || input.u8() % 8 == 0 {
            break;
        }
        let i = input.below(len);
        node = match node {
            Value::Array(a) => &mut a[i],
            Value::Object(o) => o.values_mut().nth(i).expect("index below len"),
            _ => unreachable!(),
        };
    }
    match input.u8() % 10 {
        0..=4 => {
            *node = match &*node {
                Value::Number(n) => interesting_number(input, Some(n)),
                Value::Bool(b) => Value::Bool(!b),
                Value::String(_) => Value::String(fuzz_string(input)),
                _ => interesting_number(input, None),
            }
        }
        5 => {
            *node = match input.u8() % 6 {
                0 => Value::Null,
                1 => Value::Bool(input.bool()),
                2 => Value::String(fuzz_string(input)),
                3 => Value::Array(Vec::new()),
                4 => Value::Object(Map::new()),
                _ => interesting_number(input, None),
            }
        }
        6 => match node {
            Value::Object(o) if !o.is_empty() => {
                let k = o.keys().nth(input.below(o.len())).expect("index below len").clone();
                o.remove(&k);
            }
            Value::Array(a) if !a.is_empty() => {
                let i = input.below(a.len());
                a.remove(i);
            }
            _ => *node = Value::Null,
        },
        7 => match node {
            Value::Object(o) => {
                let k = fuzz_string(input);
                o.insert(k, interesting_number(input, None));
            }
            Value::Array(a) => {
                if let Some(last) = a.last().cloned() {
                    a.push(last);
                } else {
                    a.push(interesting_number(input, None));
                }
            }
            _ => *node = Value::Array(vec![node.clone()]),
        },
        8 => {
            if let Value::Array(a) = node {
                if a.len() >= 2 {
                    let i = input.below(a.len());
                    let j = input.below(a.len());
                    a.swap(i, j);
                }
            }
        }
        _ => {
            if let Value::Array(a) = node {
                let n = input.below(a.len() + 1);
                a.truncate(n);
            }
        }
    }
}

/// The JSON pointers of every number in `v`.
pub(crate) fn number_paths(v: &Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        Value::Number(_) => out.push(prefix.to_string()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                number_paths(x, &format!("{prefix}/{i}"), out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                number_paths(x, &format!("{prefix}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        _ => {}
    }
}

/// Applies one byte-level mutation (set, flip, insert, remove, truncate, duplicate a span).
pub fn mutate_bytes(bytes: &mut Vec<u8>, input: &mut FuzzInput<'_>) {
    let len = bytes.len();
    let pos = if len == 0 { 0 } else { input.u16() as usize % len };
    match input.u8() % 7 {
        0 | 1 if len > 0 => bytes[pos] = input.u8(),
        2 if len > 0 => bytes[pos] ^= 1 << (input.u8() % 8),
        3 => {
            let b = input.u8();
            bytes.insert(pos.min(len), b)
        }
        4 if len > 0 => {
            bytes.remove(pos);
        }
        5 => bytes.truncate(pos),
        _ if len > 0 => {
            let n = (input.u8() as usize % 16).min(len - pos);
            let span: Vec<u8> = bytes[pos..pos + n].to_vec();
            let at = input.u16() as usize % (len + 1);
            bytes.splice(at..at, span);
        }
        _ => bytes.push(input.u8()),
    }
}

