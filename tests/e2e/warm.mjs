// Cold against warm scoring workers, on one page (not a test; run by hand on a release site with a
// real bundle, as `speed.mjs`):
//
//   node tests/e2e/warm.mjs [dist] [bundle name]
//
// The page scores every task's touch patch (`refscore touch`) with 2 workers; then, without
// reloading, a few tasks of one repository first if `WARM_REPO=<path part>` is set (the code is
// warmed, one pack loaded), and the same patches again with other comments, twice: no parse cache
// or remembered run can answer them, so what the later runs save is the workers' start: V8's
// tier-up of the worker's wasm and the bundle's data (packs, manifests, task files) loaded.
// `WARM_EACH=N` warms up on N tasks of every repository instead (most packs then loaded).
// The Score page itself now sends the bundle's packs and manifests to the workers and runs a
// warm-up job while it waits for files (`runs::prefetch_bundle`): the first run, dropped at once,
// is cold only in what that has not finished; `DROP_AFTER_MS` in speed.mjs measures the pause.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, newPage } from './harness.mjs';

const dist = process.argv[2] ?? 'dist';
const bundleName = process.argv[3] ?? 'refactorbench';
const bin = process.env.REFSCORE_BIN ?? 'target/release-native/refscore';
// The CLI reads the bundle as imported (public/bundles/NAME) when it is there, else dist's copy
// (whose .gz/.br siblings it passes over).
const source = fs.existsSync(path.join('public/bundles', bundleName, 'index.json'))
  ? path.join('public/bundles', bundleName) : path.join(dist, 'bundles', bundleName);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-warm-'));
const touch = path.join(tmp, 'touch.jsonl');
execFileSync(bin, ['touch', '--tasks', source, '--out', touch]);
const text = fs.readFileSync(touch, 'utf8');
const variant = (name, words) => {
  const file = path.join(tmp, `${name}.jsonl`);
  fs.writeFileSync(file, text.replaceAll('touched by', words));
  return [name, file];
};
const runs = [['cold', touch], variant('warm', 'touched again by'), variant('warm again', 'touched once more by')];
if (process.env.WARM_EACH) {
  // N tasks of every repository first: both workers then hold most packs and manifests.
  const index = JSON.parse(fs.readFileSync(path.join(source, 'index.json'), 'utf8'));
  const repoOf = new Map(index.tasks.map((t) => [t.id, t.repo]));
  const seen = new Map();
  const few = text.split('\n').filter(Boolean).filter((l) => {
    const repo = repoOf.get(JSON.parse(l).instance_id);
    seen.set(repo, (seen.get(repo) ?? 0) + 1);
    return seen.get(repo) <= Number(process.env.WARM_EACH);
  });
  const file = path.join(tmp, 'each.jsonl');
  fs.writeFileSync(file, few.join('\n').replaceAll('touched by', 'warm-up by') + '\n');
  runs.splice(0, 1, [`${few.length} tasks, ${process.env.WARM_EACH} of each repository`, file], ['after them', touch]);
} else if (process.env.WARM_REPO) {
  const few = text.split('\n').filter((l) => l && JSON.parse(l).model_patch.includes(process.env.WARM_REPO)).slice(0, 4);
  const file = path.join(tmp, 'few.jsonl');
  fs.writeFileSync(file, few.join('\n').replaceAll('touched by', 'warm-up by') + '\n');
  runs.splice(0, 1, [`${few.length} tasks matching ${process.env.WARM_REPO}`, file], ['after them', touch]);
}
const server = await serve(dist, '/');
const browser = await launch();
try {
  const { page } = await newPage(browser);
  await page.goto(`${server.url}score?bundle=${bundleName}&workers=2`);
  for (const [name, file] of runs) {
    await page.locator('#upload-files').waitFor({ state: 'attached', timeout: 30000 });
    const t0 = await page.evaluate(() => performance.now());
    await page.setInputFiles('#upload-files', file);
    await page.locator('#score-start:not([disabled])').waitFor({ timeout: 60000 });
    await page.click('#score-start');
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: 300000 });
    await page.locator('#resolved-pct').waitFor({ timeout: 120000 });
    const t1 = await page.evaluate(() => performance.now());
    console.log(`${name}: drop→summary ${((t1 - t0) / 1000).toFixed(2)} s`);
    await page.click('nav a[href$="score"]');
  }
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
