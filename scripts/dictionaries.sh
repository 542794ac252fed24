#!/usr/bin/env bash
# Installs every optional data package slugd's readings use, each read at
# run time from where its Debian package puts it (none is in the
# repository or the binary):
#
# - unicode-cldr-core: CLDR's names of symbols and emoji in every locale
#   (/usr/share/unicode/cldr/common; `--locales` beyond English);
# - mecab-ipadic: IPADIC's CSV sources, for Japanese read as Japanese
#   (/usr/share/mecab/dic/ipadic; `--locales ja` or `all`).
# - myspell-fa and espeak-ng: Persian's word list and a reader of its
#   sounds, from which the model of the vowels Persian does not write is
#   made (/usr/share/hunspell/fa_IR.dic, /usr/bin/espeak-ng; `--locales fa`
#   or `all`).
#
# Installs what is missing with apt-get when it runs as root; otherwise
# says what to install and exits 1. `--check` only says what is missing
# (exit 1 if anything is). scripts/test.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/apt.sh

check_only=0
case "${1:-}" in
  --check) check_only=1 ;;
  "") ;;
  *)
    echo "usage: scripts/dictionaries.sh [--check]" >&2
    exit 2
    ;;
esac

# Each package, and a file it installs that slugd reads.
packages=(
  "unicode-cldr-core:/usr/share/unicode/cldr/common/annotations/de.xml"
  "mecab-ipadic:/usr/share/mecab/dic/ipadic/Noun.csv"
  "myspell-fa:/usr/share/hunspell/fa_IR.dic"
  "espeak-ng:/usr/bin/espeak-ng"
)

missing=()
for entry in "${packages[@]}"; do
  [ -f "${entry#*:}" ] || missing+=("${entry%%:*}")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$check_only" = 1 ]; then
  echo "dictionaries.sh: missing ${missing[*]}" >&2
  exit 1
fi
apt_install "${missing[@]}"
