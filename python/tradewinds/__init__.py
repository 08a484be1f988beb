"""tradewinds: fast, rules-complete engines for nautical trading board games.

The rules run in Rust; this package is the Python API::

    import tradewinds as tw

    game = tw.load("north-wind", players=3)
    state = game.new_state(seed=42)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    print(state.score_report())

    result = tw.simulate("north-wind", games=10_000, players=3, seed=1,
                         agents=["mcts:iterations=50", "random", "random"])
    print(result.summary())
"""

from __future__ import annotations

from importlib import metadata as _metadata
from pathlib import Path
import os
from typing import Any

from ._core import (
    CHANCE,
    GAMES,
    TERMINAL,
    DataFileError,
    Game,
    IllegalActionError,
    OptionError,
    RecordError,
    ScoreReport,
    SetupError,
    State,
    StateFormatError,
    TradewindsError,
    VectorGame,
    VectorStep,
)
from ._core import REGISTERED as _REGISTERED
from ._core import configurations
from ._core import load as _load
from ._core import replay as _replay
from .agents import AGENT_NAMES, Agent, AgentFunction
from .bulk import simulate
from .simulation import ProgressBar, SimulationResult
from .balance import Metrics
from .tournament import TournamentResult, tournament
from .sweep import SweepResult, grid, sweep
from . import objectives
from .optimise import OptimisationResult, optimise
from .streaming import ChunkError, RunDirectoryError, RunWriteError, StrayFileWarning
from ._records import record_text
from ._viewer import record_html

__all__ = [
    "GAMES",
    "CHANCE",
    "TERMINAL",
    "load",
    "configurations",
    "replay",
    "record_html",
    "simulate",
    "tournament",
    "TournamentResult",
    "sweep",
    "grid",
    "SweepResult",
    "optimise",
    "OptimisationResult",
    "objectives",
    "data_path",
    "TradewindsError",
    "OptionError",
    "IllegalActionError",
    "StateFormatError",
    "DataFileError",
    "SetupError",
    "RunDirectoryError",
    "ChunkError",
    "RunWriteError",
    "StrayFileWarning",
    "RecordError",
    "Game",
    "State",
    "ScoreReport",
    "VectorGame",
    "VectorStep",
    "SimulationResult",
    "Metrics",
    "AGENT_NAMES",
    "Agent",
    "AgentFunction",
]

#: The installed package's version (Cargo.toml's, which the build writes into the metadata).
__version__ = _metadata.version("tradewinds")

_DATA_DIR = Path(__file__).resolve().parent / "data"


def load(name: str, **options: Any) -> Game:
    """Builds game ``name`` (one of :data:`GAMES`) with its options.

    ``tw.load("north-wind", players=3)``. An unknown game or option, or a value out of
    range, raises ``ValueError`` naming what is allowed. ``data=`` takes the path of a
    component data file (see :func:`data_path`) that replaces the shipped one.
    """
    return _load(name, options)


def replay(record: str | dict[str, Any] | os.PathLike[str], moves: int | None = None) -> State:
    """Plays a game record again: the record's JSON text (what :meth:`State.record` returns),
    the record as a dict, or the path of a file holding it.

    Every move is checked; the whole record replays to the state it was written from (the
    same position, history, seed and generator, so the same log). With ``moves``, the state
    after its first ``moves`` moves, with chance left explicit (to step through a game). A
    record that cannot be replayed (corrupt, another format version, a move that is not
    legal where it stands) raises :class:`RecordError` saying what is wrong.
    """
    return _replay(record_text(record), moves)


def data_path(name: str) -> Path:
    """The path of the component data file shipped for game ``name``.

    Copy it, edit it and pass the copy as ``tw.load(name, data=path)`` to play with other
    components.
    """
    path = _DATA_DIR / f"{name}.json"
    # The listed games, and a registered game still being built that ships its data file.
    if name not in GAMES and not (name in _REGISTERED and path.is_file()):
        raise OptionError(f"unknown game {name!r}; available games: {', '.join(GAMES)}")
    if not path.is_file():
        raise FileNotFoundError(f"no component data file is shipped for {name!r} (looked for {path})")
    return path
