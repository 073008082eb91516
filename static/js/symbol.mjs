// symbol.mjs: one C API symbol (symbol.html?repo=R&rev=REV&symbol=NAME
// [&scope=S]): its HPy replacement and every site where it still blocks
// universal mode (symbols.mjs).

import { h, replace, setTitle } from './dom.mjs';
import { showError, readParams, renderNav, overviewHref, revLabel } from './ui.mjs';
import { renderSymbolPage } from './symbols.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'rev', 'symbol', 'scope']);

async function main() {
  renderNav($('nav'), '', state.repo, state.rev);
  replace($('crumbs'),
    h('li', null, h('a', { href: overviewHref(state.repo, state.rev) }, `${state.repo} @ ${revLabel(state.rev)}`)),
    h('li', { 'aria-current': 'page' }, 'symbol ', state.symbol));
  setTitle(`${state.symbol} · ${state.repo} · portdash`);
  const d = await renderSymbolPage($('symbol'), { repo: state.repo, rev: state.rev, name: state.symbol, scope: state.scope });
  document.body.dataset.commit = d.commit;
}

main()
  .catch((e) => {
    showError($('errors'), e, 'Symbol');
    replace($('symbol'), h('span', { class: 'muted' }, 'Nothing to show.'));
  })
  .finally(() => { document.body.dataset.ready = 'true'; });
