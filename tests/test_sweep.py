"""Sweeps (`tw.sweep`, `tradewinds sweep`): variants of a game's component data played over
the same game seeds as the base game, each metric reported as a paired difference from it.
Known values: a variant equal to the base game differs by exactly 0 with intervals of width 0;
a constant shift of every game is recovered exactly by the paired bootstrap. A variant the game
refuses is reported by name while the others run. The results do not depend on threads, on
Dask, or on an interruption and a resume."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tradewinds as tw
from tradewinds.balance import Contribution, compute, contributions
from tradewinds.sweep import MANIFEST, apply_edits, paired_intervals

GAME, PLAYERS = "nauticus", 3
GAMES = 120
SHIPPED_PRICE = 4  # rules.duplicate_price in the shipped Nauticus file


def test_a_variant_equal_to_the_base_game_differs_by_exactly_zero() -> None:
    # The shipped value again; and a file that differs from the shipped one only in a note,
    # so the variant's game carries its own data file but plays the same games.
    variants = {"same": {"rules.duplicate_price": SHIPPED_PRICE},
                "note": {"rules.duplicate_price.note": "the same price, said otherwise"}}
    result = tw.sweep(GAME, variants, GAMES, players=PLAYERS, seed=3, agents=["greedy", "random", "greedy"])
    assert result.base.metrics is not None
    note = result.variant("note").result
    assert note is not None and "data" in note.options  # the variant's own file
    for same in result.variants:
        assert same.ok and same.differences
        assert {d.metric for d in same.differences} == {m.name for m in result.base.metrics.metrics}
        for d in same.differences:
            assert d.difference == 0.0 or (math.isnan(d.base) and math.isnan(d.value)), d
            if math.isfinite(d.low):
                assert d.low == 0.0 and d.high == 0.0, d  # an interval of width 0
        assert same.difference("decisions").low == same.difference("decisions").high == 0.0


def test_the_paired_bootstrap_recovers_a_constant_shift_exactly() -> None:
    # Every game of the variant one more than the same game of the base: the paired
    # difference is 1 in every resample; an unpaired comparison would see the spread.
    rng = np.random.default_rng(0)
    x = rng.normal(10.0, 5.0, 400)
    one = np.ones(400)
    base = {"length": Contribution(x, one)}
    shifted = {"length": Contribution(x + 1.0, one)}
    other = {"length": Contribution(rng.normal(11.0, 5.0, 400), one)}
    (exact, unpaired) = paired_intervals(base, [shifted, other], 400, 500)
    lo, hi = exact["length"]
    assert lo == pytest.approx(1.0, abs=1e-12) and hi == pytest.approx(1.0, abs=1e-12)
    lo2, hi2 = unpaired["length"]
    assert hi2 - lo2 > 0.5  # independent games: the interval has the width of their spread


def test_variants_the_game_refuses_are_reported_and_the_rest_run() -> None:
    variants = {
        "too dear": {"rules.duplicate_price": 101},
        "negative": {"rules.duplicate_price": -1},
        "typo": {"rules.duplicate_prise": 5},
        "dear": {"rules.duplicate_price": 6},
    }
    result = tw.sweep(GAME, variants, 60, players=PLAYERS, seed=1)
    assert [v.name for v in result.failed] == ["too dear", "negative", "typo"]
    assert "rules.duplicate_price" in result.variant("too dear").error  # type: ignore[operator]
    assert "outside 0..=100" in result.variant("too dear").error  # type: ignore[operator]
    assert "duplicate_prise" in result.variant("typo").error  # type: ignore[operator]
    dear = result.variant("dear")
    assert dear.ok and dear.metrics is not None and dear.differences
    text = result.summary()
    for name in ("too dear", "negative", "typo"):
        assert f"variant {name!r} " in text and "was not played" in text
    assert "variant 'dear' (rules.duplicate_price = 6):" in text
    with pytest.raises(KeyError, match="was not played"):
        result.difference("typo", "decisions")


def test_differences_are_those_of_the_variants_metrics() -> None:
    result = tw.sweep(GAME, tw.grid({"rules.duplicate_price": [2, 6]}), GAMES, players=PLAYERS, seed=2,
                      agents=["greedy", "random", "random"])
    assert [v.name for v in result.variants] == ["rules.duplicate_price=2", "rules.duplicate_price=6"]
    assert result.base_values == {"rules.duplicate_price": SHIPPED_PRICE}
    base = result.base.metrics
    assert base is not None and base.measured
    for v in result.variants:
        assert v.metrics is not None
        for d in v.differences:
            assert d.base == base[d.metric].value and d.value == v.metrics[d.metric].value
            assert d.difference == d.value - d.base
            assert d.games == GAMES


def test_contributions_give_every_metric_of_compute() -> None:
    run = tw.simulate(GAME, 200, players=PLAYERS, seed=4, metrics=True)
    m = compute(run.arrays, run.layout, game=GAME, agents=run.agents)
    parts = contributions(run.arrays, run.layout)
    assert list(parts) == [x.name for x in m.metrics]
    for metric in m.metrics:
        c = parts[metric.name]
        if c.spread:
            rates = c.num.mean(axis=0)
            value = rates.max() - rates.min()
        else:
            value = c.num.sum() / c.den.sum()
        assert value == pytest.approx(metric.value, rel=1e-12, abs=1e-15), metric.name


def test_grid_and_edits() -> None:
    g = tw.grid({"a.b": [1, 2], "c": [[3, 4], "x"]})
    assert list(g) == ['a.b=1, c=[3,4]', 'a.b=1, c="x"', 'a.b=2, c=[3,4]', 'a.b=2, c="x"']
    assert g['a.b=2, c="x"'] == {"a.b": 2, "c": "x"}
    data: dict[str, Any] = {"rules": {"p": {"value": 4, "source": "printed"}}, "prices": [{"prices": [2, 3, 1, 0]}]}
    edited = apply_edits(data, {"rules.p": 5, "prices.0.prices.1": 9})
    assert edited == {"rules": {"p": {"value": 5, "source": "printed"}}, "prices": [{"prices": [2, 9, 1, 0]}]}
    assert data["rules"]["p"]["value"] == 4  # the base is not changed
    assert apply_edits(data, {"rules.p": {"value": 1, "source": "reconstructed"}})["rules"]["p"]["source"] == \
        "reconstructed"
    for path, match in [("rules.q", "has no field 'q'"), ("prices.5", "not an index"),
                        ("prices.0.prices.1.x", "is a value")]:
        with pytest.raises(ValueError, match=match):
            apply_edits(data, {path: 1})
    with pytest.raises(ValueError, match="non-empty list"):
        tw.grid({"a": []})
    with pytest.raises(ValueError, match="regatta ships no component data file"):
        tw.sweep("regatta", {"a": {"x": 1}}, 5, players=2)  # a test game without a data file
    with pytest.raises(ValueError, match="'base' names the base game"):
        tw.sweep(GAME, {"base": {"rules.duplicate_price": 3}}, 5, players=PLAYERS)


def test_a_game_loaded_with_its_own_data_is_the_base(tmp_path: Path) -> None:
    data = json.loads(tw.data_path(GAME).read_text(encoding="utf-8"))
    data["rules"]["duplicate_price"]["value"] = 6
    path = tmp_path / "dear.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    dear = tw.load(GAME, players=PLAYERS, data=str(path))
    # Editing the loaded game's own file back to the shipped value is the shipped game.
    swept = tw.sweep(dear, {"shipped": {"rules.duplicate_price": SHIPPED_PRICE}}, 80, seed=5)
    shipped = tw.simulate(GAME, 80, players=PLAYERS, seed=5, metrics=True).metrics()
    variant = swept.variant("shipped").metrics
    assert variant is not None and variant.to_dict() == shipped.to_dict()


def test_one_and_two_threads_give_the_same_sweep() -> None:
    variants = tw.grid({"rules.starting_taler": [10, 20]})
    one = tw.sweep(GAME, variants, GAMES, players=PLAYERS, seed=7, threads=1, chunk_games=32)
    two = tw.sweep(GAME, variants, GAMES, players=PLAYERS, seed=7, threads=2, chunk_games=32)
    assert one.to_json() == two.to_json()


def test_an_interrupted_sweep_resumes_to_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    variants = tw.grid({"rules.duplicate_price": [3, 5]})
    whole = tw.sweep(GAME, variants, 200, players=PLAYERS, seed=9, chunk_games=50)
    out = tmp_path / "sweep"
    played = [0]

    def stop_midway(n: int) -> bool:
        played[0] += n
        return played[0] < 300  # the base game's 200, and part of the first variant's

    with pytest.raises(KeyboardInterrupt):
        tw.sweep(GAME, variants, 200, players=PLAYERS, seed=9, chunk_games=50, out=out, progress=stop_midway)
    assert (out / MANIFEST).is_file() and (out / "base").is_dir() and not (out / "variant-001").exists()
    with pytest.raises(ValueError, match="already holds a sweep"):
        tw.sweep(GAME, variants, 200, players=PLAYERS, seed=9, chunk_games=50, out=out)
    with pytest.raises(ValueError, match="variants"):
        tw.sweep(GAME, tw.grid({"rules.duplicate_price": [3, 6]}), 200, players=PLAYERS, seed=9, chunk_games=50,
                 out=out, resume=True)
    with pytest.raises(ValueError, match="seed"):
        tw.sweep(GAME, variants, 200, players=PLAYERS, seed=8, chunk_games=50, out=out, resume=True)
    resumed = tw.sweep(GAME, variants, 200, players=PLAYERS, seed=9, chunk_games=50, out=out, resume=True)
    assert resumed.to_json() == whole.to_json()
    again = tw.sweep(GAME, variants, 200, players=PLAYERS, seed=9, out=out, resume=True)
    assert again.to_json() == whole.to_json()


def test_a_sweep_on_a_dask_cluster_gives_the_same_results() -> None:
    distributed = pytest.importorskip("distributed")
    variants = tw.grid({"rules.duplicate_price": [2, 1000]})
    local = tw.sweep(GAME, variants, 80, players=PLAYERS, seed=6, chunk_games=20)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
            distributed.Client(c, set_as_default=False) as client:
        remote = tw.sweep(GAME, variants, 80, players=PLAYERS, seed=6, chunk_games=20, client=client)
        command = run_cli("sweep", GAME, "--players", str(PLAYERS), "--games", "80", "--seed", "6", "--set",
                          "rules.duplicate_price=2,1000", "--dask", c.scheduler_address, "--json")
    assert remote.to_json() == local.to_json()
    assert [v.name for v in remote.failed] == ["rules.duplicate_price=1000"]
    assert command.returncode == 0, command.stderr
    assert command.stdout == local.to_json() + "\n"


def test_the_outputs() -> None:
    pd = pytest.importorskip("pandas")
    result = tw.sweep(GAME, {"<cheap>": {"rules.duplicate_price": 2}, "bad": {"rules.nope": 1}}, 40,
                      players=PLAYERS, seed=1)
    frame = result.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["variant", "rules.duplicate_price", "rules.nope", "metric", "base", "value",
                                   "difference", "low", "high", "games"]
    assert set(frame["variant"]) == {"<cheap>"}
    assert len(frame) == len(result.variant("<cheap>").differences)
    page = result._repr_html_()
    assert "&lt;cheap&gt;" in page and "<cheap>" not in page and "was not played" in page
    data = json.loads(result.to_json())
    assert data["variants"][1]["error"] and data["variants"][0]["differences"]
    assert "<SweepResult nauticus 3 seats, 2 variants (1 not played)" in repr(result)
    assert str(result) == result.summary()
    short = result.summary(["decisions"])
    assert "decisions" in short and "branching" not in short


def test_the_response_curves_draw(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = tw.sweep(GAME, tw.grid({"rules.duplicate_price": [2, 6]}), 40, players=PLAYERS, seed=1)
    path = result.plot(tmp_path / "curves.svg", ["decisions", "score margin"])
    assert path.stat().st_size > 1000
    fig = result.figure()
    assert len([ax for ax in fig.axes if ax.get_visible()]) == len(result.variants[0].differences)


# ---- the command line --------------------------------------------------------------------------


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tradewinds", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd)


def test_the_sweep_command_prints_the_differences_and_the_refused_variants(tmp_path: Path) -> None:
    r = run_cli("sweep", GAME, "--players", "3", "--games", "40", "--seed", "1",
                "--set", "rules.duplicate_price=3,101", "--metric", "decisions")
    assert r.returncode == 0, r.stderr
    assert "variant 'rules.duplicate_price=3' (rules.duplicate_price = 3):" in r.stdout
    assert "variant 'rules.duplicate_price=101' (rules.duplicate_price = 101) was not played" in r.stdout
    assert "decisions" in r.stdout and "branching" not in r.stdout
    same = tw.sweep(GAME, tw.grid({"rules.duplicate_price": [3, 101]}), 40, players=3, seed=1)
    assert r.stdout == same.summary(["decisions"])
    j = run_cli("sweep", GAME, "--players", "3", "--games", "20", "--set", "prices.0.prices=[3,3,1,0],[0,0,0,0]",
                "--set", "rules.starting_taler=12", "--json", "--plot", str(tmp_path / "curves.svg"),
                "--metric", "no such metric")
    assert j.returncode == 0, j.stderr
    assert (tmp_path / "curves.svg").stat().st_size > 1000 and "figure written to" in j.stderr
    assert "warning: no metric 'no such metric'; the metrics are win rate seat 0" in j.stderr
    data = json.loads(j.stdout)
    assert [v["edits"] for v in data["variants"]] == [
        {"prices.0.prices": [3, 3, 1, 0], "rules.starting_taler": 12},
        {"prices.0.prices": [0, 0, 0, 0], "rules.starting_taler": 12},
    ]


@pytest.mark.parametrize("args, message", [
    ([], "--set PATH=VALUE"),
    (["--set", "rules.duplicate_price"], "--set needs PATH=VALUE"),
    (["--set", "a=1", "--set", "a=2"], "given twice"),
    (["--set", "a=1,,2"], "empty value"),
    (["--set", "a=1", "--games", "0"], "--games"),
    (["--set", "a=1", "--resume"], "--resume needs --out"),
])
def test_the_sweep_command_refuses_bad_usage(args: list[str], message: str) -> None:
    r = run_cli("sweep", GAME, *args)
    assert r.returncode == 2 and message in r.stderr, r.stderr


def test_the_sweep_command_resumes_a_directory(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    args = ["sweep", GAME, "--players", "3", "--games", "30", "--seed", "2", "--set", "rules.duplicate_price=5"]
    first = run_cli(*args, "--out", str(tmp_path / "s"))
    assert first.returncode == 0, first.stderr
    assert json.loads((tmp_path / "s" / MANIFEST).read_text())["kind"] == "tradewinds-sweep"
    again = run_cli(*args, "--out", str(tmp_path / "s"), "--resume")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    refused = run_cli(*args, "--out", str(tmp_path / "s"))
    assert refused.returncode == 1 and "already holds a sweep" in refused.stderr
