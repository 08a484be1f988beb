"""Game-design metrics of a simulation, each with a 95% interval: is a seat favoured, does the
game finish, how long does it last, how many moves does a seat choose among, is the winner
clear long before the end, does the lead change, how far behind does the winner fall.

``result.metrics()`` (after ``tw.simulate(..., metrics=True)`` or ``tw.tournament(...,
metrics=True)``) returns a :class:`Metrics`. The outcome metrics (seat advantage, balance,
completion, shared wins, score margin, the scoring categories' shares) come from the per-game
arrays of any run; the trajectory metrics (turns, branching, decisiveness, lead changes,
drama, comebacks) from the arrays that Rust fills as it plays with ``metrics=True``, from the
game's own evaluation at every decision. ``docs/balance.md`` defines every metric, with the
name of Ludii's metric where one matches.

Intervals: a rate (a share of games) has the Wilson score interval; a mean over games has the
normal interval ``mean ± 1.96 · sd / sqrt(n)``; a ratio of sums (legal moves per decision, a
category's share of the points) has the normal interval of the ratio estimator (its variance
linearised over games); the balance (the spread of the seats' win rates) has a percentile
bootstrap over games, 1,000 resamples from a fixed seed. All of them are deterministic: the
same games give the same numbers.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ._optional import import_optional
from ._results import Layout, branching_labels

__all__ = ["Metric", "Metrics", "compute", "chi_square_sf", "COMEBACK_THRESHOLD"]

_Z95 = 1.959963984540054
#: The eventual winner "came back" when its largest deficit (``drama``, in 0..1) exceeded this.
COMEBACK_THRESHOLD = 0.25
#: Resamples of the balance's bootstrap, and its seed.
_BOOTSTRAP = 1000
_BOOTSTRAP_SEED = 34


@dataclass(frozen=True)
class Metric:
    """One metric: its ``name``, the ``ludii`` metric it matches (empty when none),
    its ``value``, the 95% interval ``low .. high``, the ``games`` it is measured over, what
    the interval is (``interval``: ``wilson``, ``normal``, ``ratio``, ``bootstrap``) and a
    short ``note`` (the unit, what an extreme value means)."""

    name: str
    value: float
    low: float
    high: float
    games: int
    interval: str
    ludii: str = ""
    note: str = ""

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the interval (ends included)."""
        return self.low <= x <= self.high


@dataclass(frozen=True)
class SeatTest:
    """Pearson's chi-square test that every seat wins equally often, over the games won by
    one seat alone: the ``statistic``, its degrees of freedom ``df`` (seats - 1) and the
    ``p_value``; ``wins`` are those games by seat."""

    statistic: float
    df: int
    p_value: float
    wins: list[int]


