#!/usr/bin/env bash
# What Japanese readings (docs/japanese.md) cost, side by side in
# one run:
# - the load without and with them (`--locales en` and `--locales en,ja`):
#   wall time, the loader's peak RSS, the Redis memory of the table and of
#   the readings' buckets (MEMORY USAGE), their fullest bucket and their
#   encodings;
# - the RSS of one service instance, on Redis and in process, without and
#   with them, each warmed with the corpus and the Japanese test titles,
#   read right after and SETTLE seconds later (an in-process start reads
#   the dictionary through tens of MB that jemalloc gives back over tens
#   of seconds);
# - the time per Japanese title, in process and on Redis: `slugd slugify`
#   over the 116 titles of tests/data/ja-*.tsv repeated REPEAT times, with
#   `locale: ja`, minus the same run over them once (start-up, and the
#   readings read in process), divided by the titles added.
#
#   scripts/japanese.sh
#   ROUNDS=3 WARMUP=2000 REPEAT=200 scripts/japanese.sh
#
# Needs IPADIC (Debian's mecab-ipadic, installed when missing).
# Everything binds 127.0.0.1; all processes stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

ROUNDS="${ROUNDS:-3}"      # instances started per configuration; medians
WARMUP="${WARMUP:-2000}"   # titles per instance before measuring
REPEAT="${REPEAT:-200}"    # passes over the Japanese titles, for the cost
SETTLE="${SETTLE:-30}"     # seconds after warm-up before RSS is read again
IPADIC="${SLUGD_IPADIC:-/usr/share/mecab/dic/ipadic}"
need redis-server redis-server
need redis-cli redis-tools
need curl curl
need python3 python3
[ -f "$IPADIC/Noun.csv" ] || need /nonexistent mecab-ipadic
export SLUGD_IPADIC="$IPADIC"

build_slugd
start_redis

# The Japanese titles of the tests, one a line.
grep -hv '^#' tests/data/ja-titles.tsv tests/data/ja-heldout.tsv | cut -f1 | grep . >"$WORK/ja.txt"
JA_TITLES=$(wc -l <"$WORK/ja.txt")

# Loads `locales`; prints "seconds peak-rss-kB table-bytes reading-bytes
# reading-buckets fullest-bucket encodings".
load() { # locales
  local out v
  out=$(/usr/bin/time -f '%e %M' "$BIN" --log warn load --locales "$1" 2>&1 >/dev/null | tail -1)
  v=$(redis-cli -p "$REDIS_PORT" get 'slugd:{ctl}:current')
  redis-cli -p "$REDIS_PORT" --scan --pattern "slugd:t:$v:J*" >"$WORK/buckets"
  local bytes=0 fullest=0 encodings=none
  if [ -s "$WORK/buckets" ]; then
    bytes=$(awk '{print "MEMORY USAGE " $1 " SAMPLES 0"}' "$WORK/buckets" | redis-cli -p "$REDIS_PORT" | awk '{s += $1} END {print s}')
    fullest=$(awk '{print "HLEN " $1}' "$WORK/buckets" | redis-cli -p "$REDIS_PORT" | sort -n | tail -1)
    encodings=$(awk '{print "OBJECT ENCODING " $1}' "$WORK/buckets" | redis-cli -p "$REDIS_PORT" | sort | uniq -c | awk '{printf "%s:%s ", $2, $1}')
  fi
  echo "$out $(redis-cli -p "$REDIS_PORT" hget "slugd:meta:$v" bytes) $bytes $(wc -l <"$WORK/buckets") $fullest $encodings"
}

