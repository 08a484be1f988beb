"""Streaming a simulation to a directory: atomic chunks, a manifest, resuming after a crash,
Ctrl-C or kill -9 (the merged results equal an uninterrupted run), and the checks that keep a
directory from mixing two different runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_PER_GAME, assert_same_games
from tradewinds._results import FILE_VERSION
from tradewinds.streaming import MANIFEST, RunDirectory, chunk_name, directory_status, read_manifest

NAME, PLAYERS = ONE_PER_GAME[0]


def chunk_files(path: Path) -> list[Path]:
    return sorted(path.glob("chunk-*.npz"))


def check_chunk(file: Path, manifest: dict[str, object]) -> int:
    """Loads a chunk file on its own and checks it holds its games whole; returns its index."""
    index = int(file.stem.split("-")[1])
    chunk_games, games, players = (int(manifest[k]) for k in ("chunk_games", "games", "players"))  # type: ignore[call-overload]
    n = min(chunk_games, games - index * chunk_games)
    with np.load(file, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        assert meta["index"] == index and meta["first"] == index * chunk_games and meta["games"] == n
        assert z["scores"].shape == (n, players) and z["scores"].dtype == np.float64
        assert z["winners"].shape == (n, players) and z["winners"].dtype == np.bool_
        for name in ("moves", "decisions"):
            assert z[name].shape == (n,) and z[name].dtype == np.uint64
        assert z["truncated"].shape == (n,)
        assert z["category_points"].shape == (n, players, len(manifest["categories"]))  # type: ignore[arg-type]
        opponents = len(manifest["opponents"])  # type: ignore[arg-type]
        assert z["opponent_scores"].shape == (n, opponents) and z["opponent_scores"].dtype == np.float64
        assert z["opponent_wins"].shape == (n, opponents) and z["opponent_wins"].dtype == np.bool_
        assert z["tier"].shape == (n,) and z["tier"].dtype == np.int8
        assert (z["decisions"] > 0).all()
    return index


def test_a_streamed_run_equals_a_run_in_memory(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    agents = ["greedy"] + ["random"] * (PLAYERS - 1)
    direct = tw.simulate(game, 1100, seed=3, threads=2, agents=agents)
    out = tmp_path / "run"
    streamed = tw.simulate(game, 1100, seed=3, threads=2, agents=agents, out=out, chunk_games=256)
    assert_same_games(direct, streamed)
    manifest = read_manifest(out)
    assert manifest is not None
    assert manifest["game"] == NAME and manifest["seed"] == 3 and manifest["games"] == 1100
    assert manifest["chunk_games"] == 256 and manifest["chunks"] == 5
    assert manifest["agents"] == streamed.agents and manifest["config"] == json.loads(game.config_json())
    files = chunk_files(out)
    assert [f.name for f in files] == [chunk_name(i, 5) for i in range(5)]
    assert [check_chunk(f, manifest) for f in files] == list(range(5))
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))
    assert_same_games(direct, tw.SimulationResult.load_dir(out))
    assert_same_games(direct, tw.SimulationResult.load(out))  # load() takes the directory too
    assert directory_status(out) == (5, 5, 1100)
    assert tw.SimulationResult.load_dir(out).elapsed_seconds > 0


def test_resume_plays_only_the_missing_chunks(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 1000, seed=5, threads=2, out=out, chunk_games=200)
    kept = {f.name: f.stat().st_mtime_ns for f in chunk_files(out)}
    (out / chunk_name(1, 5)).unlink()
    (out / chunk_name(4, 5)).unlink()
    del kept[chunk_name(1, 5)], kept[chunk_name(4, 5)]
    with pytest.raises(ValueError, match=r"incomplete: 2 of 5 chunks are missing.*chunk-000001\.npz.*--resume"):
        tw.SimulationResult.load_dir(out)
    assert directory_status(out) == (3, 5, 600)
    played: list[int] = []
    resumed = tw.simulate(game, 1000, seed=5, threads=2, out=out, resume=True, progress=played.append)
    assert sum(played) == 400, "only the two missing chunks were played"
    assert_same_games(whole, resumed)
    assert {f.name: f.stat().st_mtime_ns for f in chunk_files(out) if f.name in kept} == kept
    # Resuming a finished run plays nothing and returns the results.
    played.clear()
    again = tw.simulate(game, 1000, seed=5, out=out, resume=True, progress=played.append)
    assert played == [] and again.games == 1000
    assert_same_games(whole, again)


def test_resume_starts_an_empty_directory(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    r = tw.simulate(game, 300, seed=1, threads=2, out=tmp_path / "new", resume=True, chunk_games=100)
    assert_same_games(tw.simulate(game, 300, seed=1, threads=2), r)


def test_a_directory_holds_one_run(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 300, seed=2, threads=2, out=out, chunk_games=100)
    with pytest.raises(ValueError, match=r"already holds a simulation \(3 of 3 chunks finished\).*resume"):
        tw.simulate(game, 300, seed=2, out=out)
    mismatches = [
        (dict(seed=9), r"seed: the directory has 2, this run 9"),
        (dict(games=400), r"games: the directory has 300, this run 400"),
        (dict(chunk_games=50), r"chunk_games: the directory has 100, this run 50"),
        (dict(agents=["greedy"] * PLAYERS), r"agent of seat 0: the directory has random, this run greedy"),
    ]
    for change, message in mismatches:
        kwargs: dict[str, object] = dict(seed=2, games=300)
        kwargs.update(change)
        with pytest.raises(ValueError, match=message):
            tw.simulate(game, out=out, resume=True, **kwargs)  # type: ignore[arg-type]
    other_players = next(n for n in (2, 3, 4, 5) if n != PLAYERS and _loads(NAME, n))
    with pytest.raises(ValueError, match=rf"option players: the directory has {PLAYERS}, this run {other_players}"):
        tw.simulate(NAME, 300, seed=2, out=out, resume=True, players=other_players)
    # A game from modified component data is another game.
    data = json.loads(tw.data_path(NAME).read_text(encoding="utf-8"))
    data["about"] = "a variant"
    variant = tw.load(NAME, players=PLAYERS, data=data)
    with pytest.raises(ValueError, match="option data: the component data differ"):
        tw.simulate(variant, 300, seed=2, out=out, resume=True)
    # Nothing was written by the refused runs.
    assert directory_status(out) == (3, 3, 300)


def _loads(name: str, players: int) -> bool:
    try:
        tw.load(name, players=players)
    except ValueError:
        return False
    return True


def test_damaged_chunks_are_played_again(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 600, seed=4, threads=2, out=out, chunk_games=200)
    victim = out / chunk_name(1, 3)
    victim.write_bytes(victim.read_bytes()[:100])
    with pytest.raises(ValueError, match=r"chunk-000001\.npz is damaged"):
        tw.SimulationResult.load_dir(out)
    # A temporary file left by a killed writer is removed on resume.
    stale = out / f".{chunk_name(2, 3)}.12345-abcd.tmp"
    stale.write_bytes(b"partial")
    with pytest.warns(RuntimeWarning, match="damaged"):
        resumed = tw.simulate(game, 600, seed=4, out=out, resume=True)
    assert_same_games(whole, resumed)
    assert (out / (chunk_name(1, 3) + ".bad")).is_file() and not stale.exists()


def test_chunks_of_another_run_are_refused(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 400, seed=4, out=out, chunk_games=200)
    (out / MANIFEST).unlink()
    with pytest.raises(ValueError, match="chunk files .* but no manifest.json"):
        tw.simulate(game, 400, seed=4, out=out)


@pytest.mark.skipif(os.name != "posix", reason="file locks are POSIX here")
def test_two_runs_cannot_write_one_directory(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 100, seed=1, out=out, chunk_games=50)
    manifest = read_manifest(out)
    assert manifest is not None
    with RunDirectory.open(out, manifest, resume=True):
        with pytest.raises(ValueError, match="in use by another running simulation"):
            tw.simulate(game, 100, seed=1, out=out, resume=True)
    tw.simulate(game, 100, seed=1, out=out, resume=True)  # the lock went with the first


def test_python_agents_stream_and_resume(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)

    def first_legal(state: tw.State, player: int, rng: object) -> int:
        return state.legal_actions()[0]

    agents: list[tw.Agent] = [first_legal] + ["random"] * (PLAYERS - 1)
    out = tmp_path / "run"
    whole = tw.simulate(game, 6, seed=3, threads=2, agents=agents, out=out, chunk_games=2)
    assert whole.agents[0].startswith("python:") and read_manifest(out)["agents"][0] == whole.agents[0]  # type: ignore[index]
    (out / chunk_name(1, 3)).unlink()
    assert_same_games(whole, tw.simulate(game, 6, seed=3, agents=agents, out=out, resume=True))


# ---- opponents and tiers; directories of the previous format ---------------------------------


def test_a_streamed_solo_run_keeps_its_opponent_and_tiers(tmp_path: Path) -> None:
    game = tw.load("regatta", players=1, pace_boat=True)
    direct = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"])
    out = tmp_path / "run"
    streamed = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"], out=out, chunk_games=256)
    manifest = read_manifest(out)
    assert manifest is not None
    assert (manifest["players"], manifest["opponents"], manifest["tiers"]) == (1, game.opponents, game.tiers)
    assert [check_chunk(f, manifest) for f in chunk_files(out)] == list(range(5))
    (out / chunk_name(2, 5)).unlink()
    resumed = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"], out=out, resume=True)
    for r in (streamed, resumed, tw.SimulationResult.load_dir(out)):
        assert_same_games(direct, r)
        assert (r.opponents, r.tiers) == (game.opponents, game.tiers)
    assert (direct.winners[:, 0] ^ direct.opponent_wins[:, 0]).all()
    assert np.array_equal(direct.tier >= 0, direct.winners[:, 0])


def _make_previous_format(out: Path) -> None:
    """Rewrites run directory ``out`` as written before opponents and tiers (format version
    1): a manifest without them, chunks without their arrays."""
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["version"] = 1
    del manifest["opponents"], manifest["tiers"]
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    for file in chunk_files(out):
        with np.load(file) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: z[k] for k in z.files if k not in ("meta", "opponent_scores", "opponent_wins", "tier")}
        meta["version"] = 1
        with open(file, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(meta)), **arrays)


def test_a_directory_of_the_previous_format_loads_and_resumes(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 600, seed=4, threads=2, out=out, chunk_games=200)
    _make_previous_format(out)
    assert_same_games(whole, tw.SimulationResult.load_dir(out))
    # Resuming writes the missing chunk in the current format, next to the older ones.
    (out / chunk_name(1, 3)).unlink()
    resumed = tw.simulate(game, 600, seed=4, out=out, resume=True)
    assert_same_games(whole, resumed)
    assert_same_games(whole, tw.SimulationResult.load_dir(out))
    versions = []
    for file in chunk_files(out):
        with np.load(file) as z:
            versions.append(json.loads(str(z["meta"]))["version"])
    assert versions == [1, FILE_VERSION, 1]
    assert read_manifest(out)["version"] == 1  # type: ignore[index]


def test_a_directory_of_the_previous_format_without_its_opponent_is_not_resumed(tmp_path: Path) -> None:
    # Its chunks do not record the pace boat: it loads as a game without opponents or tiers,
    # and new chunks, which would, are not mixed in.
    game = tw.load("regatta", players=1, pace_boat=True)
    out = tmp_path / "run"
    whole = tw.simulate(game, 300, seed=2, threads=2, out=out, chunk_games=100)
    _make_previous_format(out)
    old = tw.SimulationResult.load_dir(out)
    assert old.opponents == [] and old.tiers == [] and old.opponent_wins.shape == (300, 0)
    assert (old.tier == -1).all() and np.array_equal(old.scores, whole.scores)
    (out / chunk_name(0, 3)).unlink()
    with pytest.raises(ValueError, match=r"opponents: the directory \(written by an older tradewinds\) records "
                                         r"none, this run \[\"pace boat\"\]"):
        tw.simulate(game, 300, seed=2, out=out, resume=True)


def test_a_directory_of_a_newer_format_is_refused(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 200, seed=1, threads=2, out=out, chunk_games=100)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    version = manifest["version"]
    manifest["version"] = version + 1
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(ValueError, match=f"format version {version + 1}; this tradewinds reads version {version} "
                                         "and older"):
        tw.SimulationResult.load_dir(out)
    manifest["version"] = version
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    file = out / chunk_name(1, 2)
    with np.load(file) as z:
        meta = json.loads(str(z["meta"]))
        arrays = {k: z[k] for k in z.files if k != "meta"}
    meta["version"] = FILE_VERSION + 1
    with open(file, "wb") as f:
        np.savez_compressed(f, meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(ValueError, match=f"chunk-000001.npz is damaged: it has tradewinds-simulation-chunk format "
                                         f"version {FILE_VERSION + 1}; this tradewinds reads version {FILE_VERSION}"):
        tw.SimulationResult.load_dir(out)


# ---- the command line, killed and resumed --------------------------------------------------


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "tradewinds", *args]


def wait_for_chunks(proc: subprocess.Popen[bytes], out: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(chunk_files(out)) < count:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "no chunks appeared"
        time.sleep(0.01)


@pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")
def test_kill_9_midway_then_resume_gives_the_uninterrupted_results(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # 150 chunks of 256 games on one thread: several seconds, killed after the first chunks.
    games, chunk = 150 * 256, 256
    args = ("simulate", NAME, "--players", str(PLAYERS), "--games", str(games), "--seed", "7",
            "--chunk-games", str(chunk), "--threads", "1", "--out", str(out))
    proc = subprocess.Popen(cli(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_chunks(proc, out, 3)
        proc.kill()  # SIGKILL: no handler, no cleanup
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    manifest = read_manifest(out)
    assert manifest is not None and manifest["chunks"] == 150
    files = chunk_files(out)
    assert 3 <= len(files) < 150, "killed midway"
    for f in files:  # every chunk on disk is whole
        check_chunk(f, manifest)
    with pytest.raises(ValueError, match="incomplete"):
        tw.SimulationResult.load_dir(out)
    # Resume with the shortest command: everything else comes from the manifest.
    r = subprocess.run(cli("simulate", NAME, "--out", str(out), "--resume", "--threads", "2"),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert f"{games:,} games" in r.stdout and "win rate" in r.stdout
    assert not list(out.glob(".*.tmp")), "the killed writer's temporary file is gone"
    uninterrupted = tw.simulate(NAME, games, seed=7, threads=2, players=PLAYERS)
    assert_same_games(uninterrupted, tw.SimulationResult.load_dir(out))


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_keeps_the_finished_chunks_and_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("simulate", NAME, "--players", str(PLAYERS), "--games", str(100 * 256), "--seed", "8",
            "--chunk-games", "256", "--threads", "1", "--out", str(out))
    proc = subprocess.Popen(cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_chunks(proc, out, 2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    text = err.decode()
    assert "interrupted" in text and "--resume" in text and "Traceback" not in text
    manifest = read_manifest(out)
    assert manifest is not None
    for f in chunk_files(out):
        check_chunk(f, manifest)
    done, chunks, done_games = directory_status(out)
    assert 2 <= done < chunks and f"{done} of {chunks} chunks" in text


def test_cli_resume_refuses_disagreeing_options(tmp_path: Path) -> None:
    out = tmp_path / "run"
    base = ("simulate", NAME, "--players", str(PLAYERS), "--games", "200", "--chunk-games", "100",
            "--out", str(out))
    r = subprocess.run(cli(*base, "--seed", "1"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(cli(*base, "--seed", "2", "--resume"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "seed: the directory has 1, this run 2" in r.stderr
    assert "Traceback" not in r.stderr
    r = subprocess.run(cli(*base, "--agents", ",".join(["greedy"] * PLAYERS), "--resume"),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "agent of seat 0" in r.stderr
    r = subprocess.run(cli(*base, "--seed", "1"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "already holds a simulation" in r.stderr
    r = subprocess.run(cli("simulate", NAME, "--resume"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--resume needs --out" in r.stderr
