"""Streaming a simulation to a directory: atomic chunks (Parquet files), a manifest, resuming
after a crash, Ctrl-C or kill -9 (the merged results equal an uninterrupted run), the checks
that keep a directory from mixing two different runs, stray files named, and directories of
any other format refused."""

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
    CHUNKS,
    RunDirectory,
    RunReader,
    chunk_name,
    directory_status,
    read_manifest,
)

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

NAME, PLAYERS = ONE_PER_GAME[0]

def chunk_files(path: Path) -> list[Path]:
    return sorted((path / CHUNKS).glob("chunk-*.parquet"))


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
    assert manifest is not None and (out / MANIFEST).is_file()
    assert manifest["game"] == NAME and manifest["seed"] == 3 and manifest["games"] == 1100
    assert manifest["chunk_games"] == 256 and manifest["chunks"] == 5 and manifest["chunk_format"] == "parquet"
    assert manifest["agents"] == streamed.agents and manifest["config"] == json.loads(game.config_json())
    files = chunk_files(out)
    assert [f.name for f in files] == [chunk_name(i, 5) for i in range(5)]
    assert [check_chunk(f, manifest) for f in files] == list(range(5))
    assert sorted(p.name for p in out.iterdir()) == sorted([".lock", MANIFEST, CHUNK_LOG, CHUNKS])
    assert sorted(p.name for p in (out / CHUNKS).iterdir()) == [f.name for f in files]
    assert_same_games(direct, tw.SimulationResult.load_dir(out))
    assert_same_games(direct, tw.SimulationResult.load(out))  # load() takes the directory too
    assert directory_status(out) == (5, 5, 1100)
    assert tw.SimulationResult.load_dir(out).elapsed_seconds > 0


def test_resume_plays_only_the_missing_chunks(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 1000, seed=5, threads=2, out=out, chunk_games=200)
    kept = {f.name: f.stat().st_mtime_ns for f in chunk_files(out)}
    (out / CHUNKS / chunk_name(1, 5)).unlink()
    (out / CHUNKS / chunk_name(4, 5)).unlink()
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
    victim = out / CHUNKS / chunk_name(1, 3)
    victim.write_bytes(victim.read_bytes()[:100])
    with pytest.raises(ValueError, match=r"chunk-000001\.parquet is damaged.*--resume"):
        tw.SimulationResult.load_dir(out)
    # A temporary file left by a killed writer is removed on resume.
    stale = out / CHUNKS / f".{chunk_name(2, 3)}.12345-abcd.tmp"
    stale.write_bytes(b"partial")
    with pytest.warns(RuntimeWarning, match="damaged"):
        resumed = tw.simulate(game, 600, seed=4, out=out, resume=True)
    assert_same_games(whole, resumed)
    # Set aside under a name that readers of the dataset skip.
    assert (out / f"_{chunk_name(1, 3)}.bad").is_file() and not stale.exists()
    assert len(pq.ParquetDataset(out / CHUNKS).read()) == 600


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
    (out / CHUNKS / chunk_name(1, 3)).unlink()
    assert_same_games(whole, tw.simulate(game, 6, seed=3, agents=agents, out=out, resume=True))


# ---- opponents and tiers; directories of other formats --------------------------------------


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
    (out / CHUNKS / chunk_name(2, 5)).unlink()
    resumed = tw.simulate(game, 1100, seed=3, threads=2, agents=["greedy"], out=out, resume=True)
    for r in (streamed, resumed, tw.SimulationResult.load_dir(out)):
        assert_same_games(direct, r)
        assert (r.opponents, r.tiers) == (game.opponents, game.tiers)
        assert r.summary().splitlines()[2:] == direct.summary().splitlines()[2:]
    assert (direct.winners[:, 0] ^ direct.opponent_wins[:, 0]).all()
    assert np.array_equal(direct.tier >= 0, direct.winners[:, 0])


