"""Run directories: a simulation streamed durably to a directory, chunk by chunk, resumed,
and read back (:class:`RunReader`).

Layout of a run directory (format version 5, the only one this tradewinds reads)::

    DIR/_manifest.json               what the run is: game configuration, seed, agents, games,
                                     chunk size, and ``run_id``, the SHA-256 of all of it
    DIR/_chunks.jsonl                the chunk log: one line per finished chunk (its game range,
                                     size, SHA-256 of the file and of its games, the run it
                                     belongs to, timing)
    DIR/chunks/chunk-000000.parquet  games 0 .. chunk_games - 1
    DIR/chunks/chunk-000001.parquet  games chunk_games .. 2 * chunk_games - 1
    ...

``DIR/chunks`` holds the run's chunks and nothing else the run writes there but its
temporary files (``.chunk-...tmp``, which Parquet readers skip), so that it is the Parquet
dataset of the run's games: ``pandas.read_parquet(DIR / "chunks")`` (or pyarrow, polars,
duckdb pointed at it) reads exactly them. A file there (or a chunk-like file in ``DIR``) that
is not one of the run's chunks is a stray: it is named in a :class:`StrayFileWarning` by
:class:`RunReader` and when the run is resumed or repaired, and never read as the run's.

A chunk is finished once its line is in the chunk log (appended and flushed to disk by the
process that runs the simulation, after the chunk's file is in place; a chunk file left
without its line, by a process stopped in between, is read whole, checked and recorded when
the run resumes). Every read of a chunk checks its file against that line (size, then
SHA-256) before anything in it is believed, and a chunk that fails is a :class:`ChunkError`
naming it and the command that repairs it: every chunk is determined by the run's options,
seed and game range, so ``repair`` plays the damaged or missing ones again (see
docs/simulation.md for the fields). A line of the chunk log that is malformed (not JSON, its
check not matching, naming no chunk of the run) is reported by its line number and ignored:
it never takes a chunk's good line away. Lines that verify but name another run (a manifest
edited after the run) are never acted on: the directory is refused, naming the settings
that differ, and nothing in it is changed.

Each chunk is a Parquet file of the games' per-game arrays, one column per cell (see
``tradewinds._parquet``), and carries the chunk's statistics in its metadata, so that a
summary of the run decodes the files' footers only. The names of the manifest, the chunk
log, the lock (``.lock``) and damaged chunks set aside (``_chunk-...parquet.bad``) start with
an underscore or a dot, like the files that Parquet readers skip.

A directory of any other format is refused with a :class:`RunDirectoryError` naming its
version.

Every file is written to a temporary name in its folder, flushed to disk (``fsync``) and then
renamed into place, so a chunk file either is complete or does not exist, whatever happens to
the process (an exception, Ctrl-C, ``kill -9``, a power cut after the rename reached the disk).
A resumed run plays only the chunks that are missing; because game ``i`` depends only on the
seed and ``i``, the merged result equals an uninterrupted run's.

Nothing here holds more than a chunk's games at a time: writing returns the chunk's
statistics, and :class:`RunReader` gives a finished run's statistics from the chunks'
metadata and its games chunk by chunk (or all at once, on request).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import math
import os
import re
import secrets
import shlex
import socket
import stat
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ._core import TradewindsError
from ._parquet import read_chunk as _read_parquet
from ._parquet import read_chunk_meta as _read_parquet_meta
from ._parquet import read_chunk_tag as _read_parquet_tag
from ._parquet import TAG as _TAG
from ._parquet import require as _require_pyarrow
from ._parquet import write_chunk as _write_parquet
from ._results import FILE_VERSION, Layout, RangeResult, RunArrays, checksum
from ._stats import InOrder, RunStatistics

__all__ = [
    "MANIFEST", "CHUNK_LOG", "CHUNKS", "RunDirectory", "RunReader", "ChunkWriter", "Timing", "read_manifest",
    "directory_status", "chunk_name", "RunDirectoryError", "ChunkError", "RunWriteError", "StrayFileWarning",
    "RepairReport",
]


class RunDirectoryError(TradewindsError):
    """A run directory (``out=DIR``) that cannot be used as it is: not a run directory, a
    manifest or chunk log that is malformed, edited or refers outside the directory, a run
    that disagrees with the directory's. ``path`` is the directory."""

    path: str

    @classmethod
    def at(cls, path: str | os.PathLike[str], message: str) -> RunDirectoryError:
        error = cls(message)
        error.path = str(path)
        return error


class ChunkError(RunDirectoryError):
    """A chunk of a run directory that is missing, damaged (its size or SHA-256 is not the
    one its line in the chunk log records, or it does not read as a chunk) or is another
    run's. ``index`` is the chunk's, ``file`` its path, ``repair`` how to make it again (every
    chunk is determined by the run's options, seed and game range)."""

    index: int
    file: str
    repair: str


class RunWriteError(RunDirectoryError, OSError):
    """Writing a run directory failed (no space left on the device, a read-only file system,
    no permission): the message says what is saved, about how much space the rest of the run
    needs and the command that finishes it. ``errno`` is the failure's, ``saved_chunks`` and
    ``needed_bytes`` (None before a chunk was written) what the message says."""

    saved_chunks: int
    needed_bytes: int | None

    def __str__(self) -> str:
        return str(self.args[0])  # the message, not OSError's "[Errno N] ..."

    def __reduce__(self) -> tuple[Any, ...]:
        # OSError's own keeps the message but not errno and the rest, given after construction.
        state = {**self.__dict__, "errno": self.errno, "strerror": self.strerror, "filename": self.filename}
        return type(self), self.args, state


class StrayFileWarning(UserWarning):
    """A run directory holds files that are not its run's: in ``DIR/chunks`` (the run's
    Parquet dataset), anything but the run's chunks; in ``DIR``, chunk-like files. The run
    never reads them, but a Parquet reader pointed at ``DIR/chunks`` would: the warning names
    each (the first few, and how many more)."""


# Public as ``tradewinds.RunDirectoryError`` and so on, like the errors of the extension.
for _public in (RunDirectoryError, ChunkError, RunWriteError, StrayFileWarning):
    _public.__module__ = "tradewinds"

#: The manifest of a run directory.
MANIFEST = "_manifest.json"
#: The folder of a run directory that holds its chunks (and only them): its Parquet dataset.
CHUNKS = "chunks"
_FORMAT = "tradewinds-simulation-dir"
#: The run-directory format version, the only one written and read.
_VERSION = 5
#: The chunk log of a run directory.
CHUNK_LOG = "_chunks.jsonl"
#: The largest manifest read (a manifest holds the component data of its game: kilobytes).
_MANIFEST_LIMIT = 16 << 20
#: The longest line of the chunk log read as a record (a record is a few hundred bytes).
_LOG_LINE_LIMIT = 1 << 16
#: The largest size or thread count a line of the chunk log may give (what a record keeps).
_INT64 = (1 << 63) - 1
#: Failures of a write that space or permissions cause (what :class:`RunWriteError` reports).
_WRITE_FAILURES = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM",
                                                             "EFBIG") if hasattr(errno, name))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_LOCK = ".lock"
#: How many strays, or malformed lines of the chunk log, a message names (it counts the rest).
_NAMED = 10

#: Manifest entries that must agree for a directory to be resumed, in the order reported.
_IDENTITY = ("game", "config", "players", "seed", "games", "chunk_games", "agents", "opponents", "tiers", "metrics")


