"""The command line, run as `python -m tradewinds` in a subprocess and in-process, over one
configuration of every registered game (a configuration is given as `--option KEY=VALUE`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from conftest import ONE_CONFIG, SEATS, Config, ids
from tradewinds import cli
from tradewinds._core import configurations
from tradewinds._core import options as declared_options

#: The configuration of the tests that run on one game only.
FIRST = ONE_CONFIG[0]


def option_args(config: Config, skip: tuple[str, ...] = ()) -> list[str]:
    """`--option KEY=VALUE` for each option of the configuration."""
    out = []
    for key, value in config.options.items():
        if key not in skip:
            out += ["--option", f"{key}={json.dumps(value)}"]
    return out


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


def test_games_lists_every_game_with_its_configurations_and_options() -> None:
    r = run("games", "--configurations")
    assert r.returncode == 0, r.stderr
    listed = [line for line in r.stdout.splitlines() if line.strip() and not line.startswith(" ")]
    # Each game by its name and its full title.
    assert listed == [f"{name}: {tw.load(name).title}" for name in tw.GAMES]
    sections = r.stdout.split("\n\n")
    assert len(sections) == len(tw.GAMES)
    for name, section in zip(tw.GAMES, sections):
        lines = [line.strip() for line in section.splitlines()]
        counts = sorted({c["players"] for c in configurations(name)})
        assert f"players: {cli._player_counts(counts)}" in lines
        assert any(line.startswith("modes: ") for line in lines)
        for options in configurations(name):
            assert " ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) in lines, (name, options)
        for option in declared_options(name):
            assert any(line.startswith(option["name"]) and option["allowed"] in line and option["doc"] in line
                       for line in lines), (name, option)


def test_games_lists_the_configurations_only_on_request() -> None:
    r = run("games")
    assert r.returncode == 0, r.stderr
    for name in tw.GAMES:
        assert f"  configurations: {len(configurations(name))} (list them: tradewinds games --configurations)" \
            in r.stdout.splitlines()
    assert "--option KEY=VALUE):" not in r.stdout
    assert len(r.stdout.splitlines()) < len(run("games", "--configurations").stdout.splitlines())


def test_data_prints_or_writes_the_shipped_file_and_never_overwrites_one(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    name = next(n for n in tw.GAMES if any(o["name"] == "data" for o in declared_options(n)))
    assert cli.main(["data", name]) == 0
    assert capsys.readouterr().out == tw.data_text(name)
    out = tmp_path / "mine.json"
    assert cli.main(["data", name, "--out", str(out)]) == 0
    assert out.read_bytes() == tw.data_text(name).encode("utf-8")
    assert f"--option data={out}" in capsys.readouterr().out
    # The written file is a data file the game loads.
    r = run("simulate", name, "--games", "5", "--threads", "1", "--option", f"data={out}")
    assert r.returncode == 0, r.stderr
    # An existing file (an edited copy) stays as it is: an error of the run.
    out.write_text("edited", encoding="utf-8")
    assert cli.main(["data", name, "--out", str(out)]) == 1
    assert f"tradewinds: error: File exists: {out}" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "edited"
    # An unknown game is a usage error naming the games there are.
    r = run("data", "no-such-game")
    assert r.returncode == 2 and "available games" in r.stderr and r.stdout == ""


def test_simulate_with_one_agent_puts_it_in_every_seat(tmp_path: Path) -> None:
    one, every = tmp_path / "one.npz", tmp_path / "every.npz"
    r = run("simulate", "north-wind", "--players", "3", "--games", "20", "--seed", "5", "--threads", "1",
            "--agents", "greedy", "--save", str(one))
    assert r.returncode == 0, r.stderr
    r = run("simulate", "north-wind", "--players", "3", "--games", "20", "--seed", "5", "--threads", "1",
            "--agents", "greedy,greedy,greedy", "--save", str(every))
    assert r.returncode == 0, r.stderr
    assert tw.SimulationResult.load(one).agents == ["greedy"] * 3
    assert np.array_equal(tw.SimulationResult.load(one).scores, tw.SimulationResult.load(every).scores)


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_simulate(config: Config) -> None:
    name, players = config.game, config.players
    args = ("simulate", name, "--games", "300", "--players", str(players), *option_args(config, skip=("players",)),
            "--seed", "1", "--threads", "2")
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
    name, players = FIRST.game, FIRST.players
    path = tmp_path / "out.npz"
    r = run("simulate", name, "--games", "120", *option_args(FIRST), "--seed", "4", "--save", str(path))
    assert r.returncode == 0, r.stderr
    saved = tw.SimulationResult.load(path)
    assert saved.games == 120 and saved.players == players and saved.seed == 4
    direct = tw.simulate(name, 120, seed=4, **FIRST.options)
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
    # What the command line names wrongly is a usage error (2), naming the flag.
    r = run("simulate", name, "--games", "10", "--players", str(max(SEATS[name]) + 1))
    assert r.returncode == 2 and "players" in r.stderr and "Traceback" not in r.stderr
    r = run("simulate", name, "--games", "10", "--option", "no_such_option=1")
    assert r.returncode == 2 and "no_such_option" in r.stderr and "Traceback" not in r.stderr
    r = run("simulate", "no-such-game", "--games", "10")
    assert r.returncode == 2 and name in r.stderr
    r = run("simulate", name, "--games", "10", "--seed", "-1")
    assert r.returncode == 2 and "--seed must be an integer in [0, 2**64 - 1], got -1" in r.stderr
    r = run("simulate", name, "--games", str(1 << 63))
    assert r.returncode == 2 and "--games must be an integer in [0, 2**63 - 1]" in r.stderr
    r = run("simulate", name, "--option", "novalue")
    assert r.returncode == 2 and "KEY=VALUE" in r.stderr
    r = run("simulate", name, "--games", "-5")
    assert r.returncode == 2
    r = run()
    assert r.returncode == 2


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_play_quits_on_q(config: Config) -> None:
    r = run("play", config.game, *option_args(config), "--seed", "3", stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert "legal moves" in r.stdout and "quitting" in r.stdout
    assert "what P0 sees" in r.stdout


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_play_quits_cleanly_on_end_of_input(config: Config) -> None:
    r = run("play", config.game, *option_args(config), "--seed", "3", "--seat", str(config.players - 1), stdin="")
    assert r.returncode == 0, r.stderr
    assert "end of input" in r.stdout and "Traceback" not in r.stderr


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_play_scripted_moves(config: Config) -> None:
    # A number, a bad number, a bad name, then always the first move until input runs out
    # or the game ends.
    script = "0\n99999\nno such move\n" + "0\n" * 300
    r = run("play", config.game, *option_args(config), "--seed", "5", stdin=script)
    assert r.returncode == 0, r.stderr
    assert "no move is numbered 99999" in r.stdout
    assert "not a legal move" in r.stdout
    assert "end of input" in r.stdout or "total" in r.stdout


def test_play_to_the_end_shows_the_score_report(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    name = FIRST.game
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        assert len(prompts) < 100_000, "the game never ended"
        # Always the first legal move, until the game is over; then Enter leaves.
        return "" if prompt == "game over> " else "0"

    monkeypatch.setattr("builtins.input", fake_input)
    assert cli.main(["play", name, *option_args(FIRST), "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert prompts[-1] == "game over> " and all(p == "P0 move> " for p in prompts[:-1])
    assert "total" in out
    assert "winner" in out or "truncated" in out


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_play_bad_seat(config: Config) -> None:
    r = run("play", config.game, *option_args(config), "--seat", str(config.players), stdin="q\n")
    assert r.returncode == 2 and "--seat" in r.stderr


def test_main_in_process(capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["games"]) == 0
    assert tw.GAMES[0] in capsys.readouterr().out
    assert cli.main(["simulate", FIRST.game, "--games", "50", *option_args(FIRST), "--threads", "1"]) == 0
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
    proc, chunks, reader = run_with_tty_stderr(
        "simulate", FIRST.game, "--games", "3000", *option_args(FIRST), "--threads", "2")
    out, _ = proc.communicate(timeout=300)
    reader.join(timeout=30)
    assert proc.returncode == 0
    err = b"".join(chunks).decode()
    assert "\r[" in err and "3,000/3,000 games" in err and "games/s" in err and "ETA" in err
    assert b"win rate" in out and b"ETA" not in out


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals and a pseudo-terminal")
def test_ctrl_c_stops_a_long_simulation() -> None:
    proc, chunks, reader = run_with_tty_stderr(
        "simulate", FIRST.game, "--games", "100000000", *option_args(FIRST), "--threads", "1")
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
    name, players = FIRST.game, FIRST.players
    agents = ["mcts:iterations=3,rollout_depth=10"] + ["random"] * (players - 1)
    png = tmp_path / "run.png"
    saved = tmp_path / "run.npz"
    r = run("simulate", name, *option_args(FIRST), "--games", "30", "--seed", "2",
            "--agents", ",".join(agents), "--plot", str(png), "--save", str(saved))
    assert r.returncode == 0, r.stderr
    assert "mcts:iterations=3,exploration=1.4,rollout_depth=10" in r.stdout and "agent" in r.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"figure written to {png}" in r.stdout
    direct = tw.simulate(name, 30, seed=2, agents=agents, **FIRST.options)
    assert np.array_equal(tw.SimulationResult.load(saved).scores, direct.scores)
    assert tw.SimulationResult.load(saved).agents == direct.agents


def test_simulate_agent_errors() -> None:
    # Usage errors of `simulate`: its usage, then the allowed agents once, in command-line terms.
    name, players = FIRST.game, FIRST.players
    options = option_args(FIRST)
    r = run("simulate", name, *options, "--games", "5", "--agents", ",".join(["random"] * (players + 1)))
    assert r.returncode == 2 and f"{players + 1} agents for {players} seats" in r.stderr and "Traceback" not in r.stderr
    assert r.stderr.startswith("usage: tradewinds simulate")
    r = run("simulate", name, *options, "--games", "5",
            "--agents", ",".join(["random"] * (players - 1) + ["alphazero"]))
    assert r.returncode == 2 and "alphazero" in r.stderr and "random, greedy, mcts" in r.stderr
    assert r.stderr.count("random, greedy, mcts") == 1 and "callable" not in r.stderr
    r = run("simulate", name, "--agents", "iterations=5")
    assert r.returncode == 2 and "--agents" in r.stderr


@pytest.mark.parametrize("config", ONE_CONFIG, ids=ids(ONE_CONFIG))
def test_play_shows_the_players_view_unless_revealed(config: Config) -> None:
    game = config.load()
    state = game.new_state(3)
    seat = state.current_player  # the human moves first: the first view is of this state
    hidden = run("play", config.game, *option_args(config), "--seed", "3", "--seat", str(seat), stdin="q\n")
    assert hidden.returncode == 0, hidden.stderr
    assert state.observation_string(seat) in hidden.stdout
    assert "--reveal" not in hidden.stdout
    if state.render() != state.observation_string(seat):  # something is hidden from the seat
        assert state.render() not in hidden.stdout
    shown = run("play", config.game, *option_args(config), "--seed", "3", "--seat", str(seat), "--reveal",
                stdin="q\n")
    assert shown.returncode == 0, shown.stderr
    assert state.render() in shown.stdout and state.observation_string(seat) in shown.stdout


def test_play_against_mcts_opponents() -> None:
    # The first configuration with other seats to play.
    config = next(c for c in ONE_CONFIG if c.players > 1)
    name, players = config.game, config.players
    spec = "mcts:iterations=5,rollout_depth=10"
    script = "0\n" * 40
    args = ("play", name, *option_args(config), "--seed", "4", "--opponents", spec)
    r = run(*args, stdin=script)
    assert r.returncode == 0, r.stderr
    assert "opponents: mcts:iterations=5,exploration=1.4,rollout_depth=10" in r.stdout
    # The opponents' moves are told in the log, as P0 may see them.
    assert any(line.startswith("  P1 ") for line in r.stdout.splitlines())
    # The opponents' moves are determined by the seed.
    assert run(*args, stdin=script).stdout == r.stdout
    # One agent per opponent, in seat order (at the largest table the game has).
    most = max(SEATS[name])
    per_seat = ",".join(["greedy"] + ["random"] * (most - 2))
    r = run("play", name, *option_args(config, skip=("players",)), "--players", str(most), "--seed", "4",
            "--opponents", per_seat, stdin="q\n")
    assert r.returncode == 0
    assert ("P1 greedy, P2 random" if most > 2 else "opponents: greedy.") in r.stdout
    r = run("play", name, *option_args(config), "--opponents", "alphazero", stdin="q\n")
    assert r.returncode == 2 and "alphazero" in r.stderr
    r = run("play", name, *option_args(config), "--opponents", ",".join(["random"] * (players + 1)),
            stdin="q\n")
    assert r.returncode == 2 and "one per opponent" in r.stderr


# ---- the rough edges a new user meets -----------------------------------------------------


def test_version() -> None:
    from importlib import metadata

    r = run("--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"tradewinds {metadata.version('tradewinds')}" == f"tradewinds {tw.__version__}"


def test_games_shows_each_games_modes(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # Regatta (unlisted) has a mode besides its player count: listed as the CLI would list it.
    monkeypatch.setattr(cli, "GAMES", ("regatta",))
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"regatta: {tw.load('regatta').title}\n")
    assert "  players: 1-5\n" in out
    (pace_boat,) = [o for o in declared_options("regatta") if o["name"] == "pace_boat"]
    assert f"  modes: pace_boat ({pace_boat['allowed']}): {pace_boat['doc']}\n" in out
    assert [cli._player_counts(c) for c in ([2, 3, 4], [1], [1, 3], [2, 4, 5])] == ["2-4", "1", "1 or 3", "2, 4 or 5"]


def _subparsers() -> dict[str, Any]:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return {"": parser, **sub.choices}  # type: ignore[attr-defined]


def test_help_texts_render_as_written() -> None:
    # argparse expands % in help strings but not in descriptions: neither shows a doubled %.
    for name, parser in _subparsers().items():
        text = parser.format_help()
        assert "%%" not in text and "%(" not in text, name
    assert "95% intervals" in _subparsers()["simulate"].format_help()


@pytest.mark.parametrize("args", [
    ("simulate", FIRST.game, "--games", "-1"),
    ("simulate", FIRST.game, "--resume"),
    ("simulate", FIRST.game, "--agents", "nobody"),
    ("play", FIRST.game, "--seat", "99"),
    ("play", FIRST.game, "--opponents", "nobody"),
    ("simulate", FIRST.game, "--no-such-flag"),
])
def test_a_subcommands_error_prints_its_usage(args: tuple[str, ...]) -> None:
    r = run(*args, stdin="q\n")
    assert r.returncode == 2
    assert r.stderr.startswith(f"usage: tradewinds {args[0]} "), r.stderr
    assert f"tradewinds {args[0]}: error: " in r.stderr


@pytest.mark.parametrize(("suffix", "magic"), [
    (".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF"), (".jpg", b"\xff\xd8\xff"),
])
def test_plot_writes_the_format_its_extension_names(tmp_path, suffix: str, magic: bytes) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / f"figure{suffix}"
    r = run("simulate", FIRST.game, *option_args(FIRST), "--games", "20", "--plot", str(path))
    assert r.returncode == 0, r.stderr
    assert path.read_bytes().startswith(magic)


def test_plot_refuses_a_format_it_cannot_write_before_the_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Refused at once: a run of this size would take hours.
    path = tmp_path / "figure.doc"
    r = run("simulate", FIRST.game, *option_args(FIRST), "--games", "100000000", "--plot", str(path), timeout=60)
    assert r.returncode == 2 and "cannot write a figure as .doc" in r.stderr
    assert ".png" in r.stderr and ".svg" in r.stderr and not path.exists()


def test_bad_opponents_name_the_allowed_agents_once_in_command_line_terms() -> None:
    r = run("play", FIRST.game, *option_args(FIRST), "--opponents", "foo", stdin="q\n")
    assert r.returncode == 2
    error = r.stderr.splitlines()[-1]
    assert error == ("tradewinds play: error: --opponents: bad agent 'foo': unknown agent \"foo\"; "
                     "agents are random, greedy, mcts:fast, mcts:strong, "
                     "mcts[:iterations=N,exploration=C,rollout_depth=D,playout=random|greedy,epsilon=E,ms=M]")
    r = run("play", FIRST.game, *option_args(FIRST), "--opponents", "mcts:iters=3", stdin="q\n")
    assert r.returncode == 2 and 'unknown mcts parameter "iters"' in r.stderr and "Python" not in r.stderr


def test_errors_name_no_errno_and_run_errors_exit_1(tmp_path: Path) -> None:
    """A file that cannot be read or written is a run error (1), said without Python's [Errno N]."""
    r = run("replay", str(tmp_path / "no-such-record.json"))
    assert r.returncode == 1 and "[Errno" not in r.stderr and "no such file or directory" in r.stderr
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    r = run("simulate", tw.GAMES[0], "--games", "10", "--out", str(blocker / "run"))
    assert r.returncode == 1 and "[Errno" not in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_huge_value_is_never_echoed_in_full() -> None:
    """A value 100,000 characters long given on the command line is cut in every message, which names the flag."""
    huge = "x" * 100_000  # (the longest argument a process may be given is 128 KiB)
    for args in (("simulate", tw.GAMES[0], "--seed", huge), ("simulate", tw.GAMES[0], "--option", huge),
                 ("simulate", tw.GAMES[0], "--option", f"{huge}=1"), ("simulate", huge),
                 ("simulate", tw.GAMES[0], "--agents", f"{huge},random"),
                 ("play", tw.GAMES[0], "--opponents", huge)):
        r = run(*args)
        assert r.returncode == 2 and len(r.stderr) < 5000 and "Traceback" not in r.stderr, (args[:3], r.stderr[:300])
        flag = next((a for a in args if a.startswith("--")), "GAME")
        assert flag in r.stderr or "game" in r.stderr, r.stderr[-300:]
