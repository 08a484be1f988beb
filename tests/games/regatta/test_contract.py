"""The engine contract (docs/engine-contract.md) through the Python API, on regatta, the small
registered but unlisted test game built to exercise it: 1 to 5 seats, the pace boat (an
opponent that is not a seat), games with no winning seat, a solo seat's tiers, secret sail
settings and its own saved-state format version. (The shared tests in `tests/` run regatta in
every configuration; these name its particular outcomes.)"""

from __future__ import annotations

import json

import numpy as np
import pytest

import tradewinds as tw
from conftest import CONFIGS, raises
from tradewinds._core import REGISTERED, configurations
from tradewinds._core import options as declared_options

NAME = "regatta"


def solo() -> tw.Game:
    return tw.load(NAME, players=1, pace_boat=True)


def finished(game: tw.Game, positions: list[int], pace: int = 0, round: int = 0) -> tw.State:
    """A race set up as over: a boat at the finish (12 spaces), or the last round played."""
    state = game.setup({"positions": positions, "pace": pace, "round": round})
    assert state.is_terminal and not state.is_truncated
    return state


# ---- 10. registration: registered, not listed ---------------------------------------------------


def test_regatta_is_registered_but_not_listed() -> None:
    assert NAME in REGISTERED and NAME not in tw.GAMES
    assert tw.load(NAME).name == NAME
    raises(tw.OptionError, lambda: tw.data_path(NAME), "unknown game")


# ---- 1 and 6: seats 1 to 5, configurations listed once ------------------------------------------


def test_configurations_are_one_to_five_seats_with_and_without_the_pace_boat() -> None:
    listed = configurations(NAME)
    assert len(listed) == 9
    assert {"players": 1, "pace_boat": True} in listed and {"players": 1, "pace_boat": False} not in listed
    for n in range(2, 6):
        for pace_boat in (False, True):
            assert {"players": n, "pace_boat": pace_boat} in listed
    assert len([c for c in CONFIGS if c.game == NAME]) == 9


def test_option_errors_name_what_is_allowed() -> None:
    declared = {o["name"]: o for o in declared_options(NAME)}
    assert set(declared) == {"players", "pace_boat", "course", "gusts"}
    assert declared["players"]["configuration"] and declared["pace_boat"]["configuration"]
    assert not declared["course"]["configuration"] and not declared["gusts"]["configuration"]
    raises(tw.OptionError, lambda: tw.load(NAME, players=6), "players", declared["players"]["allowed"])
    raises(tw.OptionError, lambda: tw.load(NAME, pace_boat="yes"), "pace_boat", declared["pace_boat"]["allowed"])
    raises(tw.OptionError, lambda: tw.load(NAME, course=3), "course", declared["course"]["allowed"])
    raises(tw.OptionError, lambda: tw.load(NAME, sails=3), "sails", "players", "pace_boat", "course")
    # What the declarations cannot say: a solo seat races the pace boat.
    raises(tw.OptionError, lambda: tw.load(NAME, players=1), "pace_boat", "set pace_boat=true")


# ---- 2, 3, 4, 5: opponents, no winning seat, returns, tiers --------------------------------------


def test_the_pace_boat_is_an_opponent_with_a_report_row_and_no_returns() -> None:
    assert tw.load(NAME, players=3).opponents == []
    game = tw.load(NAME, players=3, pace_boat=True)
    assert game.opponents == ["pace boat"] and not game.zero_sum
    state = finished(game, [12, 5, 3], pace=12)  # P0 and the pace boat share the win
    report = state.score_report()
    assert report.opponents == [("pace boat", [12.0, 2.0], 14.0)]
    assert state.winners() == [0] and report.opponent_winners == [0]
    assert report.winner_names == ["P0", "pace boat"]
    assert len(state.returns()) == 3 and len(state.scores()) == 3
    assert "pace boat" in str(report)


def test_a_solo_game_won_by_the_pace_boat_has_no_winning_seat() -> None:
    state = finished(solo(), [7], pace=12)
    report = state.score_report()
    assert state.winners() == [] and not state.is_truncated
    assert report.winner_names == ["pace boat"] and report.opponent_winners == [0]
    assert state.returns() == [-1.0]
    assert report.tier is None
    assert "winner: pace boat" in str(report)


def test_a_solo_seat_must_beat_the_pace_boat_a_tie_loses() -> None:
    state = finished(solo(), [12], pace=12)
    assert state.winners() == [] and state.score_report().winner_names == ["pace boat"]
    assert state.returns() == [-1.0]


