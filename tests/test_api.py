"""The Python API, exercised generically over every registered game and each of its
configurations (`tradewinds._core.REGISTERED`, `tradewinds.configurations`)."""

from __future__ import annotations

import copy
import json
import math
import random
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tradewinds as tw
from conftest import (
    SEATS, games_with_data, other_configuration, play_to_end, random_action, random_trajectory, snapshots,
)
from tradewinds import configurations
from tradewinds._core import REGISTERED
from tradewinds._core import options as declared_options

PUBLIC_API = {
    "GAMES", "CHANCE", "TERMINAL", "load", "simulate", "IllegalActionError", "StateFormatError",
    "DataFileError", "SetupError", "OptionError", "TradewindsError", "Game", "State", "ScoreReport",
    "SimulationResult", "Metrics", "data_text", "data_path", "AGENT_NAMES", "Agent", "AgentFunction", "VectorGame", "VectorStep",
    "RunDirectoryError", "ChunkError", "RunWriteError", "StrayFileWarning",
    "replay", "record_html", "RecordError", "configurations", "tournament", "TournamentResult",
    "sweep", "grid", "SweepResult", "optimise", "OptimisationResult", "objectives",
}


# ---- module surface -------------------------------------------------------------------------


def test_public_api_is_exported() -> None:
    assert set(tw.__all__) == PUBLIC_API
    for name in PUBLIC_API:
        assert hasattr(tw, name), name


def test_constants() -> None:
    # OpenSpiel's player ids: chance -1, terminal -4 (-2 is OpenSpiel's simultaneous node).
    assert tw.CHANCE == -1
    assert tw.TERMINAL == -4
    assert isinstance(tw.GAMES, tuple) and tw.GAMES
    assert all(isinstance(g, str) for g in tw.GAMES)
    # Every listed game is registered; a registered game may be unlisted (a test game).
    assert isinstance(REGISTERED, tuple) and set(tw.GAMES) <= set(REGISTERED)
    assert len(set(REGISTERED)) == len(REGISTERED)
    # Saved-state format versions are per game (`Game.state_format`), not one for the package.
    assert not hasattr(tw, "STATE_FORMAT_VERSION")


def test_exception_hierarchy() -> None:
    assert issubclass(tw.TradewindsError, ValueError)
    for cls in (tw.IllegalActionError, tw.StateFormatError, tw.DataFileError, tw.SetupError, tw.OptionError,
                tw.RunDirectoryError, tw.ChunkError, tw.RunWriteError):
        assert issubclass(cls, tw.TradewindsError)
        assert cls.__module__ == "tradewinds"
    # A run directory's damaged chunk is a run-directory error; a failed write is an OSError too.
    assert issubclass(tw.ChunkError, tw.RunDirectoryError) and issubclass(tw.RunWriteError, OSError)


@pytest.mark.parametrize("detach", [False, True], ids=["with-gil", "without-gil"])
def test_a_rust_panic_reaches_python_as_runtime_error(detach: bool) -> None:
    from tradewinds._core import _check_panic_guard

    with pytest.raises(RuntimeError, match="internal error in tradewinds: boom 42") as info:
        _check_panic_guard("boom 42", detach)
    assert type(info.value) is RuntimeError  # not pyo3's PanicException (a BaseException)


@pytest.mark.parametrize("name", REGISTERED)
def test_every_game_lists_configurations_of_one_to_five_seats(name: str) -> None:
    listed = configurations(name)
    assert listed, f"{name} has no configuration"
    assert all(1 <= n <= 5 for n in SEATS[name]), SEATS[name]
    declared = {o["name"] for o in declared_options(name) if o["configuration"]}
    for options in listed:
        assert set(options) == declared, options
        game = tw.load(name, **options)
        assert {k: game.options[k] for k in options} == options
    # Each configuration once.
    assert len({json.dumps(o, sort_keys=True) for o in listed}) == len(listed)


@pytest.mark.parametrize("name", REGISTERED)
def test_declared_options(name: str) -> None:
    declared = declared_options(name)
    assert [o["name"] for o in declared if o["name"] == "players"] == ["players"]
    for o in declared:
        assert set(o) == {"name", "allowed", "default", "configuration", "doc"}, o
        assert isinstance(o["allowed"], str) and o["allowed"] and isinstance(o["doc"], str) and o["doc"]
    game = tw.load(name)
    for o in declared:
        if o["default"] is not None:
            assert game.options[o["name"]] == o["default"], o


