"""The terminal game (``tradewinds play``) and the record viewer (``tradewinds replay``).

A game is told through its log (:meth:`State.log`): every move, chance outcomes included,
as a sentence, showing the player's seat only what that seat may see.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import Game, IllegalActionError, State, TradewindsError, replay
from ._core import CHANCE
from ._play import mix_seed

__all__ = ["fresh_seed", "play", "view_record"]

COMMANDS = """\
Commands:
  NUMBER or NAME  make that move (names ignore case)
  help, ?         your moves now and what each does, and these commands
  rules           how to play
  legend          the move names and the notation on screen
  log             the whole game so far, as you saw it
  look            the table again
  undo            take back your last move (and the opponents' moves since)
  save FILE       write the game's record to FILE (replay it with: tradewinds replay FILE)
  load FILE       continue the game recorded in FILE
  q               quit"""


def fresh_seed() -> int:
    """A seed for a game nobody asked to repeat: from the operating system's randomness."""
    return random.SystemRandom().randrange(2**64)


def log_lines(entries: Sequence[tuple[int, int, str]]) -> list[str]:
    """Log entries as lines; a run of identical sentences (the setup's face-down deal) is one
    line with its count."""
    lines: list[str] = []
    i = 0
    while i < len(entries):
        j = i
        while j + 1 < len(entries) and entries[j + 1][2] == entries[i][2]:
            j += 1
        text = entries[i][2]
        lines.append(f"  {text}" if j == i else f"  {text} (x{j - i + 1})")
        i = j + 1
    return lines


@dataclass
class _Table:
    """The game in progress at the terminal: the state, what the seat has been shown of its
    log, and the positions to go back to with ``undo``."""

    game: Game
    seat: int
    opponents: dict[int, str]
    seed: int
    reveal: bool
    out: Callable[[str], None]
    state: State
    shown: int = 0
    undo: list[tuple[State, int]] = field(default_factory=list)

    def news(self) -> None:
        """Prints what happened since it last printed."""
        entries = self.state.log(self.seat)
        new = entries[self.shown:]
        self.shown = len(entries)
        if new:
            self.out("\n".join(log_lines(new)))

    def look(self) -> None:
        if self.reveal:
            self.out("--- the whole table (--reveal) ---")
            self.out(self.state.render().rstrip("\n"))
        self.out(f"--- what P{self.seat} sees ---")
        self.out(self.state.observation_string(self.seat).rstrip("\n"))
        self.out("legal moves:")
        for i, a in enumerate(self.state.legal_actions()):
            self.out(f"  {i:>3}: {self.state.action_to_string(a)}")

    def help(self) -> None:
        self.out("Your moves now (type the number or the name), and what each does:")
        at = self.state.move_number
        for i, a in enumerate(self.state.legal_actions()):
            told = self.state.child(a).log(self.seat)[at][2]
            self.out(f"  {i:>3}: {self.state.action_to_string(a)}: {told}")
        self.out(COMMANDS)

    def advance(self, chance: random.Random) -> None:
        """Plays chance and the opponents until the seat's turn or the end."""
        while not self.state.is_terminal:
            player = self.state.current_player
            if player == CHANCE:
                outcomes = self.state.chance_outcomes()
                self.state.apply(chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
            elif player != self.seat:
                spec = self.opponents[player]
                self.state.apply(self.state.agent_action(spec, mix_seed(self.seed, self.state.move_number)))
            else:
                return

    def save(self, path: str) -> None:
        Path(path).write_text(self.state.record() + "\n", encoding="utf-8")
        self.out(f"saved the game's record to {path} (step through it with: tradewinds replay {path})")

    def load(self, path: str) -> None:
        loaded = replay(Path(path))
        if loaded.game != self.game:
            raise TradewindsError(
                f"{path} records a game of {loaded.game.name} with options {loaded.game.options}, not "
                f"{self.game.name} with {self.game.options}: start tradewinds play with those"
            )
        self.state = loaded
        self.undo.clear()
        self.shown = max(0, self.state.move_number - 10)
        self.out(f"loaded {path}: move {self.state.move_number}; its last moves:")


def play(
    game: Game,
    seat: int,
    opponents: dict[int, str],
    seed: int,
    reveal: bool = False,
    record: str | None = None,
    read: Callable[[str], str] | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Plays ``game`` at the terminal: the person at seat ``seat`` against built-in agents
    (``opponents``: a spec per other seat), chance drawn from ``seed``. ``read`` reads a line
    (``input`` by default), ``out`` prints one."""
    read = read if read is not None else input
    table = _Table(game, seat, opponents, seed, reveal, out, game.new_state(seed))
    chance = random.Random(seed)
    out("Type a move's number or its name; help (or ?) lists your moves and what they do, and the commands.")
    try:
        while True:
            table.advance(chance)
            table.news()
            if table.state.is_terminal:
                break
            out("")
            table.look()
            legal = table.state.legal_actions()
            while True:
                try:
                    line = read(f"P{seat} move> ").strip()
                except EOFError:
                    out("")
                    out("end of input: quitting")
                    return 0
                if not sys.stdin.isatty():
                    out(line)  # echo scripted input, so the transcript reads like a session
                word, _, rest = line.partition(" ")
                command = word.lower()
                if command in ("q", "quit", "exit"):
                    out("quitting")
                    return 0
                if not line:
                    continue
                try:
                    if command in ("help", "?"):
                        table.help()
                    elif command == "rules":
                        out(game.how_to_play.rstrip("\n"))
                    elif command == "legend":
                        out(game.notation.rstrip("\n"))
                    elif command == "log":
                        out("\n".join(log_lines(table.state.log(seat))))
                    elif command == "look":
                        table.look()
                    elif command == "undo":
                        if not table.undo:
                            out("nothing to undo: this is your first move (or the game was just loaded)")
                            continue
                        table.state, table.shown = table.undo.pop()
                        out(f"undone: back to your move at move {table.state.move_number}")
                        table.look()
                    elif command in ("save", "load") and not rest.strip():
                        out(f"{command} needs a file name: {command} FILE")
                    elif command == "save":
                        table.save(rest.strip())
                    elif command == "load":
                        table.load(rest.strip())
                        break
                    else:
                        before = table.state.clone()
                        if line.isdigit() and int(line) < len(legal):
                            table.state.apply(legal[int(line)])
                        else:
                            table.state.apply(line)
                        table.undo.append((before, table.shown))
                        break
                except IllegalActionError as e:
                    if line.isdigit():
                        out(f"no move is numbered {line}: the numbers run 0..{len(legal) - 1}")
                    else:
                        out(f"not a legal move: {e} (help lists the moves and the commands)")
                except (TradewindsError, OSError) as e:
                    out(f"cannot {command}: {e}")
        out("")
        out(str(table.state).rstrip("\n"))
        out(str(table.state.score_report()).rstrip("\n"))
        return 0
    finally:
        if record:
            Path(record).write_text(table.state.record() + "\n", encoding="utf-8")
            out(f"the game's record is in {record} (step through it with: tradewinds replay {record})")


VIEWER_HELP = """\
Enter or n: next move; b: back one move; g N: go to move N; s: the start; e: the end;
seat N: see as seat N; all: see everything; q: quit."""


def view_record(
    text: str,
    seat: int | None,
    start: int | None = None,
    print_all: bool = False,
    read: Callable[[str], str] | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Steps through a game record, forwards and backwards, as seat ``seat`` sees it or (None)
    as a spectator who sees everything. ``print_all`` prints the whole log and the end instead."""
    read = read if read is not None else input
    final = replay(text)
    game = final.game
    total = final.move_number
    if seat is not None and not 0 <= seat < game.players:
        raise ValueError(f"--seat must be in 0..{game.players - 1}, got {seat}")
    logs: dict[int | None, list[tuple[int, int, str]]] = {}

    def log_of(view: int | None) -> list[tuple[int, int, str]]:
        if view not in logs:
            logs[view] = final.log(view)
        return logs[view]

    def who(view: int | None) -> str:
        return "everything" if view is None else f"what P{view} sees"

    out(f"{game.title} ({game.name}), {game.players} player{'' if game.players == 1 else 's'}: "
        f"{total} moves recorded{'' if final.seed is None else f', seed {final.seed}'}.")
    if print_all:
        out(f"--- the game, {who(seat)} ---")
        out("\n".join(log_lines(log_of(seat))))
        out(str(final).rstrip("\n"))
        out(str(final.score_report()).rstrip("\n"))
        return 0
    out(VIEWER_HELP)
    at = total if start is None else max(0, min(total, start))
    view = seat
    while True:
        state = final if at == total else replay(text, at)
        out("")
        out(f"--- move {at} of {total}, {who(view)} ---")
        entries = log_of(view)[max(0, at - 6):at]
        for i, (_, _, sentence) in enumerate(entries):
            out(("> " if i == len(entries) - 1 else "  ") + sentence)
        out((state.render() if view is None else state.observation_string(view)).rstrip("\n"))
        if state.is_terminal:
            out(str(state.score_report()).rstrip("\n"))
        try:
            line = read("replay> ").strip().lower()
        except EOFError:
            out("")
            return 0
        if not sys.stdin.isatty():
            out(line)
        word, _, rest = line.partition(" ")
        if word in ("q", "quit", "exit"):
            return 0
        if word in ("", "n", "next"):
            at = min(total, at + 1)
        elif word in ("b", "back"):
            at = max(0, at - 1)
        elif word == "s":
            at = 0
        elif word == "e":
            at = total
        elif word == "g" and rest.strip().isdigit():
            at = min(total, int(rest))
        elif word == "seat" and rest.strip().isdigit() and int(rest) < game.players:
            view = int(rest)
        elif word == "all":
            view = None
        else:
            out(VIEWER_HELP)
