//! A game's observation tensor read by the fields the game declares
//! ([`crate::engine::View::observation_layout`]), and the check that the table documenting
//! them, the section "Observation tensor" of `docs/games/<game>.md` (`| Field | Size | Meaning |`
//! rows in the tensor's order), lists the same fields with the same sizes in every
//! configuration.

use std::collections::BTreeMap;
use std::path::Path;

use crate::engine::{DynGame, Field, Game, GameState};

/// The rows of `docs/games/<doc>.md`'s "Observation tensor" table, in order: each field's
/// name and its size as written (`4`, `3 × T`). Panics, naming the problem, when the doc or
/// its table cannot be read.
pub fn documented_fields(doc: &str) -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games").join(format!("{doc}.md"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let section = text
        .split("\n## Observation tensor\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{}: no 'Observation tensor' section", path.display()));
    let section = section.split("\n## ").next().unwrap_or_default();
    let mut rows = section.lines().filter(|l| l.starts_with('|'));
    let cells = |row: &str| -> Vec<String> { row.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect() };
    let header = cells(rows.next().unwrap_or_else(|| panic!("{}: the section has no table", path.display())));
    assert_eq!(header, ["Field", "Size", "Meaning"], "{}: the table's columns", path.display());
    rows.next(); // | --- | --- | --- |
    rows.map(|row| {
        let cells = cells(row);
        (cells[0].clone(), cells[1].clone())
    })
    .collect()
}

/// Whether `doc`'s table lists `fields`: the same names in the same order, each documented
/// size a product of factors (`3 × 4 × 9`) equal to the declared size, where a factor is a
/// number or a symbol (North Wind's `T`, its number of card types) that stands for one value
/// throughout the table. `symbols` keeps the symbols' values across calls. Says the first
/// difference.
pub fn check_documented(doc: &str, fields: &[Field], symbols: &mut BTreeMap<String, usize>) -> Result<(), String> {
    let documented = documented_fields(doc);
    let names: Vec<&str> = documented.iter().map(|(n, _)| n.as_str()).collect();
    let declared: Vec<&str> = fields.iter().map(|f| f.name).collect();
    if names != declared {
        return Err(format!("docs/games/{doc}.md lists the fields {names:?}; the code declares {declared:?}"));
    }
    for ((name, size), field) in documented.iter().zip(fields) {
        let mut known = 1;
        let mut unknown = None;
        for factor in size.split('×').map(str::trim) {
            match factor.parse::<usize>() {
                Ok(n) => known *= n,
                Err(_) if symbols.contains_key(factor) => known *= symbols[factor],
                Err(_) if unknown.is_none() => unknown = Some(factor),
                Err(_) => return Err(format!("{doc}: field {name:?}: cannot read the size {size:?}")),
            }
        }
        match unknown {
            Some(symbol) if known > 0 && field.size % known == 0 => {
                symbols.insert(symbol.to_string(), field.size / known);
            }
            None if known == field.size => {}
            _ => {
                return Err(format!(
                    "docs/games/{doc}.md gives field {name:?} the size {size:?}; the code declares {} ({symbols:?})",
                    field.size
                ))
            }
        }
    }
    Ok(())
}

/// Checks every configuration of game `name` against the table of its page,
/// `docs/games/<name>.md` (each configuration with its own symbols).
pub fn check_game(name: &str) -> Result<(), String> {
    for config in crate::games::all_configurations(name) {
        let game: std::sync::Arc<dyn DynGame> = crate::games::load(name, &config).map_err(|e| e.to_string())?;
        check_documented(name, &game.observation_layout().fields, &mut BTreeMap::new())
            .map_err(|e| format!("{config:?}: {e}"))?;
    }
    Ok(())
}

/// An observation tensor split into its declared fields.
pub struct Decoded {
    tensor: Vec<f32>,
    layout: Vec<Field>,
}

impl Decoded {
    /// `tensor` read by `layout`; panics unless the sizes add up to its length.
    pub fn new(tensor: Vec<f32>, layout: Vec<Field>) -> Decoded {
        let end = layout.last().map_or(0, |f| f.start + f.size);
        assert_eq!(end, tensor.len(), "the fields' sizes add up to the tensor");
        Decoded { tensor, layout }
    }

    /// `player`'s observation of `state`, split into the fields its game declares.
    pub fn of<G: Game>(state: &GameState<G>, player: usize) -> Decoded {
        Decoded::new(state.observation_tensor(player).unwrap(), state.game().observation_layout().fields)
    }

    /// The values of the field named `name`.
    pub fn field(&self, name: &str) -> &[f32] {
        let f = self.layout.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no field {name:?}"));
        &self.tensor[f.start..f.start + f.size]
    }

    /// Row `i` of a field made of rows of `len` values.
    pub fn row(&self, name: &str, i: usize, len: usize) -> &[f32] {
        let f = self.field(name);
        assert_eq!(f.len() % len, 0, "{name}: rows of {len}");
        &f[i * len..(i + 1) * len]
    }
}

/// `len` values, 1 at `i` and 0 elsewhere (all 0 for `None`).
pub fn one_hot(len: usize, i: Option<usize>) -> Vec<f32> {
    (0..len).map(|k| (Some(k) == i) as u8 as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every listed game's doc table lists the fields its code declares, in every configuration.
    #[test]
    fn each_games_doc_table_lists_the_fields_the_code_declares() {
        for &name in crate::games::GAMES {
            check_game(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn a_table_that_differs_from_the_code_fails_the_check() {
        let fields = |sizes: &[(&'static str, usize)]| -> Vec<Field> {
            let mut start = 0;
            sizes
                .iter()
                .map(|&(name, size)| {
                    start += size;
                    Field { name, start: start - size, size }
                })
                .collect()
        };
        let game = crate::games::load("north-wind", &Default::default()).unwrap();
        let mut declared = game.observation_layout().fields;
        assert!(check_documented("north-wind", &declared, &mut BTreeMap::new()).is_ok());
        declared[2].size += 1;
        assert!(check_documented("north-wind", &declared, &mut BTreeMap::new()).is_err(), "a size");
        declared[2].size -= 1;
        declared.swap(0, 1);
        assert!(check_documented("north-wind", &declared, &mut BTreeMap::new()).is_err(), "the order");
        let short = fields(&[("observer", 4)]);
        assert!(check_documented("north-wind", &short, &mut BTreeMap::new()).is_err(), "a field missing");
        // "T" stands for one number throughout the table.
        let mut declared = game.observation_layout().fields;
        let revealed = declared.iter().position(|f| f.name == "revealed").unwrap();
        declared[revealed + 1].size += 1;
        assert!(check_documented("north-wind", &declared, &mut BTreeMap::new()).is_err(), "a symbol's value");
    }
}
