"""North Wind through the Python API: what is particular to it (the shared tests in `tests/`
cover it with every other game)."""

from __future__ import annotations

import random

import pytest

import tradewinds as tw
from tradewinds._core import options as declared_options
from conftest import CONFIGS, Config, ids, random_action, snapshots

NAME = "north-wind"
NORTH_WIND = [c for c in CONFIGS if c.game == NAME]


def test_north_wind_is_listed_for_two_to_four_players() -> None:
    assert NAME in tw.GAMES
    # Each player count with the unlimited bank (the default) and with gold="limited" (ruling 13).
    assert [(c.players, c.options["gold"]) for c in NORTH_WIND] == [
        (p, gold) for p in (2, 3, 4) for gold in ("unlimited", "limited")
    ]
    game = tw.load(NAME)
    assert game.players == 3  # the default
    assert game.opponents == [] and game.tiers == []


def test_the_gold_option_is_a_declared_configuration_option() -> None:
    (gold,) = [o for o in declared_options(NAME) if o["name"] == "gold"]
    assert gold["default"] == "unlimited" and gold["configuration"] is True
    assert "limited" in str(gold) and "ruling 13" in str(gold)
    assert tw.load(NAME, gold="limited") != tw.load(NAME)
    with pytest.raises(tw.OptionError, match="gold"):
        tw.load(NAME, gold="infinite")
    # The bank as the table shows it.
    assert "| gold unlimited" in str(tw.load(NAME, players=2).new_state(seed=1))
    assert "| gold 80" in str(tw.load(NAME, players=2, gold="limited").new_state(seed=1))


def test_saved_state_format_version() -> None:
    # Raised to 2 with the move bound in saved states, and to 3 with the gold option and goods
    # thrown overboard as part of a purchase; fixtures of every version are kept under
    # tests/fixtures/saved/north-wind/ (the old ones must fail naming their version).
    assert tw.load(NAME).state_format == 3


def test_north_wind_is_zero_sum() -> None:
    # Winner +1, the others -1/(n-1); a truncated game returns zeros.
    for config in NORTH_WIND:
        assert config.load().zero_sum


@pytest.mark.parametrize("config", NORTH_WIND, ids=ids(NORTH_WIND))
def test_observers_see_different_things(config: Config) -> None:
    # Observations are per player: each identifies its observer.
    game = config.load()
    for state in snapshots(game, 3, 10):
        views = {state.observation_string(p) for p in range(game.players)}
        assert len(views) == game.players
        tensors = {state.observation_tensor(p).tobytes() for p in range(game.players)}
        assert len(tensors) == game.players


@pytest.mark.parametrize("config", NORTH_WIND, ids=ids(NORTH_WIND))
def test_setup_example(config: Config) -> None:
    game = config.load()
    good = {"active": 1, "ships": [{"gold": 7}, {"gold": 3}]}
    state = game.setup(good, seed=4)
    assert isinstance(state, tw.State) and not state.is_terminal
    assert game.setup(good, seed=4) == state
    explicit = game.setup(good, seed=4, explicit_chance=True)
    assert explicit.explicit_chance
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(random_action(state, rng))
    with pytest.raises(tw.SetupError, match="active"):
        game.setup({"active": 99})
