"""Optimisation toward a target: the values of a few fields of a game's component data file
that bring a design metric closest to what is wanted (an even first seat, a length near 60
turns)::

    import tradewinds as tw

    result = tw.optimise("mistwind", {"rules.start_marker_points": (0, 8)},
                         tw.objectives.seat_advantage_even(), budget=20, games=400, players=3, seed=1)
    print(result)                 # the best values, their metrics with intervals, the search
    result.save("best.json")      # the best data file: tw.load("mistwind", data="best.json")
    result.to_pandas()            # the history, one row a trial

**Parameters.** ``parameters`` maps a path of the data file (as :func:`tradewinds.sweep`
names fields: ``rules.start_marker_points``, ``prices.0.prices.1``) to its search space: a
tuple ``(low, high)`` of integers (every integer between, ends included) or of floats (the
interval), or a list of choices (any JSON values). A value the game's data check refuses (out
of range, of the wrong type), or with which no game can be set up, is an infeasible trial: the
history reports it with the game's error and the search goes on.

**The optimiser.** Optuna's TPE sampler (the tree-structured Parzen estimator), seeded with
``seed``: it models which values gave good and bad objectives so far and proposes values
likelier to be good, from a handful of evaluations, over integer, real and categorical
spaces alike, and it needs no gradient and no smoothness. Its first ten trials (Optuna's
default) are drawn at random; the later ones follow the model. The search is sequential, so
the same arguments give the same trials and the same result.

**Noise.** Each trial plays ``games`` games on the same game seeds (``seed``; common random
numbers, as in a sweep), so two trials differ by their values, not by their luck; but their
objectives are estimates, and the best of many noisy estimates is optimistic (the winner's
curse). So the best ``reevaluate`` distinct candidates of the search are played again on fresh
seeds (a seed derived from ``seed``), with ``reevaluate_games`` games each (default four times
``games``), beside the unedited data file, and the best by that re-evaluation is the result;
its metrics, with their 95% intervals, are the re-evaluation's.
"""

from __future__ import annotations

import html
import json
import math
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ._core import Game, TradewindsError
from ._optional import import_optional
from .agents import Agent, agent_label, normalize_agents
from .balance import COMEBACK_THRESHOLD, Metrics
from .bulk import _check_int, _resolve_game, simulate
from .objectives import Objective
from .sweep import _EditError, _base_data, _lookup, _variant_game, apply_edits

__all__ = ["optimise", "OptimisationResult", "Trial", "Candidate", "reevaluation_seed"]

#: The re-evaluation's seeds are derived from the search's ``seed`` and this stream number.
_REEVALUATION_STREAM = 34


def reevaluation_seed(seed: int) -> int:
    """The seed of the re-evaluation's games: derived from the search's ``seed`` (numpy's
    ``SeedSequence``), so its games are fresh, not the search's."""
    state = np.random.SeedSequence([seed, _REEVALUATION_STREAM]).generate_state(1, np.uint64)
    return int(state[0])


@dataclass(frozen=True)
class Trial:
    """One trial of the search: its ``number`` (from 0), the ``params`` it tried (path:
    value), the ``objective`` on the search's games (None when it was not played), the
    ``error`` that made it infeasible (None when it was played) and, for a repeat of values
    already played, the trial it repeats (``repeat_of``: the same games, so the same
    objective, not played again)."""

    number: int
    params: dict[str, Any]
    objective: float | None
    error: str | None = None
    repeat_of: int | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Candidate:
    """A candidate of the re-evaluation: its ``params``, its objective in the search
    (``search_objective``) and on the re-evaluation's fresh games (``objective``), and those
    games' :class:`~tradewinds.Metrics`."""

    params: dict[str, Any]
    search_objective: float
    objective: float
    metrics: Metrics = field(repr=False)


