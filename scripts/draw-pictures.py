"""Draws the picture of each listed game's table shown in its document: a seeded game played
some moves by the built-in random agent, drawn as seat 0 sees it (the other seats' hidden
things face down), written to docs/games/img/<game>.svg.

    python scripts/draw-pictures.py          (writes the pictures)
    python scripts/draw-pictures.py --check  (exit status 1 if a committed picture is not
                                              what the code draws today)

The test suite runs the check (tests/test_pictures.py), so the pictures cannot go stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import tradewinds as tw

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "games" / "img"

#: Each listed game's picture: its options, the seed, how many moves are played.
GAMES: dict[str, tuple[dict[str, object], int, int]] = {
    "north-wind": ({"players": 3}, 7, 120),
    "before-the-wind": ({"players": 3}, 7, 90),
    "nauticus": ({"players": 3}, 7, 160),
    "norsewind": ({"players": 3}, 7, 60),
    "mistwind": ({"players": 3}, 7, 120),
}


def position(name: str) -> tw.State:
    """The seeded game of `name` after its moves (or the last state before its end)."""
    options, seed, moves = GAMES[name]
    state = tw.load(name, **options).new_state(seed)
    for i in range(moves):
        following = state.clone()
        following.apply(following.agent_action("random", seed=seed * 1000 + i))
        if following.is_terminal:
            break
        state = following
    return state


def pictures() -> dict[str, str]:
    """Every listed game's picture, by game name."""
    missing = set(tw.GAMES) - set(GAMES)
    assert not missing, f"no picture is chosen for {sorted(missing)}"
    return {name: position(name).to_svg(0) for name in GAMES}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        path = IMAGES / f"{name}.svg"
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != svg:
                stale.append(str(path))
        else:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path}")
    if stale:
        print("stale pictures (run scripts/draw-pictures.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
