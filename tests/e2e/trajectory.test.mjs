// The trajectory viewer (issue 19) on the release site: the trajectory worker is not fetched on a
// first visit; each demo trajectory (and every shared sample, when ../shared is there) dropped on
// /trajectory shows its steps, σ and failure-mode flags; a deep link to a step survives a reload;
// a run folder scored from trajectories gets a failure-mode section and per-task viewers; a 50 MB
// synthetic log stays responsive (no long task over 200 ms on the UI thread).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { screenshot, useSite, newPage as pageOf } from './harness.mjs';

const TRAJ = path.resolve('tasks/demo/submissions/trajectories');
const SUBS = path.resolve('tasks/demo/submissions');
// ../shared next to the main checkout (a worktree under wt/ has it two levels up).
const SAMPLES = ['../shared', '../../shared'].map((d) => path.resolve(d, 'samples/trajectories'))
  .find((d) => fs.existsSync(d)) ?? path.resolve('../shared/samples/trajectories');
const T = 60000;

const site = useSite({ viewport: { width: 1366, height: 900 } });
const newPage = () => pageOf(site.context);

async function waitWorker(page) {
  await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
}

/** Drops (picks) one log on /trajectory and waits for the viewer. */
async function openLog(page, file) {
  await page.setInputFiles('#traj-file', file);
  await page.locator('#traj-format').waitFor({ timeout: T });
  await page.locator('#steps .step').first().waitFor({ timeout: T });
}

test('first visit of / does not fetch the trajectory worker', async () => {
  const { page, errors, requests } = await newPage();
  await page.goto(site.url);
  await waitWorker(page);
  await page.waitForTimeout(500);
  assert.ok(requests.some((u) => /\/worker[^/]*\.wasm$/.test(u)), 'the scoring worker is fetched');
  assert.deepEqual(requests.filter((u) => u.includes('trajworker')), [], 'no trajworker request');
  assert.deepEqual(requests.filter((u) => u.includes('unicode-names')), [], 'no names table request');
  assert.deepEqual(requests.filter((u) => u.includes('codecs.wasm')), [], 'no codecs module request');
  // Opening the viewer page alone does not fetch it either: only a log does.
  await page.click('a[href$="/trajectory"]');
  await page.locator('#traj-drop').waitFor({ timeout: T });
  await page.waitForTimeout(300);
  assert.deepEqual(requests.filter((u) => u.includes('trajworker')), []);
  await openLog(page, path.join(TRAJ, 'extract-normalize-sku.traj'));
  assert.ok(requests.some((u) => /trajworker[^/]*\.wasm$/.test(u)), 'fetched once a log is opened');
  assert.deepEqual(errors, [], errors.join('\n'));
  await page.close();
});

