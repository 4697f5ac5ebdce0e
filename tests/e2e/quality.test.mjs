// Issue 21 (app quality), on the release site with the demo bundle: garbage files are capped and
// never stored unless asked; runs stay with the bundle whose hash they carry; "Export run" imports
// back as the same run; rates over the bundle beside rates over the submitted; failed patches say
// the tests did not run; precompressed files are served with Content-Encoding and the worker's
// wasm is prefetched; the first-visit wasm stays within its gzip budget.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import {
  serve, launch, screenshot, OUT, newPage as pageOf, FIRST_VISIT_WASM_BUDGET, isFirstVisitWasm, gnuGzipSize,
} from './harness.mjs';

const SUBS = path.resolve('tasks/demo/submissions');
const T = 60000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-quality-'));

let browser;
let context;
let server;
before(async () => {
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1366, height: 800 }, acceptDownloads: true });
  server = await serve('dist', '/');
});
after(async () => {
  server?.close();
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const newPage = (ctx = context) => pageOf(ctx);

const waitWorker = (page) => page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });

/** The number of stored runs, from the Runs page. */
async function storedRuns(page, base = server.url) {
  await page.goto(`${base}runs`);
  await page.locator('#runs-list, #runs-empty').first().waitFor({ timeout: T });
  return page.locator('#runs-list tbody tr').count();
}

