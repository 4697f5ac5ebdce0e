// Time to an interactive scoring worker on DevTools' "Fast 3G" profile (562.5 ms round trip,
// 1.44 Mbit/s down, 675 kbit/s up): navigation start → the footer says "Scoring worker: ready".
// Not a test; run by hand:
//   node tests/e2e/fast3g.mjs [dist] [runs]
// The profile is applied by a throttling TCP proxy in front of the static server rather than by CDP
// network emulation: CDP's emulation of a page does not reach its dedicated workers' requests, and
// the worker's wasm is what this measures. Measures the build twice: as it was served before (raw
// files, no preload or prefetch of the worker's wasm: `--no-compress` and the preload link removed from a copy
// of index.html) and as it is served now (precompressed .br/.gz siblings, worker wasm prefetched).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { launch } from './harness.mjs';

const dist = path.resolve(process.argv[2] ?? 'dist');
const runs = Number(process.argv[3] ?? 2);

function serve(dir, extra) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/static-server.mjs', '--dir', dir, '--port', '0', ...extra], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk) => {
      const m = /at (http:\/\/\S+)/.exec(String(chunk));
      if (m) resolve({ url: m[1], close: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
}

const RTT_MS = 562.5;
const DOWN_BPS = (1.44e6 / 8);
const UP_BPS = (675e3 / 8);

/** A proxy to `target` (http://host:port/) with Fast 3G's latency and bandwidth, the bandwidth
 * shared by every connection (one link), each direction half the round trip late. */
function throttle(target) {
  const { hostname, port } = new URL(target);
  const link = (bps) => {
    let free = 0; // when the link is free again (ms)
    return (chunk, send) => {
      const now = performance.now();
      const start = Math.max(now + RTT_MS / 2, free);
      free = start + (chunk.length / bps) * 1000;
      setTimeout(() => send(chunk), free - now);
    };
  };
  const down = link(DOWN_BPS);
  const up = link(UP_BPS);
  return new Promise((resolve) => {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(port), hostname);
      let pending = 0;
      let ended = false;
      const finish = () => { if (ended && pending === 0) client.end(); };
      upstream.on('data', (c) => { pending += 1; down(c, (x) => { client.write(x); pending -= 1; finish(); }); });
      upstream.on('end', () => { ended = true; finish(); });
      client.on('data', (c) => up(c, (x) => upstream.write(x)));
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${server.address().port}${new URL(target).pathname}`;
      resolve({ url, close: () => server.close() });
    });
  });
}

// "Before": a copy of dist whose index.html has no worker prefetch, served without compression.
const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-plain-'));
fs.cpSync(dist, plain, { recursive: true });
const indexFile = path.join(plain, 'index.html');
fs.writeFileSync(indexFile, fs.readFileSync(indexFile, 'utf8').replace(/<link rel="pre(load|fetch)" href="[^"]*worker[^"]*"[^>]*>\n?/, ''));
// Its compressed copies still hold the prefetch: the changed index.html is sent as it is.
for (const ext of ['.br', '.gz']) fs.rmSync(indexFile + ext, { force: true });

async function measure(url) {
  const browser = await launch();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    let bytes = 0;
    const count = (res) => res.request().sizes().then((s) => { bytes += s.responseBodySize + s.responseHeadersSize; }).catch(() => {});
    page.on('response', count);
    page.on('worker', (w) => w.on?.('response', count));
    await page.goto(url, { waitUntil: 'commit', timeout: 300000 });
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: 300000 });
    const ms = await page.evaluate(() => performance.now());
    return { ms: Math.round(ms), bytes };
  } finally {
    await browser.close();
  }
}

const rawBefore = await serve(plain, ['--no-compress']);
const rawCompressed = await serve(plain, []);
const rawAfter = await serve(dist, []);
const before = await throttle(rawBefore.url);
const compressed = await throttle(rawCompressed.url);
const after = await throttle(rawAfter.url);
try {
  for (let i = 0; i < runs; i++) {
    const b = await measure(before.url);
    const c = await measure(compressed.url);
    const a = await measure(after.url);
    console.log(`run ${i + 1}: before ${b.ms} ms (${b.bytes} B), compressed without prefetch ${c.ms} ms (${c.bytes} B), `
      + `compressed and prefetched ${a.ms} ms (${a.bytes} B)`);
  }
} finally {
  for (const s of [before, compressed, after, rawBefore, rawCompressed, rawAfter]) s.close();
  fs.rmSync(plain, { recursive: true, force: true });
}
