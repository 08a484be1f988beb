"""Mistwind through the Python API: what is particular to it (the shared tests in `tests/`
cover it with every other game)."""

from __future__ import annotations

import pytest

import tradewinds as tw
from conftest import CONFIGS
from tradewinds._core import REGISTERED

NAME = "mistwind"
MISTWIND = [c for c in CONFIGS if c.game == NAME]


def test_mistwind_is_listed_for_one_to_five_players_each_solo_difficulty_and_each_board_side() -> None:
    # "How to Win the Game": the solo mode's three goals, each a configuration; "Alternative
    # Tableau Sides": side A or B of the resource board with each of them.
    assert NAME in REGISTERED and NAME in tw.GAMES
    assert sorted(c.players for c in MISTWIND) == sorted([1, 1, 1, 2, 3, 4, 5] * 4)
    for rb in ["A", "B"]:
        for wb in ["A", "B"]:
            listed = [c for c in MISTWIND if c.options["resource_board"] == rb and c.options["worker_board"] == wb]
            assert sorted(c.options["difficulty"] for c in listed if c.players == 1) == ["easy", "hard", "medium"]
    game = tw.load(NAME)
    assert game.players == 3
    assert game.state_format == 6


def test_worker_board_side_b_trades_are_answered_by_the_other_player() -> None:
    # "You may trade up to 1 resource of your choice with up to 2 different players" (ruling
    # 32): P0 offers, P1 decides, and the turn returns to P0.
    game = tw.load(NAME, players=3, worker_board="B")
    state = game.setup({"players": [{"wood": 1, "steel": 0, "krill": 0, "coins": 0},
                                    {"wood": 0, "steel": 1, "krill": 0, "coins": 0},
                                    {"wood": 0, "steel": 0, "krill": 0, "coins": 0}]})
    state.apply("play-4:worker")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["trade-with:P1", "end-trades"]
    state.apply("trade-with:P1")
    state.apply("offer:1 wood for 1 steel")
    assert state.current_player == 1
    saved = game.state_from_json(state.to_json())
    assert saved == state
    state.apply("accept-trade")
    assert state.current_player == 0
    assert "P0 (starting player): wood 0 steel 1 krill 2 coins 0" in str(state)


def test_resource_board_side_b_hands_each_choice_to_the_player_it_belongs_to() -> None:
    # "The player to your left names a type of resource. Receive 5 resources that are not of
    # the named type" (rulings 25): P1, to P0's left, names the type; P0 then receives five.
    game = tw.load(NAME, players=3, resource_board="B")
    state = game.setup({"players": [{"wood": 0, "steel": 0, "krill": 0, "coins": 0}]})
    state.apply("play-1:resources")
    assert state.current_player == 1
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["name:wood", "name:steel", "name:krill", "name:coins"]
    state.apply("name:wood")
    assert state.current_player == 0
    for name in ["receive:coins"] * 5:
        state.apply(name)
    assert "P0 (starting player): wood 0 steel 0 krill 0 coins 5" in str(state)


def test_a_turn_through_the_setup_helper() -> None:
    # "an outpost costs 1 wood and 1 steel"; the whale then leaves Fernwick for free (the new
    # outpost), pays 1 krill to leave the port it passes, and loads its new port's cargo.
    game = tw.load(NAME, players=3)
    state = game.setup({"players": [{"wood": 2, "steel": 2, "krill": 1, "whales": [{"port": "Fernwick"}]}],
                        "port_row": [1, 2, 3, 4, 5]})
    state.apply("play-2:port Fernwick")
    state.apply("build-outpost")
    state.apply("move-whale-1:Sporeholm")
    state.apply("end-moves")
    state.apply("load-1")
    text = str(state)
    assert "P0 (starting player): wood 1 steel 1 krill 0 coins 2" in text
    assert "outposts (1): Fernwick" in text
    assert "1@Sporeholm (green, mushrooms) carrying mushrooms" in text


def test_the_score_report_has_the_seven_categories_and_the_tie_breaker() -> None:
    report = tw.load(NAME).setup({"players": [{"territory_tiles": {"green": 2}, "capital_tiles": {"purple": 1}}]}).score_report()
    assert report.categories == ["starting player marker", "demand tiles", "cargo majority", "achievements",
                                 "network tiles", "network cards", "characters"]
    assert report.points[0][:3] == [2, 4, 10]
    assert report.tie_breakers == ["wood and steel left"]


def test_setup_errors_name_the_field() -> None:
    with pytest.raises(tw.SetupError, match="players\\[0\\].whales\\[0\\].port"):
        tw.load(NAME).setup({"players": [{"whales": [{"port": "Atlantis"}]}]})


