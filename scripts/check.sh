#!/usr/bin/env bash
# The habits, automated (and what CI runs, see .ci/run): formatting, lints
# as errors over every target and feature, then every test through
# scripts/test.sh, the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "check.sh: cargo fmt --check" >&2
cargo fmt --all -- --check
echo "check.sh: cargo clippy --all-targets --all-features -D warnings" >&2
cargo clippy --locked --all-targets --all-features -- -D warnings
scripts/test.sh "$@"
