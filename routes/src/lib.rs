//! Every in-app URL in one place: the typed [`Route`] → path and query ([`Route::path`],
//! [`Route::href`]), its inverse ([`Route::parse`]), and the one percent-encoder ([`encode`]) that
//! every path segment and query value goes through, so a task or run id holding `/`, `#`, `?`,
//! `%`, spaces or non-ASCII text makes a link that leads back to the same id.
//!
//! The app's router patterns (`app/src/app.rs`) match these paths; its parameters are decoded by
//! the router (`decodeURIComponent`), which inverts [`encode`] exactly. A crate of its own, without
//! dependencies, so the trajectory worker's rendered links (`trajworker/src/render.rs`) use the same
//! routes as the app; the app adds the site's base path (`app/src/routes.rs`).

use std::fmt::Write as _;

/// Where an encoded text goes: a path segment must escape `/`; a query value keeps `/` and `,`
/// readable (`?file=pkg/cli.py`, `?runs=A,B`), which RFC 3986 allows there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Segment,
    Query,
}

/// Percent-encodes `s` for `part`: every byte but the unreserved ones (`A-Z a-z 0-9 - _ . ~`),
/// plus `/` and `,` in a query value, becomes `%XX` (so `&`, `=`, `+`, `#`, `?`, `%` and spaces
/// always do).
pub fn encode(s: &str, part: Part) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'_' | b'.' | b'~')
            || (part == Part::Query && matches!(b, b'/' | b','));
        if keep {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Decodes `%XX` escapes (a malformed escape stays as written; bytes that are not UTF-8 become
/// U+FFFD). With `plus`, a `+` is a space, as in a form-encoded query.
pub fn decode(s: &str, plus: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let hex = |k: usize| bytes.get(k).and_then(|c| char::from(*c).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', _, _) if plus => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The decoded value of `key` in a `?a=b&c=d` query string (`location.search`).
pub fn query_value(search: &str, key: &str) -> Option<String> {
    Query::parse(search).get(key).map(str::to_string)
}

/// A query string as ordered `key=value` pairs (decoded).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    pub fn new() -> Query {
        Query(Vec::new())
    }

    /// Adds `key=value`; an empty value is left out (the page's default).
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Query {
        let value = value.into();
        if !value.is_empty() {
            self.0.push((key.to_string(), value));
        }
        self
    }

    /// Sets `key` to `value`, replacing its pairs (an empty value removes them).
    pub fn set(mut self, key: &str, value: impl Into<String>) -> Query {
        self.0.retain(|(k, _)| k != key);
        self.with(key, value)
    }

    /// The first value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// Parses `?a=b&c=d` (the `?` optional).
    pub fn parse(search: &str) -> Query {
        let s = search.strip_prefix('?').unwrap_or(search);
        Query(
            s.split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(k, true), decode(v, true))
                })
                .collect(),
        )
    }

    /// `?a=b&c=d`, or empty when there are no pairs.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.0.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.push_str(&encode(k, Part::Query));
            out.push('=');
            out.push_str(&encode(v, Part::Query));
        }
        out
    }
}

/// A run's address: a run stored in this browser (`/runs/<id>`) or a report the leaderboard
/// publishes (`/leaderboard/<entry>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRef {
    pub id: String,
    pub published: bool,
}

impl RunRef {
    pub fn stored(id: impl Into<String>) -> RunRef {
        RunRef { id: id.into(), published: false }
    }

    pub fn published(id: impl Into<String>) -> RunRef {
        RunRef { id: id.into(), published: true }
    }

    fn prefix(&self) -> String {
        let root = if self.published { "leaderboard" } else { "runs" };
        format!("/{root}/{}", encode(&self.id, Part::Segment))
    }
}

