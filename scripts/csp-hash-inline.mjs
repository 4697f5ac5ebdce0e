// Trunk injects one inline <script type="module"> that loads the wasm. The Content-Security-Policy in
// index.html allows no inline script, so after each build this adds the sha256 of exactly the inline
// scripts Trunk wrote to `script-src` (nothing else becomes executable).
// Usage: node scripts/csp-hash-inline.mjs dist/index.html
import fs from 'node:fs';
import crypto from 'node:crypto';

const file = process.argv[2];
let html = fs.readFileSync(file, 'utf8');
const hashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${crypto.createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
const before = html;
html = html.replace(/script-src 'self'/, `script-src 'self' ${hashes.join(' ')}`);
if (hashes.length === 0 || html === before) {
  console.error(`${file}: no inline script or no script-src 'self' in the CSP`);
  process.exit(1);
}
fs.writeFileSync(file, html);
