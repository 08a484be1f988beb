"""Run directories as Parquet datasets: the columns derive from the schema of the per-game
arrays; pandas, pyarrow, Dask, polars and DuckDB read a directory's chunks (`DIR/chunks`) without
tradewinds; `SimulationResult.load_dir` reads it lazily or chunk by chunk; without pyarrow,
streaming says how to install it."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_PER_GAME, assert_same_games
from tradewinds import streaming
from tradewinds._results import ARRAYS, SCHEMA, Layout, axis_labels, axis_sizes, columns
from tradewinds.streaming import CHUNKS, MANIFEST, chunk_name

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

NAME, PLAYERS = ONE_PER_GAME[0]


# ---- the columns -----------------------------------------------------------------------------


def test_the_columns_derive_from_the_schema() -> None:
    for layout in (Layout.of(4, ["contracts Northcape", "majority bonuses"]),
                   Layout.of(1, ["distance", "finish"], ["pace boat"], ["bronze", "silver", "gold"]),
                   Layout.of(3, [])):
        cols = columns(layout)
        names = [c.name for c in cols]
        assert len(set(names)) == len(names)
        assert all(re.fullmatch(r"[a-z0-9_]+", n) for n in names), names
        sizes = axis_sizes(layout)
        # One column per cell of each array, in schema order.
        assert [c.array for c in cols] == [a.name for a in SCHEMA
                                           for _ in range(int(np.prod([sizes[x] for x in a.axes], dtype=int)))]
        labels = axis_labels(layout)
        for c in cols:
            array = next(a for a in SCHEMA if a.name == c.array)
            parts = [labels[axis][i] for axis, i in zip(array.axes, c.cell) if axis != "players"]
            seat = [f"p{i}" for axis, i in zip(array.axes, c.cell) if axis == "players"]
            assert c.name == "_".join([c.array, *parts, *seat])  # the seat last
    names = [c.name for c in columns(Layout.of(2, ["contracts Northcape"], ["pace boat"]))]
    assert names == ["scores_p0", "scores_p1", "winners_p0", "winners_p1", "moves", "decisions", "truncated",
                     "category_points_contracts_northcape_p0", "category_points_contracts_northcape_p1",
                     "opponent_scores_pace_boat", "opponent_wins_pace_boat", "tier",
                     "turns", "lead_changes", "lead_from", "drama", "legal_moves",
                     "branching_b1", "branching_b2_3", "branching_b4_7", "branching_b8_15", "branching_b16_31",
                     "branching_b32_63", "branching_b64_127", "branching_b128_255", "branching_b256_511",
                     "branching_b512_1023", "branching_b1024_2047", "branching_b2048_plus"]


def test_labels_of_awkward_names_are_unique_and_plain() -> None:
    labels = axis_labels(Layout.of(1, ["Gold coins", "gold-coins", "!!!", "Ærø"], ["Vikings (2)"]))
    assert labels["categories"] == ["gold_coins", "gold_coins_1", "c2", "r"]
    assert labels["opponents"] == ["vikings_2"]
    assert labels["players"] == ["p0"]


# ---- reading a directory without tradewinds -------------------------------------------------


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[tw.SimulationResult, Path]]:
    """A North Wind run (scoring categories) and a regatta solo run (an opponent, tiers),
    in memory and streamed."""
    out: dict[str, tuple[tw.SimulationResult, Path]] = {}
    for key, game, agents in (("north", tw.load(NAME, players=PLAYERS), ["greedy"] + ["random"] * (PLAYERS - 1)),
                              ("solo", tw.load("regatta", players=1, pace_boat=True), ["greedy"])):
        path = tmp_path_factory.mktemp(key) / "run"
        tw.simulate(game, 1000, seed=6, threads=2, agents=agents, out=path, chunk_games=300)
        out[key] = (tw.simulate(game, 1000, seed=6, threads=2, agents=agents), path)
    return out


def assert_frame_holds(frame: Any, r: tw.SimulationResult) -> None:
    """A frame read from a run directory (pandas, or anything with ``[column]`` as arrays)
    holds ``r``'s games, one row per game in game order."""
    get = (lambda name: np.asarray(frame[name]))
    assert get("game").tolist() == list(range(r.games))
    labels = axis_labels(r.layout)
    for p in range(r.players):
        assert np.array_equal(get(f"scores_p{p}"), r.scores[:, p])
        assert np.array_equal(get(f"winners_p{p}"), r.winners[:, p])
        for c, label in enumerate(labels["categories"]):
            assert np.array_equal(get(f"category_points_{label}_p{p}"), r.category_points[:, p, c])
    for o, label in enumerate(labels["opponents"]):
        assert np.array_equal(get(f"opponent_scores_{label}"), r.opponent_scores[:, o])
        assert np.array_equal(get(f"opponent_wins_{label}"), r.opponent_wins[:, o])
    for name in ("moves", "decisions", "truncated", "tier"):
        assert np.array_equal(get(name), getattr(r, name)), name


