#!/usr/bin/env bash
# The habits, automated (and what CI runs, see .ci/run): formatting, lints
# as errors over every target and feature of the workspace, the engine's
# dependency tree free of the network and the async runtime, no import
# circle between modules (scripts/import_circles.py), every test
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
echo "check.sh: no import circles between the modules of the engine, the service or xtask" >&2
scripts/import_circles.py engine/src src xtask/src
echo "check.sh: no test, script or build step assumes Cargo's cache holds what an earlier command fetched" >&2
# A fresh machine's Cargo cache holds only what its own build downloaded
# (no Windows-only crate, for one): a cargo command run offline there fails
# where a warm cache lets it pass, so none is allowed. A check that reads
# the workspace uses `cargo metadata --no-deps` in an empty CARGO_HOME.
if grep -rnE -e '--offline|--frozen|CARGO_NET_OFFLINE|net\.offline' \
  tests src engine xtask benches examples fuzz scripts .ci Dockerfile build.rs \
  | grep -v '^scripts/check.sh:'; then
  echo "check.sh: the lines above run Cargo offline; they pass only where an earlier command filled the cache" >&2
  exit 1
fi
scripts/test.sh "$@"
scripts/link_order_check.sh
