"""Run directories: a simulation streamed durably to a directory, chunk by chunk, resumed,
and read back (:class:`RunReader`).

Layout of a run directory (format version 4, a Parquet dataset)::

    DIR/_manifest.json        what the run is: game configuration, seed, agents, games, chunk
                              size, and ``run_id``, the SHA-256 of all of it
    DIR/_chunks.jsonl         the chunk log: one line per finished chunk (its game range, size,
                              SHA-256 of the file and of its games, the run it belongs to, timing)
    DIR/chunk-000000.parquet  games 0 .. chunk_games - 1
    DIR/chunk-000001.parquet  games chunk_games .. 2 * chunk_games - 1
    ...

A chunk is finished once its line is in the chunk log (appended and flushed to disk by the
process that runs the simulation, after the chunk's file is in place; a chunk file left
without its line, by a process stopped in between, is read whole, checked and recorded when
the run resumes). Every read of a chunk
checks its file against that line (size, then SHA-256) before anything in it is believed, and
a chunk that fails is a :class:`ChunkError` naming it and the command that repairs it: every
chunk is determined by the run's options, seed and game range, so ``repair`` plays the
damaged or missing ones again (see docs/simulation.md for the fields).

Each chunk is a Parquet file of the games' per-game arrays, one column per cell (see
``tradewinds._parquet``), and carries the chunk's statistics in its metadata, so that a
summary of the run decodes the files' footers only. The manifest's name starts with an
underscore, like the files that Parquet readers (pyarrow, pandas, Dask) skip when they read
a directory as one dataset; so do the names of the chunk log, of the lock (``.lock``), of
temporary files (``.chunk-...tmp``) and of damaged chunks set aside (``_chunk-...parquet.bad``).

Directories written by earlier versions (format versions 1 and 2) hold ``DIR/manifest.json``
and ``DIR/chunk-NNNNNN.npz`` files; version 3 holds Parquet chunks without a chunk log. None
of them records checksums: they are read with the checks their files allow and a
:class:`UnverifiedRunWarning`, and resumed in their own format (new chunks are ``.npz`` files
too, or version-3 Parquet files), so that a run never mixes two.

Every file is written to a temporary name in ``DIR``, flushed to disk (``fsync``) and then
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
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ._core import TradewindsError
from ._parquet import read_chunk as _read_parquet
from ._parquet import read_chunk_meta as _read_parquet_meta
from ._parquet import TAG as _TAG
from ._parquet import require as _require_pyarrow
from ._parquet import write_chunk as _write_parquet
from ._results import FILE_VERSION, Layout, NpzFormat, RangeResult, RunArrays, checksum, read_npz, write_npz
from ._stats import InOrder, RunStatistics

__all__ = [
    "MANIFEST", "NPZ_MANIFEST", "CHUNK_LOG", "RunDirectory", "RunReader", "ChunkWriter", "Timing", "read_manifest",
    "directory_status", "chunk_name", "RunDirectoryError", "ChunkError", "RunWriteError", "UnverifiedRunWarning",
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


class UnverifiedRunWarning(UserWarning):
    """A run directory written by an earlier tradewinds (format version 1 to 3) records no
    checksums: its chunks are checked as far as they read, but damage that still reads (a
    changed value) cannot be detected."""


# Public as ``tradewinds.RunDirectoryError`` and so on, like the errors of the extension.
for _public in (RunDirectoryError, ChunkError, RunWriteError, UnverifiedRunWarning):
    _public.__module__ = "tradewinds"

#: The manifest of a run directory (format version 3 on: Parquet chunks).
MANIFEST = "_manifest.json"
#: The manifest of a run directory of format version 1 or 2 (``.npz`` chunks).
NPZ_MANIFEST = "manifest.json"
_FORMAT = "tradewinds-simulation-dir"
#: The run-directory format version written; older ones are read too. Version 1 predates
#: opponents and tiers: its manifest names neither, and its chunks lack their arrays.
#: Versions 1 and 2 hold ``.npz`` chunks and ``manifest.json``; version 3 Parquet chunks and
#: ``_manifest.json``; version 4 adds the chunk log (checksums) and the manifest's ``run_id``.
_VERSION = 4
#: The first version whose chunks are Parquet files.
_PARQUET_SINCE = 3
#: The first version with a chunk log (checksums) and a ``run_id``.
_CHECKED_SINCE = 4
#: The chunk log of a run directory (format version 4).
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
_CHUNK = NpzFormat(_TAG, FILE_VERSION, "tradewinds simulation chunk")
_LOCK = ".lock"

#: Manifest entries that must agree for a directory to be resumed, in the order reported.
_IDENTITY = ("game", "config", "players", "seed", "games", "chunk_games", "agents")
#: Entries a manifest of an older version may lack, and what their absence means.
_DEFAULTS: dict[str, Any] = {"opponents": [], "tiers": []}


def make_manifest(
    *,
    game: str,
    config: Mapping[str, Any],
    layout: Layout,
    seed: int,
    games: int,
    chunk_games: int,
    agents: list[str],
) -> dict[str, Any]:
    """The manifest of a run (what :class:`RunDirectory` writes first); ``layout`` is the
    game's (its seats, scoring categories, opponents and tiers)."""
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


