"""Game-design metrics (``simulate(..., metrics=True)``, ``result.metrics()``, ``tradewinds
metrics``): each checked on games whose value is known by construction, and their
determinism."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

import tradewinds as tw
from tradewinds._results import BRANCHING_BINS, Layout, allocate
from tradewinds.balance import chi_square_sf, compute


def regatta(games: int = 400, players: int = 2, seed: int = 7, **kw: object) -> tw.SimulationResult:
    return tw.simulate("regatta", games, players=players, seed=seed, metrics=True, **kw)


# ---- known by construction on regatta ---------------------------------------------------------


def test_regatta_offers_three_sails_at_every_decision_so_branching_is_exactly_three() -> None:
    """Regatta: "every seat, in seat order, secretly sets its sails to 1, 2 or 3"."""
    r = regatta()
    m = r.metrics()
    b = m["branching"]
    assert b.value == 3.0 and b.contains(3.0)
    assert m.branching_histogram["2-3"] == int(r.decisions.sum())
    assert sum(m.branching_histogram.values()) == int(r.decisions.sum())
    assert (r.legal_moves == 3 * r.decisions).all()


@pytest.mark.parametrize("players", [2, 3, 5])
def test_seats_choosing_in_turn_make_every_decision_a_turn(players: int) -> None:
    """Seats set their sails one after another, so the mover changes at every decision."""
    r = regatta(200, players)
    assert (r.turns == r.decisions.astype(np.int64)).all()
    m = r.metrics()
    assert m["turns"].value == m["decisions"].value
    assert m["turns"].contains(float(r.decisions.mean()))


def test_a_solo_seat_takes_one_turn_a_game_and_has_no_lead() -> None:
    r = tw.simulate("regatta", 100, players=1, pace_boat=True, seed=3, metrics=True)
    assert (r.turns == 1).all()
    assert (r.lead_changes == -1).all() and (r.lead_from == -1).all() and (r.drama == -1).all()
    m = r.metrics()
    assert m["turns"].value == 1.0
    assert "drama" not in m and "lead changes" not in m


def test_regatta_always_finishes_so_completion_is_one() -> None:
    """Regatta: "The race ends after the round in which a boat reaches the finish, or after
    `course` rounds"; it is never truncated."""
    m = regatta().metrics()
    assert m["completion"].value == 1.0 and m["completion"].contains(1.0)
    assert m["truncation"].value == 0.0 and m["truncation"].contains(0.0)


def test_regatta_seats_are_symmetric_so_the_seat_test_finds_no_advantage() -> None:
    """The sails are set in secret, so no seat learns another's choice: the seats are the
    same by construction and each wins as often (the win rates' intervals overlap, the
    chi-square test does not reject at 1%)."""
    m = regatta(4000).metrics()
    a, b = m["win rate seat 0"], m["win rate seat 1"]
    assert a.low <= b.high and b.low <= a.high
    assert m.seat_test is not None and m.seat_test.p_value > 0.01


def test_trajectory_values_lie_in_their_ranges_and_agree_with_the_outcomes() -> None:
    r = regatta(500, 3)
    sole = (r.winners.sum(axis=1) == 1)
    assert ((r.lead_from >= 0) == sole).all()
    assert ((r.drama >= 0) == sole).all()
    assert (r.lead_from[sole] <= r.decisions[sole].astype(np.int64)).all()
    assert ((r.drama[sole] >= 0) & (r.drama[sole] <= 1)).all()
    assert (r.lead_changes >= 0).all()


# ---- known by construction: synthetic games ----------------------------------------------------


def synthetic(games: int, players: int = 2) -> dict[str, np.ndarray]:
    layout = Layout.of(players, ["a", "b"])
    arrays = allocate(games, layout)
    arrays["decisions"][:] = 10
    arrays["moves"][:] = 12
    arrays["turns"][:] = 10
    arrays["lead_changes"][:] = 0
    arrays["legal_moves"][:] = 40
    arrays["branching"][:, 2] = 10
    return arrays


