//! The patch parser: a byte-exact port of the parsing half of git's `apply.c` (git 2.47), because
//! which lines git takes as headers, hunks or ignorable garbage decides whether a patch applies.
//!
//! Names keep git's function names (`find_header`, `parse_fragment`…) so the two can be compared.

use super::{BinaryHunk, BinaryMethod, FilePatch, Hunk, Patch, PatchError, Tri};

/// Parses every file diff of `bytes` as `git apply` would (default `-p1`, repository root).
///
/// Text before, between and after the diffs is skipped as git skips it; a hunk that is cut short
/// or whose lines do not match its header is an error naming the line.
pub fn parse(bytes: &[u8]) -> Result<Patch<'_>, PatchError> {
    let mut p =
        Parser { buf: bytes, linenr: 1, p_value: 1, p_value_known: false, stop_error: None };
    let mut files = Vec::new();
    let mut offset = 0usize;
    while offset < bytes.len() {
        match p.parse_chunk(offset)? {
            Some((used, fp)) => {
                files.push(fp);
                offset += used.max(1);
            }
            None => break,
        }
    }
    Ok(Patch { files, stop_error: p.stop_error })
}

/// git's `isspace` (its own ctype table: only space, tab, LF and CR).
pub(crate) fn git_isspace(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// Length of the line at the start of `s`, its LF included.
pub(crate) fn linelen(s: &[u8]) -> usize {
    // Word-at-a-time scan for LF: the engine's hottest loop on large files.
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const LF: u64 = LO * 0x0a;
    let mut i = 0;
    for c in s.chunks_exact(8) {
        let mut a = [0u8; 8];
        a.copy_from_slice(c);
        let w = u64::from_le_bytes(a) ^ LF;
        if w.wrapping_sub(LO) & !w & HI != 0 {
            break;
        }
        i += 8;
    }
    match s[i..].iter().position(|&c| c == b'\n') {
        Some(j) => i + j + 1,
        None => s.len(),
    }
}

const TERM_SPACE: u8 = 1;
const TERM_TAB: u8 = 2;

struct Parser<'a> {
    buf: &'a [u8],
    linenr: usize,
    p_value: i64,
    p_value_known: bool,
    /// The error git printed when it stopped reading early (a corrupt binary hunk).
    stop_error: Option<String>,
}

fn new_patch<'a>(line: usize) -> FilePatch<'a> {
    FilePatch {
        old_name: None,
        new_name: None,
        is_new: Tri::Unknown,
        is_delete: Tri::Unknown,
        is_rename: false,
        is_copy: false,
        old_mode: 0,
        new_mode: 0,
        old_oid_prefix: String::new(),
        new_oid_prefix: String::new(),
        is_binary: false,
        binary: Vec::new(),
        hunks: Vec::new(),
        line,
    }
}

