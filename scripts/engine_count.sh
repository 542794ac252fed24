#!/usr/bin/env bash
# The engine's instructions per pass over the sample corpus, by callgrind
# (a count the machine's noise cannot move; foldhash's random seeds move
# it by about 0.1% from run to run, hence the rounds): for each engine of
# examples/engine_count.rs, a run of 3000 passes minus one of 1000,
# divided by 2000 (no table build, no first transliterations). Prints the
# median over ROUNDS of each engine and its ratio to the first.
#
#   scripts/engine_count.sh                      # rules 2 and 3 against rules 1
#   ROUNDS=5 scripts/engine_count.sh slugd_rules1 slug_crate
#
# Needs valgrind (apt-get install valgrind). The goal: rules 2 at
# most 1.1x rules 1.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
need valgrind valgrind
ROUNDS=${ROUNDS:-5}
ENGINES=("$@")
[ ${#ENGINES[@]} -gt 0 ] || ENGINES=(slugd_rules1 slugd_rules2 slugd_in_process)
cargo build --release --locked --example engine_count >&2
count() { # engine passes
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    target/release/examples/engine_count "$1" "$2" 2>&1 |
    awk '/Collected :/ {print $4}'
}
declare -A per
for round in $(seq 1 "$ROUNDS"); do
  # Rotated, so that a change of the machine's state hits each alike.
  for k in $(seq 0 $((${#ENGINES[@]} - 1))); do
    e=${ENGINES[$(((k + round) % ${#ENGINES[@]}))]}
    per[$e]+="$((($(count "$e" 3000) - $(count "$e" 1000)) / 2000)) "
  done
done
first=""
printf '%-20s %12s %8s   %s\n' engine "median/pass" ratio rounds
for e in "${ENGINES[@]}"; do
  m=$(printf '%s\n' ${per[$e]} | median)
  [ -n "$first" ] || first=$m
  printf '%-20s %12s %8s   %s\n' "$e" "$m" "$(awk -v a="$m" -v b="$first" 'BEGIN {printf "%.4f", a / b}')" "${per[$e]}"
done
