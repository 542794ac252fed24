#!/usr/bin/env bash
# Fails when the release binary has too few of data/link-order.txt's
# functions: a list gone stale (another compiler, a dependency or a moved
# module renames the symbols) is skipped silently by build.rs, and the
# binary then runs with its code spread out again (more resident memory).
# Builds the release binary alone, as the Dockerfile does, and counts the
# list's names `nm` finds in it. CI runs it (scripts/check.sh); the fix is
# scripts/link_order.sh.
#
#   scripts/link_order_check.sh        # at least MIN_PERCENT (90) found
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/common.sh
need nm binutils

MIN_PERCENT=${MIN_PERCENT:-90}
build_slugd
nm "$BIN" | awk '$2 ~ /^[tT]$/ {print $3}' | sort -u >"$WORK/defined"
sort -u data/link-order.txt >"$WORK/listed"
listed=$(wc -l <"$WORK/listed")
found=$(comm -12 "$WORK/defined" "$WORK/listed" | wc -l)
percent=$((100 * found / listed))
echo "link_order_check.sh: $found of data/link-order.txt's $listed functions are in the release binary ($percent%)" >&2
if [ "$percent" -lt "$MIN_PERCENT" ]; then
  echo "link_order_check.sh: under $MIN_PERCENT%: the list is stale (made with $(cat data/link-order.rustc), this is $(rustc -V)); run scripts/link_order.sh" >&2
  exit 1
fi
