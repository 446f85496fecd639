// The card editor's first page (design/editor.js): the card sets the server's store keeps,
// each opening in the editor, the form that makes a new one from a shipped card data version
// or another set (its name refused with the reason on the name's field), and the form that
// imports a TOML file (a new set, or the next revision of the set it names; the file's
// problems listed by field). Also the editor's requests to the design API and the words for
// a set's parent.

import { h, put } from '../shell/dom.js';
import { gameName } from '../shell/registry.js';
import { S } from '../shell/state.js';
import { designPath } from './design.js';
import { said } from './editor-fields.js';
import { et } from './editor-strings.js';

const RULESETS = ['kobo', 'maken'];

const H = {
  body: null,
  open: null,
  sets: null,
  parents: {},
  derive: { ruleset: '', from: '', name: '' },
  deriveProblems: [],
  imported: { ruleset: '', name: '', file: '', toml: null, problems: [], busy: false },
  busy: false,
  error: '',
};

/** The games with card sets that this server offers. */
export const offered = () => RULESETS.filter((r) => !S.meta || !S.meta.rulesets || r in S.meta.rulesets);
const here = () => H.body && H.body.isConnected && document.body.dataset.screen === 'design';

/** A JSON request to the design API; an Error carrying the server's problems on refusal. */
export async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => null);
  if (r.ok) return data;
  const detail = data && data.detail;
  let problems;
  if (detail && Array.isArray(detail.problems)) problems = detail.problems;
  else if (typeof detail === 'string') problems = [{ path: '', en: detail, ja: detail }];
  else if (Array.isArray(detail)) problems = detail.map((d) => ({ path: (d.loc || []).slice(1).join('.'), en: d.msg, ja: d.msg }));
  else problems = [{ path: '', en: r.statusText || String(r.status), ja: r.statusText || String(r.status) }];
  const err = new Error(problems.map(said).join('\n'));
  err.problems = problems;
  err.status = r.status;
  throw err;
}

async function parentsOf(ruleset) {
  if (!H.parents[ruleset]) H.parents[ruleset] = (await api('GET', `/api/design/games/${ruleset}/parents`)).parents;
  return H.parents[ruleset];
}

/** The card data a set was derived from, as the run form names it (`v3`, a set's name). */
export function parentSource(info) {
  const [kind, rest] = [info.parent.split(':')[0], info.parent.slice(info.parent.indexOf(':') + 1)];
  return kind === 'shipped' ? rest : rest.split('@')[0];
}

/** A shipped version for people: `同梱 v3`; Maken's one version: `同梱のカードデータ`. */
function shippedLabel(label) {
  return label === 'shipped' ? et('ed_shipped_one') : et('ed_shipped', { label });
}

/** The card data a set was derived from, for people. */
export function parentLabel(info) {
  const source = parentSource(info);
  return info.parent.startsWith('shipped:') ? shippedLabel(source) : et('ed_set_src', { name: source });
}

/* ================================================================== the sets (home) */

/** Show the sets and the form that makes one in `body`; `open(name)` opens a set. */
export async function openHome(body, open) {
  H.body = body;
  H.open = open;
  H.sets = null;
  H.error = '';
  designPath('editor');
  renderHome();
  try {
    const [listed] = await Promise.all([api('GET', '/api/design/sets'), ...offered().map(parentsOf)]);
    H.sets = listed.sets;
  } catch (err) {
    H.error = said((err.problems || [{}])[0]) || String(err.message);
  }
  const d = H.derive;
  if (!offered().includes(d.ruleset)) d.ruleset = offered()[0] || 'kobo';
  if (!d.from) d.from = (H.parents[d.ruleset] || [])[0] || '';
  if (here()) renderHome();
}

