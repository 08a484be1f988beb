"""The statistics of a run, accumulated chunk by chunk in memory that does not grow with the
number of games: what a summary needs, without the per-game arrays.

:class:`RunStatistics` summarises each per-game array of ``_results.SCHEMA`` the way its row
says (``PerGameArray.stat``), cell by cell:

- ``"count"`` (the boolean arrays: ``winners``, ``truncated``, ``opponent_wins``): how many
  games hold True;
- ``"moments"`` (the numbers: scores, lengths, points by category, the opponents' scores):
  the mean, the sum of squared deviations from it (``m2``, whence the standard deviation),
  the minimum and the maximum;
- ``"levels"`` (``tier``, an index into the game's tiers): how many games reached each
  value, the first count being the games at ``fill`` (no tier);

and, across arrays, ``outcomes``: the games by how many seats and how many opponents that
are not seats won them (whence the games no seat won, won by an opponent, or shared).

Two statistics merge exactly in their counts, and in their moments by the pairwise update of
Chan, Golub and LeVeque (the mean and ``m2`` of the union from those of the parts), which is
as accurate as a computation over all the games at once: the means and spreads of a merged
run agree with numpy's over the same games to about 1e-12, relative to the spread of the
values. Merged in the same order (:class:`InOrder` merges a run's chunks in index order,
whatever order they finish in), the same chunks give the same bits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ._results import SCHEMA, Layout, PerGameArray, axis_sizes

__all__ = ["RunStatistics", "InOrder"]

#: The rows of a block over which :meth:`RunStatistics.of` computes moments at once; longer
#: arrays are taken block by block and merged, so that the temporary arrays stay small.
_BLOCK = 1 << 16


def _cells(a: PerGameArray, sizes: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(sizes[axis] for axis in a.axes)


class RunStatistics:
    """The statistics of ``games`` games of ``layout`` (see the module's documentation):
    ``count``, ``mean``, ``m2``, ``low``, ``high`` and ``levels`` map the name of a per-game
    array to an array of its cells (``levels``: of its values), ``outcomes`` has shape
    ``(players + 1, opponents + 1)``."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.games = 0
        sizes = axis_sizes(layout)
        self.count: dict[str, npt.NDArray[np.int64]] = {}
        self.mean: dict[str, npt.NDArray[np.float64]] = {}
        self.m2: dict[str, npt.NDArray[np.float64]] = {}
        self.low: dict[str, npt.NDArray[np.float64]] = {}
        self.high: dict[str, npt.NDArray[np.float64]] = {}
        self.levels: dict[str, npt.NDArray[np.int64]] = {}
        for a in SCHEMA:
            shape = _cells(a, sizes)
            if a.stat == "count":
                self.count[a.name] = np.zeros(shape, dtype=np.int64)
            elif a.stat == "moments":
                self.mean[a.name] = np.zeros(shape, dtype=np.float64)
                self.m2[a.name] = np.zeros(shape, dtype=np.float64)
                self.low[a.name] = np.full(shape, np.inf)
                self.high[a.name] = np.full(shape, -np.inf)
            elif a.stat == "levels":
                self.levels[a.name] = np.zeros(sizes[a.levels] + 1, dtype=np.int64)
            else:  # pragma: no cover - a schema row with an unknown kind
                raise ValueError(f"{a.name}: unknown statistic {a.stat!r}")
        self.outcomes = np.zeros((layout.players + 1, len(layout.opponents) + 1), dtype=np.int64)

    # ---- building and merging ------------------------------------------------------------

    @classmethod
    def of(cls, arrays: Mapping[str, npt.NDArray[Any]], layout: Layout) -> RunStatistics:
        """The statistics of the games whose per-game arrays are ``arrays`` (checked by the
        caller: every array of the schema, shaped for ``layout``)."""
        games = int(arrays["moves"].shape[0])
        if games > _BLOCK:
            total = cls(layout)
            for start in range(0, games, _BLOCK):
                total.add(cls.of({k: v[start:start + _BLOCK] for k, v in arrays.items()}, layout))
            return total
        out = cls(layout)
        out.games = games
        if games == 0:
            return out
        for a in SCHEMA:
            values = arrays[a.name]
            if a.stat == "count":
                out.count[a.name] = values.sum(axis=0, dtype=np.int64)
            elif a.stat == "moments":
                x = values.astype(np.float64, copy=False)
                mean = x.mean(axis=0)
                out.mean[a.name] = np.asarray(mean, dtype=np.float64)
                out.m2[a.name] = np.asarray(np.square(x - mean).sum(axis=0), dtype=np.float64)
                out.low[a.name] = np.asarray(x.min(axis=0), dtype=np.float64)
                out.high[a.name] = np.asarray(x.max(axis=0), dtype=np.float64)
            else:
                shifted = values.astype(np.int64) - int(a.fill)
                out.levels[a.name] = np.bincount(shifted, minlength=len(out.levels[a.name])).astype(np.int64)
        seats = arrays["winners"].sum(axis=1, dtype=np.int64)
        opponents = arrays["opponent_wins"].sum(axis=1, dtype=np.int64)
        width = out.outcomes.shape[1]
        out.outcomes = np.bincount(seats * width + opponents, minlength=out.outcomes.size).reshape(
            out.outcomes.shape).astype(np.int64)
        return out

    def add(self, other: RunStatistics) -> None:
        """Merges ``other``'s games into these (in place)."""
        if other.layout != self.layout:
            raise ValueError("cannot merge the statistics of games of different layouts")
        na, nb = self.games, other.games
        if nb == 0:
            return
        n = na + nb
        for name in self.count:
            self.count[name] = self.count[name] + other.count[name]
        for name in self.mean:
            if na == 0:
                self.mean[name] = other.mean[name].copy()
                self.m2[name] = other.m2[name].copy()
            else:
                delta = other.mean[name] - self.mean[name]
                self.mean[name] = self.mean[name] + delta * (nb / n)
                self.m2[name] = self.m2[name] + other.m2[name] + np.square(delta) * (na * nb / n)
            self.low[name] = np.minimum(self.low[name], other.low[name])
            self.high[name] = np.maximum(self.high[name], other.high[name])
        for name in self.levels:
            self.levels[name] = self.levels[name] + other.levels[name]
        self.outcomes = self.outcomes + other.outcomes
        self.games = n

    # ---- what a summary reads ------------------------------------------------------------

    def std(self, name: str) -> npt.NDArray[np.float64]:
        """The standard deviation of each cell of array ``name`` (over the games; NaN for none)."""
        if self.games == 0:
            return np.full(self.m2[name].shape, np.nan)
        return np.asarray(np.sqrt(self.m2[name] / self.games), dtype=np.float64)

    def total(self, name: str) -> npt.NDArray[np.float64]:
        """The sum of each cell of array ``name`` over the games (its mean times the games)."""
        return np.asarray(self.mean[name] * self.games, dtype=np.float64)

    def level_counts(self, name: str) -> npt.NDArray[np.int64]:
        """How many games reached each level of index array ``name`` (not counting the games
        at none)."""
        return self.levels[name][1:]

    @property
    def no_seat_won(self) -> int:
        """Games that no seat won."""
        return int(self.outcomes[0].sum())

    @property
    def won_by_an_opponent_alone(self) -> int:
        """Games that no seat won and an opponent that is not a seat did."""
        return int(self.outcomes[0, 1:].sum())

    @property
    def shared(self) -> int:
        """Games with more than one winner, seats and opponents together."""
        seats, opponents = np.indices(self.outcomes.shape)
        return int(self.outcomes[(seats + opponents) > 1].sum())

    # ---- files and transport -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (exact: floats are written so that they read back bit for bit)."""
        return {
            "games": self.games,
            "count": {k: v.tolist() for k, v in self.count.items()},
            "mean": {k: v.tolist() for k, v in self.mean.items()},
            "m2": {k: v.tolist() for k, v in self.m2.items()},
            "low": {k: v.tolist() for k, v in self.low.items()},
            "high": {k: v.tolist() for k, v in self.high.items()},
            "levels": {k: v.tolist() for k, v in self.levels.items()},
            "outcomes": self.outcomes.tolist(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], layout: Layout) -> RunStatistics:
        """The statistics :meth:`to_json` wrote, for games of ``layout``. Raises ``ValueError``
        when they do not fit the layout (or are not such statistics)."""
        out = cls(layout)
        try:
            out.games = int(data["games"])
            for field, dtype in (("count", np.int64), ("mean", np.float64), ("m2", np.float64),
                                 ("low", np.float64), ("high", np.float64), ("levels", np.int64)):
                target: dict[str, Any] = getattr(out, field)
                for name, empty in target.items():
                    value = np.asarray(data[field][name], dtype=dtype)
                    if value.shape != empty.shape:
                        raise ValueError(f"{field} of {name} has shape {value.shape}, not {empty.shape}")
                    target[name] = value
            outcomes = np.asarray(data["outcomes"], dtype=np.int64)
            if outcomes.shape != out.outcomes.shape:
                raise ValueError(f"outcomes have shape {outcomes.shape}, not {out.outcomes.shape}")
            out.outcomes = outcomes
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"statistics that do not fit the game ({type(e).__name__}: {e})") from None
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RunStatistics):
            return NotImplemented
        return self.layout == other.layout and json.dumps(self.to_json()) == json.dumps(other.to_json())

    def __repr__(self) -> str:
        return f"<RunStatistics of {self.games:,} games>"


