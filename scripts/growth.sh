#!/usr/bin/env bash
# How a request's cost grows, in-process and on Redis,
# over loopback:
#   1. connections: wrk POST /slug over the corpus with 64, 256 and 1,024
#      connections: throughput and p99;
#   2. batch size: POST /slugs with 1, 10 and 100 corpus titles a request:
#      requests/s, titles/s and p99;
#   3. title length: one POST /slug of a title of 1 KiB to 1 MiB (corpus
#      titles repeated), each timed by curl, the median of REPEAT: the time
#      per KiB shows whether the cost is linear.
# Each wrk run is DURATION long; rounds rotate the targets so noise hits
# them alike, and the tables are medians over ROUNDS.
#
#   scripts/growth.sh                       # ROUNDS=3 DURATION=5s REPEAT=5
#
# Everything binds to 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-5s}"
REPEAT="${REPEAT:-5}"

source scripts/lib/common.sh
need redis-server redis-server
need redis-cli redis-tools
need wrk wrk
need curl curl
need python3 python3

build_slugd
start_redis
"$BIN" --log warn load >/dev/null
IN_PORT=$(free_port); RE_PORT=$(free_port)
env -u REDIS_URL -u REDIS_CLUSTER "$BIN" --log warn serve --max-connections 2048 --listen "127.0.0.1:$IN_PORT" & PIDS+=($!)
env -u REDIS_CLUSTER "$BIN" --log warn serve --max-connections 2048 --listen "127.0.0.1:$RE_PORT" & PIDS+=($!)
wait_ready "$IN_PORT"; wait_ready "$RE_PORT"
ulimit -n 8192 2>/dev/null || true
declare -A PORT=([in_process]=$IN_PORT [redis]=$RE_PORT)

run() { # target script connections [env...]
  local target=$1 script=$2 conns=$3; shift 3
  env "$@" wrk -t1 -c"$conns" -d"$DURATION" --latency -s "$script" \
    "http://127.0.0.1:${PORT[$target]}" > "$WORK/wrk.out" 2>&1 || true
  wrk_summary "$WORK/wrk.out"
}

# sweep NAME SCRIPT VALUES...: wrk over each value (connections, or
# BATCH titles a request) and target, the targets' order turned each
# round; one line per run in $WORK/NAME.
sweep() {
  local name=$1 script=$2 targets=(in_process redis) round value k target
  shift 2
  for round in $(seq 1 "$ROUNDS"); do
    for value in "$@"; do
      for k in 0 1; do
        target=${targets[$(((k + round) % 2))]}
        if [ "$name" = connections ]; then
          echo "$target $value $(run "$target" "$script" "$value")"
        else
          echo "$target $value $(run "$target" "$script" 64 BATCH="$value")"
        fi >> "$WORK/$name"
      done
    done
  done
}

# table NAME: the medians of $WORK/NAME's runs by target and value, with
# titles/s when the value is titles a request.
table() {
  python3 - "$WORK/$1" "$1" <<'PY'
import sys, statistics as st
rows = {}
ms = lambda v: float(v[:-2]) if v.endswith("ms") else float(v[:-2]) / 1000 if v.endswith("us") else float(v[:-1]) * 1000
for line in open(sys.argv[1]):
    t, value, rps, p50, p99, non2xx, sock = line.split()
    rows.setdefault((t, int(value)), []).append((float(rps), ms(p99), int(non2xx) + int(sock)))
batch = sys.argv[2] == "batch"
print(f"| target | {'titles a request' if batch else 'connections'} | req/s (median) |{' titles/s |' if batch else ''} p99 ms (median) | errors |")
print("|---|---|---|" + ("---|" if batch else "") + "---|---|")
for (t, value), v in sorted(rows.items()):
    rps = st.median(r[0] for r in v)
    titles = f" {rps * value:,.0f} |" if batch else ""
    print(f"| {t} | {value} | {rps:,.0f} |{titles} {st.median(r[1] for r in v):.2f} | {sum(r[2] for r in v)} |")
PY
}

echo "== 1. connections (POST /slug, corpus)"
sweep connections scripts/wrk/corpus.lua 64 256 1024
table connections

echo "== 2. batch size (POST /slugs, 64 connections)"
sweep batch scripts/wrk/batch.lua 1 10 100
table batch

echo "== 3. title length (one POST /slug, median of $REPEAT)"
python3 - "$WORK" "$REPEAT" "$IN_PORT" "$RE_PORT" <<'PY'
import json, pathlib, statistics as st, subprocess, sys
work, repeat, ports = pathlib.Path(sys.argv[1]), int(sys.argv[2]), {"in_process": sys.argv[3], "redis": sys.argv[4]}
corpus = [l for l in pathlib.Path("data/corpus.txt").read_text().splitlines() if l.strip() and not l.startswith("#")]
text = " ".join(corpus)
print("| target | title bytes | ms (median) | µs per KiB |")
print("|---|---|---|---|")
for target, port in ports.items():
    for kib in (1, 16, 256, 1000):
        size = kib * 1024
        title = (text * (size // len(text.encode()) + 1)).encode()[:size].decode("utf-8", "ignore")
        body = work / "body.json"
        body.write_text(json.dumps({"title": title}, ensure_ascii=False), encoding="utf-8")
        times = []
        for _ in range(repeat):
            out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}",
                "-H", "content-type: application/json", "--data-binary", f"@{body}",
                f"http://127.0.0.1:{port}/slug"], capture_output=True, text=True).stdout.split()
            assert out[0] == "200", (target, kib, out)
            times.append(float(out[1]) * 1000)
        ms = st.median(times)
        print(f"| {target} | {len(body.read_bytes()):,} | {ms:.2f} | {ms * 1000 / (len(body.read_bytes()) / 1024):.1f} |")
PY