/** Scores `files` on the Score page as run `name` and returns the run page's URL. */
async function scoreRun(page, files, name, base = server.url) {
  await page.goto(`${base}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', files);
  await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
  await page.fill('#run-name', name);
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  return page.url();
}

test('garbage files: capped entry errors, binary said up front, no empty run stored unless asked, paged table', async () => {
  const { page, errors } = await newPage();
  // 8 MB of random text in lines (~100,000 lines), and 4 MB of random bytes.
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed >> 8; };
  const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor'.split(' ');
  const lines = [];
  for (let i = 0; i < 100000; i++) lines.push(Array.from({ length: 1 + (rand() % 12) }, () => words[rand() % words.length]).join(' '));
  const text = path.join(tmp, 'notes.jsonl');
  fs.writeFileSync(text, lines.join('\n') + '\n');
  const text2 = path.join(tmp, 'more-notes.jsonl');
  fs.writeFileSync(text2, lines.slice(0, 300).join('\n') + '\n');
  const binary = path.join(tmp, 'random.jsonl');
  fs.writeFileSync(binary, Buffer.from(Array.from({ length: 4 << 20 }, () => rand() & 0xff)));

  const runsBefore = await storedRuns(page);
  for (const [file, says] of [[text, /…and 99,900 more lines are not JSON: is this a predictions file\?/], [binary, /binary data, not a predictions file/]]) {
    await page.goto(`${server.url}score`);
    await waitWorker(page);
    await page.setInputFiles('#upload-files', file);
    await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
    const t0 = Date.now();
    await page.click('#score-start');
    await page.locator('#score-empty').waitFor({ timeout: T });
    const ms = Date.now() - t0;
    assert.ok(ms < 15000, `${path.basename(file)}: ${ms} ms to read`);
    assert.match(await page.textContent('#score-empty'), says);
    assert.match(await page.textContent('#score-empty'), /no run was stored/);
    await screenshot(page, `garbage-${path.basename(file, '.jsonl')}`);
  }
  assert.equal(await storedRuns(page), runsBefore, 'nothing stored');

  // Asked to, the run is stored: two capped files, 101 + 101 error rows, the table paged at 200.
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', [text, text2]);
  await page.locator('#upload-list tbody tr').nth(1).waitFor({ timeout: T });
  await page.click('#score-start');
  await page.locator('#store-empty').waitFor({ timeout: T });
  await page.click('#store-empty');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator('#run-errors tbody tr').first().waitFor({ timeout: T });
  assert.equal(await page.textContent('#entry-errors'), '202');
  assert.equal(await page.locator('#run-errors tbody tr').count(), 200);
  assert.match(await page.textContent('.more-rows'), /Showing 200 of 202/);
  await page.click('#more-errors');
  await page.waitForFunction(() => document.querySelectorAll('#run-errors tbody tr').length === 202, null, { timeout: T });
  const last = await page.locator('#run-errors tbody tr').last().textContent();
  assert.match(last, /more-notes\.jsonl:101.*…and 200 more lines are not JSON: is this a predictions file\?/);
  await screenshot(page, 'garbage-stored-on-request');
  // Stored size: the two files' errors, not a row per line (8 MB of text, a report of a few
  // tens of KB; the run's stored record holds that report and its metadata).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  const saved = path.join(tmp, 'garbage.report.json');
  await download.saveAs(saved);
  const size = fs.statSync(saved).size;
  assert.ok(size < 100 * 1024, `report of the stored run: ${size} bytes`);
  assert.equal(await storedRuns(page), runsBefore + 1);
  assert.deepEqual(errors, [], errors.join('\n'));
});

let demoRun;
test('rates over the bundle beside rates over the submitted; export then import is lossless', async () => {
  const { page, errors } = await newPage();
  demoRun = await scoreRun(page, [path.join(SUBS, 'predictions.jsonl')], 'round trip');
  await page.locator('#bundle-rates li').first().waitFor({ timeout: T });
  const rates = await page.$$eval('#bundle-rates li', (lis) => lis.map((li) => li.textContent));
  for (const r of rates) {
    assert.match(r, /^resolved (\d+) of 9 tasks of the bundle \(\d+\.\d%\)( \(.*\))? · \1 of \d+ submitted \(\d+\.\d%\)$/, r);
  }
  // The numbers add up to the summary tile's.
  const resolved = rates.reduce((n, r) => n + Number(/^resolved (\d+)/.exec(r)[1]), 0);
  assert.match(await page.textContent('#run-summary'), new RegExp(`resolved \\(${resolved} of `));
  await screenshot(page, 'run-bundle-rates');

  // Export the run, import it: same name, same report, same patches (the diff view is back).
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-run')]);
  const first = path.join(OUT, 'exported.run.json');
  await download.saveAs(first);
  const exported = JSON.parse(fs.readFileSync(first, 'utf8'));
  assert.equal(exported.refscore_run.name, 'round trip');
  assert.equal(exported.refscore_run.patches.length, exported.results.length);
  assert.ok(exported.refscore_run.patches.some((p) => p.startsWith('diff --git')));
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list').waitFor({ timeout: T });
  await page.setInputFiles('#import-report', first);
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  const imported = page.url();
  assert.notEqual(imported, demoRun);
  assert.equal(await page.textContent('#run-name'), 'round trip');
  const [again] = await Promise.all([page.waitForEvent('download'), page.click('#export-run')]);
  const second = path.join(OUT, 'reexported.run.json');
  await again.saveAs(second);
  assert.equal(fs.readFileSync(second, 'utf8'), fs.readFileSync(first, 'utf8'), 'export ∘ import ∘ export = export');
  // A result of the imported run shows its diff.
  const applied = exported.results.findIndex((r) => r.patch_status === 'applied');
  await page.goto(`${imported}/${exported.results[applied].instance_id}`);
  await page.locator('#result-patch').waitFor({ timeout: T });
  await page.locator('.diff-file').first().waitFor({ timeout: T });
  assert.equal(await page.locator('#patch-missing').count(), 0);
  await screenshot(page, 'result-after-round-trip');

  // A plain report (no refscore_run) has no patches: said so, not "the patch is empty".
  const plain = { ...exported };
  delete plain.refscore_run;
  const plainFile = path.join(tmp, 'plain.report.json');
  fs.writeFileSync(plainFile, JSON.stringify(plain));
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list').waitFor({ timeout: T });
  await page.setInputFiles('#import-report', plainFile);
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  assert.match(await page.textContent('#run-name'), /^Imported plain\.report\.json$/);
  await page.goto(`${page.url()}/${exported.results[applied].instance_id}`);
  await page.locator('#patch-missing').waitFor({ timeout: T });
  assert.equal(await page.locator('.diff-empty', { hasText: 'The patch is empty' }).count(), 0);
  await screenshot(page, 'result-imported-without-patch');

  // A predictions file given to the report import is sent to the Score page.
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list').waitFor({ timeout: T });
  await page.setInputFiles('#import-report', path.join(SUBS, 'predictions.json'));
  await page.locator('#import-error').waitFor({ timeout: T });
  assert.match(await page.textContent('#import-error'), /predictions file or an agent log, not a report: score it on the Score page/);
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('diagnostics: a failed patch says the tests did not run, git\'s message once', async () => {
  const { page, errors } = await newPage();
  await page.goto(`${server.url}tasks/stock-ledger-class/score`);
  await waitWorker(page);
  await page.setInputFiles('#patch-files', path.join(SUBS, 'stock-ledger-class.does-not-apply.patch'));
  await page.locator('.file-names li').first().waitFor({ timeout: T });
  await page.click('#score-patch');
  await page.waitForURL(/\/runs\/[0-9a-f]+\/stock-ledger-class$/, { timeout: T });
  await page.locator('#result-patch').waitFor({ timeout: T });
  const summary = await page.textContent('#result-patch');
  assert.match(summary, /^patch failed: /);
  assert.doesNotMatch(summary, /patch failed: patch failed/);
  assert.equal(await page.textContent('#result-counts'), 'tests not run: the patch did not apply');
  await screenshot(page, 'result-patch-failed');
  // A SyntaxError from ast.parse ("<unknown>") names the patched file the test read, beside
  // CPython's unchanged message.
  await page.goto(`${server.url}tasks/rename-parse-amount/score`);
  await waitWorker(page);
  await page.setInputFiles('#patch-files', path.join(SUBS, 'rename-parse-amount.syntax-error.patch'));
  await page.locator('.file-names li').first().waitFor({ timeout: T });
  await page.click('#score-patch');
  await page.waitForURL(/\/runs\/[0-9a-f]+\/rename-parse-amount$/, { timeout: T });
  await page.locator('#result-focus').waitFor({ timeout: T });
  assert.match(await page.textContent('#result-focus'), /SyntaxError: '\(' was never closed \(<unknown>, line 56\)/);
  assert.match(await page.textContent('#syntax-context'), /^The test parsed \S+\.py: the file it read that the patch changed\.$/);
  await screenshot(page, 'result-syntax-error-context');
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('runs stay with their bundle: import switches to it, links carry it, an unknown ?bundle= is said', async () => {
  // A copy of the site serving a second bundle, "alt": the demo's files under another hash.
  const site = path.join(tmp, 'site');
  fs.cpSync('dist', site, { recursive: true });
  const altHash = 'a'.repeat(64);
  fs.cpSync(path.join(site, 'bundles/demo'), path.join(site, 'bundles/alt'), { recursive: true });
  const altIndex = path.join(site, 'bundles/alt/index.json');
  const index = JSON.parse(fs.readFileSync(altIndex, 'utf8'));
  const demoHash = index.bundle_hash;
  index.bundle_hash = altHash;
  fs.writeFileSync(altIndex, JSON.stringify(index));
  const list = JSON.parse(fs.readFileSync(path.join(site, 'bundles/bundles.json'), 'utf8'));
  list.bundles.push({ name: 'alt', tasks: index.tasks.length, bundle_hash: altHash });
  fs.writeFileSync(path.join(site, 'bundles/bundles.json'), JSON.stringify(list));
  for (const f of ['bundles/bundles.json', 'bundles/alt/index.json']) {
    for (const ext of ['.gz', '.br']) fs.rmSync(path.join(site, f + ext), { force: true });
  }
  const alt = await serve(site, '/');
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  try {
    const { page, errors } = await newPage(ctx);
    // A report of the alt bundle, imported while the demo is selected: filed under alt.
    const report = JSON.parse(fs.readFileSync(path.join(OUT, 'exported.run.json'), 'utf8'));
    assert.equal(report.bundle.hash, demoHash);
    report.bundle.hash = altHash;
    const altReport = path.join(tmp, 'alt.run.json');
    fs.writeFileSync(altReport, JSON.stringify(report));
    await page.goto(`${alt.url}runs`);
    await page.locator('#bundle-select').waitFor({ timeout: T });
    assert.equal(await page.inputValue('#bundle-select'), 'demo');
    await page.setInputFiles('#import-report', altReport);
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
    await page.locator('#run-name').waitFor({ timeout: T });
    assert.equal(await page.inputValue('#bundle-select'), 'alt', 'import switched to the run\'s bundle');
    assert.match(await page.textContent('.run-page'), /Bundle alt \(aaaaaaaaaaaa…\)/);
    // Its result's Task link names its own bundle, whichever is selected.
    await page.selectOption('#bundle-select', 'demo');
    const id = report.results[0].instance_id;
    await page.goto(`${page.url()}/${id}`);
    await page.locator('#result-task').waitFor({ timeout: T });
    assert.match(await page.getAttribute('#result-task', 'href'), new RegExp(`/tasks/${id}\\?bundle=alt$`));
    await page.click('#result-task');
    await page.waitForURL(new RegExp(`/tasks/${id}\\?bundle=alt$`), { timeout: T });
    await page.waitForFunction(() => document.querySelector('#bundle-select')?.value === 'alt', null, { timeout: T });
    await screenshot(page, 'task-of-run-bundle');
    // A report of a bundle the site does not serve is refused, naming the bundle needed.
    report.bundle.hash = 'b'.repeat(64);
    const unknownReport = path.join(tmp, 'unknown.run.json');
    fs.writeFileSync(unknownReport, JSON.stringify(report));
    await page.goto(`${alt.url}runs`);
    await page.locator('#runs-list').waitFor({ timeout: T });
    await page.setInputFiles('#import-report', unknownReport);
    await page.locator('#import-error').waitFor({ timeout: T });
    assert.match(await page.textContent('#import-error'), /scored with the bundle bbbbbbbbbbbb…, which this site does not serve \(it serves demo \([0-9a-f]{12}…\), alt \(aaaaaaaaaaaa…\)\)/);
    await screenshot(page, 'import-unknown-bundle');
    // ?bundle= naming no bundle of the site says so.
    await page.goto(`${alt.url}tasks?bundle=nope`);
    await page.locator('#bundle-unknown').waitFor({ timeout: T });
    assert.match(await page.textContent('#bundle-unknown'), /no bundle named “nope”; showing the “demo” bundle instead/);
    await screenshot(page, 'bundle-unknown');
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await ctx.close();
    alt.close();
  }
});

/** GET `url` with `accept-encoding`; resolves to { status, headers, length }. */
function get(url, encoding) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let length = 0;
      res.on('data', (c) => { length += c.length; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, length }));
    }).on('error', reject);
  });
}

test('first-visit wasm (app + scoring worker) stays within the 1.5 MiB gzip -9 budget', () => {
  // GNU gzip -9, as `tests/e2e/measure.mjs` reports it.
  const files = fs.readdirSync('dist').filter(isFirstVisitWasm);
  assert.equal(files.length, 2, files.join());
  const sizes = files.map((f) => [f, gnuGzipSize(path.join('dist', f))]);
  assert.ok(sizes.every(([, b]) => b !== null), 'GNU gzip is on the PATH');
  const total = sizes.reduce((n, [, b]) => n + b, 0);
  console.log(`first-visit wasm gzip -9: ${sizes.map(([f, b]) => `${f} ${b} B`).join(' + ')} = ${total} B of ${FIRST_VISIT_WASM_BUDGET} B`);
  assert.ok(total <= FIRST_VISIT_WASM_BUDGET, `${total} B over the ${FIRST_VISIT_WASM_BUDGET} B budget`);
});

test('transfer size: precompressed siblings served with Content-Encoding, the worker wasm prefetched', async () => {
  const html = fs.readFileSync('dist/index.html', 'utf8');
  const worker = fs.readdirSync('dist').find((f) => /^worker(-[0-9a-f]+)?_bg\.wasm$/.test(f));
  assert.ok(html.includes(`<link rel="prefetch" href="/${worker}" type="application/wasm">`), 'worker wasm prefetched');
  const raw = fs.statSync(path.join('dist', worker)).size;
  const br = await get(`${server.url}${worker}`, 'gzip, deflate, br');
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers['content-type'], 'application/wasm');
  assert.equal(br.length, fs.statSync(path.join('dist', `${worker}.br`)).size);
  assert.ok(br.length < raw / 2, `${br.length} of ${raw}`);
  const gz = await get(`${server.url}${worker}`, 'gzip');
  assert.equal(gz.headers['content-encoding'], 'gzip');
  const plain = await get(`${server.url}${worker}`, 'identity');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.length, raw);
  // Revalidating an unchanged file costs no body.
  const again = await new Promise((resolve, reject) => {
    http.get(`${server.url}${worker}`, { headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    }).on('error', reject);
  });
  assert.equal(again, 304);
  // The worker's on-demand files have their siblings too; a missing wasm or table is a 404, never
  // the app's shell (the worker would try to compile HTML).
  for (const [file, type] of [['codecs.wasm', 'application/wasm'], ['unicode-names.bin', 'application/octet-stream'],
    ['interned-words.txt', 'text/plain; charset=utf-8']]) {
    const got = await get(`${server.url}${file}`, 'gzip, deflate, br');
    assert.equal(got.status, 200, file);
    assert.equal(got.headers['content-encoding'], 'br', file);
    assert.equal(got.headers['content-type'], type, file);
    assert.equal(got.length, fs.statSync(path.join('dist', `${file}.br`)).size, file);
    assert.ok(fs.existsSync(path.join('dist', `${file}.gz`)), file);
  }
  for (const missing of ['no-such.wasm', 'no-such.bin']) {
    assert.equal((await get(`${server.url}${missing}`, 'br')).status, 404, missing);
  }
  // In the browser the worker starts from the compressed, prefetched file. The worker wasm is
  // seen more than once (prefetch, the worker's fetch, the service worker's precache, some
  // answered from a cache without the header), in an order that varies: one is the network's br.
  const { page, errors } = await newPage();
  const encodings = new Map();
  page.on('response', async (res) => {
    const name = res.url().split('/').pop();
    const seen = encodings.get(name) ?? [];
    seen.push((await res.allHeaders())['content-encoding']);
    encodings.set(name, seen);
  });
  await page.goto(server.url);
  await waitWorker(page);
  assert.ok((encodings.get(worker) ?? []).includes('br'), `worker wasm encodings: ${encodings.get(worker)}`);
  assert.deepEqual(errors, [], errors.join('\n'));
});

test('phones: no route scrolls sideways at 390×844 and no table cell is squeezed', async () => {
  assert.ok(demoRun, 'the round-trip test ran');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    // The phone context has its own storage: the run is imported there from its export.
    const { page, errors } = await newPage(phone);
    await page.goto(`${server.url}runs`);
    await page.locator('#runs-list, #runs-empty').first().waitFor({ timeout: T });
    await page.setInputFiles('#import-report', path.join(OUT, 'exported.run.json'));
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
    const run = new URL(page.url()).pathname.replace(/^\//, '');
    const exported = JSON.parse(fs.readFileSync(path.join(OUT, 'exported.run.json'), 'utf8'));
    const task = exported.results[0].instance_id;
    const routes = ['', 'tasks', `tasks/${task}`, `tasks/${task}/score`, 'score', 'runs', run, `${run}/${task}`,
      'trajectory', 'about', 'compare', 'nope'];
    const wide = [];
    for (const route of routes) {
      await page.goto(`${server.url}${route}`);
      await page.locator('main > *').first().waitFor({ timeout: T });
      await page.waitForTimeout(1500);
      // Against the device's 390 px, not innerWidth: a mobile browser widens its layout viewport
      // to fit a page that overflows, so innerWidth would grow with the page.
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      await screenshot(page, `phone-${route.replace(/\//g, '_') || 'home'}`);
      if (scroll > 390) wide.push(`/${route}: ${scroll} px`);
      // Cells stay readable: none is far narrower than its longest word (words of up to 24
      // characters; longer ids and paths may break), so nothing is squeezed letter by letter.
      // (Before this round the phone tables gave cells one or two characters wide.)
      const squeezed = await page.evaluate(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        const out = [];
        for (const c of document.querySelectorAll('main td, main th')) {
          if (c.offsetParent === null) continue;
          const cs = getComputedStyle(c);
          ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const words = c.innerText.split(/\s+/).filter((w) => w && w.length <= 24);
          const longest = Math.max(0, ...words.map((w) => ctx.measureText(w).width));
          const inner = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
          if (inner < 0.6 * longest) out.push(`${c.innerText.trim().slice(0, 30)} (${Math.round(inner)} < ${Math.round(longest)} px)`);
        }
        return out;
      });
      if (squeezed.length) wide.push(`/${route}: squeezed cells: ${squeezed.slice(0, 4).join(' | ')}`);
    }
    assert.deepEqual(wide, [], `pages wider than 390 px or squeezed cells:\n${wide.join('\n')}`);
    assert.deepEqual(errors, [], errors.join('\n'));
  } finally {
    await phone.close();
  }
});