def test_a_one_time_character_pays_for_the_build_of_the_same_turn() -> None:
    # "The ability may be used during your turn in the current or a later round (one-time
    # use)": Forester (3 wood) and Ironmonger (3 steel) pay for the outpost of the port card
    # just played.
    game = tw.load(NAME, players=3)
    state = game.setup({"players": [{"wood": 0, "steel": 0, "krill": 0, "coins": 5, "whales": [{"port": "Fernwick"}],
                                     "characters": ["Forester", "Ironmonger"]}],
                        "port_row": [1, 2, 3, 4, 6]})
    state.apply("play-1:port Mossgate")
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert "use:Forester" in names and "build-outpost" not in names
    state.apply("use:Forester")
    state.apply("use:Ironmonger")
    state.apply("build-outpost")
    text = str(state)
    assert "P0 (starting player): wood 2 steel 2 krill 0 coins 5" in text
    assert "outposts (1): Mossgate" in text


def test_setup_refuses_two_network_cards_of_one_difficulty() -> None:
    # "give one of each difficulty level to every player"
    with pytest.raises(tw.SetupError, match="players\\[0\\].network_cards"):
        tw.load(NAME).setup({"players": [{"network_cards": [1, 2, 11]}]})


def test_the_two_player_game_moves_two_automa_players_by_chance() -> None:
    # "Alternating turns between PLA and AUT are now simulated (turn order: AUT, PLA, AUT,
    # PLA)" and "Draw a random action chip for the AUT and, starting in zone 1, carry out the
    # following steps": P0 holds resource field 3, so AUT1's chip 3 goes to character field 3.
    game = tw.load(NAME, players=2)
    assert game.opponents == ["AUT1", "AUT2"]
    state = game.setup({"resource_fields": {"3": 0}}, explicit_chance=True)
    assert state.is_chance
    assert [state.action_to_string(a) for a in state.legal_actions()][2] == "automa-chip:AUT1 draws chip 3"
    state.apply("automa-chip:AUT1 draws chip 3")
    assert state.current_player == 0
    text = str(state)
    assert "Resource board: 1:- 2:- 3:P0" in text
    assert "chip AUT1" in text.split("Characters:")[1].splitlines()[3]
    report = state.score_report()
    assert [name for name, _, _ in report.opponents] == ["AUT1", "AUT2"]
    assert report.opponents[0][2] == 2  # AUT1 holds the starting player marker


def test_the_solo_mode_blocks_fields_and_reports_the_goal() -> None:
    # "The 3 AUT players begin the game; you are in fourth position. This means you begin with
    # 4 krill" and "If the numbered field for a just-revealed action chip is already
    # occupied, place it on the matching numbered field in the next zone instead. These
    # action fields are blocked for you."
    game = tw.load(NAME, players=1, difficulty="medium")
    assert game.opponents == ["AUT1", "AUT2", "AUT3"]
    assert game.tiers == ["Mushroom Farmer", "Port Worker", "Deep-Mist Diver"]
    state = game.setup({"current": 1}, explicit_chance=True)
    for k in (1, 2, 3):
        state.apply(f"automa-chip:AUT{k} draws chip 2")
    assert state.current_player == 0
    assert "krill 4" in str(state)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert not [m for m in moves if m.startswith("play-2:") and not m.startswith("play-2:port")]
    # A missed goal is a loss with no winning seat.
    end = game.setup({"phase": "game-over", "players": [{"achievements": ["A"]}]})
    report = end.score_report()
    assert report.winners == [] and end.returns() == [-1.0]
    assert any(n.startswith("goal Port Worker (medium)") and "achievement tiles 1 of 2: not met" in n for n in report.notes)
    assert "no winner" in report.to_table()
    # The goal decides: no tie-breaker row.
    assert report.tie_breakers == [] and "tie-break" not in report.to_table()
    # The chip on worker field 4 took the starting player marker.
    with pytest.raises(tw.SetupError, match="worker_fields.4"):
        game.setup({"worker_fields": {"4": 2}, "start_player": 1})


def test_difficulty_is_only_for_the_solo_mode() -> None:
    with pytest.raises(tw.OptionError, match="difficulty"):
        tw.load(NAME, players=3, difficulty="hard")
    assert tw.load(NAME, players=1).options["difficulty"] == "easy"


def test_field5_income_fields_is_an_option_on_by_default_and_not_a_configuration() -> None:
    # Ruling 33: worker board side B's field 5 may use resource board side B's income fields
    # by default; False keeps the other reading.
    assert tw.load(NAME).options["field5_income_fields"] is True
    off = tw.load(NAME, resource_board="B", worker_board="B", field5_income_fields=False)
    assert off.options["field5_income_fields"] is False
    assert all("field5_income_fields" not in c for c in tw.configurations(NAME))
    with pytest.raises(tw.SetupError, match="income_rights"):
        off.setup({"players": [{"income_rights": [2]}, {}, {}], "resource_fields": {"2": 1}, "worker_fields": {"5": 0}})
