//! The worker's side: reads logs with `scorer::trajectory`, keeps them as documents, and answers
//! summaries, pages of steps and run rates. Nothing here is linked into the app.

use std::collections::{BTreeMap, HashMap};

use scorer::trajectory::analysis::{analyse, Analysis, TaskContext};
use scorer::trajectory::failure::{self, Detection, RunEntry};
use scorer::trajectory::{EditOp, EditStatus, LineRange, Step, Trajectory};

use crate::*;

/// Marks beyond this many are counted in [`Timeline::more`], not sent.
const MARK_CAP: usize = 20_000;

struct Read {
    t: Trajectory,
    a: Analysis,
    /// Failure-mode ids per step index.
    flags: HashMap<usize, Vec<String>>,
}

/// The documents the UI opened, by number.
#[derive(Default)]
pub struct TrajCore {
    docs: BTreeMap<u32, Vec<Read>>,
}

fn snake<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn context(f: &TaskFacts) -> TaskContext {
    use scorer::report::InstructionSet;
    TaskContext {
        instance_id: f.instance_id.clone(),
        test_source: f.test_source.clone(),
        final_result: f.final_result.clone(),
        pristine_result: f.pristine_result.clone(),
        instructions: f
            .instructions
            .as_ref()
            .map(|[l, b, d]| {
                vec![
                    (InstructionSet::Lazy, l.clone()),
                    (InstructionSet::Base, b.clone()),
                    (InstructionSet::Descriptive, d.clone()),
                ]
            })
            .unwrap_or_default(),
        repo: f.repo.clone(),
    }
}

fn range(r: Option<LineRange>) -> Option<[u32; 2]> {
    r.map(|r| [r.start, r.end])
}

fn edit_row(e: &EditOp) -> EditRow {
    let reason = match &e.status {
        EditStatus::Rejected { reason, message } if message.is_empty() => {
            Some(reason.label().to_string())
        }
        EditStatus::Rejected { reason, message } => {
            Some(format!("{}: {}", reason.label(), cut(message, 2_000).0))
        }
        EditStatus::AppliedWithLint { errors } => Some(errors.join("; ")),
        _ => None,
    };
    EditRow {
        path: e.path.clone(),
        kind: snake(&e.kind),
        status: e.status.label().to_string(),
        reason,
        before: range(e.lines_before),
        after: range(e.lines_after),
        confidence: snake(&e.confidence),
    }
}

/// `text` cut to at most `cap` bytes on a character boundary, and how many bytes were cut.
fn cut(text: &str, cap: usize) -> (String, u64) {
    if text.len() <= cap {
        return (text.to_string(), 0);
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text[..end].to_string(), (text.len() - end) as u64)
}

fn is_error_step(s: &Step) -> bool {
    s.error.is_some()
        || s.edits.iter().any(|e| {
            matches!(e.status, EditStatus::Rejected { .. } | EditStatus::AppliedWithLint { .. })
        })
}

