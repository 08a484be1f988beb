"""Tournaments: every seating over the same deals, Plackett-Luce ratings with bootstrap
intervals, the tables made from the games, durable runs, and bad input."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from tradewinds.simulation import wilson_interval
from tradewinds.tournament import MANIFEST, _fit, _outcomes, rank_seats, seatings

# The test game: fast, with shared wins, a pace boat (an opponent that is not a seat) and a
# solo mode with reward tiers.
GAME = "regatta"
MCTS = "mcts:iterations=20"


# ---- seatings and rankings --------------------------------------------------------------------


def test_every_agent_takes_every_seat_in_every_combination() -> None:
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    table = seatings(4, 3)
    assert len(table) == 4 * 3 * 2  # C(4, 3) combinations, 3! orders each
    assert len(set(table)) == len(table)
    for seat in range(3):
        # Each agent sits in each seat equally often.
        assert sorted(np.bincount([s[seat] for s in table]).tolist()) == [6] * 4
    # Fewer agents than seats: every seating that gives each agent a seat.
    few = seatings(2, 3)
    assert sorted(few) == sorted(s for s in itertools.product(range(2), repeat=3) if len(set(s)) == 2)
    assert seatings(3, 1) == [(0,), (1,), (2,)]


def test_ranks_put_winners_first_then_scores_with_ties() -> None:
    scores = np.array([[5, 9, 9, 1], [7, 7, 3, 7], [2, 2, 2, 2], [4, 4, 6, 1]], dtype=float)
    winners = np.array([[True, False, False, False],  # a winner by tie-break below others' score
                        [True, True, False, False],  # a shared win
                        [False] * 4,  # nobody won, all equal
                        [False] * 4])  # nobody won: by score
    assert rank_seats(scores, winners).tolist() == [[0, 1, 1, 3], [0, 0, 3, 2], [0, 0, 0, 0], [1, 1, 0, 3]]


def test_the_fit_recovers_strengths_known_by_construction() -> None:
    # Rankings drawn from a Plackett-Luce model with known strengths, three seats at a time.
    rng = np.random.default_rng(5)
    truth = np.array([0.0, 0.7, -0.5, 1.2])
    table = seatings(4, 3)
    deals = 400
    ranks = np.empty((len(table), deals, 3), dtype=np.int8)
    for s, seating in enumerate(table):
        w = np.exp(truth[list(seating)])
        for d in range(deals):
            left = list(range(3))
            for place in range(3):
                p = w[left] / w[left].sum()
                pick = left[rng.choice(len(left), p=p)]
                ranks[s, d, pick] = place
                left.remove(pick)
    data = _outcomes(table, ranks)
    counts = np.bincount(data.game_outcome.ravel(), minlength=data.starts.shape[0]).astype(float)
    theta = _fit(data, counts, 4)
    assert np.allclose(theta, truth - truth.mean(), atol=0.12), theta


def test_a_tie_tells_nothing_about_the_tied_agents() -> None:
    # Agents 0 and 1 always tie for first above agent 2: they rate the same, above 2.
    table = seatings(3, 3)
    ranks = np.array([[[0 if seat_agent < 2 else 2 for seat_agent in seating]] * 10 for seating in table],
                     dtype=np.int8)
    data = _outcomes(table, ranks)
    counts = np.bincount(data.game_outcome.ravel(), minlength=data.starts.shape[0]).astype(float)
    theta = _fit(data, counts, 3)
    assert theta[0] == pytest.approx(theta[1], abs=1e-6)
    assert theta[0] > theta[2] + 1.0


# ---- whole tournaments ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def duel() -> tw.TournamentResult:
    return tw.tournament(GAME, [MCTS, "random"], games=600, players=2, seed=3)


def test_ratings_agree_with_a_direct_head_to_head(duel: tw.TournamentResult) -> None:
    # Bradley-Terry for two seats: the rating difference predicts the stronger agent's share of
    # the decided games. The same match played directly, both seatings, on other deals.
    rows = {r["agent"]: r for r in duel.ratings()}
    strong, weak = rows[MCTS], rows["random"]
    assert strong["rating"] > weak["rating"]
    # Two agents centred on 1500: the difference is twice the distance of one from 1500.
    def share(difference: float) -> float:
        return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))

    low, high = share(2 * (strong["low"] - 1500)), share(2 * (strong["high"] - 1500))
    won = decided = 0
    for seat, agents in enumerate([[MCTS, "random"], ["random", MCTS]]):
        direct = tw.simulate(GAME, 600, players=2, seed=99, agents=agents)
        alone = direct.winners.sum(axis=1) == 1
        won += int(direct.winners[alone, seat].sum())
        decided += int(alone.sum())
    wlow, whigh = wilson_interval(won, decided)
    assert low <= whigh and wlow <= high, ((low, high), (wlow, whigh))


def test_the_tables_add_up(duel: tw.TournamentResult) -> None:
    assert duel.total_games == 1200 and len(duel.runs) == 2
    table = {r["agent"]: r for r in duel.agent_table()}
    assert table[MCTS]["games"] == table["random"]["games"] == 1200
    seats = duel.seat_table()
    assert [r["games"] for r in seats] == [1200, 1200]
    for r in seats:
        assert r["low"] <= r["win_rate"] <= r["high"]
        assert sum(v["games"] for v in r["by_agent"].values()) == r["games"]
    m = duel.win_matrix()
    assert m[0][0] is None and m[1][1] is None
    assert m[0][1]["rate"] + m[1][0]["rate"] == pytest.approx(1.0)  # type: ignore[index]
    frame = duel.to_pandas()
    assert len(frame) == duel.total_games * 2
    assert set(frame["agent"]) == {MCTS, "random"}
    # The frame's winners are the runs' winners.
    assert int(frame["winner"].sum()) == int(sum(r.winners.sum() for r in duel.runs))
    text = duel.summary()
    assert "rating" in text and "Win matrix" in text and "Seat advantage" in text
    assert text.index(MCTS) < text.index("random")  # ranked
    assert "<pre>" in duel._repr_html_()


def test_paired_seatings_play_the_same_deals() -> None:
    # Two names for one agent: the seatings differ only in names, so paired deals give equal games.
    agents = {"a": "random", "b": "random"}
    paired = tw.tournament(GAME, agents, games=200, players=2, seed=4, bootstrap=0)
    assert np.array_equal(paired.runs[0].scores, paired.runs[1].scores)
    unpaired = tw.tournament(GAME, agents, games=200, players=2, seed=4, paired=False, bootstrap=0)
    assert not np.array_equal(unpaired.runs[0].scores, unpaired.runs[1].scores)


def test_more_agents_than_seats_and_fewer() -> None:
    three = tw.tournament(GAME, ["random", "greedy", MCTS], games=20, players=2, seed=1, bootstrap=20)
    assert len(three.seatings) == 6 and len(three.ratings()) == 3
    assert all(r["low"] <= r["rating"] <= r["high"] for r in three.ratings())
    few = tw.tournament(GAME, ["random", MCTS], games=20, players=3, seed=1, bootstrap=0)
    assert len(few.seatings) == 6
    assert all(math.isnan(r["low"]) for r in few.ratings())


def test_the_same_tables_on_any_number_of_threads() -> None:
    one = tw.tournament(GAME, ["random", "greedy", MCTS], games=60, players=3, seed=8, threads=1)
    two = tw.tournament(GAME, ["random", "greedy", MCTS], games=60, players=3, seed=8, threads=2)
    assert one.summary() == two.summary()
    assert np.array_equal(one.scores, two.scores)


def test_solo_tables_give_goal_and_tier_rates() -> None:
    result = tw.tournament(GAME, ["random", MCTS], games=100, players=1, pace_boat=True, seed=2)
    assert result.solo and result.ratings() == []
    rows = result.solo_table()
    assert [r["games"] for r in rows] == [100, 100]
    assert rows[0]["goal_rate"] >= rows[1]["goal_rate"]
    for r in rows:
        assert r["goal_low"] <= r["goal_rate"] <= r["goal_high"]
        rates = [r["tiers"][t]["rate"] for t in result.tiers]
        assert rates == sorted(rates, reverse=True)  # a higher tier is reached less often
    assert "goal rate" in result.summary()


def test_a_tournament_on_a_dask_cluster_gives_the_same_tables() -> None:
    distributed = pytest.importorskip("distributed")
    local = tw.tournament(GAME, ["random", MCTS], games=40, players=2, seed=6)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c, set_as_default=False) as client:
        remote = tw.tournament(GAME, ["random", MCTS], games=40, players=2, seed=6, backend="dask", client=client)
    assert local.summary() == remote.summary()


# ---- durable runs -----------------------------------------------------------------------------


def test_a_tournament_directory_resumes_and_refuses_another_tournament(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "t"
    first = tw.tournament(GAME, ["random", "greedy"], games=50, players=2, seed=1, out=out)
    assert (out / MANIFEST).is_file() and (out / "seating-000").is_dir() and (out / "seating-001").is_dir()
    again = tw.tournament(GAME, ["random", "greedy"], games=50, players=2, seed=1, out=out, resume=True)
    assert again.summary() == first.summary()
    with pytest.raises(ValueError, match="already holds a tournament"):
        tw.tournament(GAME, ["random", "greedy"], games=50, players=2, seed=1, out=out)
    with pytest.raises(ValueError, match="agents"):
        tw.tournament(GAME, ["random", MCTS], games=50, players=2, seed=1, out=out, resume=True)
    with pytest.raises(ValueError, match="seed"):
        tw.tournament(GAME, ["random", "greedy"], games=50, players=2, seed=2, out=out, resume=True)
    with pytest.raises(ValueError, match="config"):
        tw.tournament(GAME, ["random", "greedy"], games=50, players=2, pace_boat=True, seed=1, out=out, resume=True)
    # A seating's run that was cut off is finished on resume.
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["seatings"] == [[0, 1], [1, 0]]


# ---- bad input --------------------------------------------------------------------------------


def test_bad_input_names_what_is_allowed() -> None:
    with pytest.raises(ValueError, match=r"agent 'bogus': .*random, greedy, mcts"):
        tw.tournament(GAME, ["random", "bogus"], games=5, players=2)
    with pytest.raises(ValueError, match="at least 2 agents"):
        tw.tournament(GAME, ["random"], games=5, players=2)
    with pytest.raises(tw.OptionError, match="players"):
        tw.tournament(GAME, ["random", "greedy"], games=5, players=9)
    with pytest.raises(ValueError, match="named 'random'"):
        tw.tournament(GAME, ["random", "random"], games=5, players=2)
    with pytest.raises(TypeError):
        tw.tournament(GAME, "random,greedy", games=5, players=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="games"):
        tw.tournament(GAME, ["random", "greedy"], games=0, players=2)
    with pytest.raises(ValueError, match="resume=True needs out"):
        tw.tournament(GAME, ["random", "greedy"], games=5, players=2, resume=True)


def test_python_agents_take_part_under_their_names() -> None:
    def first_move(state: tw.State, player: int, rng: Any) -> int:
        return state.legal_actions()[0]

    result = tw.tournament(GAME, {"first": first_move, "mcts": MCTS}, games=10, players=2, seed=1, bootstrap=0)
    assert {r["agent"] for r in result.ratings()} == {"first", "mcts"}


def test_the_command_line_prints_the_tables_and_draws_them(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    figure = tmp_path / "t.png"
    done = subprocess.run(
        [sys.executable, "-m", "tradewinds", "tournament", GAME, "--agents", f"random,{MCTS},rollout_depth=50",
         "--games", "30", "--players", "2", "--seed", "1", "--plot", str(figure)],
        capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "mcts:iterations=20,rollout_depth=50" in done.stdout and "Win matrix" in done.stdout
    assert figure.stat().st_size > 1000
    bad = subprocess.run([sys.executable, "-m", "tradewinds", "tournament", GAME, "--agents", "random,bogus"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "bogus" in bad.stderr and "greedy" in bad.stderr
