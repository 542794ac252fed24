# Shared by the scripts that are not yet suites of the benchmark runner
# (`cargo xtask bench`, xtask/): soak.sh, reserve_bench.sh, instances.sh,
# locales.sh, japanese.sh, request_cost.sh, flood.sh, and by test.sh,
# link_order.sh and the others: tools, the build, ports, processes,
# readiness, RSS.
# Source it after `cd` to the project root. Everything binds to 127.0.0.1.

need() { # command debian-package
  command -v "$1" >/dev/null 2>&1 && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$(basename "$0"): installing $2 with apt-get" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "$(basename "$0"): $1 is missing; install the Debian package $2" >&2
    exit 1
  fi
}

# Builds slugd with the release profile (with flags of its own, such as
# `--locked`; never with examples or tests in the same invocation, which
# gives the binary the dev-dependencies' features and loses the link
# order: data/README.md); sets BIN to the binary.
build_slugd() {
  cargo build --release --quiet --bin slugd "$@"
  BIN="${CARGO_TARGET_DIR:-target}/release/slugd"
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -n "${KEEP_WORK:-}" ] && echo "kept $WORK" >&2 || rm -rf "$WORK"
}
trap cleanup EXIT

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

wait_ready() { # port [tenths of a second to wait, 100 by default]
  for _ in $(seq 1 "${2:-100}"); do
    curl -fsS "http://127.0.0.1:$1/readyz" >/dev/null 2>&1 && return 0
    curl -fsS -o /dev/null -X POST -H 'content-type: application/json' -d '{"title":"x"}' "http://127.0.0.1:$1/slug" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "$(basename "$0"): nothing answers on port $1" >&2
  exit 1
}

# Starts redis-server on $REDIS_PORT (a free port the first time; saving to
# $WORK/dump.rdb only when asked with SAVE) and waits for it; sets REDIS_PID
# and exports REDIS_URL for slugd.
start_redis() {
  : "${REDIS_PORT:=$(free_port)}"
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no \
    --dir "$WORK" --logfile "$WORK/redis.log" &
  REDIS_PID=$!
  PIDS+=("$REDIS_PID")
  for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return 0; sleep 0.05; done
  echo "$(basename "$0"): redis-server did not start; see $WORK/redis.log" >&2
  exit 1
}

# wrk's summary line for one run: "req/s p50 p99 errors".
wrk_summary() { # wrk-output-file
  local rps p50 p99 non2xx sock
  rps=$(awk '/^Requests\/sec/ {print $2}' "$1")
  p50=$(awk '$1=="50%" {print $2}' "$1")
  p99=$(awk '$1=="99%" {print $2}' "$1")
  non2xx=$(awk '/Non-2xx/ {print $NF}' "$1")
  sock=$(awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}' "$1")
  echo "$rps $p50 $p99 ${non2xx:-0} ${sock:-0}"
}

# The items, one a line, starting (round - 1) further along the list and
# wrapping around: so that rounds rotate the order of the targets, and
# machine noise and the order hit every target alike.
rotated() { # round item...
  local k=$((($1 - 1) % ($# - 1)))
  shift
  printf '%s\n' "${@:k+1}" "${@:1:k}"
}

# The median of the numbers on standard input, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# RSS of one instance warmed by the caller's `warm PORT`, read 0.5 s after
# it and again SETTLE seconds later (0 by default); prints the medians over
# ROUNDS, "settled right-after" (kB). `memory` runs it in-process (no
# REDIS_URL); other args go to serve.
rss_warmed() { # redis|memory [serve args]
  local mode=$1; shift
  local each=()
  for _ in $(seq 1 "$ROUNDS"); do
    local port; port=$(free_port)
    if [ "$mode" = memory ]; then
      env -u REDIS_URL "$BIN" --log warn serve --listen "127.0.0.1:$port" "$@" >/dev/null &
    else
      "$BIN" --log warn serve --listen "127.0.0.1:$port" "$@" >/dev/null &
    fi
    local pid=$!; PIDS+=("$pid")
    # An in-process start with every locale, or with Japanese, reads files
    # for seconds.
    for _ in $(seq 1 600); do
      curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
      sleep 0.1
    done
    wait_ready "$port"; warm "$port"; sleep 0.5
    local now; now=$(rss_kb "$pid")
    sleep "${SETTLE:-0}"
    each+=("$(rss_kb "$pid") $now")
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
  echo "$(printf '%s\n' "${each[@]}" | awk '{print $1}' | median) $(printf '%s\n' "${each[@]}" | awk '{print $2}' | median)"
}
