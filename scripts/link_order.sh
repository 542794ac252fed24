#!/usr/bin/env bash
# Writes data/link-order.txt, the functions a running service executes, for
# build.rs to place together in the release binary (less of the binary is
# resident: docs/figures.md, "Memory"). Runs this build's slugd under
# callgrind, in-process and on a fresh local redis-server, while
# scripts/lib/exercise.py sends it the corpus, batches, probes, metrics and
# (on Redis) reservations; every function callgrind saw run is listed, by
# its symbol (mangled) name. Then rebuilds, so the binary takes the order.
#
#   scripts/link_order.sh
#
# Run it again after a change of the compiler or of dependencies (their
# symbol names change, and names the binary no longer has are skipped, so
# a stale list only costs memory). Needs valgrind, redis-server and
# redis-cli; binds to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/common.sh
need valgrind valgrind
need callgrind_annotate valgrind
need redis-server redis-server
need redis-cli redis-tools
need curl curl
need nm binutils
need python3 python3

build_slugd
start_redis
"$BIN" --log warn load >/dev/null

# profile MODE: the symbols of the functions run while a service in MODE
# (in_process, redis) starts and serves exercise.py, one a line.
profile() {
  local mode=$1 port out pid unset=(-u REDIS_URL -u REDIS_CLUSTER) extra=()
  if [ "$mode" = redis ]; then unset=(-u REDIS_CLUSTER); extra=(--reservations); fi
  port=$(free_port)
  out="$WORK/callgrind.$mode"
  env "${unset[@]}" -u SLUGD_AUTH_TOKENS valgrind --tool=callgrind --demangle=no --callgrind-out-file="$out" \
    "$BIN" --log warn serve --listen "127.0.0.1:$port" >/dev/null 2>&1 &
  pid=$!
  PIDS+=("$pid")
  wait_ready "$port" 300 # valgrind starts slowly
  python3 scripts/lib/exercise.py "$port" 300 "${extra[@]}"
  kill -INT "$pid"
  wait "$pid" || true
  # Lines are `  count (share)  file:function [object]`; a recursive
  # call's function has `'2` and so on after its name.
  callgrind_annotate --auto=no --inclusive=no --threshold=100 "$out" |
    sed -nE "s/^ *[0-9,]+ +\([^)]*\) +[^: ]*:([^ ']+)('[0-9]+)?( \[.*\])?\$/\1/p"
}

profile in_process >"$WORK/in_process"
profile redis >"$WORK/redis"
# The binary's own functions only (not the C library's), each once.
nm "$BIN" | awk '$2 ~ /^[tT]$/ {print $3}' >"$WORK/defined"
awk 'NF && !seen[$0]++' "$WORK/in_process" "$WORK/redis" | { grep -xFf "$WORK/defined" || true; } >"$WORK/order"
count=$(wc -l <"$WORK/order")
if [ "$count" -lt 100 ]; then
  echo "link_order.sh: callgrind saw only $count functions run; data/link-order.txt left as it was" >&2
  exit 1
fi
mv "$WORK/order" data/link-order.txt
# The compiler whose symbol names these are (build.rs warns on another).
"${RUSTC:-rustc}" -V >data/link-order.rustc
echo "data/link-order.txt: $count functions, $(cat data/link-order.rustc)"
build_slugd
