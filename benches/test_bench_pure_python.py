"""The pure-Python baseline (pytest-benchmark): random games per second played by a game's
pure-Python twin (``tests/oracles/<game>.py``, e.g. North Wind's) - the plain Python a user
would write instead of tradewinds - next to the Rust engine's bulk simulation on one thread,
on the same games, in every configuration of each listed game that has a twin.

Run with ``python -m pytest benches/test_bench_pure_python.py`` (add ``-s`` to see the
comparison lines). Both engines play game i from the same derived seed with the same random
players, so their results must be identical: each benchmark asserts that every timed round
reproduces the checksum of the Rust results. There are no timing assertions.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tradewinds as tw
from tradewinds._core import configurations

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from oracles import twin  # noqa: E402

#: (game, options, its twin module) for every configuration of each listed game with a twin.
CASES: list[tuple[str, dict[str, Any], ModuleType]] = [
    (name, options, module)
    for name in tw.GAMES
    if (module := twin(name)) is not None
    for options in configurations(name)
]

GAMES = 50  # pure-Python games per round
NATIVE_GAMES = 2_000  # Rust games per timing of the comparison
SEED = 3


def checksum(rows: Sequence[tuple[object, ...]]) -> str:
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def python_checksum(oracle: ModuleType, game: Any, games: int, seed: int) -> str:
    records = oracle.simulate(game, games, seed)
    return checksum(
        [(r.scores, r.winner, r.moves, r.decisions, r.truncated, r.category_points) for r in records]
    )


def native_checksum(result: tw.SimulationResult) -> str:
    rows = []
    for i in range(result.games):
        won = [p for p in range(result.players) if result.winners[i, p]]
        rows.append(
            (
                [int(x) for x in result.scores[i]],
                won[0] if won else None,
                int(result.moves[i]),
                int(result.decisions[i]),
                bool(result.truncated[i]),
                [[int(x) for x in row] for row in result.category_points[i]],
            )
        )
    return checksum(rows)


def native_games_per_second(game: tw.Game, games: int, seed: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        tw.simulate(game, games, seed=seed, threads=1)
        best = min(best, time.perf_counter() - start)
    return games / best


@pytest.mark.parametrize(("name", "options", "oracle"), CASES,
                         ids=[f"{n}-" + "-".join(f"{k}={v}" for k, v in o.items()) for n, o, _ in CASES])
def test_pure_python_random_games(benchmark, capsys, name: str, options: dict[str, Any], oracle: ModuleType) -> None:  # type: ignore[no-untyped-def]
    ours = oracle.engine(options)
    native = tw.load(name, **options)
    expected = native_checksum(tw.simulate(native, GAMES, seed=SEED, threads=1))
    result = benchmark.pedantic(python_checksum, args=(oracle, ours, GAMES, SEED), rounds=3, iterations=1)
    assert result == expected
    python_rate = GAMES / benchmark.stats.stats.mean
    native_rate = native_games_per_second(native, NATIVE_GAMES, SEED)
    benchmark.extra_info["games"] = GAMES
    benchmark.extra_info["python_games_per_second"] = python_rate
    benchmark.extra_info["native_games_per_second"] = native_rate
    benchmark.extra_info["speedup"] = native_rate / python_rate
    with capsys.disabled():
        print(
            f"\n{name} {options} random games: pure Python {python_rate:,.1f} games/s, "
            f"tradewinds (1 thread) {native_rate:,.0f} games/s, {native_rate / python_rate:,.0f}x faster"
        )
