"""Shared helpers of the Python test suite. Every shared test is generic: it iterates the
registry (`tradewinds._core.REGISTERED`, every game including unlisted test games such as
`regatta`) and each game's configurations (`tradewinds.configurations`; the shared tests take
one per player count and mode, `COVER`), and assumes
nothing about a game's seat count, its first state or its winners. Tests about one game's own
rules, files or fields live under `tests/games/<game>/`."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np
import pytest

import tradewinds as tw
from tradewinds._core import REGISTERED, configurations
from tradewinds._core import options as declared_options
from tradewinds._results import ARRAYS


class Config(NamedTuple):
    """One configuration of a registered game: its name and the options that make it."""

    game: str
    options: dict[str, Any]

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def id(self) -> str:
        return config_id(self.game, self.options)

    def load(self, **more: Any) -> tw.Game:
        return tw.load(self.game, **self.options, **more)


def config_id(name: str, options: dict[str, Any]) -> str:
    """A readable test id: the game, its seats, then each other option that is set (a flag by its
    name): `regatta-1p-pace_boat`, `regatta-2p`."""
    parts = [name]
    if "players" in options:
        parts.append(f"{options['players']}p")
    for key, value in sorted(options.items()):
        if key == "players" or value is False:
            continue
        parts.append(key if value is True else f"{key}={value}")
    return "-".join(parts)


def game_configurations(names: tuple[str, ...] | list[str]) -> list[Config]:
    return [Config(name, dict(options)) for name in names for options in configurations(name)]


#: Every configuration of every registered game (listed or not).
CONFIGS: list[Config] = game_configurations(REGISTERED)

#: Every configuration of the listed games (`tw.GAMES`): for the ecosystem adapters, which
#: register the listed games only.
LISTED_CONFIGS: list[Config] = game_configurations(tw.GAMES)


def cover(configs: list[Config]) -> list[Config]:
    """The configurations the Python suites test: for each game, one configuration per player
    count (the solo and automa modes are player counts), each time the one that brings the
    most option values (board sides, levels, variants) not yet chosen, the first such in the
    game's own order. The Python layer is the same in every configuration; the full product
    of configurations is the native suite's (`tests/conformance.rs`), which runs each once."""
    def values(c: Config) -> set[tuple[str, str]]:
        return {(k, repr(v)) for k, v in c.options.items()}

    chosen: list[Config] = []
    for name in dict.fromkeys(c.game for c in configs):
        mine = [c for c in configs if c.game == name]
        missing = set().union(*(values(c) for c in mine))
        for players in sorted({c.players for c in mine}):
            best = max((c for c in mine if c.players == players), key=lambda c: len(values(c) & missing))
            chosen.append(best)
            missing -= values(best)
    return chosen


#: One configuration per player count and per mode of each registered game (see `cover`).
COVER: list[Config] = cover(CONFIGS)

#: The same for the listed games.
LISTED_COVER: list[Config] = cover(LISTED_CONFIGS)

#: One configuration per registered game, for costlier tests: its first (the fewest seats).
ONE_CONFIG: list[Config] = [next(c for c in CONFIGS if c.game == name) for name in REGISTERED]

#: The seat counts of each registered game's configurations.
SEATS: dict[str, list[int]] = {name: sorted({c.players for c in CONFIGS if c.game == name}) for name in REGISTERED}


def default_options(name: str) -> dict[str, Any]:
    """The declared default of each of game `name`'s options (`tradewinds._core.options`)."""
    return {o["name"]: o["default"] for o in declared_options(name)}


def one_by_players(name: str) -> int:
    """The fewest seats of a configuration of `name` that `players` alone selects (the other
    options at their defaults)."""
    defaults = default_options(name)
    return min(c.players for c in CONFIGS
               if c.game == name and all(v == defaults.get(k) for k, v in c.options.items() if k != "players"))