/** Draw the sets and the form again (the page's language changed). */
export function renderHome() {
  const sets = H.sets;
  const list = !sets
    ? h('p', { class: 'muted', text: et('ed_loading') })
    : !sets.length
      ? h('p', { class: 'muted', id: 'ed-no-sets', text: et('ed_no_sets') })
      : h('ul', { class: 'ed-sets', id: 'ed-sets' }, sets.map((s) => h('li', { class: 'ed-set' },
        h('button', { type: 'button', class: 'ed-set-open', dataset: { name: s.name }, onclick: () => H.open(s.name) },
          h('span', { class: 'ed-set-name', text: s.name }),
          h('span', { class: 'ed-meta', text: `${gameName(s.ruleset)} · ${et('ed_parent', { parent: parentLabel(s) })} · ${et('ed_revision', { n: s.revisions })}` })))));
  const ready = sets && H.derive.from;
  put(H.body, h('div', { class: 'ed-home', id: 'ed-home' },
    h('section', { class: 'ed-box' }, h('h2', { class: 'rn-h2', text: et('ed_sets') }), H.error ? h('p', { class: 'rn-error', text: H.error }) : null, list),
    h('div', { class: 'ed-home-side' },
      h('section', { class: 'ed-box' }, h('h2', { class: 'rn-h2', text: et('ed_derive') }),
        ready ? deriveForm() : h('p', { class: 'muted', text: et('ed_loading') })),
      sets ? h('section', { class: 'ed-box' }, h('h2', { class: 'rn-h2', text: et('ed_import') }), importForm()) : null)));
}

function importForm() {
  const m = H.imported;
  if (!offered().includes(m.ruleset)) m.ruleset = offered()[0] || 'kobo';
  const existing = (H.sets || []).find((s) => s.name === m.name.trim());
  const hint = m.name.trim() ? (existing ? et('ed_import_hint_next', { name: existing.name }) : et('ed_import_hint_new')) : '';
  return h('form', {
    class: 'ed-derive', id: 'ed-import', autocomplete: 'off',
    onsubmit: (ev) => { ev.preventDefault(); importFile(); },
  },
  h('div', { class: 'ed-field' },
    h('label', { class: 'ed-label', for: 'ed-import-file', text: et('ed_import_file') }),
    h('input', {
      id: 'ed-import-file', type: 'file', accept: '.toml,text/plain',
      onchange: async (ev) => {
        const file = ev.target.files && ev.target.files[0];
        if (!file) return;
        m.toml = await file.text();
        // A name typed while the file was read survives the form drawn anew.
        const typed = document.getElementById('ed-import-name');
        if (typed) m.name = typed.value;
        m.file = file.name;
        if (!m.name) m.name = file.name.replace(/\.toml$/i, '');
        m.problems = [];
        renderHome();
      },
    }),
    m.file ? h('p', { class: 'ed-hint', id: 'ed-import-chosen', text: m.file }) : null),
  existing ? null : h('div', { class: 'ed-field' },
    h('label', { class: 'ed-label', for: 'ed-import-game', text: et('ed_derive_game') }),
    h('select', { id: 'ed-import-game', onchange: (ev) => { m.ruleset = ev.target.value; } },
      offered().map((r) => h('option', { value: r, text: gameName(r), selected: r === m.ruleset })))),
  h('div', { class: 'ed-field' },
    h('label', { class: 'ed-label', for: 'ed-import-name', text: et('ed_import_name') }),
    h('input', {
      id: 'ed-import-name', type: 'text', maxlength: '60', value: m.name, 'aria-describedby': 'ed-import-hint',
      onchange: (ev) => { m.name = ev.target.value; renderHome(); },
    }),
    h('p', { class: 'ed-hint', id: 'ed-import-hint', text: hint })),
  m.problems.length ? h('div', { class: 'rf-problems', id: 'ed-import-problems', role: 'alert' },
    m.problems.map((p) => h('p', { text: p.path ? `${p.path}: ${said(p)}` : said(p) }))) : null,
  h('div', { class: 'rf-actions' },
    h('button', { type: 'submit', id: 'ed-import-go', class: 'primary', disabled: m.busy, text: m.busy ? et('ed_importing') : et('ed_import_go') })));
}

