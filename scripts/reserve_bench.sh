#!/usr/bin/env bash
# Reservations over loopback, in one run on one fresh redis-server:
#
# 1. throughput: wrk with $CONNECTIONS connections, POST /reservations (a
#    new owner each request, corpus titles in turn, one scope per round)
#    and POST /slug (the corpus) against the same slugd on the same Redis,
#    taking turns for $ROUNDS rounds of $DURATION; medians and their ratio,
#    the CPU time slugd and redis-server spent per request, and Redis's
#    own time per script call (INFO commandstats);
# 2. contention: three slugd instances at once, each driven by its own wrk
#    ($CONTENDERS connections each), all reserving the same 20 titles in
#    one scope; p50/p99 of each, then a check that no slug was handed out
#    twice;
# 3. memory: $MILLION reservations (default 1,000,000) in one scope, made
#    by the service's own Lua script through `redis-cli --pipe` (owners
#    1..N as decimal ids, the corpus titles' slugs from `slugd slugify`
#    as bases in turn, so most slugs carry a suffix), then used_memory
#    before and after, the sum of MEMORY USAGE of the scope's keys, and
#    the encodings of its buckets.
#
#   scripts/reserve_bench.sh
#   ROUNDS=3 DURATION=5s CONNECTIONS=64 MILLION=1000000 scripts/reserve_bench.sh
#   BEFORE=/path/to/old/slugd scripts/reserve_bench.sh  # and an older build
#
# With BEFORE, a fourth instance runs that build on the same Redis, and
# its rounds of both kinds (before_slug, before_reservations) take turns
# with this build's in step 1. CPU per request is split into user and
# system time: a reservation's round trip to Redis costs system time
# that a /slug answered from the name cache does not.
#
# Everything binds to 127.0.0.1 and stops by itself. The binary is built
# in $CARGO_TARGET_DIR (default target/).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5s}"
CONNECTIONS="${CONNECTIONS:-64}"
CONTENDERS="${CONTENDERS:-16}"
MILLION="${MILLION:-1000000}"

source scripts/lib/common.sh
need redis-server redis-server
need redis-cli redis-tools
need wrk wrk
need curl curl

build_slugd

start_redis
"$BIN" --log warn load >/dev/null

start_slugd() { # port [binary]
  env -u REDIS_CLUSTER "${2:-$BIN}" --log warn serve --listen "127.0.0.1:$1" & PIDS+=($!)
  wait_ready "$1"
}
P1=$(free_port); P2=$(free_port); P3=$(free_port)
start_slugd "$P1"; S1_PID=${PIDS[-1]}; start_slugd "$P2"; start_slugd "$P3"
BEFORE="${BEFORE:-}"
if [ -n "$BEFORE" ]; then
  P0=$(free_port); start_slugd "$P0" "$BEFORE"; S0_PID=${PIDS[-1]}
fi
# CPU time of a process so far, in clock ticks: user and system.
ticks() { awk '{print $14, $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
us_per() { python3 -c "print(round(($2 - $1) / $HZ * 1e6 / $3, 1))"; } # t0 t1 requests

run_wrk() { # name script path round [env...]
  local name=$1 script=$2 urlpath=$3 round=$4
  shift 4
  local port=$P1 pid=$S1_PID
  case $name in before_*) port=$P0 pid=$S0_PID ;; esac
  local ru0 rs0 u0 s0 ru1 rs1 u1 s1
  read -r ru0 rs0 < <(ticks "$REDIS_PID"); read -r u0 s0 < <(ticks "$pid")
  env CORPUS=data/corpus.txt "$@" wrk -t1 -c"$CONNECTIONS" -d"$DURATION" --latency \
    -s "$script" "http://127.0.0.1:$port$urlpath" >"$WORK/$name.$round.txt"
  read -r ru1 rs1 < <(ticks "$REDIS_PID"); read -r u1 s1 < <(ticks "$pid")
  local rps p50 p99 non2xx sock total
  read -r rps p50 p99 non2xx sock < <(wrk_summary "$WORK/$name.$round.txt")
  total=$(awk '/requests in/ {print $1}' "$WORK/$name.$round.txt")
  echo "$name $round $rps $p50 $p99" >>"$WORK/results"
  echo "$name $(us_per "$u0" "$u1" "$total") $(us_per "$s0" "$s1" "$total")" >>"$WORK/cpu"
  printf '  round %s %-19s %10s req/s  p50 %8s  p99 %8s  errors %s non-2xx, %s socket;  CPU per request: slugd %s us (user %s, system %s), redis-server %s us\n' \
    "$round" "$name" "$rps" "$p50" "$p99" "$non2xx" "$sock" \
    "$(us_per $((u0 + s0)) $((u1 + s1)) "$total")" "$(us_per "$u0" "$u1" "$total")" \
    "$(us_per "$s0" "$s1" "$total")" "$(us_per $((ru0 + rs0)) $((ru1 + rs1)) "$total")"
}