# ---- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", REGISTERED)
def test_invalid_player_count_names_the_allowed_counts(name: str) -> None:
    allowed = SEATS[name]
    (players,) = [o for o in declared_options(name) if o["name"] == "players"]
    for bad in (0, 6, 7, max(allowed) + 1, -1):
        if bad in allowed:
            continue
        with pytest.raises(ValueError) as info:
            tw.load(name, players=bad)
        message = str(info.value)
        assert "players" in message and str(bad) in message
        # What is allowed, as `tradewinds._core.options` declares it.
        assert players["allowed"] in message, message
        assert str(min(allowed)) in message and str(max(allowed)) in message
        assert isinstance(info.value, tw.OptionError)


@pytest.mark.parametrize("name", REGISTERED)
def test_unknown_option_names_the_allowed_options(name: str) -> None:
    with pytest.raises(tw.OptionError) as info:
        tw.load(name, no_such_option=1)
    message = str(info.value)
    assert "no_such_option" in message
    for o in declared_options(name):  # the allowed options are listed, each with what it allows
        assert o["name"] in message and o["allowed"] in message, (o, message)


@pytest.mark.parametrize("name", REGISTERED)
def test_option_values_out_of_range_name_what_is_allowed(name: str) -> None:
    # Whatever the option's kind (range, choice, flag, data file), these values are not of it.
    for o in declared_options(name):
        for bad in (-1, 10**9, [1], 2.5):
            with pytest.raises(tw.OptionError) as info:
                tw.load(name, **{o["name"]: bad})
            message = str(info.value)
            assert o["name"] in message and o["allowed"] in message and o["doc"] in message, (o, message)


@pytest.mark.parametrize("name", REGISTERED)
def test_option_of_wrong_type(name: str) -> None:
    with pytest.raises(ValueError, match="players"):
        tw.load(name, players="three")
    with pytest.raises(TypeError, match="players"):
        tw.load(name, players=object())


def test_unknown_game_names_the_available_games() -> None:
    for call in (tw.load, tw.configurations):
        with pytest.raises(tw.OptionError) as info:
            call("no-such-game")
        for name in tw.GAMES:
            assert name in str(info.value)


def test_configurations_are_public_and_name_each_mode() -> None:
    # The configurations a user reaches without the private module: every player count, and
    # each mode, level and board side, as the options `tw.load` takes.
    assert tw.configurations is configurations
    assert {c["players"] for c in tw.configurations("north-wind")} == {2, 3, 4}
    norsewind = tw.configurations("norsewind")
    assert {c["level"] for c in norsewind if c["players"] == 1} == set(range(1, 8))
    mistwind = tw.configurations("mistwind")
    assert {(c["resource_board"], c["worker_board"]) for c in mistwind} == {
        (r, w) for r in "AB" for w in "AB"
    }
    assert {c["difficulty"] for c in mistwind if c["players"] == 1} == {"easy", "medium", "hard"}


# ---- the Game object ------------------------------------------------------------------------


def test_game_properties(game: tw.Game) -> None:
    assert game.name in REGISTERED
    assert isinstance(game.players, int) and 1 <= game.players <= 5
    assert game.options["players"] == game.players
    assert isinstance(game.opponents, list) and all(isinstance(o, str) and o for o in game.opponents)
    assert isinstance(game.tiers, list) and all(isinstance(t, str) and t for t in game.tiers)
    assert len(set(game.tiers)) == len(game.tiers)
    assert isinstance(game.state_format, int) and game.state_format >= 1
    assert game.min_return <= 0 <= game.max_return and game.min_return < game.max_return
    if game.opponents or game.players == 1:
        assert not game.zero_sum, "returns that need not add up to zero"
    assert "game" not in game.options
    assert game.num_distinct_actions > 0
    assert game.max_chance_outcomes > 0
    assert game.max_game_length > 0
    shape = game.observation_tensor_shape
    assert isinstance(shape, tuple) and shape and all(isinstance(d, int) and d > 0 for d in shape)
    config = json.loads(game.config_json())
    assert config["game"] == game.name and config["players"] == game.players
    assert game.name in repr(game) and f"players={game.players}" in repr(game)


