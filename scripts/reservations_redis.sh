#!/usr/bin/env bash
# Redis's own time per reservation, with nothing else running: one fresh
# redis-server on a free loopback port, redis-benchmark (8 clients) sending
# 200,000 reservations of one title by new owners (so every one takes a
# numbered slug: the five-command path) to each of
#   script     the Lua script of BEFORE (default 446d904, the last release
#              that ran reservations with EVALSHA)
#   library 1  tests/data/reservations/library_1.lua (FCALL, before holds)
#   library 2  src/reserve/reservations.lua (this tree)
#   floor      the same five commands on the same keys, with nothing else
#              (what this key layout costs at the least)
# each on a scope of its own, taking turns, ROUNDS times (default 5);
# prints `INFO commandstats`' microseconds per call of each, then medians.
#
#   scripts/reservations_redis.sh [ROUNDS] [BEFORE]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
before=${2:-446d904}
for tool in redis-server redis-cli redis-benchmark; do
  command -v "$tool" >/dev/null || {
    echo "$tool is missing: apt-get install redis-server redis-tools" >&2
    exit 1
  }
done
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --dir "$dir" --daemonize yes --logfile "$dir/log" --pidfile "$dir/pid"
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
cli() { redis-cli -p "$port" "$@"; }
until cli ping >/dev/null 2>&1; do sleep 0.1; done

git show "$before:src/reserve/reservations.lua" >"$dir/script.lua"
sha=$(cli script load "$(cat "$dir/script.lua")")
cli function load replace "$(cat tests/data/reservations/library_1.lua)" >/dev/null
cli function load replace "$(cat src/reserve/reservations.lua)" >/dev/null
cat >"$dir/floor.lua" <<'EOF'
#!lua name=bench_floor
local function key(prefix, field) return prefix .. string.sub(redis.sha1hex(field), 1, 4) end
redis.register_function('bench_floor', function(_, a)
  local prefix, owner, base = a[1], a[2], a[3]
  local ofield = '=' .. owner
  local okey = key(prefix, ofield)
  redis.call('HGET', okey, ofield)
  local hkey = key(prefix, base)
  local seen = redis.call('HMGET', hkey, base, '#' .. base)
  local n = (tonumber(seen[2]) or 1) + 1
  local c
  while true do
    c = base .. '-' .. n
    if redis.call('HSETNX', key(prefix, c), c, owner) == 1 then break end
    n = n + 1
  end
  redis.call('HSET', hkey, '#' .. base, n)
  redis.call('HSET', okey, ofield, c .. '/' .. #base)
  return {'new', c, '5'}
end)
EOF
cli function load replace "$(cat "$dir/floor.lua")" >/dev/null

# run NAME COMMAND...: one round's microseconds per call of COMMAND's kind.
run() {
  local name=$1 kind=$2
  shift 2
  cli config resetstat >/dev/null
  redis-benchmark -p "$port" -q -c 8 -n 200000 -r 100000000 "$@" >/dev/null
  cli info commandstats | sed -n "s/^cmdstat_$kind:.*usec_per_call=\([0-9.]*\).*/\1/p" >>"$dir/$name"
}
args=(o__rand_int__ hello-world - , 5)
for round in $(seq "$rounds"); do
  run script evalsha evalsha "$sha" 0 "b:r:{script$round}:" reserve "${args[@]}" '*'
  run library_1 fcall fcall slugd_reserve_1 0 "b:r:{one$round}:" "${args[@]}" '*'
  run library_2 fcall fcall slugd_reserve_2 0 "b:r:{two$round}:" "${args[@]}" 0 '*'
  run floor fcall fcall bench_floor 0 "b:r:{floor$round}:" "${args[@]}"
done
for name in script library_1 library_2 floor; do
  python3 - "$name" "$dir/$name" <<'EOF'
import statistics, sys
values = [float(line) for line in open(sys.argv[2])]
print(f"{sys.argv[1]:10} median {statistics.median(values):6.2f} us per call   rounds {' '.join(f'{v:.2f}' for v in values)}")
EOF
done
