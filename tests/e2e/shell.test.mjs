// Journey 1 (foundation): the release site, served by a plain static server, renders the shell in
// headless Chromium with no console errors, its worker answers, and the same holds under a sub-path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function checkShell(dir, base, shot) {
  const server = await serve(dir, base);
  try {
    const { page, errors } = await newPage(browser);
    await page.goto(server.url);
    await page.locator('header .brand').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('header .brand').textContent(), 'refscore');
    assert.deepEqual(await page.locator('nav a').allTextContents(), ['Leaderboard', 'Tasks', 'Score', 'Runs', 'Trajectory', 'About']);
    // The landing page is the leaderboard (published.json always has entries).
    await page.locator('#leaderboard tbody tr').first().waitFor({ timeout: 15000 });
    await page.locator('nav a', { hasText: 'Tasks' }).click();
    assert.ok(page.url().endsWith(`${base}tasks`), page.url());
    // The task list comes from the bundle's index.json: a table, or the explicit empty state.
    await page.locator('#task-list, #task-list-empty').first().waitFor({ timeout: 15000 });
    // The scoring worker loaded its wasm and answered.
    await page.locator('#worker-status', { hasText: 'ready (scorer ' }).waitFor({ timeout: 15000 });
    await screenshot(page, `${shot}-tasks`);

    // Client-side navigation, then a reload of the deep link (the URL is real).
    await page.locator('nav a', { hasText: 'About' }).click();
    await page.locator('h1', { hasText: 'About refscore' }).waitFor();
    assert.ok(page.url().endsWith(`${base}about`), page.url());
    await page.reload();
    await page.locator('#about-scorer', { hasText: 'refscore ' }).waitFor({ timeout: 15000 });
    await screenshot(page, `${shot}-about`);

    assert.deepEqual(errors, [], `console errors:\n${errors.join('\n')}`);
  } finally {
    server.close();
  }
}

test('release site renders the shell at the root', async () => {
  await checkShell('dist', '/', 'root');
});

test('release site built with --public-url renders under a sub-path', async () => {
  await checkShell('dist-subpath', '/refscore/', 'subpath');
});
