"""The PettingZoo adapter (`tradewinds.pettingzoo`): PettingZoo's own API and seed tests, and
the environment's behaviour, over every configuration of every registered game (the unlisted
test game regatta included: its solo configuration is an environment with a single agent)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import tradewinds as tw
from conftest import COVER, ONE_CONFIG, Config, ids, illegal_action
from tradewinds._core import options as declared_options

pytest.importorskip("pettingzoo")
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

twp = pytest.importorskip("tradewinds.pettingzoo")

#: Enough cycles for PettingZoo's tests to play whole games.
CYCLES = 100_000


def _quietly(check: object, *args: object, **kwargs: object) -> None:
    # PettingZoo's API test warns that dict observations (with "observation" and
    # "action_mask", the layout of its own board-game environments) are not plain arrays.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        # A first observation may be all zeros (regatta: round 0, every boat on the start line).
        warnings.filterwarnings("ignore", message="Observation numpy array is all zeros")
        check(*args, **kwargs)  # type: ignore[operator]


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_pettingzoo_api_test_passes(config: Config) -> None:
    env = twp.env(config.game, **config.options)
    assert isinstance(env, AECEnv)
    _quietly(api_test, env, num_cycles=CYCLES)


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_pettingzoo_seed_test_passes(config: Config) -> None:
    _quietly(seed_test, lambda: twp.env(config.game, **config.options), num_cycles=CYCLES)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_pettingzoo_render_test_passes(config: Config, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode: twp.env(config.game, **config.options, render_mode=render_mode))
    capsys.readouterr()  # what the "human" mode printed
    env = twp.env(config.game, **config.options, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out == str(env.unwrapped.tradewinds_state) + "\n"


def _play(env: AECEnv, seed: int) -> tuple[list[str], dict[str, float], int]:
    """One whole episode with uniformly random legal actions; the agents in the order they
    acted, the final rewards as last() gave them, and the number of decisions."""
    env.reset(seed=seed)
    for p, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed * 100 + p)
    order: list[str] = []
    final: dict[str, float] = {}
    decisions = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        order.append(agent)
        decisions += 1
        env.step(env.action_space(agent).sample(mask))
    return order, final, decisions


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_an_episode_follows_the_game(config: Config) -> None:
    env = twp.env(config.game, **config.options)
    env.reset(seed=3)
    raw = env.unwrapped
    assert env.possible_agents == [f"player_{p}" for p in range(config.players)]
    shape = config.load().observation_tensor_shape
    actions = config.load().num_distinct_actions
    for agent in env.agent_iter():
        state: tw.State = raw.tradewinds_state
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert state.is_terminal
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert state.current_player == seat
        # The observation is the seat's own view; the mask is the legal actions.
        np.testing.assert_array_equal(observation["observation"], state.observation_tensor(seat))
        assert observation["observation"].shape == shape and observation["observation"].dtype == np.float32
        assert observation["action_mask"].shape == (actions,)
        assert list(np.flatnonzero(observation["action_mask"])) == state.legal_actions()
        assert reward == 0.0
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(env.action_space(agent).sample(observation["action_mask"]))
    assert env.agents == []
    state = raw.tradewinds_state
    assert state.is_terminal and not state.is_truncated
    assert state.history()  # chance was resolved inside, from the seed
    text = env.render()
    assert isinstance(text, str) and text == str(state)


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_rewards_are_the_returns(config: Config) -> None:
    env = twp.env(config.game, **config.options)
    for seed in range(8, 12):
        _, final, _ = _play(env, seed=seed)
        state = env.unwrapped.tradewinds_state
        returns = state.returns()
        assert final == {f"player_{p}": returns[p] for p in range(config.players)}
        # A game may end with no winning seat (an opponent that is not a seat won).
        assert all(returns[w] == max(returns) for w in state.winners())


#: One configuration per game that has a turn bound (`max_turns`).
BOUNDED = [c for c in ONE_CONFIG if any(o["name"] == "max_turns" for o in declared_options(c.game))]


@pytest.mark.parametrize("config", BOUNDED, ids=ids(BOUNDED))
def test_truncation_is_the_turn_bound(config: Config) -> None:
    short = twp.env(config.game, **config.options, max_turns=2)
    short.reset(seed=1)
    seen_truncation = set()
    for agent in short.agent_iter():
        observation, reward, termination, truncation, info = short.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0.0
            seen_truncation.add(agent)
            short.step(None)
        else:
            short.step(short.action_space(agent).sample(observation["action_mask"]))
    assert seen_truncation == set(short.possible_agents)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_seeded_episodes_repeat_and_seeds_differ(config: Config) -> None:
    env = twp.env(config.game, **config.options)
    first = _play(env, seed=4)
    again = _play(env, seed=4)
    other = _play(env, seed=5)
    assert first == again
    assert first != other


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_illegal_actions_and_bad_arguments_raise(config: Config) -> None:
    name = config.game
    env = twp.env(name, **config.options)
    env.reset(seed=0)
    illegal = illegal_action(env.unwrapped.tradewinds_state)  # every action of a small space may be legal
    before = env.unwrapped.tradewinds_state.clone()
    with pytest.raises(tw.IllegalActionError):
        env.step(illegal)
    assert env.unwrapped.tradewinds_state == before
    with pytest.raises(ValueError, match="render_mode"):
        twp.env(name, **config.options, render_mode="rgb_array")
    with pytest.raises(ValueError, match="no_such_option"):
        twp.env(name, no_such_option=1)
    quiet = twp.raw_env(name, **config.options, render_mode=None)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
