"""Playing one range of games of a run: games ``first .. first + games``.

Every game depends only on the run's seed and its own index, so the ranges of a run (its
chunks) can be played in any order, on any thread, process or machine, and still assemble
into the same arrays as one uninterrupted run.
"""

from __future__ import annotations

import operator
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ._core import AgentStream, Game, State, derive_seed
from ._results import Layout, RangeResult, allocate, pick
from .agents import Agent, agent_label

__all__ = ["run_range", "layout_of", "play_one"]


def run_range(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    first: int,
    games: int,
    threads: int,
    progress: Callable[[int], object] | None = None,
    metrics: bool = False,
) -> RangeResult:
    """Plays games ``first .. first + games`` of the run seeded ``seed``; seat p is played by
    ``agents[p]`` (canonical built-in specs or Python callables). With built-in agents only,
    Rust plays them on ``threads`` threads; otherwise a Python loop plays them.
    ``progress(n)`` is called with the number of games just finished; returning ``False``
    stops the run with ``KeyboardInterrupt``. With ``metrics``, Rust measures the games'
    design metrics too (built-in agents only: the Python loop leaves them unmeasured)."""
    if all(isinstance(a, str) for a in agents):
        specs = [a for a in agents if isinstance(a, str)]
        raw = game.simulate(games, seed, threads, progress, specs, first, metrics)
        return RangeResult(
            first=first,
            games=games,
            elapsed_seconds=float(raw["elapsed_seconds"]),
            threads=int(raw["threads"]),
            arrays=pick(raw),
        )
    return _play_python(game, agents, seed, first, games, progress)


def layout_of(game: Game) -> Layout:
    """The layout of ``game``'s per-game arrays: its seats, its scoring categories (the
    columns of ``category_points``), its opponents that are not seats and its tiers."""
    return Layout.from_meta(game.simulate(0, 0, 1))


def _play_python(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    first: int,
    games: int,
    progress: Callable[[int], object] | None,
) -> RangeResult:
    """The Python loop for games with a callable agent (see :func:`play_one`), each recorded
    from its final state's :meth:`State.score_record`, as the engine records its games."""
    start = time.perf_counter()
    layout = layout_of(game)
    arrays = allocate(games, layout)
    scores, winners, category_points = arrays["scores"], arrays["winners"], arrays["category_points"]
    moves, decisions, truncated = arrays["moves"], arrays["decisions"], arrays["truncated"]
    opponent_scores, opponent_wins, tier = arrays["opponent_scores"], arrays["opponent_wins"], arrays["tier"]
    for k in range(games):
        state, decision = play_one(game, agents, seed, first + k)
        record = state.score_record()
        scores[k] = record["totals"]
        winners[k, record["winners"]] = True
        category_points[k] = record["points"]
        opponent_scores[k] = record["opponent_totals"]
        opponent_wins[k, record["opponent_winners"]] = True
        tier[k] = -1 if record["tier"] is None else record["tier"]
        moves[k] = state.move_number
        decisions[k] = decision
        truncated[k] = state.is_truncated
        if progress is not None and progress(1) is False:
            raise KeyboardInterrupt("simulation stopped by its progress callback")
    return RangeResult(
        first=first,
        games=games,
        elapsed_seconds=time.perf_counter() - start,
        threads=1,
        arrays=arrays,
    )


def play_one(game: Game, agents: Sequence[Agent], seed: int, index: int) -> tuple[State, int]:
    """Game ``index`` of the run seeded ``seed`` as the Python loop plays it: the final state,
    with its history, and the number of decisions. Its seeds are those ``Game.simulate`` gives
    game ``index``: chance is resolved by the state ``game.new_state(derive_seed(seed, index))``
    and the built-in agents draw from the game's :class:`AgentStream`, so that a game of
    built-in agents only is the very game the engine plays. A callable in seat p gets
    ``random.Random(derive_seed(stream.seed, p))``. Nothing else enters, so the games are
    deterministic."""
    state = game.new_state(derive_seed(seed, index))
    stream = AgentStream(seed, index)
    rngs: dict[int, random.Random] = {}
    decision = 0
    while not state.is_terminal:
        player = state.current_player
        agent = agents[player]
        if isinstance(agent, str):
            action: Any = stream.action(state, agent)
        else:
            rng = rngs.get(player)
            if rng is None:
                rng = rngs[player] = random.Random(derive_seed(stream.seed, player))
            try:
                action = agent(state.clone(), player, rng)
            except BaseException as e:
                e.add_note(f"raised by the agent of seat {player} ({agent_label(agent)}) in game {index}")
                raise
            if not isinstance(action, str):
                try:
                    if isinstance(action, bool):
                        raise TypeError
                    action = operator.index(action)
                except TypeError:
                    raise TypeError(
                        f"the agent of seat {player} ({agent_label(agent)}) returned {action!r} in game "
                        f"{index}: an agent returns an action id (int) or an action name (str)"
                    ) from None
        try:
            state.apply(action)
        except ValueError as e:
            e.add_note(f"the agent of seat {player} ({agent_label(agent)}) chose {action!r} in game {index}, "
                       f"move {state.move_number}")
            raise
        decision += 1
    return state, decision
