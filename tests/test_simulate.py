"""Bulk simulation: shapes, determinism across thread counts, progress, summaries, saving."""

from __future__ import annotations

import importlib
import io
import math
import threading

import numpy as np
import pytest

import tradewinds as tw
from tradewinds.simulation import ProgressBar, wilson_interval

ARRAYS = ("scores", "winners", "moves", "decisions", "truncated", "category_points")


def test_result_shapes_and_types(game: tw.Game) -> None:
    n = 300
    r = tw.simulate(game, n, seed=5, threads=2)
    assert isinstance(r, tw.SimulationResult)
    assert (r.game, r.players, r.games, r.seed) == (game.name, game.players, n, 5)
    assert r.threads == 2
    assert r.elapsed_seconds >= 0
    assert r.options == game.options
    cats = len(r.categories)
    assert cats >= 1 and all(isinstance(c, str) for c in r.categories)
    assert r.scores.shape == (n, game.players) and r.scores.dtype == np.float64
    assert r.winners.shape == (n, game.players) and r.winners.dtype == np.bool_
    assert r.moves.shape == (n,) and r.moves.dtype == np.uint64
    assert r.decisions.shape == (n,) and r.decisions.dtype == np.uint64
    assert r.truncated.shape == (n,) and r.truncated.dtype == np.bool_
    assert r.category_points.shape == (n, game.players, cats) and r.category_points.dtype == np.float64
    assert (r.decisions <= r.moves).all()
    assert (r.moves <= game.max_game_length).all()
    assert (r.decisions > 0).all()
    assert np.isfinite(r.category_points).all() and np.isfinite(r.scores).all()
    # Win rates are per seat, from the winners array.
    assert r.win_rate.shape == (game.players,)
    assert np.allclose(r.win_rate, r.winners.mean(axis=0))
    assert r.games_per_second > 0 and r.decisions_per_second > 0


def test_category_points_add_up_to_the_scores(game: tw.Game) -> None:
    # A score report breaks each player's score down by category: per game and seat, the
    # category points sum to the score.
    r = tw.simulate(game, 200, seed=6, threads=2)
    assert np.allclose(r.category_points.sum(axis=2), r.scores)


def test_determinism_across_thread_counts(game: tw.Game) -> None:
    a = tw.simulate(game, 600, seed=11, threads=1)
    b = tw.simulate(game, 600, seed=11, threads=2)
    c = tw.simulate(game, 600, seed=11, threads=0)
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
        assert np.array_equal(getattr(a, name), getattr(c, name)), name
    assert a.categories == b.categories == c.categories
    d = tw.simulate(game, 600, seed=12, threads=2)
    assert not np.array_equal(a.scores, d.scores) or not np.array_equal(a.moves, d.moves)


def test_prefix_property(one_game: tw.Game) -> None:
    # Game i depends only on the seed and i: a shorter run is a prefix of a longer one.
    short = tw.simulate(one_game, 100, seed=13, threads=2)
    long = tw.simulate(one_game, 700, seed=13, threads=2)
    for name in ARRAYS:
        assert np.array_equal(getattr(short, name), getattr(long, name)[:100]), name


def test_simulate_by_name_and_options() -> None:
    for name in tw.GAMES:
        game = tw.load(name)
        r = tw.simulate(name, 50, seed=1, threads=1, **game.options)
        assert r.game == name and r.players == game.players
        r2 = tw.simulate(game, 50, seed=1, threads=1)
        assert np.array_equal(r.scores, r2.scores)


