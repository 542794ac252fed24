#!/usr/bin/env bash
# What `ascii: false` costs beside ASCII slugs, side by side in one run:
# `slugd slugify` (in-process, release build) over the sample corpus
# repeated REPEAT times from standard input, with and without --unicode,
# in turns for ROUNDS rounds; prints each mode's median wall time, titles
# per second and peak RSS (GNU time), and the ratio.
#
#   scripts/unicode_cost.sh
#   ROUNDS=7 REPEAT=5000 scripts/unicode_cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
need /usr/bin/time time
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-2000}
build_slugd
input="$WORK/titles.txt"
titles=$(grep -v '^#' data/corpus.txt | grep -c -v '^$')
for _ in $(seq 1 "$REPEAT"); do grep -v '^#' data/corpus.txt | grep -v '^$'; done >"$input"
lines=$((titles * REPEAT))
declare -A took rss
for round in $(seq 1 "$ROUNDS"); do
  for k in 0 1; do
    mode=$(( (k + round) % 2 ))
    flags=(); name=ascii
    [ "$mode" = 1 ] && { flags=(--unicode); name=unicode; }
    start=$(date +%s.%N)
    env -u REDIS_URL /usr/bin/time -f %M -o "$WORK/rss" "$BIN" --log warn slugify "${flags[@]}" <"$input" >/dev/null
    end=$(date +%s.%N)
    took[$name]+="$(echo "$end - $start" | bc) "
    rss[$name]+="$(cat "$WORK/rss") "
  done
done
for name in ascii unicode; do
  t=$(printf '%s\n' ${took[$name]} | median)
  r=$(printf '%s\n' ${rss[$name]} | median)
  printf '%-8s %8.3f s  %10.0f titles/s  peak RSS %s kB   (times: %s)\n' "$name" "$t" "$(echo "$lines / $t" | bc -l)" "$r" "${took[$name]}"
done
a=$(printf '%s\n' ${took[ascii]} | median); u=$(printf '%s\n' ${took[unicode]} | median)
echo "unicode / ascii time: $(echo "$u / $a" | bc -l | cut -c1-5) over $lines titles"
