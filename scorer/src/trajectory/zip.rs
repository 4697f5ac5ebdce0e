//! A small ZIP reader for Inspect `.eval` logs: the central directory (with ZIP64), entries
//! stored, deflated (miniz_oxide) or zstd-compressed (method 93, ruzstd, all frames). Pure Rust,
//! so it builds for wasm32; bounded so a hostile archive cannot allocate without limit.

use super::TrajectoryError;

/// Largest entry we inflate (an Inspect sample is a few MB; 1 GiB is far beyond any real one).
const MAX_ENTRY: u64 = 1 << 30;

/// One entry of the central directory.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub name: String,
    method: u16,
    compressed: u64,
    size: u64,
    local_offset: u64,
}

fn err(m: impl Into<String>) -> TrajectoryError {
    TrajectoryError::Zip(m.into())
}

fn u16_at(b: &[u8], at: usize) -> Result<u16, TrajectoryError> {
    b.get(at..at + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| err("truncated archive"))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32, TrajectoryError> {
    b.get(at..at + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| err("truncated archive"))
}

fn u64_at(b: &[u8], at: usize) -> Result<u64, TrajectoryError> {
    b.get(at..at + 8)
        .map(|s| u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]))
        .ok_or_else(|| err("truncated archive"))
}

fn usize_of(n: u64) -> Result<usize, TrajectoryError> {
    usize::try_from(n).map_err(|_| err("offset out of range"))
}

/// The entries of the archive, in central-directory order.
pub(crate) fn entries(b: &[u8]) -> Result<Vec<Entry>, TrajectoryError> {
    // End of central directory: the last `PK\5\6` within the comment window.
    let min = b.len().saturating_sub(22 + 65_535);
    let eocd = (min..=b.len().saturating_sub(22))
        .rev()
        .find(|&i| b[i..].starts_with(b"PK\x05\x06"))
        .ok_or_else(|| err("no end of central directory (not a zip archive, or truncated)"))?;
    let mut count = u64::from(u16_at(b, eocd + 10)?);
    let mut cd_offset = u64::from(u32_at(b, eocd + 16)?);
    if count == 0xFFFF || cd_offset == 0xFFFF_FFFF {
        // ZIP64 locator just before the EOCD.
        let loc = eocd
            .checked_sub(20)
            .filter(|&l| b[l..].starts_with(b"PK\x06\x07"))
            .ok_or_else(|| err("ZIP64 locator missing"))?;
        let z = usize_of(u64_at(b, loc + 8)?)?;
        if !b.get(z..).is_some_and(|s| s.starts_with(b"PK\x06\x06")) {
            return Err(err("ZIP64 end of central directory missing"));
        }
        count = u64_at(b, z + 32)?;
        cd_offset = u64_at(b, z + 48)?;
    }
    let mut at = usize_of(cd_offset)?;
    let mut out = Vec::new();
    for _ in 0..count {
        if !b.get(at..).is_some_and(|s| s.starts_with(b"PK\x01\x02")) {
            return Err(err("bad central directory entry"));
        }
        let method = u16_at(b, at + 10)?;
        let mut compressed = u64::from(u32_at(b, at + 20)?);
        let mut size = u64::from(u32_at(b, at + 24)?);
        let name_len = usize::from(u16_at(b, at + 28)?);
        let extra_len = usize::from(u16_at(b, at + 30)?);
        let comment_len = usize::from(u16_at(b, at + 32)?);
        let mut local_offset = u64::from(u32_at(b, at + 42)?);
        let name_bytes =
            b.get(at + 46..at + 46 + name_len).ok_or_else(|| err("truncated entry name"))?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        // ZIP64 extra field: the 0xFFFFFFFF fields, in order.
        let extra = b.get(at + 46 + name_len..at + 46 + name_len + extra_len).unwrap_or(&[]);
        let mut e = 0;
        while e + 4 <= extra.len() {
            let id = u16_at(extra, e)?;
            let len = usize::from(u16_at(extra, e + 2)?);
            if id == 1 {
                let mut f = e + 4;
                if size == 0xFFFF_FFFF {
                    size = u64_at(extra, f)?;
                    f += 8;
                }
                if compressed == 0xFFFF_FFFF {
                    compressed = u64_at(extra, f)?;
                    f += 8;
                }
                if local_offset == 0xFFFF_FFFF {
                    local_offset = u64_at(extra, f)?;
                }
            }
            e += 4 + len;
        }
        out.push(Entry { name, method, compressed, size, local_offset });
        at += 46 + name_len + extra_len + comment_len;
    }
    Ok(out)
}