def test_simulate_argument_errors(one_game: tw.Game) -> None:
    with pytest.raises(TypeError, match="only be given with a game name"):
        tw.simulate(one_game, 10, players=2)
    with pytest.raises(ValueError):
        tw.simulate(one_game, -1)
    with pytest.raises(ValueError):
        tw.simulate(one_game, 10, threads=-1)
    with pytest.raises(TypeError):
        tw.simulate(one_game, 10.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tw.simulate(42, 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tw.simulate("no-such-game", 10)
    with pytest.raises(ValueError, match="players"):
        tw.simulate(one_game.name, 10, players=99)
    with pytest.raises(TypeError):
        tw.simulate(one_game, 10, progress="yes")  # type: ignore[arg-type]


def test_zero_games(one_game: tw.Game) -> None:
    r = tw.simulate(one_game, 0, seed=1, threads=1)
    assert r.games == 0 and r.scores.shape == (0, one_game.players)
    assert r.category_points.shape[:2] == (0, one_game.players)
    assert np.isnan(r.win_rate).all()
    assert "no games" in r.summary()


def test_raw_simulate_dict(one_game: tw.Game) -> None:
    raw = one_game.simulate(20, 3, 1)
    assert set(raw) == {
        "game", "games", "players", "seed", "threads", "elapsed_seconds", "categories", "first", "agents",
        *ARRAYS,
    }
    assert raw["games"] == 20 and raw["seed"] == 3 and raw["threads"] == 1
    raw = one_game.simulate(20, seed=2**64 - 1)
    assert raw["seed"] == 2**64 - 1
    with pytest.raises(ValueError, match="games"):
        one_game.simulate(-1)
    with pytest.raises(ValueError, match="threads"):
        one_game.simulate(10, 0, -2)


@pytest.mark.parametrize("entry", ["tw.simulate", "Game.simulate"])
def test_progress_callback_counts_every_game(one_game: tw.Game, entry: str) -> None:
    seen: list[int] = []
    threads_seen: set[int] = set()

    def progress(n: int) -> None:
        seen.append(n)
        threads_seen.add(threading.get_ident())

    if entry == "tw.simulate":
        scores = tw.simulate(one_game, 3000, seed=3, threads=2, progress=progress).scores
        # The callback runs on the worker threads that play the chunks, not on the caller's.
        assert threading.get_ident() not in threads_seen
    else:
        scores = one_game.simulate(3000, 3, 2, progress)["scores"]
        # The binding waits for its Rust threads on the calling thread and reports there the
        # games finished since its last call.
        assert threads_seen == {threading.get_ident()}
    assert sum(seen) == 3000 and all(n > 0 for n in seen)
    assert np.array_equal(tw.simulate(one_game, 3000, seed=3, threads=1).scores, scores)


def test_progress_callback_error_is_raised_after_the_run(one_game: tw.Game) -> None:
    calls: list[int] = []

    def progress(n: int) -> None:
        calls.append(n)
        raise ZeroDivisionError("from the callback")

    with pytest.raises(ZeroDivisionError, match="from the callback"):
        tw.simulate(one_game, 1000, seed=3, threads=2, progress=progress)
    assert len(calls) == 1, "the callback is not called again after it raised"


def test_progress_bar_on_a_stream(one_game: tw.Game) -> None:
    stream = io.StringIO()
    bar = ProgressBar(1000, stream, interval=0.0)
    tw.simulate(one_game, 1000, seed=3, threads=2, progress=bar.update)
    bar.close()
    bar.close()  # closing twice is harmless
    text = stream.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    last = text.rstrip("\n").split("\r")[-1]
    assert "100.0%" in last and "1,000/1,000 games" in last and "games/s" in last and "ETA" in last


def test_summary(game: tw.Game) -> None:
    r = tw.simulate(game, 400, seed=21, threads=2)
    text = r.summary()
    assert str(r) == text
    for needle in ("games/s", "decisions/s", "win rate", "95% CI", "mean score", "std score",
                   "decisions", "moves", "truncated", f"{r.games:,} games", game.name):
        assert needle in text, needle
    for p in range(game.players):
        assert f"P{p}" in text
        lo, hi = wilson_interval(int(r.winners[:, p].sum()), r.games)
        assert f"[{lo:.4f}, {hi:.4f}]" in text
    assert "SimulationResult" in repr(r)


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert math.isclose(lo, 0.0, abs_tol=1e-12) and math.isclose(hi, 0.2775, abs_tol=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert math.isclose(hi, 1.0) and math.isclose(lo, 0.7225, abs_tol=1e-4)
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_save_and_load(one_game: tw.Game, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = tw.simulate(one_game, 200, seed=8, threads=2)
    path = r.save(tmp_path / "run.npz")
    assert path == tmp_path / "run.npz" and path.is_file()
    back = tw.SimulationResult.load(path)
    for name in ARRAYS:
        a, b = getattr(r, name), getattr(back, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    for name in ("game", "players", "games", "seed", "threads", "elapsed_seconds", "categories", "options"):
        assert getattr(back, name) == getattr(r, name), name
    assert back.summary() == r.summary()
    # A path without the .npz suffix is written exactly where asked.
    other = r.save(tmp_path / "run.data")
    assert other.is_file() and not (tmp_path / "run.data.npz").exists()
    assert np.array_equal(tw.SimulationResult.load(other).scores, r.scores)
    np.savez_compressed(tmp_path / "foreign.npz", x=np.arange(3))
    with pytest.raises(ValueError, match="not a saved tradewinds simulation"):
        tw.SimulationResult.load(tmp_path / "foreign.npz")


def test_to_pandas(one_game: tw.Game) -> None:
    r = tw.simulate(one_game, 30, seed=8, threads=1)
    try:
        importlib.import_module("pandas")
    except ImportError:
        with pytest.raises(ImportError, match="pip install pandas"):
            r.to_pandas()
        return
    # The wide layout: one row per game (the tidy default is tested in test_bulk.py).
    df = r.to_pandas(wide=True)
    assert len(df) == 30
    for p in range(one_game.players):
        assert np.array_equal(df[f"score_p{p}"].to_numpy(), r.scores[:, p])
        assert np.array_equal(df[f"win_p{p}"].to_numpy(), r.winners[:, p])
    assert np.array_equal(df["decisions"].to_numpy(), r.decisions)
