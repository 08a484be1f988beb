"""Using a part of tradewinds whose optional dependency is missing names the extra that
installs it: the adapters on import, pandas, plots and Dask when called. Each case runs in a
fresh interpreter in which the dependency cannot be imported."""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Blocks importing the named top-level modules, as if they were not installed.
BLOCK = """
import sys
blocked = set(sys.argv[1].split(","))
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
"""


def run_without(modules: str, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BLOCK + code, modules], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize(("adapter", "missing", "extra"), [
    ("tradewinds.openspiel", "pyspiel", "open-spiel"),
    ("tradewinds.pettingzoo", "pettingzoo", "pettingzoo"),
    ("tradewinds.pettingzoo", "gymnasium", "pettingzoo"),
    ("tradewinds.gymnasium", "gymnasium", "gymnasium"),
])
def test_importing_an_adapter_without_its_extra_names_the_extra(adapter: str, missing: str, extra: str) -> None:
    r = run_without(missing, f"import {adapter}")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last == (f"ImportError: {adapter} needs {missing}, which is not installed; "
                    f"install it with `pip install 'tradewinds[{extra}]'`"), r.stderr


def test_each_extra_named_is_declared() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    extras = project["project"]["optional-dependencies"]
    for extra in ("open-spiel", "pettingzoo", "gymnasium", "pandas", "plot", "dask", "balance"):
        assert extra in extras, extra


@pytest.mark.parametrize(("missing", "code", "extra"), [
    ("pandas", "r.to_pandas()", "pandas"),
    ("matplotlib", "r.plot('x.png')", "plot"),
])
def test_results_without_their_extra_name_it(missing: str, code: str, extra: str) -> None:
    r = run_without(missing, f"import tradewinds as tw\nr = tw.simulate(tw.GAMES[0], 5)\n{code}")
    assert r.returncode == 1 and f"pip install 'tradewinds[{extra}]'" in r.stderr, r.stderr


def test_optimise_without_optuna_names_the_balance_extra() -> None:
    r = run_without("optuna", "import tradewinds as tw\n"
                              "tw.optimise('mistwind', {'rules.start_marker_points': (0, 4)}, "
                              "tw.objectives.seat_advantage_even(), budget=2, games=5)")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: tw.optimise() needs optuna, which is not installed; "
                    "install it with `pip install 'tradewinds[balance]'`"), r.stderr
