"""The Python rows of the hostile-input table in docs/reliability.md: one test per row (the
row id, H-Pn, starts each test's docstring). Every hostile input gives a clear, typed error
that names what was wrong, and the state (compared as `to_json()` before and after) or the
game is unchanged. The rows here run over every registered game (`tradewinds._core.REGISTERED`)
and its configurations; the rows about one game's own data files, setup descriptions and
saved fields are in `tests/games/<game>/test_hostile.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import (
    COVER, ONE_CONFIG, SEATS, Config, first_chance_node, games_with_data, ids, midgame, other_configuration,
    play_to_end, raises, unchanged,
)
from tradewinds._core import REGISTERED
from tradewinds._core import options as declared_options

U64_MAX = 2**64 - 1


# ----- actions -----------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [1.0, float("nan"), True, False, None, [1], (1,), b"\x00", {"a": 1}, object()],
                         ids=lambda v: "object()" if type(v) is object else repr(v))
def test_actions_of_the_wrong_type(one_game: tw.Game, bad: object) -> None:
    """H-P1 actions of the wrong type are a TypeError naming what an action is."""
    state = midgame(one_game, 1, 10)
    with unchanged(state):
        raises(TypeError, lambda: state.apply(bad), "an action must be an int")  # type: ignore[arg-type]
        raises(TypeError, lambda: state.action_to_string(bad))  # type: ignore[arg-type]


def test_negative_and_out_of_range_action_ids(game: tw.Game) -> None:
    """H-P2 negative and out-of-range action ids are IllegalActionError naming the id (a huge
    one cut to its first 80 digits, H-P29)."""
    state = midgame(game, 2, 10)
    n = game.num_distinct_actions
    for bad in [-1, -(2**31), -(2**63), -(2**64), n, n + 1, 2**31, 2**32 - 1, 2**32, U64_MAX, 2**64, 10**100]:
        with unchanged(state):
            raises(tw.IllegalActionError, lambda: state.apply(bad), str(bad)[:80])


def test_actions_of_another_game_or_configuration() -> None:
    """H-P3 actions legal in another game's (or configuration's) state, by id and by name,
    and a State or Game object where an action belongs."""
    games = [c.load() for c in COVER]
    for a in games:
        for b in games:
            if a == b:
                continue
            here = midgame(a, 3, 25)
            there = midgame(b, 4, 25)
            foreign = [x for x in there.legal_actions() if x not in here.legal_actions()]
            foreign_names = [there.action_to_string(x) for x in there.legal_actions()]
            legal_names = [here.action_to_string(x) for x in here.legal_actions()]
            with unchanged(here):
                for x in foreign:
                    raises(tw.IllegalActionError, lambda: here.apply(x))
                for text in foreign_names:
                    if text.lower() not in [t.lower() for t in legal_names]:
                        raises(tw.IllegalActionError, lambda: here.apply(text), "legal here")
                raises(TypeError, lambda: here.apply(there))  # type: ignore[arg-type]
                raises(TypeError, lambda: here.apply(b))  # type: ignore[arg-type]


def test_actions_at_a_terminal_state(one_game: tw.Game) -> None:
    """H-P4 every action id, and any action name, at a terminal state."""
    state = play_to_end(one_game, 5)
    assert state.is_terminal
    with unchanged(state):
        for a in range(one_game.num_distinct_actions + 2):
            raises(tw.IllegalActionError, lambda: state.apply(a), "over")
        raises(tw.IllegalActionError, lambda: state.apply("pass"), "no action is legal")
        raises(tw.IllegalActionError, lambda: state.apply(""))


def test_player_actions_at_a_chance_node(game: tw.Game) -> None:
    """H-P5 at an explicit chance node, ids that are no outcome and player actions' names."""
    state = first_chance_node(game, 6)  # a game's first state may be a decision
    assert state is not None and state.is_chance
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert outcomes == state.legal_actions()
    with unchanged(state):
        for a in range(max(game.num_distinct_actions, game.max_chance_outcomes) + 2):
            if a not in outcomes:
                raises(tw.IllegalActionError, lambda: state.apply(a), "chance")
        raises(tw.IllegalActionError, lambda: state.apply("pass"))
        # Naming an id outside the chance outcome space is refused too.
        raises(tw.IllegalActionError, lambda: state.action_to_string(game.max_chance_outcomes), "out of range")


