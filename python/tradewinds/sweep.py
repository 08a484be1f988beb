"""Sweeps: how the game-design metrics respond to edits of a game's component data.

:func:`sweep` plays the base game and each variant of it over the same game seeds and
reports every metric of each variant as a difference from the base game, with a paired 95%
interval::

    import tradewinds as tw

    result = tw.sweep("nauticus", tw.grid({"rules.duplicate_price": [2, 3, 5, 6]}), games=2000,
                      players=3, seed=1)
    print(result)
    print(result.difference("rules.duplicate_price=6", "decisions"))

**Variants.** A variant is a name and its edits of the component data file (the shipped
one, :func:`tradewinds.data_text`, or the one the game was loaded with): ``{"cheap
duplicates": {"rules.duplicate_price": 2}}``. A path names a field by its keys and list
indices, dot-separated (``rules.duplicate_price``, ``prices.0.prices``, ``prices.0.prices.1``);
where it names a sourced number (``{"value": 4, "source": "printed"}``) a value that is not
an object replaces its ``value``, otherwise the value replaces the field. :func:`grid` makes
the variants of every combination of values of several paths. A variant whose edits name no
field, or whose file the game refuses (a :class:`~tradewinds.DataFileError` naming the
field), or that cannot set up a game, is reported by name with its ``error``, and the other
variants are played.

**Pairing.** Every variant, and the base game, is played by :func:`tradewinds.simulate` with
the same ``seed`` and ``games``: game ``i`` of each starts from the same seeds (the same
shuffles and chance streams, and the same agents' random streams, as far as the edited game
draws them alike), so the luck of the deal largely cancels out of each difference (common
random numbers).

**Intervals.** A difference is the variant's metric less the base game's, over all the games.
Its 95% interval is a paired percentile bootstrap over the game seeds: each of ``bootstrap``
resamples (1,000 by default, from the fixed seed :data:`BOOTSTRAP_SEED`) draws ``games`` game
indices with replacement and takes the same indices in the base game and in every variant, and
the interval runs from the 2.5th to the 97.5th percentile of the resampled differences. A
variant whose games equal the base game's has every difference 0 with an interval of width 0.
The intervals are deterministic: the same games give the same numbers.

**Where it runs.** On local threads (``threads``), or with ``client`` (a
``dask.distributed.Client``) on a Dask cluster. With ``out=DIR`` each run streams into its own
run directory (``DIR/base``, ``DIR/variant-000``, ...) beside the sweep's manifest
(``DIR/sweep.json``), and ``resume=True`` finishes an interrupted sweep: finished chunks are kept,
only the missing ones are played (a finished sweep is read back the same way, playing nothing). Results depend only on the game, the variants, the agents,
``games`` and ``seed``.
"""

from __future__ import annotations

import copy
import html
import itertools
import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import Game, TradewindsError, shipped_data
from ._core import load as _load
from ._optional import import_optional
from .agents import Agent, agent_label, normalize_agents
from .balance import COMEBACK_THRESHOLD, Contribution, Metrics, contributions
from .bulk import _check_int, _resolve_game, simulate
from .simulation import ProgressBar, SimulationResult, plot_format
from .tournament import _open_directory

__all__ = ["sweep", "grid", "SweepResult", "Variant", "Difference", "apply_edits", "MANIFEST", "BOOTSTRAP_SEED"]

#: The sweep's own manifest in its directory, beside the runs' directories.
MANIFEST = "sweep.json"
#: The seed of the paired bootstrap's resampling of game indices.
BOOTSTRAP_SEED = 34
#: Resampled game indices held at once (the bootstrap runs in blocks of resamples).
_BLOCK = 2_000_000


