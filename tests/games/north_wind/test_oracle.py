"""The Rust engine against its pure-Python twin (``tests/oracles/north_wind.py``), used as an
oracle. The twin follows the engine step by step, so this guards refactors and speed work on
the engine: any change to the games it plays shows here. It does not check the rules against
the rulebook (the game's own Rust tests do).

Both engines draw chance from the same seeded stream (xoshiro256++ seeded by SplitMix64,
Lemire's ``below``), so a game played from one seed with the same decisions must go through
identical states. Every decision checks the acting player, the legal actions (same ids, same
order), the whole state (phase, ships, supplies, stacks, contracts, bonuses, the voyage), the
random generator's state and the move history; every game end checks scores, winner,
truncation, returns and the score report's categories.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import tradewinds as tw
from conftest import CONFIGS, Config, ids
from oracles import north_wind as pn

NONE = 255
SEEDS_PER_COUNT = 30
#: Every configuration: the player counts, each with the unlimited bank and `gold="limited"`.
NW_CONFIGS = [c for c in CONFIGS if c.game == pn.GAME]


def _opt(x: int) -> int | None:
    return None if x == NONE else x


def _bits(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def rust_snapshot(state: tw.State, players: int) -> tuple[dict[str, Any], list[int]]:
    """The Rust state (its serde JSON, field names as in ``state.rs``) in the shape of
    ``north_wind.snapshot``, and the state of its random generator."""
    saved = json.loads(state.to_json())
    st = saved["state"]
    # Seats beyond the player count are unused; the revealed-card array is NONE past its length.
    for ship in st["ships"][players:]:
        assert ship == {
            "gold": 0, "goods": [0] * 5, "captains": 0, "letters": 0, "cannons": 0, "sail": 0,
            "crew": 0, "supply_bonus": False, "crew_bonus": False,
        }
    v = st["voyage"]
    assert all(c == NONE for c in v["order"][v["revealed"]:])
    for port in range(3):
        assert all(o == NONE for o in st["fulfilled"][port][st["done"][port]:])
        assert all(t == 0 for t in st["column"][port][players:])
    assert st["players"] == players
    snap = {
        "phase": st["phase"],
        "active": st["active"],
        "turn": st["turn"],
        "deal_next": st["deal_next"],
        "stacks": [_bits(m) for m in st["stack_cards"]],
        "ships": [
            {
                "gold": sh["gold"], "goods": sh["goods"], "captains": sh["captains"], "letters": sh["letters"],
                "cannons": sh["cannons"], "sail": sh["sail"], "crew": [bool(sh["crew"] >> i & 1) for i in range(5)],
                "supply_bonus": sh["supply_bonus"], "crew_bonus": sh["crew_bonus"],
            }
            for sh in st["ships"][:players]
        ],
        "supply_goods": st["supply_goods"],
        "supply_gold": st["supply_gold"],
        "supply_captains": st["supply_captains"],
        "supply_letters": st["supply_letters"],
        "done": st["done"],
        "fulfilled": [f[: st["done"][port]] for port, f in enumerate(st["fulfilled"])],
        "column": [c[:players] for c in st["column"]],
        "majority": [_opt(m) for m in st["majority"]],
        "winner": _opt(st["winner"]),
        "truncated": st["truncated"],
        "voyage": {
            "stack": _opt(v["stack"]), "drawn": _bits(v["drawn"]), "revealed": v["order"][: v["revealed"]],
            "peeked": _opt(v["peeked"]), "slid": _opt(v["slid"]), "current": _opt(v["current"]),
            "actions": v["actions"], "pirates": v["pirates"], "rolls_left": v["rolls_left"], "hits": v["hits"],
            "decider": _opt(v["decider"]), "trades": v["trades"], "first_trade": _opt(v["first_trade"]),
            "sold": v["sold"], "jettisoned": v["jettisoned"],
        },
    }
    return snap, saved["rng"]["s"]


def assert_same(rust: tw.State, py: pn.Session, players: int, where: str) -> None:
    snap, rng = rust_snapshot(rust, players)
    ours = pn.snapshot(py.state)
    if snap != ours:
        diff = {k: (snap[k], ours[k]) for k in snap if snap[k] != ours[k]}
        pytest.fail(f"{where}: states differ (rust, python): {diff}")
    assert rng == py.rng.s, f"{where}: random generator states differ"
    assert rust.history() == py.history, f"{where}: histories differ"
    assert rust.is_terminal == py.is_terminal()
    assert rust.is_chance == py.is_chance()
    assert rust.current_player == py.current_player(), f"{where}: acting player differs"


def assert_same_end(rust: tw.State, py: pn.Session, game: pn.NorthWind) -> None:
    assert rust.is_terminal and py.is_terminal()
    s = py.state
    assert rust.scores() == [float(x) for x in game.scores(s)]
    assert rust.winners() == ([] if s.winner is None else [s.winner])
    assert rust.is_truncated == s.truncated
    assert rust.returns() == game.returns(s)
    report = rust.score_report()
    assert report.points == [[float(x) for x in row] for row in game.category_points(s)]
    assert report.truncated == s.truncated


def play_both(config: Config, seed: int, max_turns: int | None = None) -> tuple[tw.State, pn.Session]:
    options: dict[str, Any] = dict(config.options)
    if max_turns is not None:
        options["max_turns"] = max_turns
    players = config.players
    game = tw.load("north-wind", **options)
    ours = pn.engine(options)
    rust = game.new_state(seed=seed)
    py = pn.Session(ours, seed)
    chooser = random.Random(seed)
    step = 0
    while True:
        where = f"{config.id}, seed {seed}, decision {step}"
        assert_same(rust, py, players, where)
        if rust.is_terminal:
            break
        legal = rust.legal_actions()
        assert legal == py.legal_actions(), f"{where}: legal actions differ"
        action = chooser.choice(legal)
        rust.apply(action)
        py.apply(action)
        step += 1
    assert_same_end(rust, py, ours)
    return rust, py


# ----- the random stream -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, 12345, 2**32, 2**63 + 5, 2**64 - 1])
def test_generator_seeding_matches_the_engine(seed: int) -> None:
    state = tw.load("north-wind", players=2).new_state(seed=seed, explicit_chance=True)
    assert json.loads(state.to_json())["rng"]["s"] == pn.Xoshiro256PlusPlus.seed_from_u64(seed).s


def test_xoshiro_reference_values() -> None:
    # The reference implementation's first outputs from the state [1, 2, 3, 4].
    rng = pn.Xoshiro256PlusPlus([1, 2, 3, 4])
    assert [rng.next_u64() for _ in range(4)] == [41943041, 58720359, 3588806011781223, 3591011842654386]


def test_below_is_uniform_and_in_range() -> None:
    rng = pn.Xoshiro256PlusPlus.seed_from_u64(7)
    counts = [0] * 5
    for _ in range(5000):
        counts[pn.below(rng, 5)] += 1
    assert all(800 < c < 1200 for c in counts)


# ----- step by step ------------------------------------------------------------------------


@pytest.mark.parametrize("config", NW_CONFIGS, ids=ids(NW_CONFIGS))
def test_games_agree_step_by_step(config: Config) -> None:
    players = config.players
    for seed in range(1000 * players, 1000 * players + SEEDS_PER_COUNT):
        play_both(config, seed)


@pytest.mark.parametrize("config", NW_CONFIGS, ids=ids(NW_CONFIGS))
def test_truncated_games_agree(config: Config) -> None:
    rust, py = play_both(config, seed=77, max_turns=6)
    assert rust.is_truncated and py.state.truncated and py.state.turn == 6


@pytest.mark.parametrize("config", NW_CONFIGS, ids=ids(NW_CONFIGS))
def test_explicit_chance_outcomes_agree(config: Config) -> None:
    players = config.players
    seed = 500 + players
    rust = config.load().new_state(seed=seed, explicit_chance=True)
    ours = pn.engine(config.options)
    py = pn.Session(ours, seed, explicit_chance=True)
    chooser = random.Random(seed)
    step = 0
    chance_nodes = 0
    while not rust.is_terminal:
        where = f"{players} players, seed {seed}, move {step}"
        assert_same(rust, py, players, where)
        if rust.is_chance:
            outcomes = rust.chance_outcomes()
            assert outcomes == py.chance_outcomes(), f"{where}: chance outcomes differ"
            assert rust.legal_actions() == py.legal_actions()
            actions = [a for a, _ in outcomes]
            action = chooser.choices(actions, weights=[p for _, p in outcomes])[0]
            chance_nodes += 1
        else:
            legal = rust.legal_actions()
            assert legal == py.legal_actions(), f"{where}: legal actions differ"
            action = chooser.choice(legal)
        rust.apply(action)
        py.apply(action)
        step += 1
    assert_same(rust, py, players, "end")
    assert_same_end(rust, py, ours)
    assert chance_nodes > 21  # the deal and more


# ----- bulk simulation ---------------------------------------------------------------------


@pytest.mark.parametrize("config", NW_CONFIGS, ids=ids(NW_CONFIGS))
def test_bulk_random_games_agree_with_simulate(config: Config) -> None:
    """Game i of a run is played from derive_seed(seed, i) with one stream for chance and the
    random players' choices (Lemire's below over the legal actions)."""
    players = config.players
    games, seed = 60, 9
    result = tw.simulate("north-wind", games, seed=seed, threads=1, **config.options)
    ours = pn.engine(config.options)
    for i, rec in enumerate(pn.simulate(ours, games, seed)):
        assert result.scores[i].tolist() == [float(x) for x in rec.scores], f"game {i}"
        assert result.winners[i].tolist() == [p == rec.winner for p in range(players)], f"game {i}"
        assert int(result.moves[i]) == rec.moves, f"game {i}"
        assert int(result.decisions[i]) == rec.decisions, f"game {i}"
        assert bool(result.truncated[i]) == rec.truncated, f"game {i}"
        assert result.category_points[i].tolist() == [[float(x) for x in row] for row in rec.category_points]
