"""The terminal game and the record viewer, driven through a pseudo-terminal (pexpect) as a
person would: a full game of North Wind followed from its log, every command of the game, and
stepping through a record."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import tradewinds as tw
from tradewinds._terminal import log_lines

pexpect = pytest.importorskip("pexpect")


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "tradewinds", *args], encoding="utf-8", timeout=120,
                         dimensions=(50, 200))


def test_a_full_game_of_north_wind_tells_every_event_its_seat_may_see(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = spawn("play", "north-wind", "--players", "2", "--seed", "11", "--record", str(record))
    out = []
    while child.expect(["P0 move> ", pexpect.EOF]) == 0:
        out.append(child.before)
        child.sendline("0")
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
    while child.expect(["P0 move> ", pexpect.EOF]) == 0:
        child.sendline("1")
    assert "The race is over" in child.before and "total" in child.before
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
