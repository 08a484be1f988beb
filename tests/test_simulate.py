"""Bulk simulation: shapes, determinism across thread counts, progress, summaries, saving."""

from __future__ import annotations

import importlib
import importlib.util
import io
import re
import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest

import tradewinds as tw
from tradewinds import _results
from conftest import ONE_CONFIG, config_id
from tradewinds.simulation import ProgressBar, wilson_interval

ARRAYS = ("scores", "winners", "moves", "decisions", "truncated", "category_points",
          "opponent_scores", "opponent_wins", "tier",
          "turns", "lead_changes", "lead_from", "drama", "legal_moves", "branching")

#: Regatta, the engine's test game: solo against a pace boat (an opponent that is not a seat,
#: with bronze/silver/gold tiers), five seats and the pace boat, three seats and no opponent.
REGATTA = [{"players": 1, "pace_boat": True}, {"players": 5, "pace_boat": True}, {"players": 3}]
REGATTA_IDS = ["solo", "5p-pace-boat", "3p"]


def solo() -> tw.Game:
    return tw.load("regatta", players=1, pace_boat=True)


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
    assert r.opponents == game.opponents and r.tiers == game.tiers
    k = len(game.opponents)
    assert r.opponent_scores.shape == (n, k) and r.opponent_scores.dtype == np.float64
    assert r.opponent_wins.shape == (n, k) and r.opponent_wins.dtype == np.bool_
    assert r.tier.shape == (n,) and r.tier.dtype == np.int8
    assert ((r.tier >= -1) & (r.tier < len(game.tiers))).all()
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
        "opponents", "tiers", "metrics", *ARRAYS,
    }
    assert raw["opponents"] == one_game.opponents and raw["tiers"] == one_game.tiers
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


def test_progress_lines_where_stderr_is_no_terminal(one_game: tw.Game) -> None:
    # A pipe or a log gets a plain line every interval (no carriage returns), with the time
    # left; a run shorter than the interval gets none.
    stream = io.StringIO()
    bar = ProgressBar(1000, stream, interval=0.0, lines=True)
    tw.simulate(one_game, 1000, seed=3, threads=2, progress=bar.update)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines and "\r" not in stream.getvalue()
    assert all(re.fullmatch(r"[\d,]+/1,000 games \(\d+\.\d%\), \S+ games/s(, about \S+ left)?", line) for line in lines)
    assert lines[-1].startswith("1,000/1,000 games (100.0%)")
    quiet = io.StringIO()
    short = ProgressBar(1000, quiet, lines=True)
    tw.simulate(one_game, 200, seed=3, threads=2, progress=short.update)
    short.close()
    assert quiet.getvalue() == ""


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
    # A rate of 0 or 1 lies inside its interval, exactly at its end.
    for n in (1, 3, 60, 1000, 12_345):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0


