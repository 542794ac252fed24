#!/usr/bin/env bash
# Runs each cargo-fuzz target for a bounded time (not part of the tests).
#
#   scripts/fuzz.sh              # 60 s per target
#   FUZZ_SECONDS=600 scripts/fuzz.sh engine
#
# cargo-fuzz needs nightly compiler flags; on the stable toolchain they are
# enabled with RUSTC_BOOTSTRAP=1, for this build only. A crash leaves its
# input under fuzz/artifacts/<target>/; keep it as a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${FUZZ_SECONDS:-60}"
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz from crates.io" >&2
  cargo install cargo-fuzz --locked
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(engine unicode_data)
for target in "${targets[@]}"; do
  echo "== fuzz $target for ${SECONDS_PER_TARGET} s"
  RUSTC_BOOTSTRAP=1 cargo fuzz run "$target" -- -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048
done