def test_observation_fields_tile_the_tensor(game: tw.Game) -> None:
    """`Game.observation_fields()` lists the tensor's fields in order, named once each, each
    starting where the one before ends, together filling the tensor (that the names are the
    rows of the game's docs table is the native suite's check)."""
    fields = game.observation_fields()
    assert fields and [f[1] for f in fields] == [0, *np.cumsum([f[2] for f in fields])[:-1].tolist()]
    assert sum(f[2] for f in fields) == math.prod(game.observation_tensor_shape)
    assert all(size > 0 for _, _, size in fields) and len({f[0] for f in fields}) == len(fields)
    state = game.new_state(1)
    tensor = state.observation_tensor(0)
    low, high = game.observation_bounds()
    for name, start, size in fields:
        assert isinstance(name, str) and name
        assert np.all(low[start:start + size] <= tensor[start:start + size])
        assert np.all(tensor[start:start + size] <= high[start:start + size])


def test_game_equality_and_hash(game: tw.Game) -> None:
    same = tw.load(game.name, **game.options)
    assert same == game and hash(same) == hash(game)
    assert len({game, same}) == 1
    other = other_configuration(game)
    if other is not None:
        assert other != game and hash(other) != hash(game)
    assert game != "not a game"


def test_state_knows_its_game(game: tw.Game) -> None:
    state = game.new_state(3)
    assert state.game == game
    assert isinstance(state.game, tw.Game)


# ---- random play through the Python API --------------------------------------------------------


def check_state(game: tw.Game, state: tw.State) -> None:
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
    mask = state.legal_action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (game.num_distinct_actions,)
    player = state.current_player
    if state.is_terminal:
        assert player == tw.TERMINAL
        assert legal == []
        assert not mask.any()
        assert state.chance_outcomes() == []
    elif state.is_chance:
        assert player == tw.CHANCE
        assert state.explicit_chance
        assert legal and all(0 <= a < game.max_chance_outcomes for a in legal)
        assert not mask.any()
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert all(p > 0 for _, p in outcomes)
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
    else:
        assert 0 <= player < game.players
        assert legal and all(0 <= a < game.num_distinct_actions for a in legal)
        assert np.flatnonzero(mask).tolist() == legal
        assert state.chance_outcomes() == []
        names = [state.action_to_string(a) for a in legal]
        assert len(set(names)) == len(names), "action strings must be unique among legal actions"
        for a, text in zip(legal, names):
            assert state.string_to_action(text) == a
        # The acting seat sees its own move as it is; a secret decision looks the same to every
        # other seat, whatever is chosen.
        assert [state.action_to_string(a, observer=player) for a in legal] == names
        for q in range(game.players):
            shown = {state.action_to_string(a, observer=q) for a in legal}
            if q != player and state.decision_is_secret:
                assert len(shown) == 1, f"P{q} can tell P{player}'s secret choices apart: {shown}"
    assert state.move_number == len(state.history())
    assert state.move_number <= game.max_game_length


def check_illegal_actions_leave_state_unchanged(game: tw.Game, state: tw.State) -> None:
    before = state.to_json()
    legal = set(state.legal_actions())
    space = game.max_chance_outcomes if state.is_chance else game.num_distinct_actions
    candidates = [a for a in range(space) if a not in legal][:3]
    candidates += [space, space + 17, 2**32 - 1, 2**32, 2**70, -1]
    for a in candidates:
        with pytest.raises(tw.IllegalActionError):
            state.apply(a)
        assert state.to_json() == before
    with pytest.raises(tw.IllegalActionError):
        state.apply("this is no action of any game")
    assert state.to_json() == before
    for bad in (1.0, None, True, [0]):
        with pytest.raises(TypeError):
            state.apply(bad)  # type: ignore[arg-type]
    assert state.to_json() == before


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["implicit-chance", "explicit-chance"])
def test_random_play_invariants(game: tw.Game, explicit_chance: bool) -> None:
    for g in range(3):
        seed = 1000 * game.players + g
        rng = random.Random(seed)
        state = game.new_state(seed, explicit_chance)
        assert state.explicit_chance == explicit_chance
        step = 0
        while True:
            check_state(game, state)
            if step % 17 == 0:
                check_illegal_actions_leave_state_unchanged(game, state)
            if state.is_terminal:
                break
            if not explicit_chance:
                assert not state.is_chance
            action = random_action(state, rng)
            history = state.history()
            moves = state.move_number
            if step % 5 == 1 and not state.is_chance:
                # Apply by name; it must do exactly what applying the id does.
                twin = state.clone()
                twin.apply(action)
                state.apply(state.action_to_string(action))
                assert state == twin
            else:
                state.apply(action)
            assert state.history()[: len(history) + 1] == history + [action]
            assert state.move_number >= moves + 1
            step += 1
        check_terminal(game, state)