/// Every page of the app, with what its URL names (the query carries filters and selections).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// `/`: sort and filters (`sort`, `dir`, `set`, `harness`, `family`, `data`).
    Leaderboard(Query),
    /// `/tasks`: `bundle`, `repo`, `q`.
    Tasks(Query),
    /// `/tasks/<id>`: `bundle`, `file`.
    Task { id: String, query: Query },
    /// `/tasks/<id>/score`.
    TaskScore { id: String },
    /// `/score`.
    Score,
    /// `/runs`.
    Runs,
    /// `/runs/<run>` or `/leaderboard/<entry>`: `filter`.
    Run { run: RunRef, query: Query },
    /// `/runs/<run>/<instance>` or `/leaderboard/<entry>/<instance>`: `n`, `test`.
    Result { run: RunRef, instance: String, query: Query },
    /// `/runs/<run>/<instance>/trajectory`.
    RunTrajectory { run: String, instance: String },
    /// `/trajectory`: `step`.
    Trajectory(Query),
    /// `/about`.
    About,
    /// `/compare`: `runs` (comma-separated hashes), `repo`, `set`, `only`.
    Compare(Query),
    /// `/combine`: `repo`.
    Combine(Query),
}

impl Route {
    /// The route's path and query, from the app's root (no base path).
    pub fn path(&self) -> String {
        let seg = |s: &str| encode(s, Part::Segment);
        let (path, query) = match self {
            Route::Leaderboard(q) => ("/".to_string(), Some(q)),
            Route::Tasks(q) => ("/tasks".to_string(), Some(q)),
            Route::Task { id, query } => (format!("/tasks/{}", seg(id)), Some(query)),
            Route::TaskScore { id } => (format!("/tasks/{}/score", seg(id)), None),
            Route::Score => ("/score".to_string(), None),
            Route::Runs => ("/runs".to_string(), None),
            Route::Run { run, query } => (run.prefix(), Some(query)),
            Route::Result { run, instance, query } => {
                (format!("{}/{}", run.prefix(), seg(instance)), Some(query))
            }
            Route::RunTrajectory { run, instance } => {
                (format!("/runs/{}/{}/trajectory", seg(run), seg(instance)), None)
            }
            Route::Trajectory(q) => ("/trajectory".to_string(), Some(q)),
            Route::About => ("/about".to_string(), None),
            Route::Compare(q) => ("/compare".to_string(), Some(q)),
            Route::Combine(q) => ("/combine".to_string(), Some(q)),
        };
        match query {
            Some(q) => path + &q.render(),
            None => path,
        }
    }

