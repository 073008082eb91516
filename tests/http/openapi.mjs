// openapi.mjs: every HTTP case is also a check of the OpenAPI document
// (server/openapi.json, as the server under test serves it): the answer's
// status must be documented for its operation, and a JSON answer must
// validate against the schema documented for that status and content type
// (JSON Schema 2020-12, `required` included).  coverage() then names the
// operations that no case answered with a 2xx, so every operation is
// checked against a real answer at least once.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

// "/a/{x}/b" -> a RegExp.  OpenAPI's {param} is one segment, except a last
// {path} (the file path of the file routes), which is the rest of the path,
// and "{measure}.svg" keeps its literal tail.
function templateRegExp(t) {
  const parts = t.split(/(\{[^}]+\})/);
  const last = parts.filter((p) => p.startsWith('{')).pop();
  const src = parts.map((p) => {
    if (!p.startsWith('{')) return p.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    return p === '{path}' && p === last && t.endsWith('{path}') ? '.+' : '[^/]+';
  }).join('');
  return new RegExp(`^${src}$`);
}

// The number of literal characters: the most specific template wins.
const literal = (t) => t.replace(/\{[^}]+\}/g, '').length;

export class OpenApiCheck {
  constructor(doc) {
    this.doc = doc;
    this.ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
    this.templates = Object.keys(doc.paths)
      .map((t) => ({ t, re: templateRegExp(t) }))
      .sort((a, b) => literal(b.t) - literal(a.t));
    this.compiled = new Map();
    this.covered = new Set();
  }

  // The operation of METHOD PATH (query string ignored), or null when the
  // document has none (the dashboard's files, a 404 or 405 path).
  operation(method, path) {
    const p = path.split('?')[0];
    const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
    for (const { t, re } of this.templates) {
      if (re.test(p) && this.doc.paths[t][m])
        return { template: t, method: m, op: this.doc.paths[t][m] };
    }
    return null;
  }

  resolve(obj) {
    while (obj && obj.$ref) {
      const ptr = obj.$ref.replace(/^#\//, '').split('/')
        .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
      obj = ptr.reduce((o, k) => (o ? o[k] : undefined), this.doc);
    }
    return obj;
  }

  validator(pointer) {
    if (!this.compiled.has(pointer))
      this.compiled.set(pointer, this.ajv.compile({ $ref: `openapi.json#${pointer}` }));
    return this.compiled.get(pointer);
  }

  // Check one answer; returns a list of errors (empty when it conforms).
  check(method, path, res) {
    const found = this.operation(method, path);
    if (!found || res.status === 304 || method === 'HEAD') return [];
    const { template, op } = found;
    const status = String(res.status);
    const key = [status, `${status[0]}XX`, 'default'].find((k) => op.responses?.[k]);
    const name = `${op.operationId} (${found.method.toUpperCase()} ${template})`;
    if (!key) return [`openapi: ${name} does not document status ${status}`];
    const resp = this.resolve(op.responses[key]);
    const ctype = String(res.headers['content-type'] || '').split(';')[0].trim();
    if (!resp.content) return [];
    if (!resp.content[ctype])
      return [`openapi: ${name} ${status} documents ${Object.keys(resp.content).join(', ')}, `
        + `not ${ctype}`];
    if (/^2/.test(status)) this.covered.add(op.operationId);
    if (!/json$/.test(ctype)) return [];
    const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
    const base = op.responses[key].$ref
      ? op.responses[key].$ref.slice(1)
      : `/paths/${esc(template)}/${found.method}/responses/${key}`;
    const pointer = `${base}/content/${esc(ctype)}/schema`;
    let body;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch (e) {
      return [`openapi: ${name} ${status}: the body is not JSON (${e.message})`];
    }
    const v = this.validator(encodeURI(pointer));
    if (v(body)) return [];
    return v.errors.slice(0, 8).map((e) =>
      `openapi: ${name} ${status}: ${e.instancePath || '/'} ${e.message}`
      + (e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''));
  }

  // The operations that no checked answer showed with a 2xx status.
  uncovered() {
    const out = [];
    for (const [t, item] of Object.entries(this.doc.paths))
      for (const m of METHODS)
        if (item[m] && !this.covered.has(item[m].operationId))
          out.push(`${item[m].operationId} (${m.toUpperCase()} ${t})`);
    return out;
  }
}
