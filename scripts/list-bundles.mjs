// Writes public/bundles/bundles.json: every bundle folder under public/bundles/ that has an
// index.json (the demo always; a locally imported benchmark too), so the app can offer them.
// Usage: node scripts/list-bundles.mjs [public/bundles]
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'public/bundles';
const bundles = fs.readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(d.name))
  .map((d) => d.name)
  .filter((name) => fs.existsSync(path.join(dir, name, 'index.json')))
  .sort((a, b) => (a === 'demo' ? -1 : b === 'demo' ? 1 : a < b ? -1 : a > b ? 1 : 0))
  .map((name) => {
    const index = JSON.parse(fs.readFileSync(path.join(dir, name, 'index.json'), 'utf8'));
    return { name, tasks: index.tasks?.length ?? 0, bundle_hash: index.bundle_hash ?? '' };
  });
const list = { default: bundles.some((b) => b.name === 'demo') ? 'demo' : (bundles[0]?.name ?? 'demo'), bundles };
fs.writeFileSync(path.join(dir, 'bundles.json'), JSON.stringify(list) + '\n');
console.error(`bundles.json: ${bundles.map((b) => `${b.name} (${b.tasks} tasks)`).join(', ')}`);