LONG = "x" * 1_000_000


@pytest.mark.parametrize(
    "text", ["", " ", "\t\n", "xyzzy", "sail:Atlantis", "0", "-1", "\x00", "🦀", "pass pass", LONG], ids=lambda t: repr(t[:12])
)
def test_strings_that_are_no_action(one_game: tw.Game, text: str) -> None:
    """H-P6 strings that name no legal action: IllegalActionError listing the legal ones."""
    state = midgame(one_game, 7, 10)
    legal_name = state.action_to_string(state.legal_actions()[0])
    with unchanged(state):
        raises(tw.IllegalActionError, lambda: state.apply(text), "unknown action string", legal_name)
        raises(tw.IllegalActionError, lambda: state.string_to_action(text), legal_name)


def test_strings_that_are_not_unicode_text(one_game: tw.Game) -> None:
    """H-P6 (cont.) a string with a lone surrogate cannot be text: a ValueError, no change."""
    state = midgame(one_game, 7, 10)
    with unchanged(state):
        raises(ValueError, lambda: state.apply("\ud800"))


# ----- games, options, seeds ---------------------------------------------------------------


@pytest.mark.parametrize("name", REGISTERED)
def test_player_counts_out_of_range(name: str) -> None:
    """H-P7 player counts out of range or of the wrong type: OptionError naming `players`."""
    fewest, most = min(SEATS[name]), max(SEATS[name])
    for bad in [fewest - 1, most + 1, 0, 9, -1, 2**63, 2**70, "3", 3.5, float("nan"), True, None, [3]]:
        raises(tw.OptionError, lambda: tw.load(name, players=bad), "players")


def test_unknown_games_and_options() -> None:
    """H-P8 unknown game names and options, options out of range or of the wrong type."""
    raises(tw.OptionError, lambda: tw.load("chess"), "unknown game", *tw.GAMES)
    raises(tw.OptionError, lambda: tw.load(""), "unknown game")
    raises(tw.OptionError, lambda: tw.data_path("chess"), "unknown game")
    for name in REGISTERED:
        raises(tw.OptionError, lambda: tw.load(name, colour="red"), "colour", "allowed options")
        raises(TypeError, lambda: tw.load(name, players=object()), "players")
        for option in declared_options(name):
            key = option["name"]
            for bad in [-1, 10**9, 1.5, [1]]:
                raises(tw.OptionError, lambda: tw.load(name, **{key: bad}), key, option["allowed"])
            raises(TypeError, lambda: tw.load(name, **{key: b"{}"}), key)


def test_seeds_at_the_integer_limits(one_game: tw.Game) -> None:
    """H-P9 seeds 0 and 2**64-1 work everywhere a seed is taken; -1, 2**64 are ValueError
    naming the range, non-integers TypeError."""
    for seed in [0, U64_MAX]:
        state = one_game.new_state(seed=seed)
        assert state.legal_actions()
        again = one_game.new_state(seed=seed)
        assert again == state
        state.resample(0, seed=seed)
        one_game.setup({}, seed=seed)
        result = tw.simulate(one_game, 2, seed=seed, threads=1)
        assert result.games == 2
    state = one_game.new_state(seed=1)
    with unchanged(state):
        for bad in [-1, 2**64, -(2**64), 10**30]:
            raises(ValueError, lambda: one_game.new_state(seed=bad), "seed", "2**64 - 1")
            raises(ValueError, lambda: state.resample(0, seed=bad), "seed")
            raises(ValueError, lambda: one_game.setup({}, seed=bad), "seed")
        for wrong in [1.0, "1", None, [1]]:
            raises(TypeError, lambda: one_game.new_state(seed=wrong))  # type: ignore[arg-type]


