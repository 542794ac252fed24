# Shared by the scripts that are not measurements (those are suites of the
# benchmark runner, `cargo xtask bench`, xtask/): test.sh, link_order.sh,
# link_order_check.sh, screenshot.sh, reshard.sh: tools, the build, ports,
# processes, readiness.
# Source it after `cd` to the project root. Everything binds to 127.0.0.1.

. scripts/lib/apt.sh

need() { # command debian-package
  command -v "$1" >/dev/null 2>&1 && return
  apt_install "$2"
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
