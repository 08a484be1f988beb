"""Saving and restoring games and states: pickle, JSON, bytes, and the errors of bad input."""

from __future__ import annotations

import copy
import json
import pickle
import random
import struct

import pytest

import tradewinds as tw
from conftest import CONFIGS, random_action, snapshots
from tradewinds._core import REGISTERED


def continue_both(a: tw.State, b: tw.State, seed: int, steps: int = 40) -> None:
    """Plays the same random actions on `a` and `b` and checks they stay identical."""
    rng = random.Random(seed)
    for _ in range(steps):
        assert a == b and a.to_json() == b.to_json()
        if a.is_terminal:
            assert b.is_terminal
            assert a.scores() == b.scores() and a.winners() == b.winners()
            return
        action = random_action(a, rng)
        a.apply(action)
        b.apply(action)
    assert a == b


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["implicit-chance", "explicit-chance"])
def test_pickle_round_trip_at_several_points(game: tw.Game, explicit_chance: bool) -> None:
    for i, state in enumerate(snapshots(game, 61, 5, explicit_chance)):
        for protocol in (2, pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
            loaded = pickle.loads(pickle.dumps(state, protocol=protocol))
            assert isinstance(loaded, tw.State)
            assert loaded == state and loaded is not state
            assert loaded.to_json() == state.to_json()
            assert loaded.game == game
            assert loaded.explicit_chance == explicit_chance
            assert loaded.history() == state.history()
            assert loaded.move_number == state.move_number
        continue_both(loaded, state.clone(), seed=i)


def test_pickle_game(game: tw.Game) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        loaded = pickle.loads(pickle.dumps(game, protocol=protocol))
        assert isinstance(loaded, tw.Game)
        assert loaded == game and hash(loaded) == hash(game)
        assert loaded.config_json() == game.config_json()
    assert copy.deepcopy(game) == game


def test_pickle_of_containers(one_game: tw.Game) -> None:
    state = one_game.new_state(4)
    report = None
    loaded = pickle.loads(pickle.dumps({"game": one_game, "states": [state, state.clone()], "r": report}))
    assert loaded["game"] == one_game
    assert loaded["states"][0] == state and loaded["states"][1] == state


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["implicit-chance", "explicit-chance"])
def test_json_and_bytes_round_trip(game: tw.Game, explicit_chance: bool) -> None:
    for i, state in enumerate(snapshots(game, 71, 5, explicit_chance)):
        text = state.to_json()
        json.loads(text)
        from_text = game.state_from_json(text)
        assert from_text == state
        assert from_text.to_json() == text
        data = state.to_bytes()
        assert isinstance(data, bytes)
        from_bytes = game.state_from_bytes(data)
        assert from_bytes == state
        assert from_bytes.to_bytes() == data
        continue_both(from_text, from_bytes, seed=i)


def test_loading_into_an_equal_game_object(game: tw.Game) -> None:
    state = snapshots(game, 72, 3)[1]
    other_game = tw.load(game.name, **game.options)
    assert other_game.state_from_json(state.to_json()) == state
    assert other_game.state_from_bytes(state.to_bytes()) == state


def test_corrupted_json_raises_state_format_error(one_game: tw.Game) -> None:
    state = snapshots(one_game, 73, 3)[1]
    text = state.to_json()
    bad_texts = [
        "",
        "not json at all",
        "{}",
        "[]",
        "null",
        text[: len(text) // 2],
        text[:-1],
        text.replace('"history"', '"hystory"', 1),
    ]
    doc = json.loads(text)
    doc["state"] = "nonsense"
    bad_texts.append(json.dumps(doc))
    doc = json.loads(text)
    doc["move_number"] = -5
    bad_texts.append(json.dumps(doc))
    for bad in bad_texts:
        with pytest.raises(tw.StateFormatError):
            one_game.state_from_json(bad)


def test_corrupted_bytes_raise_state_format_error(one_game: tw.Game) -> None:
    state = snapshots(one_game, 74, 3)[1]
    data = state.to_bytes()
    bad_data = [b"", b"TW", b"garbage bytes", b"XYZ" + data[3:], data[: len(data) // 2], data[:-1], data[:7]]
    for bad in bad_data:
        with pytest.raises(tw.StateFormatError):
            one_game.state_from_bytes(bad)
    with pytest.raises(TypeError):
        one_game.state_from_bytes("text is not bytes")  # type: ignore[arg-type]


def test_saved_states_carry_the_games_own_format_version(game: tw.Game) -> None:
    # Versions are per game (`Game.state_format`), the same in every configuration of a game.
    assert {c.load().state_format for c in CONFIGS if c.game == game.name} == {game.state_format}
    for state in snapshots(game, 75, 3):
        assert json.loads(state.to_json())["format"] == game.state_format
        assert struct.unpack("<I", state.to_bytes()[3:7]) == (game.state_format,)


def test_future_format_version_is_named(one_game: tw.Game) -> None:
    state = one_game.new_state(75)
    version = one_game.state_format
    future = version + 998
    doc = json.loads(state.to_json())
    assert doc["format"] == version
    doc["format"] = future
    with pytest.raises(tw.StateFormatError) as info:
        one_game.state_from_json(json.dumps(doc))
    assert str(future) in str(info.value)
    assert f"reads version {version}" in str(info.value) and one_game.name in str(info.value)
    data = bytearray(state.to_bytes())
    data[3:7] = struct.pack("<I", future)
    with pytest.raises(tw.StateFormatError) as info:
        one_game.state_from_bytes(bytes(data))
    assert str(future) in str(info.value)


def test_state_of_another_game_is_rejected(one_game: tw.Game) -> None:
    state = one_game.new_state(76)
    doc = json.loads(state.to_json())
    doc["game"] = "some-other-game"
    with pytest.raises(tw.StateFormatError, match="some-other-game"):
        one_game.state_from_json(json.dumps(doc))


@pytest.mark.parametrize("name", REGISTERED)
def test_state_of_another_configuration_is_rejected(name: str) -> None:
    configs = [c for c in CONFIGS if c.game == name]
    if len(configs) < 2:
        pytest.skip("the game has a single configuration")
    for ca, cb in zip(configs, configs[1:]):
        a, b = ca.load(), cb.load()
        differ = [k for k in ca.options if ca.options[k] != cb.options[k]]
        state = a.new_state(77)
        for load in (lambda: b.state_from_json(state.to_json()), lambda: b.state_from_bytes(state.to_bytes())):
            with pytest.raises(tw.StateFormatError) as info:
                load()
            assert all(k in str(info.value) for k in differ), (differ, str(info.value))


def test_unpickling_bad_payloads(one_game: tw.Game) -> None:
    from tradewinds._core import _load_config, _state_from_bytes

    with pytest.raises(ValueError):
        _load_config("not json")
    with pytest.raises(ValueError):
        _load_config('{"game": "no-such-game"}')
    with pytest.raises(tw.StateFormatError):
        _state_from_bytes(one_game.config_json(), b"TWS garbage")
    assert _load_config(one_game.config_json()) == one_game
