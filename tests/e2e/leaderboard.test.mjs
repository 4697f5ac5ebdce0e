// The leaderboard (the landing page): every published entry with its source, sorting and filters
// kept in the URL across a reload, a run scored in the browser beside the published rows as
// "local", a report published with the site (dist-board, built by scripts/build-leaderboard-site.sh)
// drillable to every subtest, no request to any other origin, and the site under a sub-path
// working with the network cut after the first visit (the service worker). Screenshots go to
// test-output/e2e/leaderboard-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, OUT, RUN_ROWS } from './harness.mjs';

const T = 60000;
const published = JSON.parse(fs.readFileSync('dist/leaderboard/published.json', 'utf8'));

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A fresh profile (its own IndexedDB and service worker) that records errors and every request. */
async function open() {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const requests = [];
  context.on('request', (req) => requests.push(req.url()));
  const page = await context.newPage();
  page.on('request', (req) => requests.push(req.url()));
  page.on('worker', (w) => w.on('request', (req) => requests.push(req.url())));
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('requestfailed', (req) => {
    if (req.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`);
  });
  return { context, page, errors, requests };
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(OUT, `leaderboard-${name}.png`), fullPage: true });
}

/** Every request went to the site's own origin (no CDN, font or analytics host). */
function assertSameOrigin(requests, site) {
  const origin = new URL(site).origin;
  const others = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
  assert.deepEqual(others, [], 'requests to other origins');
  assert.ok(requests.length > 3, 'requests were recorded');
}

const entryIds = (page, table) => page.locator(`#${table} tbody tr`).evaluateAll((trs) => trs.map((t) => t.dataset.entry));
/** The text of column `n` (1-based) of the main table, first text node only (no badges). */
const column = (page, n) => page.locator(`#leaderboard tbody tr td:nth-child(${n})`)
  .evaluateAll((tds) => tds.map((td) => (td.childNodes[0]?.textContent ?? '').trim()));

test('published entries with their sources; sorting and filters survive a reload; one origin', async () => {
  const server = await serve('dist', '/');
  const { context, page, errors, requests } = await open();
  try {
    await page.goto(server.url);
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: T });
    const shown = [...await entryIds(page, 'leaderboard'), ...await entryIds(page, 'leaderboard-apart')];
    assert.deepEqual([...shown].sort(), published.entries.map((e) => e.id).sort(), 'every entry once');
    for (const e of published.entries) {
      const row = page.locator(`tr[data-entry="${e.id}"]`);
      const source = row.locator('.source');
      assert.equal(await source.textContent(), e.source.name, e.id);
      if (e.source.url) assert.equal(await source.getAttribute('href'), e.source.url, e.id);
      else assert.equal(await row.locator('a.source').count(), 0, e.id);
      assert.ok((await row.textContent()).includes(e.source.location), `${e.id}: location`);
      if (!e.report) assert.ok((await row.textContent()).includes('published figures, no per-task data'), e.id);
    }
    // The paper's 22% vs 18% discrepancy is on the row, as a note.
    const base = page.locator('tr[data-entry="paper-sweagent-gpt4-base"]');
    assert.match(await base.locator('td.resolved').textContent(), /^22%/);
    assert.match(await base.textContent(), /uncertain/);
    await base.locator('details.notes summary').click();
    assert.match(await base.locator('details.notes').textContent(), /18%/);
    // Default order: resolved, best first, ranked rows only in the main table.
    const ranked = published.entries.filter((e) => e.resolved != null && !Object.entries(e.flags ?? {})
      .some(([k, v]) => v && k !== 'uncertain'));
    assert.equal((await entryIds(page, 'leaderboard')).length, ranked.length);
    const rates = (await page.locator('#leaderboard td.resolved').allTextContents()).map((t) => parseFloat(t));
    assert.deepEqual(rates, [...rates].sort((a, b) => b - a));
    assert.equal(await page.locator('#board-charts svg').count(), 3, 'a chart per instruction set');
    await shot(page, 'published');

    // Sort by agent (A first), then filter: all in the URL.
    await page.locator('#leaderboard th a[data-col="agent"]').click();
    await page.waitForURL(/\?sort=agent&dir=asc$/);
    const agents = (await column(page, 1)).map((a) => a.toLowerCase());
    assert.deepEqual(agents, [...agents].sort());
    await page.selectOption('#filter-set', 'base');
    await page.waitForURL(/set=base/);
    await page.selectOption('#filter-harness', 'third_party');
    await page.waitForURL(/harness=third_party/);
    const check = async () => {
      const sets = await column(page, 4);
      assert.ok(sets.length > 0 && sets.every((s) => s === 'base'), sets.join());
      assert.ok((await column(page, 9)).every((h) => h === 'third-party'));
      const a = (await column(page, 1)).map((x) => x.toLowerCase());
      assert.deepEqual(a, [...a].sort());
    };
    await check();
    const before = await entryIds(page, 'leaderboard');
    await page.reload();
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: T });
    assert.equal(await page.inputValue('#filter-set'), 'base');
    assert.equal(await page.inputValue('#filter-harness'), 'third_party');
    assert.deepEqual(await entryIds(page, 'leaderboard'), before);
    await check();
    assert.equal(await page.locator('#leaderboard th[aria-sort="ascending"] a').getAttribute('data-col'), 'agent');
    await shot(page, 'sorted-filtered');
    // The task list is one click away.
    await page.click('#to-tasks');
    await page.locator('#task-list tbody tr').first().waitFor({ timeout: T });
    assertSameOrigin(requests, server.url);
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await context.close();
    server.close();
  }
});

