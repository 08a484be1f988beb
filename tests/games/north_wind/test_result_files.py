"""A simulation result file written by the tradewinds before results recorded opponents and
tiers (format version 1), from a North Wind run: it still loads, equal to the same run today."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import tradewinds as tw
from tradewinds._results import ARRAYS


def test_a_file_of_the_previous_format_loads(tmp_path: Path) -> None:
    # Written by the tradewinds before opponents and tiers (format version 1):
    # tw.simulate("north-wind", 16, players=2, seed=5, threads=1).save(...)
    fixture = Path(__file__).resolve().parents[2] / "fixtures" / "simulation-v1" / "north-wind-2p.npz"
    back = tw.SimulationResult.load(fixture)
    with np.load(fixture) as z:
        assert json.loads(str(z["meta"]))["version"] == 1 and "tier" not in z.files
    again = tw.simulate("north-wind", 16, players=2, seed=5, threads=1)
    for name in ARRAYS:
        assert np.array_equal(getattr(back, name), getattr(again, name)), name
    assert back.opponents == again.opponents == [] and back.tiers == again.tiers == []
    assert back.summary().splitlines()[2:] == again.summary().splitlines()[2:]
