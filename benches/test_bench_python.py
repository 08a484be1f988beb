"""Python-side benchmarks (pytest-benchmark): decisions per second when Python drives the
game, and games per second of the Rust bulk simulator on one thread.

Run with ``python -m pytest benches/test_bench_python.py``. Each benchmark also checks that
its work is deterministic: every round must produce the checksum computed before timing.
There are no timing assertions.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import tradewinds as tw

DECISIONS = 20_000
SIM_GAMES = 2_000


def drive(game: tw.Game, decisions: int, seed: int) -> str:
    """Plays `decisions` uniformly random decisions from Python (starting a new game whenever
    one ends) and returns a checksum of the final states of all games played."""
    rng = random.Random(seed)
    digest = hashlib.sha256()
    state = game.new_state(seed)
    games = 0
    for _ in range(decisions):
        if state.is_terminal:
            digest.update(state.to_bytes())
            games += 1
            state = game.new_state(seed + games)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    digest.update(state.to_bytes())
    return digest.hexdigest()


@pytest.mark.parametrize("name", tw.GAMES)
def test_python_driven_decisions(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    game = tw.load(name)  # the game's default configuration
    expected = drive(game, DECISIONS, seed=1)
    checksums = benchmark(drive, game, DECISIONS, 1)
    assert checksums == expected
    benchmark.extra_info["decisions"] = DECISIONS
    benchmark.extra_info["decisions_per_second"] = DECISIONS / benchmark.stats.stats.mean


def simulate_checksum(game: tw.Game, games: int, seed: int) -> tuple[str, int]:
    result = tw.simulate(game, games, seed=seed, threads=1)
    digest = hashlib.sha256()
    for array in (result.scores, result.winners, result.moves, result.decisions, result.category_points):
        digest.update(array.tobytes())
    return digest.hexdigest(), int(result.decisions.sum())


@pytest.mark.parametrize("name", tw.GAMES)
def test_simulate_one_thread(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    game = tw.load(name)  # the game's default configuration
    expected = simulate_checksum(game, SIM_GAMES, seed=2)
    checksum = benchmark(simulate_checksum, game, SIM_GAMES, 2)
    assert checksum == expected
    benchmark.extra_info["games"] = SIM_GAMES
    benchmark.extra_info["games_per_second"] = SIM_GAMES / benchmark.stats.stats.mean
    benchmark.extra_info["decisions_per_second"] = expected[1] / benchmark.stats.stats.mean
