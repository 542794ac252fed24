#!/usr/bin/env python3
"""Writes the readings Hebrew's model of vowels is learnt from: the stems
of a hunspell word list (the words three or more longer words of the list
start with, as for Persian), each with its vowels as nakdimon puts its
points on it, read into IPA by Israel's spelling of names.

    scripts/hebrew_readings.py /usr/share/hunspell/he_IL.dic > readings.tsv

Each line is `word TAB IPA`, the word without points. The teacher is
nakdimon (PyPI, MIT: a Hebrew diacritizer, its ONNX model inside its
wheel), which must be importable (scripts/dictionaries.sh installs it in a
temporary environment and runs this once); it runs here, never in slugd.
The points are read as a modern Israeli reads them: `ח` and `כ` without
dagesh χ, `צ` ts, `ש` ʃ (`שׂ` s), `ו` with holam o and with dagesh u, no
consonant doubled, a word's last `ה` silent, a shva said only at a word's
start before `י ל מ נ ר` or a guttural (Netanya, Rehovot; Kfar, Bnei).
"""

import re
import sys

POINTS = re.compile("[\u0591-\u05C7]")
SHVA, DAGESH, SIN, HOLAM = "\u05B0", "\u05BC", "\u05C2", "\u05B9"
VOWELS = {
    "\u05B1": "e", "\u05B2": "a", "\u05B3": "o", "\u05B4": "i", "\u05B5": "e",
    "\u05B6": "e", "\u05B7": "a", "\u05B8": "a", "\u05B9": "o", "\u05BA": "o",
    "\u05BB": "u", "\u05C7": "o",
}
CONSONANTS = {
    "א": "ʔ", "ב": "v", "ג": "g", "ד": "d", "ה": "h", "ו": "v", "ז": "z",
    "ח": "χ", "ט": "t", "י": "j", "כ": "χ", "ך": "χ", "ל": "l", "מ": "m",
    "ם": "m", "נ": "n", "ן": "n", "ס": "s", "ע": "ʔ", "פ": "f", "ף": "f",
    "צ": "ts", "ץ": "ts", "ק": "k", "ר": "ʁ", "ש": "ʃ", "ת": "t",
}
HARD = {"ב": "b", "כ": "k", "ך": "k", "פ": "p", "ף": "p"}


def ipa(word):
    """The IPA of a pointed word."""
    units, i = [], 0
    while i < len(word):
        j = i + 1
        while j < len(word) and POINTS.match(word[j]):
            j += 1
        units.append((word[i], word[i + 1:j]))
        i = j
    out = ""
    for k, (c, marks) in enumerate(units):
        if c not in CONSONANTS:
            continue
        last = k == len(units) - 1
        vowel = "".join(VOWELS[m] for m in marks if m in VOWELS)
        if c == "ו" and k > 0 and DAGESH in marks and not vowel:
            out += "u"
            continue
        if c == "ו" and k > 0 and HOLAM in marks and len(vowel) == 1:
            out += "o"
            continue
        sound = CONSONANTS[c]
        if DAGESH in marks:
            sound = HARD.get(c, sound)
        if c == "ש" and SIN in marks:
            sound = "s"
        if c == "ה" and last and DAGESH not in marks:
            sound, vowel = "", ""
        if c == "י" and not vowel and out and out[-1] in "ie":
            sound = ""
        if c == "א" and not vowel and k > 0:
            sound = ""
        if SHVA in marks and not vowel:
            after = units[k + 1][0] if k + 1 < len(units) else ""
            said = k == 0 and not last and (c in "ילמנר" or after in "אהחע" or after == c)
            vowel = "e" if said else ""
        out += sound + vowel
    return out


def stems(path):
    """The stems of a hunspell list: its words (flags cut, points left
    out), each once, that three or more longer words start with."""
    with open(path, encoding="utf-8") as f:
        next(f, None)
        words = sorted({POINTS.sub("", line.split("/")[0].strip()) for line in f})
    words = [w for w in words if re.fullmatch("[\u05D0-\u05EA]+", w)]
    kept = []
    for i, word in enumerate(words):
        longer = 0
        for other in words[i + 1:i + 4]:
            if not other.startswith(word):
                break
            longer += 1
        if longer >= 3:
            kept.append(word)
    return kept


def main():
    import nakdimon

    words = stems(sys.argv[1])
    batch = 5000
    for at in range(0, len(words), batch):
        chunk = words[at:at + batch]
        pointed = nakdimon.diacritize("\n".join(chunk)).split("\n")
        if len(pointed) != len(chunk):
            sys.exit(f"hebrew_readings.py: nakdimon gave {len(pointed)} lines for {len(chunk)}")
        for word, marked in zip(chunk, pointed):
            print(f"{word}\t{ipa(marked)}")
        print(f"hebrew_readings.py: {at + len(chunk)} of {len(words)} words", file=sys.stderr)


if __name__ == "__main__":
    main()
