#!/usr/bin/env bash
# What `ascii: false` costs beside ASCII slugs, side by side in one run:
# `slugd slugify` (in-process, release build) over the sample corpus
# repeated REPEAT times from standard input, with and without --unicode,
# in turns for ROUNDS rounds; prints each mode's median wall time, titles
# per second and peak RSS (GNU time), and the speed against ASCII (`vs
# threads`): the targets `threads` and `unicode` of scripts/bulk.sh, which
# does the work.
#
#   scripts/unicode_cost.sh
#   ROUNDS=7 REPEAT=5000 scripts/unicode_cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
titles=$(grep -v '^#' data/corpus.txt | grep -c -v '^$')
ROUNDS=${ROUNDS:-5} LINES=$((titles * ${REPEAT:-2000})) TARGETS="threads unicode" exec scripts/bulk.sh
