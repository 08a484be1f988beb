"""The picture of the table (`State.to_svg`): every game draws well-formed SVG for every
viewer, a seat's picture does not depend on what is hidden from it, a bad observer is refused
with a typed error, the notebook views show the table's view, a record replayed to any move
draws, and the pictures in the games' documents are what the code draws today."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tradewinds as tw
from conftest import midgame

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}svg"


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG
    return root


def test_every_viewer_gets_a_well_formed_picture(game: tw.Game) -> None:
    state = midgame(game, 3, 40)
    everything = state.to_svg()
    assert everything == state.to_svg(None)
    parsed(everything)
    parsed(state.to_svg("table"))
    for p in range(game.players):
        parsed(state.to_svg(p))
        assert state.to_svg(p) == state.to_svg(p)  # drawing changes nothing


def test_a_seats_picture_does_not_depend_on_what_is_hidden_from_it(game: tw.Game) -> None:
    for seed in range(3):
        state = midgame(game, seed, 25 + 30 * seed)
        for p in range(game.players):
            again = state.resample(p, seed + 1)
            assert again.to_svg(p) == state.to_svg(p)
            assert again.to_svg("table") == state.to_svg("table")


def test_a_bad_observer_is_refused_with_a_typed_error(one_game: tw.Game) -> None:
    state = one_game.new_state(1)
    for seat in (one_game.players, -1, 10**30):
        with pytest.raises(ValueError, match="out of range"):
            state.to_svg(seat)
    with pytest.raises(ValueError, match="not a seat"):
        state.to_svg("everyone")
    for wrong in (1.0, True, [0]):
        with pytest.raises(TypeError, match="observer must be"):
            state.to_svg(wrong)  # type: ignore[arg-type]


def test_the_notebook_views_show_the_table_as_every_player_sees_it(one_game: tw.Game) -> None:
    state = midgame(one_game, 2, 30)
    assert state._repr_svg_() == state.to_svg("table")
    assert state.to_svg("table") in state._repr_html_()


def test_a_record_replayed_to_any_move_draws(one_game: tw.Game) -> None:
    result = tw.simulate(one_game, 2, seed=5)
    for text in result.records([0, 1]):
        whole = tw.replay(text)
        moves = whole.move_number
        for k in (0, moves // 3, moves // 2, moves):
            state = tw.replay(text, moves=k)
            assert state.move_number == k
            parsed(state.to_svg())
            for p in range(one_game.players):
                parsed(state.to_svg(p))
        assert tw.replay(text, moves=moves).to_svg() == whole.to_svg()


def test_the_pictures_in_the_games_documents_are_what_the_code_draws() -> None:
    spec = importlib.util.spec_from_file_location("draw_pictures", ROOT / "scripts" / "draw-pictures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for name, svg in script.pictures().items():
        committed = ROOT / "docs" / "games" / "img" / f"{name}.svg"
        assert committed.read_text(encoding="utf-8") == svg, f"{committed} is stale: run scripts/draw-pictures.py"
        assert f"img/{name}.svg" in (ROOT / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