@dataclass(frozen=True)
class Metrics:
    """The design metrics of a set of games (see the module's documentation): ``metrics``,
    one :class:`Metric` each, in a fixed order; ``seat_test``, the chi-square test of equal
    seat win rates (None for a solo game); ``branching_histogram``, decisions by legal
    moves (bins ``1``, ``2-3``, ``4-7``, ...); ``durations``, the 5th, 25th, 50th, 75th and
    95th percentiles of turns, decisions and moves per game; and whether the trajectory
    metrics were ``measured`` (``simulate(..., metrics=True)``)."""

    game: str
    players: int
    games: int
    agents: list[str]
    measured: bool
    metrics: list[Metric]
    seat_test: SeatTest | None
    branching_histogram: dict[str, int] = field(default_factory=dict)
    durations: dict[str, dict[str, float]] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(f"no metric {name!r}; metrics: {', '.join(m.name for m in self.metrics)}")

    def __contains__(self, name: object) -> bool:
        return any(m.name == name for m in self.metrics)

    @property
    def table(self) -> list[dict[str, Any]]:
        """One dict per metric: name, value, low, high, games, interval, ludii, note."""
        return [asdict(m) for m in self.metrics]

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready (NaN as None)."""

        def clean(x: Any) -> Any:
            if isinstance(x, float) and not math.isfinite(x):
                return None
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, list):
                return [clean(v) for v in x]
            return x

        return clean({
            "game": self.game, "players": self.players, "games": self.games, "agents": list(self.agents),
            "measured": self.measured, "metrics": self.table,
            "seat_test": asdict(self.seat_test) if self.seat_test is not None else None,
            "branching_histogram": dict(self.branching_histogram), "durations": dict(self.durations),
        })

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_pandas(self) -> Any:
        """The metrics as a pandas DataFrame indexed by name (needs pandas)."""
        pd = import_optional("pandas", "Metrics.to_pandas()", "pandas", "`pip install 'tradewinds[pandas]'`")
        return pd.DataFrame(self.table).set_index("name")

    def _rows(self) -> list[list[str]]:
        return [[m.name, _num(m.value), f"{_num(m.low)} .. {_num(m.high)}", f"{m.games:,}", m.ludii or "-", m.note]
                for m in self.metrics]

    def summary(self) -> str:
        head = ["metric", "value", "95% interval", "games", "Ludii", "note"]
        rows = [head, *self._rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        agents = ", ".join(self.agents)
        lines = [f"{self.game}, {self.players} seat{'s' if self.players != 1 else ''}, {self.games:,} games "
                 f"({agents})"]
        for k, r in enumerate(rows):
            lines.append("  ".join(c.ljust(w) if i in (0, 4, 5) else c.rjust(w) for i, (c, w) in
                                   enumerate(zip(r, widths))).rstrip())
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        if self.seat_test is not None:
            t = self.seat_test
            lines.append(f"seats win equally often? chi-square {t.statistic:.2f} on {t.df} df, p = {t.p_value:.3g} "
                         f"(sole wins by seat: {', '.join(map(str, t.wins))})")
        if self.measured:
            lines.append("legal moves per decision: " + ", ".join(
                f"{k}: {v:,}" for k, v in self.branching_histogram.items() if v))
            for what, q in self.durations.items():
                lines.append(f"{what} per game: " + ", ".join(f"{k} {_num(v)}" for k, v in q.items()))
        else:
            lines.append("trajectory metrics not measured: simulate with metrics=True")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ["metric", "value", "95% interval", "games", "Ludii", "note"])
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in self._rows())
        title = html.escape(f"{self.game}, {self.players} seats, {self.games:,} games")
        extra = ""
        if self.seat_test is not None:
            t = self.seat_test
            extra = (f"<p>Equal seat win rates: chi-square {t.statistic:.2f} on {t.df} df, "
                     f"p = {t.p_value:.3g}</p>")
        return f"<div><b>{title}</b><table><tr>{head}</tr>{body}</table>{extra}</div>"

    def __repr__(self) -> str:
        return f"<Metrics {self.game} {self.players} seats, {self.games:,} games, {len(self.metrics)} metrics>"


def _num(x: float) -> str:
    if not math.isfinite(x):
        return "-"
    if x == int(x) and abs(x) < 1e6:
        return str(int(x))
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.1f}"


# ---- intervals ---------------------------------------------------------------------------------


def _wilson(successes: int, trials: int) -> tuple[float, float, float]:
    if trials <= 0:
        return (math.nan, math.nan, math.nan)
    p = successes / trials
    z2 = _Z95 * _Z95
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (p, low, high)


def _mean(values: npt.NDArray[Any]) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    x = values.astype(np.float64)
    m = float(x.mean())
    if n < 2:
        return (m, math.nan, math.nan)
    half = _Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return (m, m - half, m + half)


def _ratio(y: npt.NDArray[Any], x: npt.NDArray[Any]) -> tuple[float, float, float]:
    """Σy / Σx with the normal interval of the ratio estimator over the games."""
    n = len(y)
    sx = float(np.sum(x, dtype=np.float64))
    if n == 0 or sx == 0:
        return (math.nan, math.nan, math.nan)
    r = float(np.sum(y, dtype=np.float64)) / sx
    if n < 2:
        return (r, math.nan, math.nan)
    resid = y.astype(np.float64) - r * x.astype(np.float64)
    se = math.sqrt(float(np.sum(resid * resid)) / (n * (n - 1))) / (sx / n)
    return (r, r - _Z95 * se, r + _Z95 * se)


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable of ``df`` degrees of freedom (a closed form for
    whole ``df``; no scipy needed)."""
    if df < 1:
        raise ValueError("df must be >= 1")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) * math.exp(-half) / math.sqrt(math.pi) * 2.0
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= half / (k + 0.5)
    return min(1.0, total)


