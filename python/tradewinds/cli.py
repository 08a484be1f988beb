"""The ``tradewinds`` command line: list games, run bulk simulations, play in the terminal."""

from __future__ import annotations

import argparse
import importlib
import math
import re
import shlex
import importlib.util
import json
import signal
import sys
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import GAMES, Game, TradewindsError, __version__, data_text, load, record_html, replay, simulate
from .tournament import tournament
from .sweep import grid, sweep
from . import objectives
from .optimise import optimise
from .report import balance_report
from ._core import configurations
from ._core import options as options_of
from ._messages import error_text
from ._terminal import SeatError, fresh_seed, play, read_record, view_record, write_record
from .agents import BUILT_IN, Agent, canonical_spec, cut, parse_agent_list, shown
from .simulation import plot_format
from .streaming import directory_status, read_manifest


class _UsageError(Exception):
    pass


_MAX_SEED = (1 << 64) - 1
_MAX_GAMES = (1 << 63) - 1
#: The longest message the command line prints, and the longest word in it: a value given
#: on the command line (or read from a file) is never echoed in full when it is huge.
_MESSAGE_LIMIT = 4000
_WORD_LIMIT = 200


def _number(value: int) -> str:
    return str(value) if value.bit_length() < 200 else f"an integer of about {int(value.bit_length() * 0.30103):,} digits"


