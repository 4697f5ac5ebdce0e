//! Which error zlib's `inflate` reports for a broken deflate stream, so a binary hunk git refuses
//! carries git's message (`inflate: data stream error (invalid distance too far back)`).
//! miniz_oxide, which inflates the hunks, only says that the stream failed; this walks the
//! stream again, on the error path only, in zlib's order and with its rules (`inflate.c`,
//! `inftrees.c`): what each check rejects and which incomplete codes it allows. No tables: the
//! length and distance bases are computed.

/// Reads bits LSB first, as deflate packs them.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    bit: u32,
}

impl Bits<'_> {
    fn get(&mut self, n: u32) -> Option<u32> {
        let mut v = 0;
        for i in 0..n {
            let byte = *self.data.get(self.pos)?;
            v |= u32::from(byte >> self.bit & 1) << i;
            self.bit += 1;
            if self.bit == 8 {
                self.bit = 0;
                self.pos += 1;
            }
        }
        Some(v)
    }
}

/// A canonical Huffman code: code lengths counted per length and symbols in code order.
struct Code {
    count: [u16; 16],
    symbols: Vec<u16>,
}

/// Why `inflate_table` refuses a set of lengths (over-subscribed, or incomplete where zlib
/// wants a complete code: always for the code length code, else unless one code of length 1).
fn build(lens: &[u8], code_lengths: bool) -> Result<Code, ()> {
    let mut count = [0u16; 16];
    for &l in lens {
        count[usize::from(l)] += 1;
    }
    let max = (1..16).rev().find(|&l| count[l] != 0).unwrap_or(0);
    let mut symbols = Vec::new();
    if max == 0 {
        // No codes: zlib builds a table that fails on use.
        return Ok(Code { count, symbols });
    }
    let mut left: i32 = 1;
    for &c in &count[1..] {
        left = left * 2 - i32::from(c);
        if left < 0 {
            return Err(());
        }
    }
    if left > 0 && (code_lengths || max != 1) {
        return Err(());
    }
    for l in 1..16u8 {
        for (s, &sl) in lens.iter().enumerate() {
            if sl == l {
                symbols.push(s as u16);
            }
        }
    }
    Ok(Code { count, symbols })
}

/// Decodes one symbol: `Ok(None)` for a bit pattern the code leaves unused (zlib's invalid
/// code marker), `Err` when the input ends.
fn decode(b: &mut Bits<'_>, c: &Code) -> Result<Option<u16>, ()> {
    let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
    for len in 1..16 {
        code |= b.get(1).ok_or(())? as i32;
        let count = i32::from(c.count[len]);
        if code - count < first {
            return Ok(c.symbols.get((index + code - first) as usize).copied());
        }
        index += count;
        first = (first + count) << 1;
        code <<= 1;
        if index as usize >= c.symbols.len() && c.symbols.len() <= 1 {
            // An incomplete code of one length-1 symbol: the other pattern is invalid.
            return Ok(None);
        }
    }
    Ok(None)
}

/// Base and extra bits of length symbol `s` (257..=285) or distance symbol `s` (0..=29).
fn base(s: u16, distance: bool) -> (u32, u32) {
    let (first_group, group_of) = if distance { (4u16, 2u16) } else { (8, 4) };
    let i = if distance { s } else { s - 257 };
    if !distance && i == 28 {
        return (258, 0);
    }
    let mut b = if distance { 1 } else { 3 };
    let mut extra = 0;
    for k in 0..i {
        if k >= first_group && (k - first_group) % group_of == 0 {
            extra += 1;
        }
        b += 1 << extra;
    }
    if i >= first_group && (i - first_group) % group_of == 0 {
        extra += 1;
    }
    (b, extra)
}