# Sends WARMUP titles, the corpus's and the Japanese ones in turn, half of
# them with `locale: ja`.
warm() { # port
  python3 - "$1" "$WARMUP" "$WORK/ja.txt" <<'PY'
import json, sys, urllib.request
port, want, ja = sys.argv[1], int(sys.argv[2]), sys.argv[3]
titles = [l.rstrip("\n") for l in open("data/corpus.txt", encoding="utf-8") if l.strip() and not l.startswith("#")]
titles += [l.rstrip("\n") for l in open(ja, encoding="utf-8") if l.strip()]
done = 0
while done < want:
    for t in titles:
        body = {"title": t}
        if done % 2:
            body["locale"] = "ja"
        req = urllib.request.Request(f"http://127.0.0.1:{port}/slug", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
        done += 1
        if done >= want:
            break
PY
}

# Seconds `slugd slugify --locale ja` takes over `file`; the median of
# ROUNDS. `memory` in process with the readings, `redis` on the table.
slug_time() { # redis|memory file
  local each=()
  for _ in $(seq 1 "$ROUNDS"); do
    local t0 t1
    t0=$(date +%s.%N)
    if [ "$1" = memory ]; then
      env -u REDIS_URL "$BIN" --log error slugify --locales en,ja --locale ja <"$2" >/dev/null
    else
      "$BIN" --log error slugify --locale ja <"$2" >/dev/null
    fi
    t1=$(date +%s.%N)
    each+=("$(python3 -c "print($t1 - $t0)")")
  done
  printf '%s\n' "${each[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

for _ in $(seq 1 "$REPEAT"); do cat "$WORK/ja.txt"; done >"$WORK/ja-many.txt"
added=$(( JA_TITLES * (REPEAT - 1) ))

read -r en_s en_peak en_bytes _ <<<"$(load en)"
read -r redis_en redis_en_now <<<"$(rss_warmed redis)"
read -r ja_s ja_peak ja_bytes ja_readings ja_buckets ja_fullest ja_encodings <<<"$(load en,ja)"
read -r redis_ja redis_ja_now <<<"$(rss_warmed redis)"
redis_once=$(slug_time redis "$WORK/ja.txt")
redis_many=$(slug_time redis "$WORK/ja-many.txt")
read -r mem_en mem_en_now <<<"$(rss_warmed memory --locales en)"
read -r mem_ja mem_ja_now <<<"$(rss_warmed memory --locales en,ja)"
mem_once=$(slug_time memory "$WORK/ja.txt")
mem_many=$(slug_time memory "$WORK/ja-many.txt")

echo
echo "Loads (slugd load --locales ...):"
printf '  %-8s %8s %14s %16s %14s\n' locales "time (s)" "loader peak kB" "Redis table (B)" "readings (B)"
printf '  %-8s %8s %14s %16s %14s\n' en "$en_s" "$en_peak" "$en_bytes" 0
printf '  %-8s %8s %14s %16s %14s\n' en,ja "$ja_s" "$ja_peak" "$ja_bytes" "$ja_readings"
echo "  readings: $ja_buckets buckets, the fullest $ja_fullest fields (its mark included); encodings: $ja_encodings"
echo
echo "RSS of one instance, warmed with $WARMUP titles, $SETTLE s after (median of $ROUNDS, kB; right after in brackets):"
printf '  %-12s %20s %20s %8s\n' mode "without ja" "with ja" ratio
printf '  %-12s %20s %20s %8s\n' redis "$redis_en ($redis_en_now)" "$redis_ja ($redis_ja_now)" "$(python3 -c "print(f'{$redis_ja/$redis_en:.2f}x')")"
printf '  %-12s %20s %20s %8s\n' in_process "$mem_en ($mem_en_now)" "$mem_ja ($mem_ja_now)" "$(python3 -c "print(f'{$mem_ja/$mem_en:.2f}x')")"
echo
echo "Time per Japanese title, locale ja (slugify over $JA_TITLES titles x $REPEAT minus x 1, median of $ROUNDS):"
python3 - "$added" "$redis_once" "$redis_many" "$mem_once" "$mem_many" <<'PY'
import sys
added, r1, rn, m1, mn = int(sys.argv[1]), *map(float, sys.argv[2:])
print(f"  redis       {1e6 * (rn - r1) / added:7.1f} us  (standard input in batches of 256 titles: a round trip each)")
print(f"  in_process  {1e6 * (mn - m1) / added:7.1f} us  (start-up with the readings read: {m1:.2f} s)")
PY
