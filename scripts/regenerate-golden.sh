#!/usr/bin/env bash
# Rewrites the golden playthroughs under tests/golden/<game>/ from this build. Review the diff.
set -euo pipefail
cd "$(dirname "$0")/.."
TRADEWINDS_BLESS=1 cargo test --lib golden_playthroughs
git --no-pager diff --stat -- tests/golden
