"""Mistwind's observation is an information state: a seat that cannot tell two positions
apart has the same legal moves in both. Search over information states (OpenSpiel's IS-MCTS
keys its tree on the acting seat's observation string) relies on it.

Random games are played with explicit chance; at points along each game the acting seat's
hidden information is resampled into other worlds, and several random action sequences from
there are each walked in the true game and in every world (a world stops where the sequence is
not legal in it), as a search tree grows from one position. Every position met, in any world,
is keyed by the seat to move and its observation string, and again by its observation tensor:
equal keys must have equal legal moves."""

from __future__ import annotations

import random

import pytest

import tradewinds as tw
from conftest import random_action

NAME = "mistwind"


def _record(seen: dict[tuple[int, str | bytes], list[str]], state: tw.State) -> None:
    if state.is_terminal or state.is_chance:
        return
    p = state.current_player
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    text = state.observation_string(p)
    first = seen.setdefault((p, text), legal)
    assert first == legal, f"P{p} sees the same position with different legal moves:\n{text}\n{first}\n{legal}"
    first = seen.setdefault((p, state.observation_tensor(p).tobytes()), legal)
    assert first == legal, f"P{p}'s observation tensor is the same with different legal moves:\n{text}\n{first}\n{legal}"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_equal_observations_of_the_seat_to_move_give_equal_legal_moves(players: int) -> None:
    game = tw.load(NAME, players=players)
    rng = random.Random(players)
    seen: dict[tuple[int, str | bytes], list[str]] = {}
    state = game.new_state(players, True)
    decisions = 0
    walked = 0
    while not state.is_terminal:
        _record(seen, state)
        if not state.is_chance:
            decisions += 1
            if decisions % 15 == 0:
                p = state.current_player
                start = [state.clone()] + [state.resample(p, seed) for seed in range(3)]
                for _ in range(6):
                    worlds = [w.clone() for w in start]
                    for _ in range(30):
                        leader = worlds[0]
                        if leader.is_terminal:
                            break
                        action = random_action(leader, rng)
                        worlds = [w for w in worlds if action in w.legal_actions()]
                        for w in worlds:
                            w.apply(action)
                            _record(seen, w)
                            walked += 1
        state.apply(random_action(state, rng))
    assert walked > 100 * players