async function importFile() {
  const m = H.imported;
  const name = document.getElementById('ed-import-name');
  if (name) m.name = name.value;
  if (m.toml === null) {
    m.problems = [{ path: '', en: et('ed_import_pick'), ja: et('ed_import_pick') }];
    renderHome();
    return;
  }
  m.busy = true;
  m.problems = [];
  renderHome();
  try {
    const existing = (H.sets || []).some((s) => s.name === m.name.trim());
    const made = await api('POST', '/api/design/sets/import', {
      name: m.name.trim(), toml: m.toml, note: et('ed_import_note', { file: m.file }),
      ...(existing ? {} : { ruleset: m.ruleset }),
    });
    H.imported = { ruleset: m.ruleset, name: '', file: '', toml: null, problems: [], busy: false };
    H.sets = null;
    await H.open(made.name);
  } catch (err) {
    m.busy = false;
    m.problems = err.problems || [{ path: '', en: String(err.message), ja: String(err.message) }];
    if (here()) renderHome();
  }
}

function deriveForm() {
  const d = H.derive;
  const sources = [
    ...(H.parents[d.ruleset] || []).map((p) => ({ value: p, text: shippedLabel(p) })),
    ...(H.sets || []).filter((s) => s.ruleset === d.ruleset).map((s) => ({ value: s.name, text: et('ed_set_src', { name: s.name }) })),
  ];
  const at = (path) => H.deriveProblems.filter((p) => p.path === path);
  const msgs = (path, id) => h('div', { class: 'ed-msg', id }, at(path).map((p) => h('p', { class: 'ed-problem', text: said(p) })));
  const other = H.deriveProblems.filter((p) => !['name', 'from', 'ruleset'].includes(p.path));
  return h('form', {
    class: 'ed-derive', id: 'ed-derive', autocomplete: 'off',
    onsubmit: (ev) => { ev.preventDefault(); derive(); },
  },
  h('div', { class: 'ed-field' },
    h('label', { class: 'ed-label', for: 'ed-derive-game', text: et('ed_derive_game') }),
    h('select', {
      id: 'ed-derive-game',
      onchange: async (ev) => {
        d.ruleset = ev.target.value;
        await parentsOf(d.ruleset).catch(() => []);
        d.from = (H.parents[d.ruleset] || [])[0] || '';
        renderHome();
      },
    }, offered().map((r) => h('option', { value: r, text: gameName(r), selected: r === d.ruleset })))),
  h('div', { class: `ed-field${at('from').length ? ' bad' : ''}` },
    h('label', { class: 'ed-label', for: 'ed-derive-from', text: et('ed_derive_from') }),
    h('select', { id: 'ed-derive-from', 'aria-describedby': 'ed-derive-from-msg', onchange: (ev) => { d.from = ev.target.value; } },
      sources.map((s) => h('option', { value: s.value, text: s.text, selected: s.value === d.from }))),
    msgs('from', 'ed-derive-from-msg')),
  h('div', { class: `ed-field${at('name').length ? ' bad' : ''}` },
    h('label', { class: 'ed-label', for: 'ed-derive-name', text: et('ed_derive_name') }),
    h('input', {
      id: 'ed-derive-name', type: 'text', maxlength: '60', value: d.name, 'aria-describedby': 'ed-derive-name-msg',
      'aria-invalid': at('name').length ? 'true' : null, oninput: (ev) => { d.name = ev.target.value; },
    }),
    msgs('name', 'ed-derive-name-msg')),
  other.length ? h('div', { class: 'rf-problems', role: 'alert' }, other.map((p) => h('p', { text: said(p) }))) : null,
  h('div', { class: 'rf-actions' },
    h('button', { type: 'submit', id: 'ed-derive-go', class: 'primary', disabled: H.busy, text: H.busy ? et('ed_deriving') : et('ed_derive_go') })));
}

async function derive() {
  const d = H.derive;
  H.busy = true;
  H.deriveProblems = [];
  renderHome();
  try {
    const made = await api('POST', '/api/design/sets', {
      name: d.name, ruleset: d.ruleset, from: d.from, note: et('ed_derive_note', { from: d.from }),
    });
    H.busy = false;
    d.name = '';
    H.sets = null;
    await H.open(made.name);
  } catch (err) {
    H.busy = false;
    H.deriveProblems = err.problems || [{ path: '', en: String(err.message), ja: String(err.message) }];
    if (here()) renderHome();
  }
}
