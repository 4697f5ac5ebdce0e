// The codecs module on demand, on the test build under the /refscore/ sub-path (dist-subpath): a
// first visit fetches neither codecs.wasm nor the names table (the service worker precaches both
// in the background); an ordinary patch loads neither; the sample patch whose test parses a GBK
// source (tasks/demo/submissions/rename-parse-amount.gbk-source.patch) makes the scoring worker
// load ./codecs.wasm once, under the sub-path, and gets CPython's verdicts
// (tasks/demo/expected-verdicts.json); with the network cut, a fresh worker loads it again from the
// service worker's cache and gets the same verdicts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serve, launch, screenshot, newPage } from './harness.mjs';

const SUBS = path.resolve('tasks/demo/submissions');
const expected = JSON.parse(fs.readFileSync('tasks/demo/expected-verdicts.json', 'utf8'));
const T = 60000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

function expectedPatch(name) {
  const r = expected.results.find((x) => x.submission === `submissions/${name}`);
  assert.ok(r, `no expected verdicts for ${name}`);
  return r;
}

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

/** Scores sample patch `file` on rename-parse-amount from its score page; checks CPython's verdicts. */
async function scoreSample(page, url, file) {
  await page.goto(`${url}tasks/rename-parse-amount/score`);
  await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
  await page.setInputFiles('#patch-files', path.join(SUBS, file));
  await page.locator('.file-names li', { hasText: file }).waitFor({ timeout: T });
  await page.click('#score-patch');
  await page.waitForURL(/\/refscore\/runs\/[0-9a-f]+\/rename-parse-amount$/, { timeout: T });
  const exp = expectedPatch(file);
  await page.locator('#result-patch').waitFor({ timeout: T });
  assert.match(await page.textContent('#result-patch'), /^patch applied/, file);
  assert.equal(await page.textContent('#result-resolved'), exp.resolved ? 'resolved' : 'unresolved', file);
  const want = Object.fromEntries(exp.tests.map((t) => [t.id, {
    status: t.status, exc_type: t.exc_type, message: t.message, line: t.line,
  }]));
  assert.deepEqual(await verdictsOnScreen(page), want, file);
}

/** Polls `check(arg)` in the page until it is true. */
async function until(page, check, arg) {
  const end = Date.now() + T;
  while (!(await page.evaluate(check, arg))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${check.toString().slice(0, 120)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('a GBK source: codecs.wasm loaded on demand under /refscore/, CPython\'s verdicts, offline too', async () => {
  const server = await serve('dist-subpath', '/refscore/');
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  try {
    const { page, errors, requests } = await newPage(context);
    const codecs = () => requests.filter((u) => u.endsWith('/codecs.wasm'));
    // First visit: the app, the worker, no codecs module and no names table.
    await page.goto(server.url);
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: T });
    await page.waitForTimeout(500);
    assert.deepEqual(codecs(), [], 'no codecs.wasm request on a first visit');
    assert.deepEqual(requests.filter((u) => u.includes('unicode-names')), [], 'no names table request');
    assert.deepEqual(requests.filter((u) => u.includes('interned-words')), [], 'no interned words request');
    // The service worker precached the small ones in the background, for offline use; the
    // codecs module (about 550 KB) is not downloaded at all on a first visit.
    const cached = () => page.evaluate(async () => (await (await caches.open('refscore-v1')).keys()).map((r) => r.url));
    await until(page, async (names) => {
      const keys = (await (await caches.open('refscore-v1')).keys()).map((r) => r.url);
      return names.every((n) => keys.includes(n));
    }, [`${server.url}unicode-names.bin`, `${server.url}interned-words.txt`]);
    assert.ok(!(await cached()).includes(`${server.url}codecs.wasm`), 'codecs.wasm not precached');

    // An ordinary patch needs no codec.
    await scoreSample(page, server.url, 'rename-parse-amount.solve.patch');
    assert.deepEqual(codecs(), [], 'no codecs.wasm request for a UTF-8 patch');
    // The GBK source: the worker loads ./codecs.wasm (under the sub-path) once, scores again.
    await scoreSample(page, server.url, 'rename-parse-amount.gbk-source.patch');
    assert.deepEqual(codecs(), [`${server.url}codecs.wasm`], 'codecs.wasm requested once, under /refscore/');
    await until(page, async (name) => {
      const keys = (await (await caches.open('refscore-v1')).keys()).map((r) => r.url);
      return keys.includes(name);
    }, `${server.url}codecs.wasm`);
    await screenshot(page, 'codecs-gbk-source');

    // The network is cut: a fresh page (and worker) loads codecs.wasm from the service worker's cache.
    await context.setOffline(true);
    server.close();
    await scoreSample(page, server.url, 'rename-parse-amount.gbk-source.patch');
    assert.equal(codecs().length, 2, 'the fresh worker loaded codecs.wasm again (from the cache)');
    await screenshot(page, 'codecs-gbk-source-offline');
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await context.setOffline(false);
    await context.close();
    server.close();
  }
});
