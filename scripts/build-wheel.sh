#!/usr/bin/env bash
# Builds tradewinds for distribution and checks what it built:
#   1. a manylinux2014 abi3 wheel for this machine's architecture (one wheel for every CPython
#      from 3.11 on), with maturin's zig linker, so no container is needed; and the sdist;
#   2. auditwheel: the wheel needs nothing newer than manylinux2014 (glibc 2.17);
#   3. twine check: the metadata a package index shows (README, classifiers, URLs) renders;
#   4. the wheel installed into a fresh venv (the wheel and numpy, nothing else) passes
#      scripts/smoke_test.py, run from outside the source tree.
#
# Usage: scripts/build-wheel.sh [--full] [--profile NAME]
#   --full          also installs the sdist into a fresh venv (pip builds the Rust extension
#                   from source, as on a platform without a wheel: minutes) and smoke-tests it.
#   --profile NAME  the cargo profile of the wheel's extension: `release` (the default, what
#                   ships) or `packaging` (Cargo.toml: unoptimised, in 40% of the CPU time
#                   of the development install's build; .ci/run's check of the packaging).
#
# The wheel and the sdist land in dist/ (OUT=DIR for another folder). The tools come from
# PyPI into a venv of their own, $CARGO_TARGET_DIR/wheel-tools (default target/), at the
# versions pinned in scripts/wheel-tools.txt. Needs Rust (stable) and python3 (3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

full=0
profile=release
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full=1 ;;
    --profile)
      case "${2:-}" in
        release|packaging) profile=$2; shift ;;
        *) echo "build-wheel.sh: --profile takes release or packaging, not '${2:-}'" >&2; exit 2 ;;
      esac ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "build-wheel.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

out=${OUT:-dist}
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
tools=$target/wheel-tools
arch=$(uname -m)
policy=manylinux_2_17_$arch   # manylinux2014: the oldest glibc Rust's std supports (2.17)
start=$SECONDS
checks=0   # each check passed (any failure stops the script)
step() { printf '\n== %s (%ss)\n' "$1" "$((SECONDS - start))"; }

step "tools: $tools"
if ! cmp -s scripts/wheel-tools.txt "$tools/wheel-tools.txt" 2>/dev/null; then
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet --disable-pip-version-check -r scripts/wheel-tools.txt
  cp scripts/wheel-tools.txt "$tools/wheel-tools.txt"
fi
# maturin finds zig (python -m ziglang) through the venv's python.
export PATH="$tools/bin:$PATH"

step "build: the wheel (maturin, zig, $policy, cargo profile $profile) and the sdist into $out/"
mkdir -p "$out"
rm -f "$out"/tradewinds-*.whl "$out"/tradewinds-*.tar.gz
CARGO_TARGET_DIR=$target maturin build --profile "$profile" --zig --compatibility manylinux2014 --out "$out"
maturin sdist --out "$out"
wheel=$(ls "$out"/tradewinds-*-abi3-*manylinux*"$arch".whl)
sdist=$(ls "$out"/tradewinds-*.tar.gz)
echo "wheel: $wheel"
echo "sdist: $sdist"
checks=$((checks + 1))

step "auditwheel: $(basename "$wheel")"
report=$(auditwheel show "$wheel")
echo "$report"
# The report wraps its lines: read it as one.
if ! tr '\n' ' ' <<<"$report" | grep -Eq "consistent with the following platform tag: +\"$policy\""; then
  echo "build-wheel.sh: auditwheel does not find $(basename "$wheel") consistent with $policy" >&2
  exit 1
fi
checks=$((checks + 1))

step "twine check"
twine check --strict "$wheel" "$sdist"
checks=$((checks + 1))

smoke() {  # smoke <venv> <what to install>
  rm -rf "$1"
  python3 -m venv "$1"
  "$1/bin/pip" install --quiet --disable-pip-version-check "$2"
  local listed
  listed=$("$1/bin/pip" list --format=freeze --disable-pip-version-check | grep -v -E '^(pip|setuptools)==' | cut -d= -f1 | sort | tr '\n' ' ')
  echo "installed: $listed"
  # From an empty folder, so nothing of the source tree can be imported.
  (cd "$(mktemp -d)" && "$1/bin/python" "$root/scripts/smoke_test.py")
  checks=$((checks + 1))
}

step "smoke test: the wheel in a fresh venv"
smoke "$target/wheel-smoke" "$wheel"

if [ "$full" = 1 ]; then
  step "smoke test: the sdist built from source in a fresh venv"
  smoke "$target/sdist-smoke" "$sdist"
fi

step "done: $(basename "$wheel") and $(basename "$sdist") in $out/"
echo "wheel: $checks passed, 0 failed"
