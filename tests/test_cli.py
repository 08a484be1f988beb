"""The command line, run as `python -m tradewinds` in a subprocess and in-process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tradewinds as tw
from conftest import GAME_PLAYERS, ONE_PER_GAME, ids
from tradewinds import cli


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tradewinds", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def seat_table(summary: str) -> list[str]:
    """The lines of the summary that do not depend on timing."""
    return [line for line in summary.splitlines() if not ("games/s" in line or " in " in line)]


def test_games_lists_every_game() -> None:
    r = run("games")
    assert r.returncode == 0, r.stderr
    listed = [line.split()[0] for line in r.stdout.splitlines() if line.strip()]
    assert listed == list(tw.GAMES)


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_simulate(name: str, players: int) -> None:
    args = ("simulate", name, "--games", "300", "--players", str(players), "--seed", "1", "--threads", "2")
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout and "win rate" in r.stdout
    assert f"{players} player{'' if players == 1 else 's'}: 300 games" in r.stdout
    # stderr is not a terminal here: no progress bar.
    assert "\r" not in r.stderr and "ETA" not in r.stderr
    again = run(*args[:-2], "--threads", "1")
    assert again.returncode == 0, again.stderr
    assert seat_table(again.stdout) == seat_table(r.stdout)


def test_simulate_option_and_save(tmp_path) -> None:  # type: ignore[no-untyped-def]
    name, players = ONE_PER_GAME[0]
    path = tmp_path / "out.npz"
    r = run("simulate", name, "--games", "120", "--option", f"players={players}", "--seed", "4",
            "--save", str(path))
    assert r.returncode == 0, r.stderr
    saved = tw.SimulationResult.load(path)
    assert saved.games == 120 and saved.players == players and saved.seed == 4
    direct = tw.simulate(name, 120, seed=4, players=players)
    assert np.array_equal(saved.scores, direct.scores)


def test_simulate_a_solo_game_against_an_opponent(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Regatta (the engine's test game, not listed) solo against its pace boat: the summary
    # shows the opponent's win rate and the tiers reached; the saved file keeps them.
    path = tmp_path / "solo.npz"
    r = run("simulate", "regatta", "--players", "1", "--option", "pace_boat=true", "--games", "400",
            "--seed", "2", "--threads", "1", "--save", str(path))
    assert r.returncode == 0, r.stderr
    assert "regatta, 1 player: 400 games" in r.stdout
    lines = r.stdout.splitlines()
    assert any(line.startswith("opponent ") and "95% CI" in line for line in lines)
    assert any(line.startswith("pace boat ") for line in lines)
    assert "tier reached" in r.stdout and all(any(line.startswith(t) for line in lines)
                                              for t in ("bronze", "silver", "gold", "none"))
    saved = tw.SimulationResult.load(path)
    direct = tw.simulate("regatta", 400, seed=2, players=1, pace_boat=True)
    assert (saved.opponents, saved.tiers) == (["pace boat"], ["bronze", "silver", "gold"])
    assert np.array_equal(saved.tier, direct.tier) and np.array_equal(saved.opponent_wins, direct.opponent_wins)
    assert seat_table(saved.summary()) == seat_table(r.stdout.split("saved to")[0])


def test_simulate_errors() -> None:
    name = tw.GAMES[0]
    r = run("simulate", name, "--games", "10", "--players", "7")
    assert r.returncode == 1 and "players" in r.stderr and "Traceback" not in r.stderr
    r = run("simulate", name, "--games", "10", "--option", "no_such_option=1")
    assert r.returncode == 1 and "no_such_option" in r.stderr and "Traceback" not in r.stderr
    r = run("simulate", "no-such-game", "--games", "10")
    assert r.returncode == 1 and name in r.stderr
    r = run("simulate", name, "--games", "10", "--seed", "-1")
    assert r.returncode == 1 and "2**64 - 1" in r.stderr
    r = run("simulate", name, "--option", "novalue")
    assert r.returncode == 2 and "KEY=VALUE" in r.stderr
    r = run("simulate", name, "--games", "-5")
    assert r.returncode == 2
    r = run()
    assert r.returncode == 2


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_play_quits_on_q(name: str, players: int) -> None:
    r = run("play", name, "--players", str(players), "--seed", "3", stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert "legal moves" in r.stdout and "quitting" in r.stdout
    assert "what P0 sees" in r.stdout


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_play_quits_cleanly_on_end_of_input(name: str, players: int) -> None:
    r = run("play", name, "--players", str(players), "--seed", "3", "--seat", str(players - 1), stdin="")
    assert r.returncode == 0, r.stderr
    assert "end of input" in r.stdout and "Traceback" not in r.stderr


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_play_scripted_moves(name: str, players: int) -> None:
    # Numbers, a bad number, a bad name, then always the first move until input runs out
    # or the game ends.
    script = "0\n99999\nno such move\n" + "0\n" * 300
    r = run("play", name, "--players", str(players), "--seed", "5", stdin=script)
    assert r.returncode == 0, r.stderr
    assert "no move is numbered 99999" in r.stdout
    assert "not a legal move" in r.stdout
    assert "end of input" in r.stdout or "total" in r.stdout


def test_play_to_the_end_shows_the_score_report(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    name, players = ONE_PER_GAME[0]
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return "0"  # always the first legal move, until the game is over

    monkeypatch.setattr("builtins.input", fake_input)
    assert cli.main(["play", name, "--players", str(players), "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert prompts and all(p == "P0 move> " for p in prompts)
    assert "total" in out
    assert "winner" in out or "truncated" in out


def test_play_bad_seat() -> None:
    name, players = ONE_PER_GAME[0]
    r = run("play", name, "--players", str(players), "--seat", str(players), stdin="q\n")
    assert r.returncode == 2 and "--seat" in r.stderr


def test_main_in_process(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["games"]) == 0
    assert tw.GAMES[0] in capsys.readouterr().out
    name, players = ONE_PER_GAME[0]
    assert cli.main(["simulate", name, "--games", "50", "--players", str(players), "--threads", "1"]) == 0
    captured = capsys.readouterr()
    assert "games/s" in captured.out and captured.err == ""
    with pytest.raises(SystemExit) as info:
        cli.main(["--help"])
    assert info.value.code == 0


def run_with_tty_stderr(*args: str) -> tuple[subprocess.Popen[bytes], list[bytes], threading.Thread]:
    """Starts the CLI with stderr on a pseudo-terminal; its output is collected by a thread."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tradewinds", *args],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, close_fds=True,
    )
    os.close(slave)
    chunks: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return proc, chunks, reader


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_progress_bar_when_stderr_is_a_terminal() -> None:
    name, players = ONE_PER_GAME[0]
    proc, chunks, reader = run_with_tty_stderr(
        "simulate", name, "--games", "3000", "--players", str(players), "--threads", "2")
    out, _ = proc.communicate(timeout=300)
    reader.join(timeout=30)
    assert proc.returncode == 0
    err = b"".join(chunks).decode()
    assert "\r[" in err and "3,000/3,000 games" in err and "games/s" in err and "ETA" in err
    assert b"win rate" in out and b"ETA" not in out


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and a pseudo-terminal")
def test_ctrl_c_stops_a_long_simulation() -> None:
    name, players = ONE_PER_GAME[0]
    proc, chunks, reader = run_with_tty_stderr(
        "simulate", name, "--games", "100000000", "--players", str(players), "--threads", "1")
    try:
        # Wait until the progress bar shows that the simulation is running.
        deadline = time.monotonic() + 120
        while b"games/s" not in b"".join(chunks):
            assert proc.poll() is None, "the simulation ended early"
            assert time.monotonic() < deadline, "no progress bar appeared"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=30)
    assert proc.returncode == -signal.SIGINT


