// file_page.mjs: how fast a file page shows its content (benchmark, not a
// test: timings go in doc/benchmarks.md, never in assertions).
// Usage: node tests/bench/file_page.mjs URL_OF_A_FILE_PAGE [RUNS]
// e.g. the numpy-hpy arraytypes.c.src page of a running `portdash serve`.
// Prints per run: first contentful paint, when the file head is in the
// page, when the functions, findings and source tables are, and when the
// page is ready (all lines).
import { chromium } from 'playwright-core';

const [url, runs = '3'] = process.argv.slice(2);
if (!url) { console.error('usage: file_page.mjs URL [RUNS]'); process.exit(2); }
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (let i = 0; i < Number(runs); i++) {
  const page = await b.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    window.__marks = {};
    new MutationObserver(() => {
      if (!window.__marks.head && document.querySelector('#file-path')) window.__marks.head = performance.now();
      if (!window.__marks.fns && document.querySelector('#functions-table tbody tr')) window.__marks.fns = performance.now();
      if (!window.__marks.findings && document.querySelector('#findings-table tbody tr')) window.__marks.findings = performance.now();
      if (!window.__marks.source && document.querySelector('#source-table')) window.__marks.source = performance.now();
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 120000 });
  const r = await page.evaluate(() => ({
    fcp: Math.round(performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1),
    head: Math.round(window.__marks.head), fns: Math.round(window.__marks.fns),
    findings: Math.round(window.__marks.findings), source: Math.round(window.__marks.source), ready: Math.round(performance.now()),
  }));
  console.log(`run ${i + 1}: first paint ${r.fcp} ms, file head ${r.head} ms, functions ${r.fns} ms, findings ${r.findings} ms, source ${r.source} ms, ready ${r.ready} ms`);
  await page.close();
}
await b.close();
