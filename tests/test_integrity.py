"""Results that cannot silently rot: a run directory's chunk log records each chunk's size
and SHA-256 and the run it belongs to, every read of a chunk is checked against it, damage is
a typed error naming the chunk and the command that repairs it, and ``repair`` plays exactly
the damaged or missing chunks again and restores the undamaged run, byte for byte. Also: a
full or read-only disk, and hostile result directories."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_PER_GAME, assert_same_games
from tradewinds import streaming
from tradewinds.streaming import CHUNK_LOG, CHUNKS, MANIFEST, RunWriteError, chunk_name, read_manifest, run_id

pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

NAME, PLAYERS = ONE_PER_GAME[0]
GAMES, CHUNK, CHUNKS, SEED = 250, 50, 5, 11


def play(out: Path, threads: int = 2, **more: Any) -> tw.SimulationResult:
    return tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, threads=threads, out=out, chunk_games=CHUNK,
                       **more)


def repair(out: Path, threads: int = 1) -> tw.SimulationResult:
    return tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, threads=threads, out=out, repair=True)


def chunk(out: Path, index: int) -> Path:
    return out / "chunks" / chunk_name(index, CHUNKS)


def chunk_bytes(out: Path) -> dict[str, bytes]:
    return {chunk_name(i, CHUNKS): chunk(out, i).read_bytes() for i in range(CHUNKS)}


def log_lines(out: Path) -> list[dict[str, Any]]:
    """The lines of the chunk log, in chunk order (they are written as chunks finish)."""
    lines = [json.loads(line) for line in (out / CHUNK_LOG).read_text(encoding="utf-8").splitlines()]
    return sorted(lines, key=lambda line: int(line["index"]))


def write_log(out: Path, lines: list[dict[str, Any]]) -> None:
    (out / CHUNK_LOG).write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def resign(line: dict[str, Any]) -> dict[str, Any]:
    """A line of the chunk log with its check made to match (as a deliberate edit would)."""
    return {**line, "check": streaming._line_check(line)}


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tw.SimulationResult]:
    out = tmp_path_factory.mktemp("pristine") / "run"
    play(out)
    return out, tw.SimulationResult.load_dir(out)


@pytest.fixture
def run(pristine: tuple[Path, tw.SimulationResult], tmp_path: Path) -> Path:
    """A fresh copy of the undamaged run (beside a directory ``outside`` that nothing may touch)."""
    out = tmp_path / "run"
    shutil.copytree(pristine[0], out)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "precious.txt").write_text("keep me\n", encoding="utf-8")
    return out


def flip(file: Path, *offsets: int) -> None:
    data = bytearray(file.read_bytes())
    for at in offsets:
        data[at] ^= 0xFF
    file.write_bytes(bytes(data))


def change_a_statistic(file: Path) -> None:
    """Changes one digit of the statistics in the chunk's footer: an uncompressed region,
    which reads as well as before."""
    data = bytearray(file.read_bytes())
    at = data.index(b'"mean"')
    at += next(i for i, c in enumerate(data[at:]) if chr(c).isdigit() and chr(c) != "0")
    data[at] = ord("1") if data[at] != ord("1") else ord("2")
    file.write_bytes(bytes(data))


def link_outside(file: Path) -> None:
    """Replaces ``file`` by a symbolic link to a file outside the run directory."""
    file.unlink()
    file.symlink_to(file.parent.parent / "outside" / "precious.txt")


def a_directory(file: Path) -> None:
    file.unlink()
    file.mkdir()


def swap(a: Path, b: Path) -> None:
    tmp = a.with_name("swap.tmp")
    a.rename(tmp)
    b.rename(a)
    tmp.rename(b)


def another_runs_chunk(out: Path, index: int) -> None:
    other = out.parent / "other"
    tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED + 1, threads=2, out=other, chunk_games=CHUNK)
    shutil.copy(chunk(other, index), chunk(out, index))
    shutil.rmtree(other)


#: Each damage, the chunks it touches, and what the error says of the first.
DAMAGES: list[tuple[str, Callable[[Path], object], list[int], str]] = [
    ("two bytes flipped (200, 400)", lambda out: flip(chunk(out, 1), 200, 400), [1], "SHA-256"),
    ("a byte of the footer's statistics changed", lambda out: change_a_statistic(chunk(out, 2)), [2], "SHA-256"),
    ("truncated", lambda out: chunk(out, 3).write_bytes(chunk(out, 3).read_bytes()[:1000]), [3], "bytes"),
    ("empty", lambda out: chunk(out, 0).write_bytes(b""), [0], "bytes"),
    ("not a chunk at all", lambda out: chunk(out, 4).write_text("hello\n" * 2000, encoding="utf-8"), [4],
     "unreadable"),
    ("two chunks swapped", lambda out: swap(chunk(out, 1), chunk(out, 3)), [1, 3], "its index is 3"),
    ("another run's chunk", lambda out: another_runs_chunk(out, 2), [2], "seed"),
]


@pytest.mark.parametrize("damage", DAMAGES, ids=[d[0] for d in DAMAGES])
def test_repair_restores_damaged_chunks_to_the_undamaged_run(
    damage: tuple[str, Callable[[Path], object], list[int], str], run: Path,
    pristine: tuple[Path, tw.SimulationResult],
) -> None:
    """H-D1 damaged chunks are a ChunkError naming the chunk and the repair; repair restores them byte for byte."""
    _, harm, hit, reason = damage
    undamaged = chunk_bytes(run)
    harm(run)
    # Loading names the damaged chunk, why, and the command that repairs it.
    with pytest.raises(tw.ChunkError) as info:
        tw.SimulationResult.load_dir(run)
    error = info.value
    assert error.index == hit[0] and error.file == str(chunk(run, hit[0]))
    assert reason in str(error) and f"tradewinds simulate {NAME} --out {run} --repair" in str(error)
    assert "--repair" in error.repair and isinstance(error, tw.TradewindsError)
    # Repair (on one thread; the run was played on two) replays exactly those chunks.
    with pytest.warns(RuntimeWarning, match="damaged"):
        repaired = repair(run)
    assert repaired.repair is not None
    assert [name for name, _ in repaired.repair.replaced] == [chunk_name(i, CHUNKS) for i in hit]
    assert f"replaced {len(hit)} of {CHUNKS} chunks" in str(repaired.repair)
    assert chunk_bytes(run) == undamaged, "the repaired chunks are the undamaged ones, byte for byte"
    again = tw.SimulationResult.load_dir(run)
    assert_same_games(pristine[1], again)
    assert again.statistics == pristine[1].statistics
    # The damaged files were set aside under names that readers of the dataset skip.
    assert all((run / f"_{chunk_name(i, CHUNKS)}.bad").is_file() for i in hit)
    assert len(pq.ParquetDataset(run).read()) == GAMES
    assert tree(run.parent / "outside") == {"precious.txt": b"keep me\n"}


def test_repair_replays_deleted_chunks_and_reports_an_intact_run(run: Path,
                                                                pristine: tuple[Path, tw.SimulationResult]) -> None:
    """H-D2 deleted chunks: an incomplete run naming the first; repair replays exactly them."""
    undamaged = chunk_bytes(run)
    chunk(run, 0).unlink()
    chunk(run, 4).unlink()
    with pytest.raises(tw.ChunkError, match=r"incomplete: 2 of 5 chunks are missing \(the first is "
                                            r"chunks/chunk-000000\.parquet\).*--resume") as info:
        tw.SimulationResult.load_dir(run)
    assert info.value.index == 0
    played: list[int] = []
    repaired = tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, out=run, repair=True, progress=played.append)
    assert sum(played) == 2 * CHUNK
    assert repaired.repair is not None and repaired.repair.replaced == (
        (chunk_name(0, CHUNKS), "it is missing"), (chunk_name(4, CHUNKS), "it is missing"))
    assert chunk_bytes(run) == undamaged
    assert_same_games(pristine[1], tw.SimulationResult.load_dir(run))
    # An intact run: everything verified, nothing played.
    played.clear()
    again = tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, out=run, repair=True, progress=played.append)
    assert played == [] and again.repair is not None and again.repair.replaced == ()
    assert "all 5 chunks" in str(again.repair) and "nothing to replace" in str(again.repair)


def test_chunks_are_the_same_bytes_on_any_thread_count(tmp_path: Path) -> None:
    # What makes a repaired chunk identical to the original: a chunk holds only what its games
    # determine (its timing is in the chunk log).
    one, four = play(tmp_path / "one", threads=1), play(tmp_path / "four", threads=4)
    assert chunk_bytes(tmp_path / "one") == chunk_bytes(tmp_path / "four")
    assert_same_games(one, four)
    lines = {line["index"]: line for line in log_lines(tmp_path / "one")}
    for i in range(CHUNKS):
        assert lines[i]["sha256"] == hashlib.sha256(chunk(tmp_path / "one", i).read_bytes()).hexdigest()
        assert lines[i]["bytes"] == chunk(tmp_path / "one", i).stat().st_size
        assert (lines[i]["first"], lines[i]["games"], lines[i]["file"]) == (i * CHUNK, CHUNK, chunk_name(i, CHUNKS))
        assert lines[i]["run_id"] == read_manifest(tmp_path / "one")["run_id"]  # type: ignore[index]


def test_the_command_line_repairs_and_reports(run: Path, pristine: tuple[Path, tw.SimulationResult]) -> None:
    undamaged = chunk_bytes(run)
    flip(chunk(run, 2), 200, 400)
    chunk(run, 4).unlink()
    r = subprocess.run([sys.executable, "-m", "tradewinds", "simulate", NAME, "--out", str(run), "--repair"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert f"replaced 2 of {CHUNKS} chunks" in r.stdout
    assert f"{chunk_name(2, CHUNKS)}: its SHA-256" in r.stdout and f"{chunk_name(4, CHUNKS)}: it is missing" in r.stdout
    assert chunk_bytes(run) == undamaged
    r = subprocess.run([sys.executable, "-m", "tradewinds", "simulate", NAME, "--repair"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "--repair needs --out" in r.stderr


def test_repair_needs_a_run_and_refuses_a_replay_that_differs(run: Path, tmp_path: Path) -> None:
    """H-D8 repair needs a run, and refuses a replay whose games differ from the chunk log's."""
    with pytest.raises(tw.RunDirectoryError, match="holds no run to repair"):
        tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, out=tmp_path / "empty", repair=True)
    assert not (tmp_path / "empty").exists()
    with pytest.raises(ValueError, match="repair=True needs out"):
        tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, repair=True)
    # The chunk log says chunk 1 held other games than the run plays: the replay is refused.
    lines = log_lines(run)
    lines[1] = resign({**lines[1], "data_sha256": "0" * 64})
    write_log(run, lines)
    chunk(run, 1).unlink()
    with pytest.raises(tw.RunDirectoryError, match="its games are not those the chunk log recorded"):
        repair(run)


