"""Hypothesis state-machine tests through the Python API, for every registered game and
configuration:
random interleavings of applying actions (legal ones, arbitrary ids, names), cloning,
saving and loading (JSON, bytes, pickle) and resampling, with the API's invariants checked
after every step. Hypothesis shrinks a failure to a short sequence of calls.

Also: no Rust panic ever reaches Python as pyo3's `PanicException` (a `BaseException`).
Each absurd input is refused with the ordinary exception it names (`TradewindsError`
subclasses, `ValueError`), never a `PanicException`; the guard that turns a panic inside
Rust into `RuntimeError` is checked on its own, with a deliberate panic.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import tradewinds as tw
from conftest import COVER, ONE_CONFIG, Config, first_chance_node, ids, play_to_end


class ApiMachine(RuleBasedStateMachine):
    """One game, one state; every rule is one API call (or a short sequence of them)."""

    game: tw.Game

    def __init__(self) -> None:
        super().__init__()
        self.state: tw.State | None = None
        self.rng = random.Random(0)

    @rule(seed=st.integers(0, 2**64 - 1), explicit=st.booleans())
    def new_game(self, seed: int, explicit: bool) -> None:
        self.state = self.game.new_state(seed, explicit)
        self.rng = random.Random(seed)
        assert self.state.move_number == len(self.state.history())

    def ready(self) -> bool:
        return self.state is not None

    @precondition(ready)
    @rule(index=st.integers(0, 1000))
    def apply_legal(self, index: int) -> None:
        assert self.state is not None
        legal = self.state.legal_actions()
        if not legal:
            return
        action = legal[index % len(legal)]
        moves = self.state.move_number
        history = self.state.history()
        self.state.apply(action)
        assert self.state.history()[: len(history) + 1] == history + [action]
        assert self.state.move_number - moves == len(self.state.history()) - len(history)

    @precondition(ready)
    @rule(action=st.one_of(st.integers(-(2**70), 2**70), st.integers(-3, 70)))
    def apply_any(self, action: int) -> None:
        assert self.state is not None
        legal = self.state.legal_actions()
        before = self.state.to_json()
        if action in legal:
            self.state.apply(action)
        else:
            with pytest.raises(tw.IllegalActionError):
                self.state.apply(action)
            assert self.state.to_json() == before

    @precondition(ready)
    @rule(index=st.integers(0, 1000), form=st.sampled_from(["exact", "upper", "spaced"]))
    def apply_by_name(self, index: int, form: str) -> None:
        assert self.state is not None
        legal = self.state.legal_actions()
        if not legal:
            before = self.state.to_json()
            with pytest.raises(tw.IllegalActionError):
                self.state.apply("pass")
            assert self.state.to_json() == before
            return
        action = legal[index % len(legal)]
        name = self.state.action_to_string(action)
        text = {"exact": name, "upper": name.upper(), "spaced": f"  {name} "}[form]
        assert self.state.string_to_action(text) == action
        history = self.state.history()
        self.state.apply(text)
        # The named action is the next move (chance outcomes resolved at once may follow it).
        assert self.state.history()[: len(history) + 1] == history + [action]

    @precondition(ready)
    @rule(text=st.text(max_size=20))
    def apply_text(self, text: str) -> None:
        assert self.state is not None
        names = {self.state.action_to_string(a).lower(): a for a in self.state.legal_actions()}
        before = self.state.to_json()
        if text.strip().lower() in names:
            self.state.apply(text)
        else:
            with pytest.raises(ValueError):
                self.state.apply(text)
            assert self.state.to_json() == before

    @precondition(ready)
    @rule(moves=st.integers(1, 300))
    def fast_forward(self, moves: int) -> None:
        assert self.state is not None
        for _ in range(moves):
            legal = self.state.legal_actions()
            if not legal:
                return
            self.state.apply(self.rng.choice(legal))

    @precondition(ready)
    @rule(index=st.integers(0, 1000))
    def clone_is_independent(self, index: int) -> None:
        assert self.state is not None
        copy = self.state.clone()
        assert copy == self.state
        before = self.state.to_json()
        legal = copy.legal_actions()
        if legal:
            copy.apply(legal[index % len(legal)])
            assert self.state.to_json() == before
            self.state = copy

    @precondition(ready)
    @rule(form=st.sampled_from(["json", "bytes", "pickle"]))
    def save_and_load(self, form: str) -> None:
        assert self.state is not None
        if form == "json":
            loaded = self.game.state_from_json(self.state.to_json())
        elif form == "bytes":
            loaded = self.game.state_from_bytes(self.state.to_bytes())
        else:
            loaded = pickle.loads(pickle.dumps(self.state))
        assert loaded == self.state
        assert loaded.to_json() == self.state.to_json()
        self.state = loaded

    @precondition(ready)
    @rule(player=st.integers(0, 3), seed=st.integers(0, 2**64 - 1))
    def resample(self, player: int, seed: int) -> None:
        assert self.state is not None
        p = player % self.game.players
        r = self.state.resample(p, seed)
        assert r.observation_string(p) == self.state.observation_string(p)
        assert np.array_equal(r.observation_tensor(p), self.state.observation_tensor(p))
        assert r.current_player == self.state.current_player
        assert r.move_number == self.state.move_number
        assert self.game.state_from_json(r.to_json()) == r
        if not r.is_terminal:
            self.state = r

    @invariant()
    def consistent(self) -> None:
        s = self.state
        if s is None:
            return
        legal = s.legal_actions()
        assert legal == sorted(set(legal))
        mask = s.legal_action_mask()
        assert mask.shape == (self.game.num_distinct_actions,)
        if s.is_terminal:
            assert s.current_player == tw.TERMINAL and not legal and not mask.any()
        else:
            assert legal
            assert all(r == 0 for r in s.returns())
            if s.is_chance:
                assert s.explicit_chance and s.current_player == tw.CHANCE
                outcomes = s.chance_outcomes()
                assert [a for a, _ in outcomes] == legal
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            else:
                assert 0 <= s.current_player < self.game.players
                assert list(np.flatnonzero(mask)) == legal
                names = [s.action_to_string(a) for a in legal]
                assert len(set(names)) == len(names)
        assert s.move_number <= self.game.max_game_length
        for p in range(self.game.players):
            t = s.observation_tensor(p)
            assert t.shape == self.game.observation_tensor_shape and np.isfinite(t).all()


def machine_for(config: Config) -> type[ApiMachine]:
    game = config.load()
    return type(f"ApiMachine_{config.id.replace('-', '_')}", (ApiMachine,), {"game": game})


MACHINE_SETTINGS = settings(
    max_examples=50,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_api_state_machine(config: Config) -> None:
    machine = machine_for(config)
    machine.TestCase.settings = MACHINE_SETTINGS
    machine.TestCase().runTest()


# ----- no panic crosses into Python -----------------------------------------------------------


def is_panic(e: BaseException) -> bool:
    return type(e).__name__ == "PanicException" or not isinstance(e, Exception)


def absurd_calls(config: Config) -> list[tuple[str, Any, type[Exception]]]:
    """Calls with absurd input to one configuration of a game, each as (label, zero-argument
    function, the exception it must raise). (Calls with absurd values of one game's own saved
    fields and data files are in `tests/games/<game>/test_properties.py`.)"""
    game = config.load()
    state = game.new_state(1)
    chance = first_chance_node(game, 1)
    assert chance is not None
    finished = play_to_end(game, 2)
    version = game.state_format.to_bytes(4, "little")
    deep = "[" * 100_000 + "]" * 100_000
    absurd_options = {o["name"]: 2**63 for o in tw._core.options(config.game)}
    calls: list[tuple[str, Any, type[Exception]]] = [
        ("apply huge", lambda: state.apply(10**100), tw.IllegalActionError),
        ("apply negative", lambda: state.apply(-(10**100)), tw.IllegalActionError),
        ("apply at terminal", lambda: finished.apply(0), tw.IllegalActionError),
        ("apply at chance", lambda: chance.apply(10**9), tw.IllegalActionError),
        ("name at chance", lambda: chance.action_to_string(2**31), tw.IllegalActionError),
        ("name for a huge observer", lambda: state.action_to_string(0, observer=2**64), ValueError),
        ("observation of a huge player", lambda: state.observation_tensor(2**64), ValueError),
        ("resample a huge player", lambda: state.resample(-(2**64)), ValueError),
        ("load deep JSON", lambda: game.state_from_json(deep), tw.StateFormatError),
        ("load a huge JSON number", lambda: game.state_from_json(f'{{"format": 1e999999, "game": "{game.name}"}}'),
         tw.StateFormatError),
        ("load 1 MB of zeros", lambda: game.state_from_bytes(b"TWS" + version + b"\x00" * 1_000_000), tw.StateFormatError),
        ("load 0xFF bytes", lambda: game.state_from_bytes(b"TWS" + version + b"\xff" * 64), tw.StateFormatError),
        ("setup deep", lambda: game.setup(json.loads("[" * 500 + "]" * 500)), tw.SetupError),
        ("load with absurd options", lambda: tw.load(config.game, **absurd_options), tw.OptionError),
        ("simulate absurd", lambda: game.simulate(2**62, threads=1), ValueError),
        ("simulate huge", lambda: tw.simulate(game, 10**30), ValueError),
        ("pickle tampered", lambda: tw._core._state_from_bytes(game.config_json(), b"TWS" + version + b"\x80" * 40),
         tw.StateFormatError),
        ("config tampered", lambda: tw._core._load_config(f'{{"game": "{game.name}", "players": 1e400}}'), tw.OptionError),
    ]
    return calls


def check_refused(label: str, call: Any, expected: type[Exception]) -> None:
    """`call()` must raise `expected`: returning is a failure, and so is a panic or any other
    exception."""
    try:
        call()
    except BaseException as e:  # noqa: BLE001 - the point is to see what arrives
        assert not is_panic(e), f"{label}: {type(e).__module__}.{type(e).__name__}: {e}"
        assert isinstance(e, expected), f"{label}: {type(e).__name__}: {e}, not {expected.__name__}"
    else:
        pytest.fail(f"{label}: returned instead of raising {expected.__name__}")


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_no_rust_panic_reaches_python_as_panic_exception(config: Config) -> None:
    for label, call, expected in absurd_calls(config):
        check_refused(label, call, expected)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_resampling_a_finished_game_gives_the_finished_game(config: Config) -> None:
    """Resampling at the end (with the largest seed) is allowed: what the player saw, and so
    the whole public end of the game, is kept."""
    finished = play_to_end(config.load(), 2)
    for p in range(config.players):
        r = finished.resample(p, 2**64 - 1)
        assert r.is_terminal and r.current_player == tw.TERMINAL
        assert r.observation_string(p) == finished.observation_string(p)
        assert r.scores() == finished.scores() and r.winners() == finished.winners()
        assert r.returns() == finished.returns()


@pytest.mark.parametrize("detach", [False, True], ids=["with-gil", "without-gil"])
def test_the_panic_guard_turns_a_panic_into_runtime_error(detach: bool) -> None:
    """The guard every entry point runs in turns a panic into RuntimeError, with the GIL held
    or released, never into PanicException."""
    with pytest.raises(RuntimeError, match="internal error in tradewinds: boom") as info:
        tw._core._check_panic_guard("boom", detach)
    assert not is_panic(info.value)