def check_terminal(game: tw.Game, state: tw.State) -> None:
    """The end of a game, as the contract has it: a game may end with no winning seat (a lost
    solo game, an opponent that is not a seat winning), and a single seat's return is +1 or -1."""
    assert state.is_terminal and state.current_player == tw.TERMINAL
    scores = state.scores()
    returns = state.returns()
    winners = state.winners()
    assert len(scores) == len(returns) == game.players
    assert winners == sorted(set(winners)) and all(0 <= w < game.players for w in winners)
    assert all(game.min_return <= r <= game.max_return for r in returns)
    report = state.score_report()
    if state.is_truncated:
        assert state.move_number <= game.max_game_length
        assert returns == [0.0] * game.players and not report.opponent_winners and report.tier is None
    else:
        # Returns are not all zero unless every seat of several shared the win; every winner
        # has the highest return.
        if all(r == 0 for r in returns):
            assert game.players > 1 and winners == list(range(game.players)), (winners, returns)
        assert all(returns[w] == max(returns) for w in winners)
        if game.players == 1:
            assert returns == ([1.0] if winners else [-1.0])
    assert report.terminal
    assert report.truncated == state.is_truncated
    assert report.winners == winners
    assert len(report.points) == len(report.totals) == game.players
    for row, total, score in zip(report.points, report.totals, scores):
        assert len(row) == len(report.categories)
        assert math.isclose(sum(row), total, abs_tol=1e-9)
        assert math.isclose(total, score, abs_tol=1e-9), "the report breaks down the score"
    # Opponents that are not seats: a row each, and they may win; who or what won, by name.
    assert [name for name, _, _ in report.opponents] == game.opponents
    for _, points, total in report.opponents:
        assert len(points) == len(report.categories) and math.isclose(sum(points), total, abs_tol=1e-9)
    assert report.opponent_winners == sorted(set(report.opponent_winners))
    assert all(0 <= o < len(game.opponents) for o in report.opponent_winners)
    assert report.winner_names == [f"P{w}" for w in winners] + [game.opponents[o] for o in report.opponent_winners]
    assert report.tier is None or report.tier in game.tiers
    with pytest.raises(tw.IllegalActionError, match="over"):
        state.apply(0)


def test_returns_are_zero_before_the_end(game: tw.Game) -> None:
    state = game.new_state(5)
    assert state.returns() == [0.0] * game.players
    assert state.winners() == []
    assert not state.score_report().terminal


def test_clone_is_independent(game: tw.Game) -> None:
    rng = random.Random(9)
    state = snapshots(game, 9, 3)[1]  # some way into a game (a short game may end in a few moves)
    assert not state.is_terminal
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert twin == state and twin is not state
        before = state.to_json()
        twin.apply(random_action(twin, rng))
        assert state.to_json() == before
        assert twin != state


def test_same_seed_and_actions_give_the_same_state(game: tw.Game) -> None:
    # A random game from seed 77: its decisions, and the state after each.
    rng = random.Random(77)
    state = game.new_state(77)
    decisions: list[int] = []
    states = [state.to_json()]
    while not state.is_terminal:
        action = random_action(state, rng)
        state.apply(action)
        decisions.append(action)
        states.append(state.to_json())
    # The seed alone fixes the chance outcomes: the same decisions, applied in turn to two
    # fresh states of the same seed (so that a generator they shared would show), go
    # through the same states.
    replay, twin = game.new_state(77), game.new_state(77)
    assert replay.to_json() == states[0]
    for i, action in enumerate(decisions):
        replay.apply(action)
        twin.apply(action)
        assert replay.to_json() == states[i + 1], f"after decision {i}"
        assert twin == replay
    # Another seed, another generator.
    assert game.new_state(78) != game.new_state(77)
    assert game.new_state(78).to_json() != states[0]


