"""The Gymnasium adapter (`tradewinds.gymnasium`): Gymnasium's environment checker, the
registered ids, and one seat's episode against built-in agents, over every game and player
count."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import GAME_PLAYERS, ONE_PER_GAME, ids

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

twg = pytest.importorskip("tradewinds.gymnasium")


def _check(env: Any) -> None:
    # The observation space is unbounded (a game's tensor fields have no common bound), which
    # the checker points out.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space (minimum|maximum) value is")
        check_env(env)


def _episode(env: Any, seed: int) -> tuple[list[int], float, bool, bool, dict[str, object]]:
    """One episode with uniformly random legal actions: the actions, and the last step's
    reward, flags and info."""
    observation, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    actions: list[int] = []
    while True:
        action = int(env.action_space.sample(info["action_mask"]))
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return actions, reward, terminated, truncated, info


@pytest.mark.parametrize("name,players", GAME_PLAYERS, ids=ids(GAME_PLAYERS))
def test_check_env_passes_for_every_seat(name: str, players: int) -> None:
    for seat in range(players):
        _check(twg.env(name, players=players, seat=seat))
    # (check_env steps with actions drawn without the mask: the default illegal_action="lose"
    # answers those; with "raise" they raise, as asked.)
    _check(twg.env(name, players=players, opponents="greedy"))
    _check(twg.env(name, players=players, render_mode=None))


@pytest.mark.parametrize("name", tw.GAMES)
def test_games_are_registered_with_gymnasium(name: str) -> None:
    assert twg.env_id(name) == f"tradewinds/{name}-v0"
    assert twg.env_id(name) in gymnasium.envs.registry
    made = gymnasium.make(twg.env_id(name), players=max(n for g, n in GAME_PLAYERS if g == name))
    assert isinstance(made.unwrapped, twg.TradewindsEnv)
    assert made.unwrapped.game.name == name
    made.reset(seed=0)
    made.close()
    # The checker's own wrappers, too.
    _check(made.unwrapped)
    with pytest.raises(ValueError):
        twg.env_id("no-such-game")


@pytest.mark.parametrize("name,players", GAME_PLAYERS, ids=ids(GAME_PLAYERS))
def test_an_episode_plays_one_seat_against_built_in_agents(name: str, players: int) -> None:
    seat = players - 1
    env = twg.env(name, players=players, seat=seat, opponents="greedy")
    game = tw.load(name, players=players)
    observation, info = env.reset(seed=12)
    assert env.observation_space.shape == game.observation_tensor_shape
    assert env.action_space.n == game.num_distinct_actions
    steps = 0
    while True:
        state = env.tradewinds_state
        assert state.current_player == seat  # the opponents have moved
        np.testing.assert_array_equal(observation, state.observation_tensor(seat))
        assert observation.dtype == np.float32
        mask = info["action_mask"]
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == state.legal_actions()
        action = int(env.action_space.sample(mask))
        observation, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            break
        assert reward == 0.0
    state = env.tradewinds_state
    assert state.is_terminal and terminated and not truncated
    assert reward == state.returns()[seat]
    assert not info["action_mask"].any()
    assert steps > 10
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert isinstance(env.render(), str) and env.render() == str(state)


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_seeded_episodes_repeat(name: str, players: int) -> None:
    env = twg.env(name, players=players, opponents=["greedy"] + ["random"] * (players - 2))
    first = _episode(env, seed=3)
    assert first[:4] == _episode(env, seed=3)[:4]
    assert first[0] != _episode(env, seed=4)[0]


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_turn_bound_truncates_with_zero_reward(name: str, players: int) -> None:
    env = twg.env(name, players=players, max_turns=2)
    _, reward, terminated, truncated, _ = _episode(env, seed=1)
    assert truncated and not terminated and reward == 0.0
    assert env.tradewinds_state.is_truncated


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_illegal_actions_lose_or_raise(name: str, players: int) -> None:
    env = twg.env(name, players=players)
    observation, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.tradewinds_state.clone()
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (twg.LOSS_REWARD, True, False)
    assert info["illegal_action"] is True and not info["action_mask"].any()
    assert env.tradewinds_state == before  # the game did not move
    strict = twg.env(name, players=players, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(tw.IllegalActionError):
        strict.step(illegal)


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_bad_arguments_name_what_is_allowed(name: str, players: int) -> None:
    with pytest.raises(ValueError, match="seat"):
        twg.env(name, players=players, seat=players)
    with pytest.raises(ValueError, match="opponents"):
        twg.env(name, players=players, opponents=["random"] * players)
    with pytest.raises(ValueError, match="unknown agent"):
        twg.env(name, players=players, opponents="nobody")
    with pytest.raises(ValueError, match="illegal_action"):
        twg.env(name, players=players, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not in the possible render_modes")
        twg.env(name, players=players, render_mode="rgb_array")
    with pytest.raises(ValueError, match="no_such_option"):
        twg.env(name, no_such_option=1)
    with pytest.raises(RuntimeError, match="reset"):
        twg.env(name, players=players).step(0)