# ---- the metrics ------------------------------------------------------------------------------


def compute(
    arrays: Mapping[str, npt.NDArray[Any]],
    layout: Layout,
    *,
    game: str,
    agents: Sequence[str],
    comeback: float = COMEBACK_THRESHOLD,
) -> Metrics:
    """The :class:`Metrics` of the games whose per-game arrays are ``arrays`` (of
    ``layout``). ``comeback``: the deficit (drama, in 0..1) past which a win counts as a
    comeback."""
    if not 0.0 <= comeback < 1.0:
        raise ValueError(f"comeback must be in [0, 1), got {comeback}")
    players = layout.players
    winners = np.asarray(arrays["winners"], dtype=bool)
    games = int(winners.shape[0])
    truncated = np.asarray(arrays["truncated"], dtype=bool)
    opponent_wins = np.asarray(arrays["opponent_wins"], dtype=bool)
    seat_wins = winners.sum(axis=1)
    opp_wins = opponent_wins.sum(axis=1) if opponent_wins.size else np.zeros(games, dtype=np.int64)
    sole = (seat_wins == 1) & (opp_wins == 0)
    out: list[Metric] = []

    def rate(name: str, k: int, n: int, ludii: str = "", note: str = "") -> None:
        v, lo, hi = _wilson(k, n)
        out.append(Metric(name, v, lo, hi, n, "wilson", ludii, note))

    def mean(name: str, values: npt.NDArray[Any], ludii: str = "", note: str = "") -> None:
        v, lo, hi = _mean(values)
        out.append(Metric(name, v, lo, hi, len(values), "normal", ludii, note))

    # Outcomes.
    seat_test = None
    if players > 1:
        share = 1.0 / players
        for p in range(players):
            rate(f"win rate seat {p}", int(winners[:, p].sum()), games,
                 "Advantage P1" if p == 0 else "", f"even share {share:.3g}; shared wins count for every winner")
        sole_by_seat = [int((sole & winners[:, p]).sum()) for p in range(players)]
        total = sum(sole_by_seat)
        if total > 0:
            expected = total / players
            stat = float(sum((c - expected) ** 2 / expected for c in sole_by_seat))
            seat_test = SeatTest(stat, players - 1, chi_square_sf(stat, players - 1), sole_by_seat)
        rates = winners.mean(axis=0) if games else np.full(players, np.nan)
        spread = float(rates.max() - rates.min()) if games else math.nan
        lo, hi = _bootstrap_spread(winners)
        out.append(Metric("imbalance", spread, lo, hi, games, "bootstrap", "Balance",
                          "highest less lowest seat win rate (Ludii's Balance is 1 minus it); 0: even"))
    else:
        rate("win rate", int(winners[:, 0].sum()), games, "", "solo: the seat's goal rate")
    rate("completion", int((~truncated).sum()), games, "Completion", "games ended by the rules")
    rate("truncation", int(truncated.sum()), games, "Timeouts", "games cut at the move bound")
    ended = ~truncated
    n_ended = int(ended.sum())
    shared = ended & ((seat_wins + opp_wins) > 1)
    rate("shared win", int(shared.sum()), n_ended, "Drawishness",
         "of the ended games, those with more than one winner")
    if players > 1 or layout.opponents:
        rate("no seat won", int((ended & (seat_wins == 0)).sum()), n_ended, "",
             "of the ended games, those no seat won (an opponent that is not a seat, or everyone lost)")
    scores = np.asarray(arrays["scores"], dtype=np.float64)
    if players > 1 and sole.any():
        w = np.argmax(winners[sole], axis=1)
        s = scores[sole]
        mine = s[np.arange(len(s)), w]
        masked = s.copy()
        masked[np.arange(len(s)), w] = -np.inf
        others = masked.max(axis=1)
        if layout.opponents:
            others = np.maximum(others, np.asarray(arrays["opponent_scores"], dtype=np.float64)[sole].max(axis=1))
        mean("score margin", mine - others, "", "sole winner's score less the best other score")
    # Each scoring category's share of the final score.
    points = np.asarray(arrays["category_points"], dtype=np.float64)
    if layout.categories and games:
        per_game_total = points.sum(axis=(1, 2))
        for c, name in enumerate(layout.categories):
            v, lo, hi = _ratio(points[:, :, c].sum(axis=1), per_game_total)
            out.append(Metric(f"share: {name}", v, lo, hi, games, "ratio", "",
                              "the category's share of all seats' points"))

    # Duration.
    decisions = np.asarray(arrays["decisions"], dtype=np.float64)
    moves = np.asarray(arrays["moves"], dtype=np.float64)
    turns = np.asarray(arrays["turns"], dtype=np.int64)
    measured = bool(games) and bool((turns >= 0).all())
    if measured:
        mean("turns", turns, "Duration Turns", "runs of decisions by one seat")
    mean("decisions", decisions, "Duration Actions", "player decisions per game")
    mean("moves", moves, "Duration Moves", "decisions plus chance outcomes per game")
    durations: dict[str, dict[str, float]] = {}
    if games:
        qs = {"p5": 5, "p25": 25, "median": 50, "p75": 75, "p95": 95}
        series = {"decisions": decisions, "moves": moves, **({"turns": turns.astype(np.float64)} if measured else {})}
        durations = {k: {q: float(np.percentile(v, pct)) for q, pct in qs.items()} for k, v in series.items()}

    histogram: dict[str, int] = {}
    if measured:
        legal = np.asarray(arrays["legal_moves"], dtype=np.float64)
        v, lo, hi = _ratio(legal, decisions)
        out.append(Metric("branching", v, lo, hi, games, "ratio", "Branching Factor Average",
                          "legal moves per decision"))
        bins = np.asarray(arrays["branching"], dtype=np.int64).sum(axis=0)
        histogram = dict(zip(branching_labels(), (int(b) for b in bins)))
        if players > 1:
            lead_changes = np.asarray(arrays["lead_changes"], dtype=np.int64)
            mean("lead changes", lead_changes, "Lead Change",
                 "times the sole leader by the game's evaluation changed, per game")
            judged = sole & (decisions > 0)
            lead_from = np.asarray(arrays["lead_from"], dtype=np.float64)
            mean("decisiveness", lead_from[judged] / decisions[judged], "Decisiveness Moves",
                 "fraction of the game before the eventual winner leads for good; 0: from the start")
            drama = np.asarray(arrays["drama"], dtype=np.float64)[sole]
            mean("drama", drama, "Drama", "the eventual winner's largest deficit, in 0..1; 0: never behind")
            rate("comeback", int((drama > comeback).sum()), len(drama), "",
                 f"wins from a deficit above {comeback:g} (drama)")
    return Metrics(game=game, players=players, games=games, agents=list(agents), measured=measured,
                   metrics=out, seat_test=seat_test, branching_histogram=histogram, durations=durations)


