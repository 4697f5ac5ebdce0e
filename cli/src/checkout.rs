//! Reading an official-layout RefactorBench checkout (or `tasks/demo`, which has the same layout):
//! `problems/`, `tests/`, `scripts/{base,lazy,descriptive}_mapping.py`, `repositories/`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use scorer::bundle::{is_valid_task_id, mapping};
use scorer::tree::{git_blob_id, FileMode, RepoPath};

/// The instruction kinds, in the order the bundle stores them.
pub(crate) const KINDS: [&str; 3] = ["lazy", "base", "descriptive"];

/// The folders an official checkout has.
const FOLDERS: [&str; 4] = ["problems", "tests", "scripts", "repositories"];

/// One task as the mappings describe it (paths relative to the checkout).
#[derive(Debug, Clone)]
pub(crate) struct TaskRef {
    pub id: String,
    pub repo: String,
    /// `tests/<repo>/<name>`.
    pub test_rel: String,
    pub test_name: String,
    /// lazy, base, descriptive instruction files.
    pub instructions: [String; 3],
}

/// Validates the layout and reads the three mappings into tasks, sorted by (repo, id).
pub(crate) fn read_tasks(root: &Path) -> Result<Vec<TaskRef>> {
    if !root.is_dir() {
        bail!("checkout {}: not a folder", root.display());
    }
    for folder in FOLDERS {
        if !root.join(folder).is_dir() {
            bail!(
                "checkout {}: missing folder {folder}/ (a RefactorBench checkout has problems/, tests/, \
                 scripts/ and repositories/)",
                root.display()
            );
        }
    }
    let mut maps: BTreeMap<&str, BTreeMap<String, String>> = BTreeMap::new();
    for kind in KINDS {
        let rel = format!("scripts/{kind}_mapping.py");
        let path = root.join(&rel);
        if !path.is_file() {
            bail!("checkout {}: missing file {rel}", root.display());
        }
        let text = read_text(&path, &rel)?;
        let mut map = BTreeMap::new();
        for (k, v) in mapping::parse_mapping(&text, &rel)? {
            let test = mapping::checkout_path(&k, &rel)?;
            let task = mapping::checkout_path(&v, &rel)?;
            map.insert(test, task);
        }
        maps.insert(kind, map);
    }
    let base = &maps["base"];
    if base.is_empty() {
        bail!("scripts/base_mapping.py: file_mapping is empty");
    }
    let mut tasks = Vec::new();
    let mut ids = BTreeSet::new();
    for (test_rel, base_task) in base {
        let parts: Vec<&str> = test_rel.split('/').collect();
        let [tests, repo, test_name] = parts[..] else {
            bail!("scripts/base_mapping.py: test file {test_rel} is not tests/<repo>/<file>");
        };
        if tests != "tests" {
            bail!("scripts/base_mapping.py: test file {test_rel} is not tests/<repo>/<file>");
        }
        let file_name = base_task.rsplit('/').next().unwrap_or(base_task);
        let Some(id) = file_name.strip_suffix("-task.txt") else {
            bail!("scripts/base_mapping.py: task file {base_task} does not end in -task.txt");
        };
        if !is_valid_task_id(id) {
            bail!("scripts/base_mapping.py: task id {id:?} is not a safe file name");
        }
        if !ids.insert(id.to_string()) {
            bail!("scripts/base_mapping.py: task id {id} appears twice");
        }
        let mut instructions: [String; 3] = Default::default();
        for (slot, kind) in instructions.iter_mut().zip(KINDS) {
            let Some(rel) = maps[kind].get(test_rel) else {
                bail!("scripts/{kind}_mapping.py: no entry for {test_rel} (named in scripts/base_mapping.py)");
            };
            if !root.join(rel).is_file() {
                bail!(
                    "scripts/{kind}_mapping.py names {rel}, which does not exist in the checkout"
                );
            }
            *slot = rel.clone();
        }
        if !root.join(test_rel).is_file() {
            bail!("scripts/base_mapping.py names {test_rel}, which does not exist in the checkout");
        }
        if !root.join("repositories").join(repo).is_dir() {
            bail!("task {id} needs repositories/{repo}/, which does not exist in the checkout");
        }
        tasks.push(TaskRef {
            id: id.to_string(),
            repo: repo.to_string(),
            test_rel: test_rel.clone(),
            test_name: test_name.to_string(),
            instructions,
        });
    }
    tasks.sort_by(|a, b| (&a.repo, &a.id).cmp(&(&b.repo, &b.id)));
    Ok(tasks)
}