fn contains_ci(hay: &str, needle_lower: &str) -> bool {
    if hay.is_ascii() && needle_lower.is_ascii() {
        let n = needle_lower.as_bytes();
        return hay.as_bytes().windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    hay.to_lowercase().contains(needle_lower)
}

impl Read {
    fn new(t: Trajectory, facts: Option<&TaskFacts>) -> Read {
        let ctx = facts.map(context);
        let a = analyse(&t, ctx.as_ref());
        let mut flags: HashMap<usize, Vec<String>> = HashMap::new();
        for m in &a.failure_modes {
            for &s in &m.steps {
                let ids = flags.entry(s).or_default();
                if !ids.contains(&m.id) {
                    ids.push(m.id.clone());
                }
            }
        }
        Read { t, a, flags }
    }

    fn keeps(&self, s: &Step, f: &StepFilter, needle: &str) -> bool {
        if f.errors && !is_error_step(s) {
            return false;
        }
        if f.edits && s.edits.is_empty() {
            return false;
        }
        if f.flagged && !self.flags.contains_key(&s.index) {
            return false;
        }
        if needle.is_empty() {
            return true;
        }
        [s.thought.as_deref(), s.action.as_deref(), s.observation.as_deref(), s.tool()]
            .into_iter()
            .flatten()
            .any(|t| contains_ci(t, needle))
    }

    fn sample(&self, with_facts: bool) -> Sample {
        let t = &self.t;
        let edits: Vec<&EditOp> = t.steps.iter().flat_map(|s| &s.edits).collect();
        let rejected =
            edits.iter().filter(|e| matches!(e.status, EditStatus::Rejected { .. })).count();
        Sample {
            format: t.format.map_or("unknown", |f| f.label()).to_string(),
            format_version: t.format_version.clone(),
            instance_id: t.instance_id.clone(),
            model: t.model.clone(),
            exit_status: t.exit_status.clone(),
            exit_error: t.exit_error.as_deref().map(|e| cut(e, 4_000).0),
            steps: u32::try_from(t.steps.len()).unwrap_or(u32::MAX),
            edits: u32::try_from(edits.len()).unwrap_or(u32::MAX),
            rejected_edits: u32::try_from(rejected).unwrap_or(u32::MAX),
            costs: t.model_stats.as_ref().map(|m| Costs {
                cost_usd: m.cost_usd,
                tokens_sent: m.tokens_sent,
                tokens_received: m.tokens_received,
                api_calls: m.api_calls,
            }),
            step_tokens: t.steps.iter().any(|s| s.tokens.is_some()),
            submission: t.submission.as_deref().map(|s| cut(s, TEXT_CAP).0),
            failure_modes: self
                .a
                .failure_modes
                .iter()
                .map(|m| Flag {
                    id: m.id.clone(),
                    rule: m.rule.clone(),
                    steps: m.steps.iter().map(|&s| u32::try_from(s).unwrap_or(u32::MAX)).collect(),
                    tests: m.tests.clone(),
                    detail: m.detail.clone(),
                    interpretation: m
                        .interpretation
                        .as_ref()
                        .map(|i| (i.id.clone(), i.text.clone())),
                })
                .collect(),
            primary: self.a.primary.clone(),
            exit: self.a.facts.exit.clone(),
            final_check: self
                .a
                .final_check
                .as_ref()
                .map(|c| (c.sigma_only.clone(), c.patch_only.clone())),
            timeline: timeline(t),
            with_facts,
        }
    }

    fn row(&self, s: &Step) -> StepRow {
        let mut total_cut = 0;
        let mut text = |t: &Option<String>| {
            t.as_deref().map(|t| {
                let (t, c) = cut(t, TEXT_CAP);
                total_cut += c;
                t
            })
        };
        let (thought, action, observation) =
            (text(&s.thought), text(&s.action), text(&s.observation));
        let sigma = self
            .a
            .edit_state
            .get(s.index)
            .map(|st| {
                st.files
                    .iter()
                    .map(|f| SigmaFile {
                        path: f.path.clone(),
                        ranges: f.ranges.clone(),
                        failed: f.failed_edits,
                        created: f.created,
                        deleted: f.deleted,
                        whole: f.whole_file,
                    })
                    .collect()
            })
            .unwrap_or_default();
        StepRow {
            index: u32::try_from(s.index).unwrap_or(u32::MAX),
            role: snake(&s.role),
            tool: s.tool().map(str::to_string),
            thought,
            action,
            observation,
            cut: total_cut,
            error: s
                .error
                .as_ref()
                .map(|e| format!("{}: {}", snake(&e.kind), cut(&e.detail, 2_000).0)),
            edits: s.edits.iter().map(edit_row).collect(),
            tokens: s.tokens.as_ref().map(|t| [t.prompt, t.completion, t.cached]),
            duration_s: s.duration_s,
            flags: self.flags.get(&s.index).cloned().unwrap_or_default(),
            sigma,
        }
    }
}

fn timeline(t: &Trajectory) -> Timeline {
    let mut files: Vec<String> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut marks = Vec::new();
    let mut more = 0u32;
    for s in &t.steps {
        for e in &s.edits {
            let file = *index.entry(e.path.as_str()).or_insert_with(|| {
                files.push(e.path.clone());
                u32::try_from(files.len() - 1).unwrap_or(u32::MAX)
            });
            if marks.len() >= MARK_CAP {
                more = more.saturating_add(1);
                continue;
            }
            let kind = match e.status {
                EditStatus::Applied => 0,
                EditStatus::Rejected { .. } => 1,
                EditStatus::AppliedWithLint { .. } => 2,
                EditStatus::Unknown => 3,
            };
            marks.push(Mark { file, step: u32::try_from(s.index).unwrap_or(u32::MAX), kind });
        }
    }
    Timeline { files, marks, more }
}

/// The facts for a sample: those naming its instance, else the only ones given for a log of one
/// sample (a log that does not name its task).
fn facts_for<'f>(facts: &'f [TaskFacts], t: &Trajectory, samples: usize) -> Option<&'f TaskFacts> {
    match &t.instance_id {
        // Facts for the sample's epoch first (each epoch's submission has its own verdicts).
        Some(id) => facts
            .iter()
            .find(|f| &f.instance_id == id && f.epoch.is_some() && f.epoch == t.epoch)
            .or_else(|| facts.iter().find(|f| &f.instance_id == id && f.epoch.is_none())),
        None => None,
    }
    .or_else(|| (samples == 1 && facts.len() == 1).then(|| &facts[0]))
}

