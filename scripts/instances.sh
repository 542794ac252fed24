#!/usr/bin/env bash
# The core claim, measured: N service instances in each mode, each one's
# RSS after a warm-up, next to the Redis table's own memory.
#
#   scripts/instances.sh            # N = 1, 4, 16
#   COUNTS="1 2 8" scripts/instances.sh
#
# Every instance binds 127.0.0.1 on a free port; all stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

COUNTS="${COUNTS:-1 4 16}"
WARMUP="${WARMUP:-500}"   # requests per instance before measuring
need redis-server redis-server
need curl curl

build_slugd

start_redis
"$BIN" --log warn load | sed 's/^/loader: /'
TABLE_BYTES=$(redis-cli -p "$REDIS_PORT" hget "slugd:meta:$(redis-cli -p "$REDIS_PORT" get "slugd:{ctl}:current")" bytes)

# Sends the corpus, batched, to an instance until WARMUP titles were slugged.
warm() { # port
  python3 - "$1" "$WARMUP" <<'PY'
import json, sys, urllib.request
port, want = sys.argv[1], int(sys.argv[2])
titles = [l.rstrip("\n") for l in open("data/corpus.txt", encoding="utf-8") if l.strip() and not l.startswith("#")]
done = 0
while done < want:
    for t in titles:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/slug", json.dumps({"title": t}).encode(),
                                     {"Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
        done += 1
        if done >= want:
            break
PY
}

printf '%-12s %4s %14s %14s %16s\n' mode N "RSS each (kB)" "RSS sum (kB)" "+ Redis table (B)"
for mode in in_process redis; do
  for n in $COUNTS; do
    pids=(); ports=()
    for _ in $(seq 1 "$n"); do
      port=$(free_port)
      if [ "$mode" = in_process ]; then
        env -u REDIS_URL "$BIN" --log warn serve --listen "127.0.0.1:$port" & 
      else
        "$BIN" --log warn serve --listen "127.0.0.1:$port" &
      fi
      pids+=($!); ports+=("$port"); PIDS+=($!)
    done
    for port in "${ports[@]}"; do wait_ready "$port"; warm "$port"; done
    sleep 0.5
    total=0; each=()
    for pid in "${pids[@]}"; do r=$(rss_kb "$pid"); each+=("$r"); total=$((total + r)); done
    median=$(printf '%s\n' "${each[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    extra=$([ "$mode" = redis ] && echo "$TABLE_BYTES" || echo "-")
    printf '%-12s %4s %14s %14s %16s\n' "$mode" "$n" "$median" "$total" "$extra"
    for pid in "${pids[@]}"; do kill "$pid"; wait "$pid" 2>/dev/null || true; done
  done
done
echo "(RSS each: the median over the N instances, after $WARMUP titles each)"
