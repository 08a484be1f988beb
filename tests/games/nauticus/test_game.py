"""Nauticus through the Python API: what is particular to it (the shared tests in `tests/`
cover it with every other game). It is registered but not listed until its audit."""

from __future__ import annotations

import pytest

import tradewinds as tw
from conftest import CONFIGS
from tradewinds._core import REGISTERED

NAME = "nauticus"
NAUTICUS = [c for c in CONFIGS if c.game == NAME]

LAYOUT = [
    "withdraw money",
    "transport",
    "deliver goods",
    "buy hull parts",
    "buy masts",
    "buy sails",
    "buy goods",
    "score the crowns",
]


def test_nauticus_is_listed_for_two_to_four_players() -> None:
    assert NAME in REGISTERED and NAME in tw.GAMES
    assert [c.players for c in NAUTICUS] == [2, 3, 4]
    game = tw.load(NAME)
    assert game.players == 3
    assert game.state_format == 3


def test_the_hull_example_through_the_setup_helper() -> None:
    # "They buy all 4 hull parts, and therefore must pay 6 Taler and spend 4 workers. 2 blue
    # workers are available to them ... they receive a free hull part of their choice".
    game = tw.load(NAME, players=3)
    state = game.setup({"pointing": 2, "spaces": LAYOUT, "players": [{"extra": False}]})
    state.apply("choose: buy hull parts")
    state.apply("buy: a single hull for 0 Taler")
    state.apply("buy: a bow for 1 Taler")
    state.apply("begin a new ship: the bow")
    state.apply("buy: a stern for 3 Taler")
    names = [state.action_to_string(a) for a in state.legal_actions()]
    [stern] = [n for n in names if n.startswith("put on ship 1: the stern")]
    state.apply(stern)
    state.apply("buy: a centre for 2 Taler")
    state.apply("put in the warehouse: the centre")
    state.apply("take as the gift: a single hull")
    text = str(state)
    assert "P0: 12 points, 9 Taler, 2 workers" in text
    assert "warehouse (3 of 8 spaces): 2 single hull, 1 centre" in text
    assert "ship 1: bow+stern" in text


def test_final_scoring_report_by_category() -> None:
    single = {"hull": ["single hull"], "coat": "whale", "masts": 1, "sails": 1}
    player = {"taler": 8, "workers": 2, "points": 10, "warehouse": {"bow": 1, "whale mast": 1, "coffee": 1},
              "delivered": {"grain": 2, "fish": 3, "coffee": 6},
              "ships": [single, single, {**single, "goods": {"salt": 1}},
                        {"hull": ["bow", "stern"], "coat": "anchor", "masts": 2, "sails": 2, "goods": {"salt": 2}},
                        {"hull": ["bow", "centre", "stern"], "coat": "compass", "masts": 2, "crown_masts": 1,
                         "sails": 1, "crown_sails": 2},
                        {"hull": ["bow", "centre", "stern"], "coat": "lighthouse", "masts": 1, "sails": 1}]}
    report = tw.load(NAME, players=2).setup({"players": [player]}).score_report()
    assert report.categories == ["victory point track", "delivered goods", "completed ships", "remaining material"]
    assert report.points[0] == [10, 39, 34, 7]
    assert report.totals[0] == 90


def test_setup_errors_name_the_field() -> None:
    with pytest.raises(tw.SetupError, match="players\\[0\\].passes"):
        tw.load(NAME, players=2).setup({"players": [{"passes": 4}]})
