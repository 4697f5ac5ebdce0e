// Issue 25's browser figures on the honest workload (not a test; run by hand on a release site):
//
//   scripts/build-site.sh dist /      # with the real bundle in public/bundles/refactorbench/
//   node tests/e2e/speed.mjs [dist] [bundle name] [rounds]
//
// Every task's touch patch (`refscore touch`: a comment naming the task appended to every `.py`
// file its test reads, so no cache can answer) is written as a predictions file, uploaded to the
// score page with 2 workers (`?workers=2`) and scored. Printed per round, with the machine's load:
// - first view interactive: navigation start → the score page's file input rendered;
// - drop → summary: files handed to the page → the run page's summary shown (reading the file,
//   the click on "Score", loading the bundle's data, scoring, storing the run and showing it);
// - the longest long task of the UI thread from the click on "Score" to the summary (PerformanceObserver
//   `longtask`: any task over 50 ms);
// - the same predictions scored by the native CLI of the same build on both cores
//   (`refscore score`, process wall time), and the ratio browser / native.
// The CLI is `target/release-native/refscore` (override with REFSCORE_BIN); build it with
// `cargo build --profile release-native -p cli --bin refscore`.
// With REFSCORE_TRACE=1 the first round is traced (Chromium's tracing, every thread of the page):
// it prints where the drop→summary time went — each thread's busy wall time and its CPU time (the
// UI thread, every scoring worker, the service worker; CPU time is the figure to compare when
// other jobs load the machine) and the app's phases (its `refscore:` user-timing marks).
// With DROP_AFTER_MS=N the drop comes N ms after the first view instead of at once: what a user
// choosing a file sees (the Score page sends the bundle's manifests and packs to the workers and
// fetches its task files meanwhile).
// With REFSCORE_SW=block the pages run without the service worker (bundle files straight from the
// network), to measure what the service worker's caching costs a first visit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { serve, launch, newPage, screenshot } from './harness.mjs';

const dist = process.argv[2] ?? 'dist';
const bundleName = process.argv[3] ?? 'refactorbench';
const rounds = Number(process.argv[4] ?? 3);
const bin = process.env.REFSCORE_BIN ?? 'target/release-native/refscore';
if (!fs.existsSync(path.join(dist, 'bundles', bundleName, 'index.json'))) {
  console.log(`no bundle ${bundleName} in ${dist}/bundles: import it into public/bundles/${bundleName} and rebuild the site`);
  process.exit(2);
}
// The CLI reads the bundle as imported (public/bundles/NAME) when it is there, else dist's copy
// (whose .gz/.br siblings it passes over).
const bundleDir = fs.existsSync(path.join('public/bundles', bundleName, 'index.json'))
  ? path.join('public/bundles', bundleName) : path.join(dist, 'bundles', bundleName);
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-speed-'));
const preds = path.join(tmp, 'touch.jsonl');
console.log(execFileSync(bin, ['touch', '--tasks', bundleDir, '--out', preds], { encoding: 'utf8' }).trim());

