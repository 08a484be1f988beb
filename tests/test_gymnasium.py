"""The Gymnasium adapter (`tradewinds.gymnasium`): Gymnasium's environment checker, the
registered ids, and one seat's episode against built-in agents, over every configuration of
every registered game. The listed games are registered with Gymnasium and built through
`tradewinds.gymnasium.env`; an unlisted test game (regatta, with its solo seat) is not, and its
environment is built directly as `TradewindsEnv(game, ...)`.

The vector environment (`TradewindsVectorEnv`, over `tw.VectorGame`) is checked with what of
Gymnasium applies to a `VectorEnv` (`check_env` takes single environments only, and Gymnasium's
package ships no vector-environment tests): the env checker's `data_equivalence` for seeded
determinism, its passive space and observation checks, its returned-data-not-reused check
rewritten for a batch, the next-step autoreset protocol, and Gymnasium's vector wrappers."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import COVER, ONE_CONFIG, Config, ids, illegal_action
from tradewinds._core import REGISTERED, configurations
from tradewinds._core import options as declared_options

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.utils.passive_env_checker import (  # noqa: E402
    check_action_space, check_obs, check_observation_space, data_shares_objects,
)
from gymnasium.vector import AutoresetMode  # noqa: E402

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
    with warnings.catch_warnings():
        # Entries a configuration never uses (the seats it has not, say) are 0 in every
        # observation: their bounds are equal, which the checker points out.
        warnings.filterwarnings("ignore", message=".*Box observation space maximum and minimum values are equal")
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


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
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


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
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


# ----- the vector environment (TradewindsVectorEnv over tw.VectorGame) ------------------------

def make_vector_env(name: str, num_envs: int, **kwargs: Any) -> Any:
    """Seat ... of `num_envs` games of `name` as a vector environment: through `vector_env()`
    (`gymnasium.make_vec`) for a listed game, directly for an unlisted one."""
    if name in tw.GAMES:
        return twg.vector_env(name, num_envs, **kwargs)
    return twg.TradewindsVectorEnv(name, num_envs, **kwargs)


def config_vector_env(config: Config, num_envs: int, **kwargs: Any) -> Any:
    return make_vector_env(config.game, num_envs, **config.options, **kwargs)


def _masked_actions(envs: Any, infos: dict[str, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action per sub-environment (0 where none is legal)."""
    mask = infos["action_mask"].astype(bool)
    return (rng.random(mask.shape) * mask).argmax(axis=1)


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_vector_env_plays_one_seat_per_game_with_next_step_autoreset(config: Config) -> None:
    n = 4
    seat = config.players - 1
    envs = config_vector_env(config, n, seat=seat, opponents="greedy")
    game = config.load()
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    check_observation_space(envs.single_observation_space)
    check_action_space(envs.single_action_space)
    assert envs.single_observation_space.shape == game.observation_tensor_shape
    assert envs.single_action_space.n == game.num_distinct_actions
    assert envs.observation_space.shape == (n, *game.observation_tensor_shape)
    assert list(envs.action_space.nvec) == [game.num_distinct_actions] * n
    observations, infos = envs.reset(seed=5)
    vg = envs.vector_game
    rng = np.random.default_rng(0)
    ended = np.zeros(n, bool)
    episodes = np.zeros(n, int)
    for _ in range(10_000):
        if (episodes >= 1).all():
            break
        for i in range(n):
            check_obs(observations[i], envs.single_observation_space, "step")
            if not ended[i]:
                state = vg.state(i)
                assert state.current_player == seat
                np.testing.assert_array_equal(observations[i], state.observation_tensor(seat))
                assert list(np.flatnonzero(infos["action_mask"][i])) == state.legal_actions()
            else:
                assert not infos["action_mask"][i].any()
        before = vg.episode.copy()
        observations, rewards, terminated, truncated, infos = envs.step(_masked_actions(envs, infos, rng))
        assert rewards.dtype == np.float64 and terminated.dtype == np.bool_ and infos["action_mask"].dtype == np.int8
        # The step after an end starts the next game: no reward, no end.
        assert (vg.episode[ended] == before[ended] + 1).all()
        assert not rewards[ended].any() and not terminated[ended].any() and not truncated[ended].any()
        now = terminated | truncated
        for i in np.flatnonzero(now):
            assert vg.current_player[i] == tw.TERMINAL and vg.state(i).is_terminal
            assert rewards[i] == vg.state(i).returns()[seat]
        assert not rewards[~now].any()
        episodes += now
        ended = now
    assert (episodes >= 1).all()


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_vector_env_seeding_and_steps_are_deterministic(config: Config) -> None:
    def run(seed: int) -> list[Any]:
        envs = config_vector_env(config, 3, opponents="random")
        envs.action_space.seed(1)
        out: list[Any] = [envs.reset(seed=seed)]
        rng = np.random.default_rng(2)
        for _ in range(40):
            out.append(envs.step(_masked_actions(envs, out[-1][-1], rng)))
        return out

    first = run(7)
    assert data_equivalence(first, run(7), exact=True)
    assert not data_equivalence(first, run(8), exact=True)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_vector_env_returns_new_data_unless_asked_not_to(config: Config) -> None:
    # Gymnasium's `check_returned_data_not_reused`, for a vector environment.
    envs = config_vector_env(config, 3)
    rng = np.random.default_rng(0)
    calls = [envs.reset(seed=1)]
    for _ in range(3):
        observations, _, _, _, infos = envs.step(_masked_actions(envs, calls[-1][1], rng))
        calls.append((observations, infos))
    for a in range(len(calls)):
        for b in range(a + 1, len(calls)):
            assert not data_shares_objects(calls[a], calls[b])
    shared = config_vector_env(config, 3, copy=False)
    observations, infos = shared.reset(seed=1)
    assert observations is shared.vector_game.observation_tensor(shared.seat)
    assert shared.step(_masked_actions(shared, infos, rng))[0] is observations


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_vector_env_illegal_actions_lose_or_raise(config: Config) -> None:
    envs = config_vector_env(config, 3)
    observations, infos = envs.reset(seed=0)
    actions = _masked_actions(envs, infos, np.random.default_rng(0))
    state = envs.vector_game.state(1)
    actions[1] = illegal_action(state)
    saved = state.to_json()
    observations, rewards, terminated, truncated, infos = envs.step(actions)
    assert (rewards[1], terminated[1], truncated[1]) == (twg.LOSS_REWARD, True, False)
    assert infos["illegal_action"][1] and not infos["illegal_action"][[0, 2]].any()
    assert not infos["action_mask"][1].any()
    assert envs.vector_game.state(1).to_json() == saved  # that game did not move
    episode = envs.vector_game.episode[1]
    observations, rewards, terminated, truncated, infos = envs.step(_masked_actions(envs, infos, np.random.default_rng(1)))
    assert envs.vector_game.episode[1] == episode + 1 and rewards[1] == 0 and not terminated[1]
    strict = config_vector_env(config, 3, illegal_action="raise")
    _, infos = strict.reset(seed=0)
    actions = _masked_actions(strict, infos, np.random.default_rng(0))
    actions[2] = illegal_action(strict.vector_game.state(2))
    before = [strict.vector_game.state(i).to_json() for i in range(3)]
    with pytest.raises(tw.IllegalActionError, match="game 2"):
        strict.step(actions)
    assert [strict.vector_game.state(i).to_json() for i in range(3)] == before


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_vector_env_runs_under_gymnasiums_vector_wrappers(config: Config) -> None:
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(config_vector_env(config, 4))
    _, infos = envs.reset(seed=3)
    rng = np.random.default_rng(3)
    episodes = []
    for _ in range(5_000):
        _, rewards, terminated, truncated, infos = envs.step(_masked_actions(envs.unwrapped, infos, rng))
        if "episode" in infos:
            done = infos["_episode"]
            assert np.array_equal(done, terminated | truncated)
            assert np.array_equal(infos["episode"]["r"][done], rewards[done])
            episodes.extend(infos["episode"]["l"][done])
        if len(episodes) >= 4:
            break
    assert len(episodes) >= 4 and min(episodes) >= 1
    listed = DictInfoToList(config_vector_env(config, 2))
    _, info_list = listed.reset(seed=0)
    assert len(info_list) == 2 and info_list[0]["action_mask"].shape == (listed.single_action_space.n,)


