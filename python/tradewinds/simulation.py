"""Results of bulk random simulation, and the progress bar used while it runs."""

from __future__ import annotations

import importlib
import json
import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import IO, Any

import numpy as np
import numpy.typing as npt

__all__ = ["SimulationResult", "ProgressBar", "wilson_interval"]

_FORMAT = "tradewinds-simulation"
_FORMAT_VERSION = 1
_ARRAYS = ("scores", "winners", "moves", "decisions", "truncated", "category_points")
_Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, eq=False)
class SimulationResult:
    """What :func:`tradewinds.simulate` returns: one row per game, in game order.

    Game ``i`` was played from a seed derived from ``seed`` and ``i`` alone, so the arrays do
    not depend on ``threads``.
    """

    game: str
    players: int
    games: int
    seed: int
    threads: int
    elapsed_seconds: float
    categories: list[str]
    #: float64, shape (games, players): final scores.
    scores: npt.NDArray[np.float64]
    #: bool, shape (games, players): True where the player won (ties: every tied winner).
    winners: npt.NDArray[np.bool_]
    #: uint64, shape (games,): moves (decisions plus chance outcomes).
    moves: npt.NDArray[np.uint64]
    #: uint64, shape (games,): player decisions.
    decisions: npt.NDArray[np.uint64]
    #: bool, shape (games,): the game hit its move bound.
    truncated: npt.NDArray[np.bool_]
    #: float64, shape (games, players, len(categories)): points by scoring category.
    category_points: npt.NDArray[np.float64]
    #: The game's options (its configuration without the name), when known.
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_raw(cls, raw: Mapping[str, Any], options: Mapping[str, Any] | None = None) -> SimulationResult:
        """Builds a result from the dict ``Game.simulate`` returns."""
        return cls(
            game=str(raw["game"]),
            players=int(raw["players"]),
            games=int(raw["games"]),
            seed=int(raw["seed"]),
            threads=int(raw["threads"]),
            elapsed_seconds=float(raw["elapsed_seconds"]),
            categories=[str(c) for c in raw["categories"]],
            scores=raw["scores"],
            winners=raw["winners"],
            moves=raw["moves"],
            decisions=raw["decisions"],
            truncated=raw["truncated"],
            category_points=raw["category_points"],
            options=dict(options or {}),
        )

    # ---- rates -----------------------------------------------------------------------------

    @property
    def games_per_second(self) -> float:
        return self.games / max(self.elapsed_seconds, 1e-9)

    @property
    def decisions_per_second(self) -> float:
        return float(self.decisions.sum(dtype=np.float64)) / max(self.elapsed_seconds, 1e-9)

    @property
    def win_rate(self) -> npt.NDArray[np.float64]:
        """Fraction of games each seat won (a shared win counts for every tied winner; a game
        without a winner counts as no win for anyone). NaN when no game was played."""
        if self.games == 0:
            return np.full(self.players, np.nan)
        return np.asarray(self.winners.mean(axis=0, dtype=np.float64))

    # ---- reporting -------------------------------------------------------------------------

    def summary(self) -> str:
        """A readable table of the run: speed, win rates with 95% Wilson intervals, scores,
        game lengths and truncations."""
        n = self.games
        lines = [
            f"{self.game}, {self.players} players: {n:,} games "
            f"(seed {self.seed}, {self.threads} threads) in {self.elapsed_seconds:.3f} s",
            f"{self.games_per_second:,.0f} games/s, {self.decisions_per_second:,.0f} decisions/s",
        ]
        if n == 0:
            lines.append("no games played")
            return "\n".join(lines) + "\n"
        wins = self.winners.sum(axis=0)
        mean = self.scores.mean(axis=0)
        std = self.scores.std(axis=0)
        rows = [["seat", "win rate", "95% CI", "mean score", "std score"]]
        for p in range(self.players):
            lo, hi = wilson_interval(int(wins[p]), n)
            rows.append(
                [f"P{p}", f"{wins[p] / n:.4f}", f"[{lo:.4f}, {hi:.4f}]", f"{mean[p]:.2f}", f"{std[p]:.2f}"]
            )
        lines.append("")
        lines.extend(_table(rows))
        winners_per_game = self.winners.sum(axis=1)
        no_winner = int((winners_per_game == 0).sum())
        shared = int((winners_per_game > 1).sum())
        lines.append("")
        lines.append(f"games without a winner: {no_winner:,}; games with a shared win: {shared:,}")
        length_rows = [["game length", "mean", "min", "max"]]
        for name, arr in (("decisions", self.decisions), ("moves", self.moves)):
            length_rows.append([name, f"{arr.mean():.1f}", f"{int(arr.min()):,}", f"{int(arr.max()):,}"])
        lines.append("")
        lines.extend(_table(length_rows))
        t = int(self.truncated.sum())
        lines.append("")
        lines.append(f"truncated (move bound reached): {t:,} games ({100.0 * t / n:.2f}%)")
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (
            f"<SimulationResult {self.game} players={self.players} games={self.games} "
            f"seed={self.seed} threads={self.threads}>"
        )

    def to_pandas(self) -> Any:
        """One row per game: scores, wins and points by category for each seat, moves,
        decisions and truncation. Needs pandas."""
        try:
            pd = importlib.import_module("pandas")
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "SimulationResult.to_pandas() needs pandas, which is not installed; "
                "install it with `pip install pandas`"
            ) from e
        columns: dict[str, Any] = {"game": np.arange(self.games, dtype=np.int64)}
        for p in range(self.players):
            columns[f"score_p{p}"] = self.scores[:, p]
        for p in range(self.players):
            columns[f"win_p{p}"] = self.winners[:, p]
        for p in range(self.players):
            for c, name in enumerate(self.categories):
                columns[f"{name}_p{p}"] = self.category_points[:, p, c]
        columns["moves"] = self.moves
        columns["decisions"] = self.decisions
        columns["truncated"] = self.truncated
        return pd.DataFrame(columns)

    # ---- persistence -----------------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Writes the result to ``path`` (a compressed ``.npz`` file, written exactly there)."""
        path = Path(path)
        meta = {
            "format": _FORMAT,
            "version": _FORMAT_VERSION,
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "threads": self.threads,
            "elapsed_seconds": self.elapsed_seconds,
            "categories": self.categories,
            "options": self.options,
        }
        with open(path, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), **{k: getattr(self, k) for k in _ARRAYS})
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str] | IO[bytes]) -> SimulationResult:
        """Reads a result written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as z:
            if "meta" not in z.files:
                raise ValueError(f"{path!r} is not a saved tradewinds simulation result (no metadata)")
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != _FORMAT:
                raise ValueError(f"{path!r} is not a saved tradewinds simulation result")
            if meta.get("version") != _FORMAT_VERSION:
                raise ValueError(
                    f"{path!r} was saved in simulation-result format version {meta.get('version')}; "
                    f"this tradewinds reads version {_FORMAT_VERSION}"
                )
            missing = [k for k in _ARRAYS if k not in z.files]
            if missing:
                raise ValueError(f"{path!r} lacks the arrays {', '.join(missing)}")
            arrays = {k: z[k] for k in _ARRAYS}
        return cls(
            game=meta["game"],
            players=int(meta["players"]),
            games=int(meta["games"]),
            seed=int(meta["seed"]),
            threads=int(meta["threads"]),
            elapsed_seconds=float(meta["elapsed_seconds"]),
            categories=list(meta["categories"]),
            options=dict(meta.get("options") or {}),
            **arrays,
        )


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    out = []
    for i, row in enumerate(rows):
        cells = [cell.ljust(widths[c]) if c == 0 else cell.rjust(widths[c]) for c, cell in enumerate(row)]
        out.append("  ".join(cells).rstrip())
        if i == 0:
            out.append("-" * (sum(widths) + 2 * (len(widths) - 1)))
    return out


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "--:--"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


class ProgressBar:
    """A one-line progress bar with rate and ETA, redrawn at most ten times a second.

    ``update(n)`` is safe to call from several threads (the simulation calls it from its
    worker threads with the number of games each finished).
    """

    def __init__(self, total: int, stream: IO[str], width: int = 30, interval: float = 0.1) -> None:
        self.total = total
        self.stream = stream
        self.width = width
        self.interval = interval
        self.done = 0
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._drawn = -1
        self._lock = threading.Lock()
        self._closed = False

    def update(self, n: int) -> None:
        with self._lock:
            self.done += n
            now = time.monotonic()
            if now - self._last_draw >= self.interval or self.done >= self.total:
                self._last_draw = now
                self._draw(now)

    def _draw(self, now: float) -> None:
        self._drawn = self.done
        elapsed = max(now - self._start, 1e-9)
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        rate = self.done / elapsed
        eta = (self.total - self.done) / rate if rate > 0 else math.inf
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
            f"{self.done:,}/{self.total:,} games  {rate:,.0f} games/s  ETA {_duration(eta)} "
        )
        self.stream.flush()

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._drawn != self.done:
                self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
