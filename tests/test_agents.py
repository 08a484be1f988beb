"""The built-in agents' specs: guided playouts, the time budget per decision and the named
levels, as Python sees them (canonical forms, errors, determinism, finished games)."""

from __future__ import annotations

import numpy as np
import pytest

import tradewinds as tw
from tradewinds.agents import LEVELS, canonical_spec, parse_agent_list

GAME = "north-wind"


@pytest.fixture(scope="module")
def game() -> tw.Game:
    return tw.load(GAME, players=2)


def test_levels_are_shown_as_their_parameters(game: tw.Game) -> None:
    assert LEVELS == ("mcts:fast", "mcts:strong")
    for level in LEVELS:
        expansion = canonical_spec(game, level)
        assert expansion.startswith("mcts:iterations=") and "fast" not in expansion and "strong" not in expansion
        assert "playout=greedy" in expansion
        assert canonical_spec(game, expansion) == expansion
    assert canonical_spec(game, "mcts:fast,ms=3") == canonical_spec(game, "mcts:fast") + ",ms=3"
    assert canonical_spec(game, "mcts") == "mcts:iterations=200,exploration=1.4,rollout_depth=200"


def test_playout_epsilon_and_ms_parse(game: tw.Game) -> None:
    assert canonical_spec(game, "mcts:playout=greedy,epsilon=0.2") == (
        "mcts:iterations=200,exploration=1.4,rollout_depth=200,playout=greedy,epsilon=0.2")
    assert canonical_spec(game, "mcts:ms=20") == "mcts:iterations=10000000,exploration=1.4,rollout_depth=200,ms=20"
    assert canonical_spec(game, "mcts:ms=20,iterations=50").startswith("mcts:iterations=50,")
    assert parse_agent_list("mcts:strong,ms=30,greedy") == ["mcts:strong,ms=30", "greedy"]


@pytest.mark.parametrize("spec,word", [
    ("mcts:ms=0", "ms=0"), ("mcts:ms=60001", "ms=60001"), ("mcts:ms=x", "ms=x"),
    ("mcts:iterations=0", "iterations=0"), ("mcts:iterations=10000001", "iterations=10000001"),
    ("mcts:playout=smart", "playout=smart"), ("mcts:epsilon=2", "epsilon=2"),
    ("mcts:turbo", "mcts:fast"), ("mcts:iterations=5,fast", "comes first"),
])
def test_bad_parameters_are_refused_with_the_reason(game: tw.Game, spec: str, word: str) -> None:
    with pytest.raises(ValueError, match="bad agent") as e:
        tw.simulate(game, 1, seed=1, agents=[spec, "random"])
    assert word in str(e.value)


def test_levels_and_guided_playouts_are_deterministic_for_a_seed(game: tw.Game) -> None:
    for spec in ["mcts:fast", "mcts:iterations=6,rollout_depth=5,playout=greedy,epsilon=0.3"]:
        a = tw.simulate(game, 4, seed=5, threads=2, agents=[spec, "greedy"])
        b = tw.simulate(game, 4, seed=5, threads=1, agents=[spec, "greedy"])
        assert np.array_equal(a.scores, b.scores) and np.array_equal(a.moves, b.moves), spec
        assert not a.truncated.any()


def test_a_time_budget_finishes_its_games(game: tw.Game) -> None:
    r = tw.simulate(game, 2, seed=5, threads=2, agents=["mcts:ms=1", "mcts:fast,ms=1"])
    assert r.agents[0].endswith(",ms=1") and not r.truncated.any()
    assert (r.moves > 0).all()
