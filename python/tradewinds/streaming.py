"""Run directories: a simulation streamed durably to a directory, chunk by chunk, resumed,
and read back (:class:`RunReader`).

Layout of a run directory (format version 3, a Parquet dataset)::

    DIR/_manifest.json        what the run is: game configuration, seed, agents, games, chunk size
    DIR/chunk-000000.parquet  games 0 .. chunk_games - 1
    DIR/chunk-000001.parquet  games chunk_games .. 2 * chunk_games - 1
    ...

Each chunk is a Parquet file of the games' per-game arrays, one column per cell (see
``tradewinds._parquet``), and carries the chunk's statistics in its metadata, so that a
summary of the run reads the files' footers only. The manifest's name starts with an
underscore, like the files that Parquet readers (pyarrow, pandas, Dask) skip when they read
a directory as one dataset; so do the names of the lock (``.lock``), of temporary files
(``.chunk-...tmp``) and of damaged chunks set aside (``_chunk-...parquet.bad``).

Directories written by earlier versions (format versions 1 and 2) hold ``DIR/manifest.json``
and ``DIR/chunk-NNNNNN.npz`` files: they are read as before, and resumed in their own format
(new chunks are ``.npz`` files too), so that a run never mixes the two.

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
import json
import os
import secrets
import socket
import time
import warnings
import zipfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ._parquet import read_chunk as _read_parquet
from ._parquet import read_chunk_meta as _read_parquet_meta
from ._parquet import TAG as _TAG
from ._parquet import require as _require_pyarrow
from ._parquet import write_chunk as _write_parquet
from ._results import FILE_VERSION, Layout, NpzFormat, RangeResult, RunArrays, read_npz, write_npz
from ._stats import InOrder, RunStatistics

__all__ = [
    "MANIFEST", "NPZ_MANIFEST", "RunDirectory", "RunReader", "ChunkWriter", "Timing", "read_manifest",
    "directory_status", "chunk_name",
]

#: The manifest of a run directory (format version 3: Parquet chunks).
MANIFEST = "_manifest.json"
#: The manifest of a run directory of format version 1 or 2 (``.npz`` chunks).
NPZ_MANIFEST = "manifest.json"
_FORMAT = "tradewinds-simulation-dir"
#: The run-directory format version written; older ones are read too. Version 1 predates
#: opponents and tiers: its manifest names neither, and its chunks lack their arrays.
#: Versions 1 and 2 hold ``.npz`` chunks and ``manifest.json``; version 3 Parquet chunks and
#: ``_manifest.json``.
_VERSION = 3
#: The first version whose chunks are Parquet files.
_PARQUET_SINCE = 3
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
    return {
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
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def manifest_file(path: str | os.PathLike[str]) -> Path | None:
    """The manifest of run directory ``path`` (``_manifest.json``, or ``manifest.json`` in a
    directory of an earlier format), or None when it has none."""
    where = Path(path)
    if where.exists() and not where.is_dir():
        raise ValueError(f"{path} is not a directory")
    for name in (MANIFEST, NPZ_MANIFEST):
        if (where / name).is_file():
            return where / name
    return None


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of run directory ``path``, or None when it has none."""
    file = manifest_file(path)
    if file is None:
        return None
    text = file.read_text(encoding="utf-8")
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{file} is not valid JSON ({e}); it is not a tradewinds run directory's manifest") from None
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
        raise ValueError(f"{file} is not the manifest of a tradewinds simulation directory")
    version = manifest.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= _VERSION:
        raise ValueError(
            f"{file} has run-directory format version {version}; "
            f"this tradewinds reads version {_VERSION} and older"
        )
    if (version >= _PARQUET_SINCE) != (file.name == MANIFEST):
        raise ValueError(f"{file} has run-directory format version {version}, which names its manifest "
                         f"{MANIFEST if version >= _PARQUET_SINCE else NPZ_MANIFEST}")
    missing = [k for k in (*_IDENTITY, "chunks", "categories") if k not in manifest]
    if missing:
        raise ValueError(f"{file} lacks {', '.join(missing)}")
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
    """The chunk files of a run directory: Parquet (``parquet``, format version 3) or ``.npz``
    (versions 1 and 2)."""

    parquet: bool

    @classmethod
    def of(cls, manifest: Mapping[str, Any]) -> ChunkFiles:
        return cls(int(manifest["version"]) >= _PARQUET_SINCE)

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

    def read(self, path: Path, layout: Layout, first: int) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]]]:
        """The metadata and the per-game arrays of chunk file ``path`` (its games start at
        game ``first``). Raises ``ValueError`` saying why it cannot be read."""
        if self.parquet:
            meta, game, arrays = _read_parquet(path, layout)
            if not np.array_equal(game, np.arange(first, first + len(game), dtype=np.int64)):
                raise ValueError(f"its games are not those from game {first} on")
            return meta, arrays
        try:
            return read_npz(path, _CHUNK, "it", layout)
        except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
            raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None

    def read_meta(self, path: Path, layout: Layout) -> tuple[dict[str, Any], int]:
        """The metadata of chunk file ``path`` and its number of games, from the footer of a
        Parquet file (the whole of an ``.npz``, whose arrays are checked then)."""
        if self.parquet:
            return _read_parquet_meta(path, layout)
        meta, arrays = self.read(path, layout, 0)
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


