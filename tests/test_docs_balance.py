"""The examples of docs/balance.md run (the studies in small form), and the page documents
every option of `tradewinds metrics`, `tradewinds sweep` and `tradewinds balance`, and every
metric."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import tradewinds as tw
from tradewinds import cli

PAGE = Path(__file__).resolve().parent.parent / "docs" / "balance.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON = re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S)
SHELL = re.findall(r"^```sh\n(.*?)^```$", TEXT, re.M | re.S)


def test_the_page_documents_every_metrics_option() -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    metrics = sub.choices["metrics"]  # type: ignore[index]
    options = [s for a in metrics._actions for s in a.option_strings if s.startswith("--") and s != "--help"]
    assert options
    for option in options:
        assert f"`{option}" in TEXT, option


def test_the_page_defines_every_metric() -> None:
    m = tw.simulate("regatta", 50, players=2, seed=1, metrics=True).metrics()
    for metric in m.metrics:
        name = re.sub(r"^share: .*", "share: CATEGORY", re.sub(r"\d+$", "p", metric.name))
        assert f"`{name}`" in TEXT, metric.name


def test_the_study_runs_in_small_form(tmp_path: Path) -> None:
    """The North Wind study of the page with 200 games a player count instead of 20,000
    prints a line per player count whose intervals hold its rates."""
    study = next(b for b in PYTHON if "20_000" in b)
    script = tmp_path / "study.py"
    script.write_text(study.replace("20_000", "200"), encoding="utf-8")
    r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = [line for line in r.stdout.splitlines() if "players (even share" in line]
    assert [line.split()[0] for line in lines] == ["2", "3", "4"]
    for line in lines:
        for value, low, high in re.findall(r"([\d.]+) \[([\d.]+), ([\d.]+)\]", line):
            assert float(low) <= float(value) <= float(high)
    # The page shows the real output of the full study: its first line is the script's.
    assert "2 players (even share 0.500):" in TEXT


def test_the_first_example_and_the_command_run_in_small_form(tmp_path: Path) -> None:
    first = PYTHON[0].replace("2000", "100")
    script = tmp_path / "first.py"
    script.write_text(first, encoding="utf-8")
    r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "drama" in r.stdout
    words = shlex.split(SHELL[0].strip())
    assert words[:2] == ["tradewinds", "metrics"]
    words[words.index("--games") + 1] = "100"
    r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "seats win equally often?" in r.stdout


def _options_of(command: str) -> list[str]:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    p = sub.choices[command]  # type: ignore[index]
    return [s for a in p._actions for s in a.option_strings if s.startswith("--") and s != "--help"]


def test_the_page_documents_every_sweep_and_balance_option() -> None:
    for command in ("sweep", "balance"):
        options = _options_of(command)
        assert options
        section = TEXT.split(f"`tradewinds {command}` takes", 1)[1].split("\n\n", 1)[0]
        for option in options:
            assert f"`{option}" in section, (command, option)


def test_the_sweep_example_and_command_run_in_small_form(tmp_path: Path) -> None:
    example = next(b for b in PYTHON if "tw.sweep(" in b and "500" in b)
    script = tmp_path / "sweep.py"
    script.write_text(example.replace("games=500", "games=60"), encoding="utf-8")
    r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "variant 'rules.duplicate_price=6' (rules.duplicate_price = 6):" in r.stdout
    command = next(b for b in SHELL if b.startswith("tradewinds sweep"))
    words = shlex.split(command.strip())
    words[words.index("--games") + 1] = "60"
    r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "variant 'rules.duplicate_price=2'" in r.stdout and "decisions" in r.stdout


def test_the_report_command_runs_in_small_form(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    command = next(b for b in SHELL if b.startswith("tradewinds balance"))
    words = shlex.split(command.strip())
    words[words.index("--games") + 1] = "40"
    r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = tmp_path / words[words.index("--out") + 1]
    page = out.read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "tradewinds balance nauticus" in page


def test_the_nauticus_price_study_runs_in_small_form(tmp_path: Path) -> None:
    """The Nauticus study of the page with 200 games a variant instead of 5,000: the same
    command prints a table for each price, whose intervals hold their differences."""
    study = TEXT.split("## Study: the price of a duplicate in Nauticus", 1)[1]
    command = re.findall(r"^```sh\n(.*?)^```$", study, re.M | re.S)[0]
    words = shlex.split(command.strip())
    assert words[:2] == ["tradewinds", "sweep"]
    assert words[words.index("--games") + 1] == "5000"
    words[words.index("--games") + 1] = "200"
    r = subprocess.run([sys.executable, "-m", "tradewinds", *words[1:]], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    shown = re.findall(r"^variant '([^']*)'", r.stdout, re.M)
    assert shown == re.findall(r"^variant '([^']*)'", study, re.M)
    rows = re.findall(r"^  (\S[^\n]*?)\s+(-?[\d.,]+)\s+(-?[\d.,]+)\s+([-+]?[\d.,]+)\s+([-+]?[\d.,]+) \.\. ([-+]?[\d.,]+)$",
                      r.stdout, re.M)
    assert rows
    for _, _, _, diff, low, high in rows:
        d, lo, hi = (float(x.replace(",", "")) for x in (diff, low, high))
        assert lo <= hi
    # The page shows the full study's real output: its first line is the command's.
    assert "nauticus, 3 seats: " in study and "5,000 paired games each" in study


def test_the_nauticus_study_from_python_runs_in_small_form(tmp_path: Path) -> None:
    """The Python form of the Nauticus study with 200 games a variant: a row per price, and
    the figure the page shows (docs/img/nauticus-prices.svg is that figure of the full study)."""
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    study = TEXT.split("## Study: the price of a duplicate in Nauticus", 1)[1]
    code = re.findall(r"^```python\n(.*?)^```$", study, re.M | re.S)[0]
    assert "5000" in code
    script = tmp_path / "prices.py"
    script.write_text(code.replace("5000", "200"), encoding="utf-8")
    r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == ["2", "3", "5", "6", "8"]
    for _, base, value, diff, low, high in rows:
        assert float(diff) == pytest.approx(float(value) - float(base), abs=1e-5)
        assert float(low) <= float(high)
    assert (tmp_path / "nauticus-prices.svg").stat().st_size > 1000
    assert (PAGE.parent / "img" / "nauticus-prices.svg").is_file() and "img/nauticus-prices.svg" in study


def test_the_page_documents_every_optimise_option() -> None:
    options = _options_of("optimise")
    assert options
    section = TEXT.split("`tradewinds optimise` takes", 1)[1].split("\n\n", 1)[0]
    for option in options:
        assert f"`{option}" in section, option


def _small_optimise(words: list[str]) -> list[str]:
    """The study's command at 4 trials of 30 games, 40 games a re-evaluated candidate."""
    for flag, full, small in (("--budget", "30", "4"), ("--games", "2000", "30"), ("--reevaluate-games", "20000", "40")):
        assert words[words.index(flag) + 1] == full, flag
        words[words.index(flag) + 1] = small
    return words


