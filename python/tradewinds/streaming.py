"""Run directories: a simulation streamed durably to a directory, chunk by chunk, resumed,
and read back (:func:`read_directory`).

Layout of a run directory::

    DIR/manifest.json        what the run is: game configuration, seed, agents, games, chunk size
    DIR/chunk-000000.npz     games 0 .. chunk_games - 1
    DIR/chunk-000001.npz     games chunk_games .. 2 * chunk_games - 1
    ...

Every file is written to a temporary name in ``DIR``, flushed to disk (``fsync``) and then
renamed into place, so a chunk file either is complete or does not exist, whatever happens to
the process (an exception, Ctrl-C, ``kill -9``, a power cut after the rename reached the disk).
A resumed run plays only the chunks that are missing; because game ``i`` depends only on the
seed and ``i``, the merged result equals an uninterrupted run's.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
import warnings
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import numpy.typing as npt

from ._results import FILE_VERSION, Layout, NpzFormat, RangeResult, RunArrays, read_npz, write_npz

__all__ = ["MANIFEST", "RunDirectory", "read_manifest", "read_directory", "directory_status"]

MANIFEST = "manifest.json"
_FORMAT = "tradewinds-simulation-dir"
#: The run-directory format version written; older ones are read too. Version 1 predates
#: opponents and tiers: its manifest names neither, and its chunks lack their arrays.
_VERSION = 2
_CHUNK = NpzFormat("tradewinds-simulation-chunk", FILE_VERSION, "tradewinds simulation chunk")
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


def read_manifest(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of run directory ``path``, or None when it has none."""
    file = Path(path) / MANIFEST
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise ValueError(f"{path} is not a directory") from None
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