fn header_err(line: usize, message: String) -> PatchError {
    PatchError::Header { line, message }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn is_dev_null(s: &[u8]) -> bool {
    s.starts_with(b"/dev/null") && s.get(9).is_some_and(|&c| git_isspace(c))
}

fn name_terminate(c: u8, terminate: u8) -> bool {
    if c == b' ' && terminate & TERM_SPACE == 0 {
        return false;
    }
    if c == b'\t' && terminate & TERM_TAB == 0 {
        return false;
    }
    true
}

/// Collapses runs of `/` (git's `squash_slash`). git's names are C strings: a NUL byte ends
/// the name (git 2.47 applies `+++ b/n\0x` to the file `n`).
fn squash_slash(name: &[u8]) -> Vec<u8> {
    let name = c_str(name);
    let mut out = Vec::with_capacity(name.len());
    for &c in name {
        if c == b'/' && out.last() == Some(&b'/') {
            continue;
        }
        out.push(c);
    }
    out
}

/// git's `unquote_c_style` for a quoted name at the start of `s`; returns the name and the index
/// just past the closing quote. Stops at the end of the line (git would scan on).
fn unquote_c_style(s: &[u8]) -> Option<(Vec<u8>, usize)> {
    if s.first() != Some(&b'"') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 1;
    loop {
        let c = *s.get(i)?;
        i += 1;
        match c {
            b'"' => return Some((out, i)),
            b'\n' => return None,
            b'\\' => {
                let e = *s.get(i)?;
                i += 1;
                let ch = match e {
                    b'a' => 7,
                    b'b' => 8,
                    b'f' => 12,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'v' => 11,
                    b'\\' | b'"' => e,
                    b'0'..=b'3' => {
                        let mut ac = u32::from(e - b'0');
                        for _ in 0..2 {
                            let d = *s.get(i)?;
                            if !(b'0'..=b'7').contains(&d) {
                                return None;
                            }
                            ac = (ac << 3) | u32::from(d - b'0');
                            i += 1;
                        }
                        u8::try_from(ac).ok()?
                    }
                    _ => return None,
                };
                out.push(ch);
            }
            _ => out.push(c),
        }
    }
}

fn find_name_gnu(line: &[u8], p_value: i64) -> Option<Vec<u8>> {
    let (name, _) = unquote_c_style(line)?;
    // `strchr` below and the later C string copies stop at a NUL (`\000`).
    let name = c_str(&name);
    let mut cp = 0usize;
    let mut p = p_value;
    while p > 0 {
        let slash = name[cp..].iter().position(|&c| c == b'/')?;
        cp += slash + 1;
        p -= 1;
    }
    Some(squash_slash(&name[cp..]))
}

fn find_name_common(
    line: &[u8],
    def: Option<&[u8]>,
    p_value: i64,
    end: Option<usize>,
    terminate: u8,
) -> Option<Vec<u8>> {
    let mut p = p_value;
    let mut start = if p == 0 { Some(0) } else { None };
    let limit = end.unwrap_or(line.len()).min(line.len());
    let mut i = 0;
    while i < limit {
        let c = line[i];
        if end.is_none() && git_isspace(c) && (c == b'\n' || name_terminate(c, terminate)) {
            break;
        }
        i += 1;
        if c == b'/' {
            p -= 1;
            if p == 0 {
                start = Some(i);
            }
        }
    }
    let Some(start) = start else { return def.map(squash_slash) };
    let len = i - start;
    if len == 0 {
        return def.map(squash_slash);
    }
    if let Some(d) = def {
        if d.len() < len && line[start..].starts_with(d) {
            return Some(squash_slash(d));
        }
    }
    Some(squash_slash(&line[start..i]))
}

fn find_name(line: &[u8], def: Option<&[u8]>, p_value: i64, terminate: u8) -> Option<Vec<u8>> {
    if line.first() == Some(&b'"') {
        if let Some(n) = find_name_gnu(line, p_value) {
            return Some(n);
        }
    }
    find_name_common(line, def, p_value, None, terminate)
}

fn find_name_traditional(line: &[u8], def: Option<&[u8]>, p_value: i64) -> Option<Vec<u8>> {
    if line.first() == Some(&b'"') {
        if let Some(n) = find_name_gnu(line, p_value) {
            return Some(n);
        }
    }
    let len = line.iter().position(|&c| c == b'\n').unwrap_or(line.len());
    let dl = diff_timestamp_len(&line[..len]);
    if dl == 0 {
        return find_name_common(line, def, p_value, None, TERM_TAB);
    }
    find_name_common(line, def, p_value, Some(len - dl), 0)
}

// --- timestamps after names in traditional headers (git's diff_timestamp_len and helpers) ---

fn dig(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

fn sane_tz_len(line: &[u8]) -> usize {
    let n = 6; // " +0500"
    if line.len() < n || line[line.len() - n] != b' ' {
        return 0;
    }
    let tz = line.len() - n;
    if line[tz + 1] != b'+' && line[tz + 1] != b'-' {
        return 0;
    }
    if !line[tz + 2..].iter().all(u8::is_ascii_digit) {
        return 0;
    }
    n
}

fn tz_with_colon_len(line: &[u8]) -> usize {
    let n = 7; // " +08:00"
    if line.len() < n || line[line.len() - 3] != b':' {
        return 0;
    }
    let tz = line.len() - n;
    if line[tz] != b' ' || (line[tz + 1] != b'+' && line[tz + 1] != b'-') {
        return 0;
    }
    let p = tz + 2;
    if !dig(line, p)
        || !dig(line, p + 1)
        || line[p + 2] != b':'
        || !dig(line, p + 3)
        || !dig(line, p + 4)
    {
        return 0;
    }
    n
}

fn date_len(line: &[u8]) -> usize {
    let n = 8; // "72-02-05"
    if line.len() < n || line[line.len() - 3] != b'-' {
        return 0;
    }
    let mut date = line.len() - n;
    let p = date;
    if !dig(line, p)
        || !dig(line, p + 1)
        || line[p + 2] != b'-'
        || !dig(line, p + 3)
        || !dig(line, p + 4)
        || line[p + 5] != b'-'
        || !dig(line, p + 6)
        || !dig(line, p + 7)
    {
        return 0;
    }
    if date >= 2 && line[date - 1].is_ascii_digit() && line[date - 2].is_ascii_digit() {
        date -= 2;
    }
    line.len() - date
}

fn short_time_len(line: &[u8]) -> usize {
    let n = 9; // " 07:01:32"
    if line.len() < n || line[line.len() - 3] != b':' {
        return 0;
    }
    let p = line.len() - n;
    if line[p] != b' '
        || !dig(line, p + 1)
        || !dig(line, p + 2)
        || line[p + 3] != b':'
        || !dig(line, p + 4)
        || !dig(line, p + 5)
        || line[p + 6] != b':'
        || !dig(line, p + 7)
        || !dig(line, p + 8)
    {
        return 0;
    }
    n
}

fn fractional_time_len(line: &[u8]) -> usize {
    let len = line.len();
    if len == 0 || !line[len - 1].is_ascii_digit() {
        return 0;
    }
    let mut p = len - 1;
    while p > 0 && line[p].is_ascii_digit() {
        p -= 1;
    }
    if line[p] != b'.' {
        return 0;
    }
    let n = short_time_len(&line[..p]);
    if n == 0 {
        return 0;
    }
    len - p + n
}

fn trailing_spaces_len(line: &[u8]) -> usize {
    let len = line.len();
    if len == 0 || line[len - 1] != b' ' {
        return 0;
    }
    let mut p = len;
    while p > 0 {
        p -= 1;
        if line[p] != b' ' {
            return len - (p + 1);
        }
    }
    len
}

fn diff_timestamp_len(line: &[u8]) -> usize {
    let len = line.len();
    if len == 0 || !line[len - 1].is_ascii_digit() {
        return 0;
    }
    let mut end = len;
    let mut n = sane_tz_len(&line[..end]);
    if n == 0 {
        n = tz_with_colon_len(&line[..end]);
    }
    end -= n;
    let mut n = short_time_len(&line[..end]);
    if n == 0 {
        n = fractional_time_len(&line[..end]);
    }
    end -= n;
    let n = date_len(&line[..end]);
    if n == 0 {
        return 0;
    }
    end -= n;
    if end == 0 {
        return 0;
    }
    if line[end - 1] == b'\t' {
        return len - (end - 1);
    }
    if line[end - 1] != b' ' {
        return 0;
    }
    end -= trailing_spaces_len(&line[..end]);
    len - end
}

/// Does the `---`/`+++` line carry GNU diff's epoch timestamp (creation/deletion marker)?
fn has_epoch_timestamp(nameline: &[u8]) -> bool {
    let end = nameline.iter().position(|&c| c == b'\n').unwrap_or(nameline.len());
    let line = &nameline[..end];
    let Some(tab) = line.iter().rposition(|&c| c == b'\t') else { return false };
    let ts = &line[tab + 1..];
    let (epoch_hour, rest) = if let Some(r) = ts.strip_prefix(b"1969-12-31 ") {
        (24, r)
    } else if let Some(r) = ts.strip_prefix(b"1970-01-01 ") {
        (0, r)
    } else {
        return false;
    };
    // ^[0-2][0-9]:([0-5][0-9]):00(\.0+)? ([-+][0-2][0-9]:?[0-5][0-9])$
    let r = rest;
    if r.len() < 8
        || !(b'0'..=b'2').contains(&r[0])
        || !r[1].is_ascii_digit()
        || r[2] != b':'
        || !(b'0'..=b'5').contains(&r[3])
        || !r[4].is_ascii_digit()
        || &r[5..8] != b":00"
    {
        return false;
    }
    let hour = i32::from(r[0] - b'0') * 10 + i32::from(r[1] - b'0');
    let minute = i32::from(r[3] - b'0') * 10 + i32::from(r[4] - b'0');
    let mut i = 8;
    if r.get(i) == Some(&b'.') {
        let z = r[i + 1..].iter().take_while(|&&c| c == b'0').count();
        if z == 0 {
            return false;
        }
        i += 1 + z;
    }
    if r.get(i) != Some(&b' ') {
        return false;
    }
    i += 1;
    let zone = &r[i..];
    let sign = match zone.first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return false,
    };
    let z = &zone[1..];
    let (hh, mm) = if z.len() == 5 && z[2] == b':' {
        (&z[0..2], &z[3..5])
    } else if z.len() == 4 {
        (&z[0..2], &z[2..4])
    } else {
        return false;
    };
    if !(b'0'..=b'2').contains(&hh[0])
        || !hh[1].is_ascii_digit()
        || !(b'0'..=b'5').contains(&mm[0])
        || !mm[1].is_ascii_digit()
    {
        return false;
    }
    let zh = i32::from(hh[0] - b'0') * 10 + i32::from(hh[1] - b'0');
    let zm = i32::from(mm[0] - b'0') * 10 + i32::from(mm[1] - b'0');
    let zoneoffset = sign * (zh * 60 + zm);
    hour * 60 + minute - zoneoffset == epoch_hour * 60
}

/// Skips `p_value` leading components; `None` for absolute paths (git's `skip_tree_prefix`).
fn skip_tree_prefix(p_value: i64, s: &[u8]) -> Option<usize> {
    if p_value == 0 {
        return if s.first() == Some(&b'/') { None } else { Some(0) };
    }
    let mut nslash = p_value;
    for (i, &c) in s.iter().enumerate() {
        if c == b'/' {
            nslash -= 1;
            if nslash <= 0 {
                return if i == 0 { None } else { Some(i + 1) };
            }
        }
    }
    None
}

/// The name on a `diff --git` line when both sides agree (git's `git_header_name`).
fn git_header_name(p_value: i64, full: &[u8]) -> Option<Vec<u8>> {
    let line = full.get(11..)?; // after "diff --git "
    let llen = line.len();
    if line.first() == Some(&b'"') {
        let (mut first, after) = unquote_c_style(line)?;
        let cp = skip_tree_prefix(p_value, &first)?;
        first.drain(..cp);
        let mut second = after;
        while second < llen && git_isspace(line[second]) {
            second += 1;
        }
        if llen <= second {
            return None;
        }
        if line[second] == b'"' {
            let (sp, _) = unquote_c_style(&line[second..])?;
            let cp = skip_tree_prefix(p_value, &sp)?;
            if c_str(&sp[cp..]) != c_str(&first) {
                return None;
            }
            return Some(first);
        }
        let rest = &line[second..];
        let cp = skip_tree_prefix(p_value, rest)?;
        if rest.len() - cp != first.len() || rest[cp..] != first[..] {
            return None;
        }
        return Some(first);
    }
    let name = skip_tree_prefix(p_value, line)?;
    for second in name..llen {
        if line[second] == b'"' {
            let (sp, _) = unquote_c_style(&line[second..])?;
            let np = skip_tree_prefix(p_value, &sp)?;
            let len = sp.len() - np;
            if len < second - name
                && strncmp_eq(&sp[np..], &line[name..], len)
                && line.get(name + len).is_some_and(|&c| git_isspace(c))
            {
                return Some(sp[np..].to_vec());
            }
            return None;
        }
    }
    let nm = &line[name..];
    // `strchr(name, '\n')`: a NUL first means no line end.
    let line_len = c_str(nm).iter().position(|&c| c == b'\n')?;
    let mut len = 0usize;
    loop {
        let c = *nm.get(len)?;
        match c {
            b'\n' => return None,
            b'\t' | b' ' => {
                if len + 1 >= nm.len() {
                    return None;
                }
                if let Some(sec) = skip_tree_prefix(p_value, &nm[len + 1..line_len]) {
                    let second = &nm[len + 1 + sec..];
                    if second.get(len) == Some(&b'\n') && second[..len] == nm[..len] {
                        return Some(nm[..len].to_vec());
                    }
                }
            }
            _ => {}
        }
        len += 1;
    }
}

/// `strtoul(s, &end, base)` on the digits at the start of `s`; saturates like C.
fn strtoul(s: &[u8], radix: u32) -> (u64, usize) {
    let mut v: u64 = 0;
    let mut i = 0;
    while let Some(d) = s.get(i).and_then(|&c| (c as char).to_digit(radix)) {
        v = v.saturating_mul(u64::from(radix)).saturating_add(u64::from(d));
        i += 1;
    }
    (v, i)
}

/// C's `!strncmp(a, b, n)`: equal up to `n` bytes or up to a NUL both share.
fn strncmp_eq(a: &[u8], b: &[u8], n: usize) -> bool {
    for i in 0..n {
        let (x, y) = (a.get(i).copied().unwrap_or(0), b.get(i).copied().unwrap_or(0));
        if x != y {
            return false;
        }
        if x == 0 {
            return true;
        }
    }
    true
}

/// The bytes of `s` before its first NUL: what C string functions see of a buffer.
fn c_str(s: &[u8]) -> &[u8] {
    s.iter().position(|&c| c == 0).map_or(s, |n| &s[..n])
}

/// glibc's `strtoul(s, &end, 8)` as git calls it for modes: leading C-locale white space (which
/// may run past the end of the line), an optional sign, octal digits; returns the value git
/// stores in its `unsigned int` (truncated, as the C assignment does) and the index of `end`,
/// or `None` when no digits were read (`end` is `s` then).
fn strtoul_octal(s: &[u8]) -> Option<(u32, usize)> {
    let mut i = s.iter().position(|&c| !matches!(c, b' ' | b'\t'..=b'\r')).unwrap_or(s.len());
    let negative = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digits = s[i..].iter().take_while(|c| (b'0'..=b'7').contains(c)).count();
    if digits == 0 {
        return None;
    }
    // ULONG_MAX on overflow, whatever the sign (`unsigned long` is 64 bits on Linux).
    let v = s[i..i + digits]
        .iter()
        .try_fold(0u64, |v, &c| v.checked_mul(8)?.checked_add(u64::from(c - b'0')))
        .map_or(u64::MAX, |v| if negative { v.wrapping_neg() } else { v });
    Some((v as u32, i + digits))
}

/// git's `canon_mode`: a regular file keeps only its executable bit (0755 or 0644), a symlink and
/// a folder lose their permission bits, and every other type becomes a gitlink.
fn canon_mode(mode: u32) -> u32 {
    const S_IFMT: u32 = 0o170000;
    match mode & S_IFMT {
        0o100000 => 0o100000 | if mode & 0o100 != 0 { 0o755 } else { 0o644 },
        0o120000 => 0o120000,
        0o040000 => 0o040000,
        _ => 0o160000,
    }
}

/// git's `parse_mode_line`: `line` runs to the end of the patch (git hands `strtoul` a pointer
/// into the whole buffer), and the mode is canonicalised as git stores it.
fn parse_mode_line(line: &[u8], linenr: usize) -> Result<u32, PatchError> {
    match strtoul_octal(line) {
        Some((v, end)) if line.get(end).is_some_and(|&c| git_isspace(c)) => Ok(canon_mode(v)),
        _ => {
            let shown = c_str(line);
            let text = lossy(&shown[..linelen(shown)]);
            let text = text.strip_suffix('\n').unwrap_or(&text);
            Err(header_err(linenr, format!("invalid mode on line {linenr}: {text}")))
        }
    }
}

/// `parse_range`: returns the new offset or `None`.
fn parse_range(line: &[u8], offset: Option<usize>, expect: &[u8]) -> Option<(usize, u64, u64)> {
    let offset = offset?;
    if offset >= line.len() {
        return None;
    }
    let s = &line[offset..];
    if !s.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (p1, d) = strtoul(s, 10);
    let mut off = offset + d;
    let mut p2 = 1;
    if line.get(off) == Some(&b',') {
        let s2 = &line[off + 1..];
        if !s2.first().is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let (v, d2) = strtoul(s2, 10);
        p2 = v;
        off += d2 + 1;
    }
    if !line[off..].starts_with(expect) {
        return None;
    }
    Some((off + expect.len(), p1, p2))
}

struct FragHeader {
    end: usize,
    old_pos: u64,
    old_lines: u64,
    new_pos: u64,
    new_lines: u64,
}

/// `@@ -a,b +c,d @@`; the line must end in LF.
fn parse_fragment_header(line: &[u8]) -> Option<FragHeader> {
    if line.last() != Some(&b'\n') {
        return None;
    }
    let (off, old_pos, old_lines) = parse_range(line, Some(4), b" +")?;
    let (end, new_pos, new_lines) = parse_range(line, Some(off), b" @@")?;
    Some(FragHeader { end, old_pos, old_lines, new_pos, new_lines })
}

impl<'a> Parser<'a> {
    /// One file diff starting at `start`; `None` when no further header exists (git's -1).
    fn parse_chunk(&mut self, start: usize) -> Result<Option<(usize, FilePatch<'a>)>, PatchError> {
        let buf = self.buf;
        let Some((offset, hdrsize, mut patch)) = self.find_header(start)? else {
            return Ok(None);
        };
        let body = start + offset + hdrsize;
        let mut patchsize = self.parse_single_patch(body, &mut patch)?;
        if patchsize == 0 {
            let hd = body;
            let rest = &buf[hd.min(buf.len())..];
            let llen = linelen(rest);
            if &rest[..llen] == b"GIT binary patch\n" {
                self.linenr += 1;
                match self.parse_binary(hd + llen, &mut patch) {
                    Ok(used) => {
                        patch.is_binary = true;
                        patchsize = used + llen;
                    }
                    // git prints the error, stops reading the patch here and applies what
                    // came before.
                    Err(message) => {
                        self.stop_error = Some(message);
                        return Ok(None);
                    }
                }
            } else if llen >= 8 && &rest[llen - 8..llen] == b" differ\n" {
                for h in [&b"Binary files "[..], &b"Files "[..]] {
                    if h.len() < rest.len() && rest.starts_with(h) {
                        self.linenr += 1;
                        patch.is_binary = true;
                        patchsize = llen;
                        break;
                    }
                }
            }
            if !patch.is_binary && !metadata_changes(&patch) {
                return Err(PatchError::Garbage { line: self.linenr });
            }
        }
        Ok(Some((offset + hdrsize + patchsize, patch)))
    }

    /// Finds the next file header; returns (offset of header, header size, patch).
    fn find_header(
        &mut self,
        start: usize,
    ) -> Result<Option<(usize, usize, FilePatch<'a>)>, PatchError> {
        let buf = &self.buf[start..];
        let mut offset = 0usize;
        // One patch for the whole scan, as in git: a `diff --git` line without extended headers
        // is skipped but leaves its names and "not new, not deleted" behind for what follows.
        let mut patch = new_patch(self.linenr);
        while offset < buf.len() {
            let size = buf.len() - offset;
            let line = &buf[offset..];
            let len = linelen(line);
            if len == 0 {
                break;
            }
            if len < 6 {
                offset += len;
                self.linenr += 1;
                continue;
            }
            if line.starts_with(b"@@ -") && parse_fragment_header(&line[..len]).is_some() {
                return Err(PatchError::FragmentWithoutHeader {
                    line: self.linenr,
                    text: lossy(&line[..len - 1]),
                });
            }
            if size < len + 6 {
                break;
            }
            if line.starts_with(b"diff --git ") {
                patch.line = self.linenr;
                let hdr = self.parse_git_diff_header(line, len, &mut patch)?;
                if hdr <= len {
                    offset += len;
                    self.linenr += 1;
                    continue;
                }
                return Ok(Some((offset, hdr, patch)));
            }
            if !line.starts_with(b"--- ") || !line[len..].starts_with(b"+++ ") {
                offset += len;
                self.linenr += 1;
                continue;
            }
            let nextlen = linelen(&line[len..]);
            if size < nextlen + 14 || !line[len + nextlen..].starts_with(b"@@ -") {
                offset += len;
                self.linenr += 1;
                continue;
            }
            patch.line = self.linenr;
            self.parse_traditional_patch(&line[4..len], &line[len + 4..len + nextlen], &mut patch)?;
            self.linenr += 2;
            return Ok(Some((offset, len + nextlen, patch)));
        }
        Ok(None)
    }

    fn guess_p_value(&self, nameline: &[u8]) -> i64 {
        if is_dev_null(nameline) {
            return -1;
        }
        match find_name_traditional(nameline, None, 0) {
            None => -1,
            Some(name) if !name.contains(&b'/') => 0,
            Some(_) => -1,
        }
    }

    fn parse_traditional_patch(
        &mut self,
        first: &[u8],
        second: &[u8],
        patch: &mut FilePatch<'a>,
    ) -> Result<(), PatchError> {
        if !self.p_value_known {
            let mut p = self.guess_p_value(first);
            let q = self.guess_p_value(second);
            if p < 0 {
                p = q;
            }
            if 0 <= p && p == q {
                self.p_value = p;
                self.p_value_known = true;
            }
        }
        let pv = self.p_value;
        let name;
        if is_dev_null(first) {
            patch.is_new = Tri::Yes;
            patch.is_delete = Tri::No;
            name = find_name_traditional(second, None, pv);
            patch.new_name = name.clone();
        } else if is_dev_null(second) {
            patch.is_new = Tri::No;
            patch.is_delete = Tri::Yes;
            name = find_name_traditional(first, None, pv);
            patch.old_name = name.clone();
        } else {
            let first_name = find_name_traditional(first, None, pv);
            name = find_name_traditional(second, first_name.as_deref(), pv);
            if has_epoch_timestamp(first) {
                patch.is_new = Tri::Yes;
                patch.is_delete = Tri::No;
                patch.new_name = name.clone();
            } else if has_epoch_timestamp(second) {
                patch.is_new = Tri::No;
                patch.is_delete = Tri::Yes;
                patch.old_name = name.clone();
            } else {
                patch.old_name = name.clone();
                patch.new_name = name.clone();
            }
        }
        if name.is_none() {
            let l = self.linenr;
            return Err(header_err(l, format!("unable to find filename in patch at line {l}")));
        }
        Ok(())
    }

    /// Parses `diff --git` and its extended header lines; returns the header size in bytes.
    fn parse_git_diff_header(
        &mut self,
        buf: &'a [u8],
        first_len: usize,
        patch: &mut FilePatch<'a>,
    ) -> Result<usize, PatchError> {
        patch.is_new = Tri::No;
        patch.is_delete = Tri::No;
        let pv = self.p_value;
        // git copies this name with `xstrdup`: a NUL ends it.
        let def_name = git_header_name(pv, &buf[..first_len]).map(|n| c_str(&n).to_vec());
        let mut offset = first_len;
        self.linenr += 1;
        // git's `gitdiff_*` helpers report the line after `diff --git` (their state's copy of the
        // counter), whatever line they are on; only `check_header_line` has the current one.
        let hdr_linenr = self.linenr;
        let mut extension_linenr = 0usize;
        while offset < buf.len() {
            let line = &buf[offset..];
            let len = linelen(line);
            if len == 0 || line[len - 1] != b'\n' {
                break;
            }
            let linenr = self.linenr;
            let rest = |prefix: &[u8]| -> Option<&'a [u8]> {
                if line.starts_with(prefix) {
                    Some(&buf[offset + prefix.len()..offset + len])
                } else {
                    None
                }
            };
            // git's handlers get a pointer into the whole patch, not just this line.
            let tail = |prefix: &[u8]| -> Option<&'a [u8]> {
                line.starts_with(prefix).then(|| &buf[offset + prefix.len()..])
            };
            let mut done = false;
            if line.starts_with(b"@@ -") {
                done = true;
            } else if let Some(r) = rest(b"--- ") {
                verify_name(r, patch.is_new.truthy(), &mut patch.old_name, false, pv, hdr_linenr)?;
            } else if let Some(r) = rest(b"+++ ") {
                verify_name(
                    r,
                    patch.is_delete.truthy(),
                    &mut patch.new_name,
                    true,
                    pv,
                    hdr_linenr,
                )?;
            } else if let Some(r) = tail(b"old mode ") {
                patch.old_mode = parse_mode_line(r, hdr_linenr)?;
            } else if let Some(r) = tail(b"new mode ") {
                patch.new_mode = parse_mode_line(r, hdr_linenr)?;
            } else if let Some(r) = tail(b"deleted file mode ") {
                patch.is_delete = Tri::Yes;
                patch.old_name = def_name.clone();
                patch.old_mode = parse_mode_line(r, hdr_linenr)?;
            } else if let Some(r) = tail(b"new file mode ") {
                patch.is_new = Tri::Yes;
                patch.new_name = def_name.clone();
                patch.new_mode = parse_mode_line(r, hdr_linenr)?;
            } else if let Some(r) = rest(b"copy from ") {
                patch.is_copy = true;
                patch.old_name = find_name(r, None, (pv - 1).max(0), 0);
            } else if let Some(r) = rest(b"copy to ") {
                patch.is_copy = true;
                patch.new_name = find_name(r, None, (pv - 1).max(0), 0);
            } else if let Some(r) = rest(b"rename old ").or_else(|| rest(b"rename from ")) {
                patch.is_rename = true;
                patch.old_name = find_name(r, None, (pv - 1).max(0), 0);
            } else if let Some(r) = rest(b"rename new ").or_else(|| rest(b"rename to ")) {
                patch.is_rename = true;
                patch.new_name = find_name(r, None, (pv - 1).max(0), 0);
            } else if rest(b"similarity index ").is_some()
                || rest(b"dissimilarity index ").is_some()
            {
            } else if let Some(r) = tail(b"index ") {
                gitdiff_index(r, patch, hdr_linenr)?;
            } else {
                done = true;
            }
            // git's check_header_line runs after every recognised line.
            let extensions = usize::from(patch.is_delete == Tri::Yes)
                + usize::from(patch.is_new == Tri::Yes)
                + usize::from(patch.is_rename)
                + usize::from(patch.is_copy);
            {
                if extensions > 1 {
                    return Err(header_err(
                        linenr,
                        format!("inconsistent header lines {extension_linenr} and {linenr}"),
                    ));
                }
                if extensions > 0 && extension_linenr == 0 {
                    extension_linenr = linenr;
                }
            }
            if done {
                break;
            }
            offset += len;
            self.linenr += 1;
        }
        if patch.old_name.is_none() && patch.new_name.is_none() {
            let Some(d) = def_name else {
                let l = self.linenr;
                let s = if pv == 1 { "" } else { "s" };
                return Err(header_err(
                    l,
                    format!(
                        "git diff header lacks filename information when removing {pv} leading pathname component{s} (line {l})"
                    ),
                ));
            };
            patch.old_name = Some(d.clone());
            patch.new_name = Some(d);
        }
        if (patch.new_name.is_none() && !patch.is_delete.truthy())
            || (patch.old_name.is_none() && !patch.is_new.truthy())
        {
            let l = self.linenr;
            return Err(header_err(
                l,
                format!("git diff header lacks filename information (line {l})"),
            ));
        }
        Ok(offset)
    }

    /// Reads the hunks of one file diff; returns their total size in bytes.
    fn parse_single_patch(
        &mut self,
        start: usize,
        patch: &mut FilePatch<'a>,
    ) -> Result<usize, PatchError> {
        let buf = self.buf;
        let mut offset = 0usize;
        let (mut oldlines, mut newlines, mut context) = (0u64, 0u64, 0u64);
        loop {
            let pos = start + offset;
            let rest = buf.get(pos..).unwrap_or(&[]);
            if !(rest.len() > 4 && rest.starts_with(b"@@ -")) {
                break;
            }
            let frag_line = self.linenr;
            let Some((len, hunk)) = self.parse_fragment(rest, patch, frag_line)? else {
                return Err(PatchError::Corrupt { line: self.linenr });
            };
            oldlines = oldlines.saturating_add(hunk.old_lines);
            newlines = newlines.saturating_add(hunk.new_lines);
            context = context.saturating_add(hunk.leading + hunk.trailing);
            patch.hunks.push(hunk);
            offset += len;
        }
        let _ = context;
        let multi = patch.hunks.len() > 1;
        if patch.is_new == Tri::Unknown && (oldlines > 0 || multi) {
            patch.is_new = Tri::No;
        }
        if patch.is_delete == Tri::Unknown && (newlines > 0 || multi) {
            patch.is_delete = Tri::No;
        }
        if patch.is_new.is_yes() && oldlines > 0 {
            let n = lossy(patch.new_name.as_deref().unwrap_or_default());
            return Err(header_err(self.linenr, format!("new file {n} depends on old contents")));
        }
        if patch.is_delete.is_yes() && newlines > 0 {
            let n = lossy(patch.old_name.as_deref().unwrap_or_default());
            return Err(header_err(self.linenr, format!("deleted file {n} still has contents")));
        }
        Ok(offset)
    }

    /// One hunk. `Ok(None)` is git's -1 ("corrupt patch"); errors carry their own message.
    fn parse_fragment(
        &mut self,
        buf: &'a [u8],
        patch: &FilePatch<'a>,
        frag_line: usize,
    ) -> Result<Option<(usize, Hunk<'a>)>, PatchError> {
        let first = linelen(buf);
        let Some(h) = parse_fragment_header(&buf[..first]) else { return Ok(None) };
        let _ = h.end;
        // Signed counters: git's unsigned ones wrap and then never reach zero again.
        let mut oldlines = i128::from(h.old_lines);
        let mut newlines = i128::from(h.new_lines);
        let (mut leading, mut trailing) = (0u64, 0u64);
        let (mut added, mut deleted) = (0u64, 0u64);
        let mut offset = first;
        self.linenr += 1;
        while offset < buf.len() {
            if oldlines == 0 && newlines == 0 {
                break;
            }
            let line = &buf[offset..];
            let len = linelen(line);
            if len == 0 || line[len - 1] != b'\n' {
                return Ok(None);
            }
            match line[0] {
                b'\n' | b' ' => {
                    oldlines -= 1;
                    newlines -= 1;
                    if deleted == 0 && added == 0 {
                        leading += 1;
                    }
                    trailing += 1;
                }
                b'-' => {
                    deleted += 1;
                    oldlines -= 1;
                    trailing = 0;
                }
                b'+' => {
                    added += 1;
                    newlines -= 1;
                    trailing = 0;
                }
                b'\\' => {
                    if len < 12 || !line.starts_with(b"\\ ") {
                        return Ok(None);
                    }
                }
                _ => return Ok(None),
            }
            offset += len;
            self.linenr += 1;
        }
        if oldlines != 0 || newlines != 0 {
            return Ok(None);
        }
        if deleted == 0 && added == 0 {
            return Ok(None);
        }
        let rest = &buf[offset..];
        if 12 < rest.len() && rest.starts_with(b"\\ ") {
            offset += linelen(rest);
        }
        // git's per-fragment "new file depends on old contents" checks test counters that are
        // zero here, so only parse_single_patch's totals matter.
        let _ = patch;
        Ok(Some((
            offset,
            Hunk {
                old_pos: h.old_pos,
                old_lines: h.old_lines,
                new_pos: h.new_pos,
                new_lines: h.new_lines,
                leading,
                trailing,
                text: &buf[..offset],
                line: frag_line,
            },
        )))
    }

    /// Reads a `GIT binary patch` body (a forward hunk and an optional reverse one); returns its
    /// size, or git's first error message when it is unrecognised or corrupt (git then stops
    /// reading the patch).
    fn parse_binary(&mut self, start: usize, patch: &mut FilePatch<'a>) -> Result<usize, String> {
        let Some((used, forward)) = self.parse_binary_hunk(start)? else {
            return Err(format!("unrecognized binary patch at line {}", self.linenr - 1));
        };
        patch.binary.push(forward);
        if let Some((used2, reverse)) = self.parse_binary_hunk(start + used)? {
            patch.binary.push(reverse);
            return Ok(used + used2);
        }
        Ok(used)
    }

    /// git's `parse_binary_hunk`: `Ok(None)` when no `literal`/`delta` line starts here.
    fn parse_binary_hunk(&mut self, start: usize) -> Result<Option<(usize, BinaryHunk)>, String> {
        let buf = self.buf.get(start..).unwrap_or(&[]);
        let llen = linelen(buf);
        let (method, digits) = if let Some(r) = buf.strip_prefix(b"delta ") {
            (BinaryMethod::Delta, r)
        } else if let Some(r) = buf.strip_prefix(b"literal ") {
            (BinaryMethod::Literal, r)
        } else {
            return Ok(None);
        };
        let origlen = strtoul(digits, 10).0;
        let mut used = llen;
        self.linenr += 1;
        let mut pos = llen;
        let mut data = Vec::new();
        loop {
            let line = buf.get(pos..).unwrap_or(&[]);
            let l = linelen(line);
            used += l;
            self.linenr += 1;
            if l == 1 {
                break;
            }
            let corrupt = |linenr: usize| {
                // `%.*s` with `llen - 1`: the line without its last byte (all of it at the end).
                let shown = if l == 0 { &line[..0] } else { &line[..l - 1] };
                format!("corrupt binary patch at line {}: {}", linenr - 1, lossy(shown))
            };
            if l < 7 || !(l - 2).is_multiple_of(5) {
                return Err(corrupt(self.linenr));
            }
            let max_byte_length = (l - 2) / 5 * 4;
            let byte_length = match line[0] {
                c @ b'A'..=b'Z' => usize::from(c - b'A') + 1,
                c @ b'a'..=b'z' => usize::from(c - b'a') + 27,
                _ => return Err(corrupt(self.linenr)),
            };
            if max_byte_length < byte_length || byte_length + 4 <= max_byte_length {
                return Err(corrupt(self.linenr));
            }
            decode_85(&mut data, &line[1..], byte_length)?;
            pos += l;
        }
        let inflated = match inflate_it(&data, origlen) {
            Ok(v) => v,
            Err(Some(zlib_message)) => return Err(zlib_message),
            // git reports the hunk's blank terminating line, printed empty.
            Err(None) => return Err(format!("corrupt binary patch at line {}: ", self.linenr - 1)),
        };
        Ok(Some((used, BinaryHunk { method, data: inflated })))
    }
}

