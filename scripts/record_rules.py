#!/usr/bin/env python3
"""Records the slugs a release's rule version gives, into tests/data/rulesN/.

A rule version, once released, gives the same slugs forever: the test
`tests/api/rules.rs` holds every later build's `rules: N` to the record of
version N. Rules 1 are the slugs of the release before rule versions
existed, byte for byte: their record was made once, with the binary of
commit b2cc903 (main before rule versions, which had no --rules flag), by

    cargo build --bin slugd && SLUGD=target/debug/slugd scripts/record_rules.py

A later version N is recorded by the release that ships it, before any
change for version N + 1 is made (`RULES=N` adds `--rules N` to every
command and writes tests/data/rulesN/). From rules 3, which brought
`ascii: false`, every option set is recorded a second time with
`--unicode`. Rules 2 were recorded with the binary of 6813a6e, the main
that shipped them; rules 3 with that of 4344608; rules 4 with that of
8345b9d (a release build), the main before any change for rules 5; rules 5
with that of abd3ce7 (a release build), the main that ships them; rules 6
with that of ee4acb0 (a release build), the main that ships them. From
rules 5 on, the standards' own examples (tests/data/standards/) are
recorded too, with the default options and each locale, and the locales
of those standards. A record must never be made again by a later build:
that would record the later build's slugs, not the release's.

Each file is one option set: a first line `# flags: [...]` (the JSON list
of `slugd slugify` flags it was made with), then `key<TAB>slug` a title,
where the key is the title itself or, in characters.tsv, `U+XXXX` for the
title `x` + that character + `y`. An empty slug is a title refused as
empty.

The titles come from data nobody here wrote, plus every character:
- data/corpus.txt (titles in many scripts, symbols, emoji);
- the source words of CLDR's own transform test files for every script CLDR
  romanizes to Latin (`common/testData/transforms/*-Latn-t-*.txt`, CLDR 41
  as Debian's unicode-cldr-core installs it);
- every assigned character of Unicode 15.0 but controls, surrogates and
  private use, written between two letters (`x` + c + `y`), so the record
  shows both what a character becomes and whether it splits a word.

Each option set below runs over the corpus and a sample of the CLDR words;
the default options run over everything. Needs the `slugd` binary
(`SLUGD`, default target/debug/slugd) and CLDR under
/usr/share/unicode/cldr/common for the locales.
"""

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULES = os.environ.get("RULES")
OUT = ROOT / "tests" / "data" / f"rules{RULES or 1}"
CLDR = pathlib.Path("/usr/share/unicode/cldr/common")
SLUGD = os.path.abspath(os.environ.get("SLUGD", str(ROOT / "target" / "debug" / "slugd")))

# name -> flags of `slugd slugify`.
LOCALES = "de fr es pt tr az uz kk ky ru uk be bg sr mk el ka hy he ar fa ur hi bn ta te ml gu pa th lo km my zh ja ko vi da nb sv fi pl cs hu ro hr is".split()
# From rules 5 on, the locales whose standard rules 5 brought, too.
STANDARDS = RULES is not None and int(RULES) >= 5
if STANDARDS:
    LOCALES += "mn mr ne sa am bs".split()
# From rules 6 on, Sinhala's locale too, which rules 6 read by their own
# reader; its Arabic-script locales (ar, fa, ur) are recorded with the
# models of their vowels, made from the packages scripts/dictionaries.sh
# installs.
if RULES is not None and int(RULES) >= 6:
    LOCALES += ["si"]
OPTION_SETS = {
    "keep-case": ["--keep-case"],
    "separator-underscore": ["--separator", "_"],
    "separator-none": ["--separator", ""],
    "max-length-24": ["--max-length", "24"],
    "no-symbols": ["--no-symbols"],
    "stopwords": ["--stopwords", "a,an,the,and,of,in,to,is"],
    "replace": ["--replace", "&", " and ", "--replace", "%", " percent", "--replace", "ä", "ae"],
    "preserve": ["--preserve", "._~"],
    "decamelize": ["--decamelize"],
    "fallback": ["--fallback", "untitled"],
}
for tag in LOCALES:
    OPTION_SETS[f"locale-{tag}"] = ["--locale", tag, "--locales", tag, "--cldr", str(CLDR)]

# From rules 3 on, slugs in the reader's own script (`ascii: false`): the
# same titles and option sets again with --unicode, and every character.
UNICODE = RULES is not None and int(RULES) >= 3
if UNICODE:
    OPTION_SETS.update(
        {
            f"unicode-{name}": ["--unicode", *flags]
            for name, flags in list(OPTION_SETS.items())
        }
    )
    OPTION_SETS["unicode"] = ["--unicode"]
    OPTION_SETS["unicode-max-bytes-40"] = ["--unicode", "--max-bytes", "40"]