def test_resume_records_a_chunk_written_but_not_logged(run: Path, pristine: tuple[Path, tw.SimulationResult]) -> None:
    # A process stopped between writing chunk 4 and its line of the chunk log (here a line
    # cut short): resuming keeps the chunk once it reads whole, and plays nothing.
    text = (run / CHUNK_LOG).read_bytes()
    last = text.rstrip(b"\n").rfind(b"\n") + 1
    (run / CHUNK_LOG).write_bytes(text[:last + 40])
    with pytest.raises(tw.ChunkError, match="incomplete: 1 chunk file is present but not recorded in the chunk log"):
        tw.SimulationResult.load_dir(run)
    played: list[int] = []
    resumed = tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, out=run, resume=True, progress=played.append)
    assert played == []
    assert_same_games(pristine[1], resumed)
    assert resumed.statistics == pristine[1].statistics
    assert len(log_lines(run)) == CHUNKS  # the cut line was removed, the chunk recorded again
    assert_same_games(pristine[1], tw.SimulationResult.load_dir(run))


def test_resume_checks_the_chunks_it_keeps(run: Path, pristine: tuple[Path, tw.SimulationResult]) -> None:
    undamaged = chunk_bytes(run)
    change_a_statistic(chunk(run, 1))  # reads as well as before; only its checksum tells
    with pytest.warns(RuntimeWarning, match=r"chunk-000001\.parquet is damaged \(its SHA-256"):
        resumed = tw.simulate(NAME, GAMES, players=PLAYERS, seed=SEED, out=run, resume=True)
    assert resumed.statistics == pristine[1].statistics
    assert chunk_bytes(run) == undamaged