/// git's base85 alphabet position + 1 (0: not in the alphabet).
fn de85(c: u8) -> u32 {
    const EN85: &[u8; 85] =
        b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
    EN85.iter().position(|&e| e == c).map_or(0, |i| i as u32 + 1)
}

/// git's `decode_85`: `len` bytes from groups of five characters, with its error messages.
fn decode_85(out: &mut Vec<u8>, text: &[u8], mut len: usize) -> Result<(), String> {
    let mut i = 0;
    while len > 0 {
        let mut acc: u32 = 0;
        for _ in 0..4 {
            let ch = text.get(i).copied().unwrap_or(0);
            i += 1;
            let de = de85(ch);
            if de == 0 {
                return Err(format!("invalid base85 alphabet {}", lossy(&[ch])));
            }
            acc = acc * 85 + (de - 1);
        }
        let ch = text.get(i).copied().unwrap_or(0);
        i += 1;
        let de = de85(ch);
        if de == 0 {
            return Err(format!("invalid base85 alphabet {}", lossy(&[ch])));
        }
        let de = de - 1;
        match acc.checked_mul(85).and_then(|a| a.checked_add(de)) {
            Some(a) => acc = a,
            None => {
                return Err(format!("invalid base85 sequence {}", lossy(&text[i - 5..i])));
            }
        }
        let cnt = len.min(4);
        len -= cnt;
        out.extend_from_slice(&acc.to_be_bytes()[..cnt]);
    }
    Ok(())
}