/// Whether the archive has an entry of one of these names.
pub(crate) fn has_entry(b: &[u8], names: &[&str]) -> Result<bool, TrajectoryError> {
    Ok(entries(b)?.iter().any(|e| names.contains(&e.name.as_str())))
}

/// The uncompressed bytes of one entry.
pub(crate) fn read(b: &[u8], e: &Entry) -> Result<Vec<u8>, TrajectoryError> {
    let dec = |m: String| TrajectoryError::Decompress { entry: e.name.clone(), message: m };
    let at = usize_of(e.local_offset)?;
    if !b.get(at..).is_some_and(|s| s.starts_with(b"PK\x03\x04")) {
        return Err(dec("bad local header".into()));
    }
    let start = at + 30 + usize::from(u16_at(b, at + 26)?) + usize::from(u16_at(b, at + 28)?);
    let data = b
        .get(start..start.saturating_add(usize_of(e.compressed)?))
        .ok_or_else(|| dec("entry data truncated".into()))?;
    if e.size > MAX_ENTRY {
        return Err(dec(format!(
            "entry of {} bytes is larger than the {MAX_ENTRY}-byte limit",
            e.size
        )));
    }
    let out = match e.method {
        0 => data.to_vec(),
        8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, usize_of(e.size)?.max(1))
            .map_err(|x| dec(format!("deflate: {x:?}")))?,
        93 => zstd_frames(data, e.size).map_err(dec)?,
        m => return Err(dec(format!("unsupported compression method {m}"))),
    };
    if out.len() as u64 != e.size {
        return Err(dec(format!("expected {} bytes, got {}", e.size, out.len())));
    }
    Ok(out)
}

/// Every zstd frame of `data`, decoded with memory growing only with the output actually
/// produced: the entry's declared size is never reserved up front (a hostile central directory
/// could claim 1 GiB for a few bytes of data), and decoding stops one byte past it.
fn zstd_frames(mut data: &[u8], size: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut out = Vec::new();
    while !data.is_empty() {
        let room = (size + 1).saturating_sub(out.len() as u64);
        if room == 0 {
            break;
        }
        let before = data.len();
        let frame =
            ruzstd::decoding::StreamingDecoder::new(&mut data).map_err(|x| format!("zstd: {x}"))?;
        frame.take(room).read_to_end(&mut out).map_err(|x| format!("zstd: {x}"))?;
        if data.len() == before {
            return Err("zstd: a frame consumed no input".into());
        }
    }
    Ok(out)
}

