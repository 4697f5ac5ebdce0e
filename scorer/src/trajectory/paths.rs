//! Repository-relative paths: the agent's sandbox root stripped (`/testbed`, `/workspace/<repo>`,
//! SWE-agent 0.x `/<repo>`, Harbor `/app`, or the `cwd` the log records), `./` and `..` resolved,
//! paths outside the repository dropped.

/// Where the repository is in the agent's sandbox, and the folder relative paths start from.
#[derive(Debug, Clone, Default)]
pub(crate) struct Paths {
    /// Absolute repository root, no trailing slash (`/testbed`).
    pub root: Option<String>,
    /// The agent's working folder relative to the root (`""` = the root itself).
    pub cwd: String,
}

/// Sandbox roots used when the log does not say where the repository is.
const KNOWN_ROOTS: [&str; 3] = ["/testbed", "/app", "/repo"];

impl Paths {
    pub(crate) fn with_root(root: Option<&str>) -> Paths {
        let root = root
            .map(|r| r.trim_end_matches('/').to_string())
            .filter(|r| !r.is_empty() && r.starts_with('/'));
        Paths { root, cwd: String::new() }
    }

    /// The path relative to the repository, or `None` when it is outside it (or empty).
    pub(crate) fn rel(&self, p: &str) -> Option<String> {
        let p = p.trim();
        if p.is_empty() {
            return None;
        }
        if p.starts_with('/') {
            let root = match &self.root {
                Some(r) => r.as_str(),
                None => KNOWN_ROOTS.iter().copied().find(|r| under(p, r).is_some())?,
            };
            let inner = under(p, root)?;
            normalise("", inner)
        } else {
            let p = p.strip_prefix("~/").map_or(p, |_| "");
            if p.is_empty() {
                return None;
            }
            normalise(&self.cwd, p)
        }
    }
}

/// `p` below the folder `root` (`Some("")` for the root itself).
fn under<'a>(p: &'a str, root: &str) -> Option<&'a str> {
    let rest = p.strip_prefix(root)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// Joins `rel` onto `base` and resolves `.`/`..`; `None` when it leaves the root or names it.
fn normalise(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_relative_paths_and_escapes() {
        let p = Paths::with_root(Some("/pydicom__pydicom/"));
        assert_eq!(p.rel("/pydicom__pydicom/pydicom/a.py").as_deref(), Some("pydicom/a.py"));
        assert_eq!(p.rel("./pydicom/../setup.py").as_deref(), Some("setup.py"));
        assert_eq!(p.rel("/tmp/x.py"), None);
        assert_eq!(p.rel("../x.py"), None);
        assert_eq!(p.rel("/pydicom__pydicom"), None);
        let unknown = Paths::default();
        assert_eq!(unknown.rel("/testbed/src/a.py").as_deref(), Some("src/a.py"));
        assert_eq!(unknown.rel("/home/u/a.py"), None);
        let sub = Paths { root: Some("/r".into()), cwd: "src".into() };
        assert_eq!(sub.rel("a.py").as_deref(), Some("src/a.py"));
        assert_eq!(sub.rel("../b.py").as_deref(), Some("b.py"));
    }
}
