"""Saved states committed under tests/fixtures/saved/<game>/ (written by
tests/fixtures/make_saved_states.py) still load, game by game: a change to a game's saved-state
format that does not raise its version (`Game.state_format`) fails here. States of an older
version of the game's format must fail with a message naming their version; the future-version
fixtures must fail naming theirs and the version this build reads for the game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tradewinds as tw
from tradewinds._core import REGISTERED, configurations

SAVED = Path(__file__).resolve().parent / "fixtures" / "saved"
VERSIONED = sorted(SAVED.glob("*/v*/*.json"))
FUTURE = sorted(SAVED.glob("*/future/*.json"))


def game_of(saved: dict[str, object]) -> tw.Game:
    config = json.loads(str(saved["config"]))
    name = config.pop("game")
    assert name == saved["game"]
    return tw.load(name, **config)


def fixture_id(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.parent.name}/{path.stem}"


def state_format(name: str) -> int:
    """The version of game `name`'s saved states (the same in every configuration)."""
    (version,) = {tw.load(name, **options).state_format for options in configurations(name)}
    return version


@pytest.mark.parametrize("name", REGISTERED)
def test_there_are_fixtures_of_this_version_for_every_game(name: str) -> None:
    current = SAVED / name / f"v{state_format(name)}"
    assert current.is_dir(), f"no fixtures of {name} format version {state_format(name)}: run tests/fixtures/make_saved_states.py {name}"
    saved = [json.loads(json.loads(path.read_text())["config"]) for path in current.glob("*.json")]
    for options in configurations(name):
        assert any(all(config[k] == v for k, v in options.items()) for config in saved), (
            f"{name} {options} has no fixture of this version"
        )
    assert list((SAVED / name / "future").glob("*.json")), name


def test_every_fixture_is_of_a_registered_game_and_has_both_forms() -> None:
    assert VERSIONED and FUTURE
    for path in VERSIONED + FUTURE:
        assert path.with_suffix(".bin").is_file(), path
        saved = json.loads(path.read_text())
        assert saved["game"] == path.parent.parent.name, path
        assert saved["game"] in REGISTERED, path
        if path.parent.name != "future":
            assert path.parent.name == f"v{saved['format']}", path


@pytest.mark.parametrize("path", VERSIONED, ids=fixture_id)
def test_saved_fixture_loads_or_names_its_version(path: Path) -> None:
    text = path.read_text().strip()
    data = path.with_suffix(".bin").read_bytes()
    saved = json.loads(text)
    game = game_of(saved)
    if saved["format"] != game.state_format:
        for load in (lambda: game.state_from_json(text), lambda: game.state_from_bytes(data)):
            with pytest.raises(tw.StateFormatError, match=f"version {saved['format']}"):
                load()
        return
    from_json = game.state_from_json(text)
    from_bytes = game.state_from_bytes(data)
    assert from_json == from_bytes
    # Saving again gives the very same text and bytes: the format did not drift. A fixture
    # saved before its game took up an option is saved again with the game's whole
    # configuration (the option at its default), and otherwise the same.
    resaved = json.loads(from_json.to_json())
    if resaved["config"] == saved["config"]:
        assert from_json.to_json() == text
        assert from_bytes.to_bytes() == data
    else:
        theirs, ours = json.loads(saved["config"]), json.loads(resaved["config"])
        assert set(theirs) < set(ours) and all(ours[k] == v for k, v in theirs.items()), (theirs, ours)
        assert {**resaved, "config": saved["config"]} == saved
    assert from_json.move_number == saved["move_number"]
    assert from_json.history() == saved["history"]
    # And the game goes on from there (to its end, if it is near).
    rng = random.Random(1)
    for _ in range(50):
        if from_json.is_terminal:
            report = from_json.score_report()
            assert report.terminal and report.winners == from_json.winners()
            break
        if from_json.is_chance:
            outcomes = from_json.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            action = rng.choice(from_json.legal_actions())
        from_json.apply(action)
    assert game.state_from_json(from_json.to_json()) == from_json


@pytest.mark.parametrize("path", FUTURE, ids=fixture_id)
def test_future_version_fixture_names_the_version_needed(path: Path) -> None:
    text = path.read_text()
    saved = json.loads(text)
    game = game_of(saved)
    assert saved["format"] > game.state_format
    needed = f"version {saved['format']}"
    reads = f"reads version {game.state_format}"
    with pytest.raises(tw.StateFormatError, match=needed) as info:
        game.state_from_json(text)
    assert reads in str(info.value) and game.name in str(info.value)
    with pytest.raises(tw.StateFormatError, match=needed) as info:
        game.state_from_bytes(path.with_suffix(".bin").read_bytes())
    assert reads in str(info.value)