def _cut_message(text: str) -> str:
    """``text`` with every word longer than :data:`_WORD_LIMIT` characters cut (saying how
    long it was), and the whole cut to :data:`_MESSAGE_LIMIT` characters."""
    text = re.sub(r"\S{%d,}" % (_WORD_LIMIT + 1), lambda m: cut(m.group(0), _WORD_LIMIT // 2), text)
    return cut(text, _MESSAGE_LIMIT)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors (exit status 2) never echo a huge value in full."""

    def error(self, message: str) -> NoReturn:
        super().error(_cut_message(message))


def _parse_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``key=value`` pairs; a value that parses as JSON (3, true, [1, 2]) is taken as such,
    anything else as a string (a file path, a name)."""
    options: dict[str, Any] = {}
    for pair in pairs or ():
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise _UsageError(f"--option needs KEY=VALUE, got {shown(pair)}")
        try:
            value: Any = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[key] = value
    return options


def _load_game(args: argparse.Namespace, base: dict[str, Any] | None = None) -> Game:
    """The game named on the command line; ``base`` options (a resumed run's) fill in what
    ``--players`` and ``--option`` leave out."""
    options = dict(base or {})
    given = _parse_options(args.option)
    options.update(given)
    if args.players is not None:
        if "players" in given and given["players"] != args.players:
            raise _UsageError("--players and --option players=... disagree")
        options["players"] = args.players
    try:
        return load(args.game, **options)
    except (TradewindsError, ValueError, TypeError) as e:
        # What the command line named (the game, --players, --option) is not a game: its usage.
        raise _UsageError(str(e)) from None


def _option_text(options: dict[str, Any]) -> str:
    """A configuration as the ``--option KEY=VALUE`` pairs that select it."""
    return " ".join(f"{key}={json.dumps(value)}" for key, value in options.items())


def _player_counts(counts: Sequence[int]) -> str:
    """``[2, 3, 4]`` as "2-4", ``[1]`` as "1", ``[1, 3]`` as "1 or 3"."""
    counts = sorted(set(counts))
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    if len(counts) > 1:
        return f"{', '.join(map(str, counts[:-1]))} or {counts[-1]}"
    return str(counts[0])


def _cmd_games(args: argparse.Namespace) -> int:
    """Each listed game: its title, player counts and modes, its declared options, and with
    ``--configurations`` every configuration."""
    for i, name in enumerate(GAMES):
        if i:
            print()
        listed = configurations(name)
        declared = options_of(name)
        print(f"{name}: {load(name).title}")
        print(f"  players: {_player_counts([int(c['players']) for c in listed if 'players' in c])}")
        modes = [o for o in declared if o["configuration"] and o["name"] != "players"]
        if modes:
            print("  modes: " + "; ".join(f"{o['name']} ({o['allowed']}): {o['doc']}" for o in modes))
        else:
            print("  modes: none (one way to play)")
        if args.configurations:
            print(f"  configurations ({len(listed)}; --option KEY=VALUE):")
            for options in listed:
                print(f"    {_option_text(options)}")
        else:
            print(f"  configurations: {len(listed)} (list them: tradewinds games --configurations)")
        print("  options:")
        width = max(len(o["name"]) for o in declared)
        for o in declared:
            print(f"    {o['name']:<{width}}  {o['allowed']}: {o['doc']}")
    return 0


def _dask_client(address: str) -> Any:
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise _UsageError("--dask needs dask.distributed: install it with `pip install 'tradewinds[dask]'`") from None
    try:
        # The connection timeout is Dask's (configurable, e.g. DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT=10s).
        return distributed.Client(address)
    except (OSError, TimeoutError) as e:
        raise OSError(f"cannot connect to the Dask scheduler at {address}: {e}") from None


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.games is not None and not 0 <= args.games <= _MAX_GAMES:
        raise _UsageError(f"--games must be an integer in [0, 2**63 - 1], got {_number(args.games)}")
    if args.seed is not None and not 0 <= args.seed <= _MAX_SEED:
        raise _UsageError(f"--seed must be an integer in [0, 2**64 - 1], got {_number(args.seed)}")
    if args.threads < 0:
        raise _UsageError(f"--threads must be >= 0 (0 = all cores), got {args.threads}")
    if args.chunk_games is not None and args.chunk_games < 1:
        raise _UsageError(f"--chunk-games must be >= 1, got {args.chunk_games}")
    if args.resume and not args.out:
        raise _UsageError("--resume needs --out DIR, the directory of the run to resume")
    if args.repair and not args.out:
        raise _UsageError("--repair needs --out DIR, the directory of the run to repair")
    if args.plot:
        # Said before the run, not after it.
        if importlib.util.find_spec("matplotlib") is None:
            raise _UsageError("--plot needs matplotlib: install it with `pip install 'tradewinds[plot]'`")
        try:
            plot_format(args.plot)
        except ValueError as e:
            raise _UsageError(f"--plot: {e}") from None
    agents: list[Agent] | None = None
    if args.agents is not None:
        try:
            agents = list(parse_agent_list(args.agents))
        except ValueError as e:
            raise _UsageError(f"--agents: {e}") from None
    # Resuming: what the command leaves out comes from the directory's manifest; what it
    # gives must agree with it (tw.simulate names any disagreement).
    manifest = read_manifest(args.out) if args.out and (args.resume or args.repair) else None
    base = None
    games = args.games if args.games is not None else 10_000
    seed = args.seed if args.seed is not None else 0
    if manifest is not None:
        if manifest["game"] == args.game:
            base = {k: v for k, v in manifest["config"].items() if k != "game"}
        if args.games is None:
            games = int(manifest["games"])
        if args.seed is None:
            seed = int(manifest["seed"])
        if agents is None:
            if any(str(a).startswith("python:") for a in manifest["agents"]):
                raise _UsageError(
                    f"{args.out} was played with Python agents ({', '.join(manifest['agents'])}); "
                    f"{'repair' if args.repair else 'resume'} it from Python with the same agents: "
                    f"tw.simulate(..., out=DIR, {'repair' if args.repair else 'resume'}=True)"
                )
            agents = list(manifest["agents"])
    game = _load_game(args, base)
    if args.agents is not None and agents is not None:
        if len(agents) == 1:
            agents = agents * game.players
        if len(agents) != game.players:
            raise _UsageError(
                f"--agents: {len(agents)} agents for {game.players} seats: give one for every seat or one per "
                f"seat, comma-separated (e.g. --agents {','.join(['mcts'] + ['random'] * (game.players - 1))})"
            )
        agents = list(_checked_specs(game, [str(a) for a in agents], "--agents"))
    streaming = bool(args.out or args.dask)
    client = _dask_client(args.dask) if args.dask else None
    # A run in memory has nothing to lose: Ctrl-C ends the process at once. A streamed or
    # distributed run stops cleanly instead (cancelling cluster tasks, keeping finished chunks).
    # Either way the disposition is set here, so Ctrl-C works even where SIGINT was inherited
    # as ignored (as by commands started in the background).
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGINT, signal.default_int_handler if streaming else signal.SIG_DFL)
    try:
        result = simulate(
            game, games, seed=seed, threads=args.threads, agents=agents,
            progress=True, backend="dask" if client is not None else "local", client=client,
            chunk_games=args.chunk_games, out=args.out, resume=args.resume, repair=args.repair,
            # Only the summary is printed: the games stay in memory only for --save or --plot.
            keep_games=bool(args.save or args.plot),
        )
    except KeyboardInterrupt:
        if args.out and read_manifest(args.out) is not None:
            done, chunks, done_games = directory_status(args.out)
            print(f"\ninterrupted: {done} of {chunks} chunks ({done_games:,} games) are saved in {args.out}; "
                  "run the same command with --resume to finish", file=sys.stderr)
        raise
    finally:
        if restore is not None:
            signal.signal(signal.SIGINT, restore)
        if client is not None:
            client.close()
    print(result.summary(), end="")
    if result.repair is not None:
        print(result.repair)
    if args.out:
        print(f"results in {args.out} (load with tw.SimulationResult.load_dir)")
    if args.save:
        path = result.save(args.save)
        print(f"saved to {path}")
    if args.plot:
        path = result.plot(args.plot)
        print(f"figure written to {path}")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= _MAX_GAMES:
        raise _UsageError(f"--games must be an integer in [1, 2**63 - 1], got {_number(args.games)}")
    if args.seed is not None and not 0 <= args.seed <= _MAX_SEED:
        raise _UsageError(f"--seed must be an integer in [0, 2**64 - 1], got {_number(args.seed)}")
    if args.threads < 0:
        raise _UsageError(f"--threads must be >= 0 (0 = all cores), got {args.threads}")
    if args.resume and not args.out:
        raise _UsageError("--resume needs --out DIR, the directory of the tournament to resume")
    if args.plot:
        if importlib.util.find_spec("matplotlib") is None:
            raise _UsageError("--plot needs matplotlib: install it with `pip install 'tradewinds[plot]'`")
        try:
            plot_format(args.plot)
        except ValueError as e:
            raise _UsageError(f"--plot: {e}") from None
    try:
        specs = parse_agent_list(args.agents)
    except ValueError as e:
        raise _UsageError(f"--agents: {e}") from None
    game = _load_game(args)
    # Named as given on the command line, checked here so that a bad one is a usage error.
    agents = dict(zip(specs, _checked_specs(game, specs, "--agents")))
    if len(agents) < len(specs):
        raise _UsageError("--agents: an agent is named twice")
    client = _dask_client(args.dask) if args.dask else None
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGINT, signal.default_int_handler if args.out or client else signal.SIG_DFL)
    try:
        result = tournament(
            game, agents, args.games, seed=args.seed if args.seed is not None else 0, paired=not args.unpaired,
            threads=args.threads, backend="dask" if client is not None else "local", client=client,
            out=args.out, resume=args.resume, progress=True,
        )
    except KeyboardInterrupt:
        if args.out:
            print(f"\ninterrupted: the finished chunks are saved in {args.out}; run the same command with "
                  "--resume to finish", file=sys.stderr)
        raise
    finally:
        if restore is not None:
            signal.signal(signal.SIGINT, restore)
        if client is not None:
            client.close()
    print(result.summary(), end="")
    if args.out:
        print(f"results in {args.out} (one run directory per seating)")
    if args.plot:
        print(f"figure written to {result.plot(args.plot)}")
    return 0