@pytest.mark.parametrize("version", [4, 6, "5", None])
def test_a_directory_of_another_format_is_refused_naming_its_version(tmp_path: Path, version: object) -> None:
    """Run-directory format 5 is the only one read: a manifest of any other version (older,
    newer, not an integer, none) is refused by every entry point with one RunDirectoryError
    naming it and the one read, and nothing in the directory changes."""
    out = tmp_path / "run"
    tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out, chunk_games=50)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    if version is None:
        del manifest["version"]
    else:
        manifest["version"] = version
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    for attempt in (lambda: tw.SimulationResult.load_dir(out),
                    lambda: tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out),
                    lambda: tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out, resume=True),
                    lambda: tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out, repair=True)):
        with pytest.raises(tw.RunDirectoryError) as info:
            attempt()
        assert str(info.value) == (
            f"{out / MANIFEST} is of run-directory format version {json.dumps(version)}; this tradewinds reads "
            "version 5 only: read the directory with the tradewinds that wrote it, or play the run again into a "
            "new directory (the same game, options, seed and agents give the same games)")
        assert info.value.path == str(out)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_directory_without_the_manifest_is_no_run_directory(tmp_path: Path) -> None:
    """A directory whose manifest has another name (``manifest.json``) and whose chunks lie
    beside it is no run directory: loading it says so, and a run refuses to write into it
    beside its chunk files; nothing there changes (a run takes the directory's lock first)."""
    out = tmp_path / "run"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"format": "tradewinds-simulation-dir", "version": 1}),
                                       encoding="utf-8")
    (out / "chunk-000000.npz").write_bytes(b"PK\x03\x04 not read")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(tw.RunDirectoryError, match="has no _manifest.json: it is not a tradewinds simulation directory"):
        tw.SimulationResult.load_dir(out)
    with pytest.raises(tw.RunDirectoryError, match="holds no run to repair"):
        tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out, repair=True)
    for resume in (False, True):
        with pytest.raises(tw.RunDirectoryError, match=r"holds chunk files \(chunk-000000.npz\) but no _manifest.json"):
            tw.simulate(NAME, 100, players=PLAYERS, seed=4, out=out, resume=resume)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != ".lock"} == before


def _rewrite_chunk_meta(file: Path, change: dict[str, object]) -> None:
    table = pq.read_table(file)
    meta = json.loads(table.schema.metadata[b"tradewinds"])
    meta.update(change)
    pq.write_table(table.replace_schema_metadata({b"tradewinds": json.dumps(meta).encode()}), file)


