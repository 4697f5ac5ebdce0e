// Issue 21 items 8 (navigation) and 10 (accessibility and console), on the release site with the
// demo bundle: page titles, subtest deep links, line anchors, the results table's sort and
// filters, next/previous results, delete confirmation, scoring progress in the header, the
// predictions-file hint on Runs, the landing page's line; a skip link, heading levels without
// jumps, no console warning and no serious axe-core violation on any route.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { screenshot, useSite, RUN_ROWS } from './harness.mjs';

const SUBS = path.resolve('tasks/demo/submissions');
const AXE = fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
const T = 60000;

const site = useSite();

/** A page that records console warnings and errors (its workers' too) and uncaught exceptions. */
async function newPage(ctx = site.context) {
  const page = await ctx.newPage();
  const messages = [];
  const onConsole = (where) => (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') messages.push(`${where} ${msg.type()}: ${msg.text()}`);
  };
  page.on('console', onConsole('page'));
  page.on('worker', (w) => { try { w.on('console', onConsole('worker')); } catch { /* older playwright */ } });
  page.on('pageerror', (err) => messages.push(`pageerror: ${err.message}`));
  return { page, messages };
}

const waitWorker = (page) => page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
const title = (page) => page.evaluate(() => document.title);

let runUrl;
let runName = 'navigation run';
test('scoring progress stays in the header when the user leaves the Score page', async () => {
  // The demo predictions under 24 model names (model after model, so a model's results are
  // consecutive): long enough a run, even on a fast machine, to still be scoring when the user
  // comes back to the Score page, and within the results table's first page (200 rows). (Eight
  // models once ran out before the task list showed: a warm worker scores the demo's 64
  // submissions in a few hundred milliseconds.)
  const lines = fs.readFileSync(path.join(SUBS, 'predictions.jsonl'), 'utf8').trim().split('\n');
  const many = [];
  for (let m = 1; m <= 24; m += 1) {
    for (const line of lines) many.push(JSON.stringify({ ...JSON.parse(line), model_name_or_path: `model-${m}` }));
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-nav-')), 'predictions.jsonl');
  fs.writeFileSync(file, many.join('\n') + '\n');
  const { page, messages } = await newPage();
  await page.goto(`${site.url}score?workers=1`);
  await waitWorker(page);
  assert.equal(await title(page), 'Score — refscore');
  await page.setInputFiles('#upload-files', [file]);
  await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
  await page.fill('#run-name', runName);
  await page.click('#score-start');
  await page.locator('#score-progress').waitFor({ timeout: T });
  // Leave through the navigation (client side: the session keeps scoring).
  await page.locator('nav a', { hasText: 'Tasks' }).click();
  await page.locator('#task-list').waitFor({ timeout: T });
  const progress = page.locator('#header-progress');
  await progress.waitFor({ timeout: T });
  // Text and link read in one step: a warmed-up worker can finish the run between two reads.
  const [text, href] = await progress.evaluate((el) => [el.textContent, el.getAttribute('href')]);
  assert.match(text, /^(Reading files|Scoring) \d+ \/ \d+/);
  await screenshot(page, 'nav-header-progress');
  // It links back to the Score page. (Followed through the navigation's own Score link: the
  // run can finish before a click on the header bar lands, and the bar then disappears. The
  // finished run is held until the Score page opens it, at once.)
  assert.match(href, /\/score$/);
  await page.locator('nav a', { hasText: /^Score$/ }).click();
  await page.waitForURL(/\/(score|runs\/[0-9a-f]+)$/, { timeout: T });
  // On the Score page the header does not repeat the progress bar.
  if (/\/score$/.test(page.url())) {
    assert.equal(await page.locator('#header-progress').count(), 0);
  } else {
    console.log('the run had finished before the Score page opened');
  }
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: 5 * T });
  runUrl = page.url();
  assert.deepEqual(messages, [], messages.join('\n'));
});

