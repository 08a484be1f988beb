"""The distribution set-up: the wheel workflow (.github/workflows/wheels.yml) lints clean
against the GitHub workflow schema and builds, tests and publishes what docs/releasing.md
says; the local wheel script and CI run the same checks."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"


def _workflow() -> dict[str, Any]:
    return YAML(typ="safe").load(WORKFLOW.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _uses(job: dict[str, Any], action: str) -> list[dict[str, Any]]:
    return [s for s in job["steps"] if str(s.get("uses", "")).startswith(action + "@")]


def test_the_workflow_lints_clean() -> None:
    # check-jsonschema ships the schema (no download): the test extra installs it.
    r = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_wheels_for_every_platform_with_the_maturin_action() -> None:
    jobs = _workflow()["jobs"]
    built: dict[str, set[str]] = {}
    for os_name in ("linux", "macos", "windows"):
        job = jobs[os_name]
        (step,) = _uses(job, "PyO3/maturin-action")
        matrix = job.get("strategy", {}).get("matrix", {}).get("include", [{}])
        targets = {str(entry.get("target", step["with"].get("target"))) for entry in matrix}
        built[os_name] = targets
        assert "--release" in step["with"]["args"]
        (upload,) = _uses(job, "actions/upload-artifact")
        assert upload["with"]["path"] == "dist/*.whl"
    assert built == {"linux": {"x86_64", "aarch64"}, "macos": {"x86_64", "aarch64"}, "windows": {"x64"}}
    (linux_build,) = _uses(jobs["linux"], "PyO3/maturin-action")
    assert str(linux_build["with"]["manylinux"]) == "2014"
    (sdist,) = _uses(jobs["sdist"], "PyO3/maturin-action")
    assert sdist["with"]["command"] == "sdist"


def test_every_wheel_is_smoke_tested_and_the_release_waits_for_it() -> None:
    jobs = _workflow()["jobs"]
    test = jobs["test"]
    assert set(test["needs"]) == {"linux", "macos", "windows"}
    artifacts = {p["artifact"] for p in test["strategy"]["matrix"]["platform"]}
    uploaded = {f"wheels-{os_name}-{t}" for os_name, targets in
                (("linux", ("x86_64", "aarch64")), ("macos", ("x86_64", "aarch64")), ("windows", ("x64",)))
                for t in targets}
    assert artifacts == uploaded
    assert "3.11" in test["strategy"]["matrix"]["python"]
    runs = " ".join(s.get("run", "") for s in test["steps"])
    assert "scripts/smoke_test.py" in runs and "pip install dist/*.whl" in runs
    assert "scripts/smoke_test.py" in " ".join(s.get("run", "") for s in jobs["sdist"]["steps"])
    release = jobs["release"]
    assert set(release["needs"]) == {"test", "sdist"} and "refs/tags/v" in release["if"]
    assert release["permissions"] == {"id-token": "write"} and _uses(release, "pypa/gh-action-pypi-publish")


def test_the_tool_versions_agree() -> None:
    pins = dict(line.split("==") for line in (ROOT / "scripts" / "wheel-tools.txt").read_text().splitlines()
                if line and not line.startswith("#"))
    assert set(pins) == {"maturin", "ziglang", "auditwheel", "twine"}
    text = WORKFLOW.read_text(encoding="utf-8")
    for twine in re.findall(r"twine==([\d.]+)", text):
        assert twine == pins["twine"]
    build = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    low, high = re.search(r'"maturin>=([\d.]+),<(\d+)"', build).groups()  # type: ignore[union-attr]
    assert tuple(map(int, low.split("."))) <= tuple(map(int, pins["maturin"].split("."))) < (int(high),)


def test_the_wheel_script_and_ci() -> None:
    script = ROOT / "scripts" / "build-wheel.sh"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["bash", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text(encoding="utf-8")
    for needed in ("--zig", "--compatibility manylinux2014", "auditwheel show", "twine check --strict",
                   "scripts/smoke_test.py"):
        assert needed in text, needed
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_command = next(line for line in ci if "pytest" in line)
    # The README's command, with only the wait for the browser's install before pytest.
    assert test_command.replace("browser_ready && ", "") in readme
    # The wheel job starts before the test command, in the background, and the run waits for
    # it after the tests: its failure is the run's.
    start = next(i for i, line in enumerate(ci) if "scripts/build-wheel.sh" in line and not line.startswith("#"))
    assert start < ci.index(test_command) and ci[start].rstrip().endswith("&")
    after = ci[ci.index(test_command) + 1:]
    assert 'wait "$wheel_job" || wheel_status=$?' in after and 'exit "$wheel_status"' in after


def test_ci_installs_the_browser_before_the_tests_and_goes_on_without_it(tmp_path: Path) -> None:
    """.ci/run installs Debian's chromium and chromium-driver (for tests/test_viewer_browser.py)
    in the background, and waits for it before the Python tests; an install that fails does
    not fail the run."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    test_command = next(line for line in lines if "pytest" in line)
    assert "browser_ready && .venv/bin/python -m pytest" in test_command
    start = next(i for i, line in enumerate(lines) if line.startswith("browser_job="))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    assert end < lines.index(test_command)
    block = "\n".join(lines[start:end + 1])
    assert "apt-get install -y -q chromium chromium-driver" in block
    # As if neither were installed, with an apt-get that fails.
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "apt-get").write_text("#!/bin/sh\necho apt-get: failed >&2\nexit 100\n", encoding="utf-8")
    (fake / "apt-get").chmod(0o755)
    (tmp_path / "target").mkdir()
    script = ("set -euo pipefail\n" + block.replace("/usr/bin/chromium", str(tmp_path / "none"))
              + "\nbrowser_ready\necho went on\n")
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                       env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"})
    assert r.returncode == 0 and r.stdout.strip().endswith("went on"), r.stderr
    if os.getuid() == 0:
        assert "the browser test will skip" in (tmp_path / "target" / "ci-browser.log").read_text(encoding="utf-8")
