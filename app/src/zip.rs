//! Reading `.zip` uploads without a zip crate: this central-directory reader finds the entries, and
//! the browser's `DecompressionStream('deflate-raw')` inflates them (see [`crate::upload`]).

/// One file of a zip archive: where its stored bytes are and how they are compressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipEntry {
    pub name: String,
    /// 0 = stored, 8 = deflate; anything else is refused when read.
    pub method: u16,
    pub data: std::ops::Range<usize>,
    pub size: u64,
}

/// Why an archive cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ZipError {
    #[error("not a zip archive (no end of central directory)")]
    NoEnd,
    #[error("zip64 archives are not supported")]
    Zip64,
    #[error("the zip archive is truncated or corrupt ({0})")]
    Corrupt(&'static str),
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// The file entries (folders left out) of a zip archive, in central-directory order.
pub fn entries(bytes: &[u8]) -> Result<Vec<ZipEntry>, ZipError> {
    // The end record is 22 bytes plus a comment of at most 65535.
    let lowest = bytes.len().saturating_sub(22 + 65535);
    let end = (lowest..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&i| u32_at(bytes, i) == Some(0x0605_4b50))
        .ok_or(ZipError::NoEnd)?;
    let count = u16_at(bytes, end + 10).ok_or(ZipError::Corrupt("end record"))?;
    let cd_offset = u32_at(bytes, end + 16).ok_or(ZipError::Corrupt("end record"))?;
    if count == 0xFFFF || cd_offset == 0xFFFF_FFFF {
        return Err(ZipError::Zip64);
    }
    let mut at = cd_offset as usize;
    let mut out = Vec::new();
    for _ in 0..count {
        if u32_at(bytes, at) != Some(0x0201_4b50) {
            return Err(ZipError::Corrupt("central directory"));
        }
        let field = |off: usize| u16_at(bytes, at + off).ok_or(ZipError::Corrupt("entry"));
        let field32 = |off: usize| u32_at(bytes, at + off).ok_or(ZipError::Corrupt("entry"));
        let method = field(10)?;
        let compressed = field32(20)?;
        let size = field32(24)?;
        let (name_len, extra_len, comment_len) =
            (usize::from(field(28)?), usize::from(field(30)?), usize::from(field(32)?));
        let local = field32(42)?;
        if compressed == 0xFFFF_FFFF || size == 0xFFFF_FFFF || local == 0xFFFF_FFFF {
            return Err(ZipError::Zip64);
        }
        let name_bytes =
            bytes.get(at + 46..at + 46 + name_len).ok_or(ZipError::Corrupt("entry name"))?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        at += 46 + name_len + extra_len + comment_len;
        if name.ends_with('/') {
            continue;
        }
        let local = local as usize;
        if u32_at(bytes, local) != Some(0x0403_4b50) {
            return Err(ZipError::Corrupt("local header"));
        }
        let lname =
            usize::from(u16_at(bytes, local + 26).ok_or(ZipError::Corrupt("local header"))?);
        let lextra =
            usize::from(u16_at(bytes, local + 28).ok_or(ZipError::Corrupt("local header"))?);
        let start = local + 30 + lname + lextra;
        let data = start..start + compressed as usize;
        if data.end > bytes.len() {
            return Err(ZipError::Corrupt("entry data"));
        }
        out.push(ZipEntry { name, method, data, size: u64::from(size) });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored (uncompressed) archive as `zip -0` writes it.
    fn stored_zip(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, data) in files {
            let offset = out.len() as u32;
            out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            out.extend_from_slice(&0u32.to_le_bytes()); // crc (unchecked)
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(data);
            central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            central.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            central.extend_from_slice(&0u32.to_le_bytes());
            central.extend_from_slice(&(data.len() as u32).to_le_bytes());
            central.extend_from_slice(&(data.len() as u32).to_le_bytes());
            central.extend_from_slice(&(name.len() as u16).to_le_bytes());
            central.extend_from_slice(&[0; 12]);
            central.extend_from_slice(&offset.to_le_bytes());
            central.extend_from_slice(name.as_bytes());
        }
        let cd_offset = out.len() as u32;
        out.extend_from_slice(&central);
        out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(files.len() as u16).to_le_bytes());
        out.extend_from_slice(&(central.len() as u32).to_le_bytes());
        out.extend_from_slice(&cd_offset.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out
    }

    #[test]
    fn lists_stored_entries_and_skips_folders() {
        let zip = stored_zip(&[("run/", b""), ("run/preds.jsonl", b"{}\n"), ("a.traj", b"[]")]);
        let e = entries(&zip).unwrap();
        assert_eq!(
            e.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
            ["run/preds.jsonl", "a.traj"]
        );
        assert_eq!(&zip[e[0].data.clone()], b"{}\n");
        assert_eq!(e[1].method, 0);
    }

    #[test]
    fn reads_what_python_zipfile_writes() {
        let out = std::process::Command::new("python3")
            .args(["-c", "import io,sys,zipfile\nb=io.BytesIO()\nz=zipfile.ZipFile(b,'w',zipfile.ZIP_DEFLATED)\nz.writestr('d/x.jsonl','{\"a\": 1}\\n'*50)\nz.writestr('y.traj','[]')\nz.close()\nsys.stdout.buffer.write(b.getvalue())"])
            .output()
            .unwrap();
        let e = entries(&out.stdout).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].name.as_str(), e[0].method, e[0].size), ("d/x.jsonl", 8, 450));
        assert!(e[0].data.len() < 450);
    }

    #[test]
    fn refuses_garbage_and_truncation() {
        assert_eq!(entries(b"hello"), Err(ZipError::NoEnd));
        let zip = stored_zip(&[("a.json", b"[1,2,3]")]);
        let mut cut = zip.clone();
        cut.drain(10..30);
        assert!(entries(&cut).is_err());
    }
}
