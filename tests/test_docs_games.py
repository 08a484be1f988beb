"""The per-game documents (docs/games/<game>.md): the action names each one lists are names
the game gives its actions, so that `state.apply(name)` takes them as written."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import tradewinds as tw
from conftest import game_configurations
from tradewinds._core import REGISTERED

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
DOCUMENTED = [name for name in REGISTERED if (DOCS / f"{name}.md").is_file()]


def names_offered_until(name: str, wanted: list[re.Pattern[str]]) -> list[re.Pattern[str]]:
    """Plays random games of every configuration of the game (up to 40 each), collecting the
    player action names offered, until each pattern of `wanted` matches one; returns those
    that never did."""
    left = list(wanted)
    for config in game_configurations([name]):
        game = config.load()
        for seed in range(40):
            state, rng = game.new_state(seed), random.Random(seed)
            while not state.is_terminal and left:
                legal = state.legal_actions()
                offered = [state.action_to_string(a) for a in legal]
                left = [p for p in left if not any(p.fullmatch(n) for n in offered)]
                state.apply(rng.choice(legal))
            if not left:
                return left
    return left


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
    # `<good>` stands for any one word of the name.
    patterns = [re.compile(re.sub(r"<[^>]+>", r"[^\\s:]+", re.escape(shown).replace(r"\<", "<").replace(r"\>", ">")))
                for shown in listed]
    missing = names_offered_until(name, patterns)
    assert not missing, f"no action of {name} is named {[p.pattern for p in missing]}"


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