def test_player_indices_out_of_range(game: tw.Game) -> None:
    """H-P10 player indices out of range for observations and resampling: ValueError
    naming the player and the range."""
    state = midgame(game, 8, 10)
    with unchanged(state):
        for bad in [-1, -(2**63), game.players, game.players + 1, 2**63 - 1]:
            raises(ValueError, lambda: state.observation_string(bad), "player", str(bad))
            raises(ValueError, lambda: state.observation_tensor(bad), "player")
            raises(ValueError, lambda: state.resample(bad, 0), "player")


def test_integer_arguments_past_64_bits_name_the_argument(one_game: tw.Game) -> None:
    """H-P11 integer arguments past 64 bits (player index, games, threads)
    are a ValueError naming the argument and its range, as seeds and actions are."""
    state = midgame(one_game, 8, 10)
    with unchanged(state):
        raises(ValueError, lambda: state.observation_string(2**64), "player")
        raises(ValueError, lambda: state.resample(2**64, 0), "player")
    raises(ValueError, lambda: one_game.simulate(2**64), "games")
    raises(ValueError, lambda: tw.simulate(one_game, 10, threads=2**64), "threads")


def test_simulation_arguments_out_of_range(one_game: tw.Game) -> None:
    """H-P12 negative or absurd game and thread counts for bulk simulation."""
    raises(ValueError, lambda: tw.simulate(one_game, -1), "games")
    raises(ValueError, lambda: tw.simulate(one_game, 10, threads=-1), "threads")
    raises(TypeError, lambda: tw.simulate(one_game, 1.5), "games")  # type: ignore[arg-type]
    raises(TypeError, lambda: tw.simulate(one_game, True), "games")
    raises(ValueError, lambda: one_game.simulate(2**62), "games must be at most 4294967295")


# ----- saved states ------------------------------------------------------------------------


def test_truncated_saved_states(game: tw.Game) -> None:
    """H-P13 every prefix of a binary save and of a JSON save: StateFormatError."""
    state = midgame(game, 9, 30)
    data = state.to_bytes()
    for n in range(len(data)):
        raises(tw.StateFormatError, lambda: game.state_from_bytes(data[:n]))
    text = state.to_json()
    for n in range(0, len(text), max(1, len(text) // 200)):
        raises(tw.StateFormatError, lambda: game.state_from_json(text[:n]))
    raises(tw.StateFormatError, lambda: game.state_from_bytes(b""), "bad magic")
    raises(tw.StateFormatError, lambda: game.state_from_json(""), "not a saved tradewinds state")
    # The two forms are not interchangeable, and the types are checked.
    raises(tw.StateFormatError, lambda: game.state_from_bytes(text.encode()))
    raises(tw.StateFormatError, lambda: game.state_from_json(data.decode("latin-1")))
    raises(TypeError, lambda: game.state_from_json(data))  # type: ignore[arg-type]
    raises(TypeError, lambda: game.state_from_bytes(text))  # type: ignore[arg-type]


def test_altered_saved_states(one_game: tw.Game) -> None:
    """H-P14 a binary save of the first decision with any single bit flipped, and JSON saves
    with a field of the wrong type or missing: a StateFormatError, or a state that is valid
    (it saves and loads back equal) and plays on."""
    state = one_game.new_state(10)
    data = state.to_bytes()
    loaded = 0
    for i in range(len(data)):
        for bit in (0x01, 0x10, 0x80):
            altered = bytearray(data)
            altered[i] ^= bit
            try:
                s = one_game.state_from_bytes(bytes(altered))
            except tw.StateFormatError as e:
                assert str(e).startswith("cannot load saved state")
                continue
            loaded += 1
            assert one_game.state_from_json(s.to_json()) == s
            if not s.is_terminal:
                s.apply(s.legal_actions()[0])
                assert one_game.state_from_json(s.to_json()) == s
    assert loaded > 0, "no flip gave a loadable state: the check above never ran"
    saved = json.loads(state.to_json())
    edits: list[tuple[str, Any]] = [
        ("format", "1"), ("game", None), ("config", "{}"), ("explicit_chance", "yes"),
        ("rng", {"s": [1, 2, 3]}), ("history", [-1]), ("move_number", -1), ("state", []),
    ]  # fmt: skip
    for key, value in edits:
        bad = dict(saved, **{key: value})
        raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(bad)))
    for key in saved:
        bad = {k: v for k, v in saved.items() if k != key}
        raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(bad)))