echo "== throughput: $ROUNDS rounds x $DURATION, $CONNECTIONS connections, one slugd on one Redis"
for round in $(seq 1 "$ROUNDS"); do
  names=(slug reservations)
  [ -n "$BEFORE" ] && names+=(before_slug before_reservations)
  for name in $(rotated "$round" "${names[@]}"); do
    case $name in
      slug | before_slug) run_wrk "$name" scripts/wrk/corpus.lua /slug "$round" ;;
      reservations | before_reservations)
        run_wrk "$name" scripts/wrk/reserve.lua /reservations "$round" \
          SCOPE="$name$round" OWNER="$name$round-" ;;
    esac
  done
done
python3 scripts/lib/medians.py "$WORK/results" "slug reservations before_slug before_reservations" \
  "reservations/slug before_reservations/before_slug reservations/before_reservations"
# Medians of the CPU time per request (user, system, both) and the ratio
# of both, reservation to /slug, of each build.
python3 - "$WORK/cpu" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, user, system = line.split()
    rows.setdefault(name, []).append((float(user), float(system)))
med = {n: (statistics.median(u for u, _ in v), statistics.median(s for _, s in v),
           statistics.median(u + s for u, s in v)) for n, v in rows.items()}
print("slugd CPU per request, medians (us): user, system, both")
for n, (u, s, b) in med.items():
    print(f"  {n:<20} {u:6.1f} {s:6.1f} {b:6.1f}")
for build in ("", "before_"):
    r, s = med.get(build + "reservations"), med.get(build + "slug")
    if r and s:
        print(f"  {build}reservations / {build}slug CPU: {r[2] / s[2]:.2f} (user {r[0] / s[0]:.2f})")