#: (game, players) for tests that pass a configuration as `players` only: one per registered
#: game, the fewest seats that `players` selects with the other options at their defaults.
ONE_PER_GAME: list[tuple[str, int]] = [(name, one_by_players(name)) for name in REGISTERED]


def ids(params: list[Config] | list[tuple[str, int]]) -> list[str]:
    out = []
    for p in params:
        if isinstance(p, Config):
            out.append(p.id)
        else:
            name, n = p
            out.append(f"{name}-{n}p")
    return out


@pytest.fixture(params=COVER, ids=ids(COVER))
def game(request: pytest.FixtureRequest) -> tw.Game:
    """Each configuration of each registered game that `COVER` chooses."""
    config: Config = request.param
    return config.load()


@pytest.fixture(params=ONE_CONFIG, ids=ids(ONE_CONFIG))
def one_game(request: pytest.FixtureRequest) -> tw.Game:
    """One configuration of each registered game (its first)."""
    config: Config = request.param
    return config.load()


@pytest.fixture(params=LISTED_COVER, ids=ids(LISTED_COVER))
def listed_game(request: pytest.FixtureRequest) -> tw.Game:
    """Each configuration of each listed game that `LISTED_COVER` chooses."""
    config: Config = request.param
    return config.load()


def games_with_data() -> list[str]:
    """The registered games whose component data is an option (`data`: a file they ship)."""
    return [name for name in REGISTERED if any(o["name"] == "data" for o in declared_options(name))]


def other_configuration(game: tw.Game) -> tw.Game | None:
    """Another configuration of the same game, or None if it has only one."""
    for c in CONFIGS:
        if c.game == game.name:
            other = c.load()
            if other != game:
                return other
    return None


def random_action(state: tw.State, rng: random.Random) -> int:
    """A uniformly random legal action (at an explicit chance node, an outcome drawn with its
    probability)."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def illegal_action(state: tw.State) -> int:
    """An action id the state does not allow: a free id of the action space if there is
    one, else the first id past it (every id of a small space may be legal)."""
    space = state.game.max_chance_outcomes if state.is_chance else state.game.num_distinct_actions
    legal = set(state.legal_actions())
    return next(a for a in range(space + 1) if a not in legal)


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


def midgame(game: tw.Game, seed: int, moves: int, explicit_chance: bool = False) -> tw.State:
    """A state some way into a random game: after `moves` uniformly random moves, or the last
    state before the end of a game shorter than that (never a terminal state)."""
    rng = random.Random(seed)
    state = game.new_state(seed, explicit_chance)
    for _ in range(moves):
        following = state.clone()
        following.apply(rng.choice(following.legal_actions()))
        if following.is_terminal:
            break
        state = following
    return state


def first_chance_node(game: tw.Game, seed: int) -> tw.State | None:
    """The first explicit chance node of a random game from `seed` (a game's first state may
    be a decision), or None if that game has none."""
    for state in random_trajectory(game, seed, explicit_chance=True):
        if state.is_chance:
            return state.clone()
    return None


def assert_same_games(a: tw.SimulationResult, b: tw.SimulationResult) -> None:
    """Two simulation results hold the same games, array by array, bit for bit."""
    assert (a.game, a.players, a.games, a.seed) == (b.game, b.players, b.games, b.seed)
    assert a.categories == b.categories and a.agents == b.agents and a.options == b.options
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name


@contextmanager
def unchanged(state: tw.State) -> Iterator[None]:
    """The block must leave `state` exactly as it was (saved JSON and equality)."""
    before = state.to_json()
    twin = state.clone()
    yield
    assert state.to_json() == before
    assert state == twin


def raises(exc: type[BaseException] | tuple[type[BaseException], ...], f: Callable[[], Any], *needles: str) -> BaseException:
    """`f()` raises `exc` whose message contains every needle; returns the exception."""
    with pytest.raises(exc) as info:
        f()
    message = str(info.value)
    for needle in needles:
        assert needle in message, f"{needle!r} not in {message!r}"
    return info.value