def test_a_chunk_of_a_newer_format_is_damaged(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    tw.simulate(game, 200, seed=1, threads=2, out=out, chunk_games=100)
    _rewrite_chunk_meta(out / CHUNKS / chunk_name(1, 2), {"version": FILE_VERSION + 1})
    with pytest.raises(ValueError, match=f"chunk-000001.parquet is damaged: it has tradewinds-simulation-chunk "
                                         f"format version {FILE_VERSION + 1}; this tradewinds reads version "
                                         f"{FILE_VERSION}"):
        tw.SimulationResult.load_dir(out)


def test_chunks_that_disagree_with_the_manifest_are_damaged(tmp_path: Path) -> None:
    game = tw.load(NAME, players=PLAYERS)
    out = tmp_path / "run"
    whole = tw.simulate(game, 300, seed=1, threads=2, out=out, chunk_games=100)
    _rewrite_chunk_meta(out / CHUNKS / chunk_name(2, 3), {"seed": 99})
    with pytest.raises(ValueError, match=r"chunk-000002.parquet is damaged: its seed is 99, the manifest implies 1"):
        tw.SimulationResult.load_dir(out)
    # A chunk of another game's columns (here another run's chunk) is damaged too.
    tw.simulate("regatta", 100, players=3, seed=1, out=tmp_path / "other", chunk_games=100)
    shutil.copy(tmp_path / "other" / CHUNKS / chunk_name(0, 1), out / CHUNKS / chunk_name(2, 3))
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
    assert not list(out.rglob(".*.tmp")), "the killed writer's temporary file is gone"
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


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tradewinds", *args], capture_output=True, text=True, timeout=300)


def _tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_an_edited_manifest_is_refused_naming_the_difference_and_nothing_is_replaced(tmp_path: Path) -> None:
    """An edited seed with its run_id recomputed: --resume/--repair refuse, naming it, and write nothing."""
    from tradewinds.streaming import run_id
    out = tmp_path / "run"
    tw.simulate(NAME, 300, players=PLAYERS, seed=1, out=out, chunk_games=100, threads=2)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["seed"] = 2
    manifest["run_id"] = run_id(manifest)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    before = _tree(out)
    for flag in ("--resume", "--repair"):
        r = _cli("simulate", NAME, "--out", str(out), flag)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        assert "seed: the chunks' run has 1, the manifest 2" in r.stderr and "warning" not in r.stderr
        assert _tree(out) == before, "nothing was moved aside, replayed or written"
    with pytest.raises(tw.RunDirectoryError, match="seed: the chunks' run has 1, the manifest 2"):
        tw.SimulationResult.load_dir(out)
    # With the log gone too, the chunks' own footers show it.
    (out / CHUNK_LOG).unlink()
    before = _tree(out)
    with pytest.raises(tw.RunDirectoryError, match="seed: the chunks' run has 1, the manifest 2"):
        tw.simulate(NAME, 300, players=PLAYERS, seed=2, out=out, repair=True)
    assert _tree(out) == before


def test_stray_chunk_like_files_are_named_and_the_dataset_stays_the_runs(tmp_path: Path) -> None:
    """Strays are named (load_dir, --resume, --repair); DIR/chunks reads as exactly the run's games."""
    pd = pytest.importorskip("pandas")
    out = tmp_path / "run"
    whole = tw.simulate(NAME, 300, players=PLAYERS, seed=1, out=out, chunk_games=100, threads=2)
    chunks = out / CHUNKS
    shutil.copy(chunks / chunk_name(1, 3), chunks / "chunk-000500.parquet")
    shutil.copy(chunks / chunk_name(2, 3), out / "chunk-00002.parquet")
    shutil.copy(chunks / chunk_name(0, 3), out / "chunk-000003 (copy).parquet")
    names = [f"{CHUNKS}/chunk-000500.parquet", "chunk-00002.parquet", "chunk-000003 (copy).parquet"]
    with pytest.warns(tw.StrayFileWarning) as caught:
        assert_same_games(whole, tw.SimulationResult.load_dir(out))
    assert all(name in str(caught[0].message) for name in names)
    for flag in ("--resume", "--repair"):
        r = _cli("simulate", NAME, "--out", str(out), flag)
        assert r.returncode == 0, r.stderr
        assert "tradewinds: warning: " in r.stderr and all(name in r.stderr for name in names), r.stderr
    # The run's dataset is its folder of chunks: a stray there is named, and once it is
    # moved out, pandas reads exactly the run's games.
    (chunks / "chunk-000500.parquet").unlink()
    frame = pd.read_parquet(chunks)
    assert len(frame) == 300 and sorted(frame["game"]) == list(range(300))


def test_a_missing_chunk_log_is_named_and_repair_rebuilds_it(tmp_path: Path) -> None:
    """The chunk log deleted: load_dir says so (not "chunks are missing"); --repair rebuilds it, replaying nothing."""
    out = tmp_path / "run"
    whole = tw.simulate(NAME, 300, players=PLAYERS, seed=1, out=out, chunk_games=100, threads=2)
    (out / CHUNK_LOG).unlink()
    with pytest.raises(tw.RunDirectoryError, match=r"has no chunk log \(_chunks.jsonl\).*3 of its 3 chunk files "
                                                   r"are present.*--repair") as info:
        tw.SimulationResult.load_dir(out)
    assert "chunks are missing" not in str(info.value)
    chunk_bytes = {p.name: p.read_bytes() for p in (out / CHUNKS).iterdir()}
    played: list[int] = []
    repaired = tw.simulate(NAME, 300, players=PLAYERS, seed=1, out=out, repair=True, progress=played.append)
    assert played == [] and repaired.repair is not None and not repaired.repair.replaced
    assert len(repaired.repair.recorded) == 3
    assert {p.name: p.read_bytes() for p in (out / CHUNKS).iterdir()} == chunk_bytes
    assert_same_games(whole, tw.SimulationResult.load_dir(out))


def test_a_malformed_chunk_log_line_is_reported_by_number_and_replays_nothing(tmp_path: Path) -> None:
    """An appended junk line naming an intact chunk: reported with its line number, the chunk kept."""
    out = tmp_path / "run"
    whole = tw.simulate(NAME, 400, players=PLAYERS, seed=1, out=out, chunk_games=100, threads=2)
    with open(out / CHUNK_LOG, "a", encoding="utf-8") as f:
        f.write('{"index": 3}\n')
    chunk_bytes = {p.name: p.read_bytes() for p in (out / CHUNKS).iterdir()}
    with pytest.warns(RuntimeWarning, match=r"line 5 \(its check does not match"):
        assert_same_games(whole, tw.SimulationResult.load_dir(out))
    played: list[int] = []
    with pytest.warns(RuntimeWarning, match="line 5"):
        tw.simulate(NAME, 400, players=PLAYERS, seed=1, out=out, resume=True, progress=played.append)
    assert played == [] and not list(out.glob("_*.bad"))
    with pytest.warns(RuntimeWarning, match="line 5"):
        repaired = tw.simulate(NAME, 400, players=PLAYERS, seed=1, out=out, repair=True, progress=played.append)
    assert played == [] and repaired.repair is not None and not repaired.repair.replaced
    assert repaired.repair.dropped_lines == 1 and "removed 1 malformed line" in str(repaired.repair)
    assert {p.name: p.read_bytes() for p in (out / CHUNKS).iterdir()} == chunk_bytes
    assert len((out / CHUNK_LOG).read_text(encoding="utf-8").splitlines()) == 4
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same_games(whole, tw.SimulationResult.load_dir(out))
