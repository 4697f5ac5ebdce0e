// Journeys 1 and 2 on the demo bundle: the task list (counts, repository filter, search, both kept in
// the URL), a task page (three instructions, test methods with the highlighted test source, the files
// the tests inspect, viewable), deep links on reload, and the same under the /refscore/ sub-path.
// Screenshots of every page, light and dark, at 1366×768, go to test-output/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, OUT } from './harness.mjs';

const DEMO = 'tasks/demo';
const BUNDLE = 'dist/bundles/demo';
const index = JSON.parse(fs.readFileSync(path.join(BUNDLE, 'index.json'), 'utf8'));
const taskData = (id) => {
  const row = index.tasks.find((t) => t.id === id);
  return JSON.parse(fs.readFileSync(path.join(BUNDLE, row.data), 'utf8'));
};
const instruction = (set, repo, id) =>
  fs.readFileSync(path.join(DEMO, 'problems', `${set}_problems`, repo, `${id}-task.txt`), 'utf8');

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A page at 1366×768 in the given colour scheme that records console errors. */
async function open(scheme = 'light') {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, colorScheme: scheme });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const url = msg.location()?.url ?? '';
    // Sites built before bundles/bundles.json existed serve the demo alone; the app's probe for the
    // list is then a 404, which is expected only while the build does not write the file.
    if (url.endsWith('bundles/bundles.json') && !fs.existsSync('dist/bundles/bundles.json')) return;
    errors.push(`console: ${msg.text()} ${url}`);
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => {
    // Leaving a page cancels what it was still loading (the worker pool starts with the page and
    // prefetches the worker's wasm): not an error, as in the other test files.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`);
  });
  return { page, errors, context };
}

/** Waits for the scoring worker to answer, so leaving the page never aborts its wasm download. */
async function workerReady(page) {
  await page.locator('#worker-status', { hasText: 'ready' }).waitFor({ timeout: 20000 });
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
}

