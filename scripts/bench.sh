#!/usr/bin/env bash
# HTTP benchmark over loopback: loads the table into a fresh redis-server
# and into a fresh 3-primary Redis Cluster, serves slugd in-process, on the
# single Redis and on the cluster (each with and without the name cache),
# and the bare axum baseline of examples/bare.rs; drives each with wrk on
# the mixed corpus, and prints throughput, latency, RSS and the Redis
# table's memory.
#
#   scripts/bench.sh                 # 3 rounds of 10 s per target
#   ROUNDS=5 DURATION=20s CONNECTIONS=64 scripts/bench.sh
#   BEFORE=/path/to/old/slugd scripts/bench.sh   # and an older build, side by side
#
# With BEFORE, the older binary serves in-process and on the same Redis
# table too (targets before_in_process and before_redis), in the same
# rounds, so a change is measured against the build before it in one run.
# The binaries are built in $CARGO_TARGET_DIR (default target/).
#
# The targets take turns within each round, each round starting one
# target further on, so machine noise and the order hit them alike; the
# table reports medians over the rounds and the ratios of the medians.
# TARGETS="in_process redis before_in_process before_redis" runs only
# those (all are started either way). Everything binds to 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-1}"

source scripts/lib/common.sh
need redis-server redis-server
need redis-cli redis-tools
need wrk wrk
need curl curl

# Two invocations: built together, the binary would get the dev-
# dependencies' features, which change its symbols' names and lose the
# link order (data/README.md).
build_slugd
cargo build --release --quiet --example bare
BARE="${CARGO_TARGET_DIR:-target}/release/examples/bare"
BEFORE="${BEFORE:-}"
if [ -n "$BEFORE" ] && [ ! -x "$BEFORE" ]; then
  echo "bench.sh: BEFORE=$BEFORE is not an executable slugd binary" >&2
  exit 1
fi

start_redis

echo "== loader"
/usr/bin/time -f "loader peak RSS: %M kB, wall: %e s" "$BIN" --log warn load 2>"$WORK/load.err" | tee "$WORK/load.out"
grep "loader peak RSS" "$WORK/load.err"
start_cluster
echo "== loader, 3-primary cluster"
env -u REDIS_URL "$BIN" --log warn load 2>"$WORK/load-cluster.err" | tee "$WORK/load-cluster.out"
for port in "${CLUSTER_PORTS[@]}"; do
  echo "  node $port: $(redis-cli -p "$port" --raw eval "return #redis.call('KEYS', 'slugd:t:*')" 0) buckets, used_memory $(redis-cli -p "$port" info memory | awk -F: '/^used_memory:/ {print $2}' | tr -d '\r') B"
