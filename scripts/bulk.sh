#!/usr/bin/env bash
# `slugd slugify` over LINES mixed titles (the sample corpus repeated)
# from standard input, in-process, side by side in one run: each target in
# turn for ROUNDS rounds, writing to /dev/null; prints each target's median
# wall time, titles per second and peak RSS (GNU time), and then checks,
# in one more run of each writing to a file, that every target wrote the
# same slugs.
#
# Targets: `threads1` (--threads 1), `threads` (the default, one per core),
# `unicode` (the default with --unicode: slugs in the titles' own
# scripts, compared with the other --unicode targets only), `redis` (the
# default on a local redis-server with the table loaded), and `before`,
# the binary BEFORE names, run with its defaults.
#
#   scripts/bulk.sh
#   BEFORE=/tmp/slugd-old ROUNDS=15 scripts/bulk.sh
#   TARGETS="threads redis" LINES=3000000 scripts/bulk.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh
need /usr/bin/time time
ROUNDS=${ROUNDS:-9}
LINES=${LINES:-1000000}
read -r -a TARGETS <<<"${TARGETS:-threads1 threads${BEFORE:+ before}}"
build_slugd
input="$WORK/titles.txt"
grep -v '^#' data/corpus.txt | grep -v '^$' |
  awk -v n="$LINES" '{t[NR] = $0} END {for (i = 0; i < n; i++) print t[i % NR + 1]}' >"$input"
for t in "${TARGETS[@]}"; do
  if [ "$t" = redis ]; then
    need redis-server redis-server
    start_redis
    "$BIN" --log warn load >/dev/null
  fi
done
command_of() { # target: sets CMD
  case $1 in
    threads1) CMD=(env -u REDIS_URL "$BIN" --log warn slugify --threads 1) ;;
    threads) CMD=(env -u REDIS_URL "$BIN" --log warn slugify) ;;
    unicode) CMD=(env -u REDIS_URL "$BIN" --log warn slugify --unicode) ;;
    redis) CMD=("$BIN" --log warn slugify) ;;
    before) CMD=(env -u REDIS_URL "$BEFORE" --log warn slugify) ;;
    *) echo "bulk.sh: no target $1" >&2; exit 1 ;;
  esac
}
declare -A took rss
for round in $(seq 1 "$ROUNDS"); do
  for k in $(seq 0 $((${#TARGETS[@]} - 1))); do
    t=${TARGETS[$(((k + round) % ${#TARGETS[@]}))]}
    start=$(date +%s.%N)
    command_of "$t"
    /usr/bin/time -f %M -o "$WORK/rss" "${CMD[@]}" <"$input" >/dev/null
    end=$(date +%s.%N)
    took[$t]+="$(echo "$end - $start" | bc) "
    rss[$t]+="$(cat "$WORK/rss") "
  done
done
first=${TARGETS[0]}
declare -A first_of  # the first target of each kind of slug, ascii or unicode
for t in "${TARGETS[@]}"; do
  command_of "$t"
  "${CMD[@]}" <"$input" >"$WORK/out.$t"
  kind=ascii; [ "$t" = unicode ] && kind=unicode
  : "${first_of[$kind]:=$t}"
  cmp -s "$WORK/out.${first_of[$kind]}" "$WORK/out.$t" ||
    { echo "bulk.sh: $t wrote other slugs than ${first_of[$kind]}" >&2; exit 1; }
done
echo "$LINES titles, $ROUNDS rounds; every target wrote the same $(wc -l <"$WORK/out.$first") lines as the first of its kind"
for t in "${TARGETS[@]}"; do
  s=$(printf '%s\n' ${took[$t]} | median)
  r=$(printf '%s\n' ${rss[$t]} | median)
  printf '%-9s %7.3f s  %5.2f M titles/s  peak RSS %6s kB  vs %s: %.2fx   (times: %s)\n' "$t" "$s" \
    "$(echo "$LINES / $s / 1000000" | bc -l)" "$r" "$first" \
    "$(echo "$(printf '%s\n' ${took[$first]} | median) / $s" | bc -l)" "${took[$t]}"
done
