#!/usr/bin/env bash
# Resharding under load: a Redis Cluster of three primaries on loopback,
# loaded with `slugd load`, three `slugd serve` instances on it, and
# clients (scripts/lib/reshard_load.py: POST /slug, new reservations,
# retries, look-ups, releases) on all three while
# `redis-cli --cluster reshard` moves half the slots of one primary to
# another. Then it checks that every acknowledged reservation is still
# there (read back with GET and straight from Redis), that no slug was
# handed out twice, and that every answer during the move was 2xx or a
# 503, and prints the status counts and latencies before, during and
# after the move.
#
#   scripts/reshard.sh
#   PROFILE=release WORKERS=12 SCOPES=8 BEFORE=2 AFTER=2 scripts/reshard.sh
#
# PROFILE is the cargo profile (debug by default: the figures measure
# correctness, not speed). Everything binds to 127.0.0.1 and stops by
# itself; exits 1 if a check failed.
set -euo pipefail
cd "$(dirname "$0")/.."

PROFILE="${PROFILE:-debug}"
WORKERS="${WORKERS:-12}"
SCOPES="${SCOPES:-8}"
BEFORE="${BEFORE:-2}"
AFTER="${AFTER:-2}"

source scripts/lib/common.sh
need redis-server redis-server
need redis-cli redis-tools
need curl curl
need python3 python3

case $PROFILE in
  debug) cargo build --quiet --bin slugd; BIN="${CARGO_TARGET_DIR:-target}/debug/slugd" ;;
  *) cargo build --quiet --profile "$PROFILE" --bin slugd; BIN="${CARGO_TARGET_DIR:-target}/$PROFILE/slugd" ;;
esac

NODES=()
for i in 1 2 3; do
  port=$(free_port); bus=$(free_port)
  mkdir -p "$WORK/node$i"
  redis-server --bind 127.0.0.1 --port "$port" --cluster-enabled yes \
    --cluster-config-file "$WORK/node$i/nodes.conf" --cluster-port "$bus" \
    --cluster-node-timeout 5000 --cluster-require-full-coverage no \
    --save '' --appendonly no --dir "$WORK/node$i" --logfile "$WORK/node$i/redis.log" &
  PIDS+=($!)
  NODES+=("$port")
done
for port in "${NODES[@]}"; do
  for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
done
redis-cli --cluster create "${NODES[@]/#/127.0.0.1:}" --cluster-yes >"$WORK/create.log" \
  || { cat "$WORK/create.log"; exit 1; }
for port in "${NODES[@]}"; do
  until redis-cli -p "$port" cluster info | grep -q cluster_state:ok; do sleep 0.1; done
done
SEEDS=$(printf '127.0.0.1:%s,' "${NODES[@]}"); SEEDS=${SEEDS%,}
export REDIS_CLUSTER="$SEEDS"
unset REDIS_URL
"$BIN" --log warn load 2>"$WORK/load.log" | sed 's/^/  /'

# The primary that holds slot 0, and another; half of the first one's slots
# move, the lowest first (redis-cli takes a source's slots in order).
FROM_PORT=${NODES[0]}; TO_PORT=${NODES[1]}
FROM=$(redis-cli -p "$FROM_PORT" cluster myid); TO=$(redis-cli -p "$TO_PORT" cluster myid)
read -r FIRST LAST < <(redis-cli -p "$FROM_PORT" cluster nodes | awk '/myself/ {split($9, r, "-"); print r[1], r[2]}')
COUNT=$(( (LAST - FIRST + 1) / 2 ))
MOVING="$FIRST-$((FIRST + COUNT - 1))"

HTTP=()
for i in 1 2 3; do
  port=$(free_port)
  "$BIN" --log warn serve --listen "127.0.0.1:$port" 2>>"$WORK/slugd$i.log" & PIDS+=($!)
  HTTP+=("$port")
done
for port in "${HTTP[@]}"; do wait_ready "$port"; done
echo "== cluster ${NODES[*]}; slugd on ${HTTP[*]} ($PROFILE build); moving $COUNT slots ($MOVING) from $FROM_PORT to $TO_PORT"

python3 scripts/lib/reshard_load.py --ports "$(IFS=,; echo "${HTTP[*]}")" \
  --redis "$(IFS=,; echo "${NODES[*]}")" --moving "$MOVING" --work "$WORK" \
  --workers "$WORKERS" --scopes "$SCOPES" &
LOAD=$!
until [ -e "$WORK/load-running" ]; do sleep 0.05; done
sleep "$BEFORE"
touch "$WORK/move-started"
t0=$(date +%s.%N)
redis-cli --cluster reshard "127.0.0.1:$FROM_PORT" --cluster-from "$FROM" --cluster-to "$TO" \
  --cluster-slots "$COUNT" --cluster-yes >"$WORK/reshard.log" 2>&1 \
  || { tail -20 "$WORK/reshard.log"; touch "$WORK/stop"; wait "$LOAD" || true; exit 1; }
t1=$(date +%s.%N)
touch "$WORK/move-ended"
echo "== reshard: $COUNT slots in $(python3 -c "print(f'{$t1 - $t0:.1f}')") s; redis-cli --cluster check:"
redis-cli --cluster check "127.0.0.1:$FROM_PORT" | grep -E '^127|slots|OK|ERR' | sed 's/^/  /'
echo "== errors the nodes answered (INFO errorstats; TRYAGAIN and MOVED from the reservation script while a scope's slot moved):"
for port in "${NODES[@]}"; do
  echo "  $port: $(redis-cli -p "$port" info errorstats | grep '^errorstat_' | tr -d '\r' | sed 's/^errorstat_//' | tr '\n' ' ')"
done
sleep "$AFTER"
touch "$WORK/stop"
status=0
wait "$LOAD" || status=$?
if grep -q ' WARN \| ERROR ' "$WORK"/slugd*.log; then
  echo "== slugd's warnings (first 5 of each kind):"
  grep -h ' WARN \| ERROR ' "$WORK"/slugd*.log | sed -E 's/^[^ ]+ +//' | sort | uniq -c | sort -rn | head -5 | cut -c1-300
fi
exit "$status"