/// The bytes of an `Open`: as sent, or, with `parts`, the files they hold joined into one
/// OpenHands V1 event list (`scorer::trajectory::join_event_files`).
fn join_parts<'b>(
    name: &str,
    bytes: &'b [u8],
    parts: &[(String, u32)],
) -> Result<std::borrow::Cow<'b, [u8]>, String> {
    if parts.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(bytes));
    }
    let mut files = Vec::with_capacity(parts.len());
    let mut at = 0usize;
    for (part, len) in parts {
        let end = at.checked_add(*len as usize).filter(|e| *e <= bytes.len());
        let Some(end) = end else {
            return Err(format!("{name}: {part}: the files sent are cut short"));
        };
        files.push((part.as_str(), &bytes[at..end]));
        at = end;
    }
    scorer::trajectory::join_event_files(&files)
        .map(std::borrow::Cow::Owned)
        .ok_or_else(|| format!("{name}: several files, but no .json event file among them (only an OpenHands V1 events folder is read as several files)"))
}

impl TrajCore {
    pub fn new() -> Self {
        TrajCore::default()
    }

    pub fn handle(&mut self, msg: ToTraj, bytes: Option<&[u8]>) -> Option<FromTraj> {
        match msg {
            ToTraj::Hello => Some(FromTraj::Ready { scorer_version: scorer::VERSION.to_string() }),
            ToTraj::Open { job, doc, name, facts, parts } => {
                let joined = join_parts(&name, bytes.unwrap_or_default(), &parts);
                let opened = joined.and_then(|b| self.open(doc, &name, &b, &facts));
                Some(match opened {
                    Ok(samples) => {
                        let reads = self.docs.get(&doc).map(Vec::as_slice).unwrap_or_default();
                        let heads = samples
                            .iter()
                            .zip(reads)
                            .map(|(s, r)| {
                                let f = facts_for(&facts, &r.t, samples.len());
                                let fin = f.and_then(|f| {
                                    f.final_result.as_ref().map(|r| (r, f.instance_id.as_str()))
                                });
                                Head {
                                    instance_id: s.instance_id.clone(),
                                    epoch: r.t.epoch,
                                    submission: s.submission.clone(),
                                    steps: s.steps,
                                    view: crate::render::head(s, &name, fin),
                                }
                            })
                            .collect();
                        FromTraj::Opened { job, samples: heads }
                    }
                    Err(message) => FromTraj::Failed { job: Some(job), message },
                })
            }
            ToTraj::Steps { job, doc, sample, filter, offset, limit, around } => {
                Some(match self.steps(doc, sample, &filter, offset, limit, around) {
                    Ok(page) => FromTraj::Steps {
                        job,
                        matching: page.matching,
                        offset: page.offset,
                        view: crate::render::page(&page, around),
                    },
                    Err(message) => FromTraj::Failed { job: Some(job), message },
                })
            }
            ToTraj::Summarise { job, docs, links, epochs } => Some(FromTraj::Summary {
                job,
                view: crate::render::run(&self.summarise_epochs(&docs, &epochs), &links),
            }),
            ToTraj::Parse { job, name } => Some(FromTraj::Parsed {
                job,
                parsed: scorer::submission::parse_submissions(&name, bytes.unwrap_or_default()),
            }),
            ToTraj::Close { docs } => {
                for d in docs {
                    self.docs.remove(&d);
                }
                None
            }
        }
    }

    /// Reads a log; the error names the file (and the step and field the reader names).
    pub fn open(
        &mut self,
        doc: u32,
        name: &str,
        bytes: &[u8],
        facts: &[TaskFacts],
    ) -> Result<Vec<Sample>, String> {
        self.docs.remove(&doc);
        let read = scorer::trajectory::read(bytes).map_err(|e| format!("{name}: {e}"))?;
        let n = read.len();
        let reads: Vec<Read> = read
            .into_iter()
            .map(|t| {
                let f = facts_for(facts, &t, n);
                Read::new(t, f)
            })
            .collect();
        let samples = reads.iter().map(|r| r.sample(facts_for(facts, &r.t, n).is_some())).collect();
        self.docs.insert(doc, reads);
        Ok(samples)
    }