/// zlib's message for the first error in the zlib stream `data` (header already checked) when
/// `size` bytes of output are room, or `None` if zlib reports none before it needs more input
/// or more room.
pub fn inflate_error(data: &[u8], size: u64) -> Option<&'static str> {
    let mut b = Bits { data: data.get(2..)?, pos: 0, bit: 0 };
    let mut out: u64 = 0;
    loop {
        let last = b.get(1)?;
        match b.get(2)? {
            0 => {
                if b.bit != 0 {
                    b.bit = 0;
                    b.pos += 1;
                }
                let (len, nlen) = (b.get(16)?, b.get(16)?);
                if len != nlen ^ 0xffff {
                    return Some("invalid stored block lengths");
                }
                let len = u64::from(len);
                if out + len > size || b.pos + len as usize > b.data.len() {
                    return None;
                }
                b.pos += len as usize;
                out += len;
            }
            t @ (1 | 2) => {
                let (lit, dist) = if t == 1 {
                    let mut l = [8u8; 288];
                    l[144..256].fill(9);
                    l[256..280].fill(7);
                    (build(&l, false).ok()?, build(&[5u8; 32], false).ok()?)
                } else {
                    let nlen = b.get(5)? as usize + 257;
                    let ndist = b.get(5)? as usize + 1;
                    let ncode = b.get(4)? as usize + 4;
                    if nlen > 286 || ndist > 30 {
                        return Some("too many length or distance symbols");
                    }
                    const ORDER: [usize; 19] =
                        [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
                    let mut cl = [0u8; 19];
                    for &o in &ORDER[..ncode] {
                        cl[o] = b.get(3)? as u8;
                    }
                    let Ok(cc) = build(&cl, true) else {
                        return Some("invalid code lengths set");
                    };
                    let mut lens = vec![0u8; nlen + ndist];
                    let mut have = 0;
                    while have < nlen + ndist {
                        // No code length codes at all: zlib reads every length as 0.
                        let sym = if cc.symbols.is_empty() {
                            b.get(1)?;
                            0
                        } else {
                            decode(&mut b, &cc).ok()?.unwrap_or(0)
                        };
                        let (value, copy) = match sym {
                            0..=15 => {
                                lens[have] = sym as u8;
                                have += 1;
                                continue;
                            }
                            16 => {
                                let copy = 3 + b.get(2)? as usize;
                                if have == 0 {
                                    return Some("invalid bit length repeat");
                                }
                                (lens[have - 1], copy)
                            }
                            17 => (0, 3 + b.get(3)? as usize),
                            _ => (0, 11 + b.get(7)? as usize),
                        };
                        if have + copy > nlen + ndist {
                            return Some("invalid bit length repeat");
                        }
                        lens[have..have + copy].fill(value);
                        have += copy;
                    }
                    if lens[256] == 0 {
                        return Some("invalid code -- missing end-of-block");
                    }
                    let Ok(lit) = build(&lens[..nlen], false) else {
                        return Some("invalid literal/lengths set");
                    };
                    let Ok(dist) = build(&lens[nlen..], false) else {
                        return Some("invalid distances set");
                    };
                    (lit, dist)
                };
                loop {
                    let Some(sym) = decode(&mut b, &lit).ok()? else {
                        return Some("invalid literal/length code");
                    };
                    match sym {
                        0..=255 => {
                            if out == size {
                                return None;
                            }
                            out += 1;
                        }
                        256 => break,
                        286.. => return Some("invalid literal/length code"),
                        _ => {
                            let (lb, le) = base(sym, false);
                            let len = u64::from(lb + b.get(le)?);
                            let Some(d) = decode(&mut b, &dist).ok()?.filter(|&d| d < 30) else {
                                return Some("invalid distance code");
                            };
                            let (db, de) = base(d, true);
                            let d = u64::from(db + b.get(de)?);
                            if out == size {
                                return None;
                            }
                            if d > out {
                                return Some("invalid distance too far back");
                            }
                            out = (out + len).min(size);
                        }
                    }
                }
            }
            _ => return Some("invalid block type"),
        }
        if last == 1 {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::base;

    /// The computed bases are RFC 1951's tables.
    #[test]
    fn bases_are_deflates() {
        let lens: Vec<(u32, u32)> = (257..=285).map(|s| base(s, false)).collect();
        assert_eq!(
            &lens[..9],
            &[(3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0), (10, 0), (11, 1)]
        );
        assert_eq!(lens[27], (227, 5));
        assert_eq!(lens[28], (258, 0));
        let dists: Vec<(u32, u32)> = (0..30).map(|s| base(s, true)).collect();
        assert_eq!(&dists[..6], &[(1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (7, 1)]);
        assert_eq!(dists[29], (24577, 13));
    }
}
