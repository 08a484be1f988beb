"""Results of bulk simulation (arrays, summary, pandas frame, plot, files), and the progress
bar used while a simulation runs."""

from __future__ import annotations

import html
import importlib.util
import io
import math
import os
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ._core import load
from ._optional import import_optional
from ._play import play_one
from ._results import ARRAYS, FILE_VERSION, Layout, NpzFormat, check, pick, read_npz, write_npz
from ._stats import RunStatistics
from .balance import COMEBACK_THRESHOLD, Metrics, compute
from .streaming import RepairReport, RunReader, Timing

__all__ = ["SimulationResult", "ProgressBar", "wilson_interval", "import_optional"]

_FILE = NpzFormat("tradewinds-simulation", FILE_VERSION, "saved tradewinds simulation result")
_Z95 = 1.959963984540054


def require_extra(needed_by: str, extra: str, *modules: str) -> None:
    """Imports each of ``modules``; if one is missing, an ``ImportError`` saying that
    ``needed_by`` needs it and which extra of tradewinds installs it."""
    for module in modules:
        import_optional(module, needed_by, module, f"`pip install 'tradewinds[{extra}]'`")


#: Formats matplotlib's Agg canvas lists but cannot write without other software (LaTeX).
_UNWRITABLE = frozenset({"pgf"})


def plot_formats() -> tuple[str, ...]:
    """The file extensions :meth:`SimulationResult.plot` writes (``png``, ``svg``, ``pdf``,
    ``jpg``...), each the format it names. Needs matplotlib."""
    agg = import_optional("matplotlib.backends.backend_agg", "SimulationResult.plot()", "matplotlib",
                          "`pip install 'tradewinds[plot]'`")
    return tuple(sorted(set(agg.FigureCanvasAgg.get_supported_filetypes()) - _UNWRITABLE))


def plot_format(path: str | os.PathLike[str]) -> str:
    """The format a figure is written in at ``path``: the one its extension names (PNG
    without one); ``ValueError`` naming the formats for an extension that names none."""
    suffix = Path(path).suffix.lower().removeprefix(".")
    if not suffix:
        return "png"
    formats = plot_formats()
    if suffix not in formats:
        raise ValueError(
            f"cannot write a figure as .{suffix} ({path}): the extension names the format, one of "
            + ", ".join(f".{f}" for f in formats)
        )
    return suffix


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    # At p = 0 (p = 1) the lower (upper) bound is exactly 0 (1); rounding must not move it
    # inside, which would leave the rate itself outside its interval.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True, eq=False, init=False)
