"""The terminal game and the record viewer, driven through a pseudo-terminal (pexpect) as a
person would: a full game of North Wind followed from its log, every command of the game, and
stepping through a record."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tradewinds as tw
from tradewinds._terminal import log_lines, plain_text, play

pexpect = pytest.importorskip("pexpect")


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "tradewinds", *args], encoding="utf-8", timeout=120,
                         dimensions=(50, 200))


def test_a_full_game_of_north_wind_tells_every_event_its_seat_may_see(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "north-wind", "--players", "2", "--seed", "11", "--record", str(record))
    out = []
    while child.expect(["P0 move> ", "game over> "]) == 0:
        out.append(child.before)
        child.sendline("0")
    out.append(child.before)
    child.sendline("")
    child.expect(pexpect.EOF)
    out.append(child.before)
    child.close()
    assert child.exitstatus == 0
    text = "".join(out).replace("\r\n", "\n")
    assert len(out) > 20 and "seed 11" in text
    final = tw.replay(record)
    assert final.is_terminal and "total" in text
    # Every sentence of the seat's log was shown, chance included ...
    seen = final.log(0)
    assert any(p == tw.CHANCE for _, p, _ in seen)
    for line in log_lines(seen):
        assert line in text, line
    # ... and none that the seat may not see.
    hidden = {t for _, _, t in final.log()} - {t for _, _, t in seen}
    assert hidden, "the deal is hidden from the seats"
    for sentence in hidden:
        assert sentence not in text


def test_help_rules_legend_undo_save_and_load_in_a_game(tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    child = spawn("play", "regatta", "--option", "players=2", "--seed", "4")
    child.expect(r"seed 4 \(the same deal again: --seed 4\)")
    child.expect("P0 move> ")
    child.sendline("help")
    child.expect("what each does")
    child.expect(re.escape("0: set sails to 1: P0 sets sails to 1 in secret."))
    child.expect("undo")
    child.expect("P0 move> ")
    child.sendline("?")
    child.expect("Commands:")
    child.expect("P0 move> ")
    child.sendline("rules")
    child.expect("Race your boat")
    child.expect("P0 move> ")
    child.sendline("legend")
    child.expect("Moves: set sails to 1")
    child.expect("P0 move> ")
    child.sendline("undo")
    child.expect("nothing to undo")
    child.expect("P0 move> ")
    child.sendline("sail away")
    child.expect("not a legal move")
    child.expect("P0 move> ")
    child.sendline("2")
    # The opponent's secret choice is told without its value; then the wind reveals all.
    child.expect(re.escape("P1 sets sails in secret."))
    child.expect("The wind blows")
    child.expect("P0 move> ")
    child.sendline("save " + str(saved))
    child.expect("saved the game's record")
    child.expect("P0 move> ")
    child.sendline("0")
    child.expect("P0 move> ")
    child.sendline("undo")
    child.expect("undone: back to your move at move 3")
    child.expect("P0 move> ")
    child.sendline("load " + str(saved))
    child.expect("loaded .*: move 3")
    child.expect("P0 move> ")
    child.sendline("log")
    child.expect(re.escape("P0 sets sails to 3 in secret."))
    child.expect("P0 move> ")
    child.sendline("1")
    while child.expect(["P0 move> ", "game over> "]) == 0:
        child.sendline("1")
    assert re.search(r"The game is over: P0 \d+, P1 \d+; ", child.before) and "total" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert tw.replay(saved).move_number == 3


def test_a_game_without_a_seed_gets_a_fresh_one_and_prints_it() -> None:
    seeds = set()
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "tradewinds", "play", "regatta", "--option", "players=2"],
                           input="q\n", capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        seeds.add(re.search(r"seed (\d+) \(the same deal again", r.stdout).group(1))
    assert len(seeds) == 2


def test_a_record_is_stepped_through_forwards_and_backwards_for_one_seat_or_all(tmp_path: Path) -> None:
    game = tw.load("north-wind", players=2)
    state = game.new_state(9)
    while state.move_number < 60:
        state.apply(state.legal_actions()[-1])
    path = tmp_path / "r.json"
    path.write_text(state.record(), encoding="utf-8")
    total = state.move_number
    child = spawn("replay", str(path), "--seat", "1")
    child.expect(f"--- move {total} of {total}, what P1 sees ---")
    child.expect("replay> ")
    child.sendline("s")
    child.expect(f"--- move 0 of {total}, what P1 sees ---")
    child.expect("replay> ")
    child.sendline("")
    child.expect(f"--- move 1 of {total}")
    child.expect(re.escape("> Setup: a sea card is dealt face down to a stack."))
    child.expect("replay> ")
    child.sendline("all")
    child.expect(f"--- move 1 of {total}, everything ---")
    child.expect(r"> Setup: .* is dealt face down to the \w+ stack\.")
    child.expect("replay> ")
    child.sendline("g 40")
    child.expect(f"--- move 40 of {total}, everything ---")
    child.expect(re.escape("> " + state.log()[39][2]))
    child.expect("replay> ")
    child.sendline("b")
    child.expect(f"--- move 39 of {total}")
    child.expect("replay> ")
    child.sendline("seat 0")
    child.expect(f"--- move 39 of {total}, what P0 sees ---")
    child.expect("You are P0")
    child.expect("replay> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    printed = subprocess.run([sys.executable, "-m", "tradewinds", "replay", str(path), "--print"],
                             capture_output=True, text=True, timeout=120)
    assert printed.returncode == 0, printed.stderr
    for line in log_lines(state.log()):
        assert line in printed.stdout
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "tradewinds", "replay", str(bad)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1 and "cannot replay game record" in r.stderr and "Traceback" not in r.stderr


def test_file_errors_in_play_are_messages_and_the_game_goes_on(tmp_path: Path) -> None:
    picture = tmp_path / "out.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\xde\xad\xbe\xef")
    child = spawn("play", "regatta", "--option", "players=2", "--seed", "4")
    said = []
    for command in (f"load {picture}", f"load {tmp_path}", f"load {tmp_path / 'missing.json'}",
                    f"save {tmp_path / 'no-such-dir' / 'x.json'}", f"save {tmp_path}"):
        child.expect("P0 move> ")
        child.sendline(command)
        child.expect(r"cannot (load|save) [^\r\n]*")
        said.append(child.after)
    child.expect("P0 move> ")
    child.sendline("0")
    child.expect("P0 move> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "not a game record: it is not text" in said[0] and "no such file or directory" in said[2]
    for message in said:
        assert "Errno" not in message and "codec" not in message, message


def test_replay_file_errors_are_messages_and_a_bad_seat_is_a_usage_error(tmp_path: Path) -> None:
    picture = tmp_path / "out.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\xde\xad\xbe\xef")
    for path in (picture, tmp_path, tmp_path / "missing.json"):
        r = subprocess.run([sys.executable, "-m", "tradewinds", "replay", str(path)], capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 1 and r.stderr.startswith("tradewinds: error: "), r.stderr
        assert "Errno" not in r.stderr and "codec" not in r.stderr and "Traceback" not in r.stderr
    record = tmp_path / "r.json"
    record.write_text(tw.load("regatta", players=2).new_state(1).record(), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "tradewinds", "replay", str(record), "--seat", "4294967296"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--seat must be in 0..1" in r.stderr and "Traceback" not in r.stderr


def test_messages_name_no_32_bit_ranges(tmp_path: Path) -> None:
    state = tw.load("regatta", players=2).new_state(1)
    record = json.loads(state.record())
    record["format"] = 2**40
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    said: list[str] = []
    lines = iter([f"load {bad}", "q"])
    assert play(state.game, 0, {1: "random"}, 1, read=lambda _: next(lines), out=said.append) == 0
    (message,) = [line for line in said if line.startswith("cannot load")]
    assert "format" in message and "4294967295" not in message
    r = subprocess.run([sys.executable, "-m", "tradewinds", "play", "regatta", "--seed", str(2**64)],
                       input="q\n", capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--seed must be an integer in [0, 2**64 - 1]" in r.stderr


def test_the_record_file_is_checked_at_the_start(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "tradewinds", "play", "regatta", "--option", "players=2",
                        "--record", str(tmp_path / "no-such-dir" / "x.json")],
                       input="0\n" * 30, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "move>" not in r.stdout
    assert r.stderr == f"tradewinds: error: no such file or directory: {tmp_path / 'no-such-dir' / 'x.json'}\n"
    # A record that can no longer be written at the end is said, with exit status 1.
    folder = tmp_path / "gone"
    folder.mkdir()
    said: list[str] = []

    def read(prompt: str) -> str:
        folder.rmdir()
        return "q"

    game = tw.load("regatta", players=2)
    assert play(game, 0, {1: "random"}, 1, record=str(folder / "x.json"), read=read, out=said.append) == 1
    assert said[-1].startswith(f"cannot write the game's record to {folder / 'x.json'}: no such file")


def test_save_is_offered_when_the_game_ends(tmp_path: Path) -> None:
    saved = tmp_path / "end.json"
    child = spawn("play", "regatta", "--option", "players=2", "--seed", "4")
    while child.expect(["P0 move> ", "game over> "]) == 0:
        child.sendline("2")
    assert "The game is over: save FILE keeps its record" in child.before
    child.sendline(f"save {saved}")
    child.expect("saved the game's record")
    child.expect("game over> ")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and tw.replay(saved).is_terminal


def test_the_screen_shows_what_changed_and_enter_makes_the_only_move() -> None:
    game = tw.load("nauticus", players=2)
    said: list[str] = []
    turns: list[int] = []
    lines = ["0", "look"]

    def read(prompt: str) -> str:
        turns.append(len(said))
        if lines:
            return lines.pop(0)
        if any("your only move" in line for line in said[-2:]):
            lines.extend(["", "q"])  # Enter makes the only move, then quit at the next prompt
            return lines.pop(0)
        return "0"

    assert play(game, 0, {1: "random"}, 3, read=read, out=said.append) == 0
    first = "\n".join(said[:turns[0]])
    second = "\n".join(said[turns[0]:turns[1]])
    looked = "\n".join(said[turns[1]:turns[2]])
    assert "--- what P0 sees ---" in first and "--- what P0 sees ---" not in second
    assert "--- what changed for P0 (look: the whole table) ---" in second
    assert "--- what P0 sees ---" in looked and len(looked.splitlines()) > len(second.splitlines()) - 3
    # The only move was made with Enter: the game went on to the next prompt.
    (enter,) = [i for i, n in enumerate(turns) if i > 1 and "your only move" in "\n".join(said[turns[i - 1]:n])][:1]
    assert said[-1] == "quitting" and len(turns) > enter + 1


def test_rules_print_no_markdown() -> None:
    text = plain_text("# How to play\n\nA **bold** and *soft* word, `code`, [a link](https://x.y).\n"
                      "- one\n  - two\n\n| kind | points |\n|---|--:|\n| ship | 3 |\n| farm | 10 |\n")
    assert text.splitlines() == [
        "How to play", "-----------", "", "A bold and soft word, code, a link (https://x.y).", "• one", "  • two", "",
        "kind  points", "ship  3", "farm  10",
    ]
    for name in (*tw.GAMES, "regatta"):
        game = tw.load(name)
        said: list[str] = []
        lines = iter(["rules", "q"])
        play(game, 0, {p: "random" for p in range(1, game.players)}, 1, read=lambda _: next(lines), out=said.append)
        assert plain_text(game.how_to_play) in said, name
        printed = "\n".join(said)
        for mark in ("**", "`", "\n#", "|---"):
            assert mark not in printed, (name, mark)


def test_a_games_views_are_commands_and_show_only_what_the_seat_may_see() -> None:
    # Mistwind's map: listed by help, printed by its name, the seat's own network cards
    # shown and the others' face down.
    game = tw.load("mistwind", players=3)
    said: list[str] = []
    lines = iter(["help", "map", "q"])
    play(game, 0, {1: "random", 2: "random"}, 5, read=lambda _: next(lines), out=said.append)
    printed = "\n".join(said)
    assert "This game's views (type the name):" in printed and "\n  map  " in printed
    state = game.new_state(5)
    assert state.current_player == 0, "P0 places the first whale: nobody has moved yet"
    shown = state.view("map", 0)
    assert shown.rstrip("\n") in printed
    assert "green region (capital Mossgate)" in shown and "Fernwick (coal): to " in shown
    assert "P1's network cards: [easy (face down); medium (face down); hard (face down)]" in shown
    assert state.view("map") != shown, "a spectator sees every seat's network cards"
    # A game without views lists none; an unknown view is an error naming the views.
    assert tw.load("north-wind").new_state(1).views() == []
    with pytest.raises(tw.TradewindsError, match="its views: map"):
        state.view("atlas")
