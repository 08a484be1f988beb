"""What paired deals gain: the spread of a tournament's rating differences over repeated
tournaments with paired deals (every seating plays the same deals) and without (each seating
its own deals), same agents and games.

    python benches/tournament_pairing.py GAME --players P --agents a,b[,c] --games N --repeats R

Prints, for each agent below the first, the standard deviation over the repeats of its rating
difference to the first agent, paired and unpaired, and their ratio; and the mean width of the
95% bootstrap intervals in each mode.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import tradewinds as tw
from tradewinds.agents import parse_agent_list


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--agents", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--threads", type=int, default=0)
    args = parser.parse_args()
    agents = parse_agent_list(args.agents)
    start = time.perf_counter()
    diffs: dict[bool, list[list[float]]] = {True: [], False: []}
    widths: dict[bool, list[float]] = {True: [], False: []}
    for repeat in range(args.repeats):
        for paired in (True, False):
            result = tw.tournament(args.game, agents, games=args.games, players=args.players, seed=1000 + repeat,
                                   paired=paired, threads=args.threads, bootstrap=100)
            rows = {r["agent"]: r for r in result.ratings()}
            diffs[paired].append([rows[a]["rating"] - rows[agents[0]]["rating"] for a in agents[1:]])
            widths[paired].append(float(np.mean([r["high"] - r["low"] for r in rows.values()])))
    print(f"{args.game}, {args.players} players, agents {', '.join(agents)}: {args.repeats} tournaments of "
          f"{args.games} deals each way ({time.perf_counter() - start:.0f} s)")
    print(f"{'rating difference':<40} {'sd paired':>10} {'sd unpaired':>12} {'ratio':>6}")
    p = np.array(diffs[True])
    u = np.array(diffs[False])
    for i, a in enumerate(agents[1:]):
        sp, su = float(p[:, i].std(ddof=1)), float(u[:, i].std(ddof=1))
        print(f"{a + ' - ' + agents[0]:<40} {sp:>10.1f} {su:>12.1f} {sp / su:>6.2f}")
    print(f"mean 95% interval width: paired {np.mean(widths[True]):.1f}, unpaired {np.mean(widths[False]):.1f}")


if __name__ == "__main__":
    main()
