"""Smoke test of an installed tradewinds, run from outside the source tree in an environment
that has only the package and its dependencies (a wheel installed into a fresh venv): every
listed game loads in every configuration and plays a game to its end, a state saves and
reloads, a bulk simulation runs, and the command line answers.

    python scripts/smoke_test.py        (exit status 0 and a last line "smoke test passed")
"""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import tradewinds as tw
from tradewinds._core import configurations


def check_installed() -> None:
    """tradewinds comes from this environment's site-packages, with its stubs."""
    package = Path(tw.__file__).resolve().parent
    site = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    assert any(s in package.parents for s in site), f"tradewinds was imported from {package}, not from {site}"
    for name in ("py.typed", "_core.pyi"):
        assert (package / name).is_file(), f"{name} is missing from the installed package"
    assert tw.__version__ == metadata.version("tradewinds")


def play_every_game() -> int:
    configs = 0
    for name in tw.GAMES:
        for options in configurations(name):
            game = tw.load(name, **options)
            rng = random.Random(7)
            state = game.new_state(seed=7)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            assert state.current_player == tw.TERMINAL
            report = state.score_report()
            assert report.terminal and len(report.totals) == game.players
            # Saved and reloaded: JSON, compact bytes, pickle; mid-game too.
            middle = game.new_state(seed=8)
            middle.apply(middle.legal_actions()[0])
            for s in (state, middle):
                assert game.state_from_json(s.to_json()) == s
                assert game.state_from_bytes(s.to_bytes()) == s
                assert pickle.loads(pickle.dumps(s)) == s
            configs += 1
        result = tw.simulate(name, 200, seed=1, threads=2, **configurations(name)[0])
        assert result.games == 200 and result.scores.shape[0] == 200
        assert "games/s" in result.summary()
        try:
            path = tw.data_path(name)
        except FileNotFoundError:
            pass
        else:
            assert tw.load(name, data=path).players == tw.load(name).players
    return configs


def check_command_line() -> None:
    version = subprocess.run([sys.executable, "-m", "tradewinds", "--version"], capture_output=True, text=True,
                             check=True)
    assert version.stdout.strip() == f"tradewinds {tw.__version__}", version.stdout
    games = subprocess.run([sys.executable, "-m", "tradewinds", "games"], capture_output=True, text=True, check=True)
    assert all(name in games.stdout for name in tw.GAMES)


def main() -> int:
    check_installed()
    configs = play_every_game()
    check_command_line()
    print(f"tradewinds {tw.__version__} from {Path(tw.__file__).parent}: {len(tw.GAMES)} games, "
          f"{configs} configurations played, saved and reloaded; simulate and the command line work")
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
