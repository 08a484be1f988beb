"""A short, coverage-guided run of each cargo-fuzz target (fuzz/), when cargo-fuzz is installed.

The targets' bodies are `tradewinds::harness::targets::fuzz_*`; `tests/fuzz_bounded.rs` runs
the same bodies on fixed pseudo-random inputs in every `cargo test`, so these checks are
never skipped altogether. Here libFuzzer drives them with coverage feedback, starting from
the committed seed inputs (fuzz/corpus/<target>/seed-*, copied to a temporary corpus), for
at most `RUNS` inputs or `SECONDS` seconds per target. New corpus entries and crash
artifacts stay in the temporary directory, never in the repository. The runs are heavy (an
instrumented build of minutes) and not reproducible (libFuzzer's search depends on time), so
they are marked `heavy`: `pytest -m heavy tests/test_fuzz.py`. Longer runs: see docs/reliability.md.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["action_stream", "state_bytes", "data_text"]
RUNS = 2000
SECONDS = 20
# Sanitizer-free mode works on stable Rust; debug assertions catch integer overflow.
FUZZ_FLAGS = ["--sanitizer", "none", "--debug-assertions"]


def cargo_fuzz_available() -> bool:
    if shutil.which("cargo") is None:
        return False
    try:
        r = subprocess.run(["cargo", "fuzz", "--version"], cwd=ROOT, capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


needs_cargo_fuzz = pytest.mark.skipif(
    not cargo_fuzz_available(),
    reason="cargo-fuzz is not installed (cargo install cargo-fuzz); tests/fuzz_bounded.rs runs the same checks",
)


@pytest.fixture(scope="module")
def built() -> None:
    r = subprocess.run(
        ["cargo", "fuzz", "build", *FUZZ_FLAGS], cwd=ROOT, capture_output=True, text=True, timeout=1800
    )
    assert r.returncode == 0, f"cargo fuzz build failed:\n{r.stderr[-4000:]}"


def test_every_target_has_seed_inputs() -> None:
    for target in TARGETS:
        assert (ROOT / "fuzz" / "fuzz_targets" / f"{target}.rs").is_file(), target
        seeds = list((ROOT / "fuzz" / "corpus" / target).glob("seed-*"))
        assert seeds, f"{target} has no committed seed inputs"


@pytest.mark.heavy
@needs_cargo_fuzz
@pytest.mark.parametrize("target", TARGETS)
def test_bounded_fuzz_run(target: str, built: None, tmp_path: Path) -> None:
    # Only the committed seeds: a local corpus grown by long runs would make this run long.
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    seeds = list((ROOT / "fuzz" / "corpus" / target).glob("seed-*"))
    for seed in seeds:
        shutil.copy(seed, corpus / seed.name)
    artifacts = tmp_path / "artifacts"
    artifacts.mkdir()
    cmd = [
        "cargo", "fuzz", "run", target, *FUZZ_FLAGS, str(corpus), "--",
        f"-runs={RUNS}", f"-max_total_time={SECONDS}", f"-artifact_prefix={artifacts}/",
    ]  # fmt: skip
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=SECONDS + 600)
    log = r.stdout + r.stderr
    crashes = sorted(p.name for p in artifacts.iterdir())
    assert r.returncode == 0, f"{target} found a failing input {crashes}:\n{log[-6000:]}"
    done = re.search(r"Done (\d+) runs in", log)
    assert done is not None, f"{target}: libFuzzer did not finish normally:\n{log[-3000:]}"
    # The run went beyond the seeds to inputs of its own (how far depends on the machine's load
    # within the time bound).
    assert int(done.group(1)) > len(seeds), f"{target}: only {done.group(1)} runs:\n{log[-3000:]}"
    assert not crashes, f"{target}: crash artifacts {crashes}"
