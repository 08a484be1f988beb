#!/usr/bin/env bash
# Rewrites every golden playthrough under tests/golden/<game>/ from this build, in one run:
# the playthroughs of every registered configuration (tests/golden.rs) and the games' own
# playthroughs from edge positions (library tests whose names start with `golden_`).
# Then prints, for each file that changed, where it first differs (game, file, move and line:
# old line → new line), the golden files no test wrote (stale), and the diff stat.
# Review them before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
report="$(mktemp)"
marker="$(mktemp)"
trap 'rm -f "$report" "$marker"' EXIT
TRADEWINDS_BLESS=1 TRADEWINDS_BLESS_REPORT="$report" cargo test --lib --test golden golden_

echo
if [ -s "$report" ]; then
    echo "Changed golden files, each where it first differs (game  file  move (line): old → new):"
    sort "$report" | sed 's/^/  /'
else
    echo "No golden file changed."
fi
stale="$(find tests/golden -type f ! -newer "$marker" | sort)"
if [ -n "$stale" ]; then
    echo
    echo "Golden files no test wrote (remove them, or restore the test that wrote them):"
    echo "$stale" | sed 's/^/  /'
fi
echo
git --no-pager diff --stat -- tests/golden
git status --short --untracked-files=all -- tests/golden | grep '^??' | sed 's/^?? /  new: /' || true