/// Test helper: writes a zip archive (entries stored (0), deflated (8) or zstd-compressed (93)),
/// for fixtures made at test time.
pub(crate) fn write(entries: &[(&str, u16, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut cd = Vec::new();
    for (name, method, data) in entries {
        let comp = match method {
            0 => data.to_vec(),
            8 => miniz_oxide::deflate::compress_to_vec(data, 6),
            93 => ruzstd::encoding::compress_to_vec(
                *data,
                ruzstd::encoding::CompressionLevel::Fastest,
            ),
            _ => unreachable!(),
        };
        let off = out.len() as u32;
        let header = |sig: &[u8], central: bool| {
            let mut h = sig.to_vec();
            if central {
                h.extend(20u16.to_le_bytes());
            }
            h.extend(20u16.to_le_bytes());
            h.extend(0u16.to_le_bytes());
            h.extend(method.to_le_bytes());
            h.extend([0u8; 4]);
            h.extend(0u32.to_le_bytes());
            h.extend((comp.len() as u32).to_le_bytes());
            h.extend((data.len() as u32).to_le_bytes());
            h.extend((name.len() as u16).to_le_bytes());
            h.extend(0u16.to_le_bytes());
            if central {
                h.extend([0u8; 6]);
                h.extend(0u32.to_le_bytes());
                h.extend(off.to_le_bytes());
            }
            h.extend(name.as_bytes());
            h
        };
        out.extend(header(b"PK\x03\x04", false));
        out.extend(&comp);
        cd.extend(header(b"PK\x01\x02", true));
    }
    let cd_off = out.len() as u32;
    out.extend(&cd);
    out.extend(b"PK\x05\x06");
    out.extend([0u8; 4]);
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((entries.len() as u16).to_le_bytes());
    out.extend((cd.len() as u32).to_le_bytes());
    out.extend(cd_off.to_le_bytes());
    out.extend(0u16.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_deflate_and_zstd_entries_round_trip() {
        let text = b"{\"a\": 1}\n".repeat(1000);
        let z = write(&[("a.json", 0, b"x"), ("b.json", 8, &text), ("c.json", 93, &text)]);
        let es = entries(&z).unwrap();
        assert_eq!(
            es.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["a.json", "b.json", "c.json"]
        );
        assert_eq!(read(&z, &es[0]).unwrap(), b"x");
        assert_eq!(read(&z, &es[1]).unwrap(), text);
        assert_eq!(read(&z, &es[2]).unwrap(), text);
        // Corruption is an error, not a panic.
        let mut bad = z.clone();
        let n = bad.len();
        bad.truncate(n - 30);
        assert!(entries(&bad).is_err());
        assert!(entries(b"PK\x03\x04 not really").is_err());
    }

    /// Concatenated frames are all read; a declared size larger than the data is an error after
    /// decoding what is there (nothing of the declared size is reserved), a smaller one stops
    /// decoding just past it.
    #[test]
    fn zstd_entries_are_bounded_by_what_they_hold() {
        let part = b"{\"step\": 1}\n".repeat(500);
        let one = ruzstd::encoding::compress_to_vec(
            &part[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        let two = [one.clone(), one.clone()].concat();
        let whole = [part.clone(), part.clone()].concat();
        assert_eq!(zstd_frames(&two, whole.len() as u64).unwrap(), whole);
        // A central directory claiming 1 GiB for this entry.
        let big = zstd_frames(&one, MAX_ENTRY).unwrap();
        assert_eq!(big.len(), part.len());
        assert!(big.capacity() < 1 << 20, "reserved {} bytes", big.capacity());
        // Claiming less: decoding stops one byte past the claim, then the size check refuses it.
        assert_eq!(zstd_frames(&two, 10).unwrap().len(), 11);
        let mut z = write(&[("c.json", 93, &part)]);
        // Patch both size fields (local header at 22, central at its offset + 24) to 1 GiB.
        let cd = z.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        for at in [22, cd + 24] {
            z[at..at + 4].copy_from_slice(&(1u32 << 30).to_le_bytes());
        }
        let es = entries(&z).unwrap();
        let err = read(&z, &es[0]).unwrap_err().to_string();
        assert!(err.contains(&format!("expected 1073741824 bytes, got {}", part.len())), "{err}");
        assert!(zstd_frames(b"\x28\xb5\x2f\xfd garbage", 100).is_err());
        // Frames with a content checksum (as the `zstd` tool writes them: `{"a": 1}\n` × 300),
        // two in a row: the checksum is consumed with its frame.
        let checked: &[u8] = b"\x28\xb5\x2f\xfd\x64\x8c\x09\x85\x00\x00\x48\x7b\x22\x61\x22\x3a\x20\x31\x7d\x0a\x01\x00\x80\xa2\x5f\x8e\x97\x84\x91\x85";
        let text = b"{\"a\": 1}\n".repeat(600);
        assert_eq!(zstd_frames(&[checked, checked].concat(), 5400).unwrap(), text);
    }
}