def test_the_optimisation_example_and_the_mistwind_study_run_in_small_form(tmp_path: Path) -> None:
    """The Python example of the Optimisation section and the study's command, each at 4
    trials of 30 games: the same search, so the same best; the page shows the full runs."""
    pytest.importorskip("optuna")
    pytest.importorskip("pandas")
    example = next(b for b in PYTHON if "tw.optimise(" in b)
    for full, small in (("budget=30", "budget=4"), ("reevaluate_games=20000", "reevaluate_games=40"),
                        (" games=2000,", " games=30,")):
        assert full in example
        example = example.replace(full, small)
    script = tmp_path / "optimise.py"
    script.write_text(example, encoding="utf-8")
    r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("{'rules.start_marker_points': ") and lines[1].startswith("first seat: ")
    best = int(lines[0].split(": ", 1)[1].split("}", 1)[0])
    assert (tmp_path / "mistwind-even.json").is_file()

    study = TEXT.split("## Study: an even first seat in Mistwind", 1)[1]
    command = re.findall(r"^```sh\n(.*?)^```$", study, re.M | re.S)[0]
    words = shlex.split(command.strip())
    assert words[:2] == ["tradewinds", "optimise"]
    r = subprocess.run([sys.executable, "-m", "tradewinds", *_small_optimise(words)[1:]], cwd=tmp_path,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("mistwind, 3 seats: minimise seat advantage (largest |win rate of a seat - 1/n|) "
                               "over rules.start_marker_points in 0..12; TPE (Optuna ")
    assert f"best: rules.start_marker_points = {best} (the data file's: rules.start_marker_points = 2)" in r.stdout
    assert "search: 4 trials (0 not played), 30 games each on the same seeds" in r.stdout
    assert "trial 4/4: rules.start_marker_points = " in r.stderr
    # The page shows the full study's real output: its first line is the command's.
    assert "30 trials of 2,000 games (seed 1; greedy, greedy, greedy)" in study
    assert "search: 30 trials (0 not played), 2,000 games each on the same seeds" in study
