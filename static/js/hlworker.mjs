// hlworker.mjs: the source's colours worked out in a worker, off the file
// page's main thread (highlight.mjs highlighter; issue 26.4).  Gets the
// normalised text, answers with highlightLines' segments packed in two
// typed arrays (packLines), transferred, or {runs: null} without Prism.
// Prism's own worker handler (which would read every message as its JSON
// request) is turned off before Prism loads.

import { highlightLines, packLines } from './highlight.mjs';

self.Prism = { manual: true, disableWorkerMessageHandler: true };
const prism = import('../vendor/prismjs/prism-core.min.js')
  .then(() => import('../vendor/prismjs/prism-clike.min.js'))
  .then(() => import('../vendor/prismjs/prism-c.min.js'))
  .then(() => true, () => false);

self.onmessage = async (e) => {
  const lines = (await prism) ? highlightLines(String(e.data)) : null;
  if (!lines) {
    self.postMessage({ runs: null });
    return;
  }
  const packed = packLines(lines);
  self.postMessage(packed, [packed.runs.buffer, packed.starts.buffer]);
};