def _chunk_statistics(meta: Mapping[str, Any], games: int, layout: Layout) -> RunStatistics | None:
    """The statistics a chunk's metadata records (None for a chunk written without them)."""
    if "statistics" not in meta:
        return None
    stats = RunStatistics.from_json(meta["statistics"], layout)
    if stats.games != games:
        raise ValueError(f"its statistics count {stats.games} games, it holds {games}")
    return stats


#: The entries of a chunk's metadata that time the run (all :class:`Timing` reads).
_TIMING = ("threads", "session", "session_start", "finished", "elapsed_seconds")


class Timing:
    """The wall-clock time spent on a run and the most threads a chunk of it was played on,
    from the metadata of its chunks: for each session (one process's run, or its part of it),
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

    def write(self, index: int, part: RangeResult, threads: int) -> tuple[RunStatistics, dict[str, Any]]:
        """Writes chunk ``index`` atomically; returns its statistics and the metadata that
        times it (what :class:`Timing` reads)."""
        stats = RunStatistics.of(part.arrays, self.layout)
        meta: dict[str, Any] = {
            "format": _TAG,
            "version": FILE_VERSION,
            "index": index,
            "first": part.first,
            "games": part.games,
            "seed": self.run["seed"],
            "elapsed_seconds": part.elapsed_seconds,
            "threads": threads,
            "session": self.session,
            "session_start": self.session_start,
            "finished": time.time(),
            "writer": {"host": socket.gethostname(), "pid": os.getpid()},
        }
        if self.files.parquet:
            meta["run"] = self.run
        meta["statistics"] = stats.to_json()

        def write(f: IO[bytes]) -> None:
            self.files.write(f, meta, part, self.layout)

        atomic_write(os.path.join(self.path, self.files.name(index, self.chunks)), write)
        return stats, {k: meta[k] for k in _TIMING}


class RunDirectory:
    """A run directory opened for writing: its manifest is on disk, and no other run writes
    to it while it is open (on POSIX systems, an exclusive lock on ``DIR/.lock``)."""

    def __init__(self, path: Path, manifest: dict[str, Any], lock: IO[bytes] | None) -> None:
        self.path = path
        self.manifest = manifest
        self.files = ChunkFiles.of(manifest)
        self.layout = Layout.from_meta(manifest)
        self._lock = lock
        run: dict[str, Any] = {k: manifest[k] for k in ("game", "config", "options", "seed", "games",
                                                        "chunk_games", "agents") if k in manifest}
        self.writer = ChunkWriter(str(path), self.files, self.chunks, self.layout, {**run, **self.layout.to_meta()},
                                  secrets.token_hex(8), time.time())

    @property
    def chunks(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return self.path / self.files.name(index, self.chunks)

    @classmethod
    def open(cls, path: str | os.PathLike[str], manifest: dict[str, Any], resume: bool) -> RunDirectory:
        """Starts run ``manifest`` in ``path`` (created if needed), or with ``resume``
        continues the run already there, in that directory's format. Raises ``ValueError`` if
        the directory holds another run, or holds a run and ``resume`` is false, and
        ``ImportError`` if the run's chunk files need pyarrow and it is missing."""
        where = Path(path)
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
                    files = ChunkFiles.of(existing)
                    chunks = int(existing["chunks"])
                    done = sum(1 for i in range(chunks) if (where / files.name(i, chunks)).is_file())
                    raise ValueError(
                        f"{where} already holds a simulation ({done} of {chunks} chunks finished); "
                        "resume it (resume=True, or --resume on the command line) or choose another directory"
                    )
                diffs = manifest_differences(existing, manifest)
                if diffs:
                    raise ValueError(
                        f"cannot resume {where}: its manifest disagrees with this run:\n  " + "\n  ".join(diffs)
                    )
                manifest = existing
                ChunkFiles.of(manifest).require()
            else:
                strays = sorted([*where.glob("chunk-*.npz"), *where.glob("chunk-*.parquet")])
                if strays:
                    raise ValueError(
                        f"{where} holds chunk files ({strays[0].name}, ...) but no {MANIFEST}; "
                        "choose another directory"
                    )
                ChunkFiles.of(manifest).require()
                data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode("utf-8")

                def write(f: IO[bytes]) -> None:
                    f.write(data)

                atomic_write(where / MANIFEST, write)
            run = cls(where, manifest, lock)
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

    def finished(self) -> set[int]:
        """The indices of the chunks already on disk, checked (for a Parquet chunk, its
        footer: columns, metadata, number of games). A chunk that fails its checks (which
        atomic writes rule out, short of disk corruption or tampering) is renamed aside (a
        name that readers of the dataset skip) with a warning, and counts as missing."""
        out = set()
        for index in range(self.chunks):
            path = self.chunk_path(index)
            if not path.is_file():
                continue
            try:
                meta, games = self.files.read_meta(path, self.layout)
                _check_meta(meta, games, index, self.manifest)
                _chunk_statistics(meta, games, self.layout)
            except ValueError as e:
                bad = path.with_name(self.files.set_aside(path.name))
                os.replace(path, bad)
                warnings.warn(f"{path} is damaged ({e}); moved it to {bad.name} and will play its games again",
                              RuntimeWarning, stacklevel=2)
                continue
            out.add(index)
        return out

    def stored(self, index: int) -> tuple[RunStatistics, dict[str, Any]]:
        """The statistics and timing metadata of chunk ``index``, finished before this
        session."""
        return _stored(self.path, self.manifest, self.files, self.layout, index)

    def close(self) -> None:
        _unlock(self._lock)
        self._lock = None

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _stored(
    path: Path, manifest: Mapping[str, Any], files: ChunkFiles, layout: Layout, index: int
) -> tuple[RunStatistics, dict[str, Any]]:
    file = path / files.name(index, int(manifest["chunks"]))
    meta, games = files.read_meta(file, layout)
    _check_meta(meta, games, index, manifest)
    stats = _chunk_statistics(meta, games, layout)
    if stats is None:  # a chunk of an earlier version: from its games
        _, arrays = files.read(file, layout, _chunk_span(manifest, index)[0])
        stats = RunStatistics.of(arrays, layout)
    return stats, {k: meta[k] for k in _TIMING if k in meta}


