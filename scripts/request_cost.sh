#!/usr/bin/env bash
# Instructions per POST /slug, counted by callgrind: a figure the machine's
# noise does not move, beside the throughput of `cargo xtask bench throughput`. Serves in-process with
# one worker thread under valgrind, POSTs 2,000 then 6,000 corpus titles
# (separate runs) and divides the difference by 4,000, so start-up cancels
# out. Two counts: the whole process in user space (hyper and tokio
# included; the kernel's share is not counted) and the service path alone
# (from hyper handing the request over to the response: the edge, the
# router, the handler).
#
#   scripts/request_cost.sh                          # this build
#   BEFORE=/path/to/old/slugd scripts/request_cost.sh  # and an older one
#   MODES="in_process redis" scripts/request_cost.sh   # and on Redis too
#   KEEP=1 ...                      # keep the callgrind files, and say where
#
# On Redis (mode `redis`), the table is loaded into a fresh redis-server
# and the service reads it with its name cache, as it does by default.
#
# Binds to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/common.sh
need valgrind valgrind
need callgrind_annotate valgrind
need curl curl
need python3 python3

build_slugd
BEFORE="${BEFORE:-}"

MODES="${MODES:-in_process}"
for mode in $MODES; do
  if [ "$mode" = redis ]; then
    need redis-server redis-server
    need redis-cli redis-tools
    start_redis
    "$BIN" --log warn load >/dev/null
  fi
done
KEEP_DIR=""
[ -n "${KEEP:-}" ] && KEEP_DIR=$(mktemp -d /tmp/request_cost.XXXX)

# instructions BIN MODE N [--toggle-collect=...]: the program's total
instructions() {
  local bin=$1 mode=$2 n=$3 port out pid
  shift 3
  port=$(free_port)
  out="${KEEP_DIR:-$WORK}/cg.$(basename "$bin").$mode.$n.$RANDOM"
  local unset=(-u REDIS_URL -u REDIS_CLUSTER)
  [ "$mode" = redis ] && unset=(-u REDIS_CLUSTER)
  env "${unset[@]}" TOKIO_WORKER_THREADS=1 \
    valgrind --tool=callgrind "$@" --callgrind-out-file="$out" \
    "$bin" --log warn serve --listen "127.0.0.1:$port" 2>/dev/null &
  pid=$!
  wait_ready "$port" 300   # valgrind starts slowly
  python3 scripts/lib/post_titles.py "$port" "$n"
  kill -INT "$pid"
  wait "$pid" || true
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

per_request() { # bin mode [callgrind options]
  local a b
  a=$(instructions "$1" "$2" 2000 "${@:3}")
  b=$(instructions "$1" "$2" 6000 "${@:3}")
  if [ -z "$a" ] || [ -z "$b" ] || [ "$b" -le "$a" ]; then
    echo "request_cost.sh: callgrind counted nothing for $1 ${*:2}" >&2
    exit 1
  fi
  echo $(((b - a) / 4000))
}

# The service path, from hyper handing the request over to the response:
# hyper-util's TowerToHyperServiceFuture in builds before the accept loop
# was rewritten, call_app and TrackedAnswer's poll (src/http/server.rs)
# after; a build has one or the other.
SERVICE=(--toggle-collect='*TowerToHyperServiceFuture*' --toggle-collect='*server::call_app*'
  --toggle-collect='*TrackedAnswer*poll*')
printf '%-8s %-11s %16s %16s\n' build mode "whole process" "service path"
for mode in $MODES; do
  printf '%-8s %-11s %16s %16s\n' this "$mode" "$(per_request "$BIN" "$mode")" "$(per_request "$BIN" "$mode" "${SERVICE[@]}")"
  if [ -n "$BEFORE" ]; then
    printf '%-8s %-11s %16s %16s\n' before "$mode" "$(per_request "$BEFORE" "$mode")" "$(per_request "$BEFORE" "$mode" "${SERVICE[@]}")"
  fi
done
[ -z "$KEEP_DIR" ] || echo "callgrind files: $KEEP_DIR"
