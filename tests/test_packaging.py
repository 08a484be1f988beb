"""What a package index receives: the sdist (built here with maturin, in a second) holds
everything a source build needs, its metadata is complete, the licence file matches the
declared licence, and the package, the crate and `tradewinds --version` agree on the version.
The wheel itself is built and checked by scripts/build-wheel.sh (auditwheel, twine check, a
smoke test in a fresh venv), which .ci/run runs beside the tests."""

from __future__ import annotations

import email.parser
import subprocess
import sys
import tarfile
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import tradewinds as tw

ROOT = Path(__file__).resolve().parent.parent
CARGO = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> tarfile.TarFile:
    out = tmp_path_factory.mktemp("sdist")
    r = subprocess.run([sys.executable, "-m", "maturin", "sdist", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    (path,) = out.glob("tradewinds-*.tar.gz")
    return tarfile.open(path)


def test_the_sdist_holds_what_a_source_build_needs(sdist: tarfile.TarFile) -> None:
    names = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    needed = {"PKG-INFO", "pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "LICENSE", "src/lib.rs",
              "python/tradewinds/__init__.py", "python/tradewinds/_core.pyi", "python/tradewinds/py.typed"}
    needed |= {f"benches/{b['name']}.rs" for b in CARGO.get("bench", [])}  # Cargo.toml names them
    # Each game's data file, built into the core.
    data_files = {str(p.relative_to(ROOT)) for p in (ROOT / "src" / "games").glob("*/data.json")}
    assert data_files
    needed |= data_files
    assert needed <= names, needed - names


def test_the_metadata_is_complete(sdist: tarfile.TarFile) -> None:
    member = next(m for m in sdist.getmembers() if m.name.endswith("/PKG-INFO") and m.name.count("/") == 1)
    raw = sdist.extractfile(member)
    assert raw is not None
    info = email.parser.Parser().parsestr(raw.read().decode("utf-8"))
    assert info["Name"] == "tradewinds" and info["Version"] == CARGO["package"]["version"]
    assert info["Requires-Python"] == ">=3.11"
    assert info["Description-Content-Type"].startswith("text/markdown")
    assert "The tradewinds maintainers" in (info["Author"] or "")
    assert info["Keywords"]
    classifiers = info.get_all("Classifier") or []
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers and "Typing :: Typed" in classifiers
    urls = dict(u.split(", ", 1) for u in info.get_all("Project-URL") or [])
    assert {"Homepage", "Repository", "Issues", "Changelog", "Documentation"} <= set(urls)
    assert "# tradewinds" in (info.get_payload() or "")


def test_the_licence_file_is_the_declared_one() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
    assert PYPROJECT["project"]["license"] == {"text": "MIT"} and CARGO["package"]["license"] == "MIT"


def test_one_version_everywhere() -> None:
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert tw.__version__ == metadata.version("tradewinds") == CARGO["package"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # The version being built has its section (marked "(unreleased)" until it is released).
    assert f"\n## {tw.__version__}" in changelog


def test_no_file_holds_an_unresolved_merge() -> None:
    """A merge left half-done shows as conflict markers at the start of a line; none may ship."""
    markers = ("<<<<<<< ", ">>>>>>> ", "=======\n")
    places = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Cargo.toml", ROOT / "pyproject.toml"]
    for folder in ("docs", "src", "python", "tests", "benches", "scripts", "examples", ".ci"):
        places += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in
                   {".md", ".rs", ".py", ".pyi", ".toml", ".sh", ".json", ".txt", ".yml", ""}]
    found = []
    for path in places:
        try:
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}:{i}" for i, line in enumerate(lines, 1) if line.startswith(markers)]
    assert not found, found