class SimulationResult:
    """What :func:`tradewinds.simulate` returns: one row per game, in game order.

    ``arrays`` holds the per-game arrays by name, one per row of
    ``tradewinds._results.SCHEMA`` (which gives their types and shapes); each is also an
    attribute (``result.scores``, ``result.winners``, ...). The constructor takes them by
    name or as ``arrays``.

    ``opponents`` names the game's opponents that are not seats (a solo game's automa, moved
    by the game itself: the columns of ``opponent_scores`` and ``opponent_wins``; they can win
    but have no agent), and ``tiers`` its reward tiers, lowest first (``tier`` indexes them,
    -1 for none). Both are empty for most games. In a game that no seat won (a lost solo
    game), every entry of its ``winners`` row is False.

    Game ``i`` was played from seeds derived from ``seed`` and ``i`` alone, so the arrays do
    not depend on ``threads``, on the backend, or on how the run was split into chunks.

    A result need not hold its games in memory. ``statistics`` (a
    :class:`~tradewinds._stats.RunStatistics`: win counts, means, spreads, minima and maxima,
    tier counts) is all that the summary, the win rates and their intervals read. A result of
    ``tw.simulate(..., keep_games=False)`` holds only that: its arrays are not available. A
    result read from a run directory (``load_dir``, or ``tw.simulate(..., out=DIR)``) reads
    its statistics from the chunks' metadata and its games from the directory when they are
    first asked for, all at once (``arrays``, ``scores``, ...: memory in proportion to the
    games) or a chunk at a time (:meth:`chunks`).
    """

    game: str
    players: int
    games: int
    seed: int
    threads: int
    elapsed_seconds: float
    categories: list[str]
    #: The game's opponents that are not seats (often none).
    opponents: list[str]
    #: The game's reward tiers, lowest first (often none).
    tiers: list[str]
    #: The game's options (its configuration without the name), when known.
    options: dict[str, Any]
    #: The agent of each seat: a built-in agent's spec, or ``"python:module.qualname"``.
    agents: list[str]
    #: The index in its run of the first game here: 0, but for a chunk of a run (:meth:`chunks`).
    first: int
    #: What ``tw.simulate(..., repair=True)`` replaced in the run directory (None otherwise).
    repair: RepairReport | None

    def __init__(
        self,
        game: str,
        players: int,
        games: int,
        seed: int,
        threads: int,
        elapsed_seconds: float,
        categories: Sequence[str],
        arrays: Mapping[str, npt.NDArray[Any]] | None = None,
        options: Mapping[str, Any] | None = None,
        agents: Sequence[str] | None = None,
        opponents: Sequence[str] | None = None,
        tiers: Sequence[str] | None = None,
        *,
        statistics: RunStatistics | None = None,
        first: int = 0,
        source: RunReader | None = None,
        repair: RepairReport | None = None,
        **named_arrays: npt.NDArray[Any],
    ) -> None:
        given = {**(arrays or {}), **named_arrays}
        layout = Layout.of(players, categories, opponents, tiers)
        kept: dict[str, npt.NDArray[Any]] | None = None
        if given or (statistics is None and source is None):
            check(given, games, layout)
            kept = pick(given)
        if statistics is not None and (statistics.layout != layout or statistics.games != games):
            raise ValueError(f"the statistics are of {statistics.games:,} games of another layout "
                             f"than {games:,} games of {layout}")
        seats = list(agents or ["random"] * players)
        if len(seats) != players:
            raise ValueError(f"{len(seats)} agents for {players} seats")
        for name, value in (
            ("game", game), ("players", players), ("games", games), ("seed", seed), ("threads", threads),
            ("elapsed_seconds", elapsed_seconds), ("categories", list(layout.categories)),
            ("opponents", list(layout.opponents)), ("tiers", list(layout.tiers)),
            ("options", dict(options or {})), ("agents", seats), ("first", int(first)), ("repair", repair),
            ("_arrays", kept), ("_statistics", statistics), ("_source", source),
        ):
            object.__setattr__(self, name, value)

    def _games(self) -> dict[str, npt.NDArray[Any]]:
        """The per-game arrays: those held, or those of the run directory read now (and
        kept). Raises ``AttributeError`` for a result that holds only its statistics."""
        arrays = self.__dict__.get("_arrays")
        if arrays is None:
            source = self.__dict__.get("_source")
            if source is None:
                raise AttributeError(
                    "this result holds only the run's statistics (keep_games=False), not its games: "
                    "simulate with keep_games=True, or with out=DIR to read the games back from DIR"
                )
            arrays = source.arrays()
            object.__setattr__(self, "_arrays", arrays)
        return arrays  # type: ignore[no-any-return]

    @property
    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The per-game arrays by name, in the order they are saved (read from the run
        directory on first use by a result read from one)."""
        return self._games()

    def __getattr__(self, name: str) -> npt.NDArray[Any]:
        # Reached only when no attribute is found (or the property ``arrays`` raised): the
        # per-game arrays by name.
        if name == "arrays":
            return self._games()  # type: ignore[return-value]
        if name in ARRAYS:
            return self._games()[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> Iterable[str]:
        return [*super().__dir__(), *ARRAYS]

    @property
    def statistics(self) -> RunStatistics:
        """The statistics of the games (see :mod:`tradewinds._stats`): accumulated as the run
        went, read from a run directory's chunks, or computed from the arrays held."""
        stats: RunStatistics | None = self.__dict__.get("_statistics")
        if stats is None:
            stats = RunStatistics.of(self._games(), self.layout)
            object.__setattr__(self, "_statistics", stats)
        return stats

    @property
    def holds_games(self) -> bool:
        """Whether the per-game arrays are at hand: held in memory, or readable from a run
        directory (False for a result of ``keep_games=False`` without a directory)."""
        return self.__dict__.get("_arrays") is not None or self.__dict__.get("_source") is not None

    def chunks(self) -> Iterator[SimulationResult]:
        """The games a chunk at a time, each chunk a result of its own (``first`` says where
        it starts in the run): for a run read from a directory, one chunk file at a time, so
        that a run larger than memory can be gone through; for a result held in memory, the
        result itself."""
        source = self.__dict__.get("_source")
        if source is None:
            self._games()
            yield self
            return
        for part, _ in source.chunks():
            yield SimulationResult(
                game=self.game, players=self.players, games=part.games, seed=self.seed, threads=part.threads,
                elapsed_seconds=part.elapsed_seconds, categories=self.categories, arrays=part.arrays,
                options=self.options, agents=self.agents, opponents=self.opponents, tiers=self.tiers,
                first=part.first,
            )

    @property
    def layout(self) -> Layout:
        """What the arrays' axes hold: the seats, scoring categories, opponents and tiers."""
        return Layout.of(self.players, self.categories, self.opponents, self.tiers)

    @classmethod
    def from_raw(
        cls,
        raw: Mapping[str, Any],
        options: Mapping[str, Any] | None = None,
        agents: list[str] | None = None,
    ) -> SimulationResult:
        """Builds a result from the dict ``Game.simulate`` returns (``agents`` overrides the
        dict's own list of agents)."""
        return cls(
            game=str(raw["game"]),
            players=int(raw["players"]),
            games=int(raw["games"]),
            seed=int(raw["seed"]),
            threads=int(raw["threads"]),
            elapsed_seconds=float(raw["elapsed_seconds"]),
            categories=[str(c) for c in raw["categories"]],
            arrays=pick(raw),
            options=options,
            agents=agents if agents is not None else raw.get("agents"),
            opponents=raw.get("opponents"),
            tiers=raw.get("tiers"),
        )

    @classmethod
    def from_run(
        cls, manifest: Mapping[str, Any], statistics: RunStatistics, timing: Timing, source: RunReader,
        repair: RepairReport | None = None,
    ) -> SimulationResult:
        """The result of a run streamed to a directory, from its manifest, its statistics,
        the timing of its chunks and the reader of the directory, which gives its games on
        demand (see :mod:`tradewinds.streaming`)."""
        return cls(
            game=str(manifest["game"]),
            players=int(manifest["players"]),
            games=int(manifest["games"]),
            seed=int(manifest["seed"]),
            threads=timing.threads,
            elapsed_seconds=timing.seconds,
            categories=list(manifest["categories"]),
            options=manifest.get("options"),
            agents=list(manifest["agents"]),
            opponents=manifest.get("opponents"),
            tiers=manifest.get("tiers"),
            statistics=statistics,
            source=source,
            repair=repair,
        )

    # ---- rates -----------------------------------------------------------------------------

    @property
    def games_per_second(self) -> float:
        return self.games / max(self.elapsed_seconds, 1e-9)

    @property
    def decisions_per_second(self) -> float:
        return float(self.statistics.total("decisions")) / max(self.elapsed_seconds, 1e-9)

    def metrics(self, *, comeback: float = COMEBACK_THRESHOLD) -> Metrics:
        """The game-design metrics of these games, each with a 95% interval (a
        :class:`~tradewinds.Metrics`; see ``docs/balance.md``): seat advantage and balance,
        completion, shared wins, score margin, each scoring category's share, duration, and,
        for a run of ``tw.simulate(..., metrics=True)``, branching, decisiveness, lead changes,
        drama and comebacks (a win from a deficit above ``comeback``, on drama's 0..1 scale).
        Reads the games (not only the statistics): a result of ``keep_games=False`` without a
        run directory has none."""
        return compute(self._games(), self.layout, game=self.game, agents=self.agents, comeback=comeback)

    @property
    def win_rate(self) -> npt.NDArray[np.float64]:
        """Fraction of games each seat won (a shared win counts for every tied winner; a game
        without a winner counts as no win for anyone). NaN when no game was played."""
        if self.games == 0:
            return np.full(self.players, np.nan)
        return np.asarray(self.statistics.count["winners"] / self.games, dtype=np.float64)

    def win_rate_interval(self, z: float = _Z95) -> npt.NDArray[np.float64]:
        """Shape (players, 2): the Wilson score interval of each seat's win rate (95% by
        default; NaN when no game was played)."""
        wins = self.statistics.count["winners"]
        return np.array([wilson_interval(int(wins[p]), self.games, z) for p in range(self.players)],
                        dtype=np.float64).reshape(self.players, 2)

    @property
    def opponent_win_rate(self) -> npt.NDArray[np.float64]:
        """Fraction of games each opponent that is not a seat won, shape (opponents,). NaN
        when no game was played."""
        if self.games == 0:
            return np.full(len(self.opponents), np.nan)
        return np.asarray(self.statistics.count["opponent_wins"] / self.games, dtype=np.float64)

    def opponent_win_rate_interval(self, z: float = _Z95) -> npt.NDArray[np.float64]:
        """Shape (opponents, 2): the Wilson score interval of each opponent's win rate."""
        wins = self.statistics.count["opponent_wins"]
        return np.array([wilson_interval(int(wins[o]), self.games, z) for o in range(len(self.opponents))],
                        dtype=np.float64).reshape(len(self.opponents), 2)

    @property
    def tier_rate(self) -> npt.NDArray[np.float64]:
        """Fraction of games that reached each tier (as their highest), shape (tiers,). NaN
        when no game was played."""
        if self.games == 0:
            return np.full(len(self.tiers), np.nan)
        return np.asarray(self._tier_counts() / self.games, dtype=np.float64)

    def _tier_counts(self) -> npt.NDArray[np.int64]:
        """How many games reached each tier, shape (tiers,)."""
        return self.statistics.level_counts("tier")

    # ---- records of chosen games ----------------------------------------------------------

    def records(self, games: Any, agents: Sequence[Any] | None = None) -> list[str]:
        """The records of chosen games of the run, as :meth:`State.record` writes them (JSON
        text; :func:`tradewinds.replay` plays one again, ``tradewinds replay FILE`` steps
        through it).

        ``games`` chooses them by row of this result (0 .. ``games - 1``): a list of rows, or a
        boolean mask over the rows, e.g. ``result.records(result.winners[:, 1])`` for every
        game seat 1 won, ``result.records([result.moves.argmax()])`` for the longest. Each
        chosen game is played again, move for move, from the run's seed and its number in the
        run: a run keeps nothing for this and is not slowed. A run with Python agents needs
        them again, as ``agents`` (the same callables, so that they choose the same moves).
        """
        chosen = np.asarray(games)
        rows = np.flatnonzero(chosen) if chosen.dtype == np.bool_ else chosen.astype(np.int64).reshape(-1)
        if chosen.dtype == np.bool_ and chosen.shape != (self.games,):
            raise ValueError(f"a mask of games must have one entry per game ({self.games}), not shape {chosen.shape}")
        bad = [int(r) for r in rows if not 0 <= r < self.games]
        if bad:
            raise ValueError(f"no game at row {bad[0]}: this result holds rows 0..{self.games - 1}")
        game = load(self.game, dict(self.options))
        python = [a for a in self.agents if a.startswith("python:")]
        if python and agents is None:
            raise ValueError(
                f"this run was played by Python agents ({', '.join(python)}): pass them again as agents=[...] "
                "to play its games again"
            )
        out = []
        for row in rows:
            index = self.first + int(row)
            if python:
                assert agents is not None
                state, _ = play_one(game, list(agents), self.seed, index)
            else:
                state = game.replay_game(index, self.seed, list(self.agents))
            out.append(state.record())
        return out

    # ---- reporting -------------------------------------------------------------------------

    def summary(self) -> str:
        """A readable table of the run: speed, win rates with 95% Wilson intervals, score mean
        and spread by seat (and by opponent that is not a seat, if the game has any), the
        agents, the mean points of each seat by scoring category, the share of games reaching
        each tier (if the game has tiers), game lengths and truncations. It reads only
        :attr:`statistics`, never the games themselves."""
        n = self.games
        lines = [
            f"{self.game}, {_seats(self.players)}: {n:,} games "
            f"(seed {self.seed}, {self.threads} thread{'' if self.threads == 1 else 's'}) "
            f"in {self.elapsed_seconds:.3f} s",
            f"{_rate(self.games_per_second)} games/s, {_rate(self.decisions_per_second)} decisions/s",
        ]
        if n == 0:
            lines.append("no games played")
            lines.append("agents: " + ", ".join(f"P{p} {a}" for p, a in enumerate(self.agents)))
            return "\n".join(lines) + "\n"
        stats = self.statistics
        wins = stats.count["winners"]
        mean = stats.mean["scores"]
        std = stats.std("scores")
        low = stats.low["scores"]
        high = stats.high["scores"]
        rows = [["seat", "win rate", "95% CI", "mean score", "std score", "min", "max", "agent"]]
        for p in range(self.players):
            lo, hi = wilson_interval(int(wins[p]), n)
            rows.append([
                f"P{p}", f"{wins[p] / n:.4f}", f"[{lo:.4f}, {hi:.4f}]", f"{mean[p]:.2f}", f"{std[p]:.2f}",
                f"{low[p]:g}", f"{high[p]:g}", self.agents[p],
            ])
        lines.append("")
        lines.extend(_table(rows, left=(0, len(rows[0]) - 1)))
        if self.categories:
            points = stats.mean["category_points"]
            category_rows = [["mean points", *(f"P{p}" for p in range(self.players))]]
            for c, name in enumerate(self.categories):
                category_rows.append([name, *(f"{points[p, c]:.2f}" for p in range(self.players))])
            lines.append("")
            lines.extend(_table(category_rows))
        shared = stats.shared
        if self.opponents:
            lines.append("")
            lines.extend(_table(_score_rows("opponent", self.opponents, stats, "opponent_wins", "opponent_scores")))
            no_seat = stats.no_seat_won
            by_opponent = stats.won_by_an_opponent_alone
            lines.append("")
            lines.append(f"games no seat won: {no_seat:,} (won by an opponent: {by_opponent:,}, "
                         f"by nobody: {no_seat - by_opponent:,}); games with a shared win: {shared:,}")
        else:
            lines.append("")
            lines.append(f"games without a winner: {stats.no_seat_won:,}; games with a shared win: {shared:,}")
        if self.tiers:
            counts = self._tier_counts()
            tier_rows = [["tier reached", "games", "share", "95% CI", "this or higher"]]
            for t, name in enumerate(self.tiers):
                lo, hi = wilson_interval(int(counts[t]), n)
                tier_rows.append([name, f"{int(counts[t]):,}", f"{counts[t] / n:.4f}", f"[{lo:.4f}, {hi:.4f}]",
                                  f"{counts[t:].sum() / n:.4f}"])
            none = n - int(counts.sum())
            lo, hi = wilson_interval(none, n)
            tier_rows.append(["none", f"{none:,}", f"{none / n:.4f}", f"[{lo:.4f}, {hi:.4f}]", ""])
            lines.append("")
            lines.extend(_table(tier_rows))
        length_rows = [["game length", "mean", "std", "min", "max"]]
        for name in ("decisions", "moves"):
            length_rows.append([name, f"{float(stats.mean[name]):.1f}", f"{float(stats.std(name)):.1f}",
                                f"{int(stats.low[name]):,}", f"{int(stats.high[name]):,}"])
        lines.append("")
        lines.extend(_table(length_rows))
        t = int(stats.count["truncated"])
        lines.append("")
        lines.append(f"truncated (move bound reached): {t:,} games ({100.0 * t / n:.2f}%)")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        """The notebook view: the summary, and the figure of :meth:`plot` (as inline SVG) when
        matplotlib is installed and the games are at hand."""
        parts = [f"<div class=\"tradewinds-result\">\n<pre>{html.escape(self.summary().rstrip())}</pre>"]
        if self.games and self.holds_games and importlib.util.find_spec("matplotlib") is not None:
            buffer = io.StringIO()
            self.figure().savefig(buffer, format="svg")
            svg = buffer.getvalue()
            parts.append(svg[svg.index("<svg"):])
        parts.append("</div>")
        return "\n".join(parts)

    def __repr__(self) -> str:
        agents = "" if all(a == "random" for a in self.agents) else f" agents={self.agents!r}"
        return (
            f"<SimulationResult {self.game} players={self.players} games={self.games} "
            f"seed={self.seed} threads={self.threads}{agents}>"
        )

    def to_pandas(self, wide: bool = False) -> Any:
        """The results as a pandas DataFrame. Needs pandas (``pip install 'tradewinds[pandas]'``).

        By default a tidy frame with one row per game and seat (game-major order) and the
        columns ``game``, ``seat``, ``agent``, ``score``, ``win``, one column of points per
        scoring category (named as in :attr:`categories`; prefixed ``points: `` should a
        name clash with another column), then the game's: for each opponent that is not a
        seat (:attr:`opponents`, if any) ``score: <opponent>`` and ``win: <opponent>``, for
        a game with tiers ``tier`` (the name of the tier reached, a categorical of
        :attr:`tiers`, missing for none), and ``moves``, ``decisions`` and ``truncated``; for a
        run with the design metrics measured (``metrics=True``), ``turns``, ``lead_changes``,
        ``lead_from``, ``drama`` and ``legal_moves`` (the branching histogram stays in
        ``result.branching``).
        ``wide=True`` gives one row per game instead, with columns ``score_p0``, ``win_p0``,
        ``<category>_p0``, ... for every seat, then the game's columns.
        """
        pd = import_optional("pandas", "SimulationResult.to_pandas()", "pandas",
                             "`pip install pandas` (or `pip install 'tradewinds[pandas]'`)")
        if wide:
            return self._wide_frame(pd)
        n, players = self.games, self.players
        fixed = ("game", "seat", "agent", "score", "win", "moves", "decisions", "truncated",
                 "turns", "lead_changes", "lead_from", "drama", "legal_moves",
                 *(["tier"] if self.tiers else []), *self._opponent_columns())
        labels = _unique_labels(self.agents)
        seat_codes = np.array([labels.index(a) for a in self.agents], dtype=np.int64)
        columns: dict[str, Any] = {
            "game": np.repeat(np.arange(self.first, self.first + n, dtype=np.int64), players),
            "seat": np.tile(np.arange(players, dtype=np.int64), n),
            "agent": pd.Categorical.from_codes(np.tile(seat_codes, n), categories=labels),
            "score": self.scores.reshape(-1),
            "win": self.winners.reshape(-1),
        }
        for c, name in enumerate(self.categories):
            column = f"points: {name}" if name in fixed else name
            columns[column] = self.category_points[:, :, c].reshape(-1)
        for name, values in self._game_columns(pd).items():
            columns[name] = values.repeat(players)  # numpy arrays and categoricals alike
        return pd.DataFrame(columns)

    def _opponent_columns(self) -> list[str]:
        return [f"{what}: {name}" for name in self.opponents for what in ("score", "win")]

    def _game_columns(self, pd: Any) -> dict[str, Any]:
        """The columns of per-game values, one row per game: each opponent's score and win,
        the tier reached (a game with tiers), the lengths and truncations."""
        columns: dict[str, Any] = {}
        for o, name in enumerate(self.opponents):
            columns[f"score: {name}"] = self.opponent_scores[:, o]
            columns[f"win: {name}"] = self.opponent_wins[:, o]
        if self.tiers:
            columns["tier"] = pd.Categorical.from_codes(self.tier.astype(np.int64), categories=self.tiers,
                                                        ordered=True)
        columns["moves"] = self.moves
        columns["decisions"] = self.decisions
        columns["truncated"] = self.truncated
        if self.games and bool((self.turns >= 0).all()):
            # A run with the design metrics measured (tw.simulate(..., metrics=True)).
            for name in ("turns", "lead_changes", "lead_from", "drama", "legal_moves"):
                columns[name] = self.arrays[name]
        return columns

    def _wide_frame(self, pd: Any) -> Any:
        columns: dict[str, Any] = {"game": np.arange(self.first, self.first + self.games, dtype=np.int64)}
        for p in range(self.players):
            columns[f"score_p{p}"] = self.scores[:, p]
        for p in range(self.players):
            columns[f"win_p{p}"] = self.winners[:, p]
        for p in range(self.players):
            for c, name in enumerate(self.categories):
                columns[f"{name}_p{p}"] = self.category_points[:, p, c]
        columns.update(self._game_columns(pd))
        return pd.DataFrame(columns)

    def plot(self, path: str | os.PathLike[str], *, title: str | None = None) -> Path:
        """Writes a figure to ``path``: the win rate of each seat (and of each opponent that is
        not a seat) with its 95% Wilson interval, and each one's score distribution. The file's
        extension names the format (``.png``, ``.svg``, ``.pdf``, ``.jpg``...: see
        :func:`plot_formats`; PNG without one); another extension is a ``ValueError`` naming
        them. Needs matplotlib (``pip install 'tradewinds[plot]'``); draws off-screen (Agg),
        so it works without a display. Returns the path."""
        path = Path(path)
        fmt = plot_format(path)
        self.figure(title=title).savefig(path, format=fmt, dpi=100)
        return path

    def figure(self, *, title: str | None = None) -> Any:
        """The figure :meth:`plot` writes, as a ``matplotlib.figure.Figure`` (drawn off-screen,
        on an Agg canvas), for changing or showing it before it is saved."""
        needs = ("SimulationResult.plot()", "matplotlib", "`pip install 'tradewinds[plot]'`")
        figure_mod = import_optional("matplotlib.figure", *needs)
        agg = import_optional("matplotlib.backends.backend_agg", *needs)
        fig = figure_mod.Figure(figsize=(11.0, 4.6), layout="constrained")
        agg.FigureCanvasAgg(fig)
        ax_win, ax_score = fig.subplots(1, 2)
        # The seats, then the opponents that are not seats.
        bars = np.arange(self.players + len(self.opponents))
        names = [f"P{p}" for p in range(self.players)] + list(self.opponents)
        labels = [f"P{p}\n{_short_agent(a)}" for p, a in enumerate(self.agents)] + list(self.opponents)
        colours = [f"C{i % 10}" for i in bars]
        if self.games:
            rate = np.concatenate([self.win_rate, self.opponent_win_rate])
            ci = np.vstack([self.win_rate_interval(), self.opponent_win_rate_interval()])
            # Clipped: at a rate of 0 or 1 rounding can put the interval's end a hair inside.
            err = np.clip(np.vstack([rate - ci[:, 0], ci[:, 1] - rate]), 0.0, None)
            ax_win.bar(bars, rate, yerr=err, capsize=6, color=colours, alpha=0.85)
            for i in bars:
                ax_win.annotate(f"{rate[i]:.3f}", (float(i), float(ci[i, 1])), textcoords="offset points",
                                xytext=(0, 4), ha="center", fontsize=9)
            if self.players > 1:
                # An even share among the seats (and the opponents that are not seats); a solo
                # seat's win is reaching the goal, which has no even share.
                ax_win.axhline(1.0 / len(bars), color="grey", linestyle="--", linewidth=1,
                               label=f"1/{len(bars)}")
                # Above the bars, where no interval reaches.
                ax_win.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
            scores = np.hstack([self.scores, self.opponent_scores])
            lo, hi = float(scores.min()), float(scores.max())
            integral = bool(np.all(scores == np.round(scores)))
            if integral and hi - lo <= 200:
                bins: Any = np.arange(lo - 0.5, hi + 1.5, 1.0)
            else:
                bins = 50
            for i in bars:
                ax_score.hist(scores[:, i], bins=bins, histtype="step", linewidth=1.6,
                              color=colours[i], label=f"{names[i]} (mean {scores[:, i].mean():.2f})")
            ax_score.legend(fontsize=8)
        else:
            for ax in (ax_win, ax_score):
                ax.text(0.5, 0.5, "no games played", ha="center", va="center", transform=ax.transAxes)
        ax_win.set_xticks(bars, labels=labels, fontsize=8)
        ax_win.set_ylabel("win rate" if self.players > 1 else "win rate (the goal reached)")
        # Headroom above 1 for the value printed over a bar whose interval reaches 1, so that
        # it stays inside the axes and clear of the title.
        ax_win.set_ylim(0.0, 1.15)
        ax_win.set_yticks(np.linspace(0.0, 1.0, 6))
        ax_win.set_title("Win rate by seat (95% Wilson interval)" if self.players > 1 else
                         "Win rate: the goal reached (95% Wilson interval)")
        ax_score.set_xlabel("final score")
        ax_score.set_ylabel("games")
        ax_score.set_title("Score distribution by seat")
        fig.suptitle(title if title is not None else
                     f"{self.game}, {_seats(self.players)}: {self.games:,} games (seed {self.seed})")
        return fig

    # ---- persistence -----------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Writes the result to ``path`` (a compressed ``.npz`` file, written exactly there)."""
        path = Path(path)
        meta = {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "threads": self.threads,
            "elapsed_seconds": self.elapsed_seconds,
            **self.layout.to_meta(),
            "options": self.options,
            "agents": self.agents,
        }
        with open(path, "wb") as f:
            write_npz(f, _FILE, meta, self.arrays)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str] | IO[bytes]) -> SimulationResult:
        """Reads a result written by :meth:`save`, or (given a directory) the merged result of
        a streamed run (see :meth:`load_dir`). A file saved before results recorded opponents
        and tiers reads as a game without them: no ``opponents`` and no ``tiers``, the
        opponent arrays with no columns, and ``tier`` -1 throughout."""
        if isinstance(path, (str, os.PathLike)) and Path(path).is_dir():
            return cls.load_dir(path)
        meta, arrays = read_npz(path, _FILE, repr(path))
        return cls(
            game=meta["game"],
            players=int(meta["players"]),
            games=int(meta["games"]),
            seed=int(meta["seed"]),
            threads=int(meta["threads"]),
            elapsed_seconds=float(meta["elapsed_seconds"]),
            categories=list(meta["categories"]),
            arrays=arrays,
            options=meta.get("options"),
            agents=meta.get("agents"),
            opponents=meta.get("opponents"),
            tiers=meta.get("tiers"),
        )

    @classmethod
    def load_dir(cls, path: str | os.PathLike[str]) -> SimulationResult:
        """The run streamed to directory ``path`` (``tw.simulate(..., out=path)`` or
        ``tradewinds simulate ... --out path``), read lazily: its statistics (all that the
        summary and the win rates need) at once from the chunks' metadata, its games when
        first asked for, merged in game order (``arrays``, ``scores``, ...), or a chunk at a
        time (:meth:`chunks`). Every chunk must be present and intact, and is checked
        against the SHA-256 the directory's chunk log records as it is read; otherwise the
        error (a :class:`~tradewinds.RunDirectoryError`; for a chunk, a
        :class:`~tradewinds.ChunkError`) names the chunk and how to finish the run
        (``--resume``) or repair it (``--repair``). Files in the directory that are
        not the run's are named in a :class:`~tradewinds.StrayFileWarning` and never read.
        A directory of another format than the one this tradewinds writes is refused,
        naming its version. Reading a Parquet run
        directory needs pyarrow (``pip install 'tradewinds[parquet]'``)."""
        reader = RunReader.open(path)
        statistics, timing = reader.statistics()
        return cls.from_run(reader.manifest, statistics, timing, reader)