PY
redis-cli -p "$REDIS_PORT" info commandstats | grep -E '^cmdstat_(evalsha|eval):' | tr -d '\r' | sed 's/^/  /'
# Failed EVALSHAs are NOSCRIPT on the script's first use (docs/reservations.md).
redis-cli -p "$REDIS_PORT" info errorstats | grep '^errorstat_' | tr -d '\r' | sed 's/^/  /'
for round in $(seq 1 "$ROUNDS"); do
  made=$(redis-cli -p "$REDIS_PORT" --raw eval "
    local n = 0
    for _, k in ipairs(redis.call('KEYS', 'slugd:r:{' .. ARGV[1] .. '}:*')) do
      for _, f in ipairs(redis.call('HKEYS', k)) do
        local c = string.sub(f, 1, 1)
        if c ~= '=' and c ~= '#' then n = n + 1 end
      end
    end
    return n" 0 "reservations$round")
  echo "  scope reservations$round: $made slugs held"
done

echo "== contention: 3 instances x $CONTENDERS connections, the same 20 titles, one scope, $DURATION"
i=0
for port in "$P1" "$P2" "$P3"; do
  i=$((i + 1))
  env CORPUS=data/corpus.txt TITLES=20 SCOPE=contended OWNER="i$i-" \
    wrk -t1 -c"$CONTENDERS" -d"$DURATION" --latency -s scripts/wrk/reserve.lua \
    "http://127.0.0.1:$port/reservations" >"$WORK/contend.$i.txt" &
  WRKS+=($!)
done
for pid in "${WRKS[@]}"; do wait "$pid"; done
for i in 1 2 3; do
  read -r rps p50 p99 non2xx sock < <(wrk_summary "$WORK/contend.$i.txt")
  printf '  instance %s %10s req/s  p50 %8s  p99 %8s  errors %s non-2xx, %s socket\n' \
    "$i" "$rps" "$p50" "$p99" "$non2xx" "$sock"
done
redis-cli -p "$REDIS_PORT" --raw eval "
  local slugs, owners, dup = 0, 0, 0
  local held = {}
  for _, k in ipairs(redis.call('KEYS', 'slugd:r:{contended}:*')) do
    local all = redis.call('HGETALL', k)
    for j = 1, #all, 2 do
      local f, v = all[j], all[j + 1]
      local c = string.sub(f, 1, 1)
      if c == '=' then
        owners = owners + 1
        for e in string.gmatch(v, '%S+') do
          local s = string.match(e, '^[^:/]+')
          if held[s] then dup = dup + 1 end
          held[s] = true
        end
      elseif c ~= '#' then slugs = slugs + 1 end
    end
  end
  return slugs .. ' slugs held by ' .. owners .. ' owners; slugs listed by two owners: ' .. dup" 0

echo "== memory: $MILLION reservations in one scope"
grep -v '^#' data/corpus.txt | "$BIN" --log warn slugify 2>/dev/null | grep -v '^$' >"$WORK/bases.txt" || true
SHA=$(redis-cli -p "$REDIS_PORT" script load "$(cat src/reserve/reservations.lua)")
before=$(redis-cli -p "$REDIS_PORT" info memory | awk -F: '/^used_memory:/ {print $2}' | tr -d '\r')
python3 - "$WORK/bases.txt" "$SHA" "$MILLION" <<'PY' | redis-cli -p "$REDIS_PORT" --pipe | tail -1
import sys
bases = [l.strip() for l in open(sys.argv[1]) if l.strip()]
sha, n = sys.argv[2], int(sys.argv[3])
out = sys.stdout.buffer
def cmd(*args):
    parts = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        parts.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(parts)
key = "slugd:r:{million}:"
for i in range(1, n + 1):
    base = bases[i % len(bases)]
    # Rules 1: records as slugd wrote them before rule versions (rules 2
    # adds `!2`, two bytes, to each owner's record).
    out.write(cmd("EVALSHA", sha, "0", key, "reserve", str(i), base, "-", ",", "1", "*"))
PY
after=$(redis-cli -p "$REDIS_PORT" info memory | awk -F: '/^used_memory:/ {print $2}' | tr -d '\r')
redis-cli -p "$REDIS_PORT" --raw eval "
  local keys = redis.call('KEYS', 'slugd:r:{million}:*')
  local bytes, slugs, enc = 0, 0, {}
  for _, k in ipairs(keys) do
    bytes = bytes + redis.call('MEMORY', 'USAGE', k, 'SAMPLES', 0)
    local e = redis.call('OBJECT', 'ENCODING', k)
    enc[e] = (enc[e] or 0) + 1
    for _, f in ipairs(redis.call('HKEYS', k)) do
      local c = string.sub(f, 1, 1)
      if c ~= '=' and c ~= '#' then slugs = slugs + 1 end
    end
  end
  local parts = {}
  for e, n in pairs(enc) do parts[#parts + 1] = n .. ' ' .. e end
  return #keys .. ' keys, ' .. slugs .. ' slugs held, MEMORY USAGE sum ' .. bytes .. ' bytes = '
    .. string.format('%.1f', bytes / slugs) .. ' bytes per reservation; encodings: ' .. table.concat(parts, ', ')" 0
python3 -c "import sys; b, a, n = map(int, sys.argv[1:]); print(f'  used_memory {b} -> {a} bytes: {(a - b) / n:.1f} bytes per reservation')" "$before" "$after" "$MILLION"
redis-cli -p "$REDIS_PORT" --raw eval "
  local f = redis.call('HGETALL', KEYS[1] .. 'ffff')
  local out = {}
  for j = 1, math.min(#f, 12), 2 do out[#out + 1] = f[j] .. ' -> ' .. f[j + 1] end
  return 'a bucket (ffff): ' .. table.concat(out, ' | ')" 1 'slugd:r:{million}:'
