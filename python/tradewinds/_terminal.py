"""The terminal game (``tradewinds play``) and the record viewer (``tradewinds replay``).

A game is told through its log (:meth:`State.log`): every move, chance outcomes included,
as a sentence, showing the player's seat only what that seat may see.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import Game, IllegalActionError, State, TradewindsError, replay
from ._core import CHANCE, derive_seed
from ._messages import error_text

__all__ = ["SeatError", "fresh_seed", "play", "plain_text", "read_record", "view_record", "write_record"]

COMMANDS = """\
Commands:
  NUMBER or NAME  make that move (names ignore case)
  help, ?         your moves now and what each does, and these commands
  rules           how to play
  legend          the move names and the notation on screen
  log             the whole game so far, as you saw it
  look            the table again
  Enter           make the only legal move, when there is just one
  undo            take back your last move (and the opponents' moves since)
  save FILE       write the game's record to FILE (replay it with: tradewinds replay FILE)
  load FILE       continue the game recorded in FILE
  q               quit"""


class SeatError(ValueError):
    """A seat the game does not have, asked for on the command line."""


def read_record(path: str | Path) -> str:
    """The text of the game record in the file ``path``; a file that is not text is a
    :class:`TradewindsError` that says so."""
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TradewindsError(f"{path} is not a game record: it is not text (UTF-8)") from None


def write_record(path: str | Path, state: State) -> None:
    """Writes ``state``'s game record to the file ``path``."""
    Path(path).write_text(state.record() + "\n", encoding="utf-8")


def _inline(text: str) -> str:
    text = re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r"\1 (\2)", text)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    text = re.sub(r"(\*\*|__)(\S(?:.*?\S)?)\1", r"\2", text)
    return re.sub(r"(?<![\w*])([*_])(\S(?:[^*_]*?\S)?)\1(?![\w*])", r"\2", text)


