// After a build: writes `.gz` (gzip -9) and `.br` (brotli, quality 11) siblings of every static file
// of dist/ worth compressing (text and wasm of 1 KiB or more), so a server or static host can send
// them with `Content-Encoding` instead of the raw bytes (scripts/static-server.mjs does; see README
// "Hosting" for other hosts). With `--preload-worker`, also adds to index.html a
// `<link rel="prefetch">` of the scoring worker's wasm, so it downloads beside the app's instead of
// after the app has started the worker (the worker's own fetch then finds it in the HTTP cache, or
// revalidates it with one request: a server should send validators, as static-server.mjs does).
// Prefetch, not preload: a preload is for the document itself, and one the document never uses
// (the worker fetches its wasm) draws a console warning on every page.
// Usage: node scripts/compress-static.mjs dist [--preload-worker]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'dist');
const COMPRESSIBLE = new Set(['.wasm', '.bin', '.js', '.mjs', '.css', '.html', '.json', '.svg', '.txt', '.jsonl']);
const MIN_BYTES = 1024;

function* files(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) yield* files(p);
    else yield p;
  }
}

if (process.argv.includes('--preload-worker')) {
  const index = path.join(dir, 'index.html');
  const html = fs.readFileSync(index, 'utf8');
  const wasm = fs.readdirSync(dir).find((f) => /^worker(-[0-9a-f]+)?_bg\.wasm$/.test(f));
  // The app's own wasm preload (written by Trunk) shows the public URL its assets are under.
  const base = /<link rel="preload" href="([^"]*?)app-[0-9a-f]+_bg\.wasm"/.exec(html)?.[1];
  if (!wasm || base === undefined) {
    console.error(`${dir}: no worker wasm to preload, or no app wasm preload to take the base from`);
    process.exit(1);
  }
  const link = `<link rel="prefetch" href="${base}${wasm}" type="application/wasm">`;
  // A copy of index.html from before this change (a rebuilt dist keeps Trunk's fresh one) loses
  // its old preload of the worker's wasm.
  const fresh = html.replace(/<link rel="preload" href="[^"]*worker[^"]*_bg\.wasm"[^>]*>\n?/, '');
  if (!fresh.includes(link)) fs.writeFileSync(index, fresh.replace('</head>', `${link}\n</head>`));
}

let raw = 0;
let gz = 0;
let br = 0;
for (const file of files(dir)) {
  const ext = path.extname(file);
  if (!COMPRESSIBLE.has(ext)) continue;
  const bytes = fs.readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  const g = zlib.gzipSync(bytes, { level: 9 });
  const b = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlib.constants.BROTLI_PARAM_MODE]: ext === '.wasm' ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
    },
  });
  // A sibling that saves nothing is not written (the server then sends the file as it is).
  if (g.length < bytes.length) fs.writeFileSync(`${file}.gz`, g);
  if (b.length < bytes.length) fs.writeFileSync(`${file}.br`, b);
  raw += bytes.length;
  gz += Math.min(g.length, bytes.length);
  br += Math.min(b.length, bytes.length);
}
console.log(`compressed ${dir}: ${raw} bytes raw, ${gz} gzip, ${br} brotli`);