/** The native CLI on both cores over the same file: wall seconds of the whole process. */
function native() {
  const t0 = process.hrtime.bigint();
  execFileSync(bin, ['score', '--tasks', bundleDir, '--predictions', preds, '--out', path.join(tmp, 'native.json')], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

// Installed before any page script: every long task of the page, buffered for the run.
const observer = () => {
  window.__longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) {
    window.__longtasks = null;
  }
  // The page's own moments, marked in the page (the harness's CDP round trips and polling are not
  // the app's time): the file reaching the input, "Score" enabled, the click, the summary in the DOM.
  const once = (name) => { if (!performance.getEntriesByName(name).length) performance.mark(name); };
  document.addEventListener('change', (e) => { if (e.target?.id === 'upload-files') once('refscore:input'); }, true);
  document.addEventListener('click', (e) => { if (e.target?.closest?.('#score-start')) once('refscore:click'); }, true);
  new MutationObserver(() => {
    if (performance.getEntriesByName('refscore:input').length) {
      const b = document.getElementById('score-start');
      if (b && !b.disabled) once('refscore:enabled');
    }
    if (document.getElementById('resolved-pct')) once('refscore:summary');
  }).observe(document, { subtree: true, childList: true, attributes: true });
};

/**
 * Prints, from a Chromium trace, each thread's busy time between the drop and the summary (top-level
 * tasks only) and the app's `refscore:` marks relative to the drop. `from`/`to` are epoch ms.
 */
function breakdown(trace) {
  const events = trace.traceEvents ?? trace;
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('refscore:'))
    .sort((x, y) => x.ts - y.ts);
  const at = (name) => marks.find((m) => m.name === name)?.ts;
  const start = at('refscore:drop');
  const end = at('refscore:shown');
  if (start === undefined || end === undefined) {
    console.log('trace: the drop and summary marks are missing');
    return;
  }
  // Per thread: wall time of its top-level tasks (stretched when threads wait for a core) and
  // their thread CPU time (`tdur`: what the work costs, whatever the machine's load).
  const busy = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.name !== 'RunTask') continue;
    const a = Math.max(e.ts, start);
    const b = Math.min(e.ts + (e.dur ?? 0), end);
    if (b <= a) continue;
    const key = `${names.get(`${e.pid}:${e.tid}`) ?? 'thread'} ${e.tid}`;
    const [wall, cpu] = busy.get(key) ?? [0, 0];
    const share = (b - a) / Math.max(e.dur ?? 0, 1);
    busy.set(key, [wall + (b - a), cpu + share * (e.tdur ?? 0)]);
  }
  const total = [...busy.values()].reduce((sum, [, cpu]) => sum + cpu, 0);
  console.log(`trace (drop → summary ${((end - start) / 1000).toFixed(0)} ms): busy wall and CPU time per thread`
    + ` (CPU of all threads: ${(total / 1000).toFixed(0)} ms)`);
  for (const [k, [wall, cpu]] of [...busy].sort((x, y) => y[1][1] - x[1][1]).slice(0, 8)) {
    console.log(`  ${k.padEnd(34)} wall ${(wall / 1000).toFixed(0).padStart(6)} ms (${((100 * wall) / (end - start)).toFixed(0)}%)`
      + `  CPU ${(cpu / 1000).toFixed(0).padStart(6)} ms`);
  }
  console.log('  marks (ms after the drop):');
  for (const m of marks) console.log(`    ${((m.ts - start) / 1000).toFixed(0).padStart(6)}  ${m.name}`);
}