# ---- a full disk, a read-only directory ------------------------------------------------------


def fail_writing(monkeypatch: pytest.MonkeyPatch, after: int, code: int) -> None:
    """Chunk writes fail with ``code`` after ``after`` of them succeeded."""
    real = streaming._write_parquet  # type: ignore[attr-defined]
    calls = [0]

    def write(*args: Any) -> None:
        calls[0] += 1
        if calls[0] > after:
            raise OSError(code, os.strerror(code))
        real(*args)

    monkeypatch.setattr(streaming, "_write_parquet", write)


def test_a_full_disk_says_what_is_saved_what_is_needed_and_how_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pristine: tuple[Path, tw.SimulationResult],
) -> None:
    """H-D9 a full disk (injected): one RunWriteError saying what is saved, what is needed, how to resume."""
    out = tmp_path / "run"
    fail_writing(monkeypatch, 2, errno.ENOSPC)
    with pytest.raises(RunWriteError) as info:
        play(out, threads=1)
    error = info.value
    assert isinstance(error, OSError) and isinstance(error, tw.TradewindsError) and error.errno == errno.ENOSPC
    text = str(error)
    assert "no space is left on its device" in text
    assert f"2 of {CHUNKS} chunks ({2 * CHUNK} games) are saved there" in text
    written = sum(chunk(out, i).stat().st_size for i in range(2))
    assert error.saved_chunks == 2 and error.needed_bytes == written * 3 // 2
    assert "need about" in text and "estimated from the 2 written" in text
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.errno, again.saved_chunks) == (text, errno.ENOSPC, 2)
    assert f"tradewinds simulate {NAME} --out {out} --resume" in text
    assert not list(out.rglob(".*.tmp")), "no temporary file is left behind"
    monkeypatch.undo()
    resumed = play(out, resume=True)
    assert_same_games(pristine[1], resumed)
    assert chunk_bytes(out) == chunk_bytes(pristine[0])