test('titles, the results table sorts and filters, next/previous, subtest deep links, delete asks', async () => {
  assert.ok(runUrl, 'the scoring test ran');
  const { page, messages } = await newPage();
  await page.goto(runUrl);
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  assert.equal(await title(page), `${runName} — refscore`);
  const ids = () => page.$$eval('#run-results tbody tr', (trs) => trs.map((tr) => tr.dataset.instance));
  const before = await ids();
  // Every column sorts, both ways, from its header; the URL keeps the order.
  const cols = await page.$$eval('#run-results thead a.sort', (as) => as.map((a) => a.dataset.col));
  assert.deepEqual(cols, ['task', 'model', 'set', 'patch', 'verdict', 'subtests', 'source']);
  await page.click('#run-results thead a.sort[data-col="task"]');
  await page.waitForURL(/sort=task&dir=asc/);
  const asc = await ids();
  assert.deepEqual(asc, [...before].sort());
  await page.click('#run-results thead a.sort[data-col="task"]');
  await page.waitForURL(/sort=task&dir=desc/);
  assert.deepEqual(await ids(), [...asc].reverse());
  assert.equal(await page.getAttribute('#run-results th[aria-sort="descending"] a', 'data-col'), 'task');
  await page.click('#run-results thead a.sort[data-col="subtests"]');
  await page.waitForURL(/sort=subtests/);
  const ratios = await page.$$eval('#run-results tbody tr td.num', (tds) => tds.map((td) => {
    const [a, b] = td.textContent.split('/').map(Number);
    return b ? a / b : 0;
  }));
  for (let i = 1; i < ratios.length; i++) assert.ok(ratios[i - 1] >= ratios[i], `subtests sorted: ${ratios}`);
  // Filters: model, instruction set, text.
  const models = await page.$$eval('#results-model option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(models.length >= 1, 'model options');
  await page.selectOption('#results-model', models[0]);
  await page.waitForURL(/model=/);
  for (const m of await page.$$eval('#run-results tbody tr td:nth-child(2)', (tds) => tds.map((t) => t.textContent))) {
    assert.equal(m, models[0]);
  }
  await page.selectOption('#results-model', '');
  const sets = await page.$$eval('#results-set option', (os) => os.map((o) => o.value).filter(Boolean));
  if (sets.length) {
    await page.selectOption('#results-set', sets[0]);
    for (const s of await page.$$eval('#run-results tbody tr td:nth-child(3)', (tds) => tds.map((t) => t.textContent))) {
      assert.equal(s, sets[0]);
    }
    await page.selectOption('#results-set', '');
  }
  await page.fill('#results-search', before[0]);
  await page.waitForURL(/q=/);
  const found = await ids();
  assert.ok(found.length >= 1 && found.every((id) => id.includes(before[0])), found.join(','));
  await screenshot(page, 'nav-results-filtered');
  await page.fill('#results-search', '');

  // Next / previous between the run's results (report order).
  await page.goto(`${runUrl}/${before[0]}`);
  await page.locator('#result-subtests').waitFor({ timeout: T });
  assert.equal(await title(page), `${before[0]} · ${runName} — refscore`);
  assert.equal(await page.locator('#result-prev').count(), 0, 'the first result has no previous');
  await page.click('#result-next');
  await page.waitForURL((u) => u.pathname.endsWith(`/${before[1]}`), { timeout: T });
  await page.locator('#result-prev').waitFor({ timeout: T });
  await page.click('#result-prev');
  await page.waitForURL((u) => u.pathname.endsWith(`/${before[0]}`), { timeout: T });

  // A deep link to each subtest: selecting one changes the URL; loading the URL selects it.
  let withTests = null;
  for (const id of before) {
    await page.goto(`${runUrl}/${id}`);
    await page.locator('#result-subtests').waitFor({ timeout: T });
    if (await page.locator('#result-subtests tbody tr').count() >= 2) { withTests = id; break; }
  }
  assert.ok(withTests, 'a result with two test methods');
  const second = page.locator('#result-subtests tbody tr').nth(1);
  const testId = await second.getAttribute('data-test-id');
  await second.locator('button.test-select').click();
  await page.waitForURL((u) => u.searchParams.get('test') === testId, { timeout: T });
  assert.match(await second.getAttribute('class'), /selected/);
  const deep = page.url();
  await page.goto(`${runUrl}/${before[0]}`);
  await page.goto(deep);
  await page.locator('#result-subtests tr.selected').waitFor({ timeout: T });
  assert.equal(await page.getAttribute('#result-subtests tr.selected', 'data-test-id'), testId);
  await screenshot(page, 'nav-subtest-deep-link');

  // Delete asks first; "Keep" keeps the run.
  await page.goto(runUrl);
  await page.locator('#delete-run').click();
  await page.locator('#delete-confirm').waitFor({ timeout: T });
  await screenshot(page, 'nav-delete-confirm');
  await page.click('#delete-cancel');
  assert.equal(await page.locator('#delete-confirm').count(), 0);
  await page.goto(`${site.url}runs`);
  await page.locator(`#runs-list tr[data-run="${runUrl.split('/').pop()}"]`).waitFor({ timeout: T });
  const row = page.locator(`#runs-list tr[data-run="${runUrl.split('/').pop()}"]`);
  await row.locator('button.delete-run').click();
  await row.locator('button.delete-confirm').waitFor({ timeout: T });
  await row.locator('button.delete-cancel').click();
  assert.equal(await page.locator(`#runs-list tr[data-run="${runUrl.split('/').pop()}"]`).count(), 1);
  assert.deepEqual(messages, [], messages.join('\n'));
});

test('a test-file line anchor scrolls to its line; the task page is titled by its id', async () => {
  const { page, messages } = await newPage();
  await page.goto(`${site.url}tasks/split-storage-loaders#test-L60`);
  const line = page.locator('#test-L60');
  await line.waitFor({ timeout: T });
  assert.equal(await title(page), 'split-storage-loaders — refscore');
  await page.waitForFunction(() => document.getElementById('test-L60')?.classList.contains('hl'), null, { timeout: T });
  const inView = await page.evaluate(() => {
    const l = document.getElementById('test-L60').getBoundingClientRect();
    const box = document.getElementById('test-L60').closest('pre').getBoundingClientRect();
    return l.top >= box.top && l.bottom <= box.bottom && l.top >= 0 && l.bottom <= innerHeight;
  });
  assert.ok(inView, 'line 60 is visible in its box and the window');
  // A click on a line number puts its anchor in the URL.
  await page.locator('#test-L12 .ln').click();
  await page.waitForFunction(() => location.hash === '#test-L12');
  await screenshot(page, 'nav-line-anchor');
  assert.deepEqual(messages, [], messages.join('\n'));
});

test('importing a predictions file on Runs says to score it; the landing page says what refscore is', async () => {
  const { page, messages } = await newPage();
  await page.goto(site.url);
  const intro = page.locator('#intro');
  await intro.waitFor({ timeout: T });
  const text = await intro.textContent();
  assert.match(text, /refscore/);
  assert.match(text, /our own small benchmark/);
  assert.match(text, /real/);
  await page.goto(`${site.url}runs`);
  await page.locator('#runs-list, #runs-empty').first().waitFor({ timeout: T });
  await page.setInputFiles('#import-report', path.join(SUBS, 'predictions.json'));
  await page.locator('#import-error').waitFor({ timeout: T });
  assert.match(await page.textContent('#import-error'), /this is a predictions file.*: score it on the Score page/);
  await screenshot(page, 'nav-import-predictions');
  assert.deepEqual(messages, [], messages.join('\n'));
});

/** Heading levels that jump (an h3 after an h1), as `h1 → h3` strings. */
function headingJumps() {
  const hs = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => h.offsetParent !== null);
  const jumps = [];
  let last = 0;
  for (const h of hs) {
    const level = Number(h.tagName[1]);
    if (level > last + 1) jumps.push(`h${last} → h${level} (${h.textContent.trim().slice(0, 40)})`);
    last = level;
  }
  return jumps;
}

