#!/usr/bin/env bash
# Soak test over loopback: 200 concurrent connections for 60 s against each
# mode with the mixed corpus; then the same on Redis while Redis is killed
# and restarted once in the middle, with and without the name cache. Reports errors, timeouts, RSS after the
# first 5 s and at the end, and how long the restart hurt.
#
#   scripts/soak.sh
#   DURATION=60 CONNECTIONS=200 scripts/soak.sh
#
# Everything binds to 127.0.0.1; every loop is bounded and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

DURATION="${DURATION:-60}"
CONNECTIONS="${CONNECTIONS:-200}"
need redis-server redis-server
need wrk wrk
need curl curl

build_slugd

start_redis
"$BIN" --log warn load >/dev/null
redis-cli -p "$REDIS_PORT" save >/dev/null   # so a restart brings the table back

# Runs wrk for $DURATION s against a service, sampling its RSS at 5 s and
# at the end. Optional 3rd argument: a command to run at half time.
soak() { # name pid port [midway-command]
  local name=$1 pid=$2 port=$3 midway=${4:-}
  CORPUS=data/corpus.txt wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 2s --latency \
    -s scripts/wrk/corpus.lua "http://127.0.0.1:$port/slug" >"$WORK/$name.txt" &
  local wrk_pid=$!
  sleep 5
  local rss5; rss5=$(rss_kb "$pid")
  if [ -n "$midway" ]; then sleep $((DURATION / 2 - 5)); eval "$midway"; fi
  wait "$wrk_pid"
  local rss_end; rss_end=$(rss_kb "$pid")
  local rps p50 p99 non2xx sock
  read -r rps p50 p99 non2xx sock < <(wrk_summary "$WORK/$name.txt")
  printf '%-22s %9s req/s  p50 %7s  p99 %7s  non-2xx %6s  socket errors/timeouts %5s  RSS 5 s %6s kB, end %6s kB (%+.1f%%)\n' \
    "$name" "$rps" "$p50" "$p99" "$non2xx" "$sock" "$rss5" "$rss_end" \
    "$(python3 -c "print(($rss_end - $rss5) * 100 / $rss5)")"
}

# Probes once every 50 ms with a title that needs the table; records the
# time and status of each answer, to measure an outage from outside.
probe() { # port seconds
  local end=$((SECONDS + $2))
  while [ $SECONDS -lt "$end" ]; do
    code=$(curl -s -o /dev/null -m 2 -w '%{http_code}' -X POST -H 'content-type: application/json' \
      -d '{"title":"I ❤ Redis"}' "http://127.0.0.1:$1/slug" || true)
    echo "$(date +%s.%N) $code" >>"$WORK/probe.txt"
    sleep 0.05
  done
}

restart_redis() {
  echo "  (killing redis-server at $(date +%T), restarting it 1 s later)"
  redis-cli -p "$REDIS_PORT" save >/dev/null
  kill -9 "$REDIS_PID"; wait "$REDIS_PID" 2>/dev/null || true
  sleep 1
  start_redis
}

IN_PORT=$(free_port); RE_PORT=$(free_port); NC_PORT=$(free_port)
env -u REDIS_URL "$BIN" --log warn serve --listen "127.0.0.1:$IN_PORT" 2>>"$WORK/in_process.log" & PIDS+=($!); IN_PID=$!
"$BIN" --log warn serve --listen "127.0.0.1:$RE_PORT" 2>>"$WORK/redis.log" & PIDS+=($!); RE_PID=$!
# Without the name cache every title with a symbol needs Redis: the run
# that shows what a Redis restart costs when the cache cannot hide it.
"$BIN" --log warn serve --listen "127.0.0.1:$NC_PORT" --name-cache 0 2>>"$WORK/nocache.log" & PIDS+=($!); NC_PID=$!
wait_ready "$IN_PORT"; wait_ready "$RE_PORT"; wait_ready "$NC_PORT"

echo "== soak: $CONNECTIONS connections, ${DURATION} s each, POST /slug over data/corpus.txt"
soak in_process "$IN_PID" "$IN_PORT"
soak redis "$RE_PID" "$RE_PORT"
probe "$RE_PORT" "$DURATION" &
PROBE_PID=$!
soak redis+restart "$RE_PID" "$RE_PORT" restart_redis
wait "$PROBE_PID" || true
report_probe() {
  python3 - "$WORK/probe.txt" "$1" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
bad = [(float(t), c) for t, c in rows if c != "200"]
print(f"probe during {sys.argv[2]}: {len(rows)} probes, {len(bad)} not 200", end="")
if bad:
    codes = sorted({c for _, c in bad})
    print(f" (codes {', '.join(codes)}), failing for {bad[-1][0] - bad[0][0]:.2f} s"
          f" from first to last failure")
else:
    print()
PY
}
report_probe "redis+restart"
rm -f "$WORK/probe.txt"
probe "$NC_PORT" "$DURATION" &
PROBE_PID=$!
soak redis-nocache+restart "$NC_PID" "$NC_PORT" restart_redis
wait "$PROBE_PID" || true
report_probe "redis-nocache+restart"
