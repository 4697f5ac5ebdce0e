// Run comparison and combined tasks on the release site with the demo bundle: two runs of one agent
// (lazy and base instruction sets, different patches) scored in the browser and compared; the flips
// and subtest changes on /compare equal `refscore report --compare` on the two exported reports; the
// comparison link opened in a fresh browser profile names the runs it lacks, imports them from
// files and shows the same view; a combined task of two demo tasks scores a patch that solves one
// of them as "1 of 2 constituent tasks".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, screenshot, OUT, newPage } from './harness.mjs';

const SUBS = path.resolve('tasks/demo/submissions');
const T = 60000;
const patch = (name) => fs.readFileSync(path.join(SUBS, name), 'utf8');

let browser;
let server;
before(async () => {
  browser = await launch();
  server = await serve('dist', '/');
});
after(async () => {
  server?.close();
  await browser?.close();
});

async function waitWorker(page) {
  await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: T });
}

/** Scores a predictions file in the browser and exports the run's JSON report to `out`. */
async function scoreRun(page, name, set, patches, out) {
  const file = path.join(OUT, `${name}.jsonl`);
  fs.writeFileSync(file, Object.entries(patches).map(([id, p]) => JSON.stringify({
    instance_id: id, model_name_or_path: 'demo-agent', instruction_set: set, model_patch: patch(p),
  })).join('\n') + '\n');
  await page.goto(`${server.url}score`);
  await waitWorker(page);
  await page.setInputFiles('#upload-files', file);
  await page.locator('#upload-list tbody tr').first().waitFor({ timeout: T });
  await page.fill('#run-name', name);
  await page.click('#score-start');
  await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: T });
  await page.locator('#export-json').waitFor({ timeout: T });
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
  await download.saveAs(out);
}

/** `refscore report A --compare B`: flips and subtest changes, parsed from its table. */
function cliComparison(a, b) {
  const bin = path.resolve('target/debug/refscore');
  const args = ['report', a, '--compare', b];
  const text = fs.existsSync(bin)
    ? execFileSync(bin, args, { encoding: 'utf8' })
    : execFileSync('cargo', ['run', '--quiet', '-p', 'cli', '--', ...args], { encoding: 'utf8' });
  const section = (title) => {
    const lines = text.split('\n');
    const start = lines.indexOf(title);
    if (start < 0) return [];
    const out = [];
    for (const l of lines.slice(start + 2)) {
      if (!l.trim()) break;
      out.push(l.split(/ {2,}/));
    }
    return out;
  };
  return {
    text,
    flips: section('flips').map(([what, key]) => [what, key]),
    deltas: section('subtest changes'),
  };
}

/** The flips and subtest changes the compare page shows for its first pair. */
async function pageComparison(page) {
  await page.locator('#compare-matrix').waitFor({ timeout: T });
  const pair = page.locator('section.pair').first();
  const flips = await pair.locator('li.flip').evaluateAll((lis) => lis.map((li) => [li.dataset.flip, li.dataset.key]));
  const deltas = await pair.locator('tr.subtest-delta').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const matrix = await page.$$eval('#compare-matrix tbody tr', (trs) => trs.map((tr) => [tr.dataset.key, ...[...tr.querySelectorAll('td.cell')].map((td) => td.textContent.trim())]));
  return { flips, deltas, matrix };
}

let compareUrl;
let reports;
let shown;