test('each demo trajectory shows its steps, σ and flags; deep links survive a reload', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${site.url}trajectory`);
  await waitWorker(page);
  const expect = {
    'extract-normalize-sku.traj': { format: /^swe-agent-1/, flags: [] },
    'add-log-parameter-post-entry.traj': { format: /^swe-agent-1/, flags: ['edit_error'] },
    'stock-ledger-class.traj': { format: /^swe-agent-0\.x/, flags: ['limit'] },
  };
  for (const [file, want] of Object.entries(expect)) {
    await openLog(page, path.join(TRAJ, file));
    await page.locator('#traj-facts', { hasText: file }).waitFor({ timeout: T });
    assert.match(await page.textContent('#traj-format'), want.format, file);
    const steps = Number(/^(\d+) steps/.exec(await page.textContent('#traj-steps'))[1]);
    assert.ok(steps > 3, `${file}: ${steps} steps`);
    // The step list renders after the facts (a later tick): wait for it, then check the count.
    const firstPage = Math.min(steps, 50);
    await page.waitForFunction((n) => document.querySelectorAll('#steps .step').length === n,
      firstPage, { timeout: T }).catch(() => {});
    const shown = await page.locator('#steps .step').count();
    assert.equal(shown, firstPage, `${file}: first page of steps`);
    // The demo tasks are in the demo bundle: the flags are computed with their verdicts.
    await page.locator('#traj-status').waitFor({ state: 'detached', timeout: T });
    const flags = await page.$$eval('#failure-modes .flag', (li) => li.map((l) => l.dataset.flag));
    for (const f of want.flags) assert.ok(flags.includes(f), `${file}: ${f} in ${flags}`);
    const cost = await page.textContent('#traj-cost');
    assert.ok(cost === 'no data' || /^\$\d/.test(cost), cost);
    assert.notEqual(cost, '$0.0000');
    await screenshot(page, `trajectory-${file.replace(/\.traj$/, '')}`);
  }
  // add-log-parameter-post-entry: rejected edits on the σ timeline, untouched targets flagged.
  await openLog(page, path.join(TRAJ, 'add-log-parameter-post-entry.traj'));
  await page.locator('#traj-status').waitFor({ state: 'detached', timeout: T });
  assert.ok(await page.locator('#sigma-timeline rect.rejected').count() >= 2, 'rejected edits marked');
  assert.ok(await page.locator('#sigma-timeline rect.applied').count() >= 1, 'applied edits marked');
  // The demo task is in the demo bundle: its verdicts were scored, so FM-1 and FM-7 were computed.
  assert.doesNotMatch(await page.textContent('#failure-modes'), /Without the task's verdicts/);
  // Filters: errors only.
  await page.check('#filter-errors');
  await page.waitForFunction(() => document.querySelectorAll('#steps .step').length > 0
    && [...document.querySelectorAll('#steps .step')].every((s) => s.classList.contains('step-error')));
  const errorSteps = await page.$$eval('#steps .step', (s) => s.map((x) => Number(x.dataset.step)));
  assert.ok(errorSteps.includes(11) && errorSteps.includes(12), `the rejected edits: ${errorSteps}`);
  await page.uncheck('#filter-errors');
  // Search.
  await page.fill('#step-search', 'Multiple occurrences of old_str');
  await page.press('#step-search', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#steps .step')].map((s) => s.dataset.step).join() === '11');
  await page.fill('#step-search', '');
  await page.press('#step-search', 'Enter');
  // A deep link to a step (an evidence link of a flag), then a reload.
  await page.click('#failure-modes .flag[data-flag="edit_error"] a.evidence');
  await page.waitForURL(/\?step=\d+/);
  const step = Number(new URL(page.url()).searchParams.get('step'));
  await page.locator(`#step-${step}[aria-current]`).waitFor({ timeout: T });
  await page.reload();
  await page.locator(`#step-${step}[aria-current]`).waitFor({ timeout: T });
  assert.ok(await page.locator(`#step-${step}`).isVisible());
  await screenshot(page, 'trajectory-deep-link-after-reload');
  // Folding: a long observation shows a "Show all" button that unfolds it.
  const fold = page.locator('#steps details.fold').first();
  assert.ok(await fold.count() === 1, 'a long observation is folded');
  assert.equal(await fold.getAttribute('open'), null);
  await fold.locator('summary').click();
  assert.equal(await fold.getAttribute('open'), '');
  assert.deepEqual(errors, [], errors.join('\n'));
  await page.close();
});

test('every shared sample log is read (skips without ../shared)', async (t) => {
  if (!fs.existsSync(SAMPLES)) {
    t.skip(`no ${SAMPLES}`);
    return;
  }
  const { page, errors } = await newPage();
  await page.goto(`${site.url}trajectory`);
  const files = [];
  for (const dir of fs.readdirSync(SAMPLES, { withFileTypes: true })) {
    const full = path.join(SAMPLES, dir.name);
    if (dir.isDirectory()) for (const f of fs.readdirSync(full)) files.push(path.join(full, f));
    else if (!dir.name.endsWith('.md')) files.push(full);
  }
  for (const f of files) {
    await page.setInputFiles('#traj-file', f);
    await page.locator('#traj-facts', { hasText: path.basename(f) }).or(page.locator('#traj-error')).waitFor({ timeout: T });
    // The message is read only when there is an error: `textContent` of a missing element would
    // wait out Playwright's 30 s timeout for every file.
    if (await page.locator('#traj-error').count() > 0) assert.fail(`${f}: ${await page.textContent('#traj-error')}`);
    // The head (facts) and the first page of steps come in two worker replies: wait for the steps
    // (a new log's viewer starts with none, so a step seen here is this log's), or a 0-step log.
    const shown = await page.waitForFunction(
      () => document.querySelector('#steps .step') !== null
        || (document.querySelector('#traj-steps')?.textContent ?? '').startsWith('0 '),
      null, { timeout: T },
    ).then(() => true, () => false);
    assert.ok(shown, `${f}: no step shown`);
  }
  await screenshot(page, 'trajectory-last-sample');
  assert.deepEqual(errors, [], errors.join('\n'));
  await page.close();
});