@pytest.mark.parametrize("name", tw.GAMES)
def test_vector_env_is_made_by_make_vec(name: str) -> None:
    made = gymnasium.make_vec(twg.env_id(name), num_envs=3, **configurations(name)[-1])
    assert isinstance(made, twg.TradewindsVectorEnv) and made.num_envs == 3
    assert made.spec is not None and made.spec.id == twg.env_id(name)
    observations, _ = made.reset(seed=0)
    assert observations.shape == (3, *made.game.observation_tensor_shape)
    made.close()


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_vector_env_bad_arguments_name_what_is_allowed(config: Config) -> None:
    players = config.players
    with pytest.raises(ValueError, match="seat"):
        config_vector_env(config, 2, seat=players)
    with pytest.raises(ValueError, match="opponents"):
        config_vector_env(config, 2, opponents=["random"] * players)
    with pytest.raises(ValueError, match="illegal_action"):
        config_vector_env(config, 2, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        twg.TradewindsVectorEnv(config.game, 2, render_mode="rgb_array", **config.options)
    with pytest.raises(ValueError, match="num_games must be at least 1"):
        twg.TradewindsVectorEnv(config.game, 0, **config.options)
    envs = config_vector_env(config, 2, render_mode="ansi")
    with pytest.raises(RuntimeError, match="reset"):
        envs.step(np.zeros(2, int))
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(3, int))
    with pytest.raises(ValueError, match="reset_mask"):
        envs.reset(options={"reset_mask": np.ones(3, bool)})
    envs.step(np.zeros(2, int))
    episodes = envs.vector_game.episode.copy()
    envs.reset(options={"reset_mask": np.array([False, True])})
    assert list(envs.vector_game.episode) == [episodes[0], episodes[1] + 1]
    frames = envs.render()
    assert isinstance(frames, tuple) and len(frames) == 2 and all(isinstance(f, str) for f in frames)
    with pytest.raises(TypeError, match="game"):
        twg.TradewindsVectorEnv()  # type: ignore[call-arg]


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_the_observation_space_has_finite_bounds_every_observation_keeps(config: Config) -> None:
    # Each entry's bounds are the least and greatest value the game can write there: finite,
    # and every observation of every seat, in random games to the end, lies within them.
    env = config_env(config)
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert (space.low <= space.high).all()
    game = env.game
    seen = 0
    for seed in range(6):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while True:
            for seat in range(game.players):
                observation = state.observation_tensor(seat)
                outside = np.flatnonzero((observation < space.low) | (observation > space.high))
                assert space.contains(observation), (
                    f"seat {seat} at move {state.move_number}: entries {outside[:10].tolist()} "
                    f"= {observation.ravel()[outside[:10]].tolist()} outside "
                    f"{space.low.ravel()[outside[:10]].tolist()}..{space.high.ravel()[outside[:10]].tolist()}"
                )
                seen += 1
            if state.is_terminal:
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    assert seen > 10