test('two runs scored in the browser compare as `refscore report --compare` does', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const { page, errors } = await newPage(context);
  reports = [path.join(OUT, 'compare-lazy.report.json'), path.join(OUT, 'compare-base.report.json')];
  await scoreRun(page, 'compare-lazy', 'lazy', {
    'rename-parse-amount': 'rename-parse-amount.solve.patch',
    'stock-ledger-class': 'stock-ledger-class.partial.patch',
    'split-storage-loaders': 'split-storage-loaders.solve.patch',
  }, reports[0]);
  await scoreRun(page, 'compare-base', 'base', {
    'rename-parse-amount': 'rename-parse-amount.partial.patch',
    'stock-ledger-class': 'stock-ledger-class.solve.patch',
    'split-storage-loaders': 'stock-ledger-class.does-not-apply.patch',
  }, reports[1]);

  // The runs page: one agent on two instruction sets is offered side by side; ticking two runs
  // gives the comparison link (first ticked = baseline).
  await page.goto(`${server.url}runs`);
  await page.locator('#runs-list').waitFor({ timeout: T });
  await page.locator('.series-link', { hasText: 'Compare demo-agent across instruction sets (lazy, base)' }).waitFor({ timeout: T });
  await page.locator('#runs-list tbody tr', { hasText: 'compare-lazy' }).locator('.compare-pick').check();
  await page.locator('#runs-list tbody tr', { hasText: 'compare-base' }).locator('.compare-pick').check();
  assert.equal(await page.textContent('#compare-selected'), 'Compare selected (2)');
  await screenshot(page, 'compare-runs-list');
  await page.click('#compare-selected');
  await page.waitForURL(/\/compare\?runs=[0-9a-f]{16},[0-9a-f]{16}$/, { timeout: T });
  compareUrl = page.url();
  shown = await pageComparison(page);
  await screenshot(page, 'compare-view');

  const cli = cliComparison(reports[0], reports[1]);
  assert.match(cli.text, /matched {2}by instance and model \(the runs share no instruction set/);
  assert.match(await page.textContent('#compare-mode'), /Instruction sets side by side/);
  assert.deepEqual(shown.flips, cli.flips, cli.text);
  assert.deepEqual(shown.deltas, cli.deltas, cli.text);
  // The demo patches give both directions and a patch failure.
  assert.deepEqual(shown.flips.map((f) => f[0]).sort(), ['gained', 'lost', 'lost']);
  assert.ok(shown.deltas.length > 0);
  // Flips first in the matrix, each cell's verdict in words.
  const cells = Object.fromEntries(shown.matrix.map(([k, ...c]) => [k.split(' ')[0], c]));
  assert.match(cells['split-storage-loaders'][1], /^patch failed 0\/\d+$/);
  assert.match(cells['rename-parse-amount'][0], /^resolved /);
  assert.match(cells['rename-parse-amount'][1], /^partly /);
  assert.ok(shown.matrix.slice(0, 3).every(([k]) => shown.flips.some((f) => f[1] === k)));

  // Filters live in the URL: only flips, one repository.
  await page.click('#filter-only-flips');
  await page.waitForURL(/only=flips/, { timeout: T });
  await page.locator('#compare-matrix').waitFor({ timeout: T });
  assert.equal(await page.locator('#compare-matrix tbody tr').count(), 3);
  await page.click('#filter-repo-ledgerly_refactor');
  await page.waitForURL(/repo=ledgerly_refactor/, { timeout: T });
  await page.locator('#compare-matrix').waitFor({ timeout: T });
  const repos = await page.$$eval('#compare-matrix tbody tr td:nth-child(2)', (tds) => tds.map((td) => td.textContent));
  assert.ok(repos.length > 0 && repos.every((r) => r === 'ledgerly_refactor'), repos.join());
  assert.ok(await page.locator('#agg-repo tr').count() >= 1);
  await screenshot(page, 'compare-filtered');
  assert.deepEqual(errors, [], errors.join('\n'));
  await context.close();
});

test('a comparison link in a fresh profile names the missing runs and imports them', async () => {
  assert.ok(compareUrl, 'the first test ran');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const { page, errors } = await newPage(context);
  await page.goto(compareUrl);
  await page.locator('#compare-missing').waitFor({ timeout: T });
  const hashes = new URL(compareUrl).searchParams.get('runs').split(',');
  const missing = await page.$$eval('.missing-run', (ds) => ds.map((d) => d.dataset.hash));
  assert.deepEqual(missing, hashes);
  assert.match(await page.textContent('.missing-run'), new RegExp(`Run ${hashes[0]} is not in this browser`));
  await screenshot(page, 'compare-missing');
  await page.locator(`.missing-run[data-hash="${hashes[0]}"] .import-missing`).setInputFiles(reports[0]);
  await page.waitForFunction(() => document.querySelectorAll('.missing-run').length === 1, null, { timeout: T });
  await page.locator(`.missing-run[data-hash="${hashes[1]}"] .import-missing`).setInputFiles(reports[1]);
  const again = await pageComparison(page);
  assert.deepEqual(again, shown);
  await screenshot(page, 'compare-after-import');
  assert.deepEqual(errors, [], errors.join('\n'));
  await context.close();
});

test('a combined task of two demo tasks: a patch solving one is "1 of 2 constituent tasks"', async () => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const { page, errors } = await newPage(context);
  // The task list filtered by a repository links here (`#combine-link`).
  await page.goto(`${server.url}combine?repo=ledgerly_refactor`);
  await waitWorker(page);
  await page.locator('#combine-tasks input[value="rename-parse-amount"]').check();
  await page.locator('#combine-tasks input[value="extract-normalize-sku"]').check();
  await page.setInputFiles('#combine-file', path.join(SUBS, 'rename-parse-amount.solve.patch'));
  await page.click('#combine-score');
  await page.locator('#combined-verdict').waitFor({ timeout: T });
  assert.equal(await page.textContent('#combined-verdict'), 'resolved 1 of 2 constituent tasks');
  const parts = await page.$$eval('#combined-parts tbody tr', (trs) => trs.map((tr) => [tr.dataset.part, tr.querySelector('.verdict').textContent]));
  assert.deepEqual(parts, [['rename-parse-amount', 'resolved'], ['extract-normalize-sku', 'not resolved']]);
  await screenshot(page, 'combined-task');
  assert.deepEqual(errors, [], errors.join('\n'));
  await context.close();
});
