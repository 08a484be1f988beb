"""Pure-Python twins of games' Rust engines, one module per game, named after the game with
underscores (`north_wind.py` for `north-wind`). A twin follows its engine step by step (same
action ids, same order of legal actions, same seeded chance stream), so that the two play the
same games from the same seeds: it guards refactors and speed work on the engine and is the
speed baseline of the benches. It does not check the engine against the rulebook.

Each module has ``GAME`` (the game's name), ``engine(options)`` (the twin of
``tw.load(GAME, **options)``) and ``simulate(engine, games, seed)`` (the games
``tw.simulate`` plays from ``seed``, as records with ``scores``, ``winner``, ``moves``,
``decisions``, ``truncated`` and ``category_points``). A game without a twin needs none.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def module_name(game: str) -> str:
    return game.replace("-", "_")


def twin(game: str) -> ModuleType | None:
    """The twin module of registered game ``game``, or None if it has none."""
    if not (HERE / f"{module_name(game)}.py").is_file():
        return None
    module = importlib.import_module(f"{__name__}.{module_name(game)}")
    assert module.GAME == game, module.__file__
    return module
