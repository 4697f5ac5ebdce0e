// Journeys 3, 4, 7 and 8 on the release site with the demo bundle: score the demo's sample patches
// on a task and its predictions files, trajectories, a zip and a picked folder as a run, and check
// every verdict on screen against CPython's (tasks/demo/expected-verdicts.json); a pool of workers
// gives the run one worker gives; progress bar and cancel; a worker that traps is restarted and
// only its item is marked; runs survive a reload; deep links; export (JSON report, CSV) and import
// of a report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, screenshot, OUT, newPage as pageOf, RUN_ROWS } from './harness.mjs';

const SUBS = path.resolve('tasks/demo/submissions');
const expected = JSON.parse(fs.readFileSync('tasks/demo/expected-verdicts.json', 'utf8'));
const T = 60000;

/** Expected result of a sample patch file (`submissions/<name>`). */
function expectedPatch(name) {
  const r = expected.results.find((x) => x.submission === `submissions/${name}`);
  assert.ok(r, `no expected verdicts for ${name}`);
  return r;
}

/** Expected result of a predictions entry: file base name and instance id identify it. */
function expectedPrediction(file, instance) {
  return expected.results.find((x) => x.kind === 'prediction' && x.task === instance
    && x.submission.split('#')[0] === `submissions/${file}`);
}

const passed = (r) => r.tests.filter((t) => t.status === 'pass').length;
/** The methods a result counts: those that ran, or for a failed patch (no test runs) every method
 * of the task, all not passed. */
const counted = (r) => (r.patch_status === 'failed'
  ? expected.tasks.find((t) => t.id === r.task).methods.length
  : r.tests.length);

let browser;
let context;
let server;
before(async () => {
  browser = await launch();
  // One browser context for all tests: runs live in its IndexedDB.
  context = await browser.newContext({ viewport: { width: 1366, height: 800 }, acceptDownloads: true });
  server = await serve('dist', '/');
});

/** Pages of the shared context (a request the next navigation aborts is not a failure). */
const newPage = (ctx = context) => pageOf(ctx);
after(async () => {
  server?.close();
  await browser?.close();
});

/** The verdict table of a result page, as {id: {status, exc_type, message, line}}. */
async function verdictsOnScreen(page) {
  await page.locator('#result-subtests tbody tr').first().waitFor({ timeout: T });
  return page.$$eval('#result-subtests tbody tr', (rows) => Object.fromEntries(rows.map((tr) => {
    const cells = [...tr.querySelectorAll('td')];
    const line = /line (\d+)/.exec(cells[4].textContent);
    return [tr.dataset.testId, {
      status: tr.dataset.status,
      exc_type: cells[2].textContent || null,
      message: cells[3].textContent || null,
      line: line ? Number(line[1]) : null,
    }];
  })));
}

function assertVerdicts(onScreen, exp, what) {
  const want = Object.fromEntries(exp.tests.map((t) => [t.id, {
    status: t.status, exc_type: t.exc_type, message: t.message, line: t.line,
  }]));
  assert.deepEqual(onScreen, want, what);
}

async function waitWorker(page) {
  await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
}