def test_future_version_saved_states_name_the_version(game: tw.Game) -> None:
    """H-P15 a state saved by a future (or past) format version names the version needed."""
    state = midgame(game, 11, 20)
    future = game.state_format + 1
    saved = json.loads(state.to_json())
    saved["format"] = future
    raises(tw.StateFormatError, lambda: game.state_from_json(json.dumps(saved)), f"version {future}")
    data = bytearray(state.to_bytes())
    data[3:7] = future.to_bytes(4, "little")
    raises(tw.StateFormatError, lambda: game.state_from_bytes(bytes(data)), f"version {future}", f"reads version {game.state_format}")


def test_saved_states_of_another_configuration() -> None:
    """H-P16 a state saved by another configuration or game: StateFormatError naming the
    difference (each option that differs, or the game)."""
    configs = [(c, c.load()) for c in COVER]
    for ca, a in configs:
        state = midgame(a, 12, 5)
        text, data = state.to_json(), state.to_bytes()
        for cb, b in configs:
            if a == b:
                continue
            e = raises(tw.StateFormatError, lambda: b.state_from_json(text))
            if a.name == b.name:
                for key in sorted(set(ca.options) | set(cb.options)):
                    if ca.options.get(key) != cb.options.get(key):
                        saved, here = json.dumps(ca.options[key]), json.dumps(cb.options[key])
                        assert f"{key}: saved {saved}, this game {here}" in str(e), str(e)
            else:
                assert f'game "{a.name}", not "{b.name}"' in str(e), str(e)
            raises(tw.StateFormatError, lambda: b.state_from_bytes(data))


def test_tampered_pickles(one_game: tw.Game) -> None:
    """H-P17 the functions pickles call, given tampered arguments."""
    game = one_game
    state = midgame(game, 13, 10)
    fn, (config, data) = state.__reduce__()
    assert fn(config, data) == state
    raises(tw.StateFormatError, lambda: fn(config, data[:-3]))
    raises(tw.StateFormatError, lambda: fn(config, b"TWS\x63\x00\x00\x00"), "version 99")
    raises(ValueError, lambda: fn("not json", data), "not a tradewinds game configuration")
    raises(ValueError, lambda: fn(json.dumps({"game": "chess"}), data), "unknown game")
    other = other_configuration(game)
    if other is not None:
        raises(tw.StateFormatError, lambda: fn(other.config_json(), data), "other options")


# ----- component data files ----------------------------------------------------------------


@pytest.mark.parametrize("name", games_with_data())
def test_unreadable_data_files(name: str, tmp_path: Path) -> None:
    """H-P19 data paths that are missing or a directory; empty, non-JSON and non-UTF-8 files:
    DataFileError (`(file)`). (Each game's own fields: H-P18, in `tests/games/<game>/`.)"""
    raises(tw.DataFileError, lambda: tw.load(name, data=tmp_path / "missing.json"), "(file)", "cannot read")
    raises(tw.DataFileError, lambda: tw.load(name, data=tmp_path), "(file)", "cannot read")
    for file, content in [("empty.json", b""), ("text.json", b"no json here"), ("latin1.json", b'{"game": "\xe9"}')]:
        path = tmp_path / file
        path.write_bytes(content)
        raises(tw.DataFileError, lambda: tw.load(name, data=path))
        raises(tw.DataFileError, lambda: tw.load(name, data=str(path)))
    raises(tw.DataFileError, lambda: tw.load(name, data={}))


# ----- saved states that are inconsistent in subtle ways -------------------------------------


def test_saved_state_with_implicit_chance_at_a_chance_node_is_rejected(one_game: tw.Game) -> None:
    """H-P22 a save whose chance mode was switched off at a chance node."""
    chance = first_chance_node(one_game, 14)
    assert chance is not None
    saved = json.loads(chance.to_json())
    saved["explicit_chance"] = False
    raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(saved)))


