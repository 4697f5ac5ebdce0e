#!/usr/bin/env python3
"""The codecs differential's cases under CPython 3.11 (`codecs/tests/differential.rs` builds the
same cases in Rust): per codec and category, a SHA-256 of every case's line
`<input>|<errors>|<outcome>`.

    python3 codecs/tests/cpython_cases.py            # JSON {codec: {category: digest}}
    python3 codecs/tests/cpython_cases.py CODEC CAT  # that category's lines (to diff a mismatch)

Categories: `d1` every byte alone, `d2` every two-byte string (multi-byte codecs), `d3` 4,096
three- and four-byte strings after each lead, `rd` random byte strings under every handler,
`ec` every code point but the surrogates, in chunks of 4,096 under `replace` and the first
error of each chunk under `strict`, `re` random strings of CJK, kana, Latin and combining
characters under every handler; for the stateful codecs (ISO-2022, HZ) `sp` every byte pair
after each designation, `sr` random byte strings of designations, broken escapes, shifts and
tildes under every handler; `st` (stateful and multi-byte codecs) random strings of pair
starters, kana, hangul, hanzi, Greek, Latin-1, astral characters under every handler and their
round trip. Random draws come from a 64-bit LCG both sides implement.
"""
import hashlib
import json
import sys

MULTIBYTE = {
    "big5", "big5hkscs", "cp932", "cp949", "cp950", "euc_jis_2004", "euc_jisx0213", "euc_jp",
    "euc_kr", "gb18030", "gb2312", "gbk", "johab", "shift_jis", "shift_jis_2004",
    "shift_jisx0213",
}
# The stateful codecs (ISO-2022, HZ): each with the designations its charsets are read through
# (`sp`: every byte pair after each).
STATEFUL = {
    "iso2022_jp": [b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b&@\x1b$B"],
    "iso2022_jp_1": [b"\x1b$B", b"\x1b$(D", b"\x1b(J"],
    "iso2022_jp_2": [b"\x1b$B", b"\x1b$(D", b"\x1b$(C", b"\x1b$A", b"\x1b(J", b"\x1b.A\x1bN",
                     b"\x1b.F\x1bN", b"\x1bN"],
    "iso2022_jp_2004": [b"\x1b$(Q", b"\x1b$(P", b"\x1b$B"],
    "iso2022_jp_3": [b"\x1b$(O", b"\x1b$(P", b"\x1b$B"],
    "iso2022_jp_ext": [b"\x1b$B", b"\x1b$(D", b"\x1b(J", b"\x1b(I"],
    "iso2022_kr": [b"\x1b$)C\x0e", b"\x1b$(C", b"\x0e"],
    "hz": [b"~{", b""],
}
# Pieces of stateful byte strings (`sr`): every designation any of them knows, broken and
# truncated escapes, shifts, HZ's tildes.
PIECES = [
    b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B", b"\x1b$A", b"\x1b$(C", b"\x1b$)C",
    b"\x1b$(D", b"\x1b$(O", b"\x1b$(P", b"\x1b$(Q", b"\x1b&@\x1b$B", b"\x1b.A", b"\x1b.F",
    b"\x1b.B", b"\x1b.J", b"\x1bN", b"\x1b(A", b"\x1b(F", b"\x1b)B", b"\x1b$", b"\x1b(", b"\x1b",
    b"\x1bx", b"\x1b&@", b"\x1b$(", b"\x1b((((((((((((((((", b"\x1b$)A", b"\x1b$(A", b"\x1b&@x",
    b"\x0e", b"\x0f", b"\n", b"~{", b"~}", b"~~", b"~\n", b"~", b"~x", b"\x1b$(Q$w", b"\x1b$(Q$x",
]
# Characters of the stateful codecs' repertoires and beyond (`st`): JIS X 0213's pair starters
# and second halves, kana, kanji, hangul, hanzi, Greek, Latin-1, half-width katakana, yen and
# overline, astral (and one that truncates to a pair's second half), ASCII, `~`, newline.
POOL = ("\u304b\u309a\u30ab\u31f7\u00e6\u0300\u0254\u0301\u02e9\u02e5\u02e5\u02e9\u4e00\u4e9c"
        "\uac00\ud7a3\u554a\u03b1\u00e9\uff61\uff9f\u00a5\u203e\uff3c\uff5e\u9b1c\u9b1d"
        "\U00020b9f\U0002000b\U0001309aa~\n\u3164\u2015\u2018\u20ac\ue000\u0391\u00c0\u00ff"
        "\u00ca\u0304\u00ea\U0001030c")
HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace"]
MASK = (1 << 64) - 1


class Lcg:
    def __init__(self, seed):
        self.x = seed & MASK

    def next(self):
        self.x = (self.x * 6364136223846793005 + 1442695040888963407) & MASK
        return self.x >> 33

    def below(self, n):
        return self.next() % n


def dec(codec, b, errors):
    try:
        s = b.decode(codec, errors)
    except UnicodeDecodeError as e:
        return f"err {e.encoding} {e.start} {e.end} {e.reason}"
    except TypeError:
        return "type"
    except RuntimeError:
        return "runtime"
    except LookupError:
        return "lookup"
    return "ok " + " ".join(f"{ord(c):x}" for c in s)


def enc(codec, s, errors):
    try:
        b = s.encode(codec, errors)
    except UnicodeEncodeError as e:
        return f"err {e.encoding} {e.start} {e.end} {e.reason}"
    except LookupError:
        return "lookup"
    return "ok " + b.hex()


def random_bytes(r, codec):
    n = 1 + r.below(12)
    out = bytearray()
    while len(out) < n:
        k = r.below(10)
        if k < 3:
            out.append(r.below(128))
        elif k < 7:
            out.append(0x81 + r.below(0x7E))
        elif k < 8:
            out.append(r.below(256))
        elif k < 9:  # a GB18030 four-byte shape
            out.extend([0x81 + r.below(0x7E), 0x30 + r.below(10), 0x81 + r.below(0x7E), 0x30 + r.below(10)])
        else:  # an EUC-KR make-up shape
            out.extend([0xA4, 0xD4, 0xA4, 0xA1 + r.below(0x34), 0xA4, 0xA1 + r.below(0x34), 0xA4, 0xA1 + r.below(0x34)])
    return bytes(out)


RANGES = [(0x20, 0x7F), (0xA0, 0x370), (0x2E5, 0x2EA), (0x2000, 0x2070), (0x3000, 0x3100),
          (0x31F0, 0x3200), (0x4E00, 0xA000), (0xAC00, 0xD7A4), (0xFF00, 0xFFF0),
          (0x20000, 0x2A6E0), (0xE000, 0xE100)]


def random_text(r):
    n = 1 + r.below(8)
    out = []
    for _ in range(n):
        lo, hi = RANGES[r.below(len(RANGES))]
        out.append(chr(lo + r.below(hi - lo)))
    return "".join(out)


CHUNKS = []


def chunks():
    """Every code point but the surrogates, 4,096 at a time (built once)."""
    if not CHUNKS:
        cps = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
        for lo in range(0, len(cps), 4096):
            CHUNKS.append((lo, "".join(chr(c) for c in cps[lo:lo + 4096])))
    return CHUNKS


def stateful_bytes(r):
    out = bytearray()
    for _ in range(1 + r.below(8)):
        k = r.below(10)
        if k < 4:
            out.extend(PIECES[r.below(len(PIECES))])
        elif k < 7:
            out.extend([0x21 + r.below(0x5E), 0x21 + r.below(0x5E)])
        elif k < 9:
            out.append(r.below(128))
        else:
            out.append(r.below(256))
    return bytes(out)


def stateful_text(r):
    return "".join(POOL[r.below(len(POOL))] for _ in range(1 + r.below(8)))


def lines(codec, cat):
    multi = codec in MULTIBYTE
    if codec in STATEFUL:
        yield from stateful_lines(codec, cat)
        if cat not in ("d1", "ec", "re"):
            return
    if cat == "d1":
        for b in range(256):
            yield f"{b:02x}|strict|{dec(codec, bytes([b]), 'strict')}"
        whole = bytes(range(256))
        for h in HANDLERS:
            yield f"all|{h}|{dec(codec, whole, h)}"
    elif cat == "d2" and multi:
        for b1 in range(256):
            for b2 in range(256):
                yield f"{b1:02x}{b2:02x}|strict|{dec(codec, bytes([b1, b2]), 'strict')}"
    elif cat == "d3" and multi:
        r = Lcg(3)
        for _ in range(4096):
            n = 3 + r.below(2)
            b = bytes([0x80 + r.below(0x80)] + [r.below(256) for _ in range(n - 1)])
            yield f"{b.hex()}|strict|{dec(codec, b, 'strict')}"
    elif cat == "rd":
        r = Lcg(1)
        for _ in range(600 if multi else 100):
            b = random_bytes(r, codec)
            for h in HANDLERS:
                yield f"{b.hex()}|{h}|{dec(codec, b, h)}"
    elif cat == "ec":
        for lo, s in chunks():
            yield f"{lo}|replace|{enc(codec, s, 'replace')}"
            yield f"{lo}|strict|{enc(codec, s, 'strict')}"
    elif cat == "st" and multi:
        yield from stateful_lines(codec, cat)
    elif cat == "re":
        r = Lcg(2)
        for _ in range(600 if multi or codec in STATEFUL else 100):
            s = random_text(r)
            k = " ".join(f"{ord(c):x}" for c in s)
            for h in HANDLERS:
                yield f"{k}|{h}|{enc(codec, s, h)}"


def stateful_lines(codec, cat):
    if cat == "sp":
        for p in STATEFUL[codec]:
            for b1 in range(256):
                for b2 in range(256):
                    b = p + bytes([b1, b2])
                    yield f"{b.hex()}|strict|{dec(codec, b, 'strict')}"
    elif cat == "sr":
        r = Lcg(4)
        for _ in range(3000):
            b = stateful_bytes(r)
            for h in HANDLERS:
                yield f"{b.hex()}|{h}|{dec(codec, b, h)}"
    elif cat == "st":
        r = Lcg(5)
        for _ in range(3000):
            s = stateful_text(r)
            k = " ".join(f"{ord(c):x}" for c in s)
            for h in HANDLERS:
                yield f"{k}|{h}|{enc(codec, s, h)}"
            b = s.encode(codec, "replace")
            yield f"{k}|roundtrip|{dec(codec, b, 'strict')}"


CATS = ["d1", "d2", "d3", "rd", "ec", "re", "sp", "sr", "st"]

if __name__ == "__main__":
    if len(sys.argv) == 3:
        for line in lines(sys.argv[1], sys.argv[2]):
            print(line)
        sys.exit()
    names = json.loads(sys.stdin.read())
    out = {}
    for codec in names:
        out[codec] = {}
        for cat in CATS:
            h = hashlib.sha256()
            n = 0
            for line in lines(codec, cat):
                h.update(line.encode() + b"\n")
                n += 1
            if n:
                out[codec][cat] = f"{n}:{h.hexdigest()[:16]}"
    print(json.dumps(out, indent=1, sort_keys=True))
