"""The per-game arrays of a simulation: their schema, and everything that follows from it.

``SCHEMA`` is the one list of the arrays a simulation returns for each game: name, element
type and shape. Allocation and checks for a number of games, the arrays of a range of games
and their assembly into a whole run, and the ``.npz`` files that hold them (saved results and
the chunks of a run directory) all derive from it, and so does every
:class:`~tradewinds.SimulationResult` (``result.arrays``, ``result.scores``, ...).

The axes of the arrays come from a game's :class:`Layout`: its seats, its scoring
categories, its opponents that are not seats (a solo game's automa, moved by the game itself)
and its reward tiers.

Adding a per-game array is one row here plus its fill in the Rust binding
(``Game.simulate`` in ``src/python/game.rs``), which returns every array for the games it
plays. The row also says how a run's statistics summarise the array (``stat``, see
``tradewinds._stats``) and gives, through its axes, the columns that hold it in the Parquet
chunks of a run directory (:func:`columns`). Games with Python agents are played by the Python loop in ``_play``, which leaves an
array it does not compute at its row's ``fill``. A row added after the first file format
gets ``since``, the format version of the files that first hold it, and both file formats
(saved results and the chunks of a run directory) move to that version: a saved result of an
older version lacks the array, and reads with it at its ``fill``; a run directory's chunks
are read at the current version only.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "Layout",
    "PerGameArray",
    "SCHEMA",
    "ARRAYS",
    "FILE_VERSION",
    "axis_sizes",
    "axis_labels",
    "BRANCHING_BINS",
    "branching_labels",
    "Column",
    "columns",
    "allocate",
    "check",
    "pick",
    "checksum",
    "RangeResult",
    "RunArrays",
    "NpzFormat",
    "write_npz",
    "read_npz",
]


@dataclass(frozen=True)
class Layout:
    """What the axes of a game's per-game arrays hold: ``players`` seats, the scoring
    ``categories`` (the columns of ``category_points``), the ``opponents`` that are not seats
    (the columns of ``opponent_scores`` and ``opponent_wins``) and the reward ``tiers``,
    lowest first (what ``tier`` indexes)."""

    players: int
    categories: tuple[str, ...]
    opponents: tuple[str, ...] = ()
    tiers: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        players: int,
        categories: Sequence[str],
        opponents: Sequence[str] | None = None,
        tiers: Sequence[str] | None = None,
    ) -> Layout:
        """A layout from lists of names (``None``: no opponents, no tiers)."""
        return cls(int(players), tuple(str(c) for c in categories),
                   tuple(str(o) for o in opponents or ()), tuple(str(t) for t in tiers or ()))

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> Layout:
        """The layout recorded in metadata (a saved result's, a run directory's manifest, the
        dict ``Game.simulate`` returns). Metadata written before opponents and tiers were
        recorded has neither: it reads as a game without opponents or tiers."""
        return cls.of(int(meta["players"]), meta["categories"], meta.get("opponents"), meta.get("tiers"))

    def to_meta(self) -> dict[str, Any]:
        """The entries :meth:`from_meta` reads."""
        return {"players": self.players, "categories": list(self.categories),
                "opponents": list(self.opponents), "tiers": list(self.tiers)}


@dataclass(frozen=True)
class PerGameArray:
    """One per-game array: ``name``, element type ``dtype``, and ``axes``, the names of its
    axes after the game axis (their lengths come from :func:`axis_sizes`): ``()`` for one
    value per game, ``("players",)`` for one per game and seat, and so on. ``fill`` is the
    value of a game not computed (allocated arrays start filled with it). ``since`` is the
    version of the result files that first hold it (older saved results read with it at
    ``fill``).

    ``stat`` is how a run's statistics (``tradewinds._stats``) summarise it, cell by cell
    (one cell per combination of its axes): ``"count"`` the games where it is True,
    ``"moments"`` its mean, spread, minimum and maximum, ``"levels"`` the games at each value
    of an index into the axis ``levels`` (``fill`` meaning none)."""

    name: str
    dtype: type[np.generic]
    axes: tuple[str, ...]
    doc: str
    fill: bool | int | float = 0
    since: int = 1
    stat: str = "moments"
    levels: str = ""

    def shape(self, games: int, sizes: Mapping[str, int]) -> tuple[int, ...]:
        return (games, *(sizes[axis] for axis in self.axes))


#: The per-game arrays, in the order they are saved.
SCHEMA: tuple[PerGameArray, ...] = (
    PerGameArray("scores", np.float64, ("players",), "final scores"),
    PerGameArray("winners", np.bool_, ("players",), "True where the player won (ties: every tied winner)",
                 stat="count"),
    PerGameArray("moves", np.uint64, (), "moves (decisions plus chance outcomes)"),
    PerGameArray("decisions", np.uint64, (), "player decisions"),
    PerGameArray("truncated", np.bool_, (), "the game hit its move bound", stat="count"),
    PerGameArray("category_points", np.float64, ("players", "categories"),
                 "points by scoring category (named in the result's categories)"),
    PerGameArray("opponent_scores", np.float64, ("opponents",),
                 "final totals of the opponents that are not seats (named in the result's opponents)", since=2),
    PerGameArray("opponent_wins", np.bool_, ("opponents",), "True where the opponent won", since=2,
                 stat="count"),
    PerGameArray("tier", np.int8, (), "the tier reached, an index into the result's tiers; -1 for none",
                 fill=-1, since=2, stat="levels", levels="tiers"),
    # The design metrics (``simulate(..., metrics=True)``; see ``docs/balance.md``): -1 (or 0)
    # in a game played without them.
    PerGameArray("turns", np.int64, (), "turns: runs of consecutive decisions by one seat (-1: not measured)",
                 fill=-1, since=3),
    PerGameArray("lead_changes", np.int64, (),
                 "times the sole leader by the game's evaluation changed (-1: not measured, or a solo game)",
                 fill=-1, since=3),
    PerGameArray("lead_from", np.int64, (),
                 "the decision from which the sole winner led to the end (-1: not measured, or no sole winner)",
                 fill=-1, since=3),
    PerGameArray("drama", np.float64, (),
                 "the sole winner's largest deficit in evaluation, over 2, in 0..1 (-1: not measured, or no "
                 "sole winner)", fill=-1, since=3),
    PerGameArray("legal_moves", np.uint64, (), "legal moves summed over the decisions (0: not measured)", since=3),
    PerGameArray("branching", np.uint32, ("branching",),
                 "decisions by legal moves, in bins 1, 2-3, 4-7, ... (zeros: not measured)", since=3),
)

#: Bins of the ``branching`` histogram (the engine's ``BRANCHING_BINS``): bin ``k`` counts the
#: decisions with ``2**k`` to ``2**(k+1) - 1`` legal moves, the last every decision with more.
BRANCHING_BINS = 12


def branching_labels() -> list[str]:
    """The bins of the ``branching`` histogram as text: ``1``, ``2-3``, ``4-7``, ..., ``2048+``."""
    out = []
    for k in range(BRANCHING_BINS):
        low, high = 1 << k, (1 << (k + 1)) - 1
        out.append(f"{low}+" if k == BRANCHING_BINS - 1 else str(low) if low == high else f"{low}-{high}")
    return out

#: The names of the per-game arrays, in the order of ``SCHEMA``.
ARRAYS: tuple[str, ...] = tuple(a.name for a in SCHEMA)


#: The newest version of the result files (saved results and run-directory chunks): the
#: highest ``since`` of the schema.
FILE_VERSION: int = max(a.since for a in SCHEMA)


def axis_sizes(layout: Layout) -> dict[str, int]:
    """The length of each named axis for a game of ``layout``: ``players`` (its seats),
    ``opponents`` (its opponents that are not seats), ``categories`` (its scoring
    categories), ``tiers`` (its reward tiers) and ``branching`` (the bins of the branching
    histogram, the same for every game)."""
    return {"players": layout.players, "opponents": len(layout.opponents), "categories": len(layout.categories),
            "tiers": len(layout.tiers), "branching": BRANCHING_BINS}


def _slug(name: str) -> str:
    """``name`` for a column name: lower case, each run of other characters than letters and
    digits one underscore, none at either end (``"contracts Northcape"``: ``contracts_northcape``)."""
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")


def axis_labels(layout: Layout) -> dict[str, list[str]]:
    """The label of each position of each named axis, as column names show it: ``p0``,
    ``p1``, ... for the seats; for the opponents, categories and tiers their names in lower
    case with every run of other characters than letters and digits made one underscore
    (``pace boat``: ``pace_boat``); the bins of the branching histogram are ``b1``, ``b2_3``,
    ..., ``b2048_plus``. A name that leaves nothing is its position with the axis's
    initial (``c2``); a label that repeats an earlier one of its axis gets its position
    appended (``gold_3``)."""
    out: dict[str, list[str]] = {"players": [f"p{p}" for p in range(layout.players)],
                                 "branching": ["b" + _slug(b.replace("+", "_plus")) for b in branching_labels()]}
    for axis, names in (("opponents", layout.opponents), ("categories", layout.categories), ("tiers", layout.tiers)):
        labels: list[str] = []
        for i, name in enumerate(names):
            label = _slug(name) or f"{axis[0]}{i}"
            labels.append(label if label not in labels else f"{label}_{i}")
        out[axis] = labels
    return out


@dataclass(frozen=True)
class Column:
    """One column of the tabular form of the per-game arrays (the Parquet chunks of a run
    directory): its ``name``, the per-game ``array`` it holds a cell of, and the ``cell``,
    the position along each of the array's axes (``()`` for an array of one value a game)."""

    name: str
    array: str
    cell: tuple[int, ...]


