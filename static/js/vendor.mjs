// vendor.mjs: the classic-script libraries (Chart.js, Prism) loaded when a
// page first needs them, not by <script defer> tags in <head>.  A deferred
// classic script runs before every module after it, so its download and
// evaluation (Chart.js: 200 KB) held back the first screen of the file page
// and the overview (issue 26.4).  Both libraries set a global
// (window.Chart, window.Prism) as before; a page that still has the tag
// (snapshots.html) finds it set and loads nothing.

const loading = new Map();

/* One script element for src; resolves when it has run (or failed). */
function script(src, attrs = {}) {
  if (!loading.has(src)) {
    loading.set(src, new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = false;            // the scripts of one call run in their order
      for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
      s.onload = () => resolve(true);
      s.onerror = () => resolve(false);
      document.head.append(s);
    }));
  }
  return loading.get(src);
}

/** Loads Chart.js once; resolves true when window.Chart is there (false when it did not load). */
export async function loadChart() {
  if (!window.Chart) await script('vendor/chart.js/chart.umd.js');
  return !!window.Chart;
}

/**
 * Loads Prism with its C grammar once; resolves true when Prism can
 * tokenize C.  data-manual: Prism must not highlight the page by itself.
 */
export async function loadPrism() {
  if (!window.Prism?.languages?.c) {
    await Promise.all([
      script('vendor/prismjs/prism-core.min.js', { 'data-manual': '' }),
      script('vendor/prismjs/prism-clike.min.js'),
      script('vendor/prismjs/prism-c.min.js'),
    ]);
  }
  return !!window.Prism?.languages?.c;
}
