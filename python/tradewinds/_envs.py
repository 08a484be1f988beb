"""What the Gymnasium and PettingZoo adapters share: the render modes and rendering the table
(as the players see it), and the bound of the seeds they draw from their random generators."""

from __future__ import annotations

import gymnasium

import tradewinds as tw

#: Seeds drawn for the game's chance and for the built-in agents lie in ``[0, SEED_BOUND)``.
SEED_BOUND = 2**63

#: The render modes an adapter accepts (``None``: no rendering).
RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode``, or ``ValueError`` unless it is ``None``, ``"ansi"`` or ``"human"``."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
    return render_mode


def render(state: tw.State, render_mode: str | None) -> str | None:
    """The table as the players see it (``str(state)``), as text (``"ansi"``) or printed
    (``"human"``); with ``None``, a warning."""
    if render_mode is None:
        gymnasium.logger.warn("render() was called with render_mode=None; pass render_mode='ansi'")
        return None
    text = str(state)
    if render_mode == "human":
        print(text)
        return None
    return text