def columns(layout: Layout) -> list[Column]:
    """The columns that hold the per-game arrays of a game of ``layout``, one per cell of each
    array, in schema order and, within an array, in the order of its cells (row-major). A
    column is named after its array, then the labels of its cell along each axis
    (:func:`axis_labels`), the seat last: ``moves``, ``scores_p0``,
    ``category_points_contracts_northcape_p1``, ``opponent_wins_pace_boat``."""
    labels = axis_labels(layout)
    sizes = axis_sizes(layout)
    out = []
    for a in SCHEMA:
        shape = tuple(sizes[axis] for axis in a.axes)
        for cell in np.ndindex(*shape):
            parts = [labels[axis][i] for axis, i in zip(a.axes, cell) if axis != "players"]
            parts += [labels[axis][i] for axis, i in zip(a.axes, cell) if axis == "players"]
            out.append(Column("_".join([a.name, *parts]), a.name, tuple(int(i) for i in cell)))
    return out


def _filled(a: PerGameArray, games: int, sizes: Mapping[str, int]) -> npt.NDArray[Any]:
    # Zero-filled arrays come from calloc: their untouched pages cost nothing until filled.
    shape = a.shape(games, sizes)
    return np.zeros(shape, dtype=a.dtype) if a.fill == 0 else np.full(shape, a.fill, dtype=a.dtype)


