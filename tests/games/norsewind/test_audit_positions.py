"""Norsewind through the Python API: the positions of its independent audit, played through the
public setup helper (`test_game.py` has the rest; the rules are tested in
`src/games/norsewind/tests.rs`)."""

from __future__ import annotations

import pytest

import tradewinds as tw

NAME = "norsewind"

# P0 cannot place an inn anywhere (Northumbria's different-types tile holds an inn, the other
# kingdoms are full) but could place another type in Northumbria; P1 has no room at all.
P0_FULL = {"kingdoms": [{"buildings": ["inn-6"]}, {"buildings": ["farm-6", "ship-1"]},
                        {"buildings": ["farm-1", "farm-2", "farm-3", "farm-4"]},
                        {"buildings": ["ship-2", "ship-3", "ship-4", "ship-5"]}]}
P1_FULL = {"kingdoms": [{"buildings": ["start-1", "start-3", "ship-6", "start-4"]}, {"buildings": ["start-2", "start-5"]},
                        {"buildings": ["reserve-1", "reserve-2", "reserve-3", "reserve-4"]},
                        {"buildings": ["reserve-5", "blacksmith-1", "blacksmith-2", "church-1"]}]}
TILES = ["different-types", "two-buildings", "shield-space", "prestige-space"]
INNS = ["inn-1", "inn-2", "inn-3", "inn-4", "inn-5"]


def names(state: tw.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_a_market_renewed_by_the_rare_case_does_not_let_a_pass_end_the_game() -> None:
    # "If all cards in the market have a cost you cannot afford, discard all 5 cards in the
    # market, and reveal 5 new cards from the deck to form a new market."
    game = tw.load(NAME, players=2)
    state = game.setup({"tiles": TILES, "market": INNS,
                        "players": [{"coins": 5, **P0_FULL}, {"coins": 0, **P1_FULL}]})
    assert names(state) == ["pass"]
    state.apply("pass")
    # P1 cannot pay any inn: taking action A, P1 renews the market (chance resolved at once,
    # ruling 8); it brings P0 cards to build (ruling 7), and P1 passes.
    assert state.current_player == 1 and names(state) == ["renew"]
    state.apply("renew")
    assert state.current_player == 1 and names(state) == ["pass"]
    state.apply("pass")
    assert not state.is_terminal
    assert state.current_player == 0
    assert any(n.startswith("build:") for n in names(state)), names(state)


def test_a_returned_castle_is_open_to_the_other_players_at_once() -> None:
    # "If there is already a castle in the kingdom, it is replaced by the new castle and returned
    # to the castle display." Only the player who returned it waits for the next building.
    game = tw.load(NAME, players=2)
    state = game.setup({"tiles": TILES, "market": INNS, "display": ["castle-2"],
                        "players": [{"coins": 5, "kingdoms": [{**P0_FULL["kingdoms"][0]}, P0_FULL["kingdoms"][1],
                                                                {"castle": "castle-1", **P0_FULL["kingdoms"][2]}, P0_FULL["kingdoms"][3]]},
                                    {"coins": 4, **P1_FULL}]})
    state.apply("castle:castle-2:mercia")
    assert "castle-1 (castle, costs 4, 0 helmets, 2 shields (+2 space), 1 prestige (+1 space)) " \
           "[P0 returned it: not for P0 before the next building]" in str(state)
    assert names(state) == [f"castle:castle-1:{k}" for k in ("northumbria", "east-anglia", "mercia", "wessex")]


@pytest.mark.parametrize("description, field", [
    ({"passes": 2}, "passes"),
    ({"display": ["castle-1"], "players": [{"locked": ["farm-1"]}, {}]}, "players[0].locked[0]"),
])
def test_the_setup_helper_names_the_bad_field(description: dict[str, object], field: str) -> None:
    game = tw.load(NAME, players=2)
    with pytest.raises(tw.SetupError, match=field.replace("[", r"\[").replace("]", r"\]")):
        game.setup(description)


def test_saved_states_are_of_format_3() -> None:
    assert tw.load(NAME, players=2).state_format == 3
