// markdown.mjs: Markdown → safe DOM for the weekly report.  marked (pinned
// in package.json, served from /vendor/marked/) renders it, GitHub-flavoured
// (tables); DOMPurify (pinned, /vendor/dompurify/) sanitises the HTML,
// because the report quotes repository text (commit messages, author
// names, paths) and Markdown lets raw HTML through.  Only text elements
// stay: no images, media, forms, styles or frames, no event handlers or
// javascript: URLs (DOMPurify's defaults), and every link opens as a
// plain link.

import { marked } from '../vendor/marked/marked.esm.js';
import DOMPurify from '../vendor/dompurify/purify.es.mjs';

const FORBID_TAGS = ['img', 'picture', 'source', 'video', 'audio', 'svg', 'math', 'style', 'form', 'input',
  'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'link', 'meta', 'base'];

/** A DocumentFragment of the rendered, sanitised Markdown text. */
export function renderMarkdown(text) {
  const html = marked.parse(String(text ?? ''), { gfm: true, async: false });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS, FORBID_ATTR: ['style', 'srcset'], RETURN_DOM_FRAGMENT: true,
  });
}
