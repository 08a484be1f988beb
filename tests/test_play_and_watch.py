"""Play and watch, for every registered game: the readable log, game records (from a game, from
a bulk run), the notebook views, and the game's texts (how to play, the glossary)."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path

import numpy as np
import pytest

import tradewinds as tw
from conftest import midgame, play_to_end


def test_the_log_tells_every_move_and_a_record_replays_to_the_identical_state_and_log(game: tw.Game) -> None:
    for explicit in (False, True):
        state = play_to_end(game, 5, explicit_chance=explicit)
        spectator = state.log()
        assert [m for m, _, _ in spectator] == list(range(state.move_number))
        assert [p for _, p, _ in spectator] == [
            p for p in (s.current_player for s in _states_along(game, state))
        ]
        assert all(text.strip() for _, _, text in spectator)
        record = state.record()
        again = tw.replay(record)
        assert again == state and again.seed == state.seed
        for observer in [None, *range(game.players)]:
            assert again.log(observer) == state.log(observer)
        # As a dict and from a file, too.
        assert tw.replay(json.loads(record)) == state


def _states_along(game: tw.Game, final: tw.State) -> list[tw.State]:
    """The state before each move of `final`'s game, replayed with explicit chance."""
    out = []
    state = game.new_state(final.seed or 0, explicit_chance=True)
    for a in final.history():
        out.append(state.clone())
        state.apply(a)
    return out


def test_replaying_part_of_a_record_steps_through_the_game(one_game: tw.Game, tmp_path: Path) -> None:
    state = play_to_end(one_game, 3)
    path = tmp_path / "game.json"
    path.write_text(state.record(), encoding="utf-8")
    history = state.history()
    for k in (0, 1, len(history) // 2, len(history)):
        part = tw.replay(path, moves=k)
        assert part.history() == history[:k]
        assert part.log() == state.log()[:k]


def test_bulk_runs_give_the_records_of_chosen_games(one_game: tw.Game) -> None:
    agents = ["greedy"] + ["random"] * (one_game.players - 1)
    result = tw.simulate(one_game, 12, seed=6, agents=agents)
    longest = int(result.moves.argmax())
    [record] = result.records([longest])
    final = tw.replay(record)
    assert final.move_number == result.moves[longest]
    assert final.scores() == list(result.scores[longest])
    won = result.winners[:, 0]
    records = result.records(won)
    assert len(records) == int(won.sum())
    for text in records:
        assert 0 in tw.replay(text).winners()
    with pytest.raises(ValueError, match="no game at row"):
        result.records([12])


def test_records_of_a_run_with_python_agents_need_the_agents_again(one_game: tw.Game) -> None:
    def first(state: tw.State, player: int, rng: random.Random) -> int:
        return state.legal_actions()[0]

    agents = [first] + ["random"] * (one_game.players - 1)
    result = tw.simulate(one_game, 4, seed=2, agents=agents)
    with pytest.raises(ValueError, match="pass them again"):
        result.records([0])
    for row, text in enumerate(result.records(np.ones(4, dtype=bool), agents=agents)):
        assert tw.replay(text).scores() == list(result.scores[row])


def shown_tables(html: str) -> list[str]:
    """The texts of a view's <pre> blocks, as a reader sees them."""
    return [unescape(text) for text in re.findall(r"<pre>(.*?)</pre>", html, re.S)]


def test_notebook_views_render_the_table_and_the_scores(one_game: tw.Game) -> None:
    state = midgame(one_game, 1, 30)
    html = state._repr_html_()
    assert html.startswith("<div") and one_game.title in html
    assert str(state).rstrip() in shown_tables(html)  # the table as every player sees it
    assert "<table" not in html  # the score table comes at the end
    end = play_to_end(one_game, 1)
    html = end._repr_html_()
    assert "<table" in html and "total" in html and str(end).rstrip() in shown_tables(html)
    report = end.score_report()
    table = report._repr_html_()
    assert table.count("<tr>") == len(report.categories) + 2
    for name in report.winner_names:
        assert name in table
    result = tw.simulate(one_game, 20, seed=1)
    view = result._repr_html_()
    assert "<pre>" in view and "games/s" in view and "<svg" in view  # matplotlib is a test dependency


def test_every_game_explains_itself(one_game: tw.Game) -> None:
    assert len(one_game.how_to_play) > 200
    assert len(one_game.notation) > 100