    pub fn steps(
        &self,
        doc: u32,
        sample: u32,
        filter: &StepFilter,
        offset: u32,
        limit: u32,
        around: Option<u32>,
    ) -> Result<StepPage, String> {
        let read = self
            .docs
            .get(&doc)
            .and_then(|d| d.get(sample as usize))
            .ok_or_else(|| format!("no trajectory {doc}/{sample} is open"))?;
        let needle = filter.search.trim().to_lowercase();
        let matching: Vec<&Step> =
            read.t.steps.iter().filter(|s| read.keeps(s, filter, &needle)).collect();
        let limit = limit.clamp(1, 500) as usize;
        let mut offset = offset as usize;
        if let Some(at) = around {
            if let Some(pos) = matching.iter().position(|s| s.index == at as usize) {
                offset = pos / limit * limit;
            }
        }
        if offset >= matching.len() {
            offset = matching.len().saturating_sub(1) / limit * limit;
        }
        let rows = matching.iter().skip(offset).take(limit).map(|s| read.row(s)).collect();
        Ok(StepPage {
            matching: u32::try_from(matching.len()).unwrap_or(u32::MAX),
            offset: u32::try_from(offset).unwrap_or(u32::MAX),
            rows,
        })
    }

    /// The run's rates (`failure::summarise_run`) over the documents named, with the
    /// trajectories behind each numerator.
    pub fn summarise(&self, docs: &[u32]) -> RunModes {
        self.summarise_epochs(docs, &[])
    }

    /// [`TrajCore::summarise`] over the samples of the epochs given (all when empty; a sample
    /// without an epoch always counts).
    pub fn summarise_epochs(&self, docs: &[u32], epochs: &[u32]) -> RunModes {
        let mut keys: Vec<[u32; 2]> = Vec::new();
        let mut detections: Vec<(Detection, Option<f64>)> = Vec::new();
        for &d in docs {
            for (i, r) in self.docs.get(&d).into_iter().flatten().enumerate() {
                if !epochs.is_empty() && r.t.epoch.is_some_and(|e| !epochs.contains(&e)) {
                    continue;
                }
                keys.push([d, u32::try_from(i).unwrap_or(u32::MAX)]);
                detections.push((
                    Detection {
                        failure_modes: r.a.failure_modes.clone(),
                        facts: r.a.facts.clone(),
                        primary: r.a.primary.clone(),
                    },
                    r.t.model_stats.as_ref().and_then(|m| m.cost_usd),
                ));
            }
        }
        let entries: Vec<RunEntry<'_>> =
            detections.iter().map(|(d, c)| RunEntry { detection: d, cost_usd: *c }).collect();
        let all = failure::summarise_run(&entries);
        // The rates are sums over trajectories: a trajectory is behind a numerator when its own
        // summary has a non-zero numerator.
        let singles: Vec<failure::GroupRates> =
            entries.iter().map(|e| failure::summarise_run(&[*e]).overall).collect();
        let behind = |id: &str| -> Vec<[u32; 2]> {
            singles
                .iter()
                .zip(&keys)
                .filter(|(g, _)| g.rates.iter().any(|r| r.id == id && r.n > 0))
                .map(|(_, k)| *k)
                .collect()
        };
        let g = &all.overall;
        let rates = g
            .rates
            .iter()
            .map(|r| RateRow { id: r.id.clone(), n: r.n, d: r.d, behind: behind(&r.id) })
            .collect();
        let total = entries.len() as u64;
        let mut ids: Vec<&str> = Vec::new();
        for (d, _) in &detections {
            for m in &d.failure_modes {
                if !ids.contains(&m.id.as_str()) {
                    ids.push(&m.id);
                }
            }
        }
        ids.sort_unstable();
        let distribution = ids
            .iter()
            .map(|id| {
                let behind: Vec<[u32; 2]> = detections
                    .iter()
                    .zip(&keys)
                    .filter(|((d, _), _)| d.failure_modes.iter().any(|m| m.id == *id))
                    .map(|(_, k)| *k)
                    .collect();
                RateRow { id: (*id).to_string(), n: behind.len() as u64, d: total, behind }
            })
            .collect();
        let histogram = |label: &dyn Fn(&Detection) -> Option<String>| -> Vec<RateRow> {
            let mut out: BTreeMap<String, Vec<[u32; 2]>> = BTreeMap::new();
            for ((d, _), k) in detections.iter().zip(&keys) {
                if let Some(l) = label(d) {
                    out.entry(l).or_default().push(*k);
                }
            }
            let d = out.values().map(|v| v.len() as u64).sum();
            out.into_iter()
                .map(|(id, behind)| RateRow { id, n: behind.len() as u64, d, behind })
                .collect()
        };
        let exit_reasons = histogram(&|d| Some(d.facts.exit.clone()));
        let primary = histogram(&|d| d.primary.clone());
        let by_breadth = g
            .by_breadth
            .iter()
            .map(|(bucket, r)| {
                let behind = detections
                    .iter()
                    .zip(&keys)
                    .filter(|((d, _), _)| {
                        d.facts.resolved == Some(true)
                            && d.facts.breadth.map(failure::breadth_bucket) == Some(bucket.as_str())
                    })
                    .map(|(_, k)| *k)
                    .collect();
                (bucket.clone(), RateRow { id: r.id.clone(), n: r.n, d: r.d, behind })
            })
            .collect();
        RunModes {
            trajectories: g.trajectories,
            rates,
            distribution,
            primary,
            exit_reasons,
            by_breadth,
            cost_per_solved_usd: g.cost_per_solved_usd,
            definitions: all.definitions.into_iter().map(|d| (d.id, d.text)).collect(),
        }
    }
}

