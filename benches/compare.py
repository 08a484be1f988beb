"""Side-by-side speed of tradewinds, OpenSpiel and the games' pure-Python twins.

Run from the root of a checkout, with the package and ``open-spiel`` installed::

    python benches/compare.py                 # 5 rounds of ~0.5 s samples
    python benches/compare.py --rounds 7 --seconds 1 --json results.json
    python benches/compare.py --games before-the-wind --players 3   # one game, one player count
    python benches/compare.py --games norsewind --per-player-count   # a game not listed yet

What is measured (each sample plays whole games from fixed seeds; every round must
reproduce the checksum of the first, so the same work is timed each time):

* OpenSpiel native: ``pyspiel.evaluate_bots`` with ``pyspiel.make_uniform_random_bot``
  bots, one call per game (the whole game runs in C++), on ``hearts`` and ``crazy_eights``.
* OpenSpiel Python-driven: a Python loop calling ``legal_actions()`` and
  ``apply_action()`` with uniformly random choices, chance sampled in Python from
  ``chance_outcomes()``.
* tradewinds native: ``tw.simulate(game, n, threads=1)`` (the whole batch in Rust), and
  the same call on all cores (``threads=0``) for the scaling ratio.
* tradewinds Python-driven, two ways: with ``explicit_chance=True`` the loop is exactly
  OpenSpiel's (Python samples every chance node from ``chance_outcomes()``); by default
  (``explicit_chance=False``) chance is resolved inside ``apply`` from the state's seed and
  Python makes only the decisions.
* tradewinds Python-driven, a third way: the one-step loop with the batched loop's policy,
  each decision chosen in numpy from ``State.legal_action_mask()``.
* tradewinds batched, Python-driven: ``tw.VectorGame`` steps 1,024 games in one call and
  Python chooses every decision of every game in numpy from the legal-action mask (a
  uniformly random legal action), as learning code does with a policy. Three numpy
  policies: ``argmax`` is ``(mask * noise).argmax(axis=1)``; ``keys`` computes the same
  argmax faster (see ``random_legal_keys``); ``csr`` reads no mask but the legal actions as
  lists (``VectorGame(..., legal="actions")``, ``vg.legal_actions()``) and picks one per game
  by its offsets (see ``random_legal_listed``). Each is measured without observations and,
  for ``keys`` and ``csr``, with ``observation_tensor()`` called every step; and ``keys`` and
  ``csr`` on all cores for 8,192 games against the same loop on one thread. The time spent
  inside the engine's calls (``step`` and ``observation_tensor``) is recorded too.
  ``--policies`` measures only some of them.
* pure Python: a game's pure-Python twin (``tests/oracles/<game>.py``, e.g. North Wind's),
  where it has one, playing the very games ``tw.simulate`` plays (same seeds, same results:
  asserted).

Every game of ``tw.GAMES`` is measured in every configuration it has (player counts, modes),
as ``tradewinds._core.configurations`` lists them: a new game needs no edit here. ``--games``
names the games instead, any registered one (a game being built, not listed yet, too);
``--per-player-count`` keeps, of each game, only its first configuration for each player
count (its base configuration).

Units. A *decision* is an action chosen by a player. A *step* is any applied action:
decisions plus chance outcomes (OpenSpiel's history length). Both sides are reported in
both units; the targets compare our decisions/s with OpenSpiel's steps/s (their steps
include the cheap chance steps, so this is the stricter comparison for us when a game has
many chance steps per decision, as North Wind does).

Fairness. Rounds are interleaved: each round runs every case once, odd rounds in reverse
order, and cases that are compared sit next to each other, so slow drifts of the machine
(other processes) hit both sides of a ratio alike. Ratios are computed within a round and
reported as median (min-max) over rounds. Only the playing is timed (checksums and counts
are taken after the clock stops); Python-side per-call overhead (building states,
converting results) counts on both sides.

Wall time and CPU time. Besides wall-clock rates, each sample records the CPU time of the
process (all threads). On a shared machine a sample may get less than a core; the rate
per CPU-second says how fast the code is when it runs, the wall rate what a user saw.
The "cores" column is CPU time / wall time: about 1 for a one-thread case on a quiet
machine, and the all-cores case's value shows how many cores it actually got.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import tradewinds as tw
from tradewinds._core import REGISTERED, configurations

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from oracles import twin  # noqa: E402

try:
    import pyspiel
except ImportError:  # the comparison needs it; say how to get it
    sys.exit("benches/compare.py needs OpenSpiel: pip install 'tradewinds[open-spiel]' (or open-spiel)")

OPENSPIEL_GAMES = ["hearts", "crazy_eights"]
SEED = 11


# ----- one sample of each kind ----------------------------------------------------------------


@dataclass
class Work:
    """What a sample played: identical in every round."""

    decisions: int
    steps: int
    games: int
    checksum: str


class Clock:
    """Wall and process CPU seconds of a `with` block (and, for batched cases, the wall seconds
    spent inside the engine's calls)."""

    wall = 0.0
    cpu = 0.0
    engine: float | None = None

    def __enter__(self) -> Clock:
        self._wall, self._cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = time.process_time() - self._cpu


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def openspiel_native(game: Any, games: int) -> tuple[Clock, Work]:
    n = game.num_players()
    bots = [pyspiel.make_uniform_random_bot(p, SEED * 1000 + p) for p in range(n)]  # one stream per seat
    states = []
    returns = []
    with Clock() as clock:
        for i in range(games):
            state = game.new_initial_state()
            returns.append(pyspiel.evaluate_bots(state, bots, SEED + i))
            states.append(state)
    # evaluate_bots plays the state it is given to the end: count its history afterwards.
    steps = sum(len(s.history()) for s in states)
    chance = sum(sum(1 for pa in s.full_history() if pa.player < 0) for s in states)
    return clock, Work(steps - chance, steps, games, _digest(returns, steps))


def openspiel_python(game: Any, games: int) -> tuple[Clock, Work]:
    rng = random.Random(SEED)
    decisions = steps = 0
    returns = []
    with Clock() as clock:
        for _ in range(games):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    u = rng.random()
                    acc = 0.0
                    for a, p in s.chance_outcomes():
                        acc += p
                        if u < acc:
                            break
                else:
                    legal = s.legal_actions()
                    a = legal[rng.randrange(len(legal))]
                    decisions += 1
                s.apply_action(a)
                steps += 1
            returns.append(s.returns())
    return clock, Work(decisions, steps, games, _digest(returns, steps))


def ours_native(game: tw.Game, games: int, threads: int = 1) -> tuple[Clock, Work]:
    with Clock() as clock:
        r = tw.simulate(game, games, seed=SEED, threads=threads)
    checksum = _digest(r.scores.tobytes(), r.decisions.tobytes(), r.moves.tobytes())
    return clock, Work(int(r.decisions.sum()), int(r.moves.sum()), games, checksum)


def ours_python(game: tw.Game, games: int, explicit_chance: bool) -> tuple[Clock, Work]:
    rng = random.Random(SEED)
    decisions = steps = 0
    scores = []
    with Clock() as clock:
        for i in range(games):
            s = game.new_state(SEED + i, explicit_chance=explicit_chance)
            while not s.is_terminal:
                if s.is_chance:
                    u = rng.random()
                    acc = 0.0
                    for a, p in s.chance_outcomes():
                        acc += p
                        if u < acc:
                            break
                else:
                    legal = s.legal_actions()
                    a = legal[rng.randrange(len(legal))]
                    decisions += 1
                s.apply(a)
            steps += s.move_number  # with chance resolved in Rust, its steps count here too
            scores.append(s.scores())
    return clock, Work(decisions, steps, games, _digest(scores, steps))


#: Games per VectorGame in the one-core batched cases, and in the scaling pair.
VECTOR_GAMES = 1024
VECTOR_GAMES_LARGE = 8192


def random_legal_argmax(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.intp]:
    """A uniformly random legal action per game: the argmax of the mask times uniform noise."""
    chosen: npt.NDArray[np.intp] = (mask * rng.random(mask.shape, dtype=np.float32)).argmax(axis=1)
    return chosen


def random_legal_keys(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.unsignedinteger[Any]]:
    """The same choice, computed faster: each legal action gets a key, random bits above its
    id, and the largest key per game wins (ties go to the higher id). With at most 256 actions a
    key is 16 bits, 8 of them random (a tie 1 in 256 between two actions); with more, 32 bits,
    16 random. The keys are laid out actions-first, so the maximum runs along the batch, which
    numpy vectorises, where an argmax along each short row of the mask does not."""
    n, a = mask.shape
    bits, key, part = (8, np.uint16, np.uint8) if a <= 1 << 8 else (16, np.uint32, np.uint16)
    words = -(-n * a * (bits // 8) // 8)
    noise = rng.bit_generator.random_raw(words).view(part)[: n * a].reshape(a, n)
    keys = np.left_shift(noise, bits, dtype=key)
    keys |= np.arange(a, dtype=key)[:, None]
    keys *= np.ascontiguousarray(mask.T)
    chosen: npt.NDArray[np.unsignedinteger[Any]] = keys.max(axis=0) & ((1 << bits) - 1)
    return chosen


def random_legal_listed(offsets: npt.NDArray[np.int64], legal: npt.NDArray[np.int32],
                        rng: np.random.Generator) -> npt.NDArray[np.int32]:
    """A uniformly random legal action per game from the lists (`VectorGame.legal_actions()`):
    game i's is legal[offsets[i] + floor(u * count_i)], u uniform in [0, 1). Every game here has
    a seat to act (chance inside the calls, games restart), so no count is zero."""
    start = offsets[:-1]
    pick = rng.random(len(start))
    pick *= offsets[1:] - start
    chosen: npt.NDArray[np.int32] = legal[start + pick.astype(np.int64)]
    return chosen


MASK_POLICIES: dict[str, Callable[[npt.NDArray[np.bool_], np.random.Generator], npt.NDArray[Any]]] = {
    "keys": random_legal_keys,
    "argmax": random_legal_argmax,
}
POLICIES = [*MASK_POLICIES, "csr"]


def ours_vector(game: tw.Game, steps: int, games: int = VECTOR_GAMES, threads: int = 1,
                observe: bool = False, policy: str = "keys") -> tuple[Clock, Work]:
    """`steps` calls of `VectorGame.step` on `games` games, every decision chosen in numpy from
    the mask, or with `csr` from the lists (and, with `observe`, the observations of the seats
    to act read every step)."""
    listed = policy == "csr"
    vg = tw.VectorGame(game, games, seed=SEED, threads=threads, legal="actions" if listed else "mask")
    rng = np.random.default_rng(SEED)
    if listed:
        def choose() -> npt.NDArray[Any]:
            offsets, legal = vg.legal_actions()
            return random_legal_listed(offsets, legal, rng)
    else:
        mask, by_mask = vg.legal_action_mask(), MASK_POLICIES[policy]

        def choose() -> npt.NDArray[Any]:
            return by_mask(mask, rng)
    finished = 0
    ended = hashlib.sha256()
    inside = 0.0
    with Clock() as clock:
        for _ in range(steps):
            actions = choose()
            t = time.perf_counter()
            out = vg.step(actions)
            if observe:
                vg.observation_tensor()
            inside += time.perf_counter() - t
            if len(out.finished):
                finished += len(out.finished)
                ended.update(out.returns[out.finished].tobytes())
    clock.engine = inside
    legal = b"".join(a.tobytes() for a in vg.legal_actions()) if listed else vg.legal_action_mask().tobytes()
    checksum = _digest(ended.hexdigest(), legal, vg.episode.tobytes())
    # (No steps: chance is resolved inside the calls and not counted.)
    return clock, Work(games * steps, 0, finished, checksum)


def ours_python_mask(game: tw.Game, games: int) -> tuple[Clock, Work]:
    """The one-step loop with the batched loop's policy: each decision chosen in numpy from
    the state's legal-action mask (argmax of the mask times uniform noise), chance in Rust."""
    rng = np.random.default_rng(SEED)
    actions = game.num_distinct_actions
    decisions = steps = 0
    scores = []
    with Clock() as clock:
        for i in range(games):
            s = game.new_state(SEED + i)
            while not s.is_terminal:
                s.apply(int((s.legal_action_mask() * rng.random(actions, dtype=np.float32)).argmax()))
                decisions += 1
            steps += s.move_number
            scores.append(s.scores())
    return clock, Work(decisions, steps, games, _digest(scores, steps))


def pure_python(oracle: Any, engine: Any, games: int) -> tuple[Clock, Work]:
    with Clock() as clock:
        records = oracle.simulate(engine, games, SEED)
    decisions = sum(r.decisions for r in records)
    steps = sum(r.moves for r in records)
    rows = [(r.scores, r.decisions, r.moves) for r in records]
    return clock, Work(decisions, steps, games, _digest(rows))


# ----- cases, calibration, interleaved rounds -------------------------------------------------


@dataclass
class Case:
    key: str  # "os-native:hearts", "tw-python:north-wind 3p", ...
    label: str
    side: str  # "openspiel", "tradewinds", "pure-python"
    game: str
    run: Callable[[int], tuple[Clock, Work]]
    games: int = 0
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    engine: list[float] = field(default_factory=list)
    work: Work | None = None

    def sample(self) -> None:
        clock, w = self.run(self.games)
        if self.work is None:
            self.work = w
        elif w != self.work:
            raise AssertionError(f"{self.label}: a round played other games ({w} != {self.work})")
        self.wall.append(clock.wall)
        self.cpu.append(clock.cpu)
        if clock.engine is not None:
            self.engine.append(clock.engine)

    def count(self, unit: str) -> int:
        assert self.work is not None
        return {"games": self.work.games, "decisions": self.work.decisions, "steps": self.work.steps}[unit]

    def rates(self, unit: str, per: str = "wall") -> list[float]:
        """Per-round rates per wall second, per CPU second or per second inside the engine."""
        seconds = {"wall": self.wall, "cpu": self.cpu, "engine": self.engine}[per]
        return [self.count(unit) / max(t, 1e-9) for t in seconds]

    def cores(self) -> list[float]:
        return [c / max(w, 1e-9) for c, w in zip(self.cpu, self.wall)]


def calibrate(case: Case, seconds: float) -> None:
    """Picks the number of games that takes about `seconds` (at least one game)."""
    games = 1
    while True:
        clock, _ = case.run(games)
        if clock.wall >= seconds / 4 or games >= 1 << 20:
            break
        games *= 4
    case.games = max(1, round(games * seconds / max(clock.wall, 1e-9)))


def our_configurations(names: list[str] | None = None, per_player_count: bool = False
                       ) -> list[tuple[str, dict[str, Any]]]:
    """The games named (default: every game of tw.GAMES) in every configuration (player count,
    mode) each has, or only in the first configuration of each player count."""
    out = []
    for name in names or tw.GAMES:
        if name not in REGISTERED:
            sys.exit(f"benches/compare.py: no game {name!r}; registered: {', '.join(REGISTERED)}")
        seen: set[Any] = set()
        for options in configurations(name):
            if per_player_count:
                if options.get("players") in seen:
                    continue
                seen.add(options.get("players"))
            out.append((name, options))
    return out


def describe(name: str, options: dict[str, Any]) -> str:
    rest = [f"{k}={v}" for k, v in options.items() if k != "players"]
    return " ".join([name, f"{options['players']}p" if "players" in options else "", *rest]).strip()


def build_cases(configs: list[tuple[str, dict[str, Any]]], only_players: set[int] | None,
                policies: list[str] = POLICIES, targets_only: bool = False) -> list[Case]:
    """The cases of `configs` in measuring order: natives, then pure Python, then Python loops,
    then the batched loops, so that the two samples of a ratio are taken close together in time.
    `targets_only`: only the cases the targets compare (`TABLE_COLUMNS`)."""
    native: list[Case] = []
    pure: list[Case] = []
    python: list[Case] = []
    vector: list[Case] = []
    for name in OPENSPIEL_GAMES:
        g = pyspiel.load_game(name)
        native.append(Case(f"os-native:{name}", f"OpenSpiel {name}, native (evaluate_bots)", "openspiel",
                           name, partial(openspiel_native, g)))
        python.append(Case(f"os-python:{name}", f"OpenSpiel {name}, Python loop", "openspiel",
                           name, partial(openspiel_python, g)))
    for name, options in configs:
        if only_players and options.get("players") not in only_players:
            continue
        game = tw.load(name, **options)
        cfg = describe(name, options)
        native.append(Case(f"tw-native:{cfg}", f"tradewinds {cfg}, native (simulate, 1 thread)", "tradewinds",
                           cfg, partial(ours_native, game, threads=1)))
        native.append(Case(f"tw-all:{cfg}", f"tradewinds {cfg}, native (simulate, all cores)", "tradewinds",
                           cfg, partial(ours_native, game, threads=0)))
        python.append(Case(f"tw-python:{cfg}", f"tradewinds {cfg}, Python loop (chance in Rust)", "tradewinds",
                           cfg, partial(ours_python, game, explicit_chance=False)))
        if targets_only:
            vector.append(Case(f"tw-vec-csr:{cfg}", f"tradewinds {cfg}, batched {VECTOR_GAMES}, csr",
                               "tradewinds", cfg, partial(ours_vector, game, policy="csr")))
            continue
        python.append(Case(f"tw-pyexp:{cfg}", f"tradewinds {cfg}, Python loop (explicit chance)", "tradewinds",
                           cfg, partial(ours_python, game, explicit_chance=True)))
        python.append(Case(f"tw-pymask:{cfg}", f"tradewinds {cfg}, Python loop, numpy from the mask",
                           "tradewinds", cfg, partial(ours_python_mask, game)))
        for policy in policies:  # keys: "tw-vec-keys:north-wind 2p", ...
            run = partial(ours_vector, game, policy=policy)
            vector.append(Case(f"tw-vec-{policy}:{cfg}", f"tradewinds {cfg}, batched {VECTOR_GAMES}, {policy}",
                               "tradewinds", cfg, run))
            if policy == "argmax":
                continue  # (keys computes the same choice faster)
            vector.append(Case(f"tw-vec-{policy}-obs:{cfg}",
                               f"tradewinds {cfg}, batched {VECTOR_GAMES}, {policy}, observations", "tradewinds", cfg,
                               partial(run, observe=True)))
            vector.append(Case(f"tw-vec-{policy}-large:{cfg}",
                               f"tradewinds {cfg}, batched {VECTOR_GAMES_LARGE}, {policy}, 1 thread", "tradewinds",
                               cfg, partial(run, games=VECTOR_GAMES_LARGE)))
            vector.append(Case(f"tw-vec-{policy}-all:{cfg}",
                               f"tradewinds {cfg}, batched {VECTOR_GAMES_LARGE}, {policy}, all cores", "tradewinds",
                               cfg, partial(run, games=VECTOR_GAMES_LARGE, threads=0)))
        oracle = twin(name)
        if oracle is not None:
            engine = oracle.engine(options)
            pure.append(Case(f"pure:{cfg}", f"pure Python {cfg} (tests/oracles/{Path(oracle.__file__).name})",
                             "pure-python", cfg, partial(pure_python, oracle, engine)))
    return native + pure + python + vector


def check_pure_python_agrees(cases: list[Case], configs: list[tuple[str, dict[str, Any]]]) -> None:
    """The pure-Python engine and tw.simulate play the same games from the same seed."""
    for case in cases:
        if case.side != "pure-python":
            continue
        name, options = next((n, o) for n, o in configs if describe(n, o) == case.game)
        n = min(case.games, 20)
        _, theirs = case.run(n)
        _, ours = ours_native(tw.load(name, **options), n)
        assert (theirs.decisions, theirs.steps) == (ours.decisions, ours.steps), case.label


# ----- report -----------------------------------------------------------------------------------


def fmt(x: float) -> str:
    for div, p in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= div:
            v = x / div
            break
    else:
        v, p = x, ""
    digits = 0 if v >= 100 else 1 if v >= 10 else 2
    return f"{v:.{digits}f}{p}"


def spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def show(s: dict[str, float], ratio: bool = False) -> str:
    if ratio:
        return f"{s['median']:.2f}x ({s['min']:.2f}-{s['max']:.2f})"
    return f"{fmt(s['median'])} ({fmt(s['min'])}-{fmt(s['max'])})"


def report(cases: list[Case]) -> dict[str, Any]:
    by_key = {c.key: c for c in cases}
    out: dict[str, Any] = {"cases": [], "ratios": []}
    print("\nrates: median (min-max) over rounds, per wall-clock second; last columns per CPU second")
    print(f"{'case':<56} {'games':>6}  {'games/s':>20}  {'decisions/s':>20}  {'steps/s':>20}  "
          f"{'cores':>5}  {'decisions/CPU-s':>15}  {'steps/CPU-s':>12}")
    for c in cases:
        assert c.work is not None
        wall = {u: spread(c.rates(u)) for u in ("games", "decisions", "steps")}
        cpu = {u: spread(c.rates(u, "cpu")) for u in ("games", "decisions", "steps")}
        cores = spread(c.cores())
        no_steps = c.work.steps == 0
        print(f"{c.label:<56} {c.games:>6}  {show(wall['games']):>20}  {show(wall['decisions']):>20}  "
              f"{'n/a' if no_steps else show(wall['steps']):>20}  {cores['median']:>5.2f}  "
              f"{fmt(cpu['decisions']['median']):>15}  {'n/a' if no_steps else fmt(cpu['steps']['median']):>12}")
        out["cases"].append({"key": c.key, "label": c.label, "games": c.games,
                             "decisions": c.work.decisions, "steps": c.work.steps, "checksum": c.work.checksum,
                             "wall_seconds": c.wall, "cpu_seconds": c.cpu, "cores": cores,
                             **{f"{u}_per_s": wall[u] for u in wall},
                             **{f"{u}_per_cpu_s": cpu[u] for u in cpu}})

    def add(title: str, target: float | None, a: Case | None, au: str, b: Case | None, bu: str,
            cpu: bool = True) -> None:
        if a is None or b is None:
            return  # (a case left out by --targets-only)
        w = spread([x / y for x, y in zip(a.rates(au), b.rates(bu))])
        line = f"  {title:<76} {show(w, ratio=True):>22}"
        entry: dict[str, Any] = {"title": title, "target": target, "wall": w}
        if cpu:
            c = spread([x / y for x, y in zip(a.rates(au, "cpu"), b.rates(bu, "cpu"))])
            line += f"  {show(c, ratio=True):>22}"
            entry["cpu"] = c
        else:
            line += f"  {'':>22}"
        if target is not None:
            ok = [w["median"] >= target] + ([entry["cpu"]["median"] >= target] if cpu else [])
            line += f"  >= {target:g}: " + "/".join("met" if x else "MISSED" for x in ok)
        print(line)
        out["ratios"].append(entry)

    batched = [c for c in cases if c.engine]
    if batched:
        print("\nbatched cases: decisions per second of time inside the engine's calls (step, observation_tensor)")
        for c in batched:
            inside = spread(c.rates("decisions", "engine"))
            share = spread([e / w for e, w in zip(c.engine, c.wall)])
            print(f"{c.label:<56} {show(inside):>20}  ({share['median']:.0%} of the loop's wall time)")
            out["cases"][cases.index(c)]["decisions_per_engine_s"] = inside
            out["cases"][cases.index(c)]["engine_seconds"] = c.engine

    ours_cfgs = list(dict.fromkeys(c.game for c in cases if c.side == "tradewinds"))
    print("\nratios: median (min-max) over rounds of the ratio within a round")
    print(f"  {'targets':<76} {'per wall second':>22}  {'per CPU second':>22}")
    for cfg in ours_cfgs:
        nat, allc, py = by_key[f"tw-native:{cfg}"], by_key[f"tw-all:{cfg}"], by_key[f"tw-python:{cfg}"]
        for og in OPENSPIEL_GAMES:
            add(f"{cfg}: native decisions/s / OpenSpiel {og} native steps/s", 2.0,
                nat, "decisions", by_key[f"os-native:{og}"], "steps")
        for og in OPENSPIEL_GAMES:
            add(f"{cfg}: Python-driven decisions/s / OpenSpiel {og} Python-driven steps/s", 1.5,
                py, "decisions", by_key[f"os-python:{og}"], "steps")
        if f"pure:{cfg}" in by_key:
            add(f"{cfg}: native decisions/s / pure-Python decisions/s", 100.0,
                nat, "decisions", by_key[f"pure:{cfg}"], "decisions")
        add(f"{cfg}: simulate all cores / 1 thread, games/s ({os.cpu_count()} cores)",
            1.8 if os.cpu_count() == 2 else None, allc, "games", nat, "games", cpu=False)
        got = spread([x / y for x, y in zip(allc.cores(), nat.cores())])
        note = f"{cfg}:   cores the all-cores run got / cores the 1-thread run got"
        print(f"  {note:<76} {show(got, ratio=True):>22}")
        out["ratios"].append({"title": note, "target": None, "wall": got})
    for cfg in ours_cfgs:
        nat, py = by_key[f"tw-native:{cfg}"], by_key[f"tw-python:{cfg}"]
        mask_loop, exp_loop = by_key.get(f"tw-pymask:{cfg}"), by_key.get(f"tw-pyexp:{cfg}")
        for policy in POLICIES:
            vec, obs = by_key.get(f"tw-vec-{policy}:{cfg}"), by_key.get(f"tw-vec-{policy}-obs:{cfg}")
            if vec is None:
                continue
            add(f"{cfg}: batched decisions/s ({policy} policy) / native decisions/s", 0.5, vec, "decisions", nat,
                "decisions")
            if obs is not None:
                add(f"{cfg}: batched with observations decisions/s ({policy}) / native decisions/s", None, obs,
                    "decisions", nat, "decisions")
            add(f"{cfg}: batched ({policy}) / one-step loop, numpy from the mask, decisions/s", 8.0, vec,
                "decisions", mask_loop, "decisions")
            add(f"{cfg}: batched ({policy}) / one-step loop, explicit chance, decisions/s", None, vec, "decisions",
                exp_loop, "decisions")
            add(f"{cfg}: batched ({policy}) / one-step loop, chance in Rust, decisions/s", None, vec, "decisions",
                py, "decisions")
            large, allc = by_key.get(f"tw-vec-{policy}-large:{cfg}"), by_key.get(f"tw-vec-{policy}-all:{cfg}")
            if large is None or allc is None:
                continue
            add(f"{cfg}: batched {VECTOR_GAMES_LARGE} games ({policy}), all cores / 1 thread, decisions/s "
                f"({os.cpu_count()} cores)", None, allc, "decisions", large, "decisions", cpu=False)
            inside = spread([x / y for x, y in zip(allc.rates("decisions", "engine"),
                                                   large.rates("decisions", "engine"))])
            note = f"{cfg}:   the same, time inside the engine's calls only"
            print(f"  {note:<76} {show(inside, ratio=True):>22}")
            out["ratios"].append({"title": note, "target": None, "wall": inside})
            got = spread([x / y for x, y in zip(allc.cores(), large.cores())])
            note = f"{cfg}:   cores the all-cores batched run got / cores the 1-thread run got"
            print(f"  {note:<76} {show(got, ratio=True):>22}")
            out["ratios"].append({"title": note, "target": None, "wall": got})
    print(f"  {'like for like':<76}")
    for cfg in ours_cfgs:
        nat, pyx = by_key[f"tw-native:{cfg}"], by_key.get(f"tw-pyexp:{cfg}")
        for og in OPENSPIEL_GAMES:
            on, op = by_key[f"os-native:{og}"], by_key[f"os-python:{og}"]
            add(f"{cfg}: native steps/s / OpenSpiel {og} native steps/s", 3.0, nat, "steps", on, "steps")
            add(f"{cfg}: native decisions/s / OpenSpiel {og} native decisions/s", None,
                nat, "decisions", on, "decisions")
            add(f"{cfg}: Python loop, explicit chance, steps/s / OpenSpiel {og}", None,
                pyx, "steps", op, "steps")
            add(f"{cfg}: Python loop, explicit chance, decisions/s / OpenSpiel {og}", None,
                pyx, "decisions", op, "decisions")
    return out


#: The columns of the one-table summary (`--table`): title, target, and the ratio's two sides
#: (case key prefix and unit; `os-*` sides take the lower ratio of the OpenSpiel games).
TABLE_COLUMNS = [
    ("native steps/s ÷ OpenSpiel native steps/s", 3.0, ("tw-native", "steps"), ("os-native", "steps")),
    ("native decisions/s ÷ OpenSpiel native steps/s", 2.0, ("tw-native", "decisions"), ("os-native", "steps")),
    ("Python-driven decisions/s ÷ OpenSpiel's Python loop, steps/s", 1.5, ("tw-python", "decisions"),
     ("os-python", "steps")),
    ("batched, lists (`csr`), ÷ native decisions/s", 0.5, ("tw-vec-csr", "decisions"), ("tw-native", "decisions")),
    ("all cores ÷ 1 thread, games/s", 1.8, ("tw-all", "games"), ("tw-native", "games")),
]


def markdown_table(cases: list[Case]) -> str:
    """One row per configuration, one column per target (`TABLE_COLUMNS`): the median over
    rounds of the ratio within a round, per wall second; against OpenSpiel the lower of its
    games' ratios. A missed target is in bold. Native decisions are held to 2x only with two
    or more seats, and the scaling target only on a 2-core machine."""
    by_key = {c.key: c for c in cases}
    cfgs = list(dict.fromkeys(c.game for c in cases if c.side == "tradewinds"))
    lines = ["| configuration | " + " | ".join(f"{t} (target {x:g}×)" for t, x, _, _ in TABLE_COLUMNS) + " |",
             "| --- |" + " --- |" * len(TABLE_COLUMNS)]
    for cfg in cfgs:
        cells = []
        for title, target, (ak, au), (bk, bu) in TABLE_COLUMNS:
            a = by_key.get(f"{ak}:{cfg}")
            bs = [by_key[f"{bk}:{og}"] for og in OPENSPIEL_GAMES] if bk.startswith("os-") else [by_key.get(f"{bk}:{cfg}")]
            if a is None or any(b is None for b in bs):
                cells.append("")
                continue
            r = min(statistics.median([x / y for x, y in zip(a.rates(au), b.rates(bu))]) for b in bs if b)
            held = not ((title.startswith("native decisions") and " 1p " in f" {cfg} ")
                        or (title.startswith("all cores") and os.cpu_count() != 2))
            text = f"{r:.2f}×"
            cells.append(f"**{text}**" if held and r < target else text)
        lines.append(f"| {cfg} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--seconds", type=float, default=0.5, help="target length of one sample (default 0.5)")
    ap.add_argument("--players", type=int, nargs="*", help="only these player counts of our games")
    ap.add_argument("--games", nargs="*",
                    help="these games instead of tw.GAMES: any registered game, listed or not (e.g. norsewind)")
    ap.add_argument("--per-player-count", action="store_true",
                    help="of each game, only the first configuration of each player count")
    ap.add_argument("--policies", nargs="*", choices=POLICIES, default=POLICIES,
                    help="the numpy policies of the batched cases (default: all)")
    ap.add_argument("--json", type=Path, help="also write the results to this file")
    ap.add_argument("--targets-only", action="store_true",
                    help="only the cases the targets compare (the --table columns): a full run in less time")
    ap.add_argument("--table", type=Path,
                    help="also write one Markdown table of every configuration against every target to this file")
    args = ap.parse_args()

    configs = our_configurations(args.games, args.per_player_count)
    cases = build_cases(configs, set(args.players) if args.players else None, args.policies, args.targets_only)
    print(f"python {platform.python_version()}, tradewinds {tw.__version__}, open_spiel "
          f"{_version('open_spiel')}, {os.cpu_count()} cores, {platform.machine()}; load average {_load()}")
    print(f"calibrating {len(cases)} cases to ~{args.seconds:g} s per sample ...", flush=True)
    for c in cases:
        if c.key.startswith("tw-all:"):
            c.games = next(d.games for d in cases if d.key == "tw-native:" + c.game)  # the same games
        elif c.key.startswith("tw-vec-") and c.key.split(":")[0].endswith("-all"):
            large = c.key.replace("-all:", "-large:", 1)
            c.games = next(d.games for d in cases if d.key == large)  # the same calls
        else:
            calibrate(c, args.seconds)
    check_pure_python_agrees(cases, configs)
    for r in range(args.rounds):
        for c in cases if r % 2 == 0 else reversed(cases):
            c.sample()
        print(f"round {r + 1}/{args.rounds} done; load average {_load()}", flush=True)
    out = report(cases)
    if args.table:
        args.table.write_text(markdown_table(cases))
    if args.json:
        out["environment"] = {"python": platform.python_version(), "cores": os.cpu_count(),
                              "open_spiel": _version("open_spiel"), "tradewinds": tw.__version__,
                              "rounds": args.rounds, "seconds_per_sample": args.seconds}
        args.json.write_text(json.dumps(out, indent=1))


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


if __name__ == "__main__":
    main()
