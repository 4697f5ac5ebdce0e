//! Path safety as `git apply` checks it (git's `verify_path` with the Linux defaults:
//! `core.protectNTFS` on, `core.protectHFS` off), plus the tree's own path rules.

use crate::tree::RepoPath;

const S_IFMT: u32 = 0o170000;
const S_IFLNK: u32 = 0o120000;

fn is_dir_sep(c: u8) -> bool {
    c == b'/'
}

/// `.git`, `.git.`, `.git ` and `git~1` components (any case) are refused (git's `is_ntfs_dotgit`).
fn is_ntfs_dotgit(s: &[u8]) -> bool {
    let lower = |i: usize| s.get(i).map(u8::to_ascii_lowercase);
    let mut i;
    if s.first() == Some(&b'.') {
        if lower(1) != Some(b'g') || lower(2) != Some(b'i') || lower(3) != Some(b't') {
            return false;
        }
        i = 4;
    } else if lower(0) == Some(b'g') {
        if lower(1) != Some(b'i')
            || lower(2) != Some(b't')
            || s.get(3) != Some(&b'~')
            || s.get(4) != Some(&b'1')
        {
            return false;
        }
        i = 5;
    } else {
        return false;
    }
    loop {
        match s.get(i) {
            None | Some(b'/') | Some(b'\\') => return true,
            Some(b'.') | Some(b' ') => i += 1,
            Some(_) => return false,
        }
    }
}

/// `rest` follows a component's leading `.`.
fn verify_dotfile(rest: &[u8], mode: u32) -> bool {
    match rest.first() {
        None => false,
        Some(&c) if is_dir_sep(c) => false,
        Some(b'g') | Some(b'G') => {
            let l = |i: usize| rest.get(i).map(u8::to_ascii_lowercase);
            if l(1) != Some(b'i') || l(2) != Some(b't') {
                return true;
            }
            match rest.get(3) {
                None => return false,
                Some(&c) if is_dir_sep(c) => return false,
                _ => {}
            }
            if mode & S_IFMT == S_IFLNK {
                let r = &rest[3..];
                if r.len() >= 7 && r[..7].eq_ignore_ascii_case(b"modules") {
                    match r.get(7) {
                        None => return false,
                        Some(&c) if is_dir_sep(c) => return false,
                        _ => {}
                    }
                }
            }
            true
        }
        Some(b'.') => !matches!(rest.get(1), None | Some(b'/')),
        _ => true,
    }
}

/// git's `verify_path` for a file (never a directory): no empty, `.`, `..` or `.git` component,
/// no leading or trailing slash.
pub(crate) fn verify_path(path: &[u8], mode: u32) -> bool {
    let mut i = 0usize;
    // at the start of a component
    loop {
        if is_ntfs_dotgit(&path[i..]) {
            return false;
        }
        let c = path.get(i).copied();
        i += 1;
        match c {
            None => return false, // empty component or trailing slash
            Some(b'.') if !verify_dotfile(&path[i..], mode) => return false,
            Some(c) if is_dir_sep(c) => return false,
            _ => {}
        }
        // rest of the component
        loop {
            match path.get(i).copied() {
                None => return true,
                Some(c) if is_dir_sep(c) => {
                    i += 1;
                    break;
                }
                Some(b'\\') => {
                    if is_ntfs_dotgit(&path[i + 1..]) {
                        return false;
                    }
                    i += 1;
                }
                Some(_) => i += 1,
            }
        }
    }
}

/// The tree path for a name git accepted, or why the tree cannot hold it.
pub(crate) fn to_repo_path(name: &[u8]) -> Result<RepoPath, String> {
    let s = std::str::from_utf8(name)
        .map_err(|_| format!("path '{}' is not valid UTF-8", String::from_utf8_lossy(name)))?;
    RepoPath::new(s).map_err(|e| e.to_string())
}

/// Looks a name up without trusting it: `None` when it is not a plain tree path.
pub(crate) fn lookup_path(name: &[u8]) -> Option<RepoPath> {
    to_repo_path(name).ok()
}

#[cfg(test)]
mod tests {
    use super::verify_path;

    #[test]
    fn git_path_rules() {
        let m = 0o100644;
        assert!(verify_path(b"a/b.py", m));
        assert!(verify_path(b".github/x", m));
        assert!(verify_path(b"a/.gitignore", m));
        assert!(!verify_path(b"/etc/passwd", m));
        assert!(!verify_path(b"../x", m));
        assert!(!verify_path(b"a/../x", m));
        assert!(!verify_path(b"a/./x", m));
        assert!(!verify_path(b".git/config", m));
        assert!(!verify_path(b"sub/.GIT/config", m));
        assert!(!verify_path(b"git~1/config", m));
        assert!(!verify_path(b".git. /x", m));
        assert!(!verify_path(b"a/", m));
        assert!(!verify_path(b"", m));
        assert!(!verify_path(b".gitmodules", 0o120000));
        assert!(verify_path(b".gitmodules", m));
    }
}
