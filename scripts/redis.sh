#!/usr/bin/env bash
# A local redis-server for trying slugd by hand, in the foreground, on
# loopback only, keeping nothing on disk. Ctrl-C stops it.
#
#   scripts/redis.sh            # port 6379
#   PORT=6380 scripts/redis.sh
#
# Then, in another shell:
#   export REDIS_URL=redis://127.0.0.1:6379
#   cargo run --release -- load
#   cargo run --release -- serve
set -euo pipefail
PORT="${PORT:-6379}"
if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis.sh: redis-server is missing; install it (Debian/Ubuntu: sudo apt-get install redis-server)" >&2
  exit 1
fi
echo "redis.sh: redis-server on 127.0.0.1:$PORT; use REDIS_URL=redis://127.0.0.1:$PORT" >&2
exec redis-server --bind 127.0.0.1 --port "$PORT" --save '' --appendonly no
