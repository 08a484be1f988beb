//! A game's observation tensor read through the table that documents it: the section
//! "Observation tensor" of `docs/games/<game>.md`, a table of `| Field | Size | Meaning |`
//! rows in the tensor's order. A game's tensor tests decode observations by the documented
//! field names, so a field added, removed, resized or moved in the code without the table (or
//! the other way round) fails them.

use std::path::Path;

/// One documented field: its name, where it starts in the tensor and how many values it has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub start: usize,
    pub size: usize,
}

/// The fields of `docs/games/<doc>.md`'s "Observation tensor" table, in order. A size is a
/// product of factors (`3 × 4`), each a number or one of `symbols` (North Wind's `T`, the
/// number of card types, say). Panics, naming the problem, when the doc or its table cannot be
/// read.
pub fn documented_layout(doc: &str, symbols: &[(&str, usize)]) -> Vec<Field> {
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
    let mut layout = Vec::new();
    let mut start = 0;
    for row in rows {
        let cells = cells(row);
        let size: usize = cells[1]
            .split('×')
            .map(|factor| {
                let factor = factor.trim();
                symbols
                    .iter()
                    .find(|(symbol, _)| *symbol == factor)
                    .map(|&(_, value)| value)
                    .or_else(|| factor.parse().ok())
                    .unwrap_or_else(|| panic!("{}: cannot read the size {:?} of {:?}", path.display(), cells[1], cells[0]))
            })
            .product();
        layout.push(Field { name: cells[0].clone(), start, size });
        start += size;
    }
    layout
}

/// An observation tensor split into its documented fields.
pub struct Decoded {
    tensor: Vec<f32>,
    layout: Vec<Field>,
}

impl Decoded {
    /// `tensor` read by `layout`; panics unless the documented sizes add up to its length.
    pub fn new(tensor: Vec<f32>, layout: Vec<Field>) -> Decoded {
        let end = layout.last().map_or(0, |f| f.start + f.size);
        assert_eq!(end, tensor.len(), "the documented sizes add up to the tensor");
        Decoded { tensor, layout }
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
