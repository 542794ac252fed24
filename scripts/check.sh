#!/usr/bin/env bash
# The habits, automated (and what CI runs, see .ci/run): formatting, lints
# as errors over every target and feature of the workspace, the engine's
# dependency tree free of the network and the async runtime, every test
# through scripts/test.sh (the README's test command), and the release
# binary's link order not stale.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "check.sh: cargo fmt --check" >&2
cargo fmt --all -- --check
echo "check.sh: cargo clippy --workspace --all-targets --all-features -D warnings" >&2
cargo clippy --locked --workspace --all-targets --all-features -- -D warnings
echo "check.sh: the engine's dependencies have no tokio, redis, axum or hyper" >&2
if cargo tree --locked -p slugd-engine -e normal --prefix none | grep -E '^(tokio|redis|axum|hyper)[ -]'; then
  echo "check.sh: the engine (engine/Cargo.toml) depends on the crates above; it must do no network I/O" >&2
  exit 1
fi
scripts/test.sh "$@"
scripts/link_order_check.sh
