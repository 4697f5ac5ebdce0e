#!/usr/bin/env python3
"""Writes codecs/src/tables.bin: CPython 3.11's table codecs (every single-byte charmap codec and
the 16 stateless CJK multi-byte codecs) as decoding tries and encoding maps, zlib-compressed.

Run with CPython 3.11, stdlib only:

    python3 scripts/gen-codec-tables.py codecs/src/tables.bin

Everything is probed from CPython's own codecs, never from a mapping file:
- decoding: a trie of 256-entry nodes. The root holds each byte's outcome alone: a character
  (or two: some JIS X 0213 / HKSCS sequences decode to a pair), an illegal sequence of n bytes,
  or "too few" (a multi-byte lead: CPython's MBERR_TOOFEW) pointing to a child node for the next
  byte, probed with the prefix; GB18030's four-byte sequences are one algorithmic entry with the
  BMP ranges table probed from all 39,420 of them.
- encoding: every character any sequence decodes to, encoded alone (plus the pairs some JIS X
  0213 / HKSCS encoders join), with a check that no other code point encodes.

The differential test (`codecs/tests/differential.rs`) holds the Rust code using these tables to
the same CPython on every byte, pair and code point.
"""

import codecs
import encodings
import encodings.aliases
import importlib
import pkgutil
import struct
import sys
import zlib

if sys.version_info[:2] != (3, 11):
    sys.exit("run with CPython 3.11")

# Decoded by the scorer's own code, not by a table (`iso8859_1` is only reachable as `latin_1`).
BUILTIN = {"utf_8", "utf_8_sig", "latin_1", "ascii", "iso8859_1"}
MULTIBYTE = [
    "big5", "big5hkscs", "cp932", "cp949", "cp950", "euc_jis_2004", "euc_jisx0213", "euc_jp",
    "euc_kr", "gb18030", "gb2312", "gbk", "johab", "shift_jis", "shift_jis_2004",
    "shift_jisx0213",
]

charmaps = []
others = set()
for m in sorted(x.name for x in pkgutil.iter_modules(encodings.__path__)):
    if m == "aliases" or m.startswith("_"):
        continue
    try:
        mod = importlib.import_module("encodings." + m)
    except Exception:
        continue
    if not hasattr(mod, "getregentry"):
        continue
    table = getattr(mod, "decoding_table", None)
    if m in BUILTIN:
        continue
    if isinstance(table, str) and len(table) == 256:
        charmaps.append(m)
    elif m not in MULTIBYTE:
        others.add(m)

NAMES = sorted(charmaps + MULTIBYTE)
INDEX = {n: i for i, n in enumerate(NAMES)}

ILLEGAL = 0x0200_0000
MULTI = 0x0100_0000
TOOFEW = 0x0300_0000
GB4 = 0x0400_0000
EUCKR8 = 0x0500_0000

nodes = []  # each a list of 256 u32
strings = []  # multi-character outputs
string_index = {}


def step(codec, prefix):
    """The decoder's first step on exactly `prefix`: ('ok', str) consuming all of it,
    ('illegal', n) or ('toofew',)."""
    try:
        s = prefix.decode(codec)
    except UnicodeDecodeError as e:
        if e.start != 0:
            raise SystemExit(f"{codec} {prefix!r}: error at {e.start}")
        if e.reason == "incomplete multibyte sequence":
            assert e.end == len(prefix), (codec, prefix)
            return ("toofew",)
        assert e.reason in ("illegal multibyte sequence", "character maps to <undefined>"), e.reason
        return ("illegal", e.end - e.start)
    return ("ok", s)


def entry_for(s):
    if len(s) == 1:
        return ord(s)
    assert len(s) == 2, s
    if s not in string_index:
        string_index[s] = len(strings)
        strings.append(s)
    return MULTI | string_index[s]


def build_node(codec, prefix, decoded):
    at = len(nodes)
    nodes.append(None)
    node = []
    for b in range(256):
        p = prefix + bytes([b])
        r = step(codec, p)
        if r[0] == "ok":
            # Every step consumes the whole prefix: a decode of several characters must not be a
            # shorter step followed by another.
            if len(p) > 1:
                assert len(r[1]) <= 2, (codec, p, r)
            node.append(entry_for(r[1]))
            decoded.add(r[1])
        elif r[0] == "illegal":
            node.append(ILLEGAL | r[1])
        elif codec == "gb18030" and len(p) == 2 and 0x30 <= b <= 0x39:
            node.append(GB4)
        elif codec == "euc_kr" and p == b"\xa4\xd4":
            node.append(EUCKR8)
        else:
            assert len(p) < 3, (codec, p)
            node.append(TOOFEW | build_node(codec, p, decoded))
    nodes[at] = node
    return at