def _lock(where: Path) -> IO[bytes] | None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return None
    f = open(where / _LOCK, "a+b")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise ValueError(f"{where} is in use by another running simulation") from None
    return f


def _unlock(lock: IO[bytes] | None) -> None:
    if lock is not None:
        lock.close()  # closing the file releases the lock


def directory_status(path: str | os.PathLike[str]) -> tuple[int, int, int]:
    """``(finished chunks, chunks, finished games)`` of run directory ``path`` (by the files
    present; :class:`RunReader` checks them)."""
    manifest = read_manifest(path)
    if manifest is None:
        raise ValueError(f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
    files = ChunkFiles.of(manifest)
    chunks = int(manifest["chunks"])
    done = [i for i in range(chunks) if (Path(path) / files.name(i, chunks)).is_file()]
    return len(done), chunks, sum(_chunk_span(manifest, i)[1] for i in done)


def resume_hint(manifest: Mapping[str, Any], path: str | os.PathLike[str]) -> str:
    return (f"finish it with `tradewinds simulate {manifest['game']} --out {path} --resume` "
            f"or tw.simulate(..., out={str(path)!r}, resume=True)")


class RunReader:
    """A finished run in directory ``path``, read on demand: its statistics from the chunks'
    metadata (:meth:`statistics`), its games chunk by chunk (:meth:`chunks`) or all at once
    (:meth:`arrays`). Picklable (a path and a manifest)."""

    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any]) -> None:
        self.path = Path(path)
        self.manifest = manifest

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> RunReader:
        """The run in directory ``path``. Raises ``ValueError`` when it is not a run
        directory, or is not finished (naming the missing chunks and how to finish it)."""
        manifest = read_manifest(path)
        if manifest is None:
            raise ValueError(f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
        reader = cls(path, manifest)
        chunks = reader.chunk_count
        missing = [i for i in range(chunks) if not reader.chunk_path(i).is_file()]
        if missing:
            raise ValueError(
                f"{path} is incomplete: {len(missing)} of {chunks} chunks are missing "
                f"(the first is {reader.files.name(missing[0], chunks)}); {resume_hint(manifest, path)}"
            )
        reader.files.require()
        return reader

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

    def _damaged(self, index: int, error: ValueError) -> ValueError:
        return ValueError(f"{self.chunk_path(index)} is damaged: {error}; delete it and "
                          f"{resume_hint(self.manifest, self.path)}")

    def statistics(self) -> tuple[RunStatistics, Timing]:
        """The run's statistics, merged in chunk order from the chunks' metadata (computed
        from the games of a chunk written without them), and its timing."""
        layout = self.layout
        timing = Timing()
        merged = InOrder(RunStatistics(layout), self.chunk_count, note=lambda _, meta: timing.add(meta))
        for index in range(self.chunk_count):
            try:
                stats, meta = _stored(self.path, self.manifest, self.files, layout, index)
            except ValueError as e:
                raise self._damaged(index, e) from None
            merged.add(index, stats, meta)
        return merged.total, timing

    def chunk(self, index: int) -> tuple[RangeResult, dict[str, Any]]:
        """The games of chunk ``index`` and its metadata, checked."""
        first, games = _chunk_span(self.manifest, index)
        try:
            meta, arrays = self.files.read(self.chunk_path(index), self.layout, first)
            _check_meta(meta, int(arrays["moves"].shape[0]), index, self.manifest)
            part = RangeResult(first=first, games=games, elapsed_seconds=float(meta.get("elapsed_seconds", 0.0)),
                               threads=int(meta.get("threads", 1)), arrays=arrays)
            part.check(self.layout)
        except ValueError as e:
            raise self._damaged(index, e) from None
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
