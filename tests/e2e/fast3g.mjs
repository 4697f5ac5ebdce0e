// Time to an interactive scoring worker on DevTools' "Fast 3G" profile (CDP network emulation:
// 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up): navigation start → the footer says
// "Scoring worker: ready". Not a test; run by hand:
//   node tests/e2e/fast3g.mjs [dist] [runs]
// Measures the build twice: as it was served before (raw files, no preload of the worker's wasm:
// `--no-compress` and the preload link removed from a copy of index.html) and as it is served now
// (precompressed .br/.gz siblings, worker wasm preloaded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

// "Before": a copy of dist whose index.html has no worker preload, served without compression.
const plain = fs.mkdtempSync(path.join(os.tmpdir(), 'refscore-plain-'));
fs.cpSync(dist, plain, { recursive: true });
const indexFile = path.join(plain, 'index.html');
fs.writeFileSync(indexFile, fs.readFileSync(indexFile, 'utf8').replace(/<link rel="preload" href="[^"]*worker[^"]*"[^>]*>\n?/, ''));

async function measure(url) {
  const browser = await launch();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 562.5,
      downloadThroughput: (1.44 * 1000 * 1000) / 8,
      uploadThroughput: (675 * 1000) / 8,
    });
    let bytes = 0;
    cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
    await page.goto(url, { waitUntil: 'commit', timeout: 300000 });
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: 300000 });
    const ms = await page.evaluate(() => performance.now());
    return { ms: Math.round(ms), bytes };
  } finally {
    await browser.close();
  }
}

const before = await serve(plain, ['--no-compress']);
const after = await serve(dist, []);
try {
  for (let i = 0; i < runs; i++) {
    const b = await measure(before.url);
    const a = await measure(after.url);
    console.log(`run ${i + 1}: before ${b.ms} ms (${b.bytes} B transferred), after ${a.ms} ms (${a.bytes} B transferred)`);
  }
} finally {
  before.close();
  after.close();
  fs.rmSync(plain, { recursive: true, force: true });
}
