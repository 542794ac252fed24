#!/usr/bin/env bash
# A screenshot of the home page in a real browser: starts slugd (on a fresh
# local redis-server with the table loaded, or in-process with --in-process),
# opens http://127.0.0.1:PORT/?bench=1 in headless Chromium (Debian's
# `chromium` package, installed with apt-get when missing and run as root),
# lets the page run /bench and draw it, and writes a PNG.
#
#   scripts/screenshot.sh                       # Redis mode -> docs/home.png
#   scripts/screenshot.sh --in-process out.png  # in-process mode
#   PROFILE=release ITERATIONS=5000 scripts/screenshot.sh
#   QUERY='ascii=false&title=%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82' scripts/screenshot.sh out.png
#
# QUERY is added to the page's URL (the page reads `title` and `ascii`).
#
# Everything binds to 127.0.0.1; the browser is given only that URL, with
# no first-run, sync, extension or component traffic.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/common.sh

MODE=redis
if [ "${1:-}" = "--in-process" ]; then MODE=in_process; shift; fi
OUT="${1:-docs/home.png}"
PROFILE="${PROFILE:-dev}"
ITERATIONS="${ITERATIONS:-2000}"
SIZE="${SIZE:-1280,1500}"

need chromium chromium
need redis-server redis-server
need redis-cli redis-tools
need curl curl

cargo build --quiet --profile "$PROFILE" --bin slugd
dir=$([ "$PROFILE" = dev ] && echo debug || echo "$PROFILE")
SLUGD="${CARGO_TARGET_DIR:-target}/$dir/slugd"

PORT=$(free_port)
if [ "$MODE" = redis ]; then
  start_redis
  "$SLUGD" load >"$WORK/load.log" 2>&1
  "$SLUGD" serve --listen "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 &
else
  env -u REDIS_URL -u REDIS_CLUSTER "$SLUGD" serve --listen "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 &
fi
PIDS+=("$!")
wait_ready "$PORT"

mkdir -p "$(dirname "$OUT")"
# chromium-flags: the shared flags of the browser test and this script.
# shellcheck disable=SC2046
chromium $(cat scripts/lib/chromium-flags) \
  --user-data-dir="$WORK/chromium" \
  --window-size="$SIZE" --virtual-time-budget=60000 \
  --screenshot="$OUT" "http://127.0.0.1:$PORT/?bench=1&iterations=$ITERATIONS${QUERY:+&$QUERY}" \
  >"$WORK/chromium.log" 2>&1 || { cat "$WORK/chromium.log" >&2; exit 1; }
echo "screenshot.sh: $MODE mode, $ITERATIONS iterations per side: $OUT" >&2
