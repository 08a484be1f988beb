"""The documentation site builds without a warning: `mkdocs build --strict` fails on a broken
link, a link to a missing anchor, a page left out of the navigation, or an API name
(`::: tradewinds.X`) that does not resolve. The performance reference stays a reference."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tradewinds as tw

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytest.importorskip("mkdocstrings_handlers.python")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    warnings = [line for line in r.stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert r.returncode == 0 and not warnings, r.stderr
    # The home page is the README, included, not a second copy.
    assert (DOCS / "index.md").read_text(encoding="utf-8").strip() == '--8<-- "README.md"'
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Set-up from a checkout" in home
    # The API reference was generated: the package's docstrings (tw.load's), and the
    # extension's, which the stubs describe and the built extension holds (Game's, State.apply's).
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    for docstring in (tw.load.__doc__, tw.Game.__doc__, tw.State.apply.__doc__):
        assert docstring
        first_words = " ".join(docstring.split()[:4]).replace("`", "")
        assert first_words in " ".join(re.sub(r"<[^>]+>", "", api).split()), first_words
    # The docstrings' Sphinx roles (:func:`tradewinds.simulate`, for help() and IDEs) show as
    # their targets in code, never as raw roles.
    assert tw.simulate.__doc__ and ":class:`SimulationResult`" in tw.simulate.__doc__
    assert "<code>SimulationResult</code>" in api
    assert not re.search(r":(?:func|meth|class|attr|mod|exc):", re.sub(r"<[^>]+>", "", api))


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)$", config, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages == listed, (pages - listed, listed - pages)


def test_the_performance_reference_keeps_to_todays_figures() -> None:
    text = (DOCS / "performance.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    for section in ("## Targets", "## Today's figures", "## What bounds each", "## Reproducing"):
        assert f"\n{section}" in text, section


def _reference_pages() -> list[Path]:
    """The pages for users (the README and docs/, not the developers' records in docs/dev/)."""
    return [ROOT / "README.md", *(p for p in DOCS.rglob("*.md") if "dev" not in p.relative_to(DOCS).parts)]


def test_the_code_the_reference_names_exists() -> None:
    """Every file (`src/...`, `tests/...`) and every Rust path (`harness::invariants::check_state`)
    a reference page names in code exists: a module file, and the item declared in it."""
    missing = []
    for page in _reference_pages():
        text = page.read_text(encoding="utf-8")
        for path in re.findall(r"`((?:src|tests|scripts|benches|fuzz|python|examples)/[\w./-]+)`", text):
            if not (ROOT / path.rstrip(".")).exists():
                missing.append(f"{page.name}: {path}")
        for m in re.finditer(r"`(?:tradewinds::)?(engine|harness|games)::(\w+)(?:::(\w+))?", text):
            top, module, item = m.groups()
            folder = ROOT / "src" / top
            if (folder / f"{module}.rs").exists():
                source = (folder / f"{module}.rs").read_text(encoding="utf-8")
            elif (folder / module).is_dir():
                source = "".join(f.read_text(encoding="utf-8") for f in (folder / module).glob("*.rs"))
            else:  # an item of the parent module itself (`engine::Game`)
                source, item = (folder / "mod.rs").read_text(encoding="utf-8"), module
            declared = rf"\b(?:fn|struct|enum|trait|const|type|static|mod|macro_rules!)\s+{item}\b|pub use[^;]*\b{item}\b"
            if item and not re.search(declared, source):
                missing.append(f"{page.name}: {m.group(0)}`")
    assert not missing, missing
