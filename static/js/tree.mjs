// tree.mjs: directory roll-ups on the overview, computed here from the
// files endpoint.  Every directory sums its files: functions by status (a
// bar and the counts), object-dtype paths by state, universal-ready files
// N of M.  A file listed without an analysis (its blob missing from the
// clone) counts in none of them: it is shown, and counted apart ("+1 not
// analysed"), as the summary leaves it out of its files.  Chains of directories with a single subdirectory and no files are
// shown as one row ("numpy/core/"), so the tree starts where it branches.
// Rows expand down to files; the open directories are kept in the URL.

import { h, replace, fmt, pct } from './dom.mjs';
import { STATUSES, STATUS_LABEL, STATUS_HELP, OBJECT_STATES, OBJECT_LABEL, UNANALYSED, isAnalysed } from './model.mjs';
import { statusBar, statusBadge, fileHref, overviewHref, cmpStr } from './ui.mjs';

function emptyAgg() {
  return {
    files: 0, ready: 0, missing: 0,
    functions: Object.fromEntries(STATUSES.map((s) => [s, 0])),
    object_paths: Object.fromEntries(OBJECT_STATES.map((s) => [s, 0])),
  };
}

function addTo(agg, f) {
  if (!isAnalysed(f)) {
    agg.missing += 1;
    return;
  }
  agg.files += 1;
  if (f.universal_ready) agg.ready += 1;
  for (const s of STATUSES) agg.functions[s] += f.functions?.[s] ?? 0;
  for (const s of OBJECT_STATES) agg.object_paths[s] += f.object_paths?.[s] ?? 0;
}

/** Builds the directory tree: {name, path, dirs: Map, files: [], agg}. */
export function buildTree(files) {
  const root = { name: '', path: '', dirs: new Map(), files: [], agg: emptyAgg() };
  for (const f of files) {
    const parts = f.path.split('/');
    let node = root;
    addTo(node.agg, f);
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join('/');
      if (!node.dirs.has(parts[i])) node.dirs.set(parts[i], { name: parts[i], path, dirs: new Map(), files: [], agg: emptyAgg() });
      node = node.dirs.get(parts[i]);
      addTo(node.agg, f);
    }
    node.files.push(f);
  }
  return root;
}

/** Follows single-subdirectory chains: returns {label, node} with label "a/b/c". */
function compress(node) {
  const parts = node.name ? [node.name] : [];
  let n = node;
  while (n.files.length === 0 && n.dirs.size === 1) {
    n = [...n.dirs.values()][0];
    parts.push(n.name);
  }
  return { label: parts.join('/'), node: n };
}

/* The tree table's head: functions by status, object-dtype paths (obStates,
 * none when the port has no object dtype), universal-ready. */
function treeHead(obStates) {
  return h('thead', null,
    h('tr', { class: 'group-row' }, h('td', { colspan: 2 }),
      h('th', { scope: 'colgroup', colspan: 1 + STATUSES.length, class: 'group' }, 'Functions'),
      obStates.length ? h('th', { scope: 'colgroup', colspan: obStates.length, class: 'group' }, 'Object-dtype paths') : null,
      h('td')),
    h('tr', null,
      h('th', { scope: 'col' }, 'Directory / file'),
      h('th', { scope: 'col', class: 'num' }, 'Files'),
      h('th', { scope: 'col', class: 'col-bar' }, 'by status'),
      STATUSES.map((s) => h('th', { scope: 'col', class: ['num', `col-st-${s}`] }, STATUS_LABEL[s])),
      obStates.map((s) => h('th', { scope: 'col', class: ['num', `col-${s}`] }, OBJECT_LABEL[s])),
      h('th', { scope: 'col' }, 'Universal-ready')));
}

/* The figure cells of a row's sums agg. */
const treeNumCells = (agg, obStates) => [
  STATUSES.map((s) => h('td', { class: ['num', `t-${s}`, !agg.functions[s] && 'zero'] }, fmt(agg.functions[s]))),
  obStates.map((s) => h('td', { class: ['num', `t-${s}`, `col-${s}`, !agg.object_paths[s] && 'zero'] }, fmt(agg.object_paths[s]))),
];

/* A directory's universal-ready cell: ready of n files. */
const treeReadyCell = (ready, n) => h('td', { class: 'ready t-ready', title: `${ready} of ${n} files need no CPython` },
  h('span', { class: 'mini-bar', 'aria-hidden': 'true' }, h('span', { style: `width:${n ? ((100 * ready) / n).toFixed(2) : 0}%` })),
  h('span', { class: 't-ready-text' }, `${fmt(ready)}/${fmt(n)}`), h('span', { class: 'muted small' }, ` ${pct(ready, n)}`));

