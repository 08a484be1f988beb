"""Saved states committed under tests/fixtures/saved/<game>/ (written by
tests/fixtures/make_saved_states.py) still load: a change to the saved-state format that
does not raise STATE_FORMAT_VERSION fails here. States of an older format version must fail
with a message naming their version; the future-version fixtures must fail naming theirs and
the version this build reads."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import tradewinds as tw

SAVED = Path(__file__).resolve().parent / "fixtures" / "saved"
VERSIONED = sorted(SAVED.glob("*/v*/*.json"))
FUTURE = sorted(SAVED.glob("*/future/*.json"))


def game_of(saved: dict[str, object]) -> tw.Game:
    config = json.loads(str(saved["config"]))
    name = config.pop("game")
    assert name == saved["game"]
    return tw.load(name, **config)


def test_there_are_fixtures_for_this_version_and_every_game() -> None:
    for name in tw.GAMES:
        version = tw.load(name).state_format
        current = SAVED / name / f"v{version}"
        assert current.is_dir(), f"{name}: no fixtures for format version {version}: run tests/fixtures/make_saved_states.py"
        assert list(current.glob(f"{name}-*.json")), name
        assert list(SAVED.glob(f"{name}/future/{name}-*.json")), name
    for path in VERSIONED + FUTURE:
        assert path.with_suffix(".bin").is_file(), path


@pytest.mark.parametrize("path", VERSIONED, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}")
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
    # Saving again gives the very same text and bytes: the format did not drift.
    assert from_json.to_json() == text
    assert from_bytes.to_bytes() == data
    assert from_json.move_number == saved["move_number"]
    assert from_json.history() == saved["history"]
    # And the game goes on from there.
    rng = random.Random(1)
    for _ in range(50):
        if from_json.is_terminal:
            assert from_json.winners() or from_json.is_truncated
            break
        if from_json.is_chance:
            outcomes = from_json.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            action = rng.choice(from_json.legal_actions())
        from_json.apply(action)
    assert game.state_from_json(from_json.to_json()) == from_json


@pytest.mark.parametrize("path", FUTURE, ids=lambda p: p.stem)
def test_future_version_fixture_names_the_version_needed(path: Path) -> None:
    text = path.read_text()
    saved = json.loads(text)
    game = game_of(saved)
    assert saved["format"] > game.state_format
    needed = f"version {saved['format']}"
    reads = f"reads version {game.state_format}"
    with pytest.raises(tw.StateFormatError, match=needed) as info:
        game.state_from_json(text)
    assert reads in str(info.value)
    with pytest.raises(tw.StateFormatError, match=needed) as info:
        game.state_from_bytes(path.with_suffix(".bin").read_bytes())
    assert reads in str(info.value)
