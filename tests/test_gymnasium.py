"""The Gymnasium adapter (`tradewinds.gymnasium`): Gymnasium's environment checker, the
registered ids, and one seat's episode against built-in agents, over every configuration of
every registered game. The listed games are registered with Gymnasium and built through
`tradewinds.gymnasium.env`; an unlisted test game (regatta, with its solo seat) is not, and its
environment is built directly as `TradewindsEnv(game, ...)`."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import CONFIGS, ONE_CONFIG, Config, ids, illegal_action
from tradewinds._core import REGISTERED, configurations
from tradewinds._core import options as declared_options

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

twg = pytest.importorskip("tradewinds.gymnasium")


def make_env(name: str, **kwargs: Any) -> Any:
    """One seat of game `name` as an environment: through `env()` (`gymnasium.make`) for a
    listed game, directly for an unlisted one."""
    if name in tw.GAMES:
        return twg.env(name, **kwargs)
    return twg.TradewindsEnv(name, **kwargs)


def config_env(config: Config, **kwargs: Any) -> Any:
    return make_env(config.game, **config.options, **kwargs)


#: One configuration per game that has a turn bound (`max_turns`).
BOUNDED = [c for c in ONE_CONFIG if any(o["name"] == "max_turns" for o in declared_options(c.game))]


def _check(env: Any) -> None:
    # The observation space is unbounded (a game's tensor fields have no common bound), which
    # the checker points out.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space (minimum|maximum) value is")
        # An unlisted game's environment is built directly, without a `gymnasium.make` spec.
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes")
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


@pytest.mark.parametrize("config", CONFIGS, ids=ids(CONFIGS))
def test_check_env_passes_for_every_seat(config: Config) -> None:
    for seat in range(config.players):
        _check(config_env(config, seat=seat))
    # (check_env steps with actions drawn without the mask: the default illegal_action="lose"
    # answers those; with "raise" they raise, as asked.)
    _check(config_env(config, opponents="greedy"))
    _check(config_env(config, render_mode=None))


def test_the_game_is_a_required_argument() -> None:
    with pytest.raises(TypeError, match="game"):
        twg.TradewindsEnv()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="game"):
        twg.env()  # type: ignore[call-arg]


@pytest.mark.parametrize("name", [n for n in REGISTERED if n not in tw.GAMES])
def test_unlisted_games_are_not_registered(name: str) -> None:
    with pytest.raises(tw.OptionError, match="unknown game"):
        twg.env_id(name)
    assert not any(name in env_id for env_id in gymnasium.envs.registry if env_id.startswith("tradewinds/"))


@pytest.mark.parametrize("name", tw.GAMES)
def test_games_are_registered_with_gymnasium(name: str) -> None:
    assert twg.env_id(name) == f"tradewinds/{name}-v0"
    assert twg.env_id(name) in gymnasium.envs.registry
    made = gymnasium.make(twg.env_id(name), **configurations(name)[-1])
    assert isinstance(made.unwrapped, twg.TradewindsEnv)
    assert made.unwrapped.game.name == name
    made.reset(seed=0)
    made.close()
    # The checker's own wrappers, too.
    _check(made.unwrapped)
    with pytest.raises(ValueError):
        twg.env_id("no-such-game")


@pytest.mark.parametrize("config", CONFIGS, ids=ids(CONFIGS))
def test_an_episode_plays_one_seat_against_built_in_agents(config: Config) -> None:
    seat = config.players - 1
    env = config_env(config, seat=seat, opponents="greedy")
    game = config.load()
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
    # The agent made every one of its seat's decisions of the whole game.
    replay = game.new_state(0, explicit_chance=True)
    decisions = 0
    for action in state.history():
        decisions += replay.current_player == seat
        replay.apply(action)
    assert replay.is_terminal and steps == decisions > 0
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert isinstance(env.render(), str) and env.render() == str(state)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_seeded_episodes_repeat(config: Config) -> None:
    env = config_env(config, opponents=(["greedy"] + ["random"] * config.players)[: config.players - 1])
    first = _episode(env, seed=3)
    assert first[:4] == _episode(env, seed=3)[:4]
    assert first[0] != _episode(env, seed=4)[0]


@pytest.mark.parametrize("config", BOUNDED, ids=ids(BOUNDED))
def test_turn_bound_truncates_with_zero_reward(config: Config) -> None:
    env = config_env(config, max_turns=2)
    _, reward, terminated, truncated, _ = _episode(env, seed=1)
    assert truncated and not terminated and reward == 0.0
    assert env.tradewinds_state.is_truncated


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_illegal_actions_lose_or_raise(config: Config) -> None:
    env = config_env(config)
    observation, info = env.reset(seed=0)
    illegal = illegal_action(env.tradewinds_state)  # every action of a small space may be legal
    before = env.tradewinds_state.clone()
    observation, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (twg.LOSS_REWARD, True, False)
    assert info["illegal_action"] is True and not info["action_mask"].any()
    assert env.tradewinds_state == before  # the game did not move
    strict = config_env(config, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(tw.IllegalActionError):
        strict.step(illegal)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_bad_arguments_name_what_is_allowed(config: Config) -> None:
    players = config.players
    with pytest.raises(ValueError, match="seat"):
        config_env(config, seat=players)
    with pytest.raises(ValueError, match="opponents"):
        config_env(config, opponents=["random"] * players)
    if players > 1:
        with pytest.raises(ValueError, match="unknown agent"):
            config_env(config, opponents="nobody")
    with pytest.raises(ValueError, match="illegal_action"):
        config_env(config, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*not in the possible render_modes")
        config_env(config, render_mode="rgb_array")
    with pytest.raises(ValueError, match="no_such_option"):
        make_env(config.game, no_such_option=1)
    with pytest.raises(RuntimeError, match="reset"):
        config_env(config).step(0)
