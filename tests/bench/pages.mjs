// pages.mjs: the file page and the overview timed in headless Chromium
// (issue 26.4; run by pages.sh, `make bench-pages`).  A benchmark, not a
// test: its figures go in doc/benchmarks.md, never in assertions.
// Usage: node pages.mjs REPO REF PATH RUNS LABEL URL [LABEL URL ...]
//
// Every run opens the page in a fresh browser context (an empty HTTP cache,
// as a new visitor has; the server's answer cache is warm after a first,
// uncounted load) and notes, in ms after navigation start, the frame in
// which each part was first in the page:
//   file page: functions (a row of the function table), lines (every
//              source line's number and text, uncoloured, in the page: the
//              source caption is written after the last row), coloured
//              (every line coloured, its findings marked and their
//              messages under it: #source-table[data-coloured]; "-" on a
//              version that colours the rows before they go in, where
//              lines is that moment), ready (body[data-ready]);
//   overview:  totals (the summary cards), first screen (the three dev-call
//              answers: how far, this week, next; "-" on a version without
//              them), ready;
// and the renderer's main-thread busy time up to ready (CDP TaskDuration).
// Each mark but ready is printed twice: the frame's start (its
// requestAnimationFrame callback, as before), and "painted", when that
// frame's style, layout and paint on the main thread are done: the end of
// its long-animation-frame entry when it took over 50 ms (Chromium's
// PerformanceObserver), else the frame's start (it was painted in under
// 50 ms).  The frame start is before the frame's layout: on the file page
// the function table's first layout and paint took 0.15-0.2 s of CPU
// after it, so what the reader sees is the painted one.
//
// Chromium 156's new headless mode opens a browser window per context, and
// with it the omnibox popup's WebUI renderer, which evaluated 0.6 s of
// modules during the first second of every run (a trace of the file page:
// 1.2 s of its main thread against the page's 1.4 s, on 2 cores).  That is
// the browser's own UI, not the page, and a visitor's window has it
// already: it is switched off (--disable-features, below).
// Prints one markdown row per page and version with the median of the runs
// and their range.  The page is watched by a MutationObserver of its own,
// never by playwright's waitForSelector: that polls every frame with a
// selector engine that walks the whole DOM (90,000 nodes on the file page)
// on the page's main thread: 0.47 s of it in one profile of the file page.
import { chromium } from 'playwright-core';

const [repo, ref, path, runsArg, ...pairs] = process.argv.slice(2);
if (!pairs.length || pairs.length % 2) {
  console.error('usage: pages.mjs REPO REF PATH RUNS LABEL URL [LABEL URL ...]');
  process.exit(2);
}
const runs = Number(runsArg) || 5;
const q = (o) => new URLSearchParams(o).toString();
const PAGES = [
  { page: 'file page', url: (b) => `${b}/file.html?${q({ repo, rev: ref, path })}`,
    marks: { functions: '#functions-table tbody tr', lines: '#source-info:not(:empty)',
      coloured: '#source-table[data-coloured]' } },
  { page: 'overview', url: (b) => `${b}/index.html?${q({ repo, rev: ref })}`,
    marks: { totals: '#summary .card', 'first screen': '#devcall[data-complete]' } },
];

/* In the page: notes, for each selector, the next frame after it matched;
 * window.__ready resolves in the frame after body[data-ready]. */
function observe(marks) {
  window.__marks = {};
  // Frames over 50 ms: where their rendering (style, layout, paint) ended.
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__frames.push([e.renderStart, e.startTime + e.duration]);
  }).observe({ type: 'long-animation-frame', buffered: true });
  let ready;
  window.__ready = new Promise((res) => { ready = res; });
  const check = () => {
    for (const [k, sel] of Object.entries(marks)) {
      if (window.__marks[k] === undefined && document.querySelector(sel)) {
        window.__marks[k] = null;
        requestAnimationFrame(() => {
          window.__marks[k] = performance.now();
          if (k === 'ready') requestAnimationFrame(() => setTimeout(ready));
        });
      }
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true,
    characterData: true });
}

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup'] });
console.log(`${runs} runs each, median (min–max) in ms after navigation start, 1280×800`);
console.log('| page | version | mark | median | range |');
console.log('|---|---|---|---|---|');
// The versions take turns run by run, so that a change in the machine's
// load (other work on a shared machine) falls on both alike.
// BENCH_PAGES=file or =overview times that page only.
const only = process.env.BENCH_PAGES;
for (const P of PAGES.filter((x) => !only || x.page.startsWith(only))) {
  const got = {};
  for (let r = -1; r < runs; r++) {             // run -1 warms the server's answers
    for (let i = 0; i < pairs.length; i += 2) {
      const [label, base] = [pairs[i], pairs[i + 1]];
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      const cdp = await ctx.newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.addInitScript(observe, { ...P.marks, ready: 'body[data-ready]' });
      await page.goto(P.url(base));
      await page.evaluate(() => Promise.race([window.__ready,
        new Promise((res, rej) => setTimeout(() => rej(new Error('not ready after 120 s')), 120000))]));
      const m = await page.evaluate(() => {
        const out = { ...window.__marks };
        for (const [k, t] of Object.entries(window.__marks)) {
          if (k === 'ready' || t == null) continue;
          // The frame that began at t (its rendering starts with the
          // animation frame callbacks, within a millisecond of t).
          const f = window.__frames.find(([start, end]) => start > 0 && start <= t + 1 && end >= t);
          out[`${k}, painted`] = f ? f[1] : t;
        }
        return out;
      });
      // The renderer's main-thread busy time up to ready (script, style,
      // layout, paint): what the page costs, less sensitive than wall time
      // to a loaded machine.
      const { metrics } = await cdp.send('Performance.getMetrics');
      m['main thread busy'] = 1000 * (metrics.find((x) => x.name === 'TaskDuration')?.value ?? NaN);
      await ctx.close();
      if (r < 0) continue;
      for (const [k, v] of Object.entries(m)) if (v != null) ((got[label] ??= {})[k] ??= []).push(v);
    }
  }
  for (let i = 0; i < pairs.length; i += 2) {
    const label = pairs[i];
    for (const k of [...Object.keys(P.marks).flatMap((m) => [m, `${m}, painted`]), 'ready', 'main thread busy']) {
      const v = got[label]?.[k];
      console.log(`| ${P.page} | ${label} | ${k} | ${v ? Math.round(median(v)) : '-'} | ${v
        ? `${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))}` : 'not shown'} |`);
    }
  }
}
await browser.close();
