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
``observation_tensor_shape``), in a ``Box`` whose finite bounds are each entry's least and
greatest value (:func:`observation_space`); ``info["action_mask"]`` is the int8 mask of the legal actions
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

Many games at once: :func:`vector_env` (or ``gymnasium.make_vec(env_id(game), num_envs)``)
returns a :class:`TradewindsVectorEnv`, a ``gymnasium.vector.VectorEnv`` over
:class:`tradewinds.VectorGame`: the games, the opponents and chance are stepped in Rust, one
call per batch::

    envs = tradewinds.gymnasium.vector_env("north-wind", 256, players=3, seat=0, opponents="greedy")
    observations, infos = envs.reset(seed=42)
    actions = envs.action_space.sample(mask=tuple(infos["action_mask"]))
    observations, rewards, terminations, truncations, infos = envs.step(actions)
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
from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

import tradewinds as tw  # noqa: E402

from ._envs import RENDER_MODES, SEED_BOUND, check_render_mode, render  # noqa: E402

__all__ = ["env", "env_id", "observation_space", "vector_env", "TradewindsEnv", "TradewindsVectorEnv", "Action", "LOSS_REWARD"]

#: An action: an action id (a Python or NumPy integer).
Action: TypeAlias = "int | np.integer[Any]"

#: The reward of an illegal action under ``illegal_action="lose"`` (the lowest return).
LOSS_REWARD = -1.0


def observation_space(game: tw.Game) -> spaces.Box:
    """The space of ``game``'s observation tensors: each entry between the least and the
    greatest value it can take (:meth:`tradewinds.Game.observation_bounds`), finite."""
    low, high = game.observation_bounds()
    shape = game.observation_tensor_shape
    return spaces.Box(low.reshape(shape), high.reshape(shape), dtype=np.float32)


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
        self.seat = _seat(self.game, seat)
        #: The built-in agent playing each other seat.
        self.opponents: dict[int, str] = _opponents(self.game, seat, opponents)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = observation_space(self.game)
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


def _seat(game: tw.Game, seat: int) -> int:
    players = game.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be a seat of the {players}-player game (0..{players - 1}), got {seat!r}")
    return seat


def _opponents(game: tw.Game, seat: int, opponents: str | Sequence[str]) -> dict[int, str]:
    """The built-in agent of every seat but ``seat``: one spec for all, or one per other seat."""
    others = [p for p in range(game.players) if p != seat]
    if isinstance(opponents, str):
        specs = [opponents] * len(others)
    else:
        specs = list(opponents)
        if len(specs) != len(others) or not all(isinstance(s, str) for s in specs):
            raise ValueError(
                f"opponents must be one agent spec or a list of {len(others)} specs (one per other seat), "
                f"got {opponents!r}"
            )
    table = dict(zip(others, specs))
    # Validates the specs (playing no games): an unknown agent raises ValueError.
    game.simulate(0, agents=[table.get(p, "random") for p in range(game.players)])
    return table


def vector_env(
    game: str,
    num_envs: int,
    *,
    seat: int = 0,
    opponents: str | Sequence[str] = "random",
    illegal_action: str = "lose",
    copy: bool = True,
    threads: int = 0,
    render_mode: str | None = None,
    **options: Any,
) -> TradewindsVectorEnv:
    """Seat ``seat`` of ``num_envs`` games of ``game`` as a ``gymnasium.vector.VectorEnv``
    (a :class:`TradewindsVectorEnv`). Options are those of :func:`tradewinds.load`.

    Built through ``gymnasium.make_vec`` (so it carries its ``spec``)."""
    made = gymnasium.make_vec(
        env_id(game),
        num_envs=num_envs,
        vectorization_mode="vector_entry_point",
        seat=seat,
        opponents=opponents,
        illegal_action=illegal_action,
        copy=copy,
        threads=threads,
        render_mode=render_mode,
        **options,
    )
    unwrapped = made.unwrapped
    assert isinstance(unwrapped, TradewindsVectorEnv)
    return unwrapped