def _bootstrap_spread(winners: npt.NDArray[np.bool_]) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of (highest - lowest) seat win rate, resampling
    games; from a fixed seed, so the same games give the same interval."""
    games = winners.shape[0]
    if games < 2:
        return (math.nan, math.nan)
    rng = np.random.default_rng(_BOOTSTRAP_SEED)
    w = winners.astype(np.float64)
    spreads = np.empty(_BOOTSTRAP)
    for b in range(_BOOTSTRAP):
        rates = w[rng.integers(0, games, games)].mean(axis=0)
        spreads[b] = rates.max() - rates.min()
    return (float(np.percentile(spreads, 2.5)), float(np.percentile(spreads, 97.5)))


# ---- per-game contributions (for paired comparisons) ------------------------------------------


@dataclass(frozen=True)
class Contribution:
    """What each game adds to one metric, so that the metric of any multiset of the games
    (a bootstrap resample) is ``sum(num) / sum(den)`` over them: a rate's indicator over its
    eligible games, a mean's value over 1 (or over its eligible games), a ratio's two sums.
    The ``imbalance`` is the exception (``spread``: the seats' wins, one column a seat; the
    metric is the highest column mean less the lowest)."""

    num: npt.NDArray[np.float64]
    den: npt.NDArray[np.float64]
    spread: bool = False


def contributions(
    arrays: Mapping[str, npt.NDArray[Any]], layout: Layout, *, comeback: float = COMEBACK_THRESHOLD,
) -> dict[str, Contribution]:
    """Each metric of :func:`compute` (by name, the same names) as per-game contributions
    (:class:`Contribution`): the ratio of their sums over all the games is the metric's value
    as :func:`compute` gives it."""
    players = layout.players
    winners = np.asarray(arrays["winners"], dtype=bool)
    games = int(winners.shape[0])
    one = np.ones(games, dtype=np.float64)
    truncated = np.asarray(arrays["truncated"], dtype=bool)
    opponent_wins = np.asarray(arrays["opponent_wins"], dtype=bool)
    seat_wins = winners.sum(axis=1)
    opp_wins = opponent_wins.sum(axis=1) if opponent_wins.size else np.zeros(games, dtype=np.int64)
    sole = (seat_wins == 1) & (opp_wins == 0)
    out: dict[str, Contribution] = {}

    def f(x: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        return np.asarray(x, dtype=np.float64)

    def masked(values: npt.NDArray[Any], mask: npt.NDArray[np.bool_]) -> Contribution:
        num = np.zeros(games, dtype=np.float64)
        num[mask] = values
        return Contribution(num, f(mask))

    if players > 1:
        for p in range(players):
            out[f"win rate seat {p}"] = Contribution(f(winners[:, p]), one)
        out["imbalance"] = Contribution(f(winners), one, spread=True)
    else:
        out["win rate"] = Contribution(f(winners[:, 0]), one)
    ended = ~truncated
    out["completion"] = Contribution(f(ended), one)
    out["truncation"] = Contribution(f(truncated), one)
    shared = ended & ((seat_wins + opp_wins) > 1)
    out["shared win"] = Contribution(f(shared), f(ended))
    if players > 1 or layout.opponents:
        out["no seat won"] = Contribution(f(ended & (seat_wins == 0)), f(ended))
    scores = np.asarray(arrays["scores"], dtype=np.float64)
    if players > 1 and sole.any():
        w = np.argmax(winners[sole], axis=1)
        s = scores[sole]
        mine = s[np.arange(len(s)), w]
        rest = s.copy()
        rest[np.arange(len(s)), w] = -np.inf
        others = rest.max(axis=1)
        if layout.opponents:
            others = np.maximum(others, np.asarray(arrays["opponent_scores"], dtype=np.float64)[sole].max(axis=1))
        out["score margin"] = masked(mine - others, sole)
    points = np.asarray(arrays["category_points"], dtype=np.float64)
    if layout.categories and games:
        per_game_total = points.sum(axis=(1, 2))
        for c, name in enumerate(layout.categories):
            out[f"share: {name}"] = Contribution(points[:, :, c].sum(axis=1), per_game_total)
    decisions = f(arrays["decisions"])
    turns = np.asarray(arrays["turns"], dtype=np.int64)
    measured = bool(games) and bool((turns >= 0).all())
    if measured:
        out["turns"] = Contribution(f(turns), one)
    out["decisions"] = Contribution(decisions, one)
    out["moves"] = Contribution(f(arrays["moves"]), one)
    if measured:
        out["branching"] = Contribution(f(arrays["legal_moves"]), decisions)
        if players > 1:
            out["lead changes"] = Contribution(f(arrays["lead_changes"]), one)
            judged = sole & (decisions > 0)
            out["decisiveness"] = masked(f(arrays["lead_from"])[judged] / decisions[judged], judged)
            drama = f(arrays["drama"])
            out["drama"] = masked(drama[sole], sole)
            out["comeback"] = Contribution(f(sole & (drama > comeback)), f(sole))
    return out
