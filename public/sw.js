// refscore's service worker: the site keeps working offline after the first visit.
//
// Registered by sw-register.js with the site's base path as its scope, so it works at a host's root
// and under any sub-path. What it caches, and how:
// - content-addressed files (Trunk's hashed app/worker/style files, every bundle file but
//   index.json): cache first, kept for ever (a new content is a new name);
// - everything else (the app shell index.html, bundles/*/index.json, bundles/bundles.json,
//   leaderboard/published.json and its reports): network first, the cached copy when offline;
// - navigations (deep links such as tasks/ID): network first, else the cached shell, which routes
//   them client side; a fresh shell prunes the hashed files of older builds from the cache.
// Only GET requests of this origin under the scope are touched; nothing is sent anywhere else.
'use strict';

const CACHE = 'refscore-v1';
const SCOPE = new URL(self.registration.scope);
const SHELL = SCOPE.href; // the base path: index.html

/** The path below the scope, or null for a URL outside it (or another origin). */
function inScope(url) {
  const u = new URL(url);
  if (u.origin !== SCOPE.origin || !u.pathname.startsWith(SCOPE.pathname)) return null;
  return u.pathname.slice(SCOPE.pathname.length);
}

/** Trunk's hashed assets: app-<hash>.js, app-<hash>_bg.wasm, style-<hash>.css; the hash is a
 * 64-bit number in hex without leading zeros, so it can be shorter than 16 digits. */
const HASHED = /^[^/]+-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css)$/;

/** Whether a file's content never changes under its name. */
function immutable(rel) {
  if (rel.startsWith('bundles/')) {
    return !rel.endsWith('/index.json') && rel !== 'bundles/bundles.json';
  }
  return HASHED.test(rel);
}

/** Deletes cached hashed assets a fresh shell no longer names. A deploy gives the app new names,
 * and cache-first files would otherwise keep every old build for ever. Only a shell that names
 * hashed assets prunes (a host's 404 page names none). */
async function prune(html) {
  const keep = new Set(shellAssets(html).filter((u) => HASHED.test(inScope(u) ?? '')));
  if (keep.size === 0) return;
  const cache = await caches.open(CACHE);
  for (const request of await cache.keys()) {
    const rel = inScope(request.url);
    if (rel !== null && HASHED.test(rel) && !keep.has(request.url)) await cache.delete(request);
  }
}

/** The URLs index.html refers to (its scripts, styles and preloads), for the first install. */
function shellAssets(html) {
  const out = new Set();
  for (const m of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
    try {
      const u = new URL(m[1], SHELL);
      const rel = inScope(u.href);
      if (rel !== null && rel !== '' && !u.protocol.startsWith('data')) out.add(u.href);
    } catch { /* not a URL */ }
  }
  return [...out];
}

async function put(request, response) {
  if (response && response.ok && response.type === 'basic') {
    const cache = await caches.open(CACHE);
    await cache.put(request, response);
  }
}

/** Caches `urls` (same origin, in scope) that are not cached yet. Failures are skipped. */
async function addAll(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(urls.map(async (url) => {
    if (inScope(url) === null || (await cache.match(url))) return;
    try {
      const resp = await fetch(url);
      await put(url, resp);
    } catch { /* offline or gone: the next visit fetches it */ }
  }));
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    try {
      const resp = await fetch(SHELL, { cache: 'no-cache' });
      if (resp.ok) {
        const html = await resp.clone().text();
        await put(SHELL, resp);
        // The scoring worker's files are not named in index.html (the app starts the worker);
        // its `\N{...}` names table and the interned words (small) are loaded only when a job
        // needs them, so offline too. The codecs module (about 550 KB) is not: few runs need it,
        // and the first one (online) leaves it in the cache through `networkFirst`.
        const extra = ['worker_loader.js', 'worker.js', 'worker_bg.wasm', 'unicode-names.bin',
          'interned-words.txt', 'bundles/bundles.json', 'leaderboard/published.json']
          .map((f) => new URL(f, SHELL).href);
        await addAll([...shellAssets(html), ...extra]);
      }
    } catch { /* installed without a shell: the first navigation fills it */ }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// The page sends what it fetched before this worker controlled it (the first visit).
self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'cache' && Array.isArray(data.urls)) {
    event.waitUntil(addAll(data.urls.filter((u) => typeof u === 'string')));
  }
});

async function networkFirst(event, request, key) {
  try {
    const resp = await fetch(request);
    // Cached in the background: the page gets the response without waiting for the write.
    if (resp.ok) event.waitUntil(put(key, resp.clone()));
    return resp;
  } catch (err) {
    const cached = await caches.match(key, { ignoreVary: true });
    if (cached) return cached;
    throw err;
  }
}

/** A navigation: the shell from the network (cached, and old builds' assets pruned), else the
 * cached shell, which routes the URL client side. */
async function navigate(event, request) {
  try {
    const resp = await fetch(request);
    if (resp.ok) {
      const copy = resp.clone();
      event.waitUntil((async () => {
        const html = await copy.clone().text();
        await put(SHELL, copy);
        await prune(html);
      })());
    }
    return resp;
  } catch (err) {
    const cached = await caches.match(SHELL, { ignoreVary: true });
    if (cached) return cached;
    throw err;
  }
}

/** A content-addressed file: from the cache, else fetched into the cache and answered from there.
 * `cache.add` stores the body without this thread touching it; a `fetch` + `put(resp.clone())`
 * would tee every chunk through this worker's thread (measured with tests/e2e/speed.mjs: about 2 s
 * of its CPU for the 230 files of a 100-task run, taken from the scoring workers' cores). */
async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  try {
    const cache = await caches.open(CACHE);
    await cache.add(request);
    const stored = await cache.match(request, { ignoreVary: true });
    if (stored) return stored;
  } catch { /* not ok (a 404) or not storable: the network's answer as it is */ }
  return fetch(request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const rel = inScope(request.url);
  if (rel === null) return;
  if (request.mode === 'navigate') {
    // Every route is the same shell; deep links are routed by the app.
    event.respondWith(navigate(event, request));
  } else if (immutable(rel)) {
    event.respondWith(cacheFirst(request));
  } else {
    const url = new URL(request.url);
    url.search = '';
    event.respondWith(networkFirst(event, request, url.href));
  }
});