/* A file's row at depth (tr: the tree's state, treeRender). */
function treeFileRow(tr, f, depth) {
  const agg = emptyAgg();
  addTo(agg, f);
  return h('tr', { class: 'file', dataset: { path: f.path, depth: String(depth) } },
    h('th', { scope: 'row', class: 'name', style: `--depth:${depth}` },
      h('span', { class: 'indent' }), h('span', { class: 'toggle-spacer' }),
      h('a', { href: fileHref(tr.opts.repo, tr.opts.rev, f.path) }, f.path.slice(f.path.lastIndexOf('/') + 1)), ' ',
      statusBadge(f.status)),
    h('td', { class: 'num t-files' }, ''),
    h('td', { class: 'col-bar' }, statusBar(agg.functions)),
    treeNumCells(agg, tr.obStates),
    h('td', { class: 't-ready' }, !isAnalysed(f) ? h('span', { class: 'muted', title: STATUS_HELP[UNANALYSED] }, '—')
      : f.universal_ready ? h('span', { class: 'yes' }, 'yes') : h('span', { class: 'no' }, 'no')));
}

/* The rows of directory node (shown as label) at depth, and, when it is
 * open, of what it holds. */
function treeRows(tr, node, label, depth) {
  const { open, opts } = tr;
  const isOpen = open.has(node.path);
  const out = [h('tr', {
    class: 'dir', dataset: { dir: node.path, depth: String(depth) },
  },
  h('th', { scope: 'row', class: 'name', style: `--depth:${depth}` },
    h('span', { class: 'indent' }),
    h('button', {
      type: 'button', class: 'toggle', 'aria-label': `${isOpen ? 'Collapse' : 'Expand'} ${node.path}/`, 'aria-expanded': String(isOpen),
      onclick: () => {
        if (open.has(node.path)) open.delete(node.path); else open.add(node.path);
        opts.onOpen?.(open);
        treeDraw(tr);
      },
    }, isOpen ? '▾' : '▸'),
    h('a', { href: overviewHref(opts.repo, opts.rev, { dir: node.path }), title: `Show only ${node.path}/ in the file table` }, `${label}/`)),
  h('td', { class: 'num t-files' }, fmt(node.agg.files), node.agg.missing
    ? h('span', { class: 'muted small t-missing', title: STATUS_HELP[UNANALYSED] }, ` +${fmt(node.agg.missing)} not analysed`) : null),
  h('td', { class: 'col-bar' }, statusBar(node.agg.functions)),
  treeNumCells(node.agg, tr.obStates),
  treeReadyCell(node.agg.ready, node.agg.files))];
  if (!isOpen) return out;
  const subs = [...node.dirs.values()].map(compress).sort((a, b) => cmpStr(a.label, b.label));
  for (const s of subs) out.push(...treeRows(tr, s.node, s.label, depth + 1));
  for (const f of [...node.files].sort((a, b) => cmpStr(a.path, b.path))) out.push(treeFileRow(tr, f, depth + 1));
  return out;
}

/* The table's body, as the open directories make it. */
function treeDraw(tr) {
  const { tree, top } = tr;
  const list = [];
  if (top.node === tree) {
    // Several top-level entries: no single root row.
    for (const s of [...tree.dirs.values()].map(compress).sort((a, b) => cmpStr(a.label, b.label))) list.push(...treeRows(tr, s.node, s.label, 0));
    for (const f of [...tree.files].sort((a, b) => cmpStr(a.path, b.path))) list.push(treeFileRow(tr, f, 0));
  } else {
    list.push(...treeRows(tr, top.node, top.label, 0));
  }
  replace(tr.tbody, list.length ? list : h('tr', { class: 'empty' }, h('td', { colspan: 8 + tr.obStates.length }, 'No files.')));
}

/**
 * Renders the tree table into root.  opts: {repo, rev, open: Set of open
 * directory paths (or null for the default: top level open), onOpen(set),
 * objectDtype (false: the port has none, no object-dtype columns)}.
 */
export function renderTree(root, files, opts) {
  const obStates = opts.objectDtype === false ? [] : OBJECT_STATES;
  const tree = buildTree(files);
  const top = compress(tree);   // the root itself collapses into its single top directory, if any
  let open = opts.open;
  if (!open) {
    open = new Set();
    if (top.node !== tree) open.add(top.node.path);
  }
  const tbody = h('tbody');
  const table = h('table', { class: 'data tree', id: 'dir-tree' },
    h('caption', { class: 'sr-only' }, 'Directories with their summed figures; expand to see files'),
    treeHead(obStates), tbody);
  const tr = { opts, obStates, tree, top, open, tbody };

  /** Opens every directory (used by the "expand all" button). */
  function expandAll() {
    const walk = (n) => { open.add(n.path); for (const d of n.dirs.values()) walk(d); };
    for (const d of tree.dirs.values()) walk(d);
    opts.onOpen?.(open);
    treeDraw(tr);
  }
  function collapseAll() {
    open.clear();
    opts.onOpen?.(open);
    treeDraw(tr);
  }
  treeDraw(tr);
  replace(root, h('div', { class: 'table-wrap' }, table));
  return { expandAll, collapseAll };
}
