"""Tournaments: which agent (or which seat) is stronger, by how much, and how sure we are.

:func:`tournament` plays every seating of a set of agents over the same deals and rates the
agents from the results::

    import tradewinds as tw

    result = tw.tournament("north-wind", ["random", "greedy", "mcts:iterations=50"], games=100,
                           players=3, seed=1)
    print(result.summary())

**Seatings.** With as many agents as seats or more, every combination of agents takes part,
and each combination is played in every order: each agent in each seat. With fewer agents than
seats (two agents at a four-seat table), every seating in which each agent has a seat at least
once is played. A solo game has one seating per agent.

**Paired deals.** Every seating plays the same ``games`` deals: game ``i`` of each seating is
played from the same seeds (the same deals and chance streams; ``tw.simulate``'s game ``i``
for ``seed``), so the luck of the deal and the seat cancel out of the comparison, as in the
"duplicate" format of card tournaments. ``paired=False`` gives each seating deals of its own
(for measuring what pairing gains).

**Ratings.** A game's result is a ranking of its seats: the winners first (a shared win is a
tie), then the others by score (equal scores tie). Rankings are fitted by a Plackett-Luce
model (for two seats the Bradley-Terry model) whose strengths are found by
``scipy.optimize.minimize``; a tie is read as an order that was not observed (its probability
is the sum over the orders it allows), so a tie of all seats, and a truncated game, tell
nothing. A weak normal prior (a standard deviation of 1,000 rating points) keeps the ratings
finite when an agent wins every game. Ratings are on the Elo scale (400 points is a factor of
10 in strength; a 2-player Elo difference ``d`` gives ``1 / (1 + 10 ** (-d / 400))`` as the
stronger agent's share of decided games), centred on 1500. Their 95% intervals come from a
bootstrap over deals: all seatings of a deal are resampled together, so the pairing is kept.

Solo games (Norsewind against the Vikings, Mistwind's solo game against its automa players)
have no opponent seat: there each agent gets its goal rate, its rate of each reward tier and
its mean score and margin over the best opponent, with intervals.

The games are played by :func:`tradewinds.simulate`, one run per seating: natively on all
cores when every agent is built in, on a Dask cluster with ``backend="dask"``, and with
``out=DIR`` into one run directory per seating (``DIR/seating-000``, ...) beside the
tournament's own manifest (``DIR/tournament.json``), resumable with ``resume=True``. Results
depend only on the game, the agents, ``games``, ``seed`` and ``paired``.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._core import Game
from ._optional import import_optional
from .agents import BUILT_IN, Agent, agent_label, canonical_spec
from .balance import COMEBACK_THRESHOLD, Metrics, compute
from .bulk import _check_int, _resolve_game, simulate
from .simulation import ProgressBar, SimulationResult, _table, plot_format, wilson_interval

__all__ = ["tournament", "TournamentResult", "seatings", "rank_seats", "MANIFEST"]

#: The tournament's own manifest in its directory, beside the seatings' run directories.
MANIFEST = "tournament.json"

#: The rating of an agent of average strength.
BASE_RATING = 1500.0
#: Rating points per natural-log unit of Plackett-Luce strength (400 points per factor of 10).
_SCALE = 400.0 / math.log(10.0)
#: The prior's standard deviation, in rating points.
_PRIOR_SD = 1000.0
_Z95 = 1.959963984540054


def seatings(agents: int, seats: int) -> list[tuple[int, ...]]:
    """Every seating of ``agents`` agents (by index) at ``seats`` seats, in a fixed order:
    with ``agents >= seats`` each combination of distinct agents in each of its orders;
    otherwise every assignment in which each agent has at least one seat."""
    if agents >= seats:
        return [perm for combo in itertools.combinations(range(agents), seats)
                for perm in itertools.permutations(combo)]
    return [s for s in itertools.product(range(agents), repeat=seats) if len(set(s)) == agents]


def rank_seats(scores: npt.NDArray[Any], winners: npt.NDArray[Any]) -> npt.NDArray[np.int8]:
    """Each game's ranking of its seats (rows of ``scores`` and ``winners``): 0 for the best,
    equal numbers for a tie. The winners come first (all tied: a shared win), then the other
    seats by score, equal scores tied. A game with no winning seat is ranked by score alone."""
    scores = np.asarray(scores, dtype=np.float64)
    winners = np.asarray(winners, dtype=bool)
    # A key that orders winners above everyone, then by score.
    key = np.where(winners, np.inf, scores)
    # Rank = the number of seats strictly better.
    better = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    ranks: npt.NDArray[np.int8] = better.astype(np.int8)
    return ranks


def _derived_seed(seed: int, index: int) -> int:
    """The seed of seating ``index`` in an unpaired tournament: independent deals per seating."""
    digest = hashlib.sha256(f"tradewinds-tournament/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:7], "little")


def _named(agents: Sequence[Agent] | Mapping[str, Agent]) -> tuple[list[str], list[Agent]]:
    if isinstance(agents, Mapping):
        names = [str(k) for k in agents]
        return names, list(agents.values())
    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence):
        raise TypeError(f"agents must be a list of agents or a dict of name: agent, not {type(agents).__name__}")
    names = []
    for agent in agents:
        if isinstance(agent, str):
            names.append(agent)
        elif callable(agent):
            names.append(getattr(agent, "__name__", None) or type(agent).__name__)
        else:
            raise TypeError(f"an agent is a spec string or a callable agent(state, player, rng) -> action, "
                            f"not {type(agent).__name__}; built-in agents are {BUILT_IN}")
    return names, list(agents)


def _check_agents(game: Game, names: list[str], agents: list[Agent]) -> list[Agent]:
    least = 1 if game.players == 1 else 2
    if len(agents) < least:
        raise ValueError(
            f"a tournament of {game.name} with {game.players} seat{'s' if game.players != 1 else ''} needs at "
            f"least {least} agent{'s' if least != 1 else ''}, got {len(agents)}; built-in agents are {BUILT_IN}"
        )
    duplicate = sorted({n for n in names if names.count(n) > 1})
    if duplicate:
        raise ValueError(f"two agents are named {duplicate[0]!r}: give them names with a dict, "
                         "e.g. {'mcts-a': 'mcts', 'mcts-b': 'mcts:iterations=400'}")
    out: list[Agent] = []
    for name, agent in zip(names, agents):
        if isinstance(agent, str):
            try:
                out.append(canonical_spec(game, agent))
            except ValueError as e:
                raise ValueError(f"agent {name!r}: {e}") from None
        elif callable(agent):
            out.append(agent)
        else:
            raise TypeError(f"agent {name!r} is a spec string or a callable, not {type(agent).__name__}")
    return out


def _manifest(game: Game, names: list[str], agents: list[Agent], games: int, seed: int, paired: bool,
              table: list[tuple[int, ...]]) -> dict[str, Any]:
    return {
        "kind": "tradewinds-tournament",
        "version": 1,
        "game": game.name,
        "config": json.loads(game.config_json()),
        "agents": [{"name": n, "agent": agent_label(a)} for n, a in zip(names, agents)],
        "games": games,
        "seed": seed,
        "paired": paired,
        "seatings": [list(s) for s in table],
    }


def _open_directory(out: str | os.PathLike[str], manifest: dict[str, Any], resume: bool, name: str = MANIFEST,
                    what: str = "tournament") -> Path:
    """The directory ``out`` of a run made of several runs (a tournament, a sweep), with its
    manifest ``name`` beside their run directories: created with ``manifest`` if new, refused
    if it holds one and ``resume`` is False, or (resuming) if its manifest differs, naming each
    difference."""
    where = Path(out)
    path = where / name
    if path.exists():
        try:
            there = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ValueError(f"{path} is not a {what} manifest: {e}") from None
        if not resume:
            raise ValueError(f"{where} already holds a {what}; resume it (resume=True, or --resume on the "
                             "command line) or choose another directory")
        diffs = [f"{key}: the directory has {there.get(key)!r}, this call {manifest[key]!r}"
                 for key in manifest if there.get(key) != manifest[key]]
        if diffs:
            raise ValueError(f"cannot resume {where}: its {what} differs from this call:\n  " + "\n  ".join(diffs))
        return where
    if where.exists() and any(where.iterdir()):
        raise ValueError(f"{where} is not empty and holds no {what} ({name}); choose another directory")
    where.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return where


def tournament(
    game_or_name: Game | str,
    agents: Sequence[Agent] | Mapping[str, Agent],
    games: int = 100,
    *,
    seed: int = 0,
    paired: bool = True,
    threads: int = 0,
    backend: str = "local",
    client: Any = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: bool | Callable[[int], object] = False,
    bootstrap: int = 200,
    metrics: bool = False,
    **options: Any,
) -> TournamentResult:
    """Plays every seating of ``agents`` over ``games`` deals and rates them (see the module's
    documentation).

    ``agents``: a list of agents (built-in specs such as ``"mcts:iterations=50"``, or Python
    callables ``agent(state, player, rng) -> action``), named by their spec or the callable's
    ``__name__``, or a dict ``{name: agent}``. ``games``: the number of deals; each is played
    once in every seating, so the tournament plays ``games * len(result.seatings)`` games.
    ``bootstrap``: the resamples behind the rating intervals (0: none). ``threads``,
    ``backend``, ``client``, ``progress``, ``out`` and ``resume`` are those of
    :func:`tradewinds.simulate`; with ``out``, a directory that holds another tournament (other
    agents, options, games, seed or pairing) is refused, naming the difference.
    ``metrics=True`` measures the games' design metrics as they are played (see
    :meth:`TournamentResult.metrics`).
    """
    game = _resolve_game(game_or_name, options)
    _check_int("games", games, 1)
    _check_int("bootstrap", bootstrap, 0)
    if not isinstance(paired, bool):
        raise TypeError(f"paired must be True or False, not {type(paired).__name__}")
    if resume and out is None:
        raise ValueError("resume=True needs out=DIR, the directory of the tournament to resume")
    names, given = _named(agents)
    checked = _check_agents(game, names, given)
    table = seatings(len(checked), game.players)
    where = _open_directory(out, _manifest(game, names, checked, games, seed, paired, table), resume) \
        if out is not None else None
    bar: ProgressBar | None = None
    report: Callable[[int], object] | bool = False
    if progress is True:
        import sys

        bar = ProgressBar(games * len(table), sys.stderr)
        report = bar.update
    elif callable(progress):
        report = progress
    runs: list[SimulationResult] = []
    try:
        for index, seating in enumerate(table):
            runs.append(simulate(
                game, games, seed=seed if paired else _derived_seed(seed, index), threads=threads,
                agents=[checked[i] for i in seating], progress=report, backend=backend, client=client,
                out=None if where is None else where / f"seating-{index:03d}",
                resume=resume and where is not None and (where / f"seating-{index:03d}").exists(),
                keep_games=True, metrics=metrics,
            ))
    finally:
        if bar is not None:
            bar.close()
    return TournamentResult(game, names, [a if isinstance(a, str) else names[i] for i, a in enumerate(checked)],
                            table, runs, games=games, seed=seed, paired=paired, bootstrap=bootstrap)


# ---- the Plackett-Luce fit --------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcomes:
    """The distinct outcomes of a tournament's games, for the likelihood: outcome ``u`` has
    the orders (agent indices, best first) that its ranking allows, and each game is one
    outcome (``game_outcome``, by seating and deal)."""

    orders: npt.NDArray[np.int64]  # (orders, seats): agent indices, best first
    owner: npt.NDArray[np.int64]  # (orders,): the outcome each order belongs to, ascending
    starts: npt.NDArray[np.int64]  # (outcomes,): where each outcome's orders begin
    game_outcome: npt.NDArray[np.int64]  # (seatings, deals), -1 where the game tells nothing


def _outcomes(table: list[tuple[int, ...]], ranks: npt.NDArray[np.int8]) -> _Outcomes:
    seats = ranks.shape[2]
    agents_of = np.array(table, dtype=np.int64).reshape(len(table), 1, seats)
    # Each game as its seats' agents and ranks; the distinct ones are few.
    keys = np.concatenate([np.broadcast_to(agents_of, ranks.shape), ranks.astype(np.int64)], axis=2)
    distinct, inverse = np.unique(keys.reshape(-1, 2 * seats), axis=0, return_inverse=True)
    index: dict[tuple[tuple[int, ...], ...], int] = {}
    orders: list[list[int]] = []
    owner: list[int] = []
    starts: list[int] = []
    outcome_of = np.full(distinct.shape[0], -1, dtype=np.int64)
    for k, row in enumerate(distinct.tolist()):
        seating, rank = row[:seats], row[seats:]
        groups = tuple(tuple(sorted(seating[p] for p in range(seats) if rank[p] == r)) for r in sorted(set(rank)))
        if len(groups) < 2:
            continue  # everyone tied: no information
        u = index.get(groups)
        if u is None:
            u = index[groups] = len(starts)
            starts.append(len(orders))
            for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
                orders.append([a for part in parts for a in part])
                owner.append(u)
        outcome_of[k] = u
    game_outcome = outcome_of[inverse.reshape(-1)].reshape(ranks.shape[:2])
    return _Outcomes(np.array(orders, dtype=np.int64).reshape(len(orders), seats), np.array(owner, dtype=np.int64),
                     np.array(starts, dtype=np.int64), game_outcome)


def _neg_log_posterior(theta: npt.NDArray[np.float64], data: _Outcomes, counts: npt.NDArray[np.float64],
                       prior_var: float) -> tuple[float, npt.NDArray[np.float64]]:
    n = theta.shape[0]
    x = data.orders
    t = theta[x]  # (orders, seats)
    seats = x.shape[1]
    logp = np.zeros(x.shape[0])
    grad_order = np.zeros((x.shape[0], n))
    rows = np.arange(x.shape[0])
    for j in range(seats - 1):
        tail = t[:, j:]
        top = tail.max(axis=1, keepdims=True)
        weights = np.exp(tail - top)
        total = weights.sum(axis=1)
        logp += t[:, j] - (top[:, 0] + np.log(total))
        grad_order[rows, x[:, j]] += 1.0
        share = weights / total[:, None]
        for k in range(tail.shape[1]):
            np.add.at(grad_order, (rows, x[:, j + k]), -share[:, k])
    # Each outcome's probability: the sum over the orders it allows.
    top = np.maximum.reduceat(logp, data.starts)
    lik = np.add.reduceat(np.exp(logp - top[data.owner]), data.starts)
    log_outcome = top + np.log(lik)
    within = np.exp(logp - log_outcome[data.owner])  # each order's share of its outcome
    grad_outcome = np.zeros((data.starts.shape[0], n))
    np.add.at(grad_outcome, data.owner, grad_order * within[:, None])
    value = float(counts @ log_outcome) - float(theta @ theta) / (2 * prior_var)
    grad = counts @ grad_outcome - theta / prior_var
    return -value, -grad


def _fit(data: _Outcomes, counts: npt.NDArray[np.float64], agents: int,
         start: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
    """The agents' log-strengths (centred on 0) that maximise the posterior."""
    optimize = import_optional("scipy.optimize", "tw.tournament() ratings", "scipy",
                               "`pip install 'tradewinds[tournament]'`")
    prior_var = (_PRIOR_SD / _SCALE) ** 2
    x0 = np.zeros(agents) if start is None else start
    if data.starts.shape[0] == 0:
        return np.zeros(agents)
    found = optimize.minimize(_neg_log_posterior, x0, args=(data, counts, prior_var), jac=True, method="L-BFGS-B",
                              options={"maxiter": 500, "gtol": 1e-9})
    theta: npt.NDArray[np.float64] = np.asarray(found.x, dtype=np.float64)
    centred: npt.NDArray[np.float64] = theta - theta.mean()
    return centred


