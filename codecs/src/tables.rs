//! The tables of `tables.bin` (written by `scripts/gen-codec-tables.py` from CPython 3.11's own
//! codecs), inflated and read once on first use.

use std::collections::HashMap as StdHashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// Keys are code points: a multiplicative hash (FxHash's constant) is enough and much faster than
/// SipHash on the encoders' one lookup per character.
#[derive(Default)]
pub(crate) struct CpHasher(u64);

impl Hasher for CpHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

pub(crate) type HashMap<K, V> = StdHashMap<K, V, BuildHasherDefault<CpHasher>>;

/// The zlib stream the generator writes.
static DATA: &[u8] = include_bytes!("tables.bin");

/// A decoding trie entry: a code point (below `MULTI`), or one of these tags in the top byte.
pub(crate) const MULTI: u32 = 0x0100_0000;
pub(crate) const ILLEGAL: u32 = 0x0200_0000;
pub(crate) const TOOFEW: u32 = 0x0300_0000;
/// GB18030's four-byte sequences (computed from [`Tables::gb_ranges`]).
pub(crate) const GB4: u32 = 0x0400_0000;
/// EUC-KR's eight-byte make-up sequences (KS X 1001:1998 Annex 3).
pub(crate) const EUCKR8: u32 = 0x0500_0000;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Charmap,
    Multibyte,
    Gb18030,
}

#[derive(Debug)]
pub(crate) struct Codec {
    /// The `encodings` module name.
    pub(crate) name: String,
    /// The name CPython's UnicodeDecodeError / UnicodeEncodeError carry (`charmap`, `gbk`...).
    pub(crate) label: String,
    pub(crate) kind: Kind,
    /// Its root node in [`Tables::nodes`] (256 entries per node).
    pub(crate) root: u32,
    /// Code point to (code, length): the bytes are the code's low `length` bytes, big-endian.
    pub(crate) encode: HashMap<u32, (u32, u8)>,
    /// Two code points encoded together (JIS X 0213, HKSCS).
    pub(crate) pairs: HashMap<(u32, u32), (u32, u8)>,
}

#[derive(Debug)]
pub(crate) struct Tables {
    pub(crate) codecs: Vec<Codec>,
    /// `encodings.aliases` entries naming a codec of `codecs`.
    pub(crate) aliases: HashMap<String, usize>,
    /// Codec modules and aliases CPython has that these tables do not hold.
    pub(crate) others: Vec<String>,
    /// The two code points of a `MULTI` entry.
    pub(crate) strings: Vec<[u32; 2]>,
    pub(crate) nodes: Vec<u32>,
    /// (lseq, first code point) at each run start of GB18030's four-byte BMP sequences; the
    /// last is the end marker (39420).
    pub(crate) gb_ranges: Vec<(u32, u32)>,
    /// The same runs but the end marker, sorted by first code point (for encoding).
    pub(crate) gb_by_cp: Vec<(u32, u32)>,
    /// EUC-KR make-up decoding: choseong index per byte 0xA1-0xBE, then jongseong index per
    /// byte 0xA1-0xBE and the filler 0xD4 (0xFF: none).
    pub(crate) makeup: Vec<u8>,
    /// EUC-KR make-up encoding: the bytes of the 19 choseong, 21 jungseong, 28 jongseong.
    pub(crate) u_makeup: Vec<u8>,
}

