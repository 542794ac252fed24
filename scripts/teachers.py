#!/usr/bin/env python3
"""Measures candidate teachers of the models of vowels on lists of towns:
each teacher reads each town's name itself, its IPA folded to ASCII as
the models fold it (engine/src/readers/vowels/training.rs, `fold_ipa`),
and a town counts when its letters are the list's. Prints one line a list:
the share each teacher reads as the list writes it.

    python3 -m venv /tmp/teachers
    /tmp/teachers/bin/pip install g2p2==0.2.3 g2p2-group-semitic==0.2.3 \\
        g2p2-group-indic==0.2.3 arabic-name-romanizer==0.2.0 \\
        text2tashkeel==0.1.0 numpy onnxruntime
    /tmp/teachers/bin/pip install --no-deps --ignore-requires-python nakdimon==0.2.1
    /tmp/teachers/bin/python scripts/teachers.py ar tests/data/standards/ar-eg-geonames.tsv

LANG is espeak-ng's voice and g2p2's model (ar, ur, he). Arabic's lists
also get arabic-name-romanizer (with the list's country) and text2tashkeel
(its points written to LIST.t2t, for `slugd slugify --rules 6 --locale
ar`, whose reader of marked words reads them); Urdu's arabic-name-romanizer
(Pakistan); Hebrew's nakdimon, its points read by
scripts/hebrew_readings.py. espeak-ng must be installed.
"""

import importlib
import lzma
import pathlib
import re
import subprocess
import sys
import unicodedata

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

SINGLE = {
    "ɫ": "l", "ʰ": "h", "ʱ": "h", "ħ": "h", "ɦ": "h", "ʕ": "", "ʔ": "", "ʲ": "",
    "ʷ": "", "ɣ": "gh", "ġ": "gh", "ʁ": "r", "ɽ": "r", "ɾ": "r", "χ": "kh",
    "x": "kh", "ʃ": "sh", "š": "sh", "ʒ": "zh", "ʐ": "z", "θ": "th", "ð": "dh",
    "ɢ": "q", "ɡ": "g", "j": "y", "c": "ch", "ɟ": "j", "ʈ": "t", "ɖ": "d",
    "ʋ": "w", "ʂ": "s", "ŋ": "n", "ɲ": "n", "ʦ": "ts", "ɑ": "a", "ɒ": "a",
    "æ": "a", "ə": "a", "ɐ": "a", "ʌ": "a", "ā": "a", "ɪ": "i", "ɨ": "i",
    "ʊ": "u", "ɯ": "u", "ɛ": "e", "ɔ": "o", "ø": "o",
}
VOWEL_SIGNS = "aeiouɑɒæəɛɔɪʊɐʌãẽĩõũā"


def fold(ipa):
    """IPA to ASCII, as the models' `fold_ipa` folds it (`None` where part
    was read as another language)."""
    if "(" in ipa:
        return None
    chars = [c for c in ipa if c not in "ˈˌ.‿ˑ\u0361"]
    out, i = "", 0
    while i < len(chars):
        c = chars[i]
        n = chars[i + 1] if i + 1 < len(chars) else None
        if c == "t" and n == "ʃ":
            out, i = out + "ch", i + 2
        elif c == "d" and n == "ʒ":
            out, i = out + "j", i + 2
        elif n in ("ˤ", "ˁ"):
            out, i = out + {"ð": "z"}.get(c, c), i + 2
        elif c == "ː":
            before = [x for x in chars[:i] if not x.isspace()]
            if before and before[-1] not in VOWEL_SIGNS:
                out += SINGLE.get(before[-1], before[-1] if before[-1].isascii() else "")
            i += 1
        else:
            out += " " if c.isspace() else SINGLE.get(c, c if c.isascii() and c.isalpha() else "")
            i += 1
    return "".join(x for x in out.lower() if x.isascii() and (x.isalpha() or x == " "))


def letters(text):
    text = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in text.lower() if c.isascii() and c.isalnum())


def g2p2_model(code):
    from g2p2 import Model

    for group in ("g2p2_group_semitic", "g2p2_group_indic", "g2p2_group_iranian"):
        try:
            folder = pathlib.Path(importlib.import_module(group).__file__).parent
        except ImportError:
            continue
        path = folder / f"{code}.g2p.xz"
        if path.exists():
            return Model.from_bytes(lzma.decompress(path.read_bytes()))
    return None


def espeak(voice, text):
    read = subprocess.run(["espeak-ng", "-v", voice, "-q", "--ipa", text],
                          capture_output=True, text=True, check=True)
    return read.stdout.strip().replace("\n", " ")


def main():
    lang, lists = sys.argv[1], sys.argv[2:]
    g2p = g2p2_model(lang)
    for path in lists:
        rows = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8")
                if line.strip() and not line.startswith("#")]
        titles = [re.sub("[\u0591-\u05C7]", "", r[0]) for r in rows]
        read = {"espeak-ng": [fold(espeak(lang, t)) for t in titles]}
        if g2p:
            read["g2p2"] = [" ".join(fold(g2p.phonemize(w)) or "" for w in t.split()) for t in titles]
        if lang in ("ar", "ur"):
            from arabic_name_romanizer import transliterate

            found = re.search(r"ar-(..)-", path)
            country = found.group(1).upper() if found else ("PK" if lang == "ur" else None)
            read["arabic-name-romanizer"] = [transliterate(t, country=country) for t in titles]
        if lang == "ar":
            from text2tashkeel import Diacritizer

            pointed = Diacritizer()
            with open(pathlib.Path(path).name + ".t2t", "w", encoding="utf-8") as out:
                out.writelines(pointed.diacritize(t) + "\n" for t in titles)
        if lang == "he":
            import nakdimon
            import hebrew_readings

            pointed = nakdimon.diacritize("\n".join(titles)).split("\n")
            read["nakdimon"] = [" ".join(fold(hebrew_readings.ipa(w)) or "" for w in p.split())
                                for p in pointed]
        shares = {
            name: sum(letters(r) == letters(row[1]) for r, row in zip(readings, rows))
            for name, readings in read.items()
        }
        print(pathlib.Path(path).name, len(rows),
              ", ".join(f"{name} {n} ({100 * n / len(rows):.1f}%)" for name, n in shares.items()))


if __name__ == "__main__":
    main()