def _score_rows(kind: str, names: Sequence[str], stats: RunStatistics, wins: str, scores: str) -> list[list[str]]:
    """The rows of a table of win rates (with 95% Wilson intervals) and scores, one per name:
    the per-game arrays ``wins`` and ``scores`` have one column per name."""
    n = stats.games
    won_counts, mean, std = stats.count[wins], stats.mean[scores], stats.std(scores)
    low, high = stats.low[scores], stats.high[scores]
    rows = [[kind, "win rate", "95% CI", "mean score", "std score", "min", "max"]]
    for i, name in enumerate(names):
        won = int(won_counts[i])
        lo, hi = wilson_interval(won, n)
        rows.append([name, f"{won / n:.4f}", f"[{lo:.4f}, {hi:.4f}]", f"{mean[i]:.2f}", f"{std[i]:.2f}",
                     f"{low[i]:g}", f"{high[i]:g}"])
    return rows


def _seats(players: int) -> str:
    return f"{players} player{'' if players == 1 else 's'}"


def _rate(per_second: float) -> str:
    """A rate with three significant digits below 100 (MCTS plays a game or two a second)."""
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"


def _unique_labels(labels: list[str]) -> list[str]:
    seen: list[str] = []
    for label in labels:
        if label not in seen:
            seen.append(label)
    return seen