def test_saved_state_with_a_move_number_past_the_bound_is_rejected(one_game: tw.Game) -> None:
    """H-P23 a save whose move number is past the game's move bound."""
    saved = json.loads(midgame(one_game, 15, 10).to_json())
    saved["move_number"] = U64_MAX
    raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(saved)))


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_hostile_input_never_changes_the_game(config: Config) -> None:
    """H-P24 after all kinds of rejected calls, the game is equal to a fresh one and plays
    the same games."""
    game = config.load()
    fresh = config.load()
    state = game.new_state(16)
    for bad in [-1, 2**40, "nope"]:
        with pytest.raises(tw.IllegalActionError):
            state.apply(bad)  # type: ignore[arg-type]
    for text in ["", "{}", "TWS"]:
        with pytest.raises(tw.StateFormatError):
            game.state_from_json(text)
    assert game == fresh and game.config_json() == fresh.config_json()
    assert play_to_end(game, 17).to_json() == play_to_end(fresh, 17).to_json()


# ----- game records ------------------------------------------------------------------------


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_bad_records_are_record_errors(config: Config) -> None:
    """H-P27 a record's prefixes, another format version, a move that is not legal there, a
    record of a state set up from a description: RecordError (or, for the set-up state, a
    TradewindsError saying it has no record)."""
    one_game = config.load()
    state = play_to_end(one_game, 4)
    text = state.record()
    for n in range(0, len(text), max(1, len(text) // 40)):
        with pytest.raises(tw.RecordError):
            tw.replay(text[:n])
    record = json.loads(text)
    with pytest.raises(tw.RecordError, match="record format version 7"):
        tw.replay({**record, "format": 7})
    with pytest.raises(tw.RecordError, match="move 0"):
        tw.replay({**record, "moves": ["no such move", *record["moves"][1:]]})
    with pytest.raises(tw.RecordError, match="players"):
        tw.replay({**record, "options": {**record["options"], "players": 99}})
    with pytest.raises(tw.RecordError, match="holds"):
        tw.replay(text, moves=len(record["moves"]) + 1)
    with pytest.raises(ValueError, match="moves"):
        tw.replay(text, moves=-1)
    resampled = midgame(one_game, 4, 10).resample(0, 1)
    if resampled.move_number:
        with pytest.raises(tw.TradewindsError, match="does not start at the beginning"):
            resampled.record()


def test_a_megabyte_long_value_is_never_echoed_in_full() -> None:
    """A 1 MB bad agent or backend: the error names the field (agents[0], backend) and is cut to a sensible length."""
    huge = "x" * (1 << 20)
    game = tw.GAMES[0]
    for kwargs, field in ((dict(agents=[huge] * 3), "agents[0]"), (dict(agents=["mcts:" + huge] * 3), "agents[0]"),
                          (dict(backend=huge), "backend")):
        with pytest.raises(ValueError) as info:
            tw.simulate(game, 10, players=3, **kwargs)  # type: ignore[arg-type]
        assert len(str(info.value)) < 2000 and field in str(info.value), str(info.value)[:200]


# ----- nesting, echoed input and the engine's words ------------------------------------------


def _nested(depth: int, dicts: bool = False) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"a": value} if dicts else [value]
    return value


@pytest.mark.parametrize("dicts", [False, True], ids=["lists", "dicts"])
def test_values_nested_past_the_depth_limit_are_refused(one_game: tw.Game, dicts: bool) -> None:
    """H-P28 lists or dicts nested 20,000 deep, as a setup description, an option value or a
    data file, are the call's typed error naming the limit; 128 deep is within the limit."""
    deep = _nested(20_000, dicts)
    raises(tw.SetupError, lambda: one_game.setup(deep), "nested more than 128 deep")
    raises(tw.OptionError, lambda: tw.load(one_game.name, players=deep), "nested more than 128 deep")
    for name in games_with_data():
        raises(tw.OptionError, lambda: tw.load(name, data={"rules": deep}), "nested more than 128 deep")
    with pytest.raises(tw.SetupError) as shallow:
        one_game.setup(_nested(127, dicts))
    assert "nested more than" not in str(shallow.value)


def test_echoed_input_is_cut_to_a_sensible_length(one_game: tw.Game) -> None:
    """H-P29 a megabyte of bad text (an action name, a game name, a saved state's value) is
    quoted in the error cut to 80 characters and an ellipsis."""
    state = midgame(one_game, 1, 5)
    text = "x" * 1_000_000
    for call, exc in [
        (lambda: state.apply(text), tw.IllegalActionError),
        (lambda: tw.load(text), tw.OptionError),
        (lambda: one_game.state_from_json(json.dumps(dict(json.loads(state.to_json()), game=text))), tw.StateFormatError),
    ]:
        e = raises(exc, call, "x" * 80 + "…")
        assert len(str(e)) < 2000, len(str(e))


def test_out_of_range_action_ids_name_the_games_action_range(one_game: tw.Game) -> None:
    """H-P30 an action id out of range names the game's own action range, not the integer
    type's, and an id of 2**64 - 1 is reported as given."""
    state = midgame(one_game, 2, 10)
    n = one_game.num_distinct_actions
    for bad in [-1, 2**40, U64_MAX]:
        e = raises(tw.IllegalActionError, lambda: state.apply(bad), str(bad), f"player actions lie in 0..{n}")
        assert "4294967295" not in str(e)
    vg = tw.VectorGame(one_game, 2, seed=1)
    actions = np.array([U64_MAX, U64_MAX], dtype=np.uint64)
    e = raises(tw.IllegalActionError, lambda: vg.step(actions), "game 0:", str(U64_MAX))
    assert "9223372036854775807" not in str(e)


def test_saved_states_with_unknown_keys_are_refused_naming_the_key(one_game: tw.Game) -> None:
    """H-P31 a key a saved state does not have, at the top or inside the game state, is a
    StateFormatError naming it (as data files and setup descriptions do)."""
    saved = json.loads(midgame(one_game, 3, 5).to_json())
    raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(dict(saved, note=1))), "`note`", "unknown field")
    inner = dict(saved, state=dict(saved["state"], extra=1))
    raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(inner)), "`state.extra`", "unknown field")