class InOrder:
    """Merges the statistics of a run's chunks into ``total`` in chunk order, whatever order
    they arrive in, so that a run gives the same bits however it was played (threads, Dask,
    resumes). A chunk that arrives early waits in ``pending`` (a chunk or so per worker) until
    those before it are in. ``stored(index)`` gives the statistics of a chunk finished
    before this session (a resumed run's chunks on disk), or None for one still to come;
    ``note(index, meta)``, when given, sees the metadata of each chunk as it is merged."""

    def __init__(
        self,
        total: RunStatistics,
        chunks: int,
        stored: Callable[[int], tuple[RunStatistics, Mapping[str, Any]] | None] | None = None,
        note: Callable[[int, Mapping[str, Any]], None] | None = None,
    ) -> None:
        self.total = total
        self.chunks = chunks
        self.next = 0
        self.pending: dict[int, tuple[RunStatistics, Mapping[str, Any]]] = {}
        self._stored = stored
        self._note = note

    def add(self, index: int, stats: RunStatistics, meta: Mapping[str, Any] | None = None) -> None:
        """Takes chunk ``index``'s statistics (and its metadata)."""
        self.pending[index] = (stats, meta or {})
        self.advance()

    def advance(self) -> None:
        """Merges every chunk that is next in order and at hand."""
        while self.next < self.chunks:
            item = self.pending.pop(self.next, None)
            if item is None and self._stored is not None:
                item = self._stored(self.next)
            if item is None:
                return
            stats, meta = item
            self.total.add(stats)
            if self._note is not None:
                self._note(self.next, meta)
            self.next += 1

    @property
    def complete(self) -> bool:
        return self.next == self.chunks
