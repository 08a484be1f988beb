"""Assembles docs/setup.md, the page of setup descriptions (`Game.setup`), from its head
(scripts/setup-page-head.md) and each registered game's section, which lives in the game's
folder (src/games/<game>/text/setup.md): the listed games in the order of `tw.GAMES`, then
the test games.

    python scripts/setup-page.py          (writes docs/setup.md)
    python scripts/setup-page.py --check  (exit status 1 if docs/setup.md is not what the
                                           head and the sections make)

The test suite runs the check (tests/test_docs_setup.py), so the page cannot drift from the
game folders.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tradewinds._core import GAMES, REGISTERED

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "setup.md"
HEAD = ROOT / "scripts" / "setup-page-head.md"
NOTICE = ("<!-- Assembled by scripts/setup-page.py from scripts/setup-page-head.md and each game's "
          "src/games/<game>/text/setup.md: edit those, then run the script. -->")


def section_file(name: str) -> Path:
    """The file of game `name`'s section, in the game's folder (`north-wind`: `north_wind`)."""
    return ROOT / "src" / "games" / name.replace("-", "_") / "text" / "setup.md"


def page() -> str:
    """The page: the head's title, the notice, the rest of the head, then one section a game."""
    title, rest = HEAD.read_text(encoding="utf-8").split("\n", 1)
    games = [*GAMES, *(name for name in REGISTERED if name not in GAMES)]
    missing = [str(section_file(name).relative_to(ROOT)) for name in games if not section_file(name).is_file()]
    if missing:
        raise SystemExit(f"setup-page.py: no section for {', '.join(missing)}")
    parts = [f"{title}\n\n{NOTICE}\n{rest}", *(section_file(name).read_text(encoding="utf-8") for name in games)]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = page()
    if argv == ["--check"]:
        if PAGE.read_text(encoding="utf-8") != text:
            print("docs/setup.md is stale: run scripts/setup-page.py", file=sys.stderr)
            return 1
        return 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    PAGE.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
