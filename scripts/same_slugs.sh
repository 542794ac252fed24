#!/usr/bin/env bash
# Checks that two builds give the released rule versions the same slugs: a
# rule version, once released, keeps its slugs forever, so a change to a
# version being built (or to anything else) must leave every released
# version's slugs byte for byte.
#
#   scripts/same_slugs.sh BEFORE_SLUGD [NOW_SLUGD]
#
# BEFORE_SLUGD is a `slugd` of the revision before (`cargo xtask bench
# --before REV` leaves one in target/bench/before-target/release/slugd);
# NOW_SLUGD defaults to target/release/slugd. The titles: the first column
# of every test-data file, data/corpus.txt, and 20,000 random titles of
# Arabic, Cyrillic, Armenian, kana, Hangul and Bengali letters with
# apostrophes among them (seeded: the same each run). Each rule version
# (SAME_SLUGS_RULES, default 1 to 6; `1 2 3 4 5` against a build from
# before rules 6 were released) runs with no locale and with ar, fa, ur,
# uk, be and bg, in ASCII and (from rules 3) with --unicode; then rules 5
# on with the models of vowels loaded (--locales en,ar,fa,ur; some forty
# seconds each). Prints
# each option set whose slugs, errors or exit status differ, and exits 1
# if any does.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: scripts/same_slugs.sh BEFORE_SLUGD [NOW_SLUGD]}
now=${2:-target/release/slugd}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
  find tests/data -name '*.tsv' -o -name '*.txt' | sort | while read -r file; do
    grep -v '^#' "$file" | cut -f1
  done
  cat data/corpus.txt
  python3 - <<'PY'
import random
random.seed(7)
ranges = [(0x0600, 0x06FF), (0x0400, 0x04FF), (0x0531, 0x058F),
          (0x3040, 0x30FF), (0xAC00, 0xD7A3), (0x0980, 0x09FF)]
for _ in range(20000):
    a, b = random.choice(ranges)
    words = ["".join(chr(random.randint(a, b)) for _ in range(random.randint(1, 7)))
             for _ in range(random.randint(1, 4))]
    print(random.choice([" ", "'", "\u02bc", " - ", " x "]).join(words))
PY
} | grep -v '^$' > "$work/titles"

runs=0
differ=0
compare() {
  local rb=0 rn=0
  "$before" slugify --log error "$@" < "$work/titles" > "$work/before" 2> "$work/before.err" || rb=$?
  "$now" slugify --log error "$@" < "$work/titles" > "$work/now" 2> "$work/now.err" || rn=$?
  # Builds since the reading_not_loaded warning say once on standard error
  # that a title was read letter by letter for want of a model; the slugs
  # are what is compared.
  grep -v '^slugd: warning (reading_not_loaded)' "$work/now.err" > "$work/now.err.kept" || true
  mv "$work/now.err.kept" "$work/now.err"
  runs=$((runs + 1))
  if [ "$rb" != "$rn" ] || ! [ -s "$work/now" ] \
    || ! cmp -s "$work/before" "$work/now" || ! cmp -s "$work/before.err" "$work/now.err"; then
    echo "differ: $* (exit $rb, $rn)"
    diff "$work/before" "$work/now" | head -6 || true
    differ=$((differ + 1))
  fi
}
versions=${SAME_SLUGS_RULES:-1 2 3 4 5 6}
for rules in $versions; do
  for locale in "" ar fa ur uk be bg; do
    args=(--rules "$rules")
    [ -n "$locale" ] && args+=(--locale "$locale")
    compare "${args[@]}"
    [ "$rules" -ge 3 ] && compare "${args[@]}" --unicode
  done
done
for rules in $versions; do
  [ "$rules" -ge 5 ] || continue
  for locale in "" ar fa ur; do
    args=(--locales en,ar,fa,ur --rules "$rules")
    [ -n "$locale" ] && args+=(--locale "$locale")
    compare "${args[@]}"
  done
done
echo "same_slugs: $(wc -l < "$work/titles") titles, $runs option sets, $differ differ"
[ "$differ" = 0 ]
