"""Who plays each seat in a bulk simulation: built-in agents named by a spec, or Python callables.

Built-in agents run inside Rust, on all cores, without the GIL:

* ``"random"``: uniform over the legal moves;
* ``"greedy"``: one-ply lookahead on the game's evaluation (ties broken at random);
* ``"mcts"``: Monte Carlo tree search (information-set MCTS for games with hidden
  information), with parameters ``"mcts:iterations=200,exploration=1.4,rollout_depth=200"``
  (those are the defaults; give any subset), ``playout=random|greedy`` and ``epsilon=E``
  (ε-greedy playouts over one-ply evaluations; default ``random``, ε 0.1) and ``ms=N`` (a
  time budget per decision, which makes the games depend on the machine);
* the named levels :data:`LEVELS`, ``"mcts:fast"`` and ``"mcts:strong"``: MCTS with fixed
  parameters (docs/agents.md gives their cost and strength), which later parameters may amend
  (``"mcts:strong,ms=30"``). Results name them by their parameters.

Any other agent is a Python callable ``agent(state, player, rng) -> action``:

* ``state`` is a copy of the current :class:`~tradewinds.State`, where it is ``player``'s turn
  to decide (the agent may change the copy freely). It is the full state, hidden parts
  included: an agent that should play fairly looks only at ``state.observation_string(player)``,
  ``state.observation_tensor(player)``, ``state.legal_actions()`` or a
  ``state.resample(player, seed)`` of it;
* ``player`` is the seat to move;
* ``rng`` is a :class:`random.Random` seeded from the simulation's seed, the game's index and
  the seat. An agent that draws its randomness only from ``rng`` (and the seeds it derives
  from it) makes the simulation deterministic for its seed;
* the return value is a legal action: its id (``int``) or its name (``str``).

Games with a Python agent in any seat are played by a Python loop (the built-in agents of the
other seats still decide in Rust). The loop holds the GIL, so more threads do not speed it up;
it is typically one to two orders of magnitude slower than the same games played entirely in
Rust, before the agent's own cost. Dask workers in separate processes run such games in
parallel.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from ._core import Game, State, built_in_agents

__all__ = [
    "AGENT_NAMES", "LEVELS", "Agent", "AgentFunction", "normalize_agents", "canonical_spec", "agent_label", "parse_agent_list",
]

#: The names of the built-in agents.
AGENT_NAMES: tuple[str, ...] = ("random", "greedy", "mcts")

#: The named levels of the built-in MCTS, weakest first.
LEVELS: tuple[str, ...] = ("mcts:fast", "mcts:strong")

#: A Python agent: ``agent(state, player, rng) -> action id or action name``.
AgentFunction = Callable[[State, int, random.Random], int | str]

#: An agent spec (``"random"``, ``"mcts:iterations=100"``) or a Python agent.
Agent = str | AgentFunction

#: The built-in agents, as the engine names them in its errors (read from the engine).
BUILT_IN: str = built_in_agents()

_ALLOWED = f"agents are {BUILT_IN}, or a Python callable agent(state, player, rng) -> action"

#: How the engine's error for a bad spec begins, and how it lists the built-in agents.
_ENGINE_PREFIX = 'invalid option "agents": '
_ENGINE_ALLOWED = f"; agents are {BUILT_IN}"


def agent_label(agent: Agent) -> str:
    """How an agent is named in results and manifests: a built-in agent's spec, or
    ``"python:module.qualname"`` for a callable."""
    if isinstance(agent, str):
        return agent
    module = getattr(agent, "__module__", None) or "?"
    name = getattr(agent, "__qualname__", None) or getattr(agent, "__name__", None) or type(agent).__qualname__
    return f"python:{module}.{name}"


def canonical_spec(game: Game, spec: str) -> str:
    """The canonical form of a built-in agent's spec (``"mcts"`` names its iterations,
    exploration and rollout depth, and its other parameters where they are not the defaults;
    a level is named by its parameters),
    checked by the engine's own parser. A bad spec raises ``ValueError`` with the engine's
    reason (an unknown agent's error lists the built-in agents once)."""
    try:
        raw = game.simulate(0, 0, 1, None, [spec] * game.players)
    except ValueError as e:
        raise ValueError(str(e).removeprefix(_ENGINE_PREFIX)) from None
    return str(raw["agents"][0])


def _canonical_spec(game: Game, spec: str, seat: int) -> str:
    """:func:`canonical_spec`, with an error that names the seat and the Python kind of agent."""
    try:
        return canonical_spec(game, spec)
    except ValueError as e:
        reason = str(e)
        if reason.endswith(_ENGINE_ALLOWED):
            reason = reason.removesuffix(_ENGINE_ALLOWED) + "; " + _ALLOWED
        raise ValueError(f"agents[{seat}] (seat {seat}): bad agent {shown(spec)}: {cut(reason, 400)}") from None


def cut(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` characters and how long it is, so that a message
    never echoes a huge value in full."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def shown(value: str, limit: int = 60) -> str:
    """A value as a message quotes it (its repr), cut to a sensible length."""
    return repr(value) if len(value) <= limit else f"{value[:limit]!r}... ({len(value):,} characters)"


def normalize_agents(game: Game, agents: Sequence[Agent] | None) -> list[Agent]:
    """One agent per seat: built-in specs in canonical form, callables as given.

    ``None`` means every seat plays at random. Raises ``TypeError`` for something that is
    neither a spec nor a callable, ``ValueError`` for a bad spec or the wrong number of
    agents (naming the allowed agents).
    """
    players = game.players
    if agents is None:
        return ["random"] * players
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(
            f"agents must be a list with one agent per seat ({players} for this game), e.g. "
            f"{['mcts'] + ['random'] * (players - 1)!r}; got {type(agents).__name__}"
        )
    if len(agents) != players:
        raise ValueError(
            f"{len(agents)} agents for {players} seats: give one agent per seat; {_ALLOWED}"
        )
    out: list[Agent] = []
    for seat, agent in enumerate(agents):
        if isinstance(agent, str):
            out.append(_canonical_spec(game, agent, seat))
        elif callable(agent):
            out.append(agent)
        else:
            raise TypeError(
                f"agents[{seat}] (seat {seat}): an agent is a spec string or a callable, not {type(agent).__name__}; {_ALLOWED}"
            )
    return out


def parse_agent_list(text: str) -> list[str]:
    """Splits a command line's ``random,mcts:iterations=100,exploration=2,greedy`` into
    agent specs: a piece that is a bare ``key=value`` continues the previous agent's
    parameters, so ``mcts:iterations=100,exploration=2`` stays one agent."""
    specs: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if not piece:
            raise ValueError(f"empty agent in {shown(text)}")
        head = piece.split(":", 1)[0]
        if "=" in head and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        elif "=" in head:
            raise ValueError(f"{shown(piece)} in {shown(text)} is a parameter without an agent before it")
        else:
            specs.append(piece)
    return specs
