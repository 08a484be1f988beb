"""Simulation on a Dask cluster: chunks (game-index ranges) travel to worker processes, and the
results equal a local run's with the same seed, whatever the chunking, including streamed and
resumed runs and runs from the command line."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_PER_GAME, assert_same_games, ids
from tradewinds.streaming import CHUNK_LOG, CHUNKS, chunk_name, read_manifest

distributed = pytest.importorskip("distributed")

MCTS = "mcts:iterations=4,rollout_depth=20"
NAME, PLAYERS = ONE_PER_GAME[0]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    # Worker processes, so games, agents and results really are pickled on their way.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c


@pytest.fixture(scope="module")
def client(cluster: Any) -> Iterator[Any]:
    # Not the default client: every call names it.
    with distributed.Client(cluster, set_as_default=False) as c:
        yield c


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_dask_equals_local(client: Any, name: str, players: int) -> None:
    game = tw.load(name, players=players)
    local = tw.simulate(game, 2000, seed=11, threads=2)
    for chunk in (300, 2000):
        remote = tw.simulate(game, 2000, seed=11, backend="dask", client=client, chunk_games=chunk)
        assert_same_games(local, remote)
        assert remote.threads == 2  # the cluster's worker threads
    agents = [["greedy", MCTS, "random", "greedy"][p % 4] for p in range(players)]
    local = tw.simulate(game, 30, seed=12, threads=2, agents=agents)
    remote = tw.simulate(game, 30, seed=12, backend="dask", client=client, agents=agents, chunk_games=4)
    assert_same_games(local, remote)


@pytest.mark.parametrize("options", [{"players": 1, "pace_boat": True}, {"players": 5, "pace_boat": True}],
                         ids=["solo", "5p-pace-boat"])
def test_opponents_and_tiers_come_back_from_the_workers(client: Any, options: dict[str, object]) -> None:
    # Regatta, with a pace boat (an opponent that is not a seat; tiers when solo), and a
    # Python agent in seat 0 (the Python loop on the workers).
    game = tw.load("regatta", **options)
    local = tw.simulate(game, 1000, seed=11, threads=2)
    remote = tw.simulate(game, 1000, seed=11, backend="dask", client=client, chunk_games=300)
    assert_same_games(local, remote)
    assert (remote.opponents, remote.tiers) == (game.opponents, game.tiers)
    assert remote.opponent_wins.any() and (remote.tier >= 0).any() == bool(game.tiers)

    def uniform(state: tw.State, player: int, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())

    agents: list[tw.Agent] = [uniform] + ["random"] * (game.players - 1)
    local = tw.simulate(game, 20, seed=5, threads=1, agents=agents)
    remote = tw.simulate(game, 20, seed=5, backend="dask", client=client, agents=agents, chunk_games=7)
    assert_same_games(local, remote)
    assert (remote.opponents, remote.tiers) == (game.opponents, game.tiers)


def test_games_with_modified_data_travel_to_the_workers(client: Any) -> None:
    data = json.loads(tw.data_path(NAME).read_text(encoding="utf-8"))
    data["about"] = "a variant, only in name"
    game = tw.load(NAME, players=PLAYERS, data=data)
    remote = tw.simulate(game, 600, seed=3, backend="dask", client=client, chunk_games=200)
    assert remote.options["data"]["about"] == data["about"]
    assert_same_games(tw.simulate(game, 600, seed=3, threads=2), remote)


def test_python_agents_on_workers(client: Any) -> None:
    # A function defined here is pickled by value and runs in the worker processes.
    def uniform(state: tw.State, player: int, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())

    agents: list[tw.Agent] = [uniform] + ["random"] * (PLAYERS - 1)
    local = tw.simulate(NAME, 4, seed=5, threads=1, agents=agents, players=PLAYERS)
    remote = tw.simulate(NAME, 4, seed=5, backend="dask", client=client, agents=agents, chunk_games=1,
                         players=PLAYERS)
    assert_same_games(local, remote)


def test_a_failing_task_raises_here(client: Any) -> None:
    def broken(state: tw.State, player: int, rng: random.Random) -> int:
        raise ZeroDivisionError("agent bug on a worker")

    with pytest.raises(ZeroDivisionError, match="agent bug on a worker"):
        tw.simulate(NAME, 4, seed=5, backend="dask", client=client, agents=[broken] * PLAYERS,
                    chunk_games=1, players=PLAYERS)


def test_progress_counts_the_chunks(client: Any) -> None:
    seen: list[int] = []
    r = tw.simulate(NAME, 1000, seed=2, backend="dask", client=client, chunk_games=300,
                    progress=seen.append, players=PLAYERS)
    assert sorted(seen) == [100, 300, 300, 300] and r.games == 1000


def test_streaming_and_resuming_across_backends(client: Any, tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    whole = tw.simulate(game, 1200, seed=8, threads=2)
    out = tmp_path / "run"
    streamed = tw.simulate(game, 1200, seed=8, backend="dask", client=client, out=out, chunk_games=300)
    assert_same_games(whole, streamed)
    # Lose two chunks; finish locally, then lose one and finish on the cluster.
    for i in (0, 2):
        (out / CHUNKS / chunk_name(i, 4)).unlink()
    assert_same_games(whole, tw.simulate(game, 1200, seed=8, out=out, resume=True))
    (out / CHUNKS / chunk_name(3, 4)).unlink()
    assert_same_games(whole, tw.simulate(game, 1200, seed=8, backend="dask", client=client, out=out,
                                         resume=True))
    assert_same_games(whole, tw.SimulationResult.load_dir(out))


def test_dask_without_a_client_says_what_to_do() -> None:
    with pytest.raises(ValueError, match="needs a Dask client"):
        tw.simulate(NAME, 10, backend="dask", players=PLAYERS)


def test_command_line_on_the_cluster(cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", NAME, "--players", str(PLAYERS), "--games", "900", "--seed", "4",
            "--chunk-games", "300", "--dask", cluster.scheduler_address, "--out", str(out)]
    r = subprocess.run([sys.executable, "-m", "tradewinds", *args], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "900 games" in r.stdout and "win rate" in r.stdout
    manifest = read_manifest(out)
    assert manifest is not None and manifest["chunks"] == 3
    assert_same_games(tw.simulate(NAME, 900, seed=4, threads=2, players=PLAYERS), tw.SimulationResult.load_dir(out))
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")
    bad = subprocess.run([sys.executable, "-m", "tradewinds", "simulate", NAME, "--games", "10", "--dask",
                          "tcp://127.0.0.1:9"], capture_output=True, text=True, timeout=300, env=env)
    assert bad.returncode == 1 and "cannot connect" in bad.stderr and "Traceback" not in bad.stderr


def test_workers_write_their_chunks_and_send_back_statistics(client: Any, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    game = tw.load("regatta", players=1, pace_boat=True)
    local = tw.simulate(game, 3000, seed=9, threads=2, agents=["greedy"])
    out = tmp_path / "run"
    # Many small chunks: more than the tasks submitted at a time.
    remote = tw.simulate(game, 3000, seed=9, backend="dask", client=client, agents=["greedy"], out=out,
                         chunk_games=50)
    manifest = read_manifest(out)
    assert manifest is not None and manifest["chunks"] == 60
    writers = set()
    for i in range(60):
        meta = json.loads(pq.read_metadata(out / CHUNKS / chunk_name(i, 60)).metadata[b"tradewinds"])
        assert meta["index"] == i and meta["run_id"] == manifest["run_id"]
    # Who wrote each chunk is in its line of the chunk log (appended by this process).
    for line in (out / CHUNK_LOG).read_text(encoding="utf-8").splitlines():
        writers.add(json.loads(line)["writer"]["pid"])
    assert os.getpid() not in writers, "the workers wrote the chunks, not this process"
    assert len(writers) == 2
    assert_same_games(local, remote)
    assert remote.statistics == tw.simulate(game, 3000, seed=9, threads=2, agents=["greedy"], keep_games=False,
                                            chunk_games=50).statistics
    # Without a directory and without the games: only statistics come back.
    summary = tw.simulate(game, 3000, seed=9, backend="dask", client=client, agents=["greedy"], chunk_games=50,
                          keep_games=False)
    assert not summary.holds_games and summary.statistics == remote.statistics
    assert summary.summary().splitlines()[2:] == remote.summary().splitlines()[2:]