@pytest.mark.parametrize("key", ["north", "solo"])
def test_pandas_and_pyarrow_read_the_directory(runs: dict[str, Any], key: str) -> None:
    pd = pytest.importorskip("pandas")
    r, path = runs[key]
    frame = pd.read_parquet(path / CHUNKS).sort_values("game").reset_index(drop=True)
    assert frame.shape == (r.games, 1 + len(columns(r.layout)))
    assert_frame_holds(frame, r)
    table = pq.read_table(path / CHUNKS)  # the run's chunks, and nothing else
    assert table.num_rows == r.games
    # Each file carries the run's options and seed, the chunk's place and statistics.
    first = chunk_name(0, 4)
    meta = json.loads(pq.read_metadata(path / CHUNKS / first).metadata[b"tradewinds"])
    assert meta["run"]["seed"] == 6 and meta["run"]["options"] == r.options and meta["run"]["agents"] == r.agents
    assert (meta["index"], meta["first"], meta["games"]) == (0, 0, 300)
    assert meta["statistics"]["games"] == 300
    manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["options"] == r.options and manifest["seed"] == 6


def test_dask_dataframe_reads_the_directory(runs: dict[str, Any]) -> None:
    dd = pytest.importorskip("dask.dataframe")
    r, path = runs["solo"]
    frame = dd.read_parquet(str(path / CHUNKS)).compute().sort_values("game").reset_index(drop=True)
    assert_frame_holds(frame, r)


def test_polars_reads_the_directory(runs: dict[str, Any]) -> None:
    pl = pytest.importorskip("polars")
    for r, path in runs.values():
        frame = pl.read_parquet(str(path / CHUNKS / "*.parquet")).sort("game")
        assert_frame_holds({name: frame[name].to_numpy() for name in frame.columns}, r)


def test_duckdb_reads_the_directory(runs: dict[str, Any]) -> None:
    duckdb = pytest.importorskip("duckdb")
    for r, path in runs.values():
        con = duckdb.connect()
        frame = con.execute(f"SELECT * FROM read_parquet('{path / CHUNKS}/*.parquet') ORDER BY game").fetchnumpy()
        assert_frame_holds(frame, r)
        wins = con.execute(f"SELECT sum(winners_p0::INTEGER) FROM read_parquet('{path / CHUNKS}/*.parquet')").fetchone()
        assert wins is not None and wins[0] == int(r.winners[:, 0].sum())


# ---- load_dir: lazily, or chunk by chunk ----------------------------------------------------


def test_load_dir_reads_the_statistics_and_the_games_only_when_asked(runs: dict[str, Any],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    r, path = runs["north"]
    reads: list[int] = []
    real = streaming._read_parquet

    def counting(file: Any, layout: Layout) -> Any:
        # A chunk's contents, read once and checked against the chunk log before decoding.
        decoded = real(file, layout)
        reads.append(int(decoded[0]["index"]))
        return decoded

    monkeypatch.setattr(streaming, "_read_parquet", counting)
    lazy = tw.SimulationResult.load_dir(path)
    assert lazy.summary().splitlines()[2:] == tw.SimulationResult.load_dir(path).summary().splitlines()[2:]
    assert np.array_equal(lazy.win_rate, r.win_rate) and np.array_equal(lazy.tier_rate, r.tier_rate)
    assert reads == [], "the summary decodes the chunks' footers only"
    parts = list(lazy.chunks())
    assert reads == list(range(4))
    assert [(p.first, p.games) for p in parts] == [(0, 300), (300, 300), (600, 300), (900, 100)]
    for name in ARRAYS:
        assert np.array_equal(np.concatenate([getattr(p, name) for p in parts]), getattr(r, name)), name
    assert parts[1].to_pandas()["game"].iloc[0] == 300 and parts[3].to_pandas(wide=True)["game"].tolist()[0] == 900
    assert_same_games(r, lazy)  # reads the games now, once
    assert len(reads) == 8
    lazy.scores
    assert len(reads) == 8


def test_keep_games_with_out_reads_the_games_at_the_end(tmp_path: Path) -> None:
    game = tw.load("regatta", players=3)
    r = tw.simulate(game, 500, seed=2, threads=2, out=tmp_path / "run", chunk_games=100, keep_games=True)
    shutil.rmtree(tmp_path / "run")
    assert_same_games(tw.simulate(game, 500, seed=2, threads=2), r)  # already in memory


# ---- without pyarrow ----------------------------------------------------------------------------


@pytest.fixture
def no_pyarrow(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)


@pytest.mark.usefixtures("no_pyarrow")
def test_without_pyarrow_streaming_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(ImportError, match=r"needs pyarrow.*pip install 'tradewinds\[parquet\]'"):
        tw.simulate("regatta", 100, players=3, out=tmp_path / "run", chunk_games=50)
    assert not (tmp_path / "run").exists(), "nothing is created"
    # A run without a directory needs no pyarrow.
    assert tw.simulate("regatta", 100, players=3, keep_games=False).games == 100


def test_without_pyarrow_the_command_line_says_how_to_install_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tradewinds import cli

    for module in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    code = cli.main(["simulate", "regatta", "--players", "3", "--games", "50", "--out", str(tmp_path / "run")])
    assert code == 1
    err = capsys.readouterr().err
    assert "pyarrow" in err and "tradewinds[parquet]" in err and "Traceback" not in err
