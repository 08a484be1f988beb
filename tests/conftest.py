"""Shared helpers of the Python test suite: every test is generic over `tw.GAMES` and the
player counts each game supports (probed through the public API)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

import tradewinds as tw
from tradewinds._core import configurations
from tradewinds._results import ARRAYS


def supported_player_counts(name: str) -> list[int]:
    return sorted({int(c["players"]) for c in configurations(name)})


SUPPORTED = {name: supported_player_counts(name) for name in tw.GAMES}

#: (game, players) for players 2, 3, 4 where the game supports them.
GAME_PLAYERS: list[tuple[str, int]] = [(name, n) for name in tw.GAMES for n in (2, 3, 4) if n in SUPPORTED[name]]

#: One configuration per game (its smallest supported count among 2..4), for costlier tests.
ONE_PER_GAME: list[tuple[str, int]] = [next(gp for gp in GAME_PLAYERS if gp[0] == name) for name in tw.GAMES]


def ids(params: list[tuple[str, int]]) -> list[str]:
    return [f"{name}-{n}p" for name, n in params]


@pytest.fixture(params=GAME_PLAYERS, ids=ids(GAME_PLAYERS))
def game(request: pytest.FixtureRequest) -> tw.Game:
    name, n = request.param
    return tw.load(name, players=n)


@pytest.fixture(params=ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def one_game(request: pytest.FixtureRequest) -> tw.Game:
    name, n = request.param
    return tw.load(name, players=n)


def random_action(state: tw.State, rng: random.Random) -> int:
    """A uniformly random legal action (at an explicit chance node, an outcome drawn with its
    probability)."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def random_trajectory(game: tw.Game, seed: int, explicit_chance: bool = False) -> Iterator[tw.State]:
    """Yields every state of one random game, from the first to the terminal one (the same
    object, advanced in place)."""
    rng = random.Random(seed)
    state = game.new_state(seed, explicit_chance)
    yield state
    while not state.is_terminal:
        state.apply(random_action(state, rng))
        yield state


def play_to_end(game: tw.Game, seed: int, explicit_chance: bool = False) -> tw.State:
    for state in random_trajectory(game, seed, explicit_chance):
        pass
    return state


def snapshots(game: tw.Game, seed: int, count: int, explicit_chance: bool = False) -> list[tw.State]:
    """Clones of `count` states spread over one random game (first, ..., terminal)."""
    states = [s.clone() for s in random_trajectory(game, seed, explicit_chance)]
    if len(states) <= count:
        return states
    step = (len(states) - 1) / (count - 1)
    return [states[round(i * step)] for i in range(count)]


def assert_same_games(a: tw.SimulationResult, b: tw.SimulationResult) -> None:
    """Two simulation results hold the same games, array by array, bit for bit."""
    assert (a.game, a.players, a.games, a.seed) == (b.game, b.players, b.games, b.seed)
    assert a.categories == b.categories and a.agents == b.agents and a.options == b.options
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name
