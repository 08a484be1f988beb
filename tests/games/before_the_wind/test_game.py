"""Before the Wind through the Python API: what is particular to it (the shared tests in
`tests/` cover it with every other game; the rules are tested in
`src/games/before_the_wind/tests.rs`)."""

from __future__ import annotations

import tradewinds as tw
from conftest import CONFIGS

NAME = "before-the-wind"
GAME = [c for c in CONFIGS if c.game == NAME]

L16 = "large ship (1 apple, 1 cheese, 1 spice, 1 silk) worth 16 VP"
HARBOUR4 = [L16, "large ship (2 apples, 2 cheese) worth 18 VP", "large ship (2 cheese, 2 silk) worth 14 VP",
            "large ship (2 spices, 2 silk) worth 14 VP", "small ship (1 apple) worth 5 VP",
            "small ship (1 silk) worth 3 VP", "small ship (1 cheese, 1 spice) worth 8 VP"]


def test_before_the_wind_is_listed_for_two_to_four_players_and_both_banks() -> None:
    # Listed after its independent audit; every player count with either bank (ruling 17).
    assert NAME in tw.GAMES
    assert [(c.players, c.options["bank"]) for c in GAME] == [
        (n, bank) for n in (2, 3, 4) for bank in ("unlimited", "limited")]
    game = tw.load(NAME)
    assert game.players == 3 and game.opponents == [] and game.tiers == []
    assert game.state_format == 2
    assert tw.data_path(NAME).is_file()


def test_money_is_secret_in_each_seats_view_and_redrawn_by_resampling() -> None:
    # Ruling 2: a seat sees its own purse only; resampling draws the others' afresh.
    game = tw.load(NAME, players=3)
    state = game.setup({"harbour": HARBOUR4[:6], "players": [{"money": 30}, {"money": 9}, {"money": 40}]})
    view = state.observation_string(1)
    assert "P1: 0 VP (0 ships), 9 guilders" in view and "30 guilders" not in view and "40 guilders" not in view
    purses = {tuple(line for line in state.resample(1, seed).render().splitlines() if line.startswith(("P0", "P2")))
              for seed in range(10)}
    assert len(purses) > 1
    assert all(state.resample(1, seed).observation_string(1) == view for seed in range(10))


def test_the_rulebooks_auction_example_through_the_api() -> None:
    # 6.0: Garik (P0) takes the Receive Goods card; Larisa (P1) offers 4, Oleg (P2) 7, Sasha
    # (P3) passes; Garik takes Oleg's 7. Larisa takes a Load Goods card; Sasha offers 5; Larisa
    # pays him 5 and keeps it.
    game = tw.load(NAME, players=4)
    receive, load = "Receive 2 apples, 1 spice", "Load Goods or Profit 8"
    state = game.setup({"harbour": HARBOUR4,
                        "display": [receive, load, "Store 4 goods for 18 guilders", "Receive 2 goods of choice"]})
    for move in [f"take:{receive}", f"bid-for:P0's {receive}", "bid:4", "bid:7", "pass",
                 "sell-to:P2 for 7 guilders", f"take:{load}", f"bid-for:P1's {load}",
                 "bid:5", "keep-paying:P3 5 guilders"]:
        state.apply(move)
    table = state.render()
    assert "P0: 0 VP (0 ships), 29 guilders" in table
    assert "P1: 0 VP (0 ships), 17 guilders" in table
    assert "P2: 0 VP (0 ships), 15 guilders" in table
    assert "P3: 0 VP (0 ships), 27 guilders" in table
    # Money is secret at the table (ruling 2).
    assert "guilders secret" in str(state) and "29 guilders" not in str(state)


def test_the_score_report_has_the_tie_breakers() -> None:
    game = tw.load(NAME, players=2)
    state = game.setup({"harbour": HARBOUR4[:5], "play": True,
                        "players": [{"vp": 60, "warehouse": {"silk": 2}}, {"vp": 60, "warehouse": {"silk": 3}}]})
    assert state.is_terminal
    report = state.score_report()
    assert report.winners == [1]
    assert report.tie_breakers == ["goods in the warehouse", "guilders"]
