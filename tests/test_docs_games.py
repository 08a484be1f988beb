"""The per-game documents (docs/games/<game>.md): each is a reference with the same sections in
the same order, its options table names every option the game declares, and the action names
it lists are names the game gives its actions, so that `state.apply(name)` takes them as
written. The developers' records of each game (coverage table, audits, the full reasoning of
the rulings) are docs/dev/<game>-records.md."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import tradewinds as tw
from conftest import game_configurations
from tradewinds._core import REGISTERED, options

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"
RECORDS = DOCS.parent / "dev"
DOCUMENTED = [name for name in REGISTERED if (DOCS / f"{name}.md").is_file()]

#: The sections every game's page has, in this order; others (the search agents' evaluation,
#: a picture, setting up positions) may come between them.
SECTIONS = ["How to play", "Options and configurations", "Actions", "Observation tensor", "Score report",
            "Rulings", "Component data", "Hidden information", "Glossary"]
#: What a page may not hold: developers' records belong in docs/dev/<game>-records.md.
RECORDS_ONLY = ["Coverage", "Audit", "Independent audit", "Not done yet", "Game length", "Strength"]
#: A reference page stays short enough to read: Mistwind's, the longest (two sides of each board,
#: the 2-player and solo modes), has about 520 lines, 150 of them its How to play and Glossary.
MAX_LINES = 540
#: A ruling on the page is short: the sentence, the decision, the test.
MAX_RULING_LINES = 12


def section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def page(name: str) -> str:
    return (DOCS / f"{name}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_page_has_the_reference_sections_in_order_and_no_records(name: str) -> None:
    text = page(name)
    titles = re.findall(r"^## (.+?)\s*$", text, re.M)
    missing = [s for s in SECTIONS if s not in titles]
    assert not missing, f"docs/games/{name}.md lacks {missing}"
    order = [titles.index(s) for s in SECTIONS]
    assert order == sorted(order), f"docs/games/{name}.md has its sections in the order {titles}"
    assert not [t for t in titles if t.startswith(tuple(RECORDS_ONLY))], titles
    assert len(text.splitlines()) <= MAX_LINES, f"docs/games/{name}.md has {len(text.splitlines())} lines"
    # The records are linked from the page's introduction, and exist.
    assert f"(../dev/{name}-records.md)" in text.split("\n## ", 1)[0]
    records = (RECORDS / f"{name}-records.md").read_text(encoding="utf-8")
    assert "\n## Coverage table\n" in records


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_rulings_are_numbered_and_short_and_their_full_reasoning_keeps_the_numbers(name: str) -> None:
    rulings = re.split(r"^(?=\d+\. \*\*)", section(page(name), "Rulings"), flags=re.M)[1:]
    numbers = [int(r.split(".", 1)[0]) for r in rulings]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    long = [n for n, r in zip(numbers, rulings) if len(r.strip().splitlines()) > MAX_RULING_LINES]
    assert not long, f"rulings {long} of docs/games/{name}.md are long: their reasoning belongs in the records"
    # Every ruling the records reason about in full is a ruling of the page, by the same number.
    records = (RECORDS / f"{name}-records.md").read_text(encoding="utf-8")
    full = [int(n) for n in re.findall(r"^### Ruling (\d+)$", records, re.M)]
    assert full and set(full) <= set(numbers), full


def _cells(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_the_options_table_names_every_declared_option_with_its_default(name: str) -> None:
    rows = [line for line in section(page(name), "Options and configurations").splitlines() if line.startswith("|")]
    header = [c.lower() for c in _cells(rows[0])]
    assert header[:4] == ["option", "values", "default", "configuration"], header
    table = {}
    for line in rows[2:]:
        cells = _cells(line)
        assert re.fullmatch(r"`\w+`", cells[0]), cells[0]
        table[cells[0].strip("`")] = cells
    declared = options(name)
    assert set(table) == {o["name"] for o in declared}
    for o in declared:
        _, _, default, configuration, *_ = table[o["name"]]
        shown = "None" if o["default"] is None else json.dumps(o["default"]).replace("true", "True").replace("false", "False")
        assert default.startswith(f"`{shown}`"), (o["name"], default, shown)
        assert configuration == ("yes" if o["configuration"] else "no"), o["name"]


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
def test_how_to_play_and_the_glossary_are_the_texts_the_game_shows(name: str) -> None:
    # The terminal game's `rules` and `legend` are the page's How to play and Glossary, word for word.
    game = tw.load(name)
    text = page(name)
    assert _words(game.how_to_play) in _words(section(text, "How to play"))
    assert _words(game.notation) in _words(section(text, "Glossary"))