test('an OpenHands V1 events/ folder (picked whole, or its files together) is joined in event order', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${site.url}trajectory`);
  await waitWorker(page);
  // The SDK's layout: one event per pretty-printed file, event-<index>-<uuid>.json; written here
  // with the indices out of name order past five digits (99999 before 100000).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-events-'));
  const dir = path.join(tmp, 'events');
  fs.mkdirSync(dir);
  const events = [
    ['event-99998-m.json', { kind: 'MessageEvent', id: 'm', source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text: 'Remove old.py' }] } }],
    ['event-99999-a.json', { kind: 'ActionEvent', id: 'a', source: 'agent', tool_name: 'terminal', tool_call_id: 'c', action: { kind: 'TerminalAction', command: 'rm old.py' } }],
    ['event-100000-o.json', { kind: 'ObservationEvent', id: 'o', source: 'environment', action_id: 'a', tool_call_id: 'c', observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: '' }], is_error: false, exit_code: 0 } }],
    ['event-100001-b.json', { kind: 'ActionEvent', id: 'b', source: 'agent', tool_name: 'terminal', tool_call_id: 'd', action: { kind: 'TerminalAction', command: 'ls' } }],
  ];
  for (const [name, ev] of events) fs.writeFileSync(path.join(dir, name), JSON.stringify(ev, null, 2));
  const check = async (label) => {
    await page.locator('#traj-facts', { hasText: label }).waitFor({ timeout: T });
    await page.locator('#steps .step').first().waitFor({ timeout: T });
    assert.match(await page.textContent('#traj-format'), /^openhands-v1/, label);
    assert.match(await page.textContent('#traj-steps'), /^3 steps/, label);
    // In event order: the rm (an edit: old.py deleted) before the ls, whatever the names' order.
    const actions = await page.$$eval('#steps .step', (s) => s.map((x) => x.textContent));
    assert.ok(actions.length === 3 && /rm old\.py/.test(actions[1]) && /ls/.test(actions[2]) && !/rm old/.test(actions[2]), actions.join(' | '));
    assert.ok(await page.locator('#sigma-timeline rect.applied').count() >= 1, `${label}: the delete on the σ timeline`);
  };
  // A folder picked whole (an <input webkitdirectory>, as a dropped folder is walked).
  await page.setInputFiles('#traj-folder', dir);
  await check('events');
  await screenshot(page, 'trajectory-events-folder');
  // The joined log is kept: a reload opens it again.
  await page.reload();
  await check('events');
  // The event files chosen together.
  await page.setInputFiles('#traj-file', events.map(([name]) => path.join(dir, name)).reverse());
  await check('4 files');
  assert.deepEqual(errors, [], errors.join('\n'));
  fs.rmSync(tmp, { recursive: true, force: true });
  await page.close();
});

test('a run folder scored from trajectories: failure-mode section and per-task viewer', async () => {
  const { page, errors } = await newPage();
  // A SWE-agent run folder: preds.json and <id>/<id>.traj.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-traj-'));
  const run = path.join(tmp, 'run');
  fs.mkdirSync(run);
  fs.copyFileSync(path.join(SUBS, 'predictions-by-id.json'), path.join(run, 'preds.json'));
  for (const f of fs.readdirSync(TRAJ)) {
    const id = f.replace(/\.traj$/, '');
    fs.mkdirSync(path.join(run, id));
    fs.copyFileSync(path.join(TRAJ, f), path.join(run, id, f));
  }
  await page.goto(`${site.url}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-folder', run);
  await page.locator('#upload-list tbody tr').nth(3).waitFor({ timeout: T });
  await page.fill('#run-name', 'trajectory run');
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  const runUrl = page.url();
  await page.locator('#fm-rates tbody tr').first().waitFor({ timeout: T });
  const rates = await page.$$eval('#fm-rates tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [
    tr.dataset.rate, tr.querySelectorAll('td')[1].textContent])));
  assert.match(rates['fm2.edit_error_of_all'], /^1\/3 /, JSON.stringify(rates));
  assert.match(rates.resolved, /^1\/3 /, JSON.stringify(rates));
  assert.ok(await page.locator('#fm-distribution').count() === 1, 'distribution chart');
  assert.ok(await page.locator('#fm-exit').count() === 1, 'exit reasons');
  assert.match(await page.textContent('#cost-per-solved'), /no data|\$/);
  await screenshot(page, 'run-failure-modes');
  // The trajectories behind the edit-error rate.
  await page.click('#fm-rates tr[data-rate="fm2.edit_error_of_all"] a.behind');
  await page.waitForURL(/\/add-log-parameter-post-entry\/trajectory$/, { timeout: T });
  await page.locator('#final-tests tbody tr').first().waitFor({ timeout: T });
  await page.locator('#steps .step').first().waitFor({ timeout: T });
  assert.ok(await page.locator('#final-tests a[href*="/tasks/add-log-parameter-post-entry?file="]').count() >= 1);
  await screenshot(page, 'run-trajectory');
  // The result page links its trajectory.
  await page.goto(`${runUrl}/stock-ledger-class`);
  await page.click('#result-trajectory');
  await page.locator('#traj-format').waitFor({ timeout: T });
  assert.deepEqual(errors, [], errors.join('\n'));
  await page.close();
});

