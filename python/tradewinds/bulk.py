"""Bulk simulation: :func:`simulate` on local threads or a Dask cluster, optionally streamed to
a directory chunk by chunk and resumable.

A run is split into chunks, game-index ranges ``first .. first + chunk_games``. Game ``i``
depends only on the seed and ``i``, so the chunks may run in any order and anywhere; the
results are identical bit for bit for any thread count, chunk size and backend.

Whoever plays a chunk (a worker thread, a Dask worker) also writes it to the run directory,
if there is one, and sends back only what the run keeps of it: its statistics, or its games
when they are kept in memory (``keep_games``). The statistics are merged in chunk order as
they come, so a run that keeps no games in memory needs memory for a few chunks at a time,
however many games it plays.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._core import Game
from ._core import load as _load
from ._optional import import_optional
from ._play import layout_of, run_range
from ._results import Layout, RangeResult, RunArrays
from ._stats import InOrder, RunStatistics
from .agents import Agent, agent_label, normalize_agents, shown
from .simulation import ProgressBar, SimulationResult
from .streaming import (
    MANIFEST,
    ChunkWriter,
    RunDirectory,
    RunDirectoryError,
    RunReader,
    Timing,
    is_write_failure,
    make_manifest,
    read_manifest,
)

__all__ = ["simulate", "default_chunk_games", "BACKENDS"]

#: The places a simulation can run.
BACKENDS = ("local", "dask")

_MAX_SEED = (1 << 64) - 1
_MAX_GAMES = (1 << 63) - 1

#: Chunks stay below about this many MCTS iterations per decision times games, so that a
#: chunk of MCTS games takes minutes rather than hours.
_MCTS_BUDGET = 6400


def default_chunk_games(agents: Sequence[Agent]) -> int:
    """The chunk size used when none is given: 4096 games with the fast built-in agents,
    fewer with MCTS seats (about 6400 / total iterations per decision, at least 1) and at
    most 256 with Python agents, so that a chunk takes seconds to minutes."""
    size = 4096
    iterations = 0
    for a in agents:
        if not isinstance(a, str):
            size = min(size, 256)
        elif a.split(":", 1)[0].strip() == "mcts":
            m = re.search(r"iterations=(\d+)", a)
            iterations += int(m.group(1)) if m else 200
    if iterations:
        size = min(size, max(1, _MCTS_BUDGET // iterations))
    return size


def _balanced_chunk_games(games: int, threads: int, largest: int) -> int:
    """Chunks for a run kept in memory: about eight per thread, in multiples of 256 games
    (the largest work unit Rust hands a thread), at most ``largest``. (Results never depend on it;
    a run of a few chunks is played by one call spread over all threads.)"""
    per = -(-games // (8 * threads)) if games else 1
    size = -(-per // 256) * 256
    return max(1, min(largest, size))


def _check_int(name: str, value: object, low: int, high: int | None = None, hint: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        names = {_MAX_SEED: "2**64 - 1", _MAX_GAMES: "2**63 - 1"}
        bound = f"an integer in [{low}, {names.get(high, high)}]" if high is not None else f">= {low}"
        got = str(value) if value.bit_length() < 200 else f"an integer of about {int(value.bit_length() * 0.30103):,} digits"
        raise ValueError(f"{name} must be {bound}{hint}, got {got}")
    return value


def _resolve_game(game_or_name: Game | str, options: dict[str, Any]) -> Game:
    if isinstance(game_or_name, Game):
        if options:
            raise TypeError(
                "options (" + ", ".join(sorted(options)) + ") can only be given with a game name; "
                "this Game is already configured"
            )
        return game_or_name
    if isinstance(game_or_name, str):
        return _load(game_or_name, options)
    raise TypeError(f"simulate() needs a Game or a game name, not {type(game_or_name).__name__}")


def simulate(
    game_or_name: Game | str,
    games: int = 10_000,
    *,
    seed: int = 0,
    threads: int = 0,
    agents: Sequence[Agent] | None = None,
    progress: bool | Callable[[int], object] = False,
    backend: str = "local",
    client: Any = None,
    chunk_games: int | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    repair: bool = False,
    keep_games: bool | None = None,
    metrics: bool = False,
    **options: Any,
) -> SimulationResult:
    """Plays ``games`` games and returns their results (see :class:`SimulationResult`).

    ``game_or_name`` is a :class:`Game` (which may carry modified component data,
    ``tw.load(name, data=...)``), or a game name whose options follow as keywords
    (``tw.simulate("north-wind", 1000, players=4)``).

    ``agents``: one agent per seat, each a built-in agent's spec (``"random"``, ``"greedy"``,
    ``"mcts"``, ``"mcts:iterations=100,exploration=1.4,rollout_depth=200"``) or a Python
    callable ``agent(state, player, rng) -> action`` (see :mod:`tradewinds.agents`; games with
    a callable are played by a Python loop, much more slowly). ``None``: every seat random.

    ``threads``: worker threads (0 = all cores). With ``backend="dask"``, the Dask
    ``client``'s workers play the chunks (``client`` defaults to the current client) and
    ``threads`` is the number of threads each chunk uses on its worker (0 = 1).

    ``chunk_games``: games per chunk, the unit of work handed to a thread or a Dask worker
    and of streaming (default: :func:`default_chunk_games`, or for a local run in memory
    about eight chunks per thread).

    ``out``: a directory to stream the results to as chunks finish (a manifest, a chunk log,
    and one Parquet file per chunk in ``out/chunks``, the run's Parquet dataset; each written
    atomically; needs pyarrow, ``pip install 'tradewinds[parquet]'``). If the run is interrupted, every finished chunk stays
    intact, and ``resume=True`` plays only the missing ones. Without ``resume``, a directory
    that already holds a run is an error; with it, a directory whose manifest disagrees with
    this call (game, options, seed, games, chunk size, agents) is an error naming what
    differs, and so is one whose chunks verify but belong to a run other than its manifest
    describes (an edited manifest: nothing is changed). With ``backend="dask"`` the workers write the chunks they play: ``out`` must
    be a path that they reach too (a shared file system). Resuming checks every finished
    chunk against the checksum the directory's chunk log records, and plays a damaged one
    again (with a warning). A write that fails for lack of space or permission raises
    :class:`~tradewinds.RunWriteError`, which says what is saved, about how much space the rest
    needs and how to resume.

    ``repair=True`` (with ``out``, a directory that holds a run) verifies every chunk and
    plays the damaged and missing ones again, exactly those (each chunk is determined by the
    game, ``seed`` and its game range): a chunk played again must hold the games the chunk log
    recorded for it, and is read back and verified once written. The result's ``repair`` (a
    :class:`~tradewinds.streaming.RepairReport`) says what was replaced and why.

    ``keep_games``: whether the result holds the per-game arrays in memory, which take about
    250 bytes a game in 4-player North Wind. With ``False`` the run keeps only its statistics,
    merged as chunks finish, in memory that does not grow with the number of games: the
    summary, win rates and intervals are all there, the arrays are not. The default is
    ``True`` without ``out`` and ``False`` with it: the result then reads its games back from
    the directory when they are first asked for (``result.scores``, or a chunk at a time with
    ``result.chunks()``); ``keep_games=True`` with ``out`` reads them at the end of the run.

    ``metrics=True`` measures each game's design metrics as it is played (from the game's
    evaluation at every decision: who leads, lead changes, how early the winner leads for
    good, how far behind it fell, turns, legal moves per decision); ``result.metrics()``
    aggregates them with the outcome metrics (see ``docs/balance.md``). The games are the
    same either way. It needs built-in agents.

    ``progress=True`` draws a progress bar with the rate and the time left on standard
    error; where standard error is not a terminal (a pipe, a log file) it writes a line every
    15 seconds instead, once the run lasts that long. A callable is called with the
    number of games just finished (from worker threads - keep it cheap); returning ``False``
    stops the run with ``KeyboardInterrupt``. Ctrl-C stops a run too (within one chunk of 256
    games on each thread).

    The results depend only on the game, ``seed``, ``games`` and ``agents`` - never on
    ``threads``, ``chunk_games``, ``backend`` or on interruptions and resumes.
    """
    game = _resolve_game(game_or_name, options)
    _check_int("games", games, 0, _MAX_GAMES)
    _check_int("seed", seed, 0, _MAX_SEED)
    _check_int("threads", threads, 0, hint=" (0 = all cores)")
    if chunk_games is not None:
        _check_int("chunk_games", chunk_games, 1)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {shown(str(backend))}; backends are {', '.join(BACKENDS)}")
    if client is not None and backend != "dask":
        raise ValueError("client= is for backend='dask'")
    if resume and out is None:
        raise ValueError("resume=True needs out=DIR, the directory of the run to resume")
    if repair:
        if out is None:
            raise ValueError("repair=True needs out=DIR, the directory of the run to repair")
        if read_manifest(out) is None:
            raise RunDirectoryError.at(out, f"{out} holds no run to repair (no {MANIFEST}); repair=True mends a "
                                            "run directory written before")
    if keep_games is not None and not isinstance(keep_games, bool):
        raise TypeError(f"keep_games must be True, False or None, not {type(keep_games).__name__}")
    keep = (out is None) if keep_games is None else keep_games
    if not (progress is True or progress is False or progress is None or callable(progress)):
        raise TypeError("progress must be True, False or a callable taking the number of games finished")
    seats = normalize_agents(game, agents)
    labels = [agent_label(a) for a in seats]
    if not isinstance(metrics, bool):
        raise TypeError(f"metrics must be True or False, not {type(metrics).__name__}")
    if metrics and not all(isinstance(a, str) for a in seats):
        raise ValueError("metrics=True needs built-in agents (Rust measures the metrics as it plays); "
                         "a Python agent's games are played by the Python loop")
    layout = layout_of(game)
    config = json.loads(game.config_json())

    # The games are held in memory only when kept and not streamed (a streamed run reads
    # them back from its directory); allocated now, so that a run too large fails at once.
    run = RunArrays(layout, games) if keep and out is None else None
    directory: RunDirectory | None = None
    if out is not None:
        if chunk_games is None:
            previous = read_manifest(out) if resume or repair else None
            chunk_games = int(previous["chunk_games"]) if previous is not None else default_chunk_games(seats)
        manifest = make_manifest(game=game.name, config=config, layout=layout, seed=seed, games=games,
                                 chunk_games=chunk_games, agents=labels, metrics=metrics)
        directory = RunDirectory.open(out, manifest, resume or repair)
    elif chunk_games is None:
        if backend == "local" and all(isinstance(a, str) for a in seats):
            chunk_games = _balanced_chunk_games(games, threads or _cores(), default_chunk_games(seats))
        else:
            chunk_games = default_chunk_games(seats)

    try:
        done = directory.finished(repair) if directory is not None else set()
        chunks = -(-games // chunk_games) if games else 0
        timing = Timing()

        def stored(index: int) -> tuple[RunStatistics, dict[str, Any]] | None:
            # A chunk finished before this session: its statistics from its file.
            return directory.stored(index) if directory is not None and index in done else None

        merged = InOrder(RunStatistics(layout), chunks, stored, lambda _, meta: timing.add(meta))
        merged.advance()  # the finished chunks before the first missing one
        finished_games = sum(min(chunk_games, games - k * chunk_games) for k in done)

        bar: ProgressBar | None = None
        report: Callable[[int], object] | None
        if progress is True:
            # A bar on a terminal; elsewhere (a pipe, a log) a line every LINE_INTERVAL seconds.
            bar = ProgressBar(games, sys.stderr, initial=finished_games, lines=not _is_terminal(sys.stderr))
            report = bar.update
        elif callable(progress):
            report = progress
        else:
            report = None

        def on_done(outcome: _ChunkOutcome) -> None:
            if outcome.part is not None:
                assert run is not None
                run.add(outcome.part)
            else:
                assert outcome.stats is not None
                if directory is not None:
                    directory.commit(outcome.index, outcome.meta)
                merged.add(outcome.index, outcome.stats, outcome.meta)

        todo = ((k, k * chunk_games, min(chunk_games, games - k * chunk_games)) for k in range(chunks) if k not in done)
        play = _PlayChunk(game, seats, seed, layout, directory.writer if directory is not None else None,
                          keep and directory is None, metrics)
        job = _Job(play, todo, chunks - len(done), threads, on_done, report)
        start = time.perf_counter()
        try:
            used = _run_dask(client, job) if backend == "dask" else _run_local(job)
        finally:
            if bar is not None:
                bar.close()
        elapsed = time.perf_counter() - start
        if run is None and not merged.complete:  # pragma: no cover - every chunk was merged
            raise RuntimeError(f"only {merged.next} of {chunks} chunks were merged")
        if directory is not None:
            repaired = directory.repair_report(set(range(chunks)) - done) if repair else None
            result = SimulationResult.from_run(directory.manifest, merged.total, timing,
                                               RunReader(directory.path, directory.manifest), repair=repaired)
            if keep:
                result.arrays  # read the games now  # noqa: B018
            return result
        return SimulationResult(
            game=game.name,
            players=game.players,
            games=games,
            seed=seed,
            threads=used,
            elapsed_seconds=elapsed,
            categories=list(layout.categories),
            opponents=list(layout.opponents),
            tiers=list(layout.tiers),
            options=game.options,
            agents=labels,
            arrays=run.complete() if run is not None else None,
            statistics=None if run is not None else merged.total,
        )
    except OSError as e:
        if directory is not None and is_write_failure(e):
            raise directory.failure(e) from e
        raise
    finally:
        if directory is not None:
            directory.close()


@dataclass(frozen=True, eq=False)
class _ChunkOutcome:
    """What a chunk's player sends back: its games (``part``, when the run keeps them in
    memory) or its statistics (``stats``, with the timing entries of its metadata, ``meta``,
    when it was written to the run directory)."""

    index: int
    games: int
    part: RangeResult | None
    stats: RunStatistics | None
    meta: dict[str, Any]


@dataclass(frozen=True, eq=False)
class _PlayChunk:
    """Plays a chunk where it is sent (a worker thread, a Dask worker; small and picklable):
    the games of ``game`` seeded ``seed``, seat p played by ``agents[p]``. With a ``writer``
    it writes the chunk to the run directory and returns its statistics; otherwise it returns
    its games (``keep``) or only their statistics."""

    game: Game
    agents: list[Agent]
    seed: int
    layout: Layout
    writer: ChunkWriter | None
    keep: bool
    metrics: bool = False

    def __call__(
        self, index: int, first: int, count: int, threads: int, recorded_threads: int,
        progress: Callable[[int], object] | None = None,
    ) -> _ChunkOutcome:
        part = run_range(self.game, self.agents, self.seed, first, count, threads, progress, self.metrics)
        if self.writer is not None:
            stats, meta = self.writer.write(index, part, recorded_threads)
            return _ChunkOutcome(index, count, None, stats, meta)
        if self.keep:
            return _ChunkOutcome(index, count, part, None, {})
        return _ChunkOutcome(index, count, None, RunStatistics.of(part.arrays, self.layout), {})


@dataclass(frozen=True, eq=False)
class _Job:
    """What a backend plays: the ``count`` chunks that ``todo`` yields (index, first game,
    games), each by ``play``, with ``threads`` as given to :func:`simulate`. ``on_done``
    takes each chunk's outcome, in the calling thread; ``report(n)``, when given, the number
    of games just finished."""

    play: _PlayChunk
    todo: Iterator[tuple[int, int, int]]
    count: int
    threads: int
    on_done: Callable[[_ChunkOutcome], None]
    report: Callable[[int], object] | None


# ---- local threads ---------------------------------------------------------------------------


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _cores() -> int:
    """The cores this process may run on (what the Rust side's "all cores" means too)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _run_local(job: _Job) -> int:
    """Plays the job's chunks on a pool of worker threads while the calling thread waits for
    them, so that Ctrl-C (``KeyboardInterrupt`` in the calling thread) stops the run. Returns
    the number of threads used."""
    report = job.report
    total = job.threads or _cores()
    if not job.count:
        return total
    # Each concurrent chunk gets an equal share of the threads: one chunk (the default for a
    # run in memory) uses them all inside Rust; many small chunks use one thread each.
    concurrency = min(total, job.count)
    per_chunk = max(1, total // concurrency)
    stop = threading.Event()
    reporting = threading.Lock()
    # The error that stopped the run. Once it is recorded, the chunks under way are stopped,
    # and their own "stopped" errors must not hide it: the calling thread raises this one.
    failures: list[BaseException] = []

    def progress(n: int) -> bool:
        if stop.is_set():
            return False
        if report is not None:
            # One report at a time, and none after the run was stopped or a report raised.
            with reporting:
                if stop.is_set():
                    return False
                try:
                    go_on = report(n) is not False
                except BaseException as e:
                    failures.append(e)
                    stop.set()
                    raise
                if not go_on:
                    failures.append(KeyboardInterrupt("simulation stopped by its progress callback"))
                    stop.set()
                    return False
        return True

    # The chunks are taken from the generator as workers free up, one per worker at a time:
    # nothing is held per chunk of the run.
    pending: set[Future[_ChunkOutcome]] = set()
    pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="tradewinds-simulate")

    def submit_next() -> None:
        task = next(job.todo, None)
        if task is not None:
            index, first, count = task
            pending.add(pool.submit(job.play, index, first, count, per_chunk, total, progress))

    try:
        for _ in range(concurrency):
            submit_next()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                error = future.exception()
                if error is not None:
                    with reporting:
                        if not failures:
                            failures.append(error)
                    raise failures[0]
                job.on_done(future.result())
                submit_next()
    except BaseException:
        # The chunks under way stop at their next progress report (at most 256 games later)
        # and the others never start; the caller does not wait for them.
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return total


# ---- Dask ------------------------------------------------------------------------------------


def _run_dask(client: Any, job: _Job) -> int:
    """Plays the job's chunks as tasks on a Dask cluster; the calling process takes their
    outcomes as they finish (statistics only, unless the games are kept in memory), with a
    few tasks per worker thread submitted at a time, so that neither this process nor the
    scheduler holds anything for every chunk of a long run. Returns the number of worker
    threads of the cluster."""
    distributed = import_optional("distributed", "backend='dask'", "dask.distributed",
                                  "`pip install 'tradewinds[dask]'`")
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError:
            raise ValueError(
                "backend='dask' needs a Dask client: pass client=distributed.Client(address), "
                "or create one first"
            ) from None
    per_task = job.threads or 1
    workers = int(sum(client.nthreads().values())) * per_task
    if not job.count:
        return workers
    token = uuid.uuid4().hex[:12]
    window = max(8, 4 * max(1, workers // per_task))
    pending: dict[str, Any] = {}
    finished = distributed.as_completed(loop=client.loop, with_results=True)

    def submit_next() -> None:
        task = next(job.todo, None)
        if task is not None:
            index, first, count = task
            future = client.submit(_play_on_worker, job.play, index, first, count, per_task, workers,
                                   key=f"tradewinds-simulate-{token}-{index}", priority=-index)
            pending[future.key] = future
            finished.add(future)

    try:
        for _ in range(window):
            submit_next()
        for future, outcome in finished:
            pending.pop(future.key, None)
            future.release()
            job.on_done(outcome)
            if job.report is not None and job.report(outcome.games) is False:
                raise KeyboardInterrupt("simulation stopped by its progress callback")
            submit_next()
    except BaseException:
        client.cancel(list(pending.values()))
        raise
    return workers


def _play_on_worker(
    play: _PlayChunk, index: int, first: int, count: int, threads: int, recorded_threads: int
) -> _ChunkOutcome:
    """A chunk as a Dask task."""
    return play(index, first, count, threads, recorded_threads)


def load_game_for(path: str | os.PathLike[str]) -> Game:
    """The game of the run in directory ``path``, built from its manifest's configuration."""
    manifest = read_manifest(path)
    if manifest is None:
        raise ValueError(f"{Path(path)} has no manifest")
    config = dict(manifest["config"])
    name = str(config.pop("game"))
    return _load(name, config)
