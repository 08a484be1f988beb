"""Objectives for :func:`tradewinds.optimise`: what a variant of a game should be made closest
to, as a number to minimise computed from its :class:`~tradewinds.Metrics`.

An objective is any callable ``metrics -> float`` (smaller is better); this module gives the
common ones a name, which the search history and the command line show::

    import tradewinds as tw

    tw.objectives.seat_advantage_even()      # the largest |win rate of a seat - 1/n|
    tw.objectives.duration_near(60)          # |mean turns - 60|
    tw.objectives.metric_near("decisions", 500)
    tw.objectives.at_most(tw.objectives.duration_near(60), "win rate seat 0", 0.55)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from .balance import Metrics

__all__ = ["Objective", "seat_advantage_even", "duration_near", "metric_near", "at_most"]


@dataclass(frozen=True)
class Objective:
    """A named objective: ``fn(metrics)`` is the number to minimise; ``name`` says what it is
    (shown in the history, the summary and the JSON)."""

    name: str
    fn: Callable[[Metrics], float]

    def __call__(self, metrics: Metrics) -> float:
        return float(self.fn(metrics))

    def __str__(self) -> str:
        return self.name


def seat_advantage_even() -> Objective:
    """The largest distance of a seat's win rate from the even share: ``max_p |win rate seat
    p - 1/n|`` over the ``n`` seats (0: every seat wins exactly its share). Needs two seats or
    more."""

    def fn(m: Metrics) -> float:
        if m.players < 2:
            raise ValueError("seat_advantage_even() needs a game of two seats or more")
        share = 1.0 / m.players
        return max(abs(m[f"win rate seat {p}"].value - share) for p in range(m.players))

    return Objective("seat advantage (largest |win rate of a seat - 1/n|)", fn)


def metric_near(metric: str, target: float) -> Objective:
    """``|metric - target|``: the metric's value (by its name in :class:`~tradewinds.Metrics`)
    as close as can be to ``target``."""
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric's name, not {type(metric).__name__}")
    target = float(target)
    if not math.isfinite(target):
        raise ValueError(f"the target must be a finite number, got {target}")

    def fn(m: Metrics) -> float:
        return abs(m[metric].value - target)

    return Objective(f"|{metric} - {target:g}|", fn)


def duration_near(turns: float, metric: str = "turns") -> Objective:
    """The mean length of a game as close as can be to ``turns``: ``|mean turns - turns|``
    (``metric="decisions"`` or ``"moves"`` measures the length in those instead; turns are
    measured with the trajectory metrics, which built-in agents measure)."""
    if metric not in ("turns", "decisions", "moves"):
        raise ValueError(f"duration_near() measures turns, decisions or moves, not {metric!r}")
    return metric_near(metric, turns)


def at_most(objective: Callable[[Metrics], float], metric: str, limit: float, penalty: float = 1000.0) -> Objective:
    """``objective`` while ``metric`` stays at or below ``limit``: where it exceeds the limit,
    ``penalty`` times the excess is added (``at_most(duration_near(60), "win rate seat 0",
    0.55)``: a length near 60 turns with the first seat winning at most 55% of the games)."""
    limit = float(limit)
    if not math.isfinite(limit):
        raise ValueError(f"the limit must be a finite number, got {limit}")
    if not penalty > 0:
        raise ValueError(f"penalty must be > 0, got {penalty}")

    def fn(m: Metrics) -> float:
        return float(objective(m)) + penalty * max(0.0, m[metric].value - limit)

    return Objective(f"{getattr(objective, 'name', getattr(objective, '__name__', 'objective'))} "
                     f"with {metric} <= {limit:g}", fn)
