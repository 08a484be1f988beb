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
import atexit
import os
import shutil
import sys
import tempfile
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
from ._core import configurations
from ._core import load as _load
from ._core import replay as _replay
from ._core import shipped_data as _shipped_data
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
    "data_text",
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

def load(name: str, **options: Any) -> Game:
    """Builds game ``name`` (one of :data:`GAMES`) with its options.

    ``tw.load("north-wind", players=3)``. An unknown game or option, or a value out of
    range, raises ``ValueError`` naming what is allowed. ``data=`` takes the path of a
    component data file that replaces the shipped one (:func:`data_text` is the shipped file's
    text, :func:`data_path` a path to it), or the file's JSON object as a dict.
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


def data_text(name: str) -> str:
    """The text (JSON) of the component data file shipped for game ``name``, as built into the
    Rust core: the package holds no copy.

    Edit it and pass it to ``tw.load(name, data=...)``, as a dict
    (``data = json.loads(tw.data_text(name))``) or as a file of your own; ``tradewinds data
    NAME --out FILE`` writes it from a shell. An unknown game raises :class:`OptionError`; a
    game without a component data file raises ``FileNotFoundError``.
    """
    text = _shipped_data(name)  # an unknown name raises OptionError
    # The listed games, and a registered game still being built that ships its data file.
    if name not in GAMES and text is None:
        raise OptionError(f"unknown game {name!r}; available games: {', '.join(GAMES)}")
    if text is None:
        raise FileNotFoundError(f"{name} has no component data file")
    return text


def data_path(name: str) -> Path:
    """The path of a file that holds the component data file shipped for game ``name``, for
    what takes a path (``tw.load(name, data=path)``, OpenSpiel's ``data`` parameter).

    The file is :func:`data_text` written into the user's cache folder
    (``$XDG_CACHE_HOME/tradewinds/VERSION/``, else ``~/.cache/tradewinds/VERSION/``; on macOS
    ``~/Library/Caches``, on Windows ``%LOCALAPPDATA%``), or into a temporary folder of this
    process (removed when it exits) where that cannot be written. It is written again whenever
    it no longer matches, so edit a copy, not this file. Errors as :func:`data_text`.
    """
    text = data_text(name)
    for folder in (_cache_folder, _process_folder):
        try:
            path = folder() / f"{name}.json"
            if not (path.is_file() and path.read_text(encoding="utf-8") == text):
                _write_atomically(path, text)
            return path
        except (OSError, RuntimeError):  # RuntimeError: Path.home() is unknown
            continue
    raise OSError(f"no folder could be written to hold the data file of {name}: use tw.data_text({name!r})")


def _cache_folder() -> Path:
    """The folder of :func:`data_path`'s files in the user's cache (created if missing)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        xdg = Path(os.environ.get("XDG_CACHE_HOME", ""))
        base = xdg if xdg.is_absolute() else Path.home() / ".cache"
    folder = base / "tradewinds" / __version__
    folder.mkdir(parents=True, exist_ok=True)
    return folder


_process_temp: list[Path] = []


def _process_folder() -> Path:
    """A temporary folder of this process, readable by its user only, removed at exit."""
    if not _process_temp:
        _process_temp.append(Path(tempfile.mkdtemp(prefix="tradewinds-data-")))
        atexit.register(shutil.rmtree, _process_temp[0], ignore_errors=True)
    return _process_temp[0]


def _write_atomically(path: Path, text: str) -> None:
    """Writes ``path`` whole or not at all (another process may be reading or writing it)."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
