"""North Wind's rows of the hostile-input table in docs/reliability.md (the rows about every
game are in `tests/test_hostile.py`): its options, its component data file's fields, its setup
descriptions and the fields of its saved states. One test per row; the row id, H-Pn, starts
each test's docstring."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tradewinds as tw
from conftest import play_to_end, raises

NAME = "north-wind"


def shipped_data() -> dict[str, Any]:
    return json.loads(tw.data_path(NAME).read_text())


def test_options_out_of_range() -> None:
    """H-P8 (North Wind's options) the turn bound out of range or of the wrong type, and a
    data option that is neither a path nor a JSON object."""
    for bad in [0, -1, 100_001, "10", 1.5, 2**64]:
        raises(tw.OptionError, lambda: tw.load(NAME, max_turns=bad), "max_turns")
    raises(tw.OptionError, lambda: tw.load(NAME, data=3), "data")
    raises(TypeError, lambda: tw.load(NAME, data=b"{}"), "data")


def data_cases() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def drop(path: list[Any]) -> Callable[[dict[str, Any]], None]:
        def f(d: dict[str, Any]) -> None:
            node: Any = d
            for k in path[:-1]:
                node = node[k]
            del node[path[-1]]

        return f

    def put(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
        def f(d: dict[str, Any]) -> None:
            node: Any = d
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value

        return f

    def duplicate_name(d: dict[str, Any]) -> None:
        d["sea_cards"][5]["name"] = d["sea_cards"][4]["name"]

    return [
        ("missing field", drop(["rules", "starting_gold"]), "rules"),
        ("missing section", drop(["contracts"]), "(file)"),
        ("extra field", put(["rules", "treasure_chests"], {"value": 1, "source": "printed"}), "rules.treasure_chests"),
        ("extra top-level field", put(["expansion"], True), "expansion"),
        ("negative value", put(["rules", "starting_gold", "value"], -5), "rules.starting_gold.value"),
        ("huge value", put(["rules", "starting_gold", "value"], 2**40), "rules.starting_gold.value"),
        ("value out of range", put(["rules", "max_sail_level", "value"], 50), "rules.max_sail_level.value"),
        ("wrong type", put(["sea_cards", 4, "price"], "cheap"), "sea_cards[4].price"),
        ("unknown enum", put(["sea_cards", 4, "kind"], "volcano"), "sea_cards[4].kind"),
        ("duplicate card name", duplicate_name, "sea_cards[5].name"),
        ("inconsistent start", put(["rules", "starting_cannons", "value"], 9), "rules.starting_cannons.value"),
        ("unknown port", put(["contracts", "Atlantis"], []), "contracts.Atlantis"),
        ("impossible contract", put(["contracts", "Olesand", 0, "wine"], 99), "contracts.Olesand[0].wine"),
        ("no dice faces", put(["event_die"], []), "event_die"),
        ("zero victory tokens", put(["victory_tokens", "3", "value"], 0), "victory_tokens.3.value"),
        ("future data format", put(["format"], 2), "format"),
        ("other game", put(["game"], "south-wind"), "game"),
    ]


@pytest.mark.parametrize("case", data_cases(), ids=lambda c: c[0])
def test_invalid_data_files_name_the_field(case: tuple[str, Callable[[dict[str, Any]], None], str], tmp_path: Path) -> None:
    """H-P18 data files with missing, extra, negative, out-of-range or inconsistent values,
    as a dict and as a file: DataFileError naming the field (the same for both)."""
    _, edit, field = case
    data = shipped_data()
    edit(data)
    raises(tw.DataFileError, lambda: tw.load(NAME, data=copy.deepcopy(data)), f"field `{field}`")
    path = tmp_path / f"{NAME}.json"
    path.write_text(json.dumps(data))
    raises(tw.DataFileError, lambda: tw.load(NAME, data=path), f"field `{field}`")
    raises(tw.DataFileError, lambda: tw.load(NAME, data=str(path)), f"field `{field}`")


def test_too_few_trade_letters_for_the_players() -> None:
    """H-P19 (North Wind) a data file valid alone but impossible for four players (too few
    trade letters to deal)."""
    data = shipped_data()
    data["rules"]["trade_letters_total"]["value"] = 3
    data["rules"]["starting_trade_letters"]["value"] = 1
    assert tw.load(NAME, players=2, data=copy.deepcopy(data)).players == 2
    raises(tw.DataFileError, lambda: tw.load(NAME, players=4, data=data), "rules.trade_letters_total.value")


def test_impossible_setup_descriptions() -> None:
    """H-P20 setup descriptions that describe no legal position: SetupError naming the field."""
    game = tw.load(NAME, players=2)
    for desc, field in [
        ({"active": 2}, "active"),
        ({"ships": [{}, {}, {}]}, "ships"),
        ({"ships": [{"gold": -1}, {}]}, "ships[0].gold"),
        ({"ships": [{"gold": 10**9}, {}]}, "ships[0].gold"),
        ({"ships": [{"sail": 99}, {}]}, "ships[0].sail"),
        ({"ships": [{"crew": ["captain"]}, {}]}, "ships[0].crew"),
        ({"contracts": {"Atlantis": []}}, "contracts.Atlantis"),
        ({"turn": 10**6}, "turn"),
    ]:
        raises(tw.SetupError, lambda: game.setup(desc), f"field `{field}")
    raises(tw.SetupError, lambda: game.setup([]))
    # Values JSON cannot carry are SetupErrors too, naming where they are.
    raises(tw.SetupError, lambda: game.setup({"ships": [{"gold": 2**70}, {}]}), "description.ships[0].gold")
    raises(tw.SetupError, lambda: game.setup({"turn": float("nan")}), "description.turn")
    raises(TypeError, lambda: game.setup(object()), "description")


# ----- saved states that are inconsistent in subtle ways -------------------------------------


def card_phase_state(game: tw.Game) -> dict[str, Any]:
    """The saved JSON of a North Wind state where a revealed card awaits its use."""
    for seed in range(200):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            saved = json.loads(state.to_json())
            if saved["state"]["phase"] == "Card":
                return saved
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no card decision in 200 games")  # pragma: no cover


def test_saved_state_with_an_out_of_range_card_is_a_state_format_error() -> None:
    """H-P21 a saved state whose current card is no card: StateFormatError."""
    game = tw.load(NAME, players=2)
    saved = card_phase_state(game)
    saved["state"]["voyage"]["current"] += 128
    raises(tw.StateFormatError, lambda: game.state_from_json(json.dumps(saved)))


def test_data_file_starting_with_more_letters_than_may_be_held_is_rejected() -> None:
    """H-P25 a data file whose players start with more trade letters than
    they may hold: DataFileError (it used to load, and then no state of it saved and loaded)."""
    data = shipped_data()
    data["rules"]["trade_letters_max_held"]["value"] = 0
    data["rules"]["starting_trade_letters"]["value"] = 1
    raises(tw.DataFileError, lambda: tw.load(NAME, players=2, data=data), "letters")


def test_finished_game_whose_last_card_is_no_card_is_a_state_format_error() -> None:
    """H-P26 a saved finished game, won during a voyage, whose last card is
    no card: StateFormatError (it used to load, and naming a trade action then raised the
    RuntimeError of a caught panic)."""
    game = tw.load(NAME, players=2)
    for seed in range(200):
        state = play_to_end(game, seed)
        saved = json.loads(state.to_json())
        if saved["state"]["voyage"]["current"] != 255 and not state.is_truncated:
            break
    else:  # pragma: no cover
        raise AssertionError("no game won during a voyage in 200 games")
    saved["state"]["voyage"]["current"] += 128
    raises(tw.StateFormatError, lambda: game.state_from_json(json.dumps(saved)))


