"""A simulation result file written by the tradewinds before results recorded opponents and
tiers (format version 1), from a North Wind run: it still loads, as the file holds it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import tradewinds as tw
from tradewinds._results import ARRAYS


def test_a_file_of_the_previous_format_loads(tmp_path: Path) -> None:
    # Written by the tradewinds before opponents and tiers (format version 1):
    # tw.simulate("north-wind", 16, players=2, seed=5, threads=1).save(...). North Wind's rules
    # have changed since (rulings of docs/games/north-wind.md), so a run today plays other games:
    # the loaded arrays are compared with the file's own, and their types and shapes with today's.
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "simulation-v1" / "north-wind-2p.npz"
    back = tw.SimulationResult.load(fixture)
    with np.load(fixture) as z:
        assert json.loads(str(z["meta"]))["version"] == 1 and "tier" not in z.files
        stored = {k: z[k] for k in z.files if k != "meta"}
    again = tw.simulate("north-wind", 16, players=2, seed=5, threads=1)
    for name in ARRAYS:
        ours, today = getattr(back, name), getattr(again, name)
        assert (ours.dtype, ours.shape) == (today.dtype, today.shape), name
        if name in stored:
            assert np.array_equal(ours, stored[name]), name
    assert (back.tier == -1).all() and not back.opponent_wins.any()
    assert back.opponents == again.opponents == [] and back.tiers == again.tiers == []

    def layout(result: tw.SimulationResult) -> list[str]:
        return [line[:5] for line in result.summary().splitlines()[2:]]

    assert layout(back) == layout(again)