/** CRC-32 of a buffer (zip entries). */
function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k += 1) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A zip of stored entries ([name, string] pairs), as an Inspect `.eval` is laid out. */
function zipStored(entries) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const n = Buffer.from(name);
    const data = Buffer.from(text);
    const crc = crc32(data);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(data.length, 18); lh.writeUInt32LE(data.length, 22); lh.writeUInt16LE(n.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(data.length, 20); ch.writeUInt32LE(data.length, 24); ch.writeUInt16LE(n.length, 28);
    ch.writeUInt32LE(offset, 42);
    locals.push(lh, n, data);
    central.push(ch, n);
    offset += lh.length + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

test('a run scored from an Inspect .eval over two epochs: the user chooses which epochs count', async () => {
  const { page, errors } = await newPage();
  // Two demo tasks, two epochs each: epoch 1 submits the solve patches, epoch 2 a partial patch
  // and an empty one. The samples' patches are where the SWE-bench scorer stores them.
  const patch = (f) => fs.readFileSync(path.join(SUBS, f), 'utf8');
  const sample = (id, epoch, p) => JSON.stringify({
    id, epoch, input: `Refactor ${id}`,
    messages: [{ role: 'user', content: `Refactor ${id}` }, { role: 'assistant', content: 'Done.' }],
    scores: { swe_bench_scorer: { value: 0, metadata: { model_patch: p } } },
  });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-eval-'));
  const file = path.join(tmp, 'epochs.eval');
  fs.writeFileSync(file, zipStored([
    ['header.json', JSON.stringify({ version: 2, status: 'success', eval: { task: 'refactorbench', model: 'demo/inspect-1' } })],
    ['samples/rename-parse-amount_epoch_1.json', sample('rename-parse-amount', 1, patch('rename-parse-amount.solve.patch'))],
    ['samples/move-strip-html-to-sanitize_epoch_1.json', sample('move-strip-html-to-sanitize', 1, patch('move-strip-html-to-sanitize.solve.patch'))],
    ['samples/rename-parse-amount_epoch_2.json', sample('rename-parse-amount', 2, patch('rename-parse-amount.partial.patch'))],
    ['samples/move-strip-html-to-sanitize_epoch_2.json', sample('move-strip-html-to-sanitize', 2, '')],
  ]));
  await page.goto(`${site.url}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', file);
  await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
  await page.fill('#run-name', 'inspect epochs');
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  const rate = async (id) => page.$eval(`#fm-rates tr[data-rate="${id}"]`, (tr) => tr.querySelectorAll('td')[1].textContent);
  await page.locator('#fm-rates tbody tr').first().waitFor({ timeout: T });
  // Every sample counts at first: 2 of 4 resolved.
  assert.match(await rate('resolved'), /^2\/4 /);
  assert.equal(await page.locator('#fm-epochs input[type=checkbox]').count(), 2);
  // Epoch 2 left out: the two solves of epoch 1.
  await page.uncheck('#fm-epochs input[data-epoch="2"]');
  await page.waitForFunction(() => /^2\/2 /.test(document.querySelector('#fm-rates tr[data-rate="resolved"]')?.querySelectorAll('td')[1]?.textContent ?? ''), null, { timeout: T });
  await screenshot(page, 'run-failure-modes-epoch-1');
  // Epoch 2 alone: none resolved.
  await page.check('#fm-epochs input[data-epoch="2"]');
  await page.uncheck('#fm-epochs input[data-epoch="1"]');
  await page.waitForFunction(() => /^0\/2 /.test(document.querySelector('#fm-rates tr[data-rate="resolved"]')?.querySelectorAll('td')[1]?.textContent ?? ''), null, { timeout: T });
  // None chosen: said, not 0/0.
  await page.uncheck('#fm-epochs input[data-epoch="2"]');
  await page.locator('#fm-status', { hasText: 'Choose at least one epoch' }).waitFor({ timeout: T });
  assert.deepEqual(errors, [], errors.join('\n'));
  fs.rmSync(tmp, { recursive: true, force: true });
  await page.close();
});

/** A SWE-agent 0.x log of about `mb` MB: tens of thousands of steps, an edit every 40th. */
function syntheticLog(file, mb) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, '{"environment": "swe_main", "trajectory": [');
  const filler = 'x = compute(value) + 1  # padding line of the synthetic observation\n'.repeat(30);
  let size = 0;
  let i = 0;
  while (size < mb * 1024 * 1024) {
    const edit = i % 40 === 39;
    const step = {
      action: edit ? `edit ${i % 300 + 1}:${i % 300 + 2}\n    pass\nend_of_edit\n` : `search_file "needle ${i}" pkg/mod${i % 7}.py\n`,
      observation: `step ${i} output\n${filler}`,
      response: `I will look at step ${i}.`,
      thought: `thought of step ${i}`,
      state: JSON.stringify({ open_file: `/repo/pkg/mod${i % 7}.py`, working_dir: '/repo' }),
    };
    const text = (i ? ',' : '') + JSON.stringify(step);
    fs.writeSync(fd, text);
    size += text.length;
    i += 1;
  }
  fs.writeSync(fd, '], "history": [], "info": {"exit_status": "submitted", "submission": ""}}');
  fs.closeSync(fd);
  return i;
}