    /// The route a path (from the app's root, with an optional query; a `#fragment` is ignored)
    /// names; `None` for a path no page serves.
    pub fn parse(url: &str) -> Option<Route> {
        let url = url.split_once('#').map_or(url, |(u, _)| u);
        let (path, search) = url.split_once('?').unwrap_or((url, ""));
        let q = Query::parse(search);
        let rest = path.strip_prefix('/')?;
        let segs: Vec<String> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.trim_end_matches('/').split('/').map(|s| decode(s, false)).collect()
        };
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let run = |root: &str, id: &str| RunRef { id: id.to_string(), published: root != "runs" };
        Some(match segs.as_slice() {
            [] => Route::Leaderboard(q),
            ["tasks"] => Route::Tasks(q),
            ["tasks", id] => Route::Task { id: id.to_string(), query: q },
            ["tasks", id, "score"] => Route::TaskScore { id: id.to_string() },
            ["score"] => Route::Score,
            ["runs"] => Route::Runs,
            [root @ ("runs" | "leaderboard"), id] => Route::Run { run: run(root, id), query: q },
            [root @ ("runs" | "leaderboard"), id, instance] => {
                Route::Result { run: run(root, id), instance: instance.to_string(), query: q }
            }
            ["runs", id, instance, "trajectory"] => {
                Route::RunTrajectory { run: id.to_string(), instance: instance.to_string() }
            }
            ["trajectory"] => Route::Trajectory(q),
            ["about"] => Route::About,
            ["compare"] => Route::Compare(q),
            ["combine"] => Route::Combine(q),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // `.` and `..` alone are left out: a browser resolves them as dot-segments even escaped.
    const HOSTILE: &[&str] = &[
        "plain-id",
        "a/b",
        "a#b",
        "a?b=c&d",
        "100%",
        "%41",
        "a b+c",
        "é ünïcödé 字",
        "trajectory",
        "a,b;c:d@e",
    ];

    fn q(pairs: &[(&str, &str)]) -> Query {
        pairs.iter().fold(Query::new(), |q, (k, v)| q.with(k, *v))
    }

    #[test]
    fn every_route_round_trips_with_hostile_ids() {
        for &id in HOSTILE {
            let query = q(&[("file", id), ("n", "2"), (id, "x")]);
            let routes = [
                Route::Leaderboard(q(&[("sort", "agent"), ("family", id)])),
                Route::Tasks(q(&[("bundle", id), ("repo", id), ("q", id)])),
                Route::Task { id: id.into(), query: query.clone() },
                Route::TaskScore { id: id.into() },
                Route::Score,
                Route::Runs,
                Route::Run { run: RunRef::stored(id), query: q(&[("filter", "resolved")]) },
                Route::Run { run: RunRef::published(id), query: Query::new() },
                Route::Result {
                    run: RunRef::stored(id),
                    instance: id.into(),
                    query: query.clone(),
                },
                Route::Result { run: RunRef::published(id), instance: id.into(), query },
                Route::RunTrajectory { run: id.into(), instance: id.into() },
                Route::Trajectory(q(&[("step", "3")])),
                Route::About,
                Route::Compare(q(&[("runs", "ab,cd"), ("repo", id)])),
                Route::Combine(q(&[("repo", id)])),
            ];
            for r in routes {
                let path = r.path();
                assert!(!path.contains('#') && !path.contains(' '), "{path}");
                assert!(path.is_ascii(), "{path}");
                assert_eq!(Route::parse(&path), Some(r.clone()), "{path}");
                // A fragment does not change the route.
                assert_eq!(Route::parse(&format!("{path}#L3")), Some(r), "{path}");
            }
        }
    }

    #[test]
    fn segments_escape_slash_and_queries_keep_it_readable() {
        assert_eq!(encode("a b&c/é", Part::Segment), "a%20b%26c%2F%C3%A9");
        assert_eq!(encode("a b&c/é", Part::Query), "a%20b%26c/%C3%A9");
        assert_eq!(
            Route::Task { id: "t".into(), query: q(&[("file", "pkg/cli.py")]) }.path(),
            "/tasks/t?file=pkg/cli.py"
        );
        assert_eq!(Route::Compare(q(&[("runs", "aa,bb")])).path(), "/compare?runs=aa,bb");
        assert_eq!(
            Route::Result { run: RunRef::stored("r/1"), instance: "x?y".into(), query: q(&[]) }
                .path(),
            "/runs/r%2F1/x%3Fy"
        );
        assert_eq!(Route::Leaderboard(Query::new()).path(), "/");
    }

    #[test]
    fn decoding_is_lenient_and_reads_form_pluses_in_queries() {
        assert_eq!(decode("100%", false), "100%");
        assert_eq!(decode("%zz%4", false), "%zz%4");
        assert_eq!(decode("a+b", false), "a+b");
        assert_eq!(decode("a+b", true), "a b");
        assert_eq!(decode("%FF", false), "\u{FFFD}");
        assert_eq!(query_value("?bundle=my+b%C3%A9&x", "bundle").as_deref(), Some("my bé"));
        assert_eq!(query_value("?x", "x").as_deref(), Some(""));
        assert_eq!(query_value("", "x"), None);
        let q = Query::parse("?n=2&test=a&test=b").set("test", "c d");
        assert_eq!(q.render(), "?n=2&test=c%20d");
        assert_eq!(q.set("test", "").render(), "?n=2");
    }

    #[test]
    fn unknown_paths_name_no_route() {
        for bad in
            ["", "tasks", "/nope", "/tasks/a/b", "/runs/a/b/c", "/leaderboard/a/b/trajectory"]
        {
            assert_eq!(Route::parse(bad), None, "{bad}");
        }
        assert_eq!(Route::parse("/runs/"), Some(Route::Runs));
    }
}