def allocate(games: int, layout: Layout) -> dict[str, npt.NDArray[Any]]:
    """The per-game arrays of ``games`` games of ``layout``, each filled with its ``fill``.
    Raises ``ValueError`` (saying about how much memory they would take) when they do not fit."""
    sizes = axis_sizes(layout)
    try:
        return {a.name: _filled(a, games, sizes) for a in SCHEMA}
    except (MemoryError, ValueError):
        per_game = sum(np.dtype(a.dtype).itemsize * int(np.prod(a.shape(1, sizes))) for a in SCHEMA)
        raise ValueError(
            f"not enough memory for the results of {games:,} games (about {games * per_game / 2**30:,.1f} GiB); "
            "simulate fewer games per call"
        ) from None


def check(arrays: Mapping[str, Any], games: int, layout: Layout) -> None:
    """Raises ``ValueError`` unless ``arrays`` holds every per-game array, and only those,
    each with the type and shape of ``games`` games of ``layout`` (and every ``tier`` an index
    into its tiers, or -1)."""
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise ValueError(f"the arrays {', '.join(missing)} are missing")
    unknown = [name for name in arrays if name not in ARRAYS]
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: not per-game arrays (those are {', '.join(ARRAYS)})")
    sizes = axis_sizes(layout)
    for a in SCHEMA:
        value = arrays[a.name]
        shape = a.shape(games, sizes)
        if not isinstance(value, np.ndarray) or value.shape != shape or value.dtype != a.dtype:
            got = f"{value.dtype}{list(value.shape)}" if isinstance(value, np.ndarray) else type(value).__name__
            raise ValueError(f"{a.name} should be {np.dtype(a.dtype)}{list(shape)}, found {got}")
    tier = arrays["tier"]
    if tier.size and (int(tier.min()) < -1 or int(tier.max()) >= len(layout.tiers)):
        raise ValueError(f"tier holds {int(tier.min())}..{int(tier.max())}; the game's tiers are "
                         f"{list(layout.tiers)} (-1 for none)")


def pick(source: Mapping[str, Any]) -> dict[str, Any]:
    """The per-game arrays among the entries of ``source`` (the dict ``Game.simulate``
    returns, an open ``.npz`` file), in schema order; ``KeyError`` if one is missing."""
    return {name: source[name] for name in ARRAYS}


def checksum(arrays: Mapping[str, npt.NDArray[Any]]) -> str:
    """The SHA-256 (hex) of the games held in the per-game ``arrays``: each array in schema
    order, its name, element type and shape, then its values (little-endian). It depends on
    the games alone, not on how a file stores them."""
    digest = hashlib.sha256()
    for a in SCHEMA:
        value = np.ascontiguousarray(arrays[a.name])
        value = value.astype(value.dtype.newbyteorder("<"), copy=False)
        digest.update(f"{a.name}:{value.dtype.str}:{list(value.shape)};".encode("ascii"))
        digest.update(value.tobytes())
    return digest.hexdigest()