/// Reads a UTF-8 text file, naming it (checkout-relative) in errors.
pub(crate) fn read_text(path: &Path, rel: &str) -> Result<String> {
    let bytes = crate::fsread::read_file(path, crate::fsread::MAX_INPUT_BYTES)
        .with_context(|| format!("reading {rel}"))?;
    String::from_utf8(bytes).with_context(|| format!("{rel} is not UTF-8"))
}

/// One file of a base repository.
#[derive(Debug, Clone)]
pub(crate) struct RepoFile {
    pub abs: PathBuf,
    pub mode: FileMode,
    pub blob: String,
    pub size: u64,
}

/// Lists every file below a repository folder, as `git add -A -f` would track it: regular files,
/// executables and symlinks (not followed), no `.git` folders, no empty folders.
pub(crate) fn list_files(repo_root: &Path, repo: &str) -> Result<Vec<(RepoPath, PathBuf)>> {
    let mut out = Vec::new();
    let mut stack = vec![(repo_root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        let entries =
            fs::read_dir(&dir).with_context(|| format!("reading repositories/{repo}/{rel}"))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("reading repositories/{repo}/{rel}"))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                bail!(
                    "repositories/{repo}/{rel}: a file name is not UTF-8: {:?}",
                    entry.file_name()
                );
            };
            if name == ".git" {
                continue;
            }
            let child = if rel.is_empty() { name.to_string() } else { format!("{rel}/{name}") };
            let kind = entry
                .file_type()
                .with_context(|| format!("reading repositories/{repo}/{child}"))?;
            if kind.is_dir() {
                stack.push((entry.path(), child));
            } else if !kind.is_file() && !kind.is_symlink() {
                // git tracks files, executables and links; a FIFO would block the reader.
                bail!(
                    "repositories/{repo}/{child}: not a file, folder or symlink (a FIFO, socket or \
                     device); a repository holds none; refused"
                );
            } else {
                let path = RepoPath::new(&child)
                    .with_context(|| format!("repositories/{repo}/{child}: unusable path"))?;
                out.push((path, entry.path()));
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Hashes one file as git would store it (symlinks: the link target, not followed).
pub(crate) fn hash_file(abs: &Path, rel: &str) -> Result<RepoFile> {
    let meta = fs::symlink_metadata(abs).with_context(|| format!("reading {rel}"))?;
    let mode = if meta.file_type().is_symlink() {
        FileMode::Symlink
    } else if is_executable(&meta) {
        FileMode::Executable
    } else {
        FileMode::Regular
    };
    let bytes = blob_bytes(abs, mode, rel)?;
    Ok(RepoFile {
        abs: abs.to_path_buf(),
        mode,
        blob: git_blob_id(&bytes),
        size: bytes.len() as u64,
    })
}

/// The bytes git stores for a file: its content, or a symlink's target.
pub(crate) fn blob_bytes(abs: &Path, mode: FileMode, rel: &str) -> Result<Vec<u8>> {
    if mode == FileMode::Symlink {
        let target = fs::read_link(abs).with_context(|| format!("reading link {rel}"))?;
        let Some(t) = target.to_str() else { bail!("{rel}: symlink target is not UTF-8") };
        Ok(t.as_bytes().to_vec())
    } else {
        crate::fsread::read_file(abs, crate::fsread::MAX_INPUT_BYTES)
            .with_context(|| format!("reading {rel}"))
    }
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

/// Upstream projects of the nine official repositories; any other repository is named after its folder.
const UPSTREAM: &[(&str, &str, &str)] = &[
    ("ansible_refactor", "ansible", "https://github.com/ansible/ansible"),
    ("celery_refactor", "celery", "https://github.com/celery/celery"),
    ("django_refactor", "django", "https://github.com/django/django"),
    ("fastapi_refactor", "fastapi", "https://github.com/fastapi/fastapi"),
    ("flask_refactor", "flask", "https://github.com/pallets/flask"),
    ("requests_refactor", "requests", "https://github.com/psf/requests"),
    ("salt_refactor", "salt", "https://github.com/saltstack/salt"),
    ("scrapy_refactor", "scrapy", "https://github.com/scrapy/scrapy"),
    ("tornado_refactor", "tornado", "https://github.com/tornadoweb/tornado"),
];

/// The attribution of a repository: upstream name, and its licence file's title and copyright line.
pub(crate) fn attribution(
    repo: &str,
    files: &BTreeMap<RepoPath, RepoFile>,
) -> Result<scorer::bundle::Attribution> {
    let known = UPSTREAM.iter().find(|(name, _, _)| *name == repo);
    let upstream = match known {
        Some((_, up, _)) => up.to_string(),
        None => repo.strip_suffix("_refactor").unwrap_or(repo).to_string(),
    };
    let licence = files.iter().find(|(p, f)| {
        let upper = p.as_str().to_ascii_uppercase();
        !p.as_str().contains('/')
            && f.mode != FileMode::Symlink
            && ["LICENSE", "LICENCE", "COPYING"].iter().any(|l| upper.starts_with(l))
    });
    let (mut license, mut copyright, mut spdx) = (None, None, None);
    if let Some((path, file)) = licence {
        let bytes =
            fs::read(&file.abs).with_context(|| format!("reading repositories/{repo}/{path}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let lines = || text.lines().map(str::trim).filter(|l| !l.is_empty());
        license = lines().next().map(str::to_string);
        copyright = lines().find(|l| is_copyright_line(l)).map(str::to_string);
        spdx = spdx_id(&text).map(str::to_string);
    }
    Ok(scorer::bundle::Attribution {
        upstream,
        url: known.map(|(_, _, url)| url.to_string()),
        license_file: licence.map(|(p, _)| p.to_string()),
        license,
        spdx,
        copyright,
    })
}

/// A line that states who holds the copyright: `Copyright (c) 2018 Name`, `© 2026 Name`; not the
/// Apache text's "copyright notice that ..." nor the GPL's own notice.
fn is_copyright_line(line: &str) -> bool {
    let stated = line.starts_with('©')
        || (line.starts_with("Copyright")
            && (line.contains(|c: char| c.is_ascii_digit())
                || line.contains("(c)")
                || line.contains("(C)")
                || line.contains('©')));
    // The GPL's "Copyright (C) <year>  <name of author>" template and its own notice are not holders.
    stated && !line.contains("Free Software Foundation") && !line.contains("<year>")
}

/// Recognises the common licence texts by their wording.
fn spdx_id(text: &str) -> Option<&'static str> {
    let t: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.contains("Apache License") && t.contains("Version 2.0") {
        Some("Apache-2.0")
    } else if t.contains("GNU GENERAL PUBLIC LICENSE") && t.contains("Version 3") {
        Some("GPL-3.0")
    } else if t.contains("GNU GENERAL PUBLIC LICENSE") && t.contains("Version 2") {
        Some("GPL-2.0")
    } else if t.contains("Permission is hereby granted, free of charge") {
        Some("MIT")
    } else if t.contains("Redistribution and use in source and binary forms") {
        if t.contains("Neither the name") || t.contains("names of its contributors") {
            Some("BSD-3-Clause")
        } else {
            Some("BSD-2-Clause")
        }
    } else {
        None
    }
}
