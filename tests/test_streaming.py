"""Streaming a simulation to a directory: atomic chunks (Parquet files), a manifest, resuming
after a crash, Ctrl-C or kill -9 (the merged results equal an uninterrupted run), the checks
that keep a directory from mixing two different runs, and directories of the earlier format
(`.npz` chunks), which still load and resume."""

from __future__ import annotations

import json
import os
import signal
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_PER_GAME, assert_same_games
from tradewinds._results import ARRAYS, FILE_VERSION
from tradewinds.streaming import (
    CHUNK_LOG,
    MANIFEST,
    NPZ_MANIFEST,
    RunDirectory,
    RunReader,
    chunk_name,
    directory_status,
    read_manifest,
)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

NAME, PLAYERS = ONE_PER_GAME[0]

#: Directories of the earlier format, written by the tradewinds before Parquet chunks (run
#: directory format version 2): `tw.simulate("regatta", 300, players=1, pace_boat=True,
#: seed=5, out=..., chunk_games=100, agents=["greedy"])`.
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "run-dir-v2"


def chunk_files(path: Path) -> list[Path]:
    return sorted(path.glob("chunk-*.parquet"))


def check_chunk(file: Path, manifest: dict[str, object]) -> int:
    """Reads a chunk file on its own, with pyarrow alone, and checks it holds its games whole;
    returns its index."""
    index = int(file.name.split(".")[0].split("-")[1])
    chunk_games, games, players = (int(manifest[k]) for k in ("chunk_games", "games", "players"))  # type: ignore[call-overload]
    n = min(chunk_games, games - index * chunk_games)
    table = pq.read_table(file)
    meta = json.loads(table.schema.metadata[b"tradewinds"])
    assert meta["index"] == index and meta["first"] == index * chunk_games and meta["games"] == n
    assert meta["run"]["seed"] == manifest["seed"] and meta["run"]["options"] == manifest["options"]
    assert meta["statistics"]["games"] == n
    assert table.num_rows == n
    assert table.column("game").to_pylist() == list(range(index * chunk_games, index * chunk_games + n))
    types = dict(zip(table.schema.names, table.schema.types))
    for p in range(players):
        assert types[f"scores_p{p}"] == pa.float64() and types[f"winners_p{p}"] == pa.bool_()
    assert types["moves"] == types["decisions"] == pa.uint64()
    assert types["truncated"] == pa.bool_() and types["tier"] == pa.int8()
    categories = len(manifest["categories"])  # type: ignore[arg-type]
    opponents = len(manifest["opponents"])  # type: ignore[arg-type]
    assert sum(name.startswith("category_points_") for name in types) == players * categories
    assert sum(name.startswith("opponent_scores_") for name in types) == opponents
    assert sum(name.startswith("opponent_wins_") for name in types) == opponents
    assert all(" " not in name for name in types)
    assert min(table.column("decisions").to_pylist()) > 0
    return index


