// Shared pieces of the browser tests: start the static server on dist/, launch Debian's Chromium
// through playwright-core (no browser download), collect console errors, save screenshots.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const OUT = path.resolve(process.env.REFSCORE_TEST_OUTPUT ?? 'test-output/e2e');
fs.mkdirSync(OUT, { recursive: true });

/** Serves `dir` under `base` on a free port; resolves to { url, close }. */
export function serve(dir, base = '/') {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/static-server.mjs', '--dir', dir, '--port', '0', '--base', base], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      const m = /at (http:\/\/\S+)/.exec(String(chunk));
      if (m) resolve({ url: m[1], close: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      // Extra flags for measurements (e.g. `CHROMIUM_ARGS=--js-flags=--no-wasm-dynamic-tiering`).
      ...(process.env.CHROMIUM_ARGS ?? '').split(' ').filter(Boolean)],
  });
}

/** A new page of `target` (a browser: 1366×800; a context: its viewport) that records console
 * errors, uncaught exceptions and failed requests into `errors`, and every request URL into
 * `requests`. */
export async function newPage(target) {
  const page = typeof target.contexts === 'function'
    ? await target.newPage({ viewport: { width: 1366, height: 800 } })
    : await target.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('request', (req) => requests.push(req.url()));
  page.on('requestfailed', (req) => {
    // Leaving a page cancels what it was still loading (the worker pool starts with the page and
    // prefetches the worker's wasm): not an error.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    errors.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`);
  });
  return { page, errors, requests };
}

/** One browser, one context with `viewport` and a static server on `dir` for a test file, started
 * before its tests and closed after them: read `site.context` and `site.url` inside tests. */
export function useSite({ viewport = { width: 1366, height: 800 }, dir = 'dist', base = '/' } = {}) {
  const site = {};
  before(async () => {
    site.browser = await launch();
    site.context = await site.browser.newContext({ viewport });
    site.server = await serve(dir, base);
    site.url = site.server.url;
  });
  after(async () => {
    site.server?.close();
    await site.browser?.close();
  });
  return site;
}

export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
}

/** The run page's result rows once every chunk is built: the table body is `aria-busy` while the
 * page still adds rows (25 per UI task after the summary), so a count taken earlier is short. */
export const RUN_ROWS = '#run-results tbody[aria-busy="false"] tr';

/** The first visit's wasm budget, gzip -9 (1.5 MiB): the app and the scoring worker; the
 * trajectory worker and codecs.wasm load on demand, outside it. */
export const FIRST_VISIT_WASM_BUDGET = 1536 * 1024;
export const isFirstVisitWasm = (f) => /^app-[0-9a-f]+_bg\.wasm$/.test(f) || f === 'worker_bg.wasm';

/** `file`'s size under GNU `gzip -9` (what the budget is measured with: Node's bundled zlib
 * writes the worker larger), or null without a `gzip` on the PATH. */
export function gnuGzipSize(file) {
  try {
    return execFileSync('gzip', ['-9', '-c', file], { maxBuffer: 1 << 28 }).length;
  } catch {
    return null;
  }
}
