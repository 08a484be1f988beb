"""The cost of measuring the design metrics (pytest-benchmark): ``tw.simulate`` of every game
on one thread, without and with ``metrics=True`` (the game's evaluation and its legal moves at
every decision). ``docs/balance.md`` records the measured ratio against its budget of 15%.

Run with ``python -m pytest benches/test_bench_metrics.py``. Each round must give the
checksum computed before timing (the games do not change with metrics on). There are no
timing assertions.
"""

from __future__ import annotations

import hashlib

import pytest

import tradewinds as tw

SIM_GAMES = 2_000


def run(game: tw.Game, metrics: bool) -> str:
    result = tw.simulate(game, SIM_GAMES, seed=1, threads=1, metrics=metrics)
    digest = hashlib.sha256()
    for array in (result.scores, result.winners, result.moves, result.decisions):
        digest.update(array.tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("metrics", [False, True], ids=["plain", "metrics"])
@pytest.mark.parametrize("name", tw.GAMES)
def test_simulate_with_and_without_metrics(benchmark, name: str, metrics: bool) -> None:  # type: ignore[no-untyped-def]
    game = tw.load(name)
    expected = run(game, False)
    assert benchmark(run, game, metrics) == expected
    if benchmark.stats is not None:  # None with --benchmark-disable
        benchmark.extra_info["games_per_second"] = SIM_GAMES / benchmark.stats.stats.mean