class TradewindsVectorEnv(VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """Seat ``seat`` of ``num_envs`` games of ``game``, the other seats played by built-in agents,
    as a ``gymnasium.vector.VectorEnv`` (build it with :func:`vector_env`, or
    ``gymnasium.make_vec(env_id(game), num_envs)``; the game has no default).

    It runs on one :class:`tradewinds.VectorGame`: a step is one call into Rust that plays the
    seat's action in every game, then the opponents and chance up to the seat's next decision.
    Each sub-environment behaves as :class:`TradewindsEnv`: observation the seat's observation
    tensor, ``infos["action_mask"]`` the int8 masks (zeros for a finished game), reward the seat's
    return at the end, ``terminated`` at an end by the rules, ``truncated`` at the turn bound, an
    illegal action a loss (or ``IllegalActionError`` with ``illegal_action="raise"``, raised
    before any game moves).

    Autoreset is Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step after a
    sub-environment ended starts its next game, ignores its action and returns reward 0.
    ``reset(seed=s)`` seeds every game, opponents included, from ``s``;
    ``reset(options={"reset_mask": mask})`` restarts the games ``mask`` selects.

    With ``copy=True`` (the default, as Gymnasium's own vector environments) every call
    returns new arrays; with ``copy=False`` the observations are the VectorGame's own array,
    overwritten in place by the next step (see :class:`tradewinds.VectorGame`)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(
        self,
        game: str,
        num_envs: int = 1,
        *,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        illegal_action: str = "lose",
        copy: bool = True,
        threads: int = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game: tw.Game = tw.load(game, **options)
        self.seat = _seat(self.game, seat)
        #: The built-in agent playing each other seat.
        self.opponents: dict[int, str] = _opponents(self.game, self.seat, opponents)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.copy = copy
        #: The games, stepped together in Rust (read it; acting on it desynchronises the environment).
        self.vector_game = tw.VectorGame(self.game, num_envs, agents=self.opponents, auto_reset=False, threads=threads)
        self.num_envs = num_envs
        self.single_observation_space = observation_space(self.game)
        self.single_action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        #: The sub-environments that ended in the last step (they restart at the next one).
        self._ended = np.zeros(num_envs, bool)
        self._reset_once = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        mask = (options or {}).get("reset_mask")
        if mask is None or not self._reset_once:
            self.vector_game.reset(seed=int(self.np_random.integers(0, SEED_BOUND)))
            self._ended[:] = False
            self._reset_once = True
        else:
            mask = np.asarray(mask, dtype=bool)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), not {mask.shape}")
            self.vector_game.reset(games=mask)
            self._ended[mask] = False
        return self._observations(), self._infos(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
               dict[str, Any]]:
        if not self._reset_once:
            raise RuntimeError("call reset() first")
        vg = self.vector_game
        acts = np.array(actions, dtype=np.int64).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {np.shape(actions)}")
        # Games over since the last step (and any the opponents ended before the seat could act)
        # restart: their actions are ignored.
        restart = self._ended | (vg.current_player == tw.TERMINAL)
        acts[restart] = -1
        illegal = None
        if self.illegal_action == "lose":
            mask = vg.legal_action_mask()
            inside = (acts >= 0) & (acts < mask.shape[1])
            legal = np.zeros(self.num_envs, bool)
            legal[inside] = mask[np.flatnonzero(inside), acts[inside]]
            illegal = ~legal & ~restart
            acts[illegal] = -1
        out = vg.step(acts)  # with illegal_action="raise", raises before any game moves
        if restart.any():
            vg.reset(games=restart)
        rewards = out.returns[:, self.seat].copy()
        terminated = out.terminated.copy()
        truncated = out.truncated.copy()
        if illegal is not None and illegal.any():
            rewards[illegal] = LOSS_REWARD
            terminated[illegal] = True
        self._ended = terminated | truncated
        return self._observations(), rewards, terminated, truncated, self._infos(illegal)

    def render(self) -> tuple[str, ...] | None:
        """Every game's table as the players see it, as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called with render_mode=None; pass render_mode='ansi'")
            return None
        return tuple(str(self.vector_game.state(i)) for i in range(self.num_envs))

    def _observations(self) -> npt.NDArray[np.float32]:
        observations = self.vector_game.observation_tensor(self.seat)
        return observations.copy() if self.copy else observations

    def _infos(self, illegal: npt.NDArray[np.bool_] | None) -> dict[str, Any]:
        mask = self.vector_game.legal_action_mask().view(np.int8).copy()
        mask[self._ended] = 0
        everywhere = np.ones(self.num_envs, bool)
        infos: dict[str, Any] = {"action_mask": mask, "_action_mask": everywhere}
        if illegal is not None and illegal.any():
            infos["illegal_action"] = illegal
            infos["_illegal_action"] = everywhere.copy()
        return infos


def _register() -> None:
    registered = gymnasium.envs.registry
    for game in tw.GAMES:
        if env_id(game) not in registered:
            gymnasium.register(
                id=env_id(game),
                entry_point="tradewinds.gymnasium:TradewindsEnv",
                vector_entry_point="tradewinds.gymnasium:TradewindsVectorEnv",
                kwargs={"game": game},
            )


_register()
