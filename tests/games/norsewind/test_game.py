"""Norsewind through the Python API: what is particular to it (the shared tests in `tests/`
cover it with every other game; the rules are tested in `src/games/norsewind/tests.rs`).
Quotations are from the rulebook."""

from __future__ import annotations

import re

import pytest

import tradewinds as tw
from conftest import CONFIGS
from tradewinds._core import REGISTERED

NAME = "norsewind"
NORSEWIND = [c for c in CONFIGS if c.game == NAME]
KINGDOMS = ["Northumbria", "East Anglia", "Mercia", "Wessex"]
TILES = ["shield-space", "two-buildings", "castle-seven", "prestige-space"]
EMPTY_MARKET = [None] * 5

# Lucy's final position of the rulebook's scoring example (docs/games/norsewind.md, "Component data").
LUCY = {
    "phase": "game-over",
    "tiles": TILES,
    "market": EMPTY_MARKET,
    "players": [
        {"coins": 3, "start_card": "start-2", "kingdoms": [
            {"castle": "castle-5", "castle_discs": ["shield"], "tile": "disc",
             "buildings": [{"card": "church-1", "discs": ["prestige"]}, "ship-3", "ship-4", "ship-5"]},
            {"castle": "castle-3", "castle_discs": ["shield"],
             "buildings": [{"card": "start-2", "figures": ["red"]}, "inn-3"]},
            {"castle": "castle-4", "castle_discs": ["shield"],
             "buildings": ["blacksmith-1", "blacksmith-2", "blacksmith-3", "ship-6"]},
            {"castle": "castle-6", "castle_discs": ["shield", "prestige"], "tile": "disc",
             "buildings": [{"card": "farm-1", "figures": ["purple"]}, {"card": "farm-2", "figures": ["red"]},
                           {"card": "farm-3", "figures": ["yellow"]}, {"card": "farm-4", "figures": ["blue"]}]},
        ]},
        {"coins": 0},
    ],
}


