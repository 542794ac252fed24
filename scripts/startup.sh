#!/usr/bin/env bash
# Start-up of a release slugd, run from an empty directory with nothing
# beside it: hyperfine side by side for `slugd --version` (the floor: a
# process that parses its arguments and exits), `slugd slugify x` and
# `slugd slugify 'I ❤ Redis'` in-process (the built-in table), the same
# with the table read from the repository's files at start (`--data` and
# `--cldr`, what every start did before the table was built in) and on a
# loopback redis-server loaded by `slugd load`; then `slugd serve` from
# spawn to the first 200 of GET /readyz, in-process and on that Redis.
#
#   scripts/startup.sh                      # builds target/release/slugd
#   SLUGD=/path/to/slugd RUNS=200 scripts/startup.sh
#
# Needs hyperfine (apt-get install hyperfine), redis-server and python3.
# Everything binds to 127.0.0.1 and stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

RUNS="${RUNS:-100}"
if [[ -z "${SLUGD:-}" ]]; then
  cargo build --release --locked --bin slugd
  SLUGD="$repo/target/release/slugd"
fi
SLUGD="$(realpath "$SLUGD")"

empty="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
  --dir "$empty" --logfile "$empty/redis.log" --daemonize no &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null || true; rm -rf "$empty"' EXIT
until redis-cli -p "$port" ping >/dev/null 2>&1; do sleep 0.05; done
redis="redis://127.0.0.1:$port"
# The loader writes nothing into the directory; redis-server's log is
# moved out of it before the measurements.
rm -f "$empty/redis.log"

cd "$empty"
unset REDIS_URL REDIS_CLUSTER SLUGD_DATA SLUGD_CLDR SLUGD_LOCALES SLUGD_CATEGORIES
"$SLUGD" load --redis-url "$redis"

hyperfine -N --warmup 10 --runs "$RUNS" \
  "$SLUGD --version" \
  "$SLUGD slugify x" \
  "$SLUGD slugify 'I ❤ Redis'" \
  "$SLUGD slugify --data $repo/data/UnicodeData.txt --cldr $repo/data/cldr x" \
  "$SLUGD slugify --redis-url $redis x" \
  "$SLUGD slugify --redis-url $redis 'I ❤ Redis'"

# serve: spawn to the first 200 of /readyz (polled every 0.2 ms).
python3 - "$SLUGD" "$redis" "$RUNS" <<'EOF'
import http.client, socket, statistics, subprocess, sys, time

slugd, redis, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def ready_after(args):
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen([slugd, "serve", "--listen", f"127.0.0.1:{port}", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    return time.perf_counter() - start
            except OSError:
                pass
            if proc.poll() is not None:
                sys.exit(f"slugd serve {args} exited with {proc.returncode}")
            time.sleep(0.0002)
    finally:
        proc.terminate()
        proc.wait()

for name, args in [("in-process", []), ("Redis", ["--redis-url", redis])]:
    times = sorted(ready_after(args) * 1000 for _ in range(runs))
    print(f"serve {name}, spawn to first 200 of /readyz over {runs} runs: "
          f"median {statistics.median(times):.1f} ms, min {times[0]:.1f} ms, "
          f"max {times[-1]:.1f} ms")
EOF
