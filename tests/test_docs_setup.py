"""docs/setup.md: assembled from its head and each registered game's section in the game's
folder (scripts/setup-page.py), every registered game documents its setup description there,
and each example does what the page says."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tradewinds as tw
from conftest import game_configurations
from tradewinds._core import REGISTERED

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "setup.md"
TEXT = PAGE.read_text(encoding="utf-8")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("setup_page", ROOT / "scripts" / "setup-page.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_is_what_the_script_assembles_from_the_game_folders() -> None:
    script = _script()
    assert TEXT == script.page(), "docs/setup.md is stale: run scripts/setup-page.py"
    # Each registered game's section is its folder's file, whole, in the order of tw.GAMES
    # and then the test games.
    order = [*tw.GAMES, *(n for n in REGISTERED if n not in tw.GAMES)]
    places = []
    for name in order:
        path = script.section_file(name)
        assert path.parent == ROOT / "src" / "games" / name.replace("-", "_") / "text"
        section = path.read_text(encoding="utf-8")
        assert section.startswith(f"## {tw.load(name).title} (`{name}`)\n") and TEXT.count(section) == 1
        places.append(TEXT.index(section))
    assert places == sorted(places)
    # Nothing but the head and the sections: the sections begin where the head ends.
    assert TEXT.index("\n## ") + 1 == places[0]


def test_the_check_finds_a_page_that_differs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    script.PAGE = tmp_path / "setup.md"
    script.PAGE.write_text(TEXT, encoding="utf-8")
    assert script.main(["--check"]) == 0
    script.PAGE.write_text(TEXT.replace("(`regatta`)", "(`regatta`) ", 1), encoding="utf-8")
    assert script.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert script.main([]) == 0 and script.PAGE.read_text(encoding="utf-8") == TEXT


def _section(name: str) -> str:
    """The page's section about game `name`: from its heading, `## Title (`name`)`, to the next."""
    parts = re.split(r"^## ", TEXT, flags=re.M)
    found = [p for p in parts[1:] if p.splitlines()[0].endswith(f"(`{name}`)")]
    assert len(found) == 1, f"docs/setup.md has no section `## ... (`{name}`)`"
    return found[0]


@pytest.mark.parametrize("name", REGISTERED)
def test_every_game_documents_its_description_with_an_example_that_loads(name: str) -> None:
    section = _section(name)
    assert section.splitlines()[0] == f"{tw.load(name).title} (`{name}`)"
    examples = re.findall(r"^```json\n(.*?)^```$", section, re.M | re.S)
    assert examples, f"the {name} section shows a description"
    for text in examples:
        description = json.loads(text)
        accepted = []
        for config in game_configurations([name]):
            try:
                state = config.load().setup(description, seed=3)
            except tw.SetupError:
                continue
            accepted.append(config)
            if "active" in description:
                assert state.current_player == description["active"]
            # A documented position plays on.
            assert state.is_terminal or state.legal_actions()
        assert accepted, f"no configuration of {name} accepts the documented description {text}"
    # Every field the section's table lists is a field the example uses.
    fields = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert fields and set(fields) <= set().union(*(json.loads(t).keys() for t in examples)), fields


def test_the_python_example_prints_what_it_says(tmp_path: Path) -> None:
    (block,) = re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S)
    r = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    printed = re.search(r"print\(state\.current_player\)\s+# (\d+)", block)
    assert printed and r.stdout.strip() == printed.group(1)


def test_the_error_the_page_quotes_is_the_one_raised() -> None:
    quoted = re.search(r"\(([\w ]+)'s `(\{.*?\})`: field `([^`]+)`, \"([^\"]+)\"\)", TEXT.replace("\n  ", " "))
    assert quoted, "the page quotes an error"
    title, description, field, message = quoted.groups()
    (name,) = [n for n in REGISTERED if tw.load(n).title == title]
    with pytest.raises(tw.SetupError) as info:
        tw.load(name).setup(json.loads(description))
    assert f"field `{field}`: {message}" in str(info.value)


def test_game_setup_points_to_the_page() -> None:
    assert "docs/setup.md" in (tw.Game.setup.__doc__ or "")