test('journey 3: sample patches on a task give CPython\'s verdicts', async () => {
  const { page, errors, requests } = await newPage();
  const cases = [
    ['rename-parse-amount', 'rename-parse-amount.solve.patch'],
    // A `\N{...}` escape in a parsed file: the worker loads its names table for it, once.
    ['rename-parse-amount', 'rename-parse-amount.named-escape.patch'],
    ['rename-parse-amount', 'rename-parse-amount.partial.patch'],
    ['rename-parse-amount', 'rename-parse-amount.syntax-error.patch'],
    ['stock-ledger-class', 'stock-ledger-class.does-not-apply.patch'],
  ];
  for (const [task, file] of cases) {
    await page.goto(`${server.url}tasks/${task}/score`);
    await waitWorker(page);
    await page.setInputFiles('#patch-files', path.join(SUBS, file));
    await page.locator('.file-names li', { hasText: file }).waitFor({ timeout: T });
    await page.click('#score-patch');
    await page.waitForURL(new RegExp(`/runs/[0-9a-f]+/${task}$`), { timeout: T });
    const exp = expectedPatch(file);
    await page.locator('#result-patch').waitFor({ timeout: T });
    const summary = { applied: /^patch applied/, failed: /^patch failed: /, none: /^empty patch/ }[exp.patch_status];
    assert.match(await page.textContent('#result-patch'), summary, file);
    assert.equal(await page.textContent('#result-resolved'), exp.resolved ? 'resolved' : 'unresolved', file);
    if (exp.patch_status === 'failed') {
      assert.equal(await page.locator('#result-subtests tbody tr').count(), 0);
    } else {
      assertVerdicts(await verdictsOnScreen(page), exp, file);
      // The diff, one block per file.
      assert.ok(await page.locator('.diff-view .diff-file').count() > 0, file);
    }
    if (file.includes('syntax-error')) {
      // The first failing method and its line in the test source are in focus.
      assert.match(await page.textContent('#result-focus'), /SyntaxError/);
    }
    const tables = requests.filter((u) => u.endsWith('/unicode-names.bin')).length;
    assert.ok(file.includes('.solve.') ? tables === 0 : tables > 0, `names table requests after ${file}`);
    // None of these needs a codec (tests/e2e/codecs.test.mjs scores the one that does).
    assert.deepEqual(requests.filter((u) => u.endsWith('/codecs.wasm')), [], `codecs.wasm requested after ${file}`);
    await screenshot(page, `score-task-${file.replace(/\.patch$/, '')}`);
  }
  // Pasting: an empty paste scores the empty patch (the base verdicts).
  await page.goto(`${server.url}tasks/move-format-table/score`);
  await waitWorker(page);
  await screenshot(page, 'score-task-form');
  await page.click('#score-patch');
  await page.waitForURL(/\/runs\/[0-9a-f]+\/move-format-table$/, { timeout: T });
  const base = expected.results.find((x) => x.task === 'move-format-table' && x.kind === 'empty');
  assertVerdicts(await verdictsOnScreen(page), base, 'empty patch');
  assert.deepEqual(errors, [], errors.join('\n'));
});