test('a run scored in the browser appears beside the published rows, marked local', async () => {
  const server = await serve('dist', '/');
  const { context, page, errors, requests } = await open();
  try {
    await page.goto(`${server.url}tasks/rename-parse-amount/score`);
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
    await page.setInputFiles('#patch-files', path.resolve('tasks/demo/submissions/rename-parse-amount.solve.patch'));
    await page.locator('.file-names li').first().waitFor({ timeout: T });
    await page.click('#score-patch');
    await page.waitForURL(/\/runs\/[0-9a-f]+\/rename-parse-amount$/, { timeout: T });
    const run = /\/runs\/([0-9a-f]+)\//.exec(page.url())[1];
    await page.locator('nav a', { hasText: 'Leaderboard' }).click();
    const local = page.locator('tr.local');
    await local.first().waitFor({ timeout: T });
    assert.equal(await local.count(), 1);
    const text = await local.textContent();
    assert.match(text, /local/);
    // One of the nine demo tasks resolved: 11.1% over the bundle, a partial run shown apart.
    assert.match(await local.locator('td.resolved').textContent(), /^11\.1% \(1\/9\)/);
    assert.equal(await page.locator('#leaderboard-apart tr.local').count(), 1);
    assert.equal(await local.locator('a.drill').getAttribute('href'), `/runs/${run}`);
    // Published rows are still all there.
    const rows = await page.locator('#leaderboard tbody tr, #leaderboard-apart tbody tr').count();
    assert.equal(rows, published.entries.length + 1);
    // Its per-task breakdown (by repository, by inspected files).
    assert.equal(await page.locator('#board-breakdowns .board-breakdown .badge.local').count(), 1);
    await shot(page, 'local-run');
    // Filtering to per-task data keeps the local run and drops figures-only rows.
    await page.selectOption('#filter-data', 'per-task');
    await page.waitForURL(/data=per-task/);
    const left = [...await entryIds(page, 'leaderboard'), ...await entryIds(page, 'leaderboard-apart')];
    assert.ok(left.every((id) => id.startsWith('local-') || published.entries.find((e) => e.id === id)?.report), left.join());
    assert.ok(left.some((id) => id.startsWith('local-')));
    assertSameOrigin(requests, server.url);
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await context.close();
    server.close();
  }
});

const BOARD = 'dist-board';
test('a report published with the site is drillable to every subtest (scripts/build-leaderboard-site.sh)', async (t) => {
  if (!fs.existsSync(path.join(BOARD, 'leaderboard/published.json'))) {
    t.skip(`${BOARD} not built (scripts/test.sh builds it with scripts/build-leaderboard-site.sh)`);
    return;
  }
  const board = JSON.parse(fs.readFileSync(path.join(BOARD, 'leaderboard/published.json'), 'utf8'));
  const entry = board.entries.find((e) => e.report);
  assert.ok(entry, 'the site has an entry with a report');
  const report = JSON.parse(fs.readFileSync(path.join(BOARD, 'leaderboard', entry.report), 'utf8'));
  const server = await serve(BOARD, '/refscore/');
  const { context, page, errors, requests } = await open();
  try {
    await page.goto(server.url);
    const row = page.locator(`tr[data-entry="${entry.id}"]`);
    await row.waitFor({ timeout: T });
    assert.equal(await row.locator('a.drill').textContent(), 'per-task data');
    await page.locator(`#board-breakdowns .board-breakdown[data-entry="${entry.id}"] svg`).first().waitFor({ timeout: T });
    await shot(page, 'site-with-report');
    await row.locator('a.drill').click();
    await page.waitForURL(`**/refscore/leaderboard/${entry.id}`);
    await page.locator(RUN_ROWS).first().waitFor({ timeout: T });
    assert.equal(await page.locator('#run-results tbody tr').count(), report.results.length);
    assert.equal(await page.locator('#delete-run').count(), 0, 'a published report is not the user\'s run');
    await shot(page, 'published-run');
    // Every result, down to every subtest verdict.
    const withTests = report.results.find((r) => r.tests.length > 1);
    await page.locator(`#run-results tr[data-instance="${withTests.instance_id}"] a`).first().click();
    await page.waitForURL(`**/refscore/leaderboard/${entry.id}/${withTests.instance_id}`);
    await page.locator('#result-subtests tbody tr').first().waitFor({ timeout: T });
    const onScreen = await page.$$eval('#result-subtests tbody tr', (trs) => trs.map((tr) => [tr.dataset.testId, tr.dataset.status]));
    assert.deepEqual(onScreen, withTests.tests.map((x) => [x.id, x.status]));
    await shot(page, 'published-result');
    // Nothing was stored as the user's run.
    await page.goto(`${server.url}runs`);
    await page.locator('#runs-empty').waitFor({ timeout: T });
    assertSameOrigin(requests, server.url);
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await context.close();
    server.close();
  }
});