def test_a_seat_that_always_wins_has_win_rate_one_and_imbalance_one() -> None:
    arrays = synthetic(300)
    arrays["winners"][:, 0] = True
    arrays["lead_from"][:] = 0
    arrays["drama"][:] = 0.0
    m = compute(arrays, Layout.of(2, ["a", "b"]), game="synthetic", agents=["x", "y"])
    assert m["win rate seat 0"].value == 1.0 and m["win rate seat 0"].contains(1.0)
    assert m["win rate seat 1"].value == 0.0 and m["win rate seat 1"].contains(0.0)
    assert m["imbalance"].value == 1.0 and m["imbalance"].contains(1.0)
    assert m.seat_test is not None and m.seat_test.p_value < 1e-12
    # Led from the first decision, never behind, no lead change: decisive at once, no drama.
    assert m["decisiveness"].value == 0.0 and m["drama"].value == 0.0 and m["comeback"].value == 0.0
    assert m["lead changes"].value == 0.0
    assert m["branching"].value == 4.0


def test_alternating_winners_are_balanced_and_trajectory_means_are_exact() -> None:
    arrays = synthetic(400)
    arrays["winners"][0::2, 0] = True
    arrays["winners"][1::2, 1] = True
    arrays["lead_from"][:] = 5  # half way through 10 decisions
    arrays["drama"][0::2] = 0.1
    arrays["drama"][1::2] = 0.5  # half the wins come back from a deficit above 0.25
    arrays["lead_changes"][:] = 3
    m = compute(arrays, Layout.of(2, ["a", "b"]), game="synthetic", agents=["x", "y"])
    assert m["win rate seat 0"].value == 0.5 and m["win rate seat 0"].contains(0.5)
    assert m.seat_test is not None and m.seat_test.statistic == 0.0 and m.seat_test.p_value == 1.0
    assert m["decisiveness"].value == 0.5 and m["decisiveness"].contains(0.5)
    assert math.isclose(m["drama"].value, 0.3) and m["drama"].contains(0.3)
    assert m["comeback"].value == 0.5 and m["comeback"].contains(0.5)
    assert m["lead changes"].value == 3.0 and m["lead changes"].contains(3.0)


