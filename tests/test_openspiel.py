"""The OpenSpiel adapter (`tradewinds.openspiel`): OpenSpiel's own conformance test and bots,
over every configuration of every listed game. (The adapter registers the listed games,
`tw.GAMES`, with OpenSpiel; an unlisted test game is not registered.)"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import CONFIGS, LISTED_COVER, ONE_CONFIG, SEATS, Config, games_with_data, ids
from tradewinds._core import REGISTERED
from tradewinds._core import options as declared_options

pyspiel = pytest.importorskip("pyspiel")
two = pytest.importorskip("tradewinds.openspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")

#: A turn bound that keeps games played by search bots (in Python) short.
SHORT = 8

#: One configuration of each listed game.
LISTED_ONE = [c for c in ONE_CONFIG if c.game in tw.GAMES]


def has_turn_bound(name: str) -> bool:
    """Whether the game has a turn bound option (`max_turns`), which cuts games off as truncated."""
    return any(o["name"] == "max_turns" for o in declared_options(name))


def short(name: str) -> dict[str, Any]:
    """Options that keep a game short, where it has a turn bound."""
    return {"max_turns": SHORT} if has_turn_bound(name) else {}


def _chance(state: Any, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    return int(rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])


def _play_randomly(state: Any, rng: random.Random, check: Any = None) -> Any:
    while not state.is_terminal():
        if check is not None:
            check(state)
        action = _chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
    if check is not None:
        check(state)
    return state


def _steps(state: Any, rng: random.Random) -> int:
    """The number of steps of a random game from ``state``, drawn as the tests' loops draw."""
    steps = 0
    while not state.is_terminal():
        state.apply_action(_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        steps += 1
    return steps


def test_player_ids_are_openspiels() -> None:
    # One set of ids on both sides, so a tradewinds state's current_player means the same to
    # OpenSpiel code (-2 is OpenSpiel's simultaneous node, which no tradewinds game has).
    assert tw.TERMINAL == int(pyspiel.PlayerId.TERMINAL) == -4
    assert tw.CHANCE == int(pyspiel.PlayerId.CHANCE) == -1
    assert tw.TERMINAL != int(pyspiel.PlayerId.SIMULTANEOUS)


def _check_against_wrapped(state: Any) -> None:
    """Everything OpenSpiel sees is what the wrapped tradewinds state says."""
    inner: tw.State = state.tradewinds_state
    assert state.history() == inner.history()
    assert state.move_number() == inner.move_number
    assert state.is_terminal() == inner.is_terminal
    assert state.is_chance_node() == inner.is_chance
    if inner.is_terminal:
        assert state.current_player() == pyspiel.PlayerId.TERMINAL == inner.current_player
        assert state.returns() == inner.returns()
    elif inner.is_chance:
        assert state.current_player() == pyspiel.PlayerId.CHANCE
        assert state.chance_outcomes() == inner.chance_outcomes()
        assert state.legal_actions() == [a for a, _ in inner.chance_outcomes()]
    else:
        assert state.current_player() == inner.current_player
        assert state.legal_actions() == inner.legal_actions()
        assert state.legal_actions_mask() == [int(m) for m in inner.legal_action_mask()]
        assert all(state.returns()[p] == 0.0 for p in range(state.num_players()))
    for p in range(state.num_players()):
        view = inner.observation_string(p)
        assert state.information_state_string(p) == view
        assert state.observation_string(p) == view
        tensor = inner.observation_tensor(p).reshape(-1)
        np.testing.assert_array_equal(np.asarray(state.information_state_tensor(p), np.float32), tensor)
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32), tensor)


# ---- registration and game facts ------------------------------------------------------------


@pytest.mark.parametrize("name", tw.GAMES)
def test_every_game_is_registered_with_its_type(name: str) -> None:
    short = two.short_name(name)
    assert short in pyspiel.registered_names()
    game_type = pyspiel.load_game(short).get_type()
    assert game_type.short_name == short
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    # Zero-sum only when every configuration is (Norsewind's solo game is not).
    zero_sum = all(tw.load(name, **c.options).zero_sum for c in CONFIGS if c.game == name)
    expected_utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    assert game_type.utility == expected_utility
    assert game_type.min_num_players == min(SEATS[name])
    assert game_type.max_num_players == max(SEATS[name])
    assert game_type.provides_information_state_string and game_type.provides_information_state_tensor
    assert game_type.provides_observation_string and game_type.provides_observation_tensor
    spec = game_type.parameter_specification
    assert spec["players"] == tw.load(name).players
    for key, value in tw.load(name).options.items():
        assert spec[key] == value