def make_manifest(
    *,
    game: str,
    config: Mapping[str, Any],
    layout: Layout,
    seed: int,
    games: int,
    chunk_games: int,
    agents: list[str],
    metrics: bool = False,
) -> dict[str, Any]:
    """The manifest of a run (what :class:`RunDirectory` writes first); ``layout`` is the
    game's (its seats, scoring categories, opponents and tiers). A run that measures the
    design metrics says so (``"metrics": true``); one that does not has no such entry."""
    chunks = -(-games // chunk_games) if games else 0
    manifest: dict[str, Any] = {
        "format": _FORMAT,
        "version": _VERSION,
        "chunk_format": "parquet",
        "game": game,
        "config": dict(config),
        "options": {k: v for k, v in config.items() if k != "game"},
        "seed": seed,
        "games": games,
        "chunk_games": chunk_games,
        "chunks": chunks,
        "agents": list(agents),
        **layout.to_meta(),
        **({"metrics": True} if metrics else {}),
        "checksum": "sha256",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    manifest["run_id"] = run_id(manifest)
    return manifest


def run_id(manifest: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of a manifest's entries but ``run_id`` and ``created``, as compact
    JSON with sorted keys: what every chunk and line of the chunk log of the run records, and
    what shows that the manifest was not changed since it was written."""
    body = {k: v for k, v in manifest.items() if k not in ("run_id", "created")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The contents of the regular file ``path``, not followed if it is a symbolic link;
    ``ValueError`` saying why for anything else or for a file over ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ValueError("it is missing") from None
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(path):
            raise ValueError("it is a symbolic link (a run directory holds its files itself)") from None
        raise
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("it is not a regular file")
        # What the file holds, and a byte more if it grew meanwhile (a read of the limit
        # would allocate the limit).
        data = f.read(min(info.st_size, limit) + 1)
    if len(data) > limit:
        raise ValueError(f"it is larger than {limit:,} bytes")
    return data


def _int(value: Any, low: int, high: int | None = None) -> bool:
    return (not isinstance(value, bool) and isinstance(value, int) and value >= low
            and (high is None or value <= high))


def _names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _manifest_problem(manifest: Mapping[str, Any]) -> str | None:
    """What is wrong with the entries of a manifest, or None."""
    checks: list[tuple[str, bool, str]] = [
        ("game", isinstance(manifest["game"], str), "a game's name"),
        ("config", isinstance(manifest["config"], dict) and manifest["config"].get("game") == manifest["game"],
         "the game's configuration"),
        ("players", _int(manifest["players"], 1, 64), "a number of seats"),
        ("seed", _int(manifest["seed"], 0, (1 << 64) - 1), "an integer in [0, 2**64 - 1]"),
        ("games", _int(manifest["games"], 0, (1 << 63) - 1), "a number of games"),
        ("chunk_games", _int(manifest["chunk_games"], 1, (1 << 63) - 1), "a number of games >= 1"),
        ("agents", _names(manifest["agents"]), "a list of agents"),
        ("categories", _names(manifest["categories"]), "a list of names"),
        ("opponents", _names(manifest["opponents"]), "a list of names"),
        ("tiers", _names(manifest["tiers"]), "a list of names"),
    ]
    for key, ok, what in checks:
        if not ok:
            return f"its {key} ({_shown(manifest[key])}) is not {what}"
    games, chunk_games = manifest["games"], manifest["chunk_games"]
    if manifest["chunks"] != -(-games // chunk_games):
        return (f"its chunks ({_shown(manifest['chunks'])}) is not the number of chunks of {games} games "
                f"of {chunk_games}")
    if len(manifest["agents"]) != manifest["players"]:
        return f"it names {len(manifest['agents'])} agents for {manifest['players']} seats"
    return None


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of run directory ``path``, or None when it has none. Raises
    :class:`RunDirectoryError` saying why when it is not a tradewinds run directory's manifest
    of the format this tradewinds reads, is malformed or was changed since the run wrote it
    without its ``run_id`` being made to match (an edit that recomputed it shows when the
    chunks are checked: see :func:`foreign_run`)."""
    where = Path(path)
    if where.exists() and not where.is_dir():
        raise RunDirectoryError.at(path, f"{path} is not a directory")
    file = where / MANIFEST
    if not os.path.lexists(file):
        return None

    def refuse(why: str) -> RunDirectoryError:
        return RunDirectoryError.at(path, f"{file} {why}")

    try:
        text = _read_file(file, _MANIFEST_LIMIT).decode("utf-8")
        manifest = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError and our own reasons are ValueErrors
        why = f"is not valid JSON ({e})" if isinstance(e, json.JSONDecodeError) else f"cannot be read: {e}"
        raise refuse(f"{why}; it is not a tradewinds run directory's manifest") from None
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
        raise refuse("is not the manifest of a tradewinds simulation directory")
    version = manifest.get("version")
    if type(version) is not int or version != _VERSION:
        raise refuse(f"is of run-directory format version {_shown(version)}; this tradewinds reads version "
                     f"{_VERSION} only: read the directory with the tradewinds that wrote it, or play the run "
                     "again into a new directory (the same game, options, seed and agents give the same games)")
    missing = [k for k in (*_IDENTITY, "chunks", "categories") if k not in manifest and k != "metrics"]
    if missing:
        raise refuse(f"lacks {', '.join(missing)}")
    problem = _manifest_problem(manifest)
    if problem is not None:
        raise refuse(f"is malformed: {problem}")
    if manifest.get("run_id") != run_id(manifest):
        raise refuse("was changed after the run wrote it, or is damaged: its run_id is not the SHA-256 of its "
                     "entries. Its chunks belong to the run it described; restore it, or play the run again "
                     "into a new directory")
    return manifest


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def manifest_differences(old: Mapping[str, Any], new: Mapping[str, Any],
                         names: tuple[str, str] = ("the directory", "this run")) -> list[str]:
    """How manifest ``new`` disagrees with ``old``, one line per setting, naming it: ``seed:
    the directory has 1, this run 2`` (``names`` are what ``old`` and ``new`` are called)."""
    out = []
    was, now = names
    for key in _IDENTITY:
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if key == "config" and isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if k == "game" or a.get(k) == b.get(k):
                    continue
                what = "the component data differ" if k == "data" else (
                    f"{was} has {_shown(a.get(k, '(default)'))}, {now} {_shown(b.get(k, '(default)'))}")
                out.append(f"option {k}: {what}")
        elif key == "agents" and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for p, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    out.append(f"agent of seat {p}: {was} has {_cut(str(x), 60)}, {now} {_cut(str(y), 60)}")
        elif key == "players" and old.get("config", {}).get("players") != new.get("config", {}).get("players"):
            continue  # already reported as an option
        elif key in ("opponents", "tiers") and old.get("config") != new.get("config"):
            continue  # follows from the options, already reported
        else:
            out.append(f"{key}: {was} has {_shown(a)}, {now} {_shown(b)}")
    return out


def _fsync_directory(path: str | os.PathLike[str]) -> None:
    if os.name != "posix":  # pragma: no cover - directories cannot be opened for fsync elsewhere
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike[str], write: Callable[[IO[bytes]], None]) -> None:
    """Writes ``path`` so that it either holds everything ``write`` wrote or does not change:
    a temporary file in the same directory, fsync, rename, fsync of the directory. (Plain
    strings, not ``pathlib``, which interns every name it parses: a run's many temporary
    names would leave the interpreter's table of interned strings large.)"""
    where, name = os.path.split(os.fspath(path))
    tmp = os.path.join(where, f".{name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_directory(where or ".")


# ---- chunk files ----------------------------------------------------------------------------


def _require() -> None:
    """Raises ``ImportError`` (saying how to install it) when pyarrow, which writes and reads
    the chunks, is missing."""
    _require_pyarrow("a run directory (out=DIR, --out DIR), a Parquet dataset,")


def chunk_name(index: int, chunks: int) -> str:
    """The file name of chunk ``index`` of a run of ``chunks`` chunks (in ``DIR/chunks``)."""
    width = max(6, len(str(max(chunks - 1, 0))))
    return f"chunk-{index:0{width}d}.parquet"


def chunk_path(path: str | os.PathLike[str], index: int, chunks: int) -> Path:
    """The path of chunk ``index`` of a run of ``chunks`` chunks in run directory ``path``."""
    return Path(path) / CHUNKS / chunk_name(index, chunks)


def _set_aside_name(name: str) -> str:
    """The name (in ``DIR``) a damaged chunk is renamed to: one that readers of the dataset
    skip, outside the run's dataset."""
    return f"_{name}.bad"


#: A name the run gives its chunks (in any run; which index is the run's is checked apart).
_CHUNK_NAME = re.compile(r"chunk-(\d{6,})\.parquet")


def _read_chunk(data: bytes, layout: Layout, first: int) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The metadata and the per-game arrays of a chunk file whose contents (already checked)
    are ``data``, and whose games start at game ``first``. Raises ``ValueError`` saying why it
    cannot be read."""
    meta, game, arrays = _read_parquet(data, layout)
    if not np.array_equal(game, np.arange(first, first + len(game), dtype=np.int64)):
        raise ValueError(f"its games are not those from game {first} on")
    return meta, arrays


def _chunk_span(manifest: Mapping[str, Any], index: int) -> tuple[int, int]:
    """``(first game, games)`` of chunk ``index``."""
    chunk_games = int(manifest["chunk_games"])
    first = index * chunk_games
    return first, min(chunk_games, int(manifest["games"]) - first)


def _check_meta(meta: Mapping[str, Any], games: int, index: int, manifest: Mapping[str, Any]) -> None:
    first, want = _chunk_span(manifest, index)
    for key, value in (("index", index), ("first", first), ("games", want), ("seed", manifest["seed"])):
        if meta.get(key) != value:
            raise ValueError(f"its {key} is {_shown(meta.get(key))}, the manifest implies {value!r}")
    if games != want:
        raise ValueError(f"it holds {games} games, the manifest implies {want}")
    if meta.get("run_id") != manifest["run_id"]:
        raise ValueError("it belongs to another run (its run_id is not the manifest's)")


def _chunk_statistics(meta: Mapping[str, Any], games: int, layout: Layout) -> RunStatistics:
    """The statistics a chunk's metadata records."""
    if "statistics" not in meta:
        raise ValueError("its metadata holds no statistics")
    try:
        stats = RunStatistics.from_json(meta["statistics"], layout)
    except (KeyError, TypeError, IndexError) as e:
        raise ValueError(f"its statistics are malformed ({type(e).__name__}: {e})") from None
    if stats.games != games:
        raise ValueError(f"its statistics count {stats.games} games, it holds {games}")
    return stats


#: The entries of a chunk's timing (all :class:`Timing` reads), in its line of the chunk log.
_TIMING = ("threads", "session", "session_start", "finished", "elapsed_seconds")


class Timing:
    """The wall-clock time spent on a run and the most threads a chunk of it was played on,
    from the timing of its chunks: for each session (one process's run, or its part of it),
    from its start to its last finished chunk, summed over sessions."""

    def __init__(self) -> None:
        self.sessions: dict[str, tuple[float, float]] = {}
        self.threads = 0

    def add(self, meta: Mapping[str, Any]) -> None:
        key = str(meta.get("session", ""))
        start = float(meta.get("session_start", 0.0))
        end = float(meta.get("finished", start))
        s, e = self.sessions.get(key, (start, end))
        self.sessions[key] = (min(s, start), max(e, end))
        self.threads = max(self.threads, int(meta.get("threads", 1)))

    @property
    def seconds(self) -> float:
        return sum(max(0.0, e - s) for s, e in self.sessions.values())


# ---- strays ----------------------------------------------------------------------------------


def _chunks_folder(path: Path) -> Path:
    """``path/chunks``, once it is known not to be a symbolic link or anything but a folder
    (it may be missing); :class:`RunDirectoryError` otherwise."""
    folder = path / CHUNKS
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        return folder
    if stat.S_ISLNK(info.st_mode):
        raise RunDirectoryError.at(path, f"{folder} is a symbolic link; a run directory holds its chunks itself")
    if not stat.S_ISDIR(info.st_mode):
        raise RunDirectoryError.at(path, f"{folder} is not a folder; it is where a run directory holds its chunks")
    return folder


def _is_run_chunk(name: str, chunks: int) -> bool:
    m = _CHUNK_NAME.fullmatch(name)
    return m is not None and int(m.group(1)) < chunks and name == chunk_name(int(m.group(1)), chunks)


def strays(path: str | os.PathLike[str], manifest: Mapping[str, Any]) -> list[str]:
    """The files of run directory ``path`` that are not its run's (relative to ``path``, in
    name order): in ``chunks/``, everything but the run's chunks and the hidden names
    (``.``, ``_``) that Parquet readers skip; in ``path`` itself, the chunk-like names
    (``chunk...``, ``*.parquet``)."""
    where = Path(path)
    chunks = int(manifest["chunks"])
    out = []
    folder = _chunks_folder(where)
    if folder.is_dir():
        with os.scandir(folder) as entries:
            out += [f"{CHUNKS}/{e.name}" for e in entries
                    if not e.name.startswith((".", "_")) and not _is_run_chunk(e.name, chunks)]
    with os.scandir(where) as entries:
        out += [e.name for e in entries
                if not e.name.startswith((".", "_")) and e.name != CHUNKS
                and (e.name.startswith("chunk") or e.name.endswith(".parquet"))]
    return sorted(out)


def _named(items: list[str], total: int | None = None) -> str:
    """The first :data:`_NAMED` of ``items`` (each cut to a sensible length), and how many
    more there are (of ``total``, when more were counted than kept)."""
    total = len(items) if total is None else total
    shown = ", ".join(_cut(i) for i in items[:_NAMED])
    return shown + (f" and {total - min(len(items), _NAMED):,} more" if total > _NAMED else "")


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def warn_strays(path: str | os.PathLike[str], manifest: Mapping[str, Any], stacklevel: int = 3) -> None:
    """A :class:`StrayFileWarning` naming the strays of run directory ``path``, if it has any."""
    found = strays(path, manifest)
    if not found:
        return
    one = len(found) == 1
    warnings.warn(
        f"{path} holds {len(found):,} file{'' if one else 's'} that {'is' if one else 'are'} not its run's "
        f"chunk{'' if one else 's'}: {_named(found)}. The run never reads "
        f"{'it' if one else 'them'}, but a Parquet reader pointed at {Path(path) / CHUNKS} (the run's dataset) "
        f"reads every file there: move {'it' if one else 'them'} out of the run directory",
        StrayFileWarning, stacklevel=stacklevel)


# ---- the chunk log ---------------------------------------------------------------------------

_HEX64 = re.compile(r"[0-9a-f]{64}")
#: Why a line of the chunk log that verifies is not this run's.
_FOREIGN = "it is another run's (its run_id is not the manifest's)"


def _line_check(record: Mapping[str, Any]) -> str:
    """The check of a line of the chunk log: the first 16 hex digits of the SHA-256 of its
    other entries (compact JSON, sorted keys), so that a damaged line is not believed."""
    body = {k: v for k, v in record.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()[:16]


def _log_line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps({**record, "check": _line_check(record)}, sort_keys=True) + "\n").encode("utf-8")


def _record_problem(record: Any, manifest: Mapping[str, Any]) -> str | None:
    """None for a valid line of the chunk log of the run of ``manifest``; why it is not one
    otherwise (:data:`_FOREIGN` for a line whose check matches but that is another run's)."""
    if not isinstance(record, dict):
        return "it is not a JSON object"
    if record.get("check") != _line_check(record):
        return "its check does not match (damaged, or edited)"
    if record.get("run_id") != manifest["run_id"]:
        return _FOREIGN
    chunks = int(manifest["chunks"])
    if not _int(record.get("index"), 0, chunks - 1):
        return f"its index {_shown(record.get('index'))} is no chunk of the run"
    index = int(record["index"])
    first, games = _chunk_span(manifest, index)
    name = chunk_name(index, chunks)
    if record.get("file") != name:
        return f"it names the file {_shown(record.get('file'))}, not {name}"
    if (record.get("first"), record.get("games")) != (first, games):
        return f"it gives games {_shown(record.get('first'))} on, not {first} on"
    if not _int(record.get("bytes"), 1, _INT64) or not all(isinstance(record.get(k), str) and _HEX64.fullmatch(record[k])
                                                  for k in ("sha256", "data_sha256")):
        return "it lacks its chunk's size or checksums"
    if not (_int(record.get("threads"), 0, _INT64) and isinstance(record.get("session"), str)
            and all(_number(record.get(k)) for k in ("session_start", "finished", "elapsed_seconds"))):
        return "it lacks its chunk's timing"
    return None


def _number(value: Any) -> bool:
    """Whether ``value`` is a finite number (a time, in seconds)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


class ChunkRecords(Mapping[int, dict[str, Any]]):
    """The valid line of each chunk of a run, as the chunk log gives it, kept as a row of
    109 bytes (whatever the line holds) rather than as the parsed line: what is checked of a
    chunk (its file's size and SHA-256, its games' checksum) and its timing.
    ``records[index]`` gives them as a dict. Rows are allocated in blocks of consecutive
    chunks, as lines name them."""

    _ROW = np.dtype([("present", np.bool_), ("bytes", np.int64), ("sha256", np.uint8, 32),
                     ("data_sha256", np.uint8, 32), ("threads", np.int64), ("session", np.int32),
                     ("times", np.float64, 3)])  # session_start, finished, elapsed_seconds
    _BLOCK = 1024

    def __init__(self) -> None:
        self._blocks: dict[int, npt.NDArray[np.void]] = {}
        self._count = 0
        self._sessions: list[str] = []
        self._session_ids: dict[str, int] = {}

    def _row(self, index: int, create: bool = False) -> np.void | None:
        block = self._blocks.get(index // self._BLOCK)
        if block is None:
            if not create:
                return None
            block = self._blocks[index // self._BLOCK] = np.zeros(self._BLOCK, dtype=self._ROW)
        row: np.void = block[index % self._BLOCK]
        return row

    def add(self, index: int, record: Mapping[str, Any]) -> None:
        """Keeps ``record``, a valid line (see :func:`_record_problem`), as chunk ``index``'s."""
        session = self._session_ids.setdefault(record["session"], len(self._sessions))
        if session == len(self._sessions):
            self._sessions.append(record["session"])
        row = self._row(index, create=True)
        assert row is not None
        self._count += not row["present"]
        row["present"] = True
        row["bytes"] = record["bytes"]
        row["sha256"] = np.frombuffer(bytes.fromhex(record["sha256"]), dtype=np.uint8)
        row["data_sha256"] = np.frombuffer(bytes.fromhex(record["data_sha256"]), dtype=np.uint8)
        row["threads"] = record["threads"]
        row["session"] = session
        row["times"] = (record["session_start"], record["finished"], record["elapsed_seconds"])

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int) or index < 0:
            return False
        row = self._row(index)
        return row is not None and bool(row["present"])

    def __getitem__(self, index: int) -> dict[str, Any]:
        row = self._row(index) if isinstance(index, int) and index >= 0 else None
        if row is None or not row["present"]:
            raise KeyError(index)
        start, finished, elapsed = (float(t) for t in row["times"])
        return {"bytes": int(row["bytes"]), "sha256": row["sha256"].tobytes().hex(),
                "data_sha256": row["data_sha256"].tobytes().hex(), "threads": int(row["threads"]),
                "session": self._sessions[int(row["session"])], "session_start": start, "finished": finished,
                "elapsed_seconds": elapsed}

    def __iter__(self) -> Iterator[int]:
        for key in sorted(self._blocks):
            for offset in np.flatnonzero(self._blocks[key]["present"]):
                yield key * self._BLOCK + int(offset)

    def __len__(self) -> int:
        return self._count


def _log_lines(path: Path) -> Iterator[tuple[int, bytes | None]]:
    """The lines of the chunk log of run directory ``path``, numbered from 1: each line's
    bytes, or None for a line too long to be a record or left unfinished. Yields nothing when
    there is no log; :class:`RunDirectoryError` when it is a symbolic link or not a file."""
    file = path / CHUNK_LOG
    if not os.path.lexists(file):
        return
    try:
        fd = os.open(file, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(file):
            raise RunDirectoryError.at(path, f"{file} is a symbolic link; a run directory holds its "
                                             "chunk log itself") from None
        raise
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise RunDirectoryError.at(path, f"{file} is not a regular file")
        number = 0
        while True:
            line = f.readline(_LOG_LINE_LIMIT)
            if not line:
                return
            number += 1
            if not line.endswith(b"\n"):
                if len(line) == _LOG_LINE_LIMIT:  # too long: skip the rest of it
                    while (more := f.readline(_LOG_LINE_LIMIT)) and not more.endswith(b"\n"):
                        pass
                    yield number, None
                # else: the last line, left unfinished by a process that died appending it
                # (cut off when the run resumes): not a line yet.
                continue
            yield number, line


@dataclass
class ChunkLog:
    """What the chunk log of a run directory says: the valid line of each chunk (the last
    one, when a chunk was played again), and its malformed lines: the first
    :data:`_NAMED` with their line numbers and why (``malformed``), and how many
    (``malformed_count``). A malformed line is ignored: it takes no chunk's valid line away.
    ``foreign`` keeps the first few lines that verify but are another run's (a manifest edited
    after the run; see :func:`foreign_run`). The log is read a line at a time, and only what is
    checked of each chunk is kept (:class:`ChunkRecords`)."""

    records: ChunkRecords
    malformed: list[tuple[int, str]]
    malformed_count: int
    foreign: list[tuple[int, dict[str, Any]]]
    #: Whether the directory has a chunk log at all.
    exists: bool

    @classmethod
    def read(cls, path: Path, manifest: Mapping[str, Any]) -> ChunkLog:
        log = cls(ChunkRecords(), [], 0, [], os.path.lexists(path / CHUNK_LOG))
        for number, line in _log_lines(path):
            problem = _line_problem(line, manifest)
            if problem is None:
                assert line is not None
                record = json.loads(line)
                log.records.add(int(record["index"]), record)
                continue
            if problem == _FOREIGN and len(log.foreign) < _NAMED:
                assert line is not None
                log.foreign.append((number, json.loads(line)))
            log.malformed_count += 1
            if len(log.malformed) < _NAMED:
                log.malformed.append((number, problem))
        return log

    def report(self, path: Path) -> str | None:
        """What the malformed lines are (by line number), or None when there are none."""
        if not self.malformed_count:
            return None
        lines = [f"line {n} ({why})" for n, why in self.malformed]
        one = self.malformed_count == 1
        return (f"{path / CHUNK_LOG} has {self.malformed_count:,} malformed line{'' if one else 's'}, ignored: "
                f"{_named(lines, self.malformed_count)}")


def _line_problem(line: bytes | None, manifest: Mapping[str, Any]) -> str | None:
    """Why a line of the chunk log (as :func:`_log_lines` gives it) is not a valid line of the
    run of ``manifest``, or None."""
    if line is None:
        return f"it is longer than {_LOG_LINE_LIMIT:,} bytes"
    try:
        record = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return "it is not JSON"
    return _record_problem(record, manifest)


def _rewrite_log(path: Path, manifest: Mapping[str, Any]) -> None:
    """Rewrites the chunk log of ``path`` with only its valid lines (atomically)."""
    kept = [line for _, line in _log_lines(path) if line is not None and _line_problem(line, manifest) is None]

    def write(f: IO[bytes]) -> None:
        for line in kept:
            f.write(line)

    atomic_write(path / CHUNK_LOG, write)


def _open_log(path: Path) -> int:
    """The chunk log of ``path`` opened for appending (created if need be); a line left
    unfinished by a process that died while appending it is cut off first."""
    file = path / CHUNK_LOG
    try:
        fd = os.open(file, os.O_RDWR | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(file):
            raise RunDirectoryError.at(path, f"{file} is a symbolic link; a run directory holds its chunk log "
                                             "itself") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RunDirectoryError.at(path, f"{file} is not a regular file")
        size = os.fstat(fd).st_size
        if size:
            tail = os.pread(fd, min(size, _LOG_LINE_LIMIT), size - min(size, _LOG_LINE_LIMIT))
            if not tail.endswith(b"\n"):
                cut = tail.rfind(b"\n")
                os.ftruncate(fd, size - len(tail) + cut + 1 if cut >= 0 else size - len(tail))
                os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _checked_bytes(path: Path, record: Mapping[str, Any]) -> bytes:
    """The contents of chunk file ``path`` once its size and SHA-256 are those ``record`` (its
    line of the chunk log) gives; ``ValueError`` saying how it differs otherwise."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise ValueError("it is missing") from None
    if stat.S_ISLNK(info.st_mode):
        raise ValueError("it is a symbolic link (a run directory holds its chunks itself)")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("it is not a regular file")
    want = int(record["bytes"])
    if info.st_size != want:
        raise ValueError(f"it holds {info.st_size:,} bytes, its line of the chunk log records {want:,} "
                         "(truncated, or replaced)")
    data = _read_file(path, want)
    if hashlib.sha256(data).hexdigest() != record["sha256"]:
        raise ValueError("its SHA-256 is not the one its line of the chunk log records (damaged on disk, "
                         "or changed)")
    return data


def _verified(path: Path, manifest: Mapping[str, Any], layout: Layout, index: int,
              record: Mapping[str, Any]) -> bytes:
    """The contents of chunk file ``path`` once its size and SHA-256 are those its line of
    the chunk log (``record``) gives; otherwise ``ValueError`` saying how it differs (what its
    footer shows, when it says more: another run, a chunk of other games, not a chunk)."""
    try:
        return _checked_bytes(path, record)
    except ValueError as e:
        if os.path.isfile(path) and not os.path.islink(path):
            meta, games = _read_parquet_meta(path, layout)
            _check_meta(meta, games, index, manifest)
        raise e from None


def foreign_run(path: Path, manifest: Mapping[str, Any], log: ChunkLog) -> str | None:
    """Why run directory ``path`` must not be read, resumed or repaired under ``manifest``
    because its chunks are another run's (a manifest edited after the run, its ``run_id``
    recomputed), or None. Shown by a chunk that verifies against a line of the chunk log
    that is another run's, or (without any line of this run) by the footer of a chunk file:
    the message names the settings in which the manifest and the chunks' run differ."""
    witness: tuple[str, dict[str, Any]] | None = None
    for number, record in log.foreign:
        name = record.get("file")
        if not (isinstance(name, str) and _CHUNK_NAME.fullmatch(name) and _int(record.get("bytes"), 1, _INT64)
                and isinstance(record.get("sha256"), str)):
            continue
        try:
            meta = _read_chunk_tag(_checked_bytes(path / CHUNKS / name, record))
        except ValueError:
            continue
        witness = (f"{CHUNKS}/{name}, which verifies against line {number} of the chunk log,", meta)
        break
    if witness is None and not log.records:
        for index in _present(path, manifest):
            try:
                meta = _read_chunk_tag(chunk_path(path, index, int(manifest["chunks"])))
            except ValueError:
                continue
            witness = (f"{CHUNKS}/{chunk_name(index, int(manifest['chunks']))}", meta)
            break
    if witness is None:
        return None
    name, meta = witness
    run = meta.get("run")
    if meta.get("run_id") == manifest["run_id"] or not isinstance(run, dict):
        return None
    diffs = manifest_differences(run, manifest, ("the chunks' run", "the manifest")) or [
        "its run_id is not the manifest's (entries other than the run's settings were changed)"]
    return (f"{path}: its manifest is not the one its chunks were written under: {name} was written by a run "
            "that differs from the manifest in\n  " + "\n  ".join(diffs[:_NAMED]) +
            "\nThe manifest was changed after the run wrote it. Nothing was read into the run or changed: "
            f"restore the manifest ({MANIFEST}) as the run wrote it, or play the run again into a new directory")


def _read_chunk_tag(source: Path | bytes) -> dict[str, Any]:
    """The tradewinds metadata of a Parquet chunk (whatever its columns); ``ValueError``
    when it is not one."""
    try:
        return _read_parquet_tag(source)
    except (OSError, ValueError) as e:
        raise ValueError(str(e)) from None


def _hint_agents(manifest: Mapping[str, Any]) -> bool:
    return any(str(a).startswith("python:") for a in manifest["agents"])


def resume_hint(manifest: Mapping[str, Any], path: str | os.PathLike[str]) -> str:
    """How to finish the run in ``path``: the command (or, for a run with Python agents, the
    call)."""
    call = f"tw.simulate(..., out={str(path)!r}, resume=True)"
    if _hint_agents(manifest):
        return f"finish it from Python with the run's agents: {call}"
    return f"finish it with `tradewinds simulate {manifest['game']} --out {shlex.quote(str(path))} --resume` or {call}"


def repair_hint(manifest: Mapping[str, Any], path: str | os.PathLike[str]) -> str:
    """How to repair the run in ``path``: play its damaged and missing chunks again."""
    call = f"tw.simulate(..., out={str(path)!r}, repair=True)"
    if _hint_agents(manifest):
        return f"repair it from Python with the run's agents: {call}"
    return (f"repair it with `tradewinds simulate {manifest['game']} --out {shlex.quote(str(path))} --repair` "
            f"or {call}, which play it again and report what they replaced (--resume plays it again too)")


def _repair_command(manifest: Mapping[str, Any], path: str | os.PathLike[str]) -> str:
    call = f"tw.simulate(..., out={str(path)!r}, repair=True)"
    if _hint_agents(manifest):
        return call
    return f"`tradewinds simulate {manifest['game']} --out {shlex.quote(str(path))} --repair` or {call}"


def _chunk_error(path: Path, manifest: Mapping[str, Any], index: int, why: str) -> ChunkError:
    file = chunk_path(path, index, int(manifest["chunks"]))
    hint = repair_hint(manifest, path)
    error = ChunkError(f"{file} is damaged: {why}; {hint}")
    error.path, error.index, error.file, error.repair = str(path), index, str(file), hint
    return error


@dataclass(frozen=True)
class ChunkWriter:
    """Writes the chunks of one session of a run to its directory ``path``; small and
    picklable, so that a Dask worker writes the chunks it plays. ``run`` holds what every
    chunk records of the run (game, options, seed, agents, the names along the axes)."""

    path: str
    chunks: int
    layout: Layout
    run: dict[str, Any]
    session: str
    session_start: float
    run_id: str

    def write(self, index: int, part: RangeResult, threads: int) -> tuple[RunStatistics, dict[str, Any]]:
        """Writes chunk ``index`` atomically; returns its statistics and its line of the
        chunk log (checksums and timing)."""
        stats = RunStatistics.of(part.arrays, self.layout)
        # A chunk holds only what its games determine, so that playing it again writes the
        # same bytes; its timing goes to the log.
        meta: dict[str, Any] = {
            "format": _TAG,
            "version": FILE_VERSION,
            "index": index,
            "first": part.first,
            "games": part.games,
            "seed": self.run["seed"],
            "run_id": self.run_id,
            "run": self.run,
            "statistics": stats.to_json(),
        }
        buffer = io.BytesIO()
        _write_parquet(buffer, meta, part.arrays, self.layout, part.first)
        data = buffer.getvalue()
        name = chunk_name(index, self.chunks)

        def write(f: IO[bytes]) -> None:
            f.write(data)

        atomic_write(os.path.join(self.path, CHUNKS, name), write)
        record = {"index": index, "file": name, "first": part.first, "games": part.games, "bytes": len(data),
                  "sha256": hashlib.sha256(data).hexdigest(), "data_sha256": checksum(part.arrays),
                  "run_id": self.run_id, "elapsed_seconds": part.elapsed_seconds, "threads": threads,
                  "session": self.session, "session_start": self.session_start, "finished": time.time(),
                  "writer": {"host": socket.gethostname(), "pid": os.getpid()}}
        return stats, record


@dataclass(frozen=True)
class RepairReport:
    """What a repair did to run directory ``path`` of ``chunks`` chunks: the chunks it
    played again (``replaced``: file name and why), each verified after writing; the others
    were verified as they were."""

    path: str
    chunks: int
    replaced: tuple[tuple[str, str], ...]
    #: Chunks whose file was whole but whose line of the chunk log was missing or unreadable:
    #: read in full, checked and recorded again.
    recorded: tuple[str, ...] = ()
    #: How many malformed lines the chunk log lost (it was rewritten with its valid lines).
    dropped_lines: int = 0

    def __str__(self) -> str:
        if not self.replaced:
            lines = [f"repair: all {self.chunks} chunks of {self.path} verified; nothing to replace"]
        else:
            lines = [f"repair: replaced {len(self.replaced)} of {self.chunks} chunks of {self.path}, each played "
                     "again and verified (the others verified as they were):"]
            lines += [f"  {name}: {why}" for name, why in self.replaced]
        if self.recorded:
            lines.append(f"  recorded again in the chunk log, their files read whole: {', '.join(self.recorded)}")
        if self.dropped_lines:
            lines.append(f"  removed {self.dropped_lines:,} malformed line{'' if self.dropped_lines == 1 else 's'} "
                         "from the chunk log")
        return "\n".join(lines)


class RunDirectory:
    """A run directory opened for writing: its manifest is on disk, and no other run writes
    to it while it is open (on POSIX systems, an exclusive lock on ``DIR/.lock``)."""

    def __init__(self, path: Path, manifest: dict[str, Any], lock: IO[bytes] | None) -> None:
        self.path = path
        self.manifest = manifest
        self.layout = Layout.from_meta(manifest)
        self._lock = lock
        self._log: int | None = None
        #: The chunk log's line of each chunk finished before this session, as :meth:`finished`
        #: read it, for its timing.
        self._records: ChunkRecords | None = None
        #: The chunks found damaged or missing by :meth:`finished`, and why.
        self.damaged: dict[int, str] = {}
        #: The games' checksum each damaged chunk must have when played again (from its line).
        self._expected: dict[int, str] = {}
        #: The chunks recorded in the chunk log by :meth:`finished` after their file was checked.
        self.adopted: list[int] = []
        #: How many malformed lines :meth:`finished` removed from the chunk log (a repair).
        self.dropped_lines = 0
        run: dict[str, Any] = {k: manifest[k] for k in ("game", "config", "options", "seed", "games",
                                                        "chunk_games", "agents") if k in manifest}
        self.writer = ChunkWriter(str(path), self.chunks, self.layout, {**run, **self.layout.to_meta()},
                                  secrets.token_hex(8), time.time(), str(manifest["run_id"]))

    @property
    def chunks(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return chunk_path(self.path, index, self.chunks)

    @classmethod
    def open(cls, path: str | os.PathLike[str], manifest: dict[str, Any], resume: bool) -> RunDirectory:
        """Starts run ``manifest`` in ``path`` (created if needed), or with ``resume``
        continues the run already there. Raises :class:`RunDirectoryError` if the directory
        holds another run, holds a run and ``resume`` is false, or holds chunks of a run other
        than its manifest's (see :func:`foreign_run`; nothing is changed then),
        :class:`RunWriteError` if it cannot be written, and ``ImportError`` if pyarrow is
        missing."""
        where = Path(path)
        try:
            return cls._open(where, manifest, resume)
        except OSError as e:
            if isinstance(e, RunDirectoryError) or e.errno not in _WRITE_FAILURES:
                raise
            raise write_failure(where, manifest, e) from e

    @classmethod
    def _open(cls, where: Path, manifest: dict[str, Any], resume: bool) -> RunDirectory:
        # Said before anything is created: a run that could not write its chunks leaves no
        # directory behind. (What is there is read again under the lock below.)
        _require()
        where.mkdir(parents=True, exist_ok=True)
        lock = _lock(where)
        try:
            existing = read_manifest(where)
            if existing is not None:
                if not resume:
                    done, chunks, _ = directory_status(where)
                    raise RunDirectoryError.at(
                        where,
                        f"{where} already holds a simulation ({done} of {chunks} chunks finished); "
                        "resume it (resume=True, or --resume on the command line) or choose another directory"
                    )
                diffs = manifest_differences(existing, manifest)
                if diffs:
                    raise RunDirectoryError.at(
                        where, f"cannot resume {where}: its manifest disagrees with this run:\n  " + "\n  ".join(diffs)
                    )
                manifest = existing
                _chunks_folder(where)
                foreign = foreign_run(where, manifest, ChunkLog.read(where, manifest))
                if foreign is not None:
                    raise RunDirectoryError.at(where, foreign)
            else:
                found = strays(where, manifest) + [f"{CHUNKS}/{chunk_name(i, int(manifest['chunks']))}"
                                                   for i in _present(where, manifest)]
                if found:
                    raise RunDirectoryError.at(
                        where, f"{where} holds chunk files ({_named(found)}) but no {MANIFEST}; "
                               "choose another directory"
                    )
                data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")

                def write(f: IO[bytes]) -> None:
                    f.write(data)

                atomic_write(where / MANIFEST, write)
            _chunks_folder(where).mkdir(exist_ok=True)
            run = cls(where, manifest, lock)
            run._log = _open_log(where)
            run._remove_stale_temporaries()
            return run
        except BaseException:
            _unlock(lock)
            raise

    def _remove_stale_temporaries(self) -> None:
        # Left by a process that died while writing (we hold the lock: nobody writes now).
        for tmp in [*self.path.glob(".*.tmp"), *(self.path / CHUNKS).glob(".*.tmp")]:
            if tmp.name.startswith((".chunk-", f".{MANIFEST}.", f".{CHUNK_LOG}.")):
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def _set_aside(self, index: int, why: str) -> None:
        path = self.chunk_path(index)
        self.damaged[index] = why
        if not os.path.lexists(path):
            return  # missing: played again, as any chunk not finished
        bad = self.path / _set_aside_name(path.name)
        os.replace(path, bad)
        warnings.warn(f"{path} is damaged ({why}); moved it to {bad.name} and will play its games again",
                      RuntimeWarning, stacklevel=3)

    def finished(self, repair: bool = False) -> set[int]:
        """The indices of the chunks already finished, checked: those the chunk log records
        whose file has the size and SHA-256 recorded (read in full). A chunk that fails is
        renamed aside (a name that readers of the dataset skip, outside ``DIR/chunks``) with a
        warning, recorded in :attr:`damaged`, and counts as missing. A chunk file that the log
        does not record (the process stopped between writing it and recording it, or its line
        is malformed, or the log was lost) is recorded now if it reads whole as this run's
        chunk (see :meth:`_adopt`), else set aside too. Malformed lines of the log and strays
        are named in warnings; with ``repair``, the log is rewritten without those lines."""
        warn_strays(self.path, self.manifest, stacklevel=3)
        log = ChunkLog.read(self.path, self.manifest)
        report = log.report(self.path)
        if report is not None:
            warnings.warn(report + ("; rewriting the log without them" if repair else
                                    f"; a repair rewrites the log without them ({_repair_command(self.manifest, self.path)})"),
                          RuntimeWarning, stacklevel=3)
            if repair:
                self._close_log()
                _rewrite_log(self.path, self.manifest)
                self._log = _open_log(self.path)
                self.dropped_lines = log.malformed_count
        self._records = log.records
        out = set()
        for index, record in log.records.items():
            try:
                data = _verified(self.chunk_path(index), self.manifest, self.layout, index, record)
                meta, games = _read_parquet_meta(data, self.layout)
                _check_meta(meta, games, index, self.manifest)
                _chunk_statistics(meta, games, self.layout)
            except ValueError as e:
                self._expected[index] = record["data_sha256"]
                self._set_aside(index, str(e))
                continue
            out.add(index)
        for index in _present(self.path, self.manifest):
            if index not in log.records:
                try:
                    self._adopt(index)
                except ValueError as e:
                    self._set_aside(index, str(e))
                    continue
                self.adopted.append(index)
                out.add(index)
        return out

    def _adopt(self, index: int) -> None:
        """Records chunk ``index``, whose file is in place but whose line is not in the chunk
        log, once its file reads whole as this run's chunk and holds the games its statistics
        count; ``ValueError`` saying why it does not."""
        path = self.chunk_path(index)
        data = _read_file(path, os.lstat(path).st_size)
        first, games = _chunk_span(self.manifest, index)
        meta, arrays = _read_chunk(data, self.layout, first)
        _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
        RangeResult(first, games, 0.0, 1, arrays).check(self.layout)
        stats = _chunk_statistics(meta, games, self.layout)
        if stats.to_json() != RunStatistics.of(arrays, self.layout).to_json():
            raise ValueError("its statistics are not those of its games")
        finished = os.lstat(path).st_mtime
        timing = {"elapsed_seconds": 0.0, "threads": 0, "session": "", "session_start": finished,
                  "finished": finished}
        record = {"index": index, "file": path.name, "first": first, "games": games, "bytes": len(data),
                  "sha256": hashlib.sha256(data).hexdigest(), "data_sha256": checksum(arrays),
                  "run_id": self.manifest["run_id"], **timing, "writer": None}
        self.commit(index, record)
        if self._records is not None:
            self._records.add(index, record)

    def stored(self, index: int) -> tuple[RunStatistics, dict[str, Any]]:
        """The statistics and timing of chunk ``index``, finished before this session (and
        verified by :meth:`finished`)."""
        assert self._records is not None
        return _stored(self.path, self.manifest, self.layout, index, self._records[index], False)

    def commit(self, index: int, record: dict[str, Any]) -> None:
        """Records chunk ``index``, just written, as finished: its line goes to the chunk log,
        flushed to disk. A chunk played again must hold the games its earlier line recorded."""
        assert self._log is not None
        expected = self._expected.get(index)
        if expected is not None and record["data_sha256"] != expected:
            raise RunDirectoryError.at(
                self.path,
                f"{self.chunk_path(index)} was played again, but its games are not those the chunk log recorded "
                "for it: the run is not reproduced (another tradewinds version, other component data) or the "
                "log was changed; nothing was recorded for it")
        line = _log_line(record)
        while line:
            line = line[os.write(self._log, line):]
        os.fsync(self._log)

    def verify(self, index: int, record: Mapping[str, Any]) -> None:
        """Reads chunk ``index`` back and checks it against its line of the chunk log
        (``record``); :class:`ChunkError` if it does not."""
        try:
            source = _verified(self.chunk_path(index), self.manifest, self.layout, index, record)
            meta, arrays = _read_chunk(source, self.layout, _chunk_span(self.manifest, index)[0])
            _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
            if checksum(arrays) != record["data_sha256"]:
                raise ValueError("its games are not those its line of the chunk log records")
        except ValueError as e:
            raise _chunk_error(self.path, self.manifest, index, str(e)) from None

    def repair_report(self, replayed: set[int]) -> RepairReport:
        """Verifies the chunks played again (``replayed``) as they are now on disk and
        says what was replaced and why."""
        replaced = []
        records = ChunkLog.read(self.path, self.manifest).records
        for index in sorted(replayed):
            if index not in records:
                raise _chunk_error(self.path, self.manifest, index, "the chunk log has no line for it")
            self.verify(index, records[index])
            why = self.damaged.get(index, "not finished (no line in the chunk log)")
            replaced.append((chunk_name(index, self.chunks), why))
        return RepairReport(str(self.path), self.chunks, tuple(replaced),
                            tuple(chunk_name(i, self.chunks) for i in self.adopted), self.dropped_lines)

    def failure(self, error: OSError) -> RunWriteError:
        """The :class:`RunWriteError` for a write to this directory that failed for lack of
        space or permission (see :func:`write_failure`)."""
        return write_failure(self.path, self.manifest, error)

    def _close_log(self) -> None:
        if self._log is not None:
            os.close(self._log)
            self._log = None

    def close(self) -> None:
        self._close_log()
        _unlock(self._lock)
        self._lock = None

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _present(path: Path, manifest: Mapping[str, Any]) -> list[int]:
    """The indices of the chunk files present in ``path``, in order."""
    return sorted(_chunk_files(path, manifest))


def _chunk_files(path: Path, manifest: Mapping[str, Any]) -> Iterator[int]:
    """The indices of the chunk files present in ``path/chunks`` (by their names; as many as
    the folder holds, whatever the manifest says the run's chunks are), in the folder's
    order."""
    chunks = int(manifest["chunks"])
    folder = _chunks_folder(path)
    if not folder.is_dir():
        return
    with os.scandir(folder) as entries:
        for entry in entries:
            if _is_run_chunk(entry.name, chunks):
                yield int(entry.name[6:-8])


def _stored(
    path: Path, manifest: Mapping[str, Any], layout: Layout, index: int, record: Mapping[str, Any], verify: bool,
) -> tuple[RunStatistics, dict[str, Any]]:
    """The statistics and timing of chunk ``index``, its timing from ``record`` (its line of
    the chunk log); with ``verify``, its file checked against ``record`` first."""
    file = chunk_path(path, index, int(manifest["chunks"]))
    source: Path | bytes = _verified(file, manifest, layout, index, record) if verify else file
    meta, games = _read_parquet_meta(source, layout)
    _check_meta(meta, games, index, manifest)
    stats = _chunk_statistics(meta, games, layout)
    return stats, {k: record[k] for k in _TIMING}


def _lock(where: Path) -> IO[bytes] | None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return None
    try:
        fd = os.open(where / _LOCK, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o644)
    except OSError as e:
        if e.errno == errno.ELOOP or os.path.islink(where / _LOCK):
            raise RunDirectoryError.at(where, f"{where / _LOCK} is a symbolic link; a run directory holds its "
                                              "lock itself") from None
        raise
    f = os.fdopen(fd, "r+b")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise RunDirectoryError.at(where, f"{where} is in use by another running simulation") from None
    return f


def _unlock(lock: IO[bytes] | None) -> None:
    if lock is not None:
        lock.close()  # closing the file releases the lock


def directory_status(path: str | os.PathLike[str]) -> tuple[int, int, int]:
    """``(finished chunks, chunks, finished games)`` of run directory ``path`` (by the chunk
    files present; :class:`RunReader` checks them)."""
    manifest = read_manifest(path)
    if manifest is None:
        raise RunDirectoryError.at(path, f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
    done = _present(Path(path), manifest)
    return len(done), int(manifest["chunks"]), sum(_chunk_span(manifest, i)[1] for i in done)


def _size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000
    raise AssertionError  # pragma: no cover


def write_failure(path: Path, manifest: Mapping[str, Any], error: OSError) -> RunWriteError:
    """The error for a write to run directory ``path`` that failed for lack of space or
    permission: what is saved, about how much space the rest needs (from the chunks
    written) and how to finish the run."""
    what = {errno.ENOSPC: "no space is left on its device", errno.EROFS: "its file system is read-only"}.get(
        error.errno or 0, os.strerror(error.errno) if error.errno else str(error))
    if error.errno == getattr(errno, "EDQUOT", None):
        what = "the disk quota is exceeded"
    chunks, games = int(manifest["chunks"]), int(manifest["games"])
    try:
        on_disk = read_manifest(path) is not None
        done = _present(path, manifest) if on_disk else []
    except (ValueError, OSError):
        done = []
    done_games = sum(_chunk_span(manifest, i)[1] for i in done)
    written = 0
    for i in done:
        with contextlib.suppress(OSError):
            written += os.stat(chunk_path(path, i, chunks)).st_size
    needed: int | None = None
    if done_games:
        needed = int(written / done_games * (games - done_games))
        need = (f"the other {chunks - len(done):,} chunks ({games - done_games:,} games) need about {_size(needed)} "
                f"more (estimated from the {len(done):,} written, {_size(written)})")
    else:
        need = "how much space the run needs shows once a chunk is written"
    saved = (f"{len(done):,} of {chunks:,} chunks ({done_games:,} games) are saved there"
             if done else "no chunk is saved there yet")
    name = f" ({error.filename})" if isinstance(error.filename, str) and error.filename != str(path) else ""
    message = (f"cannot write the run directory {path}{name}: {what}. {saved}; {need}. Free some space "
               f"(or make the directory writable), then {resume_hint(manifest, path)}")
    failure = RunWriteError(message)
    failure.errno, failure.strerror, failure.filename = error.errno, error.strerror, error.filename
    failure.path, failure.saved_chunks, failure.needed_bytes = str(path), len(done), needed
    return failure


def is_write_failure(error: BaseException) -> bool:
    """Whether ``error`` is a failed write that :func:`write_failure` explains."""
    return isinstance(error, OSError) and not isinstance(error, RunDirectoryError) and error.errno in _WRITE_FAILURES


class RunReader:
    """A finished run in directory ``path``, read on demand: its statistics from the chunks'
    metadata (:meth:`statistics`), its games chunk by chunk (:meth:`chunks`) or all at once
    (:meth:`arrays`); every chunk checked against the chunk log as it is read. Picklable (a
    path, a manifest and what the chunk log records of each chunk)."""

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any],
                 records: ChunkRecords | None = None) -> None:
        self.path = Path(path)
        self.manifest = manifest
        self._records = records

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> RunReader:
        """The run in directory ``path``. Raises :class:`RunDirectoryError` when it is not a
        run directory of the format this tradewinds reads, when its chunks are another run's than
        its manifest's (see :func:`foreign_run`) or when it has no chunk log (saying how to
        rebuild it), and :class:`ChunkError` when a chunk is missing or not recorded in the
        chunk log (naming the first and how to finish or repair the run). Malformed lines of
        the chunk log are named in a ``RuntimeWarning``, strays in a
        :class:`StrayFileWarning`."""
        manifest = read_manifest(path)
        if manifest is None:
            raise RunDirectoryError.at(path, f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
        where = Path(path)
        chunks = int(manifest["chunks"])
        log = ChunkLog.read(where, manifest)
        foreign = foreign_run(where, manifest, log)
        if foreign is not None:
            raise RunDirectoryError.at(path, foreign)
        warn_strays(where, manifest)
        present = set(_chunk_files(where, manifest))
        if not log.exists and present:
            raise RunDirectoryError.at(
                path,
                f"{path} has no chunk log ({CHUNK_LOG}), which records the checksum of each chunk; "
                f"{len(present):,} of its {chunks:,} chunk files are present, but none can be verified without it. "
                f"To rebuild it from the chunks that read whole as this run's (and play the others again), "
                f"{repair_hint(manifest, path)}")
        report = log.report(where)
        unrecorded = sorted(i for i in present if i not in log.records)
        missing = chunks - len(present)
        if missing or unrecorded:
            first = next((i for i in range(chunks) if i not in present), None) if missing else None
            parts = []
            if missing:
                assert first is not None
                parts.append(f"{missing:,} of {chunks:,} chunks are missing (the first is "
                             f"{CHUNKS}/{chunk_name(first, chunks)})")
            if unrecorded:
                parts.append(f"{len(unrecorded):,} chunk file{'s are' if len(unrecorded) > 1 else ' is'} present but "
                             f"not recorded in the chunk log (the first is {CHUNKS}/{chunk_name(unrecorded[0], chunks)})"
                             + (f"; {report}" if report is not None else ""))
            index = first if first is not None else unrecorded[0]
            hint = repair_hint(manifest, path) if report is not None else resume_hint(manifest, path)
            error = ChunkError(f"{path} is incomplete: {'; '.join(parts)}; {hint}")
            error.path, error.index, error.file, error.repair = (str(path), index,
                                                                 str(chunk_path(where, index, chunks)), hint)
            raise error
        if report is not None:
            warnings.warn(f"{report}; a repair rewrites the log without them ({_repair_command(manifest, path)})",
                          RuntimeWarning, stacklevel=3)
        _require()
        return cls(path, manifest, log.records)

    @property
    def records(self) -> ChunkRecords:
        """The chunk log's line of each chunk."""
        if self._records is None:
            self._records = ChunkLog.read(self.path, self.manifest).records
        return self._records

    @property
    def layout(self) -> Layout:
        return Layout.from_meta(self.manifest)

    @property
    def chunk_count(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return chunk_path(self.path, index, self.chunk_count)

    def _record(self, index: int) -> dict[str, Any]:
        records = self.records
        if index not in records:
            raise _chunk_error(self.path, self.manifest, index, "the chunk log has no line for it")
        return records[index]

    def statistics(self) -> tuple[RunStatistics, Timing]:
        """The run's statistics, merged in chunk order from the chunks' metadata, and its
        timing; every chunk file is checked against the chunk log."""
        layout = self.layout
        timing = Timing()
        merged = InOrder(RunStatistics(layout), self.chunk_count, note=lambda _, meta: timing.add(meta))
        for index in range(self.chunk_count):
            record = self._record(index)
            try:
                stats, meta = _stored(self.path, self.manifest, layout, index, record, True)
            except ValueError as e:
                raise _chunk_error(self.path, self.manifest, index, str(e)) from None
            merged.add(index, stats, meta)
        return merged.total, timing

    def chunk(self, index: int) -> tuple[RangeResult, dict[str, Any]]:
        """The games of chunk ``index`` and its metadata (with its timing), checked."""
        first, games = _chunk_span(self.manifest, index)
        record = self._record(index)
        try:
            source = _verified(self.chunk_path(index), self.manifest, self.layout, index, record)
            meta, arrays = _read_chunk(source, self.layout, first)
            _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
            meta = {**meta, **{k: record[k] for k in _TIMING}}
            part = RangeResult(first=first, games=games, elapsed_seconds=float(record["elapsed_seconds"]),
                               threads=int(record["threads"]), arrays=arrays)
            part.check(self.layout)
        except ValueError as e:
            raise _chunk_error(self.path, self.manifest, index, str(e)) from None
        return part, meta

    def chunks(self) -> Iterator[tuple[RangeResult, dict[str, Any]]]:
        """The chunks in order, one at a time."""
        for index in range(self.chunk_count):
            yield self.chunk(index)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The per-game arrays of the whole run, merged in game order (in memory: about the
        size the per-game arrays take, see :func:`tradewinds._results.allocate`)."""
        run = RunArrays(self.layout, int(self.manifest["games"]))
        for part, _ in self.chunks():
            run.add(part)
        return run.complete()
