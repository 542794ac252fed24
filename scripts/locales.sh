#!/usr/bin/env bash
# What CLDR's names in every locale cost, side by side in one run:
# - the load of English only and of every locale: wall time, the loader's
#   peak RSS, the Redis memory of the table (MEMORY USAGE of its keys) and
#   the raw text of the names it holds;
# - the RSS of one service instance, in-process and on Redis, with English
#   only and with every locale, each warmed with the corpus under a mix of
#   locales (so the Redis-mode cache holds names of many).
#
#   scripts/locales.sh
#   ROUNDS=3 WARMUP=2000 scripts/locales.sh
#
# Needs CLDR's files (Debian's unicode-cldr-core, installed when missing).
# Everything binds 127.0.0.1; all processes stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh

ROUNDS="${ROUNDS:-3}"      # instances started per configuration; medians
WARMUP="${WARMUP:-2000}"   # titles per instance before measuring
CLDR="${SLUGD_CLDR:-/usr/share/unicode/cldr/common}"
need redis-server redis-server
need redis-cli redis-tools
need curl curl
need python3 python3
[ -f "$CLDR/annotations/de.xml" ] || need /nonexistent unicode-cldr-core
export SLUGD_CLDR="$CLDR"

build_slugd
start_redis

# The raw text of the tts names of `en` or `all`, in bytes (UTF-8).
raw_text() { # en|all
  python3 - "$CLDR" "$1" <<'PY'
import glob, os, re, sys
cldr, which = sys.argv[1], sys.argv[2]
files = []
for sub in ("annotations", "annotationsDerived"):
    pattern = "en.xml" if which == "en" else "*.xml"
    files += glob.glob(os.path.join(cldr, sub, pattern))
total = names = 0
for f in files:
    for m in re.finditer(r'<annotation [^>]*type="tts"[^>]*>([^<]*)<', open(f, encoding="utf-8").read()):
        if m.group(1) != "↑↑↑":
            total += len(m.group(1).encode()); names += 1
print(total, names)
PY
}

# Loads `locales` into Redis; prints "seconds peak-rss-kB table-bytes
# cldr-bytes", the last the MEMORY USAGE of the CLDR buckets alone.
load() { # en|all
  local out
  out=$(/usr/bin/time -f '%e %M' "$BIN" --log warn load --locales "$1" 2>&1 >/dev/null | tail -1)
  local v; v=$(redis-cli -p "$REDIS_PORT" get 'slugd:{ctl}:current')
  local cldr
  cldr=$(redis-cli -p "$REDIS_PORT" --scan --pattern "slugd:t:$v:L*" \
    | awk '{print "MEMORY USAGE " $1 " SAMPLES 0"}' | redis-cli -p "$REDIS_PORT" \
    | awk '{s += $1} END {print s}')
  echo "$out $(redis-cli -p "$REDIS_PORT" hget "slugd:meta:$v" bytes) $cldr"
}

# Sends WARMUP titles of the corpus, each with the next locale of a mix.
warm() { # port
  python3 - "$1" "$WARMUP" <<'PY'
import json, sys, urllib.request
port, want = sys.argv[1], int(sys.argv[2])
titles = [l.rstrip("\n") for l in open("data/corpus.txt", encoding="utf-8") if l.strip() and not l.startswith("#")]
titles += ["Made in 🇩🇪 👨‍👩‍👧 1️⃣ ☕", "I ❤ 🍕 and 🎉", "👋🏽 🇫🇷 🇯🇵 ⚽"]
locales = [None, "de", "fr", "ru", "ja", "es", "pt", "zh", "ar", "hi", "el", "uk"]
done = 0
while done < want:
    for t in titles:
        body = {"title": t}
        loc = locales[done % len(locales)]
        if loc:
            body["locale"] = loc
        req = urllib.request.Request(f"http://127.0.0.1:{port}/slug", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
        urllib.request.urlopen(req).read()
        done += 1
        if done >= want:
            break
PY
}

read -r en_raw en_names <<<"$(raw_text en)"
read -r all_raw all_names <<<"$(raw_text all)"

read -r en_s en_peak en_bytes en_cldr <<<"$(load en)"
read -r redis_en _ <<<"$(rss_warmed redis)"
read -r all_s all_peak all_bytes all_cldr <<<"$(load all)"
read -r redis_all _ <<<"$(rss_warmed redis)"
read -r mem_en _ <<<"$(rss_warmed memory --locales en)"
read -r mem_all _ <<<"$(rss_warmed memory --locales all)"

echo
echo "Loads (slugd load --locales ...):"
printf '  %-8s %8s %14s %16s %16s %18s %8s\n' locales "time (s)" "loader peak kB" "Redis table (B)" "its CLDR part" "raw name text (B)" ratio
for w in en all; do
  eval "s=\$${w}_s peak=\$${w}_peak bytes=\$${w}_bytes cldr=\$${w}_cldr raw=\$${w}_raw"
  printf '  %-8s %8s %14s %16s %16s %18s %8s\n' "$w" "$s" "$peak" "$bytes" "$cldr" "$raw" \
    "$(python3 -c "print(f'{$cldr/$raw:.2f}x')")"
done
echo "  (raw text: UTF-8 bytes of the $en_names / $all_names CLDR tts names; ratio: CLDR part / raw text;"
echo "   the rest of the table is UnicodeData's names and the meta with the key index)"
echo
echo "RSS of one instance, warmed with $WARMUP titles under 12 locales (median of $ROUNDS, kB):"
printf '  %-12s %12s %12s %8s\n' mode "English only" "all locales" ratio
printf '  %-12s %12s %12s %8s\n' redis "$redis_en" "$redis_all" "$(python3 -c "print(f'{$redis_all/$redis_en:.2f}x')")"
printf '  %-12s %12s %12s %8s\n' in_process "$mem_en" "$mem_all" "$(python3 -c "print(f'{$mem_all/$mem_en:.2f}x')")"