/// Why the tables could not be read (a build that embedded a broken file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("codec tables unreadable: {0}")]
pub struct TablesError(pub String);

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TablesError> {
        let s = self
            .b
            .get(self.at..self.at + n)
            .ok_or_else(|| TablesError(format!("truncated at {}", self.at)))?;
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, TablesError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, TablesError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn name(&mut self) -> Result<String, TablesError> {
        let n = usize::from(self.u8()?);
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
    /// `count` values of `width` bytes stored plane by plane.
    fn planes(&mut self, count: usize, width: usize) -> Result<Vec<u32>, TablesError> {
        let mut out = vec![0u32; count];
        for k in 0..width {
            let plane = self.take(count)?;
            for (v, &b) in out.iter_mut().zip(plane) {
                *v |= u32::from(b) << (8 * k);
            }
        }
        Ok(out)
    }
}

fn read(data: &[u8]) -> Result<Tables, TablesError> {
    let mut r = Reader { b: data, at: 0 };
    if r.take(4)? != b"RSC1" {
        return Err(TablesError("bad magic".into()));
    }
    let n = r.u32()? as usize;
    let mut rows = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.name()?;
        let label = r.name()?;
        let kind = match r.u8()? {
            0 => Kind::Charmap,
            1 => Kind::Multibyte,
            2 => Kind::Gb18030,
            k => return Err(TablesError(format!("codec kind {k}"))),
        };
        let root = r.u32()?;
        let (es, ec, ps, pc) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        rows.push((name, label, kind, root, es as usize, ec as usize, ps as usize, pc as usize));
    }
    let mut aliases = HashMap::default();
    for _ in 0..r.u32()? {
        let a = r.name()?;
        aliases.insert(a, usize::from(r.u8()?));
    }
    let others = (0..r.u32()?).map(|_| r.name()).collect::<Result<Vec<_>, _>>()?;
    let strings =
        (0..r.u32()?).map(|_| Ok([r.u32()?, r.u32()?])).collect::<Result<Vec<_>, TablesError>>()?;
    let node_count = r.u32()? as usize;
    let nodes = r.planes(node_count * 256, 4)?;
    let enc_count = r.u32()? as usize;
    let enc_cps = r.planes(enc_count, 3)?;
    let enc_codes = r.planes(enc_count, 4)?;
    let enc_lens = r.take(enc_count)?.to_vec();
    let pair_count = r.u32()? as usize;
    let p1 = r.planes(pair_count, 3)?;
    let p2 = r.planes(pair_count, 3)?;
    let pc = r.planes(pair_count, 4)?;
    let pl = r.take(pair_count)?.to_vec();
    let gb_count = r.u32()? as usize;
    let gl = r.planes(gb_count, 4)?;
    let gc = r.planes(gb_count, 4)?;
    let makeup = r.take(61)?.to_vec();
    let u_makeup = r.take(68)?.to_vec();
    let mut codecs = Vec::with_capacity(n);
    for (name, label, kind, root, es, ec, ps, pcount) in rows {
        let slice = |a: usize, c: usize, len: usize| {
            if a + c <= len {
                Ok(a..a + c)
            } else {
                Err(TablesError(format!("{name}: range out of bounds")))
            }
        };
        let encode =
            slice(es, ec, enc_count)?.map(|i| (enc_cps[i], (enc_codes[i], enc_lens[i]))).collect();
        let pairs =
            slice(ps, pcount, pair_count)?.map(|i| ((p1[i], p2[i]), (pc[i], pl[i]))).collect();
        if root as usize >= node_count {
            return Err(TablesError(format!("{name}: root out of bounds")));
        }
        codecs.push(Codec { name, label, kind, root, encode, pairs });
    }
    let gb_ranges: Vec<(u32, u32)> = gl.into_iter().zip(gc).collect();
    let mut gb_by_cp: Vec<(u32, u32)> =
        gb_ranges.iter().take(gb_ranges.len().saturating_sub(1)).copied().collect();
    gb_by_cp.sort_by_key(|r| r.1);
    Ok(Tables { gb_by_cp, gb_ranges, codecs, aliases, others, strings, nodes, makeup, u_makeup })
}

/// The tables, inflated and read on first use.
pub(crate) fn tables() -> Result<&'static Tables, TablesError> {
    static TABLES: OnceLock<Result<Tables, TablesError>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let data = miniz_oxide::inflate::decompress_to_vec_zlib(DATA)
                .map_err(|e| TablesError(format!("inflate: {e:?}")))?;
            read(&data)
        })
        .as_ref()
        .map_err(Clone::clone)
}