# ---- the result ---------------------------------------------------------------------------


class TournamentResult:
    """What :func:`tournament` returns: the games of every seating and the tables made from
    them (:meth:`ratings`, :meth:`win_matrix`, :meth:`agent_table`, :meth:`seat_table`,
    :meth:`solo_table`), a printed :meth:`summary`, a pandas frame (:meth:`to_pandas`) and a
    figure (:meth:`plot`)."""

    def __init__(self, game: Game, names: Sequence[str], agents: Sequence[str], table: Sequence[tuple[int, ...]],
                 runs: Sequence[SimulationResult], *, games: int, seed: int, paired: bool, bootstrap: int) -> None:
        #: The game's name, its seats and its options.
        self.game: str = game.name
        self.players: int = game.players
        self.options: dict[str, Any] = dict(game.options)
        #: The agents' display names, and what each is (a built-in spec in canonical form, or
        #: the callable's name).
        self.names: list[str] = list(names)
        self.agents: list[str] = list(agents)
        #: Each seating: the agent (by index into ``names``) of each seat.
        self.seatings: list[tuple[int, ...]] = [tuple(s) for s in table]
        #: One :class:`~tradewinds.SimulationResult` per seating, in the order of ``seatings``.
        self.runs: list[SimulationResult] = list(runs)
        self.games: int = games
        self.seed: int = seed
        self.paired: bool = paired
        self.bootstrap: int = bootstrap
        self.opponents: list[str] = list(self.runs[0].opponents) if self.runs else []
        self.tiers: list[str] = list(self.runs[0].tiers) if self.runs else []
        #: (seatings, deals, seats) arrays: scores, winners, ranks (0 best), truncated (seatings, deals).
        self.scores = np.stack([r.scores for r in self.runs])
        self.winners = np.stack([r.winners for r in self.runs])
        self.truncated = np.stack([r.truncated for r in self.runs])
        self.ranks = np.stack([rank_seats(np.where(t[:, None], 0.0, s), w)
                               for s, w, t in zip(self.scores, self.winners, self.truncated)])
        self._cache: dict[str, Any] = {}

    def metrics(self, *, comeback: float = COMEBACK_THRESHOLD) -> Metrics:
        """The game-design metrics of all the tournament's games together (every seating;
        see :meth:`tradewinds.SimulationResult.metrics`): seat advantage here is each seat's,
        whatever agent sat there (every agent sits in every seat equally often); the agents'
        own balance is :meth:`agent_table` and :meth:`ratings`. The trajectory metrics need
        ``tournament(..., metrics=True)``."""
        if not self.runs:
            raise ValueError("a tournament without games has no metrics")
        first = self.runs[0]
        arrays = {name: np.concatenate([r.arrays[name] for r in self.runs]) for name in first.arrays}
        return compute(arrays, first.layout, game=self.game, agents=self.names, comeback=comeback)

    @property
    def solo(self) -> bool:
        """Whether the game has one seat (no ratings: see :meth:`solo_table`)."""
        return self.players == 1

    @property
    def total_games(self) -> int:
        return self.games * len(self.seatings)

    # ---- per game and seat -----------------------------------------------------------------

    def _agent_of(self) -> npt.NDArray[np.int64]:
        """(seatings, seats): the agent index in each seat."""
        return np.array(self.seatings, dtype=np.int64).reshape(len(self.seatings), self.players)

    def _margins(self) -> npt.NDArray[np.float64]:
        """(seatings, deals, seats): each seat's score minus the best other score at the table
        (the other seats and the opponents that are not seats)."""
        scores = self.scores.astype(np.float64)
        others = [scores]
        if self.opponents:
            others.append(np.stack([r.opponent_scores for r in self.runs]).astype(np.float64))
        everyone = np.concatenate(others, axis=2)
        out = np.empty_like(scores)
        for p in range(self.players):
            rest = np.delete(everyone, p, axis=2)
            out[:, :, p] = scores[:, :, p] - (rest.max(axis=2) if rest.shape[2] else 0.0)
        return out

    # ---- ratings ---------------------------------------------------------------------------

    def ratings(self) -> list[dict[str, Any]]:
        """Each agent's Plackett-Luce rating on the Elo scale with its 95% bootstrap interval,
        best first: dicts with ``agent``, ``rating``, ``low``, ``high`` and ``games``. Empty
        for a solo game."""
        if "ratings" in self._cache:
            return list(self._cache["ratings"])
        if self.solo:
            self._cache["ratings"] = []
            return []
        data = _outcomes(self.seatings, self.ranks)
        n = len(self.names)
        valid = data.game_outcome >= 0
        counts = np.bincount(data.game_outcome[valid], minlength=data.starts.shape[0]).astype(np.float64)
        theta = _fit(data, counts, n)
        rating = BASE_RATING + _SCALE * theta
        low = np.full(n, math.nan)
        high = np.full(n, math.nan)
        if self.bootstrap:
            rng = np.random.default_rng([self.seed, 0x7A7E])
            draws = np.empty((self.bootstrap, n))
            for b in range(self.bootstrap):
                take = np.bincount(rng.integers(0, self.games, self.games), minlength=self.games).astype(np.float64)
                weights = np.broadcast_to(take, data.game_outcome.shape)[valid]
                boot = np.bincount(data.game_outcome[valid], weights=weights,
                                   minlength=data.starts.shape[0]).astype(np.float64)
                draws[b] = BASE_RATING + _SCALE * _fit(data, boot, n, theta)
            low, high = np.percentile(draws, [2.5, 97.5], axis=0)
        seats_of = self._agent_of()
        played = [int(self.games * (seats_of == a).sum()) for a in range(n)]
        rows: list[dict[str, Any]] = [{"agent": self.names[a], "rating": float(rating[a]), "low": float(low[a]), "high": float(high[a]),
                 "games": played[a]} for a in range(n)]
        rows.sort(key=lambda r: -float(r["rating"]))
        self._cache["ratings"] = rows
        return list(rows)

    def win_matrix(self) -> list[list[dict[str, float] | None]]:
        """``m[a][b]``: how often agent ``a`` finished above agent ``b`` in the games both
        played (a tie counts half; between two seats of the same agent nothing counts), with
        its 95% Wilson interval: dicts with ``rate``, ``low``, ``high`` and ``games``
        (``None`` on the diagonal and where two agents never met)."""
        n = len(self.names)
        wins = np.zeros((n, n))
        met = np.zeros((n, n))
        seats_of = self._agent_of()
        valid = ~self.truncated
        for s, seating in enumerate(seats_of):
            ranks = self.ranks[s][valid[s]]
            for p, q in itertools.permutations(range(self.players), 2):
                a, b = seating[p], seating[q]
                if a == b:
                    continue
                wins[a, b] += float((ranks[:, p] < ranks[:, q]).sum()) + 0.5 * float((ranks[:, p] == ranks[:, q]).sum())
                met[a, b] += ranks.shape[0]
        out: list[list[dict[str, float] | None]] = []
        for a in range(n):
            row: list[dict[str, float] | None] = []
            for b in range(n):
                if a == b or met[a, b] == 0:
                    row.append(None)
                    continue
                lo, hi = wilson_interval(wins[a, b], int(met[a, b]))
                row.append({"rate": wins[a, b] / met[a, b], "low": lo, "high": hi, "games": int(met[a, b])})
            out.append(row)
        return out

    def agent_table(self) -> list[dict[str, Any]]:
        """Per agent: ``games`` (seats taken), ``win_rate`` with its Wilson interval, and the
        means of ``score`` and ``margin`` (over the best other score at the table) with 95%
        normal intervals."""
        seats_of = self._agent_of()
        margins = self._margins()
        rows: list[dict[str, Any]] = []
        for a, name in enumerate(self.names):
            where = seats_of == a  # (seatings, seats)
            won = np.concatenate([self.winners[s][:, where[s]].ravel() for s in range(len(self.seatings))])
            score = np.concatenate([self.scores[s][:, where[s]].ravel() for s in range(len(self.seatings))])
            margin = np.concatenate([margins[s][:, where[s]].ravel() for s in range(len(self.seatings))])
            lo, hi = wilson_interval(int(won.sum()), int(won.size))
            rows.append({"agent": name, "games": int(won.size), "win_rate": float(won.mean()) if won.size else math.nan,
                         "win_low": lo, "win_high": hi, **_mean("score", score), **_mean("margin", margin)})
        return rows

    def seat_table(self) -> list[dict[str, Any]]:
        """Each seat's advantage: its win rate over all seatings (every agent sits in every
        seat equally often, so only the seat differs) and each agent's win rate in that seat,
        with Wilson intervals."""
        seats_of = self._agent_of()
        rows: list[dict[str, Any]] = []
        for p in range(self.players):
            won = self.winners[:, :, p]
            lo, hi = wilson_interval(int(won.sum()), int(won.size))
            by_agent = {}
            for a, name in enumerate(self.names):
                mine = won[seats_of[:, p] == a]
                alo, ahi = wilson_interval(int(mine.sum()), int(mine.size))
                by_agent[name] = {"rate": float(mine.mean()) if mine.size else math.nan, "low": alo, "high": ahi,
                                  "games": int(mine.size)}
            rows.append({"seat": p, "win_rate": float(won.mean()), "low": lo, "high": hi, "games": int(won.size),
                         "by_agent": by_agent})
        return rows

    def solo_table(self) -> list[dict[str, Any]]:
        """For a solo game, per agent: the goal rate (the seat won) and each reward tier's rate
        (this tier or better) with Wilson intervals, and the mean score and margin over the
        best opponent with normal intervals; best goal rate first."""
        if not self.solo:
            return []
        rows: list[dict[str, Any]] = []
        margins = self._margins()
        for s, seating in enumerate(self.seatings):
            run = self.runs[s]
            won = self.winners[s][:, 0]
            lo, hi = wilson_interval(int(won.sum()), int(won.size))
            tiers = {}
            tier = np.asarray(run.tier) if self.tiers else np.zeros(0)
            for t, tname in enumerate(self.tiers):
                reached = tier >= t
                tlo, thi = wilson_interval(int(reached.sum()), int(reached.size))
                tiers[tname] = {"rate": float(reached.mean()), "low": tlo, "high": thi}
            rows.append({"agent": self.names[seating[0]], "games": int(won.size), "goal_rate": float(won.mean()),
                         "goal_low": lo, "goal_high": hi, "tiers": tiers,
                         **_mean("score", self.scores[s][:, 0]), **_mean("margin", margins[s][:, 0])})
        rows.sort(key=lambda r: -float(r["goal_rate"]))
        return rows

    # ---- output ----------------------------------------------------------------------------

    def _title(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items() if k != "players")
        return (f"Tournament: {self.game} ({_seat_words(self.players)}{'; ' + opts if opts else ''}), "
                f"{len(self.names)} agents, {self.games:,} {'paired ' if self.paired else ''}deals x "
                f"{len(self.seatings)} seatings = {self.total_games:,} games, seed {self.seed}")

    def summary(self) -> str:
        """The ranked tables as text: ratings (or, solo, goal rates), the win matrix, the agents'
        scores and margins, and each seat's advantage."""
        lines = [self._title(), ""]
        truncated = int(self.truncated.sum())
        if self.solo:
            rows = [["agent", "games", "goal rate", "95% interval", "mean score", "mean margin", "95% interval"]]
            for r in self.solo_table():
                rows.append([r["agent"], f"{r['games']:,}", f"{r['goal_rate']:.3f}",
                             f"[{r['goal_low']:.3f}, {r['goal_high']:.3f}]", f"{r['score']:.2f}",
                             f"{r['margin']:+.2f}", f"[{r['margin_low']:+.2f}, {r['margin_high']:+.2f}]"])
            lines += _table(rows)
            if self.tiers:
                lines += ["", "Reward tiers (rate of this tier or better):"]
                rows = [["agent"] + self.tiers]
                for r in self.solo_table():
                    rows.append([r["agent"]] + [f"{r['tiers'][t]['rate']:.3f}" for t in self.tiers])
                lines += _table(rows)
        else:
            rows = [["rank", "agent", "rating", "95% interval", "games", "win rate", "95% interval", "mean score",
                     "mean margin"]]
            table = {r["agent"]: r for r in self.agent_table()}
            for i, r in enumerate(self.ratings(), 1):
                t = table[r["agent"]]
                interval = "-" if math.isnan(r["low"]) else f"[{r['low']:.0f}, {r['high']:.0f}]"
                rows.append([str(i), r["agent"], f"{r['rating']:.0f}", interval, f"{t['games']:,}",
                             f"{t['win_rate']:.3f}", f"[{t['win_low']:.3f}, {t['win_high']:.3f}]",
                             f"{t['score']:.2f}", f"{t['margin']:+.2f}"])
            lines += _table(rows, left=(1,))
            lines += ["", "Win matrix: how often the row's agent finished above the column's (ties count half):"]
            order = [self.names.index(r["agent"]) for r in self.ratings()]
            matrix = self.win_matrix()
            rows = [[""] + [self.names[b] for b in order]]
            for a in order:
                rows.append([self.names[a]] + ["-" if matrix[a][b] is None else f"{matrix[a][b]['rate']:.3f}"  # type: ignore[index]
                                               for b in order])
            lines += _table(rows)
            lines += ["", "Seat advantage: win rate by seat over every seating (an even share is "
                          f"{1 / self.players:.3f}):"]
            rows = [["seat", "win rate", "95% interval"]]
            for r in self.seat_table():
                rows.append([f"P{r['seat']}", f"{r['win_rate']:.3f}", f"[{r['low']:.3f}, {r['high']:.3f}]"])
            lines += _table(rows)
        if truncated:
            lines += ["", f"{truncated:,} games truncated (counted as ties of every seat)"]
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<TournamentResult {self.game}, {len(self.names)} agents, {len(self.seatings)} seatings x "
                f"{self.games:,} deals>")

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.summary())}</pre>"

    def to_pandas(self) -> Any:
        """One row per game and seat: ``seating``, ``deal``, ``seat``, ``agent``, ``score``,
        ``winner``, ``rank`` (0 best, ties equal), ``margin`` and ``truncated``."""
        pd = import_optional("pandas", "TournamentResult.to_pandas()", "pandas", "`pip install 'tradewinds[pandas]'`")
        s, d, p = np.meshgrid(np.arange(len(self.seatings)), np.arange(self.games), np.arange(self.players),
                              indexing="ij")
        seats_of = self._agent_of()
        names = np.array(self.names, dtype=object)
        return pd.DataFrame({
            "seating": s.ravel(), "deal": d.ravel(), "seat": p.ravel(),
            "agent": names[seats_of[s.ravel(), p.ravel()]],
            "score": self.scores.ravel(), "winner": self.winners.ravel(), "rank": self.ranks.ravel(),
            "margin": self._margins().ravel(), "truncated": np.repeat(self.truncated.ravel(), self.players),
        })

    def figure(self) -> Any:
        """The ratings with their intervals and the win matrix as a heat map (solo: the goal
        rates with their intervals), as a ``matplotlib.figure.Figure``."""
        needs = ("TournamentResult.plot()", "matplotlib", "`pip install 'tradewinds[plot]'`")
        figure_mod = import_optional("matplotlib.figure", *needs)
        agg = import_optional("matplotlib.backends.backend_agg", *needs)
        fig = figure_mod.Figure(figsize=(12.0, 4.8), layout="constrained")
        agg.FigureCanvasAgg(fig)
        if self.solo:
            ax = fig.subplots(1, 1)
            rows = self.solo_table()
            y = np.arange(len(rows))
            rate = np.array([r["goal_rate"] for r in rows])
            err = np.clip(np.array([[r["goal_rate"] - r["goal_low"] for r in rows],
                                    [r["goal_high"] - r["goal_rate"] for r in rows]]), 0.0, None)
            ax.barh(y, rate, xerr=err, capsize=5, color="C0", alpha=0.85)
            ax.set_yticks(y, labels=[r["agent"] for r in rows])
            ax.invert_yaxis()
            ax.set_xlim(0.0, 1.0)
            ax.set_xlabel("goal rate (95% Wilson interval)")
        else:
            ax_r, ax_m = fig.subplots(1, 2)
            rows = self.ratings()
            y = np.arange(len(rows))
            rating = np.array([r["rating"] for r in rows])
            if self.bootstrap:
                err = np.clip(np.array([[r["rating"] - r["low"] for r in rows],
                                        [r["high"] - r["rating"] for r in rows]]), 0.0, None)
            else:
                err = None
            ax_r.errorbar(rating, y, xerr=err, fmt="o", capsize=5)
            ax_r.axvline(BASE_RATING, color="grey", linestyle="--", linewidth=1)
            ax_r.set_yticks(y, labels=[r["agent"] for r in rows])
            ax_r.invert_yaxis()
            ax_r.set_xlabel("rating (Elo scale, 95% bootstrap interval)")
            ax_r.set_title("Ratings")
            order = [self.names.index(r["agent"]) for r in rows]
            matrix = self.win_matrix()
            grid = np.array([[math.nan if matrix[a][b] is None else matrix[a][b]["rate"]  # type: ignore[index]
                              for b in order] for a in order])
            image = ax_m.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdBu_r")
            for i in range(len(order)):
                for j in range(len(order)):
                    if not math.isnan(grid[i, j]):
                        ax_m.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=8)
            labels = [self.names[a] for a in order]
            ax_m.set_xticks(range(len(order)), labels=labels, rotation=30, ha="right", fontsize=8)
            ax_m.set_yticks(range(len(order)), labels=labels, fontsize=8)
            ax_m.set_title("Row finished above column")
            fig.colorbar(image, ax=ax_m, shrink=0.8)
        fig.suptitle(self._title(), fontsize=9)
        return fig

    def plot(self, path: str | os.PathLike[str]) -> Path:
        """Writes :meth:`figure` to ``path`` (``.png``, ``.svg`` or ``.pdf``) and returns the path."""
        target = Path(path)
        fig = self.figure()
        fig.savefig(target, format=plot_format(target), dpi=120)
        return target


def _mean(name: str, values: npt.NDArray[Any]) -> dict[str, float]:
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return {name: math.nan, f"{name}_low": math.nan, f"{name}_high": math.nan}
    mean = float(values.mean())
    half = _Z95 * float(values.std(ddof=1)) / math.sqrt(values.size) if values.size > 1 else math.nan
    return {name: mean, f"{name}_low": mean - half, f"{name}_high": mean + half}


def _seat_words(players: int) -> str:
    return "solo" if players == 1 else f"{players} players"
