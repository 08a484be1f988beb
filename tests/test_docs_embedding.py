"""The examples of docs/embedding.md: every Python example type-checks with `mypy --strict`
(configured as the page says) and runs; the Rust example is the file `cargo test` builds."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import tradewinds as tw

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "embedding.md"


def _blocks(language: str) -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```$", text, re.M | re.S)


PYTHON = _blocks("python")


def _mypy_config() -> str:
    """The page's mypy configuration (its TOML block with [tool.mypy])."""
    tomls = [t for t in _blocks("toml") if "[tool.mypy]" in t]
    assert len(tomls) == 1, "the page shows one mypy configuration"
    parsed = tomllib.loads(tomls[0])
    assert parsed["tool"]["mypy"]["strict"] is True
    return tomls[0]


def test_the_page_has_python_and_rust_examples() -> None:
    assert len(PYTHON) >= 4
    for module in ("tradewinds.openspiel", "tradewinds.pettingzoo", "tradewinds.gymnasium"):
        assert any(f"import {module}" in block for block in PYTHON), module
    assert _blocks("rust")


def test_python_examples_pass_mypy_strict(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(_mypy_config(), encoding="utf-8")
    files = []
    for i, block in enumerate(PYTHON):
        path = tmp_path / f"embedding_example_{i}.py"
        path.write_text(block, encoding="utf-8")
        files.append(path.name)
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *files],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("index", range(len(PYTHON)), ids=[f"example-{i}" for i in range(len(PYTHON))])
def test_python_examples_run(index: int, tmp_path: Path) -> None:
    path = tmp_path / f"embedding_example_{index}.py"
    path.write_text(PYTHON[index], encoding="utf-8")
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_rust_example_is_the_compiled_file() -> None:
    (block,) = _blocks("rust")
    assert block == (ROOT / "examples" / "embedding.rs").read_text(encoding="utf-8")
    # Cargo builds every file of examples/ (the manifest does not turn that off).
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    assert manifest["package"].get("autoexamples", True) is True


def test_rust_dependency_line_turns_python_off() -> None:
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    assert manifest["features"]["default"] == [] or "python" not in manifest["features"]["default"]
    dependency = [t for t in _blocks("toml") if "[dependencies]" in t]
    assert len(dependency) == 1
    spec = tomllib.loads(dependency[0])["dependencies"]["tradewinds"]
    assert spec["default-features"] is False


def test_the_action_counts_the_page_names_are_the_games() -> None:
    text = PAGE.read_text(encoding="utf-8")
    said = re.search(r"`game\.num_distinct_actions`: North Wind has (\d+), Mistwind (\d+), Before the Wind (\d+)\)",
                     text)
    assert said, "the page names the action counts of North Wind, Mistwind and Before the Wind"
    for name, count in zip(("north-wind", "mistwind", "before-the-wind"), said.groups()):
        assert int(count) == tw.load(name).num_distinct_actions, name
    for game, count in re.findall(r'tw\.VectorGame\("([\w-]+)".*# (\d+) action ids', text):
        assert int(count) == tw.load(game).num_distinct_actions, game