def _fsync_directory(path: Path) -> None:
    if os.name != "posix":  # pragma: no cover - directories cannot be opened for fsync elsewhere
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, write: Callable[[IO[bytes]], None]) -> None:
    """Writes ``path`` so that it either holds everything ``write`` wrote or does not change:
    a temporary file in the same directory, fsync, rename, fsync of the directory."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_directory(path.parent)


def chunk_name(index: int, chunks: int) -> str:
    width = max(6, len(str(max(chunks - 1, 0))))
    return f"chunk-{index:0{width}d}.npz"


def _read_chunk(path: Path, index: int, manifest: Mapping[str, Any]) -> tuple[RangeResult, dict[str, Any]]:
    """Loads and checks chunk ``index``: its metadata must match the manifest and its arrays
    must have the shapes of its games. Raises ``ValueError`` saying what is wrong."""
    chunk_games = int(manifest["chunk_games"])
    first = index * chunk_games
    games = min(chunk_games, int(manifest["games"]) - first)
    layout = Layout.from_meta(manifest)
    try:
        meta, arrays = read_npz(path, _CHUNK, "it", layout)
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None
    for key, want in (("index", index), ("first", first), ("games", games), ("seed", manifest["seed"])):
        if meta.get(key) != want:
            raise ValueError(f"its {key} is {meta.get(key)!r}, the manifest implies {want!r}")
    part = RangeResult(
        first=first,
        games=games,
        elapsed_seconds=float(meta.get("elapsed_seconds", 0.0)),
        threads=int(meta.get("threads", 1)),
        arrays=arrays,
    )
    part.check(layout)
    return part, meta


class RunDirectory:
    """A run directory opened for writing: its manifest is on disk, and no other run writes
    to it while it is open (on POSIX systems, an exclusive lock on ``DIR/.lock``)."""

    def __init__(self, path: Path, manifest: dict[str, Any], lock: IO[bytes] | None) -> None:
        self.path = path
        self.manifest = manifest
        self._lock = lock
        self.session = secrets.token_hex(8)
        self.session_start = time.time()

    @property
    def chunks(self) -> int:
        return int(self.manifest["chunks"])

    def chunk_path(self, index: int) -> Path:
        return self.path / chunk_name(index, self.chunks)

    @classmethod
    def open(cls, path: str | os.PathLike[str], manifest: dict[str, Any], resume: bool) -> RunDirectory:
        """Starts run ``manifest`` in ``path`` (created if needed), or with ``resume``
        continues the run already there. Raises ``ValueError`` if the directory holds another
        run, or holds a run and ``resume`` is false."""
        where = Path(path)
        where.mkdir(parents=True, exist_ok=True)
        lock = _lock(where)
        try:
            existing = read_manifest(where)
            if existing is not None:
                if not resume:
                    done = sum(1 for i in range(int(existing["chunks"]))
                               if (where / chunk_name(i, int(existing["chunks"]))).is_file())
                    raise ValueError(
                        f"{where} already holds a simulation ({done} of {existing['chunks']} chunks finished); "
                        "resume it (resume=True, or --resume on the command line) or choose another directory"
                    )
                diffs = manifest_differences(existing, manifest)
                if diffs:
                    raise ValueError(
                        f"cannot resume {where}: its manifest disagrees with this run:\n  " + "\n  ".join(diffs)
                    )
                manifest = existing
            else:
                strays = sorted(p.name for p in where.glob("chunk-*.npz"))
                if strays:
                    raise ValueError(
                        f"{where} holds chunk files ({strays[0]}, ...) but no {MANIFEST}; "
                        "choose another directory"
                    )
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
            if tmp.name.startswith((".chunk-", f".{MANIFEST}.")):
                with contextlib.suppress(OSError):
                    tmp.unlink()

    def finished(self) -> dict[int, tuple[RangeResult, dict[str, Any]]]:
        """The chunks already on disk, checked. A chunk that fails its checks (which atomic
        writes rule out, short of disk corruption or tampering) is renamed ``*.bad`` with a
        warning, and counts as missing."""
        out = {}
        for index in range(self.chunks):
            path = self.chunk_path(index)
            if not path.is_file():
                continue
            try:
                out[index] = _read_chunk(path, index, self.manifest)
            except ValueError as e:
                bad = path.with_name(path.name + ".bad")
                os.replace(path, bad)
                warnings.warn(f"{path} is damaged ({e}); moved it to {bad.name} and will play its games again",
                              RuntimeWarning, stacklevel=2)
        return out

    def write(self, index: int, part: RangeResult, threads: int) -> dict[str, Any]:
        """Writes chunk ``index`` atomically; returns its metadata."""
        meta = {
            "index": index,
            "first": part.first,
            "games": part.games,
            "seed": self.manifest["seed"],
            "elapsed_seconds": part.elapsed_seconds,
            "threads": threads,
            "session": self.session,
            "session_start": self.session_start,
            "finished": time.time(),
        }

        def write(f: IO[bytes]) -> None:
            write_npz(f, _CHUNK, meta, part.arrays)

        atomic_write(self.chunk_path(index), write)
        return {"format": _CHUNK.tag, "version": _CHUNK.version, **meta}

    def close(self) -> None:
        _unlock(self._lock)
        self._lock = None

    def __enter__(self) -> RunDirectory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


def session_seconds(metas: Iterable[Mapping[str, Any]]) -> float:
    """The wall-clock time spent on a run: for each session (one process's run), from its
    start to its last finished chunk, summed over sessions."""
    sessions: dict[str, tuple[float, float]] = {}
    for m in metas:
        key = str(m.get("session", ""))
        start = float(m.get("session_start", 0.0))
        end = float(m.get("finished", start))
        s, e = sessions.get(key, (start, end))
        sessions[key] = (min(s, start), max(e, end))
    return sum(max(0.0, e - s) for s, e in sessions.values())


def chunk_threads(metas: Iterable[Mapping[str, Any]]) -> int:
    """The most threads any chunk of a run was played on (0 for a run without chunks)."""
    return max((int(m.get("threads", 1)) for m in metas), default=0)


def directory_status(path: str | os.PathLike[str]) -> tuple[int, int, int]:
    """``(finished chunks, chunks, finished games)`` of run directory ``path`` (by the files
    present; :func:`read_directory` checks them)."""
    manifest = read_manifest(path)
    if manifest is None:
        raise ValueError(f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
    chunks, cg, games = int(manifest["chunks"]), int(manifest["chunk_games"]), int(manifest["games"])
    done = [i for i in range(chunks) if (Path(path) / chunk_name(i, chunks)).is_file()]
    return len(done), chunks, sum(min(cg, games - i * cg) for i in done)


def resume_hint(manifest: Mapping[str, Any], path: str | os.PathLike[str]) -> str:
    return (f"finish it with `tradewinds simulate {manifest['game']} --out {path} --resume` "
            f"or tw.simulate(..., out={str(path)!r}, resume=True)")


def read_directory(
    path: str | os.PathLike[str],
) -> tuple[dict[str, Any], dict[str, npt.NDArray[Any]], list[dict[str, Any]]]:
    """The manifest, the per-game arrays (merged in game order) and the chunks' metadata of
    the complete run in directory ``path``. Raises ``ValueError`` naming what is missing or
    damaged and how to finish the run."""
    manifest = read_manifest(path)
    if manifest is None:
        raise ValueError(f"{path} has no {MANIFEST}: it is not a tradewinds simulation directory")
    chunks = int(manifest["chunks"])
    missing = [i for i in range(chunks) if not (Path(path) / chunk_name(i, chunks)).is_file()]
    if missing:
        raise ValueError(
            f"{path} is incomplete: {len(missing)} of {chunks} chunks are missing "
            f"(the first is {chunk_name(missing[0], chunks)}); {resume_hint(manifest, path)}"
        )
    run = RunArrays(Layout.from_meta(manifest), int(manifest["games"]))
    metas = []
    for i in range(chunks):
        file = Path(path) / chunk_name(i, chunks)
        try:
            part, meta = _read_chunk(file, i, manifest)
        except ValueError as e:
            raise ValueError(f"{file} is damaged: {e}; delete it and {resume_hint(manifest, path)}") from None
        run.add(part)
        metas.append(meta)
    return manifest, run.complete(), metas
