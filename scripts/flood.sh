#!/usr/bin/env bash
# A connection flood over loopback (issue 18): a release `slugd serve`
# in-process, idle RSS, then FLOOD connections (19,500 by default) that
# send the start of a request and never finish their headers, held for
# HOLD seconds and then all closed at once. Reports peak RSS (VmHWM),
# RSS once the service has closed them all, and RSS 30 s after the flood
# ended; a probe POSTs /slug every 0.2 s on a new connection throughout
# (its answers and latency); then a short wrk run of the corpus for the
# throughput of the same process after the flood.
#
#   scripts/flood.sh                                   # target/release/slugd, the default cap
#   SLUGD=/path/to/slugd scripts/flood.sh
#   CAPS="1024 20000" FLOOD=19500 HOLD=15 scripts/flood.sh
#   CANDIDATES="glibc=target/release/slugd arena2=MALLOC_ARENA_MAX=2@target/release/slugd jemalloc=/tmp/slugd-jemalloc" scripts/flood.sh
#
# Each word of CANDIDATES is NAME=BINARY or NAME=VAR=VALUE,VAR=VALUE@BINARY
# (environment for that binary, e.g. glibc's MALLOC_ARENA_MAX). Every
# candidate runs under every cap of CAPS (--max-connections; a cap above
# FLOOD is no cap), one after another in one run. The flood and the
# service each need FLOOD open files: the script raises `ulimit -n` to the
# hard limit and stops if that is too low.
#
# Everything binds to 127.0.0.1; every wait is bounded and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

FLOOD="${FLOOD:-19500}"
HOLD="${HOLD:-15}"
CAPS="${CAPS:-1024}"
HEADER_TIMEOUT_MS="${HEADER_TIMEOUT_MS:-10000}"
WRK_DURATION="${WRK_DURATION:-10s}"
need python3 python3
need curl curl
need wrk wrk

hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt $((FLOOD + 64)) ]; then
  echo "flood.sh: FLOOD=$FLOOD needs an open-files limit above $((FLOOD + 64)); the hard limit is $hard" >&2
  exit 1
fi
ulimit -n "$hard"

if [ -z "${CANDIDATES:-}" ]; then
  if [ -z "${SLUGD:-}" ]; then
    build_slugd --locked
    SLUGD="$BIN"
  fi
  CANDIDATES="slugd=$SLUGD"
fi

kb_of() { awk -v k="$2:" '$1==k {print $2}' "/proc/$1/status"; }
mb() { awk -v kb="$1" 'BEGIN {printf "%.1f", kb / 1024}'; }

# The open connections slugd counts, or nothing if it does not answer.
open_connections() { # port
  curl -fsS --max-time 5 "http://127.0.0.1:$1/metrics" 2>/dev/null |
    awk '$1=="slugd_http_connections_open" {print $2}'
}

# POSTs /slug every 0.2 s, each on a new connection, until $1 exists:
# one line per request, "status seconds".
probe() { # stop-file port out
  while [ ! -e "$1" ]; do
    curl -s -o /dev/null --max-time 120 -w '%{http_code} %{time_total}\n' \
      -H 'content-type: application/json' -d '{"title":"Still ☃ here?"}' \
      "http://127.0.0.1:$2/slug" >>"$3" || true
    sleep 0.2
  done
}

printf '%-10s %6s | %8s %8s %8s %8s %6s | %-44s | %s\n' candidate cap "idle MB" "peak MB" "closed" "+30 s" "/idle" \
  "probe during the flood: ok/sent, p50, max" "wrk after: req/s, p99"
run() { # name env binary cap
  local name=$1 envs=$2 bin=$3 cap=$4 port pid idle
  port=$(free_port)
  # shellcheck disable=SC2086
  env ${envs//,/ } "$bin" --log warn serve --listen "127.0.0.1:$port" \
    --max-connections "$cap" --header-timeout-ms "$HEADER_TIMEOUT_MS" &
  pid=$!
  PIDS+=("$pid")
  wait_ready "$port"
  python3 scripts/lib/post_titles.py "$port" 500
  sleep 1
  idle=$(kb_of "$pid" VmRSS)

  local stop="$WORK/stop.$name.$cap" probes="$WORK/probe.$name.$cap"
  : >"$probes"
  probe "$stop" "$port" "$probes" &
  local probe_pid=$!
  python3 scripts/lib/flood.py "$port" "$FLOOD" "$HOLD" >"$WORK/flood.$name.$cap"
  local ended=$SECONDS
  touch "$stop"

  # Until slugd has closed every flood connection (the scrape's own is
  # the one left), at most 120 s.
  local open=""
  for _ in $(seq 1 240); do
    open=$(open_connections "$port")
    [ -n "$open" ] && [ "${open%.*}" -le 1 ] && break
    sleep 0.5
  done
  local closed_after=$((SECONDS - ended)) closed
  closed=$(kb_of "$pid" VmRSS)
  wait "$probe_pid"
  local left=$((30 - (SECONDS - ended)))
  [ "$left" -gt 0 ] && sleep "$left"
  local after peak
  after=$(kb_of "$pid" VmRSS)
  peak=$(kb_of "$pid" VmHWM)

  CORPUS=data/corpus.txt wrk -t1 -c64 -d"$WRK_DURATION" --latency \
    -s scripts/wrk/corpus.lua "http://127.0.0.1:$port/slug" >"$WORK/wrk.$name.$cap"
  local rps p50 p99 non2xx sock
  read -r rps p50 p99 non2xx sock < <(wrk_summary "$WORK/wrk.$name.$cap")
  kill "$pid"
  wait "$pid" 2>/dev/null || true

  local sent ok p50p maxp
  sent=$(wc -l <"$probes")
  ok=$(awk '$1==200' "$probes" | wc -l)
  read -r p50p maxp < <(sort -n -k2 "$probes" | awk '{t[NR]=$2} END {if (NR) printf "%.1f %.1f\n", t[int((NR+1)/2)]*1000, t[NR]*1000; else print "- -"}')
  printf '%-10s %6s | %8s %8s %8s %8s %6s | %-44s | %s\n' "$name" "$cap" "$(mb "$idle")" "$(mb "$peak")" \
    "$(mb "$closed")" "$(mb "$after")" "$(awk -v a="$after" -v i="$idle" 'BEGIN {printf "%.2fx", a / i}')" \
    "$ok/$sent, ${p50p} ms, ${maxp} ms" "$rps, $p99 ($non2xx non-2xx, $sock socket errors)"
  echo "           flood: $(cat "$WORK/flood.$name.$cap"); all closed ${closed_after} s after it ended (open: ${open:-no answer})"
}

for cap in $CAPS; do
  for candidate in $CANDIDATES; do
    name=${candidate%%=*}
    rest=${candidate#*=}
    envs=""
    if [[ $rest == *@* ]]; then envs=${rest%@*}; rest=${rest#*@}; fi
    [ -x "$rest" ] || { echo "flood.sh: $rest (candidate $name) is not an executable" >&2; exit 1; }
    run "$name" "$envs" "$rest" "$cap"
  done
done
