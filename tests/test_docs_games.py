"""The per-game documents (docs/games/<game>.md): the action names each one lists are names
the game gives its actions, so that `state.apply(name)` takes them as written."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest

import tradewinds as tw
from conftest import game_configurations
from tradewinds._core import REGISTERED

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
DOCUMENTED = [name for name in REGISTERED if (DOCS / f"{name}.md").is_file()]


@cache
def legal_names(name: str) -> frozenset[str]:
    """Every player action name offered in random play of every configuration of the game."""
    seen: set[str] = set()
    for config in game_configurations([name]):
        game = config.load()
        for seed in range(40):
            state, rng = game.new_state(seed), random.Random(seed)
            while not state.is_terminal:
                legal = state.legal_actions()
                seen.update(state.action_to_string(a) for a in legal)
                state.apply(rng.choice(legal))
    return frozenset(seen)


def documented_player_actions(name: str) -> list[str]:
    """The names in backticks of the page's "Actions" section, up to its chance outcomes."""
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    section = text.split("\n## Actions\n", 1)[1].split("\n## ", 1)[0]
    players = section.split("Chance outcomes", 1)[0]
    return re.findall(r"`([^`]+)`", players)


@pytest.mark.parametrize("name", DOCUMENTED)
def test_listed_action_names_are_names_the_game_uses(name: str) -> None:
    listed = documented_player_actions(name)
    assert listed, f"docs/games/{name}.md lists its actions"
    names = legal_names(name)
    for shown in listed:
        # `<good>` stands for any one word of the name.
        pattern = re.escape(shown)
        pattern = re.sub(r"<[^>]+>", r"[^\\s:]+", pattern.replace(r"\<", "<").replace(r"\>", ">"))
        assert any(re.fullmatch(pattern, n) for n in names), f"no action of {name} is named {shown!r}"


@pytest.mark.parametrize("name", DOCUMENTED)
def test_a_listed_concrete_name_is_accepted_by_apply(name: str) -> None:
    # A name without a placeholder, taken from the page, is applied where it is legal.
    concrete = [n for n in documented_player_actions(name) if "<" not in n]
    game = tw.load(name)
    applied = set()
    for seed in range(40):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal and len(applied) < len(concrete):
            legal = {state.action_to_string(a): a for a in state.legal_actions()}
            for shown in concrete:
                if shown in legal and shown not in applied:
                    child = state.clone()
                    child.apply(shown)
                    assert child.history()[len(state.history())] == legal[shown]
                    applied.add(shown)
            state.apply(rng.choice(list(legal.values())))
    assert applied, f"no concrete name of docs/games/{name}.md was legal in 40 random games"


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_page_opens_with_how_to_play_and_the_glossary_the_game_shows(name: str) -> None:
    # The terminal game's `rules` and `legend` are the page's first sections, word for word.
    game = tw.load(name)
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    opening = _words(text.split("\n## Coverage", 1)[0])
    assert "## How to play" in opening and "## Glossary" in opening
    assert _words(game.how_to_play) in opening
    assert _words(game.notation) in opening
