"""The balance report (`tradewinds balance`, `tradewinds.report.balance_report`): one
self-contained HTML page with the metric table, the figures as inline SVG, the exact command,
the versions and the seeds; it loads nothing from outside itself. The page in a real browser
is tested in `tests/test_report_browser.py`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tradewinds as tw
from tradewinds.balance import _num
from tradewinds.report import balance_report, external_loads

pytest.importorskip("matplotlib")

GAME = "nauticus"


def write_report(tmp_path: Path, *extra: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path / "report.html"
    r = subprocess.run([sys.executable, "-m", "tradewinds", "balance", GAME, "--players", "3", "--games", "60",
                        "--seed", "4", *extra, "--out", str(out)], capture_output=True, text=True, timeout=600,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return out, r


def test_the_report_of_a_sweep_holds_everything_and_loads_nothing(tmp_path: Path) -> None:
    out, r = write_report(tmp_path, "--set", "rules.duplicate_price=2,6,101")
    page = out.read_text(encoding="utf-8")
    assert f"wrote {out}" in r.stdout
    assert external_loads(page) == []
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    # Three figures: seats and scores, lengths, the response curves; no XML prolog inside.
    assert page.count("<svg") == 3 and "<?xml" not in page
    # The exact command, the versions and the seeds.
    command = re.search(r"<pre id='command'>(.*?)</pre>", page, re.S)
    assert command is not None
    assert command.group(1) == (f"tradewinds balance {GAME} --players 3 --games 60 --seed 4 --set "
                                f"rules.duplicate_price=2,6,101 --out {out}")
    for word in ("tradewinds", "python", "numpy", "matplotlib", tw.__version__):
        assert f"<dt>{word}</dt>" in page or word in page
    assert "<dt>seed</dt><dd>4</dd>" in page and "<dt>games</dt><dd>60</dd>" in page
    # The metric table and the sweep's tables, the refused variant named.
    m = tw.simulate(GAME, 60, players=3, seed=4, metrics=True).metrics()
    for metric in m.metrics:
        assert f"<td>{metric.name}</td>" in page.replace("&#x27;", "'"), metric.name
    assert "rules.duplicate_price=6" in page and "was not played" in page and "outside 0..=100" in page


def test_the_report_of_a_data_file(tmp_path: Path) -> None:
    data = json.loads(tw.data_path(GAME).read_text(encoding="utf-8"))
    data["rules"]["starting_taler"]["value"] = 25
    path = tmp_path / "rich.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, _ = write_report(tmp_path, "--data", "rich.json")
    page = out.read_text(encoding="utf-8")
    assert page.count("<svg") == 2 and "component data: rich.json" in page
    assert external_loads(page) == []
    # The report's metrics are those of the game with that file.
    m = tw.simulate(tw.load(GAME, players=3, data=str(path)), 60, seed=4, metrics=True).metrics()
    assert f"<td>decisions</td><td>{_num(m['decisions'].value)}</td>" in page


def test_the_same_run_gives_the_same_page() -> None:
    result = tw.simulate(GAME, 40, players=3, seed=1, metrics=True)
    assert balance_report(result, command="x") == balance_report(result, command="x")


def test_external_loads_are_found() -> None:
    assert external_loads('<img src="https://example.org/a.png"><a href="#x"></a>') == ["https://example.org/a.png"]
    assert external_loads("<style>a { background: url(http://x/y.png) }</style>") == ["http://x/y.png"]
    assert external_loads('<image xlink:href="data:image/png;base64,AAAA"/>') == []


@pytest.mark.parametrize("args, message", [
    (["--out", "report.txt"], "--out must name an .html file"),
    (["--out", "r.html", "--data", "a.json", "--option", "data=b.json"], "both name a data file"),
    (["--out", "r.html", "--games", "0"], "--games"),
])
def test_the_balance_command_refuses_bad_usage(tmp_path: Path, args: list[str], message: str) -> None:
    r = subprocess.run([sys.executable, "-m", "tradewinds", "balance", GAME, *args], capture_output=True, text=True,
                       timeout=600, cwd=tmp_path)
    assert r.returncode == 2 and message in r.stderr, r.stderr


def test_a_data_file_the_game_refuses_is_an_error(tmp_path: Path) -> None:
    data = json.loads(tw.data_path(GAME).read_text(encoding="utf-8"))
    data["rules"]["duplicate_price"]["value"] = 500
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "tradewinds", "balance", GAME, "--data", "bad.json", "--out", "r.html"],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert r.returncode == 2 and "rules.duplicate_price" in r.stderr, r.stderr
    assert not (tmp_path / "r.html").exists()