def test_the_command_line_reports_a_read_only_directory_in_one_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """H-D9 a read-only directory (injected), on the command line: one message, no traceback."""
    from tradewinds import cli

    real = streaming.atomic_write

    def read_only(path: Any, write: Any) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(streaming, "atomic_write", read_only)
    out = tmp_path / "run"
    args = ["simulate", NAME, "--players", str(PLAYERS), "--games", str(GAMES), "--chunk-games", str(CHUNK),
            "--threads", "1", "--out", str(out)]
    assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tradewinds: error: cannot write the run directory")
    assert "its file system is read-only" in err and "no chunk is saved there yet" in err and "--resume" in err
    monkeypatch.setattr(streaming, "atomic_write", real)
    fail_writing(monkeypatch, 3, errno.ENOSPC)
    assert cli.main(args + ["--resume"]) == 1
    err = capsys.readouterr().err
    assert "3 of 5 chunks (150 games) are saved" in err and "Traceback" not in err


def _unshare_works() -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    r = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k none /mnt 2>/dev/null || "
                        "mount -t tmpfs -o size=64k none /tmp"], capture_output=True, timeout=30)
    return r.returncode == 0


@pytest.mark.skipif(not _unshare_works(), reason="cannot mount a tmpfs here (needs user namespaces)")
@pytest.mark.parametrize("mount", ["size=40k", "ro"])
def test_a_small_or_read_only_tmpfs(tmp_path: Path, mount: str) -> None:
    """H-D9 a real full (or read-only) tmpfs, mounted in a user namespace: the same one message."""
    # A real file system that fills up (or refuses writes), mounted in a user namespace.
    where = tmp_path / "disk"
    where.mkdir()
    out = where / "run"
    command = (f"mount -t tmpfs -o {mount} none {where} && exec {sys.executable} -m tradewinds simulate {NAME} "
               f"--players {PLAYERS} --games 2000 --chunk-games 100 --seed 3 --threads 1 --out {out}")
    r = subprocess.run(["unshare", "-rm", "sh", "-c", command], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and r.stderr.startswith("tradewinds: error: cannot write the run directory")
    if mount == "ro":
        assert "read-only" in r.stderr and "no chunk is saved there yet" in r.stderr
    else:
        assert "no space is left on its device" in r.stderr and "chunks (" in r.stderr
        assert "need about" in r.stderr and "--resume" in r.stderr


# ---- hostile result directories --------------------------------------------------------------


def edit_manifest(out: Path, change: Callable[[dict[str, Any]], None], sign: bool = False) -> None:
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    change(manifest)
    if sign:
        manifest["run_id"] = run_id(manifest)
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda m: m.__setitem__(key, value)


MANIFESTS: list[tuple[str, Callable[[Path], object], str]] = [
    ("malformed JSON", lambda out: (out / MANIFEST).write_text("{\"format\": ", encoding="utf-8"),
     "is not valid JSON"),
    ("not an object", lambda out: (out / MANIFEST).write_text("[1, 2]", encoding="utf-8"), "is not the manifest"),
    ("edited seed", lambda out: edit_manifest(out, set_key("seed", 12)), "was changed after the run wrote it"),
    ("edited agents", lambda out: edit_manifest(out, set_key("agents", ["greedy"] * PLAYERS)),
     "was changed after the run wrote it"),
    ("edited, run_id recomputed", lambda out: edit_manifest(out, set_key("seed", 12), sign=True),
     "the chunks' run has 11, the manifest 12|the directory has 12, this run 11"),
    ("negative games", lambda out: edit_manifest(out, set_key("games", -5), sign=True), "malformed: its games"),
    ("chunks that do not add up", lambda out: edit_manifest(out, set_key("chunks", 10**15), sign=True),
     "malformed: its chunks"),
    ("a path for the seed", lambda out: edit_manifest(out, set_key("seed", "../../etc"), sign=True),
     "malformed: its seed"),
    ("huge", lambda out: (out / MANIFEST).write_bytes(b" " * (17 << 20)), "larger than"),
    ("a symbolic link outside", lambda out: link_outside(out / MANIFEST), "symbolic link"),
]


@pytest.mark.parametrize("hostile", MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_hostile_manifests_are_typed_errors(hostile: tuple[str, Callable[[Path], object], str], run: Path) -> None:
    """H-D4 malformed, edited, huge or linked manifests are RunDirectoryErrors; nothing is written."""
    _, harm, message = hostile
    harm(run)
    before = tree(run)
    attempts: list[Callable[[], object]] = [lambda: tw.SimulationResult.load_dir(run), lambda: repair(run),
                                            lambda: play(run, resume=True)]
    for attempt in attempts:
        with pytest.raises(tw.RunDirectoryError, match=message):
            attempt()
    assert tree(run) == before, "nothing was written"
    assert tree(run.parent / "outside") == {"precious.txt": b"keep me\n"}


def test_a_manifest_of_a_huge_run_is_answered_at_once(run: Path) -> None:
    """H-D5 a consistent manifest of 10**15 chunks is answered without going through them."""
    # A consistent manifest of 10**15 chunks: the answer does not go through them.
    edit_manifest(run, lambda m: m.update(games=10**15 * CHUNK, chunks=10**15), sign=True)
    with pytest.raises(tw.RunDirectoryError, match="games: the chunks' run has 250, the manifest 50000000000000000"):
        tw.SimulationResult.load_dir(run)
    (run / CHUNK_LOG).unlink()
    with pytest.raises(tw.ChunkError, match="incomplete"):
        tw.SimulationResult.load_dir(run)


def log_line_pointing_outside(out: Path) -> None:
    lines = log_lines(out)
    lines[2] = resign({**lines[2], "file": "../outside/precious.txt"})
    write_log(out, lines)


def log_line_of_another_index(out: Path) -> None:
    lines = log_lines(out)
    lines[2] = resign({**lines[2], "index": 10**12})
    write_log(out, lines)


def edit_line(out: Path, **entries: Any) -> None:
    """Gives the third line of the chunk log ``entries``, with its check made to match."""
    lines = log_lines(out)
    lines[2] = resign({**lines[2], **entries})
    write_log(out, lines)


LOGS: list[tuple[str, Callable[[Path], object], str]] = [
    ("a line naming a file outside", log_line_pointing_outside, "names the file \"../outside/precious.txt\""),
    ("a damaged line", lambda out: flip(out / CHUNK_LOG, 1500), "chunk"),
    ("a line whose check was not redone", lambda out: write_log(out, [{**line, "sha256": "0" * 64}
                                                                     for line in log_lines(out)]),
     "its check does not match"),
    ("an index out of range", log_line_of_another_index, "incomplete"),
    ("garbage", lambda out: (out / CHUNK_LOG).write_bytes(os.urandom(3000)), "incomplete"),
    ("a line a megabyte long", lambda out: (out / CHUNK_LOG).write_bytes(b"x" * (1 << 20) + b"\n"), "incomplete"),
    ("a time too large for a float", lambda out: edit_line(out, finished=10**400), "lacks its chunk's timing"),
    ("a time that is no number", lambda out: edit_line(out, session_start=float("nan")), "lacks its chunk's timing"),
    ("a thread count too large", lambda out: edit_line(out, threads=1 << 64), "lacks its chunk's timing"),
    ("a session that is no name", lambda out: edit_line(out, session=7), "lacks its chunk's timing"),
    ("a size too large", lambda out: edit_line(out, bytes=1 << 64), "lacks its chunk's size"),
]


@pytest.mark.parametrize("hostile", LOGS, ids=[m[0] for m in LOGS])
def test_hostile_chunk_logs_are_typed_errors_and_repaired(
    hostile: tuple[str, Callable[[Path], object], str], run: Path, pristine: tuple[Path, tw.SimulationResult],
) -> None:
    """H-D6 a chunk log with lines pointing outside, damaged, out of range or garbage: typed errors, repaired."""
    _, harm, message = hostile
    undamaged = chunk_bytes(run)
    harm(run)
    with pytest.raises(tw.RunDirectoryError, match=message):
        tw.SimulationResult.load_dir(run)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a chunk set aside (its line is not believed)
        repaired = repair(run)
    # Each chunk without a line believed is played again, or read whole and recorded again.
    assert repaired.repair is not None and (repaired.repair.replaced or repaired.repair.recorded)
    assert chunk_bytes(run) == undamaged
    assert_same_games(pristine[1], tw.SimulationResult.load_dir(run))
    assert tree(run.parent / "outside") == {"precious.txt": b"keep me\n"}


def test_a_chunk_log_that_is_a_link_is_refused(run: Path) -> None:
    """H-D7 a chunk log or lock that is a symbolic link is refused; its target is untouched."""
    (run / CHUNK_LOG).unlink()
    (run / CHUNK_LOG).symlink_to(run.parent / "outside" / "precious.txt")
    attempts: list[Callable[[], object]] = [lambda: tw.SimulationResult.load_dir(run), lambda: repair(run)]
    for attempt in attempts:
        with pytest.raises(tw.RunDirectoryError, match="symbolic link"):
            attempt()
    (run / CHUNK_LOG).unlink()
    (run / ".lock").unlink()
    (run / ".lock").symlink_to(run.parent / "outside" / "new-file")
    with pytest.raises(tw.RunDirectoryError, match="symbolic link"):
        repair(run)
    assert tree(run.parent / "outside") == {"precious.txt": b"keep me\n"}


CHUNKS_HOSTILE: list[tuple[str, Callable[[Path], object], str]] = [
    ("huge (sparse, 4 GiB)", lambda out: os.truncate(chunk(out, 1), 4 << 30), "is damaged"),
    ("a directory", lambda out: a_directory(chunk(out, 1)), "not a regular file"),
    ("a symbolic link outside", lambda out: link_outside(chunk(out, 1)), "symbolic link"),
]


@pytest.mark.parametrize("hostile", CHUNKS_HOSTILE, ids=[m[0] for m in CHUNKS_HOSTILE])
def test_hostile_chunk_files_are_typed_errors_and_repaired(
    hostile: tuple[str, Callable[[Path], object], str], run: Path, pristine: tuple[Path, tw.SimulationResult],
) -> None:
    """H-D3 chunk files that are huge, a directory or a link outside are ChunkErrors, and repaired."""
    _, harm, message = hostile
    undamaged = chunk_bytes(run)
    harm(run)
    with pytest.raises(tw.ChunkError, match=message) as info:
        tw.SimulationResult.load_dir(run)
    assert info.value.index == 1
    with pytest.warns(RuntimeWarning, match="damaged"):
        repair(run)
    assert chunk_bytes(run) == undamaged
    assert tree(run.parent / "outside") == {"precious.txt": b"keep me\n"}
    bad = run / f"_{chunk_name(1, CHUNKS)}.bad"
    if bad.is_dir():
        bad.rmdir()
    else:
        bad.unlink()
    assert_same_games(pristine[1], tw.SimulationResult.load_dir(run))
