"""The type stubs of the extension module match it (the blocks generated from the binding lists
are also compared with those lists by `cargo test`: docs/engine-contract.md, section 12), and the
package is typed."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tradewinds
import tradewinds._core as core

PACKAGE = Path(tradewinds.__file__).resolve().parent


def test_stubtest_passes() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tradewinds._core"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_package_is_marked_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "_core.pyi").is_file()


def test_stub_all_matches_the_module() -> None:
    tree = ast.parse((PACKAGE / "_core.pyi").read_text(encoding="utf-8"))
    declared = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            declared = ast.literal_eval(node.value)
    assert declared is not None
    assert sorted(declared) == sorted(core.__all__)


def test_typed_usage_checks_with_mypy(tmp_path: Path) -> None:
    # A strict type check of code using the public API: the stubs and annotations are usable.
    example = tmp_path / "example.py"
    example.write_text(
        "import numpy as np\n"
        "import numpy.typing as npt\n"
        "import tradewinds as tw\n"
        "\n"
        "def play(seed: int) -> list[float]:\n"
        "    game: tw.Game = tw.load(tw.GAMES[0])\n"
        "    state: tw.State = game.new_state(seed)\n"
        "    while not state.is_terminal:\n"
        "        legal: list[int] = state.legal_actions()\n"
        "        state.apply(legal[0])\n"
        "    obs: npt.NDArray[np.float32] = state.observation_tensor(0)\n"
        "    report: tw.ScoreReport = state.score_report()\n"
        "    result: tw.SimulationResult = tw.simulate(game, 10, seed=seed)\n"
        "    rates: npt.NDArray[np.float64] = result.win_rate\n"
        "    return report.totals + list(rates) + [float(obs.sum())]\n",
        encoding="utf-8",
    )
    r = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(example)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