test('every route: skip link, headings without jumps, no console warning, no serious axe violation', async () => {
  assert.ok(runUrl, 'the scoring test ran');
  const { page, messages } = await newPage();
  const run = new URL(runUrl).pathname.replace(/^\//, '');
  const task = 'split-storage-loaders';
  await page.goto(runUrl);
  await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
  const first = await page.getAttribute('#run-results tbody tr', 'data-instance');
  const routes = ['', 'tasks', `tasks/${task}`, `tasks/${task}/score`, 'score', 'runs', run, `${run}/${first}`,
    'trajectory', 'about', 'compare', 'combine?repo=ledgerly_refactor', 'nope'];
  const problems = [];
  for (const route of routes) {
    await page.goto(`${site.url}${route}`);
    await page.locator('main > *').first().waitFor({ timeout: T });
    await page.waitForTimeout(1200);
    // The skip link is the first thing Tab reaches and moves focus to the main content.
    await page.keyboard.press('Tab');
    const skip = await page.evaluate(() => document.activeElement?.classList.contains('skip-link'));
    if (!skip) problems.push(`/${route}: Tab does not reach the skip link first`);
    await page.keyboard.press('Enter');
    const inMain = await page.evaluate(() => document.activeElement?.id === 'main');
    if (!inMain) problems.push(`/${route}: the skip link does not move focus to main`);
    for (const j of await page.evaluate(headingJumps)) problems.push(`/${route}: heading jump ${j}`);
    if (!/ — refscore$|^refscore$/.test(await title(page))) problems.push(`/${route}: title ${await title(page)}`);
    await page.evaluate(AXE);
    const violations = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
    });
    for (const v of violations) problems.push(`/${route}: axe ${v}`);
    await screenshot(page, `a11y-${route.replace(/[/?=]/g, '_') || 'home'}`);
  }
  assert.deepEqual(problems, [], problems.join('\n'));
  assert.deepEqual(messages, [], messages.join('\n'));
});