/// Largest binary hunk refscore inflates: git would allocate whatever the `literal`/`delta` line
/// claims; a hunk claiming more is treated as corrupt here (no real submission comes close).
pub(crate) const MAX_BINARY_BYTES: u64 = 64 << 20;

/// git's `inflate_it`: the zlib stream must end and give exactly `size` bytes. `Err(Some(m))`
/// carries the message `git_inflate` prints first (zlib's wording), `Err(None)` a failure git
/// reports only as a corrupt hunk (truncated stream, wrong size).
fn inflate_it(data: &[u8], size: u64) -> Result<Vec<u8>, Option<String>> {
    // zlib's header checks, in zlib's order (miniz_oxide does not name them).
    if let [cmf, flg, rest @ ..] = data {
        let zerr = |m: &str| Err(Some(format!("inflate: data stream error ({m})")));
        if (u32::from(*cmf) << 8 | u32::from(*flg)) % 31 != 0 {
            return zerr("incorrect header check");
        }
        if cmf & 0x0f != 8 {
            return zerr("unknown compression method");
        }
        if (cmf >> 4) + 8 > 15 {
            return zerr("invalid window size");
        }
        if flg & 0x20 != 0 {
            return Err((rest.len() >= 4).then(|| "inflate: needs dictionary (no message)".into()));
        }
    }
    if size > MAX_BINARY_BYTES {
        return Err(None);
    }
    let size = usize::try_from(size).map_err(|_| None)?;
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
        | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
    let mut out = vec![0u8; data.len().saturating_mul(4).max(64).min(size)];
    let mut decomp = DecompressorOxide::default();
    let (mut input, mut out_pos) = (data, 0usize);
    loop {
        let (status, used, written) = decompress(&mut decomp, input, &mut out, out_pos, flags);
        out_pos += written;
        input = input.get(used..).unwrap_or(&[]);
        match status {
            TINFLStatus::Done if out_pos == size => {
                out.truncate(out_pos);
                return Ok(out);
            }
            TINFLStatus::HasMoreOutput if out.len() < size => {
                let grown = out.len().saturating_mul(2).min(size);
                out.resize(grown, 0);
            }
            TINFLStatus::Adler32Mismatch => {
                return Err(Some("inflate: data stream error (incorrect data check)".into()));
            }
            // zlib names the broken construct (`zdiag` finds which); with the output already
            // full, zlib may stop before it reaches the error.
            TINFLStatus::Failed => {
                let msg = super::zdiag::inflate_error(data, size as u64)
                    .or((out_pos < size).then_some("invalid deflate data"));
                return Err(msg.map(|m| format!("inflate: data stream error ({m})")));
            }
            _ => return Err(None),
        }
    }
}

