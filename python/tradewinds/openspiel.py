"""OpenSpiel adapter: every tradewinds game as a registered ``pyspiel`` game.

Importing this module registers each game of :data:`tradewinds.GAMES` with OpenSpiel under
the short name ``tradewinds_<name>`` (dashes become underscores: ``tradewinds_north_wind``),
so that both of these work::

    import pyspiel
    import tradewinds.openspiel

    game = tradewinds.openspiel.load("north-wind", players=3)
    same = pyspiel.load_game("tradewinds_north_wind(players=3)")

The games are sequential, imperfect-information games with explicit chance nodes
(stochastic, ``EXPLICIT_STOCHASTIC``) and terminal rewards. Player actions are the game's
action ids in ``[0, num_distinct_actions)``; chance outcomes are the game's chance outcome ids
in ``[0, max_chance_outcomes)``, with the probabilities the rules give them.

Observations: ``information_state_string/tensor(p)`` and ``observation_string/tensor(p)`` are
both player p's observation (:meth:`tradewinds.State.observation_string` and
:meth:`~tradewinds.State.observation_tensor`). A tradewinds observation already carries
everything p has seen during the game that still matters (for hidden cards, p's perfect-recall
knowledge of them), so it serves as the information state. It is a sufficient summary of p's
past rather than the literal sequence of p's observations and actions: two histories that leave
p with the same knowledge give the same information state.

``state.resample_from_infostate(p, sampler)`` draws a full state consistent with p's
information state, with the right probabilities, through :meth:`tradewinds.State.resample`
(seeded from ``sampler``). As with ``tradewinds.State.resample``, the returned state's
``history()`` is empty: the true history would reveal what p may not know.

Utilities: the game's own return range (``Game.min_return``, ``Game.max_return``); a game cut
off at its turn bound (``max_turns``) is terminal with all returns 0. Games whose returns sum to
zero in every configuration (``Game.zero_sum``) are registered as zero-sum, the others (Norsewind,
whose solo game is won or lost against the Vikings) as general-sum.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Final

from tradewinds.simulation import require_extra

require_extra("tradewinds.openspiel", "open-spiel", "pyspiel")

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402
import pyspiel  # type: ignore[import-not-found,unused-ignore]  # noqa: E402

import tradewinds as tw  # noqa: E402
from tradewinds._core import configurations, shipped_data  # noqa: E402

__all__ = ["load", "short_name", "register", "TradewindsGame", "TradewindsState"]

_PARAMETER_TYPES = (bool, int, float, str)
_GAME_TYPES: dict[str, Any] = {}
_GAME_CLASSES: dict[str, type[TradewindsGame]] = {}


def short_name(game: str) -> str:
    """The name game ``game`` is registered under in OpenSpiel (``tradewinds_north_wind``)."""
    if game not in tw.GAMES:
        raise tw.OptionError(f"unknown game {game!r}; available games: {', '.join(tw.GAMES)}")
    return "tradewinds_" + game.replace("-", "_")


def _player_counts(game: str) -> list[int]:
    return sorted({int(c["players"]) for c in configurations(game)})


def _parameter_specification(game: str) -> dict[str, Any]:
    """The game's scalar options with their defaults, as OpenSpiel game parameters. The
    component data file is the string parameter ``data`` (a path; empty: the shipped file)."""
    spec: dict[str, Any] = {
        key: value for key, value in tw.load(game).options.items() if isinstance(value, _PARAMETER_TYPES)
    }
    if shipped_data(game) is not None:
        spec["data"] = ""
    return spec


def register(game: str) -> str:
    """Registers ``game`` with OpenSpiel (done for every game when this module is imported)
    and returns its OpenSpiel short name. Registering again does nothing."""
    name = short_name(game)
    if game in _GAME_TYPES:
        return name
    counts = _player_counts(game)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"tradewinds {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM
            if all(tw.load(game, **c).zero_sum for c in configurations(game))
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(game),
        default_loadable=True,
        provides_factored_observation_string=False,
    )
    _GAME_TYPES[game] = game_type
    # One subclass per game, registered as the game's creator. (A class, not a closure: the
    # OpenSpiel registry releases its creator when the process exits, after the interpreter has
    # shut down. A class is held by reference cycles of its own and survives that release; a
    # closure would be freed then, without the interpreter, and crash the exit.)
    cls = type(f"TradewindsGame_{game.replace('-', '_')}", (TradewindsGame,), {"tradewinds_name": game})
    _GAME_CLASSES[game] = cls
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, cls)
    return name


def _options_from_parameters(params: dict[str, Any]) -> dict[str, Any]:
    """tradewinds options from OpenSpiel game parameters (``data=""``: the shipped data)."""
    options = dict(params)
    if options.get("data", None) == "":
        del options["data"]
    return options


def load(game: str, **options: Any) -> Any:
    """Game ``game`` (one of :data:`tradewinds.GAMES`) as a ``pyspiel.Game``.

    ``tradewinds.openspiel.load("north-wind", players=3, max_turns=200)``. The options are those
    of :func:`tradewinds.load` whose values are numbers, booleans or strings; ``data=`` takes the
    path of a component data file. Bad options raise ``ValueError`` naming what is allowed.
    """
    name = register(game)
    params: dict[str, Any] = {}
    for key, value in options.items():
        if key == "data":
            if isinstance(value, dict):
                raise TypeError(
                    "OpenSpiel game parameters are scalars: pass data= as the path of a data file, not a dict"
                )
            if value is None:
                continue
            value = os.fspath(value)
        params[key] = value
    tw.load(game, **params)  # raises ValueError/TypeError naming the allowed options
    allowed = _GAME_TYPES[game].parameter_specification
    for key, value in params.items():
        if key not in allowed or not isinstance(value, _PARAMETER_TYPES):
            raise TypeError(
                f"option {key}={value!r} cannot be an OpenSpiel game parameter; "
                f"parameters of {name}: {', '.join(sorted(allowed))}"
            )
    return pyspiel.load_game(name, params)


class TradewindsGame(pyspiel.Game):  # type: ignore[misc]
    """A tradewinds game implementing ``pyspiel.Game`` (build it with :func:`load`)."""

    #: The tradewinds name of the game (set on the subclass registered for each game).
    tradewinds_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.tradewinds_name
        if not game:
            raise TypeError("build games with tradewinds.openspiel.load() or pyspiel.load_game()")
        params = dict(params or {})
        self.tradewinds_game: tw.Game = tw.load(game, **_options_from_parameters(params))
        g = self.tradewinds_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions,
            max_chance_outcomes=g.max_chance_outcomes,
            num_players=g.players,
            min_utility=g.min_return,
            max_utility=g.max_return,
            utility_sum=0.0 if _GAME_TYPES[game].utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=g.max_game_length,
        )
        full = dict(_GAME_TYPES[game].parameter_specification)
        full.update(params)
        super().__init__(_GAME_TYPES[game], info, full)

    def new_initial_state(self, *args: Any) -> TradewindsState:
        """The state before the set-up (a chance node: the set-up shuffles are chance outcomes)."""
        if args:
            raise ValueError("tradewinds games start from the rules' set-up; no initial-state string is taken")
        return TradewindsState(self, self.tradewinds_game.new_state(0, explicit_chance=True))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of each player's view (used for both observations and information states)."""
        if params:
            raise ValueError(f"tradewinds observers take no parameters; got {params}")
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "tradewinds provides one kind of observation: a player's own view (public "
                "information plus the player's private information); requested "
                f"public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}"
            )
        return _Observer(self.tradewinds_game.observation_tensor_shape)