# ---- agents, figures, the player's view ---------------------------------------------------


def test_simulate_with_agents_and_a_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    name, players = ONE_PER_GAME[0]
    agents = ["mcts:iterations=3,rollout_depth=10"] + ["random"] * (players - 1)
    png = tmp_path / "run.png"
    saved = tmp_path / "run.npz"
    r = run("simulate", name, "--players", str(players), "--games", "30", "--seed", "2",
            "--agents", ",".join(agents), "--plot", str(png), "--save", str(saved))
    assert r.returncode == 0, r.stderr
    assert "mcts:iterations=3,exploration=1.4,rollout_depth=10" in r.stdout and "agent" in r.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"figure written to {png}" in r.stdout
    direct = tw.simulate(name, 30, seed=2, agents=agents, players=players)
    assert np.array_equal(tw.SimulationResult.load(saved).scores, direct.scores)
    assert tw.SimulationResult.load(saved).agents == direct.agents


def test_simulate_agent_errors() -> None:
    name, players = ONE_PER_GAME[0]
    r = run("simulate", name, "--players", str(players), "--games", "5", "--agents", "random")
    assert r.returncode == 1 and f"1 agents for {players} seats" in r.stderr and "Traceback" not in r.stderr
    r = run("simulate", name, "--players", str(players), "--games", "5",
            "--agents", ",".join(["random"] * (players - 1) + ["alphazero"]))
    assert r.returncode == 1 and "alphazero" in r.stderr and "random, greedy, mcts" in r.stderr
    r = run("simulate", name, "--agents", "iterations=5")
    assert r.returncode == 2 and "--agents" in r.stderr