@pytest.mark.parametrize(
    ("positions", "pace", "round", "tier"),
    [([11], 10, 12, "bronze"), ([12], 11, 0, "silver"), ([12], 9, 0, "gold")],
    ids=["margin-1", "margin-3", "margin-5"],
)
def test_a_solo_win_returns_plus_one_and_reaches_the_tier_of_its_margin(
    positions: list[int], pace: int, round: int, tier: str
) -> None:
    game = solo()
    assert game.tiers == ["bronze", "silver", "gold"]
    state = finished(game, positions, pace=pace, round=round)
    report = state.score_report()
    assert state.winners() == [0] and report.winner_names == ["P0"] and report.opponent_winners == []
    assert state.returns() == [1.0]
    assert report.tier == tier and report.to_dict()["tier"] == tier


def test_tiers_are_for_the_solo_game_only() -> None:
    assert tw.load(NAME, players=2, pace_boat=True).tiers == []
    state = finished(tw.load(NAME, players=2, pace_boat=True), [12, 3], pace=2)
    assert state.score_report().tier is None


def test_a_shared_win_of_every_seat_is_a_draw() -> None:
    state = finished(tw.load(NAME, players=3), [12, 12, 12])
    assert state.winners() == [0, 1, 2] and state.returns() == [0.0, 0.0, 0.0]
    state = finished(tw.load(NAME, players=3, pace_boat=True), [3, 4, 5], pace=12)
    assert state.winners() == [] and state.returns() == [-1.0, -1.0, -1.0]


def test_simulation_says_who_or_what_won_and_the_tier() -> None:
    game = solo()
    raw = game.simulate(200, 1, 1)
    assert raw["opponents"] == ["pace boat"] and raw["tiers"] == game.tiers
    wins, pace_wins, tiers = raw["winners"][:, 0], raw["opponent_wins"][:, 0], raw["tier"]
    assert raw["opponent_scores"].shape == (200, 1) and tiers.shape == (200,)
    assert wins.any() and pace_wins.any()
    # A solo seat wins exactly when the pace boat does not, and only a win reaches a tier.
    assert np.array_equal(wins, ~pace_wins)
    assert ((tiers >= 0) == wins).all() and set(tiers.tolist()) <= {-1, 0, 1, 2}
    margin = raw["scores"][:, 0] - raw["opponent_scores"][:, 0]
    assert (tiers[margin >= 5] == 2).all() and (tiers[(margin >= 1) & (margin <= 2)] == 0).all()


# ---- 7. secret simultaneous choices -------------------------------------------------------------


def test_a_secret_sail_setting_is_hidden_from_the_other_seats() -> None:
    game = tw.load(NAME, players=3)
    state = game.new_state(5, explicit_chance=True)
    assert state.current_player == 0 and not state.is_chance  # the race opens with a decision
    assert state.decision_is_secret
    for a in state.legal_actions():
        assert state.action_to_string(a) == f"set sails to {a + 1}"
        assert state.action_to_string(a, observer=0) == f"set sails to {a + 1}"
        for q in (1, 2):
            assert state.action_to_string(a, observer=q) == "P0 sets sails in secret"
    state.apply("set sails to 3")
    # P0 sees its setting; the others see that it is set, not what it is.
    assert "P0 at 0 sails 3" in state.observation_string(0)
    assert "P0 at 0 sails set" in state.observation_string(1) and "sails 3" not in state.observation_string(1)
    assert "sails 3" not in str(state) and "P0 at 0 sails 3" in state.render()
    twin = game.new_state(5, explicit_chance=True)
    twin.apply("set sails to 1")
    for q in (1, 2):
        assert twin.observation_string(q) == state.observation_string(q)
        np.testing.assert_array_equal(twin.observation_tensor(q), state.observation_tensor(q))
    assert twin.observation_string(0) != state.observation_string(0)
    # Resampling for another seat redraws the hidden setting; P0's own view never changes.
    assert {state.resample(1, seed).render() for seed in range(20)} == {
        game.new_state(5).render().replace("P0 at 0 sails -", f"P0 at 0 sails {s}") for s in (1, 2, 3)
    }
    # Once every seat has set its sails the wind reveals them: not secret, the same to all.
    state.apply(0)
    state.apply(1)
    assert state.is_chance and not state.decision_is_secret
    wind = state.legal_actions()[0]
    assert {state.action_to_string(wind, observer=q) for q in range(3)} == {state.action_to_string(wind)}
    state.apply(wind)
    assert "(last 3)" in state.observation_string(1)


def test_observer_out_of_range() -> None:
    state = tw.load(NAME, players=2).new_state(1)
    raises(ValueError, lambda: state.action_to_string(0, observer=2), "player 2")


# ---- 9. a saved-state format version for each game ---------------------------------------------


def test_saved_states_carry_regattas_own_format_version() -> None:
    versions = {name: tw.load(name).state_format for name in REGISTERED}
    assert versions[NAME] == 1
    # Each game has its own version: regatta's is not another game's (North Wind is at 3).
    assert any(v != versions[NAME] for name, v in versions.items() if name != NAME)
    for c in configurations(NAME):
        game = tw.load(NAME, **c)
        assert game.state_format == 1
        assert json.loads(game.new_state(1).to_json())["format"] == 1