const server = await serve(dist, '/');
const browser = await launch();
const rows = [];
try {
  for (let r = 0; r < rounds; r += 1) {
    const before = load();
    const target = process.env.REFSCORE_SW === 'block'
      ? await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1366, height: 800 } })
      : browser;
    const { page, errors } = await newPage(target);
    await page.addInitScript(observer);
    const tracing = process.env.REFSCORE_TRACE === '1' && r === 0;
    if (tracing) {
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'toplevel',
          // REFSCORE_TRACE_PROFILE=1: V8's sampling profiler on every thread (wasm functions by
          // name when the wasm keeps its name section).
          ...(process.env.REFSCORE_TRACE_PROFILE === '1' ? ['disabled-by-default-v8.cpu_profiler'] : [])],
      });
    }
    await page.goto(`${server.url}score?bundle=${bundleName}&workers=2`);
    await page.locator('#upload-files').waitFor({ state: 'attached', timeout: 30000 });
    const firstView = await page.evaluate(() => performance.now());
    // Workers start with the page; the drop happens as soon as the user could make it, or after
    // DROP_AFTER_MS (the time a user takes to choose a file, while the page prefetches the bundle).
    const pause = Number(process.env.DROP_AFTER_MS ?? 0);
    if (pause > 0) await page.waitForTimeout(pause);
    const drop = await page.evaluate(() => { performance.mark('refscore:drop'); return performance.now(); });
    await page.setInputFiles('#upload-files', preds);
    await page.locator('#score-start:not([disabled])').waitFor({ timeout: 60000 });
    await page.click('#score-start');
    await page.waitForURL(/\/runs\/[0-9a-f]+$/, { timeout: 300000 });
    await page.locator('#resolved-pct').waitFor({ timeout: 120000 });
    const shown = await page.evaluate(() => { performance.mark('refscore:shown'); return performance.now(); });
    // From the click on "Score" (the app's `refscore:run-start` mark) to the summary: the run.
    // Before it, the harness's own file hand-over (`setInputFiles`, a DevTools message of about
    // 100-200 ms on the UI thread) is not the app's work; it is printed separately.
    // The long tasks from the drop to the summary, each placed against the app's marks (which
    // phase blocked the UI); null without a long-task observer.
    const observed = await page.evaluate(([a, b]) => {
      if (window.__longtasks === null) return null;
      const start = performance.getEntriesByName('refscore:run-start')[0]?.startTime ?? a;
      const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('refscore:'));
      const tasks = window.__longtasks.filter((t) => t.start + t.duration >= a && t.start <= b).map((t) => ({
        ...t, after: marks.filter((m) => m.startTime <= t.start).pop()?.name ?? 'no mark',
      }));
      return { start, tasks };
    }, [drop, shown]);
    const maxOf = (ts) => ts.reduce((m, t) => Math.max(m, t.duration), 0);
    const inRun = observed?.tasks.filter((t) => t.start + t.duration >= observed.start) ?? [];
    const longest = observed === null ? null : maxOf(inRun);
    const beforeRun = observed === null ? null : maxOf(observed.tasks.filter((t) => t.start <= observed.start));
    for (const t of inRun) console.log(`  long task: ${t.duration.toFixed(0)} ms at run-start+${(t.start - observed.start).toFixed(0)} ms (after ${t.after})`);
    // The app's own time, from in-page marks: the file at the input → "Score" enabled, plus the
    // click → the summary in the DOM (what remains of drop→summary is the harness's latency).
    const appMs = await page.evaluate(() => {
      const t = (n) => performance.getEntriesByName(n)[0]?.startTime;
      const [i, e, c, s] = ['refscore:input', 'refscore:enabled', 'refscore:click', 'refscore:summary'].map(t);
      return [i, e, c, s].some((x) => x === undefined) ? null : { ready: e - i, run: s - c };
    });
    const resolved = await page.textContent('#resolved-pct');
    const tasks = await page.locator('#run-results tbody tr').count();
    if (r === 0) await screenshot(page, 'speed-run');
    if (tracing) {
      const trace = (await browser.stopTracing()).toString('utf8');
      if (process.env.REFSCORE_TRACE_OUT) fs.writeFileSync(process.env.REFSCORE_TRACE_OUT, trace);
      breakdown(JSON.parse(trace));
    }
    await page.close();
    if (target !== browser) await target.close();
    const nat = native();
    const browserSecs = (shown - drop) / 1000;
    const appSecs = appMs === null ? null : (appMs.ready + appMs.run) / 1000;
    rows.push({ firstView, browserSecs, nat, longest, appSecs });
    console.log(`round ${r + 1} (load ${before}): first view ${firstView.toFixed(0)} ms; drop→summary ${browserSecs.toFixed(2)} s `
      + (appMs === null ? '' : `(in-page: file→Score enabled ${appMs.ready.toFixed(0)} ms + click→summary ${appMs.run.toFixed(0)} ms = ${appSecs.toFixed(2)} s, ${(appSecs / nat).toFixed(2)}x native) `)
      + `(${tasks} tasks, resolved ${resolved}); native both cores ${nat.toFixed(2)} s; browser/native ${(browserSecs / nat).toFixed(2)}; `
      + `longest long task ${longest === null ? 'n/a (no longtask observer)' : `${longest.toFixed(0)} ms (before the run: ${beforeRun.toFixed(0)} ms)`}`
      + `${errors.length ? `; errors: ${errors.join(' | ')}` : ''}`);
  }
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
  console.log(`median of ${rows.length} rounds (load now ${load()}): first view ${med(rows.map((x) => x.firstView)).toFixed(0)} ms; `
    + `drop→summary ${med(rows.map((x) => x.browserSecs)).toFixed(2)} s; in-page ${rows.every((x) => x.appSecs !== null) ? `${med(rows.map((x) => x.appSecs)).toFixed(2)} s (${med(rows.map((x) => x.appSecs / x.nat)).toFixed(2)}x native)` : 'n/a'}; native ${med(rows.map((x) => x.nat)).toFixed(2)} s; `
    + `browser/native ${med(rows.map((x) => x.browserSecs / x.nat)).toFixed(2)}; longest long task ${Math.max(...rows.map((x) => x.longest ?? 0)).toFixed(0)} ms (max)`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