done
redis-cli -p "$REDIS_PORT" --raw eval "
  local v = redis.call('GET', KEYS[1])
  local keys = redis.call('KEYS', ARGV[1] .. 't:' .. v .. ':*')
  local enc = {}
  for _, k in ipairs(keys) do local e = redis.call('OBJECT', 'ENCODING', k); enc[e] = (enc[e] or 0) + 1 end
  local out = {}
  for e, n in pairs(enc) do out[#out + 1] = n .. ' ' .. e end
  return 'bucket encodings: ' .. table.concat(out, ', ')" 1 'slugd:{ctl}:current' slugd:

IN_PORT=$(free_port); RE_PORT=$(free_port); NC_PORT=$(free_port); BARE_PORT=$(free_port)
CL_PORT=$(free_port); CLNC_PORT=$(free_port)
env -u REDIS_URL -u REDIS_CLUSTER "$BIN" --log warn serve --listen "127.0.0.1:$IN_PORT" & PIDS+=($!); IN_PID=$!
env -u REDIS_CLUSTER "$BIN" --log warn serve --listen "127.0.0.1:$RE_PORT" & PIDS+=($!); RE_PID=$!
# The same without the name cache: every title with a symbol makes its
# round trip(s).
env -u REDIS_CLUSTER "$BIN" --log warn serve --listen "127.0.0.1:$NC_PORT" --name-cache 0 & PIDS+=($!); NC_PID=$!
env -u REDIS_URL "$BIN" --log warn serve --listen "127.0.0.1:$CL_PORT" & PIDS+=($!); CL_PID=$!
env -u REDIS_URL "$BIN" --log warn serve --listen "127.0.0.1:$CLNC_PORT" --name-cache 0 & PIDS+=($!); CLNC_PID=$!
"$BARE" "127.0.0.1:$BARE_PORT" & PIDS+=($!); BARE_PID=$!
PORTS=("$IN_PORT" "$RE_PORT" "$NC_PORT" "$CL_PORT" "$CLNC_PORT" "$BARE_PORT")
if [ -n "$BEFORE" ]; then
  BIN_PORT=$(free_port); BRE_PORT=$(free_port)
  env -u REDIS_URL -u REDIS_CLUSTER "$BEFORE" --log warn serve --listen "127.0.0.1:$BIN_PORT" & PIDS+=($!); BIN_PID=$!
  env -u REDIS_CLUSTER "$BEFORE" --log warn serve --listen "127.0.0.1:$BRE_PORT" & PIDS+=($!); BRE_PID=$!
  PORTS+=("$BIN_PORT" "$BRE_PORT")
fi
for port in "${PORTS[@]}"; do wait_ready "$port"; done
sleep 0.5
rss_all() {
  echo -n "in-process $(rss_kb $IN_PID) kB, redis $(rss_kb $RE_PID) kB, redis without cache $(rss_kb $NC_PID) kB, cluster $(rss_kb $CL_PID) kB, cluster without cache $(rss_kb $CLNC_PID) kB, bare $(rss_kb $BARE_PID) kB"
  if [ -n "$BEFORE" ]; then echo ", before in-process $(rss_kb $BIN_PID) kB, before redis $(rss_kb $BRE_PID) kB"; else echo; fi
}
echo "== idle RSS: $(rss_all)"

run_wrk() { # name port round
  CORPUS=data/corpus.txt wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s scripts/wrk/corpus.lua "http://127.0.0.1:$2/slug" >"$WORK/$1.$3.txt"
  local rps p50 p99 non2xx sock
  read -r rps p50 p99 non2xx sock < <(wrk_summary "$WORK/$1.$3.txt")
  echo "$1 $3 $rps $p50 $p99" >>"$WORK/results"
  printf '  round %s %-14s %10s req/s  p50 %8s  p99 %8s  errors %s non-2xx, %s socket\n' "$3" "$1" "$rps" "$p50" "$p99" "$non2xx" "$sock"
}

echo "== wrk: $ROUNDS rounds x $DURATION, $CONNECTIONS connections, $THREADS thread(s), POST /slug over data/corpus.txt"
declare -A PORT_OF=([in_process]=$IN_PORT [redis]=$RE_PORT [redis_nocache]=$NC_PORT
  [cluster]=$CL_PORT [cluster_nocache]=$CLNC_PORT [bare]=$BARE_PORT)
ALL="in_process redis redis_nocache cluster cluster_nocache bare"
if [ -n "$BEFORE" ]; then
  PORT_OF[before_in_process]=$BIN_PORT; PORT_OF[before_redis]=$BRE_PORT
  ALL="$ALL before_in_process before_redis"
fi
read -r -a ORDER <<<"${TARGETS:-$ALL}"
for name in "${ORDER[@]}"; do
  [ -n "${PORT_OF[$name]:-}" ] || { echo "bench.sh: no target $name (have: $ALL)" >&2; exit 1; }
done
for round in $(seq 1 "$ROUNDS"); do
  n=${#ORDER[@]}
  for k in $(seq 0 $((n - 1))); do
    name=${ORDER[$(((k + round - 1) % n))]}
    run_wrk "$name" "${PORT_OF[$name]}" "$round"
  done
done
echo "== RSS after load: $(rss_all)"

python3 scripts/lib/medians.py "$WORK/results" \
  "in_process redis redis_nocache cluster cluster_nocache bare before_in_process before_redis" \
  "redis/in_process redis/bare in_process/bare redis_nocache/in_process cluster/redis cluster_nocache/redis_nocache in_process/before_in_process redis/before_redis before_redis/before_in_process"
