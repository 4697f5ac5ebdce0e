// A plain static file server for dist/, like any static host: correct MIME types (application/wasm),
// an optional sub-path (--base /refscore/), and the single-page-app fallback (a missing path gets
// index.html unless it names an asset type, as GitHub Pages' 404.html trick or a host rewrite rule
// would: route ids may contain dots, e.g. an official task named `…helpers.py`).
// Precompressed `.br`/`.gz` siblings are sent with Content-Encoding when the client accepts them.
// Usage: node scripts/static-server.mjs --dir dist [--port 8080] [--host 127.0.0.1] [--base /] [--no-compress]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const root = path.resolve(args.dir ?? 'dist');
const port = Number(args.port ?? 8080);
const host = args.host ?? '127.0.0.1';
let base = args.base ?? '/';
if (!base.endsWith('/')) base += '/';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
  '.bin': 'application/octet-stream',
};

// Precompressed siblings written by scripts/compress-static.mjs, best first. `--no-compress` sends
// every file as it is (to measure the difference).
const ENCODINGS = 'no-compress' in args ? [] : [['br', '.br'], ['gzip', '.gz']];

function send(req, res, status, file) {
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  // A validator, so a revalidation (no-cache) of an unchanged file is a 304 without the body: the
  // worker's fetch of its preloaded wasm costs one round trip, not a second download.
  const stat = fs.statSync(file);
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
  const headers = { 'content-type': type, 'cache-control': 'no-cache', vary: 'accept-encoding', etag };
  if (status === 200 && req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((s) => s.trim().split(';')[0]);
  for (const [encoding, ext] of ENCODINGS) {
    // A sibling older than its file is stale (the file was rewritten after compress-static ran):
    // send the file itself rather than old bytes.
    if (accepted.includes(encoding) && fs.existsSync(file + ext) && fs.statSync(file + ext).mtimeMs >= stat.mtimeMs) {
      headers['content-encoding'] = encoding;
      headers['content-length'] = fs.statSync(file + ext).size;
      res.writeHead(status, headers);
      fs.createReadStream(file + ext).pipe(res);
      return;
    }
  }
  headers['content-length'] = fs.statSync(file).size;
  res.writeHead(status, headers);
  fs.createReadStream(file).pipe(res);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let rel = decodeURIComponent(url.pathname);
  if (!rel.startsWith(base)) {
    res.writeHead(404).end('not under ' + base);
    return;
  }
  rel = rel.slice(base.length);
  const file = path.resolve(root, rel);
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  if (fs.existsSync(file) && fs.statSync(file).isFile()) return send(req, res, 200, file);
  if (fs.existsSync(path.join(file, 'index.html'))) return send(req, res, 200, path.join(file, 'index.html'));
  if (!(path.extname(rel) in TYPES)) return send(req, res, 200, path.join(root, 'index.html'));
  res.writeHead(404).end('not found');
});
server.listen(port, host, () => {
  console.log(`refscore: serving ${root} at http://${host}:${server.address().port}${base}`);
});