def test_a_zero_random_number_state_is_refused(one_game: tw.Game) -> None:
    """H-P32 the random-number generator's all-zero state, its one forbidden state (every chance
    draw from it hung), is a StateFormatError naming the field, from JSON and from bytes."""
    state = midgame(one_game, 4, 5)
    saved = dict(json.loads(state.to_json()), rng={"s": [0, 0, 0, 0]})
    raises(tw.StateFormatError, lambda: one_game.state_from_json(json.dumps(saved)), "`rng.s`", "all zeros")


def test_corrupt_binary_states_are_told_in_our_words(one_game: tw.Game) -> None:
    """H-P33 truncated or corrupt binary saves say what was wrong in the package's words, naming
    the field where known, never the decoding library's text."""
    data = midgame(one_game, 5, 20).to_bytes()
    messages = []
    for bad in [data[:-1], data[:8] + b"\xff" * 12, data[: len(data) // 2]]:
        messages.append(str(raises(tw.StateFormatError, lambda: one_game.state_from_bytes(bad))))
    assert "cut short" in messages[0], messages
    for m in messages:
        for raw in ["Serde", "varint", "usize", "Hit the end"]:
            assert raw not in m, m


def test_a_caught_panic_prints_nothing() -> None:
    """H-P34 a panic the guard turns into RuntimeError prints nothing to stderr (the default
    panic hook's `thread ... panicked at` line stays silent inside the guard), with or
    without the GIL held."""
    import subprocess
    import sys

    script = (
        "import tradewinds._core as c\n"
        "for detach in (False, True):\n"
        "    try:\n"
        "        c._check_panic_guard('boom', detach)\n"
        "    except RuntimeError as e:\n"
        "        print('caught', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.count("caught") == 2, out.stdout
    assert "panicked" not in out.stderr, out.stderr