/** Polls `check` in the page until it returns true. (`page.waitForFunction` takes an async
 * predicate's promise for a truthy value and returns at once, so it cannot wait on `caches`.) */
async function until(page, check, arg) {
  const end = Date.now() + T;
  while (!(await page.evaluate(check, arg))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${check.toString().slice(0, 120)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('under a sub-path the site works with the network cut after the first visit', async () => {
  const server = await serve('dist-subpath', '/refscore/');
  const { context, page, errors, requests } = await open();
  try {
    await page.goto(server.url);
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: T });
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: T });
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller.scriptURL), `${server.url}sw.js`);
    await page.locator('nav a', { hasText: 'Tasks' }).click();
    await page.locator('#task-list a', { hasText: 'split-storage-loaders' }).click();
    await page.locator('#task-title').waitFor({ timeout: T });
    // Wait until the first visit's files are in the cache (the app's and the worker's wasm, the
    // bundle's index and the task's data).
    const task = JSON.parse(fs.readFileSync('dist-subpath/bundles/demo/index.json', 'utf8'))
      .tasks.find((x) => x.id === 'split-storage-loaders');
    const want = ['_bg.wasm', 'worker_bg.wasm', 'bundles/demo/index.json', task.data, 'leaderboard/published.json'];
    await until(page, async (names) => {
      const keys = (await (await caches.open('refscore-v1')).keys()).map((r) => r.url);
      return names.every((n) => keys.some((k) => k.endsWith(n)));
    }, want);
    assertSameOrigin(requests, server.url);
    // An older build's hashed files (as a deploy leaves them) are pruned when a fresh shell
    // arrives; the current build's stay.
    const stale = ['app-0123456789abcdef.js', 'app-0123456789abcdef_bg.wasm', 'style-89abcdef0123.css'];
    await page.evaluate(async ({ base, names }) => {
      const cache = await caches.open('refscore-v1');
      for (const n of names) await cache.put(new Request(base + n), new Response('old build'));
    }, { base: server.url, names: stale });
    await page.reload();
    await page.locator('#task-title', { hasText: 'split-storage-loaders' }).waitFor({ timeout: T });
    await until(page, async ({ names, keep }) => {
      const keys = (await (await caches.open('refscore-v1')).keys()).map((r) => r.url);
      return !keys.some((k) => names.some((n) => k.endsWith(n))) && keep.every((n) => keys.some((k) => k.endsWith(n)));
    }, { names: stale, keep: want });

    // The network is cut: the browser is offline and the server is gone.
    await context.setOffline(true);
    server.close();
    // Reload the task page, then go to the leaderboard, then load deep links: all from the cache.
    await page.reload();
    await page.locator('#task-title', { hasText: 'split-storage-loaders' }).waitFor({ timeout: T });
    await page.locator('#test-source .line').first().waitFor({ timeout: T });
    await page.locator('nav a', { hasText: 'Leaderboard' }).click();
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: T });
    assert.equal(await page.locator('tr[data-entry="paper-sweagent-gpt4-base"]').count(), 1);
    await page.goto(`${server.url}?set=base`);
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: T });
    assert.equal(await page.inputValue('#filter-set'), 'base');
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
    await shot(page, 'offline-board');
    await page.goto(`${server.url}tasks/split-storage-loaders`);
    await page.locator('#task-title', { hasText: 'split-storage-loaders' }).waitFor({ timeout: T });
    await page.locator('#test-source .line').first().waitFor({ timeout: T });
    await shot(page, 'offline-task');
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await context.setOffline(false);
    await context.close();
    server.close();
  }
});
