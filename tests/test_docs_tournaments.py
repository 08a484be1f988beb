"""The examples of docs/tournaments.md run as written, and the page documents every option of
`tradewinds tournament`."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from tradewinds import cli

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tournaments.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON = re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S)
SHELL = re.findall(r"^```sh\n(.*?)^```$", TEXT, re.M | re.S)


def test_the_page_documents_every_tournament_option() -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    tournament = sub.choices["tournament"]  # type: ignore[index]
    options = [s for a in tournament._actions for s in a.option_strings if s.startswith("--") and s != "--help"]
    assert options
    for option in options:
        assert f"`{option}" in TEXT, option


def test_the_examples_run(tmp_path: Path) -> None:
    assert PYTHON
    for i, block in enumerate(PYTHON):
        script = tmp_path / f"example_{i}.py"
        script.write_text(block, encoding="utf-8")
        r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"example {i}:\n{block}\n{r.stdout}\n{r.stderr}"
        assert "Win matrix" in r.stdout
    # The first shell example is the command line of the first Python example.
    words = shlex.split(SHELL[0].strip())
    assert words[:2] == ["tradewinds", "tournament"]
    r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


def test_the_ladder_commands_run_in_small_form(tmp_path: Path) -> None:
    """Each game's ladder command of the page, with one deal instead of 100, prints the
    four agents' ratings and the win matrix."""
    block = next(b for b in SHELL if b.startswith("tradewinds tournament") and "--games 100" in b)
    commands = [shlex.split(line) for line in block.strip().splitlines()]
    assert len(commands) == 5
    for words in commands:
        words[words.index("--games") + 1] = "1"
        r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        assert "Win matrix" in r.stdout and all(a in r.stdout for a in ("mcts:iterations=50", "greedy", "random")), r.stdout
    for name in ("North Wind", "Nauticus", "Before the Wind", "Norsewind", "Mistwind"):
        assert f"**{name}" in TEXT, name