def gb18030_ranges(decoded):
    """(lseq, code point) at each start of a run of consecutive code points over the four-byte
    BMP sequences (lseq < 39420), as CPython's `gb18030_to_unibmp_ranges`; the end marker has
    code point 0."""
    runs = []
    for lseq in range(39420):
        c, r = divmod(lseq, 1260)
        c1, c2 = divmod(c, 10)
        c3, c4 = divmod(r, 10)
        b = bytes([0x81 + c1, 0x30 + c2, 0x81 + c3, 0x30 + c4])
        try:
            s = b.decode("gb18030")
        except UnicodeDecodeError:
            raise SystemExit(f"gb18030 {b!r} does not decode")
        assert len(s) == 1
        decoded.add(s)
        cp = ord(s)
        if not runs or runs[-1][1] + (lseq - runs[-1][0]) != cp:
            runs.append((lseq, cp))
    runs.append((39420, 0))
    # Supplementary planes: linear from 0x90308130.
    for cp in (0x10000, 0x10001, 0x12345, 0x10FFFF):
        decoded.add(chr(cp))
    return runs


def euckr_makeup(decoded):
    """KS X 1001:1998 Annex 3 make-up sequences (A4 D4 A4 c1 A4 c2 A4 c3, eight bytes, euc_kr
    only): choseong and jongseong index per byte 0xA1-0xBE (0xFF: none; jongseong also for the
    filler 0xD4 at index 30), jungseong is c2 - 0xBF. Returns the 61 index bytes, and the
    inverse tables the encoder uses (19 + 21 + 28 bytes), checked on every syllable."""
    def dec(c1, c2, c3):
        try:
            s = bytes([0xA4, 0xD4, 0xA4, c1, 0xA4, c2, 0xA4, c3]).decode("euc_kr")
        except UnicodeDecodeError:
            return None
        assert len(s) == 1
        return ord(s) - 0xAC00
    cho = [0xFF] * 30
    jong = [0xFF] * 31
    for k, c in enumerate(range(0xA1, 0xBF)):
        v = dec(c, 0xBF, 0xD4)
        if v is not None:
            cho[k] = v // 588
        v = dec(0xA1, 0xBF, c)
        if v is not None:
            jong[k] = v % 28
    jong[30] = dec(0xA1, 0xBF, 0xD4) % 28
    for c2 in range(0xBF, 0xD4):
        assert (dec(0xA1, c2, 0xD4) // 28) % 21 == c2 - 0xBF
    u_cho = [cho.index(i) + 0xA1 for i in range(19)]
    u_jung = [0xBF + i for i in range(21)]
    u_jong = [(0xD4 if i == jong[30] else jong.index(i) + 0xA1) for i in range(28)]
    for cp in range(0xAC00, 0xD7A4):
        b = chr(cp).encode("euc_kr")
        if len(b) == 8:
            c = cp - 0xAC00
            want = bytes([0xA4, 0xD4, 0xA4, u_cho[c // 588], 0xA4, u_jung[(c // 28) % 21],
                          0xA4, u_jong[c % 28]])
            assert b == want, (hex(cp), b, want)
        decoded.add(chr(cp))
    return cho + jong, u_cho + u_jung + u_jong


def encodes(codec, chars):
    """CPython's encoding of each string of `chars` alone (None: not encodable)."""
    out = []
    for s in chars:
        try:
            out.append(s.encode(codec))
        except UnicodeEncodeError:
            out.append(None)
    return out


def check_nothing_else_encodes(codec, known):
    """No code point outside `known` encodes (bisection over `ignore` encodings)."""
    found = []
    cps = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and chr(c) not in known]

    def probe(lo, hi):
        s = "".join(chr(c) for c in cps[lo:hi])
        if not s.encode(codec, "ignore"):
            return
        if hi - lo == 1:
            found.append(cps[lo])
            return
        mid = (lo + hi) // 2
        probe(lo, mid)
        probe(mid, hi)

    for lo in range(0, len(cps), 4096):
        probe(lo, min(lo + 4096, len(cps)))
    return found


codec_rows = []
enc_cps, enc_codes, enc_lens = [], [], []
pair_rows = []
gb_ranges = []
for name in NAMES:
    decoded = set()
    root = build_node(name, b"", decoded)
    if name == "gb18030":
        gb_ranges = gb18030_ranges(decoded)
    if name == "euc_kr":
        makeup, u_makeup = euckr_makeup(decoded)
    singles = sorted({c for s in decoded for c in s}, key=ord)
    encoded = dict(zip(singles, encodes(name, singles)))
    if name == "euc_kr":
        # Hangul syllables KS X 1001 lacks encode as eight-byte make-up sequences (computed).
        encoded = {c: b for c, b in encoded.items() if b is None or len(b) < 8}
    if name == "gb18030":
        # Every code point but the surrogates encodes; four-byte ones are computed, so only the
        # one- and two-byte encodings are listed (checked against the algorithm below).
        extra = []
    else:
        extra = check_nothing_else_encodes(name, set(singles))
        assert name == "euc_kr" or all(len(chr(c).encode(name)) <= 4 for c in extra)
        for cp in extra:
            encoded[chr(cp)] = chr(cp).encode(name)
    rows = sorted((ord(c), b) for c, b in encoded.items() if b is not None)
    if name == "gb18030":
        rows = [(c, b) for c, b in rows if len(b) < 4]
    enc_start = len(enc_cps)
    for cp, b in rows:
        assert 1 <= len(b) <= 4, (name, cp, b)
        enc_cps.append(cp)
        enc_codes.append(int.from_bytes(b, "big"))
        enc_lens.append(len(b))
    pair_start = len(pair_rows)
    for s in sorted(x for x in decoded if len(x) == 2):
        b = s.encode(name)
        singles_b = b"".join(encoded.get(c) or b"?" for c in s)
        if b != singles_b:
            pair_rows.append((ord(s[0]), ord(s[1]), int.from_bytes(b, "big"), len(b)))
    # Which name CPython's errors carry.
    if name in charmaps:
        label = "charmap"
    else:
        try:
            b"\xff\xff".decode(name)
            label = None
        except UnicodeDecodeError as e:
            label = e.encoding
        if label is None:
            try:
                "\udc80".encode(name)
            except UnicodeEncodeError as e:
                label = e.encoding
    kind = 0 if name in charmaps else (2 if name == "gb18030" else 1)
    codec_rows.append(
        (name, label, kind, root, enc_start, len(enc_cps) - enc_start, pair_start,
         len(pair_rows) - pair_start)
    )
    print(f"{name}: {len(rows)} encodings, {len(decoded)} decodings, extra {len(extra)}",
          file=sys.stderr)

# gb18030's four-byte encodings: the algorithm the Rust side uses, checked for every code point.
def gb4(cp):
    if cp >= 0x10000:
        lseq = cp - 0x10000 + 15 * 12600
    else:
        i = max(k for k in range(len(gb_ranges) - 1) if gb_ranges[k][1] <= cp)
        lseq = gb_ranges[i][0] + cp - gb_ranges[i][1]
    c1, r = divmod(lseq, 12600)
    c2, r = divmod(r, 1260)
    c3, c4 = divmod(r, 10)
    return bytes([0x81 + c1, 0x30 + c2, 0x81 + c3, 0x30 + c4])


two = {c for c, b in zip(enc_cps, enc_lens) if b < 4}
gb_start = codec_rows[INDEX["gb18030"]][4]
gb_count = codec_rows[INDEX["gb18030"]][5]
short = set(enc_cps[gb_start:gb_start + gb_count])
for cp in list(range(0x80, 0xD800)) + list(range(0xE000, 0x10000)) + [0x10000, 0x10FFFF, 0x2A6D6]:
    if cp in short:
        continue
    want = chr(cp).encode("gb18030")
    assert len(want) == 4 and gb4(cp) == want, (hex(cp), want, gb4(cp))

aliases = sorted(
    (a, INDEX[v]) for a, v in encodings.aliases.aliases.items() if v in INDEX
)
other_names = sorted(
    others | {a for a, v in encodings.aliases.aliases.items() if v in others}
)

out = bytearray(b"RSC1")
u32 = lambda x: out.extend(struct.pack("<I", x))


def name_bytes(s):
    b = s.encode("ascii")
    out.append(len(b))
    out.extend(b)


u32(len(codec_rows))
for name, label, kind, root, es, ec, ps, pc in codec_rows:
    name_bytes(name)
    name_bytes(label)
    out.append(kind)
    for x in (root, es, ec, ps, pc):
        u32(x)
u32(len(aliases))
for a, i in aliases:
    name_bytes(a)
    out.append(i)
u32(len(other_names))
for n in other_names:
    name_bytes(n)
u32(len(strings))
for s in strings:
    for c in s:
        u32(ord(c))


def planes(values, width):
    """Little-endian values of `width` bytes, stored byte plane by byte plane (compresses
    better: the high bytes are mostly alike)."""
    for k in range(width):
        out.extend(bytes((v >> (8 * k)) & 0xFF for v in values))


flat = [e for node in nodes for e in node]
u32(len(nodes))
planes(flat, 4)
u32(len(enc_cps))
planes(enc_cps, 3)
planes(enc_codes, 4)
out.extend(bytes(enc_lens))
u32(len(pair_rows))
planes([p[0] for p in pair_rows], 3)
planes([p[1] for p in pair_rows], 3)
planes([p[2] for p in pair_rows], 4)
out.extend(bytes(p[3] for p in pair_rows))
u32(len(gb_ranges))
planes([r[0] for r in gb_ranges], 4)
planes([r[1] for r in gb_ranges], 4)
out.extend(bytes(makeup))
out.extend(bytes(u_makeup))

data = zlib.compress(bytes(out), 9)
with open(sys.argv[1], "wb") as f:
    f.write(data)
print(f"{len(NAMES)} codecs, {len(nodes)} nodes, {len(enc_cps)} encodings, {len(pair_rows)} pairs, "
      f"{len(out)} bytes, {len(data)} compressed", file=sys.stderr)