@dataclass(frozen=True)
class Difference:
    """One metric of a variant against the base game: the ``base`` game's value, the
    variant's ``value``, their ``difference`` (value - base) and its paired 95% interval
    ``low .. high`` (see the module's documentation), over ``games`` paired games."""

    metric: str
    base: float
    value: float
    difference: float
    low: float
    high: float
    games: int

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the interval of the difference (ends included)."""
        return self.low <= x <= self.high


@dataclass(frozen=True)
class Variant:
    """One variant of a sweep (or its base game, named ``base``, without edits): its ``name``,
    its ``edits`` (path: value), the ``error`` that kept it from being played (None if it was
    played), its :class:`~tradewinds.Metrics`, its games (``result``, a
    :class:`~tradewinds.SimulationResult`) and its ``differences`` from the base game, one a
    metric (empty for the base game and for a variant that was not played)."""

    name: str
    edits: dict[str, Any]
    error: str | None = None
    metrics: Metrics | None = None
    result: SimulationResult | None = field(default=None, repr=False)
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the variant was played."""
        return self.error is None

    def difference(self, metric: str) -> Difference:
        for d in self.differences:
            if d.metric == metric:
                return d
        raise KeyError(f"variant {self.name!r} has no difference for {metric!r}")


def grid(axes: Mapping[str, Sequence[Any]]) -> dict[str, dict[str, Any]]:
    """The variants of every combination of the values of ``axes`` (path: values), the first
    path varying slowest, each named by its edits: ``tw.grid({"rules.duplicate_price": [3, 5],
    "rules.starting_taler": [12, 18]})`` gives four variants, the first named
    ``rules.duplicate_price=3, rules.starting_taler=12``."""
    if not isinstance(axes, Mapping) or not axes:
        raise ValueError("grid() needs a dict of path: [values], with at least one path")
    paths = list(axes)
    lists = []
    for path in paths:
        values = axes[path]
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise ValueError(f"grid(): the values of {path!r} must be a non-empty list, got {values!r}")
        lists.append(list(values))
    out: dict[str, dict[str, Any]] = {}
    for combo in itertools.product(*lists):
        edits = dict(zip(paths, combo))
        out[_edit_name(edits)] = edits
    return out


def _edit_name(edits: Mapping[str, Any]) -> str:
    return ", ".join(f"{path}={json.dumps(value, separators=(',', ':'))}" for path, value in edits.items())


class _EditError(ValueError):
    pass