def _space(optuna: Any, path: str, spec: Any) -> tuple[Any, Any]:
    """The Optuna distribution of one parameter, and the choices it indexes (None for a range)."""
    if isinstance(spec, tuple):
        if len(spec) != 2:
            raise ValueError(f"{path}: a range is a tuple (low, high), got {spec!r}")
        low, high = spec
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in spec):
            raise TypeError(f"{path}: a range's ends are numbers, got {spec!r}")
        if not (math.isfinite(low) and math.isfinite(high)) or low > high:
            raise ValueError(f"{path}: a range needs finite low <= high, got {spec!r}")
        if isinstance(low, int) and isinstance(high, int):
            return optuna.distributions.IntDistribution(low, high), None
        return optuna.distributions.FloatDistribution(float(low), float(high)), None
    if isinstance(spec, list):
        if not spec:
            raise ValueError(f"{path}: the list of choices is empty")
        # Optuna's categories are indices, so that any JSON value can be a choice.
        return optuna.distributions.CategoricalDistribution(list(range(len(spec)))), list(spec)
    raise TypeError(f"{path}: give a range as a tuple (low, high) or the choices as a list, not "
                    f"{type(spec).__name__}")


def _num(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "-"
    if x == 0:
        return "0"
    return f"{x:.4g}"


def optimise(
    game_or_name: Game | str,
    parameters: Mapping[str, Any],
    objective: Callable[[Metrics], float],
    budget: int = 30,
    games: int = 500,
    *,
    agents: Sequence[Agent] | None = None,
    seed: int = 0,
    reevaluate: int = 3,
    reevaluate_games: int | None = None,
    threads: int = 0,
    metrics: bool | None = None,
    comeback: float = COMEBACK_THRESHOLD,
    progress: bool | Callable[[Trial], object] = False,
    **options: Any,
) -> OptimisationResult:
    """Searches the values of ``parameters`` (path: ``(low, high)`` or ``[choices]``) of the
    game's component data file that minimise ``objective`` (a callable ``Metrics -> float``,
    such as :func:`tradewinds.objectives.seat_advantage_even`), in ``budget`` trials of
    ``games`` games each, and returns an :class:`OptimisationResult` (see the module's
    documentation for the search spaces, the optimiser and the noise).

    Optimiser: Optuna's TPE sampler seeded with ``seed`` (needs the ``balance`` extra,
    ``pip install 'tradewinds[balance]'``). Every trial plays the same ``games`` game seeds
    (``seed``; common random numbers); a value the game refuses is reported in the history
    and skipped. Noise: the best ``reevaluate`` distinct candidates are played again on fresh
    seeds (:func:`reevaluation_seed`) with ``reevaluate_games`` games each (default ``4 *
    games``), beside the unedited data file, and the best by the re-evaluation is chosen.

    ``game_or_name``: a :class:`~tradewinds.Game` (its data file is the one edited) or a game
    name whose options follow as keywords. ``agents``, ``threads``: those of
    :func:`tradewinds.simulate`. ``metrics``: measure the trajectory metrics (default: when
    every agent is built in). ``progress``: True prints a line a trial to standard error; a
    callable is called with each :class:`Trial`. The result depends only on the arguments.
    """
    optuna = import_optional("optuna", "tw.optimise()", "optuna", "`pip install 'tradewinds[balance]'`")
    game = _resolve_game(game_or_name, options)
    _check_int("budget", budget, 1)
    _check_int("games", games, 1)
    _check_int("seed", seed, 0, (1 << 64) - 1)
    _check_int("reevaluate", reevaluate, 1)
    if reevaluate_games is None:
        reevaluate_games = 4 * games
    _check_int("reevaluate_games", reevaluate_games, 1)
    if not callable(objective):
        raise TypeError(f"objective must be a callable Metrics -> float (see tw.objectives), not "
                        f"{type(objective).__name__}")
    if not isinstance(parameters, Mapping) or not parameters:
        raise ValueError("optimise() needs parameters: a dict of path: (low, high) or [choices]")
    base_data = _base_data(game)
    spaces: dict[str, Any] = {}
    choices: dict[str, list[Any] | None] = {}
    for path, spec in parameters.items():
        if not isinstance(path, str) or not path:
            raise ValueError(f"a path is a dot-separated string of keys and indices, got {path!r}")
        try:
            apply_edits(base_data, {path: _lookup(base_data, path)})
        except _EditError as e:
            raise ValueError(str(e)) from None
        spaces[path], choices[path] = _space(optuna, path, spec)
    seats = normalize_agents(game, agents)
    if metrics is None:
        metrics = all(isinstance(a, str) for a in seats)
    name = getattr(objective, "name", None) or getattr(objective, "__name__", None) or "objective"

    def measure(data: Mapping[str, Any] | None, n: int, at: int) -> Metrics:
        g = game if data is None else _variant_game(game, data, at)
        result = simulate(g, n, seed=at, threads=threads, agents=seats, keep_games=True, metrics=metrics)
        return result.metrics(comeback=comeback)

    def score(m: Metrics) -> float:
        value = float(objective(m))
        if math.isnan(value):
            raise ValueError(f"the objective {name} is not a number for these games")
        return value

    report: Callable[[Trial], object] | None = None
    if progress is True:
        def report(t: Trial) -> None:
            what = t.error if t.error is not None else f"objective {_num(t.objective)}"
            shown = ", ".join(f"{p} = {json.dumps(v)}" for p, v in t.params.items())
            print(f"trial {t.number + 1}/{budget}: {shown}: {what}", file=sys.stderr, flush=True)
    elif callable(progress):
        report = progress

    verbosity = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
        history: list[Trial] = []
        played: dict[str, int] = {}
        for number in range(budget):
            trial = study.ask(spaces)
            params = {p: (choices[p][trial.params[p]] if choices[p] is not None else trial.params[p])  # type: ignore[index]
                      for p in spaces}
            key = json.dumps(params, sort_keys=True)
            if key in played:
                first = history[played[key]]
                t = Trial(number, params, first.objective, first.error, repeat_of=first.number)
            else:
                try:
                    m = measure(apply_edits(base_data, params), games, seed)
                except (TradewindsError, _EditError, ValueError, TypeError) as e:
                    t = Trial(number, params, None, f"{type(e).__name__}: {e}")
                else:
                    # An objective that cannot score the games is the caller's error, not the values'.
                    t = Trial(number, params, score(m))
                played[key] = number
            if t.ok:
                study.tell(trial, t.objective)
            else:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
            history.append(t)
            if report is not None:
                report(t)
    finally:
        optuna.logging.set_verbosity(verbosity)

    feasible = sorted((t for t in history if t.ok and t.repeat_of is None),
                      key=lambda t: (t.objective, t.number))
    if not feasible:
        raise ValueError(f"no trial of the {budget} could be played; the first was refused: {history[0].error}")
    fresh = reevaluation_seed(seed)
    candidates = []
    for t in feasible[:reevaluate]:
        m = measure(apply_edits(base_data, t.params), reevaluate_games, fresh)
        candidates.append(Candidate(dict(t.params), float(t.objective), score(m), m))  # type: ignore[arg-type]
    baseline = measure(None, reevaluate_games, fresh)
    best = min(range(len(candidates)), key=lambda k: (candidates[k].objective, k))
    chosen = candidates[best]
    return OptimisationResult(
        game=game.name, players=game.players, options={k: v for k, v in game.options.items() if k != "data"},
        agents=[agent_label(a) for a in seats], parameters={p: _spec_json(s) for p, s in parameters.items()},
        objective=name, budget=budget, games=games, seed=seed, reevaluate=reevaluate,
        reevaluate_games=reevaluate_games, reevaluation_seed=fresh, optimiser=f"TPE (Optuna {optuna.__version__})",
        best=dict(chosen.params), data=apply_edits(base_data, chosen.params), metrics=chosen.metrics,
        objective_value=chosen.objective, baseline=baseline, baseline_objective=score(baseline),
        base_values={p: _lookup(base_data, p) for p in spaces}, history=history, candidates=candidates,
    )


def _spec_json(spec: Any) -> Any:
    return {"low": spec[0], "high": spec[1]} if isinstance(spec, tuple) else {"choices": list(spec)}


@dataclass(frozen=True, eq=False)
class OptimisationResult:
    """What :func:`optimise` returns: the ``best`` values (path: value), the ``data`` file
    with them (a dict; :meth:`save` writes it), its :class:`~tradewinds.Metrics` and
    ``objective_value`` on the re-evaluation's fresh games, the unedited file's on the same
    games (``baseline``, ``baseline_objective``), the re-evaluated ``candidates``, the search's
    ``history`` (one :class:`Trial` a trial) and the settings that produced them."""

    game: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    parameters: dict[str, Any]
    objective: str
    budget: int
    games: int
    seed: int
    reevaluate: int
    reevaluate_games: int
    reevaluation_seed: int
    optimiser: str
    best: dict[str, Any]
    data: dict[str, Any] = field(repr=False)
    metrics: Metrics = field(repr=False)
    objective_value: float
    baseline: Metrics = field(repr=False)
    baseline_objective: float
    base_values: dict[str, Any]
    history: list[Trial] = field(repr=False)
    candidates: list[Candidate] = field(repr=False)

    @property
    def infeasible(self) -> list[Trial]:
        """The trials whose values could not be played, each with its ``error``."""
        return [t for t in self.history if not t.ok]

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Writes the best data file (JSON) to ``path``; ``tw.load(game, data=path)`` plays it."""
        path = Path(path)
        path.write_text(json.dumps(self.data, indent=2) + "\n", encoding="utf-8")
        return path

    def rows(self) -> list[dict[str, Any]]:
        """The history, one dict a trial: trial, each path's value, objective, error, repeat_of."""
        return [{"trial": t.number, **t.params, "objective": t.objective, "error": t.error,
                 "repeat_of": t.repeat_of} for t in self.history]

    def to_pandas(self) -> Any:
        """The history as a pandas DataFrame, one row a trial (:meth:`rows`; needs pandas)."""
        pd = import_optional("pandas", "OptimisationResult.to_pandas()", "pandas",
                             "`pip install 'tradewinds[pandas]'`")
        columns = ["trial", *self.parameters, "objective", "error", "repeat_of"]
        return pd.DataFrame(self.rows(), columns=columns)

    def to_dict(self) -> dict[str, Any]:
        """Everything but the data file, JSON-ready (NaN as None)."""

        def clean(x: Any) -> Any:
            if isinstance(x, float) and not math.isfinite(x):
                return None
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        out: dict[str, Any] = clean({
            "game": self.game, "players": self.players, "options": self.options, "agents": self.agents,
            "parameters": self.parameters, "objective": self.objective, "optimiser": self.optimiser,
            "budget": self.budget, "games": self.games, "seed": self.seed, "reevaluate": self.reevaluate,
            "reevaluate_games": self.reevaluate_games, "reevaluation_seed": self.reevaluation_seed,
            "best": self.best, "objective_value": self.objective_value, "base_values": self.base_values,
            "baseline_objective": self.baseline_objective,
            "metrics": self.metrics.to_dict()["metrics"], "baseline_metrics": self.baseline.to_dict()["metrics"],
            "candidates": [{"params": c.params, "search_objective": c.search_objective, "objective": c.objective}
                           for c in self.candidates],
            "history": self.rows(),
        })
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    # ---- text -----------------------------------------------------------------------------

    def _title(self) -> str:
        spaces = ", ".join(
            f"{p} in {s['low']}..{s['high']}" if "low" in s else f"{p} in {json.dumps(s['choices'])}"
            for p, s in self.parameters.items())
        return (f"{self.game}, {self.players} seat{'s' if self.players != 1 else ''}: minimise {self.objective} "
                f"over {spaces}; {self.optimiser}, {self.budget} trials of {self.games:,} games (seed {self.seed}; "
                f"{', '.join(self.agents)})")

    def _shown_metrics(self) -> list[str]:
        names = [f"win rate seat {p}" for p in range(self.players)] if self.players > 1 else ["win rate"]
        names += ["imbalance", "turns", "decisions", "score margin"]
        return [n for n in names if n in self.metrics and n in self.baseline]

    @staticmethod
    def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = []
        for k, r in enumerate(rows):
            lines.append(indent + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                            for i, (c, w) in enumerate(zip(r, widths))).rstrip())
            if k == 0:
                lines.append(indent + "  ".join("-" * w for w in widths))
        return lines

    def _metric_rows(self) -> list[list[str]]:
        rows = [["metric", "data file", "95% interval", "best", "95% interval"]]
        for n in self._shown_metrics():
            b, m = self.baseline[n], self.metrics[n]
            rows.append([n, _num(b.value), f"{_num(b.low)} .. {_num(b.high)}", _num(m.value),
                         f"{_num(m.low)} .. {_num(m.high)}"])
        return rows

    def _candidate_rows(self) -> list[list[str]]:
        rows = [[*self.parameters, "search", "re-evaluated"]]
        for c in self.candidates:
            rows.append([*(json.dumps(c.params[p]) for p in self.parameters), _num(c.search_objective),
                         _num(c.objective)])
        return rows

    def _history_rows(self) -> list[list[str]]:
        rows = [["trial", *self.parameters, "objective"]]
        for t in self.history:
            if t.error is not None:
                what = f"not played: {t.error}"
            else:
                what = _num(t.objective) + (f" (repeats trial {t.repeat_of})" if t.repeat_of is not None else "")
            rows.append([str(t.number), *(json.dumps(t.params[p]) for p in self.parameters), what])
        return rows

    def summary(self, history: bool = True) -> str:
        """The result as text: the best values, the re-evaluation, the metrics with intervals
        and (``history``) every trial."""
        best = ", ".join(f"{p} = {json.dumps(v)}" for p, v in self.best.items())
        base = ", ".join(f"{p} = {json.dumps(v)}" for p, v in self.base_values.items())
        lines = [self._title(), "",
                 f"best: {best} (the data file's: {base})",
                 f"objective on {self.reevaluate_games:,} fresh games: {_num(self.objective_value)} "
                 f"(the data file's: {_num(self.baseline_objective)})", "",
                 f"re-evaluated: the best {len(self.candidates)} of the search, {self.reevaluate_games:,} games each "
                 f"on fresh seeds (seed {self.reevaluation_seed})"]
        lines += self._table(self._candidate_rows())
        lines += ["", "metrics on the fresh games, the data file's and the best's:"]
        lines += self._table(self._metric_rows())
        if self.baseline.seat_test is not None and self.metrics.seat_test is not None:
            lines.append(f"  seats win equally often? chi-square p = {self.baseline.seat_test.p_value:.3g} for the data "
                         f"file, {self.metrics.seat_test.p_value:.3g} for the best")
        if history:
            lines += ["", f"search: {self.budget} trials ({len(self.infeasible)} not played), {self.games:,} games "
                          f"each on the same seeds"]
            lines += self._table(self._history_rows())
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<OptimisationResult {self.game} {self.players} seats, best {self.best}, objective "
                f"{_num(self.objective_value)} ({self.budget} trials)>")

    def _repr_html_(self) -> str:
        def table(rows: list[list[str]]) -> str:
            head = "".join(f"<th>{html.escape(h)}</th>" for h in rows[0])
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
            return f"<table><tr>{head}</tr>{body}</table>"

        best = html.escape(", ".join(f"{p} = {json.dumps(v)}" for p, v in self.best.items()))
        return (f"<div><b>{html.escape(self._title())}</b><p>best: {best}; objective "
                f"{html.escape(_num(self.objective_value))} on {self.reevaluate_games:,} fresh games (the data "
                f"file's: {html.escape(_num(self.baseline_objective))})</p>{table(self._candidate_rows())}"
                f"{table(self._metric_rows())}<details><summary>search history</summary>"
                f"{table(self._history_rows())}</details></div>")
