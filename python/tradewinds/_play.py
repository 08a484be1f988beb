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

import numpy as np

from ._core import Game, State
from ._results import Layout, RangeResult, allocate, pick
from .agents import Agent, agent_label

__all__ = ["run_range", "layout_of", "mix_seed", "play_one"]

_MASK = (1 << 64) - 1

# Stream tags of the seeds a Python-loop game derives from (seed, game index).
_CHANCE_STREAM = 0x43_48_41_4E_43_45  # "CHANCE"
_AGENT_STREAM = 0x41_47_45_4E_54  # "AGENT"
_BUILTIN_STREAM = 0x42_55_49_4C_54  # "BUILT"


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def mix_seed(*words: int) -> int:
    """A 64-bit seed derived from ``words`` (each reduced mod 2**64): different word lists
    give unrelated seeds."""
    h = 0x6A09E667F3BCC908
    for w in words:
        h = _splitmix64(h ^ (w & _MASK))
    return h


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
    """The Python loop for games with a callable agent. Game ``i`` starts from
    ``game.new_state(mix_seed(seed, i, CHANCE))`` (chance is resolved by the state's own
    seeded generator); a callable in seat p gets ``random.Random(mix_seed(seed, i, AGENT, p))``;
    a built-in agent's d-th decision of the game is ``state.agent_action(spec,
    mix_seed(seed, i, BUILTIN, d))``. Nothing else enters, so the games are deterministic."""
    start = time.perf_counter()
    layout = layout_of(game)
    players, ncat = layout.players, len(layout.categories)
    arrays = allocate(games, layout)
    scores, winners, category_points = arrays["scores"], arrays["winners"], arrays["category_points"]
    moves, decisions, truncated = arrays["moves"], arrays["decisions"], arrays["truncated"]
    opponent_scores, opponent_wins, tier = arrays["opponent_scores"], arrays["opponent_wins"], arrays["tier"]
    for k in range(games):
        index = first + k
        state, decision = play_one(game, agents, seed, index)
        report = state.score_report()
        scores[k] = state.scores()
        for w in state.winners():
            winners[k, w] = True
        moves[k] = state.move_number
        decisions[k] = decision
        truncated[k] = state.is_truncated
        if ncat:
            category_points[k] = np.asarray(report.points, dtype=np.float64).reshape(players, ncat)
        # As the engine records them: the opponents' totals in the report's order (the
        # game's), who of them won, and the tier reached as an index into the game's tiers.
        for o, (_, _, total) in enumerate(report.opponents):
            opponent_scores[k, o] = total
        for o in report.opponent_winners:
            opponent_wins[k, o] = True
        if report.tier is not None and report.tier in layout.tiers:
            tier[k] = layout.tiers.index(report.tier)
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
    """Game ``index`` of the run seeded ``seed`` as the Python loop plays it (see
    :func:`_play_python`): the final state, with its history, and the number of decisions."""
    state = game.new_state(mix_seed(seed, index, _CHANCE_STREAM))
    rngs: dict[int, random.Random] = {}
    decision = 0
    while not state.is_terminal:
        player = state.current_player
        agent = agents[player]
        if isinstance(agent, str):
            action: Any = state.agent_action(agent, mix_seed(seed, index, _BUILTIN_STREAM, decision))
        else:
            rng = rngs.get(player)
            if rng is None:
                rng = rngs[player] = random.Random(mix_seed(seed, index, _AGENT_STREAM, player))
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