def test_shared_wins_margins_and_category_shares() -> None:
    arrays = synthetic(200)
    arrays["winners"][:100] = True  # both seats: a shared win
    arrays["winners"][100:, 0] = True
    arrays["scores"][:, 0] = 10.0
    arrays["scores"][:, 1] = 7.0
    arrays["category_points"][:, :, 0] = [7.5, 5.25]
    arrays["category_points"][:, :, 1] = [2.5, 1.75]
    m = compute(arrays, Layout.of(2, ["a", "b"]), game="synthetic", agents=["x", "y"])
    assert m["shared win"].value == 0.5 and m["shared win"].contains(0.5)
    assert m["score margin"].value == 3.0 and m["score margin"].games == 100
    assert m["share: a"].value == 0.75 and m["share: a"].contains(0.75)
    assert m["share: b"].value == 0.25


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5])
def test_the_chi_square_tail_matches_scipy(df: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    for x in (0.1, 1.0, 3.84, 9.5, 30.0):
        assert math.isclose(chi_square_sf(x, df), float(stats.chi2.sf(x, df)), rel_tol=1e-9, abs_tol=1e-15)


# ---- determinism, transport -------------------------------------------------------------------


def test_same_seed_same_metrics_on_any_thread_count_and_metrics_do_not_change_the_games() -> None:
    one = regatta(600, 3, threads=1)
    two = regatta(600, 3, threads=2)
    assert one.metrics().to_dict() == two.metrics().to_dict()
    for name in tw._results.ARRAYS:
        assert np.array_equal(one.arrays[name], two.arrays[name]), name
    plain = tw.simulate("regatta", 600, players=3, seed=7)
    for name in ("scores", "winners", "moves", "decisions", "category_points"):
        assert np.array_equal(plain.arrays[name], one.arrays[name]), name
    assert (plain.turns == -1).all() and (plain.legal_moves == 0).all()
    assert plain.branching.shape == (600, BRANCHING_BINS)


def test_without_metrics_the_outcome_metrics_remain() -> None:
    m = tw.simulate("regatta", 200, seed=1).metrics()
    assert not m.measured
    assert "win rate seat 0" in m and "completion" in m and "branching" not in m
    assert "metrics=True" in str(m)


def test_the_metrics_travel_through_saved_results_run_directories_and_pandas(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = regatta(300)
    loaded = tw.SimulationResult.load(r.save(tmp_path / "r.npz"))
    assert loaded.metrics().to_dict() == r.metrics().to_dict()
    pytest.importorskip("pyarrow")
    streamed = regatta(300, out=tmp_path / "run", chunk_games=64)
    assert streamed.metrics().to_dict() == r.metrics().to_dict()
    pd = pytest.importorskip("pandas")
    frame = r.to_pandas()
    assert {"turns", "lead_changes", "lead_from", "drama", "legal_moves"} <= set(frame.columns)
    assert isinstance(r.metrics().to_pandas(), pd.DataFrame)


def test_a_directory_run_with_metrics_does_not_resume_without(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pyarrow")
    regatta(100, out=tmp_path / "run", chunk_games=50)
    with pytest.raises(tw.RunDirectoryError, match="metrics"):
        tw.simulate("regatta", 100, players=2, seed=7, out=tmp_path / "run", resume=True, chunk_games=50)


def test_python_agents_cannot_measure() -> None:
    with pytest.raises(ValueError, match="built-in agents"):
        tw.simulate("regatta", 2, metrics=True, agents=[lambda s, p, rng: 0, "random"])


def test_a_tournament_keeps_its_games_metrics() -> None:
    t = tw.tournament("regatta", ["random", "greedy"], games=30, seed=2, metrics=True, bootstrap=0)
    m = t.metrics()
    assert m.games == 30 * len(t.seatings)
    assert m["branching"].value == 3.0


def test_the_summary_and_html_show_every_metric() -> None:
    m = regatta(200).metrics()
    text, page = str(m), m._repr_html_()
    for metric in m.metrics:
        assert metric.name in text and metric.name in page
    assert "chi-square" in text


def test_the_command_line_prints_the_metrics_as_json() -> None:
    r = subprocess.run([sys.executable, "-m", "tradewinds", "metrics", "regatta", "--games", "60", "--players", "3",
                        "--seed", "4", "--json"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    by_name = {m["name"]: m for m in data["metrics"]}
    assert by_name["branching"]["value"] == 3.0
    assert data["games"] == 60 and data["players"] == 3
    expected = regatta(60, 3, seed=4).metrics().to_dict()
    assert data["metrics"] == expected["metrics"]


def test_every_agent_counts_the_legal_moves_of_its_decision() -> None:
    """The legal moves are counted from the agent's own listing: greedy and MCTS list them
    last too, so every decision of regatta still counts its three sails."""
    r = tw.simulate("regatta", 20, players=2, seed=5, metrics=True, agents=["greedy", "mcts:iterations=20"])
    assert (r.legal_moves == 3 * r.decisions).all()
    assert r.metrics()["branching"].value == 3.0


def test_evaluating_every_decision_sees_every_deficit_that_sampling_sees() -> None:
    """The positions evaluated one decision in 64 are among those evaluated at every
    decision, so the winner's largest deficit (drama) can only grow; turns and legal moves
    count every decision either way."""
    g = tw.load("regatta", players=3, course=30)
    coarse = g.simulate(300, 2, 1, None, None, 0, True, 64)
    fine = g.simulate(300, 2, 1, None, None, 0, True, 1)
    assert (fine["drama"] >= coarse["drama"]).all()
    assert (fine["turns"] == coarse["turns"]).all() and (fine["legal_moves"] == coarse["legal_moves"]).all()