def test_save_and_load(one_game: tw.Game, tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = tw.simulate(one_game, 200, seed=8, threads=2)
    path = r.save(tmp_path / "run.npz")
    assert path == tmp_path / "run.npz" and path.is_file()
    back = tw.SimulationResult.load(path)
    for name in ARRAYS:
        a, b = getattr(r, name), getattr(back, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    for name in ("game", "players", "games", "seed", "threads", "elapsed_seconds", "categories", "options",
                 "opponents", "tiers"):
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


# ---- opponents that are not seats, and tiers (regatta) -------------------------------------


def test_the_schema_is_what_the_engine_returns() -> None:
    assert _results.ARRAYS == ARRAYS
    assert {a.name: a.fill for a in _results.SCHEMA}["tier"] == -1
    for game in [c.load() for c in ONE_CONFIG] + [tw.load("regatta", **o) for o in REGATTA]:
        raw = game.simulate(7, 1, 1)
        layout = _results.Layout.from_meta(raw)
        assert layout == _results.Layout.of(game.players, raw["categories"], game.opponents, game.tiers)
        # The opponents axis is the game's opponents that are not seats (not a seat's rivals).
        assert _results.axis_sizes(layout) == {
            "players": game.players, "opponents": len(game.opponents), "categories": len(raw["categories"]),
            "tiers": len(game.tiers), "branching": _results.BRANCHING_BINS}
        _results.check(_results.pick(raw), 7, layout)
        empty = _results.allocate(3, layout)
        _results.check(empty, 3, layout)
        assert (empty["tier"] == -1).all() and not empty["opponent_wins"].any()
        # A game played without metrics holds -1 (or 0) in the metrics' arrays.
        assert (empty["turns"] == -1).all() and (empty["drama"] == -1).all() and not empty["branching"].any()


@pytest.mark.parametrize("options", REGATTA, ids=REGATTA_IDS)
def test_regatta_records_its_opponents_and_tiers(options: dict[str, object]) -> None:
    game = tw.load("regatta", **options)
    r = tw.simulate(game, 1500, seed=3, threads=2)
    assert r.players == game.players and r.opponents == game.opponents and r.tiers == game.tiers
    k = len(game.opponents)
    assert r.opponent_scores.shape == (1500, k) and r.opponent_wins.shape == (1500, k)
    assert not r.truncated.any()
    if not game.tiers:
        assert (r.tier == -1).all()
    if k:
        assert r.opponent_wins.any() and np.isfinite(r.opponent_scores).all()
        # An opponent wins with the best total, so no seat beats it when it wins.
        best = np.where(r.opponent_wins[:, 0], r.opponent_scores[:, 0], -np.inf)
        assert (r.scores.max(axis=1) <= best)[r.opponent_wins[:, 0]].all()
    # The binding's own arrays, all of them.
    raw = game.simulate(1500, 3, 2)
    for name in ARRAYS:
        assert np.array_equal(getattr(r, name), raw[name]), name


def test_a_solo_game_is_won_by_the_seat_or_the_pace_boat() -> None:
    game = solo()
    assert (game.players, game.opponents, game.tiers) == (1, ["pace boat"], ["bronze", "silver", "gold"])
    r = tw.simulate(game, 3000, seed=9, threads=2)
    seat, boat = r.winners[:, 0], r.opponent_wins[:, 0]
    assert (seat ^ boat).all(), "every game is won by the seat or by the pace boat, never both or neither"
    assert seat.any() and boat.any()
    # A tier is reached exactly when the seat won; a lost game has no winning seat at all.
    assert np.array_equal(r.tier >= 0, seat)
    assert (r.winners.sum(axis=1) == 0).sum() == boat.sum()
    assert len(set(r.tier[seat].tolist())) >= 2
    assert np.allclose(r.win_rate + r.opponent_win_rate, 1.0)
    assert np.allclose(r.tier_rate.sum(), r.win_rate[0])
    assert r.opponent_win_rate_interval().shape == (1, 2)


@pytest.mark.parametrize("options", REGATTA[:2], ids=REGATTA_IDS[:2])
def test_regatta_arrays_do_not_depend_on_threads_or_chunks(options: dict[str, object]) -> None:
    game = tw.load("regatta", **options)
    a = tw.simulate(game, 2000, seed=4, threads=1)
    for other in (tw.simulate(game, 2000, seed=4, threads=2), tw.simulate(game, 2000, seed=4, threads=0),
                  tw.simulate(game, 2000, seed=4, threads=2, chunk_games=7)):
        for name in ARRAYS:
            assert np.array_equal(getattr(a, name), getattr(other, name)), name
        assert (other.opponents, other.tiers) == (a.opponents, a.tiers)


def test_regatta_solo_survives_save_and_load(tmp_path: Path) -> None:
    r = tw.simulate(solo(), 500, seed=2, threads=2)
    back = tw.SimulationResult.load(r.save(tmp_path / "solo.npz"))
    for name in ARRAYS:
        a, b = getattr(r, name), getattr(back, name)
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), name
    assert (back.opponents, back.tiers, back.layout) == (r.opponents, r.tiers, r.layout)
    assert back.summary() == r.summary()


def _make_old(path: Path, old: Path, version: int = 1, drop: tuple[str, ...] = ()) -> None:
    """Rewrites saved result ``path`` as a file written before opponents and tiers: format
    ``version``, without their metadata and arrays (and without the arrays ``drop``)."""
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        arrays = {k: z[k] for k in z.files if k != "meta"}
    meta["version"] = version
    for key in ("opponents", "tiers"):
        del meta[key]
    for name in ("opponent_scores", "opponent_wins", "tier", *drop):
        del arrays[name]
    np.savez_compressed(old, meta=np.array(json.dumps(meta)), **arrays)


OLD_FILE_CASES = [(c.game, c.options) for c in ONE_CONFIG if c.game in tw.GAMES] + [
    ("regatta", REGATTA[0]), ("regatta", REGATTA[2])]


@pytest.mark.parametrize("name,options", OLD_FILE_CASES, ids=[config_id(n, o) for n, o in OLD_FILE_CASES])
def test_a_file_saved_before_opponents_and_tiers_loads_without_them(
    tmp_path: Path, name: str, options: dict[str, object]
) -> None:
    r = tw.simulate(name, 40, seed=6, threads=1, **options)
    new = r.save(tmp_path / "new.npz")
    _make_old(new, tmp_path / "old.npz")
    back = tw.SimulationResult.load(tmp_path / "old.npz")
    # No metadata: no opponents and no tiers; no arrays: their fill, with no opponent columns.
    assert back.opponents == [] and back.tiers == []
    assert back.opponent_scores.shape == (40, 0) and back.opponent_scores.dtype == np.float64
    assert back.opponent_wins.shape == (40, 0) and back.opponent_wins.dtype == np.bool_
    assert back.tier.dtype == np.int8 and (back.tier == -1).all()
    for array in ARRAYS[:6]:
        assert np.array_equal(getattr(back, array), getattr(r, array)), array
    assert (back.game, back.players, back.categories, back.agents) == (r.game, r.players, r.categories, r.agents)
    assert "games without a winner" in back.summary() and "tier" not in back.summary()
    if importlib.util.find_spec("pandas") is not None:
        assert "tier" not in back.to_pandas().columns


def test_result_files_of_other_versions_or_lacking_arrays_are_refused(tmp_path: Path) -> None:
    new = tw.simulate(solo(), 10, seed=1, threads=1).save(tmp_path / "new.npz")
    _make_old(new, tmp_path / "v1-no-scores.npz", drop=("scores",))
    with pytest.raises(ValueError, match="lacks the arrays scores"):
        tw.SimulationResult.load(tmp_path / "v1-no-scores.npz")
    # A file of this version must hold every array.
    _make_old(new, tmp_path / "v2-no-tier.npz", version=_results.FILE_VERSION)
    with pytest.raises(ValueError, match="lacks the arrays opponent_scores, opponent_wins, tier"):
        tw.SimulationResult.load(tmp_path / "v2-no-tier.npz")
    # A newer version names itself and the versions this tradewinds reads.
    with np.load(new) as z:
        meta = json.loads(str(z["meta"]))
        arrays = {k: z[k] for k in z.files if k != "meta"}
    future = _results.FILE_VERSION + 1
    meta["version"] = future
    np.savez_compressed(tmp_path / "future.npz", meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(ValueError, match=f"format version {future}; this tradewinds reads version "
                                         f"{_results.FILE_VERSION} and older"):
        tw.SimulationResult.load(tmp_path / "future.npz")
    # A tier that indexes no tier is refused too.
    meta["version"] = _results.FILE_VERSION
    arrays["tier"] = np.full(10, 3, dtype=np.int8)
    np.savez_compressed(tmp_path / "bad-tier.npz", meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(ValueError, match="tier holds 3..3"):
        tw.SimulationResult.load(tmp_path / "bad-tier.npz")


def test_summary_names_the_opponents_and_the_tiers() -> None:
    r = tw.simulate(solo(), 2000, seed=5, threads=2)
    text = r.summary()
    assert "regatta, 1 player: 2,000 games" in text
    lo, hi = wilson_interval(int(r.opponent_wins[:, 0].sum()), r.games)
    boat = next(line for line in text.splitlines() if line.startswith("pace boat"))
    assert f"{r.opponent_win_rate[0]:.4f}" in boat and f"[{lo:.4f}, {hi:.4f}]" in boat
    assert f"{r.opponent_scores[:, 0].mean():.2f}" in boat
    assert f"games no seat won: {int(r.opponent_wins.sum()):,} (won by an opponent: " in text
    assert "tier reached" in text
    for t, name in enumerate(r.tiers):
        row = next(line for line in text.splitlines() if line.startswith(name + " "))
        assert f"{int((r.tier == t).sum()):,}" in row and f"{(r.tier == t).mean():.4f}" in row
        assert f"{(r.tier >= t).mean():.4f}" in row
    none = next(line for line in text.splitlines() if line.startswith("none "))
    assert f"{(r.tier == -1).mean():.4f}" in none
    # A game without opponents or tiers keeps its summary as it was.
    plain = tw.simulate("regatta", 100, players=2, seed=5, threads=2).summary()
    assert "opponent" not in plain and "tier" not in plain and "games without a winner: " in plain


def test_to_pandas_has_the_opponents_and_the_tier() -> None:
    pd = pytest.importorskip("pandas")
    r = tw.simulate(tw.load("regatta", players=2, pace_boat=True), 30, seed=8, threads=1)
    df = r.to_pandas()
    assert list(df.columns[-5:]) == ["score: pace boat", "win: pace boat", "moves", "decisions", "truncated"]
    assert "tier" not in df.columns  # the 2-seat game has no tiers
    for p in range(2):
        rows = df[df["seat"] == p]
        assert np.array_equal(rows["score: pace boat"].to_numpy(), r.opponent_scores[:, 0])
        assert np.array_equal(rows["win: pace boat"].to_numpy(), r.opponent_wins[:, 0])
    s = tw.simulate(solo(), 40, seed=8, threads=1)
    for df in (s.to_pandas(), s.to_pandas(wide=True)):
        assert len(df) == 40
        assert isinstance(df["tier"].dtype, pd.CategoricalDtype)
        assert list(df["tier"].cat.categories) == s.tiers and df["tier"].cat.ordered
        assert np.array_equal(df["tier"].isna().to_numpy(), s.tier == -1)
        names = [s.tiers[t] if t >= 0 else None for t in s.tier]
        assert [None if pd.isna(v) else v for v in df["tier"]] == names
        assert np.array_equal(df["win: pace boat"].to_numpy(), s.opponent_wins[:, 0])
    assert list(s.to_pandas(wide=True).columns) == [
        "game", "score_p0", "win_p0", "distance_p0", "finish_p0", "score: pace boat", "win: pace boat", "tier",
        "moves", "decisions", "truncated"]
