"""The Python examples of docs/simulation.md run as written (each in a fresh interpreter, in
an empty directory), and the page documents every option of `tradewinds simulate`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tradewinds import cli

PAGE = Path(__file__).resolve().parent.parent / "docs" / "simulation.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON = re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S)


def test_the_page_documents_every_simulate_option() -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    simulate = sub.choices["simulate"]  # type: ignore[index]
    options = [s for a in simulate._actions for s in a.option_strings if s.startswith("--") and s != "--help"]
    assert options
    for option in options:
        assert f"`{option}" in TEXT, option
    assert len(PYTHON) >= 6


@pytest.mark.slow
def test_examples_run_in_order(tmp_path: Path) -> None:
    # In order: the resume example finishes the directory the streaming example wrote.
    for i, block in enumerate(PYTHON):
        script = tmp_path / f"example_{i}.py"
        script.write_text(block, encoding="utf-8")
        r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"example {i}:\n{block}\n{r.stdout}\n{r.stderr}"
    assert (tmp_path / "gold-7.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "runs" / "nw4" / "_manifest.json").is_file()
