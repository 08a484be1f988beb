"""The Rust engine and its pure-Python twin (``tests/oracles/north_wind.py``) driven side by
side by a Hypothesis state machine: drawn options (player count, the bank of gold, turn
bound, explicit or implicit chance, a few numbers of the data file), a drawn seed, then drawn
decisions (and, with explicit chance, drawn chance outcomes), some one at a time and some in
random runs.
After every move the two must agree: the acting player, the legal actions (and the chance
outcomes), the whole state, the random generator, the history, the scores and returns, and
at the end the winner and the score report; an illegal action is refused by both. A
divergence shrinks to a short sequence of drawn steps from the smallest options that show it.

`test_oracle.py` compares the two on fixed seeds and full games; this finds the rare
positions that fixed seeds miss. The default run is bounded (seconds); the `slow` one draws
many more games, longer.
"""

from __future__ import annotations

import copy
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

import tradewinds as tw
from conftest import SEATS
from oracles import north_wind as pn

from .test_oracle import rust_snapshot

SHIPPED: dict[str, Any] = json.loads(Path(pn.DEFAULT_DATA).read_text(encoding="utf-8"))

#: Numbers of the data file the machine may change (both engines read the same file), so that
#: limits that rarely bind with the printed components bind often.
DATA_TWEAKS = st.fixed_dictionaries(
    {},
    optional={
        "starting_gold": st.integers(0, 10),
        "starting_cannons": st.integers(0, 4),
        "starting_trade_letters": st.integers(0, 2),
        # From the most a shipped contract asks for (2 captains, 2 of a good): a file with fewer
        # is refused, since those contracts could never be fulfilled.
        "pirate_captains": st.integers(2, 8),
        "goods_per_kind": st.integers(2, 8),
    },
)


class OracleMachine(RuleBasedStateMachine):
    """One game played in both engines at once."""

    #: A folder for the changed data files (the twin reads a file).
    data_dir: Path

    def __init__(self) -> None:
        super().__init__()
        self.rust: tw.State | None = None
        self.py: pn.Session | None = None
        self.twin: pn.NorthWind | None = None
        self.players = 0
        self.moves = 0

    @initialize(
        players=st.sampled_from(SEATS[pn.GAME]),
        seed=st.integers(0, 2**64 - 1),
        gold=st.sampled_from(["unlimited", "limited"]),
        max_turns=st.none() | st.integers(1, 40),
        explicit=st.booleans(),
        tweaks=DATA_TWEAKS,
    )
    def start(self, players: int, seed: int, gold: str, max_turns: int | None, explicit: bool,
              tweaks: dict[str, int]) -> None:
        options: dict[str, Any] = {"players": players, "gold": gold}
        if max_turns is not None:
            options["max_turns"] = max_turns
        data = None
        if tweaks:
            raw = copy.deepcopy(SHIPPED)
            for name, value in sorted(tweaks.items()):
                raw["rules"][name]["value"] = value
            path = self.data_dir / ("north-wind-" + "-".join(f"{k}={v}" for k, v in sorted(tweaks.items())) + ".json")
            path.write_text(json.dumps(raw), encoding="utf-8")
            options["data"] = raw
            data = pn.Data(path)
        self.players = players
        self.twin = pn.NorthWind(players=players, max_turns=max_turns or 1000, data=data, gold=gold)
        self.rust = tw.load(pn.GAME, **options).new_state(seed=seed, explicit_chance=explicit)
        self.py = pn.Session(self.twin, seed, explicit_chance=explicit)
        self.compare("the first state")

    # ----- the comparison --------------------------------------------------------------------

    def compare(self, where: str) -> None:
        rust, py, twin = self.rust, self.py, self.twin
        assert rust is not None and py is not None and twin is not None
        snap, rng = rust_snapshot(rust, self.players)
        ours = pn.snapshot(py.state)
        diff = {k: (snap[k], ours[k]) for k in snap if snap[k] != ours[k]}
        assert not diff, f"{where}: the states differ (rust, python): {diff}"
        assert rng == py.rng.s, f"{where}: the random generators differ"
        assert rust.history() == py.history, f"{where}: the histories differ"
        assert (rust.is_terminal, rust.is_chance) == (py.is_terminal(), py.is_chance()), where
        assert rust.current_player == py.current_player(), f"{where}: the acting player differs"
        assert rust.legal_actions() == py.legal_actions(), f"{where}: the legal actions differ"
        if rust.is_chance:
            assert rust.chance_outcomes() == py.chance_outcomes(), f"{where}: the chance outcomes differ"
        s = py.state
        assert rust.scores() == [float(x) for x in twin.scores(s)], f"{where}: the scores differ"
        assert rust.returns() == twin.returns(s), f"{where}: the returns differ"
        if rust.is_terminal:
            assert rust.winners() == ([] if s.winner is None else [s.winner]), where
            assert rust.is_truncated == s.truncated, where
            report = rust.score_report()
            assert report.points == [[float(x) for x in row] for row in twin.category_points(s)], where
            assert report.truncated == s.truncated, where

    def play(self, action: int) -> None:
        assert self.rust is not None and self.py is not None
        name = self.rust.action_to_string(action)
        self.rust.apply(action)
        self.py.apply(action)
        self.moves += 1
        self.compare(f"after move {self.moves} ({action}: {name})")

    def going(self) -> bool:
        return self.rust is not None and not self.rust.is_terminal

    # ----- the steps ------------------------------------------------------------------------

    @precondition(going)
    @rule(index=st.integers(0, 2**16 - 1))
    def decide(self, index: int) -> None:
        """One drawn move: a decision, or with explicit chance a chance outcome."""
        assert self.rust is not None
        legal = self.rust.legal_actions()
        self.play(legal[index % len(legal)])

    @precondition(going)
    @rule(moves=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
    def run(self, moves: int, seed: int) -> None:
        """Up to `moves` uniformly random moves, compared one by one."""
        assert self.rust is not None
        chooser = random.Random(seed)
        for _ in range(moves):
            if self.rust.is_terminal:
                break
            self.play(chooser.choice(self.rust.legal_actions()))

    @precondition(lambda self: self.rust is not None)
    @rule(action=st.integers(-1, pn.NUM_ACTIONS + 32))
    def refuse(self, action: int) -> None:
        """An action that is not legal is refused by both, and changes neither."""
        assert self.rust is not None and self.py is not None
        if action in self.rust.legal_actions():
            return
        with pytest.raises(tw.IllegalActionError):
            self.rust.apply(action)
        with pytest.raises(ValueError):
            self.py.apply(action)
        self.compare(f"after refusing {action}")


def run_machine(machine_settings: settings) -> None:
    with tempfile.TemporaryDirectory() as folder:
        machine = type("OracleMachine", (OracleMachine,), {"data_dir": Path(folder)})
        machine.TestCase.settings = machine_settings
        machine.TestCase().runTest()


def test_the_engines_agree_on_drawn_games() -> None:
    run_machine(settings(
        max_examples=15, stateful_step_count=15, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    ))


@pytest.mark.slow
def test_the_engines_agree_on_many_long_drawn_games() -> None:
    run_machine(settings(
        max_examples=100, stateful_step_count=50, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    ))