def _short_agent(label: str) -> str:
    """A seat's agent for an axis label: ``mcts:iterations=200,...`` as ``mcts``, with its
    iteration count when it is not the default."""
    name, _, params = label.partition(":")
    if name == "mcts" and params:
        values = dict(kv.split("=", 1) for kv in params.split(",") if "=" in kv)
        it = values.get("iterations")
        return f"mcts {it}" if it and it != "200" else "mcts"
    if name == "python":
        return params.rsplit(".", 1)[-1][:18]
    return name


def _table(rows: list[list[str]], left: tuple[int, ...] = (0,)) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for i, row in enumerate(rows):
        cells = [cell.ljust(widths[c]) if c in left else cell.rjust(widths[c]) for c, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
        if i == 0:
            out.append("-" * (sum(widths) + 2 * (len(widths) - 1)))
    return out


#: Seconds between the progress lines written where standard error is not a terminal.
LINE_INTERVAL = 15.0


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "--:--"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class ProgressBar:
    """Progress of a run on a text stream: a one-line bar with rate and ETA, redrawn at most
    ten times a second, for a terminal; or, with ``lines=True`` (for a stream that is not a
    terminal: a pipe, a log file), a plain line every ``interval`` seconds (default
    :data:`LINE_INTERVAL`) once a run lasts that long, so that a long run shows it is alive
    without filling a log.

    ``update(n)`` is safe to call from several threads (the simulation calls it from its
    worker threads with the number of games each finished). ``initial`` games count as done
    from the start (a resumed run) without counting towards the rate.
    """

    def __init__(
        self, total: int, stream: IO[str], width: int = 30, interval: float | None = None, initial: int = 0,
        lines: bool = False,
    ) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.lines = lines
        self.interval = interval if interval is not None else (LINE_INTERVAL if lines else 0.1)
        self.done = initial
        self._initial = initial
        self._start = time.monotonic()
        # Lines start one interval in: a short run prints none.
        self._last_draw = self._start if lines else 0.0
        self._drawn = -1
        self._lock = threading.Lock()
        self._closed = False

    def update(self, n: int) -> None:
        with self._lock:
            self.done += n
            now = time.monotonic()
            if now - self._last_draw >= self.interval or (self.done >= self.total and not self.lines):
                self._last_draw = now
                self._draw(now)

    def _draw(self, now: float) -> None:
        self._drawn = self.done
        elapsed = max(now - self._start, 1e-9)
        frac = self.done / self.total if self.total else 1.0
        rate = (self.done - self._initial) / elapsed
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        if self.lines:
            left = f", about {_duration(eta)} left" if self.done < self.total else ""
            self.stream.write(
                f"{self.done:,}/{self.total:,} games ({100 * frac:.1f}%), {_rate(rate)} games/s{left}\n"
            )
        else:
            filled = int(round(frac * self.width))
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
                f"{self.done:,}/{self.total:,} games  {_rate(rate)} games/s  ETA {_duration(eta)} "
            )
        self.stream.flush()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self.lines:
                # A last line only after earlier ones (a short run stays silent).
                if self._drawn >= 0 and self._drawn != self.done:
                    self._draw(time.monotonic())
                return
            if self._drawn != self.done:
                self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