def names(state: tw.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def solo_end(coins: int, vikings: list[list[str]] | None = None, level: int = 1) -> tw.State:
    """A finished solo game: P0 has `coins` and a castle in each kingdom (shields 2-10, no
    citizens, so each kingdom scores 0); the Vikings' display as given."""
    game = tw.load(NAME, players=1, level=level)
    return game.setup({
        "phase": "game-over", "market": EMPTY_MARKET,
        "tiles": ["shield-space", "prestige-space", "citizen-coin", "fourth-building"],
        "vikings": {"rows": vikings or [[], [], [], []]},
        "players": [{"coins": coins, "kingdoms": [{"castle": c} for c in
                                                   ("castle-1", "castle-2", "castle-3", "castle-5")]}],
    })


# ----- options ------------------------------------------------------------------------------------


def test_configurations_cover_every_player_count_variant_and_solo_level() -> None:
    # "Solo Game ... Level 1 ... 7"; the two variants for 2 to 4 players. The solo game's level
    # sets its kingdom tiles, so it has no random_kingdom_tiles configuration (ruling 15).
    assert NAME in REGISTERED
    got = [(c.players, c.options["free_start"], c.options["random_kingdom_tiles"], c.options["level"])
           for c in NORSEWIND]
    solo = [(1, free, False, level) for free in (False, True) for level in range(1, 8)]
    multi = [(n, free, rnd, 1) for n in (2, 3, 4) for free in (False, True) for rnd in (False, True)]
    assert got == solo + multi
    game = tw.load(NAME)
    assert game.players == 2
    assert game.options == {"castle_lock": True, "free_start": False, "level": 1, "max_turns": 1000,
                            "players": 2, "random_kingdom_tiles": False}
    assert game.opponents == [] and game.tiers == []
    assert tw.data_path(NAME).is_file()


def test_the_solo_game_has_the_vikings_and_four_tiers() -> None:
    # "You compete with an automated opponent, called the Vikings." "Bronze (+1-8) Silver (+9-16)
    # Gold (+17-24) Platinum (+>=25)". The Vikings are an opponent, not a seat.
    for level in range(1, 8):
        game = tw.load(NAME, players=1, level=level)
        assert game.players == 1
        assert game.opponents == ["Vikings"]
        assert game.tiers == ["bronze", "silver", "gold", "platinum"]


@pytest.mark.parametrize(("options", "field"), [
    ({"players": 0}, "players"),
    ({"players": 5}, "players"),
    ({"players": 2, "level": 3}, "level"),
    ({"players": 1, "level": 0}, "level"),
    ({"players": 1, "level": 8}, "level"),
    ({"players": 1, "random_kingdom_tiles": True}, "random_kingdom_tiles"),
    ({"free_start": "yes"}, "free_start"),
    ({"random_kingdom_tiles": 1}, "random_kingdom_tiles"),
    ({"vikings": True}, "vikings"),
])
def test_bad_options_raise_an_option_error_naming_the_option(options: dict[str, object], field: str) -> None:
    with pytest.raises(tw.OptionError, match=f'invalid option "{field}"'):
        tw.load(NAME, **options)


def test_level_one_is_the_default_and_allowed_with_any_player_count() -> None:
    # `level` applies to the solo game only; its default (1) does not stand in the way of 2-4 players.
    assert tw.load(NAME, players=3, level=1).players == 3
    assert tw.load(NAME, players=1).options["level"] == 1


# ----- setup by player count ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "supply", "cards"), [(1, 4, 35), (2, 8, 35), (3, 10, 49), (4, 12, 63)])
def test_setup_follows_the_player_count(players: int, supply: int, cards: int) -> None:
    # "2-player game: 8 figures in each supply; 3-player game: 10 ...; 4-player game: 12";
    # solo: "Place 4 colored citizen figures in each citizen supply and 4 neutral citizen figures
    # on the castle tile"; otherwise "Place 4 neutral citizen figures (white) per player".
    # Decks: "2-player game: Use the 1+-player deck (35 cards)", 3 players add the 3+-player deck
    # (14), 4 players the 4-player deck (14); the solo game uses the 1+-player deck.
    for seed in range(5):
        table = tw.load(NAME, players=players).new_state(seed=seed).render()
        assert sorted(re.findall(r"supply \d: (\d+) (purple|red|yellow|blue) citizens", table),
                      key=lambda x: x[1]) == sorted([(str(supply), c) for c in ("purple", "red", "yellow", "blue")],
                                                    key=lambda x: x[1])
        assert "supply 5: 24 upgrade discs" in table
        neutral = 4 if players == 1 else 4 * players
        assert f"Neutral figures on the castle tile: {neutral}" in table
        sizes = re.search(r"Draw deck (\d+) cards, reserve deck 5 cards", table)
        assert sizes is not None
        deck = int(sizes.group(1))
        market = len(re.findall(r"slot \d: \S+ \((farm|inn|ship|blacksmith|church),", table))
        display = table.split("Castle display:")[1].split("Neutral figures")[0].count("(castle,")
        # "Reveal 1 card ... in each slot ... Place any castle cards that are revealed in a separate
        # display ... until you have 5 buildings in the market."
        assert market == 5
        if players == 1:
            assert display <= 4  # "There may be a maximum of 4 cards in the castle display."
            assert deck + market + display <= cards
        else:
            assert deck + market + display == cards


def test_the_starting_player_has_the_lowest_starting_number_and_the_viking_ship_in_solo() -> None:
    # "The player with the lowest number is the starting player"; solo: "Place the Viking ship
    # tile above a random card in the market", and "You start the game by taking a turn".
    for seed in range(5):
        state = tw.load(NAME, players=1).new_state(seed=seed)
        assert state.current_player == 0 and not state.is_chance
        assert state.render().count("<- Viking ship") == 1
        assert all(name.startswith(("build:", "castle:")) for name in names(state))


def test_two_green_and_two_red_tiles_unless_the_variant_draws_four_at_random() -> None:
    # "The oldest player draws 2 random green and 2 random red kingdom tiles"; variant: "draws 4
    # random kingdom tiles of their player color (instead of 2 green and 2 red kingdom tiles)".
    def greens(state: tw.State) -> int:
        line = next(line for line in state.render().splitlines() if line.startswith("Kingdom tiles:"))
        assert line.count("(green)") + line.count("(red)") == 4
        return line.count("(green)")

    assert {greens(tw.load(NAME, players=3).new_state(seed=s)) for s in range(30)} == {2}
    assert len({greens(tw.load(NAME, players=3, random_kingdom_tiles=True).new_state(seed=s))
                for s in range(60)}) > 1


@pytest.mark.parametrize(("level", "green_tiles", "red_vikings"),
                         [(1, 2, 0), (2, 2, 1), (3, 2, 2), (4, 1, 2), (5, 1, 3), (6, 0, 3), (7, 0, 4)])
def test_each_level_sets_its_mix_of_kingdom_tiles_and_viking_cards(level: int, green_tiles: int,
                                                                    red_vikings: int) -> None:
    # "Level / Kingdom tiles / Viking cards": 1: 2 green + 2 red / 4 green; 2: 2+2 / 3 green + 1 red;
    # 3: 2+2 / 2+2; 4: 1 green + 3 red / 2+2; 5: 1+3 / 1+3; 6: 4 red / 1+3; 7: 4 red / 4 red.
    for seed in range(5):
        table = tw.load(NAME, players=1, level=level).new_state(seed=seed).render()
        tiles = next(line for line in table.splitlines() if line.startswith("Kingdom tiles:"))
        assert tiles.count("(green)") == green_tiles
        assert table.count("(red side: 4 helmets") == red_vikings
        assert table.count("(green side: 2 helmets") == 4 - red_vikings


def test_the_free_start_variant_lets_each_player_choose_the_kingdom() -> None:
    # "During PLAYER SETUP, place your starting card in the kingdom of your choice, adhering to any
    # restrictions on the corresponding kingdom tile."
    state = tw.load(NAME, players=2, free_start=True).new_state(seed=4)
    assert names(state) and all(n.startswith("start:") for n in names(state))
    first = state.current_player
    state.apply(names(state)[-1])
    assert state.current_player != first and all(n.startswith("start:") for n in names(state))
    state.apply(names(state)[0])
    assert all(n.startswith(("build:", "castle:")) for n in names(state))


# ----- turns through the setup helper ---------------------------------------------------------


def test_lucys_inn_through_the_setup_helper() -> None:
    # "Lucy chose an inn from the market. The inn costs 2 coins, which she pays to the general
    # supply." "This kingdom card grants 2 coins for each ship in other kingdoms. Since Lucy has 3
    # ships, she gains a total of 6 coins." "If she chooses a blue citizen, she must place it on a
    # blue citizen space. If she chooses an upgrade disc, she must place it on a shield space (for
    # free) OR on a prestige space for 2 coins."
    game = tw.load(NAME, players=2)
    state = game.setup({"tiles": TILES, "market": ["farm-5", "farm-6", "farm-7", "inn-1", "inn-3"],
                        "players": [{"coins": 2, "kingdoms": [{"buildings": ["ship-3", "ship-4", "ship-5"]},
                                                              {"buildings": ["start-2"]}]},
                                    {"coins": 0}]})
    assert "build:inn-3:east-anglia" in names(state)
    state.apply("build:inn-3:east-anglia")
    assert "P0 (purple), starting player: 6 coins" in state.render()
    options = names(state)
    assert "citizen:blue:east-anglia:inn-3" in options
    assert "shield:northumbria:tile" in options and "prestige:wessex:tile" in options
    assert not any(o.startswith(("citizen:red", "citizen:purple")) for o in options)
    before = state.render()
    with pytest.raises(tw.IllegalActionError):
        state.apply("citizen:red:east-anglia:inn-3")
    assert state.render() == before  # a refused move leaves the state as it was


def test_a_castle_in_the_solo_game_gives_another_turn_at_once() -> None:
    # "if you choose action B (Acquire a Castle), you take another turn immediately."
    game = tw.load(NAME, players=1)
    state = game.setup({"tiles": TILES, "display": ["castle-1"],
                        "players": [{"coins": 4, "kingdoms": [{"buildings": ["ship-1"]}]}]})
    market = [line for line in state.render().splitlines() if line.startswith("  slot")]
    state.apply("castle:castle-1:wessex")
    assert state.current_player == 0 and not state.is_chance and not state.is_terminal
    assert all(n.startswith(("build:", "castle:", "pass")) for n in names(state))
    assert [line for line in state.render().splitlines() if line.startswith("  slot")] == market


# ----- scoring ---------------------------------------------------------------------------------


def test_the_rulebooks_scoring_example_scores_64_points() -> None:
    # "3 remaining coins = 3 points." Northumbria "= 12 points", East Anglia "= 8 points",
    # Mercia "scores -7 points", Wessex "= 48 points". "Lucy's final score = 64 points."
    state = tw.load(NAME, players=2).setup(LUCY)
    assert state.is_terminal
    report = state.score_report()
    assert report.categories == ["coins", *KINGDOMS]
    assert report.points[0] == [3, 12, 8, -7, 48]
    assert report.totals[0] == 64
    assert report.winners == [0]
    assert state.scores()[0] == 64


def test_ties_go_to_the_most_coins_then_the_victory_is_shared() -> None:
    # "In case of a tie, the tied player with most remaining coins wins. If there is still a tie,
    # the victory is shared." Each seat's four kingdoms score -7 (helmets, no shields).
    game = tw.load(NAME, players=3)
    shared = game.setup({"phase": "game-over", "tiles": TILES, "market": EMPTY_MARKET,
                         "players": [{"coins": 10}, {"coins": 10}, {"coins": 9}]})
    report = shared.score_report()
    assert report.totals == [10 - 28, 10 - 28, 9 - 28]
    assert report.winners == [0, 1]
    assert report.tie_breakers == ["most remaining coins"]
    # Equal totals, different coins: P0's castle saves Northumbria's -7 (5 shields against the
    # tile's 2 helmets, no citizens: 0 points); P1 has 7 coins more instead.
    by_coins = game.setup({"phase": "game-over", "tiles": TILES, "market": EMPTY_MARKET,
                           "players": [{"coins": 3, "kingdoms": [{"castle": "castle-3"}]}, {"coins": 10},
                                       {"coins": 0}]})
    report = by_coins.score_report()
    assert report.points[0] == [3, 0, -7, -7, -7] and report.points[1] == [10, -7, -7, -7, -7]
    assert report.totals[:2] == [-18, -18]
    assert report.winners == [1] and by_coins.winners() == [1]


def test_the_solo_score_report_shows_the_vikings_and_the_tier() -> None:
    # "If you score more than the Vikings, you win." "bronze = 1-8 points more than the Vikings",
    # silver 9-16, gold 17-24, "Platinum (+>=25)".
    for coins, tier in [(1, "bronze"), (8, "bronze"), (9, "silver"), (16, "silver"), (17, "gold"),
                        (24, "gold"), (25, "platinum"), (60, "platinum")]:
        state = solo_end(coins)
        report = state.score_report()
        assert report.totals == [coins]
        assert report.opponents == [("Vikings", [0, 0, 0, 0, 0], 0)]
        assert report.winners == [0] and report.opponent_winners == []
        assert report.tier == tier, coins
        assert f"tier reached: {tier}" in str(report)
        assert state.winners() == [0]


def test_the_vikings_score_their_cards_value_where_their_helmets_exceed_your_shields() -> None:
    # "For each of the 4 kingdoms, count the number of helmets on all building cards as well as the
    # Viking card itself. If this exceeds the number of shields in your corresponding kingdom, the
    # Vikings score." "Since the Vikings have 1 more helmet than your shields in the Northumbria
    # region, they score this kingdom. This kingdom grants 6 points for each card for a total of 18
    # (6 x 3) points for the Vikings." Viking card 2 helmets + farm-1 (2) + farm-2 (2) + farm-7 (0)
    # = 6 helmets against castle-3's 5 shields.
    game = tw.load(NAME, players=1)
    state = game.setup({"phase": "game-over", "market": EMPTY_MARKET, "tiles": TILES,
                        "vikings": {"rows": [["farm-1", "farm-2", "farm-7"], [], [], []]},
                        "players": [{"coins": 0, "kingdoms": [{"castle": "castle-3"}]}]})
    report = state.score_report()
    assert report.opponents == [("Vikings", [0, 18, 0, 0, 0], 18)]
    assert report.totals == [-21]


def test_a_lost_solo_game_has_no_winner() -> None:
    # "If you score more than the Vikings, you win." Otherwise the player does not win: no seat
    # wins, no tier is reached. The Vikings outscore the player: they are the winner (an opponent).
    lost = solo_end(5, vikings=[["farm-1", "farm-2", "farm-7"], [], [], []])
    report = lost.score_report()
    assert report.totals == [5] and report.opponents == [("Vikings", [0, 18, 0, 0, 0], 18)]
    assert report.winners == [] and lost.winners() == []
    assert report.tier is None
    assert report.opponent_winners == [0]
    assert lost.returns()[0] < 0
    # A tie is no win for the player and none for the Vikings (ruling 16).
    tie = solo_end(0).score_report()
    assert tie.totals == [0] and tie.opponents[0][2] == 0
    assert tie.winners == [] and tie.opponent_winners == [] and tie.tier is None


def test_simulate_records_the_vikings_and_the_tiers_of_solo_games() -> None:
    r = tw.simulate(NAME, 40, players=1, level=3, seed=5, agents=["greedy"])
    assert r.opponents == ["Vikings"] and r.tiers == ["bronze", "silver", "gold", "platinum"]
    assert ((r.tier >= 0) == r.winners[:, 0]).all()  # a tier only for a won game
    assert not (r.winners[:, 0] & r.opponent_wins[:, 0]).any()
    margin = r.scores[:, 0] - r.opponent_scores[:, 0]
    assert (r.winners[:, 0] == (margin > 0)).all()
    assert (r.opponent_wins[:, 0] == (margin < 0)).all()
    bounds = [1, 9, 17, 25]
    for m, t in zip(margin, r.tier):
        assert t == (sum(m >= b for b in bounds) - 1 if m > 0 else -1)


# ----- the setup helper --------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_set_up_positions_round_trip_through_json_and_bytes(players: int) -> None:
    game = tw.load(NAME, players=players)
    desc = {"tiles": TILES, "market": ["farm-1", "inn-3", "ship-3", "blacksmith-5", "church-1"],
            "display": ["castle-4", "castle-1"],
            "players": [{"coins": 9, "kingdoms": [{"buildings": ["ship-1", "ship-2", "farm-2"]},
                                                  {"castle": "castle-3"}]}] + [{}] * (players - 1)}
    state = game.setup(desc, seed=3)
    for copy in (game.state_from_json(state.to_json()), game.state_from_bytes(state.to_bytes())):
        assert copy.fingerprint() == state.fingerprint()
        assert copy.render() == state.render()
        assert names(copy) == names(state)
    assert "P0 (purple), starting player: 9 coins" in state.render()
    # The position plays on to the end like any other.
    played = tw.load(NAME, players=players).setup(desc, seed=3)
    while not played.is_terminal:
        played.apply(played.legal_actions()[0])
    assert played.score_report().terminal


@pytest.mark.parametrize(("desc", "field"), [
    ({"tiles": ["shield-space", "tower"]}, "tiles"),
    ({"market": ["farm-99", None, None, None, None]}, "market"),
    ({"market": ["farm-1", "farm-1", None, None, None]}, "market"),
    ({"players": [{"coins": -1}]}, "coins"),
])
def test_bad_descriptions_raise_a_setup_error_naming_the_field(desc: dict[str, object], field: str) -> None:
    with pytest.raises(tw.SetupError, match=field):
        tw.load(NAME, players=2).setup(desc)