/// The worker entry (`src/main.rs`): answers [`ToTraj`] messages on the worker's global scope,
/// with the scoring worker's message loop (`worker::serve`).
#[cfg(target_arch = "wasm32")]
pub fn run_worker() {
    let mut core = TrajCore::new();
    worker::serve(
        move |msg: ToTraj, bytes| core.handle(msg, bytes),
        |message| FromTraj::Failed { job: None, message },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD_LOG: &[u8] = include_bytes!(
        "../../tasks/demo/submissions/trajectories/add-log-parameter-post-entry.traj"
    );
    const SKU: &[u8] =
        include_bytes!("../../tasks/demo/submissions/trajectories/extract-normalize-sku.traj");
    const STOCK: &[u8] =
        include_bytes!("../../tasks/demo/submissions/trajectories/stock-ledger-class.traj");

    /// Sends a message through its JSON form, as the app's bridge does, and reads the answer back.
    fn send(core: &mut TrajCore, msg: ToTraj, bytes: Option<&[u8]>) -> Option<FromTraj> {
        let msg: ToTraj = serde_json::from_str(&serde_json::to_string(&msg).unwrap()).unwrap();
        let answer = core.handle(msg, bytes)?;
        Some(serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap())
    }

    fn open(core: &mut TrajCore, doc: u32, name: &str, bytes: &[u8]) -> Vec<Sample> {
        core.open(doc, name, bytes, &[]).unwrap()
    }

    fn page(core: &mut TrajCore, doc: u32, filter: StepFilter, around: Option<u32>) -> StepPage {
        core.steps(doc, 0, &filter, 0, 4, around).unwrap()
    }

    /// Every text of a rendered tree, and whether any element has attribute `k` = `v`.
    fn texts(n: &Node, out: &mut String) {
        match n {
            Node::T(t) => out.push_str(t),
            Node::E(_, _, kids) => kids.iter().for_each(|k| texts(k, out)),
        }
    }

    fn has_attr(n: &Node, k: &str, v: &str) -> bool {
        match n {
            Node::T(_) => false,
            Node::E(_, attrs, kids) => {
                attrs.iter().any(|(a, b)| a == k && b == v)
                    || kids.iter().any(|c| has_attr(c, k, v))
            }
        }
    }

    #[test]
    fn the_worker_renders_the_viewer_as_text_nodes() {
        let mut core = TrajCore::new();
        let hostile = "<script>alert(1)</script>";
        let log = format!(
            r#"{{"trajectory": [{{"action": "ls", "observation": "{hostile}", "state": "{{}}"}}], "info": {{}}}}"#
        );
        let msg = ToTraj::Open {
            job: 1,
            doc: 1,
            name: "h.traj".into(),
            facts: Vec::new(),
            parts: Vec::new(),
        };
        let Some(FromTraj::Opened { samples, .. }) = send(&mut core, msg, Some(log.as_bytes()))
        else {
            panic!("not opened")
        };
        assert_eq!(samples[0].steps, 1);
        let mut text = String::new();
        texts(&samples[0].view, &mut text);
        assert!(text.contains("h.traj") && text.contains("no data"), "{text}");
        let msg = ToTraj::Steps {
            job: 2,
            doc: 1,
            sample: 0,
            filter: StepFilter::default(),
            offset: 0,
            limit: 50,
            around: Some(0),
        };
        let Some(FromTraj::Steps { matching: 1, offset: 0, view, .. }) = send(&mut core, msg, None)
        else {
            panic!("no page")
        };
        // The log's markup is a text node, never an element.
        let mut text = String::new();
        texts(&view, &mut text);
        assert!(text.contains(hostile));
        assert!(has_attr(&view, "aria-current", "step") && has_attr(&view, "id", "step-0"));
        let msg = ToTraj::Summarise {
            job: 3,
            docs: vec![1],
            links: vec![(1, "/runs/r/x/trajectory".into(), "x".into())],
            epochs: Vec::new(),
        };
        let Some(FromTraj::Summary { view, .. }) = send(&mut core, msg, None) else {
            panic!("no summary")
        };
        assert!(has_attr(&view, "data-rate", "fm2.edit_error_of_all"));
    }

    #[test]
    fn a_demo_log_gives_its_steps_edits_and_flags() {
        let mut core = TrajCore::new();
        let s = open(&mut core, 1, "add-log-parameter-post-entry.traj", ADD_LOG).remove(0);
        assert_eq!(s.instance_id.as_deref(), Some("add-log-parameter-post-entry"));
        assert!(s.format.starts_with("swe-agent-1"), "{}", s.format);
        assert!(s.steps >= 17, "{}", s.steps);
        assert!(s.rejected_edits >= 2, "{}", s.rejected_edits);
        let ids: Vec<&str> = s.failure_modes.iter().map(|f| f.id.as_str()).collect();
        assert!(ids.contains(&"edit_error"), "{ids:?}");
        // σ timeline: every edit has a mark, rejected edits marked as such.
        assert_eq!(s.timeline.marks.len() as u32, s.edits);
        assert!(s.timeline.marks.iter().any(|m| m.kind == 1));
        assert!(!s.with_facts);

        // Errors only: the two rejected `str_replace` edits (steps 11, 12), not the applied ones.
        let errors = page(&mut core, 1, StepFilter { errors: true, ..StepFilter::default() }, None);
        let at: Vec<u32> = errors.rows.iter().map(|r| r.index).collect();
        assert!(at.contains(&11) && at.contains(&12) && !at.contains(&10), "{at:?}");
        assert!(errors
            .rows
            .iter()
            .all(|r| r.error.is_some() || r.edits.iter().any(|e| e.status != "applied")));
        // The page holding a deep-linked step.
        let all = page(&mut core, 1, StepFilter::default(), Some(13));
        assert_eq!(all.offset, 12);
        assert_eq!(all.rows[1].index, 13);
        assert_eq!(all.matching, s.steps);
        // σ after the last applied edit names the edited file.
        let edits = page(&mut core, 1, StepFilter { edits: true, ..StepFilter::default() }, None);
        assert!(edits.rows.iter().all(|r| !r.edits.is_empty()));
        assert!(edits.rows.iter().any(|r| !r.sigma.is_empty()));
        // Search is case-insensitive and looks at the observation.
        let hits = page(
            &mut core,
            1,
            StepFilter {
                search: "MULTIPLE OCCURRENCES of old_str".into(),
                ..StepFilter::default()
            },
            None,
        );
        assert_eq!(hits.rows.iter().map(|r| r.index).collect::<Vec<_>>(), [11]);
        // Flagged only: every row names a failure mode.
        let flagged =
            page(&mut core, 1, StepFilter { flagged: true, ..StepFilter::default() }, None);
        assert!(flagged.matching > 0 && flagged.rows.iter().all(|r| !r.flags.is_empty()));
    }

    #[test]
    fn costs_are_no_data_unless_logged() {
        let mut core = TrajCore::new();
        let stock = open(&mut core, 1, "stock-ledger-class.traj", STOCK).remove(0);
        assert_eq!(stock.costs.as_ref().and_then(|c| c.cost_usd), Some(3.0412));
        assert!(stock.failure_modes.iter().any(|f| f.id == "limit"), "{:?}", stock.failure_modes);
    }

    #[test]
    fn unreadable_logs_name_the_file_and_the_step() {
        let mut core = TrajCore::new();
        let msg = ToTraj::Open {
            job: 3,
            doc: 1,
            name: "x.traj".into(),
            facts: Vec::new(),
            parts: Vec::new(),
        };
        let Some(FromTraj::Failed { job: Some(3), message }) = send(&mut core, msg, Some(b"{]"))
        else {
            panic!("expected a failure")
        };
        assert!(message.starts_with("x.traj: "), "{message}");
        let bad =
            br#"{"trajectory": [{"action": "ls", "observation": 7, "state": "{}"}], "info": {}}"#;
        let msg = ToTraj::Open {
            job: 4,
            doc: 2,
            name: "y.traj".into(),
            facts: Vec::new(),
            parts: Vec::new(),
        };
        let Some(FromTraj::Failed { message, .. }) = send(&mut core, msg, Some(bad)) else {
            panic!("a number for an observation is an error")
        };
        assert_eq!(message, "y.traj: step 0: `observation` must be a string, found a number");
        // A page of a document that is not open is an error, not a panic.
        let msg = ToTraj::Steps {
            job: 5,
            doc: 9,
            sample: 0,
            filter: StepFilter::default(),
            offset: 0,
            limit: 10,
            around: None,
        };
        assert!(matches!(send(&mut core, msg, None), Some(FromTraj::Failed { job: Some(5), .. })));
    }

    /// Several files in one `Open` (a dropped `events/` folder): joined in the events' index
    /// order whatever order they were sent in, as the CLI joins a folder; a cut-short message
    /// and files without events are errors naming the log.
    #[test]
    fn an_events_folder_sent_as_parts_reads_in_index_order() {
        let ev = |id: &str, i: usize| -> String {
            match i {
                0 => format!(
                    r#"{{"kind": "MessageEvent", "id": "{id}", "source": "user", "llm_message": {{"role": "user", "content": [{{"type": "text", "text": "go"}}]}}}}"#
                ),
                1 => format!(
                    r#"{{"kind": "ActionEvent", "id": "{id}", "source": "agent", "tool_name": "terminal", "tool_call_id": "c", "action": {{"kind": "TerminalAction", "command": "rm old.py"}}}}"#
                ),
                _ => format!(
                    r#"{{"kind": "ObservationEvent", "id": "{id}", "source": "environment", "action_id": "a", "tool_call_id": "c", "observation": {{"kind": "TerminalObservation", "content": [{{"type": "text", "text": ""}}], "is_error": false, "exit_code": 0}}}}"#
                ),
            }
        };
        let files = [
            ("events/event-00002-o.json", ev("o", 2)),
            ("events/event-00000-m.json", ev("m", 0)),
            ("events/event-00001-a.json", ev("a", 1)),
        ];
        let mut bytes = Vec::new();
        let mut parts = Vec::new();
        for (n, b) in &files {
            bytes.extend_from_slice(b.as_bytes());
            parts.push((n.to_string(), b.len() as u32));
        }
        let mut core = TrajCore::new();
        let msg = ToTraj::Open {
            job: 1,
            doc: 1,
            name: "events".into(),
            facts: Vec::new(),
            parts: parts.clone(),
        };
        let Some(FromTraj::Opened { samples, .. }) = send(&mut core, msg, Some(&bytes)) else {
            panic!("opened")
        };
        assert_eq!(samples[0].steps, 2);
        let s = &core.docs[&1][0];
        assert_eq!(s.t.format, Some(scorer::trajectory::Format::OpenHandsV1));
        let edit = s.t.steps[1].edit().expect("the rm is an edit");
        assert_eq!(
            (edit.path.as_str(), edit.kind),
            ("old.py", scorer::trajectory::EditKind::Delete)
        );
        let msg = ToTraj::Open { job: 2, doc: 2, name: "events".into(), facts: Vec::new(), parts };
        let Some(FromTraj::Failed { message, .. }) = send(&mut core, msg, Some(&bytes[..10]))
        else {
            panic!("cut short")
        };
        assert!(message.contains("cut short"), "{message}");
        let parts = vec![("a.txt".to_string(), 1), ("b.md".to_string(), 1)];
        let msg = ToTraj::Open { job: 3, doc: 3, name: "two".into(), facts: Vec::new(), parts };
        let Some(FromTraj::Failed { message, .. }) = send(&mut core, msg, Some(b"xy")) else {
            panic!("no events")
        };
        assert!(message.starts_with("two: several files"), "{message}");
    }

    /// An Inspect `.eval` of one task over two epochs: `Parse` gives one submission per sample
    /// (the scoring worker cannot read `.eval`), the heads carry the epochs, and `Summarise`
    /// with `epochs` counts only those samples; facts for an epoch go to that epoch's sample.
    #[test]
    fn inspect_epochs_parse_and_choose_which_samples_count() {
        use scorer::trajectory::test_support::zip_write;
        let header = r#"{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}}"#;
        let sample = |epoch: u32, patch: &str| {
            serde_json::json!({"id": "rename-parse-amount", "epoch": epoch, "input": "x",
                "messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "done"}],
                "scores": {"swe": {"value": 1, "metadata": {"model_patch": patch}}}})
            .to_string()
        };
        let (s1, s2) = (sample(1, "diff --git a/a b/a\n"), sample(2, ""));
        let eval = zip_write(&[
            ("header.json", 8, header.as_bytes()),
            ("samples/rename-parse-amount_epoch_1.json", 8, s1.as_bytes()),
            ("samples/rename-parse-amount_epoch_2.json", 93, s2.as_bytes()),
        ]);
        let mut core = TrajCore::new();
        let msg = ToTraj::Parse { job: 1, name: "run.eval".into() };
        let Some(FromTraj::Parsed { parsed, .. }) = send(&mut core, msg, Some(&eval)) else {
            panic!("parsed")
        };
        let subs: Vec<(&str, &[u8])> = parsed
            .submissions
            .iter()
            .map(|s| (s.instance_id.as_str(), s.patch.as_slice()))
            .collect();
        assert_eq!(
            subs,
            [
                ("rename-parse-amount", b"diff --git a/a b/a\n".as_slice()),
                ("rename-parse-amount", b"".as_slice())
            ]
        );
        let facts = |epoch: u32, resolved: bool| {
            TaskFacts {
            instance_id: "rename-parse-amount".into(),
            final_result: Some(
                serde_json::from_value(serde_json::json!({"instance_id": "rename-parse-amount",
                    "patch_status": "applied", "resolved": resolved, "subtests_passed": u32::from(resolved),
                    "subtests_total": 1, "tests": []}))
                .expect("a result"),
            ),
            epoch: Some(epoch),
            ..TaskFacts::default()
        }
        };
        let msg = ToTraj::Open {
            job: 2,
            doc: 1,
            name: "run.eval".into(),
            facts: vec![facts(2, false), facts(1, true)],
            parts: Vec::new(),
        };
        let Some(FromTraj::Opened { samples, .. }) = send(&mut core, msg, Some(&eval)) else {
            panic!("opened")
        };
        let epochs: Vec<Option<u32>> = samples.iter().map(|h| h.epoch).collect();
        assert_eq!(epochs, [Some(1), Some(2)]);
        let resolved = |epochs: &[u32]| {
            let m = core.summarise_epochs(&[1], epochs);
            let r = m.rates.iter().find(|r| r.id == "resolved").map(|r| (r.n, r.d));
            (m.trajectories, r)
        };
        assert_eq!(resolved(&[]), (2, Some((1, 2))));
        assert_eq!(resolved(&[1]), (1, Some((1, 1))));
        assert_eq!(resolved(&[2]), (1, Some((0, 1))));
    }

    #[test]
    fn run_rates_count_n_of_d_with_the_logs_behind_them() {
        let mut core = TrajCore::new();
        open(&mut core, 1, "a.traj", ADD_LOG);
        open(&mut core, 2, "b.traj", SKU);
        open(&mut core, 3, "c.traj", STOCK);
        let modes = core.summarise(&[1, 2, 3]);
        assert_eq!(modes.trajectories, 3);
        let rate = |id: &str| modes.rates.iter().find(|r| r.id == id).unwrap().clone();
        let err = rate("fm2.edit_error_of_all");
        assert_eq!((err.n, err.d), (1, 3));
        assert_eq!(err.behind, vec![[1, 0]]);
        let exits: u64 = modes.exit_reasons.iter().map(|r| r.n).sum();
        assert_eq!(exits, 3);
        assert!(modes.distribution.iter().any(|r| r.id == "limit" && r.behind == vec![[3, 0]]));
        assert!(modes.definitions.iter().any(|(id, _)| id == "fm2.edit_error"));
        // Costs are logged by one log only: no cost per solved task.
        assert_eq!(modes.cost_per_solved_usd, None);
        send(&mut core, ToTraj::Close { docs: vec![1, 2, 3] }, None);
        assert_eq!(core.summarise(&[1]).trajectories, 0);
    }
}
