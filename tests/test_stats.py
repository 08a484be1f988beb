"""The statistics a run accumulates chunk by chunk (`tradewinds._stats.RunStatistics`), which
the summary reads, against the same statistics computed by numpy from all the games at once.

Stated tolerance: counts (wins, truncations, tiers, games without a winner or with a shared
win) and minima and maxima are equal; means and standard deviations agree within a relative
1e-12 (an absolute 1e-12 near zero). Merged in the same order, the same chunks give the same
bits, whatever order they finished in (so a resumed or distributed run gives the same
statistics as an uninterrupted local one with the same chunk size)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_CONFIG, config_id
from tradewinds._results import ARRAYS, Layout, allocate
from tradewinds._stats import InOrder, RunStatistics

TOLERANCE = dict(rtol=1e-12, atol=1e-12)

#: The first configuration of each listed game, and regatta solo against its pace boat (an
#: opponent that is not a seat, and tiers), with five seats and the pace boat, and three seats.
CONFIGURATIONS = [(c.game, c.options) for c in ONE_CONFIG if c.game in tw.GAMES] + [
    ("regatta", {"players": 1, "pace_boat": True}), ("regatta", {"players": 5, "pace_boat": True}),
    ("regatta", {"players": 3})]
IDS = [config_id(name, options) for name, options in CONFIGURATIONS]

MOMENTS = ("scores", "category_points", "opponent_scores", "moves", "decisions")


def agents_for(players: int) -> list[str]:
    return [["greedy", "random"][p % 2] for p in range(players)]


def reference(r: tw.SimulationResult) -> dict[str, Any]:
    """The statistics of ``r``'s games, computed by numpy from its arrays (not by _stats)."""
    seats = r.winners.sum(axis=1)
    opponents = r.opponent_wins.sum(axis=1)
    out: dict[str, Any] = {
        "games": r.games,
        "wins": r.winners.sum(axis=0),
        "opponent_wins": r.opponent_wins.sum(axis=0),
        "truncated": int(r.truncated.sum()),
        "tiers": np.bincount(r.tier[r.tier >= 0].astype(np.int64), minlength=len(r.tiers)),
        "no_seat_won": int((seats == 0).sum()),
        "won_by_an_opponent_alone": int(((seats == 0) & (opponents > 0)).sum()),
        "shared": int(((seats + opponents) > 1).sum()),
    }
    for name in MOMENTS:
        x = getattr(r, name).astype(np.float64)
        out[name] = (x.mean(axis=0), x.std(axis=0), x.min(axis=0), x.max(axis=0))
    return out


def assert_matches(stats: RunStatistics, ref: dict[str, Any]) -> None:
    assert stats.games == ref["games"]
    assert np.array_equal(stats.count["winners"], ref["wins"])
    assert np.array_equal(stats.count["opponent_wins"], ref["opponent_wins"])
    assert int(stats.count["truncated"]) == ref["truncated"]
    assert np.array_equal(stats.level_counts("tier"), ref["tiers"])
    assert stats.levels["tier"].sum() == ref["games"]
    assert (stats.no_seat_won, stats.won_by_an_opponent_alone, stats.shared) == (
        ref["no_seat_won"], ref["won_by_an_opponent_alone"], ref["shared"])
    for name in MOMENTS:
        mean, std, low, high = ref[name]
        assert np.allclose(stats.mean[name], mean, **TOLERANCE), name
        assert np.allclose(stats.std(name), std, **TOLERANCE), name
        assert np.array_equal(stats.low[name], low) and np.array_equal(stats.high[name], high), name


@pytest.mark.parametrize("name,options", CONFIGURATIONS, ids=IDS)
def test_statistics_of_a_run_are_those_of_its_games(name: str, options: dict[str, Any], tmp_path: Path) -> None:
    game = tw.load(name, **options)
    agents = agents_for(game.players)
    games = 2000
    whole = tw.simulate(game, games, seed=8, threads=2, agents=agents)
    ref = reference(whole)
    assert_matches(whole.statistics, ref)  # computed from the arrays held
    by_chunk: dict[int, RunStatistics] = {}
    for chunk in (7, 256, 1000, games):
        r = tw.simulate(game, games, seed=8, threads=2, agents=agents, keep_games=False, chunk_games=chunk)
        assert not r.holds_games and r.games == games
        assert_matches(r.statistics, ref)
        # Win rates and intervals come from counts: exactly those of the games.
        assert np.array_equal(r.win_rate, whole.win_rate)
        assert np.array_equal(r.win_rate_interval(), whole.win_rate_interval())
        assert np.array_equal(r.opponent_win_rate_interval(), whole.opponent_win_rate_interval())
        assert np.array_equal(r.tier_rate, whole.tier_rate)
        by_chunk[chunk] = r.statistics
    # In one chunk, the statistics are computed as for the arrays held: the same summary.
    assert by_chunk[games] == whole.statistics
    one = tw.simulate(game, games, seed=8, threads=2, agents=agents, keep_games=False, chunk_games=games)
    assert one.summary().splitlines()[2:] == whole.summary().splitlines()[2:]
    # Streamed, the same chunks merged in the same order: the same bits, written and read back.
    streamed = tw.simulate(game, games, seed=8, threads=2, agents=agents, out=tmp_path / "run", chunk_games=256)
    assert streamed.statistics == by_chunk[256]
    assert tw.SimulationResult.load_dir(tmp_path / "run").statistics == by_chunk[256]