test('a 50 MB log stays responsive: no long task over 200 ms on the UI thread', async () => {
  const { page, errors } = await newPage();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-big-'));
  const file = path.join(tmp, 'big.traj');
  const steps = syntheticLog(file, 50);
  assert.ok(fs.statSync(file).size >= 50 * 1024 * 1024);
  await page.goto(`${site.url}trajectory`);
  await page.locator('#traj-drop').waitFor({ timeout: T });
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  const t0 = Date.now();
  await page.setInputFiles('#traj-file', file);
  await page.locator('#traj-steps', { hasText: `${steps} steps` }).waitFor({ timeout: 180000 });
  await page.locator('#steps .step').first().waitFor({ timeout: T });
  const opened = Date.now() - t0;
  // Paging, a filter, a deep link far down the log.
  await page.click('.page-next >> nth=0');
  await page.locator('#step-50').waitFor({ timeout: T });
  await page.check('#filter-edits');
  await page.locator('#step-39').waitFor({ timeout: T });
  await page.uncheck('#filter-edits');
  await page.fill('#step-search', `needle ${steps - 100}"`);
  await page.press('#step-search', 'Enter');
  await page.locator(`#step-${steps - 100}`).waitFor({ timeout: T });
  await page.waitForTimeout(300);
  const long = await page.evaluate(() => window.__long);
  console.log(`50 MB log: ${steps} steps, opened in ${opened} ms; long tasks: ${JSON.stringify(long)}`);
  assert.ok(long.every((d) => d <= 200), `long tasks over 200 ms: ${long}`);
  // A deep link far down the log, by a fresh load (the log comes back from IndexedDB).
  await page.goto(`${site.url}trajectory?step=${steps - 5}`);
  await page.locator(`#step-${steps - 5}[aria-current]`).waitFor({ timeout: 180000 });
  await screenshot(page, 'trajectory-50mb');
  assert.deepEqual(errors, [], errors.join('\n'));
  await page.close();
});
