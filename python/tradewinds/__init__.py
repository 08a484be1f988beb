"""tradewinds: fast, rules-complete engines for nautical trading board games.

The rules run in Rust; this package is the Python API::

    import tradewinds as tw

    game = tw.load("north-wind", players=3)
    state = game.new_state(seed=42)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    print(state.score_report())

    result = tw.simulate("north-wind", games=10_000, players=3, seed=1)
    print(result.summary())
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ._core import (
    CHANCE,
    GAMES,
    STATE_FORMAT_VERSION,
    TERMINAL,
    DataFileError,
    Game,
    IllegalActionError,
    ScoreReport,
    SetupError,
    State,
    StateFormatError,
    TradewindsError,
)
from ._core import load as _load
from .simulation import ProgressBar, SimulationResult

__all__ = [
    "GAMES",
    "CHANCE",
    "TERMINAL",
    "load",
    "simulate",
    "data_path",
    "TradewindsError",
    "IllegalActionError",
    "StateFormatError",
    "DataFileError",
    "SetupError",
    "Game",
    "State",
    "ScoreReport",
    "SimulationResult",
]

__version__ = "0.1.0"

_DATA_DIR = Path(__file__).resolve().parent / "data"


def load(name: str, **options: Any) -> Game:
    """Builds game ``name`` (one of :data:`GAMES`) with its options.

    ``tw.load("north-wind", players=3)``. An unknown game or option, or a value out of
    range, raises ``ValueError`` naming what is allowed. ``data=`` takes the path of a
    component data file (see :func:`data_path`) that replaces the shipped one.
    """
    return _load(name, options)


def data_path(name: str) -> Path:
    """The path of the component data file shipped for game ``name``.

    Copy it, edit it and pass the copy as ``tw.load(name, data=path)`` to play with other
    components.
    """
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; available games: {', '.join(GAMES)}")
    path = _DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no component data file is shipped for {name!r} (looked for {path})")
    return path


def simulate(
    game_or_name: Game | str,
    games: int = 10_000,
    *,
    seed: int = 0,
    threads: int = 0,
    progress: bool | Callable[[int], object] = False,
    **options: Any,
) -> SimulationResult:
    """Plays ``games`` games with uniformly random players, on ``threads`` threads (0 = all cores).

    ``game_or_name`` is a :class:`Game`, or a game name whose options follow as keywords
    (``tw.simulate("north-wind", 1000, players=4)``). The result depends only on the game,
    ``seed`` and ``games`` - never on ``threads``. ``progress=True`` draws a progress bar on
    standard error; a callable is called with the number of games just finished (from worker
    threads, holding the GIL - keep it cheap).
    """
    if isinstance(game_or_name, Game):
        if options:
            raise TypeError(
                "options (" + ", ".join(sorted(options)) + ") can only be given with a game name; "
                "this Game is already configured"
            )
        game = game_or_name
    elif isinstance(game_or_name, str):
        game = load(game_or_name, **options)
    else:
        raise TypeError(f"simulate() needs a Game or a game name, not {type(game_or_name).__name__}")
    if isinstance(games, bool) or not isinstance(games, int):
        raise TypeError(f"games must be an int, not {type(games).__name__}")
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 0:
        raise ValueError(f"threads must be >= 0 (0 = all cores), got {threads}")
    bar: ProgressBar | None = None
    callback: Callable[[int], object] | None
    if progress is True:
        bar = ProgressBar(games, sys.stderr)
        callback = bar.update
    elif progress is False or progress is None:
        callback = None
    elif callable(progress):
        callback = progress
    else:
        raise TypeError("progress must be True, False or a callable taking the number of games finished")
    try:
        raw = game.simulate(games, seed, threads, callback)
    finally:
        if bar is not None:
            bar.close()
    return SimulationResult.from_raw(raw, game.options)