def chunk_statistics(r: tw.SimulationResult, size: int) -> list[RunStatistics]:
    return [RunStatistics.of({k: v[i:i + size] for k, v in r.arrays.items()}, r.layout)
            for i in range(0, r.games, size)]


def test_merging_in_any_order_gives_the_same_bits() -> None:
    r = tw.simulate("regatta", 5000, players=5, pace_boat=True, seed=3, threads=2)
    parts = chunk_statistics(r, 97)
    in_order = InOrder(RunStatistics(r.layout), len(parts))
    for i, s in enumerate(parts):
        in_order.add(i, s)
    assert in_order.complete and not in_order.pending
    rng = random.Random(1)
    for _ in range(5):
        order = list(range(len(parts)))
        rng.shuffle(order)
        merged = InOrder(RunStatistics(r.layout), len(parts))
        waiting = 0
        for i in order:
            merged.add(i, parts[i])
            waiting = max(waiting, len(merged.pending))
        assert merged.complete and merged.total == in_order.total
        assert waiting > 0  # chunks that arrived early waited for those before them
    assert_matches(in_order.total, reference(r))


def test_in_order_takes_finished_chunks_from_storage() -> None:
    r = tw.simulate("regatta", 1000, players=3, seed=4, threads=2)
    parts = chunk_statistics(r, 100)
    on_disk = {0, 1, 4, 9}
    seen: list[int] = []
    merged = InOrder(RunStatistics(r.layout), len(parts),
                     stored=lambda i: (parts[i], {"index": i}) if i in on_disk else None,
                     note=lambda i, meta: seen.append(i))
    merged.advance()
    assert merged.next == 2
    for i in (8, 7, 6, 5, 3, 2):
        merged.add(i, parts[i], {"index": i})
    assert merged.complete and seen == list(range(10))
    whole = InOrder(RunStatistics(r.layout), len(parts))
    for i, s in enumerate(parts):
        whole.add(i, s)
    assert merged.total == whole.total


def test_json_round_trip_is_exact() -> None:
    r = tw.simulate("regatta", 700, players=1, pace_boat=True, seed=2, threads=2, agents=["greedy"])
    stats = r.statistics
    text = json.dumps(stats.to_json())
    back = RunStatistics.from_json(json.loads(text), r.layout)
    assert back == stats and back.games == 700
    for name in MOMENTS:
        assert np.array_equal(back.mean[name], stats.mean[name]) and np.array_equal(back.m2[name], stats.m2[name])
    with pytest.raises(ValueError, match="do not fit the game"):
        RunStatistics.from_json(json.loads(text), Layout.of(2, r.categories, r.opponents, r.tiers))
    with pytest.raises(ValueError, match="cannot merge"):
        stats.add(RunStatistics(Layout.of(2, r.categories)))


def test_moments_stay_accurate_far_from_zero() -> None:
    # Scores far from zero with a small spread: sums of squares would lose every digit of
    # the spread; the pairwise update keeps it.
    layout = Layout.of(2, ["a"])
    n = 20_000
    arrays = allocate(n, layout)
    rng = np.random.default_rng(5)
    arrays["scores"][:] = 1e9 + rng.integers(0, 7, size=(n, 2))
    arrays["category_points"][:, :, 0] = arrays["scores"] - 0.25
    arrays["moves"][:] = rng.integers(10, 5000, size=n)
    arrays["decisions"][:] = arrays["moves"] // 2
    total = RunStatistics(layout)
    for i in range(0, n, 333):
        total.add(RunStatistics.of({k: v[i:i + 333] for k, v in arrays.items()}, layout))
    for name in ("scores", "category_points", "moves"):
        x = arrays[name].astype(np.float64)
        assert np.allclose(total.mean[name], x.mean(axis=0), **TOLERANCE)
        # The spread (about 2) survives: relative to it, the error is tiny.
        assert np.allclose(total.std(name), x.std(axis=0), rtol=1e-9, atol=0)
    assert RunStatistics.of(arrays, layout) == RunStatistics.of(arrays, layout)


def test_a_result_without_its_games_says_so() -> None:
    r = tw.simulate("regatta", 300, players=3, seed=1, threads=2, keep_games=False)
    assert not r.holds_games and not hasattr(r, "scores")
    for attempt in (lambda: r.scores, lambda: r.arrays, lambda: r.to_pandas(), lambda: list(r.chunks())):
        with pytest.raises(AttributeError, match="keep_games=False"):
            attempt()
    assert "300 games" in r.summary() and r.win_rate.shape == (3,)
    assert np.isfinite(r.decisions_per_second)
    kept = tw.simulate("regatta", 300, players=3, seed=1, threads=2)
    assert kept.holds_games and [c is kept for c in kept.chunks()] == [True]
    assert set(ARRAYS) <= set(dir(kept))
    with pytest.raises(TypeError, match="keep_games"):
        tw.simulate("regatta", 10, players=3, keep_games="no")  # type: ignore[arg-type]