def manifest_file(path: str | os.PathLike[str]) -> Path | None:
    """The manifest of run directory ``path`` (``_manifest.json``, or ``manifest.json`` in a
    directory of an earlier format), or None when it has none."""
    where = Path(path)
    if where.exists() and not where.is_dir():
        raise RunDirectoryError.at(path, f"{path} is not a directory")
    for name in (MANIFEST, NPZ_MANIFEST):
        if os.path.lexists(where / name):
            return where / name
    return None


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
    """What is wrong with the entries of a manifest (of any version), or None."""
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
        ("opponents", _names(manifest.get("opponents", [])), "a list of names"),
        ("tiers", _names(manifest.get("tiers", [])), "a list of names"),
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
    of a version this tradewinds reads, is malformed or (format version 4) was changed since
    the run wrote it (its ``run_id`` does not match its entries)."""
    file = manifest_file(path)
    if file is None:
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
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= _VERSION:
        raise refuse(f"has run-directory format version {version}; this tradewinds reads version {_VERSION} and older")
    if (version >= _PARQUET_SINCE) != (file.name == MANIFEST):
        raise refuse(f"has run-directory format version {version}, which names its manifest "
                     f"{MANIFEST if version >= _PARQUET_SINCE else NPZ_MANIFEST}")
    missing = [k for k in (*_IDENTITY, "chunks", "categories") if k not in manifest]
    if missing:
        raise refuse(f"lacks {', '.join(missing)}")
    problem = _manifest_problem(manifest)
    if problem is not None:
        raise refuse(f"is malformed: {problem}")
    if version >= _CHECKED_SINCE and manifest.get("run_id") != run_id(manifest):
        raise refuse("was changed after the run wrote it, or is damaged: its run_id is not the SHA-256 of its "
                     "entries. Its chunks belong to the run it described; restore it, or play the run again "
                     "into a new directory")
    return manifest


def _shown(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def manifest_differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """How manifest ``new`` (this run) disagrees with ``old`` (the directory's), one line per
    setting, naming it: ``seed: the directory has 1, this run 2``."""
    out = []
    for key in (*_IDENTITY, *_DEFAULTS):
        a, b = old.get(key, _DEFAULTS.get(key)), new.get(key, _DEFAULTS.get(key))
        if a == b:
            continue
        if key == "config" and isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if k == "game" or a.get(k) == b.get(k):
                    continue
                what = "the component data differ" if k == "data" else (
                    f"the directory has {_shown(a.get(k, '(default)'))}, this run {_shown(b.get(k, '(default)'))}")
                out.append(f"option {k}: {what}")
        elif key == "agents" and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for p, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    out.append(f"agent of seat {p}: the directory has {x}, this run {y}")
        elif key == "players" and old.get("config", {}).get("players") != new.get("config", {}).get("players"):
            continue  # already reported as an option
        elif key in _DEFAULTS and old.get("config") != new.get("config"):
            continue  # follows from the options, already reported
        elif key in _DEFAULTS and key not in old:
            out.append(f"{key}: the directory (written by an older tradewinds) records none, this run {_shown(b)}")
        else:
            out.append(f"{key}: the directory has {_shown(a)}, this run {_shown(b)}")
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


@dataclass(frozen=True)
class ChunkFiles:
    """The chunk files of a run directory: Parquet (``parquet``, format version 3 on) or
    ``.npz`` (versions 1 and 2); ``checked`` when a chunk log records their checksums (version
    4 on)."""

    parquet: bool
    checked: bool = False

    @classmethod
    def of(cls, manifest: Mapping[str, Any]) -> ChunkFiles:
        version = int(manifest["version"])
        return cls(version >= _PARQUET_SINCE, version >= _CHECKED_SINCE)

    @property
    def suffix(self) -> str:
        return ".parquet" if self.parquet else ".npz"

    def name(self, index: int, chunks: int) -> str:
        return chunk_name(index, chunks, self.suffix)

    def set_aside(self, name: str) -> str:
        """The name a damaged chunk is renamed to: one that readers of the dataset skip."""
        return f"_{name}.bad" if self.parquet else f"{name}.bad"

    def require(self) -> None:
        """Raises ``ImportError`` (saying how to install it) when what writes and reads these
        files is missing."""
        if self.parquet:
            _require_pyarrow("a run directory (out=DIR, --out DIR), a Parquet dataset,")

    def write(self, f: IO[bytes], meta: Mapping[str, Any], part: RangeResult, layout: Layout) -> None:
        if self.parquet:
            _write_parquet(f, meta, part.arrays, layout, part.first)
        else:
            write_npz(f, _CHUNK, meta, part.arrays)

    def read(self, source: Path | bytes, layout: Layout, first: int) -> tuple[dict[str, Any],
                                                                          dict[str, npt.NDArray[Any]]]:
        """The metadata and the per-game arrays of a chunk file (its path, or its contents
        already checked), whose games start at game ``first``. Raises ``ValueError`` saying
        why it cannot be read."""
        if self.parquet:
            meta, game, arrays = _read_parquet(source, layout)
            if not np.array_equal(game, np.arange(first, first + len(game), dtype=np.int64)):
                raise ValueError(f"its games are not those from game {first} on")
            return meta, arrays
        try:
            return read_npz(io.BytesIO(source) if isinstance(source, bytes) else source, _CHUNK, "it", layout)
        except (OSError, EOFError, zipfile.BadZipFile, KeyError, zlib.error) as e:
            raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None

    def read_meta(self, source: Path | bytes, layout: Layout) -> tuple[dict[str, Any], int]:
        """The metadata of a chunk file and its number of games, from the footer of a Parquet
        file (the whole of an ``.npz``, whose arrays are checked then)."""
        if self.parquet:
            return _read_parquet_meta(source, layout)
        meta, arrays = self.read(source, layout, 0)
        games = int(arrays["moves"].shape[0])
        RangeResult(0, games, 0.0, 1, arrays).check(layout)
        return meta, games


def chunk_name(index: int, chunks: int, suffix: str = ".parquet") -> str:
    """The file name of chunk ``index`` of a run of ``chunks`` chunks (``.npz`` in a directory
    of format version 1 or 2)."""
    width = max(6, len(str(max(chunks - 1, 0))))
    return f"chunk-{index:0{width}d}{suffix}"


def _chunk_span(manifest: Mapping[str, Any], index: int) -> tuple[int, int]:
    """``(first game, games)`` of chunk ``index``."""
    chunk_games = int(manifest["chunk_games"])
    first = index * chunk_games
    return first, min(chunk_games, int(manifest["games"]) - first)


def _check_meta(meta: Mapping[str, Any], games: int, index: int, manifest: Mapping[str, Any]) -> None:
    first, want = _chunk_span(manifest, index)
    for key, value in (("index", index), ("first", first), ("games", want), ("seed", manifest["seed"])):
        if meta.get(key) != value:
            raise ValueError(f"its {key} is {meta.get(key)!r}, the manifest implies {value!r}")
    if games != want:
        raise ValueError(f"it holds {games} games, the manifest implies {want}")
    if int(manifest["version"]) >= _CHECKED_SINCE and meta.get("run_id") != manifest["run_id"]:
        raise ValueError("it belongs to another run (its run_id is not the manifest's)")


def _chunk_statistics(meta: Mapping[str, Any], games: int, layout: Layout) -> RunStatistics | None:
    """The statistics a chunk's metadata records (None for a chunk written without them)."""
    if "statistics" not in meta:
        return None
    try:
        stats = RunStatistics.from_json(meta["statistics"], layout)
    except (KeyError, TypeError, IndexError) as e:
        raise ValueError(f"its statistics are malformed ({type(e).__name__}: {e})") from None
    if stats.games != games:
        raise ValueError(f"its statistics count {stats.games} games, it holds {games}")
    return stats


#: The entries of a chunk's timing (all :class:`Timing` reads): in its line of the chunk log
#: (format version 4), in its own metadata before.
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


# ---- the chunk log ---------------------------------------------------------------------------

_HEX64 = re.compile(r"[0-9a-f]{64}")


def _line_check(record: Mapping[str, Any]) -> str:
    """The check of a line of the chunk log: the first 16 hex digits of the SHA-256 of its
    other entries (compact JSON, sorted keys), so that a damaged line is not believed."""
    body = {k: v for k, v in record.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()[:16]


def _log_line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps({**record, "check": _line_check(record)}, sort_keys=True) + "\n").encode("utf-8")


def _record_problem(record: Any, manifest: Mapping[str, Any], files: ChunkFiles) -> tuple[int | None, str | None]:
    """``(index, None)`` for a valid line of the chunk log of the run of ``manifest``;
    ``(index or None, why)`` for one that is not."""
    if not isinstance(record, dict):
        return None, "it is not a JSON object"
    chunks = int(manifest["chunks"])
    if not _int(record.get("index"), 0, chunks - 1):
        return None, f"its index {_shown(record.get('index'))} is no chunk of the run"
    index = int(record["index"])
    if record.get("check") != _line_check(record):
        return index, "its line of the chunk log is damaged (its check does not match)"
    if record.get("run_id") != manifest["run_id"]:
        return index, "its line of the chunk log is another run's"
    first, games = _chunk_span(manifest, index)
    name = files.name(index, chunks)
    if record.get("file") != name:
        return index, f"its line of the chunk log names the file {_shown(record.get('file'))}, not {name}"
    if (record.get("first"), record.get("games")) != (first, games):
        return index, f"its line of the chunk log gives games {_shown(record.get('first'))} on, not {first} on"
    if not _int(record.get("bytes"), 1, _INT64) or not all(isinstance(record.get(k), str) and _HEX64.fullmatch(record[k])
                                                  for k in ("sha256", "data_sha256")):
        return index, "its line of the chunk log lacks its size or checksums"
    if not (_int(record.get("threads"), 0, _INT64) and isinstance(record.get("session"), str)
            and all(_number(record.get(k)) for k in ("session_start", "finished", "elapsed_seconds"))):
        return index, "its line of the chunk log lacks its timing"
    return index, None


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

    def discard(self, index: int) -> None:
        row = self._row(index)
        if row is not None and row["present"]:
            row["present"] = False
            self._count -= 1

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


@dataclass
class ChunkLog:
    """What the chunk log of a run directory says: the valid line of each chunk (the last
    one, when a chunk was played again), why the line of a chunk is not believed
    (``problems``), and how many lines name no chunk at all. The log is read a line at a
    time, and only what is checked of each chunk is kept (:class:`ChunkRecords`)."""

    records: ChunkRecords
    problems: dict[int, str]
    unreadable_lines: int

    @classmethod
    def read(cls, path: Path, manifest: Mapping[str, Any], files: ChunkFiles) -> ChunkLog:
        log = cls(ChunkRecords(), {}, 0)
        file = path / CHUNK_LOG
        if not os.path.lexists(file):
            return log
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
            while True:
                line = f.readline(_LOG_LINE_LIMIT)
                if not line:
                    break
                if not line.endswith(b"\n"):
                    if len(line) == _LOG_LINE_LIMIT:  # too long: skip the rest of it
                        while (more := f.readline(_LOG_LINE_LIMIT)) and not more.endswith(b"\n"):
                            pass
                    log.unreadable_lines += 1
                    continue
                try:
                    record = json.loads(line)
                except (ValueError, UnicodeDecodeError):
                    log.unreadable_lines += 1
                    continue
                index, problem = _record_problem(record, manifest, files)
                if index is None:
                    log.unreadable_lines += 1
                elif problem is not None:
                    log.problems[index] = problem
                    log.records.discard(index)
                else:
                    log.records.add(index, record)
                    log.problems.pop(index, None)
        return log


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


def _verified(path: Path, manifest: Mapping[str, Any], files: ChunkFiles, layout: Layout, index: int,
              record: Mapping[str, Any]) -> bytes:
    """The contents of chunk file ``path`` once its size and SHA-256 are those its line of
    the chunk log (``record``) gives; otherwise ``ValueError`` saying how it differs (what its
    footer shows, when it says more)."""

    def footer_reason(source: Path | bytes) -> None:
        # Raises when the footer shows what is wrong more precisely (another run, a chunk
        # of other games, not a chunk at all).
        meta, games = files.read_meta(source, layout)
        _check_meta(meta, games, index, manifest)

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
        footer_reason(path)
        raise ValueError(f"it holds {info.st_size:,} bytes, its line of the chunk log records {want:,} "
                         "(truncated, or replaced)")
    data = _read_file(path, want)
    if hashlib.sha256(data).hexdigest() != record["sha256"]:
        footer_reason(data)
        raise ValueError("its SHA-256 is not the one its line of the chunk log records (damaged on disk, "
                         "or changed)")
    return data


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


def _chunk_error(path: Path, manifest: Mapping[str, Any], index: int, why: str) -> ChunkError:
    files = ChunkFiles.of(manifest)
    file = path / files.name(index, int(manifest["chunks"]))
    hint = repair_hint(manifest, path) if files.checked else f"delete it and {resume_hint(manifest, path)}"
    error = ChunkError(f"{file} is damaged: {why}; {hint}")
    error.path, error.index, error.file, error.repair = str(path), index, str(file), hint
    return error


def _unverified_warning(path: Path, manifest: Mapping[str, Any]) -> None:
    warnings.warn(
        f"{path} was written by an earlier tradewinds (run-directory format version {manifest['version']}), "
        "which recorded no checksums: its chunks are checked as far as they read, but a changed value that "
        "still reads cannot be detected. To have a verifiable copy, play the run again into a new directory.",
        UnverifiedRunWarning, stacklevel=3)


@dataclass(frozen=True)
class ChunkWriter:
    """Writes the chunks of one session of a run to its directory ``path``; small and
    picklable, so that a Dask worker writes the chunks it plays. ``run`` holds what every
    Parquet chunk records of the run (game, options, seed, agents, the names along the axes)."""

    path: str
    files: ChunkFiles
    chunks: int
    layout: Layout
    run: dict[str, Any]
    session: str
    session_start: float
    run_id: str | None = None

    def write(self, index: int, part: RangeResult, threads: int) -> tuple[RunStatistics, dict[str, Any]]:
        """Writes chunk ``index`` atomically; returns its statistics and its line of the
        chunk log (format version 4: checksums and timing), or the metadata that times it
        (earlier versions; what :class:`Timing` reads)."""
        stats = RunStatistics.of(part.arrays, self.layout)
        meta: dict[str, Any] = {
            "format": _TAG,
            "version": FILE_VERSION,
            "index": index,
            "first": part.first,
            "games": part.games,
            "seed": self.run["seed"],
        }
        timing: dict[str, Any] = {
            "elapsed_seconds": part.elapsed_seconds,
            "threads": threads,
            "session": self.session,
            "session_start": self.session_start,
            "finished": time.time(),
            "writer": {"host": socket.gethostname(), "pid": os.getpid()},
        }
        # A chunk with a chunk log holds only what its games determine, so that playing it
        # again writes the same bytes; its timing goes to the log.
        if self.files.checked:
            meta["run_id"] = self.run_id
        else:
            meta.update(timing)
        if self.files.parquet:
            meta["run"] = self.run
        meta["statistics"] = stats.to_json()
        buffer = io.BytesIO()
        self.files.write(buffer, meta, part, self.layout)
        data = buffer.getvalue()
        name = self.files.name(index, self.chunks)

        def write(f: IO[bytes]) -> None:
            f.write(data)

        atomic_write(os.path.join(self.path, name), write)
        if not self.files.checked:
            return stats, {k: meta[k] for k in _TIMING}
        record = {"index": index, "file": name, "first": part.first, "games": part.games, "bytes": len(data),
                  "sha256": hashlib.sha256(data).hexdigest(), "data_sha256": checksum(part.arrays),
                  "run_id": self.run_id, **timing}
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

    def __str__(self) -> str:
        if not self.replaced:
            lines = [f"repair: all {self.chunks} chunks of {self.path} verified; nothing to replace"]
        else:
            lines = [f"repair: replaced {len(self.replaced)} of {self.chunks} chunks of {self.path}, each played "
                     "again and verified (the others verified as they were):"]
            lines += [f"  {name}: {why}" for name, why in self.replaced]
        if self.recorded:
            lines.append(f"  recorded again in the chunk log, their files read whole: {', '.join(self.recorded)}")
        return "\n".join(lines)


class RunDirectory:
    """A run directory opened for writing: its manifest is on disk, and no other run writes
    to it while it is open (on POSIX systems, an exclusive lock on ``DIR/.lock``)."""

    def __init__(self, path: Path, manifest: dict[str, Any], lock: IO[bytes] | None) -> None:
        self.path = path
        self.manifest = manifest
        self.files = ChunkFiles.of(manifest)
        self.layout = Layout.from_meta(manifest)
        self._lock = lock
        self._log: int | None = None
        #: The chunk log's line of each chunk finished before this session, as :meth:`finished`
        #: read it (format version 4), for its timing.
        self._records: ChunkRecords | None = None
        #: The chunks found damaged or missing by :meth:`finished`, and why.
        self.damaged: dict[int, str] = {}
        #: The games' checksum each damaged chunk must have when played again (from its line).
        self._expected: dict[int, str] = {}
        #: The chunks recorded in the chunk log by :meth:`finished` after their file was checked.
        self.adopted: list[int] = []
        run: dict[str, Any] = {k: manifest[k] for k in ("game", "config", "options", "seed", "games",
                                                        "chunk_games", "agents") if k in manifest}
        self.writer = ChunkWriter(str(path), self.files, self.chunks, self.layout, {**run, **self.layout.to_meta()},
                                  secrets.token_hex(8), time.time(), manifest.get("run_id"))

    @property
    def chunks(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return self.path / self.files.name(index, self.chunks)

    @classmethod
    def open(cls, path: str | os.PathLike[str], manifest: dict[str, Any], resume: bool) -> RunDirectory:
        """Starts run ``manifest`` in ``path`` (created if needed), or with ``resume``
        continues the run already there, in that directory's format. Raises
        :class:`RunDirectoryError` if the directory holds another run, or holds a run and
        ``resume`` is false, :class:`RunWriteError` if it cannot be written, and
        ``ImportError`` if the run's chunk files need pyarrow and it is missing."""
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
        try:
            there = read_manifest(where)
        except ValueError:
            there = None
        ChunkFiles.of(there if there is not None else manifest).require()
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
                ChunkFiles.of(manifest).require()
            else:
                strays = sorted([*where.glob("chunk-*.npz"), *where.glob("chunk-*.parquet")])
                if strays:
                    raise RunDirectoryError.at(
                        where, f"{where} holds chunk files ({strays[0].name}, ...) but no {MANIFEST}; "
                               "choose another directory"
                    )
                ChunkFiles.of(manifest).require()
                data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")

                def write(f: IO[bytes]) -> None:
                    f.write(data)

                atomic_write(where / MANIFEST, write)
            run = cls(where, manifest, lock)
            if run.files.checked:
                run._log = _open_log(where)
            run._remove_stale_temporaries()
            return run
        except BaseException:
            _unlock(lock)
            raise

    def _remove_stale_temporaries(self) -> None:
        # Left by a process that died while writing (we hold the lock: nobody writes now).
        for tmp in self.path.glob(".*.tmp"):
            if tmp.name.startswith((".chunk-", f".{MANIFEST}.", f".{NPZ_MANIFEST}.")):
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def _set_aside(self, index: int, why: str) -> None:
        path = self.chunk_path(index)
        self.damaged[index] = why
        if not os.path.lexists(path):
            return  # missing: played again, as any chunk not finished
        bad = path.with_name(self.files.set_aside(path.name))
        os.replace(path, bad)
        warnings.warn(f"{path} is damaged ({why}); moved it to {bad.name} and will play its games again",
                      RuntimeWarning, stacklevel=3)

    def finished(self) -> set[int]:
        """The indices of the chunks already finished, checked: with a chunk log, those it
        records whose file has the size and SHA-256 recorded (read in full); before, the
        chunk files present whose footer (columns, metadata, number of games) is right. A
        chunk that fails is renamed aside (a name that readers of the dataset skip) with a
        warning, recorded in :attr:`damaged`, and counts as missing; so does a chunk whose
        line in the chunk log is damaged. A chunk file that the log does not record (the
        process stopped between writing it and recording it) is recorded now if it reads
        whole as this run's chunk (see :meth:`_adopt`), else set aside too."""
        out = set()
        if self.files.checked:
            log = ChunkLog.read(self.path, self.manifest, self.files)
            self._records = log.records
            for index, why in sorted(log.problems.items()):
                self._set_aside(index, why)
            for index, record in log.records.items():
                try:
                    data = _verified(self.chunk_path(index), self.manifest, self.files, self.layout, index, record)
                    meta, games = self.files.read_meta(data, self.layout)
                    _check_meta(meta, games, index, self.manifest)
                    _chunk_statistics(meta, games, self.layout)
                except ValueError as e:
                    self._expected[index] = record["data_sha256"]
                    self._set_aside(index, str(e))
                    continue
                out.add(index)
            for index in _present(self.path, self.manifest, self.files):
                if index not in log.records and index not in log.problems:
                    try:
                        self._adopt(index)
                    except ValueError as e:
                        self._set_aside(index, str(e))
                        continue
                    self.adopted.append(index)
                    out.add(index)
            return out
        for index in _present(self.path, self.manifest, self.files):
            path = self.chunk_path(index)
            try:
                meta, games = self.files.read_meta(path, self.layout)
                _check_meta(meta, games, index, self.manifest)
                _chunk_statistics(meta, games, self.layout)
            except ValueError as e:
                self._set_aside(index, str(e))
                continue
            out.add(index)
        return out

    def _adopt(self, index: int) -> None:
        """Records chunk ``index``, whose file is in place but whose line never reached the
        chunk log (the process died, or was interrupted, between the two), once its file reads
        whole as this run's chunk and holds the games its statistics count; ``ValueError``
        saying why it does not."""
        path = self.chunk_path(index)
        data = _read_file(path, os.lstat(path).st_size)
        first, games = _chunk_span(self.manifest, index)
        meta, arrays = self.files.read(data, self.layout, first)
        _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
        RangeResult(first, games, 0.0, 1, arrays).check(self.layout)
        stats = _chunk_statistics(meta, games, self.layout)
        if stats is None or stats.to_json() != RunStatistics.of(arrays, self.layout).to_json():
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
        record = self._records[index] if self._records is not None and index in self._records else None
        return _stored(self.path, self.manifest, self.files, self.layout, index, record, False)

    def commit(self, index: int, record: dict[str, Any]) -> None:
        """Records chunk ``index``, just written, as finished: its line goes to the chunk log,
        flushed to disk (format version 4; before, a chunk is finished once its file is in
        place). A chunk played again must hold the games its earlier line recorded."""
        if self._log is None:
            return
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

    def verify(self, index: int, record: Mapping[str, Any] | None) -> None:
        """Reads chunk ``index`` back and checks it against its line of the chunk log
        (``record``; without a log, that it reads); :class:`ChunkError` if it does not."""
        try:
            source: Path | bytes = self.chunk_path(index)
            if record is not None:
                source = _verified(self.chunk_path(index), self.manifest, self.files, self.layout, index, record)
            first, games = _chunk_span(self.manifest, index)
            meta, arrays = self.files.read(source, self.layout, first)
            _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
            if record is not None and checksum(arrays) != record["data_sha256"]:
                raise ValueError("its games are not those its line of the chunk log records")
        except ValueError as e:
            raise _chunk_error(self.path, self.manifest, index, str(e)) from None

    def repair_report(self, replayed: set[int]) -> RepairReport:
        """Verifies the chunks played again (``replayed``) as they are now on disk and
        says what was replaced and why."""
        replaced = []
        records = ChunkLog.read(self.path, self.manifest, self.files).records if self.files.checked else {}
        for index in sorted(replayed):
            if self.files.checked and index not in records:
                raise _chunk_error(self.path, self.manifest, index, "the chunk log has no line for it")
            self.verify(index, records.get(index))
            why = self.damaged.get(index, "not finished (no line in the chunk log)" if self.files.checked
                                   else "missing")
            replaced.append((self.files.name(index, self.chunks), why))
        return RepairReport(str(self.path), self.chunks, tuple(replaced),
                            tuple(self.files.name(i, self.chunks) for i in self.adopted))

    def failure(self, error: OSError) -> RunWriteError:
        """The :class:`RunWriteError` for a write to this directory that failed for lack of
        space or permission (see :func:`write_failure`)."""
        return write_failure(self.path, self.manifest, error)

    def close(self) -> None:
        if self._log is not None:
            os.close(self._log)
            self._log = None
        _unlock(self._lock)
        self._lock = None

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _present(path: Path, manifest: Mapping[str, Any], files: ChunkFiles) -> list[int]:
    """The indices of the chunk files present in ``path``, in order."""
    return sorted(_chunk_files(path, manifest, files))


def _chunk_files(path: Path, manifest: Mapping[str, Any], files: ChunkFiles) -> Iterator[int]:
    """The indices of the chunk files present in ``path`` (by their names; as many as the
    directory holds, whatever the manifest says the run's chunks are), in the directory's
    order."""
    chunks = int(manifest["chunks"])
    pattern = re.compile(r"chunk-(\d+)" + re.escape(files.suffix))
    with os.scandir(path) as entries:
        for entry in entries:
            m = pattern.fullmatch(entry.name)
            if m and int(m.group(1)) < chunks and entry.name == files.name(int(m.group(1)), chunks):
                yield int(m.group(1))


def _stored(
    path: Path, manifest: Mapping[str, Any], files: ChunkFiles, layout: Layout, index: int,
    record: Mapping[str, Any] | None, verify: bool,
) -> tuple[RunStatistics, dict[str, Any]]:
    """The statistics and timing of chunk ``index``: its timing from ``record`` (its line of
    the chunk log, or the timing taken from it), else from its metadata; with ``verify``, its
    file checked against ``record`` first."""
    file = path / files.name(index, int(manifest["chunks"]))
    source: Path | bytes = file
    if verify and record is not None:
        source = _verified(file, manifest, files, layout, index, record)
    meta, games = files.read_meta(source, layout)
    _check_meta(meta, games, index, manifest)
    stats = _chunk_statistics(meta, games, layout)
    if stats is None:  # a chunk of an earlier version: from its games
        _, arrays = files.read(source, layout, _chunk_span(manifest, index)[0])
        stats = RunStatistics.of(arrays, layout)
    timing = record if record is not None else meta
    return stats, {k: timing[k] for k in _TIMING if k in timing}


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


def _finished_chunks(path: Path, manifest: Mapping[str, Any]) -> list[int]:
    """The chunks of run directory ``path`` that count as finished without reading them: the
    chunk files present (resuming checks them)."""
    return _present(path, manifest, ChunkFiles.of(manifest))


def directory_status(path: str | os.PathLike[str]) -> tuple[int, int, int]:
    """``(finished chunks, chunks, finished games)`` of run directory ``path`` (by the chunk
    log and the files present; :class:`RunReader` checks them)."""
    manifest = read_manifest(path)
    if manifest is None:
        raise RunDirectoryError.at(path, f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
    done = _finished_chunks(Path(path), manifest)
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
        done = _finished_chunks(path, manifest) if on_disk else []
    except (ValueError, OSError):
        done = []
    done_games = sum(_chunk_span(manifest, i)[1] for i in done)
    written = 0
    for i in done:
        with contextlib.suppress(OSError):
            written += os.stat(path / ChunkFiles.of(manifest).name(i, chunks)).st_size
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
        run directory, and :class:`ChunkError` when a chunk is missing or not finished (naming
        the first and how to finish the run) or its line in the chunk log is damaged (naming
        it and how to repair the run). A directory without a chunk log (written by an earlier
        version) gives an :class:`UnverifiedRunWarning`."""
        manifest = read_manifest(path)
        if manifest is None:
            raise RunDirectoryError.at(path, f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
        where = Path(path)
        files = ChunkFiles.of(manifest)
        chunks = int(manifest["chunks"])
        if files.checked:
            log = ChunkLog.read(where, manifest, files)
            if log.problems:
                index, why = min(log.problems.items())
                raise _chunk_error(where, manifest, index, why)
            records: ChunkRecords | None = log.records
            reader = cls(path, manifest, log.records)
        else:
            records = None
            reader = cls(path, manifest)

        def finished(index: int) -> bool:  # its file is present, and its line in the chunk log
            return records is None or index in records

        count = sum(finished(i) for i in _chunk_files(where, manifest, files))
        if count < chunks:
            done = {i for i in _chunk_files(where, manifest, files) if finished(i)}
            first = next(i for i in range(chunks) if i not in done)
            hint = resume_hint(manifest, path)
            error = ChunkError(
                f"{path} is incomplete: {chunks - count} of {chunks} chunks are missing "
                f"(the first is {files.name(first, chunks)}); {hint}"
            )
            error.path, error.index, error.file, error.repair = str(path), first, str(reader.chunk_path(first)), hint
            raise error
        if not files.checked:
            _unverified_warning(where, manifest)
        files.require()
        return reader

    @property
    def records(self) -> ChunkRecords | None:
        """The chunk log's line of each chunk (None for a directory without one)."""
        if self._records is None and self.files.checked:
            self._records = ChunkLog.read(self.path, self.manifest, self.files).records
        return self._records

    @property
    def files(self) -> ChunkFiles:
        return ChunkFiles.of(self.manifest)

    @property
    def layout(self) -> Layout:
        return Layout.from_meta(self.manifest)

    @property
    def chunk_count(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return self.path / self.files.name(index, self.chunk_count)

    def _record(self, index: int) -> dict[str, Any] | None:
        records = self.records
        if records is None:
            return None
        if index not in records:
            raise _chunk_error(self.path, self.manifest, index, "the chunk log has no line for it")
        return records[index]

    def statistics(self) -> tuple[RunStatistics, Timing]:
        """The run's statistics, merged in chunk order from the chunks' metadata (computed
        from the games of a chunk written without them), and its timing; every chunk file is
        checked against the chunk log."""
        layout = self.layout
        timing = Timing()
        merged = InOrder(RunStatistics(layout), self.chunk_count, note=lambda _, meta: timing.add(meta))
        for index in range(self.chunk_count):
            record = self._record(index)
            try:
                stats, meta = _stored(self.path, self.manifest, self.files, layout, index, record, True)
            except ValueError as e:
                raise _chunk_error(self.path, self.manifest, index, str(e)) from None
            merged.add(index, stats, meta)
        return merged.total, timing

    def chunk(self, index: int) -> tuple[RangeResult, dict[str, Any]]:
        """The games of chunk ``index`` and its metadata (with its timing), checked."""
        first, games = _chunk_span(self.manifest, index)
        record = self._record(index)
        try:
            source: Path | bytes = self.chunk_path(index)
            if record is not None:
                source = _verified(self.chunk_path(index), self.manifest, self.files, self.layout, index, record)
            meta, arrays = self.files.read(source, self.layout, first)
            _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
            if record is not None:
                meta = {**meta, **{k: record[k] for k in _TIMING}}
            part = RangeResult(first=first, games=games, elapsed_seconds=float(meta.get("elapsed_seconds", 0.0)),
                               threads=int(meta.get("threads", 1)), arrays=arrays)
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
