"""PettingZoo adapter: every tradewinds game as an AEC (agent-environment-cycle) environment.

::

    import tradewinds.pettingzoo

    env = tradewinds.pettingzoo.env("north-wind", players=3)
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    env.close()

Agents are ``"player_0"``, ``"player_1"``, ... (seat order). The agent to act is the player to
move; the same agent often acts several times in a row. Each agent observes
``{"observation": float32 tensor of the game's observation_tensor_shape, "action_mask": int8
mask over the num_distinct_actions actions}`` (the mask is all zeros for an agent that is not
to act). Chance (shuffles, dice, reveals) is resolved inside the environment from the seed
given to ``reset(seed=...)``, so a seeded episode is reproducible.

Rewards come at the end: each agent receives its return (win/loss, in [-1, 1]). A game that
reaches its turn bound (``max_turns``) ends with every agent truncated and rewards 0; a game
that ends by its rules ends with every agent terminated. An illegal action raises
``tradewinds.IllegalActionError``; wrap the environment in PettingZoo's
``TerminateIllegalWrapper`` for the "an illegal move loses" convention instead.

``render()`` returns the table as text, as every player at it sees it (``str(state)``: no
hidden card; ``state.render()`` on the underlying state shows them) with the default
``render_mode="ansi"``, and prints it with ``render_mode="human"``.
"""

from __future__ import annotations

from typing import Any

from .simulation import require_extra

require_extra("tradewinds.pettingzoo", "pettingzoo", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
from gymnasium import spaces  # noqa: E402
from gymnasium.utils import seeding  # noqa: E402
from pettingzoo import AECEnv  # type: ignore[import-untyped,unused-ignore]  # noqa: E402
from pettingzoo.utils import wrappers  # type: ignore[import-untyped,unused-ignore]  # noqa: E402

import tradewinds as tw  # noqa: E402

from ._envs import RENDER_MODES, SEED_BOUND, check_render_mode, render  # noqa: E402

__all__ = ["env", "raw_env", "TradewindsAECEnv", "Observation"]

#: What an agent observes.
Observation = dict[str, npt.NDArray[Any]]


def env(game: str, render_mode: str | None = "ansi", **options: Any) -> Any:
    """Game ``game`` (one of :data:`tradewinds.GAMES`) as a PettingZoo AEC environment, wrapped
    in PettingZoo's ``OrderEnforcingWrapper`` as PettingZoo's own environments are. Options are
    those of :func:`tradewinds.load` (``players=3``, ``max_turns=...``, ``data=...``)."""
    return wrappers.OrderEnforcingWrapper(TradewindsAECEnv(game, render_mode=render_mode, **options))


def raw_env(game: str, render_mode: str | None = "ansi", **options: Any) -> TradewindsAECEnv:
    """The environment without wrappers."""
    return TradewindsAECEnv(game, render_mode=render_mode, **options)


class TradewindsAECEnv(AECEnv):  # type: ignore[misc]
    """A tradewinds game as a ``pettingzoo.AECEnv`` (build it with :func:`env`)."""

    def __init__(self, game: str, render_mode: str | None = "ansi", **options: Any) -> None:
        super().__init__()
        self.render_mode = check_render_mode(render_mode)
        self.game: tw.Game = tw.load(game, **options)
        self.metadata = {
            "render_modes": list(RENDER_MODES),
            "name": f"{game.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        players = self.game.players
        self.possible_agents: list[str] = [f"player_{p}" for p in range(players)]
        self.agent_name_mapping: dict[str, int] = {a: p for p, a in enumerate(self.possible_agents)}
        shape = self.game.observation_tensor_shape
        low, high = (bound.reshape(shape) for bound in self.game.observation_bounds())
        actions = self.game.num_distinct_actions
        # One space object per agent (seeding one must not seed another).
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._state: tw.State | None = None
        self._np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's random generator (seeded by ``reset(seed=...)``)."""
        if self._np_random is None:
            self._np_random, self.np_random_seed = seeding.np_random()
        return self._np_random

    @property
    def tradewinds_state(self) -> tw.State:
        """The game's current state (read it; acting on it directly desynchronises the environment)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, self.np_random_seed = seeding.np_random(seed)
        self._state = self.game.new_state(seed=int(self.np_random.integers(0, SEED_BOUND)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move(self.possible_agents[0])

    def observe(self, agent: str) -> Observation:
        state = self.tradewinds_state
        p = self.agent_name_mapping[agent]
        if state.current_player == p:
            mask = state.legal_action_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_distinct_actions, np.int8)
        return {"observation": state.observation_tensor(p), "action_mask": mask}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only the action of a finished agent")
        self.tradewinds_state.apply(int(action))  # an illegal action raises, changing nothing
        self._cumulative_rewards[agent] = 0.0
        self._after_move(agent)

    def _after_move(self, mover: str) -> None:
        state = self.tradewinds_state
        if state.is_terminal:
            returns = state.returns()
            truncated = state.is_truncated
            for a, p in self.agent_name_mapping.items():
                self.rewards[a] = float(returns[p])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
            # The finished agents now take their last (None) steps, starting after the mover.
            mover_seat = self.agent_name_mapping[mover]
            self.agent_selection = self.possible_agents[(mover_seat + 1) % len(self.possible_agents)]
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as the players see it, as text (``render_mode="ansi"``), or printed (``"human"``)."""
        return render(self.tradewinds_state, self.render_mode)

    def close(self) -> None:
        pass
