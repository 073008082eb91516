// prefetch.js: the first API requests of the file page and the overview,
// started by a plain script at the top of <head>, while the browser is
// still fetching and linking the pages' modules (issue 26.4: on
// arraytypes.c.src the file answer was asked only once ten modules and the
// measures had loaded).  api.mjs takes a response from here when it asks
// for the very same URL with the very same Accept header, once; a URL the
// page does not ask for costs one unused request.  Not a module, so that
// it runs before the modules (the overview defers it: it takes what the
// server wrote into the page, server/srv_first.c); no inline script, as the
// Content-Security-Policy wants.
(function () {
  'use strict';
  var JSON_ACCEPT = 'application/json';
  var TEXT_ACCEPT = 'text/plain, text/markdown, text/csv, application/problem+json';
  var q = new URLSearchParams(location.search);
  var seg = function (s) { return encodeURIComponent(String(s)); };
  var segs = function (p) { return String(p).split('/').map(seg).join('/'); };
  var repo = q.get('repo');
  var rev = q.get('rev');
  var want = [];
  var page = location.pathname.replace(/.*\//, '') || 'index.html';
  var dot = function (x) { return x === '.' || x === '..'; };
  if (repo && rev && !dot(repo) && !dot(rev)) {
    var base = 'api/v1/repos/' + seg(repo) + '/commits/' + seg(rev);
    // A path with a "." or ".." segment is no git path, and the browser
    // would resolve it into another route (api.mjs pathSegs): not asked.
    if (page === 'file.html' && q.get('path') &&
        !q.get('path').split('/').some(function (x) { return x === '.' || x === '..'; })) {
      // The first screen's answer (the head and the function table) first,
      // then the text: the browser asks a server six at a time, and the
      // page's modules wait behind these.  The findings list (1.5 MB on
      // arraytypes.c.src) is asked by the page once the table is in.
      // The measures first of all: model.mjs waits for them at its top
      // level, and with it every module of the page.
      want.push(['api/v1/measures', JSON_ACCEPT]);
      want.push([base + '/file-functions/' + segs(q.get('path')), JSON_ACCEPT]);
      want.push([base + '/raw/' + segs(q.get('path')), TEXT_ACCEPT]);
    } else if (page === 'index.html' && !q.get('scope')) {
      want.push(['api/v1/measures', JSON_ACCEPT], ['api/v1/repos', JSON_ACCEPT],
        [base + '/summary', JSON_ACCEPT], [base + '/files', JSON_ACCEPT],
        [base + '/frontier?limit=100000', JSON_ACCEPT]);
    }
  }
  if (!want.some(function (w) { return w[0] === 'api/v1/measures'; })) want.push(['api/v1/measures', JSON_ACCEPT]);
  // The repository list: the file page does not read it (its history
  // sparkline asks at the page's own rev), so it is not asked there.
  if (page !== 'file.html' && !want.some(function (w) { return w[0] === 'api/v1/repos'; })) {
    want.push(['api/v1/repos', JSON_ACCEPT]);
  }
  var map = new Map();
  // The overview's first-screen answers, which the server wrote into the
  // page (server/srv_first.c: <script type="application/json" id="pd-first">,
  // above this script): {now, answers: {URL: answer}}, each the API's answer
  // to that very URL (Accept: application/json).  Taken as if prefetched;
  // a URL not in it is fetched as before.
  var first = null;
  var el = document.getElementById('pd-first');
  if (el) {
    try { first = JSON.parse(el.textContent); } catch (e) { first = null; }
  }
  var answers = (first && first.answers) || {};
  Object.keys(answers).forEach(function (url) {
    var r = { ok: true, status: 200, __pdBody: Promise.resolve(answers[url]) };
    map.set(JSON_ACCEPT + ' ' + url, Promise.resolve(r));
  });
  // Each answer is read and parsed as soon as it is in (r.__pdBody, which
  // api.mjs takes), while the page's modules are still being fetched and
  // the main thread has nothing else to do; read by the page, the body
  // of the file page's first-screen answer was parsed only once every
  // module had run, on the way to the first screen (issue 26.4).  A
  // failure (not ok) is left unread: api.mjs reads its problem document.
  var body = function (accept) {
    return function (r) {
      if (r.ok) {
        r.__pdBody = accept === JSON_ACCEPT ? r.json() : r.text();
        r.__pdBody.catch(function () {});
      }
      return r;
    };
  };
  var ask = function (url, accept) {
    if (map.has(accept + ' ' + url)) return;   // in the page already
    // A failed fetch is left for api.mjs to see as its own (it reports it).
    var p = fetch(url, { headers: { accept: accept } }).then(body(accept));
    p.catch(function () {});
    map.set(accept + ' ' + url, p);
  };
  want.forEach(function (w) { ask(w[0], w[1]); });
  window.__pdPrefetch = map;

  // The overview's week card (devcall.mjs) asks five history answers whose
  // cutoff is the tip's date less 7 days (or now's when the tip is newer):
  // asked here as soon as the summary is in, not after the modules have
  // run and asked it again (issue 26.4).  The same URLs as devcall.mjs's
  // weekCard builds, with the same "now" (window.__pdWeekNow); a URL that
  // differs costs unused requests, never a wrong figure.  weekCard waits
  // for window.__pdWeekAsked (settled once these are asked, or not), so
  // that it takes them: when the summary came after the modules had run,
  // it had asked all five itself first, and these went unused.
  if (page === 'index.html' && repo && rev && !q.get('scope')) {
    var json = function (key) {
      var p = map.get(JSON_ACCEPT + ' ' + key);
      return p ? p.then(function (r) { return r.ok ? r.__pdBody : null; }) : Promise.resolve(null);
    };
    var histBase = 'api/v1/repos/' + seg(repo) + '/refs/' + seg(rev) + '/history?';
    window.__pdWeekAsked = Promise.all([json(base + '/summary'), json('api/v1/repos')]).then(function (got) {
      var s = got[0];
      var r = (got[1] || []).filter(function (x) { return x.name === repo; })[0];
      var isRef = r && (r.refs || []).some(function (x) { return x.name === rev; });
      var tip = Date.parse((s && (s.committer_date || s.author_date)) || '');
      if (!isRef || isNaN(tip)) return;
      // The server's "now" when it embedded the week answers, so that
      // the URLs are the ones it asked.
      var now = first && typeof first.now === 'number' ? first.now : Date.now();
      var DAY = 86400000;
      var end = now - tip > 7 * DAY ? tip : now;
      var cutoff = new Date(end - 7 * DAY).toISOString().replace(/\.\d+Z$/, 'Z');
      window.__pdWeekNow = now;
      var hist = function (params) { ask(histBase + new URLSearchParams(params).toString(), JSON_ACCEPT); };
      // devcall.mjs's WEEK_MEASURES, in order (srv_first.c asks the same).
      ['universal_ready_files', 'functions.ported', 'functions.bridged', 'functions.legacy',
        'object_paths.object-legacy'].forEach(function (m) {
        hist([['measure', m], ['date', 'committer'], ['window', 'port'], ['until', cutoff], ['points', '3']]);
      });
      hist([['measure', 'functions.ported'], ['date', 'committer'], ['window', 'port'], ['since', cutoff]]);
    }).catch(function () {});
  }
}());
