"""The Python examples of docs/simulation.md run as written (each in a fresh interpreter, in
an empty directory), and the page documents every option of `tradewinds simulate`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tradewinds import cli

PAGE = Path(__file__).resolve().parent.parent / "docs" / "simulation.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON = re.findall(r"^```python\n(.*?)^```$", TEXT, re.M | re.S)


def test_the_page_documents_every_simulate_option() -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    simulate = sub.choices["simulate"]  # type: ignore[index]
    options = [s for a in simulate._actions for s in a.option_strings if s.startswith("--") and s != "--help"]
    assert options
    for option in options:
        assert f"`{option}" in TEXT, option
    assert len(PYTHON) >= 6


@pytest.mark.slow
def test_examples_run_in_order(tmp_path: Path) -> None:
    # In order: the resume example finishes the directory the streaming example wrote.
    for i, block in enumerate(PYTHON):
        script = tmp_path / f"example_{i}.py"
        script.write_text(block, encoding="utf-8")
        r = subprocess.run([sys.executable, script.name], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"example {i}:\n{block}\n{r.stdout}\n{r.stderr}"
    assert (tmp_path / "gold-7.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "runs" / "nw4" / "_manifest.json").is_file()


# ---- what each example claims -------------------------------------------------------------


def _block_defining(name: str) -> str:
    (block,) = [b for b in PYTHON if f"def {name}(" in b]
    return block


def test_the_first_trade_agent_trades_whenever_it_can() -> None:
    # The page's agent, as written (the simulation after it left out), on every decision of
    # some random games: where a legal move buys or sells goods, it picks one.
    import random

    import tradewinds as tw

    block = _block_defining("first_trade")
    namespace: dict[str, object] = {}
    exec(block.split("\nr = tw.simulate")[0], namespace)
    first_trade = namespace["first_trade"]
    game = tw.load("north-wind", players=3)
    offered = 0
    for seed in range(30):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal:
            names = [state.action_to_string(a) for a in state.legal_actions()]
            trades = [n for n in names if any(w in n for w in ("buy", "sell"))]
            choice = first_trade(state.clone(), state.current_player, rng)  # type: ignore[operator]
            if trades:
                offered += 1
                assert state.action_to_string(choice) in trades, (trades, state.action_to_string(choice))
            state.apply(choice if trades else rng.choice(state.legal_actions()))
    assert offered >= 30, "the games offer trades for the agent to take"


def test_the_progress_line_quoted_is_the_one_written() -> None:
    import io

    from tradewinds.simulation import LINE_INTERVAL, ProgressBar

    quoted = re.search(r"such as\s+`([^`]+)`", TEXT)
    assert quoted and "progress=True" in TEXT and f"every {LINE_INTERVAL:g} seconds" in TEXT
    stream = io.StringIO()
    bar = ProgressBar(2000, stream, interval=0.0, lines=True)
    bar.update(1536)
    written = stream.getvalue().strip()
    shape = re.sub(r"[\d.:,]+", "N", quoted.group(1))
    assert re.sub(r"[\d.:,]+", "N", written) == shape, (written, quoted.group(1))


def test_the_pandas_columns_are_the_ones_documented() -> None:
    import tradewinds as tw
    from tradewinds._core import REGISTERED, configurations

    pytest.importorskip("pandas")
    table = TEXT.split("`to_pandas()` (needs pandas")[1].split("`to_pandas(wide=True)`")[0]
    fixed = [c for row in re.findall(r"^\| (.*?) \|", table, re.M) for c in re.findall(r"`([^`]+)`", row)
             if not row.startswith("one per") and "<" not in c]
    for name in REGISTERED:
        config = configurations(name)[0]
        r = tw.simulate(name, 4, seed=1, **config)
        columns = list(r.to_pandas().columns)
        categories = list(r.categories)
        opponents = [f"{what}: {o}" for o in r.opponents for what in ("score", "win")]
        expected = [c for c in fixed if c != "tier"]
        # Documented order: the seat's columns, its categories, the game's columns.
        assert columns == (expected[:5] + categories + opponents + (["tier"] if r.tiers else []) + expected[5:]), name
    # The example of a game's categories is that game's.
    example = re.search(r"\((?P<title>[\w ]+): (?P<names>`[^)]*`)\)", table)
    assert example
    (name,) = [n for n in REGISTERED if tw.load(n).title == example["title"]]
    assert re.findall(r"`([^`]+)`", example["names"]) == tw.simulate(name, 1).categories


def test_long_examples_say_how_long_and_are_not_longer() -> None:
    # Every command with MCTS seats says how long it runs; a sample of its games confirms the
    # order of magnitude (well within ten times the time it states).
    import time

    commands = [line for block in re.findall(r"^```sh\n(.*?)^```$", TEXT, re.M | re.S)
                for line in block.splitlines() if "mcts" in line]
    assert commands
    for line in commands:
        command, _, comment = line.partition("#")
        stated = re.search(r"(\d+)(?:-(\d+))? minutes?", comment)
        assert stated, f"{command.strip()} runs for minutes but does not say so"
        args = command.split()[1:]
        games = int(args[args.index("--games") + 1])
        sample = max(2, games // 50)
        args[args.index("--games") + 1] = str(sample)
        args = [a for i, a in enumerate(args) if a != "--plot" and (i == 0 or args[i - 1] != "--plot")]
        start = time.monotonic()
        r = subprocess.run([sys.executable, "-m", "tradewinds", *args], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        estimate = (time.monotonic() - start) * games / sample
        assert estimate < 10 * 60 * int(stated.group(2) or stated.group(1)), (line, estimate)