@pytest.mark.parametrize("name,players", ONE_PER_GAME, ids=ids(ONE_PER_GAME))
def test_play_shows_the_players_view_unless_revealed(name: str, players: int) -> None:
    game = tw.load(name, players=players)
    state = game.new_state(3)
    seat = state.current_player  # the human moves first: the first view is of this state
    hidden = run("play", name, "--players", str(players), "--seed", "3", "--seat", str(seat), stdin="q\n")
    assert hidden.returncode == 0, hidden.stderr
    assert state.observation_string(seat) in hidden.stdout
    assert state.render() != state.observation_string(seat)
    assert state.render() not in hidden.stdout and "--reveal" not in hidden.stdout
    shown = run("play", name, "--players", str(players), "--seed", "3", "--seat", str(seat), "--reveal",
                stdin="q\n")
    assert shown.returncode == 0, shown.stderr
    assert state.render() in shown.stdout and state.observation_string(seat) in shown.stdout


def test_play_against_mcts_opponents() -> None:
    name, players = ONE_PER_GAME[0]
    spec = "mcts:iterations=5,rollout_depth=10"
    script = "0\n" * 40
    args = ("play", name, "--players", str(players), "--seed", "4", "--opponents", spec)
    r = run(*args, stdin=script)
    assert r.returncode == 0, r.stderr
    assert "opponents: mcts:iterations=5,exploration=1.4,rollout_depth=10" in r.stdout
    assert any(line.startswith("P1: ") for line in r.stdout.splitlines())
    # The opponents' moves are determined by the seed.
    assert run(*args, stdin=script).stdout == r.stdout
    # One agent per opponent, in seat order (at the largest table the game has).
    most = max(n for g, n in GAME_PLAYERS if g == name)
    per_seat = ",".join(["greedy"] + ["random"] * (most - 2))
    r = run("play", name, "--players", str(most), "--seed", "4", "--opponents", per_seat, stdin="q\n")
    assert r.returncode == 0
    assert ("P1 greedy, P2 random" if most > 2 else "opponents: greedy.") in r.stdout
    r = run("play", name, "--players", str(players), "--opponents", "alphazero", stdin="q\n")
    assert r.returncode == 2 and "alphazero" in r.stderr
    r = run("play", name, "--players", str(players), "--opponents", ",".join(["random"] * (players + 1)),
            stdin="q\n")
    assert r.returncode == 2 and "one per opponent" in r.stderr
