#!/usr/bin/env bash
# The memory of one slugd instance alone, in-process and
# on Redis: RSS and anonymous memory (/proc/<pid>/smaps_rollup)
#   idle    started, one POST /slug, a second's pause;
#   warm    right after WARM more POST /slug over the corpus (every
#           script), one after another on one keep-alive connection;
#   settled SETTLE seconds later, idle again (jemalloc's background thread
#           returns freed pages over 10 s, its dirty_decay_ms).
# Only one instance runs at a time; the modes take turns for ROUNDS rounds,
# each round starting one mode further on, and the table gives the median
# RSS with its range, and the median anonymous memory, against the goal of
# 8 MiB (8,192 kB: /proc's kB are KiB). The binary is read into the page
# cache before each start, so every start finds it alike.
#
#   scripts/memory.sh                   # ROUNDS=3 WARM=2000 SETTLE=15
#   BEFORE=/path/to/old/slugd scripts/memory.sh   # and an older build
#
# Everything binds to 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
WARM="${WARM:-2000}"
SETTLE="${SETTLE:-15}"
BEFORE="${BEFORE:-}"
if [ -n "$BEFORE" ] && [ ! -x "$BEFORE" ]; then
  echo "memory.sh: BEFORE=$BEFORE is not an executable slugd" >&2
  exit 1
fi

source scripts/lib/common.sh
need redis-server redis-server
need redis-cli redis-tools
need curl curl
need python3 python3

build_slugd
start_redis
"$BIN" --log warn load >/dev/null

# "rss anonymous" in kB.
smaps() { awk '/^Rss:/ {r = $2} /^Anonymous:/ {a = $2} END {print r, a}' "/proc/$1/smaps_rollup"; }
record() { # mode stage pid: a failed read stops the script here
  local now
  now=$(smaps "$3")
  echo "$1 $2 $now" >>"$WORK/results"
}

measure() { # mode round
  local mode=$1 bin=$BIN port pid
  case $mode in before_*) bin=$BEFORE ;; esac
  cat "$bin" >/dev/null
  port=$(free_port)
  case $mode in
    *in_process) env -u REDIS_URL -u REDIS_CLUSTER "$bin" --log warn serve --listen "127.0.0.1:$port" & ;;
    *redis) env -u REDIS_CLUSTER "$bin" --log warn serve --listen "127.0.0.1:$port" & ;;
  esac
  pid=$!
  PIDS+=("$pid")
  wait_ready "$port"
  python3 scripts/lib/post_titles.py "$port" 1
  sleep 1
  record "$mode" idle "$pid"
  python3 scripts/lib/post_titles.py "$port" "$WARM"
  record "$mode" warm "$pid"
  sleep "$SETTLE"
  record "$mode" settled "$pid"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  grep "^$mode " "$WORK/results" | tail -3 | tr '\n' ' ' | sed "s/^/  round $2: /"
  echo
}

modes=(in_process redis)
[ -n "$BEFORE" ] && modes+=(before_in_process before_redis)
echo "== $ROUNDS rounds, one instance at a time: idle, after $WARM requests, $SETTLE s later (RSS anonymous, kB)"
for round in $(seq 1 "$ROUNDS"); do
  for mode in $(rotated "$round" "${modes[@]}"); do measure "$mode" "$round"; done
done

python3 - "$WORK/results" "${modes[*]}" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    mode, stage, rss, anon = line.split()
    rows.setdefault((mode, stage), []).append((int(rss), int(anon)))
print("== medians (ranges), kB; goal: RSS <= 8,192 kB after warm-up")
print(f"{'mode':<19}{'stage':<9}{'RSS':>8}  {'range':<15}{'anonymous':>10}")
for mode in sys.argv[2].split():
    for stage in ("idle", "warm", "settled"):
        v = rows.get((mode, stage))
        if not v:
            continue
        rss = [r for r, _ in v]
        anon = [a for _, a in v]
        span = f"{min(rss)}-{max(rss)}"
        print(f"{mode:<19}{stage:<9}{statistics.median(rss):>8.0f}  {span:<15}{statistics.median(anon):>10.0f}")
PY