const rowIds = (page) => page.locator('#task-list tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.taskId));

test('task list: all demo tasks, counts, repository filter and search kept in the URL', async () => {
  assert.equal(index.tasks.length, 9, 'the demo bundle has nine tasks');
  const server = await serve('dist', '/');
  const { page, errors, context } = await open();
  try {
    await page.goto(`${server.url}tasks`);
    await page.locator('#task-list tbody tr').first().waitFor({ timeout: 20000 });
    assert.deepEqual(await rowIds(page), index.tasks.map((t) => t.id));
    assert.equal(await page.locator('#stat-tasks').textContent(), '9');
    assert.equal(await page.locator('#stat-repos').textContent(), '2');
    const methods = index.tasks.reduce((n, t) => n + t.methods, 0);
    assert.equal(await page.locator('#stat-methods').textContent(), String(methods));
    await shot(page, 'tasks-light');

    // Repository filter.
    await page.selectOption('#repo-filter', 'tinyfeed_refactor');
    const tinyfeed = index.tasks.filter((t) => t.repo === 'tinyfeed_refactor').map((t) => t.id);
    await page.waitForFunction((n) => document.querySelectorAll('#task-list tbody tr').length === n, tinyfeed.length);
    assert.deepEqual(await rowIds(page), tinyfeed);
    assert.match(page.url(), /\/tasks\?repo=tinyfeed_refactor$/);
    assert.equal(await page.locator('#task-count').textContent(), `${tinyfeed.length} of 9 tasks`);

    // Search over the id and the instruction, on top of the filter; then without it.
    await page.fill('#task-search', 'sanitize');
    await page.waitForFunction(() => document.querySelectorAll('#task-list tbody tr').length === 1);
    assert.deepEqual(await rowIds(page), ['move-strip-html-to-sanitize']);
    await page.selectOption('#repo-filter', '');
    // A word only an instruction has (the id says parse-amount, the instruction parse_money).
    await page.fill('#task-search', 'parse_money');
    await page.waitForFunction(() => document.querySelectorAll('#task-list tbody tr').length === 1);
    assert.deepEqual(await rowIds(page), ['rename-parse-amount']);
    await page.fill('#task-search', 'no such task anywhere');
    await page.locator('#task-list-none').waitFor();
    assert.equal((await rowIds(page)).length, 0);

    // The filters live in the URL: a reload keeps them.
    await page.fill('#task-search', 'rename');
    await page.selectOption('#repo-filter', 'ledgerly_refactor');
    await page.waitForFunction(() => location.search.includes('repo=ledgerly_refactor') && location.search.includes('q=rename'));
    await workerReady(page);
    await page.reload();
    await page.locator('#task-list tbody tr').first().waitFor({ timeout: 20000 });
    assert.equal(await page.inputValue('#task-search'), 'rename');
    assert.equal(await page.inputValue('#repo-filter'), 'ledgerly_refactor');
    assert.deepEqual(await rowIds(page), ['rename-parse-amount']);
    await shot(page, 'tasks-filtered-light');
    assert.deepEqual(errors, [], `console errors:\n${errors.join('\n')}`);
  } finally {
    await context.close();
    server.close();
  }
});

/** Checks a task page that is already open: instructions, methods, test source, inspected files. */
async function checkTaskPage(page, id) {
  const data = taskData(id);
  await page.locator('#task-title').waitFor({ timeout: 20000 });
  assert.equal(await page.locator('#task-title').textContent(), id);
  for (const set of ['lazy', 'base', 'descriptive']) {
    const text = await page.locator(`.instr[data-set="${set}"] .instr-text`).textContent();
    assert.equal(text, instruction(set, data.repo, id), `${set} instruction of ${id}`);
  }
  // The methods, in the loader's order, and the test source line by line.
  const methods = await page.locator('#subtests .method').evaluateAll((bs) => bs.map((b) => b.dataset.method));
  assert.deepEqual(methods, data.methods);
  const lines = await page.locator('#test-source .line .lc').allTextContents();
  assert.deepEqual(lines, data.test.source.replace(/\n$/, '').split('\n'));
  assert.ok(await page.locator('#test-source .t-kw', { hasText: 'class' }).count() > 0, 'keywords are highlighted');
  // Clicking a method marks its def line.
  const last = data.methods[data.methods.length - 1];
  await page.locator(`#subtests .method[data-method="${last}"]`).click();
  const hl = page.locator('#test-source .line.hl');
  await hl.waitFor();
  assert.match(await hl.textContent(), new RegExp(`def ${last.split('.')[1]}\\(`));
  // Every inspected path is listed.
  const paths = await page.locator('#inspected-files tbody tr[data-path]').evaluateAll((trs) => trs.map((t) => t.dataset.path));
  for (const p of data.inspected) assert.ok(paths.includes(p.path), `${p.path} listed`);
  return data;
}

async function taskJourney(dir, base, prefix) {
  const server = await serve(dir, base);
  for (const scheme of ['light', 'dark']) {
    const { page, errors, context } = await open(scheme);
    try {
      // From the list to a task by clicking.
      await page.goto(`${server.url}tasks`);
      await page.locator('#task-list tbody tr').first().waitFor({ timeout: 20000 });
      if (scheme === 'dark') await shot(page, `${prefix}tasks-dark`);
      await workerReady(page);
      await page.locator('#task-list a', { hasText: 'rename-feed-item-to-entry' }).click();
      await page.waitForURL(`**${base}tasks/rename-feed-item-to-entry`);
      const data = await checkTaskPage(page, 'rename-feed-item-to-entry');
      const score = await page.locator('#score-link').getAttribute('href');
      assert.equal(score, `${base}tasks/rename-feed-item-to-entry/score`);
      await shot(page, `${prefix}task-${scheme}`);

      // Open an inspected file: its base content comes from the bundle.
      const file = data.inspected.find((p) => p.path === 'tinyfeed/models.py');
      assert.ok(file && file.exists);
      await page.locator(`#inspected-files tr[data-path="${file.path}"] button`, { hasText: 'view' }).click();
      await page.locator('#file-view .line').first().waitFor({ timeout: 20000 });
      const base_text = fs.readFileSync(path.join(DEMO, 'repositories', data.repo, file.path), 'utf8');
      const shown = await page.locator('#file-view .line .lc').allTextContents();
      assert.deepEqual(shown, base_text.replace(/\n$/, '').split('\n'));
      assert.ok(page.url().endsWith('?file=tinyfeed/models.py'), page.url());
      // A test line that names the file marks that line of the test source.
      await page.locator(`#inspected-files tr[data-path="${file.path}"] td:nth-child(3) button`).first().click();
      assert.equal(await page.locator('#test-source .line.hl').getAttribute('data-line'), String(file.lines[0]));
      await shot(page, `${prefix}task-file-${scheme}`);

      // Deep link with the file open survives a reload.
      await workerReady(page);
      await page.reload();
      await page.locator('#file-view .line').first().waitFor({ timeout: 20000 });
      assert.equal(await page.locator('#file-view').getAttribute('data-path'), 'tinyfeed/models.py');

      // A task whose tests inspect files that do not exist yet, opened by a deep link.
      await workerReady(page);
      await page.goto(`${server.url}tasks/split-storage-loaders`);
      const split = await checkTaskPage(page, 'split-storage-loaders');
      const absent = split.inspected.find((p) => !p.exists);
      assert.ok(absent, 'split-storage-loaders inspects a file the task creates');
      assert.match(await page.locator(`#inspected-files tr[data-path="${absent.path}"]`).textContent(), /not in the base repository/);
      await shot(page, `${prefix}task-split-${scheme}`);

      // An unknown id says so.
      await workerReady(page);
      await page.goto(`${server.url}tasks/no-such-task`);
      await page.locator('#task-error').waitFor({ timeout: 20000 });
      assert.match(await page.locator('#task-error').textContent(), /no-such-task/);
      assert.deepEqual(errors, [], `console errors:\n${errors.join('\n')}`);
    } finally {
      await context.close();
    }
  }
  server.close();
}

test('task page: instructions, methods with the test source, inspected files (root)', async () => {
  await taskJourney('dist', '/', '');
});

test('task page works under the /refscore/ sub-path', async () => {
  await taskJourney('dist-subpath', '/refscore/', 'subpath-');
});