def _cmd_metrics(args: argparse.Namespace) -> int:
    if not 1 <= args.games <= _MAX_GAMES:
        raise _UsageError(f"--games must be an integer in [1, 2**63 - 1], got {_number(args.games)}")
    if args.seed is not None and not 0 <= args.seed <= _MAX_SEED:
        raise _UsageError(f"--seed must be an integer in [0, 2**64 - 1], got {_number(args.seed)}")
    if args.threads < 0:
        raise _UsageError(f"--threads must be >= 0 (0 = all cores), got {args.threads}")
    if not 0.0 <= args.comeback < 1.0:
        raise _UsageError(f"--comeback must be in [0, 1), got {args.comeback}")
    game = _load_game(args)
    agents: list[Agent] | None = None
    if args.agents is not None:
        try:
            specs = list(parse_agent_list(args.agents))
        except ValueError as e:
            raise _UsageError(f"--agents: {e}") from None
        if len(specs) == 1:
            specs = specs * game.players
        if len(specs) != game.players:
            raise _UsageError(f"--agents: {len(specs)} agents for {game.players} seats: give one for every seat "
                              "or one per seat, comma-separated")
        agents = list(_checked_specs(game, specs, "--agents"))
    result = simulate(game, args.games, seed=args.seed if args.seed is not None else 0, threads=args.threads,
                      agents=agents, metrics=True, progress=not args.json)
    metrics = result.metrics(comeback=args.comeback)
    if args.json:
        print(metrics.to_json())
    else:
        print(metrics.summary(), end="")
    return 0


def _split_values(text: str) -> list[str]:
    """``2,3,[1,0],{"a":1}`` as its values: commas inside brackets, braces or quotes do not split."""
    values, depth, quote, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if ch == '"' and (i == 0 or text[i - 1] != "\\"):
            quote = not quote
        elif not quote and ch in "[{":
            depth += 1
        elif not quote and ch in "]}":
            depth -= 1
        elif not quote and depth == 0 and ch == ",":
            values.append(text[start:i])
            start = i + 1
    values.append(text[start:])
    return [v.strip() for v in values]


def _parse_sets(pairs: Sequence[str] | None) -> dict[str, list[Any]]:
    """``--set PATH=V1,V2,...`` pairs as the axes of a grid; each value is read as JSON when it
    parses, else as text."""
    axes: dict[str, list[Any]] = {}
    for pair in pairs or ():
        path, sep, text = pair.partition("=")
        path = path.strip()
        if not sep or not path or not text.strip():
            raise _UsageError(f"--set needs PATH=VALUE[,VALUE...], got {shown(pair)}")
        if path in axes:
            raise _UsageError(f"--set: {shown(path)} is given twice; list its values once, comma-separated")
        values: list[Any] = []
        for piece in _split_values(text):
            if not piece:
                raise _UsageError(f"--set {shown(path)}: an empty value in {shown(text)}")
            try:
                values.append(json.loads(piece))
            except json.JSONDecodeError:
                values.append(piece)
        axes[path] = values
    return axes


def _seat_agents(game: Game, text: str | None) -> list[Agent] | None:
    if text is None:
        return None
    try:
        specs = list(parse_agent_list(text))
    except ValueError as e:
        raise _UsageError(f"--agents: {e}") from None
    if len(specs) == 1:
        specs = specs * game.players
    if len(specs) != game.players:
        raise _UsageError(f"--agents: {len(specs)} agents for {game.players} seats: give one for every seat "
                          "or one per seat, comma-separated")
    return list(_checked_specs(game, specs, "--agents"))


def _check_run_args(args: argparse.Namespace) -> None:
    if not 1 <= args.games <= _MAX_GAMES:
        raise _UsageError(f"--games must be an integer in [1, 2**63 - 1], got {_number(args.games)}")
    if args.seed is not None and not 0 <= args.seed <= _MAX_SEED:
        raise _UsageError(f"--seed must be an integer in [0, 2**64 - 1], got {_number(args.seed)}")
    if args.threads < 0:
        raise _UsageError(f"--threads must be >= 0 (0 = all cores), got {args.threads}")