def test_a_streamed_run_equals_a_run_in_memory(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    agents = ["greedy"] + ["random"] * (PLAYERS - 1)
    direct = tw.simulate(game, 1100, seed=3, threads=2, agents=agents)
    out = tmp_path / "run"
    streamed = tw.simulate(game, 1100, seed=3, threads=2, agents=agents, out=out, chunk_games=256)
    assert_same_games(direct, streamed)
    manifest = read_manifest(out)
    assert manifest is not None and (out / MANIFEST).is_file() and not (out / NPZ_MANIFEST).exists()
    assert manifest["game"] == NAME and manifest["seed"] == 3 and manifest["games"] == 1100
    assert manifest["chunk_games"] == 256 and manifest["chunks"] == 5 and manifest["chunk_format"] == "parquet"
    assert manifest["agents"] == streamed.agents and manifest["config"] == json.loads(game.config_json())
    files = chunk_files(out)
    assert [f.name for f in files] == [chunk_name(i, 5) for i in range(5)]
    assert [check_chunk(f, manifest) for f in files] == list(range(5))
    assert sorted(p.name for p in out.iterdir()) == sorted([".lock", MANIFEST, CHUNK_LOG, *(f.name for f in files)])
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
    with pytest.raises(ValueError, match=r"incomplete: 2 of 5 chunks are missing.*chunk-000001\.parquet.*--resume"):
        tw.SimulationResult.load_dir(out)
    assert directory_status(out) == (3, 5, 600)
    played: list[int] = []
    resumed = tw.simulate(game, 1000, seed=5, threads=2, out=out, resume=True, progress=played.append)
    assert sum(played) == 400, "only the two missing chunks were played"
    assert_same_games(whole, resumed)
    # The statistics too, bit for bit: merged in chunk order, from the files and the new chunks.
    assert resumed.statistics == whole.statistics
    assert resumed.summary().splitlines()[2:] == whole.summary().splitlines()[2:]
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
    with pytest.raises(ValueError, match=r"chunk-000001\.parquet is damaged.*--resume"):
        tw.SimulationResult.load_dir(out)
    # A temporary file left by a killed writer is removed on resume.
    stale = out / f".{chunk_name(2, 3)}.12345-abcd.tmp"
    stale.write_bytes(b"partial")
    with pytest.warns(RuntimeWarning, match="damaged"):
        resumed = tw.simulate(game, 600, seed=4, out=out, resume=True)
    assert_same_games(whole, resumed)
    # Set aside under a name that readers of the dataset skip.
    assert (out / f"_{chunk_name(1, 3)}.bad").is_file() and not stale.exists()
    assert len(pq.ParquetDataset(out).read()) == 600


def test_chunks_of_another_run_are_refused(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 400, seed=4, out=out, chunk_games=200)
    (out / MANIFEST).unlink()
    with pytest.raises(ValueError, match="chunk files .* but no _manifest.json"):
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


# ---- opponents and tiers; directories of earlier formats -----------------------------------


def test_a_streamed_solo_run_keeps_its_opponent_and_tiers(tmp_path: Path) -> None:
    game = tw.load("regatta", players=1, pace_boat=True)
    direct = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"])
    out = tmp_path / "run"
    streamed = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"], out=out, chunk_games=256)
    manifest = read_manifest(out)
    assert manifest is not None
    assert (manifest["players"], manifest["opponents"], manifest["tiers"]) == (1, game.opponents, game.tiers)
    assert [check_chunk(f, manifest) for f in chunk_files(out)] == list(range(5))
    assert "opponent_wins_pace_boat" in pq.read_schema(chunk_files(out)[0]).names
    (out / chunk_name(2, 5)).unlink()
    resumed = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"], out=out, resume=True)
    for r in (streamed, resumed, tw.SimulationResult.load_dir(out)):
        assert_same_games(direct, r)
        assert (r.opponents, r.tiers) == (game.opponents, game.tiers)
        assert r.summary().splitlines()[2:] == direct.summary().splitlines()[2:]
    assert (direct.winners[:, 0] ^ direct.opponent_wins[:, 0]).all()
    assert np.array_equal(direct.tier >= 0, direct.winners[:, 0])


def write_npz_directory(parquet_dir: Path, out: Path, version: int) -> None:
    """Writes the run in ``parquet_dir`` to ``out`` as the tradewinds before Parquet chunks
    wrote it: ``manifest.json`` and ``chunk-NNNNNN.npz`` files (each with a JSON ``meta`` entry
    and the per-game arrays), of run-directory format ``version`` 2, or 1 (written before
    opponents and tiers: the manifest names neither, the chunks lack their arrays)."""
    reader = RunReader.open(parquet_dir)
    manifest = {k: v for k, v in reader.manifest.items() if k != "chunk_format"}
    manifest["version"] = version
    if version == 1:
        del manifest["opponents"], manifest["tiers"]
    out.mkdir()
    (out / NPZ_MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    for part, meta in reader.chunks():
        old = {k: meta[k] for k in ("index", "first", "games", "seed", "elapsed_seconds", "threads", "session",
                                    "session_start", "finished")}
        old.update(format="tradewinds-simulation-chunk", version=min(version, FILE_VERSION))
        arrays = {k: v for k, v in part.arrays.items()
                  if version > 1 or k not in ("opponent_scores", "opponent_wins", "tier")}
        with open(out / chunk_name(meta["index"], reader.chunk_count, ".npz"), "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(old)), **arrays)


def npz_versions(out: Path) -> list[int]:
    versions = []
    for file in sorted(out.glob("chunk-*.npz")):
        with np.load(file) as z:
            versions.append(json.loads(str(z["meta"]))["version"])
    return versions


def test_a_directory_written_by_the_earlier_version_loads_and_resumes(tmp_path: Path) -> None:
    # Written by the tradewinds before Parquet chunks: it loads as the arrays its chunks hold.
    out = tmp_path / "run"
    shutil.copytree(FIXTURES / "regatta-1p-pace_boat", out)
    old = tw.SimulationResult.load_dir(out)
    assert (old.game, old.players, old.games, old.seed, old.agents) == ("regatta", 1, 300, 5, ["greedy"])
    assert (old.opponents, old.tiers) == (["pace boat"], ["bronze", "silver", "gold"])
    stored = {}
    for file in sorted(out.glob("chunk-*.npz")):
        with np.load(file) as z:
            for name in ARRAYS:
                stored.setdefault(name, []).append(z[name])
    for name in ARRAYS:
        assert np.array_equal(getattr(old, name), np.concatenate(stored[name])), name
    # Its summary comes from its games (its chunks record no statistics), as a run in memory.
    assert old.summary().splitlines()[2:] == tw.SimulationResult(
        game=old.game, players=1, games=300, seed=5, threads=1, elapsed_seconds=1.0, categories=old.categories,
        arrays=old.arrays, options=old.options, agents=old.agents, opponents=old.opponents,
        tiers=old.tiers).summary().splitlines()[2:]
    # It resumes in its own format: the missing chunk is played by this version, as a .npz.
    (out / chunk_name(1, 3, ".npz")).unlink()
    game = tw.load("regatta", players=1, pace_boat=True)
    resumed = tw.simulate(game, 300, seed=5, agents=["greedy"], out=out, resume=True)
    assert not list(out.glob("*.parquet")) and (out / chunk_name(1, 3, ".npz")).is_file()
    assert (out / NPZ_MANIFEST).is_file() and not (out / MANIFEST).exists()
    now = tw.simulate(game, 300, seed=5, agents=["greedy"])
    for name in ARRAYS:
        assert np.array_equal(getattr(resumed, name)[100:200], getattr(now, name)[100:200]), name
        assert np.array_equal(getattr(resumed, name)[:100], getattr(old, name)[:100]), name
    assert_same_games(resumed, tw.SimulationResult.load_dir(out))


def test_a_directory_of_the_previous_formats_loads_and_resumes(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    whole = tw.simulate(game, 600, seed=4, threads=2, out=tmp_path / "run", chunk_games=200)
    for version in (1, 2):
        out = tmp_path / f"v{version}"
        write_npz_directory(tmp_path / "run", out, version)
        assert_same_games(whole, tw.SimulationResult.load_dir(out))
        # Resuming writes the missing chunk in the current version of the .npz chunks, next
        # to the older ones; the manifest is left as it was.
        (out / chunk_name(1, 3, ".npz")).unlink()
        resumed = tw.simulate(game, 600, seed=4, out=out, resume=True)
        assert_same_games(whole, resumed)
        again = tw.SimulationResult.load_dir(out)
        assert_same_games(whole, again)
        assert again.summary().splitlines()[2:] == whole.summary().splitlines()[2:]
        assert npz_versions(out) == [version, FILE_VERSION, version]
        assert read_manifest(out)["version"] == version  # type: ignore[index]
        assert not list(out.glob("*.parquet"))


def test_a_directory_of_the_previous_format_without_its_opponent_is_not_resumed(tmp_path: Path) -> None:
    # Its chunks do not record the pace boat: it loads as a game without opponents or tiers,
    # and new chunks, which would, are not mixed in.
    game = tw.load("regatta", players=1, pace_boat=True)
    whole = tw.simulate(game, 300, seed=2, threads=2, out=tmp_path / "run", chunk_games=100)
    out = tmp_path / "v1"
    write_npz_directory(tmp_path / "run", out, 1)
    old = tw.SimulationResult.load_dir(out)
    assert old.opponents == [] and old.tiers == [] and old.opponent_wins.shape == (300, 0)
    assert (old.tier == -1).all() and np.array_equal(old.scores, whole.scores)
    (out / chunk_name(0, 3, ".npz")).unlink()
    with pytest.raises(ValueError, match=r"opponents: the directory \(written by an older tradewinds\) records "
                                         r"none, this run \[\"pace boat\"\]"):
        tw.simulate(game, 300, seed=2, out=out, resume=True)


def _rewrite_chunk_meta(file: Path, change: dict[str, object]) -> None:
    table = pq.read_table(file)
    meta = json.loads(table.schema.metadata[b"tradewinds"])
    meta.update(change)
    pq.write_table(table.replace_schema_metadata({b"tradewinds": json.dumps(meta).encode()}), file)


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
    _rewrite_chunk_meta(out / chunk_name(1, 2), {"version": FILE_VERSION + 1})
    with pytest.raises(ValueError, match=f"chunk-000001.parquet is damaged: it has tradewinds-simulation-chunk "
                                         f"format version {FILE_VERSION + 1}; this tradewinds reads version "
                                         f"{FILE_VERSION}"):
        tw.SimulationResult.load_dir(out)


def test_chunks_that_disagree_with_the_manifest_are_damaged(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 300, seed=1, threads=2, out=out, chunk_games=100)
    _rewrite_chunk_meta(out / chunk_name(2, 3), {"seed": 99})
    with pytest.raises(ValueError, match=r"chunk-000002.parquet is damaged: its seed is 99, the manifest implies 1"):
        tw.SimulationResult.load_dir(out)
    # A chunk of another game's columns (here another run's chunk) is damaged too.
    tw.simulate("regatta", 100, players=3, seed=1, out=tmp_path / "other", chunk_games=100)
    shutil.copy(tmp_path / "other" / chunk_name(0, 1), out / chunk_name(2, 3))
    with pytest.raises(ValueError, match=r"chunk-000002.parquet is damaged: its columns .* are not those"):
        tw.SimulationResult.load_dir(out)
    with pytest.warns(RuntimeWarning, match="damaged"):
        assert_same_games(whole, tw.simulate(game, 300, seed=1, out=out, resume=True))


# ---- the command line, killed and resumed --------------------------------------------------


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "tradewinds", *args]


def wait_for_chunks(proc: subprocess.Popen[bytes], out: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while len(chunk_files(out)) < count:
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "no chunks appeared"
        time.sleep(0.01)


def stop_after_chunks(proc: subprocess.Popen[bytes], out: Path, count: int) -> tuple[int, int]:
    """Waits for `count` finished chunks, then stops the run (SIGSTOP) and returns its
    `(finished chunks, chunks)`. A stopped process makes no progress: this is the state a
    signal sent next finds, so a test asserts what it interrupts rather than hoping for it."""
    wait_for_chunks(proc, out, count)
    os.kill(proc.pid, signal.SIGSTOP)
    # Wait until it is stopped (WNOWAIT: a run that already ended stays for Popen to reap).
    info = os.waitid(os.P_PID, proc.pid, os.WSTOPPED | os.WEXITED | os.WNOWAIT)
    assert info is not None and info.si_code == os.CLD_STOPPED, "the run ended before it could be interrupted"
    done, chunks, _ = directory_status(out)
    return done, chunks


@pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")
def test_kill_9_midway_then_resume_gives_the_uninterrupted_results(tmp_path: Path) -> None:
    out = tmp_path / "run"
    # 150 chunks of 256 games on one thread, stopped after the first chunks and killed while
    # stopped: the kill finds the run unfinished, whatever the machine's speed.
    games, chunk = 150 * 256, 256
    args = ("simulate", NAME, "--players", str(PLAYERS), "--games", str(games), "--seed", "7",
            "--chunk-games", str(chunk), "--threads", "1", "--out", str(out))
    proc = subprocess.Popen(cli(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        done, chunks = stop_after_chunks(proc, out, 3)
        assert chunks == 150 and 3 <= done < chunks, "the kill finds the run unfinished"
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
    assert len(files) == done, "the chunks on disk are those finished when it was killed"
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
    resumed = tw.SimulationResult.load_dir(out)
    assert_same_games(uninterrupted, resumed)
    # Its statistics are those of an uninterrupted run of the same chunks, bit for bit.
    summary = tw.simulate(NAME, games, seed=7, threads=2, players=PLAYERS, keep_games=False, chunk_games=chunk)
    assert resumed.statistics == summary.statistics


@pytest.mark.skipif(os.name != "posix", reason="needs SIGINT")
def test_ctrl_c_keeps_the_finished_chunks_and_says_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("simulate", NAME, "--players", str(PLAYERS), "--games", str(100 * 256), "--seed", "8",
            "--chunk-games", "256", "--threads", "1", "--out", str(out))
    proc = subprocess.Popen(cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # Ctrl-C stops a run within one chunk: sent to the stopped run with at least 2 chunks
        # to go, it interrupts the run before its end, whatever the machine's speed.
        stopped_at, chunks = stop_after_chunks(proc, out, 2)
        assert 2 <= stopped_at <= chunks - 2
        proc.send_signal(signal.SIGINT)
        os.kill(proc.pid, signal.SIGCONT)
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
    assert stopped_at <= done <= stopped_at + 1 and done < chunks and f"{done} of {chunks} chunks" in text


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