let runUrl;
test('journey 4: predictions, trajectories and a zip become a run with CPython\'s verdicts', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  // A zip of the trajectories (deflated, as zip tools write), inflated by the browser.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-e2e-'));
  const zip = path.join(tmp, 'trajectories.zip');
  execFileSync('python3', ['-c', `import zipfile,sys,os
z=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)
d=sys.argv[2]
for n in sorted(os.listdir(d)): z.write(os.path.join(d,n),'trajectories/'+n)
z.close()`, zip, path.join(SUBS, 'trajectories')]);
  await page.setInputFiles('#upload-files', [
    path.join(SUBS, 'predictions.jsonl'), path.join(SUBS, 'predictions.json'),
    path.join(SUBS, 'predictions-by-id.json'), zip,
  ]);
  await page.locator('#upload-list tbody tr').nth(5).waitFor({ timeout: T });
  await screenshot(page, 'score-files-chosen');
  await page.fill('#run-name', 'demo predictions');
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  runUrl = page.url();
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  const rows = await page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => {
    const c = [...tr.querySelectorAll('td')].map((td) => td.textContent);
    return { instance: c[0], model: c[1], patch: c[3], verdict: c[4], subtests: c[5], source: c[6] };
  }));
  let checked = 0;
  for (const r of rows) {
    const file = r.source.split(':')[0];
    if (file.endsWith('.traj')) continue;
    const exp = expectedPrediction(file, r.instance);
    assert.ok(exp, `unexpected row ${JSON.stringify(r)}`);
    assert.equal(r.patch, exp.patch_status, JSON.stringify(r));
    assert.equal(r.verdict === 'resolved', exp.resolved, JSON.stringify(r));
    assert.equal(r.subtests, `${passed(exp)}/${counted(exp)}`, JSON.stringify(r));
    checked += 1;
  }
  const predictionCount = expected.results.filter((x) => x.kind === 'prediction').length;
  assert.equal(checked, predictionCount, 'every prediction entry is on screen');
  assert.equal(rows.filter((r) => r.source.includes('.traj')).length, 3, 'the three trajectories');
  // Summary tiles and breakdowns.
  assert.match(await page.textContent('#resolved-pct'), /%$/);
  assert.ok(await page.locator('#by-repo tbody tr').count() >= 2);
  assert.ok(await page.locator('#by-inspected tbody tr').count() >= 2);
  await screenshot(page, 'run-summary');
  // Filters.
  await page.click('#filter-resolved');
  await page.waitForURL(/filter=resolved/);
  const resolvedRows = await page.locator('#run-results tbody tr').count();
  assert.equal(resolvedRows, rows.filter((r) => r.verdict === 'resolved').length);
  await page.click('#filter-patch-failed');
  await page.waitForURL(/filter=patch-failed/);
  assert.equal(await page.locator('#run-results tbody tr').count(), rows.filter((r) => r.patch === 'failed').length);
  await screenshot(page, 'run-filter-patch-failed');
  // Deep link to a result, by reload (journey 7): the second result for a task with several.
  const multi = 'add-log-parameter-post-entry';
  await page.goto(`${runUrl}/${multi}?n=2`);
  await page.locator('#result-alternatives').waitFor({ timeout: T });
  const label = await page.textContent('#result-label');
  const file = label.split(' · ').find((p) => p.includes('predictions')).split(':')[0];
  assertVerdicts(await verdictsOnScreen(page), expectedPrediction(file, multi), `deep link ${label}`);
  await screenshot(page, 'result-deep-link');
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('the Score page prefetches the bundle; a batch run reads task files from the task pack', async () => {
  // A context of its own: nothing cached, no service worker yet, every request seen.
  const fresh = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  try {
    const { page, errors, requests } = await newPage(fresh);
    const index = JSON.parse(fs.readFileSync('dist/bundles/demo/index.json', 'utf8'));
    assert.ok(index.task_pack?.file.startsWith('tasks/pack.'), 'the demo bundle has a task pack');
    const repoPacks = index.repos.map((r) => JSON.parse(fs.readFileSync(`dist/bundles/demo/${r.manifest}`, 'utf8')).pack?.file)
      .filter(Boolean);
    // Two workers, so that both are known to have loaded the site data before the drop.
    await page.goto(`${server.url}score?workers=2`);
    await waitWorker(page);
    // Before any file is chosen: the task pack and every repository's pack are fetched, and each
    // worker loads the site data a run may need (so no run stops to load it and start again):
    // both files, one after the other, so equal counts of at least 2 that stay put for 500 ms.
    const fetched = (file) => requests.some((u) => u.endsWith(`/bundles/demo/${file}`));
    const siteData = () => ['/unicode-names.bin', '/interned-words.txt']
      .map((f) => requests.filter((u) => u.endsWith(f)).length);
    const settled = (c) => c[0] >= 2 && c[0] === c[1];
    let last = null;
    let since = Date.now();
    for (let i = 0; i < 300; i += 1) {
      const now = siteData();
      if (String(now) !== String(last)) { last = now; since = Date.now(); }
      if ([index.task_pack.file, ...repoPacks].every(fetched) && settled(now) && Date.now() - since >= 500) break;
      await page.waitForTimeout(50);
    }
    assert.ok(fetched(index.task_pack.file), 'task pack prefetched');
    for (const p of repoPacks) assert.ok(fetched(p), `${p} prefetched`);
    const siteDataBefore = siteData();
    assert.ok(settled(siteDataBefore), `site data loaded at idle by both workers: ${siteDataBefore}`);
    await page.setInputFiles('#upload-files', path.join(SUBS, 'predictions.jsonl'));
    await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
    await page.click('#score-start');
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
    await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
    const lines = fs.readFileSync(path.join(SUBS, 'predictions.jsonl'), 'utf8').trim().split('\n').length;
    assert.equal(await page.locator('#run-results tbody tr').count(), lines);
    const taskFiles = requests.filter((u) => /\/bundles\/demo\/tasks\/[^/]+\.json$/.test(u));
    assert.deepEqual(taskFiles, [], 'no task file fetched on its own');
    assert.equal(requests.filter((u) => u.endsWith(index.task_pack.file)).length, 1, 'the task pack fetched once');
    assert.deepEqual(siteData(), siteDataBefore, 'the run loaded no site data');
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await fresh.close();
  }
});

