//! The observation tensor, written field by field. A game declares each field once, in
//! [`crate::engine::View::observation`]: its name, its size, the bounds of its values and, from
//! the state, the values themselves. From that one declaration the engine writes a seat's
//! tensor ([`Tensor::values`], without allocating), and lists the fields and their bounds
//! ([`Layout`]) for any configuration.

/// One field of a game's observation tensor: its name, where it starts and how many values
/// it has. The fields follow one another, in the order the game declares them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub start: usize,
    pub size: usize,
}

/// A configuration's observation tensor described: its fields in order, and the least and
/// the greatest value of each entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub fields: Vec<Field>,
    pub low: Vec<f32>,
    pub high: Vec<f32>,
}

impl Layout {
    /// The tensor's length: the sum of the fields' sizes.
    pub fn len(&self) -> usize {
        self.low.len()
    }

    pub fn is_empty(&self) -> bool {
        self.low.is_empty()
    }

    /// The field named `name`, if the tensor has one.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The writer a game's [`crate::engine::View::observation`] declares its fields into. When
/// writing a seat's tensor it only writes values; when the engine lays the tensor out it also
/// records each field and its bounds (the values then go to a scratch buffer and are dropped).
pub struct Tensor<'a> {
    values: &'a mut [f32],
    at: usize,
    layout: Option<&'a mut Layout>,
}

impl<'a> Tensor<'a> {
    /// A writer of values into `out`, which must be zero and of the tensor's length.
    #[inline]
    pub fn values(out: &'a mut [f32]) -> Tensor<'a> {
        Tensor { values: out, at: 0, layout: None }
    }

    /// A writer that records the fields and bounds into `layout` (emptied first), writing the
    /// values into `scratch` (zero, at least the tensor's length).
    pub fn layout(scratch: &'a mut [f32], layout: &'a mut Layout) -> Tensor<'a> {
        layout.fields.clear();
        layout.low.clear();
        layout.high.clear();
        Tensor { values: scratch, at: 0, layout: Some(layout) }
    }

    /// How many values the fields declared so far hold.
    #[inline]
    pub fn len(&self) -> usize {
        self.at
    }

    pub fn is_empty(&self) -> bool {
        self.at == 0
    }

    /// Declares the next field, `name`, of `size` values, each between `low` and `high`, and
    /// returns its values (zero) to be written.
    #[inline]
    pub fn field(&mut self, name: &'static str, size: usize, low: f32, high: f32) -> Slot<'_> {
        self.field_with(name, size, |b| b.put(size, low, high))
    }

    /// Declares the next field, `name`, of `size` values whose bounds differ from value to
    /// value: `bounds` gives them in order (it runs only when the engine lays the tensor out).
    /// Returns the field's values (zero) to be written.
    #[inline]
    pub fn field_with(&mut self, name: &'static str, size: usize, bounds: impl FnOnce(&mut Bounds<'_>)) -> Slot<'_> {
        let start = self.at;
        self.at += size;
        if let Some(layout) = self.layout.as_deref_mut() {
            layout.fields.push(Field { name, start, size });
            layout.low.resize(start + size, 0.0);
            layout.high.resize(start + size, 0.0);
            let mut b = Bounds { low: &mut layout.low[start..], high: &mut layout.high[start..], at: 0 };
            bounds(&mut b);
            assert_eq!(b.at, size, "the bounds of field {name:?} cover its {size} values");
        }
        Slot { values: &mut self.values[start..start + size], at: 0 }
    }
}

/// The bounds of one field's values, given in order.
pub struct Bounds<'a> {
    low: &'a mut [f32],
    high: &'a mut [f32],
    at: usize,
}

impl Bounds<'_> {
    /// The next `n` values lie between `low` and `high`.
    pub fn put(&mut self, n: usize, low: f32, high: f32) {
        self.low[self.at..self.at + n].fill(low);
        self.high[self.at..self.at + n].fill(high);
        self.at += n;
    }

    /// The next values lie between 0 and `high`, one value each.
    pub fn highs(&mut self, high: &[f32]) {
        self.high[self.at..self.at + high.len()].copy_from_slice(high);
        self.at += high.len();
    }
}

/// The values of one field, written in order from its start (`put`, `one_hot`, `mask`,
/// `skip`, `next`) or at a place within it (`set`, `add`). A write past the field's end panics.
pub struct Slot<'a> {
    values: &'a mut [f32],
    at: usize,
}

impl<'a> Slot<'a> {
    /// Writes the next value.
    #[inline]
    pub fn put(&mut self, v: f32) -> &mut Self {
        self.values[self.at] = v;
        self.at += 1;
        self
    }

    /// Writes the next `n` values: 1 at `i` and 0 elsewhere (all 0 when `i >= n`).
    #[inline]
    pub fn one_hot(&mut self, n: usize, i: usize) -> &mut Self {
        if i < n {
            self.values[self.at + i] = 1.0;
        }
        self.at += n;
        self
    }

    /// Writes the next `n` values: 1 at each bit of `bits` set below `n`, 0 elsewhere.
    #[inline]
    pub fn mask(&mut self, n: usize, bits: u64) -> &mut Self {
        let mut m = if n >= 64 { bits } else { bits & ((1u64 << n) - 1) };
        while m != 0 {
            self.values[self.at + m.trailing_zeros() as usize] = 1.0;
            m &= m - 1;
        }
        self.at += n;
        self
    }

    /// Leaves the next `n` values 0.
    #[inline]
    pub fn skip(&mut self, n: usize) -> &mut Self {
        self.at += n;
        self
    }

    /// The next `n` values, to write as a slice.
    #[inline]
    pub fn next(&mut self, n: usize) -> &mut [f32] {
        self.at += n;
        &mut self.values[self.at - n..self.at]
    }

    /// Writes value `i` of the field.
    #[inline]
    pub fn set(&mut self, i: usize, v: f32) -> &mut Self {
        self.values[i] = v;
        self
    }

    /// Adds `v` to value `i` of the field.
    #[inline]
    pub fn add(&mut self, i: usize, v: f32) -> &mut Self {
        self.values[i] += v;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declare(t: &mut Tensor<'_>, x: f32) {
        t.field("flags", 3, 0.0, 1.0).one_hot(3, 1);
        t.field_with("counts", 2, |b| {
            b.put(1, -1.0, 4.0);
            b.highs(&[9.0]);
        })
        .put(x)
        .put(2.0);
    }

    #[test]
    fn one_declaration_gives_the_values_the_fields_and_the_bounds() {
        let mut out = [0.0; 5];
        declare(&mut Tensor::values(&mut out), 3.0);
        assert_eq!(out, [0.0, 1.0, 0.0, 3.0, 2.0]);
        let (mut scratch, mut layout) = ([0.0; 5], Layout { fields: vec![], low: vec![], high: vec![] });
        declare(&mut Tensor::layout(&mut scratch, &mut layout), 0.0);
        assert_eq!(
            layout.fields,
            [Field { name: "flags", start: 0, size: 3 }, Field { name: "counts", start: 3, size: 2 }]
        );
        assert_eq!(layout.low, [0.0, 0.0, 0.0, -1.0, 0.0]);
        assert_eq!(layout.high, [1.0, 1.0, 1.0, 4.0, 9.0]);
    }

    #[test]
    #[should_panic]
    fn a_write_past_a_fields_end_panics() {
        let mut out = [0.0; 5];
        Tensor::values(&mut out).field("flags", 3, 0.0, 1.0).skip(3).put(1.0);
    }
}
