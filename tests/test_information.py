"""Hidden information, through the Python API, for every registered game and configuration.

- Each listed game's observation tensor is documented field by field in `docs/games/<game>.md`
  (section "Observation tensor"): the fields add up to the tensor, and the fields documented as
  one-hot are one-hot in every observation of random games. (An unlisted test game has no page.)
- No leak: a state and states that differ from it only in what player p cannot see (p's
  resamples) give p the same observation (string and tensor), the same player to act and, when
  p acts, the same legal actions.
- Resampling never depends on the true hidden values: resampling for p from the state and
  from any of p's resamples, with the same seed, gives the same state.
- Resampled states are states of the game: they play on to the end.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import COVER, LISTED_COVER, Config, ids, random_action, random_trajectory, snapshots

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


# ---- the documented tensor layout ----------------------------------------------------------


@dataclass
class Field:
    name: str
    #: (coefficient, symbol or None) - the size is coefficient x symbol (or the coefficient).
    size: tuple[int, str | None]
    #: Length of one row (the last factor of the size): one-hot fields are one-hot per row.
    row: tuple[int, str | None]
    meaning: str


def _section(text: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def _factors(size: str) -> list[int | str]:
    out: list[int | str] = []
    for f in re.split(r"\s*[×x*·]\s*", size.strip()):
        assert re.fullmatch(r"\d+|[A-Za-z]\w*", f), f"cannot read the size {size!r}"
        out.append(int(f) if f.isdigit() else f)
    return out


def _product(factors: list[int | str]) -> tuple[int, str | None]:
    symbols = [f for f in factors if isinstance(f, str)]
    assert len(symbols) <= 1, f"a size with several symbols: {factors}"
    coefficient = math.prod(f for f in factors if isinstance(f, int))
    return coefficient, (symbols[0] if symbols else None)


def documented_layout(name: str) -> list[Field]:
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    rows = [line for line in _section(text, "Observation tensor").splitlines() if line.startswith("|")]
    header = [c.strip().lower() for c in rows[0].strip("|").split("|")]
    assert header[:3] == ["field", "size", "meaning"], header
    fields = []
    for line in rows[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) >= 3 and all(cells[:3]), f"incomplete row {line!r}"
        factors = _factors(cells[1])
        fields.append(Field(cells[0], _product(factors), _product(factors[-1:]), cells[2]))
    return fields


def symbol_values(fields: list[Field], length: int) -> dict[str, int]:
    """The value of the layout's symbol (at most one, like T for the card types) that makes
    the documented sizes add up to `length`."""
    constant = sum(f.size[0] for f in fields if f.size[1] is None)
    symbols = {f.size[1] for f in fields if f.size[1] is not None}
    assert len(symbols) <= 1, f"several symbols in one layout: {symbols}"
    if not symbols:
        assert constant == length, f"documented sizes add up to {constant}, the tensor has {length} values"
        return {}
    (symbol,) = symbols
    per_unit = sum(f.size[0] for f in fields if f.size[1] == symbol)
    value, rest = divmod(length - constant, per_unit)
    assert rest == 0 and value > 0, f"no value of {symbol} makes the documented sizes add up to {length}"
    return {symbol: value}


def offsets(fields: list[Field], values: dict[str, int]) -> dict[str, tuple[int, int, int]]:
    """Field name -> (start, size, row length)."""
    out = {}
    start = 0
    for f in fields:
        size = f.size[0] * (values[f.size[1]] if f.size[1] else 1)
        row = f.row[0] * (values[f.row[1]] if f.row[1] else 1)
        assert f.name not in out, f"field {f.name!r} documented twice"
        out[f.name] = (start, size, row)
        start += size
    return out


@pytest.mark.parametrize("name", tw.GAMES)
def test_every_game_documents_its_observations(name: str) -> None:
    doc = DOCS / f"{name}.md"
    assert doc.is_file(), f"{name} has no {doc.name} in docs/games/"
    text = doc.read_text(encoding="utf-8")
    hidden = _section(text, "Hidden information")
    for needed in ("observation_string", "observation_tensor", "resample"):
        assert needed in hidden, f"the 'Hidden information' section of {doc.name} does not explain {needed}"
    fields = documented_layout(name)
    assert len(fields) >= 2


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_documented_tensor_layout_adds_up(config: Config) -> None:
    name = config.game
    game = config.load()
    length = math.prod(game.observation_tensor_shape)
    fields = documented_layout(name)
    values = symbol_values(fields, length)
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    # The stated formula, when there is one ("of length `254 + 6·T`"), agrees.
    formula = re.search(r"length `([^`]+)`", _section(text, "Observation tensor"))
    if formula:
        expression = formula.group(1).replace("·", "*").replace("×", "*")
        for symbol, value in values.items():
            expression = re.sub(rf"\b{symbol}\b", str(value), expression)
        assert re.fullmatch(r"[\d\s+*()-]+", expression), expression
        assert eval(expression) == length  # noqa: S307 - digits and operators only
    assert sum(size for _, size, _ in offsets(fields, values).values()) == length


@pytest.mark.parametrize("config", LISTED_COVER, ids=ids(LISTED_COVER))
def test_documented_fields_hold_in_random_games(config: Config) -> None:
    name, players = config.game, config.players
    game = config.load()
    fields = documented_layout(name)
    layout = offsets(fields, symbol_values(fields, math.prod(game.observation_tensor_shape)))
    one_hot = [f.name for f in fields if "one-hot" in f.meaning.lower()]
    assert one_hot, "no field is documented as one-hot"
    seen_ones = dict.fromkeys(one_hot, 0)
    for seed in range(2):
        for state in snapshots(game, seed, 40, explicit_chance=bool(seed)):
            for p in range(players):
                tensor = state.observation_tensor(p).reshape(-1)
                assert np.isfinite(tensor).all()
                for field in one_hot:
                    start, size, row = layout[field]
                    block = tensor[start : start + size].reshape(-1, row)
                    assert set(np.unique(block)) <= {0.0, 1.0}, f"{field}: values other than 0 and 1"
                    assert (block.sum(axis=1) <= 1).all(), f"{field}: more than one 1 in a row"
                    seen_ones[field] += int(block.sum())
                if "observer" in layout:
                    start, size, _ = layout["observer"]
                    expected = np.zeros(size, np.float32)
                    expected[p] = 1.0
                    np.testing.assert_array_equal(tensor[start : start + size], expected)
                if "on turn" in layout:
                    start, size, _ = layout["on turn"]
                    assert tensor[start : start + size].sum() == (0 if state.is_terminal else 1)
    never = [f for f, n in seen_ones.items() if n == 0]
    assert not never, f"one-hot fields never set in random games: {never}"


# ---- no leak, and resampling ----------------------------------------------------------------


def _same_view(a: tw.State, b: tw.State, p: int) -> None:
    assert a.observation_string(p) == b.observation_string(p)
    np.testing.assert_array_equal(a.observation_tensor(p), b.observation_tensor(p))
    assert a.current_player == b.current_player
    assert a.is_terminal == b.is_terminal
    assert a.move_number == b.move_number
    if a.current_player == p:
        assert a.legal_actions() == b.legal_actions()
        assert [a.action_to_string(x) for x in a.legal_actions()] == [
            b.action_to_string(x) for x in b.legal_actions()
        ]


def _play_on(state: tw.State, seed: int) -> None:
    rng = random.Random(seed)
    bound = state.game.max_game_length
    while not state.is_terminal:
        assert state.legal_actions(), "a non-terminal state without legal actions"
        state.apply(random_action(state, rng))
        assert state.move_number <= bound
    assert len(state.returns()) == state.game.players


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["implicit-chance", "explicit-chance"])
@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_states_differing_only_in_hidden_values_look_the_same(config: Config, explicit_chance: bool) -> None:
    players = config.players
    game = config.load()
    hidden_differences = 0
    for state in snapshots(game, 21 + players, 12, explicit_chance):
        for p in range(players):
            worlds = [state.resample(p, seed) for seed in (101, 202, 303)]
            for world in worlds:
                assert world.explicit_chance == state.explicit_chance
                _same_view(state, world, p)
                # What everyone at the table sees (str) stays; the hidden cards (render) may not.
                assert str(world) == str(state)
                hidden_differences += world.render() != state.render()
            # Resampling reads only what p knows: from the true state or from any world p
            # cannot tell apart from it, the same seed draws the same state.
            reference = state.resample(p, 7)
            for world in worlds:
                assert world.resample(p, 7) == reference
            assert state.resample(p, 101) == worlds[0]
    # The check is not vacuous: resampling does change what p cannot see (what the other
    # seats hold or chose; a solo game may have nothing hidden from its seat). A game that
    # hides nothing from a seat that remembers what it saw (its only unknowns are future chance
    # outcomes, which the state does not hold) resamples nothing: then each seat's view shows
    # every line of the omniscient rendering.
    if players > 1 and hidden_differences == 0:
        for state in snapshots(game, 21 + players, 12, explicit_chance):
            for p in range(players):
                seen = set(state.observation_string(p).splitlines())
                assert set(state.render().splitlines()) <= seen, "resampling hides nothing, yet p does not see it all"


@pytest.mark.parametrize("explicit_chance", [False, True], ids=["implicit-chance", "explicit-chance"])
@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_resampled_states_play_on_to_the_end(config: Config, explicit_chance: bool) -> None:
    players = config.players
    game = config.load()
    for i, state in enumerate(snapshots(game, 40 + players, 6, explicit_chance)):
        p = state.current_player if state.current_player >= 0 else i % players
        world = state.resample(p, i)
        _play_on(world, seed=i)
        # The resample is an independent state: the original is untouched and plays on too.
        _play_on(state.clone(), seed=i)


# ---- observations are information states ----------------------------------------------------


def _record_view(seen: dict[tuple[int, str | bytes], list[Any]], state: tw.State) -> None:
    """Keys ``state`` by the seat to move and its observation: equal strings must have equal
    legal moves (ids and names), equal tensors equal legal action ids (what a policy reading
    the tensor chooses among; two cards alike in every number may differ in name)."""
    if state.is_terminal or state.is_chance:
        return
    p = state.current_player
    ids = state.legal_actions()
    legal = [state.action_to_string(a) for a in ids]
    text = state.observation_string(p)
    first = seen.setdefault((p, text), legal)
    assert first == legal, f"P{p} sees the same position with different legal moves:\n{text}\n{first}\n{legal}"
    first = seen.setdefault((p, state.observation_tensor(p).tobytes()), ids)
    assert first == ids, f"P{p}'s observation tensor is the same with different legal actions:\n{text}\n{first}\n{ids}"


#: Points of a game from which a search is walked, and its lines from each.
WALKS, LINES, DEPTH = 8, 5, 24


@pytest.mark.parametrize("config", COVER, ids=ids(COVER))
def test_equal_observations_of_the_seat_to_move_give_equal_legal_moves(config: Config) -> None:
    """Search over information states (OpenSpiel's IS-MCTS keys its tree on the acting seat's
    observation string) relies on it. A random game is played with explicit chance; at points
    along it the acting seat's hidden information is resampled into other worlds, and random
    action sequences from there are walked in the true game and in every world (a world stops
    where the sequence is not legal in it), as a search tree grows. Every position met is keyed
    by the seat to move and its observation: equal keys must have equal legal moves."""
    game = config.load()
    rng = random.Random(config.players)
    # Where the walks start: spread over the decisions of a game of about the usual length.
    decisions = sum(not s.is_chance and not s.is_terminal for s in random_trajectory(game, 5, True))
    every = max(1, decisions // WALKS)
    seen: dict[tuple[int, str | bytes], list[str]] = {}
    state = game.new_state(config.players, True)
    walked = walks = decisions = 0
    while not state.is_terminal:
        _record_view(seen, state)
        decisions += not state.is_chance
        if not state.is_chance and decisions % every == 0 and walks < WALKS:
            walks += 1
            p = state.current_player
            start = [state.clone()] + [state.resample(p, seed) for seed in range(3)]
            for _ in range(LINES):
                worlds = [w.clone() for w in start]
                for _ in range(DEPTH):
                    if worlds[0].is_terminal:
                        break
                    action = random_action(worlds[0], rng)
                    worlds = [w for w in worlds if action in w.legal_actions()]
                    for w in worlds:
                        w.apply(action)
                        _record_view(seen, w)
                        walked += 1
        state.apply(random_action(state, rng))
    assert walks > 0 and walked > 0