test('a truncated patch in a dropped predictions file is a failed patch, counted in the summary', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  const task = 'rename-parse-amount';
  const solve = fs.readFileSync(path.join(SUBS, `${task}.solve.patch`), 'utf8');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-e2e-'));
  const file = path.join(tmp, 'truncated.jsonl');
  // An agent's patch cut off inside a hunk: git says "error: corrupt patch at line N".
  const lines = [
    { instance_id: task, model_name_or_path: 'whole', model_patch: solve },
    { instance_id: task, model_name_or_path: 'cut', model_patch: solve.slice(0, solve.length - 40) },
  ];
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await page.setInputFiles('#upload-files', file);
  await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator(RUN_ROWS).nth(1).waitFor({ timeout: T });
  assert.equal(await page.locator('#run-errors').count(), 0, 'a patch git refuses is no entry error');
  const rows = await page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => {
    const c = [...tr.querySelectorAll('td')].map((td) => td.textContent);
    return { model: c[1], patch: c[3], verdict: c[4], subtests: c[5] };
  }));
  const methods = expected.tasks.find((t) => t.id === task).methods.length;
  assert.deepEqual(rows, [
    { model: 'whole', patch: 'applied', verdict: 'resolved', subtests: `${methods}/${methods}` },
    { model: 'cut', patch: 'failed', verdict: 'patch failed', subtests: `0/${methods}` },
  ]);
  // Counted in the summary: one of two resolved, the failed patch's methods not passed.
  assert.equal(await page.textContent('#resolved-pct'), '50.0%');
  assert.equal(await page.textContent('#subtests-pct'), '50.0%');
  assert.equal(await page.textContent('#entry-errors'), '0');
  await screenshot(page, 'run-with-truncated-patch');
  // Its result page shows git's message and no test run.
  await page.goto(`${page.url()}/${task}?n=2`);
  await page.locator('#result-patch').waitFor({ timeout: T });
  assert.match(await page.textContent('#result-patch'), /^patch failed: corrupt patch at line \d+$/);
  assert.equal(await page.textContent('#result-resolved'), 'unresolved');
  assert.equal(await page.textContent('#result-counts'), 'tests not run: the patch did not apply');
  assert.equal(await page.locator('#result-subtests tbody tr').count(), 0);
  fs.rmSync(tmp, { recursive: true, force: true });
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('folder picker: the demo\'s submissions folder becomes a run with CPython\'s verdicts', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  // The whole folder: sample patches (task id from the file name), predictions files and the
  // trajectories/ subfolder, each read under its path in the folder.
  const files = [];
  const walk = (dir, rel) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), `${rel}/${e.name}`);
      else files.push(`${rel}/${e.name}`);
    }
  };
  walk(SUBS, 'submissions');
  await page.setInputFiles('#upload-folder', SUBS);
  await page.locator('#upload-list tbody tr').nth(files.length - 1).waitFor({ timeout: T });
  const listed = await page.$$eval('#upload-list tbody tr', (trs) => trs.map((tr) => tr.querySelector('td').textContent));
  assert.deepEqual([...listed].sort(), [...files].sort());
  await page.fill('#run-name', 'demo folder');
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  assert.equal(await page.locator('#run-errors').count(), 0, 'no entry errors');
  const rows = await page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => {
    const c = [...tr.querySelectorAll('td')].map((td) => td.textContent);
    return { instance: c[0], patch: c[3], verdict: c[4], subtests: c[5], source: c[6] };
  }));
  let patches = 0;
  let predictions = 0;
  for (const r of rows) {
    if (r.source.endsWith('.traj')) continue;
    const file = r.source.split(':')[0];
    const exp = file.endsWith('.patch')
      ? expected.results.find((x) => x.kind === 'patch' && x.submission === file)
      : expected.results.find((x) => x.kind === 'prediction' && x.task === r.instance
        && x.submission.split('#')[0] === file);
    assert.ok(exp, `unexpected row ${JSON.stringify(r)}`);
    assert.equal(r.instance, exp.task, JSON.stringify(r));
    assert.equal(r.patch, exp.patch_status, JSON.stringify(r));
    assert.equal(r.verdict === 'resolved', exp.resolved, JSON.stringify(r));
    assert.equal(r.subtests, `${passed(exp)}/${counted(exp)}`, JSON.stringify(r));
    if (file.endsWith('.patch')) patches += 1;
    else predictions += 1;
  }
  assert.equal(patches, expected.results.filter((x) => x.kind === 'patch').length, 'every sample patch');
  assert.equal(predictions, expected.results.filter((x) => x.kind === 'prediction').length, 'every prediction');
  assert.equal(rows.filter((r) => r.source.endsWith('.traj')).length, 3, 'the three trajectories');
  // Every subtest verdict of a sample patch read from the folder, on its result page.
  const file = 'submissions/stock-ledger-class.partial.patch';
  const exp = expected.results.find((x) => x.submission === file);
  await page.locator('#run-results tbody tr', { hasText: file }).locator('a').first().click();
  await page.waitForURL(/\/runs\/[0-9a-f]+\/stock-ledger-class/, { timeout: T });
  assertVerdicts(await verdictsOnScreen(page), exp, file);
  await screenshot(page, 'run-from-folder');
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('a SWE-agent run folder scores each submission once: trajectories repeating preds.json are left out', async () => {
  const { page, errors } = await newPage();
  // RUN/preds.json and RUN/<id>/<id>.traj, as SWE-agent writes them: rename-parse-amount's trajectory
  // repeats its preds.json entry; move-format-table's carries another patch and is scored too.
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-swe-run-'));
  const traj = (id, submission) => {
    fs.mkdirSync(path.join(run, id));
    fs.writeFileSync(path.join(run, id, `${id}.traj`), JSON.stringify({
      trajectory: [], history: [], info: { exit_status: 'submitted', submission },
    }));
  };
  fs.writeFileSync(path.join(run, 'preds.json'), JSON.stringify({
    'rename-parse-amount': { instance_id: 'rename-parse-amount', model_name_or_path: 'agent', model_patch: '' },
    'move-format-table': { instance_id: 'move-format-table', model_name_or_path: 'agent', model_patch: '' },
  }, null, 2));
  traj('rename-parse-amount', '');
  traj('move-format-table', 'not a patch');
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-folder', run);
  await page.locator('#upload-list tbody tr').nth(2).waitFor({ timeout: T });
  await page.fill('#run-name', 'swe-agent run folder');
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  const rows = await page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => {
    const c = [...tr.querySelectorAll('td')].map((td) => td.textContent);
    return `${c[0]} ${c[3]} ${c[6].replace(/^[^/]*\//, '')}`;
  }));
  assert.deepEqual(rows.sort(), [
    'move-format-table failed move-format-table/move-format-table.traj',
    'move-format-table none preds.json:7',
    'rename-parse-amount none preds.json:2',
  ].sort());
  await screenshot(page, 'run-from-swe-agent-folder');
  fs.rmSync(run, { recursive: true, force: true });
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('a pool of three workers gives the same run, in input order, as one worker', async () => {
  const { page, errors } = await newPage();
  const files = ['predictions.jsonl', 'predictions.json', 'predictions-by-id.json'].map((f) => path.join(SUBS, f));
  const runWith = async (workers) => {
    await page.goto(`${server.url}score?workers=${workers}`);
    await waitWorker(page);
    await page.setInputFiles('#upload-files', files);
    await page.locator('#upload-list tbody tr').nth(files.length - 1).waitFor({ timeout: T });
    await page.click('#score-start');
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
    await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
    return page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  };
  const serial = await runWith(1);
  const pooled = await runWith(3);
  assert.equal(serial.length, expected.results.filter((x) => x.kind === 'prediction').length);
  assert.deepEqual(pooled, serial);
  // Input order: the .jsonl entries first, by line.
  const lines = serial.map((c) => c[6]).filter((src) => src.startsWith('predictions.jsonl:')).map((src) => Number(src.split(':')[1]));
  assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
  assert.ok(serial.slice(0, lines.length).every((c) => c[6].startsWith('predictions.jsonl:')));
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('journeys 7 and 8: export, import, reload keeps runs, delete', async () => {
  assert.ok(runUrl, 'journey 4 ran');
  const { page, errors } = await newPage();
  await page.goto(runUrl);
  await page.locator('#export-json').waitFor({ timeout: T });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const file = path.join(OUT, 'exported-report.json');
  await download.saveAs(file);
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(report.schema_version, 2);
  assert.equal(report.scorer.name, 'refscore');
  const index = JSON.parse(fs.readFileSync('dist/bundles/demo/index.json', 'utf8'));
  assert.equal(report.bundle.hash, index.bundle_hash);
  for (const r of report.results) {
    const src = r.source.file;
    if (src.endsWith('.traj')) continue;
    const exp = expectedPrediction(src, r.instance_id);
    assert.equal(r.patch_status, exp.patch_status);
    assert.equal(r.resolved, exp.resolved);
    assert.deepEqual(r.tests.map((t) => [t.id, t.status, t.exc_type ?? null, t.message ?? null, t.line ?? null]),
      exp.tests.map((t) => [t.id, t.status, t.exc_type, t.message, t.line]));
  }
  assert.equal(report.summary.submitted_instances, report.results.length + report.errors.filter((e) => e.instance_id).length);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
  const csvFile = path.join(OUT, 'exported-report.csv');
  await csv.saveAs(csvFile);
  const lines = fs.readFileSync(csvFile, 'utf8').trim().split('\n');
  // The same writer as `refscore report --csv` (scorer's Report::to_csv): same header, and each
  // result row names its task's repository.
  assert.equal(lines[0], 'instance_id,repo,model_name_or_path,instruction_set,source,patch_status,resolved,subtests_passed,subtests_total,error');
  assert.equal(lines.length, 1 + report.results.length + report.errors.length);
  assert.ok(lines.slice(1, 1 + report.results.length).every((l) => /^[^,]+,[a-z]+_refactor,/.test(l)), lines.join('\n'));

  // Import the exported report: a new run with the same numbers.
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list').waitFor({ timeout: T });
  const before = await page.locator('#runs-list tbody tr').count();
  await page.setInputFiles('#import-report', file);
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  assert.equal(await page.locator('#run-results tbody tr').count(), report.results.length);
  assert.match(await page.textContent('#run-name'), /^Imported /);
  await screenshot(page, 'run-imported');

  // Reload keeps every run (IndexedDB).
  await page.goto(`${server.url}runs`);
  await page.reload();
  await page.locator('#runs-list tbody tr').first().waitFor({ timeout: T });
  assert.equal(await page.locator('#runs-list tbody tr').count(), before + 1);
  await screenshot(page, 'runs-list');
  // Delete the imported run (the list asks first).
  const imported = page.locator('#runs-list tbody tr', { hasText: 'Imported' }).first();
  await imported.locator('.delete-run').click();
  await imported.locator('.delete-confirm').click();
  await page.waitForFunction((n) => document.querySelectorAll('#runs-list tbody tr').length === n, before, { timeout: T });
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('progress bar, responsive page and cancel on a long run', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  // 400 copies of the predictions: 3200 submissions.
  const lines = fs.readFileSync(path.join(SUBS, 'predictions.jsonl'), 'utf8').trim().split('\n');
  const big = Array.from({ length: 400 }, () => lines).flat().join('\n') + '\n';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-e2e-'));
  fs.writeFileSync(path.join(tmp, 'many.jsonl'), big);
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list, #runs-empty').first().waitFor({ timeout: T });
  const runsBefore = await page.locator('#runs-list tbody tr').count();
  await page.goto(`${server.url}score`);
  await page.setInputFiles('#upload-files', path.join(tmp, 'many.jsonl'));
  await page.locator('#upload-list').waitFor({ timeout: T });
  await page.click('#score-start');
  await page.locator('#score-progress progress').waitFor({ timeout: T });
  await page.waitForFunction(() => Number(document.querySelector('#score-progress progress')?.value) > 5, null, { timeout: T });
  await screenshot(page, 'score-progress');
  // The page answers clicks while the worker scores: open About and come back.
  const t0 = Date.now();
  await page.locator('nav a', { hasText: 'About' }).click();
  await page.locator('h1', { hasText: 'About refscore' }).waitFor({ timeout: 5000 });
  const clickMs = Date.now() - t0;
  await page.locator('nav a', { hasText: 'Score' }).click();
  await page.locator('#score-progress').waitFor({ timeout: T });
  const at = Number(await page.getAttribute('#score-progress progress', 'value'));
  const max = Number(await page.getAttribute('#score-progress progress', 'max'));
  assert.ok(at < max, `still running (${at}/${max})`);
  await page.click('#score-cancel');
  await page.locator('#score-cancelled').waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#score-progress').count(), 0);
  await screenshot(page, 'score-cancelled');
  // Nothing stored; the restarted worker is ready again.
  await waitWorker(page);
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list, #runs-empty').first().waitFor({ timeout: T });
  assert.equal(await page.locator('#runs-list tbody tr').count(), runsBefore);
  console.log(`navigation while scoring took ${clickMs} ms`);
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('the release build has no test hooks: ?test-trap= scores the task normally', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}score?test-trap=move-format-table`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', path.join(SUBS, 'predictions.jsonl'));
  await page.locator('#upload-list').waitFor({ timeout: T });
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator('#run-results').waitFor({ timeout: T });
  assert.equal(await page.locator('#run-errors').count(), 0);
  assert.equal(await page.locator('#worker-restarts').count(), 0);
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('a worker that traps is restarted and only its item is marked error', async () => {
  // The test hook exists only in the sub-path test build (REFSCORE_TEST_HOOKS=1).
  const hooked = await serve('dist-subpath', '/refscore/');
  const { page, errors } = await newPage();
  await page.goto(`${hooked.url}score?test-trap=move-format-table`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', path.join(SUBS, 'predictions.jsonl'));
  await page.locator('#upload-list').waitFor({ timeout: T });
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator('#run-errors').waitFor({ timeout: T });
  const errRows = await page.$$eval('#run-errors tbody tr', (trs) => trs.map((tr) => tr.textContent));
  assert.equal(errRows.length, 1, errRows.join('\n'));
  assert.match(errRows[0], /move-format-table.*crashed/);
  // Every other entry was scored by the restarted worker.
  const lines = fs.readFileSync(path.join(SUBS, 'predictions.jsonl'), 'utf8').trim().split('\n').length;
  assert.equal(await page.locator('#run-results tbody tr').count(), lines - 1);
  assert.match(await page.textContent('#worker-restarts'), /1 crash/);
  await screenshot(page, 'run-with-worker-crash');
  // The trap is reported by the browser (the panic hook's message and the RuntimeError).
  assert.ok(errors.every((e) => /unreachable|abort|panicked|RuntimeError/i.test(e)), errors.join('\n'));
  hooked.close();
});