# ---- seeds ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 2**64, -(2**70), 2**100])
def test_seeds_out_of_range_raise_value_error(one_game: tw.Game, bad: int) -> None:
    with pytest.raises(ValueError, match=re.escape("[0, 2**64 - 1]")):
        one_game.new_state(bad)
    state = one_game.new_state(0)
    with pytest.raises(ValueError, match=re.escape("[0, 2**64 - 1]")):
        state.resample(0, bad)
    with pytest.raises(ValueError, match=re.escape("[0, 2**64 - 1]")):
        one_game.simulate(1, bad)
    with pytest.raises(ValueError, match=re.escape("[0, 2**64 - 1]")):
        tw.simulate(one_game, 1, seed=bad)


def test_extreme_valid_seeds(one_game: tw.Game) -> None:
    for seed in (0, 1, 2**63, 2**64 - 1):
        assert one_game.new_state(seed).current_player != tw.CHANCE
    with pytest.raises(TypeError):
        one_game.new_state(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        one_game.new_state("1")  # type: ignore[arg-type]


# ---- observations and resampling ------------------------------------------------------------


def test_observations(game: tw.Game) -> None:
    for state in snapshots(game, 31, 6):
        for p in range(game.players):
            text = state.observation_string(p)
            assert isinstance(text, str) and text
            tensor = state.observation_tensor(p)
            assert isinstance(tensor, np.ndarray)
            assert tensor.dtype == np.float32
            assert tensor.shape == game.observation_tensor_shape
            assert np.isfinite(tensor).all()
        for bad in (-1, game.players, 2**40):
            with pytest.raises(ValueError, match="out of range"):
                state.observation_string(bad)
            with pytest.raises(ValueError, match="out of range"):
                state.observation_tensor(bad)
            with pytest.raises(ValueError, match="out of range"):
                state.resample(bad, 1)


def test_resample_keeps_the_players_view(game: tw.Game) -> None:
    for i, state in enumerate(snapshots(game, 41, 6)):
        before = state.to_json()
        for p in range(game.players):
            view = state.observation_string(p)
            tensor = state.observation_tensor(p)
            for seed in (i, i + 100):
                other = state.resample(p, seed)
                assert isinstance(other, tw.State)
                assert other.game == game
                assert other.observation_string(p) == view
                assert np.array_equal(other.observation_tensor(p), tensor)
                assert other.current_player == state.current_player
                assert other.move_number == state.move_number
            assert state.resample(p, 5) == state.resample(p, 5)
        assert state.to_json() == before, "resampling must not change the state"


def test_resampled_state_plays_on(game: tw.Game) -> None:
    state = snapshots(game, 43, 3)[1]
    if state.is_terminal:
        pytest.skip("the game ended at once")
    other = state.resample(max(state.current_player, 0), 3)
    rng = random.Random(3)
    while not other.is_terminal:
        other.apply(random_action(other, rng))
    assert len(other.scores()) == game.players


# ---- score reports and text --------------------------------------------------------------------


def test_score_report(game: tw.Game) -> None:
    state = play_to_end(game, 55)
    report = state.score_report()
    assert isinstance(report, tw.ScoreReport)
    d = report.to_dict()
    assert set(d) == {
        "categories", "points", "totals", "tie_breakers", "tie_breaker_values", "winners",
        "opponents", "opponent_winners", "tier", "terminal", "truncated", "notes",
    }
    assert d["categories"] == report.categories and d["points"] == report.points
    assert d["totals"] == report.totals and d["winners"] == report.winners
    assert [tuple(row) for row in d["opponents"]] == [tuple(row) for row in report.opponents]
    assert d["opponent_winners"] == report.opponent_winners and d["tier"] == report.tier
    assert d["tie_breakers"] == report.tie_breakers
    assert d["tie_breaker_values"] == report.tie_breaker_values
    assert d["terminal"] is True and d["truncated"] == report.truncated and d["notes"] == report.notes
    assert all(len(v) == len(report.tie_breakers) for v in report.tie_breaker_values)
    json.dumps(d)  # plain data only
    assert str(report) == report.to_table()
    for category in report.categories:
        assert category in str(report)
    for name, _, _ in report.opponents:
        assert name in str(report)
    assert "ScoreReport" in repr(report)
    assert report == state.score_report()
    with pytest.raises(TypeError):
        hash(report)


def test_render_and_repr(game: tw.Game) -> None:
    state = game.new_state(8)
    assert isinstance(str(state), str) and str(state)
    assert game.name in repr(state) and "players=" in repr(state)
    with pytest.raises(TypeError):
        hash(state)


def test_action_to_string_out_of_range(one_game: tw.Game) -> None:
    state = one_game.new_state(2)
    with pytest.raises(tw.IllegalActionError):
        state.action_to_string(one_game.num_distinct_actions)
    with pytest.raises(tw.IllegalActionError):
        state.action_to_string(-1)
    with pytest.raises(tw.IllegalActionError):
        state.string_to_action("no such action")


# ---- component data ----------------------------------------------------------------------------


def test_data_path() -> None:
    with pytest.raises(ValueError, match="available games"):
        tw.data_path("no-such-game")
    for name in games_with_data():
        path = tw.data_path(name)
        assert path.is_file() and path.suffix == ".json"
        json.loads(path.read_text(encoding="utf-8"))


def test_the_shipped_data_comes_from_the_core_not_from_a_file_of_the_package() -> None:
    package = Path(tw.__file__).resolve().parent
    assert not list(package.rglob("*.json"))
    for name in games_with_data():
        text = tw.data_text(name)
        data = json.loads(text)
        assert data["game"] == name and data["format"] == 1
        assert tw.data_path(name).read_text(encoding="utf-8") == text
        assert package not in tw.data_path(name).resolve().parents
        # The text is the file the default game plays with: loading it changes nothing.
        assert tw.load(name, data=data) == tw.load(name)
    for unknown in ("no-such-game", "", "North-Wind"):
        with pytest.raises(tw.OptionError, match="available games"):
            tw.data_text(unknown)
    for name in set(REGISTERED) - set(games_with_data()) - set(tw.GAMES):
        with pytest.raises(tw.OptionError, match="unknown game"):
            tw.data_text(name)


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the cache folder follows XDG_CACHE_HOME on Linux")
def test_data_path_writes_into_the_cache_and_restores_an_edited_file(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    name = games_with_data()[0]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tw.data_path(name)
    assert path == tmp_path / "cache" / "tradewinds" / tw.__version__ / f"{name}.json"
    path.write_text("{}", encoding="utf-8")
    assert tw.data_path(name) == path and path.read_text(encoding="utf-8") == tw.data_text(name)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind
    # A cache folder that cannot be written: a temporary folder of this process instead.
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    elsewhere = tw.data_path(name)
    assert blocked not in elsewhere.parents and elsewhere.read_text(encoding="utf-8") == tw.data_text(name)
    # A relative XDG_CACHE_HOME is ignored (the XDG rule): the home folder's cache.
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tw.data_path(name) == tmp_path / "home" / ".cache" / "tradewinds" / tw.__version__ / f"{name}.json"


@pytest.mark.parametrize("name", games_with_data())
def test_loading_the_shipped_data_file_plays_like_the_default(name: str) -> None:
    path = tw.data_path(name)
    for data in (path, str(path)):
        custom = tw.load(name, data=data)
        default = tw.load(name)
        a = [s.observation_string(0) for s in random_trajectory(custom, 12)]
        b = [s.observation_string(0) for s in random_trajectory(default, 12)]
        assert a == b


@pytest.mark.parametrize("name", games_with_data())
def test_bad_data_files_raise_data_file_error(name: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    missing = tmp_path / "missing.json"
    with pytest.raises(tw.DataFileError):
        tw.load(name, data=missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{ this is not json", encoding="utf-8")
    with pytest.raises(tw.DataFileError):
        tw.load(name, data=broken)
    empty = tmp_path / "empty.json"
    empty.write_text("{}", encoding="utf-8")
    with pytest.raises(tw.DataFileError):
        tw.load(name, data=empty)


# ---- setup descriptions --------------------------------------------------------------------------


def test_setup_rejects_what_is_not_json(one_game: tw.Game) -> None:
    with pytest.raises(TypeError, match="description"):
        one_game.setup({"x": object()})
    with pytest.raises(ValueError, match="finite"):
        one_game.setup({"x": float("nan")})


def test_setup_rejects_a_description_that_is_no_position(one_game: tw.Game) -> None:
    for bad in ([1, 2, 3], "text", {"no_such_field_in_any_game": 1}):
        with pytest.raises(tw.SetupError):
            one_game.setup(bad)


# ---- property tests -----------------------------------------------------------------------------

MID_GAME = {name: snapshots(tw.load(name), 91, 3)[1] for name in REGISTERED}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(REGISTERED), action=st.integers(min_value=-(2**70), max_value=2**70))
def test_any_integer_action_is_applied_or_rejected_cleanly(name: str, action: int) -> None:
    state = MID_GAME[name].clone()
    before = state.to_json()
    if action in state.legal_actions():
        state.apply(action)
        assert state.history()[len(MID_GAME[name].history())] == action
    else:
        with pytest.raises(tw.IllegalActionError):
            state.apply(action)
        assert state.to_json() == before


def ascii_fold(text: str) -> str:
    return text.strip(" \t\r\n").translate(str.maketrans(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"))


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(REGISTERED), data=st.data())
def test_any_text_action_is_applied_or_rejected_cleanly(name: str, data: st.DataObject) -> None:
    state = MID_GAME[name].clone()
    before = state.to_json()
    names = {ascii_fold(state.action_to_string(a)): a for a in state.legal_actions()}
    # Either a legal action's name, in random case and with surrounding blanks, or any text.
    legal_name = st.sampled_from(sorted(names)).flatmap(
        lambda n: st.tuples(st.text(" \t", max_size=2), st.lists(st.booleans(), min_size=len(n), max_size=len(n)),
                            st.text(" \t", max_size=2)).map(
            lambda t: t[0] + "".join(c.upper() if up else c for c, up in zip(n, t[1])) + t[2]))
    text = data.draw(st.one_of(legal_name, st.text(max_size=40)))
    if ascii_fold(text) in names:
        state.apply(text)
        assert state.history()[len(MID_GAME[name].history())] == names[ascii_fold(text)]
    else:
        with pytest.raises(tw.IllegalActionError):
            state.apply(text)
        assert state.to_json() == before


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(REGISTERED), seed=st.integers(min_value=-(2**80), max_value=2**80))
def test_any_seed_is_accepted_or_rejected_with_the_range(name: str, seed: int) -> None:
    game = tw.load(name)
    if 0 <= seed < 2**64:
        state = game.new_state(seed)
        assert state.move_number == len(state.history())  # chance resolved at once, if any
        # Every bit of the seed counts: flipping the lowest or the highest gives another state.
        assert state != game.new_state(seed ^ 1)
        assert state != game.new_state(seed ^ (1 << 63))
    else:
        with pytest.raises(ValueError, match=re.escape("[0, 2**64 - 1]")):
            game.new_state(seed)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(REGISTERED), description=JSON_VALUES)
def test_any_json_setup_description_gives_a_state_or_setup_error(name: str, description: object) -> None:
    game = tw.load(name)
    try:
        state = game.setup(description)
    except tw.SetupError:
        return
    assert isinstance(state, tw.State)


def test_comparisons_with_other_types() -> None:
    state = MID_GAME[REGISTERED[0]]
    assert state != "state" and state != 3 and not (state == None)  # noqa: E711
    report = state.score_report()
    assert report != "report"


# ---- search: child states and fingerprints --------------------------------------------------


def test_child_returns_a_new_state_and_leaves_this_one_alone(game: tw.Game) -> None:
    rng = random.Random(5)
    state = snapshots(game, 5, 3)[1]
    before = state.to_json()
    action = random_action(state, rng)
    child = state.child(action)
    assert state.to_json() == before and child is not state
    same = state.clone()
    same.apply(action)
    assert child == same
    # By name, as apply takes it.
    assert state.child(state.action_to_string(action)) == same
    with pytest.raises(tw.IllegalActionError):
        state.child(game.num_distinct_actions + 5)
    assert state.to_json() == before


def test_equal_states_have_equal_fingerprints(game: tw.Game) -> None:
    for state in snapshots(game, 17, 4):
        fingerprint = state.fingerprint()
        assert isinstance(fingerprint, int) and 0 <= fingerprint < 2**64
        for twin in (state.clone(), copy.deepcopy(state), game.state_from_json(state.to_json()),
                     game.state_from_bytes(state.to_bytes())):
            assert twin == state and twin.fingerprint() == fingerprint
    positions = {s.to_json(): s.fingerprint() for s in random_trajectory(game, 3)}
    assert len(set(positions.values())) > 1


def test_a_fingerprint_is_the_position_not_the_history(one_game: tw.Game) -> None:
    # The same position with another history (here none) and another generator: not equal
    # states, but one position, so one fingerprint.
    state = snapshots(one_game, 23, 3)[1]
    saved = json.loads(state.to_json())
    saved["history"] = []
    saved["rng"] = json.loads(one_game.new_state(99).to_json())["rng"]
    same_position = one_game.state_from_json(json.dumps(saved))
    assert same_position != state
    assert same_position.fingerprint() == state.fingerprint()
    moved = state.child(state.legal_actions()[0])
    assert moved.fingerprint() != state.fingerprint()


def test_fingerprints_are_the_same_in_every_process() -> None:
    import subprocess
    import sys

    script = (
        "import sys, tradewinds as tw\n"
        "from tradewinds._core import REGISTERED\n"
        "for name in REGISTERED:\n"
        "    s = tw.load(name).new_state(31)\n"
        "    for _ in range(5):\n"
        "        if s.is_terminal: break\n"
        "        s.apply(s.legal_actions()[-1])\n"
        "    print(name, s.fingerprint())\n"
    )
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                           env={**__import__("os").environ, "PYTHONHASHSEED": seed}) for seed in ("1", "2")]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
    here = {}
    for name in REGISTERED:
        s = tw.load(name).new_state(31)
        for _ in range(5):
            if s.is_terminal:
                break
            s.apply(s.legal_actions()[-1])
        here[name] = s.fingerprint()
    assert runs[0].stdout == "".join(f"{name} {here[name]}\n" for name in REGISTERED)


# ---- errors in the game's words, never Rust's -----------------------------------------------

#: Words of Rust's type system that serde puts in its messages.
RUST_WORDS = re.compile(r"\b(u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|isize|f32|f64)\b|\bstruct |\bsequence\b|\bmap\b")


def _sourced_paths(value: object, path: str = "") -> list[str]:
    """The paths of a data file's sourced values ({"value": ..., "source": ...})."""
    if isinstance(value, dict):
        if "value" in value and "source" in value:
            return [path]
        return [p for k, v in value.items() for p in _sourced_paths(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _sourced_paths(v, f"{path}[{i}]")]
    return []


def _set(document: object, path: str, value: object) -> None:
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
    for key in keys[:-1]:
        document = document[key]  # type: ignore[index]
    document[keys[-1]] = value  # type: ignore[index]


@pytest.mark.parametrize("name", games_with_data())
def test_data_file_errors_name_the_field_in_plain_words(name: str) -> None:
    shipped = json.loads(tw.data_path(name).read_text(encoding="utf-8"))
    path = _sourced_paths(shipped)[0]
    bare = copy.deepcopy(shipped)
    _set(bare, path, 7)
    with pytest.raises(tw.DataFileError) as info:
        tw.load(name, data=bare)
    message = str(info.value)
    assert f"field `{path}`" in message and '"source": "printed" or "reconstructed"' in message, message
    assert not RUST_WORDS.search(message) and "Sourced" not in message, message
    negative = copy.deepcopy(shipped)
    _set(negative, f"{path}.value", -5)
    with pytest.raises(tw.DataFileError) as info:
        tw.load(name, data=negative)
    message = str(info.value)
    assert f"field `{path}.value`" in message and "whole number" in message, message
    assert not RUST_WORDS.search(message) and "at line" not in message, message


def _integer_leaves(value: object, path: str) -> list[str]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _integer_leaves(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _integer_leaves(v, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("name", REGISTERED)
def test_saved_state_errors_name_the_field_in_plain_words(name: str) -> None:
    game = tw.load(name)
    text = snapshots(game, 8, 3)[1].to_json()
    named = 0
    for path in _integer_leaves(json.loads(text)["state"], "state")[:40]:
        for bad in (-5, "five"):
            saved = json.loads(text)
            _set(saved, path, bad)
            try:
                game.state_from_json(json.dumps(saved))
            except tw.StateFormatError as e:
                message = str(e)
                assert not RUST_WORDS.search(message) and "at line" not in message, message
                if f"field `{path}`" in message:
                    named += 1
                    assert "whole number" in message or 'string "five"' in message, message
    assert named >= 2, "a wrong value in a saved state is named by its field"