class TradewindsState(pyspiel.State):  # type: ignore[misc]
    """A ``pyspiel.State`` wrapping a :class:`tradewinds.State` with explicit chance.

    ``state.tradewinds_state`` is the wrapped state (do not apply actions to it directly: the
    OpenSpiel history would not see them).
    """

    def __init__(self, game: TradewindsGame, inner: tw.State) -> None:
        super().__init__(game)
        # The only Python attribute: OpenSpiel copies it (deepcopy) to clone the state and
        # pickles it to serialize the state.
        self.tradewinds_state = inner

    # ---- the pyspiel.State interface ----------------------------------------------------------

    def current_player(self) -> int:
        # tradewinds' player ids are OpenSpiel's: tw.CHANCE is PlayerId.CHANCE (-1) and
        # tw.TERMINAL is PlayerId.TERMINAL (-4).
        return self.tradewinds_state.current_player

    def is_terminal(self) -> bool:
        return self.tradewinds_state.is_terminal

    def _legal_actions(self, player: int) -> list[int]:
        return self.tradewinds_state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.tradewinds_state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.tradewinds_state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        inner = self.tradewinds_state
        if (player == int(pyspiel.PlayerId.CHANCE)) == inner.is_chance and not inner.is_terminal:
            return inner.action_to_string(int(action))
        # Names depend on the state they are taken in; away from it, the id is all we have.
        return f"chance outcome {action}" if player == int(pyspiel.PlayerId.CHANCE) else f"action {action}"

    def returns(self) -> list[float]:
        return self.tradewinds_state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> TradewindsState:
        """A state consistent with ``player_id``'s information state, drawn with its posterior
        probability (``tradewinds.State.resample`` seeded from ``probability_sampler``)."""
        seed = (int(probability_sampler() * 2**32) << 32) | int(probability_sampler() * 2**32)
        resampled = self.tradewinds_state.resample(player_id, seed)
        return TradewindsState(self.get_game(), resampled)

    def __str__(self) -> str:
        # OpenSpiel's state string is the full state (information states are separate).
        return self.tradewinds_state.render()


class _Observer:
    """OpenSpiel's Python observer protocol over a tradewinds observation."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(int(np.prod(shape)), np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TradewindsState, player: int) -> None:
        self.tensor[:] = state.tradewinds_state.observation_tensor(player).reshape(-1)

    def string_from(self, state: TradewindsState, player: int) -> str:
        return state.tradewinds_state.observation_string(player)


for _game in tw.GAMES:
    register(_game)