@pytest.mark.parametrize("name", [n for n in REGISTERED if n not in tw.GAMES])
def test_unlisted_games_are_not_registered(name: str) -> None:
    with pytest.raises(tw.OptionError, match="unknown game"):
        two.short_name(name)
    assert "tradewinds_" + name.replace("-", "_") not in pyspiel.registered_names()


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_game_info_matches_the_tradewinds_game(config: Config) -> None:
    name, players = config.game, config.players
    game = two.load(name, **config.options)
    tw_game = config.load()
    assert game.num_players() == players
    assert game.num_distinct_actions() == tw_game.num_distinct_actions
    assert game.max_chance_outcomes() == tw_game.max_chance_outcomes
    assert game.max_game_length() == tw_game.max_game_length
    assert game.information_state_tensor_shape() == list(tw_game.observation_tensor_shape)
    assert game.observation_tensor_shape() == list(tw_game.observation_tensor_shape)
    assert (game.min_utility(), game.max_utility()) == (tw_game.min_return, tw_game.max_return)
    # OpenSpiel gives a utility sum only to games of a zero-sum type (every configuration).
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert tw_game.zero_sum and game.utility_sum() == 0.0
    # The same game through OpenSpiel's game strings.
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.num_players() == players
    parameters = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in config.options.items())
    assert pyspiel.load_game(f"{two.short_name(name)}({parameters})").num_players() == players


@pytest.mark.parametrize("name", tw.GAMES)
def test_options_are_checked_and_passed_on(name: str) -> None:
    with pytest.raises(ValueError, match="no_such_option"):
        two.load(name, no_such_option=1)
    with pytest.raises(ValueError, match="players"):
        two.load(name, players=99)
    if name in games_with_data():
        with pytest.raises(TypeError, match="path"):
            two.load(name, data={"not": "a path"})
    with pytest.raises(ValueError):
        two.short_name("no-such-game")
    if name not in games_with_data():
        return
    path = tw.data_path(name)
    game = two.load(name, data=path, **short(name))
    if has_turn_bound(name):
        assert game.tradewinds_game.options["max_turns"] == SHORT
    assert str(path) in str(game)
    # A game with a data file survives OpenSpiel's serialization too.
    state = game.new_initial_state()
    _play_randomly(state, random.Random(0))
    again, state_again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(game) and str(state_again) == str(state)


def test_the_interpreter_exits_cleanly_after_using_the_games() -> None:
    # OpenSpiel's registry outlives the interpreter: what it holds must survive shutdown.
    program = (
        "import pyspiel, tradewinds.openspiel as two\n"
        "game = two.load(tw_name)\n"
        "state = game.new_initial_state()\n"
        "state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])\n"
        "clone = pyspiel.load_game(str(game)).new_initial_state().clone()\n"
        "print('done')\n"
    )
    for name in tw.GAMES:
        r = subprocess.run(
            [sys.executable, "-c", f"tw_name = {name!r}\n" + program], capture_output=True, text=True, timeout=120
        )
        assert r.returncode == 0 and r.stdout.strip() == "done", r.stdout + r.stderr


# ---- OpenSpiel's conformance test -------------------------------------------------------------


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_random_sim_test_passes(config: Config) -> None:
    # Full games (to a winner), with clone, serialization, mask, observation and utility checks;
    # each state is also compared with the wrapped tradewinds state.
    terminals: list[bool] = []

    def checker(state: Any) -> None:
        _check_against_wrapped(state)
        if state.is_terminal():
            terminals.append(state.tradewinds_state.is_truncated)

    game = two.load(config.game, **config.options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False, state_checker_fn=checker)
    assert terminals == [False]
    if has_turn_bound(config.game):
        # Games cut off at the turn bound: terminal with zero returns.
        cut = two.load(config.game, **config.options, max_turns=2)
        pyspiel.random_sim_test(cut, num_sims=2, serialize=True, verbose=False, state_checker_fn=checker)
        assert terminals[1:] == [True, True]


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_truncated_games_return_zeros_and_won_games_sum_to_zero(config: Config) -> None:
    name, players = config.game, config.players
    rng = random.Random(players)
    if has_turn_bound(name):
        state = _play_randomly(two.load(name, **config.options, max_turns=2).new_initial_state(), rng)
        assert state.tradewinds_state.is_truncated and state.returns() == [0.0] * players
    state = _play_randomly(two.load(name, **config.options).new_initial_state(), rng)
    inner = state.tradewinds_state
    assert not inner.is_truncated
    returns = state.returns()
    assert returns == inner.returns()
    # (A game may end with no winning seat: an opponent that is not a seat won.)
    assert all(returns[w] == max(returns) for w in inner.winners())
    if config.load().zero_sum:
        assert sum(returns) == pytest.approx(0.0)