def apply_edits(data: Mapping[str, Any], edits: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the data file ``data`` (its JSON object) with ``edits`` (path: value) made;
    see the module's documentation for paths. A path that names no field raises
    ``ValueError`` saying which part is missing and what is there."""
    out: dict[str, Any] = copy.deepcopy(dict(data))
    for path, value in edits.items():
        if not isinstance(path, str) or not path:
            raise _EditError(f"a path is a dot-separated string of keys and indices, got {path!r}")
        parts = path.split(".")
        node: Any = out
        for i, part in enumerate(parts):
            where = ".".join(parts[:i]) or "the file"
            if isinstance(node, list):
                if not part.isdigit() or int(part) >= len(node):
                    raise _EditError(f"{path}: {where} is a list of {len(node)}; {part!r} is not an index of it")
                key: Any = int(part)
            elif isinstance(node, dict):
                if part not in node:
                    raise _EditError(f"{path}: {where} has no field {part!r} (it has {', '.join(map(str, node))})")
                key = part
            else:
                raise _EditError(f"{path}: {where} is a value, not an object or a list")
            if i == len(parts) - 1:
                here = node[key]
                if isinstance(here, dict) and "value" in here and not isinstance(value, dict):
                    here["value"] = copy.deepcopy(value)
                else:
                    node[key] = copy.deepcopy(value)
            else:
                node = node[key]
    return out


def _lookup(data: Mapping[str, Any], path: str) -> Any:
    """The value at ``path`` in ``data`` (a sourced number's ``value``), or None where the path
    names no field."""
    node: Any = data
    for part in path.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    if isinstance(node, dict) and "value" in node:
        return node["value"]
    return node


def _base_data(game: Game) -> dict[str, Any]:
    """The data file the game was built from: its own (a game loaded with ``data=``), else the
    shipped one."""
    config = json.loads(game.config_json())
    if isinstance(config.get("data"), dict):
        return dict(config["data"])
    text = shipped_data(game.name)
    if text is None:
        raise ValueError(f"{game.name} ships no component data file to edit")
    return dict(json.loads(text))


def _variant_game(game: Game, data: Mapping[str, Any], seed: int) -> Game:
    """The game with data file ``data``; set up once (game 0's seed) so that a file the game
    accepts but cannot deal from is refused here, not halfway through the run."""
    options = {k: v for k, v in json.loads(game.config_json()).items() if k not in ("game", "data")}
    variant = _load(game.name, {**options, "data": dict(data)})
    variant.new_state(seed)
    return variant


def _check_variants(variants: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    if not isinstance(variants, Mapping):
        raise TypeError(f"variants must be a dict of name: {{path: value}} (see tw.grid), not "
                        f"{type(variants).__name__}")
    out: dict[str, dict[str, Any]] = {}
    for name, edits in variants.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"a variant's name is a non-empty string, got {name!r}")
        if name == "base":
            raise ValueError("'base' names the base game; give the variant another name")
        if not isinstance(edits, Mapping):
            raise TypeError(f"variant {name!r}: its edits are a dict of path: value, not {type(edits).__name__}")
        out[name] = dict(edits)
    return out


def sweep(
    game_or_name: Game | str,
    variants: Mapping[str, Mapping[str, Any]],
    games: int = 1000,
    *,
    agents: Sequence[Agent] | None = None,
    seed: int = 0,
    threads: int = 0,
    client: Any = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool | Callable[[int], object] = False,
    chunk_games: int | None = None,
    metrics: bool | None = None,
    bootstrap: int = 1000,
    comeback: float = COMEBACK_THRESHOLD,
    **options: Any,
) -> SweepResult:
    """Plays the base game and every variant of ``variants`` (``{name: {path: value}}``, or
    :func:`grid`'s) over the same ``games`` game seeds, and returns each variant's metrics
    and their paired differences from the base game (a :class:`SweepResult`; see the module's
    documentation for paths, the pairing and the intervals).

    Pairing: the base game and every variant are played by :func:`tradewinds.simulate` with the
    same ``seed`` and ``games``, so game ``i`` of each starts from the same seeds (common random
    numbers). Interval: a paired percentile bootstrap over the game seeds, ``bootstrap``
    resamples of ``games`` game indices drawn with replacement from the fixed seed
    :data:`BOOTSTRAP_SEED`, the same indices in the base game and in every variant; the 2.5th
    and 97.5th percentiles of the resampled differences.

    ``game_or_name``: a :class:`~tradewinds.Game` (its data file is the base the edits apply
    to) or a game name whose options follow as keywords. ``agents``, ``seed``, ``threads``,
    ``chunk_games`` and ``progress`` are those of :func:`tradewinds.simulate`. ``client``: a
    ``dask.distributed.Client`` whose workers play the games. ``out``: a directory holding
    the sweep (its manifest, ``sweep.json``, and a run directory for the base game and for
    each variant played; needs pyarrow); ``resume=True`` finishes the sweep there, and a
    directory that holds another sweep (another game, variants, agents, games or seed) is
    refused, naming the difference. ``metrics``: measure the trajectory metrics as the games
    are played (default: when every agent is built in). ``bootstrap``: the paired bootstrap's
    resamples (0: no intervals). ``comeback``: see :meth:`tradewinds.SimulationResult.metrics`.
    """
    game = _resolve_game(game_or_name, options)
    _check_int("games", games, 1)
    _check_int("seed", seed, 0, (1 << 64) - 1)
    _check_int("bootstrap", bootstrap, 0)
    if resume and out is None:
        raise ValueError("resume=True needs out=DIR, the directory of the sweep to resume")
    edits_of = _check_variants(variants)
    seats = normalize_agents(game, agents)
    if metrics is None:
        metrics = all(isinstance(a, str) for a in seats)
    base_data = _base_data(game)

    # The variants' games, or why a variant cannot be played.
    built: dict[str, Game | str] = {}
    for name, edits in edits_of.items():
        try:
            built[name] = _variant_game(game, apply_edits(base_data, edits), seed)
        except (_EditError, TradewindsError, ValueError, TypeError) as e:
            built[name] = f"{type(e).__name__}: {e}" if not isinstance(e, _EditError) else str(e)

    labels = [agent_label(a) for a in seats]
    manifest: dict[str, Any] = {
        "kind": "tradewinds-sweep",
        "version": 1,
        "game": game.name,
        "config": json.loads(game.config_json()),
        "variants": [{"name": n, "edits": e} for n, e in edits_of.items()],
        "agents": labels,
        "games": games,
        "seed": seed,
        "metrics": metrics,
    }
    # As the directory holds it (tuples as lists), so that a resumed call compares equal.
    manifest = json.loads(json.dumps(manifest))
    where = _open_directory(out, manifest, resume, MANIFEST, "sweep") if out is not None else None
    runs = [("base", game)] + [(n, g) for n, g in built.items() if isinstance(g, Game)]
    bar: ProgressBar | None = None
    report: Callable[[int], object] | bool = False
    if progress is True:
        bar = ProgressBar(games * len(runs), sys.stderr)
        report = bar.update
    elif callable(progress):
        report = progress
    index = {n: i for i, n in enumerate(edits_of)}
    results: dict[str, SimulationResult] = {}
    try:
        for name, g in runs:
            sub = None
            if where is not None:
                sub = where / ("base" if name == "base" else f"variant-{index[name]:03d}")
            results[name] = simulate(
                g, games, seed=seed, threads=threads, agents=seats, progress=report,
                backend="dask" if client is not None else "local", client=client, chunk_games=chunk_games,
                out=sub, resume=resume and sub is not None and sub.exists(), keep_games=True, metrics=metrics,
            )
    finally:
        if bar is not None:
            bar.close()
    paths = list(dict.fromkeys(p for edits in edits_of.values() for p in edits))
    return SweepResult._build(game, labels, edits_of, built, results, games=games, seed=seed,
                              bootstrap=bootstrap, comeback=comeback,
                              base_values={p: _lookup(base_data, p) for p in paths})


def _statistic(c: Contribution, idx: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """The metric of each resample (a row of game indices ``idx``)."""
    if c.spread:
        rates = c.num[idx].mean(axis=1)
        return np.asarray(rates.max(axis=1) - rates.min(axis=1), dtype=np.float64)
    num = c.num[idx].sum(axis=1)
    den = c.den[idx].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan), dtype=np.float64)


def paired_intervals(
    base: Mapping[str, Contribution], variants: Sequence[Mapping[str, Contribution]], games: int,
    resamples: int = 1000, seed: int = BOOTSTRAP_SEED,
) -> list[dict[str, tuple[float, float]]]:
    """For each variant, each metric's 95% paired percentile-bootstrap interval of its
    difference from ``base``: ``resamples`` draws of ``games`` game indices with replacement
    (from ``seed``), the same indices in the base game and in every variant."""
    names = [[m for m in v if m in base] for v in variants]
    diffs: list[dict[str, list[npt.NDArray[np.float64]]]] = [{m: [] for m in ns} for ns in names]
    if games >= 1 and resamples > 0:
        rng = np.random.default_rng(seed)
        block = max(1, min(resamples, _BLOCK // games))
        left = resamples
        while left > 0:
            b = min(block, left)
            left -= b
            idx = rng.integers(0, games, (b, games))
            for m, c in base.items():
                users = [k for k, ns in enumerate(names) if m in ns]
                if not users:
                    continue
                at_base = _statistic(c, idx)
                for k in users:
                    diffs[k][m].append(_statistic(variants[k][m], idx) - at_base)
    out: list[dict[str, tuple[float, float]]] = []
    for k, ns in enumerate(names):
        row: dict[str, tuple[float, float]] = {}
        for m in ns:
            d = np.concatenate(diffs[k][m]) if diffs[k][m] else np.empty(0)
            d = d[np.isfinite(d)]
            if len(d) == 0:
                row[m] = (math.nan, math.nan)
            else:
                lo, hi = np.percentile(d, [2.5, 97.5])
                row[m] = (float(lo), float(hi))
        out.append(row)
    return out


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.1f}"


def _signed(x: float) -> str:
    s = _num(x)
    return s if s == "-" or s.startswith("-") or x == 0 else "+" + s


@dataclass(frozen=True, eq=False)
class SweepResult:
    """What :func:`sweep` returns: the ``base`` game's :class:`Variant` and the
    ``variants``, in the order given (those that could not be played with their ``error``),
    each with its metrics and its paired ``differences`` from the base game; the
    ``base_values`` of the edited paths; the ``game``,
    its ``players`` and ``options``, the ``agents``, ``games``, ``seed`` and ``bootstrap``
    resamples that produced them."""

    game: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    games: int
    seed: int
    bootstrap: int
    base: Variant
    variants: list[Variant]
    #: The value of each edited path in the base game's data file (None where it names no field).
    base_values: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def _build(cls, game: Game, agents: list[str], edits_of: dict[str, dict[str, Any]],
               built: Mapping[str, Game | str], results: Mapping[str, SimulationResult], *, games: int,
               seed: int, bootstrap: int, comeback: float, base_values: dict[str, Any]) -> SweepResult:
        base_result = results["base"]
        base_metrics = base_result.metrics(comeback=comeback)
        layout = base_result.layout
        base_parts = contributions(base_result.arrays, layout, comeback=comeback)
        played = [n for n in edits_of if n in results]
        parts = [contributions(results[n].arrays, results[n].layout, comeback=comeback) for n in played]
        intervals = dict(zip(played, paired_intervals(base_parts, parts, games, bootstrap)))
        variants: list[Variant] = []
        for name, edits in edits_of.items():
            if name not in results:
                error = built[name]
                variants.append(Variant(name, edits, error=str(error)))
                continue
            m = results[name].metrics(comeback=comeback)
            diffs = []
            for metric in m.metrics:
                if metric.name not in base_metrics:
                    continue
                b = base_metrics[metric.name]
                lo, hi = intervals[name].get(metric.name, (math.nan, math.nan))
                diffs.append(Difference(metric.name, b.value, metric.value, metric.value - b.value, lo, hi, games))
            variants.append(Variant(name, edits, metrics=m, result=results[name], differences=diffs))
        options = {k: v for k, v in game.options.items() if k != "data"}
        return cls(game=game.name, players=game.players, options=options, agents=list(agents), games=games,
                   seed=seed, bootstrap=bootstrap, base=Variant("base", {}, metrics=base_metrics, result=base_result),
                   variants=variants, base_values=dict(base_values))

    # ---- access ---------------------------------------------------------------------------

    def variant(self, name: str) -> Variant:
        if name == "base":
            return self.base
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(f"no variant {name!r}; variants: {', '.join(v.name for v in self.variants)}")

    def difference(self, variant: str, metric: str) -> Difference:
        """The paired difference of ``metric`` between ``variant`` and the base game."""
        v = self.variant(variant)
        if not v.ok:
            raise KeyError(f"variant {variant!r} was not played: {v.error}")
        return v.difference(metric)

    @property
    def failed(self) -> list[Variant]:
        """The variants that could not be played, each with its ``error``."""
        return [v for v in self.variants if not v.ok]

    @property
    def paths(self) -> list[str]:
        """Every path the variants edit, in order of first appearance."""
        seen: list[str] = []
        for v in self.variants:
            for p in v.edits:
                if p not in seen:
                    seen.append(p)
        return seen

    # ---- output ---------------------------------------------------------------------------

    def rows(self) -> list[dict[str, Any]]:
        """One dict per played variant and metric: variant, each edited path's value, metric,
        base, value, difference, low, high, games."""
        out = []
        for v in self.variants:
            for d in v.differences:
                row: dict[str, Any] = {"variant": v.name}
                row.update({p: v.edits.get(p) for p in self.paths})
                row.update({"metric": d.metric, "base": d.base, "value": d.value, "difference": d.difference,
                            "low": d.low, "high": d.high, "games": d.games})
                out.append(row)
        return out

    def to_pandas(self) -> Any:
        """The differences as a pandas DataFrame, one row per played variant and metric
        (:meth:`rows`; needs pandas)."""
        pd = import_optional("pandas", "SweepResult.to_pandas()", "pandas", "`pip install 'tradewinds[pandas]'`")
        columns = ["variant", *self.paths, "metric", "base", "value", "difference", "low", "high", "games"]
        return pd.DataFrame(self.rows(), columns=columns)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the games, JSON-ready (NaN as None)."""

        def clean(x: Any) -> Any:
            if isinstance(x, float) and not math.isfinite(x):
                return None
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        def variant(v: Variant) -> dict[str, Any]:
            return {"name": v.name, "edits": v.edits, "error": v.error,
                    "metrics": v.metrics.to_dict()["metrics"] if v.metrics is not None else None,
                    "differences": [asdict(d) for d in v.differences]}

        out: dict[str, Any] = clean({
            "game": self.game, "players": self.players, "options": self.options, "agents": self.agents,
            "games": self.games, "seed": self.seed, "bootstrap": self.bootstrap,
            "bootstrap_seed": BOOTSTRAP_SEED, "base_values": self.base_values, "base": variant(self.base),
            "variants": [variant(v) for v in self.variants],
        })
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def _title(self) -> str:
        return (f"{self.game}, {self.players} seat{'s' if self.players != 1 else ''}: {len(self.variants)} "
                f"variant{'s' if len(self.variants) != 1 else ''}, {self.games:,} paired games each "
                f"(seed {self.seed}; {', '.join(self.agents)})")

    def _table(self, v: Variant, metrics: Sequence[str] | None) -> list[list[str]]:
        rows = [["metric", "base", "variant", "difference", "95% paired interval"]]
        for d in v.differences:
            if metrics is not None and d.metric not in metrics:
                continue
            rows.append([d.metric, _num(d.base), _num(d.value), _signed(d.difference),
                         f"{_signed(d.low)} .. {_signed(d.high)}"])
        return rows

    def summary(self, metrics: Sequence[str] | None = None) -> str:
        """The differences of each variant, as text (``metrics``: only these, by name)."""
        lines = [self._title()]
        for v in self.variants:
            edits = ", ".join(f"{p} = {json.dumps(x)}" for p, x in v.edits.items())
            lines.append("")
            if not v.ok:
                lines.append(f"variant {v.name!r} ({edits}) was not played: {v.error}")
                continue
            lines.append(f"variant {v.name!r} ({edits}):")
            rows = self._table(v, metrics)
            widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
            for k, r in enumerate(rows):
                lines.append("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                              for i, (c, w) in enumerate(zip(r, widths))).rstrip())
                if k == 0:
                    lines.append("  " + "  ".join("-" * w for w in widths))
        if self.bootstrap:
            lines.append("")
            lines.append(f"intervals: paired percentile bootstrap over the game seeds, {self.bootstrap:,} resamples "
                         f"(seed {BOOTSTRAP_SEED})")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<SweepResult {self.game} {self.players} seats, {len(self.variants)} variants "
                f"({len(self.failed)} not played), {self.games:,} games each>")

    def html_tables(self, metrics: Sequence[str] | None = None) -> str:
        """The differences of each variant as HTML tables (escaped)."""
        parts = []
        for v in self.variants:
            edits = html.escape(", ".join(f"{p} = {json.dumps(x)}" for p, x in v.edits.items()))
            name = html.escape(v.name)
            if not v.ok:
                parts.append(f"<p class='failed'><b>{name}</b> ({edits}) was not played: "
                             f"{html.escape(str(v.error))}</p>")
                continue
            rows = self._table(v, metrics)
            head = "".join(f"<th>{html.escape(h)}</th>" for h in rows[0])
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
            parts.append(f"<h4>{name} ({edits})</h4><table><tr>{head}</tr>{body}</table>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        return f"<div><b>{html.escape(self._title())}</b>{self.html_tables()}</div>"

    # ---- figures --------------------------------------------------------------------------

    def _axis(self) -> tuple[str | None, list[Variant]]:
        """The path the response curves run along (the only path every played variant edits
        with a number, and the only one edited), or None for variants shown side by side."""
        played = [v for v in self.variants if v.ok]
        if played and len(self.paths) == 1:
            path = self.paths[0]
            if all(isinstance(v.edits.get(path), (int, float)) and not isinstance(v.edits.get(path), bool)
                   for v in played):
                return path, sorted(played, key=lambda v: float(v.edits[path]))
        return None, played

    def figure(self, metrics: Sequence[str] | None = None) -> Any:
        """The response curves: for each metric (``metrics``, by name; default every one),
        its difference from the base game with the 95% paired interval against the swept
        value (one path of numbers; the base game's own value marked by a square at 0), or
        variant by variant. A ``matplotlib.figure.Figure``
        drawn off-screen; needs matplotlib."""
        needs = ("SweepResult.figure()", "matplotlib", "`pip install 'tradewinds[plot]'`")
        figure_mod = import_optional("matplotlib.figure", *needs)
        agg = import_optional("matplotlib.backends.backend_agg", *needs)
        path, played = self._axis()
        names = [d.metric for d in played[0].differences] if played else []
        if metrics is not None:
            names = [n for n in names if n in metrics]
        cols = min(3, max(1, len(names)))
        rows = max(1, -(-len(names) // cols))
        fig = figure_mod.Figure(figsize=(4.2 * cols, 2.9 * rows), layout="constrained")
        agg.FigureCanvasAgg(fig)
        axes = fig.subplots(rows, cols, squeeze=False).ravel()
        for ax, name in zip(axes, names):
            ds = [v.difference(name) for v in played]
            y = np.array([d.difference for d in ds])
            err = np.clip(np.vstack([y - np.array([d.low for d in ds]), np.array([d.high for d in ds]) - y]), 0, None)
            err = np.nan_to_num(err)
            if path is not None:
                x = np.array([float(v.edits[path]) for v in played])
                at = self.base_values.get(path)
                if isinstance(at, (int, float)) and not isinstance(at, bool):
                    # The base game itself: no difference, at its own value.
                    k = int(np.searchsorted(x, float(at)))
                    x, y = np.insert(x, k, float(at)), np.insert(y, k, 0.0)
                    err = np.insert(err, k, 0.0, axis=1)
                    ax.plot([float(at)], [0.0], marker="s", color="black", linestyle="none", zorder=3)
                ax.errorbar(x, y, yerr=err, marker="o", capsize=4)
                ax.set_xlabel(path + ("" if at is None else f" (base {at})"), fontsize=8)
            else:
                x = np.arange(len(played))
                ax.errorbar(x, y, yerr=err, marker="o", linestyle="none", capsize=4)
                ax.set_xticks(x, labels=[v.name[:24] for v in played], fontsize=7, rotation=30, ha="right")
            ax.axhline(0.0, color="grey", linewidth=1, linestyle="--")
            ax.set_title(f"{name} (base {_num(self.base.metrics[name].value) if self.base.metrics else '-'})",
                         fontsize=9)
            ax.tick_params(labelsize=7)
        for ax in axes[len(names):]:
            ax.set_visible(False)
        if not names:
            axes[0].set_visible(True)
            axes[0].text(0.5, 0.5, "no variant was played", ha="center", va="center", transform=axes[0].transAxes)
        fig.suptitle(f"{self.game}: difference from the base game (95% paired interval)")
        return fig

    def plot(self, path: str | os.PathLike[str], metrics: Sequence[str] | None = None) -> Path:
        """Writes :meth:`figure` to ``path`` (the extension names the format)."""
        path = Path(path)
        self.figure(metrics).savefig(path, format=plot_format(path), dpi=100)
        return path
