#!/usr/bin/env bash
# The habits, automated: formatting, lints as errors, then every test.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --locked --all-targets -- -D warnings
scripts/test.sh "$@"
