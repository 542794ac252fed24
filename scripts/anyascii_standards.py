#!/usr/bin/env python3
"""How anyascii (the transliterator the any_ascii crate ports) writes the
examples of tests/data/standards/: for each file, how many of its examples
anyascii's letters agree with, compared as tests/api/standards.rs compares
slugd's (letters and digits; the standard's `# ascii:` pairs first, readings
in parentheses left out, its Latin folded to ASCII).

    pip install anyascii   # PyPI, the same data as the any_ascii crate
    scripts/anyascii_standards.py
"""
import glob
import os
import re
import sys
import unicodedata

try:
    from anyascii import anyascii
except ImportError:
    sys.exit("needs anyascii: pip install anyascii")


def letters(text):
    return re.sub(r"[^a-z0-9]", "", text.lower())


def fold(latin):
    """The standard's Latin in ASCII: marks left out, then anyascii for
    letters such as đ and ø, which have no decomposition."""
    latin = unicodedata.normalize("NFKD", latin)
    latin = "".join(c for c in latin if not unicodedata.combining(c))
    return letters(anyascii(latin))


def without_readings(text):
    out, depth = [], 0
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
for path in sorted(glob.glob(os.path.join(root, "tests/data/standards/*.tsv"))):
    pairs, total, agree = [], 0, 0
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("# locale: "):
            pairs = []
            continue
        if line.startswith("# ascii: "):
            pairs = [p.split("=", 1) for p in line[len("# ascii: "):].split()]
            continue
        if not line.strip() or line.startswith("#"):
            continue
        title, printed = line.split("\t")[:2]
        wants = []
        for form in printed.split(" / "):
            for a, b in pairs:
                form = form.replace(a, b)
            wants.append(fold(without_readings(form)))
        total += 1
        agree += letters(anyascii(title)) in wants
    print(f"{os.path.basename(path)}\t{agree} of {total}")