def plain_text(markdown: str) -> str:
    """Markdown as plain terminal text: headings as their text (underlined), emphasis and code
    as their words, list items with bullets, tables as aligned columns."""
    out: list[str] = []
    table: list[list[str]] = []

    def flush() -> None:
        if table:
            widths = [max(len(row[i]) if i < len(row) else 0 for row in table) for i in range(max(map(len, table)))]
            out.extend("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table)
            table.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = [c.strip() for c in stripped[1:-1].split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                table.append([_inline(c) for c in cells])
            continue
        flush()
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*$", stripped)
        if heading:
            title = _inline(heading.group(1))
            out += [title, "-" * len(title)]
            continue
        item = re.match(r"(\s*)[-*+]\s+(.*)", line)
        if item:
            out.append(f"{item.group(1)}• {_inline(item.group(2))}")
            continue
        out.append(_inline(line))
    flush()
    return "\n".join(out)


def _columns(items: Sequence[str], width: int = 100) -> list[str]:
    """``items`` side by side in columns, as many as fit in ``width`` characters."""
    if not items:
        return []
    cell = max(map(len, items)) + 2
    per_line = max(1, width // cell)
    rows = (len(items) + per_line - 1) // per_line
    return ["".join(items[r + c * rows].ljust(cell) for c in range(per_line) if r + c * rows < len(items)).rstrip()
            for r in range(rows)]


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
    #: The table as last printed (with --reveal, the whole table too).
    seen: list[str] = field(default_factory=list)

    def news(self) -> None:
        """Prints what happened since it last printed."""
        entries = self.state.log(self.seat)
        new = entries[self.shown:]
        self.shown = len(entries)
        if new:
            self.out("\n".join(log_lines(new)))

    def view(self) -> list[str]:
        lines = []
        if self.reveal:
            lines.append("--- the whole table (--reveal) ---")
            lines += self.state.render().rstrip("\n").splitlines()
        lines.append(f"--- what P{self.seat} sees ---")
        lines += self.state.observation_string(self.seat).rstrip("\n").splitlines()
        return lines

    def look(self) -> None:
        """The whole table, then the legal moves."""
        self.seen = self.view()
        self.out("\n".join(self.seen))
        self.moves()

    def turn(self) -> None:
        """What changed on the table since it was last printed (the table is printed whole
        with ``look``), then the legal moves."""
        now = self.view()
        if not self.seen:
            self.seen = now
            self.out("\n".join(now))
        else:
            before = set(self.seen)
            changed = [line for line in now if line not in before and not line.startswith("---")]
            self.seen = now
            self.out(f"--- what changed for P{self.seat} (look: the whole table) ---")
            self.out("\n".join(changed) if changed else "  (nothing you can see)")
        self.moves()

    def moves(self) -> None:
        legal = self.state.legal_actions()
        if len(legal) == 1:
            self.out(f"your only move: {self.state.action_to_string(legal[0])} (Enter makes it)")
            return
        self.out("legal moves:")
        self.out("\n".join(_columns([f"  {i:>3}: {self.state.action_to_string(a)}" for i, a in enumerate(legal)])))

    def help(self) -> None:
        self.out("Your moves now (type the number or the name), and what each does:")
        at = self.state.move_number
        for i, a in enumerate(self.state.legal_actions()):
            told = self.state.child(a).log(self.seat)[at][2]
            self.out(f"  {i:>3}: {self.state.action_to_string(a)}: {told}")
        self.out(COMMANDS)
        views = self.state.views()
        if views:
            self.out("This game's views (type the name):")
            width = max(len(name) for name, _ in views)
            self.out("\n".join(f"  {name.ljust(max(width, 14))}  {what}" for name, what in views))

    def show_view(self, name: str) -> None:
        """The game's view ``name`` (one of :meth:`State.views`), as the seat may see it."""
        self.out(self.state.view(name, self.seat).rstrip("\n"))

    def advance(self, chance: random.Random) -> None:
        """Plays chance and the opponents until the seat's turn or the end."""
        while not self.state.is_terminal:
            player = self.state.current_player
            if player == CHANCE:
                outcomes = self.state.chance_outcomes()
                self.state.apply(chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0])
            elif player != self.seat:
                spec = self.opponents[player]
                self.state.apply(self.state.agent_action(spec, derive_seed(self.seed, self.state.move_number)))
            else:
                return

    def save(self, path: str) -> None:
        write_record(path, self.state)
        self.out(f"saved the game's record to {path} (step through it with: tradewinds replay {path})")

    def load(self, path: str) -> None:
        loaded = replay(read_record(path))
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
    (``input`` by default), ``out`` prints one. ``record``: a file the game's record is
    written to when the session ends. Returns the exit status: 1 when that file cannot be
    written, else 0."""
    read = read if read is not None else input
    table = _Table(game, seat, opponents, seed, reveal, out, game.new_state(seed))
    try:
        _session(table, random.Random(seed), read)
    except BaseException:
        _keep_record(table, record)
        raise
    return 0 if _keep_record(table, record) else 1


def _keep_record(table: _Table, record: str | None) -> bool:
    """Writes the game's record to ``record`` (if given); says so, or why it could not."""
    if not record:
        return True
    try:
        write_record(record, table.state)
    except OSError as e:
        table.out(f"cannot write the game's record to {record}: {error_text(e)}")
        return False
    table.out(f"the game's record is in {record} (step through it with: tradewinds replay {record})")
    return True


def _read(table: _Table, read: Callable[[str], str], prompt: str) -> str | None:
    """A line from the person (echoed when scripted), or None at the end of input."""
    try:
        line = read(prompt).strip()
    except EOFError:
        table.out("")
        table.out("end of input: quitting")
        return None
    if not sys.stdin.isatty():
        table.out(line)  # echo scripted input, so the transcript reads like a session
    return line


def _file_command(table: _Table, command: str, rest: str) -> bool:
    """``save FILE`` or ``load FILE``: True when done; a file that cannot be used is said,
    and the game goes on."""
    if not rest.strip():
        table.out(f"{command} needs a file name: {command} FILE")
        return False
    try:
        (table.save if command == "save" else table.load)(rest.strip())
    except (TradewindsError, ValueError, OSError) as e:
        table.out(f"cannot {command} {rest.strip()}: {error_text(e)}")
        return False
    return True


def _session(table: _Table, chance: random.Random, read: Callable[[str], str]) -> None:
    out, seat, game = table.out, table.seat, table.game
    out("Type a move's number or its name; help (or ?) lists your moves and what they do, and the commands.")
    while True:
        table.advance(chance)
        table.news()
        if table.state.is_terminal:
            break
        out("")
        table.turn()
        legal = table.state.legal_actions()
        while True:
            line = _read(table, read, f"P{seat} move> ")
            if line is None:
                return
            word, _, rest = line.partition(" ")
            command = word.lower()
            if command in ("q", "quit", "exit"):
                out("quitting")
                return
            if not line:
                if len(legal) == 1:
                    line = "0"
                else:
                    continue
            try:
                if command in ("help", "?"):
                    table.help()
                elif command == "rules":
                    out(plain_text(game.how_to_play).rstrip("\n"))
                elif command == "legend":
                    out(plain_text(game.notation).rstrip("\n"))
                elif command == "log":
                    out("\n".join(log_lines(table.state.log(seat))))
                elif command == "look":
                    table.look()
                elif command in (name for name, _ in table.state.views()) and not rest:
                    table.show_view(command)
                elif command == "undo":
                    if not table.undo:
                        out("nothing to undo: this is your first move (or the game was just loaded)")
                        continue
                    table.state, table.shown = table.undo.pop()
                    out(f"undone: back to your move at move {table.state.move_number}")
                    table.look()
                elif command == "save":
                    _file_command(table, command, rest)
                elif command == "load":
                    if _file_command(table, command, rest):
                        table.seen = []
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
                    out(f"not a legal move: {error_text(e)} (help lists the moves and the commands)")
            except (TradewindsError, OSError) as e:
                out(f"cannot {command}: {error_text(e)}")
    out("")
    out(str(table.state).rstrip("\n"))
    out(str(table.state.score_report()).rstrip("\n"))
    out("")
    out(GAME_OVER)
    while True:
        line = _read(table, read, "game over> ")
        if line is None:
            return
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("", "q", "quit", "exit"):
            return
        if command == "save":
            _file_command(table, command, rest)
        elif command == "log":
            out("\n".join(log_lines(table.state.log(seat))))
        else:
            out(GAME_OVER)


GAME_OVER = "The game is over: save FILE keeps its record (tradewinds replay FILE); log shows the game; Enter or q quits."


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
        raise SeatError(f"--seat must be in 0..{game.players - 1}, got {seat}")
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
