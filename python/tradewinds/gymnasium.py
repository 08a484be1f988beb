"""Gymnasium adapter: one seat of a tradewinds game as a single-agent environment.

::

    import tradewinds.gymnasium

    env = tradewinds.gymnasium.env("north-wind", players=3, seat=0, opponents="greedy")
    observation, info = env.reset(seed=42)
    done = False
    while not done:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated

The agent plays seat ``seat``; the other seats are played by the built-in agents
(:meth:`tradewinds.State.agent_action`): ``opponents`` is one agent spec for all of them
(``"random"``, ``"greedy"``, ``"mcts:iterations=200"``...) or a list with one spec per other
seat, in seat order. Chance and the opponents' randomness come from the seed given to
``reset(seed=...)``, so a seeded episode is reproducible.

The observation is the seat's observation tensor (float32, the game's
``observation_tensor_shape``); ``info["action_mask"]`` is the int8 mask of the legal actions
(all zeros once the episode is over). The reward is the seat's return at the end (win/loss, in
[-1, 1]) and 0 before. ``terminated`` is set when the game ends by its rules, ``truncated``
when it reaches its turn bound (``max_turns``; the reward is then 0).

An illegal action ends the episode as a loss by default (reward -1, ``terminated``,
``info["illegal_action"] = True``), so that agents without action masking can learn;
``illegal_action="raise"`` raises ``tradewinds.IllegalActionError`` instead.

Importing this module registers each game as ``tradewinds/<name>-v0``::

    import gymnasium
    import tradewinds.gymnasium

    env = gymnasium.make("tradewinds/north-wind-v0", players=2, opponents="random")
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from .simulation import require_extra

require_extra("tradewinds.gymnasium", "gymnasium", "gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402

import tradewinds as tw  # noqa: E402

from ._envs import RENDER_MODES, SEED_BOUND, check_render_mode, render  # noqa: E402

__all__ = ["env", "env_id", "TradewindsEnv", "Action", "LOSS_REWARD"]

#: An action: an action id (a Python or NumPy integer).
Action: TypeAlias = "int | np.integer[Any]"

#: The reward of an illegal action under ``illegal_action="lose"`` (the lowest return).
LOSS_REWARD = -1.0


def env_id(game: str) -> str:
    """The id game ``game`` is registered under with ``gymnasium.make``."""
    if game not in tw.GAMES:
        raise tw.OptionError(f"unknown game {game!r}; available games: {', '.join(tw.GAMES)}")
    return f"tradewinds/{game}-v0"


def env(
    game: str,
    *,
    seat: int = 0,
    opponents: str | Sequence[str] = "random",
    illegal_action: str = "lose",
    render_mode: str | None = "ansi",
    **options: Any,
) -> TradewindsEnv:
    """Seat ``seat`` of game ``game`` (one of :data:`tradewinds.GAMES`) as a ``gymnasium.Env``.
    Options are those of :func:`tradewinds.load` (``players=3``, ``max_turns=...``).

    The environment is built through ``gymnasium.make`` (so it carries its ``spec``) and
    returned without gymnasium's checking wrappers."""
    made = gymnasium.make(
        env_id(game),
        seat=seat,
        opponents=opponents,
        illegal_action=illegal_action,
        render_mode=render_mode,
        **options,
    )
    unwrapped = made.unwrapped
    assert isinstance(unwrapped, TradewindsEnv)
    return unwrapped


class TradewindsEnv(gymnasium.Env[npt.NDArray[np.float32], Action]):
    """One seat of tradewinds game ``game`` against built-in agents (build it with :func:`env`,
    or ``gymnasium.make(env_id(game), ...)``). The game has no default: name it."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: str,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_action: str = "lose",
        render_mode: str | None = "ansi",
        **options: Any,
    ) -> None:
        self.game: tw.Game = tw.load(game, **options)
        players = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat of the {players}-player game (0..{players - 1}), got {seat!r}")
        self.seat = seat
        others = [p for p in range(players) if p != seat]
        if isinstance(opponents, str):
            specs = [opponents] * len(others)
        else:
            specs = list(opponents)
            if len(specs) != len(others) or not all(isinstance(s, str) for s in specs):
                raise ValueError(
                    f"opponents must be one agent spec or a list of {len(others)} specs (one per other seat), "
                    f"got {opponents!r}"
                )
        #: The built-in agent playing each other seat.
        self.opponents: dict[int, str] = dict(zip(others, specs))
        # Validates the specs (playing no games): an unknown agent raises ValueError.
        self.game.simulate(0, agents=[self.opponents.get(p, "random") for p in range(players)])
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=self.game.observation_tensor_shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._state: tw.State | None = None
        self._over = False

    @property
    def tradewinds_state(self) -> tw.State:
        """The game's current state (read it; acting on it directly desynchronises the environment)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self._state = self.game.new_state(seed=int(self.np_random.integers(0, SEED_BOUND)))
        self._play_opponents()
        # (A game that the opponents finish before the seat ever acts has nothing to step.)
        self._over = self._state.is_terminal
        return self._observation(), self._info()

    def step(
        self, action: Action
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        state = self.tradewinds_state
        if self._over:
            raise RuntimeError("the episode is over; call reset()")
        a = int(action)
        if self.illegal_action == "lose" and a not in state.legal_actions():
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), LOSS_REWARD, True, False, info
        state.apply(a)
        self._play_opponents()
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal:
            self._over = True
            reward = float(state.returns()[self.seat])
            truncated = state.is_truncated
            terminated = not truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        """The table as the players see it, as text (``render_mode="ansi"``), or printed (``"human"``)."""
        return render(self.tradewinds_state, self.render_mode)

    def _play_opponents(self) -> None:
        state = self.tradewinds_state
        while not state.is_terminal and state.current_player != self.seat:
            agent = self.opponents[state.current_player]
            state.apply(state.agent_action(agent, int(self.np_random.integers(0, SEED_BOUND))))

    def _observation(self) -> npt.NDArray[np.float32]:
        return self.tradewinds_state.observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        state = self.tradewinds_state
        if self._over or state.current_player != self.seat:
            mask = np.zeros(self.game.num_distinct_actions, np.int8)
        else:
            mask = state.legal_action_mask().astype(np.int8)
        return {"action_mask": mask}


def _register() -> None:
    registered = gymnasium.envs.registry
    for game in tw.GAMES:
        if env_id(game) not in registered:
            gymnasium.register(id=env_id(game), entry_point="tradewinds.gymnasium:TradewindsEnv", kwargs={"game": game})


_register()
