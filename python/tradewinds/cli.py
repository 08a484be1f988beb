"""The ``tradewinds`` command line: list games, run bulk simulations, play in the terminal."""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

from . import GAMES, Game, IllegalActionError, State, TradewindsError, load, simulate
from .simulation import ProgressBar


class _UsageError(Exception):
    pass


def _parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``key=value`` pairs; a value that parses as JSON (3, true, [1, 2]) is taken as such,
    anything else as a string (a file path, a name)."""
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise _UsageError(f"--option needs KEY=VALUE, got {pair!r}")
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[key] = value
    return options


def _load_game(args: argparse.Namespace) -> Game:
    options = _parse_options(args.option)
    if args.players is not None:
        if "players" in options and options["players"] != args.players:
            raise _UsageError("--players and --option players=... disagree")
        options["players"] = args.players
    return load(args.game, **options)


def _cmd_games(args: argparse.Namespace) -> int:
    for name in GAMES:
        try:
            game = load(name)
            print(f"{name}  (default: {game.players} players)")
        except TradewindsError:
            print(name)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 0:
        raise _UsageError(f"--games must be >= 0, got {args.games}")
    if args.threads < 0:
        raise _UsageError(f"--threads must be >= 0 (0 = all cores), got {args.threads}")
    game = _load_game(args)
    bar = ProgressBar(args.games, sys.stderr) if sys.stderr.isatty() else None
    # The simulation runs in Rust without the GIL, where Python's own Ctrl-C handler cannot
    # run until it ends: let Ctrl-C end the process at once instead.
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        result = simulate(game, args.games, seed=args.seed, threads=args.threads,
                          progress=bar.update if bar is not None else False)
    finally:
        if bar is not None:
            bar.close()
        if restore is not None:
            signal.signal(signal.SIGINT, restore)
    print(result.summary(), end="")
    if args.save:
        path = result.save(args.save)
        print(f"saved to {path}")
    return 0


def _choose_random(state: State, rng: random.Random) -> int:
    if state.is_chance:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def _cmd_play(args: argparse.Namespace) -> int:
    game = _load_game(args)
    if not 0 <= args.seat < game.players:
        raise _UsageError(f"--seat must be in 0..{game.players - 1}, got {args.seat}")
    rng = random.Random(args.seed)
    state = game.new_state(args.seed)
    seat = args.seat
    print(f"{game.name}, {game.players} players; you are P{seat}; the others play uniformly at random.")
    print("Enter a move's number or its name; q quits.")
    while not state.is_terminal:
        player = state.current_player
        if player != seat:
            action = _choose_random(state, rng)
            who = "chance" if state.is_chance else f"P{player}"
            print(f"{who}: {state.action_to_string(action)}")
            state.apply(action)
            continue
        print()
        print(str(state))
        print(f"--- what P{seat} sees ---")
        print(state.observation_string(seat))
        legal = state.legal_actions()
        print("legal moves:")
        for i, a in enumerate(legal):
            print(f"  {i:>3}: {state.action_to_string(a)}")
        while True:
            try:
                line = input(f"P{seat} move> ").strip()
            except EOFError:
                print()
                print("end of input: quitting")
                return 0
            if not sys.stdin.isatty():
                print(line)  # echo scripted input, so the transcript reads like a session
            if line.lower() in ("q", "quit", "exit"):
                print("quitting")
                return 0
            if not line:
                continue
            try:
                if line.isdigit() and int(line) < len(legal):
                    state.apply(legal[int(line)])
                else:
                    state.apply(line)
                break
            except IllegalActionError as e:
                if line.isdigit():
                    print(f"no move is numbered {line}: the numbers run 0..{len(legal) - 1}")
                else:
                    print(f"not a legal move: {e}")
    print()
    print(str(state))
    print(state.score_report())
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tradewinds", description="Rules-complete engines for nautical trading board games."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p_games = sub.add_parser("games", help="list the games present")
    p_games.set_defaults(func=_cmd_games)

    def add_game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(GAMES))
        p.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
        p.add_argument("--seed", type=int, default=0, help="seed, an integer in [0, 2**64 - 1] (default 0)")
        p.add_argument(
            "--option", action="append", metavar="KEY=VALUE",
            help="a game option (repeatable); VALUE is read as JSON when it parses, else as text "
                 "(e.g. --option data=my-components.json)",
        )

    p_sim = sub.add_parser("simulate", help="play many games with random players and summarise them")
    add_game_args(p_sim)
    p_sim.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    p_sim.add_argument("--threads", type=int, default=0, help="worker threads (default 0 = all cores)")
    p_sim.add_argument("--save", metavar="PATH", help="also save the per-game results (.npz)")
    p_sim.set_defaults(func=_cmd_simulate)

    p_play = sub.add_parser("play", help="play in the terminal against random opponents")
    add_game_args(p_play)
    p_play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p_play.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (0 success, 1 error, 2 usage)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except _UsageError as e:
        parser.error(str(e))
    except (TradewindsError, ValueError, OSError) as e:
        print(f"tradewinds: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return 0  # unreachable: parser.error exits


if __name__ == "__main__":
    sys.exit(main())