@pytest.mark.parametrize("config", LISTED_ONE, ids=ids(LISTED_ONE))
def test_clone_serialize_and_pickle_keep_the_state(config: Config) -> None:
    game = two.load(config.game, **config.options)
    state = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(200):  # some way into the game (not to its end)
        following = state.clone()
        following.apply_action(_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        if following.is_terminal():
            break
        state = following
    moves = len(state.history())
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.tradewinds_state == state.tradewinds_state
    copy.apply_action(_chance(copy, rng) if copy.is_chance_node() else copy.legal_actions()[0])
    assert len(state.history()) == moves  # the original is untouched
    restored = game.deserialize_state(state.serialize())
    assert restored.history() == state.history() and restored.tradewinds_state == state.tradewinds_state
    _check_against_wrapped(restored)
    assert pickle.loads(pickle.dumps(state.tradewinds_state)) == state.tradewinds_state


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_resample_from_infostate_keeps_the_information_state(config: Config) -> None:
    players = config.players
    game = two.load(config.game, **config.options)
    rng = random.Random(11)
    # About eight checkpoints in the game, whatever its length: the same game played once
    # first gives its number of steps.
    stride = max(1, _steps(game.new_initial_state(), random.Random(11)) // 8)
    state = game.new_initial_state()
    checked = 0
    changed = 0
    hides = 0  # how often a seat's information state lacked a line of the whole table
    step = 0
    while not state.is_terminal():
        if step % stride == 0:
            for p in range(players):
                draw = random.Random(step * 10 + p).random
                resampled = state.resample_from_infostate(p, draw)
                assert isinstance(resampled, two.TradewindsState)
                assert resampled.information_state_string(p) == state.information_state_string(p)
                np.testing.assert_array_equal(resampled.information_state_tensor(p), state.information_state_tensor(p))
                assert resampled.current_player() == state.current_player()
                if state.current_player() == p:
                    assert resampled.legal_actions() == state.legal_actions()
                # The same draws give the same state.
                again = state.resample_from_infostate(p, random.Random(step * 10 + p).random)
                assert again.tradewinds_state == resampled.tradewinds_state
                changed += str(resampled) != str(state)
                hides += not set(str(state).splitlines()) <= set(state.information_state_string(p).splitlines())
                checked += 1
                # A resampled state is a state of the game: it plays on to the end.
                _play_randomly(resampled.clone(), random.Random(step + p))
        state.apply_action(_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        step += 1
    assert checked > players
    if hides:
        assert changed > 0, "resampling never changed a hidden card"
    else:
        # Nothing hidden from any seat (Nauticus; Before the Wind with two players and the
        # limited bank, where the other purse is what the open bank lacks): the only
        # consistent state is the state itself.
        assert changed == 0, "resampling changed a game that hides nothing"


# ---- OpenSpiel's bots ---------------------------------------------------------------------------


@pytest.mark.parametrize("config", LISTED_ONE, ids=ids(LISTED_ONE))
def test_openspiel_mcts_bot_plays_a_full_game(config: Config) -> None:
    players = config.players
    game = two.load(config.game, **config.options, **short(config.game))
    np_rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=np_rng)
        for _ in range(players)
    ]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np_rng)
    assert state.is_terminal()
    assert list(returns) == state.tradewinds_state.returns()
    if has_turn_bound(config.game):
        assert state.move_number() > 2 * SHORT


@pytest.mark.parametrize("config", LISTED_ONE, ids=ids(LISTED_ONE))
def test_openspiel_ismcts_bot_plays_a_full_game(config: Config) -> None:
    # OpenSpiel's IS-MCTS searches over worlds drawn by resample_from_infostate, and checks
    # that each one has the searching player's information state.
    players = config.players
    game = two.load(config.game, **config.options, **short(config.game))
    np_rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np_rng) for _ in range(players)]
    state = game.new_initial_state()
    rng = random.Random(1)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    assert decisions > (SHORT if has_turn_bound(config.game) else 0)
    assert state.returns() == state.tradewinds_state.returns()