/// git's `metadata_changes`: a header-only diff is still a change when it says so.
fn metadata_changes(p: &FilePatch<'_>) -> bool {
    p.is_rename
        || p.is_copy
        || p.is_new.is_yes()
        || p.is_delete.truthy()
        || (p.old_mode != 0 && p.new_mode != 0 && p.old_mode != p.new_mode)
}

fn verify_name(
    line: &[u8],
    isnull: bool,
    name: &mut Option<Vec<u8>>,
    new_side: bool,
    p_value: i64,
    linenr: usize,
) -> Result<(), PatchError> {
    if name.is_none() && !isnull {
        *name = find_name(line, None, p_value, TERM_TAB);
        return Ok(());
    }
    if let Some(n) = name {
        if isnull {
            return Err(header_err(
                linenr,
                format!(
                    "git apply: bad git-diff - expected /dev/null, got {} on line {linenr}",
                    lossy(n)
                ),
            ));
        }
        let another = find_name(line, None, p_value, TERM_TAB);
        if another.as_deref() != Some(&n[..]) {
            let side = if new_side { "new" } else { "old" };
            return Err(header_err(
                linenr,
                format!("git apply: bad git-diff - inconsistent {side} filename on line {linenr}"),
            ));
        }
    } else if !is_dev_null(line) {
        return Err(header_err(
            linenr,
            format!("git apply: bad git-diff - expected /dev/null on line {linenr}"),
        ));
    }
    Ok(())
}