def _cmd_sweep(args: argparse.Namespace) -> int:
    _check_run_args(args)
    if args.resume and not args.out:
        raise _UsageError("--resume needs --out DIR, the directory of the sweep to resume")
    if args.plot:
        if importlib.util.find_spec("matplotlib") is None:
            raise _UsageError("--plot needs matplotlib: install it with `pip install 'tradewinds[plot]'`")
        try:
            plot_format(args.plot)
        except ValueError as e:
            raise _UsageError(f"--plot: {e}") from None
    axes = _parse_sets(args.set)
    if not axes:
        raise _UsageError("give the variants with --set PATH=VALUE[,VALUE...] (e.g. --set rules.duplicate_price=3,5)")
    game = _load_game(args)
    agents = _seat_agents(game, args.agents)
    client = _dask_client(args.dask) if args.dask else None
    restore = None
    if threading.current_thread() is threading.main_thread():
        restore = signal.signal(signal.SIGINT, signal.default_int_handler if args.out or client else signal.SIG_DFL)
    try:
        result = sweep(game, grid(axes), args.games, agents=agents, seed=args.seed if args.seed is not None else 0,
                       threads=args.threads, client=client, out=args.out, resume=args.resume,
                       progress=not args.json)
    except KeyboardInterrupt:
        if args.out:
            print(f"\ninterrupted: the finished chunks are saved in {args.out}; run the same command with "
                  "--resume to finish", file=sys.stderr)
        raise
    finally:
        if restore is not None:
            signal.signal(signal.SIGINT, restore)
        if client is not None:
            client.close()
    known = [m.name for m in result.base.metrics.metrics] if result.base.metrics is not None else []
    unknown = [name for name in args.metric or () if name not in known]
    if unknown:
        print(f"tradewinds: warning: no metric {', '.join(map(repr, unknown))}; the metrics are "
              f"{', '.join(known)}", file=sys.stderr)
    if args.json:
        print(result.to_json())
    else:
        print(result.summary(args.metric or None), end="")
        if args.out:
            print(f"results in {args.out} (one run directory per variant)")
    if args.plot:
        print(f"figure written to {result.plot(args.plot, args.metric or None)}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _parse_params(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``--param PATH=LOW:HIGH`` (a range of integers, or of reals when an end has a point) or
    ``--param PATH=V1,V2,...`` (the choices, each read as JSON when it parses)."""
    params: dict[str, Any] = {}
    for pair in pairs or ():
        path, sep, text = pair.partition("=")
        path, text = path.strip(), text.strip()
        if not sep or not path or not text:
            raise _UsageError(f"--param needs PATH=LOW:HIGH or PATH=V1,V2,..., got {shown(pair)}")
        if path in params:
            raise _UsageError(f"--param: {shown(path)} is given twice")
        if ":" in text and not text.startswith(("[", "{", '"')):
            ends: list[int | float] = []
            for piece in text.split(":"):
                try:
                    value = json.loads(piece)
                except json.JSONDecodeError:
                    value = None
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise _UsageError(f"--param {shown(path)}: a range is LOW:HIGH, two numbers, got {shown(text)}")
                ends.append(value)
            if len(ends) != 2 or not ends[0] <= ends[1]:
                raise _UsageError(f"--param {shown(path)}: a range is LOW:HIGH with LOW <= HIGH, got {shown(text)}")
            if any(isinstance(x, float) for x in ends):
                ends = [float(x) for x in ends]
            params[path] = (ends[0], ends[1])
            continue
        choices: list[Any] = []
        for piece in _split_values(text):
            if not piece:
                raise _UsageError(f"--param {shown(path)}: an empty value in {shown(text)}")
            try:
                choices.append(json.loads(piece))
            except json.JSONDecodeError:
                choices.append(piece)
        params[path] = choices
    return params


def _parse_objective(text: str) -> Any:
    name, sep, value = text.partition("=")
    if name == "seat-advantage" and not sep:
        return objectives.seat_advantage_even()
    if name == "duration" and sep:
        try:
            turns = float(value)
        except ValueError:
            turns = math.nan
        if not math.isfinite(turns):
            raise _UsageError(f"--objective duration=TURNS needs a number of turns, got {shown(value)}")
        return objectives.duration_near(turns)
    raise _UsageError(f"--objective is seat-advantage or duration=TURNS (e.g. duration=60), got {shown(text)}")


def _cmd_optimise(args: argparse.Namespace) -> int:
    _check_run_args(args)
    if args.budget < 1:
        raise _UsageError(f"--budget must be >= 1, got {args.budget}")
    if args.reevaluate < 1:
        raise _UsageError(f"--reevaluate must be >= 1, got {args.reevaluate}")
    if args.reevaluate_games is not None and args.reevaluate_games < 1:
        raise _UsageError(f"--reevaluate-games must be >= 1, got {args.reevaluate_games}")
    if importlib.util.find_spec("optuna") is None:
        raise _UsageError("tradewinds optimise needs optuna: install it with `pip install 'tradewinds[balance]'`")
    params = _parse_params(args.param)
    if not params:
        raise _UsageError("give the parameters with --param PATH=LOW:HIGH (e.g. --param rules.start_marker_points=0:8)")
    objective = _parse_objective(args.objective)
    game = _load_game(args)
    agents = _seat_agents(game, args.agents)
    result = optimise(game, params, objective, args.budget, args.games, agents=agents,
                      seed=args.seed if args.seed is not None else 0, reevaluate=args.reevaluate,
                      reevaluate_games=args.reevaluate_games, threads=args.threads, progress=not args.json)
    if args.out:
        result.save(args.out)
    if args.json:
        print(result.to_json())
    else:
        print(result.summary(), end="")
        if args.out:
            print(f"best data file written to {args.out}")
    return 0


def _cmd_balance(args: argparse.Namespace) -> int:
    _check_run_args(args)
    out = Path(args.out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise _UsageError(f"--out must name an .html file, got {shown(str(out))}")
    if importlib.util.find_spec("matplotlib") is None:
        raise _UsageError("the report's figures need matplotlib: install it with `pip install 'tradewinds[plot]'`")
    given = _parse_options(args.option)
    if args.data is not None:
        if "data" in given:
            raise _UsageError("--data and --option data=... both name a data file: give one")
        args.option = [*(args.option or []), f"data={json.dumps(args.data)}"]
    axes = _parse_sets(args.set)
    game = _load_game(args)
    agents = _seat_agents(game, args.agents)
    seed = args.seed if args.seed is not None else 0
    if axes:
        swept = sweep(game, grid(axes), args.games, agents=agents, seed=seed, threads=args.threads, progress=True)
        result = swept.base.result
        assert result is not None
    else:
        swept = None
        result = simulate(game, args.games, seed=seed, threads=args.threads, agents=agents, metrics=True,
                          progress=True)
    command = shlex.join(["tradewinds", *args.argv])
    page = balance_report(result, sweep=swept, command=command, data=args.data)
    out.write_text(page, encoding="utf-8")
    print(result.metrics().summary(), end="")
    if swept is not None:
        print(swept.summary(), end="")
    print(f"wrote {out} ({len(page.encode('utf-8')) / 1024:,.0f} KiB); open it in a browser")
    return 0


def _checked_specs(game: Game, specs: Sequence[str], flag: str) -> list[str]:
    """The built-in agents' specs in canonical form; a bad one is a usage error of ``flag``
    that names the built-in agents once, as the command line writes them."""
    out = []
    for spec in specs:
        try:
            out.append(canonical_spec(game, spec))
        except ValueError as e:
            raise _UsageError(f"{flag}: bad agent {spec!r}: {e}") from None
    return out


def _opponents(game: Game, seat: int, text: str) -> dict[int, str]:
    """The agent of every seat but ``seat``: one spec for all, or one per opponent in seat
    order."""
    try:
        specs = parse_agent_list(text)
    except ValueError as e:
        raise _UsageError(f"--opponents: {e}") from None
    others = [p for p in range(game.players) if p != seat]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise _UsageError(
            f"--opponents: give one agent for all opponents or one per opponent ({len(others)}), "
            f"got {len(specs)}"
        )
    return dict(zip(others, _checked_specs(game, specs, "--opponents")))


def _cmd_data(args: argparse.Namespace) -> int:
    try:
        text = data_text(args.game)
    except (TradewindsError, FileNotFoundError) as e:
        raise _UsageError(str(e)) from None
    if args.out is None:
        sys.stdout.write(text)
        return 0
    # "x": a file that exists (an edited copy, perhaps) is never overwritten.
    with open(args.out, "x", encoding="utf-8", newline="") as f:
        f.write(text)
    print(f"wrote {args.out}: the component data of {load(args.game).title}; "
          f"edit it and play with it: --option data={shlex.quote(args.out)}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    if args.seed is not None and not 0 <= args.seed <= _MAX_SEED:
        raise _UsageError(f"--seed must be an integer in [0, 2**64 - 1], got {_number(args.seed)}")
    game = _load_game(args)
    if not 0 <= args.seat < game.players:
        raise _UsageError(f"--seat must be in 0..{game.players - 1}, got {_number(args.seat)}")
    seat = args.seat
    opponents = _opponents(game, seat, args.opponents)
    seed = args.seed if args.seed is not None else fresh_seed()
    if args.record:
        # Checked now, by writing the fresh game's record, not found out at the end.
        write_record(args.record, game.new_state(seed))
    kinds = sorted(set(opponents.values()))
    who_plays = kinds[0] if len(kinds) == 1 else ", ".join(f"P{p} {a}" for p, a in sorted(opponents.items()))
    print(f"{game.title} ({game.name}), {game.players} player{'' if game.players == 1 else 's'}; you are P{seat}; "
          f"opponents: {who_plays or 'none'}.")
    print(f"seed {seed} (the same deal again: --seed {seed})")
    return play(game, seat, opponents, seed, reveal=args.reveal, record=args.record)


def _cmd_replay(args: argparse.Namespace) -> int:
    text = read_record(args.file)
    seat = None if args.all else args.seat
    try:
        return view_record(text, seat, start=args.move, print_all=args.print)
    except SeatError as e:
        raise _UsageError(str(e)) from None


def _cmd_view(args: argparse.Namespace) -> int:
    source = Path(args.file)
    out = Path(args.out) if args.out else source.with_suffix(".html")
    if out.suffix.lower() not in (".html", ".htm"):
        raise _UsageError(f"--out must name an .html file, got {shown(str(out))}")
    if source.exists() and out.exists() and out.resolve() == source.resolve():
        raise _UsageError(f"--out {shown(str(out))} is the record itself: name another file")
    text = read_record(source)
    final = replay(text)
    seat = None if args.all else args.seat
    if seat is not None and not 0 <= seat < final.game.players:
        raise _UsageError(f"--seat must be in 0..{final.game.players - 1}, got {_number(seat)}")
    page = record_html(text, seat)
    out.write_text(page, encoding="utf-8")
    who = "everything" if seat is None else f"what P{seat} sees"
    print(f"wrote {out}: {final.move_number} moves of {final.game.title}, {who} "
          f"({len(page.encode('utf-8')) / 1024:,.0f} KiB); open it in a browser")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tradewinds", description="Rules-complete engines for nautical trading board games."
    )
    parser.add_argument("--version", action="version", version=f"tradewinds {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    p_games = sub.add_parser(
        "games", help="list the games: titles, player counts, modes and options",
        description="Lists each game: its title, player counts and modes, its options, and with "
                    "--configurations every configuration (player count, mode, level).",
    )
    p_games.add_argument("--configurations", action="store_true",
                         help="also list every configuration of each game, as --option KEY=VALUE pairs")
    p_games.set_defaults(func=_cmd_games, command_parser=p_games)

    def add_game_args(p: argparse.ArgumentParser, seed_help: str = "0") -> None:
        p.add_argument("game", metavar="GAME", help="one of: " + ", ".join(GAMES))
        p.add_argument("--players", type=int, default=None, help="number of players (default: the game's)")
        p.add_argument("--seed", type=int, default=None,
                       help=f"seed, an integer in [0, 2**64 - 1] (default {seed_help})")
        p.add_argument(
            "--option", action="append", metavar="KEY=VALUE",
            help="a game option (repeatable); VALUE is read as JSON when it parses, else as text "
                 "(e.g. --option data=my-components.json)",
        )

    p_sim = sub.add_parser(
        "simulate", help="play many games and summarise them",
        description="Plays many games with built-in agents and prints a summary: speed, win rate by seat "
                    "with 95% intervals, scores, game lengths, truncations. Results depend only on the "
                    "game, --seed, --games and --agents. MCTS agents play a few games a second: "
                    "progress goes to standard error (a bar on a terminal, else a line every 15 s).",
    )
    add_game_args(p_sim)
    p_sim.add_argument("--games", type=int, default=None, help="number of games (default 10000)")
    p_sim.add_argument("--threads", type=int, default=0,
                       help="worker threads (default 0 = all cores; with --dask: threads per chunk)")
    p_sim.add_argument(
        "--agents", metavar="SPECS",
        help=f"one agent per seat, comma-separated, or one for every seat: {BUILT_IN} "
             "(default: all random), e.g. "
             "--agents mcts:iterations=100,random,random or --agents greedy",
    )
    p_sim.add_argument("--out", metavar="DIR",
                       help="stream the results to DIR as chunks finish: a Parquet dataset (a manifest and one "
                            ".parquet file per chunk, each written atomically; needs pyarrow)")
    p_sim.add_argument("--resume", action="store_true",
                       help="finish the run in --out DIR: play only its missing chunks (settings the command "
                            "leaves out come from DIR's manifest; those it gives must agree)")
    p_sim.add_argument("--repair", action="store_true",
                       help="mend the run in --out DIR: check every chunk against the checksums its chunk log "
                            "records, play the damaged and missing ones again, and say what was replaced")
    p_sim.add_argument("--chunk-games", type=int, default=None, metavar="N",
                       help="games per chunk, the unit of streaming and of work (default: 4096 with random or "
                            "greedy agents, fewer with MCTS)")
    p_sim.add_argument("--dask", metavar="ADDRESS",
                       help="spread the chunks over the Dask cluster whose scheduler is at ADDRESS "
                            "(e.g. tcp://scheduler:8786)")
    p_sim.add_argument("--save", metavar="PATH", help="also save the per-game results (.npz)")
    p_sim.add_argument("--plot", metavar="FILE.png",
                       help="write a figure: win rate by seat with 95%% intervals, score distributions "
                            "(the extension names the format: .png, .svg, .pdf, .jpg, ...)")
    p_sim.set_defaults(func=_cmd_simulate, command_parser=p_sim)

    p_tour = sub.add_parser(
        "tournament", help="rate agents against each other: every seating over the same deals",
        description="Plays every seating of the agents (each agent in each seat; with more agents than seats, "
                    "every combination) over the same deals, and prints their Plackett-Luce ratings on the Elo "
                    "scale with 95% bootstrap intervals, the win matrix, scores and margins, and each seat's "
                    "advantage; for a solo game, each agent's goal and tier rates. Results depend only on the "
                    "game, --seed, --games and --agents.",
    )
    add_game_args(p_tour)
    p_tour.add_argument("--agents", required=True, metavar="SPECS",
                        help=f"the agents, comma-separated: {BUILT_IN}, "
                             "e.g. --agents random,greedy,mcts:iterations=50")
    p_tour.add_argument("--games", type=int, default=100,
                        help="deals (default 100); each is played once in every seating")
    p_tour.add_argument("--threads", type=int, default=0,
                        help="worker threads (default 0 = all cores; with --dask: threads per chunk)")
    p_tour.add_argument("--unpaired", action="store_true",
                        help="give each seating deals of its own instead of the same deals for all")
    p_tour.add_argument("--out", metavar="DIR",
                        help="stream the games to DIR, one run directory per seating (needs pyarrow)")
    p_tour.add_argument("--resume", action="store_true",
                        help="finish the tournament in --out DIR: play only what is missing (the command must "
                             "name the same game, options, agents, games and seed)")
    p_tour.add_argument("--dask", metavar="ADDRESS",
                        help="spread the games over the Dask cluster whose scheduler is at ADDRESS")
    p_tour.add_argument("--plot", metavar="FILE.png",
                        help="write a figure: ratings with intervals and the win matrix (.png, .svg, .pdf)")
    p_tour.set_defaults(func=_cmd_tournament, command_parser=p_tour)

    p_met = sub.add_parser(
        "metrics", help="game-design metrics with 95%% intervals: seat advantage, duration, drama, ...",
        description="Plays games with the design metrics measured and prints them, each with its 95% interval: "
                    "win rate by seat against the even share (with a chi-square test of equality), balance, "
                    "completion, shared wins, score margin, each scoring category's share, duration, branching, "
                    "decisiveness, lead changes, drama and comebacks (docs/balance.md defines each).",
    )
    add_game_args(p_met)
    p_met.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p_met.add_argument("--agents", metavar="SPECS",
                       help="one agent per seat, comma-separated, or one for every seat (default: all random)")
    p_met.add_argument("--threads", type=int, default=0, help="worker threads (default 0 = all cores)")
    p_met.add_argument("--comeback", type=float, default=0.25,
                       help="a win is a comeback when the winner's largest deficit (drama, 0..1) exceeded this "
                            "(default 0.25)")
    p_met.add_argument("--json", action="store_true", help="print the metrics as JSON")
    p_met.set_defaults(func=_cmd_metrics, command_parser=p_met)

    def add_run_args(p: argparse.ArgumentParser, games: int, unit: str = "a variant") -> None:
        p.add_argument("--games", type=int, default=games, help=f"games {unit} (default {games})")
        p.add_argument("--agents", metavar="SPECS",
                       help="one agent per seat, comma-separated, or one for every seat (default: all random)")
        p.add_argument("--threads", type=int, default=0, help="worker threads (default 0 = all cores)")

    set_help = ("a variant's edit of the component data file: the field's dot-separated path and its values, "
                "comma-separated, each read as JSON when it parses (repeatable: every combination is a variant), "
                "e.g. --set rules.duplicate_price=3,5 --set prices.0.prices=[3,3,1,0]")
    p_sweep = sub.add_parser(
        "sweep", help="how the design metrics respond to edits of the component data, against the base game",
        description="Plays the base game and each variant of its component data (every combination of the --set "
                    "values) over the same game seeds, and prints each metric of each variant as a difference from "
                    "the base game with a 95% paired bootstrap interval. A variant the game refuses is reported by "
                    "name and the others are played. Results depend only on the game, the variants, --seed, "
                    "--games and --agents.",
    )
    add_game_args(p_sweep)
    p_sweep.add_argument("--set", action="append", metavar="PATH=V1,V2,...", help=set_help)
    add_run_args(p_sweep, 1000)
    p_sweep.add_argument("--metric", action="append", metavar="NAME",
                         help="show only this metric (repeatable; default every one)")
    p_sweep.add_argument("--out", metavar="DIR",
                         help="stream the games to DIR, one run directory per variant (needs pyarrow)")
    p_sweep.add_argument("--resume", action="store_true",
                         help="finish the sweep in --out DIR: play only what is missing (the command must name "
                              "the same game, options, variants, agents, games and seed)")
    p_sweep.add_argument("--dask", metavar="ADDRESS",
                         help="spread the games over the Dask cluster whose scheduler is at ADDRESS")
    p_sweep.add_argument("--json", action="store_true", help="print the sweep as JSON")
    p_sweep.add_argument("--plot", metavar="FILE.png",
                         help="write the response curves: each metric's difference with its interval (.png, .svg, "
                              ".pdf)")
    p_sweep.set_defaults(func=_cmd_sweep, command_parser=p_sweep)

    p_opt = sub.add_parser(
        "optimise", help="search values of the component data that bring a design metric closest to a target",
        description="Searches values of fields of the component data file (each --param a range or a list of "
                    "choices) that minimise the objective, with Optuna's TPE sampler (needs optuna: pip install "
                    "'tradewinds[balance]'): every trial plays --games games on the same seeds; the best "
                    "--reevaluate candidates are played again on fresh seeds and the best of them is the result, "
                    "printed with its metrics and 95% intervals beside the unedited file's, and the search "
                    "history. A value the game refuses is reported and skipped. Results depend only on the "
                    "arguments.",
    )
    add_game_args(p_opt)
    p_opt.add_argument("--param", action="append", metavar="PATH=LOW:HIGH",
                       help="a field of the data file and its search space: LOW:HIGH (integers, or reals when an "
                            "end has a point) or V1,V2,... (choices, each read as JSON when it parses); repeatable")
    p_opt.add_argument("--objective", required=True, metavar="OBJECTIVE",
                       help="seat-advantage (the largest |win rate of a seat - 1/n|) or duration=TURNS (|mean "
                            "turns - TURNS|)")
    p_opt.add_argument("--budget", type=int, default=30, help="trials of the search (default 30)")
    add_run_args(p_opt, 500, "a trial")
    p_opt.add_argument("--reevaluate", type=int, default=3,
                       help="re-evaluate the best K candidates on fresh seeds (default 3)")
    p_opt.add_argument("--reevaluate-games", type=int, default=None, metavar="N",
                       help="games a candidate in the re-evaluation (default 4 times --games)")
    p_opt.add_argument("--json", action="store_true", help="print the result and the history as JSON")
    p_opt.add_argument("--out", metavar="BEST.json", help="write the best data file (JSON) here")
    p_opt.set_defaults(func=_cmd_optimise, command_parser=p_opt)

    p_bal = sub.add_parser(
        "balance", help="write a balance report: one self-contained HTML page of the design metrics",
        description="Plays games with the design metrics measured and writes one self-contained HTML page (no "
                    "network, no server): the metric table, seat advantage with 95% intervals, score and length "
                    "distributions, with --set a sweep's tables and response curves, and the exact command, "
                    "the versions and the seeds that reproduce it. Needs matplotlib.",
    )
    add_game_args(p_bal)
    p_bal.add_argument("--data", metavar="FILE", help="a component data file instead of the shipped one")
    p_bal.add_argument("--set", action="append", metavar="PATH=V1,V2,...",
                       help="also sweep these edits of the data file (as tradewinds sweep --set)")
    add_run_args(p_bal, 1000)
    p_bal.add_argument("--out", required=True, metavar="FILE.html", help="the page to write")
    p_bal.set_defaults(func=_cmd_balance, command_parser=p_bal)

    p_data = sub.add_parser(
        "data", help="print or write the component data file a game ships",
        description="Prints the component data file a game ships (JSON: every card, price and count, each "
                    "marked printed or reconstructed), or writes it to a new file to edit; a game loads the "
                    "edited file with --option data=FILE.",
    )
    p_data.add_argument("game", metavar="GAME", help="one of: " + ", ".join(GAMES))
    p_data.add_argument("--out", metavar="FILE", help="write it to FILE, which must not exist yet (default: print it)")
    p_data.set_defaults(func=_cmd_data, command_parser=p_data)

    p_play = sub.add_parser(
        "play", help="play in the terminal against built-in agents",
        description="Plays a game in the terminal against built-in agents. Every move is told as it happens, "
                    "chance included, as your seat may see it. In the game: help (or ?) lists your moves and "
                    "what they do; rules, legend, log, look, undo, save FILE, load FILE, q.",
    )
    add_game_args(p_play, seed_help="a fresh one, printed at the start")
    p_play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p_play.add_argument(
        "--opponents", default="random", metavar="SPECS",
        help="the opponents' agent: one spec for all, or one per opponent in seat order, comma-separated "
             "(random, greedy, mcts:fast, mcts:strong, mcts[:iterations=N,...]; default random)",
    )
    p_play.add_argument("--reveal", action="store_true",
                        help="also show the whole table, hidden information included")
    p_play.add_argument("--record", metavar="FILE",
                        help="write the game's record to FILE when it ends or you quit (tradewinds replay FILE)")
    p_play.set_defaults(func=_cmd_play, command_parser=p_play)

    p_replay = sub.add_parser(
        "replay", help="step through a game record, forwards and backwards",
        description="Steps through a game record (from State.record(), SimulationResult.records() or save in "
                    "tradewinds play): each move told as a sentence, and the table after it, as one seat sees "
                    "it or with everything shown.",
    )
    p_replay.add_argument("file", metavar="FILE", help="the record (JSON)")
    view = p_replay.add_mutually_exclusive_group()
    view.add_argument("--seat", type=int, default=None, help="see the game as this seat sees it")
    view.add_argument("--all", action="store_true", help="see everything, hidden information included (the default)")
    p_replay.add_argument("--move", type=int, default=None, help="start after this many moves (default: the end)")
    p_replay.add_argument("--print", action="store_true",
                          help="print the whole game (its log, the end and the score) instead of stepping")
    p_replay.set_defaults(func=_cmd_replay, command_parser=p_replay)

    p_view = sub.add_parser(
        "view", help="write a game record as a web page that replays it in a browser",
        description="Writes a game record as one self-contained HTML page (no server, no network): the picture "
                    "of the table beside the list of moves, each told as a sentence, chance outcomes marked; "
                    "step with the buttons or the arrow keys, or jump to a move. The page shows the game as one "
                    "seat sees it, or everything, and holds nothing else.",
    )
    p_view.add_argument("file", metavar="RECORD", help="the record (JSON)")
    seen = p_view.add_mutually_exclusive_group()
    seen.add_argument("--seat", type=int, default=None,
                      help="the game as this seat sees it: the others' hidden cards and secret moves stay hidden")
    seen.add_argument("--all", action="store_true", help="everything, hidden information included (the default)")
    p_view.add_argument("--out", metavar="FILE.html",
                        help="the page to write (default: RECORD with the extension .html)")
    p_view.set_defaults(func=_cmd_view, command_parser=p_view)
    return parser


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as the command line says it (a damaged chunk set aside, a run directory
    without checksums): one line, without the source line that raised it."""
    print(f"tradewinds: warning: {_cut_message(str(message))}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status: 0 success; 2 a usage error (what the
    command line gives is not valid: an unknown option, a bad value, a game or agent that
    does not exist, a setting out of range; the message names the flag); 1 an error of the
    run (a run directory that cannot be used, a file that cannot be read or written); 130
    interrupted. Messages name no ``[Errno N]`` and never echo a huge value in full."""
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    # The command as given, for what records it (the balance report).
    args.argv = list(argv) if argv is not None else sys.argv[1:]
    if unknown:
        # What the subcommand does not know is its error, with its usage.
        getattr(args, "command_parser", parser).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            return int(args.func(args))
    except _UsageError as e:
        # The usage of the subcommand that was given, not the top level's.
        getattr(args, "command_parser", parser).error(str(e))
    except (TradewindsError, ValueError, OSError, ImportError) as e:
        print(f"tradewinds: error: {_cut_message(error_text(e))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return 0  # unreachable: parser.error exits


if __name__ == "__main__":
    sys.exit(main())
