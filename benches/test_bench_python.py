"""Python-side benchmarks (pytest-benchmark): decisions per second when Python drives the
game one decision at a time, and when it drives 1,024 games at once through
``tw.VectorGame`` (choosing every decision in numpy from the legal-action mask or from the
legal actions as lists, with and without reading the observations), and games per second of
the Rust bulk simulator on one thread.

Run with ``python -m pytest benches/test_bench_python.py``. Each benchmark also checks that
its work is deterministic: every round must produce the checksum computed before timing.
There are no timing assertions.
"""

from __future__ import annotations

import hashlib
import random

import numpy as np
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


VECTOR_GAMES = 1024
VECTOR_STEPS = 100


def drive_vector(game: tw.Game, steps: int, seed: int, observations: bool, legal: str) -> str:
    """`steps` batched steps of `VECTOR_GAMES` games on one thread, each decision a random legal
    action chosen in numpy from the mask (the argmax of the mask times uniform noise) or, with
    `legal="actions"`, from the lists (`offsets[i] + floor(u * count_i)`); returns a checksum
    of the finished games' returns and the final legal actions."""
    vg = tw.VectorGame(game, VECTOR_GAMES, seed=seed, threads=1, legal=legal)
    rng = np.random.default_rng(seed)
    digest = hashlib.sha256()
    for _ in range(steps):
        if legal == "mask":
            mask = vg.legal_action_mask()
            actions = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(axis=1)
        else:
            offsets, ids = vg.legal_actions()
            start = offsets[:-1]
            actions = ids[start + (rng.random(len(start)) * (offsets[1:] - start)).astype(np.int64)]
        out = vg.step(actions)
        if observations:
            vg.observation_tensor()
        digest.update(out.returns[out.finished].tobytes())
    final = [vg.legal_action_mask()] if legal == "mask" else list(vg.legal_actions())
    digest.update(b"".join(a.tobytes() for a in final))
    return digest.hexdigest()


@pytest.mark.parametrize("legal", ["mask", "actions"])
@pytest.mark.parametrize("observations", [False, True], ids=["no-observations", "observations"])
@pytest.mark.parametrize("name", tw.GAMES)
def test_batched_python_driven_decisions(benchmark, name: str, observations: bool, legal: str) -> None:  # type: ignore[no-untyped-def]
    game = tw.load(name)  # the game's default configuration
    expected = drive_vector(game, VECTOR_STEPS, 3, observations, legal)
    checksum = benchmark(drive_vector, game, VECTOR_STEPS, 3, observations, legal)
    assert checksum == expected
    decisions = VECTOR_GAMES * VECTOR_STEPS
    benchmark.extra_info["decisions"] = decisions
    benchmark.extra_info["decisions_per_second"] = decisions / benchmark.stats.stats.mean


TOURNAMENT_AGENTS = ["random", "greedy"]
TOURNAMENT_DEALS = 500


def tournament_checksum(game: tw.Game) -> str:
    result = tw.tournament(game, TOURNAMENT_AGENTS, TOURNAMENT_DEALS, seed=1, threads=1, bootstrap=0)
    result.ratings()
    return hashlib.sha256(result.scores.tobytes() + result.winners.tobytes()).hexdigest()


def seatings_checksum(game: tw.Game) -> str:
    # The same games as the tournament, played by simulate directly: one run per seating.
    from tradewinds.tournament import seatings

    scores, winners = [], []
    for seating in seatings(len(TOURNAMENT_AGENTS), game.players):
        r = tw.simulate(game, TOURNAMENT_DEALS, seed=1, threads=1, agents=[TOURNAMENT_AGENTS[i] for i in seating])
        scores.append(r.scores)
        winners.append(r.winners)
    return hashlib.sha256(np.stack(scores).tobytes() + np.stack(winners).tobytes()).hexdigest()


@pytest.mark.parametrize("mode", ["tournament", "simulate"])
@pytest.mark.parametrize("name", tw.GAMES)
def test_tournament_overhead(benchmark, name: str, mode: str) -> None:  # type: ignore[no-untyped-def]
    # The tournament's cost over simulate for the same games (every seating of random and
    # greedy, 500 deals, one thread), ratings fitted without the bootstrap: compare the two modes.
    game = tw.load(name)
    run = tournament_checksum if mode == "tournament" else seatings_checksum
    assert tournament_checksum(game) == seatings_checksum(game)
    checksum = benchmark.pedantic(run, args=(game,), rounds=3, iterations=1)
    assert checksum == seatings_checksum(game)