@dataclass(eq=False)
class RangeResult:
    """The per-game arrays of games ``first .. first + games`` of a run, the seconds they
    took and the threads that played them."""

    first: int
    games: int
    elapsed_seconds: float
    threads: int
    arrays: dict[str, npt.NDArray[Any]]

    def check(self, layout: Layout) -> None:
        """Raises ``ValueError`` unless every array has the type and shape of ``games`` games
        of ``layout``."""
        check(self.arrays, self.games, layout)


class RunArrays:
    """The per-game arrays of a whole run of ``games`` games of ``layout``, filled range by
    range in any order. They are allocated at once, so that a run too large for memory fails
    before it starts."""

    def __init__(self, layout: Layout, games: int) -> None:
        self.layout = layout
        self.games = games
        self.filled = 0
        self._arrays = allocate(games, layout)
        self._adoptable = True

    def add(self, part: RangeResult) -> None:
        """Fills in the games of ``part`` (checked first)."""
        part.check(self.layout)
        if part.first < 0 or part.first + part.games > self.games:
            raise ValueError(f"games {part.first}..{part.first + part.games} lie outside 0..{self.games}")
        if self._adoptable and part.first == 0 and part.games == self.games:
            # One range holds the whole run: adopt its arrays instead of copying them.
            self._arrays = dict(part.arrays)
        else:
            window = slice(part.first, part.first + part.games)
            for name in ARRAYS:
                self._arrays[name][window] = part.arrays[name]
        self._adoptable = False
        self.filled += part.games

    def complete(self) -> dict[str, npt.NDArray[Any]]:
        """The arrays, once every game is filled in (``ValueError`` before)."""
        if self.filled != self.games:
            raise ValueError(f"only {self.filled:,} of {self.games:,} games are filled in")
        return self._arrays


@dataclass(frozen=True)
class NpzFormat:
    """A kind of ``.npz`` file holding per-game arrays: the ``format`` tag and ``version`` its
    metadata carries (the version written; every version from 1 up to it is read), and what
    the file is called in error messages (``noun``)."""

    tag: str
    version: int
    noun: str


def write_npz(file: IO[bytes], kind: NpzFormat, meta: Mapping[str, Any], arrays: Mapping[str, Any]) -> None:
    """Writes a compressed ``.npz`` to ``file``: the entry ``meta``, a JSON object (``kind``'s
    tag and version, then ``meta``), and the per-game arrays."""
    header = {"format": kind.tag, "version": kind.version, **meta}
    np.savez_compressed(file, meta=np.array(json.dumps(header)), **pick(arrays))


def read_npz(
    file: str | os.PathLike[str] | IO[bytes], kind: NpzFormat, name: str, layout: Layout | None = None
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The metadata and the per-game arrays of a ``.npz`` of ``kind`` (``file`` is a path or
    a binary file object). Raises ``ValueError``, naming the file ``name``, when it is not
    such a file, has a newer format version or lacks arrays (the arrays' shapes are the
    caller's to check); errors reading the file pass through.

    A file of an older version lacks the arrays added since (``PerGameArray.since``): they
    come back at their ``fill``, shaped for ``layout``, the file's games' layout (by default
    the one its metadata records; see :meth:`Layout.from_meta`)."""
    with np.load(file, allow_pickle=False) as z:
        if "meta" not in z.files:
            raise ValueError(f"{name} is not a {kind.noun} (no metadata)")
        try:
            meta = json.loads(str(z["meta"]))
        except json.JSONDecodeError:
            raise ValueError(f"{name} is not a {kind.noun} (its metadata is not JSON)") from None
        if not isinstance(meta, dict) or meta.get("format") != kind.tag:
            raise ValueError(f"{name} is not a {kind.noun}")
        version = meta.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= kind.version:
            raise ValueError(
                f"{name} has {kind.tag} format version {version}; "
                f"this tradewinds reads version {kind.version}" + (" and older" if kind.version > 1 else "")
            )
        later = {a.name for a in SCHEMA if a.since > version}
        missing = [k for k in ARRAYS if k not in z.files and k not in later]
        if missing:
            raise ValueError(f"{name} lacks the arrays {', '.join(missing)}")
        present = {k: z[k] for k in ARRAYS if k in z.files}
    absent = [a for a in SCHEMA if a.name not in present]
    if absent:
        if layout is None:
            try:
                layout = Layout.from_meta(meta)
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{name} is not a {kind.noun} (its metadata lacks the game's layout)") from None
        games = present["moves"].shape[0] if present["moves"].ndim else 0
        sizes = axis_sizes(layout)
        present.update((a.name, _filled(a, games, sizes)) for a in absent)
    return meta, pick(present)
