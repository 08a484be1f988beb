"""A run that keeps only its statistics (`keep_games=False`, the command line without
`--out`) or streams its games to a directory (`out=`, `--out`) needs memory that does not grow
with the number of games: runs of many small chunks against runs of a few.

Measured with the process's own counters, never with the clock: the memory Python and numpy
allocate (tracemalloc), pyarrow's allocator (its pool's peak and what it still holds), and,
for the command line, the peak resident memory of a fresh process. Each is measured in a fresh
interpreter, where no other test's threads allocate."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import tradewinds as tw

#: Regatta with five seats and its pace boat: cheap games with every kind of per-game array.
GAME = ("regatta", {"players": 5, "pace_boat": True})
#: What the per-game arrays of one of its games take in memory.
BYTES_PER_GAME = 5 * (8 + 1 + 2 * 8) + 8 + 8 + 1 + 9 + 1
CHUNK = 64
FEW, MANY = 50, 400


def measured(run: Any) -> tuple[int, int]:
    """``(peak, retained)``: the most memory traced while ``run()`` ran, and what it left
    allocated once garbage is collected (its result included), in bytes."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = run()
        _, peak = tracemalloc.get_traced_memory()
        gc.collect()
        retained, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return peak, retained


def in_a_fresh_interpreter(function: str, *args: Any) -> Any:
    """``function(*args)`` of this module, run in a fresh Python process, and its JSON result.
    tracemalloc counts what every thread of a process allocates, so the measurements run where
    no other test's threads (a Dask cluster's, a thread pool's) can add to them."""
    code = ("import json, sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "import test_memory\n"
            "print(json.dumps(getattr(test_memory, sys.argv[2])(*json.loads(sys.argv[3]))))\n")
    r = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent), function, json.dumps(args)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.splitlines()[-1])


def memory_of_runs(where: str, tmp: str) -> dict[str, int]:
    """What runs of FEW and of MANY chunks take (see `measured`), and pyarrow's pool after each."""
    import pyarrow as pa

    name, options = GAME
    game = tw.load(name, **options)

    def run(chunks: int, tag: str) -> tw.SimulationResult:
        kwargs: dict[str, Any] = {"keep_games": False} if where == "summary" else {"out": Path(tmp) / tag}
        return tw.simulate(game, chunks * CHUNK, seed=1, threads=2, chunk_games=CHUNK, **kwargs)

    run(MANY, "warm-up")  # the first run fills caches and free lists, whatever its length
    few_peak, few_kept = measured(lambda: run(FEW, "few"))
    pool_after_few = pa.default_memory_pool().max_memory()
    many_peak, many_kept = measured(lambda: run(MANY, "many"))
    pool_after_many = pa.default_memory_pool().max_memory()
    return {"few_peak": few_peak, "few_kept": few_kept, "many_peak": many_peak, "many_kept": many_kept,
            "pool_after_few": pool_after_few, "pool_after_many": pool_after_many,
            "arrow_allocated": pa.total_allocated_bytes()}


@pytest.mark.parametrize("where", ["summary", "directory"])
def test_memory_does_not_grow_with_the_number_of_chunks(where: str, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    m = in_a_fresh_interpreter("memory_of_runs", where, str(tmp_path))
    extra_games = (MANY - FEW) * CHUNK
    # Keeping the games would take this much more; the run must stay far below it.
    games_bytes = extra_games * BYTES_PER_GAME
    assert games_bytes > 3_000_000
    # Less than about 90 bytes a chunk: nothing is kept per chunk (a chunk's metadata alone
    # takes more), only noise.
    kept = m["many_kept"] - m["few_kept"]
    assert kept < 32 * 1024, f"{kept} bytes kept for {MANY - FEW} more chunks"
    assert m["many_peak"] - m["few_peak"] < games_bytes // 10, f"peak {m['few_peak']} -> {m['many_peak']} bytes"
    # pyarrow (writing chunks): its peak did not move, and it holds nothing after a run.
    assert m["pool_after_many"] - m["pool_after_few"] < 256 * 1024
    assert m["arrow_allocated"] < 256 * 1024


def memory_of_reading_back(how: str, tmp: str) -> dict[str, int]:
    """What resuming a finished run (``how="resumed"``) or reading it back (``"load_dir"``) of
    FEW and of MANY chunks takes (see `measured`)."""
    name, options = GAME
    game = tw.load(name, **options)
    runs = {chunks: Path(tmp) / f"run-{chunks}" for chunks in (FEW, MANY)}
    for chunks, out in runs.items():
        tw.simulate(game, chunks * CHUNK, seed=1, threads=2, chunk_games=CHUNK, out=out)

    def read(chunks: int) -> tw.SimulationResult:
        if how == "resumed":  # finished: every chunk is checked, none is played
            return tw.simulate(game, chunks * CHUNK, seed=1, threads=2, chunk_games=CHUNK, out=runs[chunks],
                               resume=True)
        result = tw.SimulationResult.load_dir(runs[chunks])
        result.summary()
        return result

    read(MANY)
    few_peak, few_kept = measured(lambda: read(FEW))
    many_peak, many_kept = measured(lambda: read(MANY))
    return {"few_peak": few_peak, "few_kept": few_kept, "many_peak": many_peak, "many_kept": many_kept}


@pytest.mark.parametrize("how", ["resumed", "load_dir"])
def test_reading_a_run_back_needs_memory_that_does_not_grow_with_its_chunks(how: str, tmp_path: Path) -> None:
    """Resuming a run (which checks every finished chunk against the chunk log) and reading
    one back keep what the chunk log records of each chunk in fixed-size rows, not its line."""
    pytest.importorskip("pyarrow")
    m = in_a_fresh_interpreter("memory_of_reading_back", how, str(tmp_path))
    # A line of the chunk log takes about 2.4 KB parsed, a chunk's row 109 bytes.
    for what in ("peak", "kept"):
        few, many = m[f"few_{what}"], m[f"many_{what}"]
        per_chunk = (many - few) / (MANY - FEW)
        assert per_chunk < 1000, f"{what}: {few} -> {many} bytes, {per_chunk:.0f} a chunk"


def peak_rss_kib(args: list[str]) -> int:
    """The peak resident memory (KiB) of a fresh process running the command line ``args``."""
    code = ("import json, resource, sys\n"
            "from tradewinds.cli import main\n"
            "code = main(json.loads(sys.argv[1]))\n"
            "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            "sys.exit(code)\n")
    r = subprocess.run([sys.executable, "-c", code, json.dumps(args)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return int(r.stdout.split("peak")[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss is in KiB on Linux")
@pytest.mark.parametrize("where", ["summary", "directory"])
def test_the_command_line_runs_in_memory_that_does_not_grow(where: str, tmp_path: Path) -> None:
    if where == "directory":
        pytest.importorskip("pyarrow")
    name, options = GAME
    few, many = 30_000, 240_000

    def args(games: int) -> list[str]:
        out = ["--out", str(tmp_path / f"run-{games}")] if where == "directory" else []
        return ["simulate", name, "--players", str(options["players"]), "--option", "pace_boat=true",
                "--games", str(games), "--chunk-games", "500", "--threads", "2", *out]

    small, large = peak_rss_kib(args(few)), peak_rss_kib(args(many))
    games_kib = (many - few) * BYTES_PER_GAME // 1024
    # Kept in memory, the games would add about games_kib (some 30 MiB); allow a tenth.
    assert large - small < games_kib // 10, f"peak resident memory {small} KiB -> {large} KiB"
