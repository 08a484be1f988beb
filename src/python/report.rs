//! `ScoreReport`: a read-only view of [`crate::engine::ScoreReport`].

use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::engine::ScoreReport as EngineScoreReport;

/// Each player's score broken down by the rulebook's scoring categories.
#[pyclass(frozen, module = "tradewinds", name = "ScoreReport")]
pub struct ScoreReport {
    pub(crate) inner: EngineScoreReport,
}

/// The engine's report becomes this class wherever a binding returns one (`State.score_report`).
impl<'py> IntoPyObject<'py> for EngineScoreReport {
    type Target = ScoreReport;
    type Output = Bound<'py, ScoreReport>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Self::Output> {
        Bound::new(py, ScoreReport { inner: self })
    }
}

#[pymethods]
impl ScoreReport {
    /// Scoring categories, in rulebook order.
    #[getter]
    fn categories(&self) -> Vec<String> {
        self.inner.categories.clone()
    }
    /// `points[player][category]`.
    #[getter]
    fn points(&self) -> Vec<Vec<f64>> {
        self.inner.points.clone()
    }
    /// Each player's total (the sum of the categories).
    #[getter]
    fn totals(&self) -> Vec<f64> {
        self.inner.totals.clone()
    }
    /// Names of the tie-breakers, in the order they apply.
    #[getter]
    fn tie_breakers(&self) -> Vec<String> {
        self.inner.tie_breakers.clone()
    }
    /// `tie_breaker_values[player][i]`.
    #[getter]
    fn tie_breaker_values(&self) -> Vec<Vec<f64>> {
        self.inner.tie_breaker_values.clone()
    }
    /// The winning seats (empty before the end, in a truncated game, and when no seat won).
    #[getter]
    fn winners(&self) -> Vec<usize> {
        self.inner.winners.clone()
    }
    /// The opponents that are not seats, as `(name, points by category, total)`.
    #[getter]
    fn opponents(&self) -> Vec<(String, Vec<f64>, f64)> {
        self.inner.opponents.iter().map(|o| (o.name.clone(), o.points.clone(), o.total)).collect()
    }
    /// The opponents (indices into `opponents`) that won.
    #[getter]
    fn opponent_winners(&self) -> Vec<usize> {
        self.inner.opponent_winners.clone()
    }
    /// Who or what won, in words (`P0`, `Vikings`, ...); empty when nobody did.
    #[getter]
    fn winner_names(&self) -> Vec<String> {
        self.inner.winner_names()
    }
    /// The reward tier or difficulty goal reached (None when none was).
    #[getter]
    fn tier(&self) -> Option<String> {
        self.inner.tier.clone()
    }
    #[getter]
    fn terminal(&self) -> bool {
        self.inner.terminal
    }
    #[getter]
    fn truncated(&self) -> bool {
        self.inner.truncated
    }
    /// Free-text notes (for example how the game was decided).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.inner.notes.clone()
    }

    /// All fields as a plain dict (points as a list of lists).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = &self.inner;
        let d = PyDict::new(py);
        d.set_item("categories", r.categories.clone())?;
        d.set_item("points", r.points.clone())?;
        d.set_item("totals", r.totals.clone())?;
        d.set_item("tie_breakers", r.tie_breakers.clone())?;
        d.set_item("tie_breaker_values", r.tie_breaker_values.clone())?;
        d.set_item("winners", r.winners.clone())?;
        d.set_item("opponents", self.opponents())?;
        d.set_item("opponent_winners", r.opponent_winners.clone())?;
        d.set_item("tier", r.tier.clone())?;
        d.set_item("terminal", r.terminal)?;
        d.set_item("truncated", r.truncated)?;
        d.set_item("notes", r.notes.clone())?;
        Ok(d)
    }

    /// A plain-text table: one row per category, one column per player.
    fn to_table(&self) -> String {
        self.inner.to_table()
    }

    fn __str__(&self) -> String {
        self.inner.to_table()
    }

    /// The score table as HTML, for notebooks.
    fn _repr_html_(&self) -> String {
        super::html::score_report(&self.inner)
    }

    fn __repr__(&self) -> String {
        let totals: Vec<String> = self.inner.totals.iter().map(|t| format!("{t}")).collect();
        let status = if self.inner.truncated {
            "truncated"
        } else if self.inner.terminal {
            "terminal"
        } else {
            "in progress"
        };
        format!(
            "<ScoreReport {status} totals=[{}] winners={:?}>",
            totals.join(", "),
            self.inner.winners
        )
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.inner == other.inner
    }

    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;
}
