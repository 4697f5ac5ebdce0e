//! `refscore combine` and `refscore score --combine`: combined pseudo-tasks (paper §4.2, see
//! `scorer::combine`) built from tasks of one repository of a bundle, scored directly or saved as a
//! bundle of their own that `score` reads like any other.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use scorer::bundle::{
    addressed_name, blob_file, bundle_hash, canonical_json, BundleIndex, Manifest, RepoSummary,
    TaskData, TaskSummary, BUNDLE_SCHEMA_VERSION,
};

use crate::bundle_dir::{BundleDir, LoadedTask};

use super::{Done, Outcome};

/// `ID,ID,...` split, empty pieces dropped.
pub(crate) fn split_ids(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The combined task of `ids` (tasks of `bundle`), named `id` or [`scorer::combine::default_id`],
/// with its base tree.
pub(crate) fn build(bundle: &BundleDir, ids: &[String], id: Option<&str>) -> Result<LoadedTask> {
    let mut tasks = Vec::new();
    for t in ids {
        if !bundle.has_task(t) {
            bail!("--combine {t}: not a task of the bundle {}", bundle.dir.display());
        }
        tasks.push(bundle.task_data(t)?);
    }
    let refs: Vec<&TaskData> = tasks.iter().collect();
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let id = id.map_or_else(|| scorer::combine::default_id(&names), str::to_string);
    let data = scorer::combine::combine(&id, &refs).context("cannot combine the tasks")?;
    bundle.load_data(data)
}

/// Writes a bundle holding the one combined task: its data, its repository's manifest (without
/// the pack) and the blobs it carries, hashed as `refscore import` does.
pub(crate) fn write_bundle(bundle: &BundleDir, task: &TaskData, out: &Path) -> Result<String> {
    crate::atomic::check_dir_target("--out", out)?;
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let src = bundle.manifest_of(&task.repo)?;
    let manifest = Manifest { pack: None, ..Manifest::clone(&src) };
    let manifest_bytes = canonical_json(&manifest);
    let manifest_name = addressed_name("repos", &task.repo, &manifest_bytes, "json");
    files.insert(manifest_name.clone(), manifest_bytes);
    let mut blob_bytes = 0;
    for need in &task.files {
        let name = blob_file(&need.blob);
        let bytes = bundle.read(&name)?;
        blob_bytes += bytes.len() as u64;
        files.insert(name, bytes);
    }
    let data_bytes = canonical_json(task);
    let data_name = addressed_name("tasks", &task.id, &data_bytes, "json");
    files.insert(data_name.clone(), data_bytes);
    let repo_row = bundle
        .index
        .repos
        .iter()
        .find(|r| r.name == task.repo)
        .with_context(|| format!("{}: no repository {}", bundle.dir.display(), task.repo))?;
    let mut index = BundleIndex {
        schema_version: BUNDLE_SCHEMA_VERSION,
        bundle_hash: String::new(),
        tasks: vec![TaskSummary {
            id: task.id.clone(),
            repo: task.repo.clone(),
            tests: task.test.name.clone(),
            methods: u32::try_from(task.methods.len()).unwrap_or(u32::MAX),
            data: data_name,
            lazy: task.instructions.lazy.clone(),
            blobs: u32::try_from(task.files.len()).unwrap_or(u32::MAX),
            blob_bytes,
        }],
        repos: vec![RepoSummary { manifest: manifest_name, ..repo_row.clone() }],
        task_pack: None,
    };
    let index_input = index.hash_input();
    index.bundle_hash = bundle_hash(
        files
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_slice()))
            .chain(std::iter::once(("index.json", index_input.as_slice()))),
    );
    files.insert("index.json".to_string(), canonical_json(&index));
    crate::commands::import::write_out(out, &files)?;
    Ok(index.bundle_hash)
}

/// `refscore combine`: writes the combined task's bundle and names it.
pub(crate) fn command(
    tasks: &std::path::Path,
    ids: &str,
    id: Option<&str>,
    out: &std::path::Path,
) -> Outcome {
    let bundle = BundleDir::open(tasks)?;
    let task = build(&bundle, &split_ids(ids), id)?;
    let hash = write_bundle(&bundle, &task.data, out)?;
    let text = format!(
        "bundle {hash} written to {}\n  task {} combines {}\n",
        out.display(),
        task.data.id,
        task.data
            .combined
            .iter()
            .flat_map(|c| &c.parts)
            .map(|p| p.id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
    Ok(Done::All)
}
