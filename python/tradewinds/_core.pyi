"""Type stubs of the Rust extension module ``tradewinds._core``."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, TypedDict, final, type_check_only

import numpy as np
import numpy.typing as npt

__all__ = [
    "TradewindsError",
    "OptionError",
    "IllegalActionError",
    "StateFormatError",
    "DataFileError",
    "SetupError",
    "RecordError",
    "CHANCE",
    "TERMINAL",
    "GAMES",
    "REGISTERED",
    "Game",
    "State",
    "ScoreReport",
    "VectorGame",
    "VectorStep",
    "AgentStream",
    "load",
    "configurations",
    "options",
    "shipped_data",
    "replay",
    "derive_seed",
    "built_in_agents",
    "_load_config",
    "_state_from_bytes",
    "_check_panic_guard",
]

CHANCE: Final[int]
TERMINAL: Final[int]
GAMES: Final[tuple[str, ...]]
REGISTERED: Final[tuple[str, ...]]

class TradewindsError(ValueError): ...
class OptionError(TradewindsError): ...
class IllegalActionError(TradewindsError): ...
class StateFormatError(TradewindsError): ...
class DataFileError(TradewindsError): ...
class SetupError(TradewindsError): ...
class RecordError(TradewindsError): ...

@type_check_only
class _SimulationDict(TypedDict):
    game: str
    games: int
    players: int
    seed: int
    threads: int
    first: int
    agents: list[str]
    elapsed_seconds: float
    categories: list[str]
    scores: npt.NDArray[np.float64]
    winners: npt.NDArray[np.bool_]
    moves: npt.NDArray[np.uint64]
    decisions: npt.NDArray[np.uint64]
    truncated: npt.NDArray[np.bool_]
    category_points: npt.NDArray[np.float64]
    opponents: list[str]
    tiers: list[str]
    opponent_scores: npt.NDArray[np.float64]
    opponent_wins: npt.NDArray[np.bool_]
    tier: npt.NDArray[np.int8]
    metrics: bool
    turns: npt.NDArray[np.int64]
    lead_changes: npt.NDArray[np.int64]
    lead_from: npt.NDArray[np.int64]
    drama: npt.NDArray[np.float64]
    legal_moves: npt.NDArray[np.uint64]
    branching: npt.NDArray[np.uint32]

@type_check_only
class _ScoreRecord(TypedDict):
    points: list[list[float]]
    totals: list[float]
    winners: list[int]
    opponent_totals: list[float]
    opponent_winners: list[int]
    tier: int | None

def load(name: str, options: dict[str, Any] | None = None) -> Game: ...
def configurations(name: str) -> list[dict[str, Any]]: ...
def options(name: str) -> list[dict[str, Any]]: ...
def shipped_data(name: str) -> str | None: ...
def replay(record: str, moves: int | None = None) -> State: ...
def derive_seed(seed: int, index: int) -> int: ...
def built_in_agents() -> str: ...
def _load_config(config_json: str) -> Game: ...
def _state_from_bytes(config_json: str, data: bytes) -> State: ...
def _check_panic_guard(message: str, detach: bool = False) -> None: ...
@final
class Game:
    # Generated from the lists in src/engine/dynamic.rs (`game_fields!`, `state_methods!`): edit
    # them there, then run `TRADEWINDS_STUBS=write cargo test --lib stubs_match` to rewrite this block.
    @property
    def name(self) -> str:
        """The game's name, one of `tradewinds.GAMES`."""
    @property
    def players(self) -> int:
        """Seats: the players who decide (1 to 5)."""
    @property
    def opponents(self) -> list[str]:
        """Opponents that are not seats (a solo game's Vikings, automa players), by name: the
        game moves them; they have rows in the score report but no returns or observations."""
    @property
    def tiers(self) -> list[str]:
        """Reward tiers or difficulty goals a result can reach, lowest first (often none)."""
    @property
    def num_distinct_actions(self) -> int:
        """Player actions lie in `range(num_distinct_actions)`."""
    @property
    def max_chance_outcomes(self) -> int:
        """Chance outcomes lie in `range(max_chance_outcomes)`."""
    @property
    def max_game_length(self) -> int:
        """No game lasts longer than this many moves (decisions plus chance outcomes)."""
    @property
    def zero_sum(self) -> bool:
        """Whether the returns of every finished game add up to zero."""
    @property
    def min_return(self) -> float:
        """The smallest return a player can get."""
    @property
    def max_return(self) -> float:
        """The largest return a player can get."""
    # End of the generated block.
    @property
    def title(self) -> str: ...
    @property
    def how_to_play(self) -> str: ...
    @property
    def notation(self) -> str: ...
    @property
    def state_format(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def observation_tensor_shape(self) -> tuple[int, ...]: ...
    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...
    def observation_fields(self) -> list[tuple[str, int, int]]: ...
    def new_state(self, seed: int = 0, explicit_chance: bool = False) -> State: ...
    def setup(self, description: Any, seed: int = 0, explicit_chance: bool = False) -> State: ...
    def state_from_json(self, text: str) -> State: ...
    def state_from_bytes(self, data: bytes) -> State: ...
    def config_json(self) -> str: ...
    def simulate(
        self,
        games: int,
        seed: int = 0,
        threads: int = 0,
        progress: Callable[[int], object] | None = None,
        agents: Sequence[str] | None = None,
        first: int = 0,
        metrics: bool = False,
        metrics_every: int = 64,
    ) -> _SimulationDict: ...
    def replay_game(self, index: int, seed: int = 0, agents: Sequence[str] | None = None) -> State: ...
    def __reduce__(self) -> tuple[Callable[[str], Game], tuple[str]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class State:
    # Generated from the lists in src/engine/dynamic.rs (`game_fields!`, `state_methods!`): edit
    # them there, then run `TRADEWINDS_STUBS=write cargo test --lib stubs_match` to rewrite this block.
    @property
    def current_player(self) -> int:
        """The player to act, `CHANCE` (-1) at a chance node or `TERMINAL` (-4) at the end
        (OpenSpiel's player ids)."""
    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
    @property
    def is_chance(self) -> bool:
        """True at a chance node (only with `explicit_chance`)."""
    @property
    def is_truncated(self) -> bool:
        """True when the game ended at its move bound rather than by its rules."""
    @property
    def decision_is_secret(self) -> bool:
        """Whether the decision here is secret from the other seats (a simultaneous choice made
        one seat after another)."""
    @property
    def move_number(self) -> int:
        """Moves so far (decisions and chance outcomes)."""
    @property
    def explicit_chance(self) -> bool:
        """Whether chance nodes are left to the caller (else they are resolved from the seed)."""
    @property
    def seed(self) -> int | None:
        """The seed the game was started from, while known (a game from `Game.new_state`; None
        for one set up, resampled or loaded). Game records carry it."""
    def history(self) -> list[int]:
        """Every action applied so far (decisions and chance outcomes), in order."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """`(outcome, probability)` pairs at a chance node; empty elsewhere."""
    def fingerprint(self) -> int:
        """A 64-bit fingerprint of the position, for transposition tables: equal for equal
        states, and for states of one game that reached the same position by other moves. The
        history, the move number and the generator of implicit chance are not part of it. The
        same in every process and on every platform."""
    def scores(self) -> list[float]:
        """Each player's current (or final) score in victory points."""
    def returns(self) -> list[float]:
        """Win/loss returns; non-zero only at the end."""
    def winners(self) -> list[int]:
        """The winning seats at the end (empty before, when the game was truncated, and when no
        seat won: see `score_report().winner_names` for who or what did)."""
    def score_report(self) -> ScoreReport:
        """The score broken down by scoring category."""
    def to_json(self) -> str:
        """The state as JSON text (load it with `Game.state_from_json`)."""
    def render(self) -> str:
        """The whole table as an omniscient spectator sees it, hidden cards included (for
        debugging; `str(state)` shows only what the players see)."""
    def views(self) -> list[tuple[str, str]]:
        """The game's named views beside the table (Mistwind's `map`, say), as `(name, what it
        shows)` pairs; empty for a game without any."""
    def string_to_action(self, text: str) -> int:
        """The legal action named `text` (exact, or ignoring case and surrounding spaces)."""
    # End of the generated block.
    @property
    def game(self) -> Game: ...
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply(self, action: int | str) -> None: ...
    def child(self, action: int | str) -> State: ...
    def action_to_string(self, action: int, observer: int | None = None) -> str: ...
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: object) -> State: ...
    def score_record(self) -> _ScoreRecord: ...
    def observation_string(self, player: int) -> str: ...
    def to_svg(self, observer: int | Literal["table"] | None = None) -> str: ...
    def _repr_svg_(self) -> str: ...
    def view(self, name: str, observer: int | None = None) -> str: ...
    def observation_tensor(self, player: int) -> npt.NDArray[np.float32]: ...
    def resample(self, player: int, seed: int = 0) -> State: ...
    def agent_action(self, agent: str, seed: int = 0) -> int: ...
    def record(self) -> str: ...
    def log(self, observer: int | None = None) -> list[tuple[int, int, str]]: ...
    def to_bytes(self) -> bytes: ...
    def _repr_html_(self) -> str: ...
    def __reduce__(self) -> tuple[Callable[[str, bytes], State], tuple[str, bytes]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

@final
class ScoreReport:
    @property
    def categories(self) -> list[str]: ...
    @property
    def points(self) -> list[list[float]]: ...
    @property
    def totals(self) -> list[float]: ...
    @property
    def tie_breakers(self) -> list[str]: ...
    @property
    def tie_breaker_values(self) -> list[list[float]]: ...
    @property
    def winners(self) -> list[int]: ...
    @property
    def opponents(self) -> list[tuple[str, list[float], float]]: ...
    @property
    def opponent_winners(self) -> list[int]: ...
    @property
    def winner_names(self) -> list[str]: ...
    @property
    def tier(self) -> str | None: ...
    @property
    def terminal(self) -> bool: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def notes(self) -> list[str]: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_table(self) -> str: ...
    def _repr_html_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

@final
class AgentStream:
    """The random stream of the built-in agents of one game of a run."""

    def __new__(cls, seed: int, index: int) -> AgentStream: ...
    @property
    def seed(self) -> int: ...
    def action(self, state: State, agent: str) -> int: ...

@final
class VectorStep:
    """What one ``VectorGame.step`` reported."""

    @property
    def finished(self) -> npt.NDArray[np.int64]: ...
    @property
    def returns(self) -> npt.NDArray[np.float64]: ...
    @property
    def terminated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncated(self) -> npt.NDArray[np.bool_]: ...

@final
class VectorGame:
    """``num_games`` games of one configuration, stepped together in Rust."""

    def __new__(
        cls,
        game: str | Game,
        num_games: int,
        *,
        seed: int = 0,
        agents: Mapping[int, str | None] | Sequence[str | None] | None = None,
        auto_reset: bool = True,
        explicit_chance: bool = False,
        threads: int = 0,
        legal: Literal["mask", "actions", "both"] = "mask",
        **options: Any,
    ) -> VectorGame: ...
    @property
    def game(self) -> Game: ...
    @property
    def num_games(self) -> int: ...
    def __len__(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def seats(self) -> list[int]: ...
    @property
    def agents(self) -> dict[int, str]: ...
    @property
    def seed(self) -> int: ...
    @property
    def auto_reset(self) -> bool: ...
    @property
    def explicit_chance(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    @property
    def legal(self) -> Literal["mask", "actions", "both"]: ...
    @property
    def current_player(self) -> npt.NDArray[np.int32]: ...
    @property
    def returns(self) -> npt.NDArray[np.float64]: ...
    @property
    def terminated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def truncated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def episode(self) -> npt.NDArray[np.int64]: ...
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def legal_actions(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]: ...
    def chance_outcomes(self) -> npt.NDArray[np.float64]: ...
    def observation_tensor(
        self, seat: int | None = None, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]: ...
    def step(self, actions: npt.ArrayLike) -> VectorStep: ...
    def reset(self, seed: int | None = None, games: npt.ArrayLike | None = None) -> None: ...
    def state(self, index: int) -> State: ...
    def game_seed(self, index: int, episode: int | None = None) -> int: ...