# Titles of their own for the options that look at case and punctuation.
EXTRA = """fooBar
APISection
getHTTPResponse
XMLHttpRequest
macOS
APIs
IDs and PDFs
3D printing
U2F keys
iPhone 15
v1.2.3
release~candidate file_name.tar.gz
foo &amp; bar
Tom &#38; Jerry
&lt;b&gt;bold&lt;/b&gt; &quot;quoted&quot; caf&eacute; &#x2603; &nbsp;
Rød grød med fløde
Blåbærsyltetøy
Ærø
50% off & free shipping
Hawaiʻi
Oʻzbekiston
Əliyev
ə
Қазақстан
თბილისი
أحمد
नमस्ते दुनिया
தமிழ்
สวัสดีครับ ยินดีต้อนรับ
ภาษาไทยง่าย
北京大学的历史
状态404页面
2024年東京
日本語
東京タワーへようこそ
こんにちは世界
ພາສາລາວ
ភាសាខ្មែរ
မြန်မာစာ
I ❤ Москва""".split("\n")


def cldr_words():
    """Source words of CLDR's X-Latn-t-X test files, by file."""
    out = {}
    for path in sorted((CLDR / "testData" / "transforms").glob("*-Latn-t-*.txt")):
        words = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line or line.startswith("#"):
                continue
            source = line.split("\t")[0].strip()
            if source and "\n" not in source:
                words.append(source)
        out[path.name] = words
    return out


def standards_examples():
    """From rules 5 on: the titles of the standards' own examples that the
    tests hold the rules to (tests/data/standards/*.tsv, first column), as
    (the file's `# locale:`, titles) by file."""
    if not STANDARDS:
        return []
    files = []
    for path in sorted((ROOT / "tests" / "data" / "standards").glob("*.tsv")):
        locale, titles = None, []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# locale:") and locale is None:
                # The first: a file may name a second language's section.
                locale = line.split(":", 1)[1].strip()
            elif line and not line.startswith("#"):
                titles.append(line.split("\t")[0].strip())
        files.append((locale, titles))
    return files


# From rules 6 on, a locale's set holds every example of its own
# language's files and the first 25 of every other file's: the lists of
# places rules 6 are held to hold 14,448 titles, too many to record under
# each of the 106 locale sets (rules 5 recorded all of theirs under each
# ASCII locale set).
OWN_EXAMPLES = RULES is not None and int(RULES) >= 6


def every_character():
    """(code point, title) for every assigned character but Cc, Cs, Co."""
    chars = []
    first = None
    for line in (ROOT / "data" / "UnicodeData.txt").read_text(encoding="utf-8").splitlines():
        fields = line.split(";")
        cp, name, cat = int(fields[0], 16), fields[1], fields[2]
        if name.endswith(", First>"):
            first = cp
            continue
        start = first if name.endswith(", Last>") else cp
        first = None
        if cat in ("Cc", "Cs", "Co"):
            continue
        for c in range(start, cp + 1):
            chars.append(c)
    return [(f"U+{c:04X}", "x" + chr(c) + "y") for c in chars]


def slugs(flags, titles):
    """`slugd slugify FLAGS` over the titles, one a line: the slug, or ""
    where it refused the title (its slug would be empty)."""
    data = "".join(t + "\n" for t in titles).encode("utf-8")
    run = subprocess.run(
        [SLUGD, "slugify", "--log", "error", *(["--rules", RULES] if RULES else []), *flags],
        input=data,
        capture_output=True,
        cwd="/",
        env={k: v for k, v in os.environ.items() if not k.startswith(("SLUGD_", "REDIS_"))},
    )
    lines = run.stdout.decode("utf-8").split("\n")
    assert lines[-1] == "", "output ends with a newline"
    lines = lines[:-1]
    assert len(lines) == len(titles), (flags, len(lines), len(titles), run.stderr[-2000:])
    return lines


def records():
    """file name -> list of (key, title, flags) rows, by option set."""
    corpus = [
        line
        for line in (ROOT / "data" / "corpus.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    words = cldr_words()
    sample = [w for ws in words.values() for w in ws[:40]]
    files = standards_examples()
    standards = [t for _, titles in files for t in titles]
    common = list(dict.fromkeys(corpus + EXTRA + sample))
    with_standards = list(dict.fromkeys(common + standards))
    every_word = list(dict.fromkeys(corpus + EXTRA + [w for ws in words.values() for w in ws] + standards))
    yield "default.tsv", [], [(t, t) for t in every_word]
    yield "characters.tsv", [], every_character()
    if UNICODE:
        yield "unicode-characters.tsv", ["--unicode"], every_character()
    for name, flags in OPTION_SETS.items():
        # The standards' examples with the default options and each locale.
        titles = with_standards if name.startswith("locale-") else common
        if OWN_EXAMPLES and name.startswith(("locale-", "unicode-locale-")):
            locale = flags[flags.index("--locale") + 1]
            own = [t for tag, ts in files for t in (ts if tag == locale else ts[:25])]
            titles = list(dict.fromkeys(common + own))
        yield f"{name}.tsv", flags, [(t, t) for t in titles]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for file, flags, rows in records():
        got = slugs(flags, [title for _, title in rows])
        text = "".join(f"{key}\t{slug}\n" for (key, _), slug in zip(rows, got))
        header = f"# flags: {json.dumps(flags, ensure_ascii=False)}\n"
        (OUT / file).write_text(header + text, encoding="utf-8")
        print(f"{file}: {len(rows)} titles", file=sys.stderr)


if __name__ == "__main__":
    main()
