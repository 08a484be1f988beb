"""Instructions per decision and per step in every configuration, counted by callgrind.

Instruction counts do not depend on what else the machine is doing, so they are how a change
is held to "no configuration slower" (docs/performance.md). For each configuration of each
registered game, ``examples/instructions.rs`` plays GAMES and then 2×GAMES random games
(seeds from 0) under ``valgrind --tool=callgrind``; the difference of the two counts over the
difference of the decisions (steps) is the cost of a decision (step) in the games added,
without the program's start.

    cargo build --release --example instructions
    python benches/instructions.py --out counts.json                  # every configuration
    python benches/instructions.py --game mistwind --compare benches/instructions-baseline.json

With ``--compare`` it prints each configuration's ratio to the baseline and exits 1 where one
is more than ``--tolerance`` (3%) above it.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "examples" / "instructions"


def collected(binary: Path, game: str, index: int, games: int) -> tuple[int, int, int]:
    """Instructions, decisions and steps of `games` random games under callgrind."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(binary), game, str(index), str(games)],
        capture_output=True,
        text=True,
        check=True,
    )
    ir = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
    decisions, steps = map(int, re.fullmatch(r"(\d+) decisions (\d+) steps\s*", run.stdout).groups())
    return ir, decisions, steps


def measure(binary: Path, game: str, index: int, options: dict, games: int) -> dict:
    ir1, d1, s1 = collected(binary, game, index, games)
    ir2, d2, s2 = collected(binary, game, index, 2 * games)
    return {
        "game": game,
        "index": index,
        "options": options,
        "per_decision": round((ir2 - ir1) / (d2 - d1), 1),
        "per_step": round((ir2 - ir1) / (s2 - s1), 1),
        "steps_per_decision": round((s2 - s1) / (d2 - d1), 3),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, default=BINARY)
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, default=100, help="games in the first run (the second plays twice as many)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, help="write the counts here as JSON")
    ap.add_argument("--compare", type=Path, help="a JSON file written by --out to compare against")
    ap.add_argument("--tolerance", type=float, default=0.03)
    args = ap.parse_args()

    listing = subprocess.run([str(args.binary), "--list"], capture_output=True, text=True, check=True).stdout
    configurations = []
    for line in listing.splitlines():
        game, index, options = line.split("\t")
        if not args.game or game in args.game:
            configurations.append((game, int(index), json.loads(options)))
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda c: measure(args.binary, *c, args.games), configurations))

    baseline = {}
    if args.compare:
        baseline = {(r["game"], json.dumps(r["options"], sort_keys=True)): r for r in json.loads(args.compare.read_text())["rows"]}
    worse = 0
    print(f"{'game':<16} {'options':<60} {'per decision':>12} {'per step':>9} {'ratio':>6}")
    for r in rows:
        key = (r["game"], json.dumps(r["options"], sort_keys=True))
        ratio = ""
        if key in baseline:
            q = r["per_decision"] / baseline[key]["per_decision"]
            ratio = f"{q:.3f}"
            worse += q > 1 + args.tolerance
        print(f"{r['game']:<16} {json.dumps(r['options']):<60} {r['per_decision']:>12} {r['per_step']:>9} {ratio:>6}")
    if args.out:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
        args.out.write_text(json.dumps({"commit": commit, "games": args.games, "rows": rows}, indent=1) + "\n")
    if worse:
        print(f"{worse} configurations more than {args.tolerance:.0%} above the baseline", file=sys.stderr)
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
