// nodata.mjs: what the dashboard shows for a repository without data (issue
// 23, point 5): a row whose ingest stored no ref has nothing to summarise,
// so it says that and how to go on, instead of asking the API for HEAD and
// showing one "unknown revision" error per panel.

import { getJson, seg } from './api.mjs';
import { h, replace, fmt } from './dom.mjs';

/**
 * Fill `el` with the no-data notice of repository `name`.  The repository's
 * state (GET /api/v1/repos/{repo}) adds what is stored, when it can be read.
 */
export async function showNoData(el, name) {
  let info = null;
  try {
    info = await getJson(`api/v1/repos/${seg(name)}`);
  } catch { /* the notice stands without the figures */ }
  const stored = info ? ` It holds ${fmt(info.commits)} commits and no ref.` : '';
  replace(el, h('div', { class: 'nodata', 'data-state': 'empty' },
    h('strong', null, `No data for ${name} yet.`),
    ` No ingest of this repository has stored a branch or tag, so there is nothing to show.${stored} `,
    'Run ', h('code', null, `portdash ingest --name ${name} --git-dir GITDIR --ref BRANCH`),
    ', or remove it with ', h('code', null, `portdash repo rm --db FILE ${name}`), '.'));
}
