// lib.mjs: what every browser test shares: the server under test, the API
// fetches that give the expected figures, and one headless Debian chromium
// whose pages fail a test on any JavaScript error.  Not a test file itself
// (node --test runs only *.test.mjs).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE = (process.env.PORTDASH_URL ?? '').replace(/\/+$/, '');
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = path.join(ROOT, 'build', 'screenshots');
// As root, headless, and never reaching outside this machine.
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser = null;

/** Starts the shared browser (Debian's chromium; never a downloaded one). */
export async function launch() {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return browser;
}

export async function closeBrowser() {
  await browser?.close();
  browser = null;
}

/** GETs an API path: {status, type, body}, body parsed when it is JSON. */
export async function api(p) {
  const res = await fetch(BASE + p);
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text();
  return { status: res.status, type, body: type.includes('json') ? JSON.parse(text) : text };
}

/** GETs an API path that must answer 200; returns its body. */
export async function apiOk(p) {
  const r = await api(p);
  assert.equal(r.status, 200, `GET ${p} → ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/**
 * A fresh page, not yet navigated (for tests that route or listen first),
 * recording its JavaScript errors (checked by close()) and the URLs it
 * requests.
 */
export async function blank(viewport = { width: 1366, height: 900 }) {
  const page = await browser.newPage({ viewport });
  page.jsErrors = [];
  page.requests = [];
  page.on('pageerror', (e) => page.jsErrors.push(e.message));
  page.on('request', (r) => page.requests.push(r.url()));
  return page;
}

/**
 * Opens url in a fresh page and waits until the page says it has loaded
 * (body[data-ready]).  Records JavaScript errors (checked by close()) and
 * the URLs the page requested.
 */
export async function open(url, { width = 1366, height = 900 } = {}) {
  const page = await blank({ width, height });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return page;
}

/**
 * The page's URL as the page has it.  page.url() follows navigation events
 * that reach Playwright after the action that caused them may have
 * returned: read just after a history.replaceState (the `y` key, Copy
 * permalink, a sort or filter written to the URL) it can still be the old
 * one.
 */
export async function here(page) {
  return page.evaluate(() => location.href);
}

/** Closes a page opened by open(), failing on any JavaScript error it had. */
export async function close(page) {
  const errs = page.jsErrors;
  await page.close();
  assert.deepEqual(errs, [], 'no JavaScript errors on the page');
}

/** Saves a full-page screenshot under build/screenshots for people to look at. */
export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
