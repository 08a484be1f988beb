"""README.md reads well on a package index and does what it says: its links work outside a
checkout, its quick start runs, the constants it states are the package's, and its
development command is the one CI runs."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import tradewinds as tw

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "README.md").read_text(encoding="utf-8")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_links_are_absolute_and_name_files_of_the_repository() -> None:
    repository = PROJECT["urls"]["Repository"].rstrip("/")
    links = re.findall(r"\]\(([^)]+)\)", TEXT)
    assert links
    for link in links:
        # A relative link works in a checkout only; a package index shows it broken.
        assert link.startswith("https://"), link
        if link.startswith(repository + "/"):
            where = re.fullmatch(re.escape(repository) + r"/(?:blob|tree)/main/(.*)", link)
            assert where, link
            assert (ROOT / where.group(1)).exists(), f"{link} names no file of the repository"
    for url in PROJECT["urls"].values():
        assert url.startswith(repository)


def test_the_player_ids_stated_are_the_packages() -> None:
    assert f"`tw.CHANCE` ({tw.CHANCE})" in TEXT
    assert f"`tw.TERMINAL` ({tw.TERMINAL})" in TEXT


def test_quick_start_runs(tmp_path: Path) -> None:
    (block,) = [b for b in re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S) if "import tradewinds" in b
                and "simulate" in b]
    r = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "games/s" in r.stdout


def test_the_extras_named_are_the_packages() -> None:
    named = set(re.findall(r"`(?:tradewinds)?\[([\w-]+)\]`", TEXT.split("## Install", 1)[1].split("\n## ", 1)[0]))
    assert named == set(PROJECT["optional-dependencies"]) - {"test"}


def test_the_install_line_says_what_works_before_the_first_release() -> None:
    install = TEXT.split("## Install", 1)[1].split("pip install tradewinds", 1)[0]
    assert "No release has been made yet" in install and "from a checkout" in install
