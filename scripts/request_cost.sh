#!/usr/bin/env bash
# Instructions per POST /slug, counted by callgrind: a figure the machine's
# noise does not move, beside bench.sh's throughput. Serves in-process with
# one worker thread under valgrind, POSTs 2,000 then 6,000 corpus titles
# (separate runs) and divides the difference by 4,000, so start-up cancels
# out. Two counts: the whole process in user space (hyper and tokio
# included; the kernel's share is not counted) and the service path alone
# (from hyper handing the request over to the response: the edge, the
# router, the handler).
#
#   scripts/request_cost.sh                          # this build
#   BEFORE=/path/to/old/slugd scripts/request_cost.sh  # and an older one
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

# instructions BIN N [--toggle-collect=...]: the program's total
instructions() {
  local bin=$1 n=$2 port out pid
  shift 2
  port=$(free_port)
  out="$WORK/cg.$RANDOM"
  env -u REDIS_URL -u REDIS_CLUSTER TOKIO_WORKER_THREADS=1 \
    valgrind --tool=callgrind "$@" --callgrind-out-file="$out" \
    "$bin" --log warn serve --listen "127.0.0.1:$port" 2>/dev/null &
  pid=$!
  wait_ready "$port" 300   # valgrind starts slowly
  python3 scripts/lib/post_titles.py "$port" "$n"
  kill -INT "$pid"
  wait "$pid" || true
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

per_request() { # bin [callgrind options]
  local a b
  a=$(instructions "$1" 2000 "${@:2}")
  b=$(instructions "$1" 6000 "${@:2}")
  if [ -z "$a" ] || [ -z "$b" ] || [ "$b" -le "$a" ]; then
    echo "request_cost.sh: callgrind counted nothing for $1 ${*:2}" >&2
    exit 1
  fi
  echo $(((b - a) / 4000))
}

SERVICE="--toggle-collect=*TowerToHyperServiceFuture*"
printf '%-8s %16s %16s\n' build "whole process" "service path"
printf '%-8s %16s %16s\n' this "$(per_request "$BIN")" "$(per_request "$BIN" "$SERVICE")"
if [ -n "$BEFORE" ]; then
  printf '%-8s %16s %16s\n' before "$(per_request "$BEFORE")" "$(per_request "$BEFORE" "$SERVICE")"
fi
