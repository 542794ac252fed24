#!/usr/bin/env bash
# Connection floods over loopback: can a client starve the service? For
# each kind of flood (KINDS: silent, trickle, idle; scripts/lib/flood.py
# says what each sends), a fresh release `slugd serve` in-process with its
# default limits, 500 corpus titles, idle RSS; then FLOOD connections
# (20,000 by default) of that kind, opened as fast as one client can and
# held HOLD seconds after the last, then all closed. Throughout, a probe
# POSTs /slug every 0.2 s on a new connection (curl, at most 10 s each).
# Reports, per flood: the probe's answers, median and slowest; peak RSS
# (VmHWM) and RSS 30 s after the flood ended, against idle; what the
# flood client saw.
#
#   scripts/flood.sh                                  # target/release/slugd, all three floods
#   BEFORE=/path/to/old/slugd scripts/flood.sh        # and an older build, flood by flood
#   KINDS=silent FLOOD=5000 HOLD=10 scripts/flood.sh
#   SLUGD=/path/to/slugd ARGS="--max-connections 4096" scripts/flood.sh
#
# The flood is sent by as many client processes as it takes to hold at
# most PER_CLIENT (8,000) connections each, under the open-files limit
# (`ulimit -n` is raised to the hard limit; the script stops if that is
# below PER_CLIENT). Everything
# binds to 127.0.0.1; every wait is bounded and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

FLOOD="${FLOOD:-20000}"
HOLD="${HOLD:-20}"
KINDS="${KINDS:-silent trickle idle}"
ARGS="${ARGS:-}"
need python3 python3
need curl curl

PER_CLIENT="${PER_CLIENT:-8000}"
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt $((PER_CLIENT + 64)) ]; then
  echo "flood.sh: PER_CLIENT=$PER_CLIENT needs an open-files limit of $((PER_CLIENT + 64)); the hard limit is $(ulimit -Hn)" >&2
  exit 1
fi
ulimit -n "$(ulimit -Hn)"
CLIENTS=$(((FLOOD + PER_CLIENT - 1) / PER_CLIENT))

if [ -z "${SLUGD:-}" ]; then
  build_slugd --locked
  SLUGD="$BIN"
fi
CANDIDATES=("slugd=$SLUGD")
if [ -n "${BEFORE:-}" ]; then
  [ -x "$BEFORE" ] || { echo "flood.sh: BEFORE=$BEFORE is not an executable" >&2; exit 1; }
  CANDIDATES+=("before=$BEFORE")
fi

# The kernel's count of handshakes dropped because a listen backlog was
# full (for every listener on the machine).
overflows() { awk '$1=="TcpExt:" {if (!n) {for (i=2; i<=NF; i++) if ($i=="ListenOverflows") n=i; next} print $n}' /proc/net/netstat; }

kb_of() { awk -v k="$2:" '$1==k {print $2}' "/proc/$1/status"; }
mb() { awk -v kb="$1" 'BEGIN {printf "%.1f", kb / 1024}'; }

# POSTs /slug every 0.2 s, each on a new connection, until $1 exists: one
# line per request, "status seconds" (status 000: no answer within 10 s).
probe() { # stop-file port out
  while [ ! -e "$1" ]; do
    curl -s -o /dev/null --max-time 10 -w '%{http_code} %{time_total} %{time_connect}\n' \
      -H 'content-type: application/json' -d '{"title":"Still ☃ here?"}' \
      "http://127.0.0.1:$2/slug" >>"$3" || true
    sleep 0.2
  done
}

printf '%-8s %-7s | %7s %8s %8s %7s | %-40s\n' flood build "idle MB" "peak MB" "+30 s MB" "/idle" \
  "probe during the flood: 200s/sent, p50, max"
run() { # kind name binary
  local kind=$1 name=$2 bin=$3 port pid idle
  port=$(free_port)
  # shellcheck disable=SC2086
  "$bin" --log warn serve --listen "127.0.0.1:$port" $ARGS &
  pid=$!
  PIDS+=("$pid")
  wait_ready "$port"
  python3 scripts/lib/post_titles.py "$port" 500
  sleep 1
  idle=$(kb_of "$pid" VmRSS)

  local stop="$WORK/stop.$kind.$name" probes="$WORK/probe.$kind.$name"
  : >"$probes"
  probe "$stop" "$port" "$probes" &
  local probe_pid=$!
  local clients=() c overflowed
  overflowed=$(overflows)
  for c in $(seq 1 "$CLIENTS"); do
    # FLOOD in all: the first FLOOD % CLIENTS clients send one more.
    python3 scripts/lib/flood.py "$port" $((FLOOD / CLIENTS + (c <= FLOOD % CLIENTS))) "$HOLD" "$kind" \
      >"$WORK/flood.$kind.$name.$c" &
    clients+=($!)
  done
  wait "${clients[@]}"
  touch "$stop"
  overflowed=$(($(overflows) - overflowed))
  local ended=$SECONDS
  wait "$probe_pid"
  local peak
  peak=$(kb_of "$pid" VmHWM)
  local left=$((30 - (SECONDS - ended)))
  [ "$left" -gt 0 ] && sleep "$left"
  local after
  after=$(kb_of "$pid" VmRSS)
  kill "$pid"
  wait "$pid" 2>/dev/null || true

  local sent ok p50 max
  sent=$(wc -l <"$probes")
  ok=$(awk '$1==200' "$probes" | wc -l)
  read -r p50 max < <(sort -n -k2 "$probes" | awk '{t[NR]=$2} END {if (NR) printf "%.1f %.1f\n", t[int((NR+1)/2)]*1000, t[NR]*1000; else print "- -"}')
  printf '%-8s %-7s | %7s %8s %8s %7s | %-40s\n' "$kind" "$name" "$(mb "$idle")" "$(mb "$peak")" \
    "$(mb "$after")" "$(awk -v a="$after" -v i="$idle" 'BEGIN {printf "%.2fx", a / i}')" \
    "$ok/$sent, ${p50} ms, ${max} ms"
  sed 's/^/                   /' "$WORK/flood.$kind.$name".*
  echo "                   handshakes the kernel dropped for a full listen backlog: $overflowed"
}

for kind in $KINDS; do
  for candidate in "${CANDIDATES[@]}"; do
    run "$kind" "${candidate%%=*}" "${candidate#*=}"
  done
done