/// git's `gitdiff_index`; `line` runs to the end of the patch and is read as C reads it
/// (`strchr`, `strchrnul`: up to the first NUL).
fn gitdiff_index(line: &[u8], patch: &mut FilePatch<'_>, linenr: usize) -> Result<(), PatchError> {
    const HEXSZ: usize = 40;
    let line = c_str(line);
    let Some(dot) = line.iter().position(|&c| c == b'.') else { return Ok(()) };
    if line.get(dot + 1) != Some(&b'.') || HEXSZ < dot {
        return Ok(());
    }
    let old = &line[..dot];
    let rest = &line[dot + 2..];
    let eol = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
    let sp = rest.iter().position(|&c| c == b' ').filter(|&s| s < eol).unwrap_or(eol);
    if HEXSZ < sp {
        return Ok(());
    }
    patch.old_oid_prefix = lossy(old);
    patch.new_oid_prefix = lossy(&rest[..sp]);
    if rest.get(sp) == Some(&b' ') {
        patch.old_mode = parse_mode_line(&rest[sp + 1..], linenr)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::linelen;

    #[test]
    fn linelen_matches_a_plain_scan() {
        let mut state = 0x9e37_79b9_u64;
        for len in 0..80 {
            for _ in 0..50 {
                let v: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        [b'a', b'\n', 0x8a, 0x0b, 0xff, 0x09][(state % 6) as usize]
                    })
                    .collect();
                let want = v.iter().position(|&c| c == b'\n').map_or(v.len(), |i| i + 1);
                assert_eq!(linelen(&v), want, "{v:?}");
            }
        }
    }
}
